//! The deterministic balancing engines, one folder per system.
//!
//! Every system implements [`Engine`]: it is built from a config and a seed, and
//! then changes only through [`Engine::apply`], which returns the events that
//! explain what happened (with the numbers behind each decision) or an error that
//! leaves the state untouched. The rest of the crate (scenarios, lessons, the
//! playground, the CLI) is written once, generically over [`Engine`]; the only
//! place that lists the three systems is [`System`] and its
//! [`System::visit`] / [`AnyAction`].

pub mod flink;
pub mod java_sort;
pub mod kstreams;
pub mod outcome;
pub mod pulsar;
pub mod rng;
pub mod schema;
pub mod strategy;
pub mod tagged;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::Debug;

pub use rng::SimRng;

/// A sequence serialized from an iterator made when it is written (so the
/// items are built one at a time, never all held).
pub struct LazySeq<F>(pub F);

impl<F, I> Serialize for LazySeq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}
pub use schema::Schema;

/// The three balancing systems lbscope models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// Apache Pulsar broker load balancing (bundles, splits, shedders).
    Pulsar,
    /// Apache Flink task scheduling (slot sharing, TaskManager placement).
    Flink,
    /// Kafka Streams task assignment (tasks, threads, standbys, racks).
    Kstreams,
}

/// Code that runs for one engine type, chosen by a [`System`] value at run time.
pub trait Visit {
    /// What it returns.
    type Out;
    /// Run for engine `E`.
    fn visit<E: Engine>(self) -> Self::Out;
}

impl System {
    /// All systems, in tab order.
    pub const ALL: [System; 3] = [System::Pulsar, System::Flink, System::Kstreams];

    /// Human-facing name.
    pub fn title(self) -> &'static str {
        match self {
            System::Pulsar => "Pulsar",
            System::Flink => "Flink",
            System::Kstreams => "Kafka Streams",
        }
    }

    /// The name scenarios and links use (`"pulsar"`, `"flink"`, `"kstreams"`).
    pub fn slug(self) -> &'static str {
        match self {
            System::Pulsar => "pulsar",
            System::Flink => "flink",
            System::Kstreams => "kstreams",
        }
    }

    /// Position in [`System::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Run `v` with this system's engine type.
    pub fn visit<V: Visit>(self, v: V) -> V::Out {
        match self {
            System::Pulsar => v.visit::<pulsar::Sim>(),
            System::Flink => v.visit::<flink::Sim>(),
            System::Kstreams => v.visit::<kstreams::Sim>(),
        }
    }
}

/// An action of any system.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "system", content = "action", rename_all = "snake_case")]
pub enum AnyAction {
    /// Pulsar.
    Pulsar(pulsar::Action),
    /// Flink.
    Flink(flink::Action),
    /// Kafka Streams.
    Kstreams(kstreams::Action),
}

impl From<pulsar::Action> for AnyAction {
    fn from(a: pulsar::Action) -> Self {
        AnyAction::Pulsar(a)
    }
}

impl From<flink::Action> for AnyAction {
    fn from(a: flink::Action) -> Self {
        AnyAction::Flink(a)
    }
}

impl From<kstreams::Action> for AnyAction {
    fn from(a: kstreams::Action) -> Self {
        AnyAction::Kstreams(a)
    }
}

impl AnyAction {
    /// Its system.
    pub fn system(&self) -> System {
        match self {
            AnyAction::Pulsar(_) => System::Pulsar,
            AnyAction::Flink(_) => System::Flink,
            AnyAction::Kstreams(_) => System::Kstreams,
        }
    }
}

/// Something that can be told in plain words, with its numbers.
pub trait Narrate {
    /// One line of narration, e.g. for the event log or the CLI.
    fn narrate(&self) -> String;

    /// The start of the narration, for a view that shows only the start of a
    /// long line: `(text, false)` with `text` the whole narration, or `(text,
    /// true)` with `text` a proper prefix of it holding more than `chars`
    /// characters. A narration that lists every broker (tens of thousands of
    /// characters at 1,000 brokers) stops writing there instead of writing it
    /// all; the others give the whole line.
    fn narrate_start(&self, chars: usize) -> (String, bool) {
        let _ = chars;
        (self.narrate(), false)
    }
}

/// A narration made of `head`, then `items` separated by `sep`, then `tail`,
/// written as [`Narrate::narrate_start`] asks: once the text holds more than
/// `chars` characters and more items are left, it stops there (`true`). With
/// `usize::MAX` it is the whole narration, so both come from one writer.
pub fn list_narration(
    head: &str,
    items: impl IntoIterator<Item = String>,
    sep: &str,
    tail: impl FnOnce() -> String,
    chars: usize,
) -> (String, bool) {
    let mut out = String::from(head);
    let mut n = head.chars().count();
    for (i, item) in items.into_iter().enumerate() {
        if n > chars {
            return (out, true);
        }
        if i > 0 {
            out.push_str(sep);
            n += sep.chars().count();
        }
        out.push_str(&item);
        n += item.chars().count();
    }
    out.push_str(&tail());
    (out, false)
}

