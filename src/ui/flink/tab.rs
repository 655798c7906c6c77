//! The Flink tab: controls and job editor, the session's slot grid beside the same
//! log replayed with the other load-balance mode, and a failover summary (the shared
//! event log sits under every tab).

use super::controls::Controls;
use super::job_editor::JobEditor;
use super::slot_grid::{SlotGridView, TmOp};
use super::{list, mode_title, twin_mode, with_mode, FlinkSession, VertexKey};
use crate::engine::flink::job_graph::{JobGraph, JobSpec};
use crate::engine::flink::{self, Action, DurationMs, LoadBalanceMode};
use crate::engine::Engine;
use crate::scenario::session::Session;
use crate::ui::store::{Msg, Notice, StoreCtx, Subject, SubjectKind};
use crate::view::flink_summary::{
    last_failover, last_round, spread_over_seeds, FailoverSummary, SPREAD_SEEDS,
};
use std::rc::Rc;
use yew::prelude::*;

/// One side of the comparison, ready to draw.
struct Side {
    mode: LoadBalanceMode,
    grid: Rc<flink::view::SlotGrid>,
    metrics: Option<Rc<flink::metrics::Metrics>>,
    sentence: String,
    spread: Option<String>,
}

fn side(s: &FlinkSession) -> Side {
    let sim = s.state();
    Side {
        mode: sim.config().effective_mode(),
        grid: Rc::new(sim.slot_grid()),
        metrics: sim.metrics().cloned().map(Rc::new),
        sentence: last_round(s).sentence(),
        spread: None,
    }
}

fn spread_view(side: &Side, seed: u64) -> Html {
    match &side.spread {
        Some(sp) if side.metrics.is_some() => html! {
            <p class="spread" data-mode={side.mode.name()}><span class="side-name">{format!("{}: ", side.mode.name())}</span>
                {format!("this run is seed {seed}; over seeds 0–{}: {sp} (Flink sends a pipelined region's slot requests in hash order)", SPREAD_SEEDS - 1)}</p>
        },
        _ => html! {},
    }
}

fn headline_part(side: &Side) -> String {
    match &side.metrics {
        Some(m) => format!(
            "{}: {} (range {})",
            mode_title(side.mode),
            list(&m.tm_counts()),
            m.tm.range
        ),
        None => format!("{}: not running", mode_title(side.mode)),
    }
}

fn failover_view(f: &FailoverSummary, on_cure: Option<Callback<MouseEvent>>) -> Html {
    let back = match f.restarts_at_ms {
        Some(t) => format!("; its process re-registers at t = {t} ms"),
        None => "; it stays lost until you restore it".to_string(),
    };
    let stale = f.stale.map(|(at, pending, free)| {
        let why = match f.restarts_at_ms {
            Some(t) if t > at => format!(", before {} was back at t = {t} ms", f.tm),
            _ => String::new(),
        };
        html! {
            <li class="stale">{format!(
                "Stale view: at t = {at} ms, after slot.request.max-interval = {} ms of quiet{why}, the slot pool saw only {free} free slots for {pending} pending requests, so it served them one by one from what was there.",
                f.max_interval_ms
            )}</li>
        }
    });
    let counts = match (&f.before, &f.after) {
        (Some((b, br)), Some((a, ar, t))) => Some(format!(
            "Tasks per TaskManager before the loss {} (range {br}) → after the restart {} (range {ar}); scheduling took {t} ms.",
            list(b),
            list(a)
        )),
        (_, Some((a, ar, t))) => Some(format!(
            "Tasks per TaskManager after the restart {} (range {ar}); scheduling took {t} ms.",
            list(a)
        )),
        _ => None,
    };
    let timed_out = f.timed_out.map(|(n, t)| {
        format!("{n} slot requests timed out after slot.request.timeout = {t} ms: the job is not running. Raise the timeout, or restore the TaskManager and schedule again.")
    });
    let (range_before, range_after) = (
        f.before.as_ref().map(|b| b.1.to_string()),
        f.after.as_ref().map(|a| a.1.to_string()),
    );
    html! {
        <section class="panel failover" aria-label="Failover" data-tm={f.tm.clone()}
                 data-stale={f.stale.is_some().to_string()} data-range-before={range_before} data-range-after={range_after}>
            <h2>{"Failover"}</h2>
            <ul>
                <li>{format!("{} was lost at t = {} ms with {} tasks{back}. The whole job restarts and every slot request is matched again.", f.tm, f.at_ms, f.tasks)}</li>
                { for stale }
                { for counts.map(|c| html!{ <li class="counts">{c}</li> }) }
                { for timed_out.map(|c| html!{ <li class="timed-out">{c}</li> }) }
            </ul>
            if let Some(cure) = on_cure {
                <button class="primary cure" onclick={cure}>{format!(
                    "Raise slot.request.max-interval to {} ms and lose {} again", f.max_interval_ms + 50, f.tm
                )}</button>
                <p class="hint">{"The doc's advice: raise it in steps of 50 ms, so the view settles only once the restarted TaskManager is back. Balance comes at the price of a longer scheduling phase (watch slot.request.timeout)."}</p>
            }
        </section>
    }
}

