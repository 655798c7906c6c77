//! Which task assignor runs, chosen with Kafka's own keys: `group.protocol`
//! (classic or KIP-1071's streams protocol), `task.assignor.class` (KIP-924: a
//! `TaskAssignor` class, the built-in `StickyTaskAssignor`) and, when that is
//! unset, `internal.task.assignor.class` (the legacy assignors). The choices come
//! from the engine's knob table; the engine refuses a class it cannot load.

use crate::engine::kstreams::assignor::STICKY_TASK_ASSIGNOR_CLASS;
use crate::engine::kstreams::{self, Action, Event as KsEvent};
use crate::engine::schema::{self, ConfigChange, Kind};
use crate::engine::{Engine, Narrate};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{refuse, send, TextField};
use crate::ui::store::StoreCtx;
use serde_json::{json, Value};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

const FIELD: Field = Field::KsAssignor;
const CLASS: &str = "task.assignor.class";
const INTERNAL: &str = "internal.task.assignor.class";
const PROTOCOL: &str = "group.protocol";

fn choices(key: &str) -> &'static [&'static str] {
    match schema::knob::<kstreams::Config>(key).map(|k| k.kind) {
        Some(Kind::Choice(c)) => c,
        _ => &[],
    }
}

fn doc(key: &str) -> &'static str {
    schema::knob::<kstreams::Config>(key).map_or("", |k| k.doc)
}

fn set(store: &StoreCtx, key: &str, value: Value) {
    match ConfigChange::<kstreams::Config>::one(key, value) {
        Ok(c) => send(store, FIELD, Action::SetConfig(c)),
        Err(e) => refuse(store, FIELD, e.to_string()),
    }
}

/// The short name of a class (`…assignors.StickyTaskAssignor` → `StickyTaskAssignor`).
fn short(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// The assignor selection.
#[component]
pub fn AssignorChoice() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let (values, running, standby) = {
        let s = store.session::<kstreams::Sim>();
        let cfg = s.state().config();
        let standby = s
            .steps()
            .iter()
            .rev()
            .flatten()
            .find(|e| matches!(e, KsEvent::StandbyAssignorChosen { .. }))
            .map(|e| e.narrate());
        (schema::to_object(cfg), cfg.assignor(), standby)
    };
    let current = |k: &str| {
        values
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let class_now = values.get(CLASS).and_then(Value::as_str).map(str::to_string);
    let typed = {
        let class_now = class_now.clone();
        use_state(move || class_now.unwrap_or_else(|| STICKY_TASK_ASSIGNOR_CLASS.to_string()))
    };

    let select = |key: &'static str| {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            set(&store, key, json!(s.value()));
        })
    };
    let on_class = {
        let (store, typed) = (store.clone(), typed.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            set(&store, CLASS, json!(typed.trim()));
        })
    };
    let on_unset = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| set(&store, CLASS, Value::Null))
    };
    let options = |key: &'static str, id: &'static str| {
        let now = current(key);
        html! {
            <div class="ks-knob">
                <label for={id}><code class="ks-key">{ key }</code></label>
                <select id={id} onchange={select(key)}>
                    { for choices(key).iter().map(|c| html!{ <option value={*c} selected={c.eq_ignore_ascii_case(&now)}>{ short(c) }</option> }) }
                </select>
                <p class="hint">{ doc(key) }</p>
            </div>
        }
    };
    let legacy_in_force = class_now.is_none() && current(PROTOCOL) == "classic";
    html! {
        <div class="ks-assignor" data-controls="assignor" data-assignor={running.class_name()}>
            <p class="ks-running">{"Assignor in force: "}<strong>{ running.class_name() }</strong></p>
            { options(PROTOCOL, "ks-group-protocol") }
            <form class="ks-form" onsubmit={on_class} novalidate=true>
                <TextField id="ks-assignor-class" label={CLASS} value={typed} list={Some(AttrValue::from("ks-assignor-classes"))} />
                <datalist id="ks-assignor-classes"><option value={STICKY_TASK_ASSIGNOR_CLASS} /></datalist>
                <p class="hint">{ match &class_now {
                    Some(c) => format!("Set to {c}."),
                    None => "Unset: internal.task.assignor.class decides.".to_string(),
                } }</p>
                <div class="ks-buttons">
                    <button type="submit" id="ks-assignor-set">{"Set class"}</button>
                    <button type="button" id="ks-assignor-unset" onclick={on_unset} disabled={class_now.is_none()}>{"Unset"}</button>
                </div>
            </form>
            <div class={classes!((!legacy_in_force).then_some("inactive"))}>{ options(INTERNAL, "ks-internal-assignor") }</div>
            <FieldError field={FIELD} />
            if let Some(line) = standby {
                <p class="hint ks-standby-assignor">{"Last rebalance: "}{ line }</p>
            }
        </div>
    }
}
