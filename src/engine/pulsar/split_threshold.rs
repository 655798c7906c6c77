//! Automatic bundle split: thresholds, who decides, and carrying a split out.
//!
//! A bundle with at least 2 topics is a candidate when any of these holds:
//! topics > `loadBalancerNamespaceBundleMaxTopics`; sessions (producers +
//! consumers) > `loadBalancerNamespaceBundleMaxSessions` (when that is > 0);
//! msg rate (in + out) > `loadBalancerNamespaceBundleMaxMsgRate`; throughput
//! (in + out) > `loadBalancerNamespaceBundleMaxBandwidthMbytes` MiB/s — and its
//! namespace has fewer than `loadBalancerNamespaceMaximumBundles` bundles
//! (counting splits already decided in this pass).
//!
//! * Modular (`BundleSplitterTask`, run by the leader at each load-data update):
//!   reads every broker's last *published* bundle stats for topics and sessions
//!   and the bundle's *long-term* average for rate and throughput; one hit is
//!   enough; children are unloaded when `loadBalancerAutoUnloadSplitBundlesEnabled`.
//!   Pulsar iterates a hash map of candidates; lbscope splits them in
//!   (namespace, range) order.
//! * Extensible (`DefaultNamespaceBundleSplitStrategyImpl`, run by every owner
//!   broker each `loadBalancerSplitIntervalMinutes`): reads the broker's *current*
//!   bundle stats; the condition must hold in more than
//!   `loadBalancerNamespaceBundleSplitConditionHitCountThreshold` consecutive
//!   checks; at most `loadBalancerMaxNumberOfBundlesToSplitPerCycle` splits per
//!   broker per pass; the algorithm must return exactly one boundary; children
//!   stay owned by the same broker (the split decision carries no destinations).

use super::bundle::BundleRange;
use super::config::{LoadManager, SplitAlgorithm};
use super::load::{BrokerId, BundleId};
use super::ownership::ServiceUnitState;
use super::split::{self, FlowLimits, SplitPlan, SplitTopic};
use super::traffic::MIB;
use super::{BundleState, Event, Sim};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// Pulsar's `canSplitBundle`: the range must hold more than one hash.
pub fn can_split(r: BundleRange) -> bool {
    u64::from(r.upper) - u64::from(r.lower) > 1
}

impl Sim {
    /// The split algorithm's view of a bundle's topics (sorted by hash, then name).
    pub(crate) fn split_topics(&self, bid: &BundleId) -> Vec<SplitTopic> {
        self.namespaces.get(&bid.namespace).map_or_else(Vec::new, |ns| {
            ns.topics_in(bid.range)
                .into_iter()
                .map(|t| SplitTopic {
                    hash: t.hash,
                    name: t.name.local().to_string(),
                    msg_rate: t.traffic.msg_rate(),
                    throughput: t.traffic.throughput(),
                })
                .collect()
        })
    }

    /// Run `alg` on a bundle (`positions` only for specified_positions_divide).
    pub(crate) fn plan_split(&self, bid: &BundleId, alg: SplitAlgorithm, positions: &[u32]) -> SplitPlan {
        let topics = self.split_topics(bid);
        match alg {
            SplitAlgorithm::RangeEquallyDivide => split::range_equally_divide(bid.range),
            SplitAlgorithm::TopicCountEquallyDivide => split::topic_count_equally_divide(&topics),
            SplitAlgorithm::SpecifiedPositionsDivide => {
                split::specified_positions_divide(bid.range, positions, topics.len())
            }
            SplitAlgorithm::FlowOrQpsEquallyDivide => split::flow_or_qps_equally_divide(
                &topics,
                FlowLimits {
                    max_msg_rate: self.config.load_balancer_namespace_bundle_max_msg_rate.trunc(),
                    max_bandwidth_mbytes: self
                        .config
                        .load_balancer_namespace_bundle_max_bandwidth_mbytes
                        .trunc(),
                    difference_threshold_percentage: self.config.flow_or_qps_difference_threshold_percentage,
                },
            ),
        }
    }

    /// Threshold reasons (empty = none crossed) for the given numbers.
    fn split_reasons(&self, topics: u32, sessions: u32, rate: f64, bytes: f64) -> Vec<String> {
        let c = &self.config;
        let mut r = Vec::new();
        if topics > c.load_balancer_namespace_bundle_max_topics {
            r.push(format!(
                "topics {topics} > {}",
                c.load_balancer_namespace_bundle_max_topics
            ));
        }
        if c.load_balancer_namespace_bundle_max_sessions > 0
            && sessions > c.load_balancer_namespace_bundle_max_sessions
        {
            r.push(format!(
                "sessions {sessions} > {}",
                c.load_balancer_namespace_bundle_max_sessions
            ));
        }
        let max_rate = c.load_balancer_namespace_bundle_max_msg_rate.trunc();
        if rate > max_rate {
            r.push(format!("msg rate {rate:.1} > {max_rate} msg/s"));
        }
        let max_bytes = c.load_balancer_namespace_bundle_max_bandwidth_mbytes.trunc() * MIB;
        if bytes > max_bytes {
            r.push(format!(
                "throughput {:.2} > {} MiB/s",
                bytes / MIB,
                max_bytes / MIB
            ));
        }
        r
    }

