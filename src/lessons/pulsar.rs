//! The Pulsar lessons (seed `000`: broker load balancing concepts).

use super::text::{and_list, hex, num, pct};
use super::{
    setting_from, step, About, Concept, Controls as C, Ctx, Lesson, Narrator, RealSystem, Said, Step,
    SubjectKind as F,
};
use crate::engine::pulsar::broker::{Capacity, DirectUsage};
use crate::engine::pulsar::bundle::BundleRange;
use crate::engine::pulsar::config::{LoadManager, Profile, SheddingStrategy, SplitAlgorithm};
use crate::engine::pulsar::load::BrokerId;
use crate::engine::pulsar::shed::{overload, threshold, Metric, ShedEvent};
use crate::engine::pulsar::split::{range_equally_divide, SplitPlan};
use crate::engine::pulsar::traffic::{Traffic, MIB};
use crate::engine::pulsar::{Action as A, Config, Event as E, Sim};
use crate::engine::Engine;
use crate::sort::StableSort;

use crate::scenario::Log;

type PCtx = Ctx<Sim>;

const NS: &str = "public/default";
const FREE: &[C] = &[C::All];

fn n(f: fn(&PCtx) -> Said) -> Narrator<Sim> {
    f
}

fn broker(name: &str) -> A {
    A::AddBroker {
        broker: name.into(),
        capacity: Capacity::default(),
    }
}

fn namespace(ns: &str, bundles: u32) -> A {
    A::CreateNamespace {
        namespace: ns.into(),
        bundles: Some(bundles),
    }
}

fn pin(topic: &str, hash: u32) -> A {
    A::CreateTopicWithHash {
        topic: topic.into(),
        hash,
    }
}

/// `rate` msg/s in and `mib` MiB/s in, one producer and one consumer.
fn load(topic: &str, rate: f64, mib: f64) -> A {
    A::SetTopicTraffic {
        topic: topic.into(),
        traffic: Traffic {
            msg_rate_in: rate,
            msg_rate_out: 0.0,
            throughput_in: mib * MIB,
            throughput_out: 0.0,
            producers: 1,
            consumers: 1,
        },
    }
}

fn cpu(b: &str, percent: f64) -> A {
    A::SetBrokerLoad {
        broker: b.into(),
        usage: DirectUsage {
            cpu: Some(percent),
            ..DirectUsage::default()
        },
    }
}

fn unload_to(ns: &str, bundle: &str, to: &str) -> A {
    A::Unload {
        namespace: ns.into(),
        bundle: Some(bundle.into()),
        destination: Some(to.into()),
    }
}

fn split(ns: &str, bundle: &str, alg: SplitAlgorithm, boundaries: Vec<u32>, unload: bool) -> A {
    A::SplitBundle {
        namespace: ns.into(),
        bundle: bundle.into(),
        algorithm: Some(alg),
        boundaries,
        unload,
    }
}

fn body(config: Config, setup: Vec<A>, actions: Vec<A>) -> Log<Sim> {
    Log {
        config,
        setup,
        actions,
    }
}

fn ps(key: &str) -> super::Setting {
    setting_from::<Config>(key)
}

fn real(keys: &[&str], commands: &[&str], classes: &[&str]) -> RealSystem {
    RealSystem {
        settings: keys.iter().map(|k| ps(k)).collect(),
        commands: commands.iter().map(|s| s.to_string()).collect(),
        classes: classes
            .iter()
            .map(|c| {
                if c.starts_with("org.") {
                    c.to_string()
                } else {
                    format!("org.apache.pulsar.broker.loadbalance.{c}")
                }
            })
            .collect(),
    }
}

#[allow(clippy::too_many_arguments)]
fn lesson(
    id: &'static str,
    concept: Concept,
    title: &'static str,
    idea: &'static str,
    seed: u64,
    b: Log<Sim>,
    steps: Vec<Step<Sim>>,
    real: RealSystem,
) -> Lesson {
    Lesson::new(
        About {
            id,
            concept,
            title,
            idea,
            real,
        },
        seed,
        b,
        steps,
    )
}

// ---------- reading the replayed state ----------

