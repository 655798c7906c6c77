//! TaskManagers and their slots.

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

/// One TaskManager.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskManager {
    /// Unique name, e.g. `tm-0`.
    pub name: String,
    /// State.
    pub state: TmState,
    /// Occupant of each slot: the slot request id placed there, if any.
    pub slots: Vec<Option<u32>>,
}

impl TaskManager {
    /// Number of slots.
    pub fn slot_count(&self) -> u32 {
        self.slots.len() as u32
    }

    /// Slots with no request in them.
    pub fn free_slots(&self) -> u32 {
        self.slots.iter().filter(|s| s.is_none()).count() as u32
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

    /// Total slots on running TaskManagers.
    pub fn running_slots(&self) -> u64 {
        self.tms
            .iter()
            .filter(|t| t.is_running())
            .map(|t| u64::from(t.slot_count()))
            .sum()
    }

    /// Empty every slot.
    pub fn clear_slots(&mut self) {
        for t in &mut self.tms {
            for s in &mut t.slots {
                *s = None;
            }
        }
    }
}
