//! The entries: each document's worked examples, in the documents' order. The
//! scenarios reuse the golden scenario files (`tests/scenarios/`), the lessons'
//! builders and the presets; only examples neither has are built here.

use super::{at, differs, same, with_cursor, Example, Numbers, Outcome};
use crate::engine::kstreams::TaskId;
use crate::engine::pulsar::config::{Profile, SplitAlgorithm};
use crate::engine::pulsar::shed::ShedEvent;
use crate::engine::{flink, kstreams, pulsar, Engine, System};
use crate::lessons;
use crate::scenario::{Log, Scenario};

/// A golden scenario file, with its cursor before the log's first action.
fn golden(json: &str) -> Scenario {
    golden_at(json, 0)
}

/// A golden scenario file as this build writes it, with its cursor at `cursor`.
fn golden_at(json: &str, cursor: usize) -> Scenario {
    let sc = Scenario::from_json(json).expect("golden scenario files parse");
    with_cursor(Scenario::with_body(sc.seed, sc.body), cursor)
}

/// A lesson's scenario with its cursor at step `from` and its log cut after
/// step `to`'s cursor (what the entry presses is what the lesson walks through
/// between the two).
fn lesson(id: &str, from: usize, to: usize) -> Scenario {
    let l = lessons::lesson(id).expect("the gallery's lessons exist");
    let mut sc = l.scenario_at(from).expect("the lesson has that step");
    let end = l.steps[to].cursor;
    crate::each_log!(&mut sc.body, log => log.actions.truncate(end));
    sc
}

fn hex(v: u32) -> String {
    format!("0x{v:08x}")
}