/// `(bundle name, owner)` of every bundle of `ns`, in ring order.
fn owners(c: &PCtx, ns: &str) -> Vec<(String, Option<String>)> {
    c.state
        .ring_view(ns, false)
        .map(|r| {
            r.bundles
                .into_iter()
                .map(|b| (b.name, b.owner.map(|o| o.0.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// How many bundles each alive broker owns, as `broker-1 owns 3`.
fn ownership_summary(c: &PCtx) -> String {
    let parts: Vec<String> = c
        .state
        .brokers()
        .values()
        .filter(|b| b.alive)
        .map(|b| format!("{} owns {}", b.id, b.bundles.len()))
        .collect();
    and_list(&parts)
}

fn last_split(c: &PCtx) -> Option<(String, Vec<String>, SplitPlan, bool)> {
    c.pick(|e| match e {
        E::BundleSplit {
            bundle,
            children,
            plan,
            unloaded,
            ..
        } => Some((
            bundle.to_string(),
            children.iter().map(|r| r.name()).collect(),
            plan.clone(),
            *unloaded,
        )),
        _ => None,
    })
}

fn sheds(c: &PCtx) -> Vec<ShedEvent> {
    c.pick_all(|e| match e {
        E::Shed(s) => Some(s.clone()),
        _ => None,
    })
}

fn chosen(c: &PCtx) -> Vec<(String, String, Option<String>, Metric, f64)> {
    sheds(c)
        .into_iter()
        .filter_map(|s| match s {
            ShedEvent::BundleChosen {
                bundle,
                from,
                to,
                metric,
                value,
                ..
            } => Some((
                bundle.to_string(),
                from.0.to_string(),
                to.map(|t| t.0.to_string()),
                metric,
                value,
            )),
            _ => None,
        })
        .collect()
}

fn metric_value(m: Metric, v: f64) -> String {
    match m {
        Metric::MsgRate => format!("{} msg/s", num(v)),
        Metric::Throughput => format!("{} MB/s", num(v / MIB)),
    }
}

/// Lookups in the last action: (bundle, broker, how).
fn lookups(c: &PCtx) -> Vec<(String, String, String)> {
    c.pick_all(|e| match e {
        E::Lookup {
            bundle, broker, how, ..
        } => Some((bundle.to_string(), broker.0.to_string(), how.clone())),
        _ => None,
    })
}

/// `ModularLoadManagerImpl` / `ExtensibleLoadManagerImpl`.
fn manager_name(m: LoadManager) -> String {
    serde_json::to_value(m)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `range_equally_divide` (the `-san` name).
fn alg_name(a: SplitAlgorithm) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn usage_line(c: &PCtx) -> String {
    let parts: Vec<String> = c
        .state
        .broker_views()
        .into_iter()
        .filter(|v| v.alive)
        .map(|v| format!("{} {}", v.id, pct(v.load / 100.0)))
        .collect();
    and_list(&parts)
}

// ---------- the lessons ----------

pub(super) fn lessons() -> Vec<Lesson> {
    vec![
        ring(),
        lookup(),
        auto_split(),
        range_divide(),
        topic_count_divide(),
        specified_positions(),
        flow_or_qps(),
        overload_shedder(),
        threshold_shedder(),
        uniform_shedder(),
        transfer_shedder(),
        avg_shedder(),
        modular_vs_extensible(),
        crash_and_join(),
        manual_commands(),
    ]
}

fn ring() -> Lesson {
    let setup = vec![broker("broker-1"), broker("broker-2"), namespace(NS, 4)];
    let actions = vec![
        A::CreateTopic {
            topic: "my-topic".into(),
        },
        A::CreatePartitionedTopic {
            topic: "orders".into(),
            partitions: 4,
        },
    ];
    lesson(
        "pulsar-bundles-on-the-ring",
        Concept::PulsarBundlesOnTheRing,
        "Topics, namespaces and bundles on the hash ring",
        "A namespace is sharded into bundles, ranges of a 32-bit hash ring; a topic belongs to the bundle its name hashes into.",
        1,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("A namespace is sharded into bundles", 0, &[C::Topics], n(|c| {
                let (count, width, names) = c
                    .setup
                    .iter()
                    .find_map(|e| match e {
                        E::NamespaceCreated { bundles, .. } => Some((
                            bundles.len(),
                            bundles.first().map_or(0, |b| b.width()),
                            bundles.iter().map(|b| b.name()).collect::<Vec<_>>(),
                        )),
                        _ => None,
                    })
                    .unwrap_or_default();
                let mut s = Said::new(format!(
                    "Creating namespace {NS} cut its 32-bit hash ring into {count} bundles of 0x{width:08x} hashes each: {}. A bundle is the unit Pulsar assigns to a broker, so all topics in one range move together. Create a topic to see where it lands.",
                    and_list(&names)
                ));
                for b in names {
                    s = s.focus(F::Bundle, format!("{NS}/{b}"));
                }
                s
            }))
            .ask("Create the topic my-topic"),
            step("A topic hashes into one bundle", 1, &[C::Topics], n(|c| {
                let (topic, hash, bundle) = c
                    .pick(|e| match e {
                        E::TopicCreated { topic, hash, bundle } => Some((topic.to_string(), *hash, bundle.name())),
                        _ => None,
                    })
                    .unwrap_or_default();
                Said::new(format!(
                    "Pulsar hashed the full name {topic} with CRC-32 to {}, which falls in bundle {bundle}. The doc's hash value for my-topic is only an illustration: the position is whatever the hash gives. Every later lookup of this topic is answered by that bundle's owner.",
                    hex(hash)
                ))
                .focus(F::Bundle, format!("{NS}/{bundle}"))
            }))
            .ask("Create the partitioned topic orders with 4 partitions"),
            step("Each partition is a topic of its own", 2, &[C::Topics], n(|c| {
                let parts = c
                    .pick(|e| match e {
                        E::PartitionedTopicCreated { partitions, .. } => Some(partitions.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                let mut bundles: Vec<String> = parts.iter().map(|(_, _, b)| b.name()).collect();
                let list: Vec<String> = parts
                    .iter()
                    .map(|(t, h, b)| format!("{} at {} in {}", t.local(), hex(*h), b.name()))
                    .collect();
                bundles.stable_sort();
                bundles.dedup();
                let mut s = Said::new(format!(
                    "The {} partitions of orders are hashed one by one: {}. They fall into {} different bundles, so different brokers may serve them.",
                    parts.len(),
                    and_list(&list),
                    bundles.len()
                ));
                for b in bundles {
                    s = s.focus(F::Bundle, format!("{NS}/{b}"));
                }
                s
            })),
            step("Play freely", 2, FREE, n(|c| {
                let ns = &c.state.namespaces()[NS];
                Said::new(format!(
                    "The namespace now holds {} topics in {} bundles. Create more topics and watch where each one lands on the ring.",
                    ns.topics.len(),
                    ns.bundles.len()
                ))
            })),
        ],
        real(
            &["defaultNumberOfNamespaceBundles"],
            &[
                "pulsar-admin namespaces create my-tenant/my-namespace --bundles 4",
                "pulsar-admin namespaces bundles my-tenant/my-namespace",
                "pulsar-admin topics bundle-range persistent://my-tenant/my-namespace/my-topic",
            ],
            &["org.apache.pulsar.common.naming.NamespaceBundles", "org.apache.pulsar.common.naming.NamespaceBundleFactory"],
        ),
    )
}

fn lookup() -> Lesson {
    let setup = vec![
        broker("broker-1"),
        broker("broker-2"),
        broker("broker-3"),
        namespace(NS, 4),
    ];
    let actions = vec![
        A::CreateTopic {
            topic: "my-topic".into(),
        },
        A::Lookup {
            topic: "my-topic".into(),
        },
        A::CreateTopics {
            namespace: NS.into(),
            prefix: "t".into(),
            count: 8,
            traffic: Traffic::default(),
        },
    ];
    lesson(
        "pulsar-lookup",
        Concept::PulsarLookup,
        "Bundle assignment and lookup: who owns my topic?",
        "Ownership is per bundle and created lazily: the first lookup of a topic in an unowned bundle picks a broker for the whole bundle.",
        2,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("Nobody owns anything yet", 0, &[C::Topics], n(|c| {
                let owned = owners(c, NS).iter().filter(|(_, o)| o.is_some()).count();
                let leader = c.state.leader().map(|b| b.0.clone()).unwrap_or_default();
                Said::new(format!(
                    "{} brokers are up and {leader} is the leader, yet {owned} of the {} bundles has an owner. Ownership is created lazily, when a client first looks up a topic of the bundle.",
                    c.state.brokers().len(),
                    owners(c, NS).len()
                ))
                .focus(F::Broker, leader)
            }))
            .ask("Create my-topic (its client looks it up)"),
            step("The first lookup assigns the bundle", 1, &[C::Topics], n(|c| {
                let (bundle, broker, how) = lookups(c).into_iter().next().unwrap_or_default();
                let cand = c
                    .pick(|e| match e {
                        E::Lookup { candidates, .. } => Some(*candidates),
                        _ => None,
                    })
                    .unwrap_or_default();
                Said::new(format!(
                    "The lookup found bundle {bundle} unowned, so the load manager chose {broker} ({how}; {} of {} brokers were candidates). The ownership is stored in the metadata store and the client is redirected to {broker}.",
                    cand.0, cand.1
                ))
                .focus(F::Bundle, bundle)
                .focus(F::Broker, broker)
            }))
            .ask("Look my-topic up again"),
            step("Later lookups only read the owner", 2, &[C::Topics], n(|c| {
                let (bundle, broker, how) = lookups(c).into_iter().next().unwrap_or_default();
                Said::new(format!(
                    "This time the answer is simply {broker} ({how}): no decision is made while {bundle} has an owner. Brokers cache the bundle-to-broker map in memory so lookups stay cheap."
                ))
                .focus(F::Bundle, bundle)
                .focus(F::Broker, broker)
            }))
            .ask("Create 8 more topics t-0 … t-7"),
            step("Each bundle is assigned once", 3, &[C::Topics], n(|c| {
                let new: Vec<String> = lookups(c).into_iter().map(|(b, k, _)| format!("{b} to {k}")).collect();
                let (count, touched) = c
                    .pick(|e| match e {
                        E::TopicsCreated { count, bundles_touched, .. } => Some((*count, *bundles_touched)),
                        _ => None,
                    })
                    .unwrap_or_default();
                Said::new(format!(
                    "The {count} topics touched {touched} bundles; only the unowned ones needed a decision: {}. Now {}.",
                    if new.is_empty() { "none".to_string() } else { and_list(&new) },
                    ownership_summary(c)
                ))
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "Bundle ownership now: {}. Create topics, crash a broker or look topics up to see when a decision is made.",
                    ownership_summary(c)
                ))
            })),
        ],
        real(
            &["loadBalancerLoadPlacementStrategy", "loadBalancerDistributeBundlesEvenlyEnabled"],
            &["pulsar-admin topics lookup persistent://my-tenant/my-namespace/my-topic"],
            &["impl.ModularLoadManagerImpl", "impl.LeastLongTermMessageRate"],
        ),
    )
}

fn auto_split() -> Lesson {
    let config = Config {
        load_balancer_namespace_bundle_max_topics: 8,
        ..Config::profile(Profile::Pulsar4)
    };
    let setup = vec![broker("broker-1"), broker("broker-2"), namespace(NS, 2)];
    let actions = vec![
        A::CreateTopics {
            namespace: NS.into(),
            prefix: "t".into(),
            count: 20,
            traffic: Traffic::default(),
        },
        A::Step,
    ];
    lesson(
        "pulsar-auto-split",
        Concept::PulsarAutoSplit,
        "Automatic split thresholds",
        "A bundle with more topics, sessions, messages or bytes than the limits is split automatically at the next check.",
        3,
        body(config, setup, actions),
        vec![
            step("Four limits per bundle", 0, &[C::Topics], n(|c| {
                let k = c.state.config();
                let d = Config::profile(Profile::Pulsar4);
                Said::new(format!(
                    "A bundle becomes a split candidate when it has more than {} topics, {} sessions, {} msg/s or {} MB/s. This lesson lowered loadBalancerNamespaceBundleMaxTopics from {} to {} so a small example shows it.",
                    k.load_balancer_namespace_bundle_max_topics,
                    k.load_balancer_namespace_bundle_max_sessions,
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes),
                    d.load_balancer_namespace_bundle_max_topics,
                    k.load_balancer_namespace_bundle_max_topics
                ))
            }))
            .ask("Create 20 topics"),
            step("Over the limit, not split yet", 1, &[C::Step], n(|c| {
                let counts: Vec<String> = c
                    .state
                    .ring_view(NS, false)
                    .map(|r| r.bundles.iter().map(|b| format!("{} holds {}", b.name, b.topics)).collect())
                    .unwrap_or_default();
                Said::new(format!(
                    "Now {}. Nothing splits yet: the modular load manager's leader checks the thresholds when new load reports arrive, once per round.",
                    and_list(&counts)
                ))
            }))
            .ask("Press Step"),
            step("The leader splits", 2, &[C::Step], n(|c| {
                let reasons: Vec<String> = c.pick_all(|e| match e {
                    E::SplitCandidate { bundle, reasons, .. } => Some(format!("{} ({})", bundle.range.name(), reasons.join(", "))),
                    _ => None,
                });
                let unloaded = c.pick(|e| match e {
                    E::BundleSplit { unloaded, .. } => Some(*unloaded),
                    _ => None,
                }).unwrap_or_default();
                let splits: Vec<String> = c.pick_all(|e| match e {
                    E::BundleSplit { bundle, plan, .. } => Some(format!(
                        "{} at {}",
                        bundle.range.name(),
                        plan.boundaries.iter().map(|b| hex(*b)).collect::<Vec<_>>().join(", ")
                    )),
                    _ => None,
                });
                Said::new(format!(
                    "The leader found {} candidate(s): {}. It split {} with the default algorithm {}{}; the namespace has {} bundles now.",
                    reasons.len(),
                    and_list(&reasons),
                    and_list(&splits),
                    alg_name(c.state.config().default_namespace_bundle_split_algorithm),
                    if unloaded { " and unloaded the children so they can land on other brokers" } else { " and kept the children on their owner" },
                    c.state.namespaces()[NS].bundles.len()
                ))
            })),
            step("Play freely", 2, FREE, n(|c| {
                Said::new(format!(
                    "Bundle ownership now: {}. Add topics or traffic and press Step to see more splits, up to loadBalancerNamespaceMaximumBundles = {}.",
                    ownership_summary(c),
                    c.state.config().load_balancer_namespace_maximum_bundles
                ))
            })),
        ],
        real(
            &[
                "loadBalancerAutoBundleSplitEnabled",
                "loadBalancerAutoUnloadSplitBundlesEnabled",
                "loadBalancerNamespaceBundleMaxTopics",
                "loadBalancerNamespaceBundleMaxSessions",
                "loadBalancerNamespaceBundleMaxMsgRate",
                "loadBalancerNamespaceBundleMaxBandwidthMbytes",
                "loadBalancerNamespaceMaximumBundles",
                "defaultNamespaceBundleSplitAlgorithm",
            ],
            &[],
            &["BundleSplitStrategy", "impl.BundleSplitterTask"],
        ),
    )
}

fn split_step_text(c: &PCtx) -> Said {
    let Some((parent, children, plan, _)) = last_split(c) else {
        return Said::new("The split did not happen.");
    };
    let why = plan.notes.first().map(|n| n.why.clone()).unwrap_or_default();
    let mut s = Said::new(format!(
        "Pulsar computed {why}, so {parent} became {}. Each child is a bundle of its own from now on.",
        and_list(&children)
    ));
    let ns = parent
        .rsplit_once('/')
        .map(|x| x.0.to_string())
        .unwrap_or_default();
    for ch in children {
        s = s.focus(F::Bundle, format!("{ns}/{ch}"));
    }
    s
}

fn range_divide() -> Lesson {
    let setup = vec![broker("broker-1"), namespace(NS, 2)];
    let actions = vec![
        split(
            NS,
            "0x00000000_0x80000000",
            SplitAlgorithm::RangeEquallyDivide,
            vec![],
            false,
        ),
        split(
            NS,
            "0x80000000_0xffffffff",
            SplitAlgorithm::RangeEquallyDivide,
            vec![],
            false,
        ),
    ];
    lesson(
        "pulsar-range-equally-divide",
        Concept::PulsarRangeEquallyDivide,
        "range_equally_divide",
        "Split a bundle into two halves of equal hash range, whatever its topics.",
        4,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("The doc's bundle", 0, &[C::Split], n(|c| {
                let o = owners(c, NS);
                let width = c.state.namespaces()[NS].bundles.first().map_or(0, |b| b.width());
                Said::new(format!(
                    "The namespace has {} bundles: {}. The doc splits the first one, a range of 0x{width:08x} hashes, with the default algorithm {}.",
                    o.len(),
                    and_list(&o.iter().map(|x| x.0.clone()).collect::<Vec<_>>()),
                    alg_name(c.state.config().default_namespace_bundle_split_algorithm)
                ))
                .focus(F::Bundle, format!("{NS}/0x00000000_0x80000000"))
            }))
            .ask("Split 0x00000000_0x80000000 with range_equally_divide"),
            step("Half the range", 1, &[C::Split], n(split_step_text)).ask("Split the last bundle 0x80000000_0xffffffff the same way"),
            step("The ring's last hash", 2, &[C::Split], n(|c| {
                let Some((_, children, plan, _)) = last_split(c) else {
                    return Said::new("The split did not happen.");
                };
                let b = plan.boundaries.first().copied().unwrap_or_default();
                Said::new(format!(
                    "The last bundle ends at 0xffffffff, not at 2^32, so its midpoint is {} and the children are {}. The last bundle of a namespace is the only one whose upper end is included.",
                    hex(b),
                    and_list(&children)
                ))
            })),
            step("Play freely", 2, FREE, n(|c| {
                Said::new(format!(
                    "The namespace has {} bundles now. Split any of them; range_equally_divide never looks at the topics, which is why it suits namespaces with many topics.",
                    c.state.namespaces()[NS].bundles.len()
                ))
            })),
        ],
        real(
            &["defaultNamespaceBundleSplitAlgorithm"],
            &["pulsar-admin namespaces split-bundle --bundle 0x00000000_0x80000000 -san range_equally_divide my-tenant/my-namespace"],
            &[],
        )
        .with_class("org.apache.pulsar.common.naming.RangeEquallyDivideBundleSplitAlgorithm"),
    )
}

trait WithClass {
    fn with_class(self, c: &str) -> RealSystem;
}

impl WithClass for RealSystem {
    fn with_class(mut self, c: &str) -> RealSystem {
        self.classes.push(c.to_string());
        self
    }
}

const SIX_COUNT: [u32; 6] = [
    0x1000_0000,
    0x2000_0000,
    0x3500_0000,
    0x6500_0000,
    0x7000_0000,
    0x7500_0000,
];

fn topic_count_divide() -> Lesson {
    let mut setup = vec![broker("broker-1"), namespace(NS, 2)];
    for (i, h) in SIX_COUNT.iter().enumerate() {
        setup.push(pin(&format!("{NS}/topic{}", i + 1), *h));
    }
    let actions = vec![split(
        NS,
        "0x00000000_0x80000000",
        SplitAlgorithm::TopicCountEquallyDivide,
        vec![],
        false,
    )];
    lesson(
        "pulsar-topic-count-equally-divide",
        Concept::PulsarTopicCountEquallyDivide,
        "topic_count_equally_divide",
        "Split a bundle so both halves hold the same number of topics.",
        5,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("Six topics in one bundle", 0, &[C::Split], n(|c| {
                let ts: Vec<String> = c.state.namespaces()[NS]
                    .topics
                    .values()
                    .map(|t| format!("{} at {}", t.name.local(), hex(t.hash)))
                    .collect();
                Said::new(format!(
                    "The doc's bundle 0x00000000_0x80000000 holds {} topics: {}. topic_count_equally_divide puts the boundary between the middle two.",
                    ts.len(),
                    and_list(&ts)
                ))
                .focus(F::Bundle, format!("{NS}/0x00000000_0x80000000"))
            }))
            .ask("Split it with topic_count_equally_divide"),
            step("The midpoint of the middle two", 1, &[C::Split], n(|c| {
                let Some((_, children, plan, _)) = last_split(c) else {
                    return Said::new("The split did not happen.");
                };
                let b = plan.boundaries.first().copied().unwrap_or_default();
                let counts: Vec<String> = c
                    .state
                    .ring_view(NS, false)
                    .map(|r| r.bundles.iter().filter(|x| children.contains(&x.name)).map(|x| x.topics.to_string()).collect())
                    .unwrap_or_default();
                Said::new(format!(
                    "Pulsar put the boundary at {}, so the children hold {} topics. {}.",
                    hex(b),
                    and_list(&counts),
                    plan.remark.clone().unwrap_or_default()
                ))
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "The namespace has {} bundles now. Split a child again, or pin topics and try, to see that the boundary always sits halfway between the two middle topics.",
                    c.state.namespaces()[NS].bundles.len()
                ))
            })),
        ],
        real(
            &["defaultNamespaceBundleSplitAlgorithm"],
            &["pulsar-admin namespaces split-bundle -b LARGEST -san topic_count_equally_divide -u my-tenant/my-namespace"],
            &[],
        )
        .with_class("org.apache.pulsar.common.naming.TopicCountEquallyDivideBundleSplitAlgorithm"),
    )
}

fn specified_positions() -> Lesson {
    let setup = vec![
        broker("broker-1"),
        namespace(NS, 4),
        pin(&format!("{NS}/topic1"), 0x3000_0000),
        pin(&format!("{NS}/topic2"), 0x3500_0000),
    ];
    let actions = vec![split(
        NS,
        "0x00000000_0x40000000",
        SplitAlgorithm::SpecifiedPositionsDivide,
        vec![0x3300_0000],
        false,
    )];
    lesson(
        "pulsar-specified-positions-divide",
        Concept::PulsarSpecifiedPositionsDivide,
        "specified_positions_divide",
        "Split a bundle exactly where the operator says, e.g. between two big topics.",
        6,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("Two big topics share a bundle", 0, &[C::Split], n(|c| {
                let ts: Vec<String> = c.state.namespaces()[NS]
                    .topics
                    .values()
                    .map(|t| format!("{} at {}", t.name.local(), hex(t.hash)))
                    .collect();
                let by_range = range_equally_divide(BundleRange {
                    lower: 0,
                    upper: 0x4000_0000,
                })
                .boundaries
                .first()
                .copied()
                .unwrap_or_default();
                Said::new(format!(
                    "{} sit in bundle 0x00000000_0x40000000. range_equally_divide would cut at {} and leave them together, so the operator names the position.",
                    and_list(&ts),
                    hex(by_range)
                ))
                .focus(F::Bundle, format!("{NS}/0x00000000_0x40000000"))
            }))
            .ask("Split at 0x33000000 with specified_positions_divide"),
            step("Exactly where asked", 1, &[C::Split], n(|c| {
                let Some((_, children, _, _)) = last_split(c) else {
                    return Said::new("The split did not happen.");
                };
                let counts: Vec<String> = c
                    .state
                    .ring_view(NS, false)
                    .map(|r| r.bundles.iter().filter(|x| children.contains(&x.name)).map(|x| format!("{} holds {}", x.name, x.topics)).collect())
                    .unwrap_or_default();
                Said::new(format!(
                    "Now {}: each big topic has a bundle of its own and can move to a different broker. The algorithm is manual only, and Pulsar cannot merge bundles again, so too many tiny splits are for good.",
                    and_list(&counts)
                ))
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "The namespace has {} bundles. Try positions outside the bundle: Pulsar ignores them, and refuses a split with no position left.",
                    c.state.namespaces()[NS].bundles.len()
                ))
            })),
        ],
        real(
            &[],
            &["pulsar-admin namespaces split-bundle --bundle 0x00000000_0x40000000 -san specified_positions_divide --split-boundaries 855638016 my-tenant/my-namespace"],
            &[],
        )
        .with_class("org.apache.pulsar.common.naming.SpecifiedPositionsBundleSplitAlgorithm"),
    )
}

