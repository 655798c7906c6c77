//! `lbscope-webbuild`: builds the web app into `dist/` and serves it, with nothing but cargo,
//! the wasm-bindgen library (the version the app links) and `wasm-opt` (npm `binaryen`).
//!
//! ```text
//! lbscope-webbuild dist [--release] [--profile P] [--wasm-opt LEVEL|off] [--out DIR] [--html FILE]
//! lbscope-webbuild serve [--dir DIR] [--port N] [--addr IP] [--quiet]
//! lbscope-webbuild size [FILE] [--top N]
//! lbscope-webbuild budget [--dir DIR]
//! ```
//!
//! `dist` reads the page template's markers (see `page.rs`), runs
//! `cargo build --target wasm32-unknown-unknown --bin <data-bin> --profile <P>`, generates the JS
//! glue (`--target web`, no TypeScript, as trunk does), runs `wasm-opt -O<level>` on a release
//! build, copies the stylesheets, icon and boot module, writes `index.html` with subresource
//! integrity (and the wasm's size in its loading line), gzip and Brotli copies of each text
//! file and of the wasm (`compress.rs`) and `build.json` (what was built, for `budget`), and only then
//! replaces the output directory. Each step's time is printed.
//! wasm-opt keeps the function names (`-g`) in a side copy, `webbuild/<out>-names.wasm` in cargo's
//! target directory, and `dist/` gets the same module without its `name` section; `size` reads that copy and
//! prints where the bytes go (see `size.rs`).

mod budget;
mod compress;
mod page;
mod serve;
mod size;

use anyhow::{anyhow, bail, Context, Result};
use base64::Engine as _;
use sha2::Digest as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const USAGE: &str = "\
usage: lbscope-webbuild dist [--release] [--profile P] [--wasm-opt LEVEL|off] [--out DIR] [--html FILE]
       lbscope-webbuild serve [--dir DIR] [--port N] [--addr IP] [--quiet]
       lbscope-webbuild size [FILE] [--top N]
       lbscope-webbuild budget [--dir DIR]

dist   build the web app into DIR (default dist/): cargo (wasm32), wasm-bindgen, wasm-opt
       (release only), the page's assets, index.html with subresource integrity, .gz and
       .br copies of each text file and of the wasm, build.json.
       --release     use index.html's data-cargo-profile-release and data-wasm-opt
       --profile P   build with cargo profile P instead (default: dev, or the release one)
       --wasm-opt L  run wasm-opt -OL (0 1 2 3 4 s z) or not at all (off)
serve  serve DIR (default dist/) on http://127.0.0.1:8080/ until stopped (the .br or .gz
       copies to a browser that accepts them)
size   where the bytes of FILE go: per section, per crate and module, serde, the N (default 25)
       largest functions (default FILE: webbuild/dist-names.wasm in cargo's target directory,
       which the last `dist --release` wrote: its wasm with the function names kept)
budget fail unless DIR (default dist/) holds a release build whose gzipped wasm is within
       its budget (tools/webbuild/src/budget.rs)";

#[derive(Debug, Default, PartialEq)]
struct DistOpts {
    release: bool,
    profile: Option<String>,
    wasm_opt: Option<String>,
    out: Option<PathBuf>,
    html: Option<PathBuf>,
}

#[derive(Debug, PartialEq)]
struct ServeOpts {
    dir: PathBuf,
    port: u16,
    addr: std::net::IpAddr,
    quiet: bool,
}

#[derive(Debug, PartialEq)]
enum Cmd {
    Dist(DistOpts),
    Serve(ServeOpts),
    /// `file` is `None` for the default: the names copy of the last `dist --release`.
    Size {
        file: Option<PathBuf>,
        top: usize,
    },
    Budget {
        dir: PathBuf,
    },
    Help,
}

