//! Fine-grained resources: a resource profile (CPU, memory) on a slot sharing
//! group of the job, and a total resource on a TaskManager (its default slot is
//! the total over its slot count; it carves dynamic slots). The engine reads the
//! values (`Resources`) and refuses what Flink cannot take.

use crate::engine::flink::resource_profile::Resources;
use crate::engine::flink::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, number, refuse, send, whole, SelectField, TextField};
use crate::ui::store::StoreCtx;
use serde_json::json;
use yew::prelude::*;

const GROUP_FIELD: Field = Field::FlinkSsgResources;
const TM_FIELD: Field = Field::FlinkTmResources;

/// Read cores and MB through the engine's own `Resources` reader (its message on bad values).
fn resources(cpu: &str, memory: &str) -> Result<Resources, String> {
    let cores = number("CPU cores", cpu)?;
    let mb: u64 = whole("Memory (MB)", memory)?;
    serde_json::from_value(json!({ "cpu_cores": cores, "memory_mb": mb })).map_err(|e| e.to_string())
}

/// A name and its resources (none: UNKNOWN / ANY).
type Named = (String, Option<Resources>);
/// A TaskManager, its total resources and its slot count.
type NamedTm = (String, Option<Resources>, u32);

fn shown(r: Option<Resources>, none: &str) -> String {
    r.map_or_else(|| none.to_string(), |r| r.to_string())
}

/// Resource profiles of slot sharing groups and TaskManager totals.
#[component]
pub fn ResourceProfiles() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let group = use_state(String::new);
    let group_cpu = use_state(|| "0.5".to_string());
    let group_mem = use_state(|| "512".to_string());
    let tm = use_state(String::new);
    let tm_cpu = use_state(|| "2".to_string());
    let tm_mem = use_state(|| "2048".to_string());

    let (groups, tms): (Vec<Named>, Vec<NamedTm>) = {
        let s = store.session::<flink::Sim>();
        let sim = s.state();
        (
            sim.job()
                .map(|j| {
                    j.slot_sharing_groups
                        .iter()
                        .cloned()
                        .zip(j.slot_sharing_group_resources.iter().copied())
                        .collect()
                })
                .unwrap_or_default(),
            sim.task_managers()
                .iter()
                .map(|t| (t.name.clone(), t.resources, t.slot_count()))
                .collect(),
        )
    };
    let group_options: Vec<(String, String)> = groups
        .iter()
        .map(|(g, r)| (g.clone(), format!("{g} ({})", shown(*r, "UNKNOWN"))))
        .collect();
    let tm_options: Vec<(String, String)> = tms
        .iter()
        .map(|(t, r, n)| (t.clone(), format!("{t} · {n} slots ({})", shown(*r, "ANY slots"))))
        .collect();

    // One button's callback: the chosen name, the typed profile (or none, to
    // clear it), and the action that sets it.
    let setter = |field: Field,
                  name: &UseStateHandle<String>,
                  cpu: &UseStateHandle<String>,
                  mem: &UseStateHandle<String>,
                  opts: &[(String, String)],
                  action: fn(String, Option<Resources>) -> Action,
                  clear: bool| {
        let (store, name, cpu, mem, opts) = (
            store.clone(),
            name.clone(),
            cpu.clone(),
            mem.clone(),
            opts.to_vec(),
        );
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let r = if clear {
                None
            } else {
                match resources(&cpu, &mem) {
                    Ok(r) => Some(r),
                    Err(m) => return refuse(&store, field, m),
                }
            };
            send(&store, field, action(chosen(&name, &opts), r));
        })
    };
    let set_group = |clear: bool| {
        setter(
            GROUP_FIELD,
            &group,
            &group_cpu,
            &group_mem,
            &group_options,
            |group, resources| Action::SetSlotSharingGroupResources { group, resources },
            clear,
        )
    };
    let set_tm = |clear: bool| {
        setter(
            TM_FIELD,
            &tm,
            &tm_cpu,
            &tm_mem,
            &tm_options,
            |tm, resources| Action::SetTaskManagerResources { tm, resources },
            clear,
        )
    };
    let schedule = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| send(&store, TM_FIELD, Action::Schedule))
    };
    html! {
        <div class="resource-profiles" data-controls="resources">
            <form class="admin-form ssg-resources" novalidate=true onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <h3>{"Slot sharing group resources"}</h3>
                <p class="cmd"><code>{"SlotSharingGroup.newBuilder(name).setCpuCores(..).setTaskHeapMemoryMB(..)"}</code></p>
                if group_options.is_empty() {
                    <p class="hint">{"Define a job first."}</p>
                } else {
                    <SelectField id="ssg-group" label="Slot sharing group" value={group.clone()} options={group_options.clone()} />
                    <div class="row">
                        <TextField id="ssg-cpu" label="CPU cores" value={group_cpu.clone()} kind="number" />
                        <TextField id="ssg-mem" label="Memory (MB)" value={group_mem.clone()} kind="number" />
                    </div>
                    <div class="row">
                        <button type="button" id="ssg-set" onclick={set_group(false)}>{"Set profile"}</button>
                        <button type="button" id="ssg-clear" onclick={set_group(true)}>{"UNKNOWN"}</button>
                    </div>
                }
                <FieldError field={GROUP_FIELD} />
            </form>
            <form class="admin-form tm-resources" novalidate=true onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <h3>{"TaskManager total resources"}</h3>
                if tm_options.is_empty() {
                    <p class="hint">{"Add a TaskManager first."}</p>
                } else {
                    <SelectField id="tmr-tm" label="TaskManager" value={tm.clone()} options={tm_options.clone()} />
                    <div class="row">
                        <TextField id="tmr-cpu" label="Total CPU cores" value={tm_cpu.clone()} kind="number" />
                        <TextField id="tmr-mem" label="Total memory (MB)" value={tm_mem.clone()} kind="number" />
                    </div>
                    <div class="row">
                        <button type="button" id="tmr-set" onclick={set_tm(false)}>{"Set total"}</button>
                        <button type="button" id="tmr-clear" onclick={set_tm(true)}>{"ANY slots"}</button>
                    </div>
                }
                <p class="hint">{"A TaskManager must hold no slot of the job to change; both take effect at the next scheduling."}</p>
                <button type="button" id="res-schedule" onclick={schedule}>{"Schedule"}</button>
                <FieldError field={TM_FIELD} />
            </form>
        </div>
    }
}
