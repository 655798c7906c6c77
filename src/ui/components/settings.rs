//! The settings panel: every config knob of the active engine, under its real
//! name (Pulsar's broker.conf, Flink's and Kafka's config keys), with its default.
//! The panel only edits JSON values; the store turns them into the engine's typed
//! config and the engine validates them.

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Keys whose values are one of a fixed set (the engines' enums, as serialized).
pub const CHOICES: &[(&str, &[&str])] = &[
    (
        "loadManagerClassName",
        &["ModularLoadManagerImpl", "ExtensibleLoadManagerImpl"],
    ),
    (
        "loadBalancerLoadSheddingStrategy",
        &[
            "OverloadShedder",
            "ThresholdShedder",
            "UniformLoadShedder",
            "TransferShedder",
            "AvgShedder",
        ],
    ),
    (
        "loadBalancerLoadPlacementStrategy",
        &[
            "LeastLongTermMessageRate",
            "LeastResourceUsageWithWeight",
            "AvgShedder",
        ],
    ),
    (
        "defaultNamespaceBundleSplitAlgorithm",
        &[
            "range_equally_divide",
            "topic_count_equally_divide",
            "specified_positions_divide",
            "flow_or_qps_equally_divide",
        ],
    ),
    ("taskmanager.load-balance.mode", &["none", "slots", "tasks"]),
    (
        "rack.aware.assignment.strategy",
        &["none", "min_traffic", "balance_subtopology"],
    ),
    ("task.assignor.class", &["high_availability", "sticky"]),
];

/// The strategy knobs a run can be compared on, per system (values from [`CHOICES`]).
pub fn compare_keys(system: crate::engine::System) -> &'static [&'static str] {
    use crate::engine::System;
    match system {
        System::Pulsar => &[
            "loadBalancerLoadSheddingStrategy",
            "loadBalancerLoadPlacementStrategy",
            "loadManagerClassName",
        ],
        System::Flink => &["taskmanager.load-balance.mode"],
        System::Kstreams => &["task.assignor.class", "rack.aware.assignment.strategy"],
    }
}

/// Settings properties.
#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The config in force (a JSON object).
    pub current: Value,
    /// The engine's defaults (a JSON object).
    pub defaults: Value,
    /// The last refused edit: (key, message).
    pub error: Option<(String, String)>,
    /// Called with (key, new value).
    pub on_change: Callback<(String, Value)>,
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
    let Some(obj) = p.current.as_object() else {
        return html! {};
    };
    let modified = obj
        .iter()
        .filter(|(k, v)| p.defaults.get(k.as_str()) != Some(v))
        .count();
    let rows = obj
        .iter()
        .filter(|(k, _)| needle.is_empty() || k.to_lowercase().contains(&needle))
        .map(|(key, value)| {
            let default = p.defaults.get(key.as_str()).cloned().unwrap_or(Value::Null);
            let like = if value.is_null() { default.clone() } else { value.clone() };
            let id = format!("cfg-{}", key.replace(['.', ' '], "-"));
            let numeric = like.is_number();
            let emit = {
                let on_change = p.on_change.clone();
                let local_error = local_error.clone();
                let key = key.clone();
                move |text: String| match parse_like(&like, &text) {
                    Ok(v) => {
                        local_error.set(None);
                        on_change.emit((key.clone(), v));
                    }
                    Err(e) => local_error.set(Some((key.clone(), e))),
                }
            };
            let input = if let Some((_, opts)) = CHOICES.iter().find(|(k, _)| k == key) {
                let onchange = Callback::from(move |e: Event| emit(e.target_unchecked_into::<HtmlSelectElement>().value()));
                let cur = show(value);
                html! {
                    <select id={id.clone()} {onchange}>
                        { for opts.iter().map(|o| html!{ <option value={*o} selected={cur == *o}>{*o}</option> }) }
                    </select>
                }
            } else if value.is_boolean() {
                let onchange = Callback::from(move |e: Event| {
                    emit(e.target_unchecked_into::<HtmlInputElement>().checked().to_string())
                });
                html! { <input id={id.clone()} type="checkbox" checked={value.as_bool() == Some(true)} {onchange} /> }
            } else {
                let onchange = Callback::from(move |e: Event| emit(e.target_unchecked_into::<HtmlInputElement>().value()));
                let kind = if numeric { "number" } else { "text" };
                html! { <input id={id.clone()} type={kind} step="any" value={show(value)} {onchange} /> }
            };
            let err = local_error
                .as_ref()
                .filter(|(k, _)| k == key)
                .or(p.error.as_ref().filter(|(k, _)| k == key))
                .map(|(_, m)| m.clone());
            let changed = default != *value;
            html! {
                <div class={classes!("setting", changed.then_some("changed"), err.is_some().then_some("invalid"))}>
                    <label for={id}><code>{key}</code></label>
                    { input }
                    <span class="default">{ format!("default {}", if default.is_null() { "unset".into() } else { show(&default) }) }</span>
                    if let Some(e) = err {
                        <span class="field-error" role="alert">{e}</span>
                    }
                </div>
            }
        });
    html! {
        <details class="panel settings" data-controls="config">
            <summary><h2>{ format!("Settings ({} knobs, {modified} changed)", obj.len()) }</h2></summary>
            <input class="filter" type="search" placeholder="filter by name…" aria-label="Filter settings"
                   value={(*filter).clone()} oninput={on_filter} />
            <div class="settings-list">{ for rows }</div>
        </details>
    }
}
