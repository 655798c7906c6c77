//! Phase 2, slots to TaskManagers: how the ResourceManager picks slots for the job
//! and how the JobMaster's slot pool matches slot requests to the slots it gets.
//!
//! ResourceManager side (Flink's `ResourceMatchingStrategy`):
//! * modes `none` and `tasks`: *any matching*: the first TaskManager with a free slot;
//! * mode `slots`: *least utilisation*: the TaskManager with the smallest share of
//!   occupied slots.
//!
//! JobMaster side (Flink's `RequestSlotMatchingStrategy`):
//! * modes `none` and `slots`: *simple* matching: slots are offered TaskManager by
//!   TaskManager, and each offered slot goes to the oldest pending request;
//! * mode `tasks`: *tasks balanced* matching: once there are at least as many free
//!   slots as pending requests, requests are sorted by task count, descending, and
//!   each goes to the TaskManager with the fewest tasks that still has a free slot.
//!
//! Deterministic rules (lbscope), where Flink iterates hash maps:
//! * TaskManagers are visited in registration order and slots in index order, both for
//!   "any matching" and for the order in which TaskManagers offer their slots;
//! * all slots a TaskManager gets in one allocation are offered together, TaskManagers
//!   one after another (so a TaskManager's slots are consecutive in the offer order);
//! * ties in utilisation or in task count go to the TaskManager registered first,
//!   and within a TaskManager the lowest free slot index is used;
//! * the sort by task count is stable: equal requests keep their request order.

use super::metrics::TmCount;
use super::task_manager::{Cluster, SlotAddr};
use super::Event;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// How many candidate TaskManagers a match event lists at most.
pub const MAX_LISTED_CANDIDATES: usize = 12;

/// The ResourceManager's slot choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceMatching {
    /// First TaskManager (registration order) with a free slot.
    AnyMatching,
    /// TaskManager with the least slot utilisation.
    LeastUtilization,
}

/// The slot pool's request matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestMatching {
    /// `SimpleRequestSlotMatchingStrategy`.
    Simple,
    /// `TasksBalancedRequestSlotMatchingStrategy`.
    TasksBalanced,
}

/// Why a slot request went where it went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum MatchRule {
    /// Simple matching: the n-th offered slot went to the oldest pending request.
    FirstPending {
        /// 1-based position of the slot in this batch's offer order.
        offer_position: u32,
    },
    /// Fewest tasks: the TaskManager with the fewest tasks among those with a free slot.
    FewestTasks {
        /// True when every pending request could be matched at once (full view); false
        /// when fewer slots than requests were visible (requests served one by one, in
        /// request order, from the partial view).
        full_view: bool,
        /// Tasks per candidate TaskManager before this match (at most
        /// [`MAX_LISTED_CANDIDATES`], the least loaded, in registration order).
        candidates: Vec<TmCount>,
        /// Candidates not listed.
        more_candidates: u32,
    },
}

/// The slots visible to the slot pool in one batch: free slots held by the job, per
/// TaskManager, in slot order.
#[derive(Clone, Debug, Default)]
pub struct View {
    free: Vec<VecDeque<u32>>,
    in_view: Vec<Vec<bool>>,
    count: usize,
}

impl View {
    /// An empty view for `cluster`.
    pub fn new(cluster: &Cluster) -> View {
        View {
            free: vec![VecDeque::new(); cluster.tms.len()],
            in_view: cluster.tms.iter().map(|t| vec![false; t.slots.len()]).collect(),
            count: 0,
        }
    }

    /// Add a free slot.
    pub fn hold(&mut self, a: SlotAddr) {
        let (t, s) = (a.tm as usize, a.slot as usize);
        if let Some(flag) = self.in_view.get_mut(t).and_then(|v| v.get_mut(s)) {
            if !*flag {
                *flag = true;
                let q = &mut self.free[t];
                let pos = q.iter().position(|&x| x > a.slot).unwrap_or(q.len());
                q.insert(pos, a.slot);
                self.count += 1;
            }
        }
    }