/// The kinds of thing a view draws and an event can be about; each is the
/// `<kind>` of the `data-<kind>` attribute the views put on its elements.
/// (Listed in the order of their names, so subjects sort as their names do.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    /// A Pulsar broker, id its name.
    Broker,
    /// A Pulsar bundle, id `tenant/ns/0xLLLLLLLL_0xUUUUUUUU`.
    Bundle,
    /// A Kafka Streams instance, id its name.
    Instance,
    /// A Flink slot, id `tm-0/1` (TaskManager / slot index).
    Slot,
    /// A Kafka Streams task, id `0_1`.
    Task,
    /// A Kafka Streams stream thread, id `instance/T1`.
    Thread,
    /// A Flink TaskManager, id its name.
    Tm,
    /// A Pulsar or Kafka topic, id its full name.
    Topic,
    /// A Flink job vertex, id its name.
    Vertex,
}

impl SubjectKind {
    /// Every kind.
    pub const ALL: [SubjectKind; 9] = [
        SubjectKind::Broker,
        SubjectKind::Bundle,
        SubjectKind::Instance,
        SubjectKind::Slot,
        SubjectKind::Task,
        SubjectKind::Thread,
        SubjectKind::Tm,
        SubjectKind::Topic,
        SubjectKind::Vertex,
    ];

    /// Its name, the `<kind>` of `data-<kind>` (`"bundle"`).
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectKind::Broker => "broker",
            SubjectKind::Bundle => "bundle",
            SubjectKind::Instance => "instance",
            SubjectKind::Slot => "slot",
            SubjectKind::Task => "task",
            SubjectKind::Thread => "thread",
            SubjectKind::Tm => "tm",
            SubjectKind::Topic => "topic",
            SubjectKind::Vertex => "vertex",
        }
    }

    /// The `data-` attribute the views put on such elements (`"data-bundle"`).
    pub fn attribute(self) -> &'static str {
        match self {
            SubjectKind::Broker => "data-broker",
            SubjectKind::Bundle => "data-bundle",
            SubjectKind::Instance => "data-instance",
            SubjectKind::Slot => "data-slot",
            SubjectKind::Task => "data-task",
            SubjectKind::Thread => "data-thread",
            SubjectKind::Tm => "data-tm",
            SubjectKind::Topic => "data-topic",
            SubjectKind::Vertex => "data-vertex",
        }
    }
}

impl std::fmt::Display for SubjectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a view draws and an event can be about: matched against the element's
/// `data-<kind>` attribute (kind `bundle`, id `public/default/0x00000000_0x40000000`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Subject {
    /// What it is.
    pub kind: SubjectKind,
    /// The entity's id, as in the `data-<kind>` attribute.
    pub id: String,
}

impl Subject {
    /// A subject.
    pub fn new(kind: SubjectKind, id: impl Into<String>) -> Subject {
        Subject { kind, id: id.into() }
    }
}

/// A line of the metrics chart: one value per round (or per scheduling run).
/// Read back as well as written: the browser's engine worker sends the lines of
/// a compare run to the page as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Unit shown on hover.
    pub unit: std::borrow::Cow<'static, str>,
    /// `(round, value)` points.
    #[serde(deserialize_with = "points_or_nan")]
    pub points: Vec<(f64, f64)>,
}

/// Points read back from JSON, which has no NaN: serde_json writes a value that
/// is not a finite number as `null`, read here as NaN (the page gets the line
/// it would have computed itself, but for an infinity, which also reads as NaN).
fn points_or_nan<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(f64, f64)>, D::Error> {
    let raw: Vec<(Option<f64>, Option<f64>)> = Deserialize::deserialize(d)?;
    Ok(raw
        .into_iter()
        .map(|(x, y)| (x.unwrap_or(f64::NAN), y.unwrap_or(f64::NAN)))
        .collect())
}

impl Series {
    /// A line named `name` from `(x, item)` pairs.
    pub fn of<M>(name: &str, unit: &'static str, items: &[(f64, M)], f: impl Fn(&M) -> f64) -> Series {
        Series {
            name: name.to_string(),
            unit: unit.into(),
            points: items.iter().map(|(x, m)| (*x, f(m))).collect(),
        }
    }
}

/// What one part of an action applied in parts gives ([`Engine::apply_part`],
/// [`Engine::resume`]): the part's events, and what is left of the action
/// (`None`: it is fully applied).
pub type Part<E> = (Vec<<E as Engine>::Event>, Option<<E as Engine>::Rest>);

