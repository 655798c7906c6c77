//! The compare run: the same log replayed with one config key changed, and its
//! metric lines. It needs nothing but the scenario, so a heavy one can be
//! computed away from the page: the browser hands a [`CompareJob`] to its engine
//! worker as JSON ([`run_json`]) and draws the [`CompareReply`] it gets back,
//! while the page goes on answering input.

use crate::engine::schema::Patch;
use crate::engine::{AnyAction, Series};
use crate::playground::{Live, Tab};
use crate::scenario::session::Session;
use crate::scenario::{Body, InBody, Log, Scenario, VisitLog};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `log` with its config key `key` set to `value`.
fn changed_log<E: InBody>(log: &Log<E>, key: &str, value: &Value) -> Result<Log<E>, String> {
    let mut log = log.clone();
    log.config = Patch::one(key, value.clone())
        .and_then(|p| p.apply_to(&log.config))
        .map_err(|e| e.to_string())?;
    Ok(log)
}

/// The metric lines of `log` (seed `seed`, `cursor` actions applied) replayed
/// with `key` set to `value`.
pub fn series_with<E: InBody>(
    seed: u64,
    log: &Log<E>,
    cursor: Option<usize>,
    key: &str,
    value: &Value,
) -> Result<Vec<Series>, String> {
    let other = Session::<E>::new(seed, changed_log(log, key, value)?, cursor).map_err(|e| e.to_string())?;
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

/// The compare runs of a worker, kept from one job to the next: when a job is
/// the same compare of a scenario that only grew by more actions at its end
/// (rounds played with the compare on), those actions are applied to the run
/// kept instead of replaying the whole log. The lines are the same either way
/// (a session grows by `apply` exactly as a replay builds it; tested natively).
#[derive(Default)]
pub struct CompareCache {
    /// The last run: its scenario (config already changed) and its session.
    kept: Option<(Scenario, Live)>,
}

impl CompareCache {
    /// Compute `job`, reusing the kept run where it can; also says whether it did.
    pub fn run(&mut self, job: &CompareJob) -> (CompareReply, bool) {
        let reply = |result| CompareReply { id: job.id, result };
        let changed = match changed_scenario(job) {
            Ok(sc) => sc,
            Err(e) => {
                self.kept = None;
                return (reply(Err(e)), false);
            }
        };
        if let Some((kept_sc, live)) = self.kept.take() {
            if let Some(extra) = extra_actions(&kept_sc, &changed) {
                let grown = extra.iter().try_for_each(|a| live.edit().act(a));
                if grown.is_ok() {
                    let series = live.get().series();
                    self.kept = Some((changed, live));
                    return (reply(Ok(series)), true);
                }
            }
        }
        match Live::open(&changed) {
            Ok(live) => {
                let series = live.get().series();
                self.kept = Some((changed, live));
                (reply(Ok(series)), false)
            }
            Err(e) => (reply(Err(e)), false),
        }
    }
}

/// The job's scenario with its config key changed.
fn changed_scenario(job: &CompareJob) -> Result<Scenario, String> {
    struct Change<'a>(&'a CompareJob);
    impl VisitLog for Change<'_> {
        type Out = Result<Body, String>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            changed_log(log, &self.0.key, &self.0.value).map(E::wrap_log)
        }
    }
    Ok(Scenario {
        body: job.scenario.body.visit(Change(job))?,
        ..job.scenario.clone()
    })
}

/// The actions `new` adds at the end of `old` (same seed, system, config and
/// setup, both at the end of their logs), or `None` when it is not that.
fn extra_actions(old: &Scenario, new: &Scenario) -> Option<Vec<AnyAction>> {
    fn tail<E: InBody>(
        a: &Log<E>,
        a_at: Option<usize>,
        b: &Log<E>,
        b_at: Option<usize>,
    ) -> Option<Vec<AnyAction>> {
        let at_end = |l: &Log<E>, at: Option<usize>| at.is_none_or(|c| c == l.actions.len());
        (a.config == b.config
            && a.setup == b.setup
            && at_end(a, a_at)
            && at_end(b, b_at)
            && b.actions.starts_with(&a.actions))
        .then(|| {
            b.actions[a.actions.len()..]
                .iter()
                .cloned()
                .map(E::wrap)
                .collect()
        })
    }
    if old.seed != new.seed || old.format != new.format {
        return None;
    }
    match (&old.body, &new.body) {
        (Body::Pulsar(a), Body::Pulsar(b)) => tail(a, old.cursor, b, new.cursor),
        (Body::Flink(a), Body::Flink(b)) => tail(a, old.cursor, b, new.cursor),
        (Body::Kstreams(a), Body::Kstreams(b)) => tail(a, old.cursor, b, new.cursor),
        _ => None,
    }
}

/// A job as JSON in, its reply as JSON out, computed afresh. A job that cannot
/// be read gets a reply with id 0 that says why.
pub fn run_json(job: &str) -> String {
    run_json_with(&mut CompareCache::default(), job)
}

/// [`run_json`] with the worker's kept runs (its one entry point).
pub fn run_json_with(cache: &mut CompareCache, job: &str) -> String {
    let reply = match serde_json::from_str::<CompareJob>(job) {
        Ok(j) => cache.run(&j).0,
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
