//! Comparing settings: "Pin this setting" keeps the current one (up to
//! four, each with a name the user can edit, each removable), every chart
//! draws the pins beside the live setting, and a table gives every readout
//! for each pin and the live setting, with the ratio to the first pin.

use super::page::Page;
use crate::charts;
use crate::format;
use crate::state::{self, Controls, Outcome, MAX_PINS, MAX_PIN_NAME};
use leptos::prelude::*;
use scalescope_core::evaluate::Report;

/// A row of the comparison table: its name, the value in words, and the
/// number a ratio is taken of (none for the layout).
type Row = (
    &'static str,
    fn(&Report) -> String,
    Option<fn(&Report) -> f64>,
);

const ROWS: [Row; 10] = [
    (
        "Throughput",
        |r| format::si(r.tokens_per_s, "tokens/s"),
        Some(|r| r.tokens_per_s),
    ),
    (
        "Per GPU",
        |r| format::si(r.tokens_per_s_per_gpu, "tokens/s"),
        Some(|r| r.tokens_per_s_per_gpu),
    ),
    ("MFU", |r| format::pct(r.mfu), Some(|r| r.mfu)),
    (
        "Exposed comm",
        |r| format::pct(r.exposed_comm_fraction),
        Some(|r| r.exposed_comm_fraction),
    ),
    (
        "Exposed in a trace",
        |r| format::pct(r.exposed_comm_trace_fraction),
        Some(|r| r.exposed_comm_trace_fraction),
    ),
    (
        "Step",
        |r| format::duration(r.step_time_s),
        Some(|r| r.step_time_s),
    ),
    (
        "Power",
        |r| format::si(r.power_w_per_gpu, "W per GPU"),
        Some(|r| r.power_w_per_gpu),
    ),
    (
        "Energy",
        |r| format::si(r.tokens_per_joule, "tokens/J"),
        Some(|r| r.tokens_per_joule),
    ),
    (
        "Memory",
        |r| format!("{:.1} GiB per GPU", r.memory_gib_per_gpu),
        Some(|r| r.memory_gib_per_gpu),
    ),
    (
        "GPUs",
        |r| format::count(r.gpus, "GPUs"),
        Some(|r| f64::from(r.gpus)),
    ),
];

/// One column: its name and what its setting gives.
struct Column {
    name: String,
    controls: Controls,
    outcome: Outcome,
}

/// The pins' columns (their views are computed once, when pinned) and the
/// live one (the outcome the painter computed last).
fn columns(c: &Controls, live: Outcome) -> Vec<Column> {
    c.pins
        .iter()
        .map(|p| Column {
            name: p.name.clone(),
            controls: p.controls.clone(),
            outcome: state::pinned_views(&p.controls).current.clone(),
        })
        .chain(core::iter::once(Column {
            name: String::from("Live setting"),
            controls: c.unpinned(),
            outcome: live,
        }))
        .collect()
}

/// The cell of `row` for `col`, with its ratio to the first pin's.
fn cell(col: &Column, first: Option<&Column>, row: &Row) -> String {
    let Ok((_, r)) = &col.outcome else {
        return String::from("cannot run");
    };
    let mut text = (row.1)(r);
    let base = first.and_then(|f| f.outcome.as_ref().ok()).map(|(_, b)| b);
    if let (Some(b), Some(f)) = (base, row.2) {
        let ratio = f(r) / f(b);
        if ratio.is_finite() && !core::ptr::eq(col, first.unwrap_or(col)) {
            text.push_str(&format!(" (x{})", format::sig3(ratio)));
        }
    }
    text
}

