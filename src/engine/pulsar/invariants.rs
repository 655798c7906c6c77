//! What must hold after every action: each namespace's bundles tile the whole
//! ring, every topic lies in exactly one bundle and each bundle counts its topics,
//! and ownership is consistent (an owner is a live broker that lists the bundle).

use super::bundle::LAST_BOUNDARY;
use super::load::BundleId;
use super::Sim;

/// `Err` names the first broken invariant.
pub fn check(sim: &Sim) -> Result<(), String> {
    let mut live_bundles = 0usize;
    for (name, ns) in sim.namespaces() {
        let b = &ns.bundles;
        let (Some(first), Some(last)) = (b.first(), b.last()) else {
            return Err(format!("{name} has no bundle"));
        };
        if first.lower != 0 || last.upper != LAST_BOUNDARY {
            return Err(format!("{name}'s bundles do not cover the whole ring"));
        }
        for w in b.windows(2) {
            if w[0].upper != w[1].lower || w[0].lower >= w[0].upper {
                return Err(format!(
                    "{name}: bundles {} and {} do not tile the ring",
                    w[0], w[1]
                ));
            }
        }
        let mut counted = 0usize;
        for r in b {
            let id = BundleId {
                namespace: name.as_str().into(),
                range: *r,
            };
            let st = sim
                .bundles()
                .get(&id)
                .ok_or_else(|| format!("bundle {id} of the namespace is not live"))?;
            let n = ns.topics_in(*r).len();
            if st.topics as usize != n {
                return Err(format!("bundle {id} counts {} topics but holds {n}", st.topics));
            }
            counted += n;
        }
        if counted != ns.topics.len() {
            return Err(format!(
                "{name}: {counted} topics in bundles, {} in the namespace",
                ns.topics.len()
            ));
        }
        for t in ns.topics.values() {
            if b.iter().filter(|r| r.contains(t.hash)).count() != 1 {
                return Err(format!("topic {} is not in exactly one bundle", t.name));
            }
        }
        live_bundles += b.len();
    }
    if live_bundles != sim.bundles().len() {
        return Err(format!(
            "{} live bundles, {live_bundles} in the namespaces",
            sim.bundles().len()
        ));
    }
    for (id, st) in sim.bundles() {
        if let Some(o) = st.owner() {
            let b = sim
                .brokers()
                .get(o)
                .ok_or_else(|| format!("bundle {id} is owned by unknown broker {o}"))?;
            if !b.alive {
                return Err(format!("bundle {id} is owned by crashed broker {o}"));
            }
        }
    }
    for b in sim.brokers().values() {
        for id in &b.bundles {
            if sim.bundles().get(id).and_then(|s| s.owner()) != Some(&b.id) {
                return Err(format!("broker {} lists bundle {id} it does not own", b.id));
            }
        }
        if let Some(ns) = &b.one_namespace.0 {
            if b.bundles.iter().any(|id| id.namespace != *ns) {
                return Err(format!(
                    "broker {} is cached as owning bundles of {ns} only, but owns others",
                    b.id
                ));
            }
        }
    }
    Ok(())
}