    /// Number of free slots in view.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no slot is in view.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn take(&mut self, tm: usize) -> Option<u32> {
        let s = self.free.get_mut(tm)?.pop_front()?;
        self.in_view[tm][s as usize] = false;
        self.count -= 1;
        Some(s)
    }

    /// Free slots in view per TaskManager (only those with any).
    pub fn per_tm(&self, cluster: &Cluster) -> Vec<TmCount> {
        self.free
            .iter()
            .enumerate()
            .filter(|(_, q)| !q.is_empty())
            .map(|(t, q)| TmCount {
                tm: cluster.tms[t].name.clone(),
                n: q.len() as u32,
            })
            .collect()
    }

    fn held_on(&self, tm: usize) -> usize {
        self.free.get(tm).map_or(0, VecDeque::len)
    }
}

/// Everything a match step needs.
pub struct MatchCtx<'a> {
    /// The cluster (slots get occupied here).
    pub cluster: &'a mut Cluster,
    /// Tasks per request.
    pub tasks: &'a [u32],
    /// Current tasks per TaskManager (updated).
    pub tm_tasks: &'a mut Vec<u32>,
    /// Where each request was placed (updated).
    pub placement: &'a mut Vec<Option<SlotAddr>>,
    /// Simulated time of this step.
    pub at_ms: u64,
}

impl MatchCtx<'_> {
    fn place(&mut self, request: u32, tm: usize, slot: u32) -> u32 {
        let n = self.tasks.get(request as usize).copied().unwrap_or(0);
        if let Some(s) = self.cluster.tms[tm].slots.get_mut(slot as usize) {
            *s = Some(request);
        }
        self.tm_tasks[tm] += n;
        if let Some(p) = self.placement.get_mut(request as usize) {
            *p = Some(SlotAddr { tm: tm as u32, slot });
        }
        n
    }
}

/// The ResourceManager allocates `needed` more slots (free, running, not yet in view)
/// to the job and adds them to the view. Returns the allocation event, if any slot moved.
pub fn allocate(
    cluster: &Cluster,
    view: &mut View,
    needed: usize,
    how: ResourceMatching,
    at_ms: u64,
) -> Option<Event> {
    let mut got: Vec<u32> = vec![0; cluster.tms.len()];
    let mut left = needed;
    // Free slots not in view, per TaskManager (running only).
    let spare = |view: &View, t: usize| -> Vec<u32> {
        let tm = &cluster.tms[t];
        if !tm.is_running() {
            return Vec::new();
        }
        tm.slots
            .iter()
            .enumerate()
            .filter(|(s, occ)| occ.is_none() && !view.in_view[t][*s])
            .map(|(s, _)| s as u32)
            .collect()
    };
    match how {
        ResourceMatching::AnyMatching => {
            for (t, count) in got.iter_mut().enumerate() {
                if left == 0 {
                    break;
                }
                for s in spare(view, t).into_iter().take(left) {
                    view.hold(SlotAddr {
                        tm: t as u32,
                        slot: s,
                    });
                    *count += 1;
                    left -= 1;
                }
            }
        }
        ResourceMatching::LeastUtilization => {
            let mut spare_lists: Vec<VecDeque<u32>> =
                (0..cluster.tms.len()).map(|t| spare(view, t).into()).collect();
            while left > 0 {
                // utilisation = (slots - spare) / slots, compared exactly.
                let mut best: Option<(usize, u64, u64)> = None;
                for (t, list) in spare_lists.iter().enumerate() {
                    if list.is_empty() {
                        continue;
                    }
                    let total = cluster.tms[t].slots.len() as u64;
                    let used = total - list.len() as u64;
                    let better = match best {
                        None => true,
                        Some((_, bu, bt)) => used * bt < bu * total,
                    };
                    if better {
                        best = Some((t, used, total));
                    }
                }
                let Some((t, _, _)) = best else { break };
                if let Some(s) = spare_lists[t].pop_front() {
                    view.hold(SlotAddr {
                        tm: t as u32,
                        slot: s,
                    });
                    got[t] += 1;
                    left -= 1;
                }
            }
        }
    }
    let per_tm: Vec<TmCount> = got
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(t, &n)| TmCount {
            tm: cluster.tms[t].name.clone(),
            n,
        })
        .collect();
    (!per_tm.is_empty()).then_some(Event::SlotsAllocated {
        at_ms,
        by: how,
        needed: needed as u32,
        per_tm,
    })
}

