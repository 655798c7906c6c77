//! "Bring your own cluster": the sample outputs in `tests/imports/` (written in
//! each tool's real format) are imported and replayed against their expected
//! notices and event logs (`tests/imports/NAME.expected.txt`; `LBSCOPE_BLESS=1`
//! rewrites them), and every error path gets its message checked.

use lbscope::engine::System;
use lbscope::import::{import, ImportError, Imported, InputKind, Options};
use lbscope::scenario::{run, Scenario};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/imports")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn import_files(system: System, files: &[&str], o: &Options) -> Result<Imported, ImportError> {
    let texts: Vec<(String, String)> = files.iter().map(|f| (f.to_string(), read(f))).collect();
    let inputs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    import(system, &inputs, o)
}

fn opts(f: impl FnOnce(&mut Options)) -> Options {
    let mut o = Options::default();
    f(&mut o);
    o
}

struct Case {
    name: &'static str,
    system: System,
    files: &'static [&'static str],
    options: fn() -> Options,
    /// Rounds appended to the log before replaying.
    rounds: usize,
}

const CASES: &[Case] = &[
    Case {
        name: "kstreams-wordcount",
        system: System::Kstreams,
        files: &["kstreams/wordcount.describe.txt"],
        options: || {
            opts(|o| {
                o.partitions.insert("lines".into(), 4);
                o.instances = Some(2);
                o.application_id = Some("wordcount".into());
            })
        },
        rounds: 0,
    },
    Case {
        name: "kstreams-orders",
        system: System::Kstreams,
        files: &["kstreams/orders.describe.txt", "kstreams/orders.topics.txt"],
        options: || {
            opts(|o| {
                o.instances = Some(3);
                o.threads = Some(2);
                o.standbys = Some(1);
                o.application_id = Some("order-enricher".into());
            })
        },
        rounds: 0,
    },
    Case {
        name: "flink-wordcount",
        system: System::Flink,
        files: &["flink/wordcount.plan.json"],
        options: || {
            opts(|o| {
                o.task_managers = Some(2);
                o.slots = Some(2);
            })
        },
        rounds: 0,
    },
    Case {
        name: "flink-fraud-plan",
        system: System::Flink,
        files: &["flink/fraud.plan.json", "flink/taskmanagers.json"],
        options: Options::default,
        rounds: 0,
    },
    Case {
        name: "flink-fraud-rest",
        system: System::Flink,
        files: &["flink/fraud.rest-plan.json"],
        options: || {
            opts(|o| {
                o.task_managers = Some(3);
                o.slots = Some(4);
            })
        },
        rounds: 0,
    },
    Case {
        name: "flink-fraud-job",
        system: System::Flink,
        files: &["flink/taskmanagers.json", "flink/fraud.job.json"],
        options: Options::default,
        rounds: 0,
    },
    Case {
        name: "pulsar-small",
        system: System::Pulsar,
        files: &[
            "pulsar/small/bundles.json",
            "pulsar/small/broker-1.load-report.json",
            "pulsar/small/topics.txt",
        ],
        options: Options::default,
        rounds: 2,
    },
    Case {
        name: "pulsar-cluster",
        system: System::Pulsar,
        files: &[
            "pulsar/cluster/broker-1.load-report.json",
            "pulsar/cluster/broker-2.load-report.json",
            "pulsar/cluster/broker-3.load-report.json",
            "pulsar/cluster/public-default.bundles.json",
            "pulsar/cluster/topics-stats.txt",
            "pulsar/cluster/shop-orders.topics.txt",
        ],
        options: Options::default,
        rounds: 3,
    },
    Case {
        name: "pulsar-cluster-reported-usage",
        system: System::Pulsar,
        files: &[
            "pulsar/cluster/broker-1.load-report.json",
            "pulsar/cluster/broker-2.load-report.json",
            "pulsar/cluster/broker-3.load-report.json",
            "pulsar/cluster/public-default.bundles.json",
            "pulsar/cluster/topics-stats.txt",
        ],
        options: || opts(|o| o.reported_usage = true),
        rounds: 2,
    },
    Case {
        name: "pulsar-bundles-only",
        system: System::Pulsar,
        files: &["pulsar/bundles-only/bundles.json"],
        options: Options::default,
        rounds: 1,
    },
    Case {
        name: "pulsar-simple",
        system: System::Pulsar,
        files: &[
            "pulsar/simple/broker-a.load-report.json",
            "pulsar/simple/broker-b.load-report.json",
            "pulsar/simple/topics.json",
        ],
        options: Options::default,
        rounds: 1,
    },
];

