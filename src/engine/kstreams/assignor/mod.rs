//! Task assignors: each one a type implementing [`TaskAssignor`], in a file of
//! its own, listed once in [`REGISTRY`]:
//! * [`high_availability`] is `HighAvailabilityTaskAssignor` (Kafka's default since 2.6);
//! * [`sticky`] is `LegacyStickyTaskAssignor`;
//! * [`sticky_task_assignor`] is KIP-924's built-in `StickyTaskAssignor`;
//! * [`streams_group`] is the group coordinator's `StickyTaskAssignor` (KIP-1071),
//!   with [`rack_aware_standby_picker`] for its rack-aware standbys;
//! * [`streams_group_balanced`] is the group coordinator's `BalancedTaskAssignor`
//!   (KIP-1357, `streams.assignor.name=balanced`).
//!
//! Which one a rebalance runs is [`crate::engine::kstreams::Config::assignor`];
//! each registry entry's [`StrategyInfo`] names the one config key and value that
//! select it over the defaults (`internal.task.assignor.class`,
//! `task.assignor.class`, `group.protocol` or, in a streams group,
//! `streams.assignor.name`).
//!
//! Standby placement is a separate family in Kafka (`StandbyTaskAssignor`,
//! chosen by `StandbyTaskAssignorFactory` from `rack.aware.assignment.tags` and
//! `client.rack`, not by a class config, and called by the high-availability
//! assignor alone): see [`super::standby`].
//!
//! Also here: the context an assignor works in ([`Ctx`]) and the client-level
//! balancing loop the high-availability assignor uses.

pub mod high_availability;
pub mod rack_aware_standby_picker;
pub mod sticky;
pub mod sticky_task_assignor;
pub mod streams_group;
pub mod streams_group_balanced;

use super::client_state::{ClientState, ConsumerState, TaskMeta};
use super::rack_aware::RackModel;
use super::threads::{self, ThreadTasks};
use super::{Config, Event};
use crate::engine::strategy::StrategyInfo;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Why a task ended up where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// It stays with the client that owned it before.
    Sticky,
    /// Moved to a client whose state is within `acceptable.recovery.lag`.
    CaughtUp,
    /// A caught-up standby on that client was promoted to active.
    StandbyPromoted,
    /// No client is caught up; it went to the least-lagging one.
    MostCaughtUp,
    /// Placed to balance load (round robin / least loaded / rebalancing moves).
    Balance,
    /// Moved by the rack-aware optimizer to cut cross-rack traffic.
    Rack,
    /// A warm-up replica, restoring so the task can move here later.
    WarmUp,
    /// A standby on the least-loaded client without a copy.
    LeastLoaded,
    /// A standby on a client with different rack tag values than the other copies.
    TagDiverse,
    /// Sticky assignor: the client had it as a standby before.
    PreviousStandby,
    /// A standby on the member that ran the task as active before.
    PreviousActive,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 11] = [
        Reason::Sticky,
        Reason::CaughtUp,
        Reason::StandbyPromoted,
        Reason::MostCaughtUp,
        Reason::Balance,
        Reason::Rack,
        Reason::WarmUp,
        Reason::LeastLoaded,
        Reason::TagDiverse,
        Reason::PreviousStandby,
        Reason::PreviousActive,
    ];

    /// The name events carry (`sticky`, `caught_up`, …).
    pub fn name(self) -> &'static str {
        match self {
            Reason::Sticky => "sticky",
            Reason::CaughtUp => "caught_up",
            Reason::StandbyPromoted => "standby_promoted",
            Reason::MostCaughtUp => "most_caught_up",
            Reason::Balance => "balance",
            Reason::Rack => "rack",
            Reason::WarmUp => "warm_up",
            Reason::LeastLoaded => "least_loaded",
            Reason::TagDiverse => "tag_diverse",
            Reason::PreviousStandby => "previous_standby",
            Reason::PreviousActive => "previous_active",
        }
    }

    /// Plain words.
    pub fn words(self) -> &'static str {
        match self {
            Reason::Sticky => "sticky: it stays with its previous owner",
            Reason::CaughtUp => "caught-up: that instance's state is within acceptable.recovery.lag",
            Reason::StandbyPromoted => "caught-up standby promoted to active",
            Reason::MostCaughtUp => "no instance is caught up; the least-lagging one takes it",
            Reason::Balance => "balance: spread by load",
            Reason::Rack => "rack: moved to cut cross-rack traffic",
            Reason::WarmUp => "warm-up: restoring here so the task can move later",
            Reason::LeastLoaded => "least-loaded instance without a copy",
            Reason::TagDiverse => "rack tags differ from the other copies",
            Reason::PreviousStandby => "it had this task as a standby before",
            Reason::PreviousActive => "it ran this task as active before",
        }
    }
}

