//! Line charts against GPU (or node) count: throughput, per-GPU throughput
//! and MFU, power and energy, collective bus bandwidth.

use super::pins::{all_values, pin_colour, pin_lines, pin_names, with_pins};
use super::{empty_message, palette, point_text, Hit, FONT};
use crate::format;
use crate::state::{Point, Views};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use scalescope_core::evaluate::Report;
use scalescope_core::scenario::Layout;

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Count axes are drawn linear in log2 of the count, labelled with the
/// count itself: powers of two land on round ticks, and plotters' log
/// coordinates (much slower to lay out) are not needed.
fn lx(count: f64) -> f64 {
    count.max(1.0).log2()
}

/// The tick label of a log2 axis value: the count, on whole powers only.
fn count_label(x: f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        format::count_tick(x.round().exp2())
    } else {
        String::new()
    }
}

/// The tick label of a log10 axis value: the value with an SI prefix.
pub(super) fn log10_label(y: f64) -> String {
    format::si(10f64.powf(y), "")
}

/// Valid sweep points as (log2 GPUs, GPUs, layout, report).
pub(super) fn valid(points: &[Point]) -> Vec<(f64, u32, Layout, Report)> {
    points
        .iter()
        .filter_map(|p| {
            p.outcome
                .as_ref()
                .ok()
                .map(|(l, r)| (lx(f64::from(p.gpus)), p.gpus, *l, *r))
        })
        .collect()
}

fn gpu_range(points: &[Point]) -> core::ops::Range<f64> {
    let lo = points.iter().map(|p| p.gpus).min().unwrap_or(1).max(1);
    let hi = points.iter().map(|p| p.gpus).max().unwrap_or(8).max(lo * 2);
    lx(f64::from(lo)) - 0.5..lx(f64::from(hi)) + 0.5
}

fn current_gpus(v: &Views) -> f64 {
    lx(f64::from(
        v.controls.nodes.saturating_mul(v.controls.gpus_per_node()),
    ))
}

/// Why each invalid point has no value, drawn as a grey cross near the x axis.
fn invalid_marks<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: &[Point],
    y: f64,
) -> Res<Vec<Hit>, DB> {
    let mut hits = Vec::new();
    for p in points {
        if let Err(reason) = &p.outcome {
            let at = (lx(f64::from(p.gpus)), y);
            chart.draw_series(core::iter::once(Cross::new(
                at,
                5,
                palette::GREY.stroke_width(2),
            )))?;
            let (x, yy) = chart.backend_coord(&at);
            hits.push(Hit {
                x,
                y: yy,
                text: format!("{}: no result\n{reason}", format::count(p.gpus, "GPUs")),
            });
        }
    }
    Ok(hits)
}

fn current_line<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x: f64,
    y0: f64,
    y1: f64,
) -> Res<(), DB> {
    chart.draw_series(core::iter::once(PathElement::new(
        vec![(x, y0), (x, y1)],
        palette::GREY.mix(0.6).stroke_width(1),
    )))?;
    Ok(())
}

/// A legend box in a corner of the plot: a line sample and a name per
/// series. Drawn here rather than by plotters' series labels, which
/// measure their text by adding elements to the page.
pub(super) fn legend<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &ChartContext<'_, DB, CT>,
    items: &[(&str, RGBColor, u32)],
    upper: bool,
) -> Res<(), DB> {
    legend_at(chart, items, (upper, false))
}

