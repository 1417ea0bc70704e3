//! The step as a timeline: what runs on each stream of a pipeline stage,
//! when, and what it waits for. [`timeline`] lays out the passes the step
//! model ([`crate::evaluate`]) sums, by the same rules: a layer's FSDP
//! gather prefetched beside the previous layer's compute, tensor-parallel
//! collectives blocking the layer that needs them, context-parallel
//! exchanges beside the attention, the schedule's order of forward and
//! backward micro-batches (GPipe, 1F1B, interleaved 1F1B) with the sends
//! between stages, traffic bucketed once per step behind the last backward,
//! and the optimizer at the end.
//!
//! Each stage runs its own passes; the simulation decides when each starts.
//! The step model takes its pipeline's bubble from the same simulation
//! ([`makespan`]), so the makespan is the step time, and the time the
//! slowest stage spends in communication with no compute beside it is the
//! breakdown's exposure, both within 2% for every layout the search visits
//! (checked over random layouts in `core/tests/timeline.rs`; in practice
//! they agree to rounding). An interleaved layout whose stages' layers do
//! not split evenly into the chunks (Megatron-LM runs one only with the
//! embedding and the loss counted as layers; the search does not try
//! them) keeps the makespan but its exposure can part by a few percent:
//! the step model takes the chunks to be alike.
//! Large steps are summarised: layers are drawn in groups, and the middle
//! of a long run of micro-batches as one block per stream, so that a
//! timeline has at most a few thousand intervals.

mod draw;
mod order;
mod pass;
mod schedule;
pub mod trace;

pub use order::micro_batch_group;
pub use schedule::simulated_passes;
pub(crate) use schedule::{critical_path, makespan};

use crate::error::Error;
use crate::evaluate::Step;
use crate::scenario::{Config, Schedule};
use alloc::vec::Vec;
use serde::Serialize;

/// Where an interval runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stream {
    /// Compute kernels (and the GPU waiting on the host or a neighbour).
    Compute,
    /// Tensor-parallel collectives.
    Tensor,
    /// Data-parallel collectives.
    Data,
    /// Context-parallel key/value exchanges.
    Context,
    /// Pipeline receives from the neighbouring stage.
    Pipeline,
    /// Expert-parallel All-to-All (an MoE layer's dispatch and combine).
    Experts,
}

impl Stream {
    /// Every stream, in the order a timeline draws them.
    pub const ALL: [Stream; 6] = [
        Stream::Compute,
        Stream::Tensor,
        Stream::Experts,
        Stream::Context,
        Stream::Data,
        Stream::Pipeline,
    ];

    /// The stream's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stream::Compute => "compute",
            Stream::Tensor => "tensor parallel",
            Stream::Data => "data parallel",
            Stream::Context => "context parallel",
            Stream::Pipeline => "pipeline",
            Stream::Experts => "expert parallel",
        }
    }
}

/// What an interval is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Forward compute of layers (stretched where traffic runs beside it).
    Forward,
    /// Backward compute of layers, with any recomputation (under a
    /// zero-bubble schedule, the input gradients: B).
    Backward,
    /// The weight gradients of layers, run as their own pass (W) by a
    /// zero-bubble schedule.
    WeightGradient,
    /// The output head and loss (the last stage; ZB-V's first).
    Head,
    /// Compute slowed by once-per-step traffic beside it.
    Contention,
    /// The optimizer step.
    Optimizer,
    /// The GPU idle on its host: while it dispatches the next kernels, or
    /// while offloaded activations cross a host link slower than the
    /// layers beside them.
    Host,
    /// The stage idle, waiting for a neighbour (the pipeline's bubble).
    Wait,
    /// A tensor-parallel collective (AllReduce, or AllGather and
    /// ReduceScatter with sequence parallelism).
    TensorCollective,
    /// A context-parallel key/value exchange.
    ContextExchange,
    /// An MoE layer's All-to-All: tokens dispatched to their experts' GPUs
    /// and combined back.
    AllToAll,
    /// A data-parallel parameter AllGather.
    AllGather,
    /// A data-parallel gradient ReduceScatter.
    ReduceScatter,
    /// A data-parallel gradient AllReduce.
    AllReduce,
    /// Activations or gradients arriving from the neighbouring stage.
    Receive,
}