fn parse(args: &[String]) -> Result<Cmd> {
    let mut it = args.iter();
    let cmd = it.next().map(String::as_str);
    let value = |flag: &str, it: &mut std::slice::Iter<String>| {
        it.next()
            .cloned()
            .ok_or_else(|| anyhow!("{flag} needs a value\n\n{USAGE}"))
    };
    match cmd {
        None | Some("-h" | "--help" | "help") => Ok(Cmd::Help),
        Some("dist") => {
            let mut o = DistOpts::default();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--release" => o.release = true,
                    "--profile" => o.profile = Some(value(a, &mut it)?),
                    "--wasm-opt" => o.wasm_opt = Some(value(a, &mut it)?),
                    "--out" => o.out = Some(value(a, &mut it)?.into()),
                    "--html" => o.html = Some(value(a, &mut it)?.into()),
                    other => bail!("unknown option `{other}` for dist\n\n{USAGE}"),
                }
            }
            Ok(Cmd::Dist(o))
        }
        Some("serve") => {
            let mut o = ServeOpts {
                dir: "dist".into(),
                port: 8080,
                addr: [127, 0, 0, 1].into(),
                quiet: false,
            };
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--dir" => o.dir = value(a, &mut it)?.into(),
                    "--port" => {
                        let v = value(a, &mut it)?;
                        o.port = v
                            .parse()
                            .map_err(|_| anyhow!("--port: `{v}` is not a port number"))?;
                    }
                    "--addr" => {
                        let v = value(a, &mut it)?;
                        o.addr = v
                            .parse()
                            .map_err(|_| anyhow!("--addr: `{v}` is not an IP address"))?;
                    }
                    "--quiet" => o.quiet = true,
                    other => bail!("unknown option `{other}` for serve\n\n{USAGE}"),
                }
            }
            Ok(Cmd::Serve(o))
        }
        Some("size") => {
            let mut file = None;
            let mut top = 25;
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--top" => {
                        let v = value(a, &mut it)?;
                        top = v.parse().map_err(|_| anyhow!("--top: `{v}` is not a count"))?;
                    }
                    f if !f.starts_with('-') => file = Some(f.into()),
                    other => bail!("unknown option `{other}` for size\n\n{USAGE}"),
                }
            }
            Ok(Cmd::Size { file, top })
        }
        Some("budget") => {
            let mut dir = PathBuf::from("dist");
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--dir" => dir = value(a, &mut it)?.into(),
                    other => bail!("unknown option `{other}` for budget\n\n{USAGE}"),
                }
            }
            Ok(Cmd::Budget { dir })
        }
        Some(other) => bail!("unknown command `{other}`\n\n{USAGE}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse(&args).and_then(|cmd| match cmd {
        Cmd::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Cmd::Dist(o) => dist(&o),
        Cmd::Serve(o) => serve::serve(&o.dir, o.addr, o.port, o.quiet),
        Cmd::Budget { dir } => budget::run(&dir),
        Cmd::Size { file, top } => match file {
            Some(file) => size::run(&file, top),
            None => size::run(
                &cargo_target_dir(Path::new("."))?.join("webbuild/dist-names.wasm"),
                top,
            ),
        },
    });
    if let Err(e) = result {
        eprintln!("lbscope-webbuild: error: {e:#}");
        std::process::exit(1);
    }
}

/// Where cargo puts what it builds for the workspace at `root`: `./target`, or wherever
/// `CARGO_TARGET_DIR` or a cargo config says (as `cargo metadata` reports it).
fn cargo_target_dir(root: &Path) -> Result<PathBuf> {
    target_dir_from(metadata_command(root))
}

fn metadata_command(root: &Path) -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .stderr(Stdio::inherit());
    cmd
}

fn target_dir_from(mut metadata: Command) -> Result<PathBuf> {
    let out = metadata
        .output()
        .with_context(|| format!("cannot run {}", metadata.get_program().to_string_lossy()))?;
    if !out.status.success() {
        bail!("cargo metadata failed ({})", out.status);
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("reading cargo metadata's output")?;
    meta["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| anyhow!("cargo metadata names no target_directory"))
}

/// Moves the directory `from` to `to` (which must not exist): a rename, or a copy and a
/// removal when the two are on different file systems (cargo's target directory elsewhere).
fn move_dir(from: &Path, to: &Path) -> Result<()> {
    if std::fs::rename(from, to).is_ok() {
        return Ok(());
    }
    copy_dir(from, to).with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    std::fs::remove_dir_all(from).with_context(|| format!("cannot remove {}", from.display()))
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &dest)?;
        } else {
            std::fs::copy(entry.path(), dest)?;
        }
    }
    Ok(())
}

/// `sha384-<base64>`, the subresource integrity of `bytes`.
fn integrity(bytes: &[u8]) -> String {
    let hash = sha2::Sha384::digest(bytes);
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(hash)
    )
}

