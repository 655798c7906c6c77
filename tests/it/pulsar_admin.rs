//! pulsar-admin style operations and profiles.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

use lbscope::engine::pulsar::config::{LoadManager, Profile, SplitAlgorithm};
use lbscope::engine::pulsar::ownership::ServiceUnitState;
use lbscope::engine::pulsar::{Action, Config, Error, Event};
use lbscope::engine::Engine;
use util::*;

fn setup(c: Config) -> lbscope::engine::pulsar::Sim {
    let mut sim = cluster(c, &["b1", "b2"], "t/n", 4);
    for (i, h) in [0x0100_0000u32, 0x0200_0000, 0x0300_0000, 0x5000_0000]
        .iter()
        .enumerate()
    {
        pinned(&mut sim, &format!("t/n/x{i}"), *h);
    }
    set_traffic(&mut sim, "t/n/x3", traffic(5000.0, 1.0, 1, 1));
    sim
}

fn split(bundle: &str, alg: Option<SplitAlgorithm>, unload: bool) -> Action {
    Action::SplitBundle {
        namespace: "t/n".into(),
        bundle: bundle.into(),
        algorithm: alg,
        boundaries: vec![],
        unload,
    }
}

#[test]
fn split_largest_and_hot() {
    let mut sim = setup(Config::profile(Profile::Pulsar4));
    let ev = sim
        .apply(&split(
            "LARGEST",
            Some(SplitAlgorithm::TopicCountEquallyDivide),
            true,
        ))
        .unwrap();
    assert_eq!(splits(&ev)[0].0, "t/n/0x00000000_0x40000000");
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BundleSplit { unloaded: true, .. })));
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Reconnected { .. }))
            .count(),
        2,
        "both children had topics"
    );
    let ev = sim.apply(&split("hot", None, false)).unwrap();
    assert_eq!(splits(&ev)[0].0, "t/n/0x40000000_0x80000000");
    // Without -u the children stay with the owner.
    assert!(sim
        .bundles()
        .iter()
        .filter(|(b, _)| b.range.lower >= 0x4000_0000 && b.range.upper <= 0x8000_0000)
        .all(|(_, s)| s.owner().is_some()));
}

#[test]
fn split_refusals_leave_state_unchanged() {
    let mut sim = setup(Config::profile(Profile::Pulsar4));
    // One topic: topic_count_equally_divide finds no boundary.
    let e = refused(
        &mut sim,
        split(
            "0x40000000_0x80000000",
            Some(SplitAlgorithm::TopicCountEquallyDivide),
            false,
        ),
    );
    assert!(matches!(e, Error::SplitRefused(_)));
    refused(&mut sim, split("0x40000000_0x80000001", None, false));
    refused(
        &mut sim,
        split(
            "0x00000000_0x40000000",
            Some(SplitAlgorithm::SpecifiedPositionsDivide),
            false,
        ),
    );
    refused(
        &mut sim,
        Action::SplitBundle {
            namespace: "t/n".into(),
            bundle: "0x00000000_0x40000000".into(),
            algorithm: None,
            boundaries: vec![5],
            unload: false,
        },
    );
    refused(
        &mut sim,
        Action::SplitBundle {
            namespace: "t/n".into(),
            bundle: "0x00000000_0x40000000".into(),
            algorithm: Some(SplitAlgorithm::SpecifiedPositionsDivide),
            boundaries: vec![0x5000_0000],
            unload: false,
        },
    );
    refused(
        &mut sim,
        split("0x00000000_0x40000000", None, false).clone_with_ns("x/y"),
    );
}

trait WithNs {
    fn clone_with_ns(self, ns: &str) -> Action;
}
impl WithNs for Action {
    fn clone_with_ns(self, ns: &str) -> Action {
        match self {
            Action::SplitBundle {
                bundle,
                algorithm,
                boundaries,
                unload,
                ..
            } => Action::SplitBundle {
                namespace: ns.into(),
                bundle,
                algorithm,
                boundaries,
                unload,
            },
            a => a,
        }
    }
}

