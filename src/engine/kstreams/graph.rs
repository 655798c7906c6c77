//! Kafka Streams' `Graph`: the flow network its rack-aware optimizer solves for
//! `rack.aware.assignment.strategy` (`min_traffic` and `balance_subtopology`),
//! solved the way Kafka solves it, so that among assignments of equal cost
//! lbscope lands on the one Kafka lands on.
//!
//! Kafka first has *a* flow that carries every task (`min_traffic`: the current
//! assignment, set on the edges as they are added; `balance_subtopology`:
//! `calculateMaxFlow`, augmenting paths found breadth-first, Ford–Fulkerson), then lowers its cost
//! by cancelling negative cycles of the residual network (`solveMinCostFlow`:
//! Bellman–Ford from a dummy node joined to every node, repeated until no
//! negative cycle is left). Both walk nodes in ascending id order and each
//! node's edges in ascending destination order, so the result is fixed by the
//! network alone. Which optimum comes out depends on that walk: it is usually
//! not the one that moves the fewest tasks.
//!
//! Finding a cycle costs up to nodes × edges arc checks (Bellman–Ford), so the
//! optimizer uses this network only up to [`MAX_WORK`] checks per search and
//! [`MAX_TOTAL_WORK`] in all, and the condensed min-cost flow of
//! [`super::rack_aware`] beyond (the same minimum cost; among equal-cost optima,
//! the one that moves the fewest tasks).

use std::collections::BTreeMap;

/// Most nodes × edges of a network solved here (one Bellman–Ford pass); larger
/// ones go to the condensed solver.
pub const MAX_WORK: u64 = 4_000_000;

/// Most arc checks of all the cycle searches of one solve.
pub const MAX_TOTAL_WORK: u64 = 50_000_000;

#[derive(Clone, Copy, Debug)]
struct Edge {
    capacity: i64,
    cost: i64,
    flow: i64,
}

/// One edge of the residual network.
#[derive(Clone, Copy, Debug)]
struct Arc {
    from: usize,
    to: usize,
    cost: i64,
    residual: i64,
    flow: i64,
    counter: usize,
    forward: bool,
}

/// A flow network with integer node ids (Kafka's `Graph<Integer>`).
#[derive(Clone, Debug, Default)]
pub struct Graph {
    edges: BTreeMap<(i64, i64), Edge>,
    source: i64,
    sink: i64,
}

/// The residual network: nodes by dense index in id order (index 0 is the dummy
/// node when there is one), arcs of each node in destination order.
struct Residual {
    arcs: Vec<Arc>,
    adj: Vec<Vec<usize>>,
    /// Dense index of each original node id.
    index: BTreeMap<i64, usize>,
}

impl Graph {
    /// An empty network.
    pub fn new() -> Self {
        Graph::default()
    }

    /// Add an edge `u → v` with no flow.
    pub fn add_edge(&mut self, u: i64, v: i64, capacity: i64, cost: i64) {
        self.add_edge_with_flow(u, v, capacity, cost, 0);
    }

    /// Add an edge `u → v` already carrying `flow` (Kafka's five-argument
    /// `addEdge`, with which `min_traffic` starts from the current assignment).
    pub fn add_edge_with_flow(&mut self, u: i64, v: i64, capacity: i64, cost: i64, flow: i64) {
        self.edges.insert((u, v), Edge { capacity, cost, flow });
    }

    /// Set the source and the sink.
    pub fn set_ends(&mut self, source: i64, sink: i64) {
        self.source = source;
        self.sink = sink;
    }

    /// The flow on `u → v` (0 when there is no such edge).
    pub fn flow(&self, u: i64, v: i64) -> i64 {
        self.edges.get(&(u, v)).map_or(0, |e| e.flow)
    }

