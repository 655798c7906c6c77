//! What a broker reports of its machine: each resource's usage and limit
//! (Pulsar's `ResourceUsage`) and the five of them together
//! (`SystemResourceUsage`: CPU, heap, direct memory, NIC in and out).

use serde::{Deserialize, Serialize};

/// One resource's usage and limit (`ResourceUsage`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceUsage {
    /// Amount used.
    pub usage: f64,
    /// Capacity.
    pub limit: f64,
}

impl ResourceUsage {
    /// `usage / limit * 100` computed in f32 as Pulsar does (0 when the limit is not positive).
    pub fn percent_usage(&self) -> f32 {
        let proportion = if self.limit > 0.0 {
            (self.usage as f32) / (self.limit as f32)
        } else {
            0.0
        };
        proportion * 100.0
    }
}

/// The five resources a broker reports (`SystemResourceUsage`).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct SystemResourceUsage {
    /// CPU.
    pub cpu: ResourceUsage,
    /// Heap.
    pub memory: ResourceUsage,
    /// Direct memory.
    pub direct_memory: ResourceUsage,
    /// NIC in.
    pub bandwidth_in: ResourceUsage,
    /// NIC out.
    pub bandwidth_out: ResourceUsage,
}
