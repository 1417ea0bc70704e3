//! Chart 9: the current step as a Gantt chart, one row per stream of the
//! first and last pipeline stage, in the breakdown chart's colours. Red
//! ticks under a row mark communication with no compute beside it; the
//! pipeline's bubble is shaded across the stage.

use super::{empty_message, palette, Hit, FONT};
use crate::format;
use crate::state::Views;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use scalescope_core::timeline::{Interval, Kind, StageTimeline, Stream, Timeline};

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Pixels left of the plot (the row names), and around it: the drag to
/// zoom maps pointer x to time with these.
pub const LEFT: i32 = 150;
/// Pixels right of the plot.
pub const RIGHT: i32 = 12;
/// Pixels above the plot with a legend of one row; each further row of
/// the legend adds [`LEGEND_ROW`].
const TOP: i32 = 26;
/// Height of one row of the legend.
const LEGEND_ROW: i32 = 16;
/// Pixels below the plot (the time axis).
const BOTTOM: i32 = 40;
/// Hover targets along a long interval, at most this far apart.
const HIT_SPACING: i32 = 36;

/// The colour of an interval, as the breakdown chart colours its kind.
#[must_use]
pub fn colour(kind: Kind) -> RGBColor {
    match kind {
        Kind::Forward | Kind::Head | Kind::Optimizer => palette::BLUE,
        // A zero-bubble schedule's weight gradients are backward work too;
        // the hover names them apart.
        Kind::Backward | Kind::WeightGradient => RGBColor(0, 80, 130),
        Kind::Contention => palette::SKY,
        Kind::Host => palette::GREY,
        Kind::Wait => palette::YELLOW,
        Kind::TensorCollective => palette::PURPLE,
        Kind::ContextExchange => palette::GREEN,
        Kind::AllGather | Kind::ReduceScatter | Kind::AllReduce => palette::VERMILLION,
        Kind::Receive => palette::ORANGE,
        Kind::AllToAll => palette::INK,
    }
}

/// The rows drawn: each stage's compute row and every stream it uses.
fn rows(t: &Timeline) -> Vec<(usize, Stream)> {
    let mut out = Vec::new();
    for (k, st) in t.stages.iter().enumerate() {
        for s in Stream::ALL {
            if s == Stream::Compute || st.intervals.iter().any(|i| i.stream == s) {
                out.push((k, s));
            }
        }
    }
    out
}

/// The part of the step shown, seconds.
fn window(v: &Views, t: &Timeline) -> (f64, f64) {
    match v.timeline_zoom {
        Some((a, b)) if b > a && a.is_finite() && b.is_finite() => {
            (a.max(0.0), b.min(t.step_s).max(a.max(0.0) + 1e-9))
        }
        _ => (0.0, t.step_s.max(1e-9)),
    }
}

/// Hover text of an interval on stage `st`.
#[must_use]
pub fn interval_text(st: &StageTimeline, i: &Interval) -> String {
    let mut text = format!(
        "{} · stage {} · {}\n{}",
        i.kind.name(),
        st.stage,
        i.stream.name(),
        format::duration(i.duration())
    );
    match i.micro_batches {
        Some((a, b)) if a == b => text.push_str(&format!(" · micro-batch {}", a + 1)),
        Some((a, b)) => text.push_str(&format!(" · micro-batches {} to {}", a + 1, b + 1)),
        None => {}
    }
    if let Some((a, b)) = i.layers {
        if a == b {
            text.push_str(&format!(" · layer {a}"));
        } else {
            text.push_str(&format!(" · layers {a} to {b}"));
        }
    }
    if let Some(w) = i.waits_for {
        text.push_str(&format!(
            "\nwaits for the {} of micro-batch {} on stage {}",
            if w.backward { "backward" } else { "forward" },
            w.micro_batch + 1,
            w.stage
        ));
    } else if !i.kind.is_compute() && i.stream != Stream::Compute {
        // The exposed spans are in order: only those from the first that
        // ends after this interval starts can overlap it.
        let from = st.exposed.partition_point(|&(_, b)| b <= i.start_s);
        let shown: f64 = st.exposed[from..]
            .iter()
            .take_while(|&&(a, _)| a < i.end_s)
            .map(|&(a, b)| (b.min(i.end_s) - a.max(i.start_s)).max(0.0))
            .sum();
        let hidden = (i.duration() - shown).max(0.0);
        text.push_str(&format!(
            "\nhidden behind compute: {} · exposed: {}",
            format::duration(hidden),
            format::duration(shown)
        ));
    }
    text
}

