//! The app store (`use_reducer` + context): one session per system, the active
//! tab, and a notice line. Messages become engine actions; the engine decides.

use crate::engine::{flink, kstreams, pulsar, Narrate, System};
use crate::scenario::presets::{self, PULSAR_NAMESPACE};
use crate::scenario::{session::Session, url, Body, Scenario};
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
    /// The Flink session.
    pub flink: Session<flink::Sim>,
    /// The Kafka Streams session.
    pub kstreams: Session<kstreams::Sim>,
    /// Last message.
    pub notice: Option<Notice>,
    /// The entity the user is pointing at (clicked in the event log, hovered in a view).
    pub highlight: Option<Subject>,
    /// The last refused settings edit: (key, message), shown next to the field.
    pub field_error: Option<(String, String)>,
    /// The compare run: the same log with this config value changed.
    pub compare: Option<(String, serde_json::Value)>,
    /// Whether rounds are playing automatically.
    pub playing: bool,
    /// Milliseconds between automatic rounds.
    pub speed_ms: u32,
    /// Whether the keyboard-shortcut overlay is open.
    pub help: bool,
    /// Bumped on every change, so views can key effects on it.
    pub revision: u64,
    /// Bumped only when a scenario (or the active tab) may have changed: the link,
    /// the autosave and `window.lbscope` follow this one, not hovers.
    pub data_revision: u64,
}

/// One row of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// `None` for setup events, else the log index of the action that caused it.
    pub step: Option<usize>,
    /// The narration.
    pub text: String,
    /// What it is about.
    pub subject: Option<Subject>,
}

/// A line of the metrics chart: one value per round (or per scheduling run).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Unit shown on hover.
    pub unit: &'static str,
    /// `(round, value)` points.
    pub points: Vec<(f64, f64)>,
}

/// Most event-log rows the page renders (the newest ones).
pub const MAX_LOG_ROWS: usize = 400;

/// Something a view draws and an event can talk about, matched against the
/// element's `data-<kind>` attribute (e.g. kind `bundle`, id `public/default/0x00000000_0x40000000`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// `bundle`, `broker`, `topic`, `tm`, `slot`, `vertex`, `task`, `instance`, `thread`.
    pub kind: String,
    /// The entity's id, as in the `data-<kind>` attribute.
    pub id: String,
}

/// The namespace the Pulsar tab works in.
pub const NAMESPACE: &str = PULSAR_NAMESPACE;

/// Messages the components send.
pub enum Msg {
    /// Switch tab.
    Tab(System),
    /// Re-shard the initial namespace with `n` bundles (keeps the topic log).
    SetBundles(u32),
    /// Apply a Pulsar action.
    Pulsar(pulsar::Action),
    /// Apply a Flink action.
    Flink(flink::Action),
    /// Apply a Kafka Streams action.
    Kstreams(kstreams::Action),
    /// Open a scenario (a link, a file); on failure the current work stays.
    Open(Box<Scenario>),
    /// Start the active tab over from its default scenario.
    Reset,
    /// Undo one action of the active tab.
    Undo,
    /// Redo one action of the active tab.
    Redo,
    /// Move the active tab's cursor.
    Seek(usize),
    /// Show a notice.
    Notify(Notice),
    /// One round of the active tab (Pulsar: Step; Flink: Schedule; Kafka Streams: Rebalance).
    StepActive,
    /// Start or stop automatic rounds.
    Play(bool),
    /// Milliseconds between automatic rounds.
    Speed(u32),
    /// Open or close the shortcut overlay.
    Help(bool),
    /// Set one config value of the active tab, by its real name.
    SetConfig(String, serde_json::Value),
    /// Compare the active run with the same log under one changed config value.
    Compare(Option<(String, serde_json::Value)>),
    /// Point at an entity (or stop pointing).
    Highlight(Option<Subject>),
    /// Dismiss the notice.
    Dismiss,
}

/// Run `$body` with `$s` bound to the active session (whatever its engine type).
macro_rules! with_active {
    ($store:expr, $s:ident => $body:expr) => {
        match $store.tab {
            System::Pulsar => {
                let $s = &$store.pulsar;
                $body
            }
            System::Flink => {
                let $s = &$store.flink;
                $body
            }
            System::Kstreams => {
                let $s = &$store.kstreams;
                $body
            }
        }
    };
    (mut $store:expr, $s:ident => $body:expr) => {
        match $store.tab {
            System::Pulsar => {
                let $s = &mut $store.pulsar;
                $body
            }
            System::Flink => {
                let $s = &mut $store.flink;
                $body
            }
            System::Kstreams => {
                let $s = &mut $store.kstreams;
                $body
            }
        }
    };
}

