//! Kafka's `RackAwareTaskAssignor` (KIP-925): after the balanced assignment, move
//! tasks between clients to cut cross-rack traffic, keeping each client's task
//! count, as a min-cost flow.
//!
//! Cost of task `t` on client `k` = `traffic_cost` × (number of `t`'s partitions
//! with no replica in `k`'s rack) + `non_overlap_cost` if `t` is not on `k` now.
//! Actives use the source partitions, standbys the changelog partitions.
//!
//! * `min_traffic`: tasks → clients, client capacity = its current count.
//! * `balance_subtopology`: additionally each client may take at most
//!   `ceil(count × tasks_in_subtopology / tasks)` tasks of each sub-topology.
//! * standbys: pairwise between clients on different racks, up to 4 rounds.
//!
//! Kafka solves it by cancelling negative cycles on a task × client graph, and so
//! does lbscope up to a work limit. Past it, lbscope solves the same
//! optimisation exactly on a condensed network: tasks with the
//! same (sub-topology group, current client, per-rack cost) are one node, and moves
//! go through one node per (rack, group), because a task's cost depends on the
//! client only through its rack and whether it is the current owner. That keeps
//! 5,000 tasks × 100 clients at a few hundred nodes.
//!
//! Both strategies follow Kafka's own network and walk ([`super::graph`]), so
//! that among equal-cost optima lbscope lands where Kafka does:
//!
//! * `min_traffic` (`MinTrafficGraphConstructor`) starts from the current
//!   assignment and cancels negative cycles, so it keeps every task whose move
//!   would not lower the cost; when several moves lower it equally, the one the
//!   cycle search finds first is made.
//! * `balance_subtopology` (`BalanceSubtopologyGraphConstructor`) starts from a
//!   maximum flow found breadth-first (`calculateMaxFlow`), not from the current
//!   assignment, so its result among equal-cost optima may move tasks that
//!   could have stayed (`RackAwareTaskAssignorTest.shouldBalanceAssignmentWithMoreCost`).
//!
//! Networks past [`super::graph::MAX_WORK`] (and task sets not in id order) use
//! the condensed solver above: the same minimum cost, and among equal-cost
//! optima one that moves the fewest tasks (within a node, the lowest task ids
//! stay and the rest go to destinations in rack order, then process-id order).

use super::assignor::{Ctx, Reason};
use super::Event;
use crate::engine::strategy::StrategyInfo;
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// `rack.aware.assignment.strategy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RackStrategy {
    /// Off.
    #[default]
    None,
    /// Minimise cross-rack traffic.
    MinTraffic,
    /// Minimise traffic while spreading each sub-topology over clients.
    BalanceSubtopology,
}

impl RackStrategy {
    /// Every value, in the order the settings list them.
    pub const ALL: [RackStrategy; 3] = [
        RackStrategy::None,
        RackStrategy::MinTraffic,
        RackStrategy::BalanceSubtopology,
    ];

    /// The config value (`rack.aware.assignment.strategy`).
    pub fn name(self) -> &'static str {
        match self {
            RackStrategy::None => "none",
            RackStrategy::MinTraffic => "min_traffic",
            RackStrategy::BalanceSubtopology => "balance_subtopology",
        }
    }

    /// The registry entry: `rack.aware.assignment.strategy` set to this value.
    pub fn info(self) -> StrategyInfo {
        let summary = match self {
            RackStrategy::None => "no rack-aware optimisation: the task assignor's placement of active tasks stands",
            RackStrategy::MinTraffic => "after the assignor, a min-cost flow moves active tasks (and standbys) to cut cross-rack traffic, weighed against moving tasks from their previous client",
            RackStrategy::BalanceSubtopology => "as min_traffic, and each sub-topology's tasks are also spread evenly over clients",
        };
        StrategyInfo {
            key: "rack.aware.assignment.strategy",
            name: self.name(),
            upstream: "RackAwareTaskAssignor",
            summary,
            file: "kstreams/rack_aware.rs",
        }
    }
}

/// The registry entries of the rack-aware strategies, in settings order.
pub fn infos() -> Vec<StrategyInfo> {
    RackStrategy::ALL.iter().map(|s| s.info()).collect()
}

/// Rack data for one rebalance (present only when rack-aware assignment can be enabled:
/// a strategy is set, every member has `client.rack`, every partition has rack information).
#[derive(Clone, Debug, PartialEq)]
pub struct RackModel {
    /// The strategy.
    pub strategy: RackStrategy,
    /// Rack names (sorted).
    pub racks: Vec<String>,
    /// Rack index of each client.
    pub client_rack: Vec<usize>,
    /// Per task, per rack: source partitions with no replica there.
    pub source_miss: Vec<Vec<i64>>,
    /// Per task, per rack: changelog partitions with no replica there.
    pub changelog_miss: Vec<Vec<i64>>,
    /// Sub-topology of each task.
    pub subtopology: Vec<u32>,
}

/// A small min-cost-flow solver: successive shortest paths with Bellman-Ford
/// (queue-based), deterministic by edge insertion order.
struct Flow {
    adj: Vec<Vec<usize>>,
    to: Vec<usize>,
    cap: Vec<i64>,
    cost: Vec<i64>,
}

impl Flow {
    fn new(n: usize) -> Self {
        Flow {
            adj: vec![Vec::new(); n],
            to: Vec::new(),
            cap: Vec::new(),
            cost: Vec::new(),
        }
    }

    fn add(&mut self, u: usize, v: usize, cap: i64, cost: i64) -> usize {
        let e = self.to.len();
        self.to.extend([v, u]);
        self.cap.extend([cap, 0]);
        self.cost.extend([cost, -cost]);
        self.adj[u].push(e);
        self.adj[v].push(e + 1);
        e
    }

    fn flow_on(&self, e: usize) -> i64 {
        self.cap[e ^ 1]
    }

