//! The size budget of the release wasm: `lbscope-webbuild budget` (a step of `make test`, right
//! after `make wasm-release`) fails when the gzipped wasm of the release build in `dist/` is
//! over [`WASM_GZ_BUDGET`]. Bytes are deterministic (no timing): a feature that adds weight
//! shows here, and either pays for it elsewhere or raises the budget in the same commit, with
//! the reason (docs/performance.md, "Size budget").
//!
//! `dist` writes `build.json` beside the page: what was built and the sizes this reads.

use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;

/// The budget: the gzipped release wasm (`lbscope-web_bg.wasm.gz` in `dist/`, DEFLATE level 10)
/// may weigh at most this many bytes. Set at the size measured when the budget was introduced
/// (1,287,997 bytes, 3,373,985 raw) plus about 1 %; raised to 1,360,000 when the Examples and
/// Questions galleries, the lessons' predictions, the motion player and the seeded Flink
/// request order came in together (1,349,684 bytes, 3,557,606 raw); raised to 1,450,000 when
/// Pulsar's scalable topics (engine, segment view, lesson, gallery entries), Kafka's
/// balance_subtopology graph solver, the outcome meters and the phase captions came in
/// together (1,437,912 bytes, 3,814,815 raw), none of the size levers in
/// docs/performance.md pulled yet; raised to 1,470,000 when the playground began to show the
/// run's outcome (the meters linked into the page) and its spread over seeds in the engine
/// worker (1,465,754 bytes, 3,886,480 raw; docs/perf-log/2026-12-07-spread.md); raised to
/// 1,490,000 when Pulsar's 4.0 / 4.2 / 5.0 profiles, the free-play builders (natural sort,
/// counts, a topic at a hash, the bundle-count note, large presets), the ring's labels and
/// owner numbers, two more questions and the phase-by-phase round card came in with it
/// (1,481,029 bytes, 3,921,624 raw; docs/perf-log/2026-12-wasm-size.md); lowered to
/// 1,425,000 when the scenario's tagged enums (actions, workload targets and shapes, the
/// isolation failover policy) and the scenario itself were read from a JSON value without
/// serde's buffered reader (1,482,237 -> 1,416,262 bytes, 3,923,998 -> 3,705,847 raw;
/// docs/perf-log/2026-12-07-tagged-reader.md); raised to 1,450,000 when Kafka 4.4's streams
/// groups (rack-aware standby picker, balanced assignor), Java's TimSort for `pulsar-4.0`,
/// Pulsar's reasons as types, the bounce question and the merged function splits came in
/// together (1,445,008 bytes, 3,771,388 raw; docs/perf-log/2026-12-07-tagged-reader.md).
pub const WASM_GZ_BUDGET: u64 = 1_450_000;

/// Where the size should go (docs/performance.md says what would get there).
pub const WASM_GZ_TARGET: u64 = 900_000;

/// What `dist` records of a build in `dist/build.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// Built with `--release` and no other profile or wasm-opt level: what `make test` ships.
    pub release: bool,
    /// The cargo profile.
    pub profile: String,
    /// The wasm-opt level, or `off`.
    pub wasm_opt: String,
    /// The wasm's file name in `dist/`.
    pub wasm: String,
    /// Its size.
    pub wasm_bytes: u64,
    /// The size of its `.gz` copy.
    pub wasm_gz_bytes: u64,
    /// The size of its `.br` copy, if it has one.
    pub wasm_br_bytes: Option<u64>,
}

impl Build {
    pub fn to_json(&self) -> String {
        let v = serde_json::json!({
            "release": self.release,
            "profile": self.profile,
            "wasm_opt": self.wasm_opt,
            "wasm": self.wasm,
            "wasm_bytes": self.wasm_bytes,
            "wasm_gz_bytes": self.wasm_gz_bytes,
            "wasm_br_bytes": self.wasm_br_bytes,
        });
        serde_json::to_string_pretty(&v).expect("a JSON value") + "\n"
    }

    pub fn from_json(text: &str) -> Result<Build> {
        let v: serde_json::Value = serde_json::from_str(text)?;
        let s = |k: &str| {
            v[k].as_str()
                .map(str::to_string)
                .ok_or_else(|| anyhow!("build.json: `{k}` is missing"))
        };
        let n = |k: &str| {
            v[k].as_u64()
                .ok_or_else(|| anyhow!("build.json: `{k}` is missing"))
        };
        Ok(Build {
            release: v["release"].as_bool().unwrap_or(false),
            profile: s("profile")?,
            wasm_opt: s("wasm_opt")?,
            wasm: s("wasm")?,
            wasm_bytes: n("wasm_bytes")?,
            wasm_gz_bytes: n("wasm_gz_bytes")?,
            wasm_br_bytes: v["wasm_br_bytes"].as_u64(),
        })
    }
}

