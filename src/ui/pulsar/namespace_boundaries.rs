//! Create a namespace whose bundles have the given boundaries (the `bundles` of
//! its policies, as `pulsar-admin namespaces bundles` prints them).

use crate::engine::pulsar::Action;
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{refuse, ring_position, send, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarNsBoundaries;

/// The namespace-with-boundaries form.
#[component]
pub fn NamespaceBoundariesForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let namespace = use_state(|| "my-tenant/bounded".to_string());
    let boundaries = use_state(|| "0x00000000, 0x40000000, 0xc0000000, 0xffffffff".to_string());
    let on_create = {
        let (store, namespace, boundaries) = (store.clone(), namespace.clone(), boundaries.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let read: Result<Vec<u32>, String> = boundaries
                .split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(ring_position)
                .collect();
            match read {
                Ok(boundaries) => send(
                    &store,
                    FIELD,
                    Action::CreateNamespaceWithBoundaries {
                        namespace: namespace.trim().to_string(),
                        boundaries,
                    },
                ),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    html! {
        <form class="admin-form ns-boundaries" data-controls="ns-boundaries" onsubmit={on_create} novalidate=true>
            <h3>{"Namespace with bundle boundaries"}</h3>
            <p class="cmd"><code>{"namespaces create TENANT/NS --bundles '{\"boundaries\": [...]}'"}</code></p>
            <TextField id="nsb-name" label="TENANT/NS" value={namespace} />
            <TextField id="nsb-boundaries" label="Boundaries (first 0x00000000, last 0xffffffff)" value={boundaries} />
            <button type="submit" id="nsb-create">{"Create namespace"}</button>
            <FieldError field={FIELD} />
        </form>
    }
}
