//! What the last step did: the action, the tasks that moved with the reason the
//! assignor gave, restores with their time, idle instances (the full log is the
//! shared event log under the tab).

use super::common::{duration, hl, hover, num, reason_name, reason_short};
use crate::engine::kstreams::{Action, Event, Reason, Role, TaskId};
use crate::engine::Narrate;
use crate::ui::store::StoreCtx;
use std::collections::BTreeMap;
use yew::prelude::*;

/// One placement of the last step.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// Why.
    pub reason: Reason,
    /// Previous active owner.
    pub previous: Option<String>,
    /// Records to replay.
    pub restore_records: u64,
    /// Estimated restore time.
    pub restore_ms: u64,
}

/// Placements made by the last applied step, by (task, instance, role).
pub fn placements(store: &StoreCtx) -> BTreeMap<(TaskId, String, Role), Placed> {
    let mut out = BTreeMap::new();
    if let Some(evs) = store.kstreams.steps().last() {
        for e in evs {
            if let Event::TaskAssigned {
                task,
                instance,
                role,
                reason,
                previous,
                restore_records,
                restore_ms,
                ..
            } = e
            {
                out.insert(
                    (*task, instance.clone(), *role),
                    Placed {
                        reason: *reason,
                        previous: previous.clone(),
                        restore_records: *restore_records,
                        restore_ms: *restore_ms,
                    },
                );
            }
        }
    }
    out
}

fn action_text(a: &Action) -> String {
    match a {
        Action::DefineTopic {
            topic, partitions, ..
        } => format!("Created topic {topic} ({partitions} partitions)"),
        Action::DefineTopology { .. } => "Defined the topology".into(),
        Action::AddInstance { name, .. } => format!("Started instance {name}"),
        Action::RemoveInstance { name } => format!("Shut down {name}"),
        Action::CrashInstance { name } => format!("Crashed {name}"),
        Action::RestartInstance { name } => format!("Restarted {name}"),
        Action::AddThread { instance } => format!("Added a thread to {instance}"),
        Action::RemoveThread { instance, .. } => format!("Removed a thread from {instance}"),
        Action::Produce { topic, records, .. } => format!("Produced {} records to {topic}", num(*records)),
        Action::AdvanceTime { ms } => format!("Let {} pass", duration(*ms)),
        Action::Rebalance => "Rebalanced".into(),
        Action::SetConfig { key, value } => format!("Set {key} = {value}"),
    }
}

/// The "last step" panel.
pub fn last_step(store: &StoreCtx) -> Html {
    let cursor = store.kstreams.cursor();
    let Some(evs) = store.kstreams.steps().last() else {
        return html! {
            <section class="ks-last" aria-label="Last step">
                <h2>{"Last step"}</h2>
                <p class="hint">{"Nothing yet: crash an instance, add one, or produce records."}</p>
            </section>
        };
    };
    let action = store
        .kstreams
        .log()
        .actions
        .get(cursor - 1)
        .map(action_text)
        .unwrap_or_default();
    let mut rows: Vec<Html> = Vec::new();
    for e in evs {
        match e {
            Event::InstanceCrashed { instance, active_lost, standby_lost } => rows.push(html! {
                <li class="ks-ev crash">{format!("{instance} crashed: {} active and {standby_lost} standby lost their owner", active_lost.len())}</li>
            }),
            Event::TaskAssigned { task, instance, role: Role::Active, reason, previous, restore_records, restore_ms, .. }
                if previous.as_deref() != Some(instance.as_str()) =>
            {
                let id = task.to_string();
                let h = hover(store, "task", id.clone());
                let from = previous.as_ref().map(|p| format!(" from {p}")).unwrap_or_default();
                let restore = if *restore_records > 0 {
                    format!("restores {} records in ~{}", num(*restore_records), duration(*restore_ms))
                } else {
                    "no restore needed".to_string()
                };
                rows.push(html! {
                    <li class={classes!("ks-ev", "move", hl(store, "task", &id))} data-task={id.clone()} data-reason={reason_name(*reason)}
                        tabindex="0" onmouseenter={h.enter} onmouseleave={h.leave} onfocus={h.focus} onblur={h.blur}>
                        <strong>{id.clone()}</strong>{format!("{from} → {instance}")}
                        <span class={classes!("ks-reason", reason_name(*reason))} title={reason.words()}>{reason_short(*reason)}</span>
                        <span class="ks-sub">{restore}</span>
                    </li>
                });
            }
            Event::TaskRestored { task, instance, records, restore_ms } => rows.push(html! {
                <li class="ks-ev restored" data-task={task.to_string()}>{format!("{task} on {instance} restored {} records in {} and is running", num(*records), duration(*restore_ms))}</li>
            }),
            Event::WarmupCaughtUp { task, instance, lag } => rows.push(html! {
                <li class="ks-ev">{format!("warm-up {task} on {instance} caught up (lag {})", num(*lag))}</li>
            }),
            Event::InstanceIdle { instance, threads, standbys } => rows.push(html! {
                <li class="ks-ev idle" data-instance={instance.clone()}>{format!("{instance} idles: {threads} thread(s), no active task ({standbys} standbys)")}</li>
            }),
            Event::Produced { .. } | Event::Warning { .. } | Event::ProbingRebalanceScheduled { .. } => rows.push(html! {
                <li class="ks-ev">{e.narrate()}</li>
            }),
            Event::RebalanceCompleted { moved, sticky, busy_instances, idle_instances, max_restore_ms, .. } => rows.push(html! {
                <li class="ks-ev done">{format!("{sticky} sticky, {moved} moved; {busy_instances} busy, {idle_instances} idle; longest restore ~{}", duration(*max_restore_ms))}</li>
            }),
            _ => {}
        }
    }
    html! {
        <section class="ks-last" aria-label="Last step" aria-live="polite">
            <h2>{format!("Step {cursor}: {action}")}</h2>
            if rows.is_empty() {
                <p class="hint">{"No task moved."}</p>
            } else {
                <ul class="ks-evs">{ for rows }</ul>
            }
        </section>
    }
}
