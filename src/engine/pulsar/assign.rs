//! Lookup and assignment of unowned bundles: the candidate filters of both load
//! managers, then the placement strategy.
//!
//! **Modular** (`ModularLoadManagerImpl.selectBroker`), in Pulsar's order:
//! 1. `LoadManagerShared.applyNamespacePolicies` over the available (alive)
//!    brokers: the namespace's isolation policy (primaries, secondaries on
//!    failover), else the shared brokers that have a load report (the
//!    persistent-topics flag is read from it); see [`super::isolation`];
//! 2. `filterBrokersWithLargeTopicCount`: drop brokers serving more than
//!    `loadBalancerBrokerMaxTopics` topics (counting bundles preallocated to
//!    them), unless that drops them all;
//! 3. `filterAntiAffinityGroupOwnedBrokers` (namespace counts, failure domains
//!    when `failureDomainsEnabled`); see [`super::anti_affinity`];
//! 4. with `loadBalancerDistributeBundlesEvenlyEnabled`, and always for
//!    `pulsar/system`, keep only the brokers owning the fewest bundles of the
//!    namespace (`removeMostServicingBrokersForNamespace`);
//! 5. the filter pipeline (`BrokerLoadManagerClassFilter`, and
//!    `BrokerVersionFilter` with `preferLaterVersions`) removes nothing here: every
//!    lbscope broker runs the configured load manager and the same version;
//! 6. if nothing is left, step 1's set again (steps 2-4 never empty a non-empty
//!    set, so this only matters when step 1 found nobody: then no owner);
//! 7. the placement strategy picks (`RoundRobinBrokerSelector` for the namespaces
//!    of `loadBalancerSheddingExcludedNamespaces`); if its pick's weighted max
//!    usage exceeds `loadBalancerBrokerOverloadedThresholdPercentage`, the
//!    placement strategy (never the round robin) picks again among step 1's set,
//!    and that pick is used when there is one;
//! 8. the bundle is preallocated to the winner until the winner reports it.
//!    Preallocation and the overload check read the winner's load data: a winner
//!    whose first report has not reached the leader fails the lookup, as Pulsar's
//!    `NullPointerException` does.
//!
//! **Extensible** (`ExtensibleLoadManagerImpl.selectAsync`): the filter pipeline
//! `BrokerLoadManagerClassFilter` (no-op here), `BrokerMaxTopicCountFilter`
//! (drops brokers *reporting* at least `loadBalancerBrokerMaxTopics` topics; a
//! broker without load data counts 0; no fall-back), `BrokerVersionFilter`
//! (no-op here), `AntiAffinityGroupPolicyFilter` (bundle counts),
//! `BrokerIsolationPoliciesFilter` (isolation over the brokers still left; the
//! persistent-topics flag comes from the broker registry, so a broker without a
//! load report is a candidate); an empty set means no owner. Then the round
//! robin for shedding-excluded namespaces, else LeastResourceUsageWithWeight. No
//! distribute-evenly step, no overload re-pick. Ownership goes
//! `Init/Free -> Assigning -> Owned`.
//!
//! Each filter that removes brokers says so in a [`PlaceEvent::Filtered`] (which
//! filter, which brokers, why, with the numbers); the strategy's own event gives
//! the scores that picked the winner.
//!
//! Destinations fixed earlier win: `unload -d BROKER` (bundle affinity) when the
//! broker is alive (Pulsar returns the affinity broker before any filter), and,
//! when the placement strategy is AvgShedder, the destination AvgShedder
//! planned at shedding time if it survived the filters.
//!
//! The same filters decide what shedding may move (see [`PlacementContext`]'s
//! `*_unload` methods and its `SheddingPolicies` implementation).

use super::anti_affinity::{self, AntiAffinityGroups};
use super::broker::Broker;
use super::config::{Config, LoadManager, PlacementStrategy};
use super::failure_domain::FailureDomains;
use super::isolation::{self, NamespaceIsolationPolicies};
use super::load::{BrokerData, BrokerId, BundleData, BundleId, LoadData};
use super::namespace::SYSTEM_NAMESPACE;
use super::ownership::ServiceUnitState;
use super::place::{join_sorted, PlaceEvent, PlacementFilter, MAX_LISTED};
use super::shed::shared::weights;
use super::shed::{PolicyRefusal, SheddingPolicies};
use super::{Event, Sim};
use std::collections::BTreeMap;

/// What the candidate filters read: borrowed parts of the simulation (built from
/// its fields so the placer and the RNG can be borrowed mutably alongside).
pub(crate) struct PlacementContext<'a> {
    pub brokers: &'a BTreeMap<BrokerId, Broker>,
    pub load: &'a LoadData,
    pub config: &'a Config,
    pub isolation: &'a NamespaceIsolationPolicies,
    pub anti_affinity: &'a AntiAffinityGroups,
    pub domains: &'a FailureDomains,
}

/// `PlacementContext` over a simulation's fields.
macro_rules! placement_context {
    ($sim:expr) => {
        $crate::engine::pulsar::assign::PlacementContext {
            brokers: &$sim.brokers,
            load: &$sim.load,
            config: &$sim.config,
            isolation: &$sim.isolation,
            anti_affinity: &$sim.anti_affinity,
            domains: &$sim.failure_domains,
        }
    };
}
pub(crate) use placement_context;

/// The candidates of one placement.
pub(crate) struct Selection<'a> {
    /// After every filter: what the strategy chooses from (name order).
    pub cands: Vec<&'a BrokerId>,
    /// Modular: step 1's set (`applyNamespacePolicies`), which the overload
    /// re-pick uses; extensible: the same as `cands`.
    pub policy_set: Vec<&'a BrokerId>,
    /// Every alive broker.
    pub all: Vec<&'a BrokerId>,
    /// The filters' explanations.
    pub events: Vec<PlaceEvent>,
    /// Each of `cands`' load data, when the filters already read it (the
    /// strategy then does not look it up again).
    pub cand_data: Option<Vec<Option<&'a BrokerData>>>,
}

