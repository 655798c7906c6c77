//! Bundle placement: which broker gets an unowned bundle (`ModularLoadManagerStrategy`
//! and the extensible load manager's broker selection).
//!
//! One file per strategy: [`least_long_term_message_rate`],
//! [`least_resource_usage_with_weight`] (modular and extensible variants, chosen
//! by `loadManagerClassName`), [`avg`] (AvgShedder's planned destinations) and
//! [`round_robin`] (the namespaces of `loadBalancerSheddingExcludedNamespaces`).
//! The candidate filters that run before a strategy live in `assign`; each one
//! that removes brokers says so with a [`PlaceEvent::Filtered`].
//!
//! Deterministic rules: candidates are de-duplicated and visited in ascending
//! name order (Pulsar: a hash set); where Pulsar picks at random among equally
//! good brokers (`ThreadLocalRandom`), lbscope draws `rng.below(n)` over that
//! ordered list, so a seed replays the same choices.
//!
//! Interface for the simulation, beyond [`Placer::select_broker`]:
//! * [`Placer::plan`]: hand it the shedder's unloads after each shedding pass, so
//!   AvgShedder placement sends each bundle to its planned destination (Pulsar
//!   shares one AvgShedder object between shedding and placement);
//! * [`Placer::observe_reports`]: in extensible mode, call once per load-report
//!   round so the brokers' `weightedMaxEMA` moves as Pulsar's does.

pub mod round_robin;
pub mod strategy;
pub mod why;

use super::config::{Config, SheddingStrategy};
use super::ids::{BrokerId, BundleId};
use super::load::{BrokerData, LoadData};
use super::shed::{BrokerLoadEma, Unload};
use crate::sort::StableSort;
pub use strategy::{BrokerSelectionStrategy, PlaceContext};

crate::engine::strategy::registry! {
    /// Bundle placement strategy (`loadBalancerLoadPlacementStrategy`): the
    /// registry of placements, one line each. A line names the config value,
    /// the strategy's file (also the field that holds its history in
    /// [`Placements`]) and its type (which implements [`BrokerSelectionStrategy`] and has `fn about()`).
    pub enum PlacementStrategy;
    key "loadBalancerLoadPlacementStrategy";
    /// One value of each registered placement strategy, with its history.
    pub struct Placements: dyn BrokerSelectionStrategy;
    /// The 4.x default.
    #[default]
    LeastLongTermMessageRate => mod least_long_term_message_rate::LeastLongTermMessageRate,
    LeastResourceUsageWithWeight => mod least_resource_usage_with_weight::LeastResourceUsageWithWeight,
    /// AvgShedder used as a placement strategy (its planned destinations; the 5.0 default).
    AvgShedder => mod avg::AvgShedder,
}
use crate::engine::{Narrate, SimRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Most broker names an event lists (the rest are counted).
pub const MAX_LISTED: usize = 20;

/// A candidate filter, named as Pulsar names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlacementFilter {
    /// Modular: `LoadManagerShared.applyNamespacePolicies` (isolation policies,
    /// shared brokers, brokers without a load report).
    ApplyNamespacePolicies,
    /// Modular: `LoadManagerShared.filterBrokersWithLargeTopicCount`.
    FilterBrokersWithLargeTopicCount,
    /// Modular: `LoadManagerShared.filterAntiAffinityGroupOwnedBrokers`.
    FilterAntiAffinityGroupOwnedBrokers,
    /// Modular: `LoadManagerShared.removeMostServicingBrokersForNamespace`.
    RemoveMostServicingBrokersForNamespace,
    /// Extensible: `BrokerMaxTopicCountFilter`.
    BrokerMaxTopicCountFilter,
    /// Extensible: `AntiAffinityGroupPolicyFilter`.
    AntiAffinityGroupPolicyFilter,
    /// Extensible: `BrokerIsolationPoliciesFilter`.
    BrokerIsolationPoliciesFilter,
}

impl fmt::Display for PlacementFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlacementFilter::ApplyNamespacePolicies => "LoadManagerShared.applyNamespacePolicies",
            PlacementFilter::FilterBrokersWithLargeTopicCount => {
                "LoadManagerShared.filterBrokersWithLargeTopicCount"
            }
            PlacementFilter::FilterAntiAffinityGroupOwnedBrokers => {
                "LoadManagerShared.filterAntiAffinityGroupOwnedBrokers"
            }
            PlacementFilter::RemoveMostServicingBrokersForNamespace => {
                "LoadManagerShared.removeMostServicingBrokersForNamespace"
            }
            PlacementFilter::BrokerMaxTopicCountFilter => "BrokerMaxTopicCountFilter",
            PlacementFilter::AntiAffinityGroupPolicyFilter => "AntiAffinityGroupPolicyFilter",
            PlacementFilter::BrokerIsolationPoliciesFilter => "BrokerIsolationPoliciesFilter",
        })
    }
}

