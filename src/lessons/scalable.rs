//! The scalable-topics lesson (Pulsar 5.0, PIP-460 / PIP-468 / PIP-483): a hot
//! topic's segments split, the children land in bundles of their own, and cold
//! segments merge once their records have stayed cold for the merge window.

use super::text::{and_list, num};
use super::{
    setting_from, step, About, Concept, Controls as C, Ctx, Lesson, RealSystem, Said, SubjectKind as F,
};
use crate::engine::pulsar::auto_scale::Decision;
use crate::engine::pulsar::scalable_topic::ScalableEvent;
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::pulsar::{Action as A, Config, Event as E, Sim};
use crate::engine::Engine;
use crate::scenario::Log;

type PCtx = Ctx<Sim>;

const NS: &str = "public/default";
const TOPIC: &str = "topic://public/default/orders";

fn traffic(rate: f64) -> A {
    A::SetScalableTopicTraffic {
        topic: TOPIC.into(),
        traffic: Traffic {
            msg_rate_in: rate,
            msg_rate_out: rate,
            throughput_in: rate * 1000.0,
            throughput_out: rate * 1000.0,
            producers: 4,
            consumers: 0,
        },
        wave: None,
        hot_keys: None,
    }
}

/// `segment 0 [0x0000, 0x7fff] on broker-2 (bundle 0x…)` for each active segment.
fn segments_line(c: &PCtx) -> String {
    let v: Vec<String> = c
        .state
        .segment_views(TOPIC)
        .iter()
        .map(|s| {
            format!(
                "segment {} {} on {}",
                s.id,
                s.range,
                s.owner.as_deref().unwrap_or("no broker")
            )
        })
        .collect();
    and_list(&v)
}

fn bundle_focus(c: &PCtx, mut s: Said) -> Said {
    for v in c.state.segment_views(TOPIC) {
        s = s.focus(F::Bundle, format!("{NS}/{}", v.bundle.name()));
    }
    s
}

fn scalable(c: &PCtx) -> Vec<&ScalableEvent> {
    c.last()
        .iter()
        .filter_map(|e| match e {
            E::Scalable(s) => Some(s),
            _ => None,
        })
        .collect()
}

pub(super) fn lessons() -> Vec<Lesson> {
    vec![Lesson::new(about(), 7, log(), steps())]
}

/// Three brokers, a scalable topic of two segments read by two consumers at
/// 8000 msg/s; then 24000 msg/s, two rounds, 400 msg/s and six rounds.
fn log() -> Log<Sim> {
    let setup = vec![
        A::AddBroker {
            broker: "broker-1".into(),
            capacity: Default::default(),
        },
        A::AddBroker {
            broker: "broker-2".into(),
            capacity: Default::default(),
        },
        A::AddBroker {
            broker: "broker-3".into(),
            capacity: Default::default(),
        },
        A::CreateNamespace {
            namespace: NS.into(),
            bundles: Some(8),
        },
        A::CreateScalableTopic {
            topic: TOPIC.into(),
            segments: Some(2),
        },
        A::AddScalableConsumer {
            topic: TOPIC.into(),
            subscription: "billing".into(),
            consumer: "c1".into(),
        },
        A::AddScalableConsumer {
            topic: TOPIC.into(),
            subscription: "billing".into(),
            consumer: "c2".into(),
        },
        traffic(8000.0),
    ];
    let mut actions = vec![traffic(24_000.0), A::Step, A::Step, traffic(400.0)];
    actions.extend(std::iter::repeat_n(A::Step, 6));
    Log::<Sim> {
        config: Config::default(),
        setup,
        actions,
    }
}

