//! The fidelity notes page: where lbscope simplifies, and where the documents
//! and the real code disagree, with a link to the lesson that shows it.

use crate::engine::System;
use crate::lessons::{self, fidelity};
use crate::ui::store::{LessonMsg, Msg, Page, StoreCtx};
use yew::prelude::*;

/// The fidelity notes page.
#[component]
pub fn FidelityPage() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let page = |p: Page| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(p)))
    };
    let notes = fidelity::notes();
    let groups = System::ALL.iter().map(|&sys| {
        let rows = notes.iter().filter(|n| n.system == sys).map(|n| {
            let lesson = n.lesson.and_then(lessons::lesson).map(|l| {
                let store = store.clone();
                let open = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    store.dispatch(Msg::Lesson(LessonMsg::Open(l.id.to_string(), 0)));
                });
                html! { <a href={l.link(0)} onclick={open} data-lesson={l.id}>{ l.title }</a> }
            });
            html! {
                <tr class="note">
                    <th scope="row">{ n.topic }</th>
                    <td data-label="The doc says">{ n.doc }</td>
                    <td data-label="The code does">{ n.code }</td>
                    <td data-label="lbscope">{ n.lbscope }</td>
                    <td data-label="Lesson">{ lesson.unwrap_or_else(|| html!{ <span class="hint">{"—"}</span> }) }</td>
                </tr>
            }
        });
        let registry = fidelity::strategies(sys);
        let strategies = (!registry.is_empty()).then(|| {
            let rows = registry.iter().map(|s| html! {
                <tr class="strategy" data-strategy={s.name}>
                    <th scope="row"><code>{ breakable(&format!("{}={}", s.key, s.name)) }</code></th>
                    <td data-label="Upstream class"><code>{ breakable(s.upstream) }</code></td>
                    <td data-label="File"><code>{ breakable(&format!("src/engine/{}", s.file)) }</code></td>
                    <td data-label="What it does">{ s.summary }</td>
                </tr>
            });
            html! {
                <table class="fidelity strategies">
                    <caption>{ format!("{} strategies lbscope reproduces", sys.title()) }</caption>
                    <thead><tr>
                        <th scope="col">{"Setting"}</th><th scope="col">{"Upstream class"}</th>
                        <th scope="col">{"File"}</th><th scope="col">{"What it does"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        });
        let id = format!("fidelity-{}", sys.title().replace(' ', "-").to_lowercase());
        html! {
            <section class="fidelity-group" aria-labelledby={id.clone()}>
                <h3 {id}>{ sys.title() }</h3>
                { for strategies }
                <table class="fidelity">
                    <thead><tr>
                        <th scope="col">{"Topic"}</th><th scope="col">{"The doc says"}</th>
                        <th scope="col">{"The code does"}</th><th scope="col">{"lbscope"}</th><th scope="col">{"Lesson"}</th>
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </section>
        }
    });
    html! {
        <section class="page fidelity-page" aria-labelledby="fidelity-title">
            <div class="page-head">
                <div>
                    <h2 id="fidelity-title">{"Fidelity notes"}</h2>
                    <p class="hint">{ format!("{} places where lbscope simplifies, or where a document and the real code disagree.", notes.len()) }</p>
                </div>
                <div class="page-actions">
                    <button onclick={page(Page::Lessons)}>{"Lessons"}</button>
                    <button class="primary" onclick={page(Page::Playground)} autofocus=true>{"Back to the playground"}</button>
                </div>
            </div>
            { for groups }
        </section>
    }
}

/// An identifier (a setting, a class, a path) that may wrap after each `=`, `.`
/// or `/` rather than inside a word.
fn breakable(text: &str) -> Html {
    let parts = text.split_inclusive(['=', '.', '/']).map(|part| {
        html! { <>{ part.to_string() }<wbr/></> }
    });
    html! { <>{ for parts }</> }
}
