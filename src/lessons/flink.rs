//! The Flink lessons (seed `002`: balanced tasks scheduling).

use super::text::{and_list, bracket};
use super::{
    setting_from, step, About, Concept, Controls as C, Ctx, Lesson, Narrator, RealSystem, Said, Step,
    SubjectKind as F,
};
use crate::engine::flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
use crate::engine::flink::seed_spread::{describe, outcomes_over_seeds};
use crate::engine::flink::{Action as A, Config, DurationMs, Event as E, LoadBalanceMode as M, Sim};
use crate::engine::Engine;
use crate::scenario::Log;

type FCtx = Ctx<Sim>;

/// The seed the Flink lessons replay from. Flink leaves the order of a pipelined
/// region's slot requests to hash order, which lbscope draws from the seed; this seed
/// draws the document's figures (figure (h): tm-0 4, tm-1 3, tm-2 2), and each lesson
/// quotes the spread over [`SPREAD_SEEDS`] seeds next to it.
const SEED: u64 = 20;
/// How many seeds a lesson's spread is counted over.
const SPREAD_SEEDS: u64 = 10;

/// "[4, 3, 2] in 6 of 10 seeds, [3, 3, 3] in 4": `config`, then `setup` and the first
/// `cursor` of `actions`, replayed under seeds 0..[`SPREAD_SEEDS`].
fn spread(config: &Config, setup: &[A], actions: &[A], cursor: usize) -> String {
    let acts = setup.iter().chain(actions.iter().take(cursor));
    outcomes_over_seeds(config, acts, 0..SPREAD_SEEDS)
        .map(|o| describe(&o))
        .unwrap_or_default()
}

/// "tm-0 took requests 1 and 4 (4 tasks), …" from the last round's matches.
fn who_took_what(c: &FCtx) -> String {
    let mut per: Vec<(String, Vec<String>, u32)> = Vec::new();
    for e in c.last() {
        if let E::SlotRequestMatched {
            request, tasks, tm, ..
        } = e
        {
            match per.iter_mut().find(|(t, _, _)| t == tm) {
                Some((_, rs, n)) => {
                    rs.push(request.to_string());
                    *n += tasks;
                }
                None => per.push((tm.clone(), vec![request.to_string()], *tasks)),
            }
        }
    }
    let parts: Vec<String> = per
        .iter()
        .map(|(tm, rs, n)| format!("{tm} took requests {} ({n} tasks)", and_list(rs)))
        .collect();
    parts.join(", ")
}

/// The order this run's requests reached the slot pool in: "[3, 0, 5, 1, 2, 4]".
fn drawn_order(c: &FCtx) -> String {
    c.pick(|e| match e {
        E::SlotRequestsIssued { order, .. } if !order.is_empty() => Some(bracket(order)),
        _ => None,
    })
    .unwrap_or_default()
}
const FREE: &[C] = &[C::All];

fn n(f: fn(&FCtx) -> Said) -> Narrator<Sim> {
    f
}

fn job(vs: &[(&str, u32)], es: &[(&str, &str, P)]) -> A {
    A::DefineJob {
        job: JobSpec {
            vertices: vs.iter().map(|(n, p)| VertexSpec::new(n, *p)).collect(),
            edges: es.iter().map(|(a, b, p)| EdgeSpec::new(a, b, *p)).collect(),
        },
    }
}

fn figure_a() -> A {
    job(&[("JV-A", 6), ("JV-B", 3)], &[("JV-A", "JV-B", P::Hash)])
}

fn figure_c() -> A {
    job(
        &[("JV-A", 1), ("JV-B", 4), ("JV-C", 4), ("JV-D", 2), ("JV-E", 3)],
        &[
            ("JV-A", "JV-B", P::Hash),
            ("JV-B", "JV-C", P::Hash),
            ("JV-C", "JV-D", P::Hash),
            ("JV-D", "JV-E", P::Hash),
        ],
    )
}

fn tms(count: u32, slots: u32) -> A {
    A::AddTaskManagers {
        count,
        slots: Some(slots),
    }
}

fn mode(m: M) -> A {
    A::whole_config(&Config::with_mode(m))
}

fn body(config: Config, setup: Vec<A>, actions: Vec<A>) -> Log<Sim> {
    Log {
        config,
        setup,
        actions,
    }
}

