//! The adaptive scheduler (`jobmanager.scheduler: adaptive`), after Flink's
//! `scheduler/adaptive` package: the job declares the slots it would like, runs with
//! the parallelism the offered slots allow, and rescales when TaskManagers come and go.
//!
//! One file per concept, named as Flink names them:
//! * [`slot_sharing_slot_allocator`]: required slots and `determineParallelism`;
//! * [`slot_sharing_resolver`]: execution slot sharing groups per mode;
//! * [`slot_matching_resolver`]: which free slot each group gets, per mode;
//! * [`default_slot_assigner`]: the default assigner (and its TaskManager
//!   minimisation in application mode);
//! * [`state_locality_slot_assigner`]: the assigner used with local recovery.
//!
//! The run (lbscope's model of the state machine, in simulated time):
//! * **Schedule**: the ResourceManager offers up to the required slots (by the mode's
//!   resource matching: `slots` spreads them, `min_resources` packs them). With fewer
//!   than the minimum the action is refused; with the required ones the job starts at
//!   once; with fewer, it waits
//!   `jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout` and
//!   starts with what it has.
//! * **More slots while running** (a TaskManager added or restored, another job gone):
//!   when they would raise the parallelism, the job restarts at the later of the end of
//!   `...executing.cooldown-after-rescaling` (counted from its last start) and, unless
//!   the required slots are there, `...executing.resource-stabilization-timeout` after
//!   the change.
//! * **A TaskManager with tasks lost**: the job restarts; it starts again at once if
//!   the remaining slots are the required ones, when the TaskManager comes back within
//!   the submission stabilization timeout if that brings the required ones, after the
//!   stabilization timeout otherwise, and fails after
//!   `...submission.resource-wait-timeout` if not even the minimum comes back.
//!   Restart-strategy delays are not modelled (the restart is immediate).
//!
//! The adaptive scheduler declares `UNKNOWN` slots only (`calculateRequiredSlots`), so
//! slot sharing group resources do not shape its requests: on a TaskManager with
//! resources its slots get the default profile.

pub mod default_slot_assigner;
pub mod slot_matching_resolver;
pub mod slot_sharing_resolver;
pub mod slot_sharing_slot_allocator;
pub mod state_locality_slot_assigner;

use super::config::LoadBalanceMode;
use super::job_graph::JobGraph;
use super::key_group_range_assignment::{
    compute_default_max_parallelism, key_group_range_for_operator_index,
};
use super::resource_profile::ResourceProfile;
use super::slot_matching::{self, MatchRule, ResourceMatching, Tally, View, DETAIL_LIMIT};
use super::slot_pool::Arrival;
use super::slot_sharing::SlotSharingPlan;
use super::task_manager::{SlotAddr, TmState};
use super::{
    AdaptiveRun, Error, Event, GroupSlots, JobStatus, RescaleTrigger, Sim, VertexParallelismInfo, WaitReason,
};
use slot_matching_resolver::SlotMatchingResolver;
use slot_sharing_resolver::SlotSharingResolver;
use slot_sharing_slot_allocator::{
    calculate_required_slots, determine_parallelism, minimum_required_slots, slot_sharing_group_meta_infos,
    VertexInformation, VertexParallelism,
};
use state_locality_slot_assigner::PreviousSubtask;
use std::collections::BTreeMap;

/// What the allocator knows of the job's vertices.
pub fn vertex_infos(job: &JobGraph) -> Vec<VertexInformation> {
    (0..job.vertices.len())
        .map(|v| {
            let (lower, upper) = job.bounds(v);
            VertexInformation::with_bounds(lower, upper, job.vertices[v].slot_sharing_group)
        })
        .collect()
}

/// Max parallelism per vertex: Flink's default for its configured parallelism.
pub fn max_parallelisms(job: &JobGraph) -> Vec<u32> {
    job.vertices
        .iter()
        .map(|v| compute_default_max_parallelism(v.parallelism))
        .collect()
}

impl Sim {
    fn adaptive_numbers(&self) -> Result<(u64, u64), Error> {
        let job = self.job.as_ref().ok_or(Error::NoJob)?;
        let infos = vertex_infos(job);
        let groups = job.slot_sharing_groups.len();
        Ok((
            calculate_required_slots(&infos, groups),
            minimum_required_slots(&infos, groups),
        ))
    }

