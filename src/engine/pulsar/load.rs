//! Pulsar's load bookkeeping, as the load managers keep it: per-broker resource
//! usage and message rates (`LocalBrokerData`), per-bundle stats
//! (`NamespaceBundleStats`) with their short- and long-term time averages
//! (`TimeAverageMessageData`, `BundleData`), and the leader's view of all of it
//! (`LoadData`). Shedders and placement strategies read only this.
//!
//! Usage percentages use 32-bit floats, as Pulsar's `ResourceUsage.percentUsage()` does.

use super::bundle::BundleRange;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A broker's id (its name, e.g. `broker-1`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BrokerId(pub String);

impl std::fmt::Display for BrokerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A namespace name as bundle ids carry it (`tenant/namespace`): one shared
/// string per namespace, so cloning a [`BundleId`] copies no text, and ids of
/// the same namespace compare equal by pointer before looking at the bytes.
/// Equality, order and hash are those of the text.
#[derive(Clone, Default)]
pub struct NamespaceName(Arc<str>);

impl NamespaceName {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for NamespaceName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for NamespaceName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for NamespaceName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for NamespaceName {
    fn from(s: &str) -> Self {
        NamespaceName(s.into())
    }
}

impl From<String> for NamespaceName {
    fn from(s: String) -> Self {
        NamespaceName(s.into())
    }
}

impl From<&String> for NamespaceName {
    fn from(s: &String) -> Self {
        NamespaceName(s.as_str().into())
    }
}

impl PartialEq for NamespaceName {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Eq for NamespaceName {}

impl PartialEq<str> for NamespaceName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for NamespaceName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for NamespaceName {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<NamespaceName> for str {
    fn eq(&self, other: &NamespaceName) -> bool {
        self == &*other.0
    }
}

impl PartialEq<NamespaceName> for &str {
    fn eq(&self, other: &NamespaceName) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<NamespaceName> for String {
    fn eq(&self, other: &NamespaceName) -> bool {
        self.as_str() == &*other.0
    }
}

impl Ord for NamespaceName {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            cmp_bytes(self.0.as_bytes(), other.0.as_bytes())
        }
    }
}

impl PartialOrd for NamespaceName {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::hash::Hash for NamespaceName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (*self.0).hash(state);
    }
}

impl std::fmt::Display for NamespaceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Debug for NamespaceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for NamespaceName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for NamespaceName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(NamespaceName::from)
    }
}

/// A bundle's full name: `tenant/namespace/0xLLLLLLLL_0xUUUUUUUU`.
///
/// Ordered by namespace (bytewise), then range, exactly as a derived `Ord` would
/// order it; the comparison is written out because it runs in every lookup of
/// the bundle maps (a libc `memcmp` call per tree node dominated a round at
/// 16 384 bundles). The ids a simulation makes share their namespace's
/// [`NamespaceName`], so most comparisons never read the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BundleId {
    /// `tenant/namespace`.
    pub namespace: NamespaceName,
    /// The hash range.
    pub range: BundleRange,
}

/// Bytewise lexicographic order of two strings (the order of `str::cmp`), eight
/// bytes at a time.
#[inline]
fn cmp_bytes(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let n = a.len().min(b.len());
    let (mut x, mut y) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        let (p, q) = (
            u64::from_be_bytes(p.try_into().unwrap_or([0; 8])),
            u64::from_be_bytes(q.try_into().unwrap_or([0; 8])),
        );
        if p != q {
            return p.cmp(&q);
        }
    }
    for (p, q) in x.remainder().iter().zip(y.remainder()) {
        if p != q {
            return p.cmp(q);
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for BundleId {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.namespace
            .cmp(&other.namespace)
            .then_with(|| self.range.cmp(&other.range))
    }
}

impl PartialOrd for BundleId {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for BundleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.range)
    }
}

/// One resource's usage and limit (`ResourceUsage`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceUsage {
    /// Amount used.
    pub usage: f64,
    /// Capacity.
    pub limit: f64,
}

impl ResourceUsage {
    /// `usage / limit * 100` computed in f32 as Pulsar does (0 when the limit is not positive).
    pub fn percent_usage(&self) -> f32 {
        let proportion = if self.limit > 0.0 {
            (self.usage as f32) / (self.limit as f32)
        } else {
            0.0
        };
        proportion * 100.0
    }
}

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
    pub preallocated: BTreeMap<BundleId, BundleData>,
    /// When the broker last published this report (simulated ms): the
    /// extensible `BrokerLoadData.updatedAt` that TransferShedder's load-data TTL
    /// and cool-down read.
    #[serde(default)]
    pub reported_at_ms: u64,
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
    fn bundle_id_order_is_the_derived_order() {
        let names = [
            "",
            "a",
            "a/b",
            "a/bc",
            "ab",
            "public/default",
            "public/defaulu",
            "public/default-1",
            "pulsar/system",
            "zzzzzzzzzzzzzzzzz",
            "zzzzzzzzzzzzzzzzy",
        ];
        let ranges = [
            BundleRange { lower: 0, upper: 5 },
            BundleRange { lower: 0, upper: 9 },
            BundleRange { lower: 7, upper: 8 },
        ];
        let ids: Vec<BundleId> = names
            .iter()
            .flat_map(|n| {
                ranges.iter().map(move |r| BundleId {
                    namespace: (*n).into(),
                    range: *r,
                })
            })
            .collect();
        for a in &ids {
            for b in &ids {
                let derived = (a.namespace.as_str(), a.range).cmp(&(b.namespace.as_str(), b.range));
                assert_eq!(a.cmp(b), derived, "{a} vs {b}");
                assert_eq!(a == b, derived.is_eq());
                // A copy of the text (another pointer) compares the same.
                let c = BundleId {
                    namespace: a.namespace.as_str().into(),
                    range: a.range,
                };
                assert_eq!(c.cmp(b), derived, "{c} vs {b}");
                assert_eq!(c == *b, derived.is_eq());
            }
        }
    }

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
