//! Topics and the processor topology: sub-topologies with their source topics,
//! state stores and changelogs, and co-partition groups. Turning a topology into
//! tasks follows Kafka's `PartitionGrouper` and `CopartitionedTopicsEnforcer`.

use super::task::{TaskId, TaskInfo, TopicPartition};
use super::Error;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Most partitions one topic may have in the playground.
pub const MAX_PARTITIONS: u32 = 100_000;
/// Most topics, across all actions.
pub const MAX_TOPICS: usize = 10_000;
/// Most partitions over all topics, across all actions.
pub const MAX_TOTAL_PARTITIONS: u64 = 1_000_000;
/// Most tasks a topology may produce.
pub const MAX_TASKS: usize = 200_000;

/// A Kafka topic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Topic {
    /// Name.
    pub name: String,
    /// Partition count.
    pub partitions: u32,
    /// Broker racks the replicas are spread over (empty: brokers have no `broker.rack`).
    pub racks: Vec<String>,
    /// Replicas per partition.
    pub replication_factor: u32,
    /// Records produced so far, per partition (the partitions' end offsets).
    pub end_offsets: Vec<u64>,
    /// Racks of each partition's replicas set by `set_partition_racks` (overrides
    /// the round-robin rule of [`Topic::replica_racks`]; an empty list: no rack
    /// information for that partition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_racks: Option<Vec<Vec<String>>>,
}

impl Topic {
    /// The racks holding replicas of partition `p` (empty: no rack information).
    ///
    /// lbscope rule: replica `i` of partition `p` sits on `racks[(p + i) % racks.len()]`
    /// (a round-robin placement like the broker's rack-aware replica assignment, without its
    /// random start offset).
    pub fn replica_racks(&self, p: u32) -> BTreeSet<String> {
        if let Some(pr) = &self.partition_racks {
            return pr
                .get(p as usize)
                .map(|v| v.iter().cloned().collect())
                .unwrap_or_default();
        }
        let n = self.racks.len();
        if n == 0 {
            return BTreeSet::new();
        }
        (0..self.replication_factor.max(1) as usize)
            .map(|i| self.racks[(p as usize + i) % n].clone())
            .collect()
    }
}

/// One sub-topology as given by the user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtopologySpec {
    /// Source topics it reads.
    pub sources: Vec<String>,
    /// State store names.
    #[serde(default)]
    pub stores: Vec<String>,
    /// Whether the stores are change-logged (Kafka's default: yes). Without a
    /// changelog a task is stateless for the assignor.
    #[serde(default = "yes")]
    pub changelog: bool,
}

fn yes() -> bool {
    true
}

/// A validated topology.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Topology {
    /// Sub-topologies; the index is the sub-topology id.
    pub subtopologies: Vec<Subtopology>,
    /// Co-partition groups (sorted topic names).
    pub copartition_groups: Vec<Vec<String>>,
}

/// A validated sub-topology.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Subtopology {
    /// Its id.
    pub id: u32,
    /// Source topics (sorted, deduplicated).
    pub sources: Vec<String>,
    /// State stores.
    pub stores: Vec<String>,
    /// Changelog topics, `<application.id>-<store>-changelog`.
    pub changelogs: Vec<String>,
    /// Task count: the largest partition count among its sources.
    pub tasks: u32,
}

/// The `TreeMap.toString` Kafka prints in its co-partitioning error.
pub fn partition_counts_text(m: &BTreeMap<String, u32>) -> String {
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{{{}}}", inner.join(", "))
}

