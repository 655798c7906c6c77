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
use super::super::load::{BrokerData, BrokerId, LoadData, LocalBrokerData};
use super::shared::weights;
use std::collections::BTreeMap;

/// `ema[b] = (ema[b] or x) × h + (1 − h) × x` with `x = value(b)` for every broker
/// of `load`, dropping the others; both maps are sorted by name, so one walk
/// does it (brokers seen for the first time are added after it, gone ones
/// removed after it).
fn fold(ema: &mut BTreeMap<BrokerId, f64>, load: &LoadData, value: impl Fn(&BrokerData) -> f64, h: f64) {
    let mut first = Vec::new();
    let mut gone = false;
    let mut old = ema.iter_mut().peekable();
    for (b, d) in &load.brokers {
        let x = value(d);
        let e = loop {
            match old.peek().map(|(k, _)| (*k).cmp(b)) {
                Some(std::cmp::Ordering::Less) => {
                    gone = true;
                    old.next();
                }
                Some(std::cmp::Ordering::Equal) => break old.next().map(|(_, e)| e),
                _ => break None,
            }
        };
        match e {
            Some(e) => *e = *e * h + (1.0 - h) * x,
            None => first.push((b.clone(), x * h + (1.0 - h) * x)),
        }
    }
    gone |= old.next().is_some();
    if gone {
        ema.retain(|b, _| load.brokers.contains_key(b));
    }
    ema.extend(first);
}

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
        // A first observation seeds the EMA with the raw value, then folds it in.
        fold(
            &mut self.weighted_max,
            load,
            |d| d.local.max_resource_usage_with_weight(&w),
            h,
        );
        fold(
            &mut self.msg_throughput,
            load,
            |d| d.local.msg.total_throughput(),
            h,
        );
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
