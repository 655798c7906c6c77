//! One playground tab's live session, whatever its engine: the store keeps one
//! [`Live`] per system (and one for a running lesson) and talks to it through the
//! object-safe [`Tab`] trait, which [`Session`] implements once, generically. A
//! view that draws one system's state asks for its typed session
//! ([`Live::session`]).

use super::{EventRow, Proposal, SettingRow};
use crate::engine::outcome::{self, Outcome};
use crate::engine::schema::{self, ConfigChange, Schema};
use crate::engine::{AnyAction, Engine, Narrate, Series, System};
use crate::scenario::session::Session;
use crate::scenario::{InBody, Log, Scenario};
use serde_json::Value;
use std::any::Any;
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

/// Undo / redo state of a tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct History {
    /// Something to undo.
    pub can_undo: bool,
    /// A redo tail exists.
    pub can_redo: bool,
    /// Log actions applied.
    pub cursor: usize,
    /// Log actions in all (with the redo tail).
    pub len: usize,
}

/// What the store asks of a session, whatever its engine.
pub trait Tab {
    /// Its system.
    fn system(&self) -> System;
    /// The typed session (`Session<E>`), for views of one system.
    fn as_any(&self) -> &dyn Any;
    /// Apply an action of this tab's system (refused: the engine's message).
    fn act(&mut self, action: &AnyAction) -> Result<(), String>;
    /// One round ([`Engine::round_action`]).
    fn round(&mut self) -> Result<(), String>;
    /// Undo one action.
    fn undo(&mut self) -> Result<(), String>;
    /// Redo one action.
    fn redo(&mut self) -> Result<(), String>;
    /// Move the cursor.
    fn seek(&mut self, to: usize) -> Result<(), String>;
    /// Undo / redo state.
    fn history(&self) -> History;
    /// The scenario (the redo tail kept, the cursor set when it is not at the end).
    fn scenario(&self) -> Scenario;
    /// The newest `limit` events, newest first, and how many older ones are left out.
    fn event_rows(&self, limit: usize) -> (Vec<EventRow>, usize);
    /// How many events the actions applied so far caused, and how many the setup did.
    fn event_counts(&self) -> (usize, usize);
    /// The newest `limit` narrated events, oldest first, and how many are left out.
    fn narrated_newest(&self, limit: usize) -> (Vec<(Option<usize>, String)>, usize);
    /// The metric lines.
    fn series(&self) -> Vec<Series>;
    /// How the run so far ended and what it cost, read by the engine's outcome
    /// meter from the setup's and the applied actions' events (as `lbscope run`
    /// reads them; the default settling rule).
    fn outcome(&self) -> Outcome;
    /// The metric lines of the same log replayed with one config key changed.
    fn compare(&self, key: &str, value: &Value) -> Result<Vec<Series>, String>;
    /// Every config key: its knob, value and defaults.
    fn settings(&self) -> Vec<SettingRow>;
    /// The config keys a run can be compared on.
    fn compare_keys(&self) -> &'static [&'static str];
    /// Set one config key through the engine's `set_config` action.
    fn set_config(&mut self, key: &str, value: Value) -> Result<(), String>;
    /// What the next round would do, computed on a copy (nothing applied).
    fn propose(&self) -> Result<Proposal, String>;
    /// Whether this session is on `lesson`'s path (same seed, config, setup, and
    /// the lesson's actions up to the cursor): its cursor and last applied action.
    fn on_path(&self, lesson: &Scenario) -> Option<(usize, Option<AnyAction>)>;
}

