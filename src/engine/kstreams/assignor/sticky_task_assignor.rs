//! KIP-924's built-in `org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor`
//! (chosen with `task.assignor.class`), and the `TaskAssignmentUtils` helpers it
//! uses.
//!
//! Its placement is the legacy sticky assignor's ([`super::sticky`], run as
//! [`Variant::Kip924`]): actives back to their previous owner while it runs fewer
//! than `threads × floor(tasks / all threads)` actives, then to a client that had
//! the task as a standby, then to the least-loaded client (preferring a new task
//! pair); standbys to the least-loaded client without a copy, the previous owners
//! first. Differences from `LegacyStickyTaskAssignor`, read in the code:
//!
//! * "least loaded" compares `tasks / threads` strictly: between equal loads the
//!   first client in process-id order stays (the legacy assignor prefers more threads);
//! * no lags, warm-ups or probing rebalances (it reads `kafkaStreamsStates(false)`);
//! * rack-aware optimisation goes through `TaskAssignmentUtils.optimizeRackAwareActiveTasks`
//!   and `optimizeRackAwareStandbyTasks`, which run only when
//!   `rack.aware.assignment.strategy` is not `none` **and** both
//!   `rack.aware.assignment.traffic_cost` and `rack.aware.assignment.non_overlap_cost`
//!   are configured (`canPerformRackAwareOptimization` checks the configs, not the
//!   assignor's defaults 1 and 10 it then passes as overrides); with the defaults
//!   (null) no rack optimisation runs;
//! * an active task's traffic cost counts its changelog partitions too (its
//!   `TaskInfo.topicPartitions` holds source and changelog partitions), and the
//!   stateful/stateless split of the two optimisation passes is `TaskInfo.isStateful`
//!   (the sub-topology has state stores, logged or not);
//! * the standby optimiser's movement predicate is given the source client's state
//!   for both ends, so with `rack.aware.assignment.tags` it compares a set with
//!   itself and always allows the move (and without tags it allows every move).
//!
//! [`default_standby_task_assignment`] is `TaskAssignmentUtils.defaultStandbyTaskAssignment`
//! (not called by the built-in assignor, offered to custom ones): tag-based over
//! `rack.aware.assignment.tags` when set, else load-based, the same algorithms as
//! `ClientTagAwareStandbyTaskAssignor` and `DefaultStandbyTaskAssignor`.

pub use super::sticky::Variant;
use super::{Assignor, Ctx, TaskAssignor};
use crate::engine::kstreams::rack_aware::{self, RackStrategy};
use crate::engine::kstreams::{standby, Event};
use crate::engine::strategy::StrategyInfo;

/// Kafka's `StickyTaskAssignor.DEFAULT_STICKY_TRAFFIC_COST`.
pub const DEFAULT_STICKY_TRAFFIC_COST: i64 = 1;
/// Kafka's `StickyTaskAssignor.DEFAULT_STICKY_NON_OVERLAP_COST`.
pub const DEFAULT_STICKY_NON_OVERLAP_COST: i64 = 10;

/// KIP-924's `StickyTaskAssignor`, the registry's entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct StickyTaskAssignor;

impl TaskAssignor for StickyTaskAssignor {
    fn id(&self) -> Assignor {
        Assignor::StickyTaskAssignor
    }

    fn class_name(&self) -> &'static str {
        "StickyTaskAssignor"
    }

    fn label(&self) -> &'static str {
        "StickyTaskAssignor (KIP-924)"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "task.assignor.class",
            name: super::STICKY_TASK_ASSIGNOR_CLASS,
            upstream: super::STICKY_TASK_ASSIGNOR_CLASS,
            summary: "the sticky placement through KIP-924's TaskAssignor interface: strict least-loaded, rack optimisation only with both costs configured",
            file: "kstreams/assignor/sticky_task_assignor.rs",
        }
    }

    fn assign(&self, ctx: &mut Ctx) -> bool {
        assign(ctx)
    }
}

/// Run KIP-924's `StickyTaskAssignor` (never asks for a probing rebalance).
pub fn assign(ctx: &mut Ctx) -> bool {
    super::sticky::assign_with(ctx, Variant::Kip924)
}

/// `TaskAssignmentUtils.canPerformRackAwareOptimization`: the strategy is set, both
/// costs are configured and the rack information is valid. Says why not in a warning.
pub fn can_perform_rack_aware_optimization(ctx: &mut Ctx) -> bool {
    let strategy = ctx.cfg.rack_aware_assignment_strategy;
    if strategy == RackStrategy::None {
        return false;
    }
    let missing: Vec<&str> = [
        (
            ctx.cfg.traffic_cost.is_none(),
            "rack.aware.assignment.traffic_cost",
        ),
        (
            ctx.cfg.non_overlap_cost.is_none(),
            "rack.aware.assignment.non_overlap_cost",
        ),
    ]
    .into_iter()
    .filter(|x| x.0)
    .map(|x| x.1)
    .collect();
    if !missing.is_empty() {
        ctx.log.push(Event::Warning {
            message: format!(
                "rack-aware optimization unavailable: TaskAssignmentUtils needs {} configured (StickyTaskAssignor's defaults 1 and 10 are only overrides)",
                missing.join(" and ")
            ),
        });
        return false;
    }
    ctx.rack.is_some()
}

/// `optimizeRackAwareActiveTasks` for the stateful tasks (costs `traffic`,
/// `non_overlap`) and then the stateless ones (1, 0), as `StickyTaskAssignor.optimizeActive`.
pub fn optimize_active(ctx: &mut Ctx, traffic: i64, non_overlap: i64) {
    if !can_perform_rack_aware_optimization(ctx) {
        return;
    }
    let with_stores: Vec<usize> = (0..ctx.tasks.len())
        .filter(|&t| ctx.tasks[t].has_stores)
        .collect();
    let without: Vec<usize> = (0..ctx.tasks.len())
        .filter(|&t| !ctx.tasks[t].has_stores)
        .collect();
    rack_aware::optimize_active_with(ctx, &with_stores, traffic, non_overlap, "stateful actives", true);
    rack_aware::optimize_active_with(ctx, &without, 1, 0, "stateless actives", true);
}

/// `optimizeRackAwareStandbyTasks`, whose movement predicate allows every move.
pub fn optimize_standby(ctx: &mut Ctx, traffic: i64, non_overlap: i64) {
    if ctx.clients.iter().all(|c| c.standby.is_empty()) || !can_perform_rack_aware_optimization(ctx) {
        return;
    }
    let classes = vec![0; ctx.clients.len()];
    rack_aware::optimize_standby(ctx, traffic, non_overlap, &|_, _, _| true, &classes);
}

/// `TaskAssignmentUtils.defaultStandbyTaskAssignment`: standbys for every stateful
/// task of an assignment whose actives are placed, tag-based when
/// `rack.aware.assignment.tags` is set, else load-based. Returns the standby
/// assignor's class name (the algorithm it shares).
pub fn default_standby_task_assignment(ctx: &mut Ctx) -> &'static str {
    let sa = standby::StandbyAssignor::from_factory(ctx, false);
    let stateful = ctx.stateful();
    sa.assign(ctx, &stateful);
    sa.class_name()
}
