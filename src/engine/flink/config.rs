//! Flink's configuration keys that shape task scheduling, with Flink's names and
//! defaults, and the `TaskManagerLoadBalanceMode` compatibility rule.
//!
//! lbscope follows apache/flink `master` (the 2.x line, checked against the 2.3
//! release): `taskmanager.load-balance.mode` has the values `NONE`, `SLOTS`,
//! `MIN_RESOURCES` and `TASKS`. The deprecated `cluster.evenly-spread-out-slots` was
//! removed in Flink 2.0; lbscope still reads it the way Flink 1.19 and 1.20 did (the
//! last versions that know it), so that older configurations keep their meaning:
//! see [`Config::effective_mode`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `taskmanager.load-balance.mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadBalanceMode {
    /// `NONE` (default): no balancing.
    #[default]
    #[serde(alias = "NONE", alias = "None")]
    None,
    /// `SLOTS`: the ResourceManager spreads slots over the TaskManagers with the least
    /// slot utilisation.
    #[serde(alias = "SLOTS", alias = "Slots")]
    Slots,
    /// `MIN_RESOURCES`: the ResourceManager packs slots onto the TaskManagers with the
    /// highest utilisation, so that as few TaskManagers as possible are used.
    #[serde(alias = "MIN_RESOURCES", alias = "MinResources", alias = "min-resources")]
    MinResources,
    /// `TASKS`: balanced task scheduling (FLIP-370), both phases.
    #[serde(alias = "TASKS", alias = "Tasks")]
    Tasks,
}

impl LoadBalanceMode {
    /// Every mode, in Flink's declaration order.
    pub const ALL: [LoadBalanceMode; 4] = [
        LoadBalanceMode::None,
        LoadBalanceMode::Slots,
        LoadBalanceMode::MinResources,
        LoadBalanceMode::Tasks,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            LoadBalanceMode::None => "none",
            LoadBalanceMode::Slots => "slots",
            LoadBalanceMode::MinResources => "min_resources",
            LoadBalanceMode::Tasks => "tasks",
        }
    }
}

/// `jobmanager.scheduler`: which scheduler runs a streaming job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerType {
    /// `Default`: the default scheduler (fixed parallelism, slot requests per
    /// execution slot sharing group).
    #[default]
    #[serde(alias = "Default", alias = "DEFAULT")]
    Default,
    /// `Adaptive`: the adaptive scheduler (parallelism follows the offered slots).
    #[serde(alias = "Adaptive", alias = "ADAPTIVE")]
    Adaptive,
}

impl SchedulerType {
    /// Flink's name.
    pub fn name(self) -> &'static str {
        match self {
            SchedulerType::Default => "Default",
            SchedulerType::Adaptive => "Adaptive",
        }
    }
}

/// The largest duration Flink can represent: `java.time.Duration#toMillis` must fit a
/// signed 64-bit `long`.
pub const MAX_DURATION_MS: u64 = i64::MAX as u64;

/// A duration in whole milliseconds, written like Flink writes durations.
///
/// Reads a number (milliseconds) or a string with Flink's units (`"20 ms"`, `"5 min"`,
/// `"300s"`, `"1 h"`, `"2 d"`; no unit means milliseconds); writes `"<n> ms"`. Like
/// Flink's `TimeUtils#parseDuration`, a value whose milliseconds do not fit a signed
/// 64-bit number is refused (numeric overflow).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DurationMs(pub u64);

impl DurationMs {
    /// Parse Flink's duration syntax.
    pub fn parse(s: &str) -> Option<DurationMs> {
        let t = s.trim();
        let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let n: u64 = num.parse().ok()?;
        let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 1,
            "s" | "sec" | "secs" | "second" | "seconds" => 1_000,
            "m" | "min" | "minute" | "minutes" => 60_000,
            "h" | "hour" | "hours" => 3_600_000,
            "d" | "day" | "days" => 86_400_000,
            _ => return None,
        };
        n.checked_mul(factor)
            .filter(|&ms| ms <= MAX_DURATION_MS)
            .map(DurationMs)
    }

    /// Whether Flink can represent it (see [`MAX_DURATION_MS`]).
    pub fn is_representable(self) -> bool {
        self.0 <= MAX_DURATION_MS
    }
}

impl Serialize for DurationMs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{} ms", self.0))
    }
}

impl<'de> Deserialize<'de> for DurationMs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Num(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Num(n) if n <= MAX_DURATION_MS => Ok(DurationMs(n)),
            Raw::Num(n) => Err(serde::de::Error::custom(format!(
                "the duration {n} ms cannot be represented as a 64-bit number of milliseconds \
                 (numeric overflow; at most {MAX_DURATION_MS} ms)"
            ))),
            Raw::Text(t) => DurationMs::parse(&t).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "not a duration: {t:?} (a number with an optional unit ms, s, min, h or d, \
                     at most {MAX_DURATION_MS} ms)"
                ))
            }),
        }
    }
}

