//! Bundle split algorithms (`NamespaceBundleSplitAlgorithm`), exactly as Pulsar
//! computes them, plus applying boundaries to a bundle tiling.
//!
//! All positions are 32-bit topic hashes; Pulsar does the arithmetic in `long`,
//! so lbscope does it in `u64` and never overflows.

use super::bundle::BundleRange;
use super::config::SplitAlgorithm;
use super::traffic::MIB;
use serde::{Deserialize, Serialize};

/// A topic as a split algorithm sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitTopic {
    /// Its hash (position on the ring).
    pub hash: u32,
    /// Its name (for explanations).
    pub name: String,
    /// In + out msg/s.
    pub msg_rate: f64,
    /// In + out bytes/s.
    pub throughput: f64,
}

/// Inputs of `flow_or_qps_equally_divide`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowLimits {
    /// `loadBalancerNamespaceBundleMaxMsgRate` (an `int` in Pulsar).
    pub max_msg_rate: f64,
    /// `loadBalancerNamespaceBundleMaxBandwidthMbytes` (times MiB).
    pub max_bandwidth_mbytes: f64,
    /// `flowOrQpsDifferenceThresholdPercentage`.
    pub difference_threshold_percentage: f64,
}

/// One computed boundary and how it came about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundaryNote {
    /// The boundary.
    pub position: u32,
    /// The formula with its numbers.
    pub why: String,
}

/// What an algorithm returned: `None` boundaries = "no split" (Pulsar returns null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitPlan {
    /// The algorithm.
    pub algorithm: SplitAlgorithm,
    /// Boundaries strictly inside the bundle, ascending; empty = nothing to split.
    pub boundaries: Vec<u32>,
    /// Per-boundary explanation.
    pub notes: Vec<BoundaryNote>,
    /// Why there is no boundary, or how the result relates to the doc.
    pub remark: Option<String>,
}

impl SplitPlan {
    fn none(algorithm: SplitAlgorithm, why: impl Into<String>) -> SplitPlan {
        SplitPlan {
            algorithm,
            boundaries: Vec::new(),
            notes: Vec::new(),
            remark: Some(why.into()),
        }
    }
}

/// `range_equally_divide`: `lower + (upper - lower) / 2`.
pub fn range_equally_divide(range: BundleRange) -> SplitPlan {
    let (lo, up) = (u64::from(range.lower), u64::from(range.upper));
    let mid = lo + (up - lo) / 2;
    SplitPlan {
        algorithm: SplitAlgorithm::RangeEquallyDivide,
        boundaries: vec![mid as u32],
        notes: vec![BoundaryNote {
            position: mid as u32,
            why: format!("0x{lo:08x} + (0x{up:08x} - 0x{lo:08x}) / 2 = 0x{mid:08x}"),
        }],
        remark: None,
    }
}

/// `parts` equal ranges (`NamespaceBundleFactory.splitBundles` with a part
/// count and no boundaries): `seg = (upper − lower) / parts` (integer
/// division), boundaries at `lower + k × seg` for `k` in `1..parts`; the last
/// child keeps the remainder. With 2 parts it is [`range_equally_divide`].
/// No boundary when `parts < 2` or the range is narrower than `parts`.
pub fn range_divide_in_parts(range: BundleRange, parts: u32) -> SplitPlan {
    let alg = SplitAlgorithm::RangeEquallyDivide;
    let (lo, up) = (u64::from(range.lower), u64::from(range.upper));
    if parts < 2 {
        return SplitPlan::none(alg, format!("{parts} part(s): at least 2 are needed"));
    }
    let seg = (up - lo) / u64::from(parts);
    if seg == 0 {
        return SplitPlan::none(
            alg,
            format!("0x{lo:08x}_0x{up:08x} is narrower than {parts} hashes"),
        );
    }
    let boundaries: Vec<u32> = (1..u64::from(parts)).map(|k| (lo + k * seg) as u32).collect();
    SplitPlan {
        algorithm: alg,
        notes: boundaries
            .iter()
            .enumerate()
            .map(|(i, b)| BoundaryNote {
                position: *b,
                why: format!(
                    "0x{lo:08x} + {} × (0x{up:08x} - 0x{lo:08x}) / {parts} = 0x{b:08x}",
                    i + 1
                ),
            })
            .collect(),
        boundaries,
        remark: None,
    }
}