/// [`legend`] in a corner: upper or lower, right or left.
pub(super) fn legend_at<DB: DrawingBackend, CT: CoordTranslate>(
    chart: &ChartContext<'_, DB, CT>,
    items: &[(&str, RGBColor, u32)],
    (upper, right): (bool, bool),
) -> Res<(), DB> {
    let area = chart.plotting_area().strip_coord_spec();
    let (w, h) = area.dim_in_pixel();
    let style = TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut widest = 0;
    for (name, _, _) in items {
        widest = widest.max(area.estimate_text_size(name, &style)?.0);
    }
    let width = i32::try_from(widest).unwrap_or(200) + 40;
    let height = 18 * i32::try_from(items.len()).unwrap_or(1) + 6;
    let x0 = if right {
        (i32::try_from(w).unwrap_or(0) - width - 8).max(8)
    } else {
        8
    };
    let y0 = if upper {
        8
    } else {
        i32::try_from(h).unwrap_or(0) - height - 8
    };
    let corners = [(x0, y0), (x0 + width, y0 + height)];
    area.draw(&Rectangle::new(corners, WHITE.mix(0.85).filled()))?;
    area.draw(&Rectangle::new(corners, palette::GREY))?;
    for (i, (name, colour, stroke)) in items.iter().enumerate() {
        let y = y0 + 12 + 18 * i32::try_from(i).unwrap_or(0);
        area.draw(&PathElement::new(
            vec![(x0 + 6, y), (x0 + 26, y)],
            colour.stroke_width(*stroke),
        ))?;
        area.draw(&Text::new((*name).to_owned(), (x0 + 32, y), style.clone()))?;
    }
    Ok(())
}

/// Chart 1: global tokens/s against GPUs (log-log) with ideal linear scaling.
pub(super) fn throughput<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let pts = valid(&v.points);
    let xr = gpu_range(&v.points);
    let Some(&(_, g0, _, r0)) = pts.first() else {
        frame_only(root, &xr, "tokens/s (whole cluster)")?;
        return no_points(root, v);
    };
    // Ideal: every GPU at the best per-GPU rate of the sweep (the smallest
    // point is not always the best one, e.g. when memory forces a slower
    // layout there), so the model never sits above its ideal.
    let per_gpu0 = pts
        .iter()
        .map(|p| p.3.tokens_per_s_per_gpu)
        .fold(r0.tokens_per_s / f64::from(g0), f64::max);
    // The y axis is log10 tokens/s; ideal linear scaling at log2 GPUs `x`.
    let ly = |t: f64| t.max(1e-9).log10();
    let ideal = |x: f64| ly(per_gpu0 * x.exp2());
    let ymax = all_values(v, |r| ly(r.tokens_per_s)).fold(ideal(xr.end), f64::max);
    let ymin = all_values(v, |r| ly(r.tokens_per_s)).fold(f64::MAX, f64::min) - 0.3;
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .build_cartesian_2d(xr.clone(), ymin..ymax + 0.1)?;
    chart
        .configure_mesh()
        .x_desc("GPUs")
        .y_desc("tokens/s (whole cluster)")
        .x_label_formatter(&|x| count_label(*x))
        .y_label_formatter(&|y| log10_label(*y))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .max_light_lines(0)
        .draw()?;
    let g = current_gpus(v);
    current_line(&mut chart, g, ymin, ymax + 0.1)?;
    chart.draw_series(LineSeries::new(
        [xr.start, xr.end].map(|x| (x, ideal(x))),
        palette::GREY.stroke_width(2),
    ))?;
    chart.draw_series(LineSeries::new(
        pts.iter().map(|p| (p.0, ly(p.3.tokens_per_s))),
        palette::BLUE.stroke_width(3),
    ))?;
    let mut hits = Vec::new();
    for (gx, gp, l, r) in &pts {
        let at = (*gx, ly(r.tokens_per_s));
        chart.draw_series(core::iter::once(Circle::new(at, 4, palette::BLUE.filled())))?;
        let (x, y) = chart.backend_coord(&at);
        let mut text = point_text(*gp, r, l);
        text.push_str(&format!(
            "\n{} of ideal",
            format::pct(r.tokens_per_s / (per_gpu0 * f64::from(*gp)))
        ));
        hits.push(Hit { x, y, text });
    }
    current_ring(&mut chart, &pts, g, |r| ly(r.tokens_per_s))?;
    hits.extend(invalid_marks(&mut chart, &v.points, ymin + 0.05)?);
    hits.extend(pin_lines(&mut chart, v, |r| ly(r.tokens_per_s))?);
    let pins = pin_names(v);
    legend(
        &chart,
        &with_pins(
            &[
                ("linear scaling at the best per-GPU rate", palette::GREY, 2),
                ("model", palette::BLUE, 3),
            ],
            &pins,
        ),
        true,
    )?;
    Ok(hits)
}

