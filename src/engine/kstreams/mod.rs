//! Kafka Streams task assignment: topics → tasks (`PartitionGrouper`), tasks →
//! instances (the high-availability or sticky assignor, standby assignors, the
//! rack-aware optimizer, warm-ups and probing rebalances), tasks → stream threads,
//! and state: changelog offsets per task and instance, restoration and failover.
//!
//! One file per concept: [`partitioner`], [`topology`], [`task`], [`client`],
//! [`client_state`], [`state`], [`assignor`] (high availability, sticky),
//! [`standby`], [`rack_aware`], [`warmup`], [`threads`], [`view`].
//!
//! Membership changes (instances and threads added, removed, crashed, restarted)
//! rebalance at once when a topology is defined; `Rebalance` forces one; probing
//! rebalances fire when simulated time passes their deadline.

pub mod assignor;
pub mod client;
pub mod client_state;
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

use super::schema::{self, ConfigChange, ConfigError};
use super::{AnyAction, Engine, Narrate, Series, SimRng, Subject, System};
pub use assignor::{Assignor, AssignorKind, Reason};
pub use client::{Instance, InstanceStatus, ProcessId, StreamThread};
pub use rack_aware::RackStrategy;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
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
/// Most standby replicas in the playground.
pub const MAX_STANDBY_REPLICAS: u32 = 16;
/// Kafka's lower bound for `probing.rebalance.interval.ms`.
pub const MIN_PROBING_REBALANCE_INTERVAL_MS: u64 = 60_000;

/// Kafka Streams configuration, with Kafka's names and defaults.
///
/// One rule for every way a value gets in: the scenario's `config` object and the
/// `set_config` action both go through the schema ([`crate::engine::schema`]:
/// unknown keys refused with the closest known key) and [`Config::validate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `application.id` (names the changelog topics).
    #[serde(rename = "application.id")]
    pub application_id: String,
    /// `num.stream.threads`: threads of an instance added without a count.
    #[serde(rename = "num.stream.threads")]
    pub num_stream_threads: u32,
    /// `num.standby.replicas`.
    #[serde(rename = "num.standby.replicas")]
    pub num_standby_replicas: u32,
    /// `acceptable.recovery.lag`: a client within this many records is caught up.
    #[serde(rename = "acceptable.recovery.lag")]
    pub acceptable_recovery_lag: u64,
    /// `max.warmup.replicas`: warm-ups allowed at once, over the whole group.
    #[serde(rename = "max.warmup.replicas")]
    pub max_warmup_replicas: u32,
    /// `probing.rebalance.interval.ms`.
    #[serde(rename = "probing.rebalance.interval.ms")]
    pub probing_rebalance_interval_ms: u64,
    /// `rack.aware.assignment.tags`: client tag keys standbys are spread over.
    #[serde(rename = "rack.aware.assignment.tags")]
    pub rack_aware_assignment_tags: Vec<String>,
    /// `rack.aware.assignment.strategy`.
    #[serde(rename = "rack.aware.assignment.strategy")]
    pub rack_aware_assignment_strategy: RackStrategy,
    /// `rack.aware.assignment.traffic_cost` (assignor default when absent).
    #[serde(rename = "rack.aware.assignment.traffic_cost")]
    pub traffic_cost: Option<u32>,
    /// `rack.aware.assignment.non_overlap_cost` (assignor default when absent).
    #[serde(rename = "rack.aware.assignment.non_overlap_cost")]
    pub non_overlap_cost: Option<u32>,
    /// `task.assignor.class` (KIP-924): a `TaskAssignor` class name, e.g. the built-in
    /// `org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor`;
    /// null (the default) uses `internal.task.assignor.class`. lbscope also reads its
    /// old values `high_availability` and `sticky` as that legacy assignor.
    #[serde(rename = "task.assignor.class")]
    pub task_assignor_class: Option<String>,
    /// `internal.task.assignor.class`: the legacy assignor when no `task.assignor.class`
    /// is set (`HighAvailabilityTaskAssignor` by default).
    #[serde(rename = "internal.task.assignor.class")]
    pub task_assignor: AssignorKind,
    /// `group.protocol`: `classic` (the default; the client-side assignors) or
    /// `streams` (KIP-1071: the group coordinator's assignor).
    #[serde(rename = "group.protocol")]
    pub group_protocol: GroupProtocol,
    /// Broker config `group.streams.num.standby.replicas`: standbys per task of a
    /// streams group that sets no `streams.num.standby.replicas`.
    #[serde(rename = "group.streams.num.standby.replicas")]
    pub group_streams_num_standby_replicas: u32,
    /// Broker config `group.streams.max.standby.replicas`: the most a group may set.
    #[serde(rename = "group.streams.max.standby.replicas")]
    pub group_streams_max_standby_replicas: u32,
    /// Group config `streams.num.standby.replicas` (null: the broker's default).
    #[serde(rename = "streams.num.standby.replicas")]
    pub streams_num_standby_replicas: Option<u32>,
    /// lbscope only: records per second one replica restores from its changelog.
    #[serde(rename = "lbscope.restore.records.per.second")]
    pub restore_records_per_second: u64,
    /// Keys Kafka Streams has that lbscope does not model: kept, so a link keeps them.
    #[serde(flatten)]
    pub unmodelled: BTreeMap<String, serde_json::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            application_id: "app".into(),
            num_stream_threads: 1,
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
            probing_rebalance_interval_ms: 600_000,
            rack_aware_assignment_tags: Vec::new(),
            rack_aware_assignment_strategy: RackStrategy::None,
            traffic_cost: None,
            non_overlap_cost: None,
            task_assignor_class: None,
            task_assignor: AssignorKind::HighAvailability,
            group_protocol: GroupProtocol::Classic,
            group_streams_num_standby_replicas: 0,
            group_streams_max_standby_replicas: 2,
            streams_num_standby_replicas: None,
            restore_records_per_second: 10_000,
            unmodelled: BTreeMap::new(),
        }
    }
}

impl Config {
    /// The assignor a rebalance runs: the group coordinator's under
    /// `group.protocol=streams`; else `task.assignor.class` when set (KIP-924); else
    /// `internal.task.assignor.class` (Kafka's `StreamsPartitionAssignor`).
    pub fn assignor(&self) -> Assignor {
        if self.group_protocol == GroupProtocol::Streams {
            return Assignor::StreamsGroupSticky;
        }
        match self.task_assignor_class.as_deref() {
            Some("high_availability") => Assignor::HighAvailability,
            Some("sticky") => Assignor::Sticky,
            Some(_) => Assignor::StickyTaskAssignor,
            None => match self.task_assignor {
                AssignorKind::HighAvailability => Assignor::HighAvailability,
                AssignorKind::Sticky => Assignor::Sticky,
            },
        }
    }

    /// Standby replicas per stateful task the running assignor places: the group's
    /// `streams.num.standby.replicas` (else the broker's
    /// `group.streams.num.standby.replicas`) under the streams protocol, else
    /// `num.standby.replicas`.
    pub fn standby_replicas(&self) -> u32 {
        if self.group_protocol == GroupProtocol::Streams {
            self.streams_num_standby_replicas
                .unwrap_or(self.group_streams_num_standby_replicas)
        } else {
            self.num_standby_replicas
        }
    }

