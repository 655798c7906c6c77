//! One slot grid: TaskManagers as rows, slots as cells listing their subtasks
//! (presentational; the data is the engine's `SlotGrid` and `Metrics`).

use super::{list, mode_title, VertexKey};
use crate::engine::flink::metrics::Metrics;
use crate::engine::flink::task_manager::TmState;
use crate::engine::flink::view::SlotGrid;
use crate::engine::flink::JobStatus;
use crate::ui::store::{Subject, SubjectKind};
use std::rc::Rc;
use yew::prelude::*;

/// What a TaskManager row's buttons ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum TmOp {
    /// Decommission an idle TaskManager.
    Remove(String),
    /// Lose it (failover).
    Lose(String),
    /// Bring a lost one back.
    Restore(String),
}

/// Grid properties.
#[derive(Properties, Clone, PartialEq)]
pub struct GridProps {
    /// The engine's grid.
    pub grid: Rc<SlotGrid>,
    /// The engine's metrics of the last successful scheduling.
    pub metrics: Option<Rc<Metrics>>,
    /// Colours and labels.
    pub vertices: Rc<VertexKey>,
    /// `session` (the user's cluster) or `twin` (the replay with the other mode).
    pub role: AttrValue,
    /// Heading.
    pub title: AttrValue,
    /// What the user points at.
    pub highlight: Option<Subject>,
    /// Point at something (hover / focus).
    pub on_highlight: Callback<Option<Subject>>,
    /// Row buttons (only on the user's own grid).
    #[prop_or_default]
    pub on_tm: Option<Callback<TmOp>>,
}

fn lit(h: &Option<Subject>, kind: SubjectKind, id: &str) -> bool {
    h.as_ref().is_some_and(|s| s.kind == kind && s.id == id)
}

fn subject(kind: SubjectKind, id: &str) -> Option<Subject> {
    Some(Subject::new(kind, id))
}