#[test]
fn samples_import_and_replay_to_their_expected_logs() {
    let bless = std::env::var_os("LBSCOPE_BLESS").is_some();
    for c in CASES {
        let imported =
            import_files(c.system, c.files, &(c.options)()).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let mut sc = imported.scenario.clone();
        // The scenario survives its own JSON.
        assert_eq!(Scenario::from_json(&sc.to_json()).unwrap(), sc, "{}", c.name);
        sc.push_rounds(c.rounds);
        let log = run::to_text(&run::event_log(&sc).unwrap_or_else(|e| panic!("{}: {e}", c.name)));
        assert_eq!(
            log,
            run::to_text(&run::event_log(&sc).unwrap()),
            "{}: replay is deterministic",
            c.name
        );
        let mut text = String::from("inputs:\n");
        for (n, k) in &imported.inputs {
            text.push_str(&format!("  {n}: {}\n", k.title()));
        }
        text.push_str("notices:\n");
        for n in &imported.notices {
            text.push_str(&format!("  {n}\n"));
        }
        text.push_str(&format!("event log ({} rounds appended):\n", c.rounds));
        text.push_str(&log);
        let expected = dir().join(format!("{}.expected.txt", c.name));
        if bless {
            std::fs::write(&expected, &text).unwrap();
        } else {
            let want = std::fs::read_to_string(&expected)
                .unwrap_or_else(|_| panic!("{} has no expected log; run with LBSCOPE_BLESS=1", c.name));
            assert_eq!(text, want, "the import of {} changed", c.name);
        }
    }
}

fn err(system: System, inputs: &[(&str, &str)], o: &Options) -> String {
    match import(system, inputs, o) {
        Ok(_) => panic!("import succeeded: {inputs:?}"),
        Err(e) => e.to_string(),
    }
}

const SMALL_TOPOLOGY: &str =
    "Topologies:\n   Sub-topology: 0\n    Source: S (topics: [a])\n      --> P\n    \
                              Processor: P (stores: [s])\n      --> none\n      <-- S\n\n";

#[test]
fn wrong_kinds_are_named() {
    let plan = read("flink/wordcount.plan.json");
    let o = Options::default();
    assert_eq!(
        err(System::Kstreams, &[("plan.json", &plan)], &o),
        "plan.json: this looks like a Flink execution plan (StreamExecutionEnvironment#getExecutionPlan()), not a \
         Kafka Streams input (a Topology#describe() text or kafka-topics.sh --describe output): import it with \
         `lbscope import flink ...`"
    );
    assert_eq!(
        err(System::Pulsar, &[("t.txt", SMALL_TOPOLOGY)], &o),
        "t.txt: this looks like a Kafka Streams Topology#describe() text, not a Pulsar input (pulsar-admin \
         namespaces bundles, broker-stats load-report, namespaces topics or topics stats): import it with \
         `lbscope import kstreams ...`"
    );
    let sc = lbscope::scenario::presets::default_scenario(System::Flink).to_json();
    assert!(err(System::Flink, &[("x.json", &sc)], &o).ends_with("this looks like an lbscope scenario, not a Flink input (getExecutionPlan() JSON, REST /jobs/:jobid/plan, /jobs/:jobid or /taskmanagers JSON): run it with `lbscope run FILE`"));
    assert_eq!(
        err(System::Flink, &[("x", "hello world\nsecond")], &o),
        "x: this looks like nothing lbscope can import, not a Flink input (getExecutionPlan() JSON, REST \
         /jobs/:jobid/plan, /jobs/:jobid or /taskmanagers JSON) (its first line is \"hello world\")"
    );
    assert!(err(System::Flink, &[("e", "  \n")], &o)
        .starts_with("e: this looks like an empty input, not a Flink input"));
    assert_eq!(
        err(System::Kstreams, &[], &o),
        "no input given: give the text Topology#describe() prints"
    );
    assert_eq!(lbscope::import::detect(&plan), InputKind::FlinkExecutionPlan);
}

