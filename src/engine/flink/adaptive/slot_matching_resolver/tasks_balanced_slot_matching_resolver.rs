//! Flink's `TasksBalancedSlotMatchingResolver` (adaptive scheduler, `taskmanager.load-balance.mode: tasks`):
//! groups by task count descending (stable), each to the TaskManager with the
//! fewest tasks so far; every TaskManager starts at zero (only the groups it
//! places count).

use super::{by_tm, Choice, GroupSlot, MatchingResolver, SlotMatchingResolver};
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::strategy::StrategyInfo;
use crate::sort::StableSort;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// `TasksBalancedSlotMatchingResolver`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TasksBalancedSlotMatchingResolver;

impl MatchingResolver for TasksBalancedSlotMatchingResolver {
    fn id(&self) -> SlotMatchingResolver {
        SlotMatchingResolver::TasksBalanced
    }

    fn flink_name(&self) -> &'static str {
        "TasksBalancedSlotMatchingResolver"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "taskmanager.load-balance.mode",
            name: "tasks",
            upstream: "org.apache.flink.runtime.scheduler.adaptive.allocator.TasksBalancedSlotMatchingResolver",
            summary: "under the adaptive scheduler, groups by task count descending, each to the TaskManager with the fewest tasks so far",
            file: "flink/adaptive/slot_matching_resolver/tasks_balanced_slot_matching_resolver.rs",
        }
    }

    fn resolve(&self, loads: &[u32], free: &[SlotAddr]) -> Option<Vec<GroupSlot>> {
        let mut out = Vec::with_capacity(loads.len());
        let mut slots = by_tm(free);
        let mut tasks: BTreeMap<u32, u32> = slots.keys().map(|&t| (t, 0)).collect();
        let mut queue: BTreeSet<(u32, u32)> = slots.keys().map(|&t| (0, t)).collect();
        let mut order: Vec<usize> = (0..loads.len()).collect();
        order.stable_sort_by_key(|&g| Reverse(loads[g]));
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
        Some(out)
    }
}
