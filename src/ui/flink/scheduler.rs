//! `jobmanager.scheduler`: the default or the adaptive scheduler, chosen from the
//! engine's knob table, with the slot matching of both side by side (the session,
//! and the same log replayed with the other scheduler). Every line shown is an
//! engine event's own narration.

use super::{list, FlinkSession};
use crate::engine::flink::{self, Action, Event as FlinkEvent, SchedulerType};
use crate::engine::schema::{self, ConfigChange, Kind, Schema};
use crate::engine::{Engine, Narrate};
use crate::playground::Field;
use crate::scenario::{session::Session, Log};
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{refuse, send};
use crate::ui::store::StoreCtx;
use serde_json::json;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

const FIELD: Field = Field::FlinkScheduler;
const KEY: &str = "jobmanager.scheduler";
/// Matching lines shown per side.
const SHOWN: usize = 14;

/// `log` with every config (the initial one and each `set_config`) on `scheduler`.
fn with_scheduler(log: &Log<flink::Sim>, scheduler: SchedulerType) -> Log<flink::Sim> {
    let name = json!(scheduler.name().to_ascii_lowercase());
    let mut out = log.clone();
    out.config.scheduler = scheduler;
    for a in out.setup.iter_mut().chain(out.actions.iter_mut()) {
        if let Action::SetConfig(change) = a {
            if let Ok(p) = change.config.clone().set(KEY, name.clone()) {
                change.config = p;
            }
        }
    }
    out
}

/// What one scheduler did in the last scheduling round.
#[derive(Clone, PartialEq)]
struct Side {
    scheduler: SchedulerType,
    tasks_per_tm: Option<Vec<u32>>,
    lines: Vec<String>,
    more: usize,
}

/// Whether an event is part of how slots were matched.
fn about_matching(e: &FlinkEvent) -> bool {
    matches!(
        e,
        FlinkEvent::StrategiesChosen { .. }
            | FlinkEvent::AdaptiveStrategiesChosen { .. }
            | FlinkEvent::ParallelismDetermined { .. }
            | FlinkEvent::WaitingForResources { .. }
            | FlinkEvent::Rescaling { .. }
            | FlinkEvent::SlotsAllocated { .. }
            | FlinkEvent::SlotRequestMatched { .. }
            | FlinkEvent::SlotRequestsMatched { .. }
            | FlinkEvent::PreMappingUnfulfilled { .. }
            | FlinkEvent::SchedulingFinished { .. }
            | FlinkEvent::SchedulingFailed { .. }
    )
}

fn side(s: &FlinkSession) -> Side {
    let all: Vec<&FlinkEvent> = s
        .setup_events()
        .iter()
        .chain(s.steps().iter().flatten())
        .collect();
    let start = all
        .iter()
        .rposition(|e| {
            matches!(
                e,
                FlinkEvent::StrategiesChosen { .. } | FlinkEvent::AdaptiveStrategiesChosen { .. }
            )
        })
        .unwrap_or(all.len());
    let round: Vec<String> = all[start..]
        .iter()
        .filter(|e| about_matching(e))
        .map(|e| e.narrate())
        .collect();
    let more = round.len().saturating_sub(SHOWN);
    Side {
        scheduler: s.state().config().scheduler,
        tasks_per_tm: s.state().metrics().map(|m| m.tm_counts()),
        lines: round.into_iter().take(SHOWN).collect(),
        more,
    }
}

fn column(side: &Result<Side, String>, other: SchedulerType, mine: bool) -> Html {
    match side {
        Ok(s) => html! {
            <div class="scheduler-side" data-scheduler={s.scheduler.name().to_ascii_lowercase()} data-session={mine.to_string()}>
                <h4>{ format!("{} scheduler{}", s.scheduler.name(), if mine { " (your cluster)" } else { " (same actions replayed)" }) }</h4>
                <p class="counts">{ match &s.tasks_per_tm {
                    Some(t) => format!("Tasks per TaskManager {}", list(t)),
                    None => "Not running.".to_string(),
                } }</p>
                <ol class="matching" tabindex="0" aria-label={format!("{} scheduler's matching", s.scheduler.name())}>{ for s.lines.iter().map(|l| html!{ <li>{ l.clone() }</li> }) }</ol>
                if s.more > 0 { <p class="hint">{ format!("… {} more in the event log.", s.more) }</p> }
            </div>
        },
        Err(e) => html! {
            <div class="scheduler-side" data-scheduler={other.name().to_ascii_lowercase()}>
                <h4>{ format!("{} scheduler", other.name()) }</h4>
                <p class="hint">{ format!("The same actions are refused there: {e}") }</p>
            </div>
        },
    }
}

/// The scheduler choice and the side-by-side slot matching.
#[component]
pub fn SchedulerCompare() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let session = &*store.session::<flink::Sim>();
    let config = session.state().config().clone();
    let current = config.scheduler;
    let other = match current {
        SchedulerType::Default => SchedulerType::Adaptive,
        SchedulerType::Adaptive => SchedulerType::Default,
    };
    let twin = use_memo(
        (session.seed(), session.cursor(), session.log().clone(), other),
        |(seed, cursor, log, other)| {
            Session::<flink::Sim>::new(*seed, with_scheduler(log, *other), Some(*cursor))
                .map(|s| side(&s))
                .map_err(|e| e.to_string())
        },
    );
    let mine: Result<Side, String> = Ok(side(session));
    let theirs: Rc<Result<Side, String>> = twin;
    let choices: &[&str] = match schema::knob::<flink::Config>(KEY).map(|k| k.kind) {
        Some(Kind::Choice(c)) => c,
        _ => &[],
    };
    let has_job = session.state().job().is_some();
    let on_change = {
        let store = store.clone();
        let config = config.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let change = match ConfigChange::<flink::Config>::one(KEY, json!(s.value())) {
                Ok(c) => c,
                Err(m) => return refuse(&store, FIELD, m.to_string()),
            };
            // Schedule again only if the engine takes the config (a refusal stays on screen).
            let takes = change
                .config
                .apply_to(&config)
                .map_err(|e| e.to_string())
                .and_then(|c| c.rules());
            send(&store, FIELD, Action::SetConfig(change));
            if takes.is_ok() && has_job {
                send(&store, FIELD, Action::Schedule);
            }
        })
    };
    let current_name = current.name().to_ascii_lowercase();
    let (left, right) = if current == SchedulerType::Default {
        (column(&mine, current, true), column(&theirs, other, false))
    } else {
        (column(&theirs, other, false), column(&mine, current, true))
    };
    html! {
        <div class="scheduler-compare" data-controls="scheduler">
            <label for="flink-scheduler">{"jobmanager.scheduler"}</label>
            <select id="flink-scheduler" onchange={on_change}>
                { for choices.iter().map(|c| html!{ <option value={*c} selected={c.eq_ignore_ascii_case(&current_name)}>{ *c }</option> }) }
            </select>
            <p class="hint">{ schema::knob::<flink::Config>(KEY).map(|k| k.doc).unwrap_or_default() }</p>
            <FieldError field={FIELD} />
            <div class="scheduler-sides">{ left }{ right }</div>
        </div>
    }
}
