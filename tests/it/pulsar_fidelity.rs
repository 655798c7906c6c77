//! Pulsar rules checked against the upstream code and tests where lbscope once
//! differed: load-report thresholds, who counts as available for shedding, the
//! top-bundles report. Each test is named after the upstream test or class it
//! mirrors and says where its expected values come from.
use crate::support::pulsar as util;

use lbscope::engine::pulsar::broker::DirectUsage;
use lbscope::engine::pulsar::config::{LoadManager, Profile};
use lbscope::engine::pulsar::{Action, Config, Event, Sim};
use lbscope::engine::Engine;
use util::*;

/// Whether `broker` published a report in these events.
fn published(ev: &[Event], broker: &str) -> bool {
    ev.iter().any(|e| match e {
        Event::Reported { published, .. } => published.iter().any(|(b, _, _)| b.0.as_ref() == broker),
        _ => false,
    })
}

fn set_cpu(sim: &mut Sim, broker: &str, cpu: f64) {
    sim.apply(&Action::SetBrokerLoad {
        broker: broker.into(),
        usage: DirectUsage {
            cpu: Some(cpu),
            ..Default::default()
        },
    })
    .unwrap();
}

/// `ModularLoadManagerImplTest.testNeedBrokerDataUpdate`, its resource-usage
/// part (expected values from the test: threshold 5 %; CPU 10 % → 10.6 % does
/// not publish, → 20.6 % does, and not once `loadBalancerCPUResourceWeight` is
/// 0). The extensible side, from reading `BrokerLoadDataReporter.needBrokerDataUpdate`:
/// it compares the unweighted max usage, so the CPU change still publishes with
/// weight 0. The 4.x and 5.0 profiles agree: PIP-358 came before 4.0.
#[test]
fn modular_load_manager_impl_test_need_broker_data_update() {
    for profile in [Profile::Pulsar4, Profile::Pulsar5] {
        let run = |manager: LoadManager, cpu_weight: f64| -> Vec<bool> {
            let mut c = Config::profile(profile);
            c.load_manager_class_name = manager;
            c.load_balancer_report_update_threshold_percentage = 5.0;
            c.load_balancer_cpu_resource_weight = cpu_weight;
            let mut sim = cluster(c, &["b1"], "t/n", 1);
            step(&mut sim);
            [10.0, 10.6, 20.6]
                .into_iter()
                .map(|cpu| {
                    set_cpu(&mut sim, "b1", cpu);
                    published(&step(&mut sim), "b1")
                })
                .collect()
        };
        assert_eq!(run(LoadManager::Modular, 1.0), [true, false, true], "{profile:?}");
        assert_eq!(
            run(LoadManager::Modular, 0.0),
            [false, false, false],
            "{profile:?}"
        );
        assert_eq!(
            run(LoadManager::Extensible, 0.0),
            [true, false, true],
            "{profile:?}"
        );
    }
}

fn unreported_cluster(c: Config, reported: &[&str], unreported: &[&str]) -> Sim {
    let mut sim = cluster(c, reported, "t/n", 4);
    for b in unreported {
        sim.apply(&Action::AddUnreportedBroker {
            broker: b.to_string(),
            capacity: Default::default(),
        })
        .unwrap();
    }
    sim
}

/// `UnloadScheduler.execute` (expected values from reading the code): the
/// preamble counts the registered brokers (`getAvailableBrokersAsync`), not
/// those with load data, so with two registered brokers and none reported the
/// strategy runs and TransferShedder ends in `Skip / NoBrokers`; with one of
/// two reported it ranks that one alone. `ModularLoadManagerImpl.doLoadShedding`
/// counts `getAvailableBrokers()` the same way, so the modular strategies run
/// too (and find nothing to move). A single registered broker still stops
/// before the strategy ("Only 1 broker available").
#[test]
fn unload_scheduler_test_registered_brokers_without_load_data() {
    use lbscope::engine::pulsar::shed::{ShedEvent, SheddingStrategy, UnloadReason};
    let transfer_reason = |ev: &[Event]| {
        ev.iter().find_map(|e| match e {
            Event::Shed(ShedEvent::TransferDecision { reason, .. }) => Some(*reason),
            _ => None,
        })
    };
    let skipped = |ev: &[Event]| ev.iter().any(|e| matches!(e, Event::SheddingSkipped { .. }));
    let mut c = Config::profile(Profile::Pulsar5);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_load_shedding_strategy = SheddingStrategy::TransferShedder;
    let mut sim = unreported_cluster(c.clone(), &[], &["b1", "b2"]);
    let ev = sim.apply(&Action::Shed).unwrap();
    assert!(!skipped(&ev), "{ev:?}");
    assert_eq!(transfer_reason(&ev), Some(UnloadReason::NoBrokers), "{ev:?}");

    let mut sim = unreported_cluster(c.clone(), &["b1"], &["b2"]);
    let ev = sim.apply(&Action::Shed).unwrap();
    assert!(!skipped(&ev), "{ev:?}");
    assert!(transfer_reason(&ev).is_some(), "{ev:?}");

    let mut sim = unreported_cluster(c, &[], &["b1"]);
    let ev = sim.apply(&Action::Shed).unwrap();
    assert!(skipped(&ev), "{ev:?}");
    assert_eq!(transfer_reason(&ev), None);

    for strategy in [
        SheddingStrategy::OverloadShedder,
        SheddingStrategy::ThresholdShedder,
        SheddingStrategy::UniformLoadShedder,
        SheddingStrategy::AvgShedder,
    ] {
        for reported in [&[][..], &["b1"][..]] {
            let mut c = Config::profile(Profile::Pulsar5);
            c.load_balancer_load_shedding_strategy = strategy;
            let unreported: Vec<&str> = ["b1", "b2"]
                .into_iter()
                .filter(|b| !reported.contains(b))
                .collect();
            let mut sim = unreported_cluster(c, reported, &unreported);
            let ev = sim.apply(&Action::Shed).unwrap();
            assert!(!skipped(&ev), "{strategy:?}: {ev:?}");
            assert!(
                ev.iter().any(|e| matches!(e, Event::Shed(_))),
                "{strategy:?} ran: {ev:?}"
            );
            assert!(
                !ev.iter().any(|e| matches!(e, Event::Unloaded { .. })),
                "{strategy:?}: {ev:?}"
            );
        }
    }
}

