//! A Kafka Streams scenario whose action (or a struct inside one) carries a field
//! the action does not have is refused, and the message names the field.

use lbscope::engine::kstreams::Action;
use lbscope::scenario::Scenario;

fn scenario(action: &str) -> String {
    format!(
        r#"{{"format": 2, "seed": 1, "system": "kstreams", "config": {{}}, "setup": [], "actions": [{action}]}}"#
    )
}

fn refused(action: &str, field: &str) {
    let err = Scenario::from_json(&scenario(action))
        .expect_err(action)
        .to_string();
    assert!(err.contains(field), "{err}");
}

#[test]
fn an_unknown_field_inside_an_action_is_refused_naming_it() {
    refused(
        r#"{"op": "define_topic", "topic": "in", "partitions": 2, "partitons": 3}"#,
        "partitons",
    );
    refused(r#"{"op": "add_instance", "name": "a", "thread": 2}"#, "thread");
    refused(
        r#"{"op": "remove_instance", "name": "a", "force": true}"#,
        "force",
    );
}

#[test]
fn an_unknown_field_inside_a_nested_struct_is_refused_naming_it() {
    refused(
        r#"{"op": "define_topology", "subtopologies": [{"sources": ["in"], "store": ["s"]}]}"#,
        "store",
    );
    refused(
        r#"{"op": "set_assignment", "instance": "a", "threads": [{"thread": 1, "actives": []}]}"#,
        "actives",
    );
}

#[test]
fn known_fields_still_read() {
    let s = Scenario::from_json(&scenario(
        r#"{"op": "define_topic", "topic": "in", "partitions": 2}, {"op": "rebalance"}"#,
    ));
    assert!(s.is_ok(), "{s:?}");
    let a: Action =
        serde_json::from_str(r#"{"op": "set_config", "config": {"num.standby.replicas": 1}}"#).unwrap();
    assert!(matches!(a, Action::SetConfig(_)));
    // The older one-key form of set_config keeps reading.
    let b: Action =
        serde_json::from_str(r#"{"op": "set_config", "key": "num.standby.replicas", "value": 1}"#).unwrap();
    assert!(matches!(b, Action::SetConfig(_)));
}
