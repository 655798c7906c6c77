//! Load reports and the leader's bookkeeping.
//!
//! Each broker computes its `LocalBrokerData` (resource usage from the traffic
//! model or set directly, message totals, per-bundle stats) and publishes it only
//! when Pulsar's `needBrokerDataUpdate` says so: its first report, more than
//! `loadBalancerReportUpdateMaxIntervalMinutes` since the last one, or a change
//! above `loadBalancerReportUpdateThresholdPercentage` in max resource usage
//! (percentage points; weighted by the `loadBalancer*ResourceWeight`s under the
//! modular load manager since PIP-358, unweighted in the extensible reporter),
//! total msg rate, total throughput or bundle count (percent change; from 0 to
//! non-zero counts as infinite).
//!
//! The leader's `updateAll` then folds every published bundle stat into that
//! bundle's short-term (10) and long-term (1000) averages (`BundleData.update`;
//! unknown bundles start from the default data, which the first sample
//! overwrites), drops preallocations the owners now report, and recomputes each
//! broker's time-averaged totals. lbscope runs it once per report phase in which
//! any report was published, and at least every
//! `loadBalancerResourceQuotaUpdateIntervalMinutes` (Pulsar's periodic bundle-data write).

use super::broker::{Broker, SystemResourceUsage};
use super::config::{Config, LoadManager};
use super::index::BundleIndex;
use super::load::{
    BrokerId, BundleData, BundleId, BundleStats, LocalBrokerData, MessageStats, TimeAverageBrokerData,
    Weights,
};
use super::traffic::Traffic;
use super::{Event, Sim};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The resource weights of a config.
pub fn weights(c: &Config) -> Weights {
    Weights {
        cpu: c.load_balancer_cpu_resource_weight,
        memory: c.load_balancer_memory_resource_weight,
        direct_memory: c.load_balancer_direct_memory_resource_weight,
        bandwidth_in: c.load_balancer_bandwidth_in_resource_weight,
        bandwidth_out: c.load_balancer_bandwidth_out_resource_weight,
    }
}

/// `NamespaceBundleStats` of a bundle carrying `t` over `topics` topics.
pub fn bundle_stats(t: &Traffic, topics: u32) -> BundleStats {
    BundleStats {
        msg: MessageStats {
            msg_rate_in: t.msg_rate_in,
            msg_rate_out: t.msg_rate_out,
            msg_throughput_in: t.throughput_in,
            msg_throughput_out: t.throughput_out,
        },
        producer_count: t.producers,
        consumer_count: t.consumers,
        topics,
    }
}

/// Pulsar's `percentChange`.
/// A percent change for narration ("up from 0" when the old value was 0).
fn pct(x: f64) -> String {
    if x.is_infinite() {
        "up from 0".to_string()
    } else {
        format!("{x:.1}%")
    }
}

fn percent_change(old: f64, new: f64) -> f64 {
    if old == 0.0 {
        if new == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        100.0 * ((old - new) / old).abs()
    }
}

/// A broker's current totals (before deciding whether to publish).
pub(crate) struct Snapshot {
    pub usage: SystemResourceUsage,
    pub served: Traffic,
    pub topics: u32,
    pub bundles: usize,
}

/// Every broker's served traffic, for the brokers whose cache is empty (see
/// [`Sim::snapshots`]).
pub(crate) struct Snapshots<'a> {
    served: Option<FxHashMap<&'a str, (Traffic, u32)>>,
}

impl Sim {
    /// What `broker` serves right now, and its resource usage.
    pub(crate) fn snapshot(&self, broker: &BrokerId) -> Option<Snapshot> {
        let b = self.brokers.get(broker)?;
        let (served, topics) = self.sum_served(b);
        Some(Snapshot {
            usage: b.usage(&served, topics),
            served,
            topics,
            bundles: b.bundles.len(),
        })
    }

