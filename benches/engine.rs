//! `cargo bench`: the engine benchmarks, the same table as `lbscope bench`.
//! `cargo bench -- --quick` for fewer iterations, `-- --json` for JSON.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let json = args.iter().any(|a| a == "--json");
    let report = lbscope::bench::run(quick, |what| eprintln!("bench: {what}"));
    if json {
        print!("{}", lbscope::bench::to_json(&report));
    } else {
        print!("{}", lbscope::bench::to_text(&report));
    }
}
