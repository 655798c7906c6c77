//! Replaying a whole scenario into a system-neutral event log: what the CLI
//! prints and the golden tests compare (the browser's log is the same list).

use super::{replay, InBody, Log, Scenario, ScenarioError, VisitLog};
use crate::engine::{Engine, Narrate};
use serde::Serialize;
use std::io::Write;

/// One event, as the log shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoggedEvent {
    /// `None` for setup actions, else the log index of the action.
    pub step: Option<usize>,
    /// The round the action ran, when it is the engine's round action
    /// ([`Engine::round_action`]): 1-based, the setup's rounds counted too,
    /// so it is the engine's round number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<usize>,
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
            Ok(flatten(log, replay::<E>(self.0.seed, log, self.0.cursor)?))
        }
    }
    sc.body.visit(Events(sc))
}

/// One event as the log shows it.
pub fn logged<E: Engine>(step: Option<usize>, e: &E::Event) -> LoggedEvent {
    LoggedEvent {
        step,
        round: None,
        text: e.narrate(),
        subject: E::subject(e).map(|s| (s.kind.to_string(), s.id)),
        event: serde_json::to_value(e).unwrap_or(serde_json::Value::Null),
    }
}

/// Counts the rounds of a log as its actions are applied: the setup's round
/// actions first, then each log action that is a round.
struct Rounds<A> {
    round: A,
    n: usize,
}

impl<A: PartialEq> Rounds<A> {
    fn new<'a>(round: A, setup: impl IntoIterator<Item = &'a A>) -> Self
    where
        A: 'a,
    {
        let n = setup.into_iter().filter(|a| **a == round).count();
        Rounds { round, n }
    }

    /// The round number of log action `a` (`None`: not a round).
    fn of(&mut self, a: &A) -> Option<usize> {
        (*a == self.round).then(|| {
            self.n += 1;
            self.n
        })
    }
}

/// One event of log action `i`, labelled with its round.
fn logged_at<E: Engine>(i: usize, round: Option<usize>, e: &E::Event) -> LoggedEvent {
    LoggedEvent {
        round,
        ..logged::<E>(Some(i), e)
    }
}

fn flatten<S: InBody>(log: &Log<S>, r: super::Replay<S>) -> Vec<LoggedEvent> {
    let mut out: Vec<LoggedEvent> = r
        .setup
        .iter()
        .flat_map(|s| s.events.iter().map(|e| logged::<S>(None, e)))
        .collect();
    let mut rounds = Rounds::new(S::round_action(), &log.setup);
    for (i, s) in r.steps.iter().enumerate() {
        let round = log.actions.get(i).and_then(|a| rounds.of(a));
        out.extend(s.events.iter().map(|e| logged_at::<S>(i, round, e)));
    }
    out
}

/// The log as text, one line per event: `[setup]`, `[round N]` (the engine's
/// round number) or `[action N]` (the log action's 1-based place, for actions
/// that are not rounds), then the narration.
pub fn to_text(log: &[LoggedEvent]) -> String {
    log.iter().map(text_line).collect()
}

/// Why a streamed replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The scenario is invalid or an action was refused (the events before it
    /// were written).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// Writing failed.
    #[error("cannot write the event log: {0}")]
    Io(#[from] std::io::Error),
}

/// Replay `sc` once, up to its cursor, handing every event to `each` as the
/// engine makes it: nothing of the log is kept, so memory stays that of the
/// engine however many rounds are replayed. Returns the final state
/// ([`Engine::view_json`]).
pub fn for_each_event(
    sc: &Scenario,
    each: &mut dyn FnMut(LoggedEvent) -> Result<(), StreamError>,
) -> Result<serde_json::Value, StreamError> {
    sc.validate()?;
    struct Each<'a, 'b>(
        &'a Scenario,
        &'b mut dyn FnMut(LoggedEvent) -> Result<(), StreamError>,
    );
    impl VisitLog for Each<'_, '_> {
        type Out = Result<serde_json::Value, StreamError>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            let Each(sc, each) = self;
            let refused = |which, index, e: &dyn std::fmt::Display| ScenarioError::Refused {
                which,
                index,
                message: e.to_string(),
            };
            let mut state = E::new(log.config.clone(), sc.seed).map_err(|e| refused("config", 0, &e))?;
            for (i, a) in log.setup.iter().enumerate() {
                for e in state.apply(a).map_err(|e| refused("setup", i, &e))? {
                    each(logged::<E>(None, &e))?;
                }
            }
            let n = sc.cursor.unwrap_or(log.actions.len()).min(log.actions.len());
            let mut rounds = Rounds::new(E::round_action(), &log.setup);
            for (i, a) in log.actions[..n].iter().enumerate() {
                let round = rounds.of(a);
                for e in state.apply(a).map_err(|e| refused("log", i, &e))? {
                    each(logged_at::<E>(i, round, &e))?;
                }
            }
            Ok(state.view_json())
        }
    }
    sc.body.visit(Each(sc, each))
}

