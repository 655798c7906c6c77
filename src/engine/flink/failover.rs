//! Failover: losing a TaskManager releases its slots, the job restarts and every slot
//! request is matched again; restoring a TaskManager brings its slots back.
//!
//! lbscope restarts the whole job (Flink's behaviour when the job is one pipelined
//! region, as with any hash edge). The phase-1 slot requests are kept (Flink never
//! changes existing execution slot sharing groups). The slots the job held on the
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

use super::slot_pool::{self, Arrival, Round};
use super::task_manager::{SlotAddr, TmState};
use super::{Error, Event, JobStatus, Sim};

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
        let restarts_at_ms = restart_after_ms.map(|d| t.saturating_add(d));
        {
            let tm = &mut self.cluster.tms[i];
            tm.state = TmState::Lost;
            for s in &mut tm.slots {
                *s = None;
            }
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
        events.push(Event::SlotRequestsIssued {
            at_ms: t,
            requests: tasks_per_request.len() as u32,
            tasks: tasks_per_request.iter().map(|&x| u64::from(x)).sum(),
            held_free_slots: held.len() as u32,
            restart: true,
        });
        let round = Round {
            mode: self.config.effective_mode(),
            max_interval_ms: self.config.slot_request_max_interval.0,
            timeout_ms: self.config.slot_request_timeout.0,
            start_ms: t,
            tasks: &tasks_per_request,
            pending: (0..tasks_per_request.len() as u32).collect(),
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
