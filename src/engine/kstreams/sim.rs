//! The Kafka Streams simulation ([`Sim`]): its state, each action's handler and
//! its [`Engine`] implementation.

use super::{
    assignor, client, invariants, partitioner, rack_aware, standby, state, subject, topology, view, Action,
    Config, Error, Event, Instance, InstanceStatus, Metrics, ProcessId, StreamThread, SubtopologySpec,
    TaskId, TaskInfo, TaskOffset, ThreadAssignmentSpec, ThreadLoad, Topic, Topology, View, MAX_INSTANCES,
    MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH, MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE,
    MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH, MAX_THREADS, MAX_TOTAL_THREADS,
};
use crate::engine::schema::{self, ConfigChange};
use crate::engine::{AnyAction, Engine, Series, SimRng, Subject, System};
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

/// Most records one `Produce` may carry.
pub const MAX_RECORDS: u64 = 1_000_000_000_000;

/// A Kafka Streams application simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    pub(super) config: Config,
    pub(super) rng: SimRng,
    pub(super) now_ms: u64,
    pub(super) topics: BTreeMap<String, Topic>,
    pub(super) topology: Option<Topology>,
    pub(super) tasks: Vec<TaskInfo>,
    pub(super) end: BTreeMap<TaskId, u64>,
    pub(super) instances: BTreeMap<String, Instance>,
    pub(super) generation: u64,
    pub(super) probing_at_ms: Option<u64>,
    pub(super) metrics: Metrics,
    /// Racks of each changelog partition set by `set_partition_racks`, by changelog topic.
    pub(super) changelog_racks: BTreeMap<String, Vec<Vec<String>>>,
    /// Produce patterns (records that arrive as time passes).
    pub(super) workload: super::workload::Workload,
    /// Instances that joined in a setup and wait, in the group coordinator's
    /// join window, for the one rebalance of the joins around them
    /// ([`Engine::apply_setup`]); empty outside a setup's run of joins.
    pub(super) joining: Vec<String>,
    /// The instances' process ids (an index of `instances`, so a join checks its
    /// id without a pass over every instance).
    pub(super) process_ids: BTreeSet<ProcessId>,
    /// Stream threads over all instances (kept with `instances`, for the same reason).
    pub(super) total_threads: usize,
}

fn check_tags(cfg: &Config, name: &str, tags: &BTreeMap<String, String>) -> Result<(), Error> {
    if tags.len() > MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE {
        return Err(Error::TooManyRackTags(tags.len()));
    }
    for (k, v) in tags {
        if k.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH {
            return Err(Error::TagKeyTooLong(k.clone()));
        }
        if v.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_VALUE_LENGTH {
            return Err(Error::TagValueTooLong(v.clone()));
        }
    }
    for k in &cfg.rack_aware_assignment_tags {
        if !tags.contains_key(k) {
            return Err(Error::MissingRackTag {
                instance: name.to_string(),
                key: k.clone(),
            });
        }
    }
    Ok(())
}

/// The trigger of the rebalance for instances that joined together.
fn joined_trigger(names: &[String]) -> String {
    match names {
        [one] => format!("instance {one} joined"),
        [rest @ .., last] if names.len() <= 4 => {
            format!("instances {} and {last} joined together", rest.join(", "))
        }
        [first, second, .., last] => format!(
            "{} instances joined together ({first}, {second}, … {last})",
            names.len()
        ),
        _ => "instances joined".to_string(),
    }
}

impl Sim {
    /// Simulated time (ms).
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Topics by name.
    pub fn topics(&self) -> &BTreeMap<String, Topic> {
        &self.topics
    }

    /// The topology, once defined.
    pub fn topology(&self) -> Option<&Topology> {
        self.topology.as_ref()
    }

    /// Tasks in id order.
    pub fn tasks(&self) -> &[TaskInfo] {
        &self.tasks
    }

    /// Instances by name.
    pub fn instances(&self) -> &BTreeMap<String, Instance> {
        &self.instances
    }

    /// One instance.
    pub fn instance(&self, name: &str) -> Option<&Instance> {
        self.instances.get(name)
    }

    /// Current generation (number of completed rebalances).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// When the next probing rebalance fires, if one is scheduled.
    pub fn probing_rebalance_at_ms(&self) -> Option<u64> {
        self.probing_at_ms
    }

    /// Changelog end offset sum of a task.
    pub fn end_offset(&self, t: TaskId) -> u64 {
        self.end.get(&t).copied().unwrap_or(0)
    }

    /// Running totals.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The instance running `t` as active.
    pub fn active_owner(&self, t: TaskId) -> Option<&str> {
        self.instances
            .values()
            .find(|i| i.threads.iter().any(|th| th.active.contains(&t)))
            .map(|i| i.name.as_str())
    }

