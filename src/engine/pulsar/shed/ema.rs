//! The broker-side exponential moving averages of the extensible load manager's
//! `BrokerLoadData`: `weightedMaxEMA` (weighted max resource usage) and
//! `msgThroughputEMA` (in + out throughput), both folded with
//! `loadBalancerHistoryResourcePercentage` at every load report; the first report
//! seeds them with the raw value.
//!
//! In Pulsar each broker keeps these itself and publishes them with its report.
//! lbscope keeps them in [`BrokerLoadEma`], which the simulation feeds with
//! [`BrokerLoadEma::observe`] once per report round (see `Shedder::observe_reports`
//! and `Placer::observe_reports`). A broker never observed reads as its raw
//! current value, exactly what its first report would give.

use super::super::config::Config;
use super::super::load::{BrokerId, LoadData, LocalBrokerData};
use super::shared::weights;
use std::collections::BTreeMap;

/// Per-broker EMAs of the extensible load manager.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrokerLoadEma {
    /// `weightedMaxEMA`, as a fraction.
    pub weighted_max: BTreeMap<BrokerId, f64>,
    /// `msgThroughputEMA`, bytes/s.
    pub msg_throughput: BTreeMap<BrokerId, f64>,
}

impl BrokerLoadEma {
    /// Fold every live broker's current report into its EMAs and forget brokers
    /// that are gone.
    pub fn observe(&mut self, load: &LoadData, conf: &Config) {
        let h = conf.load_balancer_history_resource_percentage;
        let w = weights(conf);
        self.weighted_max.retain(|b, _| load.brokers.contains_key(b));
        self.msg_throughput.retain(|b, _| load.brokers.contains_key(b));
        for (b, d) in &load.brokers {
            let wm = d.local.max_resource_usage_with_weight(&w);
            let tp = d.local.msg.total_throughput();
            let e = self.weighted_max.entry(b.clone()).or_insert(wm);
            *e = *e * h + (1.0 - h) * wm;
            let t = self.msg_throughput.entry(b.clone()).or_insert(tp);
            *t = *t * h + (1.0 - h) * tp;
        }
    }

    /// `weightedMaxEMA` of a broker (its raw weighted max when never observed).
    pub fn weighted_max_of(&self, b: &BrokerId, local: &LocalBrokerData, conf: &Config) -> f64 {
        self.weighted_max
            .get(b)
            .copied()
            .unwrap_or_else(|| local.max_resource_usage_with_weight(&weights(conf)))
    }

    /// `msgThroughputEMA` of a broker (its raw throughput when never observed).
    pub fn msg_throughput_of(&self, b: &BrokerId, local: &LocalBrokerData) -> f64 {
        self.msg_throughput
            .get(b)
            .copied()
            .unwrap_or_else(|| local.msg.total_throughput())
    }
}
