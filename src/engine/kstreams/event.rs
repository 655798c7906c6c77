//! What happened in a Kafka Streams simulation, with the numbers behind it, and
//! its narration.

use super::assignor::{Assignor, Reason};
use super::client::ProcessId;
use super::rack_aware::RackStrategy;
use super::task::TaskId;
use super::{client_state, partitioner};
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One task's offset sum on an instance and the lag it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskOffset {
    /// Task.
    pub task: TaskId,
    /// Offset sum on disk.
    pub offset: u64,
    /// Changelog end offset sum.
    pub end: u64,
    /// The lag the subscription reports (Kafka: the end offset when the offset is past it).
    pub lag: u64,
}

/// The role a replica plays on an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Processes the task.
    Active,
    /// Hot standby.
    Standby,
    /// Warm-up replica (a standby restoring for a later move).
    WarmUp,
}

/// One thread's share of an instance's tasks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThreadLoad {
    /// `N` of `StreamThread-N`.
    pub thread: u32,
    /// Active tasks.
    pub active: Vec<TaskId>,
    /// Standby and warm-up tasks.
    pub standby: Vec<TaskId>,
}

/// What happened, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A topic was created.
    TopicDefined {
        /// Name.
        topic: String,
        /// Partitions.
        partitions: u32,
        /// Broker racks.
        racks: Vec<String>,
    },
    /// The topology was (re)defined.
    TopologyDefined {
        /// Sub-topologies.
        subtopologies: u32,
        /// Tasks.
        tasks: u32,
        /// Stateful tasks.
        stateful_tasks: u32,
        /// Task count per sub-topology (max partitions of its sources).
        tasks_per_subtopology: Vec<u32>,
        /// Changelog topics.
        changelogs: Vec<String>,
    },
    /// An instance joined.
    InstanceAdded {
        /// Name.
        instance: String,
        /// Process id.
        process_id: ProcessId,
        /// Threads.
        threads: u32,
        /// `client.rack`.
        rack: Option<String>,
    },
    /// An instance shut down cleanly.
    InstanceRemoved {
        /// Name.
        instance: String,
        /// Active tasks it gave up.
        active_released: Vec<TaskId>,
    },
    /// An instance crashed.
    InstanceCrashed {
        /// Name.
        instance: String,
        /// Active tasks that lost their owner.
        active_lost: Vec<TaskId>,
        /// Standby copies lost.
        standby_lost: u32,
    },
    /// A crashed instance came back.
    InstanceRestarted {
        /// Name.
        instance: String,
        /// Tasks it still has state for.
        tasks_with_local_state: u32,
    },
    /// A stream thread was added.
    ThreadAdded {
        /// Instance.
        instance: String,
        /// Its index.
        thread: u32,
        /// Threads now.
        threads: u32,
    },
    /// A stream thread was removed.
    ThreadRemoved {
        /// Instance.
        instance: String,
        /// Its index.
        thread: u32,
        /// Threads now.
        threads: u32,
    },
    /// Records were produced.
    Produced {
        /// Topic.
        topic: String,
        /// Partition (for keyed or targeted records).
        partition: Option<u32>,
        /// The key.
        key: Option<String>,
        /// murmur2 of the key (signed, as Kafka returns it).
        murmur2: Option<i32>,
        /// Records.
        records: u64,
        /// Tasks whose input grew.
        tasks: Vec<TaskId>,
    },
    /// Simulated time passed.
    TimeAdvanced {
        /// From.
        from_ms: u64,
        /// To.
        to_ms: u64,
    },
    /// What the produce patterns did.
    Workload(super::workload::WorkloadEvent),
    /// An active task finished restoring and started processing.
    TaskRestored {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Records replayed from the changelog.
        records: u64,
        /// How long it took.
        restore_ms: u64,
    },
    /// A warm-up replica came within `acceptable.recovery.lag`.
    WarmupCaughtUp {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Its lag now.
        lag: u64,
    },
    /// A rebalance began.
    RebalanceStarted {
        /// Generation being formed.
        generation: u64,
        /// Why.
        trigger: String,
        /// Assignor.
        assignor: Assignor,
        /// Members in process-id order (the assignor's client order); at most
        /// [`MAX_LISTED_MEMBERS`] are named.
        members: Vec<String>,
        /// How many members there are.
        #[serde(default)]
        member_count: u32,
        /// Tasks to assign.
        tasks: u32,
    },
    /// A task replica was placed on a (new) instance.
    TaskAssigned {
        /// Task.
        task: TaskId,
        /// Instance.
        instance: String,
        /// Role.
        role: Role,
        /// Why there.
        reason: Reason,
        /// The lag that instance reported (-2: running active).
        lag: i64,
        /// Previous active owner (for actives).
        previous: Option<String>,
        /// Records it must replay before it is ready.
        restore_records: u64,
        /// Estimated restore time at `lbscope.restore.records.per.second`.
        restore_ms: u64,
    },
    /// The rack-aware optimizer ran.
    RackAwareOptimized {
        /// Which tasks.
        target: String,
        /// Strategy.
        strategy: RackStrategy,
        /// Traffic cost used.
        traffic_cost: i64,
        /// Non-overlap cost used.
        non_overlap_cost: i64,
        /// Cost before.
        cost_before: i64,
        /// Cost after (including non-overlap cost of moves).
        cost_after: i64,
        /// Tasks moved.
        moved: u64,
    },
    /// The high-availability assignor's target: stateful actives go round robin
    /// over the members and are balanced without looking at who holds them; a task
    /// leaves that target only when the target is not caught up and a caught-up
    /// member exists.
    HighAvailabilityTarget {
        /// Stateful tasks.
        stateful_tasks: u32,
        /// Members.
        members: u32,
        /// Stateful tasks on which every member is caught up.
        tasks_all_caught_up: u32,
        /// Stateful tasks on which no member is caught up.
        tasks_none_caught_up: u32,
        /// `acceptable.recovery.lag`.
        acceptable_recovery_lag: u64,
        /// Stateful actives whose owner changed.
        moved: u32,
    },
    /// Why the high-availability assignor gave a stateful active a new owner.
    ActiveMovementExplained {
        /// Task.
        task: TaskId,
        /// Its previous owner among the members (none: it had none, e.g. it crashed).
        from: Option<String>,
        /// Its new owner.
        to: String,
        /// Members caught up on it (running it, or lag within
        /// `acceptable.recovery.lag`); at most 8 are named.
        caught_up: Vec<String>,
        /// How many members are caught up on it.
        caught_up_count: u32,
        /// Members.
        members: u32,
        /// `acceptable.recovery.lag`.
        acceptable_recovery_lag: u64,
        /// The lag the new owner reported (-2: running).
        lag: i64,
        /// Records the new owner replays before it runs.
        restore_records: u64,
        /// The new owner is the balanced target (else a caught-up stand-in while a
        /// warm-up restores on the target).
        target: bool,
        /// The previous owner was caught up too (it could have kept the task).
        from_caught_up: bool,
    },
    /// A sticky assignor's active quota: a previous owner keeps (or a previous
    /// standby takes) an active while it has fewer than `threads × per thread`.
    ActiveQuota {
        /// Assignor.
        assignor: Assignor,
        /// All tasks (stateful and stateless).
        tasks: u32,
        /// Stream threads over all members.
        threads: u32,
        /// `floor(tasks / threads)`.
        active_tasks_per_thread: u32,
    },
    /// The streams group's assignor quotas (`ceil(tasks / members)` per member).
    MemberQuotas {
        /// Members (stream threads) in the group.
        members: u32,
        /// Stateful active tasks per member.
        stateful_active_per_member: u32,
        /// Active tasks per member.
        active_per_member: u32,
        /// Active and standby tasks per member.
        tasks_per_member: u32,
        /// Standbys per stateful task.
        standby_replicas: u32,
    },
    /// Which standby assignor places the standbys, and with which rack information.
    StandbyAssignorChosen {
        /// The task assignor that asked for it.
        assignor: Assignor,
        /// `DefaultStandbyTaskAssignor`, `ClientTagAwareStandbyTaskAssignor`, or the
        /// task assignor itself when it places standbys with its own rules.
        standby_assignor: String,
        /// Tag keys the copies are spread over (`rack` when `client.rack` stands in for a tag).
        tags: Vec<String>,
        /// Members that set `client.rack`.
        members_with_client_rack: u32,
        /// Members in the group.
        members: u32,
        /// `rack.aware.assignment.strategy`.
        strategy: RackStrategy,
        /// Whether the rack-aware optimizer then moves standbys (by changelog traffic).
        rack_optimizer: bool,
    },
    /// An instance's tasks were spread over its threads.
    ThreadsAssigned {
        /// Instance.
        instance: String,
        /// Per thread.
        threads: Vec<ThreadLoad>,
    },
    /// A member got no active task: it runs but idles.
    InstanceIdle {
        /// Instance.
        instance: String,
        /// Its threads.
        threads: u32,
        /// Standbys it keeps.
        standbys: u32,
    },
    /// A probing rebalance was scheduled to check on warm-ups.
    ProbingRebalanceScheduled {
        /// When.
        at_ms: u64,
        /// Warm-ups in flight.
        warmups: u32,
    },
    /// A rebalance finished.
    RebalanceCompleted {
        /// Generation.
        generation: u64,
        /// Active tasks assigned.
        active: u32,
        /// Standbys (without warm-ups).
        standby: u32,
        /// Warm-ups.
        warmups: u32,
        /// Actives that stayed put.
        sticky: u32,
        /// Actives that moved (or were new).
        moved: u32,
        /// Members with at least one active task.
        busy_instances: u32,
        /// Members with none.
        idle_instances: u32,
        /// Longest estimated restore among new actives.
        max_restore_ms: u64,
    },
    /// An instance's assignment was set directly.
    AssignmentSet {
        /// Instance.
        instance: String,
        /// Per thread.
        threads: Vec<ThreadLoad>,
        /// Actives still restoring.
        restoring: Vec<TaskId>,
        /// Actives another instance also claims.
        also_active_elsewhere: Vec<TaskId>,
        /// Standbys that are warm-ups.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        warmups: Vec<TaskId>,
    },
    /// Task directories were removed from an instance's disk.
    TaskOffsetsCleared {
        /// Instance.
        instance: String,
        /// The tasks whose directories went.
        tasks: Vec<TaskId>,
    },
    /// Offset sums on an instance's disk were set.
    TaskOffsetsSet {
        /// Instance.
        instance: String,
        /// Offset sum and the lag it gives, per task.
        offsets: Vec<TaskOffset>,
    },
    /// Changelog end offset sums were set.
    EndOffsetsSet {
        /// Per task.
        offsets: BTreeMap<TaskId, u64>,
    },
    /// A topic's partition racks were set.
    PartitionRacksSet {
        /// Topic.
        topic: String,
        /// Racks per partition.
        racks: Vec<Vec<String>>,
    },
    /// A config value changed.
    ConfigSet {
        /// Key.
        key: String,
        /// Value.
        value: serde_json::Value,
    },
    /// Something the user should know.
    Warning {
        /// Text.
        message: String,
    },
}

