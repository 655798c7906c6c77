//! Phase 2, slots to TaskManagers: how the ResourceManager picks slots for the job
//! and how the JobMaster's slot pool matches slot requests to the slots it gets.
//!
//! ResourceManager side (Flink's `DefaultResourceAllocationStrategy`):
//! * modes `none` and `tasks`: *any matching*: the first TaskManager that can host the
//!   slot, filled up before the next one;
//! * mode `slots`: *least utilisation*: each slot on the TaskManager with the smallest
//!   utilisation;
//! * mode `min_resources`: *most utilisation*: each slot on the TaskManager with the
//!   largest utilisation that can still host it, so that as few TaskManagers as
//!   possible are used.
//!
//! Utilisation is the share of a TaskManager in use, counting every job's slots: the
//! larger of the CPU and memory shares for a TaskManager with declared resources, the
//! share of slots otherwise.
//!
//! JobMaster side (Flink's `RequestSlotMatchingStrategy`):
//! * modes `none`, `slots` and `min_resources`: *simple* matching: slots are offered
//!   TaskManager by TaskManager, and each offered slot goes to the oldest pending
//!   request whose resource profile it matches;
//! * mode `tasks`: *tasks balanced* matching: once there are at least as many free
//!   slots as pending requests, and the [`ResourceRequestPreMappings`](super::resource_request_pre_mappings::ResourceRequestPreMappings) say every
//!   request can be served, requests are sorted by task count, descending, and each
//!   goes to the TaskManager with the fewest tasks *of this job* (the slot pool's
//!   loading view holds only the job's own slots) that still has a matching free slot;
//! * with local recovery (`execution.state-recovery.from-local`), Flink's
//!   `PreferredAllocationRequestSlotMatchingStrategy` first gives each request its
//!   previous slot if that slot is free, counting its tasks on that TaskManager, and
//!   leaves the rest to the strategy above.
//!
//! Deterministic rules (lbscope), where Flink iterates hash maps:
//! * TaskManagers are visited in registration order and slots in index order, both for
//!   "any matching" and for the order in which TaskManagers offer their slots;
//! * all slots a TaskManager gets in one allocation are offered together, TaskManagers
//!   one after another (so a TaskManager's slots are consecutive in the offer order);
//! * the ResourceManager serves the missing slots profile by profile, in the order the
//!   profiles first appear among the pending requests;
//! * ties in utilisation or in task count go to the TaskManager registered first, and
//!   within a TaskManager the lowest free slot index is used (among slot profiles, the
//!   first in [`ResourceProfile`] order);
//! * the sort by task count is stable: equal requests keep their request order.
//!
//! At scale (more than [`DETAIL_LIMIT`] requests in one batch) a batch reports one
//! [`Event::SlotRequestsMatched`] per TaskManager instead of one event per request; the
//! placement of every request stays in the state ([`super::Sim::placement`]).

use super::metrics::TmCount;
use super::resource_profile::{ResourceProfile, Resources, Utilization};
use super::task_manager::{Cluster, SlotAddr, MAX_SLOTS_PER_TASK_MANAGER};
use super::Event;
use serde::{Deserialize, Serialize};

/// The request slot matching algorithms, where they lived before they became
/// strategies of their own ([`super::request_slot_matching`]).
pub use super::request_slot_matching::{
    preferred_allocation_request_slot_matching_strategy::previous_allocations,
    simple_request_slot_matching_strategy::simple,
    tasks_balanced_request_slot_matching_strategy::fewest_tasks,
};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How many candidate TaskManagers a match event lists at most.
pub const MAX_LISTED_CANDIDATES: usize = 12;

/// Beyond this many requests in one batch (or subtasks in one vertex), events are
/// summarised per TaskManager (or per vertex).
pub const DETAIL_LIMIT: usize = 1024;

/// The ResourceManager's slot choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceMatching {
    /// First TaskManager (registration order) that can host the slot.
    AnyMatching,
    /// TaskManager with the least utilisation.
    LeastUtilization,
    /// TaskManager with the most utilisation that can still host the slot.
    MostUtilization,
}

impl ResourceMatching {
    /// What the mode chooses.
    pub fn for_mode(mode: super::LoadBalanceMode) -> ResourceMatching {
        match mode {
            super::LoadBalanceMode::Slots => ResourceMatching::LeastUtilization,
            super::LoadBalanceMode::MinResources => ResourceMatching::MostUtilization,
            super::LoadBalanceMode::None | super::LoadBalanceMode::Tasks => ResourceMatching::AnyMatching,
        }
    }

