//! The balancedness score: each system names its goals (`docs/outcomes.md`), a
//! run meets each or not at its end, and the score is the share met, 0 to 100
//! (100 when every goal is met, as Cruise Control reports a proposal's).

use serde::Serialize;

/// One goal and whether the run's end meets it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Goal {
    /// Its name.
    pub name: &'static str,
    /// Met?
    pub met: bool,
    /// The numbers behind it.
    pub detail: String,
}

impl Goal {
    /// A goal.
    pub fn new(name: &'static str, met: bool, detail: impl Into<String>) -> Goal {
        Goal {
            name,
            met,
            detail: detail.into(),
        }
    }
}

/// 100 × goals met / goals (100 for no goals).
pub fn score(goals: &[Goal]) -> f64 {
    if goals.is_empty() {
        return 100.0;
    }
    100.0 * goals.iter().filter(|g| g.met).count() as f64 / goals.len() as f64
}
