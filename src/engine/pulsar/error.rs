//! Why a Pulsar action was refused: [`Error`].

use super::topic::TopicNameError;
use crate::engine::schema::ConfigError;

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
    #[error("namespace {0:?} is not of the form tenant/namespace (or the legacy tenant/cluster/namespace)")]
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
    /// The topic does not exist.
    #[error("topic {0} does not exist")]
    NoSuchTopic(String),
    /// Bad topic name.
    #[error(transparent)]
    TopicName(#[from] TopicNameError),
    /// The broker exists already.
    #[error("broker {0} already exists")]
    BrokerExists(String),
    /// No such broker.
    #[error("broker {0} does not exist")]
    NoSuchBroker(String),
    /// The broker is crashed.
    #[error("broker {0} is not alive")]
    BrokerNotAlive(String),
    /// The broker is alive.
    #[error("broker {0} is already alive")]
    BrokerAlive(String),
    /// Bad bundle name or no such bundle.
    #[error("no bundle {0}")]
    NoSuchBundle(String),
    /// A split was refused.
    #[error("cannot split: {0}")]
    SplitRefused(String),
    /// A value out of range.
    #[error("invalid value: {0}")]
    Invalid(String),
    /// A config key or value was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
}
