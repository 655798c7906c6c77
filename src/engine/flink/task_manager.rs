//! TaskManagers and their slots.
//!
//! A TaskManager declared without resources has a fixed number of slots, each `ANY`
//! (fits every request). One declared with a total resource (fine-grained resource
//! management) has a default slot profile (its total divided by its slot count) and
//! carves *dynamic* slots: a slot for an `UNKNOWN` request gets the default profile, one
//! for a fine-grained request gets exactly the requested resources, as long as the
//! TaskManager's free resources allow. Slot positions beyond the configured count are
//! added while resources last (Flink's dynamic slots have no count limit; lbscope caps
//! a TaskManager at [`MAX_SLOTS_PER_TASK_MANAGER`] positions).
//!
//! Slots can also be taken by another job on the same cluster ([`OtherJob`]): the
//! ResourceManager does not hand them out, its utilisation counts them, but the job's
//! own slot pool never sees their tasks.

use super::resource_profile::{ResourceProfile, Resources, Utilization};
use serde::{Deserialize, Serialize};

/// Most TaskManagers a simulation may have.
pub const MAX_TASK_MANAGERS: usize = 4096;
/// Most slots one TaskManager may have.
pub const MAX_SLOTS_PER_TASK_MANAGER: u32 = 1024;

/// A slot's address: TaskManager index (into [`Cluster::tms`]) and slot index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SlotAddr {
    /// TaskManager index.
    pub tm: u32,
    /// Slot index within the TaskManager.
    pub slot: u32,
}

/// Whether a TaskManager is usable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TmState {
    /// Registered and offering its slots.
    Running,
    /// Lost (crashed / disconnected); its slots are gone until restored.
    Lost,
}

/// Slots of a TaskManager taken by another job running on the same cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherJob {
    /// The other job's name.
    pub job: String,
    /// Slots it holds (the TaskManager's first slot positions).
    pub slots: u32,
    /// Tasks it runs in them.
    pub tasks: u32,
}

/// One TaskManager.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskManager {
    /// Unique name, e.g. `tm-0`.
    pub name: String,
    /// State.
    pub state: TmState,
    /// Occupant of each slot: the slot request id placed there, if any.
    pub slots: Vec<Option<u32>>,
    /// Total resources (fine-grained resource management), if declared.
    pub resources: Option<Resources>,
    /// The configured slot count (dynamic positions beyond it are dropped when freed).
    pub configured_slots: u32,
    /// Profile of each slot position while a slot is carved there (fine-grained only).
    pub slot_profiles: Vec<Option<Resources>>,
    /// Slots held by another job.
    pub other_job: Option<OtherJob>,
}

impl TaskManager {
    /// Number of slots.
    pub fn slot_count(&self) -> u32 {
        self.slots.len() as u32
    }

    /// Slots with no request in them (another job's slots excluded).
    pub fn free_slots(&self) -> u32 {
        self.slots
            .iter()
            .enumerate()
            .filter(|(i, s)| s.is_none() && !self.is_other_job_slot(*i))
            .count() as u32
    }

    /// Slots held by another job.
    pub fn other_job_slots(&self) -> u32 {
        self.other_job.as_ref().map_or(0, |o| o.slots)
    }

    /// Tasks of another job on this TaskManager.
    pub fn other_job_tasks(&self) -> u32 {
        self.other_job.as_ref().map_or(0, |o| o.tasks)
    }

    /// Whether slot position `i` is held by another job.
    pub fn is_other_job_slot(&self, i: usize) -> bool {
        (i as u64) < u64::from(self.other_job_slots())
    }

    /// The default slot profile of a fine-grained TaskManager.
    pub fn default_slot(&self) -> Option<Resources> {
        self.resources.map(|r| r.divided_by(self.configured_slots))
    }

    /// Resources not yet carved into slots (fine-grained only): the total minus the
    /// job's slots and the other job's slots (default profile each).
    pub fn free_resources(&self) -> Option<Resources> {
        let total = self.resources?;
        let default = self.default_slot()?;
        let mut used = Resources::default();
        for (i, p) in self.slot_profiles.iter().enumerate() {
            if let Some(p) = p {
                if !self.is_other_job_slot(i) {
                    used = used.plus(*p);
                }
            }
        }
        for _ in 0..self.other_job_slots() {
            used = used.plus(default);
        }
        Some(total.minus(used))
    }

