//! What moves on the page after an action (`playground::motion`), checked
//! against the engine's own events of that action: every travelling bundle was
//! unloaded from where it starts and placed where it lands, every new boundary
//! is a split child's lower bound, Flink's slots land in the order the slot pool
//! matched them, and a Kafka Streams task travels from its previous owner.

use lbscope::engine::{flink, kstreams, pulsar, System};
use lbscope::playground::motion::{self, Anchor, Beat, Motion, MAX_MOTIONS};
use lbscope::playground::{Msg, Store};

fn run(mut s: Store, msgs: impl IntoIterator<Item = Msg>) -> Store {
    for m in msgs {
        s = s.reduce(m);
    }
    s
}

fn last_pulsar_events(s: &Store) -> Vec<pulsar::Event> {
    let live = s.active();
    let session = live.session::<pulsar::Sim>().expect("the Pulsar tab");
    session.steps().last().cloned().unwrap_or_default()
}

#[test]
fn an_unloaded_bundle_travels_from_its_old_owner_to_its_new_one() {
    // The default Pulsar scenario: broker-1 owns every bundle; one Step sheds.
    let s = run(Store::fresh(), [Msg::StepActive]);
    let events = last_pulsar_events(&s);
    let beats = motion::of_last_action(s.active());
    let travels: Vec<_> = beats
        .iter()
        .filter_map(|b| match &b.motion {
            Motion::Travel { label, from, to } => Some((b.beat, label, from, to)),
            _ => None,
        })
        .collect();
    assert!(
        !travels.is_empty(),
        "one Step of the default scenario moves a bundle: {beats:?}"
    );
    for (beat, label, from, to) in travels {
        // Shedding comes after the reports and the splits of the round.
        assert_eq!(beat, 2);
        let unloaded = events.iter().find_map(|e| match e {
            pulsar::Event::Unloaded { bundle, from, to, .. }
                if bundle.to_string().ends_with(label.as_str()) =>
            {
                Some((bundle.clone(), from.to_string(), to.clone()))
            }
            _ => None,
        });
        let (bundle, old, planned) = unloaded.expect("a travelling bundle was unloaded");
        assert_eq!(*from, Anchor::mark("broker", &old));
        let placed = events.iter().rev().find_map(|e| match e {
            pulsar::Event::Place(pulsar::place::PlaceEvent::Chosen {
                bundle: b, broker, ..
            }) if *b == bundle => Some(broker.to_string()),
            _ => None,
        });
        // A placement names the new owner; a shedder that plans the destination
        // (AvgShedder, TransferShedder) names it in the unload itself.
        let new = placed
            .or(planned.map(|b| b.to_string()))
            .expect("placed or planned");
        assert_eq!(*to, Anchor::mark("broker", &new));
        assert_ne!(from, to);
    }
}

/// pulsar-admin's split of the largest bundle of the default namespace.
fn admin_split() -> pulsar::Action {
    pulsar::Action::SplitBundle {
        namespace: "public/default".into(),
        bundle: "LARGEST".into(),
        algorithm: None,
        boundaries: Vec::new(),
        unload: false,
    }
}

#[test]
fn a_split_draws_each_new_boundary_at_the_childs_lower_bound() {
    let s = run(Store::fresh(), [Msg::act(admin_split())]);
    let events = last_pulsar_events(&s);
    let children = events
        .iter()
        .find_map(|e| match e {
            pulsar::Event::BundleSplit { children, .. } => Some(children.clone()),
            _ => None,
        })
        .expect("the split happened");
    let boundaries: Vec<Anchor> = motion::of_last_action(s.active())
        .into_iter()
        .filter_map(|b| match b.motion {
            Motion::Arrive { at } if at.0.starts_with("[data-boundary") => Some(at),
            _ => None,
        })
        .collect();
    let expected: Vec<Anchor> = children[1..]
        .iter()
        .map(|c| Anchor::mark("boundary", &format!("0x{:08x}", c.lower)))
        .collect();
    assert_eq!(boundaries, expected);
}

