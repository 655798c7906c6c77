//! The doc's worked split examples, run through the engine with pinned topics.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

use lbscope::engine::pulsar::config::{Profile, SplitAlgorithm};
use lbscope::engine::pulsar::split::split_partitions;
use lbscope::engine::pulsar::{Action, Config, Event};
use lbscope::engine::{Engine, Narrate};
use util::*;

fn split_events(
    sim: &mut lbscope::engine::pulsar::Sim,
    bundle: &str,
    alg: SplitAlgorithm,
    b: Vec<u32>,
) -> Vec<Event> {
    sim.apply(&Action::SplitBundle {
        namespace: "t/n".into(),
        bundle: bundle.into(),
        algorithm: Some(alg),
        boundaries: b,
        unload: false,
    })
    .unwrap()
}

fn boundaries(ev: &[Event]) -> Vec<u32> {
    ev.iter()
        .find_map(|e| match e {
            Event::BundleSplit { plan, .. } => Some(plan.boundaries.clone()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn example_1_sixteen_bit_partitions() {
    let p = split_partitions(&[0x0000, 0x8000, 0xFFFF], 0, &[0x4000]).unwrap();
    assert_eq!(p, vec![0x0000, 0x4000, 0x8000, 0xFFFF]);
}

#[test]
fn example_2_range_equally_divide() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 2);
    let ev = split_events(
        &mut sim,
        "0x00000000_0x80000000",
        SplitAlgorithm::RangeEquallyDivide,
        vec![],
    );
    assert_eq!(boundaries(&ev), vec![0x4000_0000]);
    let names: Vec<String> = sim.namespaces()["t/n"].bundles.iter().map(|b| b.name()).collect();
    assert_eq!(
        names,
        vec![
            "0x00000000_0x40000000",
            "0x40000000_0x80000000",
            "0x80000000_0xffffffff"
        ]
    );
}

#[test]
fn example_3_topic_count_equally_divide() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 2);
    for (i, h) in [
        0x1000_0000u32,
        0x2000_0000,
        0x3500_0000,
        0x6500_0000,
        0x7000_0000,
        0x7500_0000,
    ]
    .iter()
    .enumerate()
    {
        pinned(&mut sim, &format!("t/n/topic{}", i + 1), *h);
    }
    let ev = split_events(
        &mut sim,
        "0x00000000_0x80000000",
        SplitAlgorithm::TopicCountEquallyDivide,
        vec![],
    );
    assert_eq!(boundaries(&ev), vec![0x4D00_0000]);
    let text: String = ev.iter().map(|e| e.narrate()).collect();
    assert!(text.contains("0x50000000"), "{text}");
    let ring = sim.ring_view("t/n", false).unwrap();
    assert_eq!(ring.bundles[0].topics, 3);
    assert_eq!(ring.bundles[1].topics, 3);
}

#[test]
fn example_4_specified_positions_divide() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 4);
    pinned(&mut sim, "t/n/topic1", 0x3000_0000);
    pinned(&mut sim, "t/n/topic2", 0x3500_0000);
    let ev = split_events(
        &mut sim,
        "0x00000000_0x40000000",
        SplitAlgorithm::SpecifiedPositionsDivide,
        vec![0x3300_0000],
    );
    assert_eq!(boundaries(&ev), vec![0x3300_0000]);
    let ring = sim.ring_view("t/n", false).unwrap();
    assert_eq!(ring.bundles[0].name, "0x00000000_0x33000000");
    assert_eq!((ring.bundles[0].topics, ring.bundles[1].topics), (1, 1));
}

fn six(max_rate: f64, max_mb: f64) -> lbscope::engine::pulsar::Sim {
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_namespace_bundle_max_msg_rate = max_rate;
    c.load_balancer_namespace_bundle_max_bandwidth_mbytes = max_mb;
    c.load_balancer_auto_bundle_split_enabled = false;
    let mut sim = cluster(c, &["b1"], "t/n", 2);
    let hs = [
        0x1000_0000u32,
        0x1500_0000,
        0x2400_0000,
        0x3900_0000,
        0x5800_0000,
        0x7600_0000,
    ];
    for (i, h) in hs.iter().enumerate() {
        let name = format!("t/n/t{}", i + 1);
        pinned(&mut sim, &name, *h);
        let k = (i + 1) as f64;
        set_traffic(&mut sim, &name, traffic(100.0 * k, 10.0 * k, 1, 1));
    }
    sim
}

#[test]
fn example_5_flow_or_qps_case_1_msg_rate() {
    let mut sim = six(450.0, 200.0);
    let ev = split_events(
        &mut sim,
        "0x00000000_0x80000000",
        SplitAlgorithm::FlowOrQpsEquallyDivide,
        vec![],
    );
    assert_eq!(
        boundaries(&ev),
        vec![0x1C80_0001, 0x2E80_0001, 0x4880_0001, 0x6700_0001]
    );
    assert_eq!(sim.namespaces()["t/n"].bundles.len(), 6);
    let text = ev.iter().map(|e| e.narrate()).collect::<String>();
    assert!(text.contains("0x19500000") && text.contains("+1"), "{text}");
}

#[test]
fn example_5_flow_or_qps_case_2_throughput() {
    let mut sim = six(1900.0, 90.0);
    let ev = split_events(
        &mut sim,
        "0x00000000_0x80000000",
        SplitAlgorithm::FlowOrQpsEquallyDivide,
        vec![],
    );
    assert_eq!(boundaries(&ev), vec![0x2E80_0001, 0x6700_0001]);
}

#[test]
fn example_5_flow_or_qps_case_3_both() {
    let mut sim = six(1100.0, 110.0);
    let ev = split_events(
        &mut sim,
        "0x00000000_0x80000000",
        SplitAlgorithm::FlowOrQpsEquallyDivide,
        vec![],
    );
    assert_eq!(boundaries(&ev), vec![0x4880_0001]);
}
