//! Plays the motions of the last action ([`crate::playground::motion`]) with the
//! Web Animations API: a token travels between two elements, new elements grow
//! or drop into place, changed ones pulse. Animations never block input (they
//! only move copies or transform in place), and with `prefers-reduced-motion:
//! reduce` every one is instant (duration 0).
//!
//! Every animation is given an id starting with `lb-` so the page's tests can
//! find them with `document.getAnimations()`; `<body data-motions>` counts the
//! motions of the last action and `data-motion-ms` their longest duration.

use crate::playground::motion::{Beat, Caption, Motion};
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

const TRAVEL_MS: f64 = 900.0;
const ARRIVE_MS: f64 = 600.0;
const PULSE_MS: f64 = 700.0;
/// Time between beats (phases, or Flink's requests one by one).
const BEAT_MS: f64 = 220.0;
/// No motion starts later than this after the action.
const MAX_DELAY_MS: f64 = 2_400.0;
/// Time between beats while a lesson runs: one phase at a time, long enough
/// to read its sentence.
const LESSON_BEAT_MS: f64 = 1_100.0;
/// No motion starts later than this in a lesson.
const LESSON_MAX_DELAY_MS: f64 = 6_600.0;
/// How long a round's captions stay after the last one appears.
const CAPTION_HOLD_MS: f64 = 3_500.0;

fn reduced_motion() -> bool {
    let Some(w) = web_sys::window() else {
        return true;
    };
    let Ok(f) = Reflect::get(&w, &"matchMedia".into()).and_then(|f| f.dyn_into::<Function>()) else {
        return false;
    };
    f.call1(&w, &"(prefers-reduced-motion: reduce)".into())
        .ok()
        .and_then(|m| Reflect::get(&m, &"matches".into()).ok())
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

fn obj(pairs: &[(&str, JsValue)]) -> Object {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &(*k).into(), v);
    }
    o
}

/// `el.animate(frames, {id, duration, delay, easing, fill})`.
fn animate(el: &Element, id: &str, frames: &[Object], duration: f64, delay: f64) -> Option<JsValue> {
    let f = Reflect::get(el, &"animate".into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let list = Array::new();
    for k in frames {
        list.push(k);
    }
    let opts = obj(&[
        ("id", id.into()),
        ("duration", duration.into()),
        ("delay", delay.into()),
        ("easing", "cubic-bezier(.4,0,.2,1)".into()),
        ("fill", "backwards".into()),
    ]);
    f.call2(el, &list, &opts).ok()
}

fn frame(pairs: &[(&str, &str)]) -> Object {
    obj(&pairs
        .iter()
        .map(|(k, v)| (*k, JsValue::from_str(v)))
        .collect::<Vec<_>>())
}

fn is_svg(el: &Element) -> bool {
    el.namespace_uri().as_deref() == Some("http://www.w3.org/2000/svg")
}

/// The visible elements an anchor selects, inside the page's main area.
fn select(selector: &str) -> Vec<Element> {
    let doc = gloo::utils::document();
    let scope = doc
        .get_element_by_id("main")
        .map(|m| m.query_selector_all(selector));
    let Some(Ok(list)) = scope else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<Element>().ok()))
        .filter(|e| {
            let r = e.get_bounding_client_rect();
            r.width() > 0.0 && r.height() > 0.0
        })
        .collect()
}

/// The largest visible element an anchor selects (a broker's card rather than
/// its legend swatch).
fn largest(selector: &str) -> Option<Element> {
    largest_of(select(selector))
}

/// The element of `els` with the largest area on screen.
fn largest_of(els: impl IntoIterator<Item = Element>) -> Option<Element> {
    let area = |e: &Element| {
        let r = e.get_bounding_client_rect();
        r.width() * r.height()
    };
    els.into_iter().max_by(|a, b| area(a).total_cmp(&area(b)))
}

/// A token over the page: fixed, centred on `(x, y)`, removed when its
/// animation ends.
fn token(text: &str, class: &str, x: f64, y: f64) -> Option<HtmlElement> {
    let doc = gloo::utils::document();
    let el = doc.create_element("div").ok()?.dyn_into::<HtmlElement>().ok()?;
    el.set_class_name(class);
    el.set_text_content(Some(text));
    el.set_attribute("aria-hidden", "true").ok()?;
    let style = el.style();
    style.set_property("left", &format!("{x:.1}px")).ok()?;
    style.set_property("top", &format!("{y:.1}px")).ok()?;
    doc.body()?.append_child(&el).ok()?;
    Some(el)
}

