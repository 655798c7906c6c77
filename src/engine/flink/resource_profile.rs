//! Fine-grained resources: Flink's `ResourceProfile` reduced to the two dimensions a
//! slot sharing group can ask for here, CPU cores and memory.
//!
//! * A slot request of a slot sharing group without resources is `UNKNOWN`; one with
//!   resources asks for exactly them.
//! * A slot on a TaskManager declared without resources is `ANY` (it fits every
//!   request, as lbscope's coarse-grained slots always have); a slot carved from a
//!   TaskManager with a total resource has the profile it was allocated with.
//! * `is_matching` is Flink's `ResourceProfile#isMatching`: a slot matches a request
//!   when the slot is `ANY`, when both are equal, or when the request is `UNKNOWN`.
//!   A bigger slot does not match a smaller fine-grained request.
//!
//! CPU is kept in thousandths of a core, so sums and comparisons are exact.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// Most CPU cores one profile may name.
pub const MAX_CPU_CORES: f64 = 1_000_000.0;
/// Most memory (MB) one profile may name.
pub const MAX_MEMORY_MB: u64 = 1 << 40;

/// CPU (thousandths of a core) and memory (MB).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resources {
    /// CPU in thousandths of a core.
    pub cpu_milli: u64,
    /// Memory in MB.
    pub memory_mb: u64,
}

impl Resources {
    /// From cores and MB; `None` unless both are positive, finite and in range.
    pub fn new(cpu_cores: f64, memory_mb: u64) -> Option<Resources> {
        if !cpu_cores.is_finite() || cpu_cores <= 0.0 || cpu_cores > MAX_CPU_CORES {
            return None;
        }
        let cpu_milli = (cpu_cores * 1000.0).round() as u64;
        (cpu_milli > 0 && memory_mb > 0 && memory_mb <= MAX_MEMORY_MB)
            .then_some(Resources { cpu_milli, memory_mb })
    }

    /// CPU cores as a float (for JSON and narration).
    pub fn cpu_cores(self) -> f64 {
        self.cpu_milli as f64 / 1000.0
    }

    /// Every dimension at least `other`'s (Flink's `allFieldsNoLessThan`).
    pub fn fits(self, other: Resources) -> bool {
        self.cpu_milli >= other.cpu_milli && self.memory_mb >= other.memory_mb
    }

    /// `self - other`, saturating at zero.
    pub fn minus(self, other: Resources) -> Resources {
        Resources {
            cpu_milli: self.cpu_milli.saturating_sub(other.cpu_milli),
            memory_mb: self.memory_mb.saturating_sub(other.memory_mb),
        }
    }

    /// `self + other`.
    pub fn plus(self, other: Resources) -> Resources {
        Resources {
            cpu_milli: self.cpu_milli.saturating_add(other.cpu_milli),
            memory_mb: self.memory_mb.saturating_add(other.memory_mb),
        }
    }

    /// Flink's default slot profile of a TaskManager: its total divided by its slot
    /// count (`SlotManagerUtils#generateDefaultSlotResourceProfile`), rounded down.
    pub fn divided_by(self, slots: u32) -> Resources {
        let n = u64::from(slots.max(1));
        Resources {
            cpu_milli: self.cpu_milli / n,
            memory_mb: self.memory_mb / n,
        }
    }
}

impl fmt::Display for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} cores, {} MB", self.cpu_cores(), self.memory_mb)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourcesJson {
    cpu_cores: f64,
    memory_mb: u64,
}

impl Serialize for Resources {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ResourcesJson {
            cpu_cores: self.cpu_cores(),
            memory_mb: self.memory_mb,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Resources {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let j = ResourcesJson::deserialize(d)?;
        Resources::new(j.cpu_cores, j.memory_mb).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "resources need cpu_cores in (0, {MAX_CPU_CORES}] and memory_mb in [1, {MAX_MEMORY_MB}] \
                 (got {} cores, {} MB)",
                j.cpu_cores, j.memory_mb
            ))
        })
    }
}

