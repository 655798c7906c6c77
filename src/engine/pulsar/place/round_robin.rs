//! `RoundRobinBrokerSelector`: how both load managers place the bundles of the
//! namespaces in `loadBalancerSheddingExcludedNamespaces` (PIP-380). Those
//! bundles are never shed, so instead of the placement strategy they get the
//! candidates in turn, to spread them evenly from the start.
//!
//! The selector keeps a counter and a cached copy of the last candidate list.
//! Each call takes `index = counter % candidates` and then increments the
//! counter (wrapping to 0 after `i32::MAX`, as Java's `AtomicInteger` update
//! does); the cache is re-copied from the candidates when its length differs or
//! the indexed broker is no longer a candidate. Java copies a hash set, so its
//! list order is unspecified; lbscope's cache is the candidates in name order.

use super::super::load::BrokerId;

/// The selector's state (one per load manager, like Pulsar's single instance).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundRobinBrokerSelector {
    /// The call counter.
    pub count: u32,
    /// The cached candidate list.
    pub cache: Vec<BrokerId>,
}

impl RoundRobinBrokerSelector {
    /// Pick from `candidates` (sorted, distinct); returns the broker and the index
    /// used. `None` when there is no candidate.
    pub fn select(&mut self, candidates: &[&BrokerId]) -> Option<(BrokerId, usize)> {
        let n = candidates.len();
        if n == 0 {
            return None;
        }
        let index = self.count as usize % n;
        self.count = if self.count >= i32::MAX as u32 {
            0
        } else {
            self.count + 1
        };
        let refresh = |cache: &mut Vec<BrokerId>| {
            *cache = candidates.iter().map(|b| (*b).clone()).collect();
        };
        if self.cache.len() <= index || self.cache.len() != n {
            refresh(&mut self.cache);
        }
        if candidates.binary_search(&&self.cache[index]).is_err() {
            refresh(&mut self.cache);
        }
        Some((self.cache[index].clone(), index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<BrokerId> {
        v.iter().map(|b| BrokerId::from(b.to_string())).collect()
    }

    /// Derived by reading `RoundRobinBrokerSelector.selectBroker` (Pulsar has no
    /// unit test of its own for it): the candidates in turn, the cache refreshed
    /// when the set changes size or loses the indexed broker.
    #[test]
    fn round_robin_broker_selector_select_broker() {
        let three = ids(&["b1", "b2", "b3"]);
        let c: Vec<&BrokerId> = three.iter().collect();
        let mut rr = RoundRobinBrokerSelector::default();
        let picks: Vec<String> = (0..6).map(|_| rr.select(&c).unwrap().0 .0.to_string()).collect();
        assert_eq!(picks, ["b1", "b2", "b3", "b1", "b2", "b3"]);
        assert_eq!(rr.select(&[]), None);
        // Counter is at 6 (the empty call does not count): 6 % 2 = 0 over a new list.
        let two = ids(&["b2", "b4"]);
        let c2: Vec<&BrokerId> = two.iter().collect();
        assert_eq!(rr.select(&c2), Some((BrokerId("b2".into()), 0)));
        assert_eq!(rr.cache, two);
        assert_eq!(rr.select(&c2), Some((BrokerId("b4".into()), 1)));
        // Same size, but the indexed broker left: the cache is re-copied.
        let other = ids(&["b5", "b6"]);
        let c3: Vec<&BrokerId> = other.iter().collect();
        assert_eq!(rr.select(&c3), Some((BrokerId("b5".into()), 0)));
        // Wraps like Java's counter.
        rr.count = i32::MAX as u32;
        rr.select(&c3);
        assert_eq!(rr.count, 0);
    }
}