fn tasks_text(v: &[TaskId]) -> String {
    let s: Vec<String> = v.iter().map(|t| t.to_string()).collect();
    format!("[{}]", s.join(", "))
}

fn strategy_name(s: RackStrategy) -> &'static str {
    match s {
        RackStrategy::None => "none",
        RackStrategy::MinTraffic => "min_traffic",
        RackStrategy::BalanceSubtopology => "balance_subtopology",
    }
}

fn standby_choice_text(
    assignor: Assignor,
    standby_assignor: &str,
    tags: &[String],
    with_rack: u32,
    members: u32,
    strategy: RackStrategy,
    rack_optimizer: bool,
) -> String {
    let mut s = if standby_assignor == "ClientTagAwareStandbyTaskAssignor" {
        format!(
            "standbys by {standby_assignor}: copies spread over different values of [{}], then least loaded",
            tags.join(", ")
        )
    } else if assignor == Assignor::StreamsGroupSticky && !tags.is_empty() {
        format!(
            "standbys by {standby_assignor}: copies spread over different values of [{}] first, then previous owner, then least-loaded instance without a copy",
            tags.join(", ")
        )
    } else if standby_assignor == "DefaultStandbyTaskAssignor" {
        format!("standbys by {standby_assignor}: least-loaded instance without a copy")
    } else {
        format!("standbys by {standby_assignor}'s own rules: previous owner, then least-loaded instance without a copy")
    };
    if tags.is_empty() && with_rack > 0 {
        s.push_str(&format!(
            ". {with_rack} of {members} members set client.rack, but {} passes no rack information to its standby placement, so client.rack does not spread standbys over racks (only rack.aware.assignment.tags does)",
            assignor.class_name()
        ));
    }
    match (strategy, rack_optimizer) {
        (RackStrategy::None, _) => {}
        (st, true) => s.push_str(&format!(
            "; then the rack-aware optimizer ({}) swaps standbys between racks to cut changelog cross-rack traffic, which does not keep them off their active's rack",
            strategy_name(st)
        )),
        (st, false) => s.push_str(&format!(
            "; rack.aware.assignment.strategy {} is set but rack-aware assignment is disabled, so no rack optimizer runs",
            strategy_name(st)
        )),
    }
    s
}

