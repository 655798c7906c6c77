//! Guided lessons: one small scenario per concept of the three documents, stepped
//! through with narration computed from the replayed engine (never typed-in
//! numbers), a focus on what the step talks about, an optional "ask" for the
//! learner, a hint of which controls the idea needs, and an "in the real system"
//! box (config keys with their defaults, admin commands, source classes).
//!
//! Pure: no web crates. The UI uses:
//! * [`all`] / [`lesson`] to list and find lessons (ids are deep-link slugs);
//! * [`Lesson::scenario_at`] for the scenario (cursor at a step) to load into the
//!   playground and share;
//! * [`Lesson::render`] for a step's [`StepView`] (narration, focus, ask, controls);
//! * [`Lesson::ask_action`] / [`Lesson::satisfies`] to apply or check an ask;
//! * [`deep_link`] / [`parse_deep_link`] for `#lesson=<id>&step=<n>` (1-based);
//! * [`fidelity::notes`] for the fidelity page.

pub mod asks;
pub mod fidelity;
mod flink;
mod kstreams;
mod pulsar;
mod scalable;
pub mod text;
mod workload;

use crate::engine::{Engine, System};
use crate::scenario::{replay, Log, Scenario, ScenarioError};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The concepts of the course, in the course's order (one lesson at least each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Concept {
    /// Pulsar: topics, namespaces and bundles on the hash ring.
    PulsarBundlesOnTheRing,
    /// Pulsar: bundle assignment and lookup.
    PulsarLookup,
    /// Pulsar: automatic split thresholds.
    PulsarAutoSplit,
    /// Pulsar: range_equally_divide.
    PulsarRangeEquallyDivide,
    /// Pulsar: topic_count_equally_divide.
    PulsarTopicCountEquallyDivide,
    /// Pulsar: specified_positions_divide.
    PulsarSpecifiedPositionsDivide,
    /// Pulsar: flow_or_qps_equally_divide.
    PulsarFlowOrQpsEquallyDivide,
    /// Pulsar: OverloadShedder.
    PulsarOverloadShedder,
    /// Pulsar: ThresholdShedder.
    PulsarThresholdShedder,
    /// Pulsar: UniformLoadShedder.
    PulsarUniformLoadShedder,
    /// Pulsar: TransferShedder.
    PulsarTransferShedder,
    /// Pulsar: AvgShedder.
    PulsarAvgShedder,
    /// Pulsar: modular vs extensible load manager.
    PulsarModularVsExtensible,
    /// Pulsar: a broker crash and a broker join.
    PulsarCrashAndJoin,
    /// Pulsar: manual split and unload commands.
    PulsarManualCommands,
    /// Pulsar 5.0: scalable topics, segments that split and merge.
    PulsarScalableTopics,
    /// Flink: unequal parallelism skews TaskManagers.
    FlinkUnequalParallelism,
    /// Flink: the two phases of balanced scheduling.
    FlinkTwoPhases,
    /// Flink: when not to use tasks mode.
    FlinkWhenNotToUse,
    /// Flink: failover and `slot.request.max-interval`.
    FlinkFailover,
    /// Kafka Streams: partitions to tasks.
    KstreamsPartitionsToTasks,
    /// Kafka Streams: threads and scaling them at runtime.
    KstreamsThreads,
    /// Kafka Streams: state stores, changelogs and restore cost.
    KstreamsStateRestore,
    /// Kafka Streams: standby replicas and caught-up failover.
    KstreamsStandbys,
    /// Kafka Streams: rack-aware standbys.
    KstreamsRackAwareStandbys,
    /// Kafka Streams: rack-aware active tasks.
    KstreamsRackAwareActives,
}

