//! The group coordinator's `StickyTaskAssignor` for streams groups
//! (`group.protocol=streams`, KIP-1071; `group-coordinator/.../streams/assignor/
//! StickyTaskAssignor` and `ProcessState`, at apache/kafka
//! 058944c8144d5487db696959993120e620cb6aa8). The broker assigns tasks to *members*
//! (one per stream thread) grouped by process (one per instance), with quotas per
//! member rounded up:
//!
//! * `statefulActiveTasksPerMember = ceil(stateful tasks / members)`,
//!   `activeTasksPerMember = ceil(tasks / members)`,
//!   `totalTasksPerMember = ceil((tasks + stateful tasks × standbys) / members)`;
//!   whenever a member reaches a quota, the quota is recomputed over the members
//!   still below it (`maybeUpdate…PerMember`);
//! * actives, stateful ones first and then stateless ones, each pass in
//!   (partition, sub-topology) order: (1) back to the member that ran it while
//!   under the quota of its kind; (2) to the least-loaded previous standby holder
//!   under quota; then, in (sub-topology, partition) order, (3) to the
//!   least-loaded member of the least-loaded process (load = tasks / members;
//!   ties by fewer stateless actives per member);
//! * standbys (`streams.num.standby.replicas`, else the broker's
//!   `group.streams.num.standby.replicas`), tasks in descending (partition,
//!   sub-topology) order: with `rack.aware.assignment.tags` set, first every copy
//!   that still makes the task more tag-diverse
//!   ([`super::rack_aware_standby_picker`]; equally diverse processes with room
//!   ranked by previous holding, active first, then by load; the member that held
//!   it while under the total quota, else the least-loaded member); then the
//!   previous active member, then the least-loaded
//!   previous standby member (both under the total quota, on a process without a
//!   copy); the rest, in descending (sub-topology, partition) order, to the
//!   least-loaded process without a copy.
//!
//! Previous standby holders of a task rank: current standbys and warm-ups first,
//! then members that only report offsets for it (state left on disk, e.g. after
//! a restart), each group most caught-up (highest offset sum) first.
//!
//! No lags, warm-ups or probing rebalances; `client.rack` and the rack-aware
//! active strategies are not used. Sub-topology ids are strings on the broker, so they
//! sort as text ("10" before "2").
//!
//! lbscope's rules where Java leaves the order open (hash maps, heap ties):
//! members are visited in process-id order, then in consumer-key order of their
//! threads (so the last of several members claiming a previous active wins, as a
//! map `put`); ties between processes go to the first in process-id order, between
//! members of a process to the first in that order; the offsets a process reports
//! for tasks none of its members holds are its first member's.

use super::rack_aware_standby_picker::RackAwareStandbyPicker;
use super::{Assignor, Ctx, MemberTasks, Reason, TaskAssignor};
use crate::engine::kstreams::client_state::ConsumerState;
use crate::engine::kstreams::threads::{self, ThreadTasks};
use crate::engine::kstreams::Event;
use crate::engine::strategy::StrategyInfo;
use crate::sort::StableSort;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// A member: (client index, consumer index).
type Member = (usize, usize);

#[derive(Clone, Debug)]
struct Process {
    capacity: usize,
    task_count: usize,
    active_count: usize,
    stateful_active_count: usize,
    member_counts: Vec<usize>,
    assigned: BTreeSet<usize>,
}

impl Process {
    fn load(&self) -> f64 {
        if self.capacity == 0 {
            -1.0
        } else {
            self.task_count as f64 / self.capacity as f64
        }
    }

    fn stateless_load(&self) -> f64 {
        if self.capacity == 0 {
            -1.0
        } else {
            (self.active_count - self.stateful_active_count) as f64 / self.capacity as f64
        }
    }

    fn least_loaded_member(&self) -> Option<usize> {
        (0..self.member_counts.len()).min_by_key(|&m| (self.member_counts[m], m))
    }
}

/// A quota `ceil(total / members)` kept as Kafka keeps it.
#[derive(Clone, Copy, Debug)]
struct Quota {
    total: usize,
    members: usize,
    per_member: usize,
}

fn per_member(total: usize, members: usize) -> usize {
    if members == 0 {
        0
    } else {
        total.div_ceil(members)
    }
}

