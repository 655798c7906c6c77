//! Many lookups in a row (a bulk topic creation, a partitioned topic, the
//! assign phase): the same decisions, events and RNG draws as one
//! [`Sim::lookup_bundle`] each, with the brokers' figures read once.
//!
//! A lookup by the modular load manager with LeastLongTermMessageRate reads,
//! for every alive broker, its load data, its topic count (preallocated bundles
//! included), its bundles of the namespace and its score; placing a bundle
//! changes these for the winner only (the bundle is preallocated to it and it
//! owns one bundle more). So the figures are read into a [`Table`] once, and
//! after each assignment only the winner's are read again, from the same
//! fields the lookup reads. The candidates of each lookup then come from
//! arrays instead of walks of the broker and load-data maps.
//!
//! The table is used only where the filters it leaves out could not act for
//! the whole run of lookups: every alive broker has load data and is under
//! the overload threshold, no broker is over `loadBalancerBrokerMaxTopics`,
//! the namespace has no anti-affinity group, is not shedding-excluded, and its
//! isolation policies (if any) keep every broker. A bundle with an unload
//! destination or an AvgShedder plan, and every other case, takes
//! [`Sim::lookup_bundle`].

use super::assign::{distribute_evenly_reason, placement_context, push_filtered};
use super::config::{LoadManager, PlacementStrategy};
use super::ids::NamespaceName;
use super::isolation;
use super::load::{BrokerData, BrokerId, BundleId};
use super::namespace::SYSTEM_NAMESPACE;
use super::place::least_long_term_message_rate::{score, Least, Lowest, TOP_SCORES};
use super::place::{PlaceEvent, PlacementFilter, MAX_LISTED};
use super::shed::shared::weights;
use super::{Event, Sim};

/// What is left of a bulk creation applied in parts ([`Engine::apply_part`]):
/// its topics are in, and these bundles are still to be looked up.
///
/// [`Engine::apply_part`]: crate::engine::Engine::apply_part
#[derive(Debug)]
pub struct Lookups {
    /// The touched bundles, in the order of the lookups.
    pub(crate) bids: Vec<BundleId>,
    /// How many are looked up.
    pub(crate) next: usize,
    /// The action's weight.
    pub(crate) weight: u64,
}

/// The alive brokers' figures for the lookups of one namespace, in name order.
struct Table {
    namespace: NamespaceName,
    ids: Vec<BrokerId>,
    /// Bundles of the namespace owned (read only when `evenly`).
    owned: Vec<usize>,
    /// LeastLongTermMessageRate's scores.
    scores: Vec<Option<f64>>,
    /// Whether `removeMostServicingBrokersForNamespace` runs (the setting, or
    /// the system namespace).
    evenly: bool,
    /// It runs for the system namespace only, not by the setting.
    system_only: bool,
    /// What the lookup event says of the pick.
    how: String,
    /// Reused buffers: the candidates' and the best's positions, the lowest
    /// scores, and the first [`MAX_LISTED`] positions the first filter removed.
    cands: Vec<usize>,
    best: Vec<usize>,
    low: Lowest,
    removed: Vec<usize>,
}

/// Where the lookups stand.
enum Mode {
    /// No table yet (or the last one no longer holds).
    Unknown,
    /// The table of its namespace.
    Ready(Table),
    /// A namespace that takes the one-by-one lookup.
    OneByOne(NamespaceName),
}