impl Concept {
    /// Every concept, in course order.
    pub const ALL: [Concept; 26] = [
        Concept::PulsarBundlesOnTheRing,
        Concept::PulsarLookup,
        Concept::PulsarAutoSplit,
        Concept::PulsarRangeEquallyDivide,
        Concept::PulsarTopicCountEquallyDivide,
        Concept::PulsarSpecifiedPositionsDivide,
        Concept::PulsarFlowOrQpsEquallyDivide,
        Concept::PulsarOverloadShedder,
        Concept::PulsarThresholdShedder,
        Concept::PulsarUniformLoadShedder,
        Concept::PulsarTransferShedder,
        Concept::PulsarAvgShedder,
        Concept::PulsarModularVsExtensible,
        Concept::PulsarCrashAndJoin,
        Concept::PulsarManualCommands,
        Concept::PulsarScalableTopics,
        Concept::FlinkUnequalParallelism,
        Concept::FlinkTwoPhases,
        Concept::FlinkWhenNotToUse,
        Concept::FlinkFailover,
        Concept::KstreamsPartitionsToTasks,
        Concept::KstreamsThreads,
        Concept::KstreamsStateRestore,
        Concept::KstreamsStandbys,
        Concept::KstreamsRackAwareStandbys,
        Concept::KstreamsRackAwareActives,
    ];
}

pub use crate::engine::SubjectKind;

/// One element to highlight (`data-<kind>="<id>"`).
pub type Focus = crate::engine::Subject;

/// Groups of controls a step needs (the UI hides the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controls {
    /// Step / play (Pulsar rounds).
    Step,
    /// Create topics.
    Topics,
    /// Topic and bundle traffic, broker usage.
    Load,
    /// Add, crash and restore brokers / TaskManagers / instances.
    Members,
    /// Split a bundle (pulsar-admin split-bundle).
    Split,
    /// Unload a bundle or namespace (pulsar-admin unload).
    Unload,
    /// The settings panel.
    Config,
    /// Flink: schedule the job.
    Schedule,
    /// Kafka Streams: add / remove stream threads.
    Threads,
    /// Kafka Streams: produce records.
    Produce,
    /// Kafka Streams / Flink: let time pass.
    Time,
    /// Kafka Streams: start the processor topology.
    Topology,
    /// Everything (free play).
    All,
}

pub use crate::engine::AnyAction;

/// A config key of the real system with its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// The real key (`broker.conf`, Flink or Kafka Streams config name).
    pub key: String,
    /// Its default, as the real system writes it.
    pub default: String,
    /// True when the default was read from the engine's `Config::default()`.
    pub from_engine: bool,
}

/// The "in the real system" box.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealSystem {
    /// Config keys and defaults.
    pub settings: Vec<Setting>,
    /// Admin commands / API calls.
    pub commands: Vec<String>,
    /// Source classes (fully qualified).
    pub classes: Vec<String>,
}

/// What a narrator returns: the narration and what to highlight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// 2–4 sentences.
    pub text: String,
    /// Elements to highlight.
    pub focus: Vec<Focus>,
}

impl Said {
    /// Narration without focus.
    pub fn new(text: impl Into<String>) -> Said {
        Said {
            text: text.into(),
            focus: Vec::new(),
        }
    }
    /// Add a focus.
    pub fn focus(mut self, kind: SubjectKind, id: impl AsRef<str>) -> Said {
        self.focus.push(Focus::new(kind, id.as_ref()));
        self
    }
}

/// The replayed state at a step: state after `cursor` log actions, and the events.
#[derive(Clone, Debug)]
pub struct Ctx<S: Engine> {
    /// The state.
    pub state: S,
    /// Events of the setup actions.
    pub setup: Vec<S::Event>,
    /// Events of each applied log action.
    pub steps: Vec<Vec<S::Event>>,
    /// How many log actions are applied.
    pub cursor: usize,
}

impl<S: Engine> Ctx<S> {
    /// Replay `log` up to `cursor`.
    pub fn replay(seed: u64, log: &Log<S>, cursor: usize) -> Result<Self, ScenarioError> {
        let r = replay::<S>(seed, log, Some(cursor))?;
        Ok(Ctx {
            state: r.state,
            setup: r.setup.into_iter().flat_map(|s| s.events).collect(),
            steps: r.steps.into_iter().map(|s| s.events).collect(),
            cursor,
        })
    }

    /// Events of the last applied action (the setup's when none is applied).
    pub fn last(&self) -> &[S::Event] {
        self.steps.last().map_or(&self.setup[..], |v| &v[..])
    }

