//! Scalable topics (Pulsar 5.0, PIP-460 / PIP-468 / PIP-483): a topic
//! `topic://tenant/ns/name` whose 16-bit key-hash space is cut into segments
//! ([`super::segment_layout`]) that split when hot and merge when cold
//! ([`super::auto_scale`]), each handed to a consumer of every subscription
//! ([`super::subscription_coordinator`]) and each an ordinary topic
//! `segment://tenant/ns/name/{start}-{end}-{id}` placed on a broker through
//! its namespace bundle (the CRC-32 hash of that name picks the bundle, and
//! the load manager places the bundle as it places any other).
//!
//! The traffic model (lbscope's, documented here): a scalable topic is given
//! its whole traffic, an optional wave over simulated time (the factor
//! `max(0, 1 + a/100 · sin(2π (now + phase) / period))`, `now` in minutes, the
//! workload wave of [`super::workload`] clipped at zero) and an optional hot
//! key range taking a share of the messages. A segment carries the share of
//! the topic's rates its keys draw (keys spread evenly over the range, and
//! the hot share evenly over the hot range); every producer writes to every
//! segment, and a segment's consumers are those assigned to it. Workload
//! patterns that target a segment topic (all topics, a namespace, a
//! `segment://` wildcard) shape it on top, like any topic.
//!
//! Time: at every round the segment owners' load reporters run when
//! `scalableTopicLoadReportIntervalSeconds` passed since their last run and
//! write a segment's record when a rate moved materially (or on its first
//! report); the controller evaluates every topic when
//! `scalableTopicAutoScaleIntervalSeconds` passed, and at once when a
//! consumer joins or leaves. At most one split or merge per topic per
//! evaluation. Manual and automatic operations both restart the cooldowns.

use super::auto_scale::{self, AutoScaleConfig, Decision, Evaluation, LoadSample, LoadStats};
use super::bundle::BundleRange;
use super::load::BundleId;
use super::namespace::Topic;
use super::segment_layout::{HashRange, SegmentInfo, SegmentLayout};
use super::subscription_coordinator::compute_assignment;
use super::topic::TopicName;
use super::traffic::Traffic;
use super::{Config, Error, Event, Sim};
use crate::engine::Narrate;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Most scalable topics one simulation holds.
pub const MAX_SCALABLE_TOPICS: usize = 256;
/// Most segments a scalable topic may be created with.
pub const MAX_INITIAL_SEGMENTS: u32 = 4096;
/// Most subscriptions of one scalable topic, and most consumers of one subscription.
pub const MAX_CONSUMERS: usize = 1024;

/// A wave over simulated time: the rates times
/// `max(0, 1 + amplitude/100 · sin(2π (now + phase) / period))`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wave {
    /// Period, minutes (> 0).
    pub period_minutes: f64,
    /// Amplitude, percent (0 ..= 1000; above 100 the trough is clipped at zero for a while).
    pub amplitude_percent: f64,
    /// Phase, minutes.
    #[serde(default)]
    pub phase_minutes: f64,
}

impl Wave {
    /// The factor at `now_ms`.
    pub fn factor(&self, now_ms: u64) -> f64 {
        let now = now_ms as f64 / 60_000.0;
        let s = (std::f64::consts::TAU * (now + self.phase_minutes) / self.period_minutes).sin();
        (1.0 + self.amplitude_percent / 100.0 * s).max(0.0)
    }

    fn check(&self) -> Result<(), String> {
        if !(self.period_minutes.is_finite()
            && self.period_minutes > 0.0
            && self.period_minutes <= 5_256_000.0)
        {
            return Err("wave period_minutes must be in (0, 5256000] (ten years)".into());
        }
        if !(self.amplitude_percent.is_finite() && (0.0..=1000.0).contains(&self.amplitude_percent)) {
            return Err("wave amplitude_percent must be in [0, 1000]".into());
        }
        if !self.phase_minutes.is_finite() || self.phase_minutes.abs() > 5_256_000.0 {
            return Err("wave phase_minutes must be finite and within ten years".into());
        }
        Ok(())
    }
}

/// A hot key range: `percent` of the messages have keys in `[start, end]`
/// (16-bit key hashes); the rest spread over the whole key space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HotKeys {
    /// First hot hash.
    pub start: u16,
    /// Last hot hash.
    pub end: u16,
    /// Share of the messages, percent (0 ..= 100).
    pub percent: f64,
}

/// One segment as a placed topic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    /// Segment id.
    pub id: u64,
    /// Its keys.
    pub range: HashRange,
    /// Its topic, `segment://…`.
    pub topic: TopicName,
    /// The CRC-32 of that name (its place on the bundle ring).
    pub hash: u32,
    /// The bundle holding it.
    pub bundle: BundleRange,
}