/// Kafka's class name of the high-availability assignor.
pub const HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS: &str =
    "org.apache.kafka.streams.processor.internals.assignment.HighAvailabilityTaskAssignor";
/// Kafka's class name of the legacy sticky assignor.
pub const LEGACY_STICKY_TASK_ASSIGNOR_CLASS: &str =
    "org.apache.kafka.streams.processor.internals.assignment.LegacyStickyTaskAssignor";
/// Kafka's class name of KIP-924's built-in `StickyTaskAssignor`.
pub const STICKY_TASK_ASSIGNOR_CLASS: &str =
    "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor";

/// The legacy assignor of `internal.task.assignor.class` (`AssignorConfiguration`:
/// `HighAvailabilityTaskAssignor` unless set). Written as Kafka's class name; read
/// from a class name or lbscope's short names `high_availability` / `sticky`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AssignorKind {
    /// `HighAvailabilityTaskAssignor` (the default).
    #[default]
    HighAvailability,
    /// `LegacyStickyTaskAssignor`.
    Sticky,
}

impl Serialize for AssignorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            AssignorKind::HighAvailability => HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS,
            AssignorKind::Sticky => LEGACY_STICKY_TASK_ASSIGNOR_CLASS,
        })
    }
}

impl<'de> Deserialize<'de> for AssignorKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS | "high_availability" => Ok(AssignorKind::HighAvailability),
            LEGACY_STICKY_TASK_ASSIGNOR_CLASS | "sticky" => Ok(AssignorKind::Sticky),
            _ => Err(serde::de::Error::custom(format!(
                "Expected an instantiable class name for internal.task.assignor.class (a LegacyTaskAssignor: {HIGH_AVAILABILITY_TASK_ASSIGNOR_CLASS} or {LEGACY_STICKY_TASK_ASSIGNOR_CLASS}) but got {s}"
            ))),
        }
    }
}

/// The assignor that computes a rebalance's assignment (from `group.protocol`,
/// `task.assignor.class` and `internal.task.assignor.class`, see
/// [`crate::engine::kstreams::Config::assignor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assignor {
    /// `HighAvailabilityTaskAssignor`.
    HighAvailability,
    /// `LegacyStickyTaskAssignor`.
    Sticky,
    /// KIP-924's `org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor`.
    StickyTaskAssignor,
    /// The group coordinator's `StickyTaskAssignor` (`group.protocol=streams`, KIP-1071).
    StreamsGroupSticky,
    /// The group coordinator's `BalancedTaskAssignor` (`streams.assignor.name=balanced`).
    StreamsGroupBalanced,
}

impl Assignor {
    /// Its implementation, from [`REGISTRY`].
    pub fn strategy(self) -> &'static dyn TaskAssignor {
        of(self)
    }

    /// Kafka's class name.
    pub fn class_name(self) -> &'static str {
        of(self).class_name()
    }

    /// The name the event log prints.
    pub fn label(self) -> &'static str {
        of(self).label()
    }
}

/// A task assignor: Kafka's `LegacyTaskAssignor` (the classic protocol's
/// `internal.task.assignor.class`), KIP-924's `TaskAssignor`
/// (`task.assignor.class`) and the group coordinator's streams `TaskAssignor`
/// (`group.protocol=streams`) all take the group's tasks and the members'
/// subscriptions and answer who runs what; here they share one shape.
///
/// The rebalance around it ([`crate::engine::kstreams::state`]) builds the
/// subscriptions (previous tasks, lags, capacity, racks), runs
/// [`TaskAssignor::assign`], spreads each client's tasks over its stream threads
/// ([`TaskAssignor::thread_tasks`]) and reports what moved.
pub trait TaskAssignor: Sync {
    /// Which one (as events name it).
    fn id(&self) -> Assignor;

    /// Kafka's class name.
    fn class_name(&self) -> &'static str;

    /// The name the event log prints.
    fn label(&self) -> &'static str;

    /// What the registry tells about it: the config key and value that select it.
    fn info(&self) -> StrategyInfo;

    /// Assign every task in `ctx` to clients (filling `ctx.clients`' `active` and
    /// `standby`, the reasons, warm-ups and log); true when a follow-up probing
    /// rebalance is needed.
    fn assign(&self, ctx: &mut Ctx) -> bool;

    /// Client `ci`'s tasks per stream thread (`consumers` in consumer-key
    /// order), after [`TaskAssignor::assign`]. By default the classic protocol's
    /// `StreamsPartitionAssignor` spreads them ([`threads::distribute`]).
    fn thread_tasks(&self, ctx: &Ctx, ci: usize, consumers: &[ConsumerState]) -> Vec<ThreadTasks> {
        threads::distribute(ctx, ci, consumers)
    }
}

