//! `lbscope render`: draw a scenario's view as SVG with the playground's view code.

use crate::scenario::Scenario;
use crate::view::{self, ViewKind};

/// What `render` was asked.
pub struct Render {
    /// The scenario.
    pub scenario: Scenario,
    /// The view (the system's main one when `None`).
    pub view: Option<String>,
    /// Pulsar: the namespace of the ring.
    pub namespace: Option<String>,
    /// Draw the state after this many log actions (the scenario's cursor when `None`).
    pub cursor: Option<usize>,
    /// Draw the state after the log's N-th round (0: before the first).
    pub round: Option<usize>,
    /// Append this many rounds first.
    pub rounds: usize,
    /// Write here instead of stdout.
    pub out: Option<std::path::PathBuf>,
}

/// Draw; the SVG comes back for stdout, or is written to `out` (then a one-line note).
pub fn render(r: Render) -> Result<String, String> {
    let mut sc = r.scenario;
    super::ready(&mut sc, None, r.rounds)?;
    if r.cursor.is_none() && r.round.is_none() {
        super::rounds_note(&mut sc, r.rounds);
    } else {
        // --cursor / --round pick a place in the whole log, the rounds appended to its end.
        sc.cursor = None;
        sc.push_rounds(r.rounds);
    }
    if let Some(c) = r.cursor {
        let len = sc.body.log_len();
        if c > len {
            return Err(format!("--cursor {c}: the scenario has only {len} log actions"));
        }
        sc.cursor = Some(c);
    }
    if let Some(n) = r.round {
        let at = sc.body.after_round(n).ok_or_else(|| {
            format!(
                "--round {n}: the scenario's log has only {} rounds",
                sc.body.round_count()
            )
        })?;
        sc.cursor = Some(at);
    }
    let kind = r
        .view
        .as_deref()
        .map(ViewKind::parse)
        .transpose()
        .map_err(|e| e.to_string())?;
    let svg = view::render(&sc, kind, r.namespace).map_err(|e| e.to_string())?;
    match r.out {
        Some(path) => {
            std::fs::write(&path, &svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(String::new())
        }
        None => Ok(svg),
    }
}
