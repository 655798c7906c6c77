//! Apache Pulsar broker load balancing: namespaces sharded into bundles on the
//! 32-bit hash ring, topics placed by Pulsar's CRC-32 topic hash, brokers that
//! own bundles, load reports, automatic and manual splits, shedding, and the
//! modular and extensible load managers.
//!
//! One file per concept: [`broker`], [`traffic`] (the load model), [`report`]
//! (load reports and Pulsar's bookkeeping in [`load`]), [`split`] (the four
//! algorithms), [`split_threshold`] (automatic split), [`assign`] (lookup,
//! the candidate filters of both load managers, assignment), [`isolation`]
//! (namespace isolation policies), [`anti_affinity`] (anti-affinity groups),
//! [`failure_domain`] (failure domains), [`ownership`] (service-unit states),
//! [`load_manager`] (shedding, unload, transfer, faults), [`admin`]
//! (pulsar-admin operations), [`round`] (simulated time and metrics), [`view`]
//! (read-only views for a UI); 5.0's scalable topics: [`scalable_topic`],
//! [`segment_layout`], [`auto_scale`], [`subscription_coordinator`].
//!
//! What keeps a round cheap at 16 384 bundles (each documented where it lives):
//! bundle ids share their namespace's name (`NamespaceName`), each broker caches
//! the traffic it serves until one of its bundles changes, the unowned bundles
//! are kept in a set, passes over every bundle find them by position (`index`)
//! or walk sorted maps side by side instead of looking keys up, and split
//! refusals are written without the formatting machinery (`fixed`). None of it
//! changes an event or a number.

mod action;
pub mod admin;
pub mod anti_affinity;
pub mod assign;
pub mod auto_scale;
pub mod broker;
mod bulk_lookup;
pub mod bundle;
pub mod bundle_map;
pub mod config;
mod error;
mod event;
pub mod failure_domain;
pub(crate) mod fixed;
pub mod ids;
pub(crate) mod index;
mod invariants;
pub mod isolation;
mod knobs;
pub mod limits;
pub mod load;
pub mod load_manager;
pub mod namespace;
pub mod ownership;
pub mod place;
pub mod report;
pub mod round;
pub mod scalable_topic;
pub mod segment_layout;
pub mod shed;
mod sim;
pub mod split;
pub mod split_threshold;
mod subject;
pub mod subscription_coordinator;
pub mod topic;
pub mod traffic;
pub mod usage;
pub mod view;
pub mod workload;

pub use action::Action;
pub use bulk_lookup::Lookups;
pub use config::Config;
pub use error::Error;
pub use event::{Event, SheddingSkipReason, UnloadCause, UnloadSkipReason};
pub use round::{Phase, RoundMetrics};
pub(crate) use sim::ns_id;
pub use sim::{effective_config, BundleState, RoundCounters, Sim, MAX_BULK_TOPICS, MAX_BUNDLES};