/// Push a [`PlaceEvent::Filtered`] when `after` (a sub-sequence of the sorted
/// `before`) lost brokers.
fn record(
    events: &mut Vec<PlaceEvent>,
    bundle: &BundleId,
    filter: PlacementFilter,
    before: &[&BrokerId],
    after: &[&BrokerId],
    reason: impl FnOnce() -> String,
) {
    let removed_count = before.len() - after.len();
    if removed_count == 0 {
        return;
    }
    let mut it = after.iter().peekable();
    // Both lists borrow the same broker entries: compare addresses.
    let removed = before
        .iter()
        .filter(|b| it.next_if(|a| std::ptr::eq(**a, **b)).is_none())
        .copied();
    push_filtered(
        events,
        bundle,
        filter,
        removed,
        removed_count,
        after.len(),
        reason(),
    );
}

/// Push a [`PlaceEvent::Filtered`] naming the first [`MAX_LISTED`] of `removed`
/// (in name order; `removed_count` in all), with `left` brokers kept.
pub(crate) fn push_filtered<'b>(
    events: &mut Vec<PlaceEvent>,
    bundle: &BundleId,
    filter: PlacementFilter,
    removed: impl Iterator<Item = &'b BrokerId>,
    removed_count: usize,
    left: usize,
    reason: String,
) {
    events.push(PlaceEvent::Filtered {
        bundle: bundle.clone(),
        filter,
        removed: removed.take(MAX_LISTED).cloned().collect(),
        removed_count,
        left,
        reason,
    });
}

/// Why `removeMostServicingBrokersForNamespace` removed brokers: the setting
/// that asked for it and the bundle counts of the namespace of those removed
/// (`removed`: name and count, in name order, of which there are `count`;
/// only the first [`MAX_LISTED`] are read), against the fewest, `least`.
pub(crate) fn distribute_evenly_reason<'b>(
    system_only: bool,
    removed: impl Iterator<Item = (&'b str, usize)>,
    count: usize,
    least: usize,
) -> String {
    format!(
        "{}: the brokers owning the most bundles of the namespace are removed (they own {}; the fewest is {least})",
        if system_only {
            "always for pulsar/system"
        } else {
            "loadBalancerDistributeBundlesEvenlyEnabled"
        },
        numbers_of(removed, count)
    )
}

/// Where each of `sub` (a sub-sequence of `all`, borrowing the same entries)
/// sits in `all`: one walk, comparing addresses.
fn positions(all: &[&BrokerId], sub: &[&BrokerId]) -> Vec<usize> {
    if sub.len() == all.len() {
        // A sub-sequence as long as the sequence is the sequence.
        return (0..all.len()).collect();
    }
    let mut out = Vec::with_capacity(sub.len());
    let mut i = 0;
    for b in sub {
        while i < all.len() && !std::ptr::eq(all[i], *b) {
            i += 1;
        }
        out.push(i.min(all.len().saturating_sub(1)));
    }
    out
}

/// `(broker, n)` pairs as `b1 3, b2 0` (at most [`MAX_LISTED`]).
fn numbers<'b, T: std::fmt::Display>(mut pairs: impl Iterator<Item = (&'b str, T)>) -> String {
    let first: Vec<_> = pairs.by_ref().take(MAX_LISTED).collect();
    let total = first.len() + pairs.count();
    numbers_of(first.into_iter(), total)
}

/// [`numbers`] of a sequence of `total` pairs of which `first` yields the
/// start (only its first [`MAX_LISTED`] are read).
fn numbers_of<'b, T: std::fmt::Display>(first: impl Iterator<Item = (&'b str, T)>, total: usize) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let mut listed = 0;
    for (b, n) in first.take(MAX_LISTED) {
        let _ = write!(s, "{}{b} {n}", if listed > 0 { ", " } else { "" });
        listed += 1;
    }
    if total > listed {
        let _ = write!(s, " and {} more", total - listed);
    }
    s
}

/// `LoadManagerShared.filterBrokersWithLargeTopicCount`: the candidates with at
/// most `max` topics, or all of them when none has.
pub(crate) fn filter_brokers_with_large_topic_count<'a>(
    c: &[&'a BrokerId],
    topics: &[u64],
    max: u64,
) -> Vec<&'a BrokerId> {
    let kept: Vec<&'a BrokerId> = c
        .iter()
        .zip(topics)
        .filter(|(_, t)| **t <= max)
        .map(|(b, _)| *b)
        .collect();
    if kept.is_empty() {
        c.to_vec()
    } else {
        kept
    }
}

/// `BrokerMaxTopicCountFilter`: the candidates reporting fewer than `max` topics
/// (`None`, no load data, counts 0); no fall-back.
pub(crate) fn broker_max_topic_count_filter<'a>(
    c: &[&'a BrokerId],
    topics: &[Option<u64>],
    max: u64,
) -> Vec<&'a BrokerId> {
    c.iter()
        .zip(topics)
        .filter(|(_, t)| t.unwrap_or(0) < max)
        .map(|(b, _)| *b)
        .collect()
}

/// `LoadManagerShared.removeMostServicingBrokersForNamespace`: the candidates
/// owning the fewest bundles of the namespace (`owned`, per candidate), and that
/// fewest count.
pub(crate) fn remove_most_servicing_brokers_for_namespace<'a>(
    c: &[&'a BrokerId],
    owned: &[usize],
) -> (Vec<&'a BrokerId>, usize) {
    let least = owned.iter().copied().min().unwrap_or(0);
    let kept = c
        .iter()
        .zip(owned)
        .filter(|&(_, &n)| n <= least)
        .map(|(b, _)| *b)
        .collect();
    (kept, least)
}

/// `TransferShedder.isLoadBalancerSheddingBundlesWithPoliciesEnabled`: a bundle
/// whose namespace has an isolation policy or an anti-affinity group may be
/// shed only with `loadBalancerSheddingBundlesWithPoliciesEnabled`.
pub(crate) fn shedding_allowed_with_policies(isolation: bool, anti_affinity: bool, enabled: bool) -> bool {
    !(isolation || anti_affinity) || enabled
}

