//! The store and its reducer.

use super::opening::{OpenProgress, Opening, OPEN_CHUNK};
use super::workspace::{Restored, Workspace, WORKSPACE_VERSION};
use super::{EventRow, Field, LessonMsg, LessonRun, Live, Notice, Page, Progress, Proposal, SettingRow};
use crate::engine::{AnyAction, Engine, Series, Subject, System};
use crate::gallery;
use crate::lessons;
use crate::scenario::session::Session;
use crate::scenario::{presets, url, Scenario};
use serde_json::Value;
use std::cell::Ref;

/// Most event-log rows the page renders (the newest ones).
pub const MAX_LOG_ROWS: usize = 400;

/// The event log's rows ([`Store::event_log`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EventLogRows {
    /// The newest rows, newest first: the actions' events, then the setup's.
    pub rows: Vec<EventRow>,
    /// How many of the kept [`MAX_LOG_ROWS`] the applied actions caused.
    pub acted: usize,
    /// How many of them the setup caused (after the actions' ones, newest first).
    pub setup: usize,
    /// Older events not kept.
    pub hidden: usize,
}

/// Replay work (actions, plus what they build: topics and bundles, slots and
/// subtasks, partitions and threads; [`crate::engine::Engine::open_cost`])
/// above which opening a scenario is announced first: replaying it takes
/// about a second or more.
pub const HEAVY_REPLAY: u64 = 20_000;

/// What the browser hands the store when the page opens.
#[derive(Clone, Debug, Default)]
pub struct Boot {
    /// The URL fragment (with its `#`), if any.
    pub fragment: Option<String>,
    /// The saved workspace (or an older single-scenario autosave), if any.
    pub saved: Option<String>,
    /// Lesson progress saved in this browser.
    pub progress: Progress,
    /// Ignore the saved workspace (the crash panel's "Start fresh"), without deleting it.
    pub fresh: bool,
}

/// Messages the components send.
#[derive(Clone, Debug)]
pub enum Msg {
    /// Switch tab (a lesson on screen steps aside; it can be resumed).
    Tab(System),
    /// Apply an action to the tab of its system.
    Act(AnyAction),
    /// Replace the active tab's scenario by this one of the same system (a
    /// preset rewrite, e.g. the bundle count of the first namespace).
    Rewrite(Box<Scenario>),
    /// Open a scenario (a link, a file); on failure the current work stays. A
    /// heavy one is announced first and opened by [`Msg::OpenPending`].
    Open(Box<Scenario>),
    /// Open the announced heavy scenario now, in one go (the page waits).
    OpenPending,
    /// Replay the next part of the announced heavy scenario ([`OPEN_CHUNK`]
    /// units of work); the last part opens it. The page sends this again after
    /// each part has been drawn, so it shows the progress and answers input.
    OpenMore,
    /// Stop opening the announced heavy scenario (the work on screen stays).
    CancelOpen,
    /// The browser navigated to this fragment (Back / Forward, a typed link).
    Location(String),
    /// Start the active tab over from its default scenario (a lesson: from its step).
    Reset,
    /// Undo one action of the active tab.
    Undo,
    /// Redo one action of the active tab.
    Redo,
    /// Move the active tab's cursor.
    Seek(usize),
    /// Show a notice.
    Notify(Notice),
    /// One round of the active tab ([`Engine::round_action`]).
    StepActive,
    /// Start or stop automatic rounds.
    Play(bool),
    /// Milliseconds between automatic rounds.
    Speed(u32),
    /// Open or close the shortcut overlay.
    Help(bool),
    /// Run a message on behalf of a form field: if it is refused, the message goes
    /// next to that field (`field_error`) instead of the notice bar.
    AtField(Field, Box<Msg>),
    /// Show (true) or drop (false) what the next round would do.
    Propose(bool),
    /// Apply the proposed round.
    ApplyProposal,
    /// Set one config value of the active tab, by its real name.
    SetConfig(String, Value),
    /// Compare the active run with the same log under one changed config value.
    Compare(Option<(String, Value)>),
    /// Show (true) or hide the spread of the outcome over seeds.
    Spread(bool),
    /// Point at an entity (or stop pointing).
    Highlight(Option<Subject>),
    /// Dismiss the notice.
    Dismiss,
    /// Lesson navigation.
    Lesson(LessonMsg),
    /// Show a page (lesson menu, fidelity notes) or the playground.
    Page(Page),
    /// Open a gallery example (by slug) in free play on its tab.
    Example(String),
    /// Put away the example card (the scenario stays).
    CloseExample,
    /// Open a question of the gallery (by slug): its scenario in free play on
    /// its tab, with its fix as the Compare run.
    Question(String),
}

