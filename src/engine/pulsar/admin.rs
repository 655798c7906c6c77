//! pulsar-admin style operations.
//!
//! * `namespaces split-bundle NS --bundle 0xL_0xU | -b LARGEST | -b HOT
//!   [-san ALGORITHM] [--split-boundaries P,..] [-u]`: LARGEST is the bundle with
//!   the most topics, HOT the one with the highest msg rate (in + out); ties go to
//!   the first bundle on the ring. The algorithm defaults to
//!   `defaultNamespaceBundleSplitAlgorithm`; `--split-boundaries` needs
//!   `specified_positions_divide`. flow_or_qps_equally_divide may split into more
//!   than two children. A split that finds no boundary is refused (state
//!   unchanged). Manual splits are not limited by
//!   `loadBalancerNamespaceMaximumBundles` (only the automatic split checks it),
//!   but by lbscope's cap of [`MAX_BUNDLES`] bundles per namespace: a split
//!   whose boundaries would pass it is refused before it is planned.
//! * `namespaces unload NS [-b RANGE [-d BROKER]]`: unloads one bundle (to a
//!   destination with `-d`: modular remembers it as the bundle's affinity for the
//!   next lookup, extensible transfers it at once) or every owned bundle of the
//!   namespace. Unloading an unowned bundle is a no-op, as in Pulsar. Manual
//!   unloads are not recorded in the recently-unloaded map (only the leader's
//!   shedding records there).
//! * `ns-isolation-policy set` / `delete` (see [`super::isolation`]): a policy is
//!   validated as `NamespaceIsolationDataImpl.validate` does (namespaces and
//!   primaries given, every regex compiling) and stored; then, as
//!   `ClustersBase.filterAndUnloadMatchedNamespaceAsync` does, namespaces are
//!   unloaded so their bundles are placed again: with `--unload-scope
//!   all_matching`, or when the primary list changed, every namespace matching
//!   the old or new namespace regexes; by default (`changed`) only those matching
//!   regexes that were added or removed; with `none`, no namespace. Deleting a
//!   policy unloads nothing.
//! * `namespaces set-anti-affinity-group` / `delete-anti-affinity-group` (see
//!   [`super::anti_affinity`]): the namespace must exist and the group must not be
//!   blank; nothing moves until the next placement.
//! * `clusters create-failure-domain` / `delete-failure-domain` (see
//!   [`super::failure_domain`]).

use super::bundle::BundleRange;
use super::config::SplitAlgorithm;
use super::isolation::{AutoFailoverPolicy, NamespaceIsolationPolicy, Pattern, UnloadScope};
use super::load::{BrokerId, BundleId};
use super::split;
use super::split_threshold::can_split;
use super::{Error, Event, Sim, UnloadCause, MAX_BUNDLES};
use crate::sort::StableSort;
use std::collections::BTreeSet;

impl Sim {
    fn select_bundle(&self, ns: &str, sel: &str) -> Result<BundleId, Error> {
        let n = self
            .namespaces
            .get(ns)
            .ok_or_else(|| Error::NoSuchNamespace(ns.to_string()))?;
        let nid = self.ns_id(ns);
        let id = |r: BundleRange| BundleId {
            namespace: nid.clone(),
            range: r,
        };
        let pick_max = |key: &dyn Fn(&BundleId) -> f64| -> Option<BundleId> {
            let mut best: Option<(BundleId, f64)> = None;
            for r in &n.bundles {
                let b = id(*r);
                let k = key(&b);
                if best.as_ref().is_none_or(|(_, bk)| k > *bk) {
                    best = Some((b, k));
                }
            }
            best.map(|(b, _)| b)
        };
        match sel.trim().to_ascii_uppercase().as_str() {
            "LARGEST" => pick_max(&|b| self.bundles.get(b).map_or(0.0, |s| f64::from(s.topics)))
                .ok_or_else(|| Error::NoSuchBundle(sel.to_string())),
            "HOT" => pick_max(&|b| self.bundles.get(b).map_or(0.0, |s| s.load().msg_rate()))
                .ok_or_else(|| Error::NoSuchBundle(sel.to_string())),
            _ => {
                let r = BundleRange::parse(sel).ok_or_else(|| Error::NoSuchBundle(format!("{ns}/{sel}")))?;
                if n.index_of(r).is_some() {
                    Ok(id(r))
                } else {
                    Err(Error::NoSuchBundle(format!("{ns}/{sel}")))
                }
            }
        }
    }

