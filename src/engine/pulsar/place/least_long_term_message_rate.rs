//! LeastLongTermMessageRate (the 4.x default placement): a broker's score is its
//! long-term message rate (in + out, summed over its bundles' long-term averages)
//! plus the long-term rates of bundles preallocated to it since its last report;
//! a broker whose weighted max resource usage (`getMaxResourceUsageWithWeight`)
//! exceeds `loadBalancerBrokerOverloadedThresholdPercentage` scores +∞. The least
//! score wins; ties (and the all-overloaded case, where every candidate ties at
//! +∞) are broken with the RNG over the candidates in name order.
//!
//! A candidate without load data (its first report has not reached the leader)
//! makes Pulsar's `getScore` throw, so the whole selection fails; lbscope returns
//! no broker and says why ([`PlaceEvent::MissingLoadData`]). The modular load
//! manager only lets such a broker through when an isolation policy names it.

use super::super::config::Config;
use super::super::load::{BrokerData, BrokerId, BundleId, LoadData};
use super::super::shed::shared::weights;
use super::PlaceEvent;
use crate::engine::SimRng;

/// The score (`None` = +∞, overloaded).
pub fn score(d: &BrokerData, conf: &Config) -> Option<f64> {
    let threshold = conf.load_balancer_broker_overloaded_threshold_percentage / 100.0;
    if d.local.max_resource_usage_with_weight(&weights(conf)) > threshold {
        return None;
    }
    Some(d.preallocated.long_term_rate() + d.time_average.long_term.total_rate())
}

/// How many scores a [`PlaceEvent::LongTermRates`] keeps: the lowest (the
/// others are counted), so an event stays small on a large cluster.
pub const TOP_SCORES: usize = 5;

/// The `k` lowest of `scores` (`None` = +∞; equal scores by name), in name
/// order, with their brokers' names. `cands` is in name order and `scores[i]`
/// is `cands[i]`'s, so a position breaks a tie as the name would.
fn lowest(cands: &[&BrokerId], scores: &[Option<f64>], k: usize) -> Vec<(BrokerId, Option<f64>)> {
    lowest_positions(scores.iter().copied(), k)
        .into_iter()
        .map(|i| (cands[i].clone(), scores[i]))
        .collect()
}

/// The positions of the `k` lowest of `scores` (`None` = +∞; equal scores by
/// position), ascending: they are kept in a small sorted buffer, so no sort of
/// every score and no copy of any name.
fn lowest_positions(scores: impl Iterator<Item = Option<f64>>, k: usize) -> Vec<usize> {
    let mut low = Lowest::default();
    for (i, s) in scores.enumerate() {
        low.offer(i, s, k);
    }
    low.positions()
}

/// [`lowest_positions`] fed one score at a time (a caller that walks the
/// candidates for other reasons as well).
#[derive(Debug, Default)]
pub(crate) struct Lowest {
    /// The lowest so far, by score then position.
    top: Vec<(f64, usize)>,
}

impl Lowest {
    /// Forget every score offered.
    pub(crate) fn clear(&mut self) {
        self.top.clear();
    }

    /// Offer the score of position `i` (positions come in ascending order).
    #[inline]
    pub(crate) fn offer(&mut self, i: usize, s: Option<f64>, k: usize) {
        let key = s.unwrap_or(f64::INFINITY);
        // Positions already kept are lower: an equal score goes after them, so
        // a score no lower than the k-th kept one is not kept.
        if self.top.len() >= k && self.top.last().is_none_or(|&(kj, _)| kj.total_cmp(&key).is_le()) {
            return;
        }
        let at = self.top.partition_point(|&(kj, _)| kj.total_cmp(&key).is_le());
        self.top.insert(at, (key, i));
        self.top.truncate(k);
    }

    /// The kept positions, ascending.
    pub(crate) fn positions(&self) -> Vec<usize> {
        let mut at: Vec<usize> = self.top.iter().map(|&(_, i)| i).collect();
        at.sort_unstable();
        at
    }
}

