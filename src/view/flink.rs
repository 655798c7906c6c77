//! Flink's picture: the slot grid (TaskManagers as rows, slots as cells with
//! their subtasks coloured by job vertex) and the balance metrics.

use super::svg::{color, esc, theme, Svg};
use super::{count, Caption, Drawable, Options, ViewError, ViewKind};
use crate::engine::flink::task_manager::TmState;
use crate::engine::flink::view::{SlotCell, TmRow};
use crate::engine::flink::{JobStatus, Sim};
use crate::engine::Engine;
use std::fmt::Write as _;

/// Short labels of the job's vertices: "A" for "JV-A" when the suffixes after
/// the last `-` are distinct, else the names (as the playground labels them).
struct Key {
    names: Vec<String>,
    short: Vec<String>,
}

impl Key {
    fn of(sim: &Sim) -> Key {
        let names: Vec<String> = sim
            .job()
            .map(|j| j.vertices.iter().map(|v| v.name.clone()).collect())
            .unwrap_or_default();
        let suffixes: Vec<String> = names
            .iter()
            .map(|n| n.rsplit('-').next().unwrap_or(n).to_string())
            .collect();
        let distinct = suffixes
            .iter()
            .enumerate()
            .all(|(i, s)| !s.is_empty() && !suffixes[..i].contains(s));
        let short = if distinct { suffixes } else { names.clone() };
        Key { names, short }
    }
    fn index(&self, v: &str) -> Option<usize> {
        self.names.iter().position(|x| x == v)
    }
    fn color(&self, v: &str) -> (&'static str, &'static str) {
        self.index(v).map_or(("#999999", "#000000"), color)
    }
    fn label(&self, v: &str, subtask: u32) -> String {
        let short = self.index(v).map_or(v, |i| self.short[i].as_str());
        if short.chars().count() <= 3 && !short.ends_with(|c: char| c.is_ascii_digit()) {
            format!("{short}{subtask}")
        } else {
            format!("{short}#{subtask}")
        }
    }
}

/// `[4, 3, 2]`, the first 24 numbers of a long list.
fn list(xs: &[u32]) -> String {
    let parts: Vec<String> = xs.iter().take(24).map(u32::to_string).collect();
    if xs.len() > 24 {
        format!("[{}, … {} more]", parts.join(", "), xs.len() - 24)
    } else {
        format!("[{}]", parts.join(", "))
    }
}

fn status(s: JobStatus) -> &'static str {
    match s {
        JobStatus::NoJob => "no job defined",
        JobStatus::Created => "job defined, not scheduled yet",
        JobStatus::Running => "running",
        JobStatus::WaitingForResources => "waiting for the minimum slots",
        JobStatus::Failed => "not running: the last scheduling failed",
    }
}

const CELL_W: f64 = 92.0;
const CHIP_W: f64 = 40.0;
const CHIP_H: f64 = 16.0;
const HEAD_W: f64 = 190.0;

fn slots(sim: &Sim, mut caption: Caption) -> String {
    let grid = sim.slot_grid();
    let key = Key::of(sim);
    caption.title = format!(
        "Apache Flink · slot grid, taskmanager.load-balance.mode = {}",
        grid.mode.name()
    );
    let max_slots = grid.rows.iter().map(|r| r.slots.len()).max().unwrap_or(0);
    let width = (HEAD_W + max_slots as f64 * (CELL_W + 6.0) + 16.0).max(720.0);
    let mut svg = Svg::new(width, 200.0, &caption.title);
    svg.root_attr("data-view", "slots");
    svg.root_attr("data-system", "flink");
    svg.root_attr("data-mode", grid.mode.name());
    svg.root_attr("data-status", &format!("{:?}", grid.status).to_lowercase());
    svg.root_attr("data-task-managers", &grid.rows.len().to_string());
    let mut y = svg.caption(&caption);
    y = spread(&mut svg, sim, y) + 8.0;
    if grid.rows.is_empty() {
        svg.text(
            16.0,
            y + 14.0,
            12.0,
            "start",
            "400",
            theme::MUTED,
            "No TaskManager registered yet.",
        );
        y += 30.0;
    }
    for row in &grid.rows {
        y = tm_row(&mut svg, &key, row, y);
    }
    y = vertex_legend(&mut svg, sim, &key, width, y);
    svg.fit_height(y + 14.0);
    svg.finish()
}

