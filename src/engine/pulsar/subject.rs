//! What each event is about, as the views label it: a bundle
//! (`tenant/ns/0xLLLLLLLL_0xUUUUUUUU`), a topic (its full name) or a broker.
//! The most specific entity wins: a lookup is about its bundle, not its broker.

use super::load::{BrokerId, BundleId};
use super::place::PlaceEvent;
use super::shed::ShedEvent;
use super::Event;
use crate::engine::{Subject, SubjectKind};

fn bundle(b: &BundleId) -> Option<Subject> {
    Some(Subject::new(SubjectKind::Bundle, b.to_string()))
}

fn broker(b: &BrokerId) -> Option<Subject> {
    Some(Subject::new(SubjectKind::Broker, b.0.to_string()))
}

/// The subject of a Pulsar event.
pub fn of(e: &Event) -> Option<Subject> {
    match e {
        Event::TopicCreated { topic, .. }
        | Event::PartitionedTopicCreated { topic, .. }
        | Event::TopicTrafficSet { topic, .. } => Some(Subject::new(SubjectKind::Topic, topic.0.to_string())),
        Event::BrokerAdded { broker: b, .. }
        | Event::BrokerCrashed { broker: b, .. }
        | Event::BrokerRestored { broker: b }
        | Event::BrokerCapacitySet { broker: b, .. }
        | Event::BrokerLoadSet { broker: b, .. }
        | Event::LeaderElected { broker: b, .. } => broker(b),
        Event::BundleLoadSet { bundle: b, .. }
        | Event::BundleAssigned { bundle: b, .. }
        | Event::Lookup { bundle: b, .. }
        | Event::NoBrokerAvailable { bundle: b }
        | Event::StateChanged { bundle: b, .. }
        | Event::SplitCandidate { bundle: b, .. }
        | Event::SplitSkipped { bundle: b, .. }
        | Event::BundleSplit { bundle: b, .. }
        | Event::Unloaded { bundle: b, .. }
        | Event::UnloadSkipped { bundle: b, .. }
        | Event::Reconnected { bundle: b, .. } => bundle(b),
        Event::Shed(s) => shed(s),
        Event::Place(p) => place(p),
        Event::Workload(w) => w.subject(),
        Event::Scalable(s) => Some(Subject::new(SubjectKind::Topic, s.topic().to_string())),
        Event::NamespaceCreated { .. }
        | Event::TopicsCreated { .. }
        | Event::NoLeader
        | Event::ConfigSet { .. }
        | Event::ProfileSet { .. }
        | Event::Warning { .. }
        | Event::Reported { .. }
        | Event::SheddingSkipped { .. }
        | Event::RoundDone { .. }
        | Event::IsolationPolicySet { .. }
        | Event::IsolationPolicyDeleted { .. }
        | Event::AntiAffinityGroupSet { .. }
        | Event::AntiAffinityGroupDeleted { .. }
        | Event::FailureDomainSet { .. }
        | Event::FailureDomainDeleted { .. } => None,
    }
}

fn shed(e: &ShedEvent) -> Option<Subject> {
    match e {
        ShedEvent::RecentlyUnloaded { bundle: b, .. }
        | ShedEvent::BundleChosen { bundle: b, .. }
        | ShedEvent::PolicyRefused { bundle: b, .. } => bundle(b),
        ShedEvent::BrokerSkipped { broker: b, .. }
        | ShedEvent::Overloaded { broker: b, .. }
        | ShedEvent::AboveThreshold { broker: b, .. }
        | ShedEvent::LowerBoundary { broker: b, .. }
        | ShedEvent::TransferOutdated { broker: b, .. }
        | ShedEvent::TransferCoolDown { broker: b, .. } => broker(b),
        ShedEvent::Idle { .. }
        | ShedEvent::ThresholdAverages { .. }
        | ShedEvent::UniformImbalance { .. }
        | ShedEvent::TransferStats { .. }
        | ShedEvent::TransferPair { .. }
        | ShedEvent::TransferStdUpdated { .. }
        | ShedEvent::TransferDecision { .. }
        | ShedEvent::AvgScores { .. }
        | ShedEvent::AvgPair { .. }
        | ShedEvent::AvgPlan { .. } => None,
    }
}

fn place(e: &PlaceEvent) -> Option<Subject> {
    match e {
        PlaceEvent::Chosen { bundle: b, .. }
        | PlaceEvent::NoCandidate { bundle: b, .. }
        | PlaceEvent::LongTermRates { bundle: b, .. }
        | PlaceEvent::ResourceUsages { bundle: b, .. }
        | PlaceEvent::AvgDestination { bundle: b, .. }
        | PlaceEvent::Filtered { bundle: b, .. }
        | PlaceEvent::RoundRobin { bundle: b, .. }
        | PlaceEvent::MissingLoadData { bundle: b, .. } => bundle(b),
        PlaceEvent::Fallback { .. } => None,
    }
}