fn hexes(v: &[u32]) -> String {
    v.iter().map(|&b| hex(b)).collect::<Vec<_>>().join(", ")
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

fn num(v: f64) -> String {
    format!("{v:.0}")
}

fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

fn missing() -> String {
    "(not computed)".into()
}

// ---------------------------------------------------------------- Pulsar

fn split_plan(o: &Outcome<pulsar::Sim>) -> Option<&pulsar::split::SplitPlan> {
    o.pressed().find_map(|e| match e {
        pulsar::Event::BundleSplit { plan, .. } => Some(plan),
        _ => None,
    })
}

fn split_boundaries(o: &Outcome<pulsar::Sim>) -> String {
    split_plan(o).map_or_else(missing, |p| hexes(&p.boundaries))
}

fn split_count(o: &Outcome<pulsar::Sim>) -> String {
    split_plan(o).map_or_else(missing, |p| p.boundaries.len().to_string())
}

fn sheds(o: &Outcome<pulsar::Sim>) -> Vec<&ShedEvent> {
    o.pressed()
        .filter_map(|e| match e {
            pulsar::Event::Shed(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// A namespace's boundaries after the pressed actions.
fn partitions(o: &Outcome<pulsar::Sim>, ns: &str) -> Vec<u32> {
    let Some(n) = o.after.state.namespaces().get(ns) else {
        return Vec::new();
    };
    let mut b: Vec<u32> = n.bundles.iter().map(|r| r.lower).collect();
    if let Some(last) = n.bundles.last() {
        b.push(last.upper);
    }
    b
}

fn pulsar_default_bundles() -> Scenario {
    let log = Log::<pulsar::Sim> {
        config: pulsar::Config::profile(Profile::Pulsar5),
        setup: Vec::new(),
        actions: vec![pulsar::Action::CreateNamespace {
            namespace: "my-tenant/my-namespace".into(),
            bundles: None,
        }],
    };
    at(1, log, 0)
}

fn pulsar_partitions_example() -> Scenario {
    let log = Log::<pulsar::Sim> {
        config: pulsar::Config::profile(Profile::Pulsar4),
        setup: vec![
            pulsar::Action::AddBroker {
                broker: "broker-1".into(),
                capacity: Default::default(),
            },
            pulsar::Action::CreateNamespace {
                namespace: "t/n".into(),
                bundles: Some(2),
            },
            pulsar::Action::CreateTopicWithHash {
                topic: "t/n/topic1".into(),
                hash: 0x2000_0000,
            },
            pulsar::Action::CreateTopicWithHash {
                topic: "t/n/topic2".into(),
                hash: 0x6000_0000,
            },
        ],
        actions: vec![pulsar::Action::SplitBundle {
            namespace: "t/n".into(),
            bundle: "0x00000000_0x80000000".into(),
            algorithm: Some(SplitAlgorithm::SpecifiedPositionsDivide),
            boundaries: vec![0x4000_0000],
            unload: false,
        }],
    };
    at(1, log, 0)
}

const FLOW_PLUS_ONE: &str = "Pulsar's boundary is start + (end − start) / 2 + 1: the document leaves out the + 1 and, for most positions, halves the sum as if the hex digits were decimal (0x15000000 + 0x24000000 = 0x39000000, half of it 0x1c800000, not 0x19500000)";

/// The Pulsar document's entries, section by section.
fn pulsar_examples() -> Vec<Example> {
    let mut v = pulsar_bundling_examples();
    v.extend(pulsar_split_algorithm_examples());
    v.extend(pulsar_unload_examples());
    v.extend(pulsar_shedder_examples());
    v.extend(pulsar_scalable_examples());
    v
}

/// Topic bundling and bundle splitting: a namespace's bundles, a topic's bundle, a split.
fn pulsar_bundling_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "pulsar-default-bundles",
            title: "A namespace is sharded into bundles",
            system: System::Pulsar,
            section: "Topic bundling, step 1",
            press: "Press Redo: it creates my-tenant/my-namespace without a bundle count, so defaultNumberOfNamespaceBundles decides.",
            doc: vec![same("bundles of a new namespace (Pulsar 5.0 default)", "32")],
            build: pulsar_default_bundles,
            numbers: Numbers::Pulsar(|o| {
                vec![o
                    .pressed()
                    .find_map(|e| match e {
                        pulsar::Event::NamespaceCreated { bundles, .. } => Some(bundles.len().to_string()),
                        _ => None,
                    })
                    .unwrap_or_else(missing)]
            }),
        },
        Example {
            slug: "pulsar-topic-to-bundle",
            title: "A topic's hash picks its bundle",
            system: System::Pulsar,
            section: "Topic bundling, step 2",
            press: "Press Redo: it creates my-topic and the ring marks its hash and the bundle it lands in.",
            doc: vec![
                differs(
                    "hash(\"my-topic\")",
                    "0x0000000F",
                    "the document's hash is made up for illustration; Pulsar hashes the full name persistent://public/default/my-topic with CRC-32",
                ),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-my-topic.json")),
            numbers: Numbers::Pulsar(|o| {
                o.pressed()
                    .find_map(|e| match e {
                        pulsar::Event::TopicCreated { hash, .. } => {
                            Some(vec![hex(*hash)])
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| vec![missing()])
            }),
        },
        Example {
            slug: "pulsar-split-partitions",
            title: "Splitting a bundle at a boundary",
            system: System::Pulsar,
            section: "Bundle splitting, step 3",
            press: "Press Redo: it splits 0x00000000_0x80000000 at 0x40000000.",
            doc: vec![
                differs(
                    "partitions after the split",
                    "0x0000, 0x4000, 0x8000, 0xFFFF",
                    "the document draws a 16-bit ring for brevity; Pulsar's ring is 32-bit, so each boundary has four more hex digits",
                ),
                same("bundles after the split", "3"),
            ],
            build: pulsar_partitions_example,
            numbers: Numbers::Pulsar(|o| {
                let p = partitions(o, "t/n");
                vec![hexes(&p), p.len().saturating_sub(1).to_string()]
            }),
        },
    ]
}

/// The bundle splitting algorithms, one entry per worked case.
fn pulsar_split_algorithm_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "pulsar-range-equally-divide",
            title: "range_equally_divide",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x80000000 with range_equally_divide.",
            doc: vec![same("split boundary", "0x40000000")],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc2-range-equally-divide.json")),
            numbers: Numbers::Pulsar(|o| vec![split_boundaries(o)]),
        },
        Example {
            slug: "pulsar-topic-count-equally-divide",
            title: "topic_count_equally_divide: six topics",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x80000000 with topic_count_equally_divide.",
            doc: vec![
                differs(
                    "split boundary",
                    "0x50000000",
                    "any boundary above topic3 (0x35000000) and up to topic4 (0x65000000) splits the six topics 3 / 3; Pulsar takes the midpoint of the two middle hashes",
                ),
                same("topics on each side", "3"),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc3-topic-count-equally-divide.json")),
            numbers: Numbers::Pulsar(|o| {
                let topics = o
                    .after
                    .state
                    .ring_view("t/n", false)
                    .and_then(|r| {
                        let (a, b) = (r.bundles.first()?.topics, r.bundles.get(1)?.topics);
                        Some(if a == b { a.to_string() } else { format!("{a} / {b}") })
                    })
                    .unwrap_or_else(missing);
                vec![split_boundaries(o), topics]
            }),
        },
        Example {
            slug: "pulsar-specified-positions-divide",
            title: "specified_positions_divide: two big topics",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x40000000 at the given boundary 0x33000000.",
            doc: vec![same("split boundary", "0x33000000")],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc4-specified-positions-divide.json")),
            numbers: Numbers::Pulsar(|o| vec![split_boundaries(o)]),
        },
        Example {
            slug: "pulsar-flow-or-qps-case-1",
            title: "flow_or_qps_equally_divide, case 1: the message rate decides",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x80000000 with flow_or_qps_equally_divide at 450 msg/s and 200 MB/s.",
            doc: vec![
                same("split positions", "4"),
                differs("split boundaries", "0x19500000, 31500000, 48500000, 67000000", FLOW_PLUS_ONE),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc5-flow-or-qps-case1.json")),
            numbers: Numbers::Pulsar(|o| vec![split_count(o), split_boundaries(o)]),
        },
        Example {
            slug: "pulsar-flow-or-qps-case-2",
            title: "flow_or_qps_equally_divide, case 2: the throughput decides",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x80000000 with flow_or_qps_equally_divide at 1900 msg/s and 90 MB/s.",
            doc: vec![
                same("split positions", "2"),
                differs("split boundaries", "0x31500000, 0x67000000", FLOW_PLUS_ONE),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc5-flow-or-qps-case2.json")),
            numbers: Numbers::Pulsar(|o| vec![split_count(o), split_boundaries(o)]),
        },
        Example {
            slug: "pulsar-flow-or-qps-case-3",
            title: "flow_or_qps_equally_divide, case 3: both at once",
            system: System::Pulsar,
            section: "Bundle splitting algorithms",
            press: "Press Redo: it splits 0x00000000_0x80000000 with flow_or_qps_equally_divide at 1100 msg/s and 110 MB/s.",
            doc: vec![
                same("split positions", "1"),
                differs("split boundary", "0x48500000", FLOW_PLUS_ONE),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc5-flow-or-qps-case3.json")),
            numbers: Numbers::Pulsar(|o| vec![split_count(o), split_boundaries(o)]),
        },
    ]
}

/// Manual unloading and the first shedding strategies.
fn pulsar_unload_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "pulsar-unload-to-broker",
            title: "Unload a bundle to a chosen broker",
            system: System::Pulsar,
            section: "Bundle unloading, manual",
            press: "Press Redo twice: unload my-tenant/my-namespace -b 0x00000000_0xffffffff -d broker-1, then the assignment round.",
            doc: vec![same("new owner", "broker-1")],
            build: || lesson("pulsar-manual-split-and-unload", 0, 2),
            numbers: Numbers::Pulsar(|o| {
                vec![o
                    .pressed()
                    .find_map(|e| match e {
                        pulsar::Event::Unloaded { to: Some(to), .. } => Some(to.to_string()),
                        _ => None,
                    })
                    .unwrap_or_else(missing)]
            }),
        },
        Example {
            slug: "pulsar-overload-shedder",
            title: "OverloadShedder: a broker past 85 %",
            system: System::Pulsar,
            section: "Bundle unloading strategies",
            press: "Press Step twice: the first round reports the load, the second sheds the busiest bundles.",
            doc: vec![same("overload threshold", "85%")],
            build: || lesson("pulsar-overload-shedder", 0, 2),
            numbers: Numbers::Pulsar(|o| {
                vec![sheds(o)
                    .iter()
                    .find_map(|s| match s {
                        ShedEvent::Overloaded { threshold, .. } => Some(pct(*threshold)),
                        _ => None,
                    })
                    .unwrap_or_else(missing)]
            }),
        },
        Example {
            slug: "pulsar-threshold-shedder",
            title: "ThresholdShedder: brokers at 40 %, 10 %, 10 %",
            system: System::Pulsar,
            section: "Bundle unloading strategies",
            press: "Press Redo three times: publish the load reports, run ThresholdShedder, reassign what it unloaded.",
            doc: vec![
                same("cluster average", "20%"),
                same("average + threshold", "30%"),
                same("brokers that unload", "1"),
            ],
            build: || golden(include_str!("../../tests/scenarios/pulsar-doc6-threshold-shedder.json")),
            numbers: Numbers::Pulsar(|o| {
                let s = sheds(o);
                let avg = s.iter().find_map(|e| match e {
                    ShedEvent::ThresholdAverages { cluster_average, .. } => Some(pct(*cluster_average)),
                    _ => None,
                });
                let above: Vec<(f64, f64)> = s
                    .iter()
                    .filter_map(|e| match e {
                        ShedEvent::AboveThreshold {
                            average, threshold, ..
                        } => Some((*average, *threshold)),
                        _ => None,
                    })
                    .collect();
                vec![
                    avg.unwrap_or_else(missing),
                    above.first().map_or_else(missing, |(a, t)| pct(a + t)),
                    above.len().to_string(),
                ]
            }),
        },
    ]
}

/// TransferShedder and AvgShedder.
fn pulsar_shedder_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "pulsar-transfer-shedder",
            title: "TransferShedder: the standard-deviation target",
            system: System::Pulsar,
            section: "Bundle unloading strategies",
            press: "Press Step four times: TransferShedder counts hits while the spread stays above the target, then transfers.",
            doc: vec![same("loadBalancerBrokerLoadTargetStd", "0.25")],
            build: || lesson("pulsar-transfer-shedder", 0, 4),
            numbers: Numbers::Pulsar(|o| {
                vec![sheds(o)
                    .iter()
                    .find_map(|e| match e {
                        ShedEvent::TransferStats { target_std, .. } => Some(format!("{target_std}")),
                        _ => None,
                    })
                    .unwrap_or_else(missing)]
            }),
        },
        Example {
            slug: "pulsar-avg-shedder",
            title: "AvgShedder: scores 20, 30, 52, 70, 80",
            system: System::Pulsar,
            section: "AvgShedder",
            press: "Press Step twice: the first round counts a hit on the pair 80 / 20, the second sheds 250 msg/s to the idlest broker.",
            doc: vec![
                same("score difference", "60"),
                same("hits before it sheds (difference above 40)", "2"),
                same("message rates of the pair", "1000 / 500"),
                same("moved", "250"),
                same("both brokers after", "750"),
            ],
            build: || lesson("pulsar-avg-shedder", 0, 2),
            numbers: Numbers::Pulsar(|o| {
                let s = sheds(o);
                // The pair that fired: its score gap and the consecutive hits
                // its high-threshold counter had reached.
                let fired = s.iter().find_map(|e| match e {
                    ShedEvent::AvgPair {
                        low_score,
                        high_score,
                        high_hits,
                        fired: true,
                        ..
                    } => Some((high_score - low_score, *high_hits)),
                    _ => None,
                });
                let plan = s.iter().find_map(|e| match e {
                    ShedEvent::AvgPlan {
                        from_msg_rate,
                        to_msg_rate,
                        required,
                        ..
                    } => Some((*from_msg_rate, *to_msg_rate, *required)),
                    _ => None,
                });
                vec![
                    fired.map_or_else(missing, |p| num(p.0)),
                    fired.map_or_else(missing, |p| p.1.to_string()),
                    plan.map_or_else(missing, |(f, t, _)| format!("{} / {}", num(f), num(t))),
                    plan.map_or_else(missing, |(_, _, r)| num(r)),
                    plan.map_or_else(missing, |(f, t, r)| {
                        if (f - r - (t + r)).abs() < 0.5 {
                            num(f - r)
                        } else {
                            format!("{} / {}", num(f - r), num(t + r))
                        }
                    }),
                ]
            }),
        },
    ]
}

