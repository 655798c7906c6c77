//! The names lbscope keys everything by: a broker ([`BrokerId`]), a namespace
//! as bundle ids share it ([`NamespaceName`]) and a bundle ([`BundleId`]). They
//! depend on nothing but the hash range ([`BundleRange`]), so brokers, load
//! data, ownership and events can all name each other without importing one
//! another.

use super::bundle::BundleRange;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A broker's id (its name, e.g. `broker-1`). Equality and order are those of
/// the text: two clones of one id are equal at once, other pairs compare eight
/// bytes at a time inline (the maps keyed by broker are walked for every
/// candidate of every lookup).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BrokerId(pub Arc<str>);

impl BrokerId {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for BrokerId {
    fn from(s: &str) -> Self {
        BrokerId(s.into())
    }
}

impl From<String> for BrokerId {
    fn from(s: String) -> Self {
        BrokerId(s.into())
    }
}

impl std::hash::Hash for BrokerId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq for BrokerId {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.len() == other.0.len() && cmp_bytes(self.0.as_bytes(), other.0.as_bytes()).is_eq())
    }
}

impl Eq for BrokerId {}

impl Ord for BrokerId {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            cmp_bytes(self.0.as_bytes(), other.0.as_bytes())
        }
    }
}

impl PartialOrd for BrokerId {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for BrokerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A namespace name as bundle ids carry it (`tenant/namespace`): one shared
/// string per namespace, so cloning a [`BundleId`] copies no text, and ids of
/// the same namespace compare equal by pointer before looking at the bytes.
/// Equality, order and hash are those of the text.
#[derive(Clone, Default)]
pub struct NamespaceName(Arc<str>);

impl NamespaceName {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for NamespaceName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for NamespaceName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for NamespaceName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for NamespaceName {
    fn from(s: &str) -> Self {
        NamespaceName(s.into())
    }
}

impl From<String> for NamespaceName {
    fn from(s: String) -> Self {
        NamespaceName(s.into())
    }
}

impl From<&String> for NamespaceName {
    fn from(s: &String) -> Self {
        NamespaceName(s.as_str().into())
    }
}

impl PartialEq for NamespaceName {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Eq for NamespaceName {}

impl PartialEq<str> for NamespaceName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for NamespaceName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for NamespaceName {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<NamespaceName> for str {
    fn eq(&self, other: &NamespaceName) -> bool {
        self == &*other.0
    }
}

impl PartialEq<NamespaceName> for &str {
    fn eq(&self, other: &NamespaceName) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<NamespaceName> for String {
    fn eq(&self, other: &NamespaceName) -> bool {
        self.as_str() == &*other.0
    }
}

impl Ord for NamespaceName {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            cmp_bytes(self.0.as_bytes(), other.0.as_bytes())
        }
    }
}

impl PartialOrd for NamespaceName {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::hash::Hash for NamespaceName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (*self.0).hash(state);
    }
}

impl std::fmt::Display for NamespaceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Debug for NamespaceName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for NamespaceName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for NamespaceName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(NamespaceName::from)
    }
}

/// A bundle's full name: `tenant/namespace/0xLLLLLLLL_0xUUUUUUUU`.
///
/// Ordered by namespace (bytewise), then range, exactly as a derived `Ord` would
/// order it; the comparison is written out because it runs in every lookup of
/// the bundle maps (a libc `memcmp` call per tree node dominated a round at
/// 16 384 bundles). The ids a simulation makes share their namespace's
/// [`NamespaceName`], so most comparisons never read the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BundleId {
    /// `tenant/namespace`.
    pub namespace: NamespaceName,
    /// The hash range.
    pub range: BundleRange,
}

/// Bytewise lexicographic order of two strings (the order of `str::cmp`), eight
/// bytes at a time.
#[inline]
pub(crate) fn cmp_bytes(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let n = a.len().min(b.len());
    let (mut x, mut y) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        let (p, q) = (
            u64::from_be_bytes(p.try_into().unwrap_or([0; 8])),
            u64::from_be_bytes(q.try_into().unwrap_or([0; 8])),
        );
        if p != q {
            return p.cmp(&q);
        }
    }
    for (p, q) in x.remainder().iter().zip(y.remainder()) {
        if p != q {
            return p.cmp(q);
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for BundleId {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.namespace
            .cmp(&other.namespace)
            .then_with(|| self.range.cmp(&other.range))
    }
}

impl PartialOrd for BundleId {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for BundleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broker_id_order_and_equality_are_the_texts() {
        let names = [
            "",
            "a",
            "ab",
            "b",
            "broker-0",
            "broker-00",
            "broker-0000",
            "broker-0001",
            "broker-1",
            "broker-10",
            "broker-0000-extra-long-name",
            "broker-0000-extra-long-namf",
            "é",
            "z",
        ];
        for a in names {
            for b in names {
                let (x, y) = (BrokerId(a.into()), BrokerId(b.into()));
                assert_eq!(x.cmp(&y), a.cmp(b), "{a} vs {b}");
                assert_eq!(x == y, a == b, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn bundle_id_order_is_the_derived_order() {
        let names = [
            "",
            "a",
            "a/b",
            "a/bc",
            "ab",
            "public/default",
            "public/defaulu",
            "public/default-1",
            "pulsar/system",
            "zzzzzzzzzzzzzzzzz",
            "zzzzzzzzzzzzzzzzy",
        ];
        let ranges = [
            BundleRange { lower: 0, upper: 5 },
            BundleRange { lower: 0, upper: 9 },
            BundleRange { lower: 7, upper: 8 },
        ];
        let ids: Vec<BundleId> = names
            .iter()
            .flat_map(|n| {
                ranges.iter().map(move |r| BundleId {
                    namespace: (*n).into(),
                    range: *r,
                })
            })
            .collect();
        for a in &ids {
            for b in &ids {
                let derived = (a.namespace.as_str(), a.range).cmp(&(b.namespace.as_str(), b.range));
                assert_eq!(a.cmp(b), derived, "{a} vs {b}");
                assert_eq!(a == b, derived.is_eq());
                // A copy of the text (another pointer) compares the same.
                let c = BundleId {
                    namespace: a.namespace.as_str().into(),
                    range: a.range,
                };
                assert_eq!(c.cmp(b), derived, "{c} vs {b}");
                assert_eq!(c == *b, derived.is_eq());
            }
        }
    }
}
