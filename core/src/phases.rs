//! The phases of one training step, each a function of its inputs, in the
//! order the breakdown names them: per-layer compute, tensor-parallel and
//! context-parallel communication, the host's dispatch, data-parallel
//! traffic and pipeline sends. [`crate::evaluate`] puts them together, one
//! pipeline stage at a time.

use crate::calibration as cal;
use crate::collective::{self, Collective, Group, Links};
use crate::evaluate::Comm;
use crate::model::Mlp;
use crate::scenario::{Config, DataParallel, Precision, Recompute};
use crate::stack::{DpOverlap, FsdpSync, Placement};
use crate::units::{Bandwidth, Bytes, Seconds};

pub(crate) use crate::pipeline::{pipeline, pipeline_send};

/// Compute time of one layer for one micro-batch on one GPU.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LayerCompute {
    /// Forward GEMMs.
    pub gemm: Seconds,
    /// Forward attention kernel.
    pub attention: Seconds,
    /// Forward element-wise (memory-bound) kernels.
    pub elementwise: Seconds,
}

impl LayerCompute {
    pub fn forward(&self) -> Seconds {
        self.gemm + self.attention + self.elementwise
    }
    pub fn backward(&self) -> Seconds {
        self.gemm * 2.0
            + self.attention * cal::ATTENTION_BACKWARD_FACTOR
            + self.elementwise * cal::BACKWARD_ELEMENTWISE_FACTOR
    }
    /// What a recomputation reruns in backward: everything for full; for
    /// selective, the core attention where its scores are materialised
    /// (Korthikanti et al.), the element-wise kernels under FlashAttention.
    pub fn recompute(&self, r: Recompute, flash: bool) -> Seconds {
        match r {
            Recompute::None => Seconds(0.0),
            Recompute::Selective if flash => self.elementwise,
            Recompute::Selective => self.attention,
            Recompute::Full => self.forward(),
        }
    }
}

/// Communication of `comm` seconds started beside `work` seconds of compute,
/// where compute runs at `1 - slowdown` of its speed while both run.
/// Returns the exposed communication and the compute's stretch; the span
/// of the pair is `work + exposed + stretch`.
pub(crate) fn overlap(comm: Seconds, work: Seconds, slowdown: f64) -> (Seconds, Seconds) {
    let zero = Seconds(0.0);
    let comm = comm.max(zero);
    let work = work.max(zero);
    let stretched = work / (1.0 - slowdown);
    if comm.0 >= stretched.0 {
        (comm - stretched, stretched - work)
    } else {
        (zero, comm * slowdown)
    }
}

/// What the phases read of one micro-batch on one GPU.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Tokens one GPU holds per micro-batch (`b × s ÷ cp`).
    pub tokens: f64,
    /// Context length.
    pub seq: f64,
    /// Tensor-parallel degree.
    pub tp: f64,
    /// Context-parallel degree.
    pub cp: f64,
    /// What sequence parallelism divides hidden-sized work by (TP, or 1).
    pub sp_div: f64,
    /// Dense peak of the matmul precision, FLOP/s.
    pub peak_mm: f64,
    /// HBM bandwidth element-wise kernels reach.
    pub hbm: Bandwidth,
}

impl Shape {
    pub fn of(cfg: &Config) -> Self {
        let gpu = &cfg.cluster.gpu;
        let p = cfg.layout.parallel;
        let (tp, cp) = (f64::from(p.tp), f64::from(p.cp));
        let seq = f64::from(cfg.seq_len);
        Self {
            tokens: f64::from(cfg.layout.micro_batch) * seq / cp,
            seq,
            tp,
            cp,
            sp_div: if p.sp { tp } else { 1.0 },
            peak_mm: match cfg.precision {
                Precision::Fp8 => gpu.peak_fp8.0,
                Precision::Fp4 => gpu.peak_fp4.0,
                Precision::Bf16 | Precision::Fp16 => gpu.peak_bf16.0,
            },
            hbm: gpu.hbm_bandwidth * cal::HBM_EFFICIENCY,
        }
    }
}