impl Msg {
    /// Apply an engine action (of any system) to its tab.
    pub fn act(a: impl Into<AnyAction>) -> Msg {
        Msg::Act(a.into())
    }
}

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct Store {
    /// Active tab.
    pub tab: System,
    /// The learner's own session of each system (in [`System::ALL`] order).
    tabs: [Live; 3],
    /// The lesson being followed, if any (with its own session).
    pub lesson: Option<LessonRun>,
    /// Last message.
    pub notice: Option<Notice>,
    /// The entity the user is pointing at (clicked in the event log, hovered in a view).
    pub highlight: Option<Subject>,
    /// The last refused settings edit or form input: (field, message), shown next to it.
    pub field_error: Option<(String, String)>,
    /// The compare run: the same log with this config value changed.
    pub compare: Option<(String, Value)>,
    /// Whether the outcome's spread over seeds shows (of the run on screen and
    /// of the compare run; computed in the engine worker).
    pub spread: bool,
    /// Milliseconds the engine took for the last round, as the browser measured it.
    pub last_round_ms: Option<f64>,
    /// What the next round would do.
    pub proposal: Option<Proposal>,
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
    /// Which page is shown over the playground.
    pub page: Page,
    /// Lesson steps seen and lessons finished.
    pub progress: Progress,
    /// A heavy scenario waiting to be opened: the page first shows that it is
    /// busy, then [`Msg::OpenPending`] replays it.
    pub pending: Option<(Box<Scenario>, String)>,
    /// The pending scenario's replay, once [`Msg::OpenMore`] has started it.
    pub opening: Option<Opening>,
    /// The gallery example opened last (its card shows over its tab), by slug.
    pub example: Option<String>,
    /// The gallery question opened last (its card shows over its tab), by slug.
    pub question: Option<String>,
}

fn default_tab(system: System) -> Live {
    Live::open(&presets::default_scenario(system)).expect("the default scenarios replay (tested natively)")
}

impl Store {
    /// Every tab at its default scenario.
    pub fn fresh() -> Store {
        Store {
            tab: System::Pulsar,
            tabs: System::ALL.map(default_tab),
            lesson: None,
            notice: None,
            highlight: None,
            field_error: None,
            compare: None,
            spread: false,
            last_round_ms: None,
            proposal: None,
            playing: false,
            speed_ms: 800,
            help: false,
            revision: 0,
            data_revision: 0,
            page: Page::Playground,
            progress: Progress::default(),
            pending: None,
            opening: None,
            example: None,
            question: None,
        }
    }

    /// The initial store: the saved workspace (unless `fresh`), then the link in
    /// the fragment on top (a bad link is reported and the saved work shown).
    pub fn boot(b: Boot) -> Store {
        let mut store = Store::fresh();
        store.progress = b.progress;
        let restored = match (&b.saved, b.fresh) {
            (Some(json), false) => Workspace::restore(json),
            _ => Restored::default(),
        };
        let had_saved = !restored.scenarios.is_empty();
        for sc in restored.scenarios {
            store.open_or_defer(sc);
        }
        if let Some(t) = restored.tab {
            store.tab = t;
        }
        let problems = restored.problems;
        match b.fragment.as_deref() {
            Some(f) if f.contains("lesson=") => store.open_link(f),
            Some(f) if f.contains("example=") => store.open_example_link(f),
            Some(f) if f.contains("question=") => store.open_question_link(f),
            Some(f) if f.contains("s=") => match url::decode(f) {
                Ok(sc) => store.open_or_defer(sc),
                Err(e) => {
                    store.notice = Some(Notice::Error(format!(
                        "This link could not be opened: {e}. {}",
                        if had_saved {
                            "Your saved work is shown instead."
                        } else {
                            "The default scenario is shown instead."
                        }
                    )))
                }
            },
            _ if had_saved && store.notice.is_none() => {
                store.notice = Some(Notice::Info(
                    "Welcome back: your scenarios were restored from this browser. Reset starts a tab over."
                        .into(),
                ))
            }
            _ => {}
        }
        if store.notice.is_none() && !problems.is_empty() {
            store.notice = Some(Notice::Error(format!(
                "Part of your saved work could not be read ({}); those tabs start from their defaults.",
                problems.join("; ")
            )));
        }
        store
    }

