//! The Import panel: paste (or upload) what a real cluster prints, the inputs
//! `lbscope import` reads ([`crate::import`]: Kafka Streams' Topology#describe()
//! and kafka-topics.sh --describe, Flink's execution plan and REST plans and
//! /taskmanagers, pulsar-admin's bundles, load reports and topic stats), fill in
//! what they lack, and open the scenario in its system's tab. A refused input is
//! explained next to the panel and nothing changes; a good one replaces only the
//! tab of its system (the other tabs keep the user's work).

use crate::engine::System;
use crate::import::{self, OptionKind, Options, MAX_INPUT_BYTES};
use crate::ui::store::{Msg, StoreCtx};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// One input: its name (a file's, or "paste N") and its text.
#[derive(Clone, Debug, PartialEq)]
struct Input {
    name: String,
    text: String,
}

/// The option fields, as typed: flag → text (`"true"` for a ticked flag).
type Fields = std::collections::BTreeMap<&'static str, String>;

/// What the last import said.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    Opened { what: String, notices: Vec<String> },
    Refused(String),
}

/// The options the fields of `system` say (each read as `lbscope import`
/// reads its flag); what was typed for another system, whose fields are not
/// shown, stays out.
fn options(f: &Fields, system: System) -> Result<Options, String> {
    let mut o = Options::default();
    for field in import::OPTION_FIELDS.iter().filter(|x| x.system == system) {
        if let Some(v) = f.get(field.flag) {
            o.set(field.flag, v)?;
        }
    }
    Ok(o)
}