/// One part of `action` on `state`: the first part ([`Engine::apply_part`])
/// when `rest` is `None`, else the next one ([`Engine::resume`]) of what is
/// left. Gives the part's events, what is then left, and the units of the
/// action's weight this part did (the parts of an action add up to its weight).
pub fn apply_some<E: Engine>(
    state: &mut E,
    action: &E::Action,
    rest: Option<E::Rest>,
    budget: u64,
) -> Result<(Part<E>, u64), E::Error> {
    let (before, (events, rest)) = match rest {
        Some(r) => (E::rest_weight(&r), state.resume(r, budget)),
        None => (E::weight(action), state.apply_part(action, budget)?),
    };
    let done = before - rest.as_ref().map_or(0, E::rest_weight);
    Ok(((events, rest), done))
}

/// [`apply_some`] for the setup action `action`, followed in the setup by `next`
/// (see [`Engine::apply_setup_part`]).
pub fn apply_setup_some<E: Engine>(
    state: &mut E,
    action: &E::Action,
    next: Option<&E::Action>,
    rest: Option<E::Rest>,
    budget: u64,
) -> Result<(Part<E>, u64), E::Error> {
    let (before, (events, rest)) = match rest {
        Some(r) => (E::rest_weight(&r), state.resume(r, budget)),
        None => (E::weight(action), state.apply_setup_part(action, next, budget)?),
    };
    let done = before - rest.as_ref().map_or(0, E::rest_weight);
    Ok(((events, rest), done))
}