#[test]
fn sizes_and_counts_are_bounded() {
    let o = Options::default();
    let big = "x".repeat(lbscope::import::MAX_INPUT_BYTES + 1);
    assert_eq!(
        err(System::Flink, &[("big", &big)], &o),
        "big: 33554433 bytes is more than the 32 MiB lbscope reads from one input"
    );
    let many: Vec<(&str, &str)> = (0..lbscope::import::MAX_INPUTS + 1)
        .map(|_| ("r", "{}"))
        .collect();
    assert_eq!(
        err(System::Pulsar, &many, &o),
        "import: 2001 inputs is more than the 2000 lbscope reads at once"
    );
    // 1M topic names: refused at the first name past the cap, quickly.
    let mut list = String::new();
    for i in 0..1_000_000 {
        list.push_str(&format!("persistent://a/b/t{i}\n"));
    }
    let t = std::time::Instant::now();
    let report = read("pulsar/small/broker-1.load-report.json");
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("topics.txt", &list)], &o),
        "topics.txt: line 40001: more than 40,000 topics; lbscope imports at most that many (each needs two of a \
         scenario's 100,000 actions)"
    );
    assert!(t.elapsed().as_secs() < 20);
    // A huge plan: 10,000 operators that do not chain are more job vertices than lbscope schedules.
    let mut nodes = vec![
        r#"{"id":0,"type":"Source: S","pact":"Data Source","contents":"S","parallelism":1}"#.to_string(),
    ];
    for i in 1..10_000 {
        nodes.push(format!(
            r#"{{"id":{i},"type":"Map","pact":"Operator","contents":"Map","parallelism":1,"predecessors":[{{"id":{},"ship_strategy":"HASH","side":"second"}}]}}"#,
            i - 1
        ));
    }
    let plan = format!("{{\"nodes\":[{}]}}", nodes.join(","));
    let o = opts(|o| {
        o.task_managers = Some(1);
        o.slots = Some(1);
    });
    assert_eq!(
        err(System::Flink, &[("huge.json", &plan)], &o),
        "huge.json: the job has 10,000 job vertices; lbscope schedules at most 4096"
    );
    // JSON with too many values is refused before it is parsed.
    let values = format!("[{}1]", "1,".repeat(lbscope::import::MAX_JSON_VALUES + 1));
    let vals = format!("{{\"taskmanagers\": {values}}}");
    assert!(err(System::Flink, &[("v.json", &vals)], &o)
        .starts_with("v.json: line 1: more than 1,000,000 JSON values"),);
    // Deep nesting is refused by the JSON reader's depth limit.
    let deep = format!("{{\"nodes\": {}", "[".repeat(10_000));
    assert!(err(System::Flink, &[("d.json", &deep)], &o).contains("nests deeper than lbscope reads"));
}