/// `loadBalancerReportUpdateThresholdPercentage` is a plain `int` in
/// `ServiceConfiguration`, compared with changes that are often above 100 %
/// (`ModularLoadManagerImplTest.testNeedBrokerDataUpdate` notes that a drop to
/// zero publishes "as long as the threshold is less than 100"). Expected values
/// from reading `needBrokerDataUpdate`: at 150 a msg-rate change of 100 → 220
/// (120 %) stays quiet; 600 against the last published 100 (500 %) publishes.
/// Whole numbers only (an `int`); negatives stay refused, as for every
/// numeric setting.
#[test]
fn modular_load_manager_impl_test_need_broker_data_update_threshold_above_100() {
    use lbscope::scenario::{run, Scenario};
    let text = r#"{"format": 2, "seed": 1, "system": "pulsar",
        "config": {"profile": "pulsar-4.x", "loadBalancerReportUpdateThresholdPercentage": 150},
        "setup": [{"op": "add_broker", "broker": "b1"}]}"#;
    let sc = Scenario::from_json(text).expect("a threshold above 100 is accepted");
    run::event_log(&sc).unwrap();
    for bad in ["12.5", "-1"] {
        let text = text.replace("150", bad);
        assert!(Scenario::from_json(&text).is_err(), "{bad} is refused");
    }

    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_report_update_threshold_percentage = 150.0;
    let mut sim = cluster(c, &["b1"], "t/n", 1);
    pinned(&mut sim, "t/n/a", 1);
    set_traffic(&mut sim, "t/n/a", traffic(100.0, 0.0, 1, 0));
    step(&mut sim);
    step(&mut sim);
    set_traffic(&mut sim, "t/n/a", traffic(220.0, 0.0, 1, 0));
    assert!(!published(&step(&mut sim), "b1"));
    set_traffic(&mut sim, "t/n/a", traffic(600.0, 0.0, 1, 0));
    assert!(published(&step(&mut sim), "b1"));
}

/// `TopBundleLoadDataReporter.reportAsync` (expected values from reading the
/// code): the top-bundles report is pushed whenever the broker's stats were
/// refreshed, with no change threshold, while the broker report waits for
/// `loadBalancerReportUpdateThresholdPercentage`. Two bundles at 100 and 90
/// msg/s swap places (90 → 105, a 2.6 % change of the broker total): the broker
/// report stays as it was, the top-bundles report follows at once.
#[test]
fn top_bundle_load_data_reporter_test_report_without_threshold() {
    use lbscope::engine::pulsar::shed::transfer::top_bundles_of;
    let mut c = Config::profile(Profile::Pulsar5);
    c.load_manager_class_name = LoadManager::Extensible;
    c.load_balancer_load_shedding_strategy = lbscope::engine::pulsar::shed::SheddingStrategy::TransferShedder;
    c.default_number_of_namespace_bundles = 2;
    c.load_balancer_distribute_bundles_evenly_enabled = false;
    let mut sim = cluster(c, &["b1"], "t/n", 2);
    pinned(&mut sim, "t/n/a", 0x1000_0000);
    pinned(&mut sim, "t/n/b", 0x9000_0000);
    set_traffic(&mut sim, "t/n/a", traffic(100.0, 1.0, 1, 0));
    set_traffic(&mut sim, "t/n/b", traffic(90.0, 0.9, 1, 0));
    step(&mut sim);
    step(&mut sim);
    let heaviest = |sim: &Sim, from_report: bool| {
        let d = &sim.load_data().brokers.iter().next().unwrap().1;
        let src = if from_report {
            &d.local.bundles
        } else {
            d.top_bundles_source()
        };
        top_bundles_of(src, 10, |_| true).last().unwrap().0.to_string()
    };
    assert_eq!(heaviest(&sim, true), "t/n/0x00000000_0x80000000");
    assert_eq!(heaviest(&sim, false), "t/n/0x00000000_0x80000000");
    set_traffic(&mut sim, "t/n/b", traffic(105.0, 1.05, 1, 0));
    assert!(!published(&step(&mut sim), "b1"));
    assert_eq!(heaviest(&sim, true), "t/n/0x00000000_0x80000000");
    assert_eq!(heaviest(&sim, false), "t/n/0x80000000_0xffffffff");
}