/// `topic_count_equally_divide`: halfway between the two middle topic hashes
/// (`sorted[n/2 - 1]` and `sorted[n/2]`); no split with fewer than 2 topics.
/// `topics` must be sorted by hash.
pub fn topic_count_equally_divide(topics: &[SplitTopic]) -> SplitPlan {
    let alg = SplitAlgorithm::TopicCountEquallyDivide;
    let n = topics.len();
    if n <= 1 {
        return SplitPlan::none(alg, format!("{n} topic(s): at least 2 are needed"));
    }
    let a = &topics[(n / 2).saturating_sub(1)];
    let b = &topics[n / 2];
    let (s, e) = (u64::from(a.hash), u64::from(b.hash));
    let mid = s + (e - s) / 2;
    SplitPlan {
        algorithm: alg,
        boundaries: vec![mid as u32],
        notes: vec![BoundaryNote {
            position: mid as u32,
            why: format!(
                "middle topics {} (0x{s:08x}) and {} (0x{e:08x}): 0x{s:08x} + (0x{e:08x} - 0x{s:08x}) / 2 = 0x{mid:08x}",
                a.name, b.name
            ),
        }],
        remark: Some(format!(
            "{} topic(s) on each side; any boundary in (0x{s:08x}, 0x{e:08x}] splits them equally (the doc picks one such value, e.g. 0x50000000), Pulsar takes the midpoint",
            n / 2
        )),
    }
}

/// `specified_positions_divide`: the operator's positions, sorted, de-duplicated,
/// keeping only those strictly inside the bundle; no split when the bundle has
/// at most one topic.
pub fn specified_positions_divide(range: BundleRange, positions: &[u32], topic_count: usize) -> SplitPlan {
    let alg = SplitAlgorithm::SpecifiedPositionsDivide;
    if positions.is_empty() {
        return SplitPlan::none(alg, "split boundaries can't be empty");
    }
    if topic_count <= 1 {
        return SplitPlan::none(alg, format!("{topic_count} topic(s): at least 2 are needed"));
    }
    let mut p: Vec<u32> = positions
        .iter()
        .copied()
        .filter(|x| *x > range.lower && *x < range.upper)
        .collect();
    p.sort_unstable();
    p.dedup();
    let dropped = positions.len() - p.len();
    SplitPlan {
        algorithm: alg,
        notes: p
            .iter()
            .map(|x| BoundaryNote {
                position: *x,
                why: format!("given position 0x{x:08x}"),
            })
            .collect(),
        boundaries: p,
        remark: (dropped > 0).then(|| {
            format!(
                "{dropped} position(s) outside ({}) or repeated were ignored",
                range.name()
            )
        }),
    }
}

