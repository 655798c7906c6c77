//! The differential test against Flink's own runtime (`make flink-diff`).
//!
//! `flink_diff_write_cases` writes job descriptions (the document's figures and
//! seeded random jobs) to `$LBSCOPE_FLINK_DIFF_DIR/cases.json`;
//! `tools/flink-diff/FlinkDiff.java` runs each on a Flink 2.3 MiniCluster and writes,
//! per run, the job graph Flink built and where every subtask landed (`flink.json`);
//! `flink_diff_compare` replays the same job graphs through lbscope and checks, per
//! level:
//! * topology: lbscope's topological order is Flink's;
//! * slot sharing: the subtasks sharing a slot are exactly Flink's (every run);
//! * tasks mode: where Flink gave one result in every run, lbscope gives it for every
//!   seed; otherwise each of Flink's results is one lbscope gives for some seed;
//! * default mode: each of Flink's results is one lbscope gives for some seed, and
//!   for cases with many runs the shares are reported side by side.
//!
//! Both tests are ignored unless asked for (they need the JDK and Flink's jar); the
//! summary goes to `$LBSCOPE_FLINK_DIFF_DIR/summary.txt`.

use lbscope::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use lbscope::engine::flink::seed_spread::{outcomes_over_seeds, Outcome};
use lbscope::engine::flink::{Action, Config, LoadBalanceMode, Sim};
use lbscope::engine::{Engine, SimRng};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Seeds lbscope's spread is counted over.
const SEEDS: u64 = 200;
/// Seeds for a job with many possible outcomes, when one of Flink's is not among the
/// first [`SEEDS`].
const MORE_SEEDS: u64 = 5000;
/// Random jobs, each run in both modes.
const RANDOM_JOBS: u64 = 30;

fn dir() -> PathBuf {
    PathBuf::from(std::env::var("LBSCOPE_FLINK_DIFF_DIR").expect("set LBSCOPE_FLINK_DIFF_DIR"))
}

fn vertex(name: &str, p: u32, group: Option<&str>) -> Value {
    match group {
        Some(g) => json!({"name": name, "parallelism": p, "slot_sharing_group": g}),
        None => json!({"name": name, "parallelism": p}),
    }
}

fn edge(from: &str, to: &str, pattern: &str) -> Value {
    json!({"from": from, "to": to, "pattern": pattern})
}

fn case(
    id: &str,
    tms: u32,
    slots: u32,
    mode: &str,
    runs: u32,
    vertices: Vec<Value>,
    edges: Vec<Value>,
) -> Value {
    json!({"id": id, "tms": tms, "slots": slots, "mode": mode, "runs": runs,
           "job": {"vertices": vertices, "edges": edges}})
}

fn figures() -> Vec<Value> {
    let a = || {
        (
            vec![vertex("JV-A", 6, None), vertex("JV-B", 3, None)],
            vec![edge("JV-A", "JV-B", "hash")],
        )
    };
    let c = || {
        (
            vec![
                vertex("JV-A", 1, None),
                vertex("JV-B", 4, None),
                vertex("JV-C", 4, None),
                vertex("JV-D", 2, None),
                vertex("JV-E", 3, None),
            ],
            vec![
                edge("JV-A", "JV-B", "hash"),
                edge("JV-B", "JV-C", "hash"),
                edge("JV-C", "JV-D", "hash"),
                edge("JV-D", "JV-E", "hash"),
            ],
        )
    };
    let mut out = Vec::new();
    let (v, e) = a();
    out.push(case("figure-a", 3, 2, "none", 40, v.clone(), e.clone()));
    out.push(case("figure-a-tasks", 3, 2, "tasks", 5, v, e));
    let (v, e) = c();
    out.push(case("figure-c", 2, 2, "none", 10, v.clone(), e.clone()));
    out.push(case("figure-c-tasks", 2, 2, "tasks", 5, v, e));
    out.push(case(
        "figure-a-rescale",
        3,
        2,
        "none",
        10,
        vec![vertex("JV-A", 6, None), vertex("JV-B", 3, None)],
        vec![edge("JV-A", "JV-B", "rescale")],
    ));
    out.push(case(
        "two-groups",
        3,
        2,
        "none",
        10,
        vec![
            vertex("S", 4, None),
            vertex("M", 4, None),
            vertex("K", 2, Some("heavy")),
        ],
        vec![edge("S", "M", "forward"), edge("M", "K", "hash")],
    ));
    out.push(case(
        "two-pipelines",
        2,
        3,
        "none",
        10,
        vec![
            vertex("A", 3, None),
            vertex("B", 2, None),
            vertex("C", 3, None),
            vertex("D", 1, None),
        ],
        vec![edge("A", "B", "rebalance"), edge("C", "D", "hash")],
    ));
    out
}

