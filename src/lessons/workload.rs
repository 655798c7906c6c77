//! Lessons that need traffic changing over time (workload patterns): the
//! numbers are read from the replayed engine's events.

use super::text::num;
use super::{
    setting_from, step, About, Concept, Controls as C, Ctx, FocusKind as F, Lesson, RealSystem, Said,
};
use crate::engine::pulsar::broker::Capacity;
use crate::engine::pulsar::config::Profile;
use crate::engine::pulsar::shed::ShedEvent;
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::pulsar::workload::{Pattern, Shape, Target, WorkloadEvent};
use crate::engine::pulsar::{Action as A, Config, Event as E, Sim};
use crate::engine::Engine;
use crate::scenario::Log;

type PCtx = Ctx<Sim>;

const NS: &str = "public/default";
/// Rounds the lesson steps through.
const ROUNDS: usize = 12;

fn one_core(name: &str) -> A {
    A::AddBroker {
        broker: name.into(),
        capacity: Capacity {
            cpu_cores: 1.0,
            ..Capacity::default()
        },
    }
}

/// `rate` msg/s in and as many out: `2 · rate / 1000` % of one core.
fn rate(topic: &str, rate: f64) -> A {
    A::SetTopicTraffic {
        topic: topic.into(),
        traffic: Traffic {
            msg_rate_in: rate,
            msg_rate_out: rate,
            throughput_in: 0.0,
            throughput_out: 0.0,
            producers: 1,
            consumers: 1,
        },
    }
}

/// Per round so far: (round, low score, high score, low hits, needed, fired).
fn pairs(c: &PCtx) -> Vec<(u64, f64, f64, u32, u32, bool)> {
    let mut round = 0;
    let mut out = Vec::new();
    for e in c.steps.iter().flatten() {
        match e {
            E::Workload(WorkloadEvent::Applied { round: r, .. }) => round = *r,
            E::Shed(ShedEvent::AvgPair {
                low_score,
                high_score,
                low_hits,
                low_hits_needed,
                fired,
                ..
            }) => out.push((
                round,
                *low_score,
                *high_score,
                *low_hits,
                *low_hits_needed,
                *fired,
            )),
            _ => {}
        }
    }
    out
}

fn jitter_percent(c: &PCtx) -> f64 {
    c.state
        .workload()
        .patterns()
        .iter()
        .find_map(|e| match e.pattern.shape {
            Shape::Jitter { percent } => Some(percent),
            _ => None,
        })
        .unwrap_or(0.0)
}

fn avg_jitter_text(c: &PCtx) -> Said {
    let k = c.state.config();
    let p = pairs(c);
    let Some(&(round, lo, hi, hits, need, fired)) = p.last() else {
        return Said::new(format!(
            "Round {}: AvgShedder has not compared the pair yet.",
            c.state.round()
        ));
    };
    // Rounds without a pair above the low threshold cleared every counter.
    let last_round = c.state.round();
    let per_round: Vec<String> = (1..=last_round)
        .map(|r| {
            p.iter().find(|x| x.0 == r).map_or(
                format!("under {}", num(k.load_balancer_avg_shedder_low_threshold)),
                |x| num(x.2 - x.1),
            )
        })
        .collect();
    let resets = (1..=last_round)
        .filter(|r| !p.iter().any(|x| x.0 == *r) && p.iter().any(|x| x.0 < *r))
        .count();
    let most = p.iter().map(|x| x.3).max().unwrap_or(0);
    let gaps = per_round;
    let fired_rounds: Vec<String> = p.iter().filter(|x| x.5).map(|x| x.0.to_string()).collect();
    Said::new(format!(
        "Round {round} compared the pair last: scores {} and {}, a gap of {}; round by round the gaps were {}. A gap of at least {} counts a hit, a smaller one resets the count: the count is {hits} of the {need} consecutive hits needed (at most {most} so far, reset {resets} times). {}",
        num(lo),
        num(hi),
        num(hi - lo),
        gaps.join(", "),
        num(k.load_balancer_avg_shedder_low_threshold),
        if fired || !fired_rounds.is_empty() {
            format!("The pair shed in round(s) {}.", fired_rounds.join(", "))
        } else if resets > 0 {
            format!(
                "Nothing moved: the ±{} % jitter keeps pulling the gap under the threshold, so the rule rides it out.",
                num(jitter_percent(c))
            )
        } else {
            "Nothing moved yet.".to_string()
        }
    ))
    .focus(F::Broker, "broker-1")
    .focus(F::Broker, "broker-2")
}