/// Flink's scheduling configuration: the keys the balanced-scheduling doc names, the
/// adaptive scheduler's keys, local recovery, and the default slot count of a
/// TaskManager.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `taskmanager.load-balance.mode` (default `NONE`): how slots and tasks are spread
    /// over TaskManagers; `None` here means the key is not set.
    pub load_balance_mode: Option<LoadBalanceMode>,
    /// `cluster.evenly-spread-out-slots` (default false; deprecated, removed in Flink
    /// 2.0): when true and the mode is not set, the effective mode is `slots`.
    pub evenly_spread_out_slots: bool,
    /// `slot.request.max-interval` (default 20 ms): the slot pool declares (and lbscope
    /// settles) a batch of slot requests only after this long without a new request or
    /// resource change.
    pub slot_request_max_interval: DurationMs,
    /// `slot.request.timeout` (default 5 min): a slot request not fulfilled this long
    /// after it was issued fails.
    pub slot_request_timeout: DurationMs,
    /// `taskmanager.numberOfTaskSlots` (default 1): slots of a TaskManager added without
    /// an explicit count.
    pub number_of_task_slots: u32,
    /// `jobmanager.scheduler` (default `Default`): the default or the adaptive scheduler.
    pub scheduler: SchedulerType,
    /// `execution.state-recovery.from-local` (default false; `state.backend.local-recovery`
    /// before Flink 2.0): after a failover, tasks go back to the slots they had.
    pub local_recovery: bool,
    /// `jobmanager.adaptive-scheduler.submission.resource-wait-timeout` (default 5 min):
    /// how long the adaptive scheduler waits for the minimum resources before failing.
    pub adaptive_resource_wait_timeout: DurationMs,
    /// `jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout` (default
    /// 10 s): how long it waits with sufficient but not desired resources before starting.
    pub adaptive_submission_stabilization_timeout: DurationMs,
    /// `jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling` (default 30 s):
    /// the least time between two rescales of a running job.
    pub adaptive_cooldown_after_rescaling: DurationMs,
    /// `jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout` (default
    /// 60 s): how long a running job waits with more (but not the desired) resources
    /// before rescaling.
    pub adaptive_executing_stabilization_timeout: DurationMs,
    /// `jobmanager.adaptive-scheduler.prefer-minimal-taskmanagers` (default true): in
    /// application mode, the adaptive scheduler uses the fewest TaskManagers.
    pub prefer_minimal_taskmanagers: bool,
    /// `execution.target` (no default): `embedded` is application mode (Flink sets it
    /// so for an application cluster's JobManager).
    pub execution_target: Option<String>,
    /// Keys Flink has that lbscope does not model: kept, so a link keeps them.
    pub unmodelled: std::collections::BTreeMap<String, serde_json::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            load_balance_mode: None,
            evenly_spread_out_slots: false,
            slot_request_max_interval: DurationMs(20),
            slot_request_timeout: DurationMs(5 * 60 * 1000),
            number_of_task_slots: 1,
            scheduler: SchedulerType::Default,
            local_recovery: false,
            adaptive_resource_wait_timeout: DurationMs(5 * 60 * 1000),
            adaptive_submission_stabilization_timeout: DurationMs(10_000),
            adaptive_cooldown_after_rescaling: DurationMs(30_000),
            adaptive_executing_stabilization_timeout: DurationMs(60_000),
            prefer_minimal_taskmanagers: true,
            execution_target: None,
            unmodelled: Default::default(),
        }
    }
}

/// The execution target Flink sets for an application cluster's JobManager.
pub const APPLICATION_MODE_EXECUTION_TARGET: &str = "embedded";

impl Config {
    /// The mode in force. An explicitly set `taskmanager.load-balance.mode` always wins
    /// (also an explicit `NONE`: Flink's `TaskManagerLoadBalanceModeTest`, and the review
    /// of the change that added the key); when it is not set,
    /// `cluster.evenly-spread-out-slots: true` means `slots`, as Flink 1.19/1.20's
    /// `TaskManagerLoadBalanceMode#loadFromConfiguration` decided; otherwise `none`.
    pub fn effective_mode(&self) -> LoadBalanceMode {
        match self.load_balance_mode {
            Some(m) => m,
            None if self.evenly_spread_out_slots => LoadBalanceMode::Slots,
            None => LoadBalanceMode::None,
        }
    }

    /// `taskmanager.load-balance.mode` as configured (the default when not set).
    pub fn configured_mode(&self) -> LoadBalanceMode {
        self.load_balance_mode.unwrap_or_default()
    }

