//! Kafka's `TaskAssignorConvergenceTest` (KIP-441): after a node joins or leaves,
//! the high-availability assignor reaches a stable assignment within a bounded
//! number of rebalances, moving at most `max.warmup.replicas` stateful tasks per
//! probing rebalance through warm-ups. The two golden scenarios
//! `tests/scenarios/kstreams-kip441-convergence-*.json` build Kafka's harness:
//! one topic per sub-topology of at most 5 partitions (stateless sub-topologies
//! first), stateful tasks' changelogs at an end offset sum of 150,000, single-thread
//! clients with process ids in Kafka's `processIdForInt` order,
//! `acceptable.recovery.lag=100`, `max.warmup.replicas=2`, no standbys,
//! `probing.rebalance.interval.ms=60000`, and rack-aware assignment off (the
//! `none` arm). Kafka's harness counts a warm-up as caught up at the next
//! rebalance; here a warm-up restores its 150,000 records in 15 s of the minute
//! between probing rebalances.
//!
//! The bounds are the test's iteration limits: `numStatefulTasks /
//! maxWarmupReplicas + 1` after adding a node (11 stateful tasks: 6) and `+ 2`
//! after dropping one (13 stateful tasks: 8).

use lbscope::engine::kstreams::{Action, Event, Sim};
use lbscope::engine::Engine;
use lbscope::scenario::{Body, Scenario};
use std::collections::BTreeMap;

/// The scenario's state after its setup and first action (the initial cluster,
/// restored), and the membership change that follows.
fn harness(file: &str) -> (Sim, Action) {
    let path = format!("{}/tests/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let sc = Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let Body::Kstreams(log) = &sc.body else {
        panic!("{file} is not Kafka Streams")
    };
    let mut sim = Sim::new(log.config.clone(), sc.seed).unwrap();
    for (i, a) in log.setup.iter().enumerate() {
        sim.apply_setup(a, log.setup.get(i + 1)).unwrap();
    }
    // Kafka: the initial assignment converges in one rebalance.
    assert_eq!(
        sim.generation(),
        2,
        "the topology's rebalance and the clients' one"
    );
    assert_eq!(sim.probing_rebalance_at_ms(), None);
    sim.apply(&log.actions[0]).unwrap();
    (sim, log.actions[1].clone())
}

/// Apply `change`, then let time pass to each probing rebalance until none is
/// scheduled: the rebalances it took, counting the change's own.
fn rebalances_to_converge(sim: &mut Sim, change: &Action) -> usize {
    let completed = |ev: &[Event]| {
        ev.iter()
            .filter(|e| matches!(e, Event::RebalanceCompleted { .. }))
            .count()
    };
    let mut n = completed(&sim.apply(change).unwrap());
    while let Some(at) = sim.probing_rebalance_at_ms() {
        assert!(n < 50, "no convergence after {n} rebalances");
        let ms = at - sim.now_ms();
        n += completed(&sim.apply(&Action::AdvanceTime { ms }).unwrap());
    }
    n
}

/// Converged: another rebalance moves nothing and leaves no warm-up; and, as
/// Kafka's `verifyBalancedAssignment` checks, each sub-topology's active tasks
/// are spread over the clients within one of each other.
fn assert_converged_and_balanced(sim: &Sim) {
    let owners = |s: &Sim| -> Vec<Option<String>> {
        s.tasks()
            .iter()
            .map(|t| s.active_owner(t.id).map(str::to_string))
            .collect()
    };
    let mut next = sim.clone();
    next.apply(&Action::Rebalance).unwrap();
    assert_eq!(owners(sim), owners(&next), "a further rebalance moves tasks");
    assert!(next.instances().values().all(|i| i.warmups.is_empty()));
    let mut per: BTreeMap<u32, BTreeMap<&str, usize>> = BTreeMap::new();
    for i in sim.members() {
        for t in sim.tasks() {
            let n = per
                .entry(t.id.subtopology)
                .or_default()
                .entry(i.name.as_str())
                .or_default();
            *n += usize::from(i.active_tasks().contains(&t.id));
        }
    }
    for (sub, counts) in per {
        let (lo, hi) = (counts.values().min().unwrap(), counts.values().max().unwrap());
        assert!(hi - lo <= 1, "sub-topology {sub} skewed: {counts:?}");
    }
}

#[test]
fn assignment_should_converge_after_adding_node() {
    let (mut sim, change) = harness("kstreams-kip441-convergence-adding-node.json");
    let n = rebalances_to_converge(&mut sim, &change);
    // Kafka's bound: 11 / 2 + 1.
    assert!(n <= 11 / 2 + 1, "{n} rebalances");
    assert_eq!(n, EXPECT_ADDING, "lbscope's count (pinned by the golden log)");
    assert_converged_and_balanced(&sim);
}

#[test]
fn dropping_nodes_should_converge() {
    let (mut sim, change) = harness("kstreams-kip441-convergence-dropping-node.json");
    let n = rebalances_to_converge(&mut sim, &change);
    // Kafka's bound: 13 / 2 + 2.
    assert!(n <= 13 / 2 + 2, "{n} rebalances");
    assert_eq!(n, EXPECT_DROPPING, "lbscope's count (pinned by the golden log)");
    assert_converged_and_balanced(&sim);
}

const EXPECT_ADDING: usize = 4;
const EXPECT_DROPPING: usize = 7;
