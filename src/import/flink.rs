//! Flink: one job graph (from the execution plan after lbscope chains it, or
//! from the REST plan) and the TaskManagers (from `--task-managers N --slots S`
//! or `/taskmanagers`) become `define_job`, `add_task_manager(s)` and one
//! `schedule` in the log.
//!
//! Ship strategies map onto lbscope's edge kinds as Flink maps partitioners onto
//! distribution patterns (`StreamPartitioner#isPointwise`): `FORWARD` is a forward
//! edge, `RESCALE` a pointwise (rescale) edge, and every other partitioner
//! (`HASH`, `REBALANCE`, `BROADCAST`, `SHUFFLE`, `GLOBAL`, `CUSTOM`, …) is
//! all-to-all, which lbscope calls hash.

use super::flink_plan::{self, JobGraph};
use super::{clean_name, flink_rest, json, shorten, ImportError, Input, InputKind, Notes, Options};
use crate::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec, MAX_VERTICES};
use crate::engine::flink::task_manager::{MAX_SLOTS_PER_TASK_MANAGER, MAX_TASK_MANAGERS};
use crate::engine::flink::{self};
use crate::engine::System;
use crate::scenario::{Body, Scenario};
use std::collections::{BTreeMap, BTreeSet};

/// Longest vertex name kept (Flink SQL names can run to kilobytes).
pub const MAX_VERTEX_NAME: usize = 200;

/// lbscope's edge kind for a Flink ship strategy.
pub fn pattern_of(strategy: &str) -> DistributionPattern {
    let s = strategy.trim().to_ascii_uppercase();
    if s == "FORWARD" {
        DistributionPattern::Forward
    } else if s == "RESCALE" {
        DistributionPattern::Rescale
    } else {
        DistributionPattern::Hash
    }
}

/// Names made safe, short and unique (a suffix ` #2`, ` #3` … on repeats).
fn unique_names(g: &JobGraph, input: &str, notes: &mut Notes) -> Vec<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut cut = 0;
    let mut cleaned = 0;
    let mut dup = 0;
    let mut out = Vec::with_capacity(g.vertices.len());
    for v in &g.vertices {
        let (c, changed) = clean_name(&v.name);
        if changed && c.chars().count() <= super::MAX_NAME_CHARS {
            cleaned += 1;
        }
        let mut name = if c.chars().count() > MAX_VERTEX_NAME {
            cut += 1;
            shorten(&c, MAX_VERTEX_NAME)
        } else {
            c
        };
        if name.is_empty() {
            name = "vertex".into();
        }
        if seen.contains(&name) {
            dup += 1;
            let mut k = 2;
            while seen.contains(&format!("{name} #{k}")) {
                k += 1;
            }
            name = format!("{name} #{k}");
        }
        seen.insert(name.clone());
        out.push(name);
    }
    if cut > 0 {
        notes.add(
            input,
            format!("{cut} vertex names were longer than {MAX_VERTEX_NAME} characters and are shown cut"),
        );
    }
    if cleaned > 0 {
        notes.add(
            input,
            format!("{cleaned} vertex names had control characters, shown as \u{FFFD}"),
        );
    }
    if dup > 0 {
        notes.add(
            input,
            format!("{dup} vertex names repeat another's and get a suffix #2, #3, …"),
        );
    }
    out
}

/// Build the Flink scenario: parse the job graph and the TaskManagers, check
/// the job against them, then assemble the setup and one `schedule`.
pub(super) fn build(
    inputs: &[Input<'_>],
    options: &Options,
    notes: &mut Notes,
) -> Result<Scenario, ImportError> {
    let (job, tms) = parse_inputs(inputs, notes)?;
    let Some((jname, g, _)) = job else {
        return Err(ImportError::Missing(
            "no job graph among the inputs: give the JSON of env.getExecutionPlan() or of the REST API's \
             /jobs/:jobid/plan or /jobs/:jobid"
                .into(),
        ));
    };
    let spec = job_spec(jname, &g, notes)?;
    let mut sc = Scenario::empty(System::Flink, options.seed);
    let Body::Flink(log) = &mut sc.body else {
        unreachable!("an empty Flink scenario")
    };
    log.setup.push(flink::Action::DefineJob { job: spec.clone() });
    let total_slots = add_task_managers(log, options, tms, notes)?;
    check_slots(&spec, total_slots)?;
    log.actions.push(flink::Action::Schedule);
    Ok(sc)
}

/// The one job graph read, with its input's name and kind.
type Job<'a> = Option<(&'a str, JobGraph, InputKind)>;
/// The one `/taskmanagers` list read, with its input's name.
type TaskManagers<'a> = Option<(&'a str, Vec<flink_rest::TaskManager>)>;

