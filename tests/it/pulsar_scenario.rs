//! Multi-round scenarios: growth, faults, determinism, proposals by cloning, scale smoke.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

use lbscope::engine::pulsar::config::{LoadManager, Profile};
use lbscope::engine::pulsar::traffic::Traffic;
use lbscope::engine::pulsar::{Action, Config, Event, Sim};
use lbscope::engine::{Engine, Narrate};
use util::*;

fn script(c: Config) -> (Sim, Vec<Event>) {
    let mut sim = Sim::new(c, 7).unwrap();
    let mut all = Vec::new();
    let mut go = |sim: &mut Sim, a: Action| all.extend(sim.apply(&a).unwrap());
    for b in ["b1", "b2", "b3"] {
        go(
            &mut sim,
            Action::AddBroker {
                broker: b.into(),
                capacity: Default::default(),
            },
        );
    }
    go(
        &mut sim,
        Action::CreateNamespace {
            namespace: "shop/orders".into(),
            bundles: Some(4),
        },
    );
    go(
        &mut sim,
        Action::CreateTopics {
            namespace: "shop/orders".into(),
            prefix: "o".into(),
            count: 200,
            traffic: Traffic {
                msg_rate_in: 300.0,
                msg_rate_out: 300.0,
                throughput_in: 150_000.0,
                throughput_out: 150_000.0,
                producers: 1,
                consumers: 1,
            },
        },
    );
    go(
        &mut sim,
        Action::CreatePartitionedTopic {
            topic: "shop/orders/big".into(),
            partitions: 8,
        },
    );
    go(
        &mut sim,
        Action::SetTopicTraffic {
            topic: "shop/orders/big".into(),
            traffic: Traffic {
                msg_rate_in: 8000.0,
                msg_rate_out: 8000.0,
                throughput_in: 8e6,
                throughput_out: 8e6,
                producers: 8,
                consumers: 8,
            },
        },
    );
    for _ in 0..10 {
        go(&mut sim, Action::Step);
    }
    go(&mut sim, Action::CrashBroker { broker: "b2".into() });
    for _ in 0..5 {
        go(&mut sim, Action::Step);
    }
    go(
        &mut sim,
        Action::AddBroker {
            broker: "b4".into(),
            capacity: Default::default(),
        },
    );
    for _ in 0..5 {
        go(&mut sim, Action::Step);
    }
    go(&mut sim, Action::CrashBroker { broker: "b1".into() });
    for _ in 0..5 {
        go(&mut sim, Action::Step);
    }
    (sim, all)
}

#[test]
fn modular_growth_and_faults() {
    let (sim, ev) = script(Config::profile(Profile::Pulsar4));
    assert_eq!(sim.metrics().len(), 25);
    // 200 topics at 600 msg/s + 8 partitions at 2000 msg/s over 4 bundles (~34 000 msg/s each):
    // the 30 000 msg/s bundle limit forces splits.
    assert!(ev.iter().any(|e| matches!(e, Event::BundleSplit { .. })));
    assert!(sim.namespaces()["shop/orders"].bundles.len() > 4);
    assert_eq!(sim.leader().unwrap().as_str(), "b3");
    let last = sim.metrics().last().unwrap();
    assert_eq!(last.unowned_bundles, 0);
    assert_eq!(last.brokers_alive, 2);
    let views = sim.broker_views();
    assert!(views.iter().filter(|v| v.alive).all(|v| v.overload_line == 85.0));
    assert!(views.iter().filter(|v| !v.alive).all(|v| v.bundles == 0));
    let total: u32 = views.iter().map(|v| v.topics).sum();
    assert_eq!(total, 208);
    // Every event narrates.
    assert!(ev.iter().all(|e| !e.narrate().is_empty()));
    // Views serialise.
    let ring = sim.ring_view("shop/orders", true).unwrap();
    assert!(serde_json::to_string(&ring).unwrap().contains("partition-7"));
    assert!(serde_json::to_string(&sim.metrics()).is_ok());
}

