//! Kafka Streams' picture: instances × stream threads, one column per rack;
//! actives solid, standbys hatched ("S"), warm-ups outlined ("W"), lags in text.

use super::svg::{color, esc, theme, Svg};
use super::{count, Caption, Drawable, Options, ViewError, ViewKind};
use crate::engine::kstreams::view::ReplicaView;
use crate::engine::kstreams::{InstanceStatus, InstanceView, Role, Sim, TaskId};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const COL_W: f64 = 300.0;
const CHIP_W: f64 = 62.0;
const CHIP_H: f64 = 18.0;
const CHIPS_PER_ROW: usize = 3;

/// The colour of a task, as the playground's (by sub-topology and partition).
fn task_color(t: TaskId) -> (&'static str, &'static str) {
    color(((t.partition + t.subtopology * 3) % 7) as usize)
}

fn mark(r: Role) -> &'static str {
    match r {
        Role::Active => "A",
        Role::Standby => "S",
        Role::WarmUp => "W",
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Active => "active",
        Role::Standby => "standby",
        Role::WarmUp => "warm-up",
    }
}

/// `12,345`.
fn num(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

struct Body<'a>(&'a mut Svg);

impl std::fmt::Write for Body<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.raw(s);
        Ok(())
    }
}

/// Height of one instance card.
fn card_height(i: &InstanceView) -> f64 {
    let rows: usize = i
        .threads
        .iter()
        .map(|t| {
            let n = i.replicas.iter().filter(|r| r.thread == t.thread).count();
            n.div_ceil(CHIPS_PER_ROW).max(1)
        })
        .sum();
    let lags = i
        .replicas
        .iter()
        .filter(|r| r.lag > 0 && (r.restoring || r.role != Role::Active))
        .count();
    40.0 + rows.max(1) as f64 * (CHIP_H + 4.0) + i.threads.len() as f64 * 4.0 + lags as f64 * 14.0 + 8.0
}

fn card(svg: &mut Svg, i: &InstanceView, x: f64, y: f64) -> f64 {
    let crashed = i.status == InstanceStatus::Crashed;
    let status = if crashed {
        "crashed"
    } else if i.busy {
        "busy"
    } else {
        "idle"
    };
    let h = card_height(i);
    let _ = write!(
        Body(svg),
        "<g class=\"instance\" data-instance=\"{}\" data-status=\"{status}\" data-threads=\"{}\">",
        esc(&i.name),
        i.threads.len()
    );
    let dash = if crashed { " stroke-dasharray=\"5 3\"" } else { "" };
    svg.rect(
        x,
        y,
        COL_W - 12.0,
        h,
        8.0,
        theme::PANEL,
        Some(theme::BORDER),
        dash,
    );
    svg.text(
        x + 10.0,
        y + 18.0,
        13.0,
        "start",
        "700",
        if crashed { theme::MUTED } else { theme::FG },
        &i.name,
    );
    let pid = i.process_id.to_string();
    let order = i.order.map(|o| format!(" · #{}", o + 1)).unwrap_or_default();
    svg.text(
        x + COL_W - 22.0,
        y + 18.0,
        10.0,
        "end",
        "600",
        if crashed { theme::HOT } else { theme::MUTED },
        &format!(
            "{} · pid {}…{order}",
            status.to_uppercase(),
            &pid[..pid.len().min(8)]
        ),
    );
    let mut ty = y + 30.0;
    if i.threads.is_empty() {
        svg.text(
            x + 10.0,
            ty + 12.0,
            11.0,
            "start",
            "400",
            theme::MUTED,
            "no stream thread",
        );
    }
    for t in &i.threads {
        ty = thread_row(svg, i, t.thread, x, ty);
    }
    lag_lines(svg, i, x, ty);
    svg.raw("</g>");
    h
}

