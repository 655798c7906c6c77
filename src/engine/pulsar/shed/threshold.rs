//! ThresholdShedder: every pass folds each broker's weighted max resource usage
//! into a moving average (`avg = old × h + new × (1 − h)`, h =
//! `loadBalancerHistoryResourcePercentage`; the first observation is the raw
//! usage), averages those over the cluster, and sheds from every broker whose
//! average is at least cluster average + `loadBalancerBrokerThresholdShedderPercentage`.
//! Such a broker offloads at least `throughput × (usage − avg − threshold + 5 %)`,
//! biggest short-term-throughput bundles first, unless that target is below
//! `loadBalancerBundleUnloadMinThroughputThreshold` MB/s.
//!
//! Doc vs code: the doc (and Pulsar's class comment) says the broker is brought
//! "5 % below the cluster average"; the code aims 5 % below average + threshold.
//! lbscope follows the code and its events print the formula.
//!
//! Lower-boundary shedding (`lowerBoundarySheddingEnabled`): when nothing was
//! selected and some broker is below average − threshold, the busiest broker
//! (above average − threshold, with more than one bundle) offloads
//! `throughput × threshold × 0.5`. As in Pulsar, this second step recomputes the
//! averages, so the moving averages are folded twice in such a pass.
//!
//! There is no 100 % cap: a weighted usage above 100 % (e.g. 140 % CPU) counts as
//! it is in the moving average and can trigger shedding. (Pulsar once replaced
//! such a usage by the max of the signals within 100 %, and reverted that.)

use super::super::config::{Config, SheddingStrategy};
use super::super::load::{BrokerId, BundleId, LoadData};
use super::inputs::{frac_input, line, pc, BrokerInput, InputsContext, ShedInputs};
use super::overload::select_until;
use super::shared::{weights, MB};
use super::{BrokerSkipReason, IdleReason, ShedEvent, ShedOutcome, UsageSample};
use std::collections::BTreeMap;

const S: SheddingStrategy = SheddingStrategy::ThresholdShedder;
/// `ADDITIONAL_THRESHOLD_PERCENT_MARGIN`.
pub const MARGIN: f64 = 0.05;
/// `LOWER_BOUNDARY_THRESHOLD_MARGIN`.
pub const LOWER_BOUNDARY_MARGIN: f64 = 0.5;

/// ThresholdShedder's memory: each broker's moving-average usage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThresholdShedder {
    /// `brokerAvgResourceUsage` (fractions).
    pub avg_usage: BTreeMap<BrokerId, f64>,
}

impl ThresholdShedder {
    /// Fold this round's usage into the moving averages; return the cluster
    /// average and the per-broker samples.
    fn update_averages(&mut self, load: &LoadData, conf: &Config) -> (f64, Vec<UsageSample>) {
        let h = conf.load_balancer_history_resource_percentage;
        let w = weights(conf);
        let mut samples = Vec::with_capacity(load.brokers.len());
        let mut total = 0.0;
        // Both maps are sorted by broker name: walk the averages alongside,
        // updating in place; brokers seen for the first time are added after.
        let mut first_seen = Vec::new();
        let mut averages = self.avg_usage.iter_mut().peekable();
        for (b, d) in &load.brokers {
            let current = d.local.max_resource_usage_with_weight(&w);
            let slot = loop {
                match averages.peek().map(|(k, _)| (*k).cmp(b)) {
                    Some(std::cmp::Ordering::Less) => {
                        averages.next();
                    }
                    Some(std::cmp::Ordering::Equal) => break averages.next().map(|(_, v)| v),
                    _ => break None,
                }
            };
            let previous = slot.as_deref().copied();
            let average = match previous {
                Some(p) => p * h + (1.0 - h) * current,
                None => current,
            };
            match slot {
                Some(v) => *v = average,
                None => first_seen.push((b.clone(), average)),
            }
            total += average;
            samples.push(UsageSample {
                broker: b.clone(),
                current,
                previous,
                average,
            });
        }
        self.avg_usage.extend(first_seen);
        let n = load.brokers.len();
        (if n > 0 { total / n as f64 } else { 0.0 }, samples)
    }

