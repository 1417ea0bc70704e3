//! Small browser chores the page needs: file downloads, reading a picked
//! or dropped file, and registering the offline service worker.

use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// Makes the browser save `href` (a `data:` or `blob:` URL) as `name`.
fn save(href: &str, name: &str) {
    let Some(doc) = document() else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(href);
    a.set_download(name);
    a.set_hidden(true);
    if let Some(body) = doc.body() {
        let _ = body.append_child(&a);
        a.click();
        let _ = body.remove_child(&a);
    }
}

/// Downloads `text` as a file called `name` of type `mime`.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    save(&url, name);
    // The click has started the download; the URL can go after this task.
    leptos::prelude::set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(1),
    );
}

/// Downloads what `canvas` shows as a PNG file called `name`.
pub fn download_png(canvas: &web_sys::HtmlCanvasElement, name: &str) {
    if let Ok(url) = canvas.to_data_url_with_type("image/png") {
        save(&url, name);
    }
}

/// Reads `file` as text and hands the result (or why it failed) to `done`.
pub fn read_text(file: &web_sys::File, done: impl FnOnce(Result<String, String>) + 'static) {
    let Ok(reader) = web_sys::FileReader::new() else {
        done(Err(String::from("this browser cannot read files")));
        return;
    };
    let too_big = file.size() > 4.0 * 1024.0 * 1024.0;
    if too_big {
        done(Err(format!(
            "the file is {:.1} MB; a scenario file is a few hundred bytes",
            file.size() / 1e6
        )));
        return;
    }
    let done = std::rc::Rc::new(std::cell::RefCell::new(Some(done)));
    let finish = {
        let reader = reader.clone();
        let done = done.clone();
        Closure::<dyn FnMut()>::new(move || {
            let result = reader
                .result()
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| String::from("the file could not be read as text"));
            if let Some(done) = done.borrow_mut().take() {
                done(result);
            }
        })
    };
    reader.set_onloadend(Some(finish.as_ref().unchecked_ref()));
    // Freed when the reader calls back (once); a dropped closure would
    // leave the reader calling into nothing.
    finish.forget();
    if reader.read_as_text(file).is_err() {
        if let Some(done) = done.borrow_mut().take() {
            done(Err(String::from("the file could not be read")));
        }
    }
}

/// Registers `sw.js`, which keeps a copy of the site for offline use.
/// Skipped where service workers cannot run (a `file:` page).
pub fn register_service_worker() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let protocol = w.location().protocol().unwrap_or_default();
    if protocol != "http:" && protocol != "https:" {
        return;
    }
    let navigator = w.navigator();
    let has_sw =
        js_sys::Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false);
    if !has_sw {
        return;
    }
    let promise = navigator.service_worker().register("./sw.js");
    let failed = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {
        // Offline use is an extra: the page works the same without it.
    });
    let _ = promise.catch(&failed);
    failed.forget();
}