/// Per-layer compute of one micro-batch (GEMMs; attention, fused or
/// through the score matrix; element-wise passes, each on the tensor it
/// acts on), and the output head's forward on the last stage.
pub(crate) fn compute(cfg: &Config, s: &Shape) -> (LayerCompute, Seconds) {
    let gpu = &cfg.cluster.gpu;
    let model = &cfg.model;
    let stack = &cfg.stack;
    let (tokens, tp, cp) = (s.tokens, s.tp, s.cp);
    let h = f64::from(model.hidden);
    let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US);
    // Attention kernels see a key and value length of `seq / cp` (one ring
    // step under context parallelism); a causal mask halves the scores.
    let kv_len = s.seq / cp;
    let kernel = if stack.te_attention {
        gpu.te_attention_efficiency
    } else {
        gpu.attention_efficiency
    };
    let attention_efficiency = kernel * kv_len / (kv_len + cal::ATTENTION_HALF_LENGTH);
    // The layer's four GEMMs, each `tokens x n x k` on this TP rank, at
    // the rate its shape reaches: QKV, the output projection, the MLP's
    // up (and gate) projection and its down projection. Backward's two
    // GEMMs per weight have the same dimensions, permuted.
    // fp4 GEMMs weigh their epilogue as fp8's and reach a fitted share of
    // fp8's efficiency (no published fp4 GEMM table measures them).
    let fp8 = matches!(cfg.precision, Precision::Fp8 | Precision::Fp4);
    let fp4 = if cfg.precision == Precision::Fp4 {
        gpu.gemm_shape.fp4_share
    } else {
        1.0
    };
    let shape = &gpu.gemm_shape;
    let kv = model.kv_dim();
    let ffn = f64::from(model.ffn);
    let up = match model.mlp {
        Mlp::Swiglu => 2.0,
        Mlp::Gelu => 1.0,
    };
    let gemm = |m: f64, n: f64, k: f64| {
        2.0 * m * n * k / (s.peak_mm * gpu.gemm_efficiency * fp4 * shape.factor(m, n, k, fp8))
    };
    let gemm_time = |n: f64, k: f64| gemm(tokens, n, k);
    // A model of MoE layers keeps the dense MLP on its other layers only;
    // the experts' share is costed in `experts`. Queries and the attention
    // output are `q_dim` wide (`h` in most models); latent attention runs
    // its projections as one GEMM of their size.
    let dense = 1.0 - model.moe_share();
    let qkv = match model.latent {
        Some(_) => (model.attention_params() - model.q_dim() * h) / h,
        None => model.q_dim() + 2.0 * kv,
    };
    let moe = crate::experts::compute(cfg, s, &gemm);
    let gemms = gemm_time(qkv / tp, h)
        + gemm_time(h, model.q_dim() / tp)
        + (gemm_time(up * ffn / tp, h) + gemm_time(h, ffn / tp)) * dense
        + moe.gemm.0;
    let attn_flops = 2.0 * tokens * s.seq * model.attention_dim() / tp;
    // Norms and residual adds on the hidden state (split by sequence
    // parallelism), rotary on the local queries and keys, the MLP
    // activation on the local FFN width; ring attention merges each step's
    // partial output into the running one (three passes).
    let activation_passes = match model.mlp {
        Mlp::Swiglu => stack.activation_passes,
        Mlp::Gelu => cal::GELU_PASSES,
    };
    let ew_elements = (2.0 * stack.norm_passes + cal::RESIDUAL_PASSES) * tokens * h / s.sp_div
        + stack.rotary_passes * tokens * (model.q_dim() + model.kv_dim()) / tp
        + 3.0 * (cp - 1.0) * tokens * h / tp
        + activation_passes * tokens * f64::from(model.ffn) / tp * dense
        + activation_passes * moe.activation
        + moe.moved;
    // Without FlashAttention the score matrix is computed in full (the mask
    // applies afterwards) by two batched GEMMs, and element-wise kernels
    // pass over it.
    let attention = if stack.flash_attention {
        Seconds(attn_flops / (gpu.peak_bf16.0 * attention_efficiency)) + t0 * cp
    } else {
        let scores = tokens * kv_len * f64::from(model.heads) / tp;
        Seconds(2.0 * attn_flops / (gpu.peak_bf16.0 * gpu.gemm_efficiency))
            + Bytes(2.0 * cal::SCORE_PASSES * scores) / s.hbm
            + t0 * 2.0
    };
    let layer = LayerCompute {
        gemm: Seconds(gemms) + t0 * cal::GEMMS_PER_LAYER,
        attention,
        elementwise: Bytes(2.0 * ew_elements) / s.hbm
            + Seconds::us(cal::ELEMENTWISE_KERNEL_US)
                * (stack.elementwise_kernels + 2.0 * (cp - 1.0) + moe.kernels),
    };
    let vocab = f64::from(model.vocab);
    let head_fwd =
        Seconds(gemm_time(vocab / tp, h)) + Bytes(3.0 * 4.0 * tokens * vocab / tp) / s.hbm + t0;
    (layer, head_fwd)
}

