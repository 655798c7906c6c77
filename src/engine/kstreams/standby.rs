//! Standby placement: Kafka's `DefaultStandbyTaskAssignor` (least-loaded client
//! without a copy) and `ClientTagAwareStandbyTaskAssignor` (spread copies over
//! different values of the `rack.aware.assignment.tags`, falling back to least
//! loaded).
//!
//! Choice (Kafka's `StandbyTaskAssignorFactory.create(configs, rackAwareTaskAssignor)`):
//! tag-aware with the client tags when `rack.aware.assignment.tags` is set;
//! otherwise, *if a `RackAwareTaskAssignor` is passed* and every client has a valid
//! `client.rack`, tag-aware with the single tag `rack = client.rack`; otherwise the
//! default. The `HighAvailabilityTaskAssignor` calls the factory with `null` for the
//! rack-aware assignor, so with `client.rack` but no `rack.aware.assignment.tags` its
//! standbys go to the least-loaded client without a copy whatever
//! `rack.aware.assignment.strategy` says: `client.rack` alone does not spread
//! standbys over racks (the course document says it can). Under `min_traffic` and
//! `balance_subtopology` the rack-aware optimizer afterwards swaps standbys between
//! clients on different racks to cut *changelog* cross-rack traffic, which is a
//! different goal. lbscope models the factory as a whole ([`StandbyAssignor::from_factory`])
//! and calls it exactly as the high-availability assignor does ([`StandbyAssignor::choose`]).

use super::assignor::{Ctx, Reason};
use super::client_state::poll_least;
use crate::engine::strategy::StrategyInfo;
use std::collections::{BTreeMap, BTreeSet};

/// Interned `(tag key, tag value)`.
type Tag = (u32, u32);

/// The chosen standby assignor with each client's tags (by client index) cached
/// as interned, sorted `(key, value)` ids.
#[derive(Clone, Debug, PartialEq)]
pub struct StandbyAssignor {
    /// Which one.
    pub kind: StandbyKind,
    /// The tag keys it spreads copies over (empty for the default assignor).
    pub keys: Vec<String>,
    tags: Vec<Vec<Tag>>,
    /// Interned ids of the rack-aware tag keys.
    rack_keys: Vec<u32>,
    /// Distinct values per key id over all clients.
    values_per_key: Vec<usize>,
}

/// Which standby assignor.
#[derive(Clone, Debug, PartialEq)]
pub enum StandbyKind {
    /// Least loaded.
    Default,
    /// Tag-aware over the rack-aware tag keys; `rack_as_tag` uses `client.rack` as tag `rack`.
    TagAware {
        /// Use `client.rack` as the only tag.
        rack_as_tag: bool,
    },
}

/// The registry entries of the standby assignors. Kafka picks one from the
/// config (`StandbyTaskAssignorFactory`), not by a class name: standbys at all
/// need `num.standby.replicas` > 0, and `rack.aware.assignment.tags` makes the
/// assignor tag-aware; [`crate::engine::kstreams::Sim`]'s `strategy_config`
/// sets both for the tag-aware entry.
pub fn infos() -> Vec<StrategyInfo> {
    vec![
        StrategyInfo {
            key: "num.standby.replicas",
            name: "1",
            upstream: "DefaultStandbyTaskAssignor",
            summary: "each stateful task's standbys go to the least-loaded clients that hold no copy of it yet",
            file: "kstreams/standby.rs",
        },
        StrategyInfo {
            key: TAG_AWARE_KEY,
            name: TAG_AWARE_EXAMPLE,
            upstream: "ClientTagAwareStandbyTaskAssignor",
            summary: "standbys go to clients whose tag values (rack.aware.assignment.tags) differ from the other copies', least loaded first",
            file: "kstreams/standby.rs",
        },
    ]
}

/// The key of the tag-aware entry.
pub const TAG_AWARE_KEY: &str = "rack.aware.assignment.tags";
/// The tag keys the tag-aware entry selects (a JSON list, as scenarios write it).
pub const TAG_AWARE_EXAMPLE: &str = r#"["zone"]"#;

