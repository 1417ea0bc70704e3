//! The step-time breakdown's segments, shared by the bar chart and its CSV:
//! each kind of time with its name and colour, exposed and hidden.

use super::palette;
use plotters::style::RGBColor;
use scalescope_core::evaluate::Breakdown;

/// One stacked segment: name, colour, value.
pub(crate) type Segment = (&'static str, RGBColor, f64);

pub(crate) fn step_segments(b: &Breakdown) -> [Segment; 8] {
    let dp = b.dp_allgather.exposed + b.dp_reduce_scatter.exposed + b.dp_allreduce.exposed;
    [
        ("compute", palette::BLUE, b.compute().0),
        ("SM contention", palette::SKY, b.contention.0),
        ("pipeline bubble", palette::YELLOW, b.bubble.0),
        ("exposed data-parallel comm", palette::VERMILLION, dp.0),
        (
            "exposed tensor-parallel comm",
            palette::PURPLE,
            b.tp.exposed.0,
        ),
        ("exposed pipeline sends", palette::ORANGE, b.pp.exposed.0),
        (
            "exposed context-parallel comm",
            palette::GREEN,
            b.cp.exposed.0,
        ),
        ("exposed All-to-All (experts)", palette::INK, b.ep.exposed.0),
    ]
}

pub(crate) fn overlapped_segments(b: &Breakdown) -> [Segment; 5] {
    let dp = b.dp_allgather.overlapped()
        + b.dp_reduce_scatter.overlapped()
        + b.dp_allreduce.overlapped();
    [
        ("hidden data-parallel comm", palette::VERMILLION, dp.0),
        (
            "hidden tensor-parallel comm",
            palette::PURPLE,
            b.tp.overlapped().0,
        ),
        (
            "hidden pipeline sends",
            palette::ORANGE,
            b.pp.overlapped().0,
        ),
        (
            "hidden context-parallel comm",
            palette::GREEN,
            b.cp.overlapped().0,
        ),
        (
            "hidden All-to-All (experts)",
            palette::INK,
            b.ep.overlapped().0,
        ),
    ]
}
