//! One pass (a micro-batch's forward or backward through one model chunk
//! of a stage) as intervals, layer group by layer group, from the step
//! model's per-layer costs.

use super::{Interval, Kind, Stream};
use crate::evaluate::Step;
use crate::phases::{Bucketed, DataParallelCost};
use crate::scenario::DataParallel;
use alloc::vec::Vec;

/// Per-layer costs of one direction (forward or backward), seconds.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Direction {
    /// Compute kernels, stretched by the context-parallel sends beside them.
    pub compute: f64,
    /// The GPU waiting on the host.
    pub host: f64,
    /// Tensor-parallel collectives that block (in backward, what outlasts
    /// the weight-gradient GEMMs beside them).
    pub tp: f64,
    /// Blocking expert-parallel All-to-All.
    pub a2a: f64,
    /// Context-parallel exchange, all of it.
    pub cp_total: f64,
    /// What of it shows after the attention.
    pub cp_exposed: f64,
    /// Sharded data-parallel traffic beside one layer (per micro-batch).
    pub dp: f64,
    /// The compute it stretches.
    pub dp_stretch: f64,
    /// What of it shows.
    pub dp_exposed: f64,
}

/// What a stage's passes are made of.
#[derive(Clone, Copy, Debug)]
pub(super) struct Recipe {
    /// The stage's layers.
    pub layers: u32,
    /// Model chunks per stage.
    pub chunks: u32,
    /// Whether the stage runs the output head.
    pub head: bool,
    /// Forward costs per layer.
    pub fwd: Direction,
    /// Backward costs per layer.
    pub bwd: Direction,
    /// Of each layer's backward, the weight gradient's compute, which a
    /// zero-bubble schedule runs as its own pass (0 where the backward is
    /// one pass).
    pub weight: f64,
    /// The output head's forward and backward.
    pub head_fwd: f64,
    /// The head's backward.
    pub head_bwd: f64,
    /// Whether sharded traffic runs in every micro-batch (otherwise only in
    /// the first forward and the last backward, or not at all).
    pub sharded_every_pass: bool,
    /// The first gather, exposed whole.
    pub first: f64,
    /// The last scatter, exposed whole.
    pub last: f64,
    /// Buckets beside the first forward (ZeRO-1's gather).
    pub buckets_fwd: Bucketed,
    /// Buckets behind the last backward.
    pub buckets_bwd: Bucketed,
    /// The collective of the backward buckets.
    pub bucket_kind: Kind,
    /// The optimizer step.
    pub optimizer: f64,
    /// Sharded traffic paid once per step before the first pass: what
    /// shows, and the compute it stretches.
    pub once_fwd: (f64, f64),
    /// And after the last pass.
    pub once_bwd: (f64, f64),
}

impl Recipe {
    /// The recipe of a stage of `layers` layers (with the head if `head`).
    pub fn of(step: &Step, layers: u32, head: bool) -> Recipe {
        let cfg = &step.cfg;
        let ls = f64::from(layers.max(1));
        let stage = step.stage(layers, head);
        let dp: DataParallelCost = stage.dp;
        let sharded = matches!(
            cfg.layout.parallel.dp,
            DataParallel::Fsdp | DataParallel::FsdpFull | DataParallel::Hsdp
        );
        let l = dp.layer;
        let recompute = step.layer.recompute(
            cfg.layout.recompute,
            cfg.layout.recompute_modules,
            &cfg.stack,
        );
        let cp = &step.context;
        let fwd = Direction {
            compute: (step.layer.forward() + cp.stretch_fwd + step.a2a.stretch_fwd).0,
            host: step.host_fwd.0,
            tp: step.tensor.fwd.0,
            a2a: step.a2a.fwd.0,
            cp_total: cp.fwd.total.0,
            cp_exposed: cp.fwd.exposed.0,
            dp: l.fwd.0,
            dp_stretch: l.fwd_stretch.0,
            dp_exposed: l.fwd_exposed.0,
        };
        let bwd = Direction {
            compute: (step.layer.backward()
                + recompute
                + cp.stretch_bwd
                + step.a2a.stretch_bwd
                + step.tensor.stretch_bwd)
                .0,
            host: step.host_bwd.0,
            tp: (step.tensor.bwd.exposed + step.tensor.recompute).0,
            a2a: (step.a2a.bwd + step.a2a.recompute(cfg.layout.recompute)).0,
            cp_total: cp.bwd.total.0,
            cp_exposed: cp.bwd.exposed.0,
            dp: l.bwd.0,
            dp_stretch: l.bwd_stretch.0,
            dp_exposed: l.bwd_exposed.0,
        };
        Recipe {
            layers: layers.max(1),
            chunks: step.v as u32,
            head,
            fwd,
            bwd,
            // The weight-gradient GEMMs do the forward GEMMs' FLOPs again
            // (dW = X^T dY against Y = X W).
            weight: if cfg.layout.parallel.splits_backward() {
                step.layer.gemm.0
            } else {
                0.0
            },
            head_fwd: if head { step.head_fwd.0 } else { 0.0 },
            head_bwd: if head { step.head_fwd.0 * 2.0 } else { 0.0 },
            sharded_every_pass: sharded && !dp.once,
            first: l.first.0,
            last: l.last.0,
            buckets_fwd: dp.buckets_fwd,
            buckets_bwd: dp.buckets_bwd,
            bucket_kind: if cfg.layout.parallel.dp == DataParallel::Zero1 {
                Kind::ReduceScatter
            } else {
                Kind::AllReduce
            },
            optimizer: stage.breakdown.optimizer.0,
            once_fwd: if dp.once {
                (
                    l.first.0 + l.fwd_exposed.0 * (ls - 1.0),
                    l.fwd_stretch.0 * (ls - 1.0),
                )
            } else {
                (0.0, 0.0)
            },
            once_bwd: if dp.once {
                (
                    l.last.0 + l.bwd_exposed.0 * (ls - 1.0),
                    l.bwd_stretch.0 * (ls - 1.0),
                )
            } else {
                (0.0, 0.0)
            },
        }
    }

