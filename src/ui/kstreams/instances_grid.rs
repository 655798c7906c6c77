//! Instances × threads, one column per rack: each instance card lists its stream
//! threads as rows with their tasks; actives solid, standbys hatched ("S"),
//! warm-ups dotted ("W"), restoring replicas with a lag bar and the time left.

use super::common::{duration, hl, hover, num, reason_name, reason_short, role_name, task_color};
use super::last_step::Placed;
use crate::engine::kstreams::state::restore_ms;
use crate::engine::kstreams::{Action, InstanceStatus, InstanceView, Role, TaskId, View};
use crate::sort::StableSort;
use crate::ui::store::{Msg, StoreCtx, SubjectKind};
use std::collections::BTreeMap;
use yew::prelude::*;

/// Placements of the last step, keyed as in [`crate::view::kstreams_summary::placements`].
pub type Placements = BTreeMap<(TaskId, String, Role), Placed>;

fn act(store: &StoreCtx, a: Action) -> Callback<MouseEvent> {
    let store = store.clone();
    Callback::from(move |_| store.dispatch(Msg::act(a.clone())))
}

/// The racks-as-columns grid.
pub fn instances_grid(store: &StoreCtx, view: &View, placed: &Placements) -> Html {
    if view.instances.is_empty() {
        return html! { <p class="hint">{"No instance runs yet: add one on the left."}</p> };
    }
    let mut racks: BTreeMap<Option<&str>, Vec<&InstanceView>> = BTreeMap::new();
    for i in &view.instances {
        racks.entry(i.rack.as_deref()).or_default().push(i);
    }
    // Named racks first (sorted), then instances without client.rack.
    let mut cols: Vec<(Option<&str>, Vec<&InstanceView>)> = racks.into_iter().collect();
    cols.stable_sort_by_key(|(r, _)| (r.is_none(), r.map(str::to_string)));
    let columns = cols.into_iter().map(|(rack, insts)| {
        let title = rack
            .map(|r| format!("rack {r}"))
            .unwrap_or_else(|| "no client.rack".into());
        html! {
            <section class="ks-rack" aria-label={title.clone()} data-rack={rack.unwrap_or("").to_string()}>
                <h3>{title}</h3>
                { for insts.into_iter().map(|i| instance_card(store, view, i, placed)) }
            </section>
        }
    });
    html! { <div class="ks-racks">{ for columns }</div> }
}

fn instance_card(store: &StoreCtx, view: &View, inst: &InstanceView, placed: &Placements) -> Html {
    let name = inst.name.clone();
    let crashed = inst.status == InstanceStatus::Crashed;
    let idle = !crashed && !inst.busy;
    let h = hover(store, SubjectKind::Instance, name.clone());
    let status = if crashed {
        "crashed"
    } else if idle {
        "idle"
    } else {
        "busy"
    };
    let n_active: usize = inst.threads.iter().map(|t| t.active.len()).sum();
    let n_standby: usize = inst.threads.iter().map(|t| t.standby.len()).sum();
    let label = format!(
        "instance {name}, {status}, {} threads, {n_active} active and {n_standby} standby tasks{}",
        inst.threads.len(),
        inst.rack
            .as_ref()
            .map(|r| format!(", rack {r}"))
            .unwrap_or_default()
    );
    let pid = inst.process_id.to_string();
    let tags: Vec<String> = inst.tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let threads = inst.threads.iter().map(|t| {
        let tid = format!("{name}/T{}", t.thread);
        let thread_idle = !crashed && t.active.is_empty();
        let mut chips: Vec<Html> = Vec::new();
        for r in inst.replicas.iter().filter(|r| r.thread == t.thread) {
            chips.push(chip(store, view, &name, r.task, r.role, r.lag, r.restoring, r.local_offset, placed));
        }
        html! {
            <li class={classes!("ks-thread", thread_idle.then_some("idle"), hl(store, SubjectKind::Thread, &tid))} data-thread={tid.clone()}
                aria-label={format!("StreamThread-{} of {name}: {} active, {} standby{}", t.thread, t.active.len(), t.standby.len(), if thread_idle { ", idle" } else { "" })}>
                <span class="ks-tname" title={format!("StreamThread-{}", t.thread)}>{format!("T{}", t.thread)}</span>
                <span class="ks-chips">
                    { for chips }
                    { if thread_idle { html!{ <span class="ks-idle-tag">{"idle"}</span> } } else { html!{} } }
                </span>
            </li>
        }
    });
    let on_disk = (!inst.state_dir_only.is_empty()).then(|| {
        html! {
            <div class="ks-disk" title="state directory: local copies of stores this instance no longer runs">
                <span class="ks-sub">{"state on disk: "}</span>
                { for inst.state_dir_only.iter().map(|t| html!{ <span class={classes!("ks-ghost", hl(store, SubjectKind::Task, &t.to_string()))} data-task-disk={t.to_string()}>{t.to_string()}</span> }) }
            </div>
        }
    });
    // One control per card: the instance's actions sit in a menu, so a screen of
    // instances stays calm; a crashed instance shows its Restart directly.
    let thread_removals = inst.threads.iter().filter(|_| !crashed).map(|t| {
        let label = format!("Remove StreamThread-{} of {name}", t.thread);
        html! {
            <button aria-label={label.clone()} title={label} data-controls="threads"
                    onclick={act(store, Action::RemoveThread { instance: name.clone(), thread: Some(t.thread) })}>
                {format!("Remove T{}", t.thread)}
            </button>
        }
    });
    let menu = html! {
        <details class="ks-menu">
            <summary aria-label={format!("Actions for {name}")} title={format!("Actions for {name}")}>{"Actions"}</summary>
            <div class="ks-menu-list">
                if crashed {
                    <button onclick={act(store, Action::RemoveInstance { name: name.clone() })} aria-label={format!("Remove {name}")}>{"Remove"}</button>
                } else {
                    <button class="danger" onclick={act(store, Action::CrashInstance { name: name.clone() })} aria-label={format!("Crash {name}")} title="Crash: leaves the group, state stays on disk">{"Crash"}</button>
                    <button data-controls="threads" onclick={act(store, Action::AddThread { instance: name.clone() })} title="KafkaStreams.addStreamThread()">{"+ thread"}<span class="visually-hidden">{ format!(" to {name}") }</span></button>
                    <button data-controls="threads" onclick={act(store, Action::RemoveThread { instance: name.clone(), thread: None })} title="KafkaStreams.removeStreamThread()">{"− thread"}<span class="visually-hidden">{ format!(" of {name}") }</span></button>
                    { for thread_removals }
                    <button onclick={act(store, Action::RemoveInstance { name: name.clone() })} aria-label={format!("Remove {name}")} title="Clean shutdown: state is deleted">{"Remove"}</button>
                }
            </div>
        </details>
    };
    let buttons = html! {
        <>
            if crashed {
                <button onclick={act(store, Action::RestartInstance { name: name.clone() })} aria-label={format!("Restart {name}")}>{"Restart"}</button>
            }
            { menu }
        </>
    };
    html! {
        <article class={classes!("ks-instance", status, hl(store, SubjectKind::Instance, &name))}
                 data-instance={name.clone()} data-status={status} tabindex="0" aria-label={label}
                 onmouseenter={h.enter} onmouseleave={h.leave} onfocus={h.focus} onblur={h.blur}>
            <header>
                <strong class="ks-iname">{name.clone()}</strong>
                <span class={classes!("ks-badge", status)}>{status.to_uppercase()}</span>
                <span class="ks-sub" title={format!("process id {pid} (the assignor orders clients by it)")}>
                    {format!("pid {}…", &pid[..pid.len().min(8)])}
                    { inst.order.map(|o| format!(" · #{}", o + 1)).unwrap_or_default() }
                </span>
                if !tags.is_empty() { <span class="ks-sub">{tags.join(" ")}</span> }
            </header>
            if inst.threads.is_empty() {
                <p class="hint">{"No stream thread: this instance cannot run tasks."}</p>
            } else {
                <ul class="ks-threads">{ for threads }</ul>
            }
            { for on_disk }
            <footer class="ks-actions">{ buttons }</footer>
        </article>
    }
}

