//! Automatic split: each threshold, the namespace maximum, modular vs extensible rules.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

use lbscope::engine::pulsar::config::{LoadManager, Profile, SplitAlgorithm};
use lbscope::engine::pulsar::ownership::ServiceUnitState;
use lbscope::engine::pulsar::{Config, Event, Sim};
use util::*;

fn two_topics(c: Config, t: lbscope::engine::pulsar::traffic::Traffic) -> Sim {
    let mut sim = cluster(c, &["b1", "b2"], "t/n", 1);
    pinned(&mut sim, "t/n/a", 0x1000_0000);
    pinned(&mut sim, "t/n/b", 0x9000_0000);
    set_traffic(&mut sim, "t/n/a", t);
    set_traffic(&mut sim, "t/n/b", t);
    sim
}

fn candidate_reasons(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::SplitCandidate { reasons, .. } => Some(reasons.join(",")),
            _ => None,
        })
        .collect()
}

#[test]
fn modular_msg_rate_threshold_splits_in_one_hit_and_unloads_children() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
    let mut sim = two_topics(c, traffic(60.0, 0.0, 0, 0));
    let ev = step(&mut sim);
    assert!(candidate_reasons(&ev)[0].contains("msg rate 120.0 > 100"));
    let s = splits(&ev);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].1, vec!["0x00000000_0x7fffffff", "0x7fffffff_0xffffffff"]);
    // Children unloaded (loadBalancerAutoUnloadSplitBundlesEnabled) then looked up again.
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BundleSplit { unloaded: true, .. })));
    assert!(ev.iter().any(|e| matches!(e, Event::Reconnected { .. })));
    assert!(sim.bundles().values().all(|b| b.owner().is_some()));
    assert_eq!(sim.metrics()[0].splits, 1);
}

#[test]
fn modular_each_threshold() {
    // topics
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_topics = 1;
    let mut sim = two_topics(c, traffic(0.0, 0.0, 0, 0));
    let ev = step(&mut sim);
    assert!(candidate_reasons(&ev)[0].contains("topics 2 > 1"));
    // sessions
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_sessions = 3;
    let mut sim = two_topics(c, traffic(1.0, 0.0, 1, 1));
    let ev = step(&mut sim);
    assert!(candidate_reasons(&ev)[0].contains("sessions 4 > 3"));
    // sessions 0 disables the check
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_sessions = 0;
    let mut sim = two_topics(c, traffic(1.0, 0.0, 100, 100));
    assert!(splits(&step(&mut sim)).is_empty());
    // bandwidth
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_bandwidth_mbytes = 1.0;
    let mut sim = two_topics(c, traffic(1.0, 0.75, 0, 0));
    let ev = step(&mut sim);
    assert!(candidate_reasons(&ev)[0].contains("throughput 1.50 > 1 MiB/s"));
    assert_eq!(splits(&ev).len(), 1);
}

