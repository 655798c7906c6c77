//! Lookup and assignment of unowned bundles.
//!
//! Modular load manager (`ModularLoadManagerImpl.selectBrokerForAssignment`):
//! 1. candidates = available (alive) brokers (no isolation policies are modelled);
//! 2. drop brokers serving more than `loadBalancerBrokerMaxTopics` topics (counting
//!    bundles preallocated to them), unless that drops them all
//!    (`filterBrokersWithLargeTopicCount`);
//! 3. with `loadBalancerDistributeBundlesEvenlyEnabled`, keep only the brokers
//!    owning the fewest bundles of the bundle's namespace
//!    (`removeMostServicingBrokersForNamespace`);
//! 4. if nothing is left, restore all available brokers;
//! 5. the placement strategy picks; if its pick is overloaded (weighted max resource
//!    usage > `loadBalancerBrokerOverloadedThresholdPercentage`), it picks again
//!    among all available brokers;
//! 6. the bundle is preallocated to the winner until the winner reports it.
//!
//! Extensible load manager: the broker filter pipeline (max topic count) then
//! its broker selection strategy; no distribute-evenly or overload re-pick.
//! Ownership goes `Init/Free -> Assigning -> Owned`.
//!
//! Destinations fixed earlier win: `unload -d BROKER` (bundle affinity) when the
//! broker is alive, and, when the placement strategy is AvgShedder, the
//! destination AvgShedder planned at shedding time if it survived the filters.

use super::broker::Broker;
use super::bundle::BundleRange;
use super::config::{Config, LoadManager, PlacementStrategy};
use super::load::{BrokerData, BrokerId, BundleData, BundleId, LoadData};
use super::ownership::ServiceUnitState;
use super::place::join_sorted;
use super::{Event, Sim};
use std::collections::{BTreeMap, BTreeSet};

/// How many bundles of namespace `ns` the set holds (sorted by namespace first:
/// O(1) when all its bundles share one namespace, a range walk otherwise).
fn bundles_in_namespace(set: &BTreeSet<BundleId>, ns: &str) -> usize {
    match (set.first(), set.last()) {
        (Some(f), Some(l)) if f.namespace == l.namespace => usize::from(f.namespace == ns) * set.len(),
        (Some(_), Some(_)) => {
            let from = BundleId {
                namespace: ns.into(),
                range: BundleRange { lower: 0, upper: 0 },
            };
            set.range(from..).take_while(|b| b.namespace == ns).count()
        }
        _ => 0,
    }
}

/// Candidate filtering as the configured load manager does it, borrowing the
/// brokers' ids (ascending, distinct). Returns (filtered, all alive).
fn candidates<'a>(
    brokers: &'a BTreeMap<BrokerId, Broker>,
    load: &LoadData,
    config: &Config,
    bid: &BundleId,
) -> (Vec<&'a BrokerId>, Vec<&'a BrokerId>) {
    let alive: Vec<&Broker> = brokers.values().filter(|b| b.alive).collect();
    let all: Vec<&BrokerId> = alive.iter().map(|b| &b.id).collect();
    let max_topics = u64::from(config.load_balancer_broker_max_topics);
    let data = join_sorted(&all, &load.brokers);
    let topics_of = |d: Option<&BrokerData>| -> u64 {
        d.map_or(0, |d| {
            u64::from(d.local.num_topics)
                + d.preallocated
                    .values()
                    .map(|x| u64::from(x.last.topics))
                    .sum::<u64>()
        })
    };
    let mut c: Vec<usize> = (0..all.len())
        .filter(|&i| topics_of(data[i]) <= max_topics)
        .collect();
    if c.is_empty() {
        c = (0..all.len()).collect();
    }
    if config.load_manager_class_name == LoadManager::Modular
        && config.load_balancer_distribute_bundles_evenly_enabled
    {
        let counts: Vec<usize> = c
            .iter()
            .map(|&i| bundles_in_namespace(&alive[i].bundles, &bid.namespace))
            .collect();
        let least = counts.iter().copied().min().unwrap_or(0);
        c = c
            .iter()
            .zip(&counts)
            .filter(|&(_, &n)| n <= least)
            .map(|(&i, _)| i)
            .collect();
    }
    if c.is_empty() {
        c = (0..all.len()).collect();
    }
    (c.into_iter().map(|i| all[i]).collect(), all)
}