impl Narrate for Event {
    fn narrate(&self) -> String {
        match self {
            Event::TopicDefined { .. }
            | Event::TopologyDefined { .. }
            | Event::InstanceAdded { .. }
            | Event::InstanceCrashed { .. }
            | Event::InstanceRestarted { .. }
            | Event::Produced { .. }
            | Event::TaskRestored { .. } => self.narrate_cluster(),
            Event::InstanceRemoved {
                instance,
                active_released,
            } => {
                format!(
                    "instance {instance} shut down, releasing {}",
                    tasks_text(active_released)
                )
            }
            Event::ThreadAdded {
                instance,
                thread,
                threads,
            } => {
                format!("{instance}: StreamThread-{thread} added ({threads} threads)")
            }
            Event::ThreadRemoved {
                instance,
                thread,
                threads,
            } => {
                format!("{instance}: StreamThread-{thread} removed ({threads} threads)")
            }
            Event::TimeAdvanced { from_ms, to_ms } => format!("time {from_ms} ms -> {to_ms} ms"),
            Event::Workload(e) => e.narrate(),
            Event::WarmupCaughtUp { task, instance, lag } => {
                format!("warm-up of {task} on {instance} caught up (lag {lag})")
            }
            Event::RebalanceStarted { .. }
            | Event::TaskAssigned { .. }
            | Event::RackAwareOptimized { .. }
            | Event::HighAvailabilityTarget { .. }
            | Event::ActiveMovementExplained { .. } => self.narrate_rebalance(),
            Event::ActiveQuota { .. }
            | Event::MemberQuotas { .. }
            | Event::StandbyAssignorChosen { .. }
            | Event::ThreadsAssigned { .. }
            | Event::InstanceIdle { .. }
            | Event::RebalanceCompleted { .. } => self.narrate_distribution(),
            Event::ProbingRebalanceScheduled { at_ms, warmups } => {
                format!("probing rebalance scheduled at {at_ms} ms to check {warmups} warm-ups")
            }
            Event::AssignmentSet { .. }
            | Event::TaskOffsetsCleared { .. }
            | Event::TaskOffsetsSet { .. }
            | Event::EndOffsetsSet { .. }
            | Event::PartitionRacksSet { .. } => self.narrate_state(),
            Event::ConfigSet { key, value } => format!("{key} = {value}"),
            Event::Warning { message } => format!("warning: {message}"),
        }
    }
}