    /// Phase: the automatic split check of the configured load manager.
    pub fn split_phase(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        if !self.config.load_balancer_auto_bundle_split_enabled {
            return ev;
        }
        match self.config.load_manager_class_name {
            LoadManager::Modular => self.split_modular(&mut ev),
            LoadManager::Extensible => self.split_extensible(&mut ev),
        }
        ev
    }

    fn split_modular(&mut self, ev: &mut Vec<Event>) {
        let Some(leader) = self.leader.clone() else {
            return;
        };
        let max_bundles = self.config.load_balancer_namespace_maximum_bundles as usize;
        let mut pending: BTreeMap<String, usize> = BTreeMap::new();
        let mut chosen: BTreeMap<BundleId, ()> = BTreeMap::new();
        // Every live bundle with its long-term rate and throughput (0 without
        // data), from one merge walk over the two sorted bundle maps: a hash
        // probe per reported bundle instead of two tree lookups.
        let mut live: FxHashMap<&BundleId, (f64, f64)> = FxHashMap::default();
        live.reserve(self.bundles.len());
        let mut data = self.load.bundles.iter().peekable();
        for bid in self.bundles.keys() {
            while data.next_if(|(k, _)| *k < bid).is_some() {}
            let v = data.next_if(|(k, _)| *k == bid).map_or((0.0, 0.0), |(_, d)| {
                (d.long_term.msg.total_rate(), d.long_term.msg.total_throughput())
            });
            live.insert(bid, v);
        }
        for bd in self.load.brokers.values() {
            for (bid, stats) in &bd.local.bundles {
                if stats.topics < 2 {
                    continue;
                }
                let Some(&(rate, bytes)) = live.get(bid) else {
                    continue;
                };
                if chosen.contains_key(bid) {
                    continue;
                }
                let reasons = self.split_reasons(stats.topics, stats.sessions(), rate, bytes);
                if reasons.is_empty() {
                    continue;
                }
                let count = self.namespaces.get(&bid.namespace).map_or(0, |n| n.bundles.len());
                let p = pending.get(&bid.namespace).copied().unwrap_or(0);
                if count + p < max_bundles {
                    ev.push(Event::SplitCandidate {
                        bundle: bid.clone(),
                        reasons,
                        hits: None,
                    });
                    chosen.insert(bid.clone(), ());
                    pending.insert(bid.namespace.clone(), p + 1);
                } else {
                    ev.push(Event::SplitSkipped {
                        bundle: bid.clone(),
                        reason: format!(
                            "{} ({}) but namespace {} has {count} bundles (loadBalancerNamespaceMaximumBundles {max_bundles})",
                            reasons.join(", "),
                            "threshold crossed",
                            bid.namespace
                        ),
                    });
                }
            }
        }
        let unload = self.config.load_balancer_auto_unload_split_bundles_enabled;
        let alg = self.config.default_namespace_bundle_split_algorithm;
        for bid in chosen.into_keys() {
            if !can_split(bid.range) {
                continue;
            }
            // "Make sure the same bundle is not selected again."
            self.load.bundles.remove(&bid);
            let plan = self.plan_split(&bid, alg, &[]);
            if plan.boundaries.is_empty() {
                ev.push(Event::SplitSkipped {
                    bundle: bid.clone(),
                    reason: format!(
                        "{alg:?} found no boundary: {}",
                        plan.remark.clone().unwrap_or_default()
                    ),
                });
                continue;
            }
            self.do_split(&bid, plan, &format!("leader {leader}"), unload, ev);
        }
    }

