//! A figure's distribution over many runs (a sweep over seeds): min, median,
//! 90th percentile and max, by the nearest-rank rule so every value shown is
//! one that a run gave.

use serde::Serialize;

/// The distribution of one figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// Runs that have the figure.
    pub n: usize,
    /// Smallest.
    pub min: f64,
    /// Median (nearest rank: the ⌈n/2⌉-th smallest).
    pub median: f64,
    /// 90th percentile (nearest rank: the ⌈0.9 n⌉-th smallest).
    pub p90: f64,
    /// Largest.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl Distribution {
    /// The distribution of `values` (`None` when empty).
    pub fn of(values: &[f64]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        crate::sort::StableSort::stable_sort_by(&mut v[..], f64::total_cmp);
        let n = v.len();
        let rank = |p: f64| v[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Some(Distribution {
            n,
            min: v[0],
            median: rank(0.5),
            p90: rank(0.9),
            max: v[n - 1],
            mean: v.iter().sum::<f64>() / n as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let d = Distribution::of(&[5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0]).unwrap();
        assert_eq!((d.n, d.min, d.median, d.p90, d.max), (10, 1.0, 5.0, 9.0, 10.0));
        assert_eq!(d.mean, 5.5);
        let d = Distribution::of(&[3.0]).unwrap();
        assert_eq!((d.min, d.median, d.p90, d.max), (3.0, 3.0, 3.0, 3.0));
        assert!(Distribution::of(&[]).is_none());
    }
}
