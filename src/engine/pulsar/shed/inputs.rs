//! What a shedder's decision reads, for drawing it: per broker the value the
//! strategy compares, and the lines (or band) it compares them against, all
//! computed here from the shedder's own history, the leader's load data and
//! the config. A query: nothing changes.
//!
//! Each shedder answers in its own file (`fn inputs`); the numbers are the ones
//! its pass uses, so a picture of them says what the narration says:
//! ThresholdShedder's moving averages (as its last pass left them) against the
//! cluster average + threshold; TransferShedder's brokers' `weightedMaxEMA`
//! against the average ± std band (and the target std); AvgShedder's scores
//! with each broker's consecutive hit counters; OverloadShedder's weighted max
//! usage against the overload threshold; UniformLoadShedder's message rates,
//! scaled to the busiest broker, with the max/min spread.

use super::super::config::{Config, SheddingStrategy};
use super::super::load::{BrokerId, LoadData};
use super::ema::BrokerLoadEma;
use serde::{Deserialize, Serialize};

/// What one `inputs` query may read.
pub struct InputsContext<'a> {
    /// The leader's load data.
    pub load: &'a LoadData,
    /// The config the load manager runs with.
    pub conf: &'a Config,
    /// The brokers' EMAs (extensible load manager).
    pub ema: &'a BrokerLoadEma,
    /// Simulated time (ms).
    pub now_ms: u64,
}

/// A line the strategy compares each broker's value against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShedLine {
    /// What it is, with its value ("average + threshold 35.0 %").
    pub label: String,
    /// Where, in % of the bar.
    pub at: f64,
    /// Whether crossing it makes a broker shed (else it is a reference, e.g. the average).
    pub trigger: bool,
}

/// A band around the average (TransferShedder's average ± std).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShedBand {
    /// What it is, with its numbers.
    pub label: String,
    /// Lower edge, % of the bar.
    pub low: f64,
    /// Upper edge, % of the bar.
    pub high: f64,
}

/// AvgShedder's consecutive hit counters of one broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitCounts {
    /// `brokerHitCountForHigh`.
    pub high: u32,
    /// `loadBalancerAvgShedderHitCountHighThreshold`.
    pub high_needed: u32,
    /// `brokerHitCountForLow`.
    pub low: u32,
    /// `loadBalancerAvgShedderHitCountLowThreshold`.
    pub low_needed: u32,
}

/// One broker's input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BrokerInput {
    /// The broker.
    pub broker: BrokerId,
    /// The value the strategy compares, in % of the bar (`None`: no value yet,
    /// e.g. a broker ThresholdShedder has not averaged).
    pub value: Option<f64>,
    /// The value in words, with its unit.
    pub shown: String,
    /// AvgShedder's hit counters.
    pub hits: Option<HitCounts>,
}

/// The inputs of the configured shedder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShedInputs {
    /// The strategy.
    pub strategy: SheddingStrategy,
    /// What each broker's value is ("moving-average usage").
    pub measure: String,
    /// The value's short name beside each broker's load bar ("moving avg");
    /// `None` when the value is the load bar itself.
    #[serde(default)]
    pub bar: Option<String>,
    /// Per broker, in name order (the brokers of the leader's load data).
    pub brokers: Vec<BrokerInput>,
    /// The lines compared against.
    pub lines: Vec<ShedLine>,
    /// A band, if the strategy uses one.
    pub band: Option<ShedBand>,
    /// One sentence with the numbers that decide.
    pub summary: String,
}

impl ShedInputs {
    /// The input of `broker`, if it is in the load data.
    pub fn broker(&self, broker: &str) -> Option<&BrokerInput> {
        self.brokers.iter().find(|b| b.broker.as_str() == broker)
    }
}

/// A percentage with one decimal.
pub(crate) fn pc(v: f64) -> String {
    format!("{v:.1} %")
}

/// A broker input from a fraction.
pub(crate) fn frac_input(broker: &BrokerId, f: Option<f64>) -> BrokerInput {
    BrokerInput {
        broker: broker.clone(),
        value: f.map(|f| f * 100.0),
        shown: f.map_or_else(|| "not yet averaged".to_string(), |f| pc(f * 100.0)),
        hits: None,
    }
}

/// Convenience for the shedders' `inputs`.
pub(crate) fn line(label: String, at: f64, trigger: bool) -> ShedLine {
    ShedLine { label, at, trigger }
}
