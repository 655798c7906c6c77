//! The Pulsar tab: namespace controls, the hash ring and the event log.

use super::ring::{Ring, Tick};
use super::store::{Msg, StoreCtx, NAMESPACE};
use crate::engine::pulsar;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Pulsar tab.
#[component]
pub fn PulsarTab() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let topic_ref = use_node_ref();
    let ns = store.pulsar.state().namespaces().get(NAMESPACE).cloned();

    let on_bundles = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match input.value().trim().parse::<u32>() {
                Ok(n) => store.dispatch(Msg::SetBundles(n)),
                Err(_) => input.set_value(&store.bundles().to_string()),
            }
        })
    };
    let on_add = {
        let store = store.clone();
        let topic_ref = topic_ref.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(input) = topic_ref.cast::<HtmlInputElement>() {
                let name = input.value();
                if !name.trim().is_empty() {
                    store.dispatch(Msg::Pulsar(pulsar::Action::CreateTopic { topic: name }));
                    input.set_value("");
                }
            }
        })
    };

    let on_random = {
        let store = store.clone();
        Callback::from(move |_| {
            store.dispatch(Msg::RandomTopics {
                seed: super::browser::fresh_seed(),
                count: 8,
            })
        })
    };

    let (bundles, ticks) = match &ns {
        Some(ns) => (
            ns.bundles.clone(),
            ns.topics
                .values()
                .map(|t| Tick {
                    label: t.name.0.clone(),
                    hash: t.hash,
                    bundle: ns.bundle_of(t.hash).name(),
                })
                .collect::<Vec<_>>(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    let colors: Vec<usize> = (0..bundles.len()).collect();
    let events: Vec<String> = store.narrated().into_iter().map(|(_, t)| t).collect();

    html! {
        <section class="tab-body" aria-label="Pulsar">
            <aside class="panel controls">
                <h2>{"Namespace "}<code>{NAMESPACE}</code></h2>
                <label for="bundle-count">{"Bundles"}</label>
                <input id="bundle-count" type="number" min="1" max={pulsar::MAX_BUNDLES.to_string()}
                       value={store.bundles().to_string()} onchange={on_bundles} />
                <p class="hint">{"Pulsar cuts the ring into equal segments: 2^32 / N, the last boundary forced to 0xffffffff."}</p>
                <form onsubmit={on_add} class="add-topic">
                    <label for="topic-name">{"Add topic"}</label>
                    <input id="topic-name" ref={topic_ref} placeholder="persistent://public/default/my-topic" />
                    <button type="submit">{"Add"}</button>
                </form>
                <button class="secondary" onclick={on_random}>{"Add 8 random topics"}</button>
            </aside>
            <div class="panel main-view">
                <Ring {bundles} {colors} {ticks} title={format!("Hash ring of {NAMESPACE}")} />
            </div>
            <aside class="panel log" aria-live="polite">
                <h2>{"Events"}</h2>
                <ol class="events">
                    { for events.iter().rev().map(|e| html!{ <li>{e}</li> }) }
                </ol>
            </aside>
        </section>
    }
}
