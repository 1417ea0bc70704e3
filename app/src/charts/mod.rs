//! The ten charts. Each draws a [`Views`] on any plotters backend and
//! returns its hover targets ([`Hit`]) in backend pixels, so the same code
//! serves the canvas and any other backend.

pub(crate) mod bars;
pub mod canvas;
pub mod describe;
pub mod gantt;
mod grid;
mod lines;
mod pins;
pub mod plan;
mod segments;

use crate::format;
use crate::state::Views;
use plotters::coord::Shift;
use plotters::prelude::*;
use scalescope_core::scenario::{DataParallel, Layout, Recompute};

/// A point the pointer can hover: where it is drawn and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// Backend x, pixels.
    pub x: i32,
    /// Backend y, pixels.
    pub y: i32,
    /// The exact values and layout, one fact per line.
    pub text: String,
}

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// Global throughput against GPUs, with ideal linear scaling.
    Throughput,
    /// Per-GPU throughput and MFU against GPUs.
    PerGpu,
    /// Step-time breakdown at each GPU count.
    Breakdown,
    /// Power per GPU and tokens per joule against GPUs.
    Power,
    /// TP x PP grid at the current GPU count.
    Grid,
    /// GPU generations on the same workload.
    Generations,
    /// Collective bus bandwidth against nodes.
    Collectives,
    /// Memory per GPU against FSDP group size.
    Memory,
    /// The current step as intervals on each stream of a stage.
    Timeline,
    /// Days to train against cost across cluster sizes.
    Plan,
}

impl Chart {
    /// Every chart, in page order.
    pub const ALL: [Chart; 10] = [
        Chart::Throughput,
        Chart::PerGpu,
        Chart::Breakdown,
        Chart::Power,
        Chart::Grid,
        Chart::Generations,
        Chart::Collectives,
        Chart::Memory,
        Chart::Timeline,
        Chart::Plan,
    ];

    /// Position in [`Chart::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        Chart::ALL.iter().position(|&c| c == self).unwrap_or(0)
    }

    /// Stable id (test hooks, file names).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Chart::Throughput => "throughput",
            Chart::PerGpu => "per-gpu",
            Chart::Breakdown => "breakdown",
            Chart::Power => "power",
            Chart::Grid => "grid",
            Chart::Generations => "generations",
            Chart::Collectives => "collectives",
            Chart::Memory => "memory",
            Chart::Timeline => "timeline",
            Chart::Plan => "plan",
        }
    }

    /// Title shown above the chart.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Chart::Throughput => "Global throughput",
            Chart::PerGpu => "Per-GPU throughput and MFU",
            Chart::Breakdown => "Where the step time goes",
            Chart::Power => "Power and energy efficiency",
            Chart::Grid => "Tensor x pipeline parallel layouts",
            Chart::Generations => "GPU generations, same workload",
            Chart::Collectives => "NCCL bus bandwidth",
            Chart::Memory => "Memory per GPU",
            Chart::Timeline => "The step, stream by stream",
            Chart::Plan => "Planning the run: time against cost",
        }
    }

    /// One sentence on how to read it.
    #[must_use]
    pub fn caption(self) -> &'static str {
        match self {
            Chart::Throughput => "Tokens per second of the whole cluster against the ideal of linear scaling (paper Figures 3 and 5).",
            Chart::PerGpu => "What each GPU gets done as the cluster grows: tokens per second per GPU and model FLOPs utilisation.",
            Chart::Breakdown => "Left bar: the step, split into compute, SM contention, pipeline bubble and exposed communication by kind. Right bar: communication hidden behind compute.",
            Chart::Power => "Average power per GPU barely falls while throughput does, so tokens per joule drop (paper Figure 1).",
            Chart::Grid => "Every tensor and pipeline degree at the current GPU count, coloured by per-GPU throughput (paper Figures 6, 7 and 10).",
            Chart::Generations => "V100 to GB300 NVL72 at the current node count and workload (paper Figure 7 and section 4.4). * marks extrapolated parts.",
            Chart::Collectives => "nccl-tests bus bandwidth of a 1 GB AllGather (ring), AllReduce (ring, tree, or NVLS inside one NVLink domain) and All-to-All over every GPU (an expert-parallel group inside the NVLink domain, then across it) against nodes (paper Figure 2).",
            Chart::Memory => "Memory per GPU by part as the FSDP group grows, against the GPU's HBM (paper Figure 14).",
            Chart::Timeline => "One step of the current setting on the first and last pipeline stage: compute, and each kind of communication beside it. Red ticks mark communication with no compute beside it; shaded, the pipeline bubble. Drag to zoom.",
            Chart::Plan => "Days and dollars to train on the token budget at each cluster size: the cheapest, the fastest, and the knee past which doubling the cluster buys too little speed.",
        }
    }
}

