//! The Kafka Streams lessons (seed `003`: architecture).

use super::text::{and_list, num};
use super::{
    setting_from, setting_lit, step, About, Concept, Controls as C, Ctx, Lesson, Narrator, RealSystem, Said,
    Step, SubjectKind as F,
};
use crate::engine::kstreams::{Action as A, Config, Event as E, Reason, Role, Sim, SubtopologySpec, TaskId};
use crate::engine::Engine;
use crate::scenario::{replay, Log};
use std::collections::BTreeMap;

type KCtx = Ctx<Sim>;
const FREE: &[C] = &[C::All];
const SEED: u64 = 3;

fn n(f: fn(&KCtx) -> Said) -> Narrator<Sim> {
    f
}

fn topic(name: &str, partitions: u32, racks: &[&str]) -> A {
    A::DefineTopic {
        topic: name.into(),
        partitions,
        racks: racks.iter().map(|r| r.to_string()).collect(),
        replication_factor: 1,
    }
}

fn topology(stores: &[&str]) -> A {
    A::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: vec!["input".into()],
            stores: stores.iter().map(|s| s.to_string()).collect(),
            changelog: true,
        }],
        copartition_groups: vec![],
    }
}

fn instance(name: &str, threads: u32, rack: Option<&str>) -> A {
    A::AddInstance {
        name: name.into(),
        threads: Some(threads),
        rack: rack.map(str::to_string),
        tags: BTreeMap::new(),
        process_id: None,
    }
}

/// An instance that sets `client.rack` and the client tag `rack` to the same value.
fn racked(name: &str, threads: u32, rack: &str) -> A {
    A::AddInstance {
        name: name.into(),
        threads: Some(threads),
        rack: Some(rack.to_string()),
        tags: BTreeMap::from([("rack".to_string(), rack.to_string())]),
        process_id: None,
    }
}

fn body(config: Config, setup: Vec<A>, actions: Vec<A>) -> Log<Sim> {
    Log {
        config,
        setup,
        actions,
    }
}

/// The active owner of task 0_0 after replaying `setup` and `actions` (lessons
/// pick their victim from the engine, since process ids come from the seed).
fn owner_of_0_0(config: &Config, setup: &[A], actions: &[A]) -> String {
    let log = Log {
        config: config.clone(),
        setup: setup.to_vec(),
        actions: actions.to_vec(),
    };
    replay::<Sim>(SEED, &log, None)
        .ok()
        .and_then(|r| r.state.active_owner(TaskId::new(0, 0)).map(str::to_string))
        .unwrap_or_default()
}

fn real(keys: &[&str], lits: &[(&str, &str)], commands: &[&str], classes: &[&str]) -> RealSystem {
    let mut settings: Vec<_> = keys.iter().map(|k| setting_from::<Config>(k)).collect();
    settings.extend(lits.iter().map(|(k, d)| setting_lit(k, d)));
    RealSystem {
        settings,
        commands: commands.iter().map(|s| s.to_string()).collect(),
        classes: classes
            .iter()
            .map(|c| format!("org.apache.kafka.streams.processor.internals.{c}"))
            .collect(),
    }
}

fn lesson(
    id: &'static str,
    concept: Concept,
    title: &'static str,
    idea: &'static str,
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
        SEED,
        b,
        steps,
    )
}

/// `app-1 runs 0_0 and 0_3`.
fn actives(c: &KCtx) -> String {
    let v: Vec<String> = c
        .state
        .instances()
        .values()
        .filter(|i| i.is_member())
        .map(|i| {
            let t: Vec<String> = i.active_tasks().iter().map(|t| t.to_string()).collect();
            if t.is_empty() {
                format!("{} runs nothing", i.name)
            } else {
                format!("{} runs {}", i.name, and_list(&t))
            }
        })
        .collect();
    and_list(&v)
}

fn threads_line(c: &KCtx, name: &str) -> String {
    let Some(i) = c.state.instance(name) else {
        return String::new();
    };
    let v: Vec<String> = i
        .threads
        .iter()
        .map(|t| {
            let ts: Vec<String> = t.active.iter().map(|x| x.to_string()).collect();
            format!(
                "{} has {}",
                t.name(),
                if ts.is_empty() {
                    "nothing".into()
                } else {
                    and_list(&ts)
                }
            )
        })
        .collect();
    and_list(&v)
}

