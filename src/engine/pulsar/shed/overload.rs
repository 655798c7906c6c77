//! OverloadShedder: a broker whose (unweighted) max resource usage reaches
//! `loadBalancerBrokerOverloadedThresholdPercentage` (85 %) sheds its biggest
//! bundles (short-term throughput) until at least
//! `throughput × (usage − threshold + 5 %)` is marked, always at least one bundle.
//! Brokers with a single bundle never shed.
//!
//! Pulsar's class comment says "exactly one bundle"; its code keeps adding
//! bundles until the target is met. lbscope follows the code.

use super::super::config::{Config, SheddingStrategy};
use super::super::load::{BundleId, LoadData};
use super::shared::{sheddable_bundles, short_term_throughput};
use super::{recently_unloaded_event, Metric, ShedEvent, ShedOutcome, Unload};
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
        let usage = local.max_resource_usage();
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
                reason: "overloaded despite having no bundles".into(),
            });
            return;
        }
        1 => {
            out.events.push(ShedEvent::BrokerSkipped {
                strategy,
                broker: broker.clone(),
                reason: format!(
                    "its sole bundle {} is overloading it; a single bundle is never shed",
                    local
                        .bundles
                        .keys()
                        .next()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                ),
            });
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
            reason: "no bundle eligible (all recently unloaded or without data)".into(),
        });
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
