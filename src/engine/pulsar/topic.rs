//! Topic names and Pulsar's topic hash.
//!
//! Pulsar maps a topic to a bundle by hashing its full name
//! (`persistent://tenant/namespace/topic`, UTF-8) with standard CRC-32 (IEEE),
//! read as an unsigned 32-bit number (`NamespaceBundles.findBundle` hashes
//! `TopicName.toString()`). A partition `NAME-partition-i` is its own topic for
//! hashing. A legacy name `persistent://tenant/cluster/namespace/topic` is hashed
//! whole, cluster included, and belongs to the namespace
//! `tenant/cluster/namespace`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Topic domain: persistent (stored in BookKeeper) or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    /// `persistent://`
    #[default]
    Persistent,
    /// `non-persistent://`
    NonPersistent,
    /// `segment://`: one segment of a scalable topic (PIP-460),
    /// `segment://tenant/namespace/topic/{start}-{end}-{id}`; only the engine
    /// names them (see [`super::scalable_topic`]).
    Segment,
}

/// A fully qualified topic name. The text is shared: the topic map, the
/// namespace's ring and the topic itself hold one copy of it, and a snapshot of
/// the cluster copies none. Equality, order and hash are those of the text; it
/// is written and read as a plain string. Two names compare by pointer first
/// (a lookup with the shared copy ends there), then eight bytes at a time: the
/// topic maps are searched with names that share a long `persistent://` prefix,
/// which a byte-at-a-time comparison (wasm's `memcmp`) walks one byte per step.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TopicName(pub Arc<str>);

impl PartialEq for TopicName {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.len() == other.0.len()
                && super::ids::cmp_bytes(self.0.as_bytes(), other.0.as_bytes()).is_eq())
    }
}

impl Eq for TopicName {}

/// The text's hash, as equality is the text's.
impl std::hash::Hash for TopicName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl Ord for TopicName {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            super::ids::cmp_bytes(self.0.as_bytes(), other.0.as_bytes())
        }
    }
}

impl PartialOrd for TopicName {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Why a topic name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopicNameError {
    /// Not of the form `domain://tenant/namespace/topic` or `tenant/namespace/topic`.
    #[error("topic name {0:?} is not of the form persistent://tenant/namespace/topic")]
    Malformed(String),
    /// Longer than [`MAX_NAME_BYTES`].
    #[error("topic name {start:?}… is {len} bytes long; lbscope reads topic names of at most {max} bytes", max = MAX_NAME_BYTES)]
    TooLong {
        /// The name's first characters.
        start: String,
        /// Its length in bytes.
        len: usize,
    },
    /// One action would create names taking more than [`MAX_BULK_NAME_BYTES`].
    #[error("{count} topic names of about {each} bytes each are {total} MiB of names; one action may create at most {max} MiB", total = (*count as u64 * *each as u64) >> 20, max = MAX_BULK_NAME_BYTES >> 20)]
    TooManyNameBytes {
        /// Topics the action would create.
        count: u32,
        /// Bytes of each name.
        each: usize,
    },
}

/// Longest topic name lbscope accepts, in bytes of the full name
/// (`persistent://tenant/namespace/topic`). Pulsar itself sets no length limit
/// (its metadata store does, far higher); the cap keeps every name a page,
/// a link and an event can show, and bounds the memory one name costs.
pub const MAX_NAME_BYTES: usize = 16 * 1024;

/// Most bytes of topic names one action may create (a bulk `create_topics` or
/// a partitioned topic's partitions): a million short names fit, a million
/// 16 KiB names do not.
pub const MAX_BULK_NAME_BYTES: usize = 64 << 20;

/// Refuse an action that would create `count` names of about `each` bytes
/// when they add up to more than [`MAX_BULK_NAME_BYTES`] (checked before any
/// name is built).
pub fn check_bulk(count: u32, each: usize) -> Result<(), TopicNameError> {
    if (count as u64).saturating_mul(each as u64) > MAX_BULK_NAME_BYTES as u64 {
        return Err(TopicNameError::TooManyNameBytes { count, each });
    }
    Ok(())
}

impl TopicName {
    /// Parse a topic name as Pulsar's `TopicName` does:
    ///
    /// * `persistent://tenant/namespace/topic` (or `non-persistent://`): the
    ///   namespace is `tenant/namespace`;
    /// * the legacy form `persistent://tenant/cluster/namespace/topic`: the
    ///   namespace is `tenant/cluster/namespace`. After the domain, the name is cut
    ///   at its first three `/`, so the local name may itself hold `/`, and a name
    ///   with four or more segments is always read as legacy;
    /// * the short forms `tenant/namespace/topic` and `topic` (which goes to
    ///   `persistent://public/default/topic`); a short name with four segments is
    ///   refused, as in Pulsar.
    ///
    /// Tenant, cluster, namespace and local name must not be empty.
    ///
    /// A full name longer than [`MAX_NAME_BYTES`] is refused (before anything
    /// is built from it).
    pub fn parse(s: &str) -> Result<TopicName, TopicNameError> {
        let s = s.trim();
        let too_long = |len: usize| TopicNameError::TooLong {
            start: s.chars().take(40).collect(),
            len,
        };
        if s.len() > MAX_NAME_BYTES {
            return Err(too_long(s.len()));
        }
        let name = Self::parse_form(s)?;
        // The short forms gain `persistent://public/default/` or `persistent://`.
        if name.0.len() > MAX_NAME_BYTES {
            return Err(too_long(name.0.len()));
        }
        Ok(name)
    }

