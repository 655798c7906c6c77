//! Apache Flink task scheduling: slot sharing (phase 1, tasks to slots) and slot
//! placement on TaskManagers (phase 2, slots to TaskManagers), default versus
//! balanced (FLIP-370, `taskmanager.load-balance.mode: tasks`), with failover and the
//! delayed resource view that `slot.request.max-interval` tunes.
//!
//! lbscope follows apache/flink `master` (the 2.x line, checked against the 2.3
//! release; see [`config`] for the one deprecated key it still reads).
//!
//! One file per concept:
//! * [`config`]: the Flink keys and the load-balance-mode compatibility rule;
//! * [`job_graph`] and [`execution_graph`]: vertices, edges, groups and their wiring;
//! * [`slot_sharing`], [`local_input_preferred`], [`task_balanced`]: phase 1;
//! * [`task_manager`], [`slot_matching`], [`slot_pool`]: phase 2 over simulated time;
//! * [`resource_profile`], [`resource_request_pre_mappings`]: fine-grained resources;
//! * [`failover`]: losing and restoring TaskManagers, local recovery;
//! * [`adaptive`]: the adaptive scheduler (`jobmanager.scheduler: adaptive`);
//! * [`key_group_range_assignment`]: key groups, for state locality;
//! * [`metrics`] and [`view`]: what a UI draws.
//!
//! A UI that compares default and balanced scheduling runs two [`Sim`]s with the same
//! actions and different configs.

pub mod adaptive;
pub mod config;
pub mod execution_graph;
pub mod failover;
mod invariants;
pub mod job_graph;
pub mod key_group_range_assignment;
mod knobs;
pub mod local_input_preferred;
pub mod metrics;
pub mod request_slot_matching;
pub mod resource_profile;
pub mod resource_request_pre_mappings;
pub mod slot_matching;
pub mod slot_pool;
pub mod slot_sharing;
mod subject;
pub mod task_balanced;
pub mod task_manager;
pub mod view;

use super::schema::{self, ConfigChange, ConfigError};
use super::{AnyAction, Engine, Narrate, Series, SimRng, Subject, System};
pub use config::{Config, DurationMs, LoadBalanceMode, SchedulerType};
use job_graph::{JobGraph, JobGraphError, JobSpec};
use metrics::{Metrics, Spread, TmCount};
pub use resource_profile::{ResourceProfile, Resources};
use serde::{Deserialize, Serialize};
use slot_matching::{MatchKind, MatchRule, RequestMatching, ResourceMatching, DETAIL_LIMIT};
use slot_sharing::{Assignment, SlotSharingPlan, SlotSharingStrategy};
use task_manager::{Cluster, OtherJob, SlotAddr, TaskManager, MAX_SLOTS_PER_TASK_MANAGER, MAX_TASK_MANAGERS};

/// A resource profile and a count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileCount {
    /// The profile.
    pub profile: ResourceProfile,
    /// How many.
    pub n: u32,
}

/// A vertex's subtasks by assignment rule, for a vertex too wide to list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignmentSummary {
    /// Subtasks per rule (the rule's name, as in [`slot_sharing::AssignReason`]).
    pub by_rule: Vec<(String, u32)>,
    /// Lowest slot request id used.
    pub first_request: u32,
    /// Highest slot request id used.
    pub last_request: u32,
}

/// One slot sharing group's slots in the adaptive scheduler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSlots {
    /// Slot sharing group.
    pub group: String,
    /// Largest lower bound of its vertices.
    pub max_lower_bound: u32,
    /// Largest upper bound of its vertices.
    pub max_upper_bound: u32,
    /// Slots it gets.
    pub slots: u32,
}

/// One vertex's parallelism in the adaptive scheduler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexParallelismInfo {
    /// Vertex.
    pub vertex: String,
    /// Parallelism it runs with.
    pub parallelism: u32,
    /// Lower bound.
    pub lower_bound: u32,
    /// Upper bound.
    pub upper_bound: u32,
}

/// Why the adaptive scheduler waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitReason {
    /// Sufficient but not the desired resources:
    /// `jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout`.
    SubmissionStabilization,
    /// Fewer than the minimum resources:
    /// `jobmanager.adaptive-scheduler.submission.resource-wait-timeout`.
    ResourceWait,
    /// A running job with more resources: `...executing.cooldown-after-rescaling` and
    /// `...executing.resource-stabilization-timeout`.
    ExecutingStabilization,
}

/// What made the adaptive scheduler change the parallelism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RescaleTrigger {
    /// More slots became available to the running job.
    NewResources,
    /// A TaskManager with tasks of the job was lost.
    LostTaskManager,
    /// The job's parallelism bounds changed (`SetResourceRequirements`).
    NewResourceRequirements,
}

/// The only way a Flink simulation changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Action {
    /// Define (or replace) the job. Any running deployment is cancelled.
    DefineJob {
        /// The job graph.
        job: JobSpec,
    },
    /// Register a TaskManager.
    AddTaskManager {
        /// Name; `tm-<n>` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Slots; `taskmanager.numberOfTaskSlots` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slots: Option<u32>,
    },
    /// Register `count` TaskManagers named `tm-<n>`.
    AddTaskManagers {
        /// How many.
        count: u32,
        /// Slots each; `taskmanager.numberOfTaskSlots` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slots: Option<u32>,
    },
    /// Decommission an idle TaskManager (one holding no slot of the job).
    RemoveTaskManager {
        /// Name.
        tm: String,
    },
    /// A TaskManager is lost. If it ran tasks, the job restarts and every slot request
    /// is matched again (see [`failover`]).
    LoseTaskManager {
        /// Name.
        tm: String,
        /// When set, the TaskManager process comes back (re-registers with the same
        /// slots) this many ms after the loss, e.g. restarted by Kubernetes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restart_after_ms: Option<u64>,
    },
    /// A lost TaskManager registers again (its slots are free; nothing is rescheduled).
    RestoreTaskManager {
        /// Name.
        tm: String,
    },
    /// Set config keys (`{"config": {KEY: VALUE, …}}`; takes effect at the next scheduling).
    SetConfig(ConfigChange<Config>),
    /// Give a TaskManager a total resource (fine-grained resource management: its
    /// default slot is the total divided by its slot count, and it carves dynamic
    /// slots), or take it away (`null`). The TaskManager must hold no slot of the job.
    SetTaskManagerResources {
        /// Name.
        tm: String,
        /// Total CPU and memory; `null` for none.
        #[serde(default)]
        resources: Option<Resources>,
    },
    /// Give a slot sharing group of the job a resource profile (Flink's
    /// `SlotSharingGroup.newBuilder(name).setCpuCores(..).setTaskHeapMemoryMB(..)`), or
    /// make it `UNKNOWN` again (`null`). Takes effect at the next scheduling.
    SetSlotSharingGroupResources {
        /// Slot sharing group name.
        group: String,
        /// CPU and memory; `null` for `UNKNOWN`.
        #[serde(default)]
        resources: Option<Resources>,
    },
    /// Set a vertex's parallelism bounds for the adaptive scheduler (Flink's
    /// `JobResourceRequirements`, as the REST API sets them). Takes effect at the next
    /// scheduling.
    SetResourceRequirements {
        /// Vertex name.
        vertex: String,
        /// Least parallelism it may run with (at least 1).
        lower_bound: u32,
        /// Most parallelism it may run with (at most its max parallelism).
        upper_bound: u32,
    },
    /// Another job on the same cluster holds `slots` slots of a TaskManager and runs
    /// `tasks` tasks there (0 slots: it is gone). The slots must not hold this job's
    /// requests.
    OccupySlots {
        /// TaskManager.
        tm: String,
        /// The other job's name; `other-job` when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        job: Option<String>,
        /// Slots it holds (the TaskManager's first slots).
        slots: u32,
        /// Tasks it runs there.
        tasks: u32,
    },
    /// Deploy the job: phase 1 (tasks to slots) then phase 2 (slots to TaskManagers).
    Schedule,
}

