//! What the last step of a Kafka Streams session placed, read from its
//! events: each task's new owner with the assignor's reason, the restore it
//! costs, and whether a standby took over. The Kafka Streams tab shows it.

use crate::engine::kstreams::{self, Event, Reason, Role, TaskId};
use crate::scenario::session::Session;
use std::collections::BTreeMap;

/// A Kafka Streams session.
pub type KsSession = Session<kstreams::Sim>;

/// One placement of the last step.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// Why.
    pub reason: Reason,
    /// Previous active owner.
    pub previous: Option<String>,
    /// Records to replay.
    pub restore_records: u64,
    /// Estimated restore time.
    pub restore_ms: u64,
    /// An active placed where the task had a standby (or warm-up) until this step.
    pub was_standby: bool,
}

/// The standby (and warm-up) tasks `instance` held before the last step: its
/// newest `ThreadsAssigned` event before that step.
fn standbys_before(session: &KsSession, instance: &str) -> Vec<TaskId> {
    let steps = session.steps();
    let earlier = steps[..steps.len().saturating_sub(1)]
        .iter()
        .rev()
        .flat_map(|evs| evs.iter().rev());
    let setup = session.setup_events().iter().rev();
    earlier
        .chain(setup)
        .find_map(|e| match e {
            Event::ThreadsAssigned { instance: i, threads } if i == instance => {
                Some(threads.iter().flat_map(|t| t.standby.iter().copied()).collect())
            }
            Event::InstanceCrashed { instance: i, .. } | Event::InstanceRemoved { instance: i, .. }
                if i == instance =>
            {
                Some(Vec::new())
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// Placements made by the last applied step, by (task, instance, role).
pub fn placements(session: &KsSession) -> BTreeMap<(TaskId, String, Role), Placed> {
    let mut out = BTreeMap::new();
    let mut before: BTreeMap<String, Vec<TaskId>> = BTreeMap::new();
    if let Some(evs) = session.steps().last() {
        for e in evs {
            if let Event::TaskAssigned {
                task,
                instance,
                role,
                reason,
                previous,
                restore_records,
                restore_ms,
                ..
            } = e
            {
                let was_standby = *role == Role::Active
                    && previous.as_deref() != Some(instance.as_str())
                    && before
                        .entry(instance.clone())
                        .or_insert_with(|| standbys_before(session, instance))
                        .contains(task);
                out.insert(
                    (*task, instance.clone(), *role),
                    Placed {
                        reason: *reason,
                        previous: previous.clone(),
                        restore_records: *restore_records,
                        restore_ms: *restore_ms,
                        was_standby,
                    },
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::kstreams::Action;
    use crate::scenario::presets::kstreams_counts;

    /// Every `TaskAssigned` event of the last step is one placement, with the
    /// event's reason, previous owner and restore figures.
    #[test]
    fn placements_are_the_task_assigned_events_of_the_last_step() {
        let mut s = KsSession::new(1, kstreams_counts(), None).unwrap();
        // The last step was a produce: it placed nothing.
        assert!(placements(&s).is_empty());
        // A crash makes the group rebalance in the same step.
        s.apply(Action::CrashInstance { name: "app-1".into() }).unwrap();
        let p = placements(&s);
        let events: Vec<_> = s
            .steps()
            .last()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                Event::TaskAssigned {
                    task,
                    instance,
                    role,
                    reason,
                    restore_records,
                    ..
                } => Some(((*task, instance.clone(), *role), (*reason, *restore_records))),
                _ => None,
            })
            .collect();
        assert!(!events.is_empty());
        assert_eq!(p.len(), events.len());
        for (k, (reason, records)) in events {
            let placed = &p[&k];
            assert_eq!(
                (placed.reason, placed.restore_records),
                (reason, records),
                "{k:?}"
            );
        }
    }

    /// After a crash, an active task that moves to an instance that held its
    /// standby is marked as the standby taking over, and only then.
    #[test]
    fn an_active_placed_on_its_standby_is_marked() {
        let mut marked = 0;
        for crashed in ["app-1", "app-2", "app-3"] {
            let mut s = KsSession::new(1, kstreams_counts(), None).unwrap();
            let view = s.state().view();
            let role_before = |t: &TaskId, i: &str| {
                view.instances
                    .iter()
                    .filter(|x| x.name == i)
                    .flat_map(|x| &x.replicas)
                    .find(|r| r.task == *t)
                    .map(|r| r.role)
            };
            s.apply(Action::CrashInstance { name: crashed.into() }).unwrap();
            let p = placements(&s);
            assert!(!p.is_empty(), "{crashed}'s tasks moved");
            for ((t, i, role), placed) in &p {
                assert!(i != crashed);
                // Marked exactly where the state before the crash had a standby
                // of the task and the step made it active there.
                let want = *role == Role::Active
                    && placed.previous.as_deref() != Some(i.as_str())
                    && role_before(t, i) == Some(Role::Standby);
                assert_eq!(placed.was_standby, want, "{crashed}: {t:?} on {i}");
                marked += usize::from(placed.was_standby);
            }
        }
        assert!(marked > 0, "some crash hands a task to its standby");
    }
}