    /// The edges leaving `u` that carry flow, by destination.
    pub fn flows_from(&self, u: i64) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.edges
            .range((u, i64::MIN)..=(u, i64::MAX))
            .filter(|(_, e)| e.flow > 0)
            .map(|(&(_, v), e)| (v, e.flow))
    }

    /// Σ cost × flow over every edge (Kafka's `totalCost`).
    pub fn total_cost(&self) -> i64 {
        self.edges.values().map(|e| e.cost * e.flow).sum()
    }

    /// Nodes × edges: the work of one Bellman–Ford pass over the residual network.
    pub fn work(&self) -> u64 {
        let mut nodes: Vec<i64> = self.edges.keys().flat_map(|&(u, v)| [u, v]).collect();
        nodes.sort_unstable();
        nodes.dedup();
        (nodes.len() as u64 + 1) * (2 * self.edges.len() as u64 + nodes.len() as u64)
    }

    fn residual(&self, dummy: bool) -> Residual {
        let mut ids: Vec<i64> = self.edges.keys().flat_map(|&(u, v)| [u, v]).collect();
        ids.sort_unstable();
        ids.dedup();
        let off = usize::from(dummy);
        let index: BTreeMap<i64, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i + off)).collect();
        let n = ids.len() + off;
        let mut arcs = Vec::with_capacity(2 * self.edges.len() + n);
        let mut adj = vec![Vec::new(); n];
        for (&(u, v), e) in &self.edges {
            let (ui, vi) = (index[&u], index[&v]);
            let f = arcs.len();
            arcs.push(Arc {
                from: ui,
                to: vi,
                cost: e.cost,
                residual: e.capacity - e.flow,
                flow: e.flow,
                counter: f + 1,
                forward: true,
            });
            arcs.push(Arc {
                from: vi,
                to: ui,
                cost: -e.cost,
                residual: e.flow,
                flow: 0,
                counter: f,
                forward: false,
            });
            adj[ui].push(f);
            adj[vi].push(f + 1);
        }
        if dummy {
            // Joined to every node with one unit at no cost; nothing leads back to
            // it, so every negative cycle found lies among the real nodes.
            for i in 1..n {
                let a = arcs.len();
                arcs.push(Arc {
                    from: 0,
                    to: i,
                    cost: 0,
                    residual: 1,
                    flow: 0,
                    counter: a,
                    forward: true,
                });
                adj[0].push(a);
            }
        }
        for list in &mut adj {
            list.sort_unstable_by_key(|&a| arcs[a].to);
        }
        Residual { arcs, adj, index }
    }

    /// The flows of the forward arcs back on the edges (edge `k`'s forward arc is arc `2k`).
    fn copy_back(&mut self, r: &Residual) {
        for (k, e) in self.edges.values_mut().enumerate() {
            e.flow = r.arcs[2 * k].flow;
        }
    }

    /// A maximum flow by breadth-first augmenting paths (Kafka's
    /// `calculateMaxFlow`); the flow is kept on the edges. Returns its value.
    pub fn calculate_max_flow(&mut self) -> i64 {
        let mut r = self.residual(false);
        let (Some(&s), Some(&t)) = (r.index.get(&self.source), r.index.get(&self.sink)) else {
            return 0;
        };
        let n = r.adj.len();
        loop {
            // Breadth-first search for a path with residual capacity.
            let mut parent: Vec<Option<usize>> = vec![None; n];
            let mut visited = vec![false; n];
            let mut queue = std::collections::VecDeque::from([s]);
            visited[s] = true;
            let mut found = false;
            'search: while let Some(u) = queue.pop_front() {
                for &a in &r.adj[u] {
                    let v = r.arcs[a].to;
                    if visited[v] || r.arcs[a].residual <= 0 {
                        continue;
                    }
                    parent[v] = Some(a);
                    if v == t {
                        found = true;
                        break 'search;
                    }
                    queue.push_back(v);
                    visited[v] = true;
                }
            }
            if !found {
                break;
            }
            let mut path = Vec::new();
            let mut v = t;
            while v != s {
                let a = parent[v].expect("on the path");
                path.push(a);
                v = r.arcs[a].from;
            }
            let push = path.iter().map(|&a| r.arcs[a].residual).min().unwrap_or(0);
            for &a in &path {
                push_along(&mut r.arcs, a, push);
            }
        }
        self.copy_back(&r);
        self.flows_from(self.source).map(|(_, f)| f).sum()
    }

    /// Lower the cost of the present flow by cancelling negative cycles (Kafka's
    /// `solveMinCostFlow`); the flow's value does not change. `false` (and the
    /// flow left as it was): the searches passed [`MAX_TOTAL_WORK`] arc checks.
    pub fn solve_min_cost_flow(&mut self) -> bool {
        let mut r = self.residual(true);
        let mut budget = MAX_TOTAL_WORK;
        loop {
            let (found, checks) = negative_cycle(&r);
            budget = budget.saturating_sub(checks);
            if budget == 0 {
                return false;
            }
            let Some(cycle) = found else { break };
            let push = cycle.iter().map(|&a| r.arcs[a].residual).min().unwrap_or(0);
            for &a in &cycle {
                push_along(&mut r.arcs, a, push);
            }
        }
        self.copy_back(&r);
        true
    }
}

