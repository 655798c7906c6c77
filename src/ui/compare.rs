//! The compare run as the chart draws it. A light scenario is replayed on the
//! page while it renders (quicker than a message to the worker and back); one
//! that is heavy to replay ([`Store::heavy_to_replay`]) is handed to the engine
//! worker ([`super::worker`]), and the chart keeps the lines it had (or none)
//! with a note that the run is being computed, while the page answers input.
//! Should the worker fail, the run is computed on the page after all.
//!
//! Below the chart, [`SeedSpread`]: the outcome over seeds of the run on
//! screen's setting and the compare run's, always computed in a worker of its
//! own (newest job only, [`Jobs`]) and drawn as the markup the view made.

use super::store::StoreCtx;
use super::worker::{Delivered, EngineWorker};
use crate::engine::{Series, System};
use crate::playground::compare::{
    spread, spread_message, CompareJob, Jobs, SpreadJob, SpreadReply, SpreadView, SPREAD_SEEDS,
};
use crate::ui::store::Msg;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What a compare run is of: the scenario's revision, the tab, the key and value.
type Key = (u64, System, Option<(String, Value)>);

/// What the chart gets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compared {
    /// The compare run's lines (an earlier state's while a newer run is computed).
    pub series: Vec<Series>,
    /// "key = value", or empty when nothing is compared.
    pub label: String,
    /// Why there are no lines.
    pub error: Option<String>,
    /// Said while the engine worker computes the run.
    pub busy: Option<String>,
}

/// The label of a compare of `key` set to `value`.
fn label_of(key: &str, value: &Value) -> String {
    format!(
        "{key} = {}",
        value.as_str().map_or(value.to_string(), str::to_string)
    )
}

/// A run's result as the chart takes it.
fn compared(label: String, result: Result<Vec<Series>, String>) -> Compared {
    match result {
        Ok(series) => Compared {
            series,
            label,
            ..Compared::default()
        },
        Err(e) => Compared {
            error: Some(format!("{label}: {e}")),
            label,
            ..Compared::default()
        },
    }
}

/// The page's side of the worker: the handle (started on the first heavy
/// compare), the newest job asked for, the job waiting for the one in flight,
/// and whether the worker failed.
#[derive(Default)]
struct Worker {
    handle: Option<EngineWorker>,
    /// The newest job's id and what it is of.
    asked: Option<(u64, Key)>,
    next_id: u64,
    /// A job is being computed: a newer one waits in `queued` (only the newest
    /// waits, so rounds played faster than the worker replays pile nothing up).
    in_flight: bool,
    queued: Option<CompareJob>,
    failed: bool,
}

/// Sets the reply the chart draws (and renders again).
type Setter = UseStateSetter<Option<(Key, Compared)>>;

/// The compare run of the store's active tab, computed where it costs the page least.
#[hook]
pub fn use_compare(store: &StoreCtx) -> Compared {
    let key: Key = (store.data_revision, store.tab, store.compare.clone());
    let worker = use_mut_ref(Worker::default);
    let heavy = {
        let store = store.clone();
        use_memo(key.clone(), move |(_, _, c)| {
            c.is_some() && store.heavy_to_replay()
        })
    };
    let in_worker = *heavy && !worker.borrow().failed;
    // Light: computed during the render, as the store changes.
    let here = {
        let store = store.clone();
        use_memo((key.clone(), in_worker), move |((_, _, c), in_worker)| {
            let (k, v) = c.as_ref().filter(|_| !*in_worker)?;
            Some(compared(label_of(k, v), store.compare_series(k, v)))
        })
    };
    // Heavy: the worker's newest reply, with what it is of.
    let delivered = use_state(|| None::<(Key, Compared)>);
    {
        let (store, worker, delivered) = (store.clone(), worker.clone(), delivered.setter());
        use_effect_with((key.clone(), in_worker), move |(key, in_worker)| {
            if *in_worker {
                ask(&worker, key, &store, delivered);
            } else {
                // Nothing more to compute there: a reply still on its way is dropped.
                let mut w = worker.borrow_mut();
                w.asked = None;
                w.queued = None;
            }
        });
    }
    if let Some(c) = (*here).clone() {
        return c;
    }
    let Some((k, v)) = &key.2 else {
        return Compared::default();
    };
    let label = label_of(k, v);
    match &*delivered {
        Some((of, c)) if *of == key => c.clone(),
        // The same compare of an earlier state: its lines stay until the new ones come.
        Some((of, c)) if of.1 == key.1 && of.2 == key.2 => Compared {
            busy: Some(format!(
                "Computing {label} for the current state in the background (the lines drawn are of an earlier state)…"
            )),
            ..c.clone()
        },
        _ => Compared {
            label: label.clone(),
            busy: Some(format!("Computing {label} in the background: the page keeps answering meanwhile…")),
            ..Compared::default()
        },
    }
}

