//! Task lags as the subscription reports them: the changelog offset sums an
//! instance holds on disk per task, and the tasks' end offset sums (lag = end −
//! offset sum).

use crate::engine::kstreams::{Action, View};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, refuse, send, SelectField, TextField};
use crate::ui::store::StoreCtx;
use serde_json::{json, Map, Value};
use std::rc::Rc;
use yew::prelude::*;

const FIELD: Field = Field::KsLags;

/// Read `0_0=1000, 0_1=0` into a task → number map (task ids are the engine's to read).
fn read_offsets(s: &str) -> Result<Map<String, Value>, String> {
    let mut m = Map::new();
    for part in s.split([',', ';']).map(str::trim).filter(|p| !p.is_empty()) {
        let (task, n) = part
            .split_once('=')
            .ok_or_else(|| format!("{part:?}: write TASK=OFFSET, e.g. 0_0=1000"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("{:?} is not an offset (a whole number)", n.trim()))?;
        m.insert(task.trim().to_string(), json!(n));
    }
    Ok(m)
}

fn action(raw: Value) -> Result<Action, String> {
    serde_json::from_value::<Action>(raw).map_err(|e| e.to_string())
}

/// Props: the engine's picture.
#[derive(Properties, PartialEq)]
pub struct TaskLagsProps {
    /// The view.
    pub view: Rc<View>,
}

/// The lag editor.
#[component]
pub fn TaskLagsEditor(p: &TaskLagsProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let instance = use_state(String::new);
    let offsets = use_state(|| "0_0=0".to_string());
    let ends = use_state(|| "0_0=50000".to_string());
    let options: Vec<(String, String)> = p
        .view
        .instances
        .iter()
        .map(|i| (i.name.clone(), i.name.clone()))
        .collect();
    let chosen_now = chosen(&instance, &options);
    let lags: Vec<String> = p
        .view
        .instances
        .iter()
        .find(|i| i.name == chosen_now)
        .map(|i| {
            i.replicas
                .iter()
                .map(|r| format!("{} {:?}: offset {} lag {}", r.task, r.role, r.local_offset, r.lag))
                .collect()
        })
        .unwrap_or_default();
    let on_offsets = {
        let (store, instance, offsets, options) =
            (store.clone(), instance.clone(), offsets.clone(), options.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let a = read_offsets(&offsets).and_then(|m| {
                action(json!({ "op": "set_task_offsets", "instance": chosen(&instance, &options), "offsets": m }))
            });
            match a {
                Ok(a) => send(&store, FIELD, a),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    let on_ends = {
        let (store, ends) = (store.clone(), ends.clone());
        Callback::from(move |_: MouseEvent| {
            let a =
                read_offsets(&ends).and_then(|m| action(json!({ "op": "set_end_offsets", "offsets": m })));
            match a {
                Ok(a) => send(&store, FIELD, a),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    html! {
        <form class="ks-form ks-lags" data-controls="task-lags" onsubmit={on_offsets} novalidate=true>
            <h3>{"Task lags"}</h3>
            if options.is_empty() {
                <p class="hint">{"Add an instance first."}</p>
            } else {
                <SelectField id="ksl-instance" label="Instance" value={instance} options={options} />
                <TextField id="ksl-offsets" label="Offset sums on disk (TASK=OFFSET, …)" value={offsets} />
                <button type="submit" id="ksl-set-offsets">{"Set offset sums"}</button>
                if !lags.is_empty() {
                    <ul class="admin-list" aria-label="Replicas and lags">{ for lags.iter().map(|l| html!{ <li>{ l.clone() }</li> }) }</ul>
                }
            }
            <TextField id="ksl-ends" label="Changelog end offset sums (TASK=OFFSET, …)" value={ends} />
            <button type="button" id="ksl-set-ends" onclick={on_ends}>{"Set end offsets"}</button>
            <FieldError field={FIELD} />
        </form>
    }
}