impl Event {
    /// Topics, topology, instances and traffic.
    fn narrate_cluster(&self) -> String {
        match self {
            Event::TopicDefined { topic, partitions, racks } => {
                if racks.is_empty() {
                    format!("topic {topic} created with {partitions} partitions")
                } else {
                    format!("topic {topic} created with {partitions} partitions on racks {}", racks.join(", "))
                }
            }
            Event::TopologyDefined {
                subtopologies,
                tasks,
                stateful_tasks,
                tasks_per_subtopology,
                ..
            } => format!(
                "topology: {subtopologies} sub-topologies -> {tasks} tasks ({stateful_tasks} stateful); tasks per sub-topology = max source partitions = {tasks_per_subtopology:?}"
            ),
            Event::InstanceAdded {
                instance,
                process_id,
                threads,
                rack,
            } => format!(
                "instance {instance} started (process id {process_id}, {threads} threads{})",
                rack.as_ref().map(|r| format!(", rack {r}")).unwrap_or_default()
            ),
            Event::InstanceCrashed {
                instance,
                active_lost,
                standby_lost,
            } => format!(
                "instance {instance} crashed: active tasks {} and {standby_lost} standbys lost their owner",
                tasks_text(active_lost)
            ),
            Event::InstanceRestarted {
                instance,
                tasks_with_local_state,
            } => format!("instance {instance} restarted with local state for {tasks_with_local_state} tasks"),
            Event::Produced {
                topic,
                partition,
                key,
                murmur2,
                records,
                tasks,
            } => match (key, murmur2, partition) {
                (Some(k), Some(h), Some(p)) => format!(
                    "{records} records with key {k:?} -> murmur2 = {h}, toPositive = {}, partition {p} of {topic} (task {})",
                    partitioner::to_positive(*h),
                    tasks_text(tasks)
                ),
                (_, _, Some(p)) => format!("{records} records to {topic}-{p} (tasks {})", tasks_text(tasks)),
                _ => format!("{records} records spread over {topic} (tasks {})", tasks_text(tasks)),
            },
            Event::TaskRestored {
                task,
                instance,
                records,
                restore_ms,
            } => format!("task {task} on {instance} restored {records} records in {restore_ms} ms and is running"),
            _ => unreachable!("narrate_cluster is called only for its kinds"),
        }
    }

