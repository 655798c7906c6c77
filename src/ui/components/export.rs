//! Browser side of exporting a picture: download a text file, and turn an SVG
//! into a PNG through an `<img>` and a canvas (all in the page: a blob URL,
//! which the page's CSP allows for images; nothing leaves the browser).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Offer `text` as a download named `name` of type `mime`.
pub fn download_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let r = download_url(name, &url);
    // Revoked once the download has surely started (at once could cancel it).
    gloo::timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    r
}

/// Offer the resource at `url` (a `blob:` or `data:` URL) as a download named `name`.
pub fn download_url(name: &str, url: &str) -> Result<(), String> {
    let a = gloo::utils::document()
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "no anchor element".to_string())?;
    a.set_href(url);
    a.set_download(name);
    a.click();
    Ok(())
}

/// Draw `svg` on a canvas `scale` times its size and hand back the PNG as a
/// `data:` URL (asynchronously: the image decodes first).
pub fn svg_to_png(svg: &str, scale: f64, done: impl FnOnce(Result<String, String>) + 'static) {
    let fail = |e: JsValue| format!("{e:?}");
    let setup = || -> Result<(web_sys::HtmlImageElement, String), String> {
        let parts = js_sys::Array::of1(&JsValue::from_str(svg));
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type("image/svg+xml;charset=utf-8");
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
        let img = web_sys::HtmlImageElement::new().map_err(fail)?;
        Ok((img, url))
    };
    let (img, url) = match setup() {
        Ok(x) => x,
        Err(e) => return done(Err(e)),
    };
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let finish = {
        let done = done.clone();
        move |r: Result<String, String>| {
            if let Some(d) = done.borrow_mut().take() {
                d(r);
            }
        }
    };
    let onload = {
        let img = img.clone();
        let url = url.clone();
        let finish = finish.clone();
        Closure::once(move || {
            let draw = || -> Result<String, String> {
                let (w, h) = (f64::from(img.natural_width()), f64::from(img.natural_height()));
                if w == 0.0 || h == 0.0 {
                    return Err("the picture has no size".into());
                }
                let canvas = gloo::utils::document()
                    .create_element("canvas")
                    .map_err(fail)?
                    .dyn_into::<web_sys::HtmlCanvasElement>()
                    .map_err(|_| "no canvas".to_string())?;
                canvas.set_width((w * scale).round() as u32);
                canvas.set_height((h * scale).round() as u32);
                let ctx = canvas
                    .get_context("2d")
                    .map_err(fail)?
                    .ok_or("no 2D context")?
                    .dyn_into::<web_sys::CanvasRenderingContext2d>()
                    .map_err(|_| "no 2D context".to_string())?;
                ctx.scale(scale, scale).map_err(fail)?;
                ctx.draw_image_with_html_image_element(&img, 0.0, 0.0)
                    .map_err(fail)?;
                canvas.to_data_url_with_type("image/png").map_err(fail)
            };
            let r = draw();
            let _ = web_sys::Url::revoke_object_url(&url);
            finish(r);
        })
    };
    let onerror = {
        let url = url.clone();
        Closure::once(move || {
            let _ = web_sys::Url::revoke_object_url(&url);
            finish(Err("the browser could not decode the SVG".into()));
        })
    };
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    img.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    // The image holds the handlers until it fires one of them.
    onload.forget();
    onerror.forget();
    img.set_src(&url);
}
