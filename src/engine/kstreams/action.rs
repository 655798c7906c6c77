//! The only way a Kafka Streams simulation changes: [`Action`].

use super::client::ProcessId;
use super::task::TaskId;
use super::topology::SubtopologySpec;
use super::Config;
use crate::engine::schema::{ConfigChange, ConfigError};
use crate::engine::tagged::tagged_enum;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(super) fn one() -> u32 {
    1
}

pub(super) fn one64() -> u64 {
    1
}

tagged_enum! {
    "op", "Action";
    /// The only way a Kafka Streams simulation changes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Action {
        /// Create a topic.
        DefineTopic {
            /// Name.
            topic: String,
            /// Partition count (at least 1).
            partitions: u32,
            /// Broker racks its replicas are spread over (none: no rack information).
            #[serde(default)]
            racks: Vec<String>,
            /// Replicas per partition.
            #[serde(default = "one")]
            replication_factor: u32,
        },
        /// Define (or replace) the processor topology.
        DefineTopology {
            /// Sub-topologies; their index is their id.
            subtopologies: Vec<SubtopologySpec>,
            /// Groups of topics that must be co-partitioned (joins).
            #[serde(default)]
            copartition_groups: Vec<Vec<String>>,
        },
        /// Start an application instance.
        AddInstance {
            /// Its name.
            name: String,
            /// `num.stream.threads` (the config default when absent).
            #[serde(default)]
            threads: Option<u32>,
            /// `client.rack`.
            #[serde(default)]
            rack: Option<String>,
            /// `client.tag.<key>` values.
            #[serde(default)]
            tags: BTreeMap<String, String>,
            /// A fixed process id (random from the seed when absent).
            #[serde(default)]
            process_id: Option<ProcessId>,
        },
        /// Shut an instance down cleanly; its local state is deleted.
        RemoveInstance {
            /// Instance name.
            name: String,
        },
        /// Crash an instance: it leaves the group, its state directory stays on disk.
        CrashInstance {
            /// Instance name.
            name: String,
        },
        /// Restart a crashed instance with the state it had on disk.
        #[serde(alias = "restore_instance")]
        RestartInstance {
            /// Instance name.
            name: String,
        },
        /// `KafkaStreams.addStreamThread`.
        AddThread {
            /// Instance name.
            instance: String,
        },
        /// `KafkaStreams.removeStreamThread` (the oldest thread unless one is named).
        RemoveThread {
            /// Instance name.
            instance: String,
            /// The `N` of `StreamThread-N`.
            #[serde(default)]
            thread: Option<u32>,
        },
        /// Produce records to a topic: by key (default partitioner), to a partition,
        /// or spread evenly over all partitions.
        Produce {
            /// Topic.
            topic: String,
            /// Record key (routes by murmur2).
            #[serde(default)]
            key: Option<String>,
            /// Explicit partition.
            #[serde(default)]
            partition: Option<u32>,
            /// How many records.
            #[serde(default = "one64")]
            records: u64,
        },
        /// Let simulated time pass: restoration progresses, probing rebalances fire.
        AdvanceTime {
            /// Milliseconds.
            ms: u64,
        },
        /// Force a rebalance.
        Rebalance,
        /// Run the standby assignor alone: every member keeps the active tasks it
        /// holds (a previous assignment the assignor must keep, as Kafka's standby
        /// assignor tests give it) and standbys are placed around them.
        AssignStandbys,
        /// Set an instance's current assignment per stream thread, as its next
        /// subscription's user data carries it (the "previous" assignment the assignor
        /// starts from). No rebalance runs; `rebalance` runs one. Actives are running
        /// (caught up, reporting `Task.LATEST_OFFSET`) unless listed in `restoring`.
        SetAssignment {
            /// Instance name.
            instance: String,
            /// Per thread: its active and standby tasks; threads not listed get none.
            threads: Vec<ThreadAssignmentSpec>,
            /// Stateful actives still restoring (they report their offset sum, not
            /// `LATEST_OFFSET`).
            #[serde(default)]
            restoring: Vec<TaskId>,
            /// Standbys listed above that are KIP-441 warm-ups (moving the task here
            /// once caught up; they count against `max.warmup.replicas`).
            #[serde(default)]
            warmups: Vec<TaskId>,
        },
        /// Set the changelog offset sums an instance holds on disk per task (what its
        /// subscription reports; lag = end offset sum − this).
        SetTaskOffsets {
            /// Instance name.
            instance: String,
            /// Offset sum per task; tasks not listed keep theirs.
            offsets: BTreeMap<TaskId, u64>,
        },
        /// Remove task directories from an instance's disk: its subscription no longer
        /// reports an offset sum for them (as if it never held them).
        ClearTaskOffsets {
            /// Instance name.
            instance: String,
            /// The tasks; none listed: every task it holds on disk but is not assigned.
            #[serde(default)]
            tasks: Vec<TaskId>,
        },
        /// Set the changelog end offset sums of stateful tasks.
        SetEndOffsets {
            /// End offset sum per task.
            offsets: BTreeMap<TaskId, u64>,
        },
        /// Set the racks of every partition's replicas of a source or changelog topic
        /// (one list per partition; an empty list: that partition has no rack information).
        SetPartitionRacks {
            /// A defined topic, or a changelog topic of the topology.
            topic: String,
            /// Racks per partition.
            racks: Vec<Vec<String>>,
        },
        /// Set config keys, by their Kafka names (`{"config": {KEY: VALUE, …}}`; the
        /// older one-key form `{"key": KEY, "value": VALUE}` is read too).
        SetConfig(ConfigChange<Config>),
        /// Add a produce pattern: records arrive on a topic as time passes (see [`super::workload`]).
        AddWorkload {
            /// The pattern.
            pattern: super::workload::ProducePattern,
        },
        /// Replace a produce pattern (the new rate counts from now).
        ChangeWorkload {
            /// Its id.
            id: u32,
            /// The new pattern.
            pattern: super::workload::ProducePattern,
        },
        /// Remove a produce pattern.
        RemoveWorkload {
            /// Its id.
            id: u32,
        },
    }
}

/// One stream thread's tasks in a [`Action::SetAssignment`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreadAssignmentSpec {
    /// The `N` of `StreamThread-N`.
    pub thread: u32,
    /// Active tasks.
    #[serde(default)]
    pub active: Vec<TaskId>,
    /// Standby tasks.
    #[serde(default)]
    pub standby: Vec<TaskId>,
}

impl Action {
    /// Set one key, by its Kafka name (checked against the schema).
    pub fn set_config(key: &str, value: serde_json::Value) -> Result<Action, ConfigError> {
        Ok(Action::SetConfig(ConfigChange::one(key, value)?))
    }
}
