//! Namespaces (tenant/namespace): a group of topics whose hash ring is sharded
//! into bundles on creation.

use super::bundle::{self, BundleRange};
use super::topic::TopicName;
use super::traffic::Traffic;
use super::workload::Shaped;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

/// The namespace that gets `systemNamespaceBundles` by default.
pub const SYSTEM_NAMESPACE: &str = "pulsar/system";

/// A topic as the namespace knows it (a partition has its own `-partition-i` entry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Topic {
    /// Full name.
    pub name: TopicName,
    /// Its position on the ring: Pulsar's hash, or a pinned value.
    pub hash: u32,
    /// Whether the hash was pinned by the user.
    #[serde(default)]
    pub pinned: bool,
    /// Its traffic while its namespace holds no shaped traffic; read it with
    /// [`Namespace::traffic`], which also sees what workload patterns made of it.
    #[serde(default)]
    pub(super) traffic: Traffic,
    /// How many times its sessions were closed by an unload and reconnected.
    #[serde(default)]
    pub reconnects: u64,
    /// Its place in the namespace's shaped traffic ([`super::workload::Shaped`];
    /// [`UNRANKED`] when it has none).
    #[serde(skip, default = "unranked")]
    pub(super) rank: u32,
}

/// The rank of a topic outside the shaped traffic.
pub(super) const UNRANKED: u32 = u32::MAX;

fn unranked() -> u32 {
    UNRANKED
}

impl Topic {
    /// A topic carrying `traffic`.
    pub(super) fn new(name: TopicName, hash: u32, pinned: bool, traffic: Traffic) -> Topic {
        Topic {
            name,
            hash,
            pinned,
            traffic,
            reconnects: 0,
            rank: UNRANKED,
        }
    }
}

/// A namespace and its bundles (sorted, tiling the whole ring).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Namespace {
    /// `tenant/namespace`.
    pub name: String,
    /// The bundles, sorted by lower boundary; they tile `[0, 0xFFFFFFFF]`.
    pub bundles: Vec<BundleRange>,
    /// Topics by name.
    pub topics: BTreeMap<TopicName, Topic>,
    /// The same topics ordered by (hash, name): range queries per bundle.
    #[serde(default)]
    pub ring: BTreeSet<(u32, TopicName)>,
    /// Partitioned topics and their partition counts.
    #[serde(default)]
    pub partitioned: BTreeMap<TopicName, u32>,
    /// The traffic of its topics while workload patterns shape it, in dense
    /// arrays (see [`super::workload`]).
    #[serde(skip)]
    pub(super) shaped: Option<Box<Shaped>>,
}

impl Namespace {
    /// A namespace sharded into `n` equal bundles (Pulsar's initial boundaries).
    pub fn new(name: &str, n: u32) -> Option<Namespace> {
        Some(Namespace {
            name: name.to_string(),
            bundles: bundle::ranges_from_boundaries(&bundle::initial_boundaries(n)?),
            topics: BTreeMap::new(),
            ring: BTreeSet::new(),
            partitioned: BTreeMap::new(),
            shaped: None,
        })
    }

    /// A copy without its topics (and without its bundle list unless
    /// `bundles`): what an outline of a large cluster shows.
    pub fn outline(&self, bundles: bool) -> Namespace {
        Namespace {
            name: self.name.clone(),
            bundles: if bundles { self.bundles.clone() } else { Vec::new() },
            topics: BTreeMap::new(),
            ring: BTreeSet::new(),
            partitioned: BTreeMap::new(),
            shaped: None,
        }
    }

    /// A copy whose topics carry the traffic they have now (their own, not
    /// the shaped arrays), as its serialized form shows them.
    pub fn settled(&self) -> Namespace {
        let mut ns = self.clone();
        super::workload::unshape(&mut ns);
        ns
    }

    /// The tenant part.
    pub fn tenant(&self) -> &str {
        self.name.split_once('/').map_or(self.name.as_str(), |(t, _)| t)
    }

    /// The bundle that holds `hash`.
    pub fn bundle_of(&self, hash: u32) -> BundleRange {
        // The bundles tile the ring, so a bundle always exists.
        self.bundles[bundle::find(&self.bundles, hash).unwrap_or(0)]
    }

    /// Index of `range` among the bundles.
    pub fn index_of(&self, range: BundleRange) -> Option<usize> {
        self.bundles.binary_search(&range).ok()
    }

    /// Insert a topic (caller checked it is new).
    pub fn insert(&mut self, t: Topic) {
        self.ring.insert((t.hash, t.name.clone()));
        self.topics.insert(t.name.clone(), t);
    }

    /// Topics inside `range`, sorted by hash then name (O(log n + k)).
    pub fn topics_in(&self, range: BundleRange) -> Vec<&Topic> {
        self.ring
            .range(ring_bounds(range))
            .filter_map(|(_, n)| self.topics.get(n))
            .collect()
    }

    /// Count a reconnection on every topic inside `range` (its clients were
    /// disconnected): how many topics, and how many sessions (producers and
    /// consumers, at the traffic they carry now) that was. One lookup per topic.
    pub(super) fn reconnect_in(&mut self, range: BundleRange) -> (u32, u32) {
        let Namespace {
            ring, topics, shaped, ..
        } = self;
        let (mut n, mut sessions) = (0u32, 0u32);
        for (_, name) in ring.range(ring_bounds(range)) {
            if let Some(t) = topics.get_mut(name) {
                t.reconnects += 1;
                n += 1;
                sessions = sessions.saturating_add(shaped_traffic(shaped, t).sessions());
            }
        }
        (n, sessions)
    }

    /// Number of topics and their summed traffic inside `range`.
    pub fn aggregate(&self, range: BundleRange) -> (u32, Traffic) {
        self.topics_in(range)
            .into_iter()
            .fold((0, Traffic::default()), |(n, t), x| {
                (n + 1, t.plus(&self.traffic(x)))
            })
    }

    /// The traffic `t` (one of this namespace's topics) carries now: what the
    /// workload patterns made of it when they shape this namespace, else its own.
    #[inline]
    pub fn traffic(&self, t: &Topic) -> Traffic {
        shaped_traffic(&self.shaped, t)
    }

    /// Give topic `name` the traffic `traffic` (a new base for the patterns,
    /// which shape it again from the next round); its hash, if it exists.
    pub(super) fn set_traffic(&mut self, name: &TopicName, traffic: Traffic) -> Option<u32> {
        let t = self.topics.get_mut(name)?;
        t.traffic = traffic;
        if let (Some(s), true) = (&mut self.shaped, t.rank != UNRANKED) {
            s.set(t.rank, traffic);
        }
        Some(t.hash)
    }
}

/// A ring entry: a topic's hash and name.
type RingKey = (u32, TopicName);

/// The bounds of the ring entries inside `range`.
fn ring_bounds(range: BundleRange) -> (Bound<RingKey>, Bound<RingKey>) {
    let hi = if range.is_closed() {
        Bound::Unbounded
    } else {
        Bound::Excluded((range.upper, TopicName::empty()))
    };
    (Bound::Included((range.lower, TopicName::empty())), hi)
}

/// [`Namespace::traffic`], from the namespace's shaped traffic alone.
#[inline]
fn shaped_traffic(shaped: &Option<Box<Shaped>>, t: &Topic) -> Traffic {
    match shaped {
        Some(s) if t.rank != UNRANKED => s.now(t.rank),
        _ => t.traffic,
    }
}
