//! The spread over seeds: Flink leaves the order of a pipelined region's slot
//! requests to hash order ([`super::pipelined_region`]), so the same job on the same
//! cluster can land differently from run to run. lbscope draws that order from the
//! scenario's seed; replaying one log under many seeds shows which outcomes Flink can
//! produce and how often.
//!
//! An outcome is the job's tasks per TaskManager, largest first (the way the
//! balanced-scheduling document writes "[4, 3, 2]"), or empty when the job is not
//! running at the end of the log.

use super::{Action, Config, Error, JobStatus, Sim};
use crate::engine::Engine;
use std::ops::Range;

/// One outcome and how many seeds gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Tasks per TaskManager, largest first; empty when the job is not running.
    pub tasks_per_tm: Vec<u32>,
    /// Seeds that gave it.
    pub seeds: u32,
    /// The first seed that gave it (to open that run).
    pub first_seed: u64,
}

/// The outcome of one run: tasks per TaskManager, largest first.
pub fn outcome_of(sim: &Sim) -> Vec<u32> {
    if sim.status() != JobStatus::Running {
        return Vec::new();
    }
    let mut v = sim.tasks_per_tm();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// Replay `config` and `actions` once per seed of `seeds`, and count the outcomes:
/// most frequent first, ties by outcome (narrowest first). The first refused action
/// ends the count with its error.
pub fn outcomes_over_seeds<'a>(
    config: &Config,
    actions: impl Iterator<Item = &'a Action> + Clone,
    seeds: Range<u64>,
) -> Result<Vec<Outcome>, Error> {
    let mut out: Vec<Outcome> = Vec::new();
    for seed in seeds {
        let mut sim = Sim::new(config.clone(), seed)?;
        for a in actions.clone() {
            sim.apply(a)?;
        }
        let o = outcome_of(&sim);
        match out.iter_mut().find(|x| x.tasks_per_tm == o) {
            Some(x) => x.seeds += 1,
            None => out.push(Outcome {
                tasks_per_tm: o,
                seeds: 1,
                first_seed: seed,
            }),
        }
    }
    out.sort_by(|a, b| {
        b.seeds
            .cmp(&a.seeds)
            .then_with(|| spread(&a.tasks_per_tm).cmp(&spread(&b.tasks_per_tm)))
            .then_with(|| b.tasks_per_tm.cmp(&a.tasks_per_tm))
    });
    Ok(out)
}

fn spread(v: &[u32]) -> u32 {
    match (v.iter().max(), v.iter().min()) {
        (Some(hi), Some(lo)) => hi - lo,
        _ => u32::MAX,
    }
}

fn bracket(v: &[u32]) -> String {
    if v.is_empty() {
        return "not running".to_string();
    }
    let s: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", s.join(", "))
}

/// "[4, 3, 2] in 6 of 10 seeds, [3, 3, 3] in 4", or "[3, 3, 3] in all 10 seeds".
pub fn describe(outcomes: &[Outcome]) -> String {
    let total: u32 = outcomes.iter().map(|o| o.seeds).sum();
    match outcomes {
        [] => String::new(),
        [only] => format!("{} in all {total} seeds", bracket(&only.tasks_per_tm)),
        [first, rest @ ..] => {
            let mut s = format!(
                "{} in {} of {total} seeds",
                bracket(&first.tasks_per_tm),
                first.seeds
            );
            for o in rest {
                s.push_str(&format!(", {} in {}", bracket(&o.tasks_per_tm), o.seeds));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
    use crate::engine::flink::LoadBalanceMode;

    fn figure_a() -> Vec<Action> {
        vec![
            Action::DefineJob {
                job: JobSpec {
                    vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
                    edges: vec![EdgeSpec::new("JV-A", "JV-B", P::Hash)],
                },
            },
            Action::AddTaskManagers {
                count: 3,
                slots: Some(2),
            },
            Action::Schedule,
        ]
    }

    #[test]
    fn describes_the_spread_and_counts_every_seed() {
        let o = outcomes_over_seeds(&Config::default(), figure_a().iter(), 0..10).unwrap();
        assert_eq!(o.iter().map(|x| x.seeds).sum::<u32>(), 10);
        assert!(o
            .iter()
            .all(|x| x.tasks_per_tm == [4, 3, 2] || x.tasks_per_tm == [3, 3, 3]));
        let text = describe(&o);
        assert!(text.contains("of 10 seeds"), "{text}");
        let t = outcomes_over_seeds(
            &Config::with_mode(LoadBalanceMode::Tasks),
            figure_a().iter(),
            0..10,
        )
        .unwrap();
        assert_eq!(describe(&t), "[3, 3, 3] in all 10 seeds");
    }
}