/// What happened, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A job was defined.
    JobDefined {
        /// Vertex count.
        vertices: u32,
        /// Subtask count.
        subtasks: u64,
        /// Edge count.
        edges: u32,
        /// Slot sharing groups.
        slot_sharing_groups: Vec<String>,
        /// Vertex names in topological order.
        topological_order: Vec<String>,
    },
    /// A TaskManager registered.
    TaskManagerAdded {
        /// Name.
        tm: String,
        /// Slots.
        slots: u32,
    },
    /// A TaskManager was decommissioned.
    TaskManagerRemoved {
        /// Name.
        tm: String,
        /// Slots it had.
        slots: u32,
    },
    /// A TaskManager was lost.
    TaskManagerLost {
        /// Name.
        tm: String,
        /// When.
        at_ms: u64,
        /// Its slots.
        slots: u32,
        /// Slot requests that ran there.
        requests: Vec<u32>,
        /// Tasks that ran there.
        tasks: u32,
        /// When it will re-register, if it restarts.
        restarts_at_ms: Option<u64>,
    },
    /// A TaskManager (re-)registered.
    TaskManagerRestored {
        /// Name.
        tm: String,
        /// When.
        at_ms: u64,
        /// Slots.
        slots: u32,
    },
    /// The config changed.
    ConfigChanged {
        /// `taskmanager.load-balance.mode` as set (the default when not set).
        configured_mode: LoadBalanceMode,
        /// Whether `taskmanager.load-balance.mode` was set explicitly.
        #[serde(default = "yes")]
        mode_set: bool,
        /// `jobmanager.scheduler`.
        #[serde(default)]
        scheduler: SchedulerType,
        /// `execution.state-recovery.from-local`.
        #[serde(default)]
        local_recovery: bool,
        /// `cluster.evenly-spread-out-slots` as set.
        evenly_spread_out_slots: bool,
        /// The mode in force after Flink's compatibility rule.
        effective_mode: LoadBalanceMode,
        /// `slot.request.max-interval` (ms).
        max_interval_ms: u64,
        /// `slot.request.timeout` (ms).
        timeout_ms: u64,
    },
    /// Scheduling starts with these strategies.
    StrategiesChosen {
        /// Effective mode.
        effective_mode: LoadBalanceMode,
        /// Phase 1.
        slot_sharing: SlotSharingStrategy,
        /// ResourceManager slot choice.
        resource_matching: ResourceMatching,
        /// Slot pool request matching.
        request_matching: RequestMatching,
        /// Local recovery: requests first get their previous slot back.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        previous_allocations: bool,
    },
    /// Phase 1 placed a vertex's subtasks into slot requests.
    SubtasksAssigned {
        /// Vertex.
        vertex: String,
        /// Its parallelism.
        parallelism: u32,
        /// Its slot sharing group.
        slot_sharing_group: String,
        /// One entry per subtask (empty when `summary` is given).
        assignments: Vec<Assignment>,
        /// For a vertex of more than `DETAIL_LIMIT` subtasks: the assignments by rule
        /// (each subtask's slot request is in the state's plan).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<AssignmentSummary>,
    },
    /// Phase 1 finished.
    SlotSharingDone {
        /// Strategy.
        strategy: SlotSharingStrategy,
        /// Tasks per slot request, in request order.
        tasks_per_slot: Vec<u32>,
        /// Their spread.
        spread: Spread,
    },
    /// Slot requests were issued.
    SlotRequestsIssued {
        /// When.
        at_ms: u64,
        /// How many.
        requests: u32,
        /// Tasks in them.
        tasks: u64,
        /// Free slots the job already held (after a restart).
        held_free_slots: u32,
        /// True for a restart after a failure.
        restart: bool,
    },
    /// The ResourceManager allocated slots to the job.
    SlotsAllocated {
        /// When.
        at_ms: u64,
        /// How it chose.
        by: ResourceMatching,
        /// How many were needed.
        needed: u32,
        /// Slots per TaskManager.
        per_tm: Vec<TmCount>,
        /// Slots no running TaskManager could host.
        #[serde(default, skip_serializing_if = "is_zero")]
        unfulfilled: u32,
    },
    /// A batch settled: the slot pool matches pending requests against this view.
    ResourceViewSettled {
        /// When.
        at_ms: u64,
        /// Quiet time before settling (= `slot.request.max-interval`).
        waited_ms: u64,
        /// Pending requests.
        pending: u32,
        /// Free slots visible.
        free_slots: u32,
        /// Whether every pending request can be matched now.
        full_view: bool,
        /// Free slots per TaskManager.
        free_per_tm: Vec<TmCount>,
    },
    /// A slot request got a slot.
    SlotRequestMatched {
        /// When.
        at_ms: u64,
        /// Request id.
        request: u32,
        /// Tasks in it.
        tasks: u32,
        /// TaskManager.
        tm: String,
        /// Slot index on it.
        slot: u32,
        /// Tasks on that TaskManager now.
        tm_tasks_now: u32,
        /// Why there.
        rule: MatchRule,
    },
    /// A batch too large to list request by request: the slot requests that went to
    /// one TaskManager by one rule (each request's slot is in the state's placement).
    SlotRequestsMatched {
        /// When.
        at_ms: u64,
        /// TaskManager.
        tm: String,
        /// How many requests.
        requests: u32,
        /// Lowest request id among them.
        first_request: u32,
        /// Highest request id among them.
        last_request: u32,
        /// Their tasks.
        tasks: u64,
        /// Tasks of the job on that TaskManager after the batch.
        tm_tasks_now: u32,
        /// The rule.
        rule: MatchKind,
    },
    /// The tasks-balanced strategy matched nothing: the slots in view cannot serve
    /// every pending request's resource profile (`ResourceRequestPreMappings`).
    PreMappingUnfulfilled {
        /// When.
        at_ms: u64,
        /// Pending requests.
        pending: u32,
        /// Free slots in view.
        free_slots: u32,
        /// Pending requests per profile.
        requested: Vec<ProfileCount>,
        /// Free slots per profile.
        offered: Vec<ProfileCount>,
    },
    /// Another job's slots on a TaskManager changed.
    SlotsOccupied {
        /// TaskManager.
        tm: String,
        /// The other job.
        job: String,
        /// Slots it holds now.
        slots: u32,
        /// Tasks it runs there.
        tasks: u32,
        /// Slots of the TaskManager.
        tm_slots: u32,
    },
    /// A TaskManager's total resource changed.
    TaskManagerResourcesSet {
        /// TaskManager.
        tm: String,
        /// Total resources (none: coarse-grained `ANY` slots).
        resources: Option<Resources>,
        /// Its default slot profile.
        default_slot: Option<Resources>,
        /// Its slot count.
        slots: u32,
    },
    /// A slot sharing group's resource profile changed.
    SlotSharingGroupResourcesSet {
        /// Slot sharing group.
        group: String,
        /// Resources (none: `UNKNOWN`).
        resources: Option<Resources>,
    },
    /// A vertex's parallelism bounds changed.
    ResourceRequirementsSet {
        /// Vertex.
        vertex: String,
        /// Lower bound.
        lower_bound: u32,
        /// Upper bound.
        upper_bound: u32,
        /// Its max parallelism (the largest allowed upper bound).
        max_parallelism: u32,
    },
    /// The adaptive scheduler's strategies.
    AdaptiveStrategiesChosen {
        /// Effective mode.
        effective_mode: LoadBalanceMode,
        /// How subtasks are grouped.
        slot_sharing_resolver: adaptive::slot_sharing_resolver::SlotSharingResolver,
        /// How groups get slots (not used with state locality).
        slot_matching_resolver: adaptive::slot_matching_resolver::SlotMatchingResolver,
        /// `StateLocalitySlotAssigner` (local recovery after a previous run) or
        /// `DefaultSlotAssigner`.
        state_locality: bool,
        /// Whether the slots are narrowed to the fewest TaskManagers.
        minimal_task_managers: bool,
        /// How the ResourceManager picks the slots it offers.
        resource_matching: ResourceMatching,
    },
    /// The adaptive scheduler decided the parallelism from the slots it has.
    ParallelismDetermined {
        /// When.
        at_ms: u64,
        /// Free slots offered to the job.
        free_slots: u32,
        /// Slots it declared (`calculateRequiredSlots`).
        desired_slots: u64,
        /// Least slots it can run with.
        minimum_slots: u64,
        /// Slots per slot sharing group.
        groups: Vec<GroupSlots>,
        /// Parallelism per vertex.
        vertices: Vec<VertexParallelismInfo>,
    },
    /// The adaptive scheduler waits before (re)starting the job.
    WaitingForResources {
        /// From.
        at_ms: u64,
        /// Until.
        until_ms: u64,
        /// Why.
        reason: WaitReason,
        /// Slots it could get now.
        available_slots: u64,
        /// Slots it wants.
        desired_slots: u64,
        /// Least slots it can run with.
        minimum_slots: u64,
    },
    /// The adaptive scheduler restarts the running job with another parallelism.
    Rescaling {
        /// When the rescale happens.
        at_ms: u64,
        /// Why.
        trigger: RescaleTrigger,
        /// Subtasks before.
        from_subtasks: u64,
        /// Subtasks after.
        to_subtasks: u64,
        /// End of the cooldown after the last rescale.
        cooldown_until_ms: u64,
        /// Whether the desired resources are there (no stabilization wait).
        desired: bool,
    },
    /// Slot requests timed out.
    SlotRequestsTimedOut {
        /// When.
        at_ms: u64,
        /// Which.
        requests: Vec<u32>,
        /// When they were issued.
        requested_at_ms: u64,
        /// `slot.request.timeout` (ms).
        timeout_ms: u64,
        /// When the next batch would have settled (`u64::MAX`: no more slots coming).
        next_batch_at_ms: u64,
    },
    /// Every request was placed.
    SchedulingFinished {
        /// When.
        at_ms: u64,
        /// From issuing the requests to the last match.
        scheduling_time_ms: u64,
        /// Tasks per TaskManager.
        tasks_per_tm: Vec<TmCount>,
        /// Their spread.
        tm_spread: Spread,
        /// Spread of tasks per slot.
        slot_spread: Spread,
        /// Tasks per TaskManager counting another job's tasks too (only when another
        /// job holds slots).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cluster_tasks_per_tm: Vec<TmCount>,
    },
    /// The scheduling round failed; the job is not running.
    SchedulingFailed {
        /// When.
        at_ms: u64,
        /// Requests still pending.
        unfulfilled: u32,
        /// Requests in the round.
        requests: u32,
        /// `slot.request.timeout` (ms).
        timeout_ms: u64,
    },
}

