//! The setup actions that build the state Kafka's assignor tests start from:
//! a previous assignment per client and stream thread, offset sums and end
//! offsets (so lags), and the racks of each partition.

use lbscope::engine::kstreams::{
    Action, Config, Error, Event, Role, Sim, SubtopologySpec, TaskId, ThreadAssignmentSpec,
};
use lbscope::engine::Engine;
use std::collections::BTreeMap;

fn t(s: u32, p: u32) -> TaskId {
    TaskId::new(s, p)
}

fn base(cfg: Config, instances: &[(&str, u32)]) -> Sim {
    let mut s = Sim::new(cfg, 11).unwrap();
    s.apply(&Action::DefineTopic {
        topic: "in".into(),
        partitions: 4,
        racks: vec![],
        replication_factor: 1,
    })
    .unwrap();
    s.apply(&Action::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: vec!["in".into()],
            stores: vec!["agg".into()],
            changelog: true,
        }],
        copartition_groups: vec![],
    })
    .unwrap();
    for (n, threads) in instances {
        s.apply(&Action::AddInstance {
            name: n.to_string(),
            threads: Some(*threads),
            rack: None,
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
    }
    s
}

fn assign(
    s: &mut Sim,
    who: &str,
    threads: Vec<(u32, Vec<TaskId>, Vec<TaskId>)>,
    restoring: Vec<TaskId>,
) -> Vec<Event> {
    s.apply(&Action::SetAssignment {
        instance: who.into(),
        threads: threads
            .into_iter()
            .map(|(thread, active, standby)| ThreadAssignmentSpec {
                thread,
                active,
                standby,
            })
            .collect(),
        restoring,
        warmups: vec![],
    })
    .unwrap()
}

#[test]
fn a_set_assignment_is_what_the_next_rebalance_starts_from() {
    let mut s = base(Config::default(), &[("a", 2), ("b", 1)]);
    assign(
        &mut s,
        "a",
        vec![
            (1, vec![t(0, 0), t(0, 1)], vec![]),
            (2, vec![t(0, 2)], vec![t(0, 3)]),
        ],
        vec![],
    );
    assign(&mut s, "b", vec![(1, vec![t(0, 3)], vec![])], vec![]);
    let a = s.instance("a").unwrap();
    assert_eq!(a.threads[0].active, vec![t(0, 0), t(0, 1)]);
    assert_eq!(a.threads[1].standby, vec![t(0, 3)]);
    let before = s.generation();
    // No rebalance ran.
    assert_eq!(s.generation(), before);
    s.apply(&Action::Rebalance).unwrap();
    // All clients caught up and balanced by thread: 3 actives on a (2 threads), 1 on b.
    assert_eq!(s.active_owner(t(0, 0)), Some("a"));
    assert_eq!(s.active_owner(t(0, 3)), Some("b"));
}

#[test]
fn offsets_and_end_offsets_give_the_lag_the_subscription_reports() {
    let mut s = base(Config::default(), &[("a", 1), ("b", 1)]);
    s.apply(&Action::SetEndOffsets {
        offsets: BTreeMap::from([(t(0, 0), 1000), (t(0, 1), 1000)]),
    })
    .unwrap();
    let ev = s
        .apply(&Action::SetTaskOffsets {
            instance: "b".into(),
            offsets: BTreeMap::from([(t(0, 0), 900), (t(0, 1), 5000)]),
        })
        .unwrap();
    let Event::TaskOffsetsSet { offsets, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(offsets[0].lag, 100);
    // An offset past the end is corrupted state: Kafka reports the end as the lag.
    assert_eq!(offsets[1].lag, 1000);
    assert_eq!(s.lag("b", t(0, 0)), Some(100));
}

#[test]
fn a_restoring_previous_active_reports_its_offset_sum() {
    let cfg = Config {
        acceptable_recovery_lag: 10,
        ..Config::default()
    };
    let mut s = base(cfg, &[("a", 1), ("b", 1)]);
    s.apply(&Action::SetEndOffsets {
        offsets: BTreeMap::from([(t(0, 0), 1000)]),
    })
    .unwrap();
    assign(
        &mut s,
        "a",
        vec![(1, vec![t(0, 0), t(0, 1), t(0, 2), t(0, 3)], vec![])],
        vec![t(0, 0)],
    );
    assign(&mut s, "b", vec![], vec![]);
    s.apply(&Action::SetTaskOffsets {
        instance: "b".into(),
        offsets: BTreeMap::from([(t(0, 0), 995)]),
    })
    .unwrap();
    s.apply(&Action::SetTaskOffsets {
        instance: "a".into(),
        offsets: BTreeMap::from([(t(0, 0), 0)]),
    })
    .unwrap();
    let ev = s.apply(&Action::Rebalance).unwrap();
    // a restores 0_0 from offset 0 (lag 1000); b is within acceptable.recovery.lag (5): 0_0 goes to b.
    assert_eq!(s.active_owner(t(0, 0)), Some("b"));
    assert!(ev.iter().any(
        |e| matches!(e, Event::TaskAssigned { task, role: Role::Active, lag: 5, .. } if *task == t(0, 0))
    ));
}

#[test]
fn partition_racks_override_the_round_robin_rule_and_an_empty_list_disables_rack_awareness() {
    let mut s = base(Config::default(), &[]);
    s.apply(&Action::SetPartitionRacks {
        topic: "in".into(),
        racks: vec![
            vec!["r2".into(), "r1".into()],
            vec![],
            vec!["r1".into()],
            vec!["r3".into()],
        ],
    })
    .unwrap();
    let topic = &s.topics()["in"];
    assert_eq!(
        topic.replica_racks(0).into_iter().collect::<Vec<_>>(),
        vec!["r1", "r2"]
    );
    assert!(topic.replica_racks(1).is_empty());
    s.apply(&Action::SetPartitionRacks {
        topic: "app-agg-changelog".into(),
        racks: vec![vec!["r1".into()]; 4],
    })
    .unwrap();
    assert_eq!(
        s.apply(&Action::SetPartitionRacks {
            topic: "in".into(),
            racks: vec![vec!["r1".into()]],
        })
        .unwrap_err(),
        Error::RackListLength {
            topic: "in".into(),
            partitions: 4,
            given: 1
        }
    );
    assert_eq!(
        s.apply(&Action::SetPartitionRacks {
            topic: "nope".into(),
            racks: vec![],
        })
        .unwrap_err(),
        Error::UnknownTopic("nope".into())
    );
}

#[test]
fn bad_setups_are_refused_and_change_nothing() {
    let mut s = base(Config::default(), &[("a", 1)]);
    let before = s.view();
    let bad = [
        (
            Action::SetAssignment {
                instance: "a".into(),
                threads: vec![ThreadAssignmentSpec {
                    thread: 7,
                    active: vec![],
                    standby: vec![],
                }],
                restoring: vec![],
                warmups: vec![],
            },
            Error::UnknownThread("a".into(), 7),
        ),
        (
            Action::SetAssignment {
                instance: "a".into(),
                threads: vec![ThreadAssignmentSpec {
                    thread: 1,
                    active: vec![t(0, 0)],
                    standby: vec![t(0, 0)],
                }],
                restoring: vec![],
                warmups: vec![],
            },
            Error::TaskListedTwice {
                instance: "a".into(),
                task: t(0, 0),
            },
        ),
        (
            Action::SetAssignment {
                instance: "a".into(),
                threads: vec![ThreadAssignmentSpec {
                    thread: 1,
                    active: vec![t(3, 0)],
                    standby: vec![],
                }],
                restoring: vec![],
                warmups: vec![],
            },
            Error::UnknownTask(t(3, 0)),
        ),
        (
            Action::SetAssignment {
                instance: "a".into(),
                threads: vec![],
                restoring: vec![t(0, 1)],
                warmups: vec![],
            },
            Error::NotActive {
                instance: "a".into(),
                task: t(0, 1),
            },
        ),
        (
            Action::SetTaskOffsets {
                instance: "zz".into(),
                offsets: BTreeMap::new(),
            },
            Error::UnknownInstance("zz".into()),
        ),
    ];
    for (a, e) in bad {
        assert_eq!(s.apply(&a).unwrap_err(), e);
        assert_eq!(s.view(), before);
    }
}

#[test]
fn clearing_task_directories_takes_back_what_the_subscription_reports() {
    let cfg = Config {
        acceptable_recovery_lag: 10,
        ..Config::default()
    };
    let mut s = base(cfg, &[("a", 1), ("b", 1)]);
    s.apply(&Action::SetEndOffsets {
        offsets: BTreeMap::from([(t(0, 0), 1000)]),
    })
    .unwrap();
    assign(
        &mut s,
        "a",
        vec![(1, vec![t(0, 0), t(0, 1), t(0, 2), t(0, 3)], vec![])],
        vec![t(0, 0)],
    );
    assign(&mut s, "b", vec![], vec![]);
    s.apply(&Action::SetTaskOffsets {
        instance: "a".into(),
        offsets: BTreeMap::from([(t(0, 0), 0)]),
    })
    .unwrap();
    s.apply(&Action::SetTaskOffsets {
        instance: "b".into(),
        offsets: BTreeMap::from([(t(0, 0), 995), (t(0, 1), 0)]),
    })
    .unwrap();
    // A directory in use stays; nothing changes.
    let before = format!("{s:?}");
    let e = s
        .apply(&Action::ClearTaskOffsets {
            instance: "a".into(),
            tasks: vec![t(0, 0)],
        })
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "task 0_0 is assigned to a, so its directory cannot be removed"
    );
    assert_eq!(before, format!("{s:?}"));
    // b's directory of 0_0 goes: its subscription no longer reports 995, so it
    // is no longer caught up and the restoring a keeps 0_0 (compare
    // a_restoring_previous_active_reports_its_offset_sum, where b takes it).
    let ev = s
        .apply(&Action::ClearTaskOffsets {
            instance: "b".into(),
            tasks: vec![t(0, 0)],
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![Event::TaskOffsetsCleared {
            instance: "b".into(),
            tasks: vec![t(0, 0)],
        }]
    );
    assert_eq!(
        lbscope::engine::Narrate::narrate(&ev[0]),
        "b no longer holds [0_0]: its subscription reports no offset sum for them"
    );
    assert!(!s.instance("b").unwrap().local.contains_key(&t(0, 0)));
    s.apply(&Action::Rebalance).unwrap();
    assert_eq!(s.active_owner(t(0, 0)), Some("a"));
    // No task listed: every directory the instance holds but is not assigned.
    let ev = s
        .apply(&Action::ClearTaskOffsets {
            instance: "a".into(),
            tasks: vec![],
        })
        .unwrap();
    let assigned = s.instance("a").unwrap().active_tasks();
    let Event::TaskOffsetsCleared { tasks, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert!(tasks.iter().all(|x| !assigned.contains(x)));
    assert!(s
        .instance("a")
        .unwrap()
        .local
        .keys()
        .all(|x| assigned.contains(x)));
    // The scenario form.
    let a: Action =
        serde_json::from_str(r#"{"op": "clear_task_offsets", "instance": "b", "tasks": ["0_1"]}"#).unwrap();
    assert_eq!(
        a,
        Action::ClearTaskOffsets {
            instance: "b".into(),
            tasks: vec![t(0, 1)],
        }
    );
}

#[test]
fn set_assignment_marks_warm_ups_within_max_warmup_replicas() {
    let cfg = Config {
        max_warmup_replicas: 1,
        ..Config::default()
    };
    let mut s = base(cfg, &[("a", 1), ("b", 1)]);
    assign(
        &mut s,
        "a",
        vec![(1, vec![t(0, 0), t(0, 1), t(0, 2), t(0, 3)], vec![])],
        vec![],
    );
    let with = |warmups: Vec<TaskId>, standby: Vec<TaskId>| Action::SetAssignment {
        instance: "b".into(),
        threads: vec![ThreadAssignmentSpec {
            thread: 1,
            active: vec![],
            standby,
        }],
        restoring: vec![],
        warmups,
    };
    let before = format!("{s:?}");
    let e = s.apply(&with(vec![t(0, 2)], vec![t(0, 1)])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "task 0_2 is not a standby of b, so it cannot be a warm-up"
    );
    let e = s
        .apply(&with(vec![t(0, 1), t(0, 2)], vec![t(0, 1), t(0, 2)]))
        .unwrap_err();
    assert!(matches!(e, Error::TooManyWarmups { warmups: 2, max: 1 }), "{e}");
    assert_eq!(before, format!("{s:?}"));
    let ev = s.apply(&with(vec![t(0, 1)], vec![t(0, 1), t(0, 2)])).unwrap();
    assert!(
        lbscope::engine::Narrate::narrate(&ev[0]).ends_with("; warm-ups [0_1]"),
        "{ev:?}"
    );
    let b = s.instance("b").unwrap();
    assert_eq!(b.warmups.iter().copied().collect::<Vec<_>>(), vec![t(0, 1)]);
    let view = s.view();
    let task = view.tasks.iter().find(|x| x.id == t(0, 1)).unwrap();
    assert_eq!(task.warmups, vec!["b".to_string()]);
    s.invariants().unwrap();
    // The scenario form; an old one without warm-ups still reads.
    let a: Action = serde_json::from_str(
        r#"{"op": "set_assignment", "instance": "b", "threads": [{"thread": 1, "standby": ["0_1", "0_2"]}], "warmups": ["0_1"]}"#,
    )
    .unwrap();
    assert_eq!(a, with(vec![t(0, 1)], vec![t(0, 1), t(0, 2)]));
    let old: Action =
        serde_json::from_str(r#"{"op": "set_assignment", "instance": "b", "threads": []}"#).unwrap();
    assert!(matches!(old, Action::SetAssignment { warmups, .. } if warmups.is_empty()));
}

/// `ClientTagAwareStandbyTaskAssignorTest`
/// `.shouldDistributeStandbyTasksOnLeastLoadedClientsWhenClientsAreNotOnDifferentTagDimensions`
/// from a scenario: actives given with `set_assignment`, then `assign_standbys`
/// runs the standby assignor alone around them (expected counts from the test).
#[test]
fn assign_standbys_places_standbys_around_fixed_actives() {
    let text = r#"{"format": 2, "seed": 5, "system": "kstreams",
      "config": {"num.standby.replicas": 1, "rack.aware.assignment.tags": ["cluster", "zone"]},
      "setup": [
        {"op": "define_topic", "topic": "a", "partitions": 3},
        {"op": "define_topic", "topic": "b", "partitions": 1},
        {"op": "add_instance", "name": "p1", "threads": 3, "tags": {"cluster": "cluster1", "zone": "zone1"}, "process_id": "00000000-0000-0000-0000-000000000001"},
        {"op": "add_instance", "name": "p2", "threads": 3, "tags": {"cluster": "cluster1", "zone": "zone1"}, "process_id": "00000000-0000-0000-0000-000000000002"},
        {"op": "add_instance", "name": "p3", "threads": 3, "tags": {"cluster": "cluster1", "zone": "zone1"}, "process_id": "00000000-0000-0000-0000-000000000003"},
        {"op": "add_instance", "name": "p4", "threads": 3, "tags": {"cluster": "cluster1", "zone": "zone1"}, "process_id": "00000000-0000-0000-0000-000000000004"},
        {"op": "define_topology", "subtopologies": [{"sources": ["a"], "stores": ["s"]}, {"sources": ["b"], "stores": ["u"]}]}
      ],
      "actions": [
        {"op": "set_assignment", "instance": "p1", "threads": [{"thread": 1, "active": ["0_0"]}]},
        {"op": "set_assignment", "instance": "p2", "threads": [{"thread": 1, "active": ["0_1"]}]},
        {"op": "set_assignment", "instance": "p3", "threads": [{"thread": 1, "active": ["0_2"]}]},
        {"op": "set_assignment", "instance": "p4", "threads": [{"thread": 1, "active": ["1_0"]}]},
        {"op": "assign_standbys"}
      ]}"#;
    let sc = lbscope::scenario::Scenario::from_json(text).unwrap();
    let lbscope::scenario::Body::Kstreams(log) = &sc.body else {
        panic!()
    };
    let r = lbscope::scenario::replay(sc.seed, log, None).unwrap();
    let s = &r.state;
    for (name, active) in [("p1", t(0, 0)), ("p2", t(0, 1)), ("p3", t(0, 2)), ("p4", t(1, 0))] {
        let i = s.instance(name).unwrap();
        assert_eq!(
            i.active_tasks().into_iter().collect::<Vec<_>>(),
            vec![active],
            "{name} keeps its active"
        );
        assert_eq!(i.standby_tasks().len(), 1, "{name}");
    }
    s.invariants().unwrap();
    let events = &r.steps[4].events;
    assert!(events.iter().any(|e| matches!(e, Event::StandbyAssignorChosen { standby_assignor, .. } if standby_assignor.contains("ClientTagAware"))), "{events:?}");
    // A task nobody runs: refused, nothing changes.
    let mut s = base(Config::default(), &[("a", 1)]);
    assign(&mut s, "a", vec![(1, vec![t(0, 0)], vec![])], vec![]);
    let before = format!("{s:?}");
    let e = s.apply(&Action::AssignStandbys).unwrap_err();
    assert_eq!(
        e.to_string(),
        "task 0_1 has no single active owner among the members, so standbys cannot be placed around fixed actives"
    );
    assert_eq!(before, format!("{s:?}"));
}
