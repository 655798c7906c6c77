//! Per-topic traffic and lbscope's simple model of what serving it costs a broker.
//!
//! Pulsar measures a broker's CPU, memory, direct memory and NIC usage from the
//! host. lbscope has no host, so it derives them from the traffic the broker
//! serves (documented, deliberately simple, linear):
//!
//! * CPU (percent of one core, Pulsar's unit; limit = 100 x cores):
//!   `0.001 % per msg/s` (in + out) `+ 0.5 % per MiB/s` (in + out).
//!   So 100 000 msg/s, or 200 MiB/s, keep one core busy.
//! * Heap memory (MB): `512` baseline `+ 0.5 per topic + 0.01 per session`.
//! * Direct memory (MB): one second of traffic buffered, `(in + out) / MiB`.
//! * NIC in / out (Mbit/s): `throughput x 8 / 10^6`.
//!
//! Any broker resource can instead be set directly (a percentage), as the doc's
//! examples do (40 % / 10 % / 10 %).

use serde::{Deserialize, Serialize};

/// Bytes in a MiB (Pulsar's `LoadManagerShared.MIBI`).
pub const MIB: f64 = 1024.0 * 1024.0;
/// CPU percent (of one core) per message per second.
pub const CPU_PERCENT_PER_MSG: f64 = 0.001;
/// CPU percent (of one core) per MiB/s.
pub const CPU_PERCENT_PER_MIB: f64 = 0.5;
/// Heap baseline, MB.
pub const HEAP_BASE_MB: f64 = 512.0;
/// Heap per topic, MB.
pub const HEAP_PER_TOPIC_MB: f64 = 0.5;
/// Heap per producer/consumer session, MB.
pub const HEAP_PER_SESSION_MB: f64 = 0.01;

/// Largest rate one topic (or bundle) may be given: messages or bytes per
/// second. 10^15 is far above any real topic, and a million topics at this
/// rate still sum, square and average to finite numbers in f64.
pub const MAX_RATE: f64 = 1e15;

/// A topic's (or an aggregate's) traffic.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Traffic {
    /// Messages per second published.
    pub msg_rate_in: f64,
    /// Messages per second dispatched to consumers.
    pub msg_rate_out: f64,
    /// Bytes per second published.
    pub throughput_in: f64,
    /// Bytes per second dispatched.
    pub throughput_out: f64,
    /// Connected producers.
    pub producers: u32,
    /// Connected consumers.
    pub consumers: u32,
}

impl Traffic {
    /// Sum of two traffics.
    pub fn plus(&self, o: &Traffic) -> Traffic {
        Traffic {
            msg_rate_in: self.msg_rate_in + o.msg_rate_in,
            msg_rate_out: self.msg_rate_out + o.msg_rate_out,
            throughput_in: self.throughput_in + o.throughput_in,
            throughput_out: self.throughput_out + o.throughput_out,
            producers: self.producers.saturating_add(o.producers),
            consumers: self.consumers.saturating_add(o.consumers),
        }
    }

    /// This traffic divided evenly in `n` parts (sessions rounded up so none vanish).
    pub fn share(&self, n: u32) -> Traffic {
        let k = f64::from(n.max(1));
        let s = |x: u32| x.div_ceil(n.max(1));
        Traffic {
            msg_rate_in: self.msg_rate_in / k,
            msg_rate_out: self.msg_rate_out / k,
            throughput_in: self.throughput_in / k,
            throughput_out: self.throughput_out / k,
            producers: s(self.producers),
            consumers: s(self.consumers),
        }
    }

    /// In + out messages per second.
    pub fn msg_rate(&self) -> f64 {
        self.msg_rate_in + self.msg_rate_out
    }

    /// In + out bytes per second.
    pub fn throughput(&self) -> f64 {
        self.throughput_in + self.throughput_out
    }

    /// Producers + consumers.
    pub fn sessions(&self) -> u32 {
        self.producers.saturating_add(self.consumers)
    }