    /// Push up to `limit` units from `s` to `t` at minimum cost; returns the flow.
    fn run(&mut self, s: usize, t: usize, limit: i64) -> i64 {
        let n = self.adj.len();
        let mut total = 0;
        while total < limit {
            let mut dist = vec![i64::MAX; n];
            let mut prev = vec![usize::MAX; n];
            let mut inq = vec![false; n];
            let mut q = VecDeque::new();
            dist[s] = 0;
            q.push_back(s);
            while let Some(u) = q.pop_front() {
                inq[u] = false;
                for &e in &self.adj[u] {
                    if self.cap[e] > 0 {
                        let v = self.to[e];
                        let nd = dist[u] + self.cost[e];
                        if nd < dist[v] {
                            dist[v] = nd;
                            prev[v] = e;
                            if !inq[v] {
                                inq[v] = true;
                                q.push_back(v);
                            }
                        }
                    }
                }
            }
            if dist[t] == i64::MAX {
                break;
            }
            let mut push = limit - total;
            let mut v = t;
            while v != s {
                let e = prev[v];
                push = push.min(self.cap[e]);
                v = self.to[e ^ 1];
            }
            let mut v = t;
            while v != s {
                let e = prev[v];
                self.cap[e] -= push;
                self.cap[e ^ 1] += push;
                v = self.to[e ^ 1];
            }
            total += push;
        }
        total
    }
}

/// Solve one placement problem. `owner[i]` is the current client (index into
/// `clients`) of task `i`; `cost[i][r]` its traffic cost on rack `r`; `group[i]`
/// its sub-topology group (all 0 for `min_traffic`). Returns the new owners, or
/// `None` if no feasible flow carries every task (then nothing moves).
#[allow(clippy::too_many_arguments)]
fn solve(
    owner: &[usize],
    cost: &[Vec<i64>],
    group: &[usize],
    groups: usize,
    client_rack: &[usize],
    racks: usize,
    non_overlap: i64,
    balance: bool,
) -> Option<Vec<usize>> {
    let n = owner.len();
    let nc = client_rack.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let scale = n as i64 + 1;
    let mut orig = vec![0i64; nc];
    let mut per_group = vec![0usize; groups];
    for i in 0..n {
        orig[owner[i]] += 1;
        per_group[group[i]] += 1;
    }
    // Classes of interchangeable tasks.
    let mut classes: BTreeMap<(usize, usize, &[i64]), Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        classes
            .entry((group[i], owner[i], cost[i].as_slice()))
            .or_default()
            .push(i);
    }
    let (s, t) = (0usize, 1usize);
    let class0 = 2;
    let rg0 = class0 + classes.len();
    let cg0 = rg0 + racks * groups;
    let c0 = cg0 + nc * groups;
    let mut f = Flow::new(c0 + nc);
    let inf = n as i64;
    let mut class_edges = Vec::new();
    for (ci, ((g, o, costs), members)) in classes.iter().enumerate() {
        let size = members.len() as i64;
        f.add(s, class0 + ci, size, 0);
        let stay = f.add(
            class0 + ci,
            cg0 + o * groups + g,
            size,
            costs[client_rack[*o]] * scale,
        );
        let moves: Vec<usize> = (0..racks)
            .map(|r| {
                f.add(
                    class0 + ci,
                    rg0 + r * groups + g,
                    size,
                    (costs[r] + non_overlap) * scale + 1,
                )
            })
            .collect();
        class_edges.push((stay, moves));
    }
    let mut rg_edges: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
    for g in 0..groups {
        for (k, &r) in client_rack.iter().enumerate() {
            let e = f.add(rg0 + r * groups + g, cg0 + k * groups + g, inf, 0);
            rg_edges.entry((r, g)).or_default().push((k, e));
        }
    }
    for (k, &ok) in orig.iter().enumerate() {
        for (g, &pg) in per_group.iter().enumerate() {
            let cap = if !balance {
                inf
            } else if ok > 0 {
                (ok as f64 / n as f64 * pg as f64).ceil() as i64
            } else {
                0
            };
            f.add(cg0 + k * groups + g, c0 + k, cap, 0);
        }
        f.add(c0 + k, t, ok, 0);
    }
    if f.run(s, t, n as i64) < n as i64 {
        return None;
    }
    // Decompose: per (rack, group) match incoming class flow to outgoing client flow.
    let mut new_owner = owner.to_vec();
    let mut incoming: BTreeMap<(usize, usize), Vec<(usize, i64)>> = BTreeMap::new();
    for (ci, ((g, _, _), _)) in classes.iter().enumerate() {
        for (r, &e) in class_edges[ci].1.iter().enumerate() {
            let fl = f.flow_on(e);
            if fl > 0 {
                incoming.entry((r, *g)).or_default().push((ci, fl));
            }
        }
    }
    let class_members: Vec<&Vec<usize>> = classes.values().collect();
    let mut cursor: Vec<usize> = class_edges
        .iter()
        .map(|(stay, _)| f.flow_on(*stay) as usize)
        .collect();
    for ((r, g), ins) in incoming {
        let mut outs: VecDeque<(usize, i64)> = rg_edges
            .get(&(r, g))
            .map(|v| {
                v.iter()
                    .map(|&(k, e)| (k, f.flow_on(e)))
                    .filter(|x| x.1 > 0)
                    .collect()
            })
            .unwrap_or_default();
        for (ci, mut amount) in ins {
            while amount > 0 {
                let Some(front) = outs.front_mut() else { break };
                let m = class_members[ci][cursor[ci]];
                new_owner[m] = front.0;
                cursor[ci] += 1;
                amount -= 1;
                front.1 -= 1;
                if front.1 == 0 {
                    outs.pop_front();
                }
            }
        }
    }
    Some(new_owner)
}