/// `n` and the noun, singular for 1 ("1 task", "2 tasks").
fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn list(xs: &[TmCount]) -> String {
    xs.iter()
        .map(|c| format!("{}:{}", c.tm, c.n))
        .collect::<Vec<_>>()
        .join(", ")
}

fn profiles(xs: &[ProfileCount]) -> String {
    xs.iter()
        .map(|c| format!("{}× {}", c.n, c.profile))
        .collect::<Vec<_>>()
        .join(", ")
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn nums(xs: &[u32]) -> String {
    let shown: Vec<String> = xs.iter().take(24).map(u32::to_string).collect();
    if xs.len() > 24 {
        format!("[{}, … {} more]", shown.join(", "), xs.len() - 24)
    } else {
        format!("[{}]", shown.join(", "))
    }
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        use slot_sharing::AssignReason as R;
        match self {
            Event::JobDefined {
                vertices,
                subtasks,
                edges,
                slot_sharing_groups,
                topological_order,
            } => format!(
                "job defined: {}, {}, {}, slot sharing groups [{}]; topological order {}",
                count(*vertices, "vertex").replace("vertexs", "vertices"),
                count(*subtasks, "subtask"),
                count(*edges, "edge"),
                slot_sharing_groups.join(", "),
                topological_order.join(" → ")
            ),
            Event::TaskManagerAdded { tm, slots } => format!("{tm} registered with {slots} slots"),
            Event::TaskManagerRemoved { tm, slots } => format!("{tm} ({slots} slots) decommissioned"),
            Event::TaskManagerLost {
                tm,
                at_ms,
                slots,
                requests,
                tasks,
                restarts_at_ms,
            } => {
                let back = match restarts_at_ms {
                    Some(t) => format!("; it re-registers at t={t} ms"),
                    None => String::new(),
                };
                if requests.is_empty() {
                    format!("t={at_ms} ms: {tm} lost ({slots} slots, no tasks of the job){back}")
                } else {
                    format!(
                        "t={at_ms} ms: {tm} lost with {} slot requests ({tasks} tasks) on its {slots} slots; \
                         the job restarts and every slot request is matched again{back}",
                        requests.len()
                    )
                }
            }
            Event::TaskManagerRestored { tm, at_ms, slots } => {
                format!("t={at_ms} ms: {tm} registered again with {slots} free slots")
            }
            Event::ConfigChanged {
                configured_mode,
                mode_set,
                scheduler,
                local_recovery,
                evenly_spread_out_slots,
                effective_mode,
                max_interval_ms,
                timeout_ms,
            } => {
                let mut extra = String::new();
                if *scheduler != SchedulerType::Default {
                    extra.push_str(&format!("; jobmanager.scheduler={}", scheduler.name()));
                }
                if *local_recovery {
                    extra.push_str("; execution.state-recovery.from-local=true");
                }
                format!(
                    "config: taskmanager.load-balance.mode={}{} and cluster.evenly-spread-out-slots={} → effective mode {}; \
                     slot.request.max-interval={max_interval_ms} ms, slot.request.timeout={timeout_ms} ms{extra}",
                    configured_mode.name(),
                    if *mode_set { "" } else { " (not set)" },
                    evenly_spread_out_slots,
                    effective_mode.name()
                )
            }
            Event::StrategiesChosen {
                effective_mode,
                slot_sharing,
                resource_matching,
                request_matching,
                previous_allocations,
            } => format!(
                "mode {}: phase 1 uses {}, the ResourceManager uses {} slot matching, the slot pool uses {} request matching{}",
                effective_mode.name(),
                slot_sharing.flink_name(),
                match resource_matching {
                    ResourceMatching::AnyMatching => "any-matching",
                    ResourceMatching::LeastUtilization => "least-utilization",
                    ResourceMatching::MostUtilization => "most-utilization",
                },
                match request_matching {
                    RequestMatching::Simple => "simple",
                    RequestMatching::TasksBalanced => "tasks-balanced",
                },
                if *previous_allocations {
                    " (preferring each request's previous allocation: local recovery)"
                } else {
                    ""
                }
            ),
            Event::SubtasksAssigned {
                vertex,
                parallelism,
                slot_sharing_group,
                summary: Some(sum),
                ..
            } => format!(
                "{vertex} (parallelism {parallelism}, group {slot_sharing_group}): {} into slot requests {}..={} \
                 (too many to list; each subtask's request is in the plan)",
                sum.by_rule
                    .iter()
                    .map(|(r, n)| format!("{} by {r}", count(*n, "subtask")))
                    .collect::<Vec<_>>()
                    .join(", "),
                sum.first_request,
                sum.last_request
            ),
            Event::SubtasksAssigned {
                vertex,
                parallelism,
                slot_sharing_group,
                assignments,
                summary: None,
            } => {
                let parts: Vec<String> = assignments
                    .iter()
                    .take(16)
                    .map(|a| {
                        let why = match &a.reason {
                            R::CoLocated { constraint } => format!("co-location constraint {constraint}"),
                            R::ProducerSlot {
                                producer,
                                producer_subtask,
                            } => format!("with producer {producer}#{producer_subtask}"),
                            R::FirstAvailable => "first slot without this vertex".to_string(),
                            R::NewSlot => "new slot".to_string(),
                            R::SameIndex => "same index".to_string(),
                            R::RoundRobin { started_at } => format!("round-robin from slot {started_at}"),
                            R::LeastUtilized { tasks_before } => {
                                format!("least-utilised slot ({tasks_before} tasks)")
                            }
                        };
                        format!("#{} → slot {} ({why})", a.subtask, a.request)
                    })
                    .collect();
                let more = if assignments.len() > 16 {
                    format!(", … {} more", assignments.len() - 16)
                } else {
                    String::new()
                };
                format!(
                    "{vertex} (parallelism {parallelism}, group {slot_sharing_group}): {}{more}",
                    parts.join(", ")
                )
            }
            Event::SlotSharingDone {
                strategy,
                tasks_per_slot,
                spread,
            } => format!(
                "phase 1 ({}) done: {} slot requests with tasks per slot {} (max {}, min {}, range {})",
                strategy.flink_name(),
                tasks_per_slot.len(),
                nums(tasks_per_slot),
                spread.max,
                spread.min,
                spread.range
            ),
            Event::SlotRequestsIssued {
                at_ms,
                requests,
                tasks,
                held_free_slots,
                restart,
            } => format!(
                "t={at_ms} ms: {}{requests} slot requests ({tasks} tasks) issued; the job holds {held_free_slots} free slots",
                if *restart { "restart: " } else { "" }
            ),
            Event::SlotsAllocated {
                at_ms,
                by,
                needed,
                per_tm,
                unfulfilled,
            } => format!(
                "t={at_ms} ms: the ResourceManager allocates {needed} slots by {}: {}{}",
                by.describe(),
                list(per_tm),
                if *unfulfilled > 0 {
                    format!("; {} could not be hosted by any running TaskManager", count(*unfulfilled, "slot"))
                } else {
                    String::new()
                }
            ),
            Event::ResourceViewSettled {
                at_ms,
                waited_ms,
                pending,
                free_slots,
                full_view,
                free_per_tm,
            } => format!(
                "t={at_ms} ms: resource view settled after {waited_ms} ms quiet: {pending} pending requests, \
                 {free_slots} free slots ({}) — {}",
                list(free_per_tm),
                if *full_view {
                    "every request can be matched now"
                } else {
                    "a partial view: requests are served one by one from what is there"
                }
            ),
            Event::SlotRequestMatched {
                at_ms: _,
                request,
                tasks,
                tm,
                slot,
                tm_tasks_now,
                rule,
            } => match rule {
                MatchRule::FirstPending { offer_position } => format!(
                    "slot request {request} ({}) → {tm} slot {slot} (now {}; \
                     offered slot #{offer_position} goes to the oldest pending request)",
                    count(*tasks, "task"),
                    count(*tm_tasks_now, "task")
                ),
                MatchRule::FewestTasks {
                    full_view,
                    candidates,
                    more_candidates,
                } => {
                    let more = if *more_candidates > 0 {
                        format!(", +{more_candidates} more")
                    } else {
                        String::new()
                    };
                    format!(
                        "slot request {request} ({}) → {tm} slot {slot} (now {}; \
                         fewest among {}{more}{})",
                        count(*tasks, "task"),
                        count(*tm_tasks_now, "task"),
                        list(candidates),
                        if *full_view { "" } else { "; partial view" }
                    )
                }
                MatchRule::PreviousAllocation => format!(
                    "slot request {request} ({}) → {tm} slot {slot} (now {}; its previous allocation, local recovery)",
                    count(*tasks, "task"),
                    count(*tm_tasks_now, "task")
                ),
                MatchRule::Resolver { choice } => {
                    use adaptive::slot_matching_resolver::Choice as C;
                    let why = match choice {
                        C::FreeSlotOrder { position } => format!("free slot #{position} in order"),
                        C::LeastUsedTaskManager { reserved, offered } => {
                            format!("the least used TaskManager: {reserved} of its {offered} offered slots taken")
                        }
                        C::FewestTasks { tasks_before } => {
                            format!("the TaskManager with the fewest tasks, {tasks_before} before")
                        }
                    };
                    format!(
                        "execution slot sharing group {request} ({}) → {tm} slot {slot} (now {}; {why})",
                        count(*tasks, "task"),
                        count(*tm_tasks_now, "task")
                    )
                }
                MatchRule::StateLocality { local_key_groups } => format!(
                    "execution slot sharing group {request} ({}) → {tm} slot {slot} (now {}; {} of its state already there)",
                    count(*tasks, "task"),
                    count(*tm_tasks_now, "task"),
                    count(*local_key_groups, "key group")
                ),
            },
            Event::SlotRequestsMatched {
                at_ms,
                tm,
                requests,
                first_request,
                last_request,
                tasks,
                tm_tasks_now,
                rule,
            } => format!(
                "t={at_ms} ms: {} ({}) among {first_request}..={last_request} → {tm} by {} (now {} there)",
                count(*requests, "slot request"),
                count(*tasks, "task"),
                match rule {
                    MatchKind::FirstPending => "slot offers to the oldest pending requests",
                    MatchKind::FewestTasks => "fewest tasks",
                    MatchKind::PreviousAllocation => "their previous allocations",
                    MatchKind::Resolver => "the slot matching resolver",
                    MatchKind::StateLocality => "state locality",
                },
                count(*tm_tasks_now, "task")
            ),
            Event::PreMappingUnfulfilled {
                at_ms,
                pending,
                free_slots,
                requested,
                offered,
            } => format!(
                "t={at_ms} ms: {pending} pending requests ({}) cannot all be served by the {free_slots} free slots ({}); \
                 the tasks-balanced strategy matches none of them and waits",
                profiles(requested),
                profiles(offered)
            ),
            Event::SlotsOccupied {
                tm,
                job,
                slots,
                tasks,
                tm_slots,
            } => format!(
                "{tm}: {job} holds {slots} of its {tm_slots} slots with {}; the ResourceManager counts them, \
                 this job's slot pool does not see their tasks",
                count(*tasks, "task")
            ),
            Event::TaskManagerResourcesSet {
                tm,
                resources,
                default_slot,
                slots,
            } => match (resources, default_slot) {
                (Some(r), Some(d)) => {
                    format!("{tm}: total resources {r}; default slot ({slots} slots) {d}; slots are carved dynamically")
                }
                _ => format!("{tm}: no declared resources; {slots} slots that fit any request"),
            },
            Event::SlotSharingGroupResourcesSet { group, resources } => match resources {
                Some(r) => format!("slot sharing group {group}: each slot request asks for {r}"),
                None => format!("slot sharing group {group}: slot requests are UNKNOWN (any slot)"),
            },
            Event::ResourceRequirementsSet {
                vertex,
                lower_bound,
                upper_bound,
                max_parallelism,
            } => format!(
                "{vertex}: parallelism between {lower_bound} and {upper_bound} for the adaptive scheduler \
                 (max parallelism {max_parallelism})"
            ),
            Event::AdaptiveStrategiesChosen {
                effective_mode,
                slot_sharing_resolver,
                slot_matching_resolver,
                state_locality,
                minimal_task_managers,
                resource_matching,
            } => format!(
                "adaptive scheduler, mode {}: {} groups the subtasks, {}{}; the ResourceManager offers slots by {}",
                effective_mode.name(),
                slot_sharing_resolver.flink_name(),
                if *state_locality {
                    "StateLocalitySlotAssigner places them by local state (no slot matching resolver)".to_string()
                } else {
                    format!("DefaultSlotAssigner places them with {}", slot_matching_resolver.flink_name())
                },
                if *minimal_task_managers {
                    " on the fewest TaskManagers"
                } else {
                    ""
                },
                resource_matching.describe()
            ),
            Event::ParallelismDetermined {
                at_ms,
                free_slots,
                desired_slots,
                minimum_slots,
                groups,
                vertices,
            } => format!(
                "t={at_ms} ms: {free_slots} free slots (desired {desired_slots}, minimum {minimum_slots}): {}; parallelism {}",
                groups
                    .iter()
                    .map(|g| format!(
                        "group {} gets {} (bounds {}..{})",
                        g.group,
                        count(g.slots, "slot"),
                        g.max_lower_bound,
                        g.max_upper_bound
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                vertices
                    .iter()
                    .take(24)
                    .map(|v| format!("{}={} of {}..{}", v.vertex, v.parallelism, v.lower_bound, v.upper_bound))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::WaitingForResources {
                at_ms,
                until_ms,
                reason,
                available_slots,
                desired_slots,
                minimum_slots,
            } => format!(
                "t={at_ms} ms: {available_slots} slots available of {desired_slots} desired (minimum {minimum_slots}); \
                 the adaptive scheduler waits until t={until_ms} ms ({})",
                match reason {
                    WaitReason::SubmissionStabilization => {
                        "jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout"
                    }
                    WaitReason::ResourceWait => "jobmanager.adaptive-scheduler.submission.resource-wait-timeout",
                    WaitReason::ExecutingStabilization => {
                        "jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling / resource-stabilization-timeout"
                    }
                }
            ),
            Event::Rescaling {
                at_ms,
                trigger,
                from_subtasks,
                to_subtasks,
                cooldown_until_ms,
                desired,
            } => format!(
                "t={at_ms} ms: the job restarts from {} to {} ({}; cooldown until t={cooldown_until_ms} ms; {})",
                count(*from_subtasks, "subtask"),
                count(*to_subtasks, "subtask"),
                match trigger {
                    RescaleTrigger::NewResources => "new slots",
                    RescaleTrigger::LostTaskManager => "a TaskManager was lost",
                    RescaleTrigger::NewResourceRequirements => "new parallelism bounds",
                },
                if *desired {
                    "desired resources reached"
                } else {
                    "sufficient resources after stabilization"
                }
            ),
            Event::SlotRequestsTimedOut {
                at_ms,
                requests,
                requested_at_ms,
                timeout_ms,
                next_batch_at_ms,
            } => {
                let why = if *next_batch_at_ms == u64::MAX {
                    "no more slots were coming".to_string()
                } else {
                    format!("the next batch would settle only at t={next_batch_at_ms} ms")
                };
                format!(
                    "t={at_ms} ms: {} slot requests issued at t={requested_at_ms} ms timed out after \
                     slot.request.timeout={timeout_ms} ms ({why})",
                    requests.len()
                )
            }
            Event::SchedulingFinished {
                at_ms,
                scheduling_time_ms,
                tasks_per_tm,
                tm_spread,
                slot_spread,
                cluster_tasks_per_tm,
            } => {
                let cluster = if cluster_tasks_per_tm.is_empty() {
                    String::new()
                } else {
                    let counts: Vec<u32> = cluster_tasks_per_tm.iter().map(|c| c.n).collect();
                    format!(
                        "; with the other job's tasks {} (range {})",
                        list(cluster_tasks_per_tm),
                        Spread::of(&counts).range
                    )
                };
                format!(
                    "t={at_ms} ms: scheduling finished in {scheduling_time_ms} ms; tasks per TaskManager {} \
                     (max {}, min {}, range {}); tasks per slot range {}{cluster}",
                    list(tasks_per_tm),
                    tm_spread.max,
                    tm_spread.min,
                    tm_spread.range,
                    slot_spread.range
                )
            }
            Event::SchedulingFailed {
                at_ms,
                unfulfilled,
                requests,
                timeout_ms,
            } => format!(
                "t={at_ms} ms: scheduling failed: {unfulfilled} of {requests} slot requests unfulfilled within \
                 {timeout_ms} ms; the job is not running"
            ),
        }
    }
}

/// Why a Flink action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The job graph is invalid.
    #[error(transparent)]
    JobGraph(#[from] JobGraphError),
    /// A config key or value was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Schedule without a job.
    #[error("no job is defined; define a job first")]
    NoJob,
    /// More slot requests than slots on running TaskManagers.
    #[error(
        "the job needs {needed} slots but the running TaskManagers have only {available}; \
         add TaskManagers or slots"
    )]
    NotEnoughSlots {
        /// Slot requests after phase 1 (adaptive scheduler: the minimum slots).
        needed: u64,
        /// Slots on running TaskManagers.
        available: u64,
    },
    /// Unknown TaskManager.
    #[error("no TaskManager named {0:?}")]
    UnknownTaskManager(String),
    /// Name taken.
    #[error("a TaskManager named {0:?} exists already")]
    DuplicateTaskManager(String),
    /// Empty name.
    #[error("a TaskManager name must not be empty")]
    EmptyTaskManagerName,
    /// Slot count out of range.
    #[error("a TaskManager needs between 1 and {max} slots (got {got})")]
    BadSlotCount {
        /// Given.
        got: u32,
        /// Allowed.
        max: u32,
    },
    /// Too many TaskManagers.
    #[error("at most {max} TaskManagers are allowed")]
    TooManyTaskManagers {
        /// Allowed.
        max: usize,
    },
    /// A TaskManager in the wrong state for the action.
    #[error("{tm} is {state}; {action} needs it {wanted}")]
    WrongTaskManagerState {
        /// Name.
        tm: String,
        /// Current state.
        state: &'static str,
        /// Action.
        action: &'static str,
        /// Needed state.
        wanted: &'static str,
    },
    /// Removing a TaskManager that holds job slots.
    #[error("{tm} holds {requests} slot requests of the job; lose it (failover) instead of removing it")]
    TaskManagerBusy {
        /// Name.
        tm: String,
        /// Requests on it.
        requests: u32,
    },
    /// A duration Flink cannot represent.
    #[error(
        "{key} = {ms} ms cannot be represented as a 64-bit number of milliseconds \
         (numeric overflow; at most {max} ms)",
        max = config::MAX_DURATION_MS
    )]
    BadDuration {
        /// Key.
        key: &'static str,
        /// Value.
        ms: u64,
    },
    /// Simulated time would run past its end.
    #[error("{what}: t={now_ms} ms + {plus_ms} ms would run the simulated clock past {max} ms", max = u64::MAX)]
    ClockOverflow {
        /// What needed the time.
        what: &'static str,
        /// Now.
        now_ms: u64,
        /// The duration added.
        plus_ms: u64,
    },
    /// Unknown slot sharing group.
    #[error("the job has no slot sharing group named {0:?}")]
    UnknownSlotSharingGroup(String),
    /// Unknown vertex.
    #[error("the job has no vertex named {0:?}")]
    UnknownVertex(String),
    /// Bounds out of range.
    #[error(
        "{vertex}: parallelism bounds need 1 <= lower ({lower}) <= upper ({upper}) <= max parallelism ({max})"
    )]
    BadResourceRequirements {
        /// Vertex.
        vertex: String,
        /// Lower bound.
        lower: u32,
        /// Upper bound.
        upper: u32,
        /// Max parallelism.
        max: u32,
    },
    /// Another job's slots out of range.
    #[error("{tm} has {total} slots; another job cannot hold {slots}")]
    BadOtherJobSlots {
        /// TaskManager.
        tm: String,
        /// Asked.
        slots: u32,
        /// Its slots.
        total: u32,
    },
    /// Resources too small for the slot count.
    #[error("{tm}: {resources} split over {slots} slots leaves a slot without CPU or memory")]
    ResourcesTooSmall {
        /// TaskManager.
        tm: String,
        /// Resources.
        resources: Resources,
        /// Slots.
        slots: u32,
    },
}

