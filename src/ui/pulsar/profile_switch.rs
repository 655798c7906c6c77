//! The active version profile, always on screen, with a select to switch to
//! another (the profiles are the config schema's; switching applies that
//! profile's defaults).

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

/// The profile select, with the strategies the active profile runs.
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
    let profiles = <pulsar::Config as Schema>::profiles();
    let choices: Vec<(&'static str, Profile)> = profiles.iter().map(|(name, c)| (*name, c.profile)).collect();
    let change = {
        let store = store.clone();
        let choices = choices.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let value = select.value();
            if let Some((_, profile)) = choices.iter().find(|(name, _)| *name == value) {
                send(&store, FIELD, Action::SetProfile { profile: *profile });
            }
        })
    };
    let options = choices.iter().map(|(name, profile)| {
        html! { <option value={*name} selected={*profile == active}>{ *name }</option> }
    });
    html! {
        <div class="profile-switch" data-controls="profile" data-active={name_of(active)}>
            <label for={FIELD.id()}>{"Version profile"}</label>
            <select id={FIELD.id()} title="Switching applies that version's defaults" onchange={change}>
                { for options }
            </select>
            <span class="hint">{ format!("{shedder:?} / {placement:?}") }</span>
            <FieldError field={FIELD} />
        </div>
    }
}
