//! Ring AllGather time against message size for the chosen node count.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use scalescope_core::collective::{time, Collective, Group, Links};
use scalescope_core::units::{Bandwidth, Bytes, Seconds};

/// DGX H100 links (NCCL tuning-model latencies).
const LINKS: Links = Links {
    nvlink: Bandwidth::gb_s(360.0),
    network: Bandwidth::gb_s(45.0),
    base_latency: Seconds::us(8.4),
    nvlink_step: Seconds::us(3.4),
    network_step: Seconds::us(14.0),
    nvlink_tree_hop: Seconds::us(4.0),
    network_tree_hop: Seconds::us(14.0),
};

/// Draws AllGather time (ms) against message size (MB) on `root`.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    nodes: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let group = Group::new(nodes * 8, 8);
    let points: Vec<(f64, f64)> = (0..=40)
        .map(|i| {
            let mb = 10f64.powf(f64::from(i) / 10.0);
            let t = time(Collective::AllGather, Bytes::mb(mb), group, &LINKS).time;
            (mb, t.as_ms())
        })
        .collect();
    let y_max = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1;
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("Ring AllGather on {} GPUs", nodes * 8),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d((1.0..10_000.0).log_scale(), 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("message size (MB)")
        .y_desc("time (ms)")
        .draw()?;
    chart.draw_series(LineSeries::new(points, &BLUE))?;
    root.present()
}

/// Draws the chart on a canvas element, ignoring drawing errors (the next
/// input redraws it).
pub fn draw_on_canvas(canvas: &web_sys::HtmlCanvasElement, nodes: u32) {
    if let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) {
        let _ = draw(&backend.into_drawing_area(), nodes);
    }
}
