//! OverloadShedder: a broker whose weighted max resource usage (PIP-358: CPU,
//! direct memory and NIC in/out, each times its `loadBalancer*ResourceWeight`) reaches
//! `loadBalancerBrokerOverloadedThresholdPercentage` (85 %) sheds its biggest
//! bundles (short-term throughput) until at least
//! `throughput × (usage − threshold + 5 %)` is marked, always at least one bundle.
//! Brokers with a single bundle never shed.
//!
//! Pulsar's class comment says "exactly one bundle"; its code keeps adding
//! bundles until the target is met. lbscope follows the code.

use super::super::config::{Config, SheddingStrategy};
use super::super::load::{BundleId, LoadData};
use super::inputs::{frac_input, line, pc, InputsContext, ShedInputs};
use super::shared::{sheddable_bundles, short_term_throughput, weights};
use super::{recently_unloaded_event, BrokerSkipReason, Metric, ShedEvent, ShedOutcome, Unload};
use std::collections::BTreeMap;

const S: SheddingStrategy = SheddingStrategy::OverloadShedder;
/// `ADDITIONAL_THRESHOLD_PERCENT_MARGIN`.
pub const MARGIN: f64 = 0.05;

/// One OverloadShedder pass.
pub fn find(load: &LoadData, conf: &Config, recent: &BTreeMap<BundleId, u64>, grace: u64) -> ShedOutcome {
    let mut out = ShedOutcome::default();
    let threshold = conf.load_balancer_broker_overloaded_threshold_percentage / 100.0;
    for (broker, data) in &load.brokers {
        let local = &data.local;
        let usage = local.max_resource_usage_with_weight(&weights(conf));
        if usage < threshold {
            continue;
        }
        let percent = usage - threshold + MARGIN;
        let throughput = local.msg.total_throughput();
        let min_to_offload = throughput * percent;
        out.events.push(ShedEvent::Overloaded {
            broker: broker.clone(),
            usage,
            threshold,
            percent_to_offload: percent,
            throughput,
            min_to_offload,
        });
        select_until(&mut out, S, load, broker, recent, grace, min_to_offload);
    }
    out
}

/// The selection loop OverloadShedder and ThresholdShedder share: biggest
/// short-term throughput first, add while the marked traffic is below the target
/// or nothing is selected yet; only for brokers with more than one bundle.
pub(crate) fn select_until(
    out: &mut ShedOutcome,
    strategy: SheddingStrategy,
    load: &LoadData,
    broker: &super::super::load::BrokerId,
    recent: &BTreeMap<BundleId, u64>,
    grace: u64,
    target: f64,
) {
    let local = &load.brokers[broker].local;
    match local.bundles.len() {
        0 => {
            out.events.push(ShedEvent::BrokerSkipped {
                strategy,
                broker: broker.clone(),
                reason: BrokerSkipReason::NoBundles,
            });
            return;
        }
        1 => {
            if let Some(bundle) = local.bundles.keys().next() {
                out.events.push(ShedEvent::BrokerSkipped {
                    strategy,
                    broker: broker.clone(),
                    reason: BrokerSkipReason::SoleBundleNeverShed { bundle: bundle.clone() },
                });
            }
            return;
        }
        _ => {}
    }
    let (eligible, skipped) = sheddable_bundles(load, local, recent, short_term_throughput);
    for (b, at) in &skipped {
        out.events
            .push(recently_unloaded_event(strategy, broker, b, *at, grace));
    }
    let mut marked = 0.0;
    let mut any = false;
    for (bundle, tp) in eligible {
        if marked < target || !any {
            marked += tp;
            any = true;
            out.events.push(ShedEvent::BundleChosen {
                strategy,
                from: broker.clone(),
                to: None,
                bundle: bundle.clone(),
                metric: Metric::Throughput,
                value: tp,
                marked,
                target,
            });
            out.unloads.push(Unload {
                bundle,
                from: broker.clone(),
                to: None,
            });
        }
    }
    if !any {
        out.events.push(ShedEvent::BrokerSkipped {
            strategy,
            broker: broker.clone(),
            reason: BrokerSkipReason::NoEligibleBundle,
        });
    }
}