    /// Words for narration.
    pub fn describe(self) -> &'static str {
        match self {
            ResourceMatching::AnyMatching => "any matching (first TaskManager with a free slot)",
            ResourceMatching::LeastUtilization => "least utilisation",
            ResourceMatching::MostUtilization => "most utilisation (fewest TaskManagers)",
        }
    }
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
    /// Local recovery: the request's previous slot was free again.
    PreviousAllocation,
    /// Adaptive scheduler: the slot matching resolver's choice.
    Resolver {
        /// The choice and its numbers.
        choice: super::adaptive::slot_matching_resolver::Choice,
    },
    /// Adaptive scheduler with local recovery: the slot with the most local state.
    StateLocality {
        /// Key groups of the group already in that slot.
        local_key_groups: u64,
    },
}

impl MatchRule {
    /// Its kind.
    pub fn kind(&self) -> MatchKind {
        match self {
            MatchRule::FirstPending { .. } => MatchKind::FirstPending,
            MatchRule::FewestTasks { .. } => MatchKind::FewestTasks,
            MatchRule::PreviousAllocation => MatchKind::PreviousAllocation,
            MatchRule::Resolver { .. } => MatchKind::Resolver,
            MatchRule::StateLocality { .. } => MatchKind::StateLocality,
        }
    }
}

/// The kind of rule in a summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// [`MatchRule::FirstPending`].
    FirstPending,
    /// [`MatchRule::FewestTasks`].
    FewestTasks,
    /// [`MatchRule::PreviousAllocation`].
    PreviousAllocation,
    /// [`MatchRule::Resolver`].
    Resolver,
    /// [`MatchRule::StateLocality`].
    StateLocality,
}

/// The slots visible to the slot pool in one batch: free slots held by the job, per
/// TaskManager and slot profile, in slot order.
#[derive(Clone, Debug, Default)]
pub struct View {
    pub(super) free: Vec<BTreeMap<ResourceProfile, VecDeque<u32>>>,
    in_view: Vec<Vec<bool>>,
    per_tm: Vec<usize>,
    count: usize,
}

impl View {
    /// An empty view for `cluster`.
    pub fn new(cluster: &Cluster) -> View {
        View {
            free: vec![BTreeMap::new(); cluster.tms.len()],
            in_view: cluster.tms.iter().map(|t| vec![false; t.slots.len()]).collect(),
            per_tm: vec![0; cluster.tms.len()],
            count: 0,
        }
    }

