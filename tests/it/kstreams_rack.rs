//! Rack-aware active assignment (min_traffic and balance_subtopology).

use lbscope::engine::kstreams::{Action, Config, Event, RackStrategy, Sim, SubtopologySpec, TaskId};
use lbscope::engine::Engine;
use std::collections::BTreeMap;

fn run(strategy: RackStrategy, stores: Vec<String>) -> (Sim, Vec<Event>) {
    let mut s = Sim::new(
        Config {
            rack_aware_assignment_strategy: strategy,
            ..Config::default()
        },
        1,
    )
    .unwrap();
    // Partition p's only replica sits on rack r{p % 2}.
    s.apply(&Action::DefineTopic {
        topic: "in".into(),
        partitions: 8,
        racks: vec!["r0".into(), "r1".into()],
        replication_factor: 1,
    })
    .unwrap();
    for (n, r) in [("a", "r0"), ("b", "r1"), ("c", "r0"), ("d", "r1")] {
        s.apply(&Action::AddInstance {
            name: n.into(),
            threads: Some(1),
            rack: Some(r.into()),
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
    }
    let ev = s
        .apply(&Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["in".into()],
                stores,
                changelog: true,
            }],
            copartition_groups: vec![],
        })
        .unwrap();
    (s, ev)
}

fn all_local(s: &Sim) {
    for p in 0..8 {
        let owner = s.active_owner(TaskId::new(0, p)).unwrap();
        let rack = s.instance(owner).unwrap().rack.clone().unwrap();
        assert_eq!(rack, format!("r{}", p % 2), "task 0_{p} on {owner}");
    }
    for i in s.instances().values() {
        assert_eq!(i.active_tasks().len(), 2, "counts are kept");
    }
}

#[test]
fn min_traffic_puts_tasks_in_their_partitions_rack() {
    for stores in [vec![], vec!["agg".to_string()]] {
        let (s, ev) = run(RackStrategy::MinTraffic, stores);
        all_local(&s);
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::RackAwareOptimized { cost_after, .. } if *cost_after <= 8)));
    }
}

#[test]
fn balance_subtopology_also_cuts_traffic() {
    let (s, ev) = run(RackStrategy::BalanceSubtopology, vec!["agg".into()]);
    all_local(&s);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RackAwareOptimized {
            strategy: RackStrategy::BalanceSubtopology,
            ..
        }
    )));
}

#[test]
fn without_rack_information_the_optimizer_is_off_with_a_warning() {
    let mut s = Sim::new(
        Config {
            rack_aware_assignment_strategy: RackStrategy::MinTraffic,
            ..Config::default()
        },
        1,
    )
    .unwrap();
    s.apply(&Action::DefineTopic {
        topic: "in".into(),
        partitions: 2,
        racks: vec![],
        replication_factor: 1,
    })
    .unwrap();
    s.apply(&Action::AddInstance {
        name: "a".into(),
        threads: None,
        rack: Some("r0".into()),
        tags: BTreeMap::new(),
        process_id: None,
    })
    .unwrap();
    let ev = s
        .apply(&Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["in".into()],
                stores: vec![],
                changelog: true,
            }],
            copartition_groups: vec![],
        })
        .unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Warning { message } if message.contains("no rack information"))));
    assert!(!ev.iter().any(|e| matches!(e, Event::RackAwareOptimized { .. })));
}

/// A 4-instance, 2-rack application with `num.standby.replicas` = 1, the given
/// strategy, and no `rack.aware.assignment.tags`.
fn with_standbys(strategy: RackStrategy, racks: bool) -> (Sim, Vec<Event>) {
    let mut s = Sim::new(
        Config {
            rack_aware_assignment_strategy: strategy,
            num_standby_replicas: 1,
            ..Config::default()
        },
        1,
    )
    .unwrap();
    s.apply(&Action::DefineTopic {
        topic: "in".into(),
        partitions: 8,
        racks: vec!["r0".into(), "r1".into()],
        replication_factor: 1,
    })
    .unwrap();
    for (n, r) in [("a", "r0"), ("b", "r1"), ("c", "r0"), ("d", "r1")] {
        s.apply(&Action::AddInstance {
            name: n.into(),
            threads: Some(1),
            rack: racks.then(|| r.to_string()),
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
    }
    let ev = s
        .apply(&Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["in".into()],
                stores: vec!["agg".into()],
                changelog: true,
            }],
            copartition_groups: vec![],
        })
        .unwrap();
    (s, ev)
}

