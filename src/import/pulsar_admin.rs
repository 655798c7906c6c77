//! What `pulsar-admin` prints, read as Pulsar serialises it today:
//!
//! * `namespaces bundles NS`: `BundlesData`, `{"boundaries": ["0x00000000", …,
//!   "0xffffffff"], "numBundles": 4}`.
//! * `broker-stats load-report` (REST `/admin/v2/broker-stats/load-report`): the
//!   broker's `LoadManagerReport`. The modular load manager answers with
//!   `LocalBrokerData` (`webServiceUrl`, `cpu`/`memory`/`directMemory`/
//!   `bandwidthIn`/`bandwidthOut` as `{usage, limit}`, `bundles`, `lastStats` of
//!   `NamespaceBundleStats` per bundle, `loadManagerClassName`, …); the simple load
//!   manager with `LoadReport` (`name`, `systemResourceUsage`, `bundleStats`). Units
//!   are Pulsar's: CPU in percent of one core (limit = 100 x cores), memory and
//!   direct memory in MB, bandwidth in kbit/s (`LinuxBrokerHostUsageImpl`).
//!   (The extensible load manager does not implement this command.)
//! * `namespaces topics NS` / `topics list NS`: one topic name a line (the REST
//!   API's JSON array is read too).
//! * `topics stats TOPIC` (`TopicStatsImpl`): `msgRateIn`, `msgRateOut`,
//!   `msgThroughputIn`, `msgThroughputOut`, `publishers`, `subscriptions` (each with
//!   its `consumers`), …; `topics partitioned-stats` adds `metadata.partitions` and
//!   (with `--per-partition`) `partitions` by name. A stats JSON does not name its
//!   topic, so each must follow its topic's name on the line before it, as
//!   `for t in $(pulsar-admin namespaces topics NS); do echo $t; pulsar-admin topics
//!   stats $t; done` prints them.

use super::json::{Obj, OBJECT_OPEN};
use super::{shorten, thousands, ImportError};
use crate::engine::pulsar::traffic::Traffic;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;

/// Most topics (partitions counted one by one) one import may create: two
/// actions each (create, traffic) must fit a scenario's 100,000 actions.
pub const MAX_TOPICS: usize = 40_000;
/// Most bundles one report may list.
pub const MAX_REPORT_BUNDLES: usize = 1 << 16;