    /// Whether slot `a` is in view.
    pub fn contains(&self, a: SlotAddr) -> bool {
        self.in_view
            .get(a.tm as usize)
            .and_then(|v| v.get(a.slot as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Add a free slot of profile `profile`.
    pub fn hold(&mut self, a: SlotAddr, profile: ResourceProfile) {
        let (t, s) = (a.tm as usize, a.slot as usize);
        let Some(flags) = self.in_view.get_mut(t) else {
            return;
        };
        if flags.len() <= s {
            flags.resize(s + 1, false);
        }
        if flags[s] {
            return;
        }
        flags[s] = true;
        let q = self.free[t].entry(profile).or_default();
        // Slots usually arrive in ascending order: append, else binary insertion.
        if q.back().is_none_or(|&last| last < a.slot) {
            q.push_back(a.slot);
        } else {
            let pos = q.partition_point(|&x| x < a.slot);
            q.insert(pos, a.slot);
        }
        self.per_tm[t] += 1;
        self.count += 1;
    }

    /// Number of free slots in view.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no slot is in view.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub(super) fn take(&mut self, tm: usize, profile: ResourceProfile) -> Option<u32> {
        let q = self.free.get_mut(tm)?.get_mut(&profile)?;
        let s = q.pop_front()?;
        if q.is_empty() {
            self.free[tm].remove(&profile);
        }
        self.in_view[tm][s as usize] = false;
        self.per_tm[tm] -= 1;
        self.count -= 1;
        Some(s)
    }

    pub(super) fn take_slot(&mut self, a: SlotAddr) -> Option<ResourceProfile> {
        let (t, s) = (a.tm as usize, a.slot);
        if !self.contains(a) {
            return None;
        }
        let (profile, pos) = self.free[t]
            .iter()
            .find_map(|(p, q)| q.binary_search(&s).ok().map(|i| (*p, i)))?;
        let q = self.free[t].get_mut(&profile)?;
        q.remove(pos);
        if q.is_empty() {
            self.free[t].remove(&profile);
        }
        self.in_view[t][s as usize] = false;
        self.per_tm[t] -= 1;
        self.count -= 1;
        Some(profile)
    }

    /// Free slots in view per TaskManager (only those with any).
    pub fn per_tm(&self, cluster: &Cluster) -> Vec<TmCount> {
        self.per_tm
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(t, &n)| TmCount {
                tm: cluster.tms[t].name.clone(),
                n: n as u32,
            })
            .collect()
    }

    /// Profiles of the slots in view (one entry per slot).
    pub fn profiles(&self) -> Vec<ResourceProfile> {
        let mut out = Vec::with_capacity(self.count);
        for m in &self.free {
            for (p, q) in m {
                out.extend(std::iter::repeat_n(*p, q.len()));
            }
        }
        out
    }

    /// Slots in view per profile.
    pub fn profile_counts(&self) -> BTreeMap<ResourceProfile, usize> {
        let mut out = BTreeMap::new();
        for m in &self.free {
            for (p, q) in m {
                *out.entry(*p).or_insert(0) += q.len();
            }
        }
        out
    }

    /// Every free slot in view: TaskManagers in registration order, slots in order.
    pub fn slots_in_order(&self) -> Vec<SlotAddr> {
        let mut out = Vec::with_capacity(self.count);
        for t in 0..self.free.len() {
            out.extend(
                self.slots_of(t)
                    .into_iter()
                    .map(|(slot, _)| SlotAddr { tm: t as u32, slot }),
            );
        }
        out
    }

    pub(super) fn held_on(&self, tm: usize) -> usize {
        self.per_tm.get(tm).copied().unwrap_or(0)
    }

    /// Free slots of TaskManager `tm`, in slot order, with their profiles.
    pub(super) fn slots_of(&self, tm: usize) -> Vec<(u32, ResourceProfile)> {
        let mut v: Vec<(u32, ResourceProfile)> = self.free[tm]
            .iter()
            .flat_map(|(p, q)| q.iter().map(move |&s| (s, *p)))
            .collect();
        v.sort_unstable_by_key(|&(s, _)| s);
        v
    }
}

/// Everything a match step needs.
pub struct MatchCtx<'a> {
    /// The cluster (slots get occupied here).
    pub cluster: &'a mut Cluster,
    /// Tasks per request.
    pub tasks: &'a [u32],
    /// Resource profile per request.
    pub profiles: &'a [ResourceProfile],
    /// Current tasks of the job per TaskManager (updated).
    pub tm_tasks: &'a mut Vec<u32>,
    /// Where each request was placed (updated).
    pub placement: &'a mut Vec<Option<SlotAddr>>,
    /// Simulated time of this step.
    pub at_ms: u64,
    /// Whether this batch is summarised per TaskManager.
    pub summarise: bool,
    /// Per-TaskManager tallies of a summarised batch.
    pub tally: Tally,
}

/// Per-TaskManager tallies of a summarised batch.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    rows: BTreeMap<(usize, u8), TallyRow>,
}

#[derive(Clone, Debug)]
struct TallyRow {
    kind: MatchKind,
    requests: u32,
    first: u32,
    last: u32,
    tasks: u64,
}

impl Tally {
    /// Count one match.
    pub fn add(&mut self, tm: usize, kind: MatchKind, request: u32, tasks: u32) {
        let row = self.rows.entry((tm, kind as u8)).or_insert(TallyRow {
            kind,
            requests: 0,
            first: request,
            last: request,
            tasks: 0,
        });
        row.requests += 1;
        row.first = row.first.min(request);
        row.last = row.last.max(request);
        row.tasks += u64::from(tasks);
    }

    /// The summary events, one per TaskManager and rule.
    pub fn events(&self, cluster: &Cluster, tm_tasks: &[u32], at_ms: u64) -> Vec<Event> {
        self.rows
            .iter()
            .map(|(&(t, _), r)| Event::SlotRequestsMatched {
                at_ms,
                tm: cluster.tms[t].name.clone(),
                requests: r.requests,
                first_request: r.first,
                last_request: r.last,
                tasks: r.tasks,
                tm_tasks_now: tm_tasks.get(t).copied().unwrap_or(0),
                rule: r.kind,
            })
            .collect()
    }

