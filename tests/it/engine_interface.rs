//! The engine interface that scenarios, lessons, the playground and the CLI use
//! generically: config schemas, typed event subjects, invariants, rounds.

use lbscope::engine::schema;
use lbscope::engine::{flink, kstreams, pulsar, Engine, Subject};
use lbscope::lessons;
use lbscope::scenario::{each_log, replay, Log, Scenario};
use serde_json::{json, Value};
use std::path::Path;

#[test]
fn every_config_field_has_a_knob_and_every_knob_a_field() {
    schema::check_table::<pulsar::Config>().unwrap();
    schema::check_table::<flink::Config>().unwrap();
    schema::check_table::<kstreams::Config>().unwrap();
}

#[test]
fn unknown_keys_are_refused_with_the_closest_known_key() {
    let e = schema::read::<pulsar::Config>(json!({"loadBalancerBrokerOverloadThresholdPercentage": 80}))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown config key `loadBalancerBrokerOverloadThresholdPercentage` (did you mean `loadBalancerBrokerOverloadedThresholdPercentage`?)"
    );
    let e = schema::read::<flink::Config>(json!({"taskmanager.load-balance.mod": "tasks"})).unwrap_err();
    assert!(
        e.to_string()
            .contains("did you mean `taskmanager.load-balance.mode`"),
        "{e}"
    );
    let e = schema::read::<kstreams::Config>(json!({"zzz": 1})).unwrap_err();
    assert_eq!(e.to_string(), "unknown config key `zzz`");
    // A value of the wrong kind, or out of the key's range, names the key.
    let e = schema::read::<pulsar::Config>(json!({"loadBalancerHistoryResourcePercentage": 5})).unwrap_err();
    assert!(
        e.to_string()
            .contains("loadBalancerHistoryResourcePercentage must be between 0 and 1"),
        "{e}"
    );
    let e = schema::read::<pulsar::Config>(json!({"loadBalancerEnabled": "yes"})).unwrap_err();
    assert!(
        e.to_string().contains("loadBalancerEnabled takes true or false"),
        "{e}"
    );
    assert!(schema::read::<pulsar::Config>(json!([])).is_err());
    // Missing keys take their defaults.
    assert_eq!(
        schema::read::<flink::Config>(json!({})).unwrap(),
        flink::Config::default()
    );
}

#[test]
fn a_scenario_with_an_unknown_config_key_is_refused_not_dropped() {
    let text = r#"{"format":1,"seed":1,"system":"pulsar","config":{"loadBalancerSheddingEnabld":false},"setup":[],"actions":[]}"#;
    let e = Scenario::from_json(text).unwrap_err().to_string();
    assert!(e.contains("did you mean `loadBalancerSheddingEnabled`"), "{e}");
}

#[test]
fn set_config_patches_keep_the_other_keys() {
    let mut sim = kstreams::Sim::new(kstreams::Config::default(), 1).unwrap();
    sim.apply(&kstreams::Action::set_config("num.standby.replicas", json!(2)).unwrap())
        .unwrap();
    sim.apply(&kstreams::Action::set_config("acceptable.recovery.lag", json!(5)).unwrap())
        .unwrap();
    assert_eq!(sim.config().num_standby_replicas, 2);
    assert_eq!(sim.config().acceptable_recovery_lag, 5);
    // The same payload shape in every engine.
    let p = pulsar::Action::SetConfig(
        schema::ConfigChange::one("loadBalancerSheddingEnabled", json!(false)).unwrap(),
    );
    assert_eq!(
        serde_json::to_value(&p).unwrap(),
        json!({"op": "set_config", "config": {"loadBalancerSheddingEnabled": false}})
    );
}

