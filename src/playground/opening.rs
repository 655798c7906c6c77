//! Opening a large scenario a piece at a time. Replaying 200,000 topics' setup
//! takes seconds; done in one go it would freeze the page. An [`Opening`] holds
//! the half-built state and replays at most about [`OPEN_CHUNK`] units of work
//! (an action weighs [`Engine::weight`](crate::engine::Engine::weight): one, or the topics a bulk action
//! creates) per call, so the page can draw its progress and answer input between
//! two calls; a bulk action is itself split between calls. The result is exactly
//! the session a one-go replay gives (same setup, same events, same snapshots):
//! it runs the same actions, and the same parts of them, in the same order.

use super::Live;
use crate::engine::{apply_setup_some, System};
use crate::scenario::session::{Pending, Session};
use crate::scenario::{InBody, Log, Scenario, ScenarioError};
use std::cell::RefCell;
use std::rc::Rc;

/// Units of replay work (see [`Engine::weight`](crate::engine::Engine::weight)) per call of [`Opening::work`]:
/// one call replays actions until this much is done; a heavy action (a bulk
/// creation) is itself replayed a part at a time
/// ([`Engine::apply_part`](crate::engine::Engine::apply_part)), so no call
/// does much more than this.
pub const OPEN_CHUNK: u64 = 4_000;

/// How far an opening is: work done, work in all, and what the work counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenProgress {
    /// Units replayed so far.
    pub done: u64,
    /// Units in all (setup and log).
    pub total: u64,
    /// What a unit is ([`Words::weight_unit`](super::Words::weight_unit): "topics", "items", ...).
    pub unit: &'static str,
    /// The scenario's system.
    pub system: System,
}

/// A scenario being replayed, part by part. Clones share the one replay (the
/// store is copied on every message; the work is not).
#[derive(Clone)]
pub struct Opening {
    build: Rc<RefCell<Box<dyn Build>>>,
    total: u64,
    unit: &'static str,
    system: System,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opening({:?}, {:?})", self.system, self.progress())
    }
}

/// What an opening is asked, whatever its engine.
trait Build {
    /// Replay until `budget` units are done (at least one part of an action),
    /// or to the end.
    /// `Ok(Some(live))` when the session is complete.
    fn work(&mut self, budget: u64) -> Result<Option<Live>, String>;
    /// Units done.
    fn done(&self) -> u64;
}

/// The two phases: the setup (no session yet), then the log actions (a session
/// at its setup, moved forward).
enum Phase<E: InBody> {
    Setup {
        log: Log<E>,
        state: E,
        events: Vec<E::Event>,
        /// Setup actions applied.
        next: usize,
        /// What is left of setup action `next` when it is part-applied.
        rest: Option<E::Rest>,
    },
    Log(Session<E>, Option<Pending<E>>),
    /// Handed out (or failed).
    Gone,
}

struct Building<E: InBody> {
    seed: u64,
    /// The cursor to stop at (the log's length when `None`).
    cursor: Option<usize>,
    phase: Phase<E>,
    done: u64,
}

impl<E: InBody> Building<E> {
    fn new(seed: u64, log: &Log<E>, cursor: Option<usize>) -> Result<Self, String> {
        if let Some(c) = cursor.filter(|c| *c > log.actions.len()) {
            return Err(ScenarioError::BadCursor {
                cursor: c,
                len: log.actions.len(),
            }
            .to_string());
        }
        let state = E::new(log.config.clone(), seed).map_err(|e| {
            ScenarioError::Refused {
                which: "config",
                index: 0,
                message: e.to_string(),
            }
            .to_string()
        })?;
        Ok(Building {
            seed,
            cursor,
            phase: Phase::Setup {
                log: log.clone(),
                state,
                events: Vec::new(),
                next: 0,
                rest: None,
            },
            done: 0,
        })
    }
}

