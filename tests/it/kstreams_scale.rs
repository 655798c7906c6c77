//! Scale: 100 instances × 8 threads, 5,000 tasks, 2 standbys,
//! rack-aware min_traffic (the benchmark's own cluster), checked for correctness.
//! Its speed is a benchmark figure (`lbscope bench`), never asserted here.

use lbscope::engine::kstreams::Action;
use lbscope::engine::Engine;

#[test]
fn hundred_instances_five_thousand_tasks() {
    let mut s = lbscope::bench::kstreams_cluster();
    s.apply(&Action::Rebalance).unwrap();
    assert_eq!(s.tasks().len(), 5000);
    let actives: usize = s.instances().values().map(|i| i.active_tasks().len()).sum();
    let standbys: usize = s.instances().values().map(|i| i.standby_tasks().len()).sum();
    assert_eq!(actives, 5000);
    assert_eq!(standbys, 10_000);
    assert_eq!(s.instances().len(), 100);
}
