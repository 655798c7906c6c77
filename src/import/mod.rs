//! "Bring your own cluster": turn what the real systems print into the setup
//! actions of one lbscope [`Scenario`].
//!
//! * Kafka Streams: the text of `Topology#describe()` ([`kstreams`]) and, for the
//!   partition counts, `kafka-topics.sh --describe` ([`kafka_topics`]).
//! * Flink: the JSON of `StreamExecutionEnvironment#getExecutionPlan()` (operators
//!   before chaining; [`flink_plan`] applies Flink's chaining rules), the REST
//!   API's `/jobs/:jobid/plan` and `/jobs/:jobid` (job vertices after chaining),
//!   and `/taskmanagers` ([`flink_rest`]); [`flink`] builds the scenario.
//! * Pulsar: `pulsar-admin namespaces bundles`, `broker-stats load-report`,
//!   `namespaces topics` and `topics stats` ([`pulsar_admin`]); [`pulsar`] builds
//!   the scenario.
//!
//! [`import`] takes the inputs as `(name, text)` pairs (no file system here: the
//! CLI reads the files, the playground reads a paste) and returns the scenario
//! and the notices: every field of the input that lbscope does not use, and every
//! value it had to assume, is named in a [`Notice`], never dropped silently.
//!
//! Everything is bounded: each input's size ([`MAX_INPUT_BYTES`]), the JSON values
//! read ([`MAX_JSON_VALUES`]), names ([`MAX_NAME_CHARS`]) and the counts each
//! system's importer caps; bad input is an [`ImportError`] naming the input and
//! the line or field, never a panic.

pub mod flink;
pub mod flink_plan;
pub mod flink_rest;
mod json;
pub mod kafka_topics;
pub mod kstreams;
mod options;
pub mod pulsar;
pub mod pulsar_admin;

use crate::engine::System;
use crate::scenario::Scenario;
use crate::sort::StableSort;
pub use options::{hint, OptionField, OptionKind, Options, OPTION_FIELDS};
use serde::Serialize;
use std::fmt;

/// Largest input, in bytes (a paste or one file).
pub const MAX_INPUT_BYTES: usize = 32 << 20;
/// Largest total over all inputs of one import.
pub const MAX_TOTAL_BYTES: usize = 64 << 20;
/// Most inputs one import reads (e.g. one load report per broker).
pub const MAX_INPUTS: usize = 2_000;
/// Most JSON values (objects, arrays, numbers, strings...) read from one input.
pub const MAX_JSON_VALUES: usize = 1_000_000;
/// Longest name (topic, store, operator, broker...) kept, in characters.
pub const MAX_NAME_CHARS: usize = 1_000;
/// Most notices returned (the last one says how many more were left out).
pub const MAX_NOTICES: usize = 200;

/// Something the user should know about an import: a field lbscope does not use,
/// a value it assumed, a rule the input could not show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The input it is about (its name), or `"import"` for the whole import.
    pub input: String,
    /// What to know.
    pub text: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.input, self.text)
    }
}

/// A successful import.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The scenario: config, setup actions, and (Flink) one `schedule`.
    pub scenario: Scenario,
    /// What was not used or was assumed, in input order.
    pub notices: Vec<Notice>,
    /// Each input's name and what it was read as.
    pub inputs: Vec<(String, InputKind)>,
}

/// Why an import failed. Every message names the input and, where there is one,
/// the line or the JSON field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Nothing to import.
    #[error("no input given: {0}")]
    NoInput(&'static str),
    /// An input of another system or format.
    #[error("{input}: this looks like {found}, not {expected}{hint}")]
    WrongKind {
        /// Input name.
        input: String,
        /// What it looks like.
        found: &'static str,
        /// What the import wanted.
        expected: &'static str,
        /// How to import it instead.
        hint: String,
    },
    /// An input too large, or with too many of something.
    #[error("{input}: {message}")]
    TooLarge {
        /// Input name.
        input: String,
        /// What and the limit.
        message: String,
    },
    /// An input that does not parse, or a value out of range.
    #[error("{input}: {message}")]
    Bad {
        /// Input name.
        input: String,
        /// Where (line or field) and what.
        message: String,
    },
    /// Something no input gave and an option can: the message says which.
    #[error("{0}")]
    Missing(String),
    /// An option that does not apply or has a bad value.
    #[error("{0}")]
    BadOption(String),
    /// The scenario built from the inputs was refused by the engine.
    #[error("the imported cluster was refused at setup action {} ({action}): {message}", index + 1)]
    Refused {
        /// Setup position.
        index: usize,
        /// The action's `op`.
        action: String,
        /// The engine's message.
        message: String,
    },
}