/// Tensor-parallel collectives of one layer, all blocking.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tensor {
    /// Forward: two AllReduces (or AllGather and ReduceScatter pairs).
    pub fwd: Seconds,
    /// Backward: two more.
    pub bwd: Seconds,
    /// The forward's again, under full recomputation.
    pub recompute: Seconds,
}

/// The tensor-parallel collectives of one layer on 2 × T × h bytes of
/// activations: AllReduce, or AllGather plus ReduceScatter with sequence
/// parallelism.
pub(crate) fn tensor(cfg: &Config, s: &Shape, links: &Links) -> Tensor {
    let p = cfg.layout.parallel;
    let group = Group::new(p.tp, p.tp.min(cfg.cluster.domain()));
    let bytes = Bytes(2.0 * s.tokens * f64::from(cfg.model.hidden));
    let one = if p.sp {
        collective::time(Collective::AllGather, bytes, group, links).time
            + collective::time(Collective::ReduceScatter, bytes, group, links).time
    } else {
        collective::time(Collective::AllReduce, bytes, group, links).time
    };
    Tensor {
        fwd: one * 2.0,
        bwd: one * 2.0,
        recompute: if cfg.layout.recompute == Recompute::Full {
            one * 2.0
        } else {
            Seconds(0.0)
        },
    }
}

/// Context-parallel exchanges of one layer.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Context {
    /// Forward sends, and what of them shows.
    pub fwd: Comm,
    /// Backward sends (keys, values and their gradients).
    pub bwd: Comm,
    /// Attention stretched by the forward sends beside it.
    pub stretch_fwd: Seconds,
    /// Attention stretched by the backward sends.
    pub stretch_bwd: Seconds,
}

/// The ring of key/value exchanges of one layer, each beside one block of
/// the attention (`attention` is the layer's forward attention time).
pub(crate) fn context(
    cfg: &Config,
    s: &Shape,
    links: &Links,
    attention: Seconds,
    slowdown: f64,
) -> Context {
    let p = cfg.layout.parallel;
    if p.cp <= 1 {
        return Context::default();
    }
    let model = &cfg.model;
    let kv_local = (f64::from(model.kv_heads) / s.tp).max(1.0) * model.head_dim();
    let kv_bytes = Bytes(2.0 * 2.0 * s.tokens * kv_local);
    let same_node = p.tp.saturating_mul(p.cp) <= cfg.cluster.domain();
    let send = collective::send_recv(kv_bytes, same_node, links);
    let block_f = attention / s.cp;
    let block_b = block_f * cal::ATTENTION_BACKWARD_FACTOR;
    let steps = s.cp - 1.0;
    let (exp_f, con_f) = overlap(send, block_f, slowdown);
    let (exp_b, con_b) = overlap(send * 2.0, block_b, slowdown);
    Context {
        fwd: Comm::new(send * steps, exp_f * steps),
        bwd: Comm::new(send * (2.0 * steps), exp_b * steps),
        stretch_fwd: con_f * steps,
        stretch_bwd: con_b * steps,
    }
}

/// Kernels the host dispatches for one layer, forward and backward: the
/// stack's element-wise kernels, the GEMMs, attention, the TP collectives
/// and each CP ring step's kernels, and what recomputation reruns.
pub(crate) fn kernels(cfg: &Config) -> (f64, f64) {
    let p = cfg.layout.parallel;
    let stack = &cfg.stack;
    let tp_kernels = if p.tp > 1 { 2.0 } else { 0.0 };
    let cp_kernels = cal::CP_KERNELS_PER_STEP * (f64::from(p.cp) - 1.0);
    let moe = if cfg.model.moe.is_some() {
        cal::MOE_KERNELS * cfg.model.moe_share()
    } else {
        0.0
    };
    let fwd =
        stack.elementwise_kernels + cal::GEMMS_PER_LAYER + 1.0 + tp_kernels + cp_kernels + moe;
    let bwd = 2.0 * (stack.elementwise_kernels + cal::GEMMS_PER_LAYER + moe)
        + 1.0
        + tp_kernels
        + 2.0 * cp_kernels
        + match cfg.layout.recompute {
            Recompute::Full => fwd,
            Recompute::Selective => stack.elementwise_kernels,
            Recompute::None => 0.0,
        };
    (fwd, bwd)
}

