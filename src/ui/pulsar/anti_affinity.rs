//! `pulsar-admin namespaces set-anti-affinity-group` / `delete-anti-affinity-group`,
//! and the groups in force.

use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{send, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarAntiAffinity;

/// The anti-affinity group form.
#[component]
pub fn AntiAffinityForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let namespace = use_state(|| crate::scenario::presets::PULSAR_NAMESPACE.to_string());
    let group = use_state(|| "group-1".to_string());
    let (namespaces, groups): (Vec<String>, Vec<(String, String)>) = {
        let s = store.session::<pulsar::Sim>();
        let sim = s.state();
        (
            sim.namespaces().keys().cloned().collect(),
            sim.anti_affinity_groups()
                .groups()
                .iter()
                .map(|(n, g)| (n.clone(), g.clone()))
                .collect(),
        )
    };
    let on_set = {
        let (store, namespace, group) = (store.clone(), namespace.clone(), group.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send(
                &store,
                FIELD,
                Action::SetAntiAffinityGroup {
                    namespace: namespace.trim().to_string(),
                    group: group.trim().to_string(),
                },
            );
        })
    };
    let on_delete = {
        let (store, namespace) = (store.clone(), namespace.clone());
        Callback::from(move |_: MouseEvent| {
            send(
                &store,
                FIELD,
                Action::DeleteAntiAffinityGroup {
                    namespace: namespace.trim().to_string(),
                },
            );
        })
    };
    html! {
        <form class="admin-form anti-affinity" data-controls="anti-affinity" onsubmit={on_set} novalidate=true>
            <h3>{"Anti-affinity group"}</h3>
            <p class="cmd"><code>{"namespaces set-anti-affinity-group NAMESPACE --group GROUP"}</code></p>
            <TextField id="aa-namespace" label="NAMESPACE" value={namespace} list={Some(AttrValue::from("aa-namespaces"))} />
            <datalist id="aa-namespaces">{ for namespaces.iter().map(|n| html!{ <option value={n.clone()} /> }) }</datalist>
            <TextField id="aa-group" label="--group" value={group} />
            <div class="row">
                <button type="submit" id="aa-set">{"Set group"}</button>
                <button type="button" id="aa-delete" onclick={on_delete}>{"Delete group of this namespace"}</button>
            </div>
            <ul class="admin-list" aria-label="Anti-affinity groups">
                { for groups.iter().map(|(n, g)| html!{ <li data-namespace={n.clone()}><code>{ n.clone() }</code>{ format!(" in group {g}") }</li> }) }
            </ul>
            <FieldError field={FIELD} />
        </form>
    }
}
