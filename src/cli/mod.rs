//! The `lbscope` command line (native only).

use crate::engine::pulsar::{bundle, topic::TopicName};
use crate::engine::System;
use crate::scenario::{run, url, Scenario};
use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

mod render;

#[derive(Parser, Debug)]
#[command(
    name = "lbscope",
    version,
    about = "Pulsar, Flink and Kafka Streams load balancing, reproduced"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print each topic's Pulsar hash and the bundle it lands in.
    Ring {
        /// Number of bundles of the namespace.
        #[arg(long, default_value_t = 4)]
        bundles: u32,
        /// Topic names (full `persistent://tenant/ns/topic`, or short).
        #[arg(required = true)]
        topics: Vec<String>,
    },
    /// Replay a scenario file and print its event log.
    Run {
        /// A scenario JSON file (see docs/scenario.md).
        file: std::path::PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Append this many rounds (Step / Schedule / Rebalance) to the log first.
        #[arg(long, default_value_t = 0)]
        rounds: usize,
        /// The outcome's settling rule: rounds without a move (default 3).
        #[arg(long)]
        quiet_rounds: Option<u32>,
        /// The outcome's settling rule: widest spread of load, in the system's unit
        /// (default: Pulsar 20 percentage points, Flink and Kafka Streams 1 task).
        #[arg(long)]
        band: Option<f64>,
        /// Replay under this version profile (e.g. pulsar-4.0, pulsar-4.2,
        /// pulsar-5.0): the keys the scenario sets keep their values, the rest
        /// take the profile's defaults (docs/modelled.md lists the profiles).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Replay one scenario over many seeds (and settings) in parallel and print
    /// each outcome figure's distribution (see docs/outcomes.md).
    Sweep {
        /// A scenario file, a share link, or a preset's name (lbscope preset --list).
        scenario: String,
        /// Seeds: a count N (1 to N) or a range A..B (both ends included).
        #[arg(long, default_value = "100")]
        seeds: String,
        /// Settings to compare, `key=v1,v2,...` with the scenario's config keys
        /// (repeatable: every combination).
        #[arg(long, value_name = "KEY=VALUES")]
        vary: Vec<String>,
        /// One setting of several keys, `key=value; key=value` (repeatable: one
        /// setting each), for keys that only make sense together.
        #[arg(long, value_name = "KEY=VALUE; ...")]
        setting: Vec<String>,
        /// Append this many rounds (Step / Schedule / Rebalance) to the log first.
        #[arg(long, default_value_t = 0)]
        rounds: usize,
        /// Output format of the table.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also draw the distributions as SVG to this file.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// The figures the SVG draws (repeatable; all by default).
        #[arg(long)]
        figure: Vec<String>,
        /// Threads (the machine's cores by default); the output is the same for any.
        #[arg(long)]
        threads: Option<usize>,
        /// The settling rule: rounds without a move (default 3).
        #[arg(long)]
        quiet_rounds: Option<u32>,
        /// The settling rule: widest spread of load, in the system's unit.
        #[arg(long)]
        band: Option<f64>,
        /// Replay under this version profile (see `run --profile`).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Draw a view of a scenario as SVG, with the playground's view code (for docs and slides).
    Render {
        /// A scenario JSON file.
        file: std::path::PathBuf,
        /// ring or brokers (Pulsar), slots (Flink), instances (Kafka Streams), chart (any); the system's main view by default.
        #[arg(long)]
        view: Option<String>,
        /// Write the SVG to this file instead of stdout.
        #[arg(short = 'o', long = "out", visible_alias = "svg")]
        out: Option<std::path::PathBuf>,
        /// Pulsar ring: the namespace (the first one by default).
        #[arg(long)]
        namespace: Option<String>,
        /// Draw the state after this many log actions (the scenario's cursor by default).
        #[arg(long, conflicts_with = "round")]
        cursor: Option<usize>,
        /// Draw the state after the log's N-th round (Step / Schedule / Rebalance; 0: before the first).
        #[arg(long)]
        round: Option<usize>,
        /// Append this many rounds (Step / Schedule / Rebalance) to the log first.
        #[arg(long, default_value_t = 0)]
        rounds: usize,
    },
    /// Print the share URL of a scenario file.
    Url {
        /// A scenario JSON file.
        file: std::path::PathBuf,
        /// The page the link points to.
        #[arg(long, default_value = "http://127.0.0.1:8080/")]
        base: String,
    },
    /// Print a playground tab's default scenario, or a gallery example's, as JSON
    /// (a starting point for files); `--list` lists the gallery's examples.
    Preset {
        /// pulsar, flink or kstreams (a tab's default), or an example's name (see --list).
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// List the gallery's examples, then its questions: name, system and title, one a line.
        #[arg(long, conflicts_with = "name")]
        list: bool,
        /// With an example's name: print what to press and the document's numbers
        /// next to the engine's, instead of the scenario.
        #[arg(long, requires = "name")]
        describe: bool,
    },
    /// Import what a real cluster prints (Kafka Streams' Topology#describe(), Flink's
    /// plans, pulsar-admin's reports) and print it as a scenario (JSON on stdout;
    /// notices about fields lbscope does not use on stderr).
    Import {
        /// kstreams, flink or pulsar.
        #[arg(value_enum)]
        system: SystemArg,
        /// Input files, in any order (`-` reads stdin).
        #[arg(required = true)]
        files: Vec<String>,
        /// Kafka Streams: a topic's partition count, `TOPIC=N` (repeatable).
        #[arg(long, value_name = "TOPIC=N")]
        partitions: Vec<String>,
        /// Kafka Streams: the topics a source pattern matches, `PATTERN=T1,T2` (repeatable).
        #[arg(long, value_name = "PATTERN=TOPICS")]
        pattern_topics: Vec<String>,
        /// Kafka Streams: `application.id` (names changelog and repartition topics).
        #[arg(long)]
        application_id: Option<String>,
        /// Kafka Streams: instances to start.
        #[arg(long)]
        instances: Option<u32>,
        /// Kafka Streams: `num.stream.threads` of each instance.
        #[arg(long)]
        threads: Option<u32>,
        /// Kafka Streams: `num.standby.replicas`.
        #[arg(long)]
        standbys: Option<u32>,
        /// Flink: TaskManagers to register (instead of a /taskmanagers JSON).
        #[arg(long)]
        task_managers: Option<u32>,
        /// Flink: `taskmanager.numberOfTaskSlots` of each TaskManager.
        #[arg(long)]
        slots: Option<u32>,
        /// Pulsar: the namespace a `namespaces bundles` output belongs to.
        #[arg(long)]
        namespace: Option<String>,
        /// Pulsar: pin each broker's usage to its load report's (instead of deriving it from the traffic).
        #[arg(long)]
        reported_usage: bool,
        /// Seed of the scenario's RNG.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Decode a share URL (or its `#s=...` fragment) and print the scenario JSON.
    Decode {
        /// The link; `-` reads it from stdin, and the name of a file reads it
        /// from that file (for links too long for the command line).
        link: String,
    },
    /// Run the engine benchmarks and print the figures with their targets.
    Bench {
        /// Fewer iterations (a rough figure in a fraction of the time).
        #[arg(long)]
        quick: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Instead of the table: write the Pulsar benchmark cluster (1,000 brokers,
        /// 16,384 bundles, `--topics` topics) as a scenario to this file and print the
        /// native Step figures for it as JSON: the engine's Step alone, and the page's round
        /// (the playground store's Step press, the call the page times); the in-browser
        /// benchmark compares to them.
        #[arg(long)]
        browser_scenario: Option<std::path::PathBuf>,
        /// Topics of `--browser-scenario`.
        #[arg(long, default_value_t = 200_000)]
        topics: u32,
        /// Rounds timed for `--browser-scenario`.
        #[arg(long, default_value_t = 20)]
        rounds: usize,
    },
}

/// Most topics of `bench --browser-scenario` (the benchmark table's largest cluster).
const MAX_BENCH_TOPICS: u32 = 2_000_000;

/// A system name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SystemArg {
    /// Apache Pulsar.
    Pulsar,
    /// Apache Flink.
    Flink,
    /// Kafka Streams.
    Kstreams,
}

/// Output format of `run` and `bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One narrated line per event.
    Text,
    /// JSON (`run`: an array of `{step, text, event}`).
    Json,
}

/// Read a scenario file, refusing one larger than a scenario may be before
/// it is all in memory.
fn read_scenario(path: &std::path::Path) -> Result<Scenario, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let text = read_capped(file, &name, crate::scenario::MAX_JSON_BYTES)?;
    Scenario::from_json(&text).map_err(|e| format!("{name}: {e}"))
}