#[test]
fn kstreams_errors_name_what_is_missing() {
    let o = Options::default();
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &o),
        "topic a has no partition count: pass --partitions a=N (or give kafka-topics.sh --describe output)"
    );
    let orders = read("kstreams/orders.describe.txt");
    assert_eq!(
        err(System::Kstreams, &[("orders", &orders)], &o),
        "topics orders, payments have no partition count: pass --partitions orders=N --partitions payments=N (or \
         give kafka-topics.sh --describe output)"
    );
    let pattern = "Topologies:\n   Sub-topology: 0\n    Source: S (topics: orders-.*)\n      --> none\n\n";
    assert_eq!(
        err(System::Kstreams, &[("p", pattern)], &o),
        "p: line 3: source S subscribes to the pattern orders-.*; lbscope needs the topics it matches: pass \
         --pattern-topics 'orders-.*=TOPIC1,TOPIC2' (and --partitions for each)"
    );
    let with = opts(|o| {
        o.pattern_topics
            .insert("orders-.*".into(), vec!["orders-eu".into(), "orders-us".into()]);
        o.partitions.insert("orders-eu".into(), 2);
        o.partitions.insert("orders-us".into(), 3);
    });
    let ok = import(System::Kstreams, &[("p", pattern)], &with).unwrap();
    assert!(ok
        .notices
        .iter()
        .any(|n| n.text.contains("subscribes to the pattern orders-.*")));
    let wrong = opts(|o| {
        o.pattern_topics.insert("x.*".into(), vec!["x1".into()]);
        o.partitions.insert("a".into(), 1);
    });
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &wrong),
        "--pattern-topics x.*: no source of the topology subscribes to that pattern"
    );
    let a1 = opts(|o| {
        o.partitions.insert("a".into(), 1);
    });
    assert_eq!(
        err(
            System::Kstreams,
            &[("t1", SMALL_TOPOLOGY), ("t2", SMALL_TOPOLOGY)],
            &a1
        ),
        "2 Topology#describe() texts given (t1 and t2); lbscope imports one application at a time"
    );
    let topics = read("kstreams/orders.topics.txt");
    assert_eq!(
        err(System::Kstreams, &[("topics", &topics)], &a1),
        "no Topology#describe() text among the inputs: print topology.describe() in your application and give its \
         output"
    );
    let bad_id = opts(|o| {
        o.partitions.insert("a".into(), 1);
        o.application_id = Some("my app".into());
    });
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &bad_id),
        "--application-id \"my app\" is not a legal application.id (letters, digits, '.', '_' and '-')"
    );
    let threads = opts(|o| {
        o.partitions.insert("a".into(), 1);
        o.threads = Some(2);
    });
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &threads),
        "--threads needs --instances N (how many instances run the application)"
    );
    let zero = opts(|o| {
        o.partitions.insert("a".into(), 1);
        o.instances = Some(0);
    });
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &zero),
        "--instances 0: start at least one instance"
    );
    let zero_p = opts(|o| {
        o.partitions.insert("a".into(), 0);
    });
    assert_eq!(
        err(System::Kstreams, &[("t", SMALL_TOPOLOGY)], &zero_p),
        "--partitions a=0: a topic needs at least 1 partition"
    );
    let cut = &orders[..orders.len() / 2];
    let e = err(System::Kstreams, &[("cut", cut)], &o);
    assert!(e.contains("(is the text cut short?)"), "{e}");
    let illegal = SMALL_TOPOLOGY.replace("[a]", "[bad topic!]");
    assert_eq!(
        err(System::Kstreams, &[("i", &illegal)], &o),
        "i: line 3: \"bad topic!\" is not a legal Kafka topic name (letters, digits, '.', '_' and '-' only)"
    );
    let hostile = SMALL_TOPOLOGY.replace(
        "Processor: P (stores: [s])",
        "Processor: P (stores: [s\u{202e}x])",
    );
    assert_eq!(
        err(System::Kstreams, &[("h", &hostile)], &o),
        "h: line 5: the store name \"s\u{fffd}x\" has control characters or is longer than 1000 characters"
    );
    let stray = "Topologies:\n    Source: S (topics: [a])\n";
    assert_eq!(
        err(System::Kstreams, &[("s", stray)], &o),
        "s: line 2: a Source line before any Sub-topology line"
    );
    let global_only = "Topologies:\n   Sub-topology: 0 for global store (will not generate tasks)\n    Source: G (topics: [g])\n      --> GP\n    Processor: GP (stores: [gs])\n      --> none\n      <-- G\n";
    assert_eq!(
        err(System::Kstreams, &[("g", global_only)], &o),
        "g: the topology has only global stores, which generate no tasks: there is nothing to assign"
    );
    let mut huge = String::from("Topologies:\n   Sub-topology: 0\n");
    for i in 0..100_001 {
        huge.push_str(&format!(
            "    Processor: P{i} (stores: [])\n      --> none\n      <-- none\n"
        ));
    }
    assert_eq!(
        err(System::Kstreams, &[("huge", &huge)], &o),
        "huge: line 300003: more than 100,000 nodes"
    );
    let counts = "Topic: a\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: \n";
    let counts2 = "Topic: a\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: \n";
    assert_eq!(
        err(
            System::Kstreams,
            &[("t", SMALL_TOPOLOGY), ("c1", counts), ("c2", counts2)],
            &o
        ),
        "c2: line 1: topic a has 3 partitions here and 2 in c1"
    );
}