#[test]
fn flink_slots_land_one_beat_each_in_the_order_they_were_matched() {
    let s = run(
        Store::fresh(),
        [Msg::Tab(System::Flink), Msg::act(flink::Action::Schedule)],
    );
    let live = s.active();
    let events = live
        .session::<flink::Sim>()
        .unwrap()
        .steps()
        .last()
        .cloned()
        .unwrap();
    let matched: Vec<Anchor> = events
        .iter()
        .filter_map(|e| match e {
            flink::Event::SlotRequestMatched { tm, slot, .. } => {
                Some(Anchor::mark("slot", &format!("{tm}/{slot}")))
            }
            _ => None,
        })
        .collect();
    assert!(!matched.is_empty());
    let beats = motion::of_last_action(live);
    let expected: Vec<Beat> = matched
        .into_iter()
        .take(MAX_MOTIONS)
        .enumerate()
        .map(|(i, at)| Beat {
            beat: i as u32,
            motion: Motion::Arrive { at },
        })
        .collect();
    assert_eq!(beats, expected);
}

#[test]
fn a_kafka_streams_task_travels_from_its_previous_instance() {
    let s = run(
        Store::fresh(),
        [
            Msg::Tab(System::Kstreams),
            Msg::act(kstreams::Action::Rebalance),
            // A crash is noticed at once: the group rebalances in the same action.
            Msg::act(kstreams::Action::CrashInstance { name: "app-1".into() }),
        ],
    );
    let live = s.active();
    let events = live
        .session::<kstreams::Sim>()
        .unwrap()
        .steps()
        .last()
        .cloned()
        .unwrap();
    let moved: Vec<(String, String, String)> = events
        .iter()
        .filter_map(|e| match e {
            kstreams::Event::TaskAssigned {
                task,
                instance,
                role: kstreams::Role::Active,
                previous: Some(p),
                ..
            } if p != instance => Some((task.to_string(), p.clone(), instance.clone())),
            // An active whose owner crashed has no previous owner in the
            // assignor's eyes; on the page it leaves the crashed instance.
            kstreams::Event::TaskAssigned {
                task,
                instance,
                role: kstreams::Role::Active,
                previous: None,
                reason,
                ..
            } if *reason != kstreams::Reason::StandbyPromoted => {
                Some((task.to_string(), "app-1".to_string(), instance.clone()))
            }
            _ => None,
        })
        .collect();
    let travels: Vec<(String, Anchor, Anchor)> = motion::of_last_action(live)
        .into_iter()
        .filter_map(|b| match b.motion {
            Motion::Travel { label, from, to } => Some((label, from, to)),
            _ => None,
        })
        .collect();
    assert!(!moved.is_empty(), "the crashed instance's actives move");
    assert_eq!(
        travels.len(),
        moved.len().min(MAX_MOTIONS),
        "{travels:?} vs {moved:?}"
    );
    for ((task, prev, now), (label, from, to)) in moved.iter().zip(&travels) {
        assert_eq!(label, task);
        assert_eq!(*from, Anchor::mark("instance", prev));
        assert!(to.0.starts_with(&Anchor::mark("instance", now).0), "{to:?}");
        assert!(to
            .0
            .contains(&format!("[data-task=\"{task}\"][data-role=\"active\"]")));
    }
}

#[test]
fn a_seek_or_an_empty_log_moves_nothing() {
    assert!(motion::of_last_action(Store::fresh().active()).is_empty());
    // Anchors escape what would end the attribute value.
    assert_eq!(
        Anchor::mark("broker", "a\"b\\c").0,
        "[data-broker=\"a\\\"b\\\\c\"]"
    );
}