fn real(keys: &[&str], classes: &[&str]) -> RealSystem {
    RealSystem {
        settings: keys.iter().map(|k| setting_from::<Config>(k)).collect(),
        commands: vec!["flink run -Dtaskmanager.load-balance.mode=tasks my-job.jar".into()],
        classes: classes
            .iter()
            .map(|c| format!("org.apache.flink.runtime.{c}"))
            .collect(),
    }
}

#[allow(clippy::too_many_arguments)]
fn lesson(
    id: &'static str,
    concept: Concept,
    title: &'static str,
    idea: &'static str,
    b: Log<Sim>,
    steps: Vec<Step<Sim>>,
    real: RealSystem,
) -> Lesson {
    Lesson::new(
        About {
            id,
            concept,
            title,
            idea,
            real,
        },
        SEED,
        b,
        steps,
    )
}

/// `tm-0: 4, tm-1: 3 and tm-2: 2`.
fn per_tm(c: &FCtx) -> String {
    let v: Vec<String> = c
        .state
        .metrics()
        .map(|m| {
            m.tasks_per_tm
                .iter()
                .map(|t| format!("{} {}", t.tm, t.n))
                .collect()
        })
        .unwrap_or_default();
    and_list(&v)
}

fn tm_range(c: &FCtx) -> u32 {
    c.state.metrics().map_or(0, |m| m.tm.range)
}

fn slot_range(c: &FCtx) -> u32 {
    c.state.metrics().map_or(0, |m| m.slot.range)
}

fn busiest(c: &FCtx) -> String {
    c.state
        .metrics()
        .and_then(|m| m.tasks_per_tm.iter().max_by_key(|t| t.n).map(|t| t.tm.clone()))
        .unwrap_or_default()
}

fn job_line(c: &FCtx) -> String {
    let Some(j) = c.state.job() else {
        return String::new();
    };
    let vs: Vec<String> = j
        .vertices
        .iter()
        .map(|v| format!("{} ({})", v.name, v.parallelism))
        .collect();
    let tasks: u32 = j.vertices.iter().map(|v| v.parallelism).sum();
    let slots: u32 = c.state.task_managers().iter().map(|t| t.slots.len() as u32).sum();
    format!(
        "The job has vertices {}, {tasks} tasks in one slot sharing group, on {} TaskManagers with {slots} slots",
        and_list(&vs),
        c.state.task_managers().len()
    )
}

fn mode_name(c: &FCtx) -> &'static str {
    c.state.config().effective_mode().name()
}

pub(super) fn lessons() -> Vec<Lesson> {
    vec![
        unequal_parallelism(),
        phase_one(),
        phase_two(),
        slots_mode(),
        tasks_mode_can_lose(),
        failover(),
    ]
}