/// The Flink tab.
#[component]
pub fn FlinkTab() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let restart = use_state(|| "50".to_string());
    let session = &*store.session::<crate::engine::flink::Sim>();
    let sim = session.state();
    let mode = sim.config().effective_mode();
    let other = twin_mode(mode);

    // The comparison: the same log with the other mode, replayed only when the log,
    // cursor or mode changes (not on a highlight).
    let twin = use_memo(
        (session.seed(), session.cursor(), session.log().clone(), other),
        |(seed, cursor, log, other)| {
            Session::<flink::Sim>::new(*seed, with_mode(log, *other), Some(*cursor))
                .map_err(|e| e.to_string())
        },
    );

    let names: Vec<String> = sim
        .job()
        .map(|j| j.vertices.iter().map(|v| v.name.clone()).collect())
        .unwrap_or_default();
    let key = Rc::new(VertexKey::new(names));
    // The spread over seeds of both sides: ten replays each, only when the log changes.
    let spreads = use_memo(
        (session.cursor(), session.log().clone(), other),
        |(cursor, log, other)| {
            (
                spread_over_seeds(log, *cursor),
                spread_over_seeds(&with_mode(log, *other), *cursor),
            )
        },
    );
    let mut mine = side(session);
    mine.spread = spreads.0.clone();
    let theirs = twin.as_ref().as_ref().map(side).map(|mut t| {
        t.spread = spreads.1.clone();
        t
    });

    let on_highlight = {
        let store = store.clone();
        Callback::from(move |h: Option<Subject>| {
            if store.highlight != h {
                store.dispatch(Msg::Highlight(h));
            }
        })
    };
    let on_tm = {
        let store = store.clone();
        let restart = restart.clone();
        Callback::from(move |op: TmOp| {
            let action = match op {
                TmOp::Remove(tm) => Action::RemoveTaskManager { tm },
                TmOp::Restore(tm) => Action::RestoreTaskManager { tm },
                TmOp::Lose(tm) => {
                    let text = restart.trim().to_string();
                    let restart_after_ms = if text.is_empty() {
                        None
                    } else {
                        match DurationMs::parse(&text) {
                            Some(d) => Some(d.0),
                            None => {
                                store.dispatch(Msg::Notify(Notice::Error(format!(
                                    "the restart delay must be a number of ms, or empty for no restart (got {text:?})"
                                ))));
                                return;
                            }
                        }
                    };
                    Action::LoseTaskManager { tm, restart_after_ms }
                }
            };
            store.dispatch(Msg::act(action));
        })
    };
    let on_define = {
        let store = store.clone();
        Callback::from(move |job: JobSpec| {
            // The engine validates; a refused job shows its message and is not scheduled.
            let valid = JobGraph::build(&job).is_ok();
            store.dispatch(Msg::act(Action::DefineJob { job }));
            if valid {
                store.dispatch(Msg::act(Action::Schedule));
            }
        })
    };
    // A preset: the doc's job on the doc's cluster shape. Defining a job frees every
    // slot, so surplus TaskManagers are idle and can be removed; missing ones are added.
    let on_preset = {
        let store = store.clone();
        Callback::from(move |(job, tms, slots): (JobSpec, u32, u32)| {
            let mut actions = vec![Action::DefineJob { job }];
            let mut kept = 0;
            for t in store
                .session::<crate::engine::flink::Sim>()
                .state()
                .task_managers()
            {
                if kept < tms && t.is_running() && t.slot_count() == slots {
                    kept += 1;
                } else {
                    actions.push(Action::RemoveTaskManager { tm: t.name.clone() });
                }
            }
            if kept < tms {
                actions.push(Action::AddTaskManagers {
                    count: tms - kept,
                    slots: Some(slots),
                });
            }
            actions.push(Action::Schedule);
            for a in actions {
                store.dispatch(Msg::act(a));
            }
        })
    };
    let on_error = {
        let store = store.clone();
        Callback::from(move |m: String| store.dispatch(Msg::Notify(Notice::Error(m))))
    };

    // Failover: the last action lost a TaskManager.
    let config = sim.config().clone();
    let failover = last_failover(session, config.slot_request_max_interval.0);
    let cure = failover.as_ref().and_then(|f| {
        let restart_after_ms = match session.log().actions.get(session.cursor().wrapping_sub(1)) {
            Some(Action::LoseTaskManager { restart_after_ms, .. }) => *restart_after_ms,
            _ => None,
        };
        (f.stale.is_some() && restart_after_ms.is_some()).then(|| {
            let store = store.clone();
            let tm = f.tm.clone();
            let config = config.clone();
            Callback::from(move |_: MouseEvent| {
                store.dispatch(Msg::Undo);
                store.dispatch(Msg::act(Action::whole_config(&flink::Config {
                    slot_request_max_interval: DurationMs(config.slot_request_max_interval.0 + 50),
                    ..config.clone()
                })));
                store.dispatch(Msg::act(Action::LoseTaskManager {
                    tm: tm.clone(),
                    restart_after_ms,
                }));
            })
        })
    });

    // Headline: default first, balanced second.
    let headline = match &theirs {
        Ok(t) => {
            let (a, b) = if mine.mode == LoadBalanceMode::Tasks {
                (t, &mine)
            } else {
                (&mine, t)
            };
            html! {
                <div class="headline" aria-live="polite">
                    <p class="counts"><strong>{"Tasks per TaskManager · "}</strong>
                        <span data-mode={a.mode.name()}>{headline_part(a)}</span>{" vs "}
                        <span data-mode={b.mode.name()}>{headline_part(b)}</span></p>
                    <p class="why"><span class="side-name">{format!("{}: ", a.mode.name())}</span>{a.sentence.clone()}</p>
                    <p class="why"><span class="side-name">{format!("{}: ", b.mode.name())}</span>{b.sentence.clone()}</p>
                    { spread_view(a, session.seed()) }
                    { spread_view(b, session.seed()) }
                </div>
            }
        }
        Err(e) => html! {
            <div class="headline"><p class="why">{format!("The same actions in mode {} are refused: {e}", other.name())}</p></div>
        },
    };

    let legend = key.names.iter().map(|n| {
        let (bg, fg) = key.color(n);
        let par = sim
            .job()
            .and_then(|j| j.vertices.iter().find(|v| &v.name == n))
            .map_or(0, |v| v.parallelism);
        let lit = store.highlight.as_ref().is_some_and(|s| s.kind == SubjectKind::Vertex && &s.id == n);
        let enter = {
            let cb = on_highlight.clone();
            let n = n.clone();
            Callback::from(move |_: MouseEvent| cb.emit(Some(Subject { kind: SubjectKind::Vertex, id: n.clone() })))
        };
        let focus = {
            let cb = on_highlight.clone();
            let n = n.clone();
            Callback::from(move |_: FocusEvent| cb.emit(Some(Subject { kind: SubjectKind::Vertex, id: n.clone() })))
        };
        let leave = {
            let cb = on_highlight.clone();
            Callback::from(move |_: MouseEvent| cb.emit(None))
        };
        html! {
            <li class={classes!("legend-item", lit.then_some("highlight"))} data-vertex={n.clone()} tabindex="0"
                onmouseenter={enter} onmouseleave={leave} onfocus={focus}
                aria-label={format!("{n}: parallelism {par}")}>
                <span class="swatch" style={format!("background:{bg};color:{fg}")} aria-hidden="true">{key.short(n).to_string()}</span>
                {format!("{n} ×{par}")}
            </li>
        }
    });

    let twin_grid = match &theirs {
        Ok(t) => html! {
            <SlotGridView grid={t.grid.clone()} metrics={t.metrics.clone()} vertices={key.clone()} role="twin"
                title="Same actions replayed" highlight={store.highlight.clone()}
                on_highlight={on_highlight.clone()} />
        },
        Err(_) => html! {},
    };
    let spec = sim.job().map(|j| j.spec.clone());

    html! {
        <section class="tab-body flink-tab" aria-label="Flink">
            <aside class="panel controls">
                <div data-controls="job">
                    <h2>{"Job graph"}</h2>
                    <JobEditor {spec} {on_define} {on_preset} {on_error} />
                </div>
                <h2 class="spaced">{"Scheduling"}</h2>
                <Controls restart={restart.clone()} />
                // Feature panels mount here, one line each, as folded
                // `<details class="panel controls">` sections.
            </aside>
            <div class="flink-main">
                <div class="panel main-view">
                    { headline }
                    <ul class="legend" aria-label="Job vertices">{ for legend }</ul>
                    <div class="compare">
                        <SlotGridView grid={mine.grid.clone()} metrics={mine.metrics.clone()} vertices={key.clone()} role="session"
                            title="Your cluster" highlight={store.highlight.clone()}
                            on_highlight={on_highlight.clone()} on_tm={on_tm} />
                        { twin_grid }
                    </div>
                </div>
                { for failover.as_ref().map(|f| failover_view(f, cure.clone())) }
                <details class="panel fold scheduler-forms" data-controls="config flink-scheduler-forms">
                    <summary><h2>{"Scheduler"}</h2></summary>
                    <super::scheduler::SchedulerCompare />
                    <super::resources::ResourceProfiles />
                    <super::local_recovery::LocalRecoveryFailover />
                    <super::other_job::OtherJobSlots />
                </details>
            </div>
        </section>
    }
}
