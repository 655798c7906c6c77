//! Pulsar's load-balancing configuration, with Pulsar's own key names
//! (`broker.conf`) and defaults, plus the two version profiles the doc contrasts.

use serde::{Deserialize, Serialize};

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

/// Load-shedding strategy (`loadBalancerLoadSheddingStrategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum SheddingStrategy {
    /// `OverloadShedder`.
    OverloadShedder,
    /// `ThresholdShedder` (the 4.x default).
    #[default]
    ThresholdShedder,
    /// `UniformLoadShedder`.
    UniformLoadShedder,
    /// `TransferShedder` (extensible load manager).
    TransferShedder,
    /// `AvgShedder`.
    AvgShedder,
}

/// Bundle placement strategy (`loadBalancerLoadPlacementStrategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PlacementStrategy {
    /// `LeastLongTermMessageRate` (the 4.x default).
    #[default]
    LeastLongTermMessageRate,
    /// `LeastResourceUsageWithWeight`.
    LeastResourceUsageWithWeight,
    /// `AvgShedder` used as a placement strategy (its planned destinations).
    AvgShedder,
}

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

/// The two version profiles the doc contrasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Profile {
    /// Pulsar 4.x defaults: 4 bundles, ThresholdShedder + LeastLongTermMessageRate,
    /// `maxUnloadPercentage` 0.2, distribute-evenly on.
    #[serde(rename = "pulsar-4.x")]
    Pulsar4,
    /// Pulsar 5.0 per the doc: 32 bundles (64 for `pulsar/system`), AvgShedder for
    /// shedding and placement, `maxUnloadPercentage` 0.5, distribute-evenly off.
    #[serde(rename = "pulsar-5.0")]
    Pulsar5,
}

