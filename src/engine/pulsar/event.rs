//! What a Pulsar simulation reports: [`Event`], with the numbers behind each
//! decision, and its narration.

use super::broker::{Capacity, DirectUsage};
use super::bundle::{self, BundleRange};
use super::config::{Profile, SheddingStrategy};
use super::ids::{BrokerId, BundleId};
use super::ownership::ServiceUnitState;
use super::topic::TopicName;
use super::traffic::{self, Traffic};
use super::{isolation, place, shed, split, RoundMetrics};
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What happened, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A namespace was created and sharded.
    NamespaceCreated {
        /// `tenant/namespace`.
        namespace: String,
        /// Its bundles.
        bundles: Vec<BundleRange>,
    },
    /// A topic was created and hashed into a bundle.
    TopicCreated {
        /// Full topic name.
        topic: TopicName,
        /// Its CRC-32 hash (or pinned position).
        hash: u32,
        /// The bundle that holds it.
        bundle: BundleRange,
    },
    /// Many topics were created.
    TopicsCreated {
        /// Namespace.
        namespace: String,
        /// How many.
        count: u32,
        /// Bundles that received at least one.
        bundles_touched: usize,
    },
    /// A partitioned topic was created.
    PartitionedTopicCreated {
        /// Its name.
        topic: TopicName,
        /// Partitions and the bundle of each.
        partitions: Vec<(TopicName, u32, BundleRange)>,
    },
    /// A topic's traffic changed.
    TopicTrafficSet {
        /// The topic.
        topic: TopicName,
        /// Per-partition (or the topic's) traffic.
        traffic: Traffic,
        /// Partitions it applied to (1 for a plain topic).
        partitions: u32,
    },
    /// A broker joined.
    BrokerAdded {
        /// It.
        broker: BrokerId,
        /// Capacities.
        capacity: Capacity,
    },
    /// A broker crashed.
    BrokerCrashed {
        /// It.
        broker: BrokerId,
        /// Bundles it owned, now orphaned.
        orphaned: Vec<BundleId>,
    },
    /// A crashed broker came back.
    BrokerRestored {
        /// It.
        broker: BrokerId,
    },
    /// Capacities changed.
    BrokerCapacitySet {
        /// Broker.
        broker: BrokerId,
        /// New capacities.
        capacity: Capacity,
    },
    /// Resource usage set directly.
    BrokerLoadSet {
        /// Broker.
        broker: BrokerId,
        /// Percentages.
        usage: DirectUsage,
    },
    /// A bundle was assigned to a broker directly ([`Action::AssignBundle`]).
    BundleAssigned {
        /// Bundle.
        bundle: BundleId,
        /// Its owner now.
        broker: BrokerId,
    },
    /// Bundle load set directly (or cleared).
    BundleLoadSet {
        /// Bundle.
        bundle: BundleId,
        /// Load.
        load: Option<Traffic>,
    },
    /// A leader was elected.
    LeaderElected {
        /// New leader.
        broker: BrokerId,
        /// Previous leader.
        previous: Option<BrokerId>,
    },
    /// No broker is alive: there is no leader.
    NoLeader,
    /// The config changed.
    ConfigSet {
        /// Changed keys as `key: old -> new`.
        changes: Vec<String>,
    },
    /// A profile was applied.
    ProfileSet {
        /// It.
        profile: Profile,
    },
    /// Something Pulsar would log as a warning.
    Warning {
        /// The message.
        message: String,
    },
    /// A client lookup: the bundle was assigned and clients redirected to the owner.
    Lookup {
        /// Bundle.
        bundle: BundleId,
        /// Its owner.
        broker: BrokerId,
        /// Candidates left after filtering / all alive brokers.
        candidates: (usize, usize),
        /// How the owner was chosen.
        how: String,
    },
    /// A lookup found no broker to own the bundle.
    NoBrokerAvailable {
        /// Bundle.
        bundle: BundleId,
    },
    /// A service-unit state transition (extensible load manager).
    StateChanged {
        /// Bundle.
        bundle: BundleId,
        /// From.
        from: ServiceUnitState,
        /// To.
        to: ServiceUnitState,
        /// Destination / owner broker.
        dst: Option<BrokerId>,
        /// Source broker.
        src: Option<BrokerId>,
        /// Written by the channel's override (broker deletion), not a table transition.
        forced: bool,
    },
    /// Brokers reported their load.
    Reported {
        /// Published reports: broker, why, max weighted usage %.
        published: Vec<(BrokerId, String, f64)>,
        /// Brokers whose change stayed under the threshold.
        skipped: usize,
        /// Whether the leader folded a new sample into every bundle's averages.
        sampled: bool,
    },
    /// A bundle crossed a split threshold.
    SplitCandidate {
        /// Bundle.
        bundle: BundleId,
        /// Reasons with numbers.
        reasons: Vec<String>,
        /// Extensible: hits so far / threshold (must exceed it).
        hits: Option<(u32, u32)>,
    },
    /// A split was not done.
    SplitSkipped {
        /// Bundle.
        bundle: BundleId,
        /// Why.
        reason: super::split_threshold::SkipReason,
    },
    /// A bundle was split.
    BundleSplit {
        /// The parent.
        bundle: BundleId,
        /// The children.
        children: Vec<BundleRange>,
        /// How the boundaries were computed.
        plan: split::SplitPlan,
        /// Who split it (leader, owner broker, admin).
        by: String,
        /// Whether the children were unloaded.
        unloaded: bool,
    },
    /// A bundle was unloaded (ownership released).
    Unloaded {
        /// Bundle.
        bundle: BundleId,
        /// Previous owner.
        from: BrokerId,
        /// Pre-assigned / planned destination.
        to: Option<BrokerId>,
        /// Why.
        reason: UnloadCause,
    },
    /// An unload did not happen.
    UnloadSkipped {
        /// Bundle.
        bundle: BundleId,
        /// Why.
        reason: UnloadSkipReason,
    },
    /// An unload or crash closed the bundle's topic sessions; clients reconnect (latency blip).
    Reconnected {
        /// Bundle.
        bundle: BundleId,
        /// Topics whose sessions were closed.
        topics: u32,
        /// Producer + consumer sessions.
        sessions: u32,
    },
    /// `ns-isolation-policy set` stored a policy.
    IsolationPolicySet {
        /// The policy name.
        policy: String,
        /// Namespace regexes.
        namespaces: Vec<String>,
        /// Primary broker regexes.
        primary: Vec<String>,
        /// Secondary broker regexes.
        secondary: Vec<String>,
        /// The auto-failover policy.
        auto_failover_policy: isolation::AutoFailoverPolicy,
        /// The unload scope given (absent = `changed`).
        unload_scope: Option<isolation::UnloadScope>,
        /// Whether it replaced a policy of that name.
        replaced: bool,
        /// The namespaces unloaded so their bundles are placed again.
        unloading: Vec<String>,
    },
    /// `ns-isolation-policy delete` removed a policy.
    IsolationPolicyDeleted {
        /// The policy name.
        policy: String,
    },
    /// A namespace's anti-affinity group was set.
    AntiAffinityGroupSet {
        /// The namespace.
        namespace: String,
        /// The group.
        group: String,
        /// Its previous group.
        previous: Option<String>,
    },
    /// A namespace's anti-affinity group was removed.
    AntiAffinityGroupDeleted {
        /// The namespace.
        namespace: String,
        /// The group it had.
        group: String,
    },
    /// A failure domain was created or replaced.
    FailureDomainSet {
        /// The domain.
        domain: String,
        /// Its brokers.
        brokers: Vec<BrokerId>,
        /// The brokers it had, when it existed.
        previous: Option<Vec<BrokerId>>,
    },
    /// A failure domain was deleted.
    FailureDomainDeleted {
        /// The domain.
        domain: String,
        /// The brokers it had.
        brokers: Vec<BrokerId>,
    },
    /// The shedding pass did not run.
    SheddingSkipped {
        /// Why.
        reason: SheddingSkipReason,
    },
    /// The shedding strategy's explanation.
    Shed(shed::ShedEvent),
    /// The placement strategy's explanation.
    Place(place::PlaceEvent),
    /// What the workload patterns did.
    Workload(super::workload::WorkloadEvent),
    /// A scalable topic's segments, traffic, consumers or auto-scale decision.
    Scalable(super::scalable_topic::ScalableEvent),
    /// A round ended.
    RoundDone {
        /// Its metrics.
        metrics: RoundMetrics,
    },
}

