//! Pulsar's load-balancing configuration, with Pulsar's own key names
//! (`broker.conf`, `ServiceConfiguration`) and defaults, in three version
//! profiles (docs/modelled.md has the table).
//!
//! * **`pulsar-5.0`** (the default, as the course document calls 5.0 current):
//!   the defaults of Pulsar 5.0.0, i.e. apache/pulsar master (5.0.0-SNAPSHOT)
//!   after the 5.0.0-M1/M2 milestones: AvgShedder for shedding and placement,
//!   `maxUnloadPercentage` 0.5, distribute-evenly off, 32 bundles per namespace
//!   and 64 for `pulsar/system`.
//! * **`pulsar-4.2`**: the defaults of 4.2.x (and of the 4.0.x LTS line from
//!   4.0.8 on: their load-balancer defaults and code are the same):
//!   ThresholdShedder, LeastLongTermMessageRate, `maxUnloadPercentage` 0.2,
//!   distribute-evenly on, 4 bundles (the broker-created `pulsar/system` uses the
//!   same 4). It was called `pulsar-4.x` before; that name still reads as it.
//! * **`pulsar-4.0`**: 4.0.0 to 4.0.7, the same defaults as `pulsar-4.2`, but
//!   AvgShedder sorts brokers with the comparator that truncates the score
//!   difference to an `int` (fixed by apache/pulsar#24954, released in 4.0.8
//!   and 4.2.0): brokers less than one point apart compare equal.
//!
//! Every other default is the same in all three and is `ServiceConfiguration`'s.
//! The active profile is part of the config ([`Config::profile`]); reading a
//! config (a scenario, a share link, `SetConfig`) starts from that profile's
//! defaults (5.0 when the key is absent), so a scenario stores only what
//! differs from its own profile.

use serde::{Deserialize, Deserializer, Serialize};

/// Which load manager runs (`loadManagerClassName`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum LoadManager {
    /// `ModularLoadManagerImpl`: the leader decides; an unloaded bundle is assigned
    /// at the next client lookup (post-assignment).
    #[default]
    #[serde(rename = "ModularLoadManagerImpl")]
    Modular,
    /// `ExtensibleLoadManagerImpl`: decisions pre-assign the destination; ownership
    /// moves through the service-unit state channel.
    #[serde(rename = "ExtensibleLoadManagerImpl")]
    Extensible,
}

pub use super::shed::SheddingStrategy;

pub use super::place::PlacementStrategy;

/// Namespace bundle split algorithm names (`defaultNamespaceBundleSplitAlgorithm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SplitAlgorithm {
    /// Split the hash range in the middle.
    #[default]
    RangeEquallyDivide,
    /// Split so both halves hold the same number of topics.
    TopicCountEquallyDivide,
    /// Split at positions given by the operator (manual only).
    SpecifiedPositionsDivide,
    /// Split so the halves carry about equal message rate / throughput.
    FlowOrQpsEquallyDivide,
}

/// The version profiles; see the module doc for which Pulsar release each
/// one follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Profile {
    /// Pulsar 4.0.0 to 4.0.7: the 4.2 defaults, and AvgShedder's broker sort
    /// before apache/pulsar#24954 (score differences truncated to an `int`).
    #[serde(rename = "pulsar-4.0")]
    Pulsar40,
    /// Pulsar 4.2.x (and 4.0.8 or later): 4 bundles, ThresholdShedder +
    /// LeastLongTermMessageRate, `maxUnloadPercentage` 0.2, distribute-evenly on.
    /// Written `pulsar-4.x` by older builds (read as this profile).
    #[serde(rename = "pulsar-4.2", alias = "pulsar-4.x")]
    Pulsar4,
    /// Pulsar 5.0.0 (apache/pulsar master): 32 bundles (64 for `pulsar/system`),
    /// AvgShedder for shedding and placement, `maxUnloadPercentage` 0.5,
    /// distribute-evenly off.
    #[default]
    #[serde(rename = "pulsar-5.0")]
    Pulsar5,
}

impl Profile {
    /// Every profile, the default first.
    pub const ALL: [Profile; 3] = [Profile::Pulsar5, Profile::Pulsar4, Profile::Pulsar40];