/// Every task assignor, in the order the settings list them.
pub static REGISTRY: [&dyn TaskAssignor; 5] = [
    &high_availability::HighAvailabilityTaskAssignor,
    &sticky::LegacyStickyTaskAssignor,
    &sticky_task_assignor::StickyTaskAssignor,
    &streams_group::StreamsGroupStickyTaskAssignor,
    &streams_group_balanced::StreamsGroupBalancedTaskAssignor,
];

/// The implementation of `a`.
pub fn of(a: Assignor) -> &'static dyn TaskAssignor {
    REGISTRY
        .iter()
        .copied()
        .find(|s| s.id() == a)
        .unwrap_or(REGISTRY[0])
}

/// What the registry tells about each task assignor, in registry order.
pub fn infos() -> Vec<StrategyInfo> {
    REGISTRY.iter().map(|s| s.info()).collect()
}

/// The assignor's working state for one rebalance.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// Tasks in `TaskId` order.
    pub tasks: &'a [TaskMeta],
    /// Clients in `ProcessId` order.
    pub clients: Vec<ClientState>,
    /// Config.
    pub cfg: &'a Config,
    /// Rack information when rack-aware assignment can be enabled.
    pub rack: Option<RackModel>,
    /// Why each active task is where it is.
    pub active_reason: Vec<Reason>,
    /// Why each standby is where it is, by (client, task).
    pub standby_reason: BTreeMap<(usize, usize), Reason>,
    /// Standbys that are warm-ups, by (client, task).
    pub warmups: BTreeSet<(usize, usize)>,
    /// Events raised while assigning (rack optimizer reports, warnings).
    pub log: Vec<Event>,
    /// Standby replicas per stateful task to place.
    pub standby_replicas: u32,
    /// Per client, per consumer (in `ClientState::consumers` order): the active and
    /// standby tasks an assignor that assigns members itself gave it (the streams
    /// group's); `None` when tasks are spread over threads afterwards.
    pub member_tasks: Option<Vec<Vec<MemberTasks>>>,
}

/// One member's (stream thread's) tasks from an assignor that assigns members.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemberTasks {
    /// Active tasks.
    pub active: BTreeSet<usize>,
    /// Standby tasks.
    pub standby: BTreeSet<usize>,
}

impl<'a> Ctx<'a> {
    /// Members that set `client.rack`.
    pub fn members_with_rack(&self) -> u32 {
        self.clients.iter().filter(|c| c.rack.is_some()).count() as u32
    }

    /// A fresh context.
    pub fn new(
        tasks: &'a [TaskMeta],
        clients: Vec<ClientState>,
        cfg: &'a Config,
        rack: Option<RackModel>,
    ) -> Self {
        Ctx {
            tasks,
            clients,
            cfg,
            rack,
            active_reason: vec![Reason::Balance; tasks.len()],
            standby_reason: BTreeMap::new(),
            warmups: BTreeSet::new(),
            log: Vec::new(),
            standby_replicas: cfg.standby_replicas(),
            member_tasks: None,
        }
    }

    /// Stateful task indices, sorted.
    pub fn stateful(&self) -> Vec<usize> {
        (0..self.tasks.len())
            .filter(|&t| self.tasks[t].stateful)
            .collect()
    }

    /// Stateless task indices, sorted.
    pub fn stateless(&self) -> Vec<usize> {
        (0..self.tasks.len())
            .filter(|&t| !self.tasks[t].stateful)
            .collect()
    }

    /// Assign standby `t` to client `c`.
    pub fn add_standby(&mut self, c: usize, t: usize, why: Reason) {
        self.clients[c].standby.insert(t);
        self.standby_reason.insert((c, t), why);
    }

    /// Remove standby `t` from client `c`.
    pub fn remove_standby(&mut self, c: usize, t: usize) {
        self.clients[c].standby.remove(&t);
        self.standby_reason.remove(&(c, t));
        self.warmups.remove(&(c, t));
    }
}

/// Kafka's `shouldMoveATask`: move only if it lowers the load skew without
/// reversing it (computed in doubles, as Kafka does).
fn should_move(src: &ClientState, dst: &ClientState) -> bool {
    let load = |c: &ClientState| c.assigned() as f64 / f64::from(c.capacity.max(1));
    let skew = load(src) - load(dst);
    if skew <= 0.0 {
        return false;
    }
    let at_dst = (dst.assigned() as f64 + 1.0) / f64::from(dst.capacity.max(1));
    let at_src = (src.assigned() as f64 - 1.0) / f64::from(src.capacity.max(1));
    let proposed = at_src - at_dst;
    proposed >= 0.0 && proposed < skew
}