fn unequal_parallelism() -> Lesson {
    lesson(
        "flink-unequal-parallelism",
        Concept::FlinkUnequalParallelism,
        "Why unequal parallelism skews TaskManagers",
        "When vertices have different parallelism, some slots hold more tasks than others, and the default placement can stack them on one TaskManager.",
        body(Config::default(), vec![figure_a(), tms(3, 2)], vec![A::Schedule]),
        vec![
            step("Figure (a)", 0, &[C::Schedule], n(|c| {
                let p = |name: &str| {
                    c.state
                        .job()
                        .and_then(|j| j.vertices.iter().find(|v| v.name == name).map(|v| v.parallelism))
                        .unwrap_or_default()
                };
                let (a, b) = (p("JV-A"), p("JV-B"));
                Said::new(format!(
                    "{}. Slot sharing puts at most one task of each vertex in a slot, so {} slots are needed but only {} of them get a JV-B task. Schedule it with the default mode ({}).",
                    job_line(c),
                    a.max(b),
                    a.min(b),
                    mode_name(c)
                ))
            }))
            .ask("Schedule the job"),
            step("Figure (b)", 1, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "The default placement gives {}: the busiest TaskManager runs {} tasks and the idlest {}, a range of {}. {} is likely to become the job's bottleneck. That is this run; over {SPREAD_SEEDS} seeds the same job gives {}.",
                    per_tm(c),
                    c.state.metrics().map_or(0, |m| m.tm.max),
                    c.state.metrics().map_or(0, |m| m.tm.min),
                    tm_range(c),
                    busiest(c),
                    spread(&Config::default(), &[figure_a(), tms(3, 2)], &[A::Schedule], 1)
                ))
                .focus(F::Tm, busiest(c))
            })),
            step("Where the skew comes from", 1, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "Tasks per slot are {}. The requests of one pipelined region reach Flink's slot pool in hash order (they are keyed by random request ids), and the default phase 2 offers slots TaskManager by TaskManager to the oldest request. This run drew the order {}, so {}. Over {SPREAD_SEEDS} seeds: {}; the result is [3, 3, 3] only when every TaskManager happens to take one two-task and one one-task request (two orders in five).",
                    bracket(&c.state.tasks_per_slot()),
                    drawn_order(c),
                    who_took_what(c),
                    spread(&Config::default(), &[figure_a(), tms(3, 2)], &[A::Schedule], 1)
                ))
            })),
            step("Play freely", 1, FREE, n(|c| {
                Said::new(format!(
                    "The job runs {} tasks per TaskManager now. Change the parallelism, the slots or taskmanager.load-balance.mode, and schedule again.",
                    bracket(&c.state.tasks_per_tm())
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode", "taskmanager.numberOfTaskSlots"],
            &["scheduler.SlotSharingExecutionSlotAllocator", "jobmaster.slotpool.SimpleRequestSlotMatchingStrategy"],
        ),
    )
}

fn slot_assignments(c: &FCtx, vertex: &str) -> String {
    c.pick(|e| match e {
        E::SubtasksAssigned {
            vertex: v,
            assignments,
            ..
        } if v == vertex => Some(
            assignments
                .iter()
                .map(|a| format!("#{} → slot {}", a.subtask, a.request))
                .collect::<Vec<_>>(),
        ),
        _ => None,
    })
    .map(|v| and_list(&v))
    .unwrap_or_default()
}

fn phase_one() -> Lesson {
    lesson(
        "flink-phase-1-tasks-to-slots",
        Concept::FlinkTwoPhases,
        "Phase 1: tasks to slots (figures c–e)",
        "The balanced strategy first spreads tasks evenly over the slots of a slot sharing group.",
        body(
            Config::default(),
            vec![figure_c(), tms(2, 2)],
            vec![A::Schedule, mode(M::Tasks), A::Schedule],
        ),
        vec![
            step("Figure (c)", 0, &[C::Schedule], n(|c| {
                let max = c.state.job().map_or(0, |j| j.vertices.iter().map(|v| v.parallelism).max().unwrap_or(0));
                Said::new(format!(
                    "{}. The highest parallelism is {max}, so the group needs {max} slots.",
                    job_line(c)
                ))
            }))
            .ask("Schedule with the default mode"),
            step("Figure (d): the default", 1, &[C::Config], n(|c| {
                Said::new(format!(
                    "The default fills the slots as {} tasks: a range of {} between the fullest and the emptiest slot. Low-parallelism vertices all start at the first slot.",
                    bracket(&c.state.tasks_per_slot()),
                    slot_range(c)
                ))
            }))
            .ask("Set taskmanager.load-balance.mode to tasks"),
            step("Switch to tasks mode", 2, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "taskmanager.load-balance.mode is now {}. The running deployment is untouched until the job is scheduled again.",
                    mode_name(c)
                ))
            }))
            .ask("Schedule again"),
            step("Figure (e): balanced", 3, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "Now the slots hold {} tasks, a range of {}. JV-B goes straight to slot i ({}), and the other vertices continue round-robin where the previous one stopped; JV-E: {}.",
                    bracket(&c.state.tasks_per_slot()),
                    slot_range(c),
                    slot_assignments(c, "JV-B"),
                    slot_assignments(c, "JV-E")
                ))
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "Tasks per TaskManager are {}. Change parallelisms and compare both modes.",
                    bracket(&c.state.tasks_per_tm())
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode"],
            &["scheduler.TaskBalancedPreferredSlotSharingStrategy", "scheduler.LocalInputPreferredSlotSharingStrategy"],
        ),
    )
}

