//! Flink's `SimpleRequestSlotMatchingStrategy`: slots are offered TaskManager by
//! TaskManager (registration order, slots in index order), and each offered slot
//! goes to the oldest pending request whose resource profile it matches.

use super::RequestSlotMatchingStrategy;
use crate::engine::flink::resource_profile::ResourceProfile;
use crate::engine::flink::slot_matching::{retain_unmatched, MatchCtx, MatchRule, RequestMatching, View};
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::flink::Event;
use crate::engine::strategy::StrategyInfo;
use std::collections::{BTreeMap, VecDeque};

/// `SimpleRequestSlotMatchingStrategy`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimpleRequestSlotMatchingStrategy;

impl RequestSlotMatchingStrategy for SimpleRequestSlotMatchingStrategy {
    fn id(&self) -> RequestMatching {
        RequestMatching::Simple
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "taskmanager.load-balance.mode",
            name: "none",
            upstream: "org.apache.flink.runtime.jobmaster.slotpool.SimpleRequestSlotMatchingStrategy",
            summary: "each offered slot goes to the oldest pending request it matches, TaskManager after TaskManager",
            file: "flink/request_slot_matching/simple_request_slot_matching_strategy.rs",
        }
    }

    fn match_requests(
        &self,
        ctx: &mut MatchCtx<'_>,
        view: &mut View,
        pending: &mut VecDeque<u32>,
        _prefer: &[Option<SlotAddr>],
    ) -> Vec<Event> {
        simple(ctx, view, pending)
    }
}

/// Per-request-profile queues of pending requests, each in request order.
struct PendingByProfile {
    queues: BTreeMap<ResourceProfile, VecDeque<(usize, u32)>>,
}

impl PendingByProfile {
    fn new(pending: &VecDeque<u32>, profiles: &[ResourceProfile]) -> Self {
        let mut queues: BTreeMap<ResourceProfile, VecDeque<(usize, u32)>> = BTreeMap::new();
        for (k, &r) in pending.iter().enumerate() {
            let p = profiles
                .get(r as usize)
                .copied()
                .unwrap_or(ResourceProfile::Unknown);
            queues.entry(p).or_default().push_back((k, r));
        }
        PendingByProfile { queues }
    }

    /// The oldest pending request a slot of `slot` profile matches.
    fn pop_for(&mut self, slot: ResourceProfile) -> Option<(usize, u32)> {
        let best = self
            .queues
            .iter()
            .filter(|(rp, q)| slot.is_matching(**rp) && !q.is_empty())
            .min_by_key(|(_, q)| q.front().map(|&(k, _)| k))
            .map(|(rp, _)| *rp)?;
        self.queues.get_mut(&best)?.pop_front()
    }
}

/// Simple matching: TaskManagers offer their slots in view one after another (in
/// registration order, slots in index order); each offered slot goes to the oldest
/// pending request whose profile it matches. Matched requests leave `pending`.
pub fn simple(ctx: &mut MatchCtx<'_>, view: &mut View, pending: &mut VecDeque<u32>) -> Vec<Event> {
    let mut events = Vec::new();
    let mut position = 0u32;
    let mut queues = PendingByProfile::new(pending, ctx.profiles);
    let mut matched = vec![false; pending.len()];
    let mut left = pending.len();
    'tms: for t in 0..ctx.cluster.tms.len() {
        if view.held_on(t) == 0 {
            continue;
        }
        for (slot, profile) in view.slots_of(t) {
            if left == 0 {
                break 'tms;
            }
            position += 1;
            let Some((k, request)) = queues.pop_for(profile) else {
                continue;
            };
            view.take_slot(SlotAddr { tm: t as u32, slot });
            matched[k] = true;
            left -= 1;
            let tasks = ctx.place(request, t, slot);
            ctx.report(
                &mut events,
                request,
                t,
                slot,
                tasks,
                MatchRule::FirstPending {
                    offer_position: position,
                },
            );
        }
    }
    retain_unmatched(pending, &matched);
    events
}