    fn add_ms(&self, what: &'static str, at: u64, d: u64) -> Result<u64, Error> {
        at.checked_add(d).ok_or(Error::ClockOverflow {
            what,
            now_ms: at,
            plus_ms: d,
        })
    }

    /// `Schedule` with the adaptive scheduler.
    pub(super) fn schedule_adaptive(&mut self) -> Result<Vec<Event>, Error> {
        let (desired, minimum) = self.adaptive_numbers()?;
        let available = self.cluster.running_slots();
        if available < minimum {
            return self.wait_for_minimum(desired, minimum, available);
        }
        self.resource_wait_until_ms = None;
        let start = self.now_ms;
        let stab = self.config.adaptive_submission_stabilization_timeout.0;
        self.add_ms("adaptive scheduling", start, stab)?;
        let mut events = vec![self.adaptive_strategies(false)];
        self.cluster.clear_slots();
        let mut at = start;
        if available < desired {
            at = start + stab;
            events.push(Event::WaitingForResources {
                at_ms: start,
                until_ms: at,
                reason: WaitReason::SubmissionStabilization,
                available_slots: available,
                desired_slots: desired,
                minimum_slots: minimum,
            });
        }
        self.adaptive_deploy(at, &[], &BTreeMap::new(), &mut events)?;
        self.finish_round(start, at, at, true, &mut events);
        self.adaptive = Some(AdaptiveRun { last_rescale_ms: at });
        Ok(events)
    }

    /// Fewer slots than the job's minimum: Flink's `WaitingForResources` state.
    /// The first `schedule` starts the wait, up to
    /// `jobmanager.adaptive-scheduler.submission.resource-wait-timeout`;
    /// TaskManagers added meanwhile (at the present time, so within it) start
    /// the job once it has its minimum ([`Sim::after_new_resources`]). A
    /// `schedule` while it still waits lets the time pass: at the timeout Flink
    /// creates the execution graph with what is there, which cannot meet the
    /// minimum, and the job fails.
    fn wait_for_minimum(&mut self, desired: u64, minimum: u64, available: u64) -> Result<Vec<Event>, Error> {
        let now = self.now_ms;
        let timeout = self.config.adaptive_resource_wait_timeout.0;
        if let (JobStatus::WaitingForResources, Some(until)) = (self.status, self.resource_wait_until_ms) {
            self.resource_wait_until_ms = None;
            let mut events = vec![Event::SchedulingFailed {
                at_ms: until,
                unfulfilled: u32::try_from(minimum - available).unwrap_or(u32::MAX),
                requests: u32::try_from(minimum).unwrap_or(u32::MAX),
                timeout_ms: timeout,
            }];
            self.cluster.clear_slots();
            self.placement.iter_mut().for_each(|p| *p = None);
            self.finish_round(now, until, until, false, &mut events);
            return Ok(events);
        }
        let until = self.add_ms("submission.resource-wait-timeout", now, timeout)?;
        self.status = JobStatus::WaitingForResources;
        self.resource_wait_until_ms = Some(until);
        Ok(vec![Event::WaitingForResources {
            at_ms: now,
            until_ms: until,
            reason: WaitReason::ResourceWait,
            available_slots: available,
            desired_slots: desired,
            minimum_slots: minimum,
        }])
    }

    /// Slots the job holds now.
    fn held_slots(&self) -> Vec<SlotAddr> {
        self.placement.iter().flatten().copied().collect()
    }

    fn adaptive_strategies(&self, state_locality: bool) -> Event {
        let mode = self.config.effective_mode();
        Event::AdaptiveStrategiesChosen {
            effective_mode: mode,
            slot_sharing_resolver: SlotSharingResolver::for_mode(mode),
            slot_matching_resolver: SlotMatchingResolver::for_mode(mode),
            state_locality,
            minimal_task_managers: !state_locality
                && self.config.is_application_mode()
                && self.config.prefer_minimal_taskmanagers,
            resource_matching: ResourceMatching::for_mode(mode),
        }
    }