    /// True when nothing was tallied.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

impl MatchCtx<'_> {
    pub(super) fn place(&mut self, request: u32, tm: usize, slot: u32) -> u32 {
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

    pub(super) fn profile(&self, request: u32) -> ResourceProfile {
        self.profiles
            .get(request as usize)
            .copied()
            .unwrap_or(ResourceProfile::Unknown)
    }

    pub(super) fn report(
        &mut self,
        events: &mut Vec<Event>,
        request: u32,
        tm: usize,
        slot: u32,
        tasks: u32,
        rule: MatchRule,
    ) {
        if self.summarise {
            self.tally.add(tm, rule.kind(), request, tasks);
            return;
        }
        events.push(Event::SlotRequestMatched {
            at_ms: self.at_ms,
            request,
            tasks,
            tm: self.cluster.tms[tm].name.clone(),
            slot,
            tm_tasks_now: self.tm_tasks[tm],
            rule,
        });
    }
}

/// The ResourceManager allocates a slot for each profile in `needs` (request
/// profiles, in request order) from running TaskManagers, carving fine-grained slots,
/// and adds them to the view. Returns the allocation event, if any slot moved.
pub fn allocate(
    cluster: &mut Cluster,
    view: &mut View,
    needs: &[ResourceProfile],
    how: ResourceMatching,
    at_ms: u64,
) -> Option<Event> {
    if needs.is_empty() {
        return None;
    }
    // Requirements per profile, in order of first appearance.
    let mut groups: Vec<(ResourceProfile, usize)> = Vec::new();
    for &p in needs {
        match groups.iter_mut().find(|(q, _)| *q == p) {
            Some((_, n)) => *n += 1,
            None => groups.push((p, 1)),
        }
    }
    let mut free = FreeResources::new(cluster, view);
    let mut got: Vec<u32> = vec![0; free.cluster.tms.len()];
    let mut short = 0u32;
    for (p, n) in groups {
        let left = match how {
            ResourceMatching::AnyMatching => free.any_matching(view, p, n, &mut got),
            ResourceMatching::LeastUtilization | ResourceMatching::MostUtilization => {
                let least = how == ResourceMatching::LeastUtilization;
                free.by_utilization(view, p, n, least, &mut got)
            }
        };
        short += left as u32;
    }
    let cluster = free.cluster;
    let per_tm: Vec<TmCount> = got
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(t, &n)| TmCount {
            tm: cluster.tms[t].name.clone(),
            n,
        })
        .collect();
    (!per_tm.is_empty() || short > 0).then_some(Event::SlotsAllocated {
        at_ms,
        by: how,
        needed: needs.len() as u32,
        per_tm,
        unfulfilled: short,
    })
}

/// What the ResourceManager can still hand out: free positions not in view
/// per running TaskManager (ascending), free resources of fine-grained
/// TaskManagers and slot totals, kept up to date so that each choice costs
/// O(log n).
struct FreeResources<'c> {
    cluster: &'c mut Cluster,
    spare: Vec<VecDeque<u32>>,
    free_res: Vec<Option<Resources>>,
    totals: Vec<u64>,
}

impl<'c> FreeResources<'c> {
    fn new(cluster: &'c mut Cluster, view: &View) -> Self {
        let spare: Vec<VecDeque<u32>> = (0..cluster.tms.len())
            .map(|t| {
                let tm = &cluster.tms[t];
                if !tm.is_running() {
                    return VecDeque::new();
                }
                tm.slots
                    .iter()
                    .enumerate()
                    .filter(|(s, occ)| {
                        occ.is_none()
                            && !tm.is_other_job_slot(*s)
                            && !view.contains(SlotAddr {
                                tm: t as u32,
                                slot: *s as u32,
                            })
                    })
                    .map(|(s, _)| s as u32)
                    .collect()
            })
            .collect();
        let free_res = cluster.tms.iter().map(|t| t.free_resources()).collect();
        let totals = cluster.tms.iter().map(|t| t.slots.len() as u64).collect();
        FreeResources {
            cluster,
            spare,
            free_res,
            totals,
        }
    }

