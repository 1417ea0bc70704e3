//! Pinned settings beside the live one: their colours, dashed lines on
//! the line charts, bars in each group of the bar charts, and a small
//! table under the grid and the timeline.

use super::bars::{stacked, Segment};
use super::lines::valid;
use super::{palette, point_text, Chart, Hit, FONT};
use crate::format;
use crate::state::Views;
use plotters::coord::Shift;
use plotters::prelude::*;
use scalescope_core::evaluate::Report;

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Pin colours, in pin order.
pub(super) const PIN_COLOURS: [RGBColor; 4] = [
    palette::PURPLE,
    palette::SKY,
    palette::ORANGE,
    palette::GREEN,
];

/// The colour of pin `i`.
pub(super) fn pin_colour(i: usize) -> RGBColor {
    PIN_COLOURS[i % PIN_COLOURS.len()]
}

/// Each pinned setting's sweep as a dashed line of `y`, with hover text.
pub(super) fn pin_lines<
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    v: &Views,
    y: impl Fn(&Report) -> f64,
) -> Res<Vec<Hit>, DB> {
    let mut hits = Vec::new();
    for (i, pin) in v.pins.iter().enumerate() {
        let colour = pin_colour(i);
        let pts = valid(&pin.views.points);
        chart.draw_series(DashedLineSeries::new(
            pts.iter().map(|p| (p.0, y(&p.3))),
            8,
            5,
            colour.stroke_width(2),
        ))?;
        for (gx, gp, l, r) in &pts {
            let at = (*gx, y(r));
            chart.draw_series(core::iter::once(Circle::new(at, 3, colour.filled())))?;
            let (x, yy) = chart.backend_coord(&at);
            hits.push(Hit {
                x,
                y: yy,
                text: format!("pinned: {}\n{}", pin.name, point_text(*gp, r, l)),
            });
        }
    }
    Ok(hits)
}

/// The legend's entries for the pins.
pub(super) fn pin_names(v: &Views) -> Vec<(String, RGBColor)> {
    v.pins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // A pin none of whose points runs draws nothing: say so.
            let name = if p.views.points.iter().all(|q| q.outcome.is_err()) {
                format!("pinned: {} (cannot run)", p.name)
            } else {
                format!("pinned: {} (dashed)", p.name)
            };
            (name, pin_colour(i))
        })
        .collect()
}

/// `items` and then the pins, as the legend takes them.
pub(super) fn with_pins<'a>(
    items: &[(&'a str, RGBColor, u32)],
    pins: &'a [(String, RGBColor)],
) -> Vec<(&'a str, RGBColor, u32)> {
    items
        .iter()
        .copied()
        .chain(pins.iter().map(|(n, c)| (n.as_str(), *c, 2)))
        .collect()
}

/// Every valid value of `f` over the live sweep and the pins'.
pub(super) fn all_values<'a>(
    v: &'a Views,
    f: impl Fn(&Report) -> f64 + 'a,
) -> impl Iterator<Item = f64> + 'a {
    core::iter::once(&v.points)
        .chain(v.pins.iter().map(|p| &p.views.points))
        .flat_map(|points| valid(points))
        .map(move |p| f(&p.3))
}

/// Width of a pinned setting's bar in a group.
const PIN_SLOT: f64 = 0.14;

/// Where a live bar's offset `a` (in -0.45 to 0.45 of its category) goes
/// when `pins` pinned settings share the group: the live bars narrow to
/// the left, each pin gets a slot on the right.
pub(super) fn live(x: f64, a: f64, pins: usize) -> f64 {
    let width = 0.9 - PIN_SLOT * pins as f64;
    x - 0.45 + (a + 0.45) * width / 0.9
}

/// Pin `i`'s slot in the group of category `x`, of `pins` pins.
pub(super) fn pin_slot(x: f64, i: usize, pins: usize) -> (f64, f64) {
    let right = x + 0.45 - PIN_SLOT * (pins - i - 1) as f64;
    (right - PIN_SLOT + 0.01, right - 0.01)
}

