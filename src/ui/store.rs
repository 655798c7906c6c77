//! The app store (`use_reducer` + context): one session per system, the active
//! tab, and a notice line. Messages become engine actions; the engine decides.

use crate::engine::{flink, kstreams, pulsar, Engine, Narrate, System};
use crate::lessons::{self, AnyAction, Lesson, StepView};
use crate::scenario::presets::{self, PULSAR_NAMESPACE};
use crate::scenario::{session::Session, url, Body, Log, Scenario};
use std::cell::{Ref, RefCell, RefMut};
use std::collections::{BTreeMap, BTreeSet};
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
    pub pulsar: Live<pulsar::Sim>,
    /// The Flink session.
    pub flink: Live<flink::Sim>,
    /// The Kafka Streams session.
    pub kstreams: Live<kstreams::Sim>,
    /// Last message.
    pub notice: Option<Notice>,
    /// The entity the user is pointing at (clicked in the event log, hovered in a view).
    pub highlight: Option<Subject>,
    /// The last refused settings edit: (key, message), shown next to the field.
    pub field_error: Option<(String, String)>,
    /// The compare run: the same log with this config value changed.
    pub compare: Option<(String, serde_json::Value)>,
    /// Wall-clock milliseconds the engine took for the last round (StepActive), as
    /// the browser measured it (`performance.now()`; for the in-browser benchmark).
    pub last_round_ms: Option<f64>,
    /// What the next round would do (Flink / Kafka Streams; the Pulsar tab has its own).
    pub proposal: Option<RoundProposal>,
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
    /// The lesson being followed, if any.
    pub lesson: Option<LessonRun>,
    /// Which page is shown over the playground.
    pub page: Page,
    /// Lesson steps seen and lessons finished (kept in localStorage).
    pub progress: Progress,
    /// A heavy scenario waiting to be opened: the page first shows that it is
    /// busy (and stays usable until then), then [`Msg::OpenPending`] replays it.
    pub pending: Option<(Box<Scenario>, String)>,
}

/// The pages besides the playground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The tabs.
    Playground,
    /// The lesson menu.
    Lessons,
    /// The fidelity notes.
    Fidelity,
}

/// A lesson in progress: which step is shown and whether the playground still
/// shows that step's state.
#[derive(Clone, Debug)]
pub struct LessonRun {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// 0-based step.
    pub step: usize,
    /// The rendered step (narration computed by the engine).
    pub view: Rc<StepView>,
    /// The learner changed the scenario away from the lesson's path.
    pub off_track: bool,
}

impl LessonRun {
    /// Whether the step waits for the learner's action.
    pub fn waiting(&self) -> bool {
        self.view.ask.is_some()
    }
}

/// Lesson progress: the steps seen of each lesson, and the lessons finished
/// (their last step reached).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Lesson id → 0-based steps seen.
    #[serde(default)]
    pub visited: BTreeMap<String, BTreeSet<usize>>,
    /// Lesson ids finished.
    #[serde(default)]
    pub completed: BTreeSet<String>,
}

impl Progress {
    fn visit(&mut self, id: &str, step: usize, last: bool) {
        self.visited.entry(id.to_string()).or_default().insert(step);
        if last {
            self.completed.insert(id.to_string());
        }
    }

    /// Steps seen of lesson `id`.
    pub fn seen(&self, id: &str) -> usize {
        self.visited.get(id).map_or(0, BTreeSet::len)
    }
}

/// Lesson navigation.
pub enum LessonMsg {
    /// Open lesson `id` at 0-based step.
    Open(String, usize),
    /// Open a `#lesson=<id>&step=<n>` link (a bad one is reported).
    Link(String),
    /// Next step (refused with a hint while the step waits for the learner).
    Next,
    /// Previous step.
    Prev,
    /// Apply the ask's action for the learner.
    DoIt,
    /// Put the playground back at the current step.
    Back,
    /// Leave lesson mode, keeping the state ("play freely from here").
    Leave,
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

/// What the next round would do, computed on a copy of the state (nothing applied).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundProposal {
    /// The tab it was computed for.
    pub tab: System,
    /// What would change, one line each (before → after).
    pub changes: Vec<String>,
    /// The round's narrated events.
    pub events: Vec<String>,
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

/// A session the store edits in place. Every copy of the store shares it (yew
/// keeps the previous store while the reducer builds the next one), so a message
/// never copies the engine state or its event history: with 200,000 topics a copy
/// and its drop took most of a round's redraw. Views read it with [`Live::get`]
/// during render; only the reducer calls [`Live::edit`].
pub struct Live<S: Engine>(Rc<RefCell<Session<S>>>);

impl<S: Engine> Live<S> {
    /// Share a new session.
    pub fn new(s: Session<S>) -> Self {
        Live(Rc::new(RefCell::new(s)))
    }

