//! What the leader holds of each broker's load: the report check the broker
//! cards draw (`BrokerView::report`) agrees with the report phase that follows,
//! and the doc's 40 % / 10 % / 10 % shortcut on the Pulsar tab's cluster says
//! why two brokers stay silent. Expected values read from Pulsar's
//! `ModularLoadManagerImpl.needBrokerDataUpdate` (a change must be *above*
//! `loadBalancerReportUpdateThresholdPercentage`; usage compared in percentage
//! points).
use crate::support::pulsar as util;

use lbscope::engine::pulsar::broker::DirectUsage;
use lbscope::engine::pulsar::config::Profile;
use lbscope::engine::pulsar::report::ReportDue;
use lbscope::engine::pulsar::{Action, Config, Event, Sim};
use lbscope::engine::Engine;
use lbscope::scenario::presets;
use lbscope::view::pulsar_report::{report_due_badge, report_line, report_short};
use util::*;

fn published(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .flat_map(|e| match e {
            Event::Reported { published, .. } => published.iter().map(|(b, _, _)| b.0.to_string()).collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn due(sim: &Sim) -> Vec<String> {
    sim.broker_views()
        .into_iter()
        .filter(|b| b.report.as_ref().is_some_and(|r| r.due.is_some()))
        .map(|b| b.id.0.to_string())
        .collect()
}

fn cpu(broker: &str, cpu: f64) -> Action {
    Action::SetBrokerLoad {
        broker: broker.into(),
        usage: DirectUsage {
            cpu: Some(cpu),
            ..Default::default()
        },
    }
}

/// Before every Step the cards' "reports at the next Step" is exactly the set
/// of brokers the report phase then publishes, over a walk of CPU settings
/// around the threshold (both load managers).
#[test]
fn the_report_check_agrees_with_the_report_phase() {
    for profile in [Profile::Pulsar4, Profile::Pulsar5] {
        let mut sim = cluster(Config::profile(profile), &["b1", "b2", "b3"], "t/n", 4);
        let walk = [0.0, 10.0, 20.5, 20.0, 31.0, 5.0, 5.0, 80.0, 79.0, 0.0];
        for (i, c) in walk.iter().enumerate() {
            for (j, b) in ["b1", "b2", "b3"].iter().enumerate() {
                sim.apply(&cpu(b, (c + 3.0 * j as f64 * i as f64) % 100.0))
                    .unwrap();
            }
            let expected = due(&sim);
            let got = published(&step(&mut sim));
            assert_eq!(expected, got, "{profile:?}, step {i}");
        }
    }
}

/// The Pulsar tab's cluster (broker-1 at its traffic, broker-2 and broker-3
/// idle, one round run) with the doc's CPU shortcut: broker-1's change is
/// large and it reports; broker-2 and broker-3 go from 0 % to 10 %, a change of
/// 10 points, not above the threshold of 10, so the leader keeps 0 % for them.
/// The card says so with the numbers, and the next Step indeed skips them.
#[test]
fn the_doc_loads_shortcut_says_why_two_brokers_stay_silent() {
    let log = presets::pulsar_playground(4);
    let mut sim = lbscope::scenario::replay(1, &log, None).unwrap().state;
    let brokers: Vec<String> = (1..=3).map(|i| format!("broker-{i}")).collect();
    // Before the press, the cards' prediction for each broker's new CPU.
    let before = sim.broker_views();
    let predicted: Vec<bool> = before
        .iter()
        .zip([40.0, 10.0, 10.0])
        .map(|(b, c)| b.report.as_ref().unwrap().would_publish_at(c))
        .collect();
    assert_eq!(predicted, [true, false, false]);
    for a in presets::pulsar_doc_loads(&brokers) {
        sim.apply(&a).unwrap();
    }
    let views = sim.broker_views();
    for b in &views[1..] {
        let r = b.report.as_ref().unwrap();
        assert_eq!(r.due, None, "{}", b.id.0);
        assert_eq!(r.reported_usage, Some(0.0));
        assert!((r.live_usage - 10.0).abs() < 1e-9, "{}", r.live_usage);
        assert!((r.usage_change - 10.0).abs() < 1e-9);
        let (text, behind) = report_line(r);
        assert!(behind, "{text}");
        assert!(
            text.contains("a change of 10.0 is not above loadBalancerReportUpdateThresholdPercentage = 10"),
            "{text}"
        );
        assert!(text.contains("keeps seeing 0.0 %"), "{text}");
        assert_eq!(
            report_short(r).as_deref(),
            Some("Shedder sees 0.0 % (live 10.0 %): a change of 10.0 is not above the report threshold 10; forced report in 14 min.")
        );
    }
    assert_eq!(views[0].report.as_ref().unwrap().due, Some(ReportDue::Change));
    // broker-1 reports at the next Step: its card has nothing to add.
    assert_eq!(report_short(views[0].report.as_ref().unwrap()), None);
    assert_eq!(published(&step(&mut sim)), ["broker-1"]);
}

/// A broker whose first report has not reached the leader: the card says the
/// leader has no data, the check says "first report", and the next Step
/// publishes it; afterwards its card shows the leader's copy, current again.
#[test]
fn a_broker_without_a_report_is_due_its_first() {
    let mut sim = cluster(Config::profile(Profile::Pulsar4), &["b1", "b2"], "t/n", 4);
    sim.apply(&Action::AddUnreportedBroker {
        broker: "b3".into(),
        capacity: Default::default(),
    })
    .unwrap();
    sim.apply(&cpu("b3", 10.0)).unwrap();
    let b3 = sim
        .broker_views()
        .into_iter()
        .find(|b| b.id.0.as_ref() == "b3")
        .unwrap();
    let r = b3.report.unwrap();
    assert_eq!(r.due, Some(ReportDue::First));
    assert!(
        report_line(&r).0.starts_with("No load report yet"),
        "{}",
        report_line(&r).0
    );
    assert!(published(&step(&mut sim)).contains(&"b3".to_string()));
    for b in sim.broker_views() {
        let (text, behind) = report_line(&b.report.unwrap());
        assert!(!behind, "{text}");
        assert!(text.starts_with("Leader's copy:"), "{text}");
    }
}

/// After a round whose unload moved bundles onto a broker (after that round's
/// report phase), the shedder still holds the receiver's old report while its
/// bars show the new load: the card's badge says the next Step replaces it,
/// and the next report phase indeed publishes exactly the badged brokers.
#[test]
fn a_broker_that_received_bundles_after_the_report_is_badged_until_the_next_step() {
    let log = presets::pulsar_playground(4);
    let mut sim = lbscope::scenario::replay(1, &log, None).unwrap().state;
    // The learner's first Step unloads bundles off broker-1 after the reports.
    step(&mut sim);
    let views = sim.broker_views();
    let badged: Vec<String> = views
        .iter()
        .filter(|b| b.report.as_ref().and_then(report_due_badge).is_some())
        .map(|b| b.id.0.to_string())
        .collect();
    assert!(!badged.is_empty(), "no broker badged");
    for b in views.iter().filter(|b| badged.contains(&b.id.0.to_string())) {
        let r = b.report.as_ref().unwrap();
        let reported = r.reported_usage.unwrap();
        assert!(
            (reported - r.live_usage).abs() >= 0.05,
            "{}: {reported} vs {}",
            b.id.0,
            r.live_usage
        );
        assert_eq!(report_due_badge(r), Some("reports next Step"));
        assert!(
            report_line(r).0.contains("It reports at the next Step"),
            "{}",
            report_line(r).0
        );
    }
    let mut got = published(&step(&mut sim));
    got.sort();
    let mut want = badged.clone();
    want.sort();
    // Every badged broker publishes; a broker whose report is current is not badged.
    for b in &want {
        assert!(got.contains(b), "{b} badged but did not publish: {got:?}");
    }
}