fn applied_reason(a: &isolation::Applied<'_>) -> String {
    let mut s = a.explain();
    if !a.excluded.is_empty() {
        s.push_str("; ");
        s.push_str(&numbers(
            a.excluded.iter().map(|(b, why)| (b.as_str(), format!("({why})"))),
        ));
    }
    s
}

impl<'a> PlacementContext<'a> {
    fn alive(&self) -> Vec<&'a Broker> {
        self.brokers.values().filter(|b| b.alive).collect()
    }

    /// The shedding-excluded namespaces (`loadBalancerSheddingExcludedNamespaces`).
    pub fn is_shedding_excluded(&self, ns: &str) -> bool {
        self.config
            .load_balancer_shedding_excluded_namespaces
            .iter()
            .any(|n| n == ns)
    }

    /// What each alive broker owns of `ns`'s anti-affinity group (`None`: the
    /// namespace has no group). Modular counts namespaces, extensible bundles.
    fn anti_affinity_counts(
        &self,
        ns: &str,
        alive: &[&'a Broker],
    ) -> Option<(String, BTreeMap<&'a BrokerId, u32>)> {
        let group = self.anti_affinity.group_of(ns)?;
        let members = self.anti_affinity.members(group);
        let per_bundle = self.config.load_manager_class_name == LoadManager::Extensible;
        let counts =
            anti_affinity::owned_counts(&members, alive.iter().map(|b| (&b.id, &b.bundles)), per_bundle);
        Some((group.to_string(), counts))
    }

    /// The anti-affinity step over `c`.
    fn anti_affinity_step(
        &self,
        bid: &BundleId,
        alive: &[&'a Broker],
        filter: PlacementFilter,
        c: &mut Vec<&'a BrokerId>,
        ev: &mut Vec<PlaceEvent>,
    ) {
        let Some((group, counts)) = self.anti_affinity_counts(&bid.namespace, alive) else {
            return;
        };
        let before = c.clone();
        let domains = self.domains.broker_to_domain(self.config.failure_domains_enabled);
        let f = anti_affinity::filter_anti_affinity_group_owned_brokers(c, &counts, &domains);
        record(ev, bid, filter, &before, c, || {
            let unit = if self.config.load_manager_class_name == LoadManager::Extensible {
                "bundles"
            } else {
                "namespaces"
            };
            let owned = numbers(
                before
                    .iter()
                    .map(|b| (b.as_str(), counts.get(*b).copied().unwrap_or(0))),
            );
            let domains = if f.domain_counts.is_empty() {
                String::new()
            } else {
                format!(
                    "; failure domains {}: keep the domain(s) with {}",
                    numbers(f.domain_counts.iter().map(|(d, n)| (d.as_str(), *n))),
                    f.least_domain.unwrap_or(0)
                )
            };
            format!(
                "anti-affinity group {group}: {unit} of the group owned per broker {owned}{domains}; keep the brokers owning {}",
                f.least
            )
        });
    }

    /// The candidates as the configured load manager filters them for `bid`.
    pub fn select(&self, bid: &BundleId) -> Selection<'a> {
        match self.config.load_manager_class_name {
            LoadManager::Modular => self.modular(bid),
            LoadManager::Extensible => self.extensible(bid),
        }
    }

    fn modular(&self, bid: &BundleId) -> Selection<'a> {
        let alive = self.alive();
        let all: Vec<&'a BrokerId> = alive.iter().map(|b| &b.id).collect();
        let mut ev = Vec::new();
        let ns = bid.namespace.as_str();
        // 1. applyNamespacePolicies (the persistent-topics flag is in the report).
        let data = join_sorted(&all, &self.load.brokers);
        let applied = isolation::apply_namespace_policies(
            self.isolation,
            ns,
            all.iter().zip(&data).map(|(b, d)| (*b, d.is_some())),
        );
        let policy_set = applied.candidates.clone();
        record(
            &mut ev,
            bid,
            PlacementFilter::ApplyNamespacePolicies,
            &all,
            &policy_set,
            || applied_reason(&applied),
        );
        let mut c = policy_set.clone();
        // 2. filterBrokersWithLargeTopicCount.
        let max_topics = u64::from(self.config.load_balancer_broker_max_topics);
        let topics_of = |d: Option<&BrokerData>| -> u64 {
            d.map_or(0, |d| u64::from(d.local.num_topics) + d.preallocated.topics())
        };
        let at = positions(&all, &c);
        let topics: Vec<u64> = at.iter().map(|&i| topics_of(data[i])).collect();
        let kept = filter_brokers_with_large_topic_count(&c, &topics, max_topics);
        {
            record(
                &mut ev,
                bid,
                PlacementFilter::FilterBrokersWithLargeTopicCount,
                &c,
                &kept,
                || {
                    format!(
                        "topics incl. preallocated bundles > loadBalancerBrokerMaxTopics {max_topics}: {}",
                        numbers(
                            c.iter()
                                .zip(&topics)
                                .filter(|(_, t)| **t > max_topics)
                                .map(|(b, t)| (b.as_str(), *t))
                        )
                    )
                },
            );
            c = kept;
        }
        // 3. filterAntiAffinityGroupOwnedBrokers.
        self.anti_affinity_step(
            bid,
            &alive,
            PlacementFilter::FilterAntiAffinityGroupOwnedBrokers,
            &mut c,
            &mut ev,
        );
        // 4. removeMostServicingBrokersForNamespace.
        let system = ns == SYSTEM_NAMESPACE;
        if self.config.load_balancer_distribute_bundles_evenly_enabled || system {
            let owned: Vec<usize> = positions(&all, &c)
                .into_iter()
                .map(|i| alive[i].bundles_in_namespace(&bid.namespace))
                .collect();
            let (kept, least) = remove_most_servicing_brokers_for_namespace(&c, &owned);
            record(
                &mut ev,
                bid,
                PlacementFilter::RemoveMostServicingBrokersForNamespace,
                &c,
                &kept,
                || {
                    distribute_evenly_reason(
                        system && !self.config.load_balancer_distribute_bundles_evenly_enabled,
                        c.iter()
                            .zip(&owned)
                            .filter(|&(_, &n)| n > least)
                            .map(|(b, n)| (b.as_str(), *n)),
                        c.len() - kept.len(),
                        least,
                    )
                },
            );
            c = kept;
        }
        // 5. the filter pipeline removes nothing; 6. an empty set is step 1's set
        // again, which is then empty too.
        let cand_data = Some(positions(&all, &c).into_iter().map(|i| data[i]).collect());
        Selection {
            cands: c,
            policy_set,
            all,
            events: ev,
            cand_data,
        }
    }

    fn extensible(&self, bid: &BundleId) -> Selection<'a> {
        let alive = self.alive();
        let all: Vec<&'a BrokerId> = alive.iter().map(|b| &b.id).collect();
        let mut ev = Vec::new();
        let mut c = all.clone();
        // BrokerMaxTopicCountFilter: the reported topic count (0 without data).
        let max_topics = u64::from(self.config.load_balancer_broker_max_topics);
        let topics: Vec<Option<u64>> = join_sorted(&c, &self.load.brokers)
            .into_iter()
            .map(|d| d.map(|d| u64::from(d.local.num_topics)))
            .collect();
        let kept = broker_max_topic_count_filter(&c, &topics, max_topics);
        record(
            &mut ev,
            bid,
            PlacementFilter::BrokerMaxTopicCountFilter,
            &c,
            &kept,
            || {
                format!(
                    "reported topics ≥ loadBalancerBrokerMaxTopics {max_topics}, no fall-back: {}",
                    numbers(
                        c.iter()
                            .zip(&topics)
                            .filter(|(_, t)| t.unwrap_or(0) >= max_topics)
                            .map(|(b, t)| (b.as_str(), t.unwrap_or(0)))
                    )
                )
            },
        );
        c = kept;
        // AntiAffinityGroupPolicyFilter.
        self.anti_affinity_step(
            bid,
            &alive,
            PlacementFilter::AntiAffinityGroupPolicyFilter,
            &mut c,
            &mut ev,
        );
        // BrokerIsolationPoliciesFilter over the brokers still left (registry data:
        // every registered broker accepts persistent topics).
        let applied =
            isolation::apply_namespace_policies(self.isolation, &bid.namespace, c.iter().map(|b| (*b, true)));
        record(
            &mut ev,
            bid,
            PlacementFilter::BrokerIsolationPoliciesFilter,
            &c,
            &applied.candidates,
            || applied_reason(&applied),
        );
        let c = applied.candidates;
        Selection {
            policy_set: c.clone(),
            cands: c,
            all,
            events: ev,
            cand_data: None,
        }
    }

    /// `ModularLoadManagerImpl.shouldNamespacePoliciesUnload`: `Err(why)` when no
    /// broker but `current` satisfies the namespace policies.
    pub fn should_namespace_policies_unload(
        &self,
        bid: &BundleId,
        current: &BrokerId,
    ) -> Result<(), PolicyRefusal> {
        // With no isolation policy at all the candidates are the alive brokers with
        // a load report: finding one besides `current` is enough (the shedder asks
        // this of every bundle it picks, and listing 1,000 brokers each time was
        // most of a round). Without one, the whole check below says why.
        if self.isolation.is_empty()
            && self
                .brokers
                .iter()
                .any(|(id, b)| b.alive && id != current && self.load.brokers.contains_key(id))
        {
            return Ok(());
        }
        self.namespace_policies_check(bid, current)
    }

    /// [`Self::should_namespace_policies_unload`] worked out in full: every alive
    /// broker through `applyNamespacePolicies`.
    fn namespace_policies_check(&self, bid: &BundleId, current: &BrokerId) -> Result<(), PolicyRefusal> {
        let alive = self.alive();
        let all: Vec<&BrokerId> = alive.iter().map(|b| &b.id).collect();
        let data = join_sorted(&all, &self.load.brokers);
        let applied = isolation::apply_namespace_policies(
            self.isolation,
            &bid.namespace,
            all.iter().zip(&data).map(|(b, d)| (*b, d.is_some())),
        );
        if applied.candidates.iter().any(|b| *b != current) {
            Ok(())
        } else {
            Err(PolicyRefusal::NoOtherPolicyBroker {
                current: current.clone(),
                policies: applied.explain(),
            })
        }
    }

    /// `ModularLoadManagerImpl.shouldAntiAffinityNamespaceUnload`: `Err(why)` when
    /// the bundle would come straight back (see [`super::anti_affinity`]).
    pub fn should_anti_affinity_namespace_unload(
        &self,
        bid: &BundleId,
        current: &BrokerId,
    ) -> Result<(), PolicyRefusal> {
        // No group, nothing to check (before listing the alive brokers).
        if self.anti_affinity.group_of(&bid.namespace).is_none() {
            return Ok(());
        }
        let alive = self.alive();
        let Some((group, counts)) = self.anti_affinity_counts(&bid.namespace, &alive) else {
            return Ok(());
        };
        let all: Vec<&BrokerId> = alive.iter().map(|b| &b.id).collect();
        let data = join_sorted(&all, &self.load.brokers);
        let applied = isolation::apply_namespace_policies(
            self.isolation,
            &bid.namespace,
            all.iter().zip(&data).map(|(b, d)| (*b, d.is_some())),
        );
        if anti_affinity::should_anti_affinity_namespace_unload(current, &applied.candidates, Some(&counts)) {
            Ok(())
        } else {
            Err(PolicyRefusal::AntiAffinityWouldReturn {
                group,
                current: current.clone(),
                owned: applied
                    .candidates
                    .iter()
                    .take(MAX_LISTED)
                    .map(|b| ((*b).clone(), counts.get(*b).copied().unwrap_or(0)))
                    .collect(),
                candidates: applied.candidates.len(),
            })
        }
    }

    /// The modular manager's checks before it unloads a shed bundle
    /// (`doLoadShedding`): shedding-excluded namespace, namespace policies,
    /// anti-affinity. `Err(why)` keeps the bundle where it is.
    pub fn modular_may_unload(&self, bid: &BundleId, current: &BrokerId) -> Result<(), PolicyRefusal> {
        if self.is_shedding_excluded(&bid.namespace) {
            return Err(PolicyRefusal::ExcludedNamespace {
                namespace: bid.namespace.as_str().to_string(),
            });
        }
        self.should_namespace_policies_unload(bid, current)?;
        self.should_anti_affinity_namespace_unload(bid, current)
    }

    /// Whether `bid`'s namespace has an isolation policy or an anti-affinity group.
    fn has_policies(&self, ns: &str) -> bool {
        self.isolation.policy_for(ns).is_some() || self.anti_affinity.group_of(ns).is_some()
    }
}