/// The subject the event log used to find by looking for key names in the
/// event's JSON (most specific first); the typed subjects must agree with it,
/// except that a Flink slot is now named `tm/slot` as the grid labels it.
fn subject_by_keys(event: &Value) -> Option<(String, String)> {
    const KEYS: [&str; 10] = [
        "bundle", "topic", "slot", "task", "broker", "tm", "vertex", "thread", "instance", "client",
    ];
    let obj = event.as_object()?;
    if let (Some(inst), Some(t)) = (obj.get("instance").and_then(|v| v.as_str()), obj.get("thread")) {
        if let Some(n) = t.as_u64() {
            return Some(("thread".to_string(), format!("{inst}/T{n}")));
        }
    }
    KEYS.iter().find_map(|&k| {
        let v = obj.get(k)?;
        let id = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Object(o) => {
                let ns = o.get("namespace")?.as_str()?;
                let r = o.get("range")?;
                let (lo, up) = (r.get("lower")?.as_u64()?, r.get("upper")?.as_u64()?);
                format!("{ns}/0x{lo:08x}_0x{up:08x}")
            }
            _ => return None,
        };
        Some((k.to_string(), id))
    })
}

fn check_log<E: Engine>(seed: u64, log: &Log<E>, what: &str) -> usize {
    let r = replay::<E>(seed, log, None).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut n = 0;
    for e in r.setup.iter().chain(&r.steps).flat_map(|s| &s.events) {
        let typed = E::subject(e).map(|Subject { kind, id }| (kind.to_string(), id));
        let json = serde_json::to_value(e).unwrap();
        if json.get("kind") == Some(&json!("slot_request_matched")) {
            let tm = json["tm"].as_str().unwrap();
            assert_eq!(
                typed,
                Some(("slot".into(), format!("{tm}/{}", json["slot"]))),
                "{what}"
            );
        } else if json.get("kind") == Some(&json!("workload")) {
            // A workload pattern is about the topic it targets, when it targets one
            // (Pulsar's patterns name a target, Kafka Streams' produce patterns their
            // input topic).
            let topic = json
                .pointer("/pattern/target/topic")
                .or_else(|| json.pointer("/pattern/topic"));
            match topic.and_then(Value::as_str) {
                Some(t) => assert!(
                    typed
                        .as_ref()
                        .is_some_and(|(k, id)| k == "topic" && id.ends_with(t)),
                    "{what}: {json} gave {typed:?}"
                ),
                // Otherwise it names a topic only when the event lists it (the
                // records a produce pattern sent to one input topic).
                None => {
                    assert!(
                        typed.as_ref().is_none_or(
                            |(k, id)| k == "topic" && json.to_string().contains(&format!("\"{id}\""))
                        ),
                        "{what}: {json} gave {typed:?}"
                    )
                }
            }
        } else {
            assert_eq!(typed, subject_by_keys(&json), "{what}: {json}");
        }
        n += 1;
    }
    // The invariants hold at the end of every golden and lesson scenario.
    r.state.invariants().unwrap_or_else(|e| panic!("{what}: {e}"));
    n
}

#[test]
fn typed_subjects_agree_with_the_key_names_and_invariants_hold() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut events = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let sc = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let what = path.display().to_string();
        events += each_log!(&sc.body, l => check_log(sc.seed, l, &what));
    }
    for l in lessons::all() {
        let sc = &l.scenario;
        events += each_log!(&sc.body, log => check_log(sc.seed, log, l.id));
    }
    assert!(events > 1000, "{events} events checked");
}

#[test]
fn every_engine_names_its_round() {
    assert_eq!(pulsar::Sim::round_action(), pulsar::Action::Step);
    assert_eq!(flink::Sim::round_action(), flink::Action::Schedule);
    assert_eq!(kstreams::Sim::round_action(), kstreams::Action::Rebalance);
}

/// Every system names its round on the page (the round button's label and
/// tooltip), and the page finds each system's words from its engine type.
#[test]
fn every_system_names_its_round() {
    use lbscope::engine::System;
    use lbscope::playground::{words, Present};
    let names: Vec<&str> = System::ALL.iter().map(|s| words(*s).round).collect();
    assert_eq!(names, ["Step", "Schedule", "Rebalance"]);
    assert_eq!(words(System::Pulsar), &pulsar::Sim::WORDS);
    assert_eq!(words(System::Flink), &flink::Sim::WORDS);
    assert_eq!(words(System::Kstreams), &kstreams::Sim::WORDS);
    for s in System::ALL {
        let help = words(s).round_help;
        assert!(help.len() > 20, "{s:?}: {help}");
        assert!(!help.ends_with('.'), "{s:?}: the tooltip adds the key after it");
        assert_eq!(words(s).weight_unit == "topics", s == System::Pulsar, "{s:?}");
    }
}