/// At most `max` bytes of UTF-8 text from `r` (one byte more is read to tell
/// that there is more).
fn read_capped(r: impl std::io::Read, name: &str, max: usize) -> Result<String, String> {
    use std::io::Read;
    let mut buf = Vec::new();
    r.take(max as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if buf.len() > max {
        return Err(format!(
            "{name}: larger than the {} lbscope reads here",
            if max >= 1 << 20 {
                format!("{} MiB", max >> 20)
            } else {
                format!("{} KiB", max >> 10)
            }
        ));
    }
    String::from_utf8(buf).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (byte {} is not valid UTF-8)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The link argument of `decode`: `-` is stdin, an existing file is read,
/// anything else is the link itself. Whitespace around it is dropped.
fn read_link(arg: &str) -> Result<String, String> {
    // Room for a newline or a few spaces around the longest link decoded.
    let max = url::MAX_LINK + 1024;
    let text = if arg == "-" {
        read_capped(std::io::stdin().lock(), "stdin", max)?
    } else if !arg.contains('#') && std::path::Path::new(arg).is_file() {
        let file = std::fs::File::open(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
        read_capped(file, arg, max)?
    } else {
        return Ok(arg.to_string());
    };
    Ok(text.trim().to_string())
}

/// Run the CLI with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            // A name in the message may come from a shared link: nothing in
            // it reaches the terminal as a control sequence.
            eprintln!("lbscope: {}", crate::safe_text::message(&e));
            ExitCode::FAILURE
        }
    }
}

