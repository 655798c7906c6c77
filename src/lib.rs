//! lbscope: a deterministic re-expression of how Apache Pulsar, Apache Flink and
//! Kafka Streams balance load, plus the scenario format that drives it and (on
//! wasm32) the Yew playground that draws it.
//!
//! * [`engine`] is pure: no clock, no global RNG, no web crates. State changes only
//!   through an `Action`; every decision comes back as `Event`s carrying its numbers.
//! * [`import`] turns what the real systems print (Kafka Streams' topology
//!   description, Flink's plans, pulsar-admin's reports) into a scenario.
//! * [`scenario`] is the one format (seed + setup + config + action log) used by the
//!   share URL, JSON files, the CLI and the golden tests.
//! * [`view`] draws a state as SVG (the CLI's `render`, the playground's export and
//!   embed view) and quotes it as Markdown.
//! * `ui` (wasm32 only) is a thin Yew viewer over the engine.

pub mod engine;
pub mod gallery;
pub mod import;
pub mod lessons;
pub mod playground;
pub mod safe_text;
pub mod scenario;
pub mod sort;
pub mod view;

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

/// Shared by the fuzz targets and their regression test.
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzzing;

#[cfg(target_arch = "wasm32")]
pub mod ui;
