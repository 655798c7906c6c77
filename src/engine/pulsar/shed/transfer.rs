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
//! Before the statistics, as `LoadStats.update` does: a broker whose load data
//! is older than `loadBalancerBrokerLoadDataTTLInSeconds` is left out of the sums
//! (`OutDatedData` when that leaves none); a broker that unloaded a bundle and
//! has not reported at least `loadBalanceSheddingDelayInSeconds` after it stops
//! the whole round (`CoolDown`; the `UnloadScheduler` records the source broker of
//! every unload, and a broker past its delay is forgotten); no broker at all is
//! `NoBrokers`.
//!
//! The shedding condition (std > target, or the least-loaded broker underloaded,
//! or the most-loaded overloaded) must hold in more than
//! `loadBalancerSheddingConditionHitCountThreshold` consecutive passes (so 4 with
//! the default 3; else `HitCount`). Then pairs are formed from both ends of the
//! ranking, up to `loadBalancerMaxNumberOfBrokerSheddingPerCycle`, while the
//! condition still holds: the max broker offloads `(max − min) / 2` of its load,
//! i.e. `throughput × offload / max` bytes/s, taken from its top-bundles report
//! ([`top_bundles`]; refreshed at every stats sample with no change threshold,
//! unlike the broker report: `BrokerData::top_bundles_source`)
//! **in the report's order, lightest of the top `k` first**
//! (`TopKBundles` stores the k heaviest ascending). A bundle recently unloaded or
//! without throughput is passed over; the last remaining report entry is never
//! taken; a bundle that would overshoot the target ends the pair unless bundles
//! of the min broker (its report, in order, one iterator for the whole pair) can
//! be swapped back so that the max broker ends at most 75 % of its throughput and
//! above the min broker (transfer mode only). In debug mode
//! (`loadBalancerDebugModeEnabled`) the swapped-back traffic is also counted as
//! gained (`trafficMarkedToGain`), which lowers the next bundles' overshoot test
//! and the std re-estimate; off by default, as in Pulsar. Each move pre-assigns
//! the min broker as destination when `loadBalancerTransferEnabled`. After a
//! pair, std is re-estimated and the loop stops once std ≤ target with no
//! under/overloaded broker left. A round that chose nothing is `NoLoadData` (a
//! max broker had an empty report), `NoBundles` (one bundle, or nothing movable),
//! or `HitCount`; one that chose something is `Success` and resets the hit count.
//!
//! Namespace policies ([`SheddingPolicies`]): a broker's top-bundles report leaves
//! out the bundles of shedding-excluded namespaces and, unless
//! `loadBalancerSheddingBundlesWithPoliciesEnabled`, of namespaces with an
//! isolation policy or an anti-affinity group (`TopKBundles.update`, before the
//! top-k cut); every bundle about to move (either way of a swap) must pass
//! `isTransferable` to its destination, else it is skipped.
//!
//! Simplifications: every live broker has load data (it reports when it joins,
//! so `NoLoadData` for a missing broker does not arise) and the report's owner
//! is trusted. Where Java iterates hash maps, brokers go by name (equal loads
//! keep name order) and equal-ranking bundles by name. Pulsar's first std can be
//! the square root of a negative rounding residue (NaN) when all loads are
//! equal; lbscope takes 0, which decides the same (`NaN > target` and
//! `0 > target` are both false for a target ≥ 0).

use super::super::config::SheddingStrategy;
use super::super::load::{BrokerId, BundleId, BundleStats, LoadData, LocalBrokerData};
use super::inputs::{frac_input, line, pc, InputsContext, ShedBand, ShedInputs};
use super::shared::is_system_service_namespace;
use super::{
    recently_unloaded_event, BrokerSkipReason, IdleReason, Metric, ShedContext, ShedEvent, ShedOutcome, SheddingPolicies, TransferReason, Unload,
    UnloadLabel, UnloadReason,
};
use crate::sort::StableSort;
use std::cmp::Ordering;
use std::collections::BTreeMap;

