//! Scenario building blocks for the playground and lessons (not balancing logic).

use super::{Body, Log, Scenario};
use crate::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
use crate::engine::kstreams::topology::SubtopologySpec;
use crate::engine::{flink, kstreams, pulsar, SimRng, System};

/// The namespace the Pulsar presets work in.
pub const PULSAR_NAMESPACE: &str = "public/default";

/// The seed of the Flink tab's first scenario: Flink leaves the order of a pipelined
/// region's slot requests to hash order, which the engine draws from the seed, and
/// this seed draws the order of the document's figure (h) (tm-0 4, tm-1 3, tm-2 2).
pub const FLINK_DEFAULT_SEED: u64 = 20;

/// The scenario each playground tab starts from.
pub fn default_scenario(system: System) -> Scenario {
    let seed = if system == System::Flink {
        FLINK_DEFAULT_SEED
    } else {
        1
    };
    let mut sc = Scenario::empty(system, seed);
    match &mut sc.body {
        Body::Pulsar(log) => *log = pulsar_playground(4),
        Body::Flink(log) => *log = flink_figure_a(),
        Body::Kstreams(log) => *log = kstreams_counts(),
    }
    sc
}

/// Brokers of the default Pulsar scenario.
pub const PULSAR_DEFAULT_BROKERS: u32 = 3;
/// Topics of the default Pulsar scenario.
pub const PULSAR_DEFAULT_TOPICS: u32 = 12;
/// Published msg/s of each default topic.
pub const PULSAR_DEFAULT_RATE: f64 = 300.0;
/// Published msg/s of a "hot topic" burst: alone it crosses the bundle limits
/// (30 000 msg/s, 100 MB/s) and loads its broker well above the others.
pub const PULSAR_HOT_RATE: f64 = 60_000.0;
/// Message size the traffic helpers assume, bytes.
pub const PULSAR_MSG_BYTES: f64 = 2048.0;
/// Subscriptions (fan-out) the traffic helpers assume.
pub const PULSAR_FANOUT: u32 = 2;

/// A Pulsar log whose setup creates [`PULSAR_NAMESPACE`] with `bundles` bundles.
pub fn pulsar_namespace(bundles: u32) -> Log<pulsar::Sim> {
    Log {
        config: pulsar::Config::default(),
        setup: vec![pulsar::Action::CreateNamespace {
            namespace: PULSAR_NAMESPACE.into(),
            bundles: Some(bundles),
        }],
        actions: Vec::new(),
    }
}

/// A stateful counting app: topic `orders` with 5 partitions, one sub-topology with
/// a store (and its changelog), 3 instances with one thread each on racks a/b/c,
/// one standby replica; the log produces 5,000 records and lets one second pass, so
/// the standbys have caught up (lag 0) when the user starts crashing instances.
pub fn kstreams_counts() -> Log<kstreams::Sim> {
    let config = kstreams::Config {
        num_standby_replicas: 1,
        ..kstreams::Config::default()
    };
    let mut setup = vec![
        kstreams::Action::DefineTopic {
            topic: "orders".into(),
            partitions: 5,
            racks: Vec::new(),
            replication_factor: 1,
        },
        kstreams::Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["orders".into()],
                stores: vec!["counts".into()],
                changelog: true,
            }],
            copartition_groups: Vec::new(),
        },
    ];
    for (i, rack) in ["a", "b", "c"].iter().enumerate() {
        setup.push(kstreams::Action::AddInstance {
            name: format!("app-{}", i + 1),
            threads: Some(1),
            rack: Some(format!("rack-{rack}")),
            tags: Default::default(),
            process_id: None,
        });
    }
    Log {
        config,
        setup,
        actions: vec![
            kstreams::Action::Produce {
                topic: "orders".into(),
                key: None,
                partition: None,
                records: 5000,
            },
            kstreams::Action::AdvanceTime { ms: 1000 },
        ],
    }
}

/// Published msg/s of each topic of the Pulsar tab's first scenario.
pub const PULSAR_PLAYGROUND_RATE: f64 = 3000.0;
/// CPU cores of the first scenario's brokers: small enough that a dozen busy
/// topics load one broker well past AvgShedder's high threshold.
pub const PULSAR_PLAYGROUND_CORES: f64 = 4.0;