/// Okabe-Ito colours: distinguishable with every common colour-vision deficiency.
pub mod palette {
    use plotters::style::RGBColor;
    /// Blue.
    pub const BLUE: RGBColor = RGBColor(0, 114, 178);
    /// Vermillion.
    pub const VERMILLION: RGBColor = RGBColor(213, 94, 0);
    /// Bluish green.
    pub const GREEN: RGBColor = RGBColor(0, 158, 115);
    /// Orange.
    pub const ORANGE: RGBColor = RGBColor(230, 159, 0);
    /// Sky blue.
    pub const SKY: RGBColor = RGBColor(86, 180, 233);
    /// Reddish purple.
    pub const PURPLE: RGBColor = RGBColor(204, 121, 167);
    /// Yellow.
    pub const YELLOW: RGBColor = RGBColor(240, 228, 66);
    /// Near-black for text and marks.
    pub const INK: RGBColor = RGBColor(27, 31, 36);
    /// Grey for invalid points and grid lines.
    pub const GREY: RGBColor = RGBColor(140, 146, 153);
}

/// Font of titles inside charts, axis descriptions and labels. Named by
/// plotters' enum, not the string `"sans-serif"`: a string is lower-cased
/// on every use, which brings Unicode's case tables into the site.
pub(crate) const FONT: FontFamily<'static> = FontFamily::SansSerif;

/// Draws `chart` for `views` on `root`.
///
/// # Errors
/// Only the backend's own drawing errors.
pub fn draw<DB: DrawingBackend>(
    chart: Chart,
    root: &DrawingArea<DB, Shift>,
    views: &Views,
) -> Result<Vec<Hit>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let hits = match chart {
        Chart::Throughput => lines::throughput(root, views)?,
        Chart::PerGpu => lines::per_gpu(root, views)?,
        Chart::Power => lines::power(root, views)?,
        Chart::Collectives => lines::collectives(root, views)?,
        Chart::Breakdown => bars::breakdown(root, views)?,
        Chart::Generations => bars::generations(root, views)?,
        Chart::Memory => bars::memory(root, views)?,
        Chart::Grid => grid::grid(root, views)?,
        Chart::Timeline => gantt::timeline(root, views)?,
        Chart::Plan => plan::plan(root, views)?,
    };
    let mut hits = hits;
    if matches!(chart, Chart::Grid | Chart::Timeline) && !views.pins.is_empty() {
        hits.extend(pins::pin_table(root, &pins::table_lines(chart, views))?);
    }
    root.present()?;
    Ok(hits)
}

/// A layout in words: `FSDP · TP 2 · PP 1 · CP 1 · micro-batch 2 · no recompute`.
#[must_use]
pub fn layout_label(l: &Layout) -> String {
    let p = l.parallel;
    let dp = match p.dp {
        DataParallel::Ddp => "DDP",
        DataParallel::Zero1 => "ZeRO-1",
        DataParallel::Fsdp => "FSDP",
        DataParallel::FsdpFull => "FSDP full shard",
        DataParallel::Hsdp => "HSDP",
    };
    let rc = match l.recompute {
        Recompute::None => "no recompute",
        Recompute::Selective => "selective recompute",
        Recompute::Full => "full recompute",
    };
    let experts = match (p.ep, p.etp) {
        (1, 1) => String::new(),
        (ep, 1) => format!(" · EP {ep}"),
        (ep, etp) => format!(" · EP {ep} · ETP {etp}"),
    };
    format!(
        "{dp} · TP {}{} · PP {} · CP {}{experts} · micro-batch {} · {rc}",
        p.tp,
        if p.sp && p.tp > 1 { "+SP" } else { "" },
        p.pp,
        p.cp,
        l.micro_batch
    )
}

