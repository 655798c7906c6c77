//! Outcome metrics: how a run ended and what it cost, read from the engine's
//! events alone (never from the state), the same way for every system.
//!
//! A run is judged as the people who design balancers judge one: how many
//! rounds it took to settle ([`settle`]), how much it moved (moves, the data or
//! traffic behind them, sessions reconnected, records restored), how balanced
//! the load was over time (max, min, standard deviation, rounds above the
//! overload line), and a balancedness score from 0 to 100 ([`score`]: 100 when
//! every goal of the system is met). `docs/outcomes.md` defines each figure.
//!
//! Each system has one meter (`pulsar.rs`, `flink.rs`, `kstreams.rs`) that reads
//! its events and hands one [`Sample`] per round to a [`Track`]; the track does
//! what is common. [`distribution`] summarises many runs (a sweep over seeds).

pub mod distribution;
pub mod flink;
pub mod kstreams;
pub mod pulsar;
pub mod score;
pub mod settle;

use super::Engine;
use serde::Serialize;

pub use distribution::Distribution;
pub use score::Goal;
pub use settle::Settings;

/// The balance of one round, in the system's unit of load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Sample {
    /// Highest load.
    pub max: f64,
    /// Lowest load.
    pub min: f64,
    /// Average load.
    pub avg: f64,
    /// Population standard deviation of the loads.
    pub std_dev: f64,
    /// Moves made in the round (and since the round before it).
    pub moves: u64,
    /// Whether work the round started is still in flight (Kafka Streams:
    /// warm-ups restoring, a probing rebalance due).
    pub busy: bool,
    /// Whether the highest load is at or above the overload line.
    pub over_line: bool,
}

impl Sample {
    /// A sample of `loads` (none: all zero).
    pub fn of(loads: &[f64]) -> Sample {
        let n = loads.len();
        if n == 0 {
            return Sample::default();
        }
        let avg = loads.iter().sum::<f64>() / n as f64;
        let var = loads.iter().map(|l| (l - avg) * (l - avg)).sum::<f64>() / n as f64;
        Sample {
            max: loads.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            min: loads.iter().copied().fold(f64::INFINITY, f64::min),
            avg,
            std_dev: var.sqrt(),
            ..Sample::default()
        }
    }

    /// `max - min`.
    pub fn spread(&self) -> f64 {
        self.max - self.min
    }
}

/// Load over the rounds of a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LoadOverTime {
    /// The highest load of any round.
    pub peak: f64,
    /// The lowest load of any round.
    pub low: f64,
    /// The standard deviation of the loads, averaged over the rounds.
    pub mean_std_dev: f64,
    /// The last round's highest load.
    pub last_max: f64,
    /// The last round's lowest load.
    pub last_min: f64,
    /// The last round's standard deviation.
    pub last_std_dev: f64,
}

/// What the system-specific figures of a run are, beyond the common ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Extra {
    /// Pulsar: topic sessions closed by unloads (each topic reconnects once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topics_reconnected: Option<u64>,
    /// Pulsar: producer and consumer sessions that reconnected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions_reconnected: Option<u64>,
    /// Pulsar: throughput of the bundles the shedder chose by throughput, MB/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throughput_moved_mb: Option<f64>,
    /// Pulsar: message rate of the bundles the shedder chose by message rate, msg/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub msg_rate_moved: Option<f64>,
    /// Pulsar: shedding passes that picked a broker to offload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shed_decisions: Option<u64>,
    /// Pulsar: of those, the ones whose broker last reported a load at or below
    /// the reported average (it was not the busy one: over-unloading).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misdirected_sheds: Option<u64>,
    /// Kafka Streams: records replayed from changelogs by tasks that finished restoring.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records_restored: Option<u64>,
    /// Kafka Streams: restore time summed over those tasks, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restore_ms: Option<u64>,
    /// Kafka Streams: the longest estimated restore of a new active, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_restore_ms: Option<u64>,
    /// Kafka Streams: warm-up replicas placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmups: Option<u64>,
    /// Flink: scheduling runs that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_schedules: Option<u64>,
}

