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
