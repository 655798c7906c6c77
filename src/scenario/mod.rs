//! The one scenario format: format version, engine version, system, seed, config
//! (non-default values only), the setup actions that build the initial cluster,
//! and the user's action log. State is never stored, only replayed.
//!
//! The same value serves JSON files, the share URL ([`url`]), the CLI and the
//! golden tests.

pub mod presets;
pub mod read;
pub mod run;
pub mod session;
pub mod sweep;
pub mod url;

use crate::engine::{flink, kstreams, pulsar, Engine, Schema, System};
use serde::{Deserialize, Serialize, Serializer};

/// The scenario format version written by this build.
///
/// * 1: a Pulsar config lists what differs from the Pulsar 4.x defaults.
/// * 2: a Pulsar config starts from its `profile` (5.0 when absent) and lists
///   what differs from it. Version 1 files and links are read with the
///   `pulsar-4.2` profile (called `pulsar-4.x` when they were written), so they
///   keep their meaning.
pub const FORMAT_VERSION: u32 = 2;
/// Most actions (setup + log) a scenario may hold.
pub const MAX_ACTIONS: usize = 100_000;
/// Most bytes of scenario JSON read (a file, an import, an inflated link's
/// text is bounded lower by [`url::MAX_INFLATED`]). The 200,000-topic
/// benchmark cluster is well under 1 MiB; 100,000 verbose actions fit.
pub const MAX_JSON_BYTES: usize = 64 << 20;

/// A replayable scenario (read by [`read::scenario`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    /// Format version ([`FORMAT_VERSION`]).
    pub format: u32,
    /// The lbscope version that wrote it (informational).
    #[serde(default)]
    pub engine: String,
    /// Seed of the simulation's RNG.
    pub seed: u64,
    /// The system and its log.
    #[serde(flatten)]
    pub body: Body,
    /// How many log actions are applied (the undo cursor); all when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<usize>,
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        read::scenario(v).map_err(|e| match e {
            ScenarioError::Json(m) => serde::de::Error::custom(m),
            e => serde::de::Error::custom(e),
        })
    }
}

/// The per-system part of a scenario (written with `"system": "<slug>"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "system", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // a value read once per replay; boxing buys nothing
pub enum Body {
    /// Apache Pulsar.
    Pulsar(Log<pulsar::Sim>),
    /// Apache Flink.
    Flink(Log<flink::Sim>),
    /// Kafka Streams.
    Kstreams(Log<kstreams::Sim>),
}

/// Evaluate `$e` with `$log` bound to the body's log, whatever its engine (the
/// expression is checked once per engine type).
#[macro_export]
#[doc(hidden)]
macro_rules! each_log {
    ($body:expr, $log:ident => $e:expr) => {
        match $body {
            $crate::scenario::Body::Pulsar($log) => $e,
            $crate::scenario::Body::Flink($log) => $e,
            $crate::scenario::Body::Kstreams($log) => $e,
        }
    };
}
pub use each_log;

/// An engine whose log a [`Body`] holds (and whose runs can be measured).
pub trait InBody: Engine + crate::engine::outcome::Measure {
    /// A body holding `log`.
    fn wrap_log(log: Log<Self>) -> Body;
    /// The log, when `body` is this engine's.
    fn log(body: &Body) -> Option<&Log<Self>>;
    /// The log, when `body` is this engine's.
    fn log_mut(body: &mut Body) -> Option<&mut Log<Self>>;
}

macro_rules! in_body {
    ($($variant:ident => $sim:ty),*) => {$(
        impl InBody for $sim {
            fn wrap_log(log: Log<Self>) -> Body {
                Body::$variant(log)
            }
            fn log(body: &Body) -> Option<&Log<Self>> {
                match body {
                    Body::$variant(l) => Some(l),
                    _ => None,
                }
            }
            fn log_mut(body: &mut Body) -> Option<&mut Log<Self>> {
                match body {
                    Body::$variant(l) => Some(l),
                    _ => None,
                }
            }
        }
    )*};
}
in_body!(Pulsar => pulsar::Sim, Flink => flink::Sim, Kstreams => kstreams::Sim);

/// Code that runs on a body's log with its engine type.
pub trait VisitLog {
    /// What it returns.
    type Out;
    /// Run on `log` of engine `E`.
    fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out;
}