/// How a run ended and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The system (`pulsar`, `flink`, `kstreams`).
    pub system: &'static str,
    /// Rounds run (Pulsar rounds, Flink scheduling runs, Kafka Streams rebalances).
    pub rounds: u64,
    /// The round after which nothing moved and the spread stayed in the band
    /// for at least the quiet rounds ([`settle`]); `None`: it did not settle.
    pub settled_after: Option<u64>,
    /// The settling rule used.
    pub settle: Settings,
    /// Moves, in [`Outcome::moves_are`].
    pub moves: u64,
    /// What a move is for this system.
    pub moves_are: &'static str,
    /// The unit of load.
    pub load_unit: &'static str,
    /// Load over the rounds (`None`: no round ran).
    pub load: Option<LoadOverTime>,
    /// Rounds whose highest load was at or above the overload line (`None`:
    /// the system has no such line).
    pub rounds_over_line: Option<u64>,
    /// System-specific figures.
    #[serde(flatten)]
    pub extra: Extra,
    /// Balancedness, 0 to 100: the share of the goals met at the end of the run.
    pub score: f64,
    /// The goals and whether each was met.
    pub goals: Vec<Goal>,
}

impl Outcome {
    /// The figures a sweep summarises, `(name, value)`, in a fixed order
    /// (a figure a run does not have is left out).
    pub fn figures(&self) -> Vec<(&'static str, f64)> {
        let mut out = vec![
            ("score", self.score),
            ("settled", if self.settled_after.is_some() { 1.0 } else { 0.0 }),
        ];
        if let Some(s) = self.settled_after {
            out.push(("rounds to settle", s as f64));
        }
        out.push(("moves", self.moves as f64));
        if let Some(l) = &self.load {
            out.push(("peak load", l.peak));
            out.push(("final max/min", ratio(l.last_max, l.last_min)));
            out.push(("mean std dev", l.mean_std_dev));
            out.push(("final std dev", l.last_std_dev));
        }
        if let Some(r) = self.rounds_over_line {
            out.push(("rounds over line", r as f64));
        }
        let e = &self.extra;
        let opt = [
            ("topics reconnected", e.topics_reconnected.map(|v| v as f64)),
            ("sessions reconnected", e.sessions_reconnected.map(|v| v as f64)),
            ("MB/s moved", e.throughput_moved_mb),
            ("msg/s moved", e.msg_rate_moved),
            ("shed decisions", e.shed_decisions.map(|v| v as f64)),
            ("misdirected sheds", e.misdirected_sheds.map(|v| v as f64)),
            ("records restored", e.records_restored.map(|v| v as f64)),
            ("restore ms", e.restore_ms.map(|v| v as f64)),
            ("longest restore ms", e.longest_restore_ms.map(|v| v as f64)),
            ("warm-ups", e.warmups.map(|v| v as f64)),
            ("failed schedules", e.failed_schedules.map(|v| v as f64)),
        ];
        out.extend(opt.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        out
    }

    /// The outcome in one line, as the playground's metrics panel heads it:
    /// "settled after round 3 · 2 moves · balancedness 87".
    pub fn summary(&self) -> String {
        let settled = match (self.rounds, self.settled_after) {
            (0, _) => "0 rounds".to_string(),
            (_, Some(r)) => format!("settled after round {r}"),
            (n, None) => format!("not settled after {n} round{}", if n == 1 { "" } else { "s" }),
        };
        format!(
            "{settled} · {} move{} · balancedness {}",
            self.moves,
            if self.moves == 1 { "" } else { "s" },
            fmt(self.score)
        )
    }

    /// The outcome as text lines (what `lbscope run` prints under `outcome:`).
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let settled = match self.settled_after {
            Some(r) => format!("settled after round {r}"),
            None => "did not settle".to_string(),
        };
        let _ = writeln!(
            s,
            "  {} round{}, {settled} (settled: no move for {} rounds, a spread of at most {} in {})",
            self.rounds,
            if self.rounds == 1 { "" } else { "s" },
            self.settle.quiet_rounds,
            fmt(self.settle.band),
            self.load_unit
        );
        let _ = writeln!(s, "  moves: {} {}", self.moves, self.moves_are);
        if let Some(l) = &self.load {
            let _ = writeln!(
                s,
                "  load ({}): peak {}, low {}, mean std dev {}; at the end max {} min {} (max/min {}), std dev {}",
                self.load_unit,
                fmt(l.peak),
                fmt(l.low),
                fmt(l.mean_std_dev),
                fmt(l.last_max),
                fmt(l.last_min),
                fmt(ratio(l.last_max, l.last_min)),
                fmt(l.last_std_dev)
            );
        }
        if let Some(r) = self.rounds_over_line {
            let _ = writeln!(s, "  rounds above the overload line: {r}");
        }
        for (k, v) in self.figures() {
            if EXTRA.contains(&k) {
                let _ = writeln!(s, "  {k}: {}", fmt(v));
            }
        }
        let _ = writeln!(s, "  balancedness {} / 100:", fmt(self.score));
        for g in &self.goals {
            let _ = writeln!(
                s,
                "    [{}] {}: {}",
                if g.met { "x" } else { " " },
                g.name,
                g.detail
            );
        }
        s
    }
}

