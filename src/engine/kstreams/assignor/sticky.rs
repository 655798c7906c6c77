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
    pairs: Pairs,
}

/// Kafka's `TaskPairs`: the set of task pairs that have shared a client
/// (a task placed on a client pairs with every task the client holds then),
/// read by `hasNewPair` and capped at `maxPairs`.
///
/// Kafka keeps the pairs themselves: n²/2 of them once one client holds n
/// tasks. The set is never needed, only whether a pair is in it, and it has a
/// shape that answers that from a few numbers per task:
///
/// * while actives are placed (clients start empty and only grow), the pairs
///   are the pairs of tasks placed on the same client, so `{x, y}` is a pair
///   when `group[x] == group[y]`, and a task not yet placed is in no pair;
/// * the rack optimiser may then move actives (the pairs stay as they were);
/// * while standbys are placed, a standby of `t` placed on client `j` pairs
///   `t` with everything `j` holds, and everything placed on `j` later pairs
///   with it: `{x, y}` is also a pair when both are on one client now and one
///   of them is a standby there.
///
/// The count of pairs grows by the number of new pairs at each placement.
/// The same answers as the set (checked against it in debug builds on small
/// assignments), in O(n) memory.
struct Pairs {
    /// Standbys are being placed.
    standbys: bool,
    /// The client each task was placed on as an active (`usize::MAX`: not yet).
    group: Vec<usize>,
    /// The client each task is active on after the actives' optimisation.
    active_on: Vec<usize>,
    /// The clients each task has a standby on.
    standby_on: Vec<Vec<usize>>,
    /// Pairs so far.
    count: usize,
    /// `maxPairs`: n (n - 1) / 2.
    max: usize,
    /// Kafka's set itself, on small assignments of debug builds.
    #[cfg(debug_assertions)]
    reference: Option<BTreeSet<(usize, usize)>>,
}

impl Pairs {
    fn new(n: usize) -> Pairs {
        Pairs {
            standbys: false,
            group: vec![usize::MAX; n],
            active_on: Vec::new(),
            standby_on: vec![Vec::new(); n],
            count: 0,
            max: n * n.saturating_sub(1) / 2,
            #[cfg(debug_assertions)]
            reference: (n <= 200).then(BTreeSet::new),
        }
    }

    /// Actives are placed: note where each is now (after the optimiser).
    fn start_standbys(&mut self, clients: &[ClientState]) {
        self.standbys = true;
        self.active_on = vec![usize::MAX; self.group.len()];
        for (k, c) in clients.iter().enumerate() {
            for &t in &c.active {
                if let Some(a) = self.active_on.get_mut(t) {
                    *a = k;
                }
            }
        }
    }

    /// Whether `{t, o}` is a pair (`t` and `o` distinct, `o` placed).
    fn paired(&self, t: usize, o: usize) -> bool {
        if self.group[t] != usize::MAX && self.group[t] == self.group[o] {
            return true;
        }
        if !self.standbys {
            return false;
        }
        let (st, so) = (&self.standby_on[t], &self.standby_on[o]);
        so.contains(&self.active_on[t])
            || st.contains(&self.active_on[o])
            || st.iter().any(|j| so.contains(j))
    }

    /// `hasNewPair(t, tasks of c)`: `c` holds no task paired with `t` yet, or
    /// one at least (`t` is not on `c`).
    fn has_new_pair(&self, t: usize, c: &ClientState) -> bool {
        let any_new = self.count < self.max && c.active.iter().chain(&c.standby).any(|&o| !self.paired(t, o));
        #[cfg(debug_assertions)]
        if let Some(r) = &self.reference {
            let kafka = r.len() < self.max
                && c.active
                    .iter()
                    .chain(&c.standby)
                    .any(|&o| !r.contains(&(t.min(o), t.max(o))));
            assert_eq!(any_new, kafka, "hasNewPair({t}) differs from Kafka's pair set");
            assert_eq!(self.count, r.len());
        }
        any_new
    }

    /// `addPairs(t, tasks of c)`, just before `t` is placed on client `k` (`c`).
    fn add(&mut self, t: usize, k: usize, c: &ClientState) {
        #[cfg(debug_assertions)]
        if let Some(r) = &mut self.reference {
            for &o in c.active.iter().chain(c.standby.iter()) {
                r.insert((t.min(o), t.max(o)));
            }
        }
        let new = if self.standbys {
            c.active
                .iter()
                .chain(&c.standby)
                .filter(|&&o| o != t && !self.paired(t, o))
                .count()
        } else {
            // An active not yet placed is in no pair: one new pair per task on `c`.
            c.assigned()
        };
        self.count += new;
        if self.standbys {
            self.standby_on[t].push(k);
        } else {
            self.group[t] = k;
        }
        #[cfg(debug_assertions)]
        if let Some(r) = &self.reference {
            assert_eq!(
                self.count,
                r.len(),
                "the pair count differs from Kafka's pair set"
            );
        }
    }
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
        if better && (!check_pairs || st.pairs.has_new_pair(t, c)) {
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
        pairs: Pairs::new(n_tasks),
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
            st.pairs.add(t, k, &ctx.clients[k]);
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
                    st.pairs.add(t, k, &ctx.clients[k]);
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
            st.pairs.add(t, k, &ctx.clients[k]);
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
    st.pairs.start_standbys(&ctx.clients);
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
                st.pairs.add(t, k, &ctx.clients[k]);
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