    /// A default config with the given mode set explicitly.
    pub fn with_mode(mode: LoadBalanceMode) -> Self {
        Config {
            load_balance_mode: Some(mode),
            ..Config::default()
        }
    }

    /// Whether the JobManager runs in application mode (`execution.target: embedded`).
    pub fn is_application_mode(&self) -> bool {
        self.execution_target
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(APPLICATION_MODE_EXECUTION_TARGET))
    }

    /// Every duration with its key, for validation and narration.
    pub fn durations(&self) -> [(&'static str, DurationMs); 6] {
        [
            ("slot.request.max-interval", self.slot_request_max_interval),
            ("slot.request.timeout", self.slot_request_timeout),
            (
                "jobmanager.adaptive-scheduler.submission.resource-wait-timeout",
                self.adaptive_resource_wait_timeout,
            ),
            (
                "jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout",
                self.adaptive_submission_stabilization_timeout,
            ),
            (
                "jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling",
                self.adaptive_cooldown_after_rescaling,
            ),
            (
                "jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout",
                self.adaptive_executing_stabilization_timeout,
            ),
        ]
    }

    /// The first duration Flink could not represent, if any.
    pub fn unrepresentable_duration(&self) -> Option<(&'static str, u64)> {
        self.durations()
            .into_iter()
            .find(|(_, d)| !d.is_representable())
            .map(|(k, d)| (k, d.0))
    }
}

/// The JSON form: every key always written (so the settings panel lists them);
/// an unset `taskmanager.load-balance.mode` is written `null`, so that an unset
/// mode and an explicit `none` both survive a round trip.
#[derive(Serialize, Deserialize)]
#[serde(default)]
struct Wire {
    #[serde(rename = "taskmanager.load-balance.mode")]
    load_balance_mode: Option<LoadBalanceMode>,
    #[serde(rename = "cluster.evenly-spread-out-slots")]
    evenly_spread_out_slots: bool,
    #[serde(rename = "slot.request.max-interval")]
    slot_request_max_interval: DurationMs,
    #[serde(rename = "slot.request.timeout")]
    slot_request_timeout: DurationMs,
    #[serde(rename = "taskmanager.numberOfTaskSlots")]
    number_of_task_slots: u32,
    #[serde(rename = "jobmanager.scheduler")]
    scheduler: SchedulerType,
    #[serde(
        rename = "execution.state-recovery.from-local",
        alias = "state.backend.local-recovery"
    )]
    local_recovery: bool,
    #[serde(rename = "jobmanager.adaptive-scheduler.submission.resource-wait-timeout")]
    adaptive_resource_wait_timeout: DurationMs,
    #[serde(rename = "jobmanager.adaptive-scheduler.submission.resource-stabilization-timeout")]
    adaptive_submission_stabilization_timeout: DurationMs,
    #[serde(rename = "jobmanager.adaptive-scheduler.executing.cooldown-after-rescaling")]
    adaptive_cooldown_after_rescaling: DurationMs,
    #[serde(rename = "jobmanager.adaptive-scheduler.executing.resource-stabilization-timeout")]
    adaptive_executing_stabilization_timeout: DurationMs,
    #[serde(rename = "jobmanager.adaptive-scheduler.prefer-minimal-taskmanagers")]
    prefer_minimal_taskmanagers: bool,
    #[serde(rename = "execution.target")]
    execution_target: Option<String>,
    #[serde(flatten)]
    unmodelled: std::collections::BTreeMap<String, serde_json::Value>,
}

impl Default for Wire {
    fn default() -> Self {
        let c = Config::default();
        Wire {
            load_balance_mode: None,
            evenly_spread_out_slots: c.evenly_spread_out_slots,
            slot_request_max_interval: c.slot_request_max_interval,
            slot_request_timeout: c.slot_request_timeout,
            number_of_task_slots: c.number_of_task_slots,
            scheduler: c.scheduler,
            local_recovery: c.local_recovery,
            adaptive_resource_wait_timeout: c.adaptive_resource_wait_timeout,
            adaptive_submission_stabilization_timeout: c.adaptive_submission_stabilization_timeout,
            adaptive_cooldown_after_rescaling: c.adaptive_cooldown_after_rescaling,
            adaptive_executing_stabilization_timeout: c.adaptive_executing_stabilization_timeout,
            prefer_minimal_taskmanagers: c.prefer_minimal_taskmanagers,
            execution_target: c.execution_target,
            unmodelled: Default::default(),
        }
    }
}

