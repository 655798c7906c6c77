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
    with_key(&job.scenario, &job.key, &job.value)
}

/// `sc` with its config key `key` set to `value`.
fn with_key(sc: &Scenario, key: &str, value: &Value) -> Result<Scenario, String> {
    struct Change<'a>(&'a str, &'a Value);
    impl VisitLog for Change<'_> {
        type Out = Result<Body, String>;
        fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
            changed_log(log, self.0, self.1).map(E::wrap_log)
        }
    }
    Ok(Scenario {
        body: sc.body.visit(Change(key, value))?,
        ..sc.clone()
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

/// [`run_json`] with the worker's kept runs (its one entry point): a spread
/// job ([`spread_message`]) gets a [`SpreadReply`], a compare job a [`CompareReply`].
pub fn run_json_with(cache: &mut CompareCache, job: &str) -> String {
    if job.starts_with(SPREAD_ENVELOPE) {
        return spread_json(job);
    }
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

/// Seeds the playground's spread runs: 1 to this.
pub const SPREAD_SEEDS: u64 = 30;

/// The most seeds a spread job runs (a job asking for more runs this many).
pub const MAX_SPREAD_SEEDS: u64 = 200;

/// The outcome's spread over seeds to compute: the run on screen's setting
/// (and the compare run's, when there is one), each over seeds 1 to `seeds`,
/// and both at the scenario's own seed (where the run on screen falls).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpreadJob {
    /// Chosen by the page; echoed in the reply.
    pub id: u64,
    /// The active tab's scenario (its cursor included).
    pub scenario: Scenario,
    /// The compare run's changed key and value, if any.
    pub compare: Option<(String, Value)>,
    /// Seeds 1 to this.
    pub seeds: u64,
}

/// A spread as the page shows it: its markup ([`crate::view::sweep::Small::to_html`]):
/// the picture (a panel per figure that differs between seeds or settings), the
/// figures the same in every run, each figure's values in words, and the runs
/// the engine refused (three per setting at most).
#[derive(Clone, Debug, PartialEq)]
pub struct SpreadView {
    /// The markup (one element; every text in it escaped).
    pub html: String,
}

/// What a [`SpreadJob`] gives. It travels back as plain text, its parts
/// separated by U+001F ([`SpreadReply::to_text`], [`read_spread_reply`]): the
/// page reads it without a JSON reader of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct SpreadReply {
    /// The job's id (0 when the job could not be read at all).
    pub id: u64,
    /// The spread, or why there is none.
    pub result: Result<SpreadView, String>,
}

/// How a spread job's text begins ([`Envelope`] as serde writes it).
const SPREAD_ENVELOPE: &str = "{\"spread\":";

/// A spread job as the worker is handed it: `{"spread":{…}}` (a compare job
/// is handed over bare).
#[derive(Serialize, Deserialize)]
struct Envelope {
    spread: SpreadJob,
}

/// The text the page posts to the worker for `job`.
pub fn spread_message(job: &SpreadJob) -> Result<String, String> {
    serde_json::to_string(&Envelope { spread: job.clone() }).map_err(|e| e.to_string())
}

/// The row label of the run on screen's setting.
pub const ON_SCREEN: &str = "on screen";

/// Compute the spread of `job` (natively as in the worker: one thread).
pub fn spread(job: &SpreadJob) -> Result<SpreadView, String> {
    use crate::scenario::run::{self, Settle};
    use crate::scenario::sweep::{self, Plan, Variant};
    let shown = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let mut variants = vec![Variant {
        label: String::new(),
        config: Vec::new(),
    }];
    let mut labels = vec![ON_SCREEN.to_string()];
    if let Some((k, v)) = &job.compare {
        variants.push(Variant {
            label: format!("{k}={}", shown(v)),
            config: vec![(k.clone(), v.clone())],
        });
        // A strategy's name says what the row is; a bare true or 3 would not.
        labels.push(
            v.as_str()
                .map_or_else(|| "compare run".to_string(), str::to_string),
        );
    }
    let mut scenarios = vec![job.scenario.clone()];
    if let Some((k, v)) = &job.compare {
        scenarios.push(with_key(&job.scenario, k, v).map_err(|e| format!("{k} = {}: {e}", shown(v)))?);
    }
    let plan = Plan {
        scenario: job.scenario.clone(),
        seeds: (1..=job.seeds.clamp(1, MAX_SPREAD_SEEDS)).collect(),
        variants,
        settle: Settle::default(),
    };
    let sw = sweep::sweep_applied(&plan, &scenarios, 1)?;
    // Where the run on screen (and its compare run) falls: the scenario's own seed.
    let this: Vec<Vec<(&'static str, f64)>> = scenarios
        .iter()
        .map(|sc| {
            run::outcome(sc, Settle::default())
                .map(|o| o.figures())
                .unwrap_or_default()
        })
        .collect();
    let small = crate::view::sweep::small(&sw, &labels, &this, job.scenario.seed);
    let refused = sw
        .variants
        .iter()
        .zip(&labels)
        .flat_map(|(v, l)| {
            v.refused
                .iter()
                .take(3)
                .map(move |r| format!("{l}: seed {}: {}", r.seed, r.error))
        })
        .collect::<Vec<_>>();
    Ok(SpreadView {
        html: small.to_html(&refused),
    })
}

/// The separator of a spread reply's parts.
const SEP: char = '\u{1f}';

impl SpreadReply {
    /// The reply as the worker posts it: the id, then `1` and the view's
    /// markup, or `0` and why there is none.
    pub fn to_text(&self) -> String {
        let (ok, text) = match &self.result {
            Ok(v) => ("1", &v.html),
            Err(e) => ("0", e),
        };
        format!("{}{SEP}{ok}{SEP}{}", self.id, text.replace(SEP, " "))
    }
}

/// A spread reply as the worker wrote it ([`SpreadReply::to_text`]).
pub fn read_spread_reply(text: &str) -> Result<SpreadReply, String> {
    let bad = || "the engine worker's reply could not be read".to_string();
    let mut parts = text.splitn(3, SEP);
    let id = parts.next().and_then(|i| i.parse().ok()).ok_or_else(bad)?;
    let result = match (parts.next(), parts.next()) {
        (Some("0"), Some(e)) => Err(e.to_string()),
        (Some("1"), Some(html)) => Ok(SpreadView {
            html: html.to_string(),
        }),
        _ => return Err(bad()),
    };
    Ok(SpreadReply { id, result })
}

/// [`run_json_with`] for a spread job's text (the envelope).
fn spread_json(job: &str) -> String {
    match serde_json::from_str::<Envelope>(job) {
        Ok(Envelope { spread: j }) => SpreadReply {
            id: j.id,
            result: spread(&j),
        },
        Err(e) => SpreadReply {
            id: 0,
            result: Err(format!("the engine worker could not read the job: {e}")),
        },
    }
    .to_text()
}

/// The page's side of a worker computing one kind of job: only the newest job
/// asked for is drawn, and while one is computed only the newest waits (so
/// rounds played faster than the worker computes pile nothing up).
#[derive(Debug)]
pub struct Jobs<K, J> {
    next_id: u64,
    /// The newest job's id and what it is of.
    asked: Option<(u64, K)>,
    /// A job is being computed.
    in_flight: bool,
    /// The job waiting for the one in flight.
    queued: Option<J>,
    /// The worker failed: the page computes the jobs itself.
    pub failed: bool,
}

impl<K, J> Default for Jobs<K, J> {
    fn default() -> Self {
        Jobs {
            next_id: 0,
            asked: None,
            in_flight: false,
            queued: None,
            failed: false,
        }
    }
}

impl<K: Clone, J> Jobs<K, J> {
    /// Ask for the job of `key`, made by `make` from its id: the job to post
    /// now, or `None` when it waits for the one in flight (or `make` gave none).
    pub fn ask(&mut self, key: K, make: impl FnOnce(u64) -> Option<J>) -> Option<J> {
        self.next_id += 1;
        self.asked = Some((self.next_id, key));
        let job = make(self.next_id)?;
        if self.in_flight {
            self.queued = Some(job);
            None
        } else {
            self.in_flight = true;
            Some(job)
        }
    }

    /// The reply of job `id` came: what it is of when it is the newest job's
    /// (else it is dropped), and the job to post next, if one waited.
    pub fn receive(&mut self, id: u64) -> (Option<K>, Option<J>) {
        let of = self
            .asked
            .as_ref()
            .filter(|(i, _)| *i == id)
            .map(|(_, k)| k.clone());
        let next = self.queued.take();
        self.in_flight = next.is_some();
        (of, next)
    }

    /// Nothing more is wanted: a reply still on its way is dropped.
    pub fn forget(&mut self) {
        self.asked = None;
        self.queued = None;
    }

    /// The worker failed: nothing is in flight or waits any more.
    pub fn fail(&mut self) {
        self.forget();
        self.in_flight = false;
        self.failed = true;
    }

    /// Whether a job is being computed.
    pub fn in_flight(&self) -> bool {
        self.in_flight
    }
}
