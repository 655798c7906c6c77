//! A live session over one engine: the scenario log, the state at the cursor, and
//! the events of every applied action. It is what the playground's store and the
//! CLI hold. Undo/redo move the cursor; applying an action with a redo tail forks
//! the timeline (the tail is discarded). Snapshots every [`SNAPSHOT_EVERY`] actions
//! make moving the cursor anywhere quick.

use super::{replay, Log, ScenarioError, Step};
use crate::engine::Engine;

/// Keep a snapshot of the state every this many log actions.
pub const SNAPSHOT_EVERY: usize = 25;
/// Most snapshots kept. A long session thins them out (every other one goes,
/// the start and the newest stay), so memory stays bounded for large states (a
/// 200,000-topic Pulsar state is tens of MB) while a seek replays at most about
/// `log length / MAX_SNAPSHOTS * 2` actions.
pub const MAX_SNAPSHOTS: usize = 16;

/// A log action part-way through its replay ([`Session::replay_part`]).
#[derive(Debug)]
pub struct Pending<S: Engine> {
    rest: S::Rest,
    events: Vec<S::Event>,
}

/// The positions of the events of `ev` that the charts read.
fn charted<S: Engine>(ev: &[S::Event]) -> Vec<u32> {
    (0u32..)
        .zip(ev)
        .filter(|(_, e)| S::charted(e))
        .map(|(i, _)| i)
        .collect()
}

fn refused_log(index: usize, e: &impl std::fmt::Display) -> ScenarioError {
    ScenarioError::Refused {
        which: "log",
        index,
        message: e.to_string(),
    }
}

/// One engine's scenario, replayed up to a cursor.
#[derive(Clone, Debug)]
pub struct Session<S: Engine> {
    seed: u64,
    log: Log<S>,
    cursor: usize,
    state: S,
    setup_events: Vec<S::Event>,
    /// Events of log action `i` (for `i < cursor`).
    steps: Vec<Vec<S::Event>>,
    /// Where the events the charts read are ([`Engine::charted`]): positions in
    /// `setup_events`, and in each of `steps`.
    charted_setup: Vec<u32>,
    charted: Vec<Vec<u32>>,
    /// `(k, state after k log actions)`, k a multiple of SNAPSHOT_EVERY, ascending; k = 0 always
    /// present; at most [`MAX_SNAPSHOTS`].
    snapshots: Vec<(usize, S)>,
    /// How many times the state was replaced by an earlier one (a seek back):
    /// a view kept between renders knows from it that the state it read is not
    /// the one the current state grew from.
    rebuilds: u64,
}

impl<S: Engine> Session<S> {
    /// Replay `log` up to `cursor` (all of it when `None`).
    pub fn new(seed: u64, log: Log<S>, cursor: Option<usize>) -> Result<Self, ScenarioError> {
        let base = replay::<S>(
            seed,
            &Log {
                actions: Vec::new(),
                ..log.clone()
            },
            None,
        )?;
        let setup_events = base.setup.into_iter().flat_map(|st| st.events).collect();
        Self::after_setup(seed, log, base.state, setup_events, cursor)
    }

    /// The session of `log` whose setup has already been applied: `state` is the
    /// state right after `log.setup` (from `seed` and `log.config`), `setup_events`
    /// their events in order. The log actions are replayed up to `cursor`. Gives
    /// exactly what [`Session::new`] gives; lets a caller replay the setup in
    /// pieces (the playground opens a large scenario a few actions at a time).
    pub fn after_setup(
        seed: u64,
        log: Log<S>,
        state: S,
        setup_events: Vec<S::Event>,
        cursor: Option<usize>,
    ) -> Result<Self, ScenarioError> {
        let mut s = Session {
            seed,
            cursor: 0,
            state: state.clone(),
            charted_setup: charted::<S>(&setup_events),
            setup_events,
            steps: Vec::new(),
            charted: Vec::new(),
            snapshots: vec![(0, state)],
            log,
            rebuilds: 0,
        };
        let target = cursor.unwrap_or(s.log.actions.len());
        if target > s.log.actions.len() {
            return Err(ScenarioError::BadCursor {
                cursor: target,
                len: s.log.actions.len(),
            });
        }
        s.advance_to(target)?;
        Ok(s)
    }

    fn advance_to(&mut self, target: usize) -> Result<(), ScenarioError> {
        while self.cursor < target {
            let i = self.cursor;
            let ev = self
                .state
                .apply(&self.log.actions[i])
                .map_err(|e| refused_log(i, &e))?;
            self.replayed(ev);
        }
        Ok(())
    }

    /// The events of the log action at the cursor (those of any later ones go).
    fn record(&mut self, ev: Vec<S::Event>) {
        self.steps.truncate(self.cursor);
        self.charted.truncate(self.cursor);
        self.charted.push(charted::<S>(&ev));
        self.steps.push(ev);
    }

    /// The log action at the cursor has been replayed with events `ev`.
    fn replayed(&mut self, ev: Vec<S::Event>) {
        self.record(ev);
        self.cursor += 1;
        if self.cursor % SNAPSHOT_EVERY == 0 && self.snapshots.last().is_some_and(|(k, _)| *k < self.cursor) {
            self.snapshot();
        }
    }

