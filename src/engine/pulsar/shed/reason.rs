//! Why a shedder shed nothing, or why a broker that qualified did not shed:
//! the numbers behind it, narrated when read. Throughputs are bytes/s,
//! fractions 0..1.

use super::super::load::{BrokerId, BundleId};
use super::super::place::PlaceEvent;
use super::shared::mbs;
use super::Metric;
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a pass shed nothing ([`super::ShedEvent::Idle`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum IdleReason {
    /// `loadBalancerEnabled` or `loadBalancerSheddingEnabled` is off.
    SheddingDisabled,
    /// The strategy ran and chose nothing (it said no more).
    NoBundleSelected,
    /// There is no broker at all (TransferShedder).
    NoBrokers,
    /// No broker has load data (UniformLoadShedder).
    NoBrokerData,
    /// The average of the brokers' max resource usage is 0 (ThresholdShedder).
    ZeroAverageUsage,
    /// Lower-boundary shedding found no broker above average − threshold with
    /// more than one bundle (ThresholdShedder).
    LowerBoundaryNoneAbove,
    /// Lower-boundary shedding found no broker below average − threshold
    /// (ThresholdShedder).
    LowerBoundaryNoneBelow {
        /// The average usage (fraction).
        average: f64,
        /// `loadBalancerBrokerThresholdShedderPercentage` (fraction).
        threshold: f64,
    },
    /// Neither the message-rate difference nor the throughput multiplier is
    /// over its threshold (UniformLoadShedder).
    BelowImbalanceThresholds {
        /// Message-rate difference (%).
        rate_difference: f64,
        /// `loadBalancerMsgRateDifferenceShedderThreshold` (%).
        rate_threshold: f64,
        /// Throughput multiplier (max / min).
        throughput_multiplier: f64,
        /// `loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold`.
        throughput_threshold: f64,
    },
    /// Java's sort of the brokers' scores threw "Comparison method violates
    /// its general contract!" (AvgShedder under `pulsar-4.0`, whose comparator
    /// truncates score differences): the cycle fails before any hit counter
    /// changes.
    SortContractViolation {
        /// Brokers sorted.
        brokers: usize,
    },
    /// No pair of brokers differs by the low threshold; the hit counters are
    /// cleared (AvgShedder).
    NoPairOverLowThreshold {
        /// `loadBalancerAvgShedderLowThreshold`.
        low_threshold: f64,
    },
    /// The shedding condition has not held in more consecutive passes than
    /// the threshold (TransferShedder).
    HitCount {
        /// Consecutive passes it held.
        hits: u32,
        /// `loadBalancerSheddingConditionHitCountThreshold`.
        threshold: u32,
    },
    /// No broker pair left (TransferShedder).
    NoMorePairs {
        /// Pairs shed.
        shed: u32,
        /// `loadBalancerMaxNumberOfBrokerSheddingPerCycle`.
        max: u32,
    },
    /// The load meets the target and neither end broker is under- or
    /// overloaded (TransferShedder).
    TargetMet {
        /// Standard deviation of the load.
        std: f64,
        /// `loadBalancerBrokerLoadTargetStd`.
        target: f64,
        /// The least-loaded broker left.
        min_broker: BrokerId,
        /// The most-loaded broker left.
        max_broker: BrokerId,
    },
}

impl fmt::Display for IdleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdleReason::SheddingDisabled => {
                f.write_str("shedding disabled (loadBalancerEnabled / loadBalancerSheddingEnabled)")
            }
            IdleReason::NoBundleSelected => f.write_str("no bundle selected"),
            IdleReason::NoBrokers => f.write_str("no brokers"),
            IdleReason::NoBrokerData => f.write_str("no broker data"),
            IdleReason::ZeroAverageUsage => f.write_str("average max resource usage is 0"),
            IdleReason::LowerBoundaryNoneAbove => f.write_str(
                "lower-boundary shedding: no broker above average − threshold with more than one bundle",
            ),
            IdleReason::LowerBoundaryNoneBelow { average, threshold } => write!(
                f,
                "lower-boundary shedding: no broker below average {:.1} % − threshold {:.1} %",
                average * 100.0,
                threshold * 100.0
            ),
            IdleReason::BelowImbalanceThresholds {
                rate_difference,
                rate_threshold,
                throughput_multiplier,
                throughput_threshold,
            } => write!(
                f,
                "message-rate difference {rate_difference:.1} % ≤ {rate_threshold} % and \
                 throughput multiplier {throughput_multiplier:.2} ≤ {throughput_threshold}"
            ),
            IdleReason::SortContractViolation { brokers } => write!(
                f,
                "sorting the {brokers} brokers' scores with (int) (s1 - s2) threw \"Comparison method violates its general contract!\" (as Java does on these scores); the cycle sheds nothing and the hit counters stay"
            ),
            IdleReason::NoPairOverLowThreshold { low_threshold } => write!(
                f,
                "no pair of brokers differs by the low threshold {low_threshold}; hit counters cleared"
            ),
            IdleReason::HitCount { hits, threshold } => write!(
                f,
                "shedding condition hit {hits} time(s) ≤ loadBalancerSheddingConditionHitCountThreshold {threshold}"
            ),
            IdleReason::NoMorePairs { shed, max } => {
                write!(f, "stop: no more broker pairs ({shed} of at most {max} shed)")
            }
            IdleReason::TargetMet {
                std,
                target,
                min_broker,
                max_broker,
            } => write!(
                f,
                "stop: std {std:.3} ≤ target {target:.3}, {min_broker} not underloaded, {max_broker} not overloaded"
            ),
        }
    }
}

