//! The Import panel: paste (or upload) what a real cluster prints, the inputs
//! `lbscope import` reads ([`crate::import`]: Kafka Streams' Topology#describe()
//! and kafka-topics.sh --describe, Flink's execution plan and REST plans and
//! /taskmanagers, pulsar-admin's bundles, load reports and topic stats), fill in
//! what they lack, and open the scenario in its system's tab. A refused input is
//! explained next to the panel and nothing changes; a good one replaces only the
//! tab of its system (the other tabs keep the user's work).

use crate::engine::System;
use crate::import::{self, Options, MAX_INPUT_BYTES};
use crate::ui::store::{Msg, StoreCtx};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// One input: its name (a file's, or "paste N") and its text.
#[derive(Clone, Debug, PartialEq)]
struct Input {
    name: String,
    text: String,
}

/// The option fields, as typed.
#[derive(Clone, Debug, Default, PartialEq)]
struct Fields {
    partitions: String,
    pattern_topics: String,
    application_id: String,
    instances: String,
    threads: String,
    standbys: String,
    task_managers: String,
    slots: String,
    namespace: String,
    reported_usage: bool,
}

/// What the last import said.
#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    Opened { what: String, notices: Vec<String> },
    Refused(String),
}

fn number(label: &str, s: &str) -> Result<Option<u32>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse()
        .map(Some)
        .map_err(|_| format!("{label}: {s:?} is not a whole number"))
}

/// `TOPIC=N` pairs, one a line or comma-separated (`--partitions`).
fn pairs(label: &str, s: &str) -> Result<Vec<(String, String)>, String> {
    s.split(['\n', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.rsplit_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("{label}: {p:?} is not NAME=VALUE"))
        })
        .collect()
}

fn options(f: &Fields) -> Result<Options, String> {
    let mut o = Options::default();
    for (t, n) in pairs("Partition counts", &f.partitions)? {
        let n: u32 = n
            .parse()
            .map_err(|_| format!("Partition counts: {t}={n}: {n:?} is not a whole number"))?;
        if o.partitions.insert(t.clone(), n).is_some() {
            return Err(format!("Partition counts: {t} is given twice"));
        }
    }
    // Pattern topics: `PATTERN=T1 T2` one a line (commas separate the topics).
    for line in f.pattern_topics.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (p, ts) = line
            .rsplit_once('=')
            .ok_or_else(|| format!("Pattern topics: {line:?} is not PATTERN=TOPIC1,TOPIC2"))?;
        let ts: Vec<String> = ts
            .split([',', ' '])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
        o.pattern_topics.insert(p.trim().to_string(), ts);
    }
    let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    o.application_id = text(&f.application_id);
    o.instances = number("Instances", &f.instances)?;
    o.threads = number("Threads", &f.threads)?;
    o.standbys = number("Standby replicas", &f.standbys)?;
    o.task_managers = number("TaskManagers", &f.task_managers)?;
    o.slots = number("Slots per TaskManager", &f.slots)?;
    o.namespace = text(&f.namespace);
    o.reported_usage = f.reported_usage;
    Ok(o)
}

/// What each system's inputs are and the commands that print them.
fn hint(system: System) -> &'static str {
    match system {
        System::Kstreams => "Paste the text of topology.describe() (println(topology.describe())); partition counts come from kafka-topics.sh --describe output (paste it as another input) or the field below.",
        System::Flink => "Paste the JSON of env.getExecutionPlan(), or of the REST API's /jobs/<jobid>/plan or /jobs/<jobid>; the cluster comes from /taskmanagers (another input) or the fields below.",
        System::Pulsar => "Paste pulsar-admin broker-stats load-report (one input per broker), pulsar-admin namespaces bundles NS, and pulsar-admin namespaces topics NS or topics stats.",
    }
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
    let field = |get: fn(&mut Fields) -> &mut String| {
        let fields = fields.clone();
        Callback::from(move |e: InputEvent| {
            let mut f = (*fields).clone();
            *get(&mut f) = e
                .target()
                .and_then(|t| {
                    use wasm_bindgen::JsCast;
                    t.dyn_ref::<HtmlInputElement>()
                        .map(|i| i.value())
                        .or_else(|| t.dyn_ref::<HtmlTextAreaElement>().map(|t| t.value()))
                })
                .unwrap_or_default();
            fields.set(f);
        })
    };
    let on_reported = {
        let fields = fields.clone();
        Callback::from(move |e: Event| {
            let mut f = (*fields).clone();
            f.reported_usage = e.target_unchecked_into::<HtmlInputElement>().checked();
            fields.set(f);
        })
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
            let r =
                options(&fields).and_then(|o| import::import(system, &given, &o).map_err(|e| e.to_string()));
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
    let text_field = |label: &'static str,
                      flag: &'static str,
                      value: &str,
                      get: fn(&mut Fields) -> &mut String| {
        html! {
            <label class="import-field">{ label }<span class="flag">{ flag }</span>
                <input type="text" value={value.to_string()} oninput={field(get)} data-import-field={flag} />
            </label>
        }
    };
    let f = &*fields;
    let opts = match sys {
        System::Kstreams => html! {
            <>
                <label class="import-field">{"Partition counts"}<span class="flag">{"--partitions"}</span>
                    <textarea rows="2" placeholder="orders=6, payments=6" value={f.partitions.clone()} oninput={field(|f| &mut f.partitions)} data-import-field="--partitions" />
                </label>
                { text_field("Pattern topics (PATTERN=T1,T2 a line)", "--pattern-topics", &f.pattern_topics, |f| &mut f.pattern_topics) }
                { text_field("application.id", "--application-id", &f.application_id, |f| &mut f.application_id) }
                { text_field("Instances", "--instances", &f.instances, |f| &mut f.instances) }
                { text_field("Threads each", "--threads", &f.threads, |f| &mut f.threads) }
                { text_field("Standby replicas", "--standbys", &f.standbys, |f| &mut f.standbys) }
            </>
        },
        System::Flink => html! {
            <>
                { text_field("TaskManagers", "--task-managers", &f.task_managers, |f| &mut f.task_managers) }
                { text_field("Slots per TaskManager", "--slots", &f.slots, |f| &mut f.slots) }
            </>
        },
        System::Pulsar => html! {
            <>
                { text_field("Namespace of the bundles", "--namespace", &f.namespace, |f| &mut f.namespace) }
                <label class="import-field inline"><input type="checkbox" checked={f.reported_usage} onchange={on_reported} />
                    {" Pin each broker's usage to its load report"}<span class="flag">{"--reported-usage"}</span></label>
            </>
        },
    };
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
            <p class="hint">{ hint(sys) }</p>
            { for boxes }
            <div class="import-row">
                <button onclick={on_add}>{"Add another input"}</button>
                <label class="button">{"Upload files"}
                    <input type="file" multiple=true class="visually-hidden" onchange={on_files} aria-label="Upload input files" />
                </label>
            </div>
            <div class="import-options">{ opts }</div>
            <button class="primary" onclick={on_import} data-import="go">{ format!("Import as {}", sys.title()) }</button>
            { for result }
        </details>
    }
}
