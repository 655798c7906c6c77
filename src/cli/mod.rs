//! The `lbscope` command line (native only).

use crate::engine::pulsar::{bundle, topic::TopicName};
use clap::{Parser, Subcommand};
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
