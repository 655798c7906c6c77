//! The group coordinator's `BalancedTaskAssignor` for streams groups
//! (`streams.assignor.name=balanced`, KIP-1357; `group-coordinator/.../streams/
//! assignor/BalancedTaskAssignor` at apache/kafka
//! 07a283acad20eb98936d789eeaa39c2acb5479b7): the placement half of the
//! high-availability assignor, on processes and members instead of clients and
//! threads, and blind to the previous assignment across processes.
//!
//! * stateful actives, in task-id order, dealt round-robin over the processes in
//!   process-id order, then moved from a more to a less loaded process (load =
//!   tasks / members) while a move lowers that skew without reversing it
//!   (`shouldMoveATask`), never onto a process that holds the task;
//! * standbys, task by task, on the least-loaded process without a copy (ties to
//!   the lower process id), evened out the same way; a task short of processes
//!   gets fewer, reported once for the group;
//! * stateless actives, one at a time, on the process with the fewest actives per
//!   member;
//! * inside a process, three rounds (stateful actives, standbys, stateless
//!   actives), each levelling the members' task counts at
//!   `(tasks so far + this round's) / members`: a stateful task stays on the
//!   member that holds it (active, standby or warm-up) while that member is below
//!   the level, the members below the level take the rest in turn, and what is
//!   left goes one each to members at the level, its holder first.
//!
//! No warm-ups, no lags, no rack or client tags. Ids are strings on the broker:
//! sub-topologies sort as text ("10" before "2"), and processes by their UUID text
//! (unsigned, unlike the classic protocol's `UUID.compareTo`). lbscope's member
//! ids sort in consumer-key order of the threads; of two members of one process
//! holding the same task, the first in that order keeps it.

use super::{Assignor, Ctx, MemberTasks, Reason, TaskAssignor};
use crate::engine::kstreams::client_state::ConsumerState;
use crate::engine::kstreams::threads::ThreadTasks;
use crate::engine::kstreams::Event;
use crate::engine::strategy::StrategyInfo;
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// One process's tasks, as ranks in the broker's task-id order.
#[derive(Clone, Debug, Default)]
struct Proc {
    client: usize,
    members: usize,
    stateful: BTreeSet<usize>,
    stateless: BTreeSet<usize>,
    standby: BTreeSet<usize>,
    /// Task rank → the member that holds it now (any role).
    owner: BTreeMap<usize, usize>,
}

impl Proc {
    fn active_count(&self) -> usize {
        self.stateful.len() + self.stateless.len()
    }

    fn assigned(&self) -> usize {
        self.active_count() + self.standby.len()
    }

    fn load(&self) -> f64 {
        self.assigned() as f64 / self.members as f64
    }

    fn active_load(&self) -> f64 {
        self.active_count() as f64 / self.members as f64
    }

    fn has(&self, t: usize) -> bool {
        self.stateful.contains(&t) || self.stateless.contains(&t) || self.standby.contains(&t)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Stateful,
    Standby,
}

fn tasks_of(p: &mut Proc, k: Kind) -> &mut BTreeSet<usize> {
    match k {
        Kind::Stateful => &mut p.stateful,
        Kind::Standby => &mut p.standby,
    }
}

/// `shouldMoveATask`, in doubles as Java computes it.
fn should_move(src: &Proc, dst: &Proc) -> bool {
    let skew = src.load() - dst.load();
    if skew <= 0.0 {
        return false;
    }
    let at_dst = (dst.assigned() as f64 + 1.0) / dst.members as f64;
    let at_src = (src.assigned() as f64 - 1.0) / src.members as f64;
    let proposed = at_src - at_dst;
    proposed >= 0.0 && proposed < skew
}

/// `balanceTasksOverProcesses`; returns the (task, from, to) moves.
fn balance(procs: &mut [Proc], k: Kind) -> Vec<(usize, usize, usize)> {
    let mut moves = Vec::new();
    // Every move strictly lowers the spread of loads; the cap is a guard only.
    for _ in 0..100_000 {
        let mut moved = false;
        for s in 0..procs.len() {
            for d in 0..procs.len() {
                if s == d || !should_move(&procs[s], &procs[d]) {
                    continue;
                }
                let source: Vec<usize> = tasks_of(&mut procs[s], k).iter().copied().collect();
                for t in source {
                    if !should_move(&procs[s], &procs[d]) {
                        break;
                    }
                    if !procs[d].has(t) {
                        tasks_of(&mut procs[s], k).remove(&t);
                        tasks_of(&mut procs[d], k).insert(t);
                        moves.push((t, s, d));
                        moved = true;
                    }
                }
            }
        }
        if !moved {
            break;
        }
    }
    moves
}

/// The least-loaded process by `key` passing `ok`, ties to the first.
fn least(procs: &[Proc], key: impl Fn(&Proc) -> f64, ok: impl Fn(&Proc) -> bool) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, p) in procs.iter().enumerate() {
        if !ok(p) {
            continue;
        }
        let l = key(p);
        if best.is_none_or(|(_, b)| l < b) {
            best = Some((i, l));
        }
    }
    best.map(|b| b.0)
}