/// The Pulsar tab's first experience, a cluster that just grew: broker-1 owned
/// every bundle of [`PULSAR_NAMESPACE`] (`bundles` bundles, a dozen topics at
/// [`PULSAR_PLAYGROUND_RATE`] msg/s, about half its CPU), then broker-2 and
/// broker-3 joined and one round ran. The shedder of the 5.0 profile,
/// AvgShedder, has counted its first hit on the pair broker-1 / an idle broker;
/// the next Step sheds, so the first press moves bundles.
pub fn pulsar_playground(bundles: u32) -> Log<pulsar::Sim> {
    let mut log = pulsar_namespace(bundles);
    let capacity = pulsar::broker::Capacity {
        cpu_cores: PULSAR_PLAYGROUND_CORES,
        ..Default::default()
    };
    let broker = |i: u32| pulsar::Action::AddBroker {
        broker: format!("broker-{i}"),
        capacity,
    };
    log.setup.insert(0, broker(1));
    log.setup.push(pulsar::Action::CreateTopics {
        namespace: PULSAR_NAMESPACE.into(),
        prefix: "topic".into(),
        count: PULSAR_DEFAULT_TOPICS,
        traffic: pulsar_traffic(PULSAR_PLAYGROUND_RATE),
    });
    log.setup.push(pulsar::Action::Assign);
    log.setup.extend((2..=PULSAR_DEFAULT_BROKERS).map(broker));
    log.setup.push(pulsar::Action::Step);
    log
}

/// The traffic of a topic publishing `msg_rate_in` msg/s of [`PULSAR_MSG_BYTES`]
/// bytes, read by [`PULSAR_FANOUT`] subscriptions (one producer, one consumer each).
pub fn pulsar_traffic(msg_rate_in: f64) -> pulsar::traffic::Traffic {
    let rate = if msg_rate_in.is_finite() {
        msg_rate_in.max(0.0)
    } else {
        0.0
    };
    let out = rate * f64::from(PULSAR_FANOUT);
    pulsar::traffic::Traffic {
        msg_rate_in: rate,
        msg_rate_out: out,
        throughput_in: rate * PULSAR_MSG_BYTES,
        throughput_out: out * PULSAR_MSG_BYTES,
        producers: 1,
        consumers: PULSAR_FANOUT,
    }
}

/// A "hot topic" burst: `topic` jumps to [`PULSAR_HOT_RATE`] msg/s.
pub fn pulsar_hot_topic(topic: &str) -> pulsar::Action {
    pulsar::Action::SetTopicTraffic {
        topic: topic.into(),
        traffic: pulsar_traffic(PULSAR_HOT_RATE),
    }
}

/// A ramp: every topic's published rate multiplied by `factor` (given the
/// current `(topic, msg/s in)` pairs); topics without traffic start at 100 msg/s.
pub fn pulsar_ramp(topics: &[(String, f64)], factor: f64) -> Vec<pulsar::Action> {
    topics
        .iter()
        .map(|(t, rate)| pulsar::Action::SetTopicTraffic {
            topic: t.clone(),
            traffic: pulsar_traffic(if *rate > 0.0 { rate * factor } else { 100.0 }),
        })
        .collect()
}

/// A skewed (Zipf) load: `total` msg/s in spread over `topics`, the topic of
/// rank `k` (ranks shuffled by `seed`) getting a share proportional to `1 / k^s`.
pub fn pulsar_zipf(topics: &[String], seed: u64, total: f64, s: f64) -> Vec<pulsar::Action> {
    if topics.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..topics.len()).collect();
    let mut rng = SimRng::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let weight = |k: usize| 1.0 / ((k + 1) as f64).powf(s);
    let h: f64 = (0..topics.len()).map(weight).sum();
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| pulsar::Action::SetTopicTraffic {
            topic: topics[i].clone(),
            traffic: pulsar_traffic((total * weight(rank) / h).round()),
        })
        .collect()
}