/// The positions of the least of `scores` (`None` = +∞) into `best`, as
/// Pulsar's loop finds them: a lower score starts the list again, an equal one
/// joins it (so a NaN score does neither).
fn least_positions(scores: impl Iterator<Item = Option<f64>>, best: &mut Vec<usize>) {
    let mut min = Least::new(best);
    for (i, s) in scores.enumerate() {
        min.offer(i, s);
    }
}

/// [`least_positions`] fed one score at a time, into the caller's buffer.
pub(crate) struct Least<'a> {
    min: f64,
    best: &'a mut Vec<usize>,
}

impl<'a> Least<'a> {
    /// Start over in `best` (emptied).
    pub(crate) fn new(best: &'a mut Vec<usize>) -> Least<'a> {
        best.clear();
        Least {
            min: f64::INFINITY,
            best,
        }
    }

    /// Offer the score of position `i` (positions come in ascending order).
    #[inline]
    pub(crate) fn offer(&mut self, i: usize, s: Option<f64>) {
        let v = s.unwrap_or(f64::INFINITY);
        if v < self.min {
            self.best.clear();
            self.best.push(i);
            self.min = v;
        } else if v == self.min {
            self.best.push(i);
        }
    }
}

/// Pick a broker (`known`: each candidate's load data, when already read).
pub fn select(
    cands: &[&BrokerId],
    known: Option<&[Option<&BrokerData>]>,
    bundle: &BundleId,
    load: &LoadData,
    conf: &Config,
    rng: &mut SimRng,
    events: &mut Vec<PlaceEvent>,
) -> Option<BrokerId> {
    let data = match known {
        Some(d) if d.len() == cands.len() => d.to_vec(),
        _ => super::join_sorted(cands, &load.brokers),
    };
    if data.iter().any(Option::is_none) {
        events.push(PlaceEvent::MissingLoadData {
            strategy: "LeastLongTermMessageRate".into(),
            bundle: bundle.clone(),
            brokers: cands
                .iter()
                .zip(&data)
                .filter(|(_, d)| d.is_none())
                .map(|(b, _)| (*b).clone())
                .collect(),
        });
        return None;
    }
    let scores: Vec<Option<f64>> = data.iter().flatten().map(|d| score(d, conf)).collect();
    let mut at = Vec::new();
    least_positions(scores.iter().copied(), &mut at);
    let mut best: Vec<&BrokerId> = at.into_iter().map(|i| cands[i]).collect();
    if best.is_empty() {
        best = cands.to_vec();
    }
    let candidates = scores.len();
    let best_count = best.len();
    events.push(PlaceEvent::LongTermRates {
        bundle: bundle.clone(),
        scores: lowest(cands, &scores, TOP_SCORES),
        candidates,
        best: best
            .iter()
            .take(super::MAX_LISTED)
            .map(|b| (*b).clone())
            .collect(),
        best_count,
    });
    if best.is_empty() {
        return None;
    }
    Some(best[rng.below(best.len())].clone())
}

/// `org.apache.pulsar.broker.loadbalance.impl.LeastLongTermMessageRate` (no history).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeastLongTermMessageRate;

impl LeastLongTermMessageRate {
    /// What the registry says of it.
    pub fn about() -> crate::engine::strategy::About {
        crate::engine::strategy::About {
            upstream: "org.apache.pulsar.broker.loadbalance.impl.LeastLongTermMessageRate",
            summary: "Scores each candidate by its long-term message rate (preallocated bundles included, overloaded brokers +∞) and picks at random among the least.",
            file: file!(),
        }
    }
}

impl super::BrokerSelectionStrategy for LeastLongTermMessageRate {
    fn select_broker(&mut self, cx: &mut super::PlaceContext<'_>) -> Option<BrokerId> {
        select(cx.cands, cx.data, cx.bundle, cx.load, cx.conf, cx.rng, cx.events)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::shed::fixture::*;
    use super::super::{PlaceEvent, Placer};
    use super::*;

    fn conf() -> Config {
        Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
    }

    /// On a large cluster the event keeps the five lowest scores and counts the
    /// rest (the choice itself still reads every candidate).
    #[test]
    fn long_term_rates_event_keeps_the_lowest_scores_and_the_count() {
        let mut fx = Fx::new();
        for i in 0..12u32 {
            fx = fx.broker(&format!("broker-{i:02}"), 10.0);
        }
        for i in 0..12u32 {
            fx = fx.bundle(&format!("broker-{i:02}"), i, 100.0 * f64::from(12 - i), MIB);
        }
        let cands: Vec<BrokerId> = (0..12u32).map(|i| br(&format!("broker-{i:02}"))).collect();
        let (b, ev) = Placer::default().select_broker(&cands, &bid(99), &fx.load, &conf(), &mut rng());
        assert_eq!(b, Some(br("broker-11")));
        let Some(PlaceEvent::LongTermRates {
            scores,
            candidates,
            best,
            best_count,
            ..
        }) = ev.iter().find(|e| matches!(e, PlaceEvent::LongTermRates { .. }))
        else {
            panic!("no LongTermRates event: {ev:?}");
        };
        assert_eq!(*candidates, 12);
        let names: Vec<&str> = scores.iter().map(|(b, _)| b.as_str()).collect();
        assert_eq!(
            names,
            ["broker-07", "broker-08", "broker-09", "broker-10", "broker-11"]
        );
        assert_eq!(scores[4].1, Some(100.0));
        assert_eq!((best.len(), *best_count), (1, 1));
        let text = crate::engine::Narrate::narrate(
            ev.iter()
                .find(|e| matches!(e, PlaceEvent::LongTermRates { .. }))
                .unwrap(),
        );
        assert!(text.contains("the 5 lowest of 12 candidates"), "{text}");
    }

    /// The kept scores are those a stable sort by (score, name) keeps, in name
    /// order, with many ties and overloaded (`None`) brokers among them.
    #[test]
    fn lowest_keeps_what_sorting_by_score_then_name_keeps() {
        let mut r = rng();
        for round in 0..200 {
            let n = 1 + r.below(40);
            let names: Vec<BrokerId> = (0..n).map(|i| br(&format!("broker-{i:03}"))).collect();
            let cands: Vec<&BrokerId> = names.iter().collect();
            let scores: Vec<Option<f64>> = (0..n)
                .map(|_| match r.below(5) {
                    0 => None,
                    k => Some(f64::from(k as u32) * 10.0),
                })
                .collect();
            let k = r.below(8);
            let mut want: Vec<(BrokerId, Option<f64>)> =
                names.iter().cloned().zip(scores.iter().copied()).collect();
            if want.len() > k {
                let key = |s: &Option<f64>| s.unwrap_or(f64::INFINITY);
                want.sort_by(|a, b| key(&a.1).total_cmp(&key(&b.1)).then_with(|| a.0.cmp(&b.0)));
                want.truncate(k);
                want.sort_by(|a, b| a.0.cmp(&b.0));
            }
            assert_eq!(lowest(&cands, &scores, k), want, "round {round}: {scores:?}, k {k}");
        }
    }

    #[test]
    fn least_long_term_message_rate_picks_least_and_skips_overloaded() {
        let fx = Fx::new()
            .broker("broker-1", 90.0) // overloaded: +∞ despite no traffic
            .broker("broker-2", 10.0)
            .broker("broker-3", 10.0)
            .bundle("broker-2", 0, 300.0, MIB)
            .bundle("broker-3", 1, 200.0, MIB);
        let cands = vec![br("broker-3"), br("broker-1"), br("broker-2")];
        let (b, ev) = Placer::default().select_broker(&cands, &bid(9), &fx.load, &conf(), &mut rng());
        assert_eq!(b, Some(br("broker-3")));
        assert!(ev
            .iter()
            .any(|e| matches!(e, PlaceEvent::LongTermRates { scores, .. }
            if scores[0] == (br("broker-1"), None) && scores[2] == (br("broker-3"), Some(200.0)))));
        // Preallocated bundles count: give broker-3 a 150 msg/s preallocation.
        let mut fx2 = fx.clone();
        let pre = fx2.load.bundles[&bid(1)];
        fx2.load
            .brokers
            .get_mut(&br("broker-3"))
            .unwrap()
            .preallocated
            .insert(bid(5), pre);
        let (b, _) = Placer::default().select_broker(&cands, &bid(9), &fx2.load, &conf(), &mut rng());
        assert_eq!(b, Some(br("broker-2")));
    }

    #[test]
    fn least_long_term_message_rate_ties_use_the_rng_deterministically() {
        let fx = Fx::new()
            .broker("broker-1", 10.0)
            .broker("broker-2", 10.0)
            .broker("broker-3", 10.0);
        let cands = vec![br("broker-1"), br("broker-2"), br("broker-3")];
        let pick = |seed: u64| {
            let mut r = crate::engine::SimRng::new(seed);
            (0..20)
                .map(|_| {
                    Placer::default()
                        .select_broker(&cands, &bid(0), &fx.load, &conf(), &mut r)
                        .0
                        .unwrap()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(7), pick(7));
        let picks = pick(7);
        // All three tie at 0 msg/s: the RNG spreads the picks.
        assert!(cands.iter().all(|c| picks.contains(c)), "{picks:?}");
        // Everyone overloaded: random among all candidates.
        let hot = Fx::new().broker("broker-1", 99.0).broker("broker-2", 99.0);
        let (b, ev) = Placer::default().select_broker(&cands[..2], &bid(0), &hot.load, &conf(), &mut rng());
        assert!(b.is_some());
        assert!(ev
            .iter()
            .any(|e| matches!(e, PlaceEvent::LongTermRates { best, .. } if best.len() == 2)));
        // No candidate.
        let (b, _) = Placer::default().select_broker(&[], &bid(0), &hot.load, &conf(), &mut rng());
        assert_eq!(b, None);
    }

    /// The overload check uses the weighted max usage (`getMaxResourceUsageWithWeight`,
    /// derived by reading `LeastLongTermMessageRate.getScore`): at 90 % CPU with
    /// `loadBalancerCPUResourceWeight` 0.5 a broker counts 45 % and is not +∞.
    /// A candidate without load data fails the selection (`getScore` throws).
    #[test]
    fn least_long_term_message_rate_weighted_overload_and_missing_data() {
        let fx = Fx::new()
            .broker("broker-1", 90.0)
            .broker("broker-2", 10.0)
            .bundle("broker-2", 0, 300.0, MIB);
        let cands = vec![br("broker-1"), br("broker-2")];
        let half = Config {
            load_balancer_cpu_resource_weight: 0.5,
            ..conf()
        };
        let (b, ev) = Placer::default().select_broker(&cands, &bid(9), &fx.load, &half, &mut rng());
        assert_eq!(b, Some(br("broker-1")));
        assert!(ev
            .iter()
            .any(|e| matches!(e, PlaceEvent::LongTermRates { scores, .. } if scores[0] == (br("broker-1"), Some(0.0)))));
        let (b, ev) = Placer::default().select_broker(
            &[br("broker-2"), br("broker-9")],
            &bid(9),
            &fx.load,
            &conf(),
            &mut rng(),
        );
        assert_eq!(b, None);
        assert!(ev.iter().any(|e| matches!(e, PlaceEvent::MissingLoadData { .. })));
    }
}

#[cfg(test)]
mod least_long_term_message_rate_test {
    use super::super::super::config::Config;
    use super::super::super::load::{BrokerData, ResourceUsage};
    use super::score;

    #[test]
    fn overload_check_uses_weighted_usage() {
        // Derived by reading PIP-358 (resource weights for LeastLongTermMessageRate):
        // direct memory at 95 % with its default weight 0 is not overloaded;
        // with weight 1 it scores +∞.
        let mut d = BrokerData::default();
        d.local.direct_memory = ResourceUsage {
            usage: 95.0,
            limit: 100.0,
        };
        let c = Config::default();
        assert_eq!(score(&d, &c), Some(0.0));
        let w = Config {
            load_balancer_direct_memory_resource_weight: 1.0,
            ..Config::default()
        };
        assert_eq!(score(&d, &w), None);
    }
}
