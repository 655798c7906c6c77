//! The Flink tab: the slot grid of the session beside the same log replayed with
//! the other `taskmanager.load-balance.mode`, a job-graph editor, TaskManager and
//! config controls, and a failover summary. Everything it shows comes from the
//! engine (its state, metrics and events); every change is a `Msg::Flink` action.

mod controls;
mod job_editor;
mod local_recovery;
mod other_job;
mod resources;
mod scheduler;
mod slot_grid;
mod tab;

pub use tab::FlinkTab;

/// The Flink tab's part of the playground.
pub struct Ui;

impl crate::ui::system::SystemUi for Ui {
    fn tab() -> yew::Html {
        yew::html! { <FlinkTab /> }
    }
    const ASIDE: &'static [&'static str] = &["job", "config", "schedule", "members"];
}

use crate::engine::flink::{self, Action, LoadBalanceMode};
use crate::scenario::Log;

pub use crate::view::flink_summary::{list, FlinkSession};

/// Okabe–Ito colour-blind-safe palette (the ring's), with a text colour readable on each.
pub const VERTEX_COLORS: [(&str, &str); 8] = [
    ("#E69F00", "#000"),
    ("#56B4E9", "#000"),
    ("#009E73", "#000"),
    ("#F0E442", "#000"),
    ("#0072B2", "#fff"),
    ("#D55E00", "#000"),
    ("#CC79A7", "#000"),
    ("#999999", "#000"),
];

/// Colours and short labels of the job's vertices (in definition order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexKey {
    /// Vertex names.
    pub names: Vec<String>,
    /// Short names ("A" for "JV-A" when the suffixes are distinct).
    pub short: Vec<String>,
}

impl VertexKey {
    /// Key for these vertex names.
    pub fn new(names: Vec<String>) -> VertexKey {
        let suffix = |n: &str| n.rsplit('-').next().unwrap_or(n).to_string();
        let suffixes: Vec<String> = names.iter().map(|n| suffix(n)).collect();
        let distinct = suffixes
            .iter()
            .enumerate()
            .all(|(i, s)| !s.is_empty() && !suffixes[..i].contains(s));
        let short = if distinct { suffixes } else { names.clone() };
        VertexKey { names, short }
    }

    /// Index of a vertex (unknown names share the last colour).
    pub fn index(&self, vertex: &str) -> Option<usize> {
        self.names.iter().position(|n| n == vertex)
    }

    /// (background, text) colour of a vertex.
    pub fn color(&self, vertex: &str) -> (&'static str, &'static str) {
        let i = self.index(vertex).unwrap_or(VERTEX_COLORS.len() - 1);
        VERTEX_COLORS[i % VERTEX_COLORS.len()]
    }

    /// Short name of a vertex ("A" for "JV-A").
    pub fn short<'a>(&'a self, vertex: &'a str) -> &'a str {
        self.index(vertex)
            .and_then(|i| self.short.get(i))
            .map_or(vertex, String::as_str)
    }

    /// Short label of one subtask, e.g. "A0" (or "source#0" for long names).
    pub fn label(&self, vertex: &str, subtask: u32) -> String {
        let short = self.short(vertex);
        if short.chars().count() <= 3 && !short.ends_with(|c: char| c.is_ascii_digit()) {
            format!("{short}{subtask}")
        } else {
            format!("{short}#{subtask}")
        }
    }
}

/// The mode the comparison replays with: `tasks` unless the session already uses it,
/// then `none`.
pub fn twin_mode(mode: LoadBalanceMode) -> LoadBalanceMode {
    if mode == LoadBalanceMode::Tasks {
        LoadBalanceMode::None
    } else {
        LoadBalanceMode::Tasks
    }
}

/// `log` with every config (the initial one and each `set_config`) switched to `mode`.
/// For `none`, the deprecated `cluster.evenly-spread-out-slots` is cleared too, so the
/// effective mode really is `none`.
pub fn with_mode(log: &Log<flink::Sim>, mode: LoadBalanceMode) -> Log<flink::Sim> {
    let switch = |c: &mut flink::Config| {
        c.load_balance_mode = Some(mode);
        if mode == LoadBalanceMode::None {
            c.evenly_spread_out_slots = false;
        }
    };
    let mut out = log.clone();
    switch(&mut out.config);
    for a in out.setup.iter_mut().chain(out.actions.iter_mut()) {
        if let Action::SetConfig(change) = a {
            // A config change in the log sets the mode too, so it cannot undo the switch.
            let mut p = change
                .config
                .clone()
                .set("taskmanager.load-balance.mode", serde_json::json!(mode.name()));
            if mode == LoadBalanceMode::None {
                p = p.and_then(|p| p.set("cluster.evenly-spread-out-slots", serde_json::json!(false)));
            }
            if let Ok(p) = p {
                change.config = p;
            }
        }
    }
    out
}

/// Human name of a mode.
pub fn mode_title(mode: LoadBalanceMode) -> &'static str {
    match mode {
        LoadBalanceMode::None => "none (default)",
        LoadBalanceMode::Slots => "slots",
        LoadBalanceMode::MinResources => "min_resources",
        LoadBalanceMode::Tasks => "tasks (balanced)",
    }
}