/// A random job and cluster: 2–5 vertices in a topological order, one or two sources,
/// one or two inputs per vertex (read as a union), forward / rescale / hash / rebalance
/// edges, sometimes a second slot sharing group; the cluster fits the job.
fn random_case(rng: &mut SimRng, k: u64) -> (u32, u32, Vec<Value>, Vec<Value>) {
    let tms = 2 + rng.below(3) as u32;
    let slots = 1 + rng.below(4) as u32;
    let total = tms * slots;
    let n = 2 + rng.below(4);
    let two_groups = rng.below(4) == 0;
    let mut par: Vec<u32> = (0..n).map(|_| 1 + rng.below(total as usize) as u32).collect();
    let group: Vec<Option<&str>> = (0..n)
        .map(|_| (two_groups && rng.below(2) == 0).then_some("g1"))
        .collect();
    // Fit: the slots needed are the widest vertex of each group, summed.
    let groups = if group.iter().any(Option::is_some) && group.iter().any(Option::is_none) {
        2
    } else {
        1
    };
    let cap = (total / groups).max(1);
    for p in &mut par {
        *p = (*p).min(cap);
    }
    let name = |i: usize| format!("V{i}");
    let mut edges: Vec<(usize, usize, &str)> = Vec::new();
    for i in 1..n {
        if i == 1 && rng.below(3) == 0 {
            continue; // a second source
        }
        let inputs = 1 + usize::from(i >= 2 && rng.below(4) == 0);
        let mut from: Vec<usize> = Vec::new();
        while from.len() < inputs {
            let f = rng.below(i);
            if !from.contains(&f) {
                from.push(f);
            }
        }
        for f in from {
            let pattern = if par[f] == par[i] && rng.below(2) == 0 {
                "forward"
            } else {
                ["rescale", "hash", "rebalance"][rng.below(3)]
            };
            edges.push((f, i, pattern));
        }
    }
    // Every source needs a consumer, or Flink leaves it out of the graph.
    for s in 0..n.min(2) {
        let has_in = edges.iter().any(|e| e.1 == s);
        let has_out = edges.iter().any(|e| e.0 == s);
        if !has_in && !has_out {
            let to = (s + 1..n)
                .find(|&t| !edges.iter().any(|e| e.0 == s && e.1 == t))
                .unwrap_or(n - 1);
            edges.push((s, to, "hash"));
        }
    }
    edges.sort_by_key(|e| (e.1, e.0));
    let _ = k;
    (
        tms,
        slots,
        (0..n).map(|i| vertex(&name(i), par[i], group[i])).collect(),
        edges
            .iter()
            .map(|&(f, t, p)| edge(&name(f), &name(t), p))
            .collect(),
    )
}

fn all_cases() -> Vec<Value> {
    let mut out = figures();
    let mut rng = SimRng::new(46);
    for k in 0..RANDOM_JOBS {
        let (tms, slots, v, e) = random_case(&mut rng, k);
        out.push(case(
            &format!("random-{k}"),
            tms,
            slots,
            "none",
            4,
            v.clone(),
            e.clone(),
        ));
        out.push(case(&format!("random-{k}-tasks"), tms, slots, "tasks", 3, v, e));
    }
    out
}

#[test]
#[ignore = "writes the cases for make flink-diff"]
fn flink_diff_write_cases() {
    let d = dir();
    std::fs::create_dir_all(&d).unwrap();
    let cases = all_cases();
    // Every case is a job lbscope accepts as it is written.
    for c in &cases {
        let spec: JobSpec = serde_json::from_value(c["job"].clone()).unwrap();
        let mut s = Sim::new(Config::default(), 0).unwrap();
        s.apply(&Action::DefineJob { job: spec }).unwrap();
    }
    std::fs::write(
        d.join("cases.json"),
        serde_json::to_string_pretty(&cases).unwrap(),
    )
    .unwrap();
}