    /// Whether TaskManager `t` can host a slot for `p`.
    fn can_host(&self, t: usize, p: ResourceProfile) -> bool {
        let tm = &self.cluster.tms[t];
        if !tm.is_running() {
            return false;
        }
        match (self.free_res[t], tm.default_slot()) {
            (Some(free), Some(default)) => {
                free.fits(p.effective(default))
                    && (!self.spare[t].is_empty() || tm.slots.len() < MAX_SLOTS_PER_TASK_MANAGER as usize)
            }
            _ => !self.spare[t].is_empty(),
        }
    }

    /// The ResourceManager's utilisation of `t` now (see `TaskManager::utilization`).
    fn utilization(&self, t: usize) -> Utilization {
        let tm = &self.cluster.tms[t];
        match (tm.resources, self.free_res[t]) {
            (Some(total), Some(free)) => {
                let cpu = Utilization {
                    num: total.cpu_milli - free.cpu_milli.min(total.cpu_milli),
                    den: total.cpu_milli,
                };
                let mem = Utilization {
                    num: total.memory_mb - free.memory_mb.min(total.memory_mb),
                    den: total.memory_mb,
                };
                cpu.max(mem)
            }
            _ => Utilization {
                num: self.totals[t] - self.spare[t].len() as u64,
                den: self.totals[t],
            },
        }
    }

    /// Take a position on `t` for `p` and put it in view.
    fn take(&mut self, view: &mut View, t: usize, p: ResourceProfile) {
        let tm = &mut self.cluster.tms[t];
        let slot = match self.spare[t].pop_front() {
            Some(s) => s,
            None => {
                tm.slots.push(None);
                tm.slot_profiles.push(None);
                (tm.slots.len() - 1) as u32
            }
        };
        let profile = match (tm.resources, tm.default_slot()) {
            (Some(_), Some(default)) => {
                let r = p.effective(default);
                tm.slot_profiles[slot as usize] = Some(r);
                if let Some(f) = self.free_res[t].as_mut() {
                    *f = f.minus(r);
                }
                ResourceProfile::of(r)
            }
            _ => ResourceProfile::Any,
        };
        view.hold(SlotAddr { tm: t as u32, slot }, profile);
    }

    /// `AnyMatchingResourceMatchingStrategy`: `n` slots for `p` from the
    /// TaskManagers in order, each filled before the next. How many are left.
    fn any_matching(&mut self, view: &mut View, p: ResourceProfile, n: usize, got: &mut [u32]) -> usize {
        let mut left = n;
        for (t, got_t) in got.iter_mut().enumerate() {
            while left > 0 && self.can_host(t, p) {
                self.take(view, t, p);
                *got_t += 1;
                left -= 1;
            }
            if left == 0 {
                break;
            }
        }
        left
    }

    /// The least (`least`) or most utilised TaskManager that can host `p`,
    /// one slot at a time, `n` times. How many are left.
    fn by_utilization(
        &mut self,
        view: &mut View,
        p: ResourceProfile,
        n: usize,
        least: bool,
        got: &mut [u32],
    ) -> usize {
        let mut left = n;
        let mut least_q: BTreeSet<(Utilization, usize)> = BTreeSet::new();
        let mut most_q: BTreeSet<(Reverse<Utilization>, usize)> = BTreeSet::new();
        let enqueue = |least_q: &mut BTreeSet<_>, most_q: &mut BTreeSet<_>, k: Utilization, t: usize| {
            if least {
                least_q.insert((k, t));
            } else {
                most_q.insert((Reverse(k), t));
            }
        };
        for t in 0..self.cluster.tms.len() {
            if self.can_host(t, p) {
                enqueue(&mut least_q, &mut most_q, self.utilization(t), t);
            }
        }
        while left > 0 {
            let t = if least {
                least_q.pop_first().map(|(_, t)| t)
            } else {
                most_q.pop_first().map(|(_, t)| t)
            };
            let Some(t) = t else { break };
            self.take(view, t, p);
            got[t] += 1;
            left -= 1;
            if self.can_host(t, p) {
                enqueue(&mut least_q, &mut most_q, self.utilization(t), t);
            }
        }
        left
    }
}

/// Drop the matched requests from `pending`, keeping the order of the rest.
pub(super) fn retain_unmatched(pending: &mut VecDeque<u32>, matched: &[bool]) {
    let mut k = 0;
    pending.retain(|_| {
        let keep = !matched[k];
        k += 1;
        keep
    });
}
