//! The Flink controls: load-balance mode, the two slot-request timings, adding
//! TaskManagers, the restart delay used when one is lost, and Schedule.

use crate::engine::flink::{self, Action, DurationMs, LoadBalanceMode};
use crate::engine::Engine;
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::store::{Msg, Notice, StoreCtx};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Controls properties.
#[derive(Properties, Clone, PartialEq)]
pub struct ControlsProps {
    /// Restart delay (ms) for "Lose"; empty: the TaskManager stays lost.
    pub restart: UseStateHandle<String>,
}

/// Parse a non-negative whole number of ms, or tell the user.
fn ms(store: &StoreCtx, what: &str, value: &str) -> Option<u64> {
    match DurationMs::parse(value) {
        Some(d) => Some(d.0),
        None => {
            store.dispatch(Msg::Notify(Notice::Error(format!(
                "{what} must be a duration such as 20, 70 ms or 5 min (got {value:?})"
            ))));
            None
        }
    }
}

/// The controls panel.
#[component]
pub fn Controls(p: &ControlsProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let session = store.session::<crate::engine::flink::Sim>();
    let sim = session.state();
    let config = sim.config().clone();
    let has_job = sim.job().is_some();
    let slots_ref = use_node_ref();
    let count_ref = use_node_ref();

    let set_config = {
        let store = store.clone();
        move |c: flink::Config| store.dispatch(Msg::act(Action::whole_config(&c)))
    };
    let in_lesson = store.lesson_on_screen().is_some();
    let on_mode = {
        let store = store.clone();
        let config = config.clone();
        let set_config = set_config.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            let mode = match sel.value().as_str() {
                "slots" => LoadBalanceMode::Slots,
                "min_resources" => LoadBalanceMode::MinResources,
                "tasks" => LoadBalanceMode::Tasks,
                _ => LoadBalanceMode::None,
            };
            set_config(flink::Config {
                load_balance_mode: Some(mode),
                ..config.clone()
            });
            // The mode takes effect at the next scheduling: do it now, except in a
            // lesson, whose next step asks for Schedule itself.
            if has_job && !in_lesson {
                store.dispatch(Msg::act(Action::Schedule));
            }
        })
    };
    let on_interval = {
        let store = store.clone();
        let config = config.clone();
        let set_config = set_config.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match ms(&store, "slot.request.max-interval", &input.value()) {
                Some(v) if v != config.slot_request_max_interval.0 => set_config(flink::Config {
                    slot_request_max_interval: DurationMs(v),
                    ..config.clone()
                }),
                Some(_) => {}
                None => input.set_value(&config.slot_request_max_interval.0.to_string()),
            }
        })
    };
    let on_timeout = {
        let store = store.clone();
        let config = config.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match ms(&store, "slot.request.timeout", &input.value()) {
                Some(v) if v != config.slot_request_timeout.0 => set_config(flink::Config {
                    slot_request_timeout: DurationMs(v),
                    ..config.clone()
                }),
                Some(_) => {}
                None => input.set_value(&config.slot_request_timeout.0.to_string()),
            }
        })
    };
    let on_add = {
        let store = store.clone();
        let slots_ref = slots_ref.clone();
        let count_ref = count_ref.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(input) = slots_ref.cast::<HtmlInputElement>() else {
                return;
            };
            let count = count_ref
                .cast::<HtmlInputElement>()
                .and_then(|c| c.value().trim().parse::<u32>().ok())
                .unwrap_or(1)
                .max(1);
            match input.value().trim().parse::<u32>() {
                Ok(n) => store.dispatch(Msg::AtField(
                    Field::FlinkSlots,
                    Box::new(Msg::act(if count == 1 {
                        Action::AddTaskManager {
                            name: None,
                            slots: Some(n),
                        }
                    } else {
                        Action::AddTaskManagers {
                            count,
                            slots: Some(n),
                        }
                    })),
                )),
                Err(_) => store.dispatch(Msg::Notify(Notice::Error(format!(
                    "the slot count must be a whole number (got {:?})",
                    input.value()
                )))),
            }
        })
    };
    let on_restart = {
        let restart = p.restart.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            restart.set(input.value());
        })
    };
    let on_schedule = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::act(Action::Schedule)))
    };
    let mode = config.configured_mode();
    let effective = config.effective_mode();

    html! {
        <div class="flink-controls">
            <div data-controls="config">
                <label for="flink-mode">{"taskmanager.load-balance.mode"}</label>
                <select id="flink-mode" onchange={on_mode}>
                    { for [LoadBalanceMode::None, LoadBalanceMode::Slots, LoadBalanceMode::MinResources, LoadBalanceMode::Tasks].into_iter().map(|m| html! {
                        <option value={m.name()} selected={m == mode}>{super::mode_title(m)}</option>
                    }) }
                </select>
                if effective != mode {
                    <p class="hint">{format!("cluster.evenly-spread-out-slots is true, so the effective mode is {}.", effective.name())}</p>
                }
                <details class="sub intervals" open={in_lesson}>
                    <summary>{ format!("Slot request intervals ({} ms, {} ms)", config.slot_request_max_interval.0, config.slot_request_timeout.0) }</summary>
                    <div class="two">
                        <div>
                            <label for="flink-max-interval">{"slot.request.max-interval (ms)"}</label>
                            <input id="flink-max-interval" type="number" min="0" step="10" inputmode="numeric"
                                value={config.slot_request_max_interval.0.to_string()} onchange={on_interval} />
                        </div>
                        <div>
                            <label for="flink-timeout">{"slot.request.timeout (ms)"}</label>
                            <input id="flink-timeout" type="number" min="0" step="1000" inputmode="numeric"
                                value={config.slot_request_timeout.0.to_string()} onchange={on_timeout} />
                        </div>
                    </div>
                </details>
                <p class="hint">{ if in_lesson {
                    "The mode and both intervals take effect at the next scheduling: press Schedule."
                } else {
                    "A new mode reschedules the job at once; both intervals take effect at the next scheduling or failover."
                } }</p>
            </div>
            <button class="primary schedule" data-controls="schedule" onclick={on_schedule} disabled={!has_job}
                title="Deploy the job: phase 1 (tasks to slots), then phase 2 (slots to TaskManagers)">{"Schedule"}</button>

            <details class="sub tms" data-controls="members">
                <summary>{"Add a TaskManager"}</summary>
                <form class="add-tm" onsubmit={on_add} novalidate=true>
                    <label for="flink-slots">{"Slots of a new TaskManager"}</label>
                    <div class="inline">
                        <input id="flink-slots" ref={slots_ref} type="number" min="1" value="2" inputmode="numeric" />
                        <input id="flink-tm-count" ref={count_ref} type="number" min="1" value="1" aria-label="How many TaskManagers" title="How many" />
                        <button type="submit">{"Add TaskManager"}</button>
                    </div>
                    <FieldError field={Field::FlinkSlots} />
                </form>
                <label for="flink-restart">{"A lost TaskManager restarts after (ms)"}</label>
                <input id="flink-restart" type="number" min="0" step="10" inputmode="numeric" placeholder="never"
                    value={(*p.restart).clone()} oninput={on_restart} />
                <p class="hint">{"Use Lose / Restore on a TaskManager's row (Remove appears once it is idle). Empty: it stays lost until you restore it."}</p>
            </details>
        </div>
    }
}
