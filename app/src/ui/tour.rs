//! The paper tour's panel: the stop's explanation and the paper's number
//! beside the model's (computed by the core for the paper's exact
//! setting when the site was built), and buttons to step back, forward or leave.

use super::fragment;
use crate::state::Controls;
use crate::tour::STOPS;
use leptos::prelude::*;
use std::time::Duration;

/// Goes to stop `i`: sets the controls to its setting and brings its chart
/// into view.
pub fn go(i: usize, tour_at: RwSignal<Option<usize>>, controls: RwSignal<Controls>) {
    let Some(stop) = STOPS.get(i) else {
        return;
    };
    controls.set(stop.controls());
    tour_at.set(Some(i));
    let id = stop.chart.id();
    set_timeout(
        move || {
            let card = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector(&format!("[data-testid=\"card-{id}\"]"))
                    .ok()
                    .flatten()
            });
            if let Some(card) = card {
                card.scroll_into_view();
            }
        },
        Duration::from_millis(30),
    );
}

/// The panel of stop `i`.
pub fn panel(
    i: usize,
    tour_at: RwSignal<Option<usize>>,
    controls: RwSignal<Controls>,
) -> impl IntoView {
    let stop = STOPS[i];
    // The stop's words, the paper's statement beside the model's for the
    // same setting, the stated numbers and whether the finding holds,
    // written when the site was built (`scalescope pages`).
    let compare: RwSignal<Option<String>> = RwSignal::new(None);
    fragment::load("tour", move |read| {
        compare.try_set(Some(match read {
            Ok(all) => fragment::cut(&all, stop.finding)
                .unwrap_or_default()
                .to_owned(),
            Err(why) => fragment::alert(&why),
        }));
    });
    let last = STOPS.len() - 1;
    view! {
        <section class="tour" aria-label="Paper tour" data-testid="tour" data-stop=stop.finding>
            <div class="tour-head">
                <span class="tour-step">{format!("Paper tour · stop {} of {}", i + 1, STOPS.len())}</span>
                <h2 data-testid="tour-title">{format!("{}: {}", stop.finding, stop.title)}</h2>
            </div>
            <div inner_html=move || compare.get().unwrap_or_else(
                || String::from("<p class=\"hint\" data-testid=\"tour-loading\">Loading the stop and the model's numbers for the paper's setting…</p>"),
            )></div>
            <div class="tour-nav">
                <button type="button" data-testid="tour-back" disabled=i == 0
                    on:click=move |_| go(i.saturating_sub(1), tour_at, controls)>"← Back"</button>
                <button type="button" data-testid="tour-next" disabled=i == last
                    on:click=move |_| go((i + 1).min(last), tour_at, controls)>"Next →"</button>
                <button type="button" data-testid="tour-leave"
                    on:click=move |_| tour_at.set(None)>"Leave the tour and explore from here"</button>
            </div>
        </section>
    }
}
