//! Namespace isolation policies (`pulsar-admin ns-isolation-policy set`): which
//! brokers may own the bundles of which namespaces.
//!
//! A policy names namespaces, primary brokers and secondary brokers by regular
//! expressions, and an auto-failover policy (`min_available`: `min_limit`,
//! `usage_threshold`). Both load managers apply the policies the same way
//! (`LoadManagerShared.applyNamespacePolicies`; the extensible manager through
//! `IsolationPoliciesHelper` / `BrokerIsolationPoliciesFilter`):
//!
//! * a namespace matched by a policy may only go to that policy's primary
//!   brokers; its secondary brokers are added when fewer than `min_limit`
//!   primaries are available (`MinAvailablePolicy.shouldFailoverToSecondary`);
//!   no other broker is ever a candidate, so with neither a primary nor a
//!   secondary left the bundle has no owner;
//! * a namespace no policy matches may go to the *shared* brokers: those that are
//!   nobody's primary (`NamespaceIsolationPolicies.isSharedBroker`; a broker that
//!   is only somebody's secondary is shared). In this case only, a broker must
//!   also accept persistent topics, which the modular load manager reads from the
//!   broker's load report: a broker whose first report has not reached the leader
//!   is no candidate there (the extensible manager reads it from the broker
//!   registry, so it is).
//!
//! `usage_threshold` is validated and kept but no load manager reads it when
//! placing: both count the primaries with `shouldFailoverToSecondary(int)`, which
//! only compares with `min_limit`.
//!
//! Matching follows Java's `String.matches`: the whole name must match. A broker
//! is matched by its host, the part of its name before the last `:` (Pulsar's
//! broker ids are `host:port`; lbscope's broker names usually have no port, and
//! then the whole name is the host), and, as `NamespaceIsolationPolicyImpl` does,
//! also by the host without a numeric `:port` suffix.
//!
//! Regular expressions are read in an ASCII mode (as Java's defaults: `\d`, `\w`,
//! `\s` and `(?i)` are ASCII-only; see [`Pattern`]). Java features lbscope lacks
//! (look-around, back-references, possessive quantifiers) are refused with the
//! compiler's message, so a policy is either compiled or refused, never silently
//! different.
//!
//! Where Java iterates a hash map (several policies matching one namespace:
//! "the first one will be returned"), lbscope takes the policy with the smallest
//! name.

use super::load::BrokerId;
use crate::engine::tagged::tagged_enum;
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

mod pattern;
pub use pattern::Pattern;

tagged_enum! {
    "policy_type", "AutoFailoverPolicy";
    /// The auto-failover policy of an isolation policy (`AutoFailoverPolicyData`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AutoFailoverPolicy {
        /// `MinAvailablePolicy`: fail over to the secondaries when fewer than
        /// `min_limit` primaries are available.
        MinAvailable {
            /// `min_limit`.
            min_limit: u32,
            /// `usage_threshold` (percent; 100 = a broker is never too busy). Not read
            /// by either load manager's placement.
            usage_threshold: u32,
        },
    }
}

impl AutoFailoverPolicy {
    /// `shouldFailoverToSecondary(int totalPrimaryCandidates)`.
    pub fn should_failover_to_secondary(&self, primaries: usize) -> bool {
        match self {
            AutoFailoverPolicy::MinAvailable { min_limit, .. } => primaries < *min_limit as usize,
        }
    }

    /// `min_limit`.
    pub fn min_limit(&self) -> u32 {
        match self {
            AutoFailoverPolicy::MinAvailable { min_limit, .. } => *min_limit,
        }
    }
}

/// `--unload-scope`: which namespaces `ns-isolation-policy set` unloads so their
/// bundles are placed again under the new policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnloadScope {
    /// Every namespace matching the old or the new namespace regexes.
    AllMatching,
    /// Only namespaces matching regexes that were added or removed (the default;
    /// all matching namespaces when the primary list changed).
    Changed,
    /// None.
    None,
}

/// One isolation policy, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceIsolationPolicy {
    /// Namespace regexes.
    pub namespaces: Vec<Pattern>,
    /// Primary broker regexes.
    pub primary: Vec<Pattern>,
    /// Secondary broker regexes.
    pub secondary: Vec<Pattern>,
    /// The auto-failover policy.
    pub auto_failover_policy: AutoFailoverPolicy,
    /// How setting it unloads namespaces (absent = `changed`).
    pub unload_scope: Option<UnloadScope>,
}

