//! The outcome of the run on screen, under the metrics chart: one line (how
//! many rounds it took to settle, the moves, the balancedness score), then
//! every figure and goal on request. The engine's outcome meter reads them from
//! the run's events ([`crate::playground::Store::outcome`]); nothing here counts.

use crate::engine::outcome::fmt;
use crate::ui::store::StoreCtx;
use yew::prelude::*;

/// The outcome block of the metrics panel.
#[component]
pub fn RunOutcome() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let outcome = {
        let store = store.clone();
        use_memo((store.data_revision, store.tab), move |_| store.outcome())
    };
    let o = &*outcome;
    html! {
        <div class="outcome" data-score={fmt(o.score)} data-moves={o.moves.to_string()}
             data-rounds={o.rounds.to_string()} data-settled={o.settled_after.map(|s| s.to_string())}>
            <p class="outcome-line"><strong>{"Outcome: "}</strong>{ o.summary() }</p>
            <details class="outcome-details">
                <summary>{"Every figure and goal (as lbscope run prints them)"}</summary>
                <pre>{ o.to_text() }</pre>
            </details>
        </div>
    }
}

/// The run's outcome in one line, for a round's card ("Run so far: settled
/// after 2 rounds · 3 moves · balancedness 92"): the same meter as the
/// metrics panel's.
#[component]
pub fn OutcomeSummary() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let outcome = {
        let store = store.clone();
        use_memo((store.data_revision, store.tab), move |_| store.outcome())
    };
    html! {
        <p class="round-outcome" data-score={fmt(outcome.score)}>
            <strong>{"Run so far: "}</strong>{ outcome.summary() }
        </p>
    }
}
