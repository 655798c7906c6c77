//! What the browser keeps between visits: the learner's scenario of every tab
//! and the tab that was open. An older autosave held one scenario; it is read
//! as that tab alone.

use crate::engine::System;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// Format of the saved workspace.
pub const WORKSPACE_VERSION: u32 = 1;

/// The learner's tabs, as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workspace {
    /// [`WORKSPACE_VERSION`].
    pub workspace: u32,
    /// The tab that was open.
    pub tab: System,
    /// One scenario per tab (any order; a tab left out starts from its default).
    pub scenarios: Vec<Scenario>,
}

/// A saved workspace read back: the scenarios that could be read and what
/// could not.
#[derive(Debug, Default)]
pub struct Restored {
    /// The tab that was open.
    pub tab: Option<System>,
    /// Scenarios read.
    pub scenarios: Vec<Scenario>,
    /// Why a part could not be read.
    pub problems: Vec<String>,
}

impl Workspace {
    /// Read a saved workspace, or an older single-scenario autosave.
    pub fn restore(json: &str) -> Restored {
        let mut r = Restored::default();
        let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
            r.problems.push("the saved work is not valid JSON".into());
            return r;
        };
        if value.get("workspace").is_none() {
            match Scenario::from_json(json) {
                Ok(sc) => {
                    r.tab = Some(sc.system());
                    r.scenarios.push(sc);
                }
                Err(e) => r.problems.push(e.to_string()),
            }
            return r;
        }
        r.tab = value
            .get("tab")
            .and_then(|t| serde_json::from_value::<System>(t.clone()).ok());
        let found = value.get("workspace").and_then(|v| v.as_u64());
        if found != Some(u64::from(WORKSPACE_VERSION)) {
            r.problems.push(format!(
                "the saved work has workspace version {}; this lbscope reads {WORKSPACE_VERSION}",
                found.map_or("?".into(), |v| v.to_string())
            ));
            return r;
        }
        for (i, sc) in value
            .get("scenarios")
            .and_then(|s| s.as_array())
            .into_iter()
            .flatten()
            .enumerate()
        {
            match Scenario::from_json(&sc.to_string()) {
                Ok(sc) => r.scenarios.push(sc),
                Err(e) => r.problems.push(format!("saved tab {}: {e}", i + 1)),
            }
        }
        r
    }

    /// As JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
