//! The Yew playground (wasm32 only): a thin viewer over the engine. Components
//! dispatch `Msg`s to the store ([`store`]), which turns them into engine actions;
//! no balancing logic lives here.

mod app;
mod browser;
mod components;
mod flink;
mod kstreams;
mod lesson;
mod pulsar;
mod store;

use wasm_bindgen::JsCast;

/// Mount the app on `#app` and install the panic hook.
pub fn start() {
    // Through yew, so that its renderer does not replace the hook with its own.
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        gloo::console::error!(format!("lbscope panicked: {msg}"));
        browser::show_crash_panel(&msg);
    }));
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .and_then(|e| e.dyn_into::<web_sys::Element>().ok());
    match root {
        Some(root) => {
            yew::Renderer::<app::App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<app::App>::new().render();
        }
    }
}