/// Run one command; its output for stdout (empty when it wrote there itself).
fn run(cmd: Command) -> Result<String, String> {
    match cmd {
        Command::Ring { bundles, topics } => ring(bundles, &topics),
        Command::Run {
            file,
            format,
            rounds,
            quiet_rounds,
            band,
            profile,
        } => run_file(&file, format, rounds, settle_of(quiet_rounds, band)?, profile),
        cmd @ Command::Sweep { .. } => sweep(cmd),
        Command::Render {
            file,
            view,
            out,
            namespace,
            cursor,
            round,
            rounds,
        } => render::render(render::Render {
            scenario: read_scenario(&file)?,
            view,
            namespace,
            cursor,
            round,
            rounds,
            out,
        }),
        Command::Url { file, base } => share_link(&file, &base),
        Command::Preset { name, list, describe } => preset(name.as_deref(), list, describe),
        cmd @ Command::Import { .. } => import(cmd),
        Command::Decode { link } => {
            let link = read_link(&link)?;
            let sc = url::decode(&link).map_err(|e| e.to_string())?;
            Ok(crate::safe_text::json(&sc.to_json()).into_owned() + "\n")
        }
        Command::Bench {
            browser_scenario: Some(path),
            topics,
            rounds,
            ..
        } => bench_browser_scenario(&path, topics, rounds),
        Command::Bench { quick, format, .. } => {
            let report = crate::bench::run(quick, |what| eprintln!("bench: {what}"));
            Ok(match format {
                Format::Text => crate::bench::to_text(&report),
                Format::Json => crate::bench::to_json(&report),
            })
        }
    }
}

