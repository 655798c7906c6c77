//! Anti-affinity groups (`pulsar-admin namespaces set-anti-affinity-group NS
//! --group G`): the namespaces of one group are spread over different brokers,
//! and over different failure domains when `failureDomainsEnabled`.
//!
//! The placement filter (`LoadManagerShared.filterAntiAffinityGroupOwnedBrokers`,
//! used by the modular load manager directly and by the extensible one through
//! `AntiAffinityGroupPolicyHelper` / `AntiAffinityGroupPolicyFilter`), for a
//! bundle whose namespace is in group G:
//!
//! 1. count, per broker, what it owns of the group (group names compare ignoring
//!    case). The modular manager counts **namespaces** (each namespace of G once
//!    per broker, from the broker's namespace-to-bundles cache); the extensible
//!    manager counts **bundles** (every `Owned` entry of the service-unit channel
//!    whose namespace is in G). The bundle's own namespace counts too;
//! 2. with failure domains enabled and at least one domain defined, sum the counts
//!    per domain over the candidates (a broker in no domain is in `default`) and
//!    keep only the brokers of the domains with the least sum;
//! 3. keep the brokers with the least count (if any candidate owns nothing of G,
//!    keep exactly those owning nothing).
//!
//! A namespace without a group is not filtered. The filter never empties a
//! non-empty candidate set.
//!
//! Shedding (modular, `shouldAntiAffinityNamespaceUnload`): a bundle of a grouped
//! namespace may be unloaded from its broker only if some candidate (after the
//! isolation policies) owns less of the group than its current broker, or owns
//! nothing of it; if every candidate owns the same non-zero amount it stays,
//! since it would come straight back.

use super::failure_domain::DEFAULT_DOMAIN;
use super::load::{BrokerId, BundleId};
use std::collections::{BTreeMap, BTreeSet};

/// Each namespace's anti-affinity group (`LocalPolicies.namespaceAntiAffinityGroup`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AntiAffinityGroups {
    by_namespace: BTreeMap<String, String>,
}

impl AntiAffinityGroups {
    /// Every namespace with a group.
    pub fn groups(&self) -> &BTreeMap<String, String> {
        &self.by_namespace
    }

    /// Set a namespace's group; returns the previous one.
    pub fn set(&mut self, namespace: &str, group: &str) -> Option<String> {
        self.by_namespace.insert(namespace.to_string(), group.to_string())
    }

    /// Remove a namespace's group; returns it.
    pub fn delete(&mut self, namespace: &str) -> Option<String> {
        self.by_namespace.remove(namespace)
    }

    /// The group of `namespace`.
    pub fn group_of(&self, namespace: &str) -> Option<&str> {
        self.by_namespace.get(namespace).map(String::as_str)
    }

    /// The namespaces whose group equals `group`, ignoring case.
    pub fn members(&self, group: &str) -> BTreeSet<&str> {
        self.by_namespace
            .iter()
            .filter(|(_, g)| g.to_lowercase() == group.to_lowercase())
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// What each broker owns of a group: namespaces (modular) or bundles
/// (extensible). A broker owning nothing of it is absent.
pub fn owned_counts<'a>(
    members: &BTreeSet<&str>,
    owners: impl IntoIterator<Item = (&'a BrokerId, &'a BTreeSet<BundleId>)>,
    per_bundle: bool,
) -> BTreeMap<&'a BrokerId, u32> {
    let mut out = BTreeMap::new();
    for (b, bundles) in owners {
        let mut n = 0u32;
        let mut last: Option<&str> = None;
        for bid in bundles {
            let ns = bid.namespace.as_str();
            if !members.contains(ns) {
                continue;
            }
            // Bundles are sorted by namespace: count a namespace once unless per bundle.
            if per_bundle || last != Some(ns) {
                n += 1;
            }
            last = Some(ns);
        }
        if n > 0 {
            out.insert(b, n);
        }
    }
    out
}

/// What the filter did, with its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct AntiAffinityFilter {
    /// Per failure domain, the group's count over the candidates (domains enabled
    /// and defined only).
    pub domain_counts: Vec<(String, u32)>,
    /// The least domain count.
    pub least_domain: Option<u32>,
    /// The least count over the brokers left after the domain step.
    pub least: u32,
}

