//! The settings panel: every config key of the active engine, under its real
//! name (Pulsar's broker.conf, Flink's and Kafka's config keys), grouped as the
//! engine's schema groups them, with its unit, one-line doc and the default of
//! the active profile. Keys the real system has but lbscope does not model are
//! listed too, marked so. The panel only edits JSON values; the engine checks them.

use crate::engine::schema::Kind;
use crate::playground::SettingRow;
use serde_json::Value;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Settings properties.
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// Every key with its value and defaults.
    pub rows: Rc<Vec<SettingRow>>,
    /// The last refused edit: (key, message).
    pub error: Option<(String, String)>,
    /// Called with (key, new value).
    pub on_change: Callback<(String, Value)>,
}

/// The name of the profile in force: the value of a `profile` key, else the first profile.
pub fn active_profile(rows: &[SettingRow]) -> Option<&'static str> {
    let named = rows
        .iter()
        .find(|r| r.knob.key == "profile")
        .and_then(|r| r.value.as_str().map(str::to_string));
    let first = rows.first()?;
    first
        .defaults
        .iter()
        .find(|(n, _)| named.as_deref() == Some(*n))
        .or(first.defaults.first())
        .map(|(n, _)| *n)
}

/// The default of `row` in `profile`.
pub fn default_of(row: &SettingRow, profile: Option<&str>) -> Value {
    row.defaults
        .iter()
        .find(|(n, _)| Some(*n) == profile)
        .or(row.defaults.first())
        .map(|(_, v)| v.clone())
        .unwrap_or(Value::Null)
}