/// Thread `thread` of instance `i` at `(x, ty)`: its name and a chip per task it
/// runs (or "idle"); the `ty` of the next thread.
fn thread_row(svg: &mut Svg, i: &InstanceView, thread: u32, x: f64, ty: f64) -> f64 {
    let reps: Vec<_> = i.replicas.iter().filter(|r| r.thread == thread).collect();
    svg.text(
        x + 10.0,
        ty + 13.0,
        11.0,
        "start",
        "600",
        theme::MUTED,
        &format!("T{thread}"),
    );
    if reps.is_empty() {
        svg.text(x + 36.0, ty + 13.0, 11.0, "start", "400", theme::MUTED, "idle");
    }
    for (k, r) in reps.iter().enumerate() {
        let cx = x + 36.0 + (k % CHIPS_PER_ROW) as f64 * (CHIP_W + 4.0);
        let cy = ty + (k / CHIPS_PER_ROW) as f64 * (CHIP_H + 4.0);
        chip(svg, r, cx, cy);
    }
    ty + reps.len().div_ceil(CHIPS_PER_ROW).max(1) as f64 * (CHIP_H + 4.0) + 4.0
}

/// One task chip at `(cx, cy)`: filled when active, outlined and hatched when a
/// standby, dashed when a warm-up.
fn chip(svg: &mut Svg, r: &ReplicaView, cx: f64, cy: f64) {
    let (bg, fg) = task_color(r.task);
    let extra = format!(
        " class=\"task {}\" data-task=\"{}\" data-role=\"{}\" data-lag=\"{}\"",
        role_name(r.role),
        r.task,
        role_name(r.role),
        r.lag
    );
    match r.role {
        Role::Active => svg.rect(cx, cy, CHIP_W, CHIP_H, 4.0, bg, None, &extra),
        Role::Standby => {
            svg.rect(
                cx,
                cy,
                CHIP_W,
                CHIP_H,
                4.0,
                theme::BG,
                Some(bg),
                &format!("{extra} stroke-width=\"2\""),
            );
            svg.rect(
                cx,
                cy,
                CHIP_W,
                CHIP_H,
                4.0,
                "url(#unowned-hatch)",
                None,
                " opacity=\"0.5\"",
            );
        }
        Role::WarmUp => svg.rect(
            cx,
            cy,
            CHIP_W,
            CHIP_H,
            4.0,
            theme::BG,
            Some(bg),
            &format!("{extra} stroke-width=\"2\" stroke-dasharray=\"2 2\""),
        ),
    }
    let text_fill = if r.role == Role::Active { fg } else { theme::FG };
    let label = format!(
        "{} {}{}",
        mark(r.role),
        r.task,
        if r.restoring { " ⟳" } else { "" }
    );
    svg.text(
        cx + CHIP_W / 2.0,
        cy + 13.0,
        11.0,
        "middle",
        "600",
        text_fill,
        &label,
    );
}

/// A line per replica still behind its changelog, from `ty`.
fn lag_lines(svg: &mut Svg, i: &InstanceView, x: f64, mut ty: f64) {
    for r in i
        .replicas
        .iter()
        .filter(|r| r.lag > 0 && (r.restoring || r.role != Role::Active))
    {
        let what = if r.restoring {
            "restoring"
        } else {
            role_name(r.role)
        };
        svg.text(
            x + 10.0,
            ty + 10.0,
            10.0,
            "start",
            "400",
            theme::MUTED,
            &format!("{} {what}: lag {} records", r.task, num(r.lag)),
        );
        ty += 14.0;
    }
}