/// Kafka's `BalanceSubtopologyGraphConstructor` network for `owner` (tasks in id
/// order, so in sub-topology order), solved as Kafka solves it: a breadth-first
/// maximum flow, then negative cycles cancelled. `cost[i][k]` is task `i`'s
/// traffic cost on client `k`; a client that held none of the tasks can take
/// none. `None`: the network is past [`super::graph::MAX_WORK`]; `Some(None)`: no
/// flow carries every task (Kafka throws; lbscope keeps the assignment).
fn solve_as_kafka(
    owner: &[usize],
    cost: &[Vec<i64>],
    group: &[usize],
    groups: usize,
    clients: usize,
    non_overlap: i64,
) -> Option<Option<Vec<usize>>> {
    use super::graph::{Graph, MAX_WORK};
    let t = owner.len() as i64;
    let c = clients as i64;
    let g = groups as i64;
    // Node ids as Kafka numbers them: tasks 0..t in (sub-topology, task) order,
    // then (sub-topology, client) nodes, then one node per client, then the sink;
    // the source is -1.
    let client_group = |k: usize, gi: usize| t + c * gi as i64 + k as i64;
    let second = |k: usize| t + c * g + k as i64;
    let sink = t + c * g + c;
    let mut orig = vec![0i64; clients];
    for &o in owner {
        orig[o] += 1;
    }
    let mut per_group = vec![0i64; groups];
    for &gi in group {
        per_group[gi] += 1;
    }
    // The network's size, known before building it: nodes × arcs of the
    // residual network (each edge twice, plus the dummy node's).
    let used = per_group.iter().filter(|&&v| v > 0).count() as u64;
    let (tn, cn) = (t as u64, clients as u64);
    let nodes = tn + cn * used + cn + 2;
    let edges = tn * cn + tn + cn * used + cn;
    if (nodes + 1).saturating_mul(2 * edges + nodes) > MAX_WORK {
        return None;
    }
    let mut graph = Graph::new();
    for (i, &gi) in group.iter().enumerate() {
        for (k, &c) in cost[i].iter().enumerate() {
            let extra = if owner[i] == k { 0 } else { non_overlap };
            graph.add_edge(i as i64, client_group(k, gi), 1, c + extra);
        }
        graph.add_edge(-1, i as i64, 1, 0);
    }
    for (gi, &valid) in per_group.iter().enumerate() {
        if valid == 0 {
            continue;
        }
        for (k, &ok) in orig.iter().enumerate() {
            // Kafka: ceil(held / tasks × tasks of the sub-topology), in doubles.
            let cap = if ok > 0 {
                (ok as f64 * 1.0 / t as f64 * valid as f64).ceil() as i64
            } else {
                0
            };
            graph.add_edge(client_group(k, gi), second(k), cap, 0);
        }
    }
    for (k, &ok) in orig.iter().enumerate() {
        graph.add_edge(second(k), sink, ok, 0);
    }
    graph.set_ends(-1, sink);
    if graph.work() > MAX_WORK {
        return None;
    }
    if graph.calculate_max_flow() != t {
        return Some(None);
    }
    if !graph.solve_min_cost_flow() {
        return None;
    }
    let mut new_owner = owner.to_vec();
    for (i, &gi) in group.iter().enumerate() {
        if let Some((node, _)) = graph.flows_from(i as i64).next() {
            new_owner[i] = (node - client_group(0, gi)) as usize;
        }
    }
    Some(Some(new_owner))
}

/// Kafka's `MinTrafficGraphConstructor` network for `owner` (tasks in id order),
/// solved as Kafka solves it: every task → client edge is added, those of the
/// current assignment carrying its flow, each client → sink edge full at the
/// client's task count; then negative cycles are cancelled from there, so a
/// move is made only inside a cycle that lowers the cost, and which of several
/// equal-cost optima comes out is fixed by the cycle search's walk. `cost[i][k]`
/// is task `i`'s traffic cost on client `k`. Answers as [`solve_as_kafka`].
fn min_traffic_as_kafka(
    owner: &[usize],
    cost: &[Vec<i64>],
    clients: usize,
    non_overlap: i64,
) -> Option<Option<Vec<usize>>> {
    use super::graph::{Graph, MAX_WORK};
    let t = owner.len() as i64;
    // Node ids as Kafka numbers them: tasks 0..t, clients t..t+c, the sink
    // t+c; the source is -1.
    let client = |k: usize| t + k as i64;
    let sink = t + clients as i64;
    let (tn, cn) = (t as u64, clients as u64);
    let nodes = tn + cn + 2;
    let edges = tn * cn + tn + cn;
    if (nodes + 1).saturating_mul(2 * edges + nodes) > MAX_WORK {
        return None;
    }
    let mut orig = vec![0i64; clients];
    for &o in owner {
        orig[o] += 1;
    }
    let mut graph = Graph::new();
    for (i, &o) in owner.iter().enumerate() {
        for (k, &c) in cost[i].iter().enumerate() {
            let held = o == k;
            let extra = if held { 0 } else { non_overlap };
            graph.add_edge_with_flow(i as i64, client(k), 1, c + extra, i64::from(held));
        }
        graph.add_edge_with_flow(-1, i as i64, 1, 0, 1);
    }
    for (k, &ok) in orig.iter().enumerate() {
        graph.add_edge_with_flow(client(k), sink, ok, 0, ok);
    }
    graph.set_ends(-1, sink);
    if !graph.solve_min_cost_flow() {
        return None;
    }
    let mut new_owner = owner.to_vec();
    for (i, slot) in new_owner.iter_mut().enumerate() {
        if let Some((node, _)) = graph.flows_from(i as i64).next() {
            *slot = (node - client(0)) as usize;
        }
    }
    Some(Some(new_owner))
}

fn label(s: RackStrategy) -> &'static str {
    match s {
        RackStrategy::None => "none",
        RackStrategy::MinTraffic => "min_traffic",
        RackStrategy::BalanceSubtopology => "balance_subtopology",
    }
}

/// Optimise the actives among `tasks` (Kafka's `optimizeActiveTasks`).
pub fn optimize_active(ctx: &mut Ctx, tasks: &[usize], traffic: i64, non_overlap: i64, what: &str) {
    optimize_active_with(ctx, tasks, traffic, non_overlap, what, false)
}