/// Turn what the user typed into a JSON value shaped like `like`.
pub fn parse_like(like: &Value, text: &str) -> Result<Value, String> {
    let t = text.trim();
    match like {
        Value::Bool(_) => Ok(Value::Bool(t == "true")),
        Value::Number(_) => {
            let n: f64 = t.parse().map_err(|_| format!("{t:?} is not a number"))?;
            if !n.is_finite() {
                return Err("the value must be a finite number".into());
            }
            if n.fract() == 0.0 && (like.is_i64() || like.is_u64()) {
                if like.is_u64() && n < 0.0 {
                    return Err("the value cannot be negative".into());
                }
                Ok(Value::from(n as i64))
            } else {
                serde_json::Number::from_f64(n)
                    .map(Value::Number)
                    .ok_or_else(|| "not a number".into())
            }
        }
        Value::Array(_) => Ok(Value::Array(
            t.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        Value::Null => {
            if t.is_empty() {
                Ok(Value::Null)
            } else if let Ok(n) = t.parse::<u64>() {
                Ok(Value::from(n))
            } else {
                Ok(Value::String(t.to_string()))
            }
        }
        _ => Ok(Value::String(t.to_string())),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(a) => a.iter().map(show).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The settings panel (collapsible, filterable).
#[component]
pub fn Settings(p: &SettingsProps) -> Html {
    let filter = use_state(String::new);
    let local_error = use_state(|| Option::<(String, String)>::None);
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| filter.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let needle = filter.to_lowercase();
    let profile = active_profile(&p.rows);
    let modified = p
        .rows
        .iter()
        .filter(|r| default_of(r, profile) != r.value)
        .count();
    let mut groups: Vec<&'static str> = Vec::new();
    for r in p.rows.iter() {
        if !groups.contains(&r.knob.group) {
            groups.push(r.knob.group);
        }
    }
    let row_html = |r: &SettingRow| {
        let key = r.knob.key;
        let value = &r.value;
        let default = default_of(r, profile);
        let like = if value.is_null() {
            default.clone()
        } else {
            value.clone()
        };
        let id = format!("cfg-{}", key.replace(['.', ' '], "-"));
        let emit = {
            let on_change = p.on_change.clone();
            let local_error = local_error.clone();
            let like = like.clone();
            move |text: String| match parse_like(&like, &text) {
                Ok(v) => {
                    local_error.set(None);
                    on_change.emit((key.to_string(), v));
                }
                Err(e) => local_error.set(Some((key.to_string(), e))),
            }
        };
        let input = match r.knob.kind {
            Kind::Choice(opts) => {
                let onchange = Callback::from(move |e: Event| {
                    emit(e.target_unchecked_into::<HtmlSelectElement>().value())
                });
                let cur = show(&like);
                html! {
                    <select id={id.clone()} {onchange}>
                        { for opts.iter().map(|o| html!{ <option value={*o} selected={cur.eq_ignore_ascii_case(o)}>{*o}</option> }) }
                    </select>
                }
            }
            Kind::Bool => {
                let onchange = Callback::from(move |e: Event| {
                    emit(
                        e.target_unchecked_into::<HtmlInputElement>()
                            .checked()
                            .to_string(),
                    )
                });
                html! { <input id={id.clone()} type="checkbox" checked={like.as_bool() == Some(true)} {onchange} /> }
            }
            kind => {
                let onchange = Callback::from(move |e: Event| {
                    emit(e.target_unchecked_into::<HtmlInputElement>().value())
                });
                let numeric = matches!(kind, Kind::Int { .. } | Kind::Float { .. });
                html! { <input id={id.clone()} type={if numeric { "number" } else { "text" }} step="any" value={show(value)} placeholder={show(&default)} {onchange} /> }
            }
        };
        let err = local_error
            .as_ref()
            .filter(|(k, _)| k == key)
            .or(p.error.as_ref().filter(|(k, _)| k == key))
            .map(|(_, m)| m.clone());
        let changed = default != *value;
        let unit = if r.knob.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", r.knob.unit)
        };
        let shown_default = if default.is_null() {
            "unset".into()
        } else {
            format!("{}{unit}", show(&default))
        };
        let default_text = match profile {
            Some(name) if r.defaults.len() > 1 => format!("default {shown_default} ({name})"),
            _ => format!("default {shown_default}"),
        };
        html! {
            <div class={classes!("setting", changed.then_some("changed"), err.is_some().then_some("invalid"), (!r.knob.modelled).then_some("unmodelled"))}
                 title={r.knob.doc}>
                <label for={id}><code>{key}</code></label>
                { input }
                <span class="default">
                    { default_text }
                    if !r.knob.modelled {
                        <span class="badge">{" · known to the real system, not modelled by lbscope: it changes nothing here"}</span>
                    }
                </span>
                <span class="doc">{ r.knob.doc }</span>
                if let Some(e) = err {
                    <span class="field-error" role="alert">{e}</span>
                }
            </div>
        }
    };
    let sections = groups.iter().map(|g| {
        let rows: Vec<Html> = p
            .rows
            .iter()
            .filter(|r| r.knob.group == *g)
            .filter(|r| {
                needle.is_empty()
                    || r.knob.key.to_lowercase().contains(&needle)
                    || r.knob.doc.to_lowercase().contains(&needle)
            })
            .map(&row_html)
            .collect();
        (!rows.is_empty()).then(|| {
            html! {
                <section class="settings-group" aria-label={*g}>
                    <h3>{ *g }</h3>
                    { for rows }
                </section>
            }
        })
    });
    let profile_note = profile
        .filter(|_| p.rows.first().is_some_and(|r| r.defaults.len() > 1))
        .map(|name| html! { <p class="profile">{ format!("Defaults shown for the {name} profile.") }</p> });
    html! {
        <details class="panel settings" data-controls="config">
            <summary><h2>{ format!("Settings ({} knobs, {modified} changed)", p.rows.len()) }</h2></summary>
            { for profile_note }
            <input class="filter" type="search" placeholder="filter by name or meaning…" aria-label="Filter settings"
                   value={(*filter).clone()} oninput={on_filter} />
            <div class="settings-list">{ for sections.flatten() }</div>
        </details>
    }
}