const S: SheddingStrategy = SheddingStrategy::TransferShedder;

/// TransferShedder's memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TransferShedder {
    /// `unloadConditionHitCount`.
    pub unload_condition_hit_count: u32,
    /// The `UnloadScheduler`'s `recentlyUnloadedBrokers`: source broker of each
    /// unload, with its time (ms).
    pub recently_unloaded_brokers: BTreeMap<BrokerId, u64>,
}

/// `NamespaceBundleStats.compareTo`: in-bound throughput, then out-bound (both
/// rounded to 100 KB/s), then in + out message rate (rounded to 100 msg/s), then
/// topics + producers + consumers (in steps of 500). Cache size is not modelled.
pub fn compare_bundle_stats(a: &BundleStats, b: &BundleStats) -> Ordering {
    fn res(v: f64, r: f64) -> i64 {
        // Java's Math.round: floor(x + 0.5).
        (v / r + 0.5).floor() as i64
    }
    res(a.msg.msg_throughput_in, 1e5)
        .cmp(&res(b.msg.msg_throughput_in, 1e5))
        .then(res(a.msg.msg_throughput_out, 1e5).cmp(&res(b.msg.msg_throughput_out, 1e5)))
        .then(res(a.msg.total_rate(), 100.0).cmp(&res(b.msg.total_rate(), 100.0)))
        .then(
            ((u64::from(a.topics) + u64::from(a.sessions())) / 500)
                .cmp(&((u64::from(b.topics) + u64::from(b.sessions())) / 500)),
        )
}

/// A broker's top-bundles report (`TopKBundles.update`): its bundles with
/// traffic, outside the system namespaces, the `k` heaviest
/// (`loadBalancerMaxNumberOfBundlesInBundleLoadReport`) **in ascending order**,
/// lightest first, as Pulsar stores them. Bundles that compare equal keep name
/// order.
pub fn top_bundles(local: &LocalBrokerData, k: i32) -> Vec<(BundleId, BundleStats)> {
    top_bundles_where(local, k, |_| true)
}

/// [`top_bundles`] of the bundles `keep` admits (filtered before the top-k cut,
/// as `TopKBundles.update` does).
pub fn top_bundles_where(
    local: &LocalBrokerData,
    k: i32,
    keep: impl Fn(&BundleId) -> bool,
) -> Vec<(BundleId, BundleStats)> {
    top_bundles_of(&local.bundles, k, keep)
}

/// [`top_bundles_where`] over a map of bundle stats.
pub fn top_bundles_of(
    bundles: &std::collections::BTreeMap<BundleId, BundleStats>,
    k: i32,
    keep: impl Fn(&BundleId) -> bool,
) -> Vec<(BundleId, BundleStats)> {
    let mut v: Vec<(BundleId, BundleStats)> = bundles
        .iter()
        .filter(|(b, s)| {
            s.msg.total_throughput() != 0.0 && !is_system_service_namespace(&b.namespace) && keep(b)
        })
        .map(|(b, s)| (b.clone(), *s))
        .collect();
    v.stable_sort_by(|a, b| compare_bundle_stats(&a.1, &b.1));
    let k = usize::try_from(k.max(0)).unwrap_or(0).min(v.len());
    v.split_off(v.len() - k)
}

struct Row<'a> {
    id: &'a BrokerId,
    load: f64,
    throughput: f64,
    throughput_ema: f64,
}

/// `LoadStats`.
struct Stats {
    sq_sum: f64,
    n: f64,
    avg: f64,
    std: f64,
}

impl Stats {
    /// `LoadStats.update`: Pulsar's `Math.sqrt(sqSum / n - avg²)` is NaN for a
    /// negative rounding residue; 0 decides the same (see the module doc).
    fn new(sum: f64, sq_sum: f64, n: usize) -> Stats {
        if n == 0 {
            return Stats {
                sq_sum: 0.0,
                n: 0.0,
                avg: 0.0,
                std: 0.0,
            };
        }
        let n = n as f64;
        let avg = sum / n;
        Stats {
            sq_sum,
            n,
            avg,
            std: (sq_sum / n - avg * avg).max(0.0).sqrt(),
        }
    }