    /// Instances holding `t` as standby or warm-up.
    pub fn standby_owners(&self, t: TaskId) -> Vec<&str> {
        self.instances
            .values()
            .filter(|i| i.threads.iter().any(|th| th.standby.contains(&t)))
            .map(|i| i.name.as_str())
            .collect()
    }

    /// The lag of `t` on instance `name` (end − local offset).
    pub fn lag(&self, name: &str, t: TaskId) -> Option<u64> {
        let i = self.instances.get(name)?;
        let end = self.end_offset(t);
        Some(end.saturating_sub(i.local.get(&t).copied().unwrap_or(0)))
    }

    /// Members of the group in the assignor's order (process id).
    pub fn members(&self) -> Vec<&Instance> {
        let mut v: Vec<&Instance> = self.instances.values().filter(|i| i.is_member()).collect();
        // Process ids are unique, so an unstable sort is deterministic.
        v.sort_unstable_by_key(|i| i.process_id);
        v
    }

    /// Everything a UI draws, in one serializable value.
    pub fn view(&self) -> View {
        view::build(self)
    }

    fn define_topic(
        &mut self,
        name: &str,
        partitions: u32,
        racks: &[String],
        rf: u32,
    ) -> Result<Vec<Event>, Error> {
        if name.is_empty()
            || name.len() > 249
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(Error::BadName("topic".into(), name.to_string()));
        }
        if partitions == 0 {
            return Err(Error::ZeroPartitions(name.to_string()));
        }
        if partitions > topology::MAX_PARTITIONS {
            return Err(Error::TooManyPartitions(partitions));
        }
        if self.topics.contains_key(name) {
            return Err(Error::TopicExists(name.to_string()));
        }
        if self.topics.len() >= topology::MAX_TOPICS {
            return Err(Error::TooManyTopics(self.topics.len()));
        }
        let have: u64 = self.topics.values().map(|t| u64::from(t.partitions)).sum();
        if have + u64::from(partitions) > topology::MAX_TOTAL_PARTITIONS {
            return Err(Error::TooManyTotalPartitions {
                have,
                adding: u64::from(partitions),
            });
        }
        if racks.iter().any(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        let topic = Topic {
            name: name.to_string(),
            partitions,
            racks: racks.to_vec(),
            replication_factor: rf.max(1),
            end_offsets: vec![0; partitions as usize],
            partition_racks: None,
        };
        self.topics.insert(name.to_string(), topic);
        Ok(vec![Event::TopicDefined {
            topic: name.to_string(),
            partitions,
            racks: racks.to_vec(),
        }])
    }

    fn define_topology(
        &mut self,
        specs: &[SubtopologySpec],
        groups: &[Vec<String>],
    ) -> Result<Vec<Event>, Error> {
        let (topo, tasks) = Topology::build(&self.config.application_id, specs, groups, &self.topics)?;
        let ids: BTreeSet<TaskId> = tasks.iter().map(|t| t.id).collect();
        self.end.retain(|t, _| ids.contains(t));
        for t in &tasks {
            if t.stateful() {
                self.end.entry(t.id).or_insert(0);
            } else {
                self.end.remove(&t.id);
            }
        }
        for inst in self.instances.values_mut() {
            for th in &mut inst.threads {
                th.active.retain(|t| ids.contains(t));
                th.standby.retain(|t| ids.contains(t));
            }
            inst.restoring.retain(|t, _| ids.contains(t));
            inst.warmups.retain(|t| ids.contains(t));
        }
        let ev = Event::TopologyDefined {
            subtopologies: topo.subtopologies.len() as u32,
            tasks: tasks.len() as u32,
            stateful_tasks: tasks.iter().filter(|t| t.stateful()).count() as u32,
            tasks_per_subtopology: topo.subtopologies.iter().map(|s| s.tasks).collect(),
            changelogs: topo
                .subtopologies
                .iter()
                .flat_map(|s| s.changelogs.iter().cloned())
                .collect(),
        };
        let names: BTreeMap<&String, u32> = topo
            .subtopologies
            .iter()
            .flat_map(|s| s.changelogs.iter().map(move |c| (c, s.tasks)))
            .collect();
        self.changelog_racks
            .retain(|c, v| names.get(c).is_some_and(|&n| n as usize == v.len()));
        self.topology = Some(topo);
        self.tasks = tasks;
        let mut out = vec![ev];
        out.extend(self.maybe_rebalance("topology defined"));
        Ok(out)
    }

