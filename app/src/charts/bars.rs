//! Bar charts: the step-time breakdown, GPU generations, memory by part.

use super::pins::{live, pin_bar, pin_legend};
use super::{empty_message, layout_label, palette, Hit, FONT};
use crate::format;
use crate::state::Views;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use scalescope_core::evaluate::Breakdown;

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

pub(crate) use super::segments::{overlapped_segments, step_segments, Segment};

/// A chart with one category per bar group along x (labels centred under
/// integers) and a linear y axis from 0 to `y_max` with whole-number ticks.
fn category_chart<'a, DB: DrawingBackend + 'a>(
    plot: &DrawingArea<DB, Shift>,
    labels: &[String],
    x_desc: &str,
    y_desc: &str,
    y_max: f64,
) -> Res<ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, DB> {
    let n = labels.len();
    let mut chart = ChartBuilder::on(plot)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..y_max)?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 0.01 && i >= 0.0 {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(n)
        .x_label_formatter(&label)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .max_light_lines(0)
        .disable_x_mesh()
        .draw()?;
    Ok(chart)
}

/// Width of one character of the 11 px label font, in pixels (a little
/// over the average, so that a label that fits by this count does fit).
const LABEL_PX_PER_CHAR: i32 = 6;

/// Marks a bar group that cannot run: a grey cross and a short reason above
/// it (the hover text has the whole message). Returns the cross's pixel.
fn cannot_run<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x: f64,
    y: f64,
    reason: &str,
) -> Res<(i32, i32), DB> {
    chart.draw_series(core::iter::once(Cross::new(
        (x, y),
        6,
        palette::GREY.stroke_width(2),
    )))?;
    let oom = reason.starts_with("out of memory") || reason.starts_with("no layout fits");
    // Bar groups sit one unit apart: where the full label would run into
    // the next group's, the short form (the grid's "OOM") stands in.
    let slot = chart.backend_coord(&(x + 0.5, y)).0 - chart.backend_coord(&(x - 0.5, y)).0;
    let short = match (oom, slot >= LABEL_PX_PER_CHAR * 14) {
        (true, true) => "out of memory",
        (true, false) => "OOM",
        (false, true) => "cannot run",
        (false, false) => "n/a",
    };
    let (px, py) = chart.backend_coord(&(x, y));
    chart.draw_series(core::iter::once(
        EmptyElement::at((x, y))
            + Text::new(
                short,
                (0, -10),
                (FONT, 11).into_font().color(&palette::GREY).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Bottom,
                    ),
                ),
            ),
    ))?;
    Ok((px, py))
}

pub(super) fn stacked<
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x0: f64,
    x1: f64,
    segments: &[Segment],
    scale: f64,
    alpha: f64,
) -> Res<(), DB> {
    let mut y = 0.0;
    for (_, colour, v) in segments {
        let h = v * scale;
        if h > 0.0 {
            chart.draw_series(core::iter::once(Rectangle::new(
                [(x0, y), (x1, y + h)],
                colour.mix(alpha).filled(),
            )))?;
            y += h;
        }
    }
    Ok(())
}

