//! Pulsar 5.0 scalable topics: the segment layout, the auto split/merge decision, the
//! load reporter's material-change rule, the round-robin segment assignment, the config
//! validation, and the engine running them under simulated time. Tests that mirror an
//! upstream test carry its class and method name; each says whether its expected values
//! come from the upstream test or from reading the upstream code.

use lbscope::engine::pulsar::auto_scale::{
    decide, is_material_change, AutoScaleConfig, Decision, LoadSample, LoadStats,
};
use lbscope::engine::pulsar::scalable_topic::ScalableEvent;
use lbscope::engine::pulsar::segment_layout::{HashRange, SegmentInfo, SegmentLayout, SegmentState};
use lbscope::engine::pulsar::subscription_coordinator::compute_assignment;
use lbscope::engine::pulsar::traffic::Traffic;
use lbscope::engine::pulsar::{Action, Config, Event, Sim};
use lbscope::engine::schema::ConfigChange;
use lbscope::engine::Engine;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------
// HashRange (expected values read from HashRange.java: split at start + (end - start) / 2,
// adjacency end + 1 == start either way).

#[test]
fn hash_range_split_cuts_at_the_midpoint() {
    let (a, b) = HashRange::FULL.split().unwrap();
    assert_eq!((a.start, a.end, b.start, b.end), (0x0000, 0x7FFF, 0x8000, 0xFFFF));
    let (a, b) = HashRange::of(0x8000, 0xBFFF).unwrap().split().unwrap();
    assert_eq!((a.end, b.start), (0x9FFF, 0xA000));
    // Odd sizes: the lower half takes the middle hash.
    let (a, b) = HashRange::of(10, 12).unwrap().split().unwrap();
    assert_eq!((a.start, a.end, b.start, b.end), (10, 11, 12, 12));
    // One hash cannot be split.
    assert!(HashRange::of(7, 7).unwrap().split().is_none());
    assert!(HashRange::of(8, 7).is_none());
}

#[test]
fn hash_range_is_adjacent_to_either_way_round() {
    let a = HashRange::of(0x0000, 0x3FFF).unwrap();
    let b = HashRange::of(0x4000, 0x7FFF).unwrap();
    let c = HashRange::of(0x8000, 0xFFFF).unwrap();
    assert!(a.is_adjacent_to(&b) && b.is_adjacent_to(&a));
    assert!(!a.is_adjacent_to(&c));
    assert!(!a.is_adjacent_to(&a));
}

// ---------------------------------------------------------------------------
// SegmentLayoutTest (expected values from the upstream test).

fn ids(l: &SegmentLayout) -> Vec<u64> {
    l.active().map(|s| s.id).collect()
}

#[test]
fn segment_layout_test_test_initial_layout() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    assert_eq!(l.epoch, 0);
    assert_eq!(l.active_count(), 2);
    assert_eq!(l.segments.len(), 2);
    assert_eq!(l.segments[&0].range, HashRange::of(0x0000, 0x7FFF).unwrap());
    assert_eq!(l.segments[&1].range, HashRange::of(0x8000, 0xFFFF).unwrap());
}

#[test]
fn segment_layout_test_test_single_and_four_segment_initial_layout() {
    let l = SegmentLayout::initial(1, 0).unwrap();
    assert_eq!(l.segments[&0].range, HashRange::FULL);
    let l = SegmentLayout::initial(4, 0).unwrap();
    let mut expected_start = 0u32;
    for i in 0..4u64 {
        let r = l.segments[&i].range;
        assert_eq!(u32::from(r.start), expected_start);
        expected_start = u32::from(r.end) + 1;
    }
    assert_eq!(l.segments[&3].range.end, 0xFFFF);
    // From the code (createInitialMetadata): 3 segments, the last takes the remainder.
    let l = SegmentLayout::initial(3, 0).unwrap();
    let r: Vec<(u16, u16)> = l.active().map(|s| (s.range.start, s.range.end)).collect();
    assert_eq!(r, vec![(0, 21844), (21845, 43689), (43690, 65535)]);
    assert!(SegmentLayout::initial(0, 0).is_none());
}

#[test]
fn segment_layout_test_test_find_active_segment() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    assert_eq!(l.segment_of(0x1000).unwrap().id, 0);
    assert_eq!(l.segment_of(0x9000).unwrap().id, 1);
}

#[test]
fn segment_layout_test_test_split_segment() {
    let mut l = SegmentLayout::initial(2, 0).unwrap();
    assert_eq!(l.split_segment(0, 5).unwrap(), (2, 3));
    assert_eq!(l.epoch, 1);
    assert_eq!(l.active_count(), 3);
    assert_eq!(l.segments.len(), 4);
    let sealed = &l.segments[&0];
    assert_eq!(sealed.state, SegmentState::Sealed);
    assert_eq!(sealed.children, vec![2, 3]);
    assert_eq!(l.segments[&2].parents, vec![0]);
    assert_eq!(l.segments[&3].parents, vec![0]);
    assert_eq!(l.segments[&2].range, HashRange::of(0x0000, 0x3FFF).unwrap());
    assert_eq!(l.segments[&3].range, HashRange::of(0x4000, 0x7FFF).unwrap());
}