impl<E: InBody> Tab for Session<E> {
    fn system(&self) -> System {
        E::SYSTEM
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn act(&mut self, action: &AnyAction) -> Result<(), String> {
        let a = E::unwrap(action).ok_or_else(|| {
            format!(
                "a {} action cannot change the {} tab",
                action.system().title(),
                E::SYSTEM.title()
            )
        })?;
        self.apply(a.clone()).map(|_| ()).map_err(|e| e.to_string())
    }

    fn round(&mut self) -> Result<(), String> {
        self.apply(E::round_action())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> Result<(), String> {
        Session::undo(self).map_err(|e| e.to_string())
    }

    fn redo(&mut self) -> Result<(), String> {
        Session::redo(self).map_err(|e| e.to_string())
    }

    fn seek(&mut self, to: usize) -> Result<(), String> {
        Session::seek(self, to).map_err(|e| e.to_string())
    }

    fn history(&self) -> History {
        History {
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            cursor: self.cursor(),
            len: self.log().actions.len(),
        }
    }

    fn scenario(&self) -> Scenario {
        let mut sc = Scenario::of::<E>(self.seed(), self.log().clone());
        sc.cursor = self.can_redo().then_some(self.cursor());
        sc
    }

    fn event_counts(&self) -> (usize, usize) {
        (self.steps().iter().map(Vec::len).sum(), self.setup_events().len())
    }

    fn event_rows(&self, limit: usize) -> (Vec<EventRow>, usize) {
        let (acted, setup) = self.event_counts();
        let total = acted + setup;
        let mut out = Vec::with_capacity(total.min(limit));
        // The round number of each applied action (None: not a round).
        // Rounds the setup ran count too, so the labels match the engine's round numbers.
        let round = E::round_action();
        let mut n = self.log().setup.iter().filter(|a| **a == round).count();
        let rounds: Vec<Option<usize>> = self
            .log()
            .actions
            .iter()
            .take(self.steps().len())
            .map(|a| {
                (*a == round).then(|| {
                    n += 1;
                    n
                })
            })
            .collect();
        'outer: for (i, evs) in self.steps().iter().enumerate().rev() {
            for e in evs.iter().rev() {
                if out.len() == limit {
                    break 'outer;
                }
                let mut r = row::<E>(Some(i), e);
                r.round = rounds.get(i).copied().flatten();
                out.push(r);
            }
        }
        for e in self.setup_events().iter().rev() {
            if out.len() == limit {
                break;
            }
            out.push(row::<E>(None, e));
        }
        let hidden = total - out.len();
        (out, hidden)
    }

    fn narrated_newest(&self, limit: usize) -> (Vec<(Option<usize>, String)>, usize) {
        let total = self.setup_events().len() + self.steps().iter().map(Vec::len).sum::<usize>();
        let skip = total.saturating_sub(limit);
        let setup = self.setup_events().iter().map(|e| (None, e));
        let steps = self
            .steps()
            .iter()
            .enumerate()
            .flat_map(|(i, evs)| evs.iter().map(move |e| (Some(i), e)));
        let out = setup
            .chain(steps)
            .skip(skip)
            .map(|(i, e)| (i, e.narrate()))
            .collect();
        (out, skip)
    }

    fn series(&self) -> Vec<Series> {
        E::series(&mut self.charted_events())
    }

    fn outcome(&self) -> Outcome {
        let events = self.setup_events().iter().chain(self.steps().iter().flatten());
        outcome::of::<E>(&self.log().config, outcome::Settings::of(E::SYSTEM), events)
    }

    fn compare(&self, key: &str, value: &Value) -> Result<Vec<Series>, String> {
        super::compare::series_with(self.seed(), self.log(), Some(self.cursor()), key, value)
    }

    fn settings(&self) -> Vec<SettingRow> {
        let current = schema::to_object(self.state().config());
        let profiles = E::Config::profiles();
        E::Config::knobs()
            .iter()
            .map(|k| SettingRow {
                knob: *k,
                value: current.get(k.key).cloned().unwrap_or(Value::Null),
                defaults: profiles
                    .iter()
                    .map(|(name, c)| (*name, schema::default_in(c, k.key).unwrap_or(Value::Null)))
                    .collect(),
            })
            .collect()
    }

    fn compare_keys(&self) -> &'static [&'static str] {
        E::Config::compare_keys()
    }

    fn set_config(&mut self, key: &str, value: Value) -> Result<(), String> {
        let change = ConfigChange::one(key, value).map_err(|e| e.to_string())?;
        self.apply(E::set_config(change))
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn propose(&self) -> Result<Proposal, String> {
        let mut next = self.state().clone();
        let events = next.apply(&E::round_action()).map_err(|e| e.to_string())?;
        Ok(Proposal {
            system: E::SYSTEM,
            changes: E::changes(self.state(), &next),
            events: events.iter().map(Narrate::narrate).collect(),
            next: Rc::new(next),
        })
    }

    fn on_path(&self, lesson: &Scenario) -> Option<(usize, Option<AnyAction>)> {
        let log = E::log(&lesson.body)?;
        let (l, c) = (self.log(), self.cursor());
        let same = self.seed() == lesson.seed
            && l.config == log.config
            && l.setup == log.setup
            && c <= log.actions.len()
            && l.actions[..c] == log.actions[..c];
        same.then(|| (c, c.checked_sub(1).map(|i| E::wrap(l.actions[i].clone()))))
    }
}

fn row<E: Engine>(step: Option<usize>, e: &E::Event) -> EventRow {
    EventRow {
        step,
        round: None,
        text: super::Narrated::of(e),
        subject: E::subject(e),
    }
}

/// A tab's session, shared: every copy of the store holds the same one (yew
/// keeps the previous store while the reducer builds the next), so a message
/// never copies the engine state or its event history. Views read it during
/// render; only the reducer changes it.
#[derive(Clone)]
pub struct Live(Rc<RefCell<Box<dyn Tab>>>);

impl Live {
    /// Share a session.
    pub fn new<E: InBody>(s: Session<E>) -> Live {
        Live(Rc::new(RefCell::new(Box::new(s))))
    }

    /// Replay `sc` into a session of its system.
    pub fn open(sc: &Scenario) -> Result<Live, String> {
        struct Open<'a>(&'a Scenario);
        impl crate::scenario::VisitLog for Open<'_> {
            type Out = Result<Live, String>;
            fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
                Session::<E>::new(self.0.seed, log.clone(), self.0.cursor)
                    .map(Live::new)
                    .map_err(|e| e.to_string())
            }
        }
        sc.body.visit(Open(sc))
    }

    /// Read it.
    pub fn get(&self) -> Ref<'_, dyn Tab> {
        Ref::map(self.0.borrow(), |b| b.as_ref())
    }

    /// Change it (the reducer).
    pub(crate) fn edit(&self) -> RefMut<'_, dyn Tab> {
        RefMut::map(self.0.borrow_mut(), |b| b.as_mut())
    }

    /// The typed session, when it is engine `E`'s.
    pub fn session<E: Engine>(&self) -> Option<Ref<'_, Session<E>>> {
        Ref::filter_map(self.0.borrow(), |b| b.as_any().downcast_ref::<Session<E>>()).ok()
    }

    /// Whether two handles share one session.
    pub fn same(&self, other: &Live) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Live({:?})", self.get().system())
    }
}
