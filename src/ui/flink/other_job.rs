//! Another job on the same cluster: it holds some slots of a TaskManager and runs
//! tasks there, which the ResourceManager counts (slots, min_resources) and this
//! job's tasks-balanced matching does not.

use crate::engine::flink::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, refuse, send, whole, SelectField, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::FlinkOtherJob;

/// The other-job form.
#[component]
pub fn OtherJobSlots() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let tm = use_state(String::new);
    let job = use_state(|| "other-job".to_string());
    let slots = use_state(|| "1".to_string());
    let tasks = use_state(|| "3".to_string());
    let (tms, busy): (Vec<(String, String)>, Vec<String>) = {
        let s = store.session::<flink::Sim>();
        let all = s.state().task_managers();
        (
            all.iter()
                .map(|t| (t.name.clone(), format!("{} · {} slots", t.name, t.slot_count())))
                .collect(),
            all.iter()
                .filter_map(|t| {
                    t.other_job.as_ref().map(|o| {
                        format!(
                            "{}: {} holds {} slot(s), {} task(s)",
                            t.name, o.job, o.slots, o.tasks
                        )
                    })
                })
                .collect(),
        )
    };
    let on_occupy = {
        let (store, tm, job, slots, tasks, tms) = (
            store.clone(),
            tm.clone(),
            job.clone(),
            slots.clone(),
            tasks.clone(),
            tms.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let n = whole::<u32>("Slots", &slots).and_then(|s| whole::<u32>("Tasks", &tasks).map(|t| (s, t)));
            let (slots, tasks) = match n {
                Ok(n) => n,
                Err(m) => return refuse(&store, FIELD, m),
            };
            let name = job.trim().to_string();
            send(
                &store,
                FIELD,
                Action::OccupySlots {
                    tm: chosen(&tm, &tms),
                    job: (!name.is_empty()).then_some(name),
                    slots,
                    tasks,
                },
            );
        })
    };
    html! {
        <form class="admin-form other-job" data-controls="other-job" onsubmit={on_occupy} novalidate=true>
            <h3>{"Another job's slots"}</h3>
            if tms.is_empty() {
                <p class="hint">{"Add a TaskManager first."}</p>
            } else {
                <SelectField id="oj-tm" label="TaskManager" value={tm} options={tms} />
                <TextField id="oj-job" label="Job name" value={job} />
                <div class="row">
                    <TextField id="oj-slots" label="Slots it holds (0: gone)" value={slots} kind="number" />
                    <TextField id="oj-tasks" label="Tasks it runs there" value={tasks} kind="number" />
                </div>
                <button type="submit" id="oj-set">{"Set the other job's slots"}</button>
            }
            <ul class="admin-list" aria-label="Other jobs">{ for busy.iter().map(|b| html!{ <li>{ b.clone() }</li> }) }</ul>
            <FieldError field={FIELD} />
        </form>
    }
}