impl SheddingPolicies for PlacementContext<'_> {
    /// `TopKBundles.update`: bundles of shedding-excluded namespaces, and (unless
    /// `loadBalancerSheddingBundlesWithPoliciesEnabled`) of namespaces with an
    /// isolation policy or an anti-affinity group, are left out of the report.
    fn in_top_bundles(&self, bundle: &BundleId) -> bool {
        !self.is_shedding_excluded(&bundle.namespace)
            && (self.config.load_balancer_shedding_bundles_with_policies_enabled
                || !self.has_policies(&bundle.namespace))
    }

    /// `TransferShedder.isTransferable`: the bundle's policies must allow moving
    /// it, the destination must pass the whole filter pipeline for it, and some
    /// candidate other than the source must remain (unload) or the destination be
    /// one (transfer).
    fn is_transferable(
        &self,
        bundle: &BundleId,
        src: &BrokerId,
        dst: &BrokerId,
    ) -> Result<(), PolicyRefusal> {
        let ns = bundle.namespace.as_str();
        if !shedding_allowed_with_policies(
            self.isolation.policy_for(ns).is_some(),
            self.anti_affinity.group_of(ns).is_some(),
            self.config.load_balancer_shedding_bundles_with_policies_enabled,
        ) {
            return Err(PolicyRefusal::WithPolicies);
        }
        let sel = self.extensible(bundle);
        if !sel.cands.contains(&dst) {
            return Err(PolicyRefusal::FilteredOut {
                destination: dst.clone(),
                filters: sel.events,
            });
        }
        let others: Vec<&&BrokerId> = sel.cands.iter().filter(|b| **b != src).collect();
        let ok = if self.config.load_balancer_transfer_enabled {
            others.iter().any(|b| **b == dst)
        } else {
            !others.is_empty()
        };
        if ok {
            Ok(())
        } else {
            Err(PolicyRefusal::NoOtherCandidate { source: src.clone() })
        }
    }
}

