//! State: changelog offsets per task and instance, restoration over simulated
//! time, and the rebalance that turns the assignor's answer into running tasks.
//!
//! A rebalance is the same for every assignor: read the members' subscriptions
//! ([`Subscriptions`]: previous tasks, lags, capacity, racks), let the assignor
//! ([`TaskAssignor`]) assign, spread each client's tasks over its stream threads,
//! start restoration, and report what changed.
//!
//! Model (lbscope's simplifications, documented):
//! * every record produced to a source partition of a stateful task appends one
//!   record to each of its changelogs; a task's end offset is the sum over them;
//! * a running active writes its changelog, so its local offset follows the end;
//! * restoring actives, standbys and warm-ups replay their lag at
//!   `lbscope.restore.records.per.second` each, in parallel;
//! * local state stays in an instance's state directory after the task leaves
//!   (Kafka deletes it only after `state.cleanup.delay.ms`), and across crashes;
//! * a task moves in one rebalance (cooperative rebalancing's extra revocation
//!   round is not modelled).

use super::assignor::{Assignor, Ctx, Reason, TaskAssignor};
use super::client::{consumer_key_cmp, Instance, InstanceStatus, Restoring};
use super::client_state::{ClientState, ConsumerState, TaskMeta, LATEST_OFFSET};
use super::rack_aware::{RackModel, RackStrategy};
use super::task::TaskId;
use super::{Event, Role, Sim, ThreadLoad};
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

/// Milliseconds to replay `records` at `rate` records per second (rounded up).
pub fn restore_ms(records: u64, rate: u64) -> u64 {
    let r = u128::from(rate.max(1));
    ((u128::from(records) * 1000).div_ceil(r)).min(u128::from(u64::MAX)) as u64
}

/// Restoration and standby catch-up from `sim.now_ms` to `to_ms`.
pub fn progress(sim: &mut Sim, to_ms: u64) -> Vec<Event> {
    let now = sim.now_ms;
    if to_ms <= now {
        return Vec::new();
    }
    let dt = to_ms - now;
    let rate = sim.config.restore_records_per_second.max(1);
    let budget = (u128::from(rate) * u128::from(dt) / 1000).min(u128::from(u64::MAX)) as u64;
    let acceptable = sim.config.acceptable_recovery_lag;
    let mut out = Vec::new();
    for inst in sim.instances.values_mut() {
        if inst.status != InstanceStatus::Running {
            continue;
        }
        let restoring: Vec<(TaskId, Restoring)> =
            inst.restoring.iter().map(|(t, r)| (*t, r.clone())).collect();
        for (t, r) in restoring {
            let end = sim.end.get(&t).copied().unwrap_or(0);
            let local = inst.local.get(&t).copied().unwrap_or(0).min(end);
            let lag = end - local;
            if lag <= budget {
                let done = now + restore_ms(lag, rate);
                inst.local.insert(t, end);
                inst.restoring.remove(&t);
                sim.metrics.records_restored += lag;
                let took = done.saturating_sub(r.since_ms);
                sim.metrics.restore_ms_total += took;
                sim.metrics.max_restore_ms = sim.metrics.max_restore_ms.max(took);
                out.push(Event::TaskRestored {
                    task: t,
                    instance: inst.name.clone(),
                    records: r.lag_at_start.max(lag),
                    restore_ms: took,
                });
            } else {
                inst.local.insert(t, local + budget);
                sim.metrics.records_restored += budget;
            }
        }
        for t in inst.standby_tasks() {
            let end = sim.end.get(&t).copied().unwrap_or(0);
            let local = inst.local.get(&t).copied().unwrap_or(0).min(end);
            let new = end.min(local.saturating_add(budget));
            inst.local.insert(t, new);
            if inst.warmups.contains(&t) && end - local > acceptable && end - new <= acceptable {
                out.push(Event::WarmupCaughtUp {
                    task: t,
                    instance: inst.name.clone(),
                    lag: end - new,
                });
            }
        }
    }
    out
}

