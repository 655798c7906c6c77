//! What each event is about, as the views label it: a TaskManager (`tm-0`), a
//! slot (`tm-0/1`) or a job vertex (its name).

use super::Event;
use crate::engine::{Subject, SubjectKind};

/// The subject of a Flink event.
pub fn of(e: &Event) -> Option<Subject> {
    match e {
        Event::TaskManagerAdded { tm, .. }
        | Event::TaskManagerRemoved { tm, .. }
        | Event::TaskManagerLost { tm, .. }
        | Event::TaskManagerRestored { tm, .. }
        | Event::SlotRequestsMatched { tm, .. }
        | Event::SlotsOccupied { tm, .. }
        | Event::TaskManagerResourcesSet { tm, .. } => Some(Subject::new(SubjectKind::Tm, tm.clone())),
        Event::SlotRequestMatched { tm, slot, .. } => {
            Some(Subject::new(SubjectKind::Slot, format!("{tm}/{slot}")))
        }
        Event::SubtasksAssigned { vertex, .. } | Event::ResourceRequirementsSet { vertex, .. } => {
            Some(Subject::new(SubjectKind::Vertex, vertex.clone()))
        }
        Event::JobDefined { .. }
        | Event::ConfigChanged { .. }
        | Event::StrategiesChosen { .. }
        | Event::SlotSharingDone { .. }
        | Event::SlotRequestsIssued { .. }
        | Event::SlotsAllocated { .. }
        | Event::ResourceViewSettled { .. }
        | Event::SlotRequestsTimedOut { .. }
        | Event::SchedulingFinished { .. }
        | Event::SchedulingFailed { .. }
        | Event::PreMappingUnfulfilled { .. }
        | Event::SlotSharingGroupResourcesSet { .. }
        | Event::AdaptiveStrategiesChosen { .. }
        | Event::ParallelismDetermined { .. }
        | Event::WaitingForResources { .. }
        | Event::Rescaling { .. } => None,
    }
}
