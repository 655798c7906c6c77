//! Failure domains (`pulsar-admin clusters create-failure-domain CLUSTER
//! --domain-name NAME --broker-list B1,B2`): named groups of brokers, such as a
//! rack or a zone. Only the anti-affinity filter reads them, and only when
//! `failureDomainsEnabled` is set (`LoadManagerShared.refreshBrokerToFailureDomainMap`
//! does nothing otherwise); a broker in no domain belongs to the domain
//! `default` there.
//!
//! A broker may belong to one domain only: putting it in a second one is refused,
//! as Pulsar's `validateBrokerExistsInOtherDomain` answers 409. Creating a domain
//! that exists replaces its broker list (Pulsar's create and update both write
//! the domain). lbscope has one cluster, so the cluster argument is left out, and
//! the brokers must be known to the simulation (alive or crashed).

use super::load::BrokerId;
use std::collections::{BTreeMap, BTreeSet};

/// The domain of a broker listed in no failure domain.
pub const DEFAULT_DOMAIN: &str = "default";

/// The cluster's failure domains.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FailureDomains {
    domains: BTreeMap<String, BTreeSet<BrokerId>>,
}

impl FailureDomains {
    /// Every domain and its brokers.
    pub fn domains(&self) -> &BTreeMap<String, BTreeSet<BrokerId>> {
        &self.domains
    }

    /// No domain defined.
    pub fn is_empty(&self) -> bool {
        self.domains.is_empty()
    }

    /// The other domain that already holds one of `brokers`, if any.
    pub fn conflict(&self, domain: &str, brokers: &BTreeSet<BrokerId>) -> Option<(String, BrokerId)> {
        self.domains
            .iter()
            .filter(|(d, _)| d.as_str() != domain)
            .find_map(|(d, bs)| bs.intersection(brokers).next().map(|b| (d.clone(), b.clone())))
    }

    /// Create or replace a domain; returns its previous brokers.
    pub fn set(&mut self, domain: &str, brokers: BTreeSet<BrokerId>) -> Option<BTreeSet<BrokerId>> {
        self.domains.insert(domain.to_string(), brokers)
    }

    /// Delete a domain; returns its brokers.
    pub fn delete(&mut self, domain: &str) -> Option<BTreeSet<BrokerId>> {
        self.domains.remove(domain)
    }

    /// The broker-to-domain map the load managers keep (empty unless
    /// `failureDomainsEnabled`).
    pub fn broker_to_domain(&self, enabled: bool) -> BTreeMap<&BrokerId, &str> {
        if !enabled {
            return BTreeMap::new();
        }
        self.domains
            .iter()
            .flat_map(|(d, bs)| bs.iter().map(move |b| (b, d.as_str())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<BrokerId> {
        v.iter().map(|b| BrokerId::from(b.to_string())).collect()
    }

    #[test]
    fn one_domain_per_broker_and_map_only_when_enabled() {
        let mut fd = FailureDomains::default();
        fd.set("domain-0", set(&["b0", "b1"]));
        assert_eq!(
            fd.conflict("domain-1", &set(&["b1", "b2"])),
            Some(("domain-0".into(), BrokerId("b1".into())))
        );
        // Rewriting the same domain is no conflict.
        assert_eq!(fd.conflict("domain-0", &set(&["b1", "b2"])), None);
        fd.set("domain-1", set(&["b2"]));
        assert!(fd.broker_to_domain(false).is_empty());
        let m = fd.broker_to_domain(true);
        assert_eq!(m[&BrokerId("b1".into())], "domain-0");
        assert_eq!(m[&BrokerId("b2".into())], "domain-1");
        assert_eq!(fd.delete("domain-1"), Some(set(&["b2"])));
        assert!(fd.delete("domain-1").is_none());
    }
}
