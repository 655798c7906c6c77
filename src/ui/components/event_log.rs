//! The event log: every decision in plain words with its numbers, newest first
//! (or oldest first, the reader's choice, remembered in this browser). The
//! setup's events are folded under one line. Clicking an event highlights what
//! it is about in the view.

use crate::playground::{EventLogRows, Narrated, WholeText, MAX_LOG_ROWS, NARRATION_START};
use crate::ui::browser;
use crate::ui::components::canvas::Same;
use crate::ui::store::{EventRow, Subject};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Event log properties.
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// The newest rows, as many as the log last asked for (`on_want`), and the
    /// counts of the rows kept; compared by pointer (built once per scenario change).
    pub log: Same<EventLogRows>,
    /// The highlighted subject.
    pub highlight: Option<Subject>,
    /// Called with the clicked row's subject (or `None` to clear).
    pub on_pick: Callback<Option<Subject>>,
    /// Called with how many of the newest rows the log needs written: the rows
    /// it shows, or all it keeps while a filter reads them or the setup's are unfolded.
    pub on_want: Callback<usize>,
    /// The units line under the log (the tab's own units).
    #[prop_or_default]
    pub units: AttrValue,
}

/// Rows drawn at first; "Show more" adds as many again (a big round logs
/// thousands of events, and laying out hundreds of rows on every round would
/// cost more than the round itself).
pub const FIRST_ROWS: usize = 100;

/// Characters of a narration shown in full in a row; a longer one (a round
/// at 1,000 brokers narrates every broker's figures in one line) shows its
/// start, and its whole text is folded under the row.
pub const LINE_HEAD: usize = 360;

// A line cut at its start is cut past what a row shows of it, even once its
// "MiB" are written "MB" (three characters to two).
const _: () = assert!(NARRATION_START * 2 / 3 > LINE_HEAD + 8);

/// `text` as a row shows it: all of it when it fits in [`LINE_HEAD`]
/// characters, else its start up to the last space within them, and whether
/// it was cut.
pub fn line_head(text: &str) -> (&str, bool) {
    match text.char_indices().nth(LINE_HEAD) {
        None => (text, false),
        Some((end, _)) => {
            let head = &text[..end];
            (head.rfind(' ').map_or(head, |i| &head[..i]), true)
        }
    }
}

/// A narration: its start, and when it is long, a button that unfolds its
/// whole text.
pub fn long_line(n: &Narrated) -> Html {
    let text = one_unit(&n.text);
    let (head, cut) = line_head(&text);
    if !cut {
        return html! { { text } };
    }
    html! {
        <>
            { format!("{head} …") }
            <LineRest rest={Rest::of(n, text)} />
        </>
    }
}

/// What a folded line unfolds to.
#[derive(Clone, PartialEq)]
enum Rest {
    /// The whole line, already written (in [`one_unit`]).
    Text(AttrValue),
    /// A line written only up to its start: the whole of it is written when unfolded.
    Later(WholeText),
}

impl Rest {
    /// The rest of `n`, whose start is `text` (in [`one_unit`]).
    fn of(n: &Narrated, text: String) -> Rest {
        match &n.whole {
            None => Rest::Text(AttrValue::from(text)),
            Some(w) => Rest::Later(w.clone()),
        }
    }
}

#[derive(Properties, PartialEq)]
struct LineRestProps {
    rest: Rest,
}

/// The whole of a long narration, behind a button: one element while folded
/// (a round's log holds a hundred such rows), the text only once unfolded.
#[component]
fn LineRest(p: &LineRestProps) -> Html {
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    // A line written only up to its start is written whole when it is unfolded.
    let text = use_memo((*open, p.rest.clone()), |(open, rest)| match rest {
        Rest::Text(t) => Some(t.clone()),
        Rest::Later(w) => open.then(|| AttrValue::from(one_unit(&w.text()))),
    });
    let label = match (*open, &*text) {
        (true, _) => "fold the line".to_string(),
        (false, Some(t)) => format!("the whole line ({} characters)", t.chars().count()),
        (false, None) => format!("the whole line (more than {NARRATION_START} characters)"),
    };
    html! {
        <div class="line-rest">
            <button type="button" class="line-more" aria-expanded={open.to_string()} onclick={toggle}>{ label }</button>
            if *open { <p tabindex="0">{ (*text).clone().unwrap_or_default() }</p> }
        </div>
    }
}

/// One unit system in the log: Pulsar counts a "MB" as 1,048,576 bytes (its
/// `...Mbytes` settings and its shedders' messages), and so does every rate
/// here, so the few narrations that say "MiB/s" are shown as "MB/s".
/// Most rows have none: those are copied once, at their length (a replace
/// builds its text by growing it, which for the log's long rows cost more
/// than the rest of their narration).
pub fn one_unit(text: &str) -> String {
    if text.contains("MiB") {
        // "MiB/s" becomes "MB/s" with the rest.
        text.replace("MiB", "MB")
    } else {
        text.to_owned()
    }
}

/// The label of a row: the setup, the round it belongs to, or the action's place in the log.
pub fn row_label(r: &EventRow) -> String {
    match (r.step, r.round) {
        (None, _) => "setup".into(),
        (Some(_), Some(n)) => format!("round {n}"),
        (Some(i), None) => format!("action {}", i + 1),
    }
}

