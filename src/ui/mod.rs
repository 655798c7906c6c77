//! The Yew playground (wasm32 only): a thin viewer over the engine. Components
//! dispatch `Msg`s to the store ([`store`]), which turns them into engine actions;
//! no balancing logic lives here.

mod app;
mod browser;
mod compare;
mod components;
mod flink;
mod gallery;
mod kstreams;
mod lesson;
mod motion;
mod pulsar;
mod store;
mod system;
mod tabs;
mod worker;

use wasm_bindgen::JsCast;

/// Mount the app on `#app` and install the panic hook. In the engine worker
/// (the same wasm, loaded by `worker.js`, where there is no page) there is
/// nothing to mount: it only answers [`worker::engine_job`].
pub fn start() {
    if web_sys::window().is_none() {
        return;
    }
    // Through yew, so that its renderer does not replace the hook with its own.
    yew::set_custom_panic_hook(Box::new(|info| {
        let msg = info.to_string();
        gloo::console::error!(format!("lbscope panicked: {msg}"));
        browser::show_crash_panel(&msg);
    }));
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .and_then(|e| e.dyn_into::<web_sys::Element>().ok());
    let root = root.unwrap_or_else(|| gloo::utils::body().into());
    // `?embed=VIEW`: one view, for a frame in another page. The playground itself
    // does not run framed (see `components::embed::FramedNotice`).
    if components::embed::flags().is_some() {
        yew::Renderer::<components::embed::EmbedApp>::with_root(root).render();
    } else if components::embed::framed() {
        yew::Renderer::<components::embed::FramedNotice>::with_root(root).render();
    } else {
        yew::Renderer::<app::App>::with_root(root).render();
    }
}
