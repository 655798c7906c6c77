//! TransferShedder (extensible load manager, PIP-220). Brokers are ranked by
//! `weightedMaxEMA` (see [`super::ema`]); with their mean `avg` and standard
//! deviation `std`:
//!
//! * a broker is significantly **underloaded** if its load is below
//!   `avg × m` or its `msgThroughputEMA` is below the busiest broker's × `m`,
//!   with `m = min(0.5, max(0, loadBalancerBrokerLoadTargetStd / 2))`;
//! * a broker is significantly **overloaded** if its load is above both
//!   `loadBalancerBrokerOverloadedThresholdPercentage` and `avg + targetStd`.
//!
//! The shedding condition (std > target, or the least-loaded broker underloaded,
//! or the most-loaded overloaded) must hold in more than
//! `loadBalancerSheddingConditionHitCountThreshold` consecutive passes (so 4 with
//! the default 3). Then pairs are formed from both ends of the ranking, up to
//! `loadBalancerMaxNumberOfBrokerSheddingPerCycle`, while the condition still
//! holds: the max broker offloads `(max − min) / 2` of its load, i.e.
//! `throughput × offload / max` bytes/s, taken from its top bundles (biggest first,
//! never its last one, skipping zero-traffic and recently unloaded bundles; a
//! bundle that would overshoot stops the pair unless swapping bundles back from
//! the min broker balances better). Each move pre-assigns the min broker as
//! destination when `loadBalancerTransferEnabled`. After a pair, std is
//! re-estimated and the loop stops once std ≤ target with no under/overloaded
//! broker left.
//!
//! Namespace policies ([`SheddingPolicies`]): a broker's top-bundles report leaves
//! out the bundles of shedding-excluded namespaces and, unless
//! `loadBalancerSheddingBundlesWithPoliciesEnabled`, of namespaces with an
//! isolation policy or an anti-affinity group (`TopKBundles.update`); every bundle
//! about to move (either way of a swap) must pass `isTransferable` to its
//! destination, else it is skipped.
//!
//! Simplifications: all brokers' data is fresh (no TTL / cool-down checks), top bundles are ordered by exact
//! in, then out throughput, then message rate, then topics + connections (Pulsar
//! compares with a resolution), ties by name; brokers with equal load keep name
//! order. Pulsar only adds the swapped-back traffic to `trafficMarkedToGain` when
//! debug mode is on; lbscope reproduces the default (debug off) behaviour.

use super::super::config::{Config, SheddingStrategy};
use super::super::load::{BrokerId, BundleId, BundleStats, LoadData, LocalBrokerData};
use super::ema::BrokerLoadEma;
use super::shared::is_system_service_namespace;
use super::{
    recently_unloaded_event, Metric, ShedEvent, ShedOutcome, SheddingPolicies, TransferReason, Unload,
};
use std::collections::BTreeMap;

const S: SheddingStrategy = SheddingStrategy::TransferShedder;
/// `loadBalancerMaxNumberOfBundlesInBundleLoadReport` default: bundles per top-bundles report.
pub const TOP_K_BUNDLES: usize = 10;

/// TransferShedder's memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TransferState {
    /// `unloadConditionHitCount`.
    pub unload_condition_hit_count: u32,
}

/// A broker's top bundles report (`TopKBundles`): its non-system bundles,
/// heaviest first, at most [`TOP_K_BUNDLES`].
pub fn top_bundles(local: &LocalBrokerData) -> Vec<(BundleId, BundleStats)> {
    top_bundles_where(local, |_| true)
}

/// [`top_bundles`] of the bundles `keep` admits (filtered before the top-K cut,
/// as `TopKBundles.update` does).
pub fn top_bundles_where(
    local: &LocalBrokerData,
    keep: impl Fn(&BundleId) -> bool,
) -> Vec<(BundleId, BundleStats)> {
    let mut v: Vec<(BundleId, BundleStats)> = local
        .bundles
        .iter()
        .filter(|(b, _)| !is_system_service_namespace(&b.namespace) && keep(b))
        .map(|(b, s)| (b.clone(), *s))
        .collect();
    v.sort_by(|a, b| {
        let (x, y) = (&a.1, &b.1);
        y.msg
            .msg_throughput_in
            .total_cmp(&x.msg.msg_throughput_in)
            .then(y.msg.msg_throughput_out.total_cmp(&x.msg.msg_throughput_out))
            .then(y.msg.total_rate().total_cmp(&x.msg.total_rate()))
            .then((y.topics + y.sessions()).cmp(&(x.topics + x.sessions())))
    });
    v.truncate(TOP_K_BUNDLES);
    v
}

struct Row<'a> {
    id: &'a BrokerId,
    load: f64,
    throughput: f64,
    throughput_ema: f64,
}

