//! Pulsar's meter. A round ends at `RoundDone` (its metrics give the brokers'
//! load, max weighted resource usage in %); a move is an `Unloaded` bundle;
//! `Reconnected` counts topics and sessions; the shedder's `BundleChosen` gives
//! the traffic it moved; its decisions (`Overloaded`, `AboveThreshold`,
//! `LowerBoundary`, `UniformImbalance`, `TransferPair`, `AvgPlan`) are checked
//! against the loads the brokers last reported.

use super::{Extra, Goal, Measure, Meter, Outcome, Sample, Settings, Track};
use crate::engine::pulsar::shed::{shared::MB, Metric, ShedEvent};
use crate::engine::pulsar::{Config, Event, Sim};
use crate::engine::System;
use std::collections::BTreeMap;

/// Reads a Pulsar run.
#[derive(Clone, Debug)]
pub struct PulsarMeter {
    settings: Settings,
    /// `loadBalancerBrokerOverloadedThresholdPercentage`.
    overload: f64,
    /// `loadBalancerBrokerThresholdShedderPercentage`.
    threshold: f64,
    track: Track,
    topics: u64,
    sessions: u64,
    throughput: f64,
    msg_rate: f64,
    decisions: u64,
    misdirected: u64,
    /// The load each broker last reported, %.
    reported: BTreeMap<String, f64>,
    /// The last round's unowned bundles.
    unowned: Option<usize>,
}

impl Measure for Sim {
    type Meter = PulsarMeter;
    fn meter(config: &Config, settings: Settings) -> PulsarMeter {
        PulsarMeter {
            settings,
            overload: config.load_balancer_broker_overloaded_threshold_percentage,
            threshold: config.load_balancer_broker_threshold_shedder_percentage,
            track: Track::default(),
            topics: 0,
            sessions: 0,
            throughput: 0.0,
            msg_rate: 0.0,
            decisions: 0,
            misdirected: 0,
            reported: BTreeMap::new(),
            unowned: None,
        }
    }
}

impl PulsarMeter {
    /// A shedder chose `broker` to offload.
    fn decided(&mut self, broker: &str) {
        self.decisions += 1;
        if let Some(load) = self.reported.get(broker) {
            let avg = self.reported.values().sum::<f64>() / self.reported.len() as f64;
            if *load <= avg + 1e-9 {
                self.misdirected += 1;
            }
        }
    }
}

impl Meter<Event> for PulsarMeter {
    fn event(&mut self, e: &Event) {
        match e {
            Event::Unloaded { .. } => self.track.moved(1),
            Event::Reconnected { topics, sessions, .. } => {
                self.topics += u64::from(*topics);
                self.sessions += u64::from(*sessions);
            }
            Event::Reported { published, .. } => {
                for (b, _, load) in published {
                    self.reported.insert(b.0.to_string(), *load);
                }
            }
            Event::BrokerCrashed { broker, .. } => {
                self.reported.remove(&*broker.0);
            }
            Event::RoundDone { metrics: m } => {
                self.unowned = Some(m.unowned_bundles);
                self.track.round(Sample {
                    max: m.max_load,
                    min: m.min_load,
                    avg: m.avg_load,
                    std_dev: m.std_dev,
                    over_line: m.brokers_alive > 0 && m.max_load >= self.overload,
                    ..Sample::default()
                });
            }
            Event::Shed(s) => match s {
                ShedEvent::BundleChosen { metric, value, .. } => match metric {
                    Metric::Throughput => self.throughput += value / MB,
                    Metric::MsgRate => self.msg_rate += value,
                },
                ShedEvent::Overloaded { broker, .. }
                | ShedEvent::AboveThreshold { broker, .. }
                | ShedEvent::LowerBoundary { broker, .. } => self.decided(&broker.0),
                ShedEvent::UniformImbalance { overloaded, .. } => self.decided(&overloaded.0),
                ShedEvent::TransferPair { from, .. } | ShedEvent::AvgPlan { from, .. } => {
                    self.decided(&from.0)
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn outcome(&self) -> Outcome {
        // The end's loads: the last round's, else the last reports.
        let last = self.track.samples().last().copied().or_else(|| {
            (!self.reported.is_empty())
                .then(|| Sample::of(&self.reported.values().copied().collect::<Vec<_>>()))
        });
        let mut goals = Vec::new();
        if let Some(l) = last {
            let (hi, lo) = (l.avg + self.threshold, l.avg - self.threshold);
            goals.push(Goal::new(
                "every broker within the shedder's threshold of the average",
                l.max <= hi + 1e-9 && l.min >= lo - 1e-9,
                format!(
                    "load {} – {} %, average {} % ± {} %",
                    super::fmt(l.min),
                    super::fmt(l.max),
                    super::fmt(l.avg),
                    super::fmt(self.threshold)
                ),
            ));
            goals.push(Goal::new(
                "no broker above the overload threshold",
                l.max < self.overload,
                format!(
                    "highest {} % vs loadBalancerBrokerOverloadedThresholdPercentage {} %",
                    super::fmt(l.max),
                    super::fmt(self.overload)
                ),
            ));
        }
        if let Some(u) = self.unowned {
            goals.push(Goal::new(
                "every bundle with topics has an owner",
                u == 0,
                format!("{u} unowned"),
            ));
        }
        let extra = Extra {
            topics_reconnected: Some(self.topics),
            sessions_reconnected: Some(self.sessions),
            throughput_moved_mb: Some(self.throughput),
            msg_rate_moved: Some(self.msg_rate),
            shed_decisions: Some(self.decisions),
            misdirected_sheds: Some(self.misdirected),
            ..Extra::default()
        };
        Outcome {
            moves_are: "bundles unloaded",
            load_unit: "%",
            ..self
                .track
                .finish(System::Pulsar, self.settings, true, extra, goals)
        }
    }
}
