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
