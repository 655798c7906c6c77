//! Kafka Streams' importer (Topology#describe() and kafka-topics output) on arbitrary input.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lbscope::fuzzing::import_kstreams(data));
