//! Topic names and Pulsar's topic hash.
//!
//! Pulsar maps a topic to a bundle by hashing its full name
//! (`persistent://tenant/namespace/topic`, UTF-8) with standard CRC-32 (IEEE),
//! read as an unsigned 32-bit number. A partition `NAME-partition-i` is its own
//! topic for hashing.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Topic domain: persistent (stored in BookKeeper) or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    /// `persistent://`
    #[default]
    Persistent,
    /// `non-persistent://`
    NonPersistent,
}

/// A fully qualified topic name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TopicName(pub String);

/// Why a topic name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopicNameError {
    /// Not of the form `domain://tenant/namespace/topic` or `tenant/namespace/topic`.
    #[error("topic name {0:?} is not of the form persistent://tenant/namespace/topic")]
    Malformed(String),
}

impl TopicName {
    /// Parse `persistent://t/ns/x`, `non-persistent://t/ns/x`, `t/ns/x`, or a short
    /// name `x` (which goes to `persistent://public/default/x`, as Pulsar does).
    pub fn parse(s: &str) -> Result<TopicName, TopicNameError> {
        let s = s.trim();
        let bad = || TopicNameError::Malformed(s.to_string());
        let (domain, rest) = if let Some(r) = s.strip_prefix("persistent://") {
            ("persistent", r)
        } else if let Some(r) = s.strip_prefix("non-persistent://") {
            ("non-persistent", r)
        } else if s.contains("://") {
            return Err(bad());
        } else {
            ("persistent", s)
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let parts = match parts.as_slice() {
            [t] => vec!["public", "default", t],
            [a, b, c] => vec![*a, *b, *c],
            _ => return Err(bad()),
        };
        if parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        Ok(TopicName(format!(
            "{domain}://{}/{}/{}",
            parts[0], parts[1], parts[2]
        )))
    }

    /// `tenant/namespace` of this topic.
    pub fn namespace(&self) -> &str {
        let rest = self.0.split_once("://").map_or(self.0.as_str(), |(_, r)| r);
        rest.rsplit_once('/').map_or(rest, |(ns, _)| ns)
    }

    /// The short (local) name.
    pub fn local(&self) -> &str {
        self.0.rsplit_once('/').map_or(self.0.as_str(), |(_, l)| l)
    }

    /// The domain.
    pub fn domain(&self) -> Domain {
        if self.0.starts_with("non-persistent://") {
            Domain::NonPersistent
        } else {
            Domain::Persistent
        }
    }

    /// The name of partition `i` of this (partitioned) topic.
    pub fn partition(&self, i: u32) -> TopicName {
        TopicName(format!("{}-partition-{i}", self.0))
    }

    /// Pulsar's topic hash.
    pub fn hash(&self) -> u32 {
        topic_hash(&self.0)
    }
}

impl fmt::Display for TopicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// CRC-32 (IEEE) of the UTF-8 bytes, as Pulsar's default bundle hash computes it.
pub fn topic_hash(full_name: &str) -> u32 {
    crc32fast::hash(full_name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_of_the_doc_topic() {
        let t = TopicName::parse("persistent://public/default/my-topic").unwrap();
        assert_eq!(t.hash(), 0x2bad45f7);
        // The short form resolves to the same full name.
        assert_eq!(TopicName::parse("my-topic").unwrap(), t);
        assert_eq!(topic_hash(""), 0);
        // CRC-32 check value.
        assert_eq!(topic_hash("123456789"), 0xCBF4_3926);
    }

    #[test]
    fn parse_and_parts() {
        let t = TopicName::parse("non-persistent://acme/orders/t1").unwrap();
        assert_eq!(t.domain(), Domain::NonPersistent);
        assert_eq!(t.namespace(), "acme/orders");
        assert_eq!(t.local(), "t1");
        assert_eq!(t.partition(2).0, "non-persistent://acme/orders/t1-partition-2");
        assert!(TopicName::parse("a/b").is_err());
        assert!(TopicName::parse("http://a/b/c").is_err());
        assert!(TopicName::parse("a//c").is_err());
    }
}
