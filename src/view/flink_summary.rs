//! Summaries of a Flink session read from the engine's events (never
//! computed here): the last scheduling round's strategies and numbers, and
//! what the last failover did. The Flink tab shows them.

use crate::engine::flink::slot_matching::RequestMatching;
use crate::engine::flink::{self, seed_spread, Action, Event, LoadBalanceMode};
use crate::scenario::session::Session;
use crate::scenario::Log;

/// A Flink session.
pub type FlinkSession = Session<flink::Sim>;

/// `[4, 3, 2]`; long lists show their first 24 numbers (as the engine's narration does).
pub fn list(xs: &[u32]) -> String {
    const SHOWN: usize = 24;
    let parts: Vec<String> = xs.iter().take(SHOWN).map(u32::to_string).collect();
    if xs.len() > SHOWN {
        format!("[{}, … {} more]", parts.join(", "), xs.len() - SHOWN)
    } else {
        format!("[{}]", parts.join(", "))
    }
}

/// Seeds the Flink tab counts its spread over.
pub const SPREAD_SEEDS: u64 = 10;
/// Largest job (in subtasks) and log (in actions) whose spread is computed on a change.
const SPREAD_MAX_SUBTASKS: u64 = 4096;
const SPREAD_MAX_ACTIONS: usize = 200;

/// How the job lands over seeds 0..[`SPREAD_SEEDS`] (Flink sends a pipelined region's
/// slot requests in hash order, which the engine draws from the seed): "[4, 3, 2] in 6
/// of 10 seeds, [3, 3, 3] in 4", from the engine's own replays of `log` up to `cursor`.
/// `None` when no job is defined, or the job or log is too large to replay ten times
/// on every change.
pub fn spread_over_seeds(log: &Log<flink::Sim>, cursor: usize) -> Option<String> {
    let actions: Vec<&Action> = log.setup.iter().chain(log.actions.iter().take(cursor)).collect();
    if actions.len() > SPREAD_MAX_ACTIONS {
        return None;
    }
    let widest = actions
        .iter()
        .filter_map(|a| match a {
            Action::DefineJob { job } => {
                Some(job.vertices.iter().map(|v| u64::from(v.parallelism)).sum::<u64>())
            }
            _ => None,
        })
        .max()?;
    if widest > SPREAD_MAX_SUBTASKS {
        return None;
    }
    seed_spread::outcomes_over_seeds(&log.config, actions.into_iter(), 0..SPREAD_SEEDS)
        .ok()
        .map(|o| seed_spread::describe(&o))
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::flink::Sim;
    use crate::scenario::presets::flink_figure_a;

    /// The figure-A job scheduled once: the summary carries the numbers of the
    /// round's own events (read back from them, not computed again).
    fn scheduled() -> FlinkSession {
        let mut s = FlinkSession::new(1, flink_figure_a(), None).unwrap();
        s.apply(<Sim as crate::engine::Engine>::round_action()).unwrap();
        s
    }

    #[test]
    fn last_round_reports_the_events_of_the_latest_schedule() {
        let s = scheduled();
        let r = last_round(&s);
        let events = s.steps().last().unwrap();
        let finished = events.iter().find_map(|e| match e {
            Event::SchedulingFinished {
                tasks_per_tm,
                tm_spread,
                scheduling_time_ms,
                ..
            } => Some((
                tasks_per_tm.iter().map(|c| c.n).collect::<Vec<_>>(),
                tm_spread.range,
                *scheduling_time_ms,
            )),
            _ => None,
        });
        assert_eq!(r.tms, finished);
        let slots = events.iter().find_map(|e| match e {
            Event::SlotSharingDone {
                tasks_per_slot,
                spread,
                ..
            } => Some((tasks_per_slot.clone(), spread.range)),
            _ => None,
        });
        assert_eq!(r.slots, slots);
        assert!(
            r.mode.is_some() && r.phase1.is_some() && r.phase2.is_some(),
            "{r:?}"
        );
        assert!(r.failed.is_none());
        let (tms, range, _) = r.tms.clone().unwrap();
        assert!(r.sentence().contains(&format!(
            "{} tasks on the TaskManagers (range {range})",
            list(&tms)
        )));
    }

    #[test]
    fn last_failover_tells_the_lost_task_manager_and_the_spread_before_and_after() {
        let mut s = scheduled();
        assert!(last_failover(&s, 0).is_none(), "the last action is not a loss");
        let before = last_round(&s).tms.map(|(t, r, _)| (t, r));
        let tm = s.state().task_managers()[0].name.clone();
        s.apply(Action::LoseTaskManager {
            tm: tm.clone(),
            restart_after_ms: Some(1_000),
        })
        .unwrap();
        let f = last_failover(&s, 7).expect("a loss was the last action");
        assert_eq!(f.tm, tm);
        assert_eq!(f.before, before);
        assert_eq!(f.max_interval_ms, 7);
        assert!(f.restarts_at_ms.is_some_and(|t| t >= f.at_ms + 1_000), "{f:?}");
    }

    #[test]
    fn long_lists_show_their_first_numbers_and_how_many_more() {
        assert_eq!(list(&[4, 3, 2]), "[4, 3, 2]");
        // The Flink tab's first scenario: figure (a) over ten seeds, both outcomes.
        let log = crate::scenario::presets::flink_figure_a();
        let spread = spread_over_seeds(&log, 1).unwrap();
        assert!(
            spread.contains("of 10 seeds")
                && spread.contains("[4, 3, 2] in")
                && spread.contains("[3, 3, 3] in"),
            "{spread}"
        );
        assert_eq!(
            spread_over_seeds(&log, 0).as_deref(),
            Some("not running in all 10 seeds")
        );
        let long: Vec<u32> = (0..30).collect();
        assert!(list(&long).ends_with(", … 6 more]"), "{}", list(&long));
    }
}
