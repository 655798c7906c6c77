//! Load shedding: which bundles to unload from which brokers (`LoadSheddingStrategy`).
//!
//! A shedder reads only the leader's [`LoadData`] and the [`Config`]; it may keep
//! its own history between rounds (ThresholdShedder's moving averages,
//! AvgShedder's hit counters, TransferShedder's condition hit count and the
//! brokers' EMAs), so it is a stateful value owned by the simulation.
//! Its decisions come back as data, with events carrying the numbers.
//!
//! One file per strategy: [`overload`], [`threshold`], [`uniform`], [`transfer`],
//! [`avg`]; the shared filters (grace period, system namespaces, min throughput
//! units) live in [`shared`].
//!
//! Deterministic rules where Pulsar follows hash-map order: brokers are visited
//! by ascending name, and bundles with equal load keep ascending-name order
//! after the (stable) sort by load.

pub mod ema;
pub mod inputs;
pub mod reason;
pub mod shared;
pub mod strategy;

use super::config::Config;
use super::ids::{BrokerId, BundleId};
use super::load::LoadData;
use crate::engine::{Narrate, SimRng};
use serde::{Deserialize, Serialize};
use shared::mbs;

pub use ema::BrokerLoadEma;
pub use reason::{BrokerSkipReason, IdleReason, PolicyRefusal};
pub use strategy::{Interface, LoadSheddingStrategy, ShedContext};

crate::engine::strategy::registry! {
    /// Load-shedding strategy (`loadBalancerLoadSheddingStrategy`): the
    /// registry of shedders, one line each. A line names the config value (the
    /// upstream class's simple name), the shedder's file (also the field that
    /// holds its history in [`Shedders`]) and its type (which implements
    /// [`LoadSheddingStrategy`] and has `fn about()`).
    pub enum SheddingStrategy;
    key "loadBalancerLoadSheddingStrategy";
    /// One value of each registered shedder, with its history.
    pub struct Shedders: dyn LoadSheddingStrategy;
    OverloadShedder => mod overload::OverloadShedder,
    /// The 4.x default.
    #[default]
    ThresholdShedder => mod threshold::ThresholdShedder,
    UniformLoadShedder => mod uniform::UniformLoadShedder,
    /// The extensible load manager's strategy.
    TransferShedder => mod transfer::TransferShedder,
    /// The 5.0 default.
    AvgShedder => mod avg::AvgShedder,
}

impl SheddingStrategy {
    /// The Java interface the strategy implements (which load manager can load it).
    pub fn interface(self) -> Interface {
        Shedders::default().get(self).interface()
    }
}

/// What the namespace policies let a shedder move (isolation policies,
/// anti-affinity groups, `loadBalancerSheddingExcludedNamespaces`). The
/// simulation implements it from its admin state (`assign::PlacementContext`);
/// [`NoPolicies`] allows everything. Only TransferShedder consults it inside its
/// pass, as Pulsar's does; the modular manager checks its shedders' choices
/// afterwards (`load_manager`).
pub trait SheddingPolicies {
    /// Whether `bundle` goes into its owner's top-bundles report (`TopKBundles.update`).
    fn in_top_bundles(&self, bundle: &BundleId) -> bool;
    /// `TransferShedder.isTransferable` for moving `bundle` from `src` to `dst`:
    /// `Err(why)` when a policy forbids it.
    fn is_transferable(&self, bundle: &BundleId, src: &BrokerId, dst: &BrokerId)
        -> Result<(), PolicyRefusal>;
}

/// No policies: every bundle is reported and transferable.
pub struct NoPolicies;

impl SheddingPolicies for NoPolicies {
    fn in_top_bundles(&self, _: &BundleId) -> bool {
        true
    }

    fn is_transferable(&self, _: &BundleId, _: &BrokerId, _: &BrokerId) -> Result<(), PolicyRefusal> {
        Ok(())
    }
}