fn compile(list: &[String]) -> Result<Vec<Pattern>, String> {
    list.iter().map(|p| Pattern::new(p)).collect()
}

fn any_matches(list: &[Pattern], s: &str) -> bool {
    list.iter().any(|p| p.matches(s))
}

/// The host of a `host:port` value with a numeric port, as
/// `NamespaceIsolationPolicyImpl.stripPort` takes it (`None` without one).
fn strip_port(broker: &str) -> Option<&str> {
    let (host, port) = broker.rsplit_once(':')?;
    (!host.is_empty() && !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())).then_some(host)
}

/// The host the policies match a broker by (`LoadManagerShared.parseBrokerHost`:
/// the part before the last `:`; a name without one is its own host).
pub fn broker_host(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(h, _)| h)
}

impl NamespaceIsolationPolicy {
    /// Validate and compile a policy (`NamespaceIsolationDataImpl.validate`):
    /// at least one namespace and one primary regex, every regex compiling.
    pub fn new(
        namespaces: &[String],
        primary: &[String],
        secondary: &[String],
        auto_failover_policy: AutoFailoverPolicy,
        unload_scope: Option<UnloadScope>,
    ) -> Result<NamespaceIsolationPolicy, String> {
        if namespaces.is_empty() {
            return Err("an isolation policy needs at least one namespace regex (--namespaces)".into());
        }
        if primary.is_empty() {
            return Err("an isolation policy needs at least one primary broker regex (--primary)".into());
        }
        Ok(NamespaceIsolationPolicy {
            namespaces: compile(namespaces)?,
            primary: compile(primary)?,
            secondary: compile(secondary)?,
            auto_failover_policy,
            unload_scope,
        })
    }

    /// Whether the policy covers namespace `ns`.
    pub fn matches_namespace(&self, ns: &str) -> bool {
        any_matches(&self.namespaces, ns)
    }

    fn matches_broker(list: &[Pattern], broker: &str) -> bool {
        any_matches(list, broker) || strip_port(broker).is_some_and(|h| any_matches(list, h))
    }

    /// `isPrimaryBroker(host)`.
    pub fn is_primary_broker(&self, host: &str) -> bool {
        Self::matches_broker(&self.primary, host)
    }

    /// `isSecondaryBroker(host)`.
    pub fn is_secondary_broker(&self, host: &str) -> bool {
        Self::matches_broker(&self.secondary, host)
    }

    /// The regexes as written: (namespaces, primary, secondary).
    pub fn sources(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        let s = |v: &[Pattern]| v.iter().map(|p| p.as_str().to_string()).collect();
        (s(&self.namespaces), s(&self.primary), s(&self.secondary))
    }
}

/// The cluster's isolation policies by name (`NamespaceIsolationPolicies`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamespaceIsolationPolicies {
    policies: BTreeMap<String, NamespaceIsolationPolicy>,
}

impl NamespaceIsolationPolicies {
    /// No policy at all.
    pub fn is_empty(&self) -> bool {
        self.policies.is_empty()
    }

    /// Every policy by name.
    pub fn policies(&self) -> &BTreeMap<String, NamespaceIsolationPolicy> {
        &self.policies
    }

    /// Set (create or replace) a policy; returns the one it replaced.
    pub fn set(&mut self, name: &str, policy: NamespaceIsolationPolicy) -> Option<NamespaceIsolationPolicy> {
        self.policies.insert(name.to_string(), policy)
    }

    /// Delete a policy; returns it.
    pub fn delete(&mut self, name: &str) -> Option<NamespaceIsolationPolicy> {
        self.policies.remove(name)
    }

    /// The policy covering `ns` (`getPolicyByNamespace`): the one with the
    /// smallest name among those matching.
    pub fn policy_for(&self, ns: &str) -> Option<(&str, &NamespaceIsolationPolicy)> {
        self.policies
            .iter()
            .find(|(_, p)| p.matches_namespace(ns))
            .map(|(n, p)| (n.as_str(), p))
    }

