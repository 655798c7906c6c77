//! The web app's entry point: `make serve` (tools/webbuild) builds this for wasm32.

#[cfg(target_arch = "wasm32")]
fn main() {
    lbscope::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lbscope-web is the browser app: build and serve it with `make serve` (see README), or use the `lbscope` CLI."
    );
    std::process::exit(2);
}
