//! Brokers: capacities, liveness, and the resource usage they report.

use super::ids::{BrokerId, BundleId, NamespaceName};
use super::traffic::{served_cost, Traffic};
use super::usage::ResourceUsage;
pub use super::usage::SystemResourceUsage;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Smallest capacity of any resource (cores, MB, Mbit/s).
pub const MIN_CAPACITY: f64 = 0.001;
/// Largest capacity of any resource.
pub const MAX_CAPACITY: f64 = 1e12;

/// A broker's capacities (the `limit` of each `ResourceUsage` it reports).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Capacity {
    /// CPU cores (Pulsar reports CPU in percent of one core; limit = 100 x cores).
    pub cpu_cores: f64,
    /// Heap, MB.
    pub memory_mb: f64,
    /// Direct memory, MB.
    pub direct_memory_mb: f64,
    /// NIC in, Mbit/s.
    pub nic_in_mbit: f64,
    /// NIC out, Mbit/s.
    pub nic_out_mbit: f64,
}

impl Default for Capacity {
    /// 8 cores, 8 GB heap, 8 GB direct memory, 10 GbE.
    fn default() -> Self {
        Capacity {
            cpu_cores: 8.0,
            memory_mb: 8192.0,
            direct_memory_mb: 8192.0,
            nic_in_mbit: 10_000.0,
            nic_out_mbit: 10_000.0,
        }
    }
}

impl Capacity {
    /// Every capacity in [`MIN_CAPACITY`]`..=`[`MAX_CAPACITY`].
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }

    /// Every capacity must be a finite number in
    /// [`MIN_CAPACITY`]`..=`[`MAX_CAPACITY`]: usage is served load divided by
    /// capacity, so a capacity near zero would make percentages overflow to
    /// infinity. The message names the first that is not.
    pub fn check(&self) -> Result<(), String> {
        for (field, x) in [
            ("cpu_cores", self.cpu_cores),
            ("memory_mb", self.memory_mb),
            ("direct_memory_mb", self.direct_memory_mb),
            ("nic_in_mbit", self.nic_in_mbit),
            ("nic_out_mbit", self.nic_out_mbit),
        ] {
            if !x.is_finite() || !(MIN_CAPACITY..=MAX_CAPACITY).contains(&x) {
                return Err(format!(
                    "capacity {field} is {x}; capacities must be finite numbers from {MIN_CAPACITY} to {MAX_CAPACITY:e}"
                ));
            }
        }
        Ok(())
    }
}

/// Resource usage set directly, in percent of capacity; `None` = simulated from traffic.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DirectUsage {
    /// CPU percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    /// Heap percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<f64>,
    /// Direct memory percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct_memory: Option<f64>,
    /// NIC in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth_in: Option<f64>,
    /// NIC out percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth_out: Option<f64>,
}

impl DirectUsage {
    /// All given values finite and within 0..=1000 %.
    pub fn is_valid(&self) -> bool {
        [
            self.cpu,
            self.memory,
            self.direct_memory,
            self.bandwidth_in,
            self.bandwidth_out,
        ]
        .iter()
        .flatten()
        .all(|x| x.is_finite() && (0.0..=1000.0).contains(x))
    }
}

/// A broker.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Broker {
    /// Its name.
    pub id: BrokerId,
    /// Capacities.
    pub capacity: Capacity,
    /// Alive (registered) or crashed.
    pub alive: bool,
    /// Order of (re)joining: the leader election picks the smallest among the alive.
    pub join_seq: u64,
    /// Usage set directly (overrides the traffic model per resource).
    pub direct: DirectUsage,
    /// Bundles it owns (kept in step with the bundles' owners).
    pub bundles: BTreeSet<BundleId>,
    /// Simulated time (ms) of its last published load report, if any.
    pub last_report_ms: Option<u64>,
    /// The traffic and topic count it serves, summed over `bundles` (a cache,
    /// cleared whenever a bundle joins or leaves it or one of its bundles'
    /// load changes; not part of its value).
    #[serde(skip)]
    pub(crate) served: ServedCache,
    /// The namespace all of `bundles` belong to, when they share one (a cache
    /// set by [`Broker::bundles_changed`]; `None` also when not known, so a
    /// reader falls back to the set itself; not part of its value).
    #[serde(skip)]
    pub(crate) one_namespace: NamespaceCache,
    /// The positions of `bundles` in the live-bundle order
    /// ([`super::index::BundleIndex`]), with the layout stamp they were
    /// computed under (a cache cleared by [`Broker::bundles_changed`]; not
    /// part of its value).
    #[serde(skip)]
    pub(crate) positions: PositionCache,
}

/// See [`Broker::positions`]: compares equal to any other.
#[derive(Clone, Default)]
pub(crate) struct PositionCache(pub(crate) Option<(u64, Vec<u32>)>);

impl PartialEq for PositionCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// See [`Broker::one_namespace`]: compares equal to any other.
#[derive(Clone, Default)]
pub(crate) struct NamespaceCache(pub(crate) Option<NamespaceName>);

impl PartialEq for NamespaceCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A broker's served traffic and topics, once computed: a cache that compares
/// equal to any other, so a broker's value does not depend on it.
#[derive(Clone, Copy, Default)]
pub(crate) struct ServedCache(pub(crate) Option<(Traffic, u32)>);

