//! The planner's chart: days to train against what it costs, one point per
//! cluster size of the sweep, with the cheapest, the fastest and the knee
//! marked.

use super::lines::{legend_at, log10_label};
use super::{empty_message, layout_label, palette, Hit, FONT};
use crate::format;
use crate::state::{PlanSize, Views};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use scalescope_core::plan::Cost;
use scalescope_core::scenario::Layout;

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Days as people say them: `18.7 days`, `5.2 hours`.
#[must_use]
pub fn days(d: f64) -> String {
    if !d.is_finite() {
        String::from("–")
    } else if d >= 1.0 {
        format!("{} days", format::sig3(d))
    } else {
        format!("{} hours", format::sig3(d * 24.0))
    }
}

/// US dollars with an SI prefix: `$13.4 k`.
#[must_use]
pub fn dollars(v: f64) -> String {
    format!("${}", format::si(v, ""))
}

/// Everything a size costs, one fact per line.
#[must_use]
pub fn cost_text(gpus: u32, c: &Cost, layout: &Layout) -> String {
    format!(
        "{}: {} to train\n{} GPU-hours · {}\n{} MWh · {} t CO2e\n{}",
        format::count(gpus, "GPUs"),
        days(c.days),
        format::si(c.gpu_hours, ""),
        dollars(c.cost_usd),
        format::sig3(c.energy_mwh),
        format::sig3(c.co2_tonnes),
        layout_label(layout)
    )
}

/// Chart 10: days to train against cost (both log10), one point per size.
pub(super) fn plan<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let view = match &v.plan {
        Ok(view) => view,
        Err(reason) => return message(root, &format!("The budget cannot be used: {reason}")),
    };
    let pts: Vec<(usize, &PlanSize, Layout, Cost)> = view
        .sizes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.cost.as_ref().ok().map(|(l, c)| (i, s, *l, *c)))
        .collect();
    if pts.is_empty() {
        let reason = view
            .sizes
            .iter()
            .find_map(|s| s.cost.as_ref().err().cloned())
            .unwrap_or_default();
        return message(
            root,
            &format!("No cluster size of this sweep can run: {reason}"),
        );
    }
    let l = |x: f64| x.max(1e-12).log10();
    let pinned = pinned_plans(v);
    let every = || {
        pts.iter()
            .map(|p| p.3)
            .chain(pinned.iter().flat_map(|p| p.2.iter().map(|c| c.1)))
    };
    let span = |f: fn(&Cost) -> f64| {
        let lo = every().map(|c| l(f(&c))).fold(f64::MAX, f64::min);
        let hi = every().map(|c| l(f(&c))).fold(f64::MIN, f64::max);
        let pad = ((hi - lo) * 0.12).max(0.08);
        lo - pad..hi + pad
    };
    let (xr, yr) = (span(|c| c.days), span(|c| c.cost_usd));
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .build_cartesian_2d(xr.clone(), yr.clone())?;
    chart
        .configure_mesh()
        .x_desc("days to train (log scale)")
        .y_desc("cost, US dollars (log scale)")
        .x_label_formatter(&|x| log10_label(*x))
        .y_label_formatter(&|y| format!("${}", log10_label(*y)))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .max_light_lines(0)
        .draw()?;
    let at = |c: &Cost| (l(c.days), l(c.cost_usd));
    chart.draw_series(LineSeries::new(
        pts.iter().map(|p| at(&p.3)),
        palette::BLUE.stroke_width(2),
    ))?;
    let label = TextStyle::from((FONT, 11).into_font())
        .color(&palette::INK)
        .pos(Pos::new(HPos::Left, VPos::Bottom));
    let marks = view.marks;
    let mut hits = Vec::new();
    for (i, s, layout, c) in &pts {
        let p = at(c);
        chart.draw_series(core::iter::once(Circle::new(p, 4, palette::BLUE.filled())))?;
        let (x, y) = chart.backend_coord(&p);
        root.draw(&Text::new(
            format::count_tick(f64::from(s.gpus)),
            (x + 6, y - 4),
            label.clone(),
        ))?;
        let mut text = cost_text(s.gpus, c, layout);
        text.push_str(&mark_names(marks, *i));
        hits.push(Hit { x, y, text });
    }
    for (mark, colour, size) in [
        (marks.cheapest, palette::GREEN, 9),
        (marks.fastest, palette::VERMILLION, 12),
        (marks.knee, palette::ORANGE, 15),
    ] {
        if let Some(p) = mark.and_then(|i| pts.iter().find(|p| p.0 == i)) {
            chart.draw_series(core::iter::once(Circle::new(
                at(&p.3),
                size,
                colour.stroke_width(3),
            )))?;
        }
    }
    if let Some(p) = pts.iter().find(|p| p.1.nodes == v.controls.nodes) {
        let (x, y) = at(&p.3);
        let (dx, dy) = ((xr.end - xr.start) * 0.012, (yr.end - yr.start) * 0.02);
        let corners = [(x - dx, y - dy), (x + dx, y + dy)];
        chart.draw_series(core::iter::once(Rectangle::new(
            corners,
            palette::INK.stroke_width(2),
        )))?;
    }
    draw_pins(&mut chart, &pinned, &at, &mut hits)?;
    plan_legend(&chart, v, view.sizes.len() - pts.len())?;
    Ok(hits)
}