/// One round of `distributeTasksOverMembers`: `tasks` (ranks, in order) over the
/// members, given `counts` so far and the holders `owner`; returns (member, task).
fn spread_round(
    tasks: &BTreeSet<usize>,
    owner: &BTreeMap<usize, usize>,
    counts: &mut [usize],
) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(tasks.len());
    if tasks.is_empty() || counts.is_empty() {
        return out;
    }
    let place = |m: usize, t: usize, counts: &mut [usize], out: &mut Vec<(usize, usize)>| {
        counts[m] += 1;
        out.push((m, t));
    };
    let level = (counts.iter().sum::<usize>() + tasks.len()) / counts.len();
    let mut unassigned = Vec::new();
    let mut skipped_owner: BTreeMap<usize, usize> = BTreeMap::new();
    for &t in tasks {
        match owner.get(&t) {
            Some(&m) if counts[m] < level => place(m, t, counts, &mut out),
            o => {
                unassigned.push(t);
                if let Some(&m) = o {
                    skipped_owner.insert(t, m);
                }
            }
        }
    }
    let mut to_fill: VecDeque<usize> = (0..counts.len()).filter(|&m| counts[m] < level).collect();
    let mut next = 0;
    while next < unassigned.len() {
        let Some(m) = to_fill.pop_front() else { break };
        place(m, unassigned[next], counts, &mut out);
        next += 1;
        if counts[m] < level {
            to_fill.push_back(m);
        }
    }
    let mut at_level: Vec<usize> = (0..counts.len()).filter(|&m| counts[m] == level).collect();
    let mut rest = Vec::new();
    for &t in &unassigned[next..] {
        match skipped_owner
            .get(&t)
            .and_then(|m| at_level.iter().position(|x| x == m))
        {
            Some(i) => {
                let m = at_level.remove(i);
                place(m, t, counts, &mut out);
            }
            None => rest.push(t),
        }
    }
    for t in rest {
        // Java's levelling leaves a member at the level for each leftover task;
        // the fallback to the least-loaded member is a guard only.
        let m = if at_level.is_empty() {
            (0..counts.len()).min_by_key(|&m| (counts[m], m)).unwrap_or(0)
        } else {
            at_level.remove(0)
        };
        place(m, t, counts, &mut out);
    }
    out
}

/// The group coordinator's `BalancedTaskAssignor`, the registry's entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamsGroupBalancedTaskAssignor;

impl TaskAssignor for StreamsGroupBalancedTaskAssignor {
    fn id(&self) -> Assignor {
        Assignor::StreamsGroupBalanced
    }

    fn class_name(&self) -> &'static str {
        "the group coordinator's BalancedTaskAssignor"
    }

    fn label(&self) -> &'static str {
        "streams group BalancedTaskAssignor"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "streams.assignor.name",
            name: "balanced",
            upstream: "org.apache.kafka.coordinator.group.streams.assignor.BalancedTaskAssignor",
            summary: "the broker deals tasks round-robin over processes and evens out the load per member, ignoring where tasks ran before; standbys on the least-loaded process without a copy",
            file: "kstreams/assignor/streams_group_balanced.rs",
        }
    }

    fn assign(&self, ctx: &mut Ctx) -> bool {
        assign(ctx)
    }

    fn thread_tasks(&self, ctx: &Ctx, ci: usize, consumers: &[ConsumerState]) -> Vec<ThreadTasks> {
        super::streams_group::member_thread_tasks(ctx, ci, consumers)
    }
}

