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