    /// The traffic and topics of `b`'s bundles, summed in bundle-name order.
    pub(super) fn sum_served(&self, b: &Broker) -> (Traffic, u32) {
        let mut served = Traffic::default();
        let mut topics = 0u32;
        for bid in &b.bundles {
            if let Some(st) = self.bundles.get(bid) {
                served = served.plus(&st.load());
                topics = topics.saturating_add(st.topics);
            }
        }
        (served, topics)
    }

    /// Every broker's served traffic from one walk over the bundles, instead of
    /// a bundle-map lookup per owned bundle per broker. A broker's `bundles` set
    /// is kept equal to the bundles whose owner it is (`transition`), and the
    /// walk adds them in the same (bundle-name) order, so each sum is bit-for-bit
    /// what [`Sim::snapshot`] computes (checked in debug builds).
    fn served_by_owner(&self) -> FxHashMap<&str, (Traffic, u32)> {
        let mut served: FxHashMap<&str, (Traffic, u32)> = FxHashMap::default();
        served.reserve(self.brokers.len());
        for st in self.bundles.values() {
            if let Some(o) = st.owner() {
                let e = served.entry(o.as_str()).or_default();
                e.0 = e.0.plus(&st.load());
                e.1 = e.1.saturating_add(st.topics);
            }
        }
        served
    }