fn instances(sim: &Sim, mut caption: Caption) -> String {
    let view = sim.view();
    caption.title = "Kafka Streams · instances × stream threads by rack".into();
    let mut racks: BTreeMap<(bool, String), Vec<&InstanceView>> = BTreeMap::new();
    for i in &view.instances {
        let key = (i.rack.is_none(), i.rack.clone().unwrap_or_default());
        racks.entry(key).or_default().push(i);
    }
    let width = (16.0 + racks.len().max(1) as f64 * COL_W).max(720.0);
    let mut svg = Svg::new(width, 200.0, &caption.title);
    svg.root_attr("data-view", "instances");
    svg.root_attr("data-system", "kstreams");
    svg.root_attr("data-instances", &view.instances.len().to_string());
    svg.root_attr("data-tasks", &view.tasks.len().to_string());
    svg.root_attr("data-generation", &view.generation.to_string());
    let top = svg.caption(&caption) + 8.0;
    let mut bottom = top;
    if view.instances.is_empty() {
        svg.text(
            16.0,
            top + 14.0,
            12.0,
            "start",
            "400",
            theme::MUTED,
            "No instance runs yet.",
        );
        bottom = top + 24.0;
    }
    for (c, ((none, rack), insts)) in racks.iter().enumerate() {
        let x = 16.0 + c as f64 * COL_W;
        let title = if *none {
            "no client.rack".to_string()
        } else {
            format!("rack {rack}")
        };
        svg.text(x, top + 12.0, 12.0, "start", "700", theme::FG, &title);
        let mut y = top + 22.0;
        for i in insts {
            y += card(&mut svg, i, x, y) + 10.0;
        }
        bottom = bottom.max(y);
    }
    let unassigned: Vec<String> = view
        .tasks
        .iter()
        .filter(|t| t.active.is_none())
        .map(|t| t.id.to_string())
        .collect();
    if !unassigned.is_empty() && !view.instances.is_empty() {
        bottom += 6.0;
        let shown: Vec<&str> = unassigned.iter().take(30).map(String::as_str).collect();
        let more = if unassigned.len() > 30 {
            format!(" … {} more", unassigned.len() - 30)
        } else {
            String::new()
        };
        svg.text(
            16.0,
            bottom + 10.0,
            11.0,
            "start",
            "400",
            theme::HOT,
            &format!("Tasks with no active: {}{more}", shown.join(", ")),
        );
        bottom += 20.0;
    }
    let legend = [
        ("#E69F00".to_string(), "A: active (solid)".to_string()),
        ("hatch".to_string(), "S: standby (hatched outline)".to_string()),
        (theme::BG.to_string(), "W: warm-up (dotted outline)".to_string()),
    ];
    let end = svg.legend(16.0, bottom + 10.0, &legend, 3);
    let m = &view.metrics;
    let metrics = format!(
        "{} · {} probing · tasks moved {} (last rebalance {}) · records restored {}",
        count(m.rebalances as usize, "rebalance", "rebalances"),
        m.probing_rebalances,
        m.tasks_moved,
        m.last_rebalance_moved,
        num(m.records_restored)
    );
    svg.text(16.0, end + 12.0, 11.0, "start", "400", theme::MUTED, &metrics);
    svg.fit_height(end + 26.0);
    svg.finish()
}

impl Drawable for Sim {
    fn summary(&self) -> String {
        let v = self.view();
        let running = v
            .instances
            .iter()
            .filter(|i| i.status == InstanceStatus::Running)
            .count();
        let threads: usize = v.instances.iter().map(|i| i.threads.len()).sum();
        let stateful = v.tasks.iter().filter(|t| t.stateful).count();
        let inst = if running == v.instances.len() {
            count(v.instances.len(), "instance", "instances")
        } else {
            format!(
                "{} ({running} running)",
                count(v.instances.len(), "instance", "instances")
            )
        };
        format!(
            "{inst} · {} · {} ({stateful} stateful) · num.standby.replicas = {}",
            count(threads, "thread", "threads"),
            count(v.tasks.len(), "task", "tasks"),
            v.config.num_standby_replicas
        )
    }

    fn clock(&self) -> String {
        format!(
            "generation {} · t = {} s",
            self.generation(),
            self.view().now_ms / 1000
        )
    }

    fn draw_view(&self, _: ViewKind, _: &Options, caption: Caption) -> Result<String, ViewError> {
        Ok(instances(self, caption))
    }

    fn table(&self) -> String {
        let v = self.view();
        let mut out = String::from(
            "| instance | rack | status | threads | active | standby | warm-up |\n| --- | --- | --- | ---: | --- | --- | --- |\n",
        );
        for i in &v.instances {
            let of = |role: Role| {
                let ids: Vec<String> = i
                    .replicas
                    .iter()
                    .filter(|r| r.role == role)
                    .map(|r| r.task.to_string())
                    .collect();
                if ids.is_empty() {
                    "–".to_string()
                } else {
                    ids.join(", ")
                }
            };
            let status = match i.status {
                InstanceStatus::Crashed => "crashed",
                InstanceStatus::Running if i.busy => "busy",
                InstanceStatus::Running => "idle",
            };
            let _ = writeln!(
                out,
                "| {} | {} | {status} | {} | {} | {} | {} |",
                super::markdown::cell(&i.name),
                super::markdown::cell(i.rack.as_deref().unwrap_or("–")),
                i.threads.len(),
                of(Role::Active),
                of(Role::Standby),
                of(Role::WarmUp)
            );
        }
        out
    }
}
