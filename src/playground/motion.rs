//! What moves on the page after an action: read from the engine's events of that
//! one action, so the picture goes from cause to effect (a bundle travels from
//! its old owner to its new one, a split's boundary grows on the ring, slots land
//! on TaskManagers in request order, tasks travel between instances).
//!
//! Motions name page elements by the `data-` marks the views already carry
//! (`data-broker`, `data-bundle`, `data-boundary`, `data-slot`, `data-task`, …);
//! the UI plays them with the Web Animations API and decides nothing.

use crate::engine::flink::{self, Event as FlinkEvent};
use crate::engine::kstreams::{self, Event as KsEvent, Reason, Role};
use crate::engine::pulsar::scalable_topic::ScalableEvent;
use crate::engine::pulsar::{self, place::PlaceEvent, Event as PulsarEvent};
use std::collections::BTreeMap;

/// At most this many motions play after one action (a large round moves
/// hundreds of bundles; the first ones tell the story, the rest land at once).
pub const MAX_MOTIONS: usize = 24;

/// A CSS selector for the element(s) a motion is about, built from one
/// `data-` mark and its value (quotes and backslashes escaped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor(pub String);

impl Anchor {
    /// `[data-<mark>="<value>"]`.
    pub fn mark(mark: &str, value: &str) -> Anchor {
        Anchor(format!("[data-{mark}=\"{}\"]", escape(value)))
    }

    /// The same anchor narrowed to descendants matching `inner`.
    fn within(self, inner: &Anchor) -> Anchor {
        Anchor(format!("{} {}", self.0, inner.0))
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// What a motion does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Something travels from one element to another: a token labelled `label`
    /// leaves `from` and lands on `to` (an unloaded bundle, a moved task).
    Travel {
        /// What travels (a bundle range, a task id).
        label: String,
        /// Where it was.
        from: Anchor,
        /// Where it is now.
        to: Anchor,
    },
    /// Something new takes its place (a split's new boundary, a new topic, a slot
    /// landing on a TaskManager, a task given to an instance).
    Arrive {
        /// The element(s).
        at: Anchor,
    },
    /// Something changes in place (a broker publishes a report, a standby is
    /// promoted to active, a warm-up caught up).
    Pulse {
        /// The element(s).
        at: Anchor,
    },
}

/// One motion and its beat: motions of one beat play together, beats one after
/// another (a round's phases; Flink's slot requests in request order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    /// 0-based.
    pub beat: u32,
    /// The motion.
    pub motion: Motion,
}

fn cap(mut v: Vec<Beat>) -> Vec<Beat> {
    v.truncate(MAX_MOTIONS);
    v
}

/// The bundles an action moved: `(bundle, old owner, new owner)`, from the
/// unloads and the placements (or the destination a shedder planned).
pub fn pulsar_moves(events: &[PulsarEvent]) -> Vec<(String, String, String)> {
    // Unloaded bundle → its old owner, until a placement names the new one.
    let mut unloaded: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
    let mut arrived: Vec<(String, String)> = Vec::new();
    for e in events {
        match e {
            PulsarEvent::Unloaded { bundle, from, to, .. } => {
                unloaded.insert(
                    bundle.to_string(),
                    (from.to_string(), to.as_ref().map(|t| t.to_string())),
                );
            }
            PulsarEvent::Place(PlaceEvent::Chosen { bundle, broker, .. })
            | PulsarEvent::BundleAssigned { bundle, broker } => {
                arrived.push((bundle.to_string(), broker.to_string()));
            }
            _ => {}
        }
    }
    let mut travelled = Vec::new();
    for (bundle, to) in arrived {
        if let Some((from, _)) = unloaded.remove(&bundle) {
            if from != to {
                travelled.push((bundle, from, to));
            }
        }
    }
    // Unloads with a planned destination and no placement event (TransferShedder).
    for (bundle, (from, to)) in unloaded {
        if let Some(to) = to.filter(|t| *t != from) {
            travelled.push((bundle, from, to));
        }
    }
    travelled
}

