//! The Kafka Streams tab: controls on the left; in the middle the parallelism
//! summary, partitions → tasks, what the last step did and instances × threads
//! by rack. The shared deck (event log, metrics, settings) sits under the tab.

use super::controls::Controls;
use super::instances_grid::instances_grid;
use super::last_step::last_step;
use super::topology_view::topology_view;
use crate::engine::kstreams::{InstanceStatus, View};
use crate::ui::store::StoreCtx;
use crate::view::kstreams_summary::placements;
use std::rc::Rc;
use yew::prelude::*;

fn summary(view: &View) -> Html {
    let tasks = view.tasks.len();
    let running: Vec<_> = view
        .instances
        .iter()
        .filter(|i| i.status == InstanceStatus::Running)
        .collect();
    let crashed = view.instances.len() - running.len();
    let threads: usize = running.iter().map(|i| i.threads.len()).sum();
    let idle_instances = running.iter().filter(|i| !i.busy).count();
    let idle_threads: usize = running
        .iter()
        .map(|i| i.threads.iter().filter(|t| t.active.is_empty()).count())
        .sum();
    let restoring = view.tasks.iter().filter(|t| t.restoring).count();
    let unassigned = view.tasks.iter().filter(|t| t.active.is_none()).count();
    let lesson = if tasks == 0 {
        "Define a topic and a topology to get tasks.".to_string()
    } else if running.is_empty() {
        "No instance is running: every task waits for one.".to_string()
    } else if threads > tasks {
        format!(
            "{threads} threads for {tasks} tasks: a task never splits, so {} thread(s) must idle — parallelism is capped by the input partitions.",
            threads - tasks
        )
    } else if threads == tasks {
        format!("{threads} threads for {tasks} tasks: one task per thread, the most parallelism this topic allows.")
    } else {
        format!("{threads} threads share {tasks} tasks; you can add up to {} more thread(s) or instance(s) before one idles.", tasks - threads)
    };
    let warmups: usize = view.tasks.iter().map(|t| t.warmups.len()).sum();
    let extra_idle = idle_threads.saturating_sub(threads.saturating_sub(tasks));
    let waiting = if warmups > 0 && extra_idle > 0 {
        format!(
            " {extra_idle} more idle for now: the high-availability assignor leaves tasks on caught-up instances while {warmups} warm-up replica(s) restore; {}",
            match view.probing_rebalance_at_ms {
                Some(at) => format!("the probing rebalance at t = {} moves them once caught up (press +10 min).", super::common::duration(at)),
                None => "a later rebalance moves them once caught up.".to_string(),
            }
        )
    } else {
        String::new()
    };
    html! {
        <section class="panel ks-summary" aria-label="Parallelism">
            <dl>
                <div><dt>{"tasks"}</dt><dd data-count="tasks">{tasks}</dd></div>
                <div><dt>{"instances"}</dt><dd data-count="running">{running.len()}{ if crashed > 0 { format!(" (+{crashed} crashed)") } else { String::new() } }</dd></div>
                <div><dt>{"threads"}</dt><dd data-count="threads">{threads}</dd></div>
                <div class={classes!((idle_instances > 0).then_some("warn"))}><dt>{"idle instances"}</dt><dd data-count="idle-instances">{idle_instances}</dd></div>
                <div class={classes!((idle_threads > 0).then_some("warn"))}><dt>{"idle threads"}</dt><dd data-count="idle-threads">{idle_threads}</dd></div>
                <div class={classes!((restoring > 0).then_some("warn"))}><dt>{"restoring"}</dt><dd data-count="restoring">{restoring}</dd></div>
                if unassigned > 0 { <div class="warn"><dt>{"unassigned"}</dt><dd data-count="unassigned">{unassigned}</dd></div> }
            </dl>
            <p class="ks-lesson">{lesson}{waiting}</p>
        </section>
    }
}

fn legend() -> Html {
    html! {
        <div class="ks-legend" aria-label="Legend">
            <span class="ks-chip active tc0"><span class="ks-face"><span class="ks-mark">{"A"}</span><span class="ks-tid">{"active"}</span></span></span>
            <span class="ks-chip standby tc0"><span class="ks-face"><span class="ks-mark">{"S"}</span><span class="ks-tid">{"standby"}</span></span></span>
            <span class="ks-chip warm_up tc0"><span class="ks-face"><span class="ks-mark">{"W"}</span><span class="ks-tid">{"warm-up"}</span></span></span>
            <span class="ks-sub">{"↻ placed by the last step · colour = task"}</span>
        </div>
    }
}

/// Kafka Streams tab.
#[component]
pub fn KstreamsTab() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let view = Rc::new(store.session::<crate::engine::kstreams::Sim>().state().view());
    let placed = placements(&store.session::<crate::engine::kstreams::Sim>());
    html! {
        <section class="tab-body ks" aria-label="Kafka Streams">
            <aside class="panel controls ks-controls" aria-label="Kafka Streams controls">
                <Controls view={view.clone()} />
                <details class="ks-ctl ks-fold" data-controls="config ks-assignor-forms">
                    <summary><h2>{"Assignor"}</h2></summary>
                    <super::assignor::AssignorChoice />
                    <super::client_rack_note::ClientRackNote />
                    <super::previous_assignment::PreviousAssignmentEditor view={view.clone()} />
                    <super::task_lags::TaskLagsEditor view={view.clone()} />
                    <super::partition_racks::PartitionRacksEditor view={view.clone()} />
                </details>
                <crate::ui::components::workload::KstreamsWorkloads />
            </aside>
            <div class="ks-main">
                { summary(&view) }
                <section class="panel ks-topology" aria-labelledby="ks-h-topo">
                    <h2 id="ks-h-topo">{"Partitions → tasks"}</h2>
                    { topology_view(&store, &view) }
                </section>
                <div class="ks-lower">
                    <section class="panel ks-instances" aria-labelledby="ks-h-inst">
                        <div class="ks-head">
                            <h2 id="ks-h-inst">{"Instances × threads"}</h2>
                            { legend() }
                        </div>
                        { instances_grid(&store, &view, &placed) }
                    </section>
                    <aside class="panel ks-side">{ last_step(&store, &placed) }</aside>
                </div>
            </div>
        </section>
    }
}