/// A scenario read for replay: under `profile` when one is named, with `rounds`
/// more rounds within the limit, and checked.
fn ready(sc: &mut Scenario, profile: Option<String>, rounds: usize) -> Result<(), String> {
    if let Some(p) = profile {
        sc.with_profile(&p)?;
    }
    if rounds > crate::scenario::MAX_ACTIONS {
        return Err(format!(
            "--rounds {rounds} is more than the limit of {}",
            crate::scenario::MAX_ACTIONS
        ));
    }
    sc.validate().map_err(|e| e.to_string())
}

/// `lbscope run FILE`: replay the scenario (with `rounds` more rounds), each
/// event written to stdout as it is made.
fn run_file(
    file: &std::path::Path,
    format: Format,
    rounds: usize,
    settle: run::Settle,
    profile: Option<String>,
) -> Result<String, String> {
    let mut sc = read_scenario(file)?;
    ready(&mut sc, profile, rounds)?;
    rounds_note(&mut sc, rounds);
    // One replay, each event written as it is made: the log is never kept.
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match format {
        Format::Text => run::write_text_with(&sc, settle, &mut out),
        Format::Json => run::write_json_with(&sc, settle, &mut out),
    }
    .map_err(|e| e.to_string())?;
    Ok(String::new())
}

/// `lbscope sweep`: the scenario over seeds and settings, as text, JSON or an SVG.
fn sweep(cmd: Command) -> Result<String, String> {
    let Command::Sweep {
        scenario,
        seeds,
        vary,
        setting,
        rounds,
        format,
        svg,
        figure,
        threads,
        quiet_rounds,
        band,
        profile,
    } = cmd
    else {
        unreachable!("sweep runs Command::Sweep")
    };
    use crate::scenario::sweep;
    let mut sc = scenario_arg(&scenario)?;
    ready(&mut sc, profile, rounds)?;
    // The whole log (a preset's cursor is where its page opens), then the rounds.
    sc.cursor = None;
    sc.push_rounds(rounds);
    let plan = sweep::Plan {
        scenario: sc,
        seeds: sweep::parse_seeds(&seeds)?,
        variants: sweep::parse_variants(&setting, &vary)?,
        settle: settle_of(quiet_rounds, band)?,
    };
    if threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    let result = sweep::sweep(&plan, threads.unwrap_or_else(sweep::available_threads))?;
    if let Some(path) = svg {
        let title = format!("{} outcomes over seeds", plan.scenario.body.system().title());
        let pic = crate::view::sweep::draw(&result, &figure, &title)?;
        std::fs::write(&path, pic).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    } else if !figure.is_empty() {
        return Err("--figure picks what --svg draws: give --svg too".into());
    }
    Ok(match format {
        Format::Text => crate::safe_text::message(&result.to_text()).into_owned(),
        Format::Json => crate::safe_text::json(&result.to_json()).into_owned(),
    })
}

/// `lbscope url FILE`: the share link of a scenario.
fn share_link(file: &std::path::Path, base: &str) -> Result<String, String> {
    let sc = read_scenario(file)?;
    if base.contains('#') {
        return Err(format!(
            "--base {base:?} holds a '#': the scenario is the link's fragment (#s=...), so the page address must have none"
        ));
    }
    let link = format!("{}{}", base, url::to_fragment(&sc));
    // A link that no reader would open is refused rather than printed.
    url::check_openable(&sc, &link).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(link + "\n")
}

/// `lbscope import SYSTEM FILE...`: the scenario as JSON on stdout, the notices on stderr.
fn import(cmd: Command) -> Result<String, String> {
    let Command::Import {
        system,
        files,
        partitions,
        pattern_topics,
        application_id,
        instances,
        threads,
        standbys,
        task_managers,
        slots,
        namespace,
        reported_usage,
        seed,
    } = cmd
    else {
        unreachable!("import runs Command::Import")
    };
    let mut o = crate::import::Options {
        application_id,
        instances,
        threads,
        standbys,
        task_managers,
        slots,
        namespace,
        reported_usage,
        seed,
        ..Default::default()
    };
    for p in &partitions {
        o.set("--partitions", p)?;
    }
    for p in &pattern_topics {
        o.set("--pattern-topics", p)?;
    }
    let texts = read_inputs(&files)?;
    let inputs: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let imported = crate::import::import(sys_of(system), &inputs, &o).map_err(|e| e.to_string())?;
    for n in &imported.notices {
        eprintln!("lbscope: notice: {}", crate::safe_text::message(&n.to_string()));
    }
    Ok(crate::safe_text::json(&imported.scenario.to_json()).into_owned() + "\n")
}