impl Kind {
    /// Whether the interval is compute (as a trace counts it).
    #[must_use]
    pub fn is_compute(self) -> bool {
        matches!(
            self,
            Kind::Forward
                | Kind::Backward
                | Kind::WeightGradient
                | Kind::Head
                | Kind::Contention
                | Kind::Optimizer
        )
    }

    /// The kind's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Forward => "forward",
            Kind::Backward => "backward",
            Kind::WeightGradient => "weight gradient",
            Kind::Head => "output head",
            Kind::Contention => "compute slowed by traffic",
            Kind::Optimizer => "optimizer",
            Kind::Host => "waiting on the host",
            Kind::Wait => "pipeline bubble",
            Kind::TensorCollective => "tensor-parallel collective",
            Kind::ContextExchange => "context-parallel exchange",
            Kind::AllToAll => "All-to-All",
            Kind::AllGather => "AllGather",
            Kind::ReduceScatter => "ReduceScatter",
            Kind::AllReduce => "AllReduce",
            Kind::Receive => "receive",
        }
    }
}

/// A pass another stage runs, which an interval waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pass {
    /// The stage running it.
    pub stage: u32,
    /// Its micro-batch.
    pub micro_batch: u32,
    /// Its model chunk (interleaved schedules have more than one).
    pub chunk: u32,
    /// Whether it is a backward pass.
    pub backward: bool,
}

/// One interval on one stream.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Where it runs.
    pub stream: Stream,
    /// What it is.
    pub kind: Kind,
    /// Start, seconds from the step's start.
    pub start_s: f64,
    /// End, seconds from the step's start.
    pub end_s: f64,
    /// The micro-batches it belongs to (first and last; one for a single
    /// pass, a range for a summarised block), or none for step-level work.
    pub micro_batches: Option<(u32, u32)>,
    /// The model chunk.
    pub chunk: u32,
    /// The stage's layers it covers (first and last, from 1), if any.
    pub layers: Option<(u32, u32)>,
    /// What it waits for (a bubble or a receive), if anything.
    pub waits_for: Option<Pass>,
}

impl Interval {
    /// Its duration, seconds.
    #[must_use]
    pub fn duration(&self) -> f64 {
        self.end_s - self.start_s
    }
}

/// One pipeline stage's timeline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageTimeline {
    /// The stage (0 is the first).
    pub stage: u32,
    /// The layers it holds.
    pub layers: u32,
    /// Whether it is the stage the step model reports (the slowest).
    pub slowest: bool,
    /// Its intervals, stream by stream, each stream in time order.
    pub intervals: Vec<Interval>,
    /// Time some compute kernel runs, seconds.
    pub compute_s: f64,
    /// Time the GPU waits on the host, seconds.
    pub host_s: f64,
    /// Time tensor-, context- or data-parallel communication runs with no
    /// compute beside it, seconds.
    pub exposed_comm_s: f64,
    /// Everything else: waiting for a neighbour, in a receive or idle
    /// (with the exposure, what a profiler trace counts as exposed).
    pub waiting_s: f64,
    /// When tensor-, context- or data-parallel communication runs with no
    /// compute beside it: (start, end) in seconds, in order.
    pub exposed: Vec<(f64, f64)>,
}

/// The step as intervals on each stream of the stages that matter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timeline {
    /// The step's makespan, seconds.
    pub step_s: f64,
    /// Pipeline stages.
    pub pp: u32,
    /// Micro-batches per step.
    pub micro_batches: u32,
    /// Model chunks per stage.
    pub chunks: u32,
    /// The pipeline schedule.
    pub schedule: Schedule,
    /// Layers drawn per group.
    pub layers_per_group: u32,
    /// Micro-batches drawn pass by pass at each end of the step; those in
    /// between are one block per stream.
    pub detailed_passes: u32,
    /// The first stage and, with a pipeline, the last.
    pub stages: Vec<StageTimeline>,
}

