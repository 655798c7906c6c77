//! Scenario building blocks for the playground and lessons (not balancing logic).

use crate::engine::SimRng;

const WORDS: [&str; 12] = [
    "orders", "payments", "clicks", "metrics", "logs", "users", "alerts", "events", "billing", "audit",
    "search", "chat",
];

/// `n` distinct short topic names drawn from `seed` (same seed, same names).
pub fn random_topic_names(seed: u64, n: usize) -> Vec<String> {
    let mut rng = SimRng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let name = format!("{}-{:04x}", WORDS[rng.below(WORDS.len())], rng.below(0x10000));
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_seeded_and_distinct() {
        let a = random_topic_names(5, 20);
        assert_eq!(a, random_topic_names(5, 20));
        assert_ne!(a, random_topic_names(6, 20));
        let mut d = a.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 20);
    }
}
