//! Flink's meter. A round is a scheduling run: it ends at `SchedulingFinished`
//! (tasks per TaskManager are the load) or `SchedulingFailed`. A move is a task
//! that changed TaskManager between two finished runs, counted as few as can
//! explain the change: half the sum over TaskManagers of how much their task
//! counts changed. Slots per TaskManager are summed from the run's
//! `SlotsAllocated` events.

use super::{Extra, Goal, Measure, Meter, Outcome, Sample, Settings, Track};
use crate::engine::flink::{Config, Event, Sim};
use crate::engine::System;
use std::collections::BTreeMap;

/// Reads a Flink run.
#[derive(Clone, Debug)]
pub struct FlinkMeter {
    settings: Settings,
    track: Track,
    failed: u64,
    /// Tasks per TaskManager after the last finished run.
    last_tasks: Option<BTreeMap<String, u32>>,
    /// Slots per TaskManager allocated in the current run.
    slots: BTreeMap<String, u32>,
    /// The last finished run: tasks-per-TM range, tasks-per-slot range, slots per TM.
    last_run: Option<(u32, u32, Vec<u32>)>,
    /// Whether the last run failed.
    last_failed: bool,
}

impl Measure for Sim {
    type Meter = FlinkMeter;
    fn meter(_config: &Config, settings: Settings) -> FlinkMeter {
        FlinkMeter {
            settings,
            track: Track::default(),
            failed: 0,
            last_tasks: None,
            slots: BTreeMap::new(),
            last_run: None,
            last_failed: false,
        }
    }
}

/// Half the sum of how much each TaskManager's count changed: the fewest tasks
/// that moved between TaskManagers to turn `before` into `after`.
pub fn fewest_moves(before: &BTreeMap<String, u32>, after: &BTreeMap<String, u32>) -> u64 {
    let mut diff = 0u64;
    for (tm, n) in after {
        diff += u64::from(n.abs_diff(before.get(tm).copied().unwrap_or(0)));
    }
    for (tm, n) in before {
        if !after.contains_key(tm) {
            diff += u64::from(*n);
        }
    }
    // Tasks that appeared or vanished (a rescale) are not moves.
    let (b, a): (u64, u64) = (
        before.values().map(|v| u64::from(*v)).sum(),
        after.values().map(|v| u64::from(*v)).sum(),
    );
    (diff - b.abs_diff(a)) / 2
}

impl Meter<Event> for FlinkMeter {
    fn event(&mut self, e: &Event) {
        match e {
            Event::SlotRequestsIssued { .. } => self.slots.clear(),
            Event::SlotsAllocated { per_tm, .. } => {
                for c in per_tm {
                    *self.slots.entry(c.tm.clone()).or_default() += c.n;
                }
            }
            Event::SchedulingFinished {
                tasks_per_tm,
                tm_spread,
                slot_spread,
                ..
            } => {
                // Inserted one by one (not collected): on wasm a collected map
                // compiles a sort of its own.
                let mut now = BTreeMap::new();
                for c in tasks_per_tm {
                    now.insert(c.tm.clone(), c.n);
                }
                if let Some(before) = &self.last_tasks {
                    self.track.moved(fewest_moves(before, &now));
                }
                let loads: Vec<f64> = tasks_per_tm.iter().map(|c| f64::from(c.n)).collect();
                self.track.round(Sample::of(&loads));
                self.last_tasks = Some(now);
                self.last_run = Some((
                    tm_spread.range,
                    slot_spread.range,
                    self.slots.values().copied().collect(),
                ));
                self.last_failed = false;
            }
            Event::SchedulingFailed { .. } => {
                self.failed += 1;
                let last = self.track.samples().last().copied().unwrap_or_default();
                self.track.round(Sample { busy: true, ..last });
                self.last_failed = true;
            }
            _ => {}
        }
    }

    fn outcome(&self) -> Outcome {
        let mut goals = vec![Goal::new(
            "the job is running",
            self.last_run.is_some() && !self.last_failed,
            if self.last_failed {
                "the last scheduling run failed".to_string()
            } else if self.last_run.is_some() {
                "the last scheduling run finished".to_string()
            } else {
                "no scheduling run finished".to_string()
            },
        )];
        if let Some((tm_range, slot_range, slots)) = &self.last_run {
            goals.push(Goal::new(
                "tasks per TaskManager differ by at most one",
                *tm_range <= 1,
                format!("range {tm_range}"),
            ));
            goals.push(Goal::new(
                "tasks per slot differ by at most one",
                *slot_range <= 1,
                format!("range {slot_range}"),
            ));
            if !slots.is_empty() {
                let r = slots.iter().max().unwrap_or(&0) - slots.iter().min().unwrap_or(&0);
                goals.push(Goal::new(
                    "slots per TaskManager differ by at most one",
                    r <= 1,
                    format!("slots allocated per TaskManager {slots:?} (range {r})"),
                ));
            }
        }
        let extra = Extra {
            failed_schedules: Some(self.failed),
            ..Extra::default()
        };
        Outcome {
            moves_are: "tasks that changed TaskManager",
            load_unit: "tasks per TaskManager",
            ..self
                .track
                .finish(System::Flink, self.settings, false, extra, goals)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewest_moves_counts_each_move_once() {
        let m = |xs: &[(&str, u32)]| {
            xs.iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect::<BTreeMap<_, _>>()
        };
        assert_eq!(
            fewest_moves(&m(&[("a", 4), ("b", 0)]), &m(&[("a", 2), ("b", 2)])),
            2
        );
        assert_eq!(fewest_moves(&m(&[("a", 4)]), &m(&[("a", 2), ("b", 2)])), 2);
        assert_eq!(
            fewest_moves(&m(&[("a", 2), ("b", 2)]), &m(&[("a", 2), ("b", 2)])),
            0
        );
        // A rescale from 4 to 6 tasks, all on new ones: no move.
        assert_eq!(fewest_moves(&m(&[("a", 4)]), &m(&[("a", 4), ("b", 2)])), 0);
    }
}