    /// The stage's layers in chunk `c` (first and last, from 1; the last
    /// before the first when the chunk is empty, a stage with fewer layers
    /// than chunks). Layers that do not divide over the chunks are spread
    /// as evenly as they go; the stage that runs the output head puts its
    /// larger chunks first and leaves the smallest last, beside the head,
    /// as Megatron-Core does when it counts the loss as a layer
    /// (`account_for_loss_in_pipeline_split`: 126 layers and the loss on
    /// 16 stages of 4 chunks put one layer and the loss in the last chunk)
    /// and torchtitan when the output weighs a layer; other stages leave
    /// their larger chunks last.
    pub fn chunk_layers(&self, c: u32) -> (u32, u32) {
        let v = u64::from(self.chunks.max(1));
        let layers = u64::from(self.layers);
        let (each, more) = (layers / v, layers % v);
        let end = |k: u32| {
            let k = u64::from(k);
            let at = if self.head {
                each * k + k.min(more)
            } else {
                layers * k / v
            };
            u32::try_from(at).unwrap_or(0)
        };
        (end(c) + 1, end(c + 1))
    }
}

/// A pass to lay out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    /// Backward (or forward).
    pub backward: bool,
    /// Of a backward split in two (zero-bubble schedules), the weight
    /// gradient (W) rather than the input gradient (B).
    pub weight: bool,
    /// Micro-batch.
    pub mb: u32,
    /// Model chunk.
    pub chunk: u32,
}

/// Where a pass's intervals go, and how finely.
pub(super) struct Sink<'a> {
    /// The intervals (none are kept when only the span is wanted).
    pub out: Option<&'a mut Vec<Interval>>,
    /// Layers per group.
    pub group: u32,
}

impl Sink<'_> {
    fn push(
        &mut self,
        stream: Stream,
        kind: Kind,
        span: (f64, f64),
        op: Op,
        layers: Option<(u32, u32)>,
    ) {
        if span.1 <= span.0 {
            return;
        }
        if let Some(out) = self.out.as_deref_mut() {
            out.push(Interval {
                stream,
                kind,
                start_s: span.0,
                end_s: span.1,
                micro_batches: Some((op.mb, op.mb)),
                chunk: op.chunk,
                layers,
                waits_for: None,
            });
        }
    }
}

/// What follows a group of `g` layers' compute over `span` in direction
/// `d`: the context-parallel exchange's exposed end, the tensor
/// collectives that block, the All-to-All, and the GPU waiting on the host, one
/// after another. Returns when the last ends.
fn blocking(
    sink: &mut Sink,
    d: &Direction,
    g: f64,
    (t, computed): (f64, f64),
    op: Op,
    layers: (u32, u32),
) -> f64 {
    let cp_end = computed + g * d.cp_exposed;
    let mut at = cp_end;
    sink.push(
        Stream::Context,
        Kind::ContextExchange,
        ((cp_end - g * d.cp_total).max(t), cp_end),
        op,
        Some(layers),
    );
    for (stream, kind, len) in [
        (Stream::Tensor, Kind::TensorCollective, d.tp),
        (Stream::Experts, Kind::AllToAll, d.a2a),
        (Stream::Compute, Kind::Host, d.host),
    ] {
        sink.push(stream, kind, (at, at + g * len), op, Some(layers));
        at += g * len;
    }
    at
}

