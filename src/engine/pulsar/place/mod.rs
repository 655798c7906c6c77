//! Bundle placement: which broker gets an unowned bundle (`ModularLoadManagerStrategy`
//! and the extensible load manager's broker selection).

use super::config::{Config, PlacementStrategy};
use super::load::{BrokerId, BundleId, LoadData};
use crate::engine::{Narrate, SimRng};
use serde::{Deserialize, Serialize};

/// What placement explains (numbers included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "place", rename_all = "snake_case")]
pub enum PlaceEvent {
    /// A broker was chosen.
    Chosen {
        /// The strategy.
        strategy: PlacementStrategy,
        /// The bundle.
        bundle: BundleId,
        /// The winner.
        broker: BrokerId,
    },
}

impl Narrate for PlaceEvent {
    fn narrate(&self) -> String {
        match self {
            PlaceEvent::Chosen {
                strategy,
                bundle,
                broker,
            } => format!("{strategy:?}: {bundle} -> {broker}"),
        }
    }
}

/// Placement state carried between calls (e.g. AvgShedder's planned destinations).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placer {}

impl Placer {
    /// Choose an owner for `bundle` among `candidates` (already filtered by
    /// liveness, isolation and distribute-evenly). `None` when there is no candidate.
    pub fn select_broker(
        &mut self,
        candidates: &[BrokerId],
        bundle: &BundleId,
        _load: &LoadData,
        conf: &Config,
        _rng: &mut SimRng,
    ) -> (Option<BrokerId>, Vec<PlaceEvent>) {
        let Some(b) = candidates.iter().min().cloned() else {
            return (None, Vec::new());
        };
        let ev = PlaceEvent::Chosen {
            strategy: conf.load_balancer_load_placement_strategy,
            bundle: bundle.clone(),
            broker: b.clone(),
        };
        (Some(b), vec![ev])
    }
}
