//! The keyboard-shortcut overlay.

use crate::ui::store::{Msg, Page, StoreCtx};
use yew::prelude::*;

/// Every shortcut: (keys, what it does). The app's key handler uses the same table.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause rounds"),
    ("n", "one round (Step / Schedule / Rebalance)"),
    ("u", "undo"),
    ("r", "redo"),
    ("1 2 3", "Pulsar, Flink, Kafka Streams tab"),
    ("[ ] or ← →", "previous / next lesson step"),
    ("l", "the lessons menu"),
    ("?", "show this help"),
    ("Esc", "close this help or page, clear the highlight"),
];

/// The overlay.
#[component]
pub fn HelpOverlay() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Help(false)))
    };
    let fidelity = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Help(false));
            store.dispatch(Msg::Page(Page::Fidelity));
        })
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="overlay-card">
                <h2 id="help-title">{"Keyboard shortcuts"}</h2>
                <dl class="shortcuts">
                    { for SHORTCUTS.iter().map(|(k, what)| html!{ <><dt><kbd>{*k}</kbd></dt><dd>{*what}</dd></> }) }
                </dl>
                <p class="hint">{"Click an event in the log to highlight the bundle, slot or task it talks about."}</p>
                <p class="hint">{"Where lbscope simplifies, and where the documents and the real code disagree: "}
                    <button class="link" onclick={fidelity}>{"Fidelity notes"}</button></p>
                <button onclick={close} autofocus=true>{"Close"}</button>
            </div>
        </div>
    }
}