    /// The learner's own session of `system`.
    pub fn own(&self, system: System) -> &Live {
        &self.tabs[system.index()]
    }

    /// The session shown for `system`: the lesson's while a lesson of that
    /// system is followed and on screen, else the learner's.
    pub fn shown(&self, system: System) -> &Live {
        match &self.lesson {
            Some(r) if r.shown && r.lesson.system == system => &r.session,
            _ => self.own(system),
        }
    }

    /// The active tab's shown session.
    pub fn active(&self) -> &Live {
        self.shown(self.tab)
    }

    /// The shown session of engine `E`, typed (for that system's views).
    pub fn session<E: Engine>(&self) -> Ref<'_, Session<E>> {
        self.shown(E::SYSTEM)
            .session::<E>()
            .expect("each system's session holds that system's engine")
    }

    /// Open a scenario: a heavy one is announced and left pending (the app opens
    /// it after the announcement has been drawn), others at once.
    pub fn open_or_defer(&mut self, sc: Scenario) {
        match heavy(&sc) {
            Some(what) => {
                self.pending = Some((Box::new(sc), what));
                self.opening = None;
            }
            None => self.open(sc),
        }
    }

    /// Open a scenario into the learner's tab of its system (a lesson of that
    /// system steps aside); on failure keep everything and say why.
    pub fn open(&mut self, sc: Scenario) {
        match Live::open(&sc) {
            Ok(live) => self.install(live),
            Err(e) => self.notice = Some(Notice::Error(format!("Could not open the scenario: {e}"))),
        }
    }

    /// A session just opened goes into the learner's tab of its system, which
    /// becomes active (a lesson of that system steps aside).
    fn install(&mut self, live: Live) {
        let sys = live.get().system();
        self.tabs[sys.index()] = live;
        self.tab = sys;
        if let Some(r) = self.lesson.as_mut().filter(|r| r.lesson.system == sys) {
            r.shown = false;
        }
    }

    /// The active tab's scenario.
    pub fn scenario(&self) -> Scenario {
        self.active().get().scenario()
    }

    /// The share fragment: the lesson link while a lesson step is on screen
    /// unchanged (it re-derives the scenario), else the active tab's scenario.
    pub fn fragment(&self) -> String {
        match self.lesson_on_screen() {
            Some(r) if !r.off_track => r.lesson.link(r.step),
            _ => {
                let sc = self.scenario();
                // An example still as it opened is shared by its name.
                match (self.example_on_screen(), self.question_on_screen()) {
                    (Some(e), _) if e.scenario() == sc => e.link(),
                    (_, Some(q)) if q.scenario() == sc => q.link(),
                    _ => url::to_fragment(&sc),
                }
            }
        }
    }

    /// The gallery example whose card shows: the one opened last, while its
    /// tab is active and no lesson is on screen.
    pub fn example_on_screen(&self) -> Option<&'static gallery::Example> {
        let e = gallery::example(self.example.as_deref()?)?;
        (e.system == self.tab && self.lesson_on_screen().is_none() && self.page == Page::Playground)
            .then_some(e)
    }

    /// The gallery question whose card shows (as for examples).
    pub fn question_on_screen(&self) -> Option<&'static gallery::questions::Question> {
        let q = gallery::questions::question(self.question.as_deref()?)?;
        (q.system == self.tab && self.lesson_on_screen().is_none() && self.page == Page::Playground)
            .then_some(q)
    }

    /// Open the gallery question `slug` in free play on its tab, its fix as
    /// the Compare run; an unknown slug keeps the work and says so.
    fn open_question(&mut self, slug: &str) {
        let Some(q) = gallery::questions::question(slug) else {
            return self.fail(format!(
                "There is no question called “{slug}”. Open the Gallery to pick one."
            ));
        };
        match Live::open(&q.scenario()) {
            Ok(live) => {
                self.install(live);
                self.example = None;
                self.question = Some(q.slug.to_string());
                self.page = Page::Playground;
                self.compare = Some(q.fix());
                self.spread = true;
            }
            Err(err) => self.fail(format!("The question {slug} did not replay: {err}")),
        }
    }

    /// `#question=<slug>`.
    fn open_question_link(&mut self, fragment: &str) {
        match gallery::questions::parse_deep_link(fragment) {
            Some(slug) => self.open_question(&slug),
            None => self.fail("This question link could not be read: it should look like #question=<name>."),
        }
    }

    /// Open the gallery example `slug` in free play on its tab (a lesson of
    /// that system steps aside); an unknown slug keeps the work and says so.
    fn open_example(&mut self, slug: &str) {
        let Some(e) = gallery::example(slug) else {
            return self.fail(format!(
                "There is no example called “{slug}”. Open the Gallery to pick one."
            ));
        };
        match Live::open(&e.scenario()) {
            Ok(live) => {
                self.install(live);
                self.question = None;
                self.example = Some(e.slug.to_string());
                self.page = Page::Playground;
                self.compare = None;
                // Where the example's result depends on the seed (Flink's request
                // order), its spread over seeds shows.
                self.spread = e.depends_on_chance();
            }
            Err(err) => self.fail(format!("The example {slug} did not replay: {err}")),
        }
    }

    /// `#example=<slug>`.
    fn open_example_link(&mut self, fragment: &str) {
        match gallery::parse_deep_link(fragment) {
            Some(slug) => self.open_example(&slug),
            None => self.fail("This example link could not be read: it should look like #example=<name>."),
        }
    }

    /// The learner's workspace (every tab's own scenario and the open tab), to save.
    pub fn workspace(&self) -> Workspace {
        Workspace {
            workspace: WORKSPACE_VERSION,
            tab: self.tab,
            scenarios: self.tabs.iter().map(|t| t.get().scenario()).collect(),
        }
    }

    /// [`Store::workspace`] as JSON.
    pub fn workspace_json(&self) -> String {
        self.workspace().to_json()
    }

    /// Whether the active tab can undo / redo, and its cursor and log length.
    pub fn history(&self) -> super::History {
        self.active().get().history()
    }

    /// The newest [`MAX_LOG_ROWS`] events of the active tab, newest first, and how many older ones are hidden.
    pub fn event_rows(&self) -> (Vec<EventRow>, usize) {
        self.active().get().event_rows(MAX_LOG_ROWS)
    }

    /// The event log as a view draws it: of the newest [`MAX_LOG_ROWS`] events
    /// of the active tab, only the newest `wanted` are narrated (a round at
    /// 1,000 brokers logs thousands, and the log shows a hundred until asked
    /// for more), with how many of the kept ones the actions and the setup caused.
    pub fn event_log(&self, wanted: usize) -> EventLogRows {
        let tab = self.active().get();
        let (acted, setup) = tab.event_counts();
        let (rows, _) = tab.event_rows(wanted.min(MAX_LOG_ROWS));
        let kept_acted = acted.min(MAX_LOG_ROWS);
        let kept_setup = setup.min(MAX_LOG_ROWS - kept_acted);
        EventLogRows {
            rows,
            acted: kept_acted,
            setup: kept_setup,
            hidden: acted + setup - kept_acted - kept_setup,
        }
    }

    /// The metric lines of the active tab.
    pub fn series(&self) -> Vec<Series> {
        self.active().get().series()
    }

    /// The compare run's metric lines (the same log with one config value changed).
    pub fn compare_series(&self, key: &str, value: &Value) -> Result<Vec<Series>, String> {
        self.active().get().compare(key, value)
    }

    /// The compare run asked for, as a job for the page's engine worker (`id`
    /// comes back in the reply); `None` when nothing is compared.
    pub fn compare_job(&self, id: u64) -> Option<super::compare::CompareJob> {
        let (key, value) = self.compare.clone()?;
        Some(super::compare::CompareJob {
            id,
            scenario: self.scenario(),
            key,
            value,
        })
    }

    /// How the active tab's run so far ended and what it cost (the engine's
    /// outcome meter).
    pub fn outcome(&self) -> crate::engine::outcome::Outcome {
        self.active().get().outcome()
    }

    /// The spread over seeds asked for, as a job for the engine worker (`id`
    /// comes back in the reply); `None` when the spread is not shown.
    pub fn spread_job(&self, id: u64) -> Option<super::compare::SpreadJob> {
        self.spread.then(|| super::compare::SpreadJob {
            id,
            scenario: self.scenario(),
            compare: self.compare.clone(),
            seeds: super::compare::SPREAD_SEEDS,
        })
    }

    /// Whether replaying the active tab's scenario is heavy work (more than
    /// [`HEAVY_REPLAY`]): the page then computes its compare run in the engine
    /// worker instead of on the page.
    pub fn heavy_to_replay(&self) -> bool {
        open_work(&self.scenario()).0 > HEAVY_REPLAY
    }

    /// Every config key of the active tab.
    pub fn settings(&self) -> Vec<SettingRow> {
        self.active().get().settings()
    }

    /// What the active run can be compared with: `(key, value)` for every other
    /// choice of the engine's strategy keys.
    pub fn compare_options(&self) -> Vec<(&'static str, &'static str)> {
        let tab = self.active().get();
        let rows = tab.settings();
        tab.compare_keys()
            .iter()
            .filter_map(|k| rows.iter().find(|r| r.knob.key == *k))
            .flat_map(|r| {
                let cur = r.value.as_str().unwrap_or_default().to_string();
                let opts: &'static [&'static str] = match r.knob.kind {
                    crate::engine::schema::Kind::Choice(o) => o,
                    _ => &[],
                };
                opts.iter()
                    .filter(move |o| !o.eq_ignore_ascii_case(&cur))
                    .map(move |o| (r.knob.key, *o))
            })
            .collect()
    }

    /// The reducer: the next store after `msg`.
    pub fn reduce(&self, msg: Msg) -> Store {
        if let Msg::AtField(field, inner) = msg {
            let mut o = self.reduce(*inner);
            if let Some(Notice::Error(m)) = o.notice.take() {
                o.field_error = Some((field.id().to_string(), m));
            }
            return o;
        }
        let mut s = self.clone();
        // Pointing, help and playback controls keep the notice and the saved scenario as they are.
        let view_only = matches!(
            msg,
            Msg::Highlight(_)
                | Msg::Help(_)
                | Msg::Play(_)
                | Msg::Speed(_)
                | Msg::Notify(_)
                | Msg::Compare(_)
                | Msg::Spread(_)
                | Msg::Page(_)
                | Msg::OpenMore
        ) || matches!(&msg, Msg::Location(f) if *f == self.fragment());
        // Messages that may change the shown session: a lesson follows them.
        let follow = matches!(
            msg,
            Msg::Act(_)
                | Msg::StepActive
                | Msg::ApplyProposal
                | Msg::Undo
                | Msg::Redo
                | Msg::Seek(_)
                | Msg::SetConfig(..)
                | Msg::Rewrite(_)
        );
        if !view_only {
            s.notice = None;
            s.field_error = None;
            s.data_revision += 1;
        }
        if !view_only && !matches!(msg, Msg::Propose(true)) {
            s.proposal = None;
        }
        s.apply(msg);
        if follow {
            s.follow_lesson();
        }
        s.revision += 1;
        s
    }

    /// Apply one message (not `AtField`) to this store: the page's own state here,
    /// the session's and what opens in [`Store::apply_session`] and [`Store::apply_open`].
    fn apply(&mut self, msg: Msg) {
        let s = self;
        match msg {
            Msg::Tab(t) => {
                if s.tab != t {
                    s.compare = None;
                    s.spread = false;
                    if let Some(r) = s.lesson.as_mut() {
                        r.shown = false;
                    }
                }
                s.tab = t;
            }
            Msg::Compare(c) => s.compare = c,
            Msg::Spread(on) => s.spread = on,
            Msg::Dismiss => {}
            Msg::Highlight(h) => s.highlight = h,
            Msg::Play(p) => s.playing = p,
            Msg::Speed(ms) => s.speed_ms = ms.clamp(50, 10_000),
            Msg::Help(h) => s.help = h,
            Msg::Notify(n) => s.notice = Some(n),
            Msg::Page(p) => s.page = p,
            other => s.apply_session(other),
        }
    }

    /// Messages that change the active (or a shown) session: edits, rounds,
    /// proposals, undo and redo, seeking, a rewritten scenario.
    fn apply_session(&mut self, msg: Msg) {
        let s = self;
        match msg {
            Msg::SetConfig(key, value) => {
                let r = s.active().edit().set_config(&key, value);
                if let Err(e) = r {
                    s.field_error = Some((key, e));
                }
            }
            Msg::Propose(false) => s.proposal = None,
            Msg::Propose(true) => {
                let r = s.active().get().propose();
                match r {
                    Ok(p) => s.proposal = Some(p),
                    Err(e) => s.fail(e),
                }
            }
            Msg::StepActive | Msg::ApplyProposal => {
                let r = s.active().edit().round();
                if let Err(e) = r {
                    s.playing = false;
                    s.fail(e);
                }
            }
            Msg::Act(a) => {
                let target = s.shown(a.system()).clone();
                let r = target.edit().act(&a);
                if let Err(e) = r {
                    s.fail(e);
                }
            }
            Msg::Rewrite(sc) => {
                if sc.system() != s.tab {
                    s.fail(format!(
                        "a {} scenario cannot replace the {} tab",
                        sc.system().title(),
                        s.tab.title()
                    ));
                } else {
                    match Live::open(&sc) {
                        Ok(live) => s.replace_active(live),
                        Err(e) => s.fail(e),
                    }
                }
            }
            Msg::Undo => {
                let r = s.active().edit().undo();
                if let Err(e) = r {
                    s.fail(e);
                }
            }
            Msg::Redo => {
                let r = s.active().edit().redo();
                if let Err(e) = r {
                    s.fail(e);
                }
            }
            Msg::Seek(n) => {
                let r = s.active().edit().seek(n);
                if let Err(e) = r {
                    s.fail(e);
                }
            }
            other => s.apply_open(other),
        }
    }

    /// Messages that open something: a scenario, an example, a question, a
    /// lesson step, the page's location, a reset.
    fn apply_open(&mut self, msg: Msg) {
        let s = self;
        match msg {
            Msg::Open(sc) => {
                s.example = None;
                s.question = None;
                s.open_or_defer(*sc)
            }
            Msg::Example(slug) => s.open_example(&slug),
            Msg::CloseExample => {
                s.example = None;
                s.question = None;
            }
            Msg::Question(slug) => s.open_question(&slug),
            Msg::OpenPending => {
                s.opening = None;
                if let Some((sc, _)) = s.pending.take() {
                    s.open(*sc);
                }
            }
            Msg::OpenMore => s.open_more(),
            Msg::CancelOpen => {
                if s.pending.take().is_some() {
                    s.opening = None;
                    s.notice = Some(Notice::Info(
                        "Opening the scenario was stopped; the work on screen is unchanged.".into(),
                    ));
                }
            }
            Msg::Location(f) => s.location(&f),
            Msg::Lesson(m) => s.lesson_msg(m),
            Msg::Reset => match s.lesson_on_screen().map(|r| (r.lesson, r.step)) {
                Some((l, k)) => {
                    if let Err(e) = s.open_lesson(l, k) {
                        s.fail(e);
                    }
                }
                None => {
                    s.example = None;
                    s.question = None;
                    s.tabs[s.tab.index()] = default_tab(s.tab)
                }
            },
            other => unreachable!("{other:?} is applied by Store::apply or Store::apply_session"),
        }
    }

    /// The active session is replaced (a lesson's, or the learner's tab).
    fn replace_active(&mut self, live: Live) {
        match self
            .lesson
            .as_mut()
            .filter(|r| r.shown && r.lesson.system == self.tab)
        {
            Some(r) => r.session = live,
            None => self.tabs[self.tab.index()] = live,
        }
    }

    /// The browser moved to `fragment`: a lesson step opens it, a scenario link
    /// opens it, anything else shows the playground with the learner's tabs.
    fn location(&mut self, fragment: &str) {
        if fragment.contains("example=") {
            let same = gallery::parse_deep_link(fragment).is_some_and(|slug| {
                self.example_on_screen()
                    .is_some_and(|e| e.slug == slug && e.scenario() == self.scenario())
            });
            if !same {
                self.open_example_link(fragment);
            }
        } else if fragment.contains("question=") {
            let same = gallery::questions::parse_deep_link(fragment).is_some_and(|slug| {
                self.question_on_screen()
                    .is_some_and(|q| q.slug == slug && q.scenario() == self.scenario())
            });
            if !same {
                self.open_question_link(fragment);
            }
        } else if fragment.contains("lesson=") {
            if let Some((id, k)) = lessons::parse_deep_link(fragment) {
                if self
                    .lesson
                    .as_ref()
                    .is_some_and(|r| r.lesson.id == id && r.step == k && r.shown)
                {
                    return;
                }
            }
            self.open_link(fragment);
        } else {
            if let Some(r) = self.lesson.as_mut() {
                r.shown = false;
            }
            self.page = Page::Playground;
            if fragment.contains("s=") && url::to_fragment(&self.scenario()) != fragment {
                match url::decode(fragment) {
                    Ok(sc) => self.open_or_defer(sc),
                    Err(e) => self.fail(format!("This link could not be opened: {e}")),
                }
            }
        }
    }

    /// How far the pending scenario's replay is (`done` 0 before it starts), if one is pending.
    pub fn open_progress(&self) -> Option<OpenProgress> {
        let (sc, _) = self.pending.as_ref()?;
        Some(match &self.opening {
            Some(o) => o.progress(),
            None => {
                let (total, unit) = work(sc);
                OpenProgress {
                    done: 0,
                    total,
                    unit,
                    system: sc.system(),
                }
            }
        })
    }

    /// [`Msg::OpenMore`]: the next part of the pending replay; the last one
    /// opens the scenario like [`Store::open`].
    fn open_more(&mut self) {
        let Some((sc, _)) = self.pending.as_ref() else {
            return;
        };
        if self.opening.is_none() {
            match Opening::start(sc) {
                Ok(o) => self.opening = Some(o),
                Err(e) => {
                    self.pending = None;
                    self.data_revision += 1;
                    return self.fail(format!("Could not open the scenario: {e}"));
                }
            }
        }
        let Some(o) = self.opening.clone() else {
            return;
        };
        let r = o.work(OPEN_CHUNK);
        if !matches!(r, Ok(None)) {
            // Finished or failed: the link and the autosave follow.
            self.pending = None;
            self.opening = None;
            self.data_revision += 1;
            self.proposal = None;
        }
        match r {
            Ok(None) => {}
            Ok(Some(live)) => self.install(live),
            Err(e) => self.fail(format!("Could not open the scenario: {e}")),
        }
    }

    fn fail(&mut self, e: impl std::fmt::Display) {
        self.notice = Some(Notice::Error(e.to_string()));
    }
}

