//! The engine worker: a dedicated Web Worker running this same wasm
//! (`worker.js`), for the work that replays a whole scenario without changing
//! what the page shows: the compare run, and the outcome's spread over seeds.
//! For a scenario that is heavy to replay (and for every spread) the page hands
//! the job over and keeps answering input while it runs. Jobs and replies travel
//! as JSON text ([`crate::playground::compare`]).

pub use crate::playground::compare::{read_reply, read_spread_reply};
use crate::playground::compare::{run_json_with, CompareCache, CompareReply};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The worker's kept compare run (a worker runs one job at a time).
    static KEPT: std::cell::RefCell<CompareCache> = std::cell::RefCell::new(CompareCache::default());
}

/// The worker's entry point: `worker.js` calls it with each job's JSON and
/// posts back what it returns. The run is kept for the next job, which then
/// only applies the actions played since when it is the same compare.
#[wasm_bindgen]
pub fn engine_job(job: &str) -> String {
    KEPT.with(|k| run_json_with(&mut k.borrow_mut(), job))
}

/// What the page gets back: a reply, or why the worker could not give one.
pub type Delivered<R = CompareReply> = Result<R, String>;

/// The page's handle on its engine worker (stopped when dropped).
pub struct EngineWorker {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl EngineWorker {
    /// Start the worker; `deliver` gets every reply (or the worker's failure).
    /// `read` reads a reply's text.
    pub fn start<R: 'static>(
        read: fn(&str) -> Delivered<R>,
        deliver: impl Fn(Delivered<R>) + 'static,
    ) -> Result<EngineWorker, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options("./worker.js", &options)
            .map_err(|e| format!("the engine worker could not start: {e:?}"))?;
        let deliver = std::rc::Rc::new(deliver);
        let on_message = {
            let deliver = deliver.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let text = e.data().as_string().unwrap_or_default();
                deliver(read(&text));
            })
        };
        // An error in the worker comes as an ErrorEvent with a message; a worker
        // script that could not be loaded, as a plain Event.
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let why = e
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script could not be loaded".to_string());
            deliver(Err(format!("the engine worker stopped: {why}")));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(EngineWorker {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Hand `job` over; its reply comes to `deliver`.
    pub fn post(&self, job: &impl serde::Serialize) -> Result<(), String> {
        self.post_text(&serde_json::to_string(job).map_err(|e| e.to_string())?)
    }

    /// Hand a job over as its text.
    pub fn post_text(&self, text: &str) -> Result<(), String> {
        self.worker
            .post_message(&JsValue::from_str(text))
            .map_err(|e| format!("the engine worker could not be handed the job: {e:?}"))
    }
}

impl EngineWorker {
    /// Stop the worker (its handle may stay: nothing more comes from it).
    pub fn stop(&self) {
        self.worker.terminate();
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        self.stop();
    }
}
