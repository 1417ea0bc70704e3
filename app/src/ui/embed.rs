//! Embed mode (`?embed=throughput,mfu`): a few charts with three controls,
//! for a page that frames ScaleScope, and a link to the full explorer.

use super::inputs::slider;
use super::page::Page;
use super::paint::Painter;
use super::panel::{model_select, NODES, SEQ};
use super::readout::{message, notice_box};
use leptos::prelude::*;

/// The embedded page.
pub fn view(page: Page, painter: Painter) -> impl IntoView {
    let full_link = move || {
        let q = crate::url::to_query(&page.controls.get());
        if q.is_empty() {
            String::from("./")
        } else {
            format!("./?{q}")
        }
    };
    view! {
        <main class="embed-view" data-testid="embed">
            <h1 class="sr-only">"ScaleScope: diminishing returns in distributed training"</h1>
            <div class="embed-controls" role="group" aria-label="Controls">
                {slider(page, NODES)}
                {slider(page, SEQ)}
                {model_select(page)}
            </div>
            {notice_box(page)}
            {message(page)}
            <div class="cards">{super::cards::cards(page, painter)}</div>
            <p class="embed-foot">
                <a href=full_link target="_blank" rel="noopener" data-testid="open-full">
                    "Open in ScaleScope: every control and chart"
                </a>
            </p>
        </main>
    }
}
