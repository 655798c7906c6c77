//! The engine benchmarks (native only): builds each scenario through the
//! engines' public actions, warms up, times N iterations and reports median /
//! p90 / min per operation, the scaling ratios, and peak memory.
//!
//! What one iteration measures:
//! * Pulsar: one `Action::Step` (report, split check, shedding, placement of
//!   everything unloaded, metrics) on the live state, over **consecutive
//!   rounds** after a warm-up: every round sees the state the previous round
//!   left (as in the playground's play button).
//! * Flink: one `Action::Schedule` (both phases) on a **fresh clone** of the
//!   state with the job defined and the TaskManagers registered (the clone is
//!   not timed).
//! * Kafka Streams: one `Action::Rebalance` on a **fresh clone** of the state
//!   after the topology's first rebalance (the clone is not timed).
//!
//! Used by `lbscope bench` and by `cargo bench` (benches/engine.rs); the
//! figures are printed, never asserted.

use crate::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
use crate::engine::kstreams::SubtopologySpec;
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::{flink, kstreams, pulsar, Engine};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// Timing statistics of one operation, in milliseconds.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Iterations timed.
    pub iterations: usize,
    /// Median.
    pub median_ms: f64,
    /// 90th percentile (nearest rank).
    pub p90_ms: f64,
    /// Fastest.
    pub min_ms: f64,
}

impl Stats {
    /// Statistics of a set of samples (ms).
    pub fn of(mut samples: Vec<f64>) -> Stats {
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        if n == 0 {
            return Stats {
                iterations: 0,
                median_ms: f64::NAN,
                p90_ms: f64::NAN,
                min_ms: f64::NAN,
            };
        }
        let median = if n % 2 == 1 {
            samples[n / 2]
        } else {
            (samples[n / 2 - 1] + samples[n / 2]) / 2.0
        };
        let p90 = samples[((n * 9).div_ceil(10)).clamp(1, n) - 1];
        Stats {
            iterations: n,
            median_ms: median,
            p90_ms: p90,
            min_ms: samples[0],
        }
    }
}

/// A target a figure is checked against.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "kind", content = "max", rename_all = "snake_case")]
pub enum Target {
    /// Median at most this many milliseconds.
    MaxMs(f64),
    /// Ratio at most this.
    MaxRatio(f64),
}

