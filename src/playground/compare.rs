//! The compare run: the same log replayed with one config key changed, and its
//! metric lines. It needs nothing but the scenario, so a heavy one can be
//! computed away from the page: the browser hands a [`CompareJob`] to its engine
//! worker as JSON ([`run_json`]) and draws the [`CompareReply`] it gets back,
//! while the page goes on answering input.

use crate::engine::schema::Patch;
use crate::engine::Series;
use crate::playground::Tab;
use crate::scenario::session::Session;
use crate::scenario::{InBody, Log, Scenario, VisitLog};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The metric lines of `log` (seed `seed`, `cursor` actions applied) replayed
/// with `key` set to `value`.
pub fn series_with<E: InBody>(
    seed: u64,
    log: &Log<E>,
    cursor: Option<usize>,
    key: &str,
    value: &Value,
) -> Result<Vec<Series>, String> {
    let mut log = log.clone();
    log.config = Patch::one(key, value.clone())
        .and_then(|p| p.apply_to(&log.config))
        .map_err(|e| e.to_string())?;
    let other = Session::<E>::new(seed, log, cursor).map_err(|e| e.to_string())?;
    Ok(other.series())
}

/// A compare run to compute: the scenario as the page holds it and the key
/// changed. `id` comes back in the reply, so the page draws only the newest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareJob {
    /// Chosen by the page; echoed in the reply.
    pub id: u64,
    /// The active tab's scenario (its cursor included).
    pub scenario: Scenario,
    /// The config key changed.
    pub key: String,
    /// Its value in the compare run.
    pub value: Value,
}

/// What a [`CompareJob`] gives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReply {
    /// The job's id (0 when the job could not be read at all).
    pub id: u64,
    /// The compare run's metric lines, or why there are none.
    pub result: Result<Vec<Series>, String>,
}

impl CompareJob {
    /// Compute it.
    pub fn run(&self) -> CompareReply {
        struct Run<'a>(&'a CompareJob);
        impl VisitLog for Run<'_> {
            type Out = Result<Vec<Series>, String>;
            fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
                let j = self.0;
                series_with(j.scenario.seed, log, j.scenario.cursor, &j.key, &j.value)
            }
        }
        CompareReply {
            id: self.id,
            result: self.scenario.body.visit(Run(self)),
        }
    }
}

/// A job as JSON in, its reply as JSON out (the worker's one entry point). A
/// job that cannot be read gets a reply with id 0 that says why.
pub fn run_json(job: &str) -> String {
    let reply = match serde_json::from_str::<CompareJob>(job) {
        Ok(j) => j.run(),
        Err(e) => CompareReply {
            id: 0,
            result: Err(format!("the engine worker could not read the job: {e}")),
        },
    };
    serde_json::to_string(&reply).unwrap_or_else(|e| {
        format!(
            r#"{{"id":{},"result":{{"Err":"the reply could not be written: {e}"}}}}"#,
            reply.id
        )
    })
}

/// A reply as the worker wrote it.
pub fn read_reply(text: &str) -> Result<CompareReply, String> {
    serde_json::from_str(text).map_err(|e| format!("the engine worker's reply could not be read: {e}"))
}
