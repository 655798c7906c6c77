//! The execution-level wiring of an edge: which producer subtasks a consumer
//! subtask reads, grouped into Flink's *consumed partition groups*.
//!
//! Flink's `EdgeManagerBuildUtil` builds these groups, and the default slot sharing
//! strategy walks them, so their identity matters:
//! * hash (all-to-all): one group per edge, holding every producer partition, shared
//!   by all consumer subtasks;
//! * forward / rescale with equal parallelism: consumer i reads partition i alone;
//! * rescale with more producers than consumers: consumer i reads partitions
//!   `[i*P/C, (i+1)*P/C)` as its own group;
//! * rescale with fewer producers than consumers: partition j is read by consumers
//!   `[ceil(j*C/P), ceil((j+1)*C/P))`, which all *share* one group.

use super::job_graph::{DistributionPattern, JobEdge};

/// One consumed partition group, as seen from one consumer subtask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConsumedGroup {
    /// Identity of the group within its edge (shared groups have equal ids).
    pub local_id: u32,
    /// First producer subtask read.
    pub start: u32,
    /// One past the last producer subtask read.
    pub end: u32,
}

/// How many distinct consumed partition groups an edge has.
pub fn group_count(edge: &JobEdge, producer_p: u32, consumer_p: u32) -> u32 {
    match edge.pattern {
        DistributionPattern::Hash => 1,
        DistributionPattern::Forward | DistributionPattern::Rescale => {
            if producer_p >= consumer_p {
                consumer_p
            } else {
                producer_p
            }
        }
    }
}

/// The group consumer subtask `i` reads over `edge`.
pub fn consumed_group(edge: &JobEdge, producer_p: u32, consumer_p: u32, i: u32) -> ConsumedGroup {
    let (p, c) = (u64::from(producer_p), u64::from(consumer_p));
    let iu = u64::from(i);
    match edge.pattern {
        DistributionPattern::Hash => ConsumedGroup {
            local_id: 0,
            start: 0,
            end: producer_p,
        },
        DistributionPattern::Forward | DistributionPattern::Rescale => {
            if p == c {
                ConsumedGroup {
                    local_id: i,
                    start: i,
                    end: i + 1,
                }
            } else if p > c {
                ConsumedGroup {
                    local_id: i,
                    start: (iu * p / c) as u32,
                    end: ((iu + 1) * p / c) as u32,
                }
            } else {
                let j = (iu * p / c) as u32;
                ConsumedGroup {
                    local_id: j,
                    start: j,
                    end: j + 1,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(pattern: DistributionPattern) -> JobEdge {
        JobEdge {
            from: 0,
            to: 1,
            pattern,
        }
    }

    #[test]
    fn rescale_ranges_match_flink() {
        let e = edge(DistributionPattern::Rescale);
        // 6 producers -> 3 consumers: pairs.
        let g: Vec<_> = (0..3).map(|i| consumed_group(&e, 6, 3, i)).collect();
        assert_eq!((g[1].start, g[1].end), (2, 4));
        // 5 producers -> 8 consumers: partition j read by [ceil(8j/5), ceil(8(j+1)/5)).
        let owners: Vec<u32> = (0..8).map(|i| consumed_group(&e, 5, 8, i).start).collect();
        assert_eq!(owners, [0, 0, 1, 1, 2, 3, 3, 4]);
        assert_eq!(group_count(&e, 5, 8), 5);
    }
}