/// An instance's consumers (stream threads) in consumer-key order, with the tasks
/// each owned in the last assignment.
fn consumer_states(
    inst: &Instance,
    index: &BTreeMap<TaskId, usize>,
    metas: &[TaskMeta],
) -> Vec<ConsumerState> {
    let idx = |t: &TaskId| index.get(t).copied();
    let mut consumers: Vec<ConsumerState> = inst
        .threads
        .iter()
        .map(|th| ConsumerState {
            index: th.index,
            prev: th
                .active
                .iter()
                .chain(th.standby.iter())
                .filter_map(idx)
                .filter(|&i| metas[i].stateful)
                .collect(),
            prev_active: th.active.iter().filter_map(idx).collect(),
            prev_standby: th.standby.iter().filter_map(idx).collect(),
        })
        .collect();
    consumers.stable_sort_by(|a, b| consumer_key_cmp(a.index, b.index));
    consumers
}

fn client_state(inst: &Instance, index: &BTreeMap<TaskId, usize>, metas: &[TaskMeta]) -> ClientState {
    let idx = |t: &TaskId| index.get(t).copied();
    let prev_active: BTreeSet<usize> = inst.active_tasks().iter().filter_map(idx).collect();
    let mut lags = BTreeMap::new();
    let mut prev_standby = BTreeSet::new();
    for (t, &o) in &inst.local {
        let Some(i) = idx(t) else { continue };
        if !metas[i].stateful {
            continue;
        }
        let end = metas[i].end;
        let running = prev_active.contains(&i) && !inst.restoring.contains_key(t);
        let lag = if running {
            LATEST_OFFSET
        } else if end < o {
            // Kafka: a local offset past the end means corrupted state; lag = end.
            end as i64
        } else {
            (end - o) as i64
        };
        lags.insert(i, lag);
        if !prev_active.contains(&i) {
            prev_standby.insert(i);
        }
    }
    for &i in &prev_active {
        if metas[i].stateful && !lags.contains_key(&i) {
            lags.insert(
                i,
                if inst.restoring.contains_key(&metas[i].id) {
                    metas[i].end as i64
                } else {
                    LATEST_OFFSET
                },
            );
        }
    }
    let consumers = if inst
        .threads
        .iter()
        .all(|th| th.active.is_empty() && th.standby.is_empty())
    {
        Vec::new()
    } else {
        consumer_states(inst, index, metas)
    };
    ClientState {
        pid: inst.process_id,
        name: inst.shared_name.clone(),
        capacity: inst.threads.len() as u32,
        rack: inst.rack.clone(),
        tags: inst.tags.clone(),
        active: BTreeSet::new(),
        standby: BTreeSet::new(),
        prev_active,
        prev_standby,
        lags,
        consumers,
    }
}

fn no_partition_racks(tp: &super::task::TopicPartition) -> Event {
    Event::Warning {
        message: format!("rack-aware assignment disabled: topic partition {tp} has no rack information"),
    }
}

