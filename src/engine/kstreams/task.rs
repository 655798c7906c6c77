//! Tasks: the fixed unit of parallelism. A task `s_p` runs sub-topology `s` on
//! partition `p` of each of its source topics (Kafka's `PartitionGrouper`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A topic partition, printed as Kafka prints it: `topic-3`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TopicPartition {
    /// Topic name.
    pub topic: String,
    /// Partition number.
    pub partition: u32,
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// Kafka's `TaskId`: sub-topology id and partition, ordered by sub-topology then
/// partition (as `TaskId.compareTo`), written `0_1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId {
    /// Sub-topology (Kafka's "topic group id").
    pub subtopology: u32,
    /// Partition number.
    pub partition: u32,
}

impl TaskId {
    /// `TaskId { subtopology, partition }`.
    pub fn new(subtopology: u32, partition: u32) -> Self {
        TaskId {
            subtopology,
            partition,
        }
    }

    /// Parse `"s_p"`.
    pub fn parse(s: &str) -> Option<TaskId> {
        let (a, b) = s.split_once('_')?;
        Some(TaskId::new(a.parse().ok()?, b.parse().ok()?))
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

impl Serialize for TaskId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TaskId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        TaskId::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("bad task id {s:?}, expected s_p")))
    }
}

/// Everything the assignor needs to know about one task.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskInfo {
    /// Its id.
    pub id: TaskId,
    /// The source partitions it consumes (one per source topic that has partition `p`).
    pub source_partitions: Vec<TopicPartition>,
    /// Its changelog partitions (one per logged store of the sub-topology).
    pub changelog_partitions: Vec<TopicPartition>,
}

impl TaskInfo {
    /// Kafka treats a task as stateful iff it has changelog partitions.
    pub fn stateful(&self) -> bool {
        !self.changelog_partitions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_order_and_print_like_kafka() {
        let mut v = vec![TaskId::new(1, 0), TaskId::new(0, 10), TaskId::new(0, 2)];
        v.sort();
        assert_eq!(v, vec![TaskId::new(0, 2), TaskId::new(0, 10), TaskId::new(1, 0)]);
        assert_eq!(TaskId::new(0, 10).to_string(), "0_10");
        assert_eq!(TaskId::parse("3_4"), Some(TaskId::new(3, 4)));
        assert_eq!(TaskId::parse("3-4"), None);
        let j = serde_json::to_string(&TaskId::new(2, 7)).unwrap();
        assert_eq!(j, "\"2_7\"");
        assert_eq!(serde_json::from_str::<TaskId>(&j).unwrap(), TaskId::new(2, 7));
    }
}