impl Quota {
    fn new(total: usize, members: usize) -> Self {
        Quota {
            total,
            members,
            per_member: per_member(total, members),
        }
    }

    /// `maybeUpdate…PerMember`: a member that just reached the quota leaves the pool.
    fn reached(&mut self, count: usize) {
        if count == self.per_member {
            self.members = self.members.saturating_sub(1);
            self.total = self.total.saturating_sub(count);
            self.per_member = per_member(self.total, self.members);
        }
    }
}

struct State {
    procs: Vec<Process>,
    member_tasks: Vec<Vec<MemberTasks>>,
    stateful_q: Quota,
    active_q: Quota,
    total_q: Quota,
    prev_active: BTreeMap<usize, Member>,
    prev_standby: BTreeMap<usize, Vec<Member>>,
    owner: BTreeMap<usize, usize>,
}

impl State {
    fn add(&mut self, (p, m): Member, t: usize, active: bool, stateful: bool) -> usize {
        let pr = &mut self.procs[p];
        pr.task_count += 1;
        pr.assigned.insert(t);
        if active {
            pr.active_count += 1;
            if stateful {
                pr.stateful_active_count += 1;
            }
            self.member_tasks[p][m].active.insert(t);
        } else {
            self.member_tasks[p][m].standby.insert(t);
        }
        pr.member_counts[m] += 1;
        pr.member_counts[m]
    }

    fn add_to_least_loaded_member(
        &mut self,
        p: usize,
        t: usize,
        active: bool,
        stateful: bool,
    ) -> Option<usize> {
        let m = self.procs[p].least_loaded_member()?;
        Some(self.add((p, m), t, active, stateful))
    }

    fn count(&self, (p, m): Member) -> usize {
        self.procs[p].member_counts[m]
    }

    /// `findPrevMemberWithLeastLoad`.
    fn prev_member_with_least_load(&self, members: &[Member], standby_of: Option<usize>) -> Option<Member> {
        let mut best: Option<(Member, f64, usize)> = None;
        for &mb in members {
            if standby_of.is_some_and(|t| self.procs[mb.0].assigned.contains(&t)) {
                continue;
            }
            let pl = self.procs[mb.0].load();
            let ml = self.count(mb);
            match best {
                None => best = Some((mb, pl, ml)),
                Some((_, bp, bm)) if pl < bp && ml < bm => best = Some((mb, pl, ml)),
                _ => {}
            }
        }
        best.map(|b| b.0)
    }
}

/// The broker's sub-topology id is a string: order as text, then partition.
fn by_sub_then_partition(ctx: &Ctx, t: usize) -> (String, u32) {
    let id = ctx.tasks[t].id;
    (id.subtopology.to_string(), id.partition)
}

fn by_partition_then_sub(ctx: &Ctx, t: usize) -> (u32, String) {
    let id = ctx.tasks[t].id;
    (id.partition, id.subtopology.to_string())
}

fn least_process(
    st: &State,
    key: impl Fn(&Process) -> (f64, f64),
    ok: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut best: Option<(usize, (f64, f64))> = None;
    for (p, pr) in st.procs.iter().enumerate() {
        if !ok(p) {
            continue;
        }
        let k = key(pr);
        let better = match best {
            None => true,
            Some((_, b)) => k.partial_cmp(&b) == Some(Ordering::Less),
        };
        if better {
            best = Some((p, k));
        }
    }
    best.map(|b| b.0)
}

