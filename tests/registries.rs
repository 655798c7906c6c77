//! Every registered strategy under random action sequences: for each system,
//! every combination of the values of its strategy keys (the registry entries
//! of `Engine::strategies()`, and the choices of its other compare keys, such
//! as Pulsar's `loadManagerClassName`) runs seeded random sequences and checks
//! `Engine::invariants()` after every action; a refused action must leave the
//! state as it was.
//!
//! `LBSCOPE_PROPTEST_CASES` sets the sequences per configuration (4 by default;
//! the README's Reliability section gives the full run's figures).

use lbscope::engine::schema::{knob, Kind, Patch, Schema};
use lbscope::engine::{flink, kstreams, pulsar, Engine, SimRng};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Sequences per configuration.
fn cases() -> u64 {
    std::env::var("LBSCOPE_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

/// Actions per sequence.
const STEPS: usize = 40;

/// What the test needs of an engine beyond [`Engine`]: a small cluster to
/// start from and a random next action.
trait Drive: Engine {
    /// Actions that build the starting cluster.
    fn setup() -> Vec<Self::Action>;
    /// A random action for `sim`.
    fn random(sim: &Self, rng: &mut SimRng) -> Self::Action;
    /// Further keys to cross with every configuration, beyond the compare keys
    /// (the options that change what a strategy does without selecting it, such
    /// as Kafka Streams' standby count and client tags).
    fn extra_choices() -> Vec<(&'static str, Vec<Value>)> {
        Vec::new()
    }
}

/// The choices of the compare keys that no registry entry sets (such as
/// Pulsar's `loadManagerClassName`), to cross with every entry.
fn other_choices<E: Drive>() -> BTreeMap<&'static str, Vec<Value>> {
    let strategy_keys: BTreeSet<&str> = E::strategies().iter().map(|s| s.key).collect();
    let mut keys = BTreeMap::new();
    for key in <E::Config as Schema>::compare_keys() {
        if strategy_keys.contains(key) {
            continue;
        }
        if let Some(Kind::Choice(opts)) = knob::<E::Config>(key).map(|k| k.kind) {
            keys.insert(*key, opts.iter().map(|o| Value::String(o.to_string())).collect());
        }
    }
    keys.extend(E::extra_choices());
    keys
}

/// One configuration to run: its label, the registry entries it selects
/// (indices into `Engine::strategies()`), and the config or why it is refused.
type Configuration<C> = (String, Vec<usize>, Result<C, String>);

/// Every registry entry alone (selected as `Engine::strategy_config` selects
/// it) and every pair of entries of different keys (a Pulsar shedder with each
/// placement), crossed with every combination of [`other_choices`], over each
/// profile. A system without a registry gives none (its own property suite
/// covers it).
fn configurations<E: Drive>() -> Vec<Configuration<E::Config>> {
    let infos = E::strategies();
    if infos.is_empty() {
        return Vec::new();
    }
    let mut combos: Vec<Vec<(&'static str, Value)>> = vec![vec![]];
    for (key, values) in &other_choices::<E>() {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((*key, v.clone()));
                    c
                })
            })
            .collect();
    }
    let default = E::Config::default();
    // An entry's own key is always set, even to the default's value: applied
    // over another profile, whose default may differ, it still selects the entry.
    let entry = |info: &lbscope::engine::strategy::StrategyInfo| {
        let selected = E::strategy_config(info).expect("a registry entry selects a valid config");
        let mut values = Patch::<E::Config>::between(&default, &selected).values().clone();
        let own = serde_json::from_str(info.name).unwrap_or_else(|_| Value::String(info.name.into()));
        values.entry(info.key.to_string()).or_insert(own);
        values
    };
    let mut selections: Vec<(String, Vec<usize>, BTreeMap<String, Value>)> = Vec::new();
    for (i, a) in infos.iter().enumerate() {
        selections.push((format!("{}={}", a.key, a.name), vec![i], entry(a)));
        for (j, b) in infos
            .iter()
            .enumerate()
            .skip(i + 1)
            .filter(|(_, b)| b.key != a.key)
        {
            let mut both = entry(a);
            both.extend(entry(b));
            selections.push((
                format!("{}={} {}={}", a.key, a.name, b.key, b.name),
                vec![i, j],
                both,
            ));
        }
    }
    let mut out = Vec::new();
    for (profile, base) in <E::Config as Schema>::profiles() {
        for (name, entries, values) in &selections {
            for combo in &combos {
                // An entry that sets a crossed key itself (an adaptive resolver
                // sets `jobmanager.scheduler`) runs with its own value only.
                if combo
                    .iter()
                    .any(|(k, v)| values.get(*k).is_some_and(|own| own != v))
                {
                    continue;
                }
                let label = format!(
                    "{} {profile} {name} {}",
                    E::SYSTEM.slug(),
                    combo
                        .iter()
                        .map(|(k, v)| match v {
                            Value::String(s) => format!("{k}={s}"),
                            v => format!("{k}={v}"),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                let mut patch = Patch::<E::Config>::new();
                for (k, v) in values {
                    patch = patch.set(k, v.clone()).expect("an entry's keys are known");
                }
                for (k, v) in combo {
                    patch = patch
                        .set(k, v.clone())
                        .expect("a crossed key's value is a valid choice");
                }
                let config = patch
                    .apply_to(&base)
                    .map_err(|e| e.to_string())
                    .and_then(|c| c.rules().map(|()| c));
                out.push((label, entries.clone(), config));
            }
        }
    }
    out
}

/// Run the sequences for one configuration; the number of actions applied.
fn run<E: Drive>(label: &str, config: &E::Config, cases: u64) -> u64 {
    let mut applied = 0;
    for case in 0..cases {
        let mut sim = match E::new(config.clone(), case) {
            Ok(s) => s,
            Err(e) => panic!("{label}: the engine refused a config its rules accept: {e}"),
        };
        let mut done: Vec<E::Action> = Vec::new();
        for a in E::setup() {
            sim.apply(&a)
                .unwrap_or_else(|e| panic!("{label}: setup {a:?} refused: {e}"));
            done.push(a);
        }
        let mut rng = SimRng::new(case.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed);
        for _ in 0..STEPS {
            let a = E::random(&sim, &mut rng);
            // A copy of the (small) state is cheaper than its view; the views
            // are compared only when the action is refused.
            let before = sim.clone();
            done.push(a.clone());
            match sim.apply(&a) {
                Ok(_) => applied += 1,
                Err(_) => assert_eq!(
                    E::view_json(&before),
                    E::view_json(&sim),
                    "{label} case {case}: a refused action changed the state: {done:?}"
                ),
            }
            if let Err(broken) = sim.invariants() {
                panic!("{label} case {case}: {broken} after {done:?}");
            }
        }
    }
    applied
}

/// Every configuration of `E`: the ones its rules accept run; a refused one
/// must say why. Each registry entry must run in at least one.
fn every_configuration<E: Drive>() {
    let n = cases();
    let started = std::time::Instant::now();
    let mut actions = 0u64;
    let mut ran: BTreeSet<usize> = BTreeSet::new();
    let configs = configurations::<E>();
    for (label, entries, config) in &configs {
        match config {
            Ok(c) => {
                actions += run::<E>(label, c, n);
                ran.extend(entries.iter().copied());
            }
            Err(why) => assert!(!why.is_empty(), "{label}: refused without a reason"),
        }
    }
    for (i, s) in E::strategies().iter().enumerate() {
        assert!(
            ran.contains(&i),
            "{} {}={} ran in no configuration",
            E::SYSTEM.slug(),
            s.key,
            s.name
        );
    }
    let ok = configs.iter().filter(|(_, _, c)| c.is_ok()).count();
    eprintln!(
        "{}: {ok} configurations ({} refused with their reason) × {n} sequences of {STEPS} actions ({actions} applied), {:.1} s",
        E::SYSTEM.slug(),
        configs.len() - ok,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn pulsar_every_registered_strategy_keeps_the_invariants() {
    every_configuration::<pulsar::Sim>();
}

#[test]
fn flink_every_registered_strategy_keeps_the_invariants() {
    every_configuration::<flink::Sim>();
}

#[test]
fn kstreams_every_registered_strategy_keeps_the_invariants() {
    every_configuration::<kstreams::Sim>();
}

/// Every registry entry names an upstream class, a summary and a file that exists.
#[test]
fn every_registry_entry_is_described() {
    let all = [
        pulsar::Sim::strategies(),
        flink::Sim::strategies(),
        kstreams::Sim::strategies(),
    ];
    for s in all.iter().flatten() {
        assert!(!s.upstream.is_empty() && !s.summary.is_empty(), "{s:?}");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/engine")
            .join(s.file);
        assert!(path.is_file(), "{s:?}: no file {}", path.display());
    }
    let names: Vec<&str> = pulsar::Sim::strategies()
        .iter()
        .filter(|s| s.key == "loadBalancerLoadSheddingStrategy")
        .map(|s| s.name)
        .collect();
    assert_eq!(
        names,
        pulsar::config::SheddingStrategy::NAMES,
        "the shedders' registry and the config's choices are one list"
    );
}

/// Derived by reading `ModularLoadManagerImpl.initialize` /
/// `createLoadSheddingStrategy` and `Reflections.createInstance`: the modular
/// load manager instantiates `loadBalancerLoadSheddingStrategy` as a
/// `LoadSheddingStrategy`; a class that does not implement it (TransferShedder
/// is a `NamespaceUnloadStrategy`) makes `createInstance` throw, and the load
/// manager does not start. lbscope refuses the config, from a scenario and
/// from a `set_config` action alike, and leaves the state as it was.
#[test]
fn modular_load_manager_impl_create_load_shedding_strategy_refuses_a_class_that_is_not_a_load_shedding_strategy(
) {
    use pulsar::config::{LoadManager, Profile, SheddingStrategy};
    use pulsar::shed::Interface;
    let foreign: Vec<SheddingStrategy> = SheddingStrategy::ALL
        .iter()
        .copied()
        .filter(|s| s.interface() != Interface::Modular)
        .collect();
    assert!(foreign.contains(&SheddingStrategy::TransferShedder));
    for s in foreign {
        for profile in [Profile::Pulsar4, Profile::Pulsar5] {
            let mut c = pulsar::Config::profile(profile);
            c.load_manager_class_name = LoadManager::Modular;
            c.load_balancer_load_shedding_strategy = s;
            let err = pulsar::Sim::new(c.clone(), 1).unwrap_err().to_string();
            assert!(
                err.contains("does not implement org.apache.pulsar.broker.loadbalance.LoadSheddingStrategy"),
                "{err}"
            );
            assert!(err.contains(s.name()), "{err}");

            let mut sim = pulsar::Sim::new(pulsar::Config::profile(profile), 1).unwrap();
            let before = sim.clone();
            let change = pulsar::Sim::set_config(
                lbscope::engine::schema::ConfigChange::one(
                    "loadBalancerLoadSheddingStrategy",
                    Value::String(s.name().into()),
                )
                .unwrap(),
            );
            let err = sim.apply(&change).unwrap_err().to_string();
            assert!(err.contains("ModularLoadManagerImpl"), "{err}");
            assert_eq!(
                format!("{:?}", sim.view_json()),
                format!("{:?}", before.view_json())
            );
        }
    }
    // The extensible load manager accepts it.
    let mut c = pulsar::Config::profile(Profile::Pulsar5);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_load_shedding_strategy = SheddingStrategy::TransferShedder;
    assert!(pulsar::Sim::new(c, 1).is_ok());
}

/// Derived by reading the 4.x `ModularLoadManagerImpl.initialize`: when the
/// placement strategy is itself a `LoadSheddingStrategy` (AvgShedder) and
/// `loadBalancerLoadSheddingStrategy` names another class, `initialize` throws
/// `IllegalArgumentException` and the load manager does not start. lbscope's
/// 4.x profile refuses that config from a scenario's `config` and from a
/// `set_config` action alike, leaving the state as it was.
#[test]
fn modular_load_manager_impl_initialize_refuses_avg_shedder_placement_with_another_shedder_on_4_x() {
    use pulsar::config::{PlacementStrategy, Profile, SheddingStrategy};
    for s in SheddingStrategy::ALL
        .iter()
        .copied()
        .filter(|s| *s != SheddingStrategy::AvgShedder && *s != SheddingStrategy::TransferShedder)
    {
        // A scenario's config.
        let json = format!(
            r#"{{"format": 2, "seed": 1, "system": "pulsar",
                "config": {{"profile": "pulsar-4.x", "loadBalancerLoadSheddingStrategy": "{}",
                            "loadBalancerLoadPlacementStrategy": "AvgShedder"}},
                "setup": [], "actions": []}}"#,
            s.name()
        );
        let err = match lbscope::scenario::Scenario::from_json(&json) {
            Err(e) => e.to_string(),
            Ok(sc) => lbscope::scenario::run::event_log(&sc).unwrap_err().to_string(),
        };
        assert!(err.contains("IllegalArgumentException"), "{s:?}: {err}");

        // A set_config action.
        let mut sim = pulsar::Sim::new(pulsar::Config::profile(Profile::Pulsar4), 1).unwrap();
        let before = format!("{sim:?}");
        let mut c = pulsar::Config::profile(Profile::Pulsar4);
        c.load_balancer_load_shedding_strategy = s;
        c.load_balancer_load_placement_strategy = PlacementStrategy::AvgShedder;
        let err = sim
            .apply(&pulsar::Action::whole_config(&c))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("IllegalArgumentException") && err.contains(s.name()),
            "{err}"
        );
        assert_eq!(before, format!("{sim:?}"));
    }
    // Both AvgShedder: accepted.
    let mut c = pulsar::Config::profile(Profile::Pulsar4);
    c.load_balancer_load_shedding_strategy = SheddingStrategy::AvgShedder;
    c.load_balancer_load_placement_strategy = PlacementStrategy::AvgShedder;
    assert!(pulsar::Sim::new(c, 1).is_ok());
}

/// The 5.0 profile's pairing, from `ModularLoadManagerImplStrategyTest`
/// (`createLoadBalanceStrategies`): each fn is named after the upstream test
/// method and checks its assertions on the effective config.
mod modular_load_manager_impl_strategy_test {
    use lbscope::engine::pulsar::config::{PlacementStrategy, Profile, SheddingStrategy};
    use lbscope::engine::pulsar::{Config, Sim};
    use lbscope::engine::Engine;

    fn effective(c: Config) -> (SheddingStrategy, PlacementStrategy) {
        let sim = Sim::new(c, 1).unwrap();
        let e = sim.effective_config();
        (
            e.load_balancer_load_shedding_strategy,
            e.load_balancer_load_placement_strategy,
        )
    }

    /// From testDefaultsPairAvgShedderForSheddingAndPlacement's assertions.
    #[test]
    fn test_defaults_pair_avg_shedder_for_shedding_and_placement() {
        let c = Config::profile(Profile::Pulsar5);
        assert_eq!(
            c.load_balancer_load_shedding_strategy,
            SheddingStrategy::AvgShedder
        );
        assert_eq!(
            c.load_balancer_load_placement_strategy,
            PlacementStrategy::AvgShedder
        );
        assert_eq!(c.max_unload_percentage, 0.5);
        assert!(!c.load_balancer_distribute_bundles_evenly_enabled);
        assert_eq!(
            effective(c),
            (SheddingStrategy::AvgShedder, PlacementStrategy::AvgShedder)
        );
    }

    /// From testExplicitClassicShedderFallsBackToLeastLongTermMessageRatePlacement's assertions.
    #[test]
    fn test_explicit_classic_shedder_falls_back_to_least_long_term_message_rate_placement() {
        let mut c = Config::profile(Profile::Pulsar5);
        c.load_balancer_load_shedding_strategy = SheddingStrategy::ThresholdShedder;
        assert_eq!(
            effective(c),
            (
                SheddingStrategy::ThresholdShedder,
                PlacementStrategy::LeastLongTermMessageRate
            )
        );
    }

    /// From testExplicitPlacementIsKeptWithClassicShedder's assertions.
    #[test]
    fn test_explicit_placement_is_kept_with_classic_shedder() {
        let mut c = Config::profile(Profile::Pulsar5);
        c.load_balancer_load_shedding_strategy = SheddingStrategy::ThresholdShedder;
        c.load_balancer_load_placement_strategy = PlacementStrategy::LeastResourceUsageWithWeight;
        assert_eq!(
            effective(c),
            (
                SheddingStrategy::ThresholdShedder,
                PlacementStrategy::LeastResourceUsageWithWeight
            )
        );
    }

    /// From testAvgShedderSheddingWithOtherPlacementIsNotPaired's assertions.
    #[test]
    fn test_avg_shedder_shedding_with_other_placement_is_not_paired() {
        let mut c = Config::profile(Profile::Pulsar5);
        c.load_balancer_load_placement_strategy = PlacementStrategy::LeastResourceUsageWithWeight;
        assert_eq!(
            effective(c),
            (
                SheddingStrategy::AvgShedder,
                PlacementStrategy::LeastResourceUsageWithWeight
            )
        );
    }
}

impl Drive for pulsar::Sim {
    fn setup() -> Vec<pulsar::Action> {
        use pulsar::Action;
        let mut v: Vec<Action> = (0..4)
            .map(|i| Action::AddBroker {
                broker: format!("b{i}"),
                capacity: Default::default(),
            })
            .collect();
        v.push(Action::CreateNamespace {
            namespace: "t/n".into(),
            bundles: Some(4),
        });
        v
    }

    fn random(sim: &Self, rng: &mut SimRng) -> pulsar::Action {
        use pulsar::config::SplitAlgorithm;
        use pulsar::traffic::Traffic;
        use pulsar::Action;
        let ns = &sim.namespaces()["t/n"];
        let topics: Vec<String> = ns.topics.keys().map(ToString::to_string).collect();
        let bundle = ns.bundles[rng.below(ns.bundles.len())];
        match rng.below(12) {
            0 | 1 => Action::CreateTopicWithHash {
                topic: format!("t/n/p{}", rng.below(1_000_000)),
                hash: rng.next_u64() as u32,
            },
            2 | 3 if !topics.is_empty() => {
                let r = rng.unit() * 60_000.0;
                Action::SetTopicTraffic {
                    topic: topics[rng.below(topics.len())].clone(),
                    traffic: Traffic {
                        msg_rate_in: r,
                        msg_rate_out: r * rng.unit() * 2.0,
                        throughput_in: r * 1000.0,
                        throughput_out: r * 1500.0,
                        producers: 1,
                        consumers: 2,
                    },
                }
            }
            4 => {
                let alg = [
                    SplitAlgorithm::RangeEquallyDivide,
                    SplitAlgorithm::TopicCountEquallyDivide,
                    SplitAlgorithm::FlowOrQpsEquallyDivide,
                ][rng.below(3)];
                Action::SplitBundle {
                    namespace: "t/n".into(),
                    bundle: bundle.name(),
                    algorithm: Some(alg),
                    boundaries: vec![],
                    unload: rng.below(2) == 0,
                }
            }
            5 => Action::Unload {
                namespace: "t/n".into(),
                bundle: Some(bundle.name()),
                destination: None,
            },
            6 => Action::CrashBroker {
                broker: format!("b{}", rng.below(4)),
            },
            7 => Action::RestoreBroker {
                broker: format!("b{}", rng.below(4)),
            },
            _ => Action::Step,
        }
    }
}

impl Drive for flink::Sim {
    fn setup() -> Vec<flink::Action> {
        use flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
        use flink::Action;
        let v = |name: &str, p: u32| VertexSpec {
            name: name.into(),
            parallelism: p,
            slot_sharing_group: None,
            co_location_group: None,
        };
        let job = JobSpec {
            vertices: vec![v("Source", 4), v("Map", 3), v("Sink", 2)],
            edges: vec![
                EdgeSpec::new("Source", "Map", DistributionPattern::Rescale),
                EdgeSpec::new("Map", "Sink", DistributionPattern::Hash),
            ],
        };
        let mut out = vec![Action::DefineJob { job }];
        for _ in 0..3 {
            out.push(Action::AddTaskManager {
                name: None,
                slots: Some(2),
            });
        }
        out
    }

    /// Both schedulers (the adaptive one with every request slot matching
    /// strategy, besides its own resolvers).
    fn extra_choices() -> Vec<(&'static str, Vec<Value>)> {
        vec![(
            "jobmanager.scheduler",
            vec![Value::from("default"), Value::from("adaptive")],
        )]
    }

    fn random(_sim: &Self, rng: &mut SimRng) -> flink::Action {
        use flink::Action;
        let tm = format!("tm-{}", rng.below(4));
        match rng.below(6) {
            0 => Action::AddTaskManager {
                name: None,
                slots: Some(1 + rng.below(4) as u32),
            },
            1 => Action::LoseTaskManager {
                tm,
                restart_after_ms: (rng.below(2) == 0).then(|| rng.below(10_000) as u64),
            },
            2 => Action::RestoreTaskManager { tm },
            3 => Action::RemoveTaskManager { tm },
            _ => Action::Schedule,
        }
    }
}

impl Drive for kstreams::Sim {
    fn setup() -> Vec<kstreams::Action> {
        use kstreams::{Action, SubtopologySpec};
        let racks = vec!["r0".to_string(), "r1".to_string(), "r2".to_string()];
        let mut out = Vec::new();
        for (i, p) in [6u32, 4].into_iter().enumerate() {
            out.push(Action::DefineTopic {
                topic: format!("t{i}"),
                partitions: p,
                racks: racks.clone(),
                replication_factor: 2,
            });
        }
        for i in 0..3 {
            out.push(Action::AddInstance {
                name: format!("i{i}"),
                threads: Some(2),
                rack: Some(racks[i % 3].clone()),
                // The tag the tag-aware standby entry spreads copies over.
                tags: BTreeMap::from([("zone".to_string(), racks[i % 3].clone())]),
                process_id: None,
            });
        }
        out.push(Action::DefineTopology {
            subtopologies: (0..2)
                .map(|i| SubtopologySpec {
                    sources: vec![format!("t{i}")],
                    stores: vec![format!("s{i}")],
                    changelog: true,
                })
                .collect(),
            copartition_groups: vec![],
        });
        out
    }

    fn random(_sim: &Self, rng: &mut SimRng) -> kstreams::Action {
        use kstreams::Action;
        let name = format!("i{}", rng.below(4));
        let n = rng.below(100) as u64;
        match rng.below(8) {
            0 => Action::CrashInstance { name },
            1 => Action::RestartInstance { name },
            2 => Action::AddThread { instance: name },
            3 => Action::RemoveThread {
                instance: name,
                thread: None,
            },
            4 => Action::Produce {
                topic: format!("t{}", rng.below(2)),
                key: (rng.below(2) == 0).then(|| format!("k{n}")),
                partition: None,
                records: n + 1,
            },
            5 => Action::AdvanceTime { ms: n * 50 },
            _ => Action::Rebalance,
        }
    }
}

/// The fidelity page lists each system's registry, read through `System::visit`.
#[test]
fn the_fidelity_page_lists_every_registry() {
    use lbscope::engine::System;
    use lbscope::lessons::fidelity::strategies;
    assert_eq!(strategies(System::Pulsar), pulsar::Sim::strategies());
    assert_eq!(strategies(System::Flink), flink::Sim::strategies());
    assert_eq!(strategies(System::Kstreams), kstreams::Sim::strategies());
    assert_eq!(
        strategies(System::Pulsar).len(),
        pulsar::config::SheddingStrategy::ALL.len() + pulsar::config::PlacementStrategy::ALL.len()
    );
}
