//! Bad input gets a clear error and leaves the simulation exactly as it was.

use lbscope::engine::flink::job_graph::{
    DistributionPattern as P, EdgeSpec, JobGraphError, JobSpec, VertexSpec,
};
use lbscope::engine::flink::{Action, Config, Error, Sim};
use lbscope::engine::Engine;

fn job(vs: &[(&str, u32)], es: &[(&str, &str, P)]) -> JobSpec {
    JobSpec {
        vertices: vs.iter().map(|(n, p)| VertexSpec::new(n, *p)).collect(),
        edges: es.iter().map(|(a, b, p)| EdgeSpec::new(a, b, *p)).collect(),
    }
}

/// A running job on 2 TaskManagers × 2 slots.
fn running() -> Sim {
    let mut s = Sim::new(Config::default(), 1).unwrap();
    s.apply(&Action::DefineJob {
        job: job(&[("A", 4), ("B", 2)], &[("A", "B", P::Hash)]),
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 2,
        slots: Some(2),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    s
}

fn refused(s: &mut Sim, a: Action) -> Error {
    let before = format!("{s:?}");
    let grid = serde_json::to_string(&s.slot_grid()).unwrap();
    let e = s.apply(&a).expect_err("must be refused");
    assert_eq!(before, format!("{s:?}"), "state changed by {a:?}");
    assert_eq!(grid, serde_json::to_string(&s.slot_grid()).unwrap());
    assert!(!e.to_string().is_empty());
    e
}

#[test]
fn zero_parallelism() {
    let mut s = running();
    let e = refused(
        &mut s,
        Action::DefineJob {
            job: job(&[("A", 3), ("B", 0)], &[("A", "B", P::Hash)]),
        },
    );
    assert_eq!(e, Error::JobGraph(JobGraphError::ZeroParallelism("B".into())));
    assert_eq!(
        e.to_string(),
        "vertex \"B\" has parallelism 0; every vertex needs at least 1 subtask"
    );
}

#[test]
fn more_slots_requested_than_exist() {
    let mut s = running();
    s.apply(&Action::DefineJob {
        job: job(&[("A", 5), ("B", 2)], &[("A", "B", P::Hash)]),
    })
    .unwrap();
    let e = refused(&mut s, Action::Schedule);
    assert_eq!(
        e,
        Error::NotEnoughSlots {
            needed: 5,
            available: 4
        }
    );
    assert!(e.to_string().contains("needs 5 slots"));
}

#[test]
fn edge_to_unknown_vertex() {
    let mut s = running();
    let e = refused(
        &mut s,
        Action::DefineJob {
            job: job(&[("A", 2)], &[("A", "Nope", P::Rescale)]),
        },
    );
    assert_eq!(
        e.to_string(),
        "edge \"A\" -> \"Nope\" refers to unknown vertex \"Nope\""
    );
}

#[test]
fn cycle() {
    let mut s = running();
    let e = refused(
        &mut s,
        Action::DefineJob {
            job: job(
                &[("Src", 1), ("A", 2), ("B", 2)],
                &[
                    ("Src", "A", P::Hash),
                    ("A", "B", P::Forward),
                    ("B", "A", P::Forward),
                ],
            ),
        },
    );
    assert_eq!(
        e,
        Error::JobGraph(JobGraphError::Cycle(vec!["A".into(), "B".into()]))
    );
    let e = refused(
        &mut s,
        Action::DefineJob {
            job: job(&[("A", 2)], &[("A", "A", P::Hash)]),
        },
    );
    assert!(e.to_string().contains("cycle"));
}

#[test]
fn other_refusals() {
    let mut s = running();
    refused(
        &mut s,
        Action::DefineJob {
            job: job(&[("A", 2), ("B", 3)], &[("A", "B", P::Forward)]),
        },
    );
    refused(
        &mut s,
        Action::DefineJob {
            job: JobSpec::default(),
        },
    );
    refused(
        &mut s,
        Action::DefineJob {
            job: job(&[("A", 2), ("A", 3)], &[]),
        },
    );
    refused(&mut s, Action::RemoveTaskManager { tm: "tm-0".into() });
    refused(&mut s, Action::RemoveTaskManager { tm: "ghost".into() });
    refused(&mut s, Action::RestoreTaskManager { tm: "tm-1".into() });
    refused(
        &mut s,
        Action::AddTaskManager {
            name: None,
            slots: Some(0),
        },
    );
    refused(
        &mut s,
        Action::AddTaskManagers {
            count: 100_000,
            slots: Some(1),
        },
    );
    let mut fresh = Sim::new(Config::default(), 1).unwrap();
    assert_eq!(refused(&mut fresh, Action::Schedule), Error::NoJob);
}