/// `names` as `a, b, c` (at most [`MAX_LISTED`], then `and N more`).
pub fn listed(names: &[BrokerId], total: usize) -> String {
    let mut s = names.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", ");
    if total > names.len() {
        s.push_str(&format!(" and {} more", total - names.len()));
    }
    s
}

/// Why the configured placement cannot be used ([`PlaceEvent::Fallback`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum FallbackReason {
    /// AvgShedder placement reads the destinations AvgShedder shedding plans;
    /// another shedding strategy plans none.
    NeedsAvgShedderShedding {
        /// `loadBalancerLoadSheddingStrategy`.
        shedding: SheddingStrategy,
    },
}

impl fmt::Display for FallbackReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FallbackReason::NeedsAvgShedderShedding { shedding } => write!(
                f,
                "AvgShedder placement needs AvgShedder shedding, but loadBalancerLoadSheddingStrategy is {shedding:?}"
            ),
        }
    }
}

/// What placement explains (numbers included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "place", rename_all = "snake_case")]
pub enum PlaceEvent {
    /// A broker was chosen.
    Chosen {
        /// The strategy.
        strategy: PlacementStrategy,
        /// The bundle.
        bundle: BundleId,
        /// The winner.
        broker: BrokerId,
    },
    /// No candidate broker at all.
    NoCandidate {
        /// The strategy.
        strategy: PlacementStrategy,
        /// The bundle.
        bundle: BundleId,
    },
    /// The configured placement cannot be used; another one is.
    Fallback {
        /// What was configured.
        configured: PlacementStrategy,
        /// What is used.
        used: PlacementStrategy,
        /// Why.
        reason: FallbackReason,
    },
    /// LeastLongTermMessageRate scores (long-term msg/s incl. preallocated
    /// bundles; `None` = overloaded, score +∞).
    LongTermRates {
        /// The bundle.
        bundle: BundleId,
        /// The lowest scores (at most
        /// [`least_long_term_message_rate::TOP_SCORES`]), in name order.
        scores: Vec<(BrokerId, Option<f64>)>,
        /// How many candidates were scored.
        #[serde(default)]
        candidates: usize,
        /// The brokers tied for the best score (all candidates if every one is
        /// overloaded), at most [`MAX_LISTED`].
        best: Vec<BrokerId>,
        /// How many brokers tie for the best score.
        #[serde(default)]
        best_count: usize,
    },
    /// LeastResourceUsageWithWeight usages and the brokers below average − threshold.
    ResourceUsages {
        /// The bundle.
        bundle: BundleId,
        /// Modular (own moving average) or extensible (brokers' weightedMaxEMA).
        extensible: bool,
        /// Per candidate (fraction; `None` = no load data).
        usages: Vec<(BrokerId, Option<f64>)>,
        /// Average over candidates with data.
        average: f64,
        /// `loadBalancerAverageResourceUsageDifferenceThresholdPercentage` (fraction).
        difference_threshold: f64,
        /// Candidates with usage + threshold ≤ average (all candidates if none).
        best: Vec<BrokerId>,
        /// Whether no broker qualified, so every candidate was eligible.
        all_candidates: bool,
    },
    /// A candidate filter removed brokers.
    Filtered {
        /// The bundle being placed.
        bundle: BundleId,
        /// The filter.
        filter: PlacementFilter,
        /// The brokers it removed, in name order (at most [`MAX_LISTED`]).
        removed: Vec<BrokerId>,
        /// How many it removed in all.
        removed_count: usize,
        /// Candidates left after it.
        left: usize,
        /// Why, with the numbers.
        reason: String,
    },
    /// `RoundRobinBrokerSelector` placed a bundle of a namespace in
    /// `loadBalancerSheddingExcludedNamespaces`.
    RoundRobin {
        /// The bundle.
        bundle: BundleId,
        /// The winner.
        broker: BrokerId,
        /// The index used (call counter modulo the candidates).
        index: usize,
        /// How many candidates.
        candidates: usize,
    },
    /// The modular strategy could not run: it reads the load data of brokers
    /// whose first report has not reached the leader (Pulsar throws a
    /// `NullPointerException` and the lookup fails).
    MissingLoadData {
        /// The strategy (or the step) that read it.
        strategy: String,
        /// The bundle.
        bundle: BundleId,
        /// The brokers without load data.
        brokers: Vec<BrokerId>,
    },
    /// AvgShedder placement: the planned destination, or a hashed pick.
    AvgDestination {
        /// The bundle.
        bundle: BundleId,
        /// The broker.
        broker: BrokerId,
        /// Whether it was the shedder's plan (else a random pick over sorted candidates).
        planned: bool,
        /// Why no plan applied, when it did not.
        note: Option<String>,
    },
}