    /// What every slot of the job held: for state locality after a restart or rescale
    /// (slots of `exclude`, a lost TaskManager, are gone).
    fn previous_allocations(
        &self,
        placement: &[Option<SlotAddr>],
        exclude: Option<usize>,
    ) -> BTreeMap<SlotAddr, Vec<PreviousSubtask>> {
        let mut out: BTreeMap<SlotAddr, Vec<PreviousSubtask>> = BTreeMap::new();
        let (Some(job), Some(plan)) = (&self.job, &self.plan) else {
            return out;
        };
        let maxp = max_parallelisms(job);
        for (r, a) in placement.iter().enumerate() {
            let Some(a) = a else { continue };
            if exclude == Some(a.tm as usize) {
                continue;
            }
            let Some(req) = plan.requests.get(r) else { continue };
            for st in &req.subtasks {
                let v = st.vertex as usize;
                let p = plan.request_of.get(v).map_or(1, |x| x.len() as u32);
                if let Some(kg) = key_group_range_for_operator_index(maxp[v], p, st.subtask) {
                    out.entry(*a).or_default().push(PreviousSubtask {
                        vertex: v,
                        key_groups: kg,
                    });
                }
            }
        }
        out
    }

    /// Offer slots, determine the parallelism, build the groups and place them, at
    /// `at`. Leaves the plan and placement in the state.
    fn adaptive_deploy(
        &mut self,
        at: u64,
        held: &[SlotAddr],
        previous: &BTreeMap<SlotAddr, Vec<PreviousSubtask>>,
        events: &mut Vec<Event>,
    ) -> Result<(), Error> {
        let job = self.job.take().ok_or(Error::NoJob)?;
        let infos = vertex_infos(&job);
        let groups = job.slot_sharing_groups.len();
        let desired = calculate_required_slots(&infos, groups);
        let minimum = minimum_required_slots(&infos, groups);
        let mode = self.config.effective_mode();
        let free = self.offer_slots(at, held, desired, mode, events);
        let Some(vp) = determine_parallelism(&infos, groups, free.len() as u64) else {
            return Err(Error::NotEnoughSlots {
                needed: minimum,
                available: free.len() as u64,
            });
        };
        events.push(parallelism_determined(
            &job,
            &infos,
            &vp,
            at,
            free.len() as u32,
            (desired, minimum),
        ));
        let resolver = SlotSharingResolver::for_mode(mode);
        let plan = slot_sharing_resolver::execution_slot_sharing_groups(&job, &vp.parallelism, resolver);
        Sim::phase_one_events(&job, &plan, events);
        let loads = plan.tasks_per_request();
        let state_locality = self.config.local_recovery && !previous.is_empty();
        let assignment = if state_locality {
            assign_by_state_locality(&job, &plan, &vp, &free, previous)
        } else {
            let minimal = self.config.is_application_mode() && self.config.prefer_minimal_taskmanagers;
            let picked = default_slot_assigner::pick_slots_if_needed(loads.len(), &free, minimal);
            slot_matching_resolver::match_slot_sharing_groups_with_slots(
                SlotMatchingResolver::for_mode(mode),
                &loads,
                &picked,
            )
            .unwrap_or_default()
            .into_iter()
            .map(|g| (g.group, g.slot, MatchRule::Resolver { choice: g.choice }))
            .collect()
        };
        if state_locality {
            // The strategies event said no state locality: correct it.
            if let Some(Event::AdaptiveStrategiesChosen {
                state_locality: s,
                minimal_task_managers,
                ..
            }) = events
                .iter_mut()
                .rev()
                .find(|e| matches!(e, Event::AdaptiveStrategiesChosen { .. }))
            {
                *s = true;
                *minimal_task_managers = false;
            }
        }
        let placement = self.place_groups(at, assignment, &loads, events);
        // Offered slots no group uses go back (their carved resources too).
        for a in &free {
            let tm = &mut self.cluster.tms[a.tm as usize];
            if tm.slots.get(a.slot as usize).is_some_and(Option::is_none) {
                if let Some(p) = tm.slot_profiles.get_mut(a.slot as usize) {
                    *p = None;
                }
            }
        }
        self.plan = Some(plan);
        self.placement = placement;
        self.job = Some(job);
        Ok(())
    }