    /// Whether `host` is in the shared pool: nobody's primary (`isSharedBroker`).
    pub fn is_shared_broker(&self, host: &str) -> bool {
        self.primary_of(host).is_none()
    }

    /// The first policy (by name) that has `host` as a primary.
    pub fn primary_of(&self, host: &str) -> Option<&str> {
        self.policies
            .iter()
            .find(|(_, p)| p.is_primary_broker(host))
            .map(|(n, _)| n.as_str())
    }
}

/// Why `apply_namespace_policies` left a broker out.
#[derive(Clone, Debug, PartialEq)]
pub enum Excluded {
    /// The namespace's policy names it neither primary nor secondary.
    NotInPolicy,
    /// A secondary, but enough primaries are available.
    SecondaryNotNeeded,
    /// No policy covers the namespace and the broker is the primary of `policy`.
    NotShared {
        /// The policy it is primary of.
        policy: String,
    },
    /// No policy covers the namespace and the broker's load report has not
    /// reached the leader yet (modular: `isEnablePersistentTopics` reads it).
    NoLoadReport,
}

impl fmt::Display for Excluded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Excluded::NotInPolicy => f.write_str("neither primary nor secondary"),
            Excluded::SecondaryNotNeeded => f.write_str("secondary, not needed"),
            Excluded::NotShared { policy } => write!(f, "primary of policy {policy}, not shared"),
            Excluded::NoLoadReport => f.write_str("no load report yet"),
        }
    }
}

/// What `LoadManagerShared.applyNamespacePolicies` decided for one namespace.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied<'a> {
    /// The candidates, in name order.
    pub candidates: Vec<&'a BrokerId>,
    /// The policy covering the namespace, if any.
    pub policy: Option<String>,
    /// Primaries found (policy case).
    pub primaries: usize,
    /// Secondaries found (policy case).
    pub secondaries: usize,
    /// `min_limit` of the policy.
    pub min_limit: u32,
    /// Whether the secondaries were added.
    pub failover: bool,
    /// The brokers left out, and why, in name order.
    pub excluded: Vec<(&'a BrokerId, Excluded)>,
}

impl Applied<'_> {
    /// A one-line explanation with the numbers.
    pub fn explain(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match &self.policy {
            Some(p) => format!(
                "isolation policy {p}: {} and {} available; {}",
                plural(self.primaries, "primary", "primaries"),
                plural(self.secondaries, "secondary", "secondaries"),
                if self.failover {
                    format!(
                        "fewer primaries than min_limit {}, so the secondaries are candidates too",
                        self.min_limit
                    )
                } else {
                    format!(
                        "at least min_limit {} primaries, so primaries only",
                        self.min_limit
                    )
                }
            ),
            None => {
                "no isolation policy covers the namespace: shared brokers with a load report only".to_string()
            }
        }
    }
}

