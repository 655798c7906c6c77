//! Kafka Streams configuration: Kafka's keys and defaults, validation, and the schema.

use super::assignor::{self, Assignor, AssignorKind};
use super::rack_aware::RackStrategy;
use super::{knobs, Error};
use super::{
    MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH, MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE, MAX_STANDBY_REPLICAS,
    MAX_THREADS, MIN_PROBING_REBALANCE_INTERVAL_MS,
};
use crate::engine::schema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Kafka Streams configuration, with Kafka's names and defaults.
///
/// One rule for every way a value gets in: the scenario's `config` object and the
/// `set_config` action both go through the schema ([`crate::engine::schema`]:
/// unknown keys refused with the closest known key) and [`Config::validate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `application.id` (names the changelog topics).
    #[serde(rename = "application.id")]
    pub application_id: String,
    /// `num.stream.threads`: threads of an instance added without a count.
    #[serde(rename = "num.stream.threads")]
    pub num_stream_threads: u32,
    /// `num.standby.replicas`.
    #[serde(rename = "num.standby.replicas")]
    pub num_standby_replicas: u32,
    /// `acceptable.recovery.lag`: a client within this many records is caught up.
    #[serde(rename = "acceptable.recovery.lag")]
    pub acceptable_recovery_lag: u64,
    /// `max.warmup.replicas`: warm-ups allowed at once, over the whole group.
    #[serde(rename = "max.warmup.replicas")]
    pub max_warmup_replicas: u32,
    /// `probing.rebalance.interval.ms`.
    #[serde(rename = "probing.rebalance.interval.ms")]
    pub probing_rebalance_interval_ms: u64,
    /// `rack.aware.assignment.tags`: client tag keys standbys are spread over.
    #[serde(rename = "rack.aware.assignment.tags")]
    pub rack_aware_assignment_tags: Vec<String>,
    /// `rack.aware.assignment.strategy`.
    #[serde(rename = "rack.aware.assignment.strategy")]
    pub rack_aware_assignment_strategy: RackStrategy,
    /// `rack.aware.assignment.traffic_cost` (assignor default when absent).
    #[serde(rename = "rack.aware.assignment.traffic_cost")]
    pub traffic_cost: Option<u32>,
    /// `rack.aware.assignment.non_overlap_cost` (assignor default when absent).
    #[serde(rename = "rack.aware.assignment.non_overlap_cost")]
    pub non_overlap_cost: Option<u32>,
    /// `task.assignor.class` (KIP-924): a `TaskAssignor` class name, e.g. the built-in
    /// `org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor`;
    /// null (the default) uses `internal.task.assignor.class`. lbscope also reads its
    /// old values `high_availability` and `sticky` as that legacy assignor.
    #[serde(rename = "task.assignor.class")]
    pub task_assignor_class: Option<String>,
    /// `internal.task.assignor.class`: the legacy assignor when no `task.assignor.class`
    /// is set (`HighAvailabilityTaskAssignor` by default).
    #[serde(rename = "internal.task.assignor.class")]
    pub task_assignor: AssignorKind,
    /// `group.protocol`: `classic` (the default; the client-side assignors) or
    /// `streams` (KIP-1071: the group coordinator's assignor).
    #[serde(rename = "group.protocol")]
    pub group_protocol: GroupProtocol,
    /// Broker config `group.streams.num.standby.replicas`: standbys per task of a
    /// streams group that sets no `streams.num.standby.replicas`.
    #[serde(rename = "group.streams.num.standby.replicas")]
    pub group_streams_num_standby_replicas: u32,
    /// Broker config `group.streams.max.standby.replicas`: the most a group may set.
    #[serde(rename = "group.streams.max.standby.replicas")]
    pub group_streams_max_standby_replicas: u32,
    /// Group config `streams.num.standby.replicas` (null: the broker's default).
    #[serde(rename = "streams.num.standby.replicas")]
    pub streams_num_standby_replicas: Option<u32>,
    /// Broker config `group.streams.assignors` (KIP-1357): the task assignors the
    /// coordinator offers streams groups, by name or class name; the first is the
    /// default of a group that selects none.
    #[serde(rename = "group.streams.assignors")]
    pub group_streams_assignors: Vec<String>,
    /// Group config `streams.assignor.name` (KIP-1357): which of
    /// `group.streams.assignors` the group runs (null: the first).
    #[serde(rename = "streams.assignor.name")]
    pub streams_assignor_name: Option<String>,
    /// lbscope only: records per second one replica restores from its changelog.
    #[serde(rename = "lbscope.restore.records.per.second")]
    pub restore_records_per_second: u64,
    /// Keys Kafka Streams has that lbscope does not model: kept, so a link keeps them.
    #[serde(flatten)]
    pub unmodelled: BTreeMap<String, serde_json::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            application_id: "app".into(),
            num_stream_threads: 1,
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
            probing_rebalance_interval_ms: 600_000,
            rack_aware_assignment_tags: Vec::new(),
            rack_aware_assignment_strategy: RackStrategy::None,
            traffic_cost: None,
            non_overlap_cost: None,
            task_assignor_class: None,
            task_assignor: AssignorKind::HighAvailability,
            group_protocol: GroupProtocol::Classic,
            group_streams_num_standby_replicas: 0,
            group_streams_max_standby_replicas: 2,
            streams_num_standby_replicas: None,
            group_streams_assignors: vec![STICKY_ASSIGNOR_NAME.into(), BALANCED_ASSIGNOR_NAME.into()],
            streams_assignor_name: None,
            restore_records_per_second: 10_000,
            unmodelled: BTreeMap::new(),
        }
    }
}

