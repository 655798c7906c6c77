//! The web app's entry point: trunk builds this for wasm32.

#[cfg(target_arch = "wasm32")]
fn main() {
    lbscope::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lbscope-web is the browser app: build it with `trunk build` (see README), or use the `lbscope` CLI."
    );
    std::process::exit(2);
}