    /// What [`Sim::snapshot_with`] needs for the alive brokers whose served
    /// traffic is not cached: one walk over the bundles when many are not,
    /// nothing otherwise (each such broker then sums its own bundles).
    pub(crate) fn snapshots(&self) -> Snapshots<'_> {
        let missing = self.alive().filter(|b| b.served.0.is_none()).count();
        Snapshots {
            served: (missing * 8 > self.brokers.len()).then(|| self.served_by_owner()),
        }
    }

    /// Fill the served-traffic cache of every broker that lacks it: one walk
    /// over the bundles when many do, a walk over each one's bundles otherwise.
    pub(crate) fn refresh_served(&mut self) {
        self.refresh_served_from(None);
    }

    /// [`Sim::refresh_served`], with every live bundle's load and topic count
    /// by position when the caller has just read them (the pattern pass).
    pub(crate) fn refresh_served_from(&mut self, loads: Option<super::workload::BundleLoads>) {
        let missing = self.brokers.values().filter(|b| b.served.0.is_none()).count();
        if missing == 0 {
            return;
        }
        if missing * 8 > self.brokers.len() {
            // Each bundle's load once, by position (one walk over the bundle
            // map), then each such broker adds its own bundles' in its set's
            // order, which is the map's: the same sums, bit for bit, as
            // [`Sim::sum_served`]. A broker keeps its bundles' positions
            // while neither its set nor the bundles' layout changes, so the
            // set is walked again only then.
            let index = super::index::BundleIndex::new(&self.namespaces, &self.ns_ids, self.bundles.len());
            let stamp = self.layout.of(&index);
            let loads: Vec<(Traffic, u32)> = match loads {
                Some(l) if l.len() == self.bundles.len() => {
                    debug_assert!(
                        l.iter()
                            .zip(self.bundles.values())
                            .all(|(a, st)| *a == (st.load(), st.topics)),
                        "the pattern pass's loads differ from the bundles'"
                    );
                    l
                }
                _ => self.bundles.values().map(|st| (st.load(), st.topics)).collect(),
            };
            for b in self.brokers.values_mut().filter(|b| b.served.0.is_none()) {
                let fresh = || index.positions(b.bundles.iter());
                if b.positions.0.as_ref().is_none_or(|(s, _)| *s != stamp) {
                    b.positions.0 = Some((stamp, fresh()));
                }
                let Some((_, at)) = &b.positions.0 else {
                    continue;
                };
                debug_assert_eq!(*at, fresh(), "broker {}: kept bundle positions out of date", b.id);
                let mut served = Traffic::default();
                let mut topics = 0u32;
                for (load, n) in at.iter().filter_map(|&i| loads.get(i as usize)) {
                    served = served.plus(load);
                    topics = topics.saturating_add(*n);
                }
                b.served.0 = Some((served, topics));
            }
        } else {
            let sums: Vec<(Traffic, u32)> = self
                .brokers
                .values()
                .filter(|b| b.served.0.is_none())
                .map(|b| self.sum_served(b))
                .collect();
            let empty = self.brokers.values_mut().filter(|b| b.served.0.is_none());
            for (b, s) in empty.zip(sums) {
                b.served.0 = Some(s);
            }
        }
    }

    /// Forget `broker`'s served traffic (a bundle joined or left it, or the load
    /// of one of its bundles changed).
    pub(crate) fn served_changed(&mut self, broker: &BrokerId) {
        if let Some(b) = self.brokers.get_mut(broker) {
            b.served.0 = None;
        }
    }

    /// `b`'s snapshot: its cached served traffic, or the one in `all`.
    pub(crate) fn snapshot_with(&self, all: &Snapshots<'_>, b: &Broker) -> Snapshot {
        let (served, topics) = match (b.served.0, &all.served) {
            (Some(s), _) => s,
            (None, Some(m)) => m.get(b.id.as_str()).copied().unwrap_or_default(),
            (None, None) => self.sum_served(b),
        };
        #[cfg(debug_assertions)]
        {
            debug_assert_eq!(
                self.sum_served(b),
                (served, topics),
                "broker {}: served-traffic cache or bundle set out of step with the bundles",
                b.id
            );
        }
        Snapshot {
            usage: b.usage(&served, topics),
            served,
            topics,
            bundles: b.bundles.len(),
        }
    }

    /// The bundle stats `broker` would report now.
    fn reported_bundles(&self, broker: &BrokerId) -> Vec<(BundleId, BundleStats)> {
        self.brokers.get(broker).map_or_else(Vec::new, |b| {
            b.bundles
                .iter()
                .filter_map(|bid| {
                    let st = self.bundles.get(bid)?;
                    Some((bid.clone(), bundle_stats(&st.load(), st.topics)))
                })
                .collect()
        })
    }

    /// [`Sim::reported_bundles`] of every broker in `ids`, from one walk over
    /// the bundles (each broker's `bundles` set is the bundles it owns, so the
    /// lists come out the same, in the same order; checked in debug builds).
    /// `ids` come with their bundle counts (the lists' sizes).
    fn reported_bundles_of(&self, ids: &[(&BrokerId, usize)]) -> Vec<Vec<(BundleId, BundleStats)>> {
        let at: FxHashMap<&str, usize> = ids.iter().enumerate().map(|(i, b)| (b.0.as_str(), i)).collect();
        let mut lists: Vec<Vec<(BundleId, BundleStats)>> =
            ids.iter().map(|b| Vec::with_capacity(b.1)).collect();
        for (bid, st) in &self.bundles {
            if let Some(&i) = st.owner().and_then(|o| at.get(o.as_str())) {
                lists[i].push((bid.clone(), bundle_stats(&st.load(), st.topics)));
            }
        }
        debug_assert!(
            ids.iter()
                .zip(&lists)
                .all(|(b, l)| self.reported_bundles(b.0) == *l),
            "bundle sets out of step with the bundles' owners"
        );
        lists
    }

    /// The `LocalBrokerData` `broker` would publish now.
    pub(crate) fn local_data(&self, broker: &BrokerId, snap: &Snapshot) -> LocalBrokerData {
        // Built from the sorted list in one go (no per-key tree descent).
        local_data_with(snap, self.reported_bundles(broker).into_iter().collect())
    }
}

/// Make `local` the report of `snap` and `list` (sorted), reusing its bundle
/// map when it lists the same bundles (a broker's bundles rarely change
/// between two reports).
fn store_local(local: &mut LocalBrokerData, snap: &Snapshot, list: Vec<(BundleId, BundleStats)>) {
    let same = local.bundles.len() == list.len() && local.bundles.keys().zip(&list).all(|(k, (b, _))| k == b);
    let bundles = if same {
        let mut map = std::mem::take(&mut local.bundles);
        for (v, (_, s)) in map.values_mut().zip(list) {
            *v = s;
        }
        map
    } else {
        list.into_iter().collect()
    };
    *local = local_data_with(snap, bundles);
}

