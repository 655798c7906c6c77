//! The few browser services the store needs: the URL fragment, localStorage,
//! the `window.lbscope` inspection object, a random seed, and the crash panel.

use gloo::storage::Storage;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// localStorage key of the autosaved scenario.
pub const AUTOSAVE_KEY: &str = "lbscope.autosave";

/// The current location's fragment (with its `#`), if any.
pub fn fragment() -> Option<String> {
    let hash = gloo::utils::window().location().hash().ok()?;
    (!hash.is_empty()).then_some(hash)
}

/// Show `frag` in the address bar: a new history entry when it moves into,
/// out of or between lesson steps (so Back and Forward walk them), else in place.
pub fn show_fragment(frag: &str) {
    let cur = fragment().unwrap_or_default();
    if cur == frag {
        return;
    }
    let lesson = |f: &str| f.contains("lesson=");
    if lesson(frag) || lesson(&cur) {
        if let Ok(history) = gloo::utils::window().history() {
            let _ = history.push_state_with_url(&JsValue::NULL, "", Some(frag));
        }
    } else {
        replace_fragment(frag);
    }
}

/// Replace the fragment without adding a history entry.
pub fn replace_fragment(frag: &str) {
    let win = gloo::utils::window();
    if let Ok(history) = win.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(frag));
    }
}

/// Milliseconds since the page started (`performance.now()`; 0 without it).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Save a JSON scenario for the next visit.
pub fn autosave(json: &str) {
    let _ = gloo::storage::LocalStorage::set(AUTOSAVE_KEY, json);
}

/// The autosaved JSON scenario, if any.
pub fn autosaved() -> Option<String> {
    gloo::storage::LocalStorage::get::<String>(AUTOSAVE_KEY).ok()
}

/// What the store needs of the browser when the page opens.
pub fn boot() -> crate::playground::Boot {
    crate::playground::Boot {
        fragment: fragment(),
        saved: autosaved(),
        progress: load_progress(),
        // `?fresh` (the crash panel's "Start fresh") ignores the saved work without deleting it.
        fresh: query_has("fresh"),
    }
}

/// localStorage key of the lesson progress.
pub const PROGRESS_KEY: &str = "lbscope.lessons";

/// The lesson progress saved in this browser (empty when none or unreadable).
pub fn load_progress() -> crate::playground::Progress {
    gloo::storage::LocalStorage::get(PROGRESS_KEY).unwrap_or_default()
}

/// Save the lesson progress.
pub fn save_progress(p: &crate::playground::Progress) {
    let _ = gloo::storage::LocalStorage::set(PROGRESS_KEY, p);
}

/// Mark every element whose `attr` equals one of `subjects`' ids with
/// `data-lesson-focus` (and unmark the rest): a lesson step's several focus
/// subjects. Elements inside a marked element of the same subject are left alone.
pub fn mark_focus(subjects: &[(&str, &str)]) {
    let doc = gloo::utils::document();
    unmark("data-focus");
    unmark("data-lesson-focus");
    for (attr, id) in subjects {
        let escaped = id.replace('\\', "\\\\").replace('"', "\\\"");
        let selector = format!("[{attr}=\"{escaped}\"]");
        let Ok(found) = doc.query_selector_all(&selector) else {
            continue;
        };
        for i in 0..found.length() {
            if let Some(el) = found
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                // Only the picture: not the tab's controls, the log, or the lesson's words.
                let outside = el
                    .closest(".tab-body > aside, .deck, .lesson-panel, .round-proposal")
                    .ok()
                    .flatten()
                    .is_some();
                if outside {
                    continue;
                }
                // Only the outermost: an instance's task chips also carry `data-instance`.
                let inner = el
                    .parent_element()
                    .and_then(|p| p.closest(&selector).ok().flatten())
                    .is_some();
                if inner {
                    continue;
                }
                let _ = el.set_attribute("data-lesson-focus", "");
                let _ = el.set_attribute("data-focus", "");
            }
        }
    }
}

/// Open every folded `<details>` control group named by `words` (space-separated
/// `data-controls` words), so a lesson step's controls are in view.
pub fn open_groups(words: &str) {
    let doc = gloo::utils::document();
    for w in words.split(' ').filter(|w| !w.is_empty()) {
        // The group's own fold, and every closed fold around one of its
        // controls (a group may sit inside another group's fold).
        let Ok(found) = doc.query_selector_all(&format!("[data-controls~=\"{w}\"]")) else {
            continue;
        };
        for i in 0..found.length() {
            let mut at = found
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok());
            while let Some(el) = at {
                if el.tag_name().eq_ignore_ascii_case("details") && !el.has_attribute("open") {
                    let _ = el.set_attribute("open", "");
                }
                at = el.parent_element();
            }
        }
    }
}

