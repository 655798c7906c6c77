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
            },
            Error::UnknownTask(t(3, 0)),
        ),
        (
            Action::SetAssignment {
                instance: "a".into(),
                threads: vec![],
                restoring: vec![t(0, 1)],
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
