//! Every Flink config key lbscope knows, as Flink spells it (`ConfigOptions`):
//! type and range, unit, settings-panel section and a one-line doc. Defaults
//! come from [`super::Config::default`].

use crate::engine::schema::{Kind, Knob};

const SCHED: &str = "Scheduling";
const SLOTS: &str = "Slots";

/// Longest duration lbscope's simulated clock accepts (a year).
pub const MAX_DURATION_MS: u64 = 365 * 24 * 3_600_000;

/// The table.
pub(super) const KNOBS: &[Knob] = &[
    Knob::new(
        "taskmanager.load-balance.mode",
        Kind::Choice(&["none", "slots", "tasks"]),
        SCHED,
        "How tasks spread over TaskManagers: none (Flink's default), slots (spread slots) or tasks (balance task counts, FLIP-370).",
    ),
    Knob::new(
        "cluster.evenly-spread-out-slots",
        Kind::Bool,
        SCHED,
        "Deprecated: spread slots over TaskManagers; with no explicit load-balance mode it means slots.",
    ),
    Knob::new(
        "slot.request.max-interval",
        Kind::Duration { max_ms: MAX_DURATION_MS },
        SCHED,
        "The slot pool declares a batch of slot requests only after this long without a new request.",
    )
    .unit("ms"),
    Knob::new(
        "slot.request.timeout",
        Kind::Duration { max_ms: MAX_DURATION_MS },
        SCHED,
        "A slot request not fulfilled this long after it was issued fails.",
    )
    .unit("ms"),
    Knob::new(
        "taskmanager.numberOfTaskSlots",
        Kind::Int { min: 1, max: 1024 },
        SLOTS,
        "Slots of a TaskManager added without an explicit count.",
    ),
];