    /// Kafka's validation (plus playground limits).
    pub fn validate(&self) -> Result<(), Error> {
        schema::check_unmodelled(self)?;
        if let Some(c) = &self.task_assignor_class {
            if !matches!(
                c.as_str(),
                "high_availability" | "sticky" | assignor::STICKY_TASK_ASSIGNOR_CLASS
            ) {
                return Err(Error::BadConfig(format!(
                    "Expected an instantiable class name for task.assignor.class but got {c} (the built-in TaskAssignor is {})",
                    assignor::STICKY_TASK_ASSIGNOR_CLASS
                )));
            }
        }
        if let Some(n) = self.streams_num_standby_replicas {
            if n > self.group_streams_max_standby_replicas {
                return Err(Error::BadConfig(format!(
                    "streams.num.standby.replicas {n} is above group.streams.max.standby.replicas {}",
                    self.group_streams_max_standby_replicas
                )));
            }
        }
        if self.group_streams_num_standby_replicas > MAX_STANDBY_REPLICAS
            || self.group_streams_max_standby_replicas > MAX_STANDBY_REPLICAS
        {
            return Err(Error::BadConfig(format!(
                "group.streams standby replicas above the playground limit of {MAX_STANDBY_REPLICAS}"
            )));
        }
        if self.rack_aware_assignment_tags.len() > MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE {
            return Err(Error::TooManyRackTags(self.rack_aware_assignment_tags.len()));
        }
        for k in &self.rack_aware_assignment_tags {
            if k.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH {
                return Err(Error::TagKeyTooLong(k.clone()));
            }
        }
        if self.application_id.is_empty() {
            return Err(Error::BadConfig("application.id must not be empty".into()));
        }
        if self.max_warmup_replicas == 0 {
            return Err(Error::BadConfig("max.warmup.replicas must be at least 1".into()));
        }
        if self.probing_rebalance_interval_ms < MIN_PROBING_REBALANCE_INTERVAL_MS {
            return Err(Error::BadConfig(format!(
                "probing.rebalance.interval.ms must be at least {MIN_PROBING_REBALANCE_INTERVAL_MS}"
            )));
        }
        if self.restore_records_per_second == 0 {
            return Err(Error::BadConfig(
                "lbscope.restore.records.per.second must be at least 1".into(),
            ));
        }
        if self.num_stream_threads > MAX_THREADS {
            return Err(Error::TooManyThreads(self.num_stream_threads));
        }
        if self.num_standby_replicas > MAX_STANDBY_REPLICAS {
            return Err(Error::BadConfig(format!(
                "num.standby.replicas above the playground limit of {MAX_STANDBY_REPLICAS}"
            )));
        }
        Ok(())
    }
}

fn one() -> u32 {
    1
}

fn one64() -> u64 {
    1
}

/// `group.protocol` of a Kafka Streams client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupProtocol {
    /// The classic consumer group protocol: the group leader's `StreamsPartitionAssignor` assigns.
    #[default]
    Classic,
    /// KIP-1071's streams group protocol: the group coordinator assigns.
    Streams,
}

/// The only way a Kafka Streams simulation changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
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
    },
    /// Set the changelog offset sums an instance holds on disk per task (what its
    /// subscription reports; lag = end offset sum − this).
    SetTaskOffsets {
        /// Instance name.
        instance: String,
        /// Offset sum per task; tasks not listed keep theirs.
        offsets: BTreeMap<TaskId, u64>,
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
}

/// One task's offset sum on an instance and the lag it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskOffset {
    /// Task.
    pub task: TaskId,
    /// Offset sum on disk.
    pub offset: u64,
    /// Changelog end offset sum.
    pub end: u64,
    /// The lag the subscription reports (Kafka: the end offset when the offset is past it).
    pub lag: u64,
}

/// One stream thread's tasks in a [`Action::SetAssignment`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// The role a replica plays on an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Processes the task.
    Active,
    /// Hot standby.
    Standby,
    /// Warm-up replica (a standby restoring for a later move).
    WarmUp,
}

/// One thread's share of an instance's tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreadLoad {
    /// `N` of `StreamThread-N`.
    pub thread: u32,
    /// Active tasks.
    pub active: Vec<TaskId>,
    /// Standby and warm-up tasks.
    pub standby: Vec<TaskId>,
}

/// What happened, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A topic was created.
    TopicDefined {
        /// Name.
        topic: String,
        /// Partitions.
        partitions: u32,
        /// Broker racks.
        racks: Vec<String>,
    },
    /// The topology was (re)defined.
    TopologyDefined {
        /// Sub-topologies.
        subtopologies: u32,
        /// Tasks.
        tasks: u32,
        /// Stateful tasks.
        stateful_tasks: u32,
        /// Task count per sub-topology (max partitions of its sources).
        tasks_per_subtopology: Vec<u32>,
        /// Changelog topics.
        changelogs: Vec<String>,
    },
    /// An instance joined.
    InstanceAdded {
        /// Name.
        instance: String,
        /// Process id.
        process_id: ProcessId,
        /// Threads.
        threads: u32,
        /// `client.rack`.
        rack: Option<String>,
    },
    /// An instance shut down cleanly.
    InstanceRemoved {
        /// Name.
        instance: String,
        /// Active tasks it gave up.
        active_released: Vec<TaskId>,
    },
    /// An instance crashed.
    InstanceCrashed {
        /// Name.
        instance: String,
        /// Active tasks that lost their owner.
        active_lost: Vec<TaskId>,
        /// Standby copies lost.
        standby_lost: u32,
    },
    /// A crashed instance came back.
    InstanceRestarted {
        /// Name.
        instance: String,
        /// Tasks it still has state for.
        tasks_with_local_state: u32,
    },
    /// A stream thread was added.
    ThreadAdded {
        /// Instance.
        instance: String,
        /// Its index.
        thread: u32,
        /// Threads now.
        threads: u32,
    },
    /// A stream thread was removed.
    ThreadRemoved {
        /// Instance.
        instance: String,
        /// Its index.
        thread: u32,
        /// Threads now.
        threads: u32,
    },
    /// Records were produced.
    Produced {
        /// Topic.
        topic: String,
        /// Partition (for keyed or targeted records).
        partition: Option<u32>,
        /// The key.
        key: Option<String>,
        /// murmur2 of the key (signed, as Kafka returns it).
        murmur2: Option<i32>,
        /// Records.
        records: u64,
        /// Tasks whose input grew.
        tasks: Vec<TaskId>,
    },
    /// Simulated time passed.
    TimeAdvanced {
        /// From.
        from_ms: u64,
        /// To.
        to_ms: u64,
    },
    /// An active task finished restoring and started processing.
    TaskRestored {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Records replayed from the changelog.
        records: u64,
        /// How long it took.
        restore_ms: u64,
    },
    /// A warm-up replica came within `acceptable.recovery.lag`.
    WarmupCaughtUp {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Its lag now.
        lag: u64,
    },
    /// A rebalance began.
    RebalanceStarted {
        /// Generation being formed.
        generation: u64,
        /// Why.
        trigger: String,
        /// Assignor.
        assignor: Assignor,
        /// Members in process-id order (the assignor's client order); at most
        /// [`MAX_LISTED_MEMBERS`] are named.
        members: Vec<String>,
        /// How many members there are.
        #[serde(default)]
        member_count: u32,
        /// Tasks to assign.
        tasks: u32,
    },
    /// A task replica was placed on a (new) instance.
    TaskAssigned {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Role.
        role: Role,
        /// Why there.
        reason: Reason,
        /// The lag that instance reported (-2: running active).
        lag: i64,
        /// Previous active owner (for actives).
        previous: Option<String>,
        /// Records it must replay before it is ready.
        restore_records: u64,
        /// Estimated restore time at `lbscope.restore.records.per.second`.
        restore_ms: u64,
    },
    /// The rack-aware optimizer ran.
    RackAwareOptimized {
        /// Which tasks.
        target: String,
        /// Strategy.
        strategy: RackStrategy,
        /// Traffic cost used.
        traffic_cost: i64,
        /// Non-overlap cost used.
        non_overlap_cost: i64,
        /// Cost before.
        cost_before: i64,
        /// Cost after (including non-overlap cost of moves).
        cost_after: i64,
        /// Tasks moved.
        moved: u64,
    },
    /// The high-availability assignor's target: stateful actives go round robin
    /// over the members and are balanced without looking at who holds them; a task
    /// leaves that target only when the target is not caught up and a caught-up
    /// member exists.
    HighAvailabilityTarget {
        /// Stateful tasks.
        stateful_tasks: u32,
        /// Members.
        members: u32,
        /// Stateful tasks on which every member is caught up.
        tasks_all_caught_up: u32,
        /// Stateful tasks on which no member is caught up.
        tasks_none_caught_up: u32,
        /// `acceptable.recovery.lag`.
        acceptable_recovery_lag: u64,
        /// Stateful actives whose owner changed.
        moved: u32,
    },
    /// Why the high-availability assignor gave a stateful active a new owner.
    ActiveMovementExplained {
        /// Task.
        task: TaskId,
        /// Its previous owner among the members (none: it had none, e.g. it crashed).
        from: Option<String>,
        /// Its new owner.
        to: String,
        /// Members caught up on it (running it, or lag within
        /// `acceptable.recovery.lag`); at most 8 are named.
        caught_up: Vec<String>,
        /// How many members are caught up on it.
        caught_up_count: u32,
        /// Members.
        members: u32,
        /// `acceptable.recovery.lag`.
        acceptable_recovery_lag: u64,
        /// The lag the new owner reported (-2: running).
        lag: i64,
        /// Records the new owner replays before it runs.
        restore_records: u64,
        /// The new owner is the balanced target (else a caught-up stand-in while a
        /// warm-up restores on the target).
        target: bool,
        /// The previous owner was caught up too (it could have kept the task).
        from_caught_up: bool,
    },
    /// A sticky assignor's active quota: a previous owner keeps (or a previous
    /// standby takes) an active while it has fewer than `threads × per thread`.
    ActiveQuota {
        /// Assignor.
        assignor: Assignor,
        /// All tasks (stateful and stateless).
        tasks: u32,
        /// Stream threads over all members.
        threads: u32,
        /// `floor(tasks / threads)`.
        active_tasks_per_thread: u32,
    },
    /// The streams group's assignor quotas (`ceil(tasks / members)` per member).
    MemberQuotas {
        /// Members (stream threads) in the group.
        members: u32,
        /// Stateful active tasks per member.
        stateful_active_per_member: u32,
        /// Active tasks per member.
        active_per_member: u32,
        /// Active and standby tasks per member.
        tasks_per_member: u32,
        /// Standbys per stateful task.
        standby_replicas: u32,
    },
    /// Which standby assignor places the standbys, and with which rack information.
    StandbyAssignorChosen {
        /// The task assignor that asked for it.
        assignor: Assignor,
        /// `DefaultStandbyTaskAssignor`, `ClientTagAwareStandbyTaskAssignor`, or the
        /// task assignor itself when it places standbys with its own rules.
        standby_assignor: String,
        /// Tag keys the copies are spread over (`rack` when `client.rack` stands in for a tag).
        tags: Vec<String>,
        /// Members that set `client.rack`.
        members_with_client_rack: u32,
        /// Members in the group.
        members: u32,
        /// `rack.aware.assignment.strategy`.
        strategy: RackStrategy,
        /// Whether the rack-aware optimizer then moves standbys (by changelog traffic).
        rack_optimizer: bool,
    },
    /// An instance's tasks were spread over its threads.
    ThreadsAssigned {
        /// Instance.
        instance: String,
        /// Per thread.
        threads: Vec<ThreadLoad>,
    },
    /// A member got no active task: it runs but idles.
    InstanceIdle {
        /// Instance.
        instance: String,
        /// Its threads.
        threads: u32,
        /// Standbys it keeps.
        standbys: u32,
    },
    /// A probing rebalance was scheduled to check on warm-ups.
    ProbingRebalanceScheduled {
        /// When.
        at_ms: u64,
        /// Warm-ups in flight.
        warmups: u32,
    },
    /// A rebalance finished.
    RebalanceCompleted {
        /// Generation.
        generation: u64,
        /// Active tasks assigned.
        active: u32,
        /// Standbys (without warm-ups).
        standby: u32,
        /// Warm-ups.
        warmups: u32,
        /// Actives that stayed put.
        sticky: u32,
        /// Actives that moved (or were new).
        moved: u32,
        /// Members with at least one active task.
        busy_instances: u32,
        /// Members with none.
        idle_instances: u32,
        /// Longest estimated restore among new actives.
        max_restore_ms: u64,
    },
    /// An instance's assignment was set directly.
    AssignmentSet {
        /// Instance.
        instance: String,
        /// Per thread.
        threads: Vec<ThreadLoad>,
        /// Actives still restoring.
        restoring: Vec<TaskId>,
        /// Actives another instance also claims.
        also_active_elsewhere: Vec<TaskId>,
    },
    /// Offset sums on an instance's disk were set.
    TaskOffsetsSet {
        /// Instance.
        instance: String,
        /// Offset sum and the lag it gives, per task.
        offsets: Vec<TaskOffset>,
    },
    /// Changelog end offset sums were set.
    EndOffsetsSet {
        /// Per task.
        offsets: BTreeMap<TaskId, u64>,
    },
    /// A topic's partition racks were set.
    PartitionRacksSet {
        /// Topic.
        topic: String,
        /// Racks per partition.
        racks: Vec<Vec<String>>,
    },
    /// A config value changed.
    ConfigSet {
        /// Key.
        key: String,
        /// Value.
        value: serde_json::Value,
    },
    /// Something the user should know.
    Warning {
        /// Text.
        message: String,
    },
}