    fn parse_form(s: &str) -> Result<TopicName, TopicNameError> {
        let bad = || TopicNameError::Malformed(s.to_string());
        let (domain, rest) = match s.split_once("://") {
            Some(("persistent", r)) => ("persistent", r),
            Some(("non-persistent", r)) => ("non-persistent", r),
            Some(_) => return Err(bad()),
            None => {
                let parts: Vec<&str> = s.split('/').collect();
                return match parts.as_slice() {
                    [t] if !t.is_empty() => Ok(TopicName(format!("persistent://public/default/{t}").into())),
                    [a, b, c] if !a.is_empty() && !b.is_empty() && !c.is_empty() => {
                        Ok(TopicName(format!("persistent://{s}").into()))
                    }
                    _ => Err(bad()),
                };
            }
        };
        let parts: Vec<&str> = rest.splitn(4, '/').collect();
        if parts.len() < 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        Ok(TopicName(format!("{domain}://{rest}").into()))
    }

    /// The part after `domain://`, cut into tenant, [cluster,] namespace, local name.
    fn segments(&self) -> Vec<&str> {
        let rest = self.0.split_once("://").map_or(&*self.0, |(_, r)| r);
        if self.0.starts_with("segment://") {
            // tenant, namespace, topic, then the range descriptor.
            let mut parts: Vec<&str> = rest.splitn(4, '/').collect();
            parts.truncate(3);
            return parts;
        }
        rest.splitn(4, '/').collect()
    }

    /// The namespace of this topic: `tenant/namespace`, or `tenant/cluster/namespace`
    /// for a legacy name (`TopicName.getNamespace`).
    pub fn namespace(&self) -> &str {
        let rest = self.0.split_once("://").map_or(&*self.0, |(_, r)| r);
        if self.0.starts_with("segment://") {
            let end = rest.match_indices('/').nth(1).map_or(rest.len(), |(at, _)| at);
            return &rest[..end];
        }
        // The namespace is every segment but the last: up to the (n - 1)-th `/`
        // (`segments` cuts at most 4).
        let n = (rest.bytes().filter(|&b| b == b'/').count() + 1).min(4);
        let end = rest
            .match_indices('/')
            .nth(n.saturating_sub(2))
            .map_or(rest.len(), |(at, _)| at);
        &rest[..end]
    }

    /// The short (local) name (`TopicName.getLocalName`); it may contain `/` in a
    /// legacy name.
    pub fn local(&self) -> &str {
        self.segments().last().copied().unwrap_or("")
    }

    /// Whether this is a legacy name with a cluster segment (`!TopicName.isV2()`).
    pub fn is_legacy(&self) -> bool {
        self.segments().len() == 4
    }

    /// The domain.
    pub fn domain(&self) -> Domain {
        if self.0.starts_with("non-persistent://") {
            Domain::NonPersistent
        } else if self.0.starts_with("segment://") {
            Domain::Segment
        } else {
            Domain::Persistent
        }
    }

    /// The name of partition `i` of this (partitioned) topic.
    pub fn partition(&self, i: u32) -> TopicName {
        TopicName(format!("{}-partition-{i}", self.0).into())
    }

    /// The name that sorts before every other (a bound for range queries).
    pub fn empty() -> TopicName {
        TopicName(Arc::from(""))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
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
    #[test]
    fn topic_name_order_and_equality_are_the_texts() {
        let names = [
            "",
            "a",
            "persistent://public/default/t",
            "persistent://public/default/t-0",
            "persistent://public/default/t-00",
            "persistent://public/default/t-1",
            "persistent://public/default/t-10",
            "persistent://public/default/u",
            "non-persistent://public/default/t",
            "persistent://public/défault/t",
        ];
        for a in names {
            for b in names {
                let (x, y) = (TopicName(a.into()), TopicName(b.into()));
                assert_eq!(x.cmp(&y), a.cmp(b), "{a} vs {b}");
                assert_eq!(x.partial_cmp(&y), Some(a.cmp(b)), "{a} vs {b}");
                assert_eq!(x == y, a == b, "{a} vs {b}");
            }
        }
        // One shared copy is equal to itself without reading the text.
        let x = TopicName("persistent://public/default/t".into());
        assert_eq!(x.cmp(&x.clone()), std::cmp::Ordering::Equal);
    }

    proptest::proptest! {
        #[test]
        fn topic_names_order_as_their_texts(a in "[a-c/:é-]{0,40}", b in "[a-c/:é-]{0,40}") {
            let (x, y) = (TopicName(a.as_str().into()), TopicName(b.as_str().into()));
            proptest::prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            proptest::prop_assert_eq!(x == y, a == b);
        }
    }

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
        assert_eq!(
            t.partition(2).as_str(),
            "non-persistent://acme/orders/t1-partition-2"
        );
        assert!(TopicName::parse("a/b").is_err());
        assert!(TopicName::parse("http://a/b/c").is_err());
        assert!(TopicName::parse("a//c").is_err());
    }