    /// Whether every number is finite, not negative and at most [`MAX_RATE`].
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }

    /// Every number must be a finite, non-negative value of at most
    /// [`MAX_RATE`], so that sums over a million topics, averages and standard
    /// deviations stay finite; the message names the first that is not.
    pub fn check(&self) -> Result<(), String> {
        for (field, x) in [
            ("msg_rate_in", self.msg_rate_in),
            ("msg_rate_out", self.msg_rate_out),
            ("throughput_in", self.throughput_in),
            ("throughput_out", self.throughput_out),
        ] {
            let what = if x.is_nan() {
                "is not a number (NaN)".to_string()
            } else if x.is_infinite() {
                "is infinite".to_string()
            } else if x < 0.0 {
                format!("is negative ({x})")
            } else if x > MAX_RATE {
                format!("is {x:e}, more than the {MAX_RATE:e} per second lbscope accepts")
            } else {
                continue;
            };
            return Err(format!("traffic {field} {what}"));
        }
        Ok(())
    }

    /// Whether the topic carries any traffic or sessions.
    pub fn is_active(&self) -> bool {
        self.msg_rate() > 0.0 || self.throughput() > 0.0 || self.sessions() > 0
    }
}

/// What serving some traffic costs, in the units of [`super::broker::Capacity`].
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ServedCost {
    /// CPU, percent of one core.
    pub cpu: f64,
    /// Heap, MB.
    pub memory_mb: f64,
    /// Direct memory, MB.
    pub direct_memory_mb: f64,
    /// NIC in, Mbit/s.
    pub bandwidth_in_mbit: f64,
    /// NIC out, Mbit/s.
    pub bandwidth_out_mbit: f64,
}

/// The cost of serving `t` over `topics` topics (the model in the module docs).
pub fn served_cost(t: &Traffic, topics: u32) -> ServedCost {
    ServedCost {
        cpu: t.msg_rate() * CPU_PERCENT_PER_MSG + t.throughput() / MIB * CPU_PERCENT_PER_MIB,
        memory_mb: HEAP_BASE_MB
            + f64::from(topics) * HEAP_PER_TOPIC_MB
            + f64::from(t.sessions()) * HEAP_PER_SESSION_MB,
        direct_memory_mb: t.throughput() / MIB,
        bandwidth_in_mbit: t.throughput_in * 8.0 / 1e6,
        bandwidth_out_mbit: t.throughput_out * 8.0 / 1e6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_model_is_linear_and_documented() {
        let t = Traffic {
            msg_rate_in: 50_000.0,
            msg_rate_out: 50_000.0,
            throughput_in: 0.0,
            throughput_out: 0.0,
            producers: 10,
            consumers: 10,
        };
        let c = served_cost(&t, 4);
        assert!((c.cpu - 100.0).abs() < 1e-9);
        assert!((c.memory_mb - (512.0 + 2.0 + 0.2)).abs() < 1e-9);
        let t2 = Traffic {
            throughput_in: 125_000_000.0,
            ..Default::default()
        };
        assert!((served_cost(&t2, 0).bandwidth_in_mbit - 1000.0).abs() < 1e-9);
        assert_eq!(t.share(3).producers, 4);
        assert!(t.is_valid() && t.is_active());
        assert!(!Traffic::default().is_active());
    }

    #[test]
    fn overflowing_nan_and_infinite_traffic_is_named() {
        let with = |f: fn(&mut Traffic)| {
            let mut t = Traffic::default();
            f(&mut t);
            t.check().unwrap_err()
        };
        assert_eq!(
            with(|t| t.msg_rate_in = f64::NAN),
            "traffic msg_rate_in is not a number (NaN)"
        );
        assert_eq!(
            with(|t| t.throughput_out = f64::INFINITY),
            "traffic throughput_out is infinite"
        );
        assert_eq!(
            with(|t| t.msg_rate_out = -1.0),
            "traffic msg_rate_out is negative (-1)"
        );
        let e = with(|t| t.throughput_in = 1e308);
        assert!(e.contains("throughput_in is 1e308") && e.contains("1e15"), "{e}");
        let at_cap = Traffic {
            msg_rate_in: MAX_RATE,
            ..Default::default()
        };
        assert!(at_cap.is_valid());
        // A million topics at the cap sum and square to finite numbers.
        let sum = MAX_RATE * 2.0 * f64::from(1u32 << 20);
        assert!((sum * sum).is_finite());
    }
}