    /// `LoadStats.offload`.
    fn offload(&mut self, max: f64, min: f64, off: f64) {
        self.sq_sum -= max * max + min * min;
        let maxd = (max - off).max(0.0);
        let mind = min + off;
        self.sq_sum += maxd * maxd + mind * mind;
        self.std = (self.sq_sum / self.n - self.avg * self.avg).abs().sqrt();
    }
}

fn decision(
    out: &mut ShedOutcome,
    label: UnloadLabel,
    reason: UnloadReason,
    st: &Stats,
    target: f64,
    counts: (u32, u32),
) {
    out.events.push(ShedEvent::TransferDecision {
        label,
        reason,
        average: st.avg,
        std: st.std,
        target_std: target,
        unloads: out.unloads.len(),
        brokers_without_load_data: counts.0,
        brokers_with_few_bundles: counts.1,
    });
}

impl TransferShedder {
    /// One TransferShedder pass at `cx.now_ms` (`findBundlesForUnloading`):
    /// the load statistics, the hit count, then one pair of brokers at a time
    /// from both ends of the ranking.
    pub fn find(&mut self, cx: &ShedContext<'_>) -> ShedOutcome {
        let conf = cx.conf;
        let target = conf.load_balancer_broker_load_target_std;
        let mut out = ShedOutcome::default();
        let (rows, st) = match self.update_load_stats(cx, &mut out) {
            Ok(ranked) => ranked,
            Err(reason) => {
                if reason == UnloadReason::NoBrokers {
                    out.events.push(ShedEvent::Idle {
                        strategy: S,
                        reason: IdleReason::NoBrokers,
                    });
                }
                let empty = Stats::new(0.0, 0.0, 0);
                decision(&mut out, UnloadLabel::Skip, reason, &empty, target, (0, 0));
                return out;
            }
        };
        let mut pass = Pass {
            load: cx.load,
            policies: cx.policies,
            recent: cx.recent,
            grace_ms: cx.grace_ms,
            target,
            overload_threshold: conf.load_balancer_broker_overloaded_threshold_percentage / 100.0,
            transfer: conf.load_balancer_transfer_enabled,
            debug: conf.load_balancer_debug_mode_enabled,
            k: conf.load_balancer_max_number_of_bundles_in_bundle_load_report,
            max_pairs: conf.load_balancer_max_number_of_broker_shedding_per_cycle,
            min_i: 0,
            max_i: rows.len() - 1,
            rows,
            st,
            pairs_done: 0,
            no_data: 0,
            few: 0,
            out,
        };

        let under0 = pass.is_under_loaded();
        let over0 = pass.is_over_loaded();
        if pass.st.std > target || under0 || over0 {
            self.unload_condition_hit_count += 1;
        } else {
            self.unload_condition_hit_count = 0;
        }
        let hit_thr = conf.load_balancer_shedding_condition_hit_count_threshold;
        pass.out.events.push(ShedEvent::TransferStats {
            average: pass.st.avg,
            std: pass.st.std,
            target_std: target,
            min_broker: pass.rows[pass.min_i].id.clone(),
            min_underloaded: under0,
            max_broker: pass.rows[pass.max_i].id.clone(),
            max_overloaded: over0,
            hit_count: self.unload_condition_hit_count,
            hit_threshold: hit_thr,
        });
        if self.unload_condition_hit_count <= hit_thr {
            pass.out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::HitCount {
                    hits: self.unload_condition_hit_count,
                    threshold: hit_thr,
                },
            });
            decision(
                &mut pass.out,
                UnloadLabel::Skip,
                UnloadReason::HitCount,
                &pass.st,
                target,
                (0, 0),
            );
            return pass.out;
        }

        let mut first_reason: Option<UnloadReason> = None;
        while let Some(reason) = pass.next_reason() {
            if pass.shed_pair(reason) {
                first_reason.get_or_insert(reason);
            }
        }
        let counts = (pass.no_data, pass.few);
        let mut out = pass.out;
        if out.unloads.is_empty() {
            let reason = if counts.0 > 0 {
                UnloadReason::NoLoadData
            } else if counts.1 > 0 {
                UnloadReason::NoBundles
            } else {
                UnloadReason::HitCount
            };
            decision(&mut out, UnloadLabel::Skip, reason, &pass.st, target, counts);
        } else {
            self.unload_condition_hit_count = 0;
            // Pulsar labels each decision with its pair's reason (see the
            // TransferPair events); the round's is the first unloading pair's.
            let reason = first_reason.unwrap_or(UnloadReason::Overloaded);
            decision(&mut out, UnloadLabel::Success, reason, &pass.st, target, counts);
        }
        out
    }

    /// `LoadStats.update` and `setLoadDataStore`: every broker's load, leaving
    /// out stale load data (TTL); a broker still cooling down after an unload
    /// stops the round. `Err` is the round's skip reason; `Ok` the brokers
    /// ranked by load (equal loads in name order, as Java's stable sort keeps
    /// them) and the statistics of the fresh ones.
    fn update_load_stats<'a>(
        &mut self,
        cx: &ShedContext<'a>,
        out: &mut ShedOutcome,
    ) -> Result<(Vec<Row<'a>>, Stats), UnloadReason> {
        let ShedContext {
            load, conf, ema, now_ms, ..
        } = *cx;
        let ttl_ms = conf
            .load_balancer_broker_load_data_ttl_in_seconds
            .saturating_mul(1000);
        let delay_ms = conf.load_balance_shedding_delay_in_seconds.saturating_mul(1000);
        let (mut sum, mut sq_sum, mut counted) = (0.0, 0.0, 0usize);
        let mut outdated = false;
        let mut rows: Vec<Row> = Vec::with_capacity(load.brokers.len());
        for (b, d) in &load.brokers {
            let row = Row {
                id: b,
                load: ema.weighted_max_of(b, &d.local, conf),
                throughput: d.local.msg.total_throughput(),
                throughput_ema: ema.msg_throughput_of(b, &d.local),
            };
            let fresh = now_ms.saturating_sub(d.reported_at_ms) <= ttl_ms;
            if !fresh {
                out.events.push(ShedEvent::TransferOutdated {
                    broker: b.clone(),
                    reported_at_ms: d.reported_at_ms,
                    now_ms,
                    ttl_seconds: conf.load_balancer_broker_load_data_ttl_in_seconds,
                });
                outdated = true;
            } else {
                if let Some(&at) = self.recently_unloaded_brokers.get(b) {
                    // Java: updatedAt − unloadedAt < delay (negative when the
                    // broker has not reported since the unload).
                    if (d.reported_at_ms as i128 - at as i128) < i128::from(delay_ms) {
                        out.events.push(ShedEvent::TransferCoolDown {
                            broker: b.clone(),
                            unloaded_at_ms: at,
                            reported_at_ms: d.reported_at_ms,
                            delay_seconds: conf.load_balance_shedding_delay_in_seconds,
                        });
                        return Err(UnloadReason::CoolDown);
                    }
                    self.recently_unloaded_brokers.remove(b);
                }
                sum += row.load;
                sq_sum += row.load * row.load;
                counted += 1;
            }
            rows.push(row);
        }
        if counted == 0 {
            // No fresh broker: stale data, or no broker at all.
            return Err(if outdated {
                UnloadReason::OutDatedData
            } else {
                UnloadReason::NoBrokers
            });
        }
        // Java's List.sort is stable: equal loads keep (name) order.
        rows.stable_sort_by(|a, b| a.load.total_cmp(&b.load));
        Ok((rows, Stats::new(sum, sq_sum, counted)))
    }
}