const SIX_FLOW: [u32; 6] = [
    0x1000_0000,
    0x1500_0000,
    0x2400_0000,
    0x3900_0000,
    0x5800_0000,
    0x7600_0000,
];

fn flow_config(rate: f64, mb: f64) -> Config {
    Config {
        load_balancer_namespace_bundle_max_msg_rate: rate,
        load_balancer_namespace_bundle_max_bandwidth_mbytes: mb,
        load_balancer_auto_bundle_split_enabled: false,
        ..Config::profile(Profile::Pulsar4)
    }
}

fn flow_boundaries(c: &PCtx) -> (String, Vec<String>, Vec<String>) {
    let Some((parent, children, plan, _)) = last_split(c) else {
        return Default::default();
    };
    (
        parent,
        plan.boundaries.iter().map(|b| hex(*b)).collect(),
        children,
    )
}

fn flow_or_qps() -> Lesson {
    let mut setup = vec![broker("broker-1")];
    for case in ["case1", "case2", "case3"] {
        let ns = format!("flow/{case}");
        setup.push(namespace(&ns, 2));
        for (i, h) in SIX_FLOW.iter().enumerate() {
            let t = format!("{ns}/t{}", i + 1);
            setup.push(pin(&t, *h));
            let k = (i + 1) as f64;
            setup.push(load(&t, 100.0 * k, 10.0 * k));
        }
    }
    let sp = |ns: &str| {
        split(
            ns,
            "0x00000000_0x80000000",
            SplitAlgorithm::FlowOrQpsEquallyDivide,
            vec![],
            false,
        )
    };
    let actions = vec![
        sp("flow/case1"),
        A::whole_config(&flow_config(1900.0, 90.0)),
        sp("flow/case2"),
        A::whole_config(&flow_config(1100.0, 110.0)),
        sp("flow/case3"),
    ];
    lesson(
        "pulsar-flow-or-qps-equally-divide",
        Concept::PulsarFlowOrQpsEquallyDivide,
        "flow_or_qps_equally_divide",
        "Walk the topics in hash order and cut whenever the running message rate or throughput would pass the bundle limit.",
        7,
        body(flow_config(450.0, 200.0), setup, actions),
        vec![
            step("Six topics with traffic", 0, &[C::Split], n(|c| {
                let ns = &c.state.namespaces()["flow/case1"];
                let ts: Vec<String> = ns
                    .topics
                    .values()
                    .map(|t| (t, ns.traffic(t)))
                    .map(|(t, tr)| format!("{} at {} ({} msg/s, {} MB/s)", t.name.local(), hex(t.hash), num(tr.msg_rate()), num(tr.throughput() / MIB)))
                    .collect();
                let k = c.state.config();
                Said::new(format!(
                    "The doc's bundle holds {}. Case 1 sets loadBalancerNamespaceBundleMaxMsgRate = {} and loadBalancerNamespaceBundleMaxBandwidthMbytes = {}.",
                    and_list(&ts),
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes)
                ))
                .focus(F::Bundle, "flow/case1/0x00000000_0x80000000")
            }))
            .ask("Split flow/case1's first bundle with flow_or_qps_equally_divide"),
            step("Case 1: four cuts in one split", 1, &[C::Split], n(|c| {
                let (_, bs, children) = flow_boundaries(c);
                let first = last_split(c).and_then(|s| s.2.notes.first().map(|n| n.why.clone())).unwrap_or_default();
                Said::new(format!(
                    "One split call cut the bundle at {} into {} children. The first cut: {}.",
                    and_list(&bs),
                    children.len(),
                    first
                ))
            })),
            step("Where the doc's numbers differ", 1, &[C::Split, C::Config], n(|c| {
                let plan = last_split(c).map(|s| s.2);
                let remark = plan.as_ref().and_then(|p| p.remark.clone()).unwrap_or_default();
                let first = plan.as_ref().and_then(|p| p.boundaries.first().copied()).unwrap_or_default();
                // The two topics around the first cut.
                let hashes: Vec<u32> = c.state.namespaces()["flow/case1"].topics.values().map(|t| t.hash).collect();
                let before = hashes.iter().copied().filter(|h| *h < first).max().unwrap_or_default();
                let after = hashes.iter().copied().filter(|h| *h >= first).min().unwrap_or_default();
                let mid = ((u64::from(before) + u64::from(after)) / 2) as u32;
                Said::new(format!(
                    "{remark}. For the first cut, ({} + {}) / 2 is {} and Pulsar's code adds 1, giving {}.",
                    hex(before),
                    hex(after),
                    hex(mid),
                    hex(mid.wrapping_add(1))
                ))
            }))
            .ask("Case 2: in pulsar-admin, Set bundle limits to 1900 msg/s and 90 MB/s"),
            step("Case 2 limits", 2, &[C::Split], n(|c| {
                let k = c.state.config();
                Said::new(format!(
                    "The limits are now {} msg/s and {} MB/s. Split flow/case2, which holds the same six topics.",
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes)
                ))
                .focus(F::Bundle, "flow/case2/0x00000000_0x80000000")
            }))
            .ask("Split flow/case2's first bundle with flow_or_qps_equally_divide"),
            step("Case 2: throughput decides", 3, &[C::Split, C::Config], n(|c| {
                let (_, bs, _) = flow_boundaries(c);
                let k = c.state.config();
                Said::new(format!(
                    "With {} msg/s and {} MB/s the throughput limit is hit first, and the engine cuts at {}. The doc prints 0x31500000 and 0x67000000 for the same two cuts, again without the +1 and with the decimal addition.",
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes),
                    and_list(&bs)
                ))
            }))
            .ask("Case 3: in pulsar-admin, Set bundle limits to 1100 msg/s and 110 MB/s"),
            step("Case 3 limits", 4, &[C::Split], n(|c| {
                let k = c.state.config();
                Said::new(format!(
                    "The limits are now {} msg/s and {} MB/s. Split flow/case3.",
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes)
                ))
                .focus(F::Bundle, "flow/case3/0x00000000_0x80000000")
            }))
            .ask("Split flow/case3's first bundle with flow_or_qps_equally_divide"),
            step("Case 3: both limits agree", 5, &[C::Split], n(|c| {
                let (_, bs, _) = flow_boundaries(c);
                let k = c.state.config();
                Said::new(format!(
                    "With {} msg/s and {} MB/s both limits are passed before t5, so there is a single cut at {} (the doc prints 0x48500000). Pulsar only splits a bundle whose total passes the limit by more than flowOrQpsDifferenceThresholdPercentage = {} %.",
                    num(k.load_balancer_namespace_bundle_max_msg_rate),
                    num(k.load_balancer_namespace_bundle_max_bandwidth_mbytes),
                    and_list(&bs),
                    num(k.flow_or_qps_difference_threshold_percentage)
                ))
            })),
            step("Play freely", 5, FREE, n(|c| {
                let counts: Vec<String> = ["flow/case1", "flow/case2", "flow/case3"]
                    .iter()
                    .map(|ns| format!("{ns} has {}", c.state.namespaces()[*ns].bundles.len()))
                    .collect();
                Said::new(format!(
                    "Bundles per namespace: {}. Change the two limits in the settings and split again to see the cuts move.",
                    and_list(&counts)
                ))
            })),
        ],
        real(
            &[
                "loadBalancerNamespaceBundleMaxMsgRate",
                "loadBalancerNamespaceBundleMaxBandwidthMbytes",
                "flowOrQpsDifferenceThresholdPercentage",
            ],
            &["pulsar-admin namespaces split-bundle -b HOT -san flow_or_qps_equally_divide my-tenant/my-namespace"],
            &[],
        )
        .with_class("org.apache.pulsar.common.naming.FlowOrQpsEquallyDivideBundleSplitAlgorithm"),
    )
}

