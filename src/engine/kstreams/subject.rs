//! What each event is about, as the views label it: a task (`0_1`), a stream
//! thread (`app-1/T2`), an instance or a topic.

use super::Event;
use crate::engine::{Subject, SubjectKind};

/// The subject of a Kafka Streams event.
pub fn of(e: &Event) -> Option<Subject> {
    match e {
        Event::TopicDefined { topic, .. }
        | Event::Produced { topic, .. }
        | Event::PartitionRacksSet { topic, .. } => Some(Subject::new(SubjectKind::Topic, topic.clone())),
        Event::InstanceAdded { instance, .. }
        | Event::InstanceRemoved { instance, .. }
        | Event::InstanceCrashed { instance, .. }
        | Event::InstanceRestarted { instance, .. }
        | Event::ThreadsAssigned { instance, .. }
        | Event::InstanceIdle { instance, .. }
        | Event::AssignmentSet { instance, .. }
        | Event::TaskOffsetsCleared { instance, .. }
        | Event::TaskOffsetsSet { instance, .. } => {
            Some(Subject::new(SubjectKind::Instance, instance.clone()))
        }
        Event::ThreadAdded { instance, thread, .. } | Event::ThreadRemoved { instance, thread, .. } => {
            Some(Subject::new(SubjectKind::Thread, format!("{instance}/T{thread}")))
        }
        Event::TaskRestored { task, .. }
        | Event::WarmupCaughtUp { task, .. }
        | Event::TaskAssigned { task, .. }
        | Event::ActiveMovementExplained { task, .. } => {
            Some(Subject::new(SubjectKind::Task, task.to_string()))
        }
        Event::Workload(w) => w.subject(),
        Event::TopologyDefined { .. }
        | Event::TimeAdvanced { .. }
        | Event::RebalanceStarted { .. }
        | Event::RackAwareOptimized { .. }
        | Event::ProbingRebalanceScheduled { .. }
        | Event::RebalanceCompleted { .. }
        | Event::ConfigSet { .. }
        | Event::Warning { .. }
        | Event::HighAvailabilityTarget { .. }
        | Event::ActiveQuota { .. }
        | Event::MemberQuotas { .. }
        | Event::EndOffsetsSet { .. }
        | Event::StandbyAssignorChosen { .. } => None,
    }
}