/// The job graph Flink built, as lbscope's job: vertices in Flink's insertion order,
/// edges in each consumer's input order, POINTWISE as rescale and ALL_TO_ALL as hash.
fn spec_of(g: &Value) -> JobSpec {
    JobSpec {
        vertices: g["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| VertexSpec {
                slot_sharing_group: v["slot_sharing_group"].as_str().map(str::to_string),
                ..VertexSpec::new(
                    v["name"].as_str().unwrap(),
                    v["parallelism"].as_u64().unwrap() as u32,
                )
            })
            .collect(),
        edges: g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let p = match e["pattern"].as_str().unwrap() {
                    "POINTWISE" => P::Rescale,
                    _ => P::Hash,
                };
                EdgeSpec::new(e["from"].as_str().unwrap(), e["to"].as_str().unwrap(), p)
            })
            .collect(),
    }
}

fn actions(spec: &JobSpec, tms: u32, slots: u32) -> Vec<Action> {
    vec![
        Action::DefineJob { job: spec.clone() },
        Action::AddTaskManagers {
            count: tms,
            slots: Some(slots),
        },
        Action::Schedule,
    ]
}

type Groups = BTreeSet<BTreeSet<(String, u32)>>;

/// Flink's slot groups, and its tasks per TaskManager, largest first, with a 0 for
/// each of the `tms` TaskManagers that got nothing.
fn flink_groups(subtasks: &[Value], tms: u32) -> (Groups, Vec<u32>) {
    let mut by_slot: BTreeMap<String, BTreeSet<(String, u32)>> = BTreeMap::new();
    let mut by_tm: BTreeMap<String, u32> = BTreeMap::new();
    for s in subtasks {
        let v = s["vertex"].as_str().unwrap().to_string();
        let i = s["subtask"].as_u64().unwrap() as u32;
        by_slot
            .entry(s["slot"].as_str().unwrap().to_string())
            .or_default()
            .insert((v, i));
        *by_tm.entry(s["tm"].as_str().unwrap().to_string()).or_default() += 1;
    }
    let mut counts: Vec<u32> = by_tm.into_values().collect();
    counts.resize(counts.len().max(tms as usize), 0);
    counts.sort_unstable_by(|a, b| b.cmp(a));
    (by_slot.into_values().collect(), counts)
}

fn lbscope_groups(s: &Sim) -> Groups {
    let job = s.job().unwrap();
    let plan = s.plan().unwrap();
    let mut by_req: BTreeMap<u32, BTreeSet<(String, u32)>> = BTreeMap::new();
    for (v, reqs) in plan.request_of.iter().enumerate() {
        for (i, &r) in reqs.iter().enumerate() {
            by_req
                .entry(r)
                .or_default()
                .insert((job.vertices[v].name.clone(), i as u32));
        }
    }
    by_req.into_values().collect()
}

#[derive(Default)]
struct Level {
    checked: u32,
    agreed: u32,
    failures: Vec<String>,
}

impl Level {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if ok {
            self.agreed += 1;
        } else {
            self.failures.push(what());
        }
    }
}

fn show(o: &[u32]) -> String {
    format!("{o:?}")
}