    /// One ThresholdShedder pass.
    pub fn find(
        &mut self,
        load: &LoadData,
        conf: &Config,
        recent: &BTreeMap<BundleId, u64>,
        grace: u64,
    ) -> ShedOutcome {
        let mut out = ShedOutcome::default();
        let threshold = conf.load_balancer_broker_threshold_shedder_percentage / 100.0;
        let min_throughput = conf.load_balancer_bundle_unload_min_throughput_threshold * MB;
        let (avg, samples) = self.update_averages(load, conf);
        // The moving averages just stored, in `load.brokers` order.
        let averages: Vec<f64> = samples.iter().map(|s| s.average).collect();
        out.events.push(ShedEvent::ThresholdAverages {
            history_percentage: conf.load_balancer_history_resource_percentage,
            samples,
            cluster_average: avg,
        });
        if avg == 0.0 {
            out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::ZeroAverageUsage,
            });
            return out;
        }
        for ((broker, data), &usage) in load.brokers.iter().zip(&averages) {
            if usage < avg + threshold {
                continue;
            }
            let percent = usage - avg - threshold + MARGIN;
            let throughput = data.local.msg.total_throughput();
            let min_to_offload = throughput * percent;
            out.events.push(ShedEvent::AboveThreshold {
                broker: broker.clone(),
                usage,
                average: avg,
                threshold,
                percent_to_offload: percent,
                throughput,
                min_to_offload,
            });
            if min_to_offload < min_throughput {
                out.events.push(ShedEvent::BrokerSkipped {
                    strategy: S,
                    broker: broker.clone(),
                    reason: BrokerSkipReason::BelowMinThroughput {
                        planned: min_to_offload,
                        min: min_throughput,
                    },
                });
                continue;
            }
            select_until(&mut out, S, load, broker, recent, grace, min_to_offload);
        }
        if out.unloads.is_empty() && conf.lower_boundary_shedding_enabled {
            self.lower_boundary(&mut out, load, conf, recent, grace);
        }
        out
    }

    fn lower_boundary(
        &mut self,
        out: &mut ShedOutcome,
        load: &LoadData,
        conf: &Config,
        recent: &BTreeMap<BundleId, u64>,
        grace: u64,
    ) {
        let threshold = conf.load_balancer_broker_threshold_shedder_percentage / 100.0;
        // Pulsar recomputes (and so re-folds) the averages here.
        let (avg, samples) = self.update_averages(load, conf);
        out.events.push(ShedEvent::ThresholdAverages {
            history_percentage: conf.load_balancer_history_resource_percentage,
            samples,
            cluster_average: avg,
        });
        let mut max_usage = avg - threshold;
        let mut max_broker: Option<&BrokerId> = None;
        let mut below = false;
        for (b, d) in &load.brokers {
            let u = self.avg_usage.get(b).copied().unwrap_or(0.0);
            if u > max_usage && d.local.bundles.len() > 1 {
                max_usage = u;
                max_broker = Some(b);
            }
            if u < avg - threshold {
                below = true;
            }
        }
        let Some(broker) = max_broker else {
            out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::LowerBoundaryNoneAbove,
            });
            return;
        };
        if !below {
            out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::LowerBoundaryNoneBelow {
                    average: avg,
                    threshold,
                },
            });
            return;
        }
        let local = &load.brokers[broker].local;
        let throughput = local.msg.total_throughput();
        let min_to_offload = throughput * threshold * LOWER_BOUNDARY_MARGIN;
        out.events.push(ShedEvent::LowerBoundary {
            broker: broker.clone(),
            usage: max_usage,
            average: avg,
            threshold,
            throughput,
            min_to_offload,
        });
        let min_throughput = conf.load_balancer_bundle_unload_min_throughput_threshold * MB;
        if min_throughput > min_to_offload {
            out.events.push(ShedEvent::BrokerSkipped {
                strategy: S,
                broker: broker.clone(),
                reason: BrokerSkipReason::BelowMinThroughput {
                    planned: min_to_offload,
                    min: min_throughput,
                },
            });
            return;
        }
        select_until(out, S, load, broker, recent, grace, min_to_offload);
    }
}