#[test]
fn segment_layout_test_test_split_non_active_segment() {
    let mut l = SegmentLayout::initial(2, 0).unwrap();
    l.split_segment(0, 0).unwrap();
    let before = l.clone();
    assert!(l.split_segment(0, 0).is_err());
    assert_eq!(l, before, "a refused split changes nothing");
}

#[test]
fn segment_layout_test_test_merge_segments() {
    let mut l = SegmentLayout::initial(2, 0).unwrap();
    l.split_segment(0, 0).unwrap();
    assert_eq!(l.merge_segments(2, 3, 0).unwrap(), 4);
    assert_eq!(l.epoch, 2);
    assert_eq!(l.active_count(), 2);
    assert_eq!(l.segments[&2].state, SegmentState::Sealed);
    assert_eq!(l.segments[&3].state, SegmentState::Sealed);
    let m = &l.segments[&4];
    assert_eq!(m.state, SegmentState::Active);
    assert_eq!(m.range, HashRange::of(0x0000, 0x7FFF).unwrap());
    assert_eq!(m.parents, vec![2, 3]);
}

#[test]
fn segment_layout_test_test_merge_non_adjacent_segments() {
    let mut l = SegmentLayout::initial(4, 0).unwrap();
    assert!(l.merge_segments(0, 2, 0).is_err());
    assert!(l.merge_segments(1, 1, 0).is_err());
    assert_eq!(ids(&l), vec![0, 1, 2, 3]);
}

#[test]
fn segment_layout_test_test_get_children_and_next_segment_id_advances() {
    let mut l = SegmentLayout::initial(1, 0).unwrap();
    l.split_segment(0, 0).unwrap();
    assert_eq!(l.segments[&0].children, vec![1, 2]);
    let mut l = SegmentLayout::initial(2, 0).unwrap();
    assert_eq!(l.next_id, 2);
    l.split_segment(0, 0).unwrap();
    assert_eq!(l.next_id, 4);
    l.split_segment(1, 0).unwrap();
    assert_eq!(l.next_id, 6);
}

// ---------------------------------------------------------------------------
// AutoScalePolicyEvaluatorTest (apache/pulsar bf0a362a; expected values from the
// upstream test). The rebucket cases of later commits (PIP-486) are not modelled.

const NOW: u64 = 1_700_000_000_000;
const SPLIT_MSG_IN: f64 = 10_000.0;
const SPLIT_BYTES_OUT: f64 = 250_000_000.0;
const MERGE_MSG_IN: f64 = 1_000.0;

fn base_config() -> AutoScaleConfig {
    // The upstream test's baseConfig() equals the broker defaults.
    let c = AutoScaleConfig::of(&Config::default());
    assert_eq!(c.max_segments, 64);
    assert_eq!(c.min_segments, 1);
    assert_eq!(c.max_dag_depth, 10);
    assert_eq!(c.split_cooldown_ms, 60_000);
    assert_eq!(c.merge_cooldown_ms, 300_000);
    assert_eq!(c.merge_window_ms, 300_000);
    assert_eq!(c.split, [10_000.0, 50_000_000.0, 50_000.0, 250_000_000.0]);
    assert_eq!(c.merge, [1_000.0, 5_000_000.0, 5_000.0, 25_000_000.0]);
    c
}

fn sample(msg_in: f64, bytes_in: f64, msg_out: f64, bytes_out: f64, age_ms: u64) -> LoadSample {
    LoadSample {
        stats: LoadStats {
            msg_rate_in: msg_in,
            bytes_rate_in: bytes_in,
            msg_rate_out: msg_out,
            bytes_rate_out: bytes_out,
        },
        modified_ms: NOW - age_ms,
    }
}

fn cold(age_ms: u64) -> LoadSample {
    sample(0.0, 0.0, 0.0, 0.0, age_ms)
}

const OLD: u64 = 10 * 60_000;

fn load(v: &[(u64, LoadSample)]) -> BTreeMap<u64, LoadSample> {
    v.iter().copied().collect()
}

fn consumers(v: &[(&str, u32)]) -> BTreeMap<String, u32> {
    v.iter().map(|(s, n)| (s.to_string(), *n)).collect()
}

