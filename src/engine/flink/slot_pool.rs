//! The JobMaster's slot pool over simulated time: requests are issued, batched by
//! `slot.request.max-interval`, matched against the slots visible when a batch
//! settles, and failed by `slot.request.timeout`.
//!
//! lbscope's timing model (a model of the doc's failover note, built from Flink's
//! mechanisms, not a line-by-line replay of its threads):
//! * all slot requests of a scheduling round are issued at once, at `start`;
//! * the slot pool declares its requirements to the ResourceManager, and settles a
//!   batch, only after `slot.request.max-interval` ms without a change (a debounce,
//!   like Flink's `DeclarativeSlotPool`): a new request or a TaskManager registering
//!   restarts the wait;
//! * when a batch settles, the ResourceManager first allocates the shortfall (pending
//!   requests minus free slots the job already holds) from running TaskManagers, then
//!   pending requests are matched against the free slots now visible:
//!   - modes `none`/`slots`: simple matching (slot offers, oldest request first);
//!   - mode `tasks` with at least as many free slots as pending requests: the
//!     tasks-balanced matching over the full view;
//!   - mode `tasks` with fewer slots than requests (a *partial* view, e.g. during
//!     failover before the replacement TaskManager is visible): requests are served one
//!     by one in request order from the slots already there, each on the TaskManager
//!     with the fewest tasks (as Flink's allocate-from-available-slots path does); the
//!     rest wait for the next batch. This greedy step on a stale view is what can
//!     leave the result unbalanced;
//! * a request still pending `slot.request.timeout` ms after `start` fails, and so
//!   does the whole round (the job is not running). A batch settling exactly at the
//!   deadline still counts.

use super::config::LoadBalanceMode;
use super::slot_matching::{self, MatchCtx, ResourceMatching, View};
use super::task_manager::{Cluster, SlotAddr, TmState};
use super::Event;
use std::collections::VecDeque;

/// A TaskManager that (re-)registers during the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Simulated time of registration.
    pub at_ms: u64,
    /// TaskManager index.
    pub tm: usize,
}

/// Inputs of one scheduling round.
pub struct Round<'a> {
    /// Effective mode.
    pub mode: LoadBalanceMode,
    /// `slot.request.max-interval` in ms.
    pub max_interval_ms: u64,
    /// `slot.request.timeout` in ms.
    pub timeout_ms: u64,
    /// When the requests are issued.
    pub start_ms: u64,
    /// Tasks per request (indexed by request id).
    pub tasks: &'a [u32],
    /// Requests to place, in request order.
    pub pending: Vec<u32>,
    /// Free slots the job already holds (e.g. released by a restart).
    pub held: Vec<SlotAddr>,
    /// TaskManagers registering during the round, sorted by time.
    pub arrivals: Vec<Arrival>,
}

/// What a round did.
pub struct RoundOutcome {
    /// Events, in time order.
    pub events: Vec<Event>,
    /// Simulated time when the round ended (success or failure), and any arrival
    /// registered after it has been applied too (see `now_ms`).
    pub end_ms: u64,
    /// Simulated time after the round and every arrival.
    pub now_ms: u64,
    /// Whether every request was placed.
    pub succeeded: bool,
}

