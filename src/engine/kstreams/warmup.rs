//! Kafka's `TaskMovement`: after the balanced assignment is computed, every task
//! placed on a client that is not caught up (while a more caught-up client
//! exists) is given to a caught-up client instead, and the intended client gets a
//! *warm-up* replica (an extra standby) to restore in the background, within the
//! global `max.warmup.replicas` budget. A probing rebalance then checks whether the
//! warm-ups have caught up.
//!
//! A client is caught up on a task when it runs it as a running active
//! (`LATEST_OFFSET`), when `acceptable.recovery.lag` is unbounded (`Long.MAX_VALUE`),
//! or when `0 <= lag <= acceptable.recovery.lag`.

use super::assignor::{Ctx, Reason};
use super::client_state::{poll_least, LATEST_OFFSET};
use crate::sort::StableSort;

/// Caught up on `t`?
pub fn caught_up(ctx: &Ctx, c: usize, t: usize) -> bool {
    let lag = ctx.clients[c].lag_for(t, ctx.tasks);
    let acceptable = ctx.cfg.acceptable_recovery_lag;
    lag == LATEST_OFFSET || acceptable >= i64::MAX as u64 || (lag >= 0 && lag as u64 <= acceptable)
}

/// Clients sorted by (lag on `t`, process id) — Kafka's `tasksToClientByLag`.
fn clients_by_lag(ctx: &Ctx, t: usize) -> Vec<usize> {
    let mut v: Vec<(i64, usize)> = (0..ctx.clients.len())
        .map(|c| (ctx.clients[c].lag_for(t, ctx.tasks), c))
        .collect();
    v.stable_sort();
    v.into_iter().map(|x| x.1).collect()
}

fn not_caught_up_and_better_exists(ctx: &Ctx, t: usize, c: usize) -> bool {
    if caught_up(ctx, c, t) {
        return false;
    }
    let best = (0..ctx.clients.len())
        .map(|k| ctx.clients[k].lag_for(t, ctx.tasks))
        .min()
        .unwrap_or(i64::MAX);
    best < ctx.clients[c].lag_for(t, ctx.tasks)
}

fn count_caught_up(ctx: &Ctx, t: usize) -> usize {
    (0..ctx.clients.len()).filter(|&c| caught_up(ctx, c, t)).count()
}

fn most_caught_up_eligible(ctx: &Ctx, t: usize, dest: usize, ok: impl Fn(usize) -> bool) -> Option<usize> {
    for c in clients_by_lag(ctx, t) {
        if c == dest {
            break;
        }
        if ok(c) {
            return Some(c);
        }
    }
    None
}

fn swap_standby_and_active(ctx: &mut Ctx, t: usize, src: usize, dest: usize) {
    ctx.remove_standby(src, t);
    ctx.clients[src].active.insert(t);
    ctx.clients[dest].active.remove(&t);
    ctx.add_standby(dest, t, Reason::LeastLoaded);
}

fn move_active_and_try_to_warm_up(ctx: &mut Ctx, t: usize, src: usize, dest: usize, remaining: &mut i64) {
    ctx.clients[src].active.insert(t);
    ctx.clients[dest].active.remove(&t);
    if *remaining > 0 {
        ctx.add_standby(dest, t, Reason::WarmUp);
        ctx.warmups.insert((dest, t));
    }
    *remaining -= 1;
}

/// Scheduled movements, ordered as Kafka's priority queue: fewest caught-up
/// clients first, then task id.
fn movements(ctx: &Ctx, stateful: &[usize], standby: bool) -> Vec<(usize, usize, usize)> {
    let mut v = Vec::new();
    for c in 0..ctx.clients.len() {
        let set = if standby {
            &ctx.clients[c].standby
        } else {
            &ctx.clients[c].active
        };
        for &t in set {
            if !ctx.tasks[t].stateful || stateful.binary_search(&t).is_err() {
                continue;
            }
            if standby && ctx.warmups.contains(&(c, t)) {
                continue;
            }
            if not_caught_up_and_better_exists(ctx, t, c) {
                v.push((count_caught_up(ctx, t), t, c));
            }
        }
    }
    v.stable_sort();
    v
}

/// Move actives to caught-up clients; returns how many movements were needed.
pub fn assign_active_task_movements(ctx: &mut Ctx, stateful: &[usize], remaining: &mut i64) -> usize {
    let moves = movements(ctx, stateful, false);
    for &(_, t, dest) in &moves {
        let with_standby = {
            let c: &Ctx = ctx;
            poll_least(
                &c.clients,
                |x| x.assigned_load(),
                |k| caught_up(c, k, t) && c.clients[k].standby.contains(&t),
            )
        };
        if let Some(src) = with_standby {
            swap_standby_and_active(ctx, t, src, dest);
            ctx.active_reason[t] = Reason::StandbyPromoted;
            continue;
        }
        let any = {
            let c: &Ctx = ctx;
            poll_least(&c.clients, |x| x.assigned_load(), |k| caught_up(c, k, t))
        };
        if let Some(src) = any {
            move_active_and_try_to_warm_up(ctx, t, src, dest, remaining);
            ctx.active_reason[t] = Reason::CaughtUp;
            continue;
        }
        if let Some(src) = most_caught_up_eligible(ctx, t, dest, |_| true) {
            if ctx.clients[src].standby.contains(&t) {
                swap_standby_and_active(ctx, t, src, dest);
            } else {
                move_active_and_try_to_warm_up(ctx, t, src, dest, remaining);
            }
            ctx.active_reason[t] = Reason::MostCaughtUp;
        }
    }
    moves.len()
}

/// Move standbys to caught-up clients; returns how many movements happened.
pub fn assign_standby_task_movements(ctx: &mut Ctx, stateful: &[usize], remaining: &mut i64) -> usize {
    let moves = movements(ctx, stateful, true);
    let mut needed = 0;
    for &(_, t, dest) in &moves {
        let src = {
            let c: &Ctx = ctx;
            poll_least(
                &c.clients,
                |x| x.assigned_load(),
                |k| caught_up(c, k, t) && !c.clients[k].has_assigned(t),
            )
            .or_else(|| most_caught_up_eligible(c, t, dest, |k| !c.clients[k].has_assigned(t)))
        };
        let Some(src) = src else { continue };
        let why = if caught_up(ctx, src, t) {
            Reason::CaughtUp
        } else {
            Reason::MostCaughtUp
        };
        ctx.add_standby(src, t, why);
        if *remaining > 0 {
            // The intended copy stays as a warm-up.
            ctx.standby_reason.insert((dest, t), Reason::WarmUp);
            ctx.warmups.insert((dest, t));
        } else {
            ctx.remove_standby(dest, t);
        }
        *remaining -= 1;
        needed += 1;
    }
    needed
}
