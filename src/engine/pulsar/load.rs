//! Pulsar's load bookkeeping, as the load managers keep it: per-broker resource
//! usage and message rates (`LocalBrokerData`), per-bundle stats
//! (`NamespaceBundleStats`) with their short- and long-term time averages
//! (`TimeAverageMessageData`, `BundleData`), and the leader's view of all of it
//! (`LoadData`). Shedders and placement strategies read only this.
//!
//! Usage percentages use 32-bit floats, as Pulsar's `ResourceUsage.percentUsage()` does.

pub use super::ids::{BrokerId, BundleId, NamespaceName};
pub use super::usage::ResourceUsage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Message rates and throughputs (a `NamespaceBundleStats` or a broker total).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct MessageStats {
    /// Messages per second in.
    pub msg_rate_in: f64,
    /// Messages per second out.
    pub msg_rate_out: f64,
    /// Bytes per second in.
    pub msg_throughput_in: f64,
    /// Bytes per second out.
    pub msg_throughput_out: f64,
}

impl MessageStats {
    /// In + out message rate.
    pub fn total_rate(&self) -> f64 {
        self.msg_rate_in + self.msg_rate_out
    }
    /// In + out throughput.
    pub fn total_throughput(&self) -> f64 {
        self.msg_throughput_in + self.msg_throughput_out
    }
}

/// A bundle's last reported stats (`NamespaceBundleStats`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct BundleStats {
    /// Rates and throughputs.
    pub msg: MessageStats,
    /// Producers connected.
    pub producer_count: u32,
    /// Consumers connected.
    pub consumer_count: u32,
    /// Topics in the bundle.
    pub topics: u32,
}

impl BundleStats {
    /// Sessions = producers + consumers (split threshold `...MaxSessions`).
    pub fn sessions(&self) -> u32 {
        self.producer_count + self.consumer_count
    }
}

/// A windowed average of message stats (`TimeAverageMessageData`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct TimeAverageMessageData {
    /// Window size.
    pub max_samples: u32,
    /// Samples seen so far (at most `max_samples`).
    pub num_samples: u32,
    /// The averages.
    pub msg: MessageStats,
}

impl TimeAverageMessageData {
    /// A window of `max_samples` holding `initial` with zero samples, as Pulsar's
    /// `TimeAverageMessageData(maxSamples, defaultStats)` does: the defaults are
    /// only a placeholder and the first real sample overwrites them.
    pub fn new(max_samples: u32, initial: MessageStats) -> Self {
        TimeAverageMessageData {
            max_samples,
            num_samples: 0,
            msg: initial,
        }
    }

    /// Fold in one sample: `n = min(n + 1, max)`, `avg = ((n - 1) * avg + x) / n`.
    pub fn update(&mut self, x: MessageStats) {
        self.num_samples = (self.num_samples + 1).min(self.max_samples.max(1));
        let n = f64::from(self.num_samples);
        let f = |old: f64, new: f64| ((n - 1.0) * old + new) / n;
        self.msg = MessageStats {
            msg_rate_in: f(self.msg.msg_rate_in, x.msg_rate_in),
            msg_rate_out: f(self.msg.msg_rate_out, x.msg_rate_out),
            msg_throughput_in: f(self.msg.msg_throughput_in, x.msg_throughput_in),
            msg_throughput_out: f(self.msg.msg_throughput_out, x.msg_throughput_out),
        };
    }
}

/// Samples in the short-term window.
pub const SHORT_TERM_SAMPLES: u32 = 10;
/// Samples in the long-term window.
pub const LONG_TERM_SAMPLES: u32 = 1000;

/// A bundle's history (`BundleData`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct BundleData {
    /// Last 10 samples.
    pub short_term: TimeAverageMessageData,
    /// Last 1000 samples.
    pub long_term: TimeAverageMessageData,
    /// Last raw report.
    pub last: BundleStats,
}

/// Default message rate assumed for a bundle with no history (Pulsar: 50 msg/s).
pub const DEFAULT_MESSAGE_RATE: f64 = 50.0;
/// Default throughput assumed for a bundle with no history (Pulsar: 50000 B/s).
pub const DEFAULT_MESSAGE_THROUGHPUT: f64 = 50_000.0;

impl BundleData {
    /// The default data Pulsar assumes for a bundle it has not seen yet.
    pub fn default_for_new_bundle() -> Self {
        let m = MessageStats {
            msg_rate_in: DEFAULT_MESSAGE_RATE,
            msg_rate_out: DEFAULT_MESSAGE_RATE,
            msg_throughput_in: DEFAULT_MESSAGE_THROUGHPUT,
            msg_throughput_out: DEFAULT_MESSAGE_THROUGHPUT,
        };
        BundleData {
            short_term: TimeAverageMessageData::new(SHORT_TERM_SAMPLES, m),
            long_term: TimeAverageMessageData::new(LONG_TERM_SAMPLES, m),
            last: BundleStats::default(),
        }
    }

    /// Fold in a new report into both windows.
    pub fn update(&mut self, s: BundleStats) {
        self.short_term.update(s.msg);
        self.long_term.update(s.msg);
        self.last = s;
    }
}