/// `lbscope bench --browser-scenario FILE`: write the browser benchmark's
/// scenario and time its rounds natively.
fn bench_browser_scenario(path: &std::path::Path, topics: u32, rounds: usize) -> Result<String, String> {
    if topics > MAX_BENCH_TOPICS {
        return Err(format!(
            "--topics {topics} is more than the {MAX_BENCH_TOPICS} topics of the largest benchmark cluster"
        ));
    }
    let sc = crate::bench::pulsar_scenario(1000, topics, 16_384);
    std::fs::write(path, serde_json::to_vec(&sc).map_err(|e| e.to_string())?)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let (setup, s) = crate::bench::pulsar_scenario_rounds(&sc, 3, rounds.max(1))?;
    let page = crate::bench::pulsar_scenario_store_rounds(&sc, 3, rounds.max(1))?;
    Ok(serde_json::json!({
        "scenario": path.display().to_string(),
        "topics": topics,
        "setup_ms": setup,
        "median_ms": s.median_ms,
        "p90_ms": s.p90_ms,
        "min_ms": s.min_ms,
        "rounds": s.iterations,
        "store_median_ms": page.median_ms,
        "store_min_ms": page.min_ms,
    })
    .to_string()
        + "\n")
}

/// The settling rule asked for on the command line.
fn settle_of(quiet_rounds: Option<u32>, band: Option<f64>) -> Result<run::Settle, String> {
    if let Some(b) = band {
        if !b.is_finite() || b < 0.0 {
            return Err(format!("--band {b}: give a spread of zero or more"));
        }
    }
    Ok(run::Settle { quiet_rounds, band })
}

/// A scenario named on the command line: a file, a share link, or a preset's name.
fn scenario_arg(arg: &str) -> Result<Scenario, String> {
    let path = std::path::Path::new(arg);
    if !arg.contains('#') && path.is_file() {
        return read_scenario(path);
    }
    if arg.contains("#s=") || arg.starts_with("s=") {
        return url::decode(arg).map_err(|e| e.to_string());
    }
    let json = preset(Some(arg), false, false)
        .map_err(|e| format!("{arg}: not a file, a link or a preset ({e})"))?;
    Scenario::from_json(&json).map_err(|e| format!("{arg}: {e}"))
}

/// Append `--rounds` at the scenario's cursor (as the page's Step does) and
/// say on stderr what is replayed when that is not the whole log.
fn rounds_note(sc: &mut Scenario, rounds: usize) {
    if let Some(note) = sc.cursor_note() {
        if rounds == 0 {
            eprintln!("lbscope: notice: {note}");
        }
    }
    let dropped = sc.push_rounds(rounds);
    if dropped > 0 {
        eprintln!(
            "lbscope: notice: --rounds {rounds} is appended at the scenario's cursor, as the page's Step does: \
             the {dropped} log actions after it (its redo tail) are not replayed"
        );
    }
}