/// A scalable topic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalableTopic {
    /// `topic://tenant/ns/name`.
    pub name: String,
    /// `tenant/ns`.
    pub namespace: String,
    /// `name`.
    pub local: String,
    /// The segment DAG.
    pub layout: SegmentLayout,
    /// Its whole traffic (before the wave).
    pub traffic: Traffic,
    /// The wave, if any.
    pub wave: Option<Wave>,
    /// The hot keys, if any.
    pub hot: Option<HotKeys>,
    /// Subscriptions and their consumers (by name).
    pub subscriptions: BTreeMap<String, BTreeSet<String>>,
    /// Each active segment's load record.
    pub load: BTreeMap<u64, LoadSample>,
    /// Last split (manual or automatic), ms.
    pub last_split_ms: Option<u64>,
    /// Last merge, ms.
    pub last_merge_ms: Option<u64>,
    /// The salt that orders the controller's walk over the active segments
    /// (Java's per-JVM map order), drawn from the scenario's seed.
    pub salt: u64,
    /// Current assignment per subscription: (segment, consumer) in segment order.
    pub assignment: BTreeMap<String, Vec<(u64, String)>>,
}

impl ScalableTopic {
    /// The `segment://` topic of segment `s`.
    pub fn segment_topic(&self, s: &SegmentInfo) -> TopicName {
        TopicName(
            format!(
                "segment://{}/{}/{:04x}-{:04x}-{}",
                self.namespace, self.local, s.range.start, s.range.end, s.id
            )
            .into(),
        )
    }