fn rack_model(sim: &Sim, clients: &[ClientState], out: &mut Vec<Event>) -> Option<RackModel> {
    let strategy = sim.config.rack_aware_assignment_strategy;
    if strategy == RackStrategy::None || clients.is_empty() {
        return None;
    }
    if let Some(c) = clients.iter().find(|c| c.rack.is_none()) {
        out.push(Event::Warning {
            message: format!(
                "rack-aware assignment disabled: instance {} has no client.rack",
                &*c.name
            ),
        });
        return None;
    }
    let racks: Vec<String> = clients
        .iter()
        .filter_map(|c| c.rack.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let client_rack: Vec<usize> = clients
        .iter()
        .map(|c| {
            c.rack
                .as_ref()
                .and_then(|r| racks.binary_search(r).ok())
                .unwrap_or(0)
        })
        .collect();
    let topo = sim.topology.as_ref()?;
    let mut source_miss = Vec::with_capacity(sim.tasks.len());
    let mut changelog_miss = Vec::with_capacity(sim.tasks.len());
    let mut subtopology = Vec::with_capacity(sim.tasks.len());
    for t in &sim.tasks {
        let mut sm = vec![0i64; racks.len()];
        for tp in &t.source_partitions {
            let topic = sim.topics.get(&tp.topic)?;
            if topic.racks.is_empty() && topic.partition_racks.is_none() {
                out.push(Event::Warning {
                    message: format!(
                        "rack-aware assignment disabled: topic {} has no rack information",
                        tp.topic
                    ),
                });
                return None;
            }
            let rs = topic.replica_racks(tp.partition);
            if rs.is_empty() {
                out.push(no_partition_racks(tp));
                return None;
            }
            for (r, name) in racks.iter().enumerate() {
                if !rs.contains(name) {
                    sm[r] += 1;
                }
            }
        }
        // A changelog partition's racks are those set by `set_partition_racks`; else
        // (lbscope rule) the racks of the same partition of the sub-topology's first
        // source topic (by name) that has it.
        let mut cm = vec![0i64; racks.len()];
        if !t.changelog_partitions.is_empty() {
            let sub = topo.subtopologies.get(t.id.subtopology as usize)?;
            let first = sub
                .sources
                .iter()
                .filter_map(|s| sim.topics.get(s))
                .find(|x| t.id.partition < x.partitions)?;
            for cp in &t.changelog_partitions {
                let rs = match sim.changelog_racks.get(&cp.topic) {
                    Some(v) => v
                        .get(cp.partition as usize)
                        .map(|x| x.iter().cloned().collect())
                        .unwrap_or_default(),
                    None => first.replica_racks(t.id.partition),
                };
                if rs.is_empty() {
                    out.push(no_partition_racks(cp));
                    return None;
                }
                for (r, name) in racks.iter().enumerate() {
                    if !rs.contains(name) {
                        cm[r] += 1;
                    }
                }
            }
        }
        source_miss.push(sm);
        changelog_miss.push(cm);
        subtopology.push(t.id.subtopology);
    }
    Some(RackModel {
        strategy,
        racks,
        client_rack,
        source_miss,
        changelog_miss,
        subtopology,
    })
}

/// What the members' subscriptions tell the assignor.
struct Subscriptions {
    /// Task index by id.
    index: BTreeMap<TaskId, usize>,
    /// Tasks in `TaskId` order.
    metas: Vec<TaskMeta>,
    /// Members in process-id order.
    clients: Vec<ClientState>,
}

impl Subscriptions {
    fn read(sim: &Sim, members: &[&Instance]) -> Subscriptions {
        let index: BTreeMap<TaskId, usize> = sim.tasks.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
        let metas: Vec<TaskMeta> = sim
            .tasks
            .iter()
            .map(|t| TaskMeta {
                id: t.id,
                stateful: t.stateful(),
                end: sim.end.get(&t.id).copied().unwrap_or(0),
                has_stores: sim
                    .topology
                    .as_ref()
                    .and_then(|topo| topo.subtopologies.get(t.id.subtopology as usize))
                    .is_some_and(|s| !s.stores.is_empty()),
            })
            .collect();
        let clients = members.iter().map(|i| client_state(i, &index, &metas)).collect();
        Subscriptions {
            index,
            metas,
            clients,
        }
    }
}

/// Counts over one rebalance, for its `RebalanceCompleted`.
#[derive(Default)]
struct Tally {
    active: u32,
    standby: u32,
    warmups: u32,
    sticky: u32,
    moved: u64,
    busy: u32,
    idle: u32,
    max_restore_ms: u64,
}

/// What the rebalance's per-client step reads besides the instance.
struct Apply<'a> {
    ctx: &'a Ctx<'a>,
    assignor: &'a dyn TaskAssignor,
    index: &'a BTreeMap<TaskId, usize>,
    old_owner: &'a BTreeMap<TaskId, String>,
    /// The generation before this rebalance.
    previous_generation: u64,
    generation: u64,
    now: u64,
    rate: u64,
}

/// Run one rebalance: assign, spread over threads, start restoration, report.
pub fn rebalance(sim: &mut Sim, trigger: &str) -> Vec<Event> {
    run(sim, trigger, false)
}

/// A rebalance in which every member keeps the actives it holds and only the
/// standby assignor runs (Kafka's standby assignor tests: clients whose actives
/// are assigned, then `StandbyTaskAssignor.assign`). Every task must have one
/// active owner among the members.
pub fn assign_standbys(sim: &mut Sim, trigger: &str) -> Vec<Event> {
    run(sim, trigger, true)
}