/// A fresh seed from the browser's crypto RNG (only when the user asks for randomness).
pub fn fresh_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        return 1;
    }
    u64::from_le_bytes(b) >> 11 // keep it exactly representable as a JS number
}

/// A frozen, read-only copy of `view` as a JS object (JSON-compatible).
pub fn frozen<T: Serialize>(view: &T) -> JsValue {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    match view.serialize(&ser) {
        Ok(value) => js_sys::Object::freeze(&value.into()).into(),
        Err(_) => JsValue::NULL,
    }
}

/// Define `window.lbscope` as a getter: each read builds a fresh frozen snapshot
/// of the newest state with `get`, so it is always current and costs nothing
/// while no page script reads it.
pub fn install_inspector(get: impl Fn() -> JsValue + 'static) {
    let getter = wasm_bindgen::closure::Closure::<dyn Fn() -> JsValue>::new(get);
    let desc = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&desc, &JsValue::from_str("get"), getter.as_ref());
    let _ = js_sys::Reflect::set(&desc, &JsValue::from_str("configurable"), &JsValue::TRUE);
    js_sys::Object::define_property(&gloo::utils::window(), &JsValue::from_str("lbscope"), &desc);
    // The page keeps the getter for its whole life.
    getter.forget();
}

/// Publish the engine time of the last round as `window.lbscopeRoundMs`.
pub fn expose_round_ms(ms: Option<f64>) {
    let v = ms.map_or(JsValue::NULL, JsValue::from_f64);
    let _ = js_sys::Reflect::set(&gloo::utils::window(), &JsValue::from_str("lbscopeRoundMs"), &v);
}

/// How long a part of the page's work took since `start_ms` ([`now_ms`]):
/// kept in `window.lbscopeTimings[name]` (the newest) for the in-browser benchmark.
pub fn timing(name: &str, start_ms: f64) {
    let ms = now_ms() - start_ms;
    let _ = js_sys::Reflect::set(&timings(), &JsValue::from_str(name), &JsValue::from_f64(ms));
}

/// `window.lbscopeTimings`, made when missing.
fn timings() -> JsValue {
    let window = gloo::utils::window();
    let key = JsValue::from_str("lbscopeTimings");
    js_sys::Reflect::get(&window, &key)
        .ok()
        .filter(|v| v.is_object())
        .unwrap_or_else(|| {
            let o: JsValue = js_sys::Object::new().into();
            let _ = js_sys::Reflect::set(&window, &key, &o);
            o
        })
}

/// One more part of a piecewise job (the opening of a heavy scenario) took the
/// time since `start_ms`: `window.lbscopeTimings[name]` holds the parts' sum,
/// `[name + "-parts"]` their count and `[name + "-longest"]` the longest, the
/// page's longest stretch without answering input. `first` starts them afresh.
pub fn timing_part(name: &str, start_ms: f64, first: bool) {
    let ms = now_ms() - start_ms;
    let obj = timings();
    let read = |k: &str| {
        if first {
            0.0
        } else {
            js_sys::Reflect::get(&obj, &JsValue::from_str(k))
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0)
        }
    };
    let (parts, longest) = (format!("{name}-parts"), format!("{name}-longest"));
    let values = [
        (name, read(name) + ms),
        (parts.as_str(), read(&parts) + 1.0),
        (longest.as_str(), read(&longest).max(ms)),
    ];
    for (k, v) in values {
        let _ = js_sys::Reflect::set(&obj, &JsValue::from_str(k), &JsValue::from_f64(v));
    }
}

/// Whether the page's query string holds `flag` (e.g. `?fresh`).
pub fn query_has(flag: &str) -> bool {
    let search = gloo::utils::window().location().search().unwrap_or_default();
    search.trim_start_matches('?').split('&').any(|p| p == flag)
}

