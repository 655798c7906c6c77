//! The architecture doc's claims, as native tests.

use lbscope::engine::kstreams::{Action, Config, Event, Reason, Role, Sim, SubtopologySpec, TaskId};
use lbscope::engine::{Engine, Narrate};
use std::collections::BTreeMap;

fn sim(cfg: Config) -> Sim {
    Sim::new(cfg, 42).unwrap()
}

fn ok(s: &mut Sim, a: Action) -> Vec<Event> {
    match s.apply(&a) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

fn topic(name: &str, partitions: u32) -> Action {
    Action::DefineTopic {
        topic: name.into(),
        partitions,
        racks: vec![],
        replication_factor: 1,
    }
}

fn topology(sources: &[&str], stores: &[&str]) -> Action {
    Action::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: sources.iter().map(|s| s.to_string()).collect(),
            stores: stores.iter().map(|s| s.to_string()).collect(),
            changelog: true,
        }],
        copartition_groups: vec![],
    }
}

fn add(name: &str, threads: u32) -> Action {
    Action::AddInstance {
        name: name.into(),
        threads: Some(threads),
        rack: None,
        tags: BTreeMap::new(),
        process_id: None,
    }
}

fn add_tagged(name: &str, zone: &str) -> Action {
    Action::AddInstance {
        name: name.into(),
        threads: Some(1),
        rack: None,
        tags: [("zone".to_string(), zone.to_string())].into_iter().collect(),
        process_id: None,
    }
}

fn busy(s: &Sim) -> Vec<String> {
    s.instances()
        .values()
        .filter(|i| !i.active_tasks().is_empty())
        .map(|i| i.name.clone())
        .collect()
}

fn assert_every_task_once(s: &Sim) {
    for t in s.tasks() {
        let owners: Vec<_> = s
            .instances()
            .values()
            .filter(|i| i.active_tasks().contains(&t.id))
            .collect();
        assert_eq!(
            owners.len(),
            1,
            "task {} has {} active owners",
            t.id,
            owners.len()
        );
    }
}

#[test]
fn five_partitions_keep_at_most_five_instances_busy_and_the_sixth_takes_over() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 5));
    for i in 1..=6 {
        ok(&mut s, add(&format!("app-{i}"), 1));
    }
    let ev = ok(&mut s, topology(&["input"], &[]));
    assert_eq!(s.tasks().len(), 5, "5 partitions -> 5 tasks");
    assert_every_task_once(&s);
    let b = busy(&s);
    assert_eq!(b.len(), 5, "at most 5 instances run tasks: {b:?}");
    let idle: Vec<String> = s.instances().keys().filter(|n| !b.contains(n)).cloned().collect();
    assert_eq!(idle.len(), 1);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::InstanceIdle { instance, .. } if *instance == idle[0])));
    // A busy instance dies: the idle one takes over its work.
    let victim = b[0].clone();
    let ev = ok(&mut s, Action::CrashInstance { name: victim.clone() });
    assert_every_task_once(&s);
    assert!(busy(&s).contains(&idle[0]), "the idle instance took over");
    assert!(!busy(&s).contains(&victim));
    assert_eq!(busy(&s).len(), 5);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RebalanceCompleted {
            busy_instances: 5,
            idle_instances: 0,
            ..
        }
    )));
}

#[test]
fn more_threads_than_tasks_leave_threads_idle() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 5));
    ok(&mut s, add("a", 4));
    ok(&mut s, add("b", 4));
    ok(&mut s, topology(&["input"], &["store"]));
    let busy_threads: usize = s
        .instances()
        .values()
        .flat_map(|i| i.threads.iter())
        .filter(|t| !t.active.is_empty())
        .count();
    assert_eq!(busy_threads, 5, "5 tasks keep at most 5 of 8 threads busy");
}

