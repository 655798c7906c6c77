//! Kafka's `LegacyStickyTaskAssignor` (the pre-2.6 default): actives go back to
//! their previous owner while it is under its quota, then to a client that had a
//! standby, then to the least-loaded client (preferring one where the task forms a
//! new "task pair"); standbys go to the least-loaded client without a copy. It
//! ignores lags and never schedules warm-ups or probing rebalances.
//!
//! Tie rules (Kafka iterates `HashMap`/`HashSet`s here): previous owners are
//! visited in task-id order, candidate clients in process-id order, and when two
//! clients claim the same previous active the last in process-id order wins (as a
//! map `put` would).

use super::{Assignor, Ctx, Reason, TaskAssignor};
use crate::engine::kstreams::client_state::{cmp_load, has_more_available_capacity, ClientState};
use crate::engine::kstreams::rack_aware;
use crate::engine::strategy::StrategyInfo;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Kafka's stateful defaults for this assignor's rack optimisation.
pub const DEFAULT_STATEFUL_TRAFFIC_COST: i64 = 1;
/// Kafka's stateful defaults for this assignor's rack optimisation.
pub const DEFAULT_STATEFUL_NON_OVERLAP_COST: i64 = 10;

struct Sticky {
    /// KIP-924's `StickyTaskAssignor` rules for "less loaded" (see [`Variant`]).
    kip924: bool,
    prev_active: BTreeMap<usize, usize>,
    prev_standby: BTreeMap<usize, BTreeSet<usize>>,
    pairs: BTreeSet<(usize, usize)>,
    max_pairs: usize,
}

impl Sticky {
    fn has_new_pair(&self, t: usize, assigned: &BTreeSet<usize>) -> bool {
        if self.pairs.len() >= self.max_pairs {
            return false;
        }
        assigned
            .iter()
            .any(|&o| !self.pairs.contains(&(t.min(o), t.max(o))))
    }

    fn add_pairs(&mut self, t: usize, c: &ClientState) {
        for &o in c.active.iter().chain(c.standby.iter()) {
            self.pairs.insert((t.min(o), t.max(o)));
        }
    }
}

fn assigned_set(c: &ClientState) -> BTreeSet<usize> {
    c.active.union(&c.standby).copied().collect()
}

fn find_least_loaded(ctx: &Ctx, st: &Sticky, t: usize, within: &[usize], check_pairs: bool) -> Option<usize> {
    let mut best: Option<usize> = None;
    for &k in within {
        let c = &ctx.clients[k];
        if c.assigned() == 0 {
            return Some(k);
        }
        let better = match best {
            None => true,
            Some(b) if st.kip924 => {
                cmp_load(c.assigned_load(), ctx.clients[b].assigned_load()) == Ordering::Less
            }
            Some(b) => has_more_available_capacity(c, &ctx.clients[b]),
        };
        if better && (!check_pairs || st.has_new_pair(t, &assigned_set(c))) {
            best = Some(k);
        }
    }
    best
}

fn least_loaded(ctx: &Ctx, st: &Sticky, t: usize, within: &[usize]) -> Option<usize> {
    find_least_loaded(ctx, st, t, within, true).or_else(|| find_least_loaded(ctx, st, t, within, false))
}

fn should_balance_load(ctx: &Ctx, st: &Sticky, c: usize) -> bool {
    let me = &ctx.clients[c];
    let less_loaded = |o: &ClientState| {
        if st.kip924 {
            cmp_load(o.assigned_load(), me.assigned_load()) == Ordering::Less
        } else {
            has_more_available_capacity(o, me)
        }
    };
    me.assigned() >= me.capacity as usize && ctx.clients.iter().any(less_loaded)
}

fn least_loaded_prev_standby(ctx: &Ctx, st: &Sticky, t: usize, within: &[usize]) -> Option<usize> {
    let ids = st.prev_standby.get(&t)?;
    let c: Vec<usize> = within.iter().copied().filter(|k| ids.contains(k)).collect();
    least_loaded(ctx, st, t, &c)
}