fn opt(b: &Option<BrokerId>) -> String {
    b.as_ref().map_or("-".to_string(), |b| b.0.to_string())
}

/// Why a bundle was unloaded ([`Event::Unloaded`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum UnloadCause {
    /// The shedding strategy chose it.
    Shedding {
        /// The strategy.
        strategy: SheddingStrategy,
    },
    /// `pulsar-admin namespaces unload -b`.
    Admin,
    /// `pulsar-admin namespaces unload` of the whole namespace.
    AdminNamespace,
    /// A child of a split, unloaded (`loadBalancerAutoUnloadSplitBundlesEnabled`).
    SplitChild,
}

impl fmt::Display for UnloadCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnloadCause::Shedding { strategy } => write!(f, "{strategy:?}"),
            UnloadCause::Admin => f.write_str("admin unload"),
            UnloadCause::AdminNamespace => f.write_str("admin unload of the namespace"),
            UnloadCause::SplitChild => f.write_str("split child unloaded"),
        }
    }
}

/// Why an unload did not happen ([`Event::UnloadSkipped`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum UnloadSkipReason {
    /// No broker owns the bundle.
    NotOwned,
    /// The strategy named another broker as its owner.
    OwnerMismatch {
        /// The owner the strategy named.
        named: BrokerId,
        /// The owner now.
        owner: Option<BrokerId>,
    },
    /// A namespace policy keeps the bundle where it is (the modular manager's
    /// checks before unloading a shed bundle).
    Policy {
        /// The policy's refusal.
        refusal: shed::PolicyRefusal,
    },
}

