//! Small pieces for the admin and setup forms: a text field whose value lives in
//! the form's own state (so what the user typed stays across renders and after a
//! refusal), sending an action on behalf of a form (a refusal is shown inside
//! it), and reading comma-separated lists. The engine judges every value.

use crate::engine::AnyAction;
use crate::playground::Field;
use crate::ui::store::{Msg, Notice, StoreCtx};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Apply `action` on behalf of the form `field` (a refusal shows in its `FieldError`).
pub fn send(store: &StoreCtx, field: Field, action: impl Into<AnyAction>) {
    store.dispatch(Msg::AtField(field, Box::new(Msg::act(action))));
}

/// Say why the form `field` could not be read, next to it.
pub fn refuse(store: &StoreCtx, field: Field, message: impl Into<String>) {
    store.dispatch(Msg::AtField(
        field,
        Box::new(Msg::Notify(Notice::Error(message.into()))),
    ));
}

/// The items of a comma-separated list, trimmed, empty ones left out.
pub fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A whole number, or a message naming the field.
pub fn whole<T: std::str::FromStr>(what: &str, s: &str) -> Result<T, String> {
    s.trim()
        .parse::<T>()
        .map_err(|_| format!("{what} must be a whole number (got {:?})", s.trim()))
}

/// A number, or a message naming the field.
pub fn number(what: &str, s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{what} must be a number (got {:?})", s.trim()))
}

/// A hash-ring position written in hex (`0x40000000`) or decimal.
pub fn ring_position(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => t.parse::<u32>().ok(),
    };
    parsed.ok_or_else(|| format!("{t:?} is not a position on the ring like 0x40000000"))
}

/// Text-field properties.
#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    /// Element id (also the `<label for>`).
    pub id: AttrValue,
    /// The label.
    pub label: AttrValue,
    /// Where the typed text lives.
    pub value: UseStateHandle<String>,
    /// Placeholder.
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// `number` for a numeric field.
    #[prop_or_else(|| AttrValue::from("text"))]
    pub kind: AttrValue,
    /// Datalist id with suggestions.
    #[prop_or_default]
    pub list: Option<AttrValue>,
}

/// A labelled text field bound to a state handle.
#[component]
pub fn TextField(p: &TextFieldProps) -> Html {
    let oninput = {
        let value = p.value.clone();
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            value.set(i.value());
        })
    };
    html! {
        <div class="form-field">
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <input id={p.id.clone()} type={p.kind.clone()} value={(*p.value).clone()} placeholder={p.placeholder.clone()}
                   list={p.list.clone()} autocomplete="off" {oninput} />
        </div>
    }
}

/// Select-field properties.
#[derive(Properties, PartialEq)]
pub struct SelectFieldProps {
    /// Element id (also the `<label for>`).
    pub id: AttrValue,
    /// The label.
    pub label: AttrValue,
    /// Where the chosen value lives.
    pub value: UseStateHandle<String>,
    /// The choices as (value, text).
    pub options: Vec<(String, String)>,
}

/// A labelled `<select>` bound to a state handle. When the held value is not
/// among the options (the list changed), the first option shows as chosen.
#[component]
pub fn SelectField(p: &SelectFieldProps) -> Html {
    let onchange = {
        let value = p.value.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            value.set(s.value());
        })
    };
    let current = if p.options.iter().any(|(v, _)| *v == *p.value) {
        (*p.value).clone()
    } else {
        p.options.first().map(|(v, _)| v.clone()).unwrap_or_default()
    };
    html! {
        <div class="form-field">
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <select id={p.id.clone()} {onchange}>
                { for p.options.iter().map(|(v, t)| html! { <option value={v.clone()} selected={*v == current}>{ t.clone() }</option> }) }
            </select>
        </div>
    }
}

/// The value a [`SelectField`] shows: the held one if it is an option, else the first.
pub fn chosen(value: &str, options: &[(String, String)]) -> String {
    if options.iter().any(|(v, _)| v == value) {
        value.to_string()
    } else {
        options.first().map(|(v, _)| v.clone()).unwrap_or_default()
    }
}