#[cfg(test)]
thread_local! {
    /// Tests: look up one bundle at a time (to compare the table with it).
    static ONE_BY_ONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// Tests: how many lookups the table decided.
    static FROM_TABLE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether the lookups must go one by one (tests only).
#[inline(always)]
fn one_by_one_only() -> bool {
    #[cfg(test)]
    return ONE_BY_ONE.with(|g| g.get());
    #[cfg(not(test))]
    false
}

impl Sim {
    /// [`Sim::lookup_bundle`] for each of `bids`, in order.
    pub(crate) fn lookup_bundles<'b>(
        &mut self,
        bids: impl IntoIterator<Item = &'b BundleId>,
        ev: &mut Vec<Event>,
    ) {
        let mut mode = Mode::Unknown;
        for bid in bids {
            let Some(st) = self.bundles.get(bid) else {
                continue;
            };
            if !st.awaits_lookup() {
                continue;
            }
            let fixed = st.planned.is_some() || st.affinity.is_some();
            if one_by_one_only() || fixed {
                self.lookup_bundle(bid, ev);
                mode = Mode::Unknown;
                continue;
            }
            let same = match &mode {
                Mode::Ready(t) => t.namespace == bid.namespace,
                Mode::OneByOne(ns) => *ns == bid.namespace,
                Mode::Unknown => false,
            };
            if !same {
                mode = match self.table(&bid.namespace) {
                    Some(t) => Mode::Ready(t),
                    None => Mode::OneByOne(bid.namespace.clone()),
                };
            }
            match &mut mode {
                Mode::Ready(t) => {
                    if !self.place_from(t, bid, ev) {
                        mode = Mode::OneByOne(bid.namespace.clone());
                    }
                }
                _ => self.lookup_bundle(bid, ev),
            }
        }
    }

    /// The table for lookups in `ns`, when nothing it leaves out could act.
    fn table(&self, ns: &NamespaceName) -> Option<Table> {
        if self.config.load_manager_class_name != LoadManager::Modular
            || self.effective.load_balancer_load_placement_strategy
                != PlacementStrategy::LeastLongTermMessageRate
        {
            return None;
        }
        let ctx = placement_context!(self);
        if ctx.is_shedding_excluded(ns.as_str()) || self.anti_affinity.group_of(ns.as_str()).is_some() {
            return None;
        }
        let alive = self.brokers.values().filter(|b| b.alive);
        let n = alive.clone().count();
        let mut t = Table {
            namespace: ns.clone(),
            ids: Vec::with_capacity(n),
            owned: Vec::with_capacity(n),
            scores: Vec::with_capacity(n),
            evenly: self.config.load_balancer_distribute_bundles_evenly_enabled
                || ns.as_str() == SYSTEM_NAMESPACE,
            system_only: !self.config.load_balancer_distribute_bundles_evenly_enabled,
            how: format!("{:?}", self.effective.load_balancer_load_placement_strategy),
            cands: Vec::with_capacity(n),
            best: Vec::new(),
            low: Lowest::default(),
            removed: Vec::with_capacity(MAX_LISTED),
        };
        for b in alive {
            t.scores
                .push(Some(self.table_score(self.load.brokers.get(&b.id)?)?));
            t.ids.push(b.id.clone());
            t.owned
                .push(if t.evenly { b.bundles_in_namespace(ns) } else { 0 });
        }
        if t.ids.is_empty() {
            return None;
        }
        let applied = isolation::apply_namespace_policies(
            &self.isolation,
            ns.as_str(),
            t.ids.iter().map(|b| (b, true)),
        );
        (applied.candidates.len() == t.ids.len()).then_some(t)
    }

    /// A broker's LeastLongTermMessageRate score, when its load data `d` keeps
    /// it out of the filters the table leaves out: at most
    /// `loadBalancerBrokerMaxTopics` topics (preallocated bundles included) and
    /// not overloaded (so the modular overload re-pick cannot happen).
    fn table_score(&self, d: &BrokerData) -> Option<f64> {
        let topics = u64::from(d.local.num_topics) + d.preallocated.topics();
        let threshold = self.config.load_balancer_broker_overloaded_threshold_percentage / 100.0;
        if topics > u64::from(self.config.load_balancer_broker_max_topics)
            || d.local.max_resource_usage_with_weight(&weights(&self.config)) > threshold
        {
            return None;
        }
        score(d, &self.effective)
    }

    /// Look `bid` up from `t` and assign it; `false` when the winner's new
    /// figures leave the table's conditions (the next lookups go one by one).
    fn place_from(&mut self, t: &mut Table, bid: &BundleId, ev: &mut Vec<Event>) -> bool {
        #[cfg(test)]
        FROM_TABLE.with(|c| c.set(c.get() + 1));
        let n = t.ids.len();
        // removeMostServicingBrokersForNamespace keeps the brokers owning the
        // fewest bundles of the namespace; LeastLongTermMessageRate then looks at
        // the candidates' scores: the least and the lowest few, in the same walk.
        let least = if t.evenly {
            t.owned.iter().copied().min().unwrap_or(0)
        } else {
            usize::MAX
        };
        t.cands.clear();
        t.low.clear();
        t.removed.clear();
        let mut min = Least::new(&mut t.best);
        for (i, (&owned, &s)) in t.owned.iter().zip(&t.scores).enumerate() {
            if t.evenly && owned > least {
                if t.removed.len() < MAX_LISTED {
                    t.removed.push(i);
                }
                continue;
            }
            let at = t.cands.len();
            t.cands.push(i);
            min.offer(at, s);
            t.low.offer(at, s, TOP_SCORES);
        }
        if t.cands.len() < n {
            // The events list the first few removed and count them all.
            let removed = t.removed.iter().map(|&i| (&t.ids[i], t.owned[i]));
            let reason = distribute_evenly_reason(
                t.system_only,
                removed.clone().map(|(b, owned)| (b.as_str(), owned)),
                n - t.cands.len(),
                least,
            );
            let mut place = Vec::new();
            push_filtered(
                &mut place,
                bid,
                PlacementFilter::RemoveMostServicingBrokersForNamespace,
                removed.map(|(b, _)| b),
                n - t.cands.len(),
                t.cands.len(),
                reason,
            );
            ev.extend(place.into_iter().map(Event::Place));
        }
        if t.best.is_empty() {
            t.best.extend(0..t.cands.len());
        }
        let named = |at: usize| &t.ids[t.cands[at]];
        ev.push(Event::Place(PlaceEvent::LongTermRates {
            bundle: bid.clone(),
            scores: t
                .low
                .positions()
                .into_iter()
                .map(|at| (named(at).clone(), t.scores[t.cands[at]]))
                .collect(),
            candidates: t.cands.len(),
            best: t
                .best
                .iter()
                .take(MAX_LISTED)
                .map(|&at| named(at).clone())
                .collect(),
            best_count: t.best.len(),
        }));
        let winner = t.cands[t.best[self.rng.below(t.best.len())]];
        let owner = t.ids[winner].clone();
        ev.push(Event::Place(PlaceEvent::Chosen {
            strategy: PlacementStrategy::LeastLongTermMessageRate,
            bundle: bid.clone(),
            broker: owner.clone(),
        }));
        self.finish_lookup(bid, owner.clone(), (t.cands.len(), n), t.how.clone(), ev);
        // The winner's figures again, read as the table read them.
        let (Some(d), Some(b)) = (self.load.brokers.get(&owner), self.brokers.get(&owner)) else {
            return false;
        };
        let Some(s) = self.table_score(d) else {
            return false;
        };
        t.scores[winner] = Some(s);
        if t.evenly {
            t.owned[winner] = b.bundles_in_namespace(&t.namespace);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Config, Event, Sim};
    use super::{FROM_TABLE, ONE_BY_ONE};
    use crate::engine::pulsar::config::Profile;
    use crate::engine::Engine;
    use serde_json::{json, Value};

    fn action(v: Value) -> Action {
        serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
    }

    /// `script` on a fresh simulation, with the lookups one by one or not: each
    /// action's result (events or error), the final state, and how many lookups
    /// the table decided.
    fn run(profile: Profile, seed: u64, script: &[Action], one_by_one: bool) -> (Vec<String>, String, usize) {
        ONE_BY_ONE.with(|g| g.set(one_by_one));
        FROM_TABLE.with(|c| c.set(0));
        let mut s = Sim::new(Config::profile(profile), seed).unwrap();
        let out: Vec<String> = script
            .iter()
            .map(|a| match s.apply(a) {
                Ok(ev) => format!("{ev:?}"),
                Err(e) => format!("error: {e}"),
            })
            .collect();
        ONE_BY_ONE.with(|g| g.set(false));
        (out, format!("{s:?}"), FROM_TABLE.with(|c| c.get()))
    }

    /// Both ways give the same events and state; the table decided `at_least` lookups.
    fn same_both_ways(profile: Profile, seed: u64, script: &[Action]) -> usize {
        let (table, one) = (
            run(profile, seed, script, false),
            run(profile, seed, script, true),
        );
        assert_eq!(one.2, 0, "one by one, the table is never used");
        for (i, (a, b)) in table.0.iter().zip(&one.0).enumerate() {
            assert_eq!(a, b, "action {i} ({:?}) gives other events", script[i]);
        }
        assert_eq!(table.1, one.1, "the states differ");
        table.2
    }

    fn brokers(n: u32) -> Vec<Action> {
        (0..n)
            .map(|i| action(json!({"op": "add_broker", "broker": format!("b{i}")})))
            .collect()
    }

    fn bulk(ns: &str, bundles: u32, prefix: &str, count: u32, rate: f64) -> Vec<Action> {
        vec![
            action(json!({"op": "create_namespace", "namespace": ns, "bundles": bundles})),
            action(
                json!({"op": "create_topics", "namespace": ns, "prefix": prefix, "count": count,
                "traffic": {"msg_rate_in": rate, "msg_rate_out": rate, "throughput_in": rate * 1024.0,
                    "throughput_out": rate * 1024.0, "producers": 1, "consumers": 1}}),
            ),
        ]
    }

    fn config(key: &str, value: Value) -> Action {
        action(json!({"op": "set_config", "config": {key: value}}))
    }

    /// Bulk creations, the assign phase after a crash, partitioned topics and the
    /// system namespace, with and without distribute-evenly, and with each case the
    /// table leaves to the one-by-one lookup: a broker over the topic limit part-way
    /// through, an unreported broker, an overloaded one, an isolation policy, an
    /// anti-affinity group, an unload destination, the extensible load manager and
    /// another placement strategy.
    #[test]
    fn bulk_lookups_decide_as_one_lookup_each() {
        let mut base = brokers(7);
        base.push(action(json!({"op": "step"})));
        let cases: Vec<(&str, Profile, Vec<Action>, bool)> = vec![
            ("bulk creation, distribute evenly", Profile::Pulsar4, bulk("t/a", 64, "x", 900, 40.0), true),
            (
                "traffic, then a crash and the assign phase",
                Profile::Pulsar4,
                [
                    bulk("t/a", 32, "x", 300, 10.0),
                    vec![action(json!({"op": "step"})), action(json!({"op": "step"}))],
                    bulk("t/b", 16, "y", 200, 90.0),
                    vec![
                        action(json!({"op": "crash_broker", "broker": "b2"})),
                        action(json!({"op": "step"})),
                        action(json!({"op": "create_partitioned_topic", "topic": "persistent://t/b/p", "partitions": 30})),
                    ],
                ]
                .concat(),
                true,
            ),
            (
                "distribute evenly off, then the system namespace",
                Profile::Pulsar4,
                [
                    vec![config("loadBalancerDistributeBundlesEvenlyEnabled", json!(false))],
                    bulk("t/a", 64, "x", 500, 5.0),
                    bulk("pulsar/system", 16, "s", 100, 1.0),
                ]
                .concat(),
                true,
            ),
            (
                "the topic limit reached part-way",
                Profile::Pulsar4,
                // The brokers report about 290 topics each; after the unload their
                // reports still count them, and the reassigned bundles' reported
                // topics are preallocated on top.
                [
                    bulk("t/a", 128, "x", 2000, 1.0),
                    vec![
                        action(json!({"op": "step"})),
                        config("loadBalancerBrokerMaxTopics", json!(330)),
                        action(json!({"op": "unload", "namespace": "t/a"})),
                        action(json!({"op": "assign"})),
                    ],
                ]
                .concat(),
                true,
            ),
            (
                "an unreported broker",
                Profile::Pulsar4,
                [vec![action(json!({"op": "add_unreported_broker", "broker": "b9"}))], bulk("t/a", 32, "x", 300, 1.0)]
                    .concat(),
                false,
            ),
            (
                "an overloaded broker",
                Profile::Pulsar4,
                [
                    vec![
                        action(json!({"op": "set_broker_load", "broker": "b3", "usage": {"cpu": 97.0}})),
                        action(json!({"op": "step"})),
                    ],
                    bulk("t/a", 32, "x", 300, 1.0),
                ]
                .concat(),
                false,
            ),
            (
                "an isolation policy on another namespace, then on none",
                Profile::Pulsar4,
                [
                    vec![action(json!({"op": "ns_isolation_policy_set", "policy": "p", "namespaces": ["t/other"],
                        "primary": ["b1"], "auto_failover_policy": {"policy_type": "min_available", "min_limit": 1,
                        "usage_threshold": 80}}))],
                    bulk("t/a", 32, "x", 300, 1.0),
                    vec![action(json!({"op": "ns_isolation_policy_delete", "policy": "p"}))],
                    bulk("t/b", 32, "y", 300, 1.0),
                ]
                .concat(),
                true,
            ),
            (
                "an anti-affinity group",
                Profile::Pulsar4,
                [
                    vec![action(json!({"op": "create_namespace", "namespace": "t/a", "bundles": 8})),
                        action(json!({"op": "set_anti_affinity_group", "namespace": "t/a", "group": "g"}))],
                    bulk("t/b", 8, "y", 100, 1.0),
                    vec![action(json!({"op": "create_topics", "namespace": "t/a", "prefix": "x", "count": 100}))],
                ]
                .concat(),
                true,
            ),
            (
                "an unload destination",
                Profile::Pulsar4,
                [
                    bulk("t/a", 16, "x", 200, 1.0),
                    vec![action(json!({"op": "unload", "namespace": "t/a", "destination": "b4"})), action(json!({"op": "assign"}))],
                ]
                .concat(),
                true,
            ),
            ("the extensible load manager", Profile::Pulsar5, bulk("t/a", 32, "x", 300, 1.0), false),
            (
                "another placement strategy",
                Profile::Pulsar4,
                [
                    vec![config("loadBalancerLoadPlacementStrategy", json!("LeastResourceUsageWithWeight"))],
                    bulk("t/a", 32, "x", 300, 1.0),
                ]
                .concat(),
                false,
            ),
        ];
        for (what, profile, steps, table_used) in cases {
            let script = [base.clone(), steps].concat();
            let from_table = same_both_ways(profile, 7, &script);
            assert_eq!(
                from_table > 0,
                table_used,
                "{what}: the table decided {from_table} lookups"
            );
        }
    }

    /// The lookup events of a bulk creation name what decided each pick.
    #[test]
    fn a_bulk_creation_reports_each_lookup() {
        let script = [
            brokers(4),
            vec![action(json!({"op": "step"}))],
            bulk("t/a", 8, "x", 80, 1.0),
        ]
        .concat();
        let (out, _, from_table) = run(Profile::Pulsar4, 3, &script, false);
        assert_eq!(from_table, 8);
        let last = out.last().unwrap();
        assert_eq!(last.matches("Lookup {").count(), 8, "{last}");
        assert_eq!(last.matches("LongTermRates {").count(), 8, "{last}");
        assert!(
            last.contains("remove_most_servicing_brokers_for_namespace")
                || last.contains("RemoveMostServicingBrokersForNamespace"),
            "{last}"
        );
    }

    /// `script` on a fresh simulation, each action applied in parts of about
    /// `budget` units: each action's result (its parts' events joined, or the
    /// error), the final state, and how many parts the script took.
    fn run_in_parts(
        profile: Profile,
        seed: u64,
        script: &[Action],
        budget: u64,
    ) -> (Vec<String>, String, usize) {
        let mut s = Sim::new(Config::profile(profile), seed).unwrap();
        let mut parts = 0;
        let out = script
            .iter()
            .map(|a| {
                let (mut events, mut rest, mut units) = (Vec::new(), None, 0);
                loop {
                    parts += 1;
                    match crate::engine::apply_some(&mut s, a, rest, budget) {
                        Err(e) => return format!("error: {e}"),
                        Ok(((ev, r), done)) => {
                            events.extend(ev);
                            units += done;
                            if let Some(r) = &r {
                                assert!((1..Sim::weight(a)).contains(&Sim::rest_weight(r)), "{r:?}");
                            }
                            rest = r;
                        }
                    }
                    if rest.is_none() {
                        break;
                    }
                }
                assert_eq!(units, Sim::weight(a), "the parts of {a:?} add up to its weight");
                format!("{events:?}")
            })
            .collect();
        (out, format!("{s:?}"), parts)
    }

    /// Applied in parts of `budget` units, `script` gives what one `apply` per
    /// action gives; the parts it took.
    fn same_in_parts(profile: Profile, seed: u64, script: &[Action], budget: u64) -> usize {
        let (whole, parts) = (
            run(profile, seed, script, false),
            run_in_parts(profile, seed, script, budget),
        );
        for (i, (a, b)) in whole.0.iter().zip(&parts.0).enumerate() {
            assert_eq!(
                a, b,
                "action {i} ({:?}) in parts of {budget} gives other events",
                script[i]
            );
        }
        assert_eq!(whole.1, parts.1, "in parts of {budget}, the states differ");
        parts.2
    }

    /// A bulk creation and a partitioned topic applied a part at a time (the
    /// topics, then the lookups a few at a time) give the events, state and RNG
    /// draws of one `apply`, with the lookups from the table and one by one (an
    /// isolation policy), and a refused one changes nothing; a budget as large
    /// as the action applies it whole.
    #[test]
    fn a_bulk_creation_in_parts_gives_one_apply() {
        let mut script = brokers(7);
        script.push(action(json!({"op": "step"})));
        script.extend(bulk("t/a", 64, "x", 900, 40.0));
        script.push(action(
            json!({"op": "create_partitioned_topic", "topic": "persistent://t/a/pt", "partitions": 40}),
        ));
        script.push(action(json!({"op": "ns_isolation_policy_set", "policy": "p", "namespaces": ["t/b"], "primary": ["b1", "b2"],
            "auto_failover_policy": {"policy_type": "min_available", "min_limit": 1, "usage_threshold": 80}})));
        script.extend(bulk("t/b", 16, "y", 300, 90.0));
        script.push(action(
            json!({"op": "create_topics", "namespace": "t/none", "prefix": "z", "count": 50}),
        ));
        script.push(action(json!({"op": "step"})));
        script.push(action(json!({"op": "step"})));
        let actions = script.len();
        assert_eq!(
            same_in_parts(Profile::Pulsar4, 3, &script, 10_000),
            actions,
            "a large budget: one part each"
        );
        let mut last = actions;
        same_in_parts(Profile::Pulsar4, 3, &script, 7);
        for budget in [300, 50, 1] {
            let parts = same_in_parts(Profile::Pulsar4, 3, &script, budget);
            assert!(
                parts > last,
                "parts of {budget}: {parts} parts, not more than {last}"
            );
            last = parts;
        }
        // In parts of one unit: each action's first part, then one part per
        // lookup (a placement, or none possible) of the creations.
        let mut s = Sim::new(Config::profile(Profile::Pulsar4), 3).unwrap();
        let lookups: usize = script
            .iter()
            .flat_map(|a| match s.apply(a) {
                Ok(ev) if Sim::weight(a) > 1 => ev,
                _ => Vec::new(),
            })
            .filter(|e| matches!(e, Event::Lookup { .. } | Event::NoBrokerAvailable { .. }))
            .count();
        assert!(lookups >= 64 + 16, "{lookups} lookups");
        assert_eq!(last, actions + lookups, "parts of one unit");
        same_in_parts(Profile::Pulsar5, 9, &script, 20);
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let b = || (0u32..6).prop_map(|i| format!("b{i}"));
        let ns = || prop_oneof![Just("t/a"), Just("t/b"), Just("pulsar/system")];
        prop_oneof![
            3 => (ns(), 1u32..40, 1u32..300, 0.0f64..500.0).prop_map(|(ns, bundles, count, rate)| json!({"op": "create_namespace", "namespace": ns, "bundles": bundles, "then": [ns, count, rate]})),
            4 => (ns(), 1u32..300, 0.0f64..500.0, 0u32..1000).prop_map(|(ns, count, rate, p)| json!({"op": "create_topics", "namespace": ns, "prefix": format!("p{p}"), "count": count,
                "traffic": {"msg_rate_in": rate, "msg_rate_out": rate, "throughput_in": rate * 1e3, "throughput_out": rate * 1e3, "producers": 1, "consumers": 1}})),
            1 => (ns(), 1u32..40).prop_map(|(ns, n)| json!({"op": "create_partitioned_topic", "topic": format!("persistent://{ns}/pt{n}"), "partitions": n})),
            2 => b().prop_map(|b| json!({"op": "add_broker", "broker": b})),
            1 => b().prop_map(|b| json!({"op": "add_unreported_broker", "broker": b})),
            1 => b().prop_map(|b| json!({"op": "crash_broker", "broker": b})),
            1 => b().prop_map(|b| json!({"op": "restore_broker", "broker": b})),
            1 => (b(), 0.0f64..100.0).prop_map(|(b, cpu)| json!({"op": "set_broker_load", "broker": b, "usage": {"cpu": cpu}})),
            1 => any::<bool>().prop_map(|on| json!({"op": "set_config", "config": {"loadBalancerDistributeBundlesEvenlyEnabled": on}})),
            1 => (5u32..200).prop_map(|m| json!({"op": "set_config", "config": {"loadBalancerBrokerMaxTopics": m}})),
            1 => (ns(), b()).prop_map(|(ns, b)| json!({"op": "ns_isolation_policy_set", "policy": "p", "namespaces": [ns], "primary": [b],
                "auto_failover_policy": {"policy_type": "min_available", "min_limit": 1, "usage_threshold": 80}})),
            1 => Just(json!({"op": "ns_isolation_policy_delete", "policy": "p"})),
            1 => ns().prop_map(|ns| json!({"op": "set_anti_affinity_group", "namespace": ns, "group": "g"})),
            1 => (ns(), proptest::option::of(b())).prop_map(|(ns, to)| json!({"op": "unload", "namespace": ns, "destination": to})),
            3 => Just(json!({"op": "step"})),
            1 => Just(json!({"op": "assign"})),
        ]
    }

    /// The actions of one generated op (a namespace creation brings its topics).
    fn actions(v: &Value) -> Vec<Action> {
        let mut v = v.clone();
        let then = v.as_object_mut().and_then(|o| o.remove("then"));
        if v["destination"].is_null() {
            v.as_object_mut().map(|o| o.remove("destination"));
        }
        let mut out = vec![action(v.clone())];
        if let Some(t) = then {
            out.push(action(json!({"op": "create_topics", "namespace": t[0], "prefix": "x", "count": t[1],
                "traffic": {"msg_rate_in": t[2], "msg_rate_out": t[2], "throughput_in": 0.0, "throughput_out": 0.0, "producers": 1, "consumers": 1}})));
        }
        out
    }

    /// The cluster of the property tests, then the generated ops' actions.
    fn script(ops: &[Value]) -> Vec<Action> {
        [brokers(3), vec![action(json!({"op": "step"}))]]
            .concat()
            .into_iter()
            .chain(ops.iter().flat_map(actions))
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Random clusters, policies, settings and creations: looking bundles up
        /// from the table gives the events and state of one lookup at a time.
        #[test]
        fn random_bulk_lookups_decide_as_one_lookup_each(ops in proptest::collection::vec(op(), 1..24), seed in 0u64..100, five in proptest::bool::ANY) {
            let profile = if five { Profile::Pulsar5 } else { Profile::Pulsar4 };
            let script = script(&ops);
            same_both_ways(profile, seed, &script);
        }

        /// The same random scripts applied in parts of a random budget give
        /// what one `apply` per action gives.
        #[test]
        fn random_bulk_creations_in_parts_give_one_apply(ops in proptest::collection::vec(op(), 1..24), seed in 0u64..100, budget in 1u64..400, five in proptest::bool::ANY) {
            let profile = if five { Profile::Pulsar5 } else { Profile::Pulsar4 };
            let script = script(&ops);
            same_in_parts(profile, seed, &script, budget);
        }
    }
}