/// Parse a boundary as Java's `Long.decode` does for the forms Pulsar writes
/// (`0x…` hex, or decimal).
fn boundary(s: &str) -> Option<u64> {
    let s = s.trim();
    match s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix('#'))
    {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A `namespaces bundles` output: the boundaries (as given) and the unused fields.
pub fn parse_bundles(input: &str, v: &Value) -> Result<(Vec<u32>, Vec<String>), ImportError> {
    let o = Obj::new(input, v, "")?;
    let list = o
        .arr("boundaries")?
        .ok_or_else(|| o.err("boundaries", "missing"))?;
    if list.len() > crate::engine::pulsar::MAX_BUNDLES as usize + 1 {
        return Err(ImportError::too_large(
            input,
            format!(
                "boundaries: {} boundaries; lbscope allows at most {} bundles in a namespace",
                thousands(list.len()),
                thousands(crate::engine::pulsar::MAX_BUNDLES as usize)
            ),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        let s = b.as_str().ok_or_else(|| {
            o.err(
                &format!("boundaries[{i}]"),
                "expected a string like \"0x40000000\"",
            )
        })?;
        let x = boundary(s).ok_or_else(|| {
            o.err(
                &format!("boundaries[{i}]"),
                format!("{:?} is not a boundary like \"0x40000000\"", shorten(s, 30)),
            )
        })?;
        let x = u32::try_from(x).map_err(|_| {
            o.err(
                &format!("boundaries[{i}]"),
                format!("{s} is past the end of the hash ring (0xffffffff)"),
            )
        })?;
        out.push(x);
    }
    if let Some(n) = o.u64("numBundles")? {
        let distinct = out.iter().collect::<BTreeSet<_>>().len();
        if n as usize + 1 != distinct {
            return Err(o.err(
                "numBundles",
                format!(
                    "{n}, but the {distinct} distinct boundaries make {} bundles",
                    distinct.saturating_sub(1)
                ),
            ));
        }
    }
    Ok((out, o.unused()))
}

/// A `{usage, limit}` pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    /// `usage`.
    pub usage: f64,
    /// `limit`.
    pub limit: f64,
}

/// One bundle's `NamespaceBundleStats`.
#[derive(Clone, Debug, PartialEq)]
pub struct BundleStats {
    /// `tenant/ns/0x…_0x…`.
    pub bundle: String,
    /// Its traffic.
    pub traffic: Traffic,
    /// `topics`.
    pub topics: u64,
}

/// A broker's load report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrokerReport {
    /// The broker (`host:port` of its web service, or `name`).
    pub broker: String,
    /// cpu, memory, directMemory, bandwidthIn, bandwidthOut.
    pub resources: [Option<Usage>; 5],
    /// Bundles it owns.
    pub bundles: Vec<String>,
    /// Per-bundle stats.
    pub stats: Vec<BundleStats>,
    /// `loadManagerClassName`.
    pub load_manager: Option<String>,
    /// `brokerVersionString`.
    pub version: Option<String>,
    /// Fields not used.
    pub unused: Vec<String>,
}

/// Resource names in [`BrokerReport::resources`] order.
pub const RESOURCES: [&str; 5] = ["cpu", "memory", "directMemory", "bandwidthIn", "bandwidthOut"];

/// `host:port` of a service URL (`http://broker-1:8080/` → `broker-1:8080`).
pub fn host_port(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let hp = rest.split('/').next()?.trim();
    (!hp.is_empty()).then(|| hp.to_string())
}

fn usage(o: &Obj<'_>, k: &str) -> Result<Option<Usage>, ImportError> {
    let Some(u) = o.obj(k)? else { return Ok(None) };
    let usage = u.f64("usage")?.unwrap_or(0.0);
    let limit = u.f64("limit")?.unwrap_or(0.0);
    Ok(Some(Usage { usage, limit }))
}

fn bundle_stats(o: &Obj<'_>, k: &str, unused: &mut Vec<String>) -> Result<Vec<BundleStats>, ImportError> {
    let Some(m) = o.obj(k)? else { return Ok(Vec::new()) };
    if m.map().len() > MAX_REPORT_BUNDLES {
        return Err(o.err(k, format!("more than {} bundles", thousands(MAX_REPORT_BUNDLES))));
    }
    let mut out = Vec::new();
    for (name, v) in m.map() {
        let s = Obj::new(o_input(o), v, &m.field(name))?;
        let f = |k: &str| -> Result<f64, ImportError> {
            let x = s.f64(k)?.unwrap_or(0.0);
            if x < 0.0 {
                return Err(s.err(k, format!("{x} is negative")));
            }
            Ok(x)
        };
        let count = |k: &str| -> Result<u32, ImportError> {
            Ok(u32::try_from(s.u64(k)?.unwrap_or(0)).unwrap_or(u32::MAX))
        };
        let traffic = Traffic {
            msg_rate_in: f("msgRateIn")?,
            msg_rate_out: f("msgRateOut")?,
            throughput_in: f("msgThroughputIn")?,
            throughput_out: f("msgThroughputOut")?,
            producers: count("producerCount")?,
            consumers: count("consumerCount")?,
        };
        let topics = s.u64("topics")?.unwrap_or(0);
        unused.extend(s.unused().into_iter().map(|f| format!("{k}.*.{f}")));
        out.push(BundleStats {
            bundle: name.clone(),
            traffic,
            topics,
        });
    }
    Ok(out)
}

fn o_input<'a>(o: &Obj<'a>) -> &'a str {
    o.input()
}

