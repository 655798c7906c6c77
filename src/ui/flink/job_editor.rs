//! The job-graph editor: vertices (name, parallelism, slot sharing group,
//! co-location group), edges with a distribution pattern, and the doc's presets.
//! It only edits a draft; the engine validates the job when the tab defines it.

use crate::engine::flink::job_graph::{DistributionPattern, EdgeSpec, JobSpec, VertexSpec};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
struct VDraft {
    name: String,
    parallelism: String,
    ssg: String,
    colo: String,
}

#[derive(Clone, Debug, PartialEq)]
struct EDraft {
    from: String,
    to: String,
    pattern: DistributionPattern,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Draft {
    vertices: Vec<VDraft>,
    edges: Vec<EDraft>,
}

impl Draft {
    fn from_spec(spec: &JobSpec) -> Draft {
        Draft {
            vertices: spec
                .vertices
                .iter()
                .map(|v| VDraft {
                    name: v.name.clone(),
                    parallelism: v.parallelism.to_string(),
                    ssg: v.slot_sharing_group.clone().unwrap_or_default(),
                    colo: v.co_location_group.clone().unwrap_or_default(),
                })
                .collect(),
            edges: spec
                .edges
                .iter()
                .map(|e| EDraft {
                    from: e.from.clone(),
                    to: e.to.clone(),
                    pattern: e.pattern,
                })
                .collect(),
        }
    }

