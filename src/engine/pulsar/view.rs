//! Read-only, serialisable views for a UI.

use super::bundle::BundleRange;
use super::load::BrokerId;
use super::ownership::ServiceUnitState;
use super::report::weights;
use super::topic::TopicName;
use super::traffic::Traffic;
use super::Sim;
use serde::{Deserialize, Serialize};

/// A topic on the ring.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopicView {
    /// Name.
    pub name: TopicName,
    /// Position.
    pub hash: u32,
    /// Pinned by the user.
    pub pinned: bool,
    /// Traffic.
    pub traffic: Traffic,
    /// Reconnects so far.
    pub reconnects: u64,
}

/// A bundle on the ring.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BundleView {
    /// Range.
    pub range: BundleRange,
    /// `0x.._0x..`.
    pub name: String,
    /// Owner when Owned.
    pub owner: Option<BrokerId>,
    /// Service-unit state.
    pub state: ServiceUnitState,
    /// Topic count.
    pub topics: u32,
    /// Load it carries (direct or summed).
    pub load: Traffic,
    /// Whether the load was set directly.
    pub direct: bool,
    /// Its topics (when asked for).
    pub topic_list: Vec<TopicView>,
}

/// A namespace's ring.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RingView {
    /// `tenant/namespace`.
    pub namespace: String,
    /// Bundles in ring order.
    pub bundles: Vec<BundleView>,
}

/// How one bundle of a later ring differs from an earlier ring of the same namespace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BundleChange {
    /// The bundle in the later ring (`0x.._0x..`).
    pub name: String,
    /// The earlier bundle it came from when it is a split child (`0x.._0x..`).
    pub split_from: Option<String>,
    /// Owner in the earlier ring (of the parent, for a split child).
    pub from: Option<BrokerId>,
    /// Owner in the later ring.
    pub to: Option<BrokerId>,
}

impl RingView {
    /// Bundles of `later` that are new (split children) or changed owner since
    /// `self`, in ring order: what a proposal would move.
    pub fn changes_to(&self, later: &RingView) -> Vec<BundleChange> {
        later
            .bundles
            .iter()
            .filter_map(|b| {
                let same = self.bundles.iter().find(|o| o.range == b.range);
                match same {
                    Some(o) if o.owner == b.owner => None,
                    Some(o) => Some(BundleChange {
                        name: b.name.clone(),
                        split_from: None,
                        from: o.owner.clone(),
                        to: b.owner.clone(),
                    }),
                    None => {
                        let parent = self.bundles.iter().find(|o| o.range.contains(b.range.lower));
                        Some(BundleChange {
                            name: b.name.clone(),
                            split_from: parent.map(|p| p.name.clone()),
                            from: parent.and_then(|p| p.owner.clone()),
                            to: b.owner.clone(),
                        })
                    }
                }
            })
            .collect()
    }
}

/// A broker's usage against the overload line and the cluster average.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrokerView {
    /// Name.
    pub id: BrokerId,
    /// Alive.
    pub alive: bool,
    /// Leader.
    pub leader: bool,
    /// CPU %.
    pub cpu: f32,
    /// Heap %.
    pub memory: f32,
    /// Direct memory %.
    pub direct_memory: f32,
    /// NIC in %.
    pub bandwidth_in: f32,
    /// NIC out %.
    pub bandwidth_out: f32,
    /// Max weighted usage % (the load the strategies compare).
    pub load: f64,
    /// `loadBalancerBrokerOverloadedThresholdPercentage`.
    pub overload_line: f64,
    /// Average load of alive brokers, %.
    pub cluster_avg: f64,
    /// Bundles owned.
    pub bundles: usize,
    /// Topics served.
    pub topics: u32,
    /// Msg/s in + out served.
    pub msg_rate: f64,
    /// Bytes/s in + out served.
    pub throughput: f64,
    /// Its last published report against what it serves now (alive brokers).
    pub report: Option<super::report::ReportCheck>,
}