/// A `broker-stats load-report` output (LocalBrokerData or LoadReport).
pub fn parse_load_report(input: &str, v: &Value) -> Result<BrokerReport, ImportError> {
    let o = Obj::new(input, v, "")?;
    let mut r = BrokerReport::default();
    let name = o.str("name")?;
    let web = o.str("webServiceUrl")?;
    let pulsar = o.str("pulsarServiceUrl")?;
    let web_tls = o.str("webServiceUrlTls")?;
    r.broker = name
        .map(str::to_string)
        .or_else(|| web.and_then(host_port))
        .or_else(|| web_tls.and_then(host_port))
        .or_else(|| pulsar.and_then(host_port))
        .ok_or_else(|| o.err("webServiceUrl", "missing: the report names no broker"))?;
    let (clean, changed) = super::clean_name(&r.broker);
    if changed || clean.chars().count() > 255 {
        return Err(o.err(
            "webServiceUrl",
            format!("{:?} is not a broker name lbscope keeps", shorten(&clean, 60)),
        ));
    }
    o.touch(&["pulsarServiceUrlTls", "loadReportType", "bundleStats"]);
    let sys = o.obj("systemResourceUsage")?;
    for (i, k) in RESOURCES.iter().enumerate() {
        r.resources[i] = match &sys {
            Some(s) => {
                o.touch(&[k]);
                usage(s, k)?
            }
            None => usage(&o, k)?,
        };
    }
    let mut unused = Vec::new();
    if let Some(list) = o.arr("bundles")? {
        if list.len() > MAX_REPORT_BUNDLES {
            return Err(o.err(
                "bundles",
                format!("more than {} bundles", thousands(MAX_REPORT_BUNDLES)),
            ));
        }
        for (i, b) in list.iter().enumerate() {
            let s = b
                .as_str()
                .ok_or_else(|| o.err(&format!("bundles[{i}]"), "expected a bundle name"))?;
            r.bundles.push(s.to_string());
        }
    }
    // LocalBrokerData: lastStats (its getter bundleStats repeats it); LoadReport: bundleStats.
    r.stats = if o.map().contains_key("lastStats") {
        bundle_stats(&o, "lastStats", &mut unused)?
    } else {
        bundle_stats(&o, "bundleStats", &mut unused)?
    };
    if r.bundles.is_empty() {
        // LoadReport keeps its bundles as bundleStats' keys.
        r.bundles = r.stats.iter().map(|s| s.bundle.clone()).collect();
    }
    r.load_manager = o.str("loadManagerClassName")?.map(str::to_string);
    r.version = o.str("brokerVersionString")?.map(str::to_string);
    unused.extend(o.unused());
    if let Some(s) = &sys {
        unused.extend(s.unused().into_iter().map(|f| format!("systemResourceUsage.{f}")));
    }
    r.unused = unused;
    Ok(r)
}

/// One topic's stats (the fields lbscope reads).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicStats {
    /// Traffic: rates, throughput, producers (`publishers`), consumers (over `subscriptions`).
    pub traffic: Traffic,
    /// `metadata.partitions` of a partitioned topic's stats.
    pub partitions: u32,
    /// `partitions` (per partition, with `--per-partition`).
    pub per_partition: Vec<(String, TopicStats)>,
    /// Top-level fields not used.
    pub unused: BTreeSet<String>,
}

/// Most unused field names remembered per stats object.
const MAX_UNUSED_KEYS: usize = 200;

struct CountSeq;
impl<'de> de::Deserialize<'de> for CountSeq {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IgnoredAny).map(|_| CountSeq)
    }
}

/// Number of elements of an array (0 for null).
struct Len(u32);
impl<'de> de::Deserialize<'de> for Len {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Len;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Len, A::Error> {
                let mut n = 0u32;
                while s.next_element::<CountSeq>()?.is_some() {
                    n = n.saturating_add(1);
                }
                Ok(Len(n))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Len, E> {
                Ok(Len(0))
            }
        }
        d.deserialize_any(V)
    }
}

/// A number field (null is 0; negative or not finite is an error).
struct Num(f64);
impl<'de> de::Deserialize<'de> for Num {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of 0 or more")
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Num, E> {
                if x.is_finite() && x >= 0.0 {
                    Ok(Num(x))
                } else {
                    Err(E::custom(format!("expected a rate of 0 or more, found {x}")))
                }
            }
            fn visit_u64<E: de::Error>(self, x: u64) -> Result<Num, E> {
                Ok(Num(x as f64))
            }
            fn visit_i64<E: de::Error>(self, x: i64) -> Result<Num, E> {
                self.visit_f64(x as f64)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Num, E> {
                Ok(Num(0.0))
            }
        }
        d.deserialize_any(V)
    }
}