/// Run the balanced assignor; fills `ctx.member_tasks` (never asks for a probing
/// rebalance).
pub fn assign(ctx: &mut Ctx) -> bool {
    let want = ctx.standby_replicas as usize;
    super::streams_group::warn_unused_client_standbys(ctx);
    if !ctx.cfg.rack_aware_assignment_tags.is_empty() && want > 0 {
        ctx.log.push(Event::Warning {
            message: format!(
                "streams.assignor.name=balanced places standbys by load only: rack.aware.assignment.tags [{}] are not used (the sticky assignor spreads standbys over them)",
                ctx.cfg.rack_aware_assignment_tags.join(", ")
            ),
        });
    }
    // The broker's task-id order: sub-topology id as text, then partition.
    let mut order: Vec<usize> = (0..ctx.tasks.len()).collect();
    order.stable_sort_by_key(|&t| {
        let id = ctx.tasks[t].id;
        (id.subtopology.to_string(), id.partition)
    });
    let mut rank = vec![0; ctx.tasks.len()];
    for (r, &t) in order.iter().enumerate() {
        rank[t] = r;
    }
    // Processes by their UUID text; only those with members.
    let mut clients: Vec<usize> = (0..ctx.clients.len())
        .filter(|&c| ctx.clients[c].capacity > 0)
        .collect();
    clients.stable_sort_by_key(|&c| (ctx.clients[c].pid.msb, ctx.clients[c].pid.lsb));
    let mut procs: Vec<Proc> = clients
        .iter()
        .map(|&c| {
            let cl = &ctx.clients[c];
            let mut owner = BTreeMap::new();
            for (m, cons) in cl.consumers.iter().enumerate().take(cl.capacity as usize) {
                for &t in cons.prev_active.iter().chain(cons.prev_standby.iter()) {
                    owner.entry(rank[t]).or_insert(m);
                }
            }
            Proc {
                client: c,
                members: cl.capacity as usize,
                owner,
                ..Proc::default()
            }
        })
        .collect();
    let stateful: BTreeSet<usize> = ctx.stateful().into_iter().map(|t| rank[t]).collect();
    let stateless: BTreeSet<usize> = ctx.stateless().into_iter().map(|t| rank[t]).collect();
    if procs.is_empty() {
        ctx.member_tasks = Some(
            ctx.clients
                .iter()
                .map(|c| vec![MemberTasks::default(); c.capacity as usize])
                .collect(),
        );
        return false;
    }
    // 1. Stateful actives: round-robin, then balanced.
    for (i, &t) in stateful.iter().enumerate() {
        let n = procs.len();
        procs[i % n].stateful.insert(t);
    }
    balance(&mut procs, Kind::Stateful);
    // 2. Standbys.
    let mut standby_moved = BTreeSet::new();
    if want > 0 {
        let (mut short, mut missing) = (0usize, 0usize);
        for &t in &stateful {
            let mut left = want;
            while left > 0 {
                let Some(p) = least(&procs, Proc::load, |p| !p.has(t)) else {
                    break;
                };
                procs[p].standby.insert(t);
                left -= 1;
            }
            if left > 0 {
                short += 1;
                missing += left;
            }
        }
        if short > 0 {
            ctx.log.push(Event::Warning {
                message: format!(
                    "{short} of {} stateful tasks got fewer than the configured {want} standby replicas ({missing} replicas missing in total): the copies of a task must be on different processes, and the group runs on {} process(es)",
                    stateful.len(),
                    procs.len()
                ),
            });
        }
        for (t, _, d) in balance(&mut procs, Kind::Standby) {
            standby_moved.insert((d, t));
        }
    }
    // 3. Stateless actives on the fewest actives per member.
    for &t in &stateless {
        if let Some(p) = least(&procs, Proc::active_load, |_| true) {
            procs[p].stateless.insert(t);
        }
    }
    // 4. Members.
    let mut member_tasks: Vec<Vec<MemberTasks>> = ctx
        .clients
        .iter()
        .map(|c| vec![MemberTasks::default(); c.capacity as usize])
        .collect();
    for (pi, p) in procs.iter().enumerate() {
        let mut counts = vec![0usize; p.members];
        let c = p.client;
        let none = BTreeMap::new();
        for (m, r) in spread_round(&p.stateful, &p.owner, &mut counts) {
            member_tasks[c][m].active.insert(order[r]);
        }
        for (m, r) in spread_round(&p.standby, &p.owner, &mut counts) {
            member_tasks[c][m].standby.insert(order[r]);
            let why = if standby_moved.contains(&(pi, r)) {
                Reason::Balance
            } else {
                Reason::LeastLoaded
            };
            ctx.add_standby(c, order[r], why);
        }
        for (m, r) in spread_round(&p.stateless, &none, &mut counts) {
            member_tasks[c][m].active.insert(order[r]);
        }
        for r in p.stateful.iter().chain(p.stateless.iter()) {
            let t = order[*r];
            ctx.clients[c].active.insert(t);
            ctx.active_reason[t] = Reason::Balance;
        }
    }
    ctx.member_tasks = Some(member_tasks);
    false
}