/// One text line of the log ([`to_text`]): the narration with every control
/// character, bidirectional override and noncharacter a name may carry shown
/// as U+FFFD ([`crate::safe_text::line`]), so a scenario cannot drive a terminal.
fn text_line(e: &LoggedEvent) -> String {
    let text = crate::safe_text::line(&e.text);
    match (e.step, e.round) {
        (None, _) => format!("[setup] {text}\n"),
        (Some(_), Some(n)) => format!("[round {n}] {text}\n"),
        (Some(i), None) => format!("[action {}] {text}\n", i + 1),
    }
}

/// Write the log as text while replaying, then `final state:` and the state
/// as pretty JSON: the same lines as [`to_text`] of [`event_log`] followed by
/// the [`final_state`], from one replay that keeps no log. The JSON is written
/// as it is serialized (no whole-document copy), with the characters a
/// terminal would act on escaped ([`crate::safe_text::json`]).
pub fn write_text<W: Write>(sc: &Scenario, out: &mut W) -> Result<(), StreamError> {
    let state = for_each_event(sc, &mut |e| Ok(out.write_all(text_line(&e).as_bytes())?))?;
    out.write_all(b"\nfinal state:\n")?;
    crate::safe_text::write_pretty(&mut *out, &state, 0).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(out.flush()?)
}

/// Write `{"events": [...], "state": ...}` as pretty JSON while replaying,
/// from one replay that keeps no log: the same value as the [`event_log`] and
/// [`final_state`] together. When an action is refused, the document still
/// closes: `{"events": [...the events before it...], "error": "..."}` (and the
/// error comes back too), so the output is always one valid JSON value.
pub fn write_json<W: Write>(sc: &Scenario, out: &mut W) -> Result<(), StreamError> {
    // Each event is printed as the pretty printer prints an element at depth 2.
    let mut first = true;
    out.write_all(b"{\n  \"events\": [")?;
    let state = for_each_event(sc, &mut |e| {
        out.write_all(if first { b"\n    " } else { b",\n    " })?;
        crate::safe_text::write_pretty(&mut *out, &e, 2).map_err(std::io::Error::from)?;
        first = false;
        Ok(())
    });
    out.write_all(if first { b"]" } else { b"\n  ]" })?;
    match state {
        Ok(state) => {
            out.write_all(b",\n  \"state\": ")?;
            crate::safe_text::write_pretty(&mut *out, &state, 1).map_err(std::io::Error::from)?;
            out.write_all(b"\n}\n")?;
            Ok(out.flush()?)
        }
        Err(StreamError::Scenario(e)) => {
            out.write_all(b",\n  \"error\": ")?;
            crate::safe_text::write_pretty(&mut *out, &e.to_string(), 1).map_err(std::io::Error::from)?;
            out.write_all(b"\n}\n")?;
            out.flush()?;
            Err(StreamError::Scenario(e))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed output is byte for byte what the whole-log functions print.
    #[test]
    fn streaming_writes_what_the_whole_log_gives() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let sc = Scenario::from_json(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let log = event_log(&sc).unwrap();
            let state = final_state(&sc).unwrap();
            let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap();
            let mut text = Vec::new();
            write_text(&sc, &mut text).unwrap();
            assert_eq!(
                String::from_utf8(text).unwrap(),
                format!("{}\nfinal state:\n{}\n", to_text(&log), pretty(&state)),
                "{}",
                p.display()
            );
            let mut json = Vec::new();
            write_json(&sc, &mut json).unwrap();
            // The same value (an event's keys in its own order), read by the same parser.
            let json = String::from_utf8(json).unwrap();
            let read = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
            let want = pretty(&serde_json::json!({ "events": log, "state": state }));
            assert!(read(&json) == read(&want), "{}", p.display());
            assert!(json.ends_with("\n}\n"), "{}", p.display());
            n += 1;
        }
        assert!(n > 5);
        // No events at all.
        let empty = Scenario::of::<crate::engine::flink::Sim>(1, crate::scenario::Log::default());
        let mut json = Vec::new();
        write_json(&empty, &mut json).unwrap();
        let want = serde_json::json!({
            "events": event_log(&empty).unwrap(),
            "state": final_state(&empty).unwrap(),
        });
        assert!(serde_json::from_slice::<serde_json::Value>(&json).unwrap() == want);
    }
}
