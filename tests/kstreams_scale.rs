//! Issue 9's scale: 100 instances × 8 threads, 5,000 tasks, 2 standbys,
//! rack-aware min_traffic, checked for correctness. Its speed is a benchmark
//! figure (`lbscope bench`), never asserted here.

use lbscope::engine::kstreams::{Action, Config, RackStrategy, Sim, SubtopologySpec};
use lbscope::engine::Engine;
use std::collections::BTreeMap;

#[test]
fn hundred_instances_five_thousand_tasks() {
    let cfg = Config {
        num_standby_replicas: 2,
        rack_aware_assignment_strategy: RackStrategy::MinTraffic,
        ..Config::default()
    };
    let mut s = Sim::new(cfg, 9).unwrap();
    let racks: Vec<String> = (0..3).map(|r| format!("rack-{r}")).collect();
    for i in 0..100 {
        s.apply(&Action::AddInstance {
            name: format!("app-{i:03}"),
            threads: Some(8),
            rack: Some(racks[i % 3].clone()),
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
    }
    s.apply(&Action::DefineTopic {
        topic: "in".into(),
        partitions: 5000,
        racks: racks.clone(),
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
    s.apply(&Action::Rebalance).unwrap();
    assert_eq!(s.tasks().len(), 5000);
    let actives: usize = s.instances().values().map(|i| i.active_tasks().len()).sum();
    let standbys: usize = s.instances().values().map(|i| i.standby_tasks().len()).sum();
    assert_eq!(actives, 5000);
    assert_eq!(standbys, 10_000);
}