/// Outlines the current setting's point.
fn current_ring<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    pts: &[(f64, u32, Layout, Report)],
    g: f64,
    y: impl Fn(&Report) -> f64,
) -> Res<(), DB> {
    if let Some(p) = pts.iter().find(|p| (p.0 - g).abs() < 1e-9) {
        chart.draw_series(core::iter::once(Circle::new(
            (p.0, y(&p.3)),
            11,
            palette::INK.stroke_width(2),
        )))?;
    }
    Ok(())
}

fn frame_only<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    xr: &core::ops::Range<f64>,
    y_desc: &str,
) -> Res<(), DB> {
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .build_cartesian_2d(xr.clone(), 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_desc("GPUs")
        .y_desc(y_desc)
        .x_label_formatter(&|x| count_label(*x))
        .y_labels(0)
        .disable_y_mesh()
        .label_style((FONT, 12))
        .max_light_lines(0)
        .draw()?;
    Ok(())
}

fn no_points<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, v: &Views) -> Res<Vec<Hit>, DB> {
    let reason = v
        .current
        .as_ref()
        .err()
        .cloned()
        .or_else(|| {
            v.points
                .iter()
                .find_map(|p| p.outcome.as_ref().err().cloned())
        })
        .unwrap_or_default();
    empty_message(root, &format!("No point of this sweep can run: {reason}"))?;
    let (w, h) = root.dim_in_pixel();
    Ok(vec![Hit {
        x: i32::try_from(w / 2).unwrap_or(0),
        y: i32::try_from(h / 2).unwrap_or(0),
        text: reason,
    }])
}

/// One side of a two-axis chart: what it plots and how it is labelled.
struct Side {
    name: &'static str,
    desc: &'static str,
    colour: RGBColor,
    value: fn(&Report) -> f64,
    max: f64,
    tick: fn(f64) -> String,
}

/// The right axis's marker, a triangle, as pixel offsets from its point:
/// the corners plotters' `TriangleMarker` of size 5 draws. `TriangleMarker`
/// finds them with sine and cosine, which would bring the trigonometric
/// functions into the site for three fixed angles.
const TRIANGLE: [(i32, i32); 3] = [(0, -5), (-4, 3), (5, 3)];

