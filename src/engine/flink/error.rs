//! Why a Flink action was refused.

use super::job_graph::JobGraphError;
use super::{config, Resources};
use crate::engine::schema::ConfigError;

/// Why a Flink action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The job graph is invalid.
    #[error(transparent)]
    JobGraph(#[from] JobGraphError),
    /// A config key or value was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Schedule without a job.
    #[error("no job is defined; define a job first")]
    NoJob,
    /// More slot requests than slots on running TaskManagers.
    #[error(
        "the job needs {needed} slots but the running TaskManagers have only {available}; \
         add TaskManagers or slots"
    )]
    NotEnoughSlots {
        /// Slot requests after phase 1 (adaptive scheduler: the minimum slots).
        needed: u64,
        /// Slots on running TaskManagers.
        available: u64,
    },
    /// Unknown TaskManager.
    #[error("no TaskManager named {0:?}")]
    UnknownTaskManager(String),
    /// Name taken.
    #[error("a TaskManager named {0:?} exists already")]
    DuplicateTaskManager(String),
    /// Empty name.
    #[error("a TaskManager name must not be empty")]
    EmptyTaskManagerName,
    /// Slot count out of range.
    #[error("a TaskManager needs between 1 and {max} slots (got {got})")]
    BadSlotCount {
        /// Given.
        got: u32,
        /// Allowed.
        max: u32,
    },
    /// Too many TaskManagers.
    #[error("at most {max} TaskManagers are allowed")]
    TooManyTaskManagers {
        /// Allowed.
        max: usize,
    },
    /// A TaskManager in the wrong state for the action.
    #[error("{tm} is {state}; {action} needs it {wanted}")]
    WrongTaskManagerState {
        /// Name.
        tm: String,
        /// Current state.
        state: &'static str,
        /// Action.
        action: &'static str,
        /// Needed state.
        wanted: &'static str,
    },
    /// Removing a TaskManager that holds job slots.
    #[error("{tm} holds {requests} slot requests of the job; lose it (failover) instead of removing it")]
    TaskManagerBusy {
        /// Name.
        tm: String,
        /// Requests on it.
        requests: u32,
    },
    /// A duration Flink cannot represent.
    #[error(
        "{key} = {ms} ms cannot be represented as a 64-bit number of milliseconds \
         (numeric overflow; at most {max} ms)",
        max = config::MAX_DURATION_MS
    )]
    BadDuration {
        /// Key.
        key: &'static str,
        /// Value.
        ms: u64,
    },
    /// Simulated time would run past its end.
    #[error("{what}: t={now_ms} ms + {plus_ms} ms would run the simulated clock past {max} ms", max = u64::MAX)]
    ClockOverflow {
        /// What needed the time.
        what: &'static str,
        /// Now.
        now_ms: u64,
        /// The duration added.
        plus_ms: u64,
    },
    /// Unknown slot sharing group.
    #[error("the job has no slot sharing group named {0:?}")]
    UnknownSlotSharingGroup(String),
    /// Unknown vertex.
    #[error("the job has no vertex named {0:?}")]
    UnknownVertex(String),
    /// Bounds out of range.
    #[error(
        "{vertex}: parallelism bounds need 1 <= lower ({lower}) <= upper ({upper}) <= max parallelism ({max})"
    )]
    BadResourceRequirements {
        /// Vertex.
        vertex: String,
        /// Lower bound.
        lower: u32,
        /// Upper bound.
        upper: u32,
        /// Max parallelism.
        max: u32,
    },
    /// Another job's slots out of range.
    #[error("{tm} has {total} slots; another job cannot hold {slots}")]
    BadOtherJobSlots {
        /// TaskManager.
        tm: String,
        /// Asked.
        slots: u32,
        /// Its slots.
        total: u32,
    },
    /// Resources too small for the slot count.
    #[error("{tm}: {resources} split over {slots} slots leaves a slot without CPU or memory")]
    ResourcesTooSmall {
        /// TaskManager.
        tm: String,
        /// Resources.
        resources: Resources,
        /// Slots.
        slots: u32,
    },
}
