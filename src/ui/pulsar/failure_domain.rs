//! `pulsar-admin clusters create-failure-domain` / `delete-failure-domain`, and the
//! domains in force (the anti-affinity filter spreads a group over them).

use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{list, send, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarFailureDomain;

/// The failure-domain form.
#[component]
pub fn FailureDomainForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let domain = use_state(|| "domain-1".to_string());
    let brokers = use_state(|| "broker-1, broker-2".to_string());
    let domains: Vec<(String, String)> = store
        .session::<pulsar::Sim>()
        .state()
        .failure_domains()
        .domains()
        .iter()
        .map(|(d, b)| {
            (
                d.clone(),
                b.iter().map(|b| b.0.clone()).collect::<Vec<_>>().join(", "),
            )
        })
        .collect();
    let on_create = {
        let (store, domain, brokers) = (store.clone(), domain.clone(), brokers.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send(
                &store,
                FIELD,
                Action::CreateFailureDomain {
                    domain: domain.trim().to_string(),
                    brokers: list(&brokers),
                },
            );
        })
    };
    let on_delete = {
        let (store, domain) = (store.clone(), domain.clone());
        Callback::from(move |_: MouseEvent| {
            send(
                &store,
                FIELD,
                Action::DeleteFailureDomain {
                    domain: domain.trim().to_string(),
                },
            );
        })
    };
    html! {
        <form class="admin-form failure-domain" data-controls="failure-domain" onsubmit={on_create} novalidate=true>
            <h3>{"Failure domain"}</h3>
            <p class="cmd"><code>{"clusters create-failure-domain CLUSTER --domain-name D --broker-list B1,B2"}</code></p>
            <TextField id="fd-name" label="--domain-name" value={domain} />
            <TextField id="fd-brokers" label="--broker-list (comma-separated)" value={brokers} />
            <div class="row">
                <button type="submit" id="fd-create">{"Create / replace domain"}</button>
                <button type="button" id="fd-delete" onclick={on_delete}>{"Delete domain"}</button>
            </div>
            <ul class="admin-list" aria-label="Failure domains">
                { for domains.iter().map(|(d, b)| html!{ <li data-domain={d.clone()}><code>{ d.clone() }</code>{ format!(": {b}") }</li> }) }
            </ul>
            <FieldError field={FIELD} />
        </form>
    }
}
