//! Predict, then reveal: before a lesson step's round runs, the learner is asked
//! what it will do (which broker receives a bundle, which TaskManager gets the
//! first slot, which instance takes a task over). The answer is not written by
//! hand: the step's own action is applied to a copy of the lesson's state and
//! the engine's events say what happened and which rule decided.

use super::motion;
use super::Live;
use crate::engine::{flink, kstreams, pulsar, AnyAction, Engine, Narrate};

/// At most this many of the deciding events are quoted in the explanation.
const WHY_LINES: usize = 3;

/// A question about the next round, and its answer from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// What to predict.
    pub question: String,
    /// The picture's elements one can pick: their `data-<mark>` kind …
    pub mark: &'static str,
    /// … and ids (brokers, TaskManagers, instances), in display order.
    pub options: Vec<String>,
    /// The options that are right.
    pub answer: Vec<String>,
    /// The engine's lines that decided it (narrated events).
    pub why: Vec<String>,
}

impl Prediction {
    /// Whether `guess` is right, and the explanation shown after the guess.
    pub fn feedback(&self, guess: &str) -> (bool, String) {
        let right = self.answer.iter().any(|a| a == guess);
        let answer = and_list(&self.answer);
        let why = self.why.join(" ");
        let text = if right {
            format!("Right: {answer}. {why}")
        } else {
            format!("Not {guess}: this round it is {answer}. The rule that decided, with its numbers: {why}")
        };
        (right, text)
    }
}

fn and_list(v: &[String]) -> String {
    match v {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The prediction for applying `action` to the shown lesson session `live`
/// (`None` when the action moves nothing worth predicting).
pub fn for_action(live: &Live, action: &AnyAction) -> Option<Prediction> {
    match action {
        AnyAction::Pulsar(a) => {
            let s = live.session::<pulsar::Sim>()?;
            let mut next = s.state().clone();
            let events = next.apply(a).ok()?;
            match a {
                pulsar::Action::SplitBundle { .. } => split_prediction(s.state(), a, &events),
                pulsar::Action::CreateTopic { .. } | pulsar::Action::CreatePartitionedTopic { .. } => {
                    topic_prediction(s.state(), &events)
                }
                _ if events.iter().any(|e| {
                    matches!(
                        e,
                        pulsar::Event::Scalable(
                            pulsar::scalable_topic::ScalableEvent::Split { .. }
                                | pulsar::scalable_topic::ScalableEvent::Merged { .. }
                        )
                    )
                }) =>
                {
                    segment_prediction(s.state(), &events)
                }
                _ => pulsar_prediction(s.state(), &events),
            }
        }
        AnyAction::Flink(a) => {
            let s = live.session::<flink::Sim>()?;
            let mut next = s.state().clone();
            let events = next.apply(a).ok()?;
            flink_prediction(s.state(), &events)
        }
        AnyAction::Kstreams(a) => {
            let s = live.session::<kstreams::Sim>()?;
            let mut next = s.state().clone();
            let events = next.apply(a).ok()?;
            kstreams_prediction(s.state(), &events)
        }
    }
}

/// Whether anything moves: the question for a round that may do nothing.
pub const MOVES: &str = "a bundle moves";
/// The other answer.
pub const STAYS: &str = "nothing moves";

/// Pulsar: which broker receives a bundle (or takes over a bundle that lost
/// its owner)? When nothing moves: does anything move at all?
pub fn pulsar_prediction(before: &pulsar::Sim, events: &[pulsar::Event]) -> Option<Prediction> {
    let moves = motion::pulsar_moves(events);
    // Bundles that had no owner (a crash, a first lookup) and got one.
    let owned: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            pulsar::Event::Lookup { broker, .. }
            | pulsar::Event::Place(pulsar::place::PlaceEvent::Chosen { broker, .. }) => {
                Some(broker.to_string())
            }
            _ => None,
        })
        .collect();
    let decided = |e: &&pulsar::Event| {
        matches!(
            e,
            pulsar::Event::Shed(_)
                | pulsar::Event::SheddingSkipped { .. }
                | pulsar::Event::Unloaded { .. }
                | pulsar::Event::Lookup { .. }
                | pulsar::Event::Place(pulsar::place::PlaceEvent::Chosen { .. })
        )
    };
    if moves.is_empty() && owned.is_empty() {
        let why: Vec<String> = events
            .iter()
            .filter(decided)
            .take(WHY_LINES)
            .map(|e| sentence(&e.narrate()))
            .collect();
        if why.is_empty() {
            return None;
        }
        return Some(Prediction {
            question: "Before you press: will a bundle move this round?".into(),
            mark: "",
            options: vec![MOVES.into(), STAYS.into()],
            answer: vec![STAYS.into()],
            why,
        });
    }
    let mut answer: Vec<String> = if moves.is_empty() {
        owned
    } else {
        moves.iter().map(|m| m.2.clone()).collect()
    };
    crate::sort::sort_natural_by(&mut answer, String::as_str);
    answer.dedup();
    let options: Vec<String> = before
        .brokers()
        .values()
        .filter(|b| b.alive)
        .map(|b| b.id.to_string())
        .collect();
    if options.len() < 2 {
        return None;
    }
    let why = events
        .iter()
        .filter(decided)
        .take(WHY_LINES)
        .map(|e| sentence(&e.narrate()))
        .collect();
    Some(Prediction {
        question: "Before you press: which broker will own the bundle that moves?".into(),
        mark: "broker",
        options,
        answer,
        why,
    })
}