/// Lays out `op` on a stage made by `r`, from `t`, with sharded traffic
/// if `traffic`. Returns when its compute is done (what the neighbour
/// waits for) and when the stage is free again.
pub(super) fn lay_out(r: &Recipe, op: Op, t: f64, traffic: bool, sink: &mut Sink) -> (f64, f64) {
    let (lo, hi) = r.chunk_layers(op.chunk);
    if op.weight {
        // The weight gradients of the chunk's layers: GEMMs alone, no
        // traffic (the step model keeps the gradients' reduction with B).
        let end = t + f64::from((hi + 1).saturating_sub(lo)) * r.weight;
        sink.push(
            Stream::Compute,
            Kind::WeightGradient,
            (t, end),
            op,
            Some((lo, hi)),
        );
        return (end, end);
    }
    let last_chunk = op.chunk + 1 == r.chunks.max(1);
    let d = if op.backward { &r.bwd } else { &r.fwd };
    // What of a layer's backward compute its B pass keeps.
    let own = if op.backward {
        d.compute - r.weight
    } else {
        d.compute
    };
    let mut t = t;
    if op.backward && r.head && last_chunk {
        sink.push(Stream::Compute, Kind::Head, (t, t + r.head_bwd), op, None);
        t += r.head_bwd;
    }
    // The first gather (and the last scatter) of a micro-batch have nothing
    // to hide behind; with several chunks, each chunk's share.
    let share = 1.0 / f64::from(r.chunks.max(1));
    if !op.backward && traffic {
        sink.push(
            Stream::Data,
            Kind::AllGather,
            (t, t + r.first * share),
            op,
            Some((lo, lo)),
        );
        t += r.first * share;
    }
    let group = sink.group.max(1);
    let groups = if hi < lo { 0 } else { (hi - lo) / group + 1 };
    for k in 0..groups {
        // Forward runs layers up, backward down.
        let (a, b) = if op.backward {
            let b = hi - k * group;
            (b.saturating_sub(group - 1).max(lo), b)
        } else {
            let a = lo + k * group;
            (a, (a + group - 1).min(hi))
        };
        let g = f64::from(b - a + 1);
        // The stage's last layer hides no gather in the forward; its
        // first backward layer has no traffic beside it yet. With several
        // chunks, each chunk's end carries its share of that layer, as the
        // step model takes the chunks to be alike.
        let edge = if op.backward { k == 0 } else { k + 1 == groups };
        let hidden = if traffic {
            g - if edge { share } else { 0.0 }
        } else {
            0.0
        };
        let compute = g * own + hidden * d.dp_stretch;
        let kind = if op.backward {
            Kind::Backward
        } else {
            Kind::Forward
        };
        sink.push(Stream::Compute, kind, (t, t + compute), op, Some((a, b)));
        let host_end = blocking(sink, d, g, (t, t + compute), op, (a, b));
        // The next group waits for its gather (or the backlog of scatters),
        // which ran beside this group's compute and ends with it.
        let end = host_end + hidden * d.dp_exposed;
        let dp_kind = if op.backward {
            Kind::ReduceScatter
        } else {
            Kind::AllGather
        };
        sink.push(
            Stream::Data,
            dp_kind,
            ((end - hidden * d.dp).max(t), end),
            op,
            Some((a, b)),
        );
        t = end;
    }
    if !op.backward && r.head && last_chunk {
        sink.push(Stream::Compute, Kind::Head, (t, t + r.head_fwd), op, None);
        t += r.head_fwd;
    }
    let done = t;
    if op.backward && traffic {
        sink.push(
            Stream::Data,
            Kind::ReduceScatter,
            (t, t + r.last * share),
            op,
            Some((lo, lo)),
        );
        t += r.last * share;
    }
    // Scattered every micro-batch, the last scatter is part of the pass
    // (ZeRO-2 semantics, as the step model counts it in the bubble); once
    // per step, the neighbour does not wait for it.
    (if r.sharded_every_pass { t } else { done }, t)
}
