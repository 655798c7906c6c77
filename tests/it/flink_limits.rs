//! The Flink engine at its limits: 2^20 subtasks on 1,024 TaskManagers x 1,024 slots
//! give summarised events (one per vertex / TaskManager) and stay quick; durations
//! Flink cannot represent are refused with clear messages; two edges between one pair
//! of vertices are accepted, as in Flink's job graph.

use lbscope::engine::flink::job_graph::{
    DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec, MAX_PARALLELISM, MAX_SUBTASKS,
};
use lbscope::engine::flink::task_manager::MAX_SLOTS_PER_TASK_MANAGER;
use lbscope::engine::flink::{
    Action, Config, DurationMs, Error, Event, JobStatus, LoadBalanceMode as M, SchedulerType, Sim,
};
use lbscope::engine::{Engine, Narrate};
use std::time::Instant;

fn refused(s: &mut Sim, a: Action) -> Error {
    let before = format!("{s:?}");
    let e = s.apply(&a).expect_err("must be refused");
    assert_eq!(before, format!("{s:?}"), "state changed by {a:?}");
    assert!(!e.to_string().is_empty());
    e
}

/// Two job edges between the same pair of vertices are legal in a Flink job graph:
/// `JobVertex.connectNewDataSetAsInput` adds one more input per call and checks nothing
/// about the producer (expected values from the code). The consumer then reads the
/// producer over both edges: a forward edge puts B#i beside A#i, and the hash edge
/// adds nothing new to the slots.
#[test]
fn job_vertex_connect_new_data_set_as_input_accepts_two_edges_between_a_pair() {
    let mut s = Sim::new(Config::default(), 1).unwrap();
    let ev = s
        .apply(&Action::DefineJob {
            job: JobSpec {
                vertices: vec![VertexSpec::new("A", 2), VertexSpec::new("B", 2)],
                edges: vec![
                    EdgeSpec::new("A", "B", P::Forward),
                    EdgeSpec::new("A", "B", P::Hash),
                    EdgeSpec::new("A", "B", P::Hash),
                ],
            },
        })
        .unwrap();
    assert!(ev.iter().any(|e| e.narrate().contains("3 edges")), "{ev:?}");
    let job = s.job().unwrap();
    assert_eq!(job.edges.len(), 3);
    assert_eq!(job.vertices[1].inputs, [0, 1, 2]);
    s.apply(&Action::AddTaskManagers {
        count: 1,
        slots: Some(2),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    let plan = s.plan().unwrap();
    assert_eq!(plan.request_of, [vec![0, 1], vec![0, 1]]);
    assert_eq!(s.tasks_per_tm(), [4]);
}

#[test]
fn durations_beyond_a_java_long_are_refused() {
    // Flink keeps durations as java.time.Duration and reads them in milliseconds as a
    // signed 64-bit number: u64::MAX ms cannot be represented.
    let bad = Config {
        slot_request_timeout: DurationMs(u64::MAX),
        ..Config::default()
    };
    assert!(matches!(
        Sim::new(bad.clone(), 1),
        Err(Error::BadDuration {
            key: "slot.request.timeout",
            ..
        })
    ));
    let mut s = Sim::new(Config::default(), 1).unwrap();
    // Set through an action, the value is refused when the config is read, naming the key and the limit.
    let e = refused(&mut s, Action::whole_config(&bad));
    assert!(e.to_string().contains("slot.request.timeout"), "{e}");
    assert!(e.to_string().contains("at most 9223372036854775807 ms"), "{e}");
    let e = serde_json::from_str::<Action>(
        r#"{"op":"set_config","config":{"slot.request.max-interval":"18446744073709551615 ms"}}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a duration"), "{e}");
    // The largest representable duration is fine.
    s.apply(&Action::whole_config(&Config {
        slot_request_timeout: DurationMs(i64::MAX as u64),
        ..Config::default()
    }))
    .unwrap();
}

#[test]
fn the_clock_never_overflows() {
    let mut s = Sim::new(Config::with_mode(M::Tasks), 1).unwrap();
    s.apply(&Action::DefineJob {
        job: JobSpec {
            vertices: vec![VertexSpec::new("A", 2)],
            edges: vec![],
        },
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 2,
        slots: Some(1),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    let e = refused(
        &mut s,
        Action::LoseTaskManager {
            tm: "tm-1".into(),
            restart_after_ms: Some(u64::MAX),
        },
    );
    assert!(matches!(e, Error::ClockOverflow { .. }), "{e}");
    // Restarting after the longest Flink duration works, twice over (the clock has
    // room for it), and the job runs again.
    s.apply(&Action::LoseTaskManager {
        tm: "tm-1".into(),
        restart_after_ms: Some(i64::MAX as u64),
    })
    .unwrap();
    assert!(s.now_ms() >= i64::MAX as u64);
}

/// `n` vertices x 32,768 subtasks, each vertex its own slot sharing group, on `32 n`
/// TaskManagers x 1,024 slots: `n` x 2^15 slot requests of one task each, every slot
/// used. `n = 32` is the limit: 2^20 subtasks on 1,024 x 1,024 slots.
fn widest(mode: M, scheduler: SchedulerType, n: usize) -> (Sim, Vec<Event>, f64) {
    let vertices: Vec<VertexSpec> = (0..n)
        .map(|i| VertexSpec {
            slot_sharing_group: Some(format!("g{i}")),
            ..VertexSpec::new(&format!("V{i}"), MAX_PARALLELISM)
        })
        .collect();
    let edges = (1..n)
        .map(|i| EdgeSpec::new(&format!("V{}", i - 1), &format!("V{i}"), P::Hash))
        .collect();
    let mut s = Sim::new(
        Config {
            scheduler,
            ..Config::with_mode(mode)
        },
        1,
    )
    .unwrap();
    s.apply(&Action::DefineJob {
        job: JobSpec { vertices, edges },
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 32 * n as u32,
        slots: Some(MAX_SLOTS_PER_TASK_MANAGER),
    })
    .unwrap();
    let t = Instant::now();
    let ev = s.apply(&Action::Schedule).unwrap();
    (s, ev, t.elapsed().as_secs_f64())
}

#[test]
fn a_million_subtasks_are_summarised_per_vertex_and_task_manager() {
    let limit = (MAX_SUBTASKS / u64::from(MAX_PARALLELISM)) as usize;
    // The full limit in two modes; a quarter of it in the others (debug builds are slow).
    for (mode, scheduler, n) in [
        (M::None, SchedulerType::Default, limit),
        (M::Tasks, SchedulerType::Default, limit),
        (M::Slots, SchedulerType::Default, limit / 4),
        (M::MinResources, SchedulerType::Default, limit / 4),
        (M::Tasks, SchedulerType::Adaptive, limit / 4),
    ] {
        let (s, ev, secs) = widest(mode, scheduler, n);
        let tms = 32 * n;
        assert_eq!(s.status(), JobStatus::Running, "{mode:?}");
        // One event per vertex for phase 1, about one per TaskManager for phase 2.
        assert!(
            ev.len() < tms * 2 + 64,
            "{mode:?} {scheduler:?}: {} events",
            ev.len()
        );
        assert!(ev.iter().all(|e| !matches!(e, Event::SlotRequestMatched { .. })));
        let summaries = ev
            .iter()
            .filter(|e| matches!(e, Event::SlotRequestsMatched { .. }))
            .count();
        assert_eq!(summaries, tms, "{mode:?}");
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::SubtasksAssigned { summary: Some(_), .. })));
        for e in &ev {
            assert!(!e.narrate().is_empty());
        }
        // The details stay derivable: every request is placed, every TaskManager full.
        assert!(s.placement().iter().all(Option::is_some));
        assert_eq!(s.placement().len(), n << 15);
        assert!(s.tasks_per_tm().iter().all(|&n| n == 1024), "{mode:?}");
        // Generous bound for a debug build on a busy machine: near-linear, not quadratic.
        assert!(secs < 120.0, "{mode:?} {scheduler:?} took {secs:.1} s");
    }
}

#[test]
fn wide_co_located_vertices_stay_near_linear() {
    // Two co-located vertices of 32,768 subtasks in tasks mode: the balanced builder's
    // least-utilised slot search is logarithmic, not a scan per subtask.
    let co = |n: &str| VertexSpec {
        co_location_group: Some("c".into()),
        ..VertexSpec::new(n, MAX_PARALLELISM)
    };
    let mut s = Sim::new(Config::with_mode(M::Tasks), 1).unwrap();
    s.apply(&Action::DefineJob {
        job: JobSpec {
            vertices: vec![VertexSpec::new("S", MAX_PARALLELISM), co("A"), co("B")],
            edges: vec![
                EdgeSpec::new("S", "A", P::Forward),
                EdgeSpec::new("A", "B", P::Forward),
            ],
        },
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 32,
        slots: Some(MAX_SLOTS_PER_TASK_MANAGER),
    })
    .unwrap();
    let t = Instant::now();
    s.apply(&Action::Schedule).unwrap();
    assert!(t.elapsed().as_secs_f64() < 60.0);
    assert_eq!(s.tasks_per_slot().len(), MAX_PARALLELISM as usize);
    assert!(s.tasks_per_slot().iter().all(|&n| n == 3));
}