    pub(crate) fn admin_split(
        &mut self,
        ns: &str,
        sel: &str,
        algorithm: Option<SplitAlgorithm>,
        boundaries: &[u32],
        unload: bool,
    ) -> Result<Vec<Event>, Error> {
        let bid = self.select_bundle(ns, sel)?;
        let alg = algorithm.unwrap_or(self.config.default_namespace_bundle_split_algorithm);
        if !boundaries.is_empty() && alg != SplitAlgorithm::SpecifiedPositionsDivide {
            return Err(Error::Invalid(
                "--split-boundaries needs -san specified_positions_divide".into(),
            ));
        }
        if alg == SplitAlgorithm::SpecifiedPositionsDivide && boundaries.is_empty() {
            return Err(Error::Invalid(
                "specified_positions_divide needs --split-boundaries".into(),
            ));
        }
        if !can_split(bid.range) {
            return Err(Error::SplitRefused(format!("{bid} holds a single hash")));
        }
        // lbscope's cap on a namespace's bundles holds for manual splits too: a
        // list of positions longer than the cap is refused before it is read,
        // and a plan is refused when its children would pass it.
        let have = self.namespaces.get(ns).map_or(0, |n| n.bundles.len());
        let room = (MAX_BUNDLES as usize).saturating_sub(have);
        if boundaries.len() > MAX_BUNDLES as usize {
            return Err(Error::SplitRefused(format!(
                "{} split positions given; a namespace has at most {MAX_BUNDLES} bundles",
                boundaries.len()
            )));
        }
        let plan = self.plan_split(&bid, alg, boundaries);
        if plan.boundaries.len() > room {
            return Err(too_many(ns, have, plan.boundaries.len()));
        }
        self.check_bundle_room(plan.boundaries.len())?;
        if plan.boundaries.is_empty() {
            return Err(Error::SplitRefused(format!(
                "{alg:?} found no boundary in {bid}: {}",
                plan.remark.unwrap_or_default()
            )));
        }
        if split::child_ranges(bid.range, &plan.boundaries).is_none() {
            return Err(Error::SplitRefused(format!(
                "boundaries not strictly inside {bid}"
            )));
        }
        let mut ev = Vec::new();
        self.do_split(&bid, plan, "admin", unload, &mut ev);
        Ok(ev)
    }
}

impl Sim {
    /// [`super::Action::SplitBundleInParts`].
    pub(crate) fn admin_split_in_parts(
        &mut self,
        ns: &str,
        sel: &str,
        parts: u32,
        unload: bool,
    ) -> Result<Vec<Event>, Error> {
        let bid = self.select_bundle(ns, sel)?;
        if parts < 2 {
            return Err(Error::Invalid(format!(
                "a bundle splits into at least 2 parts, not {parts}"
            )));
        }
        let have = self.namespaces.get(ns).map_or(0, |n| n.bundles.len());
        let room = (MAX_BUNDLES as usize).saturating_sub(have);
        if parts as usize - 1 > room {
            return Err(too_many(ns, have, parts as usize - 1));
        }
        self.check_bundle_room(parts as usize - 1)?;
        let plan = split::range_divide_in_parts(bid.range, parts);
        if plan.boundaries.is_empty() {
            return Err(Error::SplitRefused(format!(
                "{bid} cannot be split into {parts} parts: {}",
                plan.remark.unwrap_or_default()
            )));
        }
        let mut ev = Vec::new();
        self.do_split(&bid, plan, "admin", unload, &mut ev);
        Ok(ev)
    }
}

