//! Produce patterns: input topics that receive records on their own as
//! simulated time passes, so lag, warm-ups, probing rebalances and restore
//! times evolve without a "produce" per step.
//!
//! A [`ProducePattern`] gives a topic a rate in records per second, spread over
//! its partitions by a key skew (a Zipf exponent over the partitions, partition
//! 0 the hottest; 0 spreads evenly), optionally modulated by a wave over
//! simulated minutes. One action adds, changes or removes one pattern.
//!
//! While time advances, the engine cuts the interval into slices of one
//! simulated second (longer for long jumps: at most [`MAX_SLICES`] per
//! advance) and, before each slice's restoration progress, produces the records
//! the patterns owe for it, exactly as `Produce` with an explicit partition
//! would: the partitions' end offsets grow, so do the changelog ends of the
//! stateful tasks reading them, and running actives process at once (their
//! local state follows), while restoring actives, standbys and warm-ups have
//! to catch up at `restore.records.per.second` (lbscope's restore model).
//!
//! The count is deterministic and needs no random draw: the records a
//! partition has received from a pattern by time `t` are `floor(w_p · R(t))`,
//! `R` the integral of the rate since the pattern was added or last changed and
//! `w_p` the partition's share, so slices of any length add up to the same
//! total. One [`WorkloadEvent::Produced`] per advance carries the numbers.

use super::task::TaskId;
use super::{Error, Event, InstanceStatus, Sim};
use crate::engine::Narrate;
use crate::sort::StableSort;
use serde::{Deserialize, Serialize};

/// Most patterns at once.
pub const MAX_PATTERNS: usize = 64;
/// Most slices one advance of time is cut into.
pub const MAX_SLICES: u64 = 600;
/// The shortest slice, ms.
pub const SLICE_MS: u64 = 1000;
/// Highest rate a pattern may have, records per second.
pub const MAX_RATE: f64 = 1e9;

/// A wave on a produce rate: `1 + a/100 · sin(2π (now + phase) / period)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wave {
    /// Period, minutes.
    pub period_minutes: f64,
    /// `a`, 0..=100.
    pub amplitude_percent: f64,
    /// Phase, minutes.
    #[serde(default)]
    pub phase_minutes: f64,
}

/// Records produced to an input topic as time passes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducePattern {
    /// A defined topic.
    pub topic: String,
    /// Records per second (the wave's mean).
    pub records_per_second: f64,
    /// Key skew: partition `p` gets a share proportional to `1 / (p + 1)^skew`
    /// (0: even), 0..=10.
    #[serde(default)]
    pub skew: f64,
    /// A wave on the rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wave: Option<Wave>,
}

impl ProducePattern {
    /// In words.
    pub fn label(&self) -> String {
        format!(
            "{} records/s to {}{}{}",
            fmt(self.records_per_second),
            self.topic,
            if self.skew > 0.0 {
                format!(", key skew s = {}", fmt(self.skew))
            } else {
                ", keys even".to_string()
            },
            self.wave.as_ref().map_or(String::new(), |w| format!(
                ", wave ±{} % every {} min",
                fmt(w.amplitude_percent),
                fmt(w.period_minutes)
            ))
        )
    }

    fn check(&self, sim: &Sim) -> Result<u32, Error> {
        let t = sim
            .topics
            .get(&self.topic)
            .ok_or_else(|| Error::UnknownTopic(self.topic.clone()))?;
        let bad = |m: String| Err(Error::Workload(m));
        let r = self.records_per_second;
        if !r.is_finite() || !(0.0..=MAX_RATE).contains(&r) {
            return bad(format!("records per second must be in 0..=10^9 (got {r})"));
        }
        if !self.skew.is_finite() || !(0.0..=10.0).contains(&self.skew) {
            return bad(format!("key skew must be in 0..=10 (got {})", self.skew));
        }
        if let Some(w) = &self.wave {
            if !w.period_minutes.is_finite() || w.period_minutes <= 0.0 {
                return bad(format!(
                    "a wave's period must be > 0 minutes (got {})",
                    w.period_minutes
                ));
            }
            if !w.amplitude_percent.is_finite() || !(0.0..=100.0).contains(&w.amplitude_percent) {
                return bad(format!(
                    "a wave's amplitude must be in 0..=100 % (got {})",
                    w.amplitude_percent
                ));
            }
            if !w.phase_minutes.is_finite() {
                return bad("a wave's phase must be finite".into());
            }
        }
        Ok(t.partitions)
    }