#[test]
fn unload_bundle_modular_post_assigns_at_next_lookup() {
    let mut sim = setup(Config::profile(Profile::Pulsar4));
    let owner = sim.owner_of_topic("t/n/x0").unwrap().clone();
    let ev = sim
        .apply(&Action::Unload {
            namespace: "t/n".into(),
            bundle: Some("0x00000000_0x40000000".into()),
            destination: None,
        })
        .unwrap();
    assert!(matches!(&ev[0], Event::Unloaded { from, .. } if *from == owner));
    assert!(matches!(&ev[1], Event::Reconnected { topics: 3, .. }));
    assert!(sim.owner_of_topic("t/n/x0").is_none());
    sim.apply(&Action::Lookup {
        topic: "t/n/x1".into(),
    })
    .unwrap();
    assert!(sim.owner_of_topic("t/n/x0").is_some());
    // Unowned bundle: a no-op.
    let ev = sim
        .apply(&Action::Unload {
            namespace: "t/n".into(),
            bundle: Some("0x80000000_0xc0000000".into()),
            destination: None,
        })
        .unwrap();
    assert!(matches!(&ev[0], Event::UnloadSkipped { .. }));
}

#[test]
fn unload_to_destination_modular_and_extensible() {
    let mut sim = setup(Config::profile(Profile::Pulsar4));
    let owner = sim.owner_of_topic("t/n/x0").unwrap().0.to_string();
    let other = if owner == "b1" { "b2" } else { "b1" };
    refused(
        &mut sim,
        Action::Unload {
            namespace: "t/n".into(),
            bundle: Some("0x00000000_0x40000000".into()),
            destination: Some(owner.clone()),
        },
    );
    refused(
        &mut sim,
        Action::Unload {
            namespace: "t/n".into(),
            bundle: None,
            destination: Some(other.into()),
        },
    );
    sim.apply(&Action::Unload {
        namespace: "t/n".into(),
        bundle: Some("0x00000000_0x40000000".into()),
        destination: Some(other.into()),
    })
    .unwrap();
    assert!(sim.owner_of_topic("t/n/x0").is_none());
    let ev = sim.apply(&Action::Assign).unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Lookup { how, .. } if how.contains("-d"))));
    assert_eq!(sim.owner_of_topic("t/n/x0").unwrap().as_str(), other);

    let mut c = Config::profile(Profile::Pulsar4);
    c.load_manager_class_name = LoadManager::Extensible;
    let mut sim = setup(c);
    let owner = sim.owner_of_topic("t/n/x0").unwrap().0.to_string();
    let other = if owner == "b1" { "b2" } else { "b1" };
    let ev = sim
        .apply(&Action::Unload {
            namespace: "t/n".into(),
            bundle: Some("0x00000000_0x40000000".into()),
            destination: Some(other.into()),
        })
        .unwrap();
    let st: Vec<ServiceUnitState> = ev
        .iter()
        .filter_map(|e| match e {
            Event::StateChanged { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(
        st,
        vec![
            ServiceUnitState::Releasing,
            ServiceUnitState::Assigning,
            ServiceUnitState::Owned
        ]
    );
    assert_eq!(sim.owner_of_topic("t/n/x0").unwrap().as_str(), other);
}

#[test]
fn unload_whole_namespace() {
    let mut sim = setup(Config::profile(Profile::Pulsar4));
    let ev = sim
        .apply(&Action::Unload {
            namespace: "t/n".into(),
            bundle: None,
            destination: None,
        })
        .unwrap();
    assert_eq!(
        ev.iter().filter(|e| matches!(e, Event::Unloaded { .. })).count(),
        2
    );
    assert_eq!(sim.counters().reconnects, 4);
    // The round's summary counts its own work only: the unload came before it.
    let m = &step(&mut sim);
    assert!(m.iter().any(
        |e| matches!(e, Event::RoundDone { metrics } if metrics.reconnects == 0 && metrics.bundles_moved == 0)
    ));
    assert!(sim.owner_of_topic("t/n/x0").is_some());
}

#[test]
fn profiles_set_the_doc_defaults() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 4);
    let ev = sim
        .apply(&Action::SetProfile {
            profile: Profile::Pulsar5,
        })
        .unwrap();
    assert!(matches!(ev[0], Event::ProfileSet { .. }));
    sim.apply(&Action::CreateNamespace {
        namespace: "a/b".into(),
        bundles: None,
    })
    .unwrap();
    assert_eq!(sim.namespaces()["a/b"].bundles.len(), 32);
    assert_eq!(sim.config().max_unload_percentage, 0.5);
    assert!(!sim.config().load_balancer_distribute_bundles_evenly_enabled);
    sim.apply(&Action::SetProfile {
        profile: Profile::Pulsar4,
    })
    .unwrap();
    sim.apply(&Action::CreateNamespace {
        namespace: "a/c".into(),
        bundles: None,
    })
    .unwrap();
    assert_eq!(sim.namespaces()["a/c"].bundles.len(), 4);
    let mut bad = Config::profile(Profile::Pulsar4);
    bad.round_seconds = 0;
    refused(&mut sim, Action::whole_config(&bad));
}