/// Every knob the doc names, with Pulsar's key names and (4.x) defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Config {
    /// `loadManagerClassName`.
    pub load_manager_class_name: LoadManager,
    /// `loadBalancerEnabled`.
    pub load_balancer_enabled: bool,
    /// `defaultNumberOfNamespaceBundles`.
    pub default_number_of_namespace_bundles: u32,
    /// Bundles of the `pulsar/system` namespace on creation.
    pub system_namespace_bundles: u32,
    /// `loadBalancerSheddingEnabled`.
    pub load_balancer_shedding_enabled: bool,
    /// `loadBalancerSheddingIntervalMinutes`.
    pub load_balancer_shedding_interval_minutes: u32,
    /// `loadBalancerSheddingGracePeriodMinutes`: a recently unloaded bundle is skipped this long.
    pub load_balancer_shedding_grace_period_minutes: u32,
    /// `loadBalancerLoadSheddingStrategy`.
    pub load_balancer_load_shedding_strategy: SheddingStrategy,
    /// `loadBalancerLoadPlacementStrategy`.
    pub load_balancer_load_placement_strategy: PlacementStrategy,
    /// `loadBalancerDistributeBundlesEvenlyEnabled`.
    pub load_balancer_distribute_bundles_evenly_enabled: bool,
    /// `loadBalancerBrokerOverloadedThresholdPercentage` (OverloadShedder, placement).
    pub load_balancer_broker_overloaded_threshold_percentage: f64,
    /// `loadBalancerBrokerThresholdShedderPercentage` (ThresholdShedder).
    pub load_balancer_broker_threshold_shedder_percentage: f64,
    /// `lowerBoundarySheddingEnabled` (ThresholdShedder).
    pub lower_boundary_shedding_enabled: bool,
    /// `loadBalancerHistoryResourcePercentage`: weight of the old value in the moving average.
    pub load_balancer_history_resource_percentage: f64,
    /// `loadBalancerCPUResourceWeight`.
    #[serde(rename = "loadBalancerCPUResourceWeight")]
    pub load_balancer_cpu_resource_weight: f64,
    /// `loadBalancerMemoryResourceWeight`.
    pub load_balancer_memory_resource_weight: f64,
    /// `loadBalancerDirectMemoryResourceWeight`.
    pub load_balancer_direct_memory_resource_weight: f64,
    /// `loadBalancerBandwithInResourceWeight` (Pulsar's spelling).
    pub load_balancer_bandwith_in_resource_weight: f64,
    /// `loadBalancerBandwithOutResourceWeight` (Pulsar's spelling).
    pub load_balancer_bandwith_out_resource_weight: f64,
    /// `loadBalancerBundleUnloadMinThroughputThreshold` in MB.
    pub load_balancer_bundle_unload_min_throughput_threshold: f64,
    /// `loadBalancerMsgRateDifferenceShedderThreshold` (UniformLoadShedder), percent.
    pub load_balancer_msg_rate_difference_shedder_threshold: f64,
    /// `loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold` (UniformLoadShedder).
    pub load_balancer_msg_throughput_multiplier_difference_shedder_threshold: f64,
    /// `maxUnloadPercentage` (UniformLoadShedder, AvgShedder).
    pub max_unload_percentage: f64,
    /// `maxUnloadBundleNumPerShedding` (UniformLoadShedder, AvgShedder); -1 = no limit.
    pub max_unload_bundle_num_per_shedding: i32,
    /// `minUnloadMessage` (UniformLoadShedder, AvgShedder), msg/s.
    pub min_unload_message: f64,
    /// `minUnloadMessageThroughput` (UniformLoadShedder, AvgShedder), bytes/s.
    pub min_unload_message_throughput: f64,
    /// `loadBalancerAvgShedderLowThreshold`.
    pub load_balancer_avg_shedder_low_threshold: f64,
    /// `loadBalancerAvgShedderHighThreshold`.
    pub load_balancer_avg_shedder_high_threshold: f64,
    /// `loadBalancerAvgShedderHitCountLowThreshold`.
    pub load_balancer_avg_shedder_hit_count_low_threshold: u32,
    /// `loadBalancerAvgShedderHitCountHighThreshold`.
    pub load_balancer_avg_shedder_hit_count_high_threshold: u32,
    /// `loadBalancerBrokerLoadTargetStd` (TransferShedder).
    pub load_balancer_broker_load_target_std: f64,
    /// `loadBalancerSheddingConditionHitCountThreshold` (TransferShedder).
    pub load_balancer_shedding_condition_hit_count_threshold: u32,
    /// `loadBalancerMaxNumberOfBrokerSheddingPerCycle` (TransferShedder).
    pub load_balancer_max_number_of_broker_shedding_per_cycle: u32,
    /// `loadBalancerTransferEnabled` (TransferShedder: transfer vs plain unload).
    pub load_balancer_transfer_enabled: bool,
    /// `loadBalancerBrokerMaxTopics`: modular, brokers serving more topics (incl.
    /// preallocated bundles) are filtered out of assignment candidates unless all
    /// are (`LoadManagerShared.filterBrokersWithLargeTopicCount`); extensible,
    /// brokers reporting at least this many are, with no fall-back
    /// (`BrokerMaxTopicCountFilter`).
    pub load_balancer_broker_max_topics: u32,
    /// `failureDomainsEnabled`: the anti-affinity filter spreads a group over the
    /// failure domains first (`pulsar-admin clusters create-failure-domain`).
    pub failure_domains_enabled: bool,
    /// `loadBalancerSheddingBundlesWithPoliciesEnabled` (extensible): TransferShedder
    /// may move bundles of namespaces with an isolation policy or an anti-affinity
    /// group (always within what the policies allow).
    pub load_balancer_shedding_bundles_with_policies_enabled: bool,
    /// `loadBalancerSheddingExcludedNamespaces` (PIP-380): namespaces whose bundles
    /// are never shed and are placed round-robin.
    pub load_balancer_shedding_excluded_namespaces: Vec<String>,
    /// `loadBalancerAverageResourceUsageDifferenceThresholdPercentage` (LeastResourceUsageWithWeight).
    pub load_balancer_average_resource_usage_difference_threshold_percentage: f64,
    /// `loadBalancerAutoBundleSplitEnabled`.
    pub load_balancer_auto_bundle_split_enabled: bool,
    /// `loadBalancerAutoUnloadSplitBundlesEnabled`.
    pub load_balancer_auto_unload_split_bundles_enabled: bool,
    /// `loadBalancerSplitIntervalMinutes` (extensible).
    pub load_balancer_split_interval_minutes: u32,
    /// `loadBalancerNamespaceBundleMaxTopics`.
    pub load_balancer_namespace_bundle_max_topics: u32,
    /// `loadBalancerNamespaceBundleMaxSessions`.
    pub load_balancer_namespace_bundle_max_sessions: u32,
    /// `loadBalancerNamespaceBundleMaxMsgRate`.
    pub load_balancer_namespace_bundle_max_msg_rate: f64,
    /// `loadBalancerNamespaceBundleMaxBandwidthMbytes`.
    pub load_balancer_namespace_bundle_max_bandwidth_mbytes: f64,
    /// `loadBalancerNamespaceMaximumBundles`.
    pub load_balancer_namespace_maximum_bundles: u32,
    /// `loadBalancerMaxNumberOfBundlesToSplitPerCycle` (extensible).
    pub load_balancer_max_number_of_bundles_to_split_per_cycle: u32,
    /// `loadBalancerNamespaceBundleSplitConditionHitCountThreshold` (extensible).
    pub load_balancer_namespace_bundle_split_condition_hit_count_threshold: u32,
    /// `defaultNamespaceBundleSplitAlgorithm`.
    pub default_namespace_bundle_split_algorithm: SplitAlgorithm,
    /// `flowOrQpsDifferenceThresholdPercentage` (flow_or_qps_equally_divide).
    pub flow_or_qps_difference_threshold_percentage: f64,
    /// `loadBalancerReportUpdateThresholdPercentage`.
    pub load_balancer_report_update_threshold_percentage: f64,
    /// `loadBalancerReportUpdateMaxIntervalMinutes`.
    pub load_balancer_report_update_max_interval_minutes: u32,
    /// `loadBalancerResourceQuotaUpdateIntervalMinutes`.
    pub load_balancer_resource_quota_update_interval_minutes: u32,
    /// Simulated length of one round, in seconds (lbscope's own knob).
    pub round_seconds: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            load_manager_class_name: LoadManager::Modular,
            load_balancer_enabled: true,
            default_number_of_namespace_bundles: 4,
            system_namespace_bundles: 4,
            load_balancer_shedding_enabled: true,
            load_balancer_shedding_interval_minutes: 1,
            load_balancer_shedding_grace_period_minutes: 30,
            load_balancer_load_shedding_strategy: SheddingStrategy::ThresholdShedder,
            load_balancer_load_placement_strategy: PlacementStrategy::LeastLongTermMessageRate,
            load_balancer_distribute_bundles_evenly_enabled: true,
            load_balancer_broker_overloaded_threshold_percentage: 85.0,
            load_balancer_broker_threshold_shedder_percentage: 10.0,
            lower_boundary_shedding_enabled: false,
            load_balancer_history_resource_percentage: 0.9,
            load_balancer_cpu_resource_weight: 1.0,
            load_balancer_memory_resource_weight: 1.0,
            load_balancer_direct_memory_resource_weight: 1.0,
            load_balancer_bandwith_in_resource_weight: 1.0,
            load_balancer_bandwith_out_resource_weight: 1.0,
            load_balancer_bundle_unload_min_throughput_threshold: 10.0,
            load_balancer_msg_rate_difference_shedder_threshold: 50.0,
            load_balancer_msg_throughput_multiplier_difference_shedder_threshold: 4.0,
            max_unload_percentage: 0.2,
            max_unload_bundle_num_per_shedding: -1,
            min_unload_message: 1000.0,
            min_unload_message_throughput: 1024.0 * 1024.0,
            load_balancer_avg_shedder_low_threshold: 15.0,
            load_balancer_avg_shedder_high_threshold: 40.0,
            load_balancer_avg_shedder_hit_count_low_threshold: 8,
            load_balancer_avg_shedder_hit_count_high_threshold: 2,
            load_balancer_broker_load_target_std: 0.25,
            load_balancer_shedding_condition_hit_count_threshold: 3,
            load_balancer_max_number_of_broker_shedding_per_cycle: 3,
            load_balancer_transfer_enabled: true,
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
            round_seconds: 60,
        }
    }
}

impl Config {
    /// The defaults of a version profile.
    pub fn profile(p: Profile) -> Config {
        match p {
            Profile::Pulsar4 => Config::default(),
            Profile::Pulsar5 => Config {
                default_number_of_namespace_bundles: 32,
                system_namespace_bundles: 64,
                load_balancer_load_shedding_strategy: SheddingStrategy::AvgShedder,
                load_balancer_load_placement_strategy: PlacementStrategy::AvgShedder,
                max_unload_percentage: 0.5,
                load_balancer_distribute_bundles_evenly_enabled: false,
                ..Config::default()
            },
        }
    }
}