impl Body {
    /// Which system it drives.
    pub fn system(&self) -> System {
        each_log!(self, l => l.system())
    }

    /// Run `v` on the log with its engine type.
    pub fn visit<V: VisitLog>(&self, v: V) -> V::Out {
        match self {
            Body::Pulsar(l) => v.visit::<pulsar::Sim>(l),
            Body::Flink(l) => v.visit::<flink::Sim>(l),
            Body::Kstreams(l) => v.visit::<kstreams::Sim>(l),
        }
    }

    /// An empty log of `system` with the default config.
    pub fn empty(system: System) -> Body {
        match system {
            System::Pulsar => Body::Pulsar(Log::default()),
            System::Flink => Body::Flink(Log::default()),
            System::Kstreams => Body::Kstreams(Log::default()),
        }
    }

    /// Setup plus log actions.
    pub fn action_count(&self) -> usize {
        each_log!(self, l => l.setup.len() + l.actions.len())
    }

    /// Log actions (the undoable part).
    pub fn log_len(&self) -> usize {
        each_log!(self, l => l.actions.len())
    }

    /// How many rounds ([`Engine::round_action`]) the log holds (one pass).
    pub fn round_count(&self) -> usize {
        fn count<E: Engine>(l: &Log<E>) -> usize {
            let round = E::round_action();
            l.actions.iter().filter(|a| **a == round).count()
        }
        each_log!(self, l => count(l))
    }

    /// The cursor just after the log's `n`-th round ([`Engine::round_action`]:
    /// Step, Schedule, Rebalance), counting from 1; 0 is before the first one.
    /// `None` when the log has fewer rounds.
    pub fn after_round(&self, n: usize) -> Option<usize> {
        fn find<E: Engine>(l: &Log<E>, n: usize) -> Option<usize> {
            if n == 0 {
                let round = E::round_action();
                return Some(
                    l.actions
                        .iter()
                        .position(|a| *a == round)
                        .unwrap_or(l.actions.len()),
                );
            }
            let round = E::round_action();
            l.actions
                .iter()
                .enumerate()
                .filter(|(_, a)| **a == round)
                .nth(n - 1)
                .map(|(i, _)| i + 1)
        }
        each_log!(self, l => find(l, n))
    }
}

/// Config, setup and log of one engine.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct Log<E: Engine> {
    /// Config; only values that differ from the default are written, and every
    /// key read is checked against the engine's schema ([`read::scenario`]).
    #[serde(serialize_with = "non_default")]
    pub config: E::Config,
    /// Actions that build the initial cluster (not undoable); empty when absent.
    pub setup: Vec<E::Action>,
    /// The user's actions, in order; empty when absent.
    pub actions: Vec<E::Action>,
}

impl<E: Engine> Log<E> {
    /// The system it drives.
    pub fn system(&self) -> System {
        E::SYSTEM
    }

    /// A log with `config` and `setup`, no user action yet.
    pub fn new(config: E::Config, setup: Vec<E::Action>) -> Self {
        Log {
            config,
            setup,
            actions: Vec::new(),
        }
    }
}

impl<E: Engine> Default for Log<E> {
    fn default() -> Self {
        Log::new(E::Config::default(), Vec::new())
    }
}

impl<E: Engine> Clone for Log<E> {
    fn clone(&self) -> Self {
        Log {
            config: self.config.clone(),
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }
}

impl<E: Engine> PartialEq for Log<E> {
    fn eq(&self, o: &Self) -> bool {
        self.config == o.config && self.setup == o.setup && self.actions == o.actions
    }
}

impl<E: Engine> std::fmt::Debug for Log<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("config", &self.config)
            .field("setup", &self.setup)
            .field("actions", &self.actions)
            .finish()
    }
}

/// Serialize `value` as a JSON object holding only the keys that differ from
/// the profile it starts from ([`Schema::baseline`]), plus the key naming that
/// profile when it is not the default one ([`Schema::PROFILE_KEY`]).
fn non_default<C: Schema, S: Serializer>(value: &C, s: S) -> Result<S::Ok, S::Error> {
    let v = serde_json::to_value(value).map_err(serde::ser::Error::custom)?;
    let base = serde_json::to_value(value.baseline()).map_err(serde::ser::Error::custom)?;
    let mut out = diff(v.clone(), &base).unwrap_or(serde_json::Value::Object(Default::default()));
    if let Some(key) = C::PROFILE_KEY {
        let d = serde_json::to_value(C::default()).map_err(serde::ser::Error::custom)?;
        if let (Some(p), serde_json::Value::Object(m)) =
            (v.get(key).filter(|p| d.get(key) != Some(*p)), &mut out)
        {
            m.insert(key.to_string(), p.clone());
        }
    }
    out.serialize(s)
}

