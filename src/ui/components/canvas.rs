//! Drawing on a `<canvas>` for views too large for SVG (thousands of bundles or
//! brokers): a 2D context sized to the element and the device pixel ratio, and
//! the page's CSS colours so the drawing follows light and dark mode.
//! The element's width comes from a `ResizeObserver` ([`use_css_width`]), so a
//! drawing after a round does not make the browser lay the page out first.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::NodeRef;

/// A canvas ready to draw in `view` units (`view.0` × `view.1`, origin at the
/// top left): its backing store follows the element's CSS width (as observed,
/// else read from the element, else `view.0` px) times the device pixel ratio,
/// and the context is scaled to match.
pub struct Surface {
    /// The 2D context.
    pub ctx: CanvasRenderingContext2d,
    canvas: HtmlCanvasElement,
    /// The canvas's computed style, read once per drawing.
    style: std::cell::OnceCell<Option<web_sys::CssStyleDeclaration>>,
}

impl Surface {
    /// Prepare `node` (a `<canvas>`), cleared; `None` before it is mounted.
    /// `width` is its CSS width as [`use_css_width`] observed it: `None` (not
    /// observed yet) reads it from the element, which makes the browser lay out
    /// whatever changed first; 0 (hidden) draws at the view's own width, and the
    /// observer's report when the element is shown draws it again.
    pub fn new(node: &NodeRef, view: (f64, f64), width: Option<f64>) -> Option<Surface> {
        let canvas = node.cast::<HtmlCanvasElement>()?;
        // The element is read only when no width was observed (reading it lays out the page).
        let css_w = match width {
            Some(w) if w > 0.0 => w,
            Some(_) => view.0,
            None => match canvas.client_width() {
                0 => view.0,
                w => f64::from(w),
            },
        };
        let dpr = gloo::utils::window().device_pixel_ratio().max(1.0);
        let scale = css_w / view.0;
        let (w, h) = (
            (css_w * dpr).round() as u32,
            (view.1 * scale * dpr).round() as u32,
        );
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()?
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        ctx.set_transform(scale * dpr, 0.0, 0.0, scale * dpr, 0.0, 0.0)
            .ok()?;
        ctx.clear_rect(0.0, 0.0, view.0, view.1);
        Some(Surface {
            ctx,
            canvas,
            style: std::cell::OnceCell::new(),
        })
    }

    /// The value of a CSS custom property (`--accent`) on the canvas, or `fallback`.
    pub fn css(&self, var: &str, fallback: &str) -> String {
        self.style
            .get_or_init(|| {
                gloo::utils::window()
                    .get_computed_style(&self.canvas)
                    .ok()
                    .flatten()
            })
            .as_ref()
            .and_then(|s| s.get_property_value(var).ok())
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| fallback.to_string())
    }
}

/// The CSS width of the element `node` refers to, as a `ResizeObserver` last
/// reported it after a layout (`None` until its first report; 0 while the element
/// is hidden): a component that draws with [`Surface`] passes it on, and draws
/// again when it changes. The element is looked for after every render, so one
/// that a component shows only later (a strip drawn only for many brokers) is
/// observed from the render that adds it, and a replaced one is observed anew.
#[yew::hook]
pub fn use_css_width(node: &NodeRef) -> Option<f64> {
    let width = yew::use_state_eq(|| None::<f64>);
    let watch = yew::use_mut_ref(|| None::<Watch>);
    {
        let (node, width, watch) = (node.clone(), width.clone(), watch.clone());
        yew::use_effect(move || {
            let el = node.cast::<web_sys::Element>();
            let mut w = watch.borrow_mut();
            if w.as_ref().map(|x| &x.el) != el.as_ref() {
                if let Some(old) = w.take() {
                    old.observer.disconnect();
                }
                *w = el.and_then(|el| Watch::new(el, width));
            }
        });
    }
    {
        let watch = watch.clone();
        yew::use_effect_with((), move |_| {
            move || {
                if let Some(x) = watch.borrow_mut().take() {
                    x.observer.disconnect();
                }
            }
        });
    }
    *width
}

/// An element under a `ResizeObserver` that reports its width into a state.
struct Watch {
    el: web_sys::Element,
    observer: web_sys::ResizeObserver,
    _report: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl Watch {
    fn new(el: web_sys::Element, width: yew::UseStateHandle<Option<f64>>) -> Option<Watch> {
        let report =
            wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                if let Ok(e) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() {
                    width.set(Some(e.content_rect().width()));
                }
            });
        let observer = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()).ok()?;
        observer.observe(&el);
        Some(Watch {
            el,
            observer,
            _report: report,
        })
    }
}

/// Where a mouse event falls on a canvas drawn by [`Surface`], in view units.
pub fn view_point(e: &web_sys::MouseEvent, view_width: f64) -> Option<(f64, f64)> {
    let canvas = e.target()?.dyn_into::<HtmlCanvasElement>().ok()?;
    let css_w = f64::from(canvas.client_width());
    (css_w > 0.0).then(|| {
        let scale = css_w / view_width;
        (f64::from(e.offset_x()) / scale, f64::from(e.offset_y()) / scale)
    })
}

/// An `Rc` compared by pointer: for effect dependencies and props holding views
/// that are rebuilt only when the scenario changes (comparing them by value on
/// every render would cost more than redrawing).
pub struct Same<T>(pub std::rc::Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, o: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &o.0)
    }
}

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Same(self.0.clone())
    }
}

impl<T: Default> Default for Same<T> {
    fn default() -> Self {
        Same(std::rc::Rc::default())
    }
}

impl<T> std::ops::Deref for Same<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}
