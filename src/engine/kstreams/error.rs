//! Why a Kafka Streams action was refused.

use super::topology;
use super::{
    TaskId, MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH, MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE,
    MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH, MAX_THREADS, MAX_TOTAL_THREADS,
};
use crate::engine::schema::ConfigError;

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
    /// Too many topics.
    #[error("{0} topics are defined; lbscope's limit is {max} topics", max = topology::MAX_TOPICS)]
    TooManyTopics(usize),
    /// Too many partitions over all topics.
    #[error("the topics have {have} partitions; {adding} more would pass lbscope's limit of {max} partitions over all topics", max = topology::MAX_TOTAL_PARTITIONS)]
    TooManyTotalPartitions {
        /// Partitions defined.
        have: u64,
        /// Partitions the action adds.
        adding: u64,
    },
    /// Too many threads over all instances.
    #[error("the instances run {have} stream threads; {adding} more would pass lbscope's limit of {max} threads over all instances", max = MAX_TOTAL_THREADS)]
    TooManyTotalThreads {
        /// Threads running.
        have: usize,
        /// Threads the action adds.
        adding: usize,
    },
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
    /// `warmups` names a task that is not one of the instance's standbys.
    #[error("task {task} is not a standby of {instance}, so it cannot be a warm-up")]
    NotStandby {
        /// Instance.
        instance: String,
        /// Task.
        task: TaskId,
    },
    /// More warm-ups than `max.warmup.replicas` over the group.
    #[error("{warmups} warm-ups over the group would pass max.warmup.replicas = {max}")]
    TooManyWarmups {
        /// Warm-ups there would be.
        warmups: usize,
        /// `max.warmup.replicas`.
        max: u32,
    },
    /// A task directory in use cannot be removed.
    #[error("task {task} is assigned to {instance}, so its directory cannot be removed")]
    TaskInUse {
        /// Instance.
        instance: String,
        /// Task.
        task: TaskId,
    },
    /// `assign_standbys` needs every task to have one active owner among the members.
    #[error("task {0} has no single active owner among the members, so standbys cannot be placed around fixed actives")]
    ActivesNotFixed(TaskId),
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
    /// A produce pattern's numbers were refused.
    #[error("invalid produce pattern: {0}")]
    Workload(String),
    /// Bad value.
    #[error("bad config: {0}")]
    BadConfig(String),
}
