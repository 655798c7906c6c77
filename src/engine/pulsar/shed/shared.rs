//! Filters and helpers the shedders share (Pulsar's `LoadManagerShared`,
//! `LoadData.getBundleDataForLoadShedding` and the modular load manager's
//! shedding preamble), re-expressed for lbscope.

use super::super::config::Config;
use super::super::load::{BrokerId, BundleData, BundleId, LoadData, LocalBrokerData, Weights};
use crate::sort::StableSort;
use std::collections::BTreeMap;

/// One mebibyte, the unit Pulsar's `...MinThroughputThreshold` is given in.
pub const MB: f64 = 1024.0 * 1024.0;

/// The resource weights of the config (`loadBalancer*ResourceWeight`).
pub fn weights(conf: &Config) -> Weights {
    Weights {
        cpu: conf.load_balancer_cpu_resource_weight,
        memory: conf.load_balancer_memory_resource_weight,
        direct_memory: conf.load_balancer_direct_memory_resource_weight,
        bandwidth_in: conf.load_balancer_bandwidth_in_resource_weight,
        bandwidth_out: conf.load_balancer_bandwidth_out_resource_weight,
    }
}

/// Whether the load manager runs shedding at all
/// (`loadBalancerEnabled && loadBalancerSheddingEnabled`, `isLoadSheddingEnabled`).
pub fn is_load_shedding_enabled(conf: &Config) -> bool {
    conf.load_balancer_enabled && conf.load_balancer_shedding_enabled
}

/// Grace period in milliseconds (`loadBalancerSheddingGracePeriodMinutes`).
pub fn grace_period_ms(conf: &Config) -> u64 {
    u64::from(conf.load_balancer_shedding_grace_period_minutes) * 60_000
}

/// The bundles still inside their grace period at `now_ms`, with their unload time.
///
/// Pulsar drops an entry once `unloadedAt < now - grace` before every shedding
/// pass; what is left is skipped by every strategy.
pub fn recently_unloaded(load: &LoadData, conf: &Config, now_ms: u64) -> BTreeMap<BundleId, u64> {
    let grace = grace_period_ms(conf);
    load.recently_unloaded
        .iter()
        .filter(|(_, at)| at.saturating_add(grace) >= now_ms)
        .map(|(b, at)| (b.clone(), *at))
        .collect()
}

/// `NamespaceService.isSystemServiceNamespace`: `pulsar/system`, the heartbeat
/// namespaces (`pulsar/HOST:PORT`, `pulsar/CLUSTER/HOST:PORT`) and the SLA-monitor
/// namespaces (`sla-monitor/CLUSTER/HOST:PORT`). Their bundles are never shed.
pub fn is_system_service_namespace(ns: &str) -> bool {
    fn host_port(s: &str) -> bool {
        match s.rsplit_once(':') {
            Some((host, port)) => {
                !host.is_empty()
                    && !host.contains(':')
                    && !port.is_empty()
                    && port.bytes().all(|c| c.is_ascii_digit())
            }
            None => false,
        }
    }
    if ns == "pulsar/system" {
        return true;
    }
    let mut parts = ns.split('/');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("pulsar"), Some(hp), None, None) => host_port(hp),
        (Some("pulsar" | "sla-monitor"), Some(cluster), Some(hp), None) => {
            !cluster.is_empty() && host_port(hp)
        }
        _ => false,
    }
}

/// `LoadData.getBundleDataForLoadShedding`: every bundle's data except the
/// system service namespaces' ones.
pub fn bundle_data_for_load_shedding(load: &LoadData) -> impl Iterator<Item = (&BundleId, &BundleData)> {
    load.bundles
        .iter()
        .filter(|(b, _)| !is_system_service_namespace(&b.namespace))
}

/// Short-term throughput (in + out, bytes/s) of a bundle.
pub fn short_term_throughput(d: &BundleData) -> f64 {
    d.short_term.msg.total_throughput()
}

/// Short-term message rate (in + out, msg/s) of a bundle.
pub fn short_term_msg_rate(d: &BundleData) -> f64 {
    d.short_term.msg.total_rate()
}

/// Bundles with their traffic, largest first.
pub type Ranked = Vec<(BundleId, f64)>;

/// A broker's sheddable bundles: those it reports owning that have bundle data
/// and are not in a system namespace, split into eligible ones (with their
/// traffic per `value`, largest first) and ones still in their grace period.
///
/// Deterministic rule: Pulsar streams a hash map and sorts stably, so equal values
/// keep hash order; lbscope starts from bundle-name order, so equal values come
/// out by ascending bundle name.
pub fn sheddable_bundles(
    load: &LoadData,
    local: &LocalBrokerData,
    recent: &BTreeMap<BundleId, u64>,
    value: impl Fn(&BundleData) -> f64,
) -> (Ranked, Vec<(BundleId, u64)>) {
    let mut eligible = Vec::new();
    let mut skipped = Vec::new();
    // The broker's own bundles (ascending name, as `load.bundles` iterates), each
    // looked up, instead of a walk over every bundle of the cluster.
    let mut system: Option<(&str, bool)> = None;
    for b in local.bundles.keys() {
        let Some(d) = load.bundles.get(b) else {
            continue;
        };
        let is_system = match system {
            Some((ns, v)) if ns == b.namespace => v,
            _ => {
                let v = is_system_service_namespace(&b.namespace);
                system = Some((&b.namespace, v));
                v
            }
        };
        if is_system {
            continue;
        }
        match recent.get(b) {
            Some(at) => skipped.push((b.clone(), *at)),
            None => eligible.push((b.clone(), value(d))),
        }
    }
    eligible.stable_sort_by(|a, b| b.1.total_cmp(&a.1));
    (eligible, skipped)
}

/// Throughput in MB/s for narration.
pub fn mbs(bytes_per_s: f64) -> f64 {
    bytes_per_s / MB
}

/// Brokers in lbscope's deterministic iteration order (ascending name), which
/// stands in for Java's hash-map order.
pub fn broker_order(load: &LoadData) -> Vec<&BrokerId> {
    load.brokers.keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_namespaces() {
        assert!(is_system_service_namespace("pulsar/system"));
        assert!(is_system_service_namespace("pulsar/broker-1:8080"));
        assert!(is_system_service_namespace("pulsar/standalone/broker-1:8080"));
        assert!(is_system_service_namespace(
            "sla-monitor/standalone/broker-1:8080"
        ));
        assert!(!is_system_service_namespace("public/default"));
        assert!(!is_system_service_namespace("pulsar/functions"));
        assert!(!is_system_service_namespace("pulsar/x/host:abc"));
    }
}
