//! Automatic split and merge of a scalable topic's segments (PIP-483): the
//! policy ([`AutoScaleConfig`], from the `scalableTopic*` broker keys), the
//! per-segment load records ([`LoadSample`], written by the segment owner's
//! load reporter when a rate moved materially: [`is_material_change`]) and
//! the pure decision ([`decide`], as `AutoScalePolicyEvaluator.decide`).
//!
//! The decision runs two passes and returns at most one action:
//!
//! 1. **Split**, unless the topic already has `maxSegments` active segments
//!    or split within `splitCooldown`:
//!    (a) when some subscription has more consumers than there are active
//!    segments, split the segment publishing the most messages (ties: the
//!    lowest id), reason `consumer-count`;
//!    (b) otherwise score each segment by its highest ratio of rate to split
//!    threshold (msgRateIn, bytesRateIn, msgRateOut, bytesRateOut, the first
//!    highest naming the reason) and split the segment with the highest score
//!    above 1.0.
//! 2. **Merge**, when nothing split, unless the topic has `minSegments` or
//!    fewer active segments or merged within `mergeCooldown`: over every pair
//!    of active segments that are adjacent, both of merge depth below
//!    `maxDagDepth`, and both cold enough (a load record exists, was last
//!    written at least `mergeWindow` ago, and all four rates are strictly
//!    below the merge thresholds), merge the pair with the smallest sum of
//!    the eight rates. Reason `cold`.
//!
//! Java walks the active segments in the order of an unmodifiable map
//! (`Collectors.toUnmodifiableMap`), whose iteration order depends on a
//! per-JVM random salt: which of two equally hot segments splits, and which
//! of two equally cold pairs merges, is left to that order. lbscope draws the
//! order from the scenario's seed (a salt per topic, see
//! [`super::scalable_topic`]); the caller passes the active segments in it.

use super::segment_layout::{SegmentInfo, SegmentLayout};
use super::Config;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The resolved auto split/merge policy (`AutoScaleConfig`), times in ms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AutoScaleConfig {
    /// `scalableTopicAutoScaleEnabled`.
    pub enabled: bool,
    /// `scalableTopicMaxSegments`.
    pub max_segments: i64,
    /// `scalableTopicMinSegments`.
    pub min_segments: i64,
    /// `scalableTopicMaxDagDepth`.
    pub max_dag_depth: i64,
    /// `scalableTopicSplitCooldownSeconds`, ms.
    pub split_cooldown_ms: i64,
    /// `scalableTopicMergeCooldownSeconds`, ms.
    pub merge_cooldown_ms: i64,
    /// `scalableTopicMergeWindowSeconds`, ms.
    pub merge_window_ms: i64,
    /// Split thresholds: msgRateIn, bytesRateIn, msgRateOut, bytesRateOut.
    pub split: [f64; 4],
    /// Merge thresholds, in the same order.
    pub merge: [f64; 4],
}

/// The four rates' names, in the order of [`LoadStats::rates`] (and of the reasons).
pub const METRICS: [&str; 4] = ["msgRateIn", "bytesRateIn", "msgRateOut", "bytesRateOut"];

impl AutoScaleConfig {
    /// The broker-level policy of `c`.
    pub fn of(c: &Config) -> AutoScaleConfig {
        AutoScaleConfig {
            enabled: c.scalable_topic_auto_scale_enabled,
            max_segments: c.scalable_topic_max_segments,
            min_segments: c.scalable_topic_min_segments,
            max_dag_depth: c.scalable_topic_max_dag_depth,
            split_cooldown_ms: c.scalable_topic_split_cooldown_seconds.saturating_mul(1000),
            merge_cooldown_ms: c.scalable_topic_merge_cooldown_seconds.saturating_mul(1000),
            merge_window_ms: c.scalable_topic_merge_window_seconds.saturating_mul(1000),
            split: [
                c.scalable_topic_split_msg_rate_in_threshold,
                c.scalable_topic_split_bytes_rate_in_threshold,
                c.scalable_topic_split_msg_rate_out_threshold,
                c.scalable_topic_split_bytes_rate_out_threshold,
            ],
            merge: [
                c.scalable_topic_merge_msg_rate_in_threshold,
                c.scalable_topic_merge_bytes_rate_in_threshold,
                c.scalable_topic_merge_msg_rate_out_threshold,
                c.scalable_topic_merge_bytes_rate_out_threshold,
            ],
        }
    }

