//! Partitions → tasks: each source partition feeds exactly one task of each
//! sub-topology that reads it (`0_3` = sub-topology 0, partition 3); stateful
//! tasks write their own changelog partition.

use super::common::{hl, hover, num, task_color};
use crate::engine::kstreams::View;
use crate::ui::store::{StoreCtx, SubjectKind};
use yew::prelude::*;

/// The partitions → tasks picture.
pub fn topology_view(store: &StoreCtx, view: &View) -> Html {
    let Some(topology) = &view.topology else {
        return html! { <p class="hint">{"No topology is defined yet: no tasks exist."}</p> };
    };
    let subs = topology.subtopologies.iter().map(|sub| {
        let tasks: Vec<_> = view.tasks.iter().filter(|t| t.id.subtopology == sub.id).collect();
        let stores = if sub.stores.is_empty() {
            html! { <span class="ks-pill">{"stateless"}</span> }
        } else {
            html! {
                <>
                    { for sub.stores.iter().map(|s| html!{ <span class="ks-pill store" title="state store">{"store "}<code>{s}</code></span> }) }
                    { if sub.changelogs.is_empty() { html!{ <span class="ks-pill">{"no changelog"}</span> } } else { html!{} } }
                </>
            }
        };
        let cols = tasks.iter().map(|t| {
            let id = t.id.to_string();
            let h = hover(store, SubjectKind::Task, id.clone());
            let sources = t.source_partitions.iter().map(|tp| {
                let end = view
                    .topics
                    .iter()
                    .find(|x| x.name == tp.topic)
                    .and_then(|x| x.end_offsets.get(tp.partition as usize))
                    .copied()
                    .unwrap_or(0);
                html! {
                    <div class="ks-partition" data-partition={tp.to_string()}
                         aria-label={format!("source partition {tp}, {} records", num(end))}>
                        <code>{tp.to_string()}</code>
                        <span class="ks-sub">{format!("{} rec", num(end))}</span>
                    </div>
                }
            });
            let changelogs = t.changelog_partitions.iter().map(|tp| html! {
                <div class="ks-changelog" aria-label={format!("changelog partition {tp}")} title="changelog partition: the store's replicated backup">
                    <code>{tp.to_string()}</code>
                </div>
            });
            let owner = match &t.active {
                Some(a) => html! { <span class="ks-owner">{"→ "}{a}{ if t.restoring { " (restoring)" } else { "" } }</span> },
                None => html! { <span class="ks-owner unassigned">{"unassigned"}</span> },
            };
            let standbys = if t.standbys.is_empty() && t.warmups.is_empty() {
                html! {}
            } else {
                html! {
                    <span class="ks-standbys">
                        { for t.standbys.iter().map(|s| html!{ <span class="ks-mini standby" title="standby">{"S "}{s}</span> }) }
                        { for t.warmups.iter().map(|s| html!{ <span class="ks-mini warmup" title="warm-up">{"W "}{s}</span> }) }
                    </span>
                }
            };
            let label = format!(
                "task {id}{}: {}{}",
                if t.stateful { ", stateful" } else { ", stateless" },
                t.active.as_ref().map(|a| format!("active on {a}")).unwrap_or_else(|| "unassigned".into()),
                if t.standbys.is_empty() { String::new() } else { format!(", standbys on {}", t.standbys.join(", ")) },
            );
            html! {
                <li class="ks-col">
                    { for sources }
                    <div class="ks-arrow" aria-hidden="true">{"↓"}</div>
                    <div class={classes!("ks-task", task_color(t.id), t.stateful.then_some("stateful"), t.active.is_none().then_some("unassigned"), hl(store, SubjectKind::Task, &id))}
                         data-task={id.clone()} tabindex="0" role="group" aria-label={label}
                         onmouseenter={h.enter} onmouseleave={h.leave} onfocus={h.focus} onblur={h.blur}>
                        <strong>{id.clone()}</strong>
                        { if t.stateful { html!{ <span class="ks-db" title="stateful: has a state store" aria-hidden="true">{"⛁"}</span> } } else { html!{} } }
                    </div>
                    { owner }
                    { standbys }
                    { if t.stateful { html! { <div class="ks-arrow small" aria-hidden="true">{"↓ changelog"}</div> } } else { html!{} } }
                    { for changelogs }
                </li>
            }
        });
        html! {
            <div class="ks-subtopology">
                <h3>
                    {format!("Sub-topology {} ", sub.id)}
                    <span class="ks-sub">{"reads "}</span>
                    { for sub.sources.iter().map(|s| html!{ <code class="ks-topic">{s}</code> }) }
                    {" "}{ stores }
                    <span class="ks-sub">{format!(" · {} tasks = max source partitions", tasks.len())}</span>
                </h3>
                <ol class="ks-flow" aria-label={format!("partitions to tasks of sub-topology {}", sub.id)}>{ for cols }</ol>
            </div>
        }
    });
    html! { <>{ for subs }</> }
}
