//! Serializable, read-only pictures of the simulation for a UI: partitions →
//! tasks, instances × threads with active / standby / warm-up replicas, racks,
//! lags and metrics.

use super::client::{InstanceStatus, ProcessId};
use super::task::{TaskId, TopicPartition};
use super::topology::{Topic, Topology};
use super::{Config, Role, Sim, ThreadLoad};
use crate::sort::StableSort;
use serde::Serialize;
use std::collections::BTreeMap;

/// Running totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Rebalances run.
    pub rebalances: u64,
    /// Of which probing rebalances.
    pub probing_rebalances: u64,
    /// Active placements that changed (including first placements).
    pub tasks_moved: u64,
    /// Moved in the last rebalance.
    pub last_rebalance_moved: u64,
    /// Records replayed from changelogs by restoring actives.
    pub records_restored: u64,
    /// Sum of finished active restore times.
    pub restore_ms_total: u64,
    /// Longest finished active restore.
    pub max_restore_ms: u64,
}

/// One task.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskView {
    /// Id.
    pub id: TaskId,
    /// Has a changelog.
    pub stateful: bool,
    /// Source partitions.
    pub source_partitions: Vec<TopicPartition>,
    /// Changelog partitions.
    pub changelog_partitions: Vec<TopicPartition>,
    /// Changelog end offset sum.
    pub end_offset: u64,
    /// Active instance.
    pub active: Option<String>,
    /// Standby instances (without warm-ups).
    pub standbys: Vec<String>,
    /// Warm-up instances.
    pub warmups: Vec<String>,
    /// The active is still restoring.
    pub restoring: bool,
}

/// One replica on an instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplicaView {
    /// Task.
    pub task: TaskId,
    /// Role.
    pub role: Role,
    /// Thread index.
    pub thread: u32,
    /// Local changelog offset sum.
    pub local_offset: u64,
    /// end − local.
    pub lag: u64,
    /// Active still restoring.
    pub restoring: bool,
}

/// One instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstanceView {
    /// Name.
    pub name: String,
    /// Process id.
    pub process_id: ProcessId,
    /// Position in the assignor's order (members only).
    pub order: Option<usize>,
    /// Status.
    pub status: InstanceStatus,
    /// `client.rack`.
    pub rack: Option<String>,
    /// Client tags.
    pub tags: BTreeMap<String, String>,
    /// Threads.
    pub threads: Vec<ThreadLoad>,
    /// Replicas with their lags.
    pub replicas: Vec<ReplicaView>,
    /// Tasks it holds state for without running them.
    pub state_dir_only: Vec<TaskId>,
    /// Has at least one active task.
    pub busy: bool,
}

/// The whole picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Simulated time.
    pub now_ms: u64,
    /// Generation.
    pub generation: u64,
    /// Next probing rebalance.
    pub probing_rebalance_at_ms: Option<u64>,
    /// Config.
    pub config: Config,
    /// Topics.
    pub topics: Vec<Topic>,
    /// Topology.
    pub topology: Option<Topology>,
    /// Tasks.
    pub tasks: Vec<TaskView>,
    /// Instances in name order.
    pub instances: Vec<InstanceView>,
    /// Metrics.
    pub metrics: Metrics,
}

/// Build the view.
pub fn build(sim: &Sim) -> View {
    let order: BTreeMap<String, usize> = sim
        .members()
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name.clone(), i))
        .collect();
    let mut tasks: Vec<TaskView> = sim
        .tasks
        .iter()
        .map(|t| TaskView {
            id: t.id,
            stateful: t.stateful(),
            source_partitions: t.source_partitions.clone(),
            changelog_partitions: t.changelog_partitions.clone(),
            end_offset: sim.end_offset(t.id),
            active: None,
            standbys: vec![],
            warmups: vec![],
            restoring: false,
        })
        .collect();
    let pos: BTreeMap<TaskId, usize> = tasks.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    let mut instances = Vec::new();
    for inst in sim.instances.values() {
        let mut replicas = Vec::new();
        for th in &inst.threads {
            for &t in &th.active {
                let end = sim.end_offset(t);
                let local = inst.local.get(&t).copied().unwrap_or(0);
                let restoring = inst.restoring.contains_key(&t);
                if let Some(&i) = pos.get(&t) {
                    tasks[i].active = Some(inst.name.clone());
                    tasks[i].restoring = restoring;
                }
                replicas.push(ReplicaView {
                    task: t,
                    role: Role::Active,
                    thread: th.index,
                    local_offset: local,
                    lag: end.saturating_sub(local),
                    restoring,
                });
            }
            for &t in &th.standby {
                let end = sim.end_offset(t);
                let local = inst.local.get(&t).copied().unwrap_or(0);
                let warm = inst.warmups.contains(&t);
                if let Some(&i) = pos.get(&t) {
                    if warm {
                        tasks[i].warmups.push(inst.name.clone());
                    } else {
                        tasks[i].standbys.push(inst.name.clone());
                    }
                }
                replicas.push(ReplicaView {
                    task: t,
                    role: if warm { Role::WarmUp } else { Role::Standby },
                    thread: th.index,
                    local_offset: local,
                    lag: end.saturating_sub(local),
                    restoring: false,
                });
            }
        }
        replicas.stable_sort_by_key(|r| (r.task, r.role));
        let held: Vec<TaskId> = inst
            .local
            .keys()
            .copied()
            .filter(|t| !replicas.iter().any(|r| r.task == *t))
            .collect();
        instances.push(InstanceView {
            name: inst.name.clone(),
            process_id: inst.process_id,
            order: order.get(&inst.name).copied(),
            status: inst.status,
            rack: inst.rack.clone(),
            tags: inst.tags.clone(),
            threads: inst
                .threads
                .iter()
                .map(|t| ThreadLoad {
                    thread: t.index,
                    active: t.active.clone(),
                    standby: t.standby.clone(),
                })
                .collect(),
            busy: replicas.iter().any(|r| r.role == Role::Active),
            replicas,
            state_dir_only: held,
        });
    }
    // Listed in natural name order (app-2 before app-10).
    crate::sort::sort_natural_by(&mut instances, |i| i.name.as_str());
    View {
        now_ms: sim.now_ms,
        generation: sim.generation,
        probing_rebalance_at_ms: sim.probing_at_ms,
        config: sim.config.clone(),
        topics: sim.topics.values().cloned().collect(),
        topology: sim.topology.clone(),
        tasks,
        instances,
        metrics: sim.metrics.clone(),
    }
}
