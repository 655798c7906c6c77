//! The two load managers' shared machinery: brokers joining and crashing, the
//! leader, automatic shedding, and unloading / transferring a bundle.
//!
//! * Modular (`ModularLoadManagerImpl`): the leader sheds; an unloaded bundle is
//!   released (no owner) and assigned at the next client lookup
//!   (post-assignment). A destination planned by the strategy (AvgShedder) is
//!   remembered and used by that lookup when the placement is AvgShedder.
//! * Extensible (`ExtensibleLoadManagerImpl`): the leader (channel owner) sheds
//!   with TransferShedder; a decision with a destination is a transfer
//!   `Owned -> Releasing -> Assigning -> Owned` (pre-assignment), one without is
//!   `Owned -> Releasing -> Free`.
//!
//! Around the strategy, as Pulsar does: nothing when the load balancer or
//! shedding is disabled, when there is no leader, or when at most one broker is
//! available; bundles unloaded longer ago than
//! `loadBalancerSheddingGracePeriodMinutes` are first dropped from the
//! recently-unloaded map (which the strategies read to skip the others); every
//! bundle unloaded by shedding is recorded there with the time. The
//! minimum-throughput rules live inside the strategies, as in Pulsar.
//!
//! Faults: a crashed broker's ownerships vanish (modular: ephemeral nodes; the
//! bundles are reassigned at the next lookup; extensible: the channel overrides
//! each orphan and assigns it to a new broker at once). Its clients reconnect.
//! Leader election picks the alive broker that (re)joined first; a new leader
//! starts with fresh in-memory strategy state (shedder and placer history, the
//! recently-unloaded map), as a new leader process would.

use super::broker::{Broker, Capacity, DirectUsage};
use super::config::{LoadManager, SheddingStrategy};
use super::load::{BrokerId, BundleId};
use super::ownership::ServiceUnitState;
use super::{place, shed, Error, Event, SheddingSkipReason, Sim, UnloadCause, UnloadSkipReason};

impl Sim {
    /// A broker joins; with `report` its first load report reaches the leader at
    /// once, without it the broker has no load data until the next report phase.
    pub(crate) fn add_broker(
        &mut self,
        name: &str,
        capacity: Capacity,
        report: bool,
    ) -> Result<Vec<Event>, Error> {
        if name.trim().is_empty() {
            return Err(Error::Invalid("a broker needs a name".into()));
        }
        capacity.check().map_err(Error::Invalid)?;
        let id = BrokerId::from(name.to_string());
        if self.brokers.contains_key(&id) {
            return Err(Error::BrokerExists(name.to_string()));
        }
        self.join_seq += 1;
        self.brokers
            .insert(id.clone(), Broker::new(id.clone(), capacity, self.join_seq));
        if report {
            self.publish_report(&id);
        }
        let mut ev = vec![Event::BrokerAdded {
            broker: id.clone(),
            capacity,
        }];
        if !report {
            ev.push(Event::Warning {
                message: format!(
                    "[{id}] broker load report is not present yet: it is available, with no load data until the next report phase"
                ),
            });
        }
        self.elect_if_needed(&mut ev);
        Ok(ev)
    }

    pub(crate) fn restore_broker(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let id = BrokerId::from(name.to_string());
        match self.brokers.get(&id) {
            None => return Err(Error::NoSuchBroker(name.to_string())),
            Some(b) if b.alive => return Err(Error::BrokerAlive(name.to_string())),
            Some(_) => {}
        }
        self.join_seq += 1;
        if let Some(b) = self.brokers.get_mut(&id) {
            b.alive = true;
            b.join_seq = self.join_seq;
            b.last_report_ms = None;
        }
        self.publish_report(&id);
        let mut ev = vec![Event::BrokerRestored { broker: id }];
        self.elect_if_needed(&mut ev);
        Ok(ev)
    }

