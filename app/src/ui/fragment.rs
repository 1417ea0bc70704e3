//! Page fragments built ahead of time (`scalescope pages`, kept in
//! `static/pages/`): the model page and the tour's numbers. The served site
//! fetches `pages/NAME.html` when the view opens (the service worker keeps
//! a copy for offline use); the one-file copy carries each fragment as a
//! `<template id="page-NAME">`. A fragment is read once per visit.

use std::cell::RefCell;
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;

thread_local! {
    /// Fragments already read, by name.
    static READ: RefCell<Vec<(&'static str, String)>> = const { RefCell::new(Vec::new()) };
}

/// Calls `done` with fragment `name`'s HTML, or with a message saying why
/// it could not be read.
pub fn load(name: &'static str, done: impl FnOnce(Result<String, String>) + 'static) {
    if let Some(html) =
        READ.with_borrow(|r| r.iter().find(|(n, _)| *n == name).map(|(_, h)| h.clone()))
    {
        done(Ok(html));
        return;
    }
    let window = web_sys::window();
    let inlined = window
        .as_ref()
        .and_then(web_sys::Window::document)
        .and_then(|d| d.get_element_by_id(&format!("page-{name}")));
    if let Some(template) = inlined {
        // A template's inner HTML is its content, serialized.
        done(Ok(keep(name, template.inner_html())));
        return;
    }
    leptos::task::spawn_local(async move {
        let result = fetch(window, name).await.map(|html| keep(name, html));
        done(result.map_err(|why| format!("The {name} page could not be loaded ({why}). Reload the page when the network is back.")));
    });
}

/// Why a fragment could not be read, as the alert both views show in its
/// place.
#[must_use]
pub fn alert(why: &str) -> String {
    format!(
        "<p class=\"error\" role=\"alert\">{}</p>",
        crate::format::escape_html(why)
    )
}

/// Stores a fragment read and returns it.
fn keep(name: &'static str, html: String) -> String {
    READ.with_borrow_mut(|r| r.push((name, html.clone())));
    html
}

/// Fetches `pages/NAME.html` relative to the page.
async fn fetch(window: Option<web_sys::Window>, name: &str) -> Result<String, String> {
    let window = window.ok_or("no window")?;
    let said = |e: wasm_bindgen::JsValue| {
        e.as_string()
            .unwrap_or_else(|| String::from("the request failed"))
    };
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(&format!("pages/{name}.html")))
            .await
            .map_err(said)?
            .dyn_into()
            .map_err(said)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    JsFuture::from(response.text().map_err(said)?)
        .await
        .map_err(said)?
        .as_string()
        .ok_or_else(|| String::from("not text"))
}

/// The part of `html` between `<!--ID-->` and `<!--/ID-->`.
#[must_use]
pub fn cut<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let open = format!("<!--{id}-->");
    let from = html.find(&open)? + open.len();
    let len = html[from..].find(&format!("<!--/{id}-->"))?;
    Some(&html[from..from + len])
}