impl Sim {
    /// A client lookup of `bid`: if it has no owner, choose one and assign it.
    pub(crate) fn lookup_bundle(&mut self, bid: &BundleId, ev: &mut Vec<Event>) {
        let Some(st) = self.bundles.get(bid) else {
            return;
        };
        if !st.awaits_lookup() {
            return;
        }
        let had_plan = st.planned.clone();
        let affinity_of = st.affinity.clone();
        let ctx = placement_context!(self);
        let sel = ctx.select(bid);
        let excluded = ctx.is_shedding_excluded(&bid.namespace);
        ev.extend(sel.events.into_iter().map(Event::Place));
        let (cands, policy_set, all, cand_data) = (sel.cands, sel.policy_set, sel.all, sel.cand_data);
        if all.is_empty() {
            ev.push(Event::NoBrokerAvailable { bundle: bid.clone() });
            return;
        }
        let modular = self.config.load_manager_class_name == LoadManager::Modular;
        let affinity = affinity_of.filter(|b| all.contains(&b));
        let planned = had_plan.clone().filter(|b| {
            self.effective.load_balancer_load_placement_strategy == PlacementStrategy::AvgShedder
                && cands.contains(&b)
        });
        let discarded_plan = had_plan.is_some() && planned.is_none();
        let (chosen, how) = if let Some(a) = affinity {
            (Some(a), "unload destination (-d)".to_string())
        } else if let Some(p) = planned {
            (Some(p), "AvgShedder's planned destination".to_string())
        } else {
            if discarded_plan {
                ev.push(Event::Warning {
                    message: format!(
                        "{bid}: planned destination {} not used (filtered out or placement is not AvgShedder)",
                        had_plan.as_ref().map_or("-", |b| b.as_str())
                    ),
                });
            }
            let (mut pick, mut how) = if excluded {
                let pick = self.placer.round_robin.select(&cands).map(|(b, index)| {
                    ev.push(Event::Place(PlaceEvent::RoundRobin {
                        bundle: bid.clone(),
                        broker: b.clone(),
                        index,
                        candidates: cands.len(),
                    }));
                    b
                });
                (
                    pick,
                    "RoundRobinBrokerSelector (loadBalancerSheddingExcludedNamespaces)".to_string(),
                )
            } else {
                let (pick, pev) = self.placer.select_among(
                    &cands,
                    cand_data.as_deref(),
                    bid,
                    &self.load,
                    &self.effective,
                    &mut self.rng,
                );
                ev.extend(pev.into_iter().map(Event::Place));
                (
                    pick,
                    format!("{:?}", self.effective.load_balancer_load_placement_strategy),
                )
            };
            if modular {
                if let Some(p) = pick.clone() {
                    match self.load.brokers.get(&p) {
                        None => {
                            // Pulsar reads the winner's load data for the overload
                            // check and the preallocation: it throws.
                            ev.push(Event::Place(PlaceEvent::MissingLoadData {
                                strategy: "ModularLoadManagerImpl.selectBroker (overload check)".into(),
                                bundle: bid.clone(),
                                brokers: vec![p],
                            }));
                            pick = None;
                        }
                        Some(d) => {
                            let threshold =
                                self.config.load_balancer_broker_overloaded_threshold_percentage / 100.0;
                            let usage = d.local.max_resource_usage_with_weight(&weights(&self.config));
                            if usage > threshold {
                                let (again, pev) = self.placer.select_among(
                                    &policy_set,
                                    None,
                                    bid,
                                    &self.load,
                                    &self.effective,
                                    &mut self.rng,
                                );
                                ev.extend(pev.into_iter().map(Event::Place));
                                how = format!(
                                    "{how}; first pick {p} was overloaded ({:.1}% > {:.1}%), re-picked among the {} brokers the namespace policies allow",
                                    usage * 100.0,
                                    threshold * 100.0,
                                    policy_set.len()
                                );
                                if let Some(a) = again {
                                    pick = Some(a);
                                }
                            }
                        }
                    }
                }
                if let Some(p) = pick.clone() {
                    if !self.load.brokers.contains_key(&p) {
                        ev.push(Event::Place(PlaceEvent::MissingLoadData {
                            strategy: "ModularLoadManagerImpl.preallocateBundle".into(),
                            bundle: bid.clone(),
                            brokers: vec![p],
                        }));
                        pick = None;
                    }
                }
            }
            (pick, how)
        };
        let n_cands = (cands.len(), all.len());
        let Some(owner) = chosen else {
            ev.push(Event::NoBrokerAvailable { bundle: bid.clone() });
            return;
        };
        self.finish_lookup(bid, owner, n_cands, how, ev);
    }