    /// The slots offered to the job at `at`: the ones it `held` on running
    /// TaskManagers (free again for the new plan; the others go), then the
    /// ResourceManager's, by the mode's resource matching, up to `desired`.
    /// Free slots in slot order.
    fn offer_slots(
        &mut self,
        at: u64,
        held: &[SlotAddr],
        desired: u64,
        mode: LoadBalanceMode,
        events: &mut Vec<Event>,
    ) -> Vec<SlotAddr> {
        let held: Vec<SlotAddr> = held
            .iter()
            .copied()
            .filter(|a| {
                self.cluster
                    .tms
                    .get(a.tm as usize)
                    .is_some_and(|t| t.is_running())
            })
            .collect();
        let keep: BTreeMap<SlotAddr, Option<super::resource_profile::Resources>> = held
            .iter()
            .map(|a| {
                let p = self.cluster.tms[a.tm as usize]
                    .slot_profiles
                    .get(a.slot as usize)
                    .copied()
                    .flatten();
                (*a, p)
            })
            .collect();
        self.cluster.clear_slots();
        let mut view = View::new(&self.cluster);
        for (a, p) in &keep {
            let tm = &mut self.cluster.tms[a.tm as usize];
            if tm.slots.len() <= a.slot as usize {
                tm.slots.resize(a.slot as usize + 1, None);
                tm.slot_profiles.resize(a.slot as usize + 1, None);
            }
            tm.slot_profiles[a.slot as usize] = *p;
            let profile = tm.slot_profile(a.slot as usize);
            view.hold(*a, profile);
        }
        let available = self.cluster.running_slots();
        let k = (available.min(desired) as usize).saturating_sub(view.len());
        let rm = ResourceMatching::for_mode(mode);
        if let Some(e) = slot_matching::allocate(
            &mut self.cluster,
            &mut view,
            &vec![ResourceProfile::Unknown; k],
            rm,
            at,
        ) {
            events.push(e);
        }
        view.slots_in_order()
    }

    /// Put each execution slot sharing group in its slot, telling each match
    /// (or, past [`DETAIL_LIMIT`] groups, a tally per TaskManager). The slot of
    /// each group.
    fn place_groups(
        &mut self,
        at: u64,
        assignment: Vec<(usize, SlotAddr, MatchRule)>,
        loads: &[u32],
        events: &mut Vec<Event>,
    ) -> Vec<Option<SlotAddr>> {
        let summarise = loads.len() > DETAIL_LIMIT;
        let mut tally = Tally::default();
        let mut tm_tasks = vec![0u32; self.cluster.tms.len()];
        let mut placement: Vec<Option<SlotAddr>> = vec![None; loads.len()];
        for (g, a, rule) in assignment {
            let (t, s) = (a.tm as usize, a.slot as usize);
            if let Some(occ) = self.cluster.tms[t].slots.get_mut(s) {
                *occ = Some(g as u32);
            }
            placement[g] = Some(a);
            tm_tasks[t] += loads[g];
            if summarise {
                tally.add(t, rule.kind(), g as u32, loads[g]);
            } else {
                events.push(Event::SlotRequestMatched {
                    at_ms: at,
                    request: g as u32,
                    tasks: loads[g],
                    tm: self.cluster.tms[t].name.clone(),
                    slot: a.slot,
                    tm_tasks_now: tm_tasks[t],
                    rule,
                });
            }
        }
        if summarise {
            events.extend(tally.events(&self.cluster, &tm_tasks, at));
        }
        placement
    }

