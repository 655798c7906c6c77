//! The controls bar: step, play/pause with a speed, the timeline scrubber,
//! undo/redo, and the scenario's link and file.

use crate::ui::browser;
use crate::ui::store::{Msg, Notice, StoreCtx};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The toolbar.
#[component]
pub fn Toolbar() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let crate::playground::History {
        can_undo,
        can_redo,
        cursor,
        len,
    } = store.history();
    let send = |m: fn() -> Msg| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(m()))
    };
    let on_play = {
        let store = store.clone();
        let playing = store.playing;
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Play(!playing)))
    };
    let on_speed = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            if let Ok(ms) = e.target_unchecked_into::<HtmlSelectElement>().value().parse() {
                store.dispatch(Msg::Speed(ms));
            }
        })
    };
    let on_scrub = {
        let store = store.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(n) = e.target_unchecked_into::<HtmlInputElement>().value().parse() {
                store.dispatch(Msg::Seek(n));
            }
        })
    };
    let on_copy = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            let link = browser::page_url(&store.fragment());
            let msg = if browser::copy_text(&link) {
                Notice::Info("Link copied: it opens this exact scenario and step.".into())
            } else {
                Notice::Info(format!("Copy this link: {link}"))
            };
            store.dispatch(Msg::Notify(msg));
        })
    };
    let on_export = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            let name = format!(
                "lbscope-{}.json",
                store.tab.title().to_lowercase().replace(' ', "-")
            );
            if let Err(e) = browser::download(&name, &store.scenario().to_json()) {
                store.dispatch(Msg::Notify(Notice::Error(format!("Export failed: {e}"))));
            }
        })
    };
    let on_import = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let store = store.clone();
            browser::read_file(&input, move |result| match result {
                Ok(text) => match crate::scenario::Scenario::from_json(&text) {
                    Ok(sc) => store.dispatch(Msg::Open(Box::new(sc))),
                    Err(e) => store.dispatch(Msg::Notify(Notice::Error(format!(
                        "That file was not imported (your current work is unchanged): {e}"
                    )))),
                },
                Err(e) => store.dispatch(Msg::Notify(Notice::Error(e))),
            });
            input.set_value("");
        })
    };
    let speeds = [(1600, "slow"), (800, "normal"), (300, "fast"), (80, "fastest")];
    html! {
        <div class="toolbar" role="toolbar" aria-label="Rounds and history">
            // The one round button of every tab (the skip link "Skip to Step" lands here).
            <button id="step" class="primary" data-controls="step" onclick={send(|| Msg::StepActive)} title={format!("{} (n)", crate::playground::words(store.tab).round_help)}>{ crate::playground::words(store.tab).round }</button>
            if !crate::ui::tabs::own_proposal(store.tab) {
                <button data-controls="step" onclick={send(|| Msg::Propose(true))}
                        title="Show what the next round would do, then apply or discard it">{"Propose"}</button>
            }
            <button data-controls="step" onclick={on_play} aria-pressed={store.playing.to_string()} title="Play / pause (space)">
                { if store.playing { "Pause" } else { "Play" } }
            </button>
            <label class="scrubber">
                <span class="visually-hidden">{"Timeline"}</span>
                <input type="range" min="0" max={len.to_string()} value={cursor.to_string()} oninput={on_scrub}
                       aria-label="Timeline: actions applied" disabled={len == 0} />
                <span class="cursor">{ format!("{cursor}/{len}") }</span>
            </label>
            <button onclick={send(|| Msg::Undo)} disabled={!can_undo} title="Undo (u)">{"Undo"}</button>
            <button onclick={send(|| Msg::Redo)} disabled={!can_redo} title="Redo (r)">{"Redo"}</button>
            // Less used: one click away, so the header stays one row wide.
            <details class="more-menu">
                <summary title="Play speed, copy a link, export, import, reset, keyboard shortcuts">{"More"}</summary>
                <div class="more-body" role="group" aria-label="More">
                    <label class="speed">{"Play speed "}
                        <select aria-label="Speed" onchange={on_speed}>
                            { for speeds.iter().map(|(ms, label)| html!{ <option value={ms.to_string()} selected={store.speed_ms == *ms}>{*label}</option> }) }
                        </select>
                    </label>
                    <button onclick={on_copy} title="Copy a link to this scenario">{"Copy link"}</button>
                    <button onclick={on_export} title="Download the scenario as JSON">{"Export"}</button>
                    <label class="button" title="Open a scenario JSON file">
                        {"Import"}
                        <input type="file" accept=".json,application/json" class="visually-hidden" onchange={on_import} />
                    </label>
                    <button onclick={send(|| Msg::Reset)} title="Start this tab over from its default scenario">{"Reset"}</button>
                    <button onclick={send(|| Msg::Help(true))} title="Keyboard shortcuts (?)" aria-label="Help (?)">{"?"}</button>
                </div>
            </details>
        </div>
    }
}

/// What the next round would do, with Apply / Discard (Flink and Kafka Streams;
/// the Pulsar tab draws its own before/after rings).
#[component]
pub fn ProposalPanel() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let Some(p) = store
        .proposal
        .clone()
        .filter(|p| p.system == store.tab && p.system != crate::engine::System::Pulsar)
    else {
        return html! {};
    };
    let apply = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::ApplyProposal))
    };
    let discard = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Propose(false)))
    };
    html! {
        <section class="panel round-proposal" aria-label="Proposal">
            <h2>{ format!("If you press {} now", crate::playground::words(p.system).round) }</h2>
            <ul class="changes">{ for p.changes.iter().map(|c| html!{ <li>{c}</li> }) }</ul>
            <details>
                <summary>{ format!("{} events the round would log", p.events.len()) }</summary>
                <ol class="events">{ for p.events.iter().map(|e| html!{ <li>{e}</li> }) }</ol>
            </details>
            <div class="proposal-actions">
                <button class="primary" onclick={apply}>{"Apply"}</button>
                <button onclick={discard}>{"Discard"}</button>
            </div>
        </section>
    }
}