    /// The end of a lookup that picked `owner`: assign `bid` to it, forget the
    /// bundle's unload destination and planned destination, and say so
    /// (`candidates`: after the filters, and alive).
    pub(crate) fn finish_lookup(
        &mut self,
        bid: &BundleId,
        owner: BrokerId,
        candidates: (usize, usize),
        how: String,
        ev: &mut Vec<Event>,
    ) {
        self.assign_to(bid, &owner, ev);
        if let Some(st) = self.bundles.get_mut(bid) {
            st.planned = None;
            st.affinity = None;
        }
        ev.push(Event::Lookup {
            bundle: bid.clone(),
            broker: owner,
            candidates,
            how,
        });
    }

    /// Make `owner` own `bid` (Assigning -> Owned) and preallocate its data.
    pub(crate) fn assign_to(&mut self, bid: &BundleId, owner: &BrokerId, ev: &mut Vec<Event>) {
        let state = self.bundles.get(bid).map(|s| s.ownership.state);
        if state == Some(ServiceUnitState::Owned) {
            return;
        }
        if matches!(state, Some(ServiceUnitState::Init | ServiceUnitState::Free)) {
            self.transition(
                bid,
                ServiceUnitState::Assigning,
                Some(owner.clone()),
                None,
                false,
                ev,
            );
        }
        self.transition(bid, ServiceUnitState::Owned, Some(owner.clone()), None, false, ev);
        let data = self
            .load
            .bundles
            .get(bid)
            .copied()
            .unwrap_or_else(BundleData::default_for_new_bundle);
        if let Some(d) = self.load.brokers.get_mut(owner) {
            d.preallocated.insert(bid.clone(), data);
        }
        self.counters.assignments += 1;
    }

    /// Phase: clients look up every unowned bundle that has topics.
    pub fn assign_phase(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        self.assign_into(&mut ev);
        ev
    }

    /// [`Sim::assign_phase`], appending its events to `ev`.
    pub(crate) fn assign_into(&mut self, ev: &mut Vec<Event>) {
        // The unowned bundles with topics that are not in flight, in name order.
        let todo: Vec<BundleId> = self
            .unowned
            .iter()
            .filter(|b| {
                self.bundles
                    .get(*b)
                    .is_some_and(|s| !s.ownership.state.is_in_flight())
            })
            .cloned()
            .collect();
        debug_assert_eq!(
            todo,
            self.bundles
                .iter()
                .filter(|(_, s)| s.topics > 0 && s.owner().is_none() && !s.ownership.state.is_in_flight())
                .map(|(b, _)| b.clone())
                .collect::<Vec<_>>(),
            "the unowned set is out of step with the bundles"
        );
        self.lookup_bundles(&todo, ev);
    }
}

#[cfg(test)]
mod tests {
    use super::super::bundle::BundleRange;
    use super::super::isolation::{AutoFailoverPolicy, UnloadScope};
    use super::super::{Action, Config, Sim};
    use super::*;
    use crate::engine::Engine;

    fn ids(v: &[&str]) -> Vec<BrokerId> {
        v.iter().map(|b| BrokerId::from(b.to_string())).collect()
    }

    fn names(v: &[&BrokerId]) -> Vec<String> {
        v.iter().map(|b| b.0.to_string()).collect()
    }

    fn sim(lm: LoadManager, brokers: &[&str]) -> Sim {
        let c = Config {
            load_manager_class_name: lm,
            ..Config::default()
        };
        let mut s = Sim::new(c, 7).unwrap();
        for b in brokers {
            s.apply(&Action::AddBroker {
                broker: b.to_string(),
                capacity: Default::default(),
            })
            .unwrap();
        }
        s
    }

    fn set_policy(s: &mut Sim, ns: &str, primary: &[&str], secondary: &[&str], min_limit: u32) {
        let v = |x: &[&str]| x.iter().map(|y| y.to_string()).collect::<Vec<_>>();
        s.apply(&Action::NsIsolationPolicySet {
            policy: "my-ns-isolation-policies".into(),
            namespaces: vec![ns.into()],
            primary: v(primary),
            secondary: v(secondary),
            auto_failover_policy: AutoFailoverPolicy::MinAvailable {
                min_limit,
                usage_threshold: 80,
            },
            unload_scope: Some(UnloadScope::None),
        })
        .unwrap();
    }

    fn bundle(ns: &str) -> BundleId {
        BundleId {
            namespace: ns.into(),
            range: BundleRange::FULL,
        }
    }

