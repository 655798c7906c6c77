//! A long narration written only up to its start (`Narrate::narrate_start`) is a
//! prefix of the whole line, and the views' rows get the whole line back from it.

use lbscope::engine::pulsar::{self, shed::ShedEvent};
use lbscope::engine::{Engine, Narrate};
use lbscope::playground::{Msg, Narrated, Store, NARRATION_START};

/// The events of a few rounds of a 60-broker cluster (ThresholdShedder, every
/// broker reporting in the first round).
fn round_events() -> Vec<pulsar::Event> {
    let mut s = lbscope::bench::pulsar_cluster(60, 3_000, 64);
    let mut out = Vec::new();
    for _ in 0..4 {
        out.extend(s.apply(&pulsar::Action::Step).unwrap());
    }
    out
}

fn is_list(e: &pulsar::Event) -> bool {
    matches!(
        e,
        pulsar::Event::Reported { .. } | pulsar::Event::Shed(ShedEvent::ThresholdAverages { .. })
    )
}

#[test]
fn a_narration_start_is_the_whole_line_or_a_longer_prefix_of_it() {
    let events = round_events();
    let lists = events.iter().filter(|e| is_list(e)).count();
    assert!(
        lists >= 4,
        "the rounds report and average every broker ({lists} list events)"
    );
    let mut cut = 0;
    for e in &events {
        let whole = e.narrate();
        assert_eq!(e.narrate_start(usize::MAX), (whole.clone(), false));
        for chars in [0, 1, 40, 360, 1_000, whole.chars().count()] {
            let (start, more) = e.narrate_start(chars);
            if more {
                cut += 1;
                assert!(is_list(e), "only the broker lists stop early: {whole}");
                assert!(
                    whole.starts_with(&start) && start.len() < whole.len(),
                    "{chars}: {start}"
                );
                assert!(start.chars().count() > chars, "{chars}: {start}");
            } else {
                assert_eq!(start, whole, "{chars}");
            }
        }
    }
    assert!(cut > 0, "some list was cut");
}

#[test]
fn a_row_written_up_to_its_start_gives_the_whole_line_back() {
    let events = round_events();
    let long = events
        .iter()
        .find(|e| e.narrate().chars().count() > NARRATION_START)
        .expect("a line longer than a row's start");
    let n = Narrated::of(long);
    assert!(n.whole.is_some());
    assert!(n.text.chars().count() > NARRATION_START);
    assert!(n.text.chars().count() < long.narrate().chars().count());
    assert_eq!(n.full(), long.narrate());
    // Two rows of the same event are equal; of another event, not.
    assert_eq!(Narrated::of(long), n);
    let other = events
        .iter()
        .filter(|e| *e != long)
        .find(|e| e.narrate().chars().count() > NARRATION_START)
        .expect("another long line");
    assert_ne!(Narrated::of(other).whole, n.whole);
    // A short line is written whole.
    let short = events.iter().find(|e| e.narrate().len() < 200).unwrap();
    assert_eq!(Narrated::of(short), Narrated::whole_line(short.narrate()));
}

#[test]
fn the_log_rows_of_a_big_round_hold_the_start_of_its_long_lines() {
    let sc = lbscope::bench::pulsar_scenario(60, 3_000, 64);
    let mut store = Store::fresh();
    store.open(sc);
    let store = store.reduce(Msg::StepActive);
    // Every row of the session (the page shows the newest 400).
    let (rows, hidden) = store.active().get().event_rows(1_000_000);
    assert_eq!(hidden, 0);
    let long: Vec<_> = rows.iter().filter(|r| r.text.whole.is_some()).collect();
    assert!(!long.is_empty(), "the round's report lists every broker");
    for r in long {
        assert!(r.text.full().starts_with(&r.text.text));
        assert!(r.text.text.chars().count() <= NARRATION_START + 200);
    }
}