fn diff(v: serde_json::Value, d: &serde_json::Value) -> Option<serde_json::Value> {
    use serde_json::Value::Object;
    match (v, d) {
        (Object(m), Object(dm)) => {
            let out: serde_json::Map<_, _> = m
                .into_iter()
                .filter_map(|(k, x)| match dm.get(&k) {
                    Some(dx) => diff(x, dx).map(|x| (k, x)),
                    None => Some((k, x)),
                })
                .collect();
            (!out.is_empty()).then_some(Object(out))
        }
        (x, dx) => (x != *dx).then_some(x),
    }
}

/// Why a scenario could not be read or replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// JSON that does not parse, or does not fit the format.
    #[error("the scenario is not valid JSON for this format: {0}")]
    Json(String),
    /// Written by a newer lbscope.
    #[error("the scenario has format version {found}; this lbscope reads versions 1 to {max}")]
    FutureVersion {
        /// Found.
        found: u32,
        /// Highest supported.
        max: u32,
    },
    /// Version 0 does not exist.
    #[error("format version 0 does not exist")]
    BadVersion,
    /// Too many actions.
    #[error("the scenario has {found} actions; the limit is {max}")]
    TooManyActions {
        /// Found.
        found: usize,
        /// Limit.
        max: usize,
    },
    /// The cursor points past the log.
    #[error("the cursor {cursor} is past the {len} logged actions")]
    BadCursor {
        /// Cursor.
        cursor: usize,
        /// Log length.
        len: usize,
    },
    /// An action was refused during replay.
    #[error("{which} action {} was refused: {message}", index + 1)]
    Refused {
        /// "setup" or "log".
        which: &'static str,
        /// Position in that list.
        index: usize,
        /// The engine's error.
        message: String,
    },
}

impl Scenario {
    /// An empty scenario of `system` with default config.
    pub fn empty(system: System, seed: u64) -> Scenario {
        Scenario::with_body(seed, Body::empty(system))
    }

    /// A scenario holding `body`.
    pub fn with_body(seed: u64, body: Body) -> Scenario {
        Scenario {
            format: FORMAT_VERSION,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            seed,
            body,
            cursor: None,
        }
    }

    /// A scenario of engine `E` holding `log`.
    pub fn of<E: InBody>(seed: u64, log: Log<E>) -> Scenario {
        Scenario::with_body(seed, E::wrap_log(log))
    }

    /// Which system it drives.
    pub fn system(&self) -> System {
        self.body.system()
    }

    /// Number of setup plus log actions.
    pub fn action_count(&self) -> usize {
        self.body.action_count()
    }

    fn log_len(&self) -> usize {
        self.body.log_len()
    }

    /// Append `n` rounds (one round is [`Engine::round_action`]) at the cursor,
    /// as the page's Step does: the log actions after the cursor (a redo tail)
    /// are dropped, the rounds appended, and the cursor moved to the end.
    /// `n == 0` changes nothing (the cursor stays where the scenario put it).
    /// Returns how many log actions were dropped.
    pub fn push_rounds(&mut self, n: usize) -> usize {
        fn push<E: Engine>(l: &mut Log<E>, cut: Option<usize>, n: usize) -> usize {
            let before = l.actions.len();
            l.actions.truncate(cut.unwrap_or(before));
            let dropped = before - l.actions.len();
            l.actions.extend(std::iter::repeat_n(E::round_action(), n));
            dropped
        }
        if n == 0 {
            return 0;
        }
        let cut = self.cursor.take();
        each_log!(&mut self.body, l => push(l, cut, n))
    }