    /// Start an instance; `wait`: another join follows at the same instant (in a
    /// setup), so the rebalance waits for it.
    fn add_instance(
        &mut self,
        name: &str,
        threads: Option<u32>,
        rack: &Option<String>,
        tags: &BTreeMap<String, String>,
        pid: Option<ProcessId>,
        wait: bool,
    ) -> Result<Vec<Event>, Error> {
        if name.is_empty() {
            return Err(Error::BadName("instance".into(), name.to_string()));
        }
        if self.instances.contains_key(name) {
            return Err(Error::InstanceExists(name.to_string()));
        }
        if self.instances.len() >= MAX_INSTANCES {
            return Err(Error::TooManyInstances(MAX_INSTANCES));
        }
        let n = threads.unwrap_or(self.config.num_stream_threads);
        if n > MAX_THREADS {
            return Err(Error::TooManyThreads(n));
        }
        self.check_thread_room(n as usize)?;
        if rack.as_ref().is_some_and(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        check_tags(&self.config, name, tags)?;
        if let Some(p) = pid {
            if self.process_ids.contains(&p) {
                return Err(Error::DuplicateProcessId(p.to_string()));
            }
        }
        // Validation done: from here on nothing fails.
        let pid = match pid {
            Some(p) => p,
            None => loop {
                let p = ProcessId::random(self.rng.next_u64(), self.rng.next_u64());
                if !self.process_ids.contains(&p) {
                    break p;
                }
            },
        };
        let inst = Instance {
            name: name.to_string(),
            process_id: pid,
            status: InstanceStatus::Running,
            rack: rack.clone(),
            tags: tags.clone(),
            threads: (1..=n)
                .map(|index| StreamThread {
                    index,
                    active: vec![],
                    standby: vec![],
                })
                .collect(),
            local: BTreeMap::new(),
            restoring: BTreeMap::new(),
            warmups: BTreeSet::new(),
            shared_name: name.into(),
            member_of: None,
        };
        self.instances.insert(name.to_string(), inst);
        self.process_ids.insert(pid);
        self.total_threads += n as usize;
        let mut out = vec![Event::InstanceAdded {
            instance: name.to_string(),
            process_id: pid,
            threads: n,
            rack: rack.clone(),
        }];
        if wait && self.topology.is_some() {
            self.joining.push(name.to_string());
            return Ok(out);
        }
        let mut joined = std::mem::take(&mut self.joining);
        joined.push(name.to_string());
        out.extend(self.maybe_rebalance(&joined_trigger(&joined)));
        Ok(out)
    }

    fn instance_mut(&mut self, name: &str) -> Result<&mut Instance, Error> {
        self.instances
            .get_mut(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))
    }

