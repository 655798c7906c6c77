//! Flink's `SimpleSlotMatchingResolver` (adaptive scheduler, `taskmanager.load-balance.mode: none`):
//! group i takes the i-th free slot (also in mode `min_resources`).

use super::{Choice, GroupSlot, MatchingResolver, SlotMatchingResolver};
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::strategy::StrategyInfo;

/// `SimpleSlotMatchingResolver`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimpleSlotMatchingResolver;

impl MatchingResolver for SimpleSlotMatchingResolver {
    fn id(&self) -> SlotMatchingResolver {
        SlotMatchingResolver::Simple
    }

    fn flink_name(&self) -> &'static str {
        "SimpleSlotMatchingResolver"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "taskmanager.load-balance.mode",
            name: "none",
            upstream: "org.apache.flink.runtime.scheduler.adaptive.allocator.SimpleSlotMatchingResolver",
            summary: "under the adaptive scheduler, group i takes the i-th free slot",
            file: "flink/adaptive/slot_matching_resolver/simple_slot_matching_resolver.rs",
        }
    }

    fn resolve(&self, loads: &[u32], free: &[SlotAddr]) -> Option<Vec<GroupSlot>> {
        let mut out = Vec::with_capacity(loads.len());
        for (g, &slot) in free.iter().enumerate().take(loads.len()) {
            out.push(GroupSlot {
                group: g,
                slot,
                choice: Choice::FreeSlotOrder {
                    position: g as u32 + 1,
                },
            });
        }
        Some(out)
    }
}
