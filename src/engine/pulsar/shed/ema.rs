//! The broker-side exponential moving averages of the extensible load manager's
//! `BrokerLoadData`: `weightedMaxEMA` (the max of all five weighted signals,
//! CPU, heap memory, direct memory, NIC in and out, as
//! `BrokerLoadData.updateWeightedMaxEMA` takes them) and `msgThroughputEMA`
//! (in + out throughput), both folded with `loadBalancerHistoryResourcePercentage`
//! at every load report; a broker's first report is the EMA itself (Pulsar:
//! `updatedAt == 0`).
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

/// `ema[b] = ema[b] × h + (1 − h) × x` with `x = value(b)` (just `x` at a
/// broker's first observation) for every broker
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
            None => first.push((b.clone(), x)),
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
        fold(
            &mut self.weighted_max,
            load,
            |d| d.local.max_resource_usage_with_weight_all(&w),
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
            .unwrap_or_else(|| local.max_resource_usage_with_weight_all(&weights(conf)))
    }

    /// `msgThroughputEMA` of a broker (its raw throughput when never observed).
    pub fn msg_throughput_of(&self, b: &BrokerId, local: &LocalBrokerData) -> f64 {
        self.msg_throughput
            .get(b)
            .copied()
            .unwrap_or_else(|| local.msg.total_throughput())
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;
    use crate::engine::pulsar::load::ResourceUsage;

    /// Mirrors `BrokerLoadDataTest`.
    mod broker_load_data_test {
        use super::*;

        fn set(fx: &mut Fx, cpu: f64, memory: (f64, f64), tp_in: f64, tp_out: f64) {
            let d = fx.load.brokers.get_mut(&br("broker-1")).unwrap();
            d.local.cpu = ResourceUsage {
                usage: cpu,
                limit: 100.0,
            };
            d.local.memory = ResourceUsage {
                usage: memory.0,
                limit: memory.1,
            };
            d.local.direct_memory = ResourceUsage {
                usage: 2.0,
                limit: 100.0,
            };
            d.local.bandwidth_in = ResourceUsage {
                usage: 3.0,
                limit: 100.0,
            };
            d.local.bandwidth_out = ResourceUsage {
                usage: 4.0,
                limit: 100.0,
            };
            d.local.msg.msg_throughput_in = tp_in;
            d.local.msg.msg_throughput_out = tp_out;
        }

        #[test]
        fn test_update_by_system_resource_usage() {
            // From BrokerLoadDataTest.testUpdateBySystemResourceUsage's assertions:
            // every weight 0.5, history 0.75; memory 800/200 (400 %) is the max:
            // weightedMaxEMA 2 at the first update (the sample itself),
            // msgThroughputEMA 1 + 2 = 3; then CPU 300 %, memory 100 %:
            // 2 × 0.75 + 0.25 × 1.5 = 1.875, throughput 3 × 0.75 + 0.25 × 11 = 5.
            let conf = Config {
                load_balancer_cpu_resource_weight: 0.5,
                load_balancer_memory_resource_weight: 0.5,
                load_balancer_direct_memory_resource_weight: 0.5,
                load_balancer_bandwidth_in_resource_weight: 0.5,
                load_balancer_bandwidth_out_resource_weight: 0.5,
                load_balancer_history_resource_percentage: 0.75,
                ..Config::default()
            };
            let mut fx = Fx::new().broker("broker-1", 0.0);
            set(&mut fx, 1.0, (800.0, 200.0), 1.0, 2.0);
            let mut ema = BrokerLoadEma::default();
            ema.observe(&fx.load, &conf);
            assert_eq!(ema.weighted_max[&br("broker-1")], 2.0);
            assert_eq!(ema.msg_throughput[&br("broker-1")], 3.0);
            // maxResourceUsage (unweighted) skips memory: 4 %.
            let local = &fx.load.brokers[&br("broker-1")].local;
            assert!((local.max_resource_usage() - 0.04).abs() < 1e-6);
            set(&mut fx, 300.0, (200.0, 200.0), 5.0, 6.0);
            ema.observe(&fx.load, &conf);
            assert_eq!(ema.weighted_max[&br("broker-1")], 1.875);
            assert_eq!(ema.msg_throughput[&br("broker-1")], 5.0);
        }
    }

    #[test]
    fn first_sample_is_exact_and_memory_weight_defaults_to_zero() {
        // Derived by reading BrokerLoadData.updateWeightedMaxEMA: the first value
        // is the weighted max itself, bit for bit (0.3 × 0.9 + 0.1 × 0.3 is not).
        let mut fx = Fx::new().broker("broker-1", 30.0);
        fx.load
            .brokers
            .get_mut(&br("broker-1"))
            .unwrap()
            .local
            .memory
            .usage = 90.0;
        let mut ema = BrokerLoadEma::default();
        ema.observe(&fx.load, &Config::default());
        // Default memory weight 0: the 90 % heap does not count.
        assert_eq!(
            ema.weighted_max[&br("broker-1")],
            f64::from(30.0f32 / 100.0 * 100.0) / 100.0
        );
        let c = Config {
            load_balancer_memory_resource_weight: 1.0,
            ..Config::default()
        };
        let mut ema = BrokerLoadEma::default();
        ema.observe(&fx.load, &c);
        assert!((ema.weighted_max[&br("broker-1")] - 0.9).abs() < 1e-6);
    }
}
