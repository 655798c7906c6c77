//! Balance metrics: tasks per slot and per TaskManager, their max, min and range,
//! and the scheduling time.

use super::slot_sharing::SlotSharingPlan;
use super::task_manager::Cluster;
use serde::{Deserialize, Serialize};

/// Max, min and range (max - min) of a list of counts; all zero for an empty list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spread {
    /// Largest.
    pub max: u32,
    /// Smallest.
    pub min: u32,
    /// `max - min`.
    pub range: u32,
}

impl Spread {
    /// Spread of `xs`.
    pub fn of(xs: &[u32]) -> Spread {
        let max = xs.iter().copied().max().unwrap_or(0);
        let min = xs.iter().copied().min().unwrap_or(0);
        Spread {
            max,
            min,
            range: max - min,
        }
    }
}

/// A TaskManager and a count (tasks, slots, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TmCount {
    /// TaskManager name.
    pub tm: String,
    /// The count.
    pub n: u32,
}

/// Balance after a scheduling step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metrics {
    /// Tasks in each slot request, in request order (the doc's "tasks per slot").
    pub tasks_per_slot: Vec<u32>,
    /// Spread of `tasks_per_slot`.
    pub slot: Spread,
    /// Tasks on each running TaskManager, in registration order.
    pub tasks_per_tm: Vec<TmCount>,
    /// Spread over running TaskManagers (idle ones count as 0).
    pub tm: Spread,
    /// Slots holding a request on each running TaskManager.
    pub slots_used_per_tm: Vec<TmCount>,
    /// Simulated time from issuing the slot requests to the last match (ms).
    pub scheduling_time_ms: u64,
    /// Tasks on each running TaskManager counting another job's tasks (only when
    /// another job holds slots somewhere; empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_tasks_per_tm: Vec<TmCount>,
    /// Spread of `cluster_tasks_per_tm`.
    #[serde(default)]
    pub cluster_tm: Spread,
}

impl Metrics {
    /// Measure a placed plan on a cluster.
    pub fn measure(plan: &SlotSharingPlan, cluster: &Cluster, scheduling_time_ms: u64) -> Metrics {
        let tasks_per_slot = plan.tasks_per_request();
        let mut tasks_per_tm = Vec::new();
        let mut slots_used_per_tm = Vec::new();
        for t in cluster.tms.iter().filter(|t| t.is_running()) {
            let mut tasks = 0u32;
            let mut used = 0u32;
            for r in t.slots.iter().flatten() {
                used += 1;
                tasks += tasks_per_slot.get(*r as usize).copied().unwrap_or(0);
            }
            tasks_per_tm.push(TmCount {
                tm: t.name.clone(),
                n: tasks,
            });
            slots_used_per_tm.push(TmCount {
                tm: t.name.clone(),
                n: used,
            });
        }
        let counts: Vec<u32> = tasks_per_tm.iter().map(|c| c.n).collect();
        let others = cluster.tms.iter().any(|t| t.other_job.is_some());
        let cluster_tasks_per_tm: Vec<TmCount> = if others {
            cluster
                .tms
                .iter()
                .filter(|t| t.is_running())
                .zip(&tasks_per_tm)
                .map(|(t, c)| TmCount {
                    tm: c.tm.clone(),
                    n: c.n + t.other_job_tasks(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let cluster_counts: Vec<u32> = cluster_tasks_per_tm.iter().map(|c| c.n).collect();
        Metrics {
            cluster_tm: Spread::of(&cluster_counts),
            cluster_tasks_per_tm,
            slot: Spread::of(&tasks_per_slot),
            tasks_per_slot,
            tm: Spread::of(&counts),
            tasks_per_tm,
            slots_used_per_tm,
            scheduling_time_ms,
        }
    }

    /// Just the per-TaskManager task counts.
    pub fn tm_counts(&self) -> Vec<u32> {
        self.tasks_per_tm.iter().map(|c| c.n).collect()
    }
}
