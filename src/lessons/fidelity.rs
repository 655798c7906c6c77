//! Fidelity notes: every place where the documents and the real code disagree, and
//! every place lbscope simplifies. Each note says what the doc says, what the code
//! does and what lbscope does, and names the lesson that shows it (if any). The
//! numbers here are checked against the engine in `tests/lessons.rs`.

use crate::engine::System;
use serde::Serialize;

/// One fidelity note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FidelityNote {
    /// The system.
    pub system: System,
    /// Short topic.
    pub topic: &'static str,
    /// What the document says.
    pub doc: &'static str,
    /// What the real code does.
    pub code: &'static str,
    /// What lbscope does.
    pub lbscope: &'static str,
    /// The lesson that shows it, if any.
    pub lesson: Option<&'static str>,
}

const fn note(
    system: System,
    topic: &'static str,
    doc: &'static str,
    code: &'static str,
    lbscope: &'static str,
    lesson: Option<&'static str>,
) -> FidelityNote {
    FidelityNote {
        system,
        topic,
        doc,
        code,
        lbscope,
        lesson,
    }
}

use System::{Flink as F, Kstreams as K, Pulsar as P};

/// Every note, grouped by system in course order.
pub fn notes() -> Vec<FidelityNote> {
    vec![
        note(P, "Topic hash example",
            "hash(\"my-topic\") = 0x0000000F, as an example.",
            "The bundle is found from the CRC-32 of the full topic name, e.g. persistent://public/default/my-topic hashes to 0x2bad45f7.",
            "Hashes like Pulsar; lessons pin topics with CreateTopicWithHash where the doc gives positions.",
            Some("pulsar-bundles-on-the-ring")),
        note(P, "Version defaults",
            "Pulsar 5.0 defaults: 32 bundles (64 for pulsar/system), AvgShedder for shedding and placement, maxUnloadPercentage 0.5, distribute-evenly off; 4.x: ThresholdShedder, LeastLongTermMessageRate, 0.2.",
            "As the doc says, per version.",
            "The default config is the 4.x profile (4 bundles, ThresholdShedder); the Pulsar 5.0 profile is available as SetProfile / the settings panel.",
            Some("pulsar-avg-shedder")),
        note(P, "topic_count_equally_divide boundary",
            "Six topics in [0x00000000, 0x80000000): the boundary is 0x50000000.",
            "The boundary is the midpoint of the two middle topic hashes: 0x35000000 + (0x65000000 − 0x35000000) / 2 = 0x4D000000.",
            "Computes 0x4D000000 like Pulsar; any boundary in (0x35000000, 0x65000000] splits 3/3, so the doc's value is a valid split but not Pulsar's.",
            Some("pulsar-topic-count-equally-divide")),
        note(P, "flow_or_qps_equally_divide boundaries",
            "Case 1 boundaries 0x19500000, 0x31500000, 0x48500000, 0x67000000 (case 2: 0x31500000, 0x67000000; case 3: 0x48500000).",
            "splitPosition = start + (end − start) / 2 + 1; the doc added the hex digits as decimals and left out the +1.",
            "Computes Pulsar's values: 0x1C800001, 0x2E800001, 0x48800001, 0x67000001 (case 2: 0x2E800001, 0x67000001; case 3: 0x48800001), all in one split call.",
            Some("pulsar-flow-or-qps-equally-divide")),
        note(P, "OverloadShedder: how many bundles",
            "The bundle(s) of an overloaded broker are unloaded, higher throughput first.",
            "The class comment says exactly one bundle is unloaded, but the code keeps adding bundles (biggest first) until throughput × (usage − threshold + 5 %) is marked.",
            "Follows the code: with 8 bundles of 10 MB/s and usage 100 %, two bundles are unloaded.",
            Some("pulsar-overload-shedder")),
        note(P, "ThresholdShedder target",
            "A broker above average + threshold sheds enough to bring it 5 % below the cluster average.",
            "The code offloads at least usage − average − threshold + 5 %, i.e. it aims 5 % below average + threshold (40 %, 20 %, 10 %: 15 %, not 25 %).",
            "Follows the code; the lesson prints both numbers.",
            Some("pulsar-threshold-shedder")),
        note(P, "Memory weight",
            "Overload is judged from CPU, network and memory usage.",
            "Since Pulsar 3.0 heap memory is excluded from the max resource usage; loadBalancerMemoryResourceWeight is deprecated.",
            "Leaves heap memory out of the max (weighted) usage, as Pulsar 3.0+.",
            None),
        note(P, "UniformLoadShedder amount",
            "Finds bundles to distribute traffic evenly between the most and least loaded broker.",
            "Moves (max − min) × maxUnloadPercentage, truncated to an integer, taking the biggest bundles that still fit, and only above minUnloadMessage / minUnloadMessageThroughput.",
            "Follows the code.",
            Some("pulsar-uniform-load-shedder")),
        note(P, "TransferShedder moves",
            "Unloads bundles from the highest to the lowest loaded broker until the standard deviation is below loadBalancerBrokerLoadTargetStd and no broker is significantly under- or overloaded.",
            "Also swaps a bundle back from the lowest loaded broker when the next bundle alone would overshoot; the condition must hold in more than loadBalancerSheddingConditionHitCountThreshold consecutive passes.",
            "Follows the code (the lesson shows a swap on the 4th round). Simplified: every broker's data is fresh (no TTL or cool-down checks), no isolation or anti-affinity policies.",
            Some("pulsar-transfer-shedder")),
        note(P, "AvgShedder example and hit counts",
            "Scores 20, 30, 52, 70, 80: the 80 (1000 msg/s) / 20 (500 msg/s) pair sheds 250 msg/s; thresholds 15 / 40 need 8 / 2 consecutive hits.",
            "Same hit counts (loadBalancerAvgShedderHitCountLowThreshold 8, ...HighThreshold 2), but a move below minUnloadMessage (default 1000 msg/s) is not made, so the doc's 250 msg/s move would not happen with defaults.",
            "Follows the code; the lesson lowers minUnloadMessage to 100 and shows the wait on the first hit and the move on the second.",
            Some("pulsar-avg-shedder")),
        note(P, "Load model",
            "Brokers measure CPU, memory, direct memory and NIC usage on the host.",
            "Host measurements (SystemResourceUsage).",
            "lbscope has no host: usage is derived from the traffic a broker serves by a simple linear model, or set directly per broker (as lessons do for 40 % / 10 % / 10 %).",
            Some("pulsar-threshold-shedder")),
        note(P, "Report threshold",
            "Not mentioned.",
            "A broker publishes a new load report only when a signal changed by more than loadBalancerReportUpdateThresholdPercentage (10) or after loadBalancerReportUpdateMaxIntervalMinutes.",
            "Modelled; the shedding lessons give every broker some traffic so each publishes at the first round.",
            None),
        note(F, "slots mode",
            "The balanced strategy is the tasks mode; the default can leave 4 tasks on one TaskManager and 2 on another.",
            "taskmanager.load-balance.mode: slots (and the deprecated cluster.evenly-spread-out-slots) only spread slots over TaskManagers by slot utilisation.",
            "Same: on 3 TaskManagers × 2 slots the figure stays [4, 3, 2] in slots mode.",
            Some("flink-slots-mode-is-not-tasks-mode")),
        note(F, "tasks mode with spare slots",
            "Each slot request goes to the TaskManager with the fewest tasks.",
            "The ResourceManager first picks the slots (any matching: first TaskManager with a free slot); the balancing only chooses among the TaskManagers whose slots the job received.",
            "Same: with a fourth idle TaskManager the job runs [3, 3, 3, 0].",
            Some("flink-phase-2-slots-to-taskmanagers")),
        note(F, "Balanced is not always narrower",
            "Tasks mode makes the per-TaskManager task counts as close as possible.",
            "It balances task counts greedily per request; with uneven TaskManagers it can be worse than the default.",
            "Counter-example: tm-0 with 2 slots, tm-1 with 4, JV-A 6 → hash → JV-B 2: default [4, 4], tasks [3, 5].",
            Some("flink-when-not-to-use-tasks-mode")),
        note(F, "slot.request.max-interval model",
            "After a failover a delayed resource view can unbalance the result; raise slot.request.max-interval (e.g. by 50 ms).",
            "The slot pool declares requirements after the interval; slots arrive asynchronously from the ResourceManager.",
            "Simulated time: a batch is matched after max-interval with no new request or slot; a TaskManager restarting within the interval restarts the wait (default 20 ms: [4, 3, 2] after 70 ms; 70 ms: [3, 3, 3] after 120 ms).",
            Some("flink-failover-max-interval")),
        note(F, "Restart scope",
            "Not mentioned.",
            "A failover restarts the failed pipelined region.",
            "Restarts the whole job (correct for jobs that are one pipelined region, as with any hash edge).",
            None),
        note(K, "client.rack for standbys",
            "client.rack can also spread standbys over racks other than the active's, like rack.aware.assignment.tags; the tags win when both are set.",
            "StandbyTaskAssignorFactory would use client.rack as the tag rack when no tags are set, but only if it is given a RackAwareTaskAssignor, and HighAvailabilityTaskAssignor (the default) passes none; LegacyStickyTaskAssignor and KIP-924's StickyTaskAssignor place standbys without rack information, and the streams group's StickyTaskAssignor only reads rack.aware.assignment.tags. So with client.rack but no tags, standbys go to the least-loaded instance without a copy under every rack.aware.assignment.strategy; with min_traffic or balance_subtopology the rack-aware optimizer then swaps standbys between racks only to cut changelog cross-rack traffic.",
            "Follows the code: client.rack alone never spreads standbys; the StandbyAssignorChosen event says which standby assignor ran, with which tags and how many members set client.rack. The lesson spreads standbys with the client tag rack and rack.aware.assignment.tags = [rack].",
            Some("kstreams-rack-aware-standbys")),
        note(K, "balance_subtopology without a feasible flow",
            "Not mentioned.",
            "Kafka throws when the min-cost flow has no feasible flow that carries every task.",
            "With no feasible flow, keeps the balanced assignment and emits a warning.",
            None),
        note(K, "Changelog volume",
            "Each state store has a changelog topic tracking its updates.",
            "Changelog records are store updates (compacted).",
            "One changelog record per input record of a stateful task; restore time = records / lbscope.restore.records.per.second.",
            Some("kstreams-state-restore")),
        note(K, "Local state after a move",
            "Not mentioned.",
            "A task's state directory is deleted state.cleanup.delay.ms after the task left the instance.",
            "Local state stays in the instance's state directory (also across crashes).",
            None),
        note(K, "Rebalance protocol",
            "Not detailed.",
            "Cooperative rebalancing revokes a moving task in a second rebalance; crashed members are noticed after session.timeout.ms.",
            "A task moves in one rebalance, and a crash is seen at once.",
            Some("kstreams-partitions-to-tasks")),
    ]
}