impl<E: InBody> Build for Building<E> {
    fn work(&mut self, budget: u64) -> Result<Option<Live>, String> {
        let mut spent = 0u64;
        loop {
            match std::mem::replace(&mut self.phase, Phase::Gone) {
                Phase::Setup {
                    log,
                    mut state,
                    mut events,
                    mut next,
                    rest,
                } => {
                    if next == log.setup.len() {
                        let s = Session::after_setup(self.seed, log, state, events, Some(0))
                            .map_err(|e| e.to_string())?;
                        self.phase = Phase::Log(s, None);
                        continue;
                    }
                    if spent >= budget {
                        self.phase = Phase::Setup {
                            log,
                            state,
                            events,
                            next,
                            rest,
                        };
                        return Ok(None);
                    }
                    let after = log.setup.get(next + 1);
                    let ((ev, rest), w) =
                        apply_setup_some(&mut state, &log.setup[next], after, rest, budget - spent).map_err(
                            |e| {
                                ScenarioError::Refused {
                                    which: "setup",
                                    index: next,
                                    message: e.to_string(),
                                }
                                .to_string()
                            },
                        )?;
                    events.extend(ev);
                    spent += w;
                    self.done += w;
                    if rest.is_none() {
                        next += 1;
                    }
                    self.phase = Phase::Setup {
                        log,
                        state,
                        events,
                        next,
                        rest,
                    };
                }
                Phase::Log(mut s, mut pending) => {
                    let target = self.cursor.unwrap_or(s.log().actions.len());
                    if s.cursor() >= target {
                        return Ok(Some(Live::new(s)));
                    }
                    if spent >= budget {
                        self.phase = Phase::Log(s, pending);
                        return Ok(None);
                    }
                    let w = s
                        .replay_part(&mut pending, budget - spent)
                        .map_err(|e| e.to_string())?;
                    spent += w;
                    self.done += w;
                    self.phase = Phase::Log(s, pending);
                }
                Phase::Gone => return Err("this scenario has already been opened".into()),
            }
        }
    }

    fn done(&self) -> u64 {
        self.done
    }
}