fn default_session<S: crate::engine::Engine>(
    sys: System,
    pick: impl Fn(Body) -> Option<crate::scenario::Log<S::Config, S::Action>>,
) -> Session<S> {
    let sc = presets::default_scenario(sys);
    let log = pick(sc.body).unwrap_or_default();
    Session::new(sc.seed, log, None).expect("the default scenarios replay (tested natively)")
}

impl Store {
    /// Every tab at its default scenario.
    pub fn fresh() -> Store {
        Store {
            tab: System::Pulsar,
            pulsar: default_session(System::Pulsar, |b| match b {
                Body::Pulsar(l) => Some(l),
                _ => None,
            }),
            flink: default_session(System::Flink, |b| match b {
                Body::Flink(l) => Some(l),
                _ => None,
            }),
            kstreams: default_session(System::Kstreams, |b| match b {
                Body::Kstreams(l) => Some(l),
                _ => None,
            }),
            notice: None,
            highlight: None,
            field_error: None,
            compare: None,
            playing: false,
            speed_ms: 800,
            help: false,
            revision: 0,
            data_revision: 0,
        }
    }

    /// Open a scenario into its tab; on failure keep everything and say why.
    pub fn open(&mut self, sc: Scenario) {
        let sys = sc.system();
        let result = match sc.body {
            Body::Pulsar(log) => Session::new(sc.seed, log, sc.cursor).map(|s| self.pulsar = s),
            Body::Flink(log) => Session::new(sc.seed, log, sc.cursor).map(|s| self.flink = s),
            Body::Kstreams(log) => Session::new(sc.seed, log, sc.cursor).map(|s| self.kstreams = s),
        };
        match result {
            Ok(()) => self.tab = sys,
            Err(e) => self.notice = Some(Notice::Error(format!("Could not open the scenario: {e}"))),
        }
    }

    /// The initial store: the link in the URL if any (a bad one is reported and
    /// the autosave or default is used), else the autosave, else the default.
    pub fn boot() -> Store {
        let mut store = Store::fresh();
        // `?fresh` (the crash panel's "Start fresh") ignores the autosave without deleting it.
        let saved = if super::browser::query_has("fresh") {
            None
        } else {
            super::browser::autosaved().and_then(|j| Scenario::from_json(&j).ok())
        };
        match super::browser::fragment() {
            Some(f) if f.contains("s=") => match url::decode(&f) {
                Ok(sc) => store.open(sc),
                Err(e) => {
                    if let Some(sc) = saved {
                        store.open(sc);
                    }
                    store.notice = Some(Notice::Error(format!(
                        "This link could not be opened: {e}. Your last autosaved scenario is shown instead."
                    )));
                }
            },
            _ => {
                if let Some(sc) = saved {
                    store.open(sc);
                    if store.notice.is_none() {
                        store.notice = Some(Notice::Info(
                            "Welcome back: your last scenario was restored from this browser. Reset starts the tab over."
                                .into(),
                        ));
                    }
                }
            }
        }
        store
    }

    /// The active tab's scenario.
    pub fn scenario(&self) -> Scenario {
        let mut sc = Scenario::empty(self.tab, 1);
        with_active!(self, s => {
            sc.seed = s.seed();
            sc.cursor = s.can_redo().then_some(s.cursor());
        });
        sc.body = match self.tab {
            System::Pulsar => Body::Pulsar(self.pulsar.log().clone()),
            System::Flink => Body::Flink(self.flink.log().clone()),
            System::Kstreams => Body::Kstreams(self.kstreams.log().clone()),
        };
        sc
    }

    /// The share fragment of the active tab's scenario.
    pub fn fragment(&self) -> String {
        url::to_fragment(&self.scenario())
    }

    /// Whether the active tab can undo / redo, and its cursor and log length.
    pub fn history(&self) -> (bool, bool, usize, usize) {
        with_active!(self, s => (s.can_undo(), s.can_redo(), s.cursor(), s.log().actions.len()))
    }

