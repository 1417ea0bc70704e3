//! Small browser chores the page needs: file downloads, reading a picked
//! or dropped file, and registering the offline service worker. Blobs,
//! object URLs and file reading are gloo-file's.

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
    let url = gloo_file::ObjectUrl::from(gloo_file::Blob::new_with_options(text, Some(mime)));
    save(&url, name);
    // The click has started the download; the URL is revoked when it is
    // dropped, after this task.
    leptos::prelude::set_timeout(move || drop(url), std::time::Duration::from_secs(1));
}

/// Downloads what `canvas` shows as a PNG file called `name`.
pub fn download_png(canvas: &web_sys::HtmlCanvasElement, name: &str) {
    if let Ok(url) = canvas.to_data_url_with_type("image/png") {
        save(&url, name);
    }
}

/// The largest file read: a scenario file is a few hundred bytes.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads `file` as text and hands its name and the result (or why it
/// failed) to `done`.
pub fn read_text(file: web_sys::File, done: impl FnOnce(String, Result<String, String>) + 'static) {
    let file = gloo_file::File::from(file);
    let name = file.name();
    if file.size() > MAX_FILE_BYTES {
        #[allow(clippy::cast_precision_loss)]
        let mb = file.size() as f64 / 1e6;
        done(
            name,
            Err(format!(
                "the file is {mb:.1} MB; a scenario file is a few hundred bytes"
            )),
        );
        return;
    }
    // The reader reads while it is kept: one file at a time (a new pick
    // replaces a read still under way).
    let reader = gloo_file::callbacks::read_as_text(&file, move |read| {
        done(
            name,
            read.map_err(|_| String::from("the file could not be read as text")),
        );
    });
    READING.with(|r| *r.borrow_mut() = Some(reader));
}

thread_local! {
    static READING: std::cell::RefCell<Option<gloo_file::callbacks::FileReader>> =
        const { std::cell::RefCell::new(None) };
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
