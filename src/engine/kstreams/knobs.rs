//! Every Kafka Streams config key lbscope knows, as `StreamsConfig` spells it:
//! type and range, unit, settings-panel section and a one-line doc. Defaults
//! come from [`super::Config::default`].

use crate::engine::schema::{Kind, Knob};

const APP: &str = "Application";
const ASSIGN: &str = "Assignment";
const RACK: &str = "Rack awareness";
const SIM: &str = "Simulation";

/// The table.
pub(super) const KNOBS: &[Knob] = &[
    Knob::new(
        "application.id",
        Kind::Text,
        APP,
        "The application's id; names the changelog topics (<application.id>-<store>-changelog).",
    ),
    Knob::new(
        "num.stream.threads",
        Kind::Int { min: 1, max: 1024 },
        APP,
        "Stream threads of an instance started without an explicit count.",
    ),
    Knob::new(
        "num.standby.replicas",
        Kind::Int { min: 0, max: 16 },
        ASSIGN,
        "Standby replicas of each stateful task.",
    ),
    Knob::new(
        "acceptable.recovery.lag",
        Kind::Int {
            min: 0,
            max: i64::MAX,
        },
        ASSIGN,
        "A client whose state is within this many records of the end is caught up.",
    )
    .unit("records"),
    Knob::new(
        "max.warmup.replicas",
        Kind::Int {
            min: 1,
            max: i32::MAX as i64,
        },
        ASSIGN,
        "Warm-up replicas allowed at once, over the whole group.",
    ),
    Knob::new(
        "probing.rebalance.interval.ms",
        Kind::Int {
            min: 60_000,
            max: i64::MAX,
        },
        ASSIGN,
        "How long after a rebalance with warm-ups the next probing rebalance comes.",
    )
    .unit("ms"),
    Knob::new(
        "task.assignor.class",
        Kind::Text,
        ASSIGN,
        "KIP-924: a TaskAssignor class (the built-in org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor); unset: internal.task.assignor.class. lbscope also reads high_availability and sticky as the legacy assignors.",
    )
    .optional(),
    Knob::new(
        "internal.task.assignor.class",
        Kind::Choice(&[
            "org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor",
            "org.apache.kafka.streams.processor.internals.assignment.LegacyStickyTaskAssignor",
        ]),
        ASSIGN,
        "The legacy assignor when task.assignor.class is unset (HighAvailabilityTaskAssignor by default).",
    ),
    Knob::new(
        "group.protocol",
        Kind::Choice(&["classic", "streams"]),
        ASSIGN,
        "classic: the client-side assignors; streams (KIP-1071): the group coordinator's assignor.",
    ),
    Knob::new("group.streams.num.standby.replicas", Kind::Int { min: 0, max: 16 }, ASSIGN, "Broker: standbys per task of a streams group that sets none."),
    Knob::new("group.streams.max.standby.replicas", Kind::Int { min: 0, max: 16 }, ASSIGN, "Broker: the most standbys a streams group may set."),
    Knob::new("streams.num.standby.replicas", Kind::Int { min: 0, max: 16 }, ASSIGN, "Group: standbys per task under the streams protocol (unset: the broker's default).").optional(),
    Knob::new(
        "group.streams.assignors",
        Kind::TextList,
        ASSIGN,
        "Broker (KIP-1357): the assignors streams groups may run, by name (sticky, balanced) or class name; the first is the default.",
    ),
    Knob::new(
        "streams.assignor.name",
        Kind::Choice(&["sticky", "balanced"]),
        ASSIGN,
        "Group (KIP-1357): which of group.streams.assignors the group runs (unset: the first).",
    )
    .optional(),
    Knob::new(
        "rack.aware.assignment.tags",
        Kind::TextList,
        RACK,
        "Client tag keys that standbys are spread over; under group.protocol=streams the first key counts most.",
    ),
    Knob::new(
        "rack.aware.assignment.strategy",
        Kind::Choice(&["none", "min_traffic", "balance_subtopology"]),
        RACK,
        "Rack-aware assignment of active tasks: none, min_traffic or balance_subtopology.",
    ),
    Knob::new(
        "rack.aware.assignment.traffic_cost",
        Kind::Int {
            min: 0,
            max: i32::MAX as i64,
        },
        RACK,
        "Cost of cross-rack traffic in the rack-aware optimisation (unset: the assignor's default).",
    )
    .optional(),
    Knob::new(
        "rack.aware.assignment.non_overlap_cost",
        Kind::Int {
            min: 0,
            max: i32::MAX as i64,
        },
        RACK,
        "Cost of moving a task away from its previous client (unset: the assignor's default).",
    )
    .optional(),
    Knob::new(
        "lbscope.restore.records.per.second",
        Kind::Int {
            min: 1,
            max: i64::MAX,
        },
        SIM,
        "lbscope's own: records per second one replica restores from its changelog.",
    )
    .unit("records/s"),
];