    /// Mirrors `LoadManagerSharedTest.testRemoveMostServicingBrokersForNamespace`;
    /// expected sets from its assertions.
    #[test]
    fn load_manager_shared_test_test_remove_most_servicing_brokers_for_namespace() {
        let b = ids(&["broker1", "broker2", "broker3"]);
        let run = |c: &[&BrokerId], owned: &[usize]| {
            names(&remove_most_servicing_brokers_for_namespace(c, owned).0)
        };
        assert!(run(&[], &[]).is_empty());
        assert_eq!(run(&[&b[0]], &[0]), ["broker1"]);
        // broker1 owns 1 bundle of the namespace.
        assert_eq!(run(&[&b[0]], &[1]), ["broker1"]);
        assert_eq!(run(&[&b[0], &b[1]], &[1, 0]), ["broker2"]);
        // broker2 gets one too.
        assert_eq!(run(&[&b[0], &b[1]], &[1, 1]), ["broker1", "broker2"]);
        // broker2 gets a second one.
        assert_eq!(run(&[&b[0], &b[1]], &[1, 2]), ["broker1"]);
        // broker3 gets one.
        assert_eq!(run(&[&b[0], &b[1], &b[2]], &[1, 2, 1]), ["broker1", "broker3"]);
    }

    /// Mirrors `BrokerMaxTopicCountFilterTest.test`: broker1 at the maximum and
    /// broker3 at twice it are removed, broker2 (0 topics) and broker4 (no load
    /// data) stay; expected set from its assertion.
    #[test]
    fn broker_max_topic_count_filter_test_test() {
        let b = ids(&["broker1", "broker2", "broker3", "broker4"]);
        let c: Vec<&BrokerId> = b.iter().collect();
        let max = 50_000;
        let kept = broker_max_topic_count_filter(&c, &[Some(max), Some(0), Some(2 * max), None], max);
        assert_eq!(names(&kept), ["broker2", "broker4"]);
        // No fall-back: everyone at the maximum leaves nobody.
        assert!(broker_max_topic_count_filter(&c[..1], &[Some(max)], max).is_empty());
        // The modular filter keeps brokers at the maximum and falls back to all
        // (derived by reading LoadManagerShared.filterBrokersWithLargeTopicCount).
        let kept = filter_brokers_with_large_topic_count(&c, &[max, 0, 2 * max, 0], max);
        assert_eq!(names(&kept), ["broker1", "broker2", "broker4"]);
        let kept = filter_brokers_with_large_topic_count(&c[2..3], &[2 * max], max);
        assert_eq!(names(&kept), ["broker3"]);
    }

    /// Mirrors `TransferShedderTest.testIsLoadBalancerSheddingBundlesWithPoliciesEnabled`:
    /// its table of (isolation policy, anti-affinity group, flag) -> allowed.
    #[test]
    fn transfer_shedder_test_test_is_load_balancer_shedding_bundles_with_policies_enabled() {
        let expects = [
            (true, true, true, true),
            (true, true, false, false),
            (true, false, true, true),
            (true, false, false, false),
            (false, true, true, true),
            (false, true, false, false),
            (false, false, true, true),
            (false, false, false, true),
        ];
        for (iso, aa, flag, want) in expects {
            assert_eq!(
                shedding_allowed_with_policies(iso, aa, flag),
                want,
                "{iso} {aa} {flag}"
            );
        }
    }

    /// The primary / secondary / shared cases of
    /// `ModularLoadManagerImplTest.testNamespaceIsolationPoliciesForPrimaryAndSecondaryBrokers`
    /// and `BrokerIsolationPoliciesFilterTest.testFilterWithNamespaceIsolationPoliciesForPrimaryAndSecondaryBrokers`
    /// (the same table): primary broker1, secondary broker2, shared broker3;
    /// expected candidate sets from their assertions.
    fn primary_secondary_cases(lm: LoadManager) {
        let mut s = sim(lm, &["broker1", "broker2", "broker3"]);
        // A legacy namespace name, as the modular test uses.
        s.apply(&Action::CreateNamespace {
            namespace: "my-property/use/my-ns".into(),
            bundles: Some(1),
        })
        .unwrap();
        let cands = |s: &Sim, alive: &[&str]| {
            let mut s = s.clone();
            for b in ["broker1", "broker2", "broker3"] {
                if !alive.contains(&b) {
                    s.brokers.get_mut(&BrokerId(b.into())).unwrap().alive = false;
                }
            }
            let ctx = placement_context!(s);
            names(&ctx.select(&bundle("my-property/use/my-ns")).cands)
        };
        set_policy(&mut s, "my-property/use/my-ns.*", &["broker1"], &["broker2"], 1);
        assert_eq!(
            cands(&s, &["broker1", "broker2", "broker3"]),
            ["broker1"],
            "{lm:?}"
        );
        assert_eq!(cands(&s, &["broker2", "broker3"]), ["broker2"], "{lm:?}");
        assert!(cands(&s, &["broker3"]).is_empty(), "{lm:?}");
        set_policy(&mut s, "my-property/use/my-ns.*", &["broker1"], &["broker2"], 2);
        assert_eq!(
            cands(&s, &["broker1", "broker2", "broker3"]),
            ["broker1", "broker2"],
            "{lm:?}"
        );
        assert_eq!(cands(&s, &["broker2", "broker3"]), ["broker2"], "{lm:?}");
        assert!(cands(&s, &["broker3"]).is_empty(), "{lm:?}");
        // Another namespace may only use the shared brokers: broker3, and broker2,
        // which is only a secondary (derived by reading isSharedBroker).
        s.apply(&Action::CreateNamespace {
            namespace: "other/ns".into(),
            bundles: Some(1),
        })
        .unwrap();
        let ctx = placement_context!(s);
        assert_eq!(
            names(&ctx.select(&bundle("other/ns")).cands),
            ["broker2", "broker3"],
            "{lm:?}"
        );
    }

    #[test]
    fn modular_load_manager_impl_test_test_namespace_isolation_policies_for_primary_and_secondary_brokers() {
        primary_secondary_cases(LoadManager::Modular);
    }

    #[test]
    fn broker_isolation_policies_filter_test_test_filter_with_namespace_isolation_policies_for_primary_and_secondary_brokers(
    ) {
        primary_secondary_cases(LoadManager::Extensible);
    }