/// The data-parallel shard group: DP x CP ranks (CP ranks hold the same
/// parameters), and how many of them share a node under the stack's
/// placement.
pub(crate) fn shard_group(cfg: &Config) -> (u32, u32) {
    let p = cfg.layout.parallel;
    let ranks = cfg.dp().saturating_mul(p.cp);
    let inner = match cfg.stack.placement {
        Placement::ModelParallelInNode => p.tp.saturating_mul(p.pp),
        Placement::PipelineOutermost => p.tp,
    };
    let per_node = (cfg.cluster.domain() / inner.max(1)).clamp(1, ranks.max(1));
    (ranks, per_node)
}

/// A stage's data-parallel traffic over one step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DataParallelCost {
    /// Parameter AllGathers.
    pub allgather: Comm,
    /// Gradient ReduceScatters.
    pub reduce_scatter: Comm,
    /// Gradient AllReduces.
    pub allreduce: Comm,
    /// What sharded traffic exposes per micro-batch (inside the pipeline's
    /// micro-batch time unless it syncs once per step).
    pub per_mb_exposed: Seconds,
    /// Compute stretched by sharded traffic per micro-batch.
    pub per_mb_stretch: Seconds,
    /// Compute stretched by bucketed traffic, over the step.
    pub stretch: Seconds,
    /// Whether the sharded traffic is paid once per step.
    pub once: bool,
    /// Sharded traffic of one layer and micro-batch, as it runs (for the
    /// step's timeline).
    pub layer: ShardedLayer,
    /// Traffic bucketed once per step beside the forward (ZeRO-1's
    /// parameter gather).
    pub buckets_fwd: Bucketed,
    /// Traffic bucketed once per step beside the backward (DDP's and
    /// HSDP's AllReduce, ZeRO-1's ReduceScatter).
    pub buckets_bwd: Bucketed,
}

/// What data parallelism adds to one micro-batch through a stage: the
/// first gather and last scatter, and per layer after the first what its
/// traffic exposes and stretches (nothing when it is paid once per step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PerMicroBatch {
    /// The first gather and the last scatter.
    pub edges: Seconds,
    /// Each layer after the first.
    pub per_layer: Seconds,
}

impl PerMicroBatch {
    /// What `dp` adds to one micro-batch.
    pub(crate) fn of(dp: &DataParallelCost) -> Self {
        let l = &dp.layer;
        if dp.once {
            PerMicroBatch {
                edges: Seconds(0.0),
                per_layer: Seconds(0.0),
            }
        } else {
            PerMicroBatch {
                edges: l.first + l.last,
                per_layer: l.fwd_exposed + l.bwd_exposed + l.fwd_stretch + l.bwd_stretch,
            }
        }
    }
}

/// Sharded data-parallel traffic of one layer and micro-batch: the gather
/// prefetched beside the forward, the traffic beside the backward, what
/// each exposes and stretches, and the first gather and last scatter,
/// which have nothing to hide behind.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShardedLayer {
    /// One layer's gather in the forward.
    pub fwd: Seconds,
    /// One layer's traffic in the backward (its scatter, and the next
    /// layer's gather under full sharding).
    pub bwd: Seconds,
    /// What a gather exposes beside one layer's forward, and the stretch.
    pub fwd_exposed: Seconds,
    /// The compute stretched beside one layer's forward.
    pub fwd_stretch: Seconds,
    /// What the backward traffic exposes beside one layer's backward.
    pub bwd_exposed: Seconds,
    /// The compute stretched beside one layer's backward.
    pub bwd_stretch: Seconds,
    /// The first gather (with the embedding's), exposed whole.
    pub first: Seconds,
    /// The last scatter (with the embedding's), exposed whole.
    pub last: Seconds,
}

/// Traffic sent in buckets behind one pass of a stage's layers, once per
/// step: its time, what shows after the pass and the compute's stretch.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bucketed {
    /// What is exposed (the last bucket, and what did not fit beside).
    pub exposed: Seconds,
    /// Compute stretched beside it.
    pub stretch: Seconds,
}