/// One bundle to unload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unload {
    /// The bundle.
    pub bundle: BundleId,
    /// Its current owner.
    pub from: BrokerId,
    /// A destination chosen by the shedder itself (TransferShedder, AvgShedder);
    /// `None` leaves placement to the next assignment.
    pub to: Option<BrokerId>,
}

/// Which traffic measure a decision used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// In + out bytes/s.
    Throughput,
    /// In + out messages/s.
    MsgRate,
}

impl Metric {
    fn fmt(self, v: f64) -> String {
        match self {
            Metric::Throughput => format!("{:.2} MB/s", mbs(v)),
            Metric::MsgRate => format!("{v:.1} msg/s"),
        }
    }
}

/// Pulsar's `UnloadDecision.Reason`: why a TransferShedder round unloaded, or
/// why it skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnloadReason {
    /// Std above target, or the max broker is significantly overloaded.
    Overloaded,
    /// The min broker is significantly underloaded.
    Underloaded,
    /// The cluster meets the target (in Pulsar's enum; TransferShedder itself
    /// reports a balanced round as `HitCount`).
    Balanced,
    /// Brokers had too few top bundles (one, or none movable without overshooting).
    NoBundles,
    /// A broker reported too soon after its last unload (`loadBalanceSheddingDelayInSeconds`).
    CoolDown,
    /// Every broker's load data is older than `loadBalancerBrokerLoadDataTTLInSeconds`.
    OutDatedData,
    /// Load data (or a top-bundles report) is missing.
    NoLoadData,
    /// No broker has load data.
    NoBrokers,
    /// The shedding condition has not held often enough, or nothing was found to move.
    HitCount,
    /// Failure.
    Unknown,
}

/// Why TransferShedder keeps going (a subset of [`UnloadReason`]).
pub type TransferReason = UnloadReason;

/// Pulsar's `UnloadDecision.Label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnloadLabel {
    /// Bundles were chosen.
    Success,
    /// The round chose nothing, for `reason`.
    Skip,
    /// The round failed.
    Failure,
}

/// One broker's ThresholdShedder moving average update.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsageSample {
    /// The broker.
    pub broker: BrokerId,
    /// Its weighted max usage in this report (fraction).
    pub current: f64,
    /// Its previous moving average, if any (fraction).
    pub previous: Option<f64>,
    /// The new moving average (fraction).
    pub average: f64,
}

