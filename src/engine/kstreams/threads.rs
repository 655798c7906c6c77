//! Spreading one instance's tasks over its stream threads: Kafka's
//! `StreamsPartitionAssignor.assignTasksToThreads`, called three times per client
//! (stateful actives, standbys, stateless actives) with a running per-thread load.
//!
//! Stateful tasks first go back to the thread that owned them before (lowest lag
//! first), up to `floor(total / threads)`; the rest are dealt out in task order to
//! threads below that minimum, then to threads still at the minimum.

use super::assignor::Ctx;
use super::client_state::ConsumerState;
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// One stream thread's tasks (task indices) after a rebalance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadTasks {
    /// Stateful actives (or, from an assignor that assigns members, every active).
    pub stateful: Vec<usize>,
    /// Stateless actives.
    pub stateless: Vec<usize>,
    /// Standbys and warm-ups.
    pub standby: Vec<usize>,
}

/// The classic protocol's spreading of client `ci`'s assigned tasks over its
/// consumers (`consumers` in consumer-key order): stateful actives, then standbys,
/// then stateless actives, each with [`assign_to_threads`] over a running load.
pub fn distribute(ctx: &Ctx, ci: usize, consumers: &[ConsumerState]) -> Vec<ThreadTasks> {
    let c = &ctx.clients[ci];
    let metas = ctx.tasks;
    let n = consumers.len();
    let prev_by_lag = |k: usize| -> Vec<usize> {
        let mut v: Vec<usize> = consumers[k].prev.iter().copied().collect();
        v.stable_sort_by_key(|&t| (c.lag_for(t, metas), t));
        v
    };
    let sa: Vec<usize> = c.active.iter().copied().filter(|&t| metas[t].stateful).collect();
    let sl: Vec<usize> = c.active.iter().copied().filter(|&t| !metas[t].stateful).collect();
    let sb: Vec<usize> = c.standby.iter().copied().collect();
    let mut load = vec![0usize; n];
    let a1 = assign_to_threads(&sa, true, n, &prev_by_lag, &mut load);
    let s1 = assign_to_threads(&sb, true, n, &prev_by_lag, &mut load);
    let a2 = assign_to_threads(&sl, false, n, &prev_by_lag, &mut load);
    a1.into_iter()
        .zip(a2)
        .zip(s1)
        .map(|((stateful, stateless), standby)| ThreadTasks {
            stateful,
            stateless,
            standby,
        })
        .collect()
}

/// Assign `tasks` (sorted) to consumers `0..n` (sorted by consumer key).
///
/// `prev_by_lag(c)` lists the stateful tasks consumer `c` owned before, lowest lag
/// first. `load` is the running count per consumer and is updated.
///
/// Tie rules where Kafka leaves the order open: the leftover tasks are handed out
/// in task-id order (Kafka iterates its priority queue's internal array), and if
/// more tasks are left than consumers at the minimum (Kafka would hit a `null`
/// consumer), the extra ones go to the consumer with the lowest running load, then
/// the lowest consumer key.
pub fn assign_to_threads(
    tasks: &[usize],
    stateful: bool,
    n: usize,
    prev_by_lag: &dyn Fn(usize) -> Vec<usize>,
    load: &mut [usize],
) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    if n == 0 || tasks.is_empty() {
        return out;
    }
    let total: usize = load.iter().sum::<usize>() + tasks.len();
    let min = total / n;
    let mut unassigned: BTreeSet<usize> = tasks.iter().copied().collect();
    let mut to_fill: VecDeque<usize> = VecDeque::new();
    let mut skipped: BTreeMap<usize, usize> = BTreeMap::new();
    for c in 0..n {
        let target = min as i64 - load[c] as i64;
        if stateful {
            for t in prev_by_lag(c) {
                if unassigned.contains(&t) {
                    if (out[c].len() as i64) < target {
                        out[c].push(t);
                        unassigned.remove(&t);
                    } else {
                        skipped.insert(t, c);
                    }
                }
            }
        }
        if (out[c].len() as i64) < target {
            to_fill.push_back(c);
        }
    }
    while let Some(c) = to_fill.pop_front() {
        let Some(t) = unassigned.pop_first() else { break };
        out[c].push(t);
        if out[c].len() + load[c] < min {
            to_fill.push_back(c);
        }
    }
    if !unassigned.is_empty() {
        let mut at_min: VecDeque<usize> = (0..n).filter(|&c| out[c].len() + load[c] == min).collect();
        for (t, c) in skipped {
            if let Some(pos) = at_min.iter().position(|&x| x == c) {
                if unassigned.remove(&t) {
                    out[c].push(t);
                    at_min.remove(pos);
                }
            }
        }
        for t in std::mem::take(&mut unassigned) {
            let c = match at_min.pop_front() {
                Some(c) => c,
                None => (0..n).min_by_key(|&c| (out[c].len() + load[c], c)).unwrap_or(0),
            };
            out[c].push(t);
        }
    }
    for c in 0..n {
        load[c] += out[c].len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_evenly_and_keeps_previous_owners() {
        let mut load = vec![0; 3];
        let prev = |c: usize| if c == 2 { vec![0] } else { vec![] };
        let out = assign_to_threads(&[0, 1, 2, 3, 4], true, 3, &prev, &mut load);
        assert_eq!(load.iter().sum::<usize>(), 5);
        assert!(out[2].contains(&0), "task 0 stays on its previous thread");
        let mut sizes: Vec<usize> = out.iter().map(Vec::len).collect();
        sizes.stable_sort();
        assert_eq!(sizes, vec![1, 2, 2]);
    }
}
