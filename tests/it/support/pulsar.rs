#![allow(dead_code)]
use lbscope::engine::pulsar::traffic::{Traffic, MIB};
use lbscope::engine::pulsar::{Action, Config, Event, Sim};
use lbscope::engine::Engine;

pub fn cluster(config: Config, brokers: &[&str], ns: &str, bundles: u32) -> Sim {
    let mut sim = Sim::new(config, 42).unwrap();
    for b in brokers {
        sim.apply(&Action::AddBroker {
            broker: b.to_string(),
            capacity: Default::default(),
        })
        .unwrap();
    }
    sim.apply(&Action::CreateNamespace {
        namespace: ns.into(),
        bundles: Some(bundles),
    })
    .unwrap();
    sim
}

pub fn pinned(sim: &mut Sim, topic: &str, hash: u32) -> Vec<Event> {
    sim.apply(&Action::CreateTopicWithHash {
        topic: topic.into(),
        hash,
    })
    .unwrap()
}

pub fn traffic(rate_in: f64, mib_in: f64, producers: u32, consumers: u32) -> Traffic {
    Traffic {
        msg_rate_in: rate_in,
        msg_rate_out: 0.0,
        throughput_in: mib_in * MIB,
        throughput_out: 0.0,
        producers,
        consumers,
    }
}

pub fn set_traffic(sim: &mut Sim, topic: &str, t: Traffic) {
    sim.apply(&Action::SetTopicTraffic {
        topic: topic.into(),
        traffic: t,
    })
    .unwrap();
}

pub fn step(sim: &mut Sim) -> Vec<Event> {
    sim.apply(&Action::Step).unwrap()
}

pub fn splits(ev: &[Event]) -> Vec<(String, Vec<String>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::BundleSplit { bundle, children, .. } => {
                Some((bundle.to_string(), children.iter().map(|c| c.name()).collect()))
            }
            _ => None,
        })
        .collect()
}

/// Apply an action that must fail, and check the state did not change.
pub fn refused(sim: &mut Sim, a: Action) -> lbscope::engine::pulsar::Error {
    let before = format!("{sim:?}");
    let e = sim.apply(&a).unwrap_err();
    assert_eq!(before, format!("{sim:?}"), "state changed on error {e}");
    e
}
