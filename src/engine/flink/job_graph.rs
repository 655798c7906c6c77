//! The job graph: job vertices with a parallelism, edges with a distribution
//! pattern, slot sharing groups and co-location groups.
//!
//! [`JobSpec`] is what a user writes (names, serde-friendly); [`JobGraph`] is the
//! validated, index-based form the schedulers work on.

use super::resource_profile::{ResourceProfile, Resources};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Highest parallelism of one vertex (Flink's upper bound for max parallelism, 2^15).
pub const MAX_PARALLELISM: u32 = 1 << 15;
/// Most subtasks (summed over all vertices) one job may have in lbscope.
pub const MAX_SUBTASKS: u64 = 1 << 20;
/// Most vertices one job may have in lbscope.
pub const MAX_VERTICES: usize = 4096;
/// Name of the slot sharing group a vertex joins when it names none (Flink's `"default"`).
pub const DEFAULT_SLOT_SHARING_GROUP: &str = "default";

/// How the subtasks of a producer are wired to the subtasks of a consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistributionPattern {
    /// `forward`: subtask i feeds subtask i; both sides must have the same parallelism.
    Forward,
    /// `rescale` (Flink's POINTWISE): each consumer reads a contiguous range of producers.
    #[serde(alias = "pointwise")]
    Rescale,
    /// `hash` / `rebalance` (Flink's ALL_TO_ALL): every consumer reads every producer.
    #[serde(alias = "all_to_all", alias = "rebalance")]
    Hash,
}

impl DistributionPattern {
    /// Short name used in narration.
    pub fn name(self) -> &'static str {
        match self {
            DistributionPattern::Forward => "forward",
            DistributionPattern::Rescale => "rescale",
            DistributionPattern::Hash => "hash",
        }
    }
}

/// A job vertex as the user writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexSpec {
    /// Unique name, e.g. `"JV-A"`.
    pub name: String,
    /// Number of parallel subtasks (>= 1).
    pub parallelism: u32,
    /// Slot sharing group name; [`DEFAULT_SLOT_SHARING_GROUP`] when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot_sharing_group: Option<String>,
    /// Co-location group name (subtask i of every member shares one slot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub co_location_group: Option<String>,
}

impl VertexSpec {
    /// A vertex in the default slot sharing group without co-location.
    pub fn new(name: &str, parallelism: u32) -> Self {
        VertexSpec {
            name: name.to_string(),
            parallelism,
            slot_sharing_group: None,
            co_location_group: None,
        }
    }
}

/// An edge as the user writes it (producer → consumer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeSpec {
    /// Producer vertex name.
    pub from: String,
    /// Consumer vertex name.
    pub to: String,
    /// Distribution pattern.
    pub pattern: DistributionPattern,
}

impl EdgeSpec {
    /// Convenience constructor.
    pub fn new(from: &str, to: &str, pattern: DistributionPattern) -> Self {
        EdgeSpec {
            from: from.to_string(),
            to: to.to_string(),
            pattern,
        }
    }
}

/// A whole job as the user writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    /// Vertices, in definition order (Flink's job graph insertion order).
    #[serde(default)]
    pub vertices: Vec<VertexSpec>,
    /// Edges, in definition order (this is the order of a consumer's inputs). Two edges
    /// may join the same pair of vertices, as in a Flink `JobGraph`
    /// (`JobVertex.connectNewDataSetAsInput` adds one input per call).
    #[serde(default)]
    pub edges: Vec<EdgeSpec>,
}