fn find_client(ctx: &Ctx, st: &Sticky, t: usize, within: &[usize]) -> Option<(usize, Reason)> {
    if within.len() == 1 {
        return Some((within[0], Reason::Balance));
    }
    let previous = match st.prev_active.get(&t) {
        Some(&p) if within.contains(&p) => Some((p, Reason::Sticky)),
        _ => least_loaded_prev_standby(ctx, st, t, within).map(|p| (p, Reason::PreviousStandby)),
    };
    let Some((p, why)) = previous else {
        return least_loaded(ctx, st, t, within).map(|c| (c, Reason::Balance));
    };
    if should_balance_load(ctx, st, p) {
        match least_loaded_prev_standby(ctx, st, t, within) {
            Some(s) if !should_balance_load(ctx, st, s) => Some((s, Reason::PreviousStandby)),
            _ => least_loaded(ctx, st, t, within).map(|c| (c, Reason::Balance)),
        }
    } else {
        Some((p, why))
    }
}

/// Which sticky assignor: the legacy one or KIP-924's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `LegacyStickyTaskAssignor`: a client is less loaded when its assigned load
    /// (tasks / threads) is lower, or equal with more threads
    /// (`ClientState.hasMoreAvailableCapacityThan`); rack-aware optimisation runs
    /// whenever rack-aware assignment can be enabled.
    Legacy,
    /// KIP-924's `StickyTaskAssignor`: less loaded means a strictly lower load (no
    /// thread-count tie-break); rack-aware optimisation goes through
    /// `TaskAssignmentUtils` (see [`super::sticky_task_assignor`]).
    Kip924,
}

/// `LegacyStickyTaskAssignor`, the registry's entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegacyStickyTaskAssignor;

impl TaskAssignor for LegacyStickyTaskAssignor {
    fn id(&self) -> Assignor {
        Assignor::Sticky
    }

    fn class_name(&self) -> &'static str {
        "LegacyStickyTaskAssignor"
    }

    fn label(&self) -> &'static str {
        "Sticky"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "internal.task.assignor.class",
            name: super::LEGACY_STICKY_TASK_ASSIGNOR_CLASS,
            upstream: super::LEGACY_STICKY_TASK_ASSIGNOR_CLASS,
            summary: "actives back to their previous owner under its quota, then to a previous standby, then to the least-loaded client; ignores lags",
            file: "kstreams/assignor/sticky.rs",
        }
    }

    fn assign(&self, ctx: &mut Ctx) -> bool {
        assign(ctx)
    }
}

/// Run the legacy sticky assignor (never asks for a probing rebalance).
pub fn assign(ctx: &mut Ctx) -> bool {
    assign_with(ctx, Variant::Legacy)
}

