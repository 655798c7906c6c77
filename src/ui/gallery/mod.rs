//! The examples gallery in the browser: the page listing every worked example
//! of the documents (one click opens it in free play on its tab), and the card
//! over the tab that says what to press and shows the document's numbers next
//! to the engine's. The entries themselves live in `crate::gallery`.

use crate::engine::System;
use crate::gallery::{self, questions, Agreement, Example};
use crate::ui::store::{Msg, Page, StoreCtx};
use yew::prelude::*;

/// The gallery page.
#[component]
pub fn GalleryPage() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let page = |p: Page| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(p)))
    };
    let groups = System::ALL.iter().map(|&sys| {
        let id = format!("gallery-{}", sys.slug());
        let items = gallery::of_system(sys).map(|e| {
            let open = {
                let store = store.clone();
                Callback::from(move |ev: MouseEvent| {
                    ev.prevent_default();
                    store.dispatch(Msg::Example(e.slug.to_string()));
                })
            };
            let differs = e.doc.iter().any(|d| matches!(d.agreement, Agreement::Differs(_)));
            let numbers = e.doc.iter().map(|d| {
                html! { <li><span class="doc-label">{ d.label }</span>{": "}<strong>{ d.doc }</strong></li> }
            });
            html! {
                <li class="example-entry" data-example={e.slug}>
                    <a href={e.link()} onclick={open}>
                        <strong class="example-title">{ e.title }</strong>
                        <span class="example-section">{ e.section }</span>
                        <ul class="example-doc" aria-label="The document's numbers">{ for numbers }</ul>
                        if differs {
                            <span class="example-differs">{"The real code differs: both shown"}</span>
                        }
                    </a>
                </li>
            }
        });
        html! {
            <section class="gallery-group" aria-labelledby={id.clone()}>
                <h3 id={id}>{ sys.title() }</h3>
                <ol class="example-list">{ for items }</ol>
            </section>
        }
    });
    let asked = questions::all().iter().map(|q| {
        let open = {
            let store = store.clone();
            Callback::from(move |ev: MouseEvent| {
                ev.prevent_default();
                store.dispatch(Msg::Question(q.slug.to_string()));
            })
        };
        html! {
            <li class="example-entry question-entry" data-question={q.slug}>
                <a href={q.link()} onclick={open}>
                    <strong class="example-title">{ q.symptom }</strong>
                    <span class="example-section">{ format!("{} · fix: {} = {}", q.system.title(), q.fix_key, q.fix_value.trim_matches('"')) }</span>
                </a>
            </li>
        }
    });
    let large = crate::scenario::presets::LARGE.iter().map(|&(name, sys, what)| {
        let open = {
            let store = store.clone();
            Callback::from(move |_: MouseEvent| {
                store.dispatch(Msg::Open(Box::new(crate::scenario::presets::large_scenario(sys))));
                store.dispatch(Msg::Page(Page::Playground));
            })
        };
        html! {
            <li class="example-entry" data-preset={name}>
                <button class="linklike" onclick={open}>{ format!("{}: {what}", sys.title()) }</button>
            </li>
        }
    });
    html! {
        <section class="page gallery-page" aria-labelledby="gallery-title">
            <div class="page-head">
                <div>
                    <h2 id="gallery-title" tabindex="-1">{"Examples gallery"}</h2>
                    <p class="hint">{ format!(
                        "Every worked example of the Pulsar, Flink and Kafka Streams documents ({} in all), set up in free play in one click, with the document's numbers next to the engine's.",
                        gallery::all().len()
                    ) }</p>
                </div>
                <div class="page-actions">
                    <button onclick={page(Page::Lessons)}>{"Lessons"}</button>
                    <button class="primary" onclick={page(Page::Playground)} autofocus=true>{"Back to the playground"}</button>
                </div>
            </div>
            <div class="gallery-groups">{ for groups }</div>
            <section class="gallery-group questions" aria-labelledby="gallery-questions">
                <h3 id="gallery-questions">{"Questions operators ask"}</h3>
                <p class="hint">{"A symptom from an upstream report, rebuilt: the diagnosis is the engine's, and the fix runs beside it as the chart's Compare run."}</p>
                <ol class="example-list">{ for asked }</ol>
                <h3 id="gallery-large">{"Large clusters"}</h3>
                <ol class="example-list large-clusters">{ for large }</ol>
            </section>
        </section>
    }
}

/// The header's "Gallery" button (opens the page; closes it when open).
#[component]
pub fn GalleryButton() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let open = store.page == Page::Gallery;
    let toggle = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Page(if open { Page::Playground } else { Page::Gallery }))
        })
    };
    html! {
        <button class={classes!("gallery-button", open.then_some("active"))} aria-expanded={open.to_string()}
                onclick={toggle} title="Every worked example of the documents, one click each">{"Gallery"}</button>
    }
}

