//! Property tests of both phases (modest case counts to keep `cargo test` fast).

use crate::support;

use lbscope::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use lbscope::engine::flink::{Action, Config, JobStatus, LoadBalanceMode, Resources, SchedulerType, Sim};
use lbscope::engine::Engine;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The seed the single runs replay from. The default mode's request order within a
/// pipelined region is drawn from it (Flink's hash order); for the uneven TaskManagers
/// below, this one draws both two-task requests first (about 1 order in 15), the case
/// where the default beats tasks mode. `flink_request_order` checks the spread.
const SEED: u64 = 28;

/// A random DAG: edges only go from a lower to a higher vertex index.
fn arb_job(max_vertices: usize, max_p: u32, groups: bool, colo: bool) -> impl Strategy<Value = JobSpec> {
    (1..=max_vertices)
        .prop_flat_map(move |n| {
            (
                prop::collection::vec((1..=max_p, 0..2u8, 0..3u8), n),
                prop::collection::vec((0..n, 0..n, 0..3u8), 0..(2 * n)),
            )
        })
        .prop_map(move |(vs, es)| {
            let vertices: Vec<VertexSpec> = vs
                .iter()
                .enumerate()
                .map(|(i, &(p, g, c))| VertexSpec {
                    name: format!("V{i}"),
                    parallelism: p,
                    slot_sharing_group: (groups && g == 1).then(|| "other".to_string()),
                    // Co-location only inside one slot sharing group (Flink requires it).
                    co_location_group: (colo && c == 0 && !(groups && g == 1)).then(|| "co".to_string()),
                })
                .collect();
            let mut edges = Vec::new();
            // One edge per producer/consumer pair (a second one is refused).
            let mut pairs = BTreeSet::new();
            for (a, b, k) in es {
                if a >= b || !pairs.insert((a, b)) {
                    continue;
                }
                let (pa, pb) = (vertices[a].parallelism, vertices[b].parallelism);
                let pattern = match k {
                    0 if pa == pb => P::Forward,
                    0 | 1 => P::Rescale,
                    _ => P::Hash,
                };
                edges.push(EdgeSpec::new(&vertices[a].name, &vertices[b].name, pattern));
            }
            JobSpec { vertices, edges }
        })
}

fn run(mode: LoadBalanceMode, job: &JobSpec, tm_slots: &[u32]) -> Sim {
    let mut s = Sim::new(Config::with_mode(mode), SEED).unwrap();
    s.apply(&Action::DefineJob { job: job.clone() }).unwrap();
    for &n in tm_slots {
        s.apply(&Action::AddTaskManager {
            name: None,
            slots: Some(n),
        })
        .unwrap();
    }
    s.apply(&Action::Schedule).unwrap();
    s
}

