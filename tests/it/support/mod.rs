//! Helpers shared by the integration tests.

pub mod assign;
pub mod pulsar;

/// Sequences per property test: 48 in the default `cargo test`; the full run sets
/// `PROPTEST_CASES=10000` (see docs/testing.md).
pub fn proptest_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}