/// Scalable topics (Pulsar 5.0).
fn pulsar_scalable_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "pulsar-scalable-topic-wave",
            title: "Scalable topic: segments split and merge with a traffic wave",
            system: System::Pulsar,
            section: "Scalable topics (5.0, PIP-483 auto split/merge)",
            press: "Press Step (or Play) through the 120 rounds: two segments split to four as the wave peaks, and merge back to two once the traffic has been zero for the merge window, one merge per cooldown.",
            doc: vec![
                same("scalableTopicSplitMsgRateInThreshold (msg/s)", "10000"),
                same("seconds between two automatic merges (scalableTopicMergeCooldownSeconds)", "300"),
            ],
            build: || golden_at(include_str!("../../tests/scenarios/pulsar-scalable-topic-wave.json"), 4),
            numbers: Numbers::Pulsar(|o| {
                use pulsar::scalable_topic::ScalableEvent;
                let evals: Vec<(u64, &pulsar::auto_scale::Decision, &pulsar::auto_scale::Evaluation)> = o
                    .pressed()
                    .filter_map(|e| match e {
                        pulsar::Event::Scalable(ScalableEvent::Evaluated {
                            at_ms,
                            decision,
                            evaluation,
                            ..
                        }) => Some((*at_ms, decision, evaluation)),
                        _ => None,
                    })
                    .collect();
                let threshold = evals.iter().find_map(|(_, d, e)| match d {
                    pulsar::auto_scale::Decision::Split { .. } => e.hottest.as_ref().map(|h| num(h.threshold)),
                    _ => None,
                });
                let merges: Vec<u64> = evals
                    .iter()
                    .filter(|(_, d, _)| matches!(d, pulsar::auto_scale::Decision::Merge { .. }))
                    .map(|(t, _, _)| *t)
                    .collect();
                vec![
                    threshold.unwrap_or_else(missing),
                    match merges.as_slice() {
                        [a, b, ..] => ((b - a) / 1000).to_string(),
                        _ => missing(),
                    },
                ]
            }),
        },
    ]
}