/// Whether the job runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// No job defined.
    NoJob,
    /// Defined, not deployed.
    Created,
    /// Every slot request is placed.
    Running,
    /// The last scheduling round failed (timeout); not running.
    Failed,
}

/// What the adaptive scheduler keeps about the running job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AdaptiveRun {
    /// When the job last (re)started.
    pub last_rescale_ms: u64,
}

/// A Flink cluster simulation with one job.
#[derive(Clone, Debug)]
pub struct Sim {
    config: Config,
    #[allow(dead_code)]
    rng: SimRng,
    now_ms: u64,
    job: Option<JobGraph>,
    plan: Option<SlotSharingPlan>,
    cluster: Cluster,
    placement: Vec<Option<SlotAddr>>,
    status: JobStatus,
    metrics: Option<Metrics>,
    adaptive: Option<AdaptiveRun>,
}

impl Sim {
    /// Simulated time (ms).
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The validated job, if defined.
    pub fn job(&self) -> Option<&JobGraph> {
        self.job.as_ref()
    }

    /// The phase-1 result of the last scheduling, if any.
    pub fn plan(&self) -> Option<&SlotSharingPlan> {
        self.plan.as_ref()
    }

    /// TaskManagers in registration order.
    pub fn task_managers(&self) -> &[TaskManager] {
        &self.cluster.tms
    }

