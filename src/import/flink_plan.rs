//! Flink's execution plan, the JSON `StreamExecutionEnvironment#getExecutionPlan()`
//! returns (`JSONGenerator#getJSON`): the stream graph's operators *before*
//! chaining,
//!
//! ```json
//! {"nodes": [
//!   {"id": 1, "type": "Source: Kafka", "pact": "Data Source", "contents": "Source: Kafka", "parallelism": 4},
//!   {"id": 2, "type": "Map", "pact": "Operator", "contents": "Map", "parallelism": 4,
//!    "predecessors": [{"id": 1, "ship_strategy": "FORWARD", "side": "second"}]}]}
//! ```
//!
//! and Flink's operator chaining on it (`StreamingJobGraphGenerator`), which gives
//! the job vertices that are scheduled. An edge is chained when
//! `isChainable`/`isChainableInput` hold: the consumer has exactly one input, the
//! partitioner is `FORWARD` (which Flink only allows between equal parallelisms),
//! both sides have the same parallelism, share a slot sharing group, neither
//! side's chaining strategy forbids it, and chaining is enabled. The plan prints
//! neither chaining strategies, slot sharing groups, max parallelism nor whether
//! chaining was disabled, so lbscope takes Flink's defaults: every operator
//! `ALWAYS` (sources are heads anyway), one slot sharing group, chaining on.
//!
//! The chains are built in `createChain`'s order: from each source (by id), first
//! the chainable outputs (depth first), then the others, each starting its own
//! chain; a job vertex is created when its chain's head finishes, so the job
//! graph lists vertices in that post-order, and each vertex's outputs in
//! `transitiveOutEdges` order. lbscope rule where the plan leaves Flink's order
//! open: a node's outputs are taken in the order of their consumers' ids (the
//! order Flink adds stream edges when it translates the consumers).

use super::json::Obj;
use super::{thousands, ImportError};
use crate::sort::StableSort;
use serde_json::Value;
use std::collections::BTreeMap;

/// Most operators read from one plan.
pub const MAX_OPERATORS: usize = 100_000;
/// Most inputs one operator may have.
pub const MAX_INPUTS: usize = 10_000;

/// One stream-graph operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// `id`.
    pub id: i64,
    /// `type` (the operator name).
    pub name: String,
    /// `parallelism`.
    pub parallelism: u32,
    /// `predecessors`: producer id and `ship_strategy`, in order.
    pub inputs: Vec<(i64, String)>,
    /// Where it is in the JSON, e.g. `nodes[3]`.
    pub path: String,
}

/// A job vertex after chaining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobVertex {
    /// Its name (the chained operator names, `A -> B`).
    pub name: String,
    /// Parallelism.
    pub parallelism: u32,
    /// Slot sharing group, when the input says.
    pub slot_sharing_group: Option<String>,
    /// Where it came from (for messages).
    pub origin: String,
}

/// A job edge between two job vertices (indices into the vertex list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobEdge {
    /// Producer.
    pub from: usize,
    /// Consumer.
    pub to: usize,
    /// Flink's ship strategy name (`FORWARD`, `HASH`, `REBALANCE`, ...).
    pub strategy: String,
}

/// Job vertices and edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobGraph {
    /// Vertices in job-graph order.
    pub vertices: Vec<JobVertex>,
    /// Edges in the order Flink connects them.
    pub edges: Vec<JobEdge>,
}