/// `filterAntiAffinityGroupOwnedBrokers` on `candidates` (kept in their order)
/// with the group's `counts`; `domains` is the broker-to-domain map (empty when
/// failure domains are disabled or none is defined).
pub fn filter_anti_affinity_group_owned_brokers(
    candidates: &mut Vec<&BrokerId>,
    counts: &BTreeMap<&BrokerId, u32>,
    domains: &BTreeMap<&BrokerId, &str>,
) -> AntiAffinityFilter {
    let count = |b: &BrokerId| counts.get(b).copied().unwrap_or(0);
    let mut out = AntiAffinityFilter {
        domain_counts: Vec::new(),
        least_domain: None,
        least: 0,
    };
    if candidates.is_empty() {
        return out;
    }
    if !domains.is_empty() {
        let domain_of = |b: &BrokerId| domains.get(b).copied().unwrap_or(DEFAULT_DOMAIN);
        let mut per_domain: BTreeMap<&str, u32> = BTreeMap::new();
        for b in candidates.iter() {
            *per_domain.entry(domain_of(b)).or_default() += count(b);
        }
        let least = per_domain.values().copied().min().unwrap_or(0);
        candidates.retain(|b| per_domain.get(domain_of(b)).is_none_or(|n| *n == least));
        out.domain_counts = per_domain.into_iter().map(|(d, n)| (d.to_string(), n)).collect();
        out.least_domain = Some(least);
    }
    let least = candidates.iter().map(|b| count(b)).min().unwrap_or(0);
    candidates.retain(|b| count(b) == least);
    out.least = least;
    out
}