fn step(name: &str, t: Instant) {
    eprintln!("lbscope-webbuild: {name}: {:.1} s", t.elapsed().as_secs_f64());
}

fn size(path: &Path) -> String {
    let n = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    format!("{} bytes ({:.0} KiB)", n, n as f64 / 1024.0)
}

/// What the template's `<link data-trunk rel="rust">` asks for.
struct RustApp {
    bin: String,
    profile: String,
    wasm_opt: Option<String>,
}

fn rust_app(tags: &[page::Tag], o: &DistOpts) -> Result<RustApp> {
    let mut rust = tags
        .iter()
        .filter(|t| t.has("data-trunk") && t.get("rel") == Some("rust"));
    let tag = rust
        .next()
        .ok_or_else(|| anyhow!("index.html has no <link data-trunk rel=\"rust\" data-bin=\"…\">"))?;
    if rust.next().is_some() {
        bail!("index.html has more than one <link data-trunk rel=\"rust\">");
    }
    let bin = tag.require("data-bin")?.to_string();
    let profile = match (&o.profile, o.release) {
        (Some(p), _) => p.clone(),
        (None, true) => tag
            .get("data-cargo-profile-release")
            .unwrap_or("release")
            .to_string(),
        (None, false) => tag.get("data-cargo-profile").unwrap_or("dev").to_string(),
    };
    let level = match (&o.wasm_opt, o.release) {
        (Some(l), _) => l.clone(),
        (None, true) => tag.get("data-wasm-opt").unwrap_or("off").to_string(),
        (None, false) => "off".to_string(),
    };
    let wasm_opt = match level.as_str() {
        "off" | "none" => None,
        "0" | "1" | "2" | "3" | "4" | "s" | "z" => Some(level),
        other => bail!("wasm-opt level `{other}`: expected 0, 1, 2, 3, 4, s, z or off"),
    };
    Ok(RustApp {
        bin,
        profile,
        wasm_opt,
    })
}

/// `cargo build` of the app for wasm32; returns the path of the linked `.wasm`.
fn cargo_build(root: &Path, app: &RustApp) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut child = Command::new(&cargo)
        .current_dir(root)
        .args([
            "build",
            "--target",
            "wasm32-unknown-unknown",
            "--message-format=json-render-diagnostics",
        ])
        .args(["--profile", &app.profile, "--bin", &app.bin])
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", Path::new(&cargo).display()))?;
    let mut wasm = None;
    let stdout = child.stdout.take().expect("piped stdout");
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line.context("reading cargo's output")?;
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if msg["reason"] == "compiler-artifact" && msg["target"]["name"] == app.bin.as_str() {
            if let Some(files) = msg["filenames"].as_array() {
                wasm = files
                    .iter()
                    .filter_map(|f| f.as_str())
                    .find(|f| f.ends_with(".wasm"))
                    .map(PathBuf::from)
                    .or(wasm);
            }
        }
    }
    let status = child.wait().context("waiting for cargo")?;
    if !status.success() {
        bail!("cargo build of {} for wasm32 failed ({status})", app.bin);
    }
    wasm.ok_or_else(|| anyhow!("cargo built no .wasm for the binary `{}`", app.bin))
}

/// `wasm-opt -O<level>` of `file` in place, without its `name` section; the optimised module
/// with its function names is written to `names` (`-g` changes no code, only keeps the names).
fn wasm_opt(level: &str, file: &Path, names: &Path) -> Result<()> {
    let exe = std::env::var_os("WASM_OPT").unwrap_or_else(|| "wasm-opt".into());
    let status = Command::new(&exe)
        .arg(format!("--output={}", names.display()))
        .arg(format!("-O{level}"))
        .arg("-g")
        .arg(file)
        .status()
        .map_err(|e| {
            anyhow!(
                "cannot run {} ({e}): it comes from the npm package binaryen \
                 (`npm ci --prefix www-tests` puts it in www-tests/node_modules/.bin), or set WASM_OPT",
                Path::new(&exe).display()
            )
        })?;
    if !status.success() {
        bail!("wasm-opt -O{level} failed ({status})");
    }
    let named = std::fs::read(names).with_context(|| format!("reading {}", names.display()))?;
    std::fs::write(file, size::strip_names(&named)?)
        .with_context(|| format!("replacing {}", file.display()))?;
    Ok(())
}

