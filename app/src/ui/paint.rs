//! Painting the chart cards: which canvases are on screen, their measured
//! sizes, the latest views, and the one repaint that follows every input.
//! Charts off screen are marked stale and painted as they scroll in (or
//! before an export), so a slider move costs only what is visible.

use super::page::Page;
use crate::charts::{self, Chart, Hit};
use crate::state::{self, Views};
use leptos::html::Canvas;
use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::JsCast;
use plotters::prelude::IntoDrawingArea;

/// Height of every chart canvas, CSS pixels. Embedded charts share their
/// frame's height instead, as the stylesheet lays them out.
pub const CHART_HEIGHT: u32 = 380;

/// How many charts the page has.
const CHARTS: usize = Chart::ALL.len();

/// How long the controls rest before the charts off screen are described:
/// longer than the gap between a dragged slider's inputs, short beside
/// the time a screen reader takes to reach another chart.
const DESCRIBE_AFTER: std::time::Duration = std::time::Duration::from_millis(150);

/// What the chart cards share: canvases, sizes, hover targets and the
/// latest views. Every field is a signal or a stored value, so this is `Copy`.
#[derive(Clone, Copy)]
pub struct Painter {
    /// One canvas per chart, in [`Chart::ALL`] order.
    pub canvases: [NodeRef<Canvas>; CHARTS],
    /// The charts this page shows (all, or an embed's few).
    pub shown: StoredValue<Vec<Chart>>,
    /// Embed mode's chart list, if the page is embedded.
    pub embed: StoredValue<Option<Vec<Chart>>>,
    /// Repaints so far.
    pub draws: StoredValue<u32>,
    /// Each chart's hover targets.
    pub hits: StoredValue<Vec<Vec<Hit>>>,
    /// The tooltip shown: chart index, x, y and text.
    pub tooltip: RwSignal<Option<(usize, i32, i32, String)>>,
    /// Each canvas's CSS width at the last measurement.
    pub widths: StoredValue<Vec<u32>>,
    /// The resize generation the widths were measured at.
    measured: StoredValue<Option<u32>>,
    /// Canvas height, CSS pixels.
    pub height: StoredValue<u32>,
    /// Which charts are on screen (or about to scroll in).
    visible: StoredValue<Vec<bool>>,
    /// Which charts were skipped while off screen.
    stale: StoredValue<Vec<bool>>,
    /// The views of the last repaint.
    pub latest: StoredValue<Option<Views>>,
    /// Each chart in words, for screen readers and the Data table's caption.
    pub summaries: RwSignal<Vec<String>>,
    /// The part of the step the timeline shows (seconds), if zoomed.
    pub zoom: RwSignal<Option<(f64, f64)>>,
    /// Where a drag on the timeline started (CSS pixels).
    pub drag: StoredValue<Option<i32>>,
}

impl Painter {
    /// A painter for `embed`'s charts, or every chart.
    pub fn new(embed: Option<Vec<Chart>>) -> Painter {
        let shown = embed.clone().unwrap_or_else(|| Chart::ALL.to_vec());
        Painter {
            canvases: [(); CHARTS].map(|()| NodeRef::new()),
            shown: StoredValue::new(shown),
            embed: StoredValue::new(embed),
            draws: StoredValue::new(0),
            hits: StoredValue::new(vec![Vec::new(); CHARTS]),
            tooltip: RwSignal::new(None),
            widths: StoredValue::new(Vec::new()),
            measured: StoredValue::new(None),
            height: StoredValue::new(CHART_HEIGHT),
            visible: StoredValue::new(vec![true; CHARTS]),
            stale: StoredValue::new(vec![false; CHARTS]),
            latest: StoredValue::new(None),
            summaries: RwSignal::new(vec![String::new(); CHARTS]),
            zoom: RwSignal::new(None),
            drag: StoredValue::new(None),
        }
    }

    /// Shows the part `zoom` of the step on the timeline (all of it with
    /// `None`), repainting only that chart.
    pub fn set_zoom(self, zoom: Option<(f64, f64)>) {
        self.zoom.set(zoom);
        self.latest.update_value(|v| {
            if let Some(v) = v {
                v.timeline_zoom = zoom;
            }
        });
        let i = Chart::Timeline.index();
        self.stale.update_value(|s| s[i] = true);
        let _ = self.fresh_canvas(i);
    }