impl StandbyAssignor {
    /// Kafka's class name of the chosen standby assignor.
    pub fn class_name(&self) -> &'static str {
        match self.kind {
            StandbyKind::Default => "DefaultStandbyTaskAssignor",
            StandbyKind::TagAware { .. } => "ClientTagAwareStandbyTaskAssignor",
        }
    }

    /// The standby assignor the `HighAvailabilityTaskAssignor` uses: Kafka's factory
    /// called without a rack-aware assignor, so `client.rack` never makes it tag-aware.
    pub fn choose(ctx: &Ctx) -> Self {
        Self::from_factory(ctx, false)
    }

    /// Kafka's `StandbyTaskAssignorFactory.create`: `with_rack_aware_assignor` says
    /// whether a `RackAwareTaskAssignor` is passed (then `client.rack` on every client
    /// makes it tag-aware over the single tag `rack`).
    pub fn from_factory(ctx: &Ctx, with_rack_aware_assignor: bool) -> Self {
        let (kind, keys): (StandbyKind, Vec<String>) = if !ctx.cfg.rack_aware_assignment_tags.is_empty() {
            (
                StandbyKind::TagAware { rack_as_tag: false },
                ctx.cfg.rack_aware_assignment_tags.clone(),
            )
        } else if with_rack_aware_assignor
            && !ctx.clients.is_empty()
            && ctx.clients.iter().all(|c| c.rack.is_some())
        {
            (
                StandbyKind::TagAware { rack_as_tag: true },
                vec!["rack".to_string()],
            )
        } else {
            (StandbyKind::Default, Vec::new())
        };
        let rack_as_tag = kind == StandbyKind::TagAware { rack_as_tag: true };
        let mut key_ids: BTreeMap<String, u32> = BTreeMap::new();
        let mut val_ids: BTreeMap<String, u32> = BTreeMap::new();
        let intern = |m: &mut BTreeMap<String, u32>, s: &str| -> u32 {
            let n = m.len() as u32;
            *m.entry(s.to_string()).or_insert(n)
        };
        let mut tags = Vec::with_capacity(ctx.clients.len());
        for c in &ctx.clients {
            let raw: Vec<(String, String)> = if rack_as_tag {
                c.rack.iter().map(|r| ("rack".to_string(), r.clone())).collect()
            } else {
                c.tags.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
            };
            let mut v: Vec<Tag> = raw
                .iter()
                .map(|(k, x)| (intern(&mut key_ids, k), intern(&mut val_ids, x)))
                .collect();
            v.sort_unstable();
            tags.push(v);
        }
        let rack_keys: Vec<u32> = keys.iter().filter_map(|k| key_ids.get(k).copied()).collect();
        let mut distinct: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); key_ids.len()];
        for v in &tags {
            for &(k, x) in v {
                distinct[k as usize].insert(x);
            }
        }
        StandbyAssignor {
            kind,
            keys,
            tags,
            rack_keys,
            values_per_key: distinct.iter().map(BTreeSet::len).collect(),
        }
    }

    fn tags_of(&self, i: usize) -> &[Tag] {
        self.tags.get(i).map_or(&[], |v| v.as_slice())
    }

    /// Kafka's two-argument `isAllowedTaskMovement` (used when balancing): for the
    /// tag-aware assignor, every tag of the source must have the same value on the
    /// destination.
    pub fn allowed_move(&self, s: usize, d: usize) -> bool {
        match self.kind {
            StandbyKind::Default => true,
            StandbyKind::TagAware { .. } => {
                let dt = self.tags_of(d);
                self.tags_of(s).iter().all(|x| dt.binary_search(x).is_ok())
            }
        }
    }

    /// A class per client (`0..n`) such that [`Self::allowed_move_of`] depends on a
    /// destination that holds no copy of the task only through its class: clients
    /// with the same tags share a class (one class for the default assignor).
    pub fn move_classes(&self, n: usize) -> Vec<usize> {
        match self.kind {
            StandbyKind::Default => vec![0; n],
            StandbyKind::TagAware { .. } => {
                let mut seen: Vec<&[Tag]> = Vec::new();
                (0..n)
                    .map(|i| {
                        let t = self.tags_of(i);
                        seen.iter().position(|s| *s == t).unwrap_or_else(|| {
                            seen.push(t);
                            seen.len() - 1
                        })
                    })
                    .collect()
            }
        }
    }

    /// Kafka's four-argument `isAllowedTaskMovement` (used by the rack optimizer):
    /// the move must not reduce the number of distinct tag entries among the task's
    /// copies. `holders` are the clients that have the task (active or standby).
    pub fn allowed_move_of(&self, holders: &[usize], s: usize, d: usize) -> bool {
        match self.kind {
            StandbyKind::Default => true,
            StandbyKind::TagAware { .. } => {
                // Distinct tag entries among the other holders plus one end, counted
                // without allocating (a few holders with at most 5 tags each).
                let count = |extra: usize| {
                    let sets = holders
                        .iter()
                        .copied()
                        .filter(|&i| i != s && i != d)
                        .chain([extra]);
                    let all: Vec<&[Tag]> = sets.map(|i| self.tags_of(i)).collect();
                    let mut n = 0;
                    for (a, tags) in all.iter().enumerate() {
                        for (b, x) in tags.iter().enumerate() {
                            let seen = all[..a].iter().any(|o| o.contains(x)) || tags[..b].contains(x);
                            if !seen {
                                n += 1;
                            }
                        }
                    }
                    n
                };
                count(d) >= count(s)
            }
        }
    }

    /// Assign `num.standby.replicas` standbys per stateful task.
    pub fn assign(&self, ctx: &mut Ctx, stateful: &[usize]) {
        let want = ctx.standby_replicas;
        let mut holders: Vec<Vec<usize>> = vec![Vec::new(); ctx.tasks.len()];
        let mut owner: Vec<Option<usize>> = vec![None; ctx.tasks.len()];
        for (k, c) in ctx.clients.iter().enumerate() {
            for &t in &c.active {
                holders[t].push(k);
                owner[t] = Some(k);
            }
            for &t in &c.standby {
                holders[t].push(k);
            }
        }
        match self.kind {
            StandbyKind::Default => {
                for &t in stateful {
                    least_loaded(ctx, t, want, &mut holders[t]);
                }
            }
            StandbyKind::TagAware { .. } => {
                let mut pending: BTreeMap<usize, u32> = stateful.iter().map(|&t| (t, want)).collect();
                for &t in stateful {
                    if let Some(o) = owner[t] {
                        let left = self.with_different_tags(ctx, t, o, want, &mut holders[t]);
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
                        least_loaded(ctx, t, left, &mut holders[t]);
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
        mut left: u32,
        holders: &mut Vec<usize>,
    ) -> u32 {
        let mut used_clients = 1usize;
        let mut used: Vec<Tag> = Vec::new();
        let mut last = owner;
        while left > 0 {
            for &(k, v) in self.tags_of(last) {
                if !self.rack_keys.contains(&k) {
                    continue;
                }
                let all = self.values_per_key.get(k as usize).copied().unwrap_or(0);
                if all <= used_clients {
                    // Every value of this key is used: allow them all again.
                    used.retain(|(uk, _)| *uk != k);
                } else if !used.contains(&(k, v)) {
                    used.push((k, v));
                }
            }
            let pick = {
                let h: &[usize] = holders;
                poll_least(
                    &ctx.clients,
                    |x| x.assigned_load(),
                    |i| !h.contains(&i) && !self.tags_of(i).iter().any(|x| used.contains(x)),
                )
            };
            let Some(p) = pick else { break };
            used_clients += 1;
            left -= 1;
            ctx.add_standby(p, t, Reason::TagDiverse);
            holders.push(p);
            last = p;
        }
        left
    }
}

fn least_loaded(ctx: &mut Ctx, t: usize, want: u32, holders: &mut Vec<usize>) {
    let mut placed = 0;
    while placed < want {
        let pick = {
            let h: &[usize] = holders;
            poll_least(&ctx.clients, |x| x.assigned_load(), |i| !h.contains(&i))
        };
        let Some(p) = pick else { break };
        ctx.add_standby(p, t, Reason::LeastLoaded);
        holders.push(p);
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