/// Show an error panel over the page. The wasm instance is gone after a panic
/// (panic = abort), so the panel offers plain links: reload with the last autosaved
/// scenario (saved after every change that rendered), or start fresh.
pub fn show_crash_panel(msg: &str) {
    let doc = gloo::utils::document();
    let Some(body) = doc.body() else { return };
    let make = |tag: &str, text: Option<&str>| {
        let el = doc.create_element(tag).ok()?;
        el.set_text_content(text);
        Some(el)
    };
    let (Some(panel), Some(h), Some(p), Some(pre), Some(restore), Some(fresh)) = (
        make("div", None),
        make("h2", Some("lbscope hit a bug")),
        make(
            "p",
            Some("Your work is safe: the last scenario that displayed correctly is saved in this browser."),
        ),
        make("pre", Some(msg)),
        make("a", Some("Restore last good state")),
        make("a", Some("Start fresh")),
    ) else {
        return;
    };
    panel.set_id("crash");
    let _ = panel.set_attribute("role", "alert");
    let _ = restore.set_attribute("href", "./");
    let _ = restore.set_attribute("class", "button primary");
    let _ = fresh.set_attribute("href", "./?fresh");
    let _ = fresh.set_attribute("class", "button");
    for el in [&h, &p, &pre, &restore, &fresh] {
        let _ = panel.append_child(el);
    }
    let _ = body.append_child(&panel);
}

/// This page's address with `fragment` (e.g. `#s=...`) in place of its own.
pub fn page_url(fragment: &str) -> String {
    let loc = gloo::utils::window().location();
    let base = loc.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    format!("{base}{fragment}")
}

/// Put `text` on the clipboard (async; `false` if the API is missing).
pub fn copy_text(text: &str) -> bool {
    let clipboard = gloo::utils::window().navigator().clipboard();
    let _promise = clipboard.write_text(text);
    true
}

/// Offer `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let doc = gloo::utils::document();
    let a = doc
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "no anchor element".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

thread_local! {
    /// The file read in progress (dropping it would cancel the read).
    static READER: std::cell::RefCell<Option<gloo::file::callbacks::FileReader>> = const { std::cell::RefCell::new(None) };
}

/// Largest scenario file accepted for import.
pub const MAX_IMPORT_BYTES: u64 = 8 << 20;

/// Read the first file chosen in `input` as text and hand it to `done`.
pub fn read_file(input: &web_sys::HtmlInputElement, done: impl FnOnce(Result<String, String>) + 'static) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    let file = gloo::file::File::from(file);
    if file.size() > MAX_IMPORT_BYTES {
        done(Err(format!(
            "That file is {} bytes; the limit is {MAX_IMPORT_BYTES} bytes. Nothing was changed.",
            file.size()
        )));
        return;
    }
    let reader = gloo::file::callbacks::read_as_text(&file, move |res| {
        done(res.map_err(|e| format!("Could not read the file: {e}")));
    });
    READER.with(|r| *r.borrow_mut() = Some(reader));
}

/// localStorage key remembering that the "start here" card was dismissed.
pub const START_HERE_KEY: &str = "lbscope.start-here-dismissed";

/// Whether this browser dismissed the "start here" card before.
pub fn start_here_dismissed() -> bool {
    gloo::storage::LocalStorage::get::<bool>(START_HERE_KEY).unwrap_or(false)
}

/// Remember that the "start here" card was dismissed (or a lesson started from it).
pub fn dismiss_start_here() {
    let _ = gloo::storage::LocalStorage::set(START_HERE_KEY, true);
}

/// localStorage key of the event log's reading order.
pub const LOG_ORDER_KEY: &str = "lbscope.log-oldest-first";

/// Whether the event log reads oldest to newest (saved in this browser).
pub fn log_oldest_first() -> bool {
    gloo::storage::LocalStorage::get::<bool>(LOG_ORDER_KEY).unwrap_or(false)
}

/// Save the event log's reading order.
pub fn save_log_oldest_first(oldest: bool) {
    let _ = gloo::storage::LocalStorage::set(LOG_ORDER_KEY, oldest);
}

/// Focus the element `id` without scrolling to it, and show the page from its
/// top (a lesson's layout keeps its words and its picture there together).
pub fn focus_in_place(id: &str) {
    use wasm_bindgen::JsCast;
    let Some(el) = gloo::utils::document().get_element_by_id(id) else {
        return;
    };
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"preventScroll".into(), &true.into());
    if let Ok(f) = js_sys::Reflect::get(&el, &"focus".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = f.call1(&el, &opts);
    }
    gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
}

/// Move the keyboard focus to the element with this id (skip links, a page
/// that opens); the element needs a `tabindex` unless it is focusable anyway.
pub fn focus_id(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = gloo::utils::document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
        el.scroll_into_view_with_bool(true);
    }
}