/// Pulsar: reports pulse (beat 0), splits draw their new boundaries (beat 1),
/// unloaded bundles travel from the old owner to the new one (beat 2), new
/// topics appear at their hash (beat 0).
pub fn pulsar(events: &[PulsarEvent]) -> Vec<Beat> {
    let mut out = Vec::new();
    for e in events {
        match e {
            PulsarEvent::Reported { published, .. } => {
                for (b, _, _) in published {
                    out.push(Beat {
                        beat: 0,
                        motion: Motion::Pulse {
                            at: Anchor::mark("broker", b.as_str()),
                        },
                    });
                }
            }
            PulsarEvent::TopicCreated { topic, .. } => out.push(Beat {
                beat: 0,
                motion: Motion::Arrive {
                    at: Anchor::mark("topic", &topic.to_string()),
                },
            }),
            // A scalable topic's new segments (split children, a merged one)
            // grow into the segment bar with the split phase.
            PulsarEvent::Scalable(ScalableEvent::Split { children, .. }) => {
                for c in children {
                    out.push(Beat {
                        beat: 1,
                        motion: Motion::Arrive {
                            at: Anchor::mark("segment", &c.id.to_string()),
                        },
                    });
                }
            }
            PulsarEvent::Scalable(ScalableEvent::Merged { merged, .. }) => out.push(Beat {
                beat: 1,
                motion: Motion::Arrive {
                    at: Anchor::mark("segment", &merged.id.to_string()),
                },
            }),
            PulsarEvent::BundleSplit { children, .. } => {
                // Every child but the first starts at a new boundary.
                for c in children.iter().skip(1) {
                    out.push(Beat {
                        beat: 1,
                        motion: Motion::Arrive {
                            at: Anchor::mark("boundary", &format!("0x{:08x}", c.lower)),
                        },
                    });
                }
            }
            _ => {}
        }
    }
    let travelled = pulsar_moves(events);
    for (bundle, from, to) in travelled {
        let range = bundle.rsplit('/').next().unwrap_or(&bundle).to_string();
        out.push(Beat {
            beat: 2,
            motion: Motion::Travel {
                label: range,
                from: Anchor::mark("broker", &from),
                to: Anchor::mark("broker", &to),
            },
        });
        out.push(Beat {
            beat: 2,
            motion: Motion::Pulse {
                at: Anchor(format!(".arc{}", Anchor::mark("bundle", &bundle).0)),
            },
        });
    }
    out.sort_by_key(|b| b.beat);
    cap(out)
}

/// Flink: each matched slot request lands on its TaskManager, one beat per
/// request in the order the slot pool matched them.
pub fn flink(events: &[FlinkEvent]) -> Vec<Beat> {
    let mut out = Vec::new();
    let mut order = 0;
    for e in events {
        if let FlinkEvent::SlotRequestMatched { tm, slot, .. } = e {
            out.push(Beat {
                beat: order,
                motion: Motion::Arrive {
                    at: Anchor::mark("slot", &format!("{tm}/{slot}")),
                },
            });
            order += 1;
        }
    }
    cap(out)
}

/// Kafka Streams: an active task that changed owner travels from its previous
/// instance (or the instance that just crashed under it) to its new one; a
/// standby promoted in place pulses; other new replicas arrive; warm-ups that
/// caught up pulse.
pub fn kstreams(events: &[KsEvent]) -> Vec<Beat> {
    let mut out = Vec::new();
    // Actives whose owner crashed in this action: they leave the crashed instance.
    let mut orphaned: BTreeMap<String, String> = BTreeMap::new();
    for e in events {
        match e {
            KsEvent::InstanceCrashed {
                instance,
                active_lost,
                ..
            } => {
                for t in active_lost {
                    orphaned.insert(t.to_string(), instance.clone());
                }
            }
            KsEvent::TaskAssigned {
                task,
                instance,
                role,
                reason,
                previous,
                ..
            } => {
                let chip = Anchor::mark("instance", instance).within(&Anchor(format!(
                    "[data-task=\"{}\"][data-role=\"{}\"]",
                    escape(&task.to_string()),
                    role_mark(*role)
                )));
                let crashed = (*role == Role::Active)
                    .then(|| orphaned.get(&task.to_string()))
                    .flatten();
                let previous = previous.as_ref().or(crashed);
                let motion = match previous {
                    _ if *reason == Reason::StandbyPromoted => Motion::Pulse { at: chip },
                    Some(p) if p != instance => Motion::Travel {
                        label: task.to_string(),
                        from: Anchor::mark("instance", p),
                        to: chip,
                    },
                    Some(_) => continue,
                    None => Motion::Arrive { at: chip },
                };
                out.push(Beat { beat: 0, motion });
            }
            KsEvent::WarmupCaughtUp { task, instance, .. } => out.push(Beat {
                beat: 0,
                motion: Motion::Pulse {
                    at: Anchor::mark("instance", instance).within(&Anchor::mark("task", &task.to_string())),
                },
            }),
            _ => {}
        }
    }
    // Travels first: they are the story of a rebalance.
    out.sort_by_key(|b| !matches!(b.motion, Motion::Travel { .. }));
    cap(out)
}

