//! Flink's balanced phase-1 strategy, `TaskBalancedPreferredSlotSharingStrategy`
//! (used when `taskmanager.load-balance.mode` is `tasks`).
//!
//! For each slot sharing group, as many slot requests as its highest vertex
//! parallelism are created up front. Vertices are then visited in topological order:
//! * a vertex whose parallelism equals that maximum puts subtask i into slot i;
//! * any other vertex fills slots round-robin, starting at the group's round-robin
//!   index and leaving the index where it stopped, so the next such vertex continues
//!   there (figure (e): [4, 4, 3, 3]);
//! * a co-located subtask joins its constraint's slot, or else the least-utilised slot
//!   that does not hold this vertex yet (first such slot on ties); afterwards, if the
//!   vertex is not of maximal parallelism, the round-robin index moves to the
//!   least-utilised slot of the group.
//!
//! Deterministic rule (lbscope): Flink creates each group's requests while iterating a
//! hash map of slot sharing groups, so the order of requests *across* groups is open;
//! lbscope creates them group by group in order of the group's first vertex in
//! topological order.

use super::job_graph::JobGraph;
use super::slot_sharing::{AssignReason, Assignment, Builder, SlotSharingPlan, SlotSharingStrategy};

/// Build the plan with each vertex at `parallelism[v]` (its configured parallelism
/// for the default scheduler; the adaptive scheduler's `TaskBalancedSlotSharingResolver`
/// passes the parallelism it determined).
pub fn build(job: &JobGraph, parallelism: &[u32]) -> SlotSharingPlan {
    let mut b = Builder::new(job, parallelism);
    let groups = job.slot_sharing_groups.len();
    let mut max_p = vec![0u32; groups];
    for (v, &p) in job.vertices.iter().zip(parallelism) {
        let g = v.slot_sharing_group;
        max_p[g] = max_p[g].max(p);
    }
    let mut group_requests: Vec<Vec<u32>> = vec![Vec::new(); groups];
    for &v in &job.topological_order {
        let g = job.vertices[v].slot_sharing_group;
        if group_requests[g].is_empty() {
            for _ in 0..max_p[g] {
                let r = b.new_request(g);
                group_requests[g].push(r);
            }
        }
    }
    let mut rr = vec![0usize; groups];
    let mut steps = Vec::with_capacity(job.vertices.len());

    for &v in &job.topological_order {
        let vertex = &job.vertices[v];
        let vp = parallelism[v];
        let g = vertex.slot_sharing_group;
        let slots = &group_requests[g];
        let n = slots.len().max(1);
        let is_max = vp == max_p[g];
        let mut assignments = Vec::with_capacity(vp as usize);
        if vertex.co_location_group.is_none() {
            let start = if is_max { 0 } else { rr[g] % n };
            let mut idx = start;
            for i in 0..vp {
                let r = slots[idx];
                b.add(r, v, i);
                assignments.push(Assignment {
                    subtask: i,
                    request: r,
                    reason: if is_max {
                        AssignReason::SameIndex
                    } else {
                        AssignReason::RoundRobin {
                            started_at: start as u32,
                        }
                    },
                });
                idx = (idx + 1) % n;
            }
            if !is_max {
                rr[g] = idx;
            }
        } else {
            let mut least = LeastUtilized::new(&b, slots);
            for i in 0..vp {
                let (r, reason) = match b.colocated(v, i) {
                    Some(r) => (r, AssignReason::CoLocated { constraint: i }),
                    None => {
                        let idx = least.first();
                        let r = slots[idx];
                        (
                            r,
                            AssignReason::LeastUtilized {
                                tasks_before: b.requests[r as usize].tasks(),
                            },
                        )
                    }
                };
                b.add(r, v, i);
                least.hold(slots, r);
                if let Some(c) = vertex.co_location_group {
                    if let Some(s) = b.constraint[c].get_mut(i as usize) {
                        s.get_or_insert(r);
                    }
                }
                assignments.push(Assignment {
                    subtask: i,
                    request: r,
                    reason,
                });
            }
            if !is_max {
                rr[g] = least_utilized(&b, slots, None);
            }
        }
        steps.push((v, assignments));
    }
    b.finish(SlotSharingStrategy::TaskBalanced, steps)
}

/// Flink's `getLeastUtilizeSlotIndex` for one co-located vertex, in O(log n) per
/// query: a segment tree over the group's slots holding each slot's task count, or
/// "taken" once the slot holds a subtask of this vertex. The query returns the first
/// slot (lowest index) with the fewest tasks among those not taken; 0 when every slot
/// is taken (as in Flink).
struct LeastUtilized {
    size: usize,
    /// (tasks, index) minima; `u32::MAX` tasks marks a taken slot.
    tree: Vec<(u32, u32)>,
    /// Request id -> position in the group's slot list.
    position: std::collections::HashMap<u32, usize>,
}

impl LeastUtilized {
    fn new(b: &Builder<'_>, slots: &[u32]) -> Self {
        let size = slots.len().next_power_of_two().max(1);
        let mut tree = vec![(u32::MAX, u32::MAX); 2 * size];
        for (i, &r) in slots.iter().enumerate() {
            tree[size + i] = (b.requests[r as usize].tasks(), i as u32);
        }
        for k in (1..size).rev() {
            tree[k] = tree[2 * k].min(tree[2 * k + 1]);
        }
        let position = slots.iter().enumerate().map(|(i, &r)| (r, i)).collect();
        LeastUtilized { size, tree, position }
    }

    fn first(&self) -> usize {
        match self.tree.get(1) {
            Some(&(n, i)) if n != u32::MAX => i as usize,
            _ => 0,
        }
    }

    /// Request `r` now holds a subtask of the vertex: taken.
    fn hold(&mut self, _slots: &[u32], r: u32) {
        let Some(&i) = self.position.get(&r) else { return };
        let mut k = self.size + i;
        self.tree[k] = (u32::MAX, i as u32);
        while k > 1 {
            k /= 2;
            self.tree[k] = self.tree[2 * k].min(self.tree[2 * k + 1]);
        }
    }
}

/// Index (into `slots`) of the first slot with the fewest tasks, skipping slots that
/// already hold `vertex`; 0 when none qualifies (as in Flink).
fn least_utilized(b: &Builder<'_>, slots: &[u32], vertex: Option<usize>) -> usize {
    let mut best = 0;
    let mut least = usize::MAX;
    for (idx, &r) in slots.iter().enumerate() {
        let n = b.requests[r as usize].subtasks.len();
        if n < least && vertex.is_none_or(|v| !b.holds_vertex(r, v)) {
            best = idx;
            least = n;
        }
    }
    best
}
