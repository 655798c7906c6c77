//! Local recovery (`execution.state-recovery.from-local`): switch it, lose a
//! TaskManager, and see the balance after the failover with and without it (the
//! session, and the same log replayed with the key flipped).

use super::{list, FlinkSession};
use crate::engine::flink::{self, Action, DurationMs};
use crate::engine::schema::{self, ConfigChange};
use crate::engine::Engine;
use crate::playground::Field;
use crate::scenario::{session::Session, Log};
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, refuse, send, SelectField, TextField};
use crate::ui::store::StoreCtx;
use serde_json::json;
use web_sys::HtmlInputElement;
use yew::prelude::*;

const FIELD: Field = Field::FlinkLocalRecovery;
const KEY: &str = "execution.state-recovery.from-local";

/// `log` with every config (the initial one and each `set_config`) on `on`.
fn with_local_recovery(log: &Log<flink::Sim>, on: bool) -> Log<flink::Sim> {
    let mut out = log.clone();
    out.config.local_recovery = on;
    for a in out.setup.iter_mut().chain(out.actions.iter_mut()) {
        if let Action::SetConfig(change) = a {
            if let Ok(p) = change.config.clone().set(KEY, json!(on)) {
                change.config = p;
            }
        }
    }
    out
}

fn balance(s: &FlinkSession) -> String {
    match s.state().metrics() {
        Some(m) => format!("{} (range {})", list(&m.tm_counts()), m.tm.range),
        None => "not running".to_string(),
    }
}

/// The local-recovery failover form.
#[component]
pub fn LocalRecoveryFailover() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let tm = use_state(String::new);
    let restart = use_state(|| "50".to_string());
    let session = &*store.session::<flink::Sim>();
    let on = session.state().config().local_recovery;
    let twin = use_memo(
        (session.seed(), session.cursor(), session.log().clone(), !on),
        |(seed, cursor, log, flipped)| {
            Session::<flink::Sim>::new(*seed, with_local_recovery(log, *flipped), Some(*cursor))
                .map(|s| balance(&s))
                .map_err(|e| e.to_string())
        },
    );
    let mine = balance(session);
    let tms: Vec<(String, String)> = session
        .state()
        .task_managers()
        .iter()
        .filter(|t| t.is_running())
        .map(|t| (t.name.clone(), t.name.clone()))
        .collect();

    let on_toggle = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            match ConfigChange::<flink::Config>::one(KEY, json!(i.checked())) {
                Ok(c) => send(&store, FIELD, Action::SetConfig(c)),
                Err(m) => refuse(&store, FIELD, m.to_string()),
            }
        })
    };
    let on_lose = {
        let (store, tm, restart, tms) = (store.clone(), tm.clone(), restart.clone(), tms.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = restart.trim().to_string();
            let restart_after_ms = if text.is_empty() {
                None
            } else {
                match DurationMs::parse(&text) {
                    Some(d) => Some(d.0),
                    None => {
                        return refuse(
                            &store,
                            FIELD,
                            format!("the restart delay must be a duration such as 50 or 2 s, or empty for no restart (got {text:?})"),
                        )
                    }
                }
            };
            send(
                &store,
                FIELD,
                Action::LoseTaskManager {
                    tm: chosen(&tm, &tms),
                    restart_after_ms,
                },
            );
        })
    };
    let (with, without) = match twin.as_ref() {
        Ok(t) if on => (mine.clone(), t.clone()),
        Ok(t) => (t.clone(), mine.clone()),
        Err(e) => {
            let refused = format!("refused: {e}");
            if on {
                (mine.clone(), refused)
            } else {
                (refused, mine.clone())
            }
        }
    };
    html! {
        <form class="admin-form local-recovery" data-controls="local-recovery" onsubmit={on_lose} novalidate=true>
            <h3>{"Failover with local recovery"}</h3>
            <label class="check"><input id="lr-on" type="checkbox" checked={on} onchange={on_toggle} />{ format!(" {KEY}") }</label>
            <p class="hint">{ schema::knob::<flink::Config>(KEY).map(|k| k.doc).unwrap_or_default() }</p>
            if tms.is_empty() {
                <p class="hint">{"No running TaskManager to lose."}</p>
            } else {
                <div class="row">
                    <SelectField id="lr-tm" label="TaskManager" value={tm} options={tms} />
                    <TextField id="lr-restart" label="Restarts after (ms; empty: never)" value={restart} />
                </div>
                <button type="submit" id="lr-lose">{"Lose TaskManager"}</button>
            }
            <dl class="lr-compare" data-local-recovery={on.to_string()}>
                <div data-side="with"><dt>{"Tasks per TaskManager with local recovery"}</dt><dd>{ with }</dd></div>
                <div data-side="without"><dt>{"without"}</dt><dd>{ without }</dd></div>
            </dl>
            <FieldError field={FIELD} />
        </form>
    }
}