    /// Where each slot request is (indexed by request id).
    pub fn placement(&self) -> &[Option<SlotAddr>] {
        &self.placement
    }

    /// Job status.
    pub fn status(&self) -> JobStatus {
        self.status
    }

    /// Metrics of the last successful scheduling (cleared when the job stops running).
    pub fn metrics(&self) -> Option<&Metrics> {
        self.metrics.as_ref()
    }

    /// Tasks per running TaskManager, in registration order (empty before scheduling).
    pub fn tasks_per_tm(&self) -> Vec<u32> {
        self.metrics.as_ref().map(Metrics::tm_counts).unwrap_or_default()
    }

    /// Tasks per slot request, in request order (empty before scheduling).
    pub fn tasks_per_slot(&self) -> Vec<u32> {
        self.plan
            .as_ref()
            .map(SlotSharingPlan::tasks_per_request)
            .unwrap_or_default()
    }

    /// The parallelism each vertex runs with in the last plan (definition order; empty
    /// before scheduling). With the adaptive scheduler it follows the slots.
    pub fn parallelism(&self) -> Vec<u32> {
        self.plan
            .as_ref()
            .map(|p| p.request_of.iter().map(|r| r.len() as u32).collect())
            .unwrap_or_default()
    }

    /// The slot grid a UI draws.
    pub fn slot_grid(&self) -> view::SlotGrid {
        view::SlotGrid::build(self)
    }

