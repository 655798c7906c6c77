//! Each placement of a round, explained from its events: which candidate
//! filters removed which brokers, and which score picked the winner (the
//! numbers are the events'; this only groups them by bundle).
//!
//! A lookup's events come in order: the filters (`PlaceEvent::Filtered`), the
//! strategy's scores (`LongTermRates`, `ResourceUsages`, `RoundRobin`,
//! `AvgDestination`), its choice (`Chosen`), then the `Event::Lookup` that
//! assigns the owner. Everything about a bundle seen since its last lookup
//! belongs to the next lookup of it.

use super::PlaceEvent;
use crate::engine::pulsar::event::Event;
use crate::engine::pulsar::ids::{BrokerId, BundleId};
use std::collections::BTreeMap;

/// One placement explained.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// The bundle placed.
    pub bundle: BundleId,
    /// Its new owner.
    pub broker: BrokerId,
    /// Candidates left after the filters / live brokers.
    pub candidates: (usize, usize),
    /// Each filter that removed brokers: "<filter> removed <brokers>: <reason>".
    pub filters: Vec<String>,
    /// What picked the winner, with the winner's score.
    pub score: String,
}

#[derive(Default)]
struct Pending {
    filters: Vec<String>,
    score: Option<String>,
}

fn listed(v: &[BrokerId], count: usize) -> String {
    let names: Vec<String> = v.iter().map(ToString::to_string).collect();
    if count > v.len() {
        format!("{} and {} more", names.join(", "), count - v.len())
    } else {
        names.join(", ")
    }
}

/// What a scoring event says of the winner `broker` (known once the lookup comes).
fn score_of(e: &PlaceEvent, broker: &BrokerId) -> Option<String> {
    match e {
        PlaceEvent::LongTermRates {
            scores,
            candidates,
            best_count,
            ..
        } => {
            let own = scores
                .iter()
                .find(|(b, _)| b == broker)
                .map(|(_, v)| v.map_or("overloaded (∞)".to_string(), |v| format!("{v:.1} msg/s")));
            let tie = if *best_count > 1 {
                format!(", tied with {} other(s), picked at random among them", best_count - 1)
            } else {
                String::new()
            };
            Some(format!(
                "LeastLongTermMessageRate: lowest long-term message rate of {} candidate(s){}{tie}",
                (*candidates).max(scores.len()),
                own.map(|o| format!(", {broker} at {o}")).unwrap_or_default()
            ))
        }
        PlaceEvent::ResourceUsages {
            usages,
            average,
            difference_threshold,
            all_candidates,
            best,
            ..
        } => {
            let own = usages
                .iter()
                .find(|(b, _)| b == broker)
                .and_then(|(_, v)| *v)
                .map(|v| format!("{broker} at {:.1} %", v * 100.0))
                .unwrap_or_else(|| broker.to_string());
            Some(if *all_candidates {
                format!(
                    "LeastResourceUsageWithWeight: no broker is below average {:.1} % − {:.1} %, so {own} was picked at random among all {}",
                    average * 100.0,
                    difference_threshold * 100.0,
                    best.len()
                )
            } else {
                format!(
                    "LeastResourceUsageWithWeight: {own} ≤ average {:.1} % − {:.1} % (picked at random among {} such broker(s))",
                    average * 100.0,
                    difference_threshold * 100.0,
                    best.len()
                )
            })
        }
        PlaceEvent::RoundRobin { index, candidates, .. } => Some(format!(
            "RoundRobinBrokerSelector: candidate {index} of {candidates} (the namespace is excluded from shedding)"
        )),
        PlaceEvent::AvgDestination { planned, note, .. } => Some(if *planned {
            "AvgShedder: the destination its shedding pass planned".to_string()
        } else {
            format!(
                "AvgShedder: no plan applied{}, a hashed pick among the sorted candidates",
                note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default()
            )
        }),
        _ => None,
    }
}

fn bundle_of(e: &PlaceEvent) -> Option<&BundleId> {
    match e {
        PlaceEvent::Filtered { bundle, .. }
        | PlaceEvent::LongTermRates { bundle, .. }
        | PlaceEvent::ResourceUsages { bundle, .. }
        | PlaceEvent::RoundRobin { bundle, .. }
        | PlaceEvent::AvgDestination { bundle, .. } => Some(bundle),
        _ => None,
    }
}

/// The placements of `events` (one round's, say), in lookup order.
pub fn placements(events: &[Event]) -> Vec<Placement> {
    placements_first(events, usize::MAX).0
}