impl Config {
    /// The assignor a rebalance runs: the group coordinator's under
    /// `group.protocol=streams`; else `task.assignor.class` when set (KIP-924); else
    /// `internal.task.assignor.class` (Kafka's `StreamsPartitionAssignor`).
    pub fn assignor(&self) -> Assignor {
        if self.group_protocol == GroupProtocol::Streams {
            return match self.streams_assignor() {
                Some(BALANCED_ASSIGNOR_NAME) => Assignor::StreamsGroupBalanced,
                _ => Assignor::StreamsGroupSticky,
            };
        }
        match self.task_assignor_class.as_deref() {
            Some("high_availability") => Assignor::HighAvailability,
            Some("sticky") => Assignor::Sticky,
            Some(_) => Assignor::StickyTaskAssignor,
            None => match self.task_assignor {
                AssignorKind::HighAvailability => Assignor::HighAvailability,
                AssignorKind::Sticky => Assignor::Sticky,
            },
        }
    }

    /// The name of the assignor a streams group runs: `streams.assignor.name`,
    /// else the first of `group.streams.assignors` (class names read as their
    /// built-in's name); `None` when the list is empty (refused by validation).
    pub fn streams_assignor(&self) -> Option<&'static str> {
        match &self.streams_assignor_name {
            Some(n) => streams_assignor_name_of(n),
            None => self
                .group_streams_assignors
                .first()
                .and_then(|n| streams_assignor_name_of(n)),
        }
    }

    /// Standby replicas per stateful task the running assignor places: the group's
    /// `streams.num.standby.replicas` (else the broker's
    /// `group.streams.num.standby.replicas`) under the streams protocol, else
    /// `num.standby.replicas`.
    pub fn standby_replicas(&self) -> u32 {
        if self.group_protocol == GroupProtocol::Streams {
            self.streams_num_standby_replicas
                .unwrap_or(self.group_streams_num_standby_replicas)
        } else {
            self.num_standby_replicas
        }
    }

    /// Kafka's validation (plus playground limits).
    pub fn validate(&self) -> Result<(), Error> {
        schema::check_unmodelled(self)?;
        if let Some(c) = &self.task_assignor_class {
            if !matches!(
                c.as_str(),
                "high_availability" | "sticky" | assignor::STICKY_TASK_ASSIGNOR_CLASS
            ) {
                return Err(Error::BadConfig(format!(
                    "Expected an instantiable class name for task.assignor.class but got {c} (the built-in TaskAssignor is {})",
                    assignor::STICKY_TASK_ASSIGNOR_CLASS
                )));
            }
        }
        self.validate_streams_assignors()?;
        if let Some(n) = self.streams_num_standby_replicas {
            if n > self.group_streams_max_standby_replicas {
                return Err(Error::BadConfig(format!(
                    "streams.num.standby.replicas {n} is above group.streams.max.standby.replicas {}",
                    self.group_streams_max_standby_replicas
                )));
            }
        }
        if self.group_streams_num_standby_replicas > MAX_STANDBY_REPLICAS
            || self.group_streams_max_standby_replicas > MAX_STANDBY_REPLICAS
        {
            return Err(Error::BadConfig(format!(
                "group.streams standby replicas above the playground limit of {MAX_STANDBY_REPLICAS}"
            )));
        }
        if self.rack_aware_assignment_tags.len() > MAX_RACK_AWARE_ASSIGNMENT_TAG_LIST_SIZE {
            return Err(Error::TooManyRackTags(self.rack_aware_assignment_tags.len()));
        }
        for k in &self.rack_aware_assignment_tags {
            if k.chars().count() > MAX_RACK_AWARE_ASSIGNMENT_TAG_KEY_LENGTH {
                return Err(Error::TagKeyTooLong(k.clone()));
            }
        }
        if self.application_id.is_empty() {
            return Err(Error::BadConfig("application.id must not be empty".into()));
        }
        if self.max_warmup_replicas == 0 {
            return Err(Error::BadConfig("max.warmup.replicas must be at least 1".into()));
        }
        if self.probing_rebalance_interval_ms < MIN_PROBING_REBALANCE_INTERVAL_MS {
            return Err(Error::BadConfig(format!(
                "probing.rebalance.interval.ms must be at least {MIN_PROBING_REBALANCE_INTERVAL_MS}"
            )));
        }
        if self.restore_records_per_second == 0 {
            return Err(Error::BadConfig(
                "lbscope.restore.records.per.second must be at least 1".into(),
            ));
        }
        if self.num_stream_threads > MAX_THREADS {
            return Err(Error::TooManyThreads(self.num_stream_threads));
        }
        if self.num_standby_replicas > MAX_STANDBY_REPLICAS {
            return Err(Error::BadConfig(format!(
                "num.standby.replicas above the playground limit of {MAX_STANDBY_REPLICAS}"
            )));
        }
        Ok(())
    }
}