/// `preset`: a tab's default scenario, an example's scenario or description, or the list.
fn preset(name: Option<&str>, list: bool, describe: bool) -> Result<String, String> {
    use crate::gallery;
    if list {
        let mut out = String::new();
        for e in gallery::all() {
            out.push_str(&format!("{}\t{}\t{}\n", e.slug, e.system.slug(), e.title));
        }
        for q in gallery::questions::all() {
            out.push_str(&format!("{}\t{}\t{}\n", q.slug, q.system.slug(), q.symptom));
        }
        for (name, sys, _) in crate::scenario::presets::LARGE {
            out.push_str(&format!("{name}\t{}\tA large cluster\n", sys.slug()));
        }
        return Ok(out);
    }
    let name = name.unwrap_or_default();
    if let Some(sys) = System::ALL.into_iter().find(|s| s.slug() == name) {
        if describe {
            return Err(format!("--describe takes an example's name; {name} is a system"));
        }
        return Ok(crate::scenario::presets::default_scenario(sys).to_json() + "\n");
    }
    if let Some(sc) = crate::scenario::presets::large(name) {
        if describe {
            return Err(format!(
                "--describe takes an example's name; {name} is a large-cluster preset"
            ));
        }
        return Ok(sc.to_json() + "\n");
    }
    if let Some(q) = gallery::questions::question(name) {
        return Ok(if describe {
            gallery::questions::describe(q)
        } else {
            q.scenario().to_json() + "\n"
        });
    }
    let e = gallery::example(name).ok_or_else(|| {
        format!("no preset called {name}: give pulsar, flink, kstreams or an example's name (lbscope preset --list)")
    })?;
    Ok(if describe {
        gallery::describe(e)
    } else {
        e.scenario().to_json() + "\n"
    })
}

fn sys_of(s: SystemArg) -> System {
    match s {
        SystemArg::Pulsar => System::Pulsar,
        SystemArg::Flink => System::Flink,
        SystemArg::Kstreams => System::Kstreams,
    }
}

/// Read each input (`-` is stdin, at most once) as UTF-8, refusing one larger
/// than the import reads before it is all in memory.
fn read_inputs(files: &[String]) -> Result<Vec<(String, String)>, String> {
    use std::io::Read;
    let max = crate::import::MAX_INPUT_BYTES as u64;
    let mut out = Vec::with_capacity(files.len());
    let mut stdin_used = false;
    for f in files {
        let mut buf = Vec::new();
        let name = if f == "-" {
            if stdin_used {
                return Err("`-` (stdin) is given twice".into());
            }
            stdin_used = true;
            std::io::stdin()
                .lock()
                .take(max + 1)
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            "stdin".to_string()
        } else {
            let file = std::fs::File::open(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            file.take(max + 1)
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read {f}: {e}"))?;
            f.clone()
        };
        if buf.len() as u64 > max {
            return Err(format!(
                "{name}: larger than the {} MiB lbscope reads from one input",
                max >> 20
            ));
        }
        let text = String::from_utf8(buf).map_err(|e| {
            format!(
                "{name}: not UTF-8 text (byte {} is not valid UTF-8)",
                e.utf8_error().valid_up_to()
            )
        })?;
        out.push((name, text));
    }
    Ok(out)
}

fn ring(n: u32, topics: &[String]) -> Result<String, String> {
    if n > crate::engine::pulsar::MAX_BUNDLES {
        return Err(format!(
            "--bundles {n} is more than the {} bundles a namespace may have",
            crate::engine::pulsar::MAX_BUNDLES
        ));
    }
    let b = bundle::initial_boundaries(n).ok_or("--bundles must be at least 1")?;
    let ranges = bundle::ranges_from_boundaries(&b);
    let mut out = String::new();
    for t in topics {
        let name = TopicName::parse(t).map_err(|e| e.to_string())?;
        let h = name.hash();
        let i = bundle::find(&ranges, h).ok_or("hash outside the ring")?;
        let shown = crate::safe_text::line(name.as_str());
        out.push_str(&format!("{shown}\t0x{h:08x}\t{}\n", ranges[i]));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_prints_hash_and_bundle() {
        let out = ring(4, &["persistent://public/default/my-topic".into()]).unwrap();
        assert_eq!(
            out,
            "persistent://public/default/my-topic\t0x2bad45f7\t0x00000000_0x40000000\n"
        );
        assert!(ring(0, &["x".into()]).is_err());
        // The engine's cap, before anything is allocated.
        let e = ring(u32::MAX, &["x".into()]).unwrap_err();
        assert!(e.contains("4294967295") && e.contains("65536"), "{e}");
        assert!(ring(65_536, &["x".into()]).is_ok());
        assert!(ring(65_537, &["x".into()]).is_err());
        assert!(ring(4, &["a/b".into()]).is_err());
    }
}
