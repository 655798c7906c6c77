//! `taskmanager.load-balance.mode`: how the mode is read (an explicit `NONE` wins over
//! the deprecated `cluster.evenly-spread-out-slots`), what `MIN_RESOURCES` does on the
//! ResourceManager side, and TaskManagers that already carry another job's load.

use lbscope::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use lbscope::engine::flink::slot_matching::ResourceMatching;
use lbscope::engine::flink::{Action, Config, Event, LoadBalanceMode as M, Resources, Sim};
use lbscope::engine::{Engine, Narrate};

/// The seed the runs replay from. The default mode's request order within a pipelined
/// region is drawn from it (Flink's hash order); this one draws the order behind the
/// per-TaskManager counts below (the slots each TaskManager gets do not depend on it).
const SEED: u64 = 20;

fn figure_f() -> JobSpec {
    JobSpec {
        vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
        edges: vec![EdgeSpec::new("JV-A", "JV-B", P::Hash)],
    }
}

fn run(config: Config, tms: &[u32], setup: &[Action]) -> (Sim, Vec<Event>) {
    let mut s = Sim::new(config, SEED).unwrap();
    s.apply(&Action::DefineJob { job: figure_f() }).unwrap();
    for &n in tms {
        s.apply(&Action::AddTaskManager {
            name: None,
            slots: Some(n),
        })
        .unwrap();
    }
    for a in setup {
        s.apply(a).unwrap();
    }
    let ev = s.apply(&Action::Schedule).unwrap();
    (s, ev)
}

/// Mirrors `TaskManagerLoadBalanceModeTest#testReadTaskManagerLoadBalanceMode`.
mod task_manager_load_balance_mode_test {
    use super::*;

    fn conf(mode: Option<M>, evenly: bool) -> Config {
        Config {
            load_balance_mode: mode,
            evenly_spread_out_slots: evenly,
            ..Config::default()
        }
    }

    /// The six configurations of the Flink 1.19/1.20 test (the last versions that read
    /// `cluster.evenly-spread-out-slots`), expected values from its assertions.
    #[test]
    fn test_read_task_manager_load_balance_mode() {
        assert_eq!(conf(None, false).effective_mode(), M::None); // conf1: the default
        assert_eq!(conf(None, true).effective_mode(), M::Slots); // conf2
        assert_eq!(conf(Some(M::None), false).effective_mode(), M::None); // conf3
        assert_eq!(conf(Some(M::None), true).effective_mode(), M::None); // conf4: explicit NONE wins
        assert_eq!(conf(Some(M::Slots), false).effective_mode(), M::Slots); // conf5
        assert_eq!(conf(Some(M::Slots), true).effective_mode(), M::Slots); // conf6
    }

    /// The master version of the test reads the key alone (conf1, conf3, conf5).
    #[test]
    fn test_read_task_manager_load_balance_mode_master() {
        assert_eq!(conf(None, false).effective_mode(), M::None);
        assert_eq!(conf(Some(M::None), false).effective_mode(), M::None);
        assert_eq!(conf(Some(M::Slots), false).effective_mode(), M::Slots);
    }

    /// The same six configurations written as scenario JSON (Flink's upper-case values).
    #[test]
    fn test_read_task_manager_load_balance_mode_from_json() {
        let cases = [
            (r#"{}"#, M::None),
            (r#"{"cluster.evenly-spread-out-slots":true}"#, M::Slots),
            (r#"{"taskmanager.load-balance.mode":"NONE"}"#, M::None),
            (
                r#"{"taskmanager.load-balance.mode":"NONE","cluster.evenly-spread-out-slots":true}"#,
                M::None,
            ),
            (r#"{"taskmanager.load-balance.mode":"SLOTS"}"#, M::Slots),
            (
                r#"{"taskmanager.load-balance.mode":"SLOTS","cluster.evenly-spread-out-slots":true}"#,
                M::Slots,
            ),
            (
                r#"{"taskmanager.load-balance.mode":"MIN_RESOURCES"}"#,
                M::MinResources,
            ),
        ];
        for (json, want) in cases {
            let c: Config = serde_json::from_str(json).unwrap();
            assert_eq!(c.effective_mode(), want, "{json}");
            // And it survives a round trip (the scenario format writes non-defaults only).
            let back: Config = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
            assert_eq!(back.effective_mode(), want, "{json}");
        }
    }

    /// In the engine: 4 TaskManagers x 2 slots, figure (f). Explicit `NONE` with the
    /// deprecated key: any matching fills tm-0..tm-2, [4, 3, 2, 0]. Unset with the key:
    /// `SLOTS`, least utilisation spreads the 6 slots 2/2/1/1, [4, 3, 1, 1] (derived by
    /// following `DefaultResourceAllocationStrategy` and the simple slot offers).
    #[test]
    fn explicit_none_wins_in_the_engine() {
        let evenly = |mode| Config {
            load_balance_mode: mode,
            evenly_spread_out_slots: true,
            ..Config::default()
        };
        let (s, ev) = run(evenly(Some(M::None)), &[2, 2, 2, 2], &[]);
        assert_eq!(s.tasks_per_tm(), [4, 3, 2, 0]);
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::StrategiesChosen {
                effective_mode: M::None,
                ..
            }
        )));
        let (s, _) = run(evenly(None), &[2, 2, 2, 2], &[]);
        assert_eq!(s.tasks_per_tm(), [4, 3, 1, 1]);
        // SetConfig narrates what was set.
        let mut s = Sim::new(Config::default(), SEED).unwrap();
        let ev = s.apply(&Action::whole_config(&evenly(None))).unwrap();
        assert!(
            ev[0]
                .narrate()
                .contains("taskmanager.load-balance.mode=none (not set)"),
            "{}",
            ev[0].narrate()
        );
        let ev = s.apply(&Action::whole_config(&evenly(Some(M::None)))).unwrap();
        assert!(
            ev[0].narrate().contains("→ effective mode none"),
            "{}",
            ev[0].narrate()
        );
    }
}

/// The ResourceManager's slot choice per mode (`DefaultResourceAllocationStrategy`;
/// `MIN_RESOURCES` added by FLINK-37412: most utilisation first). Expected values
/// derived by reading the class: utilisation is the larger of the CPU and memory
/// shares in use (slots in use without declared resources), every job counted.
mod default_resource_allocation_strategy_test {
    use super::*;

