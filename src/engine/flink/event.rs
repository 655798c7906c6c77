//! What happened in a Flink simulation, with the numbers behind it, and its narration.

use super::config::{LoadBalanceMode, SchedulerType};
use super::metrics::{Spread, TmCount};
use super::resource_profile::{ResourceProfile, Resources};
use super::slot_matching::{MatchKind, MatchRule, RequestMatching, ResourceMatching};
use super::slot_sharing::{Assignment, SlotSharingStrategy};
use super::{adaptive, slot_sharing};
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};

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
        /// Request ids in the order they reach the slot pool: pipelined regions in
        /// topological order, each region's requests in hash order (drawn from the
        /// seed). Left empty above the detail limit.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        order: Vec<u32>,
        /// Pipelined regions that issued requests.
        #[serde(default, skip_serializing_if = "is_zero")]
        regions: u32,
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

/// "; in hash order [3, 0, 5, …] (1 pipelined region)", or nothing when no order is kept.
fn issue_order(order: &[u32], regions: u32) -> String {
    if order.is_empty() && regions == 0 {
        return String::new();
    }
    let regions = count(regions, "pipelined region");
    if order.is_empty() {
        format!("; each region's requests reach the slot pool in hash order drawn from the seed ({regions})")
    } else {
        format!(
            "; requests reach the slot pool as {} (hash order within each region, drawn from the seed; {regions})",
            nums(order)
        )
    }
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        match self {
            Event::JobDefined { .. }
            | Event::TaskManagerLost { .. }
            | Event::ConfigChanged { .. }
            | Event::StrategiesChosen { .. }
            | Event::SlotsOccupied { .. }
            | Event::TaskManagerResourcesSet { .. }
            | Event::SlotSharingGroupResourcesSet { .. }
            | Event::ResourceRequirementsSet { .. } => self.narrate_cluster(),
            Event::TaskManagerAdded { tm, slots } => format!("{tm} registered with {slots} slots"),
            Event::TaskManagerRemoved { tm, slots } => format!("{tm} ({slots} slots) decommissioned"),
            Event::TaskManagerRestored { tm, at_ms, slots } => {
                format!("t={at_ms} ms: {tm} registered again with {slots} free slots")
            }
            Event::SubtasksAssigned { .. } | Event::SlotSharingDone { .. } => self.narrate_slot_sharing(),
            Event::SlotRequestsIssued { .. }
            | Event::SlotsAllocated { .. }
            | Event::ResourceViewSettled { .. }
            | Event::PreMappingUnfulfilled { .. }
            | Event::SlotRequestsTimedOut { .. } => self.narrate_requests(),
            Event::SlotRequestMatched { .. } | Event::SlotRequestsMatched { .. } => self.narrate_matching(),
            Event::AdaptiveStrategiesChosen { .. }
            | Event::ParallelismDetermined { .. }
            | Event::WaitingForResources { .. }
            | Event::Rescaling { .. } => self.narrate_adaptive(),
            Event::SchedulingFinished { .. } | Event::SchedulingFailed { .. } => self.narrate_outcome(),
        }
    }
}

impl Event {
    /// The job, the TaskManagers and the configuration.
    fn narrate_cluster(&self) -> String {
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
            _ => unreachable!("narrate_cluster is called only for its kinds"),
        }
    }

    /// Phase 1: subtasks into slot requests.
    fn narrate_slot_sharing(&self) -> String {
        use slot_sharing::AssignReason as R;
        match self {
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
                            R::FirstAvailable => "first request without this vertex".to_string(),
                            R::NewSlot => "new request".to_string(),
                            R::SameIndex => "same index".to_string(),
                            R::RoundRobin { started_at } => format!("round-robin from request {started_at}"),
                            R::LeastUtilized { tasks_before } => {
                                format!("least-utilised request ({tasks_before} tasks)")
                            }
                        };
                        format!("#{} → request {} ({why})", a.subtask, a.request)
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
            _ => unreachable!("narrate_slot_sharing is called only for its kinds"),
        }
    }

    /// Slot requests issued, slots allocated, the resource view.
    fn narrate_requests(&self) -> String {
        match self {
            Event::SlotRequestsIssued {
                at_ms,
                requests,
                tasks,
                held_free_slots,
                restart,
                order,
                regions,
            } => format!(
                "t={at_ms} ms: {}{requests} slot requests ({tasks} tasks) issued; the job holds {held_free_slots} free slots{}",
                if *restart { "restart: " } else { "" },
                issue_order(order, *regions)
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
            _ => unreachable!("narrate_requests is called only for its kinds"),
        }
    }

    /// Phase 2: slot requests matched to slots.
    fn narrate_matching(&self) -> String {
        match self {
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
            _ => unreachable!("narrate_matching is called only for its kinds"),
        }
    }

    /// The adaptive scheduler's parallelism, waits and rescales.
    fn narrate_adaptive(&self) -> String {
        match self {
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
            _ => unreachable!("narrate_adaptive is called only for its kinds"),
        }
    }

    /// How scheduling ended.
    fn narrate_outcome(&self) -> String {
        match self {
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
            _ => unreachable!("narrate_outcome is called only for its kinds"),
        }
    }
}