/// The marks size `i` carries, one per line, each after a line break.
fn mark_names(marks: scalescope_core::plan::Marks, i: usize) -> String {
    [
        (marks.cheapest, "cheapest"),
        (marks.fastest, "fastest"),
        (
            marks.knee,
            "knee: the next doubling buys less than the knee speed-up",
        ),
    ]
    .iter()
    .filter(|(m, _)| *m == Some(i))
    .map(|(_, name)| format!("\n{name}"))
    .collect()
}

/// A pin's index, name and (GPUs, cost) at each size that runs.
type PinPlan<'a> = (usize, &'a str, Vec<(u32, Cost)>);

/// Each pin's plan, where its budget can be used.
fn pinned_plans(v: &Views) -> Vec<PinPlan<'_>> {
    v.pins
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let view = p.views.plan.as_ref().ok()?;
            let costs = view
                .sizes
                .iter()
                .filter_map(|s| s.cost.as_ref().ok().map(|(_, c)| (s.gpus, *c)))
                .collect();
            Some((i, p.name.as_str(), costs))
        })
        .collect()
}

/// The legend: the sizes, the marks, the sizes that cannot run, the pins.
fn plan_legend<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &ChartContext<'_, DB, CT>,
    v: &Views,
    cannot: usize,
) -> Res<(), DB> {
    let note = format!("{} sizes cannot run (see Data)", cannot);
    let mut items = vec![
        ("cluster sizes (GPUs), current boxed", palette::BLUE, 2),
        ("cheapest", palette::GREEN, 3),
        ("fastest", palette::VERMILLION, 3),
        ("knee", palette::ORANGE, 3),
    ];
    if cannot > 0 {
        items.push((note.as_str(), palette::GREY, 1));
    }
    let pins = super::pins::pin_names(v);
    items.extend(pins.iter().map(|(n, c)| (n.as_str(), *c, 2)));
    legend_at(chart, &items, (true, true))
}

/// Each pin's plan as a dashed line, with hover text.
fn draw_pins<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    pinned: &[PinPlan<'_>],
    at: &dyn Fn(&Cost) -> (f64, f64),
    hits: &mut Vec<Hit>,
) -> Res<(), DB> {
    for (i, name, costs) in pinned {
        let colour = super::pins::pin_colour(*i);
        chart.draw_series(DashedLineSeries::new(
            costs.iter().map(|c| at(&c.1)),
            8,
            5,
            colour.stroke_width(2),
        ))?;
        for (gpus, c) in costs {
            let p = at(c);
            chart.draw_series(core::iter::once(Circle::new(p, 3, colour.filled())))?;
            let (x, y) = chart.backend_coord(&p);
            hits.push(Hit {
                x,
                y,
                text: format!(
                    "pinned: {name}\n{}: {} to train, {}",
                    format::count(*gpus, "GPUs"),
                    days(c.days),
                    dollars(c.cost_usd)
                ),
            });
        }
    }
    Ok(())
}

/// The chart's frame with a message inside, so that it is never blank.
fn message<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, text: &str) -> Res<Vec<Hit>, DB> {
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("days to train (log scale)")
        .y_desc("cost, US dollars (log scale)")
        .x_labels(0)
        .y_labels(0)
        .disable_mesh()
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    empty_message(root, text)?;
    let (w, h) = root.dim_in_pixel();
    Ok(vec![Hit {
        x: i32::try_from(w / 2).unwrap_or(0),
        y: i32::try_from(h / 2).unwrap_or(0),
        text: text.to_owned(),
    }])
}
