//! The message of a refused form action, shown next to the field it came from
//! (see `Msg::AtField`).

use crate::playground::Field;
use crate::ui::store::StoreCtx;
use yew::prelude::*;

/// Field-error properties.
#[derive(Properties, PartialEq)]
pub struct FieldErrorProps {
    /// The form, as given to `Msg::AtField`.
    pub field: Field,
}

/// Renders the refusal for `field`, if the last one was for it.
#[component]
pub fn FieldError(p: &FieldErrorProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    match store.field_error.as_ref().filter(|(f, _)| f == p.field.id()) {
        Some((_, m)) => {
            html! { <p class="field-error" role="alert" data-field={p.field.id()}>{ m.clone() }</p> }
        }
        None => html! {},
    }
}