pub(super) fn timeline<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let t = match &v.timeline {
        Ok(t) => t,
        Err(why) => {
            // The frame the rows would fill, with the reason in it.
            let (w, h) = root.dim_in_pixel();
            let (w, h) = (i32::try_from(w).unwrap_or(0), i32::try_from(h).unwrap_or(0));
            root.draw(&Rectangle::new(
                [(LEFT, top_of(root, w)), (w - RIGHT, h - BOTTOM)],
                palette::GREY.mix(0.6).stroke_width(1),
            ))?;
            let top = legend(root, u32::try_from(w).unwrap_or(0))?;
            let inner = root.margin(top, BOTTOM, LEFT, RIGHT);
            empty_message(
                &inner,
                &format!("No step to lay out: this setting cannot run. {why}"),
            )?;
            return Ok(Vec::new());
        }
    };
    let rows = rows(t);
    let (t0, t1) = window(v, t);
    let n = rows.len().max(1) as f64;
    let (w, _) = root.dim_in_pixel();
    let top = legend(root, w)?;
    let mut chart = ChartBuilder::on(root)
        .margin_left(10)
        .margin_right(RIGHT)
        .margin_top(top)
        .x_label_area_size(BOTTOM)
        .y_label_area_size(LEFT - 10)
        .build_cartesian_2d(t0 * 1e3..t1 * 1e3, n..0.0)?;
    let label = |y: &f64| -> String {
        let k = y.floor();
        if (y - k - 0.5).abs() > 0.01 || k < 0.0 {
            return String::new();
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        rows.get(k as usize)
            .map(|&(s, stream)| format!("stage {} · {}", t.stages[s].stage, stream.name()))
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows.len() * 2 + 1)
        .y_label_formatter(&label)
        .x_labels(8)
        .x_label_formatter(&|ms: &f64| format::trimmed(*ms, 3))
        .x_desc("time in the step, ms")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(RGBColor(235, 237, 240))
        .draw()?;
    let mut hits = Vec::new();
    for (row, &(s, stream)) in rows.iter().enumerate() {
        let st = &t.stages[s];
        let y = row as f64;
        for i in st.intervals.iter().filter(|i| i.stream == stream) {
            if i.end_s < t0 || i.start_s > t1 {
                continue;
            }
            let (a, b) = (i.start_s.max(t0) * 1e3, i.end_s.min(t1) * 1e3);
            let (top, bottom, alpha) = if i.kind == Kind::Wait {
                (y + 0.05, y + 0.95, 0.35)
            } else {
                (y + 0.18, y + 0.82, 1.0)
            };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(a, top), (b, bottom)],
                colour(i.kind).mix(alpha).filled(),
            )))?;
            let (pa, pb) = (
                chart.backend_coord(&(a, y + 0.5)),
                chart.backend_coord(&(b, y + 0.5)),
            );
            let text = interval_text(st, i);
            let mut x = pa.0 + (pb.0 - pa.0).min(HIT_SPACING) / 2;
            loop {
                hits.push(Hit {
                    x,
                    y: pa.1,
                    text: text.clone(),
                });
                x += HIT_SPACING;
                if x > pb.0 {
                    break;
                }
            }
        }
        if stream != Stream::Compute {
            continue;
        }
        // Communication with no compute beside it, under the compute row.
        for &(a, b) in st.exposed.iter().filter(|(a, b)| *b >= t0 && *a <= t1) {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(a.max(t0) * 1e3, y + 0.86), (b.min(t1) * 1e3, y + 1.0)],
                RGBColor(200, 30, 30).filled(),
            )))?;
        }
    }
    Ok(hits)
}

/// The colours, in one line above the plot.
/// The legend's entries, left to right.
const LEGEND: [(&str, RGBColor); 9] = [
    ("forward", palette::BLUE),
    ("backward", RGBColor(0, 80, 130)),
    ("tensor par.", palette::PURPLE),
    ("context par.", palette::GREEN),
    ("data par.", palette::VERMILLION),
    ("pipeline", palette::ORANGE),
    ("host", palette::GREY),
    ("bubble", palette::YELLOW),
    ("exposed", RGBColor(200, 30, 30)),
];

/// Where each legend entry goes in a chart `width` pixels wide: entries
/// flow left to right at their measured widths and wrap onto a new row
/// where the next would not fit.
fn legend_places<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    width: i32,
    style: &TextStyle,
) -> Vec<(i32, i32)> {
    let mut places = Vec::with_capacity(LEGEND.len());
    let (mut x, mut y) = (10, 8);
    for (name, _) in LEGEND {
        let text = root
            .estimate_text_size(name, style)
            .map_or(60, |(w, _)| i32::try_from(w).unwrap_or(60));
        let entry = 13 + text + 14;
        if x > 10 && x + entry > width - RIGHT {
            x = 10;
            y += LEGEND_ROW;
        }
        places.push((x, y));
        x += entry;
    }
    places
}

fn legend_style() -> TextStyle<'static> {
    TextStyle::from((FONT, 11).into_font())
        .color(&palette::INK)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

/// The space above the plot that the legend takes at width `w`.
fn top_of<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, w: i32) -> i32 {
    let places = legend_places(root, w, &legend_style());
    TOP + places.last().map_or(0, |&(_, y)| y - 8)
}

/// Draws the legend, wrapped to the chart's width; returns the space above
/// the plot it takes.
fn legend<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, width: u32) -> Res<i32, DB> {
    let style = legend_style();
    let width = i32::try_from(width).unwrap_or(600);
    let places = legend_places(root, width, &style);
    for (&(x, y), (name, c)) in places.iter().zip(LEGEND) {
        root.draw(&Rectangle::new([(x, y), (x + 10, y + 10)], c.filled()))?;
        root.draw(&Text::new(name, (x + 13, y + 5), style.clone()))?;
    }
    Ok(TOP + places.last().map_or(0, |&(_, y)| y - 8))
}
