//! The app store (`use_reducer` + context): one session per system, the active
//! tab, and a notice line. Messages become engine actions; the engine decides.

use crate::engine::{pulsar, System};
use crate::scenario::{session::Session, url, Body, Log, Scenario};
use std::rc::Rc;
use yew::prelude::*;

/// A message to the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Something was refused or could not be read.
    Error(String),
    /// Something worth knowing.
    Info(String),
}

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct Store {
    /// Active tab.
    pub tab: System,
    /// The Pulsar session.
    pub pulsar: Session<pulsar::Sim>,
    /// Last message.
    pub notice: Option<Notice>,
    /// Bumped on every change, so views can key effects on it.
    pub revision: u64,
}

/// The namespace the slice works in.
pub const NAMESPACE: &str = "public/default";

/// Messages the components send.
pub enum Msg {
    /// Switch tab.
    Tab(System),
    /// Re-shard the initial namespace with `n` bundles (keeps the topic log).
    SetBundles(u32),
    /// Apply a Pulsar action.
    Pulsar(pulsar::Action),
    /// Add `count` random topics drawn from `seed` (the seed comes from the browser's RNG).
    RandomTopics {
        /// RNG seed for the names.
        seed: u64,
        /// How many.
        count: usize,
    },
    /// Undo / redo.
    Undo,
    /// Redo.
    Redo,
    /// Dismiss the notice.
    Dismiss,
}

fn default_pulsar_log(bundles: u32) -> Log<pulsar::Config, pulsar::Action> {
    Log {
        config: pulsar::Config::default(),
        setup: vec![pulsar::Action::CreateNamespace {
            namespace: NAMESPACE.into(),
            bundles: Some(bundles),
        }],
        actions: Vec::new(),
    }
}

impl Store {
    /// The default store: 4 bundles, no topics.
    pub fn fresh(seed: u64) -> Store {
        let pulsar = Session::new(seed, default_pulsar_log(4), None).expect("the default scenario replays");
        Store {
            tab: System::Pulsar,
            pulsar,
            notice: None,
            revision: 0,
        }
    }

    /// Open a scenario (from a link or the autosave); on failure keep `self` and say why.
    pub fn open(mut self, sc: Scenario) -> Store {
        match sc.body {
            Body::Pulsar(log) => match Session::new(sc.seed, log, sc.cursor) {
                Ok(s) => {
                    self.pulsar = s;
                    self.tab = System::Pulsar;
                }
                Err(e) => self.notice = Some(Notice::Error(format!("Could not open the scenario: {e}"))),
            },
            _ => {
                self.notice = Some(Notice::Info(format!(
                    "{} scenarios open in a later version of the playground",
                    sc.system().title()
                )))
            }
        }
        self
    }

    /// The initial store: the link in the URL if any (a bad one is reported and
    /// the autosave or default is used), else the autosave, else the default.
    pub fn boot() -> Store {
        let base = Store::fresh(1);
        let from_save = || {
            super::browser::autosaved()
                .and_then(|j| Scenario::from_json(&j).ok())
                .map(|sc| Store::fresh(1).open(sc))
        };
        match super::browser::fragment() {
            Some(f) if f.contains("s=") => match url::decode(&f) {
                Ok(sc) => base.open(sc),
                Err(e) => {
                    let mut s = from_save().unwrap_or(base);
                    s.notice = Some(Notice::Error(format!("This link could not be opened: {e}")));
                    s
                }
            },
            _ => from_save().unwrap_or(base),
        }
    }

    /// The scenario being shown.
    pub fn scenario(&self) -> Scenario {
        let mut sc = Scenario::empty(System::Pulsar, self.pulsar.seed());
        sc.body = Body::Pulsar(self.pulsar.log().clone());
        sc.cursor = self.pulsar.can_redo().then_some(self.pulsar.cursor());
        sc
    }

    /// The share fragment of the current scenario.
    pub fn fragment(&self) -> String {
        url::to_fragment(&self.scenario())
    }

    /// Bundle count of the initial namespace.
    pub fn bundles(&self) -> u32 {
        self.pulsar
            .state()
            .namespaces()
            .get(NAMESPACE)
            .map_or(0, |ns| ns.bundles.len() as u32)
    }
}

impl Reducible for Store {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut s = (*self).clone();
        s.notice = None;
        match msg {
            Msg::Tab(t) => s.tab = t,
            Msg::Dismiss => {}
            Msg::SetBundles(n) => {
                let mut log = s.pulsar.log().clone();
                log.setup = default_pulsar_log(n).setup;
                match Session::new(s.pulsar.seed(), log, Some(s.pulsar.cursor())) {
                    Ok(p) => s.pulsar = p,
                    Err(e) => s.notice = Some(Notice::Error(e.to_string())),
                }
            }
            Msg::Pulsar(a) => {
                if let Err(e) = s.pulsar.apply(a) {
                    s.notice = Some(Notice::Error(e.to_string()));
                }
            }
            Msg::RandomTopics { seed, count } => {
                for name in crate::scenario::presets::random_topic_names(seed, count) {
                    let topic = format!("persistent://{NAMESPACE}/{name}");
                    if let Err(e) = s.pulsar.apply(pulsar::Action::CreateTopic { topic }) {
                        s.notice = Some(Notice::Error(e.to_string()));
                        break;
                    }
                }
            }
            Msg::Undo => {
                if let Err(e) = s.pulsar.undo() {
                    s.notice = Some(Notice::Error(e.to_string()));
                }
            }
            Msg::Redo => {
                if let Err(e) = s.pulsar.redo() {
                    s.notice = Some(Notice::Error(e.to_string()));
                }
            }
        }
        s.revision += 1;
        Rc::new(s)
    }
}

/// The store as seen through context.
pub type StoreCtx = UseReducerHandle<Store>;

/// Serializable summary published as `window.lbscope`.
#[derive(serde::Serialize)]
pub struct Inspect {
    /// Active tab.
    pub tab: System,
    /// The scenario (JSON form).
    pub scenario: Scenario,
    /// Pulsar namespaces (bundles and topics).
    pub namespaces: Vec<pulsar::namespace::Namespace>,
    /// Narrated events of the applied log, newest last.
    pub events: Vec<String>,
}

impl Store {
    /// What `window.lbscope` shows.
    pub fn inspect(&self) -> Inspect {
        use crate::engine::Narrate;
        Inspect {
            tab: self.tab,
            scenario: self.scenario(),
            namespaces: self.pulsar.state().namespaces().values().cloned().collect(),
            events: self
                .pulsar
                .setup_events()
                .iter()
                .chain(self.pulsar.steps().iter().flatten())
                .map(Narrate::narrate)
                .collect(),
        }
    }
}

/// Stores are compared by revision: every reduce makes a new one.
impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
    }
}