    /// Replay about `budget` units of the log action at the cursor (see
    /// [`Engine::apply_part`]): all of it, or a part, with what is left kept in
    /// `pending`, which the next call goes on with. The cursor moves when the
    /// action is fully applied. Gives the units done. While `pending` holds a
    /// part-applied action the state is half-way through it: call nothing
    /// else on the session until this has finished it.
    pub fn replay_part(
        &mut self,
        pending: &mut Option<Pending<S>>,
        budget: u64,
    ) -> Result<u64, ScenarioError> {
        let i = self.cursor;
        let Some(action) = self.log.actions.get(i) else {
            return Ok(0);
        };
        let (mut events, rest) = match pending.take() {
            Some(p) => (p.events, Some(p.rest)),
            None => (Vec::new(), None),
        };
        let ((ev, rest), done) = crate::engine::apply_some(&mut self.state, action, rest, budget)
            .map_err(|e| refused_log(i, &e))?;
        events.extend(ev);
        match rest {
            Some(rest) => *pending = Some(Pending { rest, events }),
            None => self.replayed(events),
        }
        Ok(done)
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The whole log (including any redo tail past the cursor).
    pub fn log(&self) -> &Log<S> {
        &self.log
    }
    /// How many times a seek back replaced the state by an earlier one.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }
    /// How many log actions are applied.
    pub fn cursor(&self) -> usize {
        self.cursor
    }
    /// The state at the cursor.
    pub fn state(&self) -> &S {
        &self.state
    }
    /// Events of the setup actions.
    pub fn setup_events(&self) -> &[S::Event] {
        &self.setup_events
    }
    /// Events of each applied log action.
    pub fn steps(&self) -> &[Vec<S::Event>] {
        &self.steps[..self.cursor]
    }
    /// The events the charts read ([`Engine::charted`]), setup first, up to
    /// the cursor: what [`Engine::series`] needs, without walking every event.
    pub fn charted_events(&self) -> impl Iterator<Item = &S::Event> {
        let setup = self.charted_setup.iter().map(|&i| &self.setup_events[i as usize]);
        setup.chain(self.charted_steps())
    }
    /// The charted events of the applied log actions alone (no setup's), in order.
    pub fn charted_steps(&self) -> impl Iterator<Item = &S::Event> {
        self.steps[..self.cursor]
            .iter()
            .zip(&self.charted)
            .flat_map(|(ev, at)| at.iter().map(move |&i| &ev[i as usize]))
    }
    /// Whether there is something to undo / redo.
    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }
    /// Whether a redo tail exists.
    pub fn can_redo(&self) -> bool {
        self.cursor < self.log.actions.len()
    }

    /// Apply a new action at the cursor. A redo tail is discarded (fork). On error
    /// nothing changes and the engine's message is returned.
    pub fn apply(&mut self, action: S::Action) -> Result<&[S::Event], S::Error> {
        // The engine contract: a refused action leaves the state unchanged.
        let ev = self.state.apply(&action)?;
        self.log.actions.truncate(self.cursor);
        self.snapshots.retain(|(k, _)| *k <= self.cursor);
        self.log.actions.push(action);
        self.record(ev);
        self.cursor += 1;
        if self.cursor % SNAPSHOT_EVERY == 0 {
            self.snapshot();
        }
        Ok(&self.steps[self.cursor - 1])
    }

    /// Keep the current state as a snapshot; over [`MAX_SNAPSHOTS`], drop every
    /// other older one (never the first, k = 0).
    fn snapshot(&mut self) {
        self.snapshots.push((self.cursor, self.state.clone()));
        if self.snapshots.len() > MAX_SNAPSHOTS {
            let newest = self.snapshots.len() - 1;
            let mut i = 0;
            self.snapshots.retain(|_| {
                let keep = i == 0 || i == newest || i % 2 == 0;
                i += 1;
                keep
            });
        }
    }

    /// Log positions of the snapshots kept (ascending; for tests and the CLI).
    pub fn snapshot_positions(&self) -> Vec<usize> {
        self.snapshots.iter().map(|(k, _)| *k).collect()
    }

    /// Move the cursor to `target` (clamped to the log), replaying from the nearest snapshot.
    pub fn seek(&mut self, target: usize) -> Result<(), ScenarioError> {
        let target = target.min(self.log.actions.len());
        if target < self.cursor {
            let (k, snap) = self
                .snapshots
                .iter()
                .rev()
                .find(|(k, _)| *k <= target)
                .cloned()
                .unwrap_or_else(|| self.snapshots[0].clone());
            self.state = snap;
            self.cursor = k;
            self.rebuilds += 1;
        }
        self.advance_to(target)
    }

    /// Undo one action (no-op at the start).
    pub fn undo(&mut self) -> Result<(), ScenarioError> {
        self.seek(self.cursor.saturating_sub(1))
    }

    /// Redo one action (no-op at the end).
    pub fn redo(&mut self) -> Result<(), ScenarioError> {
        self.seek(self.cursor + 1)
    }