#[test]
fn adding_a_thread_redistributes() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 4));
    ok(&mut s, add("a", 1));
    ok(&mut s, topology(&["input"], &["store"]));
    assert_eq!(s.instance("a").unwrap().threads[0].active.len(), 4);
    let ev = ok(&mut s, Action::AddThread { instance: "a".into() });
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ThreadAdded {
            thread: 2,
            threads: 2,
            ..
        }
    )));
    let a = s.instance("a").unwrap();
    assert_eq!(a.threads.len(), 2);
    assert_eq!(a.threads[0].active.len(), 2);
    assert_eq!(a.threads[1].active.len(), 2);
    // Thread-level stickiness: StreamThread-1 keeps tasks it had.
    assert!(a.threads[0].active.contains(&TaskId::new(0, 0)));

    // Across instances: a second instance with one thread, then a thread more on it.
    ok(&mut s, add("b", 1));
    let per = |s: &Sim, n: &str| s.instance(n).unwrap().active_tasks().len();
    assert_eq!(per(&s, "a") + per(&s, "b"), 4);
    ok(&mut s, Action::AddThread { instance: "b".into() });
    assert_eq!((per(&s, "a"), per(&s, "b")), (2, 2));
    ok(
        &mut s,
        Action::RemoveThread {
            instance: "b".into(),
            thread: None,
        },
    );
    assert_every_task_once(&s);
    let b = s.instance("b").unwrap();
    assert_eq!(b.threads.len(), 1);
    assert_eq!(
        b.threads[0].index, 2,
        "removeStreamThread removes the oldest thread"
    );
}

#[test]
fn a_standby_lands_on_another_instance() {
    let cfg = Config {
        num_standby_replicas: 1,
        ..Config::default()
    };
    let mut s = sim(cfg);
    ok(&mut s, topic("input", 6));
    for n in ["a", "b", "c"] {
        ok(&mut s, add(n, 1));
    }
    ok(&mut s, topology(&["input"], &["counts"]));
    for t in s.tasks() {
        let active = s.active_owner(t.id).unwrap();
        let standbys = s.standby_owners(t.id);
        assert_eq!(standbys.len(), 1, "task {}", t.id);
        assert_ne!(
            standbys[0], active,
            "standby of {} on its active's instance",
            t.id
        );
    }
}

#[test]
fn with_tags_a_standby_lands_in_another_zone() {
    let cfg = Config {
        num_standby_replicas: 1,
        rack_aware_assignment_tags: vec!["zone".into()],
        ..Config::default()
    };
    let mut s = sim(cfg);
    ok(&mut s, topic("input", 8));
    for (n, z) in [("a1", "a"), ("a2", "a"), ("b1", "b"), ("b2", "b")] {
        ok(&mut s, add_tagged(n, z));
    }
    let ev = ok(&mut s, topology(&["input"], &["counts"]));
    let zone = |s: &Sim, n: &str| s.instance(n).unwrap().tags["zone"].clone();
    for t in s.tasks() {
        let active = s.active_owner(t.id).unwrap();
        let standbys = s.standby_owners(t.id);
        assert_eq!(standbys.len(), 1);
        assert_ne!(
            zone(&s, standbys[0]),
            zone(&s, active),
            "task {} standby in the active's zone",
            t.id
        );
    }
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::TaskAssigned {
            role: Role::Standby,
            reason: Reason::TagDiverse,
            ..
        }
    )));
}

#[test]
fn with_client_rack_a_standby_lands_on_another_rack() {
    let cfg = Config {
        num_standby_replicas: 1,
        ..Config::default()
    };
    let mut s = sim(cfg);
    ok(&mut s, topic("input", 6));
    for (n, r) in [("a1", "r1"), ("a2", "r1"), ("b1", "r2"), ("b2", "r2")] {
        ok(
            &mut s,
            Action::AddInstance {
                name: n.into(),
                threads: Some(1),
                rack: Some(r.into()),
                tags: BTreeMap::new(),
                process_id: None,
            },
        );
    }
    ok(&mut s, topology(&["input"], &["counts"]));
    let rack = |s: &Sim, n: &str| s.instance(n).unwrap().rack.clone();
    for t in s.tasks() {
        let active = s.active_owner(t.id).unwrap();
        let sb = s.standby_owners(t.id);
        assert_ne!(rack(&s, sb[0]), rack(&s, active));
    }
}