fn tasks_text(v: &[TaskId]) -> String {
    let s: Vec<String> = v.iter().map(|t| t.to_string()).collect();
    format!("[{}]", s.join(", "))
}

fn strategy_name(s: RackStrategy) -> &'static str {
    match s {
        RackStrategy::None => "none",
        RackStrategy::MinTraffic => "min_traffic",
        RackStrategy::BalanceSubtopology => "balance_subtopology",
    }
}

fn standby_choice_text(
    assignor: Assignor,
    standby_assignor: &str,
    tags: &[String],
    with_rack: u32,
    members: u32,
    strategy: RackStrategy,
    rack_optimizer: bool,
) -> String {
    let mut s = if standby_assignor == "ClientTagAwareStandbyTaskAssignor" {
        format!(
            "standbys by {standby_assignor}: copies spread over different values of [{}], then least loaded",
            tags.join(", ")
        )
    } else if standby_assignor == "DefaultStandbyTaskAssignor" {
        format!("standbys by {standby_assignor}: least-loaded instance without a copy")
    } else {
        format!("standbys by {standby_assignor}'s own rules: previous owner, then least-loaded instance without a copy")
    };
    if tags.is_empty() && with_rack > 0 {
        s.push_str(&format!(
            ". {with_rack} of {members} members set client.rack, but {} passes no rack information to its standby placement, so client.rack does not spread standbys over racks (only rack.aware.assignment.tags does)",
            assignor.class_name()
        ));
    }
    match (strategy, rack_optimizer) {
        (RackStrategy::None, _) => {}
        (st, true) => s.push_str(&format!(
            "; then the rack-aware optimizer ({}) swaps standbys between racks to cut changelog cross-rack traffic, which does not keep them off their active's rack",
            strategy_name(st)
        )),
        (st, false) => s.push_str(&format!(
            "; rack.aware.assignment.strategy {} is set but rack-aware assignment is disabled, so no rack optimizer runs",
            strategy_name(st)
        )),
    }
    s
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        match self {
            Event::TopicDefined { topic, partitions, racks } => {
                if racks.is_empty() {
                    format!("topic {topic} created with {partitions} partitions")
                } else {
                    format!("topic {topic} created with {partitions} partitions on racks {}", racks.join(", "))
                }
            }
            Event::TopologyDefined {
                subtopologies,
                tasks,
                stateful_tasks,
                tasks_per_subtopology,
                ..
            } => format!(
                "topology: {subtopologies} sub-topologies -> {tasks} tasks ({stateful_tasks} stateful); tasks per sub-topology = max source partitions = {tasks_per_subtopology:?}"
            ),
            Event::InstanceAdded {
                instance,
                process_id,
                threads,
                rack,
            } => format!(
                "instance {instance} started (process id {process_id}, {threads} threads{})",
                rack.as_ref().map(|r| format!(", rack {r}")).unwrap_or_default()
            ),
            Event::InstanceRemoved { instance, active_released } => {
                format!("instance {instance} shut down, releasing {}", tasks_text(active_released))
            }
            Event::InstanceCrashed {
                instance,
                active_lost,
                standby_lost,
            } => format!(
                "instance {instance} crashed: active tasks {} and {standby_lost} standbys lost their owner",
                tasks_text(active_lost)
            ),
            Event::InstanceRestarted {
                instance,
                tasks_with_local_state,
            } => format!("instance {instance} restarted with local state for {tasks_with_local_state} tasks"),
            Event::ThreadAdded { instance, thread, threads } => {
                format!("{instance}: StreamThread-{thread} added ({threads} threads)")
            }
            Event::ThreadRemoved { instance, thread, threads } => {
                format!("{instance}: StreamThread-{thread} removed ({threads} threads)")
            }
            Event::Produced {
                topic,
                partition,
                key,
                murmur2,
                records,
                tasks,
            } => match (key, murmur2, partition) {
                (Some(k), Some(h), Some(p)) => format!(
                    "{records} records with key {k:?} -> murmur2 = {h}, toPositive = {}, partition {p} of {topic} (task {})",
                    partitioner::to_positive(*h),
                    tasks_text(tasks)
                ),
                (_, _, Some(p)) => format!("{records} records to {topic}-{p} (tasks {})", tasks_text(tasks)),
                _ => format!("{records} records spread over {topic} (tasks {})", tasks_text(tasks)),
            },
            Event::TimeAdvanced { from_ms, to_ms } => format!("time {from_ms} ms -> {to_ms} ms"),
            Event::TaskRestored {
                task,
                instance,
                records,
                restore_ms,
            } => format!("task {task} on {instance} restored {records} records in {restore_ms} ms and is running"),
            Event::WarmupCaughtUp { task, instance, lag } => {
                format!("warm-up of {task} on {instance} caught up (lag {lag})")
            }
            Event::RebalanceStarted {
                generation,
                trigger,
                assignor,
                members,
                member_count,
                tasks,
            } => {
                let count = (*member_count as usize).max(members.len());
                let more = if count > members.len() {
                    format!(", … and {} more", count - members.len())
                } else {
                    String::new()
                };
                format!(
                    "rebalance {generation} ({trigger}): {} assignor, {tasks} tasks over {count} members [{}{more}]",
                    assignor.label(),
                    members.join(", ")
                )
            }
            Event::TaskAssigned {
                task,
                instance,
                role,
                reason,
                lag,
                previous,
                restore_records,
                restore_ms,
            } => {
                let prev = previous.as_ref().map(|p| format!(" (was on {p})")).unwrap_or_default();
                let lag = if *lag == client_state::LATEST_OFFSET {
                    "running".to_string()
                } else {
                    format!("lag {lag}")
                };
                let restore = if *restore_records > 0 {
                    format!(", restores {restore_records} records in ~{restore_ms} ms")
                } else {
                    String::new()
                };
                format!("{role:?} {task} -> {instance}{prev}: {} [{lag}{restore}]", reason.words())
            }
            Event::RackAwareOptimized {
                target,
                strategy,
                traffic_cost,
                non_overlap_cost,
                cost_before,
                cost_after,
                moved,
            } => format!(
                "rack-aware {strategy:?} on {target} (traffic cost {traffic_cost}, non-overlap cost {non_overlap_cost}): cost {cost_before} -> {cost_after}, {moved} moved"
            ),
            Event::HighAvailabilityTarget {
                stateful_tasks,
                members,
                tasks_all_caught_up,
                tasks_none_caught_up,
                acceptable_recovery_lag,
                moved,
            } => format!(
                "high-availability target: {stateful_tasks} stateful tasks round robin over {members} members, then balanced; every member is caught up (lag <= acceptable.recovery.lag {acceptable_recovery_lag}) on {tasks_all_caught_up} of them and none on {tasks_none_caught_up}. Where the target is caught up it stands, even if another instance holds the task: {moved} stateful actives change owner"
            ),
            Event::ActiveMovementExplained {
                task,
                from,
                to,
                caught_up,
                caught_up_count,
                members,
                acceptable_recovery_lag,
                lag,
                restore_records,
                target,
                from_caught_up,
            } => {
                let more = if (*caught_up_count as usize) > caught_up.len() {
                    format!(", … and {} more", *caught_up_count as usize - caught_up.len())
                } else {
                    String::new()
                };
                let who = format!(
                    "{caught_up_count} of {members} members are caught up on it (lag <= {acceptable_recovery_lag}: [{}{more}])",
                    caught_up.join(", ")
                );
                let lag_text = if *lag == client_state::LATEST_OFFSET {
                    "running".to_string()
                } else {
                    format!("lag {lag}")
                };
                let from_text = match from {
                    Some(f) if *from_caught_up => format!("leaves {f}, which was caught up and could have kept it, and"),
                    Some(f) => format!("leaves {f} and"),
                    None => "had no live owner and".to_string(),
                };
                if *target {
                    format!(
                        "{task} {from_text} goes to {to}, its balanced round-robin target: {who}; the target is caught up ({lag_text}), so it moves now without a warm-up and {to} replays {restore_records} records"
                    )
                } else {
                    format!(
                        "{task} {from_text} goes to {to}, a caught-up stand-in ({lag_text}): {who}; its balanced target was not caught up, so a warm-up restores there; {to} replays {restore_records} records"
                    )
                }
            }
            Event::ActiveQuota {
                assignor,
                tasks,
                threads,
                active_tasks_per_thread,
            } => format!(
                "{}: {tasks} tasks over {threads} threads, floor = {active_tasks_per_thread} per thread: a previous owner (then a previous standby) keeps an active while it runs fewer than its threads × {active_tasks_per_thread}",
                assignor.class_name()
            ),
            Event::MemberQuotas {
                members,
                stateful_active_per_member,
                active_per_member,
                tasks_per_member,
                standby_replicas,
            } => format!(
                "streams group quotas over {members} members: {stateful_active_per_member} stateful actives, {active_per_member} actives and {tasks_per_member} tasks (with {standby_replicas} standbys per stateful task) per member, rounded up; a previous owner keeps a task while under its quota"
            ),
            Event::StandbyAssignorChosen {
                assignor,
                standby_assignor,
                tags,
                members_with_client_rack,
                members,
                strategy,
                rack_optimizer,
            } => standby_choice_text(
                *assignor,
                standby_assignor,
                tags,
                *members_with_client_rack,
                *members,
                *strategy,
                *rack_optimizer,
            ),
            Event::ThreadsAssigned { instance, threads } => {
                let parts: Vec<String> = threads
                    .iter()
                    .map(|t| format!("T{}: {} active + {} standby", t.thread, t.active.len(), t.standby.len()))
                    .collect();
                format!("{instance} threads: {}", parts.join("; "))
            }
            Event::InstanceIdle {
                instance,
                threads,
                standbys,
            } => format!("{instance} ({threads} threads) has no active task and idles ({standbys} standbys)"),
            Event::ProbingRebalanceScheduled { at_ms, warmups } => {
                format!("probing rebalance scheduled at {at_ms} ms to check {warmups} warm-ups")
            }
            Event::RebalanceCompleted {
                generation,
                active,
                standby,
                warmups,
                sticky,
                moved,
                busy_instances,
                idle_instances,
                max_restore_ms,
            } => format!(
                "generation {generation}: {active} active ({sticky} sticky, {moved} moved), {standby} standby, {warmups} warm-up; {busy_instances} busy and {idle_instances} idle instances; longest restore ~{max_restore_ms} ms"
            ),
            Event::AssignmentSet {
                instance,
                threads,
                restoring,
                also_active_elsewhere,
            } => {
                let parts: Vec<String> = threads
                    .iter()
                    .map(|t| {
                        format!(
                            "StreamThread-{} active {} standby {}",
                            t.thread,
                            tasks_text(&t.active),
                            tasks_text(&t.standby)
                        )
                    })
                    .collect();
                let mut s = format!("{instance}'s assignment set: {}", parts.join("; "));
                if !restoring.is_empty() {
                    s.push_str(&format!("; still restoring {}", tasks_text(restoring)));
                }
                if !also_active_elsewhere.is_empty() {
                    s.push_str(&format!(
                        "; {} also claimed as active by another instance",
                        tasks_text(also_active_elsewhere)
                    ));
                }
                s
            }
            Event::TaskOffsetsSet { instance, offsets } => {
                let parts: Vec<String> = offsets
                    .iter()
                    .map(|o| format!("{} offset sum {} of {} (lag {})", o.task, o.offset, o.end, o.lag))
                    .collect();
                format!("{instance} holds {}", parts.join(", "))
            }
            Event::EndOffsetsSet { offsets } => {
                let parts: Vec<String> = offsets.iter().map(|(t, o)| format!("{t} = {o}")).collect();
                format!("changelog end offset sums: {}", parts.join(", "))
            }
            Event::PartitionRacksSet { topic, racks } => {
                let parts: Vec<String> = racks
                    .iter()
                    .enumerate()
                    .map(|(p, r)| format!("{topic}-{p} on [{}]", r.join(", ")))
                    .collect();
                format!("partition racks: {}", parts.join("; "))
            }
            Event::ConfigSet { key, value } => format!("{key} = {value}"),
            Event::Warning { message } => format!("warning: {message}"),
        }
    }
}