// ---------------------------------------------------------------- Flink

fn flink_per_tm(o: &Outcome<flink::Sim>) -> String {
    list(&o.after.state.tasks_per_tm())
}

fn flink_tm_range(o: &Outcome<flink::Sim>) -> String {
    o.after
        .state
        .metrics()
        .map_or_else(missing, |m| m.tm.range.to_string())
}

fn flink_slot_range(o: &Outcome<flink::Sim>) -> String {
    o.after
        .state
        .metrics()
        .map_or_else(missing, |m| m.slot.range.to_string())
}

fn flink_examples() -> Vec<Example> {
    let a_none = || golden(include_str!("../../tests/scenarios/flink-figure-a-none.json"));
    let a_tasks = || golden(include_str!("../../tests/scenarios/flink-figure-a-tasks.json"));
    vec![
        Example {
            slug: "flink-figure-a-b",
            title: "Figures (a) and (b): parallelism 6 and 3, the default",
            system: System::Flink,
            section: "Background",
            press: "Press Schedule: the default strategy places JV-A (6) and JV-B (3) on three TaskManagers of two slots.",
            doc: vec![same("busiest TaskManager", "4 tasks"), same("least busy TaskManager", "2 tasks")],
            build: a_none,
            numbers: Numbers::Flink(|o| {
                let t = o.after.state.tasks_per_tm();
                vec![
                    t.iter().max().map_or_else(missing, |m| format!("{m} tasks")),
                    t.iter().min().map_or_else(missing, |m| format!("{m} tasks")),
                ]
            }),
        },
        Example {
            slug: "flink-figure-c-d",
            title: "Figures (c) and (d): parallelism 1, 4, 4, 2, 3, the default",
            system: System::Flink,
            section: "Tasks-to-slots phase",
            press: "Press Schedule: the default fills slot 0 first.",
            doc: vec![same("tasks-per-slot range (max − min)", "3")],
            build: || golden(include_str!("../../tests/scenarios/flink-figure-c-none.json")),
            numbers: Numbers::Flink(|o| vec![flink_slot_range(o)]),
        },
        Example {
            slug: "flink-figure-e",
            title: "Figure (e): the same job, tasks mode",
            system: System::Flink,
            section: "Tasks-to-slots phase",
            press: "Press Schedule: JV-B and JV-C take slot i, the others go round-robin.",
            doc: vec![same("tasks-per-slot range (max − min)", "1")],
            build: || golden(include_str!("../../tests/scenarios/flink-figure-c-tasks.json")),
            numbers: Numbers::Flink(|o| vec![flink_slot_range(o)]),
        },
        Example {
            slug: "flink-figure-f-g",
            title: "Figures (f) and (g): after the first phase",
            system: System::Flink,
            section: "Slots-to-TaskManagers phase",
            press: "Press Schedule: slots 0, 1 and 2 get two tasks, the others one.",
            doc: vec![same("tasks per slot", "2, 2, 2, 1, 1, 1")],
            build: a_tasks,
            numbers: Numbers::Flink(|o| vec![list(&o.after.state.tasks_per_slot())]),
        },
        Example {
            slug: "flink-figure-h",
            title: "Figure (h): the default's second phase",
            system: System::Flink,
            section: "Slots-to-TaskManagers phase",
            press: "Press Schedule: TaskManagers offer their slots in turn and the oldest request takes each.",
            doc: vec![same("task-count difference between TaskManagers", "2")],
            build: a_none,
            numbers: Numbers::Flink(|o| vec![flink_tm_range(o)]),
        },
        Example {
            slug: "flink-figure-i",
            title: "Figure (i): tasks mode, three tasks each",
            system: System::Flink,
            section: "Slots-to-TaskManagers phase",
            press: "Press Schedule: requests sorted by task count, each to the least-loaded TaskManager.",
            doc: vec![
                same("tasks per TaskManager", "3, 3, 3"),
                same("task-count difference between TaskManagers", "0"),
            ],
            build: a_tasks,
            numbers: Numbers::Flink(|o| vec![flink_per_tm(o), flink_tm_range(o)]),
        },
        Example {
            slug: "flink-failover-max-interval",
            title: "Failover and slot.request.max-interval",
            system: System::Flink,
            section: "Usage",
            press: "Press Redo three times: lose tm-2, raise slot.request.max-interval by 50 ms, lose tm-2 again.",
            doc: vec![
                same("raise slot.request.max-interval by", "50 ms"),
                same("task-count difference after the second failover", "0"),
            ],
            build: || lesson("flink-failover-max-interval", 0, 3),
            numbers: Numbers::Flink(|o| {
                let was = o.before.state.config().slot_request_max_interval.0;
                let now = o.after.state.config().slot_request_max_interval.0;
                vec![format!("{} ms", now.saturating_sub(was)), flink_tm_range(o)]
            }),
        },
    ]
}