    fn tm_index(&self, name: &str) -> Result<usize, Error> {
        self.cluster
            .find(name)
            .ok_or_else(|| Error::UnknownTaskManager(name.to_string()))
    }

    fn check_slots(&self, slots: Option<u32>) -> Result<u32, Error> {
        let n = slots.unwrap_or(self.config.number_of_task_slots);
        if n == 0 || n > MAX_SLOTS_PER_TASK_MANAGER {
            return Err(Error::BadSlotCount {
                got: n,
                max: MAX_SLOTS_PER_TASK_MANAGER,
            });
        }
        Ok(n)
    }

    /// `now + d`, or the clock overflow error.
    pub(crate) fn later(&self, what: &'static str, d: u64) -> Result<u64, Error> {
        self.now_ms.checked_add(d).ok_or(Error::ClockOverflow {
            what,
            now_ms: self.now_ms,
            plus_ms: d,
        })
    }

    fn define_job(&mut self, spec: &JobSpec) -> Result<Vec<Event>, Error> {
        let g = JobGraph::build(spec)?;
        let ev = Event::JobDefined {
            vertices: g.vertices.len() as u32,
            subtasks: g.subtask_count(),
            edges: g.edges.len() as u32,
            slot_sharing_groups: g.slot_sharing_groups.clone(),
            topological_order: g
                .topological_order
                .iter()
                .map(|&i| g.vertices[i].name.clone())
                .collect(),
        };
        self.job = Some(g);
        self.plan = None;
        self.placement.clear();
        self.cluster.clear_slots();
        self.status = JobStatus::Created;
        self.metrics = None;
        self.adaptive = None;
        Ok(vec![ev])
    }

    fn add_tm(&mut self, name: Option<String>, slots: Option<u32>) -> Result<Vec<Event>, Error> {
        let n = self.check_slots(slots)?;
        if self.cluster.tms.len() >= MAX_TASK_MANAGERS {
            return Err(Error::TooManyTaskManagers {
                max: MAX_TASK_MANAGERS,
            });
        }
        if let Some(name) = &name {
            if name.is_empty() {
                return Err(Error::EmptyTaskManagerName);
            }
            if self.cluster.find(name).is_some() {
                return Err(Error::DuplicateTaskManager(name.clone()));
            }
        }
        let i = self.cluster.add(name, n);
        self.refresh_metrics();
        Ok(vec![Event::TaskManagerAdded {
            tm: self.cluster.tms[i].name.clone(),
            slots: n,
        }])
    }

    fn remove_tm(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let i = self.tm_index(name)?;
        let busy = self.cluster.tms[i].slots.iter().flatten().count() as u32;
        if busy > 0 {
            return Err(Error::TaskManagerBusy {
                tm: name.to_string(),
                requests: busy,
            });
        }
        let tm = self.cluster.tms.remove(i);
        for a in self.placement.iter_mut().flatten() {
            if a.tm as usize > i {
                a.tm -= 1;
            }
        }
        self.refresh_metrics();
        Ok(vec![Event::TaskManagerRemoved {
            tm: tm.name,
            slots: tm.slots.len() as u32,
        }])
    }

    fn check_config(config: &Config) -> Result<(), Error> {
        match config.unrepresentable_duration() {
            Some((key, ms)) => Err(Error::BadDuration { key, ms }),
            None => Ok(()),
        }
    }

    fn set_config(&mut self, change: &ConfigChange<Config>) -> Result<Vec<Event>, Error> {
        let config = &change.config.apply_to(&self.config)?;
        Self::check_config(config)?;
        self.config = config.clone();
        Ok(vec![Event::ConfigChanged {
            configured_mode: config.configured_mode(),
            mode_set: config.load_balance_mode.is_some(),
            scheduler: config.scheduler,
            local_recovery: config.local_recovery,
            evenly_spread_out_slots: config.evenly_spread_out_slots,
            effective_mode: config.effective_mode(),
            max_interval_ms: config.slot_request_max_interval.0,
            timeout_ms: config.slot_request_timeout.0,
        }])
    }

    fn set_tm_resources(&mut self, name: &str, resources: Option<Resources>) -> Result<Vec<Event>, Error> {
        let i = self.tm_index(name)?;
        let tm = &self.cluster.tms[i];
        let busy = tm.slots.iter().flatten().count() as u32;
        if busy > 0 {
            return Err(Error::TaskManagerBusy {
                tm: name.to_string(),
                requests: busy,
            });
        }
        if let Some(r) = resources {
            let d = r.divided_by(tm.configured_slots);
            if d.cpu_milli == 0 || d.memory_mb == 0 {
                return Err(Error::ResourcesTooSmall {
                    tm: name.to_string(),
                    resources: r,
                    slots: tm.configured_slots,
                });
            }
        }
        let tm = &mut self.cluster.tms[i];
        tm.resources = resources;
        tm.release_all();
        Ok(vec![Event::TaskManagerResourcesSet {
            tm: tm.name.clone(),
            resources,
            default_slot: tm.default_slot(),
            slots: tm.configured_slots,
        }])
    }