/// Derived by reading `HighAvailabilityTaskAssignor.assignStandbyReplicaTasks`: it
/// calls `StandbyTaskAssignorFactory.create(configs, null)`, so with `client.rack`
/// but no `rack.aware.assignment.tags` the standbys go to `DefaultStandbyTaskAssignor`
/// under every strategy; only `min_traffic` and `balance_subtopology` then run the
/// rack-aware standby optimizer (changelog traffic), and under `none` the standbys
/// are exactly those of the same group without any `client.rack`.
#[test]
fn client_rack_alone_never_makes_standbys_tag_aware() {
    for strategy in [
        RackStrategy::None,
        RackStrategy::MinTraffic,
        RackStrategy::BalanceSubtopology,
    ] {
        let (_, ev) = with_standbys(strategy, true);
        let chosen = ev
            .iter()
            .find_map(|e| match e {
                Event::StandbyAssignorChosen {
                    standby_assignor,
                    tags,
                    members_with_client_rack,
                    rack_optimizer,
                    ..
                } => Some((
                    standby_assignor.clone(),
                    tags.clone(),
                    *members_with_client_rack,
                    *rack_optimizer,
                )),
                _ => None,
            })
            .unwrap();
        assert_eq!(chosen.0, "DefaultStandbyTaskAssignor", "{strategy:?}");
        assert!(chosen.1.is_empty());
        assert_eq!(chosen.2, 4);
        assert_eq!(chosen.3, strategy != RackStrategy::None, "{strategy:?}");
        let text = ev
            .iter()
            .find(|e| matches!(e, Event::StandbyAssignorChosen { .. }))
            .map(lbscope::engine::Narrate::narrate)
            .unwrap();
        assert!(text.contains("client.rack does not spread standbys"), "{text}");
        assert!(!ev.iter().any(|e| matches!(
            e,
            Event::TaskAssigned {
                reason: lbscope::engine::kstreams::Reason::TagDiverse,
                ..
            }
        )));
    }
    let (with, _) = with_standbys(RackStrategy::None, true);
    let (without, _) = with_standbys(RackStrategy::None, false);
    for p in 0..8 {
        let t = TaskId::new(0, p);
        assert_eq!(with.standby_owners(t), without.standby_owners(t), "{t}");
        assert_eq!(with.active_owner(t), without.active_owner(t), "{t}");
    }
}

/// `streams/.../internals/assignment/RackAwareTaskAssignorTest`, on scenarios.
mod rack_aware_task_assignor_test {
    use super::*;

    fn optimized(ev: &[Event]) -> bool {
        ev.iter().any(|e| matches!(e, Event::RackAwareOptimized { .. }))
    }

    /// From shouldDisableAssignorFromConfig: strategy `none` never enables it.
    #[test]
    fn should_disable_assignor_from_config() {
        let (_, ev) = run(RackStrategy::None, vec!["agg".into()]);
        assert!(!optimized(&ev));
    }

    /// From shouldDisableActiveWhenRackMissingInNode: a partition whose replicas
    /// carry no rack disables rack-aware assignment.
    #[test]
    fn should_disable_active_when_rack_missing_in_node() {
        let (mut s, _) = run(RackStrategy::MinTraffic, vec!["agg".into()]);
        let mut racks = vec![vec!["r0".to_string()]; 8];
        racks[3].clear();
        s.apply(&Action::SetPartitionRacks {
            topic: "in".into(),
            racks,
        })
        .unwrap();
        let ev = s.apply(&Action::Rebalance).unwrap();
        assert!(!optimized(&ev));
        assert!(ev.iter().any(
            |e| matches!(e, Event::Warning { message } if message.contains("topic partition in-3 has no rack information"))
        ));
    }

    /// From shouldReturnInvalidClientRackWhenRackMissingInClientConsumer: a client
    /// without `client.rack` disables it.
    #[test]
    fn should_return_invalid_client_rack_when_rack_missing_in_client_consumer() {
        let (mut s, _) = run(RackStrategy::MinTraffic, vec!["agg".into()]);
        let ev = s
            .apply(&Action::AddInstance {
                name: "e".into(),
                threads: Some(1),
                rack: None,
                tags: BTreeMap::new(),
                process_id: None,
            })
            .unwrap();
        assert!(!optimized(&ev));
        assert!(ev.iter().any(
            |e| matches!(e, Event::Warning { message } if message.contains("instance e has no client.rack"))
        ));
    }

    /// From shouldDisableRackAwareAssignorWithStandbyDescribingTopicsFailure's
    /// premise: a changelog partition without racks disables it too (set here with
    /// `set_partition_racks` on the changelog topic).
    #[test]
    fn a_changelog_partition_without_racks_disables_it() {
        let (mut s, _) = run(RackStrategy::MinTraffic, vec!["agg".into()]);
        let mut racks = vec![vec!["r1".to_string()]; 8];
        racks[0].clear();
        s.apply(&Action::SetPartitionRacks {
            topic: "app-agg-changelog".into(),
            racks,
        })
        .unwrap();
        let ev = s.apply(&Action::Rebalance).unwrap();
        assert!(!optimized(&ev));
    }
}
