//! Shared helpers are duplicated per test file; this file checks the helpers themselves.
#![allow(clippy::field_reassign_with_default)]
#[path = "pulsar_util/mod.rs"]
mod util;

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