    /// Whether the page is an embed.
    pub fn embedded(self) -> bool {
        self.embed.with_value(Option::is_some)
    }

    /// Paints chart `i` from the latest views if it was skipped while off
    /// screen (as it scrolls in, or before an export).
    pub fn paint_if_stale(self, i: usize, canvas: &web_sys::HtmlCanvasElement) {
        if !self
            .stale
            .with_value(|s| s.get(i).copied().unwrap_or(false))
        {
            return;
        }
        let size = (
            self.widths.with_value(|w| w.get(i).copied().unwrap_or(0)),
            self.height.get_value(),
        );
        let draws = self.draws.get_value();
        let found = self.latest.with_value(|v| {
            v.as_ref()
                .map(|v| paint(canvas, size, Chart::ALL[i], v, draws))
        });
        if let Some(found) = found {
            self.hits.update_value(|h| h[i] = found);
            self.stale.update_value(|s| s[i] = false);
            // The grid and the generations, left undescribed off screen.
            if self.undescribed(i) {
                self.describe_one(i);
            }
        }
    }

    /// Whether chart `i`'s text alternative was left empty at the last
    /// repaint ([`Painter::describe_on_screen`]).
    fn undescribed(self, i: usize) -> bool {
        self.summaries
            .with_untracked(|s| s.get(i).is_some_and(String::is_empty))
    }

    /// Describes chart `i` from the latest views, if it is shown.
    fn describe_one(self, i: usize) {
        let shown = self.shown.with_value(|s| s.contains(&Chart::ALL[i]));
        let text = self.latest.with_value(|v| {
            v.as_ref()
                .filter(|_| shown)
                .map(|v| charts::describe::describe(Chart::ALL[i], v))
        });
        if let Some(text) = text {
            self.summaries.update(|s| {
                if let Some(slot) = s.get_mut(i) {
                    *slot = text;
                }
            });
        }
    }

    /// Chart `i`'s canvas, painted now if it is stale, so an export shows
    /// the current setting.
    pub fn fresh_canvas(self, i: usize) -> Option<web_sys::HtmlCanvasElement> {
        let canvas = self.canvases.get(i)?.get_untracked()?;
        self.paint_if_stale(i, &canvas);
        Some(canvas)
    }

