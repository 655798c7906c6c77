//! A native fuzz loop over the same entry points as the cargo-fuzz targets
//! (`lbscope::fuzzing`), for machines without libFuzzer: seeded, so a failing
//! input is reproduced by its seed and index. Inputs are mutations of valid
//! share links, scenario files and import samples (bit flips, byte changes,
//! cuts, splices, repeated slices, inserted JSON tokens) and, for the action
//! target, random byte strings.
//!
//! `cargo test` runs a few thousand inputs per target; the full run is
//! `LBSCOPE_FUZZ_RUNS=1000000 cargo test --release --test reliability_fuzz -- --nocapture`
//! (the count is per target).

use lbscope::scenario::{url, Scenario};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::Instant;

fn runs() -> usize {
    std::env::var("LBSCOPE_FUZZ_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut stack = vec![d];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    out.sort();
    out
}

const TOKENS: [&[u8]; 16] = [
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"null",
    b"1e308",
    b"-1",
    b"4294967296",
    b"\"op\"",
    b"\"actions\"",
    b"\"config\"",
    b"\"\\u0000\"",
    b"18446744073709551616",
    b"\xff",
];

/// One mutation of `seed`.
fn mutate(rng: &mut ChaCha8Rng, seed: &[u8], pool: &[Vec<u8>]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = v.len();
        match rng.random_range(0..7) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 if len > 0 => {
                let i = rng.random_range(0..len);
                v[i] = rng.random();
            }
            2 if len > 0 => v.truncate(rng.random_range(0..len)),
            3 if len > 1 => {
                let a = rng.random_range(0..len);
                let b = rng.random_range(a..len);
                v.drain(a..b);
            }
            4 if len > 0 => {
                // Repeat a slice (long names, long arrays).
                let a = rng.random_range(0..len);
                let b = rng.random_range(a..len.min(a + 64));
                let piece = v[a..b].to_vec();
                for _ in 0..rng.random_range(1..64) {
                    v.splice(a..a, piece.iter().copied());
                }
            }
            5 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                let i = rng.random_range(0..=len);
                v.splice(i..i, t.iter().copied());
            }
            _ => {
                // Splice in part of another seed.
                let o = &pool[rng.random_range(0..pool.len())];
                if !o.is_empty() {
                    let a = rng.random_range(0..o.len());
                    let b = rng.random_range(a..o.len());
                    let i = rng.random_range(0..=len);
                    v.splice(i..i, o[a..b].iter().copied());
                }
            }
        }
    }
    v
}

fn report(target: &str, n: usize, t: Instant) {
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "fuzz {target}: {n} inputs, 0 crashes, {s:.1} s ({:.0} inputs/s)",
        n as f64 / s
    );
}

#[test]
fn fuzz_decoders() {
    let scenarios = files("tests/scenarios", ".json");
    let mut seeds: Vec<Vec<u8>> = scenarios.clone();
    for s in &scenarios {
        let sc = Scenario::from_json(std::str::from_utf8(s).unwrap()).unwrap();
        seeds.push(url::to_fragment(&sc).into_bytes());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let n = runs();
    let t = Instant::now();
    for i in 0..n {
        let seed = &seeds[i % seeds.len()];
        let input = if i % 8 == 0 {
            // A link whose packed data is itself a mutated scenario.
            let json = mutate(&mut rng, &scenarios[i % scenarios.len()], &scenarios);
            use base64::Engine as _;
            let packed = miniz_oxide::deflate::compress_to_vec(&json, 1);
            format!(
                "#s=2.{}",
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
            )
            .into_bytes()
        } else {
            mutate(&mut rng, seed, &seeds)
        };
        lbscope::fuzzing::decoders(&input);
    }
    report("decoders", n, t);
}

#[test]
fn fuzz_actions() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let n = runs();
    let t = Instant::now();
    for _ in 0..n {
        let len = rng.random_range(1..=129);
        let input: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        lbscope::fuzzing::actions(&input);
    }
    report("actions", n, t);
}

fn fuzz_import(target: &str, dir: &str, f: fn(&[u8]), seed: u64) {
    let samples = files(dir, "");
    assert!(!samples.is_empty(), "{dir}");
    // Each seed is an options byte, then one to three samples joined by 0xFF.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = runs();
    // How many inputs each parser was given (an input is recognised as
    // `import::detect` recognises it), to show every parser of the system is reached.
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    let t = Instant::now();
    for i in 0..n {
        let mut base = vec![rng.random::<u8>()];
        for k in 0..rng.random_range(1..=3) {
            if k > 0 {
                base.push(0xFF);
            }
            base.extend_from_slice(&samples[rng.random_range(0..samples.len())]);
        }
        let input = mutate(&mut rng, &base, &samples);
        if i % 64 == 0 {
            for part in input.get(1..).unwrap_or(&[]).split(|b| *b == 0xFF).take(4) {
                let kind = lbscope::import::detect(&String::from_utf8_lossy(part));
                *kinds.entry(format!("{kind:?}")).or_default() += 64;
            }
        }
        f(&input);
    }
    report(target, n, t);
    eprintln!("fuzz {target}: inputs by kind (sampled 1 in 64): {kinds:?}");
}

#[test]
fn fuzz_import_kstreams() {
    fuzz_import(
        "import_kstreams",
        "tests/imports/kstreams",
        lbscope::fuzzing::import_kstreams,
        41,
    );
}

#[test]
fn fuzz_import_flink() {
    fuzz_import(
        "import_flink",
        "tests/imports/flink",
        lbscope::fuzzing::import_flink,
        43,
    );
}

#[test]
fn fuzz_import_pulsar() {
    fuzz_import(
        "import_pulsar",
        "tests/imports/pulsar",
        lbscope::fuzzing::import_pulsar,
        47,
    );
}
