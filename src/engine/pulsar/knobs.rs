//! Every Pulsar config key lbscope knows, as `broker.conf` spells it: type and
//! range, unit, settings-panel section and a one-line doc. Defaults come from the
//! version profiles ([`super::config::Profile`]).

use super::config::{PlacementStrategy, SheddingStrategy};
use crate::engine::schema::{Kind, Knob};

const fn float(min: f64, max: f64) -> Kind {
    Kind::Float { min, max }
}
const fn int(min: i64, max: i64) -> Kind {
    Kind::Int { min, max }
}
const PERCENT: Kind = float(0.0, 100.0);
const FRACTION: Kind = float(0.0, 1.0);
const WEIGHT: Kind = float(0.0, 1_000.0);
const RATE: Kind = float(0.0, 1.0e15);
const MINUTES: Kind = int(0, 525_600);
const COUNT: Kind = int(0, i32::MAX as i64);

const MANAGER: &str = "Load manager";
const SHED: &str = "Shedding";
const PLACE: &str = "Placement";
const SPLIT: &str = "Bundle split";
const REPORT: &str = "Load reports";
const SIM: &str = "Simulation";
const SCALABLE: &str = "Scalable topics";
const SIGNED: Kind = int(i32::MIN as i64, i32::MAX as i64);
const SECONDS: Kind = int(i32::MIN as i64, 86_400 * 365);