    /// The same scenario under the version profile `name` (one of the
    /// system's [`Schema::profiles`]): the config keys that differ from the
    /// scenario's own profile keep their values, every other key takes the
    /// new profile's default. A system with one profile accepts only its name.
    pub fn with_profile(&mut self, name: &str) -> Result<(), String> {
        fn switch<E: Engine>(l: &mut Log<E>, system: System, name: &str) -> Result<(), String> {
            let profiles = E::Config::profiles();
            if !profiles.iter().any(|(n, _)| *n == name) {
                let names: Vec<&str> = profiles.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown profile `{name}` for {}; its profiles are {}",
                    system.title(),
                    names.join(", ")
                ));
            }
            let Some(key) = E::Config::PROFILE_KEY else {
                return Ok(());
            };
            let to = |c: &E::Config| serde_json::to_value(c).map_err(|e| e.to_string());
            let own = diff(to(&l.config)?, &to(&l.config.baseline())?)
                .unwrap_or(serde_json::Value::Object(Default::default()));
            let serde_json::Value::Object(mut keys) = own else {
                return Err("the config is not an object".into());
            };
            keys.insert(key.to_string(), serde_json::Value::String(name.to_string()));
            l.config = crate::engine::schema::read::<E::Config>(serde_json::Value::Object(keys))
                .map_err(|e| format!("the scenario's config under profile `{name}`: {e}"))?;
            Ok(())
        }
        let system = self.system();
        each_log!(&mut self.body, l => switch(l, system, name))
    }

    /// A note for a scenario whose cursor stops before the end of its log:
    /// what is replayed (`None` when the whole log is).
    pub fn cursor_note(&self) -> Option<String> {
        let len = self.log_len();
        self.cursor.filter(|&c| c < len).map(|c| {
            format!(
                "the scenario's cursor is at {c} of its {len} log actions: the state after action {c} is shown, \
                 as the page opens it (the {} after it are its redo tail)",
                len - c
            )
        })
    }

    /// Check the version, size and cursor.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.format == 0 {
            return Err(ScenarioError::BadVersion);
        }
        if self.format > FORMAT_VERSION {
            return Err(ScenarioError::FutureVersion {
                found: self.format,
                max: FORMAT_VERSION,
            });
        }
        let n = self.action_count();
        if n > MAX_ACTIONS {
            return Err(ScenarioError::TooManyActions {
                found: n,
                max: MAX_ACTIONS,
            });
        }
        if let Some(c) = self.cursor {
            if c > self.log_len() {
                return Err(ScenarioError::BadCursor {
                    cursor: c,
                    len: self.log_len(),
                });
            }
        }
        Ok(())
    }

    /// Parse and validate a JSON scenario.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > MAX_JSON_BYTES {
            return Err(ScenarioError::Json(format!(
                "{} bytes of JSON is more than the {} MiB a scenario may be",
                text.len(),
                MAX_JSON_BYTES >> 20
            )));
        }
        // Limits, duplicate keys and unknown top-level fields first, before anything is built.
        read::prescan(text)?;
        // Read the version first so a future file gets the right message.
        let raw: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ScenarioError::Json(e.to_string()))?;
        if let Some(f) = raw.get("format").and_then(|f| f.as_u64()) {
            if f > u64::from(FORMAT_VERSION) {
                return Err(ScenarioError::FutureVersion {
                    found: u32::try_from(f).unwrap_or(u32::MAX),
                    max: FORMAT_VERSION,
                });
            }
        }
        let raw = upgrade(raw);
        let extra = read::action_keys(&raw);
        let s = read::scenario(raw)?;
        read::check_fieldless(&s, &extra)?;
        s.validate()?;
        Ok(s)
    }

    /// Pretty JSON (stable key order: struct order).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Give an older version's JSON the meaning it had: a version 1 Pulsar config
/// without a `profile` was a diff against the 4.x defaults, so it is read with
/// the `pulsar-4.2` profile (what that build called `pulsar-4.x`).
fn upgrade(mut raw: serde_json::Value) -> serde_json::Value {
    let v1 = raw.get("format").and_then(|f| f.as_u64()) == Some(1);
    let pulsar = raw.get("system").and_then(|s| s.as_str()) == Some("pulsar");
    if v1 && pulsar {
        if let Some(obj) = raw.as_object_mut() {
            let config = obj
                .entry("config")
                .or_insert_with(|| serde_json::Value::Object(Default::default()));
            if let Some(c) = config.as_object_mut() {
                c.entry("profile")
                    .or_insert_with(|| serde_json::Value::String("pulsar-4.2".into()));
            }
        }
    }
    raw
}

