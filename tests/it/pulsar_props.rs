//! Properties: bundles tile the ring, every topic is in exactly one bundle, no
//! topic is lost by splits / unloads / crashes, and after an assign phase every
//! bundle with topics has one live owner.
#![allow(clippy::field_reassign_with_default)]

use crate::support;

use lbscope::engine::pulsar::bundle::LAST_BOUNDARY;
use lbscope::engine::pulsar::config::{LoadManager, Profile, SplitAlgorithm};
use lbscope::engine::pulsar::traffic::Traffic;
use lbscope::engine::pulsar::{Action, Config, Sim};
use lbscope::engine::Engine;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Topic(u32),
    Traffic(usize, f64),
    Split(usize, u8),
    Unload(usize),
    Crash(usize),
    Restore(usize),
    /// Add (0), change (1) or remove (2) a workload pattern: shape, id, number.
    Workload(u8, u8, u32, f64),
    Step,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u32>().prop_map(Op::Topic),
        2 => (0usize..64, 0.0f64..50_000.0).prop_map(|(i, r)| Op::Traffic(i, r)),
        2 => (0usize..64, 0u8..4).prop_map(|(i, a)| Op::Split(i, a)),
        1 => (0usize..64).prop_map(Op::Unload),
        1 => (0usize..3).prop_map(Op::Crash),
        1 => (0usize..3).prop_map(Op::Restore),
        2 => (0u8..3, 0u8..5, 1u32..4, 0.0f64..3.0).prop_map(|(k, s, id, x)| Op::Workload(k, s, id, x)),
        2 => Just(Op::Step),
    ]
}

fn check(sim: &Sim, topics: usize) {
    let mut seen = 0usize;
    for (name, ns) in sim.namespaces() {
        let b = &ns.bundles;
        assert_eq!(b[0].lower, 0);
        assert_eq!(b.last().unwrap().upper, LAST_BOUNDARY);
        for w in b.windows(2) {
            assert_eq!(w[0].upper, w[1].lower);
            assert!(w[0].lower < w[0].upper);
        }
        let live: Vec<_> = sim
            .bundles()
            .keys()
            .filter(|k| &k.namespace == name)
            .map(|k| k.range)
            .collect();
        assert_eq!(&live, b);
        let mut count = 0u32;
        for r in b {
            let id = lbscope::engine::pulsar::load::BundleId {
                namespace: name.into(),
                range: *r,
            };
            let n = ns.topics_in(*r).len() as u32;
            assert_eq!(sim.bundles()[&id].topics, n);
            count += n;
        }
        assert_eq!(count as usize, ns.topics.len());
        for t in ns.topics.values() {
            assert_eq!(b.iter().filter(|r| r.contains(t.hash)).count(), 1);
        }
        seen += ns.topics.len();
    }
    assert_eq!(seen, topics);
}

/// Apply, and check that every ownership change follows the service-unit state
/// table (`ServiceUnitState.isValidTransition`) unless the channel forced it.
fn checked(
    sim: &mut Sim,
    a: &Action,
) -> Result<Vec<lbscope::engine::pulsar::Event>, lbscope::engine::pulsar::Error> {
    let r = sim.apply(a);
    if let Ok(evs) = &r {
        for e in evs {
            if let lbscope::engine::pulsar::Event::StateChanged {
                bundle,
                from,
                to,
                forced,
                ..
            } = e
            {
                assert!(
                    *forced || from.can_transition(*to),
                    "{bundle}: {from:?} -> {to:?} is not allowed"
                );
            }
        }
    }
    r
}