/// The `LocalBrokerData` of a broker with this snapshot and these bundle stats.
fn local_data_with(snap: &Snapshot, bundles: BTreeMap<BundleId, BundleStats>) -> LocalBrokerData {
    LocalBrokerData {
        msg: bundle_stats(&snap.served, 0).msg,
        bundles,
        num_topics: snap.topics,
        num_producers: snap.served.producers,
        num_consumers: snap.served.consumers,
        ..LocalBrokerData::of_usage(&snap.usage)
    }
}

/// Why a broker publishes its report now (Pulsar's `needBrokerDataUpdate`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ReportDue {
    /// It has never reported, or the leader holds no data for it.
    First,
    /// More than `loadBalancerReportUpdateMaxIntervalMinutes` passed (minutes since).
    Interval(u64),
    /// The largest change passed `loadBalancerReportUpdateThresholdPercentage`.
    Change,
}

/// A broker's report as the leader holds it, against what the broker serves
/// now: the numbers `needBrokerDataUpdate` compares, and whether it publishes
/// at the next report phase. A query: nothing changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportCheck {
    /// When it last published (simulated ms), if ever.
    pub last_report_ms: Option<u64>,
    /// Max resource usage in its last published report, % (weighted under the
    /// modular load manager, as compared).
    pub reported_usage: Option<f64>,
    /// Max resource usage now, %, measured the same way.
    pub live_usage: f64,
    /// Change of max usage since the report, percentage points.
    pub usage_change: f64,
    /// Percent change of total msg rate (infinite from 0).
    pub rate_change: f64,
    /// Percent change of total throughput.
    pub throughput_change: f64,
    /// Percent change of the bundle count.
    pub bundles_change: f64,
    /// `loadBalancerReportUpdateThresholdPercentage`.
    pub threshold: f64,
    /// Simulated ms since the last report.
    pub since_ms: u64,
    /// `loadBalancerReportUpdateMaxIntervalMinutes` in ms.
    pub max_interval_ms: u64,
    /// Whether (and why) it publishes at the next report phase.
    pub due: Option<ReportDue>,
}

impl ReportCheck {
    /// The largest of the four changes (what is compared to the threshold).
    pub fn max_change(&self) -> f64 {
        self.usage_change
            .max(self.rate_change)
            .max(self.throughput_change)
            .max(self.bundles_change)
    }

    /// Whether a max usage of `usage` % (the rest unchanged) would publish.
    pub fn would_publish_at(&self, usage: f64) -> bool {
        self.due.is_some()
            || self.reported_usage.is_none()
            || (usage - self.reported_usage.unwrap_or_default()).abs() > self.threshold
            || self.rate_change > self.threshold
            || self.throughput_change > self.threshold
            || self.bundles_change > self.threshold
    }

    /// Why it publishes, in words, as the report event says it.
    fn reason(&self) -> String {
        match self.due {
            None => "no change above the threshold".to_string(),
            Some(ReportDue::First) => "first report".to_string(),
            Some(ReportDue::Interval(m)) => format!("{m} min since last report"),
            Some(ReportDue::Change) => format!(
                "change {} > {}% (usage {:.1} pts, msg rate {}, throughput {}, bundles {})",
                pct(self.max_change()),
                self.threshold,
                self.usage_change,
                pct(self.rate_change),
                pct(self.throughput_change),
                pct(self.bundles_change)
            ),
        }
    }
}

impl Sim {
    /// Publish `broker`'s report now (e.g. when it starts).
    pub(crate) fn publish_report(&mut self, broker: &BrokerId) {
        if let Some(snap) = self.snapshot(broker) {
            let local = self.local_data(broker, &snap);
            let d = self.load.brokers.entry(broker.clone()).or_default();
            d.local = local;
            d.reported_at_ms = self.now_ms;
            if let Some(b) = self.brokers.get_mut(broker) {
                b.last_report_ms = Some(self.now_ms);
            }
        }
    }