/// AvgShedder's multiple-hit rule under load jitter.
fn avg_shedder_jitter() -> Lesson {
    let config = Config {
        min_unload_message: 100.0,
        ..Config::profile(Profile::Pulsar5)
    };
    let a = format!("{NS}/a");
    let b = format!("{NS}/b");
    let setup = vec![
        one_core("broker-1"),
        A::CreateNamespace {
            namespace: NS.into(),
            bundles: Some(2),
        },
        A::CreateTopicWithHash {
            topic: a.clone(),
            hash: 0x1000_0000,
        },
        A::CreateTopicWithHash {
            topic: b.clone(),
            hash: 0x9000_0000,
        },
        one_core("broker-2"),
        A::Unload {
            namespace: NS.into(),
            bundle: Some("0x80000000_0xffffffff".into()),
            destination: Some("broker-2".into()),
        },
        A::Assign,
        rate(&a, 22_500.0),
        rate(&b, 14_000.0),
        A::AddWorkload {
            pattern: Pattern {
                target: Target::All,
                shape: Shape::Jitter { percent: 25.0 },
            },
        },
    ];
    let actions = vec![A::Step; ROUNDS];
    Lesson::new(
        About {
            id: "pulsar-avg-shedder-jitter",
            concept: Concept::PulsarAvgShedder,
            title: "AvgShedder under jitter: 8 hits in a row",
            idea: "A gap just above the low threshold must hold for 8 consecutive rounds; load jitter resets the count, so a noisy pair is left alone.",
            real: RealSystem {
                settings: [
                    "loadBalancerAvgShedderLowThreshold",
                    "loadBalancerAvgShedderHitCountLowThreshold",
                    "loadBalancerAvgShedderHighThreshold",
                    "loadBalancerAvgShedderHitCountHighThreshold",
                ]
                .iter()
                .map(|k| setting_from::<Config>(k))
                .collect(),
                commands: vec![
                    "loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.AvgShedder"
                        .into(),
                ],
                classes: vec!["org.apache.pulsar.broker.loadbalance.impl.AvgShedder".into()],
            },
        },
        21,
        Log {
            config,
            setup,
            actions,
        },
        vec![
            step("Two brokers, jittered traffic", 0, &[C::Step], |c: &PCtx| {
                let k = c.state.config();
                let loads: Vec<String> = c
                    .state
                    .broker_loads()
                    .iter()
                    .map(|(b, l)| format!("{b} {}", num(*l)))
                    .collect();
                Said::new(format!(
                    "broker-1 and broker-2 (one core each) score {} now, a gap above loadBalancerAvgShedderLowThreshold = {}. A pattern jitters every topic's traffic by ±{} % each round, drawn from the scenario's seed. Below loadBalancerAvgShedderHighThreshold = {}, AvgShedder sheds only after {} consecutive hits.",
                    loads.join(" and "),
                    num(k.load_balancer_avg_shedder_low_threshold),
                    num(jitter_percent(c)),
                    num(k.load_balancer_avg_shedder_high_threshold),
                    k.load_balancer_avg_shedder_hit_count_low_threshold
                ))
            })
            .ask("Press Step"),
            step("The count starts", 1, &[C::Step], avg_jitter_text),
            step("Jitter resets it", 6, &[C::Step], avg_jitter_text),
            step("Twelve rounds", ROUNDS, &[C::Step], avg_jitter_text),
            step("Play freely", ROUNDS, &[C::All], |c: &PCtx| {
                let k = c.state.config();
                Said::new(format!(
                    "Remove the jitter pattern in the Workloads panel and step: a steady gap counts a hit every round and the pair sheds after {} of them. Or lower loadBalancerAvgShedderHitCountLowThreshold to 1 and watch the jitter move bundles back and forth.",
                    k.load_balancer_avg_shedder_hit_count_low_threshold
                ))
            }),
        ],
    )
}

/// The workload lessons.
pub(super) fn lessons() -> Vec<Lesson> {
    vec![avg_shedder_jitter()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avg_shedder_rides_out_the_jitter() {
        let l = avg_shedder_jitter();
        let c = Ctx::<Sim>::replay(
            21,
            &match &l.scenario.body {
                crate::scenario::Body::Pulsar(log) => log.clone(),
                _ => unreachable!(),
            },
            ROUNDS,
        )
        .unwrap();
        let p = pairs(&c);
        // Some rounds' gap falls under the low threshold (no pair, counters cleared).
        assert!(!p.is_empty() && p.len() < ROUNDS, "{p:?}");
        assert!(p.iter().all(|x| !x.5 && x.3 < x.4), "nothing sheds: {p:?}");
        assert!(p.windows(2).any(|w| w[1].3 < w[0].3), "the count is reset: {p:?}");
        assert!(p.iter().any(|x| x.3 >= 2), "hits are counted: {p:?}");
        // Without the jitter the same pair sheds once the hits add up.
        let mut log = match &l.scenario.body {
            crate::scenario::Body::Pulsar(log) => log.clone(),
            _ => unreachable!(),
        };
        log.setup.pop();
        let steady = Ctx::<Sim>::replay(21, &log, ROUNDS).unwrap();
        let q = pairs(&steady);
        assert!(q.iter().any(|x| x.5), "a steady gap sheds: {q:?}");
        assert!(l.render(1).unwrap().narration.ends_with("Nothing moved yet."));
        let text = l.render(3).unwrap().narration;
        assert!(text.contains("Nothing moved"), "{text}");
    }
}