fn assign_active(ctx: &mut Ctx, st: &mut State, mut tasks: Vec<usize>, stateful: bool) {
    tasks.stable_sort_by_key(|&t| by_partition_then_sub(ctx, t));
    let under_quota = |st: &State, mb: Member| {
        let q = if stateful { st.stateful_q } else { st.active_q };
        st.count(mb) < q.per_member
    };
    let add_active = |ctx: &mut Ctx, st: &mut State, mb: Member, t: usize, why: Reason| {
        let n = st.add(mb, t, true, stateful);
        if stateful {
            st.stateful_q.reached(n);
            st.owner.insert(t, mb.0);
        }
        st.active_q.reached(n);
        st.total_q.reached(n);
        ctx.active_reason[t] = why;
    };
    // 1. Previous owners.
    let mut rest = Vec::with_capacity(tasks.len());
    for t in tasks {
        match st.prev_active.get(&t).copied() {
            Some(mb) if under_quota(st, mb) => add_active(ctx, st, mb, t, Reason::Sticky),
            _ => rest.push(t),
        }
    }
    // 2. Previous standby holders.
    let mut left = Vec::with_capacity(rest.len());
    for t in rest {
        let cand = st
            .prev_standby
            .get(&t)
            .and_then(|v| st.prev_member_with_least_load(v, None));
        match cand {
            Some(mb) if under_quota(st, mb) => add_active(ctx, st, mb, t, Reason::PreviousStandby),
            _ => left.push(t),
        }
    }
    // 3. The rest, range-like.
    left.stable_sort_by_key(|&t| by_sub_then_partition(ctx, t));
    for t in left {
        let Some(p) = least_process(st, |p| (p.load(), p.stateless_load()), |_| true) else {
            break;
        };
        if let Some(n) = st.add_to_least_loaded_member(p, t, true, stateful) {
            st.active_q.reached(n);
            st.total_q.reached(n);
            if stateful {
                st.owner.insert(t, p);
            }
            ctx.active_reason[t] = Reason::Balance;
        }
    }
}

/// `hasRoom`: some member of the process is below the total quota.
fn has_room(st: &State, p: usize) -> bool {
    st.procs[p]
        .member_counts
        .iter()
        .any(|&n| n < st.total_q.per_member)
}

/// The processes that held `t` before, each with its best rank: 0 for the
/// previous active member's, then 1, 2, … in the ranked previous standby order;
/// with the member that held it.
fn prev_holders(st: &State, t: usize) -> BTreeMap<usize, (usize, Member)> {
    let mut out = BTreeMap::new();
    if let Some(v) = st.prev_standby.get(&t) {
        for (i, &mb) in v.iter().enumerate() {
            out.entry(mb.0).or_insert((1 + i, mb));
        }
    }
    if let Some(&mb) = st.prev_active.get(&t) {
        out.insert(mb.0, (0, mb));
    }
    out
}

/// `assignRackAwareStandbys`: the standbys of `t` that still make it more
/// tag-diverse, on processes with room; ties by previous holder rank, then load.
/// Returns how many it placed.
fn assign_rack_aware_standbys(
    ctx: &mut Ctx,
    st: &mut State,
    picker: &mut RackAwareStandbyPicker,
    t: usize,
    want: u32,
) -> u32 {
    picker.start_task();
    if let Some(&owner) = st.owner.get(&t) {
        picker.mark_used(owner);
    }
    let holders = prev_holders(st, t);
    let rank = |p: usize| holders.get(&p).map_or(usize::MAX, |h| h.0);
    let mut placed = 0;
    while placed < want {
        let winner = {
            let st: &State = st;
            picker.pick_next(
                |p| !st.procs[p].assigned.contains(&t) && has_room(st, p),
                |a, b| {
                    rank(a).cmp(&rank(b)).then(
                        st.procs[a]
                            .load()
                            .partial_cmp(&st.procs[b].load())
                            .unwrap_or(Ordering::Equal),
                    )
                },
            )
        };
        let Some(p) = winner else { break };
        let m = match holders.get(&p) {
            Some(&(_, mb)) if st.count(mb) < st.total_q.per_member => mb.1,
            _ => match st.procs[p].least_loaded_member() {
                Some(m) => m,
                None => break,
            },
        };
        let n = st.add((p, m), t, false, true);
        st.total_q.reached(n);
        ctx.add_standby(p, t, Reason::TagDiverse);
        picker.mark_used(p);
        placed += 1;
    }
    placed
}