impl Target {
    fn text(self) -> String {
        match self {
            Target::MaxMs(m) => format!("<= {m} ms"),
            Target::MaxRatio(r) => format!("<= {r}x"),
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// What was measured.
    pub name: String,
    /// Timing (absent for ratios and memory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// The value compared with the target: median ms, a ratio, or MiB.
    pub value: f64,
    /// Unit of `value`: `ms`, `x` or `MiB`.
    pub unit: &'static str,
    /// The figure's target, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// Whether the target is met (absent without a target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<bool>,
    /// Setup time of the scenario (not timed as part of the figure), ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup_ms: Option<f64>,
    /// Peak resident memory while this scenario ran, MiB (Linux only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_mib: Option<f64>,
}

impl Row {
    fn timed(name: String, stats: Stats, target: Option<Target>, setup_ms: f64, peak: Option<f64>) -> Row {
        let value = stats.median_ms;
        Row {
            pass: target.map(|t| check(t, value)),
            name,
            stats: Some(stats),
            value,
            unit: "ms",
            target,
            setup_ms: Some(setup_ms),
            peak_rss_mib: peak,
        }
    }
}

fn check(t: Target, v: f64) -> bool {
    match t {
        Target::MaxMs(m) | Target::MaxRatio(m) => v <= m,
    }
}

/// Everything one benchmark run printed.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `quick` or `full`.
    pub mode: &'static str,
    /// `release` or `debug` build.
    pub build: &'static str,
    /// Logical CPUs.
    pub cpus: usize,
    /// CPU model (from /proc/cpuinfo), if known.
    pub cpu_model: Option<String>,
    /// The figures.
    pub rows: Vec<Row>,
    /// Peak resident memory of the whole process (VmHWM), MiB.
    pub peak_rss_mib: Option<f64>,
}

/// Peak resident set size of this process so far, MiB (Linux `VmHWM`).
pub fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Reset the peak-RSS mark to the current RSS (Linux: `echo 5 > /proc/self/clear_refs`).
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn cpu_model() -> Option<String> {
    let s = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let l = s.lines().find(|l| l.starts_with("model name"))?;
    Some(l.split_once(':')?.1.trim().to_string())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Time `op` `iters` times after `warmup` untimed runs.
fn sample(warmup: usize, iters: usize, mut op: impl FnMut() -> f64) -> Stats {
    for _ in 0..warmup {
        op();
    }
    Stats::of((0..iters).map(|_| op()).collect())
}

// ---------------------------------------------------------------- Sweeps

/// Rounds appended to a swept scenario.
const SWEEP_ROUNDS: usize = 10;

/// One sweep of `plan` on every core, timed; ms.
fn time_sweep(plan: &crate::scenario::sweep::Plan) -> f64 {
    let t = Instant::now();
    let s = crate::scenario::sweep::sweep(plan, crate::scenario::sweep::available_threads())
        .expect("the benchmark sweep runs");
    let d = ms(t);
    assert!(
        s.variants[0].refused.is_empty(),
        "no run of the benchmark sweep is refused"
    );
    d
}

/// A sweep plan of `sc` (its whole log, then [`SWEEP_ROUNDS`] rounds) over seeds `1..=seeds`.
fn sweep_plan(mut sc: crate::scenario::Scenario, seeds: u64) -> crate::scenario::sweep::Plan {
    sc.cursor = None;
    sc.push_rounds(SWEEP_ROUNDS);
    crate::scenario::sweep::Plan {
        scenario: sc,
        seeds: (1..=seeds).collect(),
        variants: crate::scenario::sweep::parse_variants(&[], &[]).expect("no setting is valid"),
        settle: Default::default(),
    }
}

/// `lbscope sweep pulsar-threshold-shedder --seeds 1000 --rounds 10`: (stats, setup ms).
pub fn sweep_doc_example(warmup: usize, iters: usize) -> (Stats, f64) {
    let t = Instant::now();
    let sc = crate::gallery::example("pulsar-threshold-shedder")
        .expect("the example exists")
        .scenario();
    let plan = sweep_plan(sc, 1000);
    let setup = ms(t);
    (sample(warmup, iters, || time_sweep(&plan)), setup)
}

/// 200 brokers, 20,000 topics on 2,048 bundles, `seeds` seeds: (stats of one sweep, setup ms).
pub fn sweep_large(seeds: u64) -> (Stats, f64) {
    let t = Instant::now();
    let mut sc = pulsar_scenario(200, 20_000, 2048);
    // The benchmark cluster's traffic keeps 1,000 brokers half loaded: a fifth of it
    // keeps 200 so.
    if let crate::scenario::Body::Pulsar(log) = &mut sc.body {
        for a in &mut log.setup {
            if let pulsar::Action::CreateTopics { traffic, .. }
            | pulsar::Action::SetTopicTraffic { traffic, .. } = a
            {
                *traffic = Traffic {
                    msg_rate_in: traffic.msg_rate_in * 0.2,
                    msg_rate_out: traffic.msg_rate_out * 0.2,
                    throughput_in: traffic.throughput_in * 0.2,
                    throughput_out: traffic.throughput_out * 0.2,
                    ..*traffic
                };
            }
        }
    }
    let plan = sweep_plan(sc, seeds);
    let setup = ms(t);
    (sample(0, 1, || time_sweep(&plan)), setup)
}

// ---------------------------------------------------------------- Pulsar

/// The Pulsar namespace of the benchmark.
pub const PULSAR_NS: &str = "bench/ns";

/// A Pulsar cluster: `brokers` brokers (default capacity), one namespace of
/// `bundles` bundles, `topics` topics in 8 batches of different traffic (the
/// total traffic is the same at every size, so the cluster is equally loaded),
/// and 50 hot topics at 50x. Built through public actions only.
pub fn pulsar_cluster(brokers: u32, topics: u32, bundles: u32) -> pulsar::Sim {
    let mut s = pulsar::Sim::new(
        pulsar::Config::profile(pulsar::config::Profile::Pulsar4),
        PULSAR_SEED,
    )
    .expect("default config");
    for a in pulsar_setup(brokers, topics, bundles) {
        s.apply(&a).expect("benchmark setup action refused");
    }
    s
}

/// Seed of the Pulsar benchmark cluster.
pub const PULSAR_SEED: u64 = 42;

/// The same cluster as a scenario (for the in-browser benchmark): replaying its
/// setup gives exactly [`pulsar_cluster`]'s state.
pub fn pulsar_scenario(brokers: u32, topics: u32, bundles: u32) -> crate::scenario::Scenario {
    let mut sc = crate::scenario::Scenario::empty(crate::engine::System::Pulsar, PULSAR_SEED);
    sc.body = crate::scenario::Body::Pulsar(crate::scenario::Log {
        config: pulsar::Config::profile(pulsar::config::Profile::Pulsar4),
        setup: pulsar_setup(brokers, topics, bundles),
        actions: Vec::new(),
    });
    sc
}

/// The actions that build the Pulsar benchmark cluster.
pub fn pulsar_setup(brokers: u32, topics: u32, bundles: u32) -> Vec<pulsar::Action> {
    use pulsar::Action as A;
    let mut out = Vec::new();
    let mut ok = |a: A| out.push(a);
    for i in 0..brokers {
        ok(A::AddBroker {
            broker: format!("broker-{i:04}"),
            capacity: Default::default(),
        });
    }
    ok(A::CreateNamespace {
        namespace: PULSAR_NS.into(),
        bundles: Some(bundles),
    });
    // 200k topics at ~2 000 msg/s and ~0.5 MiB/s on average keep 1 000 default
    // brokers around half loaded; smaller or larger sizes scale per-topic traffic.
    let per = 200_000.0 / f64::from(topics.max(1));
    let batches = 8u32;
    for b in 0..batches {
        let count = topics / batches + u32::from(b < topics % batches);
        let k = f64::from(b + 1) / 4.5;
        let traffic = Traffic {
            msg_rate_in: 1000.0 * k * per,
            msg_rate_out: 1000.0 * k * per,
            throughput_in: 256.0 * 1024.0 * k * per,
            throughput_out: 256.0 * 1024.0 * k * per,
            producers: 1,
            consumers: 1,
        };
        // CreateTopics takes at most MAX_BULK_TOPICS per action.
        let mut done = 0;
        let mut part = 0;
        while done < count {
            let n = (count - done).min(pulsar::MAX_BULK_TOPICS);
            ok(A::CreateTopics {
                namespace: PULSAR_NS.into(),
                prefix: format!("b{b}p{part}"),
                count: n,
                traffic,
            });
            done += n;
            part += 1;
        }
    }
    for i in 0..50u32.min(topics / batches) {
        let hot = 50.0 * 1000.0 * per;
        ok(A::SetTopicTraffic {
            topic: format!("{PULSAR_NS}/b0p0-{i}"),
            traffic: Traffic {
                msg_rate_in: hot,
                msg_rate_out: hot,
                throughput_in: hot * 256.0,
                throughput_out: hot * 256.0,
                producers: 2,
                consumers: 2,
            },
        });
    }
    out
}

fn pulsar_rounds(topics: u32, warmup: usize, iters: usize) -> (Stats, f64, Option<f64>) {
    let reset = reset_peak_rss();
    let t = Instant::now();
    let mut s = pulsar_cluster(1000, topics, 16_384);
    let setup = ms(t);
    let stats = sample(warmup, iters, || {
        let t = Instant::now();
        let ev = s.apply(&pulsar::Action::Step).expect("Step is never refused");
        let d = ms(t);
        drop(ev);
        d
    });
    let peak = if reset { peak_rss_mib() } else { None };
    drop(s);
    (stats, setup, peak)
}

/// Rounds of the big cluster where every topic's traffic changes every round:
/// one workload pattern of ±10 % jitter on every topic. Besides the whole
/// round, each [`pulsar::Phase`]'s share of it (the phases of the same rounds).
fn pulsar_jitter_rounds(
    topics: u32,
    warmup: usize,
    iters: usize,
) -> (Stats, f64, Vec<(pulsar::Phase, Stats)>) {
    let t = Instant::now();
    let mut s = pulsar_jitter_cluster(topics);
    let setup = ms(t);
    let mut phases: Vec<Vec<f64>> = vec![Vec::new(); pulsar::Phase::ALL.len()];
    let mut totals = Vec::with_capacity(iters);
    for i in 0..warmup + iters {
        let mut at = Instant::now();
        let start = at;
        let mut marks = [0.0f64; pulsar::Phase::ALL.len()];
        let ev = s.step_marked(|p| {
            let now = Instant::now();
            marks[p as usize] = (now - at).as_secs_f64() * 1000.0;
            at = now;
        });
        let d = ms(start);
        drop(ev);
        if i >= warmup {
            for (v, m) in phases.iter_mut().zip(marks) {
                v.push(m);
            }
            totals.push(d);
        }
    }
    let total = Stats::of(totals);
    let per = pulsar::Phase::ALL
        .into_iter()
        .zip(phases)
        .map(|(p, v)| (p, Stats::of(v)))
        .collect();
    (total, setup, per)
}

/// The benchmark cluster with ±10 % jitter on every topic.
pub fn pulsar_jitter_cluster(topics: u32) -> pulsar::Sim {
    let mut s = pulsar_cluster(1000, topics, 16_384);
    s.apply(&pulsar::Action::AddWorkload {
        pattern: pulsar::workload::Pattern {
            target: pulsar::workload::Target::All,
            shape: pulsar::workload::Shape::Jitter { percent: 10.0 },
        },
    })
    .expect("a jitter pattern is accepted");
    s
}

// ---------------------------------------------------------------- Flink

/// The 20-vertex benchmark job: parallelism up to 1 600, forward / rescale / hash edges.
pub fn flink_job() -> JobSpec {
    let ps = [
        1600, 800, 1600, 400, 1600, 1200, 1600, 100, 1600, 1600, 320, 1600, 1600, 50, 1600, 1000, 1600, 1600,
        8, 1600,
    ];
    let vertices = ps
        .iter()
        .enumerate()
        .map(|(i, &p)| VertexSpec::new(&format!("V{i}"), p))
        .collect();
    let edges = (1..ps.len())
        .map(|i| {
            let pattern = if ps[i] == ps[i - 1] {
                DistributionPattern::Forward
            } else if i % 2 == 0 {
                DistributionPattern::Rescale
            } else {
                DistributionPattern::Hash
            };
            EdgeSpec::new(&format!("V{}", i - 1), &format!("V{i}"), pattern)
        })
        .collect();
    JobSpec { vertices, edges }
}

/// 100 TaskManagers x 16 slots with the job defined, not yet scheduled.
pub fn flink_cluster(mode: flink::LoadBalanceMode) -> flink::Sim {
    let mut s = flink::Sim::new(flink::Config::with_mode(mode), 1).expect("config");
    s.apply(&flink::Action::DefineJob { job: flink_job() })
        .expect("job");
    s.apply(&flink::Action::AddTaskManagers {
        count: 100,
        slots: Some(16),
    })
    .expect("task managers");
    s
}

fn flink_schedule(mode: flink::LoadBalanceMode, warmup: usize, iters: usize) -> (Stats, f64) {
    let t = Instant::now();
    let base = flink_cluster(mode);
    let setup = ms(t);
    let stats = sample(warmup, iters, || {
        let mut s = base.clone();
        let t = Instant::now();
        let ev = s.apply(&flink::Action::Schedule).expect("schedule");
        let d = ms(t);
        assert_eq!(s.status(), flink::JobStatus::Running);
        drop(ev);
        d
    });
    (stats, setup)
}

// ---------------------------------------------------------------- Kafka Streams

/// 100 instances x 8 threads on 3 racks, a 5 000-partition input on the same
/// racks, one stateful sub-topology (5 000 tasks), 2 standbys, rack-aware
/// min_traffic; the topology's first rebalance has run.
pub fn kstreams_cluster() -> kstreams::Sim {
    use kstreams::Action as A;
    let cfg = kstreams::Config {
        num_standby_replicas: 2,
        rack_aware_assignment_strategy: kstreams::RackStrategy::MinTraffic,
        ..kstreams::Config::default()
    };
    let mut s = kstreams::Sim::new(cfg, 9).expect("config");
    let racks: Vec<String> = (0..3).map(|r| format!("rack-{r}")).collect();
    for i in 0..100 {
        s.apply(&A::AddInstance {
            name: format!("app-{i:03}"),
            threads: Some(8),
            rack: Some(racks[i % 3].clone()),
            tags: BTreeMap::new(),
            process_id: None,
        })
        .expect("instance");
    }
    s.apply(&A::DefineTopic {
        topic: "in".into(),
        partitions: 5000,
        racks: racks.clone(),
        replication_factor: 1,
    })
    .expect("topic");
    s.apply(&A::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: vec!["in".into()],
            stores: vec!["agg".into()],
            changelog: true,
        }],
        copartition_groups: vec![],
    })
    .expect("topology");
    s
}

