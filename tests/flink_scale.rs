//! Scale (issue 9): 100 TaskManagers × 16 slots, a 20-vertex job up to parallelism
//! 1,600, checked for correctness. Its speed is a benchmark figure (`lbscope bench`),
//! never asserted here.

use lbscope::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use lbscope::engine::flink::{Action, Config, JobStatus, LoadBalanceMode, Sim};
use lbscope::engine::Engine;

fn big_job() -> JobSpec {
    let ps = [
        1600, 800, 1600, 400, 1600, 1200, 1600, 100, 1600, 1600, 320, 1600, 1600, 50, 1600, 1000, 1600, 1600,
        8, 1600,
    ];
    let vertices: Vec<VertexSpec> = ps
        .iter()
        .enumerate()
        .map(|(i, &p)| VertexSpec::new(&format!("V{i}"), p))
        .collect();
    let edges = (1..ps.len())
        .map(|i| {
            let pattern = if ps[i] == ps[i - 1] {
                P::Forward
            } else if i % 2 == 0 {
                P::Rescale
            } else {
                P::Hash
            };
            EdgeSpec::new(&format!("V{}", i - 1), &format!("V{i}"), pattern)
        })
        .collect();
    JobSpec { vertices, edges }
}

#[test]
fn hundred_task_managers_sixteen_slots_parallelism_1600() {
    for mode in [
        LoadBalanceMode::None,
        LoadBalanceMode::Slots,
        LoadBalanceMode::Tasks,
    ] {
        let mut s = Sim::new(Config::with_mode(mode), 1).unwrap();
        s.apply(&Action::DefineJob { job: big_job() }).unwrap();
        s.apply(&Action::AddTaskManagers {
            count: 100,
            slots: Some(16),
        })
        .unwrap();
        let ev = s.apply(&Action::Schedule).unwrap();
        assert!(!ev.is_empty());
        assert_eq!(s.status(), JobStatus::Running);
        assert_eq!(s.placement().len(), 1600);
        s.apply(&Action::LoseTaskManager {
            tm: "tm-7".into(),
            restart_after_ms: Some(50),
        })
        .unwrap();
        assert_eq!(s.status(), JobStatus::Running);
    }
}