#[test]
#[ignore = "compares with Flink's runtime: make flink-diff"]
fn flink_diff_compare() {
    let d = dir();
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(d.join("cases.json")).unwrap()).unwrap();
    let runs: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(d.join("flink.json")).unwrap()).unwrap();
    let mut topology = Level::default();
    let mut sharing = Level::default();
    let mut tasks = Level::default();
    let mut default = Level::default();
    let mut errors = Vec::new();
    let mut shares = Vec::new();
    let mut total_runs = 0;
    let mut total_ms = 0;
    for c in &cases {
        let id = c["id"].as_str().unwrap();
        let (tms, slots) = (
            c["tms"].as_u64().unwrap() as u32,
            c["slots"].as_u64().unwrap() as u32,
        );
        let mode = match c["mode"].as_str().unwrap() {
            "tasks" => LoadBalanceMode::Tasks,
            _ => LoadBalanceMode::None,
        };
        let config = Config::with_mode(mode);
        let mut flink_outcomes: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
        let mut spec = None;
        for r in runs.iter().filter(|r| r["id"] == id) {
            total_runs += 1;
            total_ms += r["ms"].as_u64().unwrap_or(0);
            if let Some(e) = r.get("error") {
                errors.push(format!("{id} run {}: {e}", r["run"]));
                continue;
            }
            let g = &r["job_graph"];
            let sp = spec_of(g);
            let mut s = Sim::new(config.clone(), 0).unwrap();
            for a in actions(&sp, tms, slots) {
                s.apply(&a)
                    .unwrap_or_else(|e| panic!("{id}: lbscope refused {a:?}: {e}"));
            }
            let job = s.job().unwrap();
            let ours: Vec<&str> = job
                .topological_order
                .iter()
                .map(|&i| job.vertices[i].name.as_str())
                .collect();
            let theirs: Vec<&str> = g["topological_order"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            topology.check(ours == theirs, || {
                format!("{id}: topological order {ours:?}, Flink {theirs:?}")
            });
            let (fg, counts) = flink_groups(r["subtasks"].as_array().unwrap(), tms);
            let lg = lbscope_groups(&s);
            sharing.check(fg == lg, || {
                format!("{id} run {}: slots {lg:?}, Flink {fg:?}", r["run"])
            });
            *flink_outcomes.entry(counts).or_default() += 1;
            spec = Some(sp);
        }
        let Some(spec) = spec else { continue };
        let acts = actions(&spec, tms, slots);
        let mut ours: Vec<Outcome> = outcomes_over_seeds(&config, acts.iter(), 0..SEEDS).unwrap();
        let mut seeds = SEEDS;
        // Wide jobs have many possible outcomes: look further before calling one missing.
        let missing = |ours: &[Outcome]| {
            flink_outcomes
                .keys()
                .any(|o| !ours.iter().any(|x| &x.tasks_per_tm == o))
        };
        if missing(&ours) && ours.len() >= 10 {
            seeds = MORE_SEEDS;
            ours = outcomes_over_seeds(&config, acts.iter(), 0..seeds).unwrap();
        }
        let ours_has = |o: &[u32]| ours.iter().any(|x| x.tasks_per_tm == o);
        let n_runs: u32 = flink_outcomes.values().sum();
        let level = if mode == LoadBalanceMode::Tasks {
            &mut tasks
        } else {
            &mut default
        };
        if mode == LoadBalanceMode::Tasks && flink_outcomes.len() == 1 {
            let only = flink_outcomes.keys().next().unwrap().clone();
            level.check(ours.len() == 1 && ours[0].tasks_per_tm == only, || {
                format!(
                    "{id}: Flink always {}, lbscope {:?}",
                    show(&only),
                    describe_all(&ours)
                )
            });
        } else {
            for o in flink_outcomes.keys() {
                level.check(ours_has(o), || {
                    format!(
                        "{id}: Flink gave {}, lbscope never over {seeds} seeds ({})",
                        show(o),
                        describe_all(&ours)
                    )
                });
            }
        }
        if n_runs >= 10 && mode == LoadBalanceMode::None {
            let mut line = format!("{id} ({n_runs} Flink runs, {SEEDS} lbscope seeds):");
            let keys: BTreeSet<Vec<u32>> = flink_outcomes
                .keys()
                .cloned()
                .chain(ours.iter().map(|o| o.tasks_per_tm.clone()))
                .collect();
            for k in keys {
                let f = f64::from(flink_outcomes.get(&k).copied().unwrap_or(0)) / f64::from(n_runs);
                let l = f64::from(ours.iter().find(|o| o.tasks_per_tm == k).map_or(0, |o| o.seeds))
                    / SEEDS as f64;
                line.push_str(&format!(
                    " {} Flink {:.0} % / lbscope {:.0} %;",
                    show(&k),
                    f * 100.0,
                    l * 100.0
                ));
            }
            shares.push(line);
        }
    }
    let level_line = |name: &str, l: &Level| format!("{name}: {} of {} agree", l.agreed, l.checked);
    let mut summary = vec![
        format!(
            "{} cases, {total_runs} Flink 2.3.0 MiniCluster runs ({} ms of job time), {} runs failed",
            cases.len(),
            total_ms,
            errors.len()
        ),
        level_line("topological order (per run)", &topology),
        level_line("slot sharing, exact (per run)", &sharing),
        level_line("tasks-mode per-TaskManager counts (per case/outcome)", &tasks),
        level_line(
            "default-mode outcomes among lbscope's (per case/outcome)",
            &default,
        ),
    ];
    summary.extend(shares);
    for l in [&topology, &sharing, &tasks, &default] {
        summary.extend(l.failures.iter().map(|f| format!("DIFFERS {f}")));
    }
    summary.extend(errors.iter().map(|e| format!("FLINK ERROR {e}")));
    let text = summary.join("\n");
    std::fs::write(d.join("summary.txt"), format!("{text}\n")).unwrap();
    println!("{text}");
    assert!(errors.is_empty(), "{text}");
    for l in [&topology, &sharing, &tasks, &default] {
        assert!(l.failures.is_empty(), "{text}");
        assert!(l.checked > 0, "{text}");
    }
}

fn describe_all(o: &[Outcome]) -> String {
    lbscope::engine::flink::seed_spread::describe(o)
}