    fn remove_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self
            .instances
            .remove(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))?;
        self.process_ids.remove(&inst.process_id);
        self.total_threads -= inst.threads.len();
        let mut out = vec![Event::InstanceRemoved {
            instance: name.to_string(),
            active_released: inst.active_tasks().into_iter().collect(),
        }];
        if inst.is_member() {
            out.extend(self.maybe_rebalance(&format!("instance {name} left")));
        }
        Ok(out)
    }

    fn crash_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let active_lost: Vec<TaskId> = inst.active_tasks().into_iter().collect();
        let standby_lost = inst.standby_tasks().len() as u32;
        let was_member = inst.is_member();
        inst.status = InstanceStatus::Crashed;
        inst.clear_assignment();
        let mut out = vec![Event::InstanceCrashed {
            instance: name.to_string(),
            active_lost,
            standby_lost,
        }];
        if was_member {
            out.extend(self.maybe_rebalance(&format!("instance {name} crashed")));
        }
        Ok(out)
    }

    fn restart_instance(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Crashed {
            return Err(Error::NotCrashed(name.to_string()));
        }
        inst.status = InstanceStatus::Running;
        let held = inst.local.len() as u32;
        let member = inst.is_member();
        let mut out = vec![Event::InstanceRestarted {
            instance: name.to_string(),
            tasks_with_local_state: held,
        }];
        if member {
            out.extend(self.maybe_rebalance(&format!("instance {name} restarted")));
        }
        Ok(out)
    }

    /// Whether `adding` more threads fit under [`MAX_TOTAL_THREADS`].
    fn check_thread_room(&self, adding: usize) -> Result<(), Error> {
        let have = self.total_threads;
        if have + adding > MAX_TOTAL_THREADS {
            return Err(Error::TooManyTotalThreads { have, adding });
        }
        Ok(())
    }

    fn add_thread(&mut self, name: &str) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        if inst.threads.len() as u32 >= MAX_THREADS {
            return Err(Error::TooManyThreads(inst.threads.len() as u32 + 1));
        }
        self.check_thread_room(1)?;
        let inst = self.instance_mut(name)?;
        let index = inst.next_thread_index();
        inst.threads.push(StreamThread {
            index,
            active: vec![],
            standby: vec![],
        });
        let n = inst.threads.len() as u32;
        self.total_threads += 1;
        let mut out = vec![Event::ThreadAdded {
            instance: name.to_string(),
            thread: index,
            threads: n,
        }];
        out.extend(self.maybe_rebalance(&format!("{name} added StreamThread-{index}")));
        Ok(out)
    }

    fn remove_thread(&mut self, name: &str, which: Option<u32>) -> Result<Vec<Event>, Error> {
        let inst = self.instance_mut(name)?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let pos = match which {
            Some(i) => inst
                .threads
                .iter()
                .position(|t| t.index == i)
                .ok_or_else(|| Error::UnknownThread(name.to_string(), i))?,
            None if inst.threads.is_empty() => return Err(Error::NoThreads(name.to_string())),
            None => 0,
        };
        let th = inst.threads.remove(pos);
        for t in &th.active {
            inst.restoring.remove(t);
        }
        for t in &th.standby {
            inst.warmups.remove(t);
        }
        let n = inst.threads.len() as u32;
        self.total_threads -= 1;
        let mut out = vec![Event::ThreadRemoved {
            instance: name.to_string(),
            thread: th.index,
            threads: n,
        }];
        out.extend(self.maybe_rebalance(&format!("{name} removed StreamThread-{}", th.index)));
        Ok(out)
    }

    fn produce(
        &mut self,
        topic: &str,
        key: &Option<String>,
        partition: Option<u32>,
        records: u64,
    ) -> Result<Vec<Event>, Error> {
        let t = self
            .topics
            .get(topic)
            .ok_or_else(|| Error::UnknownTopic(topic.to_string()))?;
        if records == 0 {
            return Err(Error::ZeroRecords);
        }
        if records > MAX_RECORDS {
            return Err(Error::TooManyRecords(records));
        }
        let n = t.partitions;
        let mut hash = None;
        let parts: Vec<(u32, u64)> = match (partition, key) {
            (Some(p), _) => {
                if p >= n {
                    return Err(Error::NoSuchPartition(topic.to_string(), p));
                }
                if let Some(k) = key {
                    hash = Some(partitioner::murmur2(k.as_bytes()));
                }
                vec![(p, records)]
            }
            (None, Some(k)) => {
                let h = partitioner::murmur2(k.as_bytes());
                hash = Some(h);
                vec![(partitioner::to_positive(h) as u32 % n, records)]
            }
            (None, None) => (0..n)
                .map(|p| {
                    (
                        p,
                        records / u64::from(n) + u64::from(u64::from(p) < records % u64::from(n)),
                    )
                })
                .filter(|x| x.1 > 0)
                .collect(),
        };
        let single = if parts.len() == 1 && (partition.is_some() || key.is_some()) {
            Some(parts[0].0)
        } else {
            None
        };
        let mut touched = Vec::new();
        if let Some(tp) = self.topics.get_mut(topic) {
            for &(p, c) in &parts {
                if let Some(o) = tp.end_offsets.get_mut(p as usize) {
                    *o = o.saturating_add(c);
                }
            }
        }
        if let Some(topo) = &self.topology {
            for s in &topo.subtopologies {
                if !s.sources.iter().any(|x| x == topic) {
                    continue;
                }
                for &(p, c) in &parts {
                    let id = TaskId::new(s.id, p);
                    touched.push(id);
                    if let Some(e) = self.end.get_mut(&id) {
                        *e = e.saturating_add(c.saturating_mul(s.changelogs.len() as u64));
                    }
                }
            }
        }
        touched.stable_sort();
        // Running actives process at once: their local state follows the changelog end.
        for inst in self.instances.values_mut() {
            if inst.status != InstanceStatus::Running {
                continue;
            }
            for th in &inst.threads {
                for id in &th.active {
                    if touched.binary_search(id).is_ok() && !inst.restoring.contains_key(id) {
                        if let Some(&e) = self.end.get(id) {
                            inst.local.insert(*id, e);
                        }
                    }
                }
            }
        }
        Ok(vec![Event::Produced {
            topic: topic.to_string(),
            partition: single,
            key: key.clone(),
            murmur2: hash,
            records,
            tasks: touched,
        }])
    }

    fn task_info(&self, t: TaskId) -> Result<&TaskInfo, Error> {
        if self.topology.is_none() {
            return Err(Error::NoTopology);
        }
        self.tasks
            .binary_search_by_key(&t, |x| x.id)
            .map(|i| &self.tasks[i])
            .map_err(|_| Error::UnknownTask(t))
    }

    fn set_assignment(
        &mut self,
        name: &str,
        threads: &[ThreadAssignmentSpec],
        restoring: &[TaskId],
        warmups: &[TaskId],
    ) -> Result<Vec<Event>, Error> {
        let inst = self
            .instances
            .get(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))?;
        if inst.status != InstanceStatus::Running {
            return Err(Error::NotRunning(name.to_string()));
        }
        let mut seen_threads = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut actives = BTreeSet::new();
        for th in threads {
            if !inst.threads.iter().any(|x| x.index == th.thread) || !seen_threads.insert(th.thread) {
                return Err(Error::UnknownThread(name.to_string(), th.thread));
            }
            for &t in th.active.iter().chain(th.standby.iter()) {
                self.task_info(t)?;
                if !seen.insert(t) {
                    return Err(Error::TaskListedTwice {
                        instance: name.to_string(),
                        task: t,
                    });
                }
            }
            for &t in &th.standby {
                if !self.task_info(t)?.stateful() {
                    return Err(Error::StatelessTask(t));
                }
            }
            actives.extend(th.active.iter().copied());
        }
        for &t in restoring {
            if !actives.contains(&t) {
                return Err(Error::NotActive {
                    instance: name.to_string(),
                    task: t,
                });
            }
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        let standbys: BTreeSet<TaskId> = threads.iter().flat_map(|th| th.standby.iter().copied()).collect();
        let warm: BTreeSet<TaskId> = warmups.iter().copied().collect();
        if let Some(&t) = warm.iter().find(|t| !standbys.contains(t)) {
            return Err(Error::NotStandby {
                instance: name.to_string(),
                task: t,
            });
        }
        let others: usize = self
            .instances
            .values()
            .filter(|i| i.name != name)
            .map(|i| i.warmups.len())
            .sum();
        if others + warm.len() > self.config.max_warmup_replicas as usize {
            return Err(Error::TooManyWarmups {
                warmups: others + warm.len(),
                max: self.config.max_warmup_replicas,
            });
        }
        // Validation done: from here on nothing fails.
        let elsewhere: Vec<TaskId> = actives
            .iter()
            .copied()
            .filter(|t| {
                self.instances
                    .values()
                    .any(|i| i.name != name && i.threads.iter().any(|th| th.active.contains(t)))
            })
            .collect();
        let now = self.now_ms;
        let ends: BTreeMap<TaskId, u64> = seen.iter().map(|t| (*t, self.end_offset(*t))).collect();
        let stateful: BTreeSet<TaskId> = seen
            .iter()
            .copied()
            .filter(|t| self.end.contains_key(t))
            .collect();
        let inst = self.instances.get_mut(name).expect("checked above");
        inst.clear_assignment();
        for th in &mut inst.threads {
            if let Some(spec) = threads.iter().find(|x| x.thread == th.index) {
                th.active = spec.active.clone();
                th.standby = spec.standby.clone();
            }
        }
        for &t in &actives {
            if !stateful.contains(&t) {
                continue;
            }
            let end = ends.get(&t).copied().unwrap_or(0);
            if restoring.contains(&t) {
                let local = inst.local.get(&t).copied().unwrap_or(0).min(end);
                inst.local.insert(t, local);
                inst.restoring.insert(
                    t,
                    client::Restoring {
                        since_ms: now,
                        lag_at_start: end - local,
                    },
                );
            } else {
                inst.local.insert(t, end);
            }
        }
        for th in threads {
            for &t in &th.standby {
                inst.local.entry(t).or_insert(0);
            }
        }
        inst.warmups = warm.clone();
        let loads = inst
            .threads
            .iter()
            .map(|th| ThreadLoad {
                thread: th.index,
                active: th.active.clone(),
                standby: th.standby.clone(),
            })
            .collect();
        let mut restoring: Vec<TaskId> = restoring.to_vec();
        restoring.stable_sort();
        restoring.dedup();
        Ok(vec![Event::AssignmentSet {
            instance: name.to_string(),
            threads: loads,
            restoring,
            also_active_elsewhere: elsewhere,
            warmups: warm.into_iter().collect(),
        }])
    }

    fn assign_standbys(&mut self) -> Result<Vec<Event>, Error> {
        if self.topology.is_none() {
            return Err(Error::NoTopology);
        }
        let mut owners: BTreeMap<TaskId, (usize, bool)> = BTreeMap::new();
        for inst in self.instances.values() {
            let member = inst.is_member();
            for t in inst.active_tasks() {
                let e = owners.entry(t).or_insert((0, true));
                e.0 += 1;
                e.1 &= member;
            }
        }
        if let Some(t) = self
            .tasks
            .iter()
            .map(|t| t.id)
            .find(|t| owners.get(t) != Some(&(1, true)))
        {
            return Err(Error::ActivesNotFixed(t));
        }
        Ok(state::assign_standbys(
            self,
            "standbys placed around fixed actives",
        ))
    }

    fn clear_task_offsets(&mut self, name: &str, tasks: &[TaskId]) -> Result<Vec<Event>, Error> {
        let inst = self
            .instances
            .get(name)
            .ok_or_else(|| Error::UnknownInstance(name.to_string()))?;
        let assigned: BTreeSet<TaskId> = inst
            .threads
            .iter()
            .flat_map(|th| th.active.iter().chain(th.standby.iter()).copied())
            .collect();
        for &t in tasks {
            self.task_info(t)?;
            if assigned.contains(&t) {
                return Err(Error::TaskInUse {
                    instance: name.to_string(),
                    task: t,
                });
            }
        }
        let inst = self.instances.get_mut(name).expect("checked above");
        let gone: Vec<TaskId> = if tasks.is_empty() {
            inst.local
                .keys()
                .copied()
                .filter(|t| !assigned.contains(t))
                .collect()
        } else {
            let set: BTreeSet<TaskId> = tasks.iter().copied().collect();
            set.into_iter().filter(|t| inst.local.contains_key(t)).collect()
        };
        for t in &gone {
            inst.local.remove(t);
        }
        Ok(vec![Event::TaskOffsetsCleared {
            instance: name.to_string(),
            tasks: gone,
        }])
    }

    fn set_task_offsets(&mut self, name: &str, offsets: &BTreeMap<TaskId, u64>) -> Result<Vec<Event>, Error> {
        if !self.instances.contains_key(name) {
            return Err(Error::UnknownInstance(name.to_string()));
        }
        for &t in offsets.keys() {
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        let ends: BTreeMap<TaskId, u64> = offsets.keys().map(|t| (*t, self.end_offset(*t))).collect();
        let inst = self.instances.get_mut(name).expect("checked above");
        let mut out = Vec::with_capacity(offsets.len());
        for (&t, &o) in offsets {
            inst.local.insert(t, o);
            let end = ends.get(&t).copied().unwrap_or(0);
            out.push(TaskOffset {
                task: t,
                offset: o,
                end,
                lag: if o > end { end } else { end - o },
            });
        }
        Ok(vec![Event::TaskOffsetsSet {
            instance: name.to_string(),
            offsets: out,
        }])
    }

    fn set_end_offsets(&mut self, offsets: &BTreeMap<TaskId, u64>) -> Result<Vec<Event>, Error> {
        for &t in offsets.keys() {
            if !self.task_info(t)?.stateful() {
                return Err(Error::StatelessTask(t));
            }
        }
        for (&t, &o) in offsets {
            self.end.insert(t, o);
        }
        // A running active writes its changelog, so its local state follows the end.
        for inst in self.instances.values_mut() {
            for th in &inst.threads {
                for t in &th.active {
                    if let (Some(&o), false) = (offsets.get(t), inst.restoring.contains_key(t)) {
                        inst.local.insert(*t, o);
                    }
                }
            }
        }
        Ok(vec![Event::EndOffsetsSet {
            offsets: offsets.clone(),
        }])
    }

    fn set_partition_racks(&mut self, topic: &str, racks: &[Vec<String>]) -> Result<Vec<Event>, Error> {
        let partitions = if let Some(t) = self.topics.get(topic) {
            t.partitions
        } else {
            self.topology
                .as_ref()
                .and_then(|topo| {
                    topo.subtopologies
                        .iter()
                        .find(|s| s.changelogs.iter().any(|c| c == topic))
                        .map(|s| s.tasks)
                })
                .ok_or_else(|| Error::UnknownTopic(topic.to_string()))?
        };
        if racks.len() != partitions as usize {
            return Err(Error::RackListLength {
                topic: topic.to_string(),
                partitions,
                given: racks.len(),
            });
        }
        if racks.iter().flatten().any(|r| r.is_empty()) {
            return Err(Error::BadName("rack".into(), String::new()));
        }
        let sorted: Vec<Vec<String>> = racks
            .iter()
            .map(|v| v.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect())
            .collect();
        if let Some(t) = self.topics.get_mut(topic) {
            t.partition_racks = Some(sorted.clone());
        } else {
            self.changelog_racks.insert(topic.to_string(), sorted.clone());
        }
        Ok(vec![Event::PartitionRacksSet {
            topic: topic.to_string(),
            racks: sorted,
        }])
    }

    fn set_config(&mut self, change: &ConfigChange<Config>) -> Result<Vec<Event>, Error> {
        let cfg = change.config.apply_to(&self.config)?;
        cfg.validate()?;
        for inst in self.instances.values() {
            check_tags(&cfg, &inst.name, &inst.tags)?;
        }
        let after = schema::to_object(&cfg);
        let unmodelled = change.config.unmodelled_keys();
        self.config = cfg;
        let mut out: Vec<Event> = change
            .config
            .values()
            .keys()
            .map(|k| Event::ConfigSet {
                key: k.clone(),
                value: after.get(k).cloned().unwrap_or(serde_json::Value::Null),
            })
            .collect();
        out.extend(unmodelled.into_iter().map(|k| Event::Warning {
            message: format!("{k} is a Kafka Streams setting that lbscope does not model: it is kept in the scenario and changes nothing here"),
        }));
        Ok(out)
    }

    fn advance(&mut self, ms: u64) -> Vec<Event> {
        let from = self.now_ms;
        let target = self.now_ms.saturating_add(ms);
        let mut out = Vec::new();
        let mut produced = super::workload::Tally::default();
        // Each probing rebalance is at least a minute after the previous one, so
        // this loop ends; the cap guards absurd time jumps.
        for _ in 0..100_000 {
            let step_to = match self.probing_at_ms {
                Some(p) if p <= target => p.max(self.now_ms),
                _ => target,
            };
            let step_to = self.workload_slice(from, target, step_to);
            self.workload_produce(step_to, &mut produced);
            out.extend(state::progress(self, step_to));
            self.now_ms = step_to;
            if self.probing_at_ms.is_some_and(|p| p <= self.now_ms) {
                self.probing_at_ms = None;
                self.metrics.probing_rebalances += 1;
                out.extend(self.rebalance("probing rebalance"));
            }
            if self.now_ms >= target {
                break;
            }
        }
        self.now_ms = target;
        if let Some(e) = self.workload_event(from, target, produced) {
            out.insert(0, e);
        }
        out.insert(
            0,
            Event::TimeAdvanced {
                from_ms: from,
                to_ms: target,
            },
        );
        out
    }

    fn maybe_rebalance(&mut self, trigger: &str) -> Vec<Event> {
        if self.topology.is_some() {
            self.rebalance(trigger)
        } else {
            Vec::new()
        }
    }

    fn rebalance(&mut self, trigger: &str) -> Vec<Event> {
        self.joining.clear();
        state::rebalance(self, trigger)
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Kstreams;

    /// Every action is applied whole.
    type Rest = std::convert::Infallible;

    fn resume(&mut self, rest: Self::Rest, _budget: u64) -> crate::engine::Part<Self> {
        match rest {}
    }

    fn rest_weight(rest: &Self::Rest) -> u64 {
        match *rest {}
    }

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        config.validate()?;
        Ok(Sim {
            config,
            rng: SimRng::new(seed),
            now_ms: 0,
            topics: BTreeMap::new(),
            topology: None,
            tasks: Vec::new(),
            end: BTreeMap::new(),
            instances: BTreeMap::new(),
            generation: 0,
            probing_at_ms: None,
            metrics: Metrics::default(),
            changelog_racks: BTreeMap::new(),
            workload: super::workload::Workload::default(),
            joining: Vec::new(),
            process_ids: BTreeSet::new(),
            total_threads: 0,
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        match action {
            Action::DefineTopic {
                topic,
                partitions,
                racks,
                replication_factor,
            } => self.define_topic(topic, *partitions, racks, *replication_factor),
            Action::DefineTopology {
                subtopologies,
                copartition_groups,
            } => self.define_topology(subtopologies, copartition_groups),
            Action::AddInstance {
                name,
                threads,
                rack,
                tags,
                process_id,
            } => self.add_instance(name, *threads, rack, tags, *process_id, false),
            Action::RemoveInstance { name } => self.remove_instance(name),
            Action::CrashInstance { name } => self.crash_instance(name),
            Action::RestartInstance { name } => self.restart_instance(name),
            Action::AddThread { instance } => self.add_thread(instance),
            Action::RemoveThread { instance, thread } => self.remove_thread(instance, *thread),
            Action::Produce {
                topic,
                key,
                partition,
                records,
            } => self.produce(topic, key, *partition, *records),
            Action::AdvanceTime { ms } => Ok(self.advance(*ms)),
            Action::Rebalance => {
                if self.topology.is_none() {
                    return Err(Error::NoTopology);
                }
                Ok(self.rebalance("requested"))
            }
            Action::SetAssignment {
                instance,
                threads,
                restoring,
                warmups,
            } => self.set_assignment(instance, threads, restoring, warmups),
            Action::SetTaskOffsets { instance, offsets } => self.set_task_offsets(instance, offsets),
            Action::ClearTaskOffsets { instance, tasks } => self.clear_task_offsets(instance, tasks),
            Action::AssignStandbys => self.assign_standbys(),
            Action::SetEndOffsets { offsets } => self.set_end_offsets(offsets),
            Action::SetPartitionRacks { topic, racks } => self.set_partition_racks(topic, racks),
            Action::SetConfig(change) => self.set_config(change),
            Action::AddWorkload { pattern } => self.add_workload(pattern),
            Action::ChangeWorkload { id, pattern } => self.change_workload(*id, pattern),
            Action::RemoveWorkload { id } => self.remove_workload(*id),
        }
    }

    /// Instances added one after another in a setup start together: the group
    /// coordinator holds the rebalance while members keep joining (the classic
    /// protocol's `group.initial.rebalance.delay.ms`, extended by each new member,
    /// and its join phase, which waits for every member to rejoin; the streams
    /// protocol's `group.streams.initial.rebalance.delay.ms` and its target
    /// assignment, computed once for the epoch bumps of the joins before it), so
    /// the run of joins rebalances once, with its last join.
    fn apply_setup(&mut self, action: &Action, next: Option<&Action>) -> Result<Vec<Event>, Error> {
        match (action, next) {
            (
                Action::AddInstance {
                    name,
                    threads,
                    rack,
                    tags,
                    process_id,
                },
                Some(Action::AddInstance { .. }),
            ) => self.add_instance(name, *threads, rack, tags, *process_id, true),
            _ => self.apply(action),
        }
    }

    fn apply_setup_part(
        &mut self,
        action: &Action,
        next: Option<&Action>,
        _budget: u64,
    ) -> Result<crate::engine::Part<Self>, Error> {
        Ok((self.apply_setup(action, next)?, None))
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn round_action() -> Action {
        Action::Rebalance
    }

    fn set_config(change: ConfigChange<Config>) -> Action {
        Action::SetConfig(change)
    }

    fn wrap(action: Action) -> AnyAction {
        AnyAction::Kstreams(action)
    }

    fn unwrap(any: &AnyAction) -> Option<&Action> {
        match any {
            AnyAction::Kstreams(a) => Some(a),
            _ => None,
        }
    }

    fn subject(event: &Event) -> Option<Subject> {
        subject::of(event)
    }

    fn changes(before: &Sim, after: &Sim) -> Vec<String> {
        let mut out: Vec<String> = before
            .tasks()
            .iter()
            .filter_map(|t| {
                let (a, b) = (before.active_owner(t.id), after.active_owner(t.id));
                (a != b).then(|| {
                    format!(
                        "task {}: {} → {}",
                        t.id,
                        a.unwrap_or("nobody"),
                        b.unwrap_or("nobody")
                    )
                })
            })
            .collect();
        if out.is_empty() {
            out.push("no active task would move".into());
        }
        out
    }

    fn charted(e: &Event) -> bool {
        matches!(e, Event::RebalanceCompleted { .. })
    }

    fn series(events: &mut dyn Iterator<Item = &Event>) -> Vec<Series> {
        let gens: Vec<(f64, [f64; 4])> = events
            .filter_map(|e| match e {
                Event::RebalanceCompleted {
                    generation,
                    moved,
                    idle_instances,
                    max_restore_ms,
                    warmups,
                    ..
                } => Some((
                    *generation as f64,
                    [
                        f64::from(*moved),
                        f64::from(*idle_instances),
                        *max_restore_ms as f64,
                        f64::from(*warmups),
                    ],
                )),
                _ => None,
            })
            .collect();
        vec![
            Series::of("tasks moved", "", &gens, |g| g[0]),
            Series::of("idle instances", "", &gens, |g| g[1]),
            Series::of("longest restore", "ms", &gens, |g| g[2]),
            Series::of("warm-ups", "", &gens, |g| g[3]),
        ]
    }

    fn open_cost(config: &Config, a: &Action) -> u64 {
        1 + match a {
            Action::DefineTopic { partitions, .. } => u64::from(*partitions),
            Action::AddInstance { threads, .. } => u64::from(threads.unwrap_or(config.num_stream_threads)),
            _ => 0,
        }
    }

    fn view_json(&self) -> serde_json::Value {
        serde_json::to_value(self.view()).unwrap_or_default()
    }

    fn serialize_view<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&self.view(), s)
    }

    fn invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }

    /// The task assignors ([`assignor::REGISTRY`]): each entry's `key` set to its
    /// `name` (a string) over the default config selects it.
    fn strategies() -> Vec<crate::engine::strategy::StrategyInfo> {
        let mut all = assignor::infos();
        all.extend(standby::infos());
        all.extend(rack_aware::infos());
        all
    }

    /// The tag-aware standby entry also needs standbys to place: one per task.
    fn strategy_config(info: &crate::engine::strategy::StrategyInfo) -> Result<Config, schema::ConfigError> {
        let mut patch = info.patch::<Config>()?;
        if info.key == standby::TAG_AWARE_KEY {
            patch = patch.set("num.standby.replicas", serde_json::json!(1))?;
        }
        if info.key == "streams.assignor.name" {
            patch = patch.set("group.protocol", serde_json::json!("streams"))?;
        }
        patch.apply_to(&Config::default())
    }
}