    /// Mirrors `ModularLoadManagerImplTest.testLoadSheddingWithNamespaceIsolationPolicies`:
    /// `shouldNamespacePoliciesUnload` is true without a policy, false when only
    /// the current broker satisfies it, true when another broker does.
    #[test]
    fn modular_load_manager_impl_test_test_load_shedding_with_namespace_isolation_policies() {
        let mut s = sim(LoadManager::Modular, &["broker", "broker1"]);
        s.apply(&Action::CreateNamespace {
            namespace: "my-tenant/use/my-ns".into(),
            bundles: Some(1),
        })
        .unwrap();
        let b = bundle("my-tenant/use/my-ns");
        let ctx = placement_context!(s);
        assert!(ctx
            .should_namespace_policies_unload(&b, &BrokerId("broker".into()))
            .is_ok());
        set_policy(&mut s, "my-tenant/use/my-ns.*", &["broker1"], &["broker1"], 1);
        let ctx = placement_context!(s);
        let e = ctx.should_namespace_policies_unload(&b, &BrokerId("broker1".into()));
        assert!(e.unwrap_err().to_string().contains("no broker but broker1"));
        set_policy(&mut s, "my-tenant/use/my-ns.*", &["broker"], &["broker"], 1);
        let ctx = placement_context!(s);
        assert!(ctx
            .should_namespace_policies_unload(&b, &BrokerId("broker1".into()))
            .is_ok());
    }

    /// Without any isolation policy the namespace-policy check stops at the first
    /// alive broker with a load report besides the current one: it answers as
    /// the whole check does (and, when it refuses, says the same), with brokers
    /// crashed, unreported and reported, from each broker's side.
    #[test]
    fn the_policy_check_without_policies_answers_as_the_whole_check() {
        let cases: [&[Action]; 4] = [
            &[],
            &[Action::CrashBroker { broker: "b2".into() }],
            &[
                Action::CrashBroker { broker: "b2".into() },
                Action::CrashBroker { broker: "b3".into() },
            ],
            &[
                Action::CrashBroker { broker: "b3".into() },
                Action::AddUnreportedBroker {
                    broker: "b4".into(),
                    capacity: Default::default(),
                },
            ],
        ];
        let mut refused = 0;
        for (k, case) in cases.iter().enumerate() {
            let mut s = sim(LoadManager::Modular, &["b1", "b2", "b3"]);
            for a in *case {
                s.apply(a).unwrap();
            }
            let b = bundle("public/default");
            let ctx = placement_context!(s);
            assert!(ctx.isolation.is_empty());
            for cur in ["b1", "b2", "b3", "b4", "nobody"] {
                let cur = BrokerId::from(cur);
                let quick = ctx.should_namespace_policies_unload(&b, &cur);
                assert_eq!(
                    quick,
                    ctx.namespace_policies_check(&b, &cur),
                    "case {k}, current {cur}"
                );
                refused += usize::from(quick.is_err());
            }
        }
        assert!(refused > 0, "a lone reported broker is refused");
    }

    /// Mirrors `TopKBundlesTest.testIsolationPolicy` and
    /// `testAntiAffinityGroupPolicy`: a bundle of a namespace with a policy is left
    /// out of the top-bundles report unless
    /// `loadBalancerSheddingBundlesWithPoliciesEnabled`; so is one of a
    /// shedding-excluded namespace (PIP-380).
    #[test]
    fn top_k_bundles_test_policies_leave_bundles_out() {
        let mut s = sim(LoadManager::Extensible, &["b1", "b2"]);
        for ns in [
            "my-tenant/my-namespace1",
            "my-tenant/my-namespace2",
            "my-tenant/my-namespace3",
        ] {
            s.apply(&Action::CreateNamespace {
                namespace: ns.into(),
                bundles: Some(1),
            })
            .unwrap();
        }
        set_policy(&mut s, "my-tenant/my-namespace1.*", &["b1"], &[], 1);
        s.apply(&Action::SetAntiAffinityGroup {
            namespace: "my-tenant/my-namespace2".into(),
            group: "g".into(),
        })
        .unwrap();
        let (b1, b2, b3) = (
            bundle("my-tenant/my-namespace1"),
            bundle("my-tenant/my-namespace2"),
            bundle("my-tenant/my-namespace3"),
        );
        let ctx = placement_context!(s);
        assert!(!ctx.in_top_bundles(&b1));
        assert!(!ctx.in_top_bundles(&b2));
        assert!(ctx.in_top_bundles(&b3));
        let mut c = s.config.clone();
        c.load_balancer_shedding_bundles_with_policies_enabled = true;
        c.load_balancer_shedding_excluded_namespaces = vec!["my-tenant/my-namespace3".into()];
        s.apply(&Action::whole_config(&c)).unwrap();
        let ctx = placement_context!(s);
        assert!(ctx.in_top_bundles(&b1));
        assert!(ctx.in_top_bundles(&b2));
        assert!(!ctx.in_top_bundles(&b3));
    }

    /// Mirrors `AntiAffinityNamespaceGroupTest.testLoadSheddingWithAntiAffinityNamespace`:
    /// the only namespace of its group, owned by one of two brokers, may be shed.
    #[test]
    fn anti_affinity_namespace_group_test_test_load_shedding_with_anti_affinity_namespace() {
        let mut s = sim(LoadManager::Modular, &["primary", "secondary"]);
        for i in 0..5 {
            let ns = format!("my-tenant/test/my-ns-load-shedding{i}");
            s.apply(&Action::CreateNamespace {
                namespace: ns.clone(),
                bundles: Some(1),
            })
            .unwrap();
            s.apply(&Action::SetAntiAffinityGroup {
                namespace: ns,
                group: "my-antiaffinity-load-shedding".into(),
            })
            .unwrap();
        }
        s.apply(&Action::CreateTopic {
            topic: "persistent://my-tenant/test/my-ns-load-shedding0/my-topic1".into(),
        })
        .unwrap();
        let b = bundle("my-tenant/test/my-ns-load-shedding0");
        let owner = s.bundles[&b].owner().unwrap().clone();
        let ctx = placement_context!(s);
        assert!(ctx.should_anti_affinity_namespace_unload(&b, &owner).is_ok());
        assert!(ctx.modular_may_unload(&b, &owner).is_ok());
    }
}