    /// `needBrokerDataUpdate` for broker `b`, whose last published data is `prev`.
    fn report_check(
        &self,
        b: &Broker,
        prev: Option<&LocalBrokerData>,
        snap: &Snapshot,
        weighted_usage: bool,
        w: &Weights,
    ) -> ReportCheck {
        let max_usage = |d: &LocalBrokerData| {
            100.0
                * if weighted_usage {
                    d.max_resource_usage_with_weight(w)
                } else {
                    d.max_resource_usage()
                }
        };
        let live = LocalBrokerData::of_usage(&snap.usage);
        let live_usage = max_usage(&live);
        let threshold = self.config.load_balancer_report_update_threshold_percentage;
        let max_interval_ms =
            u64::from(self.config.load_balancer_report_update_max_interval_minutes) * 60_000;
        let since_ms = b.last_report_ms.map_or(0, |t| self.now_ms.saturating_sub(t));
        let mut c = ReportCheck {
            last_report_ms: b.last_report_ms,
            reported_usage: prev.map(max_usage),
            live_usage,
            usage_change: 0.0,
            rate_change: 0.0,
            throughput_change: 0.0,
            bundles_change: 0.0,
            threshold,
            since_ms,
            max_interval_ms,
            due: None,
        };
        let (Some(_), Some(p)) = (b.last_report_ms, prev) else {
            c.due = Some(ReportDue::First);
            return c;
        };
        c.usage_change = (max_usage(p) - live_usage).abs();
        c.rate_change = percent_change(p.msg.total_rate(), snap.served.msg_rate());
        c.throughput_change = percent_change(p.msg.total_throughput(), snap.served.throughput());
        c.bundles_change = percent_change(p.bundles.len() as f64, snap.bundles as f64);
        c.due = if since_ms > max_interval_ms {
            Some(ReportDue::Interval(since_ms / 60_000))
        } else if c.max_change() > threshold {
            Some(ReportDue::Change)
        } else {
            None
        };
        c
    }

    /// [`ReportCheck`] of alive broker `b` with snapshot `snap` (for drawing).
    pub(crate) fn report_check_of(&self, b: &Broker, snap: &Snapshot) -> ReportCheck {
        let weighted_usage = self.config.load_manager_class_name == LoadManager::Modular;
        let prev = self.load.brokers.get(&b.id).map(|d| &d.local);
        self.report_check(b, prev, snap, weighted_usage, &weights(&self.config))
    }

