//! Random scenarios of every system built with hostile names (control and
//! escape sequences, C1 controls, bidirectional overrides, U+FFFE / U+FFFF,
//! markup, long names) and huge values (1e308, u32::MAX, past every cap): each
//! is refused with a message or replays to output that is one valid JSON
//! document, text with nothing a terminal acts on, and well-formed SVG.

use lbscope::scenario::{run, Scenario};
use lbscope::view::{self, ViewKind};
use proptest::prelude::*;

/// A name made of hostile pieces.
fn hostile_name() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\u{1b}]0;t\u{7}".to_string()),
        Just("\u{1b}[2J".to_string()),
        Just("\u{1b}]52;c;eA==\u{7}".to_string()),
        Just("\u{9b}1m".to_string()),
        Just("\u{202e}".to_string()),
        Just("\u{FFFE}\u{FFFF}".to_string()),
        Just("\u{7f}\r\n\t".to_string()),
        Just("<script>&amp;\"'".to_string()),
        Just("名前-é".to_string()),
        "[a-z]{1,6}",
        "x{200,400}",
    ];
    proptest::collection::vec(piece, 1..4).prop_map(|v| v.concat())
}

/// A number past every cap, or an ordinary one.
fn huge() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        1 => Just(serde_json::json!(1e308)),
        1 => Just(serde_json::json!(f64::MAX)),
        1 => Just(serde_json::json!(u32::MAX)),
        1 => Just(serde_json::json!(u64::MAX)),
        1 => Just(serde_json::json!(2e15)),
        1 => Just(serde_json::json!(-1)),
        12 => (1u32..100).prop_map(|n| serde_json::json!(n)),
    ]
}

fn preset(system: &str) -> serde_json::Value {
    let sys = match system {
        "pulsar" => lbscope::engine::System::Pulsar,
        "flink" => lbscope::engine::System::Flink,
        _ => lbscope::engine::System::Kstreams,
    };
    serde_json::from_str(&lbscope::scenario::presets::default_scenario(sys).to_json()).unwrap()
}

/// The system's preset, its names replaced by `names`, with `extra` log actions.
fn scenario(system: &str, names: &[String], extra: Vec<serde_json::Value>) -> String {
    let mut text = preset(system).to_string();
    let olds: &[&str] = match system {
        "pulsar" => &["broker-1", "broker-2", "topic"],
        "flink" => &["JV-A", "JV-B"],
        _ => &["app-1", "app-2"],
    };
    for (old, new) in olds.iter().zip(names) {
        text = text.replace(&format!("\"{old}\""), &serde_json::to_string(new).unwrap());
    }
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    if let Some(a) = v["actions"].as_array_mut() {
        a.extend(extra);
    }
    v.to_string()
}

fn extra_actions(
    system: &'static str,
    name: String,
    n: serde_json::Value,
    m: serde_json::Value,
) -> Vec<serde_json::Value> {
    use serde_json::json;
    match system {
        "pulsar" => vec![
            json!({"op": "add_broker", "broker": name}),
            json!({"op": "create_topic", "topic": format!("public/default/{}", name.replace('/', "_"))}),
            json!({"op": "add_workload", "pattern": {"target": {"kind": "all"}, "shape": {"kind": "burst", "start_round": 0, "rounds": 5, "multiplier": n}}}),
            json!({"op": "add_workload", "pattern": {"target": {"kind": "all"}, "shape": {"kind": "ramp", "from": 1, "to": m, "start_round": 0, "rounds": 3}}}),
            json!({"op": "step"}),
            json!({"op": "step"}),
        ],
        "flink" => vec![
            json!({"op": "add_task_manager", "name": name, "slots": n}),
            json!({"op": "add_task_managers", "count": m, "slots": 2}),
            json!({"op": "schedule"}),
        ],
        _ => vec![
            json!({"op": "add_instance", "name": name, "threads": n}),
            json!({"op": "produce", "topic": "orders", "records": m}),
            json!({"op": "rebalance"}),
        ],
    }
}

fn unsafe_raw(s: &str) -> bool {
    s.chars()
        .any(|c| c != '\n' && c != '\t' && lbscope::safe_text::is_unsafe(c))
}

fn check(text: &str) {
    // Refused with a message: nothing else to check.
    let Ok(sc) = Scenario::from_json(text) else {
        return;
    };
    let mut out = Vec::new();
    let r = run::write_json(&sc, &mut out);
    let json = String::from_utf8(out).unwrap();
    assert!(!unsafe_raw(&json));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(r.is_err(), doc.get("error").is_some());
    let mut out = Vec::new();
    if run::write_text(&sc, &mut out).is_ok() {
        let t = String::from_utf8(out).unwrap();
        assert!(!unsafe_raw(&t), "{t:?}");
        for kind in ViewKind::of(sc.system()).iter().copied().chain([ViewKind::Chart]) {
            let svg = view::render(&sc, Some(kind), None).unwrap();
            assert!(!unsafe_raw(&svg));
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn hostile_names_and_huge_values_give_valid_output(
        system in prop_oneof![Just("pulsar"), Just("flink"), Just("kstreams")],
        names in proptest::collection::vec(hostile_name(), 3),
        extra in hostile_name(),
        n in huge(),
        m in huge(),
    ) {
        check(&scenario(system, &names, extra_actions(system, extra, n, m)));
    }
}
