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

/// Broker → colour (and whether it is alive), in the engine's broker order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Colors(pub Rc<Vec<(String, &'static str, bool)>>);

impl Colors {
    /// One Okabe–Ito colour per broker, by position.
    pub fn new(brokers: impl IntoIterator<Item = (String, bool)>) -> Colors {
        Colors(Rc::new(
            brokers
                .into_iter()
                .enumerate()
                .map(|(i, (b, alive))| (b, ring::broker_color(i), alive))
                .collect(),
        ))
    }

    /// The colour of `broker` (grey when unknown).
    /// Brokers come in name order, so this is a binary search (a large ring asks
    /// once per drawn run); any other order falls back to a scan.
    pub fn color(&self, broker: &str) -> &'static str {
        let v = &self.0;
        let hit = match v.binary_search_by(|(b, _, _)| b.as_str().cmp(broker)) {
            Ok(i) => Some(&v[i]),
            Err(_) => v.iter().find(|(b, _, _)| b == broker),
        };
        hit.map_or(ring::PALETTE[ring::PALETTE.len() - 1], |(_, c, _)| c)
    }
}