/// A split adding `adding` bundles to the `have` of `ns` would pass [`MAX_BUNDLES`].
fn too_many(ns: &str, have: usize, adding: usize) -> Error {
    Error::SplitRefused(format!(
        "{ns} has {have} bundles; {adding} more would pass the limit of {MAX_BUNDLES} bundles per namespace"
    ))
}

impl Sim {
    pub(crate) fn admin_unload(
        &mut self,
        ns: &str,
        bundle: Option<&str>,
        destination: Option<&str>,
    ) -> Result<Vec<Event>, Error> {
        if !self.namespaces.contains_key(ns) {
            return Err(Error::NoSuchNamespace(ns.to_string()));
        }
        let dst: Option<BrokerId> = destination.map(|d| self.alive_broker(d)).transpose()?;
        let mut ev = Vec::new();
        match bundle {
            Some(sel) => {
                let bid = self.select_bundle(ns, sel)?;
                let owner = self.bundles.get(&bid).and_then(|s| s.owner().cloned());
                if let (Some(d), Some(o)) = (&dst, &owner) {
                    if d == o {
                        return Err(Error::Invalid(format!(
                            "the destination broker {d} is the current owner of {bid}"
                        )));
                    }
                }
                self.unload_bundle(&bid, dst.clone(), true, UnloadCause::Admin, &mut ev);
            }
            None => {
                if dst.is_some() {
                    return Err(Error::Invalid("-d needs -b (a single bundle)".into()));
                }
                let owned: Vec<BundleId> = self
                    .bundles
                    .iter()
                    .filter(|(b, s)| b.namespace == ns && s.owner().is_some())
                    .map(|(b, _)| b.clone())
                    .collect();
                for bid in owned {
                    self.unload_bundle(&bid, None, true, UnloadCause::AdminNamespace, &mut ev);
                }
            }
        }
        Ok(ev)
    }

    pub(crate) fn ns_isolation_policy_set(
        &mut self,
        name: &str,
        namespaces: &[String],
        primary: &[String],
        secondary: &[String],
        auto_failover_policy: AutoFailoverPolicy,
        unload_scope: Option<UnloadScope>,
    ) -> Result<Vec<Event>, Error> {
        if name.trim().is_empty() {
            return Err(Error::Invalid("an isolation policy needs a name".into()));
        }
        let policy =
            NamespaceIsolationPolicy::new(namespaces, primary, secondary, auto_failover_policy, unload_scope)
                .map_err(Error::Invalid)?;
        let old = self.isolation.policies().get(name).cloned();
        let unloading = self.namespaces_to_unload(&policy, old.as_ref());
        let replaced = self.isolation.set(name, policy).is_some();
        let mut ev = vec![Event::IsolationPolicySet {
            policy: name.to_string(),
            namespaces: namespaces.to_vec(),
            primary: primary.to_vec(),
            secondary: secondary.to_vec(),
            auto_failover_policy,
            unload_scope,
            replaced,
            unloading: unloading.clone(),
        }];
        for ns in unloading {
            ev.extend(self.admin_unload(&ns, None, None)?);
        }
        Ok(ev)
    }

