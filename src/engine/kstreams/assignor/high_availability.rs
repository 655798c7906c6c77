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

use super::{balance_over_clients, Assignor, Ctx, Reason, TaskAssignor};
use crate::engine::kstreams::client_state::poll_least;
use crate::engine::kstreams::Event;
use crate::engine::kstreams::{rack_aware, standby, warmup};
use crate::engine::strategy::StrategyInfo;

/// Kafka's default traffic cost for the high-availability assignor.
pub const DEFAULT_TRAFFIC_COST: i64 = 10;
/// Kafka's default non-overlap cost for the high-availability assignor.
pub const DEFAULT_NON_OVERLAP_COST: i64 = 1;
/// Costs used for stateless tasks.
pub const STATELESS_TRAFFIC_COST: i64 = 1;
/// Costs used for stateless tasks.
pub const STATELESS_NON_OVERLAP_COST: i64 = 0;

/// `HighAvailabilityTaskAssignor`, the registry's entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct HighAvailabilityTaskAssignor;

impl TaskAssignor for HighAvailabilityTaskAssignor {
    fn id(&self) -> Assignor {
        Assignor::HighAvailability
    }

    fn class_name(&self) -> &'static str {
        "HighAvailabilityTaskAssignor"
    }

    fn label(&self) -> &'static str {
        "HighAvailability"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "internal.task.assignor.class",
            name: super::HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS,
            upstream: super::HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS,
            summary: "stateful actives balanced over clients, moved to caught-up clients with warm-ups left behind and probing rebalances until the balanced target is reached",
            file: "kstreams/assignor/high_availability.rs",
        }
    }

    fn assign(&self, ctx: &mut Ctx) -> bool {
        assign(ctx)
    }
}

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

    // Who ran each task before (the first client claiming it).
    let mut prev_owner: Vec<Option<usize>> = vec![None; ctx.tasks.len()];
    for (c, cl) in ctx.clients.iter().enumerate() {
        for &t in &cl.prev_active {
            if let Some(slot @ None) = prev_owner.get_mut(t) {
                *slot = Some(c);
            }
        }
    }

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
    // The balanced target, before movements towards caught-up clients.
    let mut target: Vec<Option<usize>> = vec![None; ctx.tasks.len()];
    for (c, cl) in ctx.clients.iter().enumerate() {
        for &t in &cl.active {
            target[t] = Some(c);
        }
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
    let owner = active_owners(ctx);
    for &t in &stateful {
        if ctx.active_reason[t] != Reason::Balance {
            continue;
        }
        if let Some(c) = owner[t] {
            if ctx.clients[c].prev_standby.contains(&t) && warmup::caught_up(ctx, c, t) {
                ctx.active_reason[t] = Reason::CaughtUp;
            }
        }
    }
    explain_movements(ctx, &stateful, &prev_owner, &target);
    active_moves + standby_moves > 0
}

/// The client running each task as active, by task.
fn active_owners(ctx: &Ctx) -> Vec<Option<usize>> {
    let mut owner = vec![None; ctx.tasks.len()];
    for (c, cl) in ctx.clients.iter().enumerate() {
        for &t in &cl.active {
            owner[t] = Some(c);
        }
    }
    owner
}

/// Most member names one explanation lists.
const MAX_NAMED: usize = 8;

/// The numbers behind the high-availability target: how many members are caught
/// up on each stateful task, and for every stateful active that changed owner, who
/// counted as caught up, whether it went to its balanced target, and its restore.
fn explain_movements(
    ctx: &mut Ctx,
    stateful: &[usize],
    prev_owner: &[Option<usize>],
    target: &[Option<usize>],
) {
    if stateful.is_empty() {
        return;
    }
    let members = ctx.clients.len();
    let owner = active_owners(ctx);
    // Caught-up members per task, counted over the lags the clients report (a
    // client without state for a task lags by its whole end offset): linear in the
    // clients and their reported lags, not clients × tasks.
    let acceptable = ctx.cfg.acceptable_recovery_lag;
    let unbounded = acceptable >= i64::MAX as u64;
    let mut reporting = vec![0usize; ctx.tasks.len()];
    let mut caught_reporting = vec![0usize; ctx.tasks.len()];
    for c in 0..members {
        for &t in ctx.clients[c].lags.keys() {
            if t < ctx.tasks.len() {
                reporting[t] += 1;
                if warmup::caught_up(ctx, c, t) {
                    caught_reporting[t] += 1;
                }
            }
        }
    }
    let (mut all, mut none) = (0u32, 0u32);
    let mut moved = Vec::new();
    for &t in stateful {
        let silent_caught = unbounded || ctx.tasks[t].end <= acceptable;
        let count = caught_reporting[t] + if silent_caught { members - reporting[t] } else { 0 };
        if count == members {
            all += 1;
        }
        if count == 0 {
            none += 1;
        }
        let Some(to) = owner[t] else { continue };
        if prev_owner[t] == Some(to) {
            continue;
        }
        let lag = ctx.clients[to].lag_for(t, ctx.tasks);
        let caught: Vec<usize> = (0..members)
            .filter(|&c| warmup::caught_up(ctx, c, t))
            .take(MAX_NAMED)
            .collect();
        moved.push(Event::ActiveMovementExplained {
            task: ctx.tasks[t].id,
            from: prev_owner[t].map(|c| ctx.clients[c].name.to_string()),
            to: ctx.clients[to].name.to_string(),
            caught_up: caught.iter().map(|&c| ctx.clients[c].name.to_string()).collect(),
            caught_up_count: count as u32,
            members: members as u32,
            acceptable_recovery_lag: ctx.cfg.acceptable_recovery_lag,
            lag,
            restore_records: if lag < 0 { 0 } else { lag as u64 },
            target: target[t] == Some(to),
            from_caught_up: prev_owner[t].is_some_and(|c| warmup::caught_up(ctx, c, t)),
        });
    }
    ctx.log.push(Event::HighAvailabilityTarget {
        stateful_tasks: stateful.len() as u32,
        members: members as u32,
        tasks_all_caught_up: all,
        tasks_none_caught_up: none,
        acceptable_recovery_lag: ctx.cfg.acceptable_recovery_lag,
        moved: moved.len() as u32,
    });
    ctx.log.extend(moved);
}