fn remove_when_done(anim: Option<JsValue>, el: HtmlElement) {
    let Some(anim) = anim else {
        el.remove();
        return;
    };
    let done = wasm_bindgen::closure::Closure::once_into_js(move || el.remove());
    let _ = Reflect::set(&anim, &"onfinish".into(), &done);
    let _ = Reflect::set(&anim, &"oncancel".into(), &done);
}

fn centre(el: &Element) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0)
}

fn travel(label: &str, from: &str, to: &str, delay: f64, speed: f64) -> u32 {
    let (Some(a), Some(b)) = (largest(from), largest(to)) else {
        return 0;
    };
    let ((x0, y0), (x1, y1)) = (centre(&a), centre(&b));
    let mut n = 0;
    if let Some(t) = token(label, "motion-token", x0, y0) {
        let start = frame(&[
            ("transform", "translate(-50%, -50%) scale(0.8)"),
            ("opacity", "0.2"),
        ]);
        let lift = frame(&[
            ("transform", "translate(-50%, -50%) scale(1.1)"),
            ("opacity", "1"),
            ("offset", "0.15"),
        ]);
        let end_t = format!(
            "translate(calc(-50% + {:.1}px), calc(-50% + {:.1}px)) scale(1)",
            x1 - x0,
            y1 - y0
        );
        let end = frame(&[("transform", &end_t), ("opacity", "1")]);
        let anim = animate(&t, "lb-travel", &[start, lift, end], TRAVEL_MS * speed, delay);
        remove_when_done(anim, t);
        n += 1;
    }
    // The arrival lands as the token reaches it.
    n + pulse(&b, delay + TRAVEL_MS * speed * 0.85, speed)
}

fn pulse(el: &Element, delay: f64, speed: f64) -> u32 {
    let frames = if is_svg(el) {
        [
            frame(&[("transform", "scale(1)")]),
            frame(&[("transform", "scale(1.06)")]),
            frame(&[("transform", "scale(1)")]),
        ]
    } else {
        [
            frame(&[("transform", "scale(1)"), ("boxShadow", "0 0 0 0 var(--accent)")]),
            frame(&[
                ("transform", "scale(1.03)"),
                ("boxShadow", "0 0 0 4px var(--accent)"),
            ]),
            frame(&[("transform", "scale(1)"), ("boxShadow", "0 0 0 0 var(--accent)")]),
        ]
    };
    u32::from(animate(el, "lb-pulse", &frames, PULSE_MS * speed, delay).is_some())
}

fn arrive(el: &Element, delay: f64, speed: f64) -> u32 {
    let mut n = 0;
    let frames = if is_svg(el) {
        [
            frame(&[("transform", "scale(0.3)"), ("opacity", "0")]),
            frame(&[("transform", "scale(1)"), ("opacity", "1")]),
        ]
    } else {
        [
            frame(&[("transform", "translateY(-28px) scale(0.7)"), ("opacity", "0")]),
            frame(&[("transform", "none"), ("opacity", "1")]),
        ]
    };
    n += u32::from(animate(el, "lb-arrive", &frames, ARRIVE_MS * speed, delay).is_some());
    // A new boundary says where it is, in hex; a new topic its name and hash.
    let label = el.get_attribute("data-boundary").or_else(|| {
        let topic = el.get_attribute("data-topic")?;
        let name = topic.rsplit('/').next().unwrap_or(&topic).to_string();
        Some(match el.get_attribute("data-hash") {
            Some(h) => format!("{name} · {h}"),
            None => name,
        })
    });
    if let Some(hex) = label.filter(|_| is_svg(el)) {
        let (x, y) = centre(el);
        if let Some(t) = token(&hex, "motion-label", x, y - 14.0) {
            let frames = [
                frame(&[
                    ("opacity", "0"),
                    ("transform", "translate(-50%, -50%) translateY(6px)"),
                ]),
                frame(&[
                    ("opacity", "1"),
                    ("transform", "translate(-50%, -50%)"),
                    ("offset", "0.15"),
                ]),
                frame(&[
                    ("opacity", "1"),
                    ("transform", "translate(-50%, -50%)"),
                    ("offset", "0.85"),
                ]),
                frame(&[("opacity", "0"), ("transform", "translate(-50%, -50%)")]),
            ];
            let anim = animate(&t, "lb-label", &frames, 2_400.0 * speed, delay);
            remove_when_done(anim, t);
            n += 1;
        }
    }
    n
}