/// The doc's ThresholdShedder example: brokers at 40 %, 10 % and 10 % (CPU set
/// directly) on the first three of `brokers`.
pub fn pulsar_doc_loads(brokers: &[String]) -> Vec<pulsar::Action> {
    brokers
        .iter()
        .zip([40.0, 10.0, 10.0])
        .map(|(b, cpu)| pulsar::Action::SetBrokerLoad {
            broker: b.clone(),
            usage: pulsar::broker::DirectUsage {
                cpu: Some(cpu),
                ..Default::default()
            },
        })
        .collect()
}

/// `log` with [`PULSAR_NAMESPACE`] created with `bundles` bundles (its other
/// setup actions and its steps kept).
pub fn with_pulsar_bundles(mut log: Log<pulsar::Sim>, bundles: u32) -> Log<pulsar::Sim> {
    let mut found = false;
    for a in &mut log.setup {
        if let pulsar::Action::CreateNamespace {
            namespace,
            bundles: b,
        } = a
        {
            if namespace == PULSAR_NAMESPACE {
                *b = Some(bundles);
                found = true;
            }
        }
    }
    if !found {
        log.setup.insert(
            0,
            pulsar::Action::CreateNamespace {
                namespace: PULSAR_NAMESPACE.into(),
                bundles: Some(bundles),
            },
        );
    }
    log
}

/// Why [`PULSAR_NAMESPACE`] of `sc` (replayed to its cursor) does not have the
/// `asked` bundles it was created with, from the engine's split events; `None`
/// when it has them (or `sc` is not a Pulsar scenario that replays).
pub fn pulsar_bundles_note(sc: &Scenario, asked: u32) -> Option<String> {
    let Body::Pulsar(log) = &sc.body else {
        return None;
    };
    let r = super::replay(sc.seed, log, sc.cursor).ok()?;
    let now = r.state.namespaces().get(PULSAR_NAMESPACE)?.bundles.len();
    if now == asked as usize {
        return None;
    }
    let events = || r.setup.iter().chain(r.steps.iter()).flat_map(|s| s.events.iter());
    let splits = events()
        .filter(|e| matches!(e, pulsar::Event::BundleSplit { bundle, .. } if bundle.namespace.as_str() == PULSAR_NAMESPACE))
        .count();
    let reason = events().find_map(|e| match e {
        pulsar::Event::SplitCandidate { bundle, reasons, .. }
            if bundle.namespace.as_str() == PULSAR_NAMESPACE && !reasons.is_empty() =>
        {
            Some(format!(" ({bundle}: {})", reasons.join("; ")))
        }
        _ => None,
    });
    Some(if splits > 0 {
        format!(
            "{PULSAR_NAMESPACE} was created with {asked} bundles and now has {now}: its traffic crossed a split threshold, so the leader split {splits} bundle(s){}. To keep {asked}, lower the traffic or set loadBalancerAutoBundleSplitEnabled = false.",
            reason.unwrap_or_default()
        )
    } else {
        format!("{PULSAR_NAMESPACE} was created with {asked} bundles and now has {now}: the scenario's own actions changed them.")
    })
}

/// The first `broker-N` name not in `existing`.
pub fn next_broker_name(existing: &[String]) -> String {
    (1..)
        .map(|i| format!("broker-{i}"))
        .find(|n| !existing.contains(n))
        .unwrap_or_default()
}

/// The doc's figure (a): JV-A (parallelism 6) -hash-> JV-B (3), one slot sharing
/// group, 3 TaskManagers with 2 slots each; the log schedules once.
pub fn flink_figure_a() -> Log<flink::Sim> {
    Log {
        config: flink::Config::default(),
        setup: vec![
            flink::Action::DefineJob {
                job: JobSpec {
                    vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
                    edges: vec![EdgeSpec::new("JV-A", "JV-B", DistributionPattern::Hash)],
                },
            },
            flink::Action::AddTaskManagers {
                count: 3,
                slots: Some(2),
            },
        ],
        actions: vec![flink::Action::Schedule],
    }
}

