//! The scenario format's documentation and its compatibility promises.

use lbscope::engine::{flink, kstreams, pulsar};
use lbscope::scenario::{url, Body, Scenario};
use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `FooBar` -> `foo_bar`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The `op` names of a system's `Action` enum, read from its source.
fn ops_in_source(system: &str) -> BTreeSet<String> {
    // The enum lives in the system's `action.rs`, or in its `mod.rs`.
    let dir = root().join(format!("src/engine/{system}"));
    let src = std::fs::read_to_string(dir.join("action.rs"))
        .or_else(|_| std::fs::read_to_string(dir.join("mod.rs")))
        .unwrap();
    // Written at the top level or indented inside `tagged_enum!`.
    let start = src.find("pub enum Action {").expect("Action enum");
    let indent = &src[src[..start].rfind('\n').map_or(0, |i| i + 1)..start];
    let variant = format!("{indent}    ");
    let body = &src[start..];
    let end = body.find(&format!("\n{indent}}}")).unwrap();
    body[..end]
        .lines()
        .skip(1)
        .filter_map(|l| {
            let t = l.strip_prefix(variant.as_str())?;
            let first = t.chars().next()?;
            first.is_ascii_uppercase().then(|| {
                let name: String = t.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
                snake(&name)
            })
        })
        .collect()
}

/// The JSON examples under `### <system>` in docs/scenario.md.
fn doc_examples(system: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/scenario.md")).unwrap();
    let section = doc.split(&format!("### {system}\n")).nth(1).expect("section");
    let section = section
        .split("\n### ")
        .next()
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().to_string())
        .collect()
}

fn check<A: serde::de::DeserializeOwned + serde::Serialize>(system: &str) {
    let mut seen = BTreeSet::new();
    for ex in doc_examples(system) {
        let a: A = serde_json::from_str(&ex).unwrap_or_else(|e| panic!("{system} example {ex}: {e}"));
        let v = serde_json::to_value(&a).unwrap();
        seen.insert(v["op"].as_str().unwrap().to_string());
    }
    let all = ops_in_source(system);
    assert!(all.len() >= 8, "{system}: found only {all:?}");
    let missing: Vec<_> = all.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "docs/scenario.md lacks {system} examples for {missing:?}"
    );
}

#[test]
fn every_action_has_a_parsing_example_in_the_docs() {
    check::<pulsar::Action>("pulsar");
    check::<flink::Action>("flink");
    check::<kstreams::Action>("kstreams");
}

/// A share link written by format version 1. It must open forever.
const GOLDEN_V1: &str = "http://127.0.0.1:8080/#s=1.zVLLagMxDPwXnTf7SAtt_SslGK-tDabrB7Z8WBb_e2WyJQR66K3xRePRSIxgdlhCcopATB2gv1qPIGDsp36EDjKiAfHGYMuEjjuxrFklbungF3sFsdcmoxJBfO4QuIAyRs4pfGHTHUAc4DS1WRWVtrTxNOhYpA4JM4j3fuzAoQtpk27m__RxbpSxCTXJXzreamk9U7YdMPL7YUOhR7rW7i_2zs9t7-Xf7emEilB65TCzD2RDd9zyMa9WDwYXVVZqFxRv1ubvtV46UJps8PmelWMdhWg1q2-V12DKliPnSQzD487BbaebrF7qNw";

#[test]
fn golden_v1_link_still_opens() {
    let sc = url::decode(GOLDEN_V1).expect("the v1 golden link decodes");
    assert_eq!(sc.format, 1);
    let Body::Pulsar(log) = &sc.body else {
        panic!("a pulsar scenario")
    };
    assert_eq!(log.setup.len(), 4);
    // Version 1 configs were written against the 4.x defaults: they keep that
    // meaning, read with the pulsar-4.2 profile (the one that build called 4.x).
    assert_eq!(log.config.profile, pulsar::config::Profile::Pulsar4);
    assert!(
        sc.to_json().contains(r#""profile": "pulsar-4.2""#),
        "{}",
        sc.to_json()
    );
    assert_eq!(
        log.actions,
        vec![pulsar::Action::CreateTopic {
            topic: "persistent://public/default/my-topic".into()
        }]
    );
    let events = lbscope::scenario::run::event_log(&sc).unwrap();
    assert!(events.iter().any(|e| e.text.contains("crc32 = 0x2bad45f7")));
}

#[test]
fn the_example_in_the_docs_is_a_valid_scenario() {
    let doc = std::fs::read_to_string(root().join("docs/scenario.md")).unwrap();
    let first = doc
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let sc = Scenario::from_json(first).unwrap();
    assert_eq!(sc.cursor, Some(1));
    lbscope::scenario::run::event_log(&sc).unwrap();
}