#[test]
fn modular_needs_two_topics_and_room_in_the_namespace() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_msg_rate = 10.0;
    let mut sim = cluster(c.clone(), &["b1"], "t/n", 1);
    pinned(&mut sim, "t/n/a", 1);
    set_traffic(&mut sim, "t/n/a", traffic(1000.0, 0.0, 0, 0));
    assert!(
        splits(&step(&mut sim)).is_empty(),
        "a single topic is never split"
    );

    c.load_balancer_namespace_maximum_bundles = 1;
    let mut sim = two_topics(c, traffic(1000.0, 0.0, 0, 0));
    let ev = step(&mut sim);
    assert!(splits(&ev).is_empty());
    assert!(ev.iter().any(|e| matches!(e, Event::SplitSkipped { reason, .. } if reason.text().contains("loadBalancerNamespaceMaximumBundles"))));
    // That refusal is written when read (a full namespace refuses thousands of
    // bundles a round), yet prints, serializes, compares and reads back as its text
    // (two topics at 1,000 msg/s each: 2,000 msg/s in the bundle).
    let reason = ev
        .iter()
        .find_map(|e| match e {
            Event::SplitSkipped { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .unwrap();
    let text = reason.text();
    assert_eq!(
        text,
        "msg rate 2000.0 > 10 msg/s (threshold crossed) but namespace t/n has 1 bundles (loadBalancerNamespaceMaximumBundles 1)"
    );
    assert_eq!(reason.to_string(), text);
    assert_eq!(format!("{reason:?}"), format!("{text:?}"));
    let json = serde_json::to_value(&reason).unwrap();
    assert_eq!(json, serde_json::Value::String(text.clone()));
    let back: lbscope::engine::pulsar::split_threshold::SkipReason = serde_json::from_value(json).unwrap();
    assert_eq!(back, reason);
    assert_eq!(reason, text.as_str().into());
}

#[test]
fn modular_uses_long_term_average_sampled_on_published_reports() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
    let mut sim = two_topics(c, traffic(10.0, 0.0, 0, 0));
    // Alternate 10 / 12 msg/s per topic: a 20 % change, so every round publishes
    // a report and the leader folds a sample (bundle: 20, 24, 20, 24, 20).
    for r in 0..5 {
        let v = if r % 2 == 0 { 10.0 } else { 12.0 };
        set_traffic(&mut sim, "t/n/a", traffic(v, 0.0, 0, 0));
        set_traffic(&mut sim, "t/n/b", traffic(v, 0.0, 0, 0));
        assert!(splits(&step(&mut sim)).is_empty());
    }
    // Spike to 400 msg/s: long-term average (108 + 400) / 6 = 84.7 < 100: no split.
    set_traffic(&mut sim, "t/n/a", traffic(200.0, 0.0, 0, 0));
    set_traffic(&mut sim, "t/n/b", traffic(200.0, 0.0, 0, 0));
    assert!(splits(&step(&mut sim)).is_empty());
    // Unchanged load publishes nothing, so no new sample and still no split.
    assert!(splits(&step(&mut sim)).is_empty());
    // 460 msg/s (a 15 % change): (108 + 400 + 460) / 7 = 138.3 > 100: split.
    set_traffic(&mut sim, "t/n/a", traffic(230.0, 0.0, 0, 0));
    set_traffic(&mut sim, "t/n/b", traffic(230.0, 0.0, 0, 0));
    let ev = step(&mut sim);
    assert_eq!(splits(&ev).len(), 1);
    assert!(
        candidate_reasons(&ev)[0].contains("msg rate 138.3"),
        "{:?}",
        candidate_reasons(&ev)
    );
}

#[test]
fn extensible_needs_more_than_threshold_hits_and_keeps_children() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
    let mut sim = two_topics(c, traffic(60.0, 0.0, 0, 0));
    let owner = sim.bundles().values().next().unwrap().owner().cloned().unwrap();
    for round in 1..=3 {
        let ev = step(&mut sim);
        assert!(splits(&ev).is_empty(), "round {round}");
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::SplitCandidate { hits: Some((h, 3)), .. } if *h == round)));
    }
    let ev = step(&mut sim);
    assert_eq!(splits(&ev).len(), 1);
    let states: Vec<(ServiceUnitState, ServiceUnitState)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::StateChanged { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    assert!(states.contains(&(ServiceUnitState::Owned, ServiceUnitState::Splitting)));
    assert!(states.contains(&(ServiceUnitState::Splitting, ServiceUnitState::Deleted)));
    assert!(states.contains(&(ServiceUnitState::Init, ServiceUnitState::Owned)));
    assert!(sim.bundles().values().all(|b| b.owner() == Some(&owner)));
    assert!(!ev.iter().any(|e| matches!(e, Event::Reconnected { .. })));
}