/// `org.apache.pulsar.broker.loadbalance.impl.OverloadShedder` (no history).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverloadShedder;

impl OverloadShedder {
    /// What the registry says of it.
    pub fn about() -> crate::engine::strategy::About {
        crate::engine::strategy::About {
            upstream: "org.apache.pulsar.broker.loadbalance.impl.OverloadShedder",
            summary: "A broker whose weighted max resource usage reaches the overload threshold sheds its biggest bundles until usage − threshold + 5 % of its throughput is marked.",
            file: file!(),
        }
    }
}

impl super::LoadSheddingStrategy for OverloadShedder {
    fn interface(&self) -> super::Interface {
        super::Interface::Modular
    }

    fn find_bundles_for_unloading(&mut self, cx: &mut super::ShedContext<'_>) -> ShedOutcome {
        find(cx.load, cx.conf, cx.recent, cx.grace_ms)
    }

    /// Each broker's weighted max usage against the overload threshold.
    fn inputs(&self, cx: &InputsContext<'_>) -> ShedInputs {
        let threshold = cx.conf.load_balancer_broker_overloaded_threshold_percentage;
        let w = weights(cx.conf);
        let brokers: Vec<_> = cx
            .load
            .brokers
            .iter()
            .map(|(b, d)| frac_input(b, Some(d.local.max_resource_usage_with_weight(&w))))
            .collect();
        let over: Vec<String> = brokers
            .iter()
            .filter(|b| b.value.is_some_and(|v| v >= threshold))
            .map(|b| b.broker.0.to_string())
            .collect();
        ShedInputs {
            strategy: S,
            measure: "weighted max resource usage".into(),
            bar: None,
            brokers,
            lines: vec![line(
                format!("overload threshold {}", pc(threshold)),
                threshold,
                true,
            )],
            band: None,
            summary: format!(
                "a broker sheds when its weighted max usage reaches loadBalancerBrokerOverloadedThresholdPercentage {}: {}",
                pc(threshold),
                if over.is_empty() { "none does".to_string() } else { over.join(", ") }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::super::Shedder;
    use super::*;

    fn conf() -> Config {
        Config {
            load_balancer_load_shedding_strategy: S,
            ..Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
        }
    }

    /// The line is the threshold the pass compares with (derived by reading
    /// OverloadShedder.findBundlesForUnloading), the values the `Overloaded` event's usage.
    #[test]
    fn inputs_compare_weighted_usage_with_the_overload_threshold() {
        let fx = Fx::new()
            .broker("broker1", 90.0)
            .broker("broker2", 10.0)
            .bundle("broker1", 0, 100.0, 60.0 * MIB)
            .bundle("broker1", 1, 100.0, 30.0 * MIB);
        let c = conf();
        let mut shedder = Shedder::default();
        let out = shedder.find_bundles_for_unloading(&fx.load, &c, 0, &mut rng());
        let usage = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::Overloaded { usage, .. } => Some(*usage),
                _ => None,
            })
            .unwrap();
        let inputs = shedder.inputs(&fx.load, &c, 0);
        assert!((inputs.broker("broker1").unwrap().value.unwrap() - usage * 100.0).abs() < 1e-9);
        assert_eq!(inputs.lines.len(), 1);
        assert!((inputs.lines[0].at - 85.0).abs() < 1e-9 && inputs.lines[0].trigger);
        assert!(inputs.summary.ends_with("85.0 %: broker1"), "{}", inputs.summary);
    }

    #[test]
    fn overload_shedder_default_85_percent() {
        // broker-1 at 90 % CPU: offload ≥ (0.90 − 0.85 + 0.05) = 10 % of 100 MB/s.
        let fx = Fx::new()
            .broker("broker-1", 90.0)
            .broker("broker-2", 84.9)
            .bundle("broker-1", 0, 100.0, 60.0 * MIB)
            .bundle("broker-1", 1, 100.0, 30.0 * MIB)
            .bundle("broker-1", 2, 100.0, 10.0 * MIB)
            .bundle("broker-2", 3, 100.0, 50.0 * MIB)
            .bundle("broker-2", 4, 100.0, 50.0 * MIB);
        assert_eq!(conf().load_balancer_broker_overloaded_threshold_percentage, 85.0);
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), 0, &mut rng());
        // The biggest bundle alone (60 MB/s) covers the 10 MB/s target.
        assert_eq!(out.unloads, vec![unload(0, "broker-1", None)]);
        let ev = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::Overloaded {
                    percent_to_offload,
                    min_to_offload,
                    ..
                } => Some((*percent_to_offload, *min_to_offload)),
                _ => None,
            })
            .unwrap();
        assert!((ev.0 - 0.10).abs() < 1e-6, "{ev:?}");
        assert!((ev.1 / MIB - 10.0).abs() < 1e-3);
        // Exactly at the threshold counts as overloaded (Pulsar skips only `usage < threshold`).
        let fx2 = Fx::new()
            .broker("broker-1", 85.0)
            .broker("broker-2", 10.0)
            .bundle("broker-1", 0, 1.0, 1.0 * MIB)
            .bundle("broker-1", 1, 1.0, 2.0 * MIB);
        let out2 = Shedder::default().find_bundles_for_unloading(&fx2.load, &conf(), 0, &mut rng());
        assert_eq!(out2.unloads, vec![unload(1, "broker-1", None)]);
    }

    #[test]
    fn overload_shedder_sole_bundle_and_grace_period() {
        let fx = Fx::new()
            .broker("broker-1", 95.0)
            .broker("broker-2", 10.0)
            .bundle("broker-1", 0, 1.0, 1.0 * MIB);
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), 0, &mut rng());
        assert!(out.unloads.is_empty());
        assert!(out
            .events
            .iter()
            .any(|e| matches!(e, ShedEvent::BrokerSkipped { .. })));

        // Two bundles, the big one unloaded 10 minutes ago (grace 30 min): the small one goes.
        let mut fx = Fx::new()
            .broker("broker-1", 95.0)
            .broker("broker-2", 10.0)
            .bundle("broker-1", 0, 1.0, 9.0 * MIB)
            .bundle("broker-1", 1, 1.0, 1.0 * MIB);
        fx.load.recently_unloaded.insert(bid(0), 0);
        let now = 10 * 60_000;
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), now, &mut rng());
        assert_eq!(out.unloads, vec![unload(1, "broker-1", None)]);
        assert!(out
            .events
            .iter()
            .any(|e| matches!(e, ShedEvent::RecentlyUnloaded { eligible_at_ms, .. } if *eligible_at_ms == 30 * 60_000)));
        // After the grace period it is eligible again.
        let out = Shedder::default().find_bundles_for_unloading(&fx.load, &conf(), 31 * 60_000, &mut rng());
        assert_eq!(out.unloads, vec![unload(0, "broker-1", None)]);
    }
}