    /// Phase: every alive broker decides whether to publish; the leader samples.
    /// `force_sample` makes the leader fold a sample even when nothing was published.
    pub fn report_phase(&mut self, force_sample: bool) -> Vec<Event> {
        let w = weights(&self.config);
        // ModularLoadManagerImpl.needBrokerDataUpdate compares the weighted max
        // usage (PIP-358, in every 4.x and 5.0 release); the extensible
        // BrokerLoadDataReporter still compares the unweighted one.
        let weighted_usage = self.config.load_manager_class_name == LoadManager::Modular;
        let mut published = Vec::new();
        let mut skipped = 0;
        self.refresh_served();
        // Decide for every alive broker (name order) first, walking the leader's
        // broker data alongside (both maps are sorted by name); a decision
        // depends only on the broker's own state.
        let mut publish: Vec<(BrokerId, Snapshot, String)> = Vec::new();
        {
            let all = self.snapshots();
            let mut data = self.load.brokers.iter().peekable();
            for b in self.alive() {
                while data.next_if(|(k, _)| *k < &b.id).is_some() {}
                let prev = data.next_if(|(k, _)| *k == &b.id).map(|(_, d)| &d.local);
                let snap = self.snapshot_with(&all, b);
                let check = self.report_check(b, prev, &snap, weighted_usage, &w);
                let why = check.due.map(|_| check.reason());
                match why {
                    Some(why) => publish.push((b.id.clone(), snap, why)),
                    None => skipped += 1,
                }
            }
        }
        // What each publishing broker reports: one walk over the bundles when
        // many publish (every broker does at least each 15 minutes).
        let lists = if publish.len() * 8 > self.brokers.len() {
            let ids: Vec<(&BrokerId, usize)> = publish.iter().map(|p| (&p.0, p.1.bundles)).collect();
            self.reported_bundles_of(&ids)
        } else {
            publish.iter().map(|p| self.reported_bundles(&p.0)).collect()
        };
        // Store the reports, walking both broker maps (sorted by name, as
        // `publish` is) instead of looking each broker up.
        let now = self.now_ms;
        let mut brokers = self.brokers.values_mut();
        let mut data = self.load.brokers.iter_mut().peekable();
        let mut first = Vec::new();
        for ((id, snap, why), list) in publish.into_iter().zip(lists) {
            if let Some(b) = brokers.by_ref().find(|b| b.id == id) {
                b.last_report_ms = Some(now);
            }
            while data.next_if(|(k, _)| **k < id).is_some() {}
            let u = match data.next_if(|(k, _)| **k == id) {
                Some((_, d)) => {
                    store_local(&mut d.local, &snap, list);
                    d.reported_at_ms = now;
                    d.local.max_resource_usage_with_weight(&w)
                }
                None => {
                    let local = local_data_with(&snap, list.into_iter().collect());
                    let u = local.max_resource_usage_with_weight(&w);
                    first.push((id.clone(), local));
                    u
                }
            };
            published.push((id, why, u * 100.0));
        }
        for (id, local) in first {
            let d = self.load.brokers.entry(id).or_default();
            d.local = local;
            d.reported_at_ms = now;
        }
        if self.config.load_manager_class_name == LoadManager::Extensible {
            self.refresh_top_bundles();
        }
        let quota = u64::from(self.config.load_balancer_resource_quota_update_interval_minutes) * 60_000;
        let sampled =
            !published.is_empty() || force_sample || self.now_ms.saturating_sub(self.last_sample_ms) >= quota;
        if sampled && self.leader.is_some() {
            self.update_bundle_data();
            self.last_sample_ms = self.now_ms;
        }
        if !published.is_empty() {
            // The extensible strategies keep moving averages of each published report.
            self.shedder.observe_reports(&self.load, &self.effective);
            self.placer.observe_reports(&self.load, &self.effective);
        }
        vec![Event::Reported {
            published,
            skipped,
            sampled: sampled && self.leader.is_some(),
        }]
    }

    /// Every alive broker with load data refreshes the stats its top-bundles
    /// report is cut from: `TopBundleLoadDataReporter` pushes whenever the
    /// broker's stats were updated (each sample), with no change threshold.
    fn refresh_top_bundles(&mut self) {
        let ids: Vec<(BrokerId, usize)> = self
            .alive()
            .filter(|b| self.load.brokers.contains_key(&b.id))
            .map(|b| (b.id.clone(), b.bundles.len()))
            .collect();
        let refs: Vec<(&BrokerId, usize)> = ids.iter().map(|(b, n)| (b, *n)).collect();
        let lists = if refs.len() * 8 > self.brokers.len() {
            self.reported_bundles_of(&refs)
        } else {
            refs.iter().map(|b| self.reported_bundles(b.0)).collect()
        };
        for ((id, _), list) in ids.into_iter().zip(lists) {
            if let Some(d) = self.load.brokers.get_mut(&id) {
                d.top_bundles = Some(list.into_iter().collect());
            }
        }
    }