    /// Read the session.
    pub fn get(&self) -> Ref<'_, Session<S>> {
        self.0.borrow()
    }

    /// Change the session (reducer only).
    fn edit(&self) -> RefMut<'_, Session<S>> {
        self.0.borrow_mut()
    }

    /// Apply one action; a refusal is returned as its message.
    fn apply(&self, action: S::Action) -> Result<(), String> {
        self.edit().apply(action).map(|_| ()).map_err(|e| e.to_string())
    }
}

impl<S: Engine> Clone for Live<S> {
    fn clone(&self) -> Self {
        Live(Rc::clone(&self.0))
    }
}

impl<S: Engine> std::fmt::Debug for Live<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Live(session)")
    }
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
    /// Open a scenario (a link, a file); on failure the current work stays. A
    /// heavy one is announced first and opened by [`Msg::OpenPending`].
    Open(Box<Scenario>),
    /// Open the announced heavy scenario now.
    OpenPending,
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
    /// Run a message on behalf of a form field: if it is refused, the message goes
    /// next to that field (`field_error`) instead of the notice bar.
    AtField(&'static str, Box<Msg>),
    /// Show (true) or drop (false) what the next round would do.
    Propose(bool),
    /// Set one config value of the active tab, by its real name.
    SetConfig(String, serde_json::Value),
    /// Compare the active run with the same log under one changed config value.
    Compare(Option<(String, serde_json::Value)>),
    /// Point at an entity (or stop pointing).
    Highlight(Option<Subject>),
    /// Dismiss the notice.
    Dismiss,
    /// Lesson navigation.
    Lesson(LessonMsg),
    /// Show a page (lesson menu, fidelity notes) or the playground.
    Page(Page),
}

