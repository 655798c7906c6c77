//! Apache Flink task scheduling: slot sharing (phase 1, tasks to slots) and slot
//! placement on TaskManagers (phase 2, slots to TaskManagers), default versus
//! balanced (FLIP-370, `taskmanager.load-balance.mode: tasks`), with failover and the
//! delayed resource view that `slot.request.max-interval` tunes.
//!
//! One file per concept:
//! * [`config`]: the Flink keys and the load-balance-mode compatibility rule;
//! * [`job_graph`] and [`execution_graph`]: vertices, edges, groups and their wiring;
//! * [`slot_sharing`], [`local_input_preferred`], [`task_balanced`]: phase 1;
//! * [`task_manager`], [`slot_matching`], [`slot_pool`]: phase 2 over simulated time;
//! * [`failover`]: losing and restoring TaskManagers;
//! * [`metrics`] and [`view`]: what a UI draws.
//!
//! A UI that compares default and balanced scheduling runs two [`Sim`]s with the same
//! actions and different configs.

pub mod config;
pub mod execution_graph;
pub mod failover;
mod invariants;
pub mod job_graph;
mod knobs;
pub mod local_input_preferred;
pub mod metrics;
pub mod slot_matching;
pub mod slot_pool;
pub mod slot_sharing;
mod subject;
pub mod task_balanced;
pub mod task_manager;
pub mod view;