fn kstreams_rebalance(warmup: usize, iters: usize) -> (Stats, f64) {
    let t = Instant::now();
    let base = kstreams_cluster();
    let setup = ms(t);
    let stats = sample(warmup, iters, || {
        let mut s = base.clone();
        let t = Instant::now();
        let ev = s.apply(&kstreams::Action::Rebalance).expect("rebalance");
        let d = ms(t);
        drop(ev);
        d
    });
    (stats, setup)
}

// ---------------------------------------------------------------- the run

/// Run every benchmark. Full: 201 Pulsar rounds (41 at 2M topics), 41 Flink
/// schedules, 21 rebalances; `quick`: 7 / 3 / 7 / 5.
pub fn run(quick: bool, mut progress: impl FnMut(&str)) -> Report {
    let (w, n) = if quick { (2, 7) } else { (5, 41) };
    let mut rows = Vec::new();

    let mut pulsar = Vec::new();
    for (topics, label) in [(20_000u32, "20k"), (200_000, "200k"), (2_000_000, "2M")] {
        progress(&format!("pulsar {label} topics"));
        // Many rounds: on a shared machine bursts of other work hit some of them.
        let (wu, it) = match (quick, topics >= 2_000_000) {
            (true, true) => (1, 3),
            (true, false) => (w, n),
            (false, true) => (5, 41),
            (false, false) => (10, 201),
        };
        let (stats, setup, peak) = pulsar_rounds(topics, wu, it);
        let target = (topics == 200_000).then_some(Target::MaxMs(5.0));
        pulsar.push(stats.median_ms);
        rows.push(Row::timed(
            format!("pulsar Step: 1000 brokers, {label} topics, 16384 bundles"),
            stats,
            target,
            setup,
            peak,
        ));
    }
    // The honest worst case beside each static round: every topic's traffic
    // changes every round (±10 % jitter on all topics).
    let mut jitter = Vec::new();
    for (topics, label) in [(20_000u32, "20k"), (200_000, "200k"), (2_000_000, "2M")] {
        progress(&format!("pulsar {label} topics, jitter on every topic"));
        let (wu, it) = match (quick, topics >= 2_000_000) {
            (true, true) => (1, 3),
            (true, false) => (w, n),
            (false, true) => (3, 21),
            (false, false) => (5, 101),
        };
        let (stats, setup, phases) = pulsar_jitter_rounds(topics, wu, it);
        jitter.push(stats.median_ms);
        rows.push(Row::timed(
            format!("pulsar Step, every topic's traffic changing (jitter ±10 %): 1000 brokers, {label} topics, 16384 bundles"),
            stats,
            (topics == 200_000).then_some(Target::MaxMs(5.0)),
            setup,
            None,
        ));
        // Where the round's time goes (medians of each phase over the same rounds).
        for (p, st) in phases {
            rows.push(Row {
                name: format!("  phase {} ({label}, jitter)", p.name()),
                value: st.median_ms,
                stats: Some(st),
                unit: "ms",
                target: None,
                pass: None,
                setup_ms: None,
                peak_rss_mib: None,
            });
        }
    }
    for (medians, what) in [(&pulsar, ""), (&jitter, ", traffic changing")] {
        for (i, label) in [(0, "20k -> 200k"), (1, "200k -> 2M")] {
            let r = medians[i + 1] / medians[i];
            let t = Target::MaxRatio(12.0);
            rows.push(Row {
                name: format!("pulsar scaling {label} topics{what} (median ratio)"),
                stats: None,
                value: r,
                unit: "x",
                target: Some(t),
                pass: Some(check(t, r)),
                setup_ms: None,
                peak_rss_mib: None,
            });
        }
    }

    for mode in [
        flink::LoadBalanceMode::None,
        flink::LoadBalanceMode::Slots,
        flink::LoadBalanceMode::Tasks,
    ] {
        progress(&format!("flink {mode:?}"));
        let (stats, setup) = flink_schedule(mode, w, n);
        rows.push(Row::timed(
            format!("flink Schedule ({mode:?}): 100 TMs x 16 slots, 20 vertices, p <= 1600"),
            stats,
            Some(Target::MaxMs(10.0)),
            setup,
            None,
        ));
    }

    progress("kstreams");
    let (stats, setup) = kstreams_rebalance(w.min(3), if quick { 5 } else { 21 });
    rows.push(Row::timed(
        "kstreams Rebalance: 100 instances x 8 threads, 5000 tasks, 2 standbys, rack min_traffic".into(),
        stats,
        Some(Target::MaxMs(50.0)),
        setup,
        None,
    ));

    progress("sweep");
    let threads = crate::scenario::sweep::available_threads();
    let (stats, setup) = sweep_doc_example(if quick { 1 } else { 2 }, if quick { 3 } else { 9 });
    rows.push(Row::timed(
        format!("sweep: 1,000 seeds of the pulsar-threshold-shedder example + {SWEEP_ROUNDS} rounds, {threads} threads"),
        stats,
        Some(Target::MaxMs(1000.0)),
        setup,
        None,
    ));
    let (stats, setup) = sweep_large(if quick { 20 } else { 100 });
    rows.push(Row::timed(
        format!(
            "sweep: {} seeds of 200 brokers, 20k topics, 2048 bundles + {SWEEP_ROUNDS} rounds, {threads} threads",
            if quick { 20 } else { 100 }
        ),
        stats,
        (!quick).then_some(Target::MaxMs(60_000.0)),
        setup,
        None,
    ));

    Report {
        mode: if quick { "quick" } else { "full" },
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model: cpu_model(),
        rows,
        peak_rss_mib: peak_rss_mib(),
    }
}