fn assigned(c: &KCtx, role: Role) -> Vec<(TaskId, String, Reason, u64, u64)> {
    c.pick_all(|e| match e {
        E::TaskAssigned {
            task,
            instance,
            role: r,
            reason,
            restore_records,
            restore_ms,
            ..
        } if *r == role => Some((*task, instance.clone(), *reason, *restore_records, *restore_ms)),
        _ => None,
    })
}

pub(super) fn lessons() -> Vec<Lesson> {
    vec![
        partitions_to_tasks(),
        threads(),
        state_restore(),
        standbys(),
        rack_standbys(),
        rack_actives(),
    ]
}

fn partitions_to_tasks() -> Lesson {
    let config = Config::default();
    let mut setup = vec![topic("input", 5, &[])];
    for i in 1..=6 {
        setup.push(instance(&format!("app-{i}"), 1, None));
    }
    let first = vec![topology(&["counts"])];
    let victim = owner_of_0_0(&config, &setup, &first);
    let mut actions = first;
    actions.push(A::CrashInstance { name: victim.clone() });
    lesson(
        "kstreams-partitions-to-tasks",
        Concept::KstreamsPartitionsToTasks,
        "Partitions → tasks: 5 partitions, 6 instances",
        "A task per input partition is the unit of parallelism: a sixth instance for five partitions idles until a busy one fails.",
        body(config, setup, actions),
        vec![
            step("Six instances, no topology", 0, &[C::Topology], n(|c| {
                Said::new(format!(
                    "Topic input has {} partitions and {} application instances are running with one thread each. Start the processor topology (the Topology section below) and see how the work is split.",
                    c.state.topics()["input"].partitions,
                    c.state.instances().len()
                ))
            }))
            .ask("Start the topology (one stateful sub-topology reading input)"),
            step("One task per partition", 1, &[C::Members], n(|c| {
                let idle: Vec<String> = c.pick_all(|e| match e {
                    E::InstanceIdle { instance, .. } => Some(instance.clone()),
                    _ => None,
                });
                let mut s = Said::new(format!(
                    "Kafka Streams created {} tasks, one per partition, and the assignor spread them: {}. {} idles: there is no sixth partition to give it.",
                    c.state.tasks().len(),
                    actives(c),
                    and_list(&idle)
                ));
                for i in idle {
                    s = s.focus(F::Instance, i);
                }
                s
            }))
            .ask(format!("Crash {victim}, which runs task 0_0")),
            step("After the crash: a balanced reassignment", 2, &[C::Members], n(|c| {
                let lost = c.pick(|e| match e {
                    E::InstanceCrashed { instance, active_lost, .. } => Some((instance.clone(), active_lost.iter().map(|t| t.to_string()).collect::<Vec<_>>())),
                    _ => None,
                }).unwrap_or_default();
                let was_idle: Vec<String> = c.steps.first().map(|ev| ev.iter().filter_map(|e| match e {
                    E::InstanceIdle { instance, .. } => Some(instance.clone()),
                    _ => None,
                }).collect()).unwrap_or_default();
                let all = assigned(c, Role::Active);
                let moved: Vec<String> = all.iter().filter(|x| x.2 != Reason::Sticky).map(|(t, i, r, _, _)| format!("{t} to {i} ({})", r.words())).collect();
                let lag = c.state.config().acceptable_recovery_lag;
                let idle_now: Vec<String> = was_idle.first().map(|i| {
                    c.state.instance(i).map(|x| x.active_tasks().iter().map(|t| t.to_string()).collect()).unwrap_or_default()
                }).unwrap_or_default();
                let took_lost = idle_now.iter().any(|t| lost.1.contains(t));
                let (busy, idle) = c.pick(|e| match e {
                    E::RebalanceCompleted { busy_instances, idle_instances, .. } => Some((*busy_instances, *idle_instances)),
                    _ => None,
                }).unwrap_or_default();
                let mut s = Said::new(format!(
                    "{} crashed with {}. No records were produced, so every instance is within acceptable.recovery.lag = {} records of every task: the high-availability assignor counts them all as caught up and keeps its balanced round-robin assignment, so {} of {} tasks moved: {}. {} was idle and now runs {}{}; {busy} instances are busy and {idle} idle. An idle instance takes over exactly the crashed instance's task only when it alone holds a caught-up copy of that task's state (a standby within the lag, see the standby lesson) while the others lag behind.",
                    lost.0,
                    and_list(&lost.1),
                    num(lag as f64),
                    moved.len(),
                    all.len(),
                    and_list(&moved),
                    and_list(&was_idle),
                    and_list(&idle_now),
                    if took_lost { ", the crashed one's task" } else { ", not the crashed one's task" },
                ));
                for i in was_idle {
                    s = s.focus(F::Instance, i);
                }
                s
            })),
            step("Play freely", 2, FREE, n(|c| {
                Said::new(format!(
                    "{}. Add instances or partitions: the parallelism never exceeds the {} tasks.",
                    actives(c),
                    c.state.tasks().len()
                ))
            })),
        ],
        real(
            &["application.id", "num.stream.threads", "task.assignor.class"],
            &[],
            &[],
            &["StreamsPartitionAssignor", "PartitionGrouper", "assignment.HighAvailabilityTaskAssignor"],
        ),
    )
}

