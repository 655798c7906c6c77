//! Links written before workload patterns existed: the ramp and Zipf buttons
//! wrote one `set_topic_traffic` action per topic. Such a link still opens and
//! replays to the same traffic: `tests/scenarios/pulsar-old-ramp-zipf.json`
//! holds those per-topic actions (exactly what the old buttons wrote, rebuilt
//! here from `presets::pulsar_zipf` / `presets::pulsar_ramp`), and the golden
//! test pins its event log. `LBSCOPE_BLESS=1` rewrites the file.

use lbscope::engine::pulsar;
use lbscope::scenario::{presets, replay, Body, Log, Scenario};
use std::path::Path;

const FILE: &str = "tests/scenarios/pulsar-old-ramp-zipf.json";
const SEED: u64 = 7;

fn rates(s: &pulsar::Sim) -> Vec<(String, f64)> {
    s.namespaces()
        .values()
        .flat_map(|ns| {
            ns.topics
                .values()
                .map(|t| (t.name.0.to_string(), ns.traffic(t).msg_rate_in))
        })
        .collect()
}

/// The old buttons' log: Zipf skew (seed 7, 60 000 msg/s, s = 1.2), a round,
/// ramp × 2, a round, ramp × ½, a round.
fn old_style() -> (Log<pulsar::Sim>, Vec<Vec<(String, f64)>>) {
    let mut log = presets::pulsar_playground(4);
    let mut wanted = Vec::new();
    let names: Vec<String> = rates(&replay(SEED, &log, None).unwrap().state)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let zipf = presets::pulsar_zipf(&names, 7, 60_000.0, 1.2);
    log.actions.extend(zipf);
    wanted.push(rates(&replay(SEED, &log, None).unwrap().state));
    log.actions.push(pulsar::Action::Step);
    for factor in [2.0, 0.5] {
        let now = rates(&replay(SEED, &log, None).unwrap().state);
        log.actions.extend(presets::pulsar_ramp(&now, factor));
        wanted.push(now.iter().map(|(n, r)| (n.clone(), r * factor)).collect());
        log.actions.push(pulsar::Action::Step);
    }
    (log, wanted)
}

#[test]
fn old_per_topic_ramp_and_zipf_links_open_and_replay_identically() {
    let (log, wanted) = old_style();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let sc = Scenario::of(SEED, log);
    if std::env::var_os("LBSCOPE_BLESS").is_some() {
        std::fs::write(&path, sc.to_json()).unwrap();
    }
    let text = std::fs::read_to_string(&path).expect("the old-style scenario file");
    let opened = Scenario::from_json(&text).expect("the old link opens");
    assert_eq!(
        opened.to_json(),
        sc.to_json(),
        "the file holds the old buttons' per-topic actions"
    );
    let Body::Pulsar(log) = &opened.body else {
        panic!("a Pulsar scenario")
    };
    assert!(log
        .actions
        .iter()
        .all(|a| matches!(a, pulsar::Action::SetTopicTraffic { .. } | pulsar::Action::Step)));
    assert!(
        log.actions
            .iter()
            .filter(|a| matches!(a, pulsar::Action::SetTopicTraffic { .. }))
            .count()
            >= 3 * 12
    );
    // Each button's actions give every topic the rate it asked for, and no
    // pattern is involved.
    let mut at = 0;
    let steps: Vec<usize> = log
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, pulsar::Action::Step))
        .map(|(i, _)| i)
        .collect();
    for (k, want) in wanted.iter().enumerate() {
        let r = replay(SEED, log, Some(steps[k])).unwrap();
        assert!(r.state.workload().is_empty());
        let got = rates(&r.state);
        for ((n, a), (m, b)) in got.iter().zip(want) {
            assert_eq!(n, m);
            assert!(
                (a - b).abs() < 1e-6 * b.max(1.0),
                "{n}: {a} vs {b} after button {k}"
            );
        }
        at = steps[k];
    }
    assert!(at > 0);
    // Replaying twice gives the same events.
    let a = replay(SEED, log, None).unwrap();
    let b = replay(SEED, log, None).unwrap();
    let text = |r: &lbscope::scenario::Replay<pulsar::Sim>| {
        r.steps
            .iter()
            .map(|s| format!("{:?}", s.events))
            .collect::<Vec<_>>()
    };
    assert_eq!(text(&a), text(&b));
}
