//! What leaves the page as a file: each chart's data as CSV ([`csv`]), each
//! chart as SVG (the same drawing code as the canvas, on plotters' SVG
//! backend), and the whole setting as the core's scenario file, which
//! [`import_scenario`] reads back. Pure Rust, tested natively.

mod csv;
mod scenario;

pub use csv::{csv, csv_table};
pub use scenario::{import_scenario, scenario_json, MAX_SCENARIO_BYTES};

use crate::charts::{self, Chart};
use crate::state::Views;
use plotters::prelude::IntoDrawingArea;

/// `chart` drawn as an SVG document of `size` pixels, by the same code
/// that draws the canvas (text measured by `canvas`, so it lays out as on
/// screen). `None` if the canvas has no 2D context.
#[must_use]
pub fn svg(
    chart: Chart,
    v: &Views,
    canvas: &web_sys::HtmlCanvasElement,
    size: (u32, u32),
) -> Option<String> {
    let (backend, buffer) = charts::canvas::FastCanvas::svg(canvas, size)?;
    {
        let root = backend.into_drawing_area();
        // A chart that failed half-way still leaves a well-formed document:
        // `present` closes it either way.
        let _ = charts::draw(chart, &root, v);
        let _ = root.present();
    }
    let text = buffer.borrow().clone();
    Some(text)
}

/// The file name of a chart export: `scalescope-throughput.csv`.
#[must_use]
pub fn file_name(chart: Chart, extension: &str) -> String {
    format!("scalescope-{}.{extension}", chart.id())
}