    /// Every event so far, setup first.
    pub fn events(&self) -> impl Iterator<Item = &S::Event> {
        self.setup.iter().chain(self.steps.iter().flatten())
    }

    /// The first value `f` picks from the last action's events.
    pub fn pick<T>(&self, f: impl FnMut(&S::Event) -> Option<T>) -> Option<T> {
        self.last().iter().find_map(f)
    }

    /// Every value `f` picks from the last action's events.
    pub fn pick_all<T>(&self, f: impl FnMut(&S::Event) -> Option<T>) -> Vec<T> {
        self.last().iter().filter_map(f).collect()
    }
}

/// A narrator: code that reads the replayed state and events and tells the step.
pub type Narrator<E> = fn(&Ctx<E>) -> Said;

/// One step of a lesson (the same for every system).
#[derive(Clone, Debug)]
pub struct StepDef {
    /// Short title.
    pub title: &'static str,
    /// How many log actions the step shows applied.
    pub cursor: usize,
    /// Tells the learner to act; the action that satisfies it is log action `cursor`
    /// (the next step shows it applied, at `cursor + 1`).
    pub ask: Option<String>,
    /// Controls the step needs.
    pub controls: &'static [Controls],
}

/// A step of engine `E` while a lesson is written: the step and its narrator.
pub struct Step<E: Engine> {
    def: StepDef,
    narrate: Narrator<E>,
}

/// The typed half of a lesson: the scenario's log and each step's narrator.
struct Course<E: Engine> {
    seed: u64,
    log: Log<E>,
    narrators: Vec<Narrator<E>>,
}

/// What a lesson needs of its engine, whatever the engine.
trait Tell: Send + Sync {
    fn said(&self, cursor: usize, k: usize) -> Result<Said, ScenarioError>;
    fn action(&self, i: usize) -> Option<AnyAction>;
    fn log_len(&self) -> usize;
    fn config_change(&self, i: usize) -> Result<ConfigShift, ScenarioError>;
}

/// What log action `i` does to the config: the keys it changes, and whether it
/// is written as a whole config (every key) or as a patch of a few.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigShift {
    /// Keys whose value changes.
    pub changed: Vec<String>,
    /// Keys the action writes (all of them for a whole config).
    pub written: usize,
}

impl<E: Engine> Tell for Course<E>
where
    Log<E>: Send + Sync,
{
    fn said(&self, cursor: usize, k: usize) -> Result<Said, ScenarioError> {
        Ok((self.narrators[k])(&Ctx::replay(self.seed, &self.log, cursor)?))
    }
    fn action(&self, i: usize) -> Option<AnyAction> {
        self.log.actions.get(i).cloned().map(E::wrap)
    }
    fn log_len(&self) -> usize {
        self.log.actions.len()
    }
    fn config_change(&self, i: usize) -> Result<ConfigShift, ScenarioError> {
        use crate::engine::schema::Patch;
        let before = Ctx::replay(self.seed, &self.log, i)?.state;
        let after = Ctx::replay(self.seed, &self.log, i + 1)?.state;
        let changed = Patch::between(before.config(), after.config())
            .values()
            .keys()
            .cloned()
            .collect();
        let written = self.log.actions.get(i).map_or(0, |a| {
            serde_json::to_value(a)
                .ok()
                .and_then(|v| {
                    v.get("config")
                        .and_then(|c| c.as_object())
                        .map(serde_json::Map::len)
                })
                .unwrap_or(0)
        });
        Ok(ConfigShift { changed, written })
    }
}

/// A lesson.
pub struct Lesson {
    /// Stable slug (deep links).
    pub id: &'static str,
    /// System.
    pub system: System,
    /// Title.
    pub title: &'static str,
    /// The concept it teaches.
    pub concept: Concept,
    /// One sentence: the idea.
    pub idea: &'static str,
    /// The scenario: setup builds the cluster, the log holds the actions stepped through.
    pub scenario: Scenario,
    /// Steps (the last one is free play).
    pub steps: Vec<StepDef>,
    /// The "in the real system" box.
    pub real: RealSystem,
    course: Box<dyn Tell>,
}

impl std::fmt::Debug for Lesson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lesson")
            .field("id", &self.id)
            .field("steps", &self.steps)
            .finish()
    }
}

