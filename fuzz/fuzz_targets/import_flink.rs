//! Flink's importer (execution plans, REST plans, /taskmanagers) on arbitrary input.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lbscope::fuzzing::import_flink(data));
