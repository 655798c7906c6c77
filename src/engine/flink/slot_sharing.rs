//! Phase 1, tasks to slots: grouping subtasks into *execution slot sharing groups*
//! (one group = one slot request), per slot sharing group, respecting co-location.
//!
//! Two strategies, chosen by the effective `taskmanager.load-balance.mode`:
//! * [`super::local_input_preferred`] (modes `none` and `slots`), Flink's
//!   `LocalInputPreferredSlotSharingStrategy`;
//! * [`super::task_balanced`] (mode `tasks`), Flink's
//!   `TaskBalancedPreferredSlotSharingStrategy`.

use super::job_graph::JobGraph;
use serde::{Deserialize, Serialize};

/// Which phase-1 strategy produced a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotSharingStrategy {
    /// Consumers join a slot of one of their producers (Flink's default).
    LocalInputPreferred,
    /// Highest-parallelism vertices by index, the others round-robin.
    TaskBalanced,
    /// Adaptive scheduler: group i holds subtask i of each vertex.
    DefaultResolver,
    /// Adaptive scheduler: the balanced builder on the determined parallelism.
    TaskBalancedResolver,
}

impl SlotSharingStrategy {
    /// Flink's class name, for narration.
    pub fn flink_name(self) -> &'static str {
        match self {
            SlotSharingStrategy::LocalInputPreferred => "LocalInputPreferredSlotSharingStrategy",
            SlotSharingStrategy::TaskBalanced => "TaskBalancedPreferredSlotSharingStrategy",
            SlotSharingStrategy::DefaultResolver => "DefaultSlotSharingResolver",
            SlotSharingStrategy::TaskBalancedResolver => "TaskBalancedSlotSharingResolver",
        }
    }
}

/// One subtask: vertex index (into [`JobGraph::vertices`]) and subtask index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SubtaskId {
    /// Vertex index.
    pub vertex: u32,
    /// Subtask index within the vertex.
    pub subtask: u32,
}

/// An execution slot sharing group: the subtasks that will share one slot.
/// Its index in [`SlotSharingPlan::requests`] is its slot request id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotRequest {
    /// Index of the slot sharing group (into [`JobGraph::slot_sharing_groups`]).
    pub group: usize,
    /// Subtasks in the order they were added.
    pub subtasks: Vec<SubtaskId>,
}

impl SlotRequest {
    /// Number of tasks in the request (its "loading" in Flink's terms).
    pub fn tasks(&self) -> u32 {
        self.subtasks.len() as u32
    }
}

/// Why a subtask went into its slot request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum AssignReason {
    /// Joined the slot of its co-location constraint.
    CoLocated {
        /// Constraint index (= subtask index).
        constraint: u32,
    },
    /// Joined the slot of a producer subtask (local input preferred).
    ProducerSlot {
        /// Producer vertex name.
        producer: String,
        /// Producer subtask index.
        producer_subtask: u32,
    },
    /// No producer slot was free for it: the first existing slot without this vertex.
    FirstAvailable,
    /// No existing slot could take it: a new slot request was created.
    NewSlot,
    /// Task-balanced: a highest-parallelism vertex, subtask i goes to slot i.
    SameIndex,
    /// Task-balanced: round-robin position (continuing where the previous vertex stopped).
    RoundRobin {
        /// Slot index where this vertex's round-robin began.
        started_at: u32,
    },
    /// Task-balanced co-location: the least-utilised slot not holding this vertex.
    LeastUtilized {
        /// Tasks in that slot before this one.
        tasks_before: u32,
    },
}

impl AssignReason {
    /// The rule's name, as in its JSON tag.
    pub fn rule_name(&self) -> &'static str {
        match self {
            AssignReason::CoLocated { .. } => "co_located",
            AssignReason::ProducerSlot { .. } => "producer_slot",
            AssignReason::FirstAvailable => "first_available",
            AssignReason::NewSlot => "new_slot",
            AssignReason::SameIndex => "same_index",
            AssignReason::RoundRobin { .. } => "round_robin",
            AssignReason::LeastUtilized { .. } => "least_utilized",
        }
    }
}

/// One subtask's assignment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignment {
    /// Subtask index.
    pub subtask: u32,
    /// Slot request id it joined.
    pub request: u32,
    /// Why.
    pub reason: AssignReason,
}

