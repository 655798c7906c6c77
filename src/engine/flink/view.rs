//! Read-only views for a UI: the slot grid (TaskManager rows × slot cells listing
//! the subtasks in each slot).

use super::config::LoadBalanceMode;
use super::resource_profile::Resources;
use super::task_manager::TmState;
use super::{JobStatus, Sim};
use serde::Serialize;

/// One subtask in a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SubtaskLabel {
    /// Vertex name.
    pub vertex: String,
    /// Subtask index.
    pub subtask: u32,
}

/// One slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotCell {
    /// Slot index on its TaskManager.
    pub slot: u32,
    /// The slot request placed here.
    pub request: Option<u32>,
    /// Its subtasks, in the order phase 1 added them.
    pub subtasks: Vec<SubtaskLabel>,
    /// The slot's carved resources (fine-grained TaskManagers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Resources>,
    /// Held by another job.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub other_job: bool,
}

/// One TaskManager row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TmRow {
    /// Name.
    pub tm: String,
    /// State.
    pub state: TmState,
    /// Tasks on it.
    pub tasks: u32,
    /// Its slots.
    pub slots: Vec<SlotCell>,
    /// Total resources, if declared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    /// Another job's tasks on it.
    #[serde(skip_serializing_if = "is_zero")]
    pub other_job_tasks: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The whole grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotGrid {
    /// Simulated time (ms).
    pub now_ms: u64,
    /// Effective load-balance mode.
    pub mode: LoadBalanceMode,
    /// Job status.
    pub status: JobStatus,
    /// Rows in registration order.
    pub rows: Vec<TmRow>,
}

impl SlotGrid {
    /// Build the grid of a simulation.
    pub fn build(sim: &Sim) -> SlotGrid {
        let names = vertex_names(sim);
        let rows = sim.task_managers().iter().map(|t| row(sim, &names, t)).collect();
        SlotGrid {
            now_ms: sim.now_ms(),
            mode: sim.config.effective_mode(),
            status: sim.status(),
            rows,
        }
    }
}

/// The job's vertex names, in definition order.
fn vertex_names(sim: &Sim) -> Vec<&str> {
    sim.job()
        .map(|j| j.vertices.iter().map(|v| v.name.as_str()).collect())
        .unwrap_or_default()
}

/// The grid row of TaskManager `t`.
fn row(sim: &Sim, names: &[&str], t: &super::task_manager::TaskManager) -> TmRow {
    let slots: Vec<SlotCell> = t
        .slots
        .iter()
        .enumerate()
        .map(|(i, occ)| {
            let subtasks = occ
                .and_then(|r| sim.plan().and_then(|p| p.requests.get(r as usize)))
                .map(|req| {
                    req.subtasks
                        .iter()
                        .map(|s| SubtaskLabel {
                            vertex: names.get(s.vertex as usize).unwrap_or(&"?").to_string(),
                            subtask: s.subtask,
                        })
                        .collect()
                })
                .unwrap_or_default();
            SlotCell {
                slot: i as u32,
                request: *occ,
                subtasks,
                profile: if t.resources.is_some() {
                    t.slot_profiles.get(i).copied().flatten()
                } else {
                    None
                },
                other_job: t.is_other_job_slot(i),
            }
        })
        .collect();
    TmRow {
        tm: t.name.clone(),
        state: t.state,
        tasks: slots.iter().map(|c| c.subtasks.len() as u32).sum(),
        slots,
        resources: t.resources,
        other_job_tasks: t.other_job_tasks(),
    }
}

/// The [`SlotGrid`] of a simulation, serialized as it is written: the same
/// fields, each row built when it is reached.
pub(super) struct LazyGrid<'a>(pub(super) &'a Sim);

impl Serialize for LazyGrid<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let sim = self.0;
        let names = vertex_names(sim);
        let rows = crate::engine::LazySeq(|| sim.task_managers().iter().map(|t| row(sim, &names, t)));
        let mut g = s.serialize_struct("SlotGrid", 4)?;
        g.serialize_field("now_ms", &sim.now_ms())?;
        g.serialize_field("mode", &sim.config.effective_mode())?;
        g.serialize_field("status", &sim.status())?;
        g.serialize_field("rows", &rows)?;
        g.end()
    }
}