fn phase_two() -> Lesson {
    lesson(
        "flink-phase-2-slots-to-taskmanagers",
        Concept::FlinkTwoPhases,
        "Phase 2: slots to TaskManagers (figures f–i)",
        "With all slots in view, the balanced strategy gives the heaviest slot request to the TaskManager with the fewest tasks.",
        body(
            Config::default(),
            vec![figure_a(), tms(3, 2)],
            vec![A::Schedule, mode(M::Tasks), A::Schedule],
        ),
        vec![
            step("Figure (f)", 0, &[C::Schedule], n(|c| {
                Said::new(format!("{}. Schedule it once with the default mode.", job_line(c)))
            }))
            .ask("Schedule with the default mode"),
            step("Figures (g) and (h)", 1, &[C::Config], n(|c| {
                Said::new(format!(
                    "Phase 1 gives {} tasks per slot (figure g). The default phase 2 then yields {}, a range of {} (figure h); the requests arrive in hash order, so over {SPREAD_SEEDS} seeds it is {}.",
                    bracket(&c.state.tasks_per_slot()),
                    per_tm(c),
                    tm_range(c),
                    spread(&Config::default(), &[figure_a(), tms(3, 2)], &[A::Schedule], 1)
                ))
                .focus(F::Tm, busiest(c))
            }))
            .ask("Set taskmanager.load-balance.mode to tasks"),
            step("Tasks mode", 2, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "taskmanager.load-balance.mode is now {}: phase 1 uses the task-balanced slot sharing and phase 2 the tasks-balanced request matching. Schedule again.",
                    mode_name(c)
                ))
            }))
            .ask("Schedule again"),
            step("Figure (i)", 3, &[C::Schedule], n(|c| {
                let moves: Vec<String> = c.pick_all(|e| match e {
                    E::SlotRequestMatched { request, tasks, tm, .. } => Some(format!("request {request} ({tasks}) → {tm}")),
                    _ => None,
                });
                Said::new(format!(
                    "Phase 1 is unchanged ({}), but phase 2 waits for all slots, sorts the requests by task count and gives each to the TaskManager with the fewest tasks: {}. The result is {}, a range of {}.",
                    bracket(&c.state.tasks_per_slot()),
                    and_list(&moves),
                    per_tm(c),
                    tm_range(c)
                ))
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "Scheduling took {} ms of simulated time. Lose a TaskManager or change the slots and schedule again.",
                    c.state.metrics().map_or(0, |m| m.scheduling_time_ms)
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode", "slot.request.max-interval"],
            &[
                "jobmaster.slotpool.TasksBalancedRequestSlotMatchingStrategy",
                "resourcemanager.slotmanager.DefaultResourceAllocationStrategy",
            ],
        ),
    )
}

fn slots_mode() -> Lesson {
    lesson(
        "flink-slots-mode-is-not-tasks-mode",
        Concept::FlinkWhenNotToUse,
        "slots mode spreads slots, not tasks",
        "taskmanager.load-balance.mode: slots (the old cluster.evenly-spread-out-slots) only evens out slot counts, which does not help when slots carry different numbers of tasks.",
        body(
            Config::with_mode(M::Slots),
            vec![figure_a(), tms(3, 2)],
            vec![A::Schedule, A::AddTaskManager { name: None, slots: Some(2) }, A::Schedule],
        ),
        vec![
            step("slots mode", 0, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "The mode is {}. {}. Schedule and compare with figure (h).",
                    mode_name(c),
                    job_line(c)
                ))
            }))
            .ask("Schedule"),
            step("Still skewed", 1, &[C::Members], n(|c| {
                let used: Vec<String> = c
                    .state
                    .metrics()
                    .map(|m| m.slots_used_per_tm.iter().map(|t| t.n.to_string()).collect())
                    .unwrap_or_default();
                Said::new(format!(
                    "The result is {}, a range of {}: the TaskManagers use {} slots, all they have, so spreading slots changes nothing (over {SPREAD_SEEDS} seeds: {}, as in the default mode). slots mode balances slot counts, never tasks.",
                    per_tm(c),
                    tm_range(c),
                    and_list(&used),
                    spread(&Config::with_mode(M::Slots), &[figure_a(), tms(3, 2)], &[A::Schedule], 1)
                ))
                .focus(F::Tm, busiest(c))
            }))
            .ask("Add a fourth TaskManager"),
            step("A spare TaskManager", 2, &[C::Schedule], n(|c| {
                let (tm, slots) = c.pick(|e| match e {
                    E::TaskManagerAdded { tm, slots } => Some((tm.clone(), *slots)),
                    _ => None,
                }).unwrap_or_default();
                Said::new(format!(
                    "{tm} joined with {slots} slots, so the cluster now has more slots than the job's {} slot requests. Schedule again.",
                    c.state.tasks_per_slot().len()
                ))
                .focus(F::Tm, tm)
            }))
            .ask("Schedule again"),
            step("Spare slots are spread", 3, &[C::Schedule], n(|c| {
                let used: Vec<String> = c
                    .state
                    .metrics()
                    .map(|m| m.slots_used_per_tm.iter().map(|t| format!("{} {}", t.tm, t.n)).collect())
                    .unwrap_or_default();
                Said::new(format!(
                    "With spare slots, slots mode picks the least used TaskManager each time: slots used {}. Tasks per TaskManager are {}.",
                    and_list(&used),
                    per_tm(c)
                ))
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "The job runs {} tasks per TaskManager. Switch to tasks mode and schedule to compare.",
                    bracket(&c.state.tasks_per_tm())
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode", "cluster.evenly-spread-out-slots"],
            &["resourcemanager.slotmanager.DefaultResourceAllocationStrategy"],
        ),
    )
}

