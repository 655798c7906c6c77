//! Flink's `SlotSharingResolver`s (adaptive scheduler): how subtasks are grouped into
//! execution slot sharing groups once the parallelism is known.
//! * `none`, `slots`, `min_resources`: `DefaultSlotSharingResolver`: per slot sharing
//!   group, group i holds subtask i of every vertex with more than i subtasks;
//! * `tasks`: `TaskBalancedSlotSharingResolver`, the same builder as the default
//!   scheduler's balanced phase 1 ([`super::super::task_balanced`]), on the determined
//!   parallelism.
//!
//! Deterministic rule (lbscope): groups are listed slot sharing group by slot sharing
//! group (order of first appearance), then by index; within a group, vertices join in
//! topological order (Flink walks a hash set of vertices). For the balanced resolver,
//! Flink walks vertices in hash-map order; lbscope in topological order.

use super::super::job_graph::JobGraph;
use super::super::slot_sharing::{AssignReason, Assignment, Builder, SlotSharingPlan, SlotSharingStrategy};
use serde::{Deserialize, Serialize};

/// Which resolver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotSharingResolver {
    /// `DefaultSlotSharingResolver`.
    Default,
    /// `TaskBalancedSlotSharingResolver`.
    TaskBalanced,
}

impl SlotSharingResolver {
    /// The resolver of a mode (`SlotSharingSlotAllocator#getSlotSharingResolver`).
    pub fn for_mode(mode: super::super::LoadBalanceMode) -> Self {
        if mode == super::super::LoadBalanceMode::Tasks {
            SlotSharingResolver::TaskBalanced
        } else {
            SlotSharingResolver::Default
        }
    }

    /// Flink's class name.
    pub fn flink_name(self) -> &'static str {
        match self {
            SlotSharingResolver::Default => "DefaultSlotSharingResolver",
            SlotSharingResolver::TaskBalanced => "TaskBalancedSlotSharingResolver",
        }
    }
}

/// The execution slot sharing groups at `parallelism` (per vertex), as a plan whose
/// requests are the groups.
pub fn execution_slot_sharing_groups(
    job: &JobGraph,
    parallelism: &[u32],
    resolver: SlotSharingResolver,
) -> SlotSharingPlan {
    match resolver {
        SlotSharingResolver::TaskBalanced => {
            let mut plan = super::super::task_balanced::build(job, parallelism);
            plan.strategy = SlotSharingStrategy::TaskBalancedResolver;
            plan
        }
        SlotSharingResolver::Default => {
            let mut b = Builder::new(job, parallelism);
            let groups = job.slot_sharing_groups.len();
            let mut width = vec![0u32; groups];
            for (v, &p) in job.vertices.iter().zip(parallelism) {
                let g = v.slot_sharing_group;
                width[g] = width[g].max(p);
            }
            let mut first: Vec<Option<u32>> = vec![None; groups];
            for g in 0..groups {
                for _ in 0..width[g] {
                    let r = b.new_request(g);
                    first[g].get_or_insert(r);
                }
            }
            let mut steps = Vec::with_capacity(job.vertices.len());
            for &v in &job.topological_order {
                let g = job.vertices[v].slot_sharing_group;
                let base = first[g].unwrap_or(0);
                let assignments: Vec<Assignment> = (0..parallelism[v])
                    .map(|i| {
                        let r = base + i;
                        b.add(r, v, i);
                        Assignment {
                            subtask: i,
                            request: r,
                            reason: AssignReason::SameIndex,
                        }
                    })
                    .collect();
                steps.push((v, assignments));
            }
            b.finish(SlotSharingStrategy::DefaultResolver, steps)
        }
    }
}
