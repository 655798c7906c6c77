//! Standby placement: Kafka's `DefaultStandbyTaskAssignor` (least-loaded client
//! without a copy) and `ClientTagAwareStandbyTaskAssignor` (spread copies over
//! different values of the `rack.aware.assignment.tags`, falling back to least
//! loaded).
//!
//! Choice (Kafka's `StandbyTaskAssignorFactory`): tag-aware with the client tags
//! when `rack.aware.assignment.tags` is set; otherwise tag-aware with the single
//! tag `rack = client.rack` when every member has a `client.rack`; otherwise the
//! default. (Kafka's legacy high-availability assignor passes no rack information
//! to the factory, so it only uses tags; lbscope follows the architecture doc and
//! the factory and also uses `client.rack` — see the crate notes.)

use super::assignor::{Ctx, Reason};
use super::client_state::{poll_least, ClientState};
use std::collections::{BTreeMap, BTreeSet};

/// Which standby assignor.
#[derive(Clone, Debug, PartialEq)]
pub enum StandbyAssignor {
    /// Least loaded.
    Default,
    /// Tag-aware over these tag keys; `rack_as_tag` uses `client.rack` as tag `rack`.
    TagAware {
        /// Tag keys to spread over.
        keys: BTreeSet<String>,
        /// Use `client.rack` as the only tag.
        rack_as_tag: bool,
    },
}

impl StandbyAssignor {
    /// Kafka's factory rule.
    pub fn choose(ctx: &Ctx) -> Self {
        if !ctx.cfg.rack_aware_assignment_tags.is_empty() {
            StandbyAssignor::TagAware {
                keys: ctx.cfg.rack_aware_assignment_tags.iter().cloned().collect(),
                rack_as_tag: false,
            }
        } else if !ctx.clients.is_empty() && ctx.clients.iter().all(|c| c.rack.is_some()) {
            StandbyAssignor::TagAware {
                keys: ["rack".to_string()].into_iter().collect(),
                rack_as_tag: true,
            }
        } else {
            StandbyAssignor::Default
        }
    }

    fn tags(&self, c: &ClientState) -> BTreeMap<String, String> {
        match self {
            StandbyAssignor::TagAware {
                rack_as_tag: true, ..
            } => c.rack.iter().map(|r| ("rack".to_string(), r.clone())).collect(),
            _ => c.tags.clone(),
        }
    }

    /// Kafka's two-argument `isAllowedTaskMovement` (used when balancing): for the
    /// tag-aware assignor, every tag of the source must have the same value on the
    /// destination.
    pub fn allowed_move(&self, s: &ClientState, d: &ClientState) -> bool {
        match self {
            StandbyAssignor::Default => true,
            StandbyAssignor::TagAware { .. } => {
                let (st, dt) = (self.tags(s), self.tags(d));
                st.iter().all(|(k, v)| dt.get(k) == Some(v))
            }
        }
    }

    /// Kafka's four-argument `isAllowedTaskMovement` (used by the rack optimizer):
    /// the move must not reduce the number of distinct tag entries among the task's copies.
    pub fn allowed_move_of(&self, clients: &[ClientState], s: usize, d: usize, t: usize) -> bool {
        match self {
            StandbyAssignor::Default => true,
            StandbyAssignor::TagAware { .. } => {
                let mut with_src = BTreeSet::new();
                let mut with_dst = BTreeSet::new();
                for (i, c) in clients.iter().enumerate() {
                    if i != s && i != d && c.has_assigned(t) {
                        with_src.extend(self.tags(c));
                        with_dst.extend(self.tags(c));
                    }
                }
                with_src.extend(self.tags(&clients[s]));
                with_dst.extend(self.tags(&clients[d]));
                with_dst.len() >= with_src.len()
            }
        }
    }

    /// Assign `num.standby.replicas` standbys per stateful task.
    pub fn assign(&self, ctx: &mut Ctx, stateful: &[usize]) {
        let want = ctx.cfg.num_standby_replicas;
        match self {
            StandbyAssignor::Default => {
                for &t in stateful {
                    least_loaded(ctx, t, want);
                }
            }
            StandbyAssignor::TagAware { keys, .. } => {
                let mut values: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
                for c in &ctx.clients {
                    for (k, v) in self.tags(c) {
                        values.entry(k).or_default().insert(v);
                    }
                }
                let mut pending: BTreeMap<usize, u32> = stateful.iter().map(|&t| (t, want)).collect();
                for &t in stateful {
                    let owners: Vec<usize> = (0..ctx.clients.len())
                        .filter(|&c| ctx.clients[c].active.contains(&t))
                        .collect();
                    for owner in owners {
                        let left = self.with_different_tags(
                            ctx,
                            t,
                            owner,
                            keys,
                            &values,
                            pending.get(&t).copied().unwrap_or(0),
                        );
                        if left > 0 {
                            pending.insert(t, left);
                        } else {
                            pending.remove(&t);
                        }
                    }
                }
                // Kafka iterates a HashMap here; lbscope goes in task order.
                for (t, left) in pending {
                    if left > 0 {
                        least_loaded(ctx, t, left);
                    }
                }
            }
        }
    }

    fn with_different_tags(
        &self,
        ctx: &mut Ctx,
        t: usize,
        owner: usize,
        keys: &BTreeSet<String>,
        values: &BTreeMap<String, BTreeSet<String>>,
        mut left: u32,
    ) -> u32 {
        let mut used_clients = 1usize;
        let mut used: BTreeSet<(String, String)> = BTreeSet::new();
        let mut last = owner;
        while left > 0 {
            for (k, v) in self.tags(&ctx.clients[last]) {
                if !keys.contains(&k) {
                    continue;
                }
                let all = values.get(&k).map_or(0, |s| s.len());
                if all <= used_clients {
                    // Every value of this key is used: allow them all again.
                    used.retain(|(uk, _)| *uk != k);
                } else {
                    used.insert((k, v));
                }
            }
            let pick = {
                let c: &Ctx = ctx;
                poll_least(
                    &c.clients,
                    |x| x.assigned_load(),
                    |i| {
                        if c.clients[i].has_assigned(t) {
                            return false;
                        }
                        let tags = self.tags(&c.clients[i]);
                        !used.iter().any(|(k, v)| tags.get(k) == Some(v))
                    },
                )
            };
            let Some(p) = pick else { break };
            used_clients += 1;
            left -= 1;
            ctx.add_standby(p, t, Reason::TagDiverse);
            last = p;
        }
        left
    }
}

fn least_loaded(ctx: &mut Ctx, t: usize, want: u32) {
    let mut placed = 0;
    while placed < want {
        let pick = {
            let c: &Ctx = ctx;
            poll_least(
                &c.clients,
                |x| x.assigned_load(),
                |i| !c.clients[i].has_assigned(t),
            )
        };
        let Some(p) = pick else { break };
        ctx.add_standby(p, t, Reason::LeastLoaded);
        placed += 1;
    }
    if placed < want {
        let id = ctx.tasks[t].id;
        ctx.log.push(super::Event::Warning {
            message: format!(
                "unable to assign {} of {want} standby replicas for task {id}: not enough instances without a copy",
                want - placed
            ),
        });
    }
}