/// What a broker reports about itself (`LocalBrokerData`).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LocalBrokerData {
    /// CPU usage (percent of cores) and limit.
    pub cpu: ResourceUsage,
    /// Heap memory.
    pub memory: ResourceUsage,
    /// Direct memory.
    pub direct_memory: ResourceUsage,
    /// NIC in.
    pub bandwidth_in: ResourceUsage,
    /// NIC out.
    pub bandwidth_out: ResourceUsage,
    /// Totals over its bundles.
    pub msg: MessageStats,
    /// Bundles it owns, with their last stats.
    pub bundles: BTreeMap<BundleId, BundleStats>,
    /// Topics it serves.
    pub num_topics: u32,
    /// Producers connected.
    pub num_producers: u32,
    /// Consumers connected.
    pub num_consumers: u32,
}

/// Resource weights (`loadBalancer*ResourceWeight`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// CPU.
    pub cpu: f64,
    /// Heap memory.
    pub memory: f64,
    /// Direct memory.
    pub direct_memory: f64,
    /// NIC in.
    pub bandwidth_in: f64,
    /// NIC out.
    pub bandwidth_out: f64,
}

impl LocalBrokerData {
    /// The report of a broker with only these resource usages (no rates or
    /// bundles): what the load formulas read.
    pub fn of_usage(u: &super::broker::SystemResourceUsage) -> LocalBrokerData {
        LocalBrokerData {
            cpu: u.cpu,
            memory: u.memory,
            direct_memory: u.direct_memory,
            bandwidth_in: u.bandwidth_in,
            bandwidth_out: u.bandwidth_out,
            ..Default::default()
        }
    }

    /// The largest weighted resource usage as a fraction (`getMaxResourceUsageWithWeight`):
    /// `max(percent_i * weight_i) / 100` over CPU, direct memory and NIC in/out.
    /// Heap memory is left out, as in Pulsar 3.0+ (`loadBalancerMemoryResourceWeight`
    /// is deprecated: "memory is no longer used as a load balancing item").
    pub fn max_resource_usage_with_weight(&self, w: &Weights) -> f64 {
        [
            f64::from(self.cpu.percent_usage()) * w.cpu,
            f64::from(self.direct_memory.percent_usage()) * w.direct_memory,
            f64::from(self.bandwidth_in.percent_usage()) * w.bandwidth_in,
            f64::from(self.bandwidth_out.percent_usage()) * w.bandwidth_out,
        ]
        .into_iter()
        .fold(0.0, f64::max)
            / 100.0
    }

    /// The extensible load manager's weighted max (`BrokerLoadData.getMaxResourceUsageWithWeight`):
    /// `max(percent_i * weight_i) / 100` over all five signals, heap memory
    /// included (its weight, `loadBalancerMemoryResourceWeight`, defaults to 0).
    pub fn max_resource_usage_with_weight_all(&self, w: &Weights) -> f64 {
        [
            f64::from(self.cpu.percent_usage()) * w.cpu,
            f64::from(self.memory.percent_usage()) * w.memory,
            f64::from(self.direct_memory.percent_usage()) * w.direct_memory,
            f64::from(self.bandwidth_in.percent_usage()) * w.bandwidth_in,
            f64::from(self.bandwidth_out.percent_usage()) * w.bandwidth_out,
        ]
        .into_iter()
        .fold(f64::NEG_INFINITY, f64::max)
            / 100.0
    }

    /// The largest unweighted usage as a fraction (`getMaxResourceUsage`), over CPU,
    /// direct memory and NIC in/out (heap memory left out as in Pulsar 3.0+).
    pub fn max_resource_usage(&self) -> f64 {
        [
            self.cpu,
            self.direct_memory,
            self.bandwidth_in,
            self.bandwidth_out,
        ]
        .iter()
        .map(|r| f64::from(r.percent_usage()))
        .fold(0.0, f64::max)
            / 100.0
    }
}

/// A broker's time-averaged totals (`TimeAverageBrokerData`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct TimeAverageBrokerData {
    /// Sum of its bundles' short-term averages.
    pub short_term: MessageStats,
    /// Sum of its bundles' long-term averages.
    pub long_term: MessageStats,
}

/// Everything the leader knows about one broker (`BrokerData`).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct BrokerData {
    /// Its last report.
    pub local: LocalBrokerData,
    /// Time averages over its bundles.
    pub time_average: TimeAverageBrokerData,
    /// Bundles assigned to it since its last report (placement counts them).
    pub preallocated: Preallocated,
    /// When the broker last published this report (simulated ms): the
    /// extensible `BrokerLoadData.updatedAt` that TransferShedder's load-data TTL
    /// and cool-down read.
    #[serde(default)]
    pub reported_at_ms: u64,
    /// The extensible load manager's top-bundles report source: every bundle's
    /// stats as of the broker's last stats sample. `TopBundleLoadDataReporter`
    /// publishes whenever the broker's stats were refreshed, with no change
    /// threshold, so it is fresher than the broker report (`local`), which
    /// waits for `loadBalancerReportUpdateThresholdPercentage`. `None` (the
    /// modular load manager) reads `local`'s bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_bundles: Option<BTreeMap<BundleId, BundleStats>>,
}

