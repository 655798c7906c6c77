//! Simulated time: a round is `roundSeconds` long. [`Sim::step`] advances the
//! clock and runs, in order:
//!
//! 1. report: brokers publish their load when Pulsar's update rule says so, and
//!    the leader samples the bundle averages;
//! 2. split: modular — the leader's check at each load-data update (every round);
//!    extensible — every `loadBalancerSplitIntervalMinutes`;
//! 3. shed: every `loadBalancerSheddingIntervalMinutes`;
//! 4. assign: clients look up every unowned bundle that has topics (reconnects
//!    after unloads, orphans after crashes, new topics);
//! 5. metrics of the round.
//!
//! The phase actions (Report / Split / Shed / Assign) run one phase at the
//! current time regardless of its interval; their counts go into the next
//! round's metrics.

use super::config::LoadManager;
use super::load::BrokerId;
use super::report::{weights, Snapshots};
use super::{Event, RoundCounters, Sim};
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};

/// What one round did and where the cluster stands after it.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct RoundMetrics {
    /// Round number (1 = first).
    pub round: u64,
    /// Simulated time at its end, ms.
    pub time_ms: u64,
    /// Brokers alive.
    pub brokers_alive: usize,
    /// Highest broker load (max weighted resource usage, %).
    pub max_load: f64,
    /// Lowest broker load, %.
    pub min_load: f64,
    /// Average broker load, %.
    pub avg_load: f64,
    /// Population standard deviation of broker loads, percentage points.
    pub std_dev: f64,
    /// Bundles unloaded or transferred.
    pub bundles_moved: u32,
    /// Topic reconnects (latency blips).
    pub reconnects: u64,
    /// Bundle splits.
    pub splits: u32,
    /// Bundles assigned by lookups.
    pub assignments: u32,
    /// Bundles with topics but no owner at the end of the round.
    pub unowned_bundles: usize,
}

impl Narrate for RoundMetrics {
    fn narrate(&self) -> String {
        format!(
            "round {} (t = {} s): {} brokers, load max {:.1}% min {:.1}% avg {:.1}% std dev {:.2}; {} bundles moved, {} topics reconnected, {} splits, {} assignments, {} unowned",
            self.round,
            self.time_ms / 1000,
            self.brokers_alive,
            self.max_load,
            self.min_load,
            self.avg_load,
            self.std_dev,
            self.bundles_moved,
            self.reconnects,
            self.splits,
            self.assignments,
            self.unowned_bundles
        )
    }
}

impl Sim {
    /// Every alive broker's current load: max weighted resource usage in percent.
    pub fn broker_loads(&self) -> Vec<(BrokerId, f64)> {
        let all = self.snapshots();
        self.alive_loads(&all).map(|(b, l)| (b.clone(), l)).collect()
    }