/// Parse every input: one job graph (an execution plan is chained as Flink
/// chains it) and at most one TaskManager list.
fn parse_inputs<'a>(
    inputs: &[Input<'a>],
    notes: &mut Notes,
) -> Result<(Job<'a>, TaskManagers<'a>), ImportError> {
    let mut job: Job<'a> = None;
    let mut tms: TaskManagers<'a> = None;
    for inp in inputs {
        let v = json::parse(inp.name, inp.text)?;
        match inp.kind {
            InputKind::FlinkExecutionPlan => {
                let (ops, unused) = flink_plan::parse(inp.name, &v)?;
                let g = flink_plan::chain(inp.name, &ops)?;
                notes.unused_fields(inp.name, "execution plan", unused);
                notes.add(
                    inp.name,
                    format!(
                        "{} operators chained into {} job vertices as Flink's StreamingJobGraphGenerator does. The \
                         plan does not print chaining strategies, slot sharing groups or max parallelism, so every \
                         operator is taken to chain by default (ALWAYS), in one slot sharing group, with chaining \
                         on; if the job calls disableChaining(), startNewChain() or slotSharingGroup(), import the \
                         REST /jobs/:jobid instead",
                        ops.len(),
                        g.vertices.len()
                    ),
                );
                set_job(&mut job, inp, g)?;
            }
            InputKind::FlinkJobPlan | InputKind::FlinkJobDetails => {
                let (g, unused, ty) = flink_rest::parse_job(inp.name, &v)?;
                notes.unused_fields(inp.name, "job plan", unused);
                if ty.as_deref() == Some("BATCH") {
                    notes.add(
                        inp.name,
                        "a BATCH job: Flink schedules its pipelined regions one after another; lbscope \
                         schedules every vertex at once, as for a streaming job",
                    );
                }
                if inp.kind == InputKind::FlinkJobPlan {
                    notes.add(
                        inp.name,
                        "/jobs/:jobid/plan does not print slot sharing groups: every vertex is taken to share \
                         'default' (the /jobs/:jobid JSON has them)",
                    );
                }
                set_job(&mut job, inp, g)?;
            }
            InputKind::FlinkTaskManagers => {
                let (list, unused) = flink_rest::parse_task_managers(inp.name, &v)?;
                notes.unused_fields(inp.name, "/taskmanagers", unused);
                if let Some((first, _)) = &tms {
                    return Err(ImportError::BadOption(format!(
                        "two /taskmanagers inputs given ({first} and {}); give one",
                        inp.name
                    )));
                }
                tms = Some((inp.name, list));
            }
            _ => {}
        }
    }
    Ok((job, tms))
}

/// The job as lbscope defines it: vertices under unique names, each edge's
/// distribution pattern (a FORWARD edge needs equal parallelisms).
fn job_spec(jname: &str, g: &JobGraph, notes: &mut Notes) -> Result<JobSpec, ImportError> {
    if g.vertices.len() > MAX_VERTICES {
        return Err(ImportError::too_large(
            jname,
            format!(
                "the job has {} job vertices; lbscope schedules at most {MAX_VERTICES}",
                super::thousands(g.vertices.len())
            ),
        ));
    }
    let names = unique_names(g, jname, notes);
    let mut spec = JobSpec::default();
    let mut groups = BTreeSet::new();
    for (v, name) in g.vertices.iter().zip(&names) {
        if let Some(s) = &v.slot_sharing_group {
            groups.insert(s.clone());
        }
        spec.vertices.push(VertexSpec {
            name: name.clone(),
            parallelism: v.parallelism,
            slot_sharing_group: v.slot_sharing_group.as_ref().map(|s| clean_name(s).0),
            co_location_group: None,
        });
    }
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for e in &g.edges {
        let pattern = pattern_of(&e.strategy);
        let (a, b) = (&g.vertices[e.from], &g.vertices[e.to]);
        if pattern == DistributionPattern::Forward && a.parallelism != b.parallelism {
            return Err(ImportError::bad(
                jname,
                format!(
                    "{}: a FORWARD edge from {} (parallelism {}) to {} (parallelism {}); Flink refuses forward \
                     partitioning between different parallelisms",
                    b.origin, names[e.from], a.parallelism, names[e.to], b.parallelism
                ),
            ));
        }
        *kinds
            .entry(format!(
                "{} as {}",
                shorten(e.strategy.trim(), 40),
                pattern.name()
            ))
            .or_default() += 1;
        spec.edges.push(EdgeSpec {
            from: names[e.from].clone(),
            to: names[e.to].clone(),
            pattern,
        });
    }
    if !kinds.is_empty() {
        let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        notes.add(jname, format!("job edges: {}", list.join(", ")));
    }
    if !groups.is_empty() {
        notes.add(
            jname,
            format!(
                "slot sharing groups: {}",
                groups.iter().cloned().collect::<Vec<_>>().join(", ")
            ),
        );
    }
    Ok(spec)
}

