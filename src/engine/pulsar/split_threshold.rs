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
//!   enough; children are unloaded when `loadBalancerAutoUnloadSplitBundlesEnabled`
//!   and the namespace policies and anti-affinity group let them leave their
//!   broker (`shouldNamespacePoliciesUnload`, `shouldAntiAffinityNamespaceUnload`).
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
use super::config::{Config, LoadManager, SplitAlgorithm};
use super::fixed;
use super::load::{BrokerId, BundleId};
use super::ownership::ServiceUnitState;
use super::split::{self, FlowLimits, SplitPlan, SplitTopic};
use super::traffic::MIB;
use super::{BundleState, Event, Sim, UnloadCause};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Why a split was not done. Serialized, printed and compared as its text,
/// which is written only when read: the modular check of a namespace already
/// at `loadBalancerNamespaceMaximumBundles` refuses every bundle over a
/// threshold (thousands in a round at 16,384 bundles), each with its own numbers.
#[derive(Clone)]
pub struct SkipReason(Why);

#[derive(Clone)]
enum Why {
    Text(String),
    /// The thresholds `crossed` by these numbers, then `tail` (the namespace's refusal).
    Crossed {
        limits: Arc<SplitLimits>,
        crossed: u8,
        topics: u32,
        sessions: u32,
        rate: f64,
        bytes: f64,
        tail: Arc<str>,
    },
}

impl SkipReason {
    /// The text.
    pub fn text(&self) -> String {
        match &self.0 {
            Why::Text(t) => t.clone(),
            Why::Crossed {
                limits,
                crossed,
                topics,
                sessions,
                rate,
                bytes,
                tail,
            } => {
                let mut out = String::with_capacity(64 + tail.len());
                limits.write(*crossed, *topics, *sessions, *rate, *bytes, &mut out);
                out.push_str(tail);
                out
            }
        }
    }
}

impl From<String> for SkipReason {
    fn from(t: String) -> Self {
        SkipReason(Why::Text(t))
    }
}

impl From<&str> for SkipReason {
    fn from(t: &str) -> Self {
        SkipReason(Why::Text(t.to_string()))
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Why::Text(t) => f.write_str(t),
            Why::Crossed { .. } => f.write_str(&self.text()),
        }
    }
}

/// As the text's own `Debug` (quoted).
impl std::fmt::Debug for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.text(), f)
    }
}

impl PartialEq for SkipReason {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Why::Text(a), Why::Text(b)) => a == b,
            _ => self.text() == other.text(),
        }
    }
}

impl serde::Serialize for SkipReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de> serde::Deserialize<'de> for SkipReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(SkipReason::from)
    }
}

/// The split thresholds of a config (`loadBalancerNamespaceBundleMax*`), with
/// the limits' text rendered once, so a check of every bundle formats only the
/// bundle's own numbers.
struct SplitLimits {
    topics: u32,
    sessions: u32,
    rate: f64,
    bytes: f64,
    topics_text: String,
    sessions_text: String,
    rate_text: String,
    bytes_text: String,
}

/// [`SplitLimits::crossed`] bits, in the order reasons are listed.
const TOPICS: u8 = 1;
const SESSIONS: u8 = 2;
const RATE: u8 = 4;
const BYTES: u8 = 8;

impl SplitLimits {
    fn new(c: &Config) -> Self {
        let rate = c.load_balancer_namespace_bundle_max_msg_rate.trunc();
        let bytes = c.load_balancer_namespace_bundle_max_bandwidth_mbytes.trunc() * MIB;
        SplitLimits {
            topics: c.load_balancer_namespace_bundle_max_topics,
            sessions: c.load_balancer_namespace_bundle_max_sessions,
            rate,
            bytes,
            topics_text: format!(" > {}", c.load_balancer_namespace_bundle_max_topics),
            sessions_text: format!(" > {}", c.load_balancer_namespace_bundle_max_sessions),
            rate_text: format!(" > {rate} msg/s"),
            bytes_text: format!(" > {} MiB/s", bytes / MIB),
        }
    }

    /// Which thresholds the numbers cross (a bit set; 0 = none).
    fn crossed(&self, topics: u32, sessions: u32, rate: f64, bytes: f64) -> u8 {
        let mut m = 0;
        if topics > self.topics {
            m |= TOPICS;
        }
        if self.sessions > 0 && sessions > self.sessions {
            m |= SESSIONS;
        }
        if rate > self.rate {
            m |= RATE;
        }
        if bytes > self.bytes {
            m |= BYTES;
        }
        m
    }