    /// After slots were added: a running adaptive job rescales if they raise its
    /// parallelism.
    /// A job waiting for its minimum starts once it is there, or says it still
    /// waits.
    pub(super) fn after_new_resources(&mut self, mut events: Vec<Event>) -> Result<Vec<Event>, Error> {
        if self.status == JobStatus::WaitingForResources
            && self.config.scheduler == super::SchedulerType::Adaptive
        {
            let (desired, minimum) = self.adaptive_numbers()?;
            let available = self.cluster.running_slots();
            if available >= minimum {
                events.extend(self.schedule_adaptive()?);
            } else if let Some(until) = self.resource_wait_until_ms {
                events.push(Event::WaitingForResources {
                    at_ms: self.now_ms,
                    until_ms: until,
                    reason: WaitReason::ResourceWait,
                    available_slots: available,
                    desired_slots: desired,
                    minimum_slots: minimum,
                });
            }
            return Ok(events);
        }
        self.adaptive_rescale(RescaleTrigger::NewResources, events)
    }

    /// A running adaptive job rescales if the slots it could have, or its parallelism
    /// bounds, change its parallelism (new slots: only upwards).
    pub(super) fn adaptive_rescale(
        &mut self,
        trigger: RescaleTrigger,
        mut events: Vec<Event>,
    ) -> Result<Vec<Event>, Error> {
        let Some(run) = self.adaptive.clone() else {
            return Ok(events);
        };
        if self.status != JobStatus::Running || self.config.scheduler != super::SchedulerType::Adaptive {
            return Ok(events);
        }
        let job = self.job.as_ref().ok_or(Error::NoJob)?;
        let infos = vertex_infos(job);
        let groups = job.slot_sharing_groups.len();
        let desired = calculate_required_slots(&infos, groups);
        let held = self.held_slots();
        // Slots the job holds are counted by running_slots already (they are its own).
        let available = self.cluster.running_slots().max(held.len() as u64);
        let current_par = self.parallelism();
        let current: u64 = current_par.iter().map(|&p| u64::from(p)).sum();
        let Some(vp) = determine_parallelism(&infos, groups, available.min(desired).max(held.len() as u64))
        else {
            return Ok(events);
        };
        let next: u64 = vp.parallelism.iter().map(|&p| u64::from(p)).sum();
        let changed = match trigger {
            RescaleTrigger::NewResources => next > current,
            _ => vp.parallelism != current_par,
        };
        if !changed {
            return Ok(events);
        }
        let now = self.now_ms;
        let cooldown_end = self.add_ms(
            "cooldown-after-rescaling",
            run.last_rescale_ms,
            self.config.adaptive_cooldown_after_rescaling.0,
        )?;
        let desired_met = available >= desired;
        let ready = if desired_met {
            now
        } else {
            self.add_ms(
                "executing.resource-stabilization-timeout",
                now,
                self.config.adaptive_executing_stabilization_timeout.0,
            )?
        };
        let at = ready.max(cooldown_end);
        if at > now {
            events.push(Event::WaitingForResources {
                at_ms: now,
                until_ms: at,
                reason: WaitReason::ExecutingStabilization,
                available_slots: available,
                desired_slots: desired,
                minimum_slots: minimum_required_slots(&infos, groups),
            });
        }
        events.push(Event::Rescaling {
            at_ms: at,
            trigger,
            from_subtasks: current,
            to_subtasks: next,
            cooldown_until_ms: cooldown_end,
            desired: desired_met,
        });
        let previous = self.previous_allocations(&self.placement.clone(), None);
        events.push(self.adaptive_strategies(false));
        self.adaptive_deploy(at, &held, &previous, &mut events)?;
        self.finish_round(now, at, at, true, &mut events);
        self.adaptive = Some(AdaptiveRun { last_rescale_ms: at });
        Ok(events)
    }

    fn register(&mut self, tm: usize, at_ms: u64, events: &mut Vec<Event>) {
        let t = &mut self.cluster.tms[tm];
        t.state = TmState::Running;
        events.push(Event::TaskManagerRestored {
            tm: t.name.clone(),
            at_ms,
            slots: t.slot_count(),
        });
    }

