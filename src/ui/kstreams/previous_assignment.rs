//! Give an instance a previous assignment, per stream thread, as its next
//! subscription's user data carries it: active and standby tasks, and the
//! stateful actives still restoring. No rebalance runs until one is asked for.

use crate::engine::kstreams::{self, Action, View};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, refuse, send, SelectField, TextField};
use crate::ui::store::StoreCtx;
use serde_json::json;
use std::rc::Rc;
use yew::prelude::*;

const FIELD: Field = Field::KsPrevious;

/// The instance's threads as `T1: 0_0 0_1 | 0_2; T2: 0_3` (actives, then standbys after `|`).
fn threads_text(view: &View, instance: &str) -> String {
    view.instances
        .iter()
        .find(|i| i.name == instance)
        .map(|i| {
            i.threads
                .iter()
                .map(|t| {
                    let ids = |v: &[kstreams::task::TaskId]| {
                        v.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
                    };
                    if t.standby.is_empty() {
                        format!("T{}: {}", t.thread, ids(&t.active))
                    } else {
                        format!("T{}: {} | {}", t.thread, ids(&t.active), ids(&t.standby))
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}

fn words(s: &str) -> Vec<String> {
    s.split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Read `T1: 0_0 0_1 | 0_2; T2: 0_3` into the engine's thread list (task ids are
/// the engine's to read).
fn read_threads(s: &str) -> Result<Vec<serde_json::Value>, String> {
    s.split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let (head, rest) = part.split_once(':').ok_or_else(|| {
                format!("{part:?}: write a thread as T1: 0_0 0_1 | 0_2 (actives | standbys)")
            })?;
            let n = head.trim().trim_start_matches(['T', 't']);
            let thread: u32 = n
                .parse()
                .map_err(|_| format!("{:?} is not a thread like T1", head.trim()))?;
            let (active, standby) = rest.split_once('|').unwrap_or((rest, ""));
            Ok(json!({ "thread": thread, "active": words(active), "standby": words(standby) }))
        })
        .collect()
}

/// Props: the engine's picture.
#[derive(Properties, PartialEq)]
pub struct PreviousAssignmentProps {
    /// The view.
    pub view: Rc<View>,
}

/// The previous-assignment editor.
#[component]
pub fn PreviousAssignmentEditor(p: &PreviousAssignmentProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let instance = use_state(String::new);
    let threads = use_state(String::new);
    let restoring = use_state(String::new);
    let options: Vec<(String, String)> = p
        .view
        .instances
        .iter()
        .map(|i| (i.name.clone(), i.name.clone()))
        .collect();
    let on_load = {
        let (view, instance, threads, options) =
            (p.view.clone(), instance.clone(), threads.clone(), options.clone());
        Callback::from(move |_: MouseEvent| threads.set(threads_text(&view, &chosen(&instance, &options))))
    };
    let on_set = {
        let (store, instance, threads, restoring, options) = (
            store.clone(),
            instance.clone(),
            threads.clone(),
            restoring.clone(),
            options.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let list = match read_threads(&threads) {
                Ok(l) => l,
                Err(m) => return refuse(&store, FIELD, m),
            };
            let raw = json!({
                "op": "set_assignment",
                "instance": chosen(&instance, &options),
                "threads": list,
                "restoring": words(&restoring),
            });
            match serde_json::from_value::<Action>(raw) {
                Ok(a) => send(&store, FIELD, a),
                Err(e) => refuse(&store, FIELD, e.to_string()),
            }
        })
    };
    html! {
        <form class="ks-form ks-previous" data-controls="previous-assignment" onsubmit={on_set} novalidate=true>
            <h3>{"Previous assignment"}</h3>
            if options.is_empty() {
                <p class="hint">{"Add an instance first."}</p>
            } else {
                <SelectField id="ksp-instance" label="Instance" value={instance} options={options} />
                <TextField id="ksp-threads" label="Per thread: T1: actives | standbys; T2: …" value={threads} placeholder="T1: 0_0 0_1 | 0_2; T2: 0_3" />
                <TextField id="ksp-restoring" label="Actives still restoring" value={restoring} placeholder="0_1" />
                <div class="ks-buttons">
                    <button type="button" id="ksp-load" onclick={on_load}>{"Load current"}</button>
                    <button type="submit" id="ksp-set">{"Set assignment"}</button>
                </div>
                <p class="hint">{"No rebalance runs; press Rebalance to let the assignor start from it."}</p>
            }
            <FieldError field={FIELD} />
        </form>
    }
}
