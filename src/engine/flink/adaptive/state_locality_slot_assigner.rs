//! Flink's `StateLocalitySlotAssigner` (adaptive scheduler with local recovery,
//! `execution.state-recovery.from-local: true`, once the job ran before): each
//! execution slot sharing group goes to the free slot that already holds the most of
//! its state.
//!
//! A subtask's state is its key group range ([`super::super::key_group_range_assignment`])
//! at the new parallelism; a slot's score for a group is the number of key groups its
//! previous subtasks of the same vertices share with the group's subtasks. Pairs are
//! taken by score, highest first, each slot and group once; groups left over take the
//! remaining slots in order. It uses the slot sharing resolver of the mode, but no
//! slot matching resolver and no TaskManager minimisation: with local recovery,
//! tasks-balanced or slots-balanced placement does not apply.
//!
//! Deterministic rule (lbscope): equal scores go to the slot first in registration and
//! slot order, then to the group with the lower index (Flink orders them by allocation
//! and group ids, which are random); leftover groups take leftover slots in the same
//! slot order.

use super::super::key_group_range_assignment::{intersection, key_group_range_for_operator_index};
use super::super::task_manager::SlotAddr;
use crate::sort::StableSort;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// A subtask that ran in a slot before: vertex, its key group range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreviousSubtask {
    /// Vertex index.
    pub vertex: usize,
    /// Inclusive key group range it held.
    pub key_groups: (u32, u32),
}

/// One group's slot and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalSlot {
    /// Group index.
    pub group: usize,
    /// Slot.
    pub slot: SlotAddr,
    /// Key groups already local there (0 for a leftover).
    pub local_key_groups: u64,
}

/// Assign `groups` (each a list of `(vertex, subtask)`) at `parallelism` (per vertex,
/// with `max_parallelism` per vertex) to `free` slots, given what each slot held
/// before (`previous`). `None` when there are fewer slots than groups.
pub fn assign_slots(
    groups: &[Vec<(usize, u32)>],
    parallelism: &[u32],
    max_parallelism: &[u32],
    free: &[SlotAddr],
    previous: &BTreeMap<SlotAddr, Vec<PreviousSubtask>>,
) -> Option<Vec<LocalSlot>> {
    if free.len() < groups.len() {
        return None;
    }
    let free_set: BTreeSet<SlotAddr> = free.iter().copied().collect();
    // Per vertex, the previous ranges sorted by start, with their slot.
    let mut old: BTreeMap<usize, Vec<(u32, u32, SlotAddr)>> = BTreeMap::new();
    for (&slot, subs) in previous {
        if !free_set.contains(&slot) {
            continue;
        }
        for s in subs {
            old.entry(s.vertex)
                .or_default()
                .push((s.key_groups.0, s.key_groups.1, slot));
        }
    }
    for v in old.values_mut() {
        v.sort_unstable();
    }
    // Scores per (group, slot).
    let mut scores: Vec<(Reverse<u64>, SlotAddr, usize)> = Vec::new();
    for (g, members) in groups.iter().enumerate() {
        let mut per_slot: BTreeMap<SlotAddr, u64> = BTreeMap::new();
        for &(v, i) in members {
            let Some(ranges) = old.get(&v) else { continue };
            let p = parallelism.get(v).copied().unwrap_or(1);
            let m = max_parallelism.get(v).copied().unwrap_or(128);
            let Some(kgr) = key_group_range_for_operator_index(m, p, i) else {
                continue;
            };
            // Ranges of one vertex do not overlap: start at the first that ends at or
            // after kgr's start.
            let from = ranges.partition_point(|&(_, end, _)| end < kgr.0);
            for &(start, end, slot) in &ranges[from..] {
                if start > kgr.1 {
                    break;
                }
                let n = intersection(kgr, (start, end));
                if n > 0 {
                    *per_slot.entry(slot).or_insert(0) += u64::from(n);
                }
            }
        }
        scores.extend(per_slot.into_iter().map(|(slot, n)| (Reverse(n), slot, g)));
    }
    scores.sort_unstable();
    let mut slot_taken: BTreeSet<SlotAddr> = BTreeSet::new();
    let mut group_done = vec![false; groups.len()];
    let mut out = Vec::with_capacity(groups.len());
    for (Reverse(n), slot, g) in scores {
        if group_done[g] || slot_taken.contains(&slot) {
            continue;
        }
        group_done[g] = true;
        slot_taken.insert(slot);
        out.push(LocalSlot {
            group: g,
            slot,
            local_key_groups: n,
        });
    }
    let mut rest = free.iter().filter(|a| !slot_taken.contains(a));
    for (g, done) in group_done.iter().enumerate() {
        if !done {
            let slot = *rest.next()?;
            out.push(LocalSlot {
                group: g,
                slot,
                local_key_groups: 0,
            });
        }
    }
    out.stable_sort_by_key(|l| l.group);
    Some(out)
}
