//! Flink's `DefaultSlotAssigner` (adaptive scheduler): forms the execution slot
//! sharing groups ([`super::slot_sharing_resolver`]), optionally narrows the free
//! slots to as few TaskManagers as possible, then lets the slot matching resolver
//! ([`super::slot_matching_resolver`]) place the groups.
//!
//! Narrowing (`pickSlotsIfNeeded`) happens only in application mode
//! (`execution.target: embedded`) with
//! `jobmanager.adaptive-scheduler.prefer-minimal-taskmanagers: true`, and only when
//! there are more free slots than groups: TaskManagers are taken by free slots,
//! descending, all of their slots, until the groups are covered; the last TaskManager
//! contributes only the slots still needed (so exactly as many slots as groups are
//! picked).
//!
//! Deterministic rule (lbscope): TaskManagers with equally many free slots keep their
//! registration order; the last TaskManager gives its lowest slots.

use super::super::task_manager::SlotAddr;
use crate::sort::StableSort;
use std::collections::BTreeMap;

/// `pickSlotsIfNeeded`: the slots to match `groups` groups against.
pub fn pick_slots_if_needed(groups: usize, free: &[SlotAddr], minimal_task_managers: bool) -> Vec<SlotAddr> {
    if !minimal_task_managers || free.len() <= groups {
        return free.to_vec();
    }
    let mut per_tm: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for a in free {
        per_tm.entry(a.tm).or_default().push(a.slot);
    }
    let mut tms: Vec<(u32, Vec<u32>)> = per_tm.into_iter().collect();
    // Stable: equal counts keep registration order.
    tms.stable_sort_by_key(|(_, s)| std::cmp::Reverse(s.len()));
    let mut picked = Vec::with_capacity(groups);
    for (t, mut slots) in tms {
        if picked.len() >= groups {
            break;
        }
        slots.sort_unstable();
        let need = groups - picked.len();
        picked.extend(slots.into_iter().take(need).map(|slot| SlotAddr { tm: t, slot }));
    }
    picked
}