/// Read the operators of a `getExecutionPlan()` JSON. Returns them and the
/// names of the fields lbscope does not use.
pub fn parse(input: &str, v: &Value) -> Result<(Vec<Operator>, Vec<String>), ImportError> {
    let top = Obj::new(input, v, "")?;
    let nodes = top.arr("nodes")?.ok_or_else(|| top.err("nodes", "missing"))?;
    if nodes.len() > MAX_OPERATORS {
        return Err(ImportError::too_large(
            input,
            format!(
                "the plan has {} operators; lbscope reads at most {}",
                thousands(nodes.len()),
                thousands(MAX_OPERATORS)
            ),
        ));
    }
    let mut unused: Vec<String> = top.unused();
    let mut ops = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let path = format!("nodes[{i}]");
        let o = Obj::new(input, n, &path)?;
        // `pact` is only looked at (not used): an iteration cannot be imported.
        let pact = o.map().get("pact").and_then(Value::as_str);
        if o.map().contains_key("step_function") || pact == Some("IterativeDataStream") {
            return Err(o.err(
                "pact",
                "a stream iteration (IterativeDataStream); lbscope does not model iterations (Flink 2 removed them)",
            ));
        }
        let id = match o.get("id") {
            Some(Value::Number(x)) => x
                .as_i64()
                .ok_or_else(|| o.err("id", format!("{x} is not a whole number")))?,
            Some(other) => {
                return Err(o.err(
                    "id",
                    format!("expected a number, found {}", super::json::kind_of(other)),
                ))
            }
            None => return Err(o.err("id", "missing")),
        };
        let name = match o.str("type")? {
            Some(t) => t,
            None => o
                .str("contents")?
                .ok_or_else(|| o.err("type", "missing (the operator name)"))?,
        };
        let p = o
            .u64("parallelism")?
            .ok_or_else(|| o.err("parallelism", "missing"))?;
        let parallelism = u32::try_from(p)
            .ok()
            .filter(|p| *p >= 1)
            .ok_or_else(|| o.err("parallelism", format!("{p} is not a parallelism of 1 or more")))?;
        let mut inputs = Vec::new();
        if let Some(preds) = o.arr("predecessors")? {
            if preds.len() > MAX_INPUTS {
                return Err(ImportError::too_large(
                    input,
                    format!("{path}.predecessors: more than {} inputs", thousands(MAX_INPUTS)),
                ));
            }
            for (k, p) in preds.iter().enumerate() {
                let po = Obj::new(input, p, &format!("{path}.predecessors[{k}]"))?;
                let pid = match po.get("id") {
                    Some(Value::Number(x)) => x
                        .as_i64()
                        .ok_or_else(|| po.err("id", format!("{x} is not a whole number")))?,
                    Some(other) => {
                        return Err(po.err(
                            "id",
                            format!("expected a number, found {}", super::json::kind_of(other)),
                        ))
                    }
                    None => return Err(po.err("id", "missing")),
                };
                let s = po.req_str("ship_strategy")?;
                inputs.push((pid, s.to_string()));
                unused.extend(po.unused().into_iter().map(|f| format!("predecessors[].{f}")));
            }
        }
        unused.extend(o.unused().into_iter().map(|f| format!("nodes[].{f}")));
        ops.push(Operator {
            id,
            name: name.to_string(),
            parallelism,
            inputs,
            path,
        });
    }
    if ops.is_empty() {
        return Err(top.err("nodes", "the plan has no operators"));
    }
    Ok((ops, unused))
}

/// Whether a ship strategy is Flink's forward partitioner (`ForwardPartitioner`
/// and the adaptive scheduler's forward variants all print `FORWARD`).
pub fn is_forward(strategy: &str) -> bool {
    strategy.trim().eq_ignore_ascii_case("FORWARD")
}

/// Longest chained name composed, in bytes (names are cut further when imported;
/// the cap keeps a chain of 100,000 operators linear).
const MAX_CHAINED_NAME_BYTES: usize = 8 * 1024;

