//! A scalable topic's segments (PIP-460, PIP-468): the 16-bit key-hash space
//! `[0x0000, 0xFFFF]` cut into hash-range segments that form a DAG. Splitting
//! a segment seals it and adds two children covering its halves; merging two
//! adjacent segments seals both and adds one child covering their union.
//! Only the active (unsealed) segments take new messages.
//!
//! As `SegmentLayout` and `HashRange` of apache/pulsar do (see
//! `docs/modelled.md` for the commit):
//!
//! * a split cuts at `mid = start + (end − start) / 2`: `[start, mid]` and
//!   `[mid + 1, end]`; a range of one hash cannot be split;
//! * two ranges are adjacent when one ends right before the other starts;
//! * a topic created with `N` segments gives segment `i` the range
//!   `[i · 65536 / N, i · 65536 / N + 65536 / N − 1]`, the last one ending at
//!   `0xFFFF`; ids `0 .. N − 1`, epoch 0;
//! * each split or merge bumps the epoch; children take the next ids (a split
//!   two, a merge one) and the sealed parents record them;
//! * a segment's merge depth is how many segments of its ancestry (itself
//!   included) were made by a merge (have two parents).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The largest key hash: segments cover `[0, HASH_MAX]`.
pub const HASH_MAX: u16 = 0xFFFF;

/// An inclusive range of 16-bit key hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HashRange {
    /// First hash.
    pub start: u16,
    /// Last hash (inclusive).
    pub end: u16,
}

impl HashRange {
    /// `[start, end]`; `None` when `start > end`.
    pub fn of(start: u16, end: u16) -> Option<HashRange> {
        (start <= end).then_some(HashRange { start, end })
    }

    /// The whole key space.
    pub const FULL: HashRange = HashRange {
        start: 0,
        end: HASH_MAX,
    };

    /// How many hashes it holds.
    pub fn size(&self) -> u32 {
        u32::from(self.end) - u32::from(self.start) + 1
    }

    /// Whether `h` lies inside.
    pub fn contains(&self, h: u16) -> bool {
        self.start <= h && h <= self.end
    }

    /// The two halves, cut at `start + (end − start) / 2`; `None` for a range of one hash.
    pub fn split(&self) -> Option<(HashRange, HashRange)> {
        if self.size() < 2 {
            return None;
        }
        let mid = self.start + (self.end - self.start) / 2;
        Some((
            HashRange {
                start: self.start,
                end: mid,
            },
            HashRange {
                start: mid + 1,
                end: self.end,
            },
        ))
    }

    /// Whether the two ranges touch end to start (either way round).
    pub fn is_adjacent_to(&self, o: &HashRange) -> bool {
        u32::from(self.end) + 1 == u32::from(o.start) || u32::from(o.end) + 1 == u32::from(self.start)
    }

    /// The smallest range holding both.
    pub fn union(&self, o: &HashRange) -> HashRange {
        HashRange {
            start: self.start.min(o.start),
            end: self.end.max(o.end),
        }
    }

    /// How many hashes the two ranges share.
    pub fn overlap(&self, o: &HashRange) -> u32 {
        let lo = self.start.max(o.start);
        let hi = self.end.min(o.end);
        if lo > hi {
            0
        } else {
            u32::from(hi) - u32::from(lo) + 1
        }
    }
}

impl std::fmt::Display for HashRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[0x{:04x}, 0x{:04x}]", self.start, self.end)
    }
}

/// Whether a segment takes messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentState {
    /// Takes new messages.
    Active,
    /// Replaced by its children: no new messages.
    Sealed,
}

/// One segment of the DAG.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentInfo {
    /// Its id (unique in the topic, never reused).
    pub id: u64,
    /// Its keys.
    pub range: HashRange,
    /// Active or sealed.
    pub state: SegmentState,
    /// The segments it replaced (none for an initial one, one after a split, two after a merge).
    pub parents: Vec<u64>,
    /// The segments that replaced it (once sealed).
    pub children: Vec<u64>,
    /// Simulated time it was created, ms.
    pub created_ms: u64,
    /// Simulated time it was sealed, ms.
    pub sealed_ms: Option<u64>,
}

/// Why a split or merge was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// No segment with that id.
    #[error("segment {0} does not exist")]
    NoSuchSegment(u64),
    /// The segment is sealed.
    #[error("segment {0} is sealed (only active segments can be split or merged)")]
    Sealed(u64),
    /// A range of one hash.
    #[error("segment {id} covers one hash ({range}) and cannot be split")]
    TooSmall {
        /// The segment.
        id: u64,
        /// Its range.
        range: HashRange,
    },
    /// Merge of non-adjacent segments.
    #[error("segments {a} {ra} and {b} {rb} are not adjacent")]
    NotAdjacent {
        /// First.
        a: u64,
        /// Its range.
        ra: HashRange,
        /// Second.
        b: u64,
        /// Its range.
        rb: HashRange,
    },
    /// A segment merged with itself.
    #[error("cannot merge segment {0} with itself")]
    SameSegment(u64),
}

/// A scalable topic's segment DAG.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentLayout {
    /// Every segment, sealed ones included, by id.
    pub segments: BTreeMap<u64, SegmentInfo>,
    /// The next id a new segment takes.
    pub next_id: u64,
    /// Bumped by every split and merge.
    pub epoch: u64,
}