    /// The namespaces `filterAndUnloadMatchedNamespaceAsync` unloads, in name order.
    fn namespaces_to_unload(
        &self,
        new: &NamespaceIsolationPolicy,
        old: Option<&NamespaceIsolationPolicy>,
    ) -> Vec<String> {
        if new.unload_scope == Some(UnloadScope::None) {
            return Vec::new();
        }
        let (new_ns, new_primary, _) = new.sources();
        let (old_ns, old_primary) = old.map_or((Vec::new(), Vec::new()), |o| {
            let (n, p, _) = o.sources();
            (n, p)
        });
        let sorted = |mut v: Vec<String>| {
            v.stable_sort();
            v
        };
        let all = new.unload_scope == Some(UnloadScope::AllMatching)
            || (old.is_some() && sorted(old_primary) != sorted(new_primary));
        let new_set: BTreeSet<&String> = new_ns.iter().collect();
        let old_set: BTreeSet<&String> = old_ns.iter().collect();
        let regexes: BTreeSet<&String> = if all {
            new_set.union(&old_set).copied().collect()
        } else {
            new_set.symmetric_difference(&old_set).copied().collect()
        };
        // Every regex here compiled when its policy was set.
        let patterns: Vec<Pattern> = regexes.iter().filter_map(|r| Pattern::new(r).ok()).collect();
        self.namespaces
            .keys()
            .filter(|ns| patterns.iter().any(|p| p.matches(ns)))
            .cloned()
            .collect()
    }

    pub(crate) fn ns_isolation_policy_delete(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        if self.isolation.delete(name).is_none() {
            return Err(Error::Invalid(format!(
                "no namespace isolation policy named {name:?}"
            )));
        }
        Ok(vec![Event::IsolationPolicyDeleted {
            policy: name.to_string(),
        }])
    }

    pub(crate) fn set_anti_affinity_group(&mut self, ns: &str, group: &str) -> Result<Vec<Event>, Error> {
        if !self.namespaces.contains_key(ns) {
            return Err(Error::NoSuchNamespace(ns.to_string()));
        }
        let group = group.trim();
        if group.is_empty() {
            return Err(Error::Invalid("the anti-affinity group must not be blank".into()));
        }
        let previous = self.anti_affinity.set(ns, group);
        Ok(vec![Event::AntiAffinityGroupSet {
            namespace: ns.to_string(),
            group: group.to_string(),
            previous,
        }])
    }

    pub(crate) fn delete_anti_affinity_group(&mut self, ns: &str) -> Result<Vec<Event>, Error> {
        if !self.namespaces.contains_key(ns) {
            return Err(Error::NoSuchNamespace(ns.to_string()));
        }
        let group = self
            .anti_affinity
            .delete(ns)
            .ok_or_else(|| Error::Invalid(format!("namespace {ns} has no anti-affinity group")))?;
        Ok(vec![Event::AntiAffinityGroupDeleted {
            namespace: ns.to_string(),
            group,
        }])
    }

    pub(crate) fn create_failure_domain(
        &mut self,
        domain: &str,
        brokers: &[String],
    ) -> Result<Vec<Event>, Error> {
        let domain = domain.trim();
        if domain.is_empty() {
            return Err(Error::Invalid("a failure domain needs a name".into()));
        }
        let mut set = BTreeSet::new();
        for b in brokers {
            let id = BrokerId::from(b.clone());
            if !self.brokers.contains_key(&id) {
                return Err(Error::NoSuchBroker(b.clone()));
            }
            set.insert(id);
        }
        if let Some((other, b)) = self.failure_domains.conflict(domain, &set) {
            return Err(Error::Invalid(format!(
                "broker {b} is already in failure domain {other} (a broker belongs to one domain only)"
            )));
        }
        let listed: Vec<BrokerId> = set.iter().cloned().collect();
        let previous = self
            .failure_domains
            .set(domain, set)
            .map(|p| p.into_iter().collect());
        Ok(vec![Event::FailureDomainSet {
            domain: domain.to_string(),
            brokers: listed,
            previous,
        }])
    }

    pub(crate) fn delete_failure_domain(&mut self, domain: &str) -> Result<Vec<Event>, Error> {
        let brokers = self
            .failure_domains
            .delete(domain)
            .ok_or_else(|| Error::Invalid(format!("no failure domain named {domain:?}")))?;
        Ok(vec![Event::FailureDomainDeleted {
            domain: domain.to_string(),
            brokers: brokers.into_iter().collect(),
        }])
    }
}