    /// The alive brokers (name order) with their load, as [`Sim::broker_loads`].
    pub(super) fn alive_loads<'a>(
        &'a self,
        all: &'a Snapshots<'a>,
    ) -> impl Iterator<Item = (&'a BrokerId, f64)> + 'a {
        let w = weights(&self.config);
        self.alive().map(move |b| {
            let snap = self.snapshot_with(all, b);
            let l = super::load::LocalBrokerData::of_usage(&snap.usage);
            (&b.id, l.max_resource_usage_with_weight(&w) * 100.0)
        })
    }

    fn close_round(&mut self) -> RoundMetrics {
        self.refresh_served();
        let loads: Vec<f64> = {
            let all = self.snapshots();
            self.alive_loads(&all).map(|(_, l)| l).collect()
        };
        let n = loads.len();
        let avg = if n > 0 {
            loads.iter().sum::<f64>() / n as f64
        } else {
            0.0
        };
        let var = if n > 0 {
            loads.iter().map(|l| (l - avg) * (l - avg)).sum::<f64>() / n as f64
        } else {
            0.0
        };
        debug_assert_eq!(
            self.unowned.len(),
            self.bundles
                .values()
                .filter(|s| s.topics > 0 && s.owner().is_none())
                .count(),
            "the unowned set is out of step with the bundles"
        );
        let c = std::mem::take(&mut self.counters);
        let RoundCounters {
            bundles_moved,
            reconnects,
            splits,
            assignments,
        } = c;
        let m = RoundMetrics {
            round: self.round,
            time_ms: self.now_ms,
            brokers_alive: n,
            max_load: loads.iter().copied().fold(0.0, f64::max),
            min_load: if n > 0 {
                loads.iter().copied().fold(f64::INFINITY, f64::min)
            } else {
                0.0
            },
            avg_load: avg,
            std_dev: var.sqrt(),
            bundles_moved,
            reconnects,
            splits,
            assignments,
            unowned_bundles: self.unowned.len(),
        };
        self.metrics.push(m.clone());
        m
    }

    /// One full round.
    pub fn step(&mut self) -> Vec<Event> {
        self.step_marked(|_| {})
    }

    /// One full round, calling `done` as each [`Phase`] ends (in order; a
    /// phase that is not due this round is still reported, having done
    /// nothing). The engine reads no clock: a benchmark times the phases
    /// from these calls.
    pub fn step_marked(&mut self, mut done: impl FnMut(Phase)) -> Vec<Event> {
        // The round's summary counts this round's own work: moves, splits and
        // lookups done before it (setup, admin commands, single phases) are not its.
        self.counters = Default::default();
        self.round += 1;
        self.now_ms += u64::from(self.config.round_seconds) * 1000;
        // Room for as many events as last time, and some (a vector that grows
        // copies them all).
        let mut ev = Vec::with_capacity(self.last_step_events + self.last_step_events / 8 + 16);
        self.scalable_traffic_phase();
        let (applied, loads) = self.workload_patterns();
        done(Phase::Patterns);
        self.workload_history(applied, loads, &mut ev);
        done(Phase::BrokerSums);
        ev.extend(self.report_phase(false));
        done(Phase::Report);
        let split_due = match self.config.load_manager_class_name {
            LoadManager::Modular => true,
            LoadManager::Extensible => {
                self.now_ms.saturating_sub(self.last_split_ms)
                    >= u64::from(self.config.load_balancer_split_interval_minutes) * 60_000
            }
        };
        if split_due {
            self.last_split_ms = self.now_ms;
            self.split_into(&mut ev);
        }
        done(Phase::Split);
        let shed_ms = u64::from(self.config.load_balancer_shedding_interval_minutes) * 60_000;
        if self.now_ms.saturating_sub(self.last_shed_ms) >= shed_ms {
            self.last_shed_ms = self.now_ms;
            self.shed_into(&mut ev);
        }
        done(Phase::Shed);
        self.assign_into(&mut ev);
        self.scalable_phase(&mut ev);
        done(Phase::Assign);
        let metrics = self.close_round();
        ev.push(Event::RoundDone { metrics });
        self.last_step_events = ev.len();
        done(Phase::Metrics);
        ev
    }
}

/// The parts of a round, in the order [`Sim::step_marked`] runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// The workload patterns shape every targeted topic's traffic and the
    /// bundle sums that changed.
    Patterns,
    /// Every broker's served traffic (the sum of its bundles), and the
    /// per-broker traffic history.
    BrokerSums,
    /// Brokers decide whether to publish their load report; the leader samples.
    Report,
    /// The bundle split check.
    Split,
    /// The load shedder.
    Shed,
    /// Placement: lookups of every unowned bundle.
    Assign,
    /// The round's metrics.
    Metrics,
}

impl Phase {
    /// Every phase, in order.
    pub const ALL: [Phase; 7] = [
        Phase::Patterns,
        Phase::BrokerSums,
        Phase::Report,
        Phase::Split,
        Phase::Shed,
        Phase::Assign,
        Phase::Metrics,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Patterns => "patterns",
            Phase::BrokerSums => "broker sums",
            Phase::Report => "report",
            Phase::Split => "split",
            Phase::Shed => "shed",
            Phase::Assign => "placement",
            Phase::Metrics => "metrics",
        }
    }
}