#[test]
fn extensible_and_five_zero_profiles_run() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    let (sim, _) = script(c);
    assert_eq!(sim.metrics().last().unwrap().unowned_bundles, 0);
    let (sim5, _) = script(Config::profile(Profile::Pulsar5));
    assert_eq!(sim5.metrics().last().unwrap().unowned_bundles, 0);
}

#[test]
fn same_seed_same_story() {
    let (a, ea) = script(Config::profile(Profile::Pulsar4));
    let (b, eb) = script(Config::profile(Profile::Pulsar4));
    assert_eq!(
        serde_json::to_string(&ea).unwrap(),
        serde_json::to_string(&eb).unwrap()
    );
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

#[test]
fn proposal_by_cloning_leaves_the_original_alone() {
    let (sim, _) = script(Config::profile(Profile::Pulsar4));
    let before = format!("{sim:?}");
    let mut proposal = sim.clone();
    let ev = proposal.apply(&Action::Step).unwrap();
    assert!(matches!(ev.last(), Some(Event::RoundDone { .. })));
    assert_eq!(before, format!("{sim:?}"));
}

#[test]
fn serde_shape_of_actions() {
    let a: Action = serde_json::from_str(r#"{"op":"create_topic","topic":"a/b/c"}"#).unwrap();
    assert_eq!(
        a,
        Action::CreateTopic {
            topic: "a/b/c".into()
        }
    );
    let a: Action = serde_json::from_str(r#"{"op":"create_namespace","namespace":"a/b"}"#).unwrap();
    assert_eq!(
        a,
        Action::CreateNamespace {
            namespace: "a/b".into(),
            bundles: None
        }
    );
    let s = serde_json::to_string(&Action::SplitBundle {
        namespace: "a/b".into(),
        bundle: "LARGEST".into(),
        algorithm: Some(lbscope::engine::pulsar::config::SplitAlgorithm::TopicCountEquallyDivide),
        boundaries: vec![],
        unload: true,
    })
    .unwrap();
    assert!(s.contains("topic_count_equally_divide"), "{s}");
    let back: Action = serde_json::from_str(&s).unwrap();
    assert!(matches!(back, Action::SplitBundle { unload: true, .. }));
}

#[test]
fn scale_smoke() {
    // 100 brokers, 1024 bundles, 20 000 topics: a few rounds stay quick even unoptimised.
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_maximum_bundles = 4096;
    let mut sim = cluster(c, &[], "big/ns", 1024);
    for i in 0..100 {
        sim.apply(&Action::AddBroker {
            broker: format!("b{i:03}"),
            capacity: Default::default(),
        })
        .unwrap();
    }
    sim.apply(&Action::CreateTopics {
        namespace: "big/ns".into(),
        prefix: "t".into(),
        count: 20_000,
        traffic: traffic(10.0, 0.01, 1, 1),
    })
    .unwrap();
    for _ in 0..3 {
        step(&mut sim);
    }
    assert_eq!(sim.metrics().last().unwrap().unowned_bundles, 0);
}

/// An unknown field inside a Pulsar action (`"bundle": 64` for `bundles`, or one
/// inside a nested struct such as a topic's traffic) refuses the scenario and
/// names the field, instead of running it without it.
#[test]
fn an_unknown_field_in_a_pulsar_action_is_refused_naming_the_field() {
    let with = |action: &str| {
        format!(
            r#"{{"format": 2, "seed": 1, "system": "pulsar", "config": {{}},
               "setup": [{{"op": "add_broker", "broker": "b1"}}, {action}], "actions": []}}"#
        )
    };
    let err = lbscope::scenario::Scenario::from_json(&with(
        r#"{"op": "create_namespace", "namespace": "t/n", "bundle": 64}"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown field `bundle`"), "{err}");
    let err = lbscope::scenario::Scenario::from_json(&with(
        r#"{"op": "set_topic_traffic", "topic": "t/n/a", "traffic": {"msg_rate_in": 1, "msgRateOut": 2}}"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown field `msgRateOut`"), "{err}");
    // The same actions without the stray fields are read.
    assert!(lbscope::scenario::Scenario::from_json(&with(
        r#"{"op": "create_namespace", "namespace": "t/n", "bundles": 64}"#
    ))
    .is_ok());
}