/// Play the motions of one action, and say each beat's phase in a caption
/// over the page as it plays. In a lesson (`lesson`) the beats are slower:
/// one phase at a time. Returns how many animations started.
pub fn play(beats: &[Beat], captions: &[Caption], lesson: bool) -> u32 {
    let speed = if reduced_motion() { 0.0 } else { 1.0 };
    let (beat_ms, max_delay) = if lesson {
        (LESSON_BEAT_MS, LESSON_MAX_DELAY_MS)
    } else {
        (BEAT_MS, MAX_DELAY_MS)
    };
    let mut started = 0;
    for b in beats {
        let delay = (f64::from(b.beat) * beat_ms).min(max_delay) * speed;
        started += match &b.motion {
            Motion::Travel { label, from, to } => travel(label, &from.0, &to.0, delay, speed),
            Motion::Arrive { at } => select(&at.0).iter().map(|e| arrive(e, delay, speed)).sum(),
            Motion::Pulse { at } => select(&at.0).iter().map(|e| pulse(e, delay, speed)).sum(),
        };
    }
    started += show_captions(captions, beat_ms, max_delay, speed);
    if !captions.is_empty() {
        started += fill_card(beat_ms, max_delay, speed);
    }
    if let Some(body) = gloo::utils::document().body() {
        let _ = body.set_attribute("data-motions", &started.to_string());
        let longest = if speed == 0.0 { 0.0 } else { TRAVEL_MS.max(2_400.0) };
        let _ = body.set_attribute("data-motion-ms", &format!("{longest}"));
    }
    started
}

/// The captions of one action in `#phase-captions` (a polite live region
/// fixed over the page, never catching the pointer): each line fades in at its
/// beat; the box leaves by itself after [`CAPTION_HOLD_MS`] (a CSS animation),
/// and the next action replaces it. Returns how many animations started.
fn show_captions(captions: &[Caption], beat_ms: f64, max_delay: f64, speed: f64) -> u32 {
    let doc = gloo::utils::document();
    if let Some(old) = doc.get_element_by_id("phase-captions") {
        old.remove();
    }
    let Some(last) = captions.iter().map(|c| c.beat).max() else {
        return 0;
    };
    let Some(body) = doc.body() else {
        return 0;
    };
    let Some(boxed) = doc.create_element("div").ok() else {
        return 0;
    };
    boxed.set_id("phase-captions");
    boxed.set_class_name("phase-captions");
    let _ = boxed.set_attribute("role", "status");
    let _ = boxed.set_attribute("aria-live", "polite");
    let hold = (f64::from(last) * beat_ms).min(max_delay) * speed + CAPTION_HOLD_MS;
    let _ = boxed.set_attribute("style", &format!("--hold:{hold:.0}ms"));
    let mut n = 0;
    for c in captions {
        let Some(line) = doc.create_element("p").ok() else {
            continue;
        };
        line.set_text_content(Some(&c.text));
        let _ = line.set_attribute("data-beat", &c.beat.to_string());
        let _ = boxed.append_child(&line);
        let delay = (f64::from(c.beat) * beat_ms).min(max_delay) * speed;
        let frames = [
            // Hidden until its beat, then sliding in at full contrast: a caption is
            // never drawn half-transparent, so it is always readable.
            frame(&[("visibility", "hidden"), ("transform", "translateY(0.4rem)")]),
            frame(&[("visibility", "visible"), ("transform", "none")]),
        ];
        n += u32::from(animate(&line, "lb-caption", &frames, 300.0 * speed, delay).is_some());
    }
    let _ = body.append_child(&boxed);
    n
}

/// The round's card fills in with the round: each part marked
/// `data-card-beat="<beat>"` stays hidden until its beat, then slides in
/// (opaque at every instant, like the captions). Returns how many animations
/// started.
fn fill_card(beat_ms: f64, max_delay: f64, speed: f64) -> u32 {
    let mut n = 0;
    for part in select("[data-card-beat]") {
        let beat: u32 = part
            .get_attribute("data-card-beat")
            .and_then(|b| b.parse().ok())
            .unwrap_or(0);
        let delay = (f64::from(beat) * beat_ms).min(max_delay) * speed;
        let frames = [
            frame(&[("visibility", "hidden"), ("transform", "translateY(0.3rem)")]),
            frame(&[("visibility", "visible"), ("transform", "none")]),
        ];
        n += u32::from(animate(&part, "lb-card", &frames, 300.0 * speed, delay).is_some());
    }
    n
}