/// `LoadManagerShared.applyNamespacePolicies` over `available` (in name order):
/// each broker with whether it accepts persistent topics (consulted only when no
/// policy covers the namespace). See the module doc. The results keep name order.
pub fn apply_namespace_policies<'a>(
    policies: &NamespaceIsolationPolicies,
    ns: &str,
    available: impl IntoIterator<Item = (&'a BrokerId, bool)>,
) -> Applied<'a> {
    let policy = policies.policy_for(ns);
    let mut out = Applied {
        candidates: Vec::new(),
        policy: policy.map(|(n, _)| n.to_string()),
        primaries: 0,
        secondaries: 0,
        min_limit: policy.map_or(0, |(_, p)| p.auto_failover_policy.min_limit()),
        failover: false,
        excluded: Vec::new(),
    };
    match policy {
        Some((_, p)) => {
            let mut primary = Vec::new();
            let mut secondary = Vec::new();
            for (b, _) in available {
                let host = broker_host(&b.0);
                if p.is_primary_broker(host) {
                    primary.push(b);
                } else if p.is_secondary_broker(host) {
                    secondary.push(b);
                } else {
                    out.excluded.push((b, Excluded::NotInPolicy));
                }
            }
            out.primaries = primary.len();
            out.secondaries = secondary.len();
            out.failover = p.auto_failover_policy.should_failover_to_secondary(primary.len());
            if out.failover {
                primary.extend(secondary);
                primary.sort_unstable();
            } else if !secondary.is_empty() {
                out.excluded
                    .extend(secondary.into_iter().map(|b| (b, Excluded::SecondaryNotNeeded)));
                out.excluded.stable_sort_by(|a, b| a.0.cmp(b.0));
            }
            out.candidates = primary;
        }
        None if policies.is_empty() => {
            for (b, persistent) in available {
                if persistent {
                    out.candidates.push(b);
                } else {
                    out.excluded.push((b, Excluded::NoLoadReport));
                }
            }
        }
        None => {
            for (b, persistent) in available {
                if !persistent {
                    out.excluded.push((b, Excluded::NoLoadReport));
                } else if let Some(owner) = policies.primary_of(broker_host(&b.0)) {
                    out.excluded.push((
                        b,
                        Excluded::NotShared {
                            policy: owner.to_string(),
                        },
                    ));
                } else {
                    out.candidates.push(b);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn min_available(min_limit: u32, usage_threshold: u32) -> AutoFailoverPolicy {
        AutoFailoverPolicy::MinAvailable {
            min_limit,
            usage_threshold,
        }
    }

    /// `NamespaceIsolationPolicyImplTest`'s default policy.
    fn default_policy() -> NamespaceIsolationPolicy {
        NamespaceIsolationPolicy::new(
            &s(&["pulsar/use/test.*"]),
            &s(&["prod1-broker[1-3].messaging.use.example.com"]),
            &s(&["prod1-broker.*.use.example.com"]),
            min_available(3, 90),
            None,
        )
        .unwrap()
    }

    /// Mirrors `NamespaceIsolationPolicyImplTest`; expected values from its assertions.
    mod namespace_isolation_policy_impl_test {
        use super::*;

        #[test]
        fn test_constructor() {
            let mut other = default_policy();
            assert_eq!(other, default_policy());
            other.auto_failover_policy = min_available(3, 80);
            assert_ne!(other, default_policy());
        }

        #[test]
        fn test_get_primary_and_secondary_brokers() {
            let (_, p, s2) = default_policy().sources();
            assert_eq!(p, vec!["prod1-broker[1-3].messaging.use.example.com".to_string()]);
            assert_eq!(s2, vec!["prod1-broker.*.use.example.com".to_string()]);
        }

        #[test]
        fn test_is_primary_or_secondary_broker() {
            let p = default_policy();
            assert!(p.is_primary_broker("prod1-broker2.messaging.use.example.com"));
            assert!(!p.is_primary_broker("prod1-broker5.messaging.use.example.com"));
            assert!(p.is_secondary_broker("prod1-broker5.messaging.use.example.com"));
            assert!(!p.is_secondary_broker("broker-X.messaging.use.example.com"));
            // host:port is matched by its host too.
            assert!(p.is_primary_broker("prod1-broker2.messaging.use.example.com:8080"));
        }

        #[test]
        fn test_find_brokers() {
            let p = default_policy();
            assert!(p.matches_namespace("pulsar/use/testns-1"));
            assert!(!p.matches_namespace("no/such/namespace"));
            let use_brokers: Vec<String> = (0..10)
                .map(|i| format!("prod1-broker{i}.messaging.use.example.com"))
                .collect();
            let usw: Vec<String> = (0..10)
                .map(|i| format!("prod1-broker{i}.messaging.usw.example.com"))
                .collect();
            assert_eq!(use_brokers.iter().filter(|b| p.is_primary_broker(b)).count(), 3);
            assert_eq!(
                use_brokers.iter().filter(|b| p.is_secondary_broker(b)).count(),
                10
            );
            assert_eq!(usw.iter().filter(|b| p.is_primary_broker(b)).count(), 0);
            assert_eq!(usw.iter().filter(|b| p.is_secondary_broker(b)).count(), 0);
        }

        #[test]
        fn test_should_failover() {
            // min_limit 3: fewer than 3 available primaries fail over.
            let p = default_policy();
            assert!(!p.auto_failover_policy.should_failover_to_secondary(10));
            assert!(!p.auto_failover_policy.should_failover_to_secondary(3));
            assert!(p.auto_failover_policy.should_failover_to_secondary(2));
        }
    }

    /// Mirrors `NamespaceIsolationPoliciesTest`; expected values from its assertions.
    mod namespace_isolation_policies_test {
        use super::*;

        fn policies() -> NamespaceIsolationPolicies {
            let mut ps = NamespaceIsolationPolicies::default();
            ps.set("policy1", default_policy());
            ps
        }

        #[test]
        fn test_default_constructor() {
            assert!(NamespaceIsolationPolicies::default().is_empty());
        }

        #[test]
        fn test_delete_policy() {
            let mut ps = policies();
            assert!(ps.delete("non-existing-policy").is_none());
            assert!(!ps.is_empty());
            assert!(ps.delete("policy1").is_some());
            assert!(ps.is_empty());
        }

        #[test]
        fn test_get_namespace_isolation_policy_by_namespace() {
            let ps = policies();
            assert!(ps.policy_for("no/such/namespace").is_none());
            assert_eq!(ps.policy_for("pulsar/use/testns-1").map(|p| p.0), Some("policy1"));
        }

        #[test]
        fn test_set_policy() {
            let mut ps = policies();
            let p2 = NamespaceIsolationPolicy::new(
                &s(&["pulsar/use/TESTNS.*"]),
                &s(&["prod1-broker[45].messaging.use.example.com"]),
                &s(&["prod1-broker.*.use.example.com"]),
                min_available(2, 80),
                None,
            )
            .unwrap();
            ps.set("policy2", p2.clone());
            assert_eq!(ps.policies().len(), 2);
            assert_eq!(ps.policies()["policy2"], p2);
            assert_eq!(ps.policy_for("pulsar/use/TESTNS.1").map(|p| p.0), Some("policy2"));
            // Case matters, as in Java.
            assert_eq!(ps.policy_for("pulsar/use/testns.1").map(|p| p.0), Some("policy1"));
        }

        #[test]
        fn test_broker_assignment() {
            let ps = policies();
            // primary of policy1 -> not shared; a secondary-only broker is shared.
            assert!(!ps.is_shared_broker("prod1-broker1.messaging.use.example.com"));
            assert!(ps.is_shared_broker("prod1-broker4.messaging.use.example.com"));
            assert!(ps.is_shared_broker("use.example.com"));
        }
    }

    /// Mirrors `MinAvailablePolicyTest` (the `min_limit` comparison both load
    /// managers use).
    #[test]
    fn min_available_policy_test_test_min_available_policy() {
        let m = min_available(3, 10);
        assert!(m.should_failover_to_secondary(2));
        assert!(!m.should_failover_to_secondary(3));
        assert_eq!(m.min_limit(), 3);
    }

    #[test]
    fn validation_refuses_empty_lists_and_bad_regexes() {
        let ok = |n: &[&str], p: &[&str], sec: &[&str]| {
            NamespaceIsolationPolicy::new(&s(n), &s(p), &s(sec), min_available(1, 80), None)
        };
        assert!(ok(&[], &["b.*"], &[]).unwrap_err().contains("namespace"));
        assert!(ok(&["t/.*"], &[], &[]).unwrap_err().contains("primary"));
        // `NamespaceIsolationDataImpl.validate` refuses a bad primary or secondary regex
        // (the example of the upstream change that added it: an illegal range).
        let e = ok(&["t/.*"], &["test-broker1[45-46].uswest.com.*"], &[]).unwrap_err();
        assert!(e.contains("does not compile"), "{e}");
        assert!(ok(&["t/.*"], &["b1"], &["(unclosed"]).is_err());
        assert!(ok(&["t/(x"], &["b1"], &[]).is_err());
        // Look-around is Java-only: refused rather than matched differently.
        assert!(ok(&["t/.*"], &["b(?=1)"], &[]).is_err());
        // Whole-name matching and ASCII classes, as Java's String.matches.
        let p = ok(&["t/.*"], &[r"broker-\d"], &[]).unwrap();
        assert!(p.is_primary_broker("broker-1"));
        assert!(!p.is_primary_broker("broker-12"));
        assert!(!p.is_primary_broker("xbroker-1"));
    }

    #[test]
    fn broker_hosts() {
        assert_eq!(broker_host("broker-1"), "broker-1");
        assert_eq!(broker_host("broker1:8080"), "broker1");
        assert_eq!(strip_port("broker1:8080"), Some("broker1"));
        assert_eq!(strip_port("broker1:http"), None);
        assert_eq!(strip_port("broker1"), None);
    }
}