    /// Records owed since `since_ms` by time `t_ms` (all partitions, not floored).
    fn integral(&self, since_ms: u64, t_ms: u64) -> f64 {
        let secs = t_ms.saturating_sub(since_ms) as f64 / 1000.0;
        let base = self.records_per_second * secs;
        match &self.wave {
            None => base,
            Some(w) => {
                let p = w.period_minutes * 60.0;
                let k = std::f64::consts::TAU / p;
                let phase = w.phase_minutes * 60.0;
                let (a, b) = (since_ms as f64 / 1000.0 + phase, t_ms as f64 / 1000.0 + phase);
                let wave = -w.amplitude_percent / 100.0 / k * ((k * b).cos() - (k * a).cos());
                (base + self.records_per_second * wave).max(0.0)
            }
        }
    }

    /// Each partition's share.
    fn shares(&self, partitions: u32) -> Vec<f64> {
        let w: Vec<f64> = (0..partitions)
            .map(|p| 1.0 / f64::from(p + 1).powf(self.skew))
            .collect();
        let h: f64 = w.iter().sum();
        w.into_iter().map(|x| x / h).collect()
    }

    /// What the pattern will do over the `n` steps of `step_ms` after `now_ms`:
    /// the rate at each, records per second (the panel's curve).
    pub fn preview(&self, now_ms: u64, step_ms: u64, n: usize) -> Vec<f64> {
        (1..=n as u64)
            .map(|k| self.rate_at(now_ms.saturating_add(k.saturating_mul(step_ms))))
            .collect()
    }

    /// The rate at `t_ms`, records per second.
    pub fn rate_at(&self, t_ms: u64) -> f64 {
        match &self.wave {
            None => self.records_per_second,
            Some(w) => {
                let m = t_ms as f64 / 60_000.0;
                self.records_per_second
                    * (1.0
                        + w.amplitude_percent / 100.0
                            * (std::f64::consts::TAU * (m + w.phase_minutes) / w.period_minutes).sin())
            }
        }
    }
}

fn fmt(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A pattern the simulation holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Id (1, 2, … in the order added).
    pub id: u32,
    /// The pattern.
    pub pattern: ProducePattern,
    /// When it was added or last changed, ms.
    pub since_ms: u64,
}

/// Advances of per-instance traffic the simulation keeps (the sparklines).
pub const HISTORY_POINTS: usize = 32;

/// The simulation's produce patterns, and what each instance's active tasks
/// received over the last [`HISTORY_POINTS`] advances that produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Workload {
    patterns: Vec<Entry>,
    next_id: u32,
    history: std::collections::BTreeMap<String, std::collections::VecDeque<(u64, f64)>>,
}

impl Workload {
    /// The patterns, in id order.
    pub fn patterns(&self) -> &[Entry] {
        &self.patterns
    }

    /// Per instance, (time ms at the end of an advance, records per second the
    /// patterns produced to its active tasks' partitions during it), for the
    /// last [`HISTORY_POINTS`] advances that produced. A task is counted on the
    /// instance that holds it active at the end of the advance.
    pub fn instance_history(
        &self,
    ) -> &std::collections::BTreeMap<String, std::collections::VecDeque<(u64, f64)>> {
        &self.history
    }
}

/// What one pattern produced during an advance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Produced {
    /// The pattern.
    pub id: u32,
    /// Its topic.
    pub topic: String,
    /// Records produced, all partitions.
    pub records: u64,
    /// Records of its hottest partition.
    pub hottest: (u32, u64),
}

/// What the produce patterns did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum WorkloadEvent {
    /// A pattern was added.
    Added {
        /// Its id.
        id: u32,
        /// It.
        pattern: ProducePattern,
    },
    /// A pattern was replaced.
    Changed {
        /// Its id.
        id: u32,
        /// The new pattern.
        pattern: ProducePattern,
        /// The old one.
        previous: ProducePattern,
    },
    /// A pattern was removed.
    Removed {
        /// Its id.
        id: u32,
        /// It.
        pattern: ProducePattern,
    },
    /// Records produced while time passed.
    Produced {
        /// From, ms.
        from_ms: u64,
        /// To, ms.
        to_ms: u64,
        /// Per pattern.
        produced: Vec<Produced>,
        /// Stateful tasks whose changelog end grew.
        tasks: Vec<TaskId>,
    },
}