fn decide_at(
    layout: &SegmentLayout,
    load: &BTreeMap<u64, LoadSample>,
    consumers: &BTreeMap<String, u32>,
    cfg: &AutoScaleConfig,
    last_split: Option<u64>,
    last_merge: Option<u64>,
) -> Decision {
    // Upstream walks an unordered map: every order must give a decision the test accepts,
    // so each case runs forwards and backwards.
    let fwd: Vec<&SegmentInfo> = layout.active().collect();
    let mut rev = fwd.clone();
    rev.reverse();
    let (a, _) = decide(layout, &fwd, load, consumers, cfg, NOW, last_split, last_merge);
    let (b, _) = decide(layout, &rev, load, consumers, cfg, NOW, last_split, last_merge);
    let norm = |d: Decision| match d {
        Decision::Merge {
            segment1,
            segment2,
            reason,
        } => Decision::Merge {
            segment1: segment1.min(segment2),
            segment2: segment1.max(segment2),
            reason,
        },
        d => d,
    };
    let (a, b) = (norm(a), norm(b));
    assert_eq!(a, b, "the walk order changed the decision");
    a
}

fn run(
    layout: &SegmentLayout,
    load: &BTreeMap<u64, LoadSample>,
    c: &BTreeMap<String, u32>,
    cfg: &AutoScaleConfig,
) -> Decision {
    decide_at(layout, load, c, cfg, None, None)
}

fn split(id: u64, reason: &str) -> Decision {
    Decision::Split {
        segment: id,
        reason: reason.into(),
    }
}

fn merge(a: u64, b: u64) -> Decision {
    Decision::Merge {
        segment1: a,
        segment2: b,
        reason: "cold".into(),
    }
}

#[test]
fn auto_scale_policy_evaluator_test_test_disabled_returns_no_action() {
    let l = SegmentLayout::initial(1, 0).unwrap();
    let cfg = AutoScaleConfig {
        enabled: false,
        ..base_config()
    };
    let d = run(
        &l,
        &load(&[(0, sample(1_000_000.0, 0.0, 0.0, 0.0, OLD))]),
        &consumers(&[("s", 100)]),
        &cfg,
    );
    assert_eq!(d, Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_consumer_driven_split_targets_busiest_segment() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[
        (0, sample(100.0, 0.0, 0.0, 0.0, OLD)),
        (1, sample(200.0, 0.0, 0.0, 0.0, OLD)),
    ]);
    let d = run(&l, &ld, &consumers(&[("sub", 3)]), &base_config());
    assert_eq!(d, split(1, "consumer-count"));
}

#[test]
fn auto_scale_policy_evaluator_test_test_consumer_count_uses_per_subscription_max_not_sum() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(0)), (1, cold(0))]);
    let d = run(&l, &ld, &consumers(&[("a", 2), ("b", 2)]), &base_config());
    assert_eq!(d, Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_consumer_driven_split_respects_max_segments() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(0)), (1, cold(0))]);
    let cfg = AutoScaleConfig {
        max_segments: 2,
        ..base_config()
    };
    assert_eq!(run(&l, &ld, &consumers(&[("sub", 5)]), &cfg), Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_consumer_driven_split_respects_split_cooldown() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(0)), (1, cold(0))]);
    let d = decide_at(
        &l,
        &ld,
        &consumers(&[("sub", 3)]),
        &base_config(),
        Some(NOW - 30_000),
        None,
    );
    assert_eq!(d, Decision::None);
    // From the code: at exactly the cooldown the split goes ahead (strict "<").
    let d = decide_at(
        &l,
        &ld,
        &consumers(&[("sub", 3)]),
        &base_config(),
        Some(NOW - 60_000),
        None,
    );
    assert_eq!(d, split(0, "consumer-count"), "equal rates: the lowest id");
}

#[test]
fn auto_scale_policy_evaluator_test_test_load_driven_split_on_msg_rate_in() {
    let l = SegmentLayout::initial(1, 0).unwrap();
    let ld = load(&[(0, sample(SPLIT_MSG_IN + 1.0, 0.0, 0.0, 0.0, OLD))]);
    assert_eq!(
        run(&l, &ld, &consumers(&[]), &base_config()),
        split(0, "msgRateIn")
    );
}

#[test]
fn auto_scale_policy_evaluator_test_test_load_driven_split_on_bytes_rate_out() {
    let l = SegmentLayout::initial(1, 0).unwrap();
    let ld = load(&[(0, sample(0.0, 0.0, 0.0, SPLIT_BYTES_OUT + 1.0, OLD))]);
    assert_eq!(
        run(&l, &ld, &consumers(&[]), &base_config()),
        split(0, "bytesRateOut")
    );
}

#[test]
fn auto_scale_policy_evaluator_test_test_load_driven_split_picks_most_overloaded() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[
        (0, sample(SPLIT_MSG_IN * 1.1, 0.0, 0.0, 0.0, OLD)),
        (1, sample(SPLIT_MSG_IN * 1.5, 0.0, 0.0, 0.0, OLD)),
    ]);
    assert_eq!(
        run(&l, &ld, &consumers(&[]), &base_config()),
        split(1, "msgRateIn")
    );
}