/// Why a broker that qualified did not shed ([`super::ShedEvent::BrokerSkipped`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum BrokerSkipReason {
    /// Overloaded with no bundle to move.
    NoBundles,
    /// Its sole bundle overloads it, and a single bundle is never shed
    /// (OverloadShedder).
    SoleBundleNeverShed {
        /// The bundle.
        bundle: BundleId,
    },
    /// Its sole bundle overloads it (TransferShedder).
    SoleBundle {
        /// The bundle.
        bundle: BundleId,
    },
    /// Its sole bundle overloads it; AvgShedder still tries it (a warning).
    SoleBundleStillTried,
    /// Every bundle was recently unloaded or has no data (OverloadShedder).
    NoEligibleBundle,
    /// Its top-bundles report is empty (TransferShedder).
    EmptyTopBundles,
    /// Every top bundle would overshoot the offload target (TransferShedder).
    WouldOvershoot,
    /// The planned offload is under
    /// `loadBalancerBundleUnloadMinThroughputThreshold` (ThresholdShedder).
    BelowMinThroughput {
        /// Planned offload (bytes/s).
        planned: f64,
        /// The threshold (bytes/s).
        min: f64,
    },
    /// Fewer than two bundles (UniformLoadShedder).
    TooFewBundles {
        /// How many it has.
        bundles: usize,
    },
    /// What is to move is under `minUnloadMessage` / `minUnloadMessageThroughput`
    /// (UniformLoadShedder).
    BelowMinUnload {
        /// The measure compared.
        metric: Metric,
        /// What is to move.
        required: f64,
        /// The floor.
        floor: f64,
    },
    /// The planned move is under both `minUnloadMessage` and
    /// `minUnloadMessageThroughput` (AvgShedder).
    PlannedMoveTooSmall {
        /// The broker it would go to.
        to: BrokerId,
        /// Message rate to move (msg/s).
        msg_rate: f64,
        /// `minUnloadMessage` (msg/s).
        min_msg_rate: f64,
        /// Throughput to move (bytes/s).
        throughput: f64,
        /// `minUnloadMessageThroughput` (bytes/s).
        min_throughput: f64,
    },
}

impl fmt::Display for BrokerSkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrokerSkipReason::NoBundles => f.write_str("overloaded despite having no bundles"),
            BrokerSkipReason::SoleBundleNeverShed { bundle } => write!(
                f,
                "its sole bundle {bundle} is overloading it; a single bundle is never shed"
            ),
            BrokerSkipReason::SoleBundle { bundle } => {
                write!(f, "its sole bundle {bundle} is overloading it")
            }
            BrokerSkipReason::SoleBundleStillTried => {
                f.write_str("warning: its sole bundle is overloading it (AvgShedder still tries it)")
            }
            BrokerSkipReason::NoEligibleBundle => {
                f.write_str("no bundle eligible (all recently unloaded or without data)")
            }
            BrokerSkipReason::EmptyTopBundles => f.write_str("its top-bundles report is empty"),
            BrokerSkipReason::WouldOvershoot => f.write_str(
                "no top bundle can be unloaded without overshooting; consider splitting its bundles",
            ),
            BrokerSkipReason::BelowMinThroughput { planned, min } => write!(
                f,
                "planned offload {:.2} MB/s < loadBalancerBundleUnloadMinThroughputThreshold {:.2} MB/s",
                mbs(*planned),
                mbs(*min)
            ),
            BrokerSkipReason::TooFewBundles { bundles } => {
                write!(f, "it has {bundles} bundle(s); at least two are needed")
            }
            BrokerSkipReason::BelowMinUnload {
                metric,
                required,
                floor,
            } => write!(
                f,
                "{} to move < {} ({})",
                metric.fmt(*required),
                metric.fmt(*floor),
                match metric {
                    Metric::MsgRate => "minUnloadMessage",
                    Metric::Throughput => "minUnloadMessageThroughput",
                }
            ),
            BrokerSkipReason::PlannedMoveTooSmall {
                to,
                msg_rate,
                min_msg_rate,
                throughput,
                min_throughput,
            } => write!(
                f,
                "planned move to {to} of {msg_rate:.1} msg/s ≤ minUnloadMessage {min_msg_rate} and \
                 {:.2} MB/s ≤ minUnloadMessageThroughput {:.2} MB/s",
                mbs(*throughput),
                mbs(*min_throughput)
            ),
        }
    }
}