/// A chart against GPUs with a left and a right axis, markers on both lines,
/// the current point ringed, invalid points crossed, and an optional
/// horizontal grey line at a value of the left axis.
fn dual_axis<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
    (left, right): (&Side, &Side),
    reference: Option<f64>,
    pins_right: bool,
) -> Res<Vec<Hit>, DB> {
    let pts = valid(&v.points);
    let xr = gpu_range(&v.points);
    if pts.is_empty() {
        frame_only(root, &xr, left.desc)?;
        return no_points(root, v);
    }
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .right_y_label_area_size(56)
        .build_cartesian_2d(xr.clone(), 0.0..left.max.max(1e-9))?
        .set_secondary_coord(xr.clone(), 0.0..right.max.max(1e-9));
    chart
        .configure_mesh()
        .x_desc("GPUs")
        .y_desc(left.desc)
        .x_label_formatter(&|x| count_label(*x))
        .y_label_formatter(&|y| (left.tick)(*y))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .max_light_lines(0)
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc(right.desc)
        .y_label_formatter(&|y| (right.tick)(*y))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    let g = current_gpus(v);
    current_line(&mut chart, g, 0.0, left.max)?;
    if let Some(at) = reference {
        chart.draw_series(core::iter::once(PathElement::new(
            vec![(xr.start, at), (xr.end, at)],
            palette::GREY.stroke_width(1),
        )))?;
    }
    let (lc, rc) = (left.colour, right.colour);
    chart.draw_series(LineSeries::new(
        pts.iter().map(|p| (p.0, (left.value)(&p.3))),
        lc.stroke_width(3),
    ))?;
    chart.draw_secondary_series(LineSeries::new(
        pts.iter().map(|p| (p.0, (right.value)(&p.3))),
        rc.stroke_width(3),
    ))?;
    let mut hits = Vec::new();
    for (gx, gp, l, r) in &pts {
        let a = (*gx, (left.value)(r));
        chart.draw_series(core::iter::once(Circle::new(a, 4, lc.filled())))?;
        let b = (*gx, (right.value)(r));
        chart.draw_secondary_series(core::iter::once(
            EmptyElement::at(b) + Polygon::new(TRIANGLE.to_vec(), rc.filled()),
        ))?;
        let text = point_text(*gp, r, l);
        let (x, y) = chart.backend_coord(&a);
        hits.push(Hit {
            x,
            y,
            text: text.clone(),
        });
        let (x, y) = chart.borrow_secondary().backend_coord(&b);
        hits.push(Hit { x, y, text });
    }
    current_ring(&mut chart, &pts, g, left.value)?;
    hits.extend(invalid_marks(&mut chart, &v.points, left.max * 0.02)?);
    // The pins on the side that compares settings: throughput on the
    // per-GPU chart, tokens per joule on the power chart (power per GPU
    // barely differs between settings).
    if !pins_right {
        hits.extend(pin_lines(&mut chart, v, left.value)?);
    } else {
        for (i, pin) in v.pins.iter().enumerate() {
            let pts = valid(&pin.views.points);
            let at = |p: &(f64, u32, Layout, Report)| (p.0, (right.value)(&p.3));
            chart.draw_secondary_series(DashedLineSeries::new(
                pts.iter().map(at),
                8,
                5,
                pin_colour(i).stroke_width(2),
            ))?;
            for p in &pts {
                let (x, y) = chart.borrow_secondary().backend_coord(&at(p));
                let text = format!("pinned: {}\n{}", pin.name, point_text(p.1, &p.3, &p.2));
                hits.push(Hit { x, y, text });
            }
        }
    }
    let pins = pin_names(v);
    legend(
        &chart,
        &with_pins(&[(left.name, lc, 3), (right.name, rc, 3)], &pins),
        false,
    )?;
    Ok(hits)
}

fn largest(v: &Views, f: fn(&Report) -> f64) -> f64 {
    all_values(v, f).fold(0.0, f64::max)
}

/// Chart 2: per-GPU tokens/s (left axis) and MFU (right axis).
pub(super) fn per_gpu<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let left = Side {
        name: "tokens/s per GPU",
        desc: "tokens/s per GPU",
        colour: palette::BLUE,
        value: |r| r.tokens_per_s_per_gpu,
        max: largest(v, |r| r.tokens_per_s_per_gpu) * 1.25,
        tick: |y| format::si(y, ""),
    };
    // MFU against the whole of peak (0 to 100 %): per-GPU throughput is
    // proportional to MFU, so on matched axes the two lines would coincide.
    let right = Side {
        name: "MFU",
        desc: "MFU (%)",
        colour: palette::VERMILLION,
        value: |r| r.mfu * 100.0,
        max: 100.0,
        tick: |y| format!("{y:.0}"),
    };
    dual_axis(root, v, (&left, &right), None, false)
}

/// Chart 4: power per GPU (left, with the TDP as a grey line) and tokens
/// per joule (right).
pub(super) fn power<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let tdp = crate::state::gpu_of(&v.controls).tdp.0;
    let left = Side {
        name: "power per GPU (grey line: TDP)",
        desc: "power per GPU (W)",
        colour: palette::ORANGE,
        value: |r| r.power_w_per_gpu,
        max: tdp * 1.15,
        tick: |y| format!("{y:.0}"),
    };
    let right = Side {
        name: "tokens per joule",
        desc: "tokens per joule",
        colour: palette::GREEN,
        value: |r| r.tokens_per_joule,
        max: largest(v, |r| r.tokens_per_joule) * 1.25,
        tick: format::sig3,
    };
    dual_axis(root, v, (&left, &right), Some(tdp), true)
}

