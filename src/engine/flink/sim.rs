//! The Flink simulation ([`Sim`]): its state, each action's handler and its
//! [`Engine`] implementation.

use super::job_graph::{JobGraph, JobSpec};
use super::metrics::{Metrics, Spread};
use super::slot_matching::{RequestMatching, ResourceMatching, DETAIL_LIMIT};
use super::slot_sharing::{SlotSharingPlan, SlotSharingStrategy};
use super::task_manager::{
    Cluster, OtherJob, SlotAddr, TaskManager, MAX_SLOTS_PER_TASK_MANAGER, MAX_TASK_MANAGERS,
};
use super::{
    adaptive, invariants, key_group_range_assignment, pipelined_region, request_slot_matching, slot_pool,
    slot_sharing, subject, view, Action, AssignmentSummary, Config, Error, Event, LoadBalanceMode,
    RescaleTrigger, ResourceProfile, Resources, SchedulerType,
};
use crate::engine::schema::{self, ConfigChange, ConfigError};
use crate::engine::{AnyAction, Engine, Series, SimRng, Subject, System};
use serde::{Deserialize, Serialize};

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
    /// The adaptive scheduler holds the job until the cluster has its minimum
    /// slots (`jobmanager.adaptive-scheduler.submission.resource-wait-timeout`):
    /// added TaskManagers start it; a `schedule` while it still has too few lets
    /// the timeout pass, and the job fails.
    WaitingForResources,
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
    pub(super) config: Config,
    /// Draws what Flink leaves to hash order (the slot request order within a
    /// pipelined region).
    pub(super) rng: SimRng,
    pub(super) now_ms: u64,
    pub(super) job: Option<JobGraph>,
    pub(super) plan: Option<SlotSharingPlan>,
    pub(super) cluster: Cluster,
    pub(super) placement: Vec<Option<SlotAddr>>,
    pub(super) status: JobStatus,
    pub(super) metrics: Option<Metrics>,
    pub(super) adaptive: Option<AdaptiveRun>,
    /// While the adaptive scheduler waits for the job's minimum slots: when
    /// the resource-wait timeout ends.
    pub(super) resource_wait_until_ms: Option<u64>,
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

    pub(super) fn tm_index(&self, name: &str) -> Result<usize, Error> {
        self.cluster
            .find(name)
            .ok_or_else(|| Error::UnknownTaskManager(name.to_string()))
    }

    pub(super) fn check_slots(&self, slots: Option<u32>) -> Result<u32, Error> {
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

    pub(super) fn define_job(&mut self, spec: &JobSpec) -> Result<Vec<Event>, Error> {
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
        self.resource_wait_until_ms = None;
        Ok(vec![ev])
    }

    pub(super) fn add_tm(&mut self, name: Option<String>, slots: Option<u32>) -> Result<Vec<Event>, Error> {
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

    pub(super) fn remove_tm(&mut self, name: &str) -> Result<Vec<Event>, Error> {
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

    pub(super) fn check_config(config: &Config) -> Result<(), Error> {
        match config.unrepresentable_duration() {
            Some((key, ms)) => Err(Error::BadDuration { key, ms }),
            None => Ok(()),
        }
    }

    pub(super) fn set_config(&mut self, change: &ConfigChange<Config>) -> Result<Vec<Event>, Error> {
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

    pub(super) fn set_tm_resources(
        &mut self,
        name: &str,
        resources: Option<Resources>,
    ) -> Result<Vec<Event>, Error> {
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

    pub(super) fn set_group_resources(
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

    pub(super) fn set_requirements(
        &mut self,
        vertex: &str,
        lower: u32,
        upper: u32,
    ) -> Result<Vec<Event>, Error> {
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

    pub(super) fn occupy_slots(
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
    pub(super) fn chosen_strategies(&self) -> (SlotSharingStrategy, ResourceMatching, RequestMatching) {
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
    pub(super) fn phase_one_events(job: &JobGraph, plan: &SlotSharingPlan, events: &mut Vec<Event>) {
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
    pub(super) fn capacity(&self, profiles: &[ResourceProfile]) -> u64 {
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

    pub(super) fn schedule(&mut self) -> Result<Vec<Event>, Error> {
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
        let order = pipelined_region::draw(job, &plan, &mut self.rng);
        events.push(Event::SlotRequestsIssued {
            at_ms: start,
            requests: plan.requests.len() as u32,
            tasks: tasks.iter().map(|&t| u64::from(t)).sum(),
            held_free_slots: 0,
            restart: false,
            regions: order.regions(),
            order: order.listed(),
        });
        let round = slot_pool::Round {
            mode: self.config.effective_mode(),
            max_interval_ms: self.config.slot_request_max_interval.0,
            timeout_ms: self.config.slot_request_timeout.0,
            start_ms: start,
            tasks: &tasks,
            profiles: &profiles,
            prefer: &[],
            pending: order.order,
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
    pub(super) fn finish_round(&mut self, start: u64, end: u64, now: u64, ok: bool, events: &mut Vec<Event>) {
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
    pub(super) fn refresh_metrics(&mut self) {
        if let (Some(plan), Some(m)) = (&self.plan, &self.metrics) {
            let t = m.scheduling_time_ms;
            self.metrics = Some(Metrics::measure(plan, &self.cluster, t));
        }
    }

    /// Whether `action` may reach the adaptive scheduler's code, whose checks
    /// are not all before its changes.
    pub(super) fn needs_copy(&self, action: &Action) -> bool {
        let adaptive = self.config.scheduler == SchedulerType::Adaptive || self.adaptive.is_some();
        adaptive
            && matches!(
                action,
                Action::AddTaskManager { .. }
                    | Action::AddTaskManagers { .. }
                    | Action::LoseTaskManager { .. }
                    | Action::RestoreTaskManager { .. }
                    | Action::SetResourceRequirements { .. }
                    | Action::OccupySlots { .. }
                    | Action::Schedule
            )
    }

    /// Apply `action` to `self`: on the paths [`Sim::needs_copy`] leaves out,
    /// an error comes before any change.
    fn apply_in_place(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        match action {
            Action::DefineJob { job } => self.define_job(job),
            Action::AddTaskManager { name, slots } => self
                .add_tm(name.clone(), *slots)
                .and_then(|evs| self.after_new_resources(evs)),
            Action::AddTaskManagers { count, slots } => {
                let free = MAX_TASK_MANAGERS.saturating_sub(self.cluster.tms.len());
                if *count as usize > free {
                    return Err(Error::TooManyTaskManagers {
                        max: MAX_TASK_MANAGERS,
                    });
                }
                // The only other refusal of an unnamed TaskManager: checked once, first.
                self.check_slots(*slots)?;
                let mut evs = Vec::new();
                for _ in 0..*count {
                    evs.extend(self.add_tm(None, *slots)?);
                }
                self.after_new_resources(evs)
            }
            Action::RemoveTaskManager { tm } => self.remove_tm(tm),
            Action::LoseTaskManager { tm, restart_after_ms } => self.lose_tm(tm, *restart_after_ms),
            Action::RestoreTaskManager { tm } => {
                self.restore_tm(tm).and_then(|evs| self.after_new_resources(evs))
            }
            Action::SetConfig(change) => self.set_config(change),
            Action::SetTaskManagerResources { tm, resources } => self.set_tm_resources(tm, *resources),
            Action::SetSlotSharingGroupResources { group, resources } => {
                self.set_group_resources(group, *resources)
            }
            Action::SetResourceRequirements {
                vertex,
                lower_bound,
                upper_bound,
            } => self
                .set_requirements(vertex, *lower_bound, *upper_bound)
                .and_then(|evs| self.adaptive_rescale(RescaleTrigger::NewResourceRequirements, evs)),
            Action::OccupySlots {
                tm,
                job,
                slots,
                tasks,
            } => self
                .occupy_slots(tm, job.as_deref(), *slots, *tasks)
                .and_then(|evs| self.after_new_resources(evs)),
            Action::Schedule => self.schedule(),
        }
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Flink;

    /// Every action is applied whole.
    type Rest = std::convert::Infallible;

    fn resume(&mut self, rest: Self::Rest, _budget: u64) -> crate::engine::Part<Self> {
        match rest {}
    }

    fn rest_weight(rest: &Self::Rest) -> u64 {
        match *rest {}
    }

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
            resource_wait_until_ms: None,
        })
    }

    /// An action that fails leaves the state as it was. Every check of the
    /// default scheduler's paths comes before their first change, so they run
    /// on the state itself; the adaptive scheduler's rescale and failover can
    /// still refuse part-way (a clock overflow, too few slots for the
    /// minimum), so an action that reaches them runs on a copy
    /// ([`Sim::needs_copy`]).
    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        if self.needs_copy(action) {
            let mut next = self.clone();
            let events = next.apply_in_place(action)?;
            *self = next;
            return Ok(events);
        }
        self.apply_in_place(action)
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

    fn charted(e: &Event) -> bool {
        matches!(e, Event::SchedulingFinished { .. })
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

    fn open_cost(config: &Config, a: &Action) -> u64 {
        1 + match a {
            Action::AddTaskManagers { count, slots } => {
                u64::from(*count) * u64::from(slots.unwrap_or(config.number_of_task_slots))
            }
            Action::AddTaskManager { slots, .. } => u64::from(slots.unwrap_or(config.number_of_task_slots)),
            Action::DefineJob { job } => job.vertices.iter().map(|v| u64::from(v.parallelism)).sum(),
            _ => 0,
        }
    }

    fn view_json(&self) -> serde_json::Value {
        serde_json::json!({ "slot_grid": self.slot_grid(), "metrics": self.metrics() })
    }

    /// The same keys, each TaskManager's row of the slot grid built as it is written.
    fn serialize_view<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("metrics", &self.metrics())?;
        m.serialize_entry("slot_grid", &view::LazyGrid(self))?;
        m.end()
    }

    fn invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }

    /// The default scheduler's request slot matching strategies
    /// ([`request_slot_matching::REGISTRY`]), then the adaptive scheduler's slot
    /// matching resolvers ([`adaptive::slot_matching_resolver::REGISTRY`]).
    fn strategies() -> Vec<crate::engine::strategy::StrategyInfo> {
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
    fn strategy_config(info: &crate::engine::strategy::StrategyInfo) -> Result<Config, ConfigError> {
        let mut patch = info.patch::<Config>()?;
        if adaptive::slot_matching_resolver::REGISTRY
            .iter()
            .any(|r| r.info() == *info)
        {
            patch = patch.set("jobmanager.scheduler", serde_json::json!("adaptive"))?;
        }
        patch.apply_to(&Config::default())
    }
}