impl fmt::Display for UnloadSkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnloadSkipReason::NotOwned => f.write_str("not owned by any broker"),
            UnloadSkipReason::OwnerMismatch { named, owner } => write!(
                f,
                "the strategy named {named} as owner, but the owner is {}",
                owner.as_ref().map_or("nobody".to_string(), |o| o.0.to_string())
            ),
            UnloadSkipReason::Policy { refusal } => refusal.fmt(f),
        }
    }
}

/// Why the shedding pass did not run ([`Event::SheddingSkipped`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SheddingSkipReason {
    /// `loadBalancerEnabled` or `loadBalancerSheddingEnabled` is off.
    Disabled,
    /// No broker is leader.
    NoLeader,
    /// Fewer than two brokers are alive.
    OneBroker,
}

impl fmt::Display for SheddingSkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SheddingSkipReason::Disabled => "loadBalancerEnabled / loadBalancerSheddingEnabled is off",
            SheddingSkipReason::NoLeader => "no leader",
            SheddingSkipReason::OneBroker => "Only 1 broker available: no load shedding will be performed",
        })
    }
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        match self {
            Event::NamespaceCreated { .. }
            | Event::TopicsCreated { .. }
            | Event::PartitionedTopicCreated { .. }
            | Event::TopicTrafficSet { .. }
            | Event::BrokerAdded { .. }
            | Event::BrokerCapacitySet { .. }
            | Event::BrokerLoadSet { .. }
            | Event::BundleLoadSet { .. } => self.narrate_setup(),
            Event::TopicCreated { topic, hash, bundle } => {
                format!("topic {topic}: crc32 = 0x{hash:08x} -> bundle {bundle}")
            }
            Event::BrokerCrashed { broker, orphaned } => {
                format!("broker {broker} crashed: {} bundles orphaned", orphaned.len())
            }
            Event::BrokerRestored { broker } => format!("broker {broker} is back"),
            Event::BundleAssigned { bundle, broker } => {
                format!("bundle {bundle} assigned to {broker} directly; clients redirected to {broker}")
            }
            Event::LeaderElected { broker, previous } => {
                format!("{broker} is the leader (previously {})", opt(previous))
            }
            Event::NoLeader => "no broker alive: no leader".into(),
            Event::ConfigSet { changes } => format!("config: {}", changes.join("; ")),
            Event::ProfileSet { profile } => format!("profile {profile:?} applied"),
            Event::Warning { message } => format!("WARN {message}"),
            Event::Lookup { .. }
            | Event::StateChanged { .. }
            | Event::SplitCandidate { .. }
            | Event::BundleSplit { .. }
            | Event::Unloaded { .. }
            | Event::Reconnected { .. } => self.narrate_bundles(),
            Event::NoBrokerAvailable { bundle } => format!("lookup {bundle}: no broker available"),
            Event::Reported { .. } => self.narrate_start(usize::MAX).0,
            Event::SplitSkipped { bundle, reason } => format!("not splitting {bundle}: {reason}"),
            Event::UnloadSkipped { bundle, reason } => format!("unload of {bundle} skipped: {reason}"),
            Event::SheddingSkipped { reason } => format!("no shedding: {reason}"),
            Event::IsolationPolicySet { .. }
            | Event::IsolationPolicyDeleted { .. }
            | Event::AntiAffinityGroupSet { .. }
            | Event::AntiAffinityGroupDeleted { .. }
            | Event::FailureDomainSet { .. }
            | Event::FailureDomainDeleted { .. } => self.narrate_policies(),
            Event::Shed(e) => e.narrate(),
            Event::Place(e) => e.narrate(),
            Event::Workload(e) => e.narrate(),
            Event::Scalable(e) => e.narrate(),
            Event::RoundDone { metrics } => metrics.narrate(),
        }
    }

    fn narrate_start(&self, chars: usize) -> (String, bool) {
        match self {
            Event::Reported {
                published,
                skipped,
                sampled,
            } if published.is_empty() => (
                format!(
                    "no broker report published: {skipped} unchanged{}",
                    if *sampled {
                        "; leader sampled every bundle"
                    } else {
                        ""
                    }
                ),
                false,
            ),
            Event::Reported {
                published,
                skipped,
                sampled,
            } => crate::engine::list_narration(
                &format!(
                    "{} broker report{} published (",
                    published.len(),
                    if published.len() == 1 { "" } else { "s" }
                ),
                published.iter().map(|(b, why, u)| format!("{b} {u:.1}%: {why}")),
                "; ",
                || {
                    format!(
                        "), {skipped} unchanged{}",
                        if *sampled {
                            "; leader sampled every bundle"
                        } else {
                            ""
                        }
                    )
                },
                chars,
            ),
            Event::Shed(e) => e.narrate_start(chars),
            _ => (self.narrate(), false),
        }
    }
}

