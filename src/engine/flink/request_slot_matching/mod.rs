//! The slot pool's request slot matching (Flink's `RequestSlotMatchingStrategy`,
//! default scheduler): which pending slot request gets which free slot the job
//! holds when a batch settles. One type per strategy, each in its file, listed
//! once in [`REGISTRY`]:
//! * [`simple_request_slot_matching_strategy`] is `SimpleRequestSlotMatchingStrategy`;
//! * [`tasks_balanced_request_slot_matching_strategy`] is
//!   `TasksBalancedRequestSlotMatchingStrategy`;
//! * [`preferred_allocation_request_slot_matching_strategy`] is
//!   `PreferredAllocationRequestSlotMatchingStrategy`, local recovery's wrapper
//!   around one of the other two.
//!
//! Choice (Flink's `DefaultSlotPoolServiceSchedulerFactory.getRequestSlotMatchingStrategy`):
//! tasks balanced when `taskmanager.load-balance.mode` is `tasks`, simple
//! otherwise; with `execution.state-recovery.from-local: true`, that one wrapped
//! by the preferred-allocation strategy ([`for_mode`]).
//!
//! The ResourceManager's side (which TaskManager gives a slot,
//! `ResourceMatchingStrategy`) is [`super::slot_matching::allocate`]; the adaptive
//! scheduler's slot matching is [`super::adaptive::slot_matching_resolver`].

pub mod preferred_allocation_request_slot_matching_strategy;
pub mod simple_request_slot_matching_strategy;
pub mod tasks_balanced_request_slot_matching_strategy;

use super::config::LoadBalanceMode;
use super::slot_matching::{MatchCtx, RequestMatching, View};
use super::task_manager::SlotAddr;
use super::Event;
use crate::engine::strategy::StrategyInfo;
use preferred_allocation_request_slot_matching_strategy::PreferredAllocationRequestSlotMatchingStrategy;
use simple_request_slot_matching_strategy::SimpleRequestSlotMatchingStrategy;
use std::collections::VecDeque;
use tasks_balanced_request_slot_matching_strategy::TasksBalancedRequestSlotMatchingStrategy;

/// Flink's `RequestSlotMatchingStrategy`: match the pending requests to the free
/// slots in view. Matched requests leave `pending` (the rest keep their order);
/// every match is placed through `ctx` and reported as an event.
pub trait RequestSlotMatchingStrategy: Sync {
    /// The matching the `StrategiesChosen` event names (a wrapper names its rollback's).
    fn id(&self) -> RequestMatching;

    /// What the registry tells about it: the config key and value that select it.
    fn info(&self) -> StrategyInfo;

    /// Match; `prefer` is each request's previous slot (indexed by request id; empty
    /// when there is none to prefer).
    fn match_requests(
        &self,
        ctx: &mut MatchCtx<'_>,
        view: &mut View,
        pending: &mut VecDeque<u32>,
        prefer: &[Option<SlotAddr>],
    ) -> Vec<Event>;
}

/// Simple matching.
pub static SIMPLE: SimpleRequestSlotMatchingStrategy = SimpleRequestSlotMatchingStrategy;
/// Tasks-balanced matching.
pub static TASKS_BALANCED: TasksBalancedRequestSlotMatchingStrategy =
    TasksBalancedRequestSlotMatchingStrategy;
/// Local recovery over simple matching.
pub static PREFERRED_SIMPLE: PreferredAllocationRequestSlotMatchingStrategy =
    PreferredAllocationRequestSlotMatchingStrategy { rollback: &SIMPLE };
/// Local recovery over tasks-balanced matching.
pub static PREFERRED_TASKS_BALANCED: PreferredAllocationRequestSlotMatchingStrategy =
    PreferredAllocationRequestSlotMatchingStrategy {
        rollback: &TASKS_BALANCED,
    };

/// Every request slot matching strategy (the preferred-allocation one with its
/// default rollback, simple matching).
pub static REGISTRY: [&dyn RequestSlotMatchingStrategy; 3] = [&SIMPLE, &TASKS_BALANCED, &PREFERRED_SIMPLE];

/// The strategy the slot pool uses in `mode`, wrapped for local recovery when
/// `local_recovery` (the slot pool is given previous slots exactly then).
pub fn for_mode(mode: LoadBalanceMode, local_recovery: bool) -> &'static dyn RequestSlotMatchingStrategy {
    match (mode == LoadBalanceMode::Tasks, local_recovery) {
        (true, true) => &PREFERRED_TASKS_BALANCED,
        (true, false) => &TASKS_BALANCED,
        (false, true) => &PREFERRED_SIMPLE,
        (false, false) => &SIMPLE,
    }
}
