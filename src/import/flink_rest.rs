//! Flink's REST API, as `JobPlanInfo`, `JobDetailsInfo` and `TaskManagersInfo`
//! serialise today:
//!
//! * `/jobs/:jobid/plan`: `{"plan": {"jid", "name", "type", "nodes": [{"id",
//!   "parallelism", "operator", "operator_strategy", "description", "inputs":
//!   [{"num", "id", "ship_strategy", "exchange", …}], "optimizer_properties"}]}}`:
//!   the job vertices after chaining, in job-graph order (`JsonPlanGenerator`).
//!   The `description` is the vertex's operators, HTML-escaped, one per line
//!   (`<br/>`), in `pipeline.vertex-description-mode` TREE (`+- Map`) or
//!   CASCADING (`A -> B`) form. Older releases wrote the plan as raw JSON with
//!   `optimizer_properties` an object; both are read, and the bare plan object
//!   (without the `plan` wrapper) too.
//! * `/jobs/:jobid`: the same plan plus `vertices` with each vertex's `name`,
//!   `parallelism`, `maxParallelism` and (recent releases) `slotSharingGroupId`
//!   and `slotSharingGroupName`.
//! * `/taskmanagers`: `{"taskmanagers": [{"id", "slotsNumber", "freeSlots", …}]}`.

use super::flink_plan::{JobEdge, JobGraph, JobVertex};
use super::json::Obj;
use super::{thousands, ImportError};
use crate::sort::StableSort;
use serde_json::Value;
use std::collections::BTreeMap;

/// Most job vertices read.
pub const MAX_VERTICES: usize = 100_000;
/// Most TaskManagers read.
pub const MAX_TASK_MANAGERS: usize = 100_000;

/// Undo `StringEscapeUtils.escapeHtml4` for the entities Flink's names use, and
/// turn `<br/>` into line breaks.
pub fn unescape_html(s: &str) -> String {
    let s = s.replace("<br/>", "\n");
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        // An entity is short: look for its `;` within the next 12 characters.
        let end = rest
            .char_indices()
            .take(12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let Some(end) = end else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let ent = &rest[1..end];
        let ch = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ => ent
                .strip_prefix('#')
                .and_then(|n| match n.strip_prefix('x').or_else(|| n.strip_prefix('X')) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => n.parse().ok(),
                })
                .and_then(char::from_u32),
        };
        match ch {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A vertex name from a plan node's description: the operators of a TREE
/// description (`:- `, `+- ` prefixes dropped) joined with ` -> `, or a
/// CASCADING description as it is.
pub fn name_from_description(desc: &str) -> String {
    let text = unescape_html(desc);
    let parts: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start_matches([' ', ':', '+', '-']).trim())
        .filter(|l| !l.is_empty())
        .collect();
    parts.join(" -> ")
}

/// The plan object: `{"plan": {...}}` or the plan itself.
fn plan_obj<'a>(input: &'a str, v: &'a Value) -> Result<(Obj<'a>, Option<Obj<'a>>), ImportError> {
    let top = Obj::new(input, v, "")?;
    if top.get("plan").is_some() {
        let plan = top.obj("plan")?.ok_or_else(|| top.err("plan", "missing"))?;
        Ok((plan, Some(top)))
    } else {
        Ok((top, None))
    }
}

/// Read a `/jobs/:jobid/plan` or `/jobs/:jobid` JSON: the job vertices (names from
/// `vertices` where given, else from the descriptions) and edges. Returns the
/// graph, the unused field names and the job type (`STREAMING` / `BATCH`).
pub fn parse_job(input: &str, v: &Value) -> Result<(JobGraph, Vec<String>, Option<String>), ImportError> {
    let (plan, wrapper) = plan_obj(input, v)?;
    let mut unused = Vec::new();
    let details = match &wrapper {
        Some(w) => read_details(input, w, &mut unused)?,
        None => BTreeMap::new(),
    };
    let job_type = plan.str("type")?.map(str::to_string);
    plan.touch(&["jid", "name"]);
    let nodes = plan.arr("nodes")?.ok_or_else(|| plan.err("nodes", "missing"))?;
    if nodes.len() > MAX_VERTICES {
        return Err(ImportError::too_large(
            input,
            format!(
                "the plan has {} job vertices; lbscope reads at most {}",
                thousands(nodes.len()),
                thousands(MAX_VERTICES)
            ),
        ));
    }
    if nodes.is_empty() {
        return Err(plan.err("nodes", "the plan has no job vertices"));
    }
    let mut g = JobGraph::default();
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut inputs: Vec<Vec<PlanInput>> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let path = format!("{}nodes[{i}]", if wrapper.is_some() { "plan." } else { "" });
        let o = Obj::new(input, n, &path)?;
        let id = o.req_str("id")?.to_string();
        if ids.insert(id.clone(), i).is_some() {
            return Err(o.err("id", format!("vertex {id} is listed twice")));
        }
        let (vertex, ins) = read_vertex(input, &o, &id, path, details.get(&id), &mut unused)?;
        inputs.push(ins);
        g.vertices.push(vertex);
    }
    unused.extend(plan.unused().into_iter().filter(|f| f != "type"));
    let blocking = link_inputs(input, &mut g, &ids, inputs)?;
    if blocking > 0 {
        unused.push(format!(
            "inputs[].exchange ({blocking} blocking or hybrid exchanges)"
        ));
    }
    if let Some(id) = details.keys().find(|id| !ids.contains_key(*id)) {
        return Err(ImportError::bad(
            input,
            format!("vertices: vertex {} is not in the plan", super::shorten(id, 40)),
        ));
    }
    Ok((g, unused, job_type))
}

