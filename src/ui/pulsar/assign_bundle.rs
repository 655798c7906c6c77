//! Give an unowned bundle to a live broker, as if that broker had answered its
//! lookup (the ownership a real cluster reports).

use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, send, SelectField, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarAssignBundle;
/// Suggestions offered for the bundle field.
const SUGGESTIONS: usize = 20;

/// Past this many live brokers the broker is typed (with a few suggestions)
/// instead of chosen from a list of them all.
const LISTED_BROKERS: usize = 64;

/// The assign-bundle form.
#[component]
pub fn AssignBundleForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let bundle = use_state(String::new);
    let broker = use_state(String::new);
    let (unowned, brokers): (Vec<String>, Vec<(String, String)>) = {
        let s = store.session::<pulsar::Sim>();
        let sim = s.state();
        (
            sim.bundles()
                .iter()
                .filter(|(_, b)| b.owner().is_none())
                .take(SUGGESTIONS)
                .map(|(id, _)| id.to_string())
                .collect(),
            sim.brokers()
                .values()
                .filter(|b| b.alive)
                .map(|b| (b.id.0.to_string(), b.id.0.to_string()))
                .collect(),
        )
    };
    let on_assign = {
        let (store, bundle, broker, brokers) =
            (store.clone(), bundle.clone(), broker.clone(), brokers.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send(
                &store,
                FIELD,
                Action::AssignBundle {
                    bundle: bundle.trim().to_string(),
                    // A typed broker goes to the engine as typed (it names an unknown one).
                    broker: if brokers.len() > LISTED_BROKERS && !broker.trim().is_empty() {
                        broker.trim().to_string()
                    } else {
                        chosen(&broker, &brokers)
                    },
                },
            );
        })
    };
    let hint = if unowned.is_empty() {
        "Every bundle has an owner now (crash a broker or unload to get unowned ones).".to_string()
    } else {
        format!("{} unowned bundle(s) suggested.", unowned.len())
    };
    html! {
        <form class="admin-form assign-bundle" data-controls="assign-bundle" onsubmit={on_assign} novalidate=true>
            <h3>{"Assign a bundle"}</h3>
            <TextField id="ab-bundle" label="Bundle (tenant/ns/0xLLLLLLLL_0xUUUUUUUU)" value={bundle}
                       list={Some(AttrValue::from("ab-bundles"))} placeholder="public/default/0x00000000_0x08000000" />
            <datalist id="ab-bundles">{ for unowned.iter().map(|b| html!{ <option value={b.clone()} /> }) }</datalist>
            <p class="hint">{ hint }</p>
            if brokers.len() > LISTED_BROKERS {
                <TextField id="ab-broker" label={format!("Broker (one of {}; empty: {})", brokers.len(), brokers[0].0)} value={broker}
                           list={Some(AttrValue::from("ab-brokers"))} placeholder={brokers[0].0.clone()} />
                <datalist id="ab-brokers">{ for brokers.iter().take(20).map(|(b, _)| html!{ <option value={b.clone()} /> }) }</datalist>
            } else {
                <SelectField id="ab-broker" label="Broker" value={broker} options={brokers} />
            }
            <button type="submit" id="ab-assign">{"Assign"}</button>
            <FieldError field={FIELD} />
        </form>
    }
}
