//! The one scenario format: format version, engine version, system, seed, config
//! (non-default values only), the setup actions that build the initial cluster,
//! and the user's action log. State is never stored, only replayed.
//!
//! The same value serves JSON files, the share URL ([`url`]), the CLI and the
//! golden tests.

pub mod presets;
pub mod run;
pub mod session;
pub mod url;

use crate::engine::{flink, kstreams, pulsar, Engine, System};
use serde::{de::DeserializeOwned, Deserialize, Serialize, Serializer};

/// The scenario format version written by this build.
pub const FORMAT_VERSION: u32 = 1;
/// Most actions (setup + log) a scenario may hold.
pub const MAX_ACTIONS: usize = 100_000;

/// A replayable scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// The per-system part of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // a value read once per replay; boxing buys nothing
pub enum Body {
    /// Apache Pulsar.
    Pulsar(Log<pulsar::Config, pulsar::Action>),
    /// Apache Flink.
    Flink(Log<flink::Config, flink::Action>),
    /// Kafka Streams.
    Kstreams(Log<kstreams::Config, kstreams::Action>),
}

/// Config, setup and log of one system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(
    serialize = "C: Serialize + Default + DeserializeOwned, A: Serialize",
    deserialize = "C: DeserializeOwned + Default, A: DeserializeOwned"
))]
pub struct Log<C, A> {
    /// Config; only values that differ from the default are written.
    #[serde(default, serialize_with = "non_default")]
    pub config: C,
    /// Actions that build the initial cluster (not undoable).
    #[serde(default)]
    pub setup: Vec<A>,
    /// The user's actions, in order.
    #[serde(default)]
    pub actions: Vec<A>,
}

impl<C: Default, A> Default for Log<C, A> {
    fn default() -> Self {
        Log {
            config: C::default(),
            setup: Vec::new(),
            actions: Vec::new(),
        }
    }
}

/// Serialize `value` as a JSON object holding only the fields that differ from
/// its baseline (recursively for nested objects). The baseline is `C::default()`,
/// or, for a config with a `profile` key (Pulsar's), the defaults of that
/// profile; the `profile` key itself is kept whenever it is not the default's.
fn non_default<C: Serialize + Default + DeserializeOwned, S: Serializer>(
    value: &C,
    s: S,
) -> Result<S::Ok, S::Error> {
    let v = serde_json::to_value(value).map_err(serde::ser::Error::custom)?;
    let d = serde_json::to_value(C::default()).map_err(serde::ser::Error::custom)?;
    let profile = v.get("profile").filter(|p| d.get("profile") != Some(*p)).cloned();
    let base = match &profile {
        Some(p) => {
            let only = serde_json::json!({ "profile": p });
            let c: C = serde_json::from_value(only).map_err(serde::ser::Error::custom)?;
            serde_json::to_value(c).map_err(serde::ser::Error::custom)?
        }
        None => d,
    };
    let mut out = diff(v, &base).unwrap_or(serde_json::Value::Object(Default::default()));
    if let (Some(p), serde_json::Value::Object(m)) = (profile, &mut out) {
        m.insert("profile".to_string(), p);
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
    #[error("{which} action {index} was refused: {message}")]
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
        let body = match system {
            System::Pulsar => Body::Pulsar(Log::default()),
            System::Flink => Body::Flink(Log::default()),
            System::Kstreams => Body::Kstreams(Log::default()),
        };
        Scenario {
            format: FORMAT_VERSION,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            seed,
            body,
            cursor: None,
        }
    }

    /// Which system it drives.
    pub fn system(&self) -> System {
        match self.body {
            Body::Pulsar(_) => System::Pulsar,
            Body::Flink(_) => System::Flink,
            Body::Kstreams(_) => System::Kstreams,
        }
    }

    /// Number of setup plus log actions.
    pub fn action_count(&self) -> usize {
        match &self.body {
            Body::Pulsar(l) => l.setup.len() + l.actions.len(),
            Body::Flink(l) => l.setup.len() + l.actions.len(),
            Body::Kstreams(l) => l.setup.len() + l.actions.len(),
        }
    }

    fn log_len(&self) -> usize {
        match &self.body {
            Body::Pulsar(l) => l.actions.len(),
            Body::Flink(l) => l.actions.len(),
            Body::Kstreams(l) => l.actions.len(),
        }
    }

    /// Append `n` rounds to the log (Pulsar: Step; Flink: Schedule; Kafka Streams:
    /// Rebalance) and move the cursor to the end.
    pub fn push_rounds(&mut self, n: usize) {
        match &mut self.body {
            Body::Pulsar(l) => l.actions.extend(std::iter::repeat_n(pulsar::Action::Step, n)),
            Body::Flink(l) => l.actions.extend(std::iter::repeat_n(flink::Action::Schedule, n)),
            Body::Kstreams(l) => l
                .actions
                .extend(std::iter::repeat_n(kstreams::Action::Rebalance, n)),
        }
        self.cursor = None;
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
        let s: Scenario = serde_json::from_value(raw).map_err(|e| ScenarioError::Json(e.to_string()))?;
        s.validate()?;
        Ok(s)
    }

    /// Pretty JSON (stable key order: struct order).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
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
pub fn replay<S: Engine>(
    seed: u64,
    log: &Log<S::Config, S::Action>,
    upto: Option<usize>,
) -> Result<Replay<S>, ScenarioError> {
    let refused = |which, index, e: &dyn std::fmt::Display| ScenarioError::Refused {
        which,
        index,
        message: e.to_string(),
    };
    let mut state = S::new(log.config.clone(), seed).map_err(|e| refused("config", 0, &e))?;
    let mut setup = Vec::with_capacity(log.setup.len());
    for (i, a) in log.setup.iter().enumerate() {
        let events = state.apply(a).map_err(|e| refused("setup", i, &e))?;
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
        let mut s = Scenario::empty(System::Pulsar, 42);
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
        let d = Scenario::empty(System::Pulsar, 1).to_json();
        assert!(d.contains("\"config\": {}"), "{d}");
    }

    #[test]
    fn bad_json_and_future_versions_are_named() {
        assert!(matches!(Scenario::from_json("{"), Err(ScenarioError::Json(_))));
        let future = sample().to_json().replace("\"format\": 1", "\"format\": 9");
        assert_eq!(
            Scenario::from_json(&future),
            Err(ScenarioError::FutureVersion { found: 9, max: 1 })
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