/// What a shedder explains (numbers included). Fractions are 0..1, throughputs bytes/s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shed", rename_all = "snake_case")]
pub enum ShedEvent {
    /// Nothing to do this round, and why.
    Idle {
        /// The strategy.
        strategy: SheddingStrategy,
        /// Why nothing was shed.
        reason: IdleReason,
    },
    /// A broker that qualified could not shed, and why (sole bundle, no bundle,
    /// below the minimum throughput, nothing eligible).
    BrokerSkipped {
        /// The strategy.
        strategy: SheddingStrategy,
        /// The broker.
        broker: BrokerId,
        /// Why.
        reason: BrokerSkipReason,
    },
    /// A bundle was passed over because a namespace policy forbids moving it.
    PolicyRefused {
        /// The strategy.
        strategy: SheddingStrategy,
        /// Its owner.
        broker: BrokerId,
        /// The bundle.
        bundle: BundleId,
        /// Where it would have gone.
        to: BrokerId,
        /// Why.
        reason: PolicyRefusal,
    },
    /// A bundle was passed over because it was unloaded within the grace period.
    RecentlyUnloaded {
        /// The strategy.
        strategy: SheddingStrategy,
        /// Its owner.
        broker: BrokerId,
        /// The bundle.
        bundle: BundleId,
        /// When it was unloaded (ms).
        unloaded_at_ms: u64,
        /// When it may move again (ms).
        eligible_at_ms: u64,
    },
    /// OverloadShedder: a broker's max resource usage reached the threshold.
    Overloaded {
        /// The broker.
        broker: BrokerId,
        /// Weighted max resource usage (fraction; PIP-358).
        usage: f64,
        /// `loadBalancerBrokerOverloadedThresholdPercentage` (fraction).
        threshold: f64,
        /// usage − threshold + 0.05.
        percent_to_offload: f64,
        /// The broker's in + out throughput.
        throughput: f64,
        /// throughput × percent_to_offload.
        min_to_offload: f64,
    },
    /// ThresholdShedder: every broker's moving average this round.
    ThresholdAverages {
        /// `loadBalancerHistoryResourcePercentage`.
        history_percentage: f64,
        /// Per broker.
        samples: Vec<UsageSample>,
        /// Cluster average of the moving averages (fraction).
        cluster_average: f64,
    },
    /// ThresholdShedder: a broker above average + threshold.
    AboveThreshold {
        /// The broker.
        broker: BrokerId,
        /// Its moving-average usage (fraction).
        usage: f64,
        /// Cluster average (fraction).
        average: f64,
        /// `loadBalancerBrokerThresholdShedderPercentage` (fraction).
        threshold: f64,
        /// usage − average − threshold + 0.05.
        percent_to_offload: f64,
        /// The broker's in + out throughput.
        throughput: f64,
        /// throughput × percent_to_offload.
        min_to_offload: f64,
    },
    /// ThresholdShedder lower-boundary shedding: nobody was above the threshold,
    /// but some broker is below average − threshold, so the busiest sheds.
    LowerBoundary {
        /// The busiest broker (with more than one bundle).
        broker: BrokerId,
        /// Its moving-average usage.
        usage: f64,
        /// Cluster average.
        average: f64,
        /// Threshold (fraction).
        threshold: f64,
        /// Its throughput.
        throughput: f64,
        /// throughput × threshold × 0.5.
        min_to_offload: f64,
    },
    /// UniformLoadShedder: the two extremes and which trigger fired.
    UniformImbalance {
        /// Highest-loaded broker (with more than one bundle).
        overloaded: BrokerId,
        /// Lowest-loaded broker.
        underloaded: BrokerId,
        /// Their message rates.
        max_msg_rate: f64,
        /// ″
        min_msg_rate: f64,
        /// (max − min) × 100 / min.
        msg_rate_difference_percent: f64,
        /// `loadBalancerMsgRateDifferenceShedderThreshold`.
        msg_rate_threshold: f64,
        /// Their throughputs.
        max_throughput: f64,
        /// ″
        min_throughput: f64,
        /// max / min.
        throughput_multiplier: f64,
        /// `loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold`.
        throughput_threshold: f64,
        /// Which trigger drives the selection (message rate wins when both fire).
        metric: Metric,
        /// How much to move: (max − min) / 2, truncated to an integer.
        required: f64,
    },
    /// TransferShedder: load statistics and the shedding-condition hit count.
    TransferStats {
        /// Mean of the brokers' weightedMaxEMA.
        average: f64,
        /// Their standard deviation.
        std: f64,
        /// `loadBalancerBrokerLoadTargetStd`.
        target_std: f64,
        /// Lowest-loaded broker and whether it is significantly underloaded.
        min_broker: BrokerId,
        /// ″
        min_underloaded: bool,
        /// Highest-loaded broker and whether it is significantly overloaded.
        max_broker: BrokerId,
        /// ″
        max_overloaded: bool,
        /// Consecutive rounds the condition held.
        hit_count: u32,
        /// `loadBalancerSheddingConditionHitCountThreshold` (must be exceeded).
        hit_threshold: u32,
    },
    /// TransferShedder: one max→min broker pair is being balanced.
    TransferPair {
        /// Source (highest load left).
        from: BrokerId,
        /// Destination (lowest load left).
        to: BrokerId,
        /// Why.
        reason: TransferReason,
        /// Source load (weightedMaxEMA).
        max_load: f64,
        /// Destination load.
        min_load: f64,
        /// (max − min) / 2.
        offload: f64,
        /// Source throughput.
        max_throughput: f64,
        /// max_throughput × offload / max_load.
        offload_throughput: f64,
    },
    /// TransferShedder: a broker's load data is older than the TTL and is left
    /// out of the statistics.
    TransferOutdated {
        /// The broker.
        broker: BrokerId,
        /// When it last reported (ms).
        reported_at_ms: u64,
        /// Now (ms).
        now_ms: u64,
        /// `loadBalancerBrokerLoadDataTTLInSeconds`.
        ttl_seconds: u64,
    },
    /// TransferShedder: a broker unloaded recently and has not reported since
    /// the delay, so the whole round waits (`CoolDown`).
    TransferCoolDown {
        /// The broker.
        broker: BrokerId,
        /// When it last unloaded a bundle (ms).
        unloaded_at_ms: u64,
        /// When it last reported (ms).
        reported_at_ms: u64,
        /// `loadBalanceSheddingDelayInSeconds`.
        delay_seconds: u64,
    },
    /// TransferShedder: the round's outcome, as Pulsar counts it
    /// (`UnloadCounter.update(label, reason)`).
    TransferDecision {
        /// Success, Skip or Failure.
        label: UnloadLabel,
        /// Pulsar's reason.
        reason: UnloadReason,
        /// Mean load of the brokers counted (0 when skipped before the statistics).
        average: f64,
        /// Their std (after the planned moves when something was chosen).
        std: f64,
        /// `loadBalancerBrokerLoadTargetStd`.
        target_std: f64,
        /// Bundles chosen (transfers, swaps included).
        unloads: usize,
        /// Brokers whose top-bundles report was empty.
        brokers_without_load_data: u32,
        /// Brokers with too few movable bundles.
        brokers_with_few_bundles: u32,
    },
    /// TransferShedder: std after the pair's planned moves.
    TransferStdUpdated {
        /// New std estimate.
        std: f64,
        /// Target.
        target_std: f64,
    },
    /// AvgShedder: the brokers' scores, sorted.
    AvgScores {
        /// (broker, weighted max usage × 100), ascending.
        scores: Vec<(BrokerId, f64)>,
    },
    /// AvgShedder: a pair (lowest i-th, highest i-th) and its hit counters.
    AvgPair {
        /// Low-score broker.
        low: BrokerId,
        /// High-score broker.
        high: BrokerId,
        /// Their scores.
        low_score: f64,
        /// ″
        high_score: f64,
        /// `loadBalancerAvgShedderLowThreshold`.
        low_threshold: f64,
        /// `loadBalancerAvgShedderHighThreshold`.
        high_threshold: f64,
        /// Max of the two brokers' consecutive high-threshold hits.
        high_hits: u32,
        /// Max of their consecutive low-threshold hits.
        low_hits: u32,
        /// `loadBalancerAvgShedderHitCountHighThreshold`.
        high_hits_needed: u32,
        /// `loadBalancerAvgShedderHitCountLowThreshold`.
        low_hits_needed: u32,
        /// Whether the pair sheds this round.
        fired: bool,
    },
    /// AvgShedder: how much a fired pair moves.
    AvgPlan {
        /// Busiest broker of the pair.
        from: BrokerId,
        /// Idlest broker of the pair (the planned destination).
        to: BrokerId,
        /// Message rates of the two.
        from_msg_rate: f64,
        /// ″
        to_msg_rate: f64,
        /// Throughputs of the two.
        from_throughput: f64,
        /// ″
        to_throughput: f64,
        /// `maxUnloadPercentage`.
        max_unload_percentage: f64,
        /// Which measure (message rate when it clears `minUnloadMessage`).
        metric: Metric,
        /// (from − to) × maxUnloadPercentage.
        required: f64,
    },
    /// A bundle picked for unloading.
    BundleChosen {
        /// The strategy.
        strategy: SheddingStrategy,
        /// Its owner.
        from: BrokerId,
        /// Planned destination, if the strategy chose one.
        to: Option<BrokerId>,
        /// The bundle.
        bundle: BundleId,
        /// Measure used.
        metric: Metric,
        /// The bundle's traffic in that measure.
        value: f64,
        /// Traffic marked so far from this broker, this bundle included.
        marked: f64,
        /// The goal for this broker.
        target: f64,
    },
}