/// [`optimize_active`], with `with_changelogs` counting a task's changelog
/// partitions in its traffic cost as well as its source partitions (KIP-924's
/// `TaskAssignmentUtils.optimizeRackAwareActiveTasks`, whose `TaskInfo` lists both).
pub fn optimize_active_with(
    ctx: &mut Ctx,
    tasks: &[usize],
    traffic: i64,
    non_overlap: i64,
    what: &str,
    with_changelogs: bool,
) {
    let Some(rm) = ctx.rack.clone() else { return };
    if tasks.is_empty() {
        return;
    }
    // The first client (lowest index) holding each task as active, from one pass
    // over the clients instead of a scan of every client per task.
    let n = tasks.iter().copied().max().map_or(0, |m| m + 1);
    let mut first: Vec<Option<usize>> = vec![None; n];
    for (c, cl) in ctx.clients.iter().enumerate() {
        for &t in &cl.active {
            if let Some(slot @ None) = first.get_mut(t) {
                *slot = Some(c);
            }
        }
    }
    let mut owner = Vec::with_capacity(tasks.len());
    for &t in tasks {
        match first[t] {
            Some(c) => owner.push(c),
            None => return,
        }
    }
    let balance = rm.strategy == RackStrategy::BalanceSubtopology;
    let mut gids: Vec<u32> = tasks.iter().map(|&t| rm.subtopology[t]).collect();
    gids.stable_sort();
    gids.dedup();
    let group: Vec<usize> = tasks
        .iter()
        .map(|&t| {
            if balance {
                gids.binary_search(&rm.subtopology[t]).unwrap_or(0)
            } else {
                0
            }
        })
        .collect();
    let groups = if balance { gids.len() } else { 1 };
    let cost: Vec<Vec<i64>> = tasks
        .iter()
        .map(|&t| {
            rm.source_miss[t]
                .iter()
                .zip(&rm.changelog_miss[t])
                .map(|(m, c)| (m + if with_changelogs { *c } else { 0 }) * traffic)
                .collect()
        })
        .collect();
    let before: i64 = (0..tasks.len()).map(|i| cost[i][rm.client_rack[owner[i]]]).sum();
    let as_kafka = if tasks.windows(2).all(|w| w[0] < w[1]) {
        let per_client: Vec<Vec<i64>> = cost
            .iter()
            .map(|c| rm.client_rack.iter().map(|&r| c[r]).collect())
            .collect();
        if balance {
            solve_as_kafka(
                &owner,
                &per_client,
                &group,
                groups,
                rm.client_rack.len(),
                non_overlap,
            )
        } else {
            min_traffic_as_kafka(&owner, &per_client, rm.client_rack.len(), non_overlap)
        }
    } else {
        None
    };
    let solved = match as_kafka {
        Some(found) => found,
        None => solve(
            &owner,
            &cost,
            &group,
            groups,
            &rm.client_rack,
            rm.racks.len(),
            non_overlap,
            balance,
        ),
    };
    let Some(new_owner) = solved else {
        ctx.log.push(Event::Warning {
            message: format!(
                "rack-aware {}: no feasible flow for {what}; assignment kept",
                label(rm.strategy)
            ),
        });
        return;
    };
    let mut moved = 0;
    for (i, &t) in tasks.iter().enumerate() {
        if new_owner[i] != owner[i] {
            ctx.clients[owner[i]].active.remove(&t);
            ctx.clients[new_owner[i]].active.insert(t);
            ctx.active_reason[t] = Reason::Rack;
            moved += 1;
        }
    }
    let after: i64 = (0..tasks.len())
        .map(|i| cost[i][rm.client_rack[new_owner[i]]])
        .sum::<i64>()
        + moved * non_overlap;
    ctx.log.push(Event::RackAwareOptimized {
        target: what.to_string(),
        strategy: rm.strategy,
        traffic_cost: traffic,
        non_overlap_cost: non_overlap,
        cost_before: before,
        cost_after: after,
        moved: moved as u64,
    });
}

/// A standby assignor's movement predicate: (clients holding the task, source, destination).
pub type MovePredicate<'a> = dyn Fn(&[usize], usize, usize) -> bool + 'a;

/// Kafka's `STANDBY_OPTIMIZER_MAX_ITERATION`.
pub const STANDBY_OPTIMIZER_MAX_ITERATION: usize = 4;

