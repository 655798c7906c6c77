//! A harness that runs one of lbscope's task assignors on client states built as
//! Kafka's own assignor tests build them (`ClientState(prevActive, prevStandby,
//! taskLags, clientTags, capacity, processId)`), so their cases read alike.

#![allow(dead_code)]

use lbscope::engine::kstreams::assignor::{
    high_availability, sticky, sticky_task_assignor, streams_group, Ctx,
};
use lbscope::engine::kstreams::client_state::{ClientState, ConsumerState, TaskMeta};
use lbscope::engine::kstreams::rack_aware::RackModel;
use lbscope::engine::kstreams::{Config, Event, ProcessId, TaskId};
use std::collections::{BTreeMap, BTreeSet};

/// `TASK_s_p`.
pub fn t(s: u32, p: u32) -> TaskId {
    TaskId::new(s, p)
}

/// Kafka's test `PID_n`: `00000000-0000-0000-0000-00000000000n`.
pub fn pid(n: u64) -> ProcessId {
    ProcessId { msb: 0, lsb: n }
}

/// Which assignor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// `HighAvailabilityTaskAssignor`.
    HighAvailability,
    /// `LegacyStickyTaskAssignor`.
    LegacySticky,
    /// KIP-924's `StickyTaskAssignor`.
    Sticky,
    /// The group coordinator's `StickyTaskAssignor`.
    StreamsGroup,
}

/// One client as a test describes it.
#[derive(Clone, Debug)]
pub struct Client {
    /// `PID_n`.
    pub n: u64,
    /// Threads (members).
    pub capacity: u32,
    /// Previous actives, per thread (index 0 = first thread).
    pub prev_active: Vec<Vec<TaskId>>,
    /// Previous standbys, per thread.
    pub prev_standby: Vec<Vec<TaskId>>,
    /// Reported lags (`Task.LATEST_OFFSET` = -2 for running actives).
    pub lags: BTreeMap<TaskId, i64>,
    /// `client.tag.*`.
    pub tags: BTreeMap<String, String>,
    /// `client.rack`.
    pub rack: Option<String>,
    /// Actives already assigned in this round (for standby assignors and optimizers).
    pub current: Vec<TaskId>,
    /// Standbys already assigned in this round (for optimizers).
    pub current_standby: Vec<TaskId>,
}

/// A client with `capacity` threads and nothing before.
pub fn client(n: u64, capacity: u32) -> Client {
    Client {
        n,
        capacity,
        prev_active: vec![Vec::new(); capacity as usize],
        prev_standby: vec![Vec::new(); capacity as usize],
        lags: BTreeMap::new(),
        tags: BTreeMap::new(),
        rack: None,
        current: Vec::new(),
        current_standby: Vec::new(),
    }
}

impl Client {
    /// Previous actives (all on the first thread).
    pub fn active(mut self, ts: &[TaskId]) -> Self {
        self.prev_active[0].extend_from_slice(ts);
        self
    }

    /// Previous actives of thread `k` (0-based).
    pub fn active_on(mut self, k: usize, ts: &[TaskId]) -> Self {
        self.prev_active[k].extend_from_slice(ts);
        self
    }

    /// Previous standbys (all on the first thread).
    pub fn standby(mut self, ts: &[TaskId]) -> Self {
        self.prev_standby[0].extend_from_slice(ts);
        self
    }

    /// Previous standbys of thread `k`.
    pub fn standby_on(mut self, k: usize, ts: &[TaskId]) -> Self {
        self.prev_standby[k].extend_from_slice(ts);
        self
    }

    /// The lag it reports for each of `ts`.
    pub fn lag(mut self, ts: &[TaskId], lag: i64) -> Self {
        for &x in ts {
            self.lags.insert(x, lag);
        }
        self
    }

    /// Client tags.
    pub fn tags(mut self, kv: &[(&str, &str)]) -> Self {
        self.tags = kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        self
    }

    /// Actives already assigned in this round.
    pub fn assigned_active(mut self, ts: &[TaskId]) -> Self {
        self.current.extend_from_slice(ts);
        self
    }