/// Mark the control a lesson step asks for with `data-ask` (none when `words`
/// is `None`): the first visible control of the step's most specific control
/// group (a form's submit button before its other fields), the round button
/// last.
pub fn mark_ask(words: Option<&str>, prompt: Option<&str>) {
    use wasm_bindgen::JsCast;
    let doc = gloo::utils::document();
    unmark("data-ask");
    let Some(words) = words else {
        return;
    };
    // A button that says what the step asks ("Raise slot.request.max-interval to
    // 70 ms …", or "Crash app-2, which runs task 0_0" for the button labelled
    // "Crash app-2") is that control, wherever it is on the page: unfolded from
    // a closed menu when it sits in one.
    if let Some(prompt) = prompt.map(|p| p.trim().to_lowercase()).filter(|p| p.len() >= 8) {
        if let Ok(buttons) = doc.query_selector_all("main button:not([disabled])") {
            let says = |b: &web_sys::Element| {
                let text = b
                    .text_content()
                    .map(|t| t.trim().to_lowercase())
                    .unwrap_or_default();
                let label = b.get_attribute("aria-label").map(|t| t.trim().to_lowercase());
                // A button's words name it when long enough ("Schedule the job"); an
                // accessible name is specific by design ("Crash c").
                text.starts_with(&prompt)
                    || (text.len() >= 8 && names_start_of(&prompt, &text))
                    || label.is_some_and(|l| l.len() >= 5 && names_start_of(&prompt, &l))
            };
            let found = (0..buttons.length())
                .filter_map(|k| {
                    buttons
                        .item(k)
                        .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                })
                .filter(|b| b.closest(".lesson-panel").ok().flatten().is_none())
                .find(|b| says(b) && reveal(b));
            if let Some(b) = found {
                let _ = b.set_attribute("data-ask", "");
                return;
            }
        }
    }
    let mut order: Vec<&str> = words
        .split(' ')
        .filter(|w| !w.is_empty() && *w != "admin" && *w != "step")
        .collect();
    order.push("step");
    for w in order {
        let Ok(groups) = doc.query_selector_all(&format!("[data-controls~=\"{w}\"]")) else {
            continue;
        };
        for i in 0..groups.length() {
            let Some(g) = groups.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else {
                continue;
            };
            let found = if g.matches("button, select, input").unwrap_or(false) {
                Some(g.clone())
            } else {
                [
                    "button[type=submit]:not([disabled])",
                    "button:not([disabled]), select, input",
                ]
                .iter()
                .find_map(|sel| {
                    let list = g.query_selector_all(sel).ok()?;
                    (0..list.length())
                        .filter_map(|k| list.item(k).and_then(|n| n.dyn_into::<web_sys::Element>().ok()))
                        .find(reveal)
                })
            };
            if let Some(el) = found.filter(reveal) {
                let _ = el.set_attribute("data-ask", "");
                return;
            }
        }
    }
}

/// Whether `e` is drawn: it has a box, and nothing hides it (a closed
/// `<details>` around it still lays it out when asked, so its box alone does
/// not tell; `Element.checkVisibility()` does).
fn rendered(e: &web_sys::Element) -> bool {
    use wasm_bindgen::JsCast;
    let r = e.get_bounding_client_rect();
    if r.width() <= 0.0 || r.height() <= 0.0 {
        return false;
    }
    js_sys::Reflect::get(e, &"checkVisibility".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(e).ok())
        .is_none_or(|v| v.as_bool() != Some(false))
}

/// Whether `label` is the whole first phrase of `prompt`: "crash app-2,
/// which …" names "crash app-2", not "crash app-20".
fn names_start_of(prompt: &str, label: &str) -> bool {
    !label.is_empty()
        && prompt.starts_with(label)
        && prompt[label.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_')
}

/// Make `el` visible by opening the closed `<details>` around it; `false`, with
/// nothing left opened, when it stays hidden (a group the step does not show).
fn reveal(el: &web_sys::Element) -> bool {
    if rendered(el) {
        return true;
    }
    let mut opened = Vec::new();
    let mut at = el.parent_element();
    while let Some(e) = at {
        if e.tag_name().eq_ignore_ascii_case("details") && !e.has_attribute("open") {
            let _ = e.set_attribute("open", "");
            opened.push(e.clone());
        }
        at = e.parent_element();
    }
    if rendered(el) {
        return true;
    }
    for e in opened {
        let _ = e.remove_attribute("open");
    }
    false
}

/// Remove the attribute `attr` from every element that carries it.
fn unmark(attr: &str) {
    use wasm_bindgen::JsCast;
    let Ok(old) = gloo::utils::document().query_selector_all(&format!("[{attr}]")) else {
        return;
    };
    for i in 0..old.length() {
        if let Some(el) = old.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            let _ = el.remove_attribute(attr);
        }
    }
}