fn check_invariants(s: &Sim) -> Result<(), TestCaseError> {
    let job = s.job().unwrap();
    let plan = s.plan().unwrap();
    prop_assert_eq!(s.status(), JobStatus::Running);
    // Every subtask is in exactly one slot request, and request_of agrees.
    let mut seen = BTreeSet::new();
    for (r, req) in plan.requests.iter().enumerate() {
        let mut vertices = BTreeSet::new();
        for st in &req.subtasks {
            prop_assert!(seen.insert((st.vertex, st.subtask)), "subtask twice: {:?}", st);
            // No slot holds two subtasks of one vertex.
            prop_assert!(
                vertices.insert(st.vertex),
                "vertex {} twice in slot {}",
                st.vertex,
                r
            );
            prop_assert_eq!(plan.request_of[st.vertex as usize][st.subtask as usize], r as u32);
            // Requests never mix slot sharing groups.
            prop_assert_eq!(job.vertices[st.vertex as usize].slot_sharing_group, req.group);
        }
    }
    // Every subtask of the plan's parallelism (the configured one, except with the
    // adaptive scheduler, whose parallelism follows the slots).
    let planned: u64 = s.parallelism().iter().map(|&p| u64::from(p)).sum();
    prop_assert_eq!(seen.len() as u64, planned);
    for (v, &p) in s.parallelism().iter().enumerate() {
        // Bounds may change after the plan was made; never above the max parallelism.
        let upper = lbscope::engine::flink::key_group_range_assignment::compute_default_max_parallelism(
            job.vertices[v].parallelism,
        );
        prop_assert!(
            p >= 1 && p <= upper,
            "vertex {} runs {} of at most {}",
            v,
            p,
            upper
        );
    }
    // Co-location: subtask i of every member shares one slot request.
    for (c, _) in job.co_location_groups.iter().enumerate() {
        let members: Vec<usize> = (0..job.vertices.len())
            .filter(|&v| job.vertices[v].co_location_group == Some(c))
            .collect();
        for w in members.windows(2) {
            let (a, b) = (&plan.request_of[w[0]], &plan.request_of[w[1]]);
            for i in 0..a.len().min(b.len()) {
                prop_assert_eq!(a[i], b[i], "co-location broken at subtask {}", i);
            }
        }
    }
    // Every request is in exactly one slot, and the grid agrees.
    let mut slots = BTreeSet::new();
    for (r, p) in s.placement().iter().enumerate() {
        let a = p.expect("every request placed");
        prop_assert!(slots.insert(a));
        let tm = &s.task_managers()[a.tm as usize];
        prop_assert!(tm.is_running());
        prop_assert_eq!(tm.slots[a.slot as usize], Some(r as u32));
    }
    let grid = s.slot_grid();
    let cells: u64 = grid.rows.iter().map(|r| u64::from(r.tasks)).sum();
    prop_assert_eq!(cells, planned);
    let per_tm: u32 = s.tasks_per_tm().iter().sum();
    prop_assert_eq!(u64::from(per_tm), planned);
    Ok(())
}