    /// Standbys already assigned in this round.
    pub fn assigned_standby(mut self, ts: &[TaskId]) -> Self {
        self.current_standby.extend_from_slice(ts);
        self
    }

    /// `client.rack`.
    pub fn rack(mut self, r: &str) -> Self {
        self.rack = Some(r.to_string());
        self
    }

    /// Kafka's `getMockClientWithPreviousCaughtUpTasks`: previous actives with lag 0,
    /// every other stateful task `Long.MAX_VALUE`.
    pub fn caught_up(mut self, actives: &[TaskId], stateful: &[TaskId]) -> Self {
        self = self.active(actives);
        for &x in stateful {
            self.lags
                .insert(x, if actives.contains(&x) { 0 } else { i64::MAX });
        }
        self
    }
}

/// Tasks: the stateful ones have a changelog (and stores).
pub fn tasks(stateful: &[TaskId], stateless: &[TaskId]) -> Vec<TaskMeta> {
    let mut v: Vec<TaskMeta> = stateful
        .iter()
        .map(|&id| TaskMeta {
            id,
            stateful: true,
            end: 1_000_000,
            has_stores: true,
        })
        .chain(stateless.iter().map(|&id| TaskMeta {
            id,
            stateful: false,
            end: 0,
            has_stores: false,
        }))
        .collect();
    v.sort_by_key(|m| m.id);
    v
}

/// One member's (active, standby) tasks.
pub type MemberOut = (Vec<TaskId>, Vec<TaskId>);

/// The result of one assignment.
#[derive(Debug)]
pub struct Out {
    /// The tasks, as indexed.
    pub tasks: Vec<TaskMeta>,
    /// Client `PID_n` → its index.
    pub order: Vec<u64>,
    /// Final client states.
    pub clients: Vec<ClientState>,
    /// The probing-rebalance answer.
    pub probing: bool,
    /// Events logged.
    pub log: Vec<Event>,
    /// Warm-ups as (client index, task index).
    pub warmups: BTreeSet<(usize, usize)>,
    /// Per client, per thread: (active, standby), when the assignor assigns members.
    pub members: Option<Vec<Vec<MemberOut>>>,
}

impl Out {
    fn at(&self, n: u64) -> &ClientState {
        let i = self.order.iter().position(|&x| x == n).expect("no such client");
        &self.clients[i]
    }

    /// Active tasks of `PID_n`.
    pub fn active(&self, n: u64) -> Vec<TaskId> {
        self.at(n).active.iter().map(|&i| self.tasks[i].id).collect()
    }

    /// Standby (and warm-up) tasks of `PID_n`.
    pub fn standby(&self, n: u64) -> Vec<TaskId> {
        self.at(n).standby.iter().map(|&i| self.tasks[i].id).collect()
    }

    /// Warm-ups of `PID_n`.
    pub fn warmups_of(&self, n: u64) -> Vec<TaskId> {
        let i = self.order.iter().position(|&x| x == n).expect("no such client");
        self.warmups
            .iter()
            .filter(|w| w.0 == i)
            .map(|w| self.tasks[w.1].id)
            .collect()
    }

    /// Active + standby count of `PID_n`.
    pub fn assigned(&self, n: u64) -> usize {
        self.at(n).assigned()
    }

    /// The actives of thread `k` of `PID_n` (member-assigning assignors only).
    pub fn member_active(&self, n: u64, k: usize) -> Vec<TaskId> {
        let i = self.order.iter().position(|&x| x == n).expect("no such client");
        self.members.as_ref().expect("member assignment")[i][k].0.clone()
    }

    /// The standbys of thread `k` of `PID_n`.
    pub fn member_standby(&self, n: u64, k: usize) -> Vec<TaskId> {
        let i = self.order.iter().position(|&x| x == n).expect("no such client");
        self.members.as_ref().expect("member assignment")[i][k].1.clone()
    }

    /// Every task active exactly once, no standby beside its active.
    pub fn assert_valid(&self) {
        let mut seen = BTreeMap::new();
        for c in &self.clients {
            for &t in &c.active {
                *seen.entry(t).or_insert(0) += 1;
                assert!(!c.standby.contains(&t), "active and standby on one client");
            }
        }
        assert_eq!(seen.len(), self.tasks.len(), "every task assigned");
        assert!(seen.values().all(|&n| n == 1), "each task active once");
    }
}

