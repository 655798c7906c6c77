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

//!
//! One type per resolver, each in its file, listed once in [`REGISTRY`]:
//! [`simple_slot_matching_resolver`], [`slots_balanced_slot_matching_resolver`],
//! [`tasks_balanced_slot_matching_resolver`].

pub mod simple_slot_matching_resolver;
pub mod slots_balanced_slot_matching_resolver;
pub mod tasks_balanced_slot_matching_resolver;

use super::super::task_manager::SlotAddr;
use crate::engine::strategy::StrategyInfo;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

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
        self.strategy().flink_name()
    }

    /// Its implementation, from [`REGISTRY`].
    pub fn strategy(self) -> &'static dyn MatchingResolver {
        REGISTRY
            .iter()
            .copied()
            .find(|r| r.id() == self)
            .unwrap_or(REGISTRY[0])
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

pub(super) fn by_tm(free: &[SlotAddr]) -> BTreeMap<u32, VecDeque<u32>> {
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

/// Flink's `SlotMatchingResolver`: give each execution slot sharing group (its
/// task count in `loads`, in group order) one of the `free` slots (at least as
/// many as groups).
pub trait MatchingResolver: Sync {
    /// Which one (as events name it).
    fn id(&self) -> SlotMatchingResolver;

    /// Flink's class name.
    fn flink_name(&self) -> &'static str;

    /// What the registry tells about it. Every resolver runs under
    /// `jobmanager.scheduler: adaptive`; the entry's key and value are the mode
    /// that picks it there.
    fn info(&self) -> StrategyInfo;

    /// The groups' slots (`free.len() >= loads.len()`); `None` if the slots ran out.
    fn resolve(&self, loads: &[u32], free: &[SlotAddr]) -> Option<Vec<GroupSlot>>;
}

/// Every slot matching resolver.
pub static REGISTRY: [&dyn MatchingResolver; 3] = [
    &simple_slot_matching_resolver::SimpleSlotMatchingResolver,
    &slots_balanced_slot_matching_resolver::SlotsBalancedSlotMatchingResolver,
    &tasks_balanced_slot_matching_resolver::TasksBalancedSlotMatchingResolver,
];

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
    resolver.strategy().resolve(loads, free)
}