/// broker-1 alone gets one topic per entry of `busy` (`(msg/s, MiB/s)`), each in
/// a bundle of its own; then each of `others` joins and is sent one more small
/// topic's bundle (100 msg/s, 1 MiB/s) with `unload -d`, so every broker serves
/// something (and so publishes its first real load report at the next round).
fn one_busy_broker(bundles: u32, busy: &[(f64, f64)], others: &[&str]) -> Vec<A> {
    let mut s = vec![broker("broker-1"), namespace(NS, bundles)];
    let width = (1u64 << 32) / u64::from(bundles);
    let at = |i: usize| (width * i as u64 + width / 2) as u32;
    let mut i = 0;
    for (rate, mib) in busy {
        let t = format!("{NS}/t{}", i + 1);
        s.push(pin(&t, at(i)));
        s.push(load(&t, *rate, *mib));
        i += 1;
    }
    let first_small = i;
    for _ in others {
        let t = format!("{NS}/t{}", i + 1);
        s.push(pin(&t, at(i)));
        s.push(load(&t, 100.0, 1.0));
        i += 1;
    }
    for o in others {
        s.push(broker(o));
    }
    for (k, o) in others.iter().enumerate() {
        let lo = width * (first_small + k) as u64;
        let hi = (lo + width).min(u64::from(u32::MAX));
        s.push(unload_to(NS, &format!("0x{lo:08x}_0x{hi:08x}"), o));
    }
    s.push(A::Assign);
    s
}

