//! Workload patterns: traffic that changes as simulated time passes, held as
//! part of the simulation and applied by the engine at the start of every round.
//!
//! A [`Pattern`] is a [`Target`] (every topic, one topic or partitioned topic,
//! the topics whose name matches a `*` wildcard pattern, a namespace, or a hash
//! range of a namespace) and a [`Shape`] (a constant rate, jitter of ±p % per
//! round, a wave over simulated minutes, a burst, a ramp over rounds, a Zipf
//! skew whose hot topics are redrawn every K rounds, producer/consumer churn).
//! One action adds, changes or removes one pattern, whatever the topic count,
//! so a 200 000-topic scenario with a daily wave is still a short link.
//!
//! How a round shapes the traffic:
//!
//! * A topic that some pattern targets keeps the traffic it was given (its
//!   *base*, [`super::namespace::Topic::base`]); its traffic each round is its
//!   base passed through every pattern that targets it, in the order the
//!   patterns were added (pattern id order): a constant replaces the traffic, a
//!   Zipf skew sets the published rate, churn moves the session counts, and the
//!   other shapes multiply the four rates. Setting a topic's traffic directly
//!   gives it a new base (shaped again from the next round).
//! * A topic no pattern targets any more gets its base back.
//! * Randomness comes from the scenario's seed: each pattern draws its own
//!   64-bit seed from the simulation's `SimRng` when it is added (a change keeps
//!   it), and a topic's draw in a round is SplitMix64 of (that seed, the round,
//!   the topic's hash and position). So a round can be recomputed (after a
//!   change or a removal) without replaying a stream, and a topic's jitter does
//!   not depend on how many other topics drew before it. Never a clock.
//! * A wave reads the simulated time (`now`, in minutes), so its period can be
//!   a day (1 440 minutes) whatever `roundSeconds` is.
//!
//! Every reshaping emits one [`WorkloadEvent::Applied`] with the numbers, in
//! aggregate (per pattern: topics, published rate before and after, the lowest
//! and highest per-topic factor, sessions), so a 200 000-topic round stays one
//! event.
//!
//! Cost: one pass over dense arrays of the namespaces concerned ([`Shaped`]:
//! each topic's traffic now, its base, its hash and its bundle position, in
//! topic-name order), not over the topic map, whose values are spread over
//! the heap; bundle sums are accumulated by bundle position; then one walk over
//! those namespaces' bundles. [`super::namespace::Namespace::traffic`] reads a
//! topic's traffic from there while its namespace is shaped.

use super::bundle::{self, BundleRange};
use super::load::{BrokerId, BundleId};
use super::namespace::{Namespace, UNRANKED};
use super::topic::TopicName;
use super::traffic::{Traffic, MAX_RATE};
use super::{Error, Event, Sim};
use crate::engine::tagged::tagged_enum;
use crate::engine::{Narrate, SimRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most patterns a simulation holds at once.
pub const MAX_PATTERNS: usize = 64;

/// Largest factor a burst or ramp may multiply a topic's rates by, and the
/// largest the multiplying patterns may reach stacked together: the traffic
/// cap ([`MAX_RATE`]), past which even 1 msg/s would leave it. Shaped rates
/// are themselves capped at [`MAX_RATE`].
pub const MAX_FACTOR: f64 = MAX_RATE;

/// Bytes per message a Zipf skew assumes for a topic that had no traffic.
pub const ZIPF_MSG_BYTES: f64 = 1024.0;

tagged_enum! {
    "kind", "Target";
    /// Which topics a pattern shapes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Target {
        /// Every topic of every namespace.
        All,
        /// One topic, or every partition of a partitioned topic.
        Topic {
            /// Full or short name.
            topic: String,
        },
        /// Topics whose full name (`persistent://tenant/ns/topic`) matches a pattern
        /// where `*` stands for any run of characters (a pattern without `://` is
        /// matched against `tenant/ns/topic`).
        Matching {
            /// The pattern.
            pattern: String,
        },
        /// Every topic of a namespace.
        Namespace {
            /// `tenant/namespace`.
            namespace: String,
        },
        /// The topics of a namespace whose hash lies in `[lower, upper)` (`upper`
        /// `0xffffffff` includes it, as the last bundle does).
        HashRange {
            /// `tenant/namespace`.
            namespace: String,
            /// Lowest hash.
            lower: u32,
            /// Upper bound.
            upper: u32,
        },
    }
}

tagged_enum! {
    "kind", "Shape";
    /// What a pattern does to the traffic of its topics.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Shape {
        /// Every targeted topic carries this traffic.
        Constant {
            /// The traffic per topic.
            traffic: Traffic,
        },
        /// Each round, each topic's rates are multiplied by a factor drawn
        /// uniformly in `[1 - p/100, 1 + p/100]`.
        Jitter {
            /// `p`, 0..=100.
            percent: f64,
        },
        /// Rates multiplied by `1 + a/100 · sin(2π (now + phase) / period)`, `now`
        /// the simulated time in minutes.
        Wave {
            /// Period, minutes (1 440: a day).
            period_minutes: f64,
            /// `a`, 0..=100.
            amplitude_percent: f64,
            /// Phase, minutes.
            #[serde(default)]
            phase_minutes: f64,
        },
        /// Rates multiplied by `multiplier` during rounds `start_round ..
        /// start_round + rounds`.
        Burst {
            /// First round of the burst.
            start_round: u64,
            /// How many rounds it lasts.
            rounds: u64,
            /// The factor.
            multiplier: f64,
        },
        /// Rates multiplied by a factor going linearly from `from` (up to
        /// `start_round`) to `to` (from `start_round + rounds` on; at once when
        /// `rounds` is 0).
        Ramp {
            /// Factor before the ramp.
            #[serde(default = "one")]
            from: f64,
            /// Factor after it.
            to: f64,
            /// Round the ramp starts at.
            #[serde(default)]
            start_round: u64,
            /// Rounds it takes.
            #[serde(default)]
            rounds: u64,
        },
        /// `total` msg/s published spread over the targeted topics, the topic of
        /// rank `k` (ranks shuffled from the pattern's seed) getting a share
        /// proportional to `1 / k^s`; the ranks are drawn again every
        /// `redraw_every` rounds (0: never). The other rates follow in proportion
        /// (a topic without traffic gets as much out as in, [`ZIPF_MSG_BYTES`] per
        /// message, and one producer and one consumer).
        Zipf {
            /// Total msg/s in.
            total_msg_rate_in: f64,
            /// `s`, 0..=10.
            exponent: f64,
            /// Rounds between redraws (0: never).
            #[serde(default)]
            redraw_every: u64,
            /// The seed the ranks are shuffled from, so that the same seed gives
            /// the same skew on the same topics; without it, the pattern's own seed
            /// (drawn from the simulation's RNG when it was added).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            seed: Option<u64>,
        },
        /// Each round, each topic's producer and consumer counts move by a whole
        /// number drawn uniformly in `[-n, n]` from its base (never below 0).
        Churn {
            /// Most producers that come or go.
            #[serde(default)]
            producers: u32,
            /// Most consumers that come or go.
            #[serde(default)]
            consumers: u32,
        },
    }
}

fn one() -> f64 {
    1.0
}

/// A workload pattern: which topics, and what happens to them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    /// The topics.
    pub target: Target,
    /// What happens to them.
    pub shape: Shape,
}

/// A pattern held by the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its id (1, 2, … in the order added; never reused).
    pub id: u32,
    /// The pattern.
    pub pattern: Pattern,
    /// Its seed, drawn from the simulation's RNG when it was added.
    pub seed: u64,
    /// Zipf ranks of the current draw: (epoch, topics, weight per matched topic).
    zipf: Option<(u64, usize, Vec<f64>)>,
}

/// A namespace's traffic while workload patterns shape it, in dense arrays in
/// topic-name order (a topic's `rank`), so that a round's pass reads and
/// writes them in sequence instead of walking the topic map. Built when a
/// pattern first reaches the namespace, rebuilt when topics are added (their
/// ranks move; topics are never removed), its bundle positions recomputed when
/// a split changes the bundle count, and dropped (each topic's traffic written
/// back) once no pattern targets the namespace and every topic has its base back.
#[derive(Clone, Default)]
pub(crate) struct Shaped {
    /// The bundle count `of` was computed for.
    bundles: usize,
    /// Each topic's traffic now, unless [`Shaped::deferred`] says otherwise.
    now: Vec<Traffic>,
    /// The traffic each topic was given, while a pattern shapes it.
    base: Vec<Option<Traffic>>,
    /// Each topic's bundle position.
    of: Vec<u32>,
    /// Each topic's hash (it never changes), read beside its bundle position.
    hash: Vec<u32>,
    /// Set when the last pass multiplied every topic's base by one factor and
    /// left `now` unwritten (every topic has a base then): a topic's traffic
    /// now is its base times [`Factor::at`]. A round over a large namespace
    /// then reads the bases alone instead of also writing every topic back.
    deferred: Option<Factor>,
}

/// The factor a single multiplying pattern gives the topic at `rank` with
/// `hash` in one round: the same number whether it is applied in the pass or
/// later, when the topic's traffic is read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Factor {
    /// ±`p` around 1, drawn for (round salt, seed, topic key).
    Jitter {
        salt: u64,
        seed: u64,
        ns_key: u64,
        p: f64,
    },
    /// The same factor for every topic.
    Fixed(f64),
}

impl Factor {
    #[inline(always)]
    fn at(&self, rank: usize, hash: u32) -> f64 {
        match *self {
            Factor::Jitter {
                salt,
                seed,
                ns_key,
                p,
            } => jitter_at(salt, seed, ns_key, p, rank, hash),
            Factor::Fixed(f) => f,
        }
    }
}

/// The jitter factor of the topic at `rank` with `hash` in the namespace keyed `ns_key`.
#[inline(always)]
fn jitter_at(salt: u64, seed: u64, ns_key: u64, p: f64, rank: usize, hash: u32) -> f64 {
    let key = (u64::from(hash) << 32) ^ (rank as u64) ^ ns_key;
    1.0 + p * (2.0 * draw_in(salt, seed, key) - 1.0)
}

impl Shaped {
    /// The traffic of the topic at `rank` now.
    #[inline]
    pub(super) fn now(&self, rank: u32) -> Traffic {
        let i = rank as usize;
        match (self.deferred, self.base[i]) {
            (Some(f), Some(b)) => scale(&b, f.at(i, self.hash[i])),
            _ => self.now[i],
        }
    }

    /// Write every topic's traffic now into `now` (a deferred pass's factor applied).
    fn settle(&mut self) {
        if let Some(f) = self.deferred.take() {
            for (i, (now, base)) in self.now.iter_mut().zip(&self.base).enumerate() {
                if let Some(b) = base {
                    *now = scale(b, f.at(i, self.hash[i]));
                }
            }
        }
    }

    /// Give the topic at `rank` a new traffic (and so a new base).
    pub(super) fn set(&mut self, rank: u32, traffic: Traffic) {
        self.settle();
        self.now[rank as usize] = traffic;
        self.base[rank as usize] = None;
    }
}

/// Equal when every topic's traffic now, base, bundle position and hash are
/// (whether or not a pass deferred writing `now`).
impl PartialEq for Shaped {
    fn eq(&self, o: &Self) -> bool {
        self.bundles == o.bundles
            && self.base == o.base
            && self.of == o.of
            && self.hash == o.hash
            && self.now.len() == o.now.len()
            && (0..self.now.len() as u32).all(|r| self.now(r) == o.now(r))
    }
}

impl std::fmt::Debug for Shaped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let now: Vec<Traffic> = (0..self.now.len() as u32).map(|r| self.now(r)).collect();
        f.debug_struct("Shaped")
            .field("bundles", &self.bundles)
            .field("now", &now)
            .field("base", &self.base)
            .field("of", &self.of)
            .field("hash", &self.hash)
            .finish()
    }
}