/// The release build recorded in `dir`, with its sizes checked against the files; `Ok(None)`
/// when `dir` holds no build or one that is not the release build.
pub fn release_build(dir: &Path) -> Result<Option<Build>> {
    let manifest = dir.join("build.json");
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        return Ok(None);
    };
    let build = Build::from_json(&text).with_context(|| format!("reading {}", manifest.display()))?;
    if !build.release {
        return Ok(None);
    }
    let wasm = dir.join(&build.wasm);
    let gz = crate::compress::gz_path(&wasm);
    let len = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.len())
            .with_context(|| format!("{} is missing", p.display()))
    };
    if len(&wasm)? != build.wasm_bytes || len(&gz)? != build.wasm_gz_bytes {
        bail!(
            "{} does not match {}: rebuild with `make wasm-release`",
            wasm.display(),
            manifest.display()
        );
    }
    Ok(Some(build))
}

/// One line on the build against the budget and the target; `Err` when over the budget.
pub fn check(build: &Build, budget: u64, target: u64) -> Result<String> {
    let gz = build.wasm_gz_bytes;
    let br = build
        .wasm_br_bytes
        .map_or(String::new(), |b| format!(", {b} with Brotli"));
    let line = format!(
        "release wasm: {} bytes gzipped ({} bytes raw{br}); budget {budget} bytes ({:+} bytes, {:.1} %); target {target} bytes ({:+} bytes to go)",
        gz,
        build.wasm_bytes,
        gz as i64 - budget as i64,
        gz as f64 * 100.0 / budget as f64,
        gz as i64 - target as i64,
    );
    if gz > budget {
        bail!(
            "{line}\nthe gzipped release wasm is over its budget by {} bytes: make the change smaller, \
             or pay for it elsewhere (docs/performance.md, \"Size budget\"), or raise \
             WASM_GZ_BUDGET in tools/webbuild/src/budget.rs with the reason",
            gz - budget
        );
    }
    Ok(line)
}

/// `lbscope-webbuild budget`: the release build in `dir` against the budget.
pub fn run(dir: &Path) -> Result<()> {
    let build = release_build(dir)?.ok_or_else(|| {
        anyhow!(
            "{} holds no release build (its build.json is missing or names another build): \
             run `make wasm-release` first",
            dir.display()
        )
    })?;
    println!("{}", check(&build, WASM_GZ_BUDGET, WASM_GZ_TARGET)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(gz: u64) -> Build {
        Build {
            release: true,
            profile: "wasm-release".into(),
            wasm_opt: "z".into(),
            wasm: "app_bg.wasm".into(),
            wasm_bytes: gz * 3,
            wasm_gz_bytes: gz,
            wasm_br_bytes: Some(gz * 3 / 4),
        }
    }

    #[test]
    fn over_the_budget_fails_and_says_by_how_much() {
        assert!(check(&build(1000), 1000, 900)
            .unwrap()
            .contains("1000 bytes gzipped"));
        let err = check(&build(1001), 1000, 900).unwrap_err().to_string();
        assert!(err.contains("over its budget by 1 bytes"), "{err}");
        assert!(err.contains("WASM_GZ_BUDGET"), "{err}");
        assert!(check(&build(950), 1000, 900).unwrap().contains("+50 bytes to go"));
    }

    #[test]
    fn the_manifest_round_trips_and_is_checked_against_the_files() {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-budget-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(release_build(&dir).unwrap(), None, "no build.json: no build");
        std::fs::write(dir.join("app_bg.wasm"), [7u8; 3000]).unwrap();
        let w = crate::compress::precompress_file(&dir.join("app_bg.wasm"), crate::compress::BROTLI_QUALITY)
            .unwrap()
            .unwrap();
        let mut b = Build {
            wasm_bytes: w.raw,
            wasm_gz_bytes: w.gz,
            wasm_br_bytes: w.br,
            ..build(0)
        };
        assert_eq!(Build::from_json(&b.to_json()).unwrap(), b);
        std::fs::write(dir.join("build.json"), b.to_json()).unwrap();
        assert_eq!(release_build(&dir).unwrap(), Some(b.clone()));
        // A quick build (`make serve FAST=1`) is not measured against the budget.
        b.release = false;
        std::fs::write(dir.join("build.json"), b.to_json()).unwrap();
        assert_eq!(release_build(&dir).unwrap(), None);
        assert!(run(&dir).unwrap_err().to_string().contains("make wasm-release"));
        // A wasm replaced after the build is caught.
        b.release = true;
        std::fs::write(dir.join("build.json"), b.to_json()).unwrap();
        std::fs::write(dir.join("app_bg.wasm"), [7u8; 10]).unwrap();
        assert!(release_build(&dir)
            .unwrap_err()
            .to_string()
            .contains("does not match"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The release build that `make wasm-release` left in the workspace's `dist/`, against the
    /// budget. `make test` runs the same check (`lbscope-webbuild budget`) after building it.
    #[test]
    fn the_release_wasm_in_dist_fits_its_budget() {
        let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dist");
        match release_build(&dist).unwrap() {
            Some(b) => println!("{}", check(&b, WASM_GZ_BUDGET, WASM_GZ_TARGET).unwrap()),
            None => eprintln!(
                "skipped: {} holds no release build (run `make wasm-release`; `make test` checks it with `lbscope-webbuild budget`)",
                dist.display()
            ),
        }
    }
}
