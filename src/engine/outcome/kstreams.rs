//! Kafka Streams' meter. A round is a rebalance (forced or probing): it ends at
//! `RebalanceCompleted`. The load is the active tasks of each stream thread
//! (kept from `ThreadsAssigned`, `InstanceIdle` and the instance and thread
//! events); a move is an active task that moved or was new
//! (`RebalanceCompleted.moved`); a rebalance that leaves warm-ups restoring has
//! work in flight. Restores are read from `TaskRestored`.

use super::{Extra, Goal, Measure, Meter, Outcome, Sample, Settings, Track};
use crate::engine::kstreams::{Config, Event, Role, Sim};
use crate::engine::System;
use std::collections::BTreeMap;

/// Reads a Kafka Streams run.
#[derive(Clone, Debug)]
pub struct KstreamsMeter {
    settings: Settings,
    track: Track,
    /// `num.standby.replicas`.
    standby_replicas: u32,
    /// Stateful tasks of the topology.
    stateful: u32,
    /// Active tasks per thread, per instance (thread index order).
    threads: BTreeMap<String, BTreeMap<u32, u32>>,
    /// Members of the rebalance under way.
    members: u32,
    records: u64,
    restore_ms: u64,
    longest: u64,
    warmups: u64,
    /// The last rebalance: warm-ups in flight, standbys placed, members.
    last: Option<(u32, u32, u32)>,
}

impl Measure for Sim {
    type Meter = KstreamsMeter;
    fn meter(config: &Config, settings: Settings) -> KstreamsMeter {
        KstreamsMeter {
            settings,
            track: Track::default(),
            standby_replicas: config.num_standby_replicas,
            stateful: 0,
            threads: BTreeMap::new(),
            members: 0,
            records: 0,
            restore_ms: 0,
            longest: 0,
            warmups: 0,
            last: None,
        }
    }
}

/// The map of `pairs`, inserted one by one (a collected map compiles a sort of
/// its own on wasm, per iterator type).
fn map_of(pairs: impl Iterator<Item = (u32, u32)>) -> BTreeMap<u32, u32> {
    let mut m = BTreeMap::new();
    for (k, v) in pairs {
        m.insert(k, v);
    }
    m
}

impl KstreamsMeter {
    fn loads(&self) -> Vec<f64> {
        self.threads
            .values()
            .flat_map(|t| t.values().map(|n| f64::from(*n)))
            .collect()
    }

    /// Standbys the config asks for with `members` members.
    fn standbys_wanted(&self, members: u32) -> u32 {
        self.stateful * self.standby_replicas.min(members.saturating_sub(1))
    }
}

impl Meter<Event> for KstreamsMeter {
    fn event(&mut self, e: &Event) {
        match e {
            Event::TopologyDefined { stateful_tasks, .. } => self.stateful = *stateful_tasks,
            Event::ConfigSet { key, value } if key == "num.standby.replicas" => {
                if let Some(n) = value.as_u64() {
                    self.standby_replicas = n.min(u64::from(u32::MAX)) as u32;
                }
            }
            Event::InstanceAdded {
                instance, threads, ..
            } => {
                self.threads
                    .insert(instance.clone(), map_of((1..=*threads).map(|t| (t, 0))));
            }
            Event::InstanceRemoved { instance, .. } | Event::InstanceCrashed { instance, .. } => {
                self.threads.remove(instance);
            }
            Event::ThreadAdded { instance, thread, .. } => {
                self.threads
                    .entry(instance.clone())
                    .or_default()
                    .insert(*thread, 0);
            }
            Event::ThreadRemoved { instance, thread, .. } => {
                if let Some(t) = self.threads.get_mut(instance) {
                    t.remove(thread);
                }
            }
            Event::InstanceIdle {
                instance, threads, ..
            } => {
                self.threads
                    .insert(instance.clone(), map_of((1..=*threads).map(|t| (t, 0))));
            }
            Event::ThreadsAssigned { instance, threads } => {
                self.threads.insert(
                    instance.clone(),
                    map_of(threads.iter().map(|t| (t.thread, t.active.len() as u32))),
                );
            }
            Event::TaskAssigned {
                role: Role::WarmUp, ..
            } => self.warmups += 1,
            Event::TaskRestored {
                records, restore_ms, ..
            } => {
                self.records += records;
                self.restore_ms += restore_ms;
            }
            Event::RebalanceStarted {
                member_count,
                members,
                ..
            } => {
                self.members = (*member_count).max(members.len() as u32);
            }
            Event::RebalanceCompleted {
                moved,
                warmups,
                standby,
                max_restore_ms,
                ..
            } => {
                self.longest = self.longest.max(*max_restore_ms);
                self.track.moved(u64::from(*moved));
                self.track.round(Sample {
                    busy: *warmups > 0,
                    ..Sample::of(&self.loads())
                });
                self.last = Some((*warmups, *standby, self.members));
            }
            _ => {}
        }
    }

    fn outcome(&self) -> Outcome {
        let mut goals = Vec::new();
        let loads = self.loads();
        if let Some((warmups, standby, members)) = self.last {
            let s = Sample::of(&loads);
            goals.push(Goal::new(
                "active tasks per stream thread differ by at most one",
                s.spread() <= 1.0,
                format!(
                    "{} – {} actives per thread over {} threads",
                    super::fmt(s.min),
                    super::fmt(s.max),
                    loads.len()
                ),
            ));
            goals.push(Goal::new(
                "converged: no warm-up left, no probing rebalance due",
                warmups == 0,
                format!("{warmups} warm-ups in the last rebalance"),
            ));
            if self.standby_replicas > 0 {
                let want = self.standbys_wanted(members);
                goals.push(Goal::new(
                    "every stateful task has its standbys",
                    standby >= want,
                    format!(
                        "{standby} standbys placed of {want} ({} stateful tasks × num.standby.replicas {} over {members} members)",
                        self.stateful, self.standby_replicas
                    ),
                ));
            }
        }
        let extra = Extra {
            records_restored: Some(self.records),
            restore_ms: Some(self.restore_ms),
            longest_restore_ms: Some(self.longest),
            warmups: Some(self.warmups),
            ..Extra::default()
        };
        Outcome {
            moves_are: "active tasks moved or new",
            load_unit: "active tasks per thread",
            ..self
                .track
                .finish(System::Kstreams, self.settings, false, extra, goals)
        }
    }
}