    pub(crate) fn set_broker_capacity(
        &mut self,
        name: &str,
        capacity: Capacity,
    ) -> Result<Vec<Event>, Error> {
        capacity.check().map_err(Error::Invalid)?;
        let id = BrokerId::from(name.to_string());
        let b = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| Error::NoSuchBroker(name.to_string()))?;
        b.capacity = capacity;
        Ok(vec![Event::BrokerCapacitySet { broker: id, capacity }])
    }

    pub(crate) fn set_broker_load(&mut self, name: &str, usage: DirectUsage) -> Result<Vec<Event>, Error> {
        if !usage.is_valid() {
            return Err(Error::Invalid(
                "usage percentages must be finite, 0..=1000".into(),
            ));
        }
        let id = BrokerId::from(name.to_string());
        let b = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| Error::NoSuchBroker(name.to_string()))?;
        b.direct = usage;
        Ok(vec![Event::BrokerLoadSet { broker: id, usage }])
    }

    pub(crate) fn crash_broker(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let id = self.alive_broker(name)?;
        let orphaned: Vec<BundleId> = self
            .brokers
            .get(&id)
            .map_or_else(Vec::new, |b| b.bundles.iter().cloned().collect());
        if let Some(b) = self.brokers.get_mut(&id) {
            b.alive = false;
            b.last_report_ms = None;
        }
        self.load.brokers.remove(&id);
        let mut ev = vec![Event::BrokerCrashed {
            broker: id.clone(),
            orphaned: orphaned.clone(),
        }];
        let ext = self.config.load_manager_class_name == LoadManager::Extensible;
        for bid in &orphaned {
            self.close_sessions(bid, &mut ev);
            if ext {
                self.transition(bid, ServiceUnitState::Free, None, Some(id.clone()), true, &mut ev);
            } else {
                self.transition(bid, ServiceUnitState::Free, None, None, true, &mut ev);
            }
        }
        self.elect_if_needed(&mut ev);
        if ext {
            // The channel owner assigns every orphan to a new broker right away.
            for bid in &orphaned {
                self.lookup_bundle(bid, &mut ev);
            }
        }
        Ok(ev)
    }

    /// Elect a leader when there is none: the alive broker that joined first.
    fn elect_if_needed(&mut self, ev: &mut Vec<Event>) {
        if self
            .leader
            .as_ref()
            .is_some_and(|l| self.brokers.get(l).is_some_and(|b| b.alive))
        {
            return;
        }
        let previous = self.leader.take();
        if previous.is_some() {
            // The old leader's in-memory strategy state dies with it.
            self.shedder = shed::Shedder::default();
            self.placer = place::Placer::default();
            self.load.recently_unloaded.clear();
        }
        let next = self.alive().min_by_key(|b| b.join_seq).map(|b| b.id.clone());
        match next {
            Some(n) => {
                self.leader = Some(n.clone());
                ev.push(Event::LeaderElected { broker: n, previous });
            }
            None => ev.push(Event::NoLeader),
        }
    }

    /// Release `bid` from its owner (closing its topic sessions). Modular: the
    /// bundle waits for the next lookup, which may use `planned`. Extensible:
    /// with `to` a transfer (pre-assigned), without `Owned -> Releasing -> Free`.
    pub(crate) fn unload_bundle(
        &mut self,
        bid: &BundleId,
        to: Option<BrokerId>,
        admin_destination: bool,
        reason: UnloadCause,
        ev: &mut Vec<Event>,
    ) -> bool {
        let Some(from) = self.bundles.get(bid).and_then(|s| s.owner().cloned()) else {
            ev.push(Event::UnloadSkipped {
                bundle: bid.clone(),
                reason: UnloadSkipReason::NotOwned,
            });
            return false;
        };
        ev.push(Event::Unloaded {
            bundle: bid.clone(),
            from: from.clone(),
            to: to.clone(),
            reason,
        });
        self.close_sessions(bid, ev);
        self.counters.bundles_moved += 1;
        if let Some(d) = self.load.brokers.get_mut(&from) {
            d.preallocated.remove(bid);
        }
        match self.config.load_manager_class_name {
            LoadManager::Modular => {
                self.transition(
                    bid,
                    ServiceUnitState::Releasing,
                    None,
                    Some(from.clone()),
                    false,
                    ev,
                );
                self.transition(bid, ServiceUnitState::Free, None, Some(from), false, ev);
                if let Some(st) = self.bundles.get_mut(bid) {
                    if admin_destination {
                        st.affinity = to;
                    } else {
                        st.planned = to;
                    }
                }
            }
            LoadManager::Extensible => match to {
                Some(dst) => {
                    self.transition(
                        bid,
                        ServiceUnitState::Releasing,
                        Some(dst.clone()),
                        Some(from.clone()),
                        false,
                        ev,
                    );
                    self.transition(
                        bid,
                        ServiceUnitState::Assigning,
                        Some(dst.clone()),
                        Some(from.clone()),
                        false,
                        ev,
                    );
                    self.assign_to(bid, &dst, ev);
                    ev.push(Event::Lookup {
                        bundle: bid.clone(),
                        broker: dst,
                        candidates: (1, self.alive().count()),
                        how: "pre-assigned at unload (transfer)".into(),
                    });
                }
                None => {
                    self.transition(
                        bid,
                        ServiceUnitState::Releasing,
                        None,
                        Some(from.clone()),
                        false,
                        ev,
                    );
                    self.transition(bid, ServiceUnitState::Free, None, Some(from), false, ev);
                }
            },
        }
        true
    }

    /// Phase: one automatic shedding pass.
    pub fn shed_phase(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        self.shed_into(&mut ev);
        ev
    }

    /// [`Sim::shed_phase`], appending its events to `ev`.
    pub(crate) fn shed_into(&mut self, ev: &mut Vec<Event>) {
        let skip =
            |ev: &mut Vec<Event>, reason: SheddingSkipReason| ev.push(Event::SheddingSkipped { reason });
        if !(self.config.load_balancer_enabled && self.config.load_balancer_shedding_enabled) {
            return skip(ev, SheddingSkipReason::Disabled);
        }
        if self.leader.is_none() {
            return skip(ev, SheddingSkipReason::NoLeader);
        }
        // Fewer than two alive brokers (the walk stops at the second).
        if self.alive().nth(1).is_none() {
            return skip(ev, SheddingSkipReason::OneBroker);
        }
        let grace = u64::from(self.config.load_balancer_shedding_grace_period_minutes) * 60_000;
        let timeout = self.now_ms.saturating_sub(grace);
        let now = self.now_ms;
        if now >= grace {
            self.load.recently_unloaded.retain(|_, t| *t >= timeout);
        }
        // The namespace policies (isolation, anti-affinity, excluded namespaces):
        // TransferShedder reads them inside its pass; the modular manager checks
        // each choice below, before unloading it (see `assign::PlacementContext`).
        let out = {
            let policies = super::assign::placement_context!(self);
            self.shedder.find_bundles_for_unloading_with(
                &self.load,
                &self.effective,
                now,
                &mut self.rng,
                &policies,
            )
        };
        ev.extend(out.events.into_iter().map(Event::Shed));
        // AvgShedder as placement reads the destinations its shedding pass planned.
        self.placer.plan(&out.unloads);
        for u in out.unloads {
            let owner = self.bundles.get(&u.bundle).and_then(|s| s.owner().cloned());
            if owner.as_ref() != Some(&u.from) {
                ev.push(Event::UnloadSkipped {
                    bundle: u.bundle.clone(),
                    reason: UnloadSkipReason::OwnerMismatch {
                        named: u.from.clone(),
                        owner,
                    },
                });
                continue;
            }
            if self.config.load_manager_class_name == LoadManager::Modular {
                let policies = super::assign::placement_context!(self);
                if let Err(refusal) = policies.modular_may_unload(&u.bundle, &u.from) {
                    ev.push(Event::UnloadSkipped {
                        bundle: u.bundle.clone(),
                        reason: UnloadSkipReason::Policy { refusal },
                    });
                    continue;
                }
            }
            let to =
                u.to.filter(|t| *t != u.from && self.brokers.get(t).is_some_and(|b| b.alive));
            if self.unload_bundle(
                &u.bundle,
                to,
                false,
                UnloadCause::Shedding {
                    strategy: self.effective.load_balancer_load_shedding_strategy,
                },
                ev,
            ) {
                self.load.recently_unloaded.insert(u.bundle.clone(), now);
                if self.effective.load_balancer_load_shedding_strategy == SheddingStrategy::TransferShedder {
                    // The extensible UnloadScheduler remembers each source broker.
                    self.shedder.record_unload(&u.from, now);
                }
            }
        }
    }
}