/// Optimise standbys pairwise (Kafka's `optimizeStandbyTasks`). `allowed(holders,
/// source, destination)` is the standby assignor's movement predicate, and
/// `classes[k]` a class of client `k` such that, for a destination not among the
/// holders, the predicate depends on the destination only through its class (the
/// tag-aware assignor: the client's tags; otherwise one class). Answers are
/// remembered per (client, standby, destination class) until the client's
/// standbys or the task's holders change, so each pair of clients costs a walk
/// over their standbys instead of a predicate call per standby.
pub fn optimize_standby(
    ctx: &mut Ctx,
    traffic: i64,
    non_overlap: i64,
    allowed: &MovePredicate,
    classes: &[usize],
) {
    let Some(rm) = ctx.rack.clone() else { return };
    let nc = ctx.clients.len();
    let before = standby_cost(ctx, &rm, traffic);
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); ctx.tasks.len()];
    for (k, c) in ctx.clients.iter().enumerate() {
        for &t in c.active.iter().chain(c.standby.iter()) {
            if let Some(h) = holders.get_mut(t) {
                h.push(k);
            }
        }
    }
    let mut moved_total = 0i64;
    let mut moved = true;
    let mut round = 0;
    // Upper bound of the gain of moving one standby of client `k` to rack `r`. A
    // pair can only improve if some task each way gains in sum (moves come in
    // swaps because counts are kept), so pairs whose bounds add up to <= 0 are
    // skipped without changing the result.
    let bound = |ctx: &Ctx, k: usize| gain_bounds(ctx, &rm, k, traffic, non_overlap);
    let mut best: Vec<Vec<i64>> = (0..nc).map(|k| bound(ctx, k)).collect();
    let ncls = classes.iter().max().map_or(1, |m| m + 1);
    let class = |k: usize| classes.get(k).copied();
    // memo[a][p * ncls + c]: 0 unknown, 1 not allowed, 2 allowed, for the p-th
    // standby of client a moving to a client of class c.
    let mut memo: Vec<Vec<u8>> = vec![Vec::new(); nc];
    let movable = |memo: &mut Vec<u8>, ctx: &Ctx, holders: &[Vec<usize>], a: usize, b: usize| -> Vec<usize> {
        let standby = &ctx.clients[a].standby;
        let Some(cb) = class(b) else {
            return standby
                .iter()
                .copied()
                .filter(|&t| !holders[t].contains(&b) && allowed(&holders[t], a, b))
                .collect();
        };
        if memo.len() != standby.len() * ncls {
            memo.clear();
            memo.resize(standby.len() * ncls, 0);
        }
        standby
            .iter()
            .enumerate()
            .filter_map(|(p, &t)| {
                if holders[t].contains(&b) {
                    return None;
                }
                let m = &mut memo[p * ncls + cb];
                if *m == 0 {
                    *m = if allowed(&holders[t], a, b) { 2 } else { 1 };
                }
                (*m == 2).then_some(t)
            })
            .collect()
    };
    while moved && round < STANDBY_OPTIMIZER_MAX_ITERATION {
        moved = false;
        round += 1;
        for i in 0..nc {
            for j in i + 1..nc {
                let (ri, rj) = (rm.client_rack[i], rm.client_rack[j]);
                if ri == rj || best[i][rj].saturating_add(best[j][ri]) <= 0 {
                    continue;
                }
                let m1 = movable(&mut memo[i], ctx, &holders, i, j);
                let m2 = movable(&mut memo[j], ctx, &holders, j, i);
                if m1.is_empty() || m2.is_empty() {
                    continue;
                }
                let pair_rack = [rm.client_rack[i], rm.client_rack[j]];
                let Some(owners) = solve_pair(&rm, pair_rack, &m1, &m2, traffic, non_overlap) else {
                    continue;
                };
                let who = [i, j];
                let mut pair_moved = false;
                for (t, o, n) in owners {
                    if n != o {
                        for h in holders[t].iter_mut() {
                            if *h == who[o] {
                                *h = who[n];
                            }
                        }
                        ctx.remove_standby(who[o], t);
                        ctx.add_standby(who[n], t, Reason::Rack);
                        for &h in &holders[t] {
                            memo[h].clear();
                        }
                        moved = true;
                        pair_moved = true;
                        moved_total += 1;
                    }
                }
                if pair_moved {
                    memo[i].clear();
                    memo[j].clear();
                    best[i] = bound(ctx, i);
                    best[j] = bound(ctx, j);
                }
            }
        }
    }
    let after = standby_cost(ctx, &rm, traffic) + moved_total * non_overlap;
    ctx.log.push(Event::RackAwareOptimized {
        target: "standbys".into(),
        strategy: rm.strategy,
        traffic_cost: traffic,
        non_overlap_cost: non_overlap,
        cost_before: before,
        cost_after: after,
        moved: moved_total as u64,
    });
}

/// What the standbys' changelog reads across racks cost.
fn standby_cost(ctx: &Ctx, rm: &RackModel, traffic: i64) -> i64 {
    let mut sum = 0;
    for (k, c) in ctx.clients.iter().enumerate() {
        for &t in &c.standby {
            sum += rm.changelog_miss[t][rm.client_rack[k]] * traffic;
        }
    }
    sum
}

/// Upper bound of the gain of moving one standby of client `k` to each rack.
fn gain_bounds(ctx: &Ctx, rm: &RackModel, k: usize, traffic: i64, non_overlap: i64) -> Vec<i64> {
    let rk = rm.client_rack[k];
    (0..rm.racks.len())
        .map(|r| {
            ctx.clients[k]
                .standby
                .iter()
                .map(|&t| (rm.changelog_miss[t][rk] - rm.changelog_miss[t][r]) * traffic - non_overlap)
                .max()
                .unwrap_or(i64::MIN / 4)
        })
        .collect()
}