/// Why a job graph was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobGraphError {
    /// No vertices at all.
    #[error("the job has no vertices")]
    Empty,
    /// Too many vertices.
    #[error("the job has {got} vertices; lbscope allows at most {max}")]
    TooManyVertices {
        /// Given.
        got: usize,
        /// Allowed.
        max: usize,
    },
    /// A vertex name is empty.
    #[error("a vertex has an empty name")]
    EmptyName,
    /// Two vertices share a name.
    #[error("vertex {0:?} is defined twice")]
    DuplicateVertex(String),
    /// Parallelism 0.
    #[error("vertex {0:?} has parallelism 0; every vertex needs at least 1 subtask")]
    ZeroParallelism(String),
    /// Parallelism above Flink's bound.
    #[error("vertex {vertex:?} has parallelism {got}; the maximum is {max}")]
    ParallelismTooHigh {
        /// Vertex.
        vertex: String,
        /// Given.
        got: u32,
        /// Allowed.
        max: u32,
    },
    /// Too many subtasks in total.
    #[error("the job has {got} subtasks in total; lbscope allows at most {max}")]
    TooManySubtasks {
        /// Given.
        got: u64,
        /// Allowed.
        max: u64,
    },
    /// An edge names a vertex that does not exist.
    #[error("edge {from:?} -> {to:?} refers to unknown vertex {unknown:?}")]
    UnknownVertex {
        /// Edge producer.
        from: String,
        /// Edge consumer.
        to: String,
        /// The missing name.
        unknown: String,
    },
    /// The graph has a cycle (a self-loop counts).
    #[error("the job graph has a cycle through {0:?}")]
    Cycle(Vec<String>),
    /// A forward edge between vertices of different parallelism.
    #[error(
        "forward edge {from:?} ({from_parallelism}) -> {to:?} ({to_parallelism}) needs equal parallelism; \
         use rescale or hash instead"
    )]
    ForwardParallelismMismatch {
        /// Producer.
        from: String,
        /// Its parallelism.
        from_parallelism: u32,
        /// Consumer.
        to: String,
        /// Its parallelism.
        to_parallelism: u32,
    },
    /// Members of one co-location group sit in different slot sharing groups.
    #[error(
        "co-location group {group:?} spans slot sharing groups {first:?} and {second:?}; \
         co-located vertices must share one slot sharing group"
    )]
    CoLocationAcrossSlotSharingGroups {
        /// Co-location group.
        group: String,
        /// One slot sharing group.
        first: String,
        /// Another.
        second: String,
    },
}

/// A validated job vertex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobVertex {
    /// Name.
    pub name: String,
    /// Parallelism (>= 1).
    pub parallelism: u32,
    /// Index into [`JobGraph::slot_sharing_groups`].
    pub slot_sharing_group: usize,
    /// Index into [`JobGraph::co_location_groups`].
    pub co_location_group: Option<usize>,
    /// Indices of edges consuming into this vertex, in definition order.
    pub inputs: Vec<usize>,
    /// Indices of edges produced by this vertex, in definition order.
    pub outputs: Vec<usize>,
}

/// A validated edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobEdge {
    /// Producer vertex index.
    pub from: usize,
    /// Consumer vertex index.
    pub to: usize,
    /// Pattern.
    pub pattern: DistributionPattern,
}

/// A validated, index-based job graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobGraph {
    /// The spec it was built from.
    pub spec: JobSpec,
    /// Vertices in definition order.
    pub vertices: Vec<JobVertex>,
    /// Edges in definition order.
    pub edges: Vec<JobEdge>,
    /// Vertex indices in Flink's topological order (see [`JobGraph::build`]).
    pub topological_order: Vec<usize>,
    /// Slot sharing group names, in order of first appearance in definition order.
    pub slot_sharing_groups: Vec<String>,
    /// Co-location group names, in order of first appearance in definition order.
    pub co_location_groups: Vec<String>,
    /// Resources of each slot sharing group (fine-grained resource management);
    /// `None` is Flink's `UNKNOWN`.
    pub slot_sharing_group_resources: Vec<Option<Resources>>,
    /// Each vertex's parallelism bounds for the adaptive scheduler (Flink's
    /// `JobResourceRequirements`): `(lower, upper)`; `None` means `(1, parallelism)`.
    pub resource_requirements: Vec<Option<(u32, u32)>>,
}

