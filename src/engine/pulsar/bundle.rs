//! Namespace bundles: contiguous ranges of the 32-bit topic-hash ring.
//!
//! Pulsar shards a namespace's hash space `[0x00000000, 0xFFFFFFFF]` into bundles.
//! Every bundle is half-open `[lower, upper)` except the last one, which is closed
//! so that the hash `0xFFFFFFFF` has a home. A bundle is named
//! `0x%08x_0x%08x` after its two boundaries.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Size of the full hash space, `2^32` (one past the largest hash).
pub const FULL_SPACE: u64 = 0x1_0000_0000;
/// The largest boundary Pulsar uses: the last bundle ends (inclusively) here.
pub const LAST_BOUNDARY: u32 = 0xFFFF_FFFF;

/// A bundle's hash range. `upper == LAST_BOUNDARY` means the range is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BundleRange {
    /// Inclusive lower boundary.
    pub lower: u32,
    /// Exclusive upper boundary (inclusive when it is [`LAST_BOUNDARY`]).
    pub upper: u32,
}

impl BundleRange {
    /// The whole ring as a single bundle.
    pub const FULL: BundleRange = BundleRange {
        lower: 0,
        upper: LAST_BOUNDARY,
    };

    /// Whether `hash` belongs to this bundle.
    pub fn contains(&self, hash: u32) -> bool {
        hash >= self.lower && (hash < self.upper || (self.upper == LAST_BOUNDARY && hash == LAST_BOUNDARY))
    }

    /// Whether the upper boundary is inclusive (only the last bundle's is).
    pub fn is_closed(&self) -> bool {
        self.upper == LAST_BOUNDARY
    }

    /// Number of hashes the range holds.
    pub fn width(&self) -> u64 {
        u64::from(self.upper) - u64::from(self.lower) + u64::from(self.is_closed())
    }

    /// Pulsar's bundle name, `0x%08x_0x%08x`.
    pub fn name(&self) -> String {
        format!("0x{:08x}_0x{:08x}", self.lower, self.upper)
    }

    /// Parse a bundle name `0xLLLLLLLL_0xUUUUUUUU` (case-insensitive hex).
    pub fn parse(name: &str) -> Option<BundleRange> {
        let (lo, up) = name.trim().split_once('_')?;
        let hex = |s: &str| {
            let s = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
            u32::from_str_radix(s, 16).ok()
        };
        let (lower, upper) = (hex(lo)?, hex(up)?);
        (lower < upper).then_some(BundleRange { lower, upper })
    }
}

impl fmt::Display for BundleRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The `n + 1` boundaries Pulsar computes for a namespace created with `n` bundles:
/// `segment = 2^32 / n` (integer division), boundary `i = i * segment`, and the
/// last boundary forced to `0xFFFFFFFF`. Returns `None` for `n == 0`.
pub fn initial_boundaries(n: u32) -> Option<Vec<u32>> {
    if n == 0 {
        return None;
    }
    let segment = FULL_SPACE / u64::from(n);
    let mut b: Vec<u32> = (0..n).map(|i| (u64::from(i) * segment) as u32).collect();
    b.push(LAST_BOUNDARY);
    Some(b)
}

/// Turn sorted boundaries into ranges (`boundaries.len() - 1` bundles).
pub fn ranges_from_boundaries(boundaries: &[u32]) -> Vec<BundleRange> {
    boundaries
        .windows(2)
        .map(|w| BundleRange {
            lower: w[0],
            upper: w[1],
        })
        .collect()
}

/// Index of the range (in a sorted tiling of the ring) that holds `hash`.
pub fn find(ranges: &[BundleRange], hash: u32) -> Option<usize> {
    let i = ranges.partition_point(|r| r.upper <= hash && !(r.is_closed() && hash == LAST_BOUNDARY));
    (i < ranges.len() && ranges[i].contains(hash)).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_match_pulsar() {
        assert_eq!(initial_boundaries(1).unwrap(), vec![0, 0xFFFF_FFFF]);
        assert_eq!(initial_boundaries(2).unwrap(), vec![0, 0x8000_0000, 0xFFFF_FFFF]);
        assert_eq!(
            initial_boundaries(3).unwrap(),
            vec![0, 0x5555_5555, 0xAAAA_AAAA, 0xFFFF_FFFF]
        );
        assert_eq!(
            initial_boundaries(4).unwrap(),
            vec![0, 0x4000_0000, 0x8000_0000, 0xC000_0000, 0xFFFF_FFFF]
        );
        assert_eq!(
            initial_boundaries(5).unwrap(),
            vec![0, 0x3333_3333, 0x6666_6666, 0x9999_9999, 0xCCCC_CCCC, 0xFFFF_FFFF]
        );
        let b16 = initial_boundaries(16).unwrap();
        assert_eq!(b16.len(), 17);
        assert_eq!(b16[1], 0x1000_0000);
        assert_eq!(b16[15], 0xF000_0000);
        let b128 = initial_boundaries(128).unwrap();
        assert_eq!(b128.len(), 129);
        assert_eq!(b128[1], 0x0200_0000);
        assert_eq!(b128[127], 0xFE00_0000);
        assert_eq!(b128[128], 0xFFFF_FFFF);
        assert!(initial_boundaries(0).is_none());
    }

    #[test]
    fn names_and_closed_last_bundle() {
        let r = ranges_from_boundaries(&initial_boundaries(4).unwrap());
        assert_eq!(r[0].name(), "0x00000000_0x40000000");
        assert_eq!(r[3].name(), "0xc0000000_0xffffffff");
        assert!(!r[0].contains(0x4000_0000));
        assert!(r[1].contains(0x4000_0000));
        assert!(r[3].contains(0xFFFF_FFFF));
        assert_eq!(find(&r, 0xFFFF_FFFF), Some(3));
        assert_eq!(find(&r, 0x3FFF_FFFF), Some(0));
        assert_eq!(find(&r, 0x4000_0000), Some(1));
        assert_eq!(BundleRange::parse("0x00000000_0x40000000"), Some(r[0]));
        assert_eq!(BundleRange::parse("0x40000000_0x00000000"), None);
        assert_eq!(BundleRange::parse("garbage"), None);
        let total: u64 = r.iter().map(BundleRange::width).sum();
        assert_eq!(total, FULL_SPACE);
    }
}
