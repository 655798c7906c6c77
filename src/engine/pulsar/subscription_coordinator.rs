//! Which consumer of a subscription reads which segment of a scalable topic
//! (PIP-468, `SubscriptionCoordinator.computeAssignment`): the segments sorted
//! by hash range (start, then end) and then id, the consumers sorted by name,
//! and segment `k` handed to consumer `k mod n`. Every consumer of a stream
//! subscription gets whole segments, so keys stay in order per consumer; a
//! subscription with more consumers than segments leaves some idle (which is
//! what the consumer-count split of [`super::auto_scale`] answers).
//!
//! lbscope hands out the active segments only: the upstream coordinator also
//! hands out sealed segments that still hold a backlog and holds a child back
//! until its parents are drained, and lbscope models no backlog.

use super::segment_layout::SegmentInfo;
use std::collections::BTreeSet;

/// Segment id → consumer name, in segment order; empty with no consumer.
pub fn compute_assignment(segments: &[&SegmentInfo], consumers: &BTreeSet<String>) -> Vec<(u64, String)> {
    if consumers.is_empty() {
        return Vec::new();
    }
    let mut sorted: Vec<&SegmentInfo> = segments.to_vec();
    sorted.sort_by_key(|s| (s.range.start, s.range.end, s.id));
    let names: Vec<&String> = consumers.iter().collect();
    sorted
        .iter()
        .enumerate()
        .map(|(k, s)| (s.id, names[k % names.len()].clone()))
        .collect()
}
