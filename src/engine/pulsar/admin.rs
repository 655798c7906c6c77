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
//!   `loadBalancerNamespaceMaximumBundles` (only the automatic split checks it).
//! * `namespaces unload NS [-b RANGE [-d BROKER]]`: unloads one bundle (to a
//!   destination with `-d`: modular remembers it as the bundle's affinity for the
//!   next lookup, extensible transfers it at once) or every owned bundle of the
//!   namespace. Unloading an unowned bundle is a no-op, as in Pulsar. Manual
//!   unloads are not recorded in the recently-unloaded map (only the leader's
//!   shedding records there).

use super::bundle::BundleRange;
use super::config::SplitAlgorithm;
use super::load::{BrokerId, BundleId};
use super::split;
use super::split_threshold::can_split;
use super::{Error, Event, Sim};

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
        let plan = self.plan_split(&bid, alg, boundaries);
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
                self.unload_bundle(&bid, dst.clone(), true, "admin unload", &mut ev);
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
                    self.unload_bundle(&bid, None, true, "admin unload of the namespace", &mut ev);
                }
            }
        }
        Ok(ev)
    }
}