/// The built-in streams group assignors: (name, class name).
pub const STREAMS_GROUP_ASSIGNORS: [(&str, &str); 2] = [
    (
        STICKY_ASSIGNOR_NAME,
        "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor",
    ),
    (
        BALANCED_ASSIGNOR_NAME,
        "org.apache.kafka.coordinator.group.streams.assignor.BalancedTaskAssignor",
    ),
];
/// `StickyTaskAssignor.name()`.
pub const STICKY_ASSIGNOR_NAME: &str = "sticky";
/// `BalancedTaskAssignor.name()`.
pub const BALANCED_ASSIGNOR_NAME: &str = "balanced";

/// The built-in name of a `group.streams.assignors` entry (a name or a class name).
pub fn streams_assignor_name_of(entry: &str) -> Option<&'static str> {
    let e = entry.trim();
    STREAMS_GROUP_ASSIGNORS
        .iter()
        .find(|(n, c)| *n == e || *c == e)
        .map(|(n, _)| *n)
}

impl Config {
    /// `group.streams.assignors` names only built-in assignors, each once, and
    /// `streams.assignor.name` one of them.
    fn validate_streams_assignors(&self) -> Result<(), Error> {
        let known = || {
            STREAMS_GROUP_ASSIGNORS
                .iter()
                .map(|(n, c)| format!("{n} ({c})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.group_streams_assignors.is_empty() {
            return Err(Error::BadConfig(format!(
                "group.streams.assignors must name at least one assignor; the built-in ones are {}",
                known()
            )));
        }
        let mut names = Vec::new();
        for e in &self.group_streams_assignors {
            let Some(n) = streams_assignor_name_of(e) else {
                return Err(Error::BadConfig(format!(
                    "group.streams.assignors: unknown assignor {e:?}; lbscope models the built-in assignors {}",
                    known()
                )));
            };
            if names.contains(&n) {
                return Err(Error::BadConfig(format!(
                    "group.streams.assignors names the assignor {n} twice"
                )));
            }
            names.push(n);
        }
        if let Some(g) = &self.streams_assignor_name {
            if !names.contains(&g.as_str()) {
                return Err(Error::BadConfig(format!(
                    "streams.assignor.name {g:?} is not one of group.streams.assignors: {}",
                    names.join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// `group.protocol` of a Kafka Streams client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupProtocol {
    /// The classic consumer group protocol: the group leader's `StreamsPartitionAssignor` assigns.
    #[default]
    Classic,
    /// KIP-1071's streams group protocol: the group coordinator assigns.
    Streams,
}

impl schema::Schema for Config {
    fn knobs() -> &'static [schema::Knob] {
        knobs::KNOBS
    }

    fn profiles() -> Vec<(&'static str, Config)> {
        vec![("kafka-streams", Config::default())]
    }

    fn rules(&self) -> Result<(), String> {
        self.validate().map_err(|e| e.to_string())
    }

    fn unmodelled(&self) -> &BTreeMap<String, serde_json::Value> {
        &self.unmodelled
    }

    fn compare_keys() -> &'static [&'static str] {
        &[
            "internal.task.assignor.class",
            "group.protocol",
            "rack.aware.assignment.strategy",
        ]
    }
}