fn uneven_setup() -> Vec<A> {
    vec![
        job(&[("JV-A", 6), ("JV-B", 2)], &[("JV-A", "JV-B", P::Hash)]),
        A::AddTaskManager {
            name: None,
            slots: Some(2),
        },
        A::AddTaskManager {
            name: None,
            slots: Some(4),
        },
    ]
}

fn tasks_mode_can_lose() -> Lesson {
    lesson(
        "flink-when-not-to-use-tasks-mode",
        Concept::FlinkWhenNotToUse,
        "When not to use tasks mode",
        "Balanced scheduling only counts tasks: with uneven TaskManagers it is steady but not the best split, and without a bottleneck it buys nothing, so use it only when skew hurts.",
        body(Config::default(), uneven_setup(), vec![A::Schedule, mode(M::Tasks), A::Schedule]),
        vec![
            step("Uneven TaskManagers", 0, &[C::Schedule], n(|c| {
                let tms: Vec<String> = c
                    .state
                    .task_managers()
                    .iter()
                    .map(|t| format!("{} has {} slots", t.name, t.slots.len()))
                    .collect();
                Said::new(format!(
                    "{}; {}. Schedule with the default mode first.",
                    job_line(c),
                    and_list(&tms)
                ))
            }))
            .ask("Schedule with the default mode"),
            step("The default depends on the order", 1, &[C::Config], n(|c| {
                Said::new(format!(
                    "The default gives {}, a range of {}. The small TaskManager takes the first two requests to arrive, and they arrive in hash order: over {SPREAD_SEEDS} seeds the default gives {}. An even split needs both two-task requests to arrive first, about one order in fifteen. Keep this in mind and switch to tasks mode.",
                    per_tm(c),
                    tm_range(c),
                    spread(&Config::default(), &uneven_setup(), &[A::Schedule], 1)
                ))
            }))
            .ask("Set taskmanager.load-balance.mode to tasks"),
            step("Tasks mode", 2, &[C::Schedule], n(|c| {
                Said::new(format!(
                    "taskmanager.load-balance.mode is now {}. Schedule again and compare.",
                    mode_name(c)
                ))
            }))
            .ask("Schedule again"),
            step("Steady, not the best", 3, &[C::Schedule], n(|c| {
                let moves: Vec<String> = c.pick_all(|e| match e {
                    E::SlotRequestMatched { request, tasks, tm, .. } => Some(format!("request {request} ({tasks}) → {tm}")),
                    _ => None,
                });
                Said::new(format!(
                    "Tasks mode gives {}, a range of {}, in every run ({}): taking the requests heaviest first, each to the TaskManager with the fewest tasks, it placed {}. Once the small TaskManager is full the rest go to the big one, so it never reaches the even split the default finds by luck, though it avoids the default's worst case. Without a real bottleneck the doc's advice holds: do not use this mode.",
                    per_tm(c),
                    tm_range(c),
                    spread(&Config::with_mode(M::Tasks), &uneven_setup(), &[A::Schedule], 1),
                    and_list(&moves)
                ))
                .focus(F::Tm, busiest(c))
            })),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "The mode is {}. Add TaskManagers of other sizes and compare both modes.",
                    mode_name(c)
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode"],
            &["jobmaster.slotpool.TasksBalancedRequestSlotMatchingStrategy"],
        ),
    )
}