fn threads() -> Lesson {
    let setup = vec![
        topic("input", 4, &[]),
        instance("a", 1, None),
        topology(&["store"]),
    ];
    let actions = vec![
        A::AddThread { instance: "a".into() },
        instance("b", 1, None),
        A::AddThread { instance: "b".into() },
        A::RemoveThread {
            instance: "b".into(),
            thread: None,
        },
    ];
    lesson(
        "kstreams-threads",
        Concept::KstreamsThreads,
        "Threads, and scaling them at runtime",
        "Each stream thread runs its own tasks with no shared state; threads can be added or removed at runtime and the tasks are redistributed.",
        body(Config::default(), setup, actions),
        vec![
            step("One instance, one thread", 0, &[C::Threads], n(|c| {
                Said::new(format!(
                    "Instance a runs {} thread(s) for the {} tasks of input: {}. Since Kafka 2.8 a thread can be added without restarting the client.",
                    c.state.instance("a").map_or(0, |i| i.threads.len()),
                    c.state.tasks().len(),
                    threads_line(c, "a")
                ))
                .focus(F::Instance, "a")
            }))
            .ask("Add a stream thread to a"),
            step("A second thread", 1, &[C::Threads, C::Members], n(|c| {
                Said::new(format!(
                    "Now {}. The first thread kept tasks it already had, and the threads share nothing, so they need no coordination.",
                    threads_line(c, "a")
                ))
                .focus(F::Instance, "a")
            }))
            .ask("Start a second instance b with one thread"),
            step("Scaling out is the same", 2, &[C::Threads, C::Members], n(|c| {
                Said::new(format!(
                    "Starting an instance is scaling too: {}. Inside a, {}.",
                    actives(c),
                    threads_line(c, "a")
                ))
            }))
            .ask("Add a thread to b"),
            step("Threads count, not instances", 3, &[C::Threads], n(|c| {
                let threads: usize = c.state.instances().values().map(|i| i.threads.len()).sum();
                Said::new(format!(
                    "The assignor balances by threads: {}, and inside b {}. With {threads} threads for {} tasks, one more thread would only idle.",
                    actives(c),
                    threads_line(c, "b"),
                    c.state.tasks().len()
                ))
                .focus(F::Instance, "b")
            }))
            .ask("Remove a thread from b"),
            step("Removing a thread", 4, &[C::Threads], n(|c| {
                let gone = c.pick(|e| match e {
                    E::ThreadRemoved { thread, threads, .. } => Some((*thread, *threads)),
                    _ => None,
                }).unwrap_or_default();
                Said::new(format!(
                    "removeStreamThread stopped the oldest thread, StreamThread-{}, so b has {} thread left, and the tasks were rebalanced: {}. Inside b, {}.",
                    gone.0, gone.1, actives(c), threads_line(c, "b")
                ))
            })),
            step("Play freely", 4, FREE, n(|c| {
                let threads: usize = c.state.instances().values().map(|i| i.threads.len()).sum();
                Said::new(format!(
                    "{threads} threads share {} tasks now. More threads than tasks leave threads idle.",
                    c.state.tasks().len()
                ))
            })),
        ],
        real(
            &["num.stream.threads"],
            &[],
            &["KafkaStreams#addStreamThread()", "KafkaStreams#removeStreamThread()"],
            &["StreamThread", "assignment.AssignorConfiguration"],
        ),
    )
}

