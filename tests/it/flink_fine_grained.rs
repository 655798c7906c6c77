//! Fine-grained resource management: slot sharing groups with CPU and memory,
//! TaskManagers with a total resource and dynamic slots, the request pre-mapping, and
//! local recovery's preferred allocations — Flink's unit tests mirrored on lbscope's
//! functions, then whole runs.

use lbscope::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use lbscope::engine::flink::resource_request_pre_mappings::{PreMappingError, ResourceRequestPreMappings};
use lbscope::engine::flink::slot_matching::{self, MatchCtx, Tally, View};
use lbscope::engine::flink::task_manager::{Cluster, SlotAddr};
use lbscope::engine::flink::{
    Action, Config, DurationMs, Event, JobStatus, LoadBalanceMode as M, ResourceProfile, Resources, Sim,
};
use lbscope::engine::{Engine, Narrate};
use std::collections::{BTreeMap, VecDeque};

const U: ResourceProfile = ResourceProfile::Unknown;
const ANY: ResourceProfile = ResourceProfile::Any;

fn of(cpu: f64, mb: u64) -> ResourceProfile {
    ResourceProfile::of(Resources::new(cpu, mb).unwrap())
}

/// Mirrors `ResourceRequestPreMappingsTest` (expected values from its assertions; the
/// small and big profiles differ in memory as upstream's differ in managed memory).
mod resource_request_pre_mappings_test {
    use super::*;

    fn small() -> ResourceProfile {
        of(1.0, 10)
    }

    fn big() -> ResourceProfile {
        of(1.0, 20)
    }

    fn not_matchable(m: &ResourceRequestPreMappings) {
        assert!(!m.is_matching_fulfilled());
        assert!(m.base_required_resource_pre_mappings().is_empty());
        assert!(m.remaining_flexible_resources().is_empty());
    }

    #[test]
    fn test_include_invalid_profile_of_request_or_resource() {
        // ZERO has no counterpart in lbscope; UNKNOWN slots and ANY requests are refused.
        assert_eq!(
            ResourceRequestPreMappings::create_from(&[], &[U]),
            Err(PreMappingError::SlotIsUnknown)
        );
        assert_eq!(
            ResourceRequestPreMappings::create_from(&[ANY], &[]),
            Err(PreMappingError::RequestIsAny)
        );
    }

    #[test]
    fn test_build_when_unavailable_total_resources_or_empty_requests_resources() {
        let m = ResourceRequestPreMappings::create_from(&[U], &[]).unwrap();
        assert!(!m.is_matching_fulfilled());
        assert!(m.base_required_resource_pre_mappings().is_empty());
        not_matchable(&ResourceRequestPreMappings::create_from(&[], &[]).unwrap());
    }

    #[test]
    fn test_build_when_missing_resource_to_match_fine_grained_request() {
        let m =
            ResourceRequestPreMappings::create_from(&[small(), small(), big()], &[small(), small(), small()])
                .unwrap();
        not_matchable(&m);
        let m = ResourceRequestPreMappings::create_from(&[U, small(), big()], &[small(), small(), small()])
            .unwrap();
        not_matchable(&m);
    }

    #[test]
    fn test_build_successfully_that_fined_grained_matched_exactly() {
        let m = ResourceRequestPreMappings::create_from(
            &[small(), small(), big()],
            &[big(), small(), small(), small()],
        )
        .unwrap();
        assert!(m.is_matching_fulfilled());
        let base = m.base_required_resource_pre_mappings();
        assert_eq!(base.len(), 2);
        assert_eq!(base[&small()], BTreeMap::from([(small(), 2)]));
        assert_eq!(base[&big()], BTreeMap::from([(big(), 1)]));
        assert_eq!(m.available_in_flexible(small()), 1);
    }