/// The first `limit` placements of `events` (what [`placements`] gives, cut
/// short), and how many there are in all; the ones past `limit` are only
/// counted, not written out.
pub fn placements_first(events: &[Event], limit: usize) -> (Vec<Placement>, usize) {
    let mut pending: BTreeMap<&BundleId, (Pending, Vec<&PlaceEvent>)> = BTreeMap::new();
    let mut out = Vec::new();
    let mut total = 0;
    for e in events {
        match e {
            Event::Lookup { .. } if out.len() == limit => total += 1,
            Event::Place(_) if out.len() == limit => {}
            Event::Place(p) => {
                let Some(b) = bundle_of(p) else { continue };
                let slot = pending.entry(b).or_default();
                if let PlaceEvent::Filtered {
                    filter,
                    removed,
                    removed_count,
                    left,
                    reason,
                    ..
                } = p
                {
                    slot.0.filters.push(format!(
                        "{filter} removed {} ({left} left): {reason}",
                        listed(removed, *removed_count)
                    ));
                } else {
                    slot.1.push(p);
                }
            }
            Event::Lookup {
                bundle,
                broker,
                candidates,
                how,
            } => {
                let (mut p, scores) = pending.remove(bundle).unwrap_or_default();
                p.score = scores.iter().rev().find_map(|s| score_of(s, broker));
                total += 1;
                out.push(Placement {
                    bundle: bundle.clone(),
                    broker: broker.clone(),
                    candidates: *candidates,
                    filters: p.filters,
                    score: p.score.unwrap_or_else(|| how.clone()),
                });
            }
            _ => {}
        }
    }
    (out, total)
}

impl Placement {
    /// The placement in one sentence.
    pub fn sentence(&self) -> String {
        let filters = if self.filters.is_empty() {
            "no filter removed a candidate".to_string()
        } else {
            self.filters.join("; ")
        };
        format!(
            "{} → {}: {filters}; {} of {} live broker(s) left; picked by {}",
            self.bundle, self.broker, self.candidates.0, self.candidates.1, self.score
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar::{Action, Sim};
    use crate::engine::Engine;

    /// The doc-6 cluster's placements: the even-distribution filter removes the
    /// brokers owning the most bundles of the namespace, and the lowest long-term
    /// message rate picks among the rest (as the golden log of
    /// `pulsar-doc6-threshold-shedder` narrates them one event at a time).
    #[test]
    fn placements_name_the_filters_and_the_winning_score() {
        let sc = crate::scenario::Scenario::from_json(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/scenarios/pulsar-doc6-threshold-shedder.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let crate::scenario::Body::Pulsar(log) = &sc.body else {
            panic!("a Pulsar scenario")
        };
        let mut sim = Sim::new(log.config.clone(), sc.seed).unwrap();
        let mut events = Vec::new();
        for a in &log.setup {
            events.extend(sim.apply(a).unwrap());
        }
        let placed = placements(&events);
        assert!(placed.len() >= 3, "{placed:#?}");
        // The first bundle: every broker a candidate, nothing removed.
        assert!(placed[0].filters.is_empty());
        assert_eq!(placed[0].candidates, (3, 3));
        assert!(
            placed[0].score.starts_with("LeastLongTermMessageRate"),
            "{}",
            placed[0].score
        );
        assert!(
            placed[0].score.contains("tied with 2 other(s)"),
            "{}",
            placed[0].score
        );
        // The second: broker-1 already owns one, so the filter removes it.
        let second = &placed[1];
        assert_eq!(second.filters.len(), 1);
        assert!(
            second.filters[0].starts_with(
                "LoadManagerShared.removeMostServicingBrokersForNamespace removed broker-1 (2 left)"
            ),
            "{}",
            second.filters[0]
        );
        assert!(
            second.score.contains(&format!("{} at 0.0 msg/s", second.broker)),
            "{}",
            second.score
        );
        let s = second.sentence();
        assert!(
            s.contains("removeMostServicingBrokersForNamespace")
                && s.contains("picked by LeastLongTermMessageRate"),
            "{s}"
        );
        // A round's placements after a shed.
        let ev = sim.apply(&Action::Step).unwrap();
        for p in placements(&ev) {
            assert!(!p.score.is_empty());
        }
        // The first few, cut short: the same placements, and the count of all.
        for limit in [0, 1, 2, placed.len(), placed.len() + 5] {
            let (first, total) = placements_first(&events, limit);
            assert_eq!(total, placed.len());
            assert_eq!(first, placed[..limit.min(placed.len())]);
        }
    }
}
