//! The assignor's working view of one client (Kafka's `ClientState`): capacity
//! (its thread count), the tasks assigned so far, its previous tasks and the
//! lag it reports for every stateful task. Tasks and clients are dense indices:
//! tasks in `TaskId` order, clients in `ProcessId` order.

use super::client::ProcessId;
use super::task::TaskId;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Kafka's `Task.LATEST_OFFSET`: the lag a client reports for a task it runs as a
/// caught-up (running) active.
pub const LATEST_OFFSET: i64 = -2;

/// What the assignor knows about one task.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskMeta {
    /// Its id.
    pub id: TaskId,
    /// Has a changelog.
    pub stateful: bool,
    /// Sum of its changelog end offsets.
    pub end: u64,
    /// Its sub-topology has state stores (KIP-924's `TaskInfo.isStateful`, true
    /// also for stores without a changelog).
    pub has_stores: bool,
}

/// One consumer (stream thread) of a client.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerState {
    /// Thread index (`StreamThread-N`).
    pub index: u32,
    /// Stateful tasks it owned (active or standby) in the last assignment.
    pub prev: BTreeSet<usize>,
    /// Every active task it owned in the last assignment.
    pub prev_active: BTreeSet<usize>,
    /// Standby and warm-up tasks it owned in the last assignment.
    pub prev_standby: BTreeSet<usize>,
}

/// Kafka's `ClientState`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientState {
    /// Process id.
    pub pid: ProcessId,
    /// Instance name.
    pub name: std::sync::Arc<str>,
    /// Threads (capacity in the load formulas).
    pub capacity: u32,
    /// `client.rack`.
    pub rack: Option<String>,
    /// `client.tag.*`.
    pub tags: BTreeMap<String, String>,
    /// Active tasks assigned in this rebalance.
    pub active: BTreeSet<usize>,
    /// Standby tasks assigned in this rebalance.
    pub standby: BTreeSet<usize>,
    /// Active tasks it owned before.
    pub prev_active: BTreeSet<usize>,
    /// Tasks it had state for but did not own as active.
    pub prev_standby: BTreeSet<usize>,
    /// Reported lags of tasks it holds state for (others lag by the full end offset).
    pub lags: BTreeMap<usize, i64>,
    /// Its consumers in consumer-key order; empty for a client that held no task
    /// before (its `capacity` threads then all start empty).
    pub consumers: Vec<ConsumerState>,
}

impl ClientState {
    /// Active + standby count.
    pub fn assigned(&self) -> usize {
        self.active.len() + self.standby.len()
    }

    /// Has `t` as active or standby.
    pub fn has_assigned(&self, t: usize) -> bool {
        self.active.contains(&t) || self.standby.contains(&t)
    }

    /// The lag it reports for stateful task `t`.
    pub fn lag_for(&self, t: usize, tasks: &[TaskMeta]) -> i64 {
        self.lags
            .get(&t)
            .copied()
            .unwrap_or_else(|| tasks.get(t).map_or(0, |m| m.end as i64))
    }

    /// `assignedTaskLoad` as a fraction (count, capacity).
    pub fn assigned_load(&self) -> (usize, u32) {
        (self.assigned(), self.capacity)
    }

    /// `activeTaskLoad` as a fraction.
    pub fn active_load(&self) -> (usize, u32) {
        (self.active.len(), self.capacity)
    }
}

/// Compare two loads `count / capacity` exactly (the same answer as Java's
/// double division for these small integers).
pub fn cmp_load(a: (usize, u32), b: (usize, u32)) -> Ordering {
    let l = a.0 as u128 * u128::from(b.1.max(1));
    let r = b.0 as u128 * u128::from(a.1.max(1));
    l.cmp(&r)
}

/// Kafka's `ConstrainedPrioritySet.poll`: the client with the smallest load among
/// those passing `ok`, ties broken by process id (lowest index).
pub fn poll_least(
    clients: &[ClientState],
    load: impl Fn(&ClientState) -> (usize, u32),
    ok: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut best: Option<(usize, (usize, u32))> = None;
    for (i, c) in clients.iter().enumerate() {
        if !ok(i) {
            continue;
        }
        let l = load(c);
        match best {
            Some((_, bl)) if cmp_load(l, bl) != Ordering::Less => {}
            _ => best = Some((i, l)),
        }
    }
    best.map(|b| b.0)
}

/// Kafka's `hasMoreAvailableCapacityThan`: lower assigned load, or equal load and more threads.
pub fn has_more_available_capacity(a: &ClientState, b: &ClientState) -> bool {
    match cmp_load(a.assigned_load(), b.assigned_load()) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => a.capacity > b.capacity,
    }
}