    #[test]
    fn test_build_successfully_that_fined_grained_to_matched_unknown_requests() {
        let m = ResourceRequestPreMappings::create_from(
            &[U, U, small(), big()],
            &[big(), big(), big(), ANY, small(), small()],
        )
        .unwrap();
        assert!(m.is_matching_fulfilled());
        let base = m.base_required_resource_pre_mappings();
        assert_eq!(base.len(), 3);
        assert_eq!(base[&small()], BTreeMap::from([(small(), 1)]));
        assert_eq!(base[&big()], BTreeMap::from([(big(), 1)]));
        assert_eq!(base[&U].values().sum::<u32>(), 2);
        assert_eq!(m.remaining_flexible_resources().values().sum::<u32>(), 2);
    }

    #[test]
    fn test_build_successfully_that_any_to_matched_unknown_and_fine_grained_requests() {
        let m = ResourceRequestPreMappings::create_from(
            &[U, U, small(), small(), big(), big()],
            &[big(), small(), ANY, ANY, ANY, ANY],
        )
        .unwrap();
        assert!(m.is_matching_fulfilled());
        let base = m.base_required_resource_pre_mappings();
        assert_eq!(base.len(), 3);
        assert_eq!(base[&small()], BTreeMap::from([(small(), 1), (ANY, 1)]));
        assert_eq!(base[&big()], BTreeMap::from([(big(), 1), (ANY, 1)]));
        assert_eq!(base[&U], BTreeMap::from([(ANY, 2)]));
        assert_eq!(m.remaining_flexible_resources().values().sum::<u32>(), 0);
    }

    #[test]
    fn test_has_available_profile() {
        let m = ResourceRequestPreMappings::create_from(&[U, U], &[small(), small(), small()]).unwrap();
        assert!(m.has_available_profile(small(), small()));
        assert!(!m.has_available_profile(small(), big()));
        assert!(m.has_available_profile(U, small()));
        assert!(!m.has_available_profile(U, big()));
    }

    #[test]
    fn test_decrease() {
        let mut m = ResourceRequestPreMappings::create_from(&[U, U], &[small(), small(), small()]).unwrap();
        m.decrease(U, small()).unwrap();
        assert_eq!(m.available_in_base(U, small()), 1);
        assert!(m.decrease(small(), small()).is_err());

        let mut m2 = ResourceRequestPreMappings::from_parts(
            true,
            BTreeMap::from([(U, BTreeMap::from([(small(), 2)]))]),
            BTreeMap::from([(small(), 1), (big(), 2)]),
        );
        m2.decrease(U, big()).unwrap();
        assert_eq!(m2.available_in_flexible(big()), 1);
        assert_eq!(m2.available_in_base(U, small()), 1);
        assert_eq!(m2.available_in_flexible(small()), 2);
        m2.decrease(U, small()).unwrap();
        assert!(m2.decrease(U, small()).is_err());
    }
}

/// A cluster of TaskManagers whose slots have the given profiles (`None`: `ANY`),
/// every slot in view; `loads` are tasks already on each TaskManager.
struct Bench {
    cluster: Cluster,
    view: View,
    tm_tasks: Vec<u32>,
}

impl Bench {
    fn new(tms: &[&[Option<ResourceProfile>]]) -> Bench {
        let mut cluster = Cluster::default();
        for slots in tms {
            let t = cluster.add(None, slots.len() as u32);
            let tm = &mut cluster.tms[t];
            // A TaskManager with resources shows its carved profiles; positions
            // without one are ANY.
            tm.resources = Resources::new(100.0, 100_000);
            for (i, p) in slots.iter().enumerate() {
                tm.slot_profiles[i] = p.and_then(|p| p.resources());
            }
        }
        let mut view = View::new(&cluster);
        for (t, slots) in tms.iter().enumerate() {
            for (i, p) in slots.iter().enumerate() {
                let a = SlotAddr {
                    tm: t as u32,
                    slot: i as u32,
                };
                view.hold(a, p.unwrap_or(ANY));
            }
        }
        let n = tms.len();
        Bench {
            cluster,
            view,
            tm_tasks: vec![0; n],
        }
    }