impl PartialEq for ServedCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Every field but the cache.
        f.debug_struct("Broker")
            .field("id", &self.id)
            .field("capacity", &self.capacity)
            .field("alive", &self.alive)
            .field("join_seq", &self.join_seq)
            .field("direct", &self.direct)
            .field("bundles", &self.bundles)
            .field("last_report_ms", &self.last_report_ms)
            .finish()
    }
}

impl Broker {
    /// A fresh live broker.
    pub fn new(id: BrokerId, capacity: Capacity, join_seq: u64) -> Broker {
        Broker {
            id,
            capacity,
            alive: true,
            join_seq,
            direct: DirectUsage::default(),
            bundles: BTreeSet::new(),
            last_report_ms: None,
            served: ServedCache::default(),
            one_namespace: NamespaceCache::default(),
            positions: PositionCache::default(),
        }
    }

    /// Bring the caches up to date after a bundle joined or left `bundles`.
    pub(crate) fn bundles_changed(&mut self) {
        self.served.0 = None;
        self.positions.0 = None;
        self.one_namespace.0 = match (self.bundles.first(), self.bundles.last()) {
            (Some(f), Some(l)) if f.namespace == l.namespace => Some(f.namespace.clone()),
            _ => None,
        };
    }

    /// How many of its bundles belong to namespace `ns` (O(1) when they all
    /// share one namespace, a range walk of the set otherwise).
    pub(crate) fn bundles_in_namespace(&self, ns: &NamespaceName) -> usize {
        if self.bundles.is_empty() {
            return 0;
        }
        if let Some(one) = &self.one_namespace.0 {
            return usize::from(one == ns) * self.bundles.len();
        }
        let from = BundleId {
            namespace: ns.clone(),
            range: super::bundle::BundleRange { lower: 0, upper: 0 },
        };
        self.bundles
            .range(from..)
            .take_while(|b| b.namespace == *ns)
            .count()
    }

    /// Resource usage for serving `served` over `topics` topics, with direct overrides applied.
    pub fn usage(&self, served: &Traffic, topics: u32) -> SystemResourceUsage {
        let c = served_cost(served, topics);
        let cap = &self.capacity;
        let r = |model: f64, limit: f64, direct: Option<f64>| ResourceUsage {
            usage: direct.map_or(model, |p| p / 100.0 * limit),
            limit,
        };
        SystemResourceUsage {
            cpu: r(c.cpu, cap.cpu_cores * 100.0, self.direct.cpu),
            memory: r(c.memory_mb, cap.memory_mb, self.direct.memory),
            direct_memory: r(
                c.direct_memory_mb,
                cap.direct_memory_mb,
                self.direct.direct_memory,
            ),
            bandwidth_in: r(c.bandwidth_in_mbit, cap.nic_in_mbit, self.direct.bandwidth_in),
            bandwidth_out: r(c.bandwidth_out_mbit, cap.nic_out_mbit, self.direct.bandwidth_out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_in_namespace_counts_with_and_without_the_cached_namespace() {
        let (a, b) = (NamespaceName::from("public/a"), NamespaceName::from("public/b"));
        let bid = |ns: &NamespaceName, lower: u32| BundleId {
            namespace: ns.clone(),
            range: super::super::bundle::BundleRange {
                lower,
                upper: lower + 1,
            },
        };
        let mut br = Broker::new(BrokerId("b".into()), Capacity::default(), 0);
        assert_eq!(br.bundles_in_namespace(&a), 0);
        for i in 0..3 {
            br.bundles.insert(bid(&a, i));
            br.bundles_changed();
        }
        assert_eq!(br.one_namespace.0.as_ref(), Some(&a));
        assert_eq!((br.bundles_in_namespace(&a), br.bundles_in_namespace(&b)), (3, 0));
        br.bundles.insert(bid(&b, 7));
        br.bundles_changed();
        assert_eq!(br.one_namespace.0, None);
        assert_eq!((br.bundles_in_namespace(&a), br.bundles_in_namespace(&b)), (3, 1));
        // A broker read back from JSON has no cache yet and still counts right.
        let back: Broker = serde_json::from_str(&serde_json::to_string(&br).unwrap()).unwrap();
        assert_eq!(back.one_namespace.0, None);
        assert_eq!(
            (back.bundles_in_namespace(&a), back.bundles_in_namespace(&b)),
            (3, 1)
        );
        for i in 0..3 {
            br.bundles.remove(&bid(&a, i));
            br.bundles_changed();
        }
        assert_eq!(br.one_namespace.0.as_ref(), Some(&b));
        assert_eq!((br.bundles_in_namespace(&a), br.bundles_in_namespace(&b)), (0, 1));
    }

    #[test]
    fn direct_usage_overrides_the_model() {
        let mut b = Broker::new(BrokerId("b".into()), Capacity::default(), 0);
        b.direct.cpu = Some(40.0);
        let u = b.usage(&Traffic::default(), 0);
        assert_eq!(u.cpu.percent_usage(), 40.0);
        assert_eq!(u.bandwidth_in.percent_usage(), 0.0);
        assert!(Capacity::default().is_valid());
        let tiny = Capacity {
            cpu_cores: 1e-320,
            ..Default::default()
        };
        assert!(tiny.check().unwrap_err().contains("cpu_cores"));
        assert!(!DirectUsage {
            cpu: Some(f64::NAN),
            ..Default::default()
        }
        .is_valid());
    }
}
