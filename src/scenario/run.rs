//! Replaying a whole scenario into a system-neutral event log: what the CLI
//! prints and the golden tests compare (the browser's log is the same list).

use super::{replay, Body, Scenario, ScenarioError};
use crate::engine::{flink, kstreams, pulsar, Engine, Narrate};
use serde::Serialize;

/// One event, as the log shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoggedEvent {
    /// `None` for setup actions, else the log index of the action.
    pub step: Option<usize>,
    /// The narration.
    pub text: String,
    /// The event itself (its JSON form).
    pub event: serde_json::Value,
    /// The entity the event is mainly about, as `(kind, id)` (see [`subject_of`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<(String, String)>,
}

/// Keys an event's JSON may name its subject by, most specific first.
const SUBJECT_KEYS: [&str; 10] = [
    "bundle", "topic", "slot", "task", "broker", "tm", "vertex", "thread", "instance", "client",
];

/// The entity an event (in JSON form) is mainly about: the first of
/// [`SUBJECT_KEYS`] it carries, with a Pulsar bundle written `tenant/ns/0x…_0x…`
/// as the views label it. `None` for events about the whole cluster.
pub fn subject_of(event: &serde_json::Value) -> Option<(String, String)> {
    let obj = event.as_object()?;
    // A Kafka Streams thread is named within its instance: `app-1/T2`.
    if let (Some(inst), Some(t)) = (obj.get("instance").and_then(|v| v.as_str()), obj.get("thread")) {
        if let Some(n) = t.as_u64() {
            return Some(("thread".to_string(), format!("{inst}/T{n}")));
        }
    }
    SUBJECT_KEYS.iter().find_map(|&k| {
        let v = obj.get(k)?;
        let id = match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Object(o) => {
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

/// The state a replay ends in, as stable JSON: Pulsar's rings (with bundle owners)
/// and broker loads, Flink's slot grid and metrics, Kafka Streams' view.
pub fn final_state(sc: &Scenario) -> Result<serde_json::Value, ScenarioError> {
    sc.validate()?;
    let v = match &sc.body {
        Body::Pulsar(log) => {
            let st = replay::<pulsar::Sim>(sc.seed, log, sc.cursor)?.state;
            let rings: Vec<_> = st
                .namespaces()
                .keys()
                .filter_map(|ns| st.ring_view(ns, false))
                .collect();
            serde_json::json!({ "namespaces": rings, "brokers": st.broker_views(), "rounds": st.metrics() })
        }
        Body::Flink(log) => {
            let st = replay::<flink::Sim>(sc.seed, log, sc.cursor)?.state;
            serde_json::json!({ "slot_grid": st.slot_grid(), "metrics": st.metrics() })
        }
        Body::Kstreams(log) => {
            let st = replay::<kstreams::Sim>(sc.seed, log, sc.cursor)?.state;
            serde_json::to_value(st.view()).unwrap_or_default()
        }
    };
    Ok(v)
}

/// Replay `sc` up to its cursor and flatten every event.
pub fn event_log(sc: &Scenario) -> Result<Vec<LoggedEvent>, ScenarioError> {
    sc.validate()?;
    match &sc.body {
        Body::Pulsar(log) => flatten(replay::<pulsar::Sim>(sc.seed, log, sc.cursor)?),
        Body::Flink(log) => flatten(replay::<flink::Sim>(sc.seed, log, sc.cursor)?),
        Body::Kstreams(log) => flatten(replay::<kstreams::Sim>(sc.seed, log, sc.cursor)?),
    }
}

fn flatten<S: Engine>(r: super::Replay<S>) -> Result<Vec<LoggedEvent>, ScenarioError> {
    let one = |step: Option<usize>, e: &S::Event| {
        let event = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
        LoggedEvent {
            step,
            text: e.narrate(),
            subject: subject_of(&event),
            event,
        }
    };
    let mut out: Vec<LoggedEvent> = r
        .setup
        .iter()
        .flat_map(|s| s.events.iter().map(|e| one(None, e)))
        .collect();
    for (i, s) in r.steps.iter().enumerate() {
        out.extend(s.events.iter().map(|e| one(Some(i), e)));
    }
    Ok(out)
}

/// The log as text, one line per event: `[setup]` or `[#i]`, then the narration.
pub fn to_text(log: &[LoggedEvent]) -> String {
    log.iter()
        .map(|e| match e.step {
            None => format!("[setup] {}\n", e.text),
            Some(i) => format!("[#{i}] {}\n", e.text),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subjects_are_found_by_key() {
        let b = json!({"kind": "lookup", "broker": "broker-2",
            "bundle": {"namespace": "public/default", "range": {"lower": 0, "upper": 1073741824}}});
        assert_eq!(
            subject_of(&b),
            Some(("bundle".into(), "public/default/0x00000000_0x40000000".into()))
        );
        assert_eq!(
            subject_of(&json!({"kind": "x", "broker": "b1"})),
            Some(("broker".into(), "b1".into()))
        );
        assert_eq!(subject_of(&json!({"kind": "round_done"})), None);
        assert_eq!(
            subject_of(&json!({"kind": "thread_added", "instance": "app-1", "thread": 2})),
            Some(("thread".into(), "app-1/T2".into()))
        );
        assert_eq!(subject_of(&json!([1, 2])), None);
    }
}
