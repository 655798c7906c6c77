//! Replaying a whole scenario into a system-neutral event log: what the CLI
//! prints and the golden tests compare (the browser's log is the same list).

use super::{replay, InBody, Log, Scenario, ScenarioError, VisitLog};
use crate::engine::outcome::{self, Measure, Meter, Outcome, Settings};
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

/// Writes a state's view JSON ([`Engine::serialize_view`]) as pretty JSON at
/// an indent depth, escaped for terminals.
pub type WriteState<'a> = &'a dyn Fn(&mut dyn Write, usize) -> std::io::Result<()>;

/// The state's view, serialized by [`Engine::serialize_view`].
struct ViewOf<'a, E>(&'a E);

impl<E: Engine> Serialize for ViewOf<'_, E> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_view(s)
    }
}

/// Replay `sc` once, up to its cursor, handing every event to `each` as the
/// engine makes it, then the final state to `end` (as a writer of its JSON):
/// nothing of the log is kept and the state is never copied into a JSON tree
/// or string, so memory stays that of the engine however many rounds are
/// replayed and however large the cluster.
pub fn for_each_event(
    sc: &Scenario,
    settle: Settle,
    each: &mut dyn FnMut(LoggedEvent) -> Result<(), StreamError>,
    end: &mut dyn FnMut(&Outcome, WriteState<'_>) -> Result<(), StreamError>,
) -> Result<(), StreamError> {
    sc.validate()?;
    struct Each<'a, 'b, 'c>(
        &'a Scenario,
        Settle,
        &'b mut dyn FnMut(LoggedEvent) -> Result<(), StreamError>,
        &'c mut dyn FnMut(&Outcome, WriteState<'_>) -> Result<(), StreamError>,
    );
    impl VisitLog for Each<'_, '_, '_> {
        type Out = Result<(), StreamError>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            let Each(sc, settle, each, end) = self;
            let mut meter = E::meter(&log.config, settle.settings(E::SYSTEM));
            let refused = |which, index, e: &dyn std::fmt::Display| ScenarioError::Refused {
                which,
                index,
                message: e.to_string(),
            };
            let mut state = E::new(log.config.clone(), sc.seed).map_err(|e| refused("config", 0, &e))?;
            for (i, a) in log.setup.iter().enumerate() {
                let events = state.apply_setup(a, log.setup.get(i + 1));
                for e in events.map_err(|e| refused("setup", i, &e))? {
                    meter.event(&e);
                    each(logged::<E>(None, &e))?;
                }
            }
            let n = sc.cursor.unwrap_or(log.actions.len()).min(log.actions.len());
            let mut rounds = Rounds::new(E::round_action(), &log.setup);
            for (i, a) in log.actions[..n].iter().enumerate() {
                let round = rounds.of(a);
                for e in state.apply(a).map_err(|e| refused("log", i, &e))? {
                    meter.event(&e);
                    each(logged_at::<E>(i, round, &e))?;
                }
            }
            let write = |w: &mut dyn Write, depth: usize| {
                crate::safe_text::write_pretty(w, &ViewOf(&state), depth).map_err(std::io::Error::from)
            };
            end(&meter.outcome(), &write)
        }
    }
    sc.body.visit(Each(sc, settle, each, end))
}

/// What the settling rule of an outcome is asked to be: each value left out
/// takes the system's default ([`Settings::of`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Settle {
    /// Quiet rounds.
    pub quiet_rounds: Option<u32>,
    /// Band, in the system's unit of load.
    pub band: Option<f64>,
}

impl Settle {
    /// The rule for `system`.
    pub fn settings(self, system: crate::engine::System) -> Settings {
        Settings::with(system, self.quiet_rounds, self.band)
    }
}

/// The outcome of replaying `sc` up to its cursor ([`outcome`]), read from
/// the events as the engine makes them: nothing is narrated or kept, so a
/// sweep of many seeds costs the engine's work alone.
pub fn outcome(sc: &Scenario, settle: Settle) -> Result<Outcome, ScenarioError> {
    sc.validate()?;
    struct Measured<'a>(&'a Scenario, Settle);
    impl VisitLog for Measured<'_> {
        type Out = Result<Outcome, ScenarioError>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            let Measured(sc, settle) = self;
            let refused = |which, index, e: &dyn std::fmt::Display| ScenarioError::Refused {
                which,
                index,
                message: e.to_string(),
            };
            let mut meter = E::meter(&log.config, settle.settings(E::SYSTEM));
            let mut state = E::new(log.config.clone(), sc.seed).map_err(|e| refused("config", 0, &e))?;
            for (i, a) in log.setup.iter().enumerate() {
                let events = state.apply_setup(a, log.setup.get(i + 1));
                for e in events.map_err(|e| refused("setup", i, &e))? {
                    meter.event(&e);
                }
            }
            let n = sc.cursor.unwrap_or(log.actions.len()).min(log.actions.len());
            for (i, a) in log.actions[..n].iter().enumerate() {
                for e in state.apply(a).map_err(|e| refused("log", i, &e))? {
                    meter.event(&e);
                }
            }
            Ok(meter.outcome())
        }
    }
    sc.body.visit(Measured(sc, settle))
}

