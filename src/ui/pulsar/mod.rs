//! The Pulsar tab: the hash ring of each namespace, one bar block per broker,
//! the controls, and a "proposal" of the next round. Components here are
//! presentational (props in, callbacks out) except [`tab`], which reads the
//! store and dispatches `Msg::act(..)`.

mod anti_affinity;
mod assign_bundle;
mod broker_bars;
mod controls;
mod failure_domain;
mod isolation_policy;
mod namespace_boundaries;
mod profile_switch;
mod proposal;
mod ring;
mod scalable;
mod tab;
mod unreported_broker;

pub use tab::PulsarTab;

/// The Pulsar tab's part of the playground.
pub struct Ui;

impl crate::ui::system::SystemUi for Ui {
    fn tab() -> yew::Html {
        yew::html! { <PulsarTab /> }
    }
    const ASIDE: &'static [&'static str] = &["members", "topics", "load", "admin"];
    // The ring draws the next round's moves itself.
    const OWN_PROPOSAL: bool = true;
    fn control_words(c: crate::lessons::Controls) -> &'static [&'static str] {
        match c {
            // The load-manager choice sits in the Cluster panel.
            crate::lessons::Controls::Config => &["config", "members"],
            c => crate::ui::system::default_words(c),
        }
    }
}

use std::rc::Rc;

/// Broker → colour (and whether it is alive), in the engine's broker order,
/// with each name's position for the lookups of a drawing.
#[derive(Clone, Debug, Default)]
pub struct Colors(
    pub Rc<Vec<(String, &'static str, bool)>>,
    Rc<rustc_hash::FxHashMap<String, usize>>,
);

impl PartialEq for Colors {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}

impl Colors {
    /// One Okabe–Ito colour per broker, by position.
    pub fn new(brokers: impl IntoIterator<Item = (String, bool)>) -> Colors {
        let list: Vec<_> = brokers
            .into_iter()
            .enumerate()
            .map(|(i, (b, alive))| (b, ring::broker_color(i), alive))
            .collect();
        let mut at = rustc_hash::FxHashMap::default();
        for (i, (b, _, _)) in list.iter().enumerate() {
            at.entry(b.clone()).or_insert(i);
        }
        Colors(Rc::new(list), Rc::new(at))
    }

    /// The colour of `broker` (grey when unknown): one hash lookup (a large
    /// ring asks once per drawn run).
    pub fn color(&self, broker: &str) -> &'static str {
        self.1
            .get(broker)
            .map_or(ring::PALETTE[ring::PALETTE.len() - 1], |&i| self.0[i].1)
    }
}
