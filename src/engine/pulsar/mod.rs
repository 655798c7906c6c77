//! Apache Pulsar broker load balancing: namespaces, bundles on the 32-bit hash
//! ring, topics placed by Pulsar's CRC-32 topic hash.

pub mod bundle;
pub mod config;
pub mod load;
pub mod namespace;
pub mod place;
pub mod shed;
pub mod topic;

use super::{Engine, Narrate, SimRng, System};
use bundle::BundleRange;
use namespace::{Namespace, Topic};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use topic::{TopicName, TopicNameError};

pub use config::Config;

/// The only way a Pulsar simulation changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Action {
    /// `pulsar-admin namespaces create TENANT/NS [--bundles N]`.
    CreateNamespace {
        /// `tenant/namespace`.
        namespace: String,
        /// Bundle count; the config default when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bundles: Option<u32>,
    },
    /// Create a topic (its namespace must exist).
    CreateTopic {
        /// Full or short topic name.
        topic: String,
    },
}

/// What happened, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A namespace was created and sharded.
    NamespaceCreated {
        /// `tenant/namespace`.
        namespace: String,
        /// Its bundles.
        bundles: Vec<BundleRange>,
    },
    /// A topic was created and hashed into a bundle.
    TopicCreated {
        /// Full topic name.
        topic: TopicName,
        /// Its CRC-32 hash.
        hash: u32,
        /// The bundle that holds it.
        bundle: BundleRange,
    },
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        match self {
            Event::NamespaceCreated { namespace, bundles } => format!(
                "namespace {namespace} created with {} bundles: segment = 2^32 / {} = 0x{:08x}",
                bundles.len(),
                bundles.len(),
                bundle::FULL_SPACE / bundles.len().max(1) as u64
            ),
            Event::TopicCreated { topic, hash, bundle } => {
                format!("topic {topic}: crc32 = 0x{hash:08x} -> bundle {bundle}")
            }
        }
    }
}

/// Why a Pulsar action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A namespace needs at least one bundle.
    #[error("a namespace needs at least 1 bundle (got {0})")]
    ZeroBundles(u32),
    /// Too many bundles for the playground.
    #[error("{got} bundles is more than the limit of {max}")]
    TooManyBundles {
        /// Requested.
        got: u32,
        /// Allowed.
        max: u32,
    },
    /// Namespace names are `tenant/namespace`.
    #[error("namespace {0:?} is not of the form tenant/namespace")]
    BadNamespace(String),
    /// The namespace exists already.
    #[error("namespace {0} already exists")]
    NamespaceExists(String),
    /// The namespace does not exist.
    #[error("namespace {0} does not exist")]
    NoSuchNamespace(String),
    /// The topic exists already.
    #[error("topic {0} already exists")]
    TopicExists(String),
    /// Bad topic name.
    #[error(transparent)]
    TopicName(#[from] TopicNameError),
}

/// Most bundles one namespace may have (Pulsar's `loadBalancerNamespaceMaximumBundles` default is 128;
/// the playground allows more for scale experiments).
pub const MAX_BUNDLES: u32 = 1 << 16;

/// A Pulsar cluster simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    config: Config,
    #[allow(dead_code)]
    rng: SimRng,
    namespaces: BTreeMap<String, Namespace>,
}

impl Sim {
    /// Namespaces by name.
    pub fn namespaces(&self) -> &BTreeMap<String, Namespace> {
        &self.namespaces
    }

    fn create_namespace(&mut self, name: &str, bundles: Option<u32>) -> Result<Vec<Event>, Error> {
        let n = bundles.unwrap_or(self.config.default_number_of_namespace_bundles);
        if n == 0 {
            return Err(Error::ZeroBundles(n));
        }
        if n > MAX_BUNDLES {
            return Err(Error::TooManyBundles {
                got: n,
                max: MAX_BUNDLES,
            });
        }
        let parts: Vec<&str> = name.split('/').collect();
        if parts.len() != 2 || parts.iter().any(|p| p.is_empty() || p.contains(':')) {
            return Err(Error::BadNamespace(name.to_string()));
        }
        if self.namespaces.contains_key(name) {
            return Err(Error::NamespaceExists(name.to_string()));
        }
        let ns = Namespace::new(name, n).ok_or(Error::ZeroBundles(n))?;
        let ev = Event::NamespaceCreated {
            namespace: name.to_string(),
            bundles: ns.bundles.clone(),
        };
        self.namespaces.insert(name.to_string(), ns);
        Ok(vec![ev])
    }

    fn create_topic(&mut self, raw: &str) -> Result<Vec<Event>, Error> {
        let name = TopicName::parse(raw)?;
        let ns = self
            .namespaces
            .get_mut(name.namespace())
            .ok_or_else(|| Error::NoSuchNamespace(name.namespace().to_string()))?;
        if ns.topics.contains_key(&name) {
            return Err(Error::TopicExists(name.0));
        }
        let hash = name.hash();
        let bundle: BundleRange = ns.bundle_of(hash);
        ns.topics.insert(
            name.clone(),
            Topic {
                name: name.clone(),
                hash,
            },
        );
        Ok(vec![Event::TopicCreated {
            topic: name,
            hash,
            bundle,
        }])
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Pulsar;

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        Ok(Sim {
            config,
            rng: SimRng::new(seed),
            namespaces: BTreeMap::new(),
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        match action {
            Action::CreateNamespace { namespace, bundles } => self.create_namespace(namespace, *bundles),
            Action::CreateTopic { topic } => self.create_topic(topic),
        }
    }

    fn config(&self) -> &Config {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_topic_lands_in_first_of_four_bundles() {
        let mut sim = Sim::new(Config::default(), 1).unwrap();
        sim.apply(&Action::CreateNamespace {
            namespace: "public/default".into(),
            bundles: Some(4),
        })
        .unwrap();
        let ev = sim
            .apply(&Action::CreateTopic {
                topic: "persistent://public/default/my-topic".into(),
            })
            .unwrap();
        match &ev[0] {
            Event::TopicCreated { hash, bundle, .. } => {
                assert_eq!(*hash, 0x2bad45f7);
                assert_eq!(bundle.name(), "0x00000000_0x40000000");
            }
            e => panic!("unexpected {e:?}"),
        }
        assert!(ev[0].narrate().contains("0x2bad45f7"));
    }

    #[test]
    fn errors_leave_state_unchanged() {
        let mut sim = Sim::new(Config::default(), 1).unwrap();
        let zero = Action::CreateNamespace {
            namespace: "a/b".into(),
            bundles: Some(0),
        };
        assert_eq!(sim.apply(&zero), Err(Error::ZeroBundles(0)));
        assert!(sim.namespaces().is_empty());
        assert!(matches!(
            sim.apply(&Action::CreateTopic {
                topic: "a/b/t".into()
            }),
            Err(Error::NoSuchNamespace(_))
        ));
        assert!(matches!(
            sim.apply(&Action::CreateNamespace {
                namespace: "nope".into(),
                bundles: None
            }),
            Err(Error::BadNamespace(_))
        ));
    }
}