#[allow(clippy::too_many_arguments)]
fn chip(
    store: &StoreCtx,
    view: &View,
    inst: &str,
    task: TaskId,
    role: Role,
    lag: u64,
    restoring: bool,
    local: u64,
    placed: &Placements,
) -> Html {
    let id = task.to_string();
    let h = hover(store, SubjectKind::Task, id.clone());
    let p = placed.get(&(task, inst.to_string(), role));
    let moved = p.is_some_and(|p| role != Role::Active || p.previous.as_deref() != Some(inst));
    let mark = match role {
        Role::Active => "A",
        Role::Standby => "S",
        Role::WarmUp => "W",
    };
    let role_words = match role {
        Role::Active => "active",
        Role::Standby => "standby",
        Role::WarmUp => "warm-up",
    };
    let rate = view.config.restore_records_per_second;
    let show_lag = lag > 0 && (restoring || role != Role::Active);
    let left = restore_ms(lag, rate);
    let end = local + lag;
    let pct = if end == 0 {
        100.0
    } else {
        local as f64 * 100.0 / end as f64
    };
    let why = p
        .map(|p| {
            let from = p
                .previous
                .as_ref()
                .filter(|x| x.as_str() != inst)
                .map(|x| format!(" from {x}"))
                .unwrap_or_default();
            let s = if p.was_standby {
                ", its standby took over"
            } else {
                ""
            };
            format!("{}{from}{s}", reason_short(p.reason))
        })
        .unwrap_or_default();
    let label = format!(
        "{role_words} task {id}{}{}{}",
        if restoring { ", restoring" } else { "" },
        if show_lag {
            format!(", lag {} records, about {} to catch up", num(lag), duration(left))
        } else {
            String::new()
        },
        if why.is_empty() {
            String::new()
        } else {
            format!(", placed now: {why}")
        },
    );
    html! {
        <span class={classes!("ks-chip", role_name(role), task_color(task), restoring.then_some("restoring"), moved.then_some("moved"), hl(store, SubjectKind::Task, &id))}
              data-task={id.clone()} data-role={role_name(role)} data-instance={inst.to_string()}
              data-reason={p.map(|p| reason_name(p.reason))} data-lag={lag.to_string()}
              data-was-standby={p.filter(|p| p.was_standby).map(|_| "true")}
              tabindex="0" role="img" aria-label={label.clone()} title={label}
              onmouseenter={h.enter} onmouseleave={h.leave} onfocus={h.focus} onblur={h.blur}>
            <span class="ks-face">
                <span class="ks-mark" aria-hidden="true">{mark}</span>
                <span class="ks-tid">{id.clone()}</span>
                if moved { <span class="ks-moved" aria-hidden="true">{"↻"}</span> }
            </span>
            if show_lag {
                <span class="ks-lag" aria-hidden="true">
                    <span class="ks-lagbar"><span class="ks-lagfill" style={format!("width:{pct:.0}%")}></span></span>
                    <span class="ks-lagtxt">{format!("lag {} · ~{}", num(lag), duration(left))}</span>
                </span>
            }
        </span>
    }
}
