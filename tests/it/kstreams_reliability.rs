//! Cost and input rules that hold whatever the scenario: events grow with what
//! changed (not with the group's size at every join), a topic is read by one
//! sub-topology, and the scenario's `config` and `set_config` accept the same keys.

use lbscope::engine::kstreams::{Action, Config, Error, Event, Sim, SubtopologySpec, MAX_LISTED_MEMBERS};
use lbscope::engine::Engine;
use lbscope::scenario::{Body, Scenario};
use std::collections::BTreeMap;

fn add(name: &str) -> Action {
    Action::AddInstance {
        name: name.into(),
        threads: Some(1),
        rack: None,
        tags: BTreeMap::new(),
        process_id: None,
    }
}

fn stateful(sources: &[&str]) -> SubtopologySpec {
    SubtopologySpec {
        sources: sources.iter().map(|s| s.to_string()).collect(),
        stores: vec![],
        changelog: true,
    }
}

fn topic(s: &mut Sim, name: &str, partitions: u32) {
    s.apply(&Action::DefineTopic {
        topic: name.into(),
        partitions,
        racks: vec![],
        replication_factor: 1,
    })
    .unwrap();
}

/// N joins into a running 5-task application: each join costs a bounded number
/// of events (the join, the rebalance's start and end, the few tasks that move,
/// the instances whose threads changed, the new idle member), so the total is
/// linear in N. Before, every join made every member report `threads_assigned`
/// and every idle member `instance_idle` again: N²/2 events.
#[test]
fn events_for_n_joins_grow_linearly() {
    let mut s = Sim::new(Config::default(), 7).unwrap();
    topic(&mut s, "in", 5);
    s.apply(&Action::DefineTopology {
        subtopologies: vec![SubtopologySpec {
            sources: vec!["in".into()],
            stores: vec!["agg".into()],
            changelog: true,
        }],
        copartition_groups: vec![],
    })
    .unwrap();
    const N: usize = 2000;
    let mut total = 0usize;
    let mut idle = 0usize;
    let mut threads = 0usize;
    let mut longest_member_list = 0usize;
    for i in 0..N {
        let ev = s.apply(&add(&format!("app-{i}"))).unwrap();
        total += ev.len();
        for e in &ev {
            match e {
                Event::InstanceIdle { .. } => idle += 1,
                Event::ThreadsAssigned { .. } => threads += 1,
                Event::RebalanceStarted {
                    members,
                    member_count,
                    ..
                } => {
                    longest_member_list = longest_member_list.max(members.len());
                    assert_eq!(*member_count as usize, i + 1);
                }
                _ => {}
            }
        }
    }
    // Every joiner past the fifth idles and is reported once, when it joins.
    assert!(idle <= N, "{idle} instance_idle events for {N} joins");
    // At most 5 tasks move per join, each changing two instances' threads.
    assert!(
        threads <= 11 * N,
        "{threads} threads_assigned events for {N} joins"
    );
    assert!(total <= 30 * N, "{total} events for {N} joins");
    assert!(longest_member_list <= MAX_LISTED_MEMBERS);
    assert_eq!(s.instances().len(), N);
}

/// Kafka's `InternalTopologyBuilder` refuses a second source node for a topic,
/// so one topic cannot feed two sub-topologies.
#[test]
fn one_source_topic_in_two_subtopologies_is_refused() {
    let mut s = Sim::new(Config::default(), 1).unwrap();
    topic(&mut s, "a", 2);
    topic(&mut s, "b", 2);
    let before = s.view();
    let err = s
        .apply(&Action::DefineTopology {
            subtopologies: vec![stateful(&["a"]), stateful(&["b", "a"])],
            copartition_groups: vec![],
        })
        .unwrap_err();
    assert_eq!(err, Error::TopicAlreadyRegistered("a".into()));
    assert_eq!(
        err.to_string(),
        "Invalid topology: Topic a has already been registered by another source."
    );
    assert_eq!(s.view(), before);
    // Listing a topic twice in one sub-topology is one source node reading it.
    s.apply(&Action::DefineTopology {
        subtopologies: vec![stateful(&["a", "a"]), stateful(&["b"])],
        copartition_groups: vec![],
    })
    .unwrap();
}

fn scenario_with(config: &str) -> Result<Scenario, String> {
    let text = format!(
        r#"{{"format": 1, "seed": 1, "system": "kstreams", "config": {config}, "setup": [], "actions": []}}"#
    );
    Scenario::from_json(&text).map_err(|e| e.to_string())
}