fn run_with(config: Config, job: &JobSpec, tm_slots: &[u32]) -> Sim {
    let mut s = Sim::new(config, 11).unwrap();
    s.apply(&Action::DefineJob { job: job.clone() }).unwrap();
    for &n in tm_slots {
        s.apply(&Action::AddTaskManager {
            name: None,
            slots: Some(n),
        })
        .unwrap();
    }
    s.apply(&Action::Schedule).unwrap();
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(support::proptest_cases()))]

    /// Both phases, all three modes: every subtask in exactly one slot, no slot with two
    /// subtasks of one vertex, co-location respected, every request in its own slot.
    #[test]
    fn invariants_hold_in_every_mode(
        job in arb_job(6, 8, true, true),
        tms in prop::collection::vec(1..5u32, 1..5),
        restart in 0..100u64,
    ) {
        let total: u32 = job.vertices.iter().map(|v| v.parallelism).sum();
        // Enough room for any plan: pad the last TaskManager.
        let mut tm_slots = tms.clone();
        let have: u32 = tm_slots.iter().sum();
        if have < total {
            *tm_slots.last_mut().unwrap() += total - have;
        }
        for mode in [LoadBalanceMode::None, LoadBalanceMode::Slots, LoadBalanceMode::Tasks] {
            let mut s = run(mode, &job, &tm_slots);
            check_invariants(&s)?;
            // Failover keeps the invariants whenever the job runs again.
            let before = s.plan().unwrap().tasks_per_request();
            s.apply(&Action::LoseTaskManager { tm: "tm-0".into(), restart_after_ms: Some(restart) })
                .unwrap();
            if s.status() == JobStatus::Running {
                check_invariants(&s)?;
                prop_assert_eq!(s.plan().unwrap().tasks_per_request(), before);
            }
        }
    }

    /// The same invariants with `min_resources`, local recovery and the adaptive
    /// scheduler, through a failover and the TaskManager's return.
    #[test]
    fn invariants_hold_with_min_resources_local_recovery_and_adaptive(
        job in arb_job(5, 6, true, true),
        tms in prop::collection::vec(1..5u32, 1..4),
        restart in prop::option::of(0..20_000u64),
    ) {
        let total: u32 = job.vertices.iter().map(|v| v.parallelism).sum();
        let mut tm_slots = tms.clone();
        let have: u32 = tm_slots.iter().sum();
        if have < total {
            *tm_slots.last_mut().unwrap() += total - have;
        }
        let adaptive = |mode, local| Config {
            scheduler: SchedulerType::Adaptive,
            local_recovery: local,
            ..Config::with_mode(mode)
        };
        let configs = [
            Config::with_mode(LoadBalanceMode::MinResources),
            Config { local_recovery: true, ..Config::with_mode(LoadBalanceMode::Tasks) },
            adaptive(LoadBalanceMode::None, false),
            adaptive(LoadBalanceMode::Slots, false),
            adaptive(LoadBalanceMode::Tasks, true),
        ];
        for config in configs {
            let mut s = run_with(config, &job, &tm_slots);
            check_invariants(&s)?;
            let lost = s.apply(&Action::LoseTaskManager { tm: "tm-0".into(), restart_after_ms: restart });
            prop_assert!(lost.is_ok());
            if s.status() == JobStatus::Running {
                check_invariants(&s)?;
            }
            if restart.is_none() {
                s.apply(&Action::RestoreTaskManager { tm: "tm-0".into() }).unwrap();
                if s.status() == JobStatus::Running {
                    check_invariants(&s)?;
                }
            }
        }
    }

    /// Random action sequences over every Flink action: no panic, a refused action
    /// leaves the state as it was, and a running job keeps the invariants.
    #[test]
    fn random_actions_keep_the_invariants(
        job in arb_job(4, 5, true, true),
        ops in prop::collection::vec((0..12u8, 0..8u32, 0..4u8), 1..40),
    ) {
        let mut s = Sim::new(Config::default(), 3).unwrap();
        s.apply(&Action::DefineJob { job: job.clone() }).unwrap();
        let modes = LoadBalanceMode::ALL;
        for (k, n, m) in ops {
            let tm = format!("tm-{}", n % 4);
            let action = match k {
                0 | 1 => Action::AddTaskManager { name: None, slots: Some(1 + n % 4) },
                2 => Action::LoseTaskManager { tm, restart_after_ms: (m % 2 == 0).then_some(u64::from(n) * 10) },
                3 => Action::RestoreTaskManager { tm },
                4 => Action::SetTaskManagerResources {
                    tm,
                    resources: (m > 0).then(|| Resources::new(f64::from(1 + n), 1024 * u64::from(1 + n)).unwrap()),
                },
                5 => Action::SetSlotSharingGroupResources {
                    group: if m % 2 == 0 { "default".into() } else { "other".into() },
                    resources: (m > 1).then(|| Resources::new(0.5 * f64::from(1 + n % 3), 256).unwrap()),
                },
                6 => Action::SetResourceRequirements {
                    vertex: format!("V{}", n % 4),
                    lower_bound: 1 + u32::from(m % 2),
                    upper_bound: 1 + n % 6,
                },
                7 => Action::OccupySlots { tm, job: None, slots: u32::from(m % 3), tasks: n },
                8 => Action::whole_config(&Config {
                        scheduler: if m % 2 == 0 { SchedulerType::Default } else { SchedulerType::Adaptive },
                        local_recovery: n % 2 == 0,
                        adaptive_submission_stabilization_timeout: lbscope::engine::flink::DurationMs(u64::from(n) * 7),
                        ..Config::with_mode(modes[(n % 4) as usize])
                    }),
                9 => Action::RemoveTaskManager { tm },
                _ => Action::Schedule,
            };
            let before = format!("{s:?}");
            match s.apply(&action) {
                Ok(_) => {
                    if s.status() == JobStatus::Running {
                        check_invariants(&s)?;
                    }
                }
                Err(e) => {
                    prop_assert_eq!(&before, &format!("{s:?}"), "{:?} changed the state: {}", action, e);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }

    /// Determinism: the same actions give the same events.
    #[test]
    fn deterministic(job in arb_job(5, 6, true, true), n in 1..4u32) {
        let total: u32 = job.vertices.iter().map(|v| v.parallelism).sum();
        let per = total.div_ceil(n);
        let a = run(LoadBalanceMode::Tasks, &job, &vec![per; n as usize]);
        let b = run(LoadBalanceMode::Tasks, &job, &vec![per; n as usize]);
        prop_assert_eq!(a.placement(), b.placement());
        prop_assert_eq!(a.metrics(), b.metrics());
    }

    /// The balance property that actually holds.
    ///
    /// "tasks mode's per-TaskManager range never exceeds the default's" is *not* true
    /// in general for Flink's algorithms: the tasks-balanced matching is a greedy
    /// largest-request-first on the least-loaded TaskManager with a free slot, and slot
    /// capacities can trap it. Counter-example (see
    /// `tasks_mode_can_lose_to_default_with_uneven_task_managers`): tm-0 with 2 slots,
    /// tm-1 with 4, JV-A 6 → hash → JV-B 2. Both phase 1 strategies give [2, 2, 1, 1,
    /// 1, 1]; the default offers tm-0's slots first and lands [4, 4] (range 0), while
    /// the greedy puts one 2-task request on each TaskManager, fills tm-0 with a 1-task
    /// request and ends at [3, 5] (range 2). Multiple slot sharing groups (request sizes
    /// no longer within 1 of each other) can trap the greedy in the same way.
    ///
    /// What does hold: with one slot sharing group, no co-location, and TaskManagers
    /// that all have the same number of slots, exactly filled by the job (requests ==
    /// slots), tasks mode's per-TaskManager range is at most 1 and never exceeds the
    /// default's. (The balanced phase 1 makes request sizes differ by at most 1, the
    /// greedy spreads the larger ones round-robin, and every TaskManager ends with all
    /// its slots used; if the total is divisible by the TaskManager count the range is
    /// 0, otherwise no placement can reach 0.)
    #[test]
    fn tasks_range_never_exceeds_default_on_uniform_full_clusters(
        n_tms in 1..5u32,
        slots in 1..5u32,
        job in arb_job(6, 16, false, false),
    ) {
        let max_p = n_tms * slots;
        // Scale parallelisms into 1..=max_p and make sure one vertex reaches max_p.
        let mut job = job;
        for v in &mut job.vertices {
            v.parallelism = 1 + (v.parallelism - 1) % max_p;
        }
        job.vertices[0].parallelism = max_p;
        job.edges.retain(|e| e.pattern != P::Forward);
        let tm_slots = vec![slots; n_tms as usize];
        let d = run(LoadBalanceMode::None, &job, &tm_slots);
        let t = run(LoadBalanceMode::Tasks, &job, &tm_slots);
        prop_assert_eq!(d.placement().len() as u32, max_p);
        prop_assert_eq!(t.placement().len() as u32, max_p);
        let (dr, tr) = (d.metrics().unwrap().tm.range, t.metrics().unwrap().tm.range);
        prop_assert!(tr <= 1, "tasks range {} > 1: {:?}", tr, t.tasks_per_tm());
        prop_assert!(tr <= dr, "tasks {:?} vs default {:?}", t.tasks_per_tm(), d.tasks_per_tm());
    }
}

/// With uneven TaskManagers tasks mode is steady but not optimal: it gives [3, 5] in
/// every run, while the default reaches [4, 4] when both two-task requests arrive
/// first (the seed above draws that order; about 1 in 15 orders, see
/// `flink_request_order`).
#[test]
fn tasks_mode_can_lose_to_default_with_uneven_task_managers() {
    let job = JobSpec {
        vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 2)],
        edges: vec![EdgeSpec::new("JV-A", "JV-B", P::Hash)],
    };
    let d = run(LoadBalanceMode::None, &job, &[2, 4]);
    let t = run(LoadBalanceMode::Tasks, &job, &[2, 4]);
    assert_eq!(d.tasks_per_slot(), [2, 2, 1, 1, 1, 1]);
    assert_eq!(t.tasks_per_slot(), [2, 2, 1, 1, 1, 1]);
    assert_eq!(d.tasks_per_tm(), [4, 4]);
    assert_eq!(t.tasks_per_tm(), [3, 5]);
}
