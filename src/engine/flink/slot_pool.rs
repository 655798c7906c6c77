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
//!   - with local recovery, requests whose previous slot is in view take it first;
//!   - modes `none`/`slots`/`min_resources`: simple matching (slot offers, oldest
//!     matching request first);
//!   - mode `tasks` with at least as many free slots as pending requests: the
//!     tasks-balanced matching over the full view, if the
//!     [`ResourceRequestPreMappings`](super::resource_request_pre_mappings) say every
//!     request can be served (otherwise nothing is matched and the batch waits);
//!   - mode `tasks` with fewer slots than requests (a *partial* view, e.g. during
//!     failover before the replacement TaskManager is visible): requests are served one
//!     by one in the order they were issued (hash order within a pipelined region, see
//!     [`super::pipelined_region`]) from the slots already there, each on the TaskManager
//!     with the fewest tasks (as Flink's allocate-from-available-slots path does); the
//!     rest wait for the next batch. This greedy step on a stale view is what can
//!     leave the result unbalanced;
//! * a request still pending `slot.request.timeout` ms after `start` fails, and so
//!   does the whole round (the job is not running). A batch settling exactly at the
//!   deadline still counts.

use super::config::LoadBalanceMode;
use super::request_slot_matching;
use super::resource_profile::ResourceProfile;
use super::slot_matching::{self, MatchCtx, ResourceMatching, Tally, View, DETAIL_LIMIT};
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
    /// Resource profile per request (indexed by request id).
    pub profiles: &'a [ResourceProfile],
    /// With local recovery: each request's previous slot (indexed by request id; empty
    /// without local recovery).
    pub prefer: &'a [Option<SlotAddr>],
    /// Requests to place, in the order they reach the slot pool.
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
        profiles,
        prefer,
        pending,
        held,
        arrivals,
    } = round;
    let mut events = Vec::new();
    let mut pending: VecDeque<u32> = pending.into();
    let mut view = held_view(cluster, held);
    let mut tm_tasks = tasks_per_tm(cluster, tasks);
    let rm = ResourceMatching::for_mode(mode);
    let deadline = start_ms.saturating_add(timeout_ms);
    let mut last_change = start_ms;
    let mut next_arrival = 0usize;
    let total_requests = pending.len() as u32;

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
        let needs = shortfall(&view, &pending, profiles);
        if !needs.is_empty() {
            if let Some(e) = slot_matching::allocate(cluster, &mut view, &needs, rm, fire) {
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
            profiles,
            tm_tasks: &mut tm_tasks,
            placement,
            at_ms: fire,
            summarise: pending.len() > DETAIL_LIMIT,
            tally: Tally::default(),
        };
        let strategy = request_slot_matching::for_mode(mode, !prefer.is_empty());
        let matched = strategy.match_requests(&mut ctx, &mut view, &mut pending, prefer);
        events.extend(matched);
        if !ctx.tally.is_empty() {
            let summary = ctx.tally.events(ctx.cluster, ctx.tm_tasks, fire);
            events.extend(summary);
        }
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
        cluster.clear_slots();
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

/// The slots the job holds, in view before the round.
fn held_view(cluster: &Cluster, held: Vec<SlotAddr>) -> View {
    let mut view = View::new(cluster);
    for a in held {
        let profile = cluster
            .tms
            .get(a.tm as usize)
            .map_or(ResourceProfile::Any, |t| t.slot_profile(a.slot as usize));
        view.hold(a, profile);
    }
    view
}

/// Tasks per TaskManager in the slots already occupied.
fn tasks_per_tm(cluster: &Cluster, tasks: &[u32]) -> Vec<u32> {
    cluster
        .tms
        .iter()
        .map(|t| {
            t.slots
                .iter()
                .flatten()
                .map(|&r| tasks.get(r as usize).copied().unwrap_or(0))
                .sum()
        })
        .collect()
}

/// A TaskManager re-registers.
fn register(cluster: &mut Cluster, a: Arrival, events: &mut Vec<Event>) {
    if let Some(t) = cluster.tms.get_mut(a.tm) {
        t.state = TmState::Running;
        events.push(Event::TaskManagerRestored {
            tm: t.name.clone(),
            at_ms: a.at_ms,
            slots: t.slot_count(),
        });
    }
}

/// The requests the job's free slots do not cover, as profiles in request order: a
/// fine-grained request is covered by a free slot of its own profile or an `ANY` slot,
/// an `UNKNOWN` request by any free slot left after that (the slot pool declares what
/// is missing, and the ResourceManager allocates it).
fn shortfall(view: &View, pending: &VecDeque<u32>, profiles: &[ResourceProfile]) -> Vec<ResourceProfile> {
    let prof = |r: u32| {
        profiles
            .get(r as usize)
            .copied()
            .unwrap_or(ResourceProfile::Unknown)
    };
    if pending.len() <= view.len() && pending.iter().all(|&r| prof(r) == ResourceProfile::Unknown) {
        return Vec::new();
    }
    let mut free = view.profile_counts();
    let mut covered = vec![false; pending.len()];
    for (k, &r) in pending.iter().enumerate() {
        let p = prof(r);
        if p == ResourceProfile::Unknown {
            continue;
        }
        for sp in [p, ResourceProfile::Any] {
            if let Some(n) = free.get_mut(&sp).filter(|n| **n > 0) {
                *n -= 1;
                covered[k] = true;
                break;
            }
        }
    }
    let mut rest: usize = free.values().sum();
    for (k, &r) in pending.iter().enumerate() {
        if prof(r) == ResourceProfile::Unknown && rest > 0 {
            rest -= 1;
            covered[k] = true;
        }
    }
    pending
        .iter()
        .zip(&covered)
        .filter(|(_, &c)| !c)
        .map(|(&r, _)| prof(r))
        .collect()
}
