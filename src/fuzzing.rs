//! Entry points shared by the cargo-fuzz targets (`fuzz/`) and the native
//! regression test that replays every input they ever crashed on
//! (`tests/it/fuzz_regressions.rs`). Each must return normally on any input.

use crate::engine::{flink, kstreams, pulsar, Engine, System};
use crate::scenario::{run, url, Scenario};

/// Most actions one fuzz input may drive (keeps each execution fast).
const MAX_FUZZ_ACTIONS: usize = 64;

/// Share-link and scenario-JSON decoders on arbitrary bytes.
pub fn decoders(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(sc) = url::decode(&text) {
        // A decoded scenario re-encodes and decodes to itself.
        let again = url::decode(&url::encode(&sc)).expect("a re-encoded link decodes");
        assert_eq!(again, sc);
    }
    if let Ok(sc) = Scenario::from_json(&text) {
        if sc.action_count() <= MAX_FUZZ_ACTIONS {
            let _ = run::event_log(&sc);
        }
    }
}

/// Arbitrary action sequences on each engine: two bytes per action pick the
/// action and its arguments. Refused actions must leave the state unchanged.
pub fn actions(data: &[u8]) {
    let Some((&sys, rest)) = data.split_first() else {
        return;
    };
    let pairs = rest.chunks_exact(2).take(MAX_FUZZ_ACTIONS).map(|c| (c[0], c[1]));
    match sys % 3 {
        0 => drive(
            pulsar::Sim::new(pulsar::Config::profile(pulsar::config::Profile::Pulsar4), 1),
            pairs,
            pulsar_action,
        ),
        1 => drive(flink::Sim::new(flink::Config::default(), 1), pairs, flink_action),
        _ => drive(
            kstreams::Sim::new(kstreams::Config::default(), 1),
            pairs,
            kstreams_action,
        ),
    }
}

fn drive<S: Engine, E>(
    sim: Result<S, E>,
    pairs: impl Iterator<Item = (u8, u8)>,
    make: fn(u8, u8) -> S::Action,
) {
    let Ok(mut sim) = sim else { return };
    for (k, n) in pairs {
        // A copy of the (small) state costs far less than printing it; when the
        // action is refused the two are compared by a hash of their whole
        // `Debug` text (streamed, never kept), and printed only if they differ.
        let before = sim.clone();
        if sim.apply(&make(k, n)).is_err() && debug_hash(&before) != debug_hash(&sim) {
            assert_eq!(
                format!("{before:?}"),
                format!("{sim:?}"),
                "a refused action changed the state"
            );
        }
    }
}

