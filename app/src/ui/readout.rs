//! Above the charts: the readout of the current setting, the alert when it
//! cannot run (the last setting that ran stays on screen, greyed), and the
//! notices about what a link, a file or a typed value changed.

use super::page::Page;
use crate::charts;
use crate::format;
use crate::state::{Controls, Outcome};
use leptos::prelude::*;
use scalescope_core::evaluate::Report;

/// Notices listed at once; the rest are counted.
const MAX_NOTICES: usize = 8;

type Text = fn(&Outcome, &Controls) -> Option<String>;

fn report_of(o: &Outcome) -> Option<Report> {
    o.as_ref().ok().map(|(_, r)| *r)
}

/// A readout value: `f` of the outcome in `source`, or a dash. The
/// readout keeps its elements and updates their text: rebuilding them on
/// every input would churn the DOM and the reactive graph.
fn text_of(
    source: RwSignal<Option<(Outcome, Controls)>>,
    f: impl Fn(&Outcome, &Controls) -> Option<String> + 'static,
) -> impl Fn() -> String {
    move || {
        source.with(|o| {
            o.as_ref()
                .and_then(|(outcome, c)| f(outcome, c))
                .unwrap_or_else(|| String::from("–"))
        })
    }
}

/// Whether the current setting cannot run.
fn failed(page: Page) -> bool {
    page.readout.with(|o| matches!(o, Some((Err(_), _))))
}

/// The readout's numbers, from the last setting that ran.
pub fn summary(page: Page) -> impl IntoView {
    let value = move |f: Text| text_of(page.last_good, f);
    let item = move |label: &'static str, id: &'static str, f: fn(&Report) -> String| {
        view! {
            <div><dt>{label}</dt><dd data-testid=id>{text_of(page.last_good, move |o, _| report_of(o).map(|r| f(&r)))}</dd></div>
        }
    };
    view! {
        <dl class="summary" data-testid="summary" class:stale=move || failed(page)>
            {item("Throughput", "out-throughput", |r| format::si(r.tokens_per_s, "tokens/s"))}
            {item("Per GPU", "out-per-gpu", |r| format::si(r.tokens_per_s_per_gpu, "tokens/s"))}
            {item("MFU", "out-mfu", |r| format::pct(r.mfu))}
            {item("Exposed comm", "out-exposed", |r| format::pct(r.exposed_comm_fraction))}
            <div><dt title="Communication kernels with no compute beside them, as a profiler trace shows it (the paper's measure): the critical-path exposure plus pipeline fill and drain">"Exposed in a trace"</dt><dd data-testid="out-exposed-trace">{value(|o, _| report_of(o).map(|r| format::pct(r.exposed_comm_trace_fraction)))}</dd></div>
            {item("Step", "out-step", |r| format::duration(r.step_time_s))}
            {item("Power", "out-power", |r| format::si(r.power_w_per_gpu, "W per GPU"))}
            {item("Energy", "out-energy", |r| format::si(r.tokens_per_joule, "tokens/J"))}
            {item("Memory", "out-memory", |r| format!("{:.1} GiB per GPU", r.memory_gib_per_gpu))}
            <div><dt title="Days and dollars to train on the planner's token budget at this setting's speed">"To train"</dt><dd data-testid="out-train">{value(|o, c| plan_cost(o, c).map(|k| format!(
                "{} · {} · {} GPU-hours",
                charts::plan::days(k.days),
                charts::plan::dollars(k.cost_usd),
                format::si(k.gpu_hours, "")
            )))}</dd></div>
            <div><dt title="Energy from the grid (GPUs, the rest of the node, the building) and its emissions">"Energy to train"</dt><dd data-testid="out-train-energy">{value(|o, c| plan_cost(o, c).map(|k| format!(
                "{} MWh · {} t CO2e",
                format::sig3(k.energy_mwh),
                format::sig3(k.co2_tonnes)
            )))}</dd></div>
            <div class="wide">
                <dt>{move || layout_heading(page)}</dt>
                <dd data-testid="out-layout">{value(|o, c| o.as_ref().ok().map(|(l, r)| format!(
                    "{} · {} · global batch {}",
                    charts::layout_label(l),
                    format::count(r.gpus, "GPUs"),
                    c.global_batch_at(c.nodes)
                )))}</dd>
            </div>
        </dl>
    }
}

/// What training on the planner's budget costs at `o`'s speed, if the
/// budget can be used.
fn plan_cost(o: &Outcome, c: &Controls) -> Option<scalescope_core::plan::Cost> {
    let budget = c.plan.budget(c);
    budget.check().ok()?;
    report_of(o).map(|r| scalescope_core::plan::cost(&r, &budget))
}

fn layout_heading(page: Page) -> &'static str {
    if failed(page) && page.last_good.with(Option::is_none) {
        "No setting has run yet on this page"
    } else if failed(page) {
        "Last setting that ran (shown greyed)"
    } else if page.controls.with(|c| c.best) {
        "Best layout found"
    } else {
        "Layout"
    }
}

/// The alert saying why the current setting cannot run.
pub fn message(page: Page) -> impl IntoView {
    let current = move |f: Text| text_of(page.readout, f);
    view! {
        <div class="message" role="alert" data-testid="message" hidden=move || !failed(page)>
            <strong>{current(|_, c| Some(format!(
                "{}: this setting cannot run. ",
                format::count(c.nodes.saturating_mul(c.gpus_per_node()), "GPUs")
            )))}</strong>
            {current(|o, _| o.as_ref().err().cloned())}
        </div>
    }
}

/// What a link, a file or a typed value changed, until dismissed.
pub fn notice_box(page: Page) -> impl IntoView {
    view! {
        <Show when=move || page.notices.with(|n| !n.is_empty())>
            <div class="notice" role="status" data-testid="url-notice">
                <strong>{move || page.notice_title.get()}</strong>
                <ul>
                    {move || page.notices.with(|n| format::capped(n, MAX_NOTICES)).into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                </ul>
                <button type="button" class="reset" on:click=move |_| page.notices.set(Vec::new())>
                    "Dismiss"
                </button>
            </div>
        </Show>
    }
}

/// Why the last scenario file could not be opened, until dismissed.
pub fn import_error(page: Page) -> impl IntoView {
    move || {
        page.import_error.get().map(|e| {
            view! {
                <div class="message" role="alert" data-testid="import-error">
                    {e}
                    " "
                    <button type="button" class="reset" on:click=move |_| page.import_error.set(None)>"Dismiss"</button>
                </div>
            }
        })
    }
}