/// One pass over the ranked brokers: `LoadStats` after `update` (ranking,
/// statistics, the min and max indices, pairs shed) and the skip counts.
struct Pass<'a> {
    load: &'a LoadData,
    policies: &'a dyn SheddingPolicies,
    recent: &'a BTreeMap<BundleId, u64>,
    grace_ms: u64,
    target: f64,
    /// `loadBalancerBrokerOverloadedThresholdPercentage` (fraction).
    overload_threshold: f64,
    transfer: bool,
    debug: bool,
    k: i32,
    max_pairs: u32,
    rows: Vec<Row<'a>>,
    st: Stats,
    min_i: usize,
    max_i: usize,
    pairs_done: u32,
    /// `numOfBrokersWithEmptyLoadData`.
    no_data: u32,
    /// `numOfBrokersWithFewBundles`.
    few: u32,
    out: ShedOutcome,
}

impl Pass<'_> {
    /// `isUnderLoaded` of the least-loaded broker left: its load below
    /// `avg × m`, or its throughput EMA below the most-loaded broker's × `m`.
    fn is_under_loaded(&self) -> bool {
        let mult = (self.target / 2.0).clamp(0.0, 0.5);
        let (min, max) = (&self.rows[self.min_i], &self.rows[self.max_i]);
        min.load < self.st.avg * mult || min.throughput_ema < max.throughput_ema * mult
    }

    /// `isOverLoaded` of the most-loaded broker left: above both the
    /// overloaded threshold and `avg + targetStd`.
    fn is_over_loaded(&self) -> bool {
        let max = &self.rows[self.max_i];
        max.load > self.overload_threshold && max.load > self.st.avg + self.target
    }

    /// The loop head of `findBundlesForUnloading`: `hasTransferableBrokers`,
    /// then why the next pair sheds; `None` (with the reason told) stops.
    fn next_reason(&mut self) -> Option<TransferReason> {
        let (pairs_done, max_pairs) = (self.pairs_done, self.max_pairs);
        if !(pairs_done < max_pairs && self.min_i < self.max_i) {
            self.out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::NoMorePairs {
                    shed: pairs_done,
                    max: max_pairs,
                },
            });
            return None;
        }
        if self.st.std > self.target {
            Some(TransferReason::Overloaded)
        } else if self.is_under_loaded() {
            Some(TransferReason::Underloaded)
        } else if self.is_over_loaded() {
            Some(TransferReason::Overloaded)
        } else {
            self.out.events.push(ShedEvent::Idle {
                strategy: S,
                reason: IdleReason::TargetMet {
                    std: self.st.std,
                    target: self.target,
                    min_broker: self.rows[self.min_i].id.clone(),
                    max_broker: self.rows[self.max_i].id.clone(),
                },
            });
            None
        }
    }

    /// One iteration of `findBundlesForUnloading`'s loop: `pollMaxBroker`
    /// offloads `(max − min) / 2` of its load to `peekMinBroker` from its
    /// top-bundles report, swapping bundles back when one would overshoot;
    /// then `LoadStats.offload`. Whether it chose anything.
    fn shed_pair(&mut self, reason: TransferReason) -> bool {
        let (mx, mn) = (self.max_i, self.min_i);
        self.max_i -= 1;
        let (max_b, min_b) = (self.rows[mx].id, self.rows[mn].id);
        let (max_load, min_load) = (self.rows[mx].load, self.rows[mn].load);
        let offload = (max_load - min_load) / 2.0;
        let (max_tp, min_tp) = (self.rows[mx].throughput, self.rows[mn].throughput);
        let offload_tp = if max_load > 0.0 {
            max_tp * offload / max_load
        } else {
            0.0
        };
        self.out.events.push(ShedEvent::TransferPair {
            from: max_b.clone(),
            to: min_b.clone(),
            reason,
            max_load,
            min_load,
            offload,
            max_throughput: max_tp,
            offload_throughput: offload_tp,
        });
        let policies = self.policies;
        let max_top = top_bundles_of(self.load.brokers[max_b].top_bundles_source(), self.k, |b| {
            policies.in_top_bundles(b)
        });
        if max_top.is_empty() {
            self.no_data += 1;
            self.out.events.push(ShedEvent::BrokerSkipped {
                strategy: S,
                broker: max_b.clone(),
                reason: BrokerSkipReason::EmptyTopBundles,
            });
            return false;
        }
        if max_top.len() == 1 {
            self.few += 1;
            self.out.events.push(ShedEvent::BrokerSkipped {
                strategy: S,
                broker: max_b.clone(),
                reason: BrokerSkipReason::SoleBundle {
                    bundle: max_top[0].0.clone(),
                },
            });
            return false;
        }
        let min_top = top_bundles_of(self.load.brokers[min_b].top_bundles_source(), self.k, |b| {
            policies.in_top_bundles(b)
        });
        let mut min_iter = min_top.iter();
        let mut marked = 0.0;
        let mut gain = 0.0;
        let mut remaining = max_top.len();
        for (bundle, stats) in &max_top {
            if let Some(at) = self.recent.get(bundle) {
                self.out
                    .events
                    .push(recently_unloaded_event(S, max_b, bundle, *at, self.grace_ms));
                continue;
            }
            if !self.transferable(bundle, max_b, min_b) {
                continue;
            }
            if remaining <= 1 {
                break;
            }
            let tp = stats.msg.total_throughput();
            if tp == 0.0 {
                continue;
            }
            if marked - gain + tp > offload_tp {
                let back = if self.transfer {
                    let max_new = max_tp - marked + gain - tp;
                    let min_new = min_tp + marked - gain + tp;
                    self.swap_back(&mut min_iter, (min_b, max_b), (max_new, min_new), max_tp)
                } else {
                    None
                };
                let Some(back) = back else {
                    break;
                };
                let back_tp = back.iter().fold(0.0, |sum, (_, t)| sum + t);
                for (mb, mbt) in back {
                    self.choose(mb, min_b, Some(max_b.clone()), mbt, mbt, offload_tp);
                }
                if self.debug {
                    // Pulsar adds the swapped-back traffic only in debug mode.
                    gain += back_tp;
                }
            }
            marked += tp;
            remaining -= 1;
            let to = self.transfer.then(|| min_b.clone());
            self.choose(bundle.clone(), max_b, to, tp, marked, offload_tp);
        }
        if marked > 0.0 {
            let adjusted = (marked - gain) * max_load / max_tp;
            self.st.offload(max_load, min_load, adjusted);
            self.pairs_done += 1;
            self.min_i += 1;
            self.out.events.push(ShedEvent::TransferStdUpdated {
                std: self.st.std,
                target_std: self.target,
            });
            true
        } else {
            self.few += 1;
            self.out.events.push(ShedEvent::BrokerSkipped {
                strategy: S,
                broker: max_b.clone(),
                reason: BrokerSkipReason::WouldOvershoot,
            });
            false
        }
    }

    /// "See if we can swap bundles from min to max broker": walk the min
    /// broker's report (one iterator for the whole pair), keeping each bundle
    /// whose move back leaves both brokers below the max broker's throughput,
    /// until the max broker ends above the min broker and below 75 % of its
    /// throughput. `new` is (max, min) throughput after the bundle that
    /// overshoots. The bundles to move back, or `None` when no swap works.
    fn swap_back(
        &mut self,
        min_iter: &mut std::slice::Iter<'_, (BundleId, BundleStats)>,
        (min_b, max_b): (&BrokerId, &BrokerId),
        (mut max_new, mut min_new): (f64, f64),
        max_tp: f64,
    ) -> Option<Vec<(BundleId, f64)>> {
        let mut back: Vec<(BundleId, f64)> = Vec::new();
        for (mb, ms) in min_iter.by_ref() {
            if !self.transferable(mb, min_b, max_b) {
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
                    return Some(back);
                }
            }
        }
        None
    }

    /// `isTransferable` of `bundle` from `src` to `dst`; a refusal is told.
    fn transferable(&mut self, bundle: &BundleId, src: &BrokerId, dst: &BrokerId) -> bool {
        match self.policies.is_transferable(bundle, src, dst) {
            Ok(()) => true,
            Err(reason) => {
                self.out.events.push(ShedEvent::PolicyRefused {
                    strategy: S,
                    broker: src.clone(),
                    bundle: bundle.clone(),
                    to: dst.clone(),
                    reason,
                });
                false
            }
        }
    }

    /// An unload decision: `bundle` leaves `from` (for `to`, when transferring).
    fn choose(
        &mut self,
        bundle: BundleId,
        from: &BrokerId,
        to: Option<BrokerId>,
        value: f64,
        marked: f64,
        target: f64,
    ) {
        self.out.events.push(ShedEvent::BundleChosen {
            strategy: S,
            from: from.clone(),
            to: to.clone(),
            bundle: bundle.clone(),
            metric: Metric::Throughput,
            value,
            marked,
            target,
        });
        self.out.unloads.push(Unload {
            bundle,
            from: from.clone(),
            to,
        });
    }
}