/// What a lesson says about itself, besides its scenario and steps.
pub struct About {
    /// Stable slug (deep links).
    pub id: &'static str,
    /// The concept it teaches.
    pub concept: Concept,
    /// Title.
    pub title: &'static str,
    /// One sentence: the idea.
    pub idea: &'static str,
    /// The "in the real system" box.
    pub real: RealSystem,
}

/// A lesson as the menu lists it (serialisable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LessonInfo {
    /// Stable slug.
    pub id: String,
    /// System.
    pub system: System,
    /// Title.
    pub title: String,
    /// Concept.
    pub concept: Concept,
    /// One sentence: the idea.
    pub idea: String,
    /// Number of steps.
    pub steps: usize,
    /// The "in the real system" box.
    pub real: RealSystem,
}

/// An ask as the UI sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AskView {
    /// What to tell the learner ("press Step", "crash broker-2").
    pub prompt: String,
    /// The action that satisfies it (the UI may apply it, or compare the learner's).
    pub action: AnyAction,
}

/// A rendered step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    /// Lesson id.
    pub lesson: String,
    /// 0-based index.
    pub index: usize,
    /// Steps in the lesson.
    pub of: usize,
    /// Title.
    pub title: String,
    /// Narration (2–4 sentences, numbers from the engine).
    pub narration: String,
    /// Log actions applied.
    pub cursor: usize,
    /// What to highlight.
    pub focus: Vec<Focus>,
    /// What the learner is asked to do, if anything.
    pub ask: Option<AskView>,
    /// Controls to show.
    pub controls: Vec<Controls>,
    /// The last step: play freely from here.
    pub free_play: bool,
}

/// Why a step could not be rendered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LessonError {
    /// No such step.
    #[error("lesson {lesson} has {steps} steps; there is no step {index}")]
    NoStep {
        /// Lesson.
        lesson: String,
        /// Requested (0-based).
        index: usize,
        /// Count.
        steps: usize,
    },
    /// The scenario did not replay.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
}

impl Lesson {
    /// A lesson of engine `E`: `log` replayed from `seed`, told by `steps`.
    pub fn new<E: crate::scenario::InBody>(
        about: About,
        seed: u64,
        log: Log<E>,
        steps: Vec<Step<E>>,
    ) -> Lesson
    where
        Log<E>: Send + Sync,
    {
        let (steps, narrators): (Vec<StepDef>, Vec<Narrator<E>>) =
            steps.into_iter().map(|s| (s.def, s.narrate)).unzip();
        Lesson {
            id: about.id,
            system: E::SYSTEM,
            title: about.title,
            concept: about.concept,
            idea: about.idea,
            scenario: Scenario::of::<E>(seed, log.clone()),
            steps,
            real: about.real,
            course: Box::new(Course { seed, log, narrators }),
        }
    }

    /// The menu entry.
    pub fn info(&self) -> LessonInfo {
        LessonInfo {
            id: self.id.into(),
            system: self.system,
            title: self.title.into(),
            concept: self.concept,
            idea: self.idea.into(),
            steps: self.steps.len(),
            real: self.real.clone(),
        }
    }

    /// The deep link of step `index` (0-based): `#lesson=<id>&step=<index + 1>`.
    pub fn link(&self, index: usize) -> String {
        deep_link(self.id, index)
    }

    /// The number of log actions.
    pub fn log_len(&self) -> usize {
        self.course.log_len()
    }

    /// The scenario with its cursor at step `index` (what the playground loads).
    pub fn scenario_at(&self, index: usize) -> Option<Scenario> {
        let st = self.steps.get(index)?;
        let mut s = self.scenario.clone();
        s.cursor = Some(st.cursor);
        Some(s)
    }

    /// The log action at `i`.
    pub fn action(&self, i: usize) -> Option<AnyAction> {
        self.course.action(i)
    }

    /// The action that satisfies step `index`'s ask, if it has one.
    pub fn ask_action(&self, index: usize) -> Option<AnyAction> {
        let st = self.steps.get(index)?;
        st.ask.as_ref()?;
        self.action(st.cursor)
    }