/// A pinned setting's bar: stacked `segments` (scaled) in its slot, outlined
/// in its colour, with hover text.
#[allow(clippy::too_many_arguments)]
pub(super) fn pin_bar<
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    (x, i, pins): (f64, usize, usize),
    segments: &[Segment],
    scale: f64,
    name: &str,
    text: String,
    hits: &mut Vec<Hit>,
) -> Res<(), DB> {
    let (x0, x1) = pin_slot(x, i, pins);
    stacked(chart, x0, x1, segments, scale, 0.75)?;
    let top: f64 = segments.iter().map(|s| s.2 * scale).sum();
    chart.draw_series(core::iter::once(Rectangle::new(
        [(x0, 0.0), (x1, top)],
        pin_colour(i).stroke_width(2),
    )))?;
    let (px, py) = chart.backend_coord(&((x0 + x1) / 2.0, top / 2.0));
    hits.push(Hit {
        x: px,
        y: py,
        text: format!("pinned: {name}\n{text}"),
    });
    Ok(())
}

/// The legend's entries for the pins.
pub(super) fn pin_legend(v: &Views) -> Vec<(String, RGBColor, f64)> {
    pin_names(v)
        .into_iter()
        .map(|(n, c)| (n.replace(" (dashed)", " (outlined bars)"), c, 1.0))
        .collect()
}

/// What the grid and the timeline say of each pinned setting: the best
/// cell of its grid, or its step against this one.
pub(super) fn table_lines(chart: Chart, v: &Views) -> Vec<(String, RGBColor)> {
    let live = v.current.as_ref().ok().map(|(_, r)| r.step_time_s);
    v.pins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let text = if chart == Chart::Grid {
                let best = p.views.grid().cells.iter().filter_map(|c| match c {
                    crate::state::Cell::Ok(l, r) => Some((l, r)),
                    _ => None,
                });
                best.max_by(|a, b| a.1.tokens_per_s.total_cmp(&b.1.tokens_per_s))
                    .map_or_else(
                        || String::from("no layout fits"),
                        |(l, r)| {
                            format!(
                                "best TP {} x PP {}, {} per GPU",
                                l.parallel.tp,
                                l.parallel.pp,
                                format::si(r.tokens_per_s_per_gpu, "tokens/s")
                            )
                        },
                    )
            } else {
                match (&p.views.current, live) {
                    (Ok((_, r)), Some(s)) => format!(
                        "step {} ({} of this one)",
                        format::duration(r.step_time_s),
                        format::pct(r.step_time_s / s.max(1e-12))
                    ),
                    (Ok((_, r)), None) => format!("step {}", format::duration(r.step_time_s)),
                    (Err(e), _) => format!("cannot run: {e}"),
                }
            };
            (format!("pinned: {}: {text}", p.name), pin_colour(i))
        })
        .collect()
}

/// A small table of `lines` at the foot of the chart, each in its pin's
/// colour, with hover targets.
pub(super) fn pin_table<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[(String, RGBColor)],
) -> Result<Vec<Hit>, DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (i32::try_from(w).unwrap_or(0), i32::try_from(h).unwrap_or(0));
    let n = i32::try_from(lines.len()).unwrap_or(0);
    let top = h - 18 * n - 14;
    let corners = [(8, top - 4), (w - 8, h - 6)];
    root.draw(&Rectangle::new(corners, WHITE.mix(0.9).filled()))?;
    root.draw(&Rectangle::new(corners, palette::GREY))?;
    let mut hits = Vec::new();
    for (k, (text, colour)) in lines.iter().enumerate() {
        let y = top + 18 * i32::try_from(k).unwrap_or(0) + 4;
        let shown: String = text.chars().take((w as usize / 7).max(20)).collect();
        root.draw(&Text::new(
            shown,
            (16, y),
            TextStyle::from((FONT, 12).into_font()).color(colour),
        ))?;
        hits.push(Hit {
            x: w / 2,
            y: y + 6,
            text: text.clone(),
        });
    }
    Ok(hits)
}