/// The table.
pub(super) const KNOBS: &[Knob] = &[
    Knob::new(
        "profile",
        Kind::Choice(&["pulsar-5.0", "pulsar-4.2", "pulsar-4.0"]),
        MANAGER,
        "lbscope's own: the Pulsar release whose defaults and behaviour this config follows (keys left out take its values; pulsar-4.x, an older name, reads as pulsar-4.2).",
    ),
    Knob::new(
        "loadManagerClassName",
        Kind::Choice(&["ModularLoadManagerImpl", "ExtensibleLoadManagerImpl"]),
        MANAGER,
        "Which load manager runs: modular (the leader decides, an unloaded bundle is placed at the next lookup) or extensible (decisions pre-assign the destination).",
    ),
    Knob::new("loadBalancerEnabled", Kind::Bool, MANAGER, "Whether the load manager balances: shedding, and under the extensible load manager automatic splits (the modular split check reads only loadBalancerAutoBundleSplitEnabled)."),
    Knob::new("defaultNumberOfNamespaceBundles", int(1, 65_536), MANAGER, "Bundles a new namespace is sharded into when none is given."),
    Knob::new("defaultNumberOfSystemNamespaceBundles", int(1, 65_536), MANAGER, "Bundles of the pulsar/system namespace when the broker creates it.")
        .aliases(&["systemNamespaceBundles"]),
    Knob::new("loadBalancerSheddingEnabled", Kind::Bool, SHED, "Whether the leader unloads bundles from overloaded brokers."),
    Knob::new("loadBalancerSheddingIntervalMinutes", MINUTES, SHED, "How often shedding runs.").unit("min"),
    Knob::new("loadBalancerSheddingGracePeriodMinutes", MINUTES, SHED, "A bundle unloaded this recently is not unloaded again.").unit("min"),
    Knob::new(
        "loadBalancerLoadSheddingStrategy",
        Kind::Choice(SheddingStrategy::NAMES),
        SHED,
        "The shedder: which bundles leave which brokers.",
    ),
    Knob::new(
        "loadBalancerLoadPlacementStrategy",
        Kind::Choice(PlacementStrategy::NAMES),
        PLACE,
        "The placement strategy: which broker gets an unowned bundle (modular load manager).",
    ),
    Knob::new("loadBalancerDistributeBundlesEvenlyEnabled", Kind::Bool, PLACE, "Before scoring, keep only the brokers owning the fewest bundles of the bundle's namespace."),
    Knob::new("loadBalancerBrokerOverloadedThresholdPercentage", PERCENT, SHED, "A broker above this usage is overloaded (OverloadShedder; placement avoids it).").unit("%"),
    Knob::new("loadBalancerBrokerThresholdShedderPercentage", PERCENT, SHED, "ThresholdShedder: a broker this far above the average usage sheds.").unit("%"),
    Knob::new("lowerBoundarySheddingEnabled", Kind::Bool, SHED, "ThresholdShedder: also shed when a broker is far below the average."),
    Knob::new("loadBalancerHistoryResourcePercentage", FRACTION, SHED, "Weight of the old value in the moving average of a broker's usage (0..1)."),
    Knob::new("loadBalancerCPUResourceWeight", WEIGHT, SHED, "Weight of CPU in the weighted usage."),
    Knob::new("loadBalancerMemoryResourceWeight", WEIGHT, SHED, "Weight of heap memory in the weighted usage (deprecated since Pulsar 3.0; 0 by default)."),
    Knob::new("loadBalancerDirectMemoryResourceWeight", WEIGHT, SHED, "Weight of direct memory in the weighted usage (0 by default)."),
    Knob::new("loadBalancerBandwidthInResourceWeight", WEIGHT, SHED, "Weight of inbound bandwidth in the weighted usage.")
        .aliases(&["loadBalancerBandwithInResourceWeight"]),
    Knob::new("loadBalancerBandwidthOutResourceWeight", WEIGHT, SHED, "Weight of outbound bandwidth in the weighted usage.")
        .aliases(&["loadBalancerBandwithOutResourceWeight"]),
    Knob::new("loadBalancerBundleUnloadMinThroughputThreshold", float(0.0, 1.0e9), SHED, "ThresholdShedder: a planned offload under this throughput is not done.").unit("MB"),
    Knob::new("loadBalancerMsgRateDifferenceShedderThreshold", float(0.0, 1.0e9), SHED, "UniformLoadShedder: shed when the busiest broker's message rate exceeds the least busy one's by this much.").unit("%"),
    Knob::new("loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold", float(0.0, 1.0e9), SHED, "UniformLoadShedder: shed when the busiest broker's throughput is this many times the least busy one's."),
    Knob::new("maxUnloadPercentage", FRACTION, SHED, "UniformLoadShedder / AvgShedder: the share of the difference to move."),
    Knob::new("maxUnloadBundleNumPerShedding", int(-1, i32::MAX as i64), SHED, "UniformLoadShedder / AvgShedder: most bundles per shedding (-1: no limit)."),
    Knob::new("minUnloadMessage", RATE, SHED, "UniformLoadShedder / AvgShedder: least message rate worth moving.").unit("msg/s"),
    Knob::new("minUnloadMessageThroughput", RATE, SHED, "UniformLoadShedder / AvgShedder: least throughput worth moving.").unit("B/s"),
    Knob::new("loadBalancerAvgShedderLowThreshold", PERCENT, SHED, "AvgShedder: a usage gap above this counts as a low hit.").unit("%"),
    Knob::new("loadBalancerAvgShedderHighThreshold", PERCENT, SHED, "AvgShedder: a usage gap above this counts as a high hit.").unit("%"),
    Knob::new("loadBalancerAvgShedderHitCountLowThreshold", COUNT, SHED, "AvgShedder: consecutive low hits before shedding."),
    Knob::new("loadBalancerAvgShedderHitCountHighThreshold", COUNT, SHED, "AvgShedder: consecutive high hits before shedding."),
    Knob::new("loadBalancerDebugModeEnabled", Kind::Bool, SHED, "Extensible: log every decision; TransferShedder then also counts the traffic a swap brings back."),
    Knob::new("loadBalanceSheddingDelayInSeconds", int(0, 86_400 * 365), SHED, "TransferShedder: a broker that unloaded cools down until it reports this long after the unload.").unit("s"),
    Knob::new("loadBalancerBrokerLoadDataTTLInSeconds", int(0, 86_400 * 365), SHED, "TransferShedder: load data older than this is left out.").unit("s"),
    Knob::new("loadBalancerMaxNumberOfBundlesInBundleLoadReport", int(-1, i32::MAX as i64), SHED, "How many of a broker's heaviest bundles its report lists (TransferShedder)."),
    Knob::new("loadBalancerBrokerLoadTargetStd", float(0.0, 1.0), SHED, "TransferShedder: shed while the standard deviation of broker loads is above this."),
    Knob::new("loadBalancerSheddingConditionHitCountThreshold", COUNT, SHED, "TransferShedder: rounds the condition must hold before shedding."),
    Knob::new("loadBalancerMaxNumberOfBrokerSheddingPerCycle", COUNT, SHED, "TransferShedder: most brokers shed per round."),
    Knob::new("loadBalancerTransferEnabled", Kind::Bool, SHED, "TransferShedder: pre-assign the destination (transfer) instead of a plain unload."),
    Knob::new("loadBalancerBrokerMaxTopics", COUNT, PLACE, "Brokers serving more topics than this are no placement candidates (extensible: this many, with no fall-back)."),
    Knob::new("failureDomainsEnabled", Kind::Bool, PLACE, "Anti-affinity groups spread over failure domains first."),
    Knob::new("loadBalancerSheddingBundlesWithPoliciesEnabled", Kind::Bool, SHED, "Extensible: TransferShedder may move bundles of namespaces with isolation or anti-affinity policies."),
    Knob::new("loadBalancerSheddingExcludedNamespaces", Kind::TextList, SHED, "Namespaces whose bundles are never shed; they are placed round-robin."),
    Knob::new("loadBalancerAverageResourceUsageDifferenceThresholdPercentage", PERCENT, PLACE, "LeastResourceUsageWithWeight: brokers this far under the average usage are the candidates.").unit("%"),
    Knob::new("loadBalancerAutoBundleSplitEnabled", Kind::Bool, SPLIT, "Whether hot bundles are split automatically."),
    Knob::new("loadBalancerAutoUnloadSplitBundlesEnabled", Kind::Bool, SPLIT, "Whether the halves of an automatic split are unloaded."),
    Knob::new("loadBalancerSplitIntervalMinutes", MINUTES, SPLIT, "How often the extensible load manager checks for splits.").unit("min"),
    Knob::new("loadBalancerNamespaceBundleMaxTopics", COUNT, SPLIT, "A bundle with more topics is split."),
    Knob::new("loadBalancerNamespaceBundleMaxSessions", COUNT, SPLIT, "A bundle with more producer + consumer sessions is split."),
    Knob::new("loadBalancerNamespaceBundleMaxMsgRate", RATE, SPLIT, "A bundle with a higher message rate is split.").unit("msg/s"),
    Knob::new("loadBalancerNamespaceBundleMaxBandwidthMbytes", RATE, SPLIT, "A bundle with more bandwidth is split.").unit("MB/s"),
    Knob::new("loadBalancerNamespaceMaximumBundles", int(1, 65_536), SPLIT, "A namespace never gets more bundles than this by splitting."),
    Knob::new("loadBalancerMaxNumberOfBundlesToSplitPerCycle", COUNT, SPLIT, "Extensible: most bundles split per check."),
    Knob::new("loadBalancerNamespaceBundleSplitConditionHitCountThreshold", COUNT, SPLIT, "Extensible: checks a bundle must be hot in a row before it is split."),
    Knob::new(
        "defaultNamespaceBundleSplitAlgorithm",
        Kind::Choice(&[
            "range_equally_divide",
            "topic_count_equally_divide",
            "specified_positions_divide",
            "flow_or_qps_equally_divide",
        ]),
        SPLIT,
        "Where an automatic split cuts the bundle's hash range.",
    ),
    Knob::new("flowOrQpsDifferenceThresholdPercentage", PERCENT, SPLIT, "flow_or_qps_equally_divide: how unequal the halves may be.").unit("%"),
    Knob::new("loadBalancerReportUpdateThresholdPercentage", COUNT, REPORT, "A broker publishes a new load report when a signal changed by more than this (usage in points, rates and bundle count in percent; a whole number, above 100 allowed as in Pulsar).").unit("%"),
    Knob::new("loadBalancerReportUpdateMaxIntervalMinutes", MINUTES, REPORT, "A broker publishes a load report at least this often.").unit("min"),
    Knob::new("loadBalancerResourceQuotaUpdateIntervalMinutes", MINUTES, REPORT, "How often the leader folds bundle samples into the averages.").unit("min"),
    Knob::new("scalableTopicsEnabled", Kind::Bool, SCALABLE, "5.0: the broker serves scalable topics (topic://, PIP-460): segments that split and merge with traffic."),
    Knob::new("scalableTopicAutoScaleEnabled", Kind::Bool, SCALABLE, "Automatic split and merge of segments (PIP-483); off: only split-segment / merge-segments change them."),
    Knob::new("scalableTopicMaxSegments", SIGNED, SCALABLE, "No automatic split past this many active segments."),
    Knob::new("scalableTopicMinSegments", SIGNED, SCALABLE, "No automatic merge at or under this many active segments (at least 1)."),
    Knob::new("scalableTopicMaxDagDepth", SIGNED, SCALABLE, "Most merges in a segment's lineage before it may merge no more (splits are not limited)."),
    Knob::new("scalableTopicSplitCooldownSeconds", SECONDS, SCALABLE, "Least time between two splits of a topic (manual or automatic).").unit("s"),
    Knob::new("scalableTopicMergeCooldownSeconds", SECONDS, SCALABLE, "Least time between two merges of a topic.").unit("s"),
    Knob::new("scalableTopicMergeWindowSeconds", SECONDS, SCALABLE, "A segment merges only when its load record, below every merge threshold, is at least this old.").unit("s"),
    Knob::new("scalableTopicSplitMsgRateInThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment publishing more messages than this splits.").unit("msg/s"),
    Knob::new("scalableTopicSplitBytesRateInThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment publishing more bytes than this splits.").unit("B/s"),
    Knob::new("scalableTopicSplitMsgRateOutThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment dispatching more messages than this splits.").unit("msg/s"),
    Knob::new("scalableTopicSplitBytesRateOutThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment dispatching more bytes than this splits.").unit("B/s"),
    Knob::new("scalableTopicMergeMsgRateInThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment counts as cold under this published message rate.").unit("msg/s"),
    Knob::new("scalableTopicMergeBytesRateInThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment counts as cold under this published byte rate.").unit("B/s"),
    Knob::new("scalableTopicMergeMsgRateOutThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment counts as cold under this dispatched message rate.").unit("msg/s"),
    Knob::new("scalableTopicMergeBytesRateOutThreshold", float(-1.0e15, 1.0e15), SCALABLE, "A segment counts as cold under this dispatched byte rate.").unit("B/s"),
    Knob::new("scalableTopicAutoScaleIntervalSeconds", int(1, 86_400 * 365), SCALABLE, "How often the controller evaluates split and merge (a consumer joining or leaving evaluates at once).").unit("s"),
    Knob::new("scalableTopicLoadReportIntervalSeconds", int(1, 86_400 * 365), SCALABLE, "How often a segment's owner samples its rates.").unit("s"),
    Knob::new("scalableTopicLoadReportRateChangeThreshold", float(0.0, 1.0e6), SCALABLE, "A sampled rate that moved by more than this share (or off zero) writes a new load record."),
    Knob::new("roundSeconds", int(1, 86_400), SIM, "lbscope's own: simulated time of one round.").unit("s"),
    // Keys of ServiceConfiguration's load-balancer section that lbscope does not model.
    Knob::new("loadBalancerPlacementStrategy", Kind::Text, PLACE, "Deprecated simple load manager's placement (leastLoadedServer).").unmodelled(),
    Knob::new("loadBalancerReportUpdateMinIntervalMillis", int(0, i32::MAX as i64), REPORT, "Least time between two load reports of a broker.").unit("ms").unmodelled(),
    Knob::new("loadBalancerHostUsageCheckIntervalMinutes", MINUTES, REPORT, "How often a broker samples its host's usage.").unit("min").unmodelled(),
    Knob::new("loadBalancerBrokerUnderloadedThresholdPercentage", PERCENT, SHED, "Deprecated: usage under which a broker counted as underloaded.").unit("%").unmodelled(),
    Knob::new("loadBalancerBrokerComfortLoadLevelPercentage", PERCENT, SHED, "Deprecated: the simple load manager's comfort level.").unit("%").unmodelled(),
    Knob::new("atLeastOneBundleSelected", Kind::Bool, SHED, "Shed at least one bundle even when none reaches the minimum throughput.").unmodelled(),
    Knob::new("topicBundleAssignmentStrategy", Kind::Text, MANAGER, "The class that maps a topic to its bundle (consistent hashing by default).").unmodelled(),
    Knob::new("supportedNamespaceBundleSplitAlgorithms", Kind::TextList, SPLIT, "Split algorithms the admin API accepts.").unmodelled(),
    Knob::new("loadBalancerOverrideBrokerNicSpeedGbps", float(0.0, 1.0e6), REPORT, "Use this NIC speed instead of the one the host reports.").unit("Gbps").optional().unmodelled(),
    Knob::new("loadBalancerOverrideBrokerNics", Kind::TextList, REPORT, "NICs whose usage counts (4.2+).").unmodelled(),
    Knob::new("namespaceBundleUnloadingTimeoutMs", int(0, i64::MAX), MANAGER, "How long an unload may take before it fails.").unit("ms").unmodelled(),
    Knob::new("loadBalancerServiceUnitStateTombstoneDelayTimeInSeconds", int(0, i64::MAX), MANAGER, "Extensible: how long a Free/Deleted service-unit state is kept.").unit("s").unmodelled(),
    Knob::new("loadBalancerInFlightServiceUnitStateWaitingTimeInMillis", int(0, i64::MAX), MANAGER, "Extensible: how long an in-flight state may wait before it is fixed.").unit("ms").unmodelled(),
    Knob::new("loadBalancerServiceUnitStateMonitorIntervalInSeconds", int(0, i64::MAX), MANAGER, "Extensible: how often stale service-unit states are checked.").unit("s").unmodelled(),
    Knob::new("loadBalancerMultiPhaseBundleUnload", Kind::Bool, MANAGER, "Extensible: unload in the Releasing/Assigning phases.").unmodelled(),
    Knob::new("loadManagerServiceUnitStateTableViewClassName", Kind::Text, MANAGER, "Extensible: where service-unit states are stored.").unmodelled(),
    Knob::new("loadBalancerServiceUnitTableViewSyncer", Kind::Text, MANAGER, "Extensible: syncs the service-unit table views during a migration.").unmodelled(),
    Knob::new("loadBalancerServiceUnitStateMaxConcurrentOverrides", int(0, i32::MAX as i64), MANAGER, "Extensible: most concurrent state overrides.").unmodelled(),
    Knob::new("loadManagerMigrationEnabled", Kind::Bool, MANAGER, "5.0: migrate from the modular to the extensible load manager.").unmodelled(),
    Knob::new("preferLaterVersions", Kind::Bool, PLACE, "Prefer brokers of the newest version when placing.").unmodelled(),
];
