//! Add a broker that has joined but whose first load report has not reached the
//! leader yet, and list the brokers still without one.

use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::scenario::presets;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{send, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarUnreported;

/// The unreported-broker form.
#[component]
pub fn UnreportedBrokerForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let name = use_state(String::new);
    let (suggested, waiting): (String, Vec<String>) = {
        let s = store.session::<pulsar::Sim>();
        let sim = s.state();
        let names: Vec<String> = sim.brokers().keys().map(|b| b.0.to_string()).collect();
        (
            presets::next_broker_name(&names),
            sim.brokers()
                .values()
                .filter(|b| b.alive && b.last_report_ms.is_none())
                .map(|b| b.id.0.to_string())
                .collect(),
        )
    };
    let on_add = {
        let (store, name, suggested) = (store.clone(), name.clone(), suggested.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = name.trim().to_string();
            send(
                &store,
                FIELD,
                Action::AddUnreportedBroker {
                    broker: if typed.is_empty() {
                        suggested.clone()
                    } else {
                        typed
                    },
                    capacity: Default::default(),
                },
            );
        })
    };
    html! {
        <form class="admin-form unreported-broker" data-controls="unreported-broker" onsubmit={on_add} novalidate=true>
            <h3>{"Broker without a load report"}</h3>
            <TextField id="ub-name" label="Broker name" value={name} placeholder={suggested} />
            <button type="submit" id="ub-add">{"Add broker (not reported yet)"}</button>
            if waiting.is_empty() {
                <p class="hint">{"Every live broker has reported."}</p>
            } else {
                <p class="hint unreported" data-brokers={waiting.join(",")}>{ format!("No load report yet: {} (until the next report phase).", waiting.join(", ")) }</p>
            }
            <FieldError field={FIELD} />
        </form>
    }
}