/// A request's or a slot's resource profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "profile", rename_all = "snake_case")]
pub enum ResourceProfile {
    /// `UNKNOWN`: a request that names no resources.
    Unknown,
    /// `ANY`: a slot that fits every request.
    Any,
    /// Exactly these resources.
    Of {
        /// The resources.
        #[serde(flatten)]
        resources: Resources,
    },
}

impl ResourceProfile {
    /// A profile of exactly `r`.
    pub fn of(r: Resources) -> ResourceProfile {
        ResourceProfile::Of { resources: r }
    }

    /// Flink's `ResourceProfile#isMatching`, with `self` the slot and `required` the
    /// request.
    pub fn is_matching(self, required: ResourceProfile) -> bool {
        self == ResourceProfile::Any || self == required || required == ResourceProfile::Unknown
    }

    /// The resources, for a concrete profile.
    pub fn resources(self) -> Option<Resources> {
        match self {
            ResourceProfile::Of { resources } => Some(resources),
            _ => None,
        }
    }

    /// The profile a slot for this request gets on a TaskManager whose default slot
    /// profile is `default_slot` (Flink's `getEffectiveResourceProfile`).
    pub fn effective(self, default_slot: Resources) -> Resources {
        self.resources().unwrap_or(default_slot)
    }
}

impl fmt::Display for ResourceProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceProfile::Unknown => f.write_str("UNKNOWN"),
            ResourceProfile::Any => f.write_str("ANY"),
            ResourceProfile::Of { resources } => write!(f, "{resources}"),
        }
    }
}

/// A utilisation `num / den` compared exactly (no floating point); `0/0` counts as 0.
#[derive(Clone, Copy, Debug)]
pub struct Utilization {
    /// Numerator.
    pub num: u64,
    /// Denominator.
    pub den: u64,
}

impl Utilization {
    /// The larger of two utilisations (Flink takes the max of CPU and memory).
    pub fn max(self, other: Utilization) -> Utilization {
        if other > self {
            other
        } else {
            self
        }
    }

    fn cross(self, other: Utilization) -> (u128, u128) {
        let a = u128::from(self.num) * u128::from(other.den.max(1));
        let b = u128::from(other.num) * u128::from(self.den.max(1));
        (a, b)
    }
}

impl PartialEq for Utilization {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Utilization {}

impl PartialOrd for Utilization {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Utilization {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = self.cross(*other);
        a.cmp(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_follows_flink() {
        let small = ResourceProfile::of(Resources::new(1.0, 100).unwrap());
        let big = ResourceProfile::of(Resources::new(2.0, 100).unwrap());
        assert!(ResourceProfile::Any.is_matching(small));
        assert!(big.is_matching(ResourceProfile::Unknown));
        assert!(small.is_matching(small));
        assert!(!big.is_matching(small));
        assert!(!small.is_matching(big));
    }

    #[test]
    fn resources_json_and_bounds() {
        let r: Resources = serde_json::from_str(r#"{"cpu_cores":1.5,"memory_mb":1024}"#).unwrap();
        assert_eq!(r.cpu_milli, 1500);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"cpu_cores":1.5,"memory_mb":1024}"#
        );
        assert!(serde_json::from_str::<Resources>(r#"{"cpu_cores":0,"memory_mb":1}"#).is_err());
        assert!(serde_json::from_str::<Resources>(r#"{"cpu_cores":1,"memory_mb":0}"#).is_err());
        let p = ResourceProfile::of(r);
        let back: ResourceProfile = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert_eq!(r.divided_by(4).cpu_milli, 375);
    }

    #[test]
    fn utilization_compares_exactly() {
        let third = Utilization { num: 1, den: 3 };
        let half = Utilization { num: 2, den: 4 };
        assert!(third < half);
        assert_eq!(Utilization { num: 0, den: 0 }, Utilization { num: 0, den: 5 });
        assert_eq!(third.max(half), half);
    }
}