/// Chart 3: per GPU count, the step as stacked shares (left bar) and the
/// communication hidden behind compute (right bar), both in % of the step.
pub(super) fn breakdown<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let labels: Vec<String> = v.points.iter().map(|p| format::gpus(p.gpus)).collect();
    let hidden_max = v
        .points
        .iter()
        .filter_map(|p| p.outcome.as_ref().ok())
        .map(|(_, r)| r.breakdown.comm_total().0 - r.breakdown.comm_exposed().0)
        .zip(
            v.points
                .iter()
                .filter_map(|p| p.outcome.as_ref().ok())
                .map(|(_, r)| r.step_time_s),
        )
        .map(|(h, s)| h / s.max(1e-12) * 100.0)
        .fold(100.0, f64::max);
    let pins = v.pins.len();
    let (plot, side) = with_legend(root, 9 + pins);
    let mut chart = category_chart(&plot, &labels, "GPUs", "% of step time", hidden_max * 1.02)?;
    let mut hits = Vec::new();
    let current = v.controls.nodes;
    for (i, p) in v.points.iter().enumerate() {
        let x = i as f64;
        for (k, pin) in v.pins.iter().enumerate() {
            let at = pin.views.points.iter().find(|q| q.nodes == p.nodes);
            if let Some((l, r)) = at.and_then(|q| q.outcome.as_ref().ok()) {
                let segs = step_segments(&r.breakdown);
                let text = format!(
                    "{} · step {}\n{}",
                    format::count(p.gpus, "GPUs"),
                    format::duration(r.step_time_s),
                    layout_label(l)
                );
                let scale = 100.0 / r.step_time_s.max(1e-12);
                pin_bar(
                    &mut chart,
                    (x, k, pins),
                    &segs,
                    scale,
                    &pin.name,
                    text,
                    &mut hits,
                )?;
            }
        }
        match &p.outcome {
            Ok((l, r)) => {
                let step = r.step_time_s.max(1e-12);
                let scale = 100.0 / step;
                let segs = step_segments(&r.breakdown);
                stacked(
                    &mut chart,
                    live(x, -0.36, pins),
                    live(x, -0.02, pins),
                    &segs,
                    scale,
                    1.0,
                )?;
                let hid = overlapped_segments(&r.breakdown);
                stacked(
                    &mut chart,
                    live(x, 0.02, pins),
                    live(x, 0.36, pins),
                    &hid,
                    scale,
                    0.45,
                )?;
                if p.nodes == current {
                    chart.draw_series(core::iter::once(Rectangle::new(
                        [(x - 0.45, 0.0), (x + 0.45, 100.0)],
                        palette::INK.stroke_width(2),
                    )))?;
                }
                let mut text = format!(
                    "{} · step {}\n",
                    format::count(p.gpus, "GPUs"),
                    format::duration(r.step_time_s)
                );
                for (name, _, val) in segs.iter().chain(hid.iter()) {
                    if *val > 0.0 {
                        text.push_str(&format!(
                            "{name}: {} ({})\n",
                            format::duration(*val),
                            format::pct(val / step)
                        ));
                    }
                }
                text.push_str(&layout_label(l));
                let (px, py) = chart.backend_coord(&(x, 50.0));
                hits.push(Hit { x: px, y: py, text });
            }
            Err(reason) => {
                let (px, py) = cannot_run(&mut chart, x, 4.0, reason)?;
                hits.push(Hit {
                    x: px,
                    y: py,
                    text: format!("{}: no result\n{reason}", format::count(p.gpus, "GPUs")),
                });
            }
        }
    }
    // Legend: the step's parts, then "hidden" in the lighter tint.
    let mut legend: Vec<(String, RGBColor, f64)> = step_segments(&Breakdown::default())
        .iter()
        .map(|(n, c, _)| ((*n).to_owned(), *c, 1.0))
        .collect();
    legend.push((
        String::from("hidden comm (light bars)"),
        palette::VERMILLION,
        0.45,
    ));
    legend.extend(pin_legend(v));
    draw_legend(&side, &legend)?;
    Ok(hits)
}

/// Width of the legend column beside a bar chart.
/// Splits off the legend: a column on the right when the chart is wide
/// enough, otherwise a strip under the plot with two items per row.
fn with_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: usize,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, h) = root.dim_in_pixel();
    if w >= 3 * LEGEND_WIDTH {
        root.split_horizontally(w - LEGEND_WIDTH)
    } else {
        let rows = u32::try_from(items.div_ceil(2)).unwrap_or(4);
        root.split_vertically(h.saturating_sub(rows * 17 + 8))
    }
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor, f64)],
) -> Res<(), DB> {
    let (w, _) = area.dim_in_pixel();
    let beside = w <= LEGEND_WIDTH;
    let half = i32::try_from(w / 2).unwrap_or(200);
    for (i, (name, colour, alpha)) in items.iter().enumerate() {
        let i = i32::try_from(i).unwrap_or(0);
        let (x0, y) = if beside {
            (12, 20 + 17 * i)
        } else {
            (12 + (i % 2) * half, 4 + 17 * (i / 2))
        };
        area.draw(&Rectangle::new(
            [(x0, y), (x0 + 12, y + 10)],
            colour.mix(*alpha).filled(),
        ))?;
        area.draw(&Text::new(
            name.clone(),
            (x0 + 18, y - 1),
            (FONT, 12).into_font(),
        ))?;
    }
    Ok(())
}

/// Width of the legend column beside a bar chart.
const LEGEND_WIDTH: u32 = 220;