/// The `data-role` value the instance grid gives a replica.
fn role_mark(r: Role) -> &'static str {
    match r {
        Role::Active => "active",
        Role::Standby => "standby",
        Role::WarmUp => "warm_up",
    }
}

/// One sentence for one beat: the phase the beat shows, said while it plays
/// (a round's report, split and unload phases; each Flink slot request; a
/// rebalance's moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// The beat it belongs to.
    pub beat: u32,
    /// The sentence.
    pub text: String,
}

/// "a, b and 3 more" of the first two names.
fn few(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    }
}

/// Pulsar: a round's phases, one sentence each, for the beats [`pulsar`]
/// plays (report 0, split 1, unload and assign 2). Actions that are not a
/// round (no report phase ran) get none.
pub fn pulsar_captions(events: &[PulsarEvent]) -> Vec<Caption> {
    let Some(published) = events.iter().find_map(|e| match e {
        PulsarEvent::Reported { published, .. } => Some(published),
        _ => None,
    }) else {
        return Vec::new();
    };
    let names: Vec<String> = published.iter().map(|(b, _, _)| b.to_string()).collect();
    let report = if names.is_empty() {
        "Report: no broker publishes (no change above the report threshold).".to_string()
    } else {
        format!(
            "Report: {} publish{} a load report.",
            few(&names),
            if names.len() == 1 { "es" } else { "" }
        )
    };
    let splits: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            PulsarEvent::BundleSplit { bundle, children, .. } => Some(format!(
                "{} at {}",
                bundle.to_string().rsplit('/').next().unwrap_or_default(),
                children
                    .iter()
                    .skip(1)
                    .map(|c| format!("0x{:08x}", c.lower))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => None,
        })
        .collect();
    let segments: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            PulsarEvent::Scalable(ScalableEvent::Split {
                topic,
                parent,
                children,
                ..
            }) => Some(format!(
                "{topic} segment {parent} into {}",
                children
                    .iter()
                    .map(|c| c.id.to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            )),
            PulsarEvent::Scalable(ScalableEvent::Merged {
                topic,
                parents,
                merged,
                ..
            }) => Some(format!(
                "{topic} segments {} and {} merge into {}",
                parents.0, parents.1, merged.id
            )),
            _ => None,
        })
        .collect();
    let splits: Vec<String> = splits.into_iter().chain(segments).collect();
    let split = if splits.is_empty() {
        "Split: no bundle passes a split threshold.".to_string()
    } else {
        format!("Split: {}.", few(&splits))
    };
    let moves: Vec<String> = pulsar_moves(events)
        .into_iter()
        .map(|(bundle, from, to)| format!("{} {from} → {to}", bundle.rsplit('/').next().unwrap_or(&bundle)))
        .collect();
    let unload = if moves.is_empty() {
        "Unload: nothing moves.".to_string()
    } else {
        format!("Unload: {}.", few(&moves))
    };
    [report, split, unload]
        .into_iter()
        .enumerate()
        .map(|(i, text)| Caption { beat: i as u32, text })
        .collect()
}

/// Flink: each matched slot request, in the order the slot pool matched them
/// (the beats [`flink`] plays), at most [`MAX_MOTIONS`].
pub fn flink_captions(events: &[FlinkEvent]) -> Vec<Caption> {
    events
        .iter()
        .filter_map(|e| match e {
            FlinkEvent::SlotRequestMatched {
                request,
                tasks,
                tm,
                slot,
                ..
            } => Some((*request, *tasks, tm, *slot)),
            _ => None,
        })
        .take(MAX_MOTIONS)
        .enumerate()
        .map(|(i, (request, tasks, tm, slot))| Caption {
            beat: i as u32,
            text: format!(
                "Phase 2: slot request {request} ({tasks} task{}) lands on {tm} slot {slot}.",
                if tasks == 1 { "" } else { "s" }
            ),
        })
        .collect()
}