fn pct(f: f64) -> String {
    format!("{:.1} %", f * 100.0)
}

impl Narrate for ShedEvent {
    fn narrate(&self) -> String {
        match self {
            ShedEvent::Idle { strategy, reason } => format!("{strategy:?}: nothing to shed ({reason})"),
            ShedEvent::BrokerSkipped { strategy, broker, reason } => {
                format!("{strategy:?}: {broker} does not shed: {reason}")
            }
            ShedEvent::PolicyRefused {
                strategy,
                broker,
                bundle,
                to,
                reason,
            } => format!("{strategy:?}: {bundle} on {broker} cannot move to {to}: {reason}"),
            ShedEvent::RecentlyUnloaded {
                strategy,
                broker,
                bundle,
                unloaded_at_ms,
                eligible_at_ms,
            } => format!(
                "{strategy:?}: {bundle} on {broker} skipped: unloaded at t={:.0} s, grace period until t={:.0} s",
                *unloaded_at_ms as f64 / 1000.0,
                *eligible_at_ms as f64 / 1000.0
            ),
            ShedEvent::Overloaded { .. } | ShedEvent::AboveThreshold { .. } | ShedEvent::LowerBoundary { .. } | ShedEvent::UniformImbalance { .. } => self.narrate_threshold(),
            ShedEvent::ThresholdAverages { .. } => self.narrate_start(usize::MAX).0,
            ShedEvent::TransferStats { .. } | ShedEvent::TransferPair { .. } | ShedEvent::TransferOutdated { .. } | ShedEvent::TransferCoolDown { .. } | ShedEvent::TransferDecision { .. } => self.narrate_transfer(),
            ShedEvent::TransferStdUpdated { std, target_std } => {
                format!("TransferShedder: std after the planned moves {std:.3} (target {target_std:.3})")
            }
            ShedEvent::AvgScores { scores } => {
                let s: Vec<String> = scores.iter().map(|(b, v)| format!("{b} {v:.1}")).collect();
                format!("AvgShedder: scores {}", s.join(", "))
            }
            ShedEvent::AvgPair { .. } | ShedEvent::AvgPlan { .. } | ShedEvent::BundleChosen { .. } => self.narrate_avg(),
        }
    }