fn overload_shedder() -> Lesson {
    let config = Config {
        load_balancer_load_shedding_strategy: SheddingStrategy::OverloadShedder,
        ..Config::profile(Profile::Pulsar4)
    };
    let setup = one_busy_broker(16, &[(1000.0, 10.0); 8], &["broker-2", "broker-3"]);
    let actions = vec![cpu("broker-1", 100.0), A::Step];
    lesson(
        "pulsar-overload-shedder",
        Concept::PulsarOverloadShedder,
        "OverloadShedder",
        "A broker whose highest resource usage passes a fixed line sheds its biggest bundles.",
        8,
        body(config, setup, actions),
        vec![
            step("One broker owns everything", 0, &[C::Load], n(|c| {
                Said::new(format!(
                    "broker-1 was alone when the topics appeared, so {}. OverloadShedder only cares about one line: loadBalancerBrokerOverloadedThresholdPercentage = {} %.",
                    ownership_summary(c),
                    num(c.state.config().load_balancer_broker_overloaded_threshold_percentage)
                ))
                .focus(F::Broker, "broker-1")
            }))
            .ask("Set broker-1's CPU to 100 %"),
            step("Over the line", 1, &[C::Step], n(|c| {
                let cpu = c.state.brokers().get(&BrokerId("broker-1".into())).and_then(|b| b.direct.cpu).unwrap_or_default();
                Said::new(format!(
                    "broker-1's CPU is now set directly to {} % of its cores. The leader only sees it in the next load report, so press Step.",
                    num(cpu)
                ))
                .focus(F::Broker, "broker-1")
            }))
            .ask("Press Step"),
            step("Shed until the target is met", 2, &[C::Step], n(|c| {
                let s = sheds(c);
                let ov = s.iter().find_map(|e| match e {
                    ShedEvent::Overloaded { usage, threshold, percent_to_offload, throughput, min_to_offload, .. } => {
                        Some((*usage, *threshold, *percent_to_offload, *throughput, *min_to_offload))
                    }
                    _ => None,
                });
                let ch = chosen(c);
                let (u, t, p, tp, m) = ov.unwrap_or_default();
                Said::new(format!(
                    "broker-1's max usage {} reached the {} line, so it must offload at least {} − {} + {} = {} of its {} MB/s, that is {} MB/s. Biggest first, it unloaded {} bundle(s): {}. Pulsar's class comment speaks of one bundle, but its code keeps adding bundles until the target is met.",
                    pct(u), pct(t), pct(u), pct(t), pct(overload::MARGIN), pct(p), num(tp / MIB), num(m / MIB),
                    ch.len(),
                    and_list(&ch.iter().map(|x| format!("{} ({})", x.0, metric_value(x.3, x.4))).collect::<Vec<_>>())
                ))
                .focus(F::Broker, "broker-1")
            })),
            step("Play freely", 2, FREE, n(|c| {
                Said::new(format!(
                    "After the reassignment {}. Set other usages and press Step; a broker with a single bundle never sheds.",
                    ownership_summary(c)
                ))
            })),
        ],
        real(
            &["loadBalancerLoadSheddingStrategy", "loadBalancerBrokerOverloadedThresholdPercentage", "loadBalancerSheddingIntervalMinutes", "loadBalancerSheddingGracePeriodMinutes"],
            &["loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.OverloadShedder"],
            &["impl.OverloadShedder"],
        ),
    )
}

fn threshold_shedder() -> Lesson {
    let mut setup = one_busy_broker(8, &[(1000.0, 25.0); 4], &["broker-2", "broker-3"]);
    setup.push(cpu("broker-1", 40.0));
    setup.push(cpu("broker-2", 10.0));
    setup.push(cpu("broker-3", 10.0));
    let actions = vec![A::Step];
    lesson(
        "pulsar-threshold-shedder",
        Concept::PulsarThresholdShedder,
        "ThresholdShedder: 40 %, 10 %, 10 %",
        "Shed from brokers above the cluster average plus a threshold, down to 5 % below that line.",
        9,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("The doc's three brokers", 0, &[C::Step], n(|c| {
                Said::new(format!(
                    "The brokers report {}, as in the doc; {}. The threshold is loadBalancerBrokerThresholdShedderPercentage = {} %.",
                    usage_line(c),
                    ownership_summary(c),
                    num(c.state.config().load_balancer_broker_threshold_shedder_percentage)
                ))
                .focus(F::Broker, "broker-1")
            }))
            .ask("Press Step"),
            step("Average plus threshold", 1, &[C::Step], n(|c| {
                let s = sheds(c);
                let avg = s.iter().find_map(|e| match e {
                    ShedEvent::ThresholdAverages { cluster_average, .. } => Some(*cluster_average),
                    _ => None,
                }).unwrap_or_default();
                let above = s.iter().find_map(|e| match e {
                    ShedEvent::AboveThreshold { broker, usage, threshold, percent_to_offload, .. } => Some((broker.0.clone(), *usage, *threshold, *percent_to_offload)),
                    _ => None,
                }).unwrap_or_default();
                Said::new(format!(
                    "The cluster average is {}, and {} at {} is above {} + {} = {}. Pulsar's code offloads {} − {} − {} + {m} = {} of its traffic: it aims {m} below average + threshold.",
                    pct(avg), above.0, pct(above.1), pct(avg), pct(above.2), pct(avg + above.2),
                    pct(above.1), pct(avg), pct(above.2), pct(above.3),
                    m = pct(threshold::MARGIN)
                ))
                .focus(F::Broker, above.0)
            })),
            step("What moved, and the doc's wording", 1, &[C::Step], n(|c| {
                let ch = chosen(c);
                let s = sheds(c);
                let (avg, usage) = s.iter().find_map(|e| match e {
                    ShedEvent::AboveThreshold { usage, average, .. } => Some((*average, *usage)),
                    _ => None,
                }).unwrap_or_default();
                let moved: Vec<String> = lookups(c).into_iter().map(|(b, k, _)| format!("{b} went to {k}")).collect();
                Said::new(format!(
                    "broker-1 unloaded {} ({}), and at the next lookup {}. The doc says the broker is brought {} below the cluster average, which would mean offloading {} − {} = {} percentage points; the code's target is only {}.",
                    and_list(&ch.iter().map(|x| x.0.clone()).collect::<Vec<_>>()),
                    and_list(&ch.iter().map(|x| metric_value(x.3, x.4)).collect::<Vec<_>>()),
                    and_list(&moved),
                    pct(threshold::MARGIN),
                    pct(usage), pct(avg - threshold::MARGIN), num((usage - (avg - threshold::MARGIN)) * 100.0),
                    pct(usage - avg - c.state.config().load_balancer_broker_threshold_shedder_percentage / 100.0 + threshold::MARGIN)
                ))
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "Now {}. Press Step again: usage is a moving average with loadBalancerHistoryResourcePercentage = {}, and a bundle unloaded within loadBalancerSheddingGracePeriodMinutes = {} is not moved again.",
                    ownership_summary(c),
                    c.state.config().load_balancer_history_resource_percentage,
                    c.state.config().load_balancer_shedding_grace_period_minutes
                ))
            })),
        ],
        real(
            &[
                "loadBalancerLoadSheddingStrategy",
                "loadBalancerBrokerThresholdShedderPercentage",
                "loadBalancerHistoryResourcePercentage",
                "loadBalancerBundleUnloadMinThroughputThreshold",
                "lowerBoundarySheddingEnabled",
                "loadBalancerCPUResourceWeight",
                "loadBalancerMemoryResourceWeight",
            ],
            &["loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.ThresholdShedder"],
            &["impl.ThresholdShedder"],
        ),
    )
}