/// The two lines of balance metrics (tasks per TaskManager, per slot) under
/// the caption at `y`, once scheduled; the `y` below them.
fn spread(svg: &mut Svg, sim: &Sim, mut y: f64) -> f64 {
    let Some(m) = sim.metrics() else {
        return y;
    };
    svg.root_attr(
        "data-tm-counts",
        &m.tm_counts()
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
    );
    svg.root_attr("data-tm-range", &m.tm.range.to_string());
    svg.root_attr("data-slot-range", &m.slot.range.to_string());
    y += 4.0;
    let line = format!(
        "Tasks per TaskManager {} max {} · min {} · range {}",
        list(&m.tm_counts()),
        m.tm.max,
        m.tm.min,
        m.tm.range
    );
    svg.text(16.0, y + 10.0, 12.0, "start", "700", theme::FG, &line);
    let line = format!(
        "Tasks per slot {} max {} · min {} · range {}",
        list(&m.tasks_per_slot),
        m.slot.max,
        m.slot.min,
        m.slot.range
    );
    svg.text(16.0, y + 27.0, 12.0, "start", "400", theme::FG, &line);
    y + 36.0
}

/// Chips per line of a slot cell.
fn chips_per_row() -> usize {
    ((CELL_W - 8.0) / (CHIP_W + 2.0)).floor().max(1.0) as usize
}

/// One TaskManager's row at `y`: its name, task and slot counts, and its slot
/// cells; the `y` of the next row.
fn tm_row(svg: &mut Svg, key: &Key, row: &TmRow, y: f64) -> f64 {
    let lost = row.state == TmState::Lost;
    let per_row = chips_per_row();
    let tallest = row
        .slots
        .iter()
        .map(|c| c.subtasks.len().div_ceil(per_row))
        .max()
        .unwrap_or(0);
    let h = 26.0 + tallest.max(1) as f64 * (CHIP_H + 2.0) + 4.0;
    let used = row.slots.iter().filter(|c| c.request.is_some()).count();
    let _ = write!(
        Body(svg),
        "<g class=\"tm-row\" data-tm=\"{}\" data-tasks=\"{}\" data-state=\"{}\">",
        esc(&row.tm),
        row.tasks,
        if lost { "lost" } else { "running" }
    );
    svg.text(
        16.0,
        y + 16.0,
        13.0,
        "start",
        "700",
        if lost { theme::MUTED } else { theme::FG },
        &row.tm,
    );
    let sub = if lost {
        "lost".to_string()
    } else {
        format!(
            "{} · {used}/{} slots",
            count(row.tasks as usize, "task", "tasks"),
            row.slots.len()
        )
    };
    svg.text(16.0, y + 32.0, 11.0, "start", "400", theme::MUTED, &sub);
    for (i, cell) in row.slots.iter().enumerate() {
        let x = HEAD_W + i as f64 * (CELL_W + 6.0);
        slot_cell(svg, key, &row.tm, lost, cell, (x, y, h));
    }
    svg.raw("</g>");
    y + h + 4.0
}

/// One slot cell of TaskManager `tm` at `(x, y)`, `h` high (the row's): its
/// number, its count of subtasks and a chip per subtask.
fn slot_cell(svg: &mut Svg, key: &Key, tm: &str, lost: bool, cell: &SlotCell, (x, y, h): (f64, f64, f64)) {
    let per_row = chips_per_row();
    let free = cell.subtasks.is_empty();
    let extra = format!(
        " class=\"slot\" data-slot=\"{}/{}\" data-tasks=\"{}\"{}",
        esc(tm),
        cell.slot,
        cell.subtasks.len(),
        if lost { " stroke-dasharray=\"4 3\"" } else { "" }
    );
    let fill = if cell.other_job {
        "#e4e4de"
    } else if free {
        theme::BG
    } else {
        theme::PANEL
    };
    svg.rect(x, y, CELL_W, h - 4.0, 6.0, fill, Some(theme::BORDER), &extra);
    let head = if cell.other_job {
        "another job".to_string()
    } else if free {
        "free".to_string()
    } else {
        cell.subtasks.len().to_string()
    };
    svg.text(
        x + 6.0,
        y + 14.0,
        10.0,
        "start",
        "400",
        theme::MUTED,
        &format!("slot {}", cell.slot),
    );
    svg.text(x + CELL_W - 6.0, y + 14.0, 10.0, "end", "700", theme::FG, &head);
    for (k, st) in cell.subtasks.iter().enumerate() {
        let (cx, cy) = (
            x + 4.0 + (k % per_row) as f64 * (CHIP_W + 2.0),
            y + 22.0 + (k / per_row) as f64 * (CHIP_H + 2.0),
        );
        let (bg, fg) = key.color(&st.vertex);
        let extra = format!(
            " class=\"subtask\" data-task=\"{}#{}\"",
            esc(&st.vertex),
            st.subtask
        );
        svg.rect(cx, cy, CHIP_W, CHIP_H, 3.0, bg, None, &extra);
        svg.text(
            cx + CHIP_W / 2.0,
            cy + 12.0,
            10.0,
            "middle",
            "600",
            fg,
            &key.label(&st.vertex, st.subtask),
        );
    }
}

