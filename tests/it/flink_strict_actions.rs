//! A Flink scenario whose action (or a struct inside one) carries a field the
//! action does not have is refused, and the message names the field.

use lbscope::scenario::Scenario;

fn scenario(action: &str) -> String {
    format!(
        r#"{{"format": 2, "seed": 1, "system": "flink", "config": {{}}, "setup": [], "actions": [{action}]}}"#
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
    refused(r#"{"op": "add_task_managers", "count": 2, "slot": 4}"#, "slot");
    refused(
        r#"{"op": "lose_task_manager", "tm": "tm-1", "restart_after": 5}"#,
        "restart_after",
    );
}

#[test]
fn an_unknown_field_inside_a_nested_struct_is_refused_naming_it() {
    // A vertex's slot sharing group is `slot_sharing_group`, not Flink's Java spelling.
    refused(
        r#"{"op": "define_job", "job": {"vertices": [{"name": "A", "parallelism": 2, "slotSharingGroup": "g"}]}}"#,
        "slotSharingGroup",
    );
    refused(
        r#"{"op": "define_job", "job": {"vertices": [{"name": "A", "parallelism": 1}, {"name": "B", "parallelism": 1}], "edges": [{"from": "A", "to": "B", "pattern": "hash", "weight": 1}]}}"#,
        "weight",
    );
    refused(r#"{"op": "define_job", "job": {"vertex": []}}"#, "vertex");
    refused(
        r#"{"op": "set_task_manager_resources", "tm": "tm-1", "resources": {"cpu_cores": 1.0, "memory_mb": 512, "gpu": 1}}"#,
        "gpu",
    );
}

#[test]
fn known_fields_still_read() {
    let s = Scenario::from_json(&scenario(
        r#"{"op": "define_job", "job": {"vertices": [{"name": "A", "parallelism": 2, "slot_sharing_group": "g"}]}}, {"op": "add_task_managers", "count": 1, "slots": 2}, {"op": "schedule"}"#,
    ));
    assert!(s.is_ok(), "{s:?}");
}
