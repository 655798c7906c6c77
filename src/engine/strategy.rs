//! Strategies: each pluggable algorithm of a system (a Pulsar shedder or
//! placement, a Kafka Streams task assignor, a Flink slot matching) is one
//! type implementing that system's strategy trait, in a file of its own, and
//! is listed once in the system's registry. The registry is the one place
//! that names a strategy: the config value that selects it, the settings
//! panel's choices, the fidelity page and the property tests all read it.

use serde::Serialize;

/// What the registry tells about one strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StrategyInfo {
    /// The config key that selects it, spelt as the real system spells it.
    pub key: &'static str,
    /// The value of that key that selects it (as a scenario writes it).
    pub name: &'static str,
    /// The upstream class it reproduces.
    pub upstream: &'static str,
    /// One line: what it decides and how.
    pub summary: &'static str,
    /// The engine source file that holds it, relative to `src/engine/`.
    pub file: &'static str,
}
