//! The share-link and scenario-JSON decoders on arbitrary input.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lbscope::fuzzing::decoders(data));
