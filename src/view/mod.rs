//! Pictures of a simulation as SVG, engine-independent and pure: the same code
//! draws the `lbscope render` output and the playground's "Export SVG / PNG"
//! and embed view. Each system's state implements [`Drawable`]: the views it
//! offers, one SVG per view (with a legend and a caption: system, scenario
//! summary, position), and its state as a Markdown table ([`markdown`]); the
//! metrics chart ([`chart`]) is drawn from a run's series, for every system.
//!
//! Every picture is a standalone SVG document in a light theme, deterministic
//! (the same state gives the same bytes), and carries its numbers twice: as
//! text a reader sees, and as `data-*` attributes a script or a test reads.

pub mod chart;
mod flink;
pub mod flink_summary;
mod kstreams;
pub mod kstreams_summary;
pub mod markdown;
mod pulsar;
pub mod pulsar_report;
pub mod segments;
pub mod svg;
pub mod sweep;

use crate::engine::{Engine, Series, System};
use crate::scenario::{replay, Body, InBody, Log, Scenario};
use std::fmt;

/// One of the pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViewKind {
    /// Pulsar: a namespace's 32-bit hash ring (bundles by owner, topic ticks).
    Ring,
    /// Pulsar: one bar per broker against the overload line and the average.
    Brokers,
    /// Flink: TaskManagers × slots with their subtasks.
    Slots,
    /// Kafka Streams: instances × threads by rack with their tasks.
    Instances,
    /// Every system: the metrics chart, one line per series over rounds.
    Chart,
}

impl ViewKind {
    /// Every view.
    pub const ALL: [ViewKind; 5] = [
        ViewKind::Ring,
        ViewKind::Brokers,
        ViewKind::Slots,
        ViewKind::Instances,
        ViewKind::Chart,
    ];

    /// Its name on the command line and in links (`ring`, `brokers`, `slots`, `instances`, `chart`).
    pub fn name(self) -> &'static str {
        match self {
            ViewKind::Ring => "ring",
            ViewKind::Brokers => "brokers",
            ViewKind::Slots => "slots",
            ViewKind::Instances => "instances",
            ViewKind::Chart => "chart",
        }
    }

    /// Read a name ([`ViewKind::name`]).
    pub fn parse(s: &str) -> Result<ViewKind, ViewError> {
        ViewKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| ViewError::UnknownView(s.chars().take(40).collect()))
    }

    /// The system it draws (`None`: the chart, which every system has).
    pub fn system(self) -> Option<System> {
        match self {
            ViewKind::Ring | ViewKind::Brokers => Some(System::Pulsar),
            ViewKind::Slots => Some(System::Flink),
            ViewKind::Instances => Some(System::Kstreams),
            ViewKind::Chart => None,
        }
    }

    /// The views of `system`, its main one first, the chart last.
    pub fn of(system: System) -> &'static [ViewKind] {
        match system {
            System::Pulsar => &[ViewKind::Ring, ViewKind::Brokers, ViewKind::Chart],
            System::Flink => &[ViewKind::Slots, ViewKind::Chart],
            System::Kstreams => &[ViewKind::Instances, ViewKind::Chart],
        }
    }
}

impl fmt::Display for ViewKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a picture could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// No view of that name.
    #[error("unknown view {0:?}: the views are ring, brokers (Pulsar), slots (Flink), instances (Kafka Streams) and chart (every system)")]
    UnknownView(String),
    /// A view of another system.
    #[error("the {view} view draws {wants} scenarios; this one is {is} (its views: {offers})")]
    WrongSystem {
        /// The view asked for.
        view: ViewKind,
        /// Its system.
        wants: &'static str,
        /// The scenario's.
        is: &'static str,
        /// The views it offers.
        offers: String,
    },
    /// A Pulsar namespace that does not exist.
    #[error("no namespace {wanted:?} in this scenario (its namespaces: {known})")]
    UnknownNamespace {
        /// Asked for.
        wanted: String,
        /// What there is.
        known: String,
    },
    /// The scenario does not replay.
    #[error("the scenario does not replay: {0}")]
    Replay(String),
}

/// Where in its log the drawn state is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// Log actions applied.
    pub cursor: usize,
    /// Log actions in all.
    pub len: usize,
}

/// What to draw besides the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Pulsar's ring: the namespace (the first one when `None`).
    pub namespace: Option<String>,
    /// Where in the log the state is.
    pub at: At,
}

/// The caption of a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// System and view, e.g. "Apache Pulsar · hash ring of public/default".
    pub title: String,
    /// The scenario in a few numbers ("3 brokers · 1 namespace · 4 bundles · 8 topics").
    pub summary: String,
    /// Where: round, simulated time, actions applied.
    pub position: String,
}