fn assign_standby(ctx: &mut Ctx, st: &mut State, mut tasks: Vec<usize>, want: u32) {
    tasks.stable_sort_by_key(|&t| std::cmp::Reverse(by_partition_then_sub(ctx, t)));
    let keys = &ctx.cfg.rack_aware_assignment_tags;
    let mut picker = (!keys.is_empty()).then(|| {
        let tags: Vec<_> = ctx.clients.iter().map(|c| c.tags.clone()).collect();
        RackAwareStandbyPicker::new(keys, &tags)
    });
    let mut to_least_loaded: Vec<(usize, u32)> = Vec::new();
    for &t in &tasks {
        // Tag diversity ranks above stickiness: the rack-aware pick places what it
        // can, the sticky rules the rest.
        let first = match picker.as_mut() {
            Some(pk) => assign_rack_aware_standbys(ctx, st, pk, t, want),
            None => 0,
        };
        for i in first..want {
            if let Some(mb) = st.prev_active.get(&t).copied() {
                if !st.procs[mb.0].assigned.contains(&t) && st.count(mb) < st.total_q.per_member {
                    let n = st.add(mb, t, false, true);
                    st.total_q.reached(n);
                    ctx.add_standby(mb.0, t, Reason::PreviousActive);
                    continue;
                }
            }
            let cand = st
                .prev_standby
                .get(&t)
                .filter(|v| !v.is_empty())
                .and_then(|v| st.prev_member_with_least_load(v, Some(t)));
            if let Some(mb) = cand {
                if st.count(mb) < st.total_q.per_member {
                    let n = st.add(mb, t, false, true);
                    st.total_q.reached(n);
                    ctx.add_standby(mb.0, t, Reason::PreviousStandby);
                    continue;
                }
            }
            to_least_loaded.push((t, want - i));
            break;
        }
    }
    to_least_loaded.stable_sort_by_key(|&(t, _)| std::cmp::Reverse(by_sub_then_partition(ctx, t)));
    for (t, remaining) in to_least_loaded {
        for i in 0..remaining {
            let p = least_process(st, |p| (p.load(), 0.0), |p| !st.procs[p].assigned.contains(&t));
            let placed = p.and_then(|p| st.add_to_least_loaded_member(p, t, false, true).map(|n| (p, n)));
            let Some((p, n)) = placed else {
                let id = ctx.tasks[t].id;
                ctx.log.push(Event::Warning {
                    message: format!(
                        "Unable to assign {} of {want} standby tasks for task [{id}]. There is not enough available capacity.",
                        want - i
                    ),
                });
                break;
            };
            st.total_q.reached(n);
            ctx.add_standby(p, t, Reason::LeastLoaded);
        }
    }
}

/// The group coordinator's streams `StickyTaskAssignor`, the registry's entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamsGroupStickyTaskAssignor;

impl TaskAssignor for StreamsGroupStickyTaskAssignor {
    fn id(&self) -> Assignor {
        Assignor::StreamsGroupSticky
    }

    fn class_name(&self) -> &'static str {
        "the group coordinator's StickyTaskAssignor"
    }

    fn label(&self) -> &'static str {
        "streams group StickyTaskAssignor"
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "group.protocol",
            name: "streams",
            upstream: "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor",
            summary: "the broker assigns tasks to members (stream threads) with per-member quotas, sticky to previous owners, standbys on processes without a copy",
            file: "kstreams/assignor/streams_group.rs",
        }
    }

    fn assign(&self, ctx: &mut Ctx) -> bool {
        assign(ctx)
    }

    fn thread_tasks(&self, ctx: &Ctx, ci: usize, consumers: &[ConsumerState]) -> Vec<ThreadTasks> {
        member_thread_tasks(ctx, ci, consumers)
    }
}

/// The members' tasks as a streams group's assignor gave them (a client it did
/// not assign, which cannot happen after it ran, would be spread client-side).
pub(super) fn member_thread_tasks(ctx: &Ctx, ci: usize, consumers: &[ConsumerState]) -> Vec<ThreadTasks> {
    let Some(mt) = ctx.member_tasks.as_ref().and_then(|m| m.get(ci)) else {
        return threads::distribute(ctx, ci, consumers);
    };
    (0..consumers.len())
        .map(|k| {
            let m = mt.get(k).cloned().unwrap_or_default();
            ThreadTasks {
                stateful: m.active.into_iter().collect(),
                stateless: Vec::new(),
                standby: m.standby.into_iter().collect(),
            }
        })
        .collect()
}