    /// The spec, or why a field is not a number (the engine checks everything else).
    fn to_spec(&self) -> Result<JobSpec, String> {
        let opt = |s: &str| {
            let t = s.trim();
            (!t.is_empty()).then(|| t.to_string())
        };
        let mut vertices = Vec::new();
        for v in &self.vertices {
            let parallelism = v.parallelism.trim().parse::<u32>().map_err(|_| {
                format!(
                    "the parallelism of vertex {:?} must be a whole number (got {:?})",
                    v.name, v.parallelism
                )
            })?;
            vertices.push(VertexSpec {
                name: v.name.trim().to_string(),
                parallelism,
                slot_sharing_group: opt(&v.ssg),
                co_location_group: opt(&v.colo),
            });
        }
        let edges = self
            .edges
            .iter()
            .map(|e| EdgeSpec::new(&e.from, &e.to, e.pattern))
            .collect();
        Ok(JobSpec { vertices, edges })
    }
}

/// The doc's figure (a)/(f) job: JV-A (6) → hash → JV-B (3).
pub fn figure_a() -> JobSpec {
    JobSpec {
        vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
        edges: vec![EdgeSpec::new("JV-A", "JV-B", DistributionPattern::Hash)],
    }
}

/// The doc's figure (c) job: parallelism 1, 4, 4, 2, 3 in a hash chain.
pub fn figure_c() -> JobSpec {
    let names = ["JV-A", "JV-B", "JV-C", "JV-D", "JV-E"];
    let par = [1, 4, 4, 2, 3];
    JobSpec {
        vertices: names
            .iter()
            .zip(par)
            .map(|(n, p)| VertexSpec::new(n, p))
            .collect(),
        edges: names
            .windows(2)
            .map(|w| EdgeSpec::new(w[0], w[1], DistributionPattern::Hash))
            .collect(),
    }
}

const PATTERNS: [DistributionPattern; 3] = [
    DistributionPattern::Forward,
    DistributionPattern::Rescale,
    DistributionPattern::Hash,
];

fn pattern_of(s: &str) -> DistributionPattern {
    PATTERNS
        .iter()
        .copied()
        .find(|p| p.name() == s)
        .unwrap_or(DistributionPattern::Hash)
}

/// Editor properties.
#[derive(Properties, Clone, PartialEq)]
pub struct EditorProps {
    /// The engine's current job, if any.
    pub spec: Option<JobSpec>,
    /// Define (and schedule) this job.
    pub on_define: Callback<JobSpec>,
    /// Define a preset job on the doc's cluster: (job, TaskManagers, slots each).
    pub on_preset: Callback<(JobSpec, u32, u32)>,
    /// Tell the user something is not a number.
    pub on_error: Callback<String>,
}

/// The job-graph editor.
#[component]
pub fn JobEditor(p: &EditorProps) -> Html {
    let draft = use_state(|| p.spec.as_ref().map(Draft::from_spec).unwrap_or_default());
    {
        // The engine's job changed (defined, undone, opened): start from it again.
        let draft = draft.clone();
        use_effect_with(p.spec.clone(), move |spec| {
            if let Some(spec) = spec {
                draft.set(Draft::from_spec(spec));
            }
        });
    }

    let edit_v = |i: usize, f: fn(&mut Draft, usize, String)| {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut d = (*draft).clone();
            if i < d.vertices.len() {
                f(&mut d, i, input.value());
                draft.set(d);
            }
        })
    };
    let edit_e = |i: usize, f: fn(&mut EDraft, String)| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            let mut d = (*draft).clone();
            if let Some(edge) = d.edges.get_mut(i) {
                f(edge, sel.value());
                draft.set(d);
            }
        })
    };
    let update = |f: Box<dyn Fn(&mut Draft)>| {
        let draft = draft.clone();
        Callback::from(move |_: MouseEvent| {
            let mut d = (*draft).clone();
            f(&mut d);
            draft.set(d);
        })
    };

    let names: Vec<String> = draft.vertices.iter().map(|v| v.name.clone()).collect();
    let vertex_rows = draft.vertices.iter().enumerate().map(|(i, v)| {
        let remove = update(Box::new(move |d: &mut Draft| {
            if i < d.vertices.len() {
                d.vertices.remove(i);
            }
        }));
        let label = if v.name.is_empty() { format!("vertex {}", i + 1) } else { v.name.clone() };
        html! {
            <tr data-vertex={v.name.clone()}>
                <td><input class="v-name" value={v.name.clone()} aria-label={format!("Name of {label}")}
                    oninput={edit_v(i, |d, i, val| {
                        // Edges follow a renamed vertex.
                        let old = std::mem::replace(&mut d.vertices[i].name, val.clone());
                        for e in &mut d.edges {
                            if e.from == old { e.from = val.clone(); }
                            if e.to == old { e.to = val.clone(); }
                        }
                    })} /></td>
                <td><input class="v-par" type="number" min="1" inputmode="numeric" value={v.parallelism.clone()}
                    aria-label={format!("Parallelism of {label}")}
                    oninput={edit_v(i, |d, i, val| d.vertices[i].parallelism = val)} /></td>
                <td><input class="v-ssg" value={v.ssg.clone()} placeholder="default" aria-label={format!("Slot sharing group of {label}")}
                    oninput={edit_v(i, |d, i, val| d.vertices[i].ssg = val)} /></td>
                <td><input class="v-colo" value={v.colo.clone()} placeholder="—" aria-label={format!("Co-location group of {label}")}
                    oninput={edit_v(i, |d, i, val| d.vertices[i].colo = val)} /></td>
                <td><button class="small icon" onclick={remove} aria-label={format!("Remove {label}")} title="Remove vertex">{"×"}</button></td>
            </tr>
        }
    });
    let options = |selected: &str| {
        let mut opts: Vec<Html> = names
            .iter()
            .map(|n| html! { <option value={n.clone()} selected={n == selected}>{n.clone()}</option> })
            .collect();
        if !names.iter().any(|n| n == selected) {
            opts.push(html! { <option value={selected.to_string()} selected=true>{format!("{selected} (unknown)")}</option> });
        }
        opts
    };
    let edge_rows = draft.edges.iter().enumerate().map(|(i, e)| {
        let remove = update(Box::new(move |d: &mut Draft| {
            if i < d.edges.len() {
                d.edges.remove(i);
            }
        }));
        let label = format!("edge {} → {}", e.from, e.to);
        html! {
            <tr>
                <td><select class="e-from" aria-label={format!("Producer of {label}")} onchange={edit_e(i, |e, v| e.from = v)}>{ for options(&e.from) }</select></td>
                <td aria-hidden="true">{"→"}</td>
                <td><select class="e-to" aria-label={format!("Consumer of {label}")} onchange={edit_e(i, |e, v| e.to = v)}>{ for options(&e.to) }</select></td>
                <td><select class="e-pattern" aria-label={format!("Pattern of {label}")} onchange={edit_e(i, |e, v| e.pattern = pattern_of(&v))}>
                    { for PATTERNS.iter().map(|p| html!{ <option value={p.name()} selected={*p == e.pattern}>{p.name()}</option> }) }
                </select></td>
                <td><button class="small icon" onclick={remove} aria-label={format!("Remove {label}")} title="Remove edge">{"×"}</button></td>
            </tr>
        }
    });

    let add_vertex = update(Box::new(|d: &mut Draft| {
        let mut n = d.vertices.len();
        let name = loop {
            let c = format!("JV-{}", (b'A' + (n % 26) as u8) as char);
            let c = if n >= 26 { format!("{c}{}", n / 26) } else { c };
            if !d.vertices.iter().any(|v| v.name == c) {
                break c;
            }
            n += 1;
        };
        d.vertices.push(VDraft {
            name,
            parallelism: "2".into(),
            ssg: String::new(),
            colo: String::new(),
        });
    }));
    let add_edge = update(Box::new(|d: &mut Draft| {
        let n = d.vertices.len();
        let from = d
            .vertices
            .get(n.saturating_sub(2))
            .map(|v| v.name.clone())
            .unwrap_or_default();
        let to = d.vertices.last().map(|v| v.name.clone()).unwrap_or_default();
        d.edges.push(EDraft {
            from,
            to,
            pattern: DistributionPattern::Hash,
        });
    }));
    let define = {
        let draft = draft.clone();
        let on_define = p.on_define.clone();
        let on_error = p.on_error.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match draft.to_spec() {
                Ok(spec) => on_define.emit(spec),
                Err(msg) => on_error.emit(msg),
            }
        })
    };
    let preset = |spec: JobSpec, tms: u32, slots: u32| {
        let on_preset = p.on_preset.clone();
        Callback::from(move |_: MouseEvent| on_preset.emit((spec.clone(), tms, slots)))
    };
    let revert = {
        let draft = draft.clone();
        let spec = p.spec.clone();
        Callback::from(move |_: MouseEvent| {
            draft.set(spec.as_ref().map(Draft::from_spec).unwrap_or_default())
        })
    };
    let dirty = p.spec.as_ref().map(Draft::from_spec).unwrap_or_default() != *draft;
    // The tables stay open once the learner opened them (an edit that brings the
    // draft back to the engine's job must not fold them away under the cursor).
    let opened = use_state(|| false);
    let on_toggle = {
        let opened = opened.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::Element = e.target_unchecked_into();
            opened.set(details.has_attribute("open"));
        })
    };

    html! {
        <form class="job-editor" onsubmit={define} aria-label="Job graph" novalidate=true>
            <div class="presets" role="group" aria-label="Preset jobs">
                <button type="button" class="preset" data-preset="a" onclick={preset(figure_a(), 3, 2)}
                    title="JV-A (6) → hash → JV-B (3) on 3 TaskManagers × 2 slots, as in the doc's figures (a) and (f)">{"Figure (a)/(f): 6 → 3"}</button>
                <button type="button" class="preset" data-preset="c" onclick={preset(figure_c(), 2, 2)}
                    title="Five vertices with parallelism 1, 4, 4, 2, 3 in a hash chain on 2 TaskManagers × 2 slots, as in figure (c)">{"Figure (c): 1,4,4,2,3"}</button>
            </div>
            <details class="sub job-tables" open={dirty || *opened} ontoggle={on_toggle}>
            <summary>{ format!("Edit the job: {} vertices, {} edges", draft.vertices.len(), draft.edges.len()) }</summary>
            <div class="table-scroll">
                <table class="vertices">
                    <caption>{"Vertices"}</caption>
                    <thead><tr><th scope="col">{"Name"}</th><th scope="col">{"Parallelism"}</th><th scope="col">{"Slot sharing"}</th><th scope="col">{"Co-location"}</th><th><span class="sr-only">{"Remove"}</span></th></tr></thead>
                    <tbody>{ for vertex_rows }</tbody>
                </table>
            </div>
            <button type="button" class="small" onclick={add_vertex}>{"+ vertex"}</button>
            <div class="table-scroll">
                <table class="edges">
                    <caption>{"Edges"}</caption>
                    <tbody>{ for edge_rows }</tbody>
                </table>
            </div>
            <button type="button" class="small" onclick={add_edge} disabled={names.is_empty()}>{"+ edge"}</button>
            <div class="editor-actions">
                <button type="submit" class="primary define-job">{"Define job & schedule"}</button>
                <button type="button" class="small" onclick={revert} disabled={!dirty}>{"Revert"}</button>
            </div>
            </details>
        </form>
    }
}
