//! State: changelog offsets per task and instance, restoration over simulated
//! time, and the rebalance that turns the assignor's answer into running tasks.
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

use super::assignor::{
    high_availability, sticky, sticky_task_assignor, streams_group, Assignor, Ctx, Reason,
};
use super::client::{consumer_key_cmp, Instance, InstanceStatus, Restoring};
use super::client_state::{ClientState, ConsumerState, TaskMeta, LATEST_OFFSET};
use super::rack_aware::{RackModel, RackStrategy};
use super::task::TaskId;
use super::threads::assign_to_threads;
use super::{Event, Role, Sim, ThreadLoad};
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
    consumers.sort_by(|a, b| consumer_key_cmp(a.index, b.index));
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

/// Run one rebalance: assign, spread over threads, start restoration, report.
pub fn rebalance(sim: &mut Sim, trigger: &str) -> Vec<Event> {
    let cfg = sim.config.clone();
    let sim_generation = sim.generation;
    let generation = sim.generation + 1;
    let members = sim.members();
    let member_count = members.len();
    let mut out = vec![Event::RebalanceStarted {
        generation,
        trigger: trigger.to_string(),
        assignor: cfg.assignor(),
        members: members
            .iter()
            .take(super::MAX_LISTED_MEMBERS)
            .map(|i| i.name.clone())
            .collect(),
        member_count: member_count as u32,
        tasks: sim.tasks.len() as u32,
    }];
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
    let clients: Vec<ClientState> = members.iter().map(|i| client_state(i, &index, &metas)).collect();
    let rack = rack_model(sim, &clients, &mut out);
    let mut ctx = Ctx::new(&metas, clients, &cfg, rack);
    let probing = match cfg.assignor() {
        Assignor::HighAvailability => high_availability::assign(&mut ctx),
        Assignor::Sticky => sticky::assign(&mut ctx),
        Assignor::StickyTaskAssignor => sticky_task_assignor::assign(&mut ctx),
        Assignor::StreamsGroupSticky => streams_group::assign(&mut ctx),
    };
    let Ctx {
        clients,
        active_reason,
        standby_reason,
        warmups,
        log,
        member_tasks,
        ..
    } = ctx;
    out.extend(log);
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
    let now = sim.now_ms;
    let rate = cfg.restore_records_per_second;
    let (mut n_active, mut n_standby, mut n_warm, mut sticky_n, mut moved, mut busy, mut idle) =
        (0, 0, 0, 0, 0, 0, 0);
    let mut max_restore = 0u64;
    let mut thread_events = Vec::new();
    // The members in the clients' order (process id), without a lookup by name each.
    let mut member_insts: Vec<&mut Instance> = sim.instances.values_mut().filter(|i| i.is_member()).collect();
    member_insts.sort_unstable_by_key(|i| i.process_id);
    for ((ci, c), inst) in clients.iter().enumerate().zip(member_insts) {
        debug_assert_eq!(inst.name.as_str(), &*c.name);
        let was_member = inst.member_of.is_some() && inst.member_of == Some(sim_generation);
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
            inst.member_of = Some(generation);
            idle += 1;
            if !was_member {
                thread_events.push(Event::InstanceIdle {
                    instance: c.name.to_string(),
                    threads: c.capacity,
                    standbys: 0,
                });
            }
            continue;
        }
        let old_active = inst.active_tasks();
        let old_standby = inst.standby_tasks();
        let old_threads: Vec<(u32, Vec<TaskId>, Vec<TaskId>)> = inst
            .threads
            .iter()
            .map(|th| (th.index, th.active.clone(), th.standby.clone()))
            .collect();
        inst.member_of = Some(generation);
        // A client that held nothing before has its consumers built only now.
        let built;
        let consumers: &[ConsumerState] = if c.consumers.is_empty() {
            built = consumer_states(inst, &index, &metas);
            &built
        } else {
            &c.consumers
        };
        let n = consumers.len();
        let prev_by_lag = |k: usize| -> Vec<usize> {
            let mut v: Vec<usize> = consumers[k].prev.iter().copied().collect();
            v.sort_by_key(|&t| (c.lag_for(t, &metas), t));
            v
        };
        // Per consumer: (stateful actives, stateless actives, standbys).
        let per_consumer: Vec<(Vec<usize>, Vec<usize>, Vec<usize>)> =
            match member_tasks.as_ref().and_then(|m| m.get(ci)) {
                // The streams group's assignor assigned the members (threads) itself.
                Some(mt) => (0..n)
                    .map(|k| {
                        let m = mt.get(k).cloned().unwrap_or_default();
                        (
                            m.active.into_iter().collect(),
                            Vec::new(),
                            m.standby.into_iter().collect(),
                        )
                    })
                    .collect(),
                None => {
                    let sa: Vec<usize> = c.active.iter().copied().filter(|&t| metas[t].stateful).collect();
                    let sl: Vec<usize> = c.active.iter().copied().filter(|&t| !metas[t].stateful).collect();
                    let sb: Vec<usize> = c.standby.iter().copied().collect();
                    let mut load = vec![0usize; n];
                    let a1 = assign_to_threads(&sa, true, n, &prev_by_lag, &mut load);
                    let s1 = assign_to_threads(&sb, true, n, &prev_by_lag, &mut load);
                    let a2 = assign_to_threads(&sl, false, n, &prev_by_lag, &mut load);
                    a1.into_iter()
                        .zip(a2)
                        .zip(s1)
                        .map(|((a, b), s)| (a, b, s))
                        .collect()
                }
            };
        for (k, cons) in consumers.iter().enumerate() {
            if let Some(th) = inst.threads.iter_mut().find(|th| th.index == cons.index) {
                let (a1, a2, s1) = &per_consumer[k];
                th.active = a1.iter().chain(a2.iter()).map(|&t| metas[t].id).collect();
                th.standby = s1.iter().map(|&t| metas[t].id).collect();
            }
        }
        let changed = old_threads.len() != inst.threads.len()
            || old_threads
                .iter()
                .zip(&inst.threads)
                .any(|((i, a, s), th)| *i != th.index || *a != th.active || *s != th.standby);
        // Actives: keep running, keep restoring, or start restoring.
        let mut restoring = BTreeMap::new();
        for &t in &c.active {
            let id = metas[t].id;
            n_active += 1;
            let previous = old_owner.get(&id).cloned();
            let stays = previous.as_deref() == Some(&*c.name);
            let reported = if metas[t].stateful {
                c.lag_for(t, &metas)
            } else {
                0
            };
            let mut restore_records = 0;
            if metas[t].stateful {
                if stays && !inst.restoring.contains_key(&id) {
                    // running: nothing to restore
                } else if let (true, Some(r)) = (stays, inst.restoring.get(&id)) {
                    restoring.insert(id, r.clone());
                } else {
                    let end = metas[t].end;
                    let local = inst.local.get(&id).copied().unwrap_or(0);
                    let local = if local > end { 0 } else { local };
                    let lag = end - local;
                    inst.local.insert(id, local);
                    if lag > 0 {
                        restoring.insert(
                            id,
                            Restoring {
                                since_ms: now,
                                lag_at_start: lag,
                            },
                        );
                        restore_records = lag;
                    }
                }
            }
            if stays {
                sticky_n += 1;
            } else {
                moved += 1;
                let ms = restore_ms(restore_records, rate);
                max_restore = max_restore.max(ms);
                out.push(Event::TaskAssigned {
                    task: id,
                    instance: c.name.to_string(),
                    role: Role::Active,
                    reason: active_reason[t],
                    lag: reported,
                    previous,
                    restore_records,
                    restore_ms: ms,
                });
            }
        }
        inst.restoring = restoring;
        // Standbys and warm-ups.
        let mut warm = BTreeSet::new();
        for &t in &c.standby {
            let id = metas[t].id;
            let end = metas[t].end;
            let is_warm = warmups.contains(&(ci, t));
            if is_warm {
                warm.insert(id);
                n_warm += 1;
            } else {
                n_standby += 1;
            }
            let local = inst.local.get(&id).copied().unwrap_or(0);
            let local = if local > end { 0 } else { local };
            inst.local.insert(id, local);
            if !old_standby.contains(&id) || (is_warm && !inst.warmups.contains(&id)) {
                let lag = end - local;
                out.push(Event::TaskAssigned {
                    task: id,
                    instance: c.name.to_string(),
                    role: if is_warm { Role::WarmUp } else { Role::Standby },
                    reason: standby_reason
                        .get(&(ci, t))
                        .copied()
                        .unwrap_or(Reason::LeastLoaded),
                    lag: c.lag_for(t, &metas),
                    previous: None,
                    restore_records: lag,
                    restore_ms: restore_ms(lag, rate),
                });
            }
        }
        inst.warmups = warm;
        if c.active.is_empty() {
            idle += 1;
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
            busy += 1;
        }
        if changed {
            thread_events.push(Event::ThreadsAssigned {
                instance: c.name.to_string(),
                threads: inst
                    .threads
                    .iter()
                    .map(|th| ThreadLoad {
                        thread: th.index,
                        active: th.active.clone(),
                        standby: th.standby.clone(),
                    })
                    .collect(),
            });
        }
    }
    out.extend(thread_events);
    sim.generation = generation;
    sim.metrics.rebalances += 1;
    sim.metrics.tasks_moved += moved;
    sim.metrics.last_rebalance_moved = moved;
    if probing {
        let at = now.saturating_add(cfg.probing_rebalance_interval_ms);
        sim.probing_at_ms = Some(at);
        out.push(Event::ProbingRebalanceScheduled {
            at_ms: at,
            warmups: n_warm as u32,
        });
    } else {
        sim.probing_at_ms = None;
    }
    out.push(Event::RebalanceCompleted {
        generation,
        active: n_active,
        standby: n_standby,
        warmups: n_warm as u32,
        sticky: sticky_n,
        moved: moved as u32,
        busy_instances: busy,
        idle_instances: idle,
        max_restore_ms: max_restore,
    });
    out
}