/// One applied action and what it caused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step<A, E> {
    /// The action.
    pub action: A,
    /// Its events.
    pub events: Vec<E>,
}

/// A replayed run of one system.
#[derive(Clone, Debug)]
pub struct Replay<S: Engine> {
    /// The state after the replayed actions.
    pub state: S,
    /// Setup steps.
    pub setup: Vec<Step<S::Action, S::Event>>,
    /// Log steps up to the cursor.
    pub steps: Vec<Step<S::Action, S::Event>>,
}

/// Replay a log on a fresh engine: config, then setup, then the first `upto` actions.
pub fn replay<S: Engine>(seed: u64, log: &Log<S>, upto: Option<usize>) -> Result<Replay<S>, ScenarioError> {
    let refused = |which, index, e: &dyn std::fmt::Display| ScenarioError::Refused {
        which,
        index,
        message: e.to_string(),
    };
    let mut state = S::new(log.config.clone(), seed).map_err(|e| refused("config", 0, &e))?;
    let mut setup = Vec::with_capacity(log.setup.len());
    for (i, a) in log.setup.iter().enumerate() {
        let events = state
            .apply_setup(a, log.setup.get(i + 1))
            .map_err(|e| refused("setup", i, &e))?;
        setup.push(Step {
            action: a.clone(),
            events,
        });
    }
    let n = upto.unwrap_or(log.actions.len()).min(log.actions.len());
    let mut steps = Vec::with_capacity(n);
    for (i, a) in log.actions[..n].iter().enumerate() {
        let events = state.apply(a).map_err(|e| refused("log", i, &e))?;
        steps.push(Step {
            action: a.clone(),
            events,
        });
    }
    Ok(Replay { state, setup, steps })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Scenario {
        let mut s = Scenario::of::<crate::engine::pulsar::Sim>(42, Log::default());
        if let Body::Pulsar(log) = &mut s.body {
            log.config.default_number_of_namespace_bundles = 8;
            log.setup.push(pulsar::Action::CreateNamespace {
                namespace: "public/default".into(),
                bundles: None,
            });
            log.actions.push(pulsar::Action::CreateTopic {
                topic: "my-topic".into(),
            });
        }
        s
    }

    #[test]
    fn json_round_trip_writes_only_non_default_config() {
        let s = sample();
        let j = s.to_json();
        assert!(j.contains("\"defaultNumberOfNamespaceBundles\": 8"), "{j}");
        assert!(j.contains("\"system\": \"pulsar\""));
        assert_eq!(Scenario::from_json(&j).unwrap(), s);
        let d = Scenario::of::<crate::engine::pulsar::Sim>(1, Log::default()).to_json();
        assert!(d.contains("\"config\": {}"), "{d}");
    }

    #[test]
    fn bad_json_and_future_versions_are_named() {
        assert!(matches!(Scenario::from_json("{"), Err(ScenarioError::Json(_))));
        let future = sample().to_json().replace("\"format\": 2", "\"format\": 9");
        assert_eq!(
            Scenario::from_json(&future),
            Err(ScenarioError::FutureVersion { found: 9, max: 2 })
        );
        let mut s = sample();
        s.cursor = Some(5);
        assert!(matches!(s.validate(), Err(ScenarioError::BadCursor { .. })));
    }

    #[test]
    fn replay_applies_setup_then_log() {
        let s = sample();
        let Body::Pulsar(log) = &s.body else {
            unreachable!()
        };
        let r = replay::<pulsar::Sim>(s.seed, log, None).unwrap();
        assert_eq!(r.state.namespaces()["public/default"].bundles.len(), 8);
        assert_eq!(r.steps.len(), 1);
        let r0 = replay::<pulsar::Sim>(s.seed, log, Some(0)).unwrap();
        assert!(r0.state.namespaces()["public/default"].topics.is_empty());
        let mut bad = log.clone();
        bad.actions.push(pulsar::Action::CreateTopic {
            topic: "x/y/z".into(),
        });
        let err = replay::<pulsar::Sim>(1, &bad, None).unwrap_err();
        assert!(
            matches!(
                err,
                ScenarioError::Refused {
                    which: "log",
                    index: 1,
                    ..
                }
            ),
            "{err}"
        );
    }
}
