//! What must hold after every action: each slot request sits in at most one slot
//! and the slot says so; while the job runs, every subtask is in exactly one
//! request (the adaptive scheduler may run a vertex at 1 up to its max
//! parallelism, within its resource requirements), no
//! request holds two subtasks of one vertex or mixes slot sharing
//! groups, co-located subtasks share their request, and every request is placed
//! on a running TaskManager.

use super::{JobStatus, Sim};
use crate::engine::Engine;
use std::collections::BTreeSet;

/// `Err` names the first broken invariant.
pub fn check(s: &Sim) -> Result<(), String> {
    for (r, p) in s.placement().iter().enumerate() {
        if let Some(a) = p {
            let tm = s
                .task_managers()
                .get(a.tm as usize)
                .ok_or_else(|| format!("request {r} is on unknown TaskManager {}", a.tm))?;
            if tm.slots.get(a.slot as usize) != Some(&Some(r as u32)) {
                return Err(format!(
                    "request {r} is placed in {}/{} but the slot does not hold it",
                    tm.name, a.slot
                ));
            }
        }
    }
    for (t, tm) in s.task_managers().iter().enumerate() {
        for (i, slot) in tm.slots.iter().enumerate() {
            if let Some(r) = slot {
                let here = s.placement().get(*r as usize).copied().flatten();
                if here.is_none_or(|a| a.tm as usize != t || a.slot as usize != i) {
                    return Err(format!(
                        "slot {}/{i} holds request {r}, which is placed elsewhere",
                        tm.name
                    ));
                }
            }
        }
    }
    if s.status() != JobStatus::Running {
        return Ok(());
    }
    let (Some(job), Some(plan)) = (s.job(), s.plan()) else {
        return Err("the job runs without a job graph or a plan".into());
    };
    let mut seen = BTreeSet::new();
    for (r, req) in plan.requests.iter().enumerate() {
        let mut vertices = BTreeSet::new();
        for st in &req.subtasks {
            if !seen.insert((st.vertex, st.subtask)) {
                return Err(format!("subtask {}#{} is in two requests", st.vertex, st.subtask));
            }
            if !vertices.insert(st.vertex) {
                return Err(format!("request {r} holds two subtasks of vertex {}", st.vertex));
            }
            if plan.request_of[st.vertex as usize][st.subtask as usize] != r as u32 {
                return Err(format!(
                    "subtask {}#{} is not indexed to request {r}",
                    st.vertex, st.subtask
                ));
            }
            if job.vertices[st.vertex as usize].slot_sharing_group != req.group {
                return Err(format!("request {r} mixes slot sharing groups"));
            }
        }
    }
    // The default scheduler runs every vertex at its parallelism. The adaptive
    // one runs each at 1 up to its upper bound, following the slots it has; the
    // upper bound may be raised above the job graph's parallelism up to the max
    // parallelism (`DefaultVertexParallelismStore.applyJobResourceRequirements`
    // makes the upper bound the vertex's parallelism, and only the max
    // parallelism limits it, as `JobResourceRequirements.validate` checks), and a
    // plan made before the bounds were lowered keeps running until the rescale.
    let adaptive = s.config().scheduler == super::config::SchedulerType::Adaptive;
    for (v, vertex) in job.vertices.iter().enumerate() {
        let runs = plan.request_of.get(v).map_or(0, |r| r.len() as u32);
        if adaptive {
            let max = super::key_group_range_assignment::compute_default_max_parallelism(vertex.parallelism);
            if !(1..=max).contains(&runs) {
                return Err(format!(
                    "vertex {} runs {runs} subtasks of max parallelism {max}",
                    vertex.name
                ));
            }
        } else if runs != vertex.parallelism {
            return Err(format!(
                "vertex {} runs {runs} subtasks of parallelism {}",
                vertex.name, vertex.parallelism
            ));
        }
    }
    let planned: usize = plan.request_of.iter().map(Vec::len).sum();
    if seen.len() != planned {
        return Err(format!(
            "{} of {planned} planned subtasks are in requests",
            seen.len()
        ));
    }
    for c in 0..job.co_location_groups.len() {
        let members: Vec<usize> = (0..job.vertices.len())
            .filter(|&v| job.vertices[v].co_location_group == Some(c))
            .collect();
        for w in members.windows(2) {
            let (a, b) = (&plan.request_of[w[0]], &plan.request_of[w[1]]);
            if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
                return Err(format!("co-location broken at subtask {i}"));
            }
        }
    }
    for (r, p) in s.placement().iter().enumerate() {
        let a = p.ok_or_else(|| format!("request {r} is not placed while the job runs"))?;
        if !s.task_managers()[a.tm as usize].is_running() {
            return Err(format!("request {r} is on a TaskManager that is not running"));
        }
    }
    Ok(())
}
