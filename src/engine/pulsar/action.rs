//! The only way a Pulsar simulation changes: [`Action`], as scenarios and
//! links write it. Every action and every struct it carries refuses unknown
//! fields, naming the field.

use super::broker::{Capacity, DirectUsage};
use super::config::{Profile, SplitAlgorithm};
use super::isolation;
use super::traffic::Traffic;
use super::Config;
use crate::engine::schema::{self, ConfigChange};
use crate::engine::tagged::tagged_enum;

tagged_enum! {
    "op", "Action";
    /// The only way a Pulsar simulation changes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Action {
        /// `pulsar-admin namespaces create TENANT/NS [--bundles N]`.
        CreateNamespace {
            /// `tenant/namespace` (or the legacy `tenant/cluster/namespace`).
            namespace: String,
            /// Bundle count; the profile default when absent (`pulsar/system` has its own).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            bundles: Option<u32>,
        },
        /// Create a namespace whose bundles have the given boundaries (the `bundles` of
        /// its policies, as `pulsar-admin namespaces bundles` prints them). As
        /// `NamespacesBase.validateBundlesData` does, repeated boundaries are ignored and
        /// the rest sorted; the first must be `0x00000000` and the last `0xffffffff`
        /// (`NamespaceBundleFactory.validateFullRange`).
        CreateNamespaceWithBoundaries {
            /// `tenant/namespace`.
            namespace: String,
            /// The boundaries (at least two distinct ones: one bundle).
            boundaries: Vec<u32>,
        },
        /// Create a topic (its namespace must exist); a client lookup follows.
        CreateTopic {
            /// Full or short topic name.
            topic: String,
        },
        /// Create a topic at a pinned hash (so lessons can place topics where the doc does).
        CreateTopicWithHash {
            /// Full or short topic name.
            topic: String,
            /// Its position on the ring.
            hash: u32,
        },
        /// Create `count` topics `PREFIX-0 ..` in a namespace (bulk, one summary event).
        CreateTopics {
            /// `tenant/namespace`.
            namespace: String,
            /// Local-name prefix.
            prefix: String,
            /// How many.
            count: u32,
            /// Traffic given to each.
            #[serde(default)]
            traffic: Traffic,
        },
        /// Create a partitioned topic: `NAME-partition-0 .. N-1`, each hashed on its own.
        CreatePartitionedTopic {
            /// Full or short topic name.
            topic: String,
            /// Partition count (> 0).
            partitions: u32,
        },
        /// Set a topic's traffic (a partitioned topic's traffic is spread evenly over its partitions).
        SetTopicTraffic {
            /// Topic (or partitioned topic) name.
            topic: String,
            /// The traffic.
            traffic: Traffic,
        },
        /// A client looks a topic up (assigning its bundle if unowned).
        Lookup {
            /// Topic name.
            topic: String,
        },
        /// A broker joins.
        AddBroker {
            /// Its name.
            broker: String,
            /// Capacities (default: 8 cores, 8 GB, 8 GB, 10 GbE).
            #[serde(default)]
            capacity: Capacity,
        },
        /// A broker joins, but its first load report has not reached the leader yet:
        /// it is registered (available) with no load data until the next report phase.
        AddUnreportedBroker {
            /// Its name.
            broker: String,
            /// Capacities (default: 8 cores, 8 GB, 8 GB, 10 GbE).
            #[serde(default)]
            capacity: Capacity,
        },
        /// A broker crashes: its bundles are orphaned.
        CrashBroker {
            /// Its name.
            broker: String,
        },
        /// A crashed broker comes back (as a new member, last in line for leadership).
        RestoreBroker {
            /// Its name.
            broker: String,
        },
        /// Change a broker's capacities.
        SetBrokerCapacity {
            /// Its name.
            broker: String,
            /// New capacities.
            capacity: Capacity,
        },
        /// Set a broker's resource usage directly (percent; `None` = simulated).
        SetBrokerLoad {
            /// Its name.
            broker: String,
            /// Percentages.
            usage: DirectUsage,
        },
        /// Set a bundle's load directly (replaces its topics' summed traffic); `None` clears.
        SetBundleLoad {
            /// `tenant/ns/0xLLLLLLLL_0xUUUUUUUU`.
            bundle: String,
            /// The load.
            #[serde(default)]
            load: Option<Traffic>,
        },
        /// An unowned bundle becomes owned by a live broker, as if that broker had
        /// answered its lookup (the ownership a real cluster reports, e.g. the `bundles`
        /// of a broker's load report).
        AssignBundle {
            /// `tenant/ns/0xLLLLLLLL_0xUUUUUUUU`.
            bundle: String,
            /// The broker.
            broker: String,
        },
        /// Set config keys (`{"config": {KEY: VALUE, …}}`; other keys keep their values).
        SetConfig(ConfigChange<Config>),
        /// Replace the config by a version profile's defaults (keeping `roundSeconds`).
        SetProfile {
            /// The profile.
            profile: Profile,
        },
        /// One full round: time advances by `roundSeconds`; report, split, shed, assign as due.
        Step,
        /// Phase: brokers report their load now.
        Report,
        /// Phase: automatic split check now.
        Split,
        /// Phase: automatic shedding now.
        Shed,
        /// Phase: clients look up every unowned bundle that has topics.
        Assign,
        /// `pulsar-admin namespaces split-bundle NS --bundle RANGE|-b LARGEST|HOT [-san ALGO] [--split-boundaries ..] [-u]`.
        SplitBundle {
            /// `tenant/namespace`.
            namespace: String,
            /// `0xLLLLLLLL_0xUUUUUUUU`, `LARGEST` or `HOT`.
            bundle: String,
            /// `-san`; the config default when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            algorithm: Option<SplitAlgorithm>,
            /// `--split-boundaries` (specified_positions_divide).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            boundaries: Vec<u32>,
            /// `-u`: unload the children.
            #[serde(default)]
            unload: bool,
        },
        /// Split a bundle into `parts` equal hash ranges, as
        /// `NamespaceBundleFactory.splitBundles(bundle, parts, null)` does (each
        /// part `(upper − lower) / parts` wide, the last one taking the remainder).
        /// Pulsar's admin API has no part count: there this is
        /// `split-bundle -san specified_positions_divide --split-boundaries` with
        /// those positions (which also needs two topics in the bundle).
        SplitBundleInParts {
            /// `tenant/namespace`.
            namespace: String,
            /// `0xLLLLLLLL_0xUUUUUUUU`, `LARGEST` or `HOT`.
            bundle: String,
            /// How many children (at least 2).
            parts: u32,
            /// Unload the children.
            #[serde(default)]
            unload: bool,
        },
        /// `pulsar-admin ns-isolation-policy set CLUSTER POLICY --namespaces R,..
        /// --primary R,.. [--secondary R,..] --auto-failover-policy-type min_available
        /// --auto-failover-policy-params min_limit=N,usage_threshold=P [--unload-scope S]`
        /// (one cluster: no cluster argument).
        NsIsolationPolicySet {
            /// The policy name.
            policy: String,
            /// Namespace regexes.
            namespaces: Vec<String>,
            /// Primary broker regexes.
            primary: Vec<String>,
            /// Secondary broker regexes.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            secondary: Vec<String>,
            /// The auto-failover policy.
            auto_failover_policy: isolation::AutoFailoverPolicy,
            /// Which namespaces to unload now (absent = `changed`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            unload_scope: Option<isolation::UnloadScope>,
        },
        /// `pulsar-admin ns-isolation-policy delete CLUSTER POLICY`.
        NsIsolationPolicyDelete {
            /// The policy name.
            policy: String,
        },
        /// `pulsar-admin namespaces set-anti-affinity-group NS --group G`.
        SetAntiAffinityGroup {
            /// `tenant/namespace`.
            namespace: String,
            /// The group.
            group: String,
        },
        /// `pulsar-admin namespaces delete-anti-affinity-group NS`.
        DeleteAntiAffinityGroup {
            /// `tenant/namespace`.
            namespace: String,
        },
        /// `pulsar-admin clusters create-failure-domain CLUSTER --domain-name D
        /// --broker-list B1,B2` (creates or replaces the domain).
        CreateFailureDomain {
            /// The domain name.
            domain: String,
            /// Its brokers.
            #[serde(default)]
            brokers: Vec<String>,
        },
        /// `pulsar-admin clusters delete-failure-domain CLUSTER --domain-name D`.
        DeleteFailureDomain {
            /// The domain name.
            domain: String,
        },
        /// Add a workload pattern (it shapes the traffic from this round on; see
        /// [`super::workload`]).
        AddWorkload {
            /// The pattern.
            pattern: super::workload::Pattern,
        },
        /// Replace a workload pattern (it keeps its id and seed).
        ChangeWorkload {
            /// Its id.
            id: u32,
            /// The new pattern.
            pattern: super::workload::Pattern,
        },
        /// Remove a workload pattern (the topics it alone shaped get their base traffic back).
        RemoveWorkload {
            /// Its id.
            id: u32,
        },
        /// `pulsar-admin scalable-topics create TOPIC [--segments N]` (5.0, PIP-468):
        /// a scalable topic `topic://tenant/ns/name` with `N` equal segments
        /// (default 1), each placed through its namespace bundle.
        CreateScalableTopic {
            /// `topic://tenant/ns/name`, `tenant/ns/name` or `name`.
            topic: String,
            /// Initial segments (1 when absent).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            segments: Option<u32>,
        },
        /// Give a scalable topic its whole traffic, an optional wave over simulated
        /// time and an optional hot key range (lbscope's traffic model).
        SetScalableTopicTraffic {
            /// The scalable topic.
            topic: String,
            /// Its whole traffic.
            traffic: Traffic,
            /// Rates × `max(0, 1 + a/100 · sin(2π (now + phase) / period))`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            wave: Option<super::scalable_topic::Wave>,
            /// A share of the messages on a 16-bit key-hash range.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hot_keys: Option<super::scalable_topic::HotKeys>,
        },
        /// A consumer joins a stream subscription of a scalable topic (the
        /// controller reassigns segments and evaluates split/merge at once).
        AddScalableConsumer {
            /// The scalable topic.
            topic: String,
            /// The subscription.
            subscription: String,
            /// The consumer's name (segments go round-robin in name order).
            consumer: String,
        },
        /// A consumer leaves a stream subscription of a scalable topic.
        RemoveScalableConsumer {
            /// The scalable topic.
            topic: String,
            /// The subscription.
            subscription: String,
            /// The consumer.
            consumer: String,
        },
        /// `pulsar-admin scalable-topics split-segment TOPIC --segment-id ID`.
        SplitSegment {
            /// The scalable topic.
            topic: String,
            /// The active segment to split at its midpoint.
            segment_id: u64,
        },
        /// `pulsar-admin scalable-topics merge-segments TOPIC --segment-id-1 A --segment-id-2 B`.
        MergeSegments {
            /// The scalable topic.
            topic: String,
            /// One active segment.
            segment_id_1: u64,
            /// An adjacent active segment.
            segment_id_2: u64,
        },
        /// `pulsar-admin namespaces unload NS [-b RANGE [-d BROKER]]`.
        Unload {
            /// `tenant/namespace`.
            namespace: String,
            /// One bundle; the whole namespace when absent.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            bundle: Option<String>,
            /// `-d`: destination broker.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            destination: Option<String>,
        },
    }
}

impl Action {
    /// Set every key to `c`'s value (the whole config).
    pub fn whole_config(c: &Config) -> Action {
        Action::SetConfig(ConfigChange::new(schema::Patch::whole(c)))
    }
}
