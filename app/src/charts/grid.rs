//! Chart 5: the TP x PP grid at the current GPU count.

use super::{layout_label, palette, Hit, FONT};
use crate::format;
use crate::state::{Cell, Views};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type Res<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Viridis at `t` in [0, 1] (perceptually uniform, colour-blind safe).
#[must_use]
pub fn viridis(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 6] = [
        (68.0, 1.0, 84.0),
        (65.0, 68.0, 135.0),
        (42.0, 120.0, 142.0),
        (34.0, 168.0, 132.0),
        (122.0, 209.0, 81.0),
        (253.0, 231.0, 37.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let mix = |p: f64, q: f64| (p + (q - p) * f).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

pub(super) fn grid<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    v: &Views,
) -> Res<Vec<Hit>, DB> {
    let g = &v.grid();
    let (cols, rows) = (g.tps.len(), g.pps.len());
    let best = g
        .cells
        .iter()
        .filter_map(|c| match c {
            Cell::Ok(_, r) => Some(r.tokens_per_s_per_gpu),
            _ => None,
        })
        .fold(0.0, f64::max);
    let worst = g
        .cells
        .iter()
        .filter_map(|c| match c {
            Cell::Ok(_, r) => Some(r.tokens_per_s_per_gpu),
            _ => None,
        })
        .fold(f64::MAX, f64::min);
    let tps = g.tps.clone();
    let pps = g.pps.clone();
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..cols as f64 - 0.5, -0.5..rows as f64 - 0.5)?;
    let tick = |labels: &[u32], x: f64| {
        let i = x.round();
        if (x - i).abs() < 0.01 && i >= 0.0 {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            labels
                .get(i as usize)
                .map(ToString::to_string)
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc("tensor parallel degree")
        .y_desc("pipeline parallel degree")
        .x_labels(cols)
        .y_labels(rows)
        .x_label_formatter(&|x| tick(&tps, *x))
        .y_label_formatter(&|y| tick(&pps, *y))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .disable_mesh()
        .draw()?;
    let centre = Pos::new(HPos::Center, VPos::Center);
    let cur = &v.controls;
    let current_layout = v.current.as_ref().ok().map(|(l, _)| l.parallel);
    let mut hits = Vec::new();
    for (k, cell) in g.cells.iter().enumerate() {
        let (i, j) = (k % cols, k / cols);
        let (x, y) = (i as f64, j as f64);
        let (tp, pp) = (g.tps[i], g.pps[j]);
        let rect = [(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)];
        let (fill, label, text_colour, text): (RGBColor, String, RGBColor, String) = match cell {
            Cell::Ok(l, r) => {
                let t = if best > worst {
                    (r.tokens_per_s_per_gpu - worst) / (best - worst)
                } else {
                    1.0
                };
                let fill = viridis(t);
                let ink = if t > 0.55 { palette::INK } else { WHITE };
                (
                    fill,
                    format::si(r.tokens_per_s_per_gpu, ""),
                    ink,
                    format!(
                        "TP {tp} x PP {pp}\n{} per GPU · MFU {}\nexposed comm {} · bubble {}\n{:.1} GiB per GPU\n{}",
                        format::si(r.tokens_per_s_per_gpu, "tokens/s"),
                        format::pct(r.mfu),
                        format::pct(r.exposed_comm_fraction),
                        format::pct(r.breakdown.bubble.0 / r.step_time_s.max(1e-12)),
                        r.memory_gib_per_gpu,
                        layout_label(l)
                    ),
                )
            }
            Cell::OutOfMemory => (
                RGBColor(236, 238, 241),
                String::from("OOM"),
                palette::VERMILLION,
                format!("TP {tp} x PP {pp}: out of memory even with full recomputation"),
            ),
            Cell::Invalid(reason) => (
                RGBColor(246, 247, 249),
                String::from("×"),
                palette::GREY,
                format!("TP {tp} x PP {pp}: not a valid layout here\n{reason}"),
            ),
        };
        chart.draw_series(core::iter::once(Rectangle::new(rect, fill.filled())))?;
        chart.draw_series(core::iter::once(Text::new(
            label,
            (x, y),
            (FONT, 13).into_font().color(&text_colour).pos(centre),
        )))?;
        let is_current = current_layout.is_some_and(|p| p.tp == tp && p.pp == pp)
            || (current_layout.is_none() && !cur.best && cur.tp == tp && cur.pp == pp);
        if is_current {
            chart.draw_series(core::iter::once(Rectangle::new(
                rect,
                palette::VERMILLION.stroke_width(3),
            )))?;
        }
        let (px, py) = chart.backend_coord(&(x, y));
        hits.push(Hit { x: px, y: py, text });
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::viridis;

    #[test]
    fn viridis_ends_and_clamps() {
        assert_eq!(viridis(0.0), plotters::style::RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), plotters::style::RGBColor(253, 231, 37));
        assert_eq!(viridis(f64::NAN), viridis(0.0));
        assert_eq!(viridis(7.0), viridis(1.0));
    }
}