impl ImportError {
    pub(crate) fn bad(input: &str, message: impl Into<String>) -> ImportError {
        ImportError::Bad {
            input: input.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn too_large(input: &str, message: impl Into<String>) -> ImportError {
        ImportError::TooLarge {
            input: input.to_string(),
            message: message.into(),
        }
    }
}

/// What an input was recognised as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// Kafka Streams' `Topology#describe()` text.
    TopologyDescription,
    /// `kafka-topics.sh --describe` output.
    KafkaTopicsDescribe,
    /// Flink's `StreamExecutionEnvironment#getExecutionPlan()` JSON (before chaining).
    FlinkExecutionPlan,
    /// Flink REST `/jobs/:jobid/plan` (job vertices after chaining).
    FlinkJobPlan,
    /// Flink REST `/jobs/:jobid` (job details: vertices with slot sharing groups, and the plan).
    FlinkJobDetails,
    /// Flink REST `/taskmanagers`.
    FlinkTaskManagers,
    /// `pulsar-admin namespaces bundles NS` (BundlesData).
    PulsarBundles,
    /// `pulsar-admin broker-stats load-report` of the modular load manager (LocalBrokerData).
    PulsarLocalBrokerData,
    /// `pulsar-admin broker-stats load-report` of the simple load manager (LoadReport).
    PulsarLoadReport,
    /// `pulsar-admin namespaces topics NS` / `topics list NS` (one name a line, or a JSON array).
    PulsarTopicList,
    /// `pulsar-admin topics stats TOPIC` (or `partitioned-stats`), each after its topic's name.
    PulsarTopicStats,
    /// A `topics stats` JSON without the topic name it belongs to.
    PulsarUnnamedTopicStats,
    /// An lbscope scenario.
    LbscopeScenario,
    /// Empty input.
    Empty,
    /// Nothing lbscope reads.
    Unknown,
}

impl InputKind {
    /// The system the input belongs to.
    pub fn system(self) -> Option<System> {
        use InputKind::*;
        match self {
            TopologyDescription | KafkaTopicsDescribe => Some(System::Kstreams),
            FlinkExecutionPlan | FlinkJobPlan | FlinkJobDetails | FlinkTaskManagers => Some(System::Flink),
            PulsarBundles
            | PulsarLocalBrokerData
            | PulsarLoadReport
            | PulsarTopicList
            | PulsarTopicStats
            | PulsarUnnamedTopicStats => Some(System::Pulsar),
            LbscopeScenario | Empty | Unknown => None,
        }
    }

    /// What it is, in words ("a Flink execution plan (...)").
    pub fn title(self) -> &'static str {
        use InputKind::*;
        match self {
            TopologyDescription => "a Kafka Streams Topology#describe() text",
            KafkaTopicsDescribe => "a kafka-topics.sh --describe output",
            FlinkExecutionPlan => "a Flink execution plan (StreamExecutionEnvironment#getExecutionPlan())",
            FlinkJobPlan => "a Flink job plan (REST /jobs/:jobid/plan)",
            FlinkJobDetails => "a Flink job's details (REST /jobs/:jobid)",
            FlinkTaskManagers => "a Flink TaskManager list (REST /taskmanagers)",
            PulsarBundles => "a Pulsar bundle list (pulsar-admin namespaces bundles)",
            PulsarLocalBrokerData => "a Pulsar load report (pulsar-admin broker-stats load-report)",
            PulsarLoadReport => {
                "a Pulsar load report of the simple load manager (pulsar-admin broker-stats load-report)"
            }
            PulsarTopicList => "a Pulsar topic list (pulsar-admin namespaces topics)",
            PulsarTopicStats => "Pulsar topic stats (pulsar-admin topics stats)",
            PulsarUnnamedTopicStats => {
                "Pulsar topic stats (pulsar-admin topics stats) without the topic's name"
            }
            LbscopeScenario => "an lbscope scenario",
            Empty => "an empty input",
            Unknown => "nothing lbscope can import",
        }
    }
}