    /// All applied steps as (action, events) pairs.
    pub fn history(&self) -> Vec<Step<S::Action, S::Event>> {
        self.log.actions[..self.cursor]
            .iter()
            .cloned()
            .zip(self.steps().iter().cloned())
            .map(|(action, events)| Step { action, events })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar::{self, Action};

    fn log(n: usize) -> Log<pulsar::Sim> {
        Log {
            config: pulsar::Config::default(),
            setup: vec![Action::CreateNamespace {
                namespace: "public/default".into(),
                bundles: Some(4),
            }],
            actions: (0..n)
                .map(|i| Action::CreateTopic {
                    topic: format!("t{i}"),
                })
                .collect(),
        }
    }

    fn topics(s: &Session<pulsar::Sim>) -> usize {
        s.state().namespaces()["public/default"].topics.len()
    }

    #[test]
    fn snapshots_stay_bounded_and_seeks_stay_exact() {
        let mut s = Session::<pulsar::Sim>::new(1, log(0), None).unwrap();
        for i in 0..1000 {
            s.apply(Action::CreateTopic {
                topic: format!("t{i}"),
            })
            .unwrap();
        }
        let at = s.snapshot_positions();
        assert!(at.len() <= MAX_SNAPSHOTS, "{at:?}");
        assert_eq!(at[0], 0);
        assert_eq!(*at.last().unwrap(), 1000);
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        // Seeking anywhere gives the state a straight replay gives.
        for target in [999, 3, 512, 0, 777, 1000] {
            s.seek(target).unwrap();
            let straight = Session::<pulsar::Sim>::new(1, s.log().clone(), Some(target)).unwrap();
            assert_eq!(topics(&s), target);
            assert_eq!(s.state().namespaces(), straight.state().namespaces());
        }
    }

    #[test]
    fn undo_redo_seek_and_fork() {
        let mut s = Session::<pulsar::Sim>::new(1, log(60), None).unwrap();
        assert_eq!((s.cursor(), topics(&s)), (60, 60));
        s.seek(7).unwrap();
        assert_eq!((s.cursor(), topics(&s)), (7, 7));
        s.seek(52).unwrap();
        assert_eq!(topics(&s), 52);
        s.undo().unwrap();
        assert_eq!(topics(&s), 51);
        s.redo().unwrap();
        assert_eq!(topics(&s), 52);
        // Fork: a new action at 52 drops the tail.
        s.apply(Action::CreateTopic { topic: "fork".into() }).unwrap();
        assert_eq!((s.cursor(), s.log().actions.len(), s.can_redo()), (53, 53, false));
        // The forked state equals a fresh replay of the forked log.
        let fresh = Session::<pulsar::Sim>::new(1, s.log().clone(), None).unwrap();
        assert_eq!(fresh.steps(), s.steps());
    }

    /// Every golden scenario (three systems, workloads, rounds in the setup and
    /// the log): the charts drawn from the charted events alone are the ones
    /// drawn from every event, at the end, after seeking back, and after a fork.
    #[test]
    fn the_charted_events_draw_the_charts_of_every_event() {
        struct Check(u64);
        impl crate::scenario::VisitLog for Check {
            type Out = usize;
            fn visit<E: crate::scenario::InBody>(self, log: &Log<E>) -> usize {
                let mut s = Session::<E>::new(self.0, log.clone(), None).unwrap();
                let same = |s: &Session<E>| {
                    let all = E::series(&mut s.setup_events().iter().chain(s.steps().iter().flatten()));
                    assert_eq!(E::series(&mut s.charted_events()), all);
                    let of_steps: Vec<&E::Event> =
                        s.steps().iter().flatten().filter(|e| E::charted(e)).collect();
                    assert_eq!(s.charted_steps().collect::<Vec<_>>(), of_steps);
                    all.iter().map(|l| l.points.len()).sum::<usize>()
                };
                let points = same(&s);
                s.seek(s.cursor() / 2).unwrap();
                same(&s);
                s.apply(E::round_action()).unwrap();
                s.apply(E::round_action()).unwrap();
                same(&s);
                points
            }
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
        let mut points = 0;
        let mut files = 0;
        for f in std::fs::read_dir(dir).unwrap() {
            let path = f.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let sc =
                    crate::scenario::Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
                points += sc.body.visit(Check(sc.seed));
                files += 1;
            }
        }
        assert!(files >= 15 && points > 100, "{files} scenarios, {points} points");
    }

    #[test]
    fn failed_action_keeps_everything() {
        let mut s = Session::<pulsar::Sim>::new(1, log(3), Some(2)).unwrap();
        let err = s.apply(Action::CreateTopic { topic: "t0".into() }).unwrap_err();
        assert!(err.to_string().contains("already exists"));
        // The redo tail and cursor survive a refused action.
        assert_eq!((s.cursor(), s.log().actions.len()), (2, 3));
        assert!(s.can_redo());
        assert!(Session::<pulsar::Sim>::new(1, log(3), Some(9)).is_err());
    }
}