/// The links data-parallel traffic sees beside compute: across nodes at
/// most the overlap rate, inside one node at least the NVSwitch share.
fn background_links(cfg: &Config, links: &Links) -> (Links, Links) {
    let overlap_bw = cfg.dp_overlap_bandwidth();
    let mut across = *links;
    across.nvlink = overlap_bw.min(links.nvlink);
    let mut node = *links;
    node.nvlink = (links.nvlink * cal::NVSWITCH_OVERLAP_SHARE)
        .max(overlap_bw)
        .min(links.nvlink);
    (across, node)
}

/// What data-parallel traffic hides behind: a layer's busy time
/// (forward, backward) for sharded traffic and for bucketed traffic, or
/// nothing where the stack runs it on the compute stream.
fn hidden_behind(
    cfg: &Config,
    busy: (Seconds, Seconds),
) -> ((Seconds, Seconds), (Seconds, Seconds)) {
    let overlaps = |sharded: bool| match cfg.stack.dp_overlap {
        DpOverlap::Always => true,
        DpOverlap::ShardedOnly => sharded,
        DpOverlap::Never => false,
    };
    let none = (Seconds(0.0), Seconds(0.0));
    (
        if overlaps(true) { busy } else { none },
        if overlaps(false) { busy } else { none },
    )
}

/// The data-parallel traffic over the shard group ([`shard_group`]) of a
/// stage of `layers` layers, each busy
/// `busy` (forward, backward), over `m` micro-batches. FSDP prefetches the
/// next layer's gather behind the current one; gradient buckets go out
/// behind the backward. Traffic beside compute moves at most the overlap
/// rate across nodes; inside a node NVSwitch carries it at a larger share.
pub(crate) fn data_parallel(
    cfg: &Config,
    links: &Links,
    (ranks, per_node): (u32, u32),
    layers: f64,
    busy: (Seconds, Seconds),
    slowdown: f64,
    m: f64,
) -> DataParallelCost {
    let p = cfg.layout.parallel;
    let model = &cfg.model;
    let tp = f64::from(p.tp);
    let zero = Seconds(0.0);
    // Routed experts' gradients reduce over the expert data-parallel group,
    // weighted by its share of the traffic the shard group's collective
    // would carry (none when each expert lives on one GPU).
    let (dense, expert) = cfg.layer_params_local();
    let sent = |n: f64| (n - 1.0).max(0.0) / n.max(1.0);
    let all = sent(f64::from(ranks));
    let layer_params = dense
        + if all > 0.0 {
            expert * sent(f64::from(cfg.expert_dp())) / all
        } else {
            0.0
        };
    let root_params = model.embedding_params() * if p.pp == 1 { 2.0 } else { 1.0 } / tp;
    let stage_params = layer_params * layers + root_params;
    let reduce = cfg.stack.reduce_bytes;
    let bf16 = 2.0;
    let group = Group::new(ranks, per_node);
    let (across, node) = background_links(cfg, links);
    // A layer's traffic in as many collectives as the stack makes of it,
    // each paying its latency.
    let calls = cfg.stack.dp_calls_per_layer(model);
    let bg = |op, bytes: f64, group: Group| {
        let l = if group.nodes() <= 1 { &node } else { &across };
        collective::time(op, Bytes(bytes), group, l).time
    };
    let bg_layer = |op, bytes: f64, group: Group| bg(op, bytes / calls, group) * calls;
    let ((busy_fwd, busy_bwd), busy_buckets) = hidden_behind(cfg, busy);
    // Once, when the stack keeps FSDP's parameters gathered and gradients
    // unsharded across micro-batches; otherwise per micro-batch (ZeRO-2
    // semantics, and always for full sharding).
    let once = p.dp == DataParallel::Fsdp && cfg.stack.fsdp_sync == FsdpSync::OncePerStep;
    let passes = if once { 1.0 } else { m };
    let mut cost = DataParallelCost {
        once,
        ..DataParallelCost::default()
    };

    // One layer's gather and scatter per micro-batch; the first gather and
    // the last scatter have nothing to hide behind.
    let sharded = |group: Group, gather_in_backward: bool, cost: &mut DataParallelCost| {
        let ag = bg_layer(Collective::AllGather, layer_params * bf16, group);
        let rs = bg_layer(Collective::ReduceScatter, layer_params * reduce, group);
        let ag_root = bg(Collective::AllGather, root_params * bf16, group);
        let rs_root = bg(Collective::ReduceScatter, root_params * reduce, group);
        let comm_bwd = rs + if gather_in_backward { ag } else { zero };
        let hidden = layers - 1.0;
        let (f_exp, f_con) = overlap(ag, busy_fwd, slowdown);
        let (b_exp, b_con) = overlap(comm_bwd, busy_bwd, slowdown);
        let fwd_exposed = ag + ag_root + f_exp * hidden;
        let bwd_exposed = rs + rs_root + b_exp * hidden;
        let gathers = if gather_in_backward { 2.0 } else { 1.0 };
        let ag_total = (ag * (layers * gathers) + ag_root) * passes;
        let rs_total = (rs * layers + rs_root) * passes;
        // What shows of the hidden layers' backward traffic is split between
        // gathers and scatters by volume; the last scatter is a scatter.
        let bwd_ag_share = if gather_in_backward {
            ag.0 / comm_bwd.0.max(1e-30)
        } else {
            0.0
        };
        let ag_exposed = fwd_exposed + b_exp * hidden * bwd_ag_share;
        let rs_exposed = bwd_exposed - b_exp * hidden * bwd_ag_share;
        cost.allgather = Comm::new(ag_total, ag_exposed * passes);
        cost.reduce_scatter = Comm::new(rs_total, rs_exposed * passes);
        cost.per_mb_exposed = fwd_exposed + bwd_exposed;
        cost.per_mb_stretch = (f_con + b_con) * hidden;
        cost.layer = ShardedLayer {
            fwd: ag,
            bwd: comm_bwd,
            fwd_exposed: f_exp,
            fwd_stretch: f_con,
            bwd_exposed: b_exp,
            bwd_stretch: b_con,
            first: ag + ag_root,
            last: rs + rs_root,
        };
    };
    let (bwd, fwd) = match p.dp {
        DataParallel::Fsdp | DataParallel::FsdpFull => {
            sharded(group, p.dp == DataParallel::FsdpFull, &mut cost);
            (None, None)
        }
        DataParallel::Hsdp => {
            sharded(Group::new(per_node, per_node), true, &mut cost);
            let replicas = Group::new(ranks / per_node.max(1), 1);
            // The replicas reduce their gradient shards in the stack's reduce type.
            let bytes = stage_params * reduce / f64::from(per_node);
            (
                Some((
                    Collective::AllReduce,
                    bg(Collective::AllReduce, bytes, replicas),
                )),
                None,
            )
        }
        DataParallel::Ddp => {
            let ar = bg(Collective::AllReduce, stage_params * reduce, group);
            (Some((Collective::AllReduce, ar)), None)
        }
        DataParallel::Zero1 => {
            let op = if cfg.stack.zero1_allreduce {
                Collective::AllReduce
            } else {
                Collective::ReduceScatter
            };
            (
                Some((op, bg(op, stage_params * reduce, group))),
                Some(bg(Collective::AllGather, stage_params * bf16, group)),
            )
        }
    };
    buckets(&mut cost, bwd, fwd, layers, busy_buckets, slowdown);
    cost.stretch += cost.per_mb_stretch * passes;
    cost
}

