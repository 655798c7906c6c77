//! Summaries read from the engine's events (never computed here): the last
//! scheduling round's strategies and numbers, and what the last failover did.

use super::{list, FlinkSession};
use crate::engine::flink::slot_matching::RequestMatching;
use crate::engine::flink::{Action, Event, LoadBalanceMode};

/// What the last scheduling round (schedule or failover restart) reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundSummary {
    /// Effective mode of the round.
    pub mode: Option<LoadBalanceMode>,
    /// Phase-1 strategy (Flink's class name).
    pub phase1: Option<&'static str>,
    /// Phase-2 request matching.
    pub phase2: Option<&'static str>,
    /// Tasks per slot request and their range.
    pub slots: Option<(Vec<u32>, u32)>,
    /// Tasks per TaskManager, their range, and the scheduling time (ms).
    pub tms: Option<(Vec<u32>, u32, u64)>,
    /// The round failed: (unfulfilled, requests, timeout ms).
    pub failed: Option<(u32, u32, u64)>,
}

/// Every event of the session, oldest first.
fn all_events(s: &FlinkSession) -> impl DoubleEndedIterator<Item = &Event> {
    s.setup_events().iter().chain(s.steps().iter().flatten())
}

/// The latest phase-1 and phase-2 results found in the events.
pub fn last_round(s: &FlinkSession) -> RoundSummary {
    let mut out = RoundSummary::default();
    let mut ended = false;
    for e in all_events(s).rev() {
        match e {
            Event::SchedulingFinished {
                tasks_per_tm,
                tm_spread,
                scheduling_time_ms,
                ..
            } if !ended => {
                ended = true;
                out.tms = Some((
                    tasks_per_tm.iter().map(|c| c.n).collect(),
                    tm_spread.range,
                    *scheduling_time_ms,
                ));
            }
            Event::SchedulingFailed {
                unfulfilled,
                requests,
                timeout_ms,
                ..
            } if !ended => {
                ended = true;
                out.failed = Some((*unfulfilled, *requests, *timeout_ms));
            }
            Event::SlotSharingDone {
                tasks_per_slot,
                spread,
                ..
            } if out.slots.is_none() => out.slots = Some((tasks_per_slot.clone(), spread.range)),
            Event::StrategiesChosen {
                effective_mode,
                slot_sharing,
                request_matching,
                ..
            } if out.mode.is_none() => {
                out.mode = Some(*effective_mode);
                out.phase1 = Some(slot_sharing.flink_name());
                out.phase2 = Some(match request_matching {
                    RequestMatching::Simple => "simple request matching",
                    RequestMatching::TasksBalanced => "tasks-balanced request matching",
                });
            }
            // A job redefinition starts over: older rounds are about another job.
            Event::JobDefined { .. } => break,
            _ => {}
        }
    }
    out
}

impl RoundSummary {
    /// One sentence with the engine's numbers, e.g. "phase 1 (…) tasks per slot [2, 2, 2, 1, 1, 1]
    /// (range 1); phase 2 (…) tasks per TaskManager [4, 3, 2] (range 2)".
    pub fn sentence(&self) -> String {
        let mut parts = Vec::new();
        if let (Some(p1), Some((slots, r))) = (self.phase1, &self.slots) {
            parts.push(format!(
                "phase 1 ({p1}) fills slots with {} tasks (range {r})",
                list(slots)
            ));
        }
        if let Some((tms, r, t)) = &self.tms {
            let p2 = self.phase2.unwrap_or("phase 2");
            parts.push(format!(
                "phase 2 ({p2}) puts {} tasks on the TaskManagers (range {r}) in {t} ms",
                list(tms)
            ));
        }
        if let Some((u, n, t)) = self.failed {
            parts.push(format!(
                "{u} of {n} slot requests were not fulfilled within slot.request.timeout = {t} ms"
            ));
        }
        parts.join("; ")
    }
}

/// What the last applied action did when it lost a TaskManager.
#[derive(Clone, Debug, PartialEq)]
pub struct FailoverSummary {
    /// The lost TaskManager.
    pub tm: String,
    /// When it was lost.
    pub at_ms: u64,
    /// When it re-registered, if it restarts.
    pub restarts_at_ms: Option<u64>,
    /// Tasks it ran.
    pub tasks: u32,
    /// The first batch settled with a partial (stale) view: (at ms, pending, free slots).
    pub stale: Option<(u64, u32, u32)>,
    /// Per-TaskManager tasks and range before the loss.
    pub before: Option<(Vec<u32>, u32)>,
    /// Per-TaskManager tasks and range after the restart, and the scheduling time.
    pub after: Option<(Vec<u32>, u32, u64)>,
    /// The restart failed: timed-out requests and `slot.request.timeout`.
    pub timed_out: Option<(usize, u64)>,
    /// `slot.request.max-interval` in force.
    pub max_interval_ms: u64,
}

/// The failover of the last applied action, if it was a `lose_task_manager`.
pub fn last_failover(s: &FlinkSession, max_interval_ms: u64) -> Option<FailoverSummary> {
    let i = s.cursor().checked_sub(1)?;
    if !matches!(s.log().actions.get(i), Some(Action::LoseTaskManager { .. })) {
        return None;
    }
    let events = s.steps().get(i)?;
    let mut out = None;
    for e in events {
        match e {
            Event::TaskManagerLost {
                tm,
                at_ms,
                tasks,
                restarts_at_ms,
                ..
            } => {
                out = Some(FailoverSummary {
                    tm: tm.clone(),
                    at_ms: *at_ms,
                    restarts_at_ms: *restarts_at_ms,
                    tasks: *tasks,
                    stale: None,
                    before: None,
                    after: None,
                    timed_out: None,
                    max_interval_ms,
                })
            }
            Event::ResourceViewSettled {
                at_ms,
                pending,
                free_slots,
                full_view: false,
                ..
            } => {
                if let Some(o) = out.as_mut().filter(|o| o.stale.is_none()) {
                    o.stale = Some((*at_ms, *pending, *free_slots));
                }
            }
            Event::SchedulingFinished {
                tasks_per_tm,
                tm_spread,
                scheduling_time_ms,
                ..
            } => {
                if let Some(o) = out.as_mut() {
                    o.after = Some((
                        tasks_per_tm.iter().map(|c| c.n).collect(),
                        tm_spread.range,
                        *scheduling_time_ms,
                    ));
                }
            }
            Event::SlotRequestsTimedOut {
                requests, timeout_ms, ..
            } => {
                if let Some(o) = out.as_mut() {
                    o.timed_out = Some((requests.len(), *timeout_ms));
                }
            }
            _ => {}
        }
    }
    let mut out = out?;
    out.before = s
        .setup_events()
        .iter()
        .chain(s.steps()[..i].iter().flatten())
        .rev()
        .find_map(|e| match e {
            Event::SchedulingFinished {
                tasks_per_tm,
                tm_spread,
                ..
            } => Some((tasks_per_tm.iter().map(|c| c.n).collect(), tm_spread.range)),
            _ => None,
        });
    Some(out)
}