/// Pulsar 5.0: which segment of a scalable topic will split (or which will
/// merge)? The options are the topic's active segments, by id (the segment
/// view marks them `data-segment`).
pub fn segment_prediction(before: &pulsar::Sim, events: &[pulsar::Event]) -> Option<Prediction> {
    use pulsar::scalable_topic::ScalableEvent as S;
    let (topic, answer, verb) = events.iter().find_map(|e| match e {
        pulsar::Event::Scalable(S::Split { topic, parent, .. }) => {
            Some((topic.clone(), vec![parent.to_string()], "split"))
        }
        pulsar::Event::Scalable(S::Merged { topic, parents, .. }) => Some((
            topic.clone(),
            vec![parents.0.to_string(), parents.1.to_string()],
            "merge",
        )),
        _ => None,
    })?;
    let options: Vec<String> = before
        .segment_views(&topic)
        .iter()
        .map(|s| s.id.to_string())
        .collect();
    if options.len() < 2 || !answer.iter().all(|a| options.contains(a)) {
        return None;
    }
    let why = events
        .iter()
        .filter(|e| matches!(e, pulsar::Event::Scalable(S::Evaluated { decision, .. }) if *decision != pulsar::auto_scale::Decision::None))
        .take(WHY_LINES)
        .map(|e| sentence(&e.narrate()))
        .collect();
    Some(Prediction {
        question: format!("Before you press: which segment of {topic} will {verb}?"),
        mark: "segment",
        options,
        answer,
        why,
    })
}

/// Pulsar: which bundle will a new topic land in? (Its name's hash decides.)
pub fn topic_prediction(before: &pulsar::Sim, events: &[pulsar::Event]) -> Option<Prediction> {
    let (topic, hash, bundle) = events.iter().find_map(|e| match e {
        pulsar::Event::TopicCreated { topic, hash, bundle } => Some((topic.to_string(), *hash, *bundle)),
        _ => None,
    })?;
    let ns = topic
        .split("://")
        .nth(1)
        .map_or(topic.as_str(), |t| t)
        .rsplit_once('/')
        .map(|(ns, _)| ns.to_string())?;
    let options: Vec<String> = before
        .bundles()
        .keys()
        .filter(|b| b.namespace == ns.as_str())
        .map(|b| b.to_string())
        .collect();
    if options.len() < 2 {
        return None;
    }
    let answer = format!("{ns}/{bundle}");
    options.contains(&answer).then(|| Prediction {
        question: format!("Before you press: which bundle will {topic} land in?"),
        mark: "bundle",
        options,
        answer: vec![answer.clone()],
        why: vec![format!(
            "The topic's name hashes to 0x{hash:08x}, inside {answer}'s range: a topic always lands where its hash falls."
        )],
    })
}

