//! The native command-line tool.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    lbscope::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
