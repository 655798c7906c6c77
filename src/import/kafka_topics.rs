//! `kafka-topics.sh --describe` output: one header line per topic
//! (`Topic: orders\tTopicId: …\tPartitionCount: 6\tReplicationFactor: 3\tConfigs: …`)
//! followed by one tab-indented line per partition (`\tTopic: orders\tPartition: 0\t
//! Leader: 1\tReplicas: 1,2,3\tIsr: 1,2,3…`), as `TopicCommand` prints them today.
//! Older releases wrote `Topic:orders\tPartitionCount:6` (no space after the colon,
//! no `TopicId`); both are read.

use super::{thousands, ImportError};

/// Kafka's limit on topic name length.
pub const MAX_TOPIC_NAME: usize = 249;

fn bad(input: &str, line: usize, msg: impl std::fmt::Display) -> ImportError {
    ImportError::bad(input, format!("line {line}: {msg}"))
}

/// A Kafka topic name: 1..=249 characters of `[a-zA-Z0-9._-]` (Kafka's `Topic.validate`).
pub fn check_topic_name(input: &str, line: usize, name: &str) -> Result<(), ImportError> {
    if name.is_empty() {
        return Err(bad(input, line, "an empty topic name"));
    }
    if name.chars().count() > MAX_TOPIC_NAME {
        return Err(bad(
            input,
            line,
            format!(
                "topic name {}… is {} characters; Kafka allows at most {MAX_TOPIC_NAME}",
                super::shorten(name, 40),
                name.chars().count()
            ),
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        return Err(bad(
            input,
            line,
            format!(
                "{:?} is not a legal Kafka topic name (letters, digits, '.', '_' and '-' only)",
                super::shorten(name, 80)
            ),
        ));
    }
    Ok(())
}

/// Most topics read from one output.
pub const MAX_TOPICS: usize = 100_000;

/// One topic's header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicInfo {
    /// Name.
    pub name: String,
    /// `PartitionCount`.
    pub partitions: u32,
    /// `ReplicationFactor`.
    pub replication_factor: Option<u32>,
    /// Line of the header (1-based).
    pub line: usize,
}

/// What was read: the topics, and the field names present that lbscope does not use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Described {
    /// Topics in output order.
    pub topics: Vec<TopicInfo>,
    /// Unused field names (`TopicId`, `Configs`, `Leader`, …).
    pub unused: Vec<String>,
}

/// Split `Key: value` / `Key:value` tab-separated fields.
fn fields(line: &str) -> impl Iterator<Item = (&str, &str)> {
    line.split('\t')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| match f.split_once(':') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (f, ""),
        })
}

/// Parse a `kafka-topics.sh --describe` output.
pub fn parse(input: &str, text: &str) -> Result<Described, ImportError> {
    let mut out = Described::default();
    let mut unused = std::collections::BTreeSet::new();
    // (topic index, partition lines seen)
    let mut open: Option<(usize, usize)> = None;
    let close = |open: Option<(usize, usize)>, out: &Described, at: usize| -> Result<(), ImportError> {
        if let Some((i, seen)) = open {
            let t = &out.topics[i];
            if seen > 0 && seen != t.partitions as usize {
                return Err(ImportError::bad(
                    input,
                    format!(
                        "line {}: topic {} has PartitionCount {} but {seen} partition lines follow before line {at} \
                         (is the text cut short?)",
                        t.line, t.name, t.partitions
                    ),
                ));
            }
        }
        Ok(())
    };
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last = n;
        if raw.trim().is_empty() {
            continue;
        }
        let indented = raw.starts_with('\t') || raw.starts_with(' ');
        let f: Vec<(&str, &str)> = fields(raw).collect();
        if !indented && f.first().is_some_and(|(k, _)| *k == "Topic") {
            close(open, &out, n)?;
            if out.topics.len() >= MAX_TOPICS {
                return Err(ImportError::too_large(
                    input,
                    format!("line {n}: more than {} topics", thousands(MAX_TOPICS)),
                ));
            }
            let name = f[0].1;
            check_topic_name(input, n, name)?;
            let mut partitions = None;
            let mut rf = None;
            for (k, v) in &f[1..] {
                match *k {
                    "PartitionCount" => {
                        partitions = Some(v.parse::<u32>().map_err(|_| {
                            ImportError::bad(
                                input,
                                format!("line {n}: PartitionCount {v:?} is not a whole number"),
                            )
                        })?)
                    }
                    "ReplicationFactor" => rf = v.parse::<u32>().ok(),
                    other => {
                        unused.insert(other.to_string());
                    }
                }
            }
            let partitions = partitions.ok_or_else(|| {
                ImportError::bad(
                    input,
                    format!("line {n}: topic {name} has no PartitionCount field"),
                )
            })?;
            if partitions == 0 {
                return Err(ImportError::bad(
                    input,
                    format!("line {n}: topic {name} has PartitionCount 0"),
                ));
            }
            out.topics.push(TopicInfo {
                name: name.to_string(),
                partitions,
                replication_factor: rf,
                line: n,
            });
            open = Some((out.topics.len() - 1, 0));
        } else if indented && f.first().is_some_and(|(k, _)| *k == "Topic") {
            let Some((ti, seen)) = open else {
                return Err(ImportError::bad(
                    input,
                    format!("line {n}: a partition line before any topic line"),
                ));
            };
            if f[0].1 != out.topics[ti].name {
                return Err(ImportError::bad(
                    input,
                    format!(
                        "line {n}: a partition line of topic {} under topic {}",
                        super::shorten(f[0].1, 80),
                        out.topics[ti].name
                    ),
                ));
            }
            for (k, _) in &f[1..] {
                if *k != "Partition" {
                    unused.insert((*k).to_string());
                }
            }
            open = Some((ti, seen + 1));
        } else {
            return Err(ImportError::bad(
                input,
                format!(
                    "line {n}: not a kafka-topics.sh --describe line: {:?}",
                    super::shorten(raw.trim(), 80)
                ),
            ));
        }
    }
    close(open, &out, last + 1)?;
    out.unused = unused.into_iter().collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_new_and_old_headers() {
        let text = "Topic: orders\tTopicId: 3Qd1\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: cleanup.policy=delete\n\
                    \tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\tElr: N/A\tLastKnownElr: N/A\n\
                    \tTopic: orders\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,3,1\tElr: N/A\tLastKnownElr: N/A\n\
                    Topic:payments\tPartitionCount:3\tReplicationFactor:1\tConfigs:\n";
        let d = parse("t", text).unwrap();
        assert_eq!(d.topics.len(), 2);
        assert_eq!((d.topics[0].name.as_str(), d.topics[0].partitions), ("orders", 2));
        assert_eq!(d.topics[0].replication_factor, Some(3));
        assert_eq!(
            (d.topics[1].name.as_str(), d.topics[1].partitions),
            ("payments", 3)
        );
        assert_eq!(
            d.unused,
            [
                "Configs",
                "Elr",
                "Isr",
                "LastKnownElr",
                "Leader",
                "Replicas",
                "TopicId"
            ]
        );
    }

    #[test]
    fn a_cut_output_is_named() {
        let text = "Topic: orders\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: \n\
                    \tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n";
        let e = parse("t", text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: line 1: topic orders has PartitionCount 3 but 1 partition lines follow before line 3 \
             (is the text cut short?)"
        );
        let e = parse("t", "Topic: x\tPartitionCount: many\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: line 1: PartitionCount \"many\" is not a whole number"
        );
        let e = parse("t", "Topic: x\tPartitionCount: 1\nhello\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: line 2: not a kafka-topics.sh --describe line: \"hello\""
        );
    }
}
