//! Kafka's `HighAvailabilityTaskAssignor` (KIP-441, default since 2.6).
//!
//! 1. Stateful actives round-robin over clients in process-id order, then balanced
//!    by per-thread load; optionally optimized for racks (traffic cost 10, non-overlap 1).
//! 2. Standbys by the default or client-tag-aware standby assignor, balanced, optimized.
//! 3. Task movements (see [`super::super::warmup`]): an active placed on a client
//!    that is not caught up goes to a caught-up client instead (a caught-up standby
//!    first), leaving a warm-up behind within `max.warmup.replicas`.
//! 4. Stateless actives to the client with the lowest active load; optimized for racks
//!    with traffic cost 1 and non-overlap cost 0.
//!
//! Returns whether a probing rebalance is needed (some movement was scheduled).

use super::{balance_over_clients, Assignor, Ctx, Reason};
use crate::engine::kstreams::client_state::poll_least;
use crate::engine::kstreams::Event;
use crate::engine::kstreams::{rack_aware, standby, warmup};

/// Kafka's default traffic cost for the high-availability assignor.
pub const DEFAULT_TRAFFIC_COST: i64 = 10;
/// Kafka's default non-overlap cost for the high-availability assignor.
pub const DEFAULT_NON_OVERLAP_COST: i64 = 1;
/// Costs used for stateless tasks.
pub const STATELESS_TRAFFIC_COST: i64 = 1;
/// Costs used for stateless tasks.
pub const STATELESS_NON_OVERLAP_COST: i64 = 0;

/// Run the assignor; true when a follow-up probing rebalance is needed.
pub fn assign(ctx: &mut Ctx) -> bool {
    if ctx.clients.is_empty() {
        return false;
    }
    let stateful = ctx.stateful();
    let stateless = ctx.stateless();
    let traffic = ctx.cfg.traffic_cost.map_or(DEFAULT_TRAFFIC_COST, i64::from);
    let non_overlap = ctx
        .cfg
        .non_overlap_cost
        .map_or(DEFAULT_NON_OVERLAP_COST, i64::from);

    // 1. Stateful actives: round robin, then balance.
    let n = ctx.clients.len();
    for (i, &t) in stateful.iter().enumerate() {
        ctx.clients[i % n].active.insert(t);
        ctx.active_reason[t] = Reason::Balance;
    }
    balance_over_clients(ctx, false, &|_, _| true);
    if ctx.rack.is_some() {
        rack_aware::optimize_active(ctx, &stateful, traffic, non_overlap, "stateful actives");
    }

    // 2. Standbys.
    if ctx.standby_replicas > 0 {
        let sa = standby::StandbyAssignor::choose(ctx);
        ctx.log.push(Event::StandbyAssignorChosen {
            assignor: Assignor::HighAvailability,
            standby_assignor: sa.class_name().to_string(),
            tags: sa.keys.clone(),
            members_with_client_rack: ctx.members_with_rack(),
            members: ctx.clients.len() as u32,
            strategy: ctx.cfg.rack_aware_assignment_strategy,
            rack_optimizer: ctx.rack.is_some(),
        });
        sa.assign(ctx, &stateful);
        let allowed = |s: usize, d: usize| sa.allowed_move(s, d);
        balance_over_clients(ctx, true, &allowed);
        if ctx.rack.is_some() {
            let classes = sa.move_classes(ctx.clients.len());
            rack_aware::optimize_standby(
                ctx,
                traffic,
                non_overlap,
                &|h, s, d| sa.allowed_move_of(h, s, d),
                &classes,
            );
        }
    }

    // 3. Movements towards caught-up clients, with warm-ups.
    let mut remaining = i64::from(ctx.cfg.max_warmup_replicas);
    let active_moves = warmup::assign_active_task_movements(ctx, &stateful, &mut remaining);
    let standby_moves = warmup::assign_standby_task_movements(ctx, &stateful, &mut remaining);

    // 4. Stateless actives by active load.
    for &t in &stateless {
        if let Some(c) = poll_least(&ctx.clients, |c| c.active_load(), |_| true) {
            ctx.clients[c].active.insert(t);
            ctx.active_reason[t] = Reason::Balance;
        }
    }
    if ctx.rack.is_some() {
        rack_aware::optimize_active(
            ctx,
            &stateless,
            STATELESS_TRAFFIC_COST,
            STATELESS_NON_OVERLAP_COST,
            "stateless actives",
        );
    }
    // Name the reason when the balanced placement happened to land on a client
    // that already had caught-up state for the task (typically its standby).
    for &t in &stateful {
        if ctx.active_reason[t] != Reason::Balance {
            continue;
        }
        if let Some(c) = (0..ctx.clients.len()).find(|&c| ctx.clients[c].active.contains(&t)) {
            if ctx.clients[c].prev_standby.contains(&t) && warmup::caught_up(ctx, c, t) {
                ctx.active_reason[t] = Reason::CaughtUp;
            }
        }
    }
    active_moves + standby_moves > 0
}
