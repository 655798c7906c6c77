//! The integration tests: one test binary, one module per area. Shared helpers live in
//! [`support`]. Each module's doc says what it covers; tests mirroring an upstream test are
//! named after it.

mod support;

mod cli;
mod docs;
mod engine_interface;
mod flink_adaptive;
mod flink_diff;
mod flink_errors;
mod flink_failover;
mod flink_figures;
mod flink_fine_grained;
mod flink_limits;
mod flink_load_balance_mode;
mod flink_props;
mod flink_request_order;
mod flink_scale;
mod flink_strict_actions;
mod fuzz_regressions;
mod gallery;
mod golden;
mod hostile_props;
mod imports;
mod kstreams_assignors;
mod kstreams_doc;
mod kstreams_errors;
mod kstreams_props;
mod kstreams_rack;
mod kstreams_reliability;
mod kstreams_scale;
mod kstreams_setup;
mod kstreams_strict_actions;
mod lessons;
mod motion;
mod narration;
mod playground;
mod predict;
mod pulsar_admin;
mod pulsar_assign_faults;
mod pulsar_auto_split;
mod pulsar_common;
mod pulsar_doc_examples;
mod pulsar_fidelity;
mod pulsar_policies;
mod pulsar_props;
mod pulsar_scenario;
mod registries;
mod reliability;
mod reliability_fuzz;
mod render;
mod replay_props;
mod scalable_topics;
mod scenario_format;
mod workload_links;