/// Why a Kafka Streams action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A topic needs at least one partition.
    #[error("topic {0} must have at least 1 partition")]
    ZeroPartitions(String),
    /// Too many partitions.
    #[error("{0} partitions is more than the playground limit of {max}", max = topology::MAX_PARTITIONS)]
    TooManyPartitions(u32),
    /// Topic referenced but not defined.
    #[error("topic {0} is not defined")]
    UnknownTopic(String),
    /// Topic exists.
    #[error("topic {0} already exists")]
    TopicExists(String),
    /// Kafka's `CopartitionedTopicsEnforcer` message.
    #[error("Topics not co-partitioned: [{0}]")]
    NotCopartitioned(String),
    /// Kafka's `TopologyException` for a topic read by two source nodes.
    #[error("Invalid topology: Topic {0} has already been registered by another source.")]
    TopicAlreadyRegistered(String),
    /// No sub-topologies.
    #[error("a topology needs at least one sub-topology")]
    EmptyTopology,
    /// A sub-topology without sources.
    #[error("sub-topology {0} has no source topics")]
    NoSources(u32),
    /// Store names are unique.
    #[error("state store {0} is defined twice")]
    DuplicateStore(String),
    /// A bad name.
    #[error("bad {0} name {1:?}")]
    BadName(String, String),
    /// Too many tasks.
    #[error("the topology has more than {0} tasks")]
    TooManyTasks(usize),
    /// More than 5 tags.
    #[error("at most {max} rack tags can be specified (got {0})", max = MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE)]
    TooManyRackTags(usize),
    /// Tag key over 20 characters.
    #[error("tag key {0:?} exceeds maximum length of {max}", max = MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH)]
    TagKeyTooLong(String),
    /// Tag value over 30 characters.
    #[error("tag value {0:?} exceeds maximum length of {max}", max = MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH)]
    TagValueTooLong(String),
    /// A rack-aware tag key without a client tag.
    #[error("rack.aware.assignment.tags contains [{key}] which instance {instance} has no client.tag for")]
    MissingRackTag {
        /// Instance.
        instance: String,
        /// Tag key.
        key: String,
    },
    /// Unknown instance.
    #[error("instance {0} does not exist")]
    UnknownInstance(String),
    /// Name taken.
    #[error("instance {0} already exists")]
    InstanceExists(String),
    /// Process id taken.
    #[error("process id {0} is already used")]
    DuplicateProcessId(String),
    /// Not running.
    #[error("instance {0} is not running")]
    NotRunning(String),
    /// Not crashed.
    #[error("instance {0} has not crashed")]
    NotCrashed(String),
    /// Too many instances.
    #[error("more than {0} instances")]
    TooManyInstances(usize),
    /// Too many threads.
    #[error("{0} threads is more than the limit of {max}", max = MAX_THREADS)]
    TooManyThreads(u32),
    /// No such thread.
    #[error("instance {0} has no thread StreamThread-{1}")]
    UnknownThread(String, u32),
    /// No thread left to remove.
    #[error("instance {0} has no stream thread to remove")]
    NoThreads(String),
    /// Needs a topology.
    #[error("no topology is defined")]
    NoTopology,
    /// Partition out of range.
    #[error("topic {0} has no partition {1}")]
    NoSuchPartition(String, u32),
    /// Zero records.
    #[error("produce at least 1 record")]
    ZeroRecords,
    /// Too many records at once.
    #[error("{0} records at once is more than the limit of 10^12")]
    TooManyRecords(u64),
    /// A config key or value was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A task id the topology does not have.
    #[error("task {0} does not exist in the topology")]
    UnknownTask(TaskId),
    /// A stateless task cannot have a standby, offsets or a changelog end.
    #[error("task {0} is stateless (no changelog)")]
    StatelessTask(TaskId),
    /// A task listed twice for one instance.
    #[error("task {task} is listed twice for instance {instance}")]
    TaskListedTwice {
        /// Instance.
        instance: String,
        /// Task.
        task: TaskId,
    },
    /// `restoring` names a task that is not one of the instance's actives.
    #[error("task {task} is not an active task of {instance}, so it cannot be restoring")]
    NotActive {
        /// Instance.
        instance: String,
        /// Task.
        task: TaskId,
    },
    /// Racks for the wrong number of partitions.
    #[error("topic {topic} has {partitions} partitions but racks were given for {given}")]
    RackListLength {
        /// Topic.
        topic: String,
        /// Its partitions.
        partitions: u32,
        /// Lists given.
        given: usize,
    },
    /// Bad value.
    #[error("bad config: {0}")]
    BadConfig(String),
}