    /// Watches which charts are on screen (with a margin, so a chart is
    /// painted just before it scrolls in). A stale chart coming into view is
    /// painted from the latest views at once.
    pub fn observe(self) {
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) {
                return true;
            }
            let elements: Vec<_> = self
                .shown
                .get_value()
                .iter()
                .map(|c| self.canvases[c.index()].get())
                .collect();
            if elements.iter().any(Option::is_none) {
                return false;
            }
            let on_change =
                Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    for entry in entries.iter() {
                        let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
                        self.on_intersection(&entry);
                    }
                });
            let options = web_sys::IntersectionObserverInit::new();
            options.set_root_margin("300px 0px");
            let Ok(observer) = web_sys::IntersectionObserver::new_with_options(
                on_change.as_ref().unchecked_ref(),
                &options,
            ) else {
                // Without an observer every chart stays marked visible and
                // is painted on every input.
                return true;
            };
            // The observer lives as long as the page.
            on_change.forget();
            for el in elements.iter().flatten() {
                observer.observe(el);
            }
            true
        });
    }

    fn on_intersection(self, entry: &web_sys::IntersectionObserverEntry) {
        let target = entry.target();
        let Some(i) = target
            .get_attribute("data-chart-index")
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&i| i < CHARTS)
        else {
            return;
        };
        let on = entry.is_intersecting();
        self.visible.update_value(|v| v[i] = on);
        if on {
            self.paint_if_stale(i, &target.unchecked_into());
        }
    }

    /// Reads the card widths again after a resize (or while a card is not
    /// laid out yet): reading them after every input would force the
    /// browser to lay the page out again before drawing.
    fn measure(self, mounted: &[Option<web_sys::HtmlCanvasElement>], generation: u32) {
        let unmeasured = self.widths.with_value(|w| {
            self.shown
                .with_value(|s| s.iter().any(|ch| w.get(ch.index()).is_none_or(|&x| x == 0)))
        });
        // Embedded charts share the frame with the alert, which comes and
        // goes: they are measured on every repaint (only a few charts).
        let embedded = self.embedded();
        if self.measured.get_value() == Some(generation) && !unmeasured && !embedded {
            return;
        }
        let fresh: Vec<u32> = mounted
            .iter()
            .map(|c| {
                c.as_ref()
                    .map_or(0, |c| u32::try_from(c.client_width()).unwrap_or(0))
            })
            .collect();
        self.widths.set_value(fresh);
        self.measured.set_value(Some(generation));
        if embedded {
            let tallest = mounted
                .iter()
                .flatten()
                .map(|c| u32::try_from(c.client_height()).unwrap_or(0))
                .max()
                .unwrap_or(0);
            self.height.set_value(tallest.max(120));
        }
    }

    /// Paints the charts on screen from `views` and marks the others stale.
    /// Returns how many were painted.
    fn paint_all(
        self,
        mounted: &[Option<web_sys::HtmlCanvasElement>],
        views: &Views,
        draw: u32,
    ) -> u32 {
        let sizes = self.widths.get_value();
        let on_screen = self.visible.get_value();
        let height = self.height.get_value();
        let mut painted = 0;
        for (i, (canvas, width)) in mounted.iter().zip(sizes).enumerate() {
            let Some(canvas) = canvas else {
                continue;
            };
            if on_screen.get(i).copied().unwrap_or(true) {
                let found = paint(canvas, (width, height), Chart::ALL[i], views, draw);
                self.hits.update_value(|h| h[i] = found);
                self.stale.update_value(|s| s[i] = false);
                painted += 1;
            } else {
                self.hits.update_value(|h| h[i].clear());
                self.stale.update_value(|s| s[i] = true);
            }
        }
        painted
    }

    /// The text alternative of every shown chart but the grid and the
    /// generations off screen: those two search a layout for each of their
    /// points ([`Views`] computes them when first read), so they wait for
    /// [`Painter::describe_later`] (or for scrolling in).
    fn describe_on_screen(self, views: &Views) -> Vec<String> {
        let on_screen = self.visible.get_value();
        self.shown.with_value(|shown| {
            Chart::ALL
                .iter()
                .map(|&ch| {
                    let later = matches!(ch, Chart::Grid | Chart::Generations)
                        && !on_screen.get(ch.index()).copied().unwrap_or(true);
                    if shown.contains(&ch) && !later {
                        charts::describe::describe(ch, views)
                    } else {
                        String::new()
                    }
                })
                .collect()
        })
    }

    /// Describes the charts [`Painter::describe_on_screen`] left, one per
    /// task from chart `from` on, once the controls have rested for
    /// [`DESCRIBE_AFTER`]: no search runs for them while a slider moves,
    /// and a newer repaint (`draw` is not the latest) stops them.
    fn describe_later(self, draw: u32, from: usize, delay: std::time::Duration) {
        set_timeout(
            move || {
                if self.draws.get_value() != draw {
                    return;
                }
                let Some(i) = (from..CHARTS).find(|&i| self.undescribed(i)) else {
                    return;
                };
                self.describe_one(i);
                self.describe_later(draw, i + 1, std::time::Duration::ZERO);
            },
            delay,
        );
    }

    /// The effect that follows every input: recompute the views, repaint
    /// what is on screen, update the readout, the text alternatives and the
    /// URL, and publish the timings for the budget script.
    pub fn repaint_on_input(self, page: Page) {
        let url_pending = StoredValue::new(false);
        Effect::new(move |_| {
            let c = page.controls.get();
            page.resized.track();
            let mounted: Vec<_> = self.canvases.iter().map(NodeRef::get).collect();
            let missing = self
                .shown
                .with_value(|s| s.iter().any(|ch| mounted[ch.index()].is_none()));
            if missing {
                return;
            }
            let n = self.draws.get_value() + 1;
            self.schedule_url_write(page, url_pending);
            let t0 = now_ms();
            // A new setting shows its whole step.
            self.zoom.set(None);
            let views = state::compute(&c);
            // Describing the charts on screen computes what they read.
            let summaries = self.describe_on_screen(&views);
            let t1 = now_ms();
            self.measure(&mounted, page.resized.get_untracked());
            let painted = self.paint_all(&mounted, &views, n);
            publish("data-last-painted", &painted.to_string());
            self.tooltip.set(None);
            if views.current.is_ok() {
                page.last_good.set(Some((views.current.clone(), c.clone())));
            }
            page.readout.set(Some((views.current.clone(), c)));
            self.summaries.set(summaries);
            self.latest.set_value(Some(views));
            self.draws.set_value(n);
            publish_timings(page, n, t0, t1);
            self.describe_later(n, 0, DESCRIBE_AFTER);
        });
    }

    /// Keeps the URL in step with the controls, so a copied link reproduces
    /// this view. At most one write per 250 ms: browsers throttle (and warn
    /// about) rapid history updates while dragging.
    fn schedule_url_write(self, page: Page, pending: StoredValue<bool>) {
        if pending.get_value() {
            return;
        }
        pending.set_value(true);
        set_timeout(
            move || {
                pending.set_value(false);
                self.embed
                    .with_value(|e| write_url(&page.controls.get_untracked(), e.as_deref()));
            },
            std::time::Duration::from_millis(250),
        );
    }
}