impl ThresholdShedder {
    /// What the registry says of it.
    pub fn about() -> crate::engine::strategy::About {
        crate::engine::strategy::About {
            upstream: "org.apache.pulsar.broker.loadbalance.impl.ThresholdShedder",
            summary: "Keeps a moving average of each broker's weighted max usage; a broker above the cluster average + threshold sheds its biggest bundles (with lower-boundary shedding, the busiest sheds when one is far below).",
            file: file!(),
        }
    }
}

impl super::LoadSheddingStrategy for ThresholdShedder {
    fn interface(&self) -> super::Interface {
        super::Interface::Modular
    }

    fn find_bundles_for_unloading(&mut self, cx: &mut super::ShedContext<'_>) -> ShedOutcome {
        self.find(cx.load, cx.conf, cx.recent, cx.grace_ms)
    }

    /// The moving averages the last pass stored (`brokerAvgResourceUsage`, not
    /// the instantaneous usage), their cluster average over the brokers of the
    /// load data, and average + threshold, the line a broker sheds at (average −
    /// threshold too with lower-boundary shedding).
    fn inputs(&self, cx: &InputsContext<'_>) -> ShedInputs {
        let threshold = cx.conf.load_balancer_broker_threshold_shedder_percentage;
        let brokers: Vec<BrokerInput> = cx
            .load
            .brokers
            .keys()
            .map(|b| frac_input(b, self.avg_usage.get(b).copied()))
            .collect();
        let known: Vec<f64> = brokers.iter().filter_map(|b| b.value).collect();
        let mut lines = Vec::new();
        let summary = if known.is_empty() {
            "no moving average yet: the first pass takes each broker's usage as it is".to_string()
        } else {
            let avg = known.iter().sum::<f64>() / known.len() as f64;
            lines.push(line(format!("cluster average {}", pc(avg)), avg, false));
            lines.push(line(
                format!(
                    "average + threshold {} + {} = {}",
                    pc(avg),
                    pc(threshold),
                    pc(avg + threshold)
                ),
                avg + threshold,
                true,
            ));
            if cx.conf.lower_boundary_shedding_enabled {
                lines.push(line(
                    format!("average − threshold {}", pc(avg - threshold)),
                    avg - threshold,
                    true,
                ));
            }
            let over: Vec<String> = brokers
                .iter()
                .filter(|b| b.value.is_some_and(|v| v >= avg + threshold))
                .map(|b| b.broker.0.to_string())
                .collect();
            format!(
                "a broker sheds when its moving average (history {} × old + {} × new) is at least the cluster average {} + threshold {}: {}",
                short(cx.conf.load_balancer_history_resource_percentage),
                short(1.0 - cx.conf.load_balancer_history_resource_percentage),
                pc(avg),
                pc(threshold),
                if over.is_empty() { "none is".to_string() } else { format!("{} {}", over.join(", "), if over.len() == 1 { "is" } else { "are" }) }
            )
        };
        ShedInputs {
            strategy: S,
            measure: "moving-average usage".into(),
            bar: Some("moving avg".into()),
            brokers,
            lines,
            band: None,
            summary,
        }
    }
}