/// The report as a plain-text table.
pub fn to_text(r: &Report) -> String {
    let mut out = format!(
        "lbscope bench ({} build, {} run; {} CPUs{})\n",
        r.build,
        r.mode,
        r.cpus,
        r.cpu_model.as_ref().map_or(String::new(), |m| format!(", {m}"))
    );
    let w = r.rows.iter().map(|x| x.name.len()).max().unwrap_or(10);
    out.push_str(&format!(
        "{:<w$}  {:>10}  {:>10}  {:>10}  {:>5}  {:>10}  {:>4}  {:>10}  {:>9}\n",
        "figure", "median", "p90", "min", "n", "target", "", "setup ms", "peak MiB"
    ));
    for x in &r.rows {
        let (p90, min, n) = x
            .stats
            .as_ref()
            .map_or((String::new(), String::new(), String::new()), |s| {
                (
                    format!("{:.3}", s.p90_ms),
                    format!("{:.3}", s.min_ms),
                    s.iterations.to_string(),
                )
            });
        let value = match x.unit {
            "x" => format!("{:.2}x", x.value),
            u => format!("{:.3} {u}", x.value),
        };
        out.push_str(&format!(
            "{:<w$}  {:>10}  {:>10}  {:>10}  {:>5}  {:>10}  {:>4}  {:>10}  {:>9}\n",
            x.name,
            value,
            p90,
            min,
            n,
            x.target.map_or(String::new(), Target::text),
            x.pass.map_or("", |p| if p { "PASS" } else { "MISS" }),
            x.setup_ms.map_or(String::new(), |s| format!("{s:.0}")),
            x.peak_rss_mib.map_or(String::new(), |m| format!("{m:.0}")),
        ));
    }
    if let Some(m) = r.peak_rss_mib {
        out.push_str(&format!("peak RSS of the process (VmHWM): {m:.0} MiB\n"));
    }
    out.push_str(
        "Pulsar: consecutive Steps on one live state after warm-up; Flink / Kafka Streams: one action on a fresh clone per iteration (clone not timed).\n",
    );
    out
}

