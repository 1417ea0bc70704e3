//! The Leptos page. [`App`] builds the shared state ([`page::Page`]) and
//! the chart painter ([`paint::Painter`]), then lays out the parts, each in
//! its own module:
//!
//! - [`panel`]: the control panel, built from the widgets in [`inputs`];
//! - [`readout`]: the readout, the cannot-run alert and the notices;
//! - [`cards`]: the chart cards, their downloads, tooltips and Data tables;
//! - [`tour`]: the paper tour's panel; [`model_page`]: the model page;
//!   [`fragment`]: the two read their text from fragments built ahead;
//! - [`embed`]: embed mode; [`dom`]: downloads, file reading, offline copy.
//!
//! Every input writes one field of [`Controls`](crate::state::Controls);
//! one effect ([`paint::Painter::repaint_on_input`]) recomputes the views
//! and repaints every chart in the same task, then records how long that
//! took (for the budget script).

mod calibrate;
mod cards;
mod compare;
mod dom;
mod embed;
mod fragment;
mod inputs;
mod model_page;
mod page;
mod paint;
mod panel;
mod readout;
mod sliders;
mod tour;

use crate::charts::Chart;
use leptos::prelude::*;
use page::Page;
use paint::Painter;

/// Reads the starting state from the URL's query string (a shared link):
/// the page, the embed's chart list if any, and notices about what the
/// link held that could not be used.
fn start() -> (Page, Option<Vec<Chart>>) {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (controls, mut notices) = crate::url::from_query(&search);
    let embed = crate::url::embed_of(&search).map(|(charts, unknown)| {
        notices.extend(unknown);
        charts
    });
    (Page::new(controls, notices, model_page::is_open()), embed)
}

/// Page-wide listeners: a scenario file dropped anywhere, and the hash
/// switching between the explorer and the model page.
fn listen(page: Page) {
    let _ = window_event_listener(leptos::ev::resize, move |_| {
        page.resized.update(|n| *n += 1);
    });
    let _ = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            dom::read_text(file, move |name, r| page.apply_import(&name, r));
        }
    });
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        let open = model_page::is_open();
        if open != page.model_open.get_untracked() {
            page.model_open.set(open);
            // Charts hidden behind the model page are re-measured and
            // repainted when the explorer shows again.
            if !open {
                page.resized.update(|n| *n += 1);
            }
        }
    });
}

/// The header: the name, the tagline and the three pages.
fn header(page: Page) -> impl IntoView {
    let start_tour = move |_| {
        // The tour runs on the explorer: leave the model page first.
        if page.model_open.get_untracked() {
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_hash("");
            }
        }
        tour::go(0, page.tour_at, page.controls);
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1>"ScaleScope"</h1>
                <p class="tagline">"Why large-scale training hits diminishing returns: drag a control and every chart is redrawn from the model."</p>
            </div>
            <nav class="pages" aria-label="Pages">
                <a href="#" data-testid="explorer-link" class:current=move || !page.model_open.get()>"Explorer"</a>
                <button type="button" data-testid="tour-start" on:click=start_tour>"Paper tour"</button>
                <a href="#model" data-testid="model-link" class:current=move || page.model_open.get()>"The model"</a>
            </nav>
        </header>
    }
}

/// The footer: where the site is served (not from the one-file copy, which
/// has no side files), the one-file copy to take away.
fn footer() -> impl IntoView {
    let served = web_sys::window()
        .and_then(|w| w.location().protocol().ok())
        .is_some_and(|p| p == "http:" || p == "https:");
    served.then(|| {
        view! {
            <footer class="site-footer">
                <p>
                    "No network in the classroom? "
                    <a href="scalescope.html" download="scalescope.html" data-testid="single-file-link">
                        "Download ScaleScope as one file"
                    </a>
                    ": it opens from disk in any browser, every view and export included, with no server and no network."
                </p>
            </footer>
        }
    })
}

/// The whole explorer page.
#[component]
pub fn App() -> impl IntoView {
    let (page, embed) = start();
    let painter = Painter::new(embed);
    painter.observe();
    painter.repaint_on_input(page);
    if painter.embedded() {
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.class_list().add_1("embed");
        }
        let _ = window_event_listener(leptos::ev::resize, move |_| {
            page.resized.update(|n| *n += 1);
        });
        return embed::view(page, painter).into_any();
    }
    listen(page);
    let model_open = page.model_open;
    view! {
        {header(page)}
        <Show when=move || model_open.get()>
            {model_page::view()}
        </Show>
        <main class="layout" hidden=move || model_open.get()>
            {panel::panel(page)}
            <section class="results" aria-label="Results">
                {move || page.tour_at.get().map(|i| tour::panel(i, page.tour_at, page.controls))}
                {readout::notice_box(page)}
                {readout::import_error(page)}
                {calibrate::banner(page)}
                <div class="readout" aria-live="polite">{readout::summary(page)}{readout::message(page)}</div>
                {compare::view(page)}
                <div class="cards">{cards::cards(page, painter)}</div>
            </section>
        </main>
        {footer()}
    }
    .into_any()
}