    /// Run `prefer` (local recovery) then the tasks-balanced matching with the
    /// pre-mapping, as the slot pool does with a full view; returns the TaskManager of
    /// each request.
    fn tasks_balanced(
        &mut self,
        tasks: &[u32],
        profiles: &[ResourceProfile],
        prefer: &[Option<SlotAddr>],
    ) -> Vec<Option<u32>> {
        let mut placement = vec![None; tasks.len()];
        let mut pending: VecDeque<u32> = (0..tasks.len() as u32).collect();
        let mut ctx = MatchCtx {
            cluster: &mut self.cluster,
            tasks,
            profiles,
            tm_tasks: &mut self.tm_tasks,
            placement: &mut placement,
            at_ms: 0,
            summarise: false,
            tally: Tally::default(),
        };
        if !prefer.is_empty() {
            slot_matching::previous_allocations(&mut ctx, &mut self.view, &mut pending, prefer);
        }
        let left: Vec<ResourceProfile> = pending.iter().map(|&r| profiles[r as usize]).collect();
        let mut premap = ResourceRequestPreMappings::create_from(&left, &self.view.profiles()).unwrap();
        if premap.is_matching_fulfilled() {
            slot_matching::fewest_tasks(&mut ctx, &mut self.view, &mut pending, true, Some(&mut premap));
        }
        placement.iter().map(|p| p.map(|a| a.tm)).collect()
    }
}

/// Mirrors `TasksBalancedRequestSlotMatchingStrategyTest` (expected values from its
/// assertions).
mod tasks_balanced_request_slot_matching_strategy_test {
    use super::*;

    #[test]
    fn test_match_requests_and_slots_risk_of_fine_grained_resources_matched_to_unknown_profile() {
        let (small, big) = (of(1.0, 100), of(2.0, 100));
        let mut b = Bench::new(&[&[Some(big)], &[Some(small)]]);
        b.tm_tasks = vec![0, 9];
        // The UNKNOWN request (100 tasks) goes first and would take the big slot on the
        // idle tm-0; the pre-mapping reserves it for the big request instead.
        let placed = b.tasks_balanced(&[100, 1], &[U, big], &[]);
        assert_eq!(placed, [Some(1), Some(0)]);
    }

    #[test]
    fn test_match_requests_and_slots_missing_fine_grained_resources() {
        let (small, big) = (of(1.0, 100), of(2.0, 100));
        let mut b = Bench::new(&[&[Some(big)], &[Some(big)], &[Some(big)]]);
        // A small request never matches a big slot: the pre-mapping fails and nothing
        // is matched.
        let placed = b.tasks_balanced(&[6, 6, 6], &[small, U, big], &[]);
        assert_eq!(placed, [None, None, None]);
    }
}

/// Mirrors `PreferredAllocationRequestSlotMatchingStrategyTest` (expected values from
/// its assertions).
mod preferred_allocation_request_slot_matching_strategy_test {
    use super::*;

    #[test]
    fn test_new_slots_are_matched_against_preferred_allocation_ids() {
        let mut b = Bench::new(&[&[None], &[None]]);
        let a1 = SlotAddr { tm: 0, slot: 0 };
        let a2 = SlotAddr { tm: 1, slot: 0 };
        // Request 0 prefers a2, request 1 prefers a1.
        let placed = b.tasks_balanced(&[0, 0], &[U, U], &[Some(a2), Some(a1)]);
        assert_eq!(placed, [Some(1), Some(0)]);
    }