fn uniform_shedder() -> Lesson {
    let config = Config {
        load_balancer_load_shedding_strategy: SheddingStrategy::UniformLoadShedder,
        ..Config::profile(Profile::Pulsar4)
    };
    let setup = one_busy_broker(8, &[(3000.0, 3.0), (2000.0, 2.0), (1000.0, 1.0)], &["broker-2"]);
    let actions = vec![A::Step];
    lesson(
        "pulsar-uniform-load-shedder",
        Concept::PulsarUniformLoadShedder,
        "UniformLoadShedder",
        "Compare only the busiest and the idlest broker, by message rate and throughput, and move half the difference.",
        10,
        body(config, setup, actions),
        vec![
            step("Two very different brokers", 0, &[C::Step], n(|c| {
                Said::new(format!(
                    "{}. UniformLoadShedder sheds when the message-rate difference passes {} % or the throughput ratio passes {}.",
                    ownership_summary(c),
                    num(c.state.config().load_balancer_msg_rate_difference_shedder_threshold),
                    num(c.state.config().load_balancer_msg_throughput_multiplier_difference_shedder_threshold)
                ))
            }))
            .ask("Press Step"),
            step("Max against min", 1, &[C::Step], n(|c| {
                let s = sheds(c);
                let u = s.iter().find_map(|e| match e {
                    ShedEvent::UniformImbalance { overloaded, underloaded, max_msg_rate, min_msg_rate, msg_rate_difference_percent, msg_rate_threshold, metric, required, .. } => Some(format!(
                        "{overloaded} serves {} msg/s and {underloaded} {} msg/s: a difference of {} %, above {} %, so it moves (max − min) × maxUnloadPercentage {} = {}",
                        num(*max_msg_rate), num(*min_msg_rate), num(*msg_rate_difference_percent), num(*msg_rate_threshold), c.state.config().max_unload_percentage, metric_value(*metric, *required)
                    )),
                    _ => None,
                }).unwrap_or_else(|| "No imbalance was found".into());
                let ch = chosen(c);
                Said::new(format!(
                    "{u}. Taking the biggest bundles that still fit in what is required, it unloaded {}.",
                    if ch.is_empty() { "nothing".to_string() } else { and_list(&ch.iter().map(|x| format!("{} ({})", x.0, metric_value(x.3, x.4))).collect::<Vec<_>>()) }
                ))
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "Now {}. The strategy looks at two brokers per pass and needs minUnloadMessage = {} msg/s of movable traffic; add brokers and traffic and press Step.",
                    ownership_summary(c),
                    num(c.state.config().min_unload_message)
                ))
            })),
        ],
        real(
            &[
                "loadBalancerLoadSheddingStrategy",
                "loadBalancerMsgRateDifferenceShedderThreshold",
                "loadBalancerMsgThroughputMultiplierDifferenceShedderThreshold",
                "maxUnloadPercentage",
                "minUnloadMessage",
                "minUnloadMessageThroughput",
            ],
            &["loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.UniformLoadShedder"],
            &["impl.UniformLoadShedder"],
        ),
    )
}

fn transfer_shedder() -> Lesson {
    let config = Config {
        load_manager_class_name: LoadManager::Extensible,
        load_balancer_load_shedding_strategy: SheddingStrategy::TransferShedder,
        ..Config::profile(Profile::Pulsar4)
    };
    let mut setup = one_busy_broker(8, &[(1000.0, 25.0); 4], &["broker-2", "broker-3"]);
    setup.push(cpu("broker-1", 80.0));
    setup.push(cpu("broker-2", 10.0));
    setup.push(cpu("broker-3", 10.0));
    let actions = vec![A::Step, A::Step, A::Step, A::Step, A::Step];
    lesson(
        "pulsar-transfer-shedder",
        Concept::PulsarTransferShedder,
        "TransferShedder (extensible load manager)",
        "Move load from the most to the least loaded broker until the spread of loads is below a target, pre-assigning each destination.",
        11,
        body(config, setup, actions),
        vec![
            step("A skewed cluster", 0, &[C::Step], n(|c| {
                Said::new(format!(
                    "The extensible load manager runs TransferShedder; the brokers report {}. It sheds while the standard deviation of loads is above loadBalancerBrokerLoadTargetStd = {}, once that holds in more than {} consecutive checks.",
                    usage_line(c),
                    c.state.config().load_balancer_broker_load_target_std,
                    c.state.config().load_balancer_shedding_condition_hit_count_threshold
                ))
            }))
            .ask("Press Step"),
            step("Counting hits", 1, &[C::Step], n(transfer_text)).ask("Press Step"),
            step("Still counting", 2, &[C::Step], n(transfer_text)).ask("Press Step"),
            step("The last wait", 3, &[C::Step], n(transfer_text)).ask("Press Step"),
            step("Transfer", 4, &[C::Step], n(transfer_text)),
            step("Play freely", 5, FREE, n(|c| {
                Said::new(format!(
                    "Now {}. Each unload named its destination up front, so the bundle went straight to it through the service-unit state channel.",
                    ownership_summary(c)
                ))
            })),
        ],
        real(
            &[
                "loadManagerClassName",
                "loadBalancerBrokerLoadTargetStd",
                "loadBalancerSheddingConditionHitCountThreshold",
                "loadBalancerMaxNumberOfBrokerSheddingPerCycle",
                "loadBalancerTransferEnabled",
            ],
            &["loadManagerClassName=org.apache.pulsar.broker.loadbalance.extensions.ExtensibleLoadManagerImpl"],
            &["extensions.scheduler.TransferShedder", "extensions.ExtensibleLoadManagerImpl"],
        ),
    )
}

fn transfer_text(c: &PCtx) -> Said {
    let s = sheds(c);
    let stats = s.iter().find_map(|e| match e {
        ShedEvent::TransferStats {
            average,
            std,
            target_std,
            hit_count,
            hit_threshold,
            ..
        } => Some((*average, *std, *target_std, *hit_count, *hit_threshold)),
        _ => None,
    });
    let pair = s.iter().find_map(|e| match e {
        ShedEvent::TransferPair {
            from,
            to,
            max_load,
            min_load,
            offload,
            ..
        } => Some((from.0.clone(), to.0.clone(), *max_load, *min_load, *offload)),
        _ => None,
    });
    let ch = chosen(c);
    let round = c.state.round();
    match (stats, pair) {
        (Some((avg, std, target, hits, need)), Some((from, to, max, min, off))) if !ch.is_empty() => {
            let swapped: Vec<String> = ch.iter().filter(|x| *x.1 == *to).map(|x| x.0.to_string()).collect();
            Said::new(format!(
                "Round {round}: average load {}, std {std:.3} above {target:.3}, and the condition has now held {hits} times, more than {need}. TransferShedder pairs {from} ({}) with {to} ({}) and offloads ({} − {}) / 2 = {} of {from}'s load. Each unload names its destination in advance: {}.{}",
                pct(avg), pct(max), pct(min), pct(max), pct(min), pct(off),
                and_list(&ch.iter().map(|x| format!("{} from {} to {}", x.0, x.1, x.2.clone().unwrap_or_default())).collect::<Vec<_>>()),
                if swapped.is_empty() {
                    String::new()
                } else {
                    format!(" Moving {} back is a swap: the second big bundle overshoots the target, and swapping balances better than stopping.", and_list(&swapped))
                }
            ))
        }
        .focus(F::Broker, from)
        .focus(F::Broker, to),
        (Some((avg, std, target, hits, need)), _) => Said::new(format!(
            "Round {round}: average load {}, std {std:.3} against the target {target:.3}; the condition has held {hits} time(s) and must hold more than {need}. The loads are exponential moving averages, so one bad report alone does not move anything.",
            pct(avg)
        )),
        _ => Said::new(format!("Round {round}: TransferShedder did not report this round.")),
    }
}

fn avg_shedder() -> Lesson {
    let config = Config {
        min_unload_message: 100.0,
        ..Config::profile(Profile::Pulsar5)
    };
    // Bundles of 0x20000000: topics a..f in the first six, created while broker-5
    // is alone; then the others join and c..f are sent to them.
    let mut setup = vec![broker("broker-5"), namespace(NS, 8)];
    let plan = [
        ("a", 750.0, "broker-5"),
        ("b", 250.0, "broker-5"),
        ("c", 500.0, "broker-1"),
        ("d", 300.0, "broker-2"),
        ("e", 300.0, "broker-3"),
        ("f", 300.0, "broker-4"),
    ];
    for (i, (t, rate, _)) in plan.iter().enumerate() {
        let name = format!("{NS}/{t}");
        setup.push(pin(&name, 0x1000_0000 + 0x2000_0000 * i as u32));
        setup.push(load(&name, *rate, 0.1));
    }
    for b in ["broker-1", "broker-2", "broker-3", "broker-4"] {
        setup.push(broker(b));
    }
    for (i, (_, _, to)) in plan.iter().enumerate().skip(2) {
        let lo = 0x2000_0000u64 * i as u64;
        setup.push(unload_to(
            NS,
            &format!("0x{:08x}_0x{:08x}", lo, lo + 0x2000_0000),
            to,
        ));
    }
    setup.push(A::Assign);
    for (b, score) in [
        ("broker-1", 20.0),
        ("broker-2", 30.0),
        ("broker-3", 52.0),
        ("broker-4", 70.0),
        ("broker-5", 80.0),
    ] {
        setup.push(cpu(b, score));
    }
    let actions = vec![A::Step, A::Step];
    lesson(
        "pulsar-avg-shedder",
        Concept::PulsarAvgShedder,
        "AvgShedder: scores 20, 30, 52, 70, 80",
        "Pair the highest with the lowest scored broker, wait for repeated hits, then even out their message rates and plan the destination.",
        12,
        body(config, setup, actions),
        vec![
            step("The doc's five brokers", 0, &[C::Step], n(|c| {
                let k = c.state.config();
                let rate = |b: &str| -> f64 {
                    c.state.brokers().get(&BrokerId(b.into())).map_or(0.0, |br| {
                        br.bundles.iter().filter_map(|id| c.state.bundles().get(id)).map(|st| st.load().msg_rate()).sum()
                    })
                };
                let doc_move = (rate("broker-5") - rate("broker-1")) * k.max_unload_percentage;
                Said::new(format!(
                    "The brokers' scores are {}, with the Pulsar 5.0 defaults (maxUnloadPercentage = {}). The doc's move, ({} − {}) × {} = {} msg/s, is below the default minUnloadMessage of {} msg/s, which would block it, so this lesson lowers it to {}.",
                    usage_line(c).replace(" %", ""),
                    k.max_unload_percentage,
                    num(rate("broker-5")),
                    num(rate("broker-1")),
                    k.max_unload_percentage,
                    num(doc_move),
                    num(Config::profile(Profile::Pulsar4).min_unload_message),
                    num(k.min_unload_message)
                ))
            }))
            .ask("Press Step"),
            step("First hit: wait", 1, &[C::Step], n(avg_text)).ask("Press Step again"),
            step("Second hit: shed", 2, &[C::Step], n(avg_text)),
            step("Play freely", 2, FREE, n(|c| {
                let k = c.state.config();
                Said::new(format!(
                    "Now {}. A smaller gap, above {} but below {}, needs {} consecutive hits instead of {}; set usages and press Step to watch the counters.",
                    ownership_summary(c),
                    num(k.load_balancer_avg_shedder_low_threshold),
                    num(k.load_balancer_avg_shedder_high_threshold),
                    k.load_balancer_avg_shedder_hit_count_low_threshold,
                    k.load_balancer_avg_shedder_hit_count_high_threshold
                ))
            })),
        ],
        real(
            &[
                "loadBalancerLoadSheddingStrategy",
                "loadBalancerLoadPlacementStrategy",
                "maxUnloadPercentage",
                "minUnloadMessage",
                "loadBalancerAvgShedderLowThreshold",
                "loadBalancerAvgShedderHighThreshold",
                "loadBalancerAvgShedderHitCountLowThreshold",
                "loadBalancerAvgShedderHitCountHighThreshold",
                "loadBalancerDistributeBundlesEvenlyEnabled",
            ],
            &[
                "loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.AvgShedder",
                "loadBalancerLoadPlacementStrategy=org.apache.pulsar.broker.loadbalance.impl.AvgShedder",
            ],
            &["impl.AvgShedder"],
        ),
    )
}