/// Consumers of a `subscriptions` map: the length of each one's `consumers`.
struct Consumers(u32);
impl<'de> de::Deserialize<'de> for Consumers {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Sub(u32);
        impl<'de> de::Deserialize<'de> for Sub {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = Sub;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a subscription's stats")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Sub, A::Error> {
                        let mut n = 0;
                        while let Some(k) = m.next_key::<String>()? {
                            if k == "consumers" {
                                n = m.next_value::<Len>()?.0;
                            } else {
                                m.next_value::<IgnoredAny>()?;
                            }
                        }
                        Ok(Sub(n))
                    }
                }
                d.deserialize_map(V)
            }
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Consumers;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of subscriptions")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Consumers, A::Error> {
                let mut n = 0u32;
                while m.next_key::<IgnoredAny>()?.is_some() {
                    n = n.saturating_add(m.next_value::<Sub>()?.0);
                }
                Ok(Consumers(n))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Consumers, E> {
                Ok(Consumers(0))
            }
        }
        d.deserialize_any(V)
    }
}

/// `metadata.partitions`.
struct Meta(u32);
impl<'de> de::Deserialize<'de> for Meta {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Meta;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("partitioned topic metadata")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Meta, A::Error> {
                let mut n = 0u32;
                while let Some(k) = m.next_key::<String>()? {
                    if k == "partitions" {
                        let x = m.next_value::<u64>()?;
                        n = u32::try_from(x)
                            .map_err(|_| de::Error::custom(format!("{x} partitions is too many")))?;
                    } else {
                        m.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Meta(n))
            }
        }
        d.deserialize_map(V)
    }
}