/// Per vertex id from the job details: name, slot sharing group, parallelism.
type Detail = (Option<String>, Option<String>, Option<u64>);

/// One input of a plan node: `num`, the producing vertex's id, `ship_strategy`, `exchange`.
type PlanInput = (u64, String, String, String);

/// The job details' `vertices`: each one's name, slot sharing group (its name,
/// else `ssg-` and the id's start) and parallelism.
fn read_details(
    input: &str,
    w: &Obj<'_>,
    unused: &mut Vec<String>,
) -> Result<BTreeMap<String, Detail>, ImportError> {
    let mut details: BTreeMap<String, Detail> = BTreeMap::new();
    if let Some(vs) = w.arr("vertices")? {
        if vs.len() > MAX_VERTICES {
            return Err(ImportError::too_large(
                input,
                format!("more than {} vertices", thousands(MAX_VERTICES)),
            ));
        }
        for (i, x) in vs.iter().enumerate() {
            let o = Obj::new(input, x, &format!("vertices[{i}]"))?;
            let id = o.req_str("id")?;
            let name = o.str("name")?.map(str::to_string);
            o.touch(&["slotSharingGroupId"]);
            let ssg = match o.str("slotSharingGroupName")? {
                Some(n) if !n.is_empty() => Some(n.to_string()),
                _ => match o.get("slotSharingGroupId") {
                    Some(Value::String(s)) => Some(format!("ssg-{}", s.chars().take(8).collect::<String>())),
                    Some(other) => Some(format!("ssg-{}", super::shorten(&other.to_string(), 16))),
                    None => None,
                },
            };
            let p = o.u64("parallelism")?;
            details.insert(id.to_string(), (name, ssg, p));
            unused.extend(o.unused().into_iter().map(|f| format!("vertices[].{f}")));
        }
    }
    unused.extend(w.unused().into_iter().filter(|f| f != "plan"));
    Ok(details)
}

/// One plan node: its vertex (parallelism from the node, else the details;
/// name from the details, else the description, the operator or the id) and
/// its inputs as printed.
fn read_vertex(
    input: &str,
    o: &Obj<'_>,
    id: &str,
    path: String,
    det: Option<&Detail>,
    unused: &mut Vec<String>,
) -> Result<(JobVertex, Vec<PlanInput>), ImportError> {
    let p = match o.u64("parallelism")? {
        Some(p) => p,
        None => det
            .and_then(|d| d.2)
            .ok_or_else(|| o.err("parallelism", "missing"))?,
    };
    let parallelism = u32::try_from(p)
        .ok()
        .filter(|p| *p >= 1)
        .ok_or_else(|| o.err("parallelism", format!("{p} is not a parallelism of 1 or more")))?;
    let desc = o.str("description")?.unwrap_or("");
    let operator = o.str("operator")?.unwrap_or("");
    let name = det
        .and_then(|d| d.0.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| {
            let from_desc = name_from_description(desc);
            if !from_desc.is_empty() {
                from_desc
            } else if !operator.is_empty() {
                unescape_html(operator)
            } else {
                format!("vertex {id}")
            }
        });
    let mut ins = Vec::new();
    if let Some(list) = o.arr("inputs")? {
        for (k, x) in list.iter().enumerate() {
            let io = Obj::new(input, x, &format!("{path}.inputs[{k}]"))?;
            let from = io.req_str("id")?.to_string();
            let num = io.u64("num")?.unwrap_or(k as u64);
            let strategy = io.str("ship_strategy")?.unwrap_or("").to_string();
            let exchange = io.str("exchange")?.unwrap_or("").to_string();
            ins.push((num, from, strategy, exchange));
            unused.extend(io.unused().into_iter().map(|f| format!("inputs[].{f}")));
        }
    }
    unused.extend(o.unused().into_iter().map(|f| format!("nodes[].{f}")));
    let vertex = JobVertex {
        name,
        parallelism,
        slot_sharing_group: det.and_then(|d| d.1.clone()),
        origin: path,
    };
    Ok((vertex, ins))
}