    /// What step `index`'s asked action does to the config (`None`: no ask).
    pub fn ask_config_change(&self, index: usize) -> Option<Result<ConfigShift, ScenarioError>> {
        let st = self.steps.get(index)?;
        st.ask.as_ref()?;
        Some(self.course.config_change(st.cursor))
    }

    /// Whether `action` satisfies step `index`'s ask (equal to the expected action).
    pub fn satisfies(&self, index: usize, action: &AnyAction) -> bool {
        self.ask_action(index).is_some_and(|a| &a == action)
    }

    /// The step's narration and focus, computed from the replayed engine.
    pub fn said(&self, index: usize) -> Result<Said, LessonError> {
        let st = self.steps.get(index).ok_or_else(|| LessonError::NoStep {
            lesson: self.id.into(),
            index,
            steps: self.steps.len(),
        })?;
        Ok(self.course.said(st.cursor, index)?)
    }

    /// Render step `index` (0-based).
    pub fn render(&self, index: usize) -> Result<StepView, LessonError> {
        let said = self.said(index)?;
        let st = &self.steps[index];
        let ask = match (&st.ask, self.ask_action(index)) {
            (Some(p), Some(action)) => Some(AskView {
                prompt: p.clone(),
                action,
            }),
            _ => None,
        };
        Ok(StepView {
            lesson: self.id.into(),
            index,
            of: self.steps.len(),
            title: st.title.into(),
            narration: said.text,
            cursor: st.cursor,
            focus: said.focus,
            ask,
            controls: st.controls.to_vec(),
            free_play: index + 1 == self.steps.len(),
        })
    }
}

/// Every lesson, in course order.
pub fn all() -> &'static [Lesson] {
    static ALL: OnceLock<Vec<Lesson>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = pulsar::lessons();
        v.extend(scalable::lessons());
        v.extend(flink::lessons());
        v.extend(kstreams::lessons());
        // Each workload lesson follows the last lesson of its concept.
        for w in workload::lessons() {
            let at = v
                .iter()
                .rposition(|l| l.concept == w.concept)
                .map_or(v.len(), |i| i + 1);
            v.insert(at, w);
        }
        v
    })
}

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.id == id)
}

/// Lessons of one system, in order.
pub fn of_system(system: System) -> impl Iterator<Item = &'static Lesson> {
    all().iter().filter(move |l| l.system == system)
}

/// `#lesson=<id>&step=<n>`, `n` 1-based.
pub fn deep_link(id: &str, index: usize) -> String {
    format!("#lesson={id}&step={}", index + 1)
}

/// Parse `lesson=<id>[&step=<n>]` out of a fragment (with or without `#`, other
/// parameters ignored); returns the id and the 0-based step (0 when absent).
pub fn parse_deep_link(fragment: &str) -> Option<(String, usize)> {
    let f = fragment.trim_start_matches('#');
    let mut id = None;
    let mut step = 0;
    for part in f.split('&') {
        if let Some(v) = part.strip_prefix("lesson=") {
            id = Some(v.to_string());
        } else if let Some(v) = part.strip_prefix("step=") {
            step = v.parse::<usize>().ok()?.checked_sub(1)?;
        }
    }
    id.filter(|i| !i.is_empty()).map(|i| (i, step))
}

/// Build a step (helper for the course files).
pub(crate) fn step<E: Engine>(
    title: &'static str,
    cursor: usize,
    controls: &'static [Controls],
    narrate: Narrator<E>,
) -> Step<E> {
    Step {
        def: StepDef {
            title,
            cursor,
            ask: None,
            controls,
        },
        narrate,
    }
}

impl<E: Engine> Step<E> {
    /// Add an ask (satisfied by log action `cursor`).
    pub(crate) fn ask(mut self, prompt: impl Into<String>) -> Step<E> {
        self.def.ask = Some(prompt.into());
        self
    }
}

/// A setting whose default is read from a config's JSON form under `key`.
pub(crate) fn setting_from<C: Serialize + Default>(key: &str) -> Setting {
    let v = serde_json::to_value(C::default()).unwrap_or_default();
    let d = v.get(key).map(|x| match x {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "unset".to_string(),
        other => other.to_string(),
    });
    Setting {
        key: key.to_string(),
        default: d.clone().unwrap_or_else(|| "?".into()),
        from_engine: d.is_some(),
    }
}