impl Topology {
    /// Validate a topology against the defined topics and derive its tasks.
    pub fn build(
        application_id: &str,
        specs: &[SubtopologySpec],
        copartition_groups: &[Vec<String>],
        topics: &BTreeMap<String, Topic>,
    ) -> Result<(Topology, Vec<TaskInfo>), Error> {
        if specs.is_empty() {
            return Err(Error::EmptyTopology);
        }
        let count = |t: &str| -> Result<u32, Error> {
            let topic = topics.get(t).ok_or_else(|| Error::UnknownTopic(t.to_string()))?;
            if topic.partitions == 0 {
                return Err(Error::ZeroPartitions(t.to_string()));
            }
            Ok(topic.partitions)
        };
        let mut groups = Vec::new();
        for g in copartition_groups {
            let mut counts = BTreeMap::new();
            for t in g {
                counts.insert(t.clone(), count(t)?);
            }
            let distinct: BTreeSet<u32> = counts.values().copied().collect();
            if distinct.len() > 1 {
                return Err(Error::NotCopartitioned(partition_counts_text(&counts)));
            }
            groups.push(counts.into_keys().collect::<Vec<_>>());
        }
        let mut subs = Vec::new();
        let mut tasks = Vec::new();
        let mut store_names = BTreeSet::new();
        let mut registered: BTreeSet<String> = BTreeSet::new();
        for (i, spec) in specs.iter().enumerate() {
            if spec.sources.is_empty() {
                return Err(Error::NoSources(i as u32));
            }
            let sources: Vec<String> = spec
                .sources
                .iter()
                .cloned()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            // Kafka's `InternalTopologyBuilder.validateTopicNotAlreadyRegistered`: a
            // topic is read by one source node, so by one sub-topology.
            for t in &sources {
                if !registered.insert(t.clone()) {
                    return Err(Error::TopicAlreadyRegistered(t.clone()));
                }
            }
            let mut max = 0;
            for t in &sources {
                max = max.max(count(t)?);
            }
            for s in &spec.stores {
                if s.is_empty() {
                    return Err(Error::BadName("store".into(), s.clone()));
                }
                if !store_names.insert(s.clone()) {
                    return Err(Error::DuplicateStore(s.clone()));
                }
            }
            let changelogs: Vec<String> = if spec.changelog {
                spec.stores
                    .iter()
                    .map(|s| format!("{application_id}-{s}-changelog"))
                    .collect()
            } else {
                Vec::new()
            };
            if tasks.len() + max as usize > MAX_TASKS {
                return Err(Error::TooManyTasks(MAX_TASKS));
            }
            for p in 0..max {
                tasks.push(TaskInfo {
                    id: TaskId::new(i as u32, p),
                    source_partitions: sources
                        .iter()
                        .filter(|t| topics.get(*t).is_some_and(|x| p < x.partitions))
                        .map(|t| TopicPartition {
                            topic: t.clone(),
                            partition: p,
                        })
                        .collect(),
                    changelog_partitions: changelogs
                        .iter()
                        .map(|c| TopicPartition {
                            topic: c.clone(),
                            partition: p,
                        })
                        .collect(),
                });
            }
            subs.push(Subtopology {
                id: i as u32,
                sources,
                stores: spec.stores.clone(),
                changelogs,
                tasks: max,
            });
        }
        Ok((
            Topology {
                subtopologies: subs,
                copartition_groups: groups,
            },
            tasks,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic(name: &str, n: u32) -> (String, Topic) {
        (
            name.to_string(),
            Topic {
                name: name.into(),
                partitions: n,
                racks: vec![],
                replication_factor: 1,
                end_offsets: vec![0; n as usize],
                partition_racks: None,
            },
        )
    }

    #[test]
    fn tasks_follow_the_max_partition_count() {
        let topics: BTreeMap<_, _> = [topic("a", 3), topic("b", 5)].into_iter().collect();
        let spec = SubtopologySpec {
            sources: vec!["a".into(), "b".into()],
            stores: vec!["agg".into()],
            changelog: true,
        };
        let (t, tasks) = Topology::build("app", &[spec], &[], &topics).unwrap();
        assert_eq!(t.subtopologies[0].tasks, 5);
        assert_eq!(tasks.len(), 5);
        assert_eq!(tasks[4].source_partitions.len(), 1, "only b has partition 4");
        assert_eq!(
            tasks[0].changelog_partitions[0].to_string(),
            "app-agg-changelog-0"
        );
        assert!(tasks[0].stateful());
    }

    #[test]
    fn copartition_mismatch_names_the_topics() {
        let topics: BTreeMap<_, _> = [topic("a", 3), topic("b", 5)].into_iter().collect();
        let spec = SubtopologySpec {
            sources: vec!["a".into(), "b".into()],
            stores: vec![],
            changelog: true,
        };
        let err = Topology::build("app", &[spec], &[vec!["b".into(), "a".into()]], &topics).unwrap_err();
        assert_eq!(err.to_string(), "Topics not co-partitioned: [{a=3, b=5}]");
    }
}