/// Run a sticky assignor (never asks for a probing rebalance).
pub fn assign_with(ctx: &mut Ctx, variant: Variant) -> bool {
    let n_tasks = ctx.tasks.len();
    if ctx.clients.is_empty() || n_tasks == 0 {
        return false;
    }
    let mut st = Sticky {
        kip924: variant == Variant::Kip924,
        prev_active: BTreeMap::new(),
        prev_standby: BTreeMap::new(),
        pairs: BTreeSet::new(),
        max_pairs: n_tasks * (n_tasks - 1) / 2,
    };
    for (k, c) in ctx.clients.iter().enumerate() {
        for &t in &c.prev_active {
            st.prev_active.insert(t, k);
        }
        for &t in &c.prev_standby {
            st.prev_standby.entry(t).or_default().insert(k);
        }
    }
    let all: Vec<usize> = (0..ctx.clients.len()).collect();
    // Active: previous owners under quota.
    let capacity: usize = ctx.clients.iter().map(|c| c.capacity as usize).sum();
    let per_thread = n_tasks / capacity.max(1);
    ctx.log.push(super::Event::ActiveQuota {
        assignor: if st.kip924 {
            super::Assignor::StickyTaskAssignor
        } else {
            super::Assignor::Sticky
        },
        tasks: n_tasks as u32,
        threads: capacity as u32,
        active_tasks_per_thread: per_thread as u32,
    });
    let quota_ok = |c: &ClientState| c.active.len() < c.capacity as usize * per_thread;
    let mut assigned = BTreeSet::new();
    for (&t, &k) in &st.prev_active.clone() {
        if t < n_tasks && quota_ok(&ctx.clients[k]) {
            st.add_pairs(t, &ctx.clients[k]);
            ctx.clients[k].active.insert(t);
            ctx.active_reason[t] = Reason::Sticky;
            assigned.insert(t);
        }
    }
    // Then clients that had a standby.
    for t in 0..n_tasks {
        if assigned.contains(&t) {
            continue;
        }
        if let Some(ids) = st.prev_standby.get(&t).cloned() {
            for k in ids {
                if quota_ok(&ctx.clients[k]) {
                    st.add_pairs(t, &ctx.clients[k]);
                    ctx.clients[k].active.insert(t);
                    ctx.active_reason[t] = Reason::PreviousStandby;
                    assigned.insert(t);
                    break;
                }
            }
        }
    }
    // The rest.
    for t in 0..n_tasks {
        if assigned.contains(&t) {
            continue;
        }
        if let Some((k, why)) = find_client(ctx, &st, t, &all) {
            st.add_pairs(t, &ctx.clients[k]);
            ctx.clients[k].active.insert(t);
            ctx.active_reason[t] = why;
        }
    }
    let traffic = ctx
        .cfg
        .traffic_cost
        .map_or(DEFAULT_STATEFUL_TRAFFIC_COST, i64::from);
    let non_overlap = ctx
        .cfg
        .non_overlap_cost
        .map_or(DEFAULT_STATEFUL_NON_OVERLAP_COST, i64::from);
    if variant == Variant::Kip924 {
        super::sticky_task_assignor::optimize_active(ctx, traffic, non_overlap);
    } else if ctx.rack.is_some() {
        let stateful = ctx.stateful();
        let stateless = ctx.stateless();
        rack_aware::optimize_active(ctx, &stateful, traffic, non_overlap, "stateful actives");
        rack_aware::optimize_active(ctx, &stateless, 1, 0, "stateless actives");
    }
    // Standbys.
    let want = ctx.standby_replicas;
    if want > 0 {
        let who = if st.kip924 {
            super::Assignor::StickyTaskAssignor
        } else {
            super::Assignor::Sticky
        };
        ctx.log.push(super::Event::StandbyAssignorChosen {
            assignor: who,
            standby_assignor: who.class_name().into(),
            tags: Vec::new(),
            members_with_client_rack: ctx.members_with_rack(),
            members: ctx.clients.len() as u32,
            strategy: ctx.cfg.rack_aware_assignment_strategy,
            rack_optimizer: ctx.rack.is_some(),
        });
    }
    for t in ctx.stateful() {
        for i in 0..want {
            let without: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&k| !ctx.clients[k].has_assigned(t))
                .collect();
            if without.is_empty() {
                let id = ctx.tasks[t].id;
                ctx.log.push(super::Event::Warning {
                    message: format!(
                        "unable to assign {} of {want} standby replicas for task {id}",
                        want - i
                    ),
                });
                break;
            }
            if let Some((k, why)) = find_client(ctx, &st, t, &without) {
                st.add_pairs(t, &ctx.clients[k]);
                let why = if why == Reason::Balance {
                    Reason::LeastLoaded
                } else {
                    why
                };
                ctx.add_standby(k, t, why);
            }
        }
    }
    if want > 0 && variant == Variant::Kip924 {
        super::sticky_task_assignor::optimize_standby(ctx, traffic, non_overlap);
    } else if want > 0 && ctx.rack.is_some() {
        let classes = vec![0; ctx.clients.len()];
        rack_aware::optimize_standby(ctx, traffic, non_overlap, &|_, _, _| true, &classes);
    }
    false
}