#[test]
fn auto_scale_policy_evaluator_test_test_no_split_when_all_under_threshold() {
    let l = SegmentLayout::initial(1, 0).unwrap();
    let ld = load(&[(0, sample(9_999.0, 49_999_999.0, 49_999.0, 249_999_999.0, 0))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_cold_adjacent_pair() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(OLD)), (1, cold(OLD))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), merge(0, 1));
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_respects_min_segments() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(OLD)), (1, cold(OLD))]);
    let cfg = AutoScaleConfig {
        min_segments: 2,
        ..base_config()
    };
    assert_eq!(run(&l, &ld, &consumers(&[]), &cfg), Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_respects_merge_cooldown() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(OLD)), (1, cold(OLD))]);
    let d = decide_at(&l, &ld, &consumers(&[]), &base_config(), None, Some(NOW - 60_000));
    assert_eq!(d, Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_requires_cold_for_full_window() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[(0, cold(60_000)), (1, cold(60_000))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), Decision::None);
    // From the code: a record exactly mergeWindow old is old enough.
    let ld = load(&[(0, cold(300_000)), (1, cold(300_000))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), merge(0, 1));
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_requires_load_record_present() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    assert_eq!(
        run(&l, &BTreeMap::new(), &consumers(&[]), &base_config()),
        Decision::None
    );
}

#[test]
fn auto_scale_policy_evaluator_test_test_hysteresis_dead_band_no_split_no_merge() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[
        (0, sample(MERGE_MSG_IN + 1.0, 0.0, 0.0, 0.0, OLD)),
        (1, cold(OLD)),
    ]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), Decision::None);
    // From the code: the merge thresholds are strict, so exactly 1000 msg/s is not cold.
    let ld = load(&[(0, sample(MERGE_MSG_IN, 0.0, 0.0, 0.0, OLD)), (1, cold(OLD))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), Decision::None);
}

#[test]
fn auto_scale_policy_evaluator_test_test_split_takes_priority_over_merge() {
    let l = SegmentLayout::initial(2, 0).unwrap();
    let ld = load(&[
        (0, sample(SPLIT_MSG_IN + 1.0, 0.0, 0.0, 0.0, OLD)),
        (1, cold(OLD)),
    ]);
    assert_eq!(
        run(&l, &ld, &consumers(&[]), &base_config()),
        split(0, "msgRateIn")
    );
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_respects_max_dag_depth() {
    let mut l = SegmentLayout::initial(1, 0).unwrap();
    l.split_segment(0, NOW).unwrap();
    l.merge_segments(1, 2, NOW).unwrap();
    l.split_segment(3, NOW).unwrap();
    assert_eq!(ids(&l), vec![4, 5]);
    assert_eq!(l.merge_depth(4), 1);
    assert_eq!(l.merge_depth(5), 1);
    let ld = load(&[(4, cold(OLD)), (5, cold(OLD))]);
    let at = |depth| AutoScaleConfig {
        max_dag_depth: depth,
        ..base_config()
    };
    assert_eq!(run(&l, &ld, &consumers(&[]), &at(1)), Decision::None);
    assert_eq!(run(&l, &ld, &consumers(&[]), &at(2)), merge(4, 5));
}

#[test]
fn auto_scale_policy_evaluator_test_test_merge_picks_coldest_adjacent_pair() {
    let l = SegmentLayout::initial(4, 0).unwrap();
    let s = |r| sample(r, 0.0, 0.0, 0.0, OLD);
    let ld = load(&[(0, s(900.0)), (1, s(900.0)), (2, s(10.0)), (3, s(10.0))]);
    assert_eq!(run(&l, &ld, &consumers(&[]), &base_config()), merge(2, 3));
}

#[test]
fn auto_scale_policy_evaluator_test_test_merged_pair_is_always_adjacent() {
    let l = SegmentLayout::initial(4, 0).unwrap();
    let ld = load(&[(0, cold(OLD)), (1, cold(OLD)), (2, cold(OLD)), (3, cold(OLD))]);
    let fwd: Vec<&SegmentInfo> = l.active().collect();
    // Every walk order (all 24) merges an adjacent pair; which one is the order's.
    let mut chosen = BTreeSet::new();
    let mut perm = vec![0usize, 1, 2, 3];
    permutations(&mut perm, 0, &mut |p| {
        let order: Vec<&SegmentInfo> = p.iter().map(|&i| fwd[i]).collect();
        let (d, _) = decide(&l, &order, &ld, &consumers(&[]), &base_config(), NOW, None, None);
        let Decision::Merge {
            segment1, segment2, ..
        } = d
        else {
            panic!("{d:?}")
        };
        let (a, b) = (&l.segments[&segment1], &l.segments[&segment2]);
        assert!(a.range.is_adjacent_to(&b.range));
        chosen.insert((segment1.min(segment2), segment1.max(segment2)));
    });
    // From the code: equally cold pairs tie, and the first in the walk wins: all three
    // adjacent pairs are chosen by some order (lbscope draws the order from the seed).
    assert_eq!(
        chosen.into_iter().collect::<Vec<_>>(),
        vec![(0, 1), (1, 2), (2, 3)]
    );
}

fn permutations(v: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, f);
        v.swap(k, i);
    }
}