fn avg_text(c: &PCtx) -> Said {
    let s = sheds(c);
    let pair = s.iter().find_map(|e| match e {
        ShedEvent::AvgPair {
            low,
            high,
            low_score,
            high_score,
            high_threshold,
            high_hits,
            high_hits_needed,
            fired,
            ..
        } => Some((
            low.0.clone(),
            high.0.clone(),
            *low_score,
            *high_score,
            *high_threshold,
            *high_hits,
            *high_hits_needed,
            *fired,
        )),
        _ => None,
    });
    let plan = s.iter().find_map(|e| match e {
        ShedEvent::AvgPlan {
            from,
            to,
            from_msg_rate,
            to_msg_rate,
            max_unload_percentage,
            required,
            ..
        } => Some((
            from.0.clone(),
            to.0.clone(),
            *from_msg_rate,
            *to_msg_rate,
            *max_unload_percentage,
            *required,
        )),
        _ => None,
    });
    let Some((low, high, ls, hs, ht, hits, need, fired)) = pair else {
        return Said::new("AvgShedder found no pair this round.");
    };
    let head = format!(
        "The outermost pair is {high} ({}) and {low} ({}): a difference of {} is above the high threshold {}, hit {hits} of the {need} needed.",
        num(hs), num(ls), num(hs - ls), num(ht)
    );
    if !fired {
        return Said::new(format!(
            "{head} AvgShedder waits, so one noisy report cannot move a bundle."
        ))
        .focus(F::Broker, high)
        .focus(F::Broker, low);
    }
    let Some((from, to, fr, tr, mup, req)) = plan else {
        return Said::new(format!("{head} The pair fired, but there was nothing to move."));
    };
    let ch = chosen(c);
    let placed: Vec<String> = lookups(c)
        .into_iter()
        .filter(|(b, _, _)| ch.iter().any(|x| &x.0 == b))
        .map(|(_, k, _)| k)
        .collect();
    Said::new(format!(
        "{head} It moves ({} − {}) × {mup} = {} msg/s from {from} to {to}, so both end near ({} + {}) / 2 = {} msg/s. It unloaded {} with {to} planned as the destination, and the AvgShedder placement put it on {}.",
        num(fr), num(tr), num(req), num(fr), num(tr), num((fr + tr) / 2.0),
        and_list(&ch.iter().map(|x| format!("{} ({})", x.0, metric_value(x.3, x.4))).collect::<Vec<_>>()),
        and_list(&placed)
    ))
    .focus(F::Broker, from)
    .focus(F::Broker, to)
}

fn modular_vs_extensible() -> Lesson {
    let setup = vec![
        broker("broker-1"),
        broker("broker-2"),
        broker("broker-3"),
        namespace(NS, 4),
        A::CreateTopics {
            namespace: NS.into(),
            prefix: "t".into(),
            count: 12,
            traffic: Traffic {
                msg_rate_in: 100.0,
                msg_rate_out: 100.0,
                throughput_in: 10_000.0,
                throughput_out: 10_000.0,
                producers: 2,
                consumers: 3,
            },
        },
    ];
    let b0 = "0x00000000_0x40000000";
    let b1 = "0x40000000_0x80000000";
    let actions = vec![
        unload_to(NS, b0, "broker-3"),
        A::Assign,
        A::whole_config(&Config {
            load_manager_class_name: LoadManager::Extensible,
            load_balancer_load_shedding_strategy: SheddingStrategy::TransferShedder,
            ..Config::profile(Profile::Pulsar4)
        }),
        unload_to(NS, b1, "broker-3"),
    ];
    lesson(
        "pulsar-modular-vs-extensible",
        Concept::PulsarModularVsExtensible,
        "Modular vs extensible: post- and pre-assignment",
        "The modular load manager assigns an unloaded bundle at the next client lookup; the extensible one picks the new owner while unloading.",
        13,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("The modular load manager", 0, &[C::Unload], n(|c| {
                let o = owners(c, NS);
                Said::new(format!(
                    "The cluster runs {}; bundle {} is owned by {}. Unload it with -d broker-3 and watch who owns it right after.",
                    manager_name(c.state.config().load_manager_class_name),
                    o[0].0,
                    o[0].1.clone().unwrap_or_default()
                ))
                .focus(F::Bundle, format!("{NS}/{}", o[0].0))
            }))
            .ask("Unload bundle 0x00000000_0x40000000 to broker-3"),
            step("Unowned until a lookup", 1, &[C::Unload, C::Step], n(|c| {
                let (from, sessions, topics) = unload_facts(c);
                let o = owners(c, NS);
                Said::new(format!(
                    "{from} released the bundle and closed {topics} topics, so {sessions} producer and consumer sessions reconnect: that is the latency blip. The bundle now has {} owner: the modular load manager only remembers broker-3 and post-assigns the bundle when a client looks it up again.",
                    if o[0].1.is_some() { "an" } else { "no" }
                ))
                .focus(F::Bundle, format!("{NS}/{}", o[0].0))
            }))
            .ask("Let the clients reconnect (lookups)"),
            step("The reconnecting clients decide", 2, &[C::Unload, C::Config], n(|c| {
                let l: Vec<String> = lookups(c).into_iter().map(|(b, k, how)| format!("{b} went to {k} ({how})")).collect();
                Said::new(format!(
                    "The reconnecting clients' lookups assigned the bundle: {}. Until that lookup its topics had no broker at all.",
                    and_list(&l)
                ))
            }))
            .ask("Switch to the extensible load manager"),
            step("The extensible load manager", 3, &[C::Unload], n(|c| {
                Said::new(format!(
                    "loadManagerClassName is now {}, and its shedder is {:?}. Unload bundle 0x40000000_0x80000000 to broker-3 the same way and compare.",
                    manager_name(c.state.config().load_manager_class_name),
                    c.state.effective_config().load_balancer_load_shedding_strategy
                ))
                .focus(F::Bundle, format!("{NS}/0x40000000_0x80000000"))
            }))
            .ask("Unload bundle 0x40000000_0x80000000 to broker-3"),
            step("Pre-assigned while unloading", 4, &[C::Unload], n(|c| {
                let states: Vec<String> = c.pick_all(|e| match e {
                    E::StateChanged { from, to, dst, .. } => Some(format!("{from:?} → {to:?}{}", dst.as_ref().map(|d| format!(" ({d})")).unwrap_or_default())),
                    _ => None,
                });
                let (_, sessions, _) = unload_facts(c);
                let o = owners(c, NS);
                Said::new(format!(
                    "The service-unit state channel moved the bundle {}, so it has an owner ({}) before any client asks. Clients still reconnect ({sessions} sessions), but straight to the new owner; TransferShedder's automatic unloads pre-assign the same way.",
                    and_list(&states),
                    o.get(1).and_then(|x| x.1.clone()).unwrap_or_default()
                ))
            })),
            step("Play freely", 4, FREE, n(|c| {
                Said::new(format!(
                    "Now {}. Switch between the two load managers and unload bundles to compare.",
                    ownership_summary(c)
                ))
            })),
        ],
        real(
            &["loadManagerClassName", "loadBalancerTransferEnabled"],
            &["pulsar-admin namespaces unload my-tenant/my-namespace -b 0x00000000_0x40000000"],
            &["impl.ModularLoadManagerImpl", "extensions.ExtensibleLoadManagerImpl", "extensions.channel.ServiceUnitStateChannelImpl"],
        ),
    )
}

fn unload_facts(c: &PCtx) -> (String, u32, u32) {
    let from = c
        .pick(|e| match e {
            E::Unloaded { from, .. } => Some(from.0.to_string()),
            _ => None,
        })
        .unwrap_or_default();
    let (s, t) = c
        .pick_all(|e| match e {
            E::Reconnected { topics, sessions, .. } => Some((*sessions, *topics)),
            _ => None,
        })
        .into_iter()
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (from, s, t)
}