    fn set_group_resources(
        &mut self,
        group: &str,
        resources: Option<Resources>,
    ) -> Result<Vec<Event>, Error> {
        let job = self.job.as_mut().ok_or(Error::NoJob)?;
        let g = job
            .slot_sharing_groups
            .iter()
            .position(|n| n == group)
            .ok_or_else(|| Error::UnknownSlotSharingGroup(group.to_string()))?;
        job.slot_sharing_group_resources[g] = resources;
        Ok(vec![Event::SlotSharingGroupResourcesSet {
            group: group.to_string(),
            resources,
        }])
    }

    fn set_requirements(&mut self, vertex: &str, lower: u32, upper: u32) -> Result<Vec<Event>, Error> {
        let job = self.job.as_mut().ok_or(Error::NoJob)?;
        let v = job
            .vertex_index(vertex)
            .ok_or_else(|| Error::UnknownVertex(vertex.to_string()))?;
        let max = key_group_range_assignment::compute_default_max_parallelism(job.vertices[v].parallelism);
        if lower == 0 || lower > upper || upper > max {
            return Err(Error::BadResourceRequirements {
                vertex: vertex.to_string(),
                lower,
                upper,
                max,
            });
        }
        job.resource_requirements[v] = Some((lower, upper));
        Ok(vec![Event::ResourceRequirementsSet {
            vertex: vertex.to_string(),
            lower_bound: lower,
            upper_bound: upper,
            max_parallelism: max,
        }])
    }

    fn occupy_slots(
        &mut self,
        name: &str,
        job: Option<&str>,
        slots: u32,
        tasks: u32,
    ) -> Result<Vec<Event>, Error> {
        let i = self.tm_index(name)?;
        let tm = &self.cluster.tms[i];
        let total = tm.configured_slots.min(tm.slot_count());
        if slots > total {
            return Err(Error::BadOtherJobSlots {
                tm: name.to_string(),
                slots,
                total,
            });
        }
        let busy = tm.slots.iter().take(slots as usize).flatten().count() as u32;
        if busy > 0 {
            return Err(Error::TaskManagerBusy {
                tm: name.to_string(),
                requests: busy,
            });
        }
        let job = job.unwrap_or("other-job").to_string();
        let tm = &mut self.cluster.tms[i];
        tm.other_job = (slots > 0 || tasks > 0).then(|| OtherJob {
            job: job.clone(),
            slots,
            tasks,
        });
        let tm_slots = tm.slot_count();
        self.refresh_metrics();
        Ok(vec![Event::SlotsOccupied {
            tm: name.to_string(),
            job,
            slots,
            tasks,
            tm_slots,
        }])
    }

    /// Phase 1's slot sharing strategy, the ResourceManager's resource matching and
    /// the slot pool's request matching for the effective mode.
    fn chosen_strategies(&self) -> (SlotSharingStrategy, ResourceMatching, RequestMatching) {
        let mode = self.config.effective_mode();
        let sharing = if mode == LoadBalanceMode::Tasks {
            SlotSharingStrategy::TaskBalanced
        } else {
            SlotSharingStrategy::LocalInputPreferred
        };
        let request = request_slot_matching::for_mode(mode, false).id();
        (sharing, ResourceMatching::for_mode(mode), request)
    }

    /// Events for phase 1, summarised for vertices wider than [`DETAIL_LIMIT`].
    fn phase_one_events(job: &JobGraph, plan: &SlotSharingPlan, events: &mut Vec<Event>) {
        for (v, assignments) in &plan.steps {
            let vertex = &job.vertices[*v];
            let group = job.slot_sharing_groups[vertex.slot_sharing_group].clone();
            let parallelism = assignments.len() as u32;
            if assignments.len() > DETAIL_LIMIT {
                let mut by_rule: Vec<(String, u32)> = Vec::new();
                let (mut lo, mut hi) = (u32::MAX, 0u32);
                for a in assignments {
                    let name = a.reason.rule_name();
                    match by_rule.iter_mut().find(|(n, _)| n == name) {
                        Some((_, c)) => *c += 1,
                        None => by_rule.push((name.to_string(), 1)),
                    }
                    lo = lo.min(a.request);
                    hi = hi.max(a.request);
                }
                events.push(Event::SubtasksAssigned {
                    vertex: vertex.name.clone(),
                    parallelism,
                    slot_sharing_group: group,
                    assignments: Vec::new(),
                    summary: Some(AssignmentSummary {
                        by_rule,
                        first_request: lo,
                        last_request: hi,
                    }),
                });
            } else {
                events.push(Event::SubtasksAssigned {
                    vertex: vertex.name.clone(),
                    parallelism,
                    slot_sharing_group: group,
                    assignments: assignments.clone(),
                    summary: None,
                });
            }
        }
        let tasks = plan.tasks_per_request();
        events.push(Event::SlotSharingDone {
            strategy: plan.strategy,
            spread: Spread::of(&tasks),
            tasks_per_slot: tasks,
        });
    }

    /// Slots the running TaskManagers can give the job for these request profiles:
    /// free positions, and for a TaskManager with resources, as many slots of the
    /// smallest requested profile as its resources allow (an upper bound; what does
    /// not fit times out like in Flink).
    fn capacity(&self, profiles: &[ResourceProfile]) -> u64 {
        self.cluster
            .tms
            .iter()
            .filter(|t| t.is_running())
            .map(|t| {
                let positions = u64::from(t.slot_count().saturating_sub(t.other_job_slots()));
                match (t.resources, t.default_slot()) {
                    (Some(total), Some(default)) => {
                        let other = default;
                        let mut free = total;
                        for _ in 0..t.other_job_slots() {
                            free = free.minus(other);
                        }
                        let smallest = profiles
                            .iter()
                            .map(|p| p.effective(default))
                            .min_by_key(|r| (r.cpu_milli, r.memory_mb))
                            .unwrap_or(default);
                        let fit = (free.cpu_milli / smallest.cpu_milli.max(1))
                            .min(free.memory_mb / smallest.memory_mb.max(1));
                        let cap = u64::from(MAX_SLOTS_PER_TASK_MANAGER.saturating_sub(t.other_job_slots()));
                        let _ = positions;
                        fit.min(cap)
                    }
                    _ => positions,
                }
            })
            .sum()
    }

    fn schedule(&mut self) -> Result<Vec<Event>, Error> {
        if self.config.scheduler == SchedulerType::Adaptive {
            return self.schedule_adaptive();
        }
        let job = self.job.as_ref().ok_or(Error::NoJob)?;
        let (strategy, resource_matching, request_matching) = self.chosen_strategies();
        let plan = slot_sharing::plan(job, strategy);
        let profiles: Vec<ResourceProfile> =
            plan.requests.iter().map(|r| job.group_profile(r.group)).collect();
        let needed = plan.requests.len() as u64;
        let available = self.capacity(&profiles);
        if needed > available {
            return Err(Error::NotEnoughSlots { needed, available });
        }
        let span = self
            .config
            .slot_request_timeout
            .0
            .saturating_add(self.config.slot_request_max_interval.0);
        self.later("scheduling", span)?;
        let mut events = vec![Event::StrategiesChosen {
            effective_mode: self.config.effective_mode(),
            slot_sharing: strategy,
            resource_matching,
            request_matching,
            previous_allocations: false,
        }];
        Self::phase_one_events(job, &plan, &mut events);
        let tasks = plan.tasks_per_request();
        // Redeploy: everything previously placed is released.
        self.cluster.clear_slots();
        self.placement = vec![None; plan.requests.len()];
        self.adaptive = None;
        let start = self.now_ms;
        events.push(Event::SlotRequestsIssued {
            at_ms: start,
            requests: plan.requests.len() as u32,
            tasks: tasks.iter().map(|&t| u64::from(t)).sum(),
            held_free_slots: 0,
            restart: false,
        });
        let round = slot_pool::Round {
            mode: self.config.effective_mode(),
            max_interval_ms: self.config.slot_request_max_interval.0,
            timeout_ms: self.config.slot_request_timeout.0,
            start_ms: start,
            tasks: &tasks,
            profiles: &profiles,
            prefer: &[],
            pending: (0..plan.requests.len() as u32).collect(),
            held: Vec::new(),
            arrivals: Vec::new(),
        };
        let out = slot_pool::run(&mut self.cluster, &mut self.placement, round);
        events.extend(out.events);
        self.plan = Some(plan);
        self.finish_round(start, out.end_ms, out.now_ms, out.succeeded, &mut events);
        Ok(events)
    }

