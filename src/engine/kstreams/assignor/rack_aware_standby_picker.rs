//! The group coordinator's `RackAwareStandbyPicker` (KAFKA-20999): where the
//! standbys of one task go in a streams group when `rack.aware.assignment.tags` is
//! set, judged by the client tags of the processes.
//!
//! The tag keys are taken in the order the config lists them, the first one
//! counting most. For each standby the picker looks at the key currently in
//! charge: only eligible processes that carry a value for it which no holder of
//! the task carries yet survive. Among the survivors the one that is new on the
//! most lower-ranked keys, compared key by key from the top (a diversity vector
//! read as a binary number), wins; equally diverse survivors go to the
//! assignor's tie-break, then to the first in process order. When no process
//! survives, the key in charge is given up for this task and the next one takes
//! over; once every key is given up the picker answers nothing and the assignor's
//! tag-blind passes place the remaining standbys.
//!
//! The survivors of one pick (less the winner) are the pool of the next pick for
//! as long as the same key is in charge: a process filtered out stays out, since
//! the used values only grow and a holder stays a holder. Giving up a key starts
//! again from every process.
//!
//! Later upstream versions keep processes in `TagTree` and `IdenticalTagGroups`
//! (processes with identical tag values grouped, the groups kept in a tree by
//! load) to stay fast on large groups. lbscope follows the scanning version that
//! the assignor commit it follows calls; that the tree breaks every tie the same
//! way is not checked.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Picks the processes for the standbys of one task over the rack-aware tag keys.
#[derive(Clone, Debug)]
pub struct RackAwareStandbyPicker {
    keys: Vec<String>,
    /// Per process, per key: its value, if it has one.
    values: Vec<Vec<Option<String>>>,
    /// Per key: the values some holder of the task carries.
    used: Vec<BTreeSet<String>>,
    /// The key in charge (an index into `keys`).
    priority: usize,
    /// The pool the next pick filters, in process order.
    pool: Vec<usize>,
}

impl RackAwareStandbyPicker {
    /// A picker over `keys` (highest priority first) for processes whose client
    /// tags are `tags` (in process order); ready for a first task.
    pub fn new(keys: &[String], tags: &[BTreeMap<String, String>]) -> Self {
        let values = tags
            .iter()
            .map(|t| keys.iter().map(|k| t.get(k).cloned()).collect())
            .collect();
        RackAwareStandbyPicker {
            keys: keys.to_vec(),
            values,
            used: vec![BTreeSet::new(); keys.len()],
            priority: 0,
            pool: (0..tags.len()).collect(),
        }
    }

    /// Forget the previous task: no value used, the first key in charge, every
    /// process in the pool.
    pub fn start_task(&mut self) {
        for u in &mut self.used {
            u.clear();
        }
        self.priority = 0;
        self.pool = (0..self.values.len()).collect();
    }

    /// Process `p` holds the task: its values are used from now on.
    pub fn mark_used(&mut self, p: usize) {
        for (k, v) in self.values[p].iter().enumerate() {
            if let Some(v) = v {
                self.used[k].insert(v.clone());
            }
        }
    }

    fn new_on(&self, p: usize, k: usize) -> bool {
        self.values[p][k]
            .as_ref()
            .is_some_and(|v| !self.used[k].contains(v))
    }

    /// `Less` when `a` is more diverse than `b` on the keys below the one in charge.
    fn diversity(&self, a: usize, b: usize) -> Ordering {
        for k in self.priority + 1..self.keys.len() {
            match (self.new_on(a, k), self.new_on(b, k)) {
                (true, false) => return Ordering::Less,
                (false, true) => return Ordering::Greater,
                _ => {}
            }
        }
        Ordering::Equal
    }

    /// The process for the next standby, or `None` once no process can make the
    /// task more diverse. `eligible` says whether a process may take it (not a
    /// holder, room left); `tie_break` orders equally diverse processes, the
    /// preferred one `Less`. The caller marks the winner used once it places it.
    pub fn pick_next(
        &mut self,
        eligible: impl Fn(usize) -> bool,
        tie_break: impl Fn(usize, usize) -> Ordering,
    ) -> Option<usize> {
        while self.priority < self.keys.len() {
            let k = self.priority;
            let survivors: Vec<usize> = self
                .pool
                .iter()
                .copied()
                .filter(|&p| self.new_on(p, k) && eligible(p))
                .collect();
            if survivors.is_empty() {
                self.priority += 1;
                self.pool = (0..self.values.len()).collect();
                continue;
            }
            let mut best = survivors[0];
            for &c in &survivors[1..] {
                let by = self.diversity(c, best).then_with(|| tie_break(c, best));
                if by == Ordering::Less {
                    best = c;
                }
            }
            self.pool = survivors.into_iter().filter(|&p| p != best).collect();
            return Some(best);
        }
        None
    }
}