/// `shouldAntiAffinityNamespaceUnload`: whether a bundle of the group may leave
/// `current` given the `candidates` (after the isolation policies). `None`
/// counts (no group) always allow it.
pub fn should_anti_affinity_namespace_unload(
    current: &BrokerId,
    candidates: &[&BrokerId],
    counts: Option<&BTreeMap<&BrokerId, u32>>,
) -> bool {
    let Some(counts) = counts.filter(|c| !c.is_empty()) else {
        return true;
    };
    let count = |b: &BrokerId| counts.get(b).copied().unwrap_or(0);
    let mut least = u32::MAX;
    let mut current_count = 0;
    for b in candidates {
        let n = count(b);
        if *b == current {
            current_count = n;
        }
        least = least.min(n);
    }
    if least == 0 || current_count > least {
        return true;
    }
    let at_least = candidates.iter().filter(|b| count(b) == least).count();
    candidates.len() != at_least
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(name: &str) -> BrokerId {
        BrokerId::from(name.to_string())
    }

    fn bundle(ns: &str, i: u32) -> BundleId {
        BundleId {
            namespace: ns.into(),
            range: super::super::bundle::BundleRange {
                lower: i * 16,
                upper: i * 16 + 16,
            },
        }
    }

    /// Runs the filter over `brokers` with per-broker counts given directly.
    fn run(brokers: &[&str], counts: &[(&str, u32)], domains: &[(&str, &str)]) -> Vec<String> {
        let ids: Vec<BrokerId> = brokers.iter().map(|n| b(n)).collect();
        let cids: Vec<BrokerId> = counts.iter().map(|(n, _)| b(n)).collect();
        let dids: Vec<BrokerId> = domains.iter().map(|(n, _)| b(n)).collect();
        let mut cands: Vec<&BrokerId> = ids.iter().collect();
        let cmap: BTreeMap<&BrokerId, u32> = cids.iter().zip(counts).map(|(id, (_, n))| (id, *n)).collect();
        let dmap: BTreeMap<&BrokerId, &str> = dids.iter().zip(domains).map(|(id, (_, d))| (id, *d)).collect();
        filter_anti_affinity_group_owned_brokers(&mut cands, &cmap, &dmap);
        cands.iter().map(|b| b.0.to_string()).collect()
    }

    /// The worked example in `LoadManagerShared.filterAntiAffinityGroupOwnedBrokers`'
    /// doc comment: domains d1 (b1 2, b2 1), d2 (b3 2, b4 1), d3 (b5 2, b6 2) →
    /// candidates b2 or b4 (derived by reading the method and its comment).
    #[test]
    fn load_manager_shared_filter_anti_affinity_group_owned_brokers_doc_example() {
        let brokers = ["b1", "b2", "b3", "b4", "b5", "b6"];
        let counts = [("b1", 2), ("b2", 1), ("b3", 2), ("b4", 1), ("b5", 2), ("b6", 2)];
        let domains = [
            ("b1", "d1"),
            ("b2", "d1"),
            ("b3", "d2"),
            ("b4", "d2"),
            ("b5", "d3"),
            ("b6", "d3"),
        ];
        assert_eq!(run(&brokers, &counts, &domains), vec!["b2", "b4"]);
        // Without domains only the least-count brokers stay.
        assert_eq!(run(&brokers, &counts, &[]), vec!["b2", "b4"]);
    }

    /// Mirrors `AntiAffinityNamespaceGroupTest.testAntiAffinityNamespaceFilteringWithDomain`:
    /// expected candidate sets from its assertions.
    #[test]
    fn anti_affinity_namespace_group_test_with_domain() {
        let brokers = ["brokerName-0", "brokerName-1", "brokerName-2", "brokerName-3"];
        let domains = [
            ("brokerName-0", "domain-0"),
            ("brokerName-1", "domain-0"),
            ("brokerName-2", "domain-1"),
            ("brokerName-3", "domain-1"),
        ];
        assert_eq!(run(&brokers, &[], &domains).len(), 4);
        // n0 -> b0: only domain-1's brokers.
        assert_eq!(
            run(&brokers, &[("brokerName-0", 1)], &domains),
            vec!["brokerName-2", "brokerName-3"]
        );
        // n1 -> b2: b1 and b3.
        let c = [("brokerName-0", 1), ("brokerName-2", 1)];
        assert_eq!(run(&brokers, &c, &domains), vec!["brokerName-1", "brokerName-3"]);
        // n2 -> b1: b3 only.
        let c = [("brokerName-0", 1), ("brokerName-2", 1), ("brokerName-1", 1)];
        assert_eq!(run(&brokers, &c, &domains), vec!["brokerName-3"]);
        // n3 -> b3: all four again.
        let c = [
            ("brokerName-0", 1),
            ("brokerName-2", 1),
            ("brokerName-1", 1),
            ("brokerName-3", 1),
        ];
        assert_eq!(run(&brokers, &c, &domains).len(), 4);
    }

    /// Mirrors `AntiAffinityNamespaceGroupTest.testAntiAffinityNamespaceFilteringWithoutDomain`.
    #[test]
    fn anti_affinity_namespace_group_test_without_domain() {
        let brokers = ["broker-0", "broker-1", "broker-2"];
        assert_eq!(run(&brokers, &[], &[]).len(), 3);
        assert_eq!(
            run(&brokers, &[("broker-0", 1)], &[]),
            vec!["broker-1", "broker-2"]
        );
        assert_eq!(
            run(&brokers, &[("broker-0", 1), ("broker-1", 1)], &[]),
            vec!["broker-2"]
        );
        let all = [("broker-0", 1), ("broker-1", 1), ("broker-2", 1)];
        assert_eq!(run(&brokers, &all, &[]).len(), 3);
    }

    /// Mirrors `AntiAffinityNamespaceGroupTest.testLoadSheddingUtilWithAntiAffinityNamespace`:
    /// ns-0 on broker-0 may leave while another broker owns none of the group; once
    /// every broker owns one, it may not.
    #[test]
    fn anti_affinity_namespace_group_test_load_shedding_util() {
        let ids = [b("broker-0"), b("broker-1"), b("broker-2")];
        let cands: Vec<&BrokerId> = ids.iter().collect();
        let mut counts = BTreeMap::new();
        counts.insert(&ids[0], 1);
        assert!(should_anti_affinity_namespace_unload(
            &ids[0],
            &cands,
            Some(&counts)
        ));
        counts.insert(&ids[1], 1);
        assert!(should_anti_affinity_namespace_unload(
            &ids[0],
            &cands,
            Some(&counts)
        ));
        counts.insert(&ids[2], 1);
        assert!(!should_anti_affinity_namespace_unload(
            &ids[0],
            &cands,
            Some(&counts)
        ));
        // A busier current broker may always shed; no group never blocks.
        counts.insert(&ids[0], 2);
        assert!(should_anti_affinity_namespace_unload(
            &ids[0],
            &cands,
            Some(&counts)
        ));
        assert!(should_anti_affinity_namespace_unload(&ids[0], &cands, None));
    }

    #[test]
    fn counts_namespaces_modular_and_bundles_extensible() {
        let mut g = AntiAffinityGroups::default();
        g.set("t/a", "Grp");
        g.set("t/b", "grp");
        g.set("t/c", "other");
        let members = g.members("GRP");
        assert_eq!(members.into_iter().collect::<Vec<_>>(), vec!["t/a", "t/b"]);
        let members = g.members("grp");
        let b1 = b("b1");
        let owned: BTreeSet<BundleId> = [
            bundle("t/a", 0),
            bundle("t/a", 1),
            bundle("t/b", 0),
            bundle("t/c", 0),
        ]
        .into_iter()
        .collect();
        let modular = owned_counts(&members, [(&b1, &owned)], false);
        assert_eq!(modular[&b1], 2);
        let extensible = owned_counts(&members, [(&b1, &owned)], true);
        assert_eq!(extensible[&b1], 3);
        let none: BTreeSet<BundleId> = [bundle("t/c", 0)].into_iter().collect();
        assert!(owned_counts(&members, [(&b1, &none)], true).is_empty());
    }
}
