//! Pipelined regions, and the order in which slot requests reach the slot pool.
//!
//! Flink's default scheduler deploys a streaming job *pipelined region by pipelined
//! region* (`PipelinedRegionSchedulingStrategy`): a region is a set of subtasks
//! connected by pipelined edges at the execution level (every edge of a streaming job
//! is pipelined), so a hash edge joins all subtasks of both vertices while a forward
//! or rescale edge joins only the subtasks it wires (see [`super::execution_graph`]).
//! The regions are scheduled one after another in topological order
//! (`SchedulingStrategyUtils.sortPipelinedRegionsInTopologicalOrder`: walk the
//! execution vertices vertex by vertex in topological order, subtasks by index, and
//! take each region when first met), each with its own `allocateSlotsAndDeploy` call.
//!
//! Inside one region the order is left to chance:
//! `SlotSharingExecutionSlotAllocator` groups the region's subtasks by execution slot
//! sharing group in a hash map (keyed by identity hash), gives each new group a fresh
//! random `SlotRequestId`, and `PhysicalSlotProviderImpl` re-keys the requests by those
//! ids in a `HashMap` before it asks the slot pool for new slots. The slot pool keeps
//! its pending requests in arrival order, and each TaskManager's offered slots go to the
//! oldest pending requests. So which slots end up together on a TaskManager depends on
//! a hash order that changes from run to run.
//!
//! lbscope draws that order from the scenario's seeded RNG: a uniform permutation of
//! each region's new requests (Fisher–Yates), regions kept in Flink's order. A request
//! whose subtasks span several regions (one slot sharing group across disconnected
//! pipelines) is issued with the first of those regions, as Flink allocates its shared
//! slot when the first of its subtasks is scheduled.

use super::execution_graph::consumed_group;
use super::job_graph::{DistributionPattern, JobGraph};
use super::slot_matching::DETAIL_LIMIT;
use super::slot_sharing::SlotSharingPlan;
use crate::engine::SimRng;

/// The order in which one scheduling round issues its slot requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestOrder {
    /// Request ids in issue order.
    pub order: Vec<u32>,
    /// Number of requests issued with each region, in region order (regions that bring
    /// no new request are left out).
    pub region_sizes: Vec<u32>,
}

impl RequestOrder {
    /// Number of pipelined regions that issue requests.
    pub fn regions(&self) -> u32 {
        self.region_sizes.len() as u32
    }

    /// The order as an event lists it: empty above [`DETAIL_LIMIT`] requests.
    pub fn listed(&self) -> Vec<u32> {
        if self.order.len() > DETAIL_LIMIT {
            Vec::new()
        } else {
            self.order.clone()
        }
    }
}

/// A union-find over subtasks.
struct Dsu(Vec<u32>);

impl Dsu {
    fn find(&mut self, mut x: u32) -> u32 {
        let mut root = x;
        while self.0[root as usize] != root {
            root = self.0[root as usize];
        }
        while self.0[x as usize] != root {
            let next = self.0[x as usize];
            self.0[x as usize] = root;
            x = next;
        }
        root
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Keep the smaller index as root: deterministic, and cheap enough here.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.0[hi as usize] = lo;
        }
    }
}

/// The pipelined region of every subtask of `plan` (indexed like
/// [`SlotSharingPlan::request_of`]), numbered 0, 1, … in Flink's scheduling order.
pub fn regions(job: &JobGraph, plan: &SlotSharingPlan) -> Vec<Vec<u32>> {
    let par: Vec<u32> = plan.request_of.iter().map(|r| r.len() as u32).collect();
    let mut offset = Vec::with_capacity(par.len());
    let mut total = 0u32;
    for &p in &par {
        offset.push(total);
        total += p;
    }
    let mut dsu = Dsu((0..total).collect());
    for e in &job.edges {
        let (p, c) = (par[e.from], par[e.to]);
        if p == 0 || c == 0 {
            continue;
        }
        let (pf, ct) = (offset[e.from], offset[e.to]);
        match e.pattern {
            DistributionPattern::Hash => {
                for j in 0..p {
                    dsu.union(pf, pf + j);
                }
                for i in 0..c {
                    dsu.union(pf, ct + i);
                }
            }
            DistributionPattern::Forward | DistributionPattern::Rescale => {
                for i in 0..c {
                    let g = consumed_group(e, p, c, i);
                    for j in g.start..g.end {
                        dsu.union(ct + i, pf + j);
                    }
                }
            }
        }
    }
    let mut id_of_root = vec![u32::MAX; total as usize];
    let mut next = 0u32;
    let mut out: Vec<Vec<u32>> = par.iter().map(|&p| vec![0; p as usize]).collect();
    for &v in &job.topological_order {
        for i in 0..par[v] {
            let root = dsu.find(offset[v] + i) as usize;
            if id_of_root[root] == u32::MAX {
                id_of_root[root] = next;
                next += 1;
            }
            out[v][i as usize] = id_of_root[root];
        }
    }
    out
}