#[test]
fn flink_errors_name_what_is_missing() {
    let o = Options::default();
    let plan = read("flink/wordcount.plan.json");
    let tms = read("flink/taskmanagers.json");
    assert_eq!(
        err(System::Flink, &[("plan", &plan)], &o),
        "the job graph does not say how many TaskManagers run it: pass --task-managers N --slots S, or give the REST \
         API's /taskmanagers JSON"
    );
    let only_n = opts(|o| o.task_managers = Some(2));
    assert_eq!(
        err(System::Flink, &[("plan", &plan)], &only_n),
        "--task-managers needs --slots S too (taskmanager.numberOfTaskSlots of each TaskManager)"
    );
    let only_s = opts(|o| o.slots = Some(2));
    assert_eq!(
        err(System::Flink, &[("plan", &plan)], &only_s),
        "--slots needs --task-managers N too (how many TaskManagers run the job)"
    );
    let zero = opts(|o| {
        o.task_managers = Some(1);
        o.slots = Some(0);
    });
    assert_eq!(
        err(System::Flink, &[("plan", &plan)], &zero),
        "--slots 0: a TaskManager has 1 to 1024 slots"
    );
    let few = opts(|o| {
        o.task_managers = Some(1);
        o.slots = Some(3);
    });
    assert_eq!(
        err(System::Flink, &[("plan", &plan)], &few),
        "the job needs 4 slots (the largest parallelism of each slot sharing group, summed) but the TaskManagers \
         have 3: give TaskManagers with at least 4 slots in all (--task-managers N --slots S)"
    );
    assert_eq!(
        err(System::Flink, &[("tms", &tms)], &o),
        "no job graph among the inputs: give the JSON of env.getExecutionPlan() or of the REST API's \
         /jobs/:jobid/plan or /jobs/:jobid"
    );
    assert_eq!(
        err(System::Flink, &[("a", &plan), ("b", &plan), ("t", &tms)], &o),
        "two job graphs given (a and b); lbscope imports one job at a time"
    );
    assert_eq!(
        err(System::Flink, &[("a", &plan), ("t1", &tms), ("t2", &tms)], &o),
        "two /taskmanagers inputs given (t1 and t2); give one"
    );
    let cut = &plan[..plan.len() - 40];
    let e = err(System::Flink, &[("cut.json", cut), ("t", &tms)], &o);
    assert!(e.starts_with("cut.json: the JSON ends early at line"), "{e}");
    let typed = plan.replacen("\"parallelism\" : 4", "\"parallelism\" : \"four\"", 1);
    assert_eq!(
        err(System::Flink, &[("p", &typed), ("t", &tms)], &o),
        "p: nodes[1].parallelism: expected a whole number, found \"four\""
    );
    let zero_p = plan.replacen("\"parallelism\" : 1", "\"parallelism\" : 0", 1);
    assert_eq!(
        err(System::Flink, &[("p", &zero_p), ("t", &tms)], &o),
        "p: nodes[0].parallelism: 0 is not a parallelism of 1 or more"
    );
    let forward = plan.replacen("\"REBALANCE\"", "\"FORWARD\"", 1);
    assert_eq!(
        err(System::Flink, &[("p", &forward), ("t", &tms)], &o),
        "p: nodes[1].predecessors[0]: a FORWARD edge from Source: Socket Stream (parallelism 1) to Flat Map \
         (parallelism 4); Flink refuses forward partitioning between different parallelisms"
    );
    let dangling = plan.replacen(
        "\"id\" : 1,\n      \"ship_strategy\"",
        "\"id\" : 77,\n      \"ship_strategy\"",
        1,
    );
    assert_eq!(
        err(System::Flink, &[("p", &dangling), ("t", &tms)], &o),
        "p: nodes[1].predecessors[0].id: no operator has id 77 (is the text cut short?)"
    );
    let iteration = r#"{"nodes":[{"step_function":[],"id":1,"pact":"IterativeDataStream","parallelism":1,"contents":"Stream Iteration"}]}"#;
    assert_eq!(
        err(System::Flink, &[("i", iteration), ("t", &tms)], &o),
        "i: nodes[0].pact: a stream iteration (IterativeDataStream); lbscope does not model iterations (Flink 2 \
         removed them)"
    );
    let no_slots = tms.replacen("\"slotsNumber\" : 4", "\"slotsNumber\" : 0", 1);
    assert_eq!(
        err(System::Flink, &[("p", &plan), ("t", &no_slots)], &o),
        "t: taskmanagers[0].slotsNumber: 0 is not 1 to 1024"
    );
    // A value the engine bounds: the engine's refusal names the setup action.
    let wide = plan.replacen("\"parallelism\" : 1", "\"parallelism\" : 40000", 1);
    let many = opts(|o| {
        o.task_managers = Some(40);
        o.slots = Some(1000);
    });
    assert_eq!(
        err(System::Flink, &[("p", &wide)], &many),
        "the imported cluster was refused at setup action 1 (define_job): vertex \"Source: Socket Stream\" has \
         parallelism 40000; the maximum is 32768"
    );
    let empty_tms = r#"{"taskmanagers": []}"#;
    assert_eq!(
        err(System::Flink, &[("p", &plan), ("t", empty_tms)], &o),
        "t: taskmanagers: the list is empty"
    );
    let rest = read("flink/fraud.rest-plan.json");
    let dangling = rest.replacen(
        "\"id\" : \"7ed21143076d0cca420653d4345baa2f\",\n        \"ship",
        "\"id\" : \"feed\",\n        \"ship",
        1,
    );
    assert_eq!(
        err(System::Flink, &[("r", &dangling), ("t", &tms)], &o),
        "r: plan.nodes[0].inputs (num 0): no vertex has id feed (is the text cut short?)"
    );
    // Hostile vertex names are cleaned and named in a notice, never refused.
    let hostile = plan.replace("Flat Map", "Flat\\u202eMap\\u0007");
    let ok = import(System::Flink, &[("h", &hostile), ("t", &tms)], &o).unwrap();
    assert!(
        ok.notices
            .iter()
            .any(|n| n.text.contains("had control characters")),
        "{:?}",
        ok.notices
    );
}