    #[test]
    fn test_new_slots_are_matched_against_allocation_and_balanced_preferred_ids() {
        let fine = of(1.0, 100);
        // tm-0: slot 0 (ANY, allocation 1), 1-2 ANY, 3-4 fine; tm-1: slot 0 (fine,
        // allocation 2), 1-2 ANY, 3-4 fine.
        let tm0 = [None, None, None, Some(fine), Some(fine)];
        let tm1 = [Some(fine), None, None, Some(fine), Some(fine)];
        let mut b = Bench::new(&[&tm0, &tm1]);
        let tasks = [2, 3, 2, 1, 3, 5];
        let profiles = [U, fine, U, U, fine, fine];
        let prefer = [
            Some(SlotAddr { tm: 0, slot: 0 }),
            Some(SlotAddr { tm: 1, slot: 0 }),
            None,
            None,
            None,
            None,
        ];
        let placed = b.tasks_balanced(&tasks, &profiles, &prefer);
        // tm-0: requests 1, 6, 4; tm-1: requests 2, 5, 3 (upstream numbers them from 1).
        assert_eq!(placed, [Some(0), Some(1), Some(1), Some(0), Some(1), Some(0)]);
    }
}

// ---------------------------------------------------------------- whole runs

fn job(vs: &[(&str, u32, &str)], es: &[(&str, &str, P)]) -> JobSpec {
    JobSpec {
        vertices: vs
            .iter()
            .map(|&(n, p, g)| VertexSpec {
                slot_sharing_group: Some(g.to_string()),
                ..VertexSpec::new(n, p)
            })
            .collect(),
        edges: es.iter().map(|&(a, b, p)| EdgeSpec::new(a, b, p)).collect(),
    }
}

#[test]
fn dynamic_slots_are_carved_from_a_task_managers_total() {
    // One TaskManager of 4 cores / 4096 MB declared with 2 slots (default slot 2 cores
    // / 2048 MB). The group asks for 1 core / 1024 MB per slot: 4 slots fit, 2 beyond
    // the configured count.
    let mut s = Sim::new(Config::default(), 1).unwrap();
    s.apply(&Action::DefineJob {
        job: job(&[("A", 4, "a")], &[]),
    })
    .unwrap();
    s.apply(&Action::AddTaskManager {
        name: Some("big".into()),
        slots: Some(2),
    })
    .unwrap();
    let ev = s
        .apply(&Action::SetTaskManagerResources {
            tm: "big".into(),
            resources: Resources::new(4.0, 4096),
        })
        .unwrap();
    assert!(
        ev[0]
            .narrate()
            .contains("default slot (2 slots) 2 cores, 2048 MB"),
        "{}",
        ev[0].narrate()
    );
    s.apply(&Action::SetSlotSharingGroupResources {
        group: "a".into(),
        resources: Resources::new(1.0, 1024),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    assert_eq!(s.status(), JobStatus::Running);
    let grid = s.slot_grid();
    assert_eq!(grid.rows[0].slots.len(), 4);
    assert!(grid.rows[0]
        .slots
        .iter()
        .all(|c| c.profile == Resources::new(1.0, 1024)));
    // A fifth subtask cannot fit: refused up front, with the numbers.
    s.apply(&Action::DefineJob {
        job: job(&[("A", 5, "a")], &[]),
    })
    .unwrap();
    s.apply(&Action::SetSlotSharingGroupResources {
        group: "a".into(),
        resources: Resources::new(1.0, 1024),
    })
    .unwrap();
    assert_eq!(
        s.apply(&Action::Schedule),
        Err(lbscope::engine::flink::Error::NotEnoughSlots {
            needed: 5,
            available: 4
        })
    );
    // Two 1-core slots and one 3-core slot need 5 cores of 4: the ResourceManager
    // cannot host the last one and the requests time out (slot.request.timeout).
    s.apply(&Action::whole_config(&Config {
        slot_request_timeout: DurationMs(1000),
        ..Config::default()
    }))
    .unwrap();
    s.apply(&Action::DefineJob {
        job: job(&[("A", 2, "a"), ("B", 1, "b")], &[]),
    })
    .unwrap();
    for (g, cpu, mb) in [("a", 1.0, 1024), ("b", 3.0, 3072)] {
        s.apply(&Action::SetSlotSharingGroupResources {
            group: g.into(),
            resources: Resources::new(cpu, mb),
        })
        .unwrap();
    }
    let ev = s.apply(&Action::Schedule).unwrap();
    assert_eq!(s.status(), JobStatus::Failed);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::SlotsAllocated { unfulfilled: 1, .. })));
    // After the failure the dynamic positions are gone again.
    assert_eq!(s.slot_grid().rows[0].slots.len(), 2);
}