fn state_restore() -> Lesson {
    let config = Config::default();
    let setup = vec![
        topic("input", 2, &[]),
        instance("a", 1, None),
        instance("b", 1, None),
        topology(&["counts"]),
    ];
    let produce = vec![A::Produce {
        topic: "input".into(),
        key: None,
        partition: None,
        records: 100_000,
    }];
    let victim = owner_of_0_0(&config, &setup, &produce);
    let mut actions = produce;
    actions.push(A::CrashInstance { name: victim.clone() });
    actions.push(A::AdvanceTime { ms: 10_000 });
    lesson(
        "kstreams-state-restore",
        Concept::KstreamsStateRestore,
        "State stores, changelogs and restore cost",
        "Each task's local store is backed by a compacted changelog partition; a task moved to another instance must replay it before processing again.",
        body(config, setup, actions),
        vec![
            step("A store per task", 0, &[C::Produce], n(|c| {
                let cl = c.events().find_map(|e| match e {
                    E::TopologyDefined { changelogs, stateful_tasks, .. } => Some((changelogs.clone(), *stateful_tasks)),
                    _ => None,
                }).unwrap_or_default();
                Said::new(format!(
                    "Each of the {} stateful tasks has its own store counts, and every update is also written to its own partition of changelog topic {}. {}.",
                    cl.1,
                    and_list(&cl.0),
                    actives(c)
                ))
            }))
            .ask("Produce 100,000 records to input"),
            step("The changelog grows", 1, &[C::Produce, C::Members], n(|c| {
                let offs: Vec<String> = c.state.tasks().iter().map(|t| format!("{} at {}", t.id, c.state.end_offset(t.id))).collect();
                Said::new(format!(
                    "lbscope writes one changelog record per input record, so the changelog partitions now end at {}. The running actives are up to date; nobody else has a copy.",
                    and_list(&offs)
                ))
            }))
            .ask(format!("Crash {victim}, which runs task 0_0")),
            step("Restore before processing", 2, &[C::Time], n(|c| {
                let a = assigned(c, Role::Active);
                let Some((t, i, _, recs, ms)) = a.into_iter().find(|x| x.0 == TaskId::new(0, 0)) else {
                    return Said::new("Task 0_0 was not reassigned.");
                };
                Said::new(format!(
                    "Task {t} moved to {i}, which has no copy of its state, so it must replay {recs} records from the changelog before processing. At lbscope.restore.records.per.second = {} that takes {} ms: this restore time is the main cost of a task (re)initialisation.",
                    c.state.config().restore_records_per_second,
                    ms
                ))
                .focus(F::Instance, i)
                .focus(F::Task, t.to_string())
            }))
            .ask("Let 10 seconds pass"),
            step("Restored", 3, &[C::Time], n(|c| {
                let r = c.pick(|e| match e {
                    E::TaskRestored { task, instance, records, restore_ms } => Some((task.to_string(), instance.clone(), *records, *restore_ms)),
                    _ => None,
                });
                match r {
                    Some((t, i, recs, ms)) => Said::new(format!(
                        "{i} finished replaying {recs} records after {ms} ms and task {t} processes again. Standby replicas exist to avoid exactly this wait."
                    )),
                    None => Said::new("The restore has not finished yet. Let more time pass."),
                }
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "{} records were restored so far. Produce more and crash instances to see restore times grow with the changelog.",
                    c.state.metrics().records_restored
                ))
            })),
        ],
        real(
            &["lbscope.restore.records.per.second"],
            &[("state.cleanup.delay.ms", "600000")],
            &[],
            &["ProcessorStateManager", "StoreChangelogReader"],
        ),
    )
}