    fn narrate_start(&self, chars: usize) -> (String, bool) {
        let ShedEvent::ThresholdAverages {
            history_percentage,
            samples,
            cluster_average,
        } = self
        else {
            return (self.narrate(), false);
        };
        let parts = samples.iter().map(|s| match s.previous {
            Some(p) => format!(
                "{} {} = {:.2} × {} + {:.2} × {}",
                s.broker,
                pct(s.average),
                history_percentage,
                pct(p),
                1.0 - history_percentage,
                pct(s.current)
            ),
            None => format!("{} {} (first observation)", s.broker, pct(s.average)),
        });
        crate::engine::list_narration(
            "ThresholdShedder: moving averages ",
            parts,
            ", ",
            || format!("; cluster average {}", pct(*cluster_average)),
            chars,
        )
    }
}

impl ShedEvent {
    /// Overloaded brokers, thresholds, boundaries and imbalance.
    fn narrate_threshold(&self) -> String {
        match self {
            ShedEvent::Overloaded {
                broker,
                usage,
                threshold,
                percent_to_offload,
                throughput,
                min_to_offload,
            } => format!(
                "OverloadShedder: {broker} max resource usage {} ≥ threshold {}: offload ≥ ({} − {} + 5 %) = {} of {:.2} MB/s = {:.2} MB/s",
                pct(*usage),
                pct(*threshold),
                pct(*usage),
                pct(*threshold),
                pct(*percent_to_offload),
                mbs(*throughput),
                mbs(*min_to_offload)
            ),
            ShedEvent::AboveThreshold {
                broker,
                usage,
                average,
                threshold,
                percent_to_offload,
                throughput,
                min_to_offload,
            } => format!(
                "ThresholdShedder: {broker} at {} ≥ average {} + threshold {}: offload ≥ ({} − {} − {} + 5 %) = {} of {:.2} MB/s = {:.2} MB/s (Pulsar aims 5 % below average + threshold)",
                pct(*usage),
                pct(*average),
                pct(*threshold),
                pct(*usage),
                pct(*average),
                pct(*threshold),
                pct(*percent_to_offload),
                mbs(*throughput),
                mbs(*min_to_offload)
            ),
            ShedEvent::LowerBoundary {
                broker,
                usage,
                average,
                threshold,
                throughput,
                min_to_offload,
            } => format!(
                "ThresholdShedder lower-boundary: a broker is below average {} − threshold {}; busiest {broker} at {} offloads ≥ {:.2} MB/s × {} × 0.5 = {:.2} MB/s",
                pct(*average),
                pct(*threshold),
                pct(*usage),
                mbs(*throughput),
                pct(*threshold),
                mbs(*min_to_offload)
            ),
            ShedEvent::UniformImbalance {
                overloaded,
                underloaded,
                max_msg_rate,
                min_msg_rate,
                msg_rate_difference_percent,
                msg_rate_threshold,
                max_throughput,
                min_throughput,
                throughput_multiplier,
                throughput_threshold,
                metric,
                required,
            } => format!(
                "UniformLoadShedder: {overloaded} ({max_msg_rate:.1} msg/s, {:.2} MB/s) vs {underloaded} ({min_msg_rate:.1} msg/s, {:.2} MB/s): rate difference {msg_rate_difference_percent:.1} % (threshold {msg_rate_threshold} %), throughput ×{throughput_multiplier:.2} (threshold ×{throughput_threshold}); move {} by {metric:?}",
                mbs(*max_throughput),
                mbs(*min_throughput),
                metric.fmt(*required)
            ),
            _ => unreachable!("narrate_threshold is called only for its kinds"),
        }
    }

