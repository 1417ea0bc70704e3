//! The model page (`#model`): the core's equations and assumptions, the
//! calibration table and the validation against the paper and published
//! runs. The core writes the page when the site is built (`scalescope
//! pages`); this view shows it when it opens (see [`super::fragment`]).

use super::fragment;
use leptos::prelude::*;

/// Whether the URL's fragment asks for the model page (`#model`, or one of
/// its sections such as `#model-compute`).
#[must_use]
pub fn is_open() -> bool {
    hash().is_some_and(|h| h.starts_with("#model"))
}

fn hash() -> Option<String> {
    web_sys::window().and_then(|w| w.location().hash().ok())
}

/// The whole page.
pub fn view() -> impl IntoView {
    let html: RwSignal<Option<String>> = RwSignal::new(None);
    fragment::load("model", move |read| {
        html.try_set(Some(read.unwrap_or_else(|why| fragment::alert(&why))));
        // A link to one section (`#model-overlap`) lands on it once it is there.
        if let Some(id) = hash().filter(|h| h.len() > "#model".len()) {
            request_animation_frame(move || {
                let at = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id(&id[1..]));
                if let Some(at) = at {
                    at.scroll_into_view();
                }
            });
        }
    });
    view! {
        <main class="model-main">
        <article class="model-page" data-testid="model-page">
            <div inner_html=move || html.get().unwrap_or_else(|| String::from(
                "<p class=\"hint\" data-testid=\"model-loading\">Loading the model page…</p>"
            ))></div>
            <p><a href="#" class="back">"Back to the explorer"</a></p>
        </article>
        </main>
    }
}
