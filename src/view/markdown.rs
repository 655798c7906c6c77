//! "Copy as Markdown": the state and the latest decision as Markdown for a
//! ticket or a design doc, with the numbers and the link that reopens it.

use super::{position, At, Drawable};
use crate::engine::{Engine, Narrate};
use crate::scenario::Log;
use std::fmt::Write as _;

/// Most events quoted from one decision (the rest are counted).
pub const MAX_QUOTED: usize = 40;

/// `s` made safe for one Markdown table cell (pipes escaped, one line).
pub fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// One line of narration as a Markdown list item (no accidental markup at its start).
fn item(s: &str) -> String {
    let one = s.replace(['\n', '\r'], " ");
    let escaped = match one.chars().next() {
        Some('#' | '>' | '-' | '+' | '*' | '|') => format!("\\{one}"),
        _ => one,
    };
    format!("- {escaped}\n")
}

/// The quote: a heading (system, summary, position), the state's table, the
/// events of the latest decision (`last`: the index of the action and its
/// narrated events; `None` before any action), and the share `link`.
pub fn quote<E: Drawable>(state: &E, at: At, last: Option<(usize, &[String])>, link: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "**lbscope · {}** — {}  ", E::SYSTEM.title(), state.summary());
    let _ = writeln!(out, "{} · {}\n", state.clock(), position(at));
    out.push_str(&state.table());
    out.push('\n');
    match last {
        Some((i, events)) => {
            let _ = writeln!(
                out,
                "**Decision of action #{}** ({}):\n",
                i + 1,
                super::count(events.len(), "event", "events")
            );
            for e in events.iter().take(MAX_QUOTED) {
                out.push_str(&item(e));
            }
            if events.len() > MAX_QUOTED {
                let _ = writeln!(out, "- … {} more events", events.len() - MAX_QUOTED);
            }
            if events.is_empty() {
                out.push_str("- (no event: nothing changed)\n");
            }
        }
        None => out.push_str("No action applied yet: this is the scenario's setup.\n"),
    }
    let _ = writeln!(
        out,
        "\n[Open this scenario in lbscope]({})",
        link.replace(')', "%29")
    );
    out
}

/// Most events quoted from a range of rounds (the rest are counted).
pub const MAX_RANGE_QUOTED: usize = 400;

/// A range of rounds of a log, as the event log numbers them (rounds the setup
/// ran count too): the log actions it covers, from just after round `from - 1`
/// (so the changes made before round `from` are in it) through round `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundSpan {
    /// First round.
    pub from: usize,
    /// Last round.
    pub to: usize,
    /// The log actions, by index.
    pub actions: std::ops::Range<usize>,
    /// The round number of each log action in `actions` (`None`: not a round).
    pub rounds: Vec<Option<usize>>,
}

/// The round number of each of the first `applied` log actions (`None`: not a round).
pub fn round_numbers<E: Engine>(log: &Log<E>, applied: usize) -> Vec<Option<usize>> {
    let round = E::round_action();
    let mut n = log.setup.iter().filter(|a| **a == round).count();
    log.actions
        .iter()
        .take(applied)
        .map(|a| {
            (*a == round).then(|| {
                n += 1;
                n
            })
        })
        .collect()
}

/// The rounds `from` to `to` among the first `applied` log actions, or why not.
pub fn round_span<E: Engine>(
    log: &Log<E>,
    applied: usize,
    from: usize,
    to: usize,
) -> Result<RoundSpan, String> {
    let numbers = round_numbers(log, applied);
    let played: Vec<(usize, usize)> = numbers
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| (r, i)))
        .collect();
    let (Some(&(first, _)), Some(&(last, _))) = (played.first(), played.last()) else {
        return Err("no round has been played yet".into());
    };
    if from > to {
        return Err(format!(
            "round {from} comes after round {to}: give the earlier one first"
        ));
    }
    if from < first || to > last {
        let known = if first == last {
            format!("round {first} was played")
        } else {
            format!("rounds {first} to {last} were played")
        };
        let missing = match (from < first, to > last) {
            (true, true) => format!("rounds {from} and {to}"),
            (true, false) => format!("round {from}"),
            _ => format!("round {to}"),
        };
        return Err(format!("no {missing}: {known}"));
    }
    let at = |r: usize| played.iter().find(|p| p.0 == r).map(|p| p.1).unwrap_or(0);
    let start = if from == first { 0 } else { at(from - 1) + 1 };
    let end = at(to) + 1;
    Ok(RoundSpan {
        from,
        to,
        actions: start..end,
        rounds: numbers[start..end].to_vec(),
    })
}

/// The quote of a range of rounds: a heading (system, summary, the range, the
/// position after it), the state after the range as a table, every action of
/// the range with its narrated events (`steps`: the events of each log action,
/// by index), and the share `link` (which should open the state after the range).
pub fn quote_rounds<E: Drawable>(
    state: &E,
    at: At,
    span: &RoundSpan,
    steps: &[Vec<E::Event>],
    link: &str,
) -> String {
    let mut out = String::new();
    let which = if span.from == span.to {
        format!("Round {}", span.from)
    } else {
        format!("Rounds {}–{}", span.from, span.to)
    };
    let _ = writeln!(out, "**lbscope · {}** — {}  ", E::SYSTEM.title(), state.summary());
    let _ = writeln!(
        out,
        "{which} (log actions #{}–#{}); the state after them: {} · {}\n",
        span.actions.start + 1,
        span.actions.end,
        state.clock(),
        position(at)
    );
    out.push_str(&state.table());
    out.push('\n');
    let mut quoted = 0usize;
    let mut left = 0usize;
    for (k, i) in span.actions.clone().enumerate() {
        let events = steps.get(i).map_or(&[][..], Vec::as_slice);
        if quoted >= MAX_RANGE_QUOTED {
            left += events.len();
            continue;
        }
        let label = match span.rounds.get(k).copied().flatten() {
            Some(r) => format!("Round {r}"),
            None => "Action".to_string(),
        };
        let _ = writeln!(
            out,
            "**{label}** (log action #{}, {}):\n",
            i + 1,
            super::count(events.len(), "event", "events")
        );
        for e in events {
            if quoted >= MAX_RANGE_QUOTED {
                left += 1;
                continue;
            }
            out.push_str(&item(&e.narrate()));
            quoted += 1;
        }
        if events.is_empty() {
            out.push_str("- (no event: nothing changed)\n");
        }
        out.push('\n');
    }
    if left > 0 {
        let _ = writeln!(out, "… {} more events in this range\n", left);
    }
    let _ = writeln!(
        out,
        "[Open this scenario in lbscope]({})",
        link.replace(')', "%29")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_items_are_escaped() {
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(item("# not a heading"), "- \\# not a heading\n");
        assert_eq!(item("plain"), "- plain\n");
    }
}