/// The standby assignor alone, over the actives the clients held.
fn standbys_around_fixed_actives(ctx: &mut Ctx) -> bool {
    for c in 0..ctx.clients.len() {
        let held = ctx.clients[c].prev_active.clone();
        for &t in &held {
            ctx.active_reason[t] = Reason::Sticky;
        }
        ctx.clients[c].active = held;
    }
    if ctx.standby_replicas > 0 {
        let sa = super::standby::StandbyAssignor::choose(ctx);
        ctx.log.push(Event::StandbyAssignorChosen {
            assignor: ctx.cfg.assignor(),
            standby_assignor: sa.class_name().to_string(),
            tags: sa.keys.clone(),
            members_with_client_rack: ctx.members_with_rack(),
            members: ctx.clients.len() as u32,
            strategy: ctx.cfg.rack_aware_assignment_strategy,
            rack_optimizer: ctx.rack.is_some(),
        });
        let stateful = ctx.stateful();
        sa.assign(ctx, &stateful);
    }
    false
}

fn run(sim: &mut Sim, trigger: &str, fixed_actives: bool) -> Vec<Event> {
    let cfg = sim.config.clone();
    let assignor = cfg.assignor().strategy();
    let previous_generation = sim.generation;
    let generation = sim.generation + 1;
    let members = sim.members();
    let mut out = vec![started(
        &members,
        sim.tasks.len(),
        generation,
        trigger,
        assignor.id(),
    )];
    let member_count = members.len();
    let Subscriptions {
        index,
        metas,
        clients,
    } = Subscriptions::read(sim, &members);
    let rack = rack_model(sim, &clients, &mut out);
    let mut ctx = Ctx::new(&metas, clients, &cfg, rack);
    let probing = if fixed_actives {
        standbys_around_fixed_actives(&mut ctx)
    } else {
        assignor.assign(&mut ctx)
    };
    out.append(&mut ctx.log);
    if member_count == 0 && !metas.is_empty() {
        out.push(Event::Warning {
            message: format!("no running instance: {} tasks are unassigned", metas.len()),
        });
    }
    let mut old_owner: BTreeMap<TaskId, String> = BTreeMap::new();
    for inst in sim.instances.values() {
        for t in inst.active_tasks() {
            old_owner.insert(t, inst.name.clone());
        }
    }
    let step = Apply {
        ctx: &ctx,
        assignor,
        index: &index,
        old_owner: &old_owner,
        previous_generation,
        generation,
        now: sim.now_ms,
        rate: cfg.restore_records_per_second,
    };
    let mut tally = Tally::default();
    let mut thread_events = Vec::new();
    // The members in the clients' order (process id), without a lookup by name each.
    let mut member_insts: Vec<&mut Instance> = sim.instances.values_mut().filter(|i| i.is_member()).collect();
    member_insts.sort_unstable_by_key(|i| i.process_id);
    for (ci, inst) in member_insts.into_iter().enumerate() {
        step.client(ci, inst, &mut tally, &mut out, &mut thread_events);
    }
    out.extend(thread_events);
    finish(sim, &cfg, generation, probing, &tally, &mut out);
    out
}

/// The rebalance's first event.
fn started(members: &[&Instance], tasks: usize, generation: u64, trigger: &str, assignor: Assignor) -> Event {
    Event::RebalanceStarted {
        generation,
        trigger: trigger.to_string(),
        assignor,
        members: members
            .iter()
            .take(super::MAX_LISTED_MEMBERS)
            .map(|i| i.name.clone())
            .collect(),
        member_count: members.len() as u32,
        tasks: tasks as u32,
    }
}