impl BrokerData {
    /// The bundle stats its top-bundles report is cut from.
    pub fn top_bundles_source(&self) -> &BTreeMap<BundleId, BundleStats> {
        self.top_bundles.as_ref().unwrap_or(&self.local.bundles)
    }
}

/// The bundles preallocated to one broker (`BrokerData.preallocatedBundleData`),
/// with the two sums placement reads for every candidate of every lookup: their
/// topics (the modular topic-count filter) and their long-term message rates
/// (LeastLongTermMessageRate's score). The sums are recomputed, in key order,
/// whenever the set changes, so they are exactly what summing the map at read
/// time gives; reading them costs nothing, where summing ~16 entries for each
/// of 1,000 candidates of each of 16,384 lookups made most of a large setup.
/// Read as the map (`Deref`); changed only through its methods.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(
    from = "BTreeMap<BundleId, BundleData>",
    into = "BTreeMap<BundleId, BundleData>"
)]
pub struct Preallocated {
    map: BTreeMap<BundleId, BundleData>,
    topics: u64,
    long_term_rate: f64,
}

impl Preallocated {
    fn resum(&mut self) {
        self.topics = self.map.values().map(|x| u64::from(x.last.topics)).sum::<u64>();
        self.long_term_rate = self
            .map
            .values()
            .map(|b| b.long_term.msg.total_rate())
            .sum::<f64>();
    }

    /// Preallocate `bundle` with its data (the previous data, if any, returned).
    pub fn insert(&mut self, bundle: BundleId, data: BundleData) -> Option<BundleData> {
        let old = self.map.insert(bundle, data);
        self.resum();
        old
    }

    /// Drop `bundle`'s preallocation.
    pub fn remove(&mut self, bundle: &BundleId) -> Option<BundleData> {
        let old = self.map.remove(bundle);
        if old.is_some() {
            self.resum();
        }
        old
    }

    /// Keep only the preallocations `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&BundleId, &mut BundleData) -> bool) {
        let n = self.map.len();
        self.map.retain(keep);
        if self.map.len() != n {
            self.resum();
        }
    }

    /// Topics of the preallocated bundles (their last reports).
    pub fn topics(&self) -> u64 {
        self.topics
    }

    /// Sum of the preallocated bundles' long-term message rates (in + out), in key order.
    pub fn long_term_rate(&self) -> f64 {
        self.long_term_rate
    }
}

impl Default for Preallocated {
    fn default() -> Self {
        BTreeMap::new().into()
    }
}

impl std::ops::Deref for Preallocated {
    type Target = BTreeMap<BundleId, BundleData>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl PartialEq for Preallocated {
    fn eq(&self, o: &Self) -> bool {
        self.map == o.map
    }
}

impl From<BTreeMap<BundleId, BundleData>> for Preallocated {
    fn from(map: BTreeMap<BundleId, BundleData>) -> Self {
        let mut p = Preallocated {
            map,
            topics: 0,
            long_term_rate: 0.0,
        };
        p.resum();
        p
    }
}

impl From<Preallocated> for BTreeMap<BundleId, BundleData> {
    fn from(p: Preallocated) -> Self {
        p.map
    }
}

/// The leader's whole view (`LoadData`).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LoadData {
    /// Live brokers.
    pub brokers: BTreeMap<BrokerId, BrokerData>,
    /// Every bundle's history.
    pub bundles: BTreeMap<BundleId, BundleData>,
    /// Bundles unloaded recently, with the simulated time (ms) of the unload.
    pub recently_unloaded: BTreeMap<BundleId, u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_usage_in_f32() {
        let r = ResourceUsage {
            usage: 1.0,
            limit: 3.0,
        };
        assert_eq!(r.percent_usage(), (1.0f32 / 3.0f32) * 100.0);
        assert_eq!(
            ResourceUsage {
                usage: 5.0,
                limit: 0.0
            }
            .percent_usage(),
            0.0
        );
    }

    #[test]
    fn time_average_window() {
        let one = MessageStats {
            msg_rate_in: 100.0,
            ..Default::default()
        };
        let two = MessageStats {
            msg_rate_in: 200.0,
            ..Default::default()
        };
        // Default stats are overwritten by the first sample (Pulsar's numSamples starts at 0).
        let mut t = TimeAverageMessageData::new(
            2,
            MessageStats {
                msg_rate_in: 50.0,
                ..Default::default()
            },
        );
        t.update(one);
        assert_eq!(t.num_samples, 1);
        assert_eq!(t.msg.msg_rate_in, 100.0);
        t.update(two);
        assert_eq!(t.num_samples, 2);
        assert_eq!(t.msg.msg_rate_in, 150.0);
        t.update(one);
        assert_eq!(t.num_samples, 2);
        assert_eq!(t.msg.msg_rate_in, 125.0);
    }
}