impl Narrate for WorkloadEvent {
    fn narrate(&self) -> String {
        match self {
            WorkloadEvent::Added { id, pattern } => {
                format!("produce pattern #{id} added: {}", pattern.label())
            }
            WorkloadEvent::Changed {
                id,
                pattern,
                previous,
            } => format!(
                "produce pattern #{id} changed: {} (was {})",
                pattern.label(),
                previous.label()
            ),
            WorkloadEvent::Removed { id, pattern } => {
                format!("produce pattern #{id} removed: {}", pattern.label())
            }
            WorkloadEvent::Produced {
                from_ms,
                to_ms,
                produced,
                tasks,
            } => {
                let total: u64 = produced.iter().map(|p| p.records).sum();
                let parts: Vec<String> = produced
                    .iter()
                    .map(|p| {
                        format!(
                            "#{} {} records to {} (hottest {}-{}: {})",
                            p.id, p.records, p.topic, p.topic, p.hottest.0, p.hottest.1
                        )
                    })
                    .collect();
                format!(
                    "{total} records produced from {from_ms} ms to {to_ms} ms: {}; {} stateful tasks' changelogs grew",
                    parts.join("; "),
                    tasks.len()
                )
            }
        }
    }
}

impl WorkloadEvent {
    /// What the event is about: the pattern's topic.
    pub fn subject(&self) -> Option<crate::engine::Subject> {
        let topic = match self {
            WorkloadEvent::Added { pattern, .. }
            | WorkloadEvent::Changed { pattern, .. }
            | WorkloadEvent::Removed { pattern, .. } => &pattern.topic,
            WorkloadEvent::Produced { produced, .. } if produced.len() == 1 => &produced[0].topic,
            WorkloadEvent::Produced { .. } => return None,
        };
        Some(crate::engine::Subject::new(
            crate::engine::SubjectKind::Topic,
            topic.clone(),
        ))
    }
}

/// Running counts of one advance.
#[derive(Default)]
pub(super) struct Tally {
    /// Per pattern: its row and its records per partition.
    produced: Vec<(Produced, Vec<u64>)>,
    tasks: std::collections::BTreeSet<TaskId>,
    /// Records per task of the advance.
    per_task: std::collections::BTreeMap<TaskId, u64>,
}

impl Sim {
    /// The produce patterns.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// [`super::Action::AddWorkload`].
    pub(super) fn add_workload(&mut self, pattern: &ProducePattern) -> Result<Vec<Event>, Error> {
        pattern.check(self)?;
        if self.workload.patterns.len() >= MAX_PATTERNS {
            return Err(Error::Workload(format!(
                "at most {MAX_PATTERNS} produce patterns at once"
            )));
        }
        let id = self.workload.next_id.max(1);
        self.workload.next_id = id + 1;
        self.workload.patterns.push(Entry {
            id,
            pattern: pattern.clone(),
            since_ms: self.now_ms,
        });
        Ok(vec![Event::Workload(WorkloadEvent::Added {
            id,
            pattern: pattern.clone(),
        })])
    }

