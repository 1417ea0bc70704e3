//! The ScaleScope explorer: controls, state and charts.

pub mod charts;

use leptos::html::Canvas;
use leptos::prelude::*;

/// The whole explorer page.
#[component]
pub fn App() -> impl IntoView {
    let (nodes, set_nodes) = signal(4_u32);
    let canvas = NodeRef::<Canvas>::new();

    Effect::new(move |_| {
        let n = nodes.get();
        if let Some(el) = canvas.get() {
            charts::allgather::draw_on_canvas(&el, n);
        }
    });

    view! {
        <main class="app">
            <h1>"ScaleScope"</h1>
            <label class="control">
                <span>"Nodes (8 GPUs each): " <output data-testid="nodes-value">{nodes}</output></span>
                <input
                    type="range"
                    data-testid="nodes-slider"
                    aria-label="Nodes"
                    min="1"
                    max="256"
                    step="1"
                    prop:value=move || nodes.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            set_nodes.set(v.clamp(1, 256));
                        }
                    }
                />
            </label>
            <canvas data-testid="chart" width="720" height="400" node_ref=canvas></canvas>
        </main>
    }
}
