//! The app shell: header, tabs, notice line, and the active tab.

use super::browser;
use super::kstreams::KstreamsTab;
use super::pulsar::PulsarTab;
use super::store::{Msg, Notice, Store, StoreCtx};
use crate::engine::System;
use yew::prelude::*;

/// Root component.
#[component]
pub fn App() -> Html {
    let store = use_reducer(Store::boot);

    // After every change: publish window.lbscope, update the share link, autosave.
    {
        let store = store.clone();
        use_effect_with(store.revision, move |_| {
            browser::expose(&store.inspect());
            browser::replace_fragment(&store.fragment());
            browser::autosave(&store.scenario().to_json());
        });
    }

    let tabs = System::ALL.iter().map(|&t| {
        let onclick = {
            let store = store.clone();
            Callback::from(move |_| store.dispatch(Msg::Tab(t)))
        };
        let selected = store.tab == t;
        html! {
            <button role="tab" aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("active"))} {onclick}>
                { t.title() }
            </button>
        }
    });
    let notice = store.notice.clone().map(|n| {
        let (class, text) = match n {
            Notice::Error(t) => ("notice error", t),
            Notice::Info(t) => ("notice info", t),
        };
        let dismiss = {
            let store = store.clone();
            Callback::from(move |_| store.dispatch(Msg::Dismiss))
        };
        html! { <div class={class} role="alert"><span>{text}</span><button onclick={dismiss} aria-label="Dismiss">{"×"}</button></div> }
    });
    let undo = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Msg::Undo))
    };
    let redo = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Msg::Redo))
    };

    let (can_undo, can_redo, _, _) = store.history();

    html! {
        <ContextProvider<StoreCtx> context={store.clone()}>
            <header class="top">
                <h1>{"lbscope"}</h1>
                <nav role="tablist" aria-label="Systems">{ for tabs }</nav>
                <div class="history">
                    <button onclick={undo} disabled={!can_undo} title="Undo">{"Undo"}</button>
                    <button onclick={redo} disabled={!can_redo} title="Redo">{"Redo"}</button>
                </div>
            </header>
            { for notice }
            <main>
                {
                    match store.tab {
                        System::Pulsar => html! { <PulsarTab /> },
                        System::Kstreams => html! { <KstreamsTab /> },
                        other => html! { <section class="tab-body placeholder"><p>{ format!("The {} engine is coming in the next iteration.", other.title()) }</p></section> },
                    }
                }
            </main>
        </ContextProvider<StoreCtx>>
    }
}
