//! Application instances ("clients" in Kafka's assignor) and their stream threads.

use super::task::TaskId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Kafka's `ProcessId`: a random (version 4) UUID per instance, persisted in the
/// state directory so it survives restarts.
///
/// Ordering: Kafka orders clients by `UUID.compareTo`. Up to JDK 19 that compares
/// the most significant 64 bits as a *signed* long, then the least significant
/// bits as a signed long (JDK 20 switched to unsigned). lbscope uses the signed
/// rule of the JDK 11/17 runtimes Kafka supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProcessId {
    /// Most significant 64 bits.
    pub msb: u64,
    /// Least significant 64 bits.
    pub lsb: u64,
}

impl Ord for ProcessId {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.msb as i64, self.lsb as i64).cmp(&(o.msb as i64, o.lsb as i64))
    }
}

impl PartialOrd for ProcessId {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl ProcessId {
    /// A version-4 UUID from two random words (as `UUID.randomUUID` sets its bits).
    pub fn random(a: u64, b: u64) -> Self {
        ProcessId {
            msb: (a & !0xF000) | 0x4000,
            lsb: (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000,
        }
    }

    /// Parse `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    pub fn parse(s: &str) -> Option<Self> {
        let parts: Vec<&str> = s.split('-').collect();
        let lens = [8, 4, 4, 4, 12];
        if parts.len() != 5 || parts.iter().zip(lens).any(|(p, l)| p.len() != l) {
            return None;
        }
        let hex: String = parts.concat();
        if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let v = u128::from_str_radix(&hex, 16).ok()?;
        Some(ProcessId {
            msb: (v >> 64) as u64,
            lsb: v as u64,
        })
    }
}

impl fmt::Display for ProcessId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = (u128::from(self.msb) << 64) | u128::from(self.lsb);
        let h = format!("{v:032x}");
        write!(
            f,
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        )
    }
}

impl Serialize for ProcessId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ProcessId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ProcessId::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("bad process id {s:?}")))
    }
}

/// Whether an instance is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstanceStatus {
    /// In the consumer group.
    Running,
    /// Crashed: out of the group, its state directory still on disk.
    Crashed,
}

/// One `StreamThread` (one consumer in the group).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamThread {
    /// The `N` of `StreamThread-N`.
    pub index: u32,
    /// Active tasks it runs.
    pub active: Vec<TaskId>,
    /// Standby (and warm-up) tasks it maintains.
    pub standby: Vec<TaskId>,
}

impl StreamThread {
    /// `StreamThread-N`.
    pub fn name(&self) -> String {
        format!("StreamThread-{}", self.index)
    }

    /// The key consumers are sorted by. Kafka sorts member ids, which start with
    /// `<client.id>-StreamThread-N-consumer`, as strings; so `StreamThread-10` sorts
    /// before `StreamThread-2`, and lbscope keeps that.
    pub fn consumer_key(&self) -> String {
        format!("StreamThread-{}-consumer", self.index)
    }
}

/// Orders threads `a` and `b` as their consumer keys (`StreamThread-N-consumer`)
/// sort as strings, without building the strings: the decimal digits of N, then
/// the `-` that follows (which sorts before every digit).
pub fn consumer_key_cmp(a: u32, b: u32) -> Ordering {
    let digits = |mut n: u32, buf: &mut [u8; 11]| -> usize {
        let mut i = buf.len();
        i -= 1;
        buf[i] = b'-';
        loop {
            i -= 1;
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        i
    };
    let (mut x, mut y) = ([0u8; 11], [0u8; 11]);
    let (i, j) = (digits(a, &mut x), digits(b, &mut y));
    x[i..].cmp(&y[j..])
}

/// An active task being restored from its changelog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Restoring {
    /// When restoration started (simulated ms).
    pub since_ms: u64,
    /// The lag when it started.
    pub lag_at_start: u64,
}

/// A Kafka Streams application instance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Instance {
    /// The user's name for it (how actions address it).
    pub name: String,
    /// Kafka's process id (orders clients in the assignor).
    pub process_id: ProcessId,
    /// Up or crashed.
    pub status: InstanceStatus,
    /// `client.rack`.
    pub rack: Option<String>,
    /// `client.tag.*`.
    pub tags: BTreeMap<String, String>,
    /// Threads in creation order.
    pub threads: Vec<StreamThread>,
    /// Changelog offset sums held in the local state directory, per task.
    pub local: BTreeMap<TaskId, u64>,
    /// Active tasks still restoring.
    pub restoring: BTreeMap<TaskId, Restoring>,
    /// Standbys that are warm-up replicas.
    pub warmups: BTreeSet<TaskId>,
    /// `name`, shared with the assignor's client states without a copy each rebalance.
    #[serde(skip)]
    pub shared_name: std::sync::Arc<str>,
    /// The last generation it was a member of (None: never).
    #[serde(skip)]
    pub member_of: Option<u64>,
}

impl Instance {
    /// A member of the consumer group: running with at least one thread.
    pub fn is_member(&self) -> bool {
        self.status == InstanceStatus::Running && !self.threads.is_empty()
    }

    /// All active tasks over its threads.
    pub fn active_tasks(&self) -> BTreeSet<TaskId> {
        self.threads
            .iter()
            .flat_map(|t| t.active.iter().copied())
            .collect()
    }

    /// All standby tasks (including warm-ups) over its threads.
    pub fn standby_tasks(&self) -> BTreeSet<TaskId> {
        self.threads
            .iter()
            .flat_map(|t| t.standby.iter().copied())
            .collect()
    }

    /// The smallest thread index not in use (as `KafkaStreams.addStreamThread` picks it).
    pub fn next_thread_index(&self) -> u32 {
        let used: BTreeSet<u32> = self.threads.iter().map(|t| t.index).collect();
        (1..).find(|i| !used.contains(i)).unwrap_or(1)
    }

    /// Empties every thread's assignment.
    pub fn clear_assignment(&mut self) {
        for t in &mut self.threads {
            t.active.clear();
            t.standby.clear();
        }
        self.restoring.clear();
        self.warmups.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_ids_order_like_java_uuid_compare_to() {
        let a = ProcessId::parse("00000000-0000-4000-8000-000000000001").unwrap();
        let b = ProcessId::parse("7fffffff-ffff-4fff-8000-000000000001").unwrap();
        let c = ProcessId::parse("80000000-0000-4000-8000-000000000001").unwrap();
        // Signed compare: 0x8000... is negative, so it sorts first.
        let mut v = vec![a, b, c];
        v.sort();
        assert_eq!(v, vec![c, a, b]);
        assert_eq!(a.to_string(), "00000000-0000-4000-8000-000000000001");
        assert!(ProcessId::parse("nope").is_none());
        let r = ProcessId::random(u64::MAX, 0);
        assert_eq!(r.to_string().as_bytes()[14], b'4');
    }

    #[test]
    fn consumer_keys_sort_as_strings() {
        let t = |i| StreamThread {
            index: i,
            active: vec![],
            standby: vec![],
        };
        assert!(t(10).consumer_key() < t(2).consumer_key());
        assert!(t(1).consumer_key() < t(10).consumer_key());
        for a in [1, 2, 9, 10, 11, 19, 20, 100, 1000, 1024] {
            for b in [1, 2, 9, 10, 11, 19, 20, 100, 1000, 1024] {
                assert_eq!(
                    consumer_key_cmp(a, b),
                    t(a).consumer_key().cmp(&t(b).consumer_key()),
                    "{a} {b}"
                );
            }
        }
    }
}