impl Serialize for Config {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            load_balance_mode: self.load_balance_mode,
            evenly_spread_out_slots: self.evenly_spread_out_slots,
            slot_request_max_interval: self.slot_request_max_interval,
            slot_request_timeout: self.slot_request_timeout,
            number_of_task_slots: self.number_of_task_slots,
            scheduler: self.scheduler,
            local_recovery: self.local_recovery,
            adaptive_resource_wait_timeout: self.adaptive_resource_wait_timeout,
            adaptive_submission_stabilization_timeout: self.adaptive_submission_stabilization_timeout,
            adaptive_cooldown_after_rescaling: self.adaptive_cooldown_after_rescaling,
            adaptive_executing_stabilization_timeout: self.adaptive_executing_stabilization_timeout,
            prefer_minimal_taskmanagers: self.prefer_minimal_taskmanagers,
            execution_target: self.execution_target.clone(),
            unmodelled: self.unmodelled.clone(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Config {
    /// The mode counts as set when the key is present and not `null`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = Wire::deserialize(d)?;
        Ok(Config {
            load_balance_mode: w.load_balance_mode,
            evenly_spread_out_slots: w.evenly_spread_out_slots,
            slot_request_max_interval: w.slot_request_max_interval,
            slot_request_timeout: w.slot_request_timeout,
            number_of_task_slots: w.number_of_task_slots,
            scheduler: w.scheduler,
            local_recovery: w.local_recovery,
            adaptive_resource_wait_timeout: w.adaptive_resource_wait_timeout,
            adaptive_submission_stabilization_timeout: w.adaptive_submission_stabilization_timeout,
            adaptive_cooldown_after_rescaling: w.adaptive_cooldown_after_rescaling,
            adaptive_executing_stabilization_timeout: w.adaptive_executing_stabilization_timeout,
            prefer_minimal_taskmanagers: w.prefer_minimal_taskmanagers,
            execution_target: w.execution_target,
            unmodelled: w.unmodelled,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_rule() {
        let mut c = Config::default();
        assert_eq!(c.effective_mode(), LoadBalanceMode::None);
        c.evenly_spread_out_slots = true;
        assert_eq!(c.effective_mode(), LoadBalanceMode::Slots);
        c.load_balance_mode = Some(LoadBalanceMode::Tasks);
        assert_eq!(c.effective_mode(), LoadBalanceMode::Tasks);
        c.load_balance_mode = Some(LoadBalanceMode::None);
        assert_eq!(c.effective_mode(), LoadBalanceMode::None);
    }

    #[test]
    fn flink_keys_and_durations() {
        let c: Config = serde_json::from_str(
            r#"{"taskmanager.load-balance.mode":"TASKS","slot.request.max-interval":"70 ms",
                "slot.request.timeout":"5 min"}"#,
        )
        .unwrap();
        assert_eq!(c.load_balance_mode, Some(LoadBalanceMode::Tasks));
        assert_eq!(c.slot_request_max_interval, DurationMs(70));
        assert_eq!(c.slot_request_timeout, DurationMs(300_000));
        let c: Config = serde_json::from_str(r#"{"slot.request.max-interval":120}"#).unwrap();
        assert_eq!(c.slot_request_max_interval, DurationMs(120));
        assert_eq!(c.load_balance_mode, None);
        let back: Config = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert_eq!(DurationMs::parse("2s"), Some(DurationMs(2000)));
        assert_eq!(DurationMs::parse("x"), None);
        let c: Config = serde_json::from_str(r#"{"taskmanager.load-balance.mode":"MIN_RESOURCES"}"#).unwrap();
        assert_eq!(c.effective_mode(), LoadBalanceMode::MinResources);
        let c: Config = serde_json::from_str(r#"{"state.backend.local-recovery":true}"#).unwrap();
        assert!(c.local_recovery);
    }

    #[test]
    fn durations_beyond_a_java_long_are_refused() {
        assert_eq!(
            DurationMs::parse("9223372036854775807 ms"),
            Some(DurationMs(MAX_DURATION_MS))
        );
        assert_eq!(DurationMs::parse("9223372036854775808 ms"), None);
        assert_eq!(DurationMs::parse("106751991167301 d"), None);
        let e = serde_json::from_str::<Config>(r#"{"slot.request.timeout":18446744073709551615}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("numeric overflow"), "{e}");
    }

    #[test]
    fn an_unset_mode_survives_json() {
        for c in [
            Config::default(),
            Config {
                evenly_spread_out_slots: true,
                ..Config::default()
            },
            Config {
                evenly_spread_out_slots: true,
                ..Config::with_mode(LoadBalanceMode::None)
            },
            Config::with_mode(LoadBalanceMode::Slots),
        ] {
            let back: Config = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
            assert_eq!(back, c);
            assert_eq!(back.effective_mode(), c.effective_mode());
        }
        // The default JSON leaves the mode unset (null); an explicit NONE is written.
        let v = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(v["taskmanager.load-balance.mode"], serde_json::Value::Null);
        let v = serde_json::to_value(Config::with_mode(LoadBalanceMode::None)).unwrap();
        assert_eq!(v["taskmanager.load-balance.mode"], "none");
    }
}