/// A weight as a reader writes it: `1 - 0.9` is 0.1, not 0.09999999999999998
/// (six decimals at most).
fn short(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::super::{Metric, Shedder};
    use super::*;

    fn conf() -> Config {
        Config {
            load_balancer_load_shedding_strategy: S,
            ..Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
        }
    }

    /// The doc's example: 40 %, 10 %, 10 % with threshold 10 %.
    fn doc_cluster() -> Fx {
        Fx::new()
            .broker("broker1", 40.0)
            .broker("broker2", 10.0)
            .broker("broker3", 10.0)
            .bundle("broker1", 0, 100.0, 60.0 * MIB)
            .bundle("broker1", 1, 100.0, 21.0 * MIB)
            .bundle("broker1", 2, 100.0, 20.0 * MIB)
            .bundle("broker1", 3, 100.0, 19.0 * MIB)
            .bundle("broker2", 4, 100.0, 30.0 * MIB)
            .bundle("broker2", 5, 100.0, 30.0 * MIB)
            .bundle("broker3", 6, 100.0, 30.0 * MIB)
            .bundle("broker3", 7, 100.0, 30.0 * MIB)
    }

    /// The picture's numbers are the pass's: the moving averages and the
    /// cluster average the `ThresholdAverages` event printed, and average +
    /// threshold (derived by reading ThresholdShedder.findBundlesForUnloading).
    #[test]
    fn inputs_are_the_moving_averages_the_pass_decided_on() {
        let fx = doc_cluster();
        let c = conf();
        let mut shedder = Shedder::default();
        let before = shedder.inputs(&fx.load, &c, 0);
        assert!(before.brokers.iter().all(|b| b.value.is_none()) && before.lines.is_empty());
        shedder.find_bundles_for_unloading(&fx.load, &c, 0, &mut rng());
        // broker1 drops to 10 % CPU: the moving average is 0.9 × 40 + 0.1 × 10 = 37 %.
        let fx2 = fx.clone().cpu("broker1", 10.0);
        let out = shedder.find_bundles_for_unloading(&fx2.load, &c, 60_000, &mut rng());
        let (samples, avg) = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::ThresholdAverages {
                    samples,
                    cluster_average,
                    ..
                } => Some((samples.clone(), *cluster_average)),
                _ => None,
            })
            .unwrap();
        let inputs = shedder.inputs(&fx2.load, &c, 60_000);
        assert_eq!(inputs.strategy, S);
        for s in &samples {
            let got = inputs.broker(&s.broker.0).unwrap().value.unwrap();
            assert!((got - s.average * 100.0).abs() < 1e-9, "{got} vs {}", s.average);
        }
        assert!((inputs.broker("broker1").unwrap().value.unwrap() - 37.0).abs() < 1e-9);
        assert!((inputs.lines[0].at - avg * 100.0).abs() < 1e-9);
        assert!((inputs.lines[1].at - (avg * 100.0 + 10.0)).abs() < 1e-9 && inputs.lines[1].trigger);
        assert!(inputs.summary.contains("broker1 is"), "{}", inputs.summary);
        // The weights read as written (1 − 0.9 is not printed as 0.0999…98).
        assert!(
            inputs.summary.contains("history 0.9 × old + 0.1 × new"),
            "{}",
            inputs.summary
        );
    }

    #[test]
    fn threshold_shedder_doc_example_40_10_10() {
        let fx = doc_cluster();
        let c = conf();
        assert_eq!(c.load_balancer_broker_threshold_shedder_percentage, 10.0);
        let mut shedder = Shedder::default();
        let out = shedder.find_bundles_for_unloading(&fx.load, &c, 0, &mut rng());
        // First observation: the moving average is the raw usage; average 20 %.
        let avg = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::ThresholdAverages { cluster_average, .. } => Some(*cluster_average),
                _ => None,
            })
            .unwrap();
        assert!((avg - 0.20).abs() < 1e-6, "average {avg}");
        let above: Vec<_> = out
            .events
            .iter()
            .filter_map(|e| match e {
                ShedEvent::AboveThreshold {
                    broker,
                    percent_to_offload,
                    throughput,
                    min_to_offload,
                    ..
                } => Some((broker.clone(), *percent_to_offload, *throughput, *min_to_offload)),
                _ => None,
            })
            .collect();
        assert_eq!(above.len(), 1, "only broker1 sheds");
        let (b, pct, tp, min) = &above[0];
        assert_eq!(b, &br("broker1"));
        // 0.40 − 0.20 − 0.10 + 0.05 = 0.15 of 120 MB/s = 18 MB/s.
        assert!((pct - 0.15).abs() < 1e-6, "{pct}");
        assert!((tp / MIB - 120.0).abs() < 1e-9);
        assert!((min / MIB - 18.0).abs() < 1e-3);
        // Biggest first: 60 MB/s already covers 18 MB/s.
        assert_eq!(out.unloads, vec![unload(0, "broker1", None)]);
        let text: Vec<String> = out.events.iter().map(crate::engine::Narrate::narrate).collect();
        assert!(
            text.iter()
                .any(|t| t.contains("(40.0 % − 20.0 % − 10.0 % + 5 %) = 15.0 %")),
            "{text:#?}"
        );
        // Moving average from the second round on: 0.9 × 40 % + 0.1 × 10 % = 37 %.
        let fx2 = fx.clone().cpu("broker1", 10.0);
        shedder.find_bundles_for_unloading(&fx2.load, &c, 60_000, &mut rng());
        let a = shedder.strategies.threshold.avg_usage[&br("broker1")];
        assert!((a - 0.37).abs() < 1e-6, "{a}");
    }

    #[test]
    fn threshold_shedder_marks_until_target() {
        // broker1 serves 120 MB/s in three similar bundles: target 15 % = 18 MB/s;
        // the biggest (41 MB/s) alone is enough, so exactly one bundle.
        let fx = Fx::new()
            .broker("broker1", 40.0)
            .broker("broker2", 10.0)
            .broker("broker3", 10.0)
            .bundle("broker1", 1, 100.0, 40.0 * MIB)
            .bundle("broker1", 2, 100.0, 41.0 * MIB)
            .bundle("broker1", 3, 100.0, 39.0 * MIB);
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), 0, &mut rng());
        assert_eq!(out.unloads, vec![unload(2, "broker1", None)]);
        assert!(out.events.iter().any(|e| matches!(
            e,
            ShedEvent::BundleChosen { metric: Metric::Throughput, value, .. } if (*value / MIB - 41.0).abs() < 1e-9
        )));
    }

    #[test]
    fn threshold_shedder_min_throughput_filter() {
        // 15 % of 60 MB/s = 9 MB/s < 10 MB/s (loadBalancerBundleUnloadMinThroughputThreshold).
        let fx = Fx::new()
            .broker("broker1", 40.0)
            .broker("broker2", 10.0)
            .broker("broker3", 10.0)
            .bundle("broker1", 1, 100.0, 30.0 * MIB)
            .bundle("broker1", 2, 100.0, 30.0 * MIB);
        let c = conf();
        assert_eq!(c.load_balancer_bundle_unload_min_throughput_threshold, 10.0);
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &c, 0, &mut rng());
        assert!(out.unloads.is_empty());
        assert!(out.events.iter().any(
            |e| matches!(e, ShedEvent::BrokerSkipped { reason, .. } if reason.to_string().contains("9.00 MB/s < "))
        ));
        // Lower the floor to 5 MB/s and it sheds.
        let c5 = Config {
            load_balancer_bundle_unload_min_throughput_threshold: 5.0,
            ..c
        };
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &c5, 0, &mut rng());
        assert_eq!(out.unloads, vec![unload(1, "broker1", None)]);
    }

    #[test]
    fn threshold_shedder_lower_boundary() {
        // 32 %, 30 %, 5 %: average 22.3 %; nobody ≥ 32.3 %, but broker3 < 12.3 %.
        let fx = Fx::new()
            .broker("broker1", 32.0)
            .broker("broker2", 30.0)
            .broker("broker3", 5.0)
            .bundle("broker1", 0, 100.0, 200.0 * MIB)
            .bundle("broker1", 1, 100.0, 50.0 * MIB)
            .bundle("broker2", 2, 100.0, 50.0 * MIB)
            .bundle("broker2", 3, 100.0, 50.0 * MIB);
        let off = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), 0, &mut rng());
        assert!(off.unloads.is_empty());
        let c = Config {
            lower_boundary_shedding_enabled: true,
            ..conf()
        };
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &c, 0, &mut rng());
        // broker1 offloads ≥ 250 MB/s × 10 % × 0.5 = 12.5 MB/s: its biggest bundle.
        assert_eq!(out.unloads, vec![unload(0, "broker1", None)]);
        assert!(out.events.iter().any(|e| matches!(
            e,
            ShedEvent::LowerBoundary { broker, min_to_offload, .. }
                if broker == &br("broker1") && (*min_to_offload / MIB - 12.5).abs() < 1e-6
        )));
    }
}