// ---------------------------------------------------------------------------
// AutoScaleConfig.validated() (messages and rules read from AutoScaleConfig.java).

#[test]
fn auto_scale_config_validated_refuses_each_broken_invariant() {
    assert_eq!(base_config().validated(), Ok(()));
    let cases: Vec<(AutoScaleConfig, &str)> = vec![
        (AutoScaleConfig { min_segments: 0, ..base_config() }, "scalableTopicMinSegments must be >= 1"),
        (
            AutoScaleConfig { max_segments: 0, ..base_config() },
            "scalableTopicMaxSegments must be >= scalableTopicMinSegments",
        ),
        (AutoScaleConfig { max_dag_depth: -1, ..base_config() }, "scalableTopicMaxDagDepth must be >= 0"),
        (
            AutoScaleConfig { merge_window_ms: -1000, ..base_config() },
            "scalableTopicMergeWindowSeconds must not be negative",
        ),
        (
            AutoScaleConfig { split: [0.0, 5e7, 5e4, 2.5e8], ..base_config() },
            "scalableTopicSplitMsgRateInThreshold must be > 0",
        ),
        (
            AutoScaleConfig { merge: [1e3, -1.0, 5e3, 2.5e7], ..base_config() },
            "scalableTopicMergeBytesRateInThreshold must be >= 0",
        ),
        (
            AutoScaleConfig { merge: [1e3, 5e6, 5e4, 2.5e7], ..base_config() },
            "scalableTopicSplitMsgRateOutThreshold must be > scalableTopicMergeMsgRateOutThreshold (hysteresis)",
        ),
    ];
    for (c, msg) in cases {
        let err = c.validated().unwrap_err();
        assert_eq!(err, format!("Invalid auto split/merge configuration: {msg}"));
    }
}

#[test]
fn an_impossible_scalable_config_is_refused_and_changes_nothing() {
    let mut sim = cluster();
    let before = sim.config().clone();
    let change = |k: &str, v: serde_json::Value| Action::SetConfig(ConfigChange::one(k, v).unwrap());
    let err = sim
        .apply(&change(
            "scalableTopicMergeMsgRateInThreshold",
            serde_json::json!(20000),
        ))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("scalableTopicSplitMsgRateInThreshold must be > scalableTopicMergeMsgRateInThreshold"),
        "{err}"
    );
    let err = sim
        .apply(&change("scalableTopicMinSegments", serde_json::json!(0)))
        .unwrap_err()
        .to_string();
    assert!(err.contains("scalableTopicMinSegments must be >= 1"), "{err}");
    assert_eq!(sim.config(), &before);
}

// ---------------------------------------------------------------------------
// SegmentLoadReporter.isMaterialChange (rule read from the code: > threshold relative,
// or any move off zero; staying at zero is not a change).

#[test]
fn segment_load_reporter_is_material_change() {
    let s = |m: f64| LoadStats {
        msg_rate_in: m,
        ..Default::default()
    };
    assert!(
        !is_material_change(&s(1000.0), &s(1250.0), 0.25),
        "exactly 25 % is not more than 25 %"
    );
    assert!(is_material_change(&s(1000.0), &s(1251.0), 0.25));
    assert!(is_material_change(&s(1000.0), &s(749.0), 0.25));
    assert!(!is_material_change(&s(1000.0), &s(750.0), 0.25));
    assert!(is_material_change(&s(0.0), &s(0.001), 0.25), "off zero");
    assert!(!is_material_change(&s(0.0), &s(0.0), 0.25), "staying at zero");
    assert!(is_material_change(&s(5.0), &s(0.0), 0.25), "to zero: 100 %");
    let bytes = LoadStats {
        bytes_rate_out: 100.0,
        ..Default::default()
    };
    let more = LoadStats {
        bytes_rate_out: 200.0,
        ..Default::default()
    };
    assert!(is_material_change(&bytes, &more, 0.25), "any of the four rates");
}

// ---------------------------------------------------------------------------
// SubscriptionCoordinator.computeAssignment (rule read from the code: segments by hash
// range then id, consumers by name, round robin).

#[test]
fn subscription_coordinator_compute_assignment_round_robin() {
    let mut l = SegmentLayout::initial(2, 0).unwrap();
    l.split_segment(0, 0).unwrap(); // 2 [0000-3fff], 3 [4000-7fff], 1 [8000-ffff]
    let active: Vec<&SegmentInfo> = l.active().collect();
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    let a = compute_assignment(&active, &names(&["zed", "amy"]));
    assert_eq!(
        a,
        vec![
            (2, "amy".to_string()),
            (3, "zed".to_string()),
            (1, "amy".to_string())
        ]
    );
    // More consumers than segments: the last ones in name order stay idle.
    let a = compute_assignment(&active, &names(&["d", "c", "b", "a"]));
    assert_eq!(
        a.iter().map(|(_, c)| c.as_str()).collect::<Vec<_>>(),
        vec!["a", "b", "c"]
    );
    assert!(compute_assignment(&active, &BTreeSet::new()).is_empty());
}

