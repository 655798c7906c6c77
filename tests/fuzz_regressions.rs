//! Every input the fuzzers ever crashed on (`fuzz/regressions/<target>/*`) runs
//! here on each `cargo test`, plus a few hand-written hostile inputs.

use std::path::Path;

fn each(target: &str, f: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut n = 0;
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            f(&std::fs::read(e.path()).unwrap());
            n += 1;
        }
    }
    n
}

#[test]
fn fuzz_regressions_stay_fixed() {
    let n = each("decoders", lbscope::fuzzing::decoders) + each("actions", lbscope::fuzzing::actions);
    // Hand-written hostile inputs, always run.
    for input in [
        &b""[..],
        b"#s=",
        b"#s=1.",
        b"#s=99999999999999999999.AAAA",
        b"{\"format\":1,\"seed\":1,\"system\":\"pulsar\",\"actions\":[{\"op\":\"create_namespace\",\"namespace\":\"a/b\",\"bundles\":4294967295}]}",
        b"{\"format\":1,\"seed\":-1}",
        b"\xff\xfe\x00",
    ] {
        lbscope::fuzzing::decoders(input);
    }
    for sys in 0u8..3 {
        let all: Vec<u8> = std::iter::once(sys)
            .chain((0..=255u8).flat_map(|k| [k, k.wrapping_mul(37)]))
            .collect();
        lbscope::fuzzing::actions(&all);
    }
    eprintln!("{n} stored fuzz regressions replayed");
}