    /// A rebalance's start and the assignor's decisions.
    fn narrate_rebalance(&self) -> String {
        match self {
            Event::RebalanceStarted {
                generation,
                trigger,
                assignor,
                members,
                member_count,
                tasks,
            } => {
                let count = (*member_count as usize).max(members.len());
                let more = if count > members.len() {
                    format!(", … and {} more", count - members.len())
                } else {
                    String::new()
                };
                format!(
                    "rebalance {generation} ({trigger}): {} assignor, {tasks} tasks over {count} members [{}{more}]",
                    assignor.label(),
                    members.join(", ")
                )
            }
            Event::TaskAssigned {
                task,
                instance,
                role,
                reason,
                lag,
                previous,
                restore_records,
                restore_ms,
            } => {
                let prev = previous.as_ref().map(|p| format!(" (was on {p})")).unwrap_or_default();
                let lag = if *lag == client_state::LATEST_OFFSET {
                    "running".to_string()
                } else {
                    format!("lag {lag}")
                };
                let restore = if *restore_records > 0 {
                    format!(", restores {restore_records} records in ~{restore_ms} ms")
                } else {
                    String::new()
                };
                format!("{role:?} {task} -> {instance}{prev}: {} [{lag}{restore}]", reason.words())
            }
            Event::RackAwareOptimized {
                target,
                strategy,
                traffic_cost,
                non_overlap_cost,
                cost_before,
                cost_after,
                moved,
            } => format!(
                "rack-aware {strategy:?} on {target} (traffic cost {traffic_cost}, non-overlap cost {non_overlap_cost}): cost {cost_before} -> {cost_after}, {moved} moved"
            ),
            Event::HighAvailabilityTarget {
                stateful_tasks,
                members,
                tasks_all_caught_up,
                tasks_none_caught_up,
                acceptable_recovery_lag,
                moved,
            } => format!(
                "high-availability target: {stateful_tasks} stateful tasks round robin over {members} members, then balanced; every member is caught up (lag <= acceptable.recovery.lag {acceptable_recovery_lag}) on {tasks_all_caught_up} of them and none on {tasks_none_caught_up}. Where the target is caught up it stands, even if another instance holds the task: {moved} stateful actives change owner"
            ),
            Event::ActiveMovementExplained {
                task,
                from,
                to,
                caught_up,
                caught_up_count,
                members,
                acceptable_recovery_lag,
                lag,
                restore_records,
                target,
                from_caught_up,
            } => {
                let more = if (*caught_up_count as usize) > caught_up.len() {
                    format!(", … and {} more", *caught_up_count as usize - caught_up.len())
                } else {
                    String::new()
                };
                let who = format!(
                    "{caught_up_count} of {members} members are caught up on it (lag <= {acceptable_recovery_lag}: [{}{more}])",
                    caught_up.join(", ")
                );
                let lag_text = if *lag == client_state::LATEST_OFFSET {
                    "running".to_string()
                } else {
                    format!("lag {lag}")
                };
                let from_text = match from {
                    Some(f) if *from_caught_up => format!("leaves {f}, which was caught up and could have kept it, and"),
                    Some(f) => format!("leaves {f} and"),
                    None => "had no live owner and".to_string(),
                };
                if *target {
                    format!(
                        "{task} {from_text} goes to {to}, its balanced round-robin target: {who}; the target is caught up ({lag_text}), so it moves now without a warm-up and {to} replays {restore_records} records"
                    )
                } else {
                    format!(
                        "{task} {from_text} goes to {to}, a caught-up stand-in ({lag_text}): {who}; its balanced target was not caught up, so a warm-up restores there; {to} replays {restore_records} records"
                    )
                }
            }
            _ => unreachable!("narrate_rebalance is called only for its kinds"),
        }
    }