/// The report as pretty JSON.
pub fn to_json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_default() + "\n"
}

/// Native figures for the in-browser comparison: build the Pulsar benchmark
/// cluster from its scenario (as the browser does), then time `rounds` Steps after
/// `warmup` ones. Returns (setup ms, stats).
pub fn pulsar_scenario_rounds(
    sc: &crate::scenario::Scenario,
    warmup: usize,
    rounds: usize,
) -> Result<(f64, Stats), String> {
    let crate::scenario::Body::Pulsar(log) = &sc.body else {
        return Err("the browser benchmark scenario is a Pulsar one".into());
    };
    let t = Instant::now();
    let mut s = crate::scenario::replay::<pulsar::Sim>(sc.seed, log, None)
        .map_err(|e| e.to_string())?
        .state;
    let setup = ms(t);
    let stats = sample(warmup, rounds, || {
        let t = Instant::now();
        let ev = s.apply(&pulsar::Action::Step).expect("Step is never refused");
        let d = ms(t);
        drop(ev);
        d
    });
    Ok((setup, stats))
}

/// The same rounds as the page times them: the scenario opened in the playground's
/// store, then `rounds` Step presses after `warmup` ones, each timed around
/// `Store::reduce(Msg::StepActive)` (the engine's Step, the session's record of its
/// events and snapshots, the lesson's follow-up), the call the page's reducer
/// measures for `window.lbscopeRoundMs`. The store a round replaces is dropped
/// outside the timing, as the page drops it after the reducer returns.
pub fn pulsar_scenario_store_rounds(
    sc: &crate::scenario::Scenario,
    warmup: usize,
    rounds: usize,
) -> Result<Stats, String> {
    use crate::playground::{Msg, Notice, Store};
    let mut store = Store::fresh();
    store.open(sc.clone());
    if let Some(Notice::Error(e)) = &store.notice {
        return Err(e.clone());
    }
    Ok(sample(warmup, rounds, || {
        let t = Instant::now();
        let next = store.reduce(Msg::StepActive);
        let d = ms(t);
        store = next;
        d
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_scenario_builds_the_benchmark_cluster() {
        let sc = pulsar_scenario(7, 500, 64);
        let crate::scenario::Body::Pulsar(log) = &sc.body else {
            unreachable!()
        };
        let replayed = crate::scenario::replay::<pulsar::Sim>(sc.seed, log, None)
            .unwrap()
            .state;
        assert_eq!(
            format!("{replayed:?}"),
            format!("{:?}", pulsar_cluster(7, 500, 64))
        );
        let (_, stats) = pulsar_scenario_rounds(&sc, 1, 3).unwrap();
        assert_eq!(stats.iterations, 3);
        let page = pulsar_scenario_store_rounds(&sc, 1, 3).unwrap();
        assert_eq!(page.iterations, 3);
        assert!(page.median_ms.is_finite() && page.min_ms <= page.median_ms);
    }

    #[test]
    fn a_scenario_the_page_cannot_open_is_reported_not_timed() {
        let mut sc = pulsar_scenario(7, 50, 8);
        let crate::scenario::Body::Pulsar(log) = &mut sc.body else {
            unreachable!()
        };
        log.actions.push(pulsar::Action::CrashBroker {
            broker: "no-such-broker:8080".into(),
        });
        let e = pulsar_scenario_store_rounds(&sc, 1, 3).unwrap_err();
        assert!(e.contains("Could not open the scenario"), "{e}");
        assert!(pulsar_scenario_rounds(&sc, 1, 3).is_err());
    }

    #[test]
    fn stats_median_p90_min() {
        let s = Stats::of((1..=10).map(f64::from).rev().collect());
        assert_eq!(s.iterations, 10);
        assert_eq!(s.median_ms, 5.5);
        assert_eq!(s.p90_ms, 9.0);
        assert_eq!(s.min_ms, 1.0);
    }

    #[test]
    fn small_pulsar_cluster_builds_and_steps() {
        let mut s = pulsar_cluster(4, 800, 16);
        assert_eq!(s.bundles().len(), 16);
        s.apply(&pulsar::Action::Step).unwrap();
        assert_eq!(s.round(), 1);
    }
}