/// Per-partition stats: partition name → stats.
struct PerPartition(Vec<(String, TopicStats)>);
impl<'de> de::Deserialize<'de> for PerPartition {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PerPartition;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of partitions to stats")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<PerPartition, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    if out.len() >= MAX_TOPICS {
                        return Err(de::Error::custom(format!(
                            "more than {} partitions",
                            thousands(MAX_TOPICS)
                        )));
                    }
                    let s = m.next_value::<TopicStats>()?;
                    out.push((k, s));
                }
                Ok(PerPartition(out))
            }
            fn visit_unit<E: de::Error>(self) -> Result<PerPartition, E> {
                Ok(PerPartition(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> de::Deserialize<'de> for TopicStats {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TopicStats;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a topic's stats (an object)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<TopicStats, A::Error> {
                let mut s = TopicStats::default();
                let mut producer_count = None;
                while let Some(k) = m.next_key::<String>()? {
                    match k.as_str() {
                        "msgRateIn" => s.traffic.msg_rate_in = m.next_value::<Num>()?.0,
                        "msgRateOut" => s.traffic.msg_rate_out = m.next_value::<Num>()?.0,
                        "msgThroughputIn" => s.traffic.throughput_in = m.next_value::<Num>()?.0,
                        "msgThroughputOut" => s.traffic.throughput_out = m.next_value::<Num>()?.0,
                        "publishers" => s.traffic.producers = m.next_value::<Len>()?.0,
                        "producerCount" => producer_count = Some(m.next_value::<Num>()?.0 as u32),
                        "subscriptions" => s.traffic.consumers = m.next_value::<Consumers>()?.0,
                        "metadata" => s.partitions = m.next_value::<Meta>()?.0,
                        "partitions" => s.per_partition = m.next_value::<PerPartition>()?.0,
                        _ => {
                            if s.unused.len() < MAX_UNUSED_KEYS {
                                s.unused.insert(k.chars().take(60).collect());
                            }
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                if let Some(p) = producer_count {
                    s.traffic.producers = s.traffic.producers.max(p);
                }
                Ok(s)
            }
        }
        d.deserialize_map(V)
    }
}

/// A topic named in a list or stats input, with its stats if they follow it.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedTopic {
    /// Full name as printed.
    pub name: String,
    /// Its stats.
    pub stats: Option<TopicStats>,
    /// Line of the name.
    pub line: usize,
}

/// A topic-list or topic-stats input: names one a line, each optionally followed
/// by its stats JSON; or a JSON array of names.
pub fn parse_topics(input: &str, text: &str) -> Result<Vec<NamedTopic>, ImportError> {
    let t = text.trim_start_matches('\u{feff}');
    if t.trim_start().starts_with('[') {
        return parse_topic_array(input, t);
    }
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut line = 1usize;
    let bytes = t.as_bytes();
    while pos < bytes.len() {
        // Skip blank space, counting lines.
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            if bytes[pos] == b'\n' {
                line += 1;
            }
            pos += 1;
        }
        if pos >= bytes.len() {
            break;
        }
        if bytes[pos] == OBJECT_OPEN {
            return Err(ImportError::bad(
                input,
                format!(
                    "line {line}: a topics stats JSON without a topic name on the line before it \
                     (print each topic's name before its stats)"
                ),
            ));
        }
        let end = t[pos..].find('\n').map_or(t.len(), |i| pos + i);
        let name = t[pos..end].trim();
        if !super::looks_like_topic_name(name) {
            return Err(ImportError::bad(
                input,
                format!(
                    "line {line}: expected a topic name like persistent://tenant/namespace/topic, found {:?}",
                    shorten(name, 80)
                ),
            ));
        }
        if super::clean_name(name).1 {
            return Err(ImportError::bad(
                input,
                format!(
                    "line {line}: the topic name \"{}\" has control characters or is longer than {} characters",
                    shorten(&super::clean_name(name).0, 60),
                    super::MAX_NAME_CHARS
                ),
            ));
        }
        if out.len() >= MAX_TOPICS {
            return Err(ImportError::too_large(
                input,
                format!(
                    "line {line}: more than {} topics; lbscope imports at most that many (each needs \
                     two of a scenario's 100,000 actions)",
                    thousands(MAX_TOPICS)
                ),
            ));
        }
        let name_line = line;
        pos = end;
        // A stats object may follow.
        let mut p = pos;
        let mut l = line;
        while p < bytes.len() && bytes[p].is_ascii_whitespace() {
            if bytes[p] == b'\n' {
                l += 1;
            }
            p += 1;
        }
        let mut stats = None;
        if p < bytes.len() && bytes[p] == OBJECT_OPEN {
            let rest = &t[p..];
            let mut it = serde_json::Deserializer::from_str(rest).into_iter::<TopicStats>();
            let s: TopicStats = match it.next() {
                Some(Ok(s)) => s,
                Some(Err(e)) => {
                    let msg = match super::json::error(input, &e) {
                        ImportError::Bad { message, .. } => message,
                        other => other.to_string(),
                    };
                    return Err(ImportError::bad(
                        input,
                        format!(
                            "the stats of {} (line {name_line}), {}",
                            shorten(name, 80),
                            relocate(&msg, l - 1)
                        ),
                    ));
                }
                None => {
                    return Err(ImportError::bad(
                        input,
                        format!("the stats of {} (line {name_line}) end early", shorten(name, 80)),
                    ))
                }
            };
            let used = it.byte_offset();
            l += rest[..used].bytes().filter(|b| *b == b'\n').count();
            p += used;
            pos = p;
            line = l;
            stats = Some(s);
        }
        out.push(NamedTopic {
            name: name.to_string(),
            stats,
            line: name_line,
        });
    }
    Ok(out)
}

/// Shift the `line N` of a JSON error message by `offset` lines.
fn relocate(msg: &str, offset: usize) -> String {
    if let Some(i) = msg.find("line ") {
        let num: String = msg[i + 5..].chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = num.parse::<usize>() {
            return format!("{}line {}{}", &msg[..i], n + offset, &msg[i + 5 + num.len()..]);
        }
    }
    msg.to_string()
}

fn parse_topic_array(input: &str, text: &str) -> Result<Vec<NamedTopic>, ImportError> {
    struct Names(Vec<String>);
    impl<'de> de::Deserialize<'de> for Names {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Names;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an array of topic names")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Names, A::Error> {
                    let mut out = Vec::new();
                    while let Some(n) = s.next_element::<String>()? {
                        if out.len() >= MAX_TOPICS {
                            return Err(de::Error::custom(format!(
                                "more than {} topics; lbscope imports at most that many",
                                thousands(MAX_TOPICS)
                            )));
                        }
                        out.push(n);
                    }
                    Ok(Names(out))
                }
            }
            d.deserialize_seq(V)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let names = match de::Deserialize::deserialize(&mut de) {
        Ok(Names(n)) => n,
        Err(e) => return Err(super::json::error(input, &e)),
    };
    de.end().map_err(|e| super::json::error(input, &e))?;
    let mut out = Vec::with_capacity(names.len());
    for (i, n) in names.into_iter().enumerate() {
        if !super::looks_like_topic_name(&n) || super::clean_name(&n).1 {
            return Err(ImportError::bad(
                input,
                format!(
                    "[{i}]: {:?} is not a topic name like persistent://tenant/namespace/topic",
                    shorten(&n, 80)
                ),
            ));
        }
        out.push(NamedTopic {
            name: n,
            stats: None,
            line: 1,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_follow_their_names() {
        let text = "persistent://public/default/a\n{\n  \"msgRateIn\" : 10.5,\n  \"msgThroughputIn\" : 1024,\n  \
                    \"publishers\" : [ {\"producerId\": 0}, {\"producerId\": 1} ],\n  \"subscriptions\" : {\n    \
                    \"s\" : { \"consumers\" : [ {}, {}, {} ], \"msgRateOut\": 3 } },\n  \"storageSize\" : 7\n}\n\
                    persistent://public/default/b\n";
        let t = parse_topics("s", text).unwrap();
        assert_eq!(t.len(), 2);
        let s = t[0].stats.as_ref().unwrap();
        assert_eq!(s.traffic.msg_rate_in, 10.5);
        assert_eq!(s.traffic.throughput_in, 1024.0);
        assert_eq!((s.traffic.producers, s.traffic.consumers), (2, 3));
        assert_eq!(s.unused.iter().cloned().collect::<Vec<_>>(), ["storageSize"]);
        assert_eq!(
            (t[1].name.as_str(), t[1].line),
            ("persistent://public/default/b", 10)
        );
        assert!(t[1].stats.is_none());
    }

    #[test]
    fn bad_stats_name_their_line() {
        let e = parse_topics("s", "persistent://t/n/a\n{\n\"msgRateIn\": -1\n}\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s: the stats of persistent://t/n/a (line 1), line 3 column 15: expected a rate of 0 or more, found -1"
        );
        let e = parse_topics("s", "persistent://t/n/a\n{\n\"msgRateIn\": 1,\n").unwrap_err();
        assert!(e.to_string().contains("ends early at line 4"), "{e}");
        let e = parse_topics("s", "{\"msgRateIn\": 1}").unwrap_err();
        assert!(e.to_string().contains("without a topic name"), "{e}");
        let e = parse_topics("s", "hello\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s: line 1: expected a topic name like persistent://tenant/namespace/topic, found \"hello\""
        );
    }

    #[test]
    fn bundles_and_reports() {
        let v: Value =
            serde_json::from_str(r#"{"boundaries":["0x00000000","0x80000000","0xffffffff"],"numBundles":2}"#)
                .unwrap();
        assert_eq!(parse_bundles("b", &v).unwrap().0, [0, 0x8000_0000, 0xFFFF_FFFF]);
        let v: Value = serde_json::from_str(r#"{"boundaries":["0x00000000","0x1ffffffff"]}"#).unwrap();
        assert_eq!(
            parse_bundles("b", &v).unwrap_err().to_string(),
            "b: boundaries[1]: 0x1ffffffff is past the end of the hash ring (0xffffffff)"
        );
        let v: Value = serde_json::from_str(
            r#"{"webServiceUrl":"http://broker-1:8080","cpu":{"usage":150.0,"limit":800.0},
                "bundles":["public/default/0x00000000_0x80000000"],
                "lastStats":{"public/default/0x00000000_0x80000000":{"msgRateIn":5.0,"topics":2,"cacheSize":0}}}"#,
        )
        .unwrap();
        let r = parse_load_report("r", &v).unwrap();
        assert_eq!(r.broker, "broker-1:8080");
        assert_eq!(
            r.resources[0],
            Some(Usage {
                usage: 150.0,
                limit: 800.0
            })
        );
        assert_eq!(r.stats[0].traffic.msg_rate_in, 5.0);
        assert_eq!(r.unused, ["lastStats.*.cacheSize"]);
    }
}
