//! Flink's `PreferredAllocationRequestSlotMatchingStrategy` (local recovery,
//! `execution.state-recovery.from-local`): each pending request whose previous
//! slot is free again and matches its profile gets it back, in request order; the
//! rest go to the rollback strategy (simple, or tasks balanced in mode `tasks`).

use super::RequestSlotMatchingStrategy;
use crate::engine::flink::slot_matching::{retain_unmatched, MatchCtx, MatchRule, RequestMatching, View};
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::flink::Event;
use crate::engine::strategy::StrategyInfo;
use std::collections::VecDeque;

/// `PreferredAllocationRequestSlotMatchingStrategy` over `rollback`.
#[derive(Clone, Copy)]
pub struct PreferredAllocationRequestSlotMatchingStrategy {
    /// What matches the requests whose previous slot is not free.
    pub rollback: &'static dyn RequestSlotMatchingStrategy,
}

impl std::fmt::Debug for PreferredAllocationRequestSlotMatchingStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreferredAllocationRequestSlotMatchingStrategy")
            .field("rollback", &self.rollback.id())
            .finish()
    }
}

impl RequestSlotMatchingStrategy for PreferredAllocationRequestSlotMatchingStrategy {
    fn id(&self) -> RequestMatching {
        self.rollback.id()
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "execution.state-recovery.from-local",
            name: "true",
            upstream: "org.apache.flink.runtime.jobmaster.slotpool.PreferredAllocationRequestSlotMatchingStrategy",
            summary: "on a restart each request first gets its previous slot back if it is free; the rest by the mode's matching",
            file: "flink/request_slot_matching/preferred_allocation_request_slot_matching_strategy.rs",
        }
    }

    fn match_requests(
        &self,
        ctx: &mut MatchCtx<'_>,
        view: &mut View,
        pending: &mut VecDeque<u32>,
        prefer: &[Option<SlotAddr>],
    ) -> Vec<Event> {
        let mut events = if prefer.is_empty() {
            Vec::new()
        } else {
            previous_allocations(ctx, view, pending, prefer)
        };
        events.extend(self.rollback.match_requests(ctx, view, pending, prefer));
        events
    }
}

/// Local recovery: each pending request whose previous slot (`prefer`, indexed by
/// request id) is in view and matches its profile gets it back, in request order.
pub fn previous_allocations(
    ctx: &mut MatchCtx<'_>,
    view: &mut View,
    pending: &mut VecDeque<u32>,
    prefer: &[Option<SlotAddr>],
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut matched = vec![false; pending.len()];
    let order: Vec<u32> = pending.iter().copied().collect();
    for (k, &request) in order.iter().enumerate() {
        let Some(Some(a)) = prefer.get(request as usize).copied() else {
            continue;
        };
        if !view.contains(a) {
            continue;
        }
        let t = a.tm as usize;
        if !ctx.cluster.tms[t]
            .slot_profile(a.slot as usize)
            .is_matching(ctx.profile(request))
        {
            continue;
        }
        view.take_slot(a);
        matched[k] = true;
        let tasks = ctx.place(request, t, a.slot);
        ctx.report(
            &mut events,
            request,
            t,
            a.slot,
            tasks,
            MatchRule::PreviousAllocation,
        );
    }
    retain_unmatched(pending, &matched);
    events
}