    fn split_extensible(&mut self, ev: &mut Vec<Event>) {
        let c = self.config.clone();
        let max_bundles = c.load_balancer_namespace_maximum_bundles as usize;
        let threshold = c.load_balancer_namespace_bundle_split_condition_hit_count_threshold;
        let per_cycle = c.load_balancer_max_number_of_bundles_to_split_per_cycle as usize;
        let owners: Vec<BrokerId> = self.alive().map(|b| b.id.clone()).collect();
        for owner in owners {
            let owned: Vec<BundleId> = self
                .brokers
                .get(&owner)
                .map_or_else(Vec::new, |b| b.bundles.iter().cloned().collect());
            let mut pending: BTreeMap<String, usize> = BTreeMap::new();
            let mut decided: Vec<BundleId> = Vec::new();
            for bid in owned {
                let Some(st) = self.bundles.get(&bid) else {
                    continue;
                };
                let load = st.load();
                if st.topics < 2 || st.owner() != Some(&owner) || !can_split(bid.range) {
                    continue;
                }
                let reasons =
                    self.split_reasons(st.topics, load.sessions(), load.msg_rate(), load.throughput());
                // Pulsar records only the first reason (topics, sessions, rate, bandwidth).
                let first: Vec<String> = reasons.into_iter().take(1).collect();
                let hits = if first.is_empty() { 0 } else { st.split_hits + 1 };
                if let Some(s) = self.bundles.get_mut(&bid) {
                    s.split_hits = hits;
                }
                if hits <= threshold {
                    if hits > 0 {
                        ev.push(Event::SplitCandidate {
                            bundle: bid.clone(),
                            reasons: first,
                            hits: Some((hits, threshold)),
                        });
                    }
                    continue;
                }
                let count = self.namespaces.get(&bid.namespace).map_or(0, |n| n.bundles.len());
                let p = pending.get(&bid.namespace).copied().unwrap_or(0);
                if count + p >= max_bundles {
                    ev.push(Event::SplitSkipped {
                        bundle: bid.clone(),
                        reason: format!(
                            "namespace {} has {count} bundles (loadBalancerNamespaceMaximumBundles {max_bundles})",
                            bid.namespace
                        ),
                    });
                    continue;
                }
                ev.push(Event::SplitCandidate {
                    bundle: bid.clone(),
                    reasons: first,
                    hits: Some((hits, threshold)),
                });
                pending.insert(bid.namespace.clone(), p + 1);
                decided.push(bid.clone());
                if decided.len() == per_cycle {
                    break;
                }
            }
            for bid in decided {
                let plan = self.plan_split(&bid, c.default_namespace_bundle_split_algorithm, &[]);
                if plan.boundaries.len() != 1 {
                    ev.push(Event::SplitSkipped {
                        bundle: bid.clone(),
                        reason: format!(
                            "the extensible load manager needs exactly 1 boundary, {:?} gave {} ({})",
                            plan.algorithm,
                            plan.boundaries.len(),
                            plan.remark.clone().unwrap_or_default()
                        ),
                    });
                    continue;
                }
                self.do_split(&bid, plan, &format!("owner {owner}"), false, ev);
            }
        }
    }

    /// Split `bid` at `plan.boundaries` (already validated strictly inside).
    pub(crate) fn do_split(
        &mut self,
        bid: &BundleId,
        plan: SplitPlan,
        by: &str,
        unload: bool,
        ev: &mut Vec<Event>,
    ) {
        let Some(children) = split::child_ranges(bid.range, &plan.boundaries) else {
            ev.push(Event::SplitSkipped {
                bundle: bid.clone(),
                reason: "boundaries are not strictly inside the bundle".into(),
            });
            return;
        };
        let Some(idx) = self
            .namespaces
            .get(&bid.namespace)
            .and_then(|n| n.index_of(bid.range))
        else {
            return;
        };
        let owner = self.bundles.get(bid).and_then(|s| s.owner().cloned());
        // Parent: Owned -> Splitting -> Deleted.
        if owner.is_some() {
            self.transition(bid, ServiceUnitState::Splitting, owner.clone(), None, false, ev);
            self.transition(bid, ServiceUnitState::Deleted, None, None, false, ev);
        }
        self.bundles.remove(bid);
        if let Some(ns) = self.namespaces.get_mut(&bid.namespace) {
            ns.bundles.splice(idx..=idx, children.iter().copied());
        }
        self.load.bundles.remove(bid);
        self.load.recently_unloaded.remove(bid);
        for bd in self.load.brokers.values_mut() {
            bd.local.bundles.remove(bid);
            bd.preallocated.remove(bid);
        }
        let mut child_ids = Vec::new();
        for r in &children {
            let cid = BundleId {
                namespace: bid.namespace.clone(),
                range: *r,
            };
            self.bundles.insert(cid.clone(), BundleState::default());
            self.refresh_bundle(&cid);
            child_ids.push(cid);
        }
        self.counters.splits += 1;
        ev.push(Event::BundleSplit {
            bundle: bid.clone(),
            children: children.clone(),
            plan,
            by: by.to_string(),
            unloaded: unload && owner.is_some(),
        });
        if let Some(o) = owner {
            for cid in &child_ids {
                if unload {
                    ev.push(Event::Unloaded {
                        bundle: cid.clone(),
                        from: o.clone(),
                        to: None,
                        reason: "split child unloaded".into(),
                    });
                    self.close_sessions(cid, ev);
                    self.counters.bundles_moved += 1;
                } else {
                    self.transition(cid, ServiceUnitState::Owned, Some(o.clone()), None, false, ev);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar::report::bundle_stats;

    #[test]
    fn can_split_needs_two_hashes() {
        assert!(can_split(BundleRange { lower: 0, upper: 2 }));
        assert!(!can_split(BundleRange { lower: 0, upper: 1 }));
    }

    #[test]
    fn bundle_stats_carry_sessions() {
        let t = crate::engine::pulsar::traffic::Traffic {
            producers: 3,
            consumers: 4,
            ..Default::default()
        };
        assert_eq!(bundle_stats(&t, 2).sessions(), 7);
    }
}