#[derive(Properties, PartialEq)]
struct CardProps {
    slug: &'static str,
}

/// The card of the example on screen (nothing when there is none).
#[component]
pub fn ExampleCard() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    match (store.example_on_screen(), store.question_on_screen()) {
        (Some(e), _) => html! { <Card slug={e.slug} /> },
        (_, Some(q)) => html! { <QuestionCard slug={q.slug} /> },
        _ => html! {},
    }
}

#[component]
fn Card(p: &CardProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let slug = p.slug;
    use_effect_with(slug, |_| scroll_to_top());
    // The engine's numbers: a replay of the entry's small scenario, once per entry.
    let rows = use_memo(slug, |s| gallery::example(s).map(Example::numbers));
    let Some(e) = gallery::example(slug) else {
        return html! {};
    };
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::CloseExample))
    };
    let all = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(Page::Gallery)))
    };
    let table = match rows.as_ref() {
        Some(Ok(rows)) => {
            let rows = rows.iter().map(|r| {
                html! {
                    <tr class={classes!(r.why.is_some().then_some("differs"))}>
                        <th scope="row">{ r.label }</th>
                        <td data-label="Document" class="doc-value">{ r.doc }</td>
                        <td data-label="Engine" class="engine-value">{ r.engine.clone() }</td>
                        <td data-label="Why" class="why">{ r.why.unwrap_or("same") }</td>
                    </tr>
                }
            });
            html! {
                <table class="example-numbers">
                    <thead><tr>
                        <th scope="col">{"Number"}</th><th scope="col">{"Document"}</th>
                        <th scope="col">{"Engine (real code)"}</th><th scope="col">{"Why they differ"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        }
        Some(Err(err)) => html! { <p class="hint">{ err.clone() }</p> },
        None => html! {},
    };
    html! {
        <section class="example-card" data-example={e.slug} aria-labelledby="example-card-title">
            <div class="example-head">
                <div>
                    <p class="example-kicker">{ format!("Example · {} · {}", e.system.title(), e.section) }</p>
                    <h2 id="example-card-title">{ e.title }</h2>
                </div>
                <div class="example-actions">
                    <button onclick={all}>{"All examples"}</button>
                    <button class="example-close" onclick={close} aria-label="Close the example card">{"×"}</button>
                </div>
            </div>
            <p class="example-press">{ e.press }</p>
            { table }
        </section>
    }
}

/// The card of a question: symptom, the engine's diagnosis, the fix and what
/// the same scenario does with it (the chart's Compare run).
#[component]
fn QuestionCard(p: &CardProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    use_effect_with(p.slug, |_| scroll_to_top());
    let said = use_memo(p.slug, |s| {
        questions::question(s).map(|q| (q.diagnosis(), q.with_fix()))
    });
    let Some(q) = questions::question(p.slug) else {
        return html! {};
    };
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::CloseExample))
    };
    let all = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(Page::Gallery)))
    };
    let text = |r: &Result<String, String>| match r {
        Ok(t) => t.clone(),
        Err(e) => e.clone(),
    };
    let (diagnosis, fixed) = said
        .as_ref()
        .as_ref()
        .map(|(d, f)| (text(d), text(f)))
        .unwrap_or_default();
    let sources = q.sources.iter().enumerate().map(|(i, (label, url))| {
        html! { <>{ if i > 0 { ", " } else { "" } }<a href={*url} target="_blank" rel="noopener noreferrer">{ *label }</a></> }
    });
    html! {
        <section class="example-card question-card" data-question={q.slug} aria-labelledby="example-card-title">
            <div class="example-head">
                <div>
                    <p class="example-kicker">{ format!("Question · {} · asked in ", q.system.title()) }{ for sources }</p>
                    <h2 id="example-card-title">{ q.symptom }</h2>
                </div>
                <div class="example-actions">
                    <button onclick={all}>{"All examples"}</button>
                    <button class="example-close" onclick={close} aria-label="Close the question card">{"×"}</button>
                </div>
            </div>
            <p class="diagnosis"><strong>{"Diagnosis: "}</strong>{ diagnosis }</p>
            <p class="example-press"><strong>{"Fix: "}</strong>{ format!("set {} = {}. ", q.fix_key, q.fix_value.trim_matches('"')) }
                <span class="fixed">{ fixed }</span>
                {" The chart's Compare run is this scenario with the fix."}</p>
        </section>
    }
}

/// A card that opens starts at the top of the page (the entry clicked may have
/// been far down the gallery).
fn scroll_to_top() {
    gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
}
