//! What the last step did: the action, the tasks that moved with the reason the
//! assignor gave, restores with their time, idle instances (the full log is the
//! shared event log under the tab).

use super::common::{duration, hl, hover, num, reason_name, reason_short};
use crate::engine::kstreams::{Action, Event, Role, TaskId};
use crate::engine::Narrate;
use crate::ui::store::{StoreCtx, SubjectKind};
pub use crate::view::kstreams_summary::Placed;
use std::collections::BTreeMap;
use yew::prelude::*;

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
        Action::AssignStandbys => "Placed standbys around the actives".into(),
        Action::SetAssignment { instance, .. } => format!("Gave {instance} a previous assignment"),
        Action::SetTaskOffsets { instance, .. } => format!("Set the offsets {instance} holds"),
        Action::ClearTaskOffsets { instance, .. } => format!("Removed task directories of {instance}"),
        Action::SetEndOffsets { .. } => "Set the changelog end offsets".into(),
        Action::SetPartitionRacks { topic, .. } => format!("Set the replica racks of {topic}"),
        Action::AddWorkload { pattern } => format!("Added a produce pattern: {}", pattern.label()),
        Action::ChangeWorkload { id, pattern } => {
            format!("Changed produce pattern #{id}: {}", pattern.label())
        }
        Action::RemoveWorkload { id } => format!("Removed produce pattern #{id}"),
        Action::SetConfig(change) => format!(
            "Set {}",
            change
                .config
                .values()
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The "last step" panel.
pub fn last_step(store: &StoreCtx, placed: &BTreeMap<(TaskId, String, Role), Placed>) -> Html {
    let session = store.session::<crate::engine::kstreams::Sim>();
    let cursor = session.cursor();
    let Some(evs) = session.steps().last() else {
        return html! {
            <section class="ks-last" aria-label="Last step">
                <h2>{"Last step"}</h2>
                <p class="hint">{"Nothing yet: crash an instance, add one, or produce records."}</p>
            </section>
        };
    };
    let action = session
        .log()
        .actions
        .get(cursor - 1)
        .map(action_text)
        .unwrap_or_default();
    let lag_limit = crate::engine::Engine::config(session.state()).acceptable_recovery_lag;
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
                let h = hover(store, SubjectKind::Task, id.clone());
                let from = previous.as_ref().map(|p| format!(" from {p}")).unwrap_or_default();
                let was_standby = placed.get(&(*task, instance.clone(), Role::Active)).is_some_and(|p| p.was_standby);
                let restore = match (*restore_records > 0, was_standby) {
                    (true, true) => format!("its standby takes over; restores the last {} records in ~{}", num(*restore_records), duration(*restore_ms)),
                    (true, false) => format!("restores {} records from the changelog in ~{}", num(*restore_records), duration(*restore_ms)),
                    (false, true) => "its caught-up standby takes over: no restore".to_string(),
                    (false, false) => "no restore needed".to_string(),
                };
                rows.push(html! {
                    <li class={classes!("ks-ev", "move", was_standby.then_some("from-standby"), hl(store, SubjectKind::Task, &id))} data-task={id.clone()} data-reason={reason_name(*reason)}
                        data-was-standby={was_standby.to_string()}
                        tabindex="0" onmouseenter={h.enter} onmouseleave={h.leave} onfocus={h.focus} onblur={h.blur}>
                        <strong>{id.clone()}</strong>{format!("{from} → {instance}")}
                        // "Caught up" is the assignor's word for a lag within
                        // acceptable.recovery.lag: such a task may still restore.
                        if *reason == crate::engine::kstreams::Reason::CaughtUp && *restore_records > 0 {
                            <span class={classes!("ks-reason", reason_name(*reason))}
                                  title={format!("{} Its lag of {} records is within acceptable.recovery.lag = {}, so the assignor counts it as caught up; it still restores them.", reason.words(), num(*restore_records), num(lag_limit))}>
                                { format!("within recovery lag ({} ≤ {})", num(*restore_records), num(lag_limit)) }
                            </span>
                        } else {
                            <span class={classes!("ks-reason", reason_name(*reason))} title={reason.words()}>{reason_short(*reason)}</span>
                        }
                        if was_standby { <span class="ks-reason standby_promoted" title="this instance held a standby of the task">{"S → A"}</span> }
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
            <crate::ui::components::outcome::OutcomeSummary />
        </section>
    }
}
