//! Calibrating to your own cluster: measured runs pasted or opened as CSV,
//! the constants to fit chosen, the fit shown beside the defaults with each
//! run's error before and after, and a switch that draws every chart with
//! the calibration (a banner above the charts says so) until turned off.

use super::dom;
use super::page::Page;
use super::paint::{now_ms, publish};
use crate::format;
use crate::state;
use leptos::prelude::*;
use scalescope_core::calibrate::{Calibration, Constant, FitReport, CONSTANTS};

/// A constant's name for people.
fn label(c: Constant) -> &'static str {
    match c {
        Constant::GemmEfficiency => "GEMM efficiency",
        Constant::NetworkEfficiency => "network efficiency",
        Constant::DpOverlapShare => "data-parallel overlap share",
        Constant::AttentionEfficiency => "attention efficiency",
    }
}

/// The calibration in words: `GEMM efficiency 0.469, network efficiency 0.662`.
fn summary(cal: &Calibration) -> String {
    CONSTANTS
        .iter()
        .filter_map(|&c| {
            cal.get(c)
                .map(|v| format!("{} {}", label(c), format::sig3(v)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fit's report as HTML (escaped): constants beside their defaults,
/// each run's error before and after, and the warnings.
fn report_html(r: &FitReport) -> String {
    let esc = format::escape_html;
    let mut h = String::from(
        "<div data-testid=\"calibrate-report\"><table class=\"fit\"><caption>Fitted constants</caption><thead><tr><th scope=\"col\">constant</th><th scope=\"col\">default</th><th scope=\"col\">fitted</th></tr></thead><tbody>",
    );
    for f in &r.fitted {
        h.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}{}</td></tr>",
            label(f.constant),
            format::sig3(f.default),
            format::sig3(f.value),
            if f.at_bound { " (at its bound)" } else { "" }
        ));
    }
    h.push_str(&format!(
        "</tbody></table><table class=\"fit\"><caption>Each run's error: rms {} before, {} after</caption><thead><tr><th scope=\"col\">run</th><th scope=\"col\">before</th><th scope=\"col\">after</th></tr></thead><tbody>",
        format::pct(r.rms_before),
        format::pct(r.rms_after)
    ));
    for (i, run) in r.runs.iter().enumerate() {
        h.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{:+.1} %</td><td>{:+.1} %</td></tr>",
            i + 1,
            run.before * 100.0,
            run.after * 100.0
        ));
    }
    h.push_str("</tbody></table><ul class=\"warnings\" data-testid=\"calibrate-warnings\">");
    for w in &r.warnings {
        h.push_str(&format!("<li>{}</li>", esc(w)));
    }
    h.push_str("</ul></div>");
    h
}

/// The panel's calibration section.
pub fn section(page: Page) -> impl IntoView {
    let controls = page.controls;
    let text = RwSignal::new(String::new());
    let free = RwSignal::new(state::FREE_BY_DEFAULT.to_vec());
    let result: RwSignal<Option<Result<FitReport, String>>> = RwSignal::new(None);
    let run_fit = move |_| {
        let t0 = now_ms();
        let outcome = state::fit_csv(&text.get_untracked(), &free.get_untracked());
        publish("data-fit-ms", &format!("{:.3}", now_ms() - t0));
        if let Ok(r) = &outcome {
            let cal = r.calibration;
            controls.update(|c| {
                c.calibration = cal;
                c.calibrated = true;
            });
        }
        result.set(Some(outcome));
    };
    let boxes = CONSTANTS
        .iter()
        .map(|&c| {
            view! {
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid=format!("calibrate-free-{}", c.short())
                        prop:checked=move || free.with(|f| f.contains(&c))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            free.update(|f| {
                                f.retain(|x| *x != c);
                                if on {
                                    f.push(c);
                                }
                            });
                        }
                    />
                    {label(c)}
                </label>
            }
        })
        .collect_view();
    view! {
        <details class="overrides" data-testid="calibrate">
            <summary>"Calibrate to your cluster"</summary>
            <p class="hint">"Paste measured runs as CSV (one per line, under a header: gpu, nodes, model, seq, global_batch, micro_batch, tp, pp, metric (tokens_per_gpu, step_time or mfu), value; optional dp, stack and the rest of a scenario's layout). docs/calibrate.md has the format."</p>
            <textarea
                rows="6"
                aria-label="Measured runs, CSV"
                data-testid="calibrate-csv"
                placeholder="gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,metric,value"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <label class="file-button">
                "Open a CSV…"
                <input
                    type="file"
                    accept=".csv,text/csv,text/plain"
                    data-testid="calibrate-file"
                    on:change=move |ev| {
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        if let Some(file) = input.files().and_then(|f| f.get(0)) {
                            dom::read_text(file, move |_, r| match r {
                                Ok(t) => text.set(t),
                                Err(e) => result.set(Some(Err(e))),
                            });
                        }
                        input.set_value("");
                    }
                />
            </label>
            <fieldset class="free"><legend>"Fit"</legend>{boxes}</fieldset>
            <button type="button" data-testid="calibrate-fit" on:click=run_fit>"Fit to these runs"</button>
            {move || result.with(|r| match r {
                None => None,
                Some(Err(e)) => Some(view! {
                    <p class="message" role="alert" data-testid="calibrate-error">{format!("{e}. The calibration was not changed.")}</p>
                }.into_any()),
                Some(Ok(r)) => Some(view! { <div inner_html=report_html(r)></div> }.into_any()),
            })}
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="calibrate-on"
                    prop:disabled=move || controls.with(|c| c.calibration.is_empty())
                    prop:checked=move || controls.with(|c| c.calibrated)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        controls.update(|c| c.calibrated = on && !c.calibration.is_empty());
                    }
                />
                "Draw every chart with the calibration"
            </label>
        </details>
    }
}

/// Above the charts while they are drawn with a calibration: what it is,
/// and a button to turn it off.
pub fn banner(page: Page) -> impl IntoView {
    let controls = page.controls;
    view! {
        <Show when=move || controls.with(|c| c.calibrated)>
            <div class="notice calibrated" role="status" data-testid="calibrated-banner">
                <strong>"Calibrated: "</strong>
                {move || format!("every chart is drawn with constants fitted to your runs ({}).", controls.with(|c| summary(&c.calibration)))}
                " "
                <button type="button" class="reset" data-testid="calibrated-off" on:click=move |_| controls.update(|c| c.calibrated = false)>
                    "Turn off"
                </button>
            </div>
        </Show>
    }
}