/// Every figure's name, in the order [`Outcome::figures`] gives them.
pub const FIGURES: &[&str] = &[
    "score",
    "settled",
    "rounds to settle",
    "moves",
    "peak load",
    "final max/min",
    "mean std dev",
    "final std dev",
    "rounds over line",
    "topics reconnected",
    "sessions reconnected",
    "MB/s moved",
    "msg/s moved",
    "shed decisions",
    "misdirected sheds",
    "records restored",
    "restore ms",
    "longest restore ms",
    "warm-ups",
    "failed schedules",
];

/// The names of the system-specific figures ([`Extra`]): the last of
/// [`FIGURES`], from "topics reconnected" on.
const EXTRA: &[&str] = FIGURES.split_at(9).1;

/// `max / min`, infinity when `min` is 0 and `max` is not (1 for both 0).
pub fn ratio(max: f64, min: f64) -> f64 {
    if min > 0.0 {
        max / min
    } else if max > 0.0 {
        f64::INFINITY
    } else {
        1.0
    }
}

/// A figure with at most two decimals (`∞` for infinity).
pub fn fmt(v: f64) -> String {
    if v.is_infinite() {
        return "∞".into();
    }
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// What every meter shares: the rounds' samples and the totals.
#[derive(Clone, Debug, Default)]
pub struct Track {
    samples: Vec<Sample>,
    /// Moves since the last round ended.
    pending_moves: u64,
    /// All moves.
    moves: u64,
}

impl Track {
    /// A move happened.
    pub fn moved(&mut self, n: u64) {
        self.pending_moves += n;
        self.moves += n;
    }

    /// A round ended with this balance (its moves are those since the last round).
    pub fn round(&mut self, mut s: Sample) {
        s.moves = std::mem::take(&mut self.pending_moves);
        self.samples.push(s);
    }

    /// The rounds so far.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// All moves.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The common part of the outcome.
    pub fn finish(
        &self,
        system: super::System,
        settings: Settings,
        with_line: bool,
        extra: Extra,
        goals: Vec<Goal>,
    ) -> Outcome {
        let s = &self.samples;
        let load = s.last().map(|last| LoadOverTime {
            peak: s.iter().map(|x| x.max).fold(f64::NEG_INFINITY, f64::max),
            low: s.iter().map(|x| x.min).fold(f64::INFINITY, f64::min),
            mean_std_dev: s.iter().map(|x| x.std_dev).sum::<f64>() / s.len() as f64,
            last_max: last.max,
            last_min: last.min,
            last_std_dev: last.std_dev,
        });
        Outcome {
            system: system.slug(),
            rounds: s.len() as u64,
            // Moves after the last round (an admin unload, say) were never measured: not settled.
            settled_after: if self.pending_moves > 0 {
                None
            } else {
                settle::settled_after(s, &settings)
            },
            settle: settings,
            moves: self.moves,
            moves_are: "",
            load_unit: "",
            load,
            rounds_over_line: with_line.then(|| s.iter().filter(|x| x.over_line).count() as u64),
            extra,
            score: score::score(&goals),
            goals,
        }
    }
}

/// A system's reader of events into an [`Outcome`].
pub trait Meter<Ev> {
    /// Read one event (in the order the engine made them).
    fn event(&mut self, e: &Ev);
    /// The outcome of the events read.
    fn outcome(&self) -> Outcome;
}

/// An engine whose runs can be measured.
pub trait Measure: Engine {
    /// Its meter.
    type Meter: Meter<Self::Event>;
    /// A meter for a run under `config`.
    fn meter(config: &Self::Config, settings: Settings) -> Self::Meter;
}

/// The outcome of `events` (a run under `config`, setup first).
pub fn of<'a, E: Measure>(
    config: &E::Config,
    settings: Settings,
    events: impl IntoIterator<Item = &'a E::Event>,
) -> Outcome {
    let mut m = E::meter(config, settings);
    for e in events {
        m.event(e);
    }
    m.outcome()
}

#[cfg(test)]
mod tests {
    /// The system-specific figures are the tail of the figure list, from
    /// "topics reconnected" to "failed schedules".
    #[test]
    fn extra_figures_are_the_tail_of_the_list() {
        assert_eq!(super::EXTRA.first(), Some(&"topics reconnected"));
        assert_eq!(super::EXTRA.last(), super::FIGURES.last());
        assert_eq!(super::EXTRA.len(), 11);
    }
}