/// Kafka Streams: what a rebalance moved, in one sentence (beat 0).
pub fn kstreams_captions(events: &[KsEvent]) -> Vec<Caption> {
    let beats = kstreams(events);
    if beats.is_empty() {
        return Vec::new();
    }
    let moved: Vec<String> = beats
        .iter()
        .filter_map(|b| match &b.motion {
            Motion::Travel { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect();
    let promoted = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                KsEvent::TaskAssigned {
                    reason: Reason::StandbyPromoted,
                    ..
                }
            )
        })
        .count();
    let mut text = if moved.is_empty() {
        "Assign: no active task changes instance".to_string()
    } else {
        format!(
            "Assign: {} move{} to a new instance",
            few(&moved),
            if moved.len() == 1 { "s" } else { "" }
        )
    };
    if promoted > 0 {
        text.push_str(&format!("; {promoted} standby promoted in place"));
    }
    text.push('.');
    vec![Caption { beat: 0, text }]
}

/// The captions of the last action of the session shown for `live`'s system.
pub fn captions_of_last_action(live: &super::Live) -> Vec<Caption> {
    if let Some(s) = live.session::<pulsar::Sim>() {
        return s.steps().last().map(|e| pulsar_captions(e)).unwrap_or_default();
    }
    if let Some(s) = live.session::<flink::Sim>() {
        return s.steps().last().map(|e| flink_captions(e)).unwrap_or_default();
    }
    if let Some(s) = live.session::<kstreams::Sim>() {
        return s.steps().last().map(|e| kstreams_captions(e)).unwrap_or_default();
    }
    Vec::new()
}

/// The motions of the last action of the session shown for `live`'s system.
pub fn of_last_action(live: &super::Live) -> Vec<Beat> {
    if let Some(s) = live.session::<pulsar::Sim>() {
        return s.steps().last().map(|e| pulsar(e)).unwrap_or_default();
    }
    if let Some(s) = live.session::<flink::Sim>() {
        return s.steps().last().map(|e| flink(e)).unwrap_or_default();
    }
    if let Some(s) = live.session::<kstreams::Sim>() {
        return s.steps().last().map(|e| kstreams(e)).unwrap_or_default();
    }
    Vec::new()
}

/// Where to start a band of height `room` (page coordinates) so that it shows
/// the most of a lesson step's marks, given each mark's `(top, bottom)`: a
/// mark counts as shown when its middle is in the band (a mark taller than the
/// band, when its first `room` of height is). The band starts at a mark's top;
/// among equally good starts the one nearest `now` wins, so the page moves
/// least, and the asked control, `ask` (an index into `spans`), counts double:
/// it is what the learner must press.
pub fn best_band(spans: &[(f64, f64)], ask: Option<usize>, room: f64, now: f64) -> Option<f64> {
    let middle = |(top, bottom): (f64, f64)| top + (bottom - top).min(room) / 2.0;
    let score = |start: f64| -> usize {
        spans
            .iter()
            .enumerate()
            .filter(|(_, s)| (start..=start + room).contains(&middle(**s)))
            .map(|(i, _)| if Some(i) == ask { 2 } else { 1 })
            .sum()
    };
    let mut best: Option<(usize, f64)> = None;
    for &(top, _) in spans {
        let start = top - 8.0;
        let s = score(start);
        let better = match best {
            None => true,
            Some((b, at)) => s > b || (s == b && (start - now).abs() < (at - now).abs()),
        };
        if better {
            best = Some((s, start));
        }
    }
    best.map(|(_, start)| start)
}

#[cfg(test)]
mod band_tests {
    use super::best_band;

    #[test]
    fn the_band_covers_the_most_marks_and_the_ask_counts_double() {
        // Three marks near the top, two far below: the top group wins.
        let spans = [
            (0.0, 40.0),
            (100.0, 140.0),
            (200.0, 240.0),
            (900.0, 940.0),
            (1000.0, 1040.0),
        ];
        assert_eq!(best_band(&spans, None, 400.0, 0.0), Some(-8.0));
        // With the asked control far below, the lower group (1 + 2) ties the upper
        // (3); the start nearer where the page is wins.
        assert_eq!(best_band(&spans, Some(4), 400.0, 950.0), Some(892.0));
        assert_eq!(best_band(&spans, Some(4), 400.0, 0.0), Some(-8.0));
        assert_eq!(best_band(&[], None, 400.0, 0.0), None);
    }

    #[test]
    fn a_mark_taller_than_the_band_counts_by_its_first_screenful() {
        // A 2,000-px card from 100: its first 300 px have their middle at 250.
        let spans = [(100.0, 2100.0), (380.0, 400.0)];
        assert_eq!(best_band(&spans, None, 300.0, 0.0), Some(92.0));
    }
}
