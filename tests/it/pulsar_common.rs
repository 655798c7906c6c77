//! Checks the shared Pulsar helpers (`support::pulsar`) themselves.
#![allow(clippy::field_reassign_with_default)]
use crate::support::pulsar as util;

#[test]
fn helpers_build_a_cluster() {
    let sim = util::cluster(
        lbscope::engine::pulsar::Config::profile(lbscope::engine::pulsar::config::Profile::Pulsar4),
        &["b1", "b2"],
        "t/n",
        4,
    );
    assert_eq!(sim.brokers().len(), 2);
    assert_eq!(sim.leader().unwrap().as_str(), "b1");
}