/// A deterministic balancing engine.
///
/// Contract:
/// * `new` and `apply` never panic on any input; bad input is an `Error`.
/// * `apply` either succeeds, or fails and leaves `self` exactly as it was.
/// * Given the same config, seed and actions, the events and states are identical
///   on every platform (native and wasm32).
/// * [`Engine::invariants`] holds after every successful `apply`.
///
/// What the page calls an engine's round and its work is not here: see
/// `playground::Present` (docs/architecture.md, the Engine contract).
pub trait Engine: Clone + Debug + Sized + 'static {
    /// Every tunable, named as the real system names it; `Default` is the real default.
    type Config: Debug + Schema;
    /// The only way state changes.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// What happened and why, with numbers.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Narrate;
    /// Why an action was refused.
    type Error: std::error::Error + Clone + PartialEq;

    /// Which system this is.
    const SYSTEM: System;

    /// An empty cluster with the given config and RNG seed.
    fn new(config: Self::Config, seed: u64) -> Result<Self, Self::Error>;

    /// Apply one action; on error the state is unchanged.
    fn apply(&mut self, action: &Self::Action) -> Result<Vec<Self::Event>, Self::Error>;

    /// The config in force.
    fn config(&self) -> &Self::Config;

    /// One round: what Step / Play does (Pulsar: `Step`; Flink: `Schedule`;
    /// Kafka Streams: `Rebalance`).
    fn round_action() -> Self::Action;

    /// The action that sets config keys.
    fn set_config(change: schema::ConfigChange<Self::Config>) -> Self::Action;

    /// This engine's action as an [`AnyAction`].
    fn wrap(action: Self::Action) -> AnyAction;

    /// The action inside `any`, when it is this engine's.
    fn unwrap(any: &AnyAction) -> Option<&Self::Action>;

    /// The entity an event is mainly about (`None`: the whole cluster).
    fn subject(event: &Self::Event) -> Option<Subject>;

    /// What a round changed, one line each (`before → after`), for "what would
    /// the next round do".
    fn changes(before: &Self, after: &Self) -> Vec<String>;

    /// The metric lines of a run, read from its events (setup first).
    fn series(events: &mut dyn Iterator<Item = &Self::Event>) -> Vec<Series>;

    /// Whether [`Engine::series`] reads `event`: given only these events, in
    /// order, it draws the same lines (a session keeps where they are, so a
    /// chart is not rebuilt from every event of a large run). By default, every
    /// event.
    fn charted(_event: &Self::Event) -> bool {
        true
    }

    /// How much replay work an action is (1; bulk actions count what they
    /// create), for announcing a heavy scenario before opening it.
    fn weight(_action: &Self::Action) -> u64 {
        1
    }

    /// The work `action` makes when a scenario is opened, for the page's
    /// announcement of a heavy one: its weight, plus what it builds that costs
    /// memory and time later (slots, subtasks, partitions, threads, bundles).
    fn open_cost(config: &Self::Config, action: &Self::Action) -> u64 {
        let _ = config;
        Self::weight(action)
    }

    /// What is left of a heavy action applied in parts (see
    /// [`Engine::apply_part`]); an uninhabited type for a system whose actions
    /// are all applied whole.
    type Rest: Debug;

    /// Apply `action` as [`Engine::apply`] does, except that a heavy one (a bulk
    /// creation) may stop after about `budget` units of its work (units of
    /// [`Engine::weight`]) and hand back what is left, for [`Engine::resume`].
    /// Every check comes before the first change, so a refused action changes
    /// nothing, and what is left cannot be refused. Applying every part gives
    /// exactly what one `apply` gives: the same state, the same events in the
    /// same order, the same RNG draws. Between two parts the state is half-way
    /// through the action: nothing but `resume` may be called on it.
    fn apply_part(&mut self, action: &Self::Action, budget: u64) -> Result<Part<Self>, Self::Error> {
        let _ = budget;
        Ok((self.apply(action)?, None))
    }

    /// Apply a setup action, as [`Engine::apply`] does; `next` is the setup action
    /// after it (`None`: it is the last). A setup is the cluster as it starts: its
    /// actions happen at one instant and no cursor stops between them, so an engine
    /// may hold back work that `next` would redo and do it once, with the last
    /// action of the run (Kafka Streams: instances that join one after another in
    /// a setup are rebalanced once, as the group coordinator batches joins that
    /// arrive while a rebalance is pending). By default, [`Engine::apply`].
    fn apply_setup(
        &mut self,
        action: &Self::Action,
        next: Option<&Self::Action>,
    ) -> Result<Vec<Self::Event>, Self::Error> {
        let _ = next;
        self.apply(action)
    }

    /// [`Engine::apply_part`] for a setup action, with the look-ahead of
    /// [`Engine::apply_setup`]. By default, [`Engine::apply_part`].
    fn apply_setup_part(
        &mut self,
        action: &Self::Action,
        next: Option<&Self::Action>,
        budget: u64,
    ) -> Result<Part<Self>, Self::Error> {
        let _ = next;
        self.apply_part(action, budget)
    }

    /// Go on with an action applied in parts, for about `budget` more units.
    fn resume(&mut self, rest: Self::Rest, budget: u64) -> Part<Self>;

    /// Units of the action's weight still to do in `rest` (at least one, and
    /// less than the action's weight).
    fn rest_weight(rest: &Self::Rest) -> u64;

    /// The state as stable JSON: what `lbscope run` prints as the final state.
    fn view_json(&self) -> serde_json::Value;

    /// Serialize the value of [`Engine::view_json`] (keys in the views' own
    /// order) straight to `s`, without building a `serde_json::Value` tree:
    /// what `lbscope run` writes, so a state of millions of slots or bundles
    /// costs the output's bytes, not a copy of the state per format.
    fn serialize_view<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.view_json().serialize(s)
    }

    /// Check the state's invariants (the property tests call it after every
    /// action): `Err` names the first one broken.
    fn invariants(&self) -> Result<(), String>;

    /// Every strategy this system can be configured with, from its registries
    /// (see [`strategy`]); empty for a system without pluggable strategies.
    fn strategies() -> Vec<strategy::StrategyInfo> {
        Vec::new()
    }

    /// A config that selects `info` (one of [`Engine::strategies`]): by default
    /// the default config with `info.key` set to `info.name`, read as JSON when
    /// it is a JSON literal (`true`, `3`), else as a string. A system whose
    /// strategy needs more than that key says so by overriding this.
    fn strategy_config(info: &strategy::StrategyInfo) -> Result<Self::Config, schema::ConfigError> {
        let value =
            serde_json::from_str(info.name).unwrap_or_else(|_| serde_json::Value::String(info.name.into()));
        schema::Patch::<Self::Config>::one(info.key, value)?.apply_to(&Self::Config::default())
    }
}

#[cfg(test)]
mod tests {
    use super::{Subject, SubjectKind};

    /// A subject's kind is written (JSON, `data-` attributes) by its one name,
    /// and subjects sort by that name, as they did when the kind was a string.
    #[test]
    fn subject_kinds_have_one_name_each() {
        let mut names: Vec<&str> = SubjectKind::ALL.iter().map(|k| k.as_str()).collect();
        let sorted = {
            let mut s = names.clone();
            s.sort_unstable();
            s
        };
        assert_eq!(names, sorted, "variants in name order");
        names.dedup();
        assert_eq!(names.len(), SubjectKind::ALL.len());
        for k in SubjectKind::ALL {
            assert_eq!(k.attribute(), format!("data-{}", k.as_str()));
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
            assert_eq!(
                serde_json::from_value::<SubjectKind>(k.as_str().into()).unwrap(),
                k
            );
        }
        let s = Subject::new(SubjectKind::Tm, "tm-0");
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            serde_json::json!({"kind": "tm", "id": "tm-0"})
        );
        assert!(Subject::new(SubjectKind::Broker, "z") < Subject::new(SubjectKind::Bundle, "a"));
    }
}
