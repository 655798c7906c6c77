//! Kafka Streams task assignment: topics → tasks (`PartitionGrouper`), tasks →
//! instances (the high-availability or sticky assignor, standby assignors, the
//! rack-aware optimizer, warm-ups and probing rebalances), tasks → stream threads,
//! and state: changelog offsets per task and instance, restoration and failover.
//!
//! One file per concept: [`partitioner`], [`topology`], [`task`], [`client`],
//! [`client_state`], [`state`], [`assignor`] (the task assignors and their
//! registry), [`standby`], [`rack_aware`] (with Kafka's flow network, [`graph`]), [`warmup`], [`threads`], [`view`];
//! the vocabulary in `config.rs` ([`Config`]), `action.rs` ([`Action`]),
//! `event.rs` ([`Event`] and its narration), `error.rs` ([`Error`]) and
//! `sim.rs` ([`Sim`] and its [`Engine`](super::Engine) implementation).
//!
//! Membership changes (instances and threads added, removed, crashed, restarted)
//! rebalance at once when a topology is defined; `Rebalance` forces one; probing
//! rebalances fire when simulated time passes their deadline.

pub mod assignor;
pub mod client;
pub mod client_state;
pub mod graph;
mod invariants;
mod knobs;
pub mod partitioner;
pub mod rack_aware;
pub mod standby;
pub mod state;
mod subject;
pub mod task;
pub mod threads;
pub mod topology;
pub mod view;
pub mod warmup;
pub mod workload;

mod action;
mod config;
mod error;
mod event;
mod sim;

pub use action::{Action, ThreadAssignmentSpec};
pub use assignor::{Assignor, AssignorKind, Reason};
pub use client::{Instance, InstanceStatus, ProcessId, StreamThread};
pub use config::{Config, GroupProtocol};
pub use error::Error;
pub use event::{Event, Role, TaskOffset, ThreadLoad};
pub use rack_aware::RackStrategy;
pub use sim::{Sim, MAX_RECORDS};
pub use task::{TaskId, TaskInfo, TopicPartition};
pub use topology::{SubtopologySpec, Topic, Topology};
pub use view::{InstanceView, Metrics, TaskView, View};

/// Kafka's limit on `rack.aware.assignment.tags` / client tags.
pub const MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE: usize = 5;
/// Kafka's limit on a client tag key's length.
pub const MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH: usize = 20;
/// Kafka's limit on a client tag value's length.
pub const MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH: usize = 30;
/// Most threads one instance may run in the playground.
pub const MAX_THREADS: u32 = 1024;
/// Most members a `RebalanceStarted` event names (it counts them all).
pub const MAX_LISTED_MEMBERS: usize = 32;
/// Most instances in the playground.
pub const MAX_INSTANCES: usize = 10_000;
/// Most stream threads over all instances, across all actions.
pub const MAX_TOTAL_THREADS: usize = 100_000;
/// Most standby replicas in the playground.
pub const MAX_STANDBY_REPLICAS: u32 = 16;
/// Kafka's lower bound for `probing.rebalance.interval.ms`.
pub const MIN_PROBING_REBALANCE_INTERVAL_MS: u64 = 60_000;