/// The edges: each node's inputs in `num` order, every one naming a vertex and
/// a ship strategy. Returns how many exchanges are blocking or hybrid.
fn link_inputs(
    input: &str,
    g: &mut JobGraph,
    ids: &BTreeMap<String, usize>,
    inputs: Vec<Vec<PlanInput>>,
) -> Result<usize, ImportError> {
    let mut blocking = 0usize;
    for (to, mut ins) in inputs.into_iter().enumerate() {
        ins.stable_sort_by_key(|x| x.0);
        for (num, from, strategy, exchange) in ins {
            let Some(&f) = ids.get(&from) else {
                return Err(ImportError::bad(
                    input,
                    format!(
                        "{}.inputs (num {num}): no vertex has id {} (is the text cut short?)",
                        g.vertices[to].origin,
                        super::shorten(&from, 40)
                    ),
                ));
            };
            if strategy.is_empty() {
                return Err(ImportError::bad(
                    input,
                    format!("{}.inputs (num {num}): no ship_strategy", g.vertices[to].origin),
                ));
            }
            if exchange.starts_with("blocking") || exchange.starts_with("hybrid") {
                blocking += 1;
            }
            g.edges.push(JobEdge {
                from: f,
                to,
                strategy,
            });
        }
    }
    Ok(blocking)
}

/// One TaskManager of `/taskmanagers`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskManager {
    /// `id` (its resource id).
    pub id: String,
    /// `slotsNumber`.
    pub slots: u32,
}

/// Read a `/taskmanagers` JSON.
pub fn parse_task_managers(input: &str, v: &Value) -> Result<(Vec<TaskManager>, Vec<String>), ImportError> {
    let top = Obj::new(input, v, "")?;
    let list = top
        .arr("taskmanagers")?
        .ok_or_else(|| top.err("taskmanagers", "missing"))?;
    if list.len() > MAX_TASK_MANAGERS {
        return Err(ImportError::too_large(
            input,
            format!("more than {} TaskManagers", thousands(MAX_TASK_MANAGERS)),
        ));
    }
    let mut unused = top.unused();
    let mut out = Vec::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        let o = Obj::new(input, x, &format!("taskmanagers[{i}]"))?;
        let id = o.str("id")?.unwrap_or("").to_string();
        let s = o
            .u64("slotsNumber")?
            .ok_or_else(|| o.err("slotsNumber", "missing"))?;
        let slots = u32::try_from(s).map_err(|_| o.err("slotsNumber", format!("{s} is too many")))?;
        unused.extend(o.unused().into_iter().map(|f| format!("taskmanagers[].{f}")));
        out.push(TaskManager { id, slots });
    }
    Ok((out, unused))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_become_names() {
        assert_eq!(
            name_from_description("Source: Kafka&lt;orders&gt;<br/>+- Map<br/>   +- Sink: Print<br/>"),
            "Source: Kafka<orders> -> Map -> Sink: Print"
        );
        assert_eq!(name_from_description("Source: A -&gt; Map"), "Source: A -> Map");
        assert_eq!(
            unescape_html("a &amp; b &#92; &#x41; &bogus; &"),
            "a & b \\ A &bogus; &"
        );
        assert_eq!(
            unescape_html("&ééééééééééé;&#999999999;"),
            "&ééééééééééé;&#999999999;"
        );
    }

    #[test]
    fn job_details_give_names_and_slot_sharing_groups() {
        let v: Value = serde_json::from_str(
            r#"{"jid": "j", "name": "job", "vertices": [
                 {"id": "a1", "name": "Source: A -> Map", "parallelism": 2, "slotSharingGroupId": "0123456789abcdef"},
                 {"id": "b2", "name": "Sink: B", "parallelism": 1, "slotSharingGroupName": "sinks"}],
               "plan": {"jid": "j", "name": "job", "type": "STREAMING", "nodes": [
                 {"id": "a1", "parallelism": 2, "operator": "", "description": "Source: A<br/>+- Map<br/>"},
                 {"id": "b2", "parallelism": 1, "operator": "", "description": "Sink: B<br/>",
                  "inputs": [{"num": 0, "id": "a1", "ship_strategy": "REBALANCE", "exchange": "pipelined_bounded"}]}]}}"#,
        )
        .unwrap();
        let (g, _, ty) = parse_job("d", &v).unwrap();
        assert_eq!(ty.as_deref(), Some("STREAMING"));
        assert_eq!(g.vertices[0].name, "Source: A -> Map");
        assert_eq!(g.vertices[0].slot_sharing_group.as_deref(), Some("ssg-01234567"));
        assert_eq!(g.vertices[1].slot_sharing_group.as_deref(), Some("sinks"));
        assert_eq!(
            g.edges,
            [JobEdge {
                from: 0,
                to: 1,
                strategy: "REBALANCE".into()
            }]
        );
    }
}
