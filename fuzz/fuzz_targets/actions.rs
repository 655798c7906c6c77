//! Arbitrary action sequences on every engine.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lbscope::fuzzing::actions(data));
