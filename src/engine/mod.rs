//! The deterministic balancing engines, one folder per system.
//!
//! Every system implements [`Engine`]: it is built from a config and a seed, and
//! then changes only through [`Engine::apply`], which returns the events that
//! explain what happened (with the numbers behind each decision) or an error that
//! leaves the state untouched.

pub mod flink;
pub mod kstreams;
pub mod pulsar;
pub mod rng;

use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

pub use rng::SimRng;

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
}

/// Something that can be told in plain words, with its numbers.
pub trait Narrate {
    /// One line of narration, e.g. for the event log or the CLI.
    fn narrate(&self) -> String;
}

/// A deterministic balancing engine.
///
/// Contract:
/// * `new` and `apply` never panic on any input; bad input is an `Error`.
/// * `apply` either succeeds, or fails and leaves `self` exactly as it was.
/// * Given the same config, seed and actions, the events and states are identical
///   on every platform (native and wasm32).
pub trait Engine: Clone + Debug + Sized {
    /// Every tunable, named as the real system names it; `Default` is the real default.
    type Config: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned;
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
}