    /// TransferShedder's statistics, pairs and decisions.
    fn narrate_transfer(&self) -> String {
        match self {
            ShedEvent::TransferStats {
                average,
                std,
                target_std,
                min_broker,
                min_underloaded,
                max_broker,
                max_overloaded,
                hit_count,
                hit_threshold,
            } => format!(
                "TransferShedder: load average {}, std {:.3} (target {:.3}); min {min_broker}{}, max {max_broker}{}; condition hit {hit_count} time(s), must exceed {hit_threshold}",
                pct(*average),
                std,
                target_std,
                if *min_underloaded { " underloaded" } else { "" },
                if *max_overloaded { " overloaded" } else { "" }
            ),
            ShedEvent::TransferPair {
                from,
                to,
                reason,
                max_load,
                min_load,
                offload,
                max_throughput,
                offload_throughput,
            } => format!(
                "TransferShedder ({reason:?}): {from} at {} → {to} at {}: offload ({} − {}) / 2 = {}, i.e. {:.2} MB/s × {} / {} = {:.2} MB/s",
                pct(*max_load),
                pct(*min_load),
                pct(*max_load),
                pct(*min_load),
                pct(*offload),
                mbs(*max_throughput),
                pct(*offload),
                pct(*max_load),
                mbs(*offload_throughput)
            ),
            ShedEvent::TransferOutdated {
                broker,
                reported_at_ms,
                now_ms,
                ttl_seconds,
            } => format!(
                "TransferShedder: {broker}'s load data from t={:.0} s is older than loadBalancerBrokerLoadDataTTLInSeconds {ttl_seconds} s at t={:.0} s; left out",
                *reported_at_ms as f64 / 1000.0,
                *now_ms as f64 / 1000.0
            ),
            ShedEvent::TransferCoolDown {
                broker,
                unloaded_at_ms,
                reported_at_ms,
                delay_seconds,
            } => format!(
                "TransferShedder: {broker} unloaded at t={:.0} s and last reported at t={:.0} s, less than loadBalanceSheddingDelayInSeconds {delay_seconds} s later: cool down",
                *unloaded_at_ms as f64 / 1000.0,
                *reported_at_ms as f64 / 1000.0
            ),
            ShedEvent::TransferDecision {
                label,
                reason,
                average,
                std,
                target_std,
                unloads,
                brokers_without_load_data,
                brokers_with_few_bundles,
            } => format!(
                "TransferShedder decision: {label:?} ({reason:?}); load average {}, std {std:.3} (target {target_std:.3}); {unloads} bundle(s) chosen; {brokers_without_load_data} broker(s) without top-bundles data, {brokers_with_few_bundles} with too few movable bundles",
                pct(*average)
            ),
            _ => unreachable!("narrate_transfer is called only for its kinds"),
        }
    }