    /// One reason's text (`bit` is one of the `crossed` bits), as
    /// `format!("msg rate {rate:.1} > {limit} msg/s")` and the like would write it.
    fn write_one(&self, bit: u8, topics: u32, sessions: u32, rate: f64, bytes: f64, out: &mut String) {
        match bit {
            TOPICS => {
                out.push_str("topics ");
                fixed::push_u64(out, u64::from(topics));
                out.push_str(&self.topics_text);
            }
            SESSIONS => {
                out.push_str("sessions ");
                fixed::push_u64(out, u64::from(sessions));
                out.push_str(&self.sessions_text);
            }
            RATE => {
                out.push_str("msg rate ");
                fixed::push_fixed(out, rate, 1);
                out.push_str(&self.rate_text);
            }
            _ => {
                out.push_str("throughput ");
                fixed::push_fixed(out, bytes / MIB, 2);
                out.push_str(&self.bytes_text);
            }
        }
    }

    /// Append the reasons of `crossed`, joined by ", ".
    fn write(&self, crossed: u8, topics: u32, sessions: u32, rate: f64, bytes: f64, out: &mut String) {
        let mut first = true;
        for bit in [TOPICS, SESSIONS, RATE, BYTES] {
            if crossed & bit != 0 {
                if !first {
                    out.push_str(", ");
                }
                first = false;
                self.write_one(bit, topics, sessions, rate, bytes, out);
            }
        }
    }

    /// The reasons, one string each (empty = none crossed).
    fn reasons(&self, topics: u32, sessions: u32, rate: f64, bytes: f64) -> Vec<String> {
        let crossed = self.crossed(topics, sessions, rate, bytes);
        [TOPICS, SESSIONS, RATE, BYTES]
            .into_iter()
            .filter(|b| crossed & b != 0)
            .map(|b| {
                let mut s = String::new();
                self.write_one(b, topics, sessions, rate, bytes, &mut s);
                s
            })
            .collect()
    }
}

/// Pulsar's `canSplitBundle`: the range must hold more than one hash.
pub fn can_split(r: BundleRange) -> bool {
    u64::from(r.upper) - u64::from(r.lower) > 1
}

/// Every live bundle's long-term (rate, throughput) by position
/// ([`super::index::BundleIndex`]), as the split check last read them from the
/// leader's bundle data, with the layout stamp they were read under: kept while
/// that data and the layout stay (the data changes only when the leader samples
/// and when a split drops a bundle's entry, and both clear this). A cache, not
/// part of the state.
#[derive(Clone, Default)]
pub(crate) struct LongTermCache(Option<(u64, LongTerms)>);

/// Per live bundle (by position): its long-term (rate, throughput), if the
/// leader has data for it.
type LongTerms = Vec<Option<(f64, f64)>>;

/// Every live bundle's long-term (rate, throughput) in the leader's `load`, by position.
fn read_long_term(live: &super::index::BundleIndex<'_>, load: &super::load::LoadData) -> LongTerms {
    live.place(load.bundles.iter().map(|(k, d)| {
        (
            k,
            (d.long_term.msg.total_rate(), d.long_term.msg.total_throughput()),
        )
    }))
    .into_positions()
}

impl LongTermCache {
    /// Forget what was read (the leader's bundle data changed).
    pub(crate) fn clear(&mut self) {
        self.0 = None;
    }
}

impl std::fmt::Debug for LongTermCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A cache: two states that differ only here print alike.
        f.write_str("LongTermCache")
    }
}

