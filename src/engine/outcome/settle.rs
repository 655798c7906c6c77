//! When a run has settled: no move for a number of quiet rounds, the spread of
//! load (highest minus lowest) within a band, and no work in flight.

use super::Sample;
use serde::{Deserialize, Serialize};

/// The settling rule.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Rounds without a move (and within the band) that must follow the round
    /// a run settled after (default 3).
    pub quiet_rounds: u32,
    /// The widest spread (highest minus lowest load, in the system's unit) a
    /// settled round may have. `lbscope` defaults it per system
    /// ([`Settings::default_band`]).
    pub band: f64,
}

impl Settings {
    /// The default number of quiet rounds.
    pub const QUIET_ROUNDS: u32 = 3;

    /// The default band of a system: Pulsar 20 percentage points (twice
    /// ThresholdShedder's default 10 % either side of the average), Flink and
    /// Kafka Streams 1 task.
    pub fn default_band(system: crate::engine::System) -> f64 {
        match system {
            crate::engine::System::Pulsar => 20.0,
            _ => 1.0,
        }
    }

    /// The defaults of `system`.
    pub fn of(system: crate::engine::System) -> Settings {
        Settings {
            quiet_rounds: Self::QUIET_ROUNDS,
            band: Self::default_band(system),
        }
    }

    /// The defaults of `system`, with the values given instead.
    pub fn with(system: crate::engine::System, quiet_rounds: Option<u32>, band: Option<f64>) -> Settings {
        let d = Self::of(system);
        Settings {
            quiet_rounds: quiet_rounds.unwrap_or(d.quiet_rounds),
            band: band.unwrap_or(d.band),
        }
    }
}

/// The round a run settled after (0: before its first round), or `None`.
///
/// With rounds `1..=n`, it is the smallest `s` such that every round after `s`
/// moved nothing and had no work in flight, every round from `s` on (from 1
/// when `s` is 0) had a spread within the band, and at least `quiet_rounds`
/// rounds follow `s`.
pub fn settled_after(samples: &[Sample], settings: &Settings) -> Option<u64> {
    let n = samples.len();
    let calm = |x: &Sample| x.spread() <= settings.band + 1e-9;
    // Walk back from the end: the longest tail of quiet, calm rounds.
    let mut s = n;
    while s > 0 {
        let x = &samples[s - 1];
        if x.moves == 0 && !x.busy && calm(x) {
            s -= 1;
        } else {
            break;
        }
    }
    // Round `s` (1-based) is the last that moved, was busy or left the band:
    // it settled after it only when its own spread is within the band.
    if s > 0 && (!calm(&samples[s - 1]) || samples[s - 1].busy) {
        s += 1;
    }
    if s > n || n - s < settings.quiet_rounds as usize {
        return None;
    }
    Some(s as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(spread: f64, moves: u64) -> Sample {
        Sample {
            max: spread,
            moves,
            ..Sample::default()
        }
    }

    #[test]
    fn quiet_tail_after_the_last_move() {
        let set = Settings {
            quiet_rounds: 2,
            band: 1.0,
        };
        // Moves in rounds 1 and 2, then three quiet rounds: settled after round 2.
        let s = [r(5.0, 3), r(1.0, 1), r(1.0, 0), r(1.0, 0), r(0.0, 0)];
        assert_eq!(settled_after(&s, &set), Some(2));
        // Only one quiet round after the last move: not yet.
        assert_eq!(settled_after(&s[..3], &set), None);
        // Nothing ever moved and all calm: settled before the first round.
        assert_eq!(settled_after(&[r(0.0, 0); 3], &set), Some(0));
        // The last move left the spread outside the band: the round after it counts.
        let s = [r(5.0, 3), r(0.0, 0), r(0.0, 0), r(0.0, 0)];
        assert_eq!(settled_after(&s, &set), Some(2));
        let s = [r(1.0, 3), r(5.0, 0), r(0.0, 0), r(0.0, 0), r(0.0, 0)];
        assert_eq!(settled_after(&s, &set), Some(3));
        // Outside the band at the end: never.
        assert_eq!(settled_after(&[r(0.0, 0), r(0.0, 0), r(3.0, 0)], &set), None);
        // Work in flight counts as not settled.
        let mut busy = r(0.0, 0);
        busy.busy = true;
        assert_eq!(settled_after(&[busy, r(0.0, 0), r(0.0, 0)], &set), None);
        assert_eq!(
            settled_after(&[busy, r(0.0, 0), r(0.0, 0), r(0.0, 0)], &set),
            Some(2)
        );
        assert_eq!(settled_after(&[], &set), None);
    }
}