/// The outcome of a log's events (setup first), as [`outcome`] reads them.
pub fn outcome_of<E: Measure>(config: &E::Config, settle: Settle, events: &[LoggedEvent]) -> Outcome {
    let events: Vec<E::Event> = events
        .iter()
        .filter_map(|e| serde_json::from_value(e.event.clone()).ok())
        .collect();
    outcome::of::<E>(config, settle.settings(E::SYSTEM), &events)
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
    write_text_with(sc, Settle::default(), out)
}

/// [`write_text`] with a settling rule for the outcome.
pub fn write_text_with<W: Write>(sc: &Scenario, settle: Settle, out: &mut W) -> Result<(), StreamError> {
    let out = std::cell::RefCell::new(out);
    for_each_event(
        sc,
        settle,
        &mut |e| Ok(out.borrow_mut().write_all(text_line(&e).as_bytes())?),
        &mut |outcome, state| {
            let mut o = out.borrow_mut();
            o.write_all(b"\noutcome:\n")?;
            o.write_all(crate::safe_text::message(&outcome.to_text()).as_bytes())?;
            o.write_all(b"\nfinal state:\n")?;
            state(&mut *o, 0)?;
            o.write_all(b"\n")?;
            Ok(())
        },
    )?;
    let flushed = out.borrow_mut().flush();
    Ok(flushed?)
}

/// Write `{"events": [...], "state": ...}` as pretty JSON while replaying,
/// from one replay that keeps no log: the same value as the [`event_log`] and
/// [`final_state`] together. When an action is refused, the document still
/// closes: `{"events": [...the events before it...], "error": "..."}` (and the
/// error comes back too), so the output is always one valid JSON value.
pub fn write_json<W: Write>(sc: &Scenario, out: &mut W) -> Result<(), StreamError> {
    write_json_with(sc, Settle::default(), out)
}

/// [`write_json`] with a settling rule for the outcome.
pub fn write_json_with<W: Write>(sc: &Scenario, settle: Settle, out: &mut W) -> Result<(), StreamError> {
    // Each event is printed as the pretty printer prints an element at depth 2.
    let first = std::cell::Cell::new(true);
    let out = std::cell::RefCell::new(out);
    out.borrow_mut().write_all(b"{\n  \"events\": [")?;
    let close = |o: &mut W| o.write_all(if first.get() { b"]" } else { b"\n  ]" });
    let r = for_each_event(
        sc,
        settle,
        &mut |e| {
            let mut o = out.borrow_mut();
            o.write_all(if first.get() { b"\n    " } else { b",\n    " })?;
            crate::safe_text::write_pretty(&mut **o, &e, 2).map_err(std::io::Error::from)?;
            first.set(false);
            Ok(())
        },
        &mut |outcome, state| {
            let mut o = out.borrow_mut();
            close(&mut o)?;
            o.write_all(b",\n  \"outcome\": ")?;
            crate::safe_text::write_pretty(&mut **o, outcome, 1).map_err(std::io::Error::from)?;
            o.write_all(b",\n  \"state\": ")?;
            state(&mut **o, 1)?;
            o.write_all(b"\n}\n")?;
            Ok(())
        },
    );
    let mut o = out.borrow_mut();
    match r {
        Ok(()) => Ok(o.flush()?),
        Err(StreamError::Scenario(e)) => {
            close(&mut o)?;
            o.write_all(b",\n  \"error\": ")?;
            crate::safe_text::write_pretty(&mut **o, &e.to_string(), 1).map_err(std::io::Error::from)?;
            o.write_all(b"\n}\n")?;
            o.flush()?;
            Err(StreamError::Scenario(e))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal values, numbers to f32 precision.
    fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value::*;
        match (a, b) {
            (Number(x), Number(y)) => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                x == y || (x as f32) == (y as f32)
            }
            (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(u, v)| same(u, v)),
            (Object(x), Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, u)| y.get(k).is_some_and(|v| same(u, v)))
            }
            _ => a == b,
        }
    }

    /// The streamed output is what the whole-log functions give.
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
            let read = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
            let mut text = Vec::new();
            write_text(&sc, &mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            let (events, written) = text.split_once("\nfinal state:\n").unwrap();
            let (events, told) = events.split_once("\noutcome:\n").unwrap();
            assert_eq!(events, to_text(&log), "{}", p.display());
            let outcome = outcome(&sc, Settle::default()).unwrap();
            assert_eq!(told, outcome.to_text(), "{}", p.display());
            // The state streamed: the value of the state's JSON tree (the views' own key
            // order; an f32 written as its own shortest text, not widened to f64 first).
            assert!(same(&read(written), &read(&pretty(&state))), "{}", p.display());
            assert!(written.ends_with("}\n"), "{}", p.display());
            let mut json = Vec::new();
            write_json(&sc, &mut json).unwrap();
            // The same value (an event's keys in its own order), read by the same parser.
            let json = String::from_utf8(json).unwrap();
            let want = pretty(&serde_json::json!({ "events": log, "outcome": outcome, "state": state }));
            assert!(same(&read(&json), &read(&want)), "{}", p.display());
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
            "outcome": outcome(&empty, Settle::default()).unwrap(),
            "state": final_state(&empty).unwrap(),
        });
        assert!(same(
            &serde_json::from_slice::<serde_json::Value>(&json).unwrap(),
            &want
        ));
    }
}