fn steps() -> Vec<super::Step<Sim>> {
    vec![
        step("A topic cut into segments", 0, &[C::Load], |c: &PCtx| {
            let split = c.state.config().scalable_topic_split_msg_rate_in_threshold;
            bundle_focus(
                c,
                Said::new(format!(
                    "The scalable topic {TOPIC} cuts its 16-bit key range into {} segments: {}. Each segment is an ordinary segment:// topic, so its name's hash picks a bundle and the load manager places that bundle like any other. A segment splits when it publishes more than {} msg/s; give the topic 24000 msg/s.",
                    c.state.segment_views(TOPIC).len(),
                    segments_line(c),
                    num(split)
                )),
            )
        })
        .ask("Set the topic's traffic to 24000 msg/s"),
        step("Every segment is over the threshold", 1, &[C::Step], |c: &PCtx| {
            let v = c.state.segment_views(TOPIC);
            let rates: Vec<String> = v
                .iter()
                .map(|s| format!("segment {} {} msg/s", s.id, num(s.traffic.msg_rate_in)))
                .collect();
            Said::new(format!(
                "Keys spread evenly, so each segment now carries its share: {}. The controller evaluates every {} s and splits at most one segment per evaluation, the one with the highest ratio of rate to threshold. Both ratios are equal here: which one goes first is the order Java's map happens to walk, drawn from the scenario's seed.",
                and_list(&rates),
                c.state.config().scalable_topic_auto_scale_interval_seconds
            ))
        })
        .ask("Press Step"),
        step("One split per evaluation", 2, &[C::Step], |c: &PCtx| {
            let ev = scalable(c);
            let hottest = ev.iter().find_map(|e| match e {
                ScalableEvent::Evaluated {
                    decision: Decision::Split { .. },
                    evaluation,
                    ..
                } => evaluation.hottest.clone(),
                _ => None,
            });
            let split = ev.iter().find_map(|e| match e {
                ScalableEvent::Split {
                    parent, children, ..
                } => Some((*parent, children.clone())),
                _ => None,
            });
            let (Some(h), Some((parent, children))) = (hottest, split) else {
                return Said::new("No segment split this round. Press Step again.");
            };
            let kids: Vec<String> = children
                .iter()
                .map(|k| format!("segment {} {} in bundle {}", k.id, k.range, k.bundle.name()))
                .collect();
            let mut s = Said::new(format!(
                "Segment {parent} split first: {} of {} over {} is {:.2}. Its halves are {}, each a new segment:// topic placed through its own bundle. The other hot segment waits for the next evaluation ({} s split cooldown).",
                h.metric,
                num(h.rate),
                num(h.threshold),
                h.score,
                and_list(&kids),
                c.state.config().scalable_topic_split_cooldown_seconds
            ));
            for k in &children {
                s = s.focus(F::Bundle, format!("{NS}/{}", k.bundle.name()));
            }
            s
        })
        .ask("Press Step"),
        step("Segments go round-robin to consumers", 3, &[C::Load], |c: &PCtx| {
            let st = &c.state.scalable_topics().topics[TOPIC];
            let a: Vec<String> = st
                .assignment
                .get("billing")
                .map(|a| a.iter().map(|(s, who)| format!("segment {s} to {who}")).collect())
                .unwrap_or_default();
            bundle_focus(
                c,
                Said::new(format!(
                    "Now {} segments are active: {}. Subscription billing hands them out by hash range, round-robin over its consumers in name order: {}. Drop the traffic to 400 msg/s and watch them merge back.",
                    st.layout.active_count(),
                    segments_line(c),
                    and_list(&a)
                )),
            )
        })
        .ask("Set the topic's traffic to 400 msg/s"),
        step("Cold is not enough", 4, &[C::Step], |c: &PCtx| {
            let cfg = c.state.config();
            Said::new(format!(
                "Every segment is now under the merge threshold of {} msg/s. A pair merges only when both segments' load records stayed unchanged and cold for the merge window of {} s, and a record is rewritten whenever a rate moves by more than {}%. Press Step and watch the evaluations wait.",
                num(cfg.scalable_topic_merge_msg_rate_in_threshold),
                cfg.scalable_topic_merge_window_seconds,
                num(cfg.scalable_topic_load_report_rate_change_threshold * 100.0)
            ))
        })
        .ask("Press Step"),
        step("The coldest adjacent pair merges", 10, &[C::Step], |c: &PCtx| {
            let merged = c.events().find_map(|e| match e {
                E::Scalable(ScalableEvent::Merged {
                    parents, merged, ..
                }) => Some((*parents, merged.clone())),
                _ => None,
            });
            let Some(((a, b), m)) = merged else {
                return Said::new("No pair has merged yet. Press Step a few more times.");
            };
            let s = Said::new(format!(
                "After the merge window, segments {a} and {b} merged into segment {m_id} {}, placed through bundle {}. Only adjacent segments merge, the pair with the lowest combined rate first, and at most one merge per {} s merge cooldown, so the topic shrinks one step at a time.",
                m.range,
                m.bundle.name(),
                c.state.config().scalable_topic_merge_cooldown_seconds,
                m_id = m.id
            ));
            s.focus(F::Bundle, format!("{NS}/{}", m.bundle.name()))
        }),
        step("Play freely", 10, &[C::All], |c: &PCtx| {
            Said::new(format!(
                "The topic has {} active segments at epoch {}. Try a wave in the Scalable topics panel, add a third consumer (a subscription with more consumers than segments splits at once), or split and merge segments by hand.",
                c.state.scalable_topics().topics[TOPIC].layout.active_count(),
                c.state.scalable_topics().topics[TOPIC].layout.epoch
            ))
        }),
    ]
}

fn about() -> About {
    About {
        id: "pulsar-scalable-topics",
        concept: Concept::PulsarScalableTopics,
        title: "Scalable topics: segments that split and merge",
        idea: "Pulsar 5.0 balances load inside a topic: a hot hash-range segment splits at its midpoint, cold adjacent segments merge, and every segment is placed through a bundle.",
        real: RealSystem {
            settings: [
                "scalableTopicsEnabled",
                "scalableTopicAutoScaleEnabled",
                "scalableTopicSplitMsgRateInThreshold",
                "scalableTopicMergeMsgRateInThreshold",
                "scalableTopicSplitCooldownSeconds",
                "scalableTopicMergeCooldownSeconds",
                "scalableTopicMergeWindowSeconds",
                "scalableTopicMaxSegments",
            ]
            .iter()
            .map(|k| setting_from::<Config>(k))
            .collect(),
            commands: vec![
                "pulsar-admin scalable-topics create TOPIC --segments N".into(),
                "pulsar-admin scalable-topics split-segment TOPIC --segment-id ID".into(),
                "pulsar-admin scalable-topics merge-segments TOPIC --segment-id-1 A --segment-id-2 B".into(),
            ],
            classes: vec![
                "org.apache.pulsar.broker.service.scalable.AutoScalePolicyEvaluator".into(),
                "org.apache.pulsar.broker.service.scalable.SegmentLayout".into(),
                "org.apache.pulsar.broker.service.scalable.SubscriptionCoordinator".into(),
            ],
        },
    }
}