/// Run `which` on `clients` (sorted into process-id order) and `tasks`.
pub fn run(
    which: Which,
    tasks: Vec<TaskMeta>,
    clients: &[Client],
    cfg: &Config,
    rack: Option<RackModel>,
) -> Out {
    run_with(tasks, clients, cfg, rack, |ctx| match which {
        Which::HighAvailability => high_availability::assign(ctx),
        Which::LegacySticky => sticky::assign(ctx),
        Which::Sticky => sticky_task_assignor::assign(ctx),
        Which::StreamsGroup => streams_group::assign(ctx),
    })
}

/// Run `f` on a context built from `clients` (their `current` actives placed).
pub fn run_with(
    tasks: Vec<TaskMeta>,
    clients: &[Client],
    cfg: &Config,
    rack: Option<RackModel>,
    f: impl FnOnce(&mut Ctx) -> bool,
) -> Out {
    let index: BTreeMap<TaskId, usize> = tasks.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    let idx = |x: &TaskId| {
        *index
            .get(x)
            .unwrap_or_else(|| panic!("task {x} not in the task list"))
    };
    let mut sorted = clients.to_vec();
    sorted.sort_by_key(|c| pid(c.n));
    let states: Vec<ClientState> = sorted
        .iter()
        .map(|c| {
            let prev_active: BTreeSet<usize> = c.prev_active.iter().flatten().map(idx).collect();
            let prev_standby: BTreeSet<usize> = c.prev_standby.iter().flatten().map(idx).collect();
            let mut consumers: Vec<ConsumerState> = (0..c.capacity as usize)
                .map(|k| {
                    let a: BTreeSet<usize> = c.prev_active[k].iter().map(idx).collect();
                    let s: BTreeSet<usize> = c.prev_standby[k].iter().map(idx).collect();
                    ConsumerState {
                        index: k as u32 + 1,
                        prev: a.union(&s).copied().filter(|&i| tasks[i].stateful).collect(),
                        prev_active: a,
                        prev_standby: s,
                    }
                })
                .collect();
            consumers.sort_by(|a, b| lbscope::engine::kstreams::client::consumer_key_cmp(a.index, b.index));
            ClientState {
                pid: pid(c.n),
                name: format!("PID_{}", c.n).into(),
                capacity: c.capacity,
                rack: c.rack.clone(),
                tags: c.tags.clone(),
                active: c.current.iter().map(idx).collect(),
                standby: c.current_standby.iter().map(idx).collect(),
                prev_active,
                prev_standby,
                lags: c.lags.iter().map(|(x, l)| (idx(x), *l)).collect(),
                consumers,
            }
        })
        .collect();
    let mut ctx = Ctx::new(&tasks, states, cfg, rack);
    let probing = f(&mut ctx);
    let members = ctx.member_tasks.as_ref().map(|m| {
        m.iter()
            .map(|per| {
                per.iter()
                    .map(|mt| {
                        (
                            mt.active.iter().map(|&i| tasks[i].id).collect(),
                            mt.standby.iter().map(|&i| tasks[i].id).collect(),
                        )
                    })
                    .collect()
            })
            .collect()
    });
    let Ctx {
        clients,
        log,
        warmups,
        ..
    } = ctx;
    Out {
        order: sorted.iter().map(|c| c.n).collect(),
        clients,
        probing,
        log,
        warmups,
        members,
        tasks,
    }
}

/// A config with the values Kafka's `AssignmentConfigs(acceptableRecoveryLag,
/// maxWarmupReplicas, numStandbyReplicas, probingRebalanceIntervalMs, tags, …)` takes.
pub fn configs(acceptable_recovery_lag: u64, max_warmup_replicas: u32, num_standby_replicas: u32) -> Config {
    Config {
        acceptable_recovery_lag,
        max_warmup_replicas,
        num_standby_replicas,
        ..Config::default()
    }
}