/// One `report` + `shed` after setting each broker's CPU: the ThresholdShedder
/// moving averages (percent), the cluster average and the brokers it found at
/// or above average + threshold. Every change is published (threshold 0) so
/// the leader sees each setting at once, as the PIPs assume.
fn threshold_passes(loads: &[&[f64]]) -> Vec<(Vec<f64>, f64, Vec<String>)> {
    use lbscope::engine::pulsar::shed::{ShedEvent, SheddingStrategy};
    let mut c = Config::profile(Profile::Pulsar4);
    c.load_balancer_load_shedding_strategy = SheddingStrategy::ThresholdShedder;
    c.load_balancer_report_update_threshold_percentage = 0.0;
    let names: Vec<String> = (1..=loads[0].len()).map(|i| format!("broker-{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut sim = cluster(c, &refs, "t/n", 1);
    loads
        .iter()
        .map(|pass| {
            for (b, cpu) in names.iter().zip(pass.iter()) {
                set_cpu(&mut sim, b, *cpu);
            }
            sim.apply(&Action::Report).unwrap();
            let ev = sim.apply(&Action::Shed).unwrap();
            let (averages, cluster) = ev
                .iter()
                .find_map(|e| match e {
                    Event::Shed(ShedEvent::ThresholdAverages {
                        samples,
                        cluster_average,
                        ..
                    }) => Some((
                        samples.iter().map(|s| s.average * 100.0).collect::<Vec<_>>(),
                        cluster_average * 100.0,
                    )),
                    _ => None,
                })
                .unwrap();
            let above = ev
                .iter()
                .filter_map(|e| match e {
                    Event::Shed(ShedEvent::AboveThreshold { broker, .. }) => Some(broker.0.to_string()),
                    _ => None,
                })
                .collect();
            (averages, cluster, above)
        })
        .collect()
}

fn close(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-9)
}

/// PIP-364's over-unloading example (expected values from the PIP's text,
/// which match `ThresholdShedder`'s moving average `old × 0.9 + new × 0.1`):
/// real loads 90/10, then 50/50 after an ideal balancing pass, then 14/86 after
/// the next; ThresholdShedder sees 90/10, then 86/14, then 78.8/21.2, and still
/// finds broker-1 above average + threshold (60 %) in every pass although its
/// real load is 50 %, then 14 %. Pinned as a golden scenario too
/// (`tests/scenarios/pulsar-pip364-threshold-over-unloading.json`).
#[test]
fn pip_364_threshold_shedder_over_unloading() {
    let passes = threshold_passes(&[&[90.0, 10.0], &[50.0, 50.0], &[14.0, 86.0]]);
    let want = [[90.0, 10.0], [86.0, 14.0], [78.8, 21.2]];
    for ((averages, cluster, above), want) in passes.iter().zip(want) {
        assert!(close(averages, &want), "{averages:?} vs {want:?}");
        assert!((cluster - 50.0).abs() < 1e-9);
        assert_eq!(above, &["broker-1"]);
    }
}

/// PIP-220's two cases where ThresholdShedder moves nothing (expected values
/// from the PIP's text, checked against `ThresholdShedder.findBundlesForUnloading`):
/// usages [12, 2, 1, 1] average 4 %, none reaches 14 %; five brokers at 50 %
/// and a new one at 0 % average 41.67 % (the PIP prints 41.6 and 51.6,
/// truncated; the code compares with 51.67 %), none reaches it. Pinned as
/// golden scenarios too (`tests/scenarios/pulsar-pip220-threshold-case{1,2}.json`).
#[test]
fn pip_220_threshold_shedder_moves_nothing() {
    let case1 = threshold_passes(&[&[12.0, 2.0, 1.0, 1.0]]);
    assert!(close(&case1[0].0, &[12.0, 2.0, 1.0, 1.0]));
    assert!((case1[0].1 - 4.0).abs() < 1e-9);
    assert!(case1[0].2.is_empty());
    let case2 = threshold_passes(&[&[50.0, 50.0, 50.0, 50.0, 50.0, 0.0]]);
    assert!((case2[0].1 - 250.0 / 6.0).abs() < 1e-9, "{}", case2[0].1);
    assert!(case2[0].2.is_empty());
}