// ---------------------------------------------------------------- Kafka Streams

fn rebalances(events: impl Iterator<Item = kstreams::Event>) -> Option<(u32, u32)> {
    events
        .filter_map(|e| match e {
            kstreams::Event::RebalanceCompleted {
                busy_instances,
                idle_instances,
                ..
            } => Some((busy_instances, idle_instances)),
            _ => None,
        })
        .last()
}

fn kstreams_threads_example() -> Scenario {
    let setup = vec![
        kstreams::Action::DefineTopic {
            topic: "input".into(),
            partitions: 5,
            racks: Vec::new(),
            replication_factor: 1,
        },
        kstreams::Action::DefineTopology {
            subtopologies: vec![kstreams::SubtopologySpec {
                sources: vec!["input".into()],
                stores: Vec::new(),
                changelog: false,
            }],
            copartition_groups: Vec::new(),
        },
        kstreams::Action::AddInstance {
            name: "app-1".into(),
            threads: Some(1),
            rack: None,
            tags: Default::default(),
            process_id: None,
        },
    ];
    let actions = (0..4)
        .map(|_| kstreams::Action::AddThread {
            instance: "app-1".into(),
        })
        .collect();
    at(
        1,
        Log::<kstreams::Sim> {
            config: kstreams::Config::default(),
            setup,
            actions,
        },
        0,
    )
}