/// Brokers of the large Pulsar cluster.
pub const LARGE_BROKERS: u32 = 50;
/// TaskManagers of the large Flink cluster.
pub const LARGE_TASK_MANAGERS: u32 = 97;
/// Instances of the large Kafka Streams application.
pub const LARGE_INSTANCES: u32 = 100;

/// The large-cluster presets, by name (`lbscope preset NAME`, the gallery's
/// "Large clusters"): one per system.
pub const LARGE: [(&str, System, &str); 3] = [
    (
        "pulsar-large",
        System::Pulsar,
        "50 brokers, 64 bundles, 128 topics",
    ),
    (
        "flink-large",
        System::Flink,
        "97 TaskManagers of two slots, parallelism 194 and 97",
    ),
    (
        "kstreams-large",
        System::Kstreams,
        "100 instances on three racks, 100 partitions",
    ),
];

/// A large cluster of `system`, built in one go: [`LARGE_BROKERS`] brokers
/// sharing 64 bundles of 128 topics (assigned, one round run);
/// [`LARGE_TASK_MANAGERS`] TaskManagers of two slots for JV-A (194) → JV-B (97),
/// scheduled once; [`LARGE_INSTANCES`] instances on three racks for a
/// 100-partition stateful topology with one standby.
pub fn large_scenario(system: System) -> Scenario {
    let mut sc = Scenario::empty(system, 1);
    match &mut sc.body {
        Body::Pulsar(log) => {
            let mut l = pulsar_namespace(64);
            l.config = pulsar::Config::profile(pulsar::config::Profile::Pulsar5);
            let capacity = pulsar::broker::Capacity {
                cpu_cores: PULSAR_PLAYGROUND_CORES,
                ..Default::default()
            };
            for i in 1..=LARGE_BROKERS {
                l.setup.push(pulsar::Action::AddBroker {
                    broker: format!("broker-{i}"),
                    capacity,
                });
            }
            l.setup.push(pulsar::Action::CreateTopics {
                namespace: PULSAR_NAMESPACE.into(),
                prefix: "topic".into(),
                count: 128,
                traffic: pulsar_traffic(PULSAR_DEFAULT_RATE),
            });
            l.setup.push(pulsar::Action::Assign);
            l.actions = vec![pulsar::Action::Step];
            *log = l;
        }
        Body::Flink(log) => {
            *log = Log {
                config: flink::Config::default(),
                setup: vec![
                    flink::Action::DefineJob {
                        job: JobSpec {
                            vertices: vec![
                                VertexSpec::new("JV-A", 2 * LARGE_TASK_MANAGERS),
                                VertexSpec::new("JV-B", LARGE_TASK_MANAGERS),
                            ],
                            edges: vec![EdgeSpec::new("JV-A", "JV-B", DistributionPattern::Hash)],
                        },
                    },
                    flink::Action::AddTaskManagers {
                        count: LARGE_TASK_MANAGERS,
                        slots: Some(2),
                    },
                ],
                actions: vec![flink::Action::Schedule],
            }
        }
        Body::Kstreams(log) => {
            let mut l = kstreams_counts();
            l.setup
                .retain(|a| !matches!(a, kstreams::Action::AddInstance { .. }));
            if let Some(kstreams::Action::DefineTopic { partitions, .. }) = l.setup.first_mut() {
                *partitions = LARGE_INSTANCES;
            }
            for i in 1..=LARGE_INSTANCES {
                l.setup.push(kstreams::Action::AddInstance {
                    name: format!("app-{i}"),
                    threads: Some(1),
                    rack: Some(format!("rack-{}", ["a", "b", "c"][(i as usize - 1) % 3])),
                    tags: Default::default(),
                    process_id: None,
                });
            }
            *log = l;
        }
    }
    sc
}