/// Why a namespace policy keeps a bundle where it is: TransferShedder's
/// `isTransferable` ([`super::ShedEvent::PolicyRefused`]) and the modular
/// manager's checks before it unloads a shed bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "snake_case")]
pub enum PolicyRefusal {
    /// The namespace is in `loadBalancerSheddingExcludedNamespaces`.
    ExcludedNamespace {
        /// The namespace.
        namespace: String,
    },
    /// No broker but the current owner satisfies the namespace policies
    /// (`shouldNamespacePoliciesUnload`).
    NoOtherPolicyBroker {
        /// The current owner.
        current: BrokerId,
        /// How the isolation policies applied.
        policies: String,
    },
    /// Every candidate owns as many of the namespace's anti-affinity group as
    /// the current owner, so the bundle would come back
    /// (`shouldAntiAffinityNamespaceUnload`).
    AntiAffinityWouldReturn {
        /// The group.
        group: String,
        /// The current owner.
        current: BrokerId,
        /// What the first candidates own of the group (at most
        /// [`MAX_LISTED`](super::super::place::MAX_LISTED)).
        owned: Vec<(BrokerId, u32)>,
        /// How many candidates in all.
        candidates: usize,
    },
    /// The namespace has an isolation policy or an anti-affinity group and
    /// `loadBalancerSheddingBundlesWithPoliciesEnabled` is off.
    WithPolicies,
    /// The destination does not pass the broker filters for the bundle.
    FilteredOut {
        /// The destination.
        destination: BrokerId,
        /// What the filters did.
        filters: Vec<PlaceEvent>,
    },
    /// No candidate but the source may own the bundle.
    NoOtherCandidate {
        /// The source broker.
        source: BrokerId,
    },
}

impl fmt::Display for PolicyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyRefusal::ExcludedNamespace { namespace } => {
                write!(
                    f,
                    "namespace {namespace} is in loadBalancerSheddingExcludedNamespaces"
                )
            }
            PolicyRefusal::NoOtherPolicyBroker { current, policies } => {
                write!(
                    f,
                    "no broker but {current} satisfies the namespace policies ({policies})"
                )
            }
            PolicyRefusal::AntiAffinityWouldReturn {
                group,
                current,
                owned,
                candidates,
            } => {
                write!(
                    f,
                    "anti-affinity group {group}: every candidate owns as many of the group as {current} ("
                )?;
                for (i, (b, n)) in owned.iter().enumerate() {
                    write!(f, "{}{b} {n}", if i > 0 { ", " } else { "" })?;
                }
                if *candidates > owned.len() {
                    write!(f, " and {} more", candidates - owned.len())?;
                }
                f.write_str("), so it would come back")
            }
            PolicyRefusal::WithPolicies => f.write_str(
                "its namespace has an isolation policy or an anti-affinity group and \
                 loadBalancerSheddingBundlesWithPoliciesEnabled is off",
            ),
            PolicyRefusal::FilteredOut { destination, filters } => {
                write!(
                    f,
                    "the destination {destination} does not pass the broker filters for it ("
                )?;
                for (i, e) in filters.iter().enumerate() {
                    write!(f, "{}{}", if i > 0 { "; " } else { "" }, e.narrate())?;
                }
                f.write_str(")")
            }
            PolicyRefusal::NoOtherCandidate { source } => write!(f, "no candidate but {source} may own it"),
        }
    }
}
