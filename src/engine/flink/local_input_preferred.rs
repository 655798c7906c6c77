//! Flink's default phase-1 strategy, `LocalInputPreferredSlotSharingStrategy`:
//! a consumer subtask joins the slot of one of its producers when it can.
//!
//! Vertices are visited in topological order. For each vertex, first every subtask
//! (by index) tries, in order:
//! 1. the slot of its co-location constraint, if an earlier vertex created it;
//! 2. a producer's slot: for each consumed partition group (inputs in edge order), the
//!    group's candidate slots are the slots of its producer subtasks in partition order,
//!    computed once when the group is first seen (only if the producer is in the same
//!    slot sharing group). Candidates are consumed front to back: each one looked at is
//!    removed, and the first that does not yet hold this vertex is taken.
//!
//! Subtasks left over then take, in index order, the first slot of their slot sharing
//! group (in creation order) that does not hold this vertex yet, or a new slot.
//!
//! So with a hash edge every consumer group is *shared* by all consumer subtasks and
//! consumer i lands next to producer i, which is what piles the extra tasks onto the
//! first slots (figure (d): [5, 4, 3, 2]).

use super::execution_graph::{consumed_group, group_count};
use super::job_graph::JobGraph;
use super::slot_sharing::{AssignReason, Assignment, Builder, SlotSharingPlan, SlotSharingStrategy};
use crate::sort::StableSort;
use std::collections::VecDeque;

/// Candidate slots of one consumed partition group: (producer subtask, request).
type Candidates = VecDeque<(u32, u32)>;

/// Build the plan.
pub fn build(job: &JobGraph) -> SlotSharingPlan {
    let par: Vec<u32> = job.vertices.iter().map(|v| v.parallelism).collect();
    let mut b = Builder::new(job, &par);
    let mut per_group: Vec<Vec<u32>> = vec![Vec::new(); job.slot_sharing_groups.len()];
    // Lazily computed candidates per edge, per consumed partition group.
    let mut candidates: Vec<Vec<Option<Candidates>>> = job
        .edges
        .iter()
        .map(|e| {
            let n = group_count(
                e,
                job.vertices[e.from].parallelism,
                job.vertices[e.to].parallelism,
            );
            vec![None; n as usize]
        })
        .collect();
    let mut steps = Vec::with_capacity(job.vertices.len());

    for &v in &job.topological_order {
        let vertex = &job.vertices[v];
        let group = vertex.slot_sharing_group;
        let mut assignments: Vec<Assignment> = Vec::with_capacity(vertex.parallelism as usize);
        let mut remaining: Vec<u32> = Vec::new();
        for i in 0..vertex.parallelism {
            if let Some(r) = b.colocated(v, i) {
                b.add(r, v, i);
                assignments.push(Assignment {
                    subtask: i,
                    request: r,
                    reason: AssignReason::CoLocated { constraint: i },
                });
                continue;
            }
            let mut found: Option<(usize, u32, u32)> = None;
            'inputs: for &e in &vertex.inputs {
                let edge = &job.edges[e];
                let producer = &job.vertices[edge.from];
                let cg = consumed_group(edge, producer.parallelism, vertex.parallelism, i);
                let Some(slot) = candidates[e].get_mut(cg.local_id as usize) else {
                    continue;
                };
                let list = slot.get_or_insert_with(|| {
                    if producer.slot_sharing_group == group {
                        (cg.start..cg.end)
                            .map(|ps| (ps, b.request_of[edge.from][ps as usize]))
                            .collect()
                    } else {
                        VecDeque::new()
                    }
                });
                while let Some((ps, r)) = list.pop_front() {
                    if r != u32::MAX && !b.holds_vertex(r, v) {
                        found = Some((edge.from, ps, r));
                        break 'inputs;
                    }
                }
            }
            match found {
                Some((p, ps, r)) => {
                    b.add(r, v, i);
                    assignments.push(Assignment {
                        subtask: i,
                        request: r,
                        reason: AssignReason::ProducerSlot {
                            producer: job.vertices[p].name.clone(),
                            producer_subtask: ps,
                        },
                    });
                }
                None => remaining.push(i),
            }
        }
        // Left-overs: first slot of the group without this vertex, else a new slot.
        let mut cursor = 0;
        for i in remaining {
            let list = &per_group[group];
            while cursor < list.len() && b.holds_vertex(list[cursor], v) {
                cursor += 1;
            }
            let (r, reason) = if cursor < list.len() {
                (list[cursor], AssignReason::FirstAvailable)
            } else {
                let r = b.new_request(group);
                per_group[group].push(r);
                (r, AssignReason::NewSlot)
            };
            b.add(r, v, i);
            assignments.push(Assignment {
                subtask: i,
                request: r,
                reason,
            });
        }
        assignments.stable_sort_by_key(|a| a.subtask);
        b.record_constraints(v);
        steps.push((v, assignments));
    }
    b.finish(SlotSharingStrategy::LocalInputPreferred, steps)
}