/// Push `amount` along arc `a`, as Kafka updates an arc and its counter arc.
fn push_along(arcs: &mut [Arc], a: usize, amount: i64) {
    let c = arcs[a].counter;
    arcs[a].residual -= amount;
    if arcs[a].forward {
        arcs[a].flow += amount;
    }
    arcs[c].residual += amount;
    if arcs[c].forward && arcs[c].flow >= amount {
        arcs[c].flow -= amount;
    }
}

/// Bellman–Ford from the dummy node (index 0), relaxing arcs in node order and
/// destination order, distances updated in place; a relaxation in the last of
/// `nodes` passes marks a node that leads back into a negative cycle. Returns
/// the cycle's arcs (Kafka's `detectNegativeCycles`, then its walk back), and
/// the arc checks it took. A pass that relaxes nothing ends the search early:
/// no later pass would relax anything either, so the answer is Kafka's.
fn negative_cycle(r: &Residual) -> (Option<Vec<usize>>, u64) {
    let mut checks = 0u64;
    let cycle = find_cycle(r, &mut checks);
    (cycle, checks)
}

fn find_cycle(r: &Residual, checks: &mut u64) -> Option<Vec<usize>> {
    let n = r.adj.len();
    let mut dist: Vec<Option<i64>> = vec![None; n];
    let mut parent_arc: Vec<Option<usize>> = vec![None; n];
    dist[0] = Some(0);
    let mut hit = None;
    'passes: for pass in 0..n {
        let mut relaxed = false;
        for (u, list) in r.adj.iter().enumerate() {
            *checks += list.len() as u64;
            for &a in list {
                let arc = &r.arcs[a];
                if arc.residual == 0 {
                    continue;
                }
                let Some(du) = dist[u] else { continue };
                let v = arc.to;
                if dist[v].is_none_or(|dv| dv > du + arc.cost) {
                    dist[v] = Some(du + arc.cost);
                    parent_arc[v] = Some(a);
                    relaxed = true;
                    if pass == n - 1 {
                        hit = Some(v);
                        break 'passes;
                    }
                }
            }
        }
        if !relaxed {
            break;
        }
    }
    let from = |v: usize| -> Option<usize> { parent_arc[v].map(|a| r.arcs[a].from) };
    // Walk back until a node repeats: that node is on the cycle.
    let mut seen = vec![false; n];
    let mut v = hit?;
    while !seen[v] {
        seen[v] = true;
        v = from(v)?;
    }
    if v == 0 {
        return None;
    }
    let start = v;
    let mut cycle = vec![parent_arc[start]?];
    let mut cur = from(start)?;
    while cur != start {
        cycle.push(parent_arc[cur]?);
        cur = from(cur)?;
    }
    Some(cycle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kafka's `GraphTest.testBasic`-shaped network: a max flow, then the
    /// cheapest among max flows (the minimum cost checked by hand).
    #[test]
    fn max_flow_then_cycle_cancelling_reaches_the_minimum_cost() {
        // source 0, two tasks 1 and 2, two clients 3 and 4 (one slot each), sink 5.
        let mut g = Graph::new();
        g.add_edge(0, 1, 1, 0);
        g.add_edge(0, 2, 1, 0);
        g.add_edge(1, 3, 1, 5);
        g.add_edge(1, 4, 1, 1);
        g.add_edge(2, 3, 1, 1);
        g.add_edge(2, 4, 1, 7);
        g.add_edge(3, 5, 1, 0);
        g.add_edge(4, 5, 1, 0);
        g.set_ends(0, 5);
        assert_eq!(g.calculate_max_flow(), 2);
        // Breadth-first, destination order: task 1 → client 3 and task 2 → client 4 (cost 12).
        assert_eq!((g.flow(1, 3), g.flow(2, 4)), (1, 1));
        assert_eq!(g.total_cost(), 12);
        assert!(g.solve_min_cost_flow());
        assert_eq!((g.flow(1, 4), g.flow(2, 3)), (1, 1));
        assert_eq!(g.total_cost(), 2);
    }
}
