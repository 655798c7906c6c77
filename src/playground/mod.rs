//! The playground's state and its reducer, pure and native (the wasm UI draws
//! it; native tests cover it): a live session per system, the active tab, the
//! lesson being followed (in a session of its own, so a lesson never touches
//! the learner's work), the page, the notice, the proposal of the next round.
//!
//! Everything the browser provides comes in as data: the URL fragment and the
//! saved workspace at boot ([`Boot`]), a fragment the browser navigated to
//! ([`Msg::Location`]), the time a round took ([`Store::last_round_ms`], set by
//! the UI around the reducer). Everything the store asks of the browser goes
//! out as data: the fragment to show ([`Store::fragment`]), the workspace to
//! save ([`Store::workspace_json`]), `window.lbscope` ([`Store::inspect`]).

pub mod compare;
mod field;
mod inspect;
mod lesson_run;
pub mod motion;
mod opening;
pub mod predict;
mod present;
pub mod ring_model;
mod store;
mod tab;
mod workspace;

pub use field::Field;
pub use inspect::{Inspect, INSPECT_MAX_BUNDLES, INSPECT_MAX_EVENTS, INSPECT_MAX_TOPICS};
pub use lesson_run::{LessonMsg, LessonRun, Progress};
pub use opening::{OpenProgress, Opening, OPEN_CHUNK};
pub use present::{words, Present, Words};
pub use store::{Boot, EventLogRows, Msg, Store, HEAVY_REPLAY, MAX_LOG_ROWS};
pub use tab::{History, Live, Tab};
pub use workspace::Workspace;

use crate::engine::schema::Knob;
use crate::engine::{Subject, System};
use serde_json::Value;
use std::any::Any;
use std::rc::Rc;

/// A message to the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Something was refused or could not be read.
    Error(String),
    /// Something worth knowing.
    Info(String),
}

/// The pages besides the playground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The tabs.
    Playground,
    /// The lesson menu.
    Lessons,
    /// The fidelity notes.
    Fidelity,
    /// The examples gallery: every worked example of the documents.
    Gallery,
}

/// Characters of a narration the views get at first: a longer one (a round at
/// 1,000 brokers narrates every broker in one line) is written only that far,
/// and its whole text later, when asked ([`Narrated::whole`]). The views show
/// at most the first few hundred.
pub const NARRATION_START: usize = 1_000;

/// A narration as the views get it: the whole line, or the start of a long one
/// with a way to write the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Narrated {
    /// The whole narration, or, when `whole` is set, its start (more than
    /// [`NARRATION_START`] characters).
    pub text: String,
    /// For a narration cut at its start: the event, to write the whole line.
    pub whole: Option<WholeText>,
}

impl Narrated {
    /// The narration of `e`, up to [`NARRATION_START`] characters when it is long.
    pub fn of<T: crate::engine::Narrate + PartialEq + Clone + 'static>(e: &T) -> Narrated {
        let (text, cut) = e.narrate_start(NARRATION_START);
        Narrated {
            text,
            whole: cut.then(|| WholeText(Rc::new(e.clone()))),
        }
    }

    /// A line written whole.
    pub fn whole_line(text: String) -> Narrated {
        Narrated { text, whole: None }
    }

    /// The whole narration (written now when only its start was).
    pub fn full(&self) -> std::borrow::Cow<'_, str> {
        match &self.whole {
            None => self.text.as_str().into(),
            Some(w) => w.text().into(),
        }
    }
}

/// The whole narration of a long line, written when asked: it keeps the event.
/// Two are equal when they narrate equal events (the same one, most often,
/// which is checked first).
#[derive(Clone)]
pub struct WholeText(Rc<dyn WholeSource>);

impl WholeText {
    /// The whole line.
    pub fn text(&self) -> String {
        self.0.text()
    }
}

impl PartialEq for WholeText {
    fn eq(&self, other: &WholeText) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.same(other.0.as_any())
    }
}

impl std::fmt::Debug for WholeText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WholeText(…)")
    }
}

/// An event kept to narrate in full later.
trait WholeSource {
    fn text(&self) -> String;
    fn same(&self, other: &dyn Any) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: crate::engine::Narrate + PartialEq + 'static> WholeSource for T {
    fn text(&self) -> String {
        self.narrate()
    }
    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One row of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// `None` for setup events, else the log index of the action that caused it.
    pub step: Option<usize>,
    /// The round number (1-based, counting only the engine's round actions) when
    /// the action that caused it is a round (Step, Schedule, Rebalance).
    pub round: Option<usize>,
    /// The narration (of a long one, its start and the event to write the rest).
    pub text: Narrated,
    /// What it is about.
    pub subject: Option<Subject>,
}

/// One config key as the settings panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingRow {
    /// The key, its kind, unit, doc and whether lbscope models it.
    pub knob: Knob,
    /// The value in force (`null`: unset).
    pub value: Value,
    /// Its default in each version profile, the default profile first.
    pub defaults: Vec<(&'static str, Value)>,
}

/// What the next round would do, computed on a copy of the state (nothing
/// applied; the copy carries the RNG, so applying the round gives exactly this).
#[derive(Clone)]
pub struct Proposal {
    /// The tab it was computed for.
    pub system: System,
    /// What would change, one line each (before → after).
    pub changes: Vec<String>,
    /// The round's narrated events.
    pub events: Vec<String>,
    /// The state after the round (`E`, the tab's engine: see [`Proposal::next`]).
    next: Rc<dyn Any>,
}

impl Proposal {
    /// The state after the round, when the proposal is engine `E`'s.
    pub fn next<E: 'static>(&self) -> Option<&E> {
        self.next.downcast_ref()
    }
}

impl std::fmt::Debug for Proposal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proposal")
            .field("system", &self.system)
            .field("changes", &self.changes)
            .field("events", &self.events)
            .finish()
    }
}

impl PartialEq for Proposal {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.next, &o.next)
    }
}
