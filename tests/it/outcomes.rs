//! Outcome metrics and sweeps: the figures agree with the event log they are
//! read from (on random runs of all three systems), a sweep gives the same
//! bytes whatever the number of threads, and the published figures that a
//! run reproduces are pinned: PIP-364's over-unloading sequence and KIP-441's
//! convergence bound (`TaskAssignorConvergenceTest`).

use crate::support;
use lbscope::engine::outcome::{self, Measure, Meter, Outcome, Settings};
use lbscope::engine::{flink, kstreams, pulsar, System};
use lbscope::scenario::run::{self, Settle};
use lbscope::scenario::sweep::{self, Plan};
use lbscope::scenario::Scenario;
use proptest::prelude::*;
use serde_json::{json, Value};

fn scenario_file(name: &str) -> Scenario {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(name);
    Scenario::from_json(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn preset(name: &str) -> Scenario {
    use lbscope::gallery;
    let sc = match gallery::example(name) {
        Some(e) => e.scenario(),
        None => lbscope::scenario::presets::default_scenario(match name {
            "pulsar" => System::Pulsar,
            "flink" => System::Flink,
            _ => System::Kstreams,
        }),
    };
    Scenario { cursor: None, ..sc }
}

/// PIP-364's example (the loads and moving averages are the PIP's text, which
/// `ThresholdShedder`'s `old × 0.9 + new × 0.1` reproduces; see
/// `pulsar_fidelity::pip_364_threshold_shedder_over_unloading`): real loads
/// 90/10, then 50/50, then 14/86. ThresholdShedder picks broker-1 to offload in
/// all three passes; in the second its real load is the average (50 %) and in
/// the third it is the idle one (14 %): two of three decisions point at a
/// broker that is not the busy one, and the run ends with broker-2 over the
/// 85 % line, nothing balanced (score 0).
#[test]
fn pip_364_over_unloading_in_the_outcome() {
    let sc = scenario_file("pulsar-pip364-threshold-over-unloading.json");
    let o = run::outcome(&sc, Settle::default()).unwrap();
    assert_eq!(o.extra.shed_decisions, Some(3));
    assert_eq!(o.extra.misdirected_sheds, Some(2));
    // No bundle exists to move (the loads are set directly): no move, nobody reconnects.
    assert_eq!((o.moves, o.extra.topics_reconnected), (0, Some(0)));
    assert_eq!(o.score, 0.0);
    let met: Vec<bool> = o.goals.iter().map(|g| g.met).collect();
    assert_eq!(met, [false, false], "{:?}", o.goals);
    assert!(o.goals[0].detail.contains("14 – 86 %"), "{}", o.goals[0].detail);
    // Cut after the first pass (actions: report, shed): one decision, at the busy broker.
    let first = Scenario {
        cursor: Some(2),
        ..sc.clone()
    };
    let o = run::outcome(&first, Settle::default()).unwrap();
    assert_eq!(
        (o.extra.shed_decisions, o.extra.misdirected_sheds),
        (Some(1), Some(0))
    );
}

/// A Kafka Streams cluster as `TaskAssignorConvergenceTest.Harness.initializeCluster`
/// builds it: stateless then stateful tasks in sub-topologies of at most 5
/// partitions, one stream thread per client, every stateful task's changelog
/// 150,000 records long; then `change` (add or drop a client), then probing
/// rebalances every 60 s (ample for the warm-ups to catch up, as the harness
/// makes them caught up between iterations), then 3 forced rebalances.
fn convergence_cluster(stateless: u32, stateful: u32, clients: u32, change: Value) -> Scenario {
    let mut setup = Vec::new();
    let mut subs = Vec::new();
    let mut stateful_topics = Vec::new();
    let mut i = 0;
    for (n, with_state) in [(stateless, false), (stateful, true)] {
        let mut left = n;
        while left > 0 {
            let p = left.min(5);
            left -= p;
            let topic = format!("in-{i}");
            setup.push(json!({"op": "define_topic", "topic": topic, "partitions": p}));
            if with_state {
                subs.push(json!({"sources": [topic], "stores": [format!("store-{i}")]}));
                stateful_topics.push((topic, p));
            } else {
                subs.push(json!({"sources": [topic]}));
            }
            i += 1;
        }
    }
    setup.push(json!({"op": "define_topology", "subtopologies": subs}));
    for c in 1..=clients {
        setup.push(json!({"op": "add_instance", "name": format!("app-{c}"), "threads": 1}));
    }
    for (t, p) in &stateful_topics {
        setup.push(json!({"op": "produce", "topic": t, "records": 150_000 * p}));
    }
    setup.push(json!({"op": "advance_time", "ms": 600_000}));
    let mut actions = vec![change];
    actions.extend((0..12).map(|_| json!({"op": "advance_time", "ms": 60_000})));
    actions.extend((0..3).map(|_| json!({"op": "rebalance"})));
    let sc = json!({
        "format": 2, "seed": 1, "system": "kstreams",
        // AssignmentConfigs(acceptableRecoveryLag 100, maxWarmupReplicas 2,
        // numStandbyReplicas 0, probingRebalanceIntervalMs 60_000).
        "config": {
            "acceptable.recovery.lag": 100, "max.warmup.replicas": 2,
            "num.standby.replicas": 0, "probing.rebalance.interval.ms": 60_000
        },
        "setup": setup, "actions": actions,
    });
    Scenario::from_json(&sc.to_string()).unwrap()
}

/// The outcome of the rebalances from log action `from` on (the setup's left out).
fn outcome_from(sc: &Scenario, from: usize) -> Outcome {
    let log = run::event_log(sc).unwrap();
    let after: Vec<_> = log
        .into_iter()
        .filter(|e| e.step.is_some_and(|s| s >= from))
        .collect();
    let lbscope::scenario::Body::Kstreams(l) = &sc.body else {
        unreachable!()
    };
    run::outcome_of::<kstreams::Sim>(
        &l.config,
        Settle {
            quiet_rounds: Some(1),
            band: None,
        },
        &after,
    )
}

/// `TaskAssignorConvergenceTest.assignmentShouldConvergeAfterAddingNode`: one
/// client, then a second; the bound is `numStatefulTasks / maxWarmupReplicas + 1`
/// rebalances (each stateful task moves at most once, two warm-ups at a time).
/// Upstream today has 13 stateful tasks (KIP-441's figure: at most 7
/// rebalances); the October 2024 test in the local Kafka mirror has 11 (at most
/// 6). Both are checked. The rebalance that settles is the one that moves the
/// last warm-up's task and leaves no warm-up (the test's `rebalancePending`
/// false); a forced rebalance after it moves nothing.
#[test]
fn assignment_should_converge_after_adding_node() {
    for (stateful, bound) in [(13u32, 13 / 2 + 1), (11, 11 / 2 + 1)] {
        let sc = convergence_cluster(
            7,
            stateful,
            1,
            json!({"op": "add_instance", "name": "app-2", "threads": 1}),
        );
        let o = outcome_from(&sc, 0);
        let took = o
            .settled_after
            .unwrap_or_else(|| panic!("{stateful} stateful tasks: did not settle: {o:?}"));
        assert!(
            (1..=bound).contains(&took),
            "{stateful} stateful tasks: {took} rebalances, bound {bound}"
        );
        assert_eq!(o.score, 100.0, "{:?}", o.goals);
        // Two warm-ups at a time: each rebalance before the last had warm-ups in flight.
        assert!(o.extra.warmups.unwrap() >= u64::from(stateful / 2), "{o:?}");
    }
}

/// `TaskAssignorConvergenceTest.droppingNodesShouldConverge`: 11 stateless and
/// 13 stateful tasks on 7 clients, one dropped; the bound is
/// `numStatefulTasks / maxWarmupReplicas + 2` = 8 (one extra iteration, as the
/// test's comment says, for the first stateful task to be shuffled back).
#[test]
fn dropping_nodes_should_converge() {
    let sc = convergence_cluster(11, 13, 7, json!({"op": "remove_instance", "name": "app-1"}));
    let o = outcome_from(&sc, 0);
    let took = o.settled_after.unwrap_or_else(|| panic!("did not settle: {o:?}"));
    assert!((1..=13 / 2 + 2).contains(&took), "{took} rebalances");
    assert_eq!(o.score, 100.0, "{:?}", o.goals);
}

/// Count the events of kind `kind` in a logged event list, and sum a field.
fn count(log: &[run::LoggedEvent], kind: &str) -> u64 {
    log.iter().filter(|e| e.event["kind"] == kind).count() as u64
}

fn sum(log: &[run::LoggedEvent], kind: &str, field: &str) -> u64 {
    log.iter()
        .filter(|e| e.event["kind"] == kind)
        .map(|e| e.event[field].as_u64().unwrap())
        .sum()
}

/// Apply `ops` (JSON actions) after `setup`, skipping refused ones; the
/// scenario of what was applied.
fn applied<E: lbscope::scenario::InBody>(seed: u64, setup: &[Value], ops: &[Value]) -> Scenario {
    let mut sim = E::new(Default::default(), seed).unwrap();
    let mut log = lbscope::scenario::Log::<E>::default();
    for a in setup {
        let a: E::Action = serde_json::from_value(a.clone()).unwrap();
        sim.apply(&a).unwrap();
        log.setup.push(a);
    }
    for a in ops {
        let a: E::Action = serde_json::from_value(a.clone()).unwrap();
        if sim.apply(&a).is_ok() {
            log.actions.push(a);
        }
    }
    Scenario::of::<E>(seed, log)
}

/// The outcome read from the JSON log is the one read from the engine's events.
fn same_both_ways<E: lbscope::scenario::InBody>(sc: &Scenario, log: &[run::LoggedEvent]) -> Outcome {
    let direct = run::outcome(sc, Settle::default()).unwrap();
    let config = E::log(&sc.body).unwrap().config.clone();
    assert_eq!(run::outcome_of::<E>(&config, Settle::default(), log), direct);
    direct
}

fn pulsar_op() -> impl Strategy<Value = Value> {
    let broker = (1u32..6).prop_map(|i| format!("b-{i}"));
    prop_oneof![
        5 => Just(json!({"op": "step"})),
        1 => broker.clone().prop_map(|b| json!({"op": "add_broker", "broker": b})),
        1 => broker.clone().prop_map(|b| json!({"op": "crash_broker", "broker": b})),
        1 => broker.prop_map(|b| json!({"op": "restore_broker", "broker": b})),
        1 => Just(json!({"op": "unload", "namespace": "public/default"})),
        2 => (0u32..40, 0.0f64..40.0).prop_map(|(t, mb)| json!({
            "op": "set_topic_traffic", "topic": format!("persistent://public/default/t-{t}"),
            "traffic": {"msg_rate_in": mb * 100.0, "msg_rate_out": mb * 100.0,
                        "throughput_in": mb * 1048576.0, "throughput_out": mb * 1048576.0,
                        "producers": 1, "consumers": 1}})),
    ]
}

fn kstreams_op() -> impl Strategy<Value = Value> {
    let inst = (1u32..6).prop_map(|i| format!("app-{i}"));
    prop_oneof![
        3 => Just(json!({"op": "rebalance"})),
        2 => (1u64..120_000).prop_map(|ms| json!({"op": "advance_time", "ms": ms})),
        1 => (inst.clone(), 1u32..3).prop_map(|(n, t)| json!({"op": "add_instance", "name": n, "threads": t})),
        1 => inst.clone().prop_map(|n| json!({"op": "remove_instance", "name": n})),
        1 => inst.clone().prop_map(|n| json!({"op": "crash_instance", "name": n})),
        1 => inst.prop_map(|n| json!({"op": "restart_instance", "name": n})),
        1 => (1u64..50_000).prop_map(|r| json!({"op": "produce", "topic": "in", "records": r})),
    ]
}

fn flink_op() -> impl Strategy<Value = Value> {
    let tm = (1u32..6).prop_map(|i| format!("tm-{i}"));
    prop_oneof![
        3 => Just(json!({"op": "schedule"})),
        1 => (tm.clone(), 1u32..5).prop_map(|(n, s)| json!({"op": "add_task_manager", "name": n, "slots": s})),
        1 => tm.clone().prop_map(|n| json!({"op": "remove_task_manager", "tm": n})),
        1 => tm.prop_map(|n| json!({"op": "lose_task_manager", "tm": n})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(support::proptest_cases()))]

    /// Pulsar: moves counted = `Unloaded` events logged, reconnects = the
    /// `Reconnected` events' sums, rounds = `RoundDone` events; the settled
    /// round is followed only by rounds without an unload.
    #[test]
    fn pulsar_outcome_matches_the_log(
        seed in 0u64..1000,
        strategy in 0usize..4,
        ops in proptest::collection::vec(pulsar_op(), 1..30),
    ) {
        let strategies = ["ThresholdShedder", "AvgShedder", "OverloadShedder", "UniformLoadShedder"];
        let mut setup = vec![json!({"op": "set_config", "config": {"loadBalancerLoadSheddingStrategy": strategies[strategy]}})];
        for i in 1..4 {
            setup.push(json!({"op": "add_broker", "broker": format!("b-{i}")}));
        }
        setup.push(json!({"op": "create_namespace", "namespace": "public/default", "bundles": 8}));
        setup.push(json!({"op": "create_topics", "namespace": "public/default", "prefix": "t", "count": 40,
            "traffic": {"msg_rate_in": 500.0, "msg_rate_out": 500.0, "throughput_in": 4194304.0,
                        "throughput_out": 4194304.0, "producers": 1, "consumers": 1}}));
        let sc = applied::<pulsar::Sim>(seed, &setup, &ops);
        let log = run::event_log(&sc).unwrap();
        let o = same_both_ways::<pulsar::Sim>(&sc, &log);
        prop_assert_eq!(o.moves, count(&log, "unloaded"));
        prop_assert_eq!(o.rounds, count(&log, "round_done"));
        prop_assert_eq!(o.extra.topics_reconnected, Some(sum(&log, "reconnected", "topics")));
        prop_assert_eq!(o.extra.sessions_reconnected, Some(sum(&log, "reconnected", "sessions")));
        prop_assert!(o.rounds_over_line.unwrap() <= o.rounds);
        prop_assert!(o.extra.misdirected_sheds <= o.extra.shed_decisions);
        prop_assert!((0.0..=100.0).contains(&o.score));
        if let Some(s) = o.settled_after {
            // Every unload logged after the settled round's `RoundDone`: none.
            let mut rounds = 0;
            for e in &log {
                if e.event["kind"] == "round_done" {
                    rounds += 1;
                } else if e.event["kind"] == "unloaded" {
                    prop_assert!(rounds <= s, "an unload in round {} after settling at {}", rounds + 1, s);
                }
            }
        }
    }

    /// Kafka Streams: moves = the rebalances' `moved`, rounds = `RebalanceCompleted`
    /// events, records restored = the `TaskRestored` records.
    #[test]
    fn kstreams_outcome_matches_the_log(
        seed in 0u64..1000,
        standbys in 0u32..2,
        ops in proptest::collection::vec(kstreams_op(), 1..25),
    ) {
        let setup = vec![
            json!({"op": "set_config", "key": "num.standby.replicas", "value": standbys}),
            json!({"op": "define_topic", "topic": "in", "partitions": 6}),
            json!({"op": "define_topology", "subtopologies": [{"sources": ["in"], "stores": ["s"]}]}),
            json!({"op": "add_instance", "name": "app-1", "threads": 1}),
        ];
        let sc = applied::<kstreams::Sim>(seed, &setup, &ops);
        let log = run::event_log(&sc).unwrap();
        let o = same_both_ways::<kstreams::Sim>(&sc, &log);
        prop_assert_eq!(o.moves, sum(&log, "rebalance_completed", "moved"));
        prop_assert_eq!(o.rounds, count(&log, "rebalance_completed"));
        prop_assert_eq!(o.extra.records_restored, Some(sum(&log, "task_restored", "records")));
        prop_assert_eq!(o.extra.restore_ms, Some(sum(&log, "task_restored", "restore_ms")));
        prop_assert!((0.0..=100.0).contains(&o.score));
    }

    /// Flink: rounds = finished and failed scheduling runs; moves never exceed
    /// the tasks the runs after the first placed.
    #[test]
    fn flink_outcome_matches_the_log(
        seed in 0u64..1000,
        ops in proptest::collection::vec(flink_op(), 1..20),
    ) {
        let base = preset("flink");
        let lbscope::scenario::Body::Flink(l) = &base.body else { unreachable!() };
        let setup: Vec<Value> = l.setup.iter().map(|a| serde_json::to_value(a).unwrap()).collect();
        let sc = applied::<flink::Sim>(seed, &setup, &ops);
        let log = run::event_log(&sc).unwrap();
        let o = same_both_ways::<flink::Sim>(&sc, &log);
        prop_assert_eq!(o.rounds, count(&log, "scheduling_finished") + count(&log, "scheduling_failed"));
        prop_assert_eq!(o.extra.failed_schedules, Some(count(&log, "scheduling_failed")));
        let placed: u64 = log
            .iter()
            .filter(|e| e.event["kind"] == "scheduling_finished")
            .skip(1)
            .map(|e| e.event["tasks_per_tm"].as_array().unwrap().iter().map(|c| c["n"].as_u64().unwrap()).sum::<u64>())
            .sum();
        prop_assert!(o.moves <= placed, "{} moves, {} placed", o.moves, placed);
    }
}

/// The same sweep on 1, 2 and 3 threads: the same table, JSON and picture, byte for byte.
#[test]
fn sweep_is_the_same_on_any_number_of_threads() {
    for (name, rounds) in [
        ("pulsar-threshold-shedder", 8),
        ("flink-figure-a-b", 0),
        ("kstreams-standby-failover", 3),
    ] {
        let mut sc = preset(name);
        sc.push_rounds(rounds);
        let plan = Plan {
            scenario: sc,
            seeds: sweep::parse_seeds("1..40").unwrap(),
            variants: sweep::parse_variants(&[], &[]).unwrap(),
            settle: Settle::default(),
        };
        let one = sweep::sweep(&plan, 1).unwrap();
        let svg = lbscope::view::sweep::draw(&one, &[], "t").unwrap();
        for threads in [2, 3] {
            let other = sweep::sweep(&plan, threads).unwrap();
            assert_eq!(one.to_json(), other.to_json(), "{name}: {threads} threads");
            assert_eq!(one.to_text(), other.to_text(), "{name}");
            assert_eq!(
                svg,
                lbscope::view::sweep::draw(&other, &[], "t").unwrap(),
                "{name}"
            );
        }
        // Every run is there, and each figure's distribution is of its runs' values.
        let v = &one.variants[0];
        assert_eq!(v.runs, 40, "{name}");
        let score = v.figures.iter().find(|f| f.figure == "score").unwrap();
        assert_eq!(score.dist.n, 40);
        assert!(score.dist.min <= score.dist.median && score.dist.median <= score.dist.p90);
        assert!(
            svg.contains("data-view=\"sweep\"") && svg.contains("<circle"),
            "{name}"
        );
    }
}

/// A sweep over settings: each setting is its own row, its runs are the
/// scenario's under that config, and a setting the config refuses is an error
/// naming it.
#[test]
fn sweep_compares_settings() {
    let mut sc = preset("pulsar-threshold-shedder");
    sc.push_rounds(6);
    let plan = Plan {
        scenario: sc.clone(),
        seeds: vec![1, 2, 3],
        variants: sweep::parse_variants(
            &[
                "loadBalancerLoadSheddingStrategy=ThresholdShedder".into(),
                "loadBalancerLoadSheddingStrategy=TransferShedder; loadManagerClassName=ExtensibleLoadManagerImpl".into(),
            ],
            &[],
        )
        .unwrap(),
        settle: Settle::default(),
    };
    let s = sweep::sweep(&plan, 2).unwrap();
    assert_eq!(s.variants.len(), 2);
    // Seed 2 of the second setting is that scenario's run with seed 2.
    let mut second = plan.variants[1].apply(&sc).unwrap();
    second.seed = 2;
    let o = run::outcome(&second, Settle::default()).unwrap();
    let moves = s.variants[1]
        .figures
        .iter()
        .find(|f| f.figure == "moves")
        .unwrap();
    assert_eq!(moves.values[1], o.moves as f64);
    // TransferShedder needs the extensible load manager: alone, it is refused.
    let bad = Plan {
        variants: sweep::parse_vary(&["loadBalancerLoadSheddingStrategy=TransferShedder".into()]).unwrap(),
        ..plan.clone()
    };
    let e = sweep::sweep(&bad, 1).unwrap_err();
    assert!(
        e.contains("TransferShedder") && e.contains("ExtensibleLoadManagerImpl"),
        "{e}"
    );
    let unknown = Plan {
        variants: sweep::parse_vary(&["loadBalancerLoadShedingStrategy=AvgShedder".into()]).unwrap(),
        ..plan
    };
    let e = sweep::sweep(&unknown, 1).unwrap_err();
    assert!(e.contains("did you mean"), "{e}");
}

/// The CLI: `run` prints the outcome, `sweep` the table, its JSON and its picture.
#[test]
fn cli_run_and_sweep_print_outcomes() {
    let exe = env!("CARGO_BIN_EXE_lbscope");
    let cli = |args: &[&str]| {
        let o = std::process::Command::new(exe).args(args).output().unwrap();
        (
            o.status.success(),
            String::from_utf8(o.stdout).unwrap(),
            String::from_utf8(o.stderr).unwrap(),
        )
    };
    let dir = std::env::temp_dir().join(format!("lbscope-outcomes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("pip364.json");
    std::fs::write(
        &f,
        scenario_file("pulsar-pip364-threshold-over-unloading.json").to_json(),
    )
    .unwrap();
    let (ok, out, err) = cli(&["run", f.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("\noutcome:\n") && out.contains("misdirected sheds: 2"),
        "{out}"
    );
    assert!(out.contains("balancedness 0 / 100"), "{out}");
    let (ok, json, _) = cli(&["run", f.to_str().unwrap(), "--format", "json"]);
    assert!(ok);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["outcome"]["shed_decisions"], 3);
    assert_eq!(v["outcome"]["settle"]["band"], 20.0);
    let (ok, json, _) = cli(&[
        "run",
        f.to_str().unwrap(),
        "--format",
        "json",
        "--band",
        "5",
        "--quiet-rounds",
        "1",
    ]);
    assert!(ok);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["outcome"]["settle"], json!({"quiet_rounds": 1, "band": 5.0}));
    let svg = dir.join("sweep.svg");
    let (ok, out, err) = cli(&[
        "sweep",
        "kstreams-standby-failover",
        "--seeds",
        "5",
        "--rounds",
        "2",
        "--svg",
        svg.to_str().unwrap(),
        "--figure",
        "score",
        "--figure",
        "moves",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("5 seeds (1..5)") && out.contains("median"), "{out}");
    let pic = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(pic.matches("data-figure=\"score\"").count(), 1, "{pic}");
    let (ok, json, _) = cli(&[
        "sweep",
        "flink",
        "--seeds",
        "3..4",
        "--format",
        "json",
        "--threads",
        "2",
    ]);
    assert!(ok);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["seed_range"], json!([3, 4]));
    assert_eq!(v["variants"][0]["runs"], 2);
    for bad in [
        vec!["sweep", "flink", "--seeds", "0"],
        vec!["sweep", "no-such-preset"],
        vec!["sweep", "flink", "--figure", "score"],
        vec!["sweep", "flink", "--threads", "0"],
        vec!["sweep", "flink", "--vary", "nokey"],
    ] {
        let (ok, _, err) = cli(&bad);
        assert!(!ok && err.starts_with("lbscope: "), "{bad:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The settling rule and the score as `docs/outcomes.md` states them.
#[test]
fn settle_defaults_are_the_documented_ones() {
    assert_eq!(
        Settings::of(System::Pulsar),
        Settings {
            quiet_rounds: 3,
            band: 20.0
        }
    );
    assert_eq!(
        Settings::of(System::Flink),
        Settings {
            quiet_rounds: 3,
            band: 1.0
        }
    );
    assert_eq!(
        Settings::of(System::Kstreams),
        Settings {
            quiet_rounds: 3,
            band: 1.0
        }
    );
    // A meter fed nothing: no round, nothing moved.
    let m = <kstreams::Sim as Measure>::meter(&Default::default(), Settings::of(System::Kstreams));
    let o = m.outcome();
    assert_eq!((o.rounds, o.moves, o.settled_after), (0, 0, None));
    let _ = outcome::score::score(&[]);
}