#[test]
fn pulsar_errors_name_what_is_missing() {
    let o = Options::default();
    let bundles = read("pulsar/small/bundles.json");
    let report = read("pulsar/small/broker-1.load-report.json");
    let topics = read("pulsar/small/topics.txt");
    assert_eq!(
        err(System::Pulsar, &[("t", &topics)], &o),
        "no load report among the inputs: give `pulsar-admin --admin-url http://BROKER:8080 broker-stats \
         load-report` of each broker (they name the brokers, their capacities and the bundles they own)"
    );
    assert_eq!(
        err(
            System::Pulsar,
            &[("b", &bundles), ("t", &topics)],
            &opts(|o| o.reported_usage = true)
        ),
        "--reported-usage pins each broker's usage to its load report, but no load report was given"
    );
    let stats = "{\n  \"msgRateIn\" : 1.0,\n  \"publishers\" : [ ]\n}\n";
    assert!(err(System::Pulsar, &[("r", &report), ("s", stats)], &o)
        .starts_with("s: a topics stats JSON does not name its topic: print each topic's name on the line before its stats"));
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("r2", &report)], &o),
        "r2: broker broker-1.pulsar.svc.cluster.local:8080 has a load report in another input too"
    );
    let other = report.replace("broker-1.pulsar", "broker-2.pulsar");
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("r2", &other)], &o),
        "r2: bundle public/default/0x00000000_0x40000000 is owned by broker-2.pulsar.svc.cluster.local:8080 and by \
         broker-1.pulsar.svc.cluster.local:8080 in the reports (were they taken at different times?)"
    );
    let split = bundles
        .replace("\"0x40000000\", ", "\"0x20000000\", \"0x40000000\", ")
        .replace("\"numBundles\" : 4", "\"numBundles\" : 5");
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("b", &split)], &o),
        "r: broker broker-1.pulsar.svc.cluster.local:8080 owns bundle public/default/0x00000000_0x40000000, which is \
         not one of the bundles b gives for public/default (was a bundle split between the two outputs?)"
    );
    let count = bundles.replace("\"numBundles\" : 4", "\"numBundles\" : 3");
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("b", &count)], &o),
        "b: numBundles: 3, but the 5 distinct boundaries make 4 bundles"
    );
    let two_ns = format!("{topics}persistent://other/ns/x\n");
    let mut v: serde_json::Value = serde_json::from_str(&report).unwrap();
    v["bundles"] = serde_json::json!([]);
    v["lastStats"] = serde_json::json!({});
    v["bundleStats"] = serde_json::json!({});
    let owns_nothing = v.to_string();
    assert_eq!(
        err(System::Pulsar, &[("r", &owns_nothing), ("b", &bundles), ("t", &two_ns)], &o),
        "b: `namespaces bundles` does not print its namespace and lbscope cannot tell which it is (candidates \
         other/ns, public/default): pass --namespace TENANT/NS"
    );
    let ns = opts(|o| o.namespace = Some("other/ns".into()));
    let ok = import(
        System::Pulsar,
        &[("r", &owns_nothing), ("b", &bundles), ("t", &two_ns)],
        &ns,
    )
    .unwrap();
    assert!(ok
        .notices
        .iter()
        .any(|n| n.text.contains("no bundles known for public/default")));
    let ns = opts(|o| o.namespace = Some("public/default".into()));
    assert_eq!(
        err(
            System::Pulsar,
            &[("r", &report), ("b1", &bundles), ("b2", &bundles)],
            &ns
        ),
        "--namespace public/default names the namespace of one `namespaces bundles` input, but 2 were given"
    );
    let v1 = report.replace("\"public/default/0x00000000", "\"public/use/default/0x00000000");
    assert_eq!(
        err(System::Pulsar, &[("r", &v1)], &o),
        "r: bundle public/use/default/0x00000000_0x40000000: public/use/default is a v1 namespace \
         (tenant/cluster/namespace); lbscope models tenant/namespace"
    );
    let badb = report.replacen(
        "\"public/default/0x00000000_0x40000000\"",
        "\"public/default/zzz\"",
        1,
    );
    assert!(err(System::Pulsar, &[("r", &badb)], &o)
        .contains("is not of the form tenant/namespace/0xLLLLLLLL_0xUUUUUUUU"));
    let hostile = "persistent://public/default/a\u{7}b\n";
    assert_eq!(
        err(System::Pulsar, &[("r", &report), ("h", hostile)], &o),
        "h: line 1: the topic name \"persistent://public/default/a\u{fffd}b\" has control characters or is longer \
         than 1000 characters"
    );
    let no_name = report
        .replace(
            "\"webServiceUrl\" : \"http://broker-1.pulsar.svc.cluster.local:8080\",",
            "",
        )
        .replace(
            "\"pulsarServiceUrl\" : \"pulsar://broker-1.pulsar.svc.cluster.local:6650\",",
            "",
        );
    assert_eq!(
        err(System::Pulsar, &[("r", &no_name)], &o),
        "r: webServiceUrl: missing: the report names no broker"
    );
    let cut_stats = read("pulsar/cluster/topics-stats.txt");
    let cut_stats = &cut_stats[..5_000];
    let e = err(System::Pulsar, &[("r", &report), ("s", cut_stats)], &o);
    assert!(
        e.starts_with(
            "s: the stats of persistent://public/default/orders (line 1), the JSON ends early at line"
        ),
        "{e}"
    );
    let wrong_type = report.replacen("\"usage\" : 182.5", "\"usage\" : \"high\"", 1);
    assert_eq!(
        err(System::Pulsar, &[("r", &wrong_type)], &o),
        "r: cpu.usage: expected a number, found a string"
    );
}

