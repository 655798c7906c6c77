//! `window.lbscope`: a read-only summary of the store for page scripts and the
//! browser tests, kept cheap to build on very large clusters.

use super::Store;
use crate::engine::{flink, pulsar, System};
use crate::scenario::Scenario;

/// Serializable summary published as `window.lbscope`.
#[derive(serde::Serialize)]
pub struct Inspect {
    /// Active tab.
    pub tab: System,
    /// The active tab's scenario (JSON form).
    pub scenario: Scenario,
    /// Pulsar namespaces (bundles and topics; topics left out above
    /// [`INSPECT_MAX_TOPICS`] topics or [`INSPECT_MAX_BUNDLES`] bundles, bundle lists
    /// above [`INSPECT_MAX_BUNDLES`]).
    pub namespaces: Vec<pulsar::namespace::Namespace>,
    /// Topics left out of `namespaces` (a very large cluster).
    pub topics_omitted: usize,
    /// Bundles left out of `namespaces` (namespaces above [`INSPECT_MAX_BUNDLES`]).
    pub bundles_omitted: usize,
    /// Milliseconds the engine took for the last round, measured in the browser.
    pub last_round_ms: Option<f64>,
    /// Flink slot grid.
    pub flink: flink::view::SlotGrid,
    /// Narrated events of the active tab, oldest first (the newest [`INSPECT_MAX_EVENTS`]).
    pub events: Vec<String>,
    /// Older events left out of `events`.
    pub events_omitted: usize,
    /// The lesson being followed: (id, 0-based step, off its path).
    pub lesson: Option<(String, usize, bool)>,
}

/// Above this many topics, `window.lbscope` leaves the topic lists out (publishing
/// it after every change must stay cheap on very large clusters).
pub const INSPECT_MAX_TOPICS: usize = 20_000;
/// At most this many (newest) events are published in `window.lbscope`.
pub const INSPECT_MAX_EVENTS: usize = 2_000;
/// Namespaces with more bundles than this are published without their bundle list.
pub const INSPECT_MAX_BUNDLES: usize = 1_024;

impl Store {
    /// What `window.lbscope` shows.
    pub fn inspect(&self) -> Inspect {
        let pulsar = self.session::<pulsar::Sim>();
        let all = pulsar.state().namespaces();
        let topics: usize = all.values().map(|n| n.topics.len()).sum();
        let bundles: usize = all.values().map(|n| n.bundles.len()).sum();
        let large = topics > INSPECT_MAX_TOPICS || bundles > INSPECT_MAX_BUNDLES;
        let namespaces = if large {
            all.values()
                .map(|n| n.outline(n.bundles.len() <= INSPECT_MAX_BUNDLES))
                .collect()
        } else {
            all.values().map(|n| n.settled()).collect()
        };
        let (events, events_omitted) = self.active().get().narrated_newest(INSPECT_MAX_EVENTS);
        Inspect {
            tab: self.tab,
            scenario: self.scenario(),
            namespaces,
            topics_omitted: if large { topics } else { 0 },
            bundles_omitted: all
                .values()
                .filter(|n| n.bundles.len() > INSPECT_MAX_BUNDLES)
                .map(|n| n.bundles.len())
                .sum(),
            last_round_ms: self.last_round_ms,
            flink: self.session::<flink::Sim>().state().slot_grid(),
            events: events.into_iter().map(|(_, t)| t).collect(),
            events_omitted,
            lesson: self
                .lesson_on_screen()
                .map(|r| (r.lesson.id.to_string(), r.step, r.off_track)),
        }
    }
}
