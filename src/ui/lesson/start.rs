//! "Start here": on a first visit, a short card offers the guided lessons. A
//! returning learner dismisses it once; the browser remembers (localStorage).

use crate::lessons;
use crate::ui::browser;
use crate::ui::store::{LessonMsg, Msg, Page, StoreCtx};
use yew::prelude::*;

/// The card (nothing once dismissed, or while a lesson or a page is open).
#[component]
pub fn StartHere() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let dismissed = use_state(browser::start_here_dismissed);
    if *dismissed || store.lesson.is_some() || store.page != Page::Playground {
        return html! {};
    }
    // The tab's own first lesson, numbered as in the course.
    let Some((number, first)) = lessons::all()
        .iter()
        .enumerate()
        .find(|(_, l)| l.system == store.tab)
        .map(|(i, l)| (i + 1, l))
    else {
        return html! {};
    };
    let total = lessons::all().len();
    let round = crate::playground::words(store.tab).round;
    let close = {
        let dismissed = dismissed.clone();
        Callback::from(move |_: MouseEvent| {
            browser::dismiss_start_here();
            dismissed.set(true);
        })
    };
    let open = |id: &'static str| {
        let (store, dismissed) = (store.clone(), dismissed.clone());
        Callback::from(move |_: MouseEvent| {
            browser::dismiss_start_here();
            dismissed.set(true);
            store.dispatch(Msg::Lesson(LessonMsg::Open(id.to_string(), 0)));
        })
    };
    html! {
        <section class="start-here" aria-labelledby="start-here-title">
            <div class="start-text">
                <h2 id="start-here-title">{"New here? Start with a lesson"}</h2>
                <p>{ format!(
                    "{total} short guided lessons walk through how Pulsar, Flink and Kafka Streams really balance load, one idea each, every number computed by the engine. Or press {round} and watch it happen. Lessons and Gallery at the top list every lesson and the documents' {examples} worked examples.",
                    examples = crate::gallery::all().len()
                ) }</p>
            </div>
            <div class="start-actions">
                <button class="primary" data-lesson={first.id} onclick={open(first.id)}>{ format!("Lesson {number}: {}", first.title) }</button>
                <button class="start-dismiss" onclick={close} title="Hide this card for good (this browser remembers)">{"No thanks"}</button>
            </div>
        </section>
    }
}
