//! Flink's `SlotSharingSlotAllocator` (adaptive scheduler): how many slots the job
//! asks for, and which parallelism each vertex runs with on the slots it was offered.
//!
//! Per slot sharing group, with each vertex's bounds `[lower, upper]`:
//! * `min_lower` / `max_lower`: the smallest / largest lower bound of its vertices;
//! * `max_upper`: the largest upper bound.
//!
//! * Required (desired) slots: the sum of `max_upper` over the groups
//!   (`calculateRequiredSlots`; always `UNKNOWN` profiles, so slot sharing group
//!   resources play no part in what the adaptive scheduler declares).
//! * Minimum slots: the sum of `max_lower`; with fewer free slots there is no
//!   parallelism at all.
//! * With `n` free slots, groups are visited by `max_upper - max_lower` ascending; each
//!   gets `max_lower + min(max_upper - max_lower, optional / groups_left)` slots, where
//!   `optional` is the free slots not reserved for the remaining groups' lower bounds
//!   (`determineSlotsPerSharingGroup`).
//! * A vertex then runs with `min(upper, slots of its group)`.
//!
//! Deterministic rule (lbscope): Flink sorts the groups of a hash map by that range;
//! groups with equal ranges are visited in order of first appearance.

use crate::sort::StableSort;
use serde::{Deserialize, Serialize};

/// What the allocator knows of a vertex (Flink's `JobInformation.VertexInformation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexInformation {
    /// Lower bound of the parallelism (`getMinParallelism`).
    pub min_parallelism: u32,
    /// Upper bound of the parallelism (`getParallelism`).
    pub parallelism: u32,
    /// Slot sharing group index.
    pub slot_sharing_group: usize,
}

impl VertexInformation {
    /// A vertex with lower bound 1.
    pub fn new(parallelism: u32, slot_sharing_group: usize) -> Self {
        VertexInformation {
            min_parallelism: 1,
            parallelism,
            slot_sharing_group,
        }
    }

    /// A vertex with both bounds.
    pub fn with_bounds(min_parallelism: u32, parallelism: u32, slot_sharing_group: usize) -> Self {
        VertexInformation {
            min_parallelism,
            parallelism,
            slot_sharing_group,
        }
    }
}

/// Flink's `SlotSharingGroupMetaInfo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotSharingGroupMetaInfo {
    /// Smallest lower bound.
    pub min_lower_bound: u32,
    /// Largest lower bound.
    pub max_lower_bound: u32,
    /// Largest upper bound.
    pub max_upper_bound: u32,
}

impl SlotSharingGroupMetaInfo {
    /// `max_upper_bound - max_lower_bound`.
    pub fn range(&self) -> u32 {
        self.max_upper_bound.saturating_sub(self.max_lower_bound)
    }
}

/// Meta info per slot sharing group (index = group; groups without vertices get none).
pub fn slot_sharing_group_meta_infos(
    vertices: &[VertexInformation],
    groups: usize,
) -> Vec<Option<SlotSharingGroupMetaInfo>> {
    let mut out: Vec<Option<SlotSharingGroupMetaInfo>> = vec![None; groups];
    for v in vertices {
        let Some(slot) = out.get_mut(v.slot_sharing_group) else {
            continue;
        };
        *slot = Some(match *slot {
            None => SlotSharingGroupMetaInfo {
                min_lower_bound: v.min_parallelism,
                max_lower_bound: v.min_parallelism,
                max_upper_bound: v.parallelism,
            },
            Some(m) => SlotSharingGroupMetaInfo {
                min_lower_bound: m.min_lower_bound.min(v.min_parallelism),
                max_lower_bound: m.max_lower_bound.max(v.min_parallelism),
                max_upper_bound: m.max_upper_bound.max(v.parallelism),
            },
        });
    }
    out
}

/// Slots the job declares (`calculateRequiredSlots`).
pub fn calculate_required_slots(vertices: &[VertexInformation], groups: usize) -> u64 {
    slot_sharing_group_meta_infos(vertices, groups)
        .iter()
        .flatten()
        .map(|m| u64::from(m.max_upper_bound))
        .sum()
}

/// Least slots the job can run with (`getMinimumRequiredSlots`).
pub fn minimum_required_slots(vertices: &[VertexInformation], groups: usize) -> u64 {
    slot_sharing_group_meta_infos(vertices, groups)
        .iter()
        .flatten()
        .map(|m| u64::from(m.max_lower_bound))
        .sum()
}

/// The result of `determineParallelism`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexParallelism {
    /// Slots per slot sharing group (index = group; 0 for a group without vertices).
    pub slots_per_group: Vec<u32>,
    /// Parallelism per vertex (index = vertex).
    pub parallelism: Vec<u32>,
}

/// `determineParallelism` on `free_slots` free slots; `None` when fewer than the minimum.
pub fn determine_parallelism(
    vertices: &[VertexInformation],
    groups: usize,
    free_slots: u64,
) -> Option<VertexParallelism> {
    let metas = slot_sharing_group_meta_infos(vertices, groups);
    let minimum: u64 = metas.iter().flatten().map(|m| u64::from(m.max_lower_bound)).sum();
    if minimum > free_slots {
        return None;
    }
    let mut order: Vec<usize> = (0..groups).filter(|&g| metas[g].is_some()).collect();
    order.stable_sort_by_key(|&g| metas[g].map_or(0, |m| m.range()));
    let mut slots_per_group = vec![0u32; groups];
    let mut unassigned = free_slots as i128;
    let mut groups_left = order.len() as i128;
    let mut min_left = minimum as i128;
    for g in order {
        let Some(m) = metas[g] else { continue };
        let min_p = i128::from(m.max_lower_bound);
        let max_optional = i128::from(m.max_upper_bound) - min_p;
        let free_optional = unassigned - min_left;
        let share = if groups_left > 0 {
            free_optional / groups_left
        } else {
            0
        };
        let p = min_p + max_optional.min(share).max(0);
        slots_per_group[g] = p.clamp(0, i128::from(u32::MAX)) as u32;
        min_left -= min_p;
        unassigned -= p;
        groups_left -= 1;
    }
    let parallelism = vertices
        .iter()
        .map(|v| {
            v.parallelism
                .min(slots_per_group.get(v.slot_sharing_group).copied().unwrap_or(0))
        })
        .collect();
    Some(VertexParallelism {
        slots_per_group,
        parallelism,
    })
}
