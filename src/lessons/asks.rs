//! Which control group of the playground emits each action a lesson can ask
//! for: a step's ask is only fair when the control it needs is on screen.

use super::Controls;
use crate::engine::{flink, kstreams, pulsar, AnyAction};

/// The control group whose controls emit `action` in the playground, or `None`
/// when no control does (a lesson must not ask for it).
pub fn control_for(action: &AnyAction) -> Option<Controls> {
    use Controls as C;
    Some(match action {
        AnyAction::Pulsar(a) => {
            use pulsar::Action as P;
            match a {
                // The toolbar's Step, and the round bar's phases.
                P::Step | P::Report | P::Split | P::Shed | P::Assign => C::Step,
                P::CreateTopic { .. }
                | P::CreatePartitionedTopic { .. }
                | P::CreateTopics { .. }
                | P::CreateNamespace { .. }
                | P::Lookup { .. } => C::Topics,
                P::SetTopicTraffic { .. } | P::SetBrokerLoad { .. } | P::SetBundleLoad { .. } => C::Load,
                P::AddBroker { .. } | P::CrashBroker { .. } | P::RestoreBroker { .. } => C::Members,
                P::SplitBundle { .. } => C::Split,
                P::Unload { .. } => C::Unload,
                // The version profile and load manager (Cluster), and the settings panel.
                P::SetConfig(_) | P::SetProfile { .. } => C::Config,
                _ => return None,
            }
        }
        AnyAction::Flink(a) => {
            use flink::Action as F;
            match a {
                F::Schedule => C::Schedule,
                F::SetConfig(_) => C::Config,
                F::AddTaskManager { .. }
                | F::RemoveTaskManager { .. }
                | F::LoseTaskManager { .. }
                | F::RestoreTaskManager { .. } => C::Members,
                _ => return None,
            }
        }
        AnyAction::Kstreams(a) => {
            use kstreams::Action as K;
            match a {
                K::DefineTopology { .. } => C::Topology,
                K::AddInstance { .. }
                | K::RemoveInstance { .. }
                | K::CrashInstance { .. }
                | K::RestartInstance { .. } => C::Members,
                K::AddThread { .. } | K::RemoveThread { .. } => C::Threads,
                K::Produce { .. } => C::Produce,
                K::AdvanceTime { .. } => C::Time,
                K::Rebalance => C::Step,
                K::SetConfig(_) => C::Config,
                _ => return None,
            }
        }
    })
}

/// Whether `action` is one of Pulsar's single phases (folded in the round bar:
/// a step asking for one unfolds them).
pub fn is_pulsar_phase(action: &AnyAction) -> bool {
    use pulsar::Action as P;
    matches!(
        action,
        AnyAction::Pulsar(P::Report | P::Split | P::Shed | P::Assign)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ask of every lesson names an action some control emits, and the
    /// step shows that control's group (the rest are hidden while it runs).
    #[test]
    fn asks_controls() {
        let mut asks = 0;
        let mut problems = Vec::new();
        for l in super::super::all() {
            for (k, st) in l.steps.iter().enumerate() {
                let Some(prompt) = &st.ask else { continue };
                asks += 1;
                let Some(a) = l.ask_action(k) else {
                    problems.push(format!("{} step {}: an ask without its action", l.id, k + 1));
                    continue;
                };
                match control_for(&a) {
                    None => problems.push(format!(
                        "{} step {} asks {prompt:?}, but no control emits {a:?}",
                        l.id,
                        k + 1
                    )),
                    Some(group) if !st.controls.contains(&group) && !st.controls.contains(&Controls::All) => {
                        problems.push(format!(
                            "{} step {} asks {prompt:?} ({a:?}) but shows {:?}, not {group:?}",
                            l.id,
                            k + 1,
                            st.controls
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        assert!(asks > 20, "only {asks} asks");
    }
}