impl Event {
    /// Namespaces, topics, brokers and their loads.
    fn narrate_setup(&self) -> String {
        match self {
            Event::NamespaceCreated { namespace, bundles } => {
                let even = u32::try_from(bundles.len())
                    .ok()
                    .and_then(bundle::initial_boundaries)
                    .is_some_and(|b| bundle::ranges_from_boundaries(&b) == *bundles);
                if even {
                    format!(
                        "namespace {namespace} created with {} bundles: segment = 2^32 / {} = 0x{:08x}",
                        bundles.len(),
                        bundles.len(),
                        bundle::FULL_SPACE / bundles.len().max(1) as u64
                    )
                } else {
                    let shown: Vec<String> = bundles.iter().take(8).map(|b| format!("0x{:08x}", b.lower)).collect();
                    format!(
                        "namespace {namespace} created with {} bundles at the given boundaries {}{}, 0x{:08x}",
                        bundles.len(),
                        shown.join(", "),
                        if bundles.len() > shown.len() { ", …" } else { "" },
                        bundle::LAST_BOUNDARY
                    )
                }
            }
            Event::TopicsCreated {
                namespace,
                count,
                bundles_touched,
            } => format!("{count} topics created in {namespace}, spread over {bundles_touched} bundles"),
            Event::PartitionedTopicCreated { topic, partitions } => format!(
                "partitioned topic {topic} with {} partitions, each hashed on its own: {}",
                partitions.len(),
                partitions
                    .iter()
                    .map(|(n, h, b)| format!("{} 0x{h:08x} -> {b}", n.local()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::TopicTrafficSet {
                topic,
                traffic,
                partitions,
            } => format!(
                "{topic}: {:.0} msg/s in, {:.0} msg/s out, {:.2} MiB/s in, {:.2} MiB/s out, {} producers, {} consumers{}",
                traffic.msg_rate_in,
                traffic.msg_rate_out,
                traffic.throughput_in / traffic::MIB,
                traffic.throughput_out / traffic::MIB,
                traffic.producers,
                traffic.consumers,
                if *partitions > 1 {
                    format!(" per partition ({partitions} partitions)")
                } else {
                    String::new()
                }
            ),
            Event::BrokerAdded { broker, capacity } => format!(
                "broker {broker} joined: {} cores, {} MB heap, {} MB direct, NIC {}/{} Mbit/s",
                capacity.cpu_cores,
                capacity.memory_mb,
                capacity.direct_memory_mb,
                capacity.nic_in_mbit,
                capacity.nic_out_mbit
            ),
            Event::BrokerCapacitySet { broker, capacity } => format!(
                "broker {broker} capacity: {} cores, {} MB heap, {} MB direct, NIC {}/{} Mbit/s",
                capacity.cpu_cores,
                capacity.memory_mb,
                capacity.direct_memory_mb,
                capacity.nic_in_mbit,
                capacity.nic_out_mbit
            ),
            Event::BrokerLoadSet { broker, usage } => {
                let parts: Vec<String> = [
                    ("CPU", usage.cpu),
                    ("heap", usage.memory),
                    ("direct memory", usage.direct_memory),
                    ("NIC in", usage.bandwidth_in),
                    ("NIC out", usage.bandwidth_out),
                ]
                .iter()
                .filter_map(|(n, v)| v.map(|v| format!("{n} {v:.1} %")))
                .collect();
                if parts.is_empty() {
                    format!("broker {broker} usage back to simulated from traffic")
                } else {
                    format!("broker {broker} usage set directly: {}", parts.join(", "))
                }
            }
            Event::BundleLoadSet { bundle, load } => match load {
                Some(t) => format!(
                    "bundle {bundle} load set: {:.0} msg/s, {:.2} MiB/s, {} sessions",
                    t.msg_rate(),
                    t.throughput() / traffic::MIB,
                    t.sessions()
                ),
                None => format!("bundle {bundle} load follows its topics again"),
            },
            _ => unreachable!("narrate_setup is called only for its kinds"),
        }
    }

    /// Lookups, bundle states, splits and unloads.
    fn narrate_bundles(&self) -> String {
        match self {
            Event::Lookup {
                bundle,
                broker,
                candidates,
                how,
            } => format!(
                "lookup {bundle}: owner {broker} ({how}; {}/{} candidates); clients redirected to {broker}",
                candidates.0, candidates.1
            ),
            Event::StateChanged {
                bundle,
                from,
                to,
                dst,
                src,
                forced,
            } => format!(
                "{bundle}: {from:?} -> {to:?} (dst {}, src {}){}",
                opt(dst),
                opt(src),
                if *forced { " [override]" } else { "" }
            ),
            Event::SplitCandidate {
                bundle,
                reasons,
                hits,
            } => format!(
                "split candidate {bundle}: {}{}",
                reasons.join(", "),
                hits.map_or(String::new(), |(h, t)| format!(" (hit {h}, must exceed {t})"))
            ),
            Event::BundleSplit {
                bundle,
                children,
                plan,
                by,
                unloaded,
            } => format!(
                "{by} split {bundle} by {:?} at [{}] into {}{}{}{}",
                plan.algorithm,
                plan.boundaries
                    .iter()
                    .map(|b| format!("0x{b:08x}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                children.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "),
                if plan.notes.is_empty() {
                    String::new()
                } else {
                    format!(
                        " [{}]",
                        plan.notes
                            .iter()
                            .map(|n| n.why.clone())
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                },
                plan.remark.as_ref().map_or(String::new(), |r| format!(" ({r})")),
                if *unloaded { "; children unloaded" } else { "" }
            ),
            Event::Unloaded {
                bundle,
                from,
                to,
                reason,
            } => format!(
                "unload {bundle} from {from}{}: {reason}",
                to.as_ref().map_or(String::new(), |t| format!(" -> {t}"))
            ),
            Event::Reconnected {
                bundle,
                topics,
                sessions,
            } => {
                format!("{bundle}: {topics} topic(s) closed, {sessions} session(s) reconnect (latency blip)")
            }
            _ => unreachable!("narrate_bundles is called only for its kinds"),
        }
    }

    /// Isolation policies, anti-affinity groups and failure domains.
    fn narrate_policies(&self) -> String {
        match self {
            Event::IsolationPolicySet {
                policy,
                namespaces,
                primary,
                secondary,
                auto_failover_policy,
                unload_scope,
                replaced,
                unloading,
            } => {
                let isolation::AutoFailoverPolicy::MinAvailable {
                    min_limit,
                    usage_threshold,
                } = auto_failover_policy;
                format!(
                    "namespace isolation policy {policy} {}: namespaces [{}], primary [{}], secondary [{}], min_available min_limit={min_limit} usage_threshold={usage_threshold}; unload scope {}: {}",
                    if *replaced { "replaced" } else { "set" },
                    namespaces.join(", "),
                    primary.join(", "),
                    secondary.join(", "),
                    unload_scope.map_or("changed (default)".to_string(), |u| format!("{u:?}").to_lowercase()),
                    if unloading.is_empty() {
                        "no namespace unloaded".to_string()
                    } else {
                        format!("unloading {}", unloading.join(", "))
                    }
                )
            }
            Event::IsolationPolicyDeleted { policy } => format!(
                "namespace isolation policy {policy} deleted (bundles already placed stay until unloaded)"
            ),
            Event::AntiAffinityGroupSet {
                namespace,
                group,
                previous,
            } => format!(
                "namespace {namespace} is in anti-affinity group {group}{}",
                previous.as_ref().map_or(String::new(), |p| format!(" (was {p})"))
            ),
            Event::AntiAffinityGroupDeleted { namespace, group } => {
                format!("namespace {namespace} left anti-affinity group {group}")
            }
            Event::FailureDomainSet {
                domain,
                brokers,
                previous,
            } => format!(
                "failure domain {domain} {}: [{}]",
                if previous.is_some() { "replaced" } else { "created" },
                brokers.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", ")
            ),
            Event::FailureDomainDeleted { domain, brokers } => format!(
                "failure domain {domain} deleted (had [{}])",
                brokers.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", ")
            ),
            _ => unreachable!("narrate_policies is called only for its kinds"),
        }
    }
}