    /// AvgShedder's pairs and plan, and the bundle chosen.
    fn narrate_avg(&self) -> String {
        match self {
            ShedEvent::AvgPair {
                low,
                high,
                low_score,
                high_score,
                low_threshold,
                high_threshold,
                high_hits,
                low_hits,
                high_hits_needed,
                low_hits_needed,
                fired,
            } => format!(
                "AvgShedder: pair {high} ({high_score:.1}) / {low} ({low_score:.1}): difference {:.1} (low threshold {low_threshold}, high {high_threshold}); hits high {high_hits}/{high_hits_needed}, low {low_hits}/{low_hits_needed}: {}",
                high_score - low_score,
                if *fired { "shed now" } else { "wait" }
            ),
            ShedEvent::AvgPlan {
                from,
                to,
                from_msg_rate,
                to_msg_rate,
                from_throughput,
                to_throughput,
                max_unload_percentage,
                metric,
                required,
            } => match metric {
                Metric::MsgRate => format!(
                    "AvgShedder: move ({from_msg_rate:.1} − {to_msg_rate:.1}) × {max_unload_percentage} = {required:.1} msg/s from {from} to {to}"
                ),
                Metric::Throughput => format!(
                    "AvgShedder: move ({:.2} − {:.2}) × {max_unload_percentage} = {:.2} MB/s from {from} to {to}",
                    mbs(*from_throughput),
                    mbs(*to_throughput),
                    mbs(*required)
                ),
            },
            ShedEvent::BundleChosen {
                strategy,
                from,
                to,
                bundle,
                metric,
                value,
                marked,
                target,
            } => format!(
                "{strategy:?}: unload {bundle} ({}) from {from}{}; marked {} of {}",
                metric.fmt(*value),
                to.as_ref().map(|t| format!(" to {t}")).unwrap_or_default(),
                metric.fmt(*marked),
                metric.fmt(*target)
            ),
            _ => unreachable!("narrate_avg is called only for its kinds"),
        }
    }
}

/// The result of one shedding pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShedOutcome {
    /// Bundles to unload, in decision order.
    pub unloads: Vec<Unload>,
    /// The explanation.
    pub events: Vec<ShedEvent>,
}

impl ShedOutcome {
    fn idle(strategy: SheddingStrategy, reason: IdleReason) -> Self {
        ShedOutcome {
            unloads: Vec::new(),
            events: vec![ShedEvent::Idle { strategy, reason }],
        }
    }
}

/// The shedders' state carried between rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shedder {
    /// One of each registered shedder, with its history (ThresholdShedder's
    /// moving averages, AvgShedder's hit counters, TransferShedder's condition
    /// hit count).
    pub strategies: Shedders,
    /// The brokers' `weightedMaxEMA` / `msgThroughputEMA` (extensible load manager).
    pub ema: BrokerLoadEma,
}

impl Shedder {
    /// Fold the brokers' current reports into their EMAs (extensible load manager,
    /// `BrokerLoadData.weightedMaxEMA`). Call once per load-report round; a broker
    /// never observed reads as its raw current value.
    pub fn observe_reports(&mut self, load: &LoadData, conf: &Config) {
        self.ema.observe(load, conf);
    }