impl Narrate for PlaceEvent {
    fn narrate(&self) -> String {
        let list = |v: &[BrokerId]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        match self {
            PlaceEvent::Chosen {
                strategy,
                bundle,
                broker,
            } => format!("{strategy:?}: {bundle} -> {broker}"),
            PlaceEvent::NoCandidate { strategy, bundle } => {
                format!("{strategy:?}: no broker available for {bundle}")
            }
            PlaceEvent::Fallback {
                configured,
                used,
                reason,
            } => format!("warning: placement {configured:?} not usable, using {used:?} ({reason})"),
            PlaceEvent::LongTermRates {
                bundle,
                scores,
                candidates,
                best,
                best_count,
            } => {
                let s: Vec<String> = scores
                    .iter()
                    .map(|(b, v)| match v {
                        Some(v) => format!("{b} {v:.1} msg/s"),
                        None => format!("{b} overloaded (∞)"),
                    })
                    .collect();
                let more = if *candidates > scores.len() {
                    format!(" (the {} lowest of {candidates} candidates)", scores.len())
                } else {
                    String::new()
                };
                format!(
                    "LeastLongTermMessageRate for {bundle}: {}{more}; least: {}",
                    s.join(", "),
                    listed(best, (*best_count).max(best.len()))
                )
            }
            PlaceEvent::ResourceUsages {
                bundle,
                extensible,
                usages,
                average,
                difference_threshold,
                best,
                all_candidates,
            } => {
                let s: Vec<String> = usages
                    .iter()
                    .map(|(b, v)| match v {
                        Some(v) => format!("{b} {:.1} %", v * 100.0),
                        None => format!("{b} no load data"),
                    })
                    .collect();
                format!(
                    "LeastResourceUsageWithWeight ({}) for {bundle}: {}; average {:.1} %, need ≤ average − {:.1} %: {}",
                    if *extensible { "extensible, weightedMaxEMA" } else { "modular, moving average" },
                    s.join(", "),
                    average * 100.0,
                    difference_threshold * 100.0,
                    if *all_candidates {
                        format!("none qualifies, pick at random among all ({})", list(best))
                    } else {
                        list(best)
                    }
                )
            }
            PlaceEvent::Filtered {
                bundle,
                filter,
                removed,
                removed_count,
                left,
                reason,
            } => format!(
                "{filter} removed {} from the candidates for {bundle} ({left} left): {reason}",
                listed(removed, *removed_count)
            ),
            PlaceEvent::RoundRobin {
                bundle,
                broker,
                index,
                candidates,
            } => format!(
                "RoundRobinBrokerSelector for {bundle} (namespace in loadBalancerSheddingExcludedNamespaces): candidate {index} of {candidates} -> {broker}"
            ),
            PlaceEvent::MissingLoadData {
                strategy,
                bundle,
                brokers,
            } => format!(
                "{strategy} cannot place {bundle}: no load data yet for {} (Pulsar fails this lookup with a NullPointerException; it succeeds once the report arrives)",
                list(brokers)
            ),
            PlaceEvent::AvgDestination {
                bundle,
                broker,
                planned,
                note,
            } => {
                if *planned {
                    format!("AvgShedder: {bundle} goes to its planned destination {broker}")
                } else {
                    format!(
                        "AvgShedder: {bundle} -> {broker} (random over sorted candidates{})",
                        note.as_ref().map(|n| format!("; {n}")).unwrap_or_default()
                    )
                }
            }
        }
    }
}

/// Placement state carried between calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placer {
    /// One of each registered placement strategy, with its history
    /// (LeastResourceUsageWithWeight's moving averages, AvgShedder's plan).
    pub strategies: Placements,
    /// The brokers' EMAs (extensible load manager).
    pub ema: BrokerLoadEma,
    /// `RoundRobinBrokerSelector` for the shedding-excluded namespaces.
    pub round_robin: round_robin::RoundRobinBrokerSelector,
}

