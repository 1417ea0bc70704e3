//! The chart cards: a title, a caption, PNG/SVG/CSV downloads, the canvas
//! with its hover tooltip, the chart in words (for screen readers) and a
//! "Data" toggle that shows its numbers as a table.

use super::dom;
use super::page::Page;
use super::paint::{Painter, CHART_HEIGHT};
use crate::charts::{gantt, Chart};
use leptos::prelude::*;

/// How close (pixels) the pointer must be to a point to name it.
const HOVER_RADIUS: i32 = 24;

/// Every card this page shows.
pub fn cards(page: Page, painter: Painter) -> impl IntoView {
    let data_open: RwSignal<Vec<bool>> = RwSignal::new(vec![false; Chart::ALL.len()]);
    painter
        .shown
        .get_value()
        .into_iter()
        .map(|chart| card(page, painter, chart, data_open))
        .collect_view()
}

/// One chart's card.
fn card(
    page: Page,
    painter: Painter,
    chart: Chart,
    data_open: RwSignal<Vec<bool>>,
) -> impl IntoView {
    let i = chart.index();
    view! {
        <figure
            class="card"
            class:highlight=move || page.tour_at.get().is_some_and(|t| {
                let stop = crate::tour::STOPS[t];
                stop.chart == chart || (chart == Chart::Timeline && stop.timeline)
            })
            data-testid=format!("card-{}", chart.id())
        >
            <figcaption>
                <div class="card-head">
                    <h2>{chart.title()}</h2>
                    {(chart == Chart::Timeline).then(|| view! {
                        <button type="button" class="export" data-testid="timeline-reset"
                            title="Show the whole step"
                            disabled=move || painter.zoom.with(Option::is_none)
                            on:click=move |_| painter.set_zoom(None)
                        >"Whole step"</button>
                    })}
                    <div class="exports" role="group" aria-label=format!("Download {}", chart.title())>
                        {export_button(painter, chart, "png")}
                        {export_button(painter, chart, "svg")}
                        {export_button(painter, chart, "csv")}
                    </div>
                </div>
                <p>{chart.caption()}</p>
            </figcaption>
            {plot(painter, chart)}
            <p class="sr-only" id=format!("summary-{}", chart.id()) data-testid=format!("summary-{}", chart.id())>
                {move || painter.summaries.with(|s| s.get(i).cloned().unwrap_or_default())}
            </p>
            {data_table(painter, chart, data_open)}
        </figure>
    }
}

/// The canvas and its hover tooltip.
fn plot(painter: Painter, chart: Chart) -> impl IntoView {
    let i = chart.index();
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let (x, y) = (ev.offset_x(), ev.offset_y());
        let found = painter.hits.with_value(|all| {
            all.get(i).and_then(|hs| {
                hs.iter()
                    .map(|h| ((h.x - x).pow(2) + (h.y - y).pow(2), h))
                    .filter(|(d, _)| *d <= HOVER_RADIUS * HOVER_RADIUS)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, h)| h.clone())
            })
        });
        painter.tooltip.set(found.map(|h| (i, h.x, h.y, h.text)));
    };
    let tooltip =
        move || {
            painter.tooltip.get().filter(|t| t.0 == i).map(|(_, x, y, text)| {
            view! {
                <div
                    class="tooltip"
                    role="tooltip"
                    data-testid="tooltip"
                    style:left=format!("{}px", x + 12)
                    style:top=format!("{}px", y + 12)
                >
                    {text.lines().map(|l| view! { <div>{l.to_owned()}</div> }).collect_view()}
                </div>
            }
        })
        };
    view! {
        <div class="plot">
            <canvas
                data-testid=format!("chart-{}", chart.id())
                data-chart-index=i.to_string()
                role="img"
                aria-label=chart.title()
                aria-describedby=format!("summary-{}", chart.id())
                height=CHART_HEIGHT.to_string()
                node_ref=painter.canvases[i]
                on:mousemove=on_move
                on:mouseleave=move |_| painter.tooltip.set(None)
                on:mousedown=move |ev: leptos::ev::MouseEvent| {
                    if chart == Chart::Timeline {
                        painter.drag.set_value(Some(ev.offset_x()));
                    }
                }
                on:mouseup=move |ev: leptos::ev::MouseEvent| {
                    if chart == Chart::Timeline {
                        zoom_to(painter, ev.offset_x());
                    }
                }
            ></canvas>
            {tooltip}
        </div>
    }
}