/// A Pulsar round is said phase by phase: report, split, unload, one caption
/// per beat the motions play on, each naming what the events did (the brokers
/// that published, the bundles that moved from and to whom).
#[test]
fn a_pulsar_round_is_captioned_phase_by_phase() {
    let s = run(Store::fresh(), [Msg::StepActive]);
    let events = last_pulsar_events(&s);
    let caps = motion::captions_of_last_action(s.active());
    assert_eq!(caps.iter().map(|c| c.beat).collect::<Vec<_>>(), [0, 1, 2]);
    assert!(caps[0].text.starts_with("Report: "), "{caps:?}");
    assert!(caps[1].text.starts_with("Split: "), "{caps:?}");
    assert!(caps[2].text.starts_with("Unload: "), "{caps:?}");
    let published: Vec<String> = events
        .iter()
        .flat_map(|e| match e {
            pulsar::Event::Reported { published, .. } => {
                published.iter().map(|(b, _, _)| b.to_string()).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    for b in published.iter().take(2) {
        assert!(caps[0].text.contains(b.as_str()), "{} in {}", b, caps[0].text);
    }
    // Every travel the motions play is named in the unload caption.
    for (bundle, from, to) in motion::pulsar_moves(&events).into_iter().take(2) {
        let range = bundle.rsplit('/').next().unwrap().to_string();
        assert!(
            caps[2].text.contains(&format!("{range} {from} → {to}")),
            "{}",
            caps[2].text
        );
    }
    // The beats the captions name are the beats the motions play.
    let beats: std::collections::BTreeSet<u32> = motion::of_last_action(s.active())
        .iter()
        .map(|b| b.beat)
        .collect();
    assert!(
        beats.iter().all(|b| caps.iter().any(|c| c.beat == *b)),
        "{beats:?}"
    );
    // An action that is not a round (an admin split) gets no round captions.
    let s = run(Store::fresh(), [Msg::act(admin_split())]);
    assert!(motion::captions_of_last_action(s.active()).is_empty());
}

/// Flink: one caption per matched slot request, in match order, on the same
/// beats as the slots landing; Kafka Streams: one sentence naming the moves.
#[test]
fn flink_and_kafka_streams_rounds_are_captioned() {
    let s = run(
        Store::fresh(),
        [Msg::Tab(System::Flink), Msg::act(flink::Action::Schedule)],
    );
    let caps = motion::captions_of_last_action(s.active());
    let beats = motion::of_last_action(s.active());
    assert_eq!(caps.len(), beats.len());
    for (c, b) in caps.iter().zip(&beats) {
        assert_eq!(c.beat, b.beat);
        let Motion::Arrive { at } = &b.motion else {
            panic!("{b:?}")
        };
        // `[data-slot="tm-0/1"]` ↔ "tm-0 slot 1".
        let mark = at.0.trim_start_matches("[data-slot=\"").trim_end_matches("\"]");
        let (tm, slot) = mark.split_once('/').unwrap();
        assert!(
            c.text.contains(&format!("lands on {tm} slot {slot}")),
            "{} vs {mark}",
            c.text
        );
    }
    let s = run(
        Store::fresh(),
        [
            Msg::Tab(System::Kstreams),
            Msg::act(kstreams::Action::CrashInstance { name: "app-1".into() }),
        ],
    );
    let caps = motion::captions_of_last_action(s.active());
    assert_eq!(caps.len(), 1, "{caps:?}");
    assert!(caps[0].text.starts_with("Assign: "), "{caps:?}");
}

/// In a lesson, the learner's own Step moves the lesson on while keeping their
/// session (the same state as the next step's replay), so the page sees one
/// action forward and plays its motions and captions.
#[test]
fn a_lessons_own_step_plays_its_round() {
    use lbscope::playground::LessonMsg;
    let s = Store::fresh().reduce(Msg::Lesson(LessonMsg::Open("pulsar-avg-shedder".into(), 1)));
    let at = s.lesson.as_ref().map(|r| r.step).expect("the lesson opened");
    let before = s.active().clone();
    let cursor = before.get().history().cursor;
    let s = s.reduce(Msg::StepActive);
    assert!(
        !s.lesson.as_ref().unwrap().off_track,
        "the Step was the one asked for"
    );
    assert_eq!(
        s.lesson.as_ref().map(|r| r.step),
        Some(at + 1),
        "the lesson moved to its next step"
    );
    assert!(s.active().same(&before), "the learner's session is kept");
    assert_eq!(s.active().get().history().cursor, cursor + 1);
    assert!(!motion::of_last_action(s.active()).is_empty());
    assert_eq!(motion::captions_of_last_action(s.active()).len(), 3);
}

/// A step that starts several actions after the learner's (a workload lesson's
/// next step a few rounds on) still opens at its own state.
#[test]
fn a_lesson_step_further_on_replays_to_its_own_state() {
    use lbscope::playground::LessonMsg;
    let l = lbscope::lessons::lesson("pulsar-threshold-shedder-burst").unwrap();
    // Step 0 asks for a Step; step 1 starts two actions on.
    assert_eq!((l.steps[0].cursor, l.steps[1].cursor), (0, 2));
    let s = Store::fresh().reduce(Msg::Lesson(LessonMsg::Open(l.id.into(), 0)));
    let s = s.reduce(Msg::StepActive);
    let run = s.lesson.as_ref().unwrap();
    assert_eq!(run.step, 1);
    assert_eq!(s.active().get().history().cursor, 2);
}