/// Native mirror of Pulsar's `ThresholdShedderTest` (default
/// `ServiceConfiguration`: threshold 10 %, min throughput 10 MB, memory weight 0),
/// expected values from its assertions. `testPrintResourceUsage` (a log format)
/// has no counterpart.
#[cfg(test)]
mod threshold_shedder_test {
    use super::super::super::load::{
        BrokerData, BrokerId, BundleData, BundleStats, MessageStats, ResourceUsage, TimeAverageMessageData,
    };
    use super::super::fixture::bid;
    use super::*;

    const MB: f64 = 1024.0 * 1024.0;

    fn conf() -> Config {
        Config {
            load_balancer_load_shedding_strategy: S,
            ..Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
        }
    }

    fn ru(usage: f64, limit: f64) -> ResourceUsage {
        ResourceUsage { usage, limit }
    }

    /// Bundle `n`'s short-term data with this in and out throughput.
    fn data(tp_in: f64, tp_out: f64) -> BundleData {
        let m = MessageStats {
            msg_throughput_in: tp_in,
            msg_throughput_out: tp_out,
            ..Default::default()
        };
        BundleData {
            short_term: TimeAverageMessageData {
                max_samples: 10,
                num_samples: 1,
                msg: m,
            },
            ..Default::default()
        }
    }

