//! Flink's `TasksBalancedRequestSlotMatchingStrategy`
//! (`taskmanager.load-balance.mode: tasks`): once there are at least as many free
//! slots as pending requests and the [`ResourceRequestPreMappings`] say every
//! request can be served, requests by task count (descending, stable) each go to
//! the TaskManager with the fewest tasks of this job that still has a matching
//! free slot. With fewer slots than requests (a partial view) requests are served
//! one by one in request order from the slots already there, as Flink's
//! allocate-from-available-slots path does; with an unfulfillable pre-mapping
//! nothing is matched and the batch waits.

use super::RequestSlotMatchingStrategy;
use crate::engine::flink::metrics::TmCount;
use crate::engine::flink::resource_profile::ResourceProfile;
use crate::engine::flink::resource_request_pre_mappings::ResourceRequestPreMappings;
use crate::engine::flink::slot_matching::{
    retain_unmatched, MatchCtx, MatchRule, RequestMatching, View, MAX_LISTED_CANDIDATES,
};
use crate::engine::flink::task_manager::SlotAddr;
use crate::engine::flink::{Event, ProfileCount};
use crate::engine::strategy::StrategyInfo;
use crate::sort::StableSort;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// `TasksBalancedRequestSlotMatchingStrategy`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TasksBalancedRequestSlotMatchingStrategy;

impl RequestSlotMatchingStrategy for TasksBalancedRequestSlotMatchingStrategy {
    fn id(&self) -> RequestMatching {
        RequestMatching::TasksBalanced
    }

    fn info(&self) -> StrategyInfo {
        StrategyInfo {
            key: "taskmanager.load-balance.mode",
            name: "tasks",
            upstream: "org.apache.flink.runtime.jobmaster.slotpool.TasksBalancedRequestSlotMatchingStrategy",
            summary: "with a full view, requests by task count descending, each to the TaskManager with the fewest tasks of the job",
            file: "flink/request_slot_matching/tasks_balanced_request_slot_matching_strategy.rs",
        }
    }

    fn match_requests(
        &self,
        ctx: &mut MatchCtx<'_>,
        view: &mut View,
        pending: &mut VecDeque<u32>,
        _prefer: &[Option<SlotAddr>],
    ) -> Vec<Event> {
        if view.len() < pending.len() || pending.is_empty() {
            return fewest_tasks(ctx, view, pending, false, None);
        }
        let pending_profiles: Vec<ResourceProfile> = pending
            .iter()
            .map(|&r| {
                ctx.profiles
                    .get(r as usize)
                    .copied()
                    .unwrap_or(ResourceProfile::Unknown)
            })
            .collect();
        match ResourceRequestPreMappings::create_from(&pending_profiles, &view.profiles()) {
            Ok(mut m) if m.is_matching_fulfilled() => fewest_tasks(ctx, view, pending, true, Some(&mut m)),
            _ => vec![Event::PreMappingUnfulfilled {
                at_ms: ctx.at_ms,
                pending: pending_profiles.len() as u32,
                free_slots: view.len() as u32,
                requested: profile_counts(pending_profiles.iter().copied()),
                offered: profile_counts(view.profiles().into_iter()),
            }],
        }
    }
}

fn profile_counts(it: impl Iterator<Item = ResourceProfile>) -> Vec<ProfileCount> {
    let mut m: BTreeMap<ResourceProfile, u32> = BTreeMap::new();
    for p in it {
        *m.entry(p).or_insert(0) += 1;
    }
    m.into_iter()
        .map(|(profile, n)| ProfileCount { profile, n })
        .collect()
}

/// Fewest-tasks matching. With `sorted`, requests are taken by task count descending
/// (stable), as the tasks-balanced strategy does with a full view; without, in request
/// order (serving requests one by one from a partial view). Each request goes to the
/// TaskManager with the fewest tasks among those with a free slot in view that
/// matches its profile (and that the pre-mapping, if given, still allows). Requests
/// left when no slot fits stay in `pending` (in their order).
pub fn fewest_tasks(
    ctx: &mut MatchCtx<'_>,
    view: &mut View,
    pending: &mut VecDeque<u32>,
    sorted: bool,
    mut premap: Option<&mut ResourceRequestPreMappings>,
) -> Vec<Event> {
    let mut order: Vec<(usize, u32)> = pending.iter().copied().enumerate().collect();
    if sorted {
        order.stable_sort_by_key(|&(_, r)| Reverse(ctx.tasks.get(r as usize).copied().unwrap_or(0)));
    }
    let full_view = view.len() >= pending.len();
    // Candidates per slot profile: (tasks of the job on the TaskManager, TaskManager).
    let mut candidates: BTreeMap<ResourceProfile, BTreeSet<(u32, usize)>> = BTreeMap::new();
    for t in 0..ctx.cluster.tms.len() {
        for (p, q) in &view.free[t] {
            if !q.is_empty() {
                candidates.entry(*p).or_default().insert((ctx.tm_tasks[t], t));
            }
        }
    }
    let mut events = Vec::new();
    let mut matched = vec![false; pending.len()];
    for &(k, request) in &order {
        let rp = ctx.profile(request);
        let usable: Vec<ResourceProfile> = candidates
            .iter()
            .filter(|(sp, set)| {
                !set.is_empty()
                    && sp.is_matching(rp)
                    && premap.as_ref().is_none_or(|m| m.has_available_profile(rp, **sp))
            })
            .map(|(sp, _)| *sp)
            .collect();
        let best = usable
            .iter()
            .filter_map(|sp| candidates[sp].first().map(|&(l, t)| (l, t, *sp)))
            .min();
        let Some((load, t, sp)) = best else {
            continue;
        };
        let rule = if ctx.summarise {
            MatchRule::FewestTasks {
                full_view,
                candidates: Vec::new(),
                more_candidates: 0,
            }
        } else {
            let mut listed: Vec<(u32, usize)> = Vec::new();
            let mut total = 0usize;
            for p in &usable {
                let set = &candidates[p];
                total += set.len();
                listed.extend(set.iter().take(MAX_LISTED_CANDIDATES).copied());
            }
            listed.sort_unstable();
            listed.dedup_by_key(|x| x.1);
            listed.truncate(MAX_LISTED_CANDIDATES);
            let shown = listed.len();
            listed.sort_unstable_by_key(|&(_, tm)| tm);
            MatchRule::FewestTasks {
                full_view,
                candidates: listed
                    .into_iter()
                    .map(|(n, tm)| TmCount {
                        tm: ctx.cluster.tms[tm].name.clone(),
                        n,
                    })
                    .collect(),
                more_candidates: total.saturating_sub(shown) as u32,
            }
        };
        let Some(slot) = view.take(t, sp) else { continue };
        // Re-key t in every profile set it is in.
        let profiles_of_t: Vec<ResourceProfile> = candidates
            .iter()
            .filter(|(_, set)| set.contains(&(load, t)))
            .map(|(p, _)| *p)
            .collect();
        let tasks = ctx.place(request, t, slot);
        for p in profiles_of_t {
            let set = candidates.get_mut(&p).expect("profile present");
            set.remove(&(load, t));
            if view.free[t].get(&p).is_some_and(|q| !q.is_empty()) {
                set.insert((ctx.tm_tasks[t], t));
            }
        }
        if let Some(m) = premap.as_deref_mut() {
            // The candidate was allowed, so the pre-mapping can always be decreased.
            let _ = m.decrease(rp, sp);
        }
        matched[k] = true;
        ctx.report(&mut events, request, t, slot, tasks, rule);
    }
    retain_unmatched(pending, &matched);
    events
}
