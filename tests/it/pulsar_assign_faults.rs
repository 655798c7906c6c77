//! Lookup / assignment, ownership states, broker crash / join, leader crash, reconnects.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

use lbscope::engine::pulsar::broker::DirectUsage;
use lbscope::engine::pulsar::config::{LoadManager, Profile};
use lbscope::engine::pulsar::load::BrokerId;
use lbscope::engine::pulsar::ownership::ServiceUnitState;
use lbscope::engine::pulsar::{Action, Config, Event};
use lbscope::engine::Engine;
use util::*;

fn four_bundles_with_topics(c: Config) -> lbscope::engine::pulsar::Sim {
    let mut sim = cluster(c, &["b1", "b2"], "t/n", 4);
    for (i, h) in [0x1000_0000u32, 0x5000_0000, 0x9000_0000, 0xD000_0000]
        .iter()
        .enumerate()
    {
        pinned(&mut sim, &format!("t/n/x{i}"), *h);
        set_traffic(&mut sim, &format!("t/n/x{i}"), traffic(100.0, 0.1, 1, 1));
    }
    sim
}

#[test]
fn creating_a_topic_looks_it_up_and_redirects_clients() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 4);
    let ev = pinned(&mut sim, "t/n/a", 7);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Lookup { broker, .. } if broker.as_str() == "b1")));
    assert_eq!(sim.owner_of_topic("t/n/a").unwrap().as_str(), "b1");
    // A second lookup is answered by the owner.
    let ev = sim
        .apply(&Action::Lookup {
            topic: "t/n/a".into(),
        })
        .unwrap();
    assert!(matches!(&ev[0], Event::Lookup { how, .. } if how == "already owned"));
    // Bundles without topics are not assigned.
    assert_eq!(sim.bundles().values().filter(|b| b.owner().is_some()).count(), 1);
}

#[test]
fn distribute_evenly_spreads_a_namespace() {
    let sim = four_bundles_with_topics(Config::profile(Profile::Pulsar4));
    let b1 = &sim.brokers()[&BrokerId("b1".into())];
    let b2 = &sim.brokers()[&BrokerId("b2".into())];
    assert_eq!((b1.bundles.len(), b2.bundles.len()), (2, 2));
    let ev: Vec<String> = sim.bundles().keys().map(|b| b.to_string()).collect();
    assert_eq!(ev.len(), 4);
}

#[test]
fn overloaded_pick_is_retried_among_all_brokers() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1", "b2"], "t/n", 4);
    sim.apply(&Action::SetBrokerLoad {
        broker: "b1".into(),
        usage: DirectUsage {
            cpu: Some(95.0),
            ..Default::default()
        },
    })
    .unwrap();
    sim.apply(&Action::Report).unwrap();
    let ev = pinned(&mut sim, "t/n/a", 7);
    let how: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Lookup { how, broker, .. } => Some(format!("{broker}: {how}")),
            _ => None,
        })
        .collect();
    if how[0].starts_with("b1") {
        assert!(how[0].contains("overloaded (95.0% > 85.0%)"), "{how:?}");
    }
}

#[test]
fn extensible_assignment_goes_through_assigning() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    let mut sim = cluster(c, &["b1"], "t/n", 4);
    let ev = pinned(&mut sim, "t/n/a", 7);
    let st: Vec<(ServiceUnitState, ServiceUnitState)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::StateChanged { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    assert_eq!(
        st,
        vec![
            (ServiceUnitState::Init, ServiceUnitState::Assigning),
            (ServiceUnitState::Assigning, ServiceUnitState::Owned)
        ]
    );
}

#[test]
fn modular_crash_orphans_then_next_lookup_reassigns() {
    let mut sim = four_bundles_with_topics(Config::profile(Profile::Pulsar4));
    let ev = sim.apply(&Action::CrashBroker { broker: "b2".into() }).unwrap();
    let orphaned = match &ev[0] {
        Event::BrokerCrashed { orphaned, .. } => orphaned.len(),
        e => panic!("{e:?}"),
    };
    assert_eq!(orphaned, 2);
    let reconnects: u32 = ev
        .iter()
        .map(|e| match e {
            Event::Reconnected { topics, .. } => *topics,
            _ => 0,
        })
        .sum();
    assert_eq!(reconnects, 2);
    assert_eq!(
        sim.bundles()
            .values()
            .filter(|b| b.topics > 0 && b.owner().is_none())
            .count(),
        2
    );
    sim.apply(&Action::Assign).unwrap();
    assert!(sim
        .bundles()
        .values()
        .filter(|b| b.topics > 0)
        .all(|b| b.owner().unwrap().as_str() == "b1"));
    let ring = sim.ring_view("t/n", true).unwrap();
    let total: u64 = ring
        .bundles
        .iter()
        .flat_map(|b| &b.topic_list)
        .map(|t| t.reconnects)
        .sum();
    assert_eq!(total, 2);
}

