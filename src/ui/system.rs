//! What the playground shows for each system, behind one trait: its tab, the
//! side-panel control groups a lesson step can hide, and whether the tab draws
//! its own proposal. Each system's UI module implements it; `super::tabs`
//! chooses the implementation by system.

use crate::lessons::Controls;
use yew::Html;

/// One system's part of the playground.
pub trait SystemUi {
    /// The tab (its views and controls).
    fn tab() -> Html;

    /// The `data-controls` groups of the tab's side panel (a lesson step that
    /// shows none of them hides the panel).
    const ASIDE: &'static [&'static str];

    /// Whether the tab shows its own "what the next round would do" (then the
    /// toolbar has no Propose button).
    const OWN_PROPOSAL: bool = false;

    /// The `data-controls` words a lesson's control group shows on this tab.
    fn control_words(c: Controls) -> &'static [&'static str] {
        default_words(c)
    }
}

/// The `data-controls` words of a lesson's control group on most tabs.
pub fn default_words(c: Controls) -> &'static [&'static str] {
    match c {
        Controls::Step => &["step"],
        Controls::Topics => &["topics"],
        Controls::Load => &["load"],
        Controls::Members => &["members"],
        Controls::Split => &["admin", "split"],
        Controls::Unload => &["admin", "unload"],
        Controls::Config => &["config"],
        Controls::Schedule => &["schedule", "step"],
        Controls::Threads => &["threads"],
        Controls::Produce => &["produce"],
        Controls::Time => &["time"],
        Controls::Topology => &["topology"],
        Controls::All => &[],
    }
}