    /// Bundle count of the Pulsar tab's namespace.
    pub fn bundles(&self) -> u32 {
        self.pulsar
            .state()
            .namespaces()
            .get(NAMESPACE)
            .map_or(0, |ns| ns.bundles.len() as u32)
    }

    /// The narrated event log of the active tab: (step, text), setup first (step `None`).
    pub fn narrated(&self) -> Vec<(Option<usize>, String)> {
        with_active!(self, s => {
            let setup = s.setup_events().iter().map(|e| (None, e.narrate()));
            let steps = s
                .steps()
                .iter()
                .enumerate()
                .flat_map(|(i, evs)| evs.iter().map(move |e| (Some(i), e.narrate())));
            setup.chain(steps).collect()
        })
    }

    /// The newest [`MAX_LOG_ROWS`] events of the active tab, newest first, and how many older ones are hidden.
    pub fn event_rows(&self) -> (Vec<EventRow>, usize) {
        fn rows<E: Narrate + serde::Serialize>(setup: &[E], steps: &[Vec<E>]) -> (Vec<EventRow>, usize) {
            let total = setup.len() + steps.iter().map(Vec::len).sum::<usize>();
            let mut out = Vec::with_capacity(total.min(MAX_LOG_ROWS));
            'outer: for (i, evs) in steps.iter().enumerate().rev() {
                for e in evs.iter().rev() {
                    if out.len() == MAX_LOG_ROWS {
                        break 'outer;
                    }
                    out.push(row(Some(i), e));
                }
            }
            for e in setup.iter().rev() {
                if out.len() == MAX_LOG_ROWS {
                    break;
                }
                out.push(row(None, e));
            }
            let hidden = total - out.len();
            (out, hidden)
        }
        fn row<E: Narrate + serde::Serialize>(step: Option<usize>, e: &E) -> EventRow {
            let subject = serde_json::to_value(e)
                .ok()
                .and_then(|v| crate::scenario::run::subject_of(&v))
                .map(|(kind, id)| Subject { kind, id });
            EventRow {
                step,
                text: e.narrate(),
                subject,
            }
        }
        with_active!(self, s => rows(s.setup_events(), s.steps()))
    }

    /// The metric lines of the active tab, read from the engine's round events.
    pub fn series(&self) -> Vec<Series> {
        match self.tab {
            System::Pulsar => pulsar_series(&self.pulsar),
            System::Flink => flink_series(&self.flink),
            System::Kstreams => kstreams_series(&self.kstreams),
        }
    }

    /// The active tab's log replayed with one config value changed (the compare
    /// run), and its metric lines. Lock-step: it replays the same actions up to the
    /// same cursor. `Err` says why the other run could not be made.
    pub fn compare_series(&self, key: &str, value: &serde_json::Value) -> Result<Vec<Series>, String> {
        fn alt<S: crate::engine::Engine>(
            s: &Session<S>,
            key: &str,
            value: &serde_json::Value,
        ) -> Result<Session<S>, String> {
            let mut log = s.log().clone();
            let mut v = serde_json::to_value(&log.config).map_err(|e| e.to_string())?;
            v[key] = value.clone();
            log.config = serde_json::from_value(v).map_err(|e| e.to_string())?;
            Session::new(s.seed(), log, Some(s.cursor())).map_err(|e| e.to_string())
        }
        Ok(match self.tab {
            System::Pulsar => pulsar_series(&alt(&self.pulsar, key, value)?),
            System::Flink => flink_series(&alt(&self.flink, key, value)?),
            System::Kstreams => kstreams_series(&alt(&self.kstreams, key, value)?),
        })
    }

    /// The active tab's config and its defaults, as JSON objects (for the settings panel).
    pub fn config_json(&self) -> (serde_json::Value, serde_json::Value) {
        use crate::engine::Engine;
        fn pair<C: serde::Serialize + Default>(c: &C) -> (serde_json::Value, serde_json::Value) {
            (
                serde_json::to_value(c).unwrap_or_default(),
                serde_json::to_value(C::default()).unwrap_or_default(),
            )
        }
        match self.tab {
            System::Pulsar => pair(self.pulsar.state().config()),
            System::Flink => pair(self.flink.state().config()),
            System::Kstreams => pair(self.kstreams.state().config()),
        }
    }

    /// Apply one config edit to the active tab through the engine's own action.
    fn set_config(&mut self, key: &str, value: serde_json::Value) -> Result<(), String> {
        fn with_key<C: serde::Serialize + serde::de::DeserializeOwned>(
            c: &C,
            key: &str,
            value: serde_json::Value,
        ) -> Result<C, String> {
            let mut v = serde_json::to_value(c).map_err(|e| e.to_string())?;
            v[key] = value;
            serde_json::from_value(v).map_err(|e| format!("not accepted: {e}"))
        }
        use crate::engine::Engine;
        match self.tab {
            System::Pulsar => {
                let config = with_key(self.pulsar.state().config(), key, value)?;
                self.pulsar
                    .apply(pulsar::Action::SetConfig {
                        config: Box::new(config),
                    })
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            System::Flink => {
                let config = with_key(self.flink.state().config(), key, value)?;
                self.flink
                    .apply(flink::Action::SetConfig { config })
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            System::Kstreams => self
                .kstreams
                .apply(kstreams::Action::SetConfig {
                    key: key.to_string(),
                    value,
                })
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }

    fn fail(&mut self, e: impl std::fmt::Display) {
        self.notice = Some(Notice::Error(e.to_string()));
    }
}

impl Reducible for Store {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut s = (*self).clone();
        // Pointing, help and playback controls keep the notice and the saved scenario as they are.
        let view_only = matches!(
            msg,
            Msg::Highlight(_)
                | Msg::Help(_)
                | Msg::Play(_)
                | Msg::Speed(_)
                | Msg::Notify(_)
                | Msg::Compare(_)
        );
        if !view_only {
            s.notice = None;
            s.data_revision += 1;
        }
        match msg {
            Msg::Tab(t) => {
                if s.tab != t {
                    s.compare = None;
                }
                s.tab = t;
            }
            Msg::Compare(c) => s.compare = c,
            Msg::Dismiss => {}
            Msg::Highlight(h) => s.highlight = h,
            Msg::Play(p) => s.playing = p,
            Msg::SetConfig(key, value) => {
                s.field_error = None;
                if let Err(e) = s.set_config(&key, value) {
                    s.field_error = Some((key, e));
                }
            }
            Msg::Speed(ms) => s.speed_ms = ms.clamp(50, 10_000),
            Msg::Help(h) => s.help = h,
            Msg::StepActive => {
                let r = match s.tab {
                    System::Pulsar => s
                        .pulsar
                        .apply(pulsar::Action::Step)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    System::Flink => s
                        .flink
                        .apply(flink::Action::Schedule)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    System::Kstreams => s
                        .kstreams
                        .apply(kstreams::Action::Rebalance)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                };
                if let Err(e) = r {
                    s.playing = false;
                    s.fail(e);
                }
            }
            Msg::Notify(n) => s.notice = Some(n),
            Msg::SetBundles(n) => {
                let log = presets::with_pulsar_bundles(s.pulsar.log().clone(), n);
                match Session::new(s.pulsar.seed(), log, Some(s.pulsar.cursor())) {
                    Ok(p) => s.pulsar = p,
                    Err(e) => s.fail(e),
                }
            }
            Msg::Pulsar(a) => {
                if let Err(e) = s.pulsar.apply(a) {
                    s.fail(e);
                }
            }
            Msg::Flink(a) => {
                if let Err(e) = s.flink.apply(a) {
                    s.fail(e);
                }
            }
            Msg::Kstreams(a) => {
                if let Err(e) = s.kstreams.apply(a) {
                    s.fail(e);
                }
            }
            Msg::Open(sc) => s.open(*sc),
            Msg::Reset => {
                let fresh = Store::fresh();
                match s.tab {
                    System::Pulsar => s.pulsar = fresh.pulsar,
                    System::Flink => s.flink = fresh.flink,
                    System::Kstreams => s.kstreams = fresh.kstreams,
                }
            }
            Msg::Undo => {
                if let Err(e) = with_active!(mut s, x => x.undo()) {
                    s.fail(e);
                }
            }
            Msg::Redo => {
                if let Err(e) = with_active!(mut s, x => x.redo()) {
                    s.fail(e);
                }
            }
            Msg::Seek(n) => {
                if let Err(e) = with_active!(mut s, x => x.seek(n)) {
                    s.fail(e);
                }
            }
        }
        s.revision += 1;
        Rc::new(s)
    }
}

/// Stores are compared by revision: every reduce makes a new one.
impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
    }
}