fn crash_and_join() -> Lesson {
    let setup = vec![
        broker("broker-1"),
        broker("broker-2"),
        broker("broker-3"),
        namespace(NS, 8),
        A::CreateTopics {
            namespace: NS.into(),
            prefix: "t".into(),
            count: 24,
            traffic: Traffic {
                msg_rate_in: 500.0,
                msg_rate_out: 500.0,
                throughput_in: 500_000.0,
                throughput_out: 500_000.0,
                producers: 1,
                consumers: 1,
            },
        },
    ];
    let actions = vec![
        A::CrashBroker {
            broker: "broker-2".into(),
        },
        A::Step,
        broker("broker-4"),
        A::Step,
    ];
    lesson(
        "pulsar-crash-and-join",
        Concept::PulsarCrashAndJoin,
        "A broker crash and a broker join",
        "A crashed broker's bundles are reassigned to the survivors; a new broker gets load only through new assignments and shedding.",
        14,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("Three brokers share the bundles", 0, &[C::Members], n(|c| {
                Said::new(format!(
                    "{}; the leader is {}. Crash broker-2 and follow its bundles.",
                    ownership_summary(c),
                    c.state.leader().map(|b| b.0.clone()).unwrap_or_default()
                ))
                .focus(F::Broker, "broker-2")
            }))
            .ask("Crash broker-2"),
            step("Orphaned bundles", 1, &[C::Step], n(|c| {
                let orphaned = c.pick(|e| match e {
                    E::BrokerCrashed { orphaned, .. } => Some(orphaned.len()),
                    _ => None,
                }).unwrap_or_default();
                let (_, sessions, _) = unload_facts(c);
                Said::new(format!(
                    "broker-2 is gone and its {orphaned} bundles have no owner; their clients lost {sessions} sessions. With the modular load manager they are reassigned when the clients look their topics up again.",
                ))
            }))
            .ask("Press Step"),
            step("Reassigned to the survivors", 2, &[C::Step, C::Members], n(|c| {
                let l: Vec<String> = lookups(c).into_iter().map(|(b, k, _)| format!("{} to {k}", b.rsplit('/').next().unwrap_or_default())).collect();
                Said::new(format!(
                    "The lookups placed {} bundles: {}. Now {}.",
                    l.len(),
                    and_list(&l),
                    ownership_summary(c)
                ))
            }))
            .ask("Add broker-4"),
            step("A new broker starts empty", 3, &[C::Step], n(|c| {
                Said::new(format!(
                    "broker-4 joined and {}. Pulsar does not hand existing bundles to a new broker by itself: only new assignments and shedding do.",
                    ownership_summary(c)
                ))
                .focus(F::Broker, "broker-4")
            }))
            .ask("Press Step"),
            step("After a round", 4, &[C::Step], n(|c| {
                let avgs = sheds(c).into_iter().find_map(|s| match s {
                    ShedEvent::ThresholdAverages { samples, cluster_average, .. } => Some((
                        samples.iter().map(|x| format!("{} {}", x.broker, pct(x.average))).collect::<Vec<_>>(),
                        cluster_average,
                    )),
                    _ => None,
                });
                let moved = chosen(c).len();
                let threshold = c.state.config().load_balancer_broker_threshold_shedder_percentage;
                match avgs {
                    Some((parts, avg)) => Said::new(format!(
                        "ThresholdShedder saw {} against an average of {}, and unloaded {moved} bundle(s): a broker must be {} % above the average to shed. So {}; broker-4 gets bundles only when load grows, or from new topics.",
                        and_list(&parts),
                        pct(avg),
                        num(threshold),
                        ownership_summary(c)
                    )),
                    None => Said::new(format!(
                        "The round's shedding unloaded {moved} bundle(s). Now {}.",
                        ownership_summary(c)
                    )),
                }
            })),
            step("Play freely", 4, FREE, n(|c| {
                Said::new(format!(
                    "There are {} brokers alive. Restore broker-2, crash the leader, or add traffic and press Step.",
                    c.state.brokers().values().filter(|b| b.alive).count()
                ))
            })),
        ],
        real(
            &["loadBalancerLoadSheddingStrategy", "loadBalancerLoadPlacementStrategy"],
            &["pulsar-admin brokers list my-cluster", "pulsar-admin brokers leader-broker"],
            &["impl.ModularLoadManagerImpl"],
        ),
    )
}

fn manual_commands() -> Lesson {
    let ns = "my-tenant/my-namespace";
    let setup = vec![
        broker("broker-1"),
        broker("broker-2"),
        namespace(ns, 1),
        A::CreateTopics {
            namespace: ns.into(),
            prefix: "t".into(),
            count: 6,
            traffic: Traffic {
                msg_rate_in: 50.0,
                producers: 1,
                consumers: 2,
                ..Traffic::default()
            },
        },
    ];
    let actions = vec![
        unload_to(ns, "0x00000000_0xffffffff", "broker-1"),
        A::Assign,
        split(
            ns,
            "LARGEST",
            SplitAlgorithm::TopicCountEquallyDivide,
            vec![],
            true,
        ),
        A::Assign,
        A::Unload {
            namespace: ns.into(),
            bundle: None,
            destination: None,
        },
        A::Assign,
    ];
    lesson(
        "pulsar-manual-split-and-unload",
        Concept::PulsarManualCommands,
        "Manual split and unload commands",
        "Operators can split the largest bundle and unload bundles or whole namespaces with pulsar-admin.",
        15,
        body(Config::profile(Profile::Pulsar4), setup, actions),
        vec![
            step("One bundle, six topics", 0, &[C::Unload], n(|c| {
                let o = owners(c, "my-tenant/my-namespace");
                Said::new(format!(
                    "my-tenant/my-namespace has {} bundle, {}, owned by {}, with {} topics. Run the doc's command that unloads it to a chosen broker.",
                    o.len(),
                    o[0].0,
                    o[0].1.clone().unwrap_or_default(),
                    c.state.namespaces()["my-tenant/my-namespace"].topics.len()
                ))
            }))
            .ask("pulsar-admin namespaces unload my-tenant/my-namespace -b 0x00000000_0xffffffff -d broker-1"),
            step("Unloaded towards broker-1", 1, &[C::Unload, C::Step], n(|c| {
                let (from, sessions, topics) = unload_facts(c);
                Said::new(format!(
                    "{from} released the bundle, closing {topics} topics and {sessions} sessions. The modular load manager keeps broker-1 as the destination for the next lookup."
                ))
            }))
            .ask("Let the clients look up"),
            step("Owned by the chosen broker", 2, &[C::Split], n(|c| {
                let l: Vec<String> = lookups(c).into_iter().map(|(b, k, how)| format!("{b} went to {k} ({how})")).collect();
                Said::new(format!(
                    "The lookups assigned it: {}. Next, the doc's split: the largest bundle, by topic count, with its children unloaded (-u).",
                    and_list(&l)
                ))
            }))
            .ask("pulsar-admin namespaces split-bundle -b LARGEST -san topic_count_equally_divide -u my-tenant/my-namespace"),
            step("Split and unloaded", 3, &[C::Split, C::Step], n(|c| {
                let Some((parent, children, plan, unloaded)) = last_split(c) else {
                    return Said::new("The split did not happen.");
                };
                Said::new(format!(
                    "LARGEST picked {parent}, split at {} into {}; the children were {}. They wait for the next lookups to get owners.",
                    plan.boundaries.first().map(|b| hex(*b)).unwrap_or_default(),
                    and_list(&children),
                    if unloaded { "unloaded" } else { "kept" }
                ))
            }))
            .ask("Let the clients look up"),
            step("New owners", 4, &[C::Unload], n(|c| {
                Said::new(format!(
                    "The lookups placed the children: {}. Next, unload the whole namespace.",
                    ownership_summary(c)
                ))
            }))
            .ask("pulsar-admin namespaces unload my-tenant/my-namespace"),
            step("Unload everything", 5, &[C::Unload, C::Step], n(|c| {
                let n = c.pick_all(|e| match e {
                    E::Unloaded { .. } => Some(()),
                    _ => None,
                }).len();
                let (_, sessions, topics) = unload_facts(c);
                Said::new(format!(
                    "All {n} owned bundles were unloaded, closing {topics} topics and {sessions} sessions. Unloading a whole namespace is a blunt tool: every client of it reconnects at once.",
                ))
            }))
            .ask("Let the clients look up"),
            step("Play freely", 6, FREE, n(|c| {
                Said::new(format!(
                    "Now {}. Split with other algorithms, or unload single bundles with and without -d.",
                    ownership_summary(c)
                ))
            })),
        ],
        real(
            &[],
            &[
                "pulsar-admin namespaces split-bundle -b LARGEST -san topic_count_equally_divide -u my-tenant/my-namespace",
                "pulsar-admin namespaces split-bundle --bundle 0x00000000_0xffffffff my-tenant/my-namespace",
                "pulsar-admin namespaces unload my-tenant/my-namespace -b 0x00000000_0xffffffff",
                "pulsar-admin namespaces unload my-tenant/my-namespace -b 0x00000000_0xffffffff -d broker-1",
                "pulsar-admin namespaces unload my-tenant/my-namespace",
            ],
            &[],
        )
        .with_class("org.apache.pulsar.broker.admin.impl.NamespacesBase"),
    )
}