fn run(manager: LoadManager, ops: &[Op]) {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = manager;
    c.load_balancer_namespace_bundle_max_msg_rate = 20_000.0;
    let mut sim = Sim::new(c, 3).unwrap();
    for b in ["b0", "b1", "b2"] {
        checked(
            &mut sim,
            &Action::AddBroker {
                broker: b.into(),
                capacity: Default::default(),
            },
        )
        .unwrap();
    }
    checked(
        &mut sim,
        &Action::CreateNamespace {
            namespace: "t/n".into(),
            bundles: Some(4),
        },
    )
    .unwrap();
    let mut names: Vec<String> = Vec::new();
    for o in ops {
        match o {
            Op::Topic(h) => {
                let name = format!("t/n/p{}", names.len());
                checked(
                    &mut sim,
                    &Action::CreateTopicWithHash {
                        topic: name.clone(),
                        hash: *h,
                    },
                )
                .unwrap();
                names.push(name);
            }
            Op::Traffic(i, r) if !names.is_empty() => {
                let t = Traffic {
                    msg_rate_in: *r,
                    msg_rate_out: *r,
                    throughput_in: *r * 1000.0,
                    throughput_out: *r * 1000.0,
                    producers: 1,
                    consumers: 2,
                };
                checked(
                    &mut sim,
                    &Action::SetTopicTraffic {
                        topic: names[i % names.len()].clone(),
                        traffic: t,
                    },
                )
                .unwrap();
            }
            Op::Split(i, a) => {
                let ns = &sim.namespaces()["t/n"];
                let r = ns.bundles[i % ns.bundles.len()];
                let alg = [
                    SplitAlgorithm::RangeEquallyDivide,
                    SplitAlgorithm::TopicCountEquallyDivide,
                    SplitAlgorithm::FlowOrQpsEquallyDivide,
                    SplitAlgorithm::SpecifiedPositionsDivide,
                ][*a as usize];
                let before = format!("{sim:?}");
                let res = checked(
                    &mut sim,
                    &Action::SplitBundle {
                        namespace: "t/n".into(),
                        bundle: r.name(),
                        algorithm: Some(alg),
                        boundaries: if alg == SplitAlgorithm::SpecifiedPositionsDivide {
                            vec![r.lower.wrapping_add(r.upper / 2 - r.lower / 2)]
                        } else {
                            vec![]
                        },
                        unload: *i % 2 == 0,
                    },
                );
                if res.is_err() {
                    assert_eq!(before, format!("{sim:?}"));
                }
            }
            Op::Unload(i) => {
                let ns = &sim.namespaces()["t/n"];
                let r = ns.bundles[i % ns.bundles.len()];
                checked(
                    &mut sim,
                    &Action::Unload {
                        namespace: "t/n".into(),
                        bundle: Some(r.name()),
                        destination: None,
                    },
                )
                .unwrap();
            }
            Op::Crash(i) => {
                let _ = checked(
                    &mut sim,
                    &Action::CrashBroker {
                        broker: format!("b{i}"),
                    },
                );
            }
            Op::Restore(i) => {
                let _ = checked(
                    &mut sim,
                    &Action::RestoreBroker {
                        broker: format!("b{i}"),
                    },
                );
            }
            Op::Workload(kind, shape, id, x) => {
                use lbscope::engine::pulsar::workload::{Pattern, Shape, Target};
                let shape = match shape {
                    0 => Shape::Jitter { percent: x * 30.0 },
                    1 => Shape::Wave {
                        period_minutes: 1.0 + x * 10.0,
                        amplitude_percent: x * 30.0,
                        phase_minutes: 0.0,
                    },
                    2 => Shape::Burst {
                        start_round: *id as u64,
                        rounds: 2,
                        multiplier: *x,
                    },
                    3 => Shape::Zipf {
                        total_msg_rate_in: x * 10_000.0,
                        exponent: *x,
                        redraw_every: 2,
                        seed: None,
                    },
                    _ => Shape::Churn {
                        producers: *id,
                        consumers: 1,
                    },
                };
                let target = if *id == 2 {
                    Target::HashRange {
                        namespace: "t/n".into(),
                        lower: 0,
                        upper: 0x8000_0000,
                    }
                } else {
                    Target::All
                };
                let pattern = Pattern { target, shape };
                let a = match kind {
                    0 => Action::AddWorkload { pattern },
                    1 => Action::ChangeWorkload { id: *id, pattern },
                    _ => Action::RemoveWorkload { id: *id },
                };
                let before = format!("{sim:?}");
                if checked(&mut sim, &a).is_err() {
                    assert_eq!(before, format!("{sim:?}"), "a refused {a:?} changed the state");
                }
            }
            Op::Step => {
                checked(&mut sim, &Action::Step).unwrap();
            }
            _ => {}
        }
        check(&sim, names.len());
    }
    checked(&mut sim, &Action::Assign).unwrap();
    if sim.brokers().values().any(|b| b.alive) {
        for s in sim.bundles().values().filter(|s| s.topics > 0) {
            let o = s.owner().expect("owned after assign");
            assert!(sim.brokers()[o].alive);
            assert!(sim.brokers()[o].bundles.len() <= sim.bundles().len());
        }
        for b in sim.brokers().values() {
            for id in &b.bundles {
                assert_eq!(sim.bundles()[id].owner(), Some(&b.id));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(support::proptest_cases()))]

    #[test]
    fn modular_invariants(ops in proptest::collection::vec(op(), 1..60)) {
        run(LoadManager::Modular, &ops);
    }

    #[test]
    fn extensible_invariants(ops in proptest::collection::vec(op(), 1..60)) {
        run(LoadManager::Extensible, &ops);
    }
}