/// Native mirror of Pulsar's `OverloadShedderTest` (threshold 85 %), expected
/// values from its assertions; `testPrintResourceUsage` (a log format) has no
/// counterpart. Plus PIP-358's weighted usage.
#[cfg(test)]
mod overload_shedder_test {
    use super::super::super::load::{
        BrokerData, BrokerId, BundleData, BundleStats, MessageStats, ResourceUsage, TimeAverageMessageData,
    };
    use super::super::fixture::bid;
    use super::*;

    const MB: f64 = 1024.0 * 1024.0;

    fn conf() -> Config {
        Config {
            load_balancer_load_shedding_strategy: S,
            load_balancer_broker_overloaded_threshold_percentage: 85.0,
            ..Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
        }
    }

    fn data(t: f64) -> BundleData {
        BundleData {
            short_term: TimeAverageMessageData {
                max_samples: 10,
                num_samples: 1,
                msg: MessageStats {
                    msg_throughput_in: t,
                    msg_throughput_out: t,
                    ..Default::default()
                },
            },
            ..Default::default()
        }
    }

    fn broker(load: &mut LoadData, name: &str, bw: f64, bundles: &[u32]) {
        let mut d = BrokerData::default();
        d.local.bandwidth_in = ResourceUsage {
            usage: bw,
            limit: 1000.0,
        };
        d.local.bandwidth_out = ResourceUsage {
            usage: bw,
            limit: 1000.0,
        };
        for i in bundles {
            d.local.bundles.insert(bid(*i), BundleStats::default());
            let t = load
                .bundles
                .get(&bid(*i))
                .map_or(0.0, |x| x.short_term.msg.msg_throughput_in);
            d.local.msg.msg_throughput_in += t;
            d.local.msg.msg_throughput_out += t;
        }
        load.brokers.insert(BrokerId(name.into()), d);
    }