/// Kafka's `balanceTasksOverThreads` (which balances across *clients* by
/// per-thread load): for every ordered pair of clients, move tasks (lowest id
/// first) from source to destination while that lowers the skew.
pub fn balance_over_clients(ctx: &mut Ctx, standby: bool, allowed: &dyn Fn(usize, usize) -> bool) {
    let n = ctx.clients.len();
    // Each pass that moves something strictly lowers the load spread; the cap only
    // guards against an unforeseen cycle.
    for _pass in 0..10_000 {
        let mut moved = false;
        for s in 0..n {
            // A client with nothing of this kind to give is never a source: skipping
            // it here (instead of testing every destination) keeps a pass linear in
            // clients × sources, not quadratic in clients.
            let empty = if standby {
                ctx.clients[s].standby.is_empty()
            } else {
                ctx.clients[s].active.is_empty()
            };
            if empty {
                continue;
            }
            for d in 0..n {
                if s == d || !should_move(&ctx.clients[s], &ctx.clients[d]) {
                    continue;
                }
                let source: Vec<usize> = if standby {
                    ctx.clients[s].standby.iter().copied().collect()
                } else {
                    ctx.clients[s].active.iter().copied().collect()
                };
                for t in source {
                    if !should_move(&ctx.clients[s], &ctx.clients[d]) {
                        break;
                    }
                    if ctx.clients[d].has_assigned(t) || !allowed(s, d) {
                        continue;
                    }
                    if standby {
                        let why = ctx
                            .standby_reason
                            .get(&(s, t))
                            .copied()
                            .unwrap_or(Reason::Balance);
                        ctx.remove_standby(s, t);
                        ctx.add_standby(
                            d,
                            t,
                            if why == Reason::TagDiverse {
                                why
                            } else {
                                Reason::Balance
                            },
                        );
                    } else {
                        ctx.clients[s].active.remove(&t);
                        ctx.clients[d].active.insert(t);
                        ctx.active_reason[t] = Reason::Balance;
                    }
                    moved = true;
                }
            }
        }
        if !moved {
            break;
        }
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use crate::engine::kstreams::{Action, Event, Sim, SubtopologySpec};
    use crate::engine::Engine;

    /// A reason's name is the one its serialised form carries.
    #[test]
    fn reason_names_are_their_serialised_names() {
        for r in Reason::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), serde_json::json!(r.name()));
        }
    }

    /// Each assignor is in the registry once and names itself.
    #[test]
    fn every_assignor_is_registered_once() {
        let all = [
            Assignor::HighAvailability,
            Assignor::Sticky,
            Assignor::StickyTaskAssignor,
            Assignor::StreamsGroupSticky,
            Assignor::StreamsGroupBalanced,
        ];
        for a in all {
            assert_eq!(REGISTRY.iter().filter(|s| s.id() == a).count(), 1, "{a:?}");
            assert_eq!(of(a).id(), a);
        }
        assert_eq!(REGISTRY.len(), all.len());
    }

    /// The config each entry names selects it: the rebalance reports that assignor.
    #[test]
    fn each_entry_is_selected_by_its_config() {
        for s in REGISTRY {
            let info = s.info();
            let cfg = Sim::strategy_config(&info).expect("the entry's key and value are a valid config");
            assert_eq!(cfg.assignor(), s.id(), "{info:?}");
            let mut sim = Sim::new(cfg, 1).unwrap();
            sim.apply(&Action::DefineTopic {
                topic: "in".into(),
                partitions: 2,
                racks: vec![],
                replication_factor: 1,
            })
            .unwrap();
            sim.apply(&Action::AddInstance {
                name: "a".into(),
                threads: None,
                rack: None,
                tags: Default::default(),
                process_id: None,
            })
            .unwrap();
            let spec: SubtopologySpec =
                serde_json::from_value(serde_json::json!({"sources": ["in"]})).unwrap();
            let evs = sim
                .apply(&Action::DefineTopology {
                    subtopologies: vec![spec],
                    copartition_groups: vec![],
                })
                .unwrap();
            let ran = evs.iter().find_map(|e| match e {
                Event::RebalanceStarted { assignor, .. } => Some(*assignor),
                _ => None,
            });
            assert_eq!(ran, Some(s.id()), "{info:?}");
        }
        assert_eq!(
            Sim::strategies().len(),
            REGISTRY.len() + super::super::standby::infos().len() + super::super::rack_aware::infos().len()
        );
    }
}