fn kstreams_examples() -> Vec<Example> {
    vec![
        Example {
            slug: "kstreams-five-partitions",
            title: "Five partitions, six instances",
            system: System::Kstreams,
            section: "Stream partitions and tasks",
            press: "Press Redo twice: a busy instance crashes and the idle sixth one takes over its task.",
            doc: vec![
                same("tasks (one per input partition)", "5"),
                same("instances busy / idle", "5 / 1"),
                same("after a busy instance fails, busy / idle", "5 / 0"),
            ],
            build: || {
                golden_at(
                    include_str!("../../tests/scenarios/kstreams-doc-five-partitions-six-instances.json"),
                    2,
                )
            },
            numbers: Numbers::Kstreams(|o| {
                let fmt = |p: Option<(u32, u32)>| p.map_or_else(missing, |(b, i)| format!("{b} / {i}"));
                let after = rebalances(o.pressed().cloned());
                vec![
                    o.after.state.tasks().len().to_string(),
                    fmt(rebalances(o.before_events().cloned())),
                    fmt(after),
                ]
            }),
        },
        Example {
            slug: "kstreams-threads",
            title: "As many threads as input partitions",
            system: System::Kstreams,
            section: "Threading model",
            press: "Press Redo four times: each adds a StreamThread to app-1 at runtime (Kafka 2.8+), and the five tasks spread over them.",
            doc: vec![same("threads with a task (five partitions)", "5")],
            build: kstreams_threads_example,
            numbers: Numbers::Kstreams(|o| {
                let busy = o
                    .after
                    .state
                    .instances()
                    .values()
                    .flat_map(|i| i.threads.iter())
                    .filter(|t| !t.active.is_empty())
                    .count();
                vec![busy.to_string()]
            }),
        },
        Example {
            slug: "kstreams-standby-failover",
            title: "A standby replica takes over",
            system: System::Kstreams,
            section: "Fault tolerance",
            press: "Press Redo: the instance running task 0_0 crashes; the task moves to the caught-up standby.",
            doc: vec![same("task 0_0 moves to", "the instance with its standby")],
            build: || lesson("kstreams-standby-failover", 0, 1),
            numbers: Numbers::Kstreams(|o| {
                let t = TaskId::new(0, 0);
                let standby: Vec<String> = o
                    .before
                    .state
                    .standby_owners(t)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                let now = o.after.state.active_owner(t).map(str::to_string);
                vec![match now {
                    Some(n) if standby.contains(&n) => "the instance with its standby".into(),
                    Some(n) => format!("{n}, which had no standby"),
                    None => missing(),
                }]
            }),
        },
        Example {
            slug: "kstreams-rack-aware-standbys",
            title: "Standbys on another rack",
            system: System::Kstreams,
            section: "Fault tolerance",
            press: "Press Redo: the topology is defined and rack.aware.assignment.tags places each standby away from its active's rack.",
            doc: vec![same("standbys on a different rack than their active", "all")],
            build: || lesson("kstreams-rack-aware-standbys", 0, 1),
            numbers: Numbers::Kstreams(|o| {
                let s = &o.after.state;
                let rack = |n: &str| s.instance(n).and_then(|i| i.tags.get("rack").cloned().or(i.rack.clone()));
                let (mut apart, mut total) = (0, 0);
                for t in s.tasks() {
                    let Some(a) = s.active_owner(t.id) else { continue };
                    for sb in s.standby_owners(t.id) {
                        total += 1;
                        if rack(sb) != rack(a) {
                            apart += 1;
                        }
                    }
                }
                vec![if total > 0 && apart == total {
                    "all".into()
                } else {
                    format!("{apart} of {total}")
                }]
            }),
        },
    ]
}

/// Every entry.
pub(super) fn examples() -> Vec<Example> {
    let mut v = pulsar_examples();
    v.extend(flink_examples());
    v.extend(kstreams_examples());
    v
}