/// Sorted, de-duplicated candidates (borrowed; already-sorted input is only checked).
pub(crate) fn ordered<'a>(candidates: impl IntoIterator<Item = &'a BrokerId>) -> Vec<&'a BrokerId> {
    let mut v: Vec<&BrokerId> = candidates.into_iter().collect();
    if !v.windows(2).all(|w| w[0] < w[1]) {
        v.stable_sort();
        v.dedup();
    }
    v
}

/// Each of `sorted` (ascending, distinct) looked up in `map`: a merge walk over
/// both when there are many candidates, point lookups when there are few.
pub(crate) fn join_sorted<'a, V>(sorted: &[&BrokerId], map: &'a BTreeMap<BrokerId, V>) -> Vec<Option<&'a V>> {
    if sorted.len().saturating_mul(8) < map.len() {
        return sorted.iter().map(|b| map.get(*b)).collect();
    }
    // One comparison of names per step of the walk.
    let mut it = map.iter().peekable();
    sorted
        .iter()
        .map(|&b| loop {
            match it.peek().map(|(k, _)| (*k).cmp(b)) {
                Some(std::cmp::Ordering::Less) => {
                    it.next();
                }
                Some(std::cmp::Ordering::Equal) => break it.next().map(|(_, v)| v),
                _ => break None,
            }
        })
        .collect()
}

impl Placer {
    /// Record planned destinations (AvgShedder): every unload with `to` set.
    /// Call after each shedding pass with its `ShedOutcome::unloads`.
    pub fn plan(&mut self, unloads: &[Unload]) {
        for u in unloads {
            if let Some(to) = &u.to {
                self.strategies.avg.plan.insert(u.bundle.clone(), to.clone());
            }
        }
    }

    /// Fold the brokers' current reports into their EMAs (extensible mode).
    pub fn observe_reports(&mut self, load: &LoadData, conf: &Config) {
        self.ema.observe(load, conf);
    }

    /// Choose an owner for `bundle` among `candidates` (already filtered by
    /// liveness, isolation and distribute-evenly). `None` when there is no candidate.
    ///
    /// With AvgShedder placement but another shedding strategy, Pulsar 5.0 falls
    /// back to LeastLongTermMessageRate and warns; so does lbscope.
    pub fn select_broker(
        &mut self,
        candidates: &[BrokerId],
        bundle: &BundleId,
        load: &LoadData,
        conf: &Config,
        rng: &mut SimRng,
    ) -> (Option<BrokerId>, Vec<PlaceEvent>) {
        self.select_among(&ordered(candidates), None, bundle, load, conf, rng)
    }

    /// [`Placer::select_broker`] over candidates already sorted and de-duplicated
    /// (what the simulation's candidate filter yields), without copying them;
    /// `data`, when given, is each candidate's entry of `load.brokers`.
    pub(crate) fn select_among(
        &mut self,
        cands: &[&BrokerId],
        data: Option<&[Option<&BrokerData>]>,
        bundle: &BundleId,
        load: &LoadData,
        conf: &Config,
        rng: &mut SimRng,
    ) -> (Option<BrokerId>, Vec<PlaceEvent>) {
        debug_assert!(cands.windows(2).all(|w| w[0] < w[1]));
        let mut events = Vec::new();
        let mut strategy = conf.load_balancer_load_placement_strategy;
        if strategy == PlacementStrategy::AvgShedder
            && conf.load_balancer_load_shedding_strategy != SheddingStrategy::AvgShedder
        {
            events.push(PlaceEvent::Fallback {
                configured: strategy,
                used: PlacementStrategy::LeastLongTermMessageRate,
                reason: FallbackReason::NeedsAvgShedderShedding {
                    shedding: conf.load_balancer_load_shedding_strategy,
                },
            });
            strategy = PlacementStrategy::LeastLongTermMessageRate;
        }
        if cands.is_empty() {
            events.push(PlaceEvent::NoCandidate {
                strategy,
                bundle: bundle.clone(),
            });
            return (None, events);
        }
        let chosen = self
            .strategies
            .get_mut(strategy)
            .select_broker(&mut PlaceContext {
                cands,
                data,
                bundle,
                load,
                conf,
                ema: &self.ema,
                rng,
                events: &mut events,
            });
        if let Some(b) = &chosen {
            events.push(PlaceEvent::Chosen {
                strategy,
                bundle: bundle.clone(),
                broker: b.clone(),
            });
        }
        (chosen, events)
    }
}
