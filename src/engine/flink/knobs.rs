//! Every Flink config key lbscope knows, as Flink spells it (`ConfigOptions`):
//! type and range, unit, settings-panel section and a one-line doc. Defaults
//! come from [`super::Config::default`].

use super::config::MAX_DURATION_MS;
use crate::engine::schema::{Kind, Knob};

const SCHED: &str = "Scheduling";
const ADAPTIVE: &str = "Adaptive scheduler";
const SLOTS: &str = "Slots";
const RECOVERY: &str = "Recovery";

const DURATION: Kind = Kind::Duration {
    max_ms: MAX_DURATION_MS,
};

/// The table.
pub(super) const KNOBS: &[Knob] = &[
    Knob::new(
        "taskmanager.load-balance.mode",
        Kind::Choice(&["none", "slots", "min_resources", "tasks"]),
        SCHED,
        "How slots and tasks spread over TaskManagers: none (Flink's default), slots, min_resources or tasks (FLIP-370). Unset: cluster.evenly-spread-out-slots decides.",
    )
    .optional(),
    Knob::new(
        "cluster.evenly-spread-out-slots",
        Kind::Bool,
        SCHED,
        "Deprecated (removed in Flink 2.0): spread slots over TaskManagers; with the load-balance mode unset it means slots.",
    ),
    Knob::new("jobmanager.scheduler", Kind::Choice(&["default", "adaptive"]), SCHED, "The default scheduler, or the adaptive one (parallelism follows the slots offered)."),
    Knob::new("slot.request.max-interval", DURATION, SCHED, "The slot pool declares a batch of slot requests only after this long without a new request.").unit("ms"),
    Knob::new("slot.request.timeout", DURATION, SCHED, "A slot request not fulfilled this long after it was issued fails.").unit("ms"),
    Knob::new("taskmanager.numberOfTaskSlots", Kind::Int { min: 1, max: 1024 }, SLOTS, "Slots of a TaskManager added without an explicit count."),
    Knob::new(
        "execution.state-recovery.from-local",
        Kind::Bool,
        RECOVERY,
        "Local recovery: after a failover, tasks go back to the slots they had (state.backend.local-recovery before Flink 2.0).",
    )
    .aliases(&["state.backend.local-recovery"]),
    Knob::new("jobmanager.adaptive-scheduler.submission.resource-wait-timeout", DURATION, ADAPTIVE, "How long the adaptive scheduler waits for the minimum resources before the job fails.").unit("ms"),
    Knob::new("jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout", DURATION, ADAPTIVE, "How long it waits with enough but not the desired resources before starting.").unit("ms"),
    Knob::new("jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling", DURATION, ADAPTIVE, "The least time between two rescales of a running job.").unit("ms"),
    Knob::new("jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout", DURATION, ADAPTIVE, "How long a running job waits with more (not the desired) resources before rescaling.").unit("ms"),
    Knob::new("jobmanager.adaptive-scheduler.prefer-minimal-taskmanagers", Kind::Bool, ADAPTIVE, "In application mode, use the fewest TaskManagers."),
    Knob::new("execution.target", Kind::Text, ADAPTIVE, "embedded means application mode (an application cluster's JobManager).").optional(),
];

/// The config's schema: the knob table above, one profile, the cross-key rules.
impl crate::engine::schema::Schema for super::config::Config {
    fn knobs() -> &'static [crate::engine::schema::Knob] {
        KNOBS
    }

    fn profiles() -> Vec<(&'static str, super::config::Config)> {
        vec![("flink", super::config::Config::default())]
    }

    fn rules(&self) -> Result<(), String> {
        super::Sim::check_config(self).map_err(|e| e.to_string())
    }

    fn unmodelled(&self) -> &std::collections::BTreeMap<String, serde_json::Value> {
        &self.unmodelled
    }

    fn compare_keys() -> &'static [&'static str] {
        &["taskmanager.load-balance.mode"]
    }
}