fn cap_name(mut s: String) -> String {
    if s.len() > MAX_CHAINED_NAME_BYTES {
        let mut cut = MAX_CHAINED_NAME_BYTES;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// Apply Flink's chaining to the operators: read the stream edges, check the
/// graph is acyclic, build the chains as `createChain` does, then assemble the
/// job vertices and edges.
pub fn chain(input: &str, ops: &[Operator]) -> Result<JobGraph, ImportError> {
    let mut sg = stream_graph(input, ops)?;
    check_acyclic(input, ops, &sg)?;
    // Outputs in the order of their consumers' ids (then the input position).
    for outs in &mut sg.out_edges {
        outs.stable_sort_by_key(|&e| (ops[sg.edges[e].dst].id, e));
    }
    let mut chains = Chains {
        ops,
        sg: &sg,
        built: vec![false; ops.len()],
        names: vec![String::new(); ops.len()],
        order: Vec::new(),
        transitive: BTreeMap::new(),
    };
    let mut sources: Vec<usize> = (0..ops.len()).filter(|&i| sg.in_edges[i].is_empty()).collect();
    sources.stable_sort_by_key(|&i| ops[i].id);
    for s in sources {
        if !chains.built[s] {
            chains.create_from(s);
        }
    }
    Ok(chains.job_graph())
}

/// One stream edge: (source, target, strategy).
struct Edge {
    src: usize,
    dst: usize,
    strategy: String,
}

/// The operators' stream edges, with each operator's in- and out-edges
/// (in-edges in `predecessors` order).
struct StreamGraph {
    edges: Vec<Edge>,
    in_edges: Vec<Vec<usize>>,
    out_edges: Vec<Vec<usize>>,
}

/// Read the stream edges: every predecessor id names an operator, and a
/// FORWARD edge joins equal parallelisms.
fn stream_graph(input: &str, ops: &[Operator]) -> Result<StreamGraph, ImportError> {
    let mut index: BTreeMap<i64, usize> = BTreeMap::new();
    for (i, o) in ops.iter().enumerate() {
        if let Some(first) = index.insert(o.id, i) {
            return Err(ImportError::bad(
                input,
                format!("{}.id: {} is also the id of {}", o.path, o.id, ops[first].path),
            ));
        }
    }
    let mut sg = StreamGraph {
        edges: Vec::new(),
        in_edges: vec![Vec::new(); ops.len()],
        out_edges: vec![Vec::new(); ops.len()],
    };
    for (t, o) in ops.iter().enumerate() {
        for (k, (pid, s)) in o.inputs.iter().enumerate() {
            let src = *index.get(pid).ok_or_else(|| {
                ImportError::bad(
                    input,
                    format!(
                        "{}.predecessors[{k}].id: no operator has id {pid} (is the text cut short?)",
                        o.path
                    ),
                )
            })?;
            if is_forward(s) && ops[src].parallelism != o.parallelism {
                return Err(ImportError::bad(
                    input,
                    format!(
                        "{}.predecessors[{k}]: a FORWARD edge from {} (parallelism {}) to {} (parallelism {}); \
                         Flink refuses forward partitioning between different parallelisms",
                        o.path, ops[src].name, ops[src].parallelism, o.name, o.parallelism
                    ),
                ));
            }
            sg.in_edges[t].push(sg.edges.len());
            sg.out_edges[src].push(sg.edges.len());
            sg.edges.push(Edge {
                src,
                dst: t,
                strategy: s.clone(),
            });
        }
    }
    Ok(sg)
}

/// The stream graph must be acyclic (Kahn's algorithm).
fn check_acyclic(input: &str, ops: &[Operator], sg: &StreamGraph) -> Result<(), ImportError> {
    let mut indeg: Vec<usize> = sg.in_edges.iter().map(Vec::len).collect();
    let mut queue: Vec<usize> = (0..ops.len()).filter(|&i| indeg[i] == 0).collect();
    let mut seen = 0;
    while let Some(i) = queue.pop() {
        seen += 1;
        for &e in &sg.out_edges[i] {
            let d = sg.edges[e].dst;
            indeg[d] -= 1;
            if indeg[d] == 0 {
                queue.push(d);
            }
        }
    }
    if seen == ops.len() {
        return Ok(());
    }
    let stuck = (0..ops.len()).find(|&i| indeg[i] > 0).unwrap_or(0);
    Err(ImportError::bad(
        input,
        format!(
            "{}: operator {} is on a cycle of predecessors; a stream graph without iterations has none",
            ops[stuck].path, ops[stuck].name
        ),
    ))
}

/// One `createChain` call of the iterative walk.
struct Frame {
    node: usize,
    start: usize,
    stage: u8,
    k: usize,
    acc: Vec<usize>,
    chained: Vec<usize>,
}

impl Frame {
    fn new(node: usize, start: usize) -> Frame {
        Frame {
            node,
            start,
            stage: 0,
            k: 0,
            acc: Vec::new(),
            chained: Vec::new(),
        }
    }
}

/// The chains as they are built.
struct Chains<'a> {
    ops: &'a [Operator],
    sg: &'a StreamGraph,
    /// Chain heads already built.
    built: Vec<bool>,
    /// Each node's chained name (moved to its chain's head when done).
    names: Vec<String>,
    /// Chain heads in the order `createChain` finishes them.
    order: Vec<usize>,
    /// Each head's transitive (non-chainable) outputs.
    transitive: BTreeMap<usize, Vec<usize>>,
}

impl Chains<'_> {
    /// Whether edge `e` chains (`isChainable`: one input, FORWARD, same parallelism).
    fn chainable(&self, e: usize) -> bool {
        let ed = &self.sg.edges[e];
        self.sg.in_edges[ed.dst].len() == 1
            && is_forward(&ed.strategy)
            && self.ops[ed.src].parallelism == self.ops[ed.dst].parallelism
    }

    /// `createChain` from source `s`, iteratively (a frame per call).
    fn create_from(&mut self, s: usize) {
        let mut stack = vec![Frame::new(s, s)];
        'frames: while let Some(f) = stack.last_mut() {
            let outs = &self.sg.out_edges[f.node];
            if f.stage == 0 {
                // Chainable outputs first, in the same chain.
                while f.k < outs.len() {
                    let e = outs[f.k];
                    f.k += 1;
                    if self.chainable(e) {
                        f.chained.push(self.sg.edges[e].dst);
                        let start = f.start;
                        stack.push(Frame::new(self.sg.edges[e].dst, start));
                        continue 'frames;
                    }
                }
                f.stage = 1;
                f.k = 0;
            }
            // Then the others: each one is a transitive output and starts a chain.
            while f.k < outs.len() {
                let e = outs[f.k];
                f.k += 1;
                if !self.chainable(e) {
                    f.acc.push(e);
                    let t = self.sg.edges[e].dst;
                    if !self.built[t] {
                        stack.push(Frame::new(t, t));
                        continue 'frames;
                    }
                }
            }
            let Some(f) = stack.pop() else { break };
            self.finish(f, stack.last_mut());
        }
    }

    /// A node done: name it (`createChainedName`) and close the chain at its head.
    fn finish(&mut self, f: Frame, parent: Option<&mut Frame>) {
        let own = &self.ops[f.node].name;
        // Each chained child has this node as its only input: its name moves here.
        let mut kids: Vec<String> = f
            .chained
            .iter()
            .map(|c| std::mem::take(&mut self.names[*c]))
            .collect();
        let name = match kids.len() {
            0 => own.clone(),
            1 => format!("{own} -> {}", kids.remove(0)),
            _ => format!("{own} -> ({})", kids.join(", ")),
        };
        self.names[f.node] = cap_name(name);
        if f.node == f.start {
            self.built[f.node] = true;
            self.order.push(f.node);
            self.transitive.insert(f.node, f.acc);
        } else if let Some(parent) = parent {
            // A chained child's transitive outputs follow its elder siblings' and
            // come before the parent's own non-chainable outputs.
            parent.acc.extend(f.acc);
        }
    }

    /// The job graph: one vertex per chain head, in creation order, and each
    /// head's transitive outputs as its edges.
    fn job_graph(&self) -> JobGraph {
        let vpos: BTreeMap<usize, usize> = self.order.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let mut g = JobGraph::default();
        for &head in &self.order {
            g.vertices.push(JobVertex {
                name: self.names[head].clone(),
                parallelism: self.ops[head].parallelism,
                slot_sharing_group: None,
                origin: self.ops[head].path.clone(),
            });
        }
        for &head in &self.order {
            for &e in self.transitive.get(&head).map(Vec::as_slice).unwrap_or(&[]) {
                let Some(&to) = vpos.get(&self.sg.edges[e].dst) else {
                    continue;
                };
                g.edges.push(JobEdge {
                    from: vpos[&head],
                    to,
                    strategy: self.sg.edges[e].strategy.clone(),
                });
            }
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(id: i64, name: &str, p: u32, inputs: &[(i64, &str)]) -> Operator {
        Operator {
            id,
            name: name.into(),
            parallelism: p,
            inputs: inputs.iter().map(|(i, s)| (*i, s.to_string())).collect(),
            path: format!("nodes[{id}]"),
        }
    }

    /// Derived by reading `StreamingJobGraphGenerator.isChainable`: forward edges
    /// between equal parallelisms into single-input operators chain; a rebalance,
    /// a hash or a second input breaks the chain.
    #[test]
    fn streaming_job_graph_generator_is_chainable() {
        let ops = [
            op(1, "Source: A", 2, &[]),
            op(2, "Map", 2, &[(1, "FORWARD")]),
            op(3, "Filter", 2, &[(2, "FORWARD")]),
            op(4, "Window", 4, &[(3, "HASH")]),
            op(5, "Sink: S", 4, &[(4, "FORWARD")]),
        ];
        let g = chain("p", &ops).unwrap();
        let names: Vec<&str> = g.vertices.iter().map(|v| v.name.as_str()).collect();
        // Post-order: the downstream chain's vertex is created first.
        assert_eq!(names, ["Window -> Sink: S", "Source: A -> Map -> Filter"]);
        assert_eq!(g.vertices[1].parallelism, 2);
        assert_eq!(
            g.edges,
            [JobEdge {
                from: 1,
                to: 0,
                strategy: "HASH".into()
            }]
        );
    }

    /// Derived by reading `createChainedName` and `isChainable`'s single-input
    /// rule: a fan-out of chainable outputs is named `A -> (B, C)`; a union
    /// (two inputs) starts its own vertex even on forward edges.
    #[test]
    fn streaming_job_graph_generator_create_chained_name() {
        let ops = [
            op(1, "Source: A", 3, &[]),
            op(2, "Map", 3, &[(1, "FORWARD")]),
            op(3, "Filter", 3, &[(1, "FORWARD")]),
            op(4, "Union sink", 3, &[(2, "FORWARD"), (3, "FORWARD")]),
        ];
        let g = chain("p", &ops).unwrap();
        let names: Vec<&str> = g.vertices.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["Union sink", "Source: A -> (Map, Filter)"]);
        assert_eq!(g.edges.len(), 2);
        assert!(g
            .edges
            .iter()
            .all(|e| e.from == 1 && e.to == 0 && e.strategy == "FORWARD"));
    }

    /// The stream graphs of `StreamingJobGraphGeneratorTest`, as `getExecutionPlan()`
    /// prints them, with the job vertices its assertions expect.
    mod streaming_job_graph_generator_test {
        use super::*;

        fn names(g: &JobGraph) -> Vec<&str> {
            g.vertices.iter().map(|v| v.name.as_str()).collect()
        }

        /// From `testParallelismOneNotChained`'s assertions: at parallelism 1,
        /// `fromElements -> map` and `keyBy -> map -> sink` make 2 job vertices,
        /// both of parallelism 1.
        #[test]
        fn test_parallelism_one_not_chained() {
            let ops = [
                op(1, "Source: Collection Source", 1, &[]),
                op(2, "Map", 1, &[(1, "FORWARD")]),
                op(4, "Map", 1, &[(2, "HASH")]),
                op(5, "Sink: Unnamed", 1, &[(4, "FORWARD")]),
            ];
            let g = chain("p", &ops).unwrap();
            assert_eq!(g.vertices.len(), 2);
            assert!(g.vertices.iter().all(|v| v.parallelism == 1));
            assert_eq!(
                names(&g),
                ["Map -> Sink: Unnamed", "Source: Collection Source -> Map"]
            );
        }

        /// From `testChainStartEndSetting`: `fromElements` (parallelism 1) then
        /// `CHAIN(Map -> Print)` at parallelism 2.
        #[test]
        fn test_chain_start_end_setting() {
            let ops = [
                op(1, "Source: Collection Source", 1, &[]),
                op(2, "Map", 2, &[(1, "REBALANCE")]),
                op(3, "Sink: Print to Std. Out", 2, &[(2, "FORWARD")]),
            ];
            let g = chain("p", &ops).unwrap();
            assert_eq!(
                names(&g),
                ["Map -> Sink: Print to Std. Out", "Source: Collection Source"]
            );
            assert_eq!(g.edges.len(), 1);
        }

        /// From `testResourcesForChainedSourceSink`: `CHAIN(Source -> Map -> Filter)`
        /// and, after `keyBy`, `CHAIN(Reduce -> Sink)`.
        #[test]
        fn test_resources_for_chained_source_sink() {
            let ops = [
                op(1, "Source: Custom Source", 4, &[]),
                op(2, "Map", 4, &[(1, "FORWARD")]),
                op(3, "Filter", 4, &[(2, "FORWARD")]),
                op(5, "Keyed Reduce", 4, &[(3, "HASH")]),
                op(6, "Sink: Unnamed", 4, &[(5, "FORWARD")]),
            ];
            let g = chain("p", &ops).unwrap();
            assert_eq!(
                names(&g),
                [
                    "Keyed Reduce -> Sink: Unnamed",
                    "Source: Custom Source -> Map -> Filter"
                ]
            );
        }

        /// From `testShuffleModeUndefined` (and `testShuffleModePipelined`):
        /// `source -forward-> map (parallelism 1) -rescale-> print (parallelism 2)`
        /// is 2 job vertices, the source and the map chained.
        #[test]
        fn test_shuffle_mode_undefined() {
            let ops = [
                op(1, "Source: Collection Source", 1, &[]),
                op(3, "Map", 1, &[(1, "FORWARD")]),
                op(5, "Sink: Print to Std. Out", 2, &[(3, "RESCALE")]),
            ];
            let g = chain("p", &ops).unwrap();
            assert_eq!(g.vertices.len(), 2);
            assert_eq!(names(&g)[1], "Source: Collection Source -> Map");
            assert_eq!(g.edges[0].strategy, "RESCALE");
        }

        /// From `testInputOutputFormat`: one source with two forward sinks is one
        /// job vertex.
        #[test]
        fn test_input_output_format() {
            let ops = [
                op(1, "Source: source", 1, &[]),
                op(2, "Sink: sink1", 1, &[(1, "FORWARD")]),
                op(3, "Sink: sink2", 1, &[(1, "FORWARD")]),
            ];
            let g = chain("p", &ops).unwrap();
            assert_eq!(names(&g), ["Source: source -> (Sink: sink1, Sink: sink2)"]);
            assert!(g.edges.is_empty());
        }
    }

    #[test]
    fn bad_graphs_are_named() {
        let e = chain(
            "p",
            &[op(1, "A", 1, &[(2, "FORWARD")]), op(2, "B", 1, &[(1, "HASH")])],
        )
        .unwrap_err();
        assert!(e.to_string().contains("is on a cycle"), "{e}");
        let e = chain("p", &[op(1, "A", 1, &[]), op(2, "B", 2, &[(1, "FORWARD")])]).unwrap_err();
        assert!(
            e.to_string().contains("Flink refuses forward partitioning"),
            "{e}"
        );
        let e = chain("p", &[op(1, "A", 1, &[(9, "HASH")])]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p: nodes[1].predecessors[0].id: no operator has id 9 (is the text cut short?)"
        );
    }

    #[test]
    fn a_long_chain_needs_no_deep_recursion() {
        let mut ops = vec![op(0, "S", 1, &[])];
        for i in 1..20_000 {
            ops.push(op(i, "M", 1, &[(i - 1, "FORWARD")]));
        }
        let g = chain("p", &ops).unwrap();
        assert_eq!(g.vertices.len(), 1);
        assert!(g.vertices[0].name.starts_with("S -> M -> M"));
        assert!(g.vertices[0].name.len() <= MAX_CHAINED_NAME_BYTES + 3);
    }
}