/// Run a round. Placements go into `cluster` (slot occupants) and `placement`.
pub fn run(cluster: &mut Cluster, placement: &mut Vec<Option<SlotAddr>>, round: Round<'_>) -> RoundOutcome {
    let Round {
        mode,
        max_interval_ms,
        timeout_ms,
        start_ms,
        tasks,
        pending,
        held,
        arrivals,
    } = round;
    let mut events = Vec::new();
    let mut pending: VecDeque<u32> = pending.into();
    let mut view = View::new(cluster);
    for a in held {
        view.hold(a);
    }
    let mut tm_tasks: Vec<u32> = cluster
        .tms
        .iter()
        .map(|t| {
            t.slots
                .iter()
                .flatten()
                .map(|&r| tasks.get(r as usize).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    let rm = if mode == LoadBalanceMode::Slots {
        ResourceMatching::LeastUtilization
    } else {
        ResourceMatching::AnyMatching
    };
    let deadline = start_ms.saturating_add(timeout_ms);
    let mut last_change = start_ms;
    let mut next_arrival = 0usize;
    let total_requests = pending.len() as u32;

    let register = |cluster: &mut Cluster, a: Arrival, events: &mut Vec<Event>| {
        if let Some(t) = cluster.tms.get_mut(a.tm) {
            t.state = TmState::Running;
            events.push(Event::TaskManagerRestored {
                tm: t.name.clone(),
                at_ms: a.at_ms,
                slots: t.slot_count(),
            });
        }
    };

    let (end_ms, succeeded) = loop {
        let mut fire = last_change.saturating_add(max_interval_ms);
        while next_arrival < arrivals.len() && arrivals[next_arrival].at_ms <= fire {
            let a = arrivals[next_arrival];
            if a.at_ms > deadline {
                break;
            }
            register(cluster, a, &mut events);
            next_arrival += 1;
            last_change = a.at_ms;
            fire = last_change.saturating_add(max_interval_ms);
        }
        if fire > deadline {
            events.push(Event::SlotRequestsTimedOut {
                at_ms: deadline,
                requests: pending.iter().copied().collect(),
                requested_at_ms: start_ms,
                timeout_ms,
                next_batch_at_ms: fire,
            });
            break (deadline, false);
        }
        // The batch settles at `fire`.
        let shortfall = pending.len().saturating_sub(view.len());
        if shortfall > 0 {
            if let Some(e) = slot_matching::allocate(cluster, &mut view, shortfall, rm, fire) {
                events.push(e);
            }
        }
        let full = view.len() >= pending.len();
        events.push(Event::ResourceViewSettled {
            at_ms: fire,
            waited_ms: fire - last_change,
            pending: pending.len() as u32,
            free_slots: view.len() as u32,
            full_view: full,
            free_per_tm: view.per_tm(cluster),
        });
        let mut ctx = MatchCtx {
            cluster,
            tasks,
            tm_tasks: &mut tm_tasks,
            placement,
            at_ms: fire,
        };
        let matched = match mode {
            LoadBalanceMode::Tasks => slot_matching::fewest_tasks(&mut ctx, &mut view, &mut pending, full),
            LoadBalanceMode::None | LoadBalanceMode::Slots => {
                slot_matching::simple(&mut ctx, &mut view, &mut pending)
            }
        };
        events.extend(matched);
        if pending.is_empty() {
            break (fire, true);
        }
        if next_arrival < arrivals.len() && arrivals[next_arrival].at_ms <= deadline {
            last_change = arrivals[next_arrival].at_ms.max(fire);
            register(cluster, arrivals[next_arrival], &mut events);
            next_arrival += 1;
            continue;
        }
        // Nothing more will show up before the deadline.
        events.push(Event::SlotRequestsTimedOut {
            at_ms: deadline,
            requests: pending.iter().copied().collect(),
            requested_at_ms: start_ms,
            timeout_ms,
            next_batch_at_ms: u64::MAX,
        });
        break (deadline, false);
    };

    if !succeeded {
        // The job fails: everything placed in this round is released.
        for t in &mut cluster.tms {
            for s in &mut t.slots {
                *s = None;
            }
        }
        for p in placement.iter_mut() {
            *p = None;
        }
        events.push(Event::SchedulingFailed {
            at_ms: end_ms,
            unfulfilled: pending.len() as u32,
            requests: total_requests,
            timeout_ms,
        });
    }
    // Arrivals after the round still happen.
    let mut now_ms = end_ms;
    for &a in &arrivals[next_arrival..] {
        register(cluster, a, &mut events);
        now_ms = now_ms.max(a.at_ms);
    }
    RoundOutcome {
        events,
        end_ms,
        now_ms,
        succeeded,
    }
}
