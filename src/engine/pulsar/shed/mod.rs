//! Load shedding: which bundles to unload from which brokers (`LoadSheddingStrategy`).
//!
//! A shedder reads only the leader's [`LoadData`] and the [`Config`]; it may keep
//! its own history between rounds (ThresholdShedder's moving averages,
//! AvgShedder's hit counters), so it is a stateful value owned by the simulation.
//! Its decisions come back as data, with events carrying the numbers.

use super::config::{Config, SheddingStrategy};
use super::load::{BrokerId, BundleId, LoadData};
use crate::engine::{Narrate, SimRng};
use serde::{Deserialize, Serialize};

/// One bundle to unload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unload {
    /// The bundle.
    pub bundle: BundleId,
    /// Its current owner.
    pub from: BrokerId,
    /// A destination chosen by the shedder itself (TransferShedder, AvgShedder);
    /// `None` leaves placement to the next assignment.
    pub to: Option<BrokerId>,
}

/// What a shedder explains (numbers included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shed", rename_all = "snake_case")]
pub enum ShedEvent {
    /// Nothing to do this round, and why.
    Idle {
        /// The strategy.
        strategy: SheddingStrategy,
        /// Why nothing was shed.
        reason: String,
    },
}

impl Narrate for ShedEvent {
    fn narrate(&self) -> String {
        match self {
            ShedEvent::Idle { strategy, reason } => format!("{strategy:?}: nothing to shed ({reason})"),
        }
    }
}

/// The result of one shedding pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShedOutcome {
    /// Bundles to unload, in decision order.
    pub unloads: Vec<Unload>,
    /// The explanation.
    pub events: Vec<ShedEvent>,
}

/// The shedders' state carried between rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shedder {}

impl Shedder {
    /// One shedding pass at simulated time `now_ms` with the configured strategy.
    pub fn find_bundles_for_unloading(
        &mut self,
        _load: &LoadData,
        conf: &Config,
        _now_ms: u64,
        _rng: &mut SimRng,
    ) -> ShedOutcome {
        ShedOutcome {
            unloads: Vec::new(),
            events: vec![ShedEvent::Idle {
                strategy: conf.load_balancer_load_shedding_strategy,
                reason: "not implemented yet".into(),
            }],
        }
    }
}