/// A hash of `value`'s whole `Debug` text, written straight into the hasher.
pub fn debug_hash<T: std::fmt::Debug>(value: &T) -> u64 {
    use std::fmt::Write as _;
    use std::hash::Hasher as _;
    struct Sink(std::collections::hash_map::DefaultHasher);
    impl std::fmt::Write for Sink {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let mut sink = Sink(std::collections::hash_map::DefaultHasher::new());
    // Writing into the hasher cannot fail.
    let _ = write!(sink, "{value:?}");
    sink.0.finish()
}

fn pulsar_action(k: u8, n: u8) -> pulsar::Action {
    let b = format!("b{}", n % 5);
    match k % 14 {
        0 => pulsar::Action::AddBroker {
            broker: b,
            capacity: Default::default(),
        },
        1 => pulsar::Action::CrashBroker { broker: b },
        2 => pulsar::Action::RestoreBroker { broker: b },
        3 => pulsar::Action::CreateNamespace {
            namespace: format!("t/ns{}", n % 3),
            bundles: Some(u32::from(n) % 9),
        },
        4 => pulsar::Action::CreateTopic {
            topic: format!("t/ns{}/x{}", n % 3, n),
        },
        5 => pulsar::Action::CreateTopicWithHash {
            topic: format!("t/ns{}/h{n}", n % 3),
            hash: u32::from(n) << 24,
        },
        6 => pulsar::Action::CreatePartitionedTopic {
            topic: format!("t/ns{}/p{n}", n % 3),
            partitions: u32::from(n % 7),
        },
        7 => pulsar::Action::SetTopicTraffic {
            topic: format!("t/ns{}/x{}", n % 3, n),
            traffic: pulsar::traffic::Traffic {
                msg_rate_in: match n {
                    255 => f64::NAN,
                    254 => f64::MAX,
                    _ => f64::from(n) * 1000.0,
                },
                msg_rate_out: -f64::from(n),
                throughput_in: f64::from(n) * 1e6,
                throughput_out: f64::INFINITY,
                producers: u32::from(n),
                consumers: u32::from(n),
            },
        },
        8 => pulsar::Action::SplitBundle {
            namespace: format!("t/ns{}", n % 3),
            bundle: ["LARGEST", "HOT", "0x00000000_0x40000000", "junk"][usize::from(n % 4)].into(),
            algorithm: None,
            boundaries: vec![u32::from(n) << 20],
            unload: n % 2 == 0,
        },
        9 => pulsar::Action::Unload {
            namespace: format!("t/ns{}", n % 3),
            bundle: None,
            destination: Some(b),
        },
        10 => pulsar::Action::SetProfile {
            profile: pulsar::config::Profile::ALL[n as usize % 3],
        },
        11 => pulsar::Action::Shed,
        12 => pulsar::Action::Assign,
        _ => pulsar::Action::Step,
    }
}

fn flink_action(k: u8, n: u8) -> flink::Action {
    use flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
    let tm = format!("tm-{}", n % 4);
    match k % 7 {
        0 => flink::Action::AddTaskManager {
            name: None,
            slots: Some(u32::from(n % 5)),
        },
        1 => flink::Action::LoseTaskManager {
            tm,
            restart_after_ms: (n % 2 == 0).then_some(u64::from(n)),
        },
        2 => flink::Action::RestoreTaskManager { tm },
        3 => flink::Action::RemoveTaskManager { tm },
        4 => {
            let p = [0, 1, 3, 6, 200][usize::from(n % 5)];
            let pattern = [
                DistributionPattern::Hash,
                DistributionPattern::Forward,
                DistributionPattern::Rescale,
            ][usize::from(n % 3)];
            let mut edges = vec![EdgeSpec::new("A", "B", pattern)];
            if n % 7 == 0 {
                edges.push(EdgeSpec::new("B", "A", pattern));
            }
            flink::Action::DefineJob {
                job: JobSpec {
                    vertices: vec![VertexSpec::new("A", p), VertexSpec::new("B", u32::from(n % 4))],
                    edges,
                },
            }
        }
        _ => flink::Action::Schedule,
    }
}

fn kstreams_action(k: u8, n: u8) -> kstreams::Action {
    use kstreams::topology::SubtopologySpec;
    let inst = format!("app-{}", n % 4);
    match k % 11 {
        0 => kstreams::Action::DefineTopic {
            topic: format!("t{}", n % 3),
            partitions: u32::from(n % 9),
            racks: Vec::new(),
            replication_factor: 1,
        },
        1 => kstreams::Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec![format!("t{}", n % 4)],
                stores: vec!["s".into()],
                changelog: n % 2 == 0,
            }],
            copartition_groups: Vec::new(),
        },
        2 => kstreams::Action::AddInstance {
            name: inst,
            threads: Some(u32::from(n % 4)),
            rack: None,
            tags: Default::default(),
            process_id: None,
        },
        3 => kstreams::Action::CrashInstance { name: inst },
        4 => kstreams::Action::RestartInstance { name: inst },
        5 => kstreams::Action::AddThread { instance: inst },
        6 => kstreams::Action::RemoveThread {
            instance: inst,
            thread: Some(u32::from(n % 3)),
        },
        7 => kstreams::Action::Produce {
            topic: format!("t{}", n % 3),
            key: Some(format!("{n}")),
            partition: None,
            records: u64::from(n) * 10,
        },
        8 => kstreams::Action::AdvanceTime {
            ms: u64::from(n) * 1000,
        },
        // Read like a scenario file's action: an unknown key or a bad value is refused there.
        9 => {
            let key = [
                "num.standby.replicas",
                "max.warmup.replicas",
                "rack.aware.assignment.strategy",
                "bogus",
            ][usize::from(n % 4)];
            serde_json::from_value(serde_json::json!({ "op": "set_config", "key": key, "value": n }))
                .unwrap_or(kstreams::Action::Rebalance)
        }
        _ => kstreams::Action::Rebalance,
    }
}

/// Kafka Streams' importer (Topology#describe() text, kafka-topics output) on arbitrary bytes.
pub fn import_kstreams(data: &[u8]) {
    import_any(System::Kstreams, data);
}

/// Flink's importer (execution plan, REST plans, /taskmanagers) on arbitrary bytes.
pub fn import_flink(data: &[u8]) {
    import_any(System::Flink, data);
}

/// Pulsar's importer (bundles, load reports, topic lists and stats) on arbitrary bytes.
pub fn import_pulsar(data: &[u8]) {
    import_any(System::Pulsar, data);
}

/// The first byte picks the options; the rest is split at `0xFF` bytes (never in
/// UTF-8 text) into up to four inputs. An accepted import must give a scenario
/// that validates and replays.
fn import_any(system: System, data: &[u8]) {
    use crate::import::{import, Options};
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let parts: Vec<String> = rest
        .split(|b| *b == 0xFF)
        .take(4)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    const NAMES: [&str; 4] = ["in-0", "in-1", "in-2", "in-3"];
    let inputs: Vec<(&str, &str)> = parts
        .iter()
        .enumerate()
        .map(|(i, t)| (NAMES[i], t.as_str()))
        .collect();
    let mut o = Options::default();
    match system {
        System::Kstreams => {
            if flags & 1 == 1 {
                for (i, t) in ["a", "b", "lines", "orders", "payments", "text-input"]
                    .iter()
                    .enumerate()
                {
                    o.partitions
                        .insert((*t).to_string(), 1 + (i as u32 + u32::from(flags >> 4)) % 7);
                }
            }
            if flags & 2 == 2 {
                o.instances = Some(1 + u32::from(flags >> 5));
                o.threads = (flags & 4 == 4).then_some(2);
            }
            o.standbys = (flags & 8 == 8).then_some(1);
        }
        System::Flink => {
            if flags & 1 == 1 {
                o.task_managers = Some(1 + u32::from(flags >> 4));
                o.slots = Some(1 + u32::from((flags >> 1) & 7));
            }
        }
        System::Pulsar => {
            o.reported_usage = flags & 1 == 1;
            if flags & 2 == 2 {
                o.namespace = Some("public/default".into());
            }
        }
    }
    if let Ok(imported) = import(system, &inputs, &o) {
        imported
            .scenario
            .validate()
            .expect("an imported scenario validates");
        if imported.scenario.action_count() <= 4 * MAX_FUZZ_ACTIONS {
            run::event_log(&imported.scenario).expect("an imported scenario replays");
        }
    }
}