/// Build `ns`'s shaped traffic, or bring it up to date with its topics and bundles.
fn shape_arrays(ns: &mut Namespace) {
    let n = ns.topics.len();
    if ns.shaped.as_ref().is_none_or(|s| s.now.len() != n) {
        let old = ns.shaped.take();
        let mut s = Shaped {
            bundles: usize::MAX,
            now: Vec::with_capacity(n),
            base: Vec::with_capacity(n),
            of: Vec::new(),
            hash: Vec::with_capacity(n),
            deferred: None,
        };
        for (i, t) in ns.topics.values_mut().enumerate() {
            let (now, base) = match &old {
                Some(o) if t.rank != UNRANKED => (o.now(t.rank), o.base[t.rank as usize]),
                _ => (t.traffic, None),
            };
            s.now.push(now);
            s.base.push(base);
            s.hash.push(t.hash);
            t.rank = i as u32;
        }
        ns.shaped = Some(Box::new(s));
    }
    if let Some(s) = ns
        .shaped
        .as_mut()
        .filter(|s| s.bundles != ns.bundles.len() || s.of.len() != n)
    {
        s.of = s
            .hash
            .iter()
            .map(|&h| bundle::find(&ns.bundles, h).unwrap_or(0) as u32)
            .collect();
        s.bundles = ns.bundles.len();
    }
}

/// Drop `ns`'s shaped traffic, each topic keeping the traffic it has now.
pub(super) fn unshape(ns: &mut Namespace) {
    if let Some(s) = ns.shaped.take() {
        for t in ns.topics.values_mut() {
            if t.rank != UNRANKED {
                t.traffic = s.now(t.rank);
                t.rank = UNRANKED;
            }
        }
    }
}

/// Every live bundle's load and topic count, by position.
pub(super) type BundleLoads = Vec<(Traffic, u32)>;

/// Rounds of per-broker traffic the simulation keeps (the sparklines).
pub const HISTORY_ROUNDS: usize = 32;

/// The simulation's workload: its patterns, and the traffic each broker served
/// at the start of the last [`HISTORY_ROUNDS`] rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Workload {
    patterns: Vec<Entry>,
    next_id: u32,
    history: BTreeMap<BrokerId, std::collections::VecDeque<(u64, f64)>>,
}

impl Workload {
    /// The patterns, in id order.
    pub fn patterns(&self) -> &[Entry] {
        &self.patterns
    }

    /// Whether there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Per broker, (round, msg/s in it served) at the start of each of the
    /// last [`HISTORY_ROUNDS`] rounds it was alive in, once the patterns had
    /// shaped that round's traffic and before the round's shedding.
    pub fn broker_history(&self) -> &BTreeMap<BrokerId, std::collections::VecDeque<(u64, f64)>> {
        &self.history
    }

    /// The last pattern, if it is on every topic and `pick` accepts its shape.
    fn last_on_all(&self, pick: impl Fn(&Shape) -> bool) -> Option<&Entry> {
        self.patterns
            .last()
            .filter(|e| e.pattern.target == Target::All && pick(&e.pattern.shape))
    }

    /// "Scale every topic's traffic by `factor`" as one action: a constant
    /// ramp (`from` = `to`, from round 0) on every topic. When the last pattern
    /// already is such a scaling, it is changed to the product (removed when
    /// the product is 1), so pressing "× 2" twice gives one "× 4" pattern. Only
    /// the last pattern is merged: a scaling before a Zipf skew or a constant
    /// would be overridden by them.
    pub fn scale_all(&self, factor: f64) -> super::Action {
        let scaling = |f: f64| Shape::Ramp {
            from: f,
            to: f,
            start_round: 0,
            rounds: 0,
        };
        let is_scaling =
            |s: &Shape| matches!(s, Shape::Ramp { from, to, start_round: 0, rounds: 0 } if from == to);
        match self.last_on_all(is_scaling) {
            Some(Entry {
                id,
                pattern:
                    Pattern {
                        shape: Shape::Ramp { from, .. },
                        ..
                    },
                ..
            }) => {
                let f = from * factor;
                if (f - 1.0).abs() < 1e-12 {
                    super::Action::RemoveWorkload { id: *id }
                } else {
                    super::Action::ChangeWorkload {
                        id: *id,
                        pattern: Pattern {
                            target: Target::All,
                            shape: scaling(f),
                        },
                    }
                }
            }
            _ => super::Action::AddWorkload {
                pattern: Pattern {
                    target: Target::All,
                    shape: scaling(factor),
                },
            },
        }
    }

    /// "Skew every topic by Zipf" as one action: a Zipf pattern on every topic
    /// with its own `seed`, never redrawn. When the last pattern is such a skew
    /// (every topic, a seed given), it is changed instead, as a new skew
    /// replaces the old one.
    pub fn skew_all(&self, total_msg_rate_in: f64, exponent: f64, seed: u64) -> super::Action {
        let pattern = Pattern {
            target: Target::All,
            shape: Shape::Zipf {
                total_msg_rate_in,
                exponent,
                redraw_every: 0,
                seed: Some(seed),
            },
        };
        match self.last_on_all(|s| matches!(s, Shape::Zipf { seed: Some(_), .. })) {
            Some(e) => super::Action::ChangeWorkload { id: e.id, pattern },
            None => super::Action::AddWorkload { pattern },
        }
    }
}

/// What one pattern did in a reshaping.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// The pattern.
    pub id: u32,
    /// Its label.
    pub label: String,
    /// Topics it shaped.
    pub topics: u32,
    /// Their msg/s in before this pattern (the previous patterns applied).
    pub msg_rate_in_before: f64,
    /// Their msg/s in after it.
    pub msg_rate_in_after: f64,
    /// Lowest per-topic factor on msg/s in (topics that had some).
    pub factor_min: f64,
    /// Highest per-topic factor.
    pub factor_max: f64,
    /// Producer + consumer sessions before it.
    pub sessions_before: u64,
    /// And after.
    pub sessions_after: u64,
}

/// What the workload did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum WorkloadEvent {
    /// A pattern was added.
    Added {
        /// Its id.
        id: u32,
        /// It.
        pattern: Pattern,
    },
    /// A pattern was replaced.
    Changed {
        /// Its id.
        id: u32,
        /// The new pattern.
        pattern: Pattern,
        /// The old one.
        previous: Pattern,
    },
    /// A pattern was removed.
    Removed {
        /// Its id.
        id: u32,
        /// It.
        pattern: Pattern,
    },
    /// The patterns shaped the traffic of a round.
    Applied {
        /// The round they were evaluated at.
        round: u64,
        /// Simulated time, ms.
        time_ms: u64,
        /// Topics shaped.
        shaped: u32,
        /// Topics no pattern targets any more, given their base traffic back.
        restored: u32,
        /// Published msg/s of the shaped topics' bases.
        base_msg_rate_in: f64,
        /// Published msg/s of the shaped topics now.
        msg_rate_in: f64,
        /// Bundles whose summed traffic changed.
        bundles_changed: u32,
        /// Per pattern.
        effects: Vec<Effect>,
        /// msg/s in the live brokers serve at the start of the round, all
        /// topics (the offered load; 0 when shaped outside a round).
        #[serde(default)]
        served_msg_rate_in: f64,
        /// The busiest live broker's msg/s in then (what the balancing achieved).
        #[serde(default)]
        busiest_broker_msg_rate_in: f64,
        /// Live brokers then.
        #[serde(default)]
        alive_brokers: u32,
    },
}