/// The hover text of a sweep point.
pub(crate) fn point_text(
    gpus: u32,
    r: &scalescope_core::evaluate::Report,
    layout: &Layout,
) -> String {
    format!(
        "{}\n{} · {} per GPU\nMFU {} · exposed comm {}\n{} per GPU · {}\nstep {} · {:.1} GiB per GPU\n{}",
        format::count(gpus, "GPUs"),
        format::si(r.tokens_per_s, "tokens/s"),
        format::si(r.tokens_per_s_per_gpu, "tokens/s"),
        format::pct(r.mfu),
        format::pct(r.exposed_comm_fraction),
        format::si(r.power_w_per_gpu, "W"),
        format::si(r.tokens_per_joule, "tokens/J"),
        format::duration(r.step_time_s),
        r.memory_gib_per_gpu,
        layout_label(layout)
    )
}

/// A message in the middle of an empty plot, so a chart is never blank.
pub(crate) fn empty_message<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, h) = root.dim_in_pixel();
    let style = TextStyle::from((FONT, 14).into_font())
        .color(&palette::INK)
        .pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Center,
        ));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let max = (w as usize / 8).max(20);
    for word in text.split_whitespace() {
        if line.len() + word.len() + 1 > max && !line.is_empty() {
            lines.push(core::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    let cx = i32::try_from(w / 2).unwrap_or(0);
    let top = i32::try_from(h / 2).unwrap_or(0) - 9 * i32::try_from(lines.len()).unwrap_or(1);
    for (i, l) in lines.iter().enumerate() {
        let y = top + 18 * i32::try_from(i).unwrap_or(0);
        root.draw(&Text::new(l.clone(), (cx, y), style.clone()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{compute, Controls};
    use plotters::backend::SVGBackend;

    fn render(chart: Chart, c: &Controls) -> (String, Vec<Hit>) {
        let views = compute(c);
        let mut svg = String::new();
        let hits = {
            let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
            draw(chart, &root, &views).expect("draws")
        };
        (svg, hits)
    }

    #[test]
    fn every_chart_draws_with_hover_targets_and_no_nan() {
        for best in [false, true] {
            let c = Controls {
                best,
                ..Controls::default()
            };
            for chart in Chart::ALL {
                let (svg, hits) = render(chart, &c);
                assert!(!svg.contains("NaN"), "{chart:?} drew NaN");
                assert!(svg.len() > 2000, "{chart:?} drew almost nothing");
                assert!(!hits.is_empty(), "{chart:?} has nothing to hover");
                assert!(hits.iter().all(|h| !h.text.contains("NaN")));
            }
        }
    }

    #[test]
    fn every_chart_draws_two_pins_beside_the_live_setting() {
        let mut c = Controls::default();
        c.pin(String::from("base"));
        c.model = "llama2-13b";
        c.tp = 2;
        c.pin(String::from("13B TP 2"));
        c.seq_len = 2048;
        for chart in Chart::ALL {
            let (svg, hits) = render(chart, &c);
            assert!(!svg.contains("NaN"), "{chart:?} drew NaN");
            let pinned = hits
                .iter()
                .filter(|h| h.text.starts_with("pinned: 13B TP 2"))
                .count();
            assert!(
                pinned >= 1,
                "{chart:?} has no hover target for the second pin: {:?}",
                hits.iter()
                    .map(|h| h.text.lines().next().unwrap_or_default().to_owned())
                    .collect::<Vec<_>>()
            );
            assert!(svg.contains("13B TP 2"), "{chart:?} does not name the pin");
        }
    }

    #[test]
    fn a_pin_that_cannot_run_is_named_as_such() {
        let mut c = Controls {
            tp: 64,
            ..Controls::default()
        };
        c.pin(String::from("TP 64"));
        c.tp = 1;
        let (svg, _) = render(Chart::Throughput, &c);
        assert!(
            svg.contains("pinned: TP 64 (cannot run)"),
            "no legend entry"
        );
    }

    #[test]
    fn an_impossible_setting_still_draws_every_chart() {
        let c = Controls {
            tp: 64,
            nodes: 3,
            ..Controls::default()
        };
        for chart in Chart::ALL {
            let (svg, _) = render(chart, &c);
            assert!(svg.len() > 1000, "{chart:?} is blank");
            assert!(!svg.contains("NaN"));
        }
    }

    #[test]
    fn layout_labels_read_well() {
        let views = compute(&Controls::default());
        let (l, _) = views.current.expect("valid");
        assert_eq!(
            layout_label(&l),
            "FSDP · TP 1 · PP 1 · CP 1 · micro-batch 2 · no recompute"
        );
    }
}
