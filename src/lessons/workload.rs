//! Lessons that need traffic changing over time (workload patterns): the
//! numbers are read from the replayed engine's events.

use super::text::num;
use super::{
    setting_from, step, About, Concept, Controls as C, Ctx, Lesson, RealSystem, Said, SubjectKind as F,
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

/// The setup every cluster here starts from: broker-1 (one core), then
/// [`NS`] with `bundles` bundles and `topics` at their hashes (all on broker-1).
fn namespace_on_broker_1(bundles: u32, topics: impl IntoIterator<Item = (&'static str, u32)>) -> Vec<A> {
    let mut setup = vec![
        one_core("broker-1"),
        A::CreateNamespace {
            namespace: NS.into(),
            bundles: Some(bundles),
        },
    ];
    setup.extend(topics.into_iter().map(|(t, hash)| A::CreateTopicWithHash {
        topic: format!("{NS}/{t}"),
        hash,
    }));
    setup
}

/// Bundle `bundle` of [`NS`] moved to broker `to`.
fn moved(bundle: &str, to: &str) -> A {
    A::Unload {
        namespace: NS.into(),
        bundle: Some(bundle.into()),
        destination: Some(to.into()),
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

/// One AvgShedder comparison of the pair, as the engine reported it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct HighPair {
    round: u64,
    low_score: f64,
    high_score: f64,
    high_hits: u32,
    high_needed: u32,
    low_hits: u32,
    low_needed: u32,
    high_threshold: f64,
    fired: bool,
}

impl HighPair {
    fn gap(&self) -> f64 {
        self.high_score - self.low_score
    }

    fn above_high(&self) -> bool {
        self.gap() >= self.high_threshold
    }
}

/// Every pair comparison so far, with the round it was made in.
fn high_pairs(c: &PCtx) -> Vec<HighPair> {
    // The round in progress: the one after the last round done.
    let mut round = 1;
    let mut out = Vec::new();
    for e in c.steps.iter().flatten() {
        match e {
            E::RoundDone { metrics } => round = metrics.round + 1,
            E::Shed(ShedEvent::AvgPair {
                low_score,
                high_score,
                high_hits,
                high_hits_needed,
                low_hits,
                low_hits_needed,
                high_threshold,
                fired,
                ..
            }) => out.push(HighPair {
                round,
                low_score: *low_score,
                high_score: *high_score,
                high_hits: *high_hits,
                high_needed: *high_hits_needed,
                low_hits: *low_hits,
                low_needed: *low_hits_needed,
                high_threshold: *high_threshold,
                fired: *fired,
            }),
            _ => {}
        }
    }
    out
}

/// Rounds joined with commas ("none" when empty).
fn rounds_list(r: &[u64]) -> String {
    if r.is_empty() {
        "none".into()
    } else {
        r.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
    }
}

fn avg_high_text(c: &PCtx) -> Said {
    let p = high_pairs(c);
    let Some(last) = p.last().copied() else {
        return Said::new(format!(
            "Round {}: AvgShedder has not compared the pair yet. It compares them at every shedding pass.",
            c.state.round()
        ));
    };
    let above: Vec<u64> = p.iter().filter(|x| x.above_high()).map(|x| x.round).collect();
    let under: Vec<u64> = p.iter().filter(|x| !x.above_high()).map(|x| x.round).collect();
    let fired: Vec<u64> = p.iter().filter(|x| x.fired).map(|x| x.round).collect();
    let outcome = if fired.is_empty() {
        format!(
            "Nothing moved yet: the high count stands at {} of {}.",
            last.high_hits, last.high_needed
        )
    } else {
        let f = p.iter().find(|x| x.fired).copied().unwrap_or(last);
        format!(
            "The pair shed in round {} after {} consecutive high hits, with the low count at {} of {}.",
            f.round, f.high_hits, f.low_hits, f.low_needed
        )
    };
    let high = num(last.high_threshold);
    let under_part = if under.is_empty() {
        String::new()
    } else {
        format!(
            " and under it in round(s) {}, each of which set the high count back to 0 while the low count went on",
            rounds_list(&under)
        )
    };
    let history = if above.is_empty() {
        format!(
            "The difference has not reached loadBalancerAvgShedderHighThreshold = {high} yet{under_part}."
        )
    } else {
        format!(
            "The difference was at least loadBalancerAvgShedderHighThreshold = {high} in round(s) {}{under_part}.",
            rounds_list(&above)
        )
    };
    Said::new(format!(
        "Round {} compared broker scores {:.1} and {:.1}, a difference of {:.1}. {history} {outcome}",
        last.round,
        last.high_score,
        last.low_score,
        last.gap(),
    ))
    .focus(F::Broker, "broker-1")
    .focus(F::Broker, "broker-2")
}

/// The high-threshold variant's cluster: broker-1 carries three bundles of
/// `busy` msg/s each, broker-2 one of `idle`, and `jitter` % on every topic
/// (none: no pattern).
fn avg_high_log(jitter: Option<f64>) -> Log<Sim> {
    avg_high_log_with(HIGH_BUSY, HIGH_IDLE, jitter)
}

fn avg_high_log_with(busy: f64, idle: f64, jitter: Option<f64>) -> Log<Sim> {
    let config = Config {
        min_unload_message: 100.0,
        ..Config::profile(Profile::Pulsar5)
    };
    let topics = [
        ("a1", 0x1000_0000u32),
        ("a2", 0x5000_0000),
        ("a3", 0x9000_0000),
        ("b", 0xd000_0000),
    ];
    let mut setup = namespace_on_broker_1(4, topics);
    setup.extend([
        one_core("broker-2"),
        moved("0xc0000000_0xffffffff", "broker-2"),
        A::Assign,
    ]);
    for (t, _) in &topics[..3] {
        setup.push(rate(&format!("{NS}/{t}"), busy));
    }
    setup.push(rate(&format!("{NS}/b"), idle));
    if let Some(percent) = jitter {
        setup.push(A::AddWorkload {
            pattern: Pattern {
                target: Target::All,
                shape: Shape::Jitter { percent },
            },
        });
    }
    Log {
        config,
        setup,
        actions: vec![A::Step; HIGH_ROUNDS],
    }
}

/// msg/s of each of broker-1's three topics.
const HIGH_BUSY: f64 = 9_900.0;
/// msg/s of broker-2's topic.
const HIGH_IDLE: f64 = 9_000.0;
/// The jitter of the high-threshold variant, %.
const HIGH_JITTER: f64 = 25.0;
/// Rounds it steps through.
const HIGH_ROUNDS: usize = 8;

/// AvgShedder's high threshold under load jitter: 2 consecutive hits above 40.
fn avg_shedder_high_jitter() -> Lesson {
    Lesson::new(
        About {
            id: "pulsar-avg-shedder-high-jitter",
            concept: Concept::PulsarAvgShedder,
            title: "AvgShedder under jitter: 2 hits above 40",
            idea: "A difference above the high threshold sheds after only 2 consecutive hits; a jittered round that dips under it sets the high count back to 0, so the pair waits for two high rounds in a row.",
            real: RealSystem {
                settings: [
                    "loadBalancerAvgShedderHighThreshold",
                    "loadBalancerAvgShedderHitCountHighThreshold",
                    "loadBalancerAvgShedderLowThreshold",
                    "loadBalancerAvgShedderHitCountLowThreshold",
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
        25,
        avg_high_log(Some(HIGH_JITTER)),
        vec![
            step("A wide gap, jittered", 0, &[C::Step], |c: &PCtx| {
                let k = c.state.config();
                let loads: Vec<String> = c
                    .state
                    .broker_loads()
                    .iter()
                    .map(|(b, l)| format!("{b} {}", num(*l)))
                    .collect();
                Said::new(format!(
                    "broker-1 (three topics of {} msg/s in and out) and broker-2 (one of {}), one core each, score {} now, and a pattern jitters every topic's traffic by ±{} % each round, drawn from the scenario's seed. AvgShedder counts a high hit for a pair whose scores differ by at least loadBalancerAvgShedderHighThreshold = {} and sheds after {} consecutive ones, instead of the {} needed above loadBalancerAvgShedderLowThreshold = {}.",
                    num(HIGH_BUSY),
                    num(HIGH_IDLE),
                    loads.join(" and "),
                    num(jitter_percent(c)),
                    num(k.load_balancer_avg_shedder_high_threshold),
                    k.load_balancer_avg_shedder_hit_count_high_threshold,
                    k.load_balancer_avg_shedder_hit_count_low_threshold,
                    num(k.load_balancer_avg_shedder_low_threshold)
                ))
                .focus(F::Broker, "broker-1")
            })
            .ask("Press Step"),
            step("The first comparison", 1, &[C::Step], avg_high_text),
            step("Two in a row", HIGH_ROUNDS, &[C::Step], avg_high_text),
            step("Play freely", HIGH_ROUNDS, &[C::All], |c: &PCtx| {
                let k = c.state.config();
                Said::new(format!(
                    "Raise loadBalancerAvgShedderHitCountHighThreshold above {} in the settings and replay: the jitter then breaks more runs of high rounds, and the low rule's {} hits may come first. Or remove the jitter pattern: a steady gap above {} sheds on the second round.",
                    k.load_balancer_avg_shedder_hit_count_high_threshold,
                    k.load_balancer_avg_shedder_hit_count_low_threshold,
                    num(k.load_balancer_avg_shedder_high_threshold)
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
                if let Some(s) = samples.iter().find(|s| s.broker.as_str() == "broker-1") {
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
    let mut setup = namespace_on_broker_1(4, topics.iter().map(|(t, h, _)| (*t, *h)));
    setup.push(one_core("broker-2"));
    setup.push(one_core("broker-3"));
    for (bundle, to) in [
        ("0x80000000_0xc0000000", "broker-2"),
        ("0xc0000000_0xffffffff", "broker-3"),
    ] {
        setup.push(moved(bundle, to));
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

/// Per round so far: (round, std, target std, hit count, hits to exceed, bundles unloaded).
fn transfer_rounds(c: &PCtx) -> Vec<(u64, f64, f64, u32, u32, usize)> {
    let mut out: Vec<(u64, f64, f64, u32, u32, usize)> = Vec::new();
    let mut round = 0;
    for e in c.steps.iter().flatten() {
        match e {
            E::Workload(WorkloadEvent::Applied { round: r, .. }) => round = *r,
            E::Shed(ShedEvent::TransferStats {
                std,
                target_std,
                hit_count,
                hit_threshold,
                ..
            }) => out.push((round, *std, *target_std, *hit_count, *hit_threshold, 0)),
            E::Shed(ShedEvent::TransferDecision { unloads, .. }) => {
                if let Some(last) = out.last_mut().filter(|l| l.0 == round) {
                    last.5 = *unloads;
                }
            }
            _ => {}
        }
    }
    out
}

/// The longest run of consecutive rounds with the std above its target.
fn longest_above(rows: &[(u64, f64, f64, u32, u32, usize)]) -> usize {
    let (mut run, mut most) = (0, 0);
    for r in rows {
        run = if r.1 > r.2 { run + 1 } else { 0 };
        most = most.max(run);
    }
    most
}

fn wave_period(c: &PCtx) -> f64 {
    c.state
        .workload()
        .patterns()
        .iter()
        .find_map(|e| match e.pattern.shape {
            Shape::Wave { period_minutes, .. } => Some(period_minutes),
            _ => None,
        })
        .unwrap_or(0.0)
}

fn transfer_wave_text(c: &PCtx) -> Said {
    let rows = transfer_rounds(c);
    let Some(&(round, std, target, hits, need, _)) = rows.last() else {
        return Said::new(format!(
            "Round {}: TransferShedder has not computed its statistics yet.",
            c.state.round()
        ));
    };
    let line: Vec<String> = rows
        .iter()
        .map(|r| format!("{:.3}{}", r.1, if r.1 > r.2 { " (above)" } else { "" }))
        .collect();
    let moved: Vec<String> = rows
        .iter()
        .filter(|r| r.5 > 0)
        .map(|r| format!("{} ({} bundles)", r.0, r.5))
        .collect();
    let most = longest_above(&rows);
    Said::new(format!(
        "Round {round}: the standard deviation of the brokers' loads is {std:.3} against loadBalancerBrokerLoadTargetStd = {target:.3}, and the shedding condition has held {hits} times in a row (it must hold more than {need} times). Std per round: {}. {}",
        line.join(", "),
        if moved.is_empty() {
            format!(
                "Nothing moved: the wave (a {} min period) keeps the std above the target for at most {most} consecutive rounds, and each round under it sets the count back to 0.",
                num(wave_period(c))
            )
        } else {
            format!(
                "TransferShedder unloaded in round(s) {}; a crest that held the condition {need} times or fewer was ridden out.",
                moved.join(", ")
            )
        }
    ))
    .focus(F::Broker, "broker-1")
}

/// The TransferShedder lesson's wave on broker-1's topics.
fn transfer_wave() -> Shape {
    Shape::Wave {
        period_minutes: TRANSFER_WAVE_MINUTES,
        amplitude_percent: 60.0,
        phase_minutes: 0.0,
    }
}

/// The TransferShedder lesson's log with `shape` on broker-1's topics.
fn transfer_wave_log(shape: Shape) -> Log<Sim> {
    let config = Config {
        load_manager_class_name: crate::engine::pulsar::config::LoadManager::Extensible,
        load_balancer_load_shedding_strategy:
            crate::engine::pulsar::config::SheddingStrategy::TransferShedder,
        ..Config::profile(Profile::Pulsar4)
    };
    // broker-1 serves four bundles of one topic each (12.5 % of a core
    // apiece), broker-2 and broker-3 one topic of 20 % each.
    let topics = [
        ("a", 0x1000_0000u32, 6_250.0),
        ("a2", 0x3000_0000, 6_250.0),
        ("a3", 0x5000_0000, 6_250.0),
        ("a4", 0x7000_0000, 6_250.0),
        ("b", 0xd000_0000, 10_000.0),
        ("c", 0xf000_0000, 10_000.0),
    ];
    let mut setup = namespace_on_broker_1(8, topics.iter().map(|(t, h, _)| (*t, *h)));
    setup.push(one_core("broker-2"));
    setup.push(one_core("broker-3"));
    for (bundle, to) in [
        ("0xc0000000_0xe0000000", "broker-2"),
        ("0xe0000000_0xffffffff", "broker-3"),
    ] {
        setup.push(moved(bundle, to));
    }
    setup.push(A::Assign);
    // 1 KiB messages: TransferShedder picks bundles by their throughput.
    for (t, _, r) in topics {
        setup.push(A::SetTopicTraffic {
            topic: format!("{NS}/{t}"),
            traffic: Traffic {
                throughput_in: r * 1024.0,
                throughput_out: r * 1024.0,
                ..match rate("", r) {
                    A::SetTopicTraffic { traffic, .. } => traffic,
                    _ => unreachable!(),
                }
            },
        });
    }
    setup.push(A::AddWorkload {
        pattern: Pattern {
            target: Target::Matching {
                pattern: format!("{NS}/a*"),
            },
            shape,
        },
    });
    Log {
        config,
        setup,
        actions: vec![A::Step; TRANSFER_ROUNDS],
    }
}

/// Rounds the TransferShedder lesson steps through.
const TRANSFER_ROUNDS: usize = 16;
/// Its wave's period, minutes.
const TRANSFER_WAVE_MINUTES: f64 = 6.0;

/// TransferShedder's std target under a wave.
fn transfer_shedder_wave() -> Lesson {
    Lesson::new(
        About {
            id: "pulsar-transfer-shedder-wave",
            concept: Concept::PulsarTransferShedder,
            title: "TransferShedder under a wave: the std target",
            idea: "TransferShedder sheds only once the spread of loads stays above loadBalancerBrokerLoadTargetStd for more than loadBalancerSheddingConditionHitCountThreshold checks in a row; a wave's crest that passes sooner is ridden out.",
            real: RealSystem {
                settings: [
                    "loadBalancerBrokerLoadTargetStd",
                    "loadBalancerSheddingConditionHitCountThreshold",
                ]
                .iter()
                .map(|k| setting_from::<Config>(k))
                .collect(),
                commands: vec![
                    "loadManagerClassName=org.apache.pulsar.broker.loadbalance.extensions.ExtensibleLoadManagerImpl".into(),
                    "loadBalancerLoadSheddingStrategy=org.apache.pulsar.broker.loadbalance.extensions.scheduler.TransferShedder".into(),
                ],
                classes: vec!["org.apache.pulsar.broker.loadbalance.extensions.scheduler.TransferShedder".into()],
            },
        },
        23,
        transfer_wave_log(transfer_wave()),
        vec![
            step("A wave on one broker", 0, &[C::Step], |c: &PCtx| {
                let k = c.state.config();
                let loads: Vec<String> = c
                    .state
                    .broker_loads()
                    .iter()
                    .map(|(b, l)| format!("{b} {} %", num(*l)))
                    .collect();
                Said::new(format!(
                    "The brokers run at {}. A pattern makes broker-1's topics rise and fall by ±60 % over {} minutes. TransferShedder compares the standard deviation of the loads with loadBalancerBrokerLoadTargetStd = {} and sheds once that has held more than loadBalancerSheddingConditionHitCountThreshold = {} times in a row.",
                    loads.join(", "),
                    num(wave_period(c)),
                    k.load_balancer_broker_load_target_std,
                    k.load_balancer_shedding_condition_hit_count_threshold
                ))
                .focus(F::Broker, "broker-1")
            })
            .ask("Press Step"),
            step("The crest", 2, &[C::Step], transfer_wave_text),
            step("A few rounds on", 5, &[C::Step], transfer_wave_text),
            step("The next crest", 10, &[C::Step], transfer_wave_text),
            step("Sixteen rounds", TRANSFER_ROUNDS, &[C::Step], transfer_wave_text),
            step("Play freely", TRANSFER_ROUNDS, &[C::All], |c: &PCtx| {
                Said::new(format!(
                    "Edit the pattern in the Workloads panel into a burst that holds the crest steady and step on. The spread then stays above the target, and once it has for more than {} checks in a row, bundles move off broker-1.",
                    c.state.config().load_balancer_shedding_condition_hit_count_threshold
                ))
            }),
        ],
    )
}

// ------------------------------------------------------------ Kafka Streams

use crate::engine::kstreams;

type KCtx = Ctx<kstreams::Sim>;

/// Records per second the Kafka Streams lesson's pattern produces.
const KS_RATE: f64 = 32_000.0;

/// The warm-up lesson's log, with or without the produce pattern.
fn warmup_log(produce: bool) -> Log<kstreams::Sim> {
    use kstreams::Action as K;
    let instance = |name: &str| K::AddInstance {
        name: name.into(),
        threads: Some(1),
        rack: None,
        tags: std::collections::BTreeMap::new(),
        process_id: None,
    };
    let mut setup = vec![
        K::DefineTopic {
            topic: "input".into(),
            partitions: 4,
            racks: vec![],
            replication_factor: 1,
        },
        instance("a"),
        instance("b"),
        K::DefineTopology {
            subtopologies: vec![kstreams::SubtopologySpec {
                sources: vec!["input".into()],
                stores: vec!["counts".into()],
                changelog: true,
            }],
            copartition_groups: vec![],
        },
        K::Produce {
            topic: "input".into(),
            key: None,
            partition: None,
            records: 2_000_000,
        },
        K::AdvanceTime { ms: 60_000 },
    ];
    if produce {
        setup.push(K::AddWorkload {
            pattern: kstreams::workload::ProducePattern {
                topic: "input".into(),
                records_per_second: KS_RATE,
                skew: 0.0,
                wave: None,
            },
        });
    }
    Log {
        config: kstreams::Config::default(),
        setup,
        actions: vec![
            instance("c"),
            K::AdvanceTime { ms: 30_000 },
            K::AdvanceTime { ms: 60_000 },
            K::AdvanceTime { ms: 120_000 },
            K::AdvanceTime { ms: 390_000 },
        ],
    }
}

/// Warm-ups caught up so far: (time ms, task, lag when it caught up).
fn caught_up(c: &KCtx) -> Vec<(u64, String, u64)> {
    let mut now = 0;
    let mut out = Vec::new();
    for e in c.steps.iter().flatten() {
        match e {
            kstreams::Event::TimeAdvanced { to_ms, .. } => now = *to_ms,
            kstreams::Event::WarmupCaughtUp { task, lag, .. } => out.push((now, task.to_string(), *lag)),
            _ => {}
        }
    }
    out
}

/// c's warm-ups now: (task, lag).
fn warmups_on_c(c: &KCtx) -> Vec<(String, u64)> {
    c.state
        .instances()
        .get("c")
        .map(|i| {
            i.warmups
                .iter()
                .map(|t| (t.to_string(), c.state.lag("c", *t).unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default()
}

fn warmup_text(c: &KCtx) -> Said {
    let k = c.state.config();
    let now = c.state.now_ms();
    let w = warmups_on_c(c);
    let done = caught_up(c);
    let on_c: Vec<String> = c
        .state
        .tasks()
        .iter()
        .filter(|t| c.state.active_owner(t.id) == Some("c"))
        .map(|t| t.id.to_string())
        .collect();
    let warm = if w.is_empty() {
        "c holds no warm-up now".to_string()
    } else {
        format!(
            "c warms up {} (lag {})",
            w.iter().map(|x| x.0.clone()).collect::<Vec<_>>().join(", "),
            w.iter().map(|x| num(x.1 as f64)).collect::<Vec<_>>().join(", ")
        )
    };
    Said::new(format!(
        "At {} ms: {warm}; records keep arriving, so task 0_0's changelog now ends at {}, while a warm-up replays its changelog at lbscope.restore.records.per.second = {} and counts as caught up within acceptable.recovery.lag = {}. {}{}",
        now,
        c.state.end_offset(kstreams::TaskId::new(0, 0)),
        k.restore_records_per_second,
        k.acceptable_recovery_lag,
        if done.is_empty() {
            "No warm-up has caught up yet.".to_string()
        } else {
            format!(
                "Caught up: {}.",
                done.iter()
                    .map(|d| format!("{} by {} ms (lag {})", d.1, d.0, d.2))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        if on_c.is_empty() {
            String::new()
        } else {
            format!(" c now runs {} as active.", on_c.join(", "))
        }
    ))
    .focus(super::SubjectKind::Instance, "c")
}

/// Kafka Streams warm-ups catching up while records keep arriving.
fn kstreams_warmup_under_load() -> Lesson {
    Lesson::new(
        About {
            id: "kstreams-warmups-under-load",
            concept: Concept::KstreamsStandbys,
            title: "Warm-ups catching up while records keep arriving",
            idea: "A new instance first gets warm-up replicas that replay the changelog; while records keep arriving the changelog keeps growing, so the warm-up catches up only at the restore rate minus the arrival rate, and the probing rebalance moves the task once it has.",
            real: RealSystem {
                settings: [
                    "acceptable.recovery.lag",
                    "max.warmup.replicas",
                    "probing.rebalance.interval.ms",
                ]
                .iter()
                .map(|k| setting_from::<kstreams::Config>(k))
                .collect(),
                commands: vec![],
                classes: vec!["org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor".into()],
            },
        },
        24,
        warmup_log(true),
        vec![
            step("Records keep arriving", 0, &[C::Members], |c: &KCtx| {
                Said::new(format!(
                    "Instances a and b run the 4 stateful tasks of input, whose changelogs hold {} records each. A produce pattern sends {} records/s to input, so the changelogs keep growing. Add instance c.",
                    num(c.state.end_offset(kstreams::TaskId::new(0, 0)) as f64),
                    num(KS_RATE)
                ))
            })
            .ask("Add instance c"),
            step("Warm-ups on c", 1, &[C::Time], warmup_text).ask("Let 30 seconds pass"),
            step("Catching up", 2, &[C::Time], warmup_text),
            step("Still arriving", 3, &[C::Time], warmup_text),
            step("The probing rebalance", 5, &[C::Time], warmup_text),
            step("Play freely", 5, &[C::All], |_c: &KCtx| {
                Said::new(
                    "Raise the pattern's rate in the Produce patterns panel past the restore rate and add another instance. Its warm-ups then never catch up, and the tasks stay where they are.",
                )
            }),
        ],
    )
}

/// The workload lessons (each listed after the last lesson of its concept in [`super::all`]).
pub(super) fn lessons() -> Vec<Lesson> {
    vec![
        avg_shedder_jitter(),
        avg_shedder_high_jitter(),
        threshold_shedder_burst(),
        transfer_shedder_wave(),
        kstreams_warmup_under_load(),
    ]
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
    fn avg_shedder_high_threshold_needs_two_consecutive_hits_under_jitter() {
        let c = Ctx::<Sim>::replay(25, &avg_high_log(Some(HIGH_JITTER)), HIGH_ROUNDS).unwrap();
        let p = high_pairs(&c);
        // The pair sheds exactly once, in the first round whose difference and
        // the previous round's were both above the high threshold (read from
        // AvgShedder.findBundlesForUnloading's two counters).
        let first_two = p
            .windows(2)
            .find(|w| w[0].above_high() && w[1].above_high() && w[1].round == w[0].round + 1)
            .map(|w| w[1].round);
        let fired: Vec<u64> = p.iter().filter(|x| x.fired).map(|x| x.round).collect();
        assert_eq!(fired.first().copied(), first_two, "{p:?}");
        let f = p.iter().find(|x| x.fired).unwrap();
        assert_eq!((f.high_hits, f.high_needed), (2, 2));
        assert!(f.low_hits < f.low_needed, "the high rule fires first: {f:?}");
        // Before it, a round under the high threshold set the high count back.
        assert!(
            p.iter()
                .any(|x| x.round < f.round && !x.above_high() && x.high_hits == 0 && x.low_hits > 0),
            "the jitter breaks a run: {p:?}"
        );
        // A bundle moved from broker-1 to broker-2.
        assert!(c.events().any(|e| matches!(e, E::Unloaded { .. })));
        // Without the jitter the steady gap sheds on the second round.
        let steady = Ctx::<Sim>::replay(25, &avg_high_log(None), HIGH_ROUNDS).unwrap();
        let q = high_pairs(&steady);
        assert_eq!(q.iter().find(|x| x.fired).map(|x| x.round), Some(2), "{q:?}");
        let l = avg_shedder_high_jitter();
        let text = lesson_text(&l, 2);
        assert!(
            text.contains(&format!("The pair shed in round {}", f.round)),
            "{text}"
        );
    }

    #[test]
    fn transfer_shedder_rides_out_a_short_wave() {
        let c = Ctx::<Sim>::replay(23, &transfer_wave_log(transfer_wave()), TRANSFER_ROUNDS).unwrap();
        let rows = transfer_rounds(&c);
        assert!(rows.len() >= TRANSFER_ROUNDS / 2, "{rows:?}");
        let (lo, hi) = rows
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), r| (a.min(r.1), b.max(r.1)));
        assert!(hi - lo > 0.05, "the wave moves the std: {rows:?}");
        // A bundle moves only once the condition has held more than the
        // threshold; a crest that holds it no more than that is ridden out
        // (the next round under the target sets the count back to 0).
        let need = rows[0].4;
        assert!(rows.iter().filter(|r| r.5 > 0).all(|r| r.3 > need), "{rows:?}");
        assert!(
            rows.windows(2)
                .any(|w| w[0].3 == need && w[1].3 == 0 && w[0].5 == 0),
            "a crest ridden out: {rows:?}"
        );
        // The crest held steady (×1.6 all along) sheds once the count passes it.
        let steady = Ctx::<Sim>::replay(
            23,
            &transfer_wave_log(Shape::Burst {
                start_round: 0,
                rounds: TRANSFER_ROUNDS as u64,
                multiplier: 1.6,
            }),
            TRANSFER_ROUNDS,
        )
        .unwrap();
        let srows = transfer_rounds(&steady);
        let first = srows.iter().find(|r| r.5 > 0).map(|r| r.0);
        assert_eq!(first, Some(u64::from(need) + 1), "{srows:?}");
        let text = lesson_text(&transfer_shedder_wave(), 3);
        assert!(
            text.contains("against loadBalancerBrokerLoadTargetStd = 0.250"),
            "{text}"
        );
    }

    fn lesson_text(l: &Lesson, step: usize) -> String {
        l.render(step).unwrap().narration
    }

    #[test]
    fn kstreams_warmups_catch_up_later_while_records_arrive() {
        let run = |produce: bool| Ctx::<kstreams::Sim>::replay(24, &warmup_log(produce), 5).unwrap();
        let busy = run(true);
        let quiet = run(false);
        let b = caught_up(&busy);
        let q = caught_up(&quiet);
        assert!(!q.is_empty() && !b.is_empty(), "warm-ups catch up: {b:?} {q:?}");
        assert!(b[0].0 > q[0].0, "later with records arriving: {b:?} vs {q:?}");
        let after_join = Ctx::<kstreams::Sim>::replay(24, &warmup_log(true), 1).unwrap();
        assert!(!warmups_on_c(&after_join).is_empty(), "c gets warm-ups");
        let text = lesson_text(&kstreams_warmup_under_load(), 2);
        assert!(text.contains("records keep arriving"), "{text}");
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