/// Whether `s` is a full Pulsar topic name (`persistent://t/ns/x` or `non-persistent://…`).
pub fn looks_like_topic_name(s: &str) -> bool {
    let s = s.trim();
    (s.starts_with("persistent://") || s.starts_with("non-persistent://"))
        && !s.contains(char::is_whitespace)
        && s.matches('/').count() >= 4
}

/// Recognise an input by its shape (cheap: JSON is read for its top-level keys
/// only, text for its first meaningful lines).
pub fn detect(text: &str) -> InputKind {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.is_empty() {
        return InputKind::Empty;
    }
    if matches!(t.as_bytes()[0], json::OBJECT_OPEN | json::ARRAY_OPEN) {
        return json::detect(t);
    }
    let mut lines = t.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.next() else {
        return InputKind::Empty;
    };
    if first.starts_with("Topologies:")
        || first.starts_with("Topology: ")
        || first.starts_with("Sub-topologies:")
        || first.starts_with("Sub-topology: ")
    {
        return InputKind::TopologyDescription;
    }
    if first.starts_with("Topic:") && first.contains("PartitionCount:") {
        return InputKind::KafkaTopicsDescribe;
    }
    if looks_like_topic_name(first) {
        // A name followed by a JSON object is a stats block; names alone a list.
        let after = t[t.find(first).map_or(0, |i| i + first.len())..].trim_start();
        return if after.as_bytes().first() == Some(&json::OBJECT_OPEN) {
            InputKind::PulsarTopicStats
        } else {
            InputKind::PulsarTopicList
        };
    }
    InputKind::Unknown
}

/// Import `inputs` (`(name, text)` pairs) as a scenario of `system`.
///
/// The inputs may come in any order; each is recognised by [`detect`]. What the
/// inputs lack and `options` do not give is asked for in the error.
pub fn import(system: System, inputs: &[(&str, &str)], options: &Options) -> Result<Imported, ImportError> {
    if inputs.is_empty() {
        return Err(ImportError::NoInput(match system {
            System::Kstreams => "give the text Topology#describe() prints",
            System::Flink => "give the JSON of getExecutionPlan() or of the REST API's /jobs/:jobid/plan",
            System::Pulsar => "give pulsar-admin's load reports, bundles and topics",
        }));
    }
    if inputs.len() > MAX_INPUTS {
        return Err(ImportError::too_large(
            "import",
            format!(
                "{} inputs is more than the {MAX_INPUTS} lbscope reads at once",
                inputs.len()
            ),
        ));
    }
    options::check_options(system, options)?;
    let mut total = 0usize;
    let mut kinds = Vec::with_capacity(inputs.len());
    for (name, text) in inputs {
        if text.len() > MAX_INPUT_BYTES {
            return Err(ImportError::too_large(
                name,
                format!(
                    "{} bytes is more than the {} MiB lbscope reads from one input",
                    text.len(),
                    MAX_INPUT_BYTES >> 20
                ),
            ));
        }
        total += text.len();
        if total > MAX_TOTAL_BYTES {
            return Err(ImportError::too_large(
                name,
                format!("the inputs add up to more than {} MiB", MAX_TOTAL_BYTES >> 20),
            ));
        }
        let kind = detect(text);
        match kind.system() {
            Some(s) if s == system => {}
            Some(s) => {
                return Err(ImportError::WrongKind {
                    input: name.to_string(),
                    found: kind.title(),
                    expected: options::expected(system),
                    hint: format!(": import it with `lbscope import {} ...`", s.slug()),
                })
            }
            None => {
                let hint = match kind {
                    InputKind::LbscopeScenario => ": run it with `lbscope run FILE`".to_string(),
                    InputKind::Empty => String::new(),
                    _ => format!(" (its first line is {:?})", first_line(text)),
                };
                return Err(ImportError::WrongKind {
                    input: name.to_string(),
                    found: kind.title(),
                    expected: options::expected(system),
                    hint,
                });
            }
        }
        kinds.push(((*name).to_string(), kind));
    }
    let inputs: Vec<Input<'_>> = inputs
        .iter()
        .zip(&kinds)
        .map(|((name, text), (_, kind))| Input {
            name,
            text,
            kind: *kind,
        })
        .collect();
    let mut notes = Notes::default();
    let scenario = match system {
        System::Kstreams => kstreams::build(&inputs, options, &mut notes)?,
        System::Flink => flink::build(&inputs, options, &mut notes)?,
        System::Pulsar => pulsar::build(&inputs, options, &mut notes)?,
    };
    check_replays(&scenario)?;
    Ok(Imported {
        scenario,
        notices: notes.finish(),
        inputs: kinds,
    })
}

