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
    let Some(first) = lessons::all().first() else {
        return html! {};
    };
    let total = lessons::all().len();
    let of_tab = lessons::of_system(store.tab).next();
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
    let menu = {
        let (store, dismissed) = (store.clone(), dismissed.clone());
        Callback::from(move |_: MouseEvent| {
            browser::dismiss_start_here();
            dismissed.set(true);
            store.dispatch(Msg::Page(Page::Lessons));
        })
    };
    html! {
        <section class="start-here" aria-labelledby="start-here-title">
            <div class="start-text">
                <h2 id="start-here-title">{"New here? Start with a lesson"}</h2>
                <p>{ format!(
                    "{total} short guided lessons walk through how Pulsar, Flink and Kafka Streams really balance load, one idea each, every number computed by the engine. Or press Step below and watch it happen."
                ) }</p>
            </div>
            <div class="start-actions">
                <button class="primary" onclick={open(first.id)}>{ format!("Lesson 1: {}", first.title) }</button>
                if let Some(l) = of_tab.filter(|l| l.id != first.id) {
                    <button onclick={open(l.id)}>{ format!("First {} lesson", l.system.title()) }</button>
                }
                <button onclick={menu}>{ format!("All {total} lessons") }</button>
                <button class="start-dismiss" onclick={close} title="Hide this card for good (this browser remembers)">{"No thanks"}</button>
            </div>
        </section>
    }
}