/// The replay work of `sc` (setup and log, [`Engine::weight`]) and its unit.
fn work(sc: &Scenario) -> (u64, &'static str) {
    struct W;
    impl crate::scenario::VisitLog for W {
        type Out = (u64, &'static str);
        fn visit<E: crate::scenario::InBody>(self, log: &crate::scenario::Log<E>) -> Self::Out {
            (
                log.setup.iter().chain(&log.actions).map(E::weight).sum(),
                super::words(E::SYSTEM).weight_unit,
            )
        }
    }
    sc.body.visit(W)
}

/// The work opening `sc` makes ([`crate::engine::Engine::open_cost`]: its
/// weight plus what the actions build), and what it counts.
fn open_work(sc: &Scenario) -> (u64, &'static str) {
    struct W;
    impl crate::scenario::VisitLog for W {
        type Out = (u64, &'static str);
        fn visit<E: crate::scenario::InBody>(self, log: &crate::scenario::Log<E>) -> Self::Out {
            (
                log.setup
                    .iter()
                    .chain(&log.actions)
                    .map(|a| E::open_cost(&log.config, a))
                    .fold(0u64, u64::saturating_add),
                super::words(E::SYSTEM).open_unit,
            )
        }
    }
    sc.body.visit(W)
}

/// Why `sc` is heavy to open (what the busy notice says), if it is.
fn heavy(sc: &Scenario) -> Option<String> {
    let (work, unit) = open_work(sc);
    (work > HEAVY_REPLAY).then(|| {
        let actions = sc.action_count() as u64;
        let mut what = format!("{actions} actions");
        if work > actions {
            what.push_str(&format!(" creating {} {unit}", work - actions));
        }
        format!(
            "Opening a large {} scenario: the engine replays {what}.",
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
