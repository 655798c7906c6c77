//! AvgShedder as a placement strategy: a bundle the shedder moved goes to the
//! destination the shedder planned for it (see `Placer::plan`). A bundle without
//! a plan, or whose planned broker is no longer a candidate (cluster start, broker
//! gone), gets a random candidate from the name-sorted list, and that choice is
//! remembered as its plan, as Pulsar does (Pulsar hashes a random integer with
//! CRC-32; lbscope draws `rng.below(n)`).

use super::super::load::{BrokerId, BundleId};
use super::PlaceEvent;
use crate::engine::SimRng;
use std::collections::BTreeMap;

/// Pick a broker (`cands` sorted and non-empty).
pub fn select(
    plan: &mut BTreeMap<BundleId, BrokerId>,
    cands: &[&BrokerId],
    bundle: &BundleId,
    rng: &mut SimRng,
    events: &mut Vec<PlaceEvent>,
) -> Option<BrokerId> {
    let note = match plan.get(bundle) {
        Some(b) if cands.contains(&b) => {
            events.push(PlaceEvent::AvgDestination {
                bundle: bundle.clone(),
                broker: b.clone(),
                planned: true,
                note: None,
            });
            return Some(b.clone());
        }
        Some(b) => Some(format!("planned broker {b} is not a candidate")),
        None => Some("no planned destination".to_string()),
    };
    if cands.is_empty() {
        return None;
    }
    let b = cands[rng.below(cands.len())].clone();
    plan.insert(bundle.clone(), b.clone());
    events.push(PlaceEvent::AvgDestination {
        bundle: bundle.clone(),
        broker: b.clone(),
        planned: false,
        note,
    });
    Some(b)
}

/// `org.apache.pulsar.broker.loadbalance.impl.AvgShedder` as a placement
/// strategy: the destinations its shedding planned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AvgShedder {
    /// `bundleBrokerMap`: planned (and remembered) destinations.
    pub plan: BTreeMap<BundleId, BrokerId>,
}

impl AvgShedder {
    /// What the registry says of it.
    pub fn about() -> crate::engine::strategy::About {
        crate::engine::strategy::About {
            upstream: "org.apache.pulsar.broker.loadbalance.impl.AvgShedder",
            summary: "Sends a bundle AvgShedder moved to the destination its shedding planned; any other bundle gets a random candidate, remembered as its plan.",
            file: file!(),
        }
    }
}

impl super::BrokerSelectionStrategy for AvgShedder {
    fn select_broker(&mut self, cx: &mut super::PlaceContext<'_>) -> Option<BrokerId> {
        select(&mut self.plan, cx.cands, cx.bundle, cx.rng, cx.events)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::config::{Config, PlacementStrategy, Profile, SheddingStrategy};
    use super::super::super::shed::fixture::*;
    use super::super::{PlaceEvent, Placer};

    #[test]
    fn avg_placement_follows_plan_then_remembers_random_pick() {
        let fx = Fx::new().broker("b1", 10.0).broker("b2", 10.0).broker("b3", 10.0);
        let c = Config::profile(Profile::Pulsar5);
        let cands = vec![br("b1"), br("b2"), br("b3")];
        let mut placer = Placer::default();
        placer.plan(&[unload(4, "b1", Some("b3")), unload(5, "b1", None)]);
        let (b, ev) = placer.select_broker(&cands, &bid(4), &fx.load, &c, &mut rng());
        assert_eq!(b, Some(br("b3")));
        assert!(ev
            .iter()
            .any(|e| matches!(e, PlaceEvent::AvgDestination { planned: true, .. })));
        // Planned broker gone: a random candidate, remembered for next time.
        let (b, _) = placer.select_broker(&cands[..2], &bid(4), &fx.load, &c, &mut rng());
        let b = b.unwrap();
        assert!(b != br("b3"));
        let (again, _) = placer.select_broker(&cands, &bid(4), &fx.load, &c, &mut rng());
        assert_eq!(again, Some(b));
        // Unplanned bundles: deterministic for a seed.
        let pick = |seed| {
            let mut p = Placer::default();
            let mut r = crate::engine::SimRng::new(seed);
            (0..8)
                .map(|i| p.select_broker(&cands, &bid(i), &fx.load, &c, &mut r).0.unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(11), pick(11));
    }

    #[test]
    fn avg_placement_without_avg_shedding_falls_back_with_warning() {
        let fx = Fx::new()
            .broker("b1", 10.0)
            .broker("b2", 10.0)
            .bundle("b1", 0, 500.0, MIB);
        let c = Config {
            load_balancer_load_shedding_strategy: SheddingStrategy::ThresholdShedder,
            ..Config::profile(Profile::Pulsar5)
        };
        assert_eq!(
            c.load_balancer_load_placement_strategy,
            PlacementStrategy::AvgShedder
        );
        let (b, ev) =
            Placer::default().select_broker(&[br("b1"), br("b2")], &bid(7), &fx.load, &c, &mut rng());
        assert_eq!(b, Some(br("b2")));
        assert!(ev.iter().any(|e| matches!(
            e,
            PlaceEvent::Fallback {
                used: PlacementStrategy::LeastLongTermMessageRate,
                ..
            }
        )));
        assert!(ev.iter().any(|e| matches!(
            e,
            PlaceEvent::Chosen {
                strategy: PlacementStrategy::LeastLongTermMessageRate,
                ..
            }
        )));
    }

    #[test]
    fn avg_shedder_plan_reaches_placement() {
        let fx = Fx::new()
            .broker("b20", 20.0)
            .broker("b80", 80.0)
            .bundle("b80", 0, 600.0, MIB)
            .bundle("b80", 1, 250.0, MIB)
            .bundle("b80", 2, 150.0, MIB)
            .bundle("b20", 3, 500.0, MIB);
        let c = Config {
            min_unload_message: 100.0,
            ..Config::profile(Profile::Pulsar5)
        };
        let mut shedder = crate::engine::pulsar::shed::Shedder::default();
        let mut placer = Placer::default();
        let mut r = rng();
        shedder.find_bundles_for_unloading(&fx.load, &c, 0, &mut r);
        let out = shedder.find_bundles_for_unloading(&fx.load, &c, 60_000, &mut r);
        assert_eq!(out.unloads, vec![unload(1, "b80", Some("b20"))]);
        placer.plan(&out.unloads);
        let (b, _) = placer.select_broker(&[br("b80"), br("b20")], &bid(1), &fx.load, &c, &mut r);
        assert_eq!(b, Some(br("b20")));
    }
}