use super::schema::{self, ConfigChange, ConfigError};
use super::{AnyAction, Engine, Narrate, Series, SimRng, Subject, System};
pub use config::{Config, DurationMs, LoadBalanceMode};
use job_graph::{JobGraph, JobGraphError, JobSpec};
use metrics::{Metrics, Spread, TmCount};
use serde::{Deserialize, Serialize};
use slot_matching::{MatchRule, RequestMatching, ResourceMatching};
use slot_sharing::{Assignment, SlotSharingPlan, SlotSharingStrategy};
use task_manager::{Cluster, SlotAddr, TaskManager, MAX_SLOTS_PER_TASK_MANAGER, MAX_TASK_MANAGERS};

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
        /// `taskmanager.load-balance.mode` as set.
        configured_mode: LoadBalanceMode,
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
    },
    /// Phase 1 placed a vertex's subtasks into slot requests.
    SubtasksAssigned {
        /// Vertex.
        vertex: String,
        /// Its parallelism.
        parallelism: u32,
        /// Its slot sharing group.
        slot_sharing_group: String,
        /// One entry per subtask.
        assignments: Vec<Assignment>,
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
                evenly_spread_out_slots,
                effective_mode,
                max_interval_ms,
                timeout_ms,
            } => format!(
                "config: taskmanager.load-balance.mode={} and cluster.evenly-spread-out-slots={} → effective mode {}; \
                 slot.request.max-interval={max_interval_ms} ms, slot.request.timeout={timeout_ms} ms",
                configured_mode.name(),
                evenly_spread_out_slots,
                effective_mode.name()
            ),
            Event::StrategiesChosen {
                effective_mode,
                slot_sharing,
                resource_matching,
                request_matching,
            } => format!(
                "mode {}: phase 1 uses {}, the ResourceManager uses {} slot matching, the slot pool uses {} request matching",
                effective_mode.name(),
                slot_sharing.flink_name(),
                match resource_matching {
                    ResourceMatching::AnyMatching => "any-matching",
                    ResourceMatching::LeastUtilization => "least-utilization",
                },
                match request_matching {
                    RequestMatching::Simple => "simple",
                    RequestMatching::TasksBalanced => "tasks-balanced",
                }
            ),
            Event::SubtasksAssigned {
                vertex,
                parallelism,
                slot_sharing_group,
                assignments,
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
            } => format!(
                "t={at_ms} ms: the ResourceManager allocates {needed} slots by {}: {}",
                match by {
                    ResourceMatching::AnyMatching => "any matching (first TaskManager with a free slot)",
                    ResourceMatching::LeastUtilization => "least utilisation",
                },
                list(per_tm)
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
            },
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
            } => format!(
                "t={at_ms} ms: scheduling finished in {scheduling_time_ms} ms; tasks per TaskManager {} \
                 (max {}, min {}, range {}); tasks per slot range {}",
                list(tasks_per_tm),
                tm_spread.max,
                tm_spread.min,
                tm_spread.range,
                slot_spread.range
            ),
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
        /// Slot requests after phase 1.
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

    fn set_config(&mut self, change: &ConfigChange<Config>) -> Result<Vec<Event>, Error> {
        let config = change.config.apply_to(&self.config)?;
        schema::Schema::rules(&config).map_err(ConfigError::Invalid)?;
        self.config = config.clone();
        Ok(vec![Event::ConfigChanged {
            configured_mode: config.load_balance_mode,
            evenly_spread_out_slots: config.evenly_spread_out_slots,
            effective_mode: config.effective_mode(),
            max_interval_ms: config.slot_request_max_interval.0,
            timeout_ms: config.slot_request_timeout.0,
        }])
    }

    fn strategies(&self) -> (SlotSharingStrategy, ResourceMatching, RequestMatching) {
        match self.config.effective_mode() {
            LoadBalanceMode::None => (
                SlotSharingStrategy::LocalInputPreferred,
                ResourceMatching::AnyMatching,
                RequestMatching::Simple,
            ),
            LoadBalanceMode::Slots => (
                SlotSharingStrategy::LocalInputPreferred,
                ResourceMatching::LeastUtilization,
                RequestMatching::Simple,
            ),
            LoadBalanceMode::Tasks => (
                SlotSharingStrategy::TaskBalanced,
                ResourceMatching::AnyMatching,
                RequestMatching::TasksBalanced,
            ),
        }
    }

    fn schedule(&mut self) -> Result<Vec<Event>, Error> {
        let job = self.job.as_ref().ok_or(Error::NoJob)?;
        let (strategy, resource_matching, request_matching) = self.strategies();
        let plan = slot_sharing::plan(job, strategy);
        let needed = plan.requests.len() as u64;
        let available = self.cluster.running_slots();
        if needed > available {
            return Err(Error::NotEnoughSlots { needed, available });
        }
        let mut events = vec![Event::StrategiesChosen {
            effective_mode: self.config.effective_mode(),
            slot_sharing: strategy,
            resource_matching,
            request_matching,
        }];
        for (v, assignments) in &plan.steps {
            let vertex = &job.vertices[*v];
            events.push(Event::SubtasksAssigned {
                vertex: vertex.name.clone(),
                parallelism: vertex.parallelism,
                slot_sharing_group: job.slot_sharing_groups[vertex.slot_sharing_group].clone(),
                assignments: assignments.clone(),
            });
        }
        let tasks = plan.tasks_per_request();
        events.push(Event::SlotSharingDone {
            strategy,
            spread: Spread::of(&tasks),
            tasks_per_slot: tasks.clone(),
        });
        // Redeploy: everything previously placed is released.
        self.cluster.clear_slots();
        self.placement = vec![None; plan.requests.len()];
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

    /// Record the end of a scheduling round (shared with failover).
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
                });
                self.metrics = Some(m);
            }
        } else {
            self.status = JobStatus::Failed;
            self.metrics = None;
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
        schema::Schema::rules(&config).map_err(ConfigError::Invalid)?;
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
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        // Work on a copy so that an error leaves `self` exactly as it was.
        let mut next = self.clone();
        let events = match action {
            Action::DefineJob { job } => next.define_job(job),
            Action::AddTaskManager { name, slots } => next.add_tm(name.clone(), *slots),
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
                Ok(evs)
            }
            Action::RemoveTaskManager { tm } => next.remove_tm(tm),
            Action::LoseTaskManager { tm, restart_after_ms } => next.lose_tm(tm, *restart_after_ms),
            Action::RestoreTaskManager { tm } => next.restore_tm(tm),
            Action::SetConfig(change) => next.set_config(change),
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
        let max = knobs::MAX_DURATION_MS;
        for (key, d) in [
            ("slot.request.max-interval", self.slot_request_max_interval),
            ("slot.request.timeout", self.slot_request_timeout),
        ] {
            if d.0 > max {
                return Err(format!(
                    "{key} must be at most {max} ms (a year); {} ms is out of range",
                    d.0
                ));
            }
        }
        Ok(())
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
