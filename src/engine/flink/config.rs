//! Flink's configuration keys that shape task scheduling, with Flink's names and
//! defaults, and the `TaskManagerLoadBalanceMode` compatibility rule.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `taskmanager.load-balance.mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoadBalanceMode {
    /// `NONE` (default): no balancing.
    #[default]
    #[serde(alias = "NONE", alias = "None")]
    None,
    /// `SLOTS`: the ResourceManager spreads slots over the TaskManagers with the least
    /// slot utilisation.
    #[serde(alias = "SLOTS", alias = "Slots")]
    Slots,
    /// `TASKS`: balanced task scheduling (FLIP-370), both phases.
    #[serde(alias = "TASKS", alias = "Tasks")]
    Tasks,
}

impl LoadBalanceMode {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            LoadBalanceMode::None => "none",
            LoadBalanceMode::Slots => "slots",
            LoadBalanceMode::Tasks => "tasks",
        }
    }
}

/// A duration in whole milliseconds, written like Flink writes durations.
///
/// Reads a number (milliseconds) or a string with Flink's units (`"20 ms"`, `"5 min"`,
/// `"300s"`, `"1 h"`, `"2 d"`; no unit means milliseconds); writes `"<n> ms"`.
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
        n.checked_mul(factor).map(DurationMs)
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
            Raw::Num(n) => Ok(DurationMs(n)),
            Raw::Text(t) => DurationMs::parse(&t)
                .ok_or_else(|| serde::de::Error::custom(format!("not a duration: {t:?}"))),
        }
    }
}

/// Flink's scheduling configuration (only the keys the balanced-scheduling doc names,
/// plus the default slot count of a TaskManager).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `taskmanager.load-balance.mode`: none (default), slots or tasks.
    #[serde(rename = "taskmanager.load-balance.mode")]
    pub load_balance_mode: LoadBalanceMode,
    /// `cluster.evenly-spread-out-slots` (deprecated; default false). When true and the
    /// mode is `none`, the effective mode is `slots` (see [`Config::effective_mode`]).
    #[serde(rename = "cluster.evenly-spread-out-slots")]
    pub evenly_spread_out_slots: bool,
    /// `slot.request.max-interval` (default 20 ms): the slot pool declares (and lbscope
    /// settles) a batch of slot requests only after this long without a new request or
    /// resource change.
    #[serde(rename = "slot.request.max-interval")]
    pub slot_request_max_interval: DurationMs,
    /// `slot.request.timeout` (default 5 min): a slot request not fulfilled this long
    /// after it was issued fails.
    #[serde(rename = "slot.request.timeout")]
    pub slot_request_timeout: DurationMs,
    /// `taskmanager.numberOfTaskSlots` (default 1): slots of a TaskManager added without
    /// an explicit count.
    #[serde(rename = "taskmanager.numberOfTaskSlots")]
    pub number_of_task_slots: u32,
    /// Keys Flink has that lbscope does not model: kept, so a link keeps them.
    #[serde(flatten)]
    pub unmodelled: std::collections::BTreeMap<String, serde_json::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            load_balance_mode: LoadBalanceMode::None,
            evenly_spread_out_slots: false,
            slot_request_max_interval: DurationMs(20),
            slot_request_timeout: DurationMs(5 * 60 * 1000),
            number_of_task_slots: 1,
            unmodelled: Default::default(),
        }
    }
}

impl Config {
    /// The mode in force, by Flink's `TaskManagerLoadBalanceMode#loadFromConfiguration`:
    /// an explicit `slots` or `tasks` wins; otherwise `cluster.evenly-spread-out-slots:
    /// true` means `slots`; otherwise `none`.
    pub fn effective_mode(&self) -> LoadBalanceMode {
        match self.load_balance_mode {
            LoadBalanceMode::None if self.evenly_spread_out_slots => LoadBalanceMode::Slots,
            m => m,
        }
    }

    /// A default config with the given mode.
    pub fn with_mode(mode: LoadBalanceMode) -> Self {
        Config {
            load_balance_mode: mode,
            ..Config::default()
        }
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
        c.load_balance_mode = LoadBalanceMode::Tasks;
        assert_eq!(c.effective_mode(), LoadBalanceMode::Tasks);
    }

    #[test]
    fn flink_keys_and_durations() {
        let c: Config = serde_json::from_str(
            r#"{"taskmanager.load-balance.mode":"TASKS","slot.request.max-interval":"70 ms",
                "slot.request.timeout":"5 min"}"#,
        )
        .unwrap();
        assert_eq!(c.load_balance_mode, LoadBalanceMode::Tasks);
        assert_eq!(c.slot_request_max_interval, DurationMs(70));
        assert_eq!(c.slot_request_timeout, DurationMs(300_000));
        let c: Config = serde_json::from_str(r#"{"slot.request.max-interval":120}"#).unwrap();
        assert_eq!(c.slot_request_max_interval, DurationMs(120));
        let back: Config = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert_eq!(DurationMs::parse("2s"), Some(DurationMs(2000)));
        assert_eq!(DurationMs::parse("x"), None);
    }
}