/// Draw the issue order of `plan`'s requests: regions in Flink's order, each region's
/// new requests in a uniformly random order from `rng`.
pub fn draw(job: &JobGraph, plan: &SlotSharingPlan, rng: &mut SimRng) -> RequestOrder {
    let region = regions(job, plan);
    let n = plan.requests.len();
    // Each request joins the first region (in scheduling order) that holds one of its
    // subtasks; walking subtasks in that same order meets requests region by region.
    let mut seen = vec![false; n];
    let mut tagged: Vec<(u32, u32)> = Vec::with_capacity(n);
    for &v in &job.topological_order {
        for (i, &r) in plan.request_of[v].iter().enumerate() {
            if let Some(s) = seen.get_mut(r as usize).filter(|s| !**s) {
                *s = true;
                tagged.push((region[v][i], r));
            }
        }
    }
    // Stable: within a region, requests keep the order they were met in before the draw.
    tagged.sort_by_key(|&(reg, _)| reg);
    let mut order = Vec::with_capacity(n);
    let mut region_sizes = Vec::new();
    for run in tagged.chunk_by(|a, b| a.0 == b.0) {
        let mut reqs: Vec<u32> = run.iter().map(|&(_, r)| r).collect();
        for k in (1..reqs.len()).rev() {
            let j = rng.below(k + 1);
            reqs.swap(k, j);
        }
        region_sizes.push(reqs.len() as u32);
        order.extend(reqs);
    }
    RequestOrder { order, region_sizes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::flink::job_graph::{EdgeSpec, JobSpec, VertexSpec};
    use crate::engine::flink::slot_sharing::{plan, SlotSharingStrategy};

    fn job(vertices: &[(&str, u32)], edges: &[(&str, &str, DistributionPattern)]) -> JobGraph {
        JobGraph::build(&JobSpec {
            vertices: vertices.iter().map(|&(n, p)| VertexSpec::new(n, p)).collect(),
            edges: edges.iter().map(|&(a, b, p)| EdgeSpec::new(a, b, p)).collect(),
        })
        .unwrap()
    }

    // Expected values from the code (PipelinedRegionComputeUtil joins subtasks over
    // pipelined edges; EdgeManagerBuildUtil wires pointwise edges lane by lane).
    #[test]
    fn pipelined_region_compute_util_hash_is_one_region_forward_is_lanes() {
        let g = job(&[("A", 6), ("B", 3)], &[("A", "B", DistributionPattern::Hash)]);
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        assert_eq!(regions(&g, &p), vec![vec![0; 6], vec![0; 3]]);

        let g = job(&[("A", 3), ("B", 3)], &[("A", "B", DistributionPattern::Forward)]);
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        assert_eq!(regions(&g, &p), vec![vec![0, 1, 2], vec![0, 1, 2]]);

        // Rescale 4 -> 2: consumer i reads producers 2i, 2i+1.
        let g = job(&[("A", 4), ("B", 2)], &[("A", "B", DistributionPattern::Rescale)]);
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        assert_eq!(regions(&g, &p), vec![vec![0, 0, 1, 1], vec![0, 1]]);
    }

    #[test]
    fn lanes_are_issued_in_order_and_a_region_is_a_permutation() {
        let g = job(&[("A", 3), ("B", 3)], &[("A", "B", DistributionPattern::Forward)]);
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        for seed in 0..20 {
            let o = draw(&g, &p, &mut SimRng::new(seed));
            assert_eq!(o.order, vec![0, 1, 2], "one request per lane, lanes in order");
            assert_eq!(o.region_sizes, vec![1, 1, 1]);
        }
        let g = job(&[("A", 6), ("B", 3)], &[("A", "B", DistributionPattern::Hash)]);
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let o = draw(&g, &p, &mut SimRng::new(seed));
            let mut sorted = o.order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..6).collect::<Vec<_>>());
            assert_eq!(o.region_sizes, vec![6]);
            firsts.insert(o.order[0]);
        }
        assert_eq!(firsts.len(), 6, "every request comes first for some seed");
    }

    #[test]
    fn a_request_spanning_two_regions_comes_with_the_first() {
        // Two disconnected pipelines in the default group share slots.
        let g = job(
            &[("A", 2), ("B", 2), ("C", 2), ("D", 2)],
            &[
                ("A", "B", DistributionPattern::Hash),
                ("C", "D", DistributionPattern::Hash),
            ],
        );
        let p = plan(&g, SlotSharingStrategy::LocalInputPreferred);
        let o = draw(&g, &p, &mut SimRng::new(1));
        assert_eq!(
            o.region_sizes,
            vec![2],
            "C and D join the slots A and B asked for"
        );
        assert_eq!(o.order.len(), 2);
    }
}
