//! Scale: 100 TaskManagers × 16 slots, a 20-vertex job up to parallelism
//! 1,600, checked for correctness. Its speed is a benchmark figure (`lbscope bench`),
//! never asserted here.

use lbscope::bench::flink_job;
use lbscope::engine::flink::{Action, Config, JobStatus, LoadBalanceMode, Sim};
use lbscope::engine::Engine;

#[test]
fn hundred_task_managers_sixteen_slots_parallelism_1600() {
    for mode in [
        LoadBalanceMode::None,
        LoadBalanceMode::Slots,
        LoadBalanceMode::Tasks,
    ] {
        let mut s = Sim::new(Config::with_mode(mode), 1).unwrap();
        s.apply(&Action::DefineJob { job: flink_job() }).unwrap();
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