    fn slots_per_tm(ev: &[Event]) -> Vec<(String, u32)> {
        ev.iter()
            .find_map(|e| match e {
                Event::SlotsAllocated { per_tm, .. } => {
                    Some(per_tm.iter().map(|c| (c.tm.clone(), c.n)).collect())
                }
                _ => None,
            })
            .unwrap_or_default()
    }

    fn occupied_tm1() -> Vec<Action> {
        vec![Action::OccupySlots {
            tm: "tm-1".into(),
            job: None,
            slots: 2,
            tasks: 2,
        }]
    }

    #[test]
    fn min_resources_fills_the_most_utilised_task_manager_first() {
        // tm-0 x 4 free, tm-1 x 4 with 2 held by another job (utilisation 1/2),
        // tm-2 x 4 free. 6 slots needed.
        let (s, ev) = run(Config::with_mode(M::MinResources), &[4, 4, 4], &occupied_tm1());
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::SlotsAllocated {
                by: ResourceMatching::MostUtilization,
                ..
            }
        )));
        // tm-1 first (2 slots up to 4/4), then tm-0 (4): tm-2 stays empty.
        assert_eq!(
            slots_per_tm(&ev),
            [("tm-0".to_string(), 4), ("tm-1".to_string(), 2)]
        );
        assert_eq!(s.tasks_per_tm()[2], 0);
    }

    #[test]
    fn slots_spread_over_the_least_utilised_and_none_takes_the_first() {
        let (_, ev) = run(Config::with_mode(M::Slots), &[4, 4, 4], &occupied_tm1());
        // One slot at a time to the least utilised (ties: first registered):
        // tm-0 (0 → 1/4), tm-2 (0 → 1/4), tm-0 (→ 2/4), tm-2 (→ 2/4), then all three at
        // 2/4: tm-0 (→ 3/4), tm-1 (→ 3/4).
        assert_eq!(
            slots_per_tm(&ev),
            [
                ("tm-0".to_string(), 3),
                ("tm-1".to_string(), 1),
                ("tm-2".to_string(), 2)
            ]
        );
        let (_, ev) = run(Config::with_mode(M::None), &[4, 4, 4], &occupied_tm1());
        assert_eq!(
            slots_per_tm(&ev),
            [("tm-0".to_string(), 4), ("tm-1".to_string(), 2)]
        );
    }

    #[test]
    fn utilisation_of_declared_resources_is_the_larger_share() {
        // tm-0: 4 cores / 4096 MB over 4 slots; tm-1: 8 cores / 8192 MB over 8 slots.
        // The group asks for 1 core and 1024 MB per slot.
        let group = Action::SetSlotSharingGroupResources {
            group: "default".into(),
            resources: Resources::new(1.0, 1024),
        };
        let mut setup = vec![
            Action::SetTaskManagerResources {
                tm: "tm-0".into(),
                resources: Resources::new(4.0, 4096),
            },
            Action::SetTaskManagerResources {
                tm: "tm-1".into(),
                resources: Resources::new(8.0, 8192),
            },
        ];
        setup.push(group);
        let (s, ev) = run(Config::with_mode(M::MinResources), &[4, 8], &setup);
        // Each slot: 1 core, 1024 MB. tm-0 reaches 25 % after one, tm-1 12.5 %: most
        // utilisation keeps filling tm-0 (4 slots, 100 %), then tm-1 gets 2.
        assert_eq!(
            slots_per_tm(&ev),
            [("tm-0".to_string(), 4), ("tm-1".to_string(), 2)]
        );
        let grid = s.slot_grid();
        assert_eq!(grid.rows[0].slots[0].profile, Resources::new(1.0, 1024));

        // Slots mode, tm-0: 4 cores / 8192 MB, tm-1: 16 cores / 2048 MB, slots of
        // 1 core / 512 MB. After k slots both are at k/4 (tm-0 by CPU, tm-1 by memory),
        // so they alternate: 3 and 3. By CPU alone tm-1 (k/16) would take most.
        let setup = vec![
            Action::SetTaskManagerResources {
                tm: "tm-0".into(),
                resources: Resources::new(4.0, 8192),
            },
            Action::SetTaskManagerResources {
                tm: "tm-1".into(),
                resources: Resources::new(16.0, 2048),
            },
            Action::SetSlotSharingGroupResources {
                group: "default".into(),
                resources: Resources::new(1.0, 512),
            },
        ];
        let (_, ev) = run(Config::with_mode(M::Slots), &[4, 4], &setup);
        assert_eq!(
            slots_per_tm(&ev),
            [("tm-0".to_string(), 3), ("tm-1".to_string(), 3)]
        );
    }
}