/// Most records one `Produce` may carry.
pub const MAX_RECORDS: u64 = 1_000_000_000_000;

/// A Kafka Streams application simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    config: Config,
    rng: SimRng,
    now_ms: u64,
    topics: BTreeMap<String, Topic>,
    topology: Option<Topology>,
    tasks: Vec<TaskInfo>,
    end: BTreeMap<TaskId, u64>,
    instances: BTreeMap<String, Instance>,
    generation: u64,
    probing_at_ms: Option<u64>,
    metrics: Metrics,
    /// Racks of each changelog partition set by `set_partition_racks`, by changelog topic.
    changelog_racks: BTreeMap<String, Vec<Vec<String>>>,
}

fn check_tags(cfg: &Config, name: &str, tags: &BTreeMap<String, String>) -> Result<(), Error> {
    if tags.len() > MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE {
        return Err(Error::TooManyRackTags(tags.len()));
    }
    for (k, v) in tags {
        if k.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH {
            return Err(Error::TagKeyTooLong(k.clone()));
        }
        if v.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH {
            return Err(Error::TagValueTooLong(v.clone()));
        }
    }
    for k in &cfg.rack_aware_assignment_tags {
        if !tags.contains_key(k) {
            return Err(Error::MissingRackTag {
                instance: name.to_string(),
                key: k.clone(),
            });
        }
    }
    Ok(())
}

impl Sim {
    /// Simulated time (ms).
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Topics by name.
    pub fn topics(&self) -> &BTreeMap<String, Topic> {
        &self.topics
    }

    /// The topology, once defined.
    pub fn topology(&self) -> Option<&Topology> {
        self.topology.as_ref()
    }

    /// Tasks in id order.
    pub fn tasks(&self) -> &[TaskInfo] {
        &self.tasks
    }

    /// Instances by name.
    pub fn instances(&self) -> &BTreeMap<String, Instance> {
        &self.instances
    }

    /// One instance.
    pub fn instance(&self, name: &str) -> Option<&Instance> {
        self.instances.get(name)
    }

    /// Current generation (number of completed rebalances).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// When the next probing rebalance fires, if one is scheduled.
    pub fn probing_rebalance_at_ms(&self) -> Option<u64> {
        self.probing_at_ms
    }

    /// Changelog end offset sum of a task.
    pub fn end_offset(&self, t: TaskId) -> u64 {
        self.end.get(&t).copied().unwrap_or(0)
    }

    /// Running totals.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The instance running `t` as active.
    pub fn active_owner(&self, t: TaskId) -> Option<&str> {
        self.instances
            .values()
            .find(|i| i.threads.iter().any(|th| th.active.contains(&t)))
            .map(|i| i.name.as_str())
    }

    /// Instances holding `t` as standby or warm-up.
    pub fn standby_owners(&self, t: TaskId) -> Vec<&str> {
        self.instances
            .values()
            .filter(|i| i.threads.iter().any(|th| th.standby.contains(&t)))
            .map(|i| i.name.as_str())
            .collect()
    }

    /// The lag of `t` on instance `name` (end − local offset).
    pub fn lag(&self, name: &str, t: TaskId) -> Option<u64> {
        let i = self.instances.get(name)?;
        let end = self.end_offset(t);
        Some(end.saturating_sub(i.local.get(&t).copied().unwrap_or(0)))
    }

    /// Members of the group in the assignor's order (process id).
    pub fn members(&self) -> Vec<&Instance> {
        let mut v: Vec<&Instance> = self.instances.values().filter(|i| i.is_member()).collect();
        // Process ids are unique, so an unstable sort is deterministic.
        v.sort_unstable_by_key(|i| i.process_id);
        v
    }