/// Chart 7: AllGather, AllReduce and All-to-All bus bandwidth against nodes.
pub(super) fn collectives<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let c = &v.collectives;
    let lo = c.first().map_or(1, |b| b.nodes).max(1);
    let hi = c.last().map_or(256, |b| b.nodes).max(lo * 2);
    let xr = lx(f64::from(lo)) - 0.5..lx(f64::from(hi)) + 0.5;
    let ymax = c
        .iter()
        .chain(v.pins.iter().flat_map(|p| p.views.collectives.iter()))
        .map(|b| b.allgather.max(b.allreduce).max(b.alltoall))
        .fold(1.0, f64::max)
        * 1.2;
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(66)
        .build_cartesian_2d(xr.clone(), 0.0..ymax)?;
    chart
        .configure_mesh()
        .x_desc("nodes")
        .y_desc("bus bandwidth (GB/s)")
        .x_label_formatter(&|x| count_label(*x))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .max_light_lines(0)
        .draw()?;
    let n = lx(f64::from(v.controls.nodes));
    current_line(&mut chart, n, 0.0, ymax)?;
    type Series = (
        &'static str,
        RGBColor,
        fn(&crate::state::BusBandwidth) -> f64,
    );
    let series: [Series; 3] = [
        ("AllReduce (ring, tree or NVLS)", palette::BLUE, |b| {
            b.allreduce
        }),
        ("AllGather (ring)", palette::VERMILLION, |b| b.allgather),
        ("All-to-All (EP over all GPUs)", palette::INK, |b| {
            b.alltoall
        }),
    ];
    let mut hits = Vec::new();
    for (name, colour, f) in series {
        chart.draw_series(LineSeries::new(
            c.iter().map(|b| (lx(f64::from(b.nodes)), f(b))),
            colour.stroke_width(3),
        ))?;
        for b in c {
            let at = (lx(f64::from(b.nodes)), f(b));
            let size = if b.nodes == v.controls.nodes { 7 } else { 4 };
            chart.draw_series(core::iter::once(Circle::new(at, size, colour.filled())))?;
            let (x, y) = chart.backend_coord(&at);
            hits.push(Hit {
                x,
                y,
                text: format!(
                    "{} ({}), 1 GB message\n{name}: {:.0} GB/s bus bandwidth",
                    format::count(b.nodes, "nodes"),
                    format::count(b.nodes.saturating_mul(v.controls.gpus_per_node()), "GPUs"),
                    f(b)
                ),
            });
        }
    }
    // Each pin's AllReduce, dashed.
    for (i, pin) in v.pins.iter().enumerate() {
        let b = &pin.views.collectives;
        chart.draw_series(DashedLineSeries::new(
            b.iter().map(|b| (lx(f64::from(b.nodes)), b.allreduce)),
            8,
            5,
            pin_colour(i).stroke_width(2),
        ))?;
        for b in b {
            let (x, y) = chart.backend_coord(&(lx(f64::from(b.nodes)), b.allreduce));
            hits.push(Hit {
                x,
                y,
                text: format!(
                    "pinned: {}\n{}, 1 GB message\nAllReduce: {:.0} GB/s bus bandwidth",
                    pin.name,
                    format::count(b.nodes, "nodes"),
                    b.allreduce
                ),
            });
        }
    }
    let pins: Vec<(String, RGBColor)> = v
        .pins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("pinned: {} AllReduce (dashed)", p.name),
                pin_colour(i),
            )
        })
        .collect();
    // Upper right: the All-to-All runs along the floor and AllReduce's
    // NVLS point sits over the first node.
    legend_at(
        &chart,
        &with_pins(&series.map(|(name, colour, _)| (name, colour, 3)), &pins),
        (true, true),
    )?;
    Ok(hits)
}