#[test]
fn tasks_mode_keeps_fine_grained_slots_for_fine_grained_requests() {
    // "heavy" (2 cores / 2048 MB): H with 2 subtasks, 1 task per request; "light"
    // (UNKNOWN): L1 and L2 with 4 subtasks, 2 tasks per request. Two TaskManagers of
    // 4 cores / 4096 MB over 4 slots (default 1 core / 1024 MB). The ResourceManager
    // (any matching) carves the two 2-core slots on tm-0 and four default slots on
    // tm-1. Tasks mode takes the 2-task light requests first; an UNKNOWN request
    // matches any slot, and tm-0 ties with tm-1 as the least loaded, so greedily a
    // light request would take a 2-core slot and leave a heavy request without one.
    // The pre-mapping reserves the 2-core slots for the heavy requests: light on tm-1,
    // heavy on tm-0, [2, 8] (complete, though not balanced).
    let mut s = Sim::new(Config::with_mode(M::Tasks), 1).unwrap();
    s.apply(&Action::DefineJob {
        job: job(&[("H", 2, "heavy"), ("L1", 4, "light"), ("L2", 4, "light")], &[]),
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 2,
        slots: Some(4),
    })
    .unwrap();
    for tm in ["tm-0", "tm-1"] {
        s.apply(&Action::SetTaskManagerResources {
            tm: tm.into(),
            resources: Resources::new(4.0, 4096),
        })
        .unwrap();
    }
    s.apply(&Action::SetSlotSharingGroupResources {
        group: "heavy".into(),
        resources: Resources::new(2.0, 2048),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    assert_eq!(s.status(), JobStatus::Running);
    assert_eq!(s.tasks_per_tm(), [2, 8]);
    let plan = s.plan().unwrap().clone();
    let grid = s.slot_grid();
    for (r, req) in plan.requests.iter().enumerate() {
        let a = s.placement()[r].unwrap();
        let cell = &grid.rows[a.tm as usize].slots[a.slot as usize];
        let want = if req.group == 0 {
            Resources::new(2.0, 2048)
        } else {
            Resources::new(1.0, 1024)
        };
        assert_eq!(cell.profile, want, "request {r}");
    }
}

#[test]
fn local_recovery_keeps_the_survivors_in_place_after_a_failover() {
    // The doc's failover (tasks mode, tm-2 lost and back after 50 ms, default
    // 20 ms max-interval): without local recovery the stale view gives [4, 3, 2]
    // (tests/flink_failover.rs); with it every surviving request keeps its slot and
    // only tm-2's two requests wait for tm-2: [3, 3, 3].
    let mut cfg = Config::with_mode(M::Tasks);
    cfg.local_recovery = true;
    let mut s = Sim::new(cfg, 3).unwrap();
    s.apply(&Action::DefineJob {
        job: JobSpec {
            vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
            edges: vec![EdgeSpec::new("JV-A", "JV-B", P::Hash)],
        },
    })
    .unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 3,
        slots: Some(2),
    })
    .unwrap();
    s.apply(&Action::Schedule).unwrap();
    let before = s.placement().to_vec();
    let ev = s
        .apply(&Action::LoseTaskManager {
            tm: "tm-2".into(),
            restart_after_ms: Some(50),
        })
        .unwrap();
    assert_eq!(s.tasks_per_tm(), [3, 3, 3]);
    let kept = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::SlotRequestMatched {
                    rule: lbscope::engine::flink::slot_matching::MatchRule::PreviousAllocation,
                    ..
                }
            )
        })
        .count();
    assert_eq!(kept, 4);
    for (r, a) in before.iter().enumerate() {
        if a.unwrap().tm != 2 {
            assert_eq!(s.placement()[r], *a, "request {r} moved");
        }
    }
}