/// Chart 6: each GPU generation at the current node count: MFU and exposed
/// communication share side by side.
pub(super) fn generations<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let labels: Vec<String> = v
        .generations()
        .iter()
        .map(|g| {
            let short = g.gpu.name.split(" (").next().unwrap_or(g.gpu.name);
            let short = short
                .replace(" SXM5", "")
                .replace(" SXM4", "")
                .replace(" SXM2", "")
                .replace(" SXM", "");
            // Memory size only where it tells two parts apart (A100-40 and
            // A100-80); the hover text has the full name.
            let short = if short.starts_with("A100") {
                short.replace(" 40GB", "-40").replace(" 80GB", "-80")
            } else {
                short.split(' ').next().unwrap_or(&short).to_owned()
            };
            if g.gpu.extrapolated {
                format!("{short}*")
            } else {
                short
            }
        })
        .collect();
    let ymax = v
        .generations()
        .iter()
        .filter_map(|g| g.outcome.as_ref().ok())
        .map(|(_, r)| r.mfu.max(r.exposed_comm_fraction) * 100.0)
        .fold(50.0, f64::max)
        * 1.15;
    let pins = v.pins.len();
    let (plot, side) = with_legend(root, 2 + pins);
    let mut chart = category_chart(
        &plot,
        &labels,
        "",
        "% (MFU; exposed comm share of step)",
        ymax,
    )?;
    let mut hits = Vec::new();
    for (i, g) in v.generations().iter().enumerate() {
        let x = i as f64;
        pin_generations(&mut chart, v, (x, g.gpu.id), ymax, &mut hits)?;
        match &g.outcome {
            Ok((l, r)) => {
                let mfu = r.mfu * 100.0;
                let exp = r.exposed_comm_fraction * 100.0;
                chart.draw_series(core::iter::once(Rectangle::new(
                    [(live(x, -0.36, pins), 0.0), (live(x, -0.02, pins), mfu)],
                    palette::BLUE.filled(),
                )))?;
                chart.draw_series(core::iter::once(Rectangle::new(
                    [(live(x, 0.02, pins), 0.0), (live(x, 0.36, pins), exp)],
                    palette::VERMILLION.filled(),
                )))?;
                if g.gpu.id == v.controls.gpu {
                    chart.draw_series(core::iter::once(Rectangle::new(
                        [(x - 0.45, 0.0), (x + 0.45, mfu.max(exp) + ymax * 0.04)],
                        palette::INK.stroke_width(2),
                    )))?;
                }
                let text = format!(
                    "{}{}\nMFU {} · exposed comm {}\n{} per GPU · {}\n{} per GPU · {}\n{}",
                    g.gpu.name,
                    if g.gpu.extrapolated {
                        "\nextrapolated: GEMM efficiency carried over from H100"
                    } else {
                        ""
                    },
                    format::pct(r.mfu),
                    format::pct(r.exposed_comm_fraction),
                    format::si(r.tokens_per_s_per_gpu, "tokens/s"),
                    format::si(r.tokens_per_s, "tokens/s total"),
                    format::si(r.power_w_per_gpu, "W"),
                    format::si(r.tokens_per_joule, "tokens/J"),
                    layout_label(l)
                );
                let (px, py) = chart.backend_coord(&(x, mfu / 2.0));
                hits.push(Hit { x: px, y: py, text });
            }
            Err(reason) => {
                let (px, py) = cannot_run(&mut chart, x, ymax * 0.04, reason)?;
                hits.push(Hit {
                    x: px,
                    y: py,
                    text: format!("{}: no result\n{reason}", g.gpu.name),
                });
            }
        }
    }
    let mut legend = vec![
        (String::from("MFU"), palette::BLUE, 1.0),
        (
            String::from("exposed communication"),
            palette::VERMILLION,
            1.0,
        ),
    ];
    legend.extend(pin_legend(v));
    draw_legend(&side, &legend)?;
    Ok(hits)
}

/// The pins' MFU on GPU `id`, in the group at `x`.
fn pin_generations<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    v: &Views,
    (x, id): (f64, &str),
    ymax: f64,
    hits: &mut Vec<Hit>,
) -> Res<(), DB> {
    let pins = v.pins.len();
    for (k, pin) in v.pins.iter().enumerate() {
        let at = pin.views.generations().iter().find(|q| q.gpu.id == id);
        if let Some((l, r)) = at.and_then(|q| q.outcome.as_ref().ok()) {
            let text = format!("{id}: MFU {}\n{}", format::pct(r.mfu), layout_label(l));
            let segs = [("MFU", palette::BLUE, (r.mfu * 100.0).min(ymax))];
            pin_bar(chart, (x, k, pins), &segs, 1.0, &pin.name, text, hits)?;
        }
    }
    Ok(())
}