impl JobGraph {
    /// Validate a spec.
    ///
    /// The topological order follows Flink's `JobGraph#getVerticesSortedTopologicallyFromSources`:
    /// first every source (no inputs) in definition order, then, walking the sorted list from the
    /// front, each vertex's consumers (in edge order) are appended as soon as all their producers
    /// are sorted, recursing depth-first into a newly added vertex.
    pub fn build(spec: &JobSpec) -> Result<JobGraph, JobGraphError> {
        if spec.vertices.is_empty() {
            return Err(JobGraphError::Empty);
        }
        if spec.vertices.len() > MAX_VERTICES {
            return Err(JobGraphError::TooManyVertices {
                got: spec.vertices.len(),
                max: MAX_VERTICES,
            });
        }
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        let mut ssg_names: Vec<String> = Vec::new();
        let mut colo_names: Vec<String> = Vec::new();
        let mut vertices = Vec::with_capacity(spec.vertices.len());
        let mut total: u64 = 0;
        for (i, v) in spec.vertices.iter().enumerate() {
            if v.name.is_empty() {
                return Err(JobGraphError::EmptyName);
            }
            if by_name.insert(v.name.as_str(), i).is_some() {
                return Err(JobGraphError::DuplicateVertex(v.name.clone()));
            }
            if v.parallelism == 0 {
                return Err(JobGraphError::ZeroParallelism(v.name.clone()));
            }
            if v.parallelism > MAX_PARALLELISM {
                return Err(JobGraphError::ParallelismTooHigh {
                    vertex: v.name.clone(),
                    got: v.parallelism,
                    max: MAX_PARALLELISM,
                });
            }
            total += u64::from(v.parallelism);
            let ssg = v
                .slot_sharing_group
                .clone()
                .unwrap_or_else(|| DEFAULT_SLOT_SHARING_GROUP.to_string());
            let ssg_idx = index_of_or_push(&mut ssg_names, ssg);
            let colo = v
                .co_location_group
                .clone()
                .map(|c| index_of_or_push(&mut colo_names, c));
            vertices.push(JobVertex {
                name: v.name.clone(),
                parallelism: v.parallelism,
                slot_sharing_group: ssg_idx,
                co_location_group: colo,
                inputs: Vec::new(),
                outputs: Vec::new(),
            });
        }
        if total > MAX_SUBTASKS {
            return Err(JobGraphError::TooManySubtasks {
                got: total,
                max: MAX_SUBTASKS,
            });
        }
        // Co-located vertices must share a slot sharing group.
        let mut colo_ssg: Vec<Option<usize>> = vec![None; colo_names.len()];
        for v in &vertices {
            if let Some(c) = v.co_location_group {
                match colo_ssg[c] {
                    None => colo_ssg[c] = Some(v.slot_sharing_group),
                    Some(s) if s != v.slot_sharing_group => {
                        return Err(JobGraphError::CoLocationAcrossSlotSharingGroups {
                            group: colo_names[c].clone(),
                            first: ssg_names[s].clone(),
                            second: ssg_names[v.slot_sharing_group].clone(),
                        })
                    }
                    Some(_) => {}
                }
            }
        }
        let mut edges = Vec::with_capacity(spec.edges.len());
        for (ei, e) in spec.edges.iter().enumerate() {
            let lookup = |n: &str| {
                by_name
                    .get(n)
                    .copied()
                    .ok_or_else(|| JobGraphError::UnknownVertex {
                        from: e.from.clone(),
                        to: e.to.clone(),
                        unknown: n.to_string(),
                    })
            };
            let from = lookup(&e.from)?;
            let to = lookup(&e.to)?;
            if from == to {
                return Err(JobGraphError::Cycle(vec![e.from.clone()]));
            }
            if e.pattern == DistributionPattern::Forward
                && vertices[from].parallelism != vertices[to].parallelism
            {
                return Err(JobGraphError::ForwardParallelismMismatch {
                    from: e.from.clone(),
                    from_parallelism: vertices[from].parallelism,
                    to: e.to.clone(),
                    to_parallelism: vertices[to].parallelism,
                });
            }
            vertices[from].outputs.push(ei);
            vertices[to].inputs.push(ei);
            edges.push(JobEdge {
                from,
                to,
                pattern: e.pattern,
            });
        }
        let topological_order = topological_order(&vertices, &edges)?;
        let n = vertices.len();
        Ok(JobGraph {
            spec: spec.clone(),
            vertices,
            edges,
            topological_order,
            slot_sharing_group_resources: vec![None; ssg_names.len()],
            slot_sharing_groups: ssg_names,
            co_location_groups: colo_names,
            resource_requirements: vec![None; n],
        })
    }

    /// The resource profile of slot requests of slot sharing group `g`.
    pub fn group_profile(&self, g: usize) -> ResourceProfile {
        self.slot_sharing_group_resources
            .get(g)
            .copied()
            .flatten()
            .map_or(ResourceProfile::Unknown, ResourceProfile::of)
    }

