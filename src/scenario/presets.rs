//! Scenario building blocks for the playground and lessons (not balancing logic).

use super::{Body, Log, Scenario};
use crate::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
use crate::engine::kstreams::topology::SubtopologySpec;
use crate::engine::{flink, kstreams, pulsar, SimRng, System};

/// The namespace the Pulsar presets work in.
pub const PULSAR_NAMESPACE: &str = "public/default";

/// The scenario each playground tab starts from.
pub fn default_scenario(system: System) -> Scenario {
    let mut sc = Scenario::empty(system, 1);
    match &mut sc.body {
        Body::Pulsar(log) => *log = pulsar_namespace(4),
        Body::Flink(log) => *log = flink_figure_a(),
        Body::Kstreams(log) => *log = kstreams_counts(),
    }
    sc
}

/// A Pulsar log whose setup creates [`PULSAR_NAMESPACE`] with `bundles` bundles.
pub fn pulsar_namespace(bundles: u32) -> Log<pulsar::Config, pulsar::Action> {
    Log {
        config: pulsar::Config::default(),
        setup: vec![pulsar::Action::CreateNamespace {
            namespace: PULSAR_NAMESPACE.into(),
            bundles: Some(bundles),
        }],
        actions: Vec::new(),
    }
}

/// A stateful counting app: topic `orders` with 5 partitions, one sub-topology with
/// a store (and its changelog), 3 instances with one thread each on racks a/b/c,
/// one standby replica; the log produces 5,000 records and lets one second pass, so
/// the standbys have caught up (lag 0) when the user starts crashing instances.
pub fn kstreams_counts() -> Log<kstreams::Config, kstreams::Action> {
    let config = kstreams::Config {
        num_standby_replicas: 1,
        ..kstreams::Config::default()
    };
    let mut setup = vec![
        kstreams::Action::DefineTopic {
            topic: "orders".into(),
            partitions: 5,
            racks: Vec::new(),
            replication_factor: 1,
        },
        kstreams::Action::DefineTopology {
            subtopologies: vec![SubtopologySpec {
                sources: vec!["orders".into()],
                stores: vec!["counts".into()],
                changelog: true,
            }],
            copartition_groups: Vec::new(),
        },
    ];
    for (i, rack) in ["a", "b", "c"].iter().enumerate() {
        setup.push(kstreams::Action::AddInstance {
            name: format!("app-{}", i + 1),
            threads: Some(1),
            rack: Some(format!("rack-{rack}")),
            tags: Default::default(),
            process_id: None,
        });
    }
    Log {
        config,
        setup,
        actions: vec![
            kstreams::Action::Produce {
                topic: "orders".into(),
                key: None,
                partition: None,
                records: 5000,
            },
            kstreams::Action::AdvanceTime { ms: 1000 },
        ],
    }
}

/// The doc's figure (a): JV-A (parallelism 6) -hash-> JV-B (3), one slot sharing
/// group, 3 TaskManagers with 2 slots each; the log schedules once.
pub fn flink_figure_a() -> Log<flink::Config, flink::Action> {
    Log {
        config: flink::Config::default(),
        setup: vec![
            flink::Action::DefineJob {
                job: JobSpec {
                    vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
                    edges: vec![EdgeSpec::new("JV-A", "JV-B", DistributionPattern::Hash)],
                },
            },
            flink::Action::AddTaskManagers {
                count: 3,
                slots: Some(2),
            },
        ],
        actions: vec![flink::Action::Schedule],
    }
}

const WORDS: [&str; 12] = [
    "orders", "payments", "clicks", "metrics", "logs", "users", "alerts", "events", "billing", "audit",
    "search", "chat",
];

/// `n` distinct short topic names drawn from `seed` (same seed, same names).
pub fn random_topic_names(seed: u64, n: usize) -> Vec<String> {
    let mut rng = SimRng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let name = format!("{}-{:04x}", WORDS[rng.below(WORDS.len())], rng.below(0x10000));
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_scenario_replays() {
        for sys in System::ALL {
            let sc = default_scenario(sys);
            assert_eq!(sc.system(), sys);
            super::super::run::event_log(&sc).unwrap();
            let link = super::super::url::to_fragment(&sc);
            assert!(link.len() < 2000, "{sys:?} default link is {} chars", link.len());
        }
    }

    #[test]
    fn names_are_seeded_and_distinct() {
        let a = random_topic_names(5, 20);
        assert_eq!(a, random_topic_names(5, 20));
        assert_ne!(a, random_topic_names(6, 20));
        let mut d = a.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 20);
    }
}