/// The store as seen through context.
pub type StoreCtx = UseReducerHandle<Store>;

/// Serializable summary published as `window.lbscope`.
#[derive(serde::Serialize)]
pub struct Inspect {
    /// Active tab.
    pub tab: System,
    /// The active tab's scenario (JSON form).
    pub scenario: Scenario,
    /// Pulsar namespaces (bundles and topics).
    pub namespaces: Vec<pulsar::namespace::Namespace>,
    /// Flink slot grid.
    pub flink: flink::view::SlotGrid,
    /// Narrated events of the active tab, oldest first.
    pub events: Vec<String>,
}

impl Store {
    /// What `window.lbscope` shows.
    pub fn inspect(&self) -> Inspect {
        Inspect {
            tab: self.tab,
            scenario: self.scenario(),
            namespaces: self.pulsar.state().namespaces().values().cloned().collect(),
            flink: self.flink.state().slot_grid(),
            events: self.narrated().into_iter().map(|(_, t)| t).collect(),
        }
    }
}

fn line<M>(name: &str, unit: &'static str, ms: &[(f64, M)], f: impl Fn(&M) -> f64) -> Series {
    Series {
        name: name.to_string(),
        unit,
        points: ms.iter().map(|(x, m)| (*x, f(m))).collect(),
    }
}

