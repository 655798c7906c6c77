//! Replay invariants over random scenarios of every system: replaying twice gives
//! identical event logs, and a session moved anywhere by seek / undo / redo is in
//! the same state as a fresh replay to that point (snapshots never drift).

use crate::support;

use lbscope::engine::{flink, kstreams, pulsar, Engine};
use lbscope::scenario::session::Session;
use lbscope::scenario::{run, Body, Log, Scenario};
use proptest::prelude::*;

fn pulsar_action(k: u8, n: u8) -> pulsar::Action {
    let b = format!("broker-{}", n % 4);
    match k % 9 {
        0 => pulsar::Action::AddBroker {
            broker: b,
            capacity: Default::default(),
        },
        1 => pulsar::Action::CrashBroker { broker: b },
        2 => pulsar::Action::RestoreBroker { broker: b },
        3 => pulsar::Action::CreateTopic {
            topic: format!("public/default/t{n}"),
        },
        4 => pulsar::Action::SetTopicTraffic {
            topic: format!("public/default/t{n}"),
            traffic: pulsar::traffic::Traffic {
                msg_rate_in: f64::from(n) * 500.0,
                msg_rate_out: f64::from(n) * 500.0,
                throughput_in: f64::from(n) * 1e6,
                throughput_out: f64::from(n) * 1e6,
                producers: u32::from(n % 5),
                consumers: u32::from(n % 3),
            },
        },
        5 => pulsar::Action::SplitBundle {
            namespace: "public/default".into(),
            bundle: if n % 2 == 0 {
                "LARGEST".into()
            } else {
                "HOT".into()
            },
            algorithm: None,
            boundaries: Vec::new(),
            unload: n % 3 == 0,
        },
        6 => pulsar::Action::Unload {
            namespace: "public/default".into(),
            bundle: None,
            destination: None,
        },
        _ => pulsar::Action::Step,
    }
}

fn flink_action(k: u8, n: u8) -> flink::Action {
    let tm = format!("tm-{}", n % 4);
    match k % 6 {
        0 => flink::Action::AddTaskManager {
            name: None,
            slots: Some(u32::from(n % 4) + 1),
        },
        1 => flink::Action::LoseTaskManager {
            tm,
            restart_after_ms: (n % 2 == 0).then_some(30),
        },
        2 => flink::Action::RestoreTaskManager { tm },
        3 => flink::Action::RemoveTaskManager { tm },
        _ => flink::Action::Schedule,
    }
}

fn kstreams_action(k: u8, n: u8) -> kstreams::Action {
    let inst = format!("app-{}", n % 5);
    match k % 8 {
        0 => kstreams::Action::AddInstance {
            name: inst,
            threads: Some(u32::from(n % 3) + 1),
            rack: Some(format!("r{}", n % 3)),
            tags: Default::default(),
            process_id: None,
        },
        1 => kstreams::Action::CrashInstance { name: inst },
        2 => kstreams::Action::RestartInstance { name: inst },
        3 => kstreams::Action::AddThread { instance: inst },
        4 => kstreams::Action::Produce {
            topic: "orders".into(),
            key: Some(format!("k{n}")),
            partition: None,
            records: u64::from(n) * 100,
        },
        5 => kstreams::Action::AdvanceTime {
            ms: u64::from(n) * 1000,
        },
        _ => kstreams::Action::Rebalance,
    }
}

/// Keep only the actions the engine accepts, so the log replays.
fn accepted<S: Engine>(mut s: S, actions: Vec<S::Action>) -> (S, Vec<S::Action>) {
    let kept = actions.into_iter().filter(|a| s.apply(a).is_ok()).collect();
    (s, kept)
}

fn check<S: Engine>(sc: Scenario, log: Log<S>, seed: u64, seeks: &[usize]) {
    // Replay twice: identical narrated and JSON logs.
    let a = run::event_log(&sc).unwrap();
    let b = run::event_log(&sc).unwrap();
    assert_eq!(a, b);
    // Time travel: any seek equals a fresh replay up to that point.
    let n = log.actions.len();
    let mut session = Session::<S>::new(seed, log.clone(), None).unwrap();
    for &k in seeks {
        let k = if n == 0 { 0 } else { k % (n + 1) };
        session.seek(k).unwrap();
        let fresh = Session::<S>::new(seed, log.clone(), Some(k)).unwrap();
        assert_eq!(session.steps(), fresh.steps());
        assert_eq!(format!("{:?}", session.state()), format!("{:?}", fresh.state()));
        if k > 0 {
            session.undo().unwrap();
            session.redo().unwrap();
        } else if n > 0 {
            session.redo().unwrap();
            session.undo().unwrap();
        }
        assert_eq!(session.cursor(), k);
    }
}

fn ops() -> impl Strategy<Value = Vec<(u8, u8)>> {
    prop::collection::vec((any::<u8>(), any::<u8>()), 0..70)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(support::proptest_cases()))]

    #[test]
    fn pulsar_replays_and_seeks_consistently(seed in any::<u64>(), ops in ops(), seeks in prop::collection::vec(any::<usize>(), 1..6)) {
        let setup = vec![
            pulsar::Action::AddBroker { broker: "broker-0".into(), capacity: Default::default() },
            pulsar::Action::CreateNamespace { namespace: "public/default".into(), bundles: Some(4) },
        ];
        let mut base = pulsar::Sim::new(pulsar::Config::profile(pulsar::config::Profile::Pulsar4), seed).unwrap();
        for a in &setup { base.apply(a).unwrap(); }
        let (_, actions) = accepted(base, ops.iter().map(|&(k, n)| pulsar_action(k, n)).collect());
        let log = Log { config: pulsar::Config::profile(pulsar::config::Profile::Pulsar4), setup, actions };
        let mut sc = Scenario::empty(lbscope::engine::System::Pulsar, seed);
        sc.body = Body::Pulsar(log.clone());
        check::<pulsar::Sim>(sc, log, seed, &seeks);
    }

    #[test]
    fn flink_replays_and_seeks_consistently(seed in any::<u64>(), ops in ops(), seeks in prop::collection::vec(any::<usize>(), 1..6)) {
        let setup = lbscope::scenario::presets::flink_figure_a().setup;
        let mut base = flink::Sim::new(flink::Config::default(), seed).unwrap();
        for a in &setup { base.apply(a).unwrap(); }
        let (_, actions) = accepted(base, ops.iter().map(|&(k, n)| flink_action(k, n)).collect());
        let log = Log { config: flink::Config::default(), setup, actions };
        let mut sc = Scenario::empty(lbscope::engine::System::Flink, seed);
        sc.body = Body::Flink(log.clone());
        check::<flink::Sim>(sc, log, seed, &seeks);
    }

    #[test]
    fn kstreams_replays_and_seeks_consistently(seed in any::<u64>(), ops in ops(), seeks in prop::collection::vec(any::<usize>(), 1..6)) {
        let preset = lbscope::scenario::presets::kstreams_counts();
        let mut base = kstreams::Sim::new(preset.config.clone(), seed).unwrap();
        for a in &preset.setup { base.apply(a).unwrap(); }
        let (_, actions) = accepted(base, ops.iter().map(|&(k, n)| kstreams_action(k, n)).collect());
        let log = Log { config: preset.config, setup: preset.setup, actions };
        let mut sc = Scenario::empty(lbscope::engine::System::Kstreams, seed);
        sc.body = Body::Kstreams(log.clone());
        check::<kstreams::Sim>(sc, log, seed, &seeks);
    }
}