/// A memory bar's parts, GiB.
fn memory_parts(m: &scalescope_core::memory::Memory) -> [Segment; 6] {
    let gib = |b: scalescope_core::units::Bytes| b.as_gib();
    [
        ("weights", palette::BLUE, gib(m.weights)),
        ("gradients", palette::SKY, gib(m.gradients)),
        ("optimizer state", palette::GREEN, gib(m.optimizer)),
        ("activations", palette::ORANGE, gib(m.activations)),
        ("buffers", palette::PURPLE, gib(m.buffers)),
        ("runtime reserve", palette::GREY, gib(m.reserve)),
    ]
}

/// The pins' memory at FSDP group `group`, in the group at `x`.
fn pin_memory<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    v: &Views,
    (x, group): (f64, u32),
    ymax: f64,
    hits: &mut Vec<Hit>,
) -> Res<(), DB> {
    let pins = v.pins.len();
    for (k, pin) in v.pins.iter().enumerate() {
        if let Some(q) = pin.views.memory.iter().find(|q| q.group == group) {
            let full = q.memory.total().as_gib();
            let text = format!(
                "FSDP group of {}: {full:.1} GiB per GPU",
                format::count(q.group, "GPUs"),
            );
            let scale = full.min(ymax) / full.max(1e-12);
            let segs = memory_parts(&q.memory);
            pin_bar(chart, (x, k, pins), &segs, scale, &pin.name, text, hits)?;
        }
    }
    Ok(())
}

/// Chart 8: memory per GPU by part against the data-parallel group size,
/// with the GPU's HBM as a line.
pub(super) fn memory<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    if v.memory.is_empty() {
        empty_message(
            root,
            "No memory to show: the model or hardware settings are invalid.",
        )?;
        return Ok(vec![Hit {
            x: 0,
            y: 0,
            text: String::from("invalid settings"),
        }]);
    }
    let n = v.memory.len();
    let labels: Vec<String> = v.memory.iter().map(|m| format::gpus(m.group)).collect();
    let gib = |b: scalescope_core::units::Bytes| b.as_gib();
    let ymax = v
        .memory
        .iter()
        .map(|m| gib(m.memory.total()))
        .fold(v.hbm_gib, f64::max)
        * 1.12;
    let pins = v.pins.len();
    let (plot, side) = with_legend(root, 6 + pins);
    let mut chart = category_chart(
        &plot,
        &labels,
        "data-parallel (FSDP) group size, GPUs",
        "GiB per GPU",
        ymax,
    )?;
    let mut hits = Vec::new();
    let current = v.current.as_ref().ok().map(|(_, r)| r.dp);
    for (i, m) in v.memory.iter().enumerate() {
        let x = i as f64;
        pin_memory(&mut chart, v, (x, m.group), ymax, &mut hits)?;
        let parts = memory_parts(&m.memory);
        stacked(
            &mut chart,
            live(x, -0.36, pins),
            live(x, 0.36, pins),
            &parts,
            1.0,
            1.0,
        )?;
        let total = gib(m.memory.total());
        if current == Some(m.group) {
            chart.draw_series(core::iter::once(Rectangle::new(
                [(x - 0.45, 0.0), (x + 0.45, total + ymax * 0.03)],
                palette::INK.stroke_width(2),
            )))?;
        }
        let mut text = format!(
            "FSDP group of {}: {:.1} GiB per GPU{}\n",
            format::count(m.group, "GPUs"),
            total,
            if total > v.hbm_gib {
                " (does not fit)"
            } else {
                ""
            }
        );
        for (name, _, val) in &parts {
            text.push_str(&format!("{name}: {val:.1} GiB\n"));
        }
        let (px, py) = chart.backend_coord(&(x, total / 2.0));
        hits.push(Hit {
            x: px,
            y: py,
            text: text.trim_end().to_owned(),
        });
    }
    chart.draw_series(core::iter::once(PathElement::new(
        vec![(-0.5, v.hbm_gib), (n as f64 - 0.5, v.hbm_gib)],
        palette::VERMILLION.stroke_width(2),
    )))?;
    let (px, py) = chart.backend_coord(&(n as f64 - 0.5, v.hbm_gib));
    root.draw(&Text::new(
        format!("HBM {:.0} GiB", v.hbm_gib),
        (px - 90, py - 16),
        (FONT, 12).into_font().color(&palette::VERMILLION),
    ))?;
    let mut legend: Vec<(String, RGBColor, f64)> = memory_parts(&Default::default())
        .iter()
        .map(|(n, c, _)| ((*n).to_owned(), *c, 1.0))
        .collect();
    legend.extend(pin_legend(v));
    draw_legend(&side, &legend)?;
    Ok(hits)
}
