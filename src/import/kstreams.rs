//! Kafka Streams: the text `Topology#describe()` prints, read as
//! `InternalTopologyBuilder.TopologyDescription#toString` writes it today:
//!
//! ```text
//! Topologies:
//!    Sub-topology: 0
//!     Source: KSTREAM-SOURCE-0000000000 (topics: [orders])
//!       --> KSTREAM-MAP-0000000001
//!     Processor: KSTREAM-MAP-0000000001 (stores: [])
//!       --> KSTREAM-SINK-0000000003
//!       <-- KSTREAM-SOURCE-0000000000
//!     Sink: KSTREAM-SINK-0000000003 (topic: counts-repartition)
//!       <-- KSTREAM-MAP-0000000001
//!
//!   Sub-topology: 1 for global store (will not generate tasks)
//!     Source: KSTREAM-SOURCE-0000000004 (topics: [customers])
//!       --> KTABLE-SOURCE-0000000005
//!     Processor: KTABLE-SOURCE-0000000005 (stores: [customers-store])
//!       --> none
//!       <-- KSTREAM-SOURCE-0000000004
//! ```
//!
//! A named topology starts with `Topology: NAME:`; a pattern subscription prints
//! the pattern without brackets (`(topics: orders-.*)`; lbscope reads `[…]` as a
//! topic set unless its inside holds regex syntax); a sink with a
//! `TopicNameExtractor` prints `(extractor class: …)`. Kafka 1.0 wrote
//! `Sub-topologies:` / `Global Stores:` sections and `GlobalStore: NAME (topic: …)`
//! lines; those are read too.
//!
//! Mapping onto lbscope: every source topic becomes a `define_topic` (partition
//! counts from `--partitions` or `kafka-topics.sh --describe`); repartition
//! topics (written by one sub-topology, read by another, named `…-repartition`)
//! are named `<application.id>-<name>` and get the partition count Kafka's
//! `RepartitionTopics` computes (the largest partition count among the source
//! topics of the sub-topologies writing to them); each task-generating
//! sub-topology becomes one entry of `define_topology` with its source topics and
//! stores (changelogs follow as `<application.id>-<store>-changelog`).

use super::{clean_name, kafka_topics, shorten, thousands, ImportError, Input, InputKind, Notes, Options};
use crate::engine::kstreams::{self, SubtopologySpec};
use crate::engine::System;
use crate::scenario::{Body, Scenario};
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

/// Most nodes (sources, processors, sinks) read from one description.
pub const MAX_NODES: usize = 100_000;
/// Most sub-topologies read from one description.
pub const MAX_SUBTOPOLOGIES: usize = 10_000;
pub use super::kafka_topics::{check_topic_name, MAX_TOPIC_NAME};

/// A source's subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topics {
    /// `[a, b]`.
    Names(Vec<String>),
    /// A regex pattern.
    Pattern(String),
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// `Source: NAME (topics: …)`.
    Source(Topics),
    /// `Processor: NAME (stores: […])`.
    Processor(Vec<String>),
    /// `Sink: NAME (topic: T)`.
    Sink(String),
    /// `Sink: NAME (extractor class: …)`.
    SinkExtractor(String),
}

/// One node of a sub-topology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Name.
    pub name: String,
    /// What it is.
    pub kind: NodeKind,
    /// Line (1-based).
    pub line: usize,
    /// `-->` names (`none` is empty); `None` when the line is missing.
    pub successors: Option<Vec<String>>,
    /// `<--` names; `None` when the line is missing.
    pub predecessors: Option<Vec<String>>,
}

/// A `Sub-topology: N` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtopology {
    /// Its id.
    pub id: u32,
    /// Line of its header.
    pub line: usize,
    /// For a global store (`… for global store (will not generate tasks)`).
    pub global: bool,
    /// Nodes in the order printed.
    pub nodes: Vec<Node>,
}

/// A parsed `Topology#describe()` text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    /// `Topology: NAME:` (a named topology).
    pub named: Option<String>,
    /// Sub-topologies and global stores in the order printed.
    pub subtopologies: Vec<Subtopology>,
}

fn bad(input: &str, line: usize, msg: impl std::fmt::Display) -> ImportError {
    ImportError::bad(input, format!("line {line}: {msg}"))
}

/// A node or store name: kept as printed unless it holds control characters or
/// is longer than lbscope keeps.
fn check_name(input: &str, line: usize, what: &str, name: &str) -> Result<String, ImportError> {
    if name.is_empty() {
        return Err(bad(input, line, format!("an empty {what} name")));
    }
    let (clean, changed) = clean_name(name);
    if changed {
        return Err(bad(
            input,
            line,
            format!(
                "the {what} name {:?} has control characters or is longer than {} characters",
                shorten(&clean, 60),
                super::MAX_NAME_CHARS
            ),
        ));
    }
    Ok(clean)
}

/// `[a, b]` → names; `[]` → none.
fn bracket_list(s: &str) -> Option<Vec<String>> {
    let inner = s.strip_prefix('[')?.strip_suffix(']')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    Some(inner.split(", ").map(|x| x.trim().to_string()).collect())
}

/// `NAME (KEY: VALUE)` → (NAME, VALUE), with KEY one of `keys`.
fn name_and<'a>(rest: &'a str, keys: &[&'static str]) -> Option<(&'a str, &'static str, &'a str)> {
    let body = rest.strip_suffix(')')?;
    keys.iter().find_map(|k| {
        let pat = format!(" ({k}: ");
        let i = body.rfind(&pat)?;
        Some((&body[..i], *k, &body[i + pat.len()..]))
    })
}

/// Parse the names of a `-->` / `<--` line (`none` is empty).
fn arrow_list(s: &str) -> Vec<String> {
    let s = s.trim();
    if s == "none" || s.is_empty() {
        Vec::new()
    } else {
        s.split(", ").map(|x| x.trim().to_string()).collect()
    }
}

/// Parse a `Topology#describe()` text.
pub fn parse(input: &str, text: &str) -> Result<Description, ImportError> {
    let mut p = Parser {
        input,
        d: Description::default(),
        last: text.trim_end().lines().count(),
        nodes: 0,
        legacy_global: None,
        legacy_global_id: 0,
    };
    for (i, raw) in text.lines().enumerate() {
        p.line(i + 1, raw.trim())?;
    }
    validate(input, &p.d)?;
    Ok(p.d)
}

