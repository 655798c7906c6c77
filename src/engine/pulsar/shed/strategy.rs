//! The `LoadSheddingStrategy` trait every shedder implements and the one
//! context a pass reads.
//!
//! A shedder is one type in one file; it keeps whatever history it needs in
//! its own fields (the simulation owns one value of each registered shedder,
//! so switching `loadBalancerLoadSheddingStrategy` away and back keeps that
//! history, as the values stay where they are). The registry that names the
//! shedders is the list in [`super`].

use super::super::config::{Config, LoadManager};
use super::super::ids::BundleId;
use super::super::load::LoadData;
use super::ema::BrokerLoadEma;
use super::inputs::{InputsContext, ShedInputs};
use super::{ShedOutcome, SheddingPolicies};
use crate::engine::SimRng;
use std::collections::BTreeMap;
use std::fmt;

/// Everything one shedding pass may read: the leader's load data, the config,
/// the bundles still in their grace period, the clock, the brokers' EMAs
/// (extensible load manager), the namespace policies and the RNG.
pub struct ShedContext<'a> {
    /// The leader's load data.
    pub load: &'a LoadData,
    /// The config the load manager runs with.
    pub conf: &'a Config,
    /// Bundles unloaded within the grace period, with their unload time (ms).
    pub recent: &'a BTreeMap<BundleId, u64>,
    /// `loadBalancerSheddingGracePeriodMinutes` in ms.
    pub grace_ms: u64,
    /// Simulated time (ms).
    pub now_ms: u64,
    /// The brokers' `weightedMaxEMA` / `msgThroughputEMA`.
    pub ema: &'a BrokerLoadEma,
    /// What isolation policies, anti-affinity groups and excluded namespaces allow.
    pub policies: &'a dyn SheddingPolicies,
    /// The simulation's seeded RNG (no shedder draws from it today).
    pub rng: &'a mut SimRng,
}

/// Pulsar's `LoadSheddingStrategy.findBundlesForUnloading` (modular) and
/// `NamespaceUnloadStrategy.findBundlesForUnloading` (extensible): one pass
/// that picks bundles to unload and explains why.
///
/// The load manager's preamble (shedding enabled, more than one broker, the
/// grace-period map) runs before; the strategy sees its result in the context.
/// Each implementing type also has an inherent `fn about() -> About` (the
/// registry reads it).
pub trait LoadSheddingStrategy: fmt::Debug {
    /// The Java interface the upstream class implements, and so the load
    /// manager that can instantiate it.
    fn interface(&self) -> Interface;

    /// One pass.
    fn find_bundles_for_unloading(&mut self, cx: &mut ShedContext<'_>) -> ShedOutcome;

    /// What the strategy compares, per broker, and against which lines
    /// ([`ShedInputs`]), from its history as its last pass left it (a query).
    fn inputs(&self, cx: &InputsContext<'_>) -> ShedInputs;
}

/// Which interface a strategy implements in Pulsar, and so which load manager
/// can instantiate it from `loadBalancerLoadSheddingStrategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// `org.apache.pulsar.broker.loadbalance.LoadSheddingStrategy` (modular load manager).
    Modular,
    /// `org.apache.pulsar.broker.loadbalance.extensions.scheduler.NamespaceUnloadStrategy`
    /// (extensible load manager).
    Extensible,
}

impl Interface {
    /// The Java interface's fully qualified name.
    pub const fn class(self) -> &'static str {
        match self {
            Interface::Modular => "org.apache.pulsar.broker.loadbalance.LoadSheddingStrategy",
            Interface::Extensible => {
                "org.apache.pulsar.broker.loadbalance.extensions.scheduler.NamespaceUnloadStrategy"
            }
        }
    }

    /// The load manager that loads strategies of this interface.
    pub const fn manager(self) -> LoadManager {
        match self {
            Interface::Modular => LoadManager::Modular,
            Interface::Extensible => LoadManager::Extensible,
        }
    }
}