    #[test]
    fn a_name_past_the_cap_is_refused_with_its_length() {
        let at_cap = format!("persistent://a/b/{}", "x".repeat(MAX_NAME_BYTES - 17));
        assert_eq!(TopicName::parse(&at_cap).unwrap().0.len(), MAX_NAME_BYTES);
        let e = TopicName::parse(&format!("{at_cap}y")).unwrap_err();
        assert!(
            matches!(e, TopicNameError::TooLong { len, .. } if len == MAX_NAME_BYTES + 1),
            "{e}"
        );
        assert!(e.to_string().len() < 200, "{e}");
        // A short name that the default namespace makes too long.
        let short = "x".repeat(MAX_NAME_BYTES - 10);
        assert!(matches!(
            TopicName::parse(&short),
            Err(TopicNameError::TooLong { len, .. }) if len == MAX_NAME_BYTES - 10 + 28
        ));
        // The bulk budget: a million short names pass, a million long ones do not.
        check_bulk(1 << 20, 40).unwrap();
        let e = check_bulk(100, 10 << 20).unwrap_err().to_string();
        assert!(e.contains("1000 MiB") && e.contains("64 MiB"), "{e}");
    }

    /// Cases of Pulsar's `TopicNameTest` that concern the namespace and the hashed
    /// name; expected values from its assertions (the hashes are CRC-32 of the
    /// names those assertions print as `toString()`).
    mod topic_name_test {
        use super::super::*;

        #[test]
        fn topic() {
            let t = TopicName::parse("persistent://tenant/cluster/namespace/topic").unwrap();
            assert_eq!(t.namespace(), "tenant/cluster/namespace");
            assert_eq!(t.to_string(), "persistent://tenant/cluster/namespace/topic");
            assert_eq!(t.domain(), Domain::Persistent);
            assert_eq!(t.local(), "topic");
            assert!(t.is_legacy());
            // The whole legacy name is hashed, cluster included.
            assert_eq!(
                t.hash(),
                topic_hash("persistent://tenant/cluster/namespace/topic")
            );
            assert_eq!(t.hash(), 0x2c2d_e1e4);
            for bad in [
                "://tenant.namespace:topic",
                "://tenant.namespace",
                "invalid://tenant/cluster/namespace/topic",
                "tenant/cluster/namespace/topic",
                "persistent:///cluster/namespace/mydest-1",
                "persistent://pulsar//namespace/mydest-1",
                "persistent://pulsar/cluster//mydest-1",
                "persistent://pulsar/cluster/namespace/",
                "://pulsar/cluster/namespace/",
                "://tenant/cluster/namespace",
                " ",
            ] {
                assert!(TopicName::parse(bad).is_err(), "{bad:?} should be refused");
            }
            // A legacy local name keeps its slashes (cut at the first three `/` only).
            let slash = TopicName::parse("persistent://tenant/cluster/namespace/ns-abc/table/1").unwrap();
            assert_eq!(slash.local(), "ns-abc/table/1");
            assert_eq!(slash.namespace(), "tenant/cluster/namespace");
            let two = TopicName::parse("persistent://tenant/cluster/namespace//ns-abc//table//1//").unwrap();
            assert_eq!(two.local(), "/ns-abc//table//1//");
            let p = TopicName::parse("persistent://myprop/mycolo/myns/mytopic").unwrap();
            assert_eq!(
                p.partition(0).as_str(),
                "persistent://myprop/mycolo/myns/mytopic-partition-0"
            );
            assert_eq!(p.partition(0).namespace(), "myprop/mycolo/myns");
        }

        #[test]
        fn test_topic_name_without_cluster() {
            let t = TopicName::parse("persistent://tenant/namespace/topic").unwrap();
            assert_eq!(t.namespace(), "tenant/namespace");
            assert_eq!(t.to_string(), "persistent://tenant/namespace/topic");
            assert_eq!(t.local(), "topic");
            assert!(!t.is_legacy());
            assert_eq!(t.hash(), 0xd362_a71f);
        }

        #[test]
        fn test_short_topic_name() {
            let t = TopicName::parse("short-topic").unwrap();
            assert_eq!(t.as_str(), "persistent://public/default/short-topic");
            assert_eq!(t.local(), "short-topic");
            let t = TopicName::parse("test-tenant/test-namespace/test-short-topic").unwrap();
            assert_eq!(t.namespace(), "test-tenant/test-namespace");
            assert_eq!(t.local(), "test-short-topic");
            assert!(TopicName::parse("pulsar/cluster/namespace/test").is_err());
            assert!(TopicName::parse("pulsar/cluster").is_err());
        }
    }
}
