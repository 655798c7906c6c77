//! The only way a Flink simulation changes: [`Action`].

use super::job_graph::JobSpec;
use super::resource_profile::Resources;
use super::Config;
use crate::engine::schema::{self, ConfigChange};
use crate::engine::tagged::tagged_enum;

tagged_enum! {
    "op", "Action";
    /// The only way a Flink simulation changes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Action {
        /// Define (or replace) the job. Any running deployment is cancelled.
        DefineJob {
            /// The job graph.
            job: JobSpec,
        },
        /// Register a TaskManager.
        AddTaskManager {
            /// Name; `tm-<n>` when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            name: Option<String>,
            /// Slots; `taskmanager.numberOfTaskSlots` when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            slots: Option<u32>,
        },
        /// Register `count` TaskManagers named `tm-<n>`.
        AddTaskManagers {
            /// How many.
            count: u32,
            /// Slots each; `taskmanager.numberOfTaskSlots` when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            slots: Option<u32>,
        },
        /// Decommission an idle TaskManager (one holding no slot of the job).
        RemoveTaskManager {
            /// Name.
            tm: String,
        },
        /// A TaskManager is lost. If it ran tasks, the job restarts and every slot request
        /// is matched again (see [`failover`]).
        LoseTaskManager {
            /// Name.
            tm: String,
            /// When set, the TaskManager process comes back (re-registers with the same
            /// slots) this many ms after the loss, e.g. restarted by Kubernetes.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            restart_after_ms: Option<u64>,
        },
        /// A lost TaskManager registers again (its slots are free; nothing is rescheduled).
        RestoreTaskManager {
            /// Name.
            tm: String,
        },
        /// Set config keys (`{"config": {KEY: VALUE, …}}`; takes effect at the next scheduling).
        SetConfig(ConfigChange<Config>),
        /// Give a TaskManager a total resource (fine-grained resource management: its
        /// default slot is the total divided by its slot count, and it carves dynamic
        /// slots), or take it away (`null`). The TaskManager must hold no slot of the job.
        SetTaskManagerResources {
            /// Name.
            tm: String,
            /// Total CPU and memory; `null` for none.
            #[serde(default)]
            resources: Option<Resources>,
        },
        /// Give a slot sharing group of the job a resource profile (Flink's
        /// `SlotSharingGroup.newBuilder(name).setCpuCores(..).setTaskHeapMemoryMB(..)`), or
        /// make it `UNKNOWN` again (`null`). Takes effect at the next scheduling.
        SetSlotSharingGroupResources {
            /// Slot sharing group name.
            group: String,
            /// CPU and memory; `null` for `UNKNOWN`.
            #[serde(default)]
            resources: Option<Resources>,
        },
        /// Set a vertex's parallelism bounds for the adaptive scheduler (Flink's
        /// `JobResourceRequirements`, as the REST API sets them). Takes effect at the next
        /// scheduling.
        SetResourceRequirements {
            /// Vertex name.
            vertex: String,
            /// Least parallelism it may run with (at least 1).
            lower_bound: u32,
            /// Most parallelism it may run with (at most its max parallelism).
            upper_bound: u32,
        },
        /// Another job on the same cluster holds `slots` slots of a TaskManager and runs
        /// `tasks` tasks there (0 slots: it is gone). The slots must not hold this job's
        /// requests.
        OccupySlots {
            /// TaskManager.
            tm: String,
            /// The other job's name; `other-job` when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            job: Option<String>,
            /// Slots it holds (the TaskManager's first slots).
            slots: u32,
            /// Tasks it runs there.
            tasks: u32,
        },
        /// Deploy the job: phase 1 (tasks to slots) then phase 2 (slots to TaskManagers).
        Schedule,
    }
}

impl Action {
    /// Set every key to `c`'s value (the whole config).
    pub fn whole_config(c: &Config) -> Action {
        Action::SetConfig(ConfigChange::new(schema::Patch::whole(c)))
    }
}