/// Pulsar: one point per round, from the engine's `RoundDone` metrics.
fn pulsar_series(s: &Session<pulsar::Sim>) -> Vec<Series> {
    let rounds: Vec<(f64, &pulsar::RoundMetrics)> = s
        .steps()
        .iter()
        .flatten()
        .filter_map(|e| match e {
            pulsar::Event::RoundDone { metrics } => Some((metrics.round as f64, metrics)),
            _ => None,
        })
        .collect();
    vec![
        line("max load", "%", &rounds, |m| m.max_load),
        line("avg load", "%", &rounds, |m| m.avg_load),
        line("min load", "%", &rounds, |m| m.min_load),
        line("std dev", "pts", &rounds, |m| m.std_dev),
        line("bundles moved", "", &rounds, |m| f64::from(m.bundles_moved)),
        line("reconnects", "", &rounds, |m| m.reconnects as f64),
    ]
}

/// Flink: one point per scheduling run, from `SchedulingFinished`.
fn flink_series(s: &Session<flink::Sim>) -> Vec<Series> {
    let runs: Vec<(f64, (u32, u32, u64))> = s
        .steps()
        .iter()
        .flatten()
        .filter_map(|e| match e {
            flink::Event::SchedulingFinished {
                tm_spread,
                slot_spread,
                scheduling_time_ms,
                ..
            } => Some((tm_spread.range, slot_spread.range, *scheduling_time_ms)),
            _ => None,
        })
        .enumerate()
        .map(|(i, r)| ((i + 1) as f64, r))
        .collect();
    vec![
        line("tasks per TM range", "", &runs, |r| f64::from(r.0)),
        line("tasks per slot range", "", &runs, |r| f64::from(r.1)),
        line("scheduling time", "ms", &runs, |r| r.2 as f64),
    ]
}

/// Kafka Streams: one point per rebalance generation, from `RebalanceCompleted`.
fn kstreams_series(s: &Session<kstreams::Sim>) -> Vec<Series> {
    let gens: Vec<(f64, [f64; 4])> = s
        .setup_events()
        .iter()
        .chain(s.steps().iter().flatten())
        .filter_map(|e| match e {
            kstreams::Event::RebalanceCompleted {
                generation,
                moved,
                idle_instances,
                max_restore_ms,
                warmups,
                ..
            } => Some((
                *generation as f64,
                [
                    f64::from(*moved),
                    f64::from(*idle_instances),
                    *max_restore_ms as f64,
                    f64::from(*warmups),
                ],
            )),
            _ => None,
        })
        .collect();
    vec![
        line("tasks moved", "", &gens, |g| g[0]),
        line("idle instances", "", &gens, |g| g[1]),
        line("longest restore", "ms", &gens, |g| g[2]),
        line("warm-ups", "", &gens, |g| g[3]),
    ]
}