/// Fill every partition with `n` records and let standbys catch up.
fn load(s: &mut Sim, n: u64) {
    let parts = s.topics()["input"].partitions;
    for p in 0..parts {
        ok(
            s,
            Action::Produce {
                topic: "input".into(),
                key: None,
                partition: Some(p),
                records: n,
            },
        );
    }
    ok(s, Action::AdvanceTime { ms: 60_000 });
}

#[test]
fn failover_prefers_the_caught_up_standby() {
    let cfg = Config {
        num_standby_replicas: 1,
        ..Config::default()
    };
    let mut s = sim(cfg);
    ok(&mut s, topic("input", 3));
    for n in ["a", "b", "c"] {
        ok(&mut s, add(n, 1));
    }
    ok(&mut s, topology(&["input"], &["counts"]));
    load(&mut s, 100_000);
    let t = TaskId::new(0, 0);
    let active = s.active_owner(t).unwrap().to_string();
    let standby = s.standby_owners(t)[0].to_string();
    assert_eq!(s.lag(&standby, t), Some(0), "the standby kept up");
    let ev = ok(&mut s, Action::CrashInstance { name: active.clone() });
    assert_eq!(
        s.active_owner(t),
        Some(standby.as_str()),
        "the caught-up standby took over"
    );
    let assigned = ev
        .iter()
        .find_map(|e| match e {
            Event::TaskAssigned {
                task,
                role: Role::Active,
                reason,
                restore_records,
                ..
            } if *task == t => Some((*reason, *restore_records)),
            _ => None,
        })
        .expect("a TaskAssigned for the failed-over task");
    assert!(
        matches!(assigned.0, Reason::CaughtUp | Reason::StandbyPromoted),
        "reason {:?}",
        assigned.0
    );
    assert_eq!(assigned.1, 0, "nothing to restore");
    assert!(ev.iter().any(|e| e.narrate().contains("caught")));
}

#[test]
fn without_a_standby_the_new_owner_restores_from_the_changelog() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 2));
    ok(&mut s, add("a", 1));
    ok(&mut s, add("b", 1));
    ok(&mut s, topology(&["input"], &["counts"]));
    load(&mut s, 50_000);
    let t = TaskId::new(0, 0);
    let victim = s.active_owner(t).unwrap().to_string();
    let ev = ok(&mut s, Action::CrashInstance { name: victim });
    let (records, ms) = ev
        .iter()
        .find_map(|e| match e {
            Event::TaskAssigned {
                task,
                role: Role::Active,
                restore_records,
                restore_ms,
                ..
            } if *task == t => Some((*restore_records, *restore_ms)),
            _ => None,
        })
        .unwrap();
    assert_eq!(records, 50_000, "the whole changelog is replayed");
    assert_eq!(ms, 5_000, "at 10,000 records/s");
    let owner = s.active_owner(t).unwrap().to_string();
    assert!(s.instance(&owner).unwrap().restoring.contains_key(&t));
    let ev = ok(&mut s, Action::AdvanceTime { ms: 10_000 });
    let restored = ev.iter().find_map(|e| match e {
        Event::TaskRestored { task, restore_ms, .. } if *task == t => Some(*restore_ms),
        _ => None,
    });
    assert_eq!(restored, Some(5_000));
    assert!(s.metrics().records_restored >= 50_000);
}

