//! The `lbscope` command line (native only).

use crate::engine::pulsar::{bundle, topic::TopicName};
use crate::engine::System;
use crate::scenario::{run, url, Scenario};
use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

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
    },
    /// Print the share URL of a scenario file.
    Url {
        /// A scenario JSON file.
        file: std::path::PathBuf,
        /// The page the link points to.
        #[arg(long, default_value = "http://127.0.0.1:8080/")]
        base: String,
    },
    /// Print a playground tab's default scenario as JSON (a starting point for files).
    Preset {
        /// pulsar, flink or kstreams.
        #[arg(value_enum)]
        system: SystemArg,
    },
    /// Decode a share URL (or its `#s=...` fragment) and print the scenario JSON.
    Decode {
        /// The link.
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
        /// native Step figures for it as JSON (the in-browser benchmark compares to them).
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

fn read_scenario(path: &std::path::Path) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Scenario::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
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
            eprintln!("lbscope: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cmd: Command) -> Result<String, String> {
    match cmd {
        Command::Ring { bundles, topics } => ring(bundles, &topics),
        Command::Run { file, format, rounds } => {
            let mut sc = read_scenario(&file)?;
            if rounds > crate::scenario::MAX_ACTIONS {
                return Err(format!(
                    "--rounds {rounds} is more than the limit of {}",
                    crate::scenario::MAX_ACTIONS
                ));
            }
            sc.push_rounds(rounds);
            sc.validate().map_err(|e| e.to_string())?;
            let log = run::event_log(&sc).map_err(|e| e.to_string())?;
            let state = run::final_state(&sc).map_err(|e| e.to_string())?;
            let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default();
            Ok(match format {
                Format::Text => format!("{}\nfinal state:\n{}\n", run::to_text(&log), pretty(&state)),
                Format::Json => {
                    let out = serde_json::json!({ "events": log, "state": state });
                    pretty(&out) + "\n"
                }
            })
        }
        Command::Url { file, base } => {
            let sc = read_scenario(&file)?;
            Ok(format!("{}{}\n", base, url::to_fragment(&sc)))
        }
        Command::Preset { system } => {
            let sys = match system {
                SystemArg::Pulsar => System::Pulsar,
                SystemArg::Flink => System::Flink,
                SystemArg::Kstreams => System::Kstreams,
            };
            Ok(crate::scenario::presets::default_scenario(sys).to_json() + "\n")
        }
        Command::Decode { link } => {
            let sc = url::decode(&link).map_err(|e| e.to_string())?;
            Ok(sc.to_json() + "\n")
        }
        Command::Bench {
            browser_scenario: Some(path),
            topics,
            rounds,
            ..
        } => {
            let sc = crate::bench::pulsar_scenario(1000, topics, 16_384);
            std::fs::write(&path, serde_json::to_vec(&sc).map_err(|e| e.to_string())?)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            let (setup, s) = crate::bench::pulsar_scenario_rounds(&sc, 3, rounds.max(1))?;
            Ok(serde_json::json!({
                "scenario": path.display().to_string(),
                "topics": topics,
                "setup_ms": setup,
                "median_ms": s.median_ms,
                "p90_ms": s.p90_ms,
                "min_ms": s.min_ms,
                "rounds": s.iterations,
            })
            .to_string()
                + "\n")
        }
        Command::Bench { quick, format, .. } => {
            let report = crate::bench::run(quick, |what| eprintln!("bench: {what}"));
            Ok(match format {
                Format::Text => crate::bench::to_text(&report),
                Format::Json => crate::bench::to_json(&report),
            })
        }
    }
}

fn ring(n: u32, topics: &[String]) -> Result<String, String> {
    let b = bundle::initial_boundaries(n).ok_or("--bundles must be at least 1")?;
    let ranges = bundle::ranges_from_boundaries(&b);
    let mut out = String::new();
    for t in topics {
        let name = TopicName::parse(t).map_err(|e| e.to_string())?;
        let h = name.hash();
        let i = bundle::find(&ranges, h).ok_or("hash outside the ring")?;
        out.push_str(&format!("{name}\t0x{h:08x}\t{}\n", ranges[i]));
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
        assert!(ring(4, &["a/b".into()]).is_err());
    }
}
