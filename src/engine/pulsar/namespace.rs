//! Namespaces: a group of topics whose hash ring is sharded into bundles.

use super::bundle::{self, BundleRange};
use super::topic::TopicName;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A topic as the namespace knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Topic {
    /// Full name (a partition has its own `-partition-i` name).
    pub name: TopicName,
    /// Its position on the ring: Pulsar's hash, or a pinned value.
    pub hash: u32,
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
}

impl Namespace {
    /// A namespace sharded into `n` equal bundles (Pulsar's initial boundaries).
    pub fn new(name: &str, n: u32) -> Option<Namespace> {
        Some(Namespace {
            name: name.to_string(),
            bundles: bundle::ranges_from_boundaries(&bundle::initial_boundaries(n)?),
            topics: BTreeMap::new(),
        })
    }

    /// The bundle that holds `hash`.
    pub fn bundle_of(&self, hash: u32) -> BundleRange {
        // The bundles tile the ring, so a bundle always exists.
        self.bundles[bundle::find(&self.bundles, hash).unwrap_or(0)]
    }

    /// Topics inside `range`, sorted by hash then name.
    pub fn topics_in(&self, range: BundleRange) -> Vec<&Topic> {
        let mut v: Vec<&Topic> = self.topics.values().filter(|t| range.contains(t.hash)).collect();
        v.sort_by(|a, b| a.hash.cmp(&b.hash).then_with(|| a.name.cmp(&b.name)));
        v
    }
}