    /// The name a scenario writes (`pulsar-4.2`, …).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Pulsar40 => "pulsar-4.0",
            Profile::Pulsar4 => "pulsar-4.2",
            Profile::Pulsar5 => "pulsar-5.0",
        }
    }

    /// A 4.x release (4.0 or 4.2): the 4.x defaults and start-up rules.
    pub fn is_4x(self) -> bool {
        matches!(self, Profile::Pulsar40 | Profile::Pulsar4)
    }

    /// Whether AvgShedder sorts brokers with the `int`-truncating comparator
    /// (`(int) (score1 - score2)`, before apache/pulsar#24954).
    pub fn avg_shedder_truncates_scores(self) -> bool {
        self == Profile::Pulsar40
    }
}

/// Declares [`Config`] and its private deserialization twin from one field list.
macro_rules! config_struct {
    ($( $(#[$meta:meta])* $field:ident : $ty:ty, )*) => {
        /// Every knob the doc names, with Pulsar's key names. Defaults depend on
        /// the [`Profile`] (`Config::default()` is the 5.0 profile).
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(rename_all = "camelCase")]
        pub struct Config {
            $( $(#[$meta])* pub $field: $ty, )*
        }

        /// What a config reads into once the profile's defaults fill the gaps.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Fields {
            $( $(#[$meta])* $field: $ty, )*
        }

        impl From<Fields> for Config {
            fn from(f: Fields) -> Self {
                Config { $( $field: f.$field, )* }
            }
        }
    };
}

config_struct! {
    /// The version profile whose defaults this config starts from (lbscope's own
    /// key: `pulsar-5.0`, `pulsar-4.2` (older builds wrote `pulsar-4.x`) or `pulsar-4.0`): keys a scenario leaves out take this
    /// profile's values, and the playground shows it.
    profile: Profile,
    /// `loadManagerClassName`.
    load_manager_class_name: LoadManager,
    /// `loadBalancerEnabled`.
    load_balancer_enabled: bool,
    /// `defaultNumberOfNamespaceBundles` (4.x: 4, 5.0: 32).
    default_number_of_namespace_bundles: u32,
    /// `defaultNumberOfSystemNamespaceBundles`: bundles of `pulsar/system` when the
    /// broker creates it (5.0: 64; 4.x has no such key and uses
    /// `defaultNumberOfNamespaceBundles`, so 4). The older lbscope key
    /// `systemNamespaceBundles` is accepted as an alias.
    default_number_of_system_namespace_bundles: u32,
    /// `loadBalancerSheddingEnabled`.
    load_balancer_shedding_enabled: bool,
    /// `loadBalancerSheddingIntervalMinutes`.
    load_balancer_shedding_interval_minutes: u32,
    /// `loadBalancerSheddingGracePeriodMinutes`: a recently unloaded bundle is skipped this long.
    load_balancer_shedding_grace_period_minutes: u32,
    /// `loadBalancerLoadSheddingStrategy` (4.x: ThresholdShedder, 5.0: AvgShedder).
    load_balancer_load_shedding_strategy: SheddingStrategy,
    /// `loadBalancerLoadPlacementStrategy` (4.x: LeastLongTermMessageRate, 5.0: AvgShedder).
    load_balancer_load_placement_strategy: PlacementStrategy,
    /// `loadBalancerDistributeBundlesEvenlyEnabled` (4.x: true, 5.0: false).
    load_balancer_distribute_bundles_evenly_enabled: bool,
    /// `loadBalancerBrokerOverloadedThresholdPercentage` (OverloadShedder, placement).
    load_balancer_broker_overloaded_threshold_percentage: f64,
    /// `loadBalancerBrokerThresholdShedderPercentage` (ThresholdShedder).
    load_balancer_broker_threshold_shedder_percentage: f64,
    /// `lowerBoundarySheddingEnabled` (ThresholdShedder).
    lower_boundary_shedding_enabled: bool,
    /// `loadBalancerHistoryResourcePercentage`: weight of the old value in the moving average.
    load_balancer_history_resource_percentage: f64,
    /// `loadBalancerCPUResourceWeight`.
    #[serde(rename = "loadBalancerCPUResourceWeight")]
    load_balancer_cpu_resource_weight: f64,
    /// `loadBalancerMemoryResourceWeight` (deprecated since Pulsar 3.0, default 0:
    /// heap memory is no longer a load-balancing signal).
    load_balancer_memory_resource_weight: f64,
    /// `loadBalancerDirectMemoryResourceWeight` (default 0: direct memory does not
    /// reflect a broker's load).
    load_balancer_direct_memory_resource_weight: f64,
    /// `loadBalancerBandwidthInResourceWeight`. Pulsar still reads the misspelt
    /// deprecated `loadBalancerBandwithInResourceWeight`; lbscope accepts it as an
    /// alias (when both are given, the correct key wins unless it is 1.0, as
    /// `getLoadBalancerBandwidthInResourceWeight` decides).
    load_balancer_bandwidth_in_resource_weight: f64,
    /// `loadBalancerBandwidthOutResourceWeight`. The misspelt deprecated
    /// `loadBalancerBandwithOutResourceWeight` is accepted as an alias, resolved as
    /// for the in-bound weight.
    load_balancer_bandwidth_out_resource_weight: f64,
    /// `loadBalancerBundleUnloadMinThroughputThreshold` in MB.
    load_balancer_bundle_unload_min_throughput_threshold: f64,
    /// `loadBalancerMsgRateDifferenceShedderThreshold` (UniformLoadShedder), percent.
    load_balancer_msg_rate_difference_shedder_threshold: f64,
    /// `loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold` (UniformLoadShedder).
    load_balancer_msg_throughput_multiplier_difference_shedder_threshold: f64,
    /// `maxUnloadPercentage` (UniformLoadShedder, AvgShedder; 4.x: 0.2, 5.0: 0.5).
    max_unload_percentage: f64,
    /// `maxUnloadBundleNumPerShedding` (UniformLoadShedder, AvgShedder); -1 = no limit.
    max_unload_bundle_num_per_shedding: i32,
    /// `minUnloadMessage` (UniformLoadShedder, AvgShedder), msg/s.
    min_unload_message: f64,
    /// `minUnloadMessageThroughput` (UniformLoadShedder, AvgShedder), bytes/s.
    min_unload_message_throughput: f64,
    /// `loadBalancerAvgShedderLowThreshold`.
    load_balancer_avg_shedder_low_threshold: f64,
    /// `loadBalancerAvgShedderHighThreshold`.
    load_balancer_avg_shedder_high_threshold: f64,
    /// `loadBalancerAvgShedderHitCountLowThreshold`.
    load_balancer_avg_shedder_hit_count_low_threshold: u32,
    /// `loadBalancerAvgShedderHitCountHighThreshold`.
    load_balancer_avg_shedder_hit_count_high_threshold: u32,
    /// `loadBalancerDebugModeEnabled` (extensible load manager). Besides logging,
    /// it changes one decision: TransferShedder counts the traffic a swap brings
    /// back (`trafficMarkedToGain`) only in debug mode.
    load_balancer_debug_mode_enabled: bool,
    /// `loadBalancerBrokerLoadTargetStd` (TransferShedder).
    load_balancer_broker_load_target_std: f64,
    /// `loadBalancerSheddingConditionHitCountThreshold` (TransferShedder).
    load_balancer_shedding_condition_hit_count_threshold: u32,
    /// `loadBalancerTransferEnabled` (TransferShedder: transfer vs plain unload).
    load_balancer_transfer_enabled: bool,
    /// `loadBalancerMaxNumberOfBrokerSheddingPerCycle` (TransferShedder).
    load_balancer_max_number_of_broker_shedding_per_cycle: u32,
    /// `loadBalanceSheddingDelayInSeconds` (TransferShedder): a broker that
    /// unloaded a bundle cools down until it reports load at least this long
    /// after the unload.
    load_balance_shedding_delay_in_seconds: u64,
    /// `loadBalancerBrokerLoadDataTTLInSeconds` (TransferShedder): load data older
    /// than this is left out of the statistics.
    #[serde(rename = "loadBalancerBrokerLoadDataTTLInSeconds")]
    load_balancer_broker_load_data_ttl_in_seconds: u64,
    /// `loadBalancerMaxNumberOfBundlesInBundleLoadReport`: the `k` of a broker's
    /// top-bundles report (TransferShedder; 0 or less reports none).
    load_balancer_max_number_of_bundles_in_bundle_load_report: i32,
    /// `loadBalancerBrokerMaxTopics`: modular, brokers serving more topics (incl.
    /// preallocated bundles) are filtered out of assignment candidates unless all
    /// are (`LoadManagerShared.filterBrokersWithLargeTopicCount`); extensible,
    /// brokers reporting at least this many are, with no fall-back
    /// (`BrokerMaxTopicCountFilter`).
    load_balancer_broker_max_topics: u32,
    /// `failureDomainsEnabled`: the anti-affinity filter spreads a group over the
    /// failure domains first (`pulsar-admin clusters create-failure-domain`).
    failure_domains_enabled: bool,
    /// `loadBalancerSheddingBundlesWithPoliciesEnabled` (extensible): TransferShedder
    /// may move bundles of namespaces with an isolation policy or an anti-affinity
    /// group (always within what the policies allow).
    load_balancer_shedding_bundles_with_policies_enabled: bool,
    /// `loadBalancerSheddingExcludedNamespaces` (PIP-380): namespaces whose bundles
    /// are never shed and are placed round-robin.
    load_balancer_shedding_excluded_namespaces: Vec<String>,
    /// `loadBalancerAverageResourceUsageDifferenceThresholdPercentage` (LeastResourceUsageWithWeight).
    load_balancer_average_resource_usage_difference_threshold_percentage: f64,
    /// `loadBalancerAutoBundleSplitEnabled`.
    load_balancer_auto_bundle_split_enabled: bool,
    /// `loadBalancerAutoUnloadSplitBundlesEnabled`.
    load_balancer_auto_unload_split_bundles_enabled: bool,
    /// `loadBalancerSplitIntervalMinutes` (extensible).
    load_balancer_split_interval_minutes: u32,
    /// `loadBalancerNamespaceBundleMaxTopics`.
    load_balancer_namespace_bundle_max_topics: u32,
    /// `loadBalancerNamespaceBundleMaxSessions`.
    load_balancer_namespace_bundle_max_sessions: u32,
    /// `loadBalancerNamespaceBundleMaxMsgRate`.
    load_balancer_namespace_bundle_max_msg_rate: f64,
    /// `loadBalancerNamespaceBundleMaxBandwidthMbytes`.
    load_balancer_namespace_bundle_max_bandwidth_mbytes: f64,
    /// `loadBalancerNamespaceMaximumBundles`.
    load_balancer_namespace_maximum_bundles: u32,
    /// `loadBalancerMaxNumberOfBundlesToSplitPerCycle` (extensible).
    load_balancer_max_number_of_bundles_to_split_per_cycle: u32,
    /// `loadBalancerNamespaceBundleSplitConditionHitCountThreshold` (extensible).
    load_balancer_namespace_bundle_split_condition_hit_count_threshold: u32,
    /// `defaultNamespaceBundleSplitAlgorithm`.
    default_namespace_bundle_split_algorithm: SplitAlgorithm,
    /// `flowOrQpsDifferenceThresholdPercentage` (flow_or_qps_equally_divide).
    flow_or_qps_difference_threshold_percentage: f64,
    /// `loadBalancerReportUpdateThresholdPercentage`.
    load_balancer_report_update_threshold_percentage: f64,
    /// `loadBalancerReportUpdateMaxIntervalMinutes`.
    load_balancer_report_update_max_interval_minutes: u32,
    /// `loadBalancerResourceQuotaUpdateIntervalMinutes`.
    load_balancer_resource_quota_update_interval_minutes: u32,
    /// `scalableTopicsEnabled` (5.0): whether the broker serves scalable
    /// topics (`topic://`, PIP-460). The 4.x profile has no scalable topics.
    scalable_topics_enabled: bool,
    /// `scalableTopicAutoScaleEnabled` (PIP-483): automatic split/merge.
    scalable_topic_auto_scale_enabled: bool,
    /// `scalableTopicMaxSegments`: no automatic split past this many active segments.
    scalable_topic_max_segments: i64,
    /// `scalableTopicMinSegments`: no automatic merge at or under this many.
    scalable_topic_min_segments: i64,
    /// `scalableTopicMaxDagDepth`: most merges in a segment's lineage before it may not merge.
    scalable_topic_max_dag_depth: i64,
    /// `scalableTopicSplitCooldownSeconds`.
    scalable_topic_split_cooldown_seconds: i64,
    /// `scalableTopicMergeCooldownSeconds`.
    scalable_topic_merge_cooldown_seconds: i64,
    /// `scalableTopicMergeWindowSeconds`: how long a segment's record must be
    /// unchanged and cold before it may merge.
    scalable_topic_merge_window_seconds: i64,
    /// `scalableTopicSplitMsgRateInThreshold`, msg/s.
    scalable_topic_split_msg_rate_in_threshold: f64,
    /// `scalableTopicSplitBytesRateInThreshold`, bytes/s.
    scalable_topic_split_bytes_rate_in_threshold: f64,
    /// `scalableTopicSplitMsgRateOutThreshold`, msg/s.
    scalable_topic_split_msg_rate_out_threshold: f64,
    /// `scalableTopicSplitBytesRateOutThreshold`, bytes/s.
    scalable_topic_split_bytes_rate_out_threshold: f64,
    /// `scalableTopicMergeMsgRateInThreshold`, msg/s.
    scalable_topic_merge_msg_rate_in_threshold: f64,
    /// `scalableTopicMergeBytesRateInThreshold`, bytes/s.
    scalable_topic_merge_bytes_rate_in_threshold: f64,
    /// `scalableTopicMergeMsgRateOutThreshold`, msg/s.
    scalable_topic_merge_msg_rate_out_threshold: f64,
    /// `scalableTopicMergeBytesRateOutThreshold`, bytes/s.
    scalable_topic_merge_bytes_rate_out_threshold: f64,
    /// `scalableTopicAutoScaleIntervalSeconds`: the controller's evaluation interval.
    scalable_topic_auto_scale_interval_seconds: u64,
    /// `scalableTopicLoadReportIntervalSeconds`: the segment load reporters' interval.
    scalable_topic_load_report_interval_seconds: u64,
    /// `scalableTopicLoadReportRateChangeThreshold`: relative change that writes a new record.
    scalable_topic_load_report_rate_change_threshold: f64,
    /// Simulated length of one round, in seconds (lbscope's own knob).
    round_seconds: u32,
    /// Keys Pulsar has that lbscope does not model: kept, so a link keeps them.
    #[serde(flatten)]
    unmodelled: std::collections::BTreeMap<String, serde_json::Value>,
}

/// Misspelt keys Pulsar still reads, and the key they stand for.
const ALIASES: [(&str, &str); 2] = [
    (
        "loadBalancerBandwithInResourceWeight",
        "loadBalancerBandwidthInResourceWeight",
    ),
    (
        "loadBalancerBandwithOutResourceWeight",
        "loadBalancerBandwidthOutResourceWeight",
    ),
];

impl<'de> Deserialize<'de> for Config {
    /// Reads the keys given over the defaults of the given (or default) profile.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        use serde_json::Value;
        let mut given = serde_json::Map::<String, Value>::deserialize(d)?;
        let profile = match given.get("profile") {
            Some(v) => Profile::deserialize(v).map_err(|_| {
                D::Error::custom(format!(
                    "unknown profile {v}; the Pulsar profiles are {}",
                    Profile::ALL.map(Profile::name).join(", ")
                ))
            })?,
            None => Profile::default(),
        };
        for (old, new) in ALIASES {
            if let Some(v) = given.remove(old) {
                // ServiceConfiguration: the correct key unless it is left at 1.0.
                let keep_new = given.get(new).is_some_and(|n| n.as_f64() != Some(1.0));
                if !keep_new {
                    given.insert(new.to_string(), v);
                }
            }
        }
        if let Some(v) = given.remove("systemNamespaceBundles") {
            given.entry("defaultNumberOfSystemNamespaceBundles").or_insert(v);
        }
        let mut merged = match serde_json::to_value(Config::profile(profile)) {
            Ok(Value::Object(m)) => m,
            _ => return Err(D::Error::custom("the profile defaults could not be built")),
        };
        merged.extend(given);
        Fields::deserialize(Value::Object(merged))
            .map(Config::from)
            .map_err(D::Error::custom)
    }
}

impl Default for Config {
    /// The 5.0 profile (the course document calls the 5.0 defaults current).
    fn default() -> Self {
        Config::profile(Profile::Pulsar5)
    }
}

impl Config {
    /// This config under load manager `lm`. Each load manager instantiates only
    /// shedders of its own interface, so a shedder the new one cannot load is
    /// replaced: TransferShedder for the extensible manager (its one
    /// `NamespaceUnloadStrategy`), the modular default for the modular manager.
    pub fn with_load_manager(mut self, lm: LoadManager) -> Config {
        self.load_manager_class_name = lm;
        if self.load_balancer_load_shedding_strategy.interface().manager() != lm {
            self.load_balancer_load_shedding_strategy = match lm {
                LoadManager::Extensible => SheddingStrategy::TransferShedder,
                LoadManager::Modular => SheddingStrategy::default(),
            };
        }
        self
    }

    /// The defaults of a version profile (`ServiceConfiguration` of that release).
    pub fn profile(p: Profile) -> Config {
        let v5 = Config {
            profile: Profile::Pulsar5,
            load_manager_class_name: LoadManager::Modular,
            load_balancer_enabled: true,
            default_number_of_namespace_bundles: 32,
            default_number_of_system_namespace_bundles: 64,
            load_balancer_shedding_enabled: true,
            load_balancer_shedding_interval_minutes: 1,
            load_balancer_shedding_grace_period_minutes: 30,
            load_balancer_load_shedding_strategy: SheddingStrategy::AvgShedder,
            load_balancer_load_placement_strategy: PlacementStrategy::AvgShedder,
            load_balancer_distribute_bundles_evenly_enabled: false,
            load_balancer_broker_overloaded_threshold_percentage: 85.0,
            load_balancer_broker_threshold_shedder_percentage: 10.0,
            lower_boundary_shedding_enabled: false,
            load_balancer_history_resource_percentage: 0.9,
            load_balancer_cpu_resource_weight: 1.0,
            load_balancer_memory_resource_weight: 0.0,
            load_balancer_direct_memory_resource_weight: 0.0,
            load_balancer_bandwidth_in_resource_weight: 1.0,
            load_balancer_bandwidth_out_resource_weight: 1.0,
            load_balancer_bundle_unload_min_throughput_threshold: 10.0,
            load_balancer_msg_rate_difference_shedder_threshold: 50.0,
            load_balancer_msg_throughput_multiplier_difference_shedder_threshold: 4.0,
            max_unload_percentage: 0.5,
            max_unload_bundle_num_per_shedding: -1,
            min_unload_message: 1000.0,
            min_unload_message_throughput: 1024.0 * 1024.0,
            load_balancer_avg_shedder_low_threshold: 15.0,
            load_balancer_avg_shedder_high_threshold: 40.0,
            load_balancer_avg_shedder_hit_count_low_threshold: 8,
            load_balancer_avg_shedder_hit_count_high_threshold: 2,
            load_balancer_debug_mode_enabled: false,
            load_balancer_broker_load_target_std: 0.25,
            load_balancer_shedding_condition_hit_count_threshold: 3,
            load_balancer_transfer_enabled: true,
            load_balancer_max_number_of_broker_shedding_per_cycle: 3,
            load_balance_shedding_delay_in_seconds: 180,
            load_balancer_broker_load_data_ttl_in_seconds: 1800,
            load_balancer_max_number_of_bundles_in_bundle_load_report: 10,
            load_balancer_broker_max_topics: 50_000,
            failure_domains_enabled: false,
            load_balancer_shedding_bundles_with_policies_enabled: false,
            load_balancer_shedding_excluded_namespaces: Vec::new(),
            load_balancer_average_resource_usage_difference_threshold_percentage: 10.0,
            load_balancer_auto_bundle_split_enabled: true,
            load_balancer_auto_unload_split_bundles_enabled: true,
            load_balancer_split_interval_minutes: 1,
            load_balancer_namespace_bundle_max_topics: 1000,
            load_balancer_namespace_bundle_max_sessions: 1000,
            load_balancer_namespace_bundle_max_msg_rate: 30000.0,
            load_balancer_namespace_bundle_max_bandwidth_mbytes: 100.0,
            load_balancer_namespace_maximum_bundles: 128,
            load_balancer_max_number_of_bundles_to_split_per_cycle: 10,
            load_balancer_namespace_bundle_split_condition_hit_count_threshold: 3,
            default_namespace_bundle_split_algorithm: SplitAlgorithm::RangeEquallyDivide,
            flow_or_qps_difference_threshold_percentage: 10.0,
            load_balancer_report_update_threshold_percentage: 10.0,
            load_balancer_report_update_max_interval_minutes: 15,
            load_balancer_resource_quota_update_interval_minutes: 15,
            scalable_topics_enabled: true,
            scalable_topic_auto_scale_enabled: true,
            scalable_topic_max_segments: 64,
            scalable_topic_min_segments: 1,
            scalable_topic_max_dag_depth: 10,
            scalable_topic_split_cooldown_seconds: 60,
            scalable_topic_merge_cooldown_seconds: 300,
            scalable_topic_merge_window_seconds: 300,
            scalable_topic_split_msg_rate_in_threshold: 10_000.0,
            scalable_topic_split_bytes_rate_in_threshold: 50_000_000.0,
            scalable_topic_split_msg_rate_out_threshold: 50_000.0,
            scalable_topic_split_bytes_rate_out_threshold: 250_000_000.0,
            scalable_topic_merge_msg_rate_in_threshold: 1_000.0,
            scalable_topic_merge_bytes_rate_in_threshold: 5_000_000.0,
            scalable_topic_merge_msg_rate_out_threshold: 5_000.0,
            scalable_topic_merge_bytes_rate_out_threshold: 25_000_000.0,
            scalable_topic_auto_scale_interval_seconds: 60,
            scalable_topic_load_report_interval_seconds: 10,
            scalable_topic_load_report_rate_change_threshold: 0.25,
            round_seconds: 60,
            unmodelled: Default::default(),
        };
        match p {
            Profile::Pulsar5 => v5,
            Profile::Pulsar4 | Profile::Pulsar40 => Config {
                profile: p,
                default_number_of_namespace_bundles: 4,
                default_number_of_system_namespace_bundles: 4,
                load_balancer_load_shedding_strategy: SheddingStrategy::ThresholdShedder,
                load_balancer_load_placement_strategy: PlacementStrategy::LeastLongTermMessageRate,
                load_balancer_distribute_bundles_evenly_enabled: true,
                max_unload_percentage: 0.2,
                ..v5
            },
        }
    }
}

#[cfg(test)]
mod tests {

    /// Switching the load manager keeps a shedder the new one can load and
    /// replaces one it cannot (derived by reading each manager's strategy
    /// loading: the modular manager instantiates `LoadSheddingStrategy`
    /// classes, the extensible one `NamespaceUnloadStrategy` classes).
    #[test]
    fn switching_the_load_manager_brings_a_shedder_it_can_load() {
        for &s in SheddingStrategy::ALL {
            for lm in [LoadManager::Modular, LoadManager::Extensible] {
                let c = Config {
                    load_balancer_load_shedding_strategy: s,
                    ..Config::default()
                }
                .with_load_manager(lm);
                assert_eq!(c.load_manager_class_name, lm);
                let kept = c.load_balancer_load_shedding_strategy;
                assert_eq!(kept.interface().manager(), lm, "{s:?} under {lm:?}");
                if s.interface().manager() == lm {
                    assert_eq!(kept, s, "a loadable shedder is kept");
                }
            }
        }
    }

    use super::*;

    #[test]
    fn default_is_the_5_0_profile_and_4_x_is_selectable() {
        // Defaults per profile from ServiceConfiguration (4.0.x / 4.2.x) and the
        // 5.0.0 load-balancer default changes.
        let d = Config::default();
        assert_eq!(d, Config::profile(Profile::Pulsar5));
        assert_eq!(d.profile, Profile::Pulsar5);
        assert_eq!(
            d.load_balancer_load_shedding_strategy,
            SheddingStrategy::AvgShedder
        );
        assert_eq!(
            d.load_balancer_load_placement_strategy,
            PlacementStrategy::AvgShedder
        );
        assert_eq!(d.max_unload_percentage, 0.5);
        assert!(!d.load_balancer_distribute_bundles_evenly_enabled);
        assert_eq!(
            (
                d.default_number_of_namespace_bundles,
                d.default_number_of_system_namespace_bundles
            ),
            (32, 64)
        );
        let f = Config::profile(Profile::Pulsar4);
        assert_eq!(f.profile, Profile::Pulsar4);
        assert_eq!(
            f.load_balancer_load_shedding_strategy,
            SheddingStrategy::ThresholdShedder
        );
        assert_eq!(
            f.load_balancer_load_placement_strategy,
            PlacementStrategy::LeastLongTermMessageRate
        );
        assert_eq!(f.max_unload_percentage, 0.2);
        assert!(f.load_balancer_distribute_bundles_evenly_enabled);
        assert_eq!(f.default_number_of_namespace_bundles, 4);
        for c in [&d, &f] {
            assert_eq!(c.load_balancer_memory_resource_weight, 0.0);
            assert_eq!(c.load_balancer_direct_memory_resource_weight, 0.0);
            assert_eq!(c.load_balancer_bandwidth_in_resource_weight, 1.0);
            assert_eq!(c.load_balance_shedding_delay_in_seconds, 180);
            assert_eq!(c.load_balancer_broker_load_data_ttl_in_seconds, 1800);
            assert!(!c.load_balancer_debug_mode_enabled);
        }
    }

    #[test]
    fn reading_starts_from_the_named_profile() {
        let c: Config =
            serde_json::from_str(r#"{"profile": "pulsar-4.x", "maxUnloadPercentage": 0.3}"#).unwrap();
        assert_eq!(
            c,
            Config {
                max_unload_percentage: 0.3,
                ..Config::profile(Profile::Pulsar4)
            }
        );
        let c: Config = serde_json::from_str("{}").unwrap();
        assert_eq!(c, Config::default());
        let j = serde_json::to_string(&Config::profile(Profile::Pulsar4)).unwrap();
        assert!(j.contains(r#""profile":"pulsar-4.2""#), "{j}");
        assert!(j.contains("loadBalancerBandwidthInResourceWeight"), "{j}");
        assert!(j.contains("loadBalancerBrokerLoadDataTTLInSeconds"), "{j}");
        assert_eq!(
            serde_json::from_str::<Config>(&j).unwrap(),
            Config::profile(Profile::Pulsar4)
        );
        let e = serde_json::from_str::<Config>(r#"{"profile": "pulsar-9"}"#).unwrap_err();
        assert!(
            e.to_string().contains(
                "unknown profile \"pulsar-9\"; the Pulsar profiles are pulsar-5.0, pulsar-4.2, pulsar-4.0"
            ),
            "{e}"
        );
        // The 4.0 profile has the 4.2 defaults; only its profile key differs.
        let c40: Config = serde_json::from_str(r#"{"profile": "pulsar-4.0"}"#).unwrap();
        assert_eq!(
            c40,
            Config {
                profile: Profile::Pulsar40,
                ..Config::profile(Profile::Pulsar4)
            }
        );
        assert!(serde_json::from_str::<Config>(r#"{"maxUnloadPercentage": "x"}"#).is_err());
    }

    #[test]
    fn misspelt_bandwidth_keys_are_aliases() {
        // ServiceConfiguration.getLoadBalancerBandwidthInResourceWeight: the
        // correct key if it is not 1.0, else the deprecated one.
        let old: Config = serde_json::from_str(
            r#"{"loadBalancerBandwithInResourceWeight": 2.0, "loadBalancerBandwithOutResourceWeight": 3.0}"#,
        )
        .unwrap();
        assert_eq!(old.load_balancer_bandwidth_in_resource_weight, 2.0);
        assert_eq!(old.load_balancer_bandwidth_out_resource_weight, 3.0);
        let both: Config = serde_json::from_str(
            r#"{"loadBalancerBandwithInResourceWeight": 2.0, "loadBalancerBandwidthInResourceWeight": 4.0,
                "loadBalancerBandwithOutResourceWeight": 2.0, "loadBalancerBandwidthOutResourceWeight": 1.0}"#,
        )
        .unwrap();
        assert_eq!(both.load_balancer_bandwidth_in_resource_weight, 4.0);
        assert_eq!(both.load_balancer_bandwidth_out_resource_weight, 2.0);
        let sys: Config = serde_json::from_str(r#"{"systemNamespaceBundles": 8}"#).unwrap();
        assert_eq!(sys.default_number_of_system_namespace_bundles, 8);
    }
}