/// Traffic sent in buckets behind one pass of `layers` layers, each busy
/// `busy` (forward, backward): the backward's (`bwd`, its collective and
/// time) and the forward's gather (`fwd`). The last bucket is always
/// exposed; the rest hides behind the last `layers - 1` layers.
fn buckets(
    cost: &mut DataParallelCost,
    bwd: Option<(Collective, Seconds)>,
    fwd: Option<Seconds>,
    layers: f64,
    (busy_fwd, busy_bwd): (Seconds, Seconds),
    slowdown: f64,
) {
    let behind = |total: Seconds, per_layer: Seconds| {
        let last = total / layers;
        let (exposed, stretch) = overlap(total - last, per_layer * (layers - 1.0), slowdown);
        Bucketed {
            exposed: exposed + last,
            stretch,
        }
    };
    if let Some((op, total)) = bwd {
        let b = behind(total, busy_bwd);
        let comm = Comm::new(total, b.exposed);
        if op == Collective::AllReduce {
            cost.allreduce = comm;
        } else {
            cost.reduce_scatter = comm;
        }
        cost.stretch += b.stretch;
        cost.buckets_bwd = b;
    }
    if let Some(total) = fwd {
        let b = behind(total, busy_fwd);
        cost.allgather = Comm::new(total, b.exposed);
        cost.stretch += b.stretch;
        cost.buckets_fwd = b;
    }
}

#[cfg(test)]
#[path = "phases_tests.rs"]
mod tests;