/// `flow_or_qps_equally_divide`. `topics` sorted by hash. Topics with no rate and
/// no throughput are skipped; no split unless at least 2 remain and the bundle's
/// total rate or throughput reaches `max x (1 + threshold%)`. Then walking the
/// topics in hash order, whenever adding the next topic would push the running
/// rate above the max rate or the running throughput above the max bandwidth, a
/// boundary goes at `prev + (next - prev) / 2 + 1` and the running sums restart
/// from that topic. Several boundaries may come out of one call.
///
/// Like Pulsar, topics sharing a hash share one entry of the stats map (the last
/// one in name order wins) but each still appears in the sorted hash list.
pub fn flow_or_qps_equally_divide(topics: &[SplitTopic], lim: FlowLimits) -> SplitPlan {
    let alg = SplitAlgorithm::FlowOrQpsEquallyDivide;
    if topics.len() <= 1 {
        return SplitPlan::none(alg, format!("{} topic(s): at least 2 are needed", topics.len()));
    }
    let max_rate = lim.max_msg_rate;
    let max_bytes = lim.max_bandwidth_mbytes * MIB;
    let diff = lim.difference_threshold_percentage / 100.0;
    let mut hashes: Vec<u32> = Vec::new();
    let mut info: std::collections::BTreeMap<u32, (f64, f64, &str)> = Default::default();
    let (mut total_rate, mut total_bytes) = (0.0, 0.0);
    for t in topics {
        if t.msg_rate <= 0.0 && t.throughput <= 0.0 {
            continue;
        }
        hashes.push(t.hash);
        info.insert(t.hash, (t.msg_rate, t.throughput, &t.name));
        total_rate += t.msg_rate;
        total_bytes += t.throughput;
    }
    if info.len() < 2 {
        return SplitPlan::none(alg, "fewer than 2 topics with traffic");
    }
    if total_rate < max_rate * (1.0 + diff) && total_bytes < max_bytes * (1.0 + diff) {
        return SplitPlan::none(
            alg,
            format!(
                "bundle traffic {total_rate:.1} msg/s, {:.1} MiB/s is below {:.1} msg/s and {:.1} MiB/s (max x (1 + {}%))",
                total_bytes / MIB,
                max_rate * (1.0 + diff),
                lim.max_bandwidth_mbytes * (1.0 + diff),
                lim.difference_threshold_percentage
            ),
        );
    }
    hashes.sort_unstable();
    let get = |h: u32| info.get(&h).copied().unwrap_or((0.0, 0.0, ""));
    let (mut run_rate, mut run_bytes, _) = get(hashes[0]);
    let mut boundaries = Vec::new();
    let mut notes = Vec::new();
    for i in 1..hashes.len() {
        let (rate, bytes, name) = get(hashes[i]);
        if run_rate + rate > max_rate || run_bytes + bytes > max_bytes {
            let (s, e) = (u64::from(hashes[i - 1]), u64::from(hashes[i]));
            let mid = s + (e - s) / 2 + 1;
            let which = if run_rate + rate > max_rate {
                format!("{run_rate} + {rate} = {} msg/s > {max_rate}", run_rate + rate)
            } else {
                format!(
                    "{} + {} = {} MiB/s > {}",
                    run_bytes / MIB,
                    bytes / MIB,
                    (run_bytes + bytes) / MIB,
                    lim.max_bandwidth_mbytes
                )
            };
            let doc_style = (s + e) / 2;
            notes.push(BoundaryNote {
                position: mid.min(u64::from(u32::MAX)) as u32,
                why: format!(
                    "before {name}: {which}; 0x{s:08x} + (0x{e:08x} - 0x{s:08x}) / 2 + 1 = 0x{mid:08x} (plain midpoint 0x{doc_style:08x}; Pulsar adds 1)"
                ),
            });
            boundaries.push(mid.min(u64::from(u32::MAX)) as u32);
            run_rate = rate;
            run_bytes = bytes;
        } else {
            run_rate += rate;
            run_bytes += bytes;
        }
    }
    let remark = Some(
        "Pulsar's boundary is start + (end - start) / 2 + 1; the doc prints e.g. 0x19500000, 0x31500000, 0x48500000, 0x67000000 because it added the hex digits as decimals and left out the +1 (the real values are 0x1C800001, 0x2E800001, 0x48800001, 0x67000001)".to_string(),
    );
    SplitPlan {
        algorithm: alg,
        boundaries,
        notes,
        remark,
    }
}

/// Insert `boundaries` (strictly inside partition `idx`) into a sorted partition
/// list (`NamespaceBundles.partitions`). `None` if a boundary is not strictly
/// inside, or the list is not ascending.
pub fn split_partitions(partitions: &[u32], idx: usize, boundaries: &[u32]) -> Option<Vec<u32>> {
    if idx + 1 >= partitions.len() || boundaries.is_empty() {
        return None;
    }
    let (lo, up) = (partitions[idx], partitions[idx + 1]);
    let mut prev = lo;
    for b in boundaries {
        if *b <= prev || *b >= up {
            return None;
        }
        prev = *b;
    }
    let mut out = Vec::with_capacity(partitions.len() + boundaries.len());
    out.extend_from_slice(&partitions[..=idx]);
    out.extend_from_slice(boundaries);
    out.extend_from_slice(&partitions[idx + 1..]);
    Some(out)
}