    /// Quotas, standby assignor, threads and the rebalance's end.
    fn narrate_distribution(&self) -> String {
        match self {
            Event::ActiveQuota {
                assignor,
                tasks,
                threads,
                active_tasks_per_thread,
            } => format!(
                "{}: {tasks} tasks over {threads} threads, floor = {active_tasks_per_thread} per thread: a previous owner (then a previous standby) keeps an active while it runs fewer than its threads × {active_tasks_per_thread}",
                assignor.class_name()
            ),
            Event::MemberQuotas {
                members,
                stateful_active_per_member,
                active_per_member,
                tasks_per_member,
                standby_replicas,
            } => format!(
                "streams group quotas over {members} members: {stateful_active_per_member} stateful actives, {active_per_member} actives and {tasks_per_member} tasks (with {standby_replicas} standbys per stateful task) per member, rounded up; a previous owner keeps a task while under its quota"
            ),
            Event::StandbyAssignorChosen {
                assignor,
                standby_assignor,
                tags,
                members_with_client_rack,
                members,
                strategy,
                rack_optimizer,
            } => standby_choice_text(
                *assignor,
                standby_assignor,
                tags,
                *members_with_client_rack,
                *members,
                *strategy,
                *rack_optimizer,
            ),
            Event::ThreadsAssigned { instance, threads } => {
                let parts: Vec<String> = threads
                    .iter()
                    .map(|t| format!("T{}: {} active + {} standby", t.thread, t.active.len(), t.standby.len()))
                    .collect();
                format!("{instance} threads: {}", parts.join("; "))
            }
            Event::InstanceIdle {
                instance,
                threads,
                standbys,
            } => format!("{instance} ({threads} threads) has no active task and idles ({standbys} standbys)"),
            Event::RebalanceCompleted {
                generation,
                active,
                standby,
                warmups,
                sticky,
                moved,
                busy_instances,
                idle_instances,
                max_restore_ms,
            } => format!(
                "generation {generation}: {active} active ({sticky} sticky, {moved} moved), {standby} standby, {warmups} warm-up; {busy_instances} busy and {idle_instances} idle instances; longest restore ~{max_restore_ms} ms"
            ),
            _ => unreachable!("narrate_distribution is called only for its kinds"),
        }
    }

    /// An assignment, offsets or partition racks set by hand.
    fn narrate_state(&self) -> String {
        match self {
            Event::AssignmentSet {
                instance,
                threads,
                restoring,
                also_active_elsewhere,
                warmups,
            } => {
                let parts: Vec<String> = threads
                    .iter()
                    .map(|t| {
                        format!(
                            "StreamThread-{} active {} standby {}",
                            t.thread,
                            tasks_text(&t.active),
                            tasks_text(&t.standby)
                        )
                    })
                    .collect();
                let mut s = format!("{instance}'s assignment set: {}", parts.join("; "));
                if !restoring.is_empty() {
                    s.push_str(&format!("; still restoring {}", tasks_text(restoring)));
                }
                if !also_active_elsewhere.is_empty() {
                    s.push_str(&format!(
                        "; {} also claimed as active by another instance",
                        tasks_text(also_active_elsewhere)
                    ));
                }
                if !warmups.is_empty() {
                    s.push_str(&format!("; warm-ups {}", tasks_text(warmups)));
                }
                s
            }
            Event::TaskOffsetsCleared { instance, tasks } => {
                if tasks.is_empty() {
                    format!("{instance} had no unassigned task directory to remove")
                } else {
                    format!(
                        "{instance} no longer holds {}: its subscription reports no offset sum for them",
                        tasks_text(tasks)
                    )
                }
            }
            Event::TaskOffsetsSet { instance, offsets } => {
                let parts: Vec<String> = offsets
                    .iter()
                    .map(|o| format!("{} offset sum {} of {} (lag {})", o.task, o.offset, o.end, o.lag))
                    .collect();
                format!("{instance} holds {}", parts.join(", "))
            }
            Event::EndOffsetsSet { offsets } => {
                let parts: Vec<String> = offsets.iter().map(|(t, o)| format!("{t} = {o}")).collect();
                format!("changelog end offset sums: {}", parts.join(", "))
            }
            Event::PartitionRacksSet { topic, racks } => {
                let parts: Vec<String> = racks
                    .iter()
                    .enumerate()
                    .map(|(p, r)| format!("{topic}-{p} on [{}]", r.join(", ")))
                    .collect();
                format!("partition racks: {}", parts.join("; "))
            }
            _ => unreachable!("narrate_state is called only for its kinds"),
        }
    }
}
