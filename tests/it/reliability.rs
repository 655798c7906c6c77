//! Bounded time and memory at every limit, no NaN or overflow, and a clear
//! message for every refused input: the CLI, the scenario and link readers,
//! and the Pulsar engine's caps.

use lbscope::engine::pulsar::{self, Action, Config};
use lbscope::engine::Engine;
use lbscope::scenario::{url, Scenario};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn lbscope_with(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lbscope"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run lbscope");
    if let Some(input) = stdin {
        let mut w = child.stdin.take().unwrap();
        // lbscope may stop reading early (a too-large input): a broken pipe is fine.
        let _ = w.write_all(input);
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn lbscope(args: &[&str]) -> (i32, String, String) {
    lbscope_with(args, None)
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("lbscope-rel-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

fn sim() -> pulsar::Sim {
    pulsar::Sim::new(Config::default(), 1).unwrap()
}

fn namespace(sim: &mut pulsar::Sim, bundles: u32) {
    sim.apply(&Action::CreateNamespace {
        namespace: "public/default".into(),
        bundles: Some(bundles),
    })
    .unwrap();
}

/// A scenario whose log is `n` create_topic actions (a link of any size).
fn big_scenario(n: usize) -> Scenario {
    let mut sc = Scenario::empty(lbscope::engine::System::Pulsar, 3);
    if let lbscope::scenario::Body::Pulsar(log) = &mut sc.body {
        log.setup.push(Action::CreateNamespace {
            namespace: "public/default".into(),
            bundles: Some(4),
        });
        for i in 0..n {
            log.actions.push(Action::CreateTopic {
                topic: format!("topic-{i}-{:x}", i.wrapping_mul(2_654_435_761)),
            });
        }
    }
    sc
}

#[test]
fn ring_bundles_is_capped_before_anything_is_allocated() {
    let t = Instant::now();
    let (code, out, err) = lbscope(&["ring", "--bundles", "4294967295", "my-topic"]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(
        err.contains("--bundles 4294967295 is more than the 65536 bundles a namespace may have"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(10));
    let (code, out, _) = lbscope(&["ring", "--bundles", "65536", "my-topic"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn decode_reads_a_link_from_stdin_and_from_a_file() {
    // Over 128 KiB: too long for one command-line argument on Linux.
    let sc = big_scenario(12_000);
    let frag = url::to_fragment(&sc);
    assert!(frag.len() > 128 << 10, "{}", frag.len());
    let link = format!("http://127.0.0.1:8080/{frag}\n");
    let (code, out, err) = lbscope_with(&["decode", "-"], Some(link.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert_eq!(Scenario::from_json(&out).unwrap(), sc);
    let f = temp("link.txt", link.as_bytes());
    let (code, out, err) = lbscope(&["decode", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(Scenario::from_json(&out).unwrap(), sc);
    // An argument that is neither `-` nor a file is the link itself.
    let (code, out, _) = lbscope(&["decode", &url::to_fragment(&big_scenario(2))]);
    assert_eq!(code, 0);
    assert!(out.contains("topic-1-"));
    // Too large on stdin: refused after reading just past the cap.
    let huge = vec![b'A'; url::MAX_LINK + 4096];
    let (code, _, err) = lbscope_with(&["decode", "-"], Some(&huge));
    assert_ne!(code, 0);
    assert!(err.contains("stdin: larger than the 1 MiB"), "{err}");
    // Not text.
    let (code, _, err) = lbscope_with(&["decode", "-"], Some(b"#s=2.\xff\xfe"));
    assert_ne!(code, 0);
    assert!(err.contains("not UTF-8"), "{err}");
}

#[test]
fn decode_names_what_is_wrong_with_a_link() {
    let good = url::encode(&big_scenario(3));
    let data = &good[2..];
    for (version, want) in [
        ("0", "version 0 does not exist"),
        ("-1", "version -1 does not exist"),
        ("4294967296", "4294967296 is larger than any lbscope link version"),
        ("7", "made by a newer lbscope (link version 7"),
        ("v2", "\"v2\" is not a number"),
    ] {
        let (code, _, err) = lbscope(&["decode", &format!("#s={version}.{data}")]);
        assert_ne!(code, 0);
        assert!(err.contains(want), "{version}: {err}");
    }
}

#[test]
fn a_scenario_file_past_the_cap_is_refused_before_it_is_read() {
    let mut big = b"{\"format\":2,\"seed\":1,\"system\":\"pulsar\",\"actions\":[".to_vec();
    big.resize(lbscope::scenario::MAX_JSON_BYTES + 10, b' ');
    let f = temp("big.json", &big);
    let (code, _, err) = lbscope(&["run", f.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("larger than the 64 MiB"), "{err}");
    std::fs::remove_file(f).ok();
    // The same limit for a scenario's text given to the reader directly.
    let text = " ".repeat(lbscope::scenario::MAX_JSON_BYTES + 1);
    let e = Scenario::from_json(&text).unwrap_err().to_string();
    assert!(e.contains("64 MiB"), "{e}");
}

#[test]
fn bench_topics_is_capped() {
    let f = std::env::temp_dir().join(format!("lbscope-rel-{}-bench.json", std::process::id()));
    let (code, _, err) = lbscope(&[
        "bench",
        "--browser-scenario",
        f.to_str().unwrap(),
        "--topics",
        "4294967295",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--topics 4294967295 is more than"), "{err}");
    assert!(!f.exists());
}

#[test]
fn run_streams_one_replay_with_rounds() {
    let sc = big_scenario(5);
    let f = temp("rounds.json", sc.to_json().as_bytes());
    let (code, out, err) = lbscope(&["run", f.to_str().unwrap(), "--rounds", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[round 3] round 3"), "{out}");
    assert!(out.ends_with("}\n") && out.contains("\nfinal state:\n{"));
    let (code, json, _) = lbscope(&["run", f.to_str().unwrap(), "--rounds", "3", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut with_rounds = sc.clone();
    with_rounds.push_rounds(3);
    let log = lbscope::scenario::run::event_log(&with_rounds).unwrap();
    assert_eq!(v["events"].as_array().unwrap().len(), log.len());
    assert_eq!(
        v["state"],
        lbscope::scenario::run::final_state(&with_rounds).unwrap()
    );
    // A refusal midway: what happened before it is printed, then the error.
    let refused = sc.to_json().replace("topic-4-", "bad/topic/name/x/");
    let f = temp("refused.json", refused.as_bytes());
    let (code, out, err) = lbscope(&["run", f.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(
        out.contains("[action 4]") && !out.contains("final state"),
        "{out}"
    );
    assert!(err.contains("log action 5 was refused"), "{err}");
}

#[test]
fn an_admin_split_past_the_bundle_cap_is_refused() {
    // The 200,000 positions of a 575 KB link: refused before they are planned.
    let mut s = sim();
    namespace(&mut s, 4);
    for i in 0..4u32 {
        s.apply(&Action::CreateTopicWithHash {
            topic: format!("t{i}"),
            hash: i * 0x1000,
        })
        .unwrap();
    }
    let before = format!("{s:?}");
    let t = Instant::now();
    let e = s
        .apply(&Action::SplitBundle {
            namespace: "public/default".into(),
            bundle: "0x00000000_0x40000000".into(),
            algorithm: Some(pulsar::config::SplitAlgorithm::SpecifiedPositionsDivide),
            boundaries: (1..=200_000u32).map(|i| i * 5000).collect(),
            unload: false,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("200000 split positions") && e.contains("65536"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(before, format!("{s:?}"));

    // A namespace one bundle short of the cap: one more split fits, the next does not.
    let mut s = sim();
    namespace(&mut s, pulsar::MAX_BUNDLES - 1);
    let split = Action::SplitBundle {
        namespace: "public/default".into(),
        bundle: "LARGEST".into(),
        algorithm: Some(pulsar::config::SplitAlgorithm::RangeEquallyDivide),
        boundaries: Vec::new(),
        unload: false,
    };
    s.apply(&split).unwrap();
    assert_eq!(
        s.namespaces()["public/default"].bundles.len(),
        pulsar::MAX_BUNDLES as usize
    );
    let e = s.apply(&split).unwrap_err().to_string();
    assert!(
        e.contains("has 65536 bundles; 1 more would pass the limit of 65536 bundles per namespace"),
        "{e}"
    );
}

#[test]
fn topic_names_are_capped_and_bulk_names_are_bounded() {
    let mut s = sim();
    namespace(&mut s, 4);
    let long = "x".repeat(pulsar::topic::MAX_NAME_BYTES);
    let e = s
        .apply(&Action::CreateTopic { topic: long.clone() })
        .unwrap_err()
        .to_string();
    assert!(e.contains("bytes long") && e.contains("16384"), "{e}");
    // The issue's 10 MB prefix x 100 topics: refused at once, nothing built.
    let t = Instant::now();
    let e = s
        .apply(&Action::CreateTopics {
            namespace: "public/default".into(),
            prefix: "p".repeat(10 << 20),
            count: 100,
            traffic: Default::default(),
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("one action may create at most 64 MiB"), "{e}");
    // A 16 KiB name with 2^20 partitions would be 16 GiB of names.
    let e = s
        .apply(&Action::CreatePartitionedTopic {
            topic: "y".repeat(16_000),
            partitions: pulsar::MAX_BULK_TOPICS,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("64 MiB"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(5));
    assert!(s.namespaces()["public/default"].topics.is_empty());
    // A million short names are fine.
    s.apply(&Action::CreateTopics {
        namespace: "public/default".into(),
        prefix: "t".into(),
        count: 1 << 16,
        traffic: Default::default(),
    })
    .unwrap();
}

#[test]
fn traffic_that_overflows_or_is_not_a_number_is_refused() {
    let mut s = sim();
    namespace(&mut s, 4);
    s.apply(&Action::CreateTopic { topic: "t".into() }).unwrap();
    let set = |t: pulsar::traffic::Traffic| Action::SetTopicTraffic {
        topic: "t".into(),
        traffic: t,
    };
    let base = pulsar::traffic::Traffic::default();
    for (t, want) in [
        (
            pulsar::traffic::Traffic {
                msg_rate_in: 1e308,
                ..base
            },
            "msg_rate_in is 1e308, more than the 1e15",
        ),
        (
            pulsar::traffic::Traffic {
                throughput_in: f64::NAN,
                ..base
            },
            "throughput_in is not a number (NaN)",
        ),
        (
            pulsar::traffic::Traffic {
                throughput_out: f64::INFINITY,
                ..base
            },
            "throughput_out is infinite",
        ),
        (
            pulsar::traffic::Traffic {
                msg_rate_out: -5.0,
                ..base
            },
            "msg_rate_out is negative (-5)",
        ),
    ] {
        let e = s.apply(&set(t)).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
    // The same rule for bulk topics and bundle loads.
    let e = s
        .apply(&Action::CreateTopics {
            namespace: "public/default".into(),
            prefix: "x".into(),
            count: 2,
            traffic: pulsar::traffic::Traffic {
                msg_rate_in: 1e300,
                ..base
            },
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("1e300"), "{e}");
    // From a scenario file: 1e308 per topic no longer overflows the sums to inf.
    let text = r#"{"format":2,"seed":1,"system":"pulsar",
      "setup":[{"op":"add_broker","broker":"b1"},{"op":"create_namespace","namespace":"public/default","bundles":4},
               {"op":"create_topic","topic":"a"},{"op":"create_topic","topic":"b"}],
      "actions":[{"op":"set_topic_traffic","topic":"a","traffic":{"msg_rate_in":1e308}},
                 {"op":"set_topic_traffic","topic":"b","traffic":{"msg_rate_in":1e308}}]}"#;
    let sc = Scenario::from_json(text).unwrap();
    let e = lbscope::scenario::run::event_log(&sc).unwrap_err().to_string();
    assert!(
        e.contains("log action 1 was refused") && e.contains("1e308"),
        "{e}"
    );
    // A capacity near zero would make every percentage infinite.
    let e = s
        .apply(&Action::AddBroker {
            broker: "tiny".into(),
            capacity: pulsar::broker::Capacity {
                nic_in_mbit: 1e-320,
                ..Default::default()
            },
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("capacity nic_in_mbit"), "{e}");
}

/// Pulsar's `getMaxResourceUsageWithWeight` multiplies each resource's usage
/// by its weight and takes the largest, with no division and no check of the
/// weights (`ServiceConfiguration` sets no minimum): with all five weights 0
/// every broker's weighted usage is 0, so none is ever overloaded. lbscope
/// accepts the setting and computes exactly that: finite numbers, nothing shed.
#[test]
fn all_load_weights_zero_are_handled_as_pulsar_does() {
    let text = r#"{"format":2,"seed":1,"system":"pulsar",
      "config":{"loadBalancerCPUResourceWeight":0,"loadBalancerMemoryResourceWeight":0,
                "loadBalancerDirectMemoryResourceWeight":0,"loadBalancerBandwidthInResourceWeight":0,
                "loadBalancerBandwidthOutResourceWeight":0,
                "loadBalancerLoadSheddingStrategy":"ThresholdShedder"},
      "setup":[{"op":"add_broker","broker":"b1"},{"op":"add_broker","broker":"b2"},
               {"op":"create_namespace","namespace":"public/default","bundles":4},
               {"op":"create_topics","namespace":"public/default","prefix":"t","count":40,
                "traffic":{"msg_rate_in":50000,"throughput_in":50000000}}],
      "actions":[{"op":"step"},{"op":"step"},{"op":"step"},{"op":"step"},{"op":"step"},{"op":"step"}]}"#;
    let sc = match Scenario::from_json(text) {
        Ok(sc) => sc,
        Err(e) => panic!("{e}"),
    };
    let log = lbscope::scenario::run::event_log(&sc).unwrap();
    let all = lbscope::scenario::run::to_text(&log);
    assert!(!all.contains("NaN") && !all.contains("inf"), "{all}");
    assert!(!all.to_lowercase().contains("unloading"), "{all}");
    let state = lbscope::scenario::run::final_state(&sc).unwrap().to_string();
    assert!(!state.contains("NaN"), "{state}");
}

/// A bad link opened in the page (the store, natively): the notice names what
/// is wrong, and the saved work is what the tab shows.
#[test]
fn a_bad_link_names_its_problem_and_keeps_the_saved_work() {
    use base64::Engine as _;
    use lbscope::playground::{Boot, Notice, Store};
    let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
    let deflate = |b: &[u8]| miniz_oxide::deflate::compress_to_vec(b, 9);
    let mut old = big_scenario(2);
    old.seed = 99;
    let good = url::encode(&big_scenario(3));
    let data = &good[2..];
    let bomb = b64(&deflate(&vec![b' '; 64 << 20]));
    for (link, want) in [
        (format!("#s=0.{data}"), "version 0 does not exist".to_string()),
        (format!("#s=-1.{data}"), "version -1 does not exist".into()),
        (
            format!("#s=4294967296.{data}"),
            "4294967296 is larger than any".into(),
        ),
        (
            format!("#s=2.{}", b64(&deflate(b"\xff\xfe{}"))),
            "not UTF-8 text".into(),
        ),
        ("#s=2.AB*D".into(), "'*' at character 2".into()),
        (
            format!("#s=2.{}", b64(b"not deflate at all")),
            "does not decompress".into(),
        ),
        (format!("#s=2.{bomb}"), "decompresses to more than".into()),
    ] {
        let s = Store::boot(Boot {
            fragment: Some(link.clone()),
            saved: Some(old.to_json()),
            ..Boot::default()
        });
        match &s.notice {
            Some(Notice::Error(t)) => {
                assert!(
                    t.contains("This link could not be opened") && t.contains(&want),
                    "{link:.40}: {t}"
                );
                assert!(t.contains("Your saved work is shown instead"), "{t}");
            }
            n => panic!("{link:.40}: {n:?}"),
        }
        assert_eq!(s.own(lbscope::engine::System::Pulsar).get().scenario(), old);
    }
}

/// Counts that show whether a big Pulsar state changed (its Debug text would be
/// hundreds of megabytes).
fn pulsar_size(s: &pulsar::Sim) -> (u64, usize, usize) {
    (s.topic_count(), s.bundles().len(), s.namespaces().len())
}

/// It fills a cluster to the cap (a minute in a debug build): it runs in
/// `cargo test --release`.
#[test]
#[cfg_attr(debug_assertions, ignore = "fills a cluster to its cap; runs with --release")]
fn topics_are_capped_over_the_whole_cluster() {
    use pulsar::limits::MAX_TOPICS;
    use pulsar::traffic::Traffic;
    let mut s = sim();
    namespace(&mut s, 64);
    let bulk = |prefix: String, count: u32| Action::CreateTopics {
        namespace: "public/default".into(),
        prefix,
        count,
        traffic: Traffic::default(),
    };
    // 100,000 topics per action: allowed alone, stopped at the cluster's cap.
    let mut made = 0u64;
    let mut refused = None;
    for i in 0..(MAX_TOPICS / 100_000 + 2) {
        match s.apply(&bulk(format!("p{i}"), 100_000)) {
            Ok(_) => made += 100_000,
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
    }
    let e = refused.expect("the cap stops the actions");
    assert_eq!(made, MAX_TOPICS / 100_000 * 100_000);
    assert!(
        e.contains(&format!(
            "the cluster has {made} topics; 100000 more would pass lbscope's limit of {MAX_TOPICS} topics per cluster"
        )),
        "{e}"
    );
    assert_eq!(s.topic_count(), made);
    // What still fits is taken; one topic past it is refused, state unchanged,
    // by every action that creates topics.
    let room = (MAX_TOPICS - made) as u32;
    s.apply(&bulk("rest".into(), room)).unwrap();
    assert_eq!(s.topic_count(), MAX_TOPICS);
    let before = pulsar_size(&s);
    for a in [
        bulk("one".into(), 1),
        Action::CreateTopic {
            topic: "public/default/one-more".into(),
        },
        Action::CreateTopicWithHash {
            topic: "public/default/pinned".into(),
            hash: 7,
        },
        Action::CreatePartitionedTopic {
            topic: "public/default/parts".into(),
            partitions: 2,
        },
    ] {
        let e = s.apply(&a).unwrap_err().to_string();
        assert!(e.contains("topics per cluster"), "{a:?}: {e}");
        assert_eq!(pulsar_size(&s), before, "{a:?}");
    }
}

/// It fills a cluster to the cap (a minute in a debug build): it runs in
/// `cargo test --release`.
#[test]
#[cfg_attr(debug_assertions, ignore = "fills a cluster to its cap; runs with --release")]
fn bundles_are_capped_over_the_whole_cluster() {
    use pulsar::limits::MAX_CLUSTER_BUNDLES;
    let per = pulsar::MAX_BUNDLES;
    let mut s = sim();
    let full = MAX_CLUSTER_BUNDLES / per as usize;
    for i in 0..full {
        s.apply(&Action::CreateNamespace {
            namespace: format!("t/ns{i}"),
            bundles: Some(per),
        })
        .unwrap();
    }
    assert_eq!(s.bundles().len(), MAX_CLUSTER_BUNDLES);
    let before = pulsar_size(&s);
    let e = s
        .apply(&Action::CreateNamespace {
            namespace: "t/one-more".into(),
            bundles: Some(1),
        })
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "the cluster has {MAX_CLUSTER_BUNDLES} bundles; 1 more would pass lbscope's limit of {MAX_CLUSTER_BUNDLES} bundles per cluster"
        )),
        "{e}"
    );
    assert_eq!(pulsar_size(&s), before);
    let e = s
        .apply(&Action::CreateNamespaceWithBoundaries {
            namespace: "t/bounded".into(),
            boundaries: vec![0, 0x8000_0000, 0xFFFF_FFFF],
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("bundles per cluster"), "{e}");
    assert_eq!(pulsar_size(&s), before);

    // Splits count too: a cluster one bundle under the cap takes one split
    // into two, then refuses the next.
    let mut s = sim();
    for i in 0..full - 1 {
        s.apply(&Action::CreateNamespace {
            namespace: format!("t/ns{i}"),
            bundles: Some(per),
        })
        .unwrap();
    }
    for (name, bundles) in [("t/last", per - 2), ("t/other", 1)] {
        s.apply(&Action::CreateNamespace {
            namespace: name.into(),
            bundles: Some(bundles),
        })
        .unwrap();
    }
    let split = Action::SplitBundle {
        namespace: "t/last".into(),
        bundle: "LARGEST".into(),
        algorithm: Some(pulsar::config::SplitAlgorithm::RangeEquallyDivide),
        boundaries: Vec::new(),
        unload: false,
    };
    s.apply(&split).unwrap();
    assert_eq!(s.bundles().len(), MAX_CLUSTER_BUNDLES);
    let before = pulsar_size(&s);
    let e = s
        .apply(&Action::SplitBundle {
            namespace: "t/last".into(),
            bundle: "LARGEST".into(),
            algorithm: Some(pulsar::config::SplitAlgorithm::RangeEquallyDivide),
            boundaries: Vec::new(),
            unload: false,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("bundles per cluster"), "{e}");
    assert_eq!(pulsar_size(&s), before);
}

#[test]
fn kafka_streams_topics_partitions_and_threads_are_capped_across_actions() {
    use lbscope::engine::kstreams::{self, topology};
    let mut s = kstreams::Sim::new(kstreams::Config::default(), 1).unwrap();
    let topic = |name: String, partitions: u32| kstreams::Action::DefineTopic {
        topic: name,
        partitions,
        racks: vec![],
        replication_factor: 1,
    };
    let per = topology::MAX_PARTITIONS;
    let full = (topology::MAX_TOTAL_PARTITIONS / u64::from(per)) as usize;
    for i in 0..full {
        s.apply(&topic(format!("t{i}"), per)).unwrap();
    }
    let before = format!("{:?}", s.topics().keys().collect::<Vec<_>>());
    let e = s.apply(&topic("more".into(), 1)).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "the topics have {} partitions; 1 more would pass lbscope's limit of {} partitions over all topics",
            topology::MAX_TOTAL_PARTITIONS,
            topology::MAX_TOTAL_PARTITIONS
        )),
        "{e}"
    );
    assert_eq!(before, format!("{:?}", s.topics().keys().collect::<Vec<_>>()));

    // Topics: at most MAX_TOPICS, however small.
    let mut s = kstreams::Sim::new(kstreams::Config::default(), 1).unwrap();
    for i in 0..topology::MAX_TOPICS {
        s.apply(&topic(format!("t{i}"), 1)).unwrap();
    }
    let e = s.apply(&topic("more".into(), 1)).unwrap_err().to_string();
    assert!(e.contains("lbscope's limit is 10000 topics"), "{e}");
    assert_eq!(s.topics().len(), topology::MAX_TOPICS);

    // Threads over all instances.
    let mut s = kstreams::Sim::new(kstreams::Config::default(), 1).unwrap();
    let add = |name: String, threads: u32| kstreams::Action::AddInstance {
        name,
        threads: Some(threads),
        rack: None,
        tags: Default::default(),
        process_id: None,
    };
    let per = 1000;
    for i in 0..kstreams::MAX_TOTAL_THREADS / per as usize {
        s.apply(&add(format!("i{i}"), per)).unwrap();
    }
    let before = format!("{s:?}");
    let e = s.apply(&add("more".into(), 1)).unwrap_err().to_string();
    assert!(
        e.contains("the instances run 100000 stream threads; 1 more would pass lbscope's limit of 100000 threads over all instances"),
        "{e}"
    );
    let e = s
        .apply(&kstreams::Action::AddThread {
            instance: "i0".into(),
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("threads over all instances"), "{e}");
    assert_eq!(before, format!("{s:?}"));
}

#[test]
fn flink_task_managers_and_subtasks_are_capped_across_actions() {
    use lbscope::engine::flink::{self, job_graph, task_manager};
    let mut s = flink::Sim::new(flink::Config::default(), 1).unwrap();
    let add = flink::Action::AddTaskManagers {
        count: 1000,
        slots: Some(1),
    };
    let mut n = 0;
    let e = loop {
        match s.apply(&add) {
            Ok(_) => n += 1000,
            Err(e) => break e.to_string(),
        }
    };
    assert_eq!(n, task_manager::MAX_TASK_MANAGERS / 1000 * 1000);
    assert!(e.contains(&task_manager::MAX_TASK_MANAGERS.to_string()), "{e}");
    assert_eq!(s.task_managers().len(), n);
    for _ in n..task_manager::MAX_TASK_MANAGERS {
        s.apply(&flink::Action::AddTaskManager {
            name: None,
            slots: Some(1),
        })
        .unwrap();
    }
    let before = format!("{s:?}");
    assert!(s
        .apply(&flink::Action::AddTaskManager {
            name: None,
            slots: Some(1)
        })
        .is_err());
    assert_eq!(before, format!("{s:?}"));

    // A job replaces the one before: vertices and subtasks never add up over actions.
    let width = job_graph::MAX_PARALLELISM;
    let count = (job_graph::MAX_SUBTASKS / u64::from(width)) as usize;
    let job = |p: u32| job_graph::JobSpec {
        vertices: (0..count)
            .map(|i| job_graph::VertexSpec {
                name: format!("v{i}"),
                parallelism: p,
                slot_sharing_group: None,
                co_location_group: None,
            })
            .collect(),
        edges: vec![],
    };
    let mut s = flink::Sim::new(flink::Config::default(), 1).unwrap();
    for _ in 0..8 {
        s.apply(&flink::Action::DefineJob { job: job(width) }).unwrap();
    }
    assert_eq!(s.job().unwrap().subtask_count(), job_graph::MAX_SUBTASKS);
    // One subtask more is refused.
    let mut wider = job(width);
    wider.vertices.push(job_graph::VertexSpec {
        name: "extra".into(),
        parallelism: 1,
        slot_sharing_group: None,
        co_location_group: None,
    });
    assert!(s.apply(&flink::Action::DefineJob { job: wider }).is_err());
}

/// A random Flink action, often one that is refused (unknown names, bad slot
/// counts, impossible bounds, durations that overflow the clock, too few slots).
fn flink_random_action(rng: &mut lbscope::engine::SimRng) -> lbscope::engine::flink::Action {
    use lbscope::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
    use lbscope::engine::flink::resource_profile::Resources;
    use lbscope::engine::flink::Action;
    use lbscope::engine::schema::ConfigChange;
    use serde_json::json;
    let tm = format!("tm-{}", rng.below(5));
    let vertex = ["Source", "Map", "Sink", "Nope"][rng.below(4)].to_string();
    match rng.below(13) {
        0 => {
            let p = |rng: &mut lbscope::engine::SimRng| rng.below(5) as u32;
            let v = |name: &str, parallelism: u32, group: Option<&str>| VertexSpec {
                name: name.into(),
                parallelism,
                slot_sharing_group: group.map(Into::into),
                co_location_group: None,
            };
            let group = (rng.below(3) == 0).then_some("g");
            Action::DefineJob {
                job: JobSpec {
                    vertices: vec![
                        v("Source", p(rng), None),
                        v("Map", p(rng), group),
                        v("Sink", p(rng), None),
                    ],
                    edges: vec![
                        EdgeSpec::new("Source", "Map", DistributionPattern::Rescale),
                        EdgeSpec::new(
                            "Map",
                            if rng.below(6) == 0 { "Nope" } else { "Sink" },
                            DistributionPattern::Hash,
                        ),
                    ],
                },
            }
        }
        1 => Action::AddTaskManager {
            name: (rng.below(3) == 0).then(|| tm.clone()),
            slots: Some([0, 1, 2, 4, 2000][rng.below(5)]),
        },
        2 => Action::AddTaskManagers {
            count: rng.below(4) as u32,
            slots: Some([0, 1, 3, 2000][rng.below(4)]),
        },
        3 => Action::RemoveTaskManager { tm },
        4 => Action::LoseTaskManager {
            tm,
            restart_after_ms: [None, Some(10), Some(5_000), Some(u64::MAX - 3)][rng.below(4)],
        },
        5 => Action::RestoreTaskManager { tm },
        6 => {
            let (key, value) = match rng.below(6) {
                0 => (
                    "jobmanager.scheduler",
                    json!(["default", "adaptive"][rng.below(2)]),
                ),
                1 => (
                    "taskmanager.load-balance.mode",
                    json!(["none", "slots", "tasks"][rng.below(3)]),
                ),
                2 => (
                    "slot.request.timeout",
                    json!(format!("{} ms", [10u64, 300_000, i64::MAX as u64][rng.below(3)])),
                ),
                3 => (
                    "jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling",
                    json!(format!("{} ms", [0u64, 30_000, i64::MAX as u64][rng.below(3)])),
                ),
                4 => ("execution.state-recovery.from-local", json!(rng.below(2) == 0)),
                _ => ("slot.request.max-interval", json!(format!("{} ms", i64::MAX))),
            };
            Action::SetConfig(ConfigChange::one(key, value).unwrap())
        }
        7 => Action::SetTaskManagerResources {
            tm,
            resources: (rng.below(2) == 0).then(|| Resources {
                cpu_milli: [0, 1, 4000][rng.below(3)],
                memory_mb: [0, 1, 4096][rng.below(3)],
            }),
        },
        8 => Action::SetSlotSharingGroupResources {
            group: ["default", "g", "nope"][rng.below(3)].into(),
            resources: (rng.below(2) == 0).then_some(Resources {
                cpu_milli: 500,
                memory_mb: 512,
            }),
        },
        9 => Action::SetResourceRequirements {
            vertex,
            lower_bound: rng.below(4) as u32,
            upper_bound: [0, 1, 3, 200][rng.below(4)],
        },
        10 => Action::OccupySlots {
            tm,
            job: None,
            slots: rng.below(4) as u32,
            tasks: rng.below(3) as u32,
        },
        _ => Action::Schedule,
    }
}

/// Random Flink actions under each load-balance mode and both schedulers, many
/// of them refused: after a refused action the state is exactly what it was
/// before (its whole `Debug` text). (`tests/flink_props.rs` and
/// `tests/registries.rs` check the invariants.)
/// `PROPTEST_CASES` sets the sequences per configuration (64 by default).
#[test]
fn flink_a_refused_action_leaves_the_state_as_it_was() {
    use lbscope::engine::flink::{self, Action, LoadBalanceMode};
    use lbscope::engine::SimRng;
    let cases: u64 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let (mut refused, mut applied) = (0u64, 0u64);
    for mode in [
        LoadBalanceMode::None,
        LoadBalanceMode::Slots,
        LoadBalanceMode::Tasks,
    ] {
        for adaptive in [false, true] {
            let mut config = flink::Config::with_mode(mode);
            if adaptive {
                config.scheduler = flink::SchedulerType::Adaptive;
            }
            for case in 0..cases {
                let mut sim = flink::Sim::new(config.clone(), case).unwrap();
                let mut rng = SimRng::new(case ^ 0xF11C);
                let mut done: Vec<Action> = Vec::new();
                for _ in 0..60 {
                    let a = flink_random_action(&mut rng);
                    let before = format!("{sim:?}");
                    done.push(a.clone());
                    match sim.apply(&a) {
                        Ok(_) => applied += 1,
                        Err(_) => {
                            refused += 1;
                            assert_eq!(
                                before,
                                format!("{sim:?}"),
                                "{mode:?} adaptive={adaptive} case {case}: a refused action changed the state: {done:?}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(refused > 0 && applied > 0, "{refused} refused, {applied} applied");
    eprintln!("flink: {applied} actions applied, {refused} refused and left the state unchanged");
}

/// Time per action at Flink's large scale (1,024 TaskManagers × 1,024 slots, a
/// job of 2^20 subtasks, scheduled), applied in place and applied as before
/// (the whole state copied first so that an error could leave it unchanged).
/// Figures are printed, never asserted:
/// `cargo test --release --test reliability -- --ignored --nocapture flink_apply_cost`.
#[test]
#[ignore]
fn flink_apply_cost_at_scale() {
    use lbscope::engine::flink::job_graph::{JobSpec, VertexSpec, MAX_PARALLELISM, MAX_SUBTASKS};
    use lbscope::engine::flink::{self, Action};
    use lbscope::engine::schema::ConfigChange;
    let width = MAX_PARALLELISM;
    let job = JobSpec {
        vertices: (0..(MAX_SUBTASKS / u64::from(width)))
            .map(|i| VertexSpec {
                name: format!("v{i}"),
                parallelism: width,
                slot_sharing_group: None,
                co_location_group: None,
            })
            .collect(),
        edges: vec![],
    };
    let mut s = flink::Sim::new(flink::Config::default(), 1).unwrap();
    s.apply(&Action::DefineJob { job }).unwrap();
    s.apply(&Action::AddTaskManagers {
        count: 1024,
        slots: Some(1024),
    })
    .unwrap();
    let t = Instant::now();
    s.apply(&Action::Schedule).unwrap();
    eprintln!(
        "flink at scale: Schedule {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let copy = s.clone();
    eprintln!(
        "flink at scale: one copy of the state {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    drop(copy);
    let actions: Vec<(&str, Vec<Action>)> = vec![
        (
            "add_task_manager + remove_task_manager",
            vec![
                Action::AddTaskManager {
                    name: Some("extra".into()),
                    slots: Some(4),
                },
                Action::RemoveTaskManager { tm: "extra".into() },
            ],
        ),
        (
            "set_config",
            vec![Action::SetConfig(
                ConfigChange::one("slot.request.timeout", serde_json::json!("300000 ms")).unwrap(),
            )],
        ),
        (
            "a refused remove_task_manager (busy)",
            vec![Action::RemoveTaskManager { tm: "tm-0".into() }],
        ),
        (
            "a refused lose_task_manager (unknown)",
            vec![Action::LoseTaskManager {
                tm: "nope".into(),
                restart_after_ms: None,
            }],
        ),
    ];
    const REPS: u32 = 20;
    for (what, seq) in &actions {
        let t = Instant::now();
        for _ in 0..REPS {
            for a in seq {
                let _ = s.apply(a);
            }
        }
        let now = t.elapsed().as_secs_f64() * 1e3 / f64::from(REPS);
        let t = Instant::now();
        for _ in 0..REPS {
            for a in seq {
                let mut next = s.clone();
                if next.apply(a).is_ok() {
                    s = next;
                }
            }
        }
        let before = t.elapsed().as_secs_f64() * 1e3 / f64::from(REPS);
        eprintln!("flink at scale: {what}: {now:.3} ms in place, {before:.3} ms copying the state first");
    }
}

// ---------------------------------------------------------------------------
// Hostile names, refused actions and what reaches a terminal or a document.

/// ESC / OSC / CSI sequences (window title, clear screen, an OSC 8 link, an
/// OSC 52 clipboard write), a C1 CSI, a bidirectional override, DEL and the
/// noncharacters XML forbids.
const HOSTILE: &str = "x\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}]8;;https\u{2215}e.invalid\u{1b}\\\u{1b}]52;c;cHduZWQ=\u{7}\u{9b}31m\u{202e}\u{7f}\u{FFFE}\u{FFFF}\r\ny";

/// Whether `s` holds anything a terminal acts on or XML forbids (newlines and
/// tabs of the layout aside).
fn has_raw_unsafe(s: &str) -> bool {
    s.chars()
        .any(|c| c != '\n' && c != '\t' && lbscope::safe_text::is_unsafe(c))
}

/// Every string inside `v`.
fn strings(v: &serde_json::Value) -> Vec<String> {
    match v {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(a) => a.iter().flat_map(strings).collect(),
        serde_json::Value::Object(m) => m.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// The system's preset with every occurrence of the quoted names replaced by
/// `HOSTILE` (plus a suffix, so they stay distinct).
fn hostile_preset(system: &str, names: &[&str]) -> String {
    let (code, mut json, err) = lbscope(&["preset", system]);
    assert_eq!(code, 0, "{err}");
    for (i, n) in names.iter().enumerate() {
        let h = serde_json::to_string(&format!("{HOSTILE}{i}")).unwrap();
        json = json.replace(&format!("\"{n}\""), &h);
    }
    json
}

fn hostile_presets() -> Vec<(&'static str, String)> {
    vec![
        (
            "pulsar",
            hostile_preset("pulsar", &["broker-1", "broker-2", "topic"]),
        ),
        ("flink", hostile_preset("flink", &["JV-A", "JV-B"])),
        ("kstreams", hostile_preset("kstreams", &["app-1", "app-2"])),
    ]
}

#[test]
fn hostile_names_never_reach_a_terminal_raw() {
    for (system, json) in hostile_presets() {
        let sc = Scenario::from_json(&json).unwrap_or_else(|e| panic!("{system}: {e}"));
        let f = temp(&format!("hostile-{system}.json"), json.as_bytes());
        let f = f.to_str().unwrap();
        let (code, out, err) = lbscope(&["run", f, "--rounds", "2"]);
        assert_eq!(code, 0, "{system}: {err}");
        assert!(
            out.contains('\u{FFFD}'),
            "{system}: the names are shown, replaced: {out}"
        );
        assert!(!has_raw_unsafe(&out), "{system}: {out:?}");
        // JSON escapes them: the names read back exactly.
        let (code, out, err) = lbscope(&["run", f, "--format", "json"]);
        assert_eq!(code, 0, "{system}: {err}");
        assert!(!has_raw_unsafe(&out), "{system}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(strings(&v).iter().any(|s| s.contains(HOSTILE)), "{system}");
        // A link of it: decode prints escaped JSON that reads back as the scenario.
        let link = format!("http://x/{}", url::to_fragment(&sc));
        let (code, out, err) = lbscope(&["decode", &link]);
        assert_eq!(code, 0, "{system}: {err}");
        assert!(!has_raw_unsafe(&out), "{system}");
        assert_eq!(Scenario::from_json(&out).unwrap(), sc, "{system}");
        // A refusal naming a hostile name reaches stderr replaced.
        let bad = match system {
            "pulsar" => format!(
                r#"{{"op":"crash_broker","broker":{}}}"#,
                serde_json::to_string(HOSTILE).unwrap()
            ),
            "flink" => format!(
                r#"{{"op":"remove_task_manager","tm":{}}}"#,
                serde_json::to_string(HOSTILE).unwrap()
            ),
            _ => format!(
                r#"{{"op":"remove_instance","name":{}}}"#,
                serde_json::to_string(HOSTILE).unwrap()
            ),
        };
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["actions"] = serde_json::json!([serde_json::from_str::<serde_json::Value>(&bad).unwrap()]);
        let f = temp(&format!("hostile-bad-{system}.json"), v.to_string().as_bytes());
        let (code, _, err) = lbscope(&["run", f.to_str().unwrap()]);
        assert_ne!(code, 0, "{system}");
        assert!(
            err.contains("refused") && err.contains("]0;owned"),
            "{system}: {err}"
        );
        assert!(!has_raw_unsafe(&err), "{system}: {err:?}");
    }
    // `ring` prints the topic names it is given.
    let topic = format!("persistent://public/default/{HOSTILE}");
    let (code, out, _) = lbscope(&["ring", &topic]);
    assert_eq!(code, 0);
    assert!(!has_raw_unsafe(&out), "{out:?}");
}

#[test]
fn run_json_is_one_valid_document_when_an_action_is_refused() {
    let (_, json, _) = lbscope(&["preset", "pulsar"]);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["actions"] = serde_json::json!([
        {"op": "step"},
        {"op": "crash_broker", "broker": "no-such-broker"},
        {"op": "step"}
    ]);
    let f = temp("refused.json", v.to_string().as_bytes());
    let (code, out, err) = lbscope(&["run", f.to_str().unwrap(), "--format", "json"]);
    assert_ne!(code, 0);
    assert!(err.contains("log action 2 was refused"), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let msg = doc["error"].as_str().unwrap();
    assert!(
        msg.contains("log action 2 was refused") && msg.contains("no-such-broker"),
        "{msg}"
    );
    // The events up to the refusal are there; no state is claimed.
    assert!(!doc["events"].as_array().unwrap().is_empty());
    assert!(doc.get("state").is_none());
    // Refused before any event (a cursor past the log): still a document.
    v["cursor"] = serde_json::json!(9);
    let f = temp("refused-cursor.json", v.to_string().as_bytes());
    let sc = lbscope::scenario::read::scenario(v.clone());
    assert!(sc.is_ok());
    let mut out = Vec::new();
    let e = lbscope::scenario::run::write_json(&sc.unwrap(), &mut out).unwrap_err();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["events"], serde_json::json!([]));
    assert_eq!(doc["error"], e.to_string());
    drop(f);
}

#[test]
fn every_svg_is_well_formed_whatever_the_names() {
    for (system, json) in hostile_presets() {
        let f = temp(&format!("svg-{system}.json"), json.as_bytes());
        let views: &[&str] = match system {
            "pulsar" => &["ring", "brokers", "chart"],
            "flink" => &["slots", "chart"],
            _ => &["instances", "chart"],
        };
        for view in views {
            let (code, svg, err) = lbscope(&["render", f.to_str().unwrap(), "--view", view, "--rounds", "2"]);
            assert_eq!(code, 0, "{system} {view}: {err}");
            assert!(!has_raw_unsafe(&svg), "{system} {view}");
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{system} {view}: {e}"));
        }
    }
}

#[test]
fn namespace_names_follow_pulsars_naming_rules() {
    let mut s = sim();
    for bad in [
        "public/def\u{FFFE}ault",
        "pub\u{1b}lic/default",
        "public/dé",
        "public/a b",
    ] {
        let e = s
            .apply(&Action::CreateNamespace {
                namespace: bad.into(),
                bundles: Some(4),
            })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("NamedEntity.checkName") && e.contains("is not allowed"),
            "{e}"
        );
    }
    for good in ["public/default", "my-tenant/ns_1.a=b", "t/cluster-1/ns"] {
        s.apply(&Action::CreateNamespace {
            namespace: good.into(),
            bundles: Some(4),
        })
        .unwrap_or_else(|e| panic!("{good}: {e}"));
    }
}

/// Equal JSON values, numbers to f32 precision (the streamed state writes an
/// `f32` as itself; the JSON tree widened it to `f64` first).
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x as f32) == (y as f32)
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(u, v)| same(u, v)),
        (Object(x), Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, u)| y.get(k).is_some_and(|v| same(u, v)))
        }
        _ => a == b,
    }
}

/// The Pulsar preset with `actions` as its log and `cursor`.
fn preset_with(actions: serde_json::Value, cursor: Option<usize>) -> (Scenario, std::path::PathBuf) {
    let (_, json, _) = lbscope(&["preset", "pulsar"]);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["actions"] = actions;
    if let Some(c) = cursor {
        v["cursor"] = c.into();
    }
    let text = v.to_string();
    let name = format!(
        "cursor-{}-{cursor:?}.json",
        v["actions"].as_array().unwrap().len()
    );
    (Scenario::from_json(&text).unwrap(), temp(&name, text.as_bytes()))
}

#[test]
fn the_cli_honours_the_scenarios_cursor_as_the_page_does() {
    let steps = serde_json::json!([{"op": "step"}, {"op": "step"}, {"op": "step"}]);
    let (sc, f) = preset_with(steps, Some(1));
    let f = f.to_str().unwrap();
    // The page opens the link at its cursor: one round applied.
    let page = lbscope::playground::Opening::start(&sc).unwrap();
    let live = loop {
        if let Some(l) = page.work(u64::MAX).unwrap() {
            break l;
        }
    };
    let want = live.session::<pulsar::Sim>().unwrap().state().view_json();
    assert!(want == lbscope::scenario::run::final_state(&sc).unwrap());
    for rounds in ["0", "-"] {
        let args: Vec<&str> = if rounds == "-" {
            vec!["run", f, "--format", "json"]
        } else {
            vec!["run", f, "--format", "json", "--rounds", rounds]
        };
        let (code, out, err) = lbscope(&args);
        assert_eq!(code, 0, "{err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(
            same(&doc["state"], &want),
            "--rounds {rounds}: the state at the cursor"
        );
        let rounds_run = doc["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e.get("round").is_some())
            .count();
        assert!(rounds_run > 0);
        assert!(err.contains("cursor is at 1 of its 3 log actions"), "{err}");
    }
    // The round numbers count the setup's rounds too: which ones ran.
    let rounds_in = |out: &str| {
        let mut r: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("[round ")?.split(']').next())
            .collect();
        r.dedup();
        r.len()
    };
    let (code, out, _) = lbscope(&["run", f]);
    assert_eq!(code, 0);
    assert_eq!(rounds_in(&out), 1, "{out}");
    // --rounds appends at the cursor, as Step on the page forks the redo tail.
    let (code, out, err) = lbscope(&["run", f, "--rounds", "1"]);
    assert_eq!(code, 0);
    assert_eq!(rounds_in(&out), 2, "{out}");
    assert!(err.contains("the 2 log actions after it"), "{err}");
    // render draws the cursor's state too.
    let (code, svg, _) = lbscope(&["render", f, "--view", "brokers"]);
    assert_eq!(code, 0);
    assert!(
        svg.contains("after 1 of 3 actions"),
        "{}",
        &svg[..400.min(svg.len())]
    );
    let (code, svg, _) = lbscope(&["render", f, "--view", "brokers", "--rounds", "0"]);
    assert_eq!(code, 0);
    assert!(svg.contains("after 1 of 3 actions"));
    let (code, svg, _) = lbscope(&["render", f, "--view", "brokers", "--rounds", "2"]);
    assert_eq!(code, 0);
    assert!(svg.contains("after all 3 actions"));
    // The library call the CLI makes.
    let mut s = sc.clone();
    assert_eq!(s.push_rounds(0), 0);
    assert_eq!(s, sc);
    assert_eq!(s.push_rounds(2), 2);
    assert_eq!((s.cursor, s.body.log_len()), (None, 3));
}

#[test]
fn render_round_past_the_end_is_answered_in_one_pass() {
    let (_, f) = preset_with(serde_json::json!([]), None);
    let t = Instant::now();
    let (code, _, err) = lbscope(&[
        "render",
        f.to_str().unwrap(),
        "--rounds",
        "99993",
        "--round",
        "99998",
    ]);
    let took = t.elapsed();
    assert_ne!(code, 0);
    assert!(
        err.contains("--round 99998: the scenario's log has only 99993 rounds"),
        "{err}"
    );
    // Printed, not asserted: it was 16.5 s when the rounds were counted once per round.
    println!("render --rounds 99993 --round 99998: {took:?}");
    let mut sc = big_scenario(0);
    sc.push_rounds(50_000);
    assert_eq!(sc.body.round_count(), 50_000);
    assert_eq!(sc.body.after_round(50_000), Some(50_000));
    assert_eq!(sc.body.after_round(50_001), None);
}

#[test]
fn a_link_with_bytes_after_its_data_or_a_wrong_version_is_refused() {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let sc = big_scenario(3);
    let json = serde_json::to_vec(&sc).unwrap();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    // The link lbscope writes opens.
    assert_eq!(url::decode(&format!("#s=2.{}", b64.encode(&packed))).unwrap(), sc);
    // Bytes after the end of the deflate stream.
    for tail in [&b"x"[..], b"\0\0\0\0", &packed[..]] {
        let mut more = packed.clone();
        more.extend_from_slice(tail);
        let e = url::decode(&format!("#s=2.{}", b64.encode(&more))).unwrap_err();
        assert_eq!(e, url::LinkError::TrailingData(tail.len()));
        assert!(
            e.to_string().contains("after the end of its compressed scenario"),
            "{e}"
        );
    }
    // A version 1 link around format 2 JSON: version 1 links never held it.
    let e = url::decode(&format!("#s=1.{}", b64.encode(&packed))).unwrap_err();
    assert_eq!(e, url::LinkError::VersionMismatch { link: 1, format: 2 });
    assert!(
        e.to_string()
            .contains("says version 1, but the scenario inside is format 2"),
        "{e}"
    );
    // Format 1 JSON in a version 1 or 2 link keeps opening (old links).
    let mut old: serde_json::Value = serde_json::from_slice(&json).unwrap();
    old["format"] = 1.into();
    let old = miniz_oxide::deflate::compress_to_vec(old.to_string().as_bytes(), 9);
    for v in [1, 2] {
        let sc1 = url::decode(&format!("#s={v}.{}", b64.encode(&old))).unwrap();
        assert_eq!(sc1.format, 1);
    }
    // The CLI says the same.
    let (code, _, err) = lbscope(&["decode", &format!("#s=1.{}", b64.encode(&packed))]);
    assert_ne!(code, 0);
    assert!(err.contains("says version 1"), "{err}");
}

#[test]
fn url_refuses_a_base_that_holds_a_fragment() {
    let f = temp("url-base.json", big_scenario(2).to_json().as_bytes());
    let f = f.to_str().unwrap();
    for base in ["http://x/?embed=ring#", "http://x/#a", "#"] {
        let (code, out, err) = lbscope(&["url", f, "--base", base]);
        assert_ne!(code, 0, "{base}: {out}");
        assert!(out.is_empty());
        assert!(err.contains("holds a '#'"), "{err}");
    }
    let (code, out, err) = lbscope(&["url", f, "--base", "http://x/?embed=ring"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("http://x/?embed=ring#s=2."), "{out}");
    assert_eq!(url::decode(out.trim()).unwrap(), big_scenario(2));
    // The library check names it too.
    let sc = big_scenario(2);
    let link = format!("http://x/#{}", url::to_fragment(&sc));
    assert!(matches!(
        url::check_openable(&sc, &link),
        Err(url::LinkError::BaseHasFragment(_))
    ));
}

#[test]
fn fields_on_a_field_less_action_are_refused() {
    for (system, op) in [
        ("pulsar", "step"),
        ("pulsar", "shed"),
        ("flink", "schedule"),
        ("kstreams", "rebalance"),
    ] {
        let (_, json, _) = lbscope(&["preset", system]);
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["actions"] = serde_json::json!([{"op": op}, {"op": op, "rounds": 1000}]);
        let e = Scenario::from_json(&v.to_string()).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "actions[1]: `{op}` takes no fields, so `rounds` would be ignored"
            )),
            "{e}"
        );
        if op != "shed" {
            assert!(e.contains("--rounds"), "{e}");
        }
        // The same action without fields, and links lbscope writes, still open.
        v["actions"] = serde_json::json!([{"op": op}]);
        let sc = Scenario::from_json(&v.to_string()).unwrap();
        assert_eq!(url::decode(&url::to_fragment(&sc)).unwrap(), sc);
        // A link is read by the same code.
        v["actions"] = serde_json::json!([{"op": op, "n": 2}]);
        use base64::Engine as _;
        let packed = miniz_oxide::deflate::compress_to_vec(v.to_string().as_bytes(), 9);
        let link = format!(
            "#s=2.{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
        );
        let e = url::decode(&link).unwrap_err().to_string();
        assert!(e.contains("takes no fields, so `n` would be ignored"), "{e}");
    }
}

#[test]
fn workload_shapes_stay_within_the_traffic_cap() {
    use lbscope::engine::pulsar::traffic::{Traffic, MAX_RATE};
    use lbscope::engine::pulsar::workload::{Pattern, Shape, Target, MAX_FACTOR};
    let burst = |m: f64| Shape::Burst {
        start_round: 0,
        rounds: 1000,
        multiplier: m,
    };
    let add = |s: &mut pulsar::Sim, shape: Shape| {
        s.apply(&Action::AddWorkload {
            pattern: Pattern {
                target: Target::All,
                shape,
            },
        })
    };
    let mut s = sim();
    s.apply(&Action::AddBroker {
        broker: "b-1".into(),
        capacity: Default::default(),
    })
    .unwrap();
    namespace(&mut s, 4);
    s.apply(&Action::CreateTopic { topic: "hot".into() }).unwrap();
    s.apply(&Action::SetTopicTraffic {
        topic: "hot".into(),
        traffic: Traffic {
            msg_rate_in: MAX_RATE,
            msg_rate_out: MAX_RATE,
            throughput_in: MAX_RATE,
            throughput_out: MAX_RATE,
            producers: 1,
            consumers: 1,
        },
    })
    .unwrap();
    // One burst or ramp past the cap: refused, naming it.
    for shape in [
        burst(1e308),
        burst(MAX_FACTOR * 2.0),
        Shape::Ramp {
            from: 1.0,
            to: 1e308,
            start_round: 0,
            rounds: 10,
        },
    ] {
        let e = add(&mut s, shape).unwrap_err().to_string();
        assert!(e.contains("the traffic cap"), "{e}");
    }
    // Stacked: each within the cap, together past it.
    add(&mut s, burst(1e8)).unwrap();
    let e = add(&mut s, burst(1e8)).unwrap_err().to_string();
    assert!(e.contains("could multiply a topic's rates by up to 1e16"), "{e}");
    add(&mut s, burst(1e6)).unwrap();
    // A topic at the cap under a ×1e14 burst stays at the cap: finite loads,
    // no NaN or infinity in the state or its JSON.
    for _ in 0..3 {
        for e in s.apply(&Action::Step).unwrap() {
            // serde_json would write a non-finite number as null: look at the numbers themselves.
            let d = format!("{e:?}");
            assert!(!d.contains("inf") && !d.contains("NaN"), "{d}");
        }
    }
    let state = s.view_json().to_string();
    assert!(!state.contains("inf") && !state.contains("NaN"), "{state}");
    let ns = &s.namespaces()["public/default"];
    for t in ns.topics.values() {
        let tr = ns.traffic(t);
        assert!(
            tr.msg_rate_in <= MAX_RATE && tr.throughput_out <= MAX_RATE,
            "{tr:?}"
        );
    }
    s.invariants().unwrap();
}

#[test]
fn the_format_doc_says_what_the_build_does() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenario.md")).unwrap();
    let v = lbscope::scenario::FORMAT_VERSION;
    assert!(doc.contains(&format!("this build writes {v} and reads 1 and {v}")));
    assert!(doc.contains("the `pulsar-4.2` profile (called `pulsar-4.x` then)"));
    assert!(!doc.contains("replaces the whole config"));
    assert_eq!(doc.matches("`set_config` patches the config").count(), 2);
    // The example at the top is a scenario of the version written.
    let example = doc.split("```json").nth(1).unwrap().split("```").next().unwrap();
    let sc = Scenario::from_json(example).unwrap_or_else(|e| panic!("{e}: {example}"));
    assert_eq!(sc.format, v);
    assert_eq!(big_scenario(0).format, v);
    // That set_config patches is checked for every engine by
    // engine_interface::set_config_patches_keep_the_other_keys.
}

/// Run lbscope under `/usr/bin/time -f %M`, stdout counted and dropped:
/// (exit code, stdout bytes, stdout's first 64 KiB, peak resident KB, wall time).
fn lbscope_measured(args: &[&str]) -> (i32, usize, Vec<u8>, Option<u64>, Duration) {
    use std::io::Read;
    let t = Instant::now();
    let time = std::path::Path::new("/usr/bin/time").exists();
    let mut cmd = if time {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "%M", env!("CARGO_BIN_EXE_lbscope")]);
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_lbscope"))
    };
    let mut child = cmd
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let (mut n, mut head, mut buf) = (0usize, Vec::new(), vec![0u8; 1 << 16]);
    loop {
        let k = out.read(&mut buf).unwrap();
        if k == 0 {
            break;
        }
        head.extend_from_slice(&buf[..k]);
        if head.len() > 1 << 19 {
            head.drain(..head.len() - (1 << 18));
        }
        n += k;
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let peak = time
        .then(|| err.lines().last().and_then(|l| l.trim().parse().ok()))
        .flatten();
    (o.status.code().unwrap_or(-1), n, head, peak, t.elapsed())
}

#[test]
fn run_streams_the_final_state_of_a_large_cluster() {
    // 512 TaskManagers × 1,024 slots (an eighth of the cap; the cap itself is
    // measured with a release build: docs/limits.md).
    let sc = r#"{"format":2,"seed":1,"system":"flink","setup":[{"op":"add_task_managers","count":512,"slots":1024}]}"#;
    let f = temp("flink-big.json", sc.as_bytes());
    let (code, bytes, head, peak, took) = lbscope_measured(&["run", f.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    // The end of the document: the last TaskManager's row, closed.
    let tail = String::from_utf8_lossy(&head);
    assert!(
        tail.contains("\"tm\": \"tm-511\"") && tail.ends_with("}\n}\n"),
        "{}",
        &tail[tail.len().saturating_sub(400)..]
    );
    println!(
        "run --format json, 512 × 1,024 slots: {bytes} bytes of JSON, peak {} KB, {took:?}",
        peak.map_or("?".into(), |p| p.to_string())
    );
    // Flat over --rounds: the same cluster, more rounds, about the same peak.
    let small = big_scenario(2);
    let f = temp("rounds.json", small.to_json().as_bytes());
    for rounds in ["1000", "10000"] {
        let (code, bytes, _, peak, took) =
            lbscope_measured(&["run", f.to_str().unwrap(), "--rounds", rounds]);
        assert_eq!(code, 0);
        println!(
            "run --rounds {rounds}: {bytes} bytes, peak {} KB, {took:?}",
            peak.map_or("?".into(), |p| p.to_string())
        );
    }
}

/// A Kafka Streams scenario: one source of `partitions` partitions (a stateful
/// sub-topology), `instances` × `threads`, `assignor` (a class name), then a rebalance.
fn kstreams_scale(assignor: &str, partitions: u32, instances: u32, threads: u32, standbys: u32) -> Scenario {
    let key = if assignor.contains("Legacy") {
        "internal.task.assignor.class"
    } else {
        "task.assignor.class"
    };
    let mut setup = vec![
        serde_json::json!({"op": "define_topic", "topic": "in", "partitions": partitions}),
        serde_json::json!({"op": "define_topology", "subtopologies": [{"sources": ["in"], "stores": ["s"], "changelog": true}], "copartition_groups": []}),
    ];
    for i in 0..instances {
        setup.push(serde_json::json!({"op": "add_instance", "name": format!("app-{i}"), "threads": threads}));
    }
    let v = serde_json::json!({
        "format": 2, "seed": 1, "system": "kstreams",
        "config": {key: assignor, "num.standby.replicas": standbys},
        "setup": setup, "actions": [{"op": "rebalance"}],
    });
    Scenario::from_json(&v.to_string()).unwrap()
}

const LEGACY_STICKY: &str =
    "org.apache.kafka.streams.processor.internals.assignment.LegacyStickyTaskAssignor";
const KIP924_STICKY: &str = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor";

#[test]
fn sticky_assignors_keep_no_pair_set() {
    // Small assignments: debug builds check every `hasNewPair` answer and the
    // pair count against Kafka's own pair set (sticky.rs), with standbys,
    // several instances and a second rebalance that has previous owners.
    for assignor in [LEGACY_STICKY, KIP924_STICKY] {
        for (parts, inst, threads, sb) in [(7, 3, 1, 1), (40, 5, 2, 2), (150, 7, 3, 1), (12, 12, 1, 3)] {
            let mut sc = kstreams_scale(assignor, parts, inst, threads, sb);
            sc.push_rounds(2);
            let log = lbscope::scenario::run::event_log(&sc).unwrap();
            assert!(log.iter().any(|e| e.text.contains("rebalance")), "{assignor}");
        }
    }
    // At scale: printed, not asserted (a debug build; docs/limits.md has the release figures).
    for (assignor, parts, inst, threads, sb) in [
        (LEGACY_STICKY, 3000, 1, 1, 0),
        (LEGACY_STICKY, 1500, 20, 1, 1),
        (KIP924_STICKY, 3000, 10, 10, 0),
    ] {
        let sc = kstreams_scale(assignor, parts, inst, threads, sb);
        let t = Instant::now();
        let state = lbscope::scenario::run::final_state(&sc).unwrap();
        assert!(state.to_string().contains("app-0"));
        println!(
            "{} {parts} tasks on {inst} × {threads}, {sb} standby: {:?}",
            assignor.rsplit('.').next().unwrap(),
            t.elapsed()
        );
    }
}

#[test]
fn one_action_creates_at_most_a_million_topics() {
    let mut s = sim();
    namespace(&mut s, 4);
    let e = s
        .apply(&Action::CreateTopics {
            namespace: "public/default".into(),
            prefix: "t".into(),
            count: pulsar::MAX_BULK_TOPICS + 1,
            traffic: Default::default(),
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 1048576 topics per action"), "{e}");
    assert!(s.namespaces()["public/default"].topics.is_empty());
}

/// 10,000 instances (the limit) added one `add_instance` at a time in a setup,
/// after the topology: the group coordinator batches joins that arrive while a
/// rebalance is pending, so the run of joins rebalances once (not once per
/// join, which made the setup quadratic in the instances). Time and memory are
/// printed, not asserted; release figures are in docs/limits.md.
#[test]
fn ten_thousand_instances_joining_in_a_setup_rebalance_once() {
    use lbscope::engine::kstreams;
    let n = kstreams::MAX_INSTANCES;
    let mut setup = vec![
        serde_json::json!({"op": "define_topic", "topic": "in", "partitions": 100}),
        serde_json::json!({"op": "define_topology", "subtopologies": [{"sources": ["in"], "stores": ["s"]}]}),
    ];
    setup.extend((0..n).map(|i| serde_json::json!({"op": "add_instance", "name": format!("app-{i}")})));
    let v = serde_json::json!({
        "format": 2, "seed": 1, "system": "kstreams", "setup": setup,
        // In the log each join is its own moment: two joins, two rebalances.
        "actions": [
            {"op": "remove_instance", "name": "app-0"}, {"op": "remove_instance", "name": "app-1"},
            {"op": "add_instance", "name": "late-1"}, {"op": "add_instance", "name": "late-2"},
        ],
    });
    let text = v.to_string();
    let sc = Scenario::from_json(&text).unwrap();
    let t = Instant::now();
    let log = lbscope::scenario::run::event_log(&sc).unwrap();
    let took = t.elapsed();
    let starts: Vec<(Option<usize>, &str)> = log
        .iter()
        .filter(|e| e.text.starts_with("rebalance "))
        .map(|e| (e.step, e.text.as_str()))
        .collect();
    assert_eq!(starts.len(), 6, "{starts:?}");
    assert!(
        starts[0].1.starts_with("rebalance 1 (topology defined)"),
        "{starts:?}"
    );
    assert!(
        starts[1].1.starts_with(&format!(
            "rebalance 2 ({n} instances joined together (app-0, app-1, … app-{})): HighAvailability assignor, 100 tasks over {n} members",
            n - 1
        )),
        "{}",
        starts[1].1
    );
    assert_eq!(starts[1].0, None);
    assert!(
        starts[4].1.starts_with("rebalance 5 (instance late-1 joined)"),
        "{starts:?}"
    );
    assert!(
        starts[5].1.starts_with("rebalance 6 (instance late-2 joined)"),
        "{starts:?}"
    );
    // Every task has an owner after the setup's one rebalance, and the other
    // replay paths (the playground's, the final state's) agree with the log.
    let lbscope::scenario::Body::Kstreams(body) = &sc.body else {
        panic!()
    };
    let r = lbscope::scenario::replay(sc.seed, body, Some(0)).unwrap();
    assert_eq!(r.state.generation(), 2);
    assert!(r
        .state
        .tasks()
        .iter()
        .all(|t| r.state.active_owner(t.id).is_some()));
    r.state.invariants().unwrap();
    println!("{n} instances joining in a setup, event log: {took:?}");
    let f = temp("kstreams-10000-instances.json", text.as_bytes());
    let (code, bytes, _, peak, took) = lbscope_measured(&["run", f.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    println!(
        "run --format json, {n} instances: {bytes} bytes, peak {} KB, {took:?}",
        peak.map_or("?".into(), |p| p.to_string())
    );
}
