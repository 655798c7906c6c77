//! Bad input gets a clear error and leaves the state exactly as it was.

use lbscope::engine::kstreams::{Action, Config, Error, Sim, SubtopologySpec};
use lbscope::engine::Engine;
use std::collections::BTreeMap;

fn base() -> Sim {
    let mut s = Sim::new(Config::default(), 3).unwrap();
    for (t, n) in [("a", 3), ("b", 4)] {
        s.apply(&Action::DefineTopic {
            topic: t.into(),
            partitions: n,
            racks: vec![],
            replication_factor: 1,
        })
        .unwrap();
    }
    s.apply(&Action::AddInstance {
        name: "x".into(),
        threads: Some(1),
        rack: None,
        tags: BTreeMap::new(),
        process_id: None,
    })
    .unwrap();
    s
}

/// Applies `a`, expects an error, and checks nothing changed (the view, and the
/// RNG: a follow-up random process id is the same as on an untouched clone).
fn refused(a: Action) -> Error {
    let mut s = base();
    let before = s.clone();
    let err = s.apply(&a).expect_err("should be refused");
    assert_eq!(s.view(), before.view(), "state changed by a refused {a:?}");
    let probe = Action::AddInstance {
        name: "probe".into(),
        threads: None,
        rack: None,
        tags: BTreeMap::new(),
        process_id: None,
    };
    let mut b = before;
    assert_eq!(s.apply(&probe).unwrap(), b.apply(&probe).unwrap());
    err
}

fn topo(sources: &[&str], groups: Vec<Vec<String>>) -> Action {
    Action::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: sources.iter().map(|s| s.to_string()).collect(),
            stores: vec!["s".into()],
            changelog: true,
        }],
        copartition_groups: groups,
    }
}

fn tags(n: usize, key_len: usize) -> BTreeMap<String, String> {
    (0..n)
        .map(|i| {
            (
                format!("{i}{}", "k".repeat(key_len.saturating_sub(1))),
                "v".into(),
            )
        })
        .collect()
}

#[test]
fn zero_partitions() {
    let e = refused(Action::DefineTopic {
        topic: "z".into(),
        partitions: 0,
        racks: vec![],
        replication_factor: 1,
    });
    assert_eq!(e, Error::ZeroPartitions("z".into()));
    assert_eq!(e.to_string(), "topic z must have at least 1 partition");
}

#[test]
fn topic_referenced_but_not_defined() {
    let e = refused(topo(&["a", "nope"], vec![]));
    assert_eq!(e.to_string(), "topic nope is not defined");
    let e = refused(topo(&["a"], vec![vec!["a".into(), "ghost".into()]]));
    assert_eq!(e, Error::UnknownTopic("ghost".into()));
    let e = refused(Action::Produce {
        topic: "nope".into(),
        key: None,
        partition: None,
        records: 1,
    });
    assert_eq!(e, Error::UnknownTopic("nope".into()));
}

#[test]
fn not_co_partitioned() {
    let e = refused(topo(&["a", "b"], vec![vec!["b".into(), "a".into()]]));
    assert_eq!(e.to_string(), "Topics not co-partitioned: [{a=3, b=4}]");
}

#[test]
fn more_than_five_rack_tags() {
    let e = refused(Action::AddInstance {
        name: "t".into(),
        threads: None,
        rack: None,
        tags: tags(6, 3),
        process_id: None,
    });
    assert_eq!(e, Error::TooManyRackTags(6));
    let e = refused(
        Action::set_config(
            "rack.aware.assignment.tags",
            serde_json::json!(["a", "b", "c", "d", "e", "f"]),
        )
        .unwrap(),
    );
    assert_eq!(e, Error::TooManyRackTags(6));
    let cfg = Config {
        rack_aware_assignment_tags: (0..6).map(|i| i.to_string()).collect(),
        ..Config::default()
    };
    assert_eq!(Sim::new(cfg, 1).unwrap_err(), Error::TooManyRackTags(6));
}

#[test]
fn tag_key_over_twenty_characters() {
    let e = refused(Action::AddInstance {
        name: "t".into(),
        threads: None,
        rack: None,
        tags: tags(1, 21),
        process_id: None,
    });
    assert!(matches!(e, Error::TagKeyTooLong(_)));
    assert!(e.to_string().contains("exceeds maximum length of 20"));
    // Exactly 20 is fine.
    let mut s = base();
    s.apply(&Action::AddInstance {
        name: "t".into(),
        threads: None,
        rack: None,
        tags: tags(5, 20),
        process_id: None,
    })
    .unwrap();
}

#[test]
fn other_refusals_leave_state_unchanged() {
    refused(Action::CrashInstance { name: "ghost".into() });
    refused(Action::RestartInstance { name: "x".into() });
    refused(Action::RemoveThread {
        instance: "x".into(),
        thread: Some(9),
    });
    refused(Action::Rebalance);
    // Unknown keys and values of the wrong kind are refused where the action is
    // read (a scenario file, a link, the settings panel), naming the key.
    let unknown = Action::set_config("no.such.key", serde_json::json!(1)).unwrap_err();
    assert!(unknown.to_string().contains("no.such.key"), "{unknown}");
    let near = Action::set_config("num.standby.replica", serde_json::json!(1)).unwrap_err();
    assert!(
        near.to_string().contains("did you mean `num.standby.replicas`"),
        "{near}"
    );
    assert!(Action::set_config("num.standby.replicas", serde_json::json!("two")).is_err());
    let low = Action::set_config("probing.rebalance.interval.ms", serde_json::json!(5)).unwrap_err();
    assert!(low.to_string().contains("60000"), "{low}");
    assert!(serde_json::from_str::<Action>(r#"{"op":"set_config","key":"bogus","value":1}"#).is_err());
    refused(Action::Produce {
        topic: "a".into(),
        key: None,
        partition: Some(3),
        records: 1,
    });
    refused(Action::DefineTopic {
        topic: "a".into(),
        partitions: 1,
        racks: vec![],
        replication_factor: 1,
    });
    refused(Action::AddInstance {
        name: "x".into(),
        threads: None,
        rack: None,
        tags: BTreeMap::new(),
        process_id: None,
    });
    refused(Action::set_config("rack.aware.assignment.tags", serde_json::json!(["zone"])).unwrap());
}

#[test]
fn actions_round_trip_through_serde() {
    let a = Action::set_config("num.standby.replicas", serde_json::json!(1)).unwrap();
    let j = serde_json::to_string(&a).unwrap();
    assert!(j.contains("\"op\":\"set_config\""));
    assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a);
    // The older one-key form is still read, with the same meaning.
    let old: Action =
        serde_json::from_str(r#"{"op":"set_config","key":"num.standby.replicas","value":1}"#).unwrap();
    assert_eq!(old, a);
    let r: Action = serde_json::from_str(r#"{"op":"restore_instance","name":"x"}"#).unwrap();
    assert_eq!(r, Action::RestartInstance { name: "x".into() });
    let c: Config =
        serde_json::from_str(r#"{"num.standby.replicas":2,"rack.aware.assignment.strategy":"min_traffic"}"#)
            .unwrap();
    assert_eq!(c.num_standby_replicas, 2);
    assert_eq!(c.acceptable_recovery_lag, 10_000);
}
