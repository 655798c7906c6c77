//! Flink's `SlotsBalancedSlotMatchingResolver` (adaptive scheduler, `taskmanager.load-balance.mode: slots`):
//! each group, in order, goes to the TaskManager whose offered slots are least
//! used so far (`reserved / offered`).

use super::{by_tm, Choice, GroupSlot, MatchingResolver, SlotMatchingResolver};
use crate::engine::flink::resource_profile::Utilization;
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::strategy::StrategyInfo;
use std::collections::{BTreeMap, BTreeSet};

/// `SlotsBalancedSlotMatchingResolver`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SlotsBalancedSlotMatchingResolver;

impl MatchingResolver for SlotsBalancedSlotMatchingResolver {
    fn id(&self) -> SlotMatchingResolver {
        SlotMatchingResolver::SlotsBalanced
    }

    fn flink_name(&self) -> &'static str {
        "SlotsBalancedSlotMatchingResolver"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "taskmanager.load-balance.mode",
            name: "slots",
            upstream: "org.apache.flink.runtime.scheduler.adaptive.allocator.SlotsBalancedSlotMatchingResolver",
            summary: "under the adaptive scheduler, each group to the TaskManager whose offered slots are least used so far",
            file: "flink/adaptive/slot_matching_resolver/slots_balanced_slot_matching_resolver.rs",
        }
    }

    fn resolve(&self, loads: &[u32], free: &[SlotAddr]) -> Option<Vec<GroupSlot>> {
        let mut out = Vec::with_capacity(loads.len());
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
        Some(out)
    }
}