    /// Everything a UI draws, in one serializable value.
    pub fn view(&self) -> View {
        view::build(self)
    }

    fn define_topic(
        &mut self,
        name: &str,
        partitions: u32,
        racks: &[String],
        rf: u32,
    ) -> Result<Vec<Event>, Error> {
        if name.is_empty()
            || name.len() > 249
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(Error::BadName("topic".into(), name.to_string()));
        }
        if partitions == 0 {
            return Err(Error::ZeroPartitions(name.to_string()));
        }
        if partitions > topology::MAX_PARTITIONS {
            return Err(Error::TooManyPartitions(partitions));
        }
        if self.topics.contains_key(name) {
            return Err(Error::TopicExists(name.to_string()));
        }
        if racks.iter().any(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        let topic = Topic {
            name: name.to_string(),
            partitions,
            racks: racks.to_vec(),
            replication_factor: rf.max(1),
            end_offsets: vec![0; partitions as usize],
            partition_racks: None,
        };
        self.topics.insert(name.to_string(), topic);
        Ok(vec![Event::TopicDefined {
            topic: name.to_string(),
            partitions,
            racks: racks.to_vec(),
        }])
    }

    fn define_topology(
        &mut self,
        specs: &[SubtopologySpec],
        groups: &[Vec<String>],
    ) -> Result<Vec<Event>, Error> {
        let (topo, tasks) = Topology::build(&self.config.application_id, specs, groups, &self.topics)?;
        let ids: BTreeSet<TaskId> = tasks.iter().map(|t| t.id).collect();
        self.end.retain(|t, _| ids.contains(t));
        for t in &tasks {
            if t.stateful() {
                self.end.entry(t.id).or_insert(0);
            } else {
                self.end.remove(&t.id);
            }
        }
        for inst in self.instances.values_mut() {
            for th in &mut inst.threads {
                th.active.retain(|t| ids.contains(t));
                th.standby.retain(|t| ids.contains(t));
            }
            inst.restoring.retain(|t, _| ids.contains(t));
            inst.warmups.retain(|t| ids.contains(t));
        }
        let ev = Event::TopologyDefined {
            subtopologies: topo.subtopologies.len() as u32,
            tasks: tasks.len() as u32,
            stateful_tasks: tasks.iter().filter(|t| t.stateful()).count() as u32,
            tasks_per_subtopology: topo.subtopologies.iter().map(|s| s.tasks).collect(),
            changelogs: topo
                .subtopologies
                .iter()
                .flat_map(|s| s.changelogs.iter().cloned())
                .collect(),
        };
        let names: BTreeMap<&String, u32> = topo
            .subtopologies
            .iter()
            .flat_map(|s| s.changelogs.iter().map(move |c| (c, s.tasks)))
            .collect();
        self.changelog_racks
            .retain(|c, v| names.get(c).is_some_and(|&n| n as usize == v.len()));
        self.topology = Some(topo);
        self.tasks = tasks;
        let mut out = vec![ev];
        out.extend(self.maybe_rebalance("topology defined"));
        Ok(out)
    }

    fn add_instance(
        &mut self,
        name: &str,
        threads: Option<u32>,
        rack: &Option<String>,
        tags: &BTreeMap<String, String>,
        pid: Option<ProcessId>,
    ) -> Result<Vec<Event>, Error> {
        if name.is_empty() {
            return Err(Error::BadName("instance".into(), name.to_string()));
        }
        if self.instances.contains_key(name) {
            return Err(Error::InstanceExists(name.to_string()));
        }
        if self.instances.len() >= MAX_INSTANCES {
            return Err(Error::TooManyInstances(MAX_INSTANCES));
        }
        let n = threads.unwrap_or(self.config.num_stream_threads);
        if n > MAX_THREADS {
            return Err(Error::TooManyThreads(n));
        }
        if rack.as_ref().is_some_and(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        check_tags(&self.config, name, tags)?;
        if let Some(p) = pid {
            if self.instances.values().any(|i| i.process_id == p) {
                return Err(Error::DuplicateProcessId(p.to_string()));
            }
        }
        // Validation done: from here on nothing fails.
        let pid = match pid {
            Some(p) => p,
            None => loop {
                let p = ProcessId::random(self.rng.next_u64(), self.rng.next_u64());
                if !self.instances.values().any(|i| i.process_id == p) {
                    break p;
                }
            },
        };
        let inst = Instance {
            name: name.to_string(),
            process_id: pid,
            status: InstanceStatus::Running,
            rack: rack.clone(),
            tags: tags.clone(),
            threads: (1..=n)
                .map(|index| StreamThread {
                    index,
                    active: vec![],
                    standby: vec![],
                })
                .collect(),
            local: BTreeMap::new(),
            restoring: BTreeMap::new(),
            warmups: BTreeSet::new(),
            shared_name: name.into(),
            member_of: None,
        };
        self.instances.insert(name.to_string(), inst);
        let mut out = vec![Event::InstanceAdded {
            instance: name.to_string(),
            process_id: pid,
            threads: n,
            rack: rack.clone(),
        }];
        out.extend(self.maybe_rebalance(&format!("instance {name} joined")));
        Ok(out)
    }

    fn instance_mut(&mut self, name: &str) -> Result<&mut Instance, Error> {
        self.instances
            .get_mut(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))
    }

