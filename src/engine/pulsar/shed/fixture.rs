//! Hand-built `LoadData` for the shedding and placement tests.

use super::super::bundle::BundleRange;
use super::super::load::*;
use super::Unload;
use crate::engine::SimRng;

/// One MiB in bytes.
pub const MIB: f64 = 1024.0 * 1024.0;

/// Bundle `i` of `public/default`: `[i × 2^24, (i + 1) × 2^24)`.
pub fn bid(i: u32) -> BundleId {
    BundleId {
        namespace: "public/default".into(),
        range: BundleRange {
            lower: i << 24,
            upper: (i + 1) << 24,
        },
    }
}

/// A broker id.
pub fn br(s: &str) -> BrokerId {
    BrokerId(s.into())
}

/// An unload.
pub fn unload(i: u32, from: &str, to: Option<&str>) -> Unload {
    Unload {
        bundle: bid(i),
        from: br(from),
        to: to.map(br),
    }
}

/// A fixed RNG.
pub fn rng() -> SimRng {
    SimRng::new(42)
}

/// Fixture builder.
#[derive(Clone, Debug, Default)]
pub struct Fx {
    /// The load data built so far.
    pub load: LoadData,
}

impl Fx {
    /// Empty.
    pub fn new() -> Self {
        Fx::default()
    }

    /// A broker at `cpu` % CPU (every other resource idle).
    pub fn broker(mut self, name: &str, cpu: f64) -> Self {
        let mut d = BrokerData::default();
        d.local.cpu = ResourceUsage {
            usage: cpu,
            limit: 100.0,
        };
        for r in [
            &mut d.local.memory,
            &mut d.local.direct_memory,
            &mut d.local.bandwidth_in,
            &mut d.local.bandwidth_out,
        ] {
            r.limit = 100.0;
        }
        self.load.brokers.insert(br(name), d);
        self
    }

    /// Set a broker's CPU usage.
    pub fn cpu(mut self, name: &str, cpu: f64) -> Self {
        self.load.brokers.get_mut(&br(name)).unwrap().local.cpu.usage = cpu;
        self
    }

    /// Bundle `i` on `broker` with `rate` msg/s and `throughput` B/s (split evenly
    /// between in and out), in its report, its short/long-term data and the
    /// broker's totals.
    pub fn bundle(mut self, broker: &str, i: u32, rate: f64, throughput: f64) -> Self {
        let m = MessageStats {
            msg_rate_in: rate / 2.0,
            msg_rate_out: rate / 2.0,
            msg_throughput_in: throughput / 2.0,
            msg_throughput_out: throughput / 2.0,
        };
        let stats = BundleStats {
            msg: m,
            producer_count: 1,
            consumer_count: 1,
            topics: 1,
        };
        let data = BundleData {
            short_term: TimeAverageMessageData::new(SHORT_TERM_SAMPLES, m),
            long_term: TimeAverageMessageData::new(LONG_TERM_SAMPLES, m),
            last: stats,
        };
        self.load.bundles.insert(bid(i), data);
        let b = self.load.brokers.get_mut(&br(broker)).unwrap();
        b.local.bundles.insert(bid(i), stats);
        let add = |t: &mut MessageStats| {
            t.msg_rate_in += m.msg_rate_in;
            t.msg_rate_out += m.msg_rate_out;
            t.msg_throughput_in += m.msg_throughput_in;
            t.msg_throughput_out += m.msg_throughput_out;
        };
        add(&mut b.local.msg);
        add(&mut b.time_average.short_term);
        add(&mut b.time_average.long_term);
        b.local.num_topics += 1;
        self
    }
}