    /// A TaskManager with tasks of a running adaptive job was lost.
    pub(super) fn adaptive_failover(
        &mut self,
        lost: usize,
        placement_before: Vec<Option<SlotAddr>>,
        arrivals: Vec<Arrival>,
        mut events: Vec<Event>,
    ) -> Result<Vec<Event>, Error> {
        let t = self.now_ms;
        let (desired, minimum) = self.adaptive_numbers()?;
        let current: u64 = self.parallelism().iter().map(|&p| u64::from(p)).sum();
        let previous = self.previous_allocations(&placement_before, Some(lost));
        let survivors: Vec<SlotAddr> = placement_before
            .iter()
            .flatten()
            .copied()
            .filter(|a| a.tm as usize != lost)
            .collect();
        let back = arrivals.first().map(|a| a.at_ms);
        let stab_end = self.add_ms(
            "submission.resource-stabilization-timeout",
            t,
            self.config.adaptive_submission_stabilization_timeout.0,
        )?;
        let wait_end = self.add_ms(
            "submission.resource-wait-timeout",
            t,
            self.config.adaptive_resource_wait_timeout.0,
        )?;
        // When the job starts again (None: it fails at wait_end).
        let (deploy_at, registered) =
            self.failover_restart_at(lost, back, (desired, minimum), (stab_end, wait_end), &mut events)?;
        let Some(at) = deploy_at else {
            let requests = self.plan.as_ref().map_or(0, |p| p.requests.len() as u32);
            events.push(Event::SchedulingFailed {
                at_ms: wait_end,
                unfulfilled: requests,
                requests,
                timeout_ms: self.config.adaptive_resource_wait_timeout.0,
            });
            // The job fails: it gives back every slot it still holds on the
            // surviving TaskManagers, as the default scheduler's failed round does.
            self.cluster.clear_slots();
            self.placement.iter_mut().for_each(|p| *p = None);
            self.finish_round(t, wait_end, wait_end, false, &mut events);
            if let Some(b) = back.filter(|_| !registered) {
                self.register(lost, b, &mut events);
                self.now_ms = self.now_ms.max(b);
            }
            return Ok(events);
        };
        let job = self.job.as_ref().ok_or(Error::NoJob)?;
        let infos = vertex_infos(job);
        let groups = job.slot_sharing_groups.len();
        let to = determine_parallelism(&infos, groups, self.cluster.running_slots().min(desired))
            .map_or(0, |vp| vp.parallelism.iter().map(|&p| u64::from(p)).sum());
        events.push(Event::Rescaling {
            at_ms: at,
            trigger: RescaleTrigger::LostTaskManager,
            from_subtasks: current,
            to_subtasks: to,
            cooldown_until_ms: at,
            desired: self.cluster.running_slots() >= desired,
        });
        events.push(self.adaptive_strategies(false));
        self.adaptive_deploy(at, &survivors, &previous, &mut events)?;
        self.finish_round(t, at, at, true, &mut events);
        self.adaptive = Some(AdaptiveRun { last_rescale_ms: at });
        if let Some(b) = back.filter(|_| !registered) {
            // The TaskManager comes back while the job runs: more slots.
            self.register(lost, b, &mut events);
            self.now_ms = self.now_ms.max(b);
            events = self.after_new_resources(events)?;
        }
        Ok(events)
    }