    fn chosen(out: &ShedOutcome) -> Vec<BundleId> {
        out.unloads.iter().map(|u| u.bundle.clone()).collect()
    }

    #[test]
    fn test_no_brokers() {
        assert!(find(&LoadData::default(), &conf(), &BTreeMap::new(), 0)
            .unloads
            .is_empty());
    }

    #[test]
    fn test_brokers_with_no_bundles() {
        let mut load = LoadData::default();
        broker(&mut load, "broker-1", 999.0, &[]);
        assert!(find(&load, &conf(), &BTreeMap::new(), 0).unloads.is_empty());
    }

    #[test]
    fn test_broker_not_overloaded() {
        let mut load = LoadData::default();
        load.bundles.insert(bid(1), data(1000.0));
        broker(&mut load, "broker-1", 500.0, &[1]);
        assert!(find(&load, &conf(), &BTreeMap::new(), 0).unloads.is_empty());
    }

    #[test]
    fn test_broker_with_single_bundle() {
        let mut load = LoadData::default();
        load.bundles.insert(bid(1), data(1000.0));
        broker(&mut load, "broker-1", 999.0, &[1]);
        assert!(find(&load, &conf(), &BTreeMap::new(), 0).unloads.is_empty());
    }

    fn ten(another: bool) -> LoadData {
        let mut load = LoadData::default();
        for i in 1..=10u32 {
            load.bundles.insert(bid(i), data(f64::from(i) * MB));
            if another {
                load.bundles.insert(bid(10 + i), data(f64::from(i) * MB));
            }
        }
        broker(&mut load, "broker-1", 999.0, &(1..=10).collect::<Vec<_>>());
        if another {
            broker(&mut load, "another-broker", 0.0, &(11..=20).collect::<Vec<_>>());
        }
        load
    }

    #[test]
    fn test_broker_with_multiple_bundles() {
        // Offload ≥ 110 MB/s × (0.999 − 0.85 + 0.05) = 21.9 MB/s: bundles 10 and 9.
        let out = find(&ten(true), &conf(), &BTreeMap::new(), 0);
        assert_eq!(chosen(&out), vec![bid(10), bid(9)]);
    }

    #[test]
    fn test_filter_recently_unloaded() {
        let recent: BTreeMap<BundleId, u64> = [(bid(10), 1), (bid(9), 1)].into_iter().collect();
        let out = find(&ten(false), &conf(), &recent, 0);
        assert_eq!(chosen(&out), vec![bid(8), bid(7)]);
    }

    #[test]
    fn weighted_usage_decides_overload() {
        // Derived by reading PIP-358 (resource weights for OverloadShedder): direct
        // memory at 95 % has weight 0 by default and does not overload; CPU at
        // 160 % with weight 0.5 counts 80 % < 85 %.
        let mut load = ten(false);
        {
            let l = &mut load.brokers.get_mut(&BrokerId("broker-1".into())).unwrap().local;
            l.bandwidth_in = ResourceUsage {
                usage: 10.0,
                limit: 1000.0,
            };
            l.bandwidth_out = ResourceUsage {
                usage: 10.0,
                limit: 1000.0,
            };
            l.direct_memory = ResourceUsage {
                usage: 95.0,
                limit: 100.0,
            };
            l.cpu = ResourceUsage {
                usage: 160.0,
                limit: 100.0,
            };
        }
        let half_cpu = Config {
            load_balancer_cpu_resource_weight: 0.5,
            ..conf()
        };
        assert!(find(&load, &half_cpu, &BTreeMap::new(), 0).unloads.is_empty());
        // With CPU weighted 1 it is 160 % and sheds.
        assert!(!find(&load, &conf(), &BTreeMap::new(), 0).unloads.is_empty());
    }
}