/// Publishes the repaint's timings on `<body>` for the budget script; after
/// the first paint, registers the offline copy.
fn publish_timings(page: Page, draw: u32, t0: f64, t1: f64) {
    let end = now_ms();
    publish("data-last-compute-ms", &format!("{:.3}", t1 - t0));
    publish("data-last-paint-ms", &format!("{:.3}", end - t1));
    publish("data-draws", &draw.to_string());
    if draw == 1 {
        publish("data-first-draw-ms", &format!("{end:.1}"));
        // The offline copy is made once the page has shown, so it never
        // competes with the first load.
        set_timeout(
            super::dom::register_service_worker,
            std::time::Duration::from_millis(500),
        );
    } else {
        publish(
            "data-last-input-to-draw-ms",
            &format!("{:.3}", end - page.last_input.get_value()),
        );
    }
}

pub(super) fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Publishes a timing on `<body data-...>` for the budget script.
pub(super) fn publish(name: &str, value: &str) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute(name, value);
    }
}

/// Draws one chart on its canvas at `width` CSS pixels and returns its
/// hover targets (empty if the canvas is not laid out).
fn paint(
    canvas: &web_sys::HtmlCanvasElement,
    (width, height): (u32, u32),
    chart: Chart,
    views: &Views,
    draw: u32,
) -> Vec<Hit> {
    // Which repaint this canvas shows (tests wait for it after scrolling).
    let _ = canvas.set_attribute("data-painted", &draw.to_string());
    if width == 0 {
        return Vec::new();
    }
    // As many canvas pixels as the screen has device pixels, so charts are
    // sharp (and PNG downloads full resolution) on high-density screens.
    let scale = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let device = |css: u32| (f64::from(css) * scale).round() as u32;
    if canvas.width() != device(width) {
        canvas.set_width(device(width));
    }
    if canvas.height() != device(height) {
        canvas.set_height(device(height));
    }
    let Some(backend) = charts::canvas::FastCanvas::scaled(canvas, (width, height), scale) else {
        return Vec::new();
    };
    charts::draw(chart, &backend.into_drawing_area(), views).unwrap_or_default()
}

/// Replaces the page's URL with one that encodes `c` (no new history
/// entry), keeping embed mode's chart list.
fn write_url(c: &state::Controls, embed: Option<&[Chart]>) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let mut query = crate::url::to_query(c);
    if let Some(charts) = embed {
        if !query.is_empty() {
            query.push('&');
        }
        query.push_str(&crate::url::embed_param(charts));
    }
    let path = w.location().pathname().unwrap_or_default();
    let hash = w.location().hash().unwrap_or_default();
    let target = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
    };
    if let Ok(history) = w.history() {
        let _ =
            history.replace_state_with_url(&leptos::wasm_bindgen::JsValue::NULL, "", Some(&target));
    }
}
