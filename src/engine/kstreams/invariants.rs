//! What must hold after every action: while the group has members, every task
//! has exactly one active owner among them; no instance holds a task twice; a
//! standby never sits on its active's instance; an instance out of the group
//! holds nothing; an instance's threads differ by at most one task (under the
//! streams group protocol: no member holds more active tasks than its quota);
//! and the warm-ups stay within `max.warmup.replicas`.

use super::Sim;
use crate::engine::Engine;
use std::collections::BTreeSet;

/// `Err` names the first broken invariant.
pub fn check(sim: &Sim) -> Result<(), String> {
    // Instances still joining (in a setup's run of joins) wait for the rebalance
    // of the run: they hold nothing and are not counted yet.
    let joining: BTreeSet<&str> = sim.joining.iter().map(String::as_str).collect();
    let members: BTreeSet<&str> = sim
        .members()
        .iter()
        .map(|m| m.name.as_str())
        .filter(|n| !joining.contains(n))
        .collect();
    for t in sim.tasks() {
        let owners: Vec<&str> = sim
            .instances()
            .values()
            .filter(|i| i.active_tasks().contains(&t.id))
            .map(|i| i.name.as_str())
            .collect();
        if members.is_empty() {
            if !owners.is_empty() {
                return Err(format!("task {} is owned with no member in the group", t.id));
            }
            continue;
        }
        if owners.len() != 1 || !members.contains(owners[0]) {
            return Err(format!("task {} has active owners {owners:?}", t.id));
        }
        for i in sim.instances().values() {
            let copies: usize = i
                .threads
                .iter()
                .map(|th| {
                    th.active
                        .iter()
                        .chain(th.standby.iter())
                        .filter(|x| **x == t.id)
                        .count()
                })
                .sum();
            if copies > 1 {
                return Err(format!("{} holds {} twice", i.name, t.id));
            }
        }
        if sim.standby_owners(t.id).contains(&owners[0]) {
            return Err(format!("the standby of {} is on its active's instance", t.id));
        }
    }
    // Under the streams group protocol the group coordinator assigns each
    // member (one per stream thread) on its own: a member stays sticky to its
    // previous tasks while under the per-member quota, so a new thread of an
    // instance may get nothing while its siblings keep theirs
    // (`StickyTaskAssignor.assignActive`, step 1). What holds there instead is
    // the quota itself: no member ends with more active tasks than
    // `ceil(tasks / members)` (the quotas only shrink as members fill up, and
    // the least-loaded pass adds to a member below the group's average). The
    // balanced assignor levels a process's members on all their tasks, so a
    // member may run more actives than that while a sibling holds standbys.
    let streams = sim.config().assignor() == super::assignor::Assignor::StreamsGroupSticky;
    let member_count: usize = sim
        .instances()
        .values()
        .filter(|i| i.is_member() && !joining.contains(i.name.as_str()))
        .map(|i| i.threads.len())
        .sum();
    let active_quota = sim.tasks().len().div_ceil(member_count.max(1));
    let mut warm = 0usize;
    for i in sim.instances().values() {
        warm += i.warmups.len();
        if !i.is_member() {
            if !(i.active_tasks().is_empty() && i.standby_tasks().is_empty()) {
                return Err(format!("{} is out of the group but holds tasks", i.name));
            }
            continue;
        }
        if streams {
            if let Some(t) = i.threads.iter().find(|t| t.active.len() > active_quota) {
                return Err(format!(
                    "a member of {} holds {} active tasks, above the quota of {active_quota} ({} tasks over {member_count} members)",
                    i.name,
                    t.active.len(),
                    sim.tasks().len()
                ));
            }
            continue;
        }
        let loads: Vec<usize> = i
            .threads
            .iter()
            .map(|t| t.active.len() + t.standby.len())
            .collect();
        let (lo, hi) = (
            loads.iter().min().copied().unwrap_or(0),
            loads.iter().max().copied().unwrap_or(0),
        );
        if hi - lo > 1 {
            return Err(format!(
                "{} thread loads {loads:?} differ by more than one",
                i.name
            ));
        }
    }
    let threads: usize = sim.instances().values().map(|i| i.threads.len()).sum();
    if threads != sim.total_threads {
        return Err(format!(
            "{threads} stream threads counted as {}",
            sim.total_threads
        ));
    }
    let ids: BTreeSet<_> = sim.instances().values().map(|i| i.process_id).collect();
    if ids != sim.process_ids {
        return Err("the process id index differs from the instances".into());
    }
    if warm as u64 > u64::from(sim.config().max_warmup_replicas) {
        return Err(format!("{warm} warm-ups, above max.warmup.replicas"));
    }
    Ok(())
}