    /// The active segments in the controller's walk order (the salted order).
    pub fn walk_order(&self) -> Vec<&SegmentInfo> {
        let mut v: Vec<&SegmentInfo> = self.layout.active().collect();
        v.sort_by_key(|s| {
            (
                splitmix(self.salt ^ s.id.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                s.id,
            )
        });
        v
    }

    /// Share of the topic's messages whose keys fall in `r`.
    pub fn share(&self, r: &HashRange) -> f64 {
        let even = f64::from(r.size()) / 65_536.0;
        match self.hot {
            Some(h) if h.percent > 0.0 => {
                let hr = HashRange {
                    start: h.start,
                    end: h.end,
                };
                let p = h.percent / 100.0;
                (1.0 - p) * even + p * f64::from(r.overlap(&hr)) / f64::from(hr.size())
            }
            _ => even,
        }
    }

    /// The wave's factor at `now_ms` (1 without a wave).
    pub fn factor(&self, now_ms: u64) -> f64 {
        self.wave.map_or(1.0, |w| w.factor(now_ms))
    }

    /// How many consumers (over all subscriptions) read segment `id`.
    pub fn consumers_of(&self, id: u64) -> u32 {
        self.assignment
            .values()
            .map(|a| a.iter().filter(|(s, _)| *s == id).count() as u32)
            .sum()
    }

    /// Consumers per subscription.
    pub fn consumer_counts(&self) -> BTreeMap<String, u32> {
        self.subscriptions
            .iter()
            .map(|(s, c)| (s.clone(), c.len() as u32))
            .collect()
    }

    /// What segment `s` carries at `now_ms`.
    fn segment_traffic(&self, s: &SegmentInfo, now_ms: u64) -> Traffic {
        let k = self.share(&s.range) * self.factor(now_ms);
        Traffic {
            msg_rate_in: self.traffic.msg_rate_in * k,
            msg_rate_out: self.traffic.msg_rate_out * k,
            throughput_in: self.traffic.throughput_in * k,
            throughput_out: self.traffic.throughput_out * k,
            producers: self.traffic.producers,
            consumers: self.consumers_of(s.id),
        }
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every scalable topic of a simulation and the controller's clocks.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ScalableTopics {
    /// By name (`topic://…`).
    pub topics: BTreeMap<String, ScalableTopic>,
    /// When the load reporters last ran, ms.
    pub last_report_ms: Option<u64>,
    /// When the controller last evaluated on its interval, ms.
    pub last_eval_ms: Option<u64>,
}

/// What happened to a scalable topic, with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "scalable", rename_all = "snake_case")]
pub enum ScalableEvent {
    /// `pulsar-admin scalable-topics create`.
    Created {
        /// `topic://…`.
        topic: String,
        /// Its segments, placed.
        segments: Vec<Placed>,
    },
    /// Its traffic, wave or hot keys changed.
    TrafficSet {
        /// The topic.
        topic: String,
        /// Whole traffic.
        traffic: Traffic,
        /// The wave.
        wave: Option<Wave>,
        /// The hot keys.
        hot: Option<HotKeys>,
    },
    /// A consumer joined or left a subscription.
    Consumer {
        /// The topic.
        topic: String,
        /// The subscription.
        subscription: String,
        /// The consumer.
        consumer: String,
        /// Joined (true) or left.
        joined: bool,
        /// Consumers of the subscription now.
        consumers: u32,
    },
    /// A segment was split.
    Split {
        /// The topic.
        topic: String,
        /// The sealed segment.
        parent: u64,
        /// Its range.
        range: HashRange,
        /// The two children, placed.
        children: Vec<Placed>,
        /// `admin` or `auto`.
        by: String,
        /// Why (`admin`, `consumer-count`, or the metric).
        reason: String,
        /// The layout's epoch now.
        epoch: u64,
    },
    /// Two segments were merged.
    Merged {
        /// The topic.
        topic: String,
        /// The sealed segments.
        parents: (u64, u64),
        /// The merged segment, placed.
        merged: Placed,
        /// `admin` or `auto`.
        by: String,
        /// Why (`admin` or `cold`).
        reason: String,
        /// The layout's epoch now.
        epoch: u64,
    },
    /// The segment owners' load reporters wrote records.
    LoadReported {
        /// The topic.
        topic: String,
        /// Segments whose record was written, with the rates written and the previous ones.
        written: Vec<(u64, LoadStats, Option<LoadStats>)>,
        /// Segments whose rates moved too little to write (at most `threshold`).
        unchanged: u32,
        /// `scalableTopicLoadReportRateChangeThreshold`.
        threshold: f64,
    },
    /// The controller evaluated auto split/merge.
    Evaluated {
        /// The topic.
        topic: String,
        /// `interval`, `consumer`.
        trigger: String,
        /// Simulated time, ms.
        at_ms: u64,
        /// The decision.
        decision: Decision,
        /// The numbers behind it.
        evaluation: Evaluation,
    },
    /// A subscription's segment → consumer assignment changed.
    Assigned {
        /// The topic.
        topic: String,
        /// The subscription.
        subscription: String,
        /// (segment, consumer), segments sorted by range.
        assignment: Vec<(u64, String)>,
    },
}

fn placed_list(p: &[Placed]) -> String {
    p.iter()
        .map(|s| {
            format!(
                "{} {} (hash 0x{:08x}, bundle {})",
                s.id, s.range, s.hash, s.bundle
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

impl Narrate for ScalableEvent {
    fn narrate(&self) -> String {
        match self {
            ScalableEvent::Created { topic, segments } => format!(
                "scalable topic {topic} created with {} segment(s): {}",
                segments.len(),
                placed_list(segments)
            ),
            ScalableEvent::TrafficSet { .. }
            | ScalableEvent::Consumer { .. }
            | ScalableEvent::Split { .. }
            | ScalableEvent::Merged { .. }
            | ScalableEvent::LoadReported { .. } => self.narrate_layout(),
            ScalableEvent::Evaluated {
                topic,
                trigger,
                at_ms,
                decision,
                evaluation: e,
            } => {
                let mut parts = vec![format!(
                    "{topic} auto-scale ({trigger}, t = {} s): {} active",
                    at_ms / 1000,
                    e.active
                )];
                if e.required_consumers > 0 {
                    parts.push(format!(
                        "most consumers in a subscription {}",
                        e.required_consumers
                    ));
                }
                if let Some(b) = &e.split_blocked {
                    parts.push(format!("no split ({b})"));
                }
                if let Some(h) = &e.hottest {
                    parts.push(format!(
                        "hottest segment {} {} {} / {} = {:.2}",
                        h.segment,
                        h.metric,
                        num(h.rate),
                        num(h.threshold),
                        h.score
                    ));
                }
                if let Some(b) = &e.merge_blocked {
                    parts.push(format!("no merge ({b})"));
                }
                if let Some((a, b, c)) = e.coldest {
                    parts.push(format!("coldest pair {a}+{b} at {} combined", num(c)));
                } else if let Some((a, b, why)) = e.merge_refusals.first() {
                    parts.push(format!("pair {a}+{b} not mergeable: {why}"));
                }
                let out = match decision {
                    Decision::None => "no action".to_string(),
                    Decision::Split { segment, reason } => format!("split segment {segment} ({reason})"),
                    Decision::Merge {
                        segment1,
                        segment2,
                        reason,
                    } => format!("merge segments {segment1} and {segment2} ({reason})"),
                };
                format!("{} -> {out}", parts.join("; "))
            }
            ScalableEvent::Assigned {
                topic,
                subscription,
                assignment,
            } => format!(
                "{topic} subscription {subscription}: {}",
                if assignment.is_empty() {
                    "no consumer".to_string()
                } else {
                    assignment
                        .iter()
                        .map(|(s, c)| format!("segment {s} -> {c}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
        }
    }
}

impl ScalableEvent {
    /// Traffic, consumers, splits, merges and load reports.
    fn narrate_layout(&self) -> String {
        match self {
            ScalableEvent::TrafficSet {
                topic,
                traffic,
                wave,
                hot,
            } => {
                let mut s = format!(
                    "{topic} traffic: {} msg/s in, {} msg/s out, {} B/s in, {} B/s out",
                    num(traffic.msg_rate_in),
                    num(traffic.msg_rate_out),
                    num(traffic.throughput_in),
                    num(traffic.throughput_out)
                );
                if let Some(w) = wave {
                    s += &format!(
                        "; wave ±{}% over {} min (phase {} min)",
                        num(w.amplitude_percent),
                        num(w.period_minutes),
                        num(w.phase_minutes)
                    );
                }
                if let Some(h) = hot {
                    s += &format!(
                        "; {}% of keys in [0x{:04x}, 0x{:04x}]",
                        num(h.percent),
                        h.start,
                        h.end
                    );
                }
                s
            }
            ScalableEvent::Consumer {
                topic,
                subscription,
                consumer,
                joined,
                consumers,
            } => format!(
                "consumer {consumer} {} subscription {subscription} of {topic} ({consumers} consumer(s) now)",
                if *joined { "joined" } else { "left" }
            ),
            ScalableEvent::Split {
                topic,
                parent,
                range,
                children,
                by,
                reason,
                epoch,
            } => format!(
                "{topic}: segment {parent} {range} split ({by}, {reason}) into {}; epoch {epoch}",
                placed_list(children)
            ),
            ScalableEvent::Merged {
                topic,
                parents,
                merged,
                by,
                reason,
                epoch,
            } => format!(
                "{topic}: segments {} and {} merged ({by}, {reason}) into {}; epoch {epoch}",
                parents.0,
                parents.1,
                placed_list(std::slice::from_ref(merged))
            ),
            ScalableEvent::LoadReported {
                topic,
                written,
                unchanged,
                threshold,
            } => format!(
                "{topic} load records written: {}; {unchanged} unchanged (within {}%)",
                written
                    .iter()
                    .map(|(id, s, prev)| format!(
                        "segment {id} {} msg/s in{}",
                        num(s.msg_rate_in),
                        prev.map_or(" (first record)".into(), |p| format!(
                            " (was {})",
                            num(p.msg_rate_in)
                        ))
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                num(threshold * 100.0)
            ),
            _ => unreachable!("narrate_layout is called only for its kinds"),
        }
    }
}

/// `topic://tenant/ns/name`, `tenant/ns/name` or `name` (in `public/default`):
/// (full name, namespace, local name).
pub fn parse_name(raw: &str) -> Result<(String, String, String), Error> {
    let s = raw.trim();
    let rest = match s.split_once("://") {
        Some(("topic", r)) => r.to_string(),
        Some((d, _)) => {
            return Err(Error::Invalid(format!(
                "scalable topic {s:?}: a scalable topic's domain is topic://, not {d}://"
            )))
        }
        None if !s.contains('/') => format!("public/default/{s}"),
        None => s.to_string(),
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let ok = parts.len() == 3
        && parts.iter().all(|p| !p.is_empty())
        && parts[..2]
            .iter()
            .all(|p| p.chars().all(super::sim::is_named_entity_char))
        && rest.len() <= 1024;
    if !ok {
        return Err(Error::Invalid(format!(
            "scalable topic {s:?} is not of the form topic://tenant/namespace/name (at most 1024 bytes)"
        )));
    }
    Ok((
        format!("topic://{rest}"),
        format!("{}/{}", parts[0], parts[1]),
        parts[2].to_string(),
    ))
}

/// Why a config change is refused while scalable topics exist (`None`: fine).
pub(super) fn config_refusal(st: &ScalableTopics, c: &Config) -> Option<String> {
    let n = st.topics.len();
    if n == 0 {
        return None;
    }
    if c.profile.is_4x() {
        return Some(format!(
            "the simulation has {n} scalable topic(s), which Pulsar 4.x does not have (they arrived with 5.0, PIP-460); keep the pulsar-5.0 profile"
        ));
    }
    if !c.scalable_topics_enabled {
        return Some(format!(
            "the simulation has {n} scalable topic(s): scalableTopicsEnabled cannot be turned off under them"
        ));
    }
    None
}

impl Sim {
    /// The scalable topics.
    pub fn scalable_topics(&self) -> &ScalableTopics {
        &self.scalable
    }

    fn scalable_enabled(&self) -> Result<(), Error> {
        if self.config.profile.is_4x() {
            return Err(Error::Invalid(
                "scalable topics arrived with Pulsar 5.0 (PIP-460, PIP-468, PIP-483): the 4.x profiles (pulsar-4.2, pulsar-4.0) have no topic:// domain and no segment controller; switch the profile to pulsar-5.0".into(),
            ));
        }
        if !self.config.scalable_topics_enabled {
            return Err(Error::Invalid(
                "scalableTopicsEnabled is false: the broker refuses to create scalable topics".into(),
            ));
        }
        Ok(())
    }

    fn scalable_mut(&mut self, raw: &str) -> Result<(String, &mut ScalableTopic), Error> {
        let (name, _, _) = parse_name(raw)?;
        match self.scalable.topics.get_mut(&name) {
            Some(t) => Ok((name, t)),
            None => Err(Error::NoSuchTopic(name)),
        }
    }

    /// Put segment `id` of topic `name` on the ring of its namespace as an
    /// ordinary topic, and look its bundle up.
    fn place_segment(&mut self, name: &str, id: u64, ev: &mut Vec<Event>) -> Option<Placed> {
        let st = self.scalable.topics.get(name)?;
        let seg = st.layout.segments.get(&id)?;
        let topic = st.segment_topic(seg);
        let traffic = st.segment_traffic(seg, self.now_ms);
        let range = seg.range;
        let hash = topic.hash();
        let ns = self.namespaces.get_mut(&st.namespace)?;
        let bundle = ns.bundle_of(hash);
        ns.insert(Topic::new(topic.clone(), hash, false, traffic));
        self.topic_count += 1;
        let bid = BundleId {
            namespace: self.ns_id(&st.namespace),
            range: bundle,
        };
        self.refresh_bundle(&bid);
        self.lookup_bundle(&bid, ev);
        Some(Placed {
            id,
            range,
            topic,
            hash,
            bundle,
        })
    }

    /// Take sealed segment `id`'s topic off its namespace (no new messages;
    /// lbscope models no backlog to drain).
    fn remove_segment(&mut self, name: &str, id: u64) {
        let Some(st) = self.scalable.topics.get_mut(name) else {
            return;
        };
        st.load.remove(&id);
        let Some(seg) = st.layout.segments.get(&id) else {
            return;
        };
        let topic = st.segment_topic(seg);
        let nsname = st.namespace.clone();
        let Some(ns) = self.namespaces.get_mut(&nsname) else {
            return;
        };
        let Some(t) = ns.topics.remove(&topic) else {
            return;
        };
        ns.ring.remove(&(t.hash, t.name.clone()));
        let bundle = ns.bundle_of(t.hash);
        self.topic_count = self.topic_count.saturating_sub(1);
        let bid = BundleId {
            namespace: self.ns_id(&nsname),
            range: bundle,
        };
        self.refresh_bundle(&bid);
    }

    /// Write every active segment's traffic at the current time onto its topic.
    fn refresh_segments(&mut self, name: &str) {
        let Some(st) = self.scalable.topics.get(name) else {
            return;
        };
        let now = self.now_ms;
        let writes: Vec<(TopicName, Traffic)> = st
            .layout
            .active()
            .map(|s| (st.segment_topic(s), st.segment_traffic(s, now)))
            .collect();
        let nsname = st.namespace.clone();
        let id = self.ns_id(&nsname);
        let Some(ns) = self.namespaces.get_mut(&nsname) else {
            return;
        };
        let mut touched = BTreeSet::new();
        for (t, tr) in &writes {
            if let Some(h) = ns.set_traffic(t, *tr) {
                touched.insert(ns.bundle_of(h));
            }
        }
        for r in touched {
            self.refresh_bundle(&BundleId {
                namespace: id.clone(),
                range: r,
            });
        }
    }

    /// Recompute every subscription's assignment; an event for each that changed.
    fn reassign(&mut self, name: &str, ev: &mut Vec<Event>) {
        let Some(st) = self.scalable.topics.get_mut(name) else {
            return;
        };
        let active: Vec<&SegmentInfo> = st.layout.active().collect();
        let mut changed = Vec::new();
        let mut next = BTreeMap::new();
        for (sub, consumers) in &st.subscriptions {
            let a = compute_assignment(&active, consumers);
            if st.assignment.get(sub) != Some(&a) {
                changed.push((sub.clone(), a.clone()));
            }
            next.insert(sub.clone(), a);
        }
        st.assignment = next;
        for (subscription, assignment) in changed {
            ev.push(Event::Scalable(ScalableEvent::Assigned {
                topic: name.to_string(),
                subscription,
                assignment,
            }));
        }
        // Consumer counts per segment feed its traffic's session count.
        self.refresh_segments(name);
    }

    /// `pulsar-admin scalable-topics create TOPIC --segments N`.
    pub(super) fn create_scalable_topic(
        &mut self,
        raw: &str,
        segments: Option<u32>,
    ) -> Result<Vec<Event>, Error> {
        self.scalable_enabled()?;
        let (name, ns, local) = parse_name(raw)?;
        if !self.namespaces.contains_key(&ns) {
            return Err(Error::NoSuchNamespace(ns));
        }
        if self.scalable.topics.contains_key(&name) {
            return Err(Error::TopicExists(name));
        }
        if self.scalable.topics.len() >= MAX_SCALABLE_TOPICS {
            return Err(Error::Invalid(format!(
                "at most {MAX_SCALABLE_TOPICS} scalable topics per simulation"
            )));
        }
        let n = segments.unwrap_or(1);
        if n == 0 || n > MAX_INITIAL_SEGMENTS {
            return Err(Error::Invalid(format!(
                "a scalable topic is created with 1 to {MAX_INITIAL_SEGMENTS} segments (got {n})"
            )));
        }
        self.check_topic_room(u64::from(n))?;
        let layout = SegmentLayout::initial(n, self.now_ms)
            .ok_or_else(|| Error::Invalid(format!("{n} segments do not fit 65536 hashes")))?;
        let salt = self.rng.next_u64();
        let ids: Vec<u64> = layout.segments.keys().copied().collect();
        self.scalable.topics.insert(
            name.clone(),
            ScalableTopic {
                name: name.clone(),
                namespace: ns,
                local,
                layout,
                traffic: Traffic::default(),
                wave: None,
                hot: None,
                subscriptions: BTreeMap::new(),
                load: BTreeMap::new(),
                last_split_ms: None,
                last_merge_ms: None,
                salt,
                assignment: BTreeMap::new(),
            },
        );
        let mut lookups = Vec::new();
        let mut placed = Vec::new();
        for id in ids {
            if let Some(p) = self.place_segment(&name, id, &mut lookups) {
                placed.push(p);
            }
        }
        let mut ev = vec![Event::Scalable(ScalableEvent::Created {
            topic: name,
            segments: placed,
        })];
        ev.extend(lookups);
        Ok(ev)
    }

    /// Give a scalable topic its traffic, wave and hot keys.
    pub(super) fn set_scalable_traffic(
        &mut self,
        raw: &str,
        traffic: Traffic,
        wave: Option<Wave>,
        hot: Option<HotKeys>,
    ) -> Result<Vec<Event>, Error> {
        traffic.check().map_err(Error::Invalid)?;
        if let Some(w) = &wave {
            w.check().map_err(Error::Invalid)?;
        }
        if let Some(h) = &hot {
            if h.start > h.end || !(h.percent.is_finite() && (0.0..=100.0).contains(&h.percent)) {
                return Err(Error::Invalid(
                    "hot keys need start <= end (16-bit hashes) and percent in [0, 100]".into(),
                ));
            }
        }
        let (name, st) = self.scalable_mut(raw)?;
        st.traffic = traffic;
        st.wave = wave;
        st.hot = hot;
        self.refresh_segments(&name);
        Ok(vec![Event::Scalable(ScalableEvent::TrafficSet {
            topic: name,
            traffic,
            wave,
            hot,
        })])
    }

    /// A consumer joins (or leaves) a stream subscription: the assignment is
    /// recomputed and the controller evaluates at once.
    pub(super) fn scalable_consumer(
        &mut self,
        raw: &str,
        subscription: &str,
        consumer: &str,
        joined: bool,
    ) -> Result<Vec<Event>, Error> {
        if subscription.is_empty() || consumer.is_empty() || subscription.len() > 256 || consumer.len() > 256
        {
            return Err(Error::Invalid(
                "subscription and consumer names must be 1 to 256 bytes".into(),
            ));
        }
        let (name, st) = self.scalable_mut(raw)?;
        let count = if joined {
            if !st.subscriptions.contains_key(subscription) && st.subscriptions.len() >= MAX_CONSUMERS {
                return Err(Error::Invalid(format!(
                    "at most {MAX_CONSUMERS} subscriptions per scalable topic"
                )));
            }
            let subs = st.subscriptions.entry(subscription.to_string()).or_default();
            if subs.len() >= MAX_CONSUMERS {
                return Err(Error::Invalid(format!(
                    "at most {MAX_CONSUMERS} consumers per subscription"
                )));
            }
            if !subs.insert(consumer.to_string()) {
                return Err(Error::Invalid(format!(
                    "consumer {consumer} is already in subscription {subscription} of {name}"
                )));
            }
            subs.len()
        } else {
            let Some(subs) = st.subscriptions.get_mut(subscription) else {
                return Err(Error::Invalid(format!(
                    "{name} has no subscription {subscription}"
                )));
            };
            if !subs.remove(consumer) {
                return Err(Error::Invalid(format!(
                    "subscription {subscription} of {name} has no consumer {consumer}"
                )));
            }
            let n = subs.len();
            if n == 0 {
                st.subscriptions.remove(subscription);
                st.assignment.remove(subscription);
            }
            n
        };
        let mut ev = vec![Event::Scalable(ScalableEvent::Consumer {
            topic: name.clone(),
            subscription: subscription.to_string(),
            consumer: consumer.to_string(),
            joined,
            consumers: count as u32,
        })];
        self.reassign(&name, &mut ev);
        self.evaluate(&name, "consumer", &mut ev);
        Ok(ev)
    }

    /// `pulsar-admin scalable-topics split-segment TOPIC --segment-id ID`.
    pub(super) fn split_segment_admin(&mut self, raw: &str, id: u64) -> Result<Vec<Event>, Error> {
        let (name, st) = self.scalable_mut(raw)?;
        let mut probe = st.layout.clone();
        probe
            .split_segment(id, 0)
            .map_err(|e| Error::SplitRefused(e.to_string()))?;
        let mut ev = Vec::new();
        self.split_seg(&name, id, "admin", "admin", &mut ev);
        Ok(ev)
    }

    /// `pulsar-admin scalable-topics merge-segments TOPIC --segment-id-1 A --segment-id-2 B`.
    pub(super) fn merge_segments_admin(&mut self, raw: &str, a: u64, b: u64) -> Result<Vec<Event>, Error> {
        let (name, st) = self.scalable_mut(raw)?;
        let mut probe = st.layout.clone();
        probe
            .merge_segments(a, b, 0)
            .map_err(|e| Error::Invalid(format!("cannot merge: {e}")))?;
        let mut ev = Vec::new();
        self.merge_segs(&name, a, b, "admin", "admin", &mut ev);
        Ok(ev)
    }

    fn split_seg(&mut self, name: &str, id: u64, by: &str, reason: &str, ev: &mut Vec<Event>) {
        let now = self.now_ms;
        let Some(st) = self.scalable.topics.get_mut(name) else {
            return;
        };
        let Some(range) = st.layout.segments.get(&id).map(|s| s.range) else {
            return;
        };
        let Ok((a, b)) = st.layout.split_segment(id, now) else {
            return;
        };
        st.last_split_ms = Some(now);
        let epoch = st.layout.epoch;
        self.remove_segment(name, id);
        let mut lookups = Vec::new();
        let children: Vec<Placed> = [a, b]
            .into_iter()
            .filter_map(|c| self.place_segment(name, c, &mut lookups))
            .collect();
        ev.push(Event::Scalable(ScalableEvent::Split {
            topic: name.to_string(),
            parent: id,
            range,
            children,
            by: by.into(),
            reason: reason.into(),
            epoch,
        }));
        ev.extend(lookups);
        self.reassign(name, ev);
    }

    fn merge_segs(&mut self, name: &str, a: u64, b: u64, by: &str, reason: &str, ev: &mut Vec<Event>) {
        let now = self.now_ms;
        let Some(st) = self.scalable.topics.get_mut(name) else {
            return;
        };
        let Ok(m) = st.layout.merge_segments(a, b, now) else {
            return;
        };
        st.last_merge_ms = Some(now);
        let epoch = st.layout.epoch;
        self.remove_segment(name, a);
        self.remove_segment(name, b);
        let mut lookups = Vec::new();
        if let Some(merged) = self.place_segment(name, m, &mut lookups) {
            ev.push(Event::Scalable(ScalableEvent::Merged {
                topic: name.to_string(),
                parents: (a, b),
                merged,
                by: by.into(),
                reason: reason.into(),
                epoch,
            }));
        }
        ev.extend(lookups);
        self.reassign(name, ev);
    }

    /// The controller's evaluation of one topic, acted upon.
    fn evaluate(&mut self, name: &str, trigger: &str, ev: &mut Vec<Event>) {
        let cfg = AutoScaleConfig::of(&self.config);
        let now = self.now_ms;
        let Some(st) = self.scalable.topics.get(name) else {
            return;
        };
        let order = st.walk_order();
        let (decision, evaluation) = auto_scale::decide(
            &st.layout,
            &order,
            &st.load,
            &st.consumer_counts(),
            &cfg,
            now,
            st.last_split_ms,
            st.last_merge_ms,
        );
        ev.push(Event::Scalable(ScalableEvent::Evaluated {
            topic: name.to_string(),
            trigger: trigger.into(),
            at_ms: now,
            decision: decision.clone(),
            evaluation,
        }));
        match decision {
            Decision::None => {}
            Decision::Split { segment, reason } => self.split_seg(name, segment, "auto", &reason, ev),
            Decision::Merge {
                segment1,
                segment2,
                reason,
            } => self.merge_segs(name, segment1, segment2, "auto", &reason, ev),
        }
    }

    /// Start of a round: each segment's traffic at the new time.
    pub(super) fn scalable_traffic_phase(&mut self) {
        let names: Vec<String> = self.scalable.topics.keys().cloned().collect();
        for n in names {
            self.refresh_segments(&n);
        }
    }

    /// End of a round: the load reporters and the controller, when due.
    pub(super) fn scalable_phase(&mut self, ev: &mut Vec<Event>) {
        if self.scalable.topics.is_empty() {
            return;
        }
        let now = self.now_ms;
        let due = |last: Option<u64>, secs: u64| {
            last.is_none_or(|l| now.saturating_sub(l) >= secs.saturating_mul(1000))
        };
        if due(
            self.scalable.last_report_ms,
            self.config.scalable_topic_load_report_interval_seconds,
        ) {
            self.scalable.last_report_ms = Some(now);
            self.report_segments(ev);
        }
        if due(
            self.scalable.last_eval_ms,
            self.config.scalable_topic_auto_scale_interval_seconds,
        ) {
            self.scalable.last_eval_ms = Some(now);
            let names: Vec<String> = self.scalable.topics.keys().cloned().collect();
            for n in names {
                self.evaluate(&n, "interval", ev);
            }
        }
    }

    /// `SegmentLoadReporter`: each active segment's rates as its broker
    /// measures them, written when they moved materially (or first seen).
    fn report_segments(&mut self, ev: &mut Vec<Event>) {
        let threshold = self.config.scalable_topic_load_report_rate_change_threshold;
        let now = self.now_ms;
        let names: Vec<String> = self.scalable.topics.keys().cloned().collect();
        for name in names {
            let Some(st) = self.scalable.topics.get(&name) else {
                continue;
            };
            let Some(ns) = self.namespaces.get(&st.namespace) else {
                continue;
            };
            let mut written = Vec::new();
            let mut unchanged = 0;
            let mut records = Vec::new();
            for s in st.layout.active() {
                let t = st.segment_topic(s);
                let Some(topic) = ns.topics.get(&t) else {
                    continue;
                };
                // Measured only while the bundle has an owner.
                let bid = BundleId {
                    namespace: self.ns_id(&st.namespace),
                    range: ns.bundle_of(topic.hash),
                };
                if self.bundles.get(&bid).and_then(|b| b.owner()).is_none() {
                    continue;
                }
                let tr = ns.traffic(topic);
                let stats = LoadStats {
                    msg_rate_in: tr.msg_rate_in,
                    bytes_rate_in: tr.throughput_in,
                    msg_rate_out: tr.msg_rate_out,
                    bytes_rate_out: tr.throughput_out,
                };
                let prev = st.load.get(&s.id).map(|l| l.stats);
                if prev.is_none_or(|p| auto_scale::is_material_change(&p, &stats, threshold)) {
                    written.push((s.id, stats, prev));
                    records.push((
                        s.id,
                        LoadSample {
                            stats,
                            modified_ms: now,
                        },
                    ));
                } else {
                    unchanged += 1;
                }
            }
            if let Some(st) = self.scalable.topics.get_mut(&name) {
                st.load.extend(records);
            }
            if !written.is_empty() {
                ev.push(Event::Scalable(ScalableEvent::LoadReported {
                    topic: name,
                    written,
                    unchanged,
                    threshold,
                }));
            }
        }
    }
}

impl ScalableEvent {
    /// The scalable topic it is about.
    pub fn topic(&self) -> &str {
        match self {
            ScalableEvent::Created { topic, .. }
            | ScalableEvent::TrafficSet { topic, .. }
            | ScalableEvent::Consumer { topic, .. }
            | ScalableEvent::Split { topic, .. }
            | ScalableEvent::Merged { topic, .. }
            | ScalableEvent::LoadReported { topic, .. }
            | ScalableEvent::Evaluated { topic, .. }
            | ScalableEvent::Assigned { topic, .. } => topic,
        }
    }
}

/// One active segment as a view shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SegmentView {
    /// Segment id.
    pub id: u64,
    /// Its keys.
    pub range: HashRange,
    /// Its `segment://` topic.
    pub topic: String,
    /// The bundle holding it.
    pub bundle: BundleRange,
    /// The broker owning that bundle.
    pub owner: Option<String>,
    /// The traffic it carries now.
    pub traffic: Traffic,
    /// (subscription, consumer) pairs reading it.
    pub consumers: Vec<(String, String)>,
    /// Its load record, if written.
    pub record: Option<LoadSample>,
}

impl Sim {
    /// The active segments of scalable topic `name` (full name), by hash range.
    pub fn segment_views(&self, name: &str) -> Vec<SegmentView> {
        let Some(st) = self.scalable.topics.get(name) else {
            return Vec::new();
        };
        let Some(ns) = self.namespaces.get(&st.namespace) else {
            return Vec::new();
        };
        let mut v: Vec<SegmentView> = st
            .layout
            .active()
            .map(|s| {
                let topic = st.segment_topic(s);
                let t = ns.topics.get(&topic);
                let hash = t.map_or_else(|| topic.hash(), |t| t.hash);
                let bundle = ns.bundle_of(hash);
                let bid = BundleId {
                    namespace: self.ns_id(&st.namespace),
                    range: bundle,
                };
                SegmentView {
                    id: s.id,
                    range: s.range,
                    topic: topic.to_string(),
                    bundle,
                    owner: self
                        .bundles
                        .get(&bid)
                        .and_then(|b| b.owner())
                        .map(|o| o.0.to_string()),
                    traffic: t.map(|t| ns.traffic(t)).unwrap_or_default(),
                    consumers: st
                        .assignment
                        .iter()
                        .flat_map(|(sub, a)| {
                            a.iter()
                                .filter(|(id, _)| *id == s.id)
                                .map(|(_, c)| (sub.clone(), c.clone()))
                        })
                        .collect(),
                    record: st.load.get(&s.id).copied(),
                }
            })
            .collect();
        v.sort_by_key(|s| (s.range.start, s.id));
        v
    }
}