/// The child ranges of splitting `range` at `boundaries` (validated as in
/// [`split_partitions`]).
pub fn child_ranges(range: BundleRange, boundaries: &[u32]) -> Option<Vec<BundleRange>> {
    let p = split_partitions(&[range.lower, range.upper], 0, boundaries)?;
    Some(super::bundle::ranges_from_boundaries(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, hash: u32, rate: f64, mb: f64) -> SplitTopic {
        SplitTopic {
            hash,
            name: name.into(),
            msg_rate: rate,
            throughput: mb * MIB,
        }
    }

    fn doc_six() -> Vec<SplitTopic> {
        vec![
            t("t1", 0x1000_0000, 100.0, 10.0),
            t("t2", 0x1500_0000, 200.0, 20.0),
            t("t3", 0x2400_0000, 300.0, 30.0),
            t("t4", 0x3900_0000, 400.0, 40.0),
            t("t5", 0x5800_0000, 500.0, 50.0),
            t("t6", 0x7600_0000, 600.0, 60.0),
        ]
    }

    fn lim(rate: f64, mb: f64) -> FlowLimits {
        FlowLimits {
            max_msg_rate: rate,
            max_bandwidth_mbytes: mb,
            difference_threshold_percentage: 10.0,
        }
    }

    #[test]
    fn doc_example_1_sixteen_bit_illustration() {
        let p = split_partitions(&[0x0000, 0x8000, 0xFFFF], 0, &[0x4000]).unwrap();
        assert_eq!(p, vec![0x0000, 0x4000, 0x8000, 0xFFFF]);
        let r = crate::engine::pulsar::bundle::ranges_from_boundaries(&p);
        let pairs: Vec<(u32, u32)> = r.iter().map(|r| (r.lower, r.upper)).collect();
        assert_eq!(pairs, vec![(0x0000, 0x4000), (0x4000, 0x8000), (0x8000, 0xFFFF)]);
        assert!(split_partitions(&[0, 0x8000, 0xFFFF], 0, &[0x8000]).is_none());
        assert!(split_partitions(&[0, 0x8000, 0xFFFF], 0, &[0]).is_none());
    }

    #[test]
    fn doc_example_2_range_equally_divide() {
        let p = range_equally_divide(BundleRange {
            lower: 0,
            upper: 0x8000_0000,
        });
        assert_eq!(p.boundaries, vec![0x4000_0000]);
        // The full ring's last boundary is 0xFFFFFFFF, so its midpoint is 0x7FFFFFFF.
        assert_eq!(
            range_equally_divide(BundleRange::FULL).boundaries,
            vec![0x7FFF_FFFF]
        );
    }

    #[test]
    fn doc_example_3_topic_count_equally_divide() {
        let hs = [
            0x1000_0000u32,
            0x2000_0000,
            0x3500_0000,
            0x6500_0000,
            0x7000_0000,
            0x7500_0000,
        ];
        let ts: Vec<SplitTopic> = hs
            .iter()
            .enumerate()
            .map(|(i, h)| t(&format!("topic{}", i + 1), *h, 0.0, 0.0))
            .collect();
        let p = topic_count_equally_divide(&ts);
        assert_eq!(p.boundaries, vec![0x4D00_0000]);
        assert!(p.remark.unwrap().contains("0x50000000"));
        assert!(topic_count_equally_divide(&ts[..1]).boundaries.is_empty());
    }

    #[test]
    fn doc_example_4_specified_positions() {
        let r = BundleRange {
            lower: 0,
            upper: 0x4000_0000,
        };
        let p = specified_positions_divide(r, &[0x3300_0000], 2);
        assert_eq!(p.boundaries, vec![0x3300_0000]);
        let p = specified_positions_divide(r, &[0x5000_0000, 0x3300_0000, 0x3300_0000, 0], 2);
        assert_eq!(p.boundaries, vec![0x3300_0000]);
        assert!(specified_positions_divide(r, &[0x3300_0000], 1)
            .boundaries
            .is_empty());
        assert!(specified_positions_divide(r, &[], 5).boundaries.is_empty());
    }

    #[test]
    fn doc_example_5_flow_or_qps() {
        let six = doc_six();
        let c1 = flow_or_qps_equally_divide(&six, lim(450.0, 200.0));
        assert_eq!(
            c1.boundaries,
            vec![0x1C80_0001, 0x2E80_0001, 0x4880_0001, 0x6700_0001]
        );
        let c2 = flow_or_qps_equally_divide(&six, lim(1900.0, 90.0));
        assert_eq!(c2.boundaries, vec![0x2E80_0001, 0x6700_0001]);
        let c3 = flow_or_qps_equally_divide(&six, lim(1100.0, 110.0));
        assert_eq!(c3.boundaries, vec![0x4880_0001]);
        let remark = c3.remark.unwrap();
        assert!(remark.contains("0x19500000") && remark.contains("+1"));
        assert!(c1.notes[0].why.contains("0x1c800001"));
        // Below max x 1.1 on both: no split.
        let quiet = flow_or_qps_equally_divide(&six, lim(2000.0, 200.0));
        assert!(quiet.boundaries.is_empty());
    }
}
