//! The event log: every decision in plain words with its numbers, newest first.
//! Clicking an event highlights what it is about in the view.

use crate::ui::store::{EventRow, Subject};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Event log properties.
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// Rows, newest first.
    pub rows: Vec<EventRow>,
    /// Older rows not shown.
    pub hidden: usize,
    /// The highlighted subject.
    pub highlight: Option<Subject>,
    /// Called with the clicked row's subject (or `None` to clear).
    pub on_pick: Callback<Option<Subject>>,
}

/// Rows drawn at first; "Show more" adds as many again (a big round logs
/// thousands of events, and laying out hundreds of rows on every round would
/// cost more than the round itself).
pub const FIRST_ROWS: usize = 100;

/// The event log panel.
#[component]
pub fn EventLog(p: &EventLogProps) -> Html {
    let filter = use_state(String::new);
    let limit = use_state(|| FIRST_ROWS);
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            filter.set(input.value());
        })
    };
    let needle = filter.to_lowercase();
    let matching: Vec<&EventRow> = p
        .rows
        .iter()
        .filter(|r| needle.is_empty() || r.text.to_lowercase().contains(&needle))
        .collect();
    let more = matching.len().saturating_sub(*limit);
    let on_more = {
        let limit = limit.clone();
        Callback::from(move |_: MouseEvent| limit.set(*limit + FIRST_ROWS))
    };
    let rows = matching.into_iter().take(*limit).map(|r| {
            let active = r.subject.is_some() && r.subject == p.highlight;
            let onclick = {
                let pick = p.on_pick.clone();
                let subject = r.subject.clone();
                Callback::from(move |_| pick.emit(if active { None } else { subject.clone() }))
            };
            let step = match r.step {
                None => "setup".to_string(),
                Some(i) => format!("#{}", i + 1),
            };
            let title = r
                .subject
                .as_ref()
                .map(|s| format!("Highlight {} {}", s.kind, s.id))
                .unwrap_or_default();
            html! {
                <li class={classes!("event", active.then_some("active"), r.subject.is_some().then_some("has-subject"))}>
                    <button class="event-row" {onclick} title={title} disabled={r.subject.is_none()}>
                        <span class="step">{step}</span>
                        <span class="text">{&r.text}</span>
                    </button>
                </li>
            }
        });
    html! {
        <section class="panel log" aria-label="Event log">
            <div class="panel-head">
                <h2>{"Event log"}</h2>
                <input class="filter" type="search" placeholder="filter…" aria-label="Filter events"
                       value={(*filter).clone()} oninput={on_filter} />
            </div>
            <ol class="events" aria-live="polite">{ for rows }</ol>
            if more > 0 {
                <button class="show-more" onclick={on_more}>{ format!("Show {} more of {more}", more.min(FIRST_ROWS)) }</button>
            }
            if p.hidden > 0 {
                <p class="hint">{ format!("{} older events not shown (the CLI prints them all: lbscope run)", p.hidden) }</p>
            }
        </section>
    }
}