fn standbys() -> Lesson {
    let config = Config {
        num_standby_replicas: 1,
        ..Config::default()
    };
    let setup = vec![
        topic("input", 3, &[]),
        instance("a", 1, None),
        instance("b", 1, None),
        instance("c", 1, None),
        topology(&["counts"]),
        A::Produce {
            topic: "input".into(),
            key: None,
            partition: None,
            records: 300_000,
        },
        A::AdvanceTime { ms: 60_000 },
    ];
    let victim = owner_of_0_0(&config, &setup, &[]);
    let ask = format!("Crash {victim}, which runs task 0_0");
    lesson(
        "kstreams-standby-failover",
        Concept::KstreamsStandbys,
        "Standby replicas and caught-up failover",
        "A standby keeps a full copy of a task's state on another instance, so a failover can go to a caught-up copy with nothing to restore.",
        body(config, setup, vec![A::CrashInstance { name: victim }]),
        vec![
            step("One standby per task", 0, &[C::Members], n(|c| {
                let t = TaskId::new(0, 0);
                let act = c.state.active_owner(t).unwrap_or_default().to_string();
                let sb: Vec<String> = c.state.standby_owners(t).iter().map(|s| s.to_string()).collect();
                let lag = sb.first().and_then(|s| c.state.lag(s, t)).unwrap_or_default();
                let mut s = Said::new(format!(
                    "With num.standby.replicas = {}, task 0_0 runs on {act} and has a standby on {}, which keeps up from the changelog (lag {lag} of {} records). Crash {act}.",
                    c.state.config().num_standby_replicas,
                    and_list(&sb),
                    c.state.end_offset(t)
                ))
                .focus(F::Instance, act)
                .focus(F::Task, "0_0");
                for x in sb {
                    s = s.focus(F::Instance, x);
                }
                s
            }))
            .ask(ask),
            step("Failover to the caught-up copy", 1, &[C::Members], n(|c| {
                let a = assigned(c, Role::Active);
                let Some((t, i, reason, recs, ms)) = a.into_iter().find(|x| x.0 == TaskId::new(0, 0)) else {
                    return Said::new("Task 0_0 was not reassigned.");
                };
                Said::new(format!(
                    "Task {t} went to {i} ({}), with {recs} records to restore and {ms} ms of downtime for restoring. Since 2.6 Kafka Streams only gives a task to a caught-up instance when one exists, within acceptable.recovery.lag = {} records.",
                    reason.words(),
                    num(c.state.config().acceptable_recovery_lag as f64)
                ))
                .focus(F::Instance, i)
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "{}. Restart the crashed instance, or set num.standby.replicas to 0 and compare the restore.",
                    actives(c)
                ))
            })),
        ],
        real(
            &["num.standby.replicas", "acceptable.recovery.lag", "max.warmup.replicas", "probing.rebalance.interval.ms"],
            &[],
            &[],
            &["assignment.HighAvailabilityTaskAssignor", "assignment.DefaultStandbyTaskAssignor", "StandbyTask"],
        ),
    )
}

fn rack_standbys() -> Lesson {
    let config = Config {
        num_standby_replicas: 1,
        rack_aware_assignment_tags: vec!["rack".into()],
        ..Config::default()
    };
    let setup = vec![
        topic("input", 6, &[]),
        racked("a1", 1, "r1"),
        racked("a2", 1, "r1"),
        racked("b1", 1, "r2"),
        racked("b2", 1, "r2"),
    ];
    lesson(
        "kstreams-rack-aware-standbys",
        Concept::KstreamsRackAwareStandbys,
        "Rack-aware standbys",
        "With a rack client tag listed in rack.aware.assignment.tags, standbys go to a different rack than their active, so losing a rack still leaves a caught-up copy. client.rack alone does not do this in the default assignor.",
        body(config, setup, vec![topology(&["counts"])]),
        vec![
            step("Two racks", 0, &[C::Topology], n(|c| {
                let v: Vec<String> = c
                    .state
                    .instances()
                    .values()
                    .map(|i| format!("{} on {}", i.name, i.rack.clone().unwrap_or_default()))
                    .collect();
                Said::new(format!(
                    "Four instances set client.rack and the client tag rack to the same value: {}. rack.aware.assignment.tags = [{}]. The high-availability assignor spreads standbys only over these tags: it passes no rack information to its standby assignor, so client.rack alone would leave standbys to the least-loaded instance. Start the stateful topology with num.standby.replicas = {}.",
                    and_list(&v),
                    c.state.config().rack_aware_assignment_tags.join(", "),
                    c.state.config().num_standby_replicas
                ))
            }))
            .ask("Start the topology"),
            step("Standbys on the other rack", 1, &[C::Members], n(|c| {
                let rack = |n: &str| c.state.instance(n).and_then(|i| i.rack.clone()).unwrap_or_default();
                let mut other = 0;
                let pairs: Vec<String> = c
                    .state
                    .tasks()
                    .iter()
                    .map(|t| {
                        let a = c.state.active_owner(t.id).unwrap_or_default().to_string();
                        let s = c.state.standby_owners(t.id).first().map(|x| x.to_string()).unwrap_or_default();
                        if rack(&a) != rack(&s) {
                            other += 1;
                        }
                        format!("{} {}/{}", t.id, a, s)
                    })
                    .collect();
                let tagged = c.pick_all(|e| match e {
                    E::TaskAssigned { role: Role::Standby, reason: Reason::TagDiverse, .. } => Some(()),
                    _ => None,
                }).len();
                Said::new(format!(
                    "Active/standby per task: {}. {other} of {} standbys sit on a different rack than their active ({tagged} placed by the rack tag, by ClientTagAwareStandbyTaskAssignor).",
                    and_list(&pairs),
                    c.state.tasks().len()
                ))
            })),
            step("Play freely", 1, FREE, n(|_| {
                Said::new("Crash both instances of one rack: every task still has a copy on the other rack. Set rack.aware.assignment.tags to [] and rebalance to see client.rack alone leave standbys to the least-loaded instance.")
            })),
        ],
        real(
            &["num.standby.replicas", "rack.aware.assignment.tags"],
            &[("client.rack", "null"), ("client.tag.rack", "(unset)")],
            &[],
            &["assignment.ClientTagAwareStandbyTaskAssignor", "assignment.StandbyTaskAssignorFactory"],
        ),
    )
}