#[test]
fn extensible_resets_hits_and_caps_splits_per_cycle() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
    c.load_balancer_namespace_bundle_split_condition_hit_count_threshold = 1;
    c.load_balancer_max_number_of_bundles_to_split_per_cycle = 1;
    c.load_balancer_distribute_bundles_evenly_enabled = false;
    let mut sim = cluster(c, &["b1"], "t/n", 2);
    for (n, h) in [
        ("a", 0x1000_0000u32),
        ("b", 0x2000_0000),
        ("c", 0x9000_0000),
        ("d", 0xA000_0000),
    ] {
        let name = format!("t/n/{n}");
        pinned(&mut sim, &name, h);
        set_traffic(&mut sim, &name, traffic(60.0, 0.0, 0, 0));
    }
    assert!(splits(&step(&mut sim)).is_empty());
    // Condition drops for one round: the hit count restarts.
    set_traffic(&mut sim, "t/n/a", traffic(1.0, 0.0, 0, 0));
    set_traffic(&mut sim, "t/n/c", traffic(1.0, 0.0, 0, 0));
    assert!(splits(&step(&mut sim)).is_empty());
    set_traffic(&mut sim, "t/n/a", traffic(60.0, 0.0, 0, 0));
    set_traffic(&mut sim, "t/n/c", traffic(60.0, 0.0, 0, 0));
    assert!(splits(&step(&mut sim)).is_empty());
    // Second consecutive hit (> 1): both qualify, only one split this cycle.
    assert_eq!(splits(&step(&mut sim)).len(), 1);
    assert_eq!(splits(&step(&mut sim)).len(), 1);
}

#[test]
fn extensible_refuses_multi_boundary_algorithms() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
    c.load_balancer_namespace_bundle_split_condition_hit_count_threshold = 0;
    c.default_namespace_bundle_split_algorithm = SplitAlgorithm::FlowOrQpsEquallyDivide;
    let mut sim = cluster(c, &["b1"], "t/n", 1);
    for (i, h) in [0x1000_0000u32, 0x5000_0000, 0x9000_0000].iter().enumerate() {
        let name = format!("t/n/x{i}");
        pinned(&mut sim, &name, *h);
        set_traffic(&mut sim, &name, traffic(90.0, 0.0, 0, 0));
    }
    let ev = step(&mut sim);
    assert!(splits(&ev).is_empty());
    assert!(ev.iter().any(
        |e| matches!(e, Event::SplitSkipped { reason, .. } if reason.text().contains("exactly 1 boundary"))
    ));
}

/// `SplitSchedulerTest.testDisableLoadBalancer` (expected values from the
/// test: the split strategy is not consulted with `loadBalancerEnabled=false`,
/// nor with `loadBalancerAutoBundleSplitEnabled=false`). The modular side, from
/// reading `ModularLoadManagerImpl.updateAll` / `checkNamespaceBundleSplit`:
/// its check reads only `loadBalancerAutoBundleSplitEnabled`, so it still splits.
#[test]
fn split_scheduler_test_disable_load_balancer() {
    let hot = |manager: LoadManager, enabled: bool, split: bool| {
        let mut c = Config::profile(Profile::Pulsar4);
        c.load_manager_class_name = manager;
        c.load_balancer_namespace_bundle_max_msg_rate = 100.0;
        c.load_balancer_namespace_bundle_split_condition_hit_count_threshold = 0;
        c.load_balancer_enabled = enabled;
        c.load_balancer_auto_bundle_split_enabled = split;
        let mut sim = two_topics(c, traffic(60.0, 0.0, 0, 0));
        let ev = step(&mut sim);
        let candidates = ev
            .iter()
            .filter(|e| matches!(e, Event::SplitCandidate { .. }))
            .count();
        (candidates, splits(&ev).len())
    };
    assert_eq!(hot(LoadManager::Extensible, true, true), (1, 1));
    // The strategy is not run: no candidate, no hit counted, no split.
    assert_eq!(hot(LoadManager::Extensible, false, true), (0, 0));
    assert_eq!(hot(LoadManager::Extensible, true, false), (0, 0));
    assert_eq!(hot(LoadManager::Modular, false, true), (1, 1));
    assert_eq!(hot(LoadManager::Modular, true, false), (0, 0));
}