/// The built scenario must replay: an engine refusal is reported with the
/// action's position (a bug in the importer or a value the engine bounds).
fn check_replays(sc: &Scenario) -> Result<(), ImportError> {
    use crate::engine::{flink, kstreams, pulsar};
    use crate::scenario::{replay, Body, ScenarioError};
    sc.validate()
        .map_err(|e| ImportError::too_large("import", e.to_string()))?;
    fn op<A: Serialize>(a: Option<&A>) -> String {
        a.and_then(|a| serde_json::to_value(a).ok())
            .and_then(|v| v.get("op").and_then(|o| o.as_str()).map(str::to_string))
            .unwrap_or_default()
    }
    let mut empty = sc.clone();
    // Only the setup is checked here; the log is the user's to replay.
    let r: Result<(), (ScenarioError, String)> = match &mut empty.body {
        Body::Pulsar(l) => {
            l.actions.clear();
            replay::<pulsar::Sim>(sc.seed, l, None).map(|_| ()).map_err(|e| {
                let i = refused_index(&e);
                (e, op(l.setup.get(i)))
            })
        }
        Body::Flink(l) => {
            l.actions.clear();
            replay::<flink::Sim>(sc.seed, l, None).map(|_| ()).map_err(|e| {
                let i = refused_index(&e);
                (e, op(l.setup.get(i)))
            })
        }
        Body::Kstreams(l) => {
            l.actions.clear();
            replay::<kstreams::Sim>(sc.seed, l, None)
                .map(|_| ())
                .map_err(|e| {
                    let i = refused_index(&e);
                    (e, op(l.setup.get(i)))
                })
        }
    };
    match r {
        Ok(()) => Ok(()),
        Err((ScenarioError::Refused { index, message, .. }, action)) => Err(ImportError::Refused {
            index,
            action,
            message,
        }),
        Err((e, action)) => Err(ImportError::Refused {
            index: 0,
            action,
            message: e.to_string(),
        }),
    }
}

fn refused_index(e: &crate::scenario::ScenarioError) -> usize {
    match e {
        crate::scenario::ScenarioError::Refused { index, .. } => *index,
        _ => 0,
    }
}

/// The first non-empty line of a text, cut to 80 characters (for messages).
fn first_line(text: &str) -> String {
    let l = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    shorten(l, 80)
}

/// One recognised input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Input<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub kind: InputKind,
}

/// Notices as they are collected: deduplicated, capped.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    list: Vec<Notice>,
    dropped: usize,
}

impl Notes {
    /// Add a notice about `input`.
    pub fn add(&mut self, input: &str, text: impl Into<String>) {
        let n = Notice {
            input: input.to_string(),
            text: text.into(),
        };
        if self.list.contains(&n) {
            return;
        }
        if self.list.len() >= MAX_NOTICES - 1 {
            self.dropped += 1;
        } else {
            self.list.push(n);
        }
    }