/// The min-cost flow over one pair of clients (on racks `pair_rack`, renumbered
/// 0 and 1): the movable standbys `m1` of the first and `m2` of the second as
/// (task, owner 0 or 1, the owner it gets) in task order; `None` when the flow
/// finds nothing better.
fn solve_pair(
    rm: &RackModel,
    pair_rack: [usize; 2],
    m1: &[usize],
    m2: &[usize],
    traffic: i64,
    non_overlap: i64,
) -> Option<Vec<(usize, usize, usize)>> {
    let mut list: Vec<(usize, usize)> = m1
        .iter()
        .map(|&t| (t, 0))
        .chain(m2.iter().map(|&t| (t, 1)))
        .collect();
    list.stable_sort();
    let owner: Vec<usize> = list.iter().map(|x| x.1).collect();
    let cost: Vec<Vec<i64>> = list
        .iter()
        .map(|&(t, _)| {
            pair_rack
                .iter()
                .map(|&r| rm.changelog_miss[t][r] * traffic)
                .collect()
        })
        .collect();
    let group = vec![0; list.len()];
    let new_owner = solve(&owner, &cost, &group, 1, &[0, 1], 2, non_overlap, false)?;
    Some(list.iter().zip(new_owner).map(|(&(t, o), n)| (t, o, n)).collect())
}
#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all count-preserving reassignments on tiny cases.
    fn brute(owner: &[usize], cost: &[Vec<i64>], client_rack: &[usize], non_overlap: i64) -> i64 {
        let n = owner.len();
        let nc = client_rack.len();
        let mut orig = vec![0; nc];
        for &o in owner {
            orig[o] += 1;
        }
        let mut best = i64::MAX;
        let total = nc.pow(n as u32);
        for code in 0..total {
            let mut x = code;
            let mut cnt = vec![0; nc];
            let mut c = 0;
            for i in 0..n {
                let k = x % nc;
                x /= nc;
                cnt[k] += 1;
                c += cost[i][client_rack[k]] + if k != owner[i] { non_overlap } else { 0 };
            }
            if cnt == orig {
                best = best.min(c);
            }
        }
        best
    }

    // Kafka's `RackAwareTaskAssignorTest`, the `balance_subtopology` arm of each
    // active-task case: the fixture of `AssignmentTestUtils` (each task reads one
    // partition; partition racks from its replicas' nodes; `PID_n` on its rack),
    // costs from the test's `setUp` (stateful: traffic 10, non-overlap 1;
    // stateless: 1 and 0). Expected owners and costs are the test's assertions.

    /// Racks holding a replica of the test task's one source partition.
    fn partition_racks(task: &str) -> &'static [usize] {
        match task {
            "0_0" => &[0, 1], // TP_0_0: NODE_0, NODE_1
            "0_1" => &[1, 2], // TP_0_1: NODE_1, NODE_2
            "1_0" => &[0, 2], // TP_1_0: NODE_0, NODE_2
            "1_1" => &[1, 3], // TP_1_1: NODE_1, NODE_3
            _ => unreachable!("{task}"),
        }
    }

    /// `PID_n`'s rack (`getProcessRacksForAllProcess`).
    fn pid_rack(pid: u32) -> usize {
        [0, 0, 1, 2, 3, 4, 0, 1][pid as usize]
    }

    /// Run `optimizeActiveTasks` with balance_subtopology on `clients` (`PID_n` and
    /// the tasks it holds, in process-id order) over `tasks` (sorted): the new
    /// holdings per client and the cost.
    fn balance_case(
        clients: &[(u32, &[&'static str])],
        tasks: &[&'static str],
        stateful: bool,
    ) -> (Vec<Vec<&'static str>>, i64) {
        let (traffic, non_overlap) = if stateful { (10, 1) } else { (1, 0) };
        let owner: Vec<usize> = tasks
            .iter()
            .map(|t| clients.iter().position(|(_, held)| held.contains(t)).unwrap())
            .collect();
        let cost: Vec<Vec<i64>> = tasks
            .iter()
            .map(|t| {
                clients
                    .iter()
                    .map(|&(pid, _)| {
                        if partition_racks(t).contains(&pid_rack(pid)) {
                            0
                        } else {
                            traffic
                        }
                    })
                    .collect()
            })
            .collect();
        let mut subs: Vec<&str> = tasks.iter().map(|t| &t[..1]).collect();
        subs.dedup();
        let group: Vec<usize> = tasks
            .iter()
            .map(|t| subs.iter().position(|s| *s == &t[..1]).unwrap())
            .collect();
        let new = solve_as_kafka(&owner, &cost, &group, subs.len(), clients.len(), non_overlap)
            .expect("small enough")
            .expect("a flow carries every task");
        let total = (0..tasks.len())
            .map(|i| cost[i][new[i]] + if new[i] != owner[i] { non_overlap } else { 0 })
            .sum();
        let mut held = vec![Vec::new(); clients.len()];
        for (i, &k) in new.iter().enumerate() {
            held[k].push(tasks[i]);
        }
        (held, total)
    }

    #[test]
    fn should_optimize_empty_active_tasks() {
        for stateful in [true, false] {
            let (held, cost) = balance_case(&[(1, &["0_1", "1_1"])], &[], stateful);
            assert_eq!((held, cost), (vec![vec![]], 0));
        }
    }

    #[test]
    fn should_optimize_active_tasks() {
        let clients: [(u32, &[&str]); 3] = [(1, &["0_1", "1_1"]), (2, &["1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 4), (false, 0)] {
            let (held, cost) = balance_case(&clients, &["0_0", "0_1", "1_0", "1_1"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec!["0_0", "1_0"], vec!["1_1"], vec!["0_1"]]);
        }
    }

    #[test]
    fn should_optimize_active_tasks_with_more_clients() {
        let clients: [(u32, &[&str]); 3] = [(1, &[]), (2, &["1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 2), (false, 0)] {
            let (held, cost) = balance_case(&clients, &["0_0", "1_0"], stateful);
            assert_eq!(cost, want);
            // PID_1 held nothing, so it takes nothing.
            assert_eq!(held, vec![vec![], vec!["0_0"], vec!["1_0"]]);
        }
    }

    #[test]
    fn should_optimize_active_tasks_with_more_clients_with_more_than_one_task() {
        let clients: [(u32, &[&str]); 3] = [(1, &[]), (2, &["0_1", "1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 2), (false, 0)] {
            let (held, cost) = balance_case(&clients, &["0_0", "0_1", "1_0"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec![], vec!["0_0", "0_1"], vec!["1_0"]]);
        }
    }

    /// Run `optimizeActiveTasks` with min_traffic (Kafka's network and walk) on
    /// the same fixture as [`balance_case`].
    fn min_traffic_case(
        clients: &[(u32, &[&'static str])],
        tasks: &[&'static str],
        stateful: bool,
    ) -> (Vec<Vec<&'static str>>, i64) {
        let (traffic, non_overlap) = if stateful { (10, 1) } else { (1, 0) };
        let owner: Vec<usize> = tasks
            .iter()
            .map(|t| clients.iter().position(|(_, held)| held.contains(t)).unwrap())
            .collect();
        let cost: Vec<Vec<i64>> = tasks
            .iter()
            .map(|t| {
                clients
                    .iter()
                    .map(|&(pid, _)| {
                        if partition_racks(t).contains(&pid_rack(pid)) {
                            0
                        } else {
                            traffic
                        }
                    })
                    .collect()
            })
            .collect();
        let new = min_traffic_as_kafka(&owner, &cost, clients.len(), non_overlap)
            .expect("small enough")
            .expect("a flow carries every task");
        let total = (0..tasks.len())
            .map(|i| cost[i][new[i]] + if new[i] != owner[i] { non_overlap } else { 0 })
            .sum();
        let mut held = vec![Vec::new(); clients.len()];
        for (i, &k) in new.iter().enumerate() {
            held[k].push(tasks[i]);
        }
        (held, total)
    }

    // The `min_traffic` arms of the same `RackAwareTaskAssignorTest` cases:
    // expected holdings and costs are the test's assertions.

    #[test]
    fn should_optimize_empty_active_tasks_min_traffic() {
        for stateful in [true, false] {
            let (held, cost) = min_traffic_case(&[(1, &["0_1", "1_1"])], &[], stateful);
            assert_eq!((held, cost), (vec![vec![]], 0));
        }
    }

    #[test]
    fn should_optimize_active_tasks_min_traffic() {
        let clients: [(u32, &[&str]); 3] = [(1, &["0_1", "1_1"]), (2, &["1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 4), (false, 0)] {
            let (held, cost) = min_traffic_case(&clients, &["0_0", "0_1", "1_0", "1_1"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec!["0_0", "1_0"], vec!["1_1"], vec!["0_1"]]);
        }
    }

    #[test]
    fn should_optimize_active_tasks_with_more_clients_min_traffic() {
        let clients: [(u32, &[&str]); 3] = [(1, &[]), (2, &["1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 2), (false, 0)] {
            let (held, cost) = min_traffic_case(&clients, &["0_0", "1_0"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec![], vec!["0_0"], vec!["1_0"]]);
        }
    }

    #[test]
    fn should_optimize_active_tasks_with_more_clients_with_more_than_one_task_min_traffic() {
        let clients: [(u32, &[&str]); 3] = [(1, &[]), (2, &["0_1", "1_0"]), (3, &["0_0"])];
        for (stateful, want) in [(true, 2), (false, 0)] {
            let (held, cost) = min_traffic_case(&clients, &["0_0", "0_1", "1_0"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec![], vec!["0_0", "0_1"], vec!["1_0"]]);
        }
    }

    /// min_traffic starts from the current assignment, so where every
    /// reassignment costs the same (stateless: 1) nothing moves.
    #[test]
    fn should_balance_assignment_with_more_cost_min_traffic() {
        let clients: [(u32, &[&str]); 2] = [(2, &["0_0", "1_1"]), (5, &["0_1"])];
        for (stateful, want) in [(true, 10), (false, 1)] {
            let (held, cost) = min_traffic_case(&clients, &["0_0", "0_1", "1_1"], stateful);
            assert_eq!(cost, want);
            assert_eq!(held, vec![vec!["0_0", "1_1"], vec!["0_1"]]);
        }
    }

    /// `shouldMaintainOriginalAssignmentForMinCost` and `shouldOptimizeRandomActive`
    /// (min_traffic): with traffic cost 0 and non-overlap cost 1 nothing moves
    /// (Kafka asserts cost 0 and every task where it was); with a traffic cost
    /// the cost does not rise, is the minimum (brute force on small cases), and
    /// every client keeps its task count. Random cases from a fixed seed.
    #[test]
    fn should_maintain_original_assignment_for_min_cost_min_traffic() {
        let mut seed = 5u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for round in 0..80 {
            let small = round < 60;
            let (n, clients, racks) = if small {
                (1 + next() % 5, 2 + next() % 2, 2)
            } else {
                (60 + next() % 40, 20 + next() % 10, 5)
            };
            let client_rack: Vec<usize> = (0..clients).map(|k| k % racks).collect();
            let owner: Vec<usize> = (0..n).map(|_| next() % clients).collect();
            let traffic = if round % 3 == 0 { 0 } else { 10 };
            let per_rack: Vec<Vec<i64>> = (0..n)
                .map(|_| (0..racks).map(|_| (next() % 3) as i64 * traffic).collect())
                .collect();
            let per_client: Vec<Vec<i64>> = per_rack
                .iter()
                .map(|c| client_rack.iter().map(|&r| c[r]).collect())
                .collect();
            let non_overlap = if traffic == 0 { 1 } else { (next() % 3) as i64 };
            let new = min_traffic_as_kafka(&owner, &per_client, clients, non_overlap)
                .unwrap()
                .unwrap();
            let total = |o: &[usize]| -> i64 {
                (0..n)
                    .map(|i| per_client[i][o[i]] + if o[i] != owner[i] { non_overlap } else { 0 })
                    .sum()
            };
            if traffic == 0 {
                assert_eq!(new, owner, "round {round}: nothing moves at traffic cost 0");
            }
            assert!(total(&new) <= total(&owner), "round {round}");
            for k in 0..clients {
                let count = |o: &[usize]| o.iter().filter(|&&x| x == k).count();
                assert_eq!(count(&owner), count(&new), "round {round}");
            }
            if small {
                assert_eq!(total(&new), brute(&owner, &per_rack, &client_rack, non_overlap));
            } else {
                let condensed = solve(
                    &owner,
                    &per_rack,
                    &vec![0; n],
                    1,
                    &client_rack,
                    racks,
                    non_overlap,
                    false,
                )
                .unwrap();
                assert_eq!(total(&new), total(&condensed), "round {round}: both are minimal");
            }
        }
    }

    /// Among equal-cost moves min_traffic makes the one Kafka's cycle search
    /// finds first. Tasks 0, 1, 2 on clients A, B, A; task 0 and task 2 cost 1
    /// on A and 0 on B, task 1 costs 0 on A and 1 on B; non-overlap 0. Swapping
    /// task 1 with task 0 or with task 2 both bring the cost from 3 to 1. In
    /// Kafka's residual network both swaps are cycles of cost −2 through A's
    /// two backward arcs; Bellman–Ford reaches B first from task 0 (nodes are
    /// relaxed in id order and a tie does not replace a parent), so the cycle
    /// found, and cancelled, moves task 0 (derived by following
    /// `Graph.solveMinCostFlow` by hand; the old fewest-moves rule kept the
    /// lowest id, task 0, and moved task 2).
    #[test]
    fn min_traffic_follows_kafkas_cycle_order_among_equal_cost_moves() {
        let owner = [0, 1, 0];
        let cost = vec![vec![1, 0], vec![0, 1], vec![1, 0]];
        let kafka = min_traffic_as_kafka(&owner, &cost, 2, 0).unwrap().unwrap();
        assert_eq!(kafka, vec![1, 0, 0]);
        let condensed = solve(&owner, &cost, &[0, 0, 0], 1, &[0, 1], 2, 0, false).unwrap();
        assert_eq!(condensed, vec![0, 0, 1]);
    }

    /// The case that pins Kafka's walk among equal-cost optima: stateless, the
    /// cost stays 1 but Kafka's maximum flow puts 0_0 and 0_1 on PID_2 and 1_1
    /// on PID_5, so two tasks move where "fewest moves" would move none.
    #[test]
    fn should_balance_assignment_with_more_cost() {
        let clients: [(u32, &[&str]); 2] = [(2, &["0_0", "1_1"]), (5, &["0_1"])];
        let (held, cost) = balance_case(&clients, &["0_0", "0_1", "1_1"], true);
        assert_eq!(cost, 10);
        assert_eq!(held, vec![vec!["0_0", "1_1"], vec!["0_1"]]);
        let (held, cost) = balance_case(&clients, &["0_0", "0_1", "1_1"], false);
        assert_eq!(cost, 1);
        assert_eq!(held, vec![vec!["0_0", "0_1"], vec!["1_1"]]);
    }

    /// `shouldOptimizeRandomActive` and `shouldMaintainOriginalAssignmentForMinCost`
    /// (balance_subtopology): on random racks and holdings the cost does not
    /// rise (with a traffic cost), every client keeps its task count, and each sub-topology's tasks are
    /// spread within one of each other over the clients. (Kafka draws its own
    /// random cluster; these are drawn from a fixed seed.)
    #[test]
    fn should_optimize_random_active() {
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for round in 0..8 {
            let (subs, parts, clients) = (6 + round, 3, 9);
            let n = subs * parts;
            let racks = 4;
            let client_rack: Vec<usize> = (0..clients).map(|_| next() % racks).collect();
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, next() % (i + 1));
            }
            // Tasks dealt round robin in a random order, as evenly as Kafka's
            // `getRandomClientState` holds them.
            let mut owner = vec![0; n];
            for (j, &i) in order.iter().enumerate() {
                owner[i] = j % clients;
            }
            let traffic = if round % 2 == 0 { 10 } else { 0 };
            let cost: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let local = next() % racks;
                    (0..clients)
                        .map(|k| if client_rack[k] == local { 0 } else { traffic })
                        .collect()
                })
                .collect();
            let group: Vec<usize> = (0..n).map(|i| i / parts).collect();
            let new = solve_as_kafka(&owner, &cost, &group, subs, clients, 1)
                .unwrap()
                .unwrap();
            let before: i64 = (0..n).map(|i| cost[i][owner[i]]).sum();
            let after: i64 = (0..n)
                .map(|i| cost[i][new[i]] + i64::from(new[i] != owner[i]))
                .sum();
            if traffic > 0 {
                assert!(after <= before, "{after} > {before}");
            }
            // With no traffic cost Kafka's test asserts only a valid assignment:
            // starting from a maximum flow, the original one may not be kept.
            for k in 0..clients {
                let count = |o: &[usize]| o.iter().filter(|&&x| x == k).count();
                assert_eq!(count(&owner), count(&new));
            }
            for g in 0..subs {
                let per: Vec<usize> = (0..clients)
                    .map(|k| (0..n).filter(|&i| group[i] == g && new[i] == k).count())
                    .collect();
                let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
                assert!(hi - lo <= 1, "sub-topology {g}: {per:?}");
            }
        }
    }

    /// A network past `graph::MAX_WORK` is not solved Kafka's way (the caller
    /// falls back to the condensed solver), and deciding so costs only its build.
    #[test]
    fn a_network_past_the_work_limit_goes_to_the_condensed_solver() {
        let (n, clients, subs) = (600, 60, 60);
        let owner: Vec<usize> = (0..n).map(|i| i % clients).collect();
        let cost: Vec<Vec<i64>> = (0..n)
            .map(|i| (0..clients).map(|k| ((i + k) % 3) as i64).collect())
            .collect();
        let group: Vec<usize> = (0..n).map(|i| i * subs / n).collect();
        let t = std::time::Instant::now();
        assert_eq!(solve_as_kafka(&owner, &cost, &group, subs, clients, 1), None);
        println!("built and refused in {:?}", t.elapsed());
        let racks = vec![0usize; clients];
        let per_rack: Vec<Vec<i64>> = cost.iter().map(|c| vec![c[0]]).collect();
        assert!(solve(&owner, &per_rack, &group, subs, &racks, 1, 1, true).is_some());
    }

    #[test]
    fn min_traffic_is_exact_on_small_cases() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..60 {
            let n = 1 + next() % 5;
            let nc = 2 + next() % 2;
            let racks = 2;
            let client_rack: Vec<usize> = (0..nc).map(|k| k % racks).collect();
            let owner: Vec<usize> = (0..n).map(|_| next() % nc).collect();
            let cost: Vec<Vec<i64>> = (0..n)
                .map(|_| (0..racks).map(|_| (next() % 3) as i64 * 10).collect())
                .collect();
            let non_overlap = (next() % 3) as i64;
            let got = solve(
                &owner,
                &cost,
                &vec![0; n],
                1,
                &client_rack,
                racks,
                non_overlap,
                false,
            )
            .unwrap();
            let mut cnt_a = vec![0; nc];
            let mut cnt_b = vec![0; nc];
            let mut c = 0;
            for i in 0..n {
                cnt_a[owner[i]] += 1;
                cnt_b[got[i]] += 1;
                c += cost[i][client_rack[got[i]]] + if got[i] != owner[i] { non_overlap } else { 0 };
            }
            assert_eq!(cnt_a, cnt_b, "client counts are kept");
            assert_eq!(c, brute(&owner, &cost, &client_rack, non_overlap));
        }
    }
}