/// A setting lbscope does not model, with the real default.
pub(crate) fn setting_lit(key: &str, default: &str) -> Setting {
    Setting {
        key: key.to_string(),
        default: default.to_string(),
        from_engine: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_links_round_trip() {
        assert_eq!(
            deep_link("pulsar-threshold-shedder", 2),
            "#lesson=pulsar-threshold-shedder&step=3"
        );
        assert_eq!(
            parse_deep_link("#lesson=pulsar-threshold-shedder&step=3"),
            Some(("pulsar-threshold-shedder".into(), 2))
        );
        assert_eq!(parse_deep_link("lesson=x"), Some(("x".into(), 0)));
        assert_eq!(parse_deep_link("#s=1.abc&lesson=x&step=2"), Some(("x".into(), 1)));
        assert_eq!(parse_deep_link("#lesson=x&step=0"), None);
        assert_eq!(parse_deep_link("#s=1.abc"), None);
    }

    #[test]
    fn settings_read_engine_defaults() {
        let s = setting_from::<crate::engine::pulsar::Config>("loadBalancerBrokerThresholdShedderPercentage");
        assert!(s.from_engine);
        assert_eq!(s.default, "10.0");
        let f = setting_from::<crate::engine::flink::Config>("taskmanager.load-balance.mode");
        assert_eq!(f.default, "unset");
        let f = setting_from::<crate::engine::flink::Config>("cluster.evenly-spread-out-slots");
        assert_eq!(f.default, "false");
        assert!(!setting_from::<crate::engine::flink::Config>("nope").from_engine);
    }

    /// Every "in the real system" default of a key the engine knows is the
    /// engine's own default (the 5.0 profile for Pulsar), never typed by hand.
    #[test]
    fn real_system_boxes_come_from_the_engine_defaults() {
        struct Defaults;
        impl crate::engine::Visit for Defaults {
            type Out = serde_json::Value;
            fn visit<E: Engine>(self) -> serde_json::Value {
                serde_json::to_value(E::Config::default()).unwrap()
            }
        }
        let defaults = |sys: System| sys.visit(Defaults);
        for l in all() {
            let d = defaults(l.system);
            for s in &l.real.settings {
                if let Some(v) = d.get(&s.key) {
                    let want = match v {
                        serde_json::Value::String(x) => x.clone(),
                        serde_json::Value::Null => "unset".into(),
                        other => other.to_string(),
                    };
                    assert!(s.from_engine, "{}: {} typed by hand", l.id, s.key);
                    assert_eq!(s.default, want, "{}: {}", l.id, s.key);
                }
            }
        }
        let avg = lesson("pulsar-avg-shedder").unwrap();
        let get = |k: &str| {
            avg.real
                .settings
                .iter()
                .find(|s| s.key == k)
                .map(|s| s.default.clone())
        };
        assert!(get("loadBalancerLoadSheddingStrategy").is_some_and(|v| v.ends_with("AvgShedder")));
        assert_eq!(get("maxUnloadPercentage").as_deref(), Some("0.5"));
        assert_eq!(
            get("loadBalancerDistributeBundlesEvenlyEnabled").as_deref(),
            Some("false")
        );
    }

    #[test]
    fn every_lesson_renders_and_concepts_are_in_order() {
        let mut last = Concept::ALL[0];
        for l in all() {
            assert!(l.concept >= last, "{} out of course order", l.id);
            last = l.concept;
            // A concept is taught on one system's tab.
            let other = all()
                .iter()
                .find(|o| o.concept == l.concept && o.system != l.system);
            assert!(
                other.is_none(),
                "{} and {:?} teach {:?}",
                l.id,
                other.map(|o| &o.id),
                l.concept
            );
            assert_eq!(l.scenario.system(), l.system, "{}", l.id);
            for k in 0..l.steps.len() {
                let v = l.render(k).unwrap_or_else(|e| panic!("{} step {k}: {e}", l.id));
                assert!(!v.narration.is_empty());
            }
        }
    }
}
