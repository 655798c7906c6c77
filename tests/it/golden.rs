//! Golden scenarios: every `tests/scenarios/NAME.json` is replayed and its event
//! log compared with `NAME.expected.txt`. Set `LBSCOPE_BLESS=1` to (re)write the
//! expected files after a deliberate change, then review the diff.

use lbscope::scenario::{run, Scenario};
use std::path::Path;

#[test]
fn golden_scenarios_replay_to_their_expected_logs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let bless = std::env::var_os("LBSCOPE_BLESS").is_some();
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let sc = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let log = run::to_text(&run::event_log(&sc).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
        // Replaying twice gives the same log (determinism).
        assert_eq!(
            log,
            run::to_text(&run::event_log(&sc).unwrap()),
            "{}",
            path.display()
        );
        let expected = path.with_extension("expected.txt");
        if bless {
            std::fs::write(&expected, &log).unwrap();
        } else {
            let want = std::fs::read_to_string(&expected).unwrap_or_else(|_| {
                panic!("{} has no expected log; run with LBSCOPE_BLESS=1", path.display())
            });
            assert_eq!(log, want, "event log of {} changed", path.display());
        }
        checked += 1;
    }
    assert!(checked > 0, "no golden scenarios found in {}", dir.display());
}