    /// When a job that lost a TaskManager starts again (`None`: it fails at
    /// `wait_end`), and whether the lost TaskManager registered again on the
    /// way: at once with the desired slots; with the minimum, when the
    /// TaskManager is back within the submission stabilization timeout and
    /// brings the desired ones, else at that timeout; with fewer, when it is
    /// back within the resource wait timeout (then as with the minimum).
    fn failover_restart_at(
        &mut self,
        lost: usize,
        back: Option<u64>,
        (desired, minimum): (u64, u64),
        (stab_end, wait_end): (u64, u64),
        events: &mut Vec<Event>,
    ) -> Result<(Option<u64>, bool), Error> {
        let t = self.now_ms;
        let avail_now = self.cluster.running_slots();
        let tm_slots = u64::from(
            self.cluster.tms[lost]
                .slot_count()
                .saturating_sub(self.cluster.tms[lost].other_job_slots()),
        );
        let mut registered = false;
        let deploy_at = if avail_now >= desired {
            Some(t)
        } else if avail_now >= minimum {
            match back {
                Some(b) if b <= stab_end && avail_now + tm_slots >= desired => {
                    self.register(lost, b, events);
                    registered = true;
                    Some(b)
                }
                _ => {
                    events.push(Event::WaitingForResources {
                        at_ms: t,
                        until_ms: stab_end,
                        reason: WaitReason::SubmissionStabilization,
                        available_slots: avail_now,
                        desired_slots: desired,
                        minimum_slots: minimum,
                    });
                    if let Some(b) = back.filter(|&b| b <= stab_end) {
                        self.register(lost, b, events);
                        registered = true;
                    }
                    Some(stab_end)
                }
            }
        } else {
            match back {
                Some(b) if b <= wait_end => {
                    events.push(Event::WaitingForResources {
                        at_ms: t,
                        until_ms: b,
                        reason: WaitReason::ResourceWait,
                        available_slots: avail_now,
                        desired_slots: desired,
                        minimum_slots: minimum,
                    });
                    self.register(lost, b, events);
                    registered = true;
                    let avail = avail_now + tm_slots;
                    if avail >= desired {
                        Some(b)
                    } else if avail >= minimum {
                        let until = self.add_ms(
                            "submission.resource-stabilization-timeout",
                            b,
                            self.config.adaptive_submission_stabilization_timeout.0,
                        )?;
                        events.push(Event::WaitingForResources {
                            at_ms: b,
                            until_ms: until,
                            reason: WaitReason::SubmissionStabilization,
                            available_slots: avail,
                            desired_slots: desired,
                            minimum_slots: minimum,
                        });
                        Some(until)
                    } else {
                        None
                    }
                }
                _ => {
                    events.push(Event::WaitingForResources {
                        at_ms: t,
                        until_ms: wait_end,
                        reason: WaitReason::ResourceWait,
                        available_slots: avail_now,
                        desired_slots: desired,
                        minimum_slots: minimum,
                    });
                    None
                }
            }
        };
        Ok((deploy_at, registered))
    }
}

/// What `determineParallelism` gave: each group's slots and each vertex's
/// parallelism, with the `(desired, minimum)` slots.
fn parallelism_determined(
    job: &JobGraph,
    infos: &[VertexInformation],
    vp: &VertexParallelism,
    at: u64,
    free_slots: u32,
    (desired, minimum): (u64, u64),
) -> Event {
    let groups = job.slot_sharing_groups.len();
    let metas = slot_sharing_group_meta_infos(infos, groups);
    Event::ParallelismDetermined {
        at_ms: at,
        free_slots,
        desired_slots: desired,
        minimum_slots: minimum,
        groups: (0..groups)
            .filter_map(|g| {
                metas[g].map(|m| GroupSlots {
                    group: job.slot_sharing_groups[g].clone(),
                    max_lower_bound: m.max_lower_bound,
                    max_upper_bound: m.max_upper_bound,
                    slots: vp.slots_per_group[g],
                })
            })
            .collect(),
        vertices: job
            .vertices
            .iter()
            .enumerate()
            .map(|(v, x)| {
                let (lower, upper) = job.bounds(v);
                VertexParallelismInfo {
                    vertex: x.name.clone(),
                    parallelism: vp.parallelism[v],
                    lower_bound: lower,
                    upper_bound: upper,
                }
            })
            .collect(),
    }
}

/// `StateLocalitySlotAssigner`: each group's slot by the key groups of its
/// subtasks that ran there before.
fn assign_by_state_locality(
    job: &JobGraph,
    plan: &SlotSharingPlan,
    vp: &VertexParallelism,
    free: &[SlotAddr],
    previous: &BTreeMap<SlotAddr, Vec<PreviousSubtask>>,
) -> Vec<(usize, SlotAddr, MatchRule)> {
    let members: Vec<Vec<(usize, u32)>> = plan
        .requests
        .iter()
        .map(|r| {
            r.subtasks
                .iter()
                .map(|s| (s.vertex as usize, s.subtask))
                .collect()
        })
        .collect();
    let maxp = max_parallelisms(job);
    state_locality_slot_assigner::assign_slots(&members, &vp.parallelism, &maxp, free, previous)
        .unwrap_or_default()
        .into_iter()
        .map(|l| {
            (
                l.group,
                l.slot,
                MatchRule::StateLocality {
                    local_key_groups: l.local_key_groups,
                },
            )
        })
        .collect()
}
