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
                | P::Lookup { .. }
                | P::CreateScalableTopic { .. } => C::Topics,
                P::SetTopicTraffic { .. }
                | P::SetBrokerLoad { .. }
                | P::SetBundleLoad { .. }
                | P::SetScalableTopicTraffic { .. }
                | P::AddScalableConsumer { .. }
                | P::RemoveScalableConsumer { .. } => C::Load,
                P::AddBroker { .. } | P::CrashBroker { .. } | P::RestoreBroker { .. } => C::Members,
                P::SplitBundle { .. } | P::SplitSegment { .. } | P::MergeSegments { .. } => C::Split,
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

/// A control that changes the config: what the lesson's ask calls it, its
/// group, the keys it sets in one action, and whether it writes the whole
/// config (the form's keys changed, every other key as it is) or a patch.
#[derive(Clone, Copy, Debug)]
pub struct ConfigControl {
    /// The system whose tab holds it.
    pub system: crate::engine::System,
    /// Its name as an ask says it (a label or the key it edits).
    pub name: &'static str,
    /// The group it sits in.
    pub group: Controls,
    /// The keys it sets.
    pub keys: &'static [&'static str],
}

/// The config controls that write a whole config (the settings panel writes
/// one key at a time: an ask naming that key is satisfied there).
pub const CONFIG_CONTROLS: &[ConfigControl] = {
    use crate::engine::System as S;
    use Controls as C;
    &[
        ConfigControl {
            system: S::Pulsar,
            name: "Set bundle limits",
            group: C::Split,
            keys: &[
                "loadBalancerNamespaceBundleMaxMsgRate",
                "loadBalancerNamespaceBundleMaxBandwidthMbytes",
            ],
        },
        ConfigControl {
            system: S::Pulsar,
            name: "load manager",
            group: C::Config,
            // The select also brings a shedder the new load manager can run.
            keys: &["loadManagerClassName", "loadBalancerLoadSheddingStrategy"],
        },
        ConfigControl {
            system: S::Flink,
            name: "taskmanager.load-balance.mode",
            group: C::Config,
            keys: &["taskmanager.load-balance.mode"],
        },
        ConfigControl {
            system: S::Flink,
            name: "slot.request.max-interval",
            group: C::Config,
            keys: &["slot.request.max-interval"],
        },
        ConfigControl {
            system: S::Flink,
            name: "slot.request.timeout",
            group: C::Config,
            keys: &["slot.request.timeout"],
        },
    ]
};

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

    /// Every ask that changes the config names exactly one control that makes
    /// that change in one action, and the step shows it: a whole-config ask
    /// changes only the keys of the one control its prompt names; a one-key
    /// patch names its key (the settings panel's row).
    #[test]
    fn config_asks_name_the_one_control_that_makes_them() {
        let mut checked = 0;
        let mut problems = Vec::new();
        for l in super::super::all() {
            for (k, st) in l.steps.iter().enumerate() {
                let Some(prompt) = &st.ask else { continue };
                let Some(Ok(shift)) = l.ask_config_change(k) else {
                    continue;
                };
                let is_config = matches!(
                    l.ask_action(k),
                    Some(AnyAction::Pulsar(pulsar::Action::SetConfig(_)))
                        | Some(AnyAction::Flink(flink::Action::SetConfig(_)))
                        | Some(AnyAction::Kstreams(kstreams::Action::SetConfig(_)))
                );
                if !is_config {
                    continue;
                }
                checked += 1;
                let at = format!(
                    "{} step {} ({prompt:?}, changes {:?})",
                    l.id,
                    k + 1,
                    shift.changed
                );
                if shift.changed.is_empty() {
                    problems.push(format!("{at}: changes nothing"));
                    continue;
                }
                if shift.written <= 1 {
                    // The settings panel: one key, named in the prompt, its group shown.
                    if !prompt.contains(shift.changed[0].as_str()) {
                        problems.push(format!("{at}: does not name its key"));
                    }
                    if !st.controls.contains(&Controls::Config) && !st.controls.contains(&Controls::All) {
                        problems.push(format!("{at}: the settings are not shown"));
                    }
                    continue;
                }
                let named: Vec<&ConfigControl> = CONFIG_CONTROLS
                    .iter()
                    .filter(|c| c.system == l.system && prompt.contains(c.name))
                    .collect();
                match named.as_slice() {
                    [c] => {
                        if let Some(key) = shift.changed.iter().find(|k| !c.keys.contains(&k.as_str())) {
                            problems.push(format!("{at}: {} does not set {key}", c.name));
                        }
                        if !st.controls.contains(&c.group) && !st.controls.contains(&Controls::All) {
                            problems.push(format!("{at}: {} ({:?}) is not shown", c.name, c.group));
                        }
                    }
                    [] => problems.push(format!("{at}: names no control that writes this change")),
                    many => problems.push(format!(
                        "{at}: names {} controls",
                        many.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
                    )),
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        assert!(checked >= 5, "only {checked} config asks");
    }

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
                let config_control = CONFIG_CONTROLS
                    .iter()
                    .find(|c| c.system == l.system && prompt.contains(c.name));
                let group = match (&a, config_control) {
                    (AnyAction::Pulsar(pulsar::Action::SetConfig(_)), Some(c)) => Some(c.group),
                    _ => control_for(&a),
                };
                match group {
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
