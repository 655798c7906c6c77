//! Unit tests of the Flink engine (the doc's figures live in `tests/flink_*.rs`).

use super::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use super::*;
use crate::engine::{Engine, Narrate};

fn job(vs: &[(&str, u32)], es: &[(&str, &str, P)]) -> JobSpec {
    JobSpec {
        vertices: vs.iter().map(|(n, p)| VertexSpec::new(n, *p)).collect(),
        edges: es.iter().map(|(a, b, p)| EdgeSpec::new(a, b, *p)).collect(),
    }
}

fn sim(mode: LoadBalanceMode, spec: JobSpec, tms: u32, slots: u32) -> Sim {
    let mut s = Sim::new(Config::with_mode(mode), 1).unwrap();
    s.apply(&Action::DefineJob { job: spec }).unwrap();
    s.apply(&Action::AddTaskManagers {
        count: tms,
        slots: Some(slots),
    })
    .unwrap();
    s
}

#[test]
fn figure_b_and_i_per_tm() {
    let spec = job(&[("JV-A", 6), ("JV-B", 3)], &[("JV-A", "JV-B", P::Hash)]);
    let mut d = sim(LoadBalanceMode::None, spec.clone(), 3, 2);
    d.apply(&Action::Schedule).unwrap();
    assert_eq!(d.tasks_per_slot(), [2, 2, 2, 1, 1, 1]);
    // The requests reach the slot pool in hash order (drawn from the seed), so the
    // default gives [4, 3, 2] or [3, 3, 3] in some TaskManager order.
    let mut per_tm = d.tasks_per_tm();
    per_tm.sort_unstable_by(|a, b| b.cmp(a));
    assert!(per_tm == [4, 3, 2] || per_tm == [3, 3, 3], "{per_tm:?}");
    let mut b = sim(LoadBalanceMode::Tasks, spec, 3, 2);
    let ev = b.apply(&Action::Schedule).unwrap();
    assert_eq!(b.tasks_per_slot(), [2, 2, 2, 1, 1, 1]);
    assert_eq!(b.tasks_per_tm(), [3, 3, 3]);
    // Every event narrates.
    for e in &ev {
        assert!(!e.narrate().is_empty());
    }
    let text: Vec<String> = ev.iter().map(Narrate::narrate).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("fewest among tm-0:2, tm-1:2, tm-2:2")),
        "{text:#?}"
    );
}

#[test]
fn errors_leave_state_unchanged() {
    let mut s = sim(
        LoadBalanceMode::None,
        job(&[("A", 4), ("B", 2)], &[("A", "B", P::Hash)]),
        1,
        2,
    );
    s.apply(&Action::AddTaskManager {
        name: Some("x".into()),
        slots: Some(1),
    })
    .unwrap();
    let before = format!("{s:?}");
    assert_eq!(
        s.apply(&Action::Schedule),
        Err(Error::NotEnoughSlots {
            needed: 4,
            available: 3
        })
    );
    assert!(s
        .apply(&Action::DefineJob {
            job: job(&[("A", 0)], &[])
        })
        .is_err());
    assert!(s
        .apply(&Action::AddTaskManager {
            name: Some("x".into()),
            slots: None
        })
        .is_err());
    assert!(s.apply(&Action::RestoreTaskManager { tm: "x".into() }).is_err());
    assert_eq!(before, format!("{s:?}"));
}

#[test]
fn grid_lists_subtasks() {
    let mut s = sim(
        LoadBalanceMode::None,
        job(&[("A", 2), ("B", 2)], &[("A", "B", P::Forward)]),
        1,
        2,
    );
    s.apply(&Action::Schedule).unwrap();
    let g = s.slot_grid();
    assert_eq!(g.rows[0].slots[1].subtasks.len(), 2);
    assert_eq!(g.rows[0].slots[1].subtasks[1].vertex, "B");
    assert!(serde_json::to_string(&g).is_ok());
}

#[test]
fn actions_roundtrip_json() {
    let a = Action::LoseTaskManager {
        tm: "tm-2".into(),
        restart_after_ms: Some(50),
    };
    let s = serde_json::to_string(&a).unwrap();
    assert!(s.contains("\"op\":\"lose_task_manager\""));
    assert_eq!(serde_json::from_str::<Action>(&s).unwrap(), a);
    let a: Action = serde_json::from_str(
        r#"{"op":"define_job","job":{"vertices":[{"name":"A","parallelism":2}],
            "edges":[]}}"#,
    )
    .unwrap();
    assert!(matches!(a, Action::DefineJob { .. }));
}

/// Every registry entry is selected by the config its `StrategyInfo` names: the
/// request slot matching entries through the slot pool's choice, the adaptive
/// resolvers through the `AdaptiveStrategiesChosen` event of a scheduling.
#[test]
fn each_strategy_entry_is_selected_by_its_config() {
    use crate::engine::Engine;
    for s in request_slot_matching::REGISTRY {
        let info = s.info();
        let cfg = Sim::strategy_config(&info).expect("valid config");
        let chosen = request_slot_matching::for_mode(cfg.effective_mode(), cfg.local_recovery);
        assert_eq!(chosen.info(), info, "{info:?}");
    }
    for r in adaptive::slot_matching_resolver::REGISTRY {
        let info = r.info();
        let cfg = Sim::strategy_config(&info).expect("valid config");
        let mut s = Sim::new(cfg, 1).unwrap();
        s.apply(&Action::DefineJob {
            job: job(&[("A", 2)], &[]),
        })
        .unwrap();
        s.apply(&Action::AddTaskManagers {
            count: 2,
            slots: Some(2),
        })
        .unwrap();
        let evs = s.apply(&Action::Schedule).unwrap();
        let ran = evs.iter().find_map(|e| match e {
            Event::AdaptiveStrategiesChosen {
                slot_matching_resolver,
                ..
            } => Some(*slot_matching_resolver),
            _ => None,
        });
        assert_eq!(ran, Some(r.id()), "{info:?}");
    }
    assert_eq!(
        Sim::strategies().len(),
        request_slot_matching::REGISTRY.len() + adaptive::slot_matching_resolver::REGISTRY.len()
    );
}