fn cross_rack(c: &KCtx) -> (usize, usize) {
    let topic = &c.state.topics()["input"];
    let mut cross = 0;
    for p in 0..topic.partitions {
        let owner = c.state.active_owner(TaskId::new(0, p)).unwrap_or_default();
        let rack = c
            .state
            .instance(owner)
            .and_then(|i| i.rack.clone())
            .unwrap_or_default();
        if !topic.replica_racks(p).contains(&rack) {
            cross += 1;
        }
    }
    (cross, topic.partitions as usize)
}

fn rack_actives() -> Lesson {
    let setup = vec![
        topic("input", 8, &["r0", "r1"]),
        instance("a", 1, Some("r0")),
        instance("b", 1, Some("r1")),
        instance("c", 1, Some("r0")),
        instance("d", 1, Some("r1")),
        topology(&["agg"]),
    ];
    let actions = vec![
        A::set_config("rack.aware.assignment.strategy", serde_json::json!("min_traffic"))
            .expect("a Kafka Streams key and value"),
        A::Rebalance,
    ];
    lesson(
        "kstreams-rack-aware-actives",
        Concept::KstreamsRackAwareActives,
        "Rack-aware active tasks",
        "With broker.rack and client.rack known, rack.aware.assignment.strategy moves tasks next to their partitions' replicas to cut cross-rack traffic.",
        body(Config::default(), setup, actions),
        vec![
            step("Balanced, but across racks", 0, &[C::Config], n(|c| {
                let (x, n) = cross_rack(c);
                Said::new(format!(
                    "The partitions of input have replicas on racks r0 and r1, and the instances set client.rack. With rack.aware.assignment.strategy = {:?} the balanced assignment reads {x} of {n} partitions from another rack.",
                    c.state.config().rack_aware_assignment_strategy
                ))
            }))
            .ask("Set rack.aware.assignment.strategy to min_traffic"),
            step("Strategy set", 1, &[C::Config, C::Step], n(|c| {
                Said::new(format!(
                    "The strategy is now {:?}; it applies at the next rebalance. Force one.",
                    c.state.config().rack_aware_assignment_strategy
                ))
            }))
            .ask("Rebalance"),
            step("Fewer cross-rack reads", 2, &[C::Config], n(|c| {
                let (x, n) = cross_rack(c);
                let opt = c.pick(|e| match e {
                    E::RackAwareOptimized { cost_before, cost_after, moved, traffic_cost, .. } => Some((*cost_before, *cost_after, *moved, *traffic_cost)),
                    _ => None,
                });
                let (b, a, m, tc) = opt.unwrap_or_default();
                Said::new(format!(
                    "The optimizer solved a min-cost flow with traffic cost {tc}: cost {b} before, {a} after, moving {m} tasks while every instance keeps its task count. Now {x} of {n} partitions are read across racks: {}.",
                    actives(c)
                ))
            })),
            step("Play freely", 2, FREE, n(|c| {
                Said::new(format!(
                    "Try balance_subtopology, or remove client.rack from an instance: the optimizer needs rack information on every member. The current strategy is {:?}.",
                    c.state.config().rack_aware_assignment_strategy
                ))
            })),
        ],
        real(
            &[
                "rack.aware.assignment.strategy",
                "rack.aware.assignment.traffic_cost",
                "rack.aware.assignment.non_overlap_cost",
            ],
            &[("client.rack", "null"), ("broker.rack", "null")],
            &[],
            &["assignment.RackAwareTaskAssignor"],
        ),
    )
}