impl SegmentLayout {
    /// The layout of a topic created with `n` segments (`1 ..= 65536`), at time `now_ms`.
    pub fn initial(n: u32, now_ms: u64) -> Option<SegmentLayout> {
        if n == 0 || n > 65_536 {
            return None;
        }
        let size = 65_536 / n;
        let segments = (0..n)
            .map(|i| {
                let start = i * size;
                let end = if i + 1 == n { 0xFFFF } else { start + size - 1 };
                let id = u64::from(i);
                (
                    id,
                    SegmentInfo {
                        id,
                        range: HashRange {
                            start: start as u16,
                            end: end as u16,
                        },
                        state: SegmentState::Active,
                        parents: Vec::new(),
                        children: Vec::new(),
                        created_ms: now_ms,
                        sealed_ms: None,
                    },
                )
            })
            .collect();
        Some(SegmentLayout {
            segments,
            next_id: u64::from(n),
            epoch: 0,
        })
    }

    /// The active segments, by id.
    pub fn active(&self) -> impl Iterator<Item = &SegmentInfo> {
        self.segments.values().filter(|s| s.state == SegmentState::Active)
    }

    /// How many segments are active.
    pub fn active_count(&self) -> usize {
        self.active().count()
    }

    /// The active segment holding key hash `h`.
    pub fn segment_of(&self, h: u16) -> Option<&SegmentInfo> {
        self.active().find(|s| s.range.contains(h))
    }

    fn active_segment(&self, id: u64) -> Result<&SegmentInfo, LayoutError> {
        let s = self.segments.get(&id).ok_or(LayoutError::NoSuchSegment(id))?;
        if s.state != SegmentState::Active {
            return Err(LayoutError::Sealed(id));
        }
        Ok(s)
    }

    fn seal(&mut self, id: u64, children: Vec<u64>, now_ms: u64) {
        if let Some(s) = self.segments.get_mut(&id) {
            s.state = SegmentState::Sealed;
            s.children = children;
            s.sealed_ms = Some(now_ms);
        }
    }

    fn add(&mut self, id: u64, range: HashRange, parents: Vec<u64>, now_ms: u64) {
        self.segments.insert(
            id,
            SegmentInfo {
                id,
                range,
                state: SegmentState::Active,
                parents,
                children: Vec::new(),
                created_ms: now_ms,
                sealed_ms: None,
            },
        );
    }

    /// Split active segment `id` at its midpoint: the two children's ids.
    pub fn split_segment(&mut self, id: u64, now_ms: u64) -> Result<(u64, u64), LayoutError> {
        let s = self.active_segment(id)?;
        let (lo, hi) = s
            .range
            .split()
            .ok_or(LayoutError::TooSmall { id, range: s.range })?;
        let (a, b) = (self.next_id, self.next_id + 1);
        self.seal(id, vec![a, b], now_ms);
        self.add(a, lo, vec![id], now_ms);
        self.add(b, hi, vec![id], now_ms);
        self.next_id += 2;
        self.epoch += 1;
        Ok((a, b))
    }

    /// Merge two adjacent active segments: the merged segment's id.
    pub fn merge_segments(&mut self, id1: u64, id2: u64, now_ms: u64) -> Result<u64, LayoutError> {
        if id1 == id2 {
            return Err(LayoutError::SameSegment(id1));
        }
        let (a, b) = (self.active_segment(id1)?.range, self.active_segment(id2)?.range);
        if !a.is_adjacent_to(&b) {
            return Err(LayoutError::NotAdjacent {
                a: id1,
                ra: a,
                b: id2,
                rb: b,
            });
        }
        let m = self.next_id;
        self.seal(id1, vec![m], now_ms);
        self.seal(id2, vec![m], now_ms);
        self.add(m, a.union(&b), vec![id1, id2], now_ms);
        self.next_id += 1;
        self.epoch += 1;
        Ok(m)
    }

    /// How many segments of `id`'s ancestry (itself included) were made by a merge.
    pub fn merge_depth(&self, id: u64) -> u32 {
        let mut seen = BTreeSet::new();
        let mut todo = vec![id];
        let mut depth = 0;
        while let Some(s) = todo.pop() {
            if !seen.insert(s) {
                continue;
            }
            if let Some(info) = self.segments.get(&s) {
                if info.parents.len() >= 2 {
                    depth += 1;
                }
                todo.extend(info.parents.iter().copied());
            }
        }
        depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn active_segments_tile_the_key_space_after_any_history() {
        let mut l = SegmentLayout::initial(3, 0).unwrap();
        let (a, _) = l.split_segment(1, 1).unwrap();
        l.split_segment(a, 2).unwrap();
        let m = l.merge_segments(0, 5, 3).unwrap();
        assert_eq!(m, 7);
        let mut ranges: Vec<HashRange> = l.active().map(|s| s.range).collect();
        ranges.sort();
        assert_eq!(ranges.first().unwrap().start, 0);
        assert_eq!(ranges.last().unwrap().end, HASH_MAX);
        for w in ranges.windows(2) {
            assert!(w[0].is_adjacent_to(&w[1]), "{w:?}");
        }
    }
}