/// The scenario's `config` and `set_config` share one rule: every key either
/// accepts in both or is refused by both, with the same values.
#[test]
fn set_config_and_scenario_config_accept_the_same_keys() {
    let defaults = serde_json::to_value(Config::default()).unwrap();
    for (key, value) in defaults.as_object().unwrap() {
        let mut s = Sim::new(Config::default(), 1).unwrap();
        let a = Action::set_config(key, value.clone())
            .unwrap_or_else(|e| panic!("set_config {key} = {value}: {e}"));
        s.apply(&a)
            .unwrap_or_else(|e| panic!("set_config {key} = {value}: {e}"));
        scenario_with(&format!("{{{}: {value}}}", serde_json::to_string(key).unwrap()))
            .unwrap_or_else(|e| panic!("scenario config {key}: {e}"));
    }
    for bad in ["no.such.key", "num.standby.replica"] {
        let err = Action::set_config(bad, serde_json::json!(1))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&format!("unknown config key `{bad}`")), "{err}");
        let e = scenario_with(&format!("{{\"{bad}\": 1}}")).unwrap_err();
        assert!(e.contains(bad), "{e}");
    }
    // A value out of range is refused both ways, naming the key.
    let e = Action::set_config("max.warmup.replicas", serde_json::json!(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("max.warmup.replicas"), "{e}");
    let e = scenario_with(r#"{"max.warmup.replicas": 0}"#).unwrap_err();
    assert!(e.contains("max.warmup.replicas"), "{e}");
    // A rule between keys is refused both ways too.
    let e = scenario_with(r#"{"streams.num.standby.replicas": 3}"#).unwrap_err();
    assert!(e.contains("group.streams.max.standby.replicas"), "{e}");
    let mut s = Sim::new(Config::default(), 1).unwrap();
    assert!(s
        .apply(&Action::set_config("streams.num.standby.replicas", serde_json::json!(3)).unwrap())
        .is_err());
}

/// The playground's limit, joined one by one into a 5-task application (run with
/// `cargo test --release --test kstreams_reliability -- --ignored`; not part of the
/// default suite because a debug build takes minutes).
#[test]
#[ignore]
fn ten_thousand_joins_finish() {
    let mut s = Sim::new(Config::default(), 7).unwrap();
    topic(&mut s, "in", 5);
    s.apply(&Action::DefineTopology {
        subtopologies: vec![stateful(&["in"])],
        copartition_groups: vec![],
    })
    .unwrap();
    let mut total = 0usize;
    for i in 0..lbscope::engine::kstreams::MAX_INSTANCES {
        total += s.apply(&add(&format!("app-{i}"))).unwrap().len();
    }
    assert!(total <= 30 * lbscope::engine::kstreams::MAX_INSTANCES, "{total}");
}

/// `task.assignor.class` takes a class name (KIP-924) and lbscope's old values
/// keep their meaning; `internal.task.assignor.class` takes the legacy class names;
/// anything else is refused with Kafka's message (`AssignorConfiguration`).
#[test]
fn assignor_keys_select_as_kafka_3_8_and_old_values_keep_their_meaning() {
    use lbscope::engine::kstreams::{Assignor, GroupProtocol};
    let pick = |config: &str| -> Result<Assignor, String> {
        let sc = scenario_with(config)?;
        let Body::Kstreams(log) = &sc.body else {
            panic!("not kstreams")
        };
        log.config.validate().map_err(|e| e.to_string())?;
        Ok(log.config.assignor())
    };
    assert_eq!(pick("{}"), Ok(Assignor::HighAvailability));
    assert_eq!(
        pick(r#"{"task.assignor.class": "high_availability"}"#),
        Ok(Assignor::HighAvailability)
    );
    assert_eq!(pick(r#"{"task.assignor.class": "sticky"}"#), Ok(Assignor::Sticky));
    assert_eq!(
        pick(
            r#"{"task.assignor.class": "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor"}"#
        ),
        Ok(Assignor::StickyTaskAssignor)
    );
    assert_eq!(
        pick(
            r#"{"internal.task.assignor.class": "org.apache.kafka.streams.processor.internals.assignment.LegacyStickyTaskAssignor"}"#
        ),
        Ok(Assignor::Sticky)
    );
    assert_eq!(
        pick(r#"{"group.protocol": "streams", "task.assignor.class": "sticky"}"#),
        Ok(Assignor::StreamsGroupSticky)
    );
    let e = pick(r#"{"task.assignor.class": "com.example.Mine"}"#).unwrap_err();
    assert!(
        e.contains("Expected an instantiable class name for task.assignor.class but got com.example.Mine"),
        "{e}"
    );
    let e = pick(r#"{"internal.task.assignor.class": "nope"}"#).unwrap_err();
    assert!(e.contains("internal.task.assignor.class"), "{e}");
    assert_eq!(Config::default().group_protocol, GroupProtocol::Classic);
    // The group's standbys: its own setting, else the broker's default.
    let c = Config {
        group_protocol: GroupProtocol::Streams,
        num_standby_replicas: 2,
        group_streams_num_standby_replicas: 1,
        ..Config::default()
    };
    assert_eq!(c.standby_replicas(), 1);
    let c = Config {
        streams_num_standby_replicas: Some(3),
        ..c
    };
    assert!(
        c.validate().is_err(),
        "above group.streams.max.standby.replicas 2"
    );
}

/// A streams-group application end to end: the broker assigns every stream thread
/// (member) its own tasks, the client's `num.standby.replicas` is not used.
#[test]
fn streams_protocol_assigns_members() {
    use lbscope::engine::kstreams::GroupProtocol;
    let mut s = Sim::new(
        Config {
            group_protocol: GroupProtocol::Streams,
            num_standby_replicas: 1,
            streams_num_standby_replicas: Some(1),
            ..Config::default()
        },
        3,
    )
    .unwrap();
    topic(&mut s, "in", 6);
    for n in ["a", "b"] {
        s.apply(&Action::AddInstance {
            name: n.into(),
            threads: Some(2),
            rack: None,
            tags: BTreeMap::new(),
            process_id: None,
        })
        .unwrap();
    }
    let ev = s
        .apply(&Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["in".into()],
                stores: vec!["agg".into()],
                changelog: true,
            }],
            copartition_groups: vec![],
        })
        .unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::MemberQuotas { members: 4, .. })));
    for i in s.instances().values() {
        for th in &i.threads {
            assert!(th.active.len() + th.standby.len() <= 3, "{th:?}");
            assert!(!th.active.is_empty());
        }
    }
    let actives: usize = s.instances().values().map(|i| i.active_tasks().len()).sum();
    let standbys: usize = s.instances().values().map(|i| i.standby_tasks().len()).sum();
    assert_eq!((actives, standbys), (6, 6));
    // Sticky on the next rebalance: nothing moves.
    let ev = s.apply(&Action::Rebalance).unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::RebalanceCompleted { moved: 0, .. })));
}
