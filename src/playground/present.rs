//! The words the page uses for each engine: what a round is called on the
//! round button and its tooltip, and what a heavy scenario's work counts. They
//! belong to the page, not to the engine: the engine's [`Engine`] trait holds
//! only what decides and explains (see docs/architecture.md, the Engine contract).

use crate::engine::{flink, kstreams, pulsar, Engine, System};

/// What the page calls one engine's round and its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// What [`Engine::round_action`] is called on the round button ("Step").
    pub round: &'static str,
    /// What one round does, in a sentence (the round button's tooltip).
    pub round_help: &'static str,
    /// What [`Engine::weight`] beyond one per action counts ("topics").
    pub weight_unit: &'static str,
    /// What [`Engine::open_cost`] beyond one per action counts.
    pub open_unit: &'static str,
}

/// The page's side of an engine.
pub trait Present: Engine {
    /// Its words.
    const WORDS: Words;
}

impl Present for pulsar::Sim {
    const WORDS: Words = Words {
        round: "Step",
        round_help: "One full round: brokers report, bundles split, the shedder unloads, clients look up",
        weight_unit: "topics",
        open_unit: "topics and bundles",
    };
}

impl Present for flink::Sim {
    const WORDS: Words = Words {
        round: "Schedule",
        round_help: "Deploy the job: tasks to slots, then slots to TaskManagers",
        weight_unit: "items",
        open_unit: "slots and subtasks",
    };
}

impl Present for kstreams::Sim {
    const WORDS: Words = Words {
        round: "Rebalance",
        round_help: "One rebalance of the group",
        weight_unit: "items",
        open_unit: "partitions and threads",
    };
}

/// The words of `system`'s engine.
pub fn words(system: System) -> &'static Words {
    match system {
        System::Pulsar => &pulsar::Sim::WORDS,
        System::Flink => &flink::Sim::WORDS,
        System::Kstreams => &kstreams::Sim::WORDS,
    }
}
