//! The tabs by system: [`visit`] is the only place in the UI that lists the
//! systems; everything else is written once over [`SystemUi`].

use super::system::SystemUi;
use crate::engine::System;
use crate::lessons::Controls;
use yew::Html;

/// Code that runs for one system's UI, chosen by a [`System`] value.
pub trait VisitUi {
    /// What it returns.
    type Out;
    /// Run for system UI `U`.
    fn visit<U: SystemUi>(self) -> Self::Out;
}

/// Run `v` with `system`'s UI type.
pub fn visit<V: VisitUi>(system: System, v: V) -> V::Out {
    match system {
        System::Pulsar => v.visit::<super::pulsar::Ui>(),
        System::Flink => v.visit::<super::flink::Ui>(),
        System::Kstreams => v.visit::<super::kstreams::Ui>(),
    }
}

/// The tab of `system`.
pub fn tab(system: System) -> Html {
    struct Tab;
    impl VisitUi for Tab {
        type Out = Html;
        fn visit<U: SystemUi>(self) -> Html {
            U::tab()
        }
    }
    visit(system, Tab)
}

/// Whether `system`'s tab draws its own proposal.
pub fn own_proposal(system: System) -> bool {
    struct Own;
    impl VisitUi for Own {
        type Out = bool;
        fn visit<U: SystemUi>(self) -> bool {
            U::OWN_PROPOSAL
        }
    }
    visit(system, Own)
}

/// The `data-controls` words a step's control groups show on `system`'s tab,
/// space-separated, for the `data-lesson-controls` attribute (CSS hides every
/// other group); `None` when the step shows everything (free play).
#[must_use]
pub fn control_words(system: System, controls: &[Controls]) -> Option<String> {
    struct Words<'a>(&'a [Controls]);
    impl VisitUi for Words<'_> {
        type Out = Option<String>;
        fn visit<U: SystemUi>(self) -> Option<String> {
            if self.0.contains(&Controls::All) {
                return None;
            }
            let mut words: Vec<&str> = self
                .0
                .iter()
                .flat_map(|c| U::control_words(*c))
                .copied()
                .collect();
            words.sort_unstable();
            words.dedup();
            Some(words.join(" "))
        }
    }
    visit(system, Words(controls))
}

/// Whether none of `system`'s side-panel control groups is among `words` (the
/// side panel is then hidden and the view takes the whole width).
pub fn aside_empty(system: System, words: &str) -> bool {
    struct Aside<'a>(&'a str);
    impl VisitUi for Aside<'_> {
        type Out = bool;
        fn visit<U: SystemUi>(self) -> bool {
            !self.0.split(' ').any(|w| U::ASIDE.contains(&w))
        }
    }
    visit(system, Aside(words))
}
