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
    let low = num(k.load_balancer_avg_shedder_low_threshold);
    let per_round: Vec<&str> = (1..=last_round)
        .map(|r| {
            if p.iter().any(|x| x.0 == r) {
                "hit"
            } else {
                "under"
            }
        })
        .collect();
    let resets = (1..=last_round)
        .filter(|r| !p.iter().any(|x| x.0 == *r) && p.iter().any(|x| x.0 < *r))
        .count();
    let most = p.iter().map(|x| x.3).max().unwrap_or(0);
    let fired_rounds: Vec<String> = p.iter().filter(|x| x.5).map(|x| x.0.to_string()).collect();
    Said::new(format!(
        "Round {round} compared the pair last, at scores {} and {}; round by round the gap was {}. A gap of at least {low} is a hit and a smaller one clears the count, which stands at {hits} of the {need} consecutive hits needed (at most {most} so far, cleared {resets} times). {}",
        num(lo),
        num(hi),
        per_round.join(", "),
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

/// Per round so far: (round, broker-1's reading, its moving average, the
/// cluster average, whether any broker was above average + threshold).
fn smoothing(c: &PCtx) -> Vec<(u64, f64, f64, f64, bool)> {
    let mut out: Vec<(u64, f64, f64, f64, bool)> = Vec::new();
    let mut round = 0;
    for e in c.steps.iter().flatten() {
        match e {
            E::Workload(WorkloadEvent::Applied { round: r, .. }) => round = *r,
            E::Shed(ShedEvent::ThresholdAverages {
                samples,
                cluster_average,
                ..
            }) => {
                if let Some(s) = samples.iter().find(|s| s.broker.0 == "broker-1") {
                    out.push((round, s.current, s.average, *cluster_average, false));
                }
            }
            E::Shed(ShedEvent::AboveThreshold { .. }) => {
                if let Some(last) = out.last_mut() {
                    last.4 = true;
                }
            }
            _ => {}
        }
    }
    out
}

fn threshold_burst_text(c: &PCtx) -> Said {
    let k = c.state.config();
    let h = k.load_balancer_history_resource_percentage;
    let t = k.load_balancer_broker_threshold_shedder_percentage;
    let rows = smoothing(c);
    let Some(&(round, current, average, cluster, _)) = rows.last() else {
        return Said::new("ThresholdShedder has not run yet.");
    };
    let shed: Vec<String> = rows.iter().filter(|r| r.4).map(|r| r.0.to_string()).collect();
    let line: Vec<String> = rows
        .iter()
        .map(|r| format!("{} → {}", num(r.1 * 100.0), num(r.2 * 100.0)))
        .collect();
    Said::new(format!(
        "Round {round}: broker-1 reads {} % and its moving average is {} % ({h} of the previous average plus the rest of the reading); the cluster average is {} % and the line lies {t} % above it. Reading → average per round: {}. {}",
        num(current * 100.0),
        num(average * 100.0),
        num(cluster * 100.0),
        line.join(", "),
        if shed.is_empty() {
            "No broker crossed it: the burst is over before the history lets it count.".to_string()
        } else {
            format!("A broker crossed it in round(s) {}.", shed.join(", "))
        }
    ))
    .focus(F::Broker, "broker-1")
}

/// ThresholdShedder's `loadBalancerHistoryResourcePercentage` smoothing a short burst.
fn threshold_shedder_burst() -> Lesson {
    let config = Config::profile(Profile::Pulsar4);
    let topics = [
        ("a", 0x1000_0000u32, 7_500.0),
        ("a2", 0x5000_0000, 7_500.0),
        ("b", 0x9000_0000, 15_000.0),
        ("c", 0xd000_0000, 15_000.0),
    ];
    let mut setup = vec![
        one_core("broker-1"),
        A::CreateNamespace {
            namespace: NS.into(),
            bundles: Some(4),
        },
    ];
    for (t, hash, _) in topics {
        setup.push(A::CreateTopicWithHash {
            topic: format!("{NS}/{t}"),
            hash,
        });
    }
    setup.push(one_core("broker-2"));
    setup.push(one_core("broker-3"));
    for (bundle, to) in [
        ("0x80000000_0xc0000000", "broker-2"),
        ("0xc0000000_0xffffffff", "broker-3"),
    ] {
        setup.push(A::Unload {
            namespace: NS.into(),
            bundle: Some(bundle.into()),
            destination: Some(to.into()),
        });
    }
    setup.push(A::Assign);
    for (t, _, r) in topics {
        setup.push(rate(&format!("{NS}/{t}"), r));
    }
    setup.push(A::AddWorkload {
        pattern: Pattern {
            target: Target::Topic {
                topic: format!("{NS}/a"),
            },
            shape: Shape::Burst {
                start_round: 3,
                rounds: 2,
                multiplier: 4.0,
            },
        },
    });
    let actions = vec![A::Step; 6];
    Lesson::new(
        About {
            id: "pulsar-threshold-shedder-burst",
            concept: Concept::PulsarThresholdShedder,
            title: "ThresholdShedder: a two-round burst",
            idea: "ThresholdShedder compares moving averages, not readings: with loadBalancerHistoryResourcePercentage = 0.9 a short burst barely moves the average, so nothing is shed for it.",
            real: RealSystem {
                settings: [
                    "loadBalancerHistoryResourcePercentage",
                    "loadBalancerBrokerThresholdShedderPercentage",
                ]
                .iter()
                .map(|k| setting_from::<Config>(k))
                .collect(),
                commands: vec![
                    "loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.impl.ThresholdShedder"
                        .into(),
                ],
                classes: vec!["org.apache.pulsar.broker.loadbalance.impl.ThresholdShedder".into()],
            },
        },
        22,
        Log {
            config,
            setup,
            actions,
        },
        vec![
            step("Three brokers, one burst ahead", 0, &[C::Step], |c: &PCtx| {
                let loads: Vec<String> = c
                    .state
                    .broker_loads()
                    .iter()
                    .map(|(b, l)| format!("{b} {} %", num(*l)))
                    .collect();
                Said::new(format!(
                    "The brokers run at {}. A workload pattern will multiply topic a (on broker-1) by 4 in rounds 3 and 4 only. ThresholdShedder keeps a moving average per broker with loadBalancerHistoryResourcePercentage = {}.",
                    loads.join(", "),
                    c.state.config().load_balancer_history_resource_percentage
                ))
                .focus(F::Broker, "broker-1")
            })
            .ask("Press Step"),
            step("Before the burst", 2, &[C::Step], threshold_burst_text),
            step("The burst", 3, &[C::Step], threshold_burst_text),
            step("Its second round", 4, &[C::Step], threshold_burst_text),
            step("After it", 6, &[C::Step], threshold_burst_text),
            step("Play freely", 6, &[C::All], |_c: &PCtx| {
                Said::new(
                    "Set loadBalancerHistoryResourcePercentage to 0 in the settings and replay: the average is then the reading, and broker-1 is shed from in the burst's first round. A longer burst crosses the line even with the history.",
                )
            }),
        ],
    )
}

/// The workload lessons (each listed after the last lesson of its concept in [`super::all`]).
pub(super) fn lessons() -> Vec<Lesson> {
    vec![avg_shedder_jitter(), threshold_shedder_burst()]
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

    #[test]
    fn threshold_shedders_history_smooths_a_burst() {
        let l = threshold_shedder_burst();
        let log = match &l.scenario.body {
            crate::scenario::Body::Pulsar(log) => log.clone(),
            _ => unreachable!(),
        };
        let c = Ctx::<Sim>::replay(22, &log, 6).unwrap();
        let rows = smoothing(&c);
        assert_eq!(rows.len(), 6, "{rows:?}");
        assert!(rows.iter().all(|r| !r.4), "nothing above the line: {rows:?}");
        let t = c.state.config().load_balancer_broker_threshold_shedder_percentage / 100.0;
        let burst = rows[2];
        assert!(
            burst.1 > burst.3 + t,
            "the reading alone crosses the line: {burst:?}"
        );
        // Without history the burst is shed from at once.
        let mut raw = log.clone();
        raw.config.load_balancer_history_resource_percentage = 0.0;
        let c0 = Ctx::<Sim>::replay(22, &raw, 6).unwrap();
        let r0 = smoothing(&c0);
        assert!(r0.iter().any(|r| r.4 && r.0 == 3), "{r0:?}");
        let text = l.render(3).unwrap().narration;
        assert!(text.contains("No broker crossed it"), "{text}");
    }
}