fn lose_tm2() -> A {
    A::LoseTaskManager {
        tm: "tm-2".into(),
        restart_after_ms: Some(50),
    }
}

fn failover_setup() -> Vec<A> {
    vec![figure_a(), tms(3, 2), A::Schedule]
}

fn failover_actions() -> Vec<A> {
    let slower = Config {
        slot_request_max_interval: DurationMs(70),
        ..Config::with_mode(M::Tasks)
    };
    vec![lose_tm2(), A::whole_config(&slower), lose_tm2()]
}

fn failover_text(c: &FCtx) -> Said {
    let settled = c.pick(|e| match e {
        E::ResourceViewSettled {
            waited_ms,
            pending,
            free_slots,
            full_view,
            ..
        } => Some((*waited_ms, *pending, *free_slots, *full_view)),
        _ => None,
    });
    let back = c.pick(|e| match e {
        E::TaskManagerLost {
            restarts_at_ms,
            at_ms,
            ..
        } => restarts_at_ms.map(|r| r - at_ms),
        _ => None,
    });
    let (w, p, f, full) = settled.unwrap_or_default();
    Said::new(format!(
        "tm-2 comes back {} ms after the loss; the slot pool matched the first batch after {w} ms without news: {p} pending requests against {f} free slots ({}). The job restarted as {} in {} ms, a range of {}. {}",
        back.unwrap_or_default(),
        if full { "a full view" } else { "a partial view" },
        per_tm(c),
        c.state.metrics().map_or(0, |m| m.scheduling_time_ms),
        tm_range(c),
        if full {
            format!(
                "With every slot in view the order does not matter: over {SPREAD_SEEDS} seeds, {}.",
                spread(&Config::with_mode(M::Tasks), &failover_setup(), &failover_actions(), c.cursor)
            )
        } else {
            format!(
                "On a partial view the requests are served one by one in the order they arrived (hash order), so the result depends on which requests wait for tm-2: over {SPREAD_SEEDS} seeds, {}.",
                spread(&Config::with_mode(M::Tasks), &failover_setup(), &failover_actions(), c.cursor)
            )
        }
    ))
    .focus(F::Tm, "tm-2")
}

fn failover() -> Lesson {
    lesson(
        "flink-failover-max-interval",
        Concept::FlinkFailover,
        "The failover caveat and slot.request.max-interval",
        "After a failure the resource view updates late; a longer slot.request.max-interval waits for it and keeps the balance, at the cost of a longer scheduling phase.",
        body(Config::with_mode(M::Tasks), failover_setup(), failover_actions()),
        vec![
            step("Balanced", 0, &[C::Members], n(|c| {
                Said::new(format!(
                    "In tasks mode the job runs as {} with slot.request.max-interval = {} ms. Lose tm-2; its process restarts soon after.",
                    per_tm(c),
                    c.state.config().slot_request_max_interval.0
                ))
            }))
            .ask("Lose tm-2 (it restarts after 50 ms)"),
            step("A stale view", 1, &[C::Config], n(failover_text)).ask("Raise slot.request.max-interval to 70 ms"),
            step("Wait longer", 2, &[C::Members], n(|c| {
                Said::new(format!(
                    "slot.request.max-interval is now {} ms, the doc's suggestion of raising it in steps of 50 ms. Lose tm-2 again.",
                    c.state.config().slot_request_max_interval.0
                ))
            }))
            .ask("Lose tm-2 again"),
            step("Balanced again, later", 3, &[C::Members], n(failover_text)),
            step("Play freely", 3, FREE, n(|c| {
                Said::new(format!(
                    "A longer wait also brings the requests closer to slot.request.timeout = {} ms. Try other intervals and restart delays.",
                    c.state.config().slot_request_timeout.0
                ))
            })),
        ],
        real(
            &["taskmanager.load-balance.mode", "slot.request.max-interval", "slot.request.timeout"],
            &["jobmaster.slotpool.DeclarativeSlotPoolBridge", "jobmaster.slotpool.TasksBalancedRequestSlotMatchingStrategy"],
        ),
    )
}