/// Bring the picture's element for `kind`/`id` (`data-<kind>="<id>"`) into view
/// when it is off screen: an event clicked in the log shows what it is about.
/// Smooth, unless reduced motion is asked for.
pub fn reveal(kind: &str, id: &str) {
    let anchor = crate::playground::motion::Anchor::mark(kind, id);
    let Some(el) = largest_of(
        select(&anchor.0)
            .into_iter()
            .filter(|e| e.closest(".deck").ok().flatten().is_none()),
    ) else {
        return;
    };
    let r = el.get_bounding_client_rect();
    let h = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(800.0);
    if r.top() >= 0.0 && r.bottom() <= h {
        return;
    }
    let behavior = if reduced_motion() { "auto" } else { "smooth" };
    let opts = obj(&[("block", "center".into()), ("behavior", behavior.into())]);
    if let Ok(f) = Reflect::get(&el, &"scrollIntoView".into()).and_then(|f| f.dyn_into::<Function>()) {
        let _ = f.call1(&el, &opts);
    }
}

/// After a lesson step marked its subjects (`data-focus`) and the control it
/// asks for (`data-ask`): scroll the page, at once, so that all of them are in
/// the part of the screen not covered by the sticky header or the lesson's
/// sheet (on a phone). When they cannot all fit, the band that shows the most
/// of them ([`crate::playground::motion::best_band`]).
pub fn reveal_marks() {
    let doc = gloo::utils::document();
    let Some(w) = web_sys::window() else {
        return;
    };
    let h = w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(800.0);
    // What stays put while the page scrolls: the header, the lesson's sheet.
    let pinned = |e: &Element| e.closest("header.top, .lesson-panel").ok().flatten().is_some();
    let band_top = doc
        .query_selector("header.top")
        .ok()
        .flatten()
        .filter(|e| matches!(position(&w, e).as_deref(), Some("sticky" | "fixed")))
        .map_or(0.0, |e| e.get_bounding_client_rect().bottom());
    let band_bottom = doc
        .query_selector(".lesson-panel")
        .ok()
        .flatten()
        .filter(|e| position(&w, e).as_deref() == Some("fixed"))
        .map_or(h, |e| e.get_bounding_client_rect().top());
    let marks: Vec<Element> = select("[data-focus], [data-ask]")
        .into_iter()
        .filter(|e| !pinned(e))
        .collect();
    let Some(first) = marks.first() else {
        return;
    };
    // A subject inside a scrolled pane (the phone's picture) first scrolls
    // into that pane's view; the page is adjusted below.
    if let Ok(f) = Reflect::get(first, &"scrollIntoView".into()).and_then(|f| f.dyn_into::<Function>()) {
        let opts = obj(&[("block", "nearest".into()), ("inline", "nearest".into())]);
        let _ = f.call1(first, &opts);
    }
    let spans: Vec<(f64, f64)> = marks
        .iter()
        .map(|e| {
            let r = e.get_bounding_client_rect();
            (r.top(), r.bottom())
        })
        .collect();
    let top = spans.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
    let bottom = spans.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    let room = band_bottom - band_top;
    if top >= band_top && bottom <= band_bottom {
        return;
    }
    let dy = if bottom - top <= room {
        // All fit: the least scroll that brings the group inside the band.
        if top < band_top {
            top - band_top - 8.0
        } else {
            bottom - band_bottom + 8.0
        }
    } else {
        // They cannot all fit: the band that shows the most of them.
        let ask = marks.iter().position(|e| e.has_attribute("data-ask"));
        match crate::playground::motion::best_band(&spans, ask, room, band_top) {
            Some(start) => start - band_top,
            None => return,
        }
    };
    w.scroll_by_with_x_and_y(0.0, dy);
}

/// An element's computed CSS `position`.
fn position(w: &web_sys::Window, e: &Element) -> Option<String> {
    w.get_computed_style(e)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("position").ok())
}