/// The event log panel.
#[component]
pub fn EventLog(p: &EventLogProps) -> Html {
    let filter = use_state(String::new);
    let limit = use_state(|| FIRST_ROWS);
    let oldest_first = use_state(browser::log_oldest_first);
    let setup_open = use_state(|| false);
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            filter.set(input.value());
        })
    };
    let on_order = {
        let oldest_first = oldest_first.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value() == "oldest";
            browser::save_log_oldest_first(v);
            oldest_first.set(v);
        })
    };
    let needle = filter.to_lowercase();
    // Only the shown rows are written, unless a filter must read every kept one
    // or the setup's rows (the last kept) are unfolded.
    let wanted = if needle.is_empty() && !*setup_open {
        *limit
    } else {
        MAX_LOG_ROWS
    };
    {
        let on_want = p.on_want.clone();
        use_effect_with(wanted, move |w| on_want.emit(*w));
    }
    let log = &p.log.0;
    // A filter reads the whole of each line (a long one is written whole for it).
    let keep = |r: &&EventRow| needle.is_empty() || r.text.full().to_lowercase().contains(&needle);
    let (setup, acted): (Vec<&EventRow>, Vec<&EventRow>) = log.rows.iter().partition(|r| r.step.is_none());
    let mut matching: Vec<&EventRow> = acted.into_iter().filter(keep).collect();
    let setup: Vec<&EventRow> = setup.into_iter().filter(keep).collect();
    // Unfiltered, the kept rows are counted rather than written.
    let (acted_kept, setup_kept) = if needle.is_empty() {
        (log.acted, log.setup)
    } else {
        (matching.len(), setup.len())
    };
    let more = acted_kept.saturating_sub(*limit);
    matching.truncate(*limit);
    if *oldest_first {
        matching.reverse();
    }
    let on_more = {
        let limit = limit.clone();
        Callback::from(move |_: MouseEvent| limit.set(*limit + FIRST_ROWS))
    };
    let draw = |r: &EventRow| {
        let active = r.subject.is_some() && r.subject == p.highlight;
        let onclick = {
            let pick = p.on_pick.clone();
            let subject = r.subject.clone();
            Callback::from(move |_| pick.emit(if active { None } else { subject.clone() }))
        };
        let title = r
            .subject
            .as_ref()
            .map(|s| format!("Highlight {} {}", s.kind.as_str(), s.id))
            .unwrap_or_default();
        let text = one_unit(&r.text.text);
        let (head, cut) = line_head(&text);
        html! {
            <li class={classes!("event", active.then_some("active"), r.subject.is_some().then_some("has-subject"))}>
                <button class="event-row" {onclick} title={title} disabled={r.subject.is_none()}>
                    <span class="step">{ row_label(r) }</span>
                    <span class="text">{ if cut { format!("{head} …") } else { text.clone() } }</span>
                </button>
                if cut { <LineRest rest={Rest::of(&r.text, text.clone())} /> }
            </li>
        }
    };
    // The setup's events are folded, at the start (oldest first) or the end
    // (newest first); their rows are written into the page only while the fold
    // is open (a large cluster's setup fills the log's 400 rows).
    let setup_fold = (setup_kept > 0).then(|| {
        let mut rows = setup.clone();
        if *oldest_first {
            rows.reverse();
        }
        let ontoggle = {
            let setup_open = setup_open.clone();
            Callback::from(move |e: Event| {
                setup_open.set(e.target_unchecked_into::<web_sys::Element>().has_attribute("open"));
            })
        };
        html! {
            <li class="setup-fold">
                <details open={*setup_open} {ontoggle}>
                    <summary>{ format!("{setup_kept} setup events (the scenario's starting cluster)") }</summary>
                    if *setup_open {
                        <ol class="events setup-events">{ for rows.iter().map(|r| draw(r)) }</ol>
                    }
                </details>
            </li>
        }
    });
    let order = if *oldest_first { "oldest" } else { "newest" };
    html! {
        <section class="panel log" aria-labelledby="event-log-title" id="event-log" tabindex="-1">
            <div class="panel-head">
                <h2 id="event-log-title">{"Event log"}</h2>
                <input class="filter" type="search" placeholder="filter…" aria-label="Filter events"
                       value={(*filter).clone()} oninput={on_filter} />
            </div>
            <label class="log-order">{"Order "}
                <select onchange={on_order}>
                    <option value="newest" selected={order == "newest"}>{"newest first"}</option>
                    <option value="oldest" selected={order == "oldest"}>{"oldest first (reading order)"}</option>
                </select>
            </label>
            <ol class="events" aria-live="polite" data-order={order}>
                if *oldest_first { { for setup_fold.clone() } }
                { for matching.iter().map(|r| draw(r)) }
                if !*oldest_first { { for setup_fold } }
            </ol>
            if more > 0 {
                <button class="show-more" onclick={on_more}>{ format!("Show {} more of {more}", more.min(FIRST_ROWS)) }</button>
            }
            if log.hidden > 0 {
                <p class="hint">{ format!("{} older events not shown (the CLI prints them all: lbscope run)", log.hidden) }</p>
            }
            <p class="hint units">{ p.units.clone() }</p>
        </section>
    }
}