impl TransferShedder {
    /// What the registry says of it.
    pub fn about() -> crate::engine::strategy::About {
        crate::engine::strategy::About {
            upstream: "org.apache.pulsar.broker.loadbalance.extensions.scheduler.TransferShedder",
            summary: "While the standard deviation of the brokers' weightedMaxEMA is above the target (or a broker is far off), pairs the busiest with the idlest broker and transfers bundles to halve their gap, naming each destination.",
            file: file!(),
        }
    }
}

impl super::LoadSheddingStrategy for TransferShedder {
    fn interface(&self) -> super::Interface {
        super::Interface::Extensible
    }

    fn find_bundles_for_unloading(&mut self, cx: &mut ShedContext<'_>) -> ShedOutcome {
        self.find(cx)
    }

    /// Each broker's `weightedMaxEMA`, and the average ± std band of the brokers
    /// whose load data is within `loadBalancerBrokerLoadDataTTLInSeconds` (the
    /// `LoadStats` a pass computes), beside the target std and the hit count.
    fn inputs(&self, cx: &InputsContext<'_>) -> ShedInputs {
        let conf = cx.conf;
        let ttl_ms = conf
            .load_balancer_broker_load_data_ttl_in_seconds
            .saturating_mul(1000);
        let (mut sum, mut sq_sum, mut counted) = (0.0, 0.0, 0usize);
        let mut brokers = Vec::with_capacity(cx.load.brokers.len());
        for (b, d) in &cx.load.brokers {
            let load = cx.ema.weighted_max_of(b, &d.local, conf);
            if cx.now_ms.saturating_sub(d.reported_at_ms) <= ttl_ms {
                sum += load;
                sq_sum += load * load;
                counted += 1;
                brokers.push(frac_input(b, Some(load)));
            } else {
                let mut i = frac_input(b, None);
                i.shown = "load data outdated: left out".into();
                brokers.push(i);
            }
        }
        let target = conf.load_balancer_broker_load_target_std;
        let hit_thr = conf.load_balancer_shedding_condition_hit_count_threshold;
        let st = Stats::new(sum, sq_sum, counted);
        let (avg, std) = (st.avg * 100.0, st.std * 100.0);
        let (lines, band, summary) = if counted == 0 {
            (Vec::new(), None, "no broker with fresh load data".to_string())
        } else {
            (
                vec![line(format!("average {}", pc(avg)), avg, false)],
                Some(ShedBand {
                    label: format!("average ± std {} ± {}", pc(avg), pc(std)),
                    low: avg - std,
                    high: avg + std,
                }),
                format!(
                    "std {:.3} {} target {target:.3} (loadBalancerBrokerLoadTargetStd); the condition has held {} time(s) and must exceed {hit_thr}",
                    st.std,
                    if st.std > target { ">" } else { "≤" },
                    self.unload_condition_hit_count
                ),
            )
        };
        ShedInputs {
            strategy: S,
            measure: "weightedMaxEMA".into(),
            bar: Some("EMA".into()),
            brokers,
            lines,
            band,
            summary,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::config::Config;
    use super::super::fixture::*;
    use super::super::Shedder;
    use super::*;

    fn conf() -> Config {
        Config {
            load_balancer_load_shedding_strategy: S,
            load_manager_class_name: super::super::super::config::LoadManager::Extensible,
            ..Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
        }
    }

    /// The band is the pass's `LoadStats` (average ± std of weightedMaxEMA), as
    /// the `TransferStats` event printed them.
    #[test]
    fn inputs_band_is_the_average_and_std_the_pass_computed() {
        let fx = Fx::new()
            .broker("broker-1", 90.0)
            .broker("broker-2", 10.0)
            .broker("broker-3", 50.0)
            .broker("broker-4", 50.0)
            .bundle("broker-1", 0, 100.0, 38.0 * MIB)
            .bundle("broker-2", 3, 100.0, 10.0 * MIB);
        let c = conf();
        let mut shedder = Shedder::default();
        shedder.observe_reports(&fx.load, &c);
        let out = shedder.find_bundles_for_unloading(&fx.load, &c, 60_000, &mut rng());
        let (avg, std, hits) = out
            .events
            .iter()
            .find_map(|e| match e {
                ShedEvent::TransferStats {
                    average,
                    std,
                    hit_count,
                    ..
                } => Some((*average, *std, *hit_count)),
                _ => None,
            })
            .unwrap();
        let inputs = shedder.inputs(&fx.load, &c, 60_000);
        let band = inputs.band.clone().unwrap();
        assert!((band.low - (avg - std) * 100.0).abs() < 1e-9);
        assert!((band.high - (avg + std) * 100.0).abs() < 1e-9);
        // 90, 10, 50, 50: average 50 %, std √800 = 28.3 %.
        assert!((avg - 0.5).abs() < 1e-9 && (std - 0.2828).abs() < 1e-3);
        assert!((inputs.broker("broker-1").unwrap().value.unwrap() - 90.0).abs() < 1e-9);
        assert!(
            inputs.summary.contains(&format!("held {hits} time(s)")),
            "{}",
            inputs.summary
        );
        assert!(inputs.summary.contains("target 0.250"), "{}", inputs.summary);
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
        // Derived by reading TopKBundles.update and TransferShedder.findBundlesForUnloading:
        // offload (0.9 − 0.1) / 2 = 0.4 → 90 MB/s × 0.4 / 0.9 = 40 MB/s. The report
        // holds broker-1's bundles lightest first (20, 32, 38 MB/s): the 20 fits;
        // 20 + 32 overshoots, so broker-2's bundles (10, 10) are tried as a swap:
        // after both, broker-1 would serve 90 − 52 + 20 = 58 < 67.5 and broker-2
        // 52 ≤ 58, so both come back and the 32 goes; one report entry (38) is left.
        assert_eq!(
            out.unloads,
            vec![
                unload(2, "broker-1", Some("broker-2")),
                unload(3, "broker-2", Some("broker-1")),
                unload(4, "broker-2", Some("broker-1")),
                unload(1, "broker-1", Some("broker-2")),
            ]
        );
        // After the moves std is re-estimated (debug mode off: the 20 MB/s swapped
        // back is not counted; 90 % → 38 %, 10 % → 62 %): 0.085 ≤ 0.25, and
        // broker-3 / broker-4 are neither under- nor overloaded: stop.
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
            .any(|e| matches!(e, ShedEvent::Idle {
                    reason: IdleReason::TargetMet { .. },
                    ..
                })));
        assert_eq!(shedder.strategies.transfer.unload_condition_hit_count, 0);
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
        assert_eq!(shedder.strategies.transfer.unload_condition_hit_count, 0);
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