    /// Record the end of a scheduling round (shared with failover and the adaptive
    /// scheduler).
    fn finish_round(&mut self, start: u64, end: u64, now: u64, ok: bool, events: &mut Vec<Event>) {
        self.now_ms = now;
        if ok {
            self.status = JobStatus::Running;
            if let Some(plan) = &self.plan {
                let m = Metrics::measure(plan, &self.cluster, end - start);
                events.push(Event::SchedulingFinished {
                    at_ms: end,
                    scheduling_time_ms: end - start,
                    tasks_per_tm: m.tasks_per_tm.clone(),
                    tm_spread: m.tm,
                    slot_spread: m.slot,
                    cluster_tasks_per_tm: m.cluster_tasks_per_tm.clone(),
                });
                self.metrics = Some(m);
            }
        } else {
            self.status = JobStatus::Failed;
            self.metrics = None;
            self.adaptive = None;
        }
    }

    /// Re-measure after the set of TaskManagers changed (keeps the scheduling time).
    fn refresh_metrics(&mut self) {
        if let (Some(plan), Some(m)) = (&self.plan, &self.metrics) {
            let t = m.scheduling_time_ms;
            self.metrics = Some(Metrics::measure(plan, &self.cluster, t));
        }
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Flink;

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        schema::check_unmodelled(&config)?;
        Sim::check_config(&config)?;
        Ok(Sim {
            config,
            rng: SimRng::new(seed),
            now_ms: 0,
            job: None,
            plan: None,
            cluster: Cluster::default(),
            placement: Vec::new(),
            status: JobStatus::NoJob,
            metrics: None,
            adaptive: None,
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        // Work on a copy so that an error leaves `self` exactly as it was.
        let mut next = self.clone();
        let events = match action {
            Action::DefineJob { job } => next.define_job(job),
            Action::AddTaskManager { name, slots } => next
                .add_tm(name.clone(), *slots)
                .and_then(|evs| next.after_new_resources(evs)),
            Action::AddTaskManagers { count, slots } => {
                let mut evs = Vec::new();
                let free = MAX_TASK_MANAGERS.saturating_sub(next.cluster.tms.len());
                if *count as usize > free {
                    return Err(Error::TooManyTaskManagers {
                        max: MAX_TASK_MANAGERS,
                    });
                }
                for _ in 0..*count {
                    evs.extend(next.add_tm(None, *slots)?);
                }
                next.after_new_resources(evs)
            }
            Action::RemoveTaskManager { tm } => next.remove_tm(tm),
            Action::LoseTaskManager { tm, restart_after_ms } => next.lose_tm(tm, *restart_after_ms),
            Action::RestoreTaskManager { tm } => {
                next.restore_tm(tm).and_then(|evs| next.after_new_resources(evs))
            }
            Action::SetConfig(change) => next.set_config(change),
            Action::SetTaskManagerResources { tm, resources } => next.set_tm_resources(tm, *resources),
            Action::SetSlotSharingGroupResources { group, resources } => {
                next.set_group_resources(group, *resources)
            }
            Action::SetResourceRequirements {
                vertex,
                lower_bound,
                upper_bound,
            } => next
                .set_requirements(vertex, *lower_bound, *upper_bound)
                .and_then(|evs| next.adaptive_rescale(RescaleTrigger::NewResourceRequirements, evs)),
            Action::OccupySlots {
                tm,
                job,
                slots,
                tasks,
            } => next
                .occupy_slots(tm, job.as_deref(), *slots, *tasks)
                .and_then(|evs| next.after_new_resources(evs)),
            Action::Schedule => next.schedule(),
        }?;
        *self = next;
        Ok(events)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn round_action() -> Action {
        Action::Schedule
    }

    fn set_config(change: ConfigChange<Config>) -> Action {
        Action::SetConfig(change)
    }

    fn wrap(action: Action) -> AnyAction {
        AnyAction::Flink(action)
    }

    fn unwrap(any: &AnyAction) -> Option<&Action> {
        match any {
            AnyAction::Flink(a) => Some(a),
            _ => None,
        }
    }

    fn subject(event: &Event) -> Option<Subject> {
        subject::of(event)
    }

    fn changes(before: &Sim, after: &Sim) -> Vec<String> {
        vec![format!(
            "tasks per TaskManager {:?} → {:?}",
            before.tasks_per_tm(),
            after.tasks_per_tm()
        )]
    }

    fn series(events: &mut dyn Iterator<Item = &Event>) -> Vec<Series> {
        let runs: Vec<(f64, (u32, u32, u64))> = events
            .filter_map(|e| match e {
                Event::SchedulingFinished {
                    tm_spread,
                    slot_spread,
                    scheduling_time_ms,
                    ..
                } => Some((tm_spread.range, slot_spread.range, *scheduling_time_ms)),
                _ => None,
            })
            .enumerate()
            .map(|(i, r)| ((i + 1) as f64, r))
            .collect();
        vec![
            Series::of("tasks per TM range", "", &runs, |r| f64::from(r.0)),
            Series::of("tasks per slot range", "", &runs, |r| f64::from(r.1)),
            Series::of("scheduling time", "ms", &runs, |r| r.2 as f64),
        ]
    }

    fn view_json(&self) -> serde_json::Value {
        serde_json::json!({ "slot_grid": self.slot_grid(), "metrics": self.metrics() })
    }

    fn invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }

    /// The default scheduler's request slot matching strategies
    /// ([`request_slot_matching::REGISTRY`]), then the adaptive scheduler's slot
    /// matching resolvers ([`adaptive::slot_matching_resolver::REGISTRY`]).
    fn strategies() -> Vec<super::strategy::StrategyInfo> {
        request_slot_matching::REGISTRY
            .iter()
            .map(|s| s.info())
            .chain(
                adaptive::slot_matching_resolver::REGISTRY
                    .iter()
                    .map(|r| r.info()),
            )
            .collect()
    }

    /// `info.key` set to `info.name`, and for an adaptive scheduler's resolver also
    /// `jobmanager.scheduler: adaptive` (the resolvers run only there).
    fn strategy_config(info: &super::strategy::StrategyInfo) -> Result<Config, ConfigError> {
        let value =
            serde_json::from_str(info.name).unwrap_or_else(|_| serde_json::Value::String(info.name.into()));
        let mut patch = schema::Patch::<Config>::one(info.key, value)?;
        if adaptive::slot_matching_resolver::REGISTRY
            .iter()
            .any(|r| r.info() == *info)
        {
            patch = patch.set("jobmanager.scheduler", serde_json::json!("adaptive"))?;
        }
        patch.apply_to(&Config::default())
    }
}

impl Action {
    /// Set every key to `c`'s value (the whole config).
    pub fn whole_config(c: &Config) -> Action {
        Action::SetConfig(ConfigChange::new(schema::Patch::whole(c)))
    }
}

impl schema::Schema for Config {
    fn knobs() -> &'static [schema::Knob] {
        knobs::KNOBS
    }

    fn profiles() -> Vec<(&'static str, Config)> {
        vec![("flink", Config::default())]
    }

    fn rules(&self) -> Result<(), String> {
        Sim::check_config(self).map_err(|e| e.to_string())
    }

    fn unmodelled(&self) -> &std::collections::BTreeMap<String, serde_json::Value> {
        &self.unmodelled
    }

    fn compare_keys() -> &'static [&'static str] {
        &["taskmanager.load-balance.mode"]
    }
}

#[cfg(test)]
mod tests;
