//! Apache Flink task scheduling: slot sharing (phase 1, tasks to slots) and slot
//! placement on TaskManagers (phase 2, slots to TaskManagers), default versus
//! balanced (FLIP-370, `taskmanager.load-balance.mode: tasks`), with failover and the
//! delayed resource view that `slot.request.max-interval` tunes.
//!
//! lbscope follows apache/flink `master` (the 2.x line, checked against the 2.3
//! release; see [`config`] for the one deprecated key it still reads).
//!
//! One file per concept:
//! * [`config`]: the Flink keys and the load-balance-mode compatibility rule;
//! * [`job_graph`] and [`execution_graph`]: vertices, edges, groups and their wiring;
//! * [`slot_sharing`], [`local_input_preferred`], [`task_balanced`]: phase 1;
//! * [`pipelined_region`]: the order slot requests reach the slot pool (hash order
//!   within a region, drawn from the seed);
//! * [`task_manager`], [`slot_matching`], [`slot_pool`]: phase 2 over simulated time;
//! * [`resource_profile`], [`resource_request_pre_mappings`]: fine-grained resources;
//! * [`failover`]: losing and restoring TaskManagers, local recovery;
//! * [`adaptive`]: the adaptive scheduler (`jobmanager.scheduler: adaptive`);
//! * [`key_group_range_assignment`]: key groups, for state locality;
//! * [`metrics`] and [`view`]: what a UI draws; [`seed_spread`]: outcomes over seeds.
//!
//! A UI that compares default and balanced scheduling runs two [`Sim`]s with the same
//! actions and different configs.

pub mod adaptive;
pub mod config;
pub mod execution_graph;
pub mod failover;
mod invariants;
pub mod job_graph;
pub mod key_group_range_assignment;
mod knobs;
pub mod local_input_preferred;
pub mod metrics;
pub mod pipelined_region;
pub mod request_slot_matching;
pub mod resource_profile;
pub mod resource_request_pre_mappings;
pub mod seed_spread;
pub mod slot_matching;
pub mod slot_pool;
pub mod slot_sharing;
mod subject;
pub mod task_balanced;
pub mod task_manager;
pub mod view;

mod action;
mod error;
mod event;
mod sim;

pub use action::Action;
pub use config::{Config, DurationMs, LoadBalanceMode, SchedulerType};
pub use error::Error;
pub use event::{
    AssignmentSummary, Event, GroupSlots, ProfileCount, RescaleTrigger, VertexParallelismInfo, WaitReason,
};
pub use resource_profile::{ResourceProfile, Resources};
pub(crate) use sim::AdaptiveRun;
pub use sim::{JobStatus, Sim};
#[cfg(test)]
mod tests;