    fn remove_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self
            .instances
            .remove(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))?;
        let mut out = vec![Event::InstanceRemoved {
            instance: name.to_string(),
            active_released: inst.active_tasks().into_iter().collect(),
        }];
        if inst.is_member() {
            out.extend(self.maybe_rebalance(&format!("instance {name} left")));
        }
        Ok(out)
    }

    fn crash_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let active_lost: Vec<TaskId> = inst.active_tasks().into_iter().collect();
        let standby_lost = inst.standby_tasks().len() as u32;
        let was_member = inst.is_member();
        inst.status = InstanceStatus::Crashed;
        inst.clear_assignment();
        let mut out = vec![Event::InstanceCrashed {
            instance: name.to_string(),
            active_lost,
            standby_lost,
        }];
        if was_member {
            out.extend(self.maybe_rebalance(&format!("instance {name} crashed")));
        }
        Ok(out)
    }

    fn restart_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Crashed {
            return Err(Error::NotCrashed(name.to_string()));
        }
        inst.status = InstanceStatus::Running;
        let held = inst.local.len() as u32;
        let member = inst.is_member();
        let mut out = vec![Event::InstanceRestarted {
            instance: name.to_string(),
            tasks_with_local_state: held,
        }];
        if member {
            out.extend(self.maybe_rebalance(&format!("instance {name} restarted")));
        }
        Ok(out)
    }

    fn add_thread(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        if inst.threads.len() as u32 >= MAX_THREADS {
            return Err(Error::TooManyThreads(inst.threads.len() as u32 + 1));
        }
        let index = inst.next_thread_index();
        inst.threads.push(StreamThread {
            index,
            active: vec![],
            standby: vec![],
        });
        let n = inst.threads.len() as u32;
        let mut out = vec![Event::ThreadAdded {
            instance: name.to_string(),
            thread: index,
            threads: n,
        }];
        out.extend(self.maybe_rebalance(&format!("{name} added StreamThread-{index}")));
        Ok(out)
    }

    fn remove_thread(&mut self, name: &str, which: Option<u32>) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let pos = match which {
            Some(i) => inst
                .threads
                .iter()
                .position(|t| t.index == i)
                .ok_or_else(|| Error::UnknownThread(name.to_string(), i))?,
            None if inst.threads.is_empty() => return Err(Error::NoThreads(name.to_string())),
            None => 0,
        };
        let th = inst.threads.remove(pos);
        for t in &th.active {
            inst.restoring.remove(t);
        }
        for t in &th.standby {
            inst.warmups.remove(t);
        }
        let n = inst.threads.len() as u32;
        let mut out = vec![Event::ThreadRemoved {
            instance: name.to_string(),
            thread: th.index,
            threads: n,
        }];
        out.extend(self.maybe_rebalance(&format!("{name} removed StreamThread-{}", th.index)));
        Ok(out)
    }

    fn produce(
        &mut self,
        topic: &str,
        key: &Option<String>,
        partition: Option<u32>,
        records: u64,
    ) -> Result<Vec<Event>, Error> {
        let t = self
            .topics
            .get(topic)
            .ok_or_else(|| Error::UnknownTopic(topic.to_string()))?;
        if records == 0 {
            return Err(Error::ZeroRecords);
        }
        if records > MAX_RECORDS {
            return Err(Error::TooManyRecords(records));
        }
        let n = t.partitions;
        let mut hash = None;
        let parts: Vec<(u32, u64)> = match (partition, key) {
            (Some(p), _) => {
                if p >= n {
                    return Err(Error::NoSuchPartition(topic.to_string(), p));
                }
                if let Some(k) = key {
                    hash = Some(partitioner::murmur2(k.as_bytes()));
                }
                vec![(p, records)]
            }
            (None, Some(k)) => {
                let h = partitioner::murmur2(k.as_bytes());
                hash = Some(h);
                vec![(partitioner::to_positive(h) as u32 % n, records)]
            }
            (None, None) => (0..n)
                .map(|p| {
                    (
                        p,
                        records / u64::from(n) + u64::from(u64::from(p) < records % u64::from(n)),
                    )
                })
                .filter(|x| x.1 > 0)
                .collect(),
        };
        let single = if parts.len() == 1 && (partition.is_some() || key.is_some()) {
            Some(parts[0].0)
        } else {
            None
        };
        let mut touched = Vec::new();
        if let Some(tp) = self.topics.get_mut(topic) {
            for &(p, c) in &parts {
                if let Some(o) = tp.end_offsets.get_mut(p as usize) {
                    *o = o.saturating_add(c);
                }
            }
        }
        if let Some(topo) = &self.topology {
            for s in &topo.subtopologies {
                if !s.sources.iter().any(|x| x == topic) {
                    continue;
                }
                for &(p, c) in &parts {
                    let id = TaskId::new(s.id, p);
                    touched.push(id);
                    if let Some(e) = self.end.get_mut(&id) {
                        *e = e.saturating_add(c.saturating_mul(s.changelogs.len() as u64));
                    }
                }
            }
        }
        touched.sort();
        // Running actives process at once: their local state follows the changelog end.
        for inst in self.instances.values_mut() {
            if inst.status != InstanceStatus::Running {
                continue;
            }
            for th in &inst.threads {
                for id in &th.active {
                    if touched.binary_search(id).is_ok() && !inst.restoring.contains_key(id) {
                        if let Some(&e) = self.end.get(id) {
                            inst.local.insert(*id, e);
                        }
                    }
                }
            }
        }
        Ok(vec![Event::Produced {
            topic: topic.to_string(),
            partition: single,
            key: key.clone(),
            murmur2: hash,
            records,
            tasks: touched,
        }])
    }

    fn task_info(&self, t: TaskId) -> Result<&TaskInfo, Error> {
        if self.topology.is_none() {
            return Err(Error::NoTopology);
        }
        self.tasks
            .binary_search_by_key(&t, |x| x.id)
            .map(|i| &self.tasks[i])
            .map_err(|_| Error::UnknownTask(t))
    }

    fn set_assignment(
        &mut self,
        name: &str,
        threads: &[ThreadAssignmentSpec],
        restoring: &[TaskId],
    ) -> Result<Vec<Event>, Error> {
        let inst = self
            .instances
            .get(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let mut seen_threads = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut actives = BTreeSet::new();
        for th in threads {
            if !inst.threads.iter().any(|x| x.index == th.thread) || !seen_threads.insert(th.thread) {
                return Err(Error::UnknownThread(name.to_string(), th.thread));
            }
            for &t in th.active.iter().chain(th.standby.iter()) {
                self.task_info(t)?;
                if !seen.insert(t) {
                    return Err(Error::TaskListedTwice {
                        instance: name.to_string(),
                        task: t,
                    });
                }
            }
            for &t in &th.standby {
                if !self.task_info(t)?.stateful() {
                    return Err(Error::StatelessTask(t));
                }
            }
            actives.extend(th.active.iter().copied());
        }
        for &t in restoring {
            if !actives.contains(&t) {
                return Err(Error::NotActive {
                    instance: name.to_string(),
                    task: t,
                });
            }
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        // Validation done: from here on nothing fails.
        let elsewhere: Vec<TaskId> = actives
            .iter()
            .copied()
            .filter(|t| {
                self.instances
                    .values()
                    .any(|i| i.name != name && i.threads.iter().any(|th| th.active.contains(t)))
            })
            .collect();
        let now = self.now_ms;
        let ends: BTreeMap<TaskId, u64> = seen.iter().map(|t| (*t, self.end_offset(*t))).collect();
        let stateful: BTreeSet<TaskId> = seen
            .iter()
            .copied()
            .filter(|t| self.end.contains_key(t))
            .collect();
        let inst = self.instances.get_mut(name).expect("checked above");
        inst.clear_assignment();
        for th in &mut inst.threads {
            if let Some(spec) = threads.iter().find(|x| x.thread == th.index) {
                th.active = spec.active.clone();
                th.standby = spec.standby.clone();
            }
        }
        for &t in &actives {
            if !stateful.contains(&t) {
                continue;
            }
            let end = ends.get(&t).copied().unwrap_or(0);
            if restoring.contains(&t) {
                let local = inst.local.get(&t).copied().unwrap_or(0).min(end);
                inst.local.insert(t, local);
                inst.restoring.insert(
                    t,
                    client::Restoring {
                        since_ms: now,
                        lag_at_start: end - local,
                    },
                );
            } else {
                inst.local.insert(t, end);
            }
        }
        for th in threads {
            for &t in &th.standby {
                inst.local.entry(t).or_insert(0);
            }
        }
        let loads = inst
            .threads
            .iter()
            .map(|th| ThreadLoad {
                thread: th.index,
                active: th.active.clone(),
                standby: th.standby.clone(),
            })
            .collect();
        let mut restoring: Vec<TaskId> = restoring.to_vec();
        restoring.sort();
        restoring.dedup();
        Ok(vec![Event::AssignmentSet {
            instance: name.to_string(),
            threads: loads,
            restoring,
            also_active_elsewhere: elsewhere,
        }])
    }

    fn set_task_offsets(&mut self, name: &str, offsets: &BTreeMap<TaskId, u64>) -> Result<Vec<Event>, Error> {
        if !self.instances.contains_key(name) {
            return Err(Error::UnknownInstance(name.to_string()));
        }
        for &t in offsets.keys() {
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        let ends: BTreeMap<TaskId, u64> = offsets.keys().map(|t| (*t, self.end_offset(*t))).collect();
        let inst = self.instances.get_mut(name).expect("checked above");
        let mut out = Vec::with_capacity(offsets.len());
        for (&t, &o) in offsets {
            inst.local.insert(t, o);
            let end = ends.get(&t).copied().unwrap_or(0);
            out.push(TaskOffset {
                task: t,
                offset: o,
                end,
                lag: if o > end { end } else { end - o },
            });
        }
        Ok(vec![Event::TaskOffsetsSet {
            instance: name.to_string(),
            offsets: out,
        }])
    }

    fn set_end_offsets(&mut self, offsets: &BTreeMap<TaskId, u64>) -> Result<Vec<Event>, Error> {
        for &t in offsets.keys() {
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        for (&t, &o) in offsets {
            self.end.insert(t, o);
        }
        // A running active writes its changelog, so its local state follows the end.
        for inst in self.instances.values_mut() {
            for th in &inst.threads {
                for t in &th.active {
                    if let (Some(&o), false) = (offsets.get(t), inst.restoring.contains_key(t)) {
                        inst.local.insert(*t, o);
                    }
                }
            }
        }
        Ok(vec![Event::EndOffsetsSet {
            offsets: offsets.clone(),
        }])
    }

    fn set_partition_racks(&mut self, topic: &str, racks: &[Vec<String>]) -> Result<Vec<Event>, Error> {
        let partitions = if let Some(t) = self.topics.get(topic) {
            t.partitions
        } else {
            self.topology
                .as_ref()
                .and_then(|topo| {
                    topo.subtopologies
                        .iter()
                        .find(|s| s.changelogs.iter().any(|c| c == topic))
                        .map(|s| s.tasks)
                })
                .ok_or_else(|| Error::UnknownTopic(topic.to_string()))?
        };
        if racks.len() != partitions as usize {
            return Err(Error::RackListLength {
                topic: topic.to_string(),
                partitions,
                given: racks.len(),
            });
        }
        if racks.iter().flatten().any(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        let sorted: Vec<Vec<String>> = racks
            .iter()
            .map(|v| v.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect())
            .collect();
        if let Some(t) = self.topics.get_mut(topic) {
            t.partition_racks = Some(sorted.clone());
        } else {
            self.changelog_racks.insert(topic.to_string(), sorted.clone());
        }
        Ok(vec![Event::PartitionRacksSet {
            topic: topic.to_string(),
            racks: sorted,
        }])
    }

    fn set_config(&mut self, change: &ConfigChange<Config>) -> Result<Vec<Event>, Error> {
        let cfg = change.config.apply_to(&self.config)?;
        cfg.validate()?;
        for inst in self.instances.values() {
            check_tags(&cfg, &inst.name, &inst.tags)?;
        }
        let after = schema::to_object(&cfg);
        let unmodelled = change.config.unmodelled_keys();
        self.config = cfg;
        let mut out: Vec<Event> = change
            .config
            .values()
            .keys()
            .map(|k| Event::ConfigSet {
                key: k.clone(),
                value: after.get(k).cloned().unwrap_or(serde_json::Value::Null),
            })
            .collect();
        out.extend(unmodelled.into_iter().map(|k| Event::Warning {
            message: format!("{k} is a Kafka Streams setting that lbscope does not model: it is kept in the scenario and changes nothing here"),
        }));
        Ok(out)
    }

    fn advance(&mut self, ms: u64) -> Vec<Event> {
        let from = self.now_ms;
        let target = self.now_ms.saturating_add(ms);
        let mut out = Vec::new();
        // Each probing rebalance is at least a minute after the previous one, so
        // this loop ends; the cap guards absurd time jumps.
        for _ in 0..100_000 {
            let step_to = match self.probing_at_ms {
                Some(p) if p <= target => p.max(self.now_ms),
                _ => target,
            };
            out.extend(state::progress(self, step_to));
            self.now_ms = step_to;
            if self.probing_at_ms.is_some_and(|p| p <= self.now_ms) {
                self.probing_at_ms = None;
                self.metrics.probing_rebalances += 1;
                out.extend(self.rebalance("probing rebalance"));
            }
            if self.now_ms >= target {
                break;
            }
        }
        self.now_ms = target;
        out.insert(
            0,
            Event::TimeAdvanced {
                from_ms: from,
                to_ms: target,
            },
        );
        out
    }

    fn maybe_rebalance(&mut self, trigger: &str) -> Vec<Event> {
        if self.topology.is_some() {
            self.rebalance(trigger)
        } else {
            Vec::new()
        }
    }

    fn rebalance(&mut self, trigger: &str) -> Vec<Event> {
        state::rebalance(self, trigger)
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Kstreams;

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        config.validate()?;
        Ok(Sim {
            config,
            rng: SimRng::new(seed),
            now_ms: 0,
            topics: BTreeMap::new(),
            topology: None,
            tasks: Vec::new(),
            end: BTreeMap::new(),
            instances: BTreeMap::new(),
            generation: 0,
            probing_at_ms: None,
            metrics: Metrics::default(),
            changelog_racks: BTreeMap::new(),
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        match action {
            Action::DefineTopic {
                topic,
                partitions,
                racks,
                replication_factor,
            } => self.define_topic(topic, *partitions, racks, *replication_factor),
            Action::DefineTopology {
                subtopologies,
                copartition_groups,
            } => self.define_topology(subtopologies, copartition_groups),
            Action::AddInstance {
                name,
                threads,
                rack,
                tags,
                process_id,
            } => self.add_instance(name, *threads, rack, tags, *process_id),
            Action::RemoveInstance { name } => self.remove_instance(name),
            Action::CrashInstance { name } => self.crash_instance(name),
            Action::RestartInstance { name } => self.restart_instance(name),
            Action::AddThread { instance } => self.add_thread(instance),
            Action::RemoveThread { instance, thread } => self.remove_thread(instance, *thread),
            Action::Produce {
                topic,
                key,
                partition,
                records,
            } => self.produce(topic, key, *partition, *records),
            Action::AdvanceTime { ms } => Ok(self.advance(*ms)),
            Action::Rebalance => {
                if self.topology.is_none() {
                    return Err(Error::NoTopology);
                }
                Ok(self.rebalance("requested"))
            }
            Action::SetAssignment {
                instance,
                threads,
                restoring,
            } => self.set_assignment(instance, threads, restoring),
            Action::SetTaskOffsets { instance, offsets } => self.set_task_offsets(instance, offsets),
            Action::SetEndOffsets { offsets } => self.set_end_offsets(offsets),
            Action::SetPartitionRacks { topic, racks } => self.set_partition_racks(topic, racks),
            Action::SetConfig(change) => self.set_config(change),
        }
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn round_action() -> Action {
        Action::Rebalance
    }

    fn set_config(change: ConfigChange<Config>) -> Action {
        Action::SetConfig(change)
    }

    fn wrap(action: Action) -> AnyAction {
        AnyAction::Kstreams(action)
    }

    fn unwrap(any: &AnyAction) -> Option<&Action> {
        match any {
            AnyAction::Kstreams(a) => Some(a),
            _ => None,
        }
    }

    fn subject(event: &Event) -> Option<Subject> {
        subject::of(event)
    }

    fn changes(before: &Sim, after: &Sim) -> Vec<String> {
        let mut out: Vec<String> = before
            .tasks()
            .iter()
            .filter_map(|t| {
                let (a, b) = (before.active_owner(t.id), after.active_owner(t.id));
                (a != b).then(|| {
                    format!(
                        "task {}: {} → {}",
                        t.id,
                        a.unwrap_or("nobody"),
                        b.unwrap_or("nobody")
                    )
                })
            })
            .collect();
        if out.is_empty() {
            out.push("no active task would move".into());
        }
        out
    }

    fn series(events: &mut dyn Iterator<Item = &Event>) -> Vec<Series> {
        let gens: Vec<(f64, [f64; 4])> = events
            .filter_map(|e| match e {
                Event::RebalanceCompleted {
                    generation,
                    moved,
                    idle_instances,
                    max_restore_ms,
                    warmups,
                    ..
                } => Some((
                    *generation as f64,
                    [
                        f64::from(*moved),
                        f64::from(*idle_instances),
                        *max_restore_ms as f64,
                        f64::from(*warmups),
                    ],
                )),
                _ => None,
            })
            .collect();
        vec![
            Series::of("tasks moved", "", &gens, |g| g[0]),
            Series::of("idle instances", "", &gens, |g| g[1]),
            Series::of("longest restore", "ms", &gens, |g| g[2]),
            Series::of("warm-ups", "", &gens, |g| g[3]),
        ]
    }

    fn view_json(&self) -> serde_json::Value {
        serde_json::to_value(self.view()).unwrap_or_default()
    }

    fn invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }

    /// The task assignors ([`assignor::REGISTRY`]): each entry's `key` set to its
    /// `name` (a string) over the default config selects it.
    fn strategies() -> Vec<super::strategy::StrategyInfo> {
        assignor::infos()
    }
}

impl Action {
    /// Set one key, by its Kafka name (checked against the schema).
    pub fn set_config(key: &str, value: serde_json::Value) -> Result<Action, ConfigError> {
        Ok(Action::SetConfig(ConfigChange::one(key, value)?))
    }
}

impl schema::Schema for Config {
    fn knobs() -> &'static [schema::Knob] {
        knobs::KNOBS
    }

    fn profiles() -> Vec<(&'static str, Config)> {
        vec![("kafka-streams", Config::default())]
    }

    fn rules(&self) -> Result<(), String> {
        self.validate().map_err(|e| e.to_string())
    }

    fn unmodelled(&self) -> &BTreeMap<String, serde_json::Value> {
        &self.unmodelled
    }

    fn compare_keys() -> &'static [&'static str] {
        &[
            "internal.task.assignor.class",
            "group.protocol",
            "rack.aware.assignment.strategy",
        ]
    }
}