/// Pulsar: where will a split put its new boundary? The options are the
/// boundaries each split algorithm would choose for this bundle.
pub fn split_prediction(
    before: &pulsar::Sim,
    action: &pulsar::Action,
    events: &[pulsar::Event],
) -> Option<Prediction> {
    use pulsar::config::SplitAlgorithm as Alg;
    let first_boundary = |events: &[pulsar::Event]| {
        events.iter().find_map(|e| match e {
            pulsar::Event::BundleSplit { children, .. } => {
                children.get(1).map(|c| format!("0x{:08x}", c.lower))
            }
            _ => None,
        })
    };
    let answer = first_boundary(events)?;
    let pulsar::Action::SplitBundle { algorithm, .. } = action else {
        return None;
    };
    let mut options = vec![answer.clone()];
    let mut others = Vec::new();
    for alg in [
        Alg::RangeEquallyDivide,
        Alg::TopicCountEquallyDivide,
        Alg::FlowOrQpsEquallyDivide,
    ] {
        if Some(alg) == *algorithm {
            continue;
        }
        let mut other = action.clone();
        if let pulsar::Action::SplitBundle {
            algorithm,
            boundaries,
            ..
        } = &mut other
        {
            *algorithm = Some(alg);
            boundaries.clear();
        }
        let mut next = before.clone();
        if let Some(b) = next.apply(&other).ok().and_then(|ev| first_boundary(&ev)) {
            others.push(format!("{alg:?} would cut at {b}"));
            if !options.contains(&b) {
                options.push(b);
            }
        }
    }
    // Where every algorithm agrees, a quarter and three quarters of the range
    // are the other choices (the algorithms differ in how they weigh, not where
    // they may cut).
    if options.len() < 3 {
        let parent = events.iter().find_map(|e| match e {
            pulsar::Event::BundleSplit { bundle, .. } => Some(bundle.range),
            _ => None,
        });
        if let Some(r) = parent {
            let (lo, hi) = (u64::from(r.lower), u64::from(r.upper));
            for q in [1, 3] {
                let b = format!("0x{:08x}", lo + (hi - lo) * q / 4);
                if !options.contains(&b) {
                    options.push(b);
                }
            }
        }
    }
    options.sort();
    if options.len() < 2 {
        return None;
    }
    let mut why: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, pulsar::Event::BundleSplit { .. }))
        .take(1)
        .map(|e| sentence(&e.narrate()))
        .collect();
    if !others.is_empty() {
        why.push(sentence(&format!("For this bundle, {}", others.join("; "))));
    }
    Some(Prediction {
        question: "Before you press: where will the new boundary be? (Each option is what one split algorithm would choose here.)".into(),
        mark: "boundary",
        options,
        answer: vec![answer],
        why,
    })
}

/// Flink: which TaskManager gets the first slot?
pub fn flink_prediction(before: &flink::Sim, events: &[flink::Event]) -> Option<Prediction> {
    let first = events.iter().find_map(|e| match e {
        flink::Event::SlotRequestMatched { tm, .. } => Some(tm.clone()),
        _ => None,
    })?;
    let options: Vec<String> = before.task_managers().iter().map(|t| t.name.clone()).collect();
    if options.len() < 2 {
        return None;
    }
    let why = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                flink::Event::SlotSharingDone { .. } | flink::Event::SlotRequestMatched { .. }
            )
        })
        .take(2)
        .map(|e| sentence(&e.narrate()))
        .collect();
    Some(Prediction {
        question: "Before you press: which TaskManager gets the first slot request?".into(),
        mark: "tm",
        options,
        answer: vec![first],
        why,
    })
}

/// An active task changes instance.
pub const TASK_MOVES: &str = "an active task moves";
/// None does.
pub const TASK_STAYS: &str = "every active task stays";

/// Kafka Streams: which instance takes over the first task that moves?
pub fn kstreams_prediction(before: &kstreams::Sim, events: &[kstreams::Event]) -> Option<Prediction> {
    let moved = events.iter().find_map(|e| match e {
        kstreams::Event::TaskAssigned {
            task,
            instance,
            role: kstreams::Role::Active,
            previous,
            ..
        } if previous.as_ref() != Some(instance) => {
            Some((task.to_string(), instance.clone(), sentence(&e.narrate())))
        }
        _ => None,
    });
    let Some((task, to, line)) = moved else {
        // Nothing changes owner: does the learner expect it to?
        let why: Vec<String> = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    kstreams::Event::RebalanceCompleted { .. }
                        | kstreams::Event::WarmupCaughtUp { .. }
                        | kstreams::Event::ProbingRebalanceScheduled { .. }
                        | kstreams::Event::InstanceIdle { .. }
                )
            })
            .take(WHY_LINES)
            .map(|e| sentence(&e.narrate()))
            .collect();
        return (!why.is_empty()).then(|| Prediction {
            question: "Before you press: will an active task change instance?".into(),
            mark: "",
            options: vec![TASK_MOVES.into(), TASK_STAYS.into()],
            answer: vec![TASK_STAYS.into()],
            why,
        });
    };
    let options: Vec<String> = before
        .instances()
        .values()
        .filter(|i| i.status != kstreams::InstanceStatus::Crashed)
        .map(|i| i.name.clone())
        .collect();
    if options.len() < 2 {
        return None;
    }
    Some(Prediction {
        question: format!("Before you press: which instance will run task {task} as its active?"),
        mark: "instance",
        options,
        answer: vec![to],
        why: vec![line],
    })
}

/// A narrated event as a sentence (capitalised, ending with a full stop).
fn sentence(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    let mut chars = s.chars();
    if let Some(c) = chars.next() {
        out.extend(c.to_uppercase());
        out.push_str(chars.as_str());
    }
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}
