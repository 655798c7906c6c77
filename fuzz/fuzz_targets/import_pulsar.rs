//! Pulsar's importer (bundles, load reports, topic lists and stats) on arbitrary input.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lbscope::fuzzing::import_pulsar(data));