/// The large-cluster preset called `name`.
pub fn large(name: &str) -> Option<Scenario> {
    LARGE
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, s, _)| large_scenario(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_scenario_replays() {
        for sys in System::ALL {
            let sc = default_scenario(sys);
            assert_eq!(sc.system(), sys);
            super::super::run::event_log(&sc).unwrap();
            let link = super::super::url::to_fragment(&sc);
            assert!(link.len() < 2000, "{sys:?} default link is {} chars", link.len());
        }
    }

    #[test]
    fn large_presets_replay_with_their_counts() {
        for (name, sys, _) in LARGE {
            let sc = large(name).unwrap();
            assert_eq!(sc.system(), sys);
            let whole = super::super::run::event_log(&sc).unwrap();
            assert!(!whole.is_empty(), "{name}");
        }
        let Body::Pulsar(log) = large_scenario(System::Pulsar).body else {
            unreachable!()
        };
        let r = super::super::replay(1, &log, None).unwrap();
        let views = r.state.broker_views();
        assert_eq!(views.len(), LARGE_BROKERS as usize);
        // Natural order: broker-2 right after broker-1, broker-10 after broker-9.
        assert_eq!(
            (views[1].id.as_str(), views[9].id.as_str()),
            ("broker-2", "broker-10")
        );
        let Body::Flink(log) = large_scenario(System::Flink).body else {
            unreachable!()
        };
        let r = super::super::replay(1, &log, None).unwrap();
        assert_eq!(r.state.tasks_per_tm().len(), LARGE_TASK_MANAGERS as usize);
        let Body::Kstreams(log) = large_scenario(System::Kstreams).body else {
            unreachable!()
        };
        let r = super::super::replay(1, &log, None).unwrap();
        assert_eq!(r.state.instances().len(), LARGE_INSTANCES as usize);
        let names: Vec<String> = r.state.view().instances.iter().map(|i| i.name.clone()).collect();
        assert_eq!((names[1].as_str(), names[9].as_str()), ("app-2", "app-10"));
    }

    #[test]
    fn a_bundle_count_the_traffic_changes_is_explained() {
        // Two bundles under the first scenario's traffic split at once.
        let mut sc = default_scenario(System::Pulsar);
        if let Body::Pulsar(log) = sc.body {
            sc.body = Body::Pulsar(with_pulsar_bundles(log, 2));
        }
        let note = pulsar_bundles_note(&sc, 2).expect("the count changed");
        assert!(note.contains("created with 2 bundles and now has"), "{note}");
        assert!(note.contains("loadBalancerAutoBundleSplitEnabled"), "{note}");
        // The count it has is kept silently.
        assert_eq!(pulsar_bundles_note(&default_scenario(System::Pulsar), 4), None);
    }

    fn playground() -> pulsar::Sim {
        use crate::engine::Engine;
        let log = pulsar_playground(4);
        let mut sim = pulsar::Sim::new(log.config.clone(), 1).unwrap();
        for a in &log.setup {
            sim.apply(a).unwrap();
        }
        sim
    }

    /// The first view moves bundles at the first press: broker-1 carries every
    /// bundle at more than AvgShedder's high threshold above the idle brokers,
    /// whose first hit the setup's round counted; the first Step unloads
    /// bundles to an idle broker and places them there, without splitting.
    #[test]
    fn the_first_step_of_the_playground_moves_bundles() {
        use crate::engine::Engine;
        let mut sim = playground();
        let ring = sim.ring_view(PULSAR_NAMESPACE, false).unwrap();
        assert_eq!(ring.bundles.len(), 4);
        assert_eq!(
            ring.bundles.iter().map(|b| b.topics).sum::<u32>(),
            PULSAR_DEFAULT_TOPICS
        );
        let views = sim.broker_views();
        assert_eq!(views.len(), 3);
        let b1 = views.iter().find(|b| b.id.as_str() == "broker-1").unwrap();
        assert_eq!(b1.bundles, 4);
        let high = sim.config().load_balancer_avg_shedder_high_threshold;
        assert!(b1.load > high + 5.0, "broker-1 at {} %", b1.load);
        assert_eq!(
            sim.config().load_balancer_load_shedding_strategy,
            pulsar::config::SheddingStrategy::AvgShedder
        );
        let events = sim.apply(&pulsar::Action::Step).unwrap();
        let unloaded = events
            .iter()
            .filter(|e| matches!(e, pulsar::Event::Unloaded { .. }))
            .count();
        assert!(unloaded >= 1, "{events:#?}");
        assert!(!events
            .iter()
            .any(|e| matches!(e, pulsar::Event::BundleSplit { .. })));
        let moved = sim
            .broker_views()
            .iter()
            .filter(|b| b.id.as_str() != "broker-1")
            .map(|b| b.bundles)
            .sum::<usize>();
        assert_eq!(moved, unloaded);
        let done = events.iter().find_map(|e| match e {
            pulsar::Event::RoundDone { metrics } => Some(metrics.clone()),
            _ => None,
        });
        assert_eq!(done.map(|m| m.bundles_moved as usize), Some(unloaded));
    }

    #[test]
    fn a_hot_topic_forces_a_split_and_an_unload() {
        use crate::engine::Engine;
        let mut sim = playground();
        let hot = format!("persistent://{PULSAR_NAMESPACE}/topic-0");
        sim.apply(&pulsar_hot_topic(&hot)).unwrap();
        let (mut split, mut unload) = (None, None);
        for round in 1..=10 {
            for e in sim.apply(&pulsar::Action::Step).unwrap() {
                match e {
                    pulsar::Event::BundleSplit { .. } => split = split.or(Some(round)),
                    pulsar::Event::Unloaded { .. } => unload = unload.or(Some(round)),
                    _ => {}
                }
            }
        }
        eprintln!("split at {split:?}, unload at {unload:?}");
        for b in sim.broker_views() {
            eprintln!(
                "{} {:.1} cpu {:.1} nic {:.1} mem {:.1} avg {:.1}",
                b.id, b.load, b.cpu, b.bandwidth_out, b.memory, b.cluster_avg
            );
        }
        assert!(split.is_some() && unload.is_some());
        assert!(sim.ring_view(PULSAR_NAMESPACE, false).unwrap().bundles.len() > 4);
    }

    #[test]
    fn zipf_is_seeded_skewed_and_sums_to_the_total() {
        let topics: Vec<String> = (0..10).map(|i| format!("t{i}")).collect();
        let a = pulsar_zipf(&topics, 3, 10_000.0, 1.0);
        assert_eq!(a, pulsar_zipf(&topics, 3, 10_000.0, 1.0));
        assert_ne!(a, pulsar_zipf(&topics, 4, 10_000.0, 1.0));
        let rates: Vec<f64> = a
            .iter()
            .map(|x| match x {
                pulsar::Action::SetTopicTraffic { traffic, .. } => traffic.msg_rate_in,
                _ => panic!("unexpected {x:?}"),
            })
            .collect();
        let total: f64 = rates.iter().sum();
        assert!((total - 10_000.0).abs() < 10.0, "{total}");
        assert!(rates[0] > 2.0 * rates[1] - 1.0 && rates[0] > 5.0 * rates[9]);
        assert!(pulsar_zipf(&[], 1, 10.0, 1.0).is_empty());
    }

    #[test]
    fn ramp_doc_loads_and_names() {
        let r = pulsar_ramp(&[("a".into(), 100.0), ("b".into(), 0.0)], 2.0);
        match &r[..] {
            [pulsar::Action::SetTopicTraffic { traffic: a, .. }, pulsar::Action::SetTopicTraffic { traffic: b, .. }] =>
            {
                assert_eq!(a.msg_rate_in, 200.0);
                assert_eq!(b.msg_rate_in, 100.0);
            }
            _ => panic!("{r:?}"),
        }
        let names = vec!["broker-1".to_string(), "broker-3".to_string()];
        assert_eq!(next_broker_name(&names), "broker-2");
        assert_eq!(pulsar_doc_loads(&names).len(), 2);
        let t = pulsar_traffic(f64::NAN);
        assert_eq!(t.msg_rate_in, 0.0);
        let log = with_pulsar_bundles(pulsar_playground(4), 16);
        assert_eq!(log.setup.len(), pulsar_playground(4).setup.len());
        assert!(log.setup.contains(&pulsar::Action::CreateNamespace {
            namespace: PULSAR_NAMESPACE.into(),
            bundles: Some(16)
        }));
        assert_eq!(with_pulsar_bundles(Log::default(), 2).setup.len(), 1);
    }
}
