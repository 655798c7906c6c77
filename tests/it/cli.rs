//! The `lbscope` binary end to end: exit codes, stdout and stderr.

use std::process::Command;

fn lbscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lbscope"))
        .args(args)
        .output()
        .expect("run lbscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("lbscope-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

const SCENARIO: &str = r#"{"format":1,"seed":1,"system":"pulsar",
 "setup":[{"op":"create_namespace","namespace":"public/default","bundles":4}],
 "actions":[{"op":"create_topic","topic":"my-topic"}]}"#;

#[test]
fn version_and_ring() {
    let (code, out, _) = lbscope(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("lbscope "), "{out}");
    let (code, out, _) = lbscope(&["ring", "--bundles", "4", "persistent://public/default/my-topic"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "persistent://public/default/my-topic\t0x2bad45f7\t0x00000000_0x40000000\n"
    );
    let (code, _, err) = lbscope(&["ring", "--bundles", "0", "x"]);
    assert_ne!(code, 0);
    assert!(err.contains("at least 1"), "{err}");
}

#[test]
fn run_url_decode_round_trip() {
    let f = write("ok.json", SCENARIO);
    let (code, out, _) = lbscope(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("[action 1] topic persistent://public/default/my-topic: crc32 = 0x2bad45f7"),
        "{out}"
    );
    let (code, json, _) = lbscope(&["run", f.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["events"][1]["event"]["hash"], 0x2bad45f7u32);
    assert_eq!(v["events"][1]["subject"][0], "topic");
    assert_eq!(
        v["state"]["namespaces"][0]["bundles"].as_array().unwrap().len(),
        4
    );
    // --rounds appends Step actions.
    let (code, out, _) = lbscope(&["run", f.to_str().unwrap(), "--rounds", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("[round 2] round 2"), "{out}");
    assert!(out.contains("final state:"));
    let (code, link, _) = lbscope(&["url", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(link.starts_with("http://127.0.0.1:8080/#s=2."));
    let (code, decoded, _) = lbscope(&["decode", link.trim()]);
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&decoded).unwrap();
    assert_eq!(a["actions"][0]["topic"], "my-topic");
}

#[test]
fn errors_go_to_stderr_with_nonzero_exit() {
    let bad = write("bad.json", "{ not json");
    let (code, out, err) = lbscope(&["run", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(err.contains("not valid JSON"), "{err}");
    let (code, _, err) = lbscope(&["decode", "http://x/#s=1.AAAA"]);
    assert_ne!(code, 0);
    assert!(err.contains("lbscope:"), "{err}");
    let refused = write("refused.json", &SCENARIO.replace("my-topic", "x/y/z"));
    let (code, _, err) = lbscope(&["run", refused.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("refused"), "{err}");
}

/// `run --profile` replays one scenario under another version. AvgShedder's
/// broker sort is the difference between pulsar-4.0 (4.0.0 to 4.0.7) and
/// pulsar-4.2: before apache/pulsar#24954 the comparator was
/// `(int) (score1 - score2)`, so b (20.5) and c (20.0) compare equal. Java's
/// sort of [a 70, b 20.5, c 20, d 95] (under 32 elements: the first run
/// [a, b] reversed, then binary insertion) gives [b, c, a, d], so d pairs with
/// b (74.5); `Double.compare` gives [c, b, a, d] and d pairs with c (75).
#[test]
fn run_profile_replays_under_another_version() {
    const AVG: &str = r#"{"format":2,"seed":1,"system":"pulsar",
     "config":{"profile":"pulsar-4.2","loadBalancerLoadSheddingStrategy":"AvgShedder"},
     "setup":[{"op":"add_broker","broker":"a"},{"op":"add_broker","broker":"b"},
      {"op":"add_broker","broker":"c"},{"op":"add_broker","broker":"d"},
      {"op":"set_broker_load","broker":"a","usage":{"cpu":70.0}},
      {"op":"set_broker_load","broker":"b","usage":{"cpu":20.5}},
      {"op":"set_broker_load","broker":"c","usage":{"cpu":20.0}},
      {"op":"set_broker_load","broker":"d","usage":{"cpu":95.0}}],
     "actions":[{"op":"report"},{"op":"shed"}]}"#;
    let f = write("profile.json", AVG);
    let path = f.to_str().unwrap();
    let pairs = |args: &[&str]| {
        let (code, out, err) = lbscope(args);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .filter(|l| l.contains("AvgShedder: pair"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let own = pairs(&["run", path]);
    assert_eq!(own, pairs(&["run", path, "--profile", "pulsar-4.2"]));
    assert!(
        own[0].contains("pair d (95.0) / c (20.0): difference 75.0"),
        "{own:?}"
    );
    let old = pairs(&["run", path, "--profile", "pulsar-4.0"]);
    assert!(
        old[0].contains("pair d (95.0) / b (20.5): difference 74.5"),
        "{old:?}"
    );
    assert!(
        old[1].contains("pair a (70.0) / c (20.0): difference 50.0"),
        "{old:?}"
    );
    // 5.0 has the fixed comparator too; the scenario's AvgShedder is kept.
    assert_eq!(own, pairs(&["run", path, "--profile", "pulsar-5.0"]));
    // The older name of the 4.2 profile still reads, with the same behaviour.
    let legacy = write("profile-4x.json", &AVG.replace("pulsar-4.2", "pulsar-4.x"));
    assert_eq!(own, pairs(&["run", legacy.to_str().unwrap()]));

    let (code, out, err) = lbscope(&["run", path, "--profile", "pulsar-9"]);
    assert_ne!(code, 0);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(
            "unknown profile `pulsar-9` for Pulsar; its profiles are pulsar-5.0, pulsar-4.2, pulsar-4.0"
        ),
        "{err}"
    );
    // The sweep replays under a profile too.
    let (code, _, err) = lbscope(&["sweep", path, "--seeds", "2", "--profile", "pulsar-4.0"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = lbscope(&["sweep", path, "--seeds", "2", "--profile", "4.0"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("its profiles are pulsar-5.0, pulsar-4.2, pulsar-4.0"),
        "{err}"
    );
    for p in [f, legacy] {
        std::fs::remove_file(p).ok();
    }
}