// ---------------------------------------------------------------------------
// The engine: scalable topics in a simulated cluster.

const TOPIC: &str = "topic://public/default/orders";

fn cluster_seeded(seed: u64) -> Sim {
    let mut sim = Sim::new(Config::default(), seed).unwrap();
    for b in ["broker-1", "broker-2", "broker-3"] {
        sim.apply(&Action::AddBroker {
            broker: b.into(),
            capacity: Default::default(),
        })
        .unwrap();
    }
    sim.apply(&Action::CreateNamespace {
        namespace: "public/default".into(),
        bundles: Some(8),
    })
    .unwrap();
    sim
}

fn cluster() -> Sim {
    cluster_seeded(42)
}

fn create(sim: &mut Sim, segments: u32) -> Vec<Event> {
    sim.apply(&Action::CreateScalableTopic {
        topic: TOPIC.into(),
        segments: Some(segments),
    })
    .unwrap()
}

fn rate(msg_in: f64) -> Traffic {
    Traffic {
        msg_rate_in: msg_in,
        msg_rate_out: msg_in,
        throughput_in: msg_in * 1000.0,
        throughput_out: msg_in * 1000.0,
        producers: 2,
        consumers: 0,
    }
}

fn set_rate(sim: &mut Sim, msg_in: f64) {
    sim.apply(&Action::SetScalableTopicTraffic {
        topic: TOPIC.into(),
        traffic: rate(msg_in),
        wave: None,
        hot_keys: None,
    })
    .unwrap();
}

fn scalable(ev: &[Event]) -> Vec<&ScalableEvent> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Scalable(s) => Some(s),
            _ => None,
        })
        .collect()
}

fn active(sim: &Sim) -> Vec<(u64, u16, u16)> {
    sim.scalable_topics().topics[TOPIC]
        .layout
        .active()
        .map(|s| (s.id, s.range.start, s.range.end))
        .collect()
}

