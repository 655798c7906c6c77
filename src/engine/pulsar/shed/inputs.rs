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
    /// The value in words, with its unit (written when read).
    pub shown: Shown,
    /// AvgShedder's hit counters.
    pub hits: Option<HitCounts>,
}

/// A broker input's value in words. The numbers are kept and the text written
/// only when it is read (a round's inputs cover every broker; a page shows a
/// few). It prints (also in `Debug`), serializes and deserializes as its text.
#[derive(Clone)]
pub enum Shown {
    /// A percentage with one decimal (`None`: "not yet averaged").
    Percent(Option<f64>),
    /// A message rate and a throughput in MB/s.
    Rates {
        /// Messages per second.
        msg: f64,
        /// Megabytes per second.
        mbs: f64,
    },
    /// AvgShedder's score.
    Score(f64),
    /// The text itself (as read back from JSON).
    Text(String),
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shown::Percent(None) => f.write_str("not yet averaged"),
            Shown::Percent(Some(v)) => write!(f, "{v:.1} %"),
            Shown::Rates { msg, mbs } => write!(f, "{msg:.1} msg/s, {mbs:.2} MB/s"),
            Shown::Score(v) => write!(f, "score {v:.1}"),
            Shown::Text(t) => f.write_str(t),
        }
    }
}

impl std::fmt::Debug for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl Shown {
    /// The text.
    pub fn text(&self) -> String {
        self.to_string()
    }
}

/// Equal when the texts are: numbers of the same kind compare as numbers
/// (equal numbers write equal texts), anything else by its text.
impl PartialEq for Shown {
    fn eq(&self, o: &Self) -> bool {
        match (self, o) {
            (Shown::Percent(a), Shown::Percent(b)) if a == b => true,
            (Shown::Rates { msg: a, mbs: x }, Shown::Rates { msg: b, mbs: y }) if a == b && x == y => true,
            (Shown::Score(a), Shown::Score(b)) if a == b => true,
            (Shown::Text(a), Shown::Text(b)) => a == b,
            _ => self.to_string() == o.to_string(),
        }
    }
}

impl From<String> for Shown {
    fn from(s: String) -> Self {
        Shown::Text(s)
    }
}

impl From<&str> for Shown {
    fn from(s: &str) -> Self {
        Shown::Text(s.to_string())
    }
}

impl Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shown {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Shown::Text)
    }
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
    Shown::Percent(Some(v)).text()
}

/// A broker input from a fraction.
pub(crate) fn frac_input(broker: &BrokerId, f: Option<f64>) -> BrokerInput {
    BrokerInput {
        broker: broker.clone(),
        value: f.map(|f| f * 100.0),
        shown: Shown::Percent(f.map(|f| f * 100.0)),
        hits: None,
    }
}

/// Convenience for the shedders' `inputs`.
pub(crate) fn line(label: String, at: f64, trigger: bool) -> ShedLine {
    ShedLine { label, at, trigger }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lazy texts are the ones the shedders wrote before (one decimal, the
    /// units), JSON carries them as text, and equality is the text's.
    #[test]
    fn a_brokers_shown_value_reads_prints_and_serializes_as_its_text() {
        let cases = [
            (Shown::Percent(None), "not yet averaged"),
            (Shown::Percent(Some(42.06)), "42.1 %"),
            (
                Shown::Rates {
                    msg: 1234.56,
                    mbs: 0.126,
                },
                "1234.6 msg/s, 0.13 MB/s",
            ),
            (Shown::Score(7.04), "score 7.0"),
        ];
        for (shown, text) in cases {
            assert_eq!(shown.to_string(), text);
            assert_eq!(shown.text(), text);
            assert_eq!(format!("{shown:?}"), format!("{text:?}"), "Debug as the text's");
            let json = serde_json::to_string(&shown).unwrap();
            assert_eq!(json, serde_json::to_string(text).unwrap());
            let back: Shown = serde_json::from_str(&json).unwrap();
            assert_eq!(back, shown, "{text}: read back equals");
            assert_eq!(back.to_string(), text);
        }
        assert_eq!(pc(42.06), Shown::Percent(Some(42.06)).text(), "as pc() writes it");
        assert_ne!(Shown::Percent(Some(1.0)), Shown::Percent(Some(2.0)));
        assert_eq!(
            Shown::Percent(Some(1.0)),
            Shown::Percent(Some(1.04)),
            "the same text"
        );
        assert_ne!(Shown::Score(1.0), Shown::Percent(Some(1.0)));
        let input = frac_input(&BrokerId::from("b-1"), Some(0.5));
        assert_eq!(input.shown.text(), "50.0 %");
        assert_eq!(input.value, Some(50.0));
    }
}