    /// `AutoScaleConfig.validated()`: the first broken invariant, named as the
    /// broker keys name it.
    pub fn validated(&self) -> Result<(), String> {
        let fail = |m: &str| Err(format!("Invalid auto split/merge configuration: {m}"));
        if self.min_segments < 1 {
            return fail("scalableTopicMinSegments must be >= 1");
        }
        if self.max_segments < self.min_segments {
            return fail("scalableTopicMaxSegments must be >= scalableTopicMinSegments");
        }
        if self.max_dag_depth < 0 {
            return fail("scalableTopicMaxDagDepth must be >= 0");
        }
        for (v, k) in [
            (self.split_cooldown_ms, "scalableTopicSplitCooldownSeconds"),
            (self.merge_cooldown_ms, "scalableTopicMergeCooldownSeconds"),
            (self.merge_window_ms, "scalableTopicMergeWindowSeconds"),
        ] {
            if v < 0 {
                return Err(format!(
                    "Invalid auto split/merge configuration: {k} must not be negative"
                ));
            }
        }
        let key = |kind: &str, i: usize| {
            let m = METRICS[i];
            format!("scalableTopic{kind}{}{}Threshold", m[..1].to_uppercase(), &m[1..])
        };
        for i in 0..4 {
            if !self.split[i].is_finite() || self.split[i] <= 0.0 {
                return Err(format!(
                    "Invalid auto split/merge configuration: {} must be > 0",
                    key("Split", i)
                ));
            }
        }
        for i in 0..4 {
            if !self.merge[i].is_finite() || self.merge[i] < 0.0 {
                return Err(format!(
                    "Invalid auto split/merge configuration: {} must be >= 0",
                    key("Merge", i)
                ));
            }
        }
        for i in 0..4 {
            if self.split[i] <= self.merge[i] {
                return Err(format!(
                    "Invalid auto split/merge configuration: {} must be > {} (hysteresis)",
                    key("Split", i),
                    key("Merge", i)
                ));
            }
        }
        Ok(())
    }
}

/// A segment's four rates (`SegmentLoadStats`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct LoadStats {
    /// Messages per second published.
    pub msg_rate_in: f64,
    /// Bytes per second published.
    pub bytes_rate_in: f64,
    /// Messages per second dispatched.
    pub msg_rate_out: f64,
    /// Bytes per second dispatched.
    pub bytes_rate_out: f64,
}

impl LoadStats {
    /// The rates in [`METRICS`] order.
    pub fn rates(&self) -> [f64; 4] {
        [
            self.msg_rate_in,
            self.bytes_rate_in,
            self.msg_rate_out,
            self.bytes_rate_out,
        ]
    }

    /// Their sum (the merge pass compares pairs by it).
    pub fn combined(&self) -> f64 {
        self.rates().iter().sum()
    }
}

/// A segment's load record: its rates and when they were last written.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadSample {
    /// The rates.
    pub stats: LoadStats,
    /// When the record was last written, ms.
    pub modified_ms: u64,
}

/// `SegmentLoadReporter.isMaterialChange`: some rate moved by more than
/// `threshold` relative to the last written one, or moved off zero.
pub fn is_material_change(last: &LoadStats, now: &LoadStats, threshold: f64) -> bool {
    last.rates().iter().zip(now.rates()).any(|(&l, c)| {
        if l == 0.0 {
            c != 0.0
        } else {
            (c - l).abs() / l > threshold
        }
    })
}

/// What the evaluation decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Decision {
    /// Nothing to do.
    None,
    /// Split a segment.
    Split {
        /// The segment.
        segment: u64,
        /// `consumer-count` or the metric whose ratio was highest.
        reason: String,
    },
    /// Merge two segments.
    Merge {
        /// First (in the walk's order).
        segment1: u64,
        /// Second.
        segment2: u64,
        /// `cold`.
        reason: String,
    },
}