/// The panel.
#[component]
pub fn ImportPanel() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    // The system chosen here (none: the active tab's).
    let chosen = use_state(|| None::<System>);
    let system = (*chosen).unwrap_or(store.tab);
    let inputs = use_state(|| {
        vec![Input {
            name: "paste 1".into(),
            text: String::new(),
        }]
    });
    let fields = use_state(Fields::default);
    let outcome = use_state(|| None::<Outcome>);
    let readers = use_mut_ref(Vec::<gloo::file::callbacks::FileReader>::new);

    let on_system = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            chosen.set(System::ALL.into_iter().find(|s| s.slug() == v));
        })
    };
    let edit = |i: usize| {
        let inputs = inputs.clone();
        Callback::from(move |e: InputEvent| {
            let mut v = (*inputs).clone();
            if let Some(x) = v.get_mut(i) {
                x.text = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            }
            inputs.set(v);
        })
    };
    let remove = |i: usize| {
        let inputs = inputs.clone();
        Callback::from(move |_: MouseEvent| {
            let mut v = (*inputs).clone();
            v.remove(i);
            inputs.set(v);
        })
    };
    let on_add = {
        let inputs = inputs.clone();
        Callback::from(move |_: MouseEvent| {
            let mut v = (*inputs).clone();
            v.push(Input {
                name: format!("paste {}", v.len() + 1),
                text: String::new(),
            });
            inputs.set(v);
        })
    };
    // Files are read in the browser and added as inputs (named by the file).
    let on_files = {
        let inputs = inputs.clone();
        let outcome = outcome.clone();
        let readers = readers.clone();
        Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            let Some(list) = el.files() else { return };
            for k in 0..list.length() {
                let Some(file) = list.get(k) else { continue };
                let file = gloo::file::File::from(file);
                let name = file.name();
                if file.size() > MAX_INPUT_BYTES as u64 {
                    outcome.set(Some(Outcome::Refused(format!(
                        "{name}: {} bytes is more than the {} MiB lbscope reads from one input. Nothing was changed.",
                        file.size(),
                        MAX_INPUT_BYTES >> 20
                    ))));
                    continue;
                }
                let inputs = inputs.clone();
                let outcome = outcome.clone();
                let reader = gloo::file::callbacks::read_as_text(&file, move |r| match r {
                    Ok(text) => {
                        // The inputs that hold text (the handle gives the latest
                        // list, with the files read before this one), then this file.
                        let mut v: Vec<Input> = (*inputs)
                            .iter()
                            .filter(|i| !i.text.trim().is_empty())
                            .cloned()
                            .collect();
                        v.push(Input {
                            name: name.clone(),
                            text,
                        });
                        inputs.set(v);
                    }
                    Err(e) => outcome.set(Some(Outcome::Refused(format!("{name}: could not be read: {e}")))),
                });
                readers.borrow_mut().push(reader);
            }
            el.set_value("");
        })
    };
    // A field's new text (a checkbox: "true" when ticked), from the element typed in.
    let field = |flag: &'static str| {
        let fields = fields.clone();
        move |t: Option<web_sys::EventTarget>| {
            use wasm_bindgen::JsCast;
            let Some(t) = t else { return };
            let v = if let Some(i) = t.dyn_ref::<HtmlInputElement>() {
                if i.type_() == "checkbox" {
                    if i.checked() {
                        "true".into()
                    } else {
                        String::new()
                    }
                } else {
                    i.value()
                }
            } else {
                t.dyn_ref::<HtmlTextAreaElement>()
                    .map(|t| t.value())
                    .unwrap_or_default()
            };
            let mut f = (*fields).clone();
            f.insert(flag, v);
            fields.set(f);
        }
    };
    let on_change = |flag| {
        let f = field(flag);
        Callback::from(move |e: Event| f(e.target()))
    };
    let on_input = |flag| {
        let f = field(flag);
        Callback::from(move |e: InputEvent| f(e.target()))
    };
    let on_import = {
        let store = store.clone();
        let (inputs, fields, outcome) = (inputs.clone(), fields.clone(), outcome.clone());
        Callback::from(move |_: MouseEvent| {
            let given: Vec<(&str, &str)> = inputs
                .iter()
                .filter(|i| !i.text.trim().is_empty())
                .map(|i| (i.name.as_str(), i.text.as_str()))
                .collect();
            let r = options(&fields, system)
                .and_then(|o| import::import(system, &given, &o).map_err(|e| e.to_string()));
            match r {
                Ok(imported) => {
                    let kinds: Vec<String> = imported
                        .inputs
                        .iter()
                        .map(|(n, k)| format!("{n} ({})", k.title()))
                        .collect();
                    let what = format!(
                        "Opened in the {} tab from {}. Your other tabs are unchanged.",
                        system.title(),
                        kinds.join(", ")
                    );
                    let notices = imported.notices.iter().map(ToString::to_string).collect();
                    store.dispatch(Msg::Open(Box::new(imported.scenario)));
                    outcome.set(Some(Outcome::Opened { what, notices }));
                }
                Err(e) => outcome.set(Some(Outcome::Refused(format!(
                    "Not imported (your scenario is unchanged): {e}"
                )))),
            }
        })
    };

    let sys = system;
    let boxes = inputs.iter().enumerate().map(|(i, input)| {
        html! {
            <div class="import-input">
                <label>
                    <span class="import-name">{ input.name.clone() }</span>
                    <textarea rows="6" spellcheck="false" data-import-input={i.to_string()}
                              aria-label={format!("Import input {}: {}", i + 1, input.name)}
                              placeholder="paste here" value={input.text.clone()} oninput={edit(i)} />
                </label>
                if inputs.len() > 1 {
                    <button class="small" onclick={remove(i)} aria-label={format!("Remove input {}", input.name)}>{"Remove"}</button>
                }
            </div>
        }
    });
    let f = &*fields;
    let opts = import::OPTION_FIELDS.iter().filter(|o| o.system == sys).map(|o| {
        let value = f.get(o.flag).cloned().unwrap_or_default();
        let flag = html! { <span class="flag">{ o.flag }</span> };
        match o.kind {
            OptionKind::Flag => html! {
                <label class="import-field inline">
                    <input type="checkbox" checked={value == "true"} onchange={on_change(o.flag)} data-import-field={o.flag} />
                    { format!(" {}", o.label) }{ flag }
                </label>
            },
            OptionKind::Pairs | OptionKind::Lines => html! {
                <label class="import-field">{ o.label }{ flag }
                    <textarea rows="2" placeholder={o.example} value={value} oninput={on_input(o.flag)} data-import-field={o.flag} />
                </label>
            },
            OptionKind::Text => html! {
                <label class="import-field">{ o.label }{ flag }
                    <input type="text" value={value} oninput={on_input(o.flag)} data-import-field={o.flag} />
                </label>
            },
        }
    });
    let result = (*outcome).clone().map(|o| match o {
        Outcome::Opened { what, notices } => html! {
            <div class="import-ok" role="status" data-import-result="ok">
                <p>{ what }</p>
                if !notices.is_empty() {
                    <details>
                        <summary>{ format!("{} notices: what lbscope did not use or assumed", notices.len()) }</summary>
                        <ul>{ for notices.iter().map(|n| html!{ <li>{ n.clone() }</li> }) }</ul>
                    </details>
                }
            </div>
        },
        Outcome::Refused(e) => html! { <p class="field-error import-error" role="alert" data-import-result="error">{ e }</p> },
    });
    html! {
        <details class="panel import-panel" data-controls="import">
            <summary>{"Import your cluster"}</summary>
            <p class="hint">{"What Pulsar, Flink or Kafka Streams print about a real deployment, as a scenario you can step, compare and share (the same inputs as lbscope import)."}</p>
            <label>{"System "}
                <select aria-label="System to import" onchange={on_system}>
                    { for System::ALL.iter().map(|s| html!{ <option value={s.slug()} selected={*s == sys}>{ s.title() }</option> }) }
                </select>
            </label>
            <p class="hint">{ import::hint(sys) }</p>
            { for boxes }
            <div class="import-row">
                <button onclick={on_add}>{"Add another input"}</button>
                <label class="button">{"Upload files"}
                    <input type="file" multiple=true class="visually-hidden" onchange={on_files} aria-label="Upload input files" />
                </label>
            </div>
            <div class="import-options">{ for opts }</div>
            <button class="primary" onclick={on_import} data-import="go">{ format!("Import as {}", sys.title()) }</button>
            { for result }
        </details>
    }
}