/// Hand the compare of `key` to the worker (starting it first if need be); if
/// the worker cannot take it, give up on it, which computes the run on the page.
fn ask(worker: &Rc<RefCell<Worker>>, key: &Key, store: &StoreCtx, delivered: Setter) {
    let mut w = worker.borrow_mut();
    w.next_id += 1;
    let id = w.next_id;
    w.asked = Some((id, key.clone()));
    let Some(job) = store.compare_job(id) else {
        return;
    };
    if w.handle.is_none() {
        let (weak, setter) = (Rc::downgrade(worker), delivered.clone());
        match EngineWorker::start(super::worker::read_reply, move |d| {
            if let Some(worker) = weak.upgrade() {
                receive(&mut worker.borrow_mut(), d, &setter);
            }
        }) {
            Ok(h) => w.handle = Some(h),
            Err(e) => return give_up(&mut w, &e, &delivered),
        }
    }
    if w.in_flight {
        w.queued = Some(job);
    } else {
        send(&mut w, &job, &delivered);
    }
}

/// Post `job` to the worker.
fn send(w: &mut Worker, job: &CompareJob, delivered: &Setter) {
    let posted = w.handle.as_ref().map(|h| h.post(job));
    match posted {
        Some(Ok(())) => w.in_flight = true,
        Some(Err(e)) => give_up(w, &e, delivered),
        None => {}
    }
}

/// A reply came (or the worker failed): draw it if it is the newest job's, and
/// send the job that waited.
fn receive(w: &mut Worker, d: Delivered, delivered: &Setter) {
    let reply = match d {
        Ok(reply) => reply,
        Err(e) => return give_up(w, &e, delivered),
    };
    w.in_flight = false;
    if let Some((_, key)) = w.asked.clone().filter(|(id, _)| *id == reply.id) {
        if let Some((k, v)) = &key.2 {
            delivered.set(Some((key.clone(), compared(label_of(k, v), reply.result))));
        }
    }
    // An older job's reply is dropped: the newest one waits, or is on its way.
    if let Some(job) = w.queued.take() {
        send(w, &job, delivered);
    }
}

/// The worker failed (`why`): stop using it and render again, which computes
/// the compare run on the page.
fn give_up(w: &mut Worker, why: &str, delivered: &Setter) {
    gloo::console::warn!(format!("{why}; the compare run is computed on the page"));
    w.failed = true;
    w.asked = None;
    w.queued = None;
    w.in_flight = false;
    if let Some(h) = &w.handle {
        h.stop();
    }
    delivered.set(None);
}

/// What a spread is of: the scenario's revision, the tab and the compare.
type SpreadKey = (u64, System, Option<(String, Value)>);

/// The spread's side of its own engine worker (a spread replays the scenario
/// once per seed: always away from the page, beside the compare run's worker).
#[derive(Default)]
struct SpreadWorker {
    handle: Option<EngineWorker>,
    jobs: Jobs<SpreadKey, SpreadJob>,
}

/// Sets the spread the panel draws (and renders again).
type SpreadSetter = UseStateSetter<Option<(SpreadKey, Result<SpreadView, String>)>>;

