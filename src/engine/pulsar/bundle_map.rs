//! The bundles' state by id, with a note of which bundles were written: a view
//! kept between rounds (the large ring) asks which bundles may have changed
//! since it last read them and visits only those, instead of comparing all
//! 16,384 with what it drew. The note is not part of the simulation's state:
//! it is left out of `Debug`, and nothing the engine decides reads it.
//!
//! Every way of changing a bundle's state goes through this type (reads go
//! through `Deref` to the map), so no write can be missed: a write through
//! one id notes that id, a write through a range notes "all".

use super::ids::BundleId;
use super::BundleState;
use std::collections::btree_map::{self, BTreeMap};
use std::ops::RangeBounds;

/// How many ids the note holds; when full, it forgets the older half (a view
/// whose mark is older then reads every bundle, as it would without the note).
const NOTE_MAX: usize = 8192;

/// The bundle map and its note of writes.
#[derive(Clone, Default)]
pub struct BundleMap {
    map: BTreeMap<BundleId, BundleState>,
    note: Written,
}

/// Which bundles were written after which write count.
#[derive(Clone, Debug, Default)]
struct Written {
    /// Writes noted so far (one per call that may change a bundle).
    count: u64,
    /// The write count from which `ids` is complete: every write after it is in
    /// `ids` (a write may repeat an id).
    since: u64,
    ids: Vec<BundleId>,
}

impl std::fmt::Debug for BundleMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.map.fmt(f)
    }
}

impl PartialEq for BundleMap {
    fn eq(&self, o: &Self) -> bool {
        self.map == o.map
    }
}

impl std::ops::Deref for BundleMap {
    type Target = BTreeMap<BundleId, BundleState>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl BundleMap {
    /// How many writes were noted so far: give it back to [`BundleMap::written_since`].
    pub fn writes(&self) -> u64 {
        self.note.count
    }

    /// The ids of the bundles written after write count `mark` (an id may come
    /// more than once), or `None` when the note no longer reaches back that far
    /// (too many writes since, or a write to many bundles at once): then any
    /// bundle may have changed.
    pub fn written_since(&self, mark: u64) -> Option<&[BundleId]> {
        if mark < self.note.since || mark > self.note.count {
            return None;
        }
        // Each noted write added at most one id; the ones after `mark` are the last.
        let after = (self.note.count - mark) as usize;
        if after > self.note.ids.len() {
            return None;
        }
        Some(&self.note.ids[self.note.ids.len() - after..])
    }

    fn note(&mut self, id: &BundleId) {
        let n = &mut self.note;
        if n.ids.len() >= NOTE_MAX {
            // Full: the older half goes (a mark from before it is no longer reached).
            let old = n.ids.len() / 2;
            n.ids.drain(..old);
            n.since += old as u64;
        }
        n.count += 1;
        n.ids.push(id.clone());
    }

    fn note_all(&mut self) {
        let n = &mut self.note;
        n.count += 1;
        n.ids.clear();
        n.since = n.count;
    }

    /// As `BTreeMap::get_mut` (notes `id`).
    pub fn get_mut(&mut self, id: &BundleId) -> Option<&mut BundleState> {
        self.note(id);
        self.map.get_mut(id)
    }

    /// As `BTreeMap::insert` (notes `id`).
    pub fn insert(&mut self, id: BundleId, st: BundleState) -> Option<BundleState> {
        self.note(&id);
        self.map.insert(id, st)
    }

    /// As `BTreeMap::remove` (notes `id`).
    pub fn remove(&mut self, id: &BundleId) -> Option<BundleState> {
        self.note(id);
        self.map.remove(id)
    }

    /// As `BTreeMap::range_mut` (notes all).
    pub fn range_mut<R: RangeBounds<BundleId>>(
        &mut self,
        r: R,
    ) -> btree_map::RangeMut<'_, BundleId, BundleState> {
        self.note_all();
        self.map.range_mut(r)
    }
}

impl<'a> IntoIterator for &'a BundleMap {
    type Item = (&'a BundleId, &'a BundleState);
    type IntoIter = btree_map::Iter<'a, BundleId, BundleState>;
    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u32) -> BundleId {
        super::super::shed::fixture::bid(i)
    }

    /// The note gives exactly the ids written after a mark, and says "unknown"
    /// for marks it no longer reaches and after writes to many bundles.
    #[test]
    fn the_note_names_the_bundles_written_since_a_mark() {
        let mut m = BundleMap::default();
        let start = m.writes();
        assert_eq!(m.written_since(start), Some(&[][..]));
        m.insert(id(1), BundleState::default());
        m.insert(id(2), BundleState::default());
        let mid = m.writes();
        let _ = m.get_mut(&id(1));
        let _ = m.get_mut(&id(9)); // absent: noted all the same
        assert_eq!(m.written_since(mid), Some(&[id(1), id(9)][..]));
        assert_eq!(m.written_since(start), Some(&[id(1), id(2), id(1), id(9)][..]));
        assert_eq!(m.written_since(m.writes() + 1), None, "a mark from the future");
        m.remove(&id(2));
        assert_eq!(m.written_since(mid).map(<[_]>::len), Some(3));
        assert_eq!(m.len(), 1);
        // A write through a range: any bundle may have changed.
        let before = m.writes();
        m.range_mut(..).for_each(|_| {});
        assert_eq!(m.written_since(before), None);
        assert_eq!(
            m.written_since(m.writes()),
            Some(&[][..]),
            "complete again from here"
        );
        let now = m.writes();
        for _ in 0..NOTE_MAX {
            let _ = m.get_mut(&id(1));
        }
        assert_eq!(m.written_since(now).map(<[_]>::len), Some(NOTE_MAX));
        let _ = m.get_mut(&id(2));
        assert_eq!(m.written_since(now), None, "more writes than the note holds");
        let recent = m.writes() - 3;
        assert_eq!(
            m.written_since(recent),
            Some(&[id(1), id(1), id(2)][..]),
            "the newer half is kept"
        );
        // The note is no part of the state.
        let mut other = BundleMap::default();
        for (k, v) in m.iter() {
            other.insert(k.clone(), v.clone());
        }
        assert_eq!(other, m);
        assert_eq!(format!("{other:?}"), format!("{:?}", *m));
        let _ = other.get_mut(&id(1));
        assert_eq!(other, m);
    }
}