/// Run `$body` with `$s` bound to the active session (whatever its engine type).
macro_rules! with_active {
    ($store:expr, $s:ident => $body:expr) => {
        match $store.tab {
            System::Pulsar => {
                let guard = $store.pulsar.get();
                let $s = &*guard;
                $body
            }
            System::Flink => {
                let guard = $store.flink.get();
                let $s = &*guard;
                $body
            }
            System::Kstreams => {
                let guard = $store.kstreams.get();
                let $s = &*guard;
                $body
            }
        }
    };
    (mut $store:expr, $s:ident => $body:expr) => {
        match $store.tab {
            System::Pulsar => {
                let mut guard = $store.pulsar.edit();
                let $s = &mut *guard;
                $body
            }
            System::Flink => {
                let mut guard = $store.flink.edit();
                let $s = &mut *guard;
                $body
            }
            System::Kstreams => {
                let mut guard = $store.kstreams.edit();
                let $s = &mut *guard;
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
            pulsar: Live::new(default_session(System::Pulsar, |b| match b {
                Body::Pulsar(l) => Some(l),
                _ => None,
            })),
            flink: Live::new(default_session(System::Flink, |b| match b {
                Body::Flink(l) => Some(l),
                _ => None,
            })),
            kstreams: Live::new(default_session(System::Kstreams, |b| match b {
                Body::Kstreams(l) => Some(l),
                _ => None,
            })),
            notice: None,
            highlight: None,
            field_error: None,
            compare: None,
            last_round_ms: None,
            proposal: None,
            playing: false,
            speed_ms: 800,
            help: false,
            revision: 0,
            data_revision: 0,
            lesson: None,
            page: Page::Playground,
            progress: Progress::default(),
            pending: None,
        }
    }

    /// Open a scenario: a heavy one is announced and left pending (the app opens
    /// it after the announcement has been drawn), others at once.
    pub fn open_or_defer(&mut self, sc: Scenario) {
        match heavy(&sc) {
            Some(what) => self.pending = Some((Box::new(sc), what)),
            None => self.open(sc),
        }
    }

    /// Open a scenario into its tab; on failure keep everything and say why.
    pub fn open(&mut self, sc: Scenario) {
        if let Err(e) = self.try_open(sc) {
            self.notice = Some(Notice::Error(format!("Could not open the scenario: {e}")));
        }
    }

    fn try_open(&mut self, sc: Scenario) -> Result<(), String> {
        let sys = sc.system();
        let result = match sc.body {
            Body::Pulsar(log) => Session::new(sc.seed, log, sc.cursor).map(|s| self.pulsar = Live::new(s)),
            Body::Flink(log) => Session::new(sc.seed, log, sc.cursor).map(|s| self.flink = Live::new(s)),
            Body::Kstreams(log) => {
                Session::new(sc.seed, log, sc.cursor).map(|s| self.kstreams = Live::new(s))
            }
        };
        result.map_err(|e| e.to_string())?;
        self.tab = sys;
        Ok(())
    }

    /// Open step `k` of `lesson`: its scenario into its tab (replayed to the
    /// step's cursor), the narration, the focus as the highlight.
    pub fn open_lesson(&mut self, lesson: &'static Lesson, k: usize) -> Result<(), String> {
        let view = lesson.render(k).map_err(|e| e.to_string())?;
        let sc = lesson
            .scenario_at(k)
            .ok_or_else(|| format!("lesson {} has no step {}", lesson.id, k + 1))?;
        self.try_open(sc)
            .map_err(|e| format!("lesson {} step {} did not replay: {e}", lesson.id, k + 1))?;
        self.highlight = view.focus.first().map(|f| Subject {
            kind: f.kind.attribute().trim_start_matches("data-").to_string(),
            id: f.id.clone(),
        });
        self.progress.visit(lesson.id, k, view.free_play);
        self.lesson = Some(LessonRun {
            lesson,
            step: k,
            view: Rc::new(view),
            off_track: false,
        });
        self.page = Page::Playground;
        self.playing = false;
        self.compare = None;
        self.field_error = None;
        Ok(())
    }

    /// Open a `#lesson=<id>&step=<n>` link; a bad one is reported and changes nothing.
    pub fn open_link(&mut self, fragment: &str) {
        let r = match lessons::parse_deep_link(fragment) {
            None => Err(format!(
                "This lesson link could not be read ({}): it should look like #lesson=<id>&step=<n>, with n from 1.",
                fragment.trim_start_matches('#')
            )),
            Some((id, k)) => match lessons::lesson(&id) {
                None => Err(format!(
                    "There is no lesson called “{id}”. Open the Lessons menu to pick one."
                )),
                Some(l) if k >= l.steps.len() => Err(format!(
                    "The lesson “{}” has {} steps; there is no step {}. Open the Lessons menu or start at step 1.",
                    l.title,
                    l.steps.len(),
                    k + 1
                )),
                Some(l) => self.open_lesson(l, k),
            },
        };
        if let Err(e) = r {
            self.notice = Some(Notice::Error(e));
        }
    }

    /// After the learner changed the lesson's tab: advance when the step's ask is
    /// satisfied, or note that the playground left the lesson's path.
    fn follow_lesson(&mut self) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        let l = run.lesson;
        let seed = l.scenario.seed;
        let on_path = match &l.scenario.body {
            Body::Pulsar(log) => {
                on_path(&self.pulsar.get(), seed, log).map(|(c, a)| (c, a.map(AnyAction::Pulsar)))
            }
            Body::Flink(log) => {
                on_path(&self.flink.get(), seed, log).map(|(c, a)| (c, a.map(AnyAction::Flink)))
            }
            Body::Kstreams(log) => {
                on_path(&self.kstreams.get(), seed, log).map(|(c, a)| (c, a.map(AnyAction::Kstreams)))
            }
        };
        let cursor = run.view.cursor;
        let off_track = match on_path {
            Some((c, _)) if c == cursor => false,
            Some((c, Some(last))) if c == cursor + 1 && l.satisfies(run.step, &last) => {
                match self.open_lesson(l, run.step + 1) {
                    Ok(()) => return,
                    Err(e) => {
                        self.notice = Some(Notice::Error(e));
                        true
                    }
                }
            }
            _ => true,
        };
        if let Some(r) = self.lesson.as_mut() {
            r.off_track = off_track;
        }
    }

    fn lesson_msg(&mut self, m: LessonMsg) {
        match m {
            LessonMsg::Open(id, k) => self.open_link(&lessons::deep_link(&id, k)),
            LessonMsg::Link(f) => self.open_link(&f),
            LessonMsg::Leave => {
                self.lesson = None;
                self.highlight = None;
            }
            _ => {
                let Some(run) = self.lesson.clone() else {
                    return;
                };
                let (l, k) = (run.lesson, run.step);
                let r = match m {
                    LessonMsg::Prev if k > 0 => self.open_lesson(l, k - 1),
                    LessonMsg::Next if run.waiting() => {
                        self.notice = Some(Notice::Info(format!(
                            "This step waits for you: {}. Or press “Do it for me”.",
                            run.view.ask.as_ref().map_or("", |a| a.prompt.as_str())
                        )));
                        Ok(())
                    }
                    LessonMsg::Next if k + 1 < l.steps.len() => self.open_lesson(l, k + 1),
                    LessonMsg::Back => self.open_lesson(l, k),
                    LessonMsg::DoIt => self.do_it(l, k),
                    _ => Ok(()),
                };
                if let Err(e) = r {
                    self.notice = Some(Notice::Error(e));
                }
            }
        }
    }

    /// Apply the ask's action as if the learner had (from the step's own state).
    fn do_it(&mut self, l: &'static Lesson, k: usize) -> Result<(), String> {
        let Some(action) = l.ask_action(k) else {
            return Ok(());
        };
        if self.lesson.as_ref().is_some_and(|r| r.off_track) || self.tab != l.system {
            self.open_lesson(l, k)?;
        }
        let r = match action {
            AnyAction::Pulsar(a) => self.pulsar.edit().apply(a).map(|_| ()).map_err(|e| e.to_string()),
            AnyAction::Flink(a) => self.flink.edit().apply(a).map(|_| ()).map_err(|e| e.to_string()),
            AnyAction::Kstreams(a) => self
                .kstreams
                .edit()
                .apply(a)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        };
        r?;
        self.follow_lesson();
        Ok(())
    }

    /// The lesson run whose tab is active and whose state the playground shows.
    pub fn lesson_on_screen(&self) -> Option<&LessonRun> {
        self.lesson
            .as_ref()
            .filter(|r| r.lesson.system == self.tab && self.page == Page::Playground)
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
        store.progress = super::browser::load_progress();
        match super::browser::fragment() {
            Some(f) if f.contains("lesson=") => {
                if let Some(sc) = saved {
                    store.open(sc);
                }
                store.open_link(&f);
            }
            Some(f) if f.contains("s=") => match url::decode(&f) {
                Ok(sc) => store.open_or_defer(sc),
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
                    store.open_or_defer(sc);
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
            System::Pulsar => Body::Pulsar(self.pulsar.get().log().clone()),
            System::Flink => Body::Flink(self.flink.get().log().clone()),
            System::Kstreams => Body::Kstreams(self.kstreams.get().log().clone()),
        };
        sc
    }

    /// The share fragment: the lesson link while the active tab shows a lesson
    /// step unchanged (it re-derives the scenario), else the active tab's scenario.
    pub fn fragment(&self) -> String {
        match &self.lesson {
            Some(r) if !r.off_track && r.lesson.system == self.tab => r.lesson.link(r.step),
            _ => url::to_fragment(&self.scenario()),
        }
    }

    /// Whether the active tab can undo / redo, and its cursor and log length.
    pub fn history(&self) -> (bool, bool, usize, usize) {
        with_active!(self, s => (s.can_undo(), s.can_redo(), s.cursor(), s.log().actions.len()))
    }

    /// Bundle count of the Pulsar tab's namespace.
    pub fn bundles(&self) -> u32 {
        self.pulsar
            .get()
            .state()
            .namespaces()
            .get(NAMESPACE)
            .map_or(0, |ns| ns.bundles.len() as u32)
    }

    /// The newest `limit` narrated events of the active tab as (step, text), oldest
    /// first (setup events have step `None`), and how
    /// many older ones were left out (they are not narrated at all).
    pub fn narrated_newest(&self, limit: usize) -> (Vec<(Option<usize>, String)>, usize) {
        with_active!(self, s => {
            let total = s.setup_events().len() + s.steps().iter().map(Vec::len).sum::<usize>();
            let skip = total.saturating_sub(limit);
            let setup = s.setup_events().iter().map(|e| (None, e));
            let steps = s
                .steps()
                .iter()
                .enumerate()
                .flat_map(|(i, evs)| evs.iter().map(move |e| (Some(i), e)));
            let out = setup.chain(steps).skip(skip).map(|(i, e)| (i, e.narrate())).collect();
            (out, skip)
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
            System::Pulsar => pulsar_series(&self.pulsar.get()),
            System::Flink => flink_series(&self.flink.get()),
            System::Kstreams => kstreams_series(&self.kstreams.get()),
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
            System::Pulsar => pulsar_series(&alt(&self.pulsar.get(), key, value)?),
            System::Flink => flink_series(&alt(&self.flink.get(), key, value)?),
            System::Kstreams => kstreams_series(&alt(&self.kstreams.get(), key, value)?),
        })
    }

    /// The active tab's config and its defaults, as JSON objects (for the settings panel).
    pub fn config_json(&self) -> (serde_json::Value, serde_json::Value) {
        fn pair<C: serde::Serialize + Default>(c: &C) -> (serde_json::Value, serde_json::Value) {
            (
                serde_json::to_value(c).unwrap_or_default(),
                serde_json::to_value(C::default()).unwrap_or_default(),
            )
        }
        match self.tab {
            System::Pulsar => pair(self.pulsar.get().state().config()),
            System::Flink => pair(self.flink.get().state().config()),
            System::Kstreams => pair(self.kstreams.get().state().config()),
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
        match self.tab {
            System::Pulsar => {
                let config = with_key(self.pulsar.get().state().config(), key, value)?;
                self.pulsar
                    .edit()
                    .apply(pulsar::Action::SetConfig {
                        config: Box::new(config),
                    })
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            System::Flink => {
                let config = with_key(self.flink.get().state().config(), key, value)?;
                self.flink
                    .edit()
                    .apply(flink::Action::SetConfig { config })
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            System::Kstreams => self
                .kstreams
                .edit()
                .apply(kstreams::Action::SetConfig {
                    key: key.to_string(),
                    value,
                })
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }

    /// Run the active tab's next round on a copy of its state and describe what
    /// would move. The copy carries the RNG, so Apply gives exactly this result.
    pub fn propose(&self) -> Result<RoundProposal, String> {
        use crate::engine::Engine;
        let (changes, events) = match self.tab {
            System::Pulsar => {
                let mut next = self.pulsar.get().state().clone();
                let ev = next.apply(&pulsar::Action::Step).map_err(|e| e.to_string())?;
                (Vec::new(), ev.iter().map(Narrate::narrate).collect::<Vec<_>>())
            }
            System::Flink => {
                let session = self.flink.get();
                let now = session.state();
                let mut next = now.clone();
                let ev = next.apply(&flink::Action::Schedule).map_err(|e| e.to_string())?;
                let line = |s: &flink::Sim| format!("{:?}", s.tasks_per_tm());
                let changes = vec![format!("tasks per TaskManager {} → {}", line(now), line(&next))];
                (changes, ev.iter().map(Narrate::narrate).collect())
            }
            System::Kstreams => {
                let session = self.kstreams.get();
                let now = session.state();
                let mut next = now.clone();
                let ev = next
                    .apply(&kstreams::Action::Rebalance)
                    .map_err(|e| e.to_string())?;
                let mut changes: Vec<String> = now
                    .tasks()
                    .iter()
                    .filter_map(|t| {
                        let (a, b) = (now.active_owner(t.id), next.active_owner(t.id));
                        (a != b).then(|| {
                            format!(
                                "task {}: {} → {}",
                                t.id,
                                a.unwrap_or("nobody"),
                                b.unwrap_or("nobody")
                            )
                        })
                    })
                    .collect();
                if changes.is_empty() {
                    changes.push("no active task would move".into());
                }
                (changes, ev.iter().map(Narrate::narrate).collect())
            }
        };
        Ok(RoundProposal {
            tab: self.tab,
            changes,
            events,
        })
    }

    fn fail(&mut self, e: impl std::fmt::Display) {
        self.notice = Some(Notice::Error(e.to_string()));
    }
}

impl Reducible for Store {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        if let Msg::AtField(field, inner) = msg {
            let out = self.reduce(*inner);
            let mut o = (*out).clone();
            if let Some(Notice::Error(m)) = o.notice.take() {
                o.field_error = Some((field.to_string(), m));
            }
            return Rc::new(o);
        }
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
                | Msg::Page(_)
        );
        // Messages that may change the lesson tab's scenario: the lesson follows them.
        let follow = matches!(
            msg,
            Msg::Pulsar(_)
                | Msg::Flink(_)
                | Msg::Kstreams(_)
                | Msg::StepActive
                | Msg::Undo
                | Msg::Redo
                | Msg::Seek(_)
                | Msg::SetConfig(..)
                | Msg::SetBundles(_)
                | Msg::Reset
        );
        if !view_only {
            s.notice = None;
            s.field_error = None;
            s.data_revision += 1;
            s.proposal = None;
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
            Msg::AtField(..) => {} // handled above
            Msg::Propose(false) => s.proposal = None,
            Msg::Propose(true) => match s.propose() {
                Ok(p) => s.proposal = Some(p),
                Err(e) => s.fail(e),
            },
            Msg::StepActive => {
                let now = super::browser::now_ms;
                let t0 = now();
                let r = match s.tab {
                    System::Pulsar => s
                        .pulsar
                        .edit()
                        .apply(pulsar::Action::Step)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    System::Flink => s
                        .flink
                        .edit()
                        .apply(flink::Action::Schedule)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    System::Kstreams => s
                        .kstreams
                        .edit()
                        .apply(kstreams::Action::Rebalance)
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                };
                s.last_round_ms = Some(now() - t0);
                if let Err(e) = r {
                    s.playing = false;
                    s.fail(e);
                }
            }
            Msg::Notify(n) => s.notice = Some(n),
            Msg::SetBundles(n) => {
                let log = presets::with_pulsar_bundles(s.pulsar.get().log().clone(), n);
                let (seed, cursor) = (s.pulsar.get().seed(), s.pulsar.get().cursor());
                match Session::new(seed, log, Some(cursor)) {
                    Ok(p) => s.pulsar = Live::new(p),
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
            Msg::Open(sc) => {
                // A link or a file of the lesson's system replaces the lesson.
                if s.lesson.as_ref().is_some_and(|r| r.lesson.system == sc.system()) {
                    s.lesson = None;
                }
                s.open_or_defer(*sc);
            }
            Msg::OpenPending => {
                if let Some((sc, _)) = s.pending.take() {
                    if s.lesson.as_ref().is_some_and(|r| r.lesson.system == sc.system()) {
                        s.lesson = None;
                    }
                    s.open(*sc);
                }
            }
            Msg::Lesson(m) => s.lesson_msg(m),
            Msg::Page(p) => s.page = p,
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
        if follow {
            let before = s.lesson.as_ref().map(|r| r.step);
            s.follow_lesson();
            if s.lesson.as_ref().map(|r| r.step) != before {
                // Advanced by the learner's own action: stop automatic rounds there.
                s.playing = false;
            }
        }
        s.revision += 1;
        Rc::new(s)
    }
}

/// Replay work (actions, plus topics created in bulk) above which opening a
/// scenario is announced first: replaying it takes about a second or more.
pub const HEAVY_REPLAY: u64 = 20_000;

/// Why `sc` is heavy to open (what the busy notice says), if it is.
fn heavy(sc: &Scenario) -> Option<String> {
    fn work<C, A>(log: &Log<C, A>, topics: impl Fn(&A) -> u64) -> (u64, u64) {
        let all = log.setup.iter().chain(&log.actions);
        let t: u64 = all.clone().map(&topics).sum();
        (all.count() as u64, t)
    }
    let (actions, topics) = match &sc.body {
        Body::Pulsar(log) => work(log, |a| match a {
            pulsar::Action::CreateTopics { count, .. } => u64::from(*count),
            pulsar::Action::CreatePartitionedTopic { partitions, .. } => u64::from(*partitions),
            _ => 0,
        }),
        Body::Flink(log) => work(log, |_| 0),
        Body::Kstreams(log) => work(log, |_| 0),
    };
    (actions + topics > HEAVY_REPLAY).then(|| {
        let mut what = format!("{actions} actions");
        if topics > 0 {
            what.push_str(&format!(" creating {topics} topics"));
        }
        format!(
            "Opening a large {} scenario: the engine replays {what}. The page pauses until it is done.",
            sc.system().title()
        )
    })
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
    /// Pulsar namespaces (bundles and topics; topics left out above
    /// [`INSPECT_MAX_TOPICS`] topics or [`INSPECT_MAX_BUNDLES`] bundles, bundle lists
    /// above [`INSPECT_MAX_BUNDLES`]).
    pub namespaces: Vec<pulsar::namespace::Namespace>,
    /// Topics left out of `namespaces` (a very large cluster).
    pub topics_omitted: usize,
    /// Bundles left out of `namespaces` (namespaces above [`INSPECT_MAX_BUNDLES`]).
    pub bundles_omitted: usize,
    /// Milliseconds the engine took for the last round, measured in the browser.
    pub last_round_ms: Option<f64>,
    /// Flink slot grid.
    pub flink: flink::view::SlotGrid,
    /// Narrated events of the active tab, oldest first (the newest [`INSPECT_MAX_EVENTS`]).
    pub events: Vec<String>,
    /// Older events left out of `events`.
    pub events_omitted: usize,
    /// The lesson being followed: (id, 0-based step, off its path).
    pub lesson: Option<(String, usize, bool)>,
}

/// Above this many topics, `window.lbscope` leaves the topic lists out (publishing
/// it after every change must stay cheap on very large clusters).
pub const INSPECT_MAX_TOPICS: usize = 20_000;
/// At most this many (newest) events are published in `window.lbscope`.
pub const INSPECT_MAX_EVENTS: usize = 2_000;
/// Namespaces with more bundles than this are published without their bundle list.
pub const INSPECT_MAX_BUNDLES: usize = 1_024;

impl Store {
    /// What `window.lbscope` shows.
    pub fn inspect(&self) -> Inspect {
        let pulsar = self.pulsar.get();
        let all = pulsar.state().namespaces();
        let topics: usize = all.values().map(|n| n.topics.len()).sum();
        let bundles: usize = all.values().map(|n| n.bundles.len()).sum();
        let large = topics > INSPECT_MAX_TOPICS || bundles > INSPECT_MAX_BUNDLES;
        let namespaces = if large {
            all.values()
                .map(|n| pulsar::namespace::Namespace {
                    name: n.name.clone(),
                    bundles: if n.bundles.len() > INSPECT_MAX_BUNDLES {
                        Vec::new()
                    } else {
                        n.bundles.clone()
                    },
                    topics: Default::default(),
                    ring: Default::default(),
                    partitioned: Default::default(),
                })
                .collect()
        } else {
            all.values().cloned().collect()
        };
        let (events, events_omitted) = self.narrated_newest(INSPECT_MAX_EVENTS);
        let events: Vec<String> = events.into_iter().map(|(_, t)| t).collect();
        Inspect {
            tab: self.tab,
            scenario: self.scenario(),
            namespaces,
            topics_omitted: if large { topics } else { 0 },
            bundles_omitted: all
                .values()
                .filter(|n| n.bundles.len() > INSPECT_MAX_BUNDLES)
                .map(|n| n.bundles.len())
                .sum(),
            last_round_ms: self.last_round_ms,
            flink: self.flink.get().state().slot_grid(),
            events,
            events_omitted,
            lesson: self
                .lesson
                .as_ref()
                .map(|r| (r.lesson.id.to_string(), r.step, r.off_track)),
        }
    }
}

/// Whether `sess` is on the lesson log's path (same seed, config, setup, and the
/// lesson's actions up to its cursor): its cursor and last applied action.
fn on_path<S: Engine>(
    sess: &Session<S>,
    seed: u64,
    log: &Log<S::Config, S::Action>,
) -> Option<(usize, Option<S::Action>)> {
    let (l, c) = (sess.log(), sess.cursor());
    let same = sess.seed() == seed
        && l.config == log.config
        && l.setup == log.setup
        && c <= log.actions.len()
        && l.actions[..c] == log.actions[..c];
    same.then(|| (c, c.checked_sub(1).map(|i| l.actions[i].clone())))
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