/// `NamespaceBundlesTest.testSplitBundles` (expected values from the test and
/// `NamespaceBundleFactory.splitBundles`): the full bundle split in 4 leaves 4
/// bundles of `0xffffffff / 4 = 0x3fffffff` hashes (the last keeps the
/// remainder); the first of them split in 4 again gives 7 in all, each child
/// range following the last.
#[test]
fn namespace_bundles_test_split_bundles() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1"], "t/n", 1);
    let names = |sim: &lbscope::engine::pulsar::Sim| -> Vec<String> {
        sim.bundles()
            .keys()
            .filter(|b| b.namespace.as_str() == "t/n")
            .map(|b| b.range.name())
            .collect()
    };
    let split = |sim: &mut lbscope::engine::pulsar::Sim, bundle: &str, parts: u32| {
        sim.apply(&Action::SplitBundleInParts {
            namespace: "t/n".into(),
            bundle: bundle.into(),
            parts,
            unload: false,
        })
    };
    split(&mut sim, "0x00000000_0xffffffff", 4).unwrap();
    assert_eq!(
        names(&sim),
        [
            "0x00000000_0x3fffffff",
            "0x3fffffff_0x7ffffffe",
            "0x7ffffffe_0xbffffffd",
            "0xbffffffd_0xffffffff"
        ]
    );
    split(&mut sim, "0x00000000_0x3fffffff", 4).unwrap();
    assert_eq!(
        names(&sim),
        [
            "0x00000000_0x0fffffff",
            "0x0fffffff_0x1ffffffe",
            "0x1ffffffe_0x2ffffffd",
            "0x2ffffffd_0x3fffffff",
            "0x3fffffff_0x7ffffffe",
            "0x7ffffffe_0xbffffffd",
            "0xbffffffd_0xffffffff"
        ]
    );
    // Fewer than 2 parts, or more parts than hashes, are refused with nothing changed.
    let e = refused(
        &mut sim,
        Action::SplitBundleInParts {
            namespace: "t/n".into(),
            bundle: "0x00000000_0x0fffffff".into(),
            parts: 1,
            unload: false,
        },
    );
    assert!(e.to_string().contains("at least 2 parts"), "{e}");
    split(&mut sim, "0x00000000_0x0fffffff", 0x0fff_ffff).unwrap_err();
    // The scenario form.
    let a: Action = serde_json::from_str(
        r#"{"op": "split_bundle_in_parts", "namespace": "t/n", "bundle": "LARGEST", "parts": 3, "unload": true}"#,
    )
    .unwrap();
    assert!(matches!(
        a,
        Action::SplitBundleInParts {
            parts: 3,
            unload: true,
            ..
        }
    ));
}