#[test]
fn warm_ups_then_probing_rebalance_move_tasks_to_a_new_instance() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 4));
    ok(&mut s, add("a", 1));
    ok(&mut s, topology(&["input"], &["counts"]));
    load(&mut s, 200_000);
    // b joins with no state: a stays the caught-up owner, b gets warm-ups.
    let ev = ok(&mut s, add("b", 1));
    assert_eq!(
        s.instance("a").unwrap().active_tasks().len(),
        4,
        "tasks stay on the caught-up instance"
    );
    let warm = s.instance("b").unwrap().warmups.len();
    assert!(
        (1..=2).contains(&warm),
        "warm-ups within max.warmup.replicas: {warm}"
    );
    let at = s
        .probing_rebalance_at_ms()
        .expect("a probing rebalance is scheduled");
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::ProbingRebalanceScheduled { .. })));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::TaskAssigned {
            role: Role::WarmUp,
            reason: Reason::WarmUp,
            ..
        }
    )));
    // Let the probing rebalances run until balanced.
    for _ in 0..6 {
        ok(&mut s, Action::AdvanceTime { ms: 600_000 });
    }
    assert!(s.now_ms() > at);
    assert_eq!(s.instance("a").unwrap().active_tasks().len(), 2);
    assert_eq!(s.instance("b").unwrap().active_tasks().len(), 2);
    assert!(s.metrics().probing_rebalances >= 1);
    assert_eq!(
        s.probing_rebalance_at_ms(),
        None,
        "no more probing once caught up"
    );
}

#[test]
fn keyed_records_route_by_murmur2() {
    let mut s = sim(Config::default());
    ok(&mut s, topic("input", 5));
    ok(&mut s, topology(&["input"], &["counts"]));
    let ev = ok(
        &mut s,
        Action::Produce {
            topic: "input".into(),
            key: Some("21".into()),
            partition: None,
            records: 3,
        },
    );
    match &ev[0] {
        Event::Produced {
            partition,
            murmur2,
            tasks,
            ..
        } => {
            assert_eq!(*murmur2, Some(-973_932_308));
            assert_eq!(*partition, Some(0), "toPositive(-973932308) % 5 = 0");
            assert_eq!(tasks, &vec![TaskId::new(0, 0)]);
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(s.topics()["input"].end_offsets, vec![3, 0, 0, 0, 0]);
    assert_eq!(s.end_offset(TaskId::new(0, 0)), 3);
}

#[test]
fn sticky_assignor_keeps_tasks_in_place() {
    let cfg = Config {
        task_assignor: lbscope::engine::kstreams::AssignorKind::Sticky,
        num_standby_replicas: 1,
        ..Config::default()
    };
    let mut s = sim(cfg);
    ok(&mut s, topic("input", 6));
    for n in ["a", "b", "c"] {
        ok(&mut s, add(n, 1));
    }
    ok(&mut s, topology(&["input"], &["counts"]));
    assert_every_task_once(&s);
    let before: Vec<_> = s
        .tasks()
        .iter()
        .map(|t| s.active_owner(t.id).map(str::to_string))
        .collect();
    let ev = ok(&mut s, Action::Rebalance);
    let after: Vec<_> = s
        .tasks()
        .iter()
        .map(|t| s.active_owner(t.id).map(str::to_string))
        .collect();
    assert_eq!(before, after);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RebalanceCompleted {
            sticky: 6,
            moved: 0,
            ..
        }
    )));
    for n in ["a", "b", "c"] {
        assert_eq!(s.instance(n).unwrap().active_tasks().len(), 2);
    }
}

#[test]
fn deterministic_for_a_seed() {
    let run = || {
        let mut s = sim(Config {
            num_standby_replicas: 1,
            ..Config::default()
        });
        let mut all = Vec::new();
        all.extend(ok(&mut s, topic("input", 7)));
        for n in ["a", "b", "c", "d"] {
            all.extend(ok(&mut s, add(n, 2)));
        }
        all.extend(ok(&mut s, topology(&["input"], &["counts"])));
        all.extend(ok(&mut s, Action::CrashInstance { name: "b".into() }));
        serde_json::to_string(&all).unwrap()
    };
    assert_eq!(run(), run());
}