impl Sim {
    /// The ring of `namespace` (with every topic when `with_topics`).
    pub fn ring_view(&self, namespace: &str, with_topics: bool) -> Option<RingView> {
        let ns = self.namespaces.get(namespace)?;
        let nid = self.ns_id(namespace);
        let bundles = ns
            .bundles
            .iter()
            .map(|r| {
                let id = super::load::BundleId {
                    namespace: nid.clone(),
                    range: *r,
                };
                let st = self.bundles.get(&id).cloned().unwrap_or_default();
                BundleView {
                    range: *r,
                    name: r.name(),
                    owner: st.owner().cloned(),
                    state: st.ownership.state,
                    topics: st.topics,
                    load: st.load(),
                    direct: st.direct.is_some(),
                    topic_list: if with_topics {
                        ns.topics_in(*r)
                            .into_iter()
                            .map(|t| TopicView {
                                name: t.name.clone(),
                                hash: t.hash,
                                pinned: t.pinned,
                                traffic: ns.traffic(t),
                                reconnects: t.reconnects,
                            })
                            .collect()
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect();
        Some(RingView {
            namespace: namespace.to_string(),
            bundles,
        })
    }

    /// What the configured shedder compares, per broker, and the lines it
    /// compares against (its history as its last pass left it, read with the
    /// leader's load data; see [`super::shed::inputs`]).
    pub fn shed_inputs(&self) -> super::shed::inputs::ShedInputs {
        self.shedder.inputs(&self.load, &self.effective, self.now_ms)
    }

    /// Every broker's usage.
    pub fn broker_views(&self) -> Vec<BrokerView> {
        let w = weights(&self.config);
        // One report snapshot serves the average and every broker's row.
        let all = self.snapshots();
        let (n, sum) = self
            .alive_loads(&all)
            .fold((0usize, 0.0), |(n, s), (_, l)| (n + 1, s + l));
        let avg = if n == 0 { 0.0 } else { sum / n as f64 };
        let mut v = self
            .brokers
            .values()
            .map(|b| {
                let snap = b.alive.then(|| self.snapshot_with(&all, b));
                let report = snap.as_ref().map(|s| self.report_check_of(b, s));
                let (u, served, topics) = snap.map(|s| (s.usage, s.served, s.topics)).unwrap_or_default();
                let l = super::load::LocalBrokerData::of_usage(&u);
                BrokerView {
                    id: b.id.clone(),
                    alive: b.alive,
                    leader: self.leader.as_ref() == Some(&b.id),
                    cpu: u.cpu.percent_usage(),
                    memory: u.memory.percent_usage(),
                    direct_memory: u.direct_memory.percent_usage(),
                    bandwidth_in: u.bandwidth_in.percent_usage(),
                    bandwidth_out: u.bandwidth_out.percent_usage(),
                    load: l.max_resource_usage_with_weight(&w) * 100.0,
                    overload_line: self.config.load_balancer_broker_overloaded_threshold_percentage,
                    cluster_avg: avg,
                    bundles: b.bundles.len(),
                    topics,
                    msg_rate: served.msg_rate(),
                    throughput: served.throughput(),
                    report,
                }
            })
            .collect::<Vec<_>>();
        // Listed in natural name order (broker-2 before broker-10).
        crate::sort::sort_natural_by(&mut v, |b| b.id.as_str());
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Config, Sim};
    use crate::engine::Engine;

    #[test]
    fn changes_list_split_children_and_moves_only() {
        let mut sim = Sim::new(
            Config::profile(crate::engine::pulsar::config::Profile::Pulsar4),
            1,
        )
        .unwrap();
        for b in ["b1", "b2"] {
            sim.apply(&Action::AddBroker {
                broker: b.into(),
                capacity: Default::default(),
            })
            .unwrap();
        }
        sim.apply(&Action::CreateNamespace {
            namespace: "t/n".into(),
            bundles: Some(2),
        })
        .unwrap();
        sim.apply(&Action::CreateTopic {
            topic: "t/n/a".into(),
        })
        .unwrap();
        sim.apply(&Action::Assign).unwrap();
        let before = sim.ring_view("t/n", false).unwrap();
        assert!(before.changes_to(&before).is_empty());
        let owned = before.bundles.iter().find(|b| b.owner.is_some()).unwrap();
        let other = if owned.owner.as_ref().unwrap().as_str() == "b1" {
            "b2"
        } else {
            "b1"
        };
        sim.apply(&Action::Unload {
            namespace: "t/n".into(),
            bundle: Some(owned.name.clone()),
            destination: Some(other.into()),
        })
        .unwrap();
        sim.apply(&Action::Assign).unwrap();
        let moved = sim.ring_view("t/n", false).unwrap();
        let ch = before.changes_to(&moved);
        assert_eq!(ch.len(), 1);
        assert_eq!(ch[0].name, owned.name);
        assert_eq!(ch[0].to.as_ref().unwrap().as_str(), other);
        assert_eq!(ch[0].split_from, None);
        sim.apply(&Action::SplitBundle {
            namespace: "t/n".into(),
            bundle: owned.name.clone(),
            algorithm: None,
            boundaries: Vec::new(),
            unload: false,
        })
        .unwrap();
        let split = sim.ring_view("t/n", false).unwrap();
        let ch = moved.changes_to(&split);
        assert_eq!(ch.len(), 2);
        assert!(ch
            .iter()
            .all(|c| c.split_from.as_deref() == Some(owned.name.as_str())));
        assert!(ch.iter().all(|c| c.from.as_ref().unwrap().as_str() == other));
    }
}