impl Sim {
    /// The split algorithm's view of a bundle's topics (sorted by hash, then name).
    pub(crate) fn split_topics(&self, bid: &BundleId) -> Vec<SplitTopic> {
        self.namespaces
            .get(bid.namespace.as_str())
            .map_or_else(Vec::new, |ns| {
                ns.topics_in(bid.range)
                    .into_iter()
                    .map(|t| {
                        let traffic = ns.traffic(t);
                        SplitTopic {
                            hash: t.hash,
                            name: t.name.local().to_string(),
                            msg_rate: traffic.msg_rate(),
                            throughput: traffic.throughput(),
                        }
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

    /// Phase: the automatic split check of the configured load manager.
    pub fn split_phase(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        self.split_into(&mut ev);
        ev
    }

    /// [`Sim::split_phase`], appending its events to `ev`.
    ///
    /// The modular leader checks for splits after every load-data refresh
    /// (`ModularLoadManagerImpl.updateAll` → `checkNamespaceBundleSplit`), which
    /// reads `loadBalancerAutoBundleSplitEnabled` only; the extensible
    /// `SplitScheduler` runs only when `loadBalancerEnabled` is on as well.
    pub(crate) fn split_into(&mut self, ev: &mut Vec<Event>) {
        if !self.config.load_balancer_auto_bundle_split_enabled {
            return;
        }
        match self.config.load_manager_class_name {
            LoadManager::Modular => self.split_modular(ev),
            LoadManager::Extensible if !self.config.load_balancer_enabled => {}
            LoadManager::Extensible => self.split_extensible(ev),
        }
    }

    fn split_modular(&mut self, ev: &mut Vec<Event>) {
        let Some(leader) = self.leader.clone() else {
            return;
        };
        let max_bundles = self.config.load_balancer_namespace_maximum_bundles as usize;
        let limits = Arc::new(SplitLimits::new(&self.config));
        let mut pending: BTreeMap<String, usize> = BTreeMap::new();
        let mut chosen: BTreeMap<BundleId, ()> = BTreeMap::new();
        // The namespace of the last refused bundle, its bundle count and the
        // tail of the refusal text (the same for every bundle of a namespace).
        let mut refused: Option<(&str, usize, Arc<str>)> = None;
        // Every live bundle's long-term rate and throughput (0 without data),
        // by position: read again only when the leader's data or the layout
        // changed since the last check.
        let live = super::index::BundleIndex::new(&self.namespaces, &self.ns_ids, self.bundles.len());
        let stamp = self.layout.of(&live);
        let read = || read_long_term(&live, &self.load);
        let long_term = match self.long_term.0.take() {
            Some((s, kept)) if s == stamp && kept.len() == self.bundles.len() => {
                debug_assert!(kept == read(), "kept long-term bundle data out of date");
                kept
            }
            _ => read(),
        };
        for bd in self.load.brokers.values() {
            for (bid, stats) in &bd.local.bundles {
                if stats.topics < 2 {
                    continue;
                }
                let Some(i) = live.of(bid) else {
                    continue;
                };
                let (rate, bytes) = long_term.get(i).copied().flatten().unwrap_or((0.0, 0.0));
                if chosen.contains_key(bid) {
                    continue;
                }
                let crossed = limits.crossed(stats.topics, stats.sessions(), rate, bytes);
                if crossed == 0 {
                    continue;
                }
                let ns = bid.namespace.as_str();
                let count = match &refused {
                    Some((n, c, _)) if *n == ns => *c,
                    _ => self.namespaces.get(ns).map_or(0, |n| n.bundles.len()),
                };
                let p = pending.get(ns).copied().unwrap_or(0);
                if count + p < max_bundles {
                    ev.push(Event::SplitCandidate {
                        bundle: bid.clone(),
                        reasons: limits.reasons(stats.topics, stats.sessions(), rate, bytes),
                        hits: None,
                    });
                    chosen.insert(bid.clone(), ());
                    pending.insert(bid.namespace.to_string(), p + 1);
                } else {
                    if refused.as_ref().is_none_or(|(n, c, _)| *n != ns || *c != count) {
                        let tail = format!(
                            " (threshold crossed) but namespace {ns} has {count} bundles (loadBalancerNamespaceMaximumBundles {max_bundles})"
                        );
                        refused = Some((ns, count, Arc::from(tail)));
                    }
                    let tail = refused
                        .as_ref()
                        .map_or_else(|| Arc::from(""), |(_, _, t)| t.clone());
                    ev.push(Event::SplitSkipped {
                        bundle: bid.clone(),
                        reason: SkipReason(Why::Crossed {
                            limits: limits.clone(),
                            crossed,
                            topics: stats.topics,
                            sessions: stats.sessions(),
                            rate,
                            bytes,
                            tail,
                        }),
                    });
                }
            }
        }
        // Kept for the next check (a split below drops it again).
        self.long_term.0 = Some((stamp, long_term));
        let unload = self.config.load_balancer_auto_unload_split_bundles_enabled;
        let alg = self.config.default_namespace_bundle_split_algorithm;
        for bid in chosen.into_keys() {
            if !can_split(bid.range) {
                continue;
            }
            // "Make sure the same bundle is not selected again."
            self.load.bundles.remove(&bid);
            self.long_term.clear();
            let plan = self.plan_split(&bid, alg, &[]);
            if plan.boundaries.is_empty() {
                ev.push(Event::SplitSkipped {
                    bundle: bid.clone(),
                    reason: format!(
                        "{alg:?} found no boundary: {}",
                        plan.remark.clone().unwrap_or_default()
                    )
                    .into(),
                });
                continue;
            }
            if let Some(reason) = self.bundle_room_refusal(plan.boundaries.len()) {
                ev.push(Event::SplitSkipped {
                    bundle: bid,
                    reason: reason.into(),
                });
                continue;
            }
            // `checkNamespaceBundleSplit` unloads the children only if the
            // namespace policies and the anti-affinity group let them leave.
            let mut unload_this = unload;
            if unload {
                if let Some(owner) = self.bundles.get(&bid).and_then(|s| s.owner().cloned()) {
                    let ctx = super::assign::placement_context!(self);
                    let check = ctx
                        .should_namespace_policies_unload(&bid, &owner)
                        .and_then(|()| ctx.should_anti_affinity_namespace_unload(&bid, &owner));
                    if let Err(why) = check {
                        ev.push(Event::Warning {
                            message: format!("{bid}: the split children stay on {owner}: {why}"),
                        });
                        unload_this = false;
                    }
                }
            }
            self.do_split(&bid, plan, &format!("leader {leader}"), unload_this, ev);
        }
    }

    fn split_extensible(&mut self, ev: &mut Vec<Event>) {
        let c = self.config.clone();
        let max_bundles = c.load_balancer_namespace_maximum_bundles as usize;
        let threshold = c.load_balancer_namespace_bundle_split_condition_hit_count_threshold;
        let per_cycle = c.load_balancer_max_number_of_bundles_to_split_per_cycle as usize;
        let limits = SplitLimits::new(&c);
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
                // Pulsar records only the first reason (topics, sessions, rate, bandwidth).
                let mut first =
                    limits.reasons(st.topics, load.sessions(), load.msg_rate(), load.throughput());
                first.truncate(1);
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
                let count = self
                    .namespaces
                    .get(bid.namespace.as_str())
                    .map_or(0, |n| n.bundles.len());
                let p = pending.get(bid.namespace.as_str()).copied().unwrap_or(0);
                if count + p >= max_bundles {
                    ev.push(Event::SplitSkipped {
                        bundle: bid.clone(),
                        reason: format!(
                            "namespace {} has {count} bundles (loadBalancerNamespaceMaximumBundles {max_bundles})",
                            bid.namespace
                        )
                        .into(),
                    });
                    continue;
                }
                ev.push(Event::SplitCandidate {
                    bundle: bid.clone(),
                    reasons: first,
                    hits: Some((hits, threshold)),
                });
                pending.insert(bid.namespace.to_string(), p + 1);
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
                        )
                        .into(),
                    });
                    continue;
                }
                if let Some(reason) = self.bundle_room_refusal(plan.boundaries.len()) {
                    ev.push(Event::SplitSkipped {
                        bundle: bid,
                        reason: reason.into(),
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
            .get(bid.namespace.as_str())
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
        self.remove_bundle(bid);
        if let Some(ns) = self.namespaces.get_mut(bid.namespace.as_str()) {
            ns.bundles.splice(idx..=idx, children.iter().copied());
        }
        self.load.bundles.remove(bid);
        self.long_term.clear();
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
                        reason: UnloadCause::SplitChild,
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

    /// What the split check keeps of the leader's long-term data is what it
    /// would read afresh, round after round: while brokers publish and the
    /// leader samples, after automatic splits, a namespace created before the
    /// others and a crashed broker.
    #[test]
    fn the_kept_long_term_data_is_what_a_fresh_read_gives() {
        use crate::engine::pulsar::workload::testing::{add_namespace, jittered_cluster};
        use crate::engine::pulsar::{Action, Config};
        use crate::engine::Engine;
        let check = |s: &Sim, when: &str| {
            if let Some((_, kept)) = &s.long_term.0 {
                let live = super::super::index::BundleIndex::new(&s.namespaces, &s.ns_ids, s.bundles.len());
                assert_eq!(*kept, read_long_term(&live, &s.load), "{when}");
            }
        };
        // Low split thresholds, so that bundles split on their own.
        let config: Config = serde_json::from_str(
            r#"{"loadBalancerNamespaceBundleMaxTopics": 40, "loadBalancerNamespaceMaximumBundles": 24}"#,
        )
        .unwrap();
        let mut s = jittered_cluster(config, 9, 6, &[("t/n", 8, 400, 30.0)], 30.0);
        let mut kept_rounds = 0;
        for round in 0..12 {
            s.apply(&Action::Step).unwrap();
            check(&s, &format!("round {round}"));
            kept_rounds += usize::from(s.long_term.0.is_some());
            if round == 5 {
                add_namespace(&mut s, "a/a", 4, "y", 30, 5.0);
            }
            if round == 8 {
                s.apply(&Action::CrashBroker { broker: "b2".into() }).unwrap();
            }
        }
        assert!(kept_rounds > 0, "the check keeps what it read");
        assert!(
            s.namespaces["t/n"].bundles.len() > 8,
            "bundles split on their own"
        );
    }

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