    fn broker(
        load: &mut LoadData,
        name: &str,
        bw: f64,
        bundles: &[u32],
        tp_in: f64,
        tp_out: f64,
    ) -> BrokerId {
        let mut d = BrokerData::default();
        d.local.bandwidth_in = ru(bw, 1000.0);
        d.local.bandwidth_out = ru(bw, 1000.0);
        d.local.msg.msg_throughput_in = tp_in;
        d.local.msg.msg_throughput_out = tp_out;
        for i in bundles {
            d.local.bundles.insert(bid(*i), BundleStats::default());
        }
        let id = BrokerId(name.into());
        load.brokers.insert(id.clone(), d);
        id
    }

    fn run(load: &LoadData, c: &Config) -> ShedOutcome {
        ThresholdShedder::default().find(load, c, &BTreeMap::new(), 0)
    }

    #[test]
    fn test_no_brokers() {
        assert!(run(&LoadData::default(), &conf()).unloads.is_empty());
    }

    #[test]
    fn test_brokers_with_no_bundles() {
        let mut load = LoadData::default();
        broker(&mut load, "broker-1", 999.0, &[], 0.0, 0.0);
        assert!(run(&load, &conf()).unloads.is_empty());
    }

    #[test]
    fn test_broker_not_reach_threshold() {
        let mut load = LoadData::default();
        broker(&mut load, "broker-1", 500.0, &[1], 0.0, 0.0);
        load.bundles.insert(bid(1), data(1000.0, 1000.0));
        assert!(run(&load, &conf()).unloads.is_empty());
    }