impl Timeline {
    /// Every interval of every stage drawn.
    pub fn intervals(&self) -> impl Iterator<Item = (u32, &Interval)> {
        self.stages
            .iter()
            .flat_map(|s| s.intervals.iter().map(move |i| (s.stage, i)))
    }
}

/// The timeline of `cfg`'s step.
///
/// ```
/// use scalescope_core::{evaluate::evaluate, scenario::Scenario, timeline::timeline};
/// let cfg = Scenario::example().to_config()?;
/// let t = timeline(&cfg)?;
/// let step = evaluate(&cfg)?.step_time_s;
/// assert!((t.step_s - step).abs() < 0.02 * step);
/// # Ok::<(), scalescope_core::error::Error>(())
/// ```
///
/// # Errors
/// Whatever [`Config::check`] refuses.
pub fn timeline(cfg: &Config) -> Result<Timeline, Error> {
    cfg.check()?;
    Ok(timeline_checked(cfg))
}

/// [`timeline`] of a configuration that passed [`Config::check`].
#[must_use]
pub fn timeline_checked(cfg: &Config) -> Timeline {
    let step = Step::new(cfg);
    schedule::lay_out(&step, cfg.pipeline_split())
}

/// The spans of the intervals `keep` picks, sorted by start and merged
/// where they touch or overlap.
fn merged(intervals: &[Interval], keep: impl Fn(&Interval) -> bool) -> Vec<(f64, f64)> {
    merge(
        intervals
            .iter()
            .filter(|i| keep(i))
            .map(|i| (i.start_s, i.end_s))
            .collect(),
    )
}

/// `spans` sorted by start and merged where they touch or overlap. Apart
/// from [`merged`], which is generic, so that one sort serves every caller
/// (the order of equal starts does not change the merge).
fn merge(mut spans: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    spans.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (a, b) in spans {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Seconds of `spans` covered by none of `cover` (both sorted by start
/// and, within each, not overlapping).
fn uncovered(spans: &[(f64, f64)], cover: &[(f64, f64)]) -> f64 {
    uncovered_spans(spans, cover)
        .iter()
        .map(|(a, b)| b - a)
        .sum()
}

/// The parts of `spans` covered by none of `cover` (both sorted by start
/// and, within each, not overlapping), in order.
fn uncovered_spans(spans: &[(f64, f64)], cover: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut j = 0;
    for &(a, b) in spans {
        let mut at = a;
        while j < cover.len() && cover[j].1 <= at {
            j += 1;
        }
        let mut k = j;
        while at < b {
            match cover.get(k) {
                Some(&(c0, c1)) if c0 < b => {
                    if c0 > at {
                        out.push((at, c0));
                    }
                    at = at.max(c1);
                    k += 1;
                }
                _ => {
                    out.push((at, b));
                    at = b;
                }
            }
        }
    }
    out
}

/// A stage's measures, from its intervals: compute, host waits, exposed
/// communication and the rest of the makespan.
fn measure(stage: &mut StageTimeline, step: f64) {
    // Traffic beside the GPU waiting on the host is counted as the host's
    // wait, as the step model counts it.
    let cover = merged(&stage.intervals, |i| {
        i.kind.is_compute() || i.kind == Kind::Host
    });
    let compute_s: f64 = cover.iter().map(|(a, b)| b - a).sum();
    let comm = merged(&stage.intervals, |i| {
        matches!(
            i.stream,
            Stream::Tensor | Stream::Data | Stream::Context | Stream::Experts
        )
    });
    let host_s = stage
        .intervals
        .iter()
        .filter(|i| i.kind == Kind::Host)
        .map(Interval::duration)
        .sum();
    stage.compute_s = compute_s - host_s;
    stage.host_s = host_s;
    stage.exposed = uncovered_spans(&comm, &cover);
    stage.exposed_comm_s = stage.exposed.iter().map(|(a, b)| b - a).sum();
    // `compute_s` covers the host waits too.
    stage.waiting_s = (step - compute_s - stage.exposed_comm_s).max(0.0);
}
