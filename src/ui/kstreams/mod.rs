//! The Kafka Streams tab: partitions → tasks, instances × threads (racks as
//! columns, actives solid, standbys hatched, lag bars while restoring), the
//! controls that turn into engine actions, and what the last step did.
//!
//! Every entity element carries `data-task` (`0_3`), `data-instance` (`app-1`) or
//! `data-thread` (`app-1/T1`) and gets class `highlight` when the store's
//! highlight names it.

mod assignor;
mod client_rack_note;
mod common;
mod controls;
mod instances_grid;
mod last_step;
mod partition_racks;
mod previous_assignment;
mod tab;
mod task_lags;
mod topology_view;

pub use tab::KstreamsTab;

/// The Kafka Streams tab's part of the playground.
pub struct Ui;

impl crate::ui::system::SystemUi for Ui {
    fn tab() -> yew::Html {
        yew::html! { <KstreamsTab /> }
    }
    const ASIDE: &'static [&'static str] = &["presets", "time", "members", "produce", "config", "topology"];
    fn control_words(c: crate::lessons::Controls) -> &'static [&'static str] {
        match c {
            // A round here is a rebalance at a moment of the simulated clock.
            crate::lessons::Controls::Step => &["step", "time"],
            c => crate::ui::system::default_words(c),
        }
    }
}
