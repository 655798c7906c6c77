//! "Copy as Markdown": the state and the latest decision as Markdown for a
//! ticket or a design doc, with the numbers and the link that reopens it.

use super::{position, At, Drawable};
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