/// Ends a drag on the timeline at `x` (CSS pixels): a drag wider than a
/// few pixels zooms to the part of the step it covered.
fn zoom_to(painter: Painter, x: i32) {
    let Some(start) = painter.drag.get_value() else {
        return;
    };
    painter.drag.set_value(None);
    if (x - start).abs() < 6 {
        return;
    }
    let i = Chart::Timeline.index();
    let width = painter
        .widths
        .with_value(|w| w.get(i).copied().unwrap_or(0));
    let span = painter.latest.with_value(|v| {
        v.as_ref().and_then(|v| {
            let t = v.timeline.as_ref().ok()?;
            Some(v.timeline_zoom.unwrap_or((0.0, t.step_s)))
        })
    });
    let Some((t0, t1)) = span else {
        return;
    };
    let plot = f64::from(i32::try_from(width).unwrap_or(0) - gantt::LEFT - gantt::RIGHT).max(1.0);
    let at = |px: i32| t0 + (f64::from(px - gantt::LEFT) / plot).clamp(0.0, 1.0) * (t1 - t0);
    let (a, b) = (at(start.min(x)), at(start.max(x)));
    if b > a {
        painter.set_zoom(Some((a, b)));
    }
}

/// The "Data" toggle: the chart's CSV as a table, built only while open.
fn data_table(painter: Painter, chart: Chart, data_open: RwSignal<Vec<bool>>) -> impl IntoView {
    let i = chart.index();
    let table = move || {
        if !data_open.with(|d| d[i]) {
            return String::new();
        }
        let caption = painter
            .summaries
            .with(|s| s.get(i).cloned().unwrap_or_default());
        painter
            .latest
            .with_value(|v| {
                v.as_ref()
                    .map(|v| crate::export::csv_table(&crate::export::csv(chart, v), &caption))
            })
            .unwrap_or_default()
    };
    view! {
        <details class="data" data-testid=format!("data-{}", chart.id()) on:toggle=move |ev| {
            let open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
            data_open.update(|d| d[i] = open);
        }>
            <summary>"Data"</summary>
            <div inner_html=table></div>
        </details>
    }
}

/// A download button: `kind` is `png`, `svg` or `csv`.
fn export_button(painter: Painter, chart: Chart, kind: &'static str) -> impl IntoView {
    let on_click = move |_| download(painter, chart, kind);
    // ASCII only: `str::to_uppercase` would bring Unicode's case tables
    // into the site for three fixed names.
    let label = kind.to_ascii_uppercase();
    let aria_label = format!("Download {} as {label}", chart.title());
    let title = format!("Download as {label}");
    view! {
        <button
            type="button"
            class="export"
            data-testid=format!("export-{}-{kind}", chart.id())
            aria-label=aria_label
            title=title
            on:click=on_click
        >{label}</button>
    }
}

/// Downloads `chart` as `kind`, from the current setting.
fn download(painter: Painter, chart: Chart, kind: &str) {
    let i = chart.index();
    let name = crate::export::file_name(chart, kind);
    match kind {
        "png" => {
            if let Some(canvas) = painter.fresh_canvas(i) {
                dom::download_png(&canvas, &name);
            }
        }
        "svg" => {
            let width = painter
                .widths
                .with_value(|w| w.get(i).copied().unwrap_or(0));
            let size = (
                if width == 0 { 800 } else { width },
                painter.height.get_value(),
            );
            let text = painter.canvases[i].get_untracked().and_then(|canvas| {
                painter.latest.with_value(|v| {
                    v.as_ref()
                        .and_then(|v| crate::export::svg(chart, v, &canvas, size))
                })
            });
            if let Some(text) = text {
                dom::download_text(&name, "image/svg+xml", &text);
            }
        }
        _ => {
            let text = painter
                .latest
                .with_value(|v| v.as_ref().map(|v| crate::export::csv(chart, v)));
            if let Some(text) = text {
                dom::download_text(&name, "text/csv", &text);
            }
        }
    }
}