/// The comparison table as HTML (escaped; as the model page, text is cheaper
/// in the site than reactive views), or nothing without pins.
fn table_html(live: Outcome, c: &Controls) -> String {
    if c.pins.is_empty() {
        return String::new();
    }
    let cols = columns(c, live);
    let first = cols.first();
    let esc = format::escape_html;
    let mut h = String::from(
        "<table data-testid=\"compare-table\"><caption>Each pinned setting beside the live one; (x…) is the ratio to the first pin.</caption><thead><tr><th scope=\"col\">Readout</th>",
    );
    for col in &cols {
        h.push_str(&format!("<th scope=\"col\">{}</th>", esc(&col.name)));
    }
    h.push_str("</tr></thead><tbody>");
    let mut row = |name: &str, cells: Vec<String>| {
        h.push_str(&format!("<tr><th scope=\"row\">{name}</th>"));
        for cell in cells {
            h.push_str(&format!("<td>{}</td>", esc(&cell)));
        }
        h.push_str("</tr>");
    };
    for r in &ROWS {
        row(r.0, cols.iter().map(|col| cell(col, first, r)).collect());
    }
    row("To train", cols.iter().map(to_train).collect());
    row(
        "Layout",
        cols.iter()
            .map(|col| match &col.outcome {
                Ok((l, _)) => charts::layout_label(l),
                Err(e) => e.clone(),
            })
            .collect(),
    );
    h.push_str("</tbody></table>");
    h
}

/// Days and dollars to train on the column's own budget.
fn to_train(col: &Column) -> String {
    let budget = col.controls.plan.budget(&col.controls);
    match (&col.outcome, budget.check()) {
        (Ok((_, r)), Ok(())) => {
            let k = scalescope_core::plan::cost(r, &budget);
            format!(
                "{} · {}",
                charts::plan::days(k.days),
                charts::plan::dollars(k.cost_usd)
            )
        }
        _ => String::from("–"),
    }
}

/// The comparison table, following every repaint.
fn table(page: Page) -> impl IntoView {
    let html = move || {
        page.readout
            .get()
            .map(|(live, c)| table_html(live, &c))
            .unwrap_or_default()
    };
    view! { <div class="compare-table" inner_html=html></div> }
}

/// The pins, each with its name field and a remove button.
fn pin_list(page: Page) -> impl IntoView {
    let controls = page.controls;
    move || {
        let pins = controls.with(|c| c.pins.clone());
        pins.into_iter()
            .enumerate()
            .map(|(i, p)| {
                let colour = format!("pin-swatch pin-{i}");
                view! {
                    <li data-testid=format!("pin-{i}")>
                        <span class=colour aria-hidden="true"></span>
                        <input
                            type="text"
                            maxlength=MAX_PIN_NAME
                            aria-label=format!("Name of pin {}", i + 1)
                            data-testid=format!("pin-name-{i}")
                            prop:value=p.name.clone()
                            on:change=move |ev| {
                                let name: String = event_target_value(&ev).trim().chars().take(MAX_PIN_NAME).collect();
                                controls.update(|c| {
                                    if let Some(p) = c.pins.get_mut(i) {
                                        p.name = if name.is_empty() { format!("Pin {}", i + 1) } else { name };
                                    }
                                });
                            }
                        />
                        <button
                            type="button"
                            class="reset"
                            data-testid=format!("pin-remove-{i}")
                            aria-label=format!("Remove pin {}", p.name)
                            on:click=move |_| controls.update(|c| {
                                if i < c.pins.len() {
                                    c.pins.remove(i);
                                }
                            })
                        >"Remove"</button>
                    </li>
                }
            })
            .collect_view()
    }
}

/// The compare bar: pin the current setting, the pins, and the table.
pub fn view(page: Page) -> impl IntoView {
    let controls = page.controls;
    let pin = move |_| {
        controls.update(|c| {
            let name = format!("Pin {}", (c.pins.len() % MAX_PINS) + 1);
            c.pin(name);
        });
    };
    view! {
        <section class="compare" aria-label="Compare settings">
            <div class="row">
                <button type="button" data-testid="pin-button" on:click=pin>"Pin this setting"</button>
                <span class="hint">{move || {
                    let n = controls.with(|c| c.pins.len());
                    if n == 0 {
                        String::from("Pinned settings are drawn dashed beside the live one in every chart.")
                    } else if n >= MAX_PINS {
                        format!("{n} pinned: the next pin replaces the oldest.")
                    } else {
                        format!("{n} pinned.")
                    }
                }}</span>
            </div>
            <ul class="pins">{pin_list(page)}</ul>
            {table(page)}
        </section>
    }
}