/// Generation, metrics, the probing rebalance and the `RebalanceCompleted` event.
fn finish(
    sim: &mut Sim,
    cfg: &super::Config,
    generation: u64,
    probing: bool,
    tally: &Tally,
    out: &mut Vec<Event>,
) {
    sim.generation = generation;
    sim.metrics.rebalances += 1;
    sim.metrics.tasks_moved += tally.moved;
    sim.metrics.last_rebalance_moved = tally.moved;
    if probing {
        let at = sim.now_ms.saturating_add(cfg.probing_rebalance_interval_ms);
        sim.probing_at_ms = Some(at);
        out.push(Event::ProbingRebalanceScheduled {
            at_ms: at,
            warmups: tally.warmups,
        });
    } else {
        sim.probing_at_ms = None;
    }
    out.push(Event::RebalanceCompleted {
        generation,
        active: tally.active,
        standby: tally.standby,
        warmups: tally.warmups,
        sticky: tally.sticky,
        moved: tally.moved as u32,
        busy_instances: tally.busy,
        idle_instances: tally.idle,
        max_restore_ms: tally.max_restore_ms,
    });
}

fn thread_loads(inst: &Instance) -> Vec<ThreadLoad> {
    inst.threads
        .iter()
        .map(|th| ThreadLoad {
            thread: th.index,
            active: th.active.clone(),
            standby: th.standby.clone(),
        })
        .collect()
}

/// Local offset of `id` on `inst`, reset to 0 when past the end (corrupted state).
fn local_within(inst: &Instance, id: TaskId, end: u64) -> u64 {
    let local = inst.local.get(&id).copied().unwrap_or(0);
    if local > end {
        0
    } else {
        local
    }
}