/// A streams group places the group's standbys, not the client's
/// `num.standby.replicas`: say so when they differ.
pub(super) fn warn_unused_client_standbys(ctx: &mut Ctx) {
    let want = ctx.standby_replicas;
    if ctx.cfg.num_standby_replicas != want {
        ctx.log.push(Event::Warning {
            message: format!(
                "group.protocol=streams: the client's num.standby.replicas ({}) is not used; the group places {want} standbys per task (streams.num.standby.replicas, else the broker's group.streams.num.standby.replicas)",
                ctx.cfg.num_standby_replicas
            ),
        });
    }
}

/// Run the streams group's assignor; fills `ctx.member_tasks` (never asks for a
/// probing rebalance).
pub fn assign(ctx: &mut Ctx) -> bool {
    let want = ctx.standby_replicas;
    let stateful: Vec<usize> = ctx.stateful();
    let stateless: Vec<usize> = ctx.stateless();
    let members: usize = ctx.clients.iter().map(|c| c.capacity as usize).sum();
    let all = ctx.tasks.len();
    let total = all + stateful.len() * want as usize;
    let procs: Vec<Process> = ctx
        .clients
        .iter()
        .map(|c| Process {
            capacity: c.capacity as usize,
            task_count: 0,
            active_count: 0,
            stateful_active_count: 0,
            member_counts: vec![0; c.capacity as usize],
            assigned: BTreeSet::new(),
        })
        .collect();
    // Previous actives (last claim wins) and standby candidates, ranked.
    let mut prev_active = BTreeMap::new();
    let mut cands: BTreeMap<usize, Vec<(Member, bool, u64)>> = BTreeMap::new();
    for (p, c) in ctx.clients.iter().enumerate() {
        let offset = |t: usize| {
            let lag = c.lag_for(t, ctx.tasks);
            if lag < 0 {
                ctx.tasks[t].end
            } else {
                ctx.tasks[t].end.saturating_sub(lag as u64)
            }
        };
        let mut held = BTreeSet::new();
        for (m, cons) in c.consumers.iter().enumerate() {
            for &t in &cons.prev_active {
                prev_active.insert(t, (p, m));
                held.insert(t);
            }
            for &t in &cons.prev_standby {
                cands.entry(t).or_default().push(((p, m), true, offset(t)));
                held.insert(t);
            }
        }
        if c.capacity > 0 {
            for &t in c.lags.keys() {
                if !held.contains(&t) {
                    cands.entry(t).or_default().push(((p, 0), false, offset(t)));
                }
            }
        }
    }
    let prev_standby: BTreeMap<usize, Vec<Member>> = cands
        .into_iter()
        .map(|(t, mut v)| {
            v.stable_sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)));
            (t, v.into_iter().map(|x| x.0).collect())
        })
        .collect();
    let mut st = State {
        member_tasks: procs
            .iter()
            .map(|p| vec![MemberTasks::default(); p.capacity])
            .collect(),
        procs,
        stateful_q: Quota::new(stateful.len(), members),
        active_q: Quota::new(all, members),
        total_q: Quota::new(total, members),
        prev_active,
        prev_standby,
        owner: BTreeMap::new(),
    };
    ctx.log.push(Event::MemberQuotas {
        members: members as u32,
        stateful_active_per_member: st.stateful_q.per_member as u32,
        active_per_member: st.active_q.per_member as u32,
        tasks_per_member: st.total_q.per_member as u32,
        standby_replicas: want,
    });
    warn_unused_client_standbys(ctx);
    if members == 0 {
        return false;
    }
    assign_active(ctx, &mut st, stateful.clone(), true);
    assign_active(ctx, &mut st, stateless, false);
    for (p, tasks) in st.member_tasks.iter().enumerate() {
        for mt in tasks {
            ctx.clients[p].active.extend(mt.active.iter().copied());
        }
    }
    if want > 0 {
        ctx.log.push(Event::StandbyAssignorChosen {
            assignor: super::Assignor::StreamsGroupSticky,
            standby_assignor: "StickyTaskAssignor (group coordinator)".into(),
            tags: ctx.cfg.rack_aware_assignment_tags.clone(),
            members_with_client_rack: ctx.members_with_rack(),
            members: ctx.clients.len() as u32,
            strategy: ctx.cfg.rack_aware_assignment_strategy,
            rack_optimizer: false,
        });
        assign_standby(ctx, &mut st, stateful, want);
    }
    ctx.member_tasks = Some(st.member_tasks);
    false
}