/// The outcome over seeds 1 to [`SPREAD_SEEDS`] of the run on screen's setting
/// and the compare run's, beside where the run on screen falls: a switch under
/// the metrics chart; the engine worker computes it, the page keeps answering.
#[component]
pub fn SeedSpread() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let on = store.spread;
    let key: SpreadKey = (store.data_revision, store.tab, store.compare.clone());
    let worker = use_mut_ref(SpreadWorker::default);
    let delivered = use_state(|| None::<(SpreadKey, Result<SpreadView, String>)>);
    let failed = worker.borrow().jobs.failed;
    {
        let (store, worker, setter) = (store.clone(), worker.clone(), delivered.setter());
        use_effect_with((key.clone(), on, failed), move |(key, on, failed)| {
            if *on && !*failed {
                ask_spread(&worker, key, &store, setter);
            } else {
                worker.borrow_mut().jobs.forget();
            }
        });
    }
    // Should the worker fail, the page computes the spread itself.
    let here = {
        let store = store.clone();
        use_memo((key.clone(), on && failed), move |(_, here)| {
            here.then(|| store.spread_job(0).map(|j| spread(&j))).flatten()
        })
    };
    let toggle = {
        let store = store.clone();
        Callback::from(move |_: Event| store.dispatch(Msg::Spread(!on)))
    };
    let shown = match (&*here, &*delivered) {
        (Some(r), _) => Some((r.clone(), false)),
        (None, Some((of, r))) if of == &key => Some((r.clone(), false)),
        // The same compare of an earlier state: drawn, noted, until the new one comes.
        (None, Some((of, r))) if of.1 == key.1 && of.2 == key.2 => Some((r.clone(), true)),
        _ => None,
    };
    let busy = on && here.is_none() && shown.as_ref().is_none_or(|(_, stale)| *stale);
    let body = match shown.filter(|_| on) {
        // The view's markup: every text in it escaped (`view::sweep::Small::to_html`).
        Some((Ok(v), _)) => Html::from_html_unchecked(AttrValue::from(v.html)),
        Some((Err(e), _)) => html! { <p class="field-error">{ e }</p> },
        None => html! {},
    };
    html! {
        <div class="spread" data-state={if busy { "busy" } else { "ready" }}>
            <label class="spread-toggle">
                <input type="checkbox" checked={on} onchange={toggle} />
                { format!(" The outcome over seeds 1 to {SPREAD_SEEDS}") }
            </label>
            if busy {
                <p class="hint spread-busy" role="status">{ format!(
                    "Replaying the scenario under {SPREAD_SEEDS} seeds in the background: the page keeps answering meanwhile…"
                ) }</p>
            }
            { body }
        </div>
    }
}

/// Hand the spread of `key` to the spread's worker (starting it first if need be).
fn ask_spread(worker: &Rc<RefCell<SpreadWorker>>, key: &SpreadKey, store: &StoreCtx, setter: SpreadSetter) {
    let mut w = worker.borrow_mut();
    if w.handle.is_none() {
        let weak = Rc::downgrade(worker);
        let s = setter.clone();
        match EngineWorker::start(super::worker::read_spread_reply, move |d| {
            if let Some(worker) = weak.upgrade() {
                spread_came(&mut worker.borrow_mut(), d, &s);
            }
        }) {
            Ok(h) => w.handle = Some(h),
            Err(e) => return spread_failed(&mut w, &e, &setter),
        }
    }
    if let Some(job) = w.jobs.ask(key.clone(), |id| store.spread_job(id)) {
        post_spread(&mut w, &job, &setter);
    }
}

/// Post a spread job to its worker.
fn post_spread(w: &mut SpreadWorker, job: &SpreadJob, setter: &SpreadSetter) {
    let posted = spread_message(job).and_then(|t| w.handle.as_ref().map_or(Ok(()), |h| h.post_text(&t)));
    if let Err(e) = posted {
        spread_failed(w, &e, setter);
    }
}

/// A spread came (or the worker failed): draw it if it is the newest job's,
/// and post the job that waited.
fn spread_came(w: &mut SpreadWorker, d: Delivered<SpreadReply>, setter: &SpreadSetter) {
    let reply = match d {
        Ok(r) => r,
        Err(e) => return spread_failed(w, &e, setter),
    };
    let (of, next) = w.jobs.receive(reply.id);
    if let Some(key) = of {
        setter.set(Some((key, reply.result)));
    }
    if let Some(job) = next {
        post_spread(w, &job, setter);
    }
}

/// The spread's worker failed (`why`): stop it; the page computes the spread.
fn spread_failed(w: &mut SpreadWorker, why: &str, setter: &SpreadSetter) {
    gloo::console::warn!(format!("{why}; the spread over seeds is computed on the page"));
    w.jobs.fail();
    if let Some(h) = &w.handle {
        h.stop();
    }
    setter.set(None);
}
