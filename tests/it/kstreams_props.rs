//! Property tests over random clusters and action sequences.

use crate::support;

use lbscope::engine::kstreams::{Action, AssignorKind, Config, RackStrategy, Sim, SubtopologySpec};
use lbscope::engine::Engine;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug)]
struct Setup {
    partitions: Vec<u32>,
    stateful: Vec<bool>,
    threads: Vec<u32>,
    standbys: u32,
    sticky: bool,
    racks: bool,
    steps: Vec<(u8, u8, u32)>,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::collection::vec(1u32..9, 1..4),
        prop::collection::vec(any::<bool>(), 3),
        prop::collection::vec(1u32..4, 1..7),
        0u32..3,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec((0u8..8, 0u8..8, 0u32..400_000), 0..12),
    )
        .prop_map(
            |(partitions, stateful, threads, standbys, sticky, racks, steps)| Setup {
                partitions,
                stateful,
                threads,
                standbys,
                sticky,
                racks,
                steps,
            },
        )
}

fn build(s: &Setup) -> (Sim, Vec<String>) {
    let cfg = Config {
        num_standby_replicas: s.standbys,
        task_assignor: if s.sticky {
            AssignorKind::Sticky
        } else {
            AssignorKind::HighAvailability
        },
        rack_aware_assignment_strategy: if s.racks {
            RackStrategy::MinTraffic
        } else {
            RackStrategy::None
        },
        ..Config::default()
    };
    let mut sim = Sim::new(cfg, 11).unwrap();
    let racks = vec!["r0".to_string(), "r1".to_string(), "r2".to_string()];
    for (i, &p) in s.partitions.iter().enumerate() {
        sim.apply(&Action::DefineTopic {
            topic: format!("t{i}"),
            partitions: p,
            racks: racks.clone(),
            replication_factor: 2,
        })
        .unwrap();
    }
    let mut names = Vec::new();
    for (i, &th) in s.threads.iter().enumerate() {
        let n = format!("i{i}");
        sim.apply(&Action::AddInstance {
            name: n.clone(),
            threads: Some(th),
            rack: Some(racks[i % 3].clone()),
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
        names.push(n);
    }
    let subs: Vec<SubtopologySpec> = (0..s.partitions.len())
        .map(|i| SubtopologySpec {
            sources: vec![format!("t{i}")],
            stores: if s.stateful[i] {
                vec![format!("s{i}")]
            } else {
                vec![]
            },
            changelog: true,
        })
        .collect();
    sim.apply(&Action::DefineTopology {
        subtopologies: subs,
        copartition_groups: vec![],
    })
    .unwrap();
    (sim, names)
}

fn check(sim: &Sim) -> Result<(), TestCaseError> {
    let members: BTreeSet<String> = sim.members().iter().map(|m| m.name.clone()).collect();
    let mut warm = 0;
    for t in sim.tasks() {
        let owners: Vec<&str> = sim
            .instances()
            .values()
            .filter(|i| i.active_tasks().contains(&t.id))
            .map(|i| i.name.as_str())
            .collect();
        if members.is_empty() {
            prop_assert!(owners.is_empty());
            continue;
        }
        prop_assert_eq!(owners.len(), 1, "task {} has owners {:?}", t.id, owners);
        prop_assert!(members.contains(owners[0]));
        for i in sim.instances().values() {
            let copies = i
                .threads
                .iter()
                .map(|th| {
                    th.active
                        .iter()
                        .chain(th.standby.iter())
                        .filter(|x| **x == t.id)
                        .count()
                })
                .sum::<usize>();
            prop_assert!(copies <= 1, "{} holds {} twice", i.name, t.id);
        }
        prop_assert!(
            !sim.standby_owners(t.id).contains(&owners[0]),
            "standby of {} on its active's instance",
            t.id
        );
    }
    for i in sim.instances().values() {
        warm += i.warmups.len();
        if !i.is_member() {
            prop_assert!(i.active_tasks().is_empty() && i.standby_tasks().is_empty());
            continue;
        }
        let loads: Vec<usize> = i
            .threads
            .iter()
            .map(|t| t.active.len() + t.standby.len())
            .collect();
        let (lo, hi) = (
            loads.iter().min().copied().unwrap_or(0),
            loads.iter().max().copied().unwrap_or(0),
        );
        prop_assert!(hi - lo <= 1, "{} thread loads {:?}", i.name, loads);
    }
    prop_assert!(
        warm as u32 <= sim.config().max_warmup_replicas,
        "{} warm-ups",
        warm
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(support::proptest_cases()))]

    #[test]
    fn invariants_hold_through_random_actions(s in setup()) {
        let (mut sim, names) = build(&s);
        check(&sim)?;
        for &(op, who, n) in &s.steps {
            let name = names[who as usize % names.len()].clone();
            let topic = format!("t{}", who as usize % s.partitions.len());
            let a = match op {
                0 => Action::CrashInstance { name },
                1 => Action::RestartInstance { name },
                2 => Action::AddThread { instance: name },
                3 => Action::RemoveThread { instance: name, thread: None },
                4 => Action::Produce { topic, key: None, partition: None, records: u64::from(n) + 1 },
                5 => Action::Produce { topic, key: Some(format!("k{n}")), partition: None, records: u64::from(n) + 1 },
                6 => Action::AdvanceTime { ms: u64::from(n) * 5 },
                _ => Action::Rebalance,
            };
            let before = sim.view();
            match sim.apply(&a) {
                Ok(_) => {}
                Err(_) => prop_assert_eq!(sim.view(), before, "refused {:?} changed state", a),
            }
            check(&sim)?;
        }
    }

    #[test]
    fn equal_capacities_balance_actives_within_one(parts in 1u32..40, n in 1usize..8) {
        let mut sim = Sim::new(Config::default(), 5).unwrap();
        sim.apply(&Action::DefineTopic { topic: "in".into(), partitions: parts, racks: vec![], replication_factor: 1 }).unwrap();
        for i in 0..n {
            sim.apply(&Action::AddInstance { name: format!("i{i}"), threads: Some(2), rack: None, tags: BTreeMap::new(), process_id: None }).unwrap();
        }
        sim.apply(&Action::DefineTopology { subtopologies: vec![SubtopologySpec { sources: vec!["in".into()], stores: vec!["s".into()], changelog: true }], copartition_groups: vec![] }).unwrap();
        let loads: Vec<usize> = sim.instances().values().map(|i| i.active_tasks().len()).collect();
        let (lo, hi) = (loads.iter().min().copied().unwrap_or(0), loads.iter().max().copied().unwrap_or(0));
        prop_assert!(hi - lo <= 1, "{:?}", loads);
        prop_assert!(loads.iter().filter(|l| **l > 0).count() <= parts as usize);
    }
}