/// Why a split or merge pass did not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Blocked {
    /// `scalableTopicAutoScaleEnabled` is false.
    Disabled,
    /// At `scalableTopicMaxSegments` (split).
    AtMaxSegments {
        /// Active segments.
        active: usize,
        /// `scalableTopicMaxSegments`.
        max: i64,
    },
    /// At `scalableTopicMinSegments` (merge).
    AtMinSegments {
        /// Active segments.
        active: usize,
        /// `scalableTopicMinSegments`.
        min: i64,
    },
    /// The split cooldown has time left.
    SplitCooldown {
        /// Time left (ms).
        left_ms: u64,
    },
    /// The merge cooldown has time left.
    MergeCooldown {
        /// Time left (ms).
        left_ms: u64,
    },
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::Disabled => f.write_str("scalableTopicAutoScaleEnabled is false"),
            Blocked::AtMaxSegments { active, max } => {
                write!(f, "{active} active segments, at scalableTopicMaxSegments {max}")
            }
            Blocked::AtMinSegments { active, min } => {
                write!(f, "{active} active segments, at scalableTopicMinSegments {min}")
            }
            Blocked::SplitCooldown { left_ms } => {
                write!(f, "split cooldown: {} s left", left_ms.div_ceil(1000))
            }
            Blocked::MergeCooldown { left_ms } => {
                write!(f, "merge cooldown: {} s left", left_ms.div_ceil(1000))
            }
        }
    }
}

/// Why an adjacent pair of segments was not merged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum MergeRefusal {
    /// A segment is at `scalableTopicMaxDagDepth` merges deep.
    DagDepth {
        /// The first segment's merge depth.
        depth1: u32,
        /// The second's.
        depth2: u32,
        /// `scalableTopicMaxDagDepth`.
        max: i64,
    },
    /// A segment has no load record.
    NoLoadRecord {
        /// The segment.
        segment: u64,
    },
    /// A segment's record is younger than the merge window.
    RecordTooRecent {
        /// The segment.
        segment: u64,
        /// When its record was written (ms).
        modified_ms: u64,
        /// Now (ms).
        now_ms: u64,
        /// `scalableTopicMergeWindowSeconds` (ms).
        window_ms: i64,
    },
    /// A segment's rate is not below its merge threshold.
    NotCold {
        /// The segment.
        segment: u64,
        /// Which rate.
        metric: String,
        /// That rate.
        rate: f64,
        /// Its merge threshold.
        threshold: f64,
    },
}

impl fmt::Display for MergeRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeRefusal::DagDepth { depth1, depth2, max } => {
                write!(
                    f,
                    "merge depths {depth1} and {depth2}, scalableTopicMaxDagDepth {max}"
                )
            }
            MergeRefusal::NoLoadRecord { segment } => write!(f, "segment {segment} has no load record"),
            MergeRefusal::RecordTooRecent {
                segment,
                modified_ms,
                now_ms,
                window_ms,
            } => write!(
                f,
                "segment {segment}'s record is {} s old, under the {} s merge window",
                (*now_ms as i128 - *modified_ms as i128) / 1000,
                window_ms / 1000
            ),
            MergeRefusal::NotCold {
                segment,
                metric,
                rate,
                threshold,
            } => write!(f, "segment {segment} {metric} {rate} is not below {threshold}"),
        }
    }
}

/// Why a pass did not run, or what it found: the numbers behind a decision.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Evaluation {
    /// Active segments.
    pub active: usize,
    /// The most consumers any subscription has.
    pub required_consumers: u32,
    /// Split cooldown left, ms (`None`: not cooling down).
    pub split_cooldown_left_ms: Option<u64>,
    /// Merge cooldown left, ms.
    pub merge_cooldown_left_ms: Option<u64>,
    /// Why the split pass did not run.
    pub split_blocked: Option<Blocked>,
    /// Why the merge pass did not run (or `None` when it ran or was not reached).
    pub merge_blocked: Option<Blocked>,
    /// The hottest segment: id, score, metric, its rate and threshold.
    pub hottest: Option<Hottest>,
    /// The coldest mergeable pair and its combined rate.
    pub coldest: Option<(u64, u64, f64)>,
    /// Adjacent pairs considered for a merge and why each was turned down.
    pub merge_refusals: Vec<(u64, u64, MergeRefusal)>,
    /// The order the segments were walked in (ids).
    pub order: Vec<u64>,
}