    #[test]
    fn test_broker_reach_threshold() {
        // 140 % CPU counts as 1.4 in the average (no 100 % cap): average 0.95,
        // broker-2 at 1.4 ≥ 0.95 + 0.1 sheds its only bundle with data.
        let mut load = LoadData::default();
        let b2 = broker(&mut load, "broker-2", 500.0, &[1, 2], f64::MAX, 0.0);
        let b3 = broker(&mut load, "broker-3", 500.0, &[3, 4], 0.0, 0.0);
        for (b, cpu) in [(&b2, 140.0), (&b3, 10.0)] {
            let l = &mut load.brokers.get_mut(b).unwrap().local;
            l.cpu = ru(cpu, 100.0);
            l.memory = ru(10.0, 100.0);
            l.direct_memory = ru(10.0, 100.0);
        }
        load.bundles.insert(bid(2), data(1000.0, 1000.0));
        let out = run(&load, &conf());
        assert_eq!(
            out.unloads.iter().map(|u| u.bundle.clone()).collect::<Vec<_>>(),
            vec![bid(2)]
        );
        let avg = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::ThresholdAverages { cluster_average, .. } => Some(*cluster_average),
                _ => None,
            })
            .unwrap();
        assert!((avg - 0.95).abs() < 1e-6, "{avg}");
    }

    #[test]
    fn test_broker_with_single_bundle() {
        let mut load = LoadData::default();
        broker(&mut load, "broker-1", 999.0, &[1], 0.0, 0.0);
        load.bundles.insert(bid(1), data(1000.0, 1000.0));
        assert!(run(&load, &conf()).unloads.is_empty());
    }

    /// broker-1 at 99.9 % NIC with bundles 1..=10 of i MB/s in and out; broker2
    /// idle with bundles 11..=20 carrying the same data.
    fn multiple() -> LoadData {
        let mut load = LoadData::default();
        let total: f64 = (1..=10).map(|i| f64::from(i) * MB).sum();
        broker(
            &mut load,
            "broker-1",
            999.0,
            &(1..=10).collect::<Vec<_>>(),
            total,
            total,
        );
        let b2 = broker(
            &mut load,
            "broker2",
            0.0,
            &(11..=20).collect::<Vec<_>>(),
            0.0,
            0.0,
        );
        let l = &mut load.brokers.get_mut(&b2).unwrap().local;
        l.bandwidth_in = ResourceUsage::default();
        l.bandwidth_out = ResourceUsage::default();
        for i in 1..=10u32 {
            let t = f64::from(i) * MB;
            load.bundles.insert(bid(i), data(t, t));
            load.bundles.insert(bid(10 + i), data(t, t));
        }
        load
    }

    #[test]
    fn test_broker_with_multiple_bundles() {
        // Offload ≥ 110 MB/s × (0.999 − 0.4995 − 0.1 + 0.05): bundles 10, 9, 8.
        let out = run(&multiple(), &conf());
        let got: Vec<BundleId> = out.unloads.iter().map(|u| u.bundle.clone()).collect();
        assert_eq!(got, vec![bid(10), bid(9), bid(8)]);
    }

    #[test]
    fn test_filter_recently_unloaded() {
        let load = multiple();
        let recent: BTreeMap<BundleId, u64> = [(bid(10), 1), (bid(9), 1)].into_iter().collect();
        let out = ThresholdShedder::default().find(&load, &conf(), &recent, 0);
        let got: Vec<BundleId> = out.unloads.iter().map(|u| u.bundle.clone()).collect();
        assert_eq!(got, vec![bid(8), bid(7), bid(6), bid(5)]);
    }

    /// 11 brokers: bundles `10 × i + j`; `low` at 0 % and no traffic, the rest at
    /// 80 % NIC and 100 MB/s in and out per bundle; `many` alone has 10 bundles
    /// when given.
    fn eleven(low: usize, bw: f64, many: Option<usize>) -> LoadData {
        let mut load = LoadData::default();
        let tp = 100.0 * MB;
        for i in 0..11usize {
            let n = match many {
                Some(m) if m != i => 1,
                _ => 10,
            };
            let ids: Vec<u32> = (0..n).map(|j| (10 * i + j) as u32).collect();
            let t = if i == low { 0.0 } else { tp };
            let b = broker(&mut load, &format!("broker-{i}"), 0.0, &ids, t, t);
            let l = &mut load.brokers.get_mut(&b).unwrap().local;
            let u = if i == low { 0.0 } else { bw };
            l.bandwidth_in = ru(u, 100.0);
            l.bandwidth_out = ru(u, 100.0);
            for id in ids {
                load.bundles.insert(bid(id), data(t, t));
            }
        }
        load
    }

    #[test]
    fn test_lower_boundary_shedding() {
        // Average 80 × 10 / 11 = 72.7 %: nobody reaches 82.7 %, broker-10 is below 62.7 %.
        let load = eleven(10, 80.0, None);
        assert!(run(&load, &conf()).unloads.is_empty());
        let c = Config {
            lower_boundary_shedding_enabled: true,
            ..conf()
        };
        assert!(!run(&load, &c).unloads.is_empty());
    }

    #[test]
    fn test_lower_boundary_shedding_no_broker_to_offload() {
        let load = eleven(usize::MAX, 80.0, None);
        let c = Config {
            lower_boundary_shedding_enabled: true,
            ..conf()
        };
        assert!(run(&load, &c).unloads.is_empty());
    }

    #[test]
    fn test_lower_boundary_shedding_broker_with_one_bundle() {
        let load = eleven(5, 80.0, Some(3));
        let c = Config {
            lower_boundary_shedding_enabled: true,
            ..conf()
        };
        assert!(run(&load, &conf()).unloads.is_empty());
        let out = run(&load, &c);
        assert_eq!(out.unloads.len(), 1);
        assert_eq!(out.unloads[0].from, BrokerId("broker-3".into()));
    }
}