/// A `namespaces bundles` output without load reports opens on its real
/// boundaries, one assumed broker owning every bundle, the load from the topics
/// stats when given and zero otherwise; the notice says so.
#[test]
fn pulsar_bundles_without_load_reports_open_on_one_assumed_broker() {
    use lbscope::engine::pulsar::Action;
    use lbscope::scenario::Body;
    let o = Options::default();
    let bundles = read("pulsar/bundles-only/bundles.json");
    let topics = read("pulsar/small/topics.txt");
    let stats = read("pulsar/cluster/topics-stats.txt");
    let assumed = |i: &Imported| {
        i.notices
            .iter()
            .find(|n| n.text.starts_with("no load report:"))
            .map(|n| n.text.clone())
            .unwrap_or_else(|| panic!("no assumption notice in {:?}", i.notices))
    };
    let setup = |i: &Imported| match &i.scenario.body {
        Body::Pulsar(l) => l.setup.clone(),
        _ => panic!("not a Pulsar scenario"),
    };
    // The topic list names public/default, so the bundles are taken for it.
    let listed = import(System::Pulsar, &[("b", &bundles), ("t", &topics)], &o).unwrap();
    let text = assumed(&listed);
    assert!(
        text.contains("one broker broker-1:8080 of lbscope's default capacity"),
        "{text}"
    );
    assert!(text.contains("owns all 7 bundles"), "{text}");
    assert!(text.contains("every bundle's load is zero"), "{text}");
    assert!(text.contains("the pulsar-5.0 profile"), "{text}");
    let s = setup(&listed);
    // Boundaries as given (7 uneven bundles), not the profile's 32.
    assert!(
        matches!(&s[0], Action::CreateNamespaceWithBoundaries { namespace, boundaries }
        if namespace == "public/default" && boundaries.len() == 8 && boundaries[1] == 0x2000_0000)
    );
    let assigned = s
        .iter()
        .filter(|a| matches!(a, Action::AssignBundle { broker, .. } if broker == "broker-1:8080"))
        .count();
    assert_eq!(assigned, 7);
    assert!(!s.iter().any(|a| matches!(a, Action::SetTopicTraffic { .. })));
    // The replayed log: each real bundle assigned to the one broker.
    let log = run::to_text(&run::event_log(&listed.scenario).unwrap());
    for r in [
        "0x00000000_0x20000000",
        "0x80000000_0xc0000000",
        "0xe0000000_0xffffffff",
    ] {
        assert!(
            log.contains(&format!("bundle public/default/{r} assigned to broker-1:8080")),
            "{log}"
        );
    }
    // With topics stats, the load is their traffic.
    // (These stats name two namespaces: --namespace says whose bundles they are.)
    let ns = opts(|o| o.namespace = Some("public/default".into()));
    let with_stats = import(System::Pulsar, &[("b", &bundles), ("s", &stats)], &ns).unwrap();
    assert!(assumed(&with_stats).contains("the load is the topics stats' traffic"));
    assert!(setup(&with_stats)
        .iter()
        .any(|a| matches!(a, Action::SetTopicTraffic { .. })));
    // Alone, the bundles are taken for public/default and say so.
    let alone = import(System::Pulsar, &[("b", &bundles)], &o).unwrap();
    assert!(alone.notices.iter().any(|n| n.input == "b"
        && n.text.starts_with(
            "no load report or topic names a namespace: taken as the bundles of public/default"
        )));
    let other = import(
        System::Pulsar,
        &[("b", &bundles)],
        &opts(|o| o.namespace = Some("shop/orders".into())),
    )
    .unwrap();
    assert!(
        matches!(&setup(&other)[0], Action::CreateNamespaceWithBoundaries { namespace, .. }
        if namespace == "shop/orders")
    );
}

