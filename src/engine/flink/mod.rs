//! Apache Flink task scheduling (placeholder; see issue 4).

use super::{Engine, Narrate, SimRng, System};
use serde::{Deserialize, Serialize};

/// Configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {}

/// The only way the simulation changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Action {
    /// Does nothing (placeholder).
    Noop,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Nothing happened.
    Nothing,
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        "nothing happened".into()
    }
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Never produced yet.
    #[error("unsupported")]
    Unsupported,
}

/// The simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    config: Config,
    #[allow(dead_code)]
    rng: SimRng,
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Flink;

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        Ok(Sim {
            config,
            rng: SimRng::new(seed),
        })
    }

    fn apply(&mut self, _action: &Action) -> Result<Vec<Event>, Error> {
        Ok(vec![Event::Nothing])
    }

    fn config(&self) -> &Config {
        &self.config
    }
}