/// The result of phase 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotSharingPlan {
    /// Strategy used.
    pub strategy: SlotSharingStrategy,
    /// Slot requests in creation order. They are not issued in this order: Flink sends
    /// each pipelined region's requests in hash order, which lbscope draws from the seed
    /// ([`super::pipelined_region`]).
    pub requests: Vec<SlotRequest>,
    /// For each vertex (definition order), the request id of each subtask.
    pub request_of: Vec<Vec<u32>>,
    /// For each vertex, in topological order: (vertex index, assignments).
    pub steps: Vec<(usize, Vec<Assignment>)>,
}

impl SlotSharingPlan {
    /// Tasks per slot request, in creation order (by request id).
    pub fn tasks_per_request(&self) -> Vec<u32> {
        self.requests.iter().map(SlotRequest::tasks).collect()
    }
}

/// Run the chosen strategy.
pub fn plan(job: &JobGraph, strategy: SlotSharingStrategy) -> SlotSharingPlan {
    match strategy {
        SlotSharingStrategy::LocalInputPreferred | SlotSharingStrategy::DefaultResolver => {
            super::local_input_preferred::build(job)
        }
        SlotSharingStrategy::TaskBalanced | SlotSharingStrategy::TaskBalancedResolver => {
            let par: Vec<u32> = job.vertices.iter().map(|v| v.parallelism).collect();
            super::task_balanced::build(job, &par)
        }
    }
}

/// Shared bookkeeping for both builders.
pub(crate) struct Builder<'a> {
    pub job: &'a JobGraph,
    pub requests: Vec<SlotRequest>,
    pub request_of: Vec<Vec<u32>>,
    /// `stamp[r] == v + 1` when request r already holds a subtask of vertex v
    /// (vertices are processed one at a time, so one stamp per request suffices).
    pub stamp: Vec<usize>,
    /// Co-location constraint -> request, per co-location group, indexed by subtask.
    pub constraint: Vec<Vec<Option<u32>>>,
}

impl<'a> Builder<'a> {
    /// A builder for `job` with each vertex at `parallelism[v]`.
    pub fn new(job: &'a JobGraph, parallelism: &[u32]) -> Self {
        let request_of = parallelism.iter().map(|&p| vec![u32::MAX; p as usize]).collect();
        // One constraint per subtask index of the widest member of each co-location group.
        let mut colo_width = vec![0usize; job.co_location_groups.len()];
        for (v, &p) in job.vertices.iter().zip(parallelism) {
            if let Some(c) = v.co_location_group {
                colo_width[c] = colo_width[c].max(p as usize);
            }
        }
        Builder {
            job,
            requests: Vec::new(),
            request_of,
            stamp: Vec::new(),
            constraint: colo_width.into_iter().map(|w| vec![None; w]).collect(),
        }
    }

    pub fn new_request(&mut self, group: usize) -> u32 {
        self.requests.push(SlotRequest {
            group,
            subtasks: Vec::new(),
        });
        self.stamp.push(0);
        (self.requests.len() - 1) as u32
    }

    pub fn holds_vertex(&self, request: u32, vertex: usize) -> bool {
        self.stamp[request as usize] == vertex + 1
    }

    pub fn add(&mut self, request: u32, vertex: usize, subtask: u32) {
        let r = request as usize;
        self.requests[r].subtasks.push(SubtaskId {
            vertex: vertex as u32,
            subtask,
        });
        self.stamp[r] = vertex + 1;
        self.request_of[vertex][subtask as usize] = request;
    }

    /// The request of co-location constraint `subtask` of `vertex`'s group, if one exists
    /// and does not already hold this vertex.
    pub fn colocated(&self, vertex: usize, subtask: u32) -> Option<u32> {
        let c = self.job.vertices[vertex].co_location_group?;
        let r = (*self.constraint.get(c)?.get(subtask as usize)?)?;
        (!self.holds_vertex(r, vertex)).then_some(r)
    }

    /// Record the constraints of a finished vertex.
    pub fn record_constraints(&mut self, vertex: usize) {
        if let Some(c) = self.job.vertices[vertex].co_location_group {
            for (i, &r) in self.request_of[vertex].iter().enumerate() {
                if let Some(slot) = self.constraint[c].get_mut(i) {
                    slot.get_or_insert(r);
                }
            }
        }
    }

    pub fn finish(
        self,
        strategy: SlotSharingStrategy,
        steps: Vec<(usize, Vec<Assignment>)>,
    ) -> SlotSharingPlan {
        SlotSharingPlan {
            strategy,
            requests: self.requests,
            request_of: self.request_of,
            steps,
        }
    }
}