/// `lbscope import pulsar bundles.json` alone: the scenario on stdout, and the
/// assumed broker, ownership and load said on stderr.
#[test]
fn cli_imports_pulsar_bundles_alone() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lbscope"))
        .args(["import", "pulsar"])
        .arg(dir().join("pulsar/bundles-only/bundles.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "lbscope: notice: import: no load report: the bundle boundaries are real, the brokers and loads are \
             assumed: one broker broker-1:8080"
        ),
        "{stderr}"
    );
    let sc = Scenario::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    let log = run::to_text(&run::event_log(&sc).unwrap());
    assert!(
        log.contains("namespace public/default created with 7 bundles at the given boundaries"),
        "{log}"
    );
}

/// The binary end to end: `lbscope import … > x.json && lbscope run x.json`.
#[test]
fn cli_import_then_run() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_lbscope");
    let tmp = std::env::temp_dir().join(format!("lbscope-imports-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let d = dir();
    let p = |rel: &str| d.join(rel).to_string_lossy().into_owned();
    let runs: [(&str, Vec<String>); 3] = [
        (
            "kstreams",
            vec![
                p("kstreams/wordcount.describe.txt"),
                "--partitions".into(),
                "lines=4".into(),
                "--instances".into(),
                "2".into(),
            ],
        ),
        (
            "flink",
            vec![p("flink/fraud.job.json"), p("flink/taskmanagers.json")],
        ),
        (
            "pulsar",
            vec![
                p("pulsar/small/bundles.json"),
                p("pulsar/small/broker-1.load-report.json"),
                p("pulsar/small/topics.txt"),
            ],
        ),
    ];
    for (sys, args) in runs {
        let out = Command::new(bin)
            .arg("import")
            .arg(sys)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{sys}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("lbscope: notice: "), "{sys}: {stderr}");
        let file = tmp.join(format!("{sys}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        let run = Command::new(bin)
            .arg("run")
            .arg(&file)
            .args(["--rounds", "1"])
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{sys}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(String::from_utf8_lossy(&run.stdout).contains("final state:"));
    }
    // `-` reads stdin.
    let mut child = Command::new(bin)
        .args(["import", "kstreams", "-", "--partitions", "lines=2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(read("kstreams/wordcount.describe.txt").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(Scenario::from_json(&String::from_utf8_lossy(&out.stdout)).is_ok());
    // Errors go to stderr with a non-zero exit.
    let cases: [(&[&str], &str); 4] = [
        (
            &["import", "kstreams", "/nonexistent/topology.txt"],
            "lbscope: cannot read /nonexistent/topology.txt:",
        ),
        (
            &["import", "kstreams", "-", "--partitions", "lines"],
            "lbscope: --partitions lines: expected TOPIC=N",
        ),
        (
            &["import", "kstreams", "-", "--partitions", "lines=many"],
            "lbscope: --partitions lines=many: \"many\" is not a whole number",
        ),
        (
            &["import", "kstreams", "-", "-"],
            "lbscope: `-` (stdin) is given twice",
        ),
    ];
    for (args, want) in cases {
        let out = Command::new(bin)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(e.starts_with(want), "{args:?}: {e}");
    }
    let bin_file = tmp.join("binary.txt");
    std::fs::write(&bin_file, [b'T', 0xff, 0xfe, b'\n']).unwrap();
    let out = Command::new(bin)
        .args(["import", "kstreams"])
        .arg(&bin_file)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8 text (byte 1 is not valid UTF-8)"));
    let _ = std::fs::remove_dir_all(&tmp);
}