struct Stats {
    sq_sum: f64,
    n: f64,
    avg: f64,
    std: f64,
}

impl Stats {
    fn offload(&mut self, max: f64, min: f64, off: f64) {
        self.sq_sum -= max * max + min * min;
        let maxd = (max - off).max(0.0);
        let mind = min + off;
        self.sq_sum += maxd * maxd + mind * mind;
        self.std = (self.sq_sum / self.n - self.avg * self.avg).abs().sqrt();
    }
}

impl TransferState {
    /// One TransferShedder pass.
    pub fn find(
        &mut self,
        load: &LoadData,
        conf: &Config,
        ema: &BrokerLoadEma,
        recent: &BTreeMap<BundleId, u64>,
        grace: u64,
        policies: &dyn SheddingPolicies,
    ) -> ShedOutcome {
        let mut out = ShedOutcome::default();
        let mut rows: Vec<Row> = load
            .brokers
            .iter()
            .map(|(b, d)| Row {
                id: b,
                load: ema.weighted_max_of(b, &d.local, conf),
                throughput: d.local.msg.total_throughput(),
                throughput_ema: ema.msg_throughput_of(b, &d.local),
            })
            .collect();
        if rows.is_empty() {
            return ShedOutcome::idle(S, "no brokers");
        }
        rows.sort_by(|a, b| a.load.total_cmp(&b.load));
        let n = rows.len() as f64;
        let sum: f64 = rows.iter().map(|r| r.load).sum();
        let sq_sum: f64 = rows.iter().map(|r| r.load * r.load).sum();
        let avg = sum / n;
        let mut st = Stats {
            sq_sum,
            n,
            avg,
            std: (sq_sum / n - avg * avg).sqrt(),
        };
        let target = conf.load_balancer_broker_load_target_std;
        let overload_thr = conf.load_balancer_broker_overloaded_threshold_percentage / 100.0;
        let mult = (target / 2.0).clamp(0.0, 0.5);
        let is_under = |min: usize, max: usize| {
            rows[min].load < avg * mult || rows[min].throughput_ema < rows[max].throughput_ema * mult
        };
        let is_over = |max: usize| rows[max].load > overload_thr && rows[max].load > avg + target;

        let (mut min_i, mut max_i) = (0usize, rows.len() - 1);
        let under0 = is_under(min_i, max_i);
        let over0 = is_over(max_i);
        if st.std > target || under0 || over0 {
            self.unload_condition_hit_count += 1;
        } else {
            self.unload_condition_hit_count = 0;
        }
        let hit_thr = conf.load_balancer_shedding_condition_hit_count_threshold;
        out.events.push(ShedEvent::TransferStats {
            average: avg,
            std: st.std,
            target_std: target,
            min_broker: rows[min_i].id.clone(),
            min_underloaded: under0,
            max_broker: rows[max_i].id.clone(),
            max_overloaded: over0,
            hit_count: self.unload_condition_hit_count,
            hit_threshold: hit_thr,
        });
        if self.unload_condition_hit_count <= hit_thr {
            out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: format!(
                    "shedding condition hit {} time(s) ≤ loadBalancerSheddingConditionHitCountThreshold {hit_thr}",
                    self.unload_condition_hit_count
                ),
            });
            return out;
        }

        let transfer = conf.load_balancer_transfer_enabled;
        let max_pairs = conf.load_balancer_max_number_of_broker_shedding_per_cycle;
        let mut pairs_done = 0u32;
        loop {
            if !(pairs_done < max_pairs && min_i < max_i) {
                out.events.push(ShedEvent::Idle {
                    strategy: S,
                    reason: format!("stop: no more broker pairs ({pairs_done} of at most {max_pairs} shed)"),
                });
                break;
            }
            let reason = if st.std > target {
                TransferReason::Overloaded
            } else if is_under(min_i, max_i) {
                TransferReason::Underloaded
            } else if is_over(max_i) {
                TransferReason::Overloaded
            } else {
                out.events.push(ShedEvent::Idle {
                    strategy: S,
                    reason: format!(
                        "stop: std {:.3} ≤ target {target:.3}, {} not underloaded, {} not overloaded",
                        st.std, rows[min_i].id, rows[max_i].id
                    ),
                });
                break;
            };
            let (mx, mn) = (max_i, min_i);
            max_i -= 1;
            let max_b = rows[mx].id;
            let min_b = rows[mn].id;
            let (max_load, min_load) = (rows[mx].load, rows[mn].load);
            let offload = (max_load - min_load) / 2.0;
            let max_tp = rows[mx].throughput;
            let min_tp = rows[mn].throughput;
            let offload_tp = if max_load > 0.0 {
                max_tp * offload / max_load
            } else {
                0.0
            };
            out.events.push(ShedEvent::TransferPair {
                from: max_b.clone(),
                to: min_b.clone(),
                reason,
                max_load,
                min_load,
                offload,
                max_throughput: max_tp,
                offload_throughput: offload_tp,
            });
            let max_top = top_bundles_where(&load.brokers[max_b].local, |b| policies.in_top_bundles(b));
            if max_top.is_empty() {
                out.events.push(ShedEvent::BrokerSkipped {
                    strategy: S,
                    broker: max_b.clone(),
                    reason: "its top-bundles report is empty".into(),
                });
                continue;
            }
            if max_top.len() == 1 {
                out.events.push(ShedEvent::BrokerSkipped {
                    strategy: S,
                    broker: max_b.clone(),
                    reason: format!("its sole bundle {} is overloading it", max_top[0].0),
                });
                continue;
            }
            let min_top = top_bundles_where(&load.brokers[min_b].local, |b| policies.in_top_bundles(b));
            let mut min_iter = min_top.iter();
            let mut marked = 0.0;
            let gain = 0.0; // see the module doc: Pulsar only accumulates it in debug mode
            let mut remaining = max_top.len();
            for (bundle, stats) in &max_top {
                if let Some(at) = recent.get(bundle) {
                    out.events
                        .push(recently_unloaded_event(S, max_b, bundle, *at, grace));
                    continue;
                }
                if let Err(reason) = policies.is_transferable(bundle, max_b, min_b) {
                    out.events.push(ShedEvent::PolicyRefused {
                        strategy: S,
                        broker: max_b.clone(),
                        bundle: bundle.clone(),
                        to: min_b.clone(),
                        reason,
                    });
                    continue;
                }
                if remaining <= 1 {
                    break;
                }
                let tp = stats.msg.total_throughput();
                if tp == 0.0 {
                    continue;
                }
                let mut swap = false;
                let mut back: Vec<(BundleId, f64)> = Vec::new();
                if marked - gain + tp > offload_tp {
                    if transfer {
                        let mut max_new = max_tp - marked + gain - tp;
                        let mut min_new = min_tp + marked - gain + tp;
                        for (mb, ms) in min_iter.by_ref() {
                            if let Err(reason) = policies.is_transferable(mb, min_b, max_b) {
                                out.events.push(ShedEvent::PolicyRefused {
                                    strategy: S,
                                    broker: min_b.clone(),
                                    bundle: mb.clone(),
                                    to: max_b.clone(),
                                    reason,
                                });
                                continue;
                            }
                            let mbt = ms.msg.total_throughput();
                            if mbt == 0.0 {
                                continue;
                            }
                            let (max_tmp, min_tmp) = (max_new + mbt, min_new - mbt);
                            if max_tmp < max_tp && min_tmp < max_tp {
                                back.push((mb.clone(), mbt));
                                max_new = max_tmp;
                                min_new = min_tmp;
                                if min_new <= max_new && max_new < max_tp * 0.75 {
                                    swap = true;
                                    break;
                                }
                            }
                        }
                    }
                    if !swap {
                        break;
                    }
                }
                if swap {
                    for (mb, mbt) in back {
                        out.events.push(ShedEvent::BundleChosen {
                            strategy: S,
                            from: min_b.clone(),
                            to: Some(max_b.clone()),
                            bundle: mb.clone(),
                            metric: Metric::Throughput,
                            value: mbt,
                            marked: mbt,
                            target: offload_tp,
                        });
                        out.unloads.push(Unload {
                            bundle: mb,
                            from: min_b.clone(),
                            to: Some(max_b.clone()),
                        });
                    }
                }
                marked += tp;
                remaining -= 1;
                let to = transfer.then(|| min_b.clone());
                out.events.push(ShedEvent::BundleChosen {
                    strategy: S,
                    from: max_b.clone(),
                    to: to.clone(),
                    bundle: bundle.clone(),
                    metric: Metric::Throughput,
                    value: tp,
                    marked,
                    target: offload_tp,
                });
                out.unloads.push(Unload {
                    bundle: bundle.clone(),
                    from: max_b.clone(),
                    to,
                });
            }
            if marked > 0.0 {
                let adjusted = (marked - gain) * max_load / max_tp;
                st.offload(max_load, min_load, adjusted);
                pairs_done += 1;
                min_i += 1;
                out.events.push(ShedEvent::TransferStdUpdated {
                    std: st.std,
                    target_std: target,
                });
            } else {
                out.events.push(ShedEvent::BrokerSkipped {
                    strategy: S,
                    broker: max_b.clone(),
                    reason:
                        "no top bundle can be unloaded without overshooting; consider splitting its bundles"
                            .into(),
                });
            }
        }
        if !out.unloads.is_empty() {
            self.unload_condition_hit_count = 0;
        }
        out
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
            load_manager_class_name: super::super::super::config::LoadManager::Extensible,
            ..Config::default()
        }
    }

    #[test]
    fn transfer_shedder_hit_count_then_preassigned_transfer_until_std_target() {
        // Loads 90 %, 10 %, 50 %, 50 %: avg 50 %, std 28.3 % > 25 %.
        let fx = Fx::new()
            .broker("broker-1", 90.0)
            .broker("broker-2", 10.0)
            .broker("broker-3", 50.0)
            .broker("broker-4", 50.0)
            .bundle("broker-1", 0, 100.0, 38.0 * MIB)
            .bundle("broker-1", 1, 100.0, 32.0 * MIB)
            .bundle("broker-1", 2, 100.0, 20.0 * MIB)
            .bundle("broker-2", 3, 100.0, 10.0 * MIB)
            .bundle("broker-2", 4, 100.0, 10.0 * MIB)
            .bundle("broker-3", 5, 100.0, 25.0 * MIB)
            .bundle("broker-3", 6, 100.0, 25.0 * MIB)
            .bundle("broker-4", 7, 100.0, 25.0 * MIB)
            .bundle("broker-4", 8, 100.0, 25.0 * MIB);
        let c = conf();
        assert_eq!(c.load_balancer_broker_load_target_std, 0.25);
        assert_eq!(c.load_balancer_shedding_condition_hit_count_threshold, 3);
        let mut shedder = Shedder::default();
        shedder.observe_reports(&fx.load, &c);
        // Hit counts 1, 2, 3 do not exceed the threshold 3.
        for round in 1..=3u64 {
            let out = shedder.find_bundles_for_unloading(&fx.load, &c, round * 60_000, &mut rng());
            assert!(out.unloads.is_empty(), "round {round}");
            assert!(out
                .events
                .iter()
                .any(|e| matches!(e, ShedEvent::TransferStats { hit_count, std, .. }
                if *hit_count == round as u32 && *std > 0.25)));
        }
        let out = shedder.find_bundles_for_unloading(&fx.load, &c, 4 * 60_000, &mut rng());
        // offload (0.9 − 0.1) / 2 = 0.4 → 90 MB/s × 0.4 / 0.9 = 40 MB/s: the 38 MB/s
        // bundle fits; adding the 32 would overshoot and no swap from broker-2 helps.
        assert_eq!(out.unloads, vec![unload(0, "broker-1", Some("broker-2"))]);
        // After the move std is re-estimated (90 % → 52 %, 10 % → 48 %): 0.014 ≤ 0.25,
        // and broker-3 / broker-4 are neither under- nor overloaded: stop.
        let std_after = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::TransferStdUpdated { std, .. } => Some(*std),
                _ => None,
            })
            .unwrap();
        assert!(std_after <= 0.25, "{std_after}");
        assert!(out
            .events
            .iter()
            .any(|e| matches!(e, ShedEvent::Idle { reason, .. } if reason.starts_with("stop: std"))));
        assert_eq!(shedder.transfer.unload_condition_hit_count, 0);
    }

    #[test]
    fn transfer_shedder_balanced_cluster_resets_hits_and_plain_unload_without_transfer() {
        let balanced = Fx::new()
            .broker("broker-1", 50.0)
            .broker("broker-2", 45.0)
            .bundle("broker-1", 0, 100.0, 5.0 * MIB)
            .bundle("broker-1", 1, 100.0, 5.0 * MIB)
            .bundle("broker-1", 2, 100.0, 5.0 * MIB)
            .bundle("broker-1", 3, 100.0, 5.0 * MIB)
            .bundle("broker-2", 4, 100.0, 10.0 * MIB)
            .bundle("broker-2", 5, 100.0, 10.0 * MIB);
        let c = Config {
            load_balancer_shedding_condition_hit_count_threshold: 0,
            load_balancer_transfer_enabled: false,
            ..conf()
        };
        let mut shedder = Shedder::default();
        let out = shedder.find_bundles_for_unloading(&balanced.load, &c, 0, &mut rng());
        assert!(out.unloads.is_empty());
        assert_eq!(shedder.transfer.unload_condition_hit_count, 0);
        // A new broker without traffic is underloaded although std 0.18 ≤ 0.25:
        // broker-1 offloads (0.5 − 0.1) / 2 → 20 MB/s × 0.2 / 0.5 = 8 MB/s: one 5 MB/s bundle.
        let with_new = balanced.clone().broker("broker-3", 10.0);
        let out = shedder.find_bundles_for_unloading(&with_new.load, &c, 0, &mut rng());
        assert!(out.events.iter().any(|e| matches!(
            e,
            ShedEvent::TransferPair {
                reason: TransferReason::Underloaded,
                ..
            }
        )));
        // Transfer disabled: plain unloads, no pre-assigned destination.
        assert_eq!(out.unloads, vec![unload(0, "broker-1", None)]);
    }
}