    /// The leader's `updateBundleData`.
    ///
    /// Every reported bundle is looked up by position ([`BundleIndex`]);
    /// bundles seen for the first time collect in `fresh` (where a second report
    /// of the same new bundle finds it, as it would find it in the map) and
    /// join the map after the pass.
    fn update_bundle_data(&mut self) {
        self.long_term.clear();
        let index = BundleIndex::new(&self.namespaces, &self.ns_ids, self.bundles.len());
        let load = &mut self.load;
        let mut fresh: BTreeMap<BundleId, BundleData> = BTreeMap::new();
        {
            let mut data = index.place(load.bundles.iter_mut());
            for bd in load.brokers.values_mut() {
                for (bid, stats) in &bd.local.bundles {
                    match data.get_mut(bid) {
                        Some(d) => d.update(*stats),
                        None => fresh
                            .entry(bid.clone())
                            .or_insert_with(BundleData::default_for_new_bundle)
                            .update(*stats),
                    }
                }
                if !bd.preallocated.is_empty() {
                    let reported = &bd.local.bundles;
                    bd.preallocated.retain(|b, _| !reported.contains_key(b));
                }
            }
        }
        load.bundles.extend(fresh);
        let data = index.place(load.bundles.iter());
        for bd in load.brokers.values_mut() {
            let mut ta = TimeAverageBrokerData::default();
            for bid in bd.local.bundles.keys() {
                let d = data
                    .get(bid)
                    .map_or_else(BundleData::default_for_new_bundle, |d| **d);
                add(&mut ta.short_term, &d.short_term.msg);
                add(&mut ta.long_term, &d.long_term.msg);
            }
            bd.time_average = ta;
        }
    }
}

fn add(a: &mut MessageStats, b: &MessageStats) {
    a.msg_rate_in += b.msg_rate_in;
    a.msg_rate_out += b.msg_rate_out;
    a.msg_throughput_in += b.msg_throughput_in;
    a.msg_throughput_out += b.msg_throughput_out;
}

#[cfg(test)]
mod tests {
    use super::super::workload::testing::{add_namespace, jittered_cluster};
    use super::super::{Action, Config};
    use super::*;
    use crate::engine::Engine;

    /// Each broker's served traffic as its own bundles sum it.
    fn served_hold(s: &Sim, when: &str) {
        for b in s.brokers.values() {
            assert_eq!(
                b.served.0.unwrap_or_else(|| s.sum_served(b)),
                s.sum_served(b),
                "{when}: {}",
                b.id
            );
            if let Some((_, at)) = &b.positions.0 {
                let index = super::super::index::BundleIndex::new(&s.namespaces, &s.ns_ids, s.bundles.len());
                assert_eq!(
                    *at,
                    index.positions(b.bundles.iter()),
                    "{when}: {}'s kept positions",
                    b.id
                );
            }
        }
    }

    /// The brokers keep their bundles' positions between rounds; a namespace
    /// created before the others (every position after it moves), a split and
    /// a crashed broker bring them up to date, and the sums stay each
    /// broker's own bundles'.
    #[test]
    fn kept_bundle_positions_follow_new_namespaces_splits_and_moves() {
        let mut s = jittered_cluster(
            Config::default(),
            5,
            9,
            &[("t/m", 16, 300, 40.0), ("t/z", 8, 300, 40.0)],
            20.0,
        );
        let step = |s: &mut Sim| {
            s.apply(&Action::Step).unwrap();
        };
        for round in 0..3 {
            step(&mut s);
            served_hold(&s, &format!("round {round}"));
        }
        let kept = s.brokers.values().filter(|b| b.positions.0.is_some()).count();
        assert!(
            kept > 0,
            "the brokers keep their positions after patterned rounds"
        );
        // A namespace sorting first: every position moves by its bundle count.
        add_namespace(&mut s, "a/a", 4, "y", 50, 10.0);
        step(&mut s);
        served_hold(&s, "after a namespace sorting first");
        s.apply(&Action::SplitBundle {
            namespace: "t/m".into(),
            bundle: "LARGEST".into(),
            algorithm: None,
            boundaries: Vec::new(),
            unload: true,
        })
        .unwrap();
        step(&mut s);
        served_hold(&s, "after a split");
        s.apply(&Action::CrashBroker { broker: "b3".into() }).unwrap();
        for round in 0..2 {
            step(&mut s);
            served_hold(&s, &format!("round {round} after a crash"));
        }
    }

    #[test]
    fn percent_change_as_pulsar() {
        assert_eq!(percent_change(0.0, 0.0), 0.0);
        assert!(percent_change(0.0, 1.0).is_infinite());
        assert!((percent_change(100.0, 110.0) - 10.0).abs() < 1e-9);
        assert!((percent_change(100.0, 50.0) - 50.0).abs() < 1e-12);
    }
}
