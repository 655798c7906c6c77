//! Failover: losing a TaskManager releases its slots, the job restarts and every slot
//! request is matched again; restoring a TaskManager brings its slots back.
//!
//! lbscope restarts the whole job (Flink's behaviour when the job is one pipelined
//! region, as with any hash edge). The phase-1 slot requests are kept (Flink never
//! changes existing execution slot sharing groups) and issued again with fresh request
//! ids, so in a newly drawn hash order ([`super::pipelined_region`]). The slots the job held on the
//! surviving TaskManagers are released into its slot pool as free slots; a
//! TaskManager that restarts re-registers `restart_after_ms` later.
//!
//! The new round then follows [`super::slot_pool`]: with a short
//! `slot.request.max-interval` the first batch settles before the restarted
//! TaskManager is back, so (in `tasks` mode) the requests are served one by one from
//! the surviving slots — a stale, partial view — and the result can be unbalanced.
//! Raising the interval past the TaskManager's return makes the first batch wait for
//! it (the re-registration restarts the wait), so all requests are matched together
//! and balance is restored, at the cost of a longer scheduling phase; if that phase
//! outlasts `slot.request.timeout`, the requests fail.
//!
//! Local recovery (`execution.state-recovery.from-local: true`): every request of a
//! surviving TaskManager gets its previous slot back (Flink's
//! `PreviousAllocationSlotSelectionStrategy` for slots the job still holds, and
//! `PreferredAllocationRequestSlotMatchingStrategy` for slots that arrive later); only
//! the lost TaskManager's requests are matched anew. A restarted TaskManager offers
//! new allocations, so its old requests have no previous slot to go back to. The
//! survivors keep their tasks, so the balance after the failover is the balance
//! before it, whatever the view.
//!
//! With the adaptive scheduler the job restarts through
//! [`super::adaptive`] instead (the parallelism may change).

use super::pipelined_region;
use super::resource_profile::ResourceProfile;
use super::slot_pool::{self, Arrival, Round};
use super::task_manager::{SlotAddr, TmState};
use super::{Error, Event, JobStatus, SchedulerType, Sim};

impl Sim {
    pub(super) fn lose_tm(&mut self, name: &str, restart_after_ms: Option<u64>) -> Result<Vec<Event>, Error> {
        let i = self.tm_index(name)?;
        if self.cluster.tms[i].state == TmState::Lost {
            return Err(Error::WrongTaskManagerState {
                tm: name.to_string(),
                state: "lost",
                action: "losing it",
                wanted: "running",
            });
        }
        let t = self.now_ms;
        let tasks_per_request = self.tasks_per_slot();
        let requests: Vec<u32> = self.cluster.tms[i].slots.iter().flatten().copied().collect();
        let tasks: u32 = requests
            .iter()
            .map(|&r| tasks_per_request.get(r as usize).copied().unwrap_or(0))
            .sum();
        let restarts_at_ms = match restart_after_ms {
            Some(d) => Some(self.later("restart_after_ms", d)?),
            None => None,
        };
        let span = self
            .config
            .slot_request_timeout
            .0
            .saturating_add(self.config.slot_request_max_interval.0)
            .max(self.config.adaptive_resource_wait_timeout.0);
        self.later("failover", span)?;
        let previous: Vec<Option<SlotAddr>> = self.placement.clone();
        {
            let tm = &mut self.cluster.tms[i];
            tm.state = TmState::Lost;
            tm.release_all();
        }
        let mut events = vec![Event::TaskManagerLost {
            tm: name.to_string(),
            at_ms: t,
            slots: self.cluster.tms[i].slot_count(),
            requests: requests.clone(),
            tasks,
            restarts_at_ms,
        }];
        let arrivals: Vec<Arrival> = restarts_at_ms
            .map(|at_ms| Arrival { at_ms, tm: i })
            .into_iter()
            .collect();

        if self.status != JobStatus::Running || requests.is_empty() {
            // Nothing to reschedule; a restarting TaskManager simply comes back.
            if let Some(a) = arrivals.first() {
                self.cluster.tms[i].state = TmState::Running;
                self.now_ms = a.at_ms;
                events.push(Event::TaskManagerRestored {
                    tm: name.to_string(),
                    at_ms: a.at_ms,
                    slots: self.cluster.tms[i].slot_count(),
                });
            }
            self.refresh_metrics();
            return Ok(events);
        }

        if self.config.scheduler == SchedulerType::Adaptive && self.adaptive.is_some() {
            return self.adaptive_failover(i, previous, arrivals, events);
        }

        // Full restart: surviving slots become free slots held by the job.
        let mut held: Vec<SlotAddr> = Vec::new();
        for (ti, tm) in self.cluster.tms.iter_mut().enumerate() {
            for (si, s) in tm.slots.iter_mut().enumerate() {
                if s.take().is_some() {
                    held.push(SlotAddr {
                        tm: ti as u32,
                        slot: si as u32,
                    });
                }
            }
        }
        for p in &mut self.placement {
            *p = None;
        }
        // The restarted regions issue their requests again, with fresh request ids.
        let order = match (&self.job, &self.plan) {
            (Some(job), Some(plan)) => pipelined_region::draw(job, plan, &mut self.rng),
            _ => pipelined_region::RequestOrder {
                order: (0..tasks_per_request.len() as u32).collect(),
                region_sizes: Vec::new(),
            },
        };
        events.push(Event::SlotRequestsIssued {
            at_ms: t,
            requests: tasks_per_request.len() as u32,
            tasks: tasks_per_request.iter().map(|&x| u64::from(x)).sum(),
            held_free_slots: held.len() as u32,
            restart: true,
            regions: order.regions(),
            order: order.listed(),
        });
        let profiles: Vec<ResourceProfile> = match (&self.plan, &self.job) {
            (Some(plan), Some(job)) => plan.requests.iter().map(|r| job.group_profile(r.group)).collect(),
            _ => Vec::new(),
        };
        // Local recovery: survivors' requests prefer their previous slot.
        let prefer: Vec<Option<SlotAddr>> = if self.config.local_recovery {
            previous
                .iter()
                .map(|p| p.filter(|a| a.tm as usize != i))
                .collect()
        } else {
            Vec::new()
        };
        let round = Round {
            mode: self.config.effective_mode(),
            max_interval_ms: self.config.slot_request_max_interval.0,
            timeout_ms: self.config.slot_request_timeout.0,
            start_ms: t,
            tasks: &tasks_per_request,
            profiles: &profiles,
            prefer: &prefer,
            pending: order.order,
            held,
            arrivals,
        };
        let out = slot_pool::run(&mut self.cluster, &mut self.placement, round);
        events.extend(out.events);
        self.finish_round(t, out.end_ms, out.now_ms, out.succeeded, &mut events);
        Ok(events)
    }

    pub(super) fn restore_tm(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let i = self.tm_index(name)?;
        if self.cluster.tms[i].state != TmState::Lost {
            return Err(Error::WrongTaskManagerState {
                tm: name.to_string(),
                state: "running",
                action: "restoring it",
                wanted: "lost",
            });
        }
        self.cluster.tms[i].state = TmState::Running;
        self.refresh_metrics();
        Ok(vec![Event::TaskManagerRestored {
            tm: name.to_string(),
            at_ms: self.now_ms,
            slots: self.cluster.tms[i].slot_count(),
        }])
    }
}