/// The segment with the highest split score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hottest {
    /// Its id.
    pub segment: u64,
    /// Its highest ratio of rate to split threshold.
    pub score: f64,
    /// Which rate.
    pub metric: String,
    /// That rate.
    pub rate: f64,
    /// Its threshold.
    pub threshold: f64,
}

fn cooldown_left(now: u64, last: Option<u64>, cooldown_ms: i64) -> Option<u64> {
    let last = last?;
    let elapsed = now as i128 - last as i128;
    (elapsed < cooldown_ms as i128).then(|| (cooldown_ms as i128 - elapsed) as u64)
}

/// `AutoScalePolicyEvaluator.decide`. `active` lists the active segments in
/// the walk's order; a segment without a load record counts as zero load and
/// is never merge-eligible. `consumers`: per subscription, how many consumers.
#[allow(clippy::too_many_arguments)]
pub fn decide(
    layout: &SegmentLayout,
    active: &[&SegmentInfo],
    load: &BTreeMap<u64, LoadSample>,
    consumers: &BTreeMap<String, u32>,
    cfg: &AutoScaleConfig,
    now_ms: u64,
    last_split_ms: Option<u64>,
    last_merge_ms: Option<u64>,
) -> (Decision, Evaluation) {
    let mut ev = Evaluation {
        active: active.len(),
        required_consumers: consumers.values().copied().max().unwrap_or(0),
        split_cooldown_left_ms: cooldown_left(now_ms, last_split_ms, cfg.split_cooldown_ms),
        merge_cooldown_left_ms: cooldown_left(now_ms, last_merge_ms, cfg.merge_cooldown_ms),
        order: active.iter().map(|s| s.id).collect(),
        ..Default::default()
    };
    if !cfg.enabled {
        ev.split_blocked = Some(Blocked::Disabled);
        return (Decision::None, ev);
    }
    if let Some(split) = split_pass(active, load, cfg, &mut ev) {
        return (split, ev);
    }
    let merge = merge_pass(layout, active, load, cfg, now_ms, &mut ev);
    (merge, ev)
}

/// A segment's rates (zero without a load record).
fn stats_of(load: &BTreeMap<u64, LoadSample>, id: u64) -> LoadStats {
    load.get(&id).map(|s| s.stats).unwrap_or_default()
}

/// The split pass: unless at `scalableTopicMaxSegments` or cooling down, the
/// busiest segment when a subscription has more consumers than segments,
/// else the hottest segment if a rate exceeds its threshold. Records why it
/// was blocked and the hottest segment in `ev`.
fn split_pass(
    active: &[&SegmentInfo],
    load: &BTreeMap<u64, LoadSample>,
    cfg: &AutoScaleConfig,
    ev: &mut Evaluation,
) -> Option<Decision> {
    let stats = |id: u64| stats_of(load, id);
    if active.len() as i64 >= cfg.max_segments {
        ev.split_blocked = Some(Blocked::AtMaxSegments {
            active: active.len(),
            max: cfg.max_segments,
        });
    } else if let Some(left) = ev.split_cooldown_left_ms {
        ev.split_blocked = Some(Blocked::SplitCooldown { left_ms: left });
    } else {
        if ev.required_consumers as usize > active.len() {
            let mut best: Option<(&SegmentInfo, f64)> = None;
            for s in active {
                let r = stats(s.id).msg_rate_in;
                let better = match best {
                    None => true,
                    Some((b, br)) => r > br || (r == br && s.id < b.id),
                };
                if better {
                    best = Some((s, r));
                }
            }
            if let Some((s, _)) = best {
                return Some(Decision::Split {
                    segment: s.id,
                    reason: "consumer-count".into(),
                });
            }
        }
        let mut hottest: Option<Hottest> = None;
        for s in active {
            let rates = stats(s.id).rates();
            let mut score = 0.0;
            let mut which = None;
            for (i, (rate, threshold)) in rates.iter().zip(cfg.split).enumerate() {
                let ratio = rate / threshold;
                if ratio > score {
                    score = ratio;
                    which = Some(i);
                }
            }
            let Some(i) = which else { continue };
            let beats = match &hottest {
                None => true,
                Some(h) => score > h.score,
            };
            // The report keeps the hottest segment even under 1.0 (to show how far it is).
            if beats {
                hottest = Some(Hottest {
                    segment: s.id,
                    score,
                    metric: METRICS[i].into(),
                    rate: rates[i],
                    threshold: cfg.split[i],
                });
            }
        }
        ev.hottest = hottest.clone();
        if let Some(h) = hottest.filter(|h| h.score > 1.0) {
            return Some(Decision::Split {
                segment: h.segment,
                reason: h.metric,
            });
        }
    }
    None
}

