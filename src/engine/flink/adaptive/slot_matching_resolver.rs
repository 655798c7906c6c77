//! Flink's `SlotMatchingResolver`s (adaptive scheduler): which free slot each
//! execution slot sharing group gets, chosen by `taskmanager.load-balance.mode`:
//! * `none`, `min_resources`: `SimpleSlotMatchingResolver`: group i takes the i-th
//!   free slot;
//! * `slots`: `SlotsBalancedSlotMatchingResolver`: each group (in order) goes to the
//!   TaskManager whose offered slots are least used so far (`reserved / offered`);
//! * `tasks`: `TasksBalancedSlotMatchingResolver`: groups by task count descending,
//!   each to the TaskManager with the fewest tasks so far. Every TaskManager starts
//!   at zero: the resolver only counts the groups it places (not another job's tasks,
//!   nor anything else on the TaskManager).
//!
//! Deterministic rules (lbscope): free slots are offered in TaskManager registration
//! order, then slot index; where Flink picks "any" slot of a hash set among equally
//! good TaskManagers, lbscope takes the first such TaskManager and its lowest slot;
//! the sort by task count is stable.

use super::super::resource_profile::Utilization;
use super::super::task_manager::SlotAddr;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Which resolver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotMatchingResolver {
    /// `SimpleSlotMatchingResolver`.
    Simple,
    /// `SlotsBalancedSlotMatchingResolver`.
    SlotsBalanced,
    /// `TasksBalancedSlotMatchingResolver`.
    TasksBalanced,
}

impl SlotMatchingResolver {
    /// The resolver of a mode (`SlotSharingSlotAllocator#getSlotMatchingResolver`).
    pub fn for_mode(mode: super::super::LoadBalanceMode) -> Self {
        use super::super::LoadBalanceMode as M;
        match mode {
            M::None | M::MinResources => SlotMatchingResolver::Simple,
            M::Slots => SlotMatchingResolver::SlotsBalanced,
            M::Tasks => SlotMatchingResolver::TasksBalanced,
        }
    }

    /// Flink's class name.
    pub fn flink_name(self) -> &'static str {
        match self {
            SlotMatchingResolver::Simple => "SimpleSlotMatchingResolver",
            SlotMatchingResolver::SlotsBalanced => "SlotsBalancedSlotMatchingResolver",
            SlotMatchingResolver::TasksBalanced => "TasksBalancedSlotMatchingResolver",
        }
    }
}

/// Why a group got its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Choice {
    /// Simple: the n-th free slot (1-based).
    FreeSlotOrder {
        /// Position among the free slots.
        position: u32,
    },
    /// Slots balanced: the TaskManager's offered slots were the least used.
    LeastUsedTaskManager {
        /// Slots of this job reserved on it before.
        reserved: u32,
        /// Its offered slots.
        offered: u32,
    },
    /// Tasks balanced: the TaskManager had the fewest tasks.
    FewestTasks {
        /// Tasks on it before.
        tasks_before: u32,
    },
}

/// One group's slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSlot {
    /// Group index.
    pub group: usize,
    /// The slot.
    pub slot: SlotAddr,
    /// Why.
    pub choice: Choice,
}

fn by_tm(free: &[SlotAddr]) -> BTreeMap<u32, VecDeque<u32>> {
    let mut m: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for a in free {
        m.entry(a.tm).or_default().push(a.slot);
    }
    m.into_iter()
        .map(|(t, mut v)| {
            v.sort_unstable();
            (t, v.into())
        })
        .collect()
}

/// Match `loads` (tasks per group, in group order) to `free` slots; `None` when there
/// are fewer slots than groups.
pub fn match_slot_sharing_groups_with_slots(
    resolver: SlotMatchingResolver,
    loads: &[u32],
    free: &[SlotAddr],
) -> Option<Vec<GroupSlot>> {
    if free.len() < loads.len() {
        return None;
    }
    let mut out = Vec::with_capacity(loads.len());
    match resolver {
        SlotMatchingResolver::Simple => {
            for (g, &slot) in free.iter().enumerate().take(loads.len()) {
                out.push(GroupSlot {
                    group: g,
                    slot,
                    choice: Choice::FreeSlotOrder {
                        position: g as u32 + 1,
                    },
                });
            }
        }
        SlotMatchingResolver::SlotsBalanced => {
            let mut slots = by_tm(free);
            let offered: BTreeMap<u32, u32> = slots.iter().map(|(&t, q)| (t, q.len() as u32)).collect();
            let mut reserved: BTreeMap<u32, u32> = offered.keys().map(|&t| (t, 0)).collect();
            let mut queue: BTreeSet<(Utilization, u32)> = offered
                .iter()
                .map(|(&t, &n)| {
                    (
                        Utilization {
                            num: 0,
                            den: u64::from(n),
                        },
                        t,
                    )
                })
                .collect();
            for g in 0..loads.len() {
                let (_, t) = queue.pop_first()?;
                let slot = slots.get_mut(&t)?.pop_front()?;
                let before = reserved[&t];
                let now = before + 1;
                reserved.insert(t, now);
                if slots[&t].is_empty() {
                    slots.remove(&t);
                } else {
                    queue.insert((
                        Utilization {
                            num: u64::from(now),
                            den: u64::from(offered[&t]),
                        },
                        t,
                    ));
                }
                out.push(GroupSlot {
                    group: g,
                    slot: SlotAddr { tm: t, slot },
                    choice: Choice::LeastUsedTaskManager {
                        reserved: before,
                        offered: offered[&t],
                    },
                });
            }
        }
        SlotMatchingResolver::TasksBalanced => {
            let mut slots = by_tm(free);
            let mut tasks: BTreeMap<u32, u32> = slots.keys().map(|&t| (t, 0)).collect();
            let mut queue: BTreeSet<(u32, u32)> = slots.keys().map(|&t| (0, t)).collect();
            let mut order: Vec<usize> = (0..loads.len()).collect();
            order.sort_by_key(|&g| Reverse(loads[g]));
            for g in order {
                let (before, t) = queue.pop_first()?;
                let slot = slots.get_mut(&t)?.pop_front()?;
                let now = before + loads[g];
                tasks.insert(t, now);
                if slots[&t].is_empty() {
                    slots.remove(&t);
                } else {
                    queue.insert((now, t));
                }
                out.push(GroupSlot {
                    group: g,
                    slot: SlotAddr { tm: t, slot },
                    choice: Choice::FewestTasks { tasks_before: before },
                });
            }
        }
    }
    Some(out)
}
