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
    let n = each("decoders", lbscope::fuzzing::decoders)
        + each("actions", lbscope::fuzzing::actions)
        + each("import_kstreams", lbscope::fuzzing::import_kstreams)
        + each("import_flink", lbscope::fuzzing::import_flink)
        + each("import_pulsar", lbscope::fuzzing::import_pulsar);
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
    // The importers on the samples (each with every option byte) and on damaged copies.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/imports");
    for (sub, f) in [
        ("kstreams", lbscope::fuzzing::import_kstreams as fn(&[u8])),
        ("flink", lbscope::fuzzing::import_flink),
        ("pulsar", lbscope::fuzzing::import_pulsar),
    ] {
        let mut files = Vec::new();
        let mut stack = vec![dir.join(sub)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if std::fs::metadata(&p).unwrap().len() < 20_000 {
                    files.push(std::fs::read(&p).unwrap());
                }
            }
        }
        files.sort();
        for flags in [0u8, 1, 3, 0xff] {
            let all: Vec<u8> = std::iter::once(flags)
                .chain(files.iter().flat_map(|t| t.iter().copied().chain([0xFF])))
                .collect();
            f(&all);
            for t in &files {
                let mut one = vec![flags];
                one.extend_from_slice(t);
                f(&one);
                one.truncate(one.len() / 2 + 1);
                f(&one);
            }
        }
    }
    eprintln!("{n} stored fuzz regressions replayed");
}