/// The key of job vertices (colour, name, parallelism) from `y`; the `y` under it.
fn vertex_legend(svg: &mut Svg, sim: &Sim, key: &Key, width: f64, mut y: f64) -> f64 {
    let Some(job) = sim.job() else {
        return y;
    };
    let entries: Vec<(String, String)> = job
        .vertices
        .iter()
        .map(|v| {
            let (c, _) = key.color(&v.name);
            (c.to_string(), format!("{} ×{}", v.name, v.parallelism))
        })
        .collect();
    y += 8.0;
    svg.text(
        16.0,
        y + 10.0,
        12.0,
        "start",
        "700",
        theme::FG,
        "Job vertices (subtasks per vertex)",
    );
    let per_col = entries
        .len()
        .div_ceil(((width - 32.0) / 150.0).floor().max(1.0) as usize);
    svg.legend(16.0, y + 18.0, &entries, per_col.max(1))
}

struct Body<'a>(&'a mut Svg);

impl std::fmt::Write for Body<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.raw(s);
        Ok(())
    }
}

impl Drawable for Sim {
    fn summary(&self) -> String {
        let tms = self.task_managers();
        let running = tms.iter().filter(|t| t.state == TmState::Running).count();
        let slots: usize = tms.iter().map(|t| t.slots.len()).sum();
        let tm = if running == tms.len() {
            count(tms.len(), "TaskManager", "TaskManagers")
        } else {
            format!(
                "{} ({running} running)",
                count(tms.len(), "TaskManager", "TaskManagers")
            )
        };
        let job = match self.job() {
            Some(j) => format!(
                " · {} with {} subtasks",
                count(j.vertices.len(), "job vertex", "job vertices"),
                j.vertices.iter().map(|v| v.parallelism as usize).sum::<usize>()
            ),
            None => " · no job".into(),
        };
        format!(
            "{tm} · {}{job} · mode {}",
            count(slots, "slot", "slots"),
            self.config().effective_mode().name()
        )
    }

    fn clock(&self) -> String {
        format!("t = {} ms · {}", self.now_ms(), status(self.status()))
    }

    fn draw_view(&self, _: ViewKind, _: &Options, caption: Caption) -> Result<String, ViewError> {
        Ok(slots(self, caption))
    }

    fn table(&self) -> String {
        let grid = self.slot_grid();
        let mut out = String::from(
            "| TaskManager | state | tasks | slots used | subtasks |\n| --- | --- | ---: | ---: | --- |\n",
        );
        for r in &grid.rows {
            let used = r.slots.iter().filter(|c| c.request.is_some()).count();
            let subtasks: Vec<String> = r
                .slots
                .iter()
                .filter(|c| !c.subtasks.is_empty())
                .map(|c| {
                    let names: Vec<String> = c
                        .subtasks
                        .iter()
                        .map(|s| format!("{}#{}", s.vertex, s.subtask))
                        .collect();
                    format!("slot {}: {}", c.slot, names.join(", "))
                })
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {used}/{} | {} |",
                super::markdown::cell(&r.tm),
                if r.state == TmState::Lost {
                    "lost"
                } else {
                    "running"
                },
                r.tasks,
                r.slots.len(),
                super::markdown::cell(&subtasks.join("; "))
            );
        }
        if let Some(m) = self.metrics() {
            let _ = write!(
                out,
                "\nTasks per TaskManager {} (range {}); tasks per slot {} (range {}).\n",
                list(&m.tm_counts()),
                m.tm.range,
                list(&m.tasks_per_slot),
                m.slot.range
            );
        }
        out
    }
}
