//! Replaying a whole scenario into a system-neutral event log: what the CLI
//! prints and the golden tests compare (the browser's log is the same list).

use super::{replay, InBody, Log, Scenario, ScenarioError, VisitLog};
use crate::engine::{Engine, Narrate};
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
    /// The entity the event is mainly about, as `(kind, id)` ([`Engine::subject`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<(String, String)>,
}

/// The state a replay ends in, as stable JSON ([`Engine::view_json`]).
pub fn final_state(sc: &Scenario) -> Result<serde_json::Value, ScenarioError> {
    sc.validate()?;
    struct Final<'a>(&'a Scenario);
    impl VisitLog for Final<'_> {
        type Out = Result<serde_json::Value, ScenarioError>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            Ok(replay::<E>(self.0.seed, log, self.0.cursor)?.state.view_json())
        }
    }
    sc.body.visit(Final(sc))
}

/// Replay `sc` up to its cursor and flatten every event.
pub fn event_log(sc: &Scenario) -> Result<Vec<LoggedEvent>, ScenarioError> {
    sc.validate()?;
    struct Events<'a>(&'a Scenario);
    impl VisitLog for Events<'_> {
        type Out = Result<Vec<LoggedEvent>, ScenarioError>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            Ok(flatten(replay::<E>(self.0.seed, log, self.0.cursor)?))
        }
    }
    sc.body.visit(Events(sc))
}

/// One event as the log shows it.
pub fn logged<E: Engine>(step: Option<usize>, e: &E::Event) -> LoggedEvent {
    LoggedEvent {
        step,
        text: e.narrate(),
        subject: E::subject(e).map(|s| (s.kind.to_string(), s.id)),
        event: serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
    }
}

fn flatten<S: Engine>(r: super::Replay<S>) -> Vec<LoggedEvent> {
    let mut out: Vec<LoggedEvent> = r
        .setup
        .iter()
        .flat_map(|s| s.events.iter().map(|e| logged::<S>(None, e)))
        .collect();
    for (i, s) in r.steps.iter().enumerate() {
        out.extend(s.events.iter().map(|e| logged::<S>(Some(i), e)));
    }
    out
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
