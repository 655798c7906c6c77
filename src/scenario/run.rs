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
    let one = |step: Option<usize>, e: &S::Event| LoggedEvent {
        step,
        text: e.narrate(),
        event: serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
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