    /// The profile of the slot at position `i` as the slot pool sees it.
    pub fn slot_profile(&self, i: usize) -> ResourceProfile {
        match self.slot_profiles.get(i).copied().flatten() {
            Some(r) if self.resources.is_some() => ResourceProfile::of(r),
            _ => ResourceProfile::Any,
        }
    }

    /// Whether a slot for `request` can be carved at a free position `i` now.
    pub fn can_carve(&self, request: ResourceProfile) -> bool {
        match (self.resources, self.default_slot(), self.free_resources()) {
            (Some(_), Some(default), Some(free)) => free.fits(request.effective(default)),
            _ => true,
        }
    }

    /// The ResourceManager's utilisation of this TaskManager: the larger of the CPU and
    /// memory shares in use (Flink's `InternalResourceInfo`), or, without declared
    /// resources, the share of slots in use; `in_use` are extra slots the caller has
    /// already handed out.
    pub fn utilization(&self, in_use: u64) -> Utilization {
        match (self.resources, self.free_resources()) {
            (Some(total), Some(free)) => {
                let cpu = Utilization {
                    num: total.cpu_milli - free.cpu_milli,
                    den: total.cpu_milli,
                };
                let mem = Utilization {
                    num: total.memory_mb - free.memory_mb,
                    den: total.memory_mb,
                };
                cpu.max(mem)
            }
            _ => {
                let total = self.slots.len() as u64;
                let used = self
                    .slots
                    .iter()
                    .enumerate()
                    .filter(|(i, s)| s.is_some() || self.is_other_job_slot(*i))
                    .count() as u64;
                Utilization {
                    num: (used + in_use).min(total),
                    den: total,
                }
            }
        }
    }

    /// Drop every slot of the job (dynamic positions beyond the configured count go).
    pub fn release_all(&mut self) {
        for s in &mut self.slots {
            *s = None;
        }
        let keep = (self.configured_slots as usize).max(self.other_job_slots() as usize);
        self.slots.truncate(keep);
        self.slot_profiles.truncate(keep);
        for p in &mut self.slot_profiles {
            *p = None;
        }
    }

    /// Is it running?
    pub fn is_running(&self) -> bool {
        self.state == TmState::Running
    }
}

/// All TaskManagers, in registration order (the order lbscope uses wherever Flink
/// iterates TaskManagers in hash order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cluster {
    /// TaskManagers.
    pub tms: Vec<TaskManager>,
    /// Number used for the next default name.
    pub next_id: u64,
}

impl Cluster {
    /// Index of a TaskManager by name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.tms.iter().position(|t| t.name == name)
    }

    /// Add a TaskManager; returns its index.
    pub fn add(&mut self, name: Option<String>, slots: u32) -> usize {
        let name = name.unwrap_or_else(|| self.fresh_name());
        self.next_id += 1;
        self.tms.push(TaskManager {
            name,
            state: TmState::Running,
            slots: vec![None; slots as usize],
            resources: None,
            configured_slots: slots,
            slot_profiles: vec![None; slots as usize],
            other_job: None,
        });
        self.tms.len() - 1
    }

    /// The next unused default name.
    pub fn fresh_name(&self) -> String {
        let mut k = self.next_id;
        loop {
            let n = format!("tm-{k}");
            if self.find(&n).is_none() {
                return n;
            }
            k += 1;
        }
    }

    /// Slots on running TaskManagers the job can get (another job's slots excluded).
    pub fn running_slots(&self) -> u64 {
        self.tms
            .iter()
            .filter(|t| t.is_running())
            .map(|t| u64::from(t.slot_count().saturating_sub(t.other_job_slots())))
            .sum()
    }

    /// Empty every slot of the job.
    pub fn clear_slots(&mut self) {
        for t in &mut self.tms {
            t.release_all();
        }
    }
}
