//! Dense positions of the live bundles, for passes that look every bundle up:
//! namespace by namespace (name order), each namespace's bundles by range —
//! the order of the simulation's bundle map. A bundle's position comes from
//! its namespace (the previous one, compared by pointer, in the common case)
//! and its range (where it would sit if the bundles were equal: exact for a
//! namespace never split; a binary search otherwise), instead of a descent of
//! a tree keyed by bundle id.

use super::bundle::BundleRange;
use super::load::{BundleId, NamespaceName};
use super::namespace::Namespace;
use super::ns_id;
use std::cell::Cell;
use std::collections::BTreeMap;

/// Positions of the live bundles (see the module doc).
pub(crate) struct BundleIndex<'a> {
    /// Per namespace: its id, bundle list, and the position of its first bundle.
    namespaces: Vec<(NamespaceName, &'a [BundleRange], usize)>,
    len: usize,
    /// The namespace of the last lookup.
    last: Cell<usize>,
}

impl<'a> BundleIndex<'a> {
    /// The index of the live bundles of `namespaces` (a simulation's, with the
    /// shared ids of their names).
    pub(crate) fn new(
        namespaces: &'a BTreeMap<String, Namespace>,
        ids: &BTreeMap<String, NamespaceName>,
        live: usize,
    ) -> Self {
        let mut len = 0;
        let namespaces = namespaces
            .iter()
            .map(|(name, ns)| {
                let at = len;
                len += ns.bundles.len();
                (ns_id(ids, name), ns.bundles.as_slice(), at)
            })
            .collect();
        debug_assert_eq!(
            len, live,
            "namespaces' bundle lists out of step with the live bundles"
        );
        let _ = live;
        BundleIndex {
            namespaces,
            len,
            last: Cell::new(0),
        }
    }

    /// `bid`'s position, if it is live.
    #[inline(always)]
    pub(crate) fn of(&self, bid: &BundleId) -> Option<usize> {
        let mut at = self.last.get();
        if self.namespaces.get(at).is_none_or(|n| n.0 != bid.namespace) {
            at = self
                .namespaces
                .binary_search_by(|n| n.0.cmp(&bid.namespace))
                .ok()?;
            self.last.set(at);
        }
        let (_, ranges, first) = &self.namespaces[at];
        find_range(ranges, bid.range).map(|i| first + i)
    }

    /// The positions of `ids` (`u32::MAX` for one that is not live).
    pub(crate) fn positions<'b>(&self, ids: impl Iterator<Item = &'b BundleId>) -> Vec<u32> {
        ids.map(|bid| self.of(bid).map_or(u32::MAX, |i| i as u32))
            .collect()
    }

    /// The values of a bundle-keyed map by position: live keys in a vector,
    /// any other key (none, as the simulation keeps its maps) aside. `entries`
    /// must come in key order (a `BTreeMap`'s iteration): one walk alongside
    /// the live bundles places them.
    pub(crate) fn place<'m, V: 'm>(
        &self,
        entries: impl Iterator<Item = (&'m BundleId, V)>,
    ) -> Placed<'_, 'a, 'm, V> {
        let mut at: Vec<Option<V>> = Vec::with_capacity(self.len);
        let mut other = BTreeMap::new();
        let mut entries = entries.peekable();
        for (id, ranges, _) in &self.namespaces {
            for r in *ranges {
                let order = |k: &BundleId| k.namespace.cmp(id).then(k.range.cmp(r));
                while let Some((k, v)) = entries.next_if(|(k, _)| order(k).is_lt()) {
                    other.insert(k, v);
                }
                at.push(entries.next_if(|(k, _)| order(k).is_eq()).map(|(_, v)| v));
            }
        }
        other.extend(entries);
        Placed {
            index: self,
            at,
            other,
        }
    }
}

/// A number that changes whenever the live bundles' layout does (the
/// namespaces, in order, and each one's bundle count): positions computed
/// under one number hold while it stays. A cache, not part of the state.
#[derive(Clone, Default)]
pub(crate) struct LayoutStamp {
    key: Vec<(NamespaceName, usize)>,
    stamp: u64,
}

impl std::fmt::Debug for LayoutStamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A cache: two states that differ only here print alike.
        f.write_str("LayoutStamp")
    }
}

impl LayoutStamp {
    /// The number for `index`'s layout (a new one when it changed since the last call).
    pub(crate) fn of(&mut self, index: &BundleIndex<'_>) -> u64 {
        let same = self.key.len() == index.namespaces.len()
            && self
                .key
                .iter()
                .zip(&index.namespaces)
                .all(|((n, len), (m, ranges, _))| n == m && *len == ranges.len());
        if !same || self.stamp == 0 {
            self.key = index
                .namespaces
                .iter()
                .map(|(n, r, _)| (n.clone(), r.len()))
                .collect();
            self.stamp += 1;
        }
        self.stamp
    }
}

/// A map's values placed by [`BundleIndex::place`].
pub(crate) struct Placed<'i, 'a, 'm, V> {
    index: &'i BundleIndex<'a>,
    at: Vec<Option<V>>,
    other: BTreeMap<&'m BundleId, V>,
}

impl<V> Placed<'_, '_, '_, V> {
    /// The values by position (a live bundle the map does not hold: `None`),
    /// leaving out any other key.
    pub(crate) fn into_positions(self) -> Vec<Option<V>> {
        self.at
    }

    /// The value of `bid`, if the map holds it.
    pub(crate) fn get(&self, bid: &BundleId) -> Option<&V> {
        match self.index.of(bid) {
            Some(i) => self.at[i].as_ref(),
            None => self.other.get(bid),
        }
    }

    /// The value of `bid`, if the map holds it.
    pub(crate) fn get_mut(&mut self, bid: &BundleId) -> Option<&mut V> {
        match self.index.of(bid) {
            Some(i) => self.at[i].as_mut(),
            None => self.other.get_mut(bid),
        }
    }
}

/// The position of `r` in a namespace's bundle list (sorted ranges tiling the
/// ring), if it is there: first where `r` would sit if the bundles were equal,
/// else a binary search by lower boundary (each is distinct).
pub(crate) fn find_range(ranges: &[BundleRange], r: BundleRange) -> Option<usize> {
    let guess = ((u64::from(r.lower) * ranges.len() as u64) >> 32) as usize;
    if ranges.get(guess) == Some(&r) {
        return Some(guess);
    }
    let i = ranges.partition_point(|x| x.lower < r.lower);
    (ranges.get(i) == Some(&r)).then_some(i)
}