    /// Name the fields of `input` that lbscope does not read (sorted, capped).
    pub fn unused_fields(&mut self, input: &str, what: &str, fields: impl IntoIterator<Item = String>) {
        let mut f: Vec<String> = fields.into_iter().collect();
        f.stable_sort();
        f.dedup();
        if f.is_empty() {
            return;
        }
        let shown: Vec<String> = f.iter().take(40).map(|s| shorten(s, 60)).collect();
        let more = if f.len() > shown.len() {
            format!(" and {} more", f.len() - shown.len())
        } else {
            String::new()
        };
        self.add(
            input,
            format!("{what} fields not used by lbscope: {}{more}", shown.join(", ")),
        );
    }

    fn finish(mut self) -> Vec<Notice> {
        if self.dropped > 0 {
            self.list.push(Notice {
                input: "import".into(),
                text: format!("{} more notices left out", self.dropped),
            });
        }
        self.list
    }
}

/// `s` cut to `max` characters, with an ellipsis when cut.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A name safe to show in event logs and terminals: control characters,
/// bidirectional overrides and the other [`crate::safe_text::is_unsafe`]
/// characters become U+FFFD, and it is cut to [`MAX_NAME_CHARS`].
/// Returns whether anything was changed.
pub(crate) fn clean_name(s: &str) -> (String, bool) {
    let mut changed = false;
    let mut out = String::with_capacity(s.len().min(MAX_NAME_CHARS * 4));
    for (i, c) in s.chars().enumerate() {
        if i >= MAX_NAME_CHARS {
            out.push('…');
            changed = true;
            break;
        }
        if crate::safe_text::is_unsafe(c) {
            out.push('\u{FFFD}');
            changed = true;
        } else {
            out.push(c);
        }
    }
    (out, changed)
}

/// `1234567` as `1,234,567` (for limits in messages).
pub(crate) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detect_recognises_each_format() {
        let cases: [(&str, InputKind); 12] = [
            ("", InputKind::Empty),
            (
                "Topologies:\n   Sub-topology: 0\n",
                InputKind::TopologyDescription,
            ),
            (
                "Topic: a\tTopicId: x\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: \n",
                InputKind::KafkaTopicsDescribe,
            ),
            (
                r#"{"nodes":[{"id":1,"pact":"Data Source"}]}"#,
                InputKind::FlinkExecutionPlan,
            ),
            (r#"{"plan":{"jid":"x","nodes":[]}}"#, InputKind::FlinkJobPlan),
            (
                r#"{"jid":"x","vertices":[],"plan":{}}"#,
                InputKind::FlinkJobDetails,
            ),
            (r#"{"taskmanagers":[]}"#, InputKind::FlinkTaskManagers),
            (
                r#"{"boundaries":["0x00000000","0xffffffff"],"numBundles":1}"#,
                InputKind::PulsarBundles,
            ),
            (
                "persistent://public/default/a\npersistent://public/default/b\n",
                InputKind::PulsarTopicList,
            ),
            (
                "persistent://public/default/a\n{\"msgRateIn\": 1}\n",
                InputKind::PulsarTopicStats,
            ),
            (
                r#"{"format":1,"seed":1,"system":"pulsar"}"#,
                InputKind::LbscopeScenario,
            ),
            ("hello", InputKind::Unknown),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text), want, "{text}");
        }
    }

    #[test]
    fn names_are_cleaned_and_cut() {
        assert_eq!(
            clean_name("a\u{202E}b\nc"),
            ("a\u{FFFD}b\u{FFFD}c".to_string(), true)
        );
        assert_eq!(clean_name("plain"), ("plain".to_string(), false));
        let long = "x".repeat(MAX_NAME_CHARS + 5);
        let (c, changed) = clean_name(&long);
        assert!(changed);
        assert_eq!(c.chars().count(), MAX_NAME_CHARS + 1);
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(shorten("abcdef", 4), "abc…");
    }

    #[test]
    fn options_of_another_system_are_refused() {
        let o = Options {
            task_managers: Some(2),
            ..Options::default()
        };
        let err = import(System::Kstreams, &[("t", "Topologies:\n")], &o).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--task-managers is an option of `lbscope import flink`, not of `lbscope import kstreams`"
        );
    }
}