/// A description as it is read, line by line.
struct Parser<'a> {
    input: &'a str,
    d: Description,
    /// The last line's number (a malformed last line may be a cut).
    last: usize,
    /// Nodes read so far.
    nodes: usize,
    /// Kafka 1.0: the line of the `Global Stores:` header, once seen.
    legacy_global: Option<usize>,
    /// Kafka 1.0: the id the next `GlobalStore:` entry gets.
    legacy_global_id: u32,
}

impl Parser<'_> {
    /// Read one (trimmed) line.
    fn line(&mut self, n: usize, line: &str) -> Result<(), ImportError> {
        if line.is_empty() || line == "none" || line == "Topologies:" || line == "Sub-topologies:" {
            return Ok(());
        }
        if line == "Global Stores:" {
            // Kafka 1.0: `GlobalStore:` entries come after a `Global Stores:` header.
            self.legacy_global = Some(n);
            self.legacy_global_id = self.d.subtopologies.iter().map(|s| s.id + 1).max().unwrap_or(0);
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("Topology: ") {
            let name = rest.strip_suffix(':').unwrap_or(rest);
            self.d.named = Some(check_name(self.input, n, "topology", name)?);
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("Sub-topology: ") {
            return self.subtopology(n, line, rest);
        }
        if let Some(rest) = line.strip_prefix("GlobalStore: ") {
            return self.legacy_global_store(n, line, rest);
        }
        if let Some(rest) = line.strip_prefix("-->").or_else(|| line.strip_prefix("<--")) {
            return self.arrow(n, line, rest);
        }
        self.node(n, line)
    }

    /// `Sub-topology: N [for global store (will not generate tasks)]`.
    fn subtopology(&mut self, n: usize, line: &str, rest: &str) -> Result<(), ImportError> {
        let input = self.input;
        if self.d.subtopologies.len() >= MAX_SUBTOPOLOGIES {
            return Err(ImportError::too_large(
                input,
                format!(
                    "line {n}: more than {} sub-topologies",
                    thousands(MAX_SUBTOPOLOGIES)
                ),
            ));
        }
        let (id, global) = match rest.split_once(' ') {
            Some((id, tail)) if tail.trim() == "for global store (will not generate tasks)" => (id, true),
            Some(_) => {
                return Err(bad(
                    input,
                    n,
                    format!("not a sub-topology header: {:?}", shorten(line, 80)),
                ))
            }
            None => (rest, false),
        };
        let id: u32 = id.trim().parse().map_err(|_| {
            bad(
                input,
                n,
                format!("sub-topology id {:?} is not a whole number", shorten(id, 20)),
            )
        })?;
        if self.d.subtopologies.iter().any(|s| s.id == id) {
            return Err(bad(input, n, format!("sub-topology {id} is described twice")));
        }
        self.d.subtopologies.push(Subtopology {
            id,
            line: n,
            global,
            nodes: Vec::new(),
        });
        Ok(())
    }

    /// Kafka 1.0: `GlobalStore: SOURCE (topic: [t])` (then `--> PROC (store: S)`).
    fn legacy_global_store(&mut self, n: usize, line: &str, rest: &str) -> Result<(), ImportError> {
        let input = self.input;
        if self.legacy_global.is_none() {
            return Err(bad(
                input,
                n,
                "a GlobalStore line outside the Global Stores section",
            ));
        }
        let (name, _, topics) = name_and(rest, &["topic", "topics"]).ok_or_else(|| {
            bad(
                input,
                n,
                format!("not a GlobalStore line: {:?}", shorten(line, 80)),
            )
        })?;
        let topics = bracket_list(topics).unwrap_or_else(|| vec![topics.to_string()]);
        let name = check_name(input, n, "source", name)?;
        self.d.subtopologies.push(Subtopology {
            id: self.legacy_global_id,
            line: n,
            global: true,
            nodes: vec![Node {
                name,
                kind: NodeKind::Source(Topics::Names(topics)),
                line: n,
                successors: None,
                predecessors: Some(Vec::new()),
            }],
        });
        self.legacy_global_id += 1;
        Ok(())
    }

    /// A `-->` or `<--` line of the last node (or Kafka 1.0's global store processor).
    fn arrow(&mut self, n: usize, line: &str, rest: &str) -> Result<(), ImportError> {
        let input = self.input;
        let forward = line.starts_with("-->");
        let legacy_section = self.legacy_global.is_some();
        let Some(sub) = self.d.subtopologies.last_mut() else {
            return Err(bad(input, n, "an arrow line before any node"));
        };
        let legacy = legacy_section && sub.global && sub.nodes.len() == 1 && forward;
        let Some(node) = sub.nodes.last_mut() else {
            return Err(bad(input, n, "an arrow line before any node"));
        };
        if legacy && node.successors.is_none() && rest.contains(" (store: ") {
            // Kafka 1.0 global store: `--> PROC (store: S)`.
            let (proc_name, _, store) = name_and(rest.trim(), &["store"]).ok_or_else(|| {
                bad(
                    input,
                    n,
                    format!("not a global store line: {:?}", shorten(line, 80)),
                )
            })?;
            let proc_name = check_name(input, n, "processor", proc_name)?;
            let store = check_name(input, n, "store", store)?;
            node.successors = Some(vec![proc_name.clone()]);
            sub.nodes.push(Node {
                name: proc_name,
                kind: NodeKind::Processor(vec![store]),
                line: n,
                successors: Some(Vec::new()),
                predecessors: Some(vec![sub.nodes[0].name.clone()]),
            });
            return Ok(());
        }
        let slot = if forward {
            &mut node.successors
        } else {
            &mut node.predecessors
        };
        if slot.is_some() {
            return Err(bad(
                input,
                n,
                format!(
                    "a second {} line for {}",
                    if forward { "-->" } else { "<--" },
                    node.name
                ),
            ));
        }
        *slot = Some(arrow_list(rest));
        Ok(())
    }

    /// A `Source:`, `Processor:` or `Sink:` line: a new node of the last sub-topology.
    fn node(&mut self, n: usize, line: &str) -> Result<(), ImportError> {
        let input = self.input;
        let (kind_word, rest) = match line.split_once(": ") {
            Some((k @ ("Source" | "Processor" | "Sink"), r)) => (k, r),
            _ => {
                return Err(bad(
                    input,
                    n,
                    format!("not part of a Topology#describe() text: {:?}", shorten(line, 80)),
                ))
            }
        };
        if self.d.subtopologies.is_empty() {
            return Err(bad(
                input,
                n,
                format!("a {kind_word} line before any Sub-topology line"),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(ImportError::too_large(
                input,
                format!("line {n}: more than {} nodes", thousands(MAX_NODES)),
            ));
        }
        let cut = if n == self.last {
            " (is the text cut short?)"
        } else {
            ""
        };
        let malformed = || {
            bad(
                input,
                n,
                format!("not a {kind_word} line: {:?}{cut}", shorten(line, 80)),
            )
        };
        let node = match kind_word {
            "Source" => source_node(input, n, rest, malformed)?,
            "Processor" => processor_node(input, n, rest, malformed)?,
            _ => sink_node(input, n, rest, malformed)?,
        };
        if let Some(sub) = self.d.subtopologies.last_mut() {
            sub.nodes.push(node);
        }
        Ok(())
    }
}

/// `Source: NAME (topics: [a, b])` or `(topics: PATTERN)`.
fn source_node(
    input: &str,
    n: usize,
    rest: &str,
    malformed: impl Fn() -> ImportError,
) -> Result<Node, ImportError> {
    let (name, _, topics) = name_and(rest, &["topics"]).ok_or_else(malformed)?;
    // `[a, b]` is a topic set unless its inside holds regex syntax (Kafka
    // prints a pattern without brackets, but a pattern may start with one).
    let regexy = |s: &str| s.chars().any(|c| "*+?()|\\^${}[]".contains(c));
    let topics = match bracket_list(topics) {
        Some(list) if !list.iter().any(|t| regexy(t)) => {
            for t in &list {
                check_topic_name(input, n, t)?;
            }
            Topics::Names(list)
        }
        _ => Topics::Pattern(topics.to_string()),
    };
    Ok(Node {
        name: check_name(input, n, "source", name)?,
        kind: NodeKind::Source(topics),
        line: n,
        successors: None,
        predecessors: Some(Vec::new()),
    })
}

/// `Processor: NAME (stores: [s1, s2])`.
fn processor_node(
    input: &str,
    n: usize,
    rest: &str,
    malformed: impl Fn() -> ImportError,
) -> Result<Node, ImportError> {
    let (name, _, stores) = name_and(rest, &["stores"]).ok_or_else(&malformed)?;
    let stores = bracket_list(stores).ok_or_else(malformed)?;
    let stores = stores
        .iter()
        .map(|s| check_name(input, n, "store", s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Node {
        name: check_name(input, n, "processor", name)?,
        kind: NodeKind::Processor(stores),
        line: n,
        successors: None,
        predecessors: None,
    })
}

/// `Sink: NAME (topic: T)` or `(extractor class: C)`.
fn sink_node(
    input: &str,
    n: usize,
    rest: &str,
    malformed: impl Fn() -> ImportError,
) -> Result<Node, ImportError> {
    let (name, key, target) = name_and(rest, &["topic", "extractor class"]).ok_or_else(malformed)?;
    let kind = if key == "topic" {
        check_topic_name(input, n, target)?;
        NodeKind::Sink(target.to_string())
    } else {
        NodeKind::SinkExtractor(shorten(target, 200))
    };
    Ok(Node {
        name: check_name(input, n, "sink", name)?,
        kind,
        line: n,
        successors: Some(Vec::new()),
        predecessors: None,
    })
}

/// Every sub-topology has nodes and a source, every node its arrow lines, and
/// every name an arrow points at is described in the same sub-topology.
fn validate(input: &str, d: &Description) -> Result<(), ImportError> {
    if d.subtopologies.is_empty() {
        return Err(ImportError::bad(
            input,
            "no Sub-topology in the text (is it cut short, or is the topology empty?)",
        ));
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for sub in &d.subtopologies {
        if sub.nodes.is_empty() {
            return Err(bad(
                input,
                sub.line,
                format!("sub-topology {} has no nodes (is the text cut short?)", sub.id),
            ));
        }
        let names: BTreeSet<&str> = sub.nodes.iter().map(|n| n.name.as_str()).collect();
        for node in &sub.nodes {
            if let Some(first) = seen.insert(&node.name, node.line) {
                return Err(bad(
                    input,
                    node.line,
                    format!("node {} is described twice (first on line {first})", node.name),
                ));
            }
            let what = match node.kind {
                NodeKind::Source(_) => "Source",
                NodeKind::Processor(_) => "Processor",
                _ => "Sink",
            };
            for (list, arrow) in [(&node.successors, "-->"), (&node.predecessors, "<--")] {
                let Some(list) = list else {
                    return Err(bad(
                        input,
                        node.line,
                        format!(
                            "{what} {} has no {arrow} line (is the text cut short?)",
                            node.name
                        ),
                    ));
                };
                for other in list {
                    if !names.contains(other.as_str()) {
                        return Err(bad(
                            input,
                            node.line,
                            format!(
                                "{} names {other} on its {arrow} line, but sub-topology {} does not describe it \
                                 (is the text cut short?)",
                                node.name, sub.id
                            ),
                        ));
                    }
                }
            }
        }
        if !sub.nodes.iter().any(|n| matches!(n.kind, NodeKind::Source(_))) {
            return Err(bad(
                input,
                sub.line,
                format!("sub-topology {} has no Source", sub.id),
            ));
        }
        if sub.global && !sub.nodes.iter().any(|n| matches!(n.kind, NodeKind::Processor(_))) {
            return Err(bad(
                input,
                sub.line,
                format!(
                    "global store sub-topology {} has no Processor (is the text cut short?)",
                    sub.id
                ),
            ));
        }
    }
    Ok(())
}

/// The `application.id` used: the option, or the engine's default.
fn application_id(options: &Options, notes: &mut Notes) -> Result<String, ImportError> {
    match &options.application_id {
        Some(id) => {
            if id.is_empty()
                || id.len() > 200
                || !id.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
            {
                return Err(ImportError::BadOption(format!(
                    "--application-id {:?} is not a legal application.id (letters, digits, '.', '_' and '-')",
                    shorten(id, 60)
                )));
            }
            Ok(id.clone())
        }
        None => {
            let id = kstreams::Config::default().application_id;
            notes.add(
                "import",
                format!(
                    "Topology#describe() does not print application.id: changelog and repartition topics are \
                     named with {id:?} (pass --application-id ID to use yours)"
                ),
            );
            Ok(id)
        }
    }
}

/// Whether a topic both written and read by the topology is one of Kafka
/// Streams' internal topics (repartition, or a foreign-key join's subscription topics).
fn is_internal(name: &str) -> bool {
    name.ends_with("-repartition") || (name.ends_with("-topic") && name.contains("-SUBSCRIPTION-"))
}

/// Kafka's `RepartitionTopics#setRepartitionSourceTopicPartitionCount` and
/// `computePartitionCount`: a repartition topic without a count gets the largest
/// count among the source topics of the sub-topologies that write it, counting
/// only the sources whose count is known so far; passes repeat until every one
/// has a count, and a pass without progress is Kafka's "Failed to compute number
/// of partitions for all repartition topics".
///
/// `subs` holds each sub-topology's (source topics, sink topics); `internal` the
/// repartition topics; `known` the counts known up front (external topics, and
/// repartition topics whose count the topology sets). Returns the counts of the
/// internal topics, or the first one left without. Where Kafka's hash-set order
/// is open, lbscope visits the sub-topologies in id order and each one's
/// repartition sources by name.
pub(crate) fn repartition_counts(
    subs: &[(Vec<String>, BTreeSet<String>)],
    internal: &BTreeSet<String>,
    known: &BTreeMap<String, u32>,
) -> Result<BTreeMap<String, u32>, String> {
    let mut counts: BTreeMap<String, u32> = known.clone();
    loop {
        let mut needed = None;
        let mut progress = false;
        for (sources, _) in subs {
            let mut mine: Vec<&String> = sources.iter().filter(|t| internal.contains(*t)).collect();
            mine.stable_sort();
            for t in mine {
                if counts.contains_key(t) {
                    continue;
                }
                let best = subs
                    .iter()
                    .filter(|(_, sinks)| sinks.contains(t))
                    .flat_map(|(src, _)| src.iter().filter_map(|s| counts.get(s).copied()))
                    .max();
                match best {
                    Some(p) => {
                        counts.insert(t.clone(), p);
                        progress = true;
                    }
                    None => needed = needed.or_else(|| Some(t.clone())),
                }
            }
        }
        match needed {
            None => break,
            Some(t) if !progress => return Err(t),
            Some(_) => {}
        }
    }
    Ok(counts.into_iter().filter(|(t, _)| internal.contains(t)).collect())
}

/// Build the Kafka Streams scenario: parse the inputs, check what the topology
/// reads against the options, then assemble the setup.
pub(super) fn build(
    inputs: &[Input<'_>],
    options: &Options,
    notes: &mut Notes,
) -> Result<Scenario, ImportError> {
    let (descriptions, described) = parse_inputs(inputs, notes)?;
    let (dname, d) = one_description(descriptions)?;
    let app = application_id(options, notes)?;
    if let Some(name) = &d.named {
        notes.add(
            dname,
            format!(
                "named topology {name}: lbscope names its tasks without the topology name (Kafka: \
                 {name}__<sub-topology>_<partition>)"
            ),
        );
    }
    let t = Shape::of(dname, &d, app)?;
    let specs = t.specs(options, notes)?;
    check_pattern_options(&d, options)?;
    let counts = t.partition_counts(&specs, &described, options, notes)?;
    t.note_unmodelled(&specs, &described, &counts, notes);
    assemble(&t, &specs, &counts, options, notes)
}

/// `kafka-topics.sh --describe`'s topics: partitions, replication factor, input.
type Described = BTreeMap<String, (u32, Option<u32>, String)>;

/// The descriptions read, each with its input's name.
type Descriptions<'a> = Vec<(&'a str, Description)>;

/// Parse every input: the descriptions, and the topics `kafka-topics.sh` describes
/// (a topic described twice must agree).
fn parse_inputs<'a>(
    inputs: &[Input<'a>],
    notes: &mut Notes,
) -> Result<(Descriptions<'a>, Described), ImportError> {
    let mut descriptions = Vec::new();
    let mut described = Described::new();
    for inp in inputs {
        match inp.kind {
            InputKind::TopologyDescription => descriptions.push((inp.name, parse(inp.name, inp.text)?)),
            InputKind::KafkaTopicsDescribe => {
                let d = kafka_topics::parse(inp.name, inp.text)?;
                notes.unused_fields(inp.name, "kafka-topics.sh --describe", d.unused.iter().cloned());
                for t in d.topics {
                    if let Some((p, _, first)) = described.get(&t.name) {
                        if *p != t.partitions {
                            return Err(ImportError::bad(
                                inp.name,
                                format!(
                                    "line {}: topic {} has {} partitions here and {p} in {first}",
                                    t.line, t.name, t.partitions
                                ),
                            ));
                        }
                    }
                    described.insert(t.name, (t.partitions, t.replication_factor, inp.name.to_string()));
                }
            }
            _ => {}
        }
    }
    Ok((descriptions, described))
}

/// Exactly one description: lbscope imports one application at a time.
fn one_description(mut descriptions: Descriptions<'_>) -> Result<(&str, Description), ImportError> {
    match descriptions.len() {
        0 => Err(ImportError::Missing(
            "no Topology#describe() text among the inputs: print topology.describe() in your application \
                 and give its output"
                .into(),
        )),
        1 => Ok(descriptions.remove(0)),
        _ => Err(ImportError::BadOption(format!(
            "{} Topology#describe() texts given ({} and {}); lbscope imports one application at a time",
            descriptions.len(),
            descriptions[0].0,
            descriptions[1].0
        ))),
    }
}

/// Per task-generating sub-topology: Kafka's id, source topics (as lbscope
/// names them), stores, sink topics.
type Spec = (u32, Vec<String>, Vec<String>, BTreeSet<String>);

/// The topology as lbscope reads it: its task-generating sub-topologies and
/// the topics they write and read.
struct Shape<'d> {
    /// The description's input name.
    dname: &'d str,
    d: &'d Description,
    app: String,
    /// Task-generating sub-topologies, in id order.
    subs: Vec<&'d Subtopology>,
    sink_topics: BTreeSet<String>,
    /// Topics both written and read that Kafka Streams makes internal (as printed).
    internal: BTreeSet<String>,
    extractors: usize,
    processors: usize,
}

impl<'d> Shape<'d> {
    /// Sources, stores, sinks per task-generating sub-topology, in id order.
    fn of(dname: &'d str, d: &'d Description, app: String) -> Result<Shape<'d>, ImportError> {
        let mut subs: Vec<&Subtopology> = d.subtopologies.iter().filter(|s| !s.global).collect();
        subs.stable_sort_by_key(|s| s.id);
        if subs.is_empty() {
            return Err(ImportError::bad(
                dname,
                "the topology has only global stores, which generate no tasks: there is nothing to assign",
            ));
        }
        let mut sink_topics: BTreeSet<String> = BTreeSet::new();
        let mut source_topics: BTreeSet<String> = BTreeSet::new();
        let mut extractors = 0;
        let mut processors = 0usize;
        for n in subs.iter().flat_map(|s| &s.nodes) {
            match &n.kind {
                NodeKind::Sink(t) => {
                    sink_topics.insert(t.clone());
                }
                NodeKind::SinkExtractor(_) => extractors += 1,
                NodeKind::Source(Topics::Names(ts)) => source_topics.extend(ts.iter().cloned()),
                NodeKind::Source(Topics::Pattern(_)) => {}
                NodeKind::Processor(_) => processors += 1,
            }
        }
        let internal: BTreeSet<String> = source_topics
            .iter()
            .filter(|t| sink_topics.contains(*t) && is_internal(t))
            .cloned()
            .collect();
        Ok(Shape {
            dname,
            d,
            app,
            subs,
            sink_topics,
            internal,
            extractors,
            processors,
        })
    }

    /// An internal topic's full name (`<application.id>-<name>`); others as printed.
    fn decorate(&self, t: &str) -> String {
        if self.internal.contains(t) {
            format!("{}-{t}", self.app)
        } else {
            t.to_string()
        }
    }

    /// Whether `t` is the full name of an internal topic.
    fn is_internal_full(&self, t: &str) -> bool {
        self.internal.iter().any(|i| self.decorate(i) == t)
    }

    /// Each sub-topology's source topics (as lbscope names them; a pattern's from
    /// `--pattern-topics`), stores and sinks.
    fn specs(&self, options: &Options, notes: &mut Notes) -> Result<Vec<Spec>, ImportError> {
        let mut specs: Vec<Spec> = Vec::new();
        let mut missing_patterns = Vec::new();
        for s in &self.subs {
            let mut sources = BTreeSet::new();
            let mut stores = BTreeSet::new();
            let mut sinks = BTreeSet::new();
            for n in &s.nodes {
                match &n.kind {
                    NodeKind::Source(Topics::Names(ts)) => {
                        sources.extend(ts.iter().map(|t| self.decorate(t)))
                    }
                    NodeKind::Source(Topics::Pattern(p)) => match options.pattern_topics.get(p) {
                        Some(ts) => sources.extend(self.pattern_sources(n, p, ts, notes)?),
                        None => missing_patterns.push((n.line, n.name.clone(), p.clone())),
                    },
                    NodeKind::Processor(st) => stores.extend(st.iter().cloned()),
                    NodeKind::Sink(t) => {
                        sinks.insert(t.clone());
                    }
                    NodeKind::SinkExtractor(_) => {}
                }
            }
            specs.push((
                s.id,
                sources.into_iter().collect(),
                stores.into_iter().collect(),
                sinks,
            ));
        }
        if let Some((line, node, p)) = missing_patterns.first() {
            return Err(ImportError::Missing(format!(
                "{}: line {line}: source {node} subscribes to the pattern {p}; lbscope needs the topics it \
                 matches: pass --pattern-topics '{p}=TOPIC1,TOPIC2' (and --partitions for each)",
                self.dname
            )));
        }
        Ok(specs)
    }

    /// The topics `--pattern-topics` gives a pattern source (each a legal name).
    fn pattern_sources<'t>(
        &self,
        n: &Node,
        p: &str,
        ts: &'t [String],
        notes: &mut Notes,
    ) -> Result<impl Iterator<Item = String> + 't, ImportError> {
        for t in ts {
            check_topic_name("--pattern-topics", 0, t).map_err(|_| {
                ImportError::BadOption(format!(
                    "--pattern-topics {p}: {t:?} is not a legal Kafka topic name"
                ))
            })?;
        }
        notes.add(
            self.dname,
            format!(
                "line {}: source {} subscribes to the pattern {p}; it reads {} as --pattern-topics gives",
                n.line,
                n.name,
                ts.join(", ")
            ),
        );
        Ok(ts.iter().cloned())
    }

    /// Partition counts (with replication factors): external topics from the
    /// options or kafka-topics; internal ones as `RepartitionTopics` computes them.
    fn partition_counts(
        &self,
        specs: &[Spec],
        described: &Described,
        options: &Options,
        notes: &mut Notes,
    ) -> Result<BTreeMap<String, (u32, u32)>, ImportError> {
        let external: BTreeSet<String> = specs
            .iter()
            .flat_map(|(_, src, _, _)| src.iter())
            .filter(|t| !self.is_internal_full(t))
            .cloned()
            .collect();
        let mut counts = external_counts(&external, described, options)?;
        self.check_partition_options(&external, options, notes)?;
        // Repartition topics: an explicit count, else the fixed point of Kafka's rule.
        for i in &self.internal {
            let full = self.decorate(i);
            if let Some(&p) = options
                .partitions
                .get(i)
                .or_else(|| options.partitions.get(&full))
            {
                counts.insert(full, (p, 1));
            }
        }
        let flows: Vec<(Vec<String>, BTreeSet<String>)> = specs
            .iter()
            .map(|(_, src, _, sinks)| (src.clone(), sinks.iter().map(|t| self.decorate(t)).collect()))
            .collect();
        let known: BTreeMap<String, u32> = counts.iter().map(|(t, (p, _))| (t.clone(), *p)).collect();
        let internal_full: BTreeSet<String> = self.internal.iter().map(|t| self.decorate(t)).collect();
        match repartition_counts(&flows, &internal_full, &known) {
            Ok(found) => {
                for (t, p) in found {
                    counts.entry(t).or_insert((p, 1));
                }
            }
            Err(t) => {
                return Err(ImportError::Missing(format!(
                    "cannot compute the partition count of {t} from the topics written into it (a cycle of \
                     repartition topics?): pass --partitions {}=N",
                    t.strip_prefix(&format!("{}-", self.app)).unwrap_or(&t)
                )))
            }
        }
        self.note_internal(&counts, notes);
        Ok(counts)
    }

    /// Each `--partitions` count is 1 to lbscope's maximum; one for a topic the
    /// topology does not read is named.
    fn check_partition_options(
        &self,
        external: &BTreeSet<String>,
        options: &Options,
        notes: &mut Notes,
    ) -> Result<(), ImportError> {
        for (t, p) in &options.partitions {
            if *p == 0 {
                return Err(ImportError::BadOption(format!(
                    "--partitions {t}=0: a topic needs at least 1 partition"
                )));
            }
            if *p > crate::engine::kstreams::topology::MAX_PARTITIONS {
                return Err(ImportError::BadOption(format!(
                    "--partitions {t}={p}: more than the {} partitions lbscope allows",
                    crate::engine::kstreams::topology::MAX_PARTITIONS
                )));
            }
            let known = external.contains(t) || self.internal.contains(t) || self.is_internal_full(t);
            if !known {
                notes.add(
                    "import",
                    format!("--partitions {t}={p}: the topology reads no topic {t}"),
                );
            }
        }
        Ok(())
    }

    /// Name the internal topics, with the counts they got.
    fn note_internal(&self, counts: &BTreeMap<String, (u32, u32)>, notes: &mut Notes) {
        if self.internal.is_empty() {
            return;
        }
        let list: Vec<String> = self
            .internal
            .iter()
            .map(|i| {
                let full = self.decorate(i);
                format!("{full} ({} partitions)", counts.get(&full).map_or(0, |c| c.0))
            })
            .collect();
        notes.add(
            self.dname,
            format!(
                "internal topics {}: named <application.id>-<name>, with the partition count Kafka's \
                 RepartitionTopics gives them (the largest among the topics the writing sub-topologies read; \
                 pass --partitions NAME=N where the topology sets it with Repartitioned)",
                list.join(", ")
            ),
        );
        if self.internal.iter().any(|i| i.ends_with("-topic")) {
            notes.add(
                self.dname,
                "foreign-key join subscription topics are co-partitioned with their tables by Kafka; lbscope \
                 gives them the repartition rule's count",
            );
        }
    }

    /// What the description shows and lbscope does not model or must assume:
    /// renumbered sub-topologies, global stores, joins, logged stores, sinks,
    /// topics kafka-topics lists that the topology does not read.
    fn note_unmodelled(
        &self,
        specs: &[Spec],
        described: &Described,
        counts: &BTreeMap<String, (u32, u32)>,
        notes: &mut Notes,
    ) {
        let dname = self.dname;
        // Sub-topology numbering: lbscope numbers the task-generating ones 0, 1, ...
        let renumbered: Vec<String> = self
            .subs
            .iter()
            .enumerate()
            .filter(|(i, s)| *i as u32 != s.id)
            .map(|(i, s)| format!("{} as {i}", s.id))
            .collect();
        if !renumbered.is_empty() {
            notes.add(
                dname,
                format!(
                    "lbscope numbers the sub-topologies that generate tasks 0, 1, ... without the global stores' \
                     ids: sub-topology {} (tasks keep their order, so the assignment is the same; only the task \
                     ids differ from Kafka's)",
                    renumbered.join(", ")
                ),
            );
        }
        self.note_global_stores(notes);
        for (id, src, stores, _) in specs {
            note_spec(dname, &self.app, *id, src, stores, notes);
        }
        let outputs: Vec<&String> = self
            .sink_topics
            .iter()
            .filter(|t| !self.internal.contains(*t))
            .collect();
        notes.add(
            dname,
            format!(
                "{} processors, {} sink topic(s){} and {} topic-name extractor(s) are not used by lbscope (tasks \
                 follow from the sources and stores)",
                self.processors,
                outputs.len(),
                if outputs.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({})",
                        outputs.iter().take(10).map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    )
                },
                self.extractors
            ),
        );
        self.note_unread(described, counts, notes);
    }

    /// Global stores generate no tasks; each is named.
    fn note_global_stores(&self, notes: &mut Notes) {
        for s in self.d.subtopologies.iter().filter(|s| s.global) {
            let topics: Vec<String> = s
                .nodes
                .iter()
                .filter_map(|n| match &n.kind {
                    NodeKind::Source(Topics::Names(t)) => Some(t.join(", ")),
                    _ => None,
                })
                .collect();
            let stores: Vec<String> = s
                .nodes
                .iter()
                .filter_map(|n| match &n.kind {
                    NodeKind::Processor(st) => Some(st.join(", ")),
                    _ => None,
                })
                .collect();
            notes.add(
                self.dname,
                format!(
                    "line {}: global store {} (topic {}) is restored in full on every instance by its global \
                     thread and generates no tasks; lbscope does not model it",
                    s.line,
                    stores.join(", "),
                    topics.join(", ")
                ),
            );
        }
    }

    /// Topics kafka-topics describes that no task-generating sub-topology reads.
    fn note_unread(&self, described: &Described, counts: &BTreeMap<String, (u32, u32)>, notes: &mut Notes) {
        let global_topics: BTreeSet<&String> = self
            .d
            .subtopologies
            .iter()
            .filter(|s| s.global)
            .flat_map(|s| &s.nodes)
            .filter_map(|n| match &n.kind {
                NodeKind::Source(Topics::Names(t)) => Some(t),
                _ => None,
            })
            .flatten()
            .collect();
        let unread: Vec<&String> = described
            .keys()
            .filter(|t| !counts.contains_key(*t) && !global_topics.contains(t))
            .collect();
        if !unread.is_empty() {
            notes.add(
                "import",
                format!(
                    "kafka-topics.sh lists topics the topology does not read: {}",
                    unread
                        .iter()
                        .take(20)
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
}

/// Every `--pattern-topics` pattern is one a source subscribes to.
fn check_pattern_options(d: &Description, options: &Options) -> Result<(), ImportError> {
    for p in options.pattern_topics.keys() {
        let used = d
            .subtopologies
            .iter()
            .flat_map(|s| &s.nodes)
            .any(|n| matches!(&n.kind, NodeKind::Source(Topics::Pattern(x)) if x == p));
        if !used {
            return Err(ImportError::BadOption(format!(
                "--pattern-topics {p}: no source of the topology subscribes to that pattern"
            )));
        }
    }
    Ok(())
}

/// The counts of the topics read from outside: `--partitions`, else
/// kafka-topics; the ones neither gives are asked for.
fn external_counts(
    external: &BTreeSet<String>,
    described: &Described,
    options: &Options,
) -> Result<BTreeMap<String, (u32, u32)>, ImportError> {
    let mut counts: BTreeMap<String, (u32, u32)> = BTreeMap::new(); // topic -> (partitions, rf)
    let mut missing = Vec::new();
    for t in external {
        if let Some(&p) = options.partitions.get(t) {
            counts.insert(t.clone(), (p, described.get(t).and_then(|x| x.1).unwrap_or(1)));
        } else if let Some((p, rf, _)) = described.get(t) {
            counts.insert(t.clone(), (*p, rf.unwrap_or(1)));
        } else {
            missing.push(t.clone());
        }
    }
    match missing.len() {
        0 => Ok(counts),
        1 => Err(ImportError::Missing(format!(
            "topic {0} has no partition count: pass --partitions {0}=N (or give kafka-topics.sh --describe output)",
            missing[0]
        ))),
        _ => {
            let flags: Vec<String> = missing.iter().take(10).map(|t| format!("--partitions {t}=N")).collect();
            Err(ImportError::Missing(format!(
                "topics {} have no partition count: pass {}{} (or give kafka-topics.sh --describe output)",
                missing.join(", "),
                flags.join(" "),
                if missing.len() > 10 { " …" } else { "" }
            )))
        }
    }
}

/// What one sub-topology's description cannot show: which sources a join
/// co-partitions, and whether its stores are logged.
fn note_spec(dname: &str, app: &str, id: u32, src: &[String], stores: &[String], notes: &mut Notes) {
    if src.len() > 1 {
        notes.add(
            dname,
            format!(
                "sub-topology {id} reads {}: its task count is the largest of their partition counts; \
                 Topology#describe() does not show which of them a join co-partitions, so lbscope does not \
                 check that their counts are equal",
                src.join(", ")
            ),
        );
    }
    if !stores.is_empty() {
        let cl: Vec<String> = stores.iter().map(|s| format!("{app}-{s}-changelog")).collect();
        notes.add(
            dname,
            format!(
                "sub-topology {id}: stores {} are taken to be logged ({}), as Kafka Streams logs stores by \
                 default; the description cannot show withLoggingDisabled() or a source topic reused as \
                 changelog",
                stores.join(", "),
                cl.join(", ")
            ),
        );
    }
}

/// The scenario: topics, instances, then the topology (one first rebalance).
fn assemble(
    t: &Shape<'_>,
    specs: &[Spec],
    counts: &BTreeMap<String, (u32, u32)>,
    options: &Options,
    notes: &mut Notes,
) -> Result<Scenario, ImportError> {
    let mut sc = Scenario::empty(System::Kstreams, options.seed);
    let Body::Kstreams(log) = &mut sc.body else {
        unreachable!("an empty Kafka Streams scenario")
    };
    log.config.application_id = t.app.clone();
    if let Some(n) = options.standbys {
        if n > kstreams::MAX_STANDBY_REPLICAS {
            return Err(ImportError::BadOption(format!(
                "--standbys {n}: lbscope allows at most {}",
                kstreams::MAX_STANDBY_REPLICAS
            )));
        }
        log.config.num_standby_replicas = n;
    }
    let mut topics: Vec<(&String, &(u32, u32))> = counts.iter().collect();
    // External topics first, then internal ones, each by name.
    topics.stable_sort_by_key(|(name, _)| (t.is_internal_full(name), (*name).clone()));
    for (name, (p, rf)) in topics {
        log.setup.push(kstreams::Action::DefineTopic {
            topic: name.clone(),
            partitions: *p,
            racks: Vec::new(),
            replication_factor: (*rf).max(1),
        });
    }
    add_instances(&mut log.setup, &t.app, options, notes)?;
    log.setup.push(kstreams::Action::DefineTopology {
        subtopologies: specs
            .iter()
            .map(|(_, src, stores, _)| SubtopologySpec {
                sources: src.clone(),
                stores: stores.clone(),
                changelog: true,
            })
            .collect(),
        copartition_groups: Vec::new(),
    });
    Ok(sc)
}

/// `--instances N` instances of `--threads T` threads each (none without `--instances`).
fn add_instances(
    setup: &mut Vec<kstreams::Action>,
    app: &str,
    options: &Options,
    notes: &mut Notes,
) -> Result<(), ImportError> {
    match options.instances {
        Some(0) => Err(ImportError::BadOption(
            "--instances 0: start at least one instance".into(),
        )),
        Some(n) if n as usize > kstreams::MAX_INSTANCES => Err(ImportError::BadOption(format!(
            "--instances {n}: lbscope allows at most {}",
            kstreams::MAX_INSTANCES
        ))),
        Some(n) => {
            if let Some(t) = options.threads {
                if t == 0 || t > kstreams::MAX_THREADS {
                    return Err(ImportError::BadOption(format!(
                        "--threads {t}: each instance runs 1 to {} threads",
                        kstreams::MAX_THREADS
                    )));
                }
            }
            for i in 1..=n {
                setup.push(kstreams::Action::AddInstance {
                    name: format!("{app}-{i}"),
                    threads: options.threads,
                    rack: None,
                    tags: BTreeMap::new(),
                    process_id: None,
                });
            }
            Ok(())
        }
        None => {
            if options.threads.is_some() {
                return Err(ImportError::BadOption(
                    "--threads needs --instances N (how many instances run the application)".into(),
                ));
            }
            notes.add(
                "import",
                "Topology#describe() does not say how many instances run the application: none are started \
                 (pass --instances N [--threads T], or add them in the playground)",
            );
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: &str = "Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [text-input])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> counts-repartition-filter
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: counts-repartition-filter (stores: [])
      --> counts-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: counts-repartition-sink (topic: counts-repartition)
      <-- counts-repartition-filter

  Sub-topology: 1
    Source: counts-repartition-source (topics: [counts-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts])
      --> KTABLE-TOSTREAM-0000000007
      <-- counts-repartition-source
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: word-counts)
      <-- KTABLE-TOSTREAM-0000000007

";

    #[test]
    fn parses_subtopologies_nodes_and_arrows() {
        let d = parse("w", WORDS).unwrap();
        assert_eq!(d.subtopologies.len(), 2);
        let s0 = &d.subtopologies[0];
        assert_eq!(s0.nodes.len(), 5);
        assert_eq!(
            s0.nodes[0].kind,
            NodeKind::Source(Topics::Names(vec!["text-input".into()]))
        );
        assert_eq!(s0.nodes[4].kind, NodeKind::Sink("counts-repartition".into()));
        assert_eq!(
            d.subtopologies[1].nodes[1].kind,
            NodeKind::Processor(vec!["counts".into()])
        );
    }

    #[test]
    fn patterns_and_cut_texts() {
        let t = "Topologies:\n   Sub-topology: 0\n    Source: S (topics: orders-.*)\n      --> none\n\n";
        let d = parse("p", t).unwrap();
        assert_eq!(
            d.subtopologies[0].nodes[0].kind,
            NodeKind::Source(Topics::Pattern("orders-.*".into()))
        );
        let cut = &WORDS[..WORDS.find("    Sink: KSTREAM-SINK-0000000008").unwrap()];
        let e = parse("w", cut).unwrap_err();
        assert_eq!(
            e.to_string(),
            "w: line 23: KTABLE-TOSTREAM-0000000007 names KSTREAM-SINK-0000000008 on its --> line, but \
             sub-topology 1 does not describe it (is the text cut short?)"
        );
        let e = parse(
            "w",
            "Topologies:\n   Sub-topology: 0\n    Source: S (topics: [a])\n",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "w: line 3: Source S has no --> line (is the text cut short?)"
        );
        let e = parse("w", "Topologies:\n   Sub-topology: x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "w: line 2: sub-topology id \"x\" is not a whole number"
        );
    }

    /// The topologies of `RepartitionTopicsTest`, with the counts its assertions expect.
    mod repartition_topics_test {
        use super::super::repartition_counts;
        use std::collections::{BTreeMap, BTreeSet};

        fn set(xs: &[&str]) -> BTreeSet<String> {
            xs.iter().map(|x| x.to_string()).collect()
        }

        fn list(xs: &[&str]) -> Vec<String> {
            xs.iter().map(|x| x.to_string()).collect()
        }

        /// From `shouldSetRepartitionTopicPartitionCountFromUpstreamExternalSourceTopic`:
        /// sub-topology 0 reads source1 (3 partitions) and repartition2 (2) and writes
        /// repartitionWithoutPartitionCount, which gets 3 partitions.
        #[test]
        fn should_set_repartition_topic_partition_count_from_upstream_external_source_topic() {
            let subs = vec![
                (
                    list(&["source1", "repartition2"]),
                    set(&["repartition1", "repartitionWithoutPartitionCount"]),
                ),
                (
                    list(&["repartition1", "repartitionWithoutPartitionCount"]),
                    set(&["sink2"]),
                ),
            ];
            let internal = set(&["repartition1", "repartition2", "repartitionWithoutPartitionCount"]);
            let known: BTreeMap<String, u32> = [("source1", 3), ("repartition1", 4), ("repartition2", 2)]
                .into_iter()
                .map(|(t, p)| (t.to_string(), p))
                .collect();
            let c = repartition_counts(&subs, &internal, &known).unwrap();
            assert_eq!(c["repartitionWithoutPartitionCount"], 3);
            assert_eq!((c["repartition1"], c["repartition2"]), (4, 2));
        }

        /// From `shouldSetRepartitionTopicPartitionCountFromUpstreamInternalRepartitionSourceTopic`:
        /// sub-topology 0 reads source1 (3) and repartition1 (4): the topic it writes gets 4.
        #[test]
        fn should_set_repartition_topic_partition_count_from_upstream_internal_repartition_source_topic() {
            let subs = vec![
                (
                    list(&["source1", "repartition1"]),
                    set(&["repartition2", "repartitionWithoutPartitionCount"]),
                ),
                (
                    list(&["repartition1", "repartitionWithoutPartitionCount"]),
                    set(&["sink2"]),
                ),
            ];
            let internal = set(&["repartition1", "repartition2", "repartitionWithoutPartitionCount"]);
            let known: BTreeMap<String, u32> = [("source1", 3), ("repartition1", 4), ("repartition2", 2)]
                .into_iter()
                .map(|(t, p)| (t.to_string(), p))
                .collect();
            let c = repartition_counts(&subs, &internal, &known).unwrap();
            assert_eq!(c["repartitionWithoutPartitionCount"], 4);
        }

        /// As `shouldThrowTaskAssignmentExceptionIfPartitionCountCannotBeComputedForAllRepartitionTopics`:
        /// a repartition topic only written from topics without a count is refused.
        #[test]
        fn should_throw_task_assignment_exception_if_partition_count_cannot_be_computed_for_all_repartition_topics(
        ) {
            let subs = vec![(list(&["r1"]), set(&["r2"])), (list(&["r2"]), set(&["r1"]))];
            let internal = set(&["r1", "r2"]);
            assert_eq!(
                repartition_counts(&subs, &internal, &BTreeMap::new()),
                Err("r1".to_string())
            );
        }
    }

    #[test]
    fn legacy_sections_are_read() {
        let t = "Sub-topologies:\n  Sub-topology: 0\n    Source: S (topics: [a])\n      --> P\n    \
                 Processor: P (stores: [s])\n      --> none\n      <-- S\nGlobal Stores:\n  \
                 GlobalStore: G (topic: [g])\n      --> GP (store: gs)\n";
        let d = parse("l", t).unwrap();
        assert_eq!(d.subtopologies.len(), 2);
        assert!(d.subtopologies[1].global);
        assert_eq!(
            d.subtopologies[1].nodes[1].kind,
            NodeKind::Processor(vec!["gs".into()])
        );
    }
}
