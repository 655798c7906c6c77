//! Every registered strategy under random action sequences: for each system,
//! every combination of the values of its strategy keys (the registry entries
//! of `Engine::strategies()`, and the choices of its other compare keys, such
//! as Pulsar's `loadManagerClassName`) runs seeded random sequences and checks
//! `Engine::invariants()` after every action; a refused action must leave the
//! state as it was.
//!
//! `LBSCOPE_PROPTEST_CASES` sets the sequences per configuration (4 by default;
//! docs/testing.md gives the full run's command, docs/perf-log/ its figures).

use lbscope::engine::schema::{knob, Kind, Patch, Schema};
use lbscope::engine::{flink, kstreams, pulsar, Engine, SimRng};
use lbscope::fuzzing::debug_hash;
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
            // A copy of the (small) state is cheaper than its view. When the
            // action is refused, the whole state (its `Debug` text, which also
            // covers what the view leaves out, such as the RNG) is compared by
            // a hash streamed from the formatter, and printed only if it differs.
            let before = sim.clone();
            done.push(a.clone());
            match sim.apply(&a) {
                Ok(_) => applied += 1,
                Err(_) => {
                    if debug_hash(&before) != debug_hash(&sim) {
                        assert_eq!(
                            format!("{before:?}"),
                            format!("{sim:?}"),
                            "{label} case {case}: a refused action changed the state: {done:?}"
                        );
                    }
                }
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
        match rng.below(7) {
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
            // Bounds below, at and above the parallelism, up to and past the
            // max parallelism (128 for these vertices).
            4 => Action::SetResourceRequirements {
                vertex: ["Source", "Map", "Sink"][rng.below(3)].into(),
                lower_bound: [0, 1, 2, 3][rng.below(4)],
                upper_bound: [1, 2, 4, 6, 128, 129][rng.below(6)],
            },
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

/// Invariant regressions found by the full runs of the loop above.
mod found_sequences {
    use super::Drive;
    use lbscope::engine::flink::job_graph::{JobSpec, VertexSpec};
    use lbscope::engine::{flink, kstreams, Engine};

    fn adaptive_with_one_vertex(parallelism: u32) -> flink::Sim {
        let config = flink::Config {
            scheduler: flink::SchedulerType::Adaptive,
            ..Default::default()
        };
        let mut s = flink::Sim::new(config, 1).unwrap();
        s.apply(&flink::Action::DefineJob {
            job: JobSpec {
                vertices: vec![VertexSpec::new("A", parallelism)],
                edges: vec![],
            },
        })
        .unwrap();
        s
    }

    /// `n` TaskManagers of 2 slots each join, then the job is scheduled.
    fn add_two_slot_tms_and_schedule(s: &mut flink::Sim, n: usize) {
        for _ in 0..n {
            s.apply(&flink::Action::AddTaskManager {
                name: None,
                slots: Some(2),
            })
            .unwrap();
        }
        s.apply(&flink::Action::Schedule).unwrap();
    }

    fn set_bounds(s: &mut flink::Sim, lower: u32, upper: u32) -> Result<(), String> {
        s.apply(&flink::Action::SetResourceRequirements {
            vertex: "A".into(),
            lower_bound: lower,
            upper_bound: upper,
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
    }

    /// From `JobResourceRequirementsTest.testValidateUpperBoundHigherThanMaxParallelism`'s
    /// assertion: an upper bound above the vertex's max parallelism is refused.
    /// A vertex of parallelism 4 has the default max parallelism 128
    /// (`KeyGroupRangeAssignment.computeDefaultMaxParallelism`): 129 is refused
    /// and leaves the state as it was, 128 is accepted.
    #[test]
    fn job_resource_requirements_test_test_validate_upper_bound_higher_than_max_parallelism() {
        let mut s = adaptive_with_one_vertex(4);
        let before = format!("{s:?}");
        let err = set_bounds(&mut s, 1, 129).unwrap_err();
        assert!(err.contains("max parallelism (128)"), "{err}");
        assert_eq!(before, format!("{s:?}"));
        set_bounds(&mut s, 1, 128).unwrap();
    }

    /// From `JobResourceRequirementsTest.testValidateLowerBoundDoesNotExceedUpperBound`'s
    /// assertion: a lower bound above the upper bound is refused.
    #[test]
    fn job_resource_requirements_test_test_validate_lower_bound_does_not_exceed_upper_bound() {
        let mut s = adaptive_with_one_vertex(4);
        assert!(set_bounds(&mut s, 10, 9).is_err());
        set_bounds(&mut s, 10, 10).unwrap();
    }

    /// From `JobResourceRequirementsTest.testValidateLowerOrUpperBoundIsLowerThanOne`'s
    /// assertion: a bound of 0 is refused (either one).
    #[test]
    fn job_resource_requirements_test_test_validate_lower_or_upper_bound_is_lower_than_one() {
        let mut s = adaptive_with_one_vertex(4);
        assert!(set_bounds(&mut s, 0, 10).is_err());
        assert!(set_bounds(&mut s, 1, 0).is_err());
    }

    /// Derived by reading `AdaptiveScheduler.updateJobResourceRequirements` and
    /// `DefaultVertexParallelismStore.applyJobResourceRequirements`: the new
    /// upper bound becomes the vertex's parallelism in the scheduler's store
    /// (the max parallelism is kept), and `SlotSharingSlotAllocator` runs each
    /// vertex at `min(upper bound, slots)`. So a vertex of parallelism 4 whose
    /// upper bound is raised to 8 runs 6 subtasks on 6 slots, then 8 on 10
    /// slots, never more than its upper bound. (The found sequence: the job
    /// graph's parallelism was taken as the adaptive scheduler's ceiling.)
    #[test]
    fn an_upper_bound_above_the_parallelism_runs_up_to_it_on_the_adaptive_scheduler() {
        let mut s = adaptive_with_one_vertex(4);
        set_bounds(&mut s, 1, 8).unwrap();
        add_two_slot_tms_and_schedule(&mut s, 3);
        assert_eq!(s.parallelism(), [6]);
        s.invariants().unwrap();
        add_two_slot_tms_and_schedule(&mut s, 2);
        assert_eq!(s.parallelism(), [8]);
        s.invariants().unwrap();
    }

    /// The Flink configuration of the loop, with every bound the loop's actions
    /// set, from the registry's starting cluster.
    #[test]
    fn flink_bounds_from_the_loop_keep_the_invariants() {
        let config = flink::Config {
            scheduler: flink::SchedulerType::Adaptive,
            ..Default::default()
        };
        let mut s = flink::Sim::new(config, 0).unwrap();
        for a in flink::Sim::setup() {
            s.apply(&a).unwrap();
        }
        s.apply(&flink::Action::SetResourceRequirements {
            vertex: "Source".into(),
            lower_bound: 1,
            upper_bound: 128,
        })
        .unwrap();
        s.apply(&flink::Action::Schedule).unwrap();
        s.invariants().unwrap();
        // One slot sharing group: each vertex runs at min(upper bound, 6 slots).
        assert_eq!(s.parallelism(), [6, 3, 2]);
    }

    /// The found sequence, shrunk: i1 and i2 (2 threads each) share 10
    /// stateful tasks; a thread is added to each, i1 crashes and restarts (with
    /// fresh members), and a fourth thread joins i2, which gets no task.
    /// Derived by reading the group coordinator's `StickyTaskAssignor.assignActive`
    /// for that last assignment: 7 members, quota `ceil(10 / 7)` = 2. Step 1, in
    /// (partition, sub-topology) order, gives each previous owner its task while
    /// it is below the quota: 0_0, 1_0, 0_1, 1_1 (i2's third member reaches 2:
    /// quota `ceil(8 / 6)` = 2), 0_2 (`ceil(6 / 5)` = 2), 1_2 (`ceil(4 / 4)` =
    /// 1), 0_3 to i1's first member (1, `ceil(3 / 3)` = 1), then 1_3 is refused
    /// (its owner is at the quota of 1), 0_4 and 0_5 go back to i1's others.
    /// Step 3 puts 1_3 on the least-loaded process, i1 (3 tasks / 3 members
    /// against i2's 6 / 4), on its first least-loaded member. i2's members end
    /// at [2, 2, 2, 0] and i1's at [2, 1, 1]: the invariant wanting an
    /// instance's threads within one task of each other holds for the classic
    /// protocol's client-side distribution only; the quota of 2 holds here.
    #[test]
    fn streams_group_sticky_task_assignor_keeps_previous_owners_at_the_quota_and_leaves_a_new_thread_empty() {
        use kstreams::{Action, SubtopologySpec};
        let config = kstreams::Config {
            group_protocol: kstreams::GroupProtocol::Streams,
            ..Default::default()
        };
        let mut s = kstreams::Sim::new(config, 1).unwrap();
        for (i, p) in [6u32, 4].into_iter().enumerate() {
            s.apply(&Action::DefineTopic {
                topic: format!("t{i}"),
                partitions: p,
                racks: vec![],
                replication_factor: 1,
            })
            .unwrap();
        }
        for name in ["i1", "i2"] {
            s.apply(&Action::AddInstance {
                name: name.into(),
                threads: Some(2),
                rack: None,
                tags: Default::default(),
                process_id: None,
            })
            .unwrap();
        }
        s.apply(&Action::DefineTopology {
            subtopologies: (0..2)
                .map(|i| SubtopologySpec {
                    sources: vec![format!("t{i}")],
                    stores: vec![format!("s{i}")],
                    changelog: true,
                })
                .collect(),
            copartition_groups: vec![],
        })
        .unwrap();
        let add = |name: &str| Action::AddThread {
            instance: name.into(),
        };
        for a in [
            add("i1"),
            add("i2"),
            Action::CrashInstance { name: "i1".into() },
            Action::RestartInstance { name: "i1".into() },
            add("i2"),
        ] {
            s.apply(&a).unwrap();
            s.invariants().unwrap();
        }
        let tasks = |name: &str| -> Vec<Vec<String>> {
            s.instance(name)
                .unwrap()
                .threads
                .iter()
                .map(|t| t.active.iter().map(ToString::to_string).collect())
                .collect()
        };
        assert_eq!(
            tasks("i2"),
            [vec!["0_0", "1_2"], vec!["0_2", "1_0"], vec!["0_1", "1_1"], vec![]]
        );
        assert_eq!(tasks("i1"), [vec!["0_3", "1_3"], vec!["0_4"], vec!["0_5"]]);
    }
}

/// Found by the loop: the adaptive scheduler's failover that times out
/// waiting for resources (`Restarting` → `WaitingForResources` → `Failed` once
/// `jobmanager.adaptive-scheduler.resource-wait-timeout` passes) failed the job
/// but left its requests in the surviving TaskManager's slots, so a slot held a
/// request placed nowhere. A failed job holds no slot, as the default
/// scheduler's failed round already released them.
#[test]
fn a_failed_adaptive_restart_releases_the_surviving_slots() {
    use flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
    use flink::{Action, JobStatus};
    let config = flink::Config {
        scheduler: flink::SchedulerType::Adaptive,
        ..Default::default()
    };
    let mut s = flink::Sim::new(config, 7).unwrap();
    let bounds = |v: &str, lower, upper| Action::SetResourceRequirements {
        vertex: v.into(),
        lower_bound: lower,
        upper_bound: upper,
    };
    let mut seq = vec![Action::DefineJob {
        job: JobSpec {
            vertices: vec![
                VertexSpec::new("Source", 4),
                VertexSpec::new("Map", 3),
                VertexSpec::new("Sink", 2),
            ],
            edges: vec![
                EdgeSpec::new("Source", "Map", DistributionPattern::Rescale),
                EdgeSpec::new("Map", "Sink", DistributionPattern::Hash),
            ],
        },
    }];
    for _ in 0..3 {
        seq.push(Action::AddTaskManager {
            name: None,
            slots: Some(2),
        });
    }
    seq.extend([
        bounds("Sink", 1, 2),
        bounds("Map", 3, 128),
        Action::LoseTaskManager {
            tm: "tm-2".into(),
            restart_after_ms: None,
        },
        Action::Schedule,
        bounds("Map", 3, 6),
        // 2 slots left, at least 3 needed: the restart waits 5 min and fails.
        Action::LoseTaskManager {
            tm: "tm-0".into(),
            restart_after_ms: None,
        },
    ]);
    for a in &seq {
        s.apply(a).unwrap();
        s.invariants().unwrap();
    }
    assert_eq!(s.status(), JobStatus::Failed);
    assert!(s.task_managers()[1].slots.iter().all(Option::is_none));
}