/// A simulation state that can be drawn.
pub trait Drawable: Engine {
    /// The scenario in a few numbers.
    fn summary(&self) -> String;
    /// Round / time / generation, as the system counts.
    fn clock(&self) -> String;
    /// One view as an SVG document (`kind` is one of [`ViewKind::of`] this system).
    fn draw_view(&self, kind: ViewKind, o: &Options, caption: Caption) -> Result<String, ViewError>;
    /// The state as a Markdown table.
    fn table(&self) -> String;
}

/// An engine the views draw and a scenario holds: what sharing, embedding
/// and exporting are written over.
pub trait Shown: Drawable + InBody {}
impl<E: Drawable + InBody> Shown for E {}

/// Code that runs for one [`Shown`] engine type, chosen by a [`System`] value.
pub trait VisitShown {
    /// What it returns.
    type Out;
    /// Run for engine `E`.
    fn visit<E: Shown>(self) -> Self::Out;
}

/// Run `v` with `system`'s engine type (the views' one list of the systems).
pub fn visit<V: VisitShown>(system: System, v: V) -> V::Out {
    match system {
        System::Pulsar => v.visit::<crate::engine::pulsar::Sim>(),
        System::Flink => v.visit::<crate::engine::flink::Sim>(),
        System::Kstreams => v.visit::<crate::engine::kstreams::Sim>(),
    }
}

/// `"after 3 of 5 actions"` (or "at the start").
pub fn position(at: At) -> String {
    if at.len == 0 {
        "no action applied yet".into()
    } else if at.cursor == at.len && at.len == 1 {
        "after its one action".into()
    } else if at.cursor == at.len {
        format!("after all {} actions", at.len)
    } else {
        format!("after {} of {} actions", at.cursor, at.len)
    }
}

/// Draw view `kind` of `state`; `series` gives the run's metric lines
/// ([`Engine::series`] of its events), asked for only by the chart.
pub fn draw<E: Drawable>(
    state: &E,
    kind: ViewKind,
    o: &Options,
    series: impl FnOnce() -> Vec<Series>,
) -> Result<String, ViewError> {
    if let Some(wants) = kind.system().filter(|s| *s != E::SYSTEM) {
        return Err(ViewError::WrongSystem {
            view: kind,
            wants: wants.title(),
            is: E::SYSTEM.title(),
            offers: ViewKind::of(E::SYSTEM)
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let caption = Caption {
        title: String::new(),
        summary: state.summary(),
        position: format!("{} · {}", state.clock(), position(o.at)),
    };
    if kind == ViewKind::Chart {
        return Ok(chart::chart(E::SYSTEM, &series(), caption));
    }
    state.draw_view(kind, o, caption)
}

fn replayed<E: Drawable>(sc: &Scenario, log: &Log<E>) -> Result<(crate::scenario::Replay<E>, At), ViewError> {
    let r = replay::<E>(sc.seed, log, sc.cursor).map_err(|e| ViewError::Replay(e.to_string()))?;
    let at = At {
        cursor: r.steps.len(),
        len: log.actions.len(),
    };
    Ok((r, at))
}

/// The metric lines of a replay (setup first), as the playground's chart has them.
pub fn series_of<E: Engine>(r: &crate::scenario::Replay<E>) -> Vec<Series> {
    E::series(&mut r.setup.iter().chain(&r.steps).flat_map(|s| s.events.iter()))
}

/// Replay `sc` (up to its cursor) and draw view `kind` (the system's main view when `None`).
pub fn render(sc: &Scenario, kind: Option<ViewKind>, namespace: Option<String>) -> Result<String, ViewError> {
    sc.validate().map_err(|e| ViewError::Replay(e.to_string()))?;
    let kind = kind.unwrap_or(ViewKind::of(sc.system())[0]);
    macro_rules! go {
        ($log:expr) => {{
            let (r, at) = replayed(sc, $log)?;
            draw(&r.state, kind, &Options { namespace, at }, || series_of(&r))
        }};
    }
    match &sc.body {
        Body::Pulsar(l) => go!(l),
        Body::Flink(l) => go!(l),
        Body::Kstreams(l) => go!(l),
    }
}

/// Replay `sc` (up to its cursor) and hand back its metric lines (what the chart draws).
pub fn chart_series(sc: &Scenario) -> Result<Vec<Series>, ViewError> {
    sc.validate().map_err(|e| ViewError::Replay(e.to_string()))?;
    macro_rules! go {
        ($log:expr) => {{
            let (r, _) = replayed(sc, $log)?;
            Ok(series_of(&r))
        }};
    }
    match &sc.body {
        Body::Pulsar(l) => go!(l),
        Body::Flink(l) => go!(l),
        Body::Kstreams(l) => go!(l),
    }
}

/// "1 broker", "3 brokers".
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