    /// Vertex `v`'s `(lower, upper)` parallelism bounds.
    pub fn bounds(&self, v: usize) -> (u32, u32) {
        self.resource_requirements
            .get(v)
            .copied()
            .flatten()
            .unwrap_or((1, self.vertices[v].parallelism))
    }

    /// Index of a vertex by name.
    pub fn vertex_index(&self, name: &str) -> Option<usize> {
        self.vertices.iter().position(|v| v.name == name)
    }

    /// Total number of subtasks.
    pub fn subtask_count(&self) -> u64 {
        self.vertices.iter().map(|v| u64::from(v.parallelism)).sum()
    }
}

fn index_of_or_push(names: &mut Vec<String>, name: String) -> usize {
    match names.iter().position(|n| *n == name) {
        Some(i) => i,
        None => {
            names.push(name);
            names.len() - 1
        }
    }
}

/// Flink's source-first topological sort; errors with the remaining vertices on a cycle.
fn topological_order(vertices: &[JobVertex], edges: &[JobEdge]) -> Result<Vec<usize>, JobGraphError> {
    let n = vertices.len();
    let mut sorted: Vec<usize> = Vec::with_capacity(n);
    let mut remaining = vec![true; n];
    for (i, v) in vertices.iter().enumerate() {
        if v.inputs.is_empty() {
            sorted.push(i);
            remaining[i] = false;
        }
    }
    let mut left = n - sorted.len();
    let mut pos = 0;
    while left > 0 {
        if pos >= sorted.len() {
            let cyc: Vec<String> = (0..n)
                .filter(|&i| remaining[i])
                .map(|i| vertices[i].name.clone())
                .collect();
            return Err(JobGraphError::Cycle(cyc));
        }
        let current = sorted[pos];
        pos += 1;
        // Depth-first: a stack of (vertex, next output index).
        let mut stack: Vec<(usize, usize)> = vec![(current, 0)];
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            if k >= vertices[v].outputs.len() {
                stack.pop();
                continue;
            }
            top.1 += 1;
            let target = edges[vertices[v].outputs[k]].to;
            if !remaining[target] {
                continue;
            }
            let ready = vertices[target].inputs.iter().all(|&e| !remaining[edges[e].from]);
            if ready {
                sorted.push(target);
                remaining[target] = false;
                left -= 1;
                stack.push((target, 0));
            }
        }
    }
    Ok(sorted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(vs: &[(&str, u32)], es: &[(&str, &str, DistributionPattern)]) -> JobSpec {
        JobSpec {
            vertices: vs.iter().map(|(n, p)| VertexSpec::new(n, *p)).collect(),
            edges: es.iter().map(|(a, b, p)| EdgeSpec::new(a, b, *p)).collect(),
        }
    }

    #[test]
    fn topo_order_sources_first_then_depth_first() {
        use DistributionPattern::Hash;
        // Defined out of order: C consumes A and B.
        let s = spec(
            &[("C", 1), ("A", 1), ("B", 1), ("D", 1)],
            &[("A", "C", Hash), ("B", "C", Hash), ("C", "D", Hash)],
        );
        let g = JobGraph::build(&s).unwrap();
        let names: Vec<&str> = g
            .topological_order
            .iter()
            .map(|&i| g.vertices[i].name.as_str())
            .collect();
        assert_eq!(names, ["A", "B", "C", "D"]);
    }

    #[test]
    fn cycles_and_bad_edges_are_refused() {
        use DistributionPattern::*;
        let s = spec(
            &[("S", 1), ("A", 1), ("B", 1)],
            &[("S", "A", Hash), ("A", "B", Hash), ("B", "A", Hash)],
        );
        assert_eq!(
            JobGraph::build(&s),
            Err(JobGraphError::Cycle(vec!["A".into(), "B".into()]))
        );
        let s = spec(&[("A", 2), ("B", 3)], &[("A", "B", Forward)]);
        assert!(matches!(
            JobGraph::build(&s),
            Err(JobGraphError::ForwardParallelismMismatch { .. })
        ));
        let s = spec(&[("A", 2)], &[("A", "X", Hash)]);
        assert!(matches!(
            JobGraph::build(&s),
            Err(JobGraphError::UnknownVertex { .. })
        ));
        let s = spec(&[("A", 0)], &[]);
        assert_eq!(
            JobGraph::build(&s),
            Err(JobGraphError::ZeroParallelism("A".into()))
        );
    }
}