    /// Record that `broker` unloaded a bundle at `now_ms` (the extensible
    /// `UnloadScheduler`'s `recentlyUnloadedBrokers`, which TransferShedder's
    /// cool-down reads).
    pub fn record_unload(&mut self, broker: &BrokerId, now_ms: u64) {
        self.strategies
            .transfer
            .recently_unloaded_brokers
            .insert(broker.clone(), now_ms);
    }

    /// One shedding pass at simulated time `now_ms` with the configured strategy.
    ///
    /// Applies the strategy-side preamble first: shedding must be enabled
    /// (`loadBalancerEnabled` and `loadBalancerSheddingEnabled`). Whether more
    /// than one broker is available is the caller's check, as in Pulsar, where
    /// `ModularLoadManagerImpl.doLoadShedding` and the extensible
    /// `UnloadScheduler` count the registered brokers, not those with load data:
    /// the strategy runs even when fewer than two have reported (TransferShedder
    /// then ends in `NoBrokers`). Bundles unloaded within
    /// `loadBalancerSheddingGracePeriodMinutes` of `now_ms` (per
    /// `load.recently_unloaded`) and system-namespace bundles are never chosen.
    pub fn find_bundles_for_unloading(
        &mut self,
        load: &LoadData,
        conf: &Config,
        now_ms: u64,
        rng: &mut SimRng,
    ) -> ShedOutcome {
        self.find_bundles_for_unloading_with(load, conf, now_ms, rng, &NoPolicies)
    }

    /// [`Shedder::find_bundles_for_unloading`] under the namespace `policies`
    /// (read by TransferShedder; see [`SheddingPolicies`]).
    pub fn find_bundles_for_unloading_with(
        &mut self,
        load: &LoadData,
        conf: &Config,
        now_ms: u64,
        rng: &mut SimRng,
        policies: &dyn SheddingPolicies,
    ) -> ShedOutcome {
        let strategy = conf.load_balancer_load_shedding_strategy;
        if !shared::is_load_shedding_enabled(conf) {
            return ShedOutcome::idle(strategy, IdleReason::SheddingDisabled);
        }
        let recent = shared::recently_unloaded(load, conf, now_ms);
        let grace = shared::grace_period_ms(conf);
        let mut cx = ShedContext {
            load,
            conf,
            recent: &recent,
            grace_ms: grace,
            now_ms,
            ema: &self.ema,
            policies,
            rng,
        };
        let mut out = self
            .strategies
            .get_mut(strategy)
            .find_bundles_for_unloading(&mut cx);
        if out.unloads.is_empty() && !out.events.iter().any(|e| matches!(e, ShedEvent::Idle { .. })) {
            out.events.push(ShedEvent::Idle {
                strategy,
                reason: IdleReason::NoBundleSelected,
            });
        }
        out
    }
}

impl Shedder {
    /// What the configured strategy compares now ([`inputs::ShedInputs`]): its
    /// history as its last pass left it, read with the leader's `load` data.
    pub fn inputs(&self, load: &LoadData, conf: &Config, now_ms: u64) -> inputs::ShedInputs {
        let cx = inputs::InputsContext {
            load,
            conf,
            ema: &self.ema,
            now_ms,
        };
        self.strategies
            .get(conf.load_balancer_load_shedding_strategy)
            .inputs(&cx)
    }
}

/// Event for a bundle skipped by the grace period.
pub(crate) fn recently_unloaded_event(
    strategy: SheddingStrategy,
    broker: &BrokerId,
    bundle: &BundleId,
    at: u64,
    grace: u64,
) -> ShedEvent {
    ShedEvent::RecentlyUnloaded {
        strategy,
        broker: broker.clone(),
        bundle: bundle.clone(),
        unloaded_at_ms: at,
        eligible_at_ms: at.saturating_add(grace),
    }
}

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod transfer_shedder_test;