fn num(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl Target {
    /// In words.
    pub fn label(&self) -> String {
        match self {
            Target::All => "every topic".into(),
            Target::Topic { topic } => format!("topic {topic}"),
            Target::Matching { pattern } => format!("topics matching {pattern}"),
            Target::Namespace { namespace } => format!("namespace {namespace}"),
            Target::HashRange {
                namespace,
                lower,
                upper,
            } => format!("hashes [0x{lower:08x}, 0x{upper:08x}) of {namespace}"),
        }
    }
}

impl Shape {
    /// In words.
    pub fn label(&self) -> String {
        match self {
            Shape::Constant { traffic } => format!(
                "constant {} msg/s in, {} msg/s out",
                num(traffic.msg_rate_in),
                num(traffic.msg_rate_out)
            ),
            Shape::Jitter { percent } => format!("jitter ±{} %", num(*percent)),
            Shape::Wave {
                period_minutes,
                amplitude_percent,
                phase_minutes,
            } => format!(
                "wave ±{} % every {} min (phase {} min)",
                num(*amplitude_percent),
                num(*period_minutes),
                num(*phase_minutes)
            ),
            Shape::Burst {
                start_round,
                rounds,
                multiplier,
            } => format!(
                "burst ×{} in rounds {}..{}",
                num(*multiplier),
                start_round,
                start_round.saturating_add(*rounds)
            ),
            Shape::Ramp { from, to, .. } if from == to => format!("scaled ×{}", num(*from)),
            Shape::Ramp {
                from,
                to,
                start_round,
                rounds,
            } => format!(
                "ramp ×{} → ×{} over rounds {}..{}",
                num(*from),
                num(*to),
                start_round,
                start_round.saturating_add(*rounds)
            ),
            Shape::Zipf {
                total_msg_rate_in,
                exponent,
                redraw_every,
                seed,
            } => format!(
                "Zipf s = {} over {} msg/s in{}{}",
                num(*exponent),
                num(*total_msg_rate_in),
                if *redraw_every > 0 {
                    format!(", hot topics redrawn every {redraw_every} rounds")
                } else {
                    String::new()
                },
                seed.map_or(String::new(), |s| format!(", seed {s}"))
            ),
            Shape::Churn { producers, consumers } => {
                format!("churn ±{producers} producers, ±{consumers} consumers")
            }
        }
    }

    /// Why the numbers are refused, if they are.
    fn check(&self) -> Result<(), String> {
        let fin = |x: f64| x.is_finite();
        match self {
            Shape::Constant { traffic } if !traffic.is_valid() => {
                Err("a constant's traffic must be finite and not negative".into())
            }
            Shape::Jitter { percent } if !fin(*percent) || !(0.0..=100.0).contains(percent) => {
                Err(format!("jitter percent must be in 0..=100 (got {percent})"))
            }
            Shape::Wave {
                period_minutes,
                amplitude_percent,
                phase_minutes,
            } => {
                if !fin(*period_minutes) || *period_minutes <= 0.0 {
                    Err(format!(
                        "a wave's period must be > 0 minutes (got {period_minutes})"
                    ))
                } else if !fin(*amplitude_percent) || !(0.0..=100.0).contains(amplitude_percent) {
                    Err(format!(
                        "a wave's amplitude must be in 0..=100 % (got {amplitude_percent})"
                    ))
                } else if !fin(*phase_minutes) {
                    Err("a wave's phase must be finite".into())
                } else {
                    Ok(())
                }
            }
            Shape::Burst { multiplier, .. } if !fin(*multiplier) || *multiplier < 0.0 => Err(format!(
                "a burst's multiplier must be finite and not negative (got {multiplier})"
            )),
            Shape::Burst { multiplier, .. } if *multiplier > MAX_FACTOR => Err(format!(
                "a burst's multiplier of {multiplier:e} is more than {MAX_FACTOR:e}, the traffic cap \
                 (no rate may pass {MAX_FACTOR:e} per second)"
            )),
            Shape::Ramp { from, to, .. } if !fin(*from) || !fin(*to) || *from < 0.0 || *to < 0.0 => Err(
                format!("a ramp's factors must be finite and not negative (got {from} → {to})"),
            ),
            Shape::Ramp { from, to, .. } if from.max(*to) > MAX_FACTOR => Err(format!(
                "a ramp to ×{:e} is more than {MAX_FACTOR:e}, the traffic cap (no rate may pass \
                 {MAX_FACTOR:e} per second)",
                from.max(*to)
            )),
            Shape::Zipf {
                total_msg_rate_in,
                exponent,
                ..
            } => {
                if !fin(*total_msg_rate_in) || *total_msg_rate_in < 0.0 {
                    Err(format!(
                        "a Zipf total must be finite and not negative (got {total_msg_rate_in})"
                    ))
                } else if *total_msg_rate_in > MAX_RATE {
                    Err(format!(
                        "a Zipf total of {total_msg_rate_in:e} msg/s is more than {MAX_RATE:e}, the traffic cap"
                    ))
                } else if !fin(*exponent) || !(0.0..=10.0).contains(exponent) {
                    Err(format!("a Zipf exponent must be in 0..=10 (got {exponent})"))
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    /// The largest factor a multiplying shape can give a topic (1 for the
    /// shapes that set values).
    fn max_factor(&self) -> f64 {
        match self {
            Shape::Jitter { percent } => 1.0 + percent / 100.0,
            Shape::Wave {
                amplitude_percent, ..
            } => 1.0 + amplitude_percent / 100.0,
            Shape::Burst { multiplier, .. } => multiplier.max(1.0),
            Shape::Ramp { from, to, .. } => from.max(*to).max(1.0),
            Shape::Constant { .. } | Shape::Zipf { .. } | Shape::Churn { .. } => 1.0,
        }
    }

    /// The factor a multiplying shape gives at `round` / `minutes`, with the
    /// draw `u` in `[0, 1)` (jitter); `None` for the shapes that set values.
    fn factor(&self, round: u64, minutes: f64, u: f64) -> Option<f64> {
        match self {
            Shape::Jitter { percent } => Some(1.0 + percent / 100.0 * (2.0 * u - 1.0)),
            Shape::Wave {
                period_minutes,
                amplitude_percent,
                phase_minutes,
            } => Some(
                1.0 + amplitude_percent / 100.0
                    * (std::f64::consts::TAU * (minutes + phase_minutes) / period_minutes).sin(),
            ),
            Shape::Burst {
                start_round,
                rounds,
                multiplier,
            } => Some(
                if round >= *start_round && round < start_round.saturating_add(*rounds) {
                    *multiplier
                } else {
                    1.0
                },
            ),
            Shape::Ramp {
                from,
                to,
                start_round,
                rounds,
            } => {
                let done = if round < *start_round {
                    0.0
                } else if *rounds == 0 {
                    1.0
                } else {
                    ((round - start_round) as f64 / *rounds as f64).min(1.0)
                };
                Some(from + (to - from) * done)
            }
            Shape::Constant { .. } | Shape::Zipf { .. } | Shape::Churn { .. } => None,
        }
    }

    /// What the shape will do over the `n` rounds after `round` (simulated time
    /// `now_ms`, rounds `round_ms` long): per round the lowest and highest
    /// factor on a topic's published rate (equal unless the shape draws);
    /// `None` for the shapes that set values rather than multiply.
    pub fn preview(&self, round: u64, now_ms: u64, round_ms: u64, n: usize) -> Option<Vec<(f64, f64)>> {
        let mut out = Vec::with_capacity(n);
        for k in 1..=n as u64 {
            let r = round + k;
            let minutes = (now_ms + k * round_ms) as f64 / 60_000.0;
            let lo = self.factor(r, minutes, 0.0)?;
            let hi = self.factor(r, minutes, 1.0)?;
            out.push((lo.min(hi), lo.max(hi)));
        }
        Some(out)
    }
}

impl Pattern {
    /// In words.
    pub fn label(&self) -> String {
        format!("{} on {}", self.shape.label(), self.target.label())
    }
}

impl Narrate for WorkloadEvent {
    fn narrate(&self) -> String {
        match self {
            WorkloadEvent::Added { id, pattern } => {
                format!("workload pattern #{id} added: {}", pattern.label())
            }
            WorkloadEvent::Changed {
                id,
                pattern,
                previous,
            } => format!(
                "workload pattern #{id} changed: {} (was {})",
                pattern.label(),
                previous.label()
            ),
            WorkloadEvent::Removed { id, pattern } => {
                format!("workload pattern #{id} removed: {}", pattern.label())
            }
            WorkloadEvent::Applied {
                round,
                shaped,
                restored,
                base_msg_rate_in,
                msg_rate_in,
                bundles_changed,
                effects,
                ..
            } => {
                let parts: Vec<String> = effects
                    .iter()
                    .map(|e| {
                        let sessions = if e.sessions_before != e.sessions_after {
                            format!(", sessions {} → {}", e.sessions_before, e.sessions_after)
                        } else {
                            String::new()
                        };
                        let factors = if e.topics > 0 && e.factor_min <= e.factor_max {
                            if (e.factor_max - e.factor_min).abs() < 5e-4 {
                                format!(" ×{:.3}", e.factor_min)
                            } else {
                                format!(" ×{:.3}..×{:.3}", e.factor_min, e.factor_max)
                            }
                        } else {
                            String::new()
                        };
                        format!(
                            "#{} {}: {} topics, {:.0} → {:.0} msg/s in{factors}{sessions}",
                            e.id, e.label, e.topics, e.msg_rate_in_before, e.msg_rate_in_after
                        )
                    })
                    .collect();
                format!(
                    "workload at round {round}: {shaped} topics shaped, {:.0} msg/s in at base → {:.0} now; {bundles_changed} bundles changed{}{}",
                    base_msg_rate_in,
                    msg_rate_in,
                    if *restored > 0 {
                        format!("; {restored} topics back to their base traffic")
                    } else {
                        String::new()
                    },
                    if parts.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", parts.join("; "))
                    }
                )
            }
        }
    }
}

impl WorkloadEvent {
    /// What the event is about: the topic of a one-topic pattern.
    pub fn subject(&self) -> Option<crate::engine::Subject> {
        match self {
            WorkloadEvent::Added { pattern, .. }
            | WorkloadEvent::Changed { pattern, .. }
            | WorkloadEvent::Removed { pattern, .. } => match &pattern.target {
                Target::Topic { topic } => TopicName::parse(topic)
                    .ok()
                    .map(|n| crate::engine::Subject::new(crate::engine::SubjectKind::Topic, n.0.to_string())),
                _ => None,
            },
            WorkloadEvent::Applied { .. } => None,
        }
    }
}

/// The chart's workload lines, from the rounds' [`WorkloadEvent::Applied`]
/// (none without patterns): the offered msg/s in, the busiest broker's and
/// the fair share (offered / live brokers), all in msg/s on one scale, so the
/// gap between the busiest broker and the fair share is what the balancer
/// has not evened out.
pub(super) fn series(events: &[&WorkloadEvent]) -> Vec<crate::engine::Series> {
    let rounds: Vec<(f64, [f64; 3])> = events
        .iter()
        .filter_map(|e| match e {
            WorkloadEvent::Applied {
                round,
                served_msg_rate_in,
                busiest_broker_msg_rate_in,
                alive_brokers,
                ..
            } if *alive_brokers > 0 => Some((
                *round as f64,
                [
                    *served_msg_rate_in,
                    *busiest_broker_msg_rate_in,
                    served_msg_rate_in / f64::from(*alive_brokers),
                ],
            )),
            _ => None,
        })
        .collect();
    if rounds.is_empty() {
        return Vec::new();
    }
    use crate::engine::Series;
    vec![
        Series::of("offered msg/s", "msg/s", &rounds, |r| r[0]),
        Series::of("busiest broker msg/s", "msg/s", &rounds, |r| r[1]),
        Series::of("fair share msg/s", "msg/s", &rounds, |r| r[2]),
    ]
}

/// SplitMix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in `[0, 1)` for (seed, round, topic key, salt).
fn draw(seed: u64, round: u64, key: u64, salt: u64) -> f64 {
    draw_in(round_salt(round, salt), seed, key)
}

/// The part of [`draw`] that depends on the round and the salt only.
#[inline(always)]
fn round_salt(round: u64, salt: u64) -> u64 {
    mix(round.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ salt)
}

/// [`draw`] with its round part ([`round_salt`]) computed once.
#[inline(always)]
fn draw_in(round_salt: u64, seed: u64, key: u64) -> f64 {
    let z = mix(seed ^ round_salt ^ key);
    // 53 bits: exact as a signed integer, whose conversion is one instruction.
    ((z >> 11) as i64) as f64 / (1u64 << 53) as f64
}

/// `*`-wildcard match of `text` against `pat`.
fn glob(pat: &str, text: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    if parts.len() == 1 {
        return pat == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(at) => rest = &rest[at + mid.len()..],
            None => return false,
        }
    }
    true
}

/// A target resolved for one namespace.
enum NsMatch<'a> {
    /// Every topic of the namespace.
    Every,
    /// A topic and its partitions (full names).
    Topic(&'a str),
    /// Full names matching the pattern.
    Glob(&'a str, bool),
    /// Hashes in a range.
    Hashes(BundleRange),
}

impl NsMatch<'_> {
    /// Whether [`NsMatch::hits`] reads the topic's name.
    fn needs_name(&self) -> bool {
        matches!(self, NsMatch::Topic(_) | NsMatch::Glob(..))
    }

    /// Whether the topic `name` (given when [`NsMatch::needs_name`]) with
    /// `hash` is targeted.
    fn hits(&self, name: Option<&TopicName>, hash: u32) -> bool {
        match (self, name) {
            (NsMatch::Every, _) => true,
            (NsMatch::Hashes(r), _) => r.contains(hash),
            (NsMatch::Topic(t), Some(name)) => {
                *name.0 == **t
                    || name.0.strip_prefix(t).is_some_and(|rest| {
                        rest.strip_prefix("-partition-")
                            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    })
            }
            (NsMatch::Glob(p, full), Some(name)) => {
                if *full {
                    glob(p, &name.0)
                } else {
                    glob(p, name.0.split_once("://").map_or(&name.0, |(_, r)| r))
                }
            }
            // Asked without the name it needs: no topic to match.
            (NsMatch::Topic(_) | NsMatch::Glob(..), None) => false,
        }
    }
}

/// `target` for namespace `ns` (`topic` the resolved full name of a topic target).
fn resolve<'a>(target: &'a Target, topic: Option<&'a str>, ns: &str) -> Option<NsMatch<'a>> {
    match target {
        Target::All => Some(NsMatch::Every),
        Target::Namespace { namespace } => (namespace == ns).then_some(NsMatch::Every),
        Target::Topic { .. } => {
            let t = topic?;
            TopicName(Arc::from(t))
                .namespace()
                .eq(ns)
                .then_some(NsMatch::Topic(t))
        }
        Target::Matching { pattern } => Some(NsMatch::Glob(pattern, pattern.contains("://"))),
        Target::HashRange {
            namespace,
            lower,
            upper,
        } => (namespace == ns).then_some(NsMatch::Hashes(BundleRange {
            lower: *lower,
            upper: *upper,
        })),
    }
}

/// How many topics ahead the pattern pass asks for the bundle sum it will add to.
const SUM_PREFETCH: usize = 16;

/// Ask the processor for the bundle sum the topic at `rank` adds to (the sums
/// are read at positions set by the topics' hashes, so each add would otherwise
/// wait for memory). A hint only: what is computed does not change.
#[inline(always)]
fn prefetch_sum(sums: &[Traffic], of: &[u32], rank: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(&b) = of.get(rank) {
        if let Some(at) = sums.get(b as usize) {
            // SAFETY: `_mm_prefetch` reads nothing; the pointer is in bounds.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (at as *const Traffic).cast::<i8>(),
                );
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (sums, of, rank);
}

/// Scale the four rates by `f`, each capped at [`MAX_RATE`] (the cap a
/// topic's traffic is set under): a rate within the cap times a factor within
/// [`MAX_FACTOR`] is finite, so patterns applied one after the other stay
/// finite and within the cap however they stack.
#[inline(always)]
fn scale(t: &Traffic, f: f64) -> Traffic {
    Traffic {
        msg_rate_in: (t.msg_rate_in * f).min(MAX_RATE),
        msg_rate_out: (t.msg_rate_out * f).min(MAX_RATE),
        throughput_in: (t.throughput_in * f).min(MAX_RATE),
        throughput_out: (t.throughput_out * f).min(MAX_RATE),
        ..*t
    }
}

/// Per pattern, the running numbers of a reshaping.
#[derive(Clone, Copy)]
struct Tally {
    topics: u32,
    before: f64,
    after: f64,
    lo: f64,
    hi: f64,
    s_before: u64,
    s_after: u64,
}

impl Tally {
    /// Count one topic shaped from `before` to `after`.
    #[inline(always)]
    fn add(&mut self, before: &Traffic, after: &Traffic) {
        self.topics += 1;
        self.before += before.msg_rate_in;
        self.after += after.msg_rate_in;
        if before.msg_rate_in > 0.0 {
            // Plain comparisons: a ratio of finite rates is never NaN, so
            // these keep what `f64::min` / `max` would, with fewer instructions.
            let f = after.msg_rate_in / before.msg_rate_in;
            if f < self.lo {
                self.lo = f;
            }
            if f > self.hi {
                self.hi = f;
            }
        }
        self.s_before += u64::from(before.sessions());
        self.s_after += u64::from(after.sessions());
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: run the general pass only (to compare [`scale_pass`] with it).
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the pattern pass must take its general loop (tests only).
#[inline(always)]
fn general_only() -> bool {
    #[cfg(test)]
    return GENERAL_ONLY.with(|g| g.get());
    #[cfg(not(test))]
    false
}

/// What one namespace's pass counted, beside the patterns' tallies.
#[derive(Clone, Copy, Default)]
struct Counts {
    shaped: u32,
    restored: u32,
    base_in: f64,
    now_in: f64,
}

/// The pass over one namespace when a single pattern shapes it, reading no
/// names, and multiplies every targeted topic's base by `factor(rank, hash)`:
/// what the general pass computes, in the same order, bit for bit (its loop
/// carries no per-pattern dispatch, so the compiler keeps it in registers).
#[inline(always)]
fn scale_pass(
    dense: &mut Shaped,
    sums: &mut [Traffic],
    hits: impl Fn(u32) -> bool,
    factor: impl Fn(usize, u32) -> f64,
    tally: &mut Tally,
    counts: &mut Counts,
) {
    let Shaped {
        now, base, of, hash, ..
    } = dense;
    let of: &[u32] = of;
    let mut tl = *tally;
    let mut c = *counts;
    for (i, ((cur, base), (&b, &h))) in now
        .iter_mut()
        .zip(base.iter_mut())
        .zip(of.iter().zip(hash.iter()))
        .enumerate()
    {
        prefetch_sum(sums, of, i + SUM_PREFETCH);
        if hits(h) {
            let before = *base.get_or_insert_with(|| *cur);
            let after = scale(&before, factor(i, h));
            tl.add(&before, &after);
            c.shaped += 1;
            c.base_in += before.msg_rate_in;
            c.now_in += after.msg_rate_in;
            *cur = after;
        } else if let Some(b) = base.take() {
            *cur = b;
            c.restored += 1;
        }
        sums[b as usize] = sums[b as usize].plus(cur);
    }
    *tally = tl;
    *counts = c;
}

/// [`scale_pass`] for a pattern that reaches every topic of the namespace:
/// the same numbers, but each topic's traffic now is left for
/// [`Shaped::now`] to compute from its base (the caller records the factor in
/// [`Shaped::deferred`]), so the pass reads the bases and writes nothing per
/// topic but a first base.
#[inline(always)]
fn defer_pass(
    dense: &mut Shaped,
    sums: &mut [Traffic],
    factor: impl Fn(usize, u32) -> f64,
    tally: &mut Tally,
    counts: &mut Counts,
) {
    let Shaped {
        now, base, of, hash, ..
    } = dense;
    let of: &[u32] = of;
    let mut tl = *tally;
    let mut c = *counts;
    for (i, ((cur, base), (&b, &h))) in now
        .iter()
        .zip(base.iter_mut())
        .zip(of.iter().zip(hash.iter()))
        .enumerate()
    {
        prefetch_sum(sums, of, i + SUM_PREFETCH);
        let before = *base.get_or_insert_with(|| *cur);
        let after = scale(&before, factor(i, h));
        tl.add(&before, &after);
        c.shaped += 1;
        c.base_in += before.msg_rate_in;
        c.now_in += after.msg_rate_in;
        sums[b as usize] = sums[b as usize].plus(&after);
    }
    *tally = tl;
    *counts = c;
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            topics: 0,
            before: 0.0,
            after: 0.0,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            s_before: 0,
            s_after: 0,
        }
    }
}

impl Sim {
    /// The workload patterns.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// Refuse `p` (replacing pattern `replacing`) when the multiplying
    /// patterns together could multiply a topic's rates by more than
    /// [`MAX_FACTOR`] (bursts stacked on bursts), naming the product.
    fn check_stack(&self, p: &Pattern, replacing: Option<u32>) -> Result<(), Error> {
        let others = self
            .workload
            .patterns
            .iter()
            .filter(|e| Some(e.id) != replacing)
            .map(|e| e.pattern.shape.max_factor());
        let product = others.fold(p.shape.max_factor(), |a, f| a * f);
        if product > MAX_FACTOR {
            return Err(Error::Invalid(format!(
                "with this pattern the workload could multiply a topic's rates by up to {product:e}, \
                 more than {MAX_FACTOR:e}, the traffic cap (no rate may pass {MAX_FACTOR:e} per second)"
            )));
        }
        Ok(())
    }

    fn check_pattern(&self, p: &Pattern) -> Result<Option<String>, Error> {
        p.shape.check().map_err(Error::Invalid)?;
        let ns_exists = |ns: &str| {
            if self.namespaces.contains_key(ns) {
                Ok(())
            } else {
                Err(Error::NoSuchNamespace(ns.to_string()))
            }
        };
        match &p.target {
            Target::All => Ok(None),
            Target::Namespace { namespace } => ns_exists(namespace).map(|_| None),
            Target::HashRange {
                namespace,
                lower,
                upper,
            } => {
                ns_exists(namespace)?;
                if lower >= upper {
                    return Err(Error::Invalid(format!(
                        "a hash range needs lower < upper (got 0x{lower:08x}, 0x{upper:08x})"
                    )));
                }
                Ok(None)
            }
            Target::Matching { pattern } => {
                if pattern.trim().is_empty() {
                    return Err(Error::Invalid("a name pattern must not be empty".into()));
                }
                Ok(None)
            }
            Target::Topic { topic } => {
                let name = TopicName::parse(topic)?;
                let ns = self
                    .namespaces
                    .get(name.namespace())
                    .ok_or_else(|| Error::NoSuchNamespace(name.namespace().to_string()))?;
                if ns.topics.contains_key(&name) || ns.partitioned.contains_key(&name) {
                    Ok(Some(name.0.to_string()))
                } else {
                    Err(Error::NoSuchTopic(name.0.to_string()))
                }
            }
        }
    }

    /// [`super::Action::AddWorkload`].
    pub(super) fn add_workload(&mut self, pattern: &Pattern) -> Result<Vec<Event>, Error> {
        self.check_pattern(pattern)?;
        self.check_stack(pattern, None)?;
        if self.workload.patterns.len() >= MAX_PATTERNS {
            return Err(Error::Invalid(format!(
                "at most {MAX_PATTERNS} workload patterns at once"
            )));
        }
        let id = self.workload.next_id.max(1);
        self.workload.next_id = id + 1;
        let seed = self.rng.next_u64();
        self.workload.patterns.push(Entry {
            id,
            pattern: pattern.clone(),
            seed,
            zipf: None,
        });
        let mut ev = vec![Event::Workload(WorkloadEvent::Added {
            id,
            pattern: pattern.clone(),
        })];
        ev.push(Event::Workload(self.reshape(self.round, None)));
        Ok(ev)
    }

    fn entry_index(&self, id: u32) -> Result<usize, Error> {
        self.workload
            .patterns
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| {
                let ids: Vec<String> = self
                    .workload
                    .patterns
                    .iter()
                    .map(|e| format!("#{}", e.id))
                    .collect();
                Error::Invalid(format!(
                    "no workload pattern #{id} (patterns: {})",
                    if ids.is_empty() {
                        "none".to_string()
                    } else {
                        ids.join(", ")
                    }
                ))
            })
    }

    /// [`super::Action::ChangeWorkload`]: the pattern keeps its id and seed.
    pub(super) fn change_workload(&mut self, id: u32, pattern: &Pattern) -> Result<Vec<Event>, Error> {
        let at = self.entry_index(id)?;
        self.check_pattern(pattern)?;
        self.check_stack(pattern, Some(id))?;
        let e = &mut self.workload.patterns[at];
        let previous = std::mem::replace(&mut e.pattern, pattern.clone());
        e.zipf = None;
        let mut ev = vec![Event::Workload(WorkloadEvent::Changed {
            id,
            pattern: pattern.clone(),
            previous,
        })];
        ev.push(Event::Workload(self.reshape(self.round, None)));
        Ok(ev)
    }

    /// [`super::Action::RemoveWorkload`].
    pub(super) fn remove_workload(&mut self, id: u32) -> Result<Vec<Event>, Error> {
        let at = self.entry_index(id)?;
        let e = self.workload.patterns.remove(at);
        let mut ev = vec![Event::Workload(WorkloadEvent::Removed {
            id,
            pattern: e.pattern,
        })];
        ev.push(Event::Workload(self.reshape(self.round, None)));
        Ok(ev)
    }

    /// The round's first part: shape this round's traffic (nothing without
    /// patterns).
    ///
    /// With the event, every live bundle's load and topic count by position
    /// ([`super::index::BundleIndex`]) when the pass read them all (every
    /// namespace with bundles is shaped), for the broker sums that follow.
    pub(super) fn workload_patterns(&mut self) -> (Option<WorkloadEvent>, Option<BundleLoads>) {
        if self.workload.patterns.is_empty() {
            (None, None)
        } else {
            let mut loads = Some(Vec::with_capacity(self.bundles.len()));
            let applied = self.reshape(self.round, Some(&mut loads));
            (Some(applied), loads)
        }
    }

    /// The round's second part: note what each live broker serves (the
    /// per-broker history, and the offered load in `applied`, then pushed).
    /// `loads`: what [`Sim::workload_patterns`] read, if it read every bundle.
    pub(super) fn workload_history(
        &mut self,
        applied: Option<WorkloadEvent>,
        loads: Option<BundleLoads>,
        ev: &mut Vec<Event>,
    ) {
        // The report phase that follows reads the same cache: no extra walk.
        self.refresh_served_from(loads);
        let (mut total, mut busiest, mut alive) = (0.0f64, 0.0f64, 0u32);
        let round = self.round;
        let Sim {
            brokers, workload, ..
        } = self;
        if workload.history.len() > brokers.len() {
            workload.history.retain(|id, _| brokers.contains_key(id));
        }
        // Both maps are sorted by broker name: the history is walked alongside;
        // brokers without one yet get theirs after the walk.
        let mut first = Vec::new();
        let mut kept = workload.history.iter_mut().peekable();
        for b in brokers.values().filter(|b| b.alive) {
            let rate = b.served.0.map_or(0.0, |s| s.0.msg_rate_in);
            total += rate;
            busiest = busiest.max(rate);
            alive += 1;
            while kept.next_if(|(k, _)| **k < b.id).is_some() {}
            match kept.next_if(|(k, _)| **k == b.id) {
                Some((_, h)) => {
                    if h.len() >= HISTORY_ROUNDS {
                        h.pop_front();
                    }
                    h.push_back((round, rate));
                }
                None => first.push((b.id.clone(), rate)),
            }
        }
        for (id, rate) in first {
            workload.history.entry(id).or_default().push_back((round, rate));
        }
        if let Some(mut e) = applied {
            if let WorkloadEvent::Applied {
                served_msg_rate_in,
                busiest_broker_msg_rate_in,
                alive_brokers,
                ..
            } = &mut e
            {
                *served_msg_rate_in = total;
                *busiest_broker_msg_rate_in = busiest;
                *alive_brokers = alive;
            }
            ev.push(Event::Workload(e));
        }
    }

    /// Recompute every targeted topic's traffic at `round` (and give untargeted
    /// shaped topics their base back), then the bundle sums that changed.
    ///
    /// `loads`, when given, collects every live bundle's load and topic count
    /// in bundle-map order, and is emptied (`None`) when a namespace with
    /// bundles is not walked.
    fn reshape(&mut self, round: u64, mut loads: Option<&mut Option<BundleLoads>>) -> WorkloadEvent {
        let minutes = self.now_ms as f64 / 60_000.0;
        let time_ms = self.now_ms;
        let Sim {
            namespaces,
            ns_ids,
            bundles,
            brokers,
            workload,
            ..
        } = self;
        let topic_targets: Vec<Option<String>> = workload
            .patterns
            .iter()
            .map(|e| match &e.pattern.target {
                Target::Topic { topic } => TopicName::parse(topic).ok().map(|n| n.0.to_string()),
                _ => None,
            })
            .collect();

        // Zipf: count the matched topics, redraw the ranks when due.
        for (k, e) in workload.patterns.iter_mut().enumerate() {
            let Shape::Zipf {
                total_msg_rate_in,
                exponent,
                redraw_every,
                seed,
            } = e.pattern.shape
            else {
                continue;
            };
            let epoch = round.checked_div(redraw_every).unwrap_or(0);
            let mut n = 0usize;
            for (name, ns) in namespaces.iter() {
                let Some(m) = resolve(&e.pattern.target, topic_targets[k].as_deref(), name) else {
                    continue;
                };
                n += match m {
                    NsMatch::Every => ns.topics.len(),
                    m => ns
                        .topics
                        .values()
                        .filter(|t| m.hits(Some(&t.name), t.hash))
                        .count(),
                };
            }
            if e.zipf
                .as_ref()
                .is_some_and(|z| z.0 == epoch && z.1 == n && z.2.len() == n)
            {
                continue;
            }
            let mut order: Vec<usize> = (0..n).collect();
            // A given seed shuffles epoch 0 by itself; later epochs mix the epoch in.
            let mut rng = match seed {
                Some(s) if epoch == 0 => SimRng::new(s),
                Some(s) => SimRng::new(mix(s ^ mix(epoch))),
                None => SimRng::new(mix(e.seed ^ mix(epoch))),
            };
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let weight = |rank: usize| 1.0 / ((rank + 1) as f64).powf(exponent);
            let h: f64 = (0..n).map(weight).sum();
            let mut w = vec![0.0; n];
            for (rank, &i) in order.iter().enumerate() {
                w[i] = if h > 0.0 {
                    total_msg_rate_in * weight(rank) / h
                } else {
                    0.0
                };
            }
            e.zipf = Some((epoch, n, w));
        }

        let mut tallies = vec![Tally::default(); workload.patterns.len()];
        let mut zipf_seen = vec![0usize; workload.patterns.len()];
        let (mut shaped_count, mut restored, mut changed) = (0u32, 0u32, 0u32);
        let (mut base_in, mut now_in) = (0.0f64, 0.0f64);
        let mut owners_changed: Vec<super::load::BrokerId> = Vec::new();
        let mut many_owners = false;
        for (ns_at, (name, ns)) in namespaces.iter_mut().enumerate() {
            let active: Vec<(usize, NsMatch<'_>)> = workload
                .patterns
                .iter()
                .enumerate()
                .filter_map(|(k, e)| {
                    resolve(&e.pattern.target, topic_targets[k].as_deref(), name).map(|m| (k, m))
                })
                .collect();
            if active.is_empty() && ns.shaped.is_none() {
                if !ns.bundles.is_empty() {
                    // Its bundles are not read: no loads for the broker sums.
                    if let Some(l) = loads.as_mut() {
                        **l = None;
                    }
                }
                continue;
            }
            let n = ns.topics.len();
            shape_arrays(ns);
            let Namespace {
                topics,
                bundles: ranges,
                shaped: Some(dense),
                ..
            } = ns
            else {
                if let Some(l) = loads.as_mut() {
                    **l = None;
                }
                continue;
            };
            let mut sums = vec![Traffic::default(); ranges.len()];
            // One multiplying pattern on hashes or the whole namespace: the
            // loop without dispatch.
            let single = match active.as_slice() {
                _ if general_only() => None,
                [(k, m)] if !m.needs_name() => {
                    let e = &workload.patterns[*k];
                    match e.pattern.shape {
                        Shape::Jitter { percent } => Some((*k, m, Some(percent / 100.0), e.seed)),
                        Shape::Wave { .. } | Shape::Burst { .. } | Shape::Ramp { .. } => {
                            Some((*k, m, None, e.seed))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((k, m, jitter, seed)) = single {
                // The running totals go on from the namespaces before (same sums, bit for bit).
                let mut c = Counts {
                    shaped: 0,
                    restored: 0,
                    base_in,
                    now_in,
                };
                let tl = &mut tallies[k];
                let ns_key = (ns_at as u64) << 56;
                let rs = round_salt(round, 0);
                let jittered = |i: usize, h: u32, p: f64| jitter_at(rs, seed, ns_key, p, i, h);
                let fixed = workload.patterns[k]
                    .pattern
                    .shape
                    .factor(round, minutes, 0.0)
                    .unwrap_or(1.0);
                if !matches!(m, NsMatch::Every) {
                    // The pass below writes `now` and reads it for the topics it leaves.
                    dense.settle();
                }
                match (m, jitter) {
                    (NsMatch::Every, Some(p)) => {
                        defer_pass(dense, &mut sums, |i, h| jittered(i, h, p), tl, &mut c);
                        dense.deferred = Some(Factor::Jitter {
                            salt: rs,
                            seed,
                            ns_key,
                            p,
                        });
                    }
                    (NsMatch::Every, None) => {
                        defer_pass(dense, &mut sums, |_, _| fixed, tl, &mut c);
                        dense.deferred = Some(Factor::Fixed(fixed));
                    }
                    (NsMatch::Hashes(r), Some(p)) => scale_pass(
                        dense,
                        &mut sums,
                        |h| r.contains(h),
                        |i, h| jittered(i, h, p),
                        tl,
                        &mut c,
                    ),
                    (NsMatch::Hashes(r), None) => {
                        scale_pass(dense, &mut sums, |h| r.contains(h), |_, _| fixed, tl, &mut c)
                    }
                    (NsMatch::Topic(_) | NsMatch::Glob(..), _) => {
                        unreachable!("names are read by the general pass")
                    }
                }
                shaped_count += c.shaped;
                restored += c.restored;
                (base_in, now_in) = (c.base_in, c.now_in);
            }
            // Topic and glob targets read the names (a walk of the topic map
            // beside the arrays); the others only the hashes.
            let mut names = active.iter().any(|(_, m)| m.needs_name()).then(|| topics.keys());
            let general = if single.is_some() { 0 } else { n };
            if general > 0 {
                // The general pass reads and writes every topic's `now`.
                dense.settle();
            }
            for i in 0..general {
                prefetch_sum(&sums, &dense.of, i + SUM_PREFETCH);
                let name = names.as_mut().and_then(|it| it.next());
                let (b, hash) = (dense.of[i] as usize, dense.hash[i]);
                let mut cur = dense.now[i];
                let mut hit = false;
                let key = (u64::from(hash) << 32) ^ (i as u64) ^ ((ns_at as u64) << 56);
                for (k, m) in &active {
                    if !m.hits(name, hash) {
                        continue;
                    }
                    let e = &workload.patterns[*k];
                    let base = *dense.base[i].get_or_insert(cur);
                    if !hit {
                        hit = true;
                        cur = base;
                    }
                    let before = cur;
                    let after = match &e.pattern.shape {
                        Shape::Constant { traffic } => *traffic,
                        Shape::Zipf { .. } => {
                            let w = e
                                .zipf
                                .as_ref()
                                .and_then(|z| z.2.get(zipf_seen[*k]).copied())
                                .unwrap_or(0.0);
                            zipf_seen[*k] += 1;
                            if before.msg_rate_in > 0.0 {
                                scale(&before, w / before.msg_rate_in)
                            } else {
                                Traffic {
                                    msg_rate_in: w,
                                    msg_rate_out: w,
                                    throughput_in: w * ZIPF_MSG_BYTES,
                                    throughput_out: w * ZIPF_MSG_BYTES,
                                    producers: before.producers.max(1),
                                    consumers: before.consumers.max(1),
                                }
                            }
                        }
                        Shape::Churn { producers, consumers } => {
                            let moved = |n: u32, salt: u64, was: u32| {
                                if n == 0 {
                                    return was;
                                }
                                let span = 2 * u64::from(n) + 1;
                                let d = (draw(e.seed, round, key, salt) * span as f64) as i64 - i64::from(n);
                                (i64::from(was) + d).clamp(0, i64::from(u32::MAX)) as u32
                            };
                            Traffic {
                                producers: moved(*producers, 1, base.producers),
                                consumers: moved(*consumers, 2, base.consumers),
                                ..before
                            }
                        }
                        s => {
                            let u = if matches!(s, Shape::Jitter { .. }) {
                                draw(e.seed, round, key, 0)
                            } else {
                                0.0
                            };
                            let f = s.factor(round, minutes, u).unwrap_or(1.0);
                            scale(&before, f)
                        }
                    };
                    cur = after;
                    tallies[*k].add(&before, &after);
                }
                if hit {
                    shaped_count += 1;
                    base_in += dense.base[i].map_or(0.0, |b| b.msg_rate_in);
                    now_in += cur.msg_rate_in;
                } else if let Some(b) = dense.base[i].take() {
                    cur = b;
                    restored += 1;
                }
                dense.now[i] = cur;
                sums[b] = sums[b].plus(&cur);
            }
            if active.is_empty() {
                // Every topic has its base back: the plain topics again.
                unshape(ns);
            }
            // The namespace's bundles, in range order, are a run of the bundle map.
            let id = super::ns_id(ns_ids, name);
            let (Some(first), Some(last)) = (ns.bundles.first(), ns.bundles.last()) else {
                continue;
            };
            let lo = BundleId {
                namespace: id.clone(),
                range: *first,
            };
            let hi = BundleId {
                namespace: id,
                range: *last,
            };
            let mut kept = loads.as_mut().and_then(|l| l.as_mut());
            for ((_, st), sum) in bundles.range_mut(lo..=hi).zip(sums) {
                if st.traffic != sum {
                    st.traffic = sum;
                    changed += 1;
                    if let Some(o) = st.owner() {
                        if owners_changed.len() < 64 {
                            owners_changed.push(o.clone());
                        } else {
                            many_owners = true;
                        }
                    }
                }
                if let Some(l) = kept.as_mut() {
                    l.push((st.load(), st.topics));
                }
            }
        }
        if let Some(l) = loads {
            if l.as_ref().is_some_and(|v| v.len() != bundles.len()) {
                *l = None;
            }
        }
        if many_owners {
            for b in brokers.values_mut() {
                b.served.0 = None;
            }
        } else {
            for o in owners_changed {
                if let Some(b) = brokers.get_mut(&o) {
                    b.served.0 = None;
                }
            }
        }
        let effects = workload
            .patterns
            .iter()
            .zip(tallies)
            .map(|(e, t)| Effect {
                id: e.id,
                label: e.pattern.label(),
                topics: t.topics,
                msg_rate_in_before: t.before,
                msg_rate_in_after: t.after,
                factor_min: if t.lo.is_finite() { t.lo } else { 1.0 },
                factor_max: if t.hi.is_finite() { t.hi } else { 1.0 },
                sessions_before: t.s_before,
                sessions_after: t.s_after,
            })
            .collect();
        WorkloadEvent::Applied {
            round,
            time_ms,
            shaped: shaped_count,
            restored,
            base_msg_rate_in: base_in,
            msg_rate_in: now_in,
            bundles_changed: changed,
            effects,
            served_msg_rate_in: 0.0,
            busiest_broker_msg_rate_in: 0.0,
            alive_brokers: 0,
        }
    }
}

/// Clusters for tests whose traffic a jitter pattern shapes.
#[cfg(test)]
pub(crate) mod testing {
    use super::super::{traffic::Traffic, Action, Config, Sim};
    use super::{Pattern, Shape, Target};
    use crate::engine::Engine;

    /// `rate` msg/s in and out, a KiB per message, one producer and one consumer.
    pub(crate) fn traffic(rate: f64) -> Traffic {
        Traffic {
            msg_rate_in: rate,
            msg_rate_out: rate,
            throughput_in: rate * 1024.0,
            throughput_out: rate * 1024.0,
            producers: 1,
            consumers: 1,
        }
    }

    /// Namespace `ns` with `bundles` bundles and `count` topics `PREFIX-i` at `rate` each.
    pub(crate) fn add_namespace(s: &mut Sim, ns: &str, bundles: u32, prefix: &str, count: u32, rate: f64) {
        s.apply(&Action::CreateNamespace {
            namespace: ns.into(),
            bundles: Some(bundles),
        })
        .unwrap();
        s.apply(&Action::CreateTopics {
            namespace: ns.into(),
            prefix: prefix.into(),
            count,
            traffic: traffic(rate),
        })
        .unwrap();
    }

    /// Brokers `b0`, `b1`, …, the `namespaces` (name, bundles, topics `x-i`,
    /// msg/s per topic), and a ±`percent` jitter on every topic.
    pub(crate) fn jittered_cluster(
        config: Config,
        seed: u64,
        brokers: u32,
        namespaces: &[(&str, u32, u32, f64)],
        percent: f64,
    ) -> Sim {
        let mut s = Sim::new(config, seed).unwrap();
        for b in 0..brokers {
            s.apply(&Action::AddBroker {
                broker: format!("b{b}"),
                capacity: Default::default(),
            })
            .unwrap();
        }
        for &(ns, bundles, count, rate) in namespaces {
            add_namespace(&mut s, ns, bundles, "x", count, rate);
        }
        s.apply(&Action::AddWorkload {
            pattern: Pattern {
                target: Target::All,
                shape: Shape::Jitter { percent },
            },
        })
        .unwrap();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Config};
    use super::*;
    use crate::engine::Engine;

    const NS: &str = "t/n";

    fn traffic(rate: f64) -> Traffic {
        Traffic {
            msg_rate_in: rate,
            msg_rate_out: rate,
            throughput_in: rate * 1024.0,
            throughput_out: rate * 1024.0,
            producers: 2,
            consumers: 3,
        }
    }

    fn sim(seed: u64) -> Sim {
        let mut s = Sim::new(Config::default(), seed).unwrap();
        for b in ["b1", "b2"] {
            s.apply(&Action::AddBroker {
                broker: b.into(),
                capacity: Default::default(),
            })
            .unwrap();
        }
        s.apply(&Action::CreateNamespace {
            namespace: NS.into(),
            bundles: Some(4),
        })
        .unwrap();
        s.apply(&Action::CreateTopics {
            namespace: NS.into(),
            prefix: "t".into(),
            count: 20,
            traffic: traffic(100.0),
        })
        .unwrap();
        s
    }

    fn add(s: &mut Sim, target: Target, shape: Shape) -> Vec<Event> {
        s.apply(&Action::AddWorkload {
            pattern: Pattern { target, shape },
        })
        .unwrap()
    }

    fn rates(s: &Sim) -> Vec<f64> {
        let ns = &s.namespaces()[NS];
        ns.topics.values().map(|t| ns.traffic(t).msg_rate_in).collect()
    }

    fn applied(ev: &[Event]) -> &WorkloadEvent {
        ev.iter()
            .find_map(|e| match e {
                Event::Workload(w @ WorkloadEvent::Applied { .. }) => Some(w),
                _ => None,
            })
            .expect("an applied event")
    }

    /// Every bundle's summed traffic is its topics' (the bundle sums follow the shaping).
    fn sums_hold(s: &Sim) {
        for (id, st) in s.bundles() {
            let (_, t) = s.namespaces()[id.namespace.as_str()].aggregate(id.range);
            assert!((st.traffic.msg_rate_in - t.msg_rate_in).abs() < 1e-6, "{id}");
            assert_eq!(st.traffic.producers, t.producers);
        }
        s.invariants().unwrap();
    }

    #[test]
    fn jitter_is_deterministic_per_seed_and_within_its_bounds() {
        let run = |seed: u64| {
            let mut s = sim(seed);
            add(&mut s, Target::All, Shape::Jitter { percent: 10.0 });
            let mut out = Vec::new();
            for _ in 0..5 {
                let ev = s.apply(&Action::Step).unwrap();
                assert!(matches!(ev[0], Event::Workload(WorkloadEvent::Applied { .. })));
                out.push(rates(&s));
                sums_hold(&s);
            }
            out
        };
        let a = run(7);
        assert_eq!(a, run(7), "same seed, same jitter");
        assert_ne!(a, run(8), "another seed, other draws");
        for round in &a {
            assert!(round.iter().all(|r| (90.0..=110.0).contains(r)), "{round:?}");
            assert!(round.iter().any(|r| (r - 100.0).abs() > 0.5), "the rates move");
        }
        assert_ne!(a[0], a[1], "a new draw every round");
    }

    #[test]
    fn wave_follows_simulated_minutes() {
        let mut s = sim(1);
        // roundSeconds is 60: a period of 4 rounds, peak at round 1.
        assert_eq!(s.config().round_seconds, 60);
        add(
            &mut s,
            Target::Namespace { namespace: NS.into() },
            Shape::Wave {
                period_minutes: 4.0,
                amplitude_percent: 50.0,
                phase_minutes: 0.0,
            },
        );
        let mut seen = Vec::new();
        for _ in 0..4 {
            s.apply(&Action::Step).unwrap();
            seen.push(rates(&s)[0]);
        }
        let want = [150.0, 100.0, 50.0, 100.0];
        for (g, w) in seen.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{seen:?}");
        }
        sums_hold(&s);
    }

    #[test]
    fn burst_on_a_hash_range_and_ramp_stack_in_id_order() {
        let mut s = sim(3);
        let (lo, hi) = (0u32, 0x8000_0000u32);
        add(
            &mut s,
            Target::HashRange {
                namespace: NS.into(),
                lower: lo,
                upper: hi,
            },
            Shape::Burst {
                start_round: 2,
                rounds: 2,
                multiplier: 3.0,
            },
        );
        add(
            &mut s,
            Target::All,
            Shape::Ramp {
                from: 1.0,
                to: 2.0,
                start_round: 0,
                rounds: 4,
            },
        );
        let hashes: Vec<u32> = s.namespaces()[NS].topics.values().map(|t| t.hash).collect();
        for round in 1..=5u64 {
            let ev = s.apply(&Action::Step).unwrap();
            let ramp = 1.0 + (round.min(4) as f64) / 4.0;
            let burst = if (2..4).contains(&round) { 3.0 } else { 1.0 };
            for (r, h) in rates(&s).iter().zip(&hashes) {
                let want = 100.0 * ramp * if *h < hi { burst } else { 1.0 };
                assert!((r - want).abs() < 1e-9, "round {round}: {r} vs {want}");
            }
            let WorkloadEvent::Applied { effects, shaped, .. } = applied(&ev) else {
                unreachable!()
            };
            assert_eq!(*shaped, 20);
            assert_eq!(effects[1].topics, 20);
            assert!((effects[1].factor_min - ramp).abs() < 1e-9);
            sums_hold(&s);
        }
    }

    #[test]
    fn remove_gives_the_base_back_and_change_keeps_the_seed() {
        let mut s = sim(5);
        let before = rates(&s);
        add(&mut s, Target::All, Shape::Jitter { percent: 20.0 });
        s.apply(&Action::Step).unwrap();
        let jittered = rates(&s);
        assert_ne!(before, jittered);
        let seed = s.workload().patterns()[0].seed;
        // A change keeps the id and the seed: the same draws, scaled.
        let ev = s
            .apply(&Action::ChangeWorkload {
                id: 1,
                pattern: Pattern {
                    target: Target::All,
                    shape: Shape::Jitter { percent: 10.0 },
                },
            })
            .unwrap();
        assert!(ev[0]
            .narrate()
            .starts_with("workload pattern #1 changed: jitter ±10 % on every topic (was jitter ±20 %"));
        assert_eq!(s.workload().patterns()[0].seed, seed);
        for (a, b) in rates(&s).iter().zip(&jittered) {
            assert!(((a - 100.0) * 2.0 - (b - 100.0)).abs() < 1e-9);
        }
        let ev = s.apply(&Action::RemoveWorkload { id: 1 }).unwrap();
        let WorkloadEvent::Applied { restored, .. } = applied(&ev) else {
            unreachable!()
        };
        assert_eq!(*restored, 20);
        assert_eq!(rates(&s), before);
        assert!(
            s.namespaces()[NS].shaped.is_none(),
            "no pattern: the plain topics again"
        );
        sums_hold(&s);
        // No pattern: a step shapes nothing and says nothing about it.
        let ev = s.apply(&Action::Step).unwrap();
        assert!(!ev.iter().any(|e| matches!(e, Event::Workload(_))));
    }

    /// Each topic's traffic as [`Namespace::traffic`] reads it, and as the
    /// namespace's serialized form (its topics' own traffic once settled) shows it.
    fn read_both(s: &Sim) -> (Vec<Traffic>, Vec<Traffic>) {
        let ns = &s.namespaces()[NS];
        let read = ns.topics.values().map(|t| ns.traffic(t)).collect();
        let settled = ns.settled();
        assert!(settled.shaped.is_none());
        (read, settled.topics.values().map(|t| t.traffic).collect())
    }

    #[test]
    fn topics_added_while_shaped_keep_every_topics_traffic_and_are_shaped_from_the_next_round() {
        let mut s = sim(4);
        add(&mut s, Target::All, Shape::Jitter { percent: 20.0 });
        s.apply(&Action::Step).unwrap();
        let (before, settled) = read_both(&s);
        assert_eq!(before, settled);
        assert!(before.iter().any(|t| t.msg_rate_in != 100.0), "jittered");
        // New topics sort among the old ones (names "a-…" before "t-…"); until
        // the next round they carry what they were given and the old topics
        // keep their shaped traffic.
        s.apply(&Action::CreateTopics {
            namespace: NS.into(),
            prefix: "a".into(),
            count: 3,
            traffic: traffic(50.0),
        })
        .unwrap();
        let (now, settled) = read_both(&s);
        assert_eq!(now, settled);
        assert_eq!(now.len(), 23);
        assert!(now[..3].iter().all(|t| t.msg_rate_in == 50.0));
        assert_eq!(now[3..], before[..]);
        sums_hold(&s);
        sums_equal_a_full_recomputation(&s).unwrap();
        // The next round ranks them and shapes them from what they were given.
        s.apply(&Action::Step).unwrap();
        let (now, settled) = read_both(&s);
        assert_eq!(now, settled);
        assert!(now[..3].iter().all(|t| (40.0..=60.0).contains(&t.msg_rate_in)));
        assert!(now[3..].iter().all(|t| (80.0..=120.0).contains(&t.msg_rate_in)));
        sums_hold(&s);
        sums_equal_a_full_recomputation(&s).unwrap();
        // A split moves bundle positions, not ranks: the sums still hold.
        s.apply(&Action::SplitBundle {
            namespace: NS.into(),
            bundle: "LARGEST".into(),
            algorithm: None,
            boundaries: vec![],
            unload: false,
        })
        .unwrap();
        s.apply(&Action::Step).unwrap();
        sums_hold(&s);
        sums_equal_a_full_recomputation(&s).unwrap();
        // With the pattern gone every topic has its base back, in the topics themselves.
        s.apply(&Action::RemoveWorkload { id: 1 }).unwrap();
        assert!(s.namespaces()[NS].shaped.is_none());
        let (now, _) = read_both(&s);
        assert!(now[..3].iter().all(|t| t.msg_rate_in == 50.0));
        assert!(now[3..].iter().all(|t| t.msg_rate_in == 100.0));
        sums_hold(&s);
        sums_equal_a_full_recomputation(&s).unwrap();
    }

    #[test]
    fn setting_a_topics_traffic_gives_it_a_new_base() {
        let mut s = sim(2);
        add(
            &mut s,
            Target::Topic {
                topic: format!("{NS}/t-3"),
            },
            Shape::Ramp {
                from: 2.0,
                to: 2.0,
                start_round: 0,
                rounds: 0,
            },
        );
        let t3 = |s: &Sim| {
            let ns = &s.namespaces()[NS];
            ns.traffic(&ns.topics[&TopicName(format!("persistent://{NS}/t-3").into())])
        };
        assert_eq!(t3(&s).msg_rate_in, 200.0, "applied at once");
        s.apply(&Action::SetTopicTraffic {
            topic: format!("{NS}/t-3"),
            traffic: traffic(500.0),
        })
        .unwrap();
        assert_eq!(t3(&s).msg_rate_in, 500.0);
        s.apply(&Action::Step).unwrap();
        assert_eq!(t3(&s).msg_rate_in, 1000.0);
        assert_eq!(rates(&s).iter().filter(|r| **r == 100.0).count(), 19);
        sums_hold(&s);
    }

    #[test]
    fn zipf_sums_to_its_total_and_redraws_every_k_rounds() {
        let mut s = sim(9);
        add(
            &mut s,
            Target::Matching {
                pattern: "t/n/t-*".into(),
            },
            Shape::Zipf {
                total_msg_rate_in: 10_000.0,
                exponent: 1.2,
                redraw_every: 2,
                seed: None,
            },
        );
        let mut draws = Vec::new();
        for _ in 0..4 {
            s.apply(&Action::Step).unwrap();
            let r = rates(&s);
            assert!((r.iter().sum::<f64>() - 10_000.0).abs() < 1e-6);
            draws.push(r);
        }
        // Rounds 1 | 2, 3 | 4: epochs 0, 1, 1, 2.
        assert_ne!(draws[0], draws[1]);
        assert_eq!(draws[1], draws[2]);
        assert_ne!(draws[2], draws[3]);
        let max = draws[0].iter().copied().fold(0.0, f64::max);
        let h: f64 = (1..=20).map(|k| 1.0 / f64::from(k).powf(1.2)).sum();
        assert!((max - 10_000.0 / h).abs() < 1e-6, "the hottest topic has rank 1");
        sums_hold(&s);
    }

    #[test]
    fn churn_moves_sessions_within_its_bounds() {
        let mut s = sim(4);
        add(
            &mut s,
            Target::All,
            Shape::Churn {
                producers: 2,
                consumers: 1,
            },
        );
        let mut moved = false;
        for _ in 0..3 {
            s.apply(&Action::Step).unwrap();
            let ns = &s.namespaces()[NS];
            for t in ns.topics.values().map(|t| ns.traffic(t)) {
                assert!(t.producers <= 4 && t.consumers >= 2 && t.consumers <= 4);
                moved |= t.producers != 2;
                assert_eq!(t.msg_rate_in, 100.0);
            }
        }
        assert!(moved);
        sums_hold(&s);
    }

    #[test]
    fn constant_replaces_then_jitter_multiplies() {
        let mut s = sim(6);
        add(
            &mut s,
            Target::Namespace { namespace: NS.into() },
            Shape::Constant {
                traffic: traffic(40.0),
            },
        );
        add(&mut s, Target::All, Shape::Jitter { percent: 50.0 });
        let ev = s.apply(&Action::Step).unwrap();
        assert!(rates(&s).iter().all(|r| (20.0..=60.0).contains(r)));
        let WorkloadEvent::Applied {
            effects,
            base_msg_rate_in,
            ..
        } = applied(&ev)
        else {
            unreachable!()
        };
        assert_eq!(*base_msg_rate_in, 2000.0);
        assert_eq!(effects[0].msg_rate_in_after, 800.0);
        assert_eq!(effects[1].msg_rate_in_before, 800.0);
        let text = ev[0].narrate();
        assert!(
            text.starts_with("workload at round 1: 20 topics shaped, 2000 msg/s in at base"),
            "{text}"
        );
        assert!(text.contains("#1 constant 40 msg/s in, 40 msg/s out on namespace t/n: 20 topics, 2000 → 800 msg/s in ×0.400"), "{text}");
    }

    #[test]
    fn refused_patterns_leave_the_state_unchanged() {
        let mut s = sim(1);
        add(&mut s, Target::All, Shape::Jitter { percent: 5.0 });
        let before = format!("{s:?}");
        let p = |target: Target, shape: Shape| Action::AddWorkload {
            pattern: Pattern { target, shape },
        };
        for (a, want) in [
            (
                p(Target::All, Shape::Jitter { percent: 120.0 }),
                "invalid value: jitter percent must be in 0..=100 (got 120)",
            ),
            (
                p(
                    Target::Topic {
                        topic: "t/n/nope".into(),
                    },
                    Shape::Jitter { percent: 1.0 },
                ),
                "topic persistent://t/n/nope does not exist",
            ),
            (
                p(
                    Target::Namespace {
                        namespace: "t/x".into(),
                    },
                    Shape::Jitter { percent: 1.0 },
                ),
                "namespace t/x does not exist",
            ),
            (
                p(
                    Target::All,
                    Shape::Wave {
                        period_minutes: 0.0,
                        amplitude_percent: 10.0,
                        phase_minutes: 0.0,
                    },
                ),
                "invalid value: a wave's period must be > 0 minutes (got 0)",
            ),
            (
                p(
                    Target::HashRange {
                        namespace: NS.into(),
                        lower: 9,
                        upper: 9,
                    },
                    Shape::Jitter { percent: 1.0 },
                ),
                "invalid value: a hash range needs lower < upper (got 0x00000009, 0x00000009)",
            ),
            (
                Action::RemoveWorkload { id: 7 },
                "invalid value: no workload pattern #7 (patterns: #1)",
            ),
            (
                Action::ChangeWorkload {
                    id: 1,
                    pattern: Pattern {
                        target: Target::All,
                        shape: Shape::Burst {
                            start_round: 1,
                            rounds: 1,
                            multiplier: f64::NAN,
                        },
                    },
                },
                "invalid value: a burst's multiplier must be finite and not negative (got NaN)",
            ),
        ] {
            assert_eq!(s.apply(&a).unwrap_err().to_string(), want);
        }
        assert_eq!(before, format!("{s:?}"));
    }

    #[test]
    fn actions_round_trip_through_json() {
        let shapes = [
            Shape::Constant {
                traffic: traffic(1.0),
            },
            Shape::Jitter { percent: 10.0 },
            Shape::Wave {
                period_minutes: 1440.0,
                amplitude_percent: 30.0,
                phase_minutes: 360.0,
            },
            Shape::Burst {
                start_round: 3,
                rounds: 2,
                multiplier: 4.0,
            },
            Shape::Ramp {
                from: 1.0,
                to: 3.0,
                start_round: 1,
                rounds: 10,
            },
            Shape::Zipf {
                total_msg_rate_in: 1e5,
                exponent: 1.1,
                redraw_every: 5,
                seed: Some(3),
            },
            Shape::Churn {
                producers: 1,
                consumers: 2,
            },
        ];
        for shape in shapes {
            let a = Action::AddWorkload {
                pattern: Pattern {
                    target: Target::Matching {
                        pattern: "t/n/*".into(),
                    },
                    shape,
                },
            };
            let j = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&j).unwrap(), a, "{j}");
        }
        let j = r#"{"op":"add_workload","pattern":{"target":{"kind":"all"},"shape":{"kind":"ramp","to":2}}}"#;
        let a: Action = serde_json::from_str(j).unwrap();
        assert!(matches!(
            a,
            Action::AddWorkload {
                pattern: Pattern {
                    shape: Shape::Ramp { from, rounds: 0, .. },
                    ..
                }
            } if from == 1.0
        ));
    }

    #[test]
    fn preview_gives_the_envelope_of_the_next_rounds() {
        let jitter = Shape::Jitter { percent: 10.0 }.preview(0, 0, 60_000, 3).unwrap();
        assert_eq!(jitter, vec![(0.9, 1.1); 3]);
        let ramp = Shape::Ramp {
            from: 1.0,
            to: 2.0,
            start_round: 0,
            rounds: 2,
        }
        .preview(0, 0, 60_000, 3)
        .unwrap();
        assert_eq!(ramp, vec![(1.5, 1.5), (2.0, 2.0), (2.0, 2.0)]);
        assert!(Shape::Churn {
            producers: 1,
            consumers: 1
        }
        .preview(0, 0, 1, 2)
        .is_none());
    }

    fn shape_strategy() -> impl proptest::strategy::Strategy<Value = Shape> {
        use proptest::prelude::*;
        prop_oneof![
            (0.0..120.0f64).prop_map(|p| Shape::Jitter { percent: p }),
            (0.5..2000.0f64, 0.0..100.0f64, -60.0..60.0f64).prop_map(|(a, b, c)| Shape::Wave {
                period_minutes: a,
                amplitude_percent: b,
                phase_minutes: c
            }),
            (0u64..6, 0u64..4, 0.0..5.0f64).prop_map(|(s, r, m)| Shape::Burst {
                start_round: s,
                rounds: r,
                multiplier: m
            }),
            (0.0..3.0f64, 0.0..3.0f64, 0u64..4, 0u64..4).prop_map(|(f, t, s, r)| Shape::Ramp {
                from: f,
                to: t,
                start_round: s,
                rounds: r
            }),
            (0.0..1e5f64, 0.0..3.0f64, 0u64..3, proptest::option::of(0u64..4)).prop_map(|(t, e, k, seed)| {
                Shape::Zipf {
                    total_msg_rate_in: t,
                    exponent: e,
                    redraw_every: k,
                    seed,
                }
            }),
            (0u32..3, 0u32..3).prop_map(|(p, c)| Shape::Churn {
                producers: p,
                consumers: c
            }),
            (0.0..500.0f64).prop_map(|r| Shape::Constant { traffic: traffic(r) }),
        ]
    }

    fn target_strategy() -> impl proptest::strategy::Strategy<Value = Target> {
        use proptest::prelude::*;
        prop_oneof![
            Just(Target::All),
            Just(Target::Namespace { namespace: NS.into() }),
            (0u32..25).prop_map(|i| Target::Topic {
                topic: format!("{NS}/t-{i}")
            }),
            Just(Target::Matching {
                pattern: "*-1*".into()
            }),
            (any::<u32>(), any::<u32>()).prop_map(|(a, b)| Target::HashRange {
                namespace: NS.into(),
                lower: a.min(b),
                upper: a.max(b),
            }),
        ]
    }

    fn op_strategy() -> impl proptest::strategy::Strategy<Value = Action> {
        use proptest::prelude::*;
        let pattern =
            || (target_strategy(), shape_strategy()).prop_map(|(target, shape)| Pattern { target, shape });
        prop_oneof![
            pattern().prop_map(|pattern| Action::AddWorkload { pattern }),
            (1u32..5, pattern()).prop_map(|(id, pattern)| Action::ChangeWorkload { id, pattern }),
            (1u32..5).prop_map(|id| Action::RemoveWorkload { id }),
            Just(Action::Step),
            Just(Action::Step),
            (0u32..20, 0.0..300.0f64).prop_map(|(i, r)| Action::SetTopicTraffic {
                topic: format!("{NS}/t-{i}"),
                traffic: traffic(r),
            }),
        ]
    }

    /// Each multiplying shape on a whole namespace and on a hash range, changed
    /// to a narrower range (topics outside get their base back) and with a
    /// topic's traffic set in between: the loop for one pattern and the
    /// general loop give the same events and the same state.
    #[test]
    fn the_one_pattern_loop_gives_the_general_loops_numbers() {
        let shapes = [
            Shape::Jitter { percent: 25.0 },
            Shape::Wave {
                period_minutes: 7.0,
                amplitude_percent: 40.0,
                phase_minutes: 1.5,
            },
            Shape::Burst {
                start_round: 2,
                rounds: 2,
                multiplier: 3.5,
            },
            Shape::Ramp {
                from: 0.5,
                to: 2.0,
                start_round: 1,
                rounds: 3,
            },
        ];
        let range = |lower, upper| Target::HashRange {
            namespace: NS.into(),
            lower,
            upper,
        };
        for shape in shapes {
            for target in [Target::All, range(0x1000_0000, 0xC000_0000)] {
                let script = [
                    Action::AddWorkload {
                        pattern: Pattern {
                            target: target.clone(),
                            shape: shape.clone(),
                        },
                    },
                    Action::Step,
                    Action::Step,
                    Action::SetTopicTraffic {
                        topic: format!("{NS}/t-3"),
                        traffic: traffic(250.0),
                    },
                    Action::Step,
                    Action::ChangeWorkload {
                        id: 1,
                        pattern: Pattern {
                            target: range(0x4000_0000, 0x9000_0000),
                            shape: shape.clone(),
                        },
                    },
                    Action::Step,
                    Action::Step,
                ];
                let run = |general: bool| {
                    GENERAL_ONLY.with(|g| g.set(general));
                    let mut s = sim(11);
                    let ev: Vec<Vec<Event>> = script.iter().map(|a| s.apply(a).unwrap()).collect();
                    GENERAL_ONLY.with(|g| g.set(false));
                    (ev, format!("{s:?}"))
                };
                let (fast, general) = (run(false), run(true));
                assert_eq!(fast.0, general.0, "{shape:?} on {target:?}: events");
                assert_eq!(fast.1, general.1, "{shape:?} on {target:?}: state");
                let restored = fast.0[5].iter().find_map(|e| match e {
                    Event::Workload(WorkloadEvent::Applied { restored, .. }) => Some(*restored),
                    _ => None,
                });
                if target != Target::All {
                    assert!(
                        restored.is_some_and(|r| r > 0),
                        "{shape:?}: the narrower range gives bases back"
                    );
                }
            }
        }
    }

    /// A multiplying pattern on every topic leaves the topics' traffic unwritten
    /// (their bases and the round's factor say it); what a topic reads is what
    /// writing it back gives, and the next change that needs the written values
    /// (a topic's traffic set) writes them first.
    #[test]
    fn a_pattern_on_every_topic_defers_writing_the_topics_back() {
        for shape in [
            Shape::Jitter { percent: 20.0 },
            Shape::Ramp {
                from: 0.5,
                to: 2.0,
                start_round: 0,
                rounds: 4,
            },
        ] {
            let mut s = sim(5);
            add(&mut s, Target::All, shape.clone());
            s.apply(&Action::Step).unwrap();
            s.apply(&Action::Step).unwrap();
            let ns = &s.namespaces()[NS];
            let dense = ns.shaped.as_ref().expect("shaped traffic");
            assert!(
                dense.deferred.is_some(),
                "{shape:?}: the pass deferred the writes"
            );
            let read: Vec<Traffic> = ns.topics.values().map(|t| ns.traffic(t)).collect();
            let mut written = (**dense).clone();
            written.settle();
            assert!(written.deferred.is_none());
            let now: Vec<Traffic> = ns.topics.values().map(|t| written.now[t.rank as usize]).collect();
            assert_eq!(read, now, "{shape:?}");
            assert!(
                ns.topics
                    .values()
                    .any(|t| written.base[t.rank as usize] != Some(now[t.rank as usize])),
                "{shape:?}: the pattern changed some topic"
            );
            assert_eq!(**dense, written, "{shape:?}: equal as the traffic they give");
            s.apply(&Action::SetTopicTraffic {
                topic: format!("{NS}/t-3"),
                traffic: traffic(250.0),
            })
            .unwrap();
            let ns = &s.namespaces()[NS];
            assert!(ns.shaped.as_ref().is_some_and(|d| d.deferred.is_none()));
            let after: Vec<Traffic> = ns.topics.values().map(|t| ns.traffic(t)).collect();
            let set = ns.topics.keys().position(|n| n.0.ends_with("/t-3")).expect("t-3");
            for (i, (a, b)) in after.iter().zip(&read).enumerate() {
                if i == set {
                    assert_eq!(*a, traffic(250.0));
                } else {
                    assert_eq!(a, b, "{shape:?}: topic {i} kept its traffic");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Random patterns, changes, removals and rounds: a refused action changes
        /// nothing, the bundle sums follow the topics, rates stay finite and not
        /// negative, the invariants hold, and a replay gives the same state —
        /// also when the replay runs the pattern pass's general loop only (the
        /// loop for one multiplying pattern computes the same numbers, bit for bit).
        #[test]
        fn random_patterns_keep_the_state_consistent_and_replay(ops in proptest::collection::vec(op_strategy(), 1..14), seed in 0u64..1000) {
            let mut s = sim(seed);
            let mut log = Vec::new();
            for a in &ops {
                let before = format!("{s:?}");
                match s.apply(a) {
                    Ok(ev) => {
                        log.push((a.clone(), ev));
                    }
                    Err(_) => proptest::prop_assert_eq!(&before, &format!("{s:?}")),
                }
                sums_hold(&s);
                let ns = &s.namespaces()[NS];
                for t in ns.topics.values().map(|t| ns.traffic(t)) {
                    proptest::prop_assert!(t.is_valid(), "{t:?}");
                }
            }
            for general in [false, true] {
                GENERAL_ONLY.with(|g| g.set(general));
                let mut again = sim(seed);
                let replayed: Vec<Vec<Event>> = log.iter().map(|(a, _)| again.apply(a).unwrap()).collect();
                GENERAL_ONLY.with(|g| g.set(false));
                for ((_, ev), got) in log.iter().zip(&replayed) {
                    proptest::prop_assert_eq!(got, ev, "general loop only: {}", general);
                }
                proptest::prop_assert_eq!(format!("{again:?}"), format!("{s:?}"), "general loop only: {}", general);
            }
            // With every pattern removed, every topic carries its base again.
            let ids: Vec<u32> = s.workload().patterns().iter().map(|e| e.id).collect();
            for id in ids {
                s.apply(&Action::RemoveWorkload { id }).unwrap();
            }
            let ns = &s.namespaces()[NS];
            proptest::prop_assert!(ns.shaped.is_none(), "no pattern left: the plain topics again");
            proptest::prop_assert!(ns.topics.values().all(|t| t.rank == UNRANKED));
        }
    }

    /// The sums a round keeps (each bundle's topic count and traffic, each
    /// broker's served-traffic cache, the per-namespace topic positions) equal
    /// what a full recomputation from the topics gives.
    fn sums_equal_a_full_recomputation(s: &Sim) -> Result<(), String> {
        for (id, st) in &s.bundles {
            let ns = &s.namespaces[id.namespace.as_str()];
            // The round's pass adds a bundle's topics in name order.
            let (n, t) = ns
                .topics
                .values()
                .filter(|t| id.range.contains(t.hash))
                .fold((0u32, Traffic::default()), |(n, a), t| {
                    (n + 1, a.plus(&ns.traffic(t)))
                });
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
            let ok = st.topics == n
                && close(st.traffic.msg_rate_in, t.msg_rate_in)
                && close(st.traffic.msg_rate_out, t.msg_rate_out)
                && close(st.traffic.throughput_in, t.throughput_in)
                && close(st.traffic.throughput_out, t.throughput_out)
                && st.traffic.producers == t.producers
                && st.traffic.consumers == t.consumers;
            if !ok {
                return Err(format!(
                    "{id}: kept {} {:?}, recomputed {n} {t:?}",
                    st.topics, st.traffic
                ));
            }
        }
        for b in s.brokers.values() {
            if let Some(kept) = b.served.0 {
                // Bit for bit: the cache is summed in the same order.
                if kept != s.sum_served(b) {
                    return Err(format!(
                        "broker {}: served {kept:?} vs {:?}",
                        b.id,
                        s.sum_served(b)
                    ));
                }
            }
        }
        for (name, ns) in &s.namespaces {
            let Some(pos) = &ns.shaped else {
                if ns.topics.values().any(|t| t.rank != UNRANKED) {
                    return Err(format!("{name}: a topic ranked in no shaped traffic"));
                }
                continue;
            };
            // Ranks are the topics' name order, except topics added since
            // the arrays were built (unranked until the next round).
            let ranked: Vec<u32> = ns
                .topics
                .values()
                .map(|t| t.rank)
                .filter(|&r| r != UNRANKED)
                .collect();
            if ranked != (0..pos.now.len() as u32).collect::<Vec<_>>() {
                return Err(format!("{name}: topic ranks out of step with the shaped traffic"));
            }
            if pos.bundles == ns.bundles.len() && pos.now.len() == ns.topics.len() {
                let of: Vec<u32> = ns
                    .topics
                    .values()
                    .map(|t| bundle::find(&ns.bundles, t.hash).unwrap_or(0) as u32)
                    .collect();
                let hash: Vec<u32> = ns.topics.values().map(|t| t.hash).collect();
                if pos.of != of || pos.hash != hash {
                    return Err(format!("{name}: stale topic positions"));
                }
            }
        }
        Ok(())
    }

    /// Pattern actions and rounds, with what invalidates the kept positions
    /// (new topics, a split) and the served caches (brokers joining, crashing).
    fn round_op_strategy() -> impl proptest::strategy::Strategy<Value = Action> {
        use proptest::prelude::*;
        prop_oneof![
            8 => op_strategy(),
            4 => Just(Action::Step),
            1 => (0u32..4).prop_map(|i| Action::CreateTopics {
                namespace: NS.into(),
                prefix: format!("late{i}"),
                count: 3,
                traffic: traffic(50.0),
            }),
            1 => Just(Action::SplitBundle {
                namespace: NS.into(),
                bundle: "LARGEST".into(),
                algorithm: None,
                boundaries: vec![],
                unload: false,
            }),
            1 => Just(Action::AddBroker {
                broker: "b3".into(),
                capacity: Default::default(),
            }),
            1 => Just(Action::CrashBroker { broker: "b1".into() }),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn kept_sums_equal_a_full_recomputation_after_patterned_rounds(
            ops in proptest::collection::vec(round_op_strategy(), 1..24),
            seed in 0u64..1000,
        ) {
            let mut s = sim(seed);
            for a in &ops {
                let _ = s.apply(a);
                if let Err(e) = sums_equal_a_full_recomputation(&s) {
                    proptest::prop_assert!(false, "after {a:?}: {e}");
                }
            }
        }
    }

    #[test]
    fn the_ramp_and_skew_buttons_are_one_action_each() {
        let mut s = sim(3);
        let a = s.workload().scale_all(2.0);
        assert!(matches!(a, Action::AddWorkload { .. }));
        s.apply(&a).unwrap();
        assert!(rates(&s).iter().all(|r| *r == 200.0));
        // A second press changes the same pattern to the product.
        let a = s.workload().scale_all(2.0);
        assert!(matches!(a, Action::ChangeWorkload { id: 1, .. }));
        let ev = s.apply(&a).unwrap();
        assert_eq!(
            ev[0].narrate(),
            "workload pattern #1 changed: scaled ×4 on every topic (was scaled ×2 on every topic)"
        );
        assert!(rates(&s).iter().all(|r| *r == 400.0));
        // ×½ twice: back to ×1, so the pattern goes.
        s.apply(&s.workload().scale_all(0.5)).unwrap();
        let a = s.workload().scale_all(0.5);
        assert_eq!(a, Action::RemoveWorkload { id: 1 });
        s.apply(&a).unwrap();
        assert!(s.workload().is_empty());
        assert!(rates(&s).iter().all(|r| *r == 100.0));
        // Skew: one pattern whatever the topic count; the same seed, the same
        // skew; a second press replaces the skew.
        let a = s.workload().skew_all(10_000.0, 1.2, 7);
        s.apply(&a).unwrap();
        let first = rates(&s);
        assert!((first.iter().sum::<f64>() - 10_000.0).abs() < 1e-6);
        let mut t = sim(99);
        t.apply(&t.workload().skew_all(10_000.0, 1.2, 7)).unwrap();
        assert_eq!(rates(&t), first, "the seed, not the simulation's RNG, decides");
        let a = s.workload().skew_all(10_000.0, 1.2, 8);
        assert!(matches!(a, Action::ChangeWorkload { id: 2, .. }));
        s.apply(&a).unwrap();
        assert_ne!(rates(&s), first);
        assert_eq!(s.workload().patterns().len(), 1);
        // A scaling after the skew is a new pattern (it multiplies the skew).
        let a = s.workload().scale_all(2.0);
        assert!(matches!(a, Action::AddWorkload { .. }));
        s.apply(&a).unwrap();
        assert!((rates(&s).iter().sum::<f64>() - 20_000.0).abs() < 1e-6);
        sums_hold(&s);
    }

    #[test]
    fn glob_matches_runs_of_characters() {
        assert!(glob("t/n/t-*", "t/n/t-12"));
        assert!(glob("*-1*", "t/n/t-12"));
        assert!(glob("*", ""));
        assert!(!glob("t/n/a*", "t/n/t-1"));
        assert!(!glob("a*a", "a"));
        assert!(glob("a*b*c", "axxbyyc"));
    }
}