    fn entry_index(&self, id: u32) -> Result<usize, Error> {
        self.workload
            .patterns
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| Error::Workload(format!("no produce pattern #{id}")))
    }

    /// [`super::Action::ChangeWorkload`]: the new rate counts from now.
    pub(super) fn change_workload(&mut self, id: u32, pattern: &ProducePattern) -> Result<Vec<Event>, Error> {
        let at = self.entry_index(id)?;
        pattern.check(self)?;
        let now = self.now_ms;
        let e = &mut self.workload.patterns[at];
        let previous = std::mem::replace(&mut e.pattern, pattern.clone());
        e.since_ms = now;
        Ok(vec![Event::Workload(WorkloadEvent::Changed {
            id,
            pattern: pattern.clone(),
            previous,
        })])
    }

    /// [`super::Action::RemoveWorkload`].
    pub(super) fn remove_workload(&mut self, id: u32) -> Result<Vec<Event>, Error> {
        let at = self.entry_index(id)?;
        let e = self.workload.patterns.remove(at);
        Ok(vec![Event::Workload(WorkloadEvent::Removed {
            id,
            pattern: e.pattern,
        })])
    }

    /// The end of the next slice of an advance that would stop at `step_to`.
    pub(super) fn workload_slice(&self, from_ms: u64, target_ms: u64, step_to: u64) -> u64 {
        if self.workload.patterns.is_empty() {
            return step_to;
        }
        let slice = SLICE_MS.max(target_ms.saturating_sub(from_ms).div_ceil(MAX_SLICES));
        step_to.min(self.now_ms.saturating_add(slice))
    }

    /// Produce what the patterns owe for `(now, to_ms]`.
    pub(super) fn workload_produce(&mut self, to_ms: u64, tally: &mut Tally) {
        let now = self.now_ms;
        if self.workload.patterns.is_empty() || to_ms <= now {
            return;
        }
        let mut touched: Vec<TaskId> = Vec::new();
        for k in 0..self.workload.patterns.len() {
            let Entry {
                id,
                pattern,
                since_ms,
            } = self.workload.patterns[k].clone();
            let Some(partitions) = self.topics.get(&pattern.topic).map(|t| t.partitions) else {
                continue;
            };
            let (r0, r1) = (pattern.integral(since_ms, now), pattern.integral(since_ms, to_ms));
            let parts: Vec<(u32, u64)> = pattern
                .shares(partitions)
                .iter()
                .enumerate()
                .map(|(p, w)| (p as u32, ((w * r1).floor() - (w * r0).floor()).max(0.0) as u64))
                .collect();
            let records: u64 = parts.iter().map(|x| x.1).sum();
            let at = match tally.produced.iter().position(|p| p.0.id == id) {
                Some(i) => i,
                None => {
                    tally.produced.push((
                        Produced {
                            id,
                            topic: pattern.topic.clone(),
                            records: 0,
                            hottest: (0, 0),
                        },
                        vec![0; partitions as usize],
                    ));
                    tally.produced.len() - 1
                }
            };
            let (row, per) = &mut tally.produced[at];
            row.records += records;
            for &(p, c) in &parts {
                if let Some(x) = per.get_mut(p as usize) {
                    *x += c;
                }
            }
            if records == 0 {
                continue;
            }
            if let Some(tp) = self.topics.get_mut(&pattern.topic) {
                for &(p, c) in &parts {
                    if let Some(o) = tp.end_offsets.get_mut(p as usize) {
                        *o = o.saturating_add(c);
                    }
                }
            }
            if let Some(topo) = &self.topology {
                for s in &topo.subtopologies {
                    if !s.sources.contains(&pattern.topic) {
                        continue;
                    }
                    for &(p, c) in &parts {
                        if c == 0 {
                            continue;
                        }
                        let id = TaskId::new(s.id, p);
                        touched.push(id);
                        *tally.per_task.entry(id).or_default() += c;
                        if let Some(e) = self.end.get_mut(&id) {
                            *e = e.saturating_add(c.saturating_mul(s.changelogs.len() as u64));
                            if !s.changelogs.is_empty() {
                                tally.tasks.insert(id);
                            }
                        }
                    }
                }
            }
        }
        if touched.is_empty() {
            return;
        }
        touched.stable_sort();
        touched.dedup();
        // Running actives process at once, as after a Produce.
        for inst in self.instances.values_mut() {
            if inst.status != InstanceStatus::Running {
                continue;
            }
            for th in &inst.threads {
                for id in &th.active {
                    if touched.binary_search(id).is_ok() && !inst.restoring.contains_key(id) {
                        if let Some(&e) = self.end.get(id) {
                            inst.local.insert(*id, e);
                        }
                    }
                }
            }
        }
    }

    /// The event of an advance's production, if the patterns produced anything.
    pub(super) fn workload_event(&mut self, from_ms: u64, to_ms: u64, tally: Tally) -> Option<Event> {
        if tally.produced.is_empty() {
            return None;
        }
        // Per instance, the records its active tasks received, as a rate.
        let secs = (to_ms.saturating_sub(from_ms) as f64 / 1000.0).max(1e-3);
        let Sim {
            instances, workload, ..
        } = self;
        workload.history.retain(|id, _| instances.contains_key(id));
        for (name, inst) in instances.iter() {
            let records: u64 = inst
                .threads
                .iter()
                .flat_map(|t| t.active.iter())
                .filter_map(|id| tally.per_task.get(id))
                .sum();
            let h = workload.history.entry(name.clone()).or_default();
            if h.len() >= HISTORY_POINTS {
                h.pop_front();
            }
            h.push_back((to_ms, records as f64 / secs));
        }
        Some(Event::Workload(WorkloadEvent::Produced {
            from_ms,
            to_ms,
            produced: tally
                .produced
                .into_iter()
                .map(|(mut row, per)| {
                    // The hottest partition; the lowest number on a tie.
                    let mut best = (0u32, 0u64);
                    for (p, c) in per.iter().enumerate() {
                        if *c > best.1 {
                            best = (p as u32, *c);
                        }
                    }
                    row.hottest = best;
                    row
                })
                .collect(),
            tasks: tally.tasks.into_iter().collect(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Config, SubtopologySpec};
    use super::*;
    use crate::engine::Engine;
    use std::collections::BTreeMap;

    fn sim() -> Sim {
        let mut s = Sim::new(Config::default(), 42).unwrap();
        for a in [
            Action::DefineTopic {
                topic: "orders".into(),
                partitions: 4,
                racks: vec![],
                replication_factor: 1,
            },
            Action::DefineTopology {
                subtopologies: vec![SubtopologySpec {
                    sources: vec!["orders".into()],
                    stores: vec!["totals".into()],
                    changelog: true,
                }],
                copartition_groups: vec![],
            },
        ] {
            s.apply(&a).unwrap();
        }
        for n in ["app-1", "app-2"] {
            s.apply(&Action::AddInstance {
                name: n.into(),
                threads: Some(1),
                rack: None,
                tags: BTreeMap::new(),
                process_id: None,
            })
            .unwrap();
        }
        s
    }

    fn pattern(rate: f64, skew: f64) -> ProducePattern {
        ProducePattern {
            topic: "orders".into(),
            records_per_second: rate,
            skew,
            wave: None,
        }
    }

    fn ends(s: &Sim) -> Vec<u64> {
        s.topics()["orders"].end_offsets.clone()
    }

    #[test]
    fn records_arrive_as_time_passes_whatever_the_slicing() {
        let mut a = sim();
        let mut b = sim();
        for s in [&mut a, &mut b] {
            s.apply(&Action::AddWorkload {
                pattern: pattern(100.0, 1.0),
            })
            .unwrap();
        }
        let ev = a.apply(&Action::AdvanceTime { ms: 10_000 }).unwrap();
        for _ in 0..20 {
            b.apply(&Action::AdvanceTime { ms: 500 }).unwrap();
        }
        assert_eq!(ends(&a), ends(&b), "slices add up to the same counts");
        let e = ends(&a);
        // 1 000 records over shares 1 : 1/2 : 1/3 : 1/4 (sum 25/12).
        let want: Vec<u64> = [12.0, 6.0, 4.0, 3.0]
            .iter()
            .map(|k| (1000.0 * k / 25.0_f64).floor() as u64)
            .collect();
        assert_eq!(e, want);
        assert!(matches!(ev[0], Event::TimeAdvanced { .. }));
        assert_eq!(
            ev[1].narrate(),
            "1000 records produced from 0 ms to 10000 ms: #1 1000 records to orders (hottest orders-0: 480); 4 stateful tasks' changelogs grew"
        );
        // Running actives follow the changelog end at once: no lag.
        for t in a.tasks() {
            assert_eq!(a.end_offset(t.id), e[t.id.partition as usize]);
        }
    }

    #[test]
    fn a_wave_over_a_whole_period_produces_the_mean_rate() {
        let mut s = sim();
        let mut p = pattern(10.0, 0.0);
        p.wave = Some(Wave {
            period_minutes: 2.0,
            amplitude_percent: 80.0,
            phase_minutes: 0.0,
        });
        s.apply(&Action::AddWorkload { pattern: p.clone() }).unwrap();
        s.apply(&Action::AdvanceTime { ms: 30_000 }).unwrap();
        let quarter: u64 = ends(&s).iter().sum();
        s.apply(&Action::AdvanceTime { ms: 90_000 }).unwrap();
        let total: u64 = ends(&s).iter().sum();
        // The first quarter rides the crest: more than a quarter of the mean.
        assert!(quarter > 300 * 11 / 10, "{quarter}");
        assert!((1196..=1200).contains(&total), "{total}");
        assert!((p.rate_at(30_000) - 18.0).abs() < 1e-9);
    }

    #[test]
    fn production_keeps_a_restoring_task_lagging_longer() {
        let restore_time = |rate: f64| {
            let mut s = sim();
            s.apply(&Action::Produce {
                topic: "orders".into(),
                key: None,
                partition: None,
                records: 200_000,
            })
            .unwrap();
            if rate > 0.0 {
                s.apply(&Action::AddWorkload {
                    pattern: pattern(rate, 0.0),
                })
                .unwrap();
            }
            // app-1 takes app-2's tasks over and restores 50 000 records for each.
            s.apply(&Action::CrashInstance { name: "app-2".into() }).unwrap();
            let mut most = 0;
            for _ in 0..20 {
                let ev = s.apply(&Action::AdvanceTime { ms: 1000 }).unwrap();
                for e in &ev {
                    if let Event::TaskRestored { restore_ms, .. } = e {
                        most = most.max(*restore_ms);
                    }
                }
            }
            most
        };
        let quiet = restore_time(0.0);
        let busy = restore_time(4000.0);
        assert!(quiet > 0, "something restored");
        assert!(
            busy > quiet,
            "records keep arriving while it restores: {busy} vs {quiet}"
        );
    }

    #[test]
    fn change_and_remove() {
        let mut s = sim();
        s.apply(&Action::AddWorkload {
            pattern: pattern(10.0, 0.0),
        })
        .unwrap();
        s.apply(&Action::AdvanceTime { ms: 4000 }).unwrap();
        assert_eq!(ends(&s), vec![10; 4]);
        s.apply(&Action::ChangeWorkload {
            id: 1,
            pattern: pattern(40.0, 0.0),
        })
        .unwrap();
        s.apply(&Action::AdvanceTime { ms: 1000 }).unwrap();
        assert_eq!(ends(&s), vec![20; 4]);
        let ev = s.apply(&Action::RemoveWorkload { id: 1 }).unwrap();
        assert_eq!(
            ev[0].narrate(),
            "produce pattern #1 removed: 40 records/s to orders, keys even"
        );
        let ev = s.apply(&Action::AdvanceTime { ms: 5000 }).unwrap();
        assert_eq!(ends(&s), vec![20; 4]);
        assert_eq!(ev.len(), 1, "no production without patterns: {ev:?}");
    }

    #[test]
    fn refused_patterns_leave_the_state_unchanged() {
        let mut s = sim();
        let before = format!("{s:?}");
        for (a, want) in [
            (
                Action::AddWorkload {
                    pattern: ProducePattern {
                        topic: "nope".into(),
                        ..pattern(1.0, 0.0)
                    },
                },
                "topic nope is not defined",
            ),
            (
                Action::AddWorkload {
                    pattern: pattern(-1.0, 0.0),
                },
                "invalid produce pattern: records per second must be in 0..=10^9 (got -1)",
            ),
            (
                Action::AddWorkload {
                    pattern: pattern(1.0, 11.0),
                },
                "invalid produce pattern: key skew must be in 0..=10 (got 11)",
            ),
            (
                Action::RemoveWorkload { id: 3 },
                "invalid produce pattern: no produce pattern #3",
            ),
        ] {
            assert_eq!(s.apply(&a).unwrap_err().to_string(), want);
        }
        assert_eq!(before, format!("{s:?}"));
        let a = Action::AddWorkload {
            pattern: ProducePattern {
                wave: Some(Wave {
                    period_minutes: 60.0,
                    amplitude_percent: 20.0,
                    phase_minutes: 5.0,
                }),
                ..pattern(3.0, 0.5)
            },
        };
        let j = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a);
    }
}
