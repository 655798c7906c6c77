//! Flink's `KeyGroupRangeAssignment`: how a keyed vertex's key groups are split over
//! its subtasks. The adaptive scheduler's state-locality assigner scores a slot by how
//! many of a subtask's key groups it held before a restart or rescale.

/// Default max parallelism when a vertex sets none: `1.5 × parallelism` rounded up to
/// a power of two, at least 128 and at most 32,768
/// (`KeyGroupRangeAssignment#computeDefaultMaxParallelism`).
pub fn compute_default_max_parallelism(parallelism: u32) -> u32 {
    let p = u64::from(parallelism);
    let wanted = (p + p / 2).max(1).next_power_of_two();
    wanted.clamp(128, 1 << 15) as u32
}

/// The inclusive key group range `[start, end]` of subtask `index` out of
/// `parallelism` with `max_parallelism` key groups
/// (`computeKeyGroupRangeForOperatorIndex`); `None` when the subtask has no key group.
pub fn key_group_range_for_operator_index(
    max_parallelism: u32,
    parallelism: u32,
    index: u32,
) -> Option<(u32, u32)> {
    let (m, p, i) = (
        u64::from(max_parallelism),
        u64::from(parallelism.max(1)),
        u64::from(index),
    );
    let start = (i * m).div_ceil(p);
    let end = ((i + 1) * m).checked_sub(1)? / p;
    (start <= end).then_some((start as u32, end as u32))
}

/// Number of key groups two inclusive ranges share.
pub fn intersection(a: (u32, u32), b: (u32, u32)) -> u32 {
    let lo = a.0.max(b.0);
    let hi = a.1.min(b.1);
    if lo > hi {
        0
    } else {
        hi - lo + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_max_parallelism() {
        assert_eq!(compute_default_max_parallelism(1), 128);
        assert_eq!(compute_default_max_parallelism(100), 256);
        assert_eq!(compute_default_max_parallelism(30_000), 32_768);
    }

    #[test]
    fn ranges_tile_the_key_groups() {
        let r: Vec<_> = (0..3)
            .map(|i| key_group_range_for_operator_index(128, 3, i).unwrap())
            .collect();
        assert_eq!(r, [(0, 42), (43, 85), (86, 127)]);
        assert_eq!(intersection((0, 42), (40, 60)), 3);
        assert_eq!(intersection((0, 10), (11, 20)), 0);
    }
}