#[test]
fn extensible_crash_reassigns_at_once() {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    let mut sim = four_bundles_with_topics(c);
    let ev = sim.apply(&Action::CrashBroker { broker: "b1".into() }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::StateChanged {
            forced: true,
            to: ServiceUnitState::Free,
            ..
        }
    )));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::LeaderElected { broker, .. } if broker.as_str() == "b2")));
    assert!(sim
        .bundles()
        .values()
        .filter(|b| b.topics > 0)
        .all(|b| b.owner().unwrap().as_str() == "b2"));
}

#[test]
fn leader_crash_elects_the_oldest_alive_and_join_does_not_take_over() {
    let mut sim = four_bundles_with_topics(Config::profile(Profile::Pulsar4));
    assert_eq!(sim.leader().unwrap().as_str(), "b1");
    sim.apply(&Action::AddBroker {
        broker: "b3".into(),
        capacity: Default::default(),
    })
    .unwrap();
    assert_eq!(sim.leader().unwrap().as_str(), "b1");
    let ev = sim.apply(&Action::CrashBroker { broker: "b1".into() }).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::LeaderElected { broker, previous: Some(p) } if broker.as_str() == "b2" && p.as_str() == "b1")
    ));
    sim.apply(&Action::RestoreBroker { broker: "b1".into() }).unwrap();
    assert_eq!(sim.leader().unwrap().as_str(), "b2");
    // All crash: no leader; one comes back and leads.
    for b in ["b1", "b2", "b3"] {
        sim.apply(&Action::CrashBroker { broker: b.into() }).unwrap();
    }
    assert!(sim.leader().is_none());
    let ev = step(&mut sim);
    assert!(ev.iter().any(|e| matches!(e, Event::NoBrokerAvailable { .. })));
    sim.apply(&Action::RestoreBroker { broker: "b3".into() }).unwrap();
    assert_eq!(sim.leader().unwrap().as_str(), "b3");
    step(&mut sim);
    assert!(sim
        .bundles()
        .values()
        .filter(|b| b.topics > 0)
        .all(|b| b.owner().unwrap().as_str() == "b3"));
}

#[test]
fn broker_errors_leave_state_unchanged() {
    let mut sim = four_bundles_with_topics(Config::profile(Profile::Pulsar4));
    refused(
        &mut sim,
        Action::CrashBroker {
            broker: "nope".into(),
        },
    );
    refused(&mut sim, Action::RestoreBroker { broker: "b1".into() });
    refused(
        &mut sim,
        Action::AddBroker {
            broker: "b1".into(),
            capacity: Default::default(),
        },
    );
    let mut cap = lbscope::engine::pulsar::broker::Capacity::default();
    cap.cpu_cores = 0.0;
    refused(
        &mut sim,
        Action::SetBrokerCapacity {
            broker: "b1".into(),
            capacity: cap,
        },
    );
    sim.apply(&Action::CrashBroker { broker: "b1".into() }).unwrap();
    refused(&mut sim, Action::CrashBroker { broker: "b1".into() });
}

#[test]
fn shedding_wrapper_rules() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 4);
    let ev = sim.apply(&Action::Shed).unwrap();
    assert!(
        matches!(&ev[0], Event::SheddingSkipped { reason } if reason.to_string().contains("Only 1 broker"))
    );
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_shedding_enabled = false;
    sim.apply(&Action::whole_config(&c)).unwrap();
    sim.apply(&Action::AddBroker {
        broker: "b2".into(),
        capacity: Default::default(),
    })
    .unwrap();
    let ev = sim.apply(&Action::Shed).unwrap();
    assert!(
        matches!(&ev[0], Event::SheddingSkipped { reason } if reason.to_string().contains("loadBalancerSheddingEnabled"))
    );
}