impl Opening {
    /// Start replaying `sc` (nothing is applied yet). Refused: the reason.
    pub fn start(sc: &Scenario) -> Result<Opening, String> {
        struct Start<'a>(&'a Scenario);
        impl crate::scenario::VisitLog for Start<'_> {
            type Out = Result<Opening, String>;
            fn visit<E: InBody>(self, log: &Log<E>) -> Self::Out {
                let total = log.setup.iter().chain(&log.actions).map(E::weight).sum();
                let b = Building::<E>::new(self.0.seed, log, self.0.cursor)?;
                Ok(Opening {
                    build: Rc::new(RefCell::new(Box::new(b))),
                    total,
                    unit: super::words(E::SYSTEM).weight_unit,
                    system: E::SYSTEM,
                })
            }
        }
        sc.body.visit(Start(sc))
    }

    /// Replay about `budget` more units (at least one part of an action): `Ok(Some(live))`
    /// once the whole scenario is replayed, `Ok(None)` while work is left.
    pub fn work(&self, budget: u64) -> Result<Option<Live>, String> {
        self.build.borrow_mut().work(budget)
    }

    /// How far it is.
    pub fn progress(&self) -> OpenProgress {
        OpenProgress {
            done: self.build.borrow().done(),
            total: self.total,
            unit: self.unit,
            system: self.system,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    fn big() -> Scenario {
        let mut sc = crate::bench::pulsar_scenario(30, 20_000, 64);
        if let crate::scenario::Body::Pulsar(log) = &mut sc.body {
            for _ in 0..3 {
                log.actions.push(crate::engine::pulsar::Action::Step);
            }
        }
        sc
    }

    #[test]
    fn opening_in_pieces_gives_the_one_go_session() {
        let sc = big();
        let whole = Live::open(&sc).unwrap();
        let o = Opening::start(&sc).unwrap();
        let p0 = o.progress();
        assert_eq!((p0.done, p0.unit, p0.system), (0, "topics", System::Pulsar));
        let mut calls = 0;
        let live = loop {
            calls += 1;
            if let Some(l) = o.work(2_000).unwrap() {
                break l;
            }
            let p = o.progress();
            assert!(p.done < p.total, "{p:?}");
        };
        assert!(calls > 3, "replayed in {calls} calls");
        assert_eq!(o.progress().done, o.progress().total);
        assert_eq!(live.get().scenario(), whole.get().scenario());
        assert_eq!(live.get().event_rows(10_000), whole.get().event_rows(10_000));
        let (a, b) = (
            live.session::<crate::engine::pulsar::Sim>().unwrap(),
            whole.session::<crate::engine::pulsar::Sim>().unwrap(),
        );
        assert_eq!(a.state().view_json(), b.state().view_json());
        assert_eq!(a.snapshot_positions(), b.snapshot_positions());
    }

    /// A bulk creation of the setup and one of the log are each replayed over
    /// several calls (the progress stops inside them), and the session is the
    /// one-go one.
    #[test]
    fn a_bulk_creation_opens_a_part_at_a_time() {
        use crate::engine::pulsar::Action as A;
        let mut sc = crate::bench::pulsar_scenario(30, 12_000, 4_096);
        if let crate::scenario::Body::Pulsar(log) = &mut sc.body {
            log.actions.push(A::Step);
            log.actions.push(A::CreateNamespace {
                namespace: "t/late".into(),
                bundles: Some(2_048),
            });
            log.actions.push(A::CreateTopics {
                namespace: "t/late".into(),
                prefix: "l".into(),
                count: 6_000,
                traffic: Default::default(),
            });
            log.actions.push(A::Step);
        }
        let crate::scenario::Body::Pulsar(log) = &sc.body else {
            unreachable!()
        };
        // Where each action starts and ends, in units.
        let mut edges = vec![0u64];
        for a in log.setup.iter().chain(&log.actions) {
            edges.push(edges.last().unwrap() + crate::engine::pulsar::Sim::weight(a));
        }
        let whole = Live::open(&sc).unwrap();
        let o = Opening::start(&sc).unwrap();
        let mut inside = Vec::new();
        let live = loop {
            if let Some(l) = o.work(200).unwrap() {
                break l;
            }
            let done = o.progress().done;
            if !edges.contains(&done) {
                inside.push(done);
            }
        };
        let late = edges[edges.len() - 3]..edges[edges.len() - 2];
        assert!(
            inside.iter().filter(|d| **d < edges[log.setup.len()]).count() > 5,
            "{inside:?}"
        );
        assert!(
            inside.iter().filter(|d| late.contains(d)).count() > 5,
            "{inside:?} in {late:?}"
        );
        assert!(inside.windows(2).all(|w| w[0] < w[1]), "{inside:?}");
        assert_eq!(live.get().event_rows(100_000), whole.get().event_rows(100_000));
        let (a, b) = (
            live.session::<crate::engine::pulsar::Sim>().unwrap(),
            whole.session::<crate::engine::pulsar::Sim>().unwrap(),
        );
        assert_eq!(a.setup_events(), b.setup_events());
        assert_eq!(a.steps(), b.steps());
        assert_eq!(format!("{:?}", a.state()), format!("{:?}", b.state()));
        assert_eq!(a.snapshot_positions(), b.snapshot_positions());
    }

    #[test]
    fn a_refused_setup_action_is_reported_with_its_place() {
        let mut sc = big();
        if let crate::scenario::Body::Pulsar(log) = &mut sc.body {
            log.setup.insert(
                3,
                crate::engine::pulsar::Action::CrashBroker {
                    broker: "no-such-broker".into(),
                },
            );
        }
        let o = Opening::start(&sc).unwrap();
        let err = loop {
            match o.work(u64::MAX) {
                Ok(Some(_)) => panic!("opened a scenario with a refused action"),
                Ok(None) => continue,
                Err(e) => break e,
            }
        };
        assert!(err.starts_with("setup action 4 was refused"), "{err}");
        let mut bad = big();
        bad.cursor = Some(99);
        assert!(Opening::start(&bad).unwrap_err().contains("cursor 99"));
    }
}
