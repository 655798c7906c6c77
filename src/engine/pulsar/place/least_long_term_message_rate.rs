//! LeastLongTermMessageRate (the 4.x default placement): a broker's score is its
//! long-term message rate (in + out, summed over its bundles' long-term averages)
//! plus the long-term rates of bundles preallocated to it since its last report;
//! a broker whose weighted max resource usage (PIP-358) exceeds
//! `loadBalancerBrokerOverloadedThresholdPercentage` scores +∞. The least score
//! wins; ties (and the all-overloaded case, where every candidate ties at +∞)
//! are broken with the RNG over the candidates in name order.

use super::super::config::Config;
use super::super::load::{BrokerData, BrokerId, BundleId, LoadData};
use super::PlaceEvent;
use crate::engine::SimRng;

/// The score (`None` = +∞, overloaded). A broker without data scores 0.
pub fn score(data: Option<&BrokerData>, conf: &Config) -> Option<f64> {
    let Some(d) = data else { return Some(0.0) };
    let threshold = conf.load_balancer_broker_overloaded_threshold_percentage / 100.0;
    // PIP-358: the weighted max usage decides "overloaded".
    if d.local
        .max_resource_usage_with_weight(&super::super::report::weights(conf))
        > threshold
    {
        return None;
    }
    let pre: f64 = d
        .preallocated
        .values()
        .map(|b| b.long_term.msg.total_rate())
        .sum();
    Some(pre + d.time_average.long_term.total_rate())
}

/// Pick a broker.
pub fn select(
    cands: &[&BrokerId],
    bundle: &BundleId,
    load: &LoadData,
    conf: &Config,
    rng: &mut SimRng,
    events: &mut Vec<PlaceEvent>,
) -> Option<BrokerId> {
    let mut best: Vec<&BrokerId> = Vec::new();
    let mut min = f64::INFINITY;
    let mut scores = Vec::with_capacity(cands.len());
    for (b, data) in cands.iter().zip(super::join_sorted(cands, &load.brokers)) {
        let s = score(data, conf);
        scores.push(((*b).clone(), s));
        let v = s.unwrap_or(f64::INFINITY);
        if v < min {
            best.clear();
            best.push(b);
            min = v;
        } else if v == min {
            best.push(b);
        }
    }
    if best.is_empty() {
        best = cands.to_vec();
    }
    let best: Vec<BrokerId> = best.into_iter().cloned().collect();
    events.push(PlaceEvent::LongTermRates {
        bundle: bundle.clone(),
        scores,
        best: best.clone(),
    });
    if best.is_empty() {
        return None;
    }
    Some(best[rng.below(best.len())].clone())
}

#[cfg(test)]
mod tests {
    use super::super::super::shed::fixture::*;
    use super::super::{PlaceEvent, Placer};
    use super::*;

    fn conf() -> Config {
        Config::profile(crate::engine::pulsar::config::Profile::Pulsar4)
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
        assert_eq!(score(Some(&d), &c), Some(0.0));
        let w = Config {
            load_balancer_direct_memory_resource_weight: 1.0,
            ..Config::default()
        };
        assert_eq!(score(Some(&d), &w), None);
    }
}