/// The file name an asset gets at the root of the output (trunk's layout).
fn file_name(href: &str) -> Result<String> {
    Path::new(href)
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| anyhow!("`{href}` names no file"))
}

fn copy_asset(root: &Path, href: &str, stage: &Path) -> Result<(String, String)> {
    let name = file_name(href)?;
    let src = root.join(href);
    let dest = stage.join(&name);
    if dest.exists() {
        bail!("two files of the page would both be {name}");
    }
    let bytes = std::fs::read(&src).with_context(|| format!("cannot read {}", src.display()))?;
    std::fs::write(&dest, &bytes).with_context(|| format!("cannot write {}", dest.display()))?;
    Ok((name, integrity(&bytes)))
}

fn dist(o: &DistOpts) -> Result<()> {
    let total = Instant::now();
    let html_path = o.html.clone().unwrap_or_else(|| "index.html".into());
    let (root, out) = match html_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => (p.to_path_buf(), p.join("dist")),
        _ => (PathBuf::from("."), PathBuf::from("dist")),
    };
    let out = o.out.clone().unwrap_or(out);
    let html = std::fs::read_to_string(&html_path)
        .with_context(|| format!("cannot read {}", html_path.display()))?;
    let tags = page::tags(&html)?;
    let app = rust_app(&tags, o)?;

    let t = Instant::now();
    let wasm = cargo_build(&root, &app)?;
    step(&format!("cargo build --profile {} (wasm32)", app.profile), t);

    // Stage next to cargo's own output (webbuild/<out> in its target directory), replace `out` only at the end.
    let target_dir = wasm
        .ancestors()
        .nth(3)
        .ok_or_else(|| anyhow!("unexpected artifact path {}", wasm.display()))?;
    let out_name = out
        .file_name()
        .ok_or_else(|| anyhow!("--out {} names no directory", out.display()))?;
    let stage = target_dir.join("webbuild").join(out_name);
    if stage.exists() {
        std::fs::remove_dir_all(&stage).with_context(|| format!("cannot clear {}", stage.display()))?;
    }
    std::fs::create_dir_all(&stage).with_context(|| format!("cannot create {}", stage.display()))?;

    let t = Instant::now();
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)?
        .typescript(false)
        // As the wasm-bindgen CLI (and so trunk) does: the glue defaults to `<name>_bg.wasm`.
        .omit_default_module_path(false)
        .out_name(&app.bin)
        .generate(&stage)
        .context("wasm-bindgen")?;
    step("wasm-bindgen", t);
    let glue = format!("{}.js", app.bin);
    let bg = stage.join(format!("{}_bg.wasm", app.bin));

    if let Some(level) = &app.wasm_opt {
        let before = size(&bg);
        let t = Instant::now();
        let names = target_dir
            .join("webbuild")
            .join(format!("{}-names.wasm", out_name.to_string_lossy()));
        wasm_opt(level, &bg, &names)?;
        step(&format!("wasm-opt -O{level} ({before} -> {})", size(&bg)), t);
    }

    // The wasm's compressed copies first: the page's loading line states their size.
    let t = Instant::now();
    let quality = if app.wasm_opt.is_some() {
        compress::BROTLI_QUALITY_WASM
    } else {
        compress::BROTLI_QUALITY_QUICK
    };
    let wasm_gz = compress::precompress_file(&bg, quality)?
        .ok_or_else(|| anyhow!("{} does not compress", bg.display()))?;
    step(
        &format!(
            "gzip -{} and brotli -q {} of the wasm ({} -> {} and {} bytes)",
            compress::LEVEL,
            quality,
            wasm_gz.raw,
            wasm_gz.gz,
            wasm_gz.br.map_or("no smaller".to_string(), |b| b.to_string())
        ),
        t,
    );

    let t = Instant::now();
    // A stylesheet in <body> blocks the parser where it stands, so the browser would fetch them
    // one after another: each gets a preload in <head>, and they all download at once.
    let body_start = html.find("<body").unwrap_or(html.len());
    let mut preloads = Vec::new();
    let page = page::rewrite(&html, &tags, |tag| {
        if tag.has("data-trunk") {
            let rel = tag.require("rel")?;
            let extra = page::passthrough(tag);
            return Ok(Some(match rel {
                "css" | "icon" => {
                    let (name, sri) = copy_asset(&root, tag.require("href")?, &stage)?;
                    let href = format!("/{name}");
                    if rel == "css" && tag.span.start > body_start {
                        preloads.push(page::write_tag(
                            "link",
                            &[
                                ("rel", "preload"),
                                ("href", &href),
                                ("as", "style"),
                                ("integrity", &sri),
                            ],
                            true,
                        ));
                    }
                    let rel = if rel == "css" { "stylesheet" } else { "icon" };
                    let mut attrs = vec![("rel", rel), ("href", href.as_str())];
                    attrs.extend(extra);
                    attrs.push(("integrity", &sri));
                    page::write_tag("link", &attrs, true)
                }
                "copy-file" => {
                    copy_asset(&root, tag.require("href")?, &stage)?;
                    String::new()
                }
                "rust" => {
                    let sri = integrity(&std::fs::read(stage.join(&glue))?);
                    let href = format!("/{glue}");
                    let glue = page::write_tag(
                        "link",
                        &[("rel", "modulepreload"), ("href", &href), ("integrity", &sri)],
                        true,
                    );
                    // The wasm starts downloading with the page, not once the boot module
                    // runs (after the stylesheets); its `fetch` in index.js takes this response.
                    let wasm = format!("/{}_bg.wasm", app.bin);
                    let preload = page::write_tag(
                        "link",
                        &[
                            ("rel", "preload"),
                            ("href", &wasm),
                            ("as", "fetch"),
                            ("type", "application/wasm"),
                            ("crossorigin", ""),
                        ],
                        true,
                    );
                    format!("{glue}\n  {preload}")
                }
                other => bail!("unknown marker rel=\"{other}\" (known: css, icon, copy-file, rust)"),
            }));
        }
        if tag.name == "script" && !tag.has("integrity") {
            if let Some(file) = tag.get("src").and_then(|s| s.strip_prefix('/')) {
                let path = stage.join(file);
                if path.is_file() {
                    let sri = integrity(&std::fs::read(&path)?);
                    let mut attrs: Vec<(&str, &str)> =
                        tag.attrs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                    attrs.push(("integrity", &sri));
                    return Ok(Some(page::write_tag("script", &attrs, false)));
                }
            }
        }
        Ok(None)
    })?;
    // The download as `serve` (and a host that serves the Brotli copies) sends it.
    let page = page::fill_engine_size(&page, wasm_gz.raw, wasm_gz.br.unwrap_or(wasm_gz.gz));
    let page = page::insert_in_head(&page, &preloads)?;
    std::fs::write(stage.join("index.html"), page).context("cannot write index.html")?;
    let gz = compress::precompress(&stage, std::slice::from_ref(&bg))?;
    let build = budget::Build {
        release: o.release && o.profile.is_none() && o.wasm_opt.is_none(),
        profile: app.profile.clone(),
        wasm_opt: app.wasm_opt.clone().unwrap_or_else(|| "off".into()),
        wasm: format!("{}_bg.wasm", app.bin),
        wasm_bytes: wasm_gz.raw,
        wasm_gz_bytes: wasm_gz.gz,
        wasm_br_bytes: wasm_gz.br,
    };
    std::fs::write(stage.join("build.json"), build.to_json()).context("cannot write build.json")?;

    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("cannot replace {}", out.display()))?;
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    move_dir(&stage, &out)?;
    step(
        &format!(
            "assets, index.html and the compressed copies of {} files",
            gz.len()
        ),
        t,
    );
    eprintln!(
        "lbscope-webbuild: {} ready ({} profile, wasm {}, {} gzipped, {} with Brotli) in {:.1} s",
        out.display(),
        app.profile,
        size(&out.join(format!("{}_bg.wasm", app.bin))),
        compress::human(wasm_gz.gz),
        wasm_gz.br.map_or("no smaller".to_string(), compress::human),
        total.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_commands() {
        assert_eq!(parse(&[]).unwrap(), Cmd::Help);
        assert_eq!(
            parse(&args("dist --release --out target/x")).unwrap(),
            Cmd::Dist(DistOpts {
                release: true,
                out: Some("target/x".into()),
                ..Default::default()
            })
        );
        let Cmd::Serve(s) = parse(&args("serve --port 8081 --dir d")).unwrap() else {
            panic!()
        };
        assert_eq!(
            (s.port, s.dir, s.addr.to_string()),
            (8081, "d".into(), "127.0.0.1".into())
        );
        assert!(parse(&args("serve --port x"))
            .unwrap_err()
            .to_string()
            .contains("not a port"));
        assert!(parse(&args("dist --fast")).is_err());
        assert!(parse(&args("dist --out")).is_err());
        assert!(parse(&args("deploy")).is_err());
        assert_eq!(
            parse(&args("size x.wasm --top 5")).unwrap(),
            Cmd::Size {
                file: Some("x.wasm".into()),
                top: 5
            }
        );
        assert_eq!(parse(&args("size")).unwrap(), Cmd::Size { file: None, top: 25 });
        assert_eq!(
            parse(&args("budget")).unwrap(),
            Cmd::Budget { dir: "dist".into() }
        );
        assert_eq!(
            parse(&args("budget --dir d")).unwrap(),
            Cmd::Budget { dir: "d".into() }
        );
        assert!(parse(&args("budget --max 3")).is_err());
    }

    /// The workspace's root (this tool lives in tools/webbuild).
    fn workspace() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lbscope-webbuild-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_target_directory_follows_cargo_target_dir() {
        let elsewhere = scratch("elsewhere");
        let mut cmd = metadata_command(&workspace());
        cmd.env("CARGO_TARGET_DIR", &elsewhere);
        assert_eq!(target_dir_from(cmd).unwrap(), elsewhere);
        let mut cmd = metadata_command(&workspace());
        cmd.env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET_DIR");
        assert_eq!(
            target_dir_from(cmd).unwrap(),
            workspace().canonicalize().unwrap().join("target")
        );
    }

    #[test]
    fn the_makefile_asks_cargo_for_its_target_directory() {
        if Command::new("make").arg("--version").output().is_err() {
            return;
        }
        let elsewhere = scratch("make");
        let out = Command::new("make")
            .args(["-s", "target-dir"])
            .current_dir(workspace())
            .env("CARGO_TARGET_DIR", &elsewhere)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            elsewhere.to_str().unwrap()
        );
    }

    #[test]
    fn a_staged_directory_moves_whole() {
        let from = scratch("stage");
        std::fs::create_dir_all(from.join("sub")).unwrap();
        std::fs::write(from.join("a.txt"), "a").unwrap();
        std::fs::write(from.join("sub/b.txt"), "b").unwrap();
        // The copy that a move across file systems makes, then the move itself.
        let copied = scratch("copied");
        copy_dir(&from, &copied).unwrap();
        let moved = scratch("moved");
        move_dir(&from, &moved).unwrap();
        for dir in [&copied, &moved] {
            assert_eq!(std::fs::read_to_string(dir.join("a.txt")).unwrap(), "a");
            assert_eq!(std::fs::read_to_string(dir.join("sub/b.txt")).unwrap(), "b");
            std::fs::remove_dir_all(dir).unwrap();
        }
        assert!(!from.exists());
    }

    #[test]
    fn reads_the_rust_marker() {
        let html = r#"<link data-trunk rel="rust" data-bin="app" data-wasm-opt="z" data-cargo-profile-release="wasm-release">"#;
        let tags = page::tags(html).unwrap();
        let dev = rust_app(&tags, &DistOpts::default()).unwrap();
        assert_eq!(
            (dev.bin.as_str(), dev.profile.as_str(), dev.wasm_opt),
            ("app", "dev", None)
        );
        let rel = rust_app(
            &tags,
            &DistOpts {
                release: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(
            (rel.profile.as_str(), rel.wasm_opt.as_deref()),
            ("wasm-release", Some("z"))
        );
        let own = DistOpts {
            profile: Some("wasm-profile".into()),
            wasm_opt: Some("off".into()),
            release: true,
            ..Default::default()
        };
        let p = rust_app(&tags, &own).unwrap();
        assert_eq!((p.profile.as_str(), p.wasm_opt), ("wasm-profile", None));
        let bad = DistOpts {
            wasm_opt: Some("9".into()),
            ..Default::default()
        };
        assert!(rust_app(&tags, &bad).is_err());
        assert!(rust_app(
            &page::tags("<link data-trunk rel=\"css\" href=\"a.css\">").unwrap(),
            &own
        )
        .is_err());
    }

    #[test]
    fn integrity_is_sha384_base64() {
        // `printf abc | openssl dgst -sha384 -binary | base64`
        assert_eq!(
            integrity(b"abc"),
            "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }
}