/// Simple matching: TaskManagers offer their slots in view one after another (in
/// registration order, slots in index order); each offered slot goes to the oldest
/// pending request. Matched requests leave `pending`.
pub fn simple(ctx: &mut MatchCtx<'_>, view: &mut View, pending: &mut VecDeque<u32>) -> Vec<Event> {
    let mut events = Vec::new();
    let mut position = 0u32;
    for t in 0..ctx.cluster.tms.len() {
        while view.held_on(t) > 0 {
            let Some(&request) = pending.front() else {
                return events;
            };
            let Some(slot) = view.take(t) else { break };
            pending.pop_front();
            position += 1;
            let tasks = ctx.place(request, t, slot);
            events.push(Event::SlotRequestMatched {
                at_ms: ctx.at_ms,
                request,
                tasks,
                tm: ctx.cluster.tms[t].name.clone(),
                slot,
                tm_tasks_now: ctx.tm_tasks[t],
                rule: MatchRule::FirstPending {
                    offer_position: position,
                },
            });
        }
    }
    events
}

/// Fewest-tasks matching. With `sorted`, requests are taken by task count descending
/// (stable), as the tasks-balanced strategy does with a full view; without, in request
/// order (serving requests one by one from a partial view). Each request goes to the
/// TaskManager with the fewest tasks among those with a free slot in view. Requests
/// left when the view runs dry stay in `pending` (in their order).
pub fn fewest_tasks(
    ctx: &mut MatchCtx<'_>,
    view: &mut View,
    pending: &mut VecDeque<u32>,
    sorted: bool,
) -> Vec<Event> {
    let mut order: Vec<u32> = pending.iter().copied().collect();
    if sorted {
        order.sort_by_key(|&r| std::cmp::Reverse(ctx.tasks.get(r as usize).copied().unwrap_or(0)));
    }
    let full_view = view.len() >= pending.len();
    let mut candidates: BTreeSet<(u32, usize)> = (0..ctx.cluster.tms.len())
        .filter(|&t| view.held_on(t) > 0)
        .map(|t| (ctx.tm_tasks[t], t))
        .collect();
    let mut events = Vec::new();
    let mut matched = vec![false; order.len()];
    for (k, &request) in order.iter().enumerate() {
        let Some(&(load, t)) = candidates.iter().next() else {
            break;
        };
        let mut listed: Vec<(usize, u32)> = candidates
            .iter()
            .take(MAX_LISTED_CANDIDATES)
            .map(|&(l, tm)| (tm, l))
            .collect();
        listed.sort_unstable();
        let more = candidates.len().saturating_sub(MAX_LISTED_CANDIDATES) as u32;
        let Some(slot) = view.take(t) else { break };
        candidates.remove(&(load, t));
        let tasks = ctx.place(request, t, slot);
        if view.held_on(t) > 0 {
            candidates.insert((ctx.tm_tasks[t], t));
        }
        matched[k] = true;
        events.push(Event::SlotRequestMatched {
            at_ms: ctx.at_ms,
            request,
            tasks,
            tm: ctx.cluster.tms[t].name.clone(),
            slot,
            tm_tasks_now: ctx.tm_tasks[t],
            rule: MatchRule::FewestTasks {
                full_view,
                candidates: listed
                    .into_iter()
                    .map(|(tm, n)| TmCount {
                        tm: ctx.cluster.tms[tm].name.clone(),
                        n,
                    })
                    .collect(),
                more_candidates: more,
            },
        });
    }
    let done: BTreeSet<u32> = order
        .iter()
        .zip(&matched)
        .filter(|(_, &m)| m)
        .map(|(&r, _)| r)
        .collect();
    pending.retain(|r| !done.contains(r));
    events
}