/// The slot grid.
#[component]
pub fn SlotGridView(p: &GridProps) -> Html {
    let g = &p.grid;
    let h = &p.highlight;
    let point = |kind: SubjectKind, id: String| {
        let on = p.on_highlight.clone();
        let off = p.on_highlight.clone();
        let id2 = id.clone();
        (
            Callback::from(move |_: MouseEvent| on.emit(subject(kind, &id))),
            Callback::from(move |_: MouseEvent| off.emit(None)),
            {
                let on = p.on_highlight.clone();
                Callback::from(move |_: FocusEvent| on.emit(subject(kind, &id2)))
            },
        )
    };

    let rows = g.rows.iter().map(|row| {
        let lost = row.state == TmState::Lost;
        let idle = row.slots.iter().all(|c| c.request.is_none());
        let used = row.slots.iter().filter(|c| c.request.is_some()).count();
        let cells = row.slots.iter().map(|cell| {
            let id = format!("{}/{}", row.tm, cell.slot);
            let n = cell.subtasks.len();
            let chips = cell.subtasks.iter().map(|st| {
                let (bg, fg) = p.vertices.color(&st.vertex);
                let label = p.vertices.label(&st.vertex, st.subtask);
                let task = format!("{}#{}", st.vertex, st.subtask);
                let on = lit(h, SubjectKind::Vertex, &st.vertex) || lit(h, SubjectKind::Task, &task);
                html! {
                    <li class={classes!("subtask", on.then_some("highlight"))} data-vertex={st.vertex.clone()}
                        data-task={task.clone()} style={format!("background:{bg};color:{fg}")}
                        title={format!("{} subtask {} (slot request {})", st.vertex, st.subtask, cell.request.map_or("-".to_string(), |r| r.to_string()))}>
                        {label}
                    </li>
                }
            });
            let (enter, leave, focus) = point(SubjectKind::Slot, id.clone());
            let on = lit(h, SubjectKind::Slot, &id);
            let aria = if n == 0 {
                format!("{} slot {}: free", row.tm, cell.slot)
            } else {
                let names: Vec<String> = cell.subtasks.iter().map(|s| format!("{} {}", s.vertex, s.subtask)).collect();
                format!("{} slot {}: {} tasks, {}", row.tm, cell.slot, n, names.join(", "))
            };
            html! {
                <li class={classes!("slot", (n == 0).then_some("free"), on.then_some("highlight"))}
                    data-slot={id.clone()} data-tasks={n.to_string()}
                    data-request={cell.request.map(|r| r.to_string())}
                    tabindex="0" aria-label={aria.clone()} title={aria}
                    onmouseenter={enter} onmouseleave={leave} onfocus={focus}>
                    <span class="slot-head"><span class="slot-name">{format!("slot {}", cell.slot)}</span>
                        <span class="count" aria-hidden="true">{ if n == 0 { "free".to_string() } else { n.to_string() } }</span></span>
                    <ul class="subtasks" aria-hidden="true">{ for chips }</ul>
                </li>
            }
        });
        let buttons = p.on_tm.as_ref().map(|cb| {
            let tm = row.tm.clone();
            let mk = |op: TmOp| {
                let cb = cb.clone();
                Callback::from(move |_: MouseEvent| cb.emit(op.clone()))
            };
            html! {
                <span class="tm-ops">
                    if lost {
                        <button class="small" onclick={mk(TmOp::Restore(tm.clone()))} aria-label={format!("Restore {tm}")}>{"Restore"}</button>
                    } else {
                        <button class="small" onclick={mk(TmOp::Lose(tm.clone()))} aria-label={format!("Lose {tm}")}
                            title="The TaskManager crashes: the job restarts and its slot requests are matched again">{"Lose"}</button>
                    }
                    // Only an idle TaskManager can be decommissioned: the button
                    // appears once it is (a busy one is lost instead).
                    if idle {
                        <button class="small" onclick={mk(TmOp::Remove(tm.clone()))} aria-label={format!("Remove {tm}")}
                            title="Decommission this idle TaskManager">{"Remove"}</button>
                    }
                </span>
            }
        });
        let on = lit(h, SubjectKind::Tm, &row.tm);
        html! {
            <li class={classes!("tm-row", lost.then_some("lost"), on.then_some("highlight"))}
                data-tm={row.tm.clone()} data-tasks={row.tasks.to_string()} data-state={if lost { "lost" } else { "running" }}>
                <div class="tm-head">
                    <span class="tm-name">{row.tm.clone()}</span>
                    <span class="tm-count">{ if lost { "lost".to_string() } else { format!("{} tasks · {}/{} slots", row.tasks, used, row.slots.len()) } }</span>
                    { for buttons }
                </div>
                <ol class="slots" aria-label={format!("{} slots", row.tm)}>{ for cells }</ol>
            </li>
        }
    });

    let status = match g.status {
        JobStatus::NoJob => "no job defined",
        JobStatus::Created => "job defined, not scheduled yet",
        JobStatus::Running => "running",
        JobStatus::WaitingForResources => "waiting for the minimum slots",
        JobStatus::Failed => "not running: the last scheduling failed",
    };
    let (tm_counts, tm_range, slot_range) = match &p.metrics {
        Some(m) => (
            m.tm_counts()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
            Some(m.tm.range.to_string()),
            Some(m.slot.range.to_string()),
        ),
        None => (String::new(), None, None),
    };
    let summary = p.metrics.as_ref().map(|m| {
        html! {
            <dl class="spread">
                <dt>{"Tasks per TaskManager"}</dt>
                <dd><strong>{list(&m.tm_counts())}</strong>{format!(" max {} · min {} · range {}", m.tm.max, m.tm.min, m.tm.range)}</dd>
                <dt>{"Tasks per slot"}</dt>
                <dd>{list(&m.tasks_per_slot)}{format!(" max {} · min {} · range {}", m.slot.max, m.slot.min, m.slot.range)}</dd>
            </dl>
        }
    });
    html! {
        <section class={classes!("slot-grid", format!("mode-{}", g.mode.name()))} data-role={p.role.clone()} data-mode={g.mode.name()}
                 data-status={format!("{:?}", g.status).to_lowercase()} data-tm-counts={tm_counts}
                 data-tm-range={tm_range} data-slot-range={slot_range} aria-label={format!("{}, mode {}", p.title, g.mode.name())}>
            <h3>{p.title.clone()}<span class="mode-tag">{format!("mode {}", mode_title(g.mode))}</span></h3>
            <p class="grid-status">{format!("t = {} ms · {status}", g.now_ms)}</p>
            { for summary }
            <ol class="tm-rows" aria-label="TaskManagers">{ for rows }</ol>
        </section>
    }
}
