//! The active version profile, always on screen, with a switch to the others
//! (the profiles are the config schema's; switching applies that profile's defaults).

use crate::engine::pulsar::{self, config::Profile, Action};
use crate::engine::schema::Schema;
use crate::engine::Engine;
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::send;
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarProfile;

fn name_of(p: Profile) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The profile badge and switch.
#[component]
pub fn ProfileSwitch() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let (active, shedder, placement) = {
        let s = store.session::<pulsar::Sim>();
        let c = s.state().config();
        (
            c.profile,
            c.load_balancer_load_shedding_strategy,
            c.load_balancer_load_placement_strategy,
        )
    };
    let buttons = <pulsar::Config as Schema>::profiles().into_iter().map(|(name, c)| {
        let store = store.clone();
        let on = active == c.profile;
        let profile = c.profile;
        let click = Callback::from(move |_: MouseEvent| send(&store, FIELD, Action::SetProfile { profile }));
        html! {
            <button type="button" class={classes!("small", on.then_some("on"))} aria-pressed={on.to_string()}
                    data-profile={name} onclick={click} title={format!("Apply the {name} defaults")}>{ name }</button>
        }
    });
    html! {
        <div class="profile-switch" data-controls="profile" data-active={name_of(active)} role="group" aria-label="Version profile">
            <span>{"Profile "}<strong class="active-profile">{ name_of(active) }</strong>
                <span class="hint">{ format!(" · {shedder:?} / {placement:?}") }</span></span>
            { for buttons }
            <FieldError field={FIELD} />
        </div>
    }
}