/// TaskManagers that already carry load: another job holds slots and runs tasks.
mod other_job_load {
    use super::*;

    fn busy_tm0() -> Vec<Action> {
        vec![Action::OccupySlots {
            tm: "tm-0".into(),
            job: Some("etl".into()),
            slots: 1,
            tasks: 6,
        }]
    }

    #[test]
    fn tasks_mode_starts_from_the_jobs_own_load_only() {
        // 4 TaskManagers x 2 slots, tm-0 runs 6 tasks of another job in one slot.
        // Flink's slot pool is per job: the tasks-balanced strategy's loading view holds
        // only this job's slots, so tm-0 looks empty and gets a 2-task request.
        let (s, ev) = run(Config::with_mode(M::Tasks), &[2, 2, 2, 2], &busy_tm0());
        assert_eq!(s.tasks_per_tm(), [2, 3, 3, 1]);
        let m = s.metrics().unwrap();
        let cluster: Vec<u32> = m.cluster_tasks_per_tm.iter().map(|c| c.n).collect();
        assert_eq!(cluster, [8, 3, 3, 1]);
        assert_eq!(m.cluster_tm.range, 7);
        let text: Vec<String> = ev.iter().map(Narrate::narrate).collect();
        assert!(
            text.iter()
                .any(|t| t.contains("with the other job's tasks tm-0:8, tm-1:3, tm-2:3, tm-3:1 (range 7)")),
            "{text:#?}"
        );
    }

    #[test]
    fn the_resource_manager_counts_the_other_jobs_slots() {
        let (s, _) = run(Config::with_mode(M::Slots), &[2, 2, 2, 2], &busy_tm0());
        // Least utilisation: tm-1..tm-3 first (0/2), then tm-0 (1/2) ties with them at
        // 1/2 and goes first as the first registered; simple offers: [2, 4, 2, 1].
        assert_eq!(s.tasks_per_tm(), [2, 4, 2, 1]);
    }

    #[test]
    fn other_job_slots_are_checked() {
        let mut s = Sim::new(Config::default(), SEED).unwrap();
        s.apply(&Action::AddTaskManager {
            name: None,
            slots: Some(2),
        })
        .unwrap();
        let before = format!("{s:?}");
        assert!(s
            .apply(&Action::OccupySlots {
                tm: "tm-0".into(),
                job: None,
                slots: 3,
                tasks: 1,
            })
            .is_err());
        assert!(s
            .apply(&Action::OccupySlots {
                tm: "nope".into(),
                job: None,
                slots: 1,
                tasks: 1,
            })
            .is_err());
        assert_eq!(before, format!("{s:?}"));
        // Two slots taken: a job of one slot cannot run.
        s.apply(&Action::OccupySlots {
            tm: "tm-0".into(),
            job: None,
            slots: 2,
            tasks: 4,
        })
        .unwrap();
        s.apply(&Action::DefineJob {
            job: JobSpec {
                vertices: vec![VertexSpec::new("A", 1)],
                edges: vec![],
            },
        })
        .unwrap();
        assert!(s.apply(&Action::Schedule).is_err());
        // Gone again: it runs.
        s.apply(&Action::OccupySlots {
            tm: "tm-0".into(),
            job: None,
            slots: 0,
            tasks: 0,
        })
        .unwrap();
        s.apply(&Action::Schedule).unwrap();
        assert_eq!(s.tasks_per_tm(), [1]);
    }
}