/// The TaskManagers: `--task-managers N --slots S`, else the `/taskmanagers`
/// list. Returns the slots in all.
fn add_task_managers(
    log: &mut crate::scenario::Log<flink::Sim>,
    options: &Options,
    tms: TaskManagers<'_>,
    notes: &mut Notes,
) -> Result<u64, ImportError> {
    match (options.task_managers, options.slots, tms) {
        (Some(n), Some(s), list) => {
            if let Some((name, _)) = list {
                notes.add(
                    name,
                    "--task-managers and --slots are given: this /taskmanagers list is not used",
                );
            }
            if n == 0 || n as usize > MAX_TASK_MANAGERS {
                return Err(ImportError::BadOption(format!(
                    "--task-managers {n}: lbscope runs 1 to {MAX_TASK_MANAGERS} TaskManagers"
                )));
            }
            if s == 0 || s > MAX_SLOTS_PER_TASK_MANAGER {
                return Err(ImportError::BadOption(format!(
                    "--slots {s}: a TaskManager has 1 to {MAX_SLOTS_PER_TASK_MANAGER} slots"
                )));
            }
            log.config.number_of_task_slots = s;
            log.setup.push(flink::Action::AddTaskManagers {
                count: n,
                slots: None,
            });
            Ok(u64::from(n) * u64::from(s))
        }
        (Some(_), None, _) => Err(ImportError::Missing(
            "--task-managers needs --slots S too (taskmanager.numberOfTaskSlots of each TaskManager)".into(),
        )),
        (None, Some(_), _) => Err(ImportError::Missing(
            "--slots needs --task-managers N too (how many TaskManagers run the job)".into(),
        )),
        (None, None, Some((name, list))) => listed_task_managers(&mut log.setup, name, &list),
        (None, None, None) => Err(ImportError::Missing(
            "the job graph does not say how many TaskManagers run it: pass --task-managers N --slots S, or \
                 give the REST API's /taskmanagers JSON"
                .into(),
        )),
    }
}

/// One `add_task_manager` per listed TaskManager (its id cleaned, or `tm-N`
/// when empty or repeated). Returns the slots in all.
fn listed_task_managers(
    setup: &mut Vec<flink::Action>,
    name: &str,
    list: &[flink_rest::TaskManager],
) -> Result<u64, ImportError> {
    if list.is_empty() {
        return Err(ImportError::bad(name, "taskmanagers: the list is empty"));
    }
    if list.len() > MAX_TASK_MANAGERS {
        return Err(ImportError::too_large(
            name,
            format!(
                "{} TaskManagers; lbscope runs at most {MAX_TASK_MANAGERS}",
                list.len()
            ),
        ));
    }
    let mut seen = BTreeSet::new();
    let mut total = 0u64;
    for (i, tm) in list.iter().enumerate() {
        if tm.slots == 0 || tm.slots > MAX_SLOTS_PER_TASK_MANAGER {
            return Err(ImportError::bad(
                name,
                format!(
                    "taskmanagers[{i}].slotsNumber: {} is not 1 to {MAX_SLOTS_PER_TASK_MANAGER}",
                    tm.slots
                ),
            ));
        }
        let (mut n, _) = clean_name(&tm.id);
        n = shorten(&n, 80);
        if n.is_empty() || !seen.insert(n.clone()) {
            n = format!("tm-{}", i + 1);
            seen.insert(n.clone());
        }
        total += u64::from(tm.slots);
        setup.push(flink::Action::AddTaskManager {
            name: Some(n),
            slots: Some(tm.slots),
        });
    }
    Ok(total)
}

/// The job needs the largest parallelism of each slot sharing group, summed.
fn check_slots(spec: &JobSpec, total_slots: u64) -> Result<(), ImportError> {
    let mut need: BTreeMap<String, u32> = BTreeMap::new();
    for v in &spec.vertices {
        let g = v
            .slot_sharing_group
            .clone()
            .unwrap_or_else(|| flink::job_graph::DEFAULT_SLOT_SHARING_GROUP.to_string());
        let e = need.entry(g).or_default();
        *e = (*e).max(v.parallelism);
    }
    let needed: u64 = need.values().map(|&p| u64::from(p)).sum();
    if needed > total_slots {
        return Err(ImportError::Missing(format!(
            "the job needs {needed} slots (the largest parallelism of each slot sharing group, summed) but the \
             TaskManagers have {total_slots}: give TaskManagers with at least {needed} slots in all \
             (--task-managers N --slots S)"
        )));
    }
    Ok(())
}

fn set_job<'a>(
    job: &mut Option<(&'a str, JobGraph, InputKind)>,
    inp: &Input<'a>,
    g: JobGraph,
) -> Result<(), ImportError> {
    if let Some((first, _, _)) = job {
        return Err(ImportError::BadOption(format!(
            "two job graphs given ({first} and {}); lbscope imports one job at a time",
            inp.name
        )));
    }
    *job = Some((inp.name, g, inp.kind));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ship_strategies_map_as_flink_distribution_patterns() {
        assert_eq!(pattern_of("FORWARD"), DistributionPattern::Forward);
        assert_eq!(pattern_of("RESCALE"), DistributionPattern::Rescale);
        for s in [
            "HASH",
            "REBALANCE",
            "BROADCAST",
            "SHUFFLE",
            "GLOBAL",
            "CUSTOM",
            "HASH[id]",
        ] {
            assert_eq!(pattern_of(s), DistributionPattern::Hash, "{s}");
        }
    }
}