#[test]
fn the_4_x_profile_refuses_scalable_topics_and_keeps_them_once_made() {
    let mut sim = Sim::new(
        Config::profile(lbscope::engine::pulsar::config::Profile::Pulsar4),
        1,
    )
    .unwrap();
    sim.apply(&Action::CreateNamespace {
        namespace: "public/default".into(),
        bundles: None,
    })
    .unwrap();
    let err = sim
        .apply(&Action::CreateScalableTopic {
            topic: TOPIC.into(),
            segments: None,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("Pulsar 5.0") && err.contains("pulsar-4.2"), "{err}");
    let mut sim = cluster();
    create(&mut sim, 1);
    let err = sim
        .apply(&Action::SetProfile {
            profile: lbscope::engine::pulsar::config::Profile::Pulsar4,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("scalable topic"), "{err}");
    assert_eq!(sim.config(), &Config::default());
}

#[test]
fn each_segment_is_a_segment_topic_in_the_bundle_its_crc32_picks() {
    let mut sim = cluster();
    let ev = create(&mut sim, 2);
    let Some(ScalableEvent::Created { segments, .. }) = scalable(&ev).first().copied() else {
        panic!("{ev:?}")
    };
    assert_eq!(segments.len(), 2);
    assert_eq!(
        segments[0].topic.as_str(),
        "segment://public/default/orders/0000-7fff-0"
    );
    assert_eq!(
        segments[1].topic.as_str(),
        "segment://public/default/orders/8000-ffff-1"
    );
    let ns = &sim.namespaces()["public/default"];
    for p in segments {
        assert_eq!(p.hash, crc32fast::hash(p.topic.as_str().as_bytes()));
        assert_eq!(p.bundle, ns.bundle_of(p.hash));
        let t = &ns.topics[&p.topic];
        assert_eq!(t.name.namespace(), "public/default");
        let bid = sim
            .bundles()
            .keys()
            .find(|b| b.range == p.bundle)
            .unwrap()
            .clone();
        assert!(
            sim.bundles()[&bid].owner().is_some(),
            "its bundle was looked up and placed"
        );
    }
}

#[test]
fn a_hot_segment_splits_on_the_next_evaluation_and_children_take_its_place() {
    let mut sim = cluster();
    create(&mut sim, 1);
    set_rate(&mut sim, 12_000.0);
    let ev = sim.apply(&Action::Step).unwrap();
    let s = scalable(&ev);
    let split = s
        .iter()
        .find_map(|e| match e {
            ScalableEvent::Split {
                parent,
                children,
                reason,
                by,
                ..
            } => Some((
                *parent,
                children.iter().map(|c| c.id).collect::<Vec<_>>(),
                reason.clone(),
                by.clone(),
            )),
            _ => None,
        })
        .expect("split");
    assert_eq!(
        split,
        (0, vec![1, 2], "msgRateIn".to_string(), "auto".to_string())
    );
    let eval = s
        .iter()
        .find_map(|e| match e {
            ScalableEvent::Evaluated { evaluation, .. } => Some(evaluation.clone()),
            _ => None,
        })
        .unwrap();
    let h = eval.hottest.unwrap();
    assert_eq!((h.segment, h.rate, h.threshold), (0, 12_000.0, 10_000.0));
    assert!((h.score - 1.2).abs() < 1e-12);
    assert_eq!(active(&sim), vec![(1, 0, 0x7fff), (2, 0x8000, 0xffff)]);
    // The sealed segment's topic is gone; the children carry half the traffic each.
    let ns = &sim.namespaces()["public/default"];
    let names: Vec<&str> = ns.topics.keys().map(|t| t.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "segment://public/default/orders/0000-7fff-1",
            "segment://public/default/orders/8000-ffff-2"
        ]
    );
    for t in ns.topics.values() {
        assert_eq!(ns.traffic(t).msg_rate_in, 6_000.0);
    }
}

#[test]
fn manual_split_and_merge_restart_the_cooldowns() {
    let mut sim = cluster();
    create(&mut sim, 1);
    sim.apply(&Action::SplitSegment {
        topic: TOPIC.into(),
        segment_id: 0,
    })
    .unwrap();
    assert_eq!(active(&sim), vec![(1, 0, 0x7fff), (2, 0x8000, 0xffff)]);
    // Hot right after a manual split: the cooldown (60 s) holds the split until a round passes.
    set_rate(&mut sim, 30_000.0);
    let ev = sim
        .apply(&Action::AddScalableConsumer {
            topic: TOPIC.into(),
            subscription: "s".into(),
            consumer: "c1".into(),
        })
        .unwrap();
    let eval = scalable(&ev)
        .into_iter()
        .find_map(|e| match e {
            ScalableEvent::Evaluated {
                evaluation, decision, ..
            } => Some((evaluation.clone(), decision.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(eval.1, Decision::None);
    assert_eq!(eval.0.split_cooldown_left_ms, Some(60_000));
    // Refusals name the reason and change nothing.
    let err = sim
        .apply(&Action::MergeSegments {
            topic: TOPIC.into(),
            segment_id_1: 0,
            segment_id_2: 1,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("segment 0 is sealed"), "{err}");
    let err = sim
        .apply(&Action::SplitSegment {
            topic: TOPIC.into(),
            segment_id: 9,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("segment 9 does not exist"), "{err}");
    sim.apply(&Action::MergeSegments {
        topic: TOPIC.into(),
        segment_id_1: 1,
        segment_id_2: 2,
    })
    .unwrap();
    assert_eq!(active(&sim), vec![(3, 0, 0xffff)]);
    assert_eq!(sim.scalable_topics().topics[TOPIC].last_merge_ms, Some(0));
}

#[test]
fn a_consumer_joining_splits_at_once_when_a_subscription_outnumbers_the_segments() {
    let mut sim = cluster();
    create(&mut sim, 1);
    let add = |sim: &mut Sim, c: &str| {
        sim.apply(&Action::AddScalableConsumer {
            topic: TOPIC.into(),
            subscription: "billing".into(),
            consumer: c.into(),
        })
        .unwrap()
    };
    add(&mut sim, "c1");
    let ev = add(&mut sim, "c2");
    let reasons: Vec<String> = scalable(&ev)
        .iter()
        .filter_map(|e| match e {
            ScalableEvent::Split { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, vec!["consumer-count"]);
    let a = &sim.scalable_topics().topics[TOPIC].assignment["billing"];
    assert_eq!(a, &vec![(1, "c1".to_string()), (2, "c2".to_string())]);
}

/// The scenario of the golden `pulsar-scalable-topic-wave`: a wave takes two segments to
/// four and, once the traffic has been zero for the merge window, back to two.
#[test]
fn a_traffic_wave_splits_then_merges() {
    let mut sim = cluster();
    sim.apply(&Action::SetConfig(
        ConfigChange::one("scalableTopicMinSegments", serde_json::json!(2)).unwrap(),
    ))
    .unwrap();
    create(&mut sim, 2);
    sim.apply(&Action::SetScalableTopicTraffic {
        topic: TOPIC.into(),
        traffic: rate(10_000.0),
        wave: Some(lbscope::engine::pulsar::scalable_topic::Wave {
            period_minutes: 120.0,
            amplitude_percent: 150.0,
            phase_minutes: 0.0,
        }),
        hot_keys: None,
    })
    .unwrap();
    let mut counts = Vec::new();
    for _ in 0..120 {
        sim.apply(&Action::Step).unwrap();
        counts.push(sim.scalable_topics().topics[TOPIC].layout.active_count());
    }
    let peak = *counts.iter().max().unwrap();
    let at_peak = counts.iter().position(|&c| c == peak).unwrap();
    assert_eq!(peak, 4, "{counts:?}");
    assert_eq!(counts[counts.len() - 1], 2, "{counts:?}");
    assert!(
        counts[at_peak..].contains(&3),
        "merged one pair at a time: {counts:?}"
    );
    // Merges wait for the traffic to be zero (factor clipped) for the merge window, and
    // for the merge cooldown between two merges.
    let first_merge = at_peak + counts[at_peak..].iter().position(|&c| c < peak).unwrap();
    let second = first_merge + counts[first_merge..].iter().position(|&c| c < peak - 1).unwrap();
    assert!(
        second - first_merge >= 5,
        "merge cooldown 300 s = 5 rounds: {counts:?}"
    );
}

#[test]
fn which_of_two_equally_hot_segments_splits_first_is_drawn_from_the_seed() {
    let mut first = BTreeSet::new();
    for seed in 0..16 {
        let mut sim = cluster_seeded(seed);
        create(&mut sim, 2);
        set_rate(&mut sim, 24_000.0);
        let ev = sim.apply(&Action::Step).unwrap();
        let parent = scalable(&ev)
            .iter()
            .find_map(|e| match e {
                ScalableEvent::Split { parent, .. } => Some(*parent),
                _ => None,
            })
            .unwrap();
        first.insert(parent);
        // Same seed, same choice.
        let mut again = cluster_seeded(seed);
        create(&mut again, 2);
        set_rate(&mut again, 24_000.0);
        assert_eq!(ev, again.apply(&Action::Step).unwrap());
    }
    assert_eq!(
        first.into_iter().collect::<Vec<_>>(),
        vec![0, 1],
        "both orders occur over seeds"
    );
}

#[test]
fn bad_scalable_input_is_refused_with_a_clear_message() {
    let mut sim = cluster();
    let cases: Vec<(Action, &str)> = vec![
        (
            Action::CreateScalableTopic {
                topic: "persistent://public/default/x".into(),
                segments: None,
            },
            "domain is topic://",
        ),
        (
            Action::CreateScalableTopic {
                topic: "topic://nope/ns/x".into(),
                segments: None,
            },
            "namespace nope/ns does not exist",
        ),
        (
            Action::CreateScalableTopic {
                topic: TOPIC.into(),
                segments: Some(0),
            },
            "1 to 4096 segments",
        ),
        (
            Action::SplitSegment {
                topic: TOPIC.into(),
                segment_id: 0,
            },
            "does not exist",
        ),
    ];
    for (a, want) in cases {
        let err = sim.apply(&a).unwrap_err().to_string();
        assert!(err.contains(want), "{a:?}: {err}");
    }
    create(&mut sim, 1);
    let err = sim
        .apply(&Action::SetScalableTopicTraffic {
            topic: TOPIC.into(),
            traffic: rate(1.0),
            wave: Some(lbscope::engine::pulsar::scalable_topic::Wave {
                period_minutes: 0.0,
                amplitude_percent: 10.0,
                phase_minutes: 0.0,
            }),
            hot_keys: None,
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("period_minutes"), "{err}");
    let err = sim
        .apply(&Action::RemoveScalableConsumer {
            topic: TOPIC.into(),
            subscription: "s".into(),
            consumer: "c".into(),
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("no subscription s"), "{err}");
}

/// The page's motion and captions for a round that splits a segment: each child
/// grows into the segment bar with the split phase, and the split caption names
/// the parent and its children (`playground::motion`).
#[test]
fn a_segment_split_grows_its_children_and_is_captioned() {
    use lbscope::playground::motion::{self, Anchor, Motion};
    let mut sim = cluster();
    create(&mut sim, 2);
    set_rate(&mut sim, 24_000.0);
    let ev = sim.apply(&Action::Step).unwrap();
    let (parent, children) = scalable(&ev)
        .iter()
        .find_map(|e| match e {
            ScalableEvent::Split { parent, children, .. } => {
                Some((*parent, children.iter().map(|c| c.id).collect::<Vec<_>>()))
            }
            _ => None,
        })
        .expect("the round split a segment");
    let grown: Vec<Anchor> = motion::pulsar(&ev)
        .into_iter()
        .filter(|b| b.beat == 1)
        .filter_map(|b| match b.motion {
            Motion::Arrive { at } if at.0.starts_with("[data-segment") => Some(at),
            _ => None,
        })
        .collect();
    let want: Vec<Anchor> = children
        .iter()
        .map(|c| Anchor::mark("segment", &c.to_string()))
        .collect();
    assert_eq!(grown, want);
    let caps = motion::pulsar_captions(&ev);
    let split = &caps.iter().find(|c| c.beat == 1).unwrap().text;
    let names: Vec<String> = children.iter().map(|c| c.to_string()).collect();
    assert!(
        split.contains(&format!("{TOPIC} segment {parent} into {}", names.join(" and "))),
        "{split}"
    );
}