/// The merge pass: unless at `scalableTopicMinSegments` or cooling down, the
/// adjacent pair of cold segments (both under every merge threshold for the
/// merge window, within `scalableTopicMaxDagDepth`) with the lowest combined
/// rate. Records why it was blocked, the pairs refused and the coldest in `ev`.
fn merge_pass(
    layout: &SegmentLayout,
    active: &[&SegmentInfo],
    load: &BTreeMap<u64, LoadSample>,
    cfg: &AutoScaleConfig,
    now_ms: u64,
    ev: &mut Evaluation,
) -> Decision {
    let stats = |id: u64| stats_of(load, id);
    if active.len() as i64 <= cfg.min_segments {
        ev.merge_blocked = Some(Blocked::AtMinSegments {
            active: active.len(),
            min: cfg.min_segments,
        });
        return Decision::None;
    }
    if let Some(left) = ev.merge_cooldown_left_ms {
        ev.merge_blocked = Some(Blocked::MergeCooldown { left_ms: left });
        return Decision::None;
    }
    let cold = |id: u64| -> Result<(), MergeRefusal> {
        let Some(s) = load.get(&id) else {
            return Err(MergeRefusal::NoLoadRecord { segment: id });
        };
        let age = now_ms as i128 - s.modified_ms as i128;
        if age < cfg.merge_window_ms as i128 {
            return Err(MergeRefusal::RecordTooRecent {
                segment: id,
                modified_ms: s.modified_ms,
                now_ms,
                window_ms: cfg.merge_window_ms,
            });
        }
        let r = s.stats.rates();
        for i in 0..4 {
            if r[i] >= cfg.merge[i] {
                return Err(MergeRefusal::NotCold {
                    segment: id,
                    metric: METRICS[i].into(),
                    rate: r[i],
                    threshold: cfg.merge[i],
                });
            }
        }
        Ok(())
    };
    let mut coldest: Option<(u64, u64, f64)> = None;
    for (i, a) in active.iter().enumerate() {
        for b in &active[i + 1..] {
            if !a.range.is_adjacent_to(&b.range) {
                continue;
            }
            let (da, db) = (layout.merge_depth(a.id), layout.merge_depth(b.id));
            if i64::from(da) >= cfg.max_dag_depth || i64::from(db) >= cfg.max_dag_depth {
                ev.merge_refusals.push((
                    a.id,
                    b.id,
                    MergeRefusal::DagDepth {
                        depth1: da,
                        depth2: db,
                        max: cfg.max_dag_depth,
                    },
                ));
                continue;
            }
            if let Err(why) = cold(a.id).and_then(|_| cold(b.id)) {
                ev.merge_refusals.push((a.id, b.id, why));
                continue;
            }
            let combined = stats(a.id).combined() + stats(b.id).combined();
            if coldest.is_none_or(|(_, _, c)| combined < c) {
                coldest = Some((a.id, b.id, combined));
            }
        }
    }
    ev.coldest = coldest;
    match coldest {
        Some((a, b, _)) => Decision::Merge {
            segment1: a,
            segment2: b,
            reason: "cold".into(),
        },
        None => Decision::None,
    }
}
