//! The `BrokerSelectionStrategy` trait every placement strategy implements
//! and the one context a selection reads. The registry that names the
//! strategies is the list in [`super`].

use super::super::config::Config;
use super::super::ids::{BrokerId, BundleId};
use super::super::load::{BrokerData, LoadData};
use super::super::shed::BrokerLoadEma;
use super::PlaceEvent;
use crate::engine::SimRng;
use std::fmt;

/// Everything one placement reads: the candidates left by the filters, the
/// bundle, the leader's load data, the config, the brokers' EMAs (extensible
/// load manager), the RNG, and where its explanation goes.
pub struct PlaceContext<'a> {
    /// The candidates, sorted by name and distinct, never empty.
    pub cands: &'a [&'a BrokerId],
    /// Each candidate's entry of `load.brokers`, when the caller already read
    /// it (`None`: look it up).
    pub data: Option<&'a [Option<&'a BrokerData>]>,
    /// The bundle to place.
    pub bundle: &'a BundleId,
    /// The leader's load data.
    pub load: &'a LoadData,
    /// The config the load manager runs with.
    pub conf: &'a Config,
    /// The brokers' `weightedMaxEMA` (extensible load manager).
    pub ema: &'a BrokerLoadEma,
    /// The simulation's seeded RNG (random picks among equally good brokers).
    pub rng: &'a mut SimRng,
    /// The events explaining the choice.
    pub events: &'a mut Vec<PlaceEvent>,
}

/// Pulsar's `ModularLoadManagerStrategy.selectBroker` (modular) and
/// `BrokerSelectionStrategy.select` (extensible): pick one of the candidates
/// for a bundle, or none (the lookup then fails), and explain why.
///
/// Each implementing type also has an inherent `fn about() -> About` (the
/// registry reads it).
pub trait BrokerSelectionStrategy: fmt::Debug {
    /// Choose an owner for `cx.bundle`.
    fn select_broker(&mut self, cx: &mut PlaceContext<'_>) -> Option<BrokerId>;
}