impl Sim {
    /// A client lookup of `bid`: if it has no owner, choose one and assign it.
    pub(crate) fn lookup_bundle(&mut self, bid: &BundleId, ev: &mut Vec<Event>) {
        let Some(st) = self.bundles.get(bid) else {
            return;
        };
        if st.owner().is_some() || st.ownership.state.is_in_flight() {
            return;
        }
        let (cands, all) = candidates(&self.brokers, &self.load, &self.config, bid);
        if all.is_empty() {
            ev.push(Event::NoBrokerAvailable { bundle: bid.clone() });
            return;
        }
        let had_plan = st.planned.clone();
        let affinity = st.affinity.clone().filter(|b| all.contains(&b));
        let planned = st.planned.clone().filter(|b| {
            self.effective.load_balancer_load_placement_strategy == PlacementStrategy::AvgShedder
                && cands.contains(&b)
        });
        let discarded_plan = had_plan.is_some() && planned.is_none();
        let (chosen, how) = if let Some(a) = affinity {
            (Some(a), "unload destination (-d)".to_string())
        } else if let Some(p) = planned {
            (Some(p), "AvgShedder's planned destination".to_string())
        } else {
            if discarded_plan {
                ev.push(Event::Warning {
                    message: format!(
                        "{bid}: planned destination {} not used (filtered out or placement is not AvgShedder)",
                        had_plan.as_ref().map_or("-", |b| b.0.as_str())
                    ),
                });
            }
            let (pick, pev) =
                self.placer
                    .select_among(&cands, bid, &self.load, &self.effective, &mut self.rng);
            ev.extend(pev.into_iter().map(Event::Place));
            let mut how = format!("{:?}", self.effective.load_balancer_load_placement_strategy);
            let mut pick = pick;
            if self.config.load_manager_class_name == LoadManager::Modular {
                if let Some(p) = &pick {
                    let threshold = self.config.load_balancer_broker_overloaded_threshold_percentage / 100.0;
                    let usage = self.load.brokers.get(p).map_or(0.0, |d| {
                        // PIP-358: the weighted usage (ModularLoadManagerImpl.selectBroker).
                        d.local
                            .max_resource_usage_with_weight(&super::report::weights(&self.effective))
                    });
                    if usage > threshold {
                        let (again, pev) =
                            self.placer
                                .select_among(&all, bid, &self.load, &self.effective, &mut self.rng);
                        ev.extend(pev.into_iter().map(Event::Place));
                        how = format!(
                            "{how}; first pick {p} was overloaded ({:.1}% > {:.1}%), re-picked among all brokers",
                            usage * 100.0,
                            threshold * 100.0
                        );
                        pick = again;
                    }
                }
            }
            (pick, how)
        };
        let n_cands = (cands.len(), all.len());
        let Some(owner) = chosen else {
            ev.push(Event::NoBrokerAvailable { bundle: bid.clone() });
            return;
        };
        self.assign_to(bid, &owner, ev);
        if let Some(st) = self.bundles.get_mut(bid) {
            st.planned = None;
            st.affinity = None;
        }
        ev.push(Event::Lookup {
            bundle: bid.clone(),
            broker: owner,
            candidates: n_cands,
            how,
        });
    }

    /// Make `owner` own `bid` (Assigning -> Owned) and preallocate its data.
    pub(crate) fn assign_to(&mut self, bid: &BundleId, owner: &BrokerId, ev: &mut Vec<Event>) {
        let state = self.bundles.get(bid).map(|s| s.ownership.state);
        if state == Some(ServiceUnitState::Owned) {
            return;
        }
        if matches!(state, Some(ServiceUnitState::Init | ServiceUnitState::Free)) {
            self.transition(
                bid,
                ServiceUnitState::Assigning,
                Some(owner.clone()),
                None,
                false,
                ev,
            );
        }
        self.transition(bid, ServiceUnitState::Owned, Some(owner.clone()), None, false, ev);
        let data = self
            .load
            .bundles
            .get(bid)
            .copied()
            .unwrap_or_else(BundleData::default_for_new_bundle);
        if let Some(d) = self.load.brokers.get_mut(owner) {
            d.preallocated.insert(bid.clone(), data);
        }
        self.counters.assignments += 1;
    }

    /// Phase: clients look up every unowned bundle that has topics.
    pub fn assign_phase(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        self.assign_into(&mut ev);
        ev
    }

    /// [`Sim::assign_phase`], appending its events to `ev`.
    pub(crate) fn assign_into(&mut self, ev: &mut Vec<Event>) {
        // The unowned bundles with topics that are not in flight, in name order.
        let todo: Vec<BundleId> = self
            .unowned
            .iter()
            .filter(|b| {
                self.bundles
                    .get(*b)
                    .is_some_and(|s| !s.ownership.state.is_in_flight())
            })
            .cloned()
            .collect();
        debug_assert_eq!(
            todo,
            self.bundles
                .iter()
                .filter(|(_, s)| s.topics > 0 && s.owner().is_none() && !s.ownership.state.is_in_flight())
                .map(|(b, _)| b.clone())
                .collect::<Vec<_>>(),
            "the unowned set is out of step with the bundles"
        );
        for b in &todo {
            self.lookup_bundle(b, ev);
        }
    }
}