impl Apply<'_> {
    /// Turn client `ci`'s assignment into its instance's threads, restoration and
    /// events: `TaskAssigned` into `out`, `InstanceIdle` / `ThreadsAssigned` into
    /// `thread_events` (reported after every client's tasks).
    fn client(
        &self,
        ci: usize,
        inst: &mut Instance,
        tally: &mut Tally,
        out: &mut Vec<Event>,
        thread_events: &mut Vec<Event>,
    ) {
        let c = &self.ctx.clients[ci];
        debug_assert_eq!(inst.name.as_str(), &*c.name);
        let was_member = inst.member_of.is_some() && inst.member_of == Some(self.previous_generation);
        // Fast path: a member that held nothing and gets nothing changes nothing.
        if c.active.is_empty()
            && c.standby.is_empty()
            && inst.restoring.is_empty()
            && inst.warmups.is_empty()
            && inst
                .threads
                .iter()
                .all(|th| th.active.is_empty() && th.standby.is_empty())
        {
            inst.member_of = Some(self.generation);
            tally.idle += 1;
            if !was_member {
                thread_events.push(Event::InstanceIdle {
                    instance: c.name.to_string(),
                    threads: c.capacity,
                    standbys: 0,
                });
            }
            return;
        }
        let old_active = inst.active_tasks();
        let old_standby = inst.standby_tasks();
        inst.member_of = Some(self.generation);
        let changed = self.set_threads(ci, inst);
        self.start_actives(ci, inst, tally, out);
        self.start_standbys(ci, inst, &old_standby, tally, out);
        if c.active.is_empty() {
            tally.idle += 1;
            // Reported when it becomes idle: it ran actives before, or it was not a
            // member of the previous generation (it just joined or came back).
            if !old_active.is_empty() || !was_member {
                thread_events.push(Event::InstanceIdle {
                    instance: c.name.to_string(),
                    threads: c.capacity,
                    standbys: c.standby.len() as u32,
                });
            }
        } else {
            tally.busy += 1;
        }
        if changed {
            thread_events.push(Event::ThreadsAssigned {
                instance: c.name.to_string(),
                threads: thread_loads(inst),
            });
        }
    }

    /// Give each stream thread its tasks (the assignor's [`TaskAssignor::thread_tasks`]);
    /// true when a thread's tasks changed.
    fn set_threads(&self, ci: usize, inst: &mut Instance) -> bool {
        let metas = self.ctx.tasks;
        let c = &self.ctx.clients[ci];
        let old_threads: Vec<(u32, Vec<TaskId>, Vec<TaskId>)> = inst
            .threads
            .iter()
            .map(|th| (th.index, th.active.clone(), th.standby.clone()))
            .collect();
        // A client that held nothing before has its consumers built only now.
        let built;
        let consumers: &[ConsumerState] = if c.consumers.is_empty() {
            built = consumer_states(inst, self.index, metas);
            &built
        } else {
            &c.consumers
        };
        let per_consumer = self.assignor.thread_tasks(self.ctx, ci, consumers);
        for (cons, tasks) in consumers.iter().zip(&per_consumer) {
            if let Some(th) = inst.threads.iter_mut().find(|th| th.index == cons.index) {
                th.active = tasks
                    .stateful
                    .iter()
                    .chain(tasks.stateless.iter())
                    .map(|&t| metas[t].id)
                    .collect();
                th.standby = tasks.standby.iter().map(|&t| metas[t].id).collect();
            }
        }
        old_threads.len() != inst.threads.len()
            || old_threads
                .iter()
                .zip(&inst.threads)
                .any(|((i, a, s), th)| *i != th.index || *a != th.active || *s != th.standby)
    }

    /// Actives: keep running, keep restoring, or start restoring.
    fn start_actives(&self, ci: usize, inst: &mut Instance, tally: &mut Tally, out: &mut Vec<Event>) {
        let metas = self.ctx.tasks;
        let c = &self.ctx.clients[ci];
        let mut restoring = BTreeMap::new();
        for &t in &c.active {
            let id = metas[t].id;
            tally.active += 1;
            let previous = self.old_owner.get(&id).cloned();
            let stays = previous.as_deref() == Some(&*c.name);
            let reported = if metas[t].stateful { c.lag_for(t, metas) } else { 0 };
            let mut restore_records = 0;
            if metas[t].stateful {
                if stays && !inst.restoring.contains_key(&id) {
                    // running: nothing to restore
                } else if let (true, Some(r)) = (stays, inst.restoring.get(&id)) {
                    restoring.insert(id, r.clone());
                } else {
                    let end = metas[t].end;
                    let local = local_within(inst, id, end);
                    let lag = end - local;
                    inst.local.insert(id, local);
                    if lag > 0 {
                        restoring.insert(
                            id,
                            Restoring {
                                since_ms: self.now,
                                lag_at_start: lag,
                            },
                        );
                        restore_records = lag;
                    }
                }
            }
            if stays {
                tally.sticky += 1;
            } else {
                tally.moved += 1;
                let ms = restore_ms(restore_records, self.rate);
                tally.max_restore_ms = tally.max_restore_ms.max(ms);
                out.push(Event::TaskAssigned {
                    task: id,
                    instance: c.name.to_string(),
                    role: Role::Active,
                    reason: self.ctx.active_reason[t],
                    lag: reported,
                    previous,
                    restore_records,
                    restore_ms: ms,
                });
            }
        }
        inst.restoring = restoring;
    }

    /// Standbys and warm-ups: catch up from the local state.
    fn start_standbys(
        &self,
        ci: usize,
        inst: &mut Instance,
        old_standby: &BTreeSet<TaskId>,
        tally: &mut Tally,
        out: &mut Vec<Event>,
    ) {
        let metas = self.ctx.tasks;
        let c = &self.ctx.clients[ci];
        let mut warm = BTreeSet::new();
        for &t in &c.standby {
            let id = metas[t].id;
            let end = metas[t].end;
            let is_warm = self.ctx.warmups.contains(&(ci, t));
            if is_warm {
                warm.insert(id);
                tally.warmups += 1;
            } else {
                tally.standby += 1;
            }
            let local = local_within(inst, id, end);
            inst.local.insert(id, local);
            if !old_standby.contains(&id) || (is_warm && !inst.warmups.contains(&id)) {
                let lag = end - local;
                out.push(Event::TaskAssigned {
                    task: id,
                    instance: c.name.to_string(),
                    role: if is_warm { Role::WarmUp } else { Role::Standby },
                    reason: self
                        .ctx
                        .standby_reason
                        .get(&(ci, t))
                        .copied()
                        .unwrap_or(Reason::LeastLoaded),
                    lag: c.lag_for(t, metas),
                    previous: None,
                    restore_records: lag,
                    restore_ms: restore_ms(lag, self.rate),
                });
            }
        }
        inst.warmups = warm;
    }
}
