//! The phases of one training step, each a function of its inputs, in the
//! order the breakdown names them: per-layer compute, tensor-parallel and
//! context-parallel communication, the host's dispatch, data-parallel
//! traffic and pipeline sends. [`crate::evaluate`] puts them together, one
//! pipeline stage at a time.

use crate::calibration as cal;
use crate::collective::{self, Collective, Group, Links};
use crate::evaluate::Comm;
use crate::model::Mlp;
use crate::scenario::{Config, Module, Modules, Precision, Recompute};
use crate::stack::{AttentionKernel, Stack};
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
    /// The kernels that quantise GEMM operands under fp8 and fp4
    /// ([`quantise_passes`]): forward, backward.
    pub quantise: (Seconds, Seconds),
    /// Of the forward GEMMs, the MoE part's (experts, shared experts,
    /// router): the chunk an overlapped All-to-All of the other direction
    /// hides behind.
    pub experts: Seconds,
    /// The forward GEMMs of the two column-parallel linears, QKV and (on a
    /// dense layer) the MLP's up projection. Each weight-gradient GEMM of
    /// the backward has its linear's shape, and a stack that issues the
    /// input gradient's collective asynchronously runs it beside that
    /// GEMM ([`tensor`]).
    pub column: (Seconds, Seconds),
    /// The forward of each part a recomputation module reruns (the core
    /// attention's is `attention`).
    pub modules: ModuleCosts,
    /// The forward of every second matmul of the layer, which torchtitan's
    /// per-op selective recomputation reruns
    /// ([`crate::model::Model::alternate_matmul_params`]), at the rate the
    /// attention's and dense MLP's GEMMs reach together; zero under a stack
    /// whose recomputation does not rerun them.
    pub alternate_matmuls: Seconds,
}

/// The forward time of one layer's parts that recomputation modules rerun
/// ([`crate::scenario::Module`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ModuleCosts {
    /// The norms no linear fuses (`layernorm`).
    pub norms: Seconds,
    /// Latent attention's up-projection GEMMs (`mla_up_proj`).
    pub up_projections: Seconds,
    /// A dense layer's MLP, its GEMMs and activation (`mlp`), the mean
    /// over the layers.
    pub dense_mlp: Seconds,
    /// The routed experts' activation (`moe_act`).
    pub expert_activation: Seconds,
}

impl LayerCompute {
    pub fn forward(&self) -> Seconds {
        self.gemm + self.attention + self.elementwise + self.quantise.0
    }
    pub fn backward(&self) -> Seconds {
        self.gemm * 2.0
            + self.attention * cal::ATTENTION_BACKWARD_FACTOR
            + self.elementwise * cal::BACKWARD_ELEMENTWISE_FACTOR
            + self.quantise.1
    }
    /// What a recomputation reruns in backward: everything for full; for
    /// selective, the forward of each module named, or without modules the
    /// core attention where its scores are materialised (Korthikanti et
    /// al.), the element-wise kernels under FlashAttention, and with them
    /// every second matmul under a stack whose policy reruns those.
    pub fn recompute(&self, r: Recompute, modules: Modules, stack: &Stack) -> Seconds {
        let flash = stack.attention.fused();
        match r {
            Recompute::None => Seconds(0.0),
            Recompute::Selective if !modules.is_empty() => {
                let m = &self.modules;
                let costs = [
                    (Module::CoreAttn, self.attention),
                    (Module::Layernorm, m.norms),
                    (Module::MlaUpProj, m.up_projections),
                    (Module::Mlp, m.dense_mlp),
                    (Module::MoeAct, m.expert_activation),
                ];
                costs
                    .into_iter()
                    .filter(|&(module, _)| modules.has(module))
                    .fold(Seconds(0.0), |sum, (_, t)| sum + t)
            }
            Recompute::Selective if stack.selective_reruns_matmuls => {
                self.elementwise + self.quantise.0 + self.alternate_matmuls
            }
            Recompute::Selective if flash => self.elementwise + self.quantise.0,
            Recompute::Selective => self.attention,
            Recompute::Full => self.forward(),
        }
    }
}

/// The forward of the parts recomputation modules rerun, from the layer's
/// up-projection GEMMs, its dense MLP (GEMMs, and the elements its
/// activation passes over) and the elements the routed experts'
/// activation passes over: element-wise parts at the rate [`compute`]
/// gives them, each kernel's launch weighted by the share of the layers
/// that have it.
fn module_costs(
    cfg: &Config,
    s: &Shape,
    up_projections: Seconds,
    (mlp_gemms, mlp_activation): (Seconds, f64),
    expert_activation: f64,
) -> ModuleCosts {
    let model = &cfg.model;
    let pass =
        |elements: f64| Bytes(2.0 * elements) / s.hbm + Seconds::us(cal::ELEMENTWISE_KERNEL_US);
    let norm = cfg.stack.norm_passes * s.tokens * f64::from(model.hidden) / s.sp_div;
    let share = model.moe_share();
    // The activation's kernel, and a clamped GLU's clamps run apart.
    let launches = Seconds::us(cal::ELEMENTWISE_KERNEL_US) * (1.0 + clamp_kernels(cfg));
    ModuleCosts {
        norms: pass(norm) * model.unfused_norms(),
        up_projections,
        dense_mlp: (mlp_gemms + Bytes(2.0 * mlp_activation) / s.hbm + launches) * (1.0 - share),
        // `expert_activation` is already the mean over the layers.
        expert_activation: Bytes(2.0 * expert_activation) / s.hbm + launches * share,
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
    // Whether the communication outlasts the stretched compute, asked as
    // a product so that only an exposed pair pays a division.
    let keep = 1.0 - slowdown;
    if comm.0 * keep >= work.0 {
        let stretched = work / keep;
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
    // step under context parallelism); a causal mask halves the scores
    // (the fused kernels' time is `fused_attention`'s).
    let kv_len = s.seq / cp;
    // The layer's four GEMMs, each `tokens x n x k` on this TP rank, at
    // the rate its shape reaches: QKV, the output projection, the MLP's
    // up (and gate) projection and its down projection. Backward's two
    // GEMMs per weight have the same dimensions, permuted.
    // fp4 GEMMs weigh their epilogue as fp8's and reach a measured share of
    // fp8's efficiency (`FP4_GEMM_SHARE`).
    let fp8 = matches!(cfg.precision, Precision::Fp8 | Precision::Fp4);
    let fp4 = if cfg.precision == Precision::Fp4 {
        gpu.gemm_shape.fp4_share
    } else {
        1.0
    };
    let shape = &gpu.gemm_shape;
    let kv = model.kv_dim();
    let ffn = f64::from(model.ffn);
    let up = if model.mlp.gated() { 2.0 } else { 1.0 };
    let rate = s.peak_mm * gpu.gemm_efficiency * fp4;
    let gemm = |m: f64, n: f64, k: f64| shape.seconds((m, n, k), fp8, rate);
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
    let (projections, fc1) = (gemm_time(qkv / tp, h), gemm_time(up * ffn / tp, h));
    let dense_mlp = fc1 + gemm_time(h, ffn / tp);
    let attention_gemms = projections + gemm_time(h, model.q_dim() / tp);
    let gemms = attention_gemms + dense_mlp * dense + moe.gemm.0;
    // Every second matmul at the rate the attention's and the dense MLP's
    // GEMMs reach together, where the stack's recomputation reruns them.
    let alternate_matmuls = if cfg.stack.selective_reruns_matmuls {
        let own_params = model.attention_params() + model.dense_mlp_params() * dense;
        (attention_gemms + dense_mlp * dense) * model.alternate_matmul_params()
            / own_params.max(1.0)
    } else {
        0.0
    };
    let attn_flops = 2.0 * tokens * s.seq * model.attention_dim() / tp;
    // Norms and residual adds on the hidden state (split by sequence
    // parallelism), rotary on the local queries and keys, the MLP
    // activation on the local FFN width; ring attention merges each step's
    // partial output into the running one (three passes).
    let (activation_passes, elementwise_kernels) = activation(cfg);
    let ew_elements = (2.0 * stack.norm_passes + cal::RESIDUAL_PASSES) * tokens * h / s.sp_div
        + stack.rotary_passes * tokens * (model.q_dim() + model.kv_dim()) / tp
        + 3.0 * (cp - 1.0) * tokens * h / tp
        + activation_passes * tokens * f64::from(model.ffn) / tp * dense
        + activation_passes * moe.activation
        + moe.moved;
    // Quantised operands: in forward the attention output and the MLP
    // activation; in backward the output gradients of QKV, the output
    // projection and the MLP's down projection (the up projection's is
    // written quantised by the activation's backward).
    let q = quantise_passes(cfg.precision);
    let quantised_fwd = tokens * (model.q_dim() + ffn * dense) / tp + moe.quantised.0;
    let quantised_bwd = tokens * (qkv / tp + h / s.sp_div * (1.0 + dense)) + moe.quantised.1;
    let quantise = |elements: f64| Bytes(2.0 * q * elements) / s.hbm;
    // Without FlashAttention the score matrix is computed in full (the mask
    // applies afterwards) by two batched GEMMs, and element-wise kernels
    // pass over it.
    let attention = if stack.attention.fused() {
        fused_attention(cfg, s, attn_flops) + t0 * cp
    } else {
        let scores = tokens * kv_len * f64::from(model.heads) / tp;
        Seconds(2.0 * attn_flops / (gpu.peak_bf16.0 * gpu.gemm_efficiency))
            + Bytes(2.0 * cal::SCORE_PASSES * scores) / s.hbm
            + t0 * 2.0
    };
    let modules = if cfg.layout.recompute_modules.is_empty() {
        ModuleCosts::default()
    } else {
        module_costs(
            cfg,
            s,
            Seconds(projections * model.up_projection_params() / (qkv * h).max(1.0)),
            (Seconds(dense_mlp), activation_passes * tokens * ffn / tp),
            activation_passes * moe.routed_activation,
        )
    };
    let layer = LayerCompute {
        modules,
        alternate_matmuls: Seconds(alternate_matmuls),
        experts: moe.gemm,
        column: (Seconds(projections), Seconds(fc1 * dense)),
        gemm: Seconds(gemms) + t0 * cal::GEMMS_PER_LAYER,
        attention,
        quantise: (
            quantise(quantised_fwd) + moe.quantise_fixed,
            quantise(quantised_bwd) + moe.quantise_fixed,
        ),
        elementwise: Bytes(2.0 * ew_elements) / s.hbm
            + Seconds::us(cal::ELEMENTWISE_KERNEL_US)
                * (elementwise_kernels + 2.0 * (cp - 1.0) + moe.kernels),
    };
    let vocab = f64::from(model.vocab);
    let head_fwd =
        Seconds(gemm_time(vocab / tp, h)) + Bytes(3.0 * 4.0 * tokens * vocab / tp) / s.hbm + t0;
    (layer, head_fwd)
}

/// A fused attention kernel's time on `flops` (one layer's causal scores,
/// the mean over the layers) at the rate its key and value length
/// reaches. Windowed layers, where the kernel skips the keys outside the
/// window, see the window and a tile's keys a query (the work of a causal
/// context twice that long) or their chunk, at that context's efficiency.
fn fused_attention(cfg: &Config, s: &Shape, flops: f64) -> Seconds {
    let gpu = &cfg.cluster.gpu;
    let (kernel, half) = match cfg.stack.attention {
        AttentionKernel::TransformerEngine => {
            (gpu.te_attention_efficiency, gpu.te_attention_half_length)
        }
        AttentionKernel::Flash1 => (
            gpu.attention_efficiency / cal::FLASH_ATTENTION_2_SPEEDUP,
            cal::ATTENTION_HALF_LENGTH,
        ),
        AttentionKernel::Flash2 | AttentionKernel::Materialised => {
            (gpu.attention_efficiency, cal::ATTENTION_HALF_LENGTH)
        }
    };
    let efficiency = |kv: f64| kernel * kv / (kv + half);
    let kv_len = s.seq / s.cp;
    let full = flops / efficiency(kv_len);
    let window = match cfg.model.window {
        Some(w) if cfg.stack.attention.skips_window() => w,
        _ => return Seconds(full / gpu.peak_bf16.0),
    };
    let windowed = window.share(cfg.model.layers);
    let context = window.kernel_context(cal::ATTENTION_TILE_KEYS).min(s.seq);
    let short = flops * context / s.seq / efficiency(context.min(kv_len));
    Seconds((full * (1.0 - windowed) + short * windowed) / gpu.peak_bf16.0)
}

/// The MLP activation of `cfg`'s model under its stack: its passes over
/// each `ffn`-wide output element in forward, and the element-wise
/// kernels a layer launches in forward (the stack's, and a clamped GLU's
/// clamps where they run apart).
pub(crate) fn activation(cfg: &Config) -> (f64, f64) {
    let stack = &cfg.stack;
    match cfg.model.mlp {
        Mlp::Swiglu => (stack.activation_passes, stack.elementwise_kernels),
        Mlp::Gelu => (cal::GELU_PASSES, stack.elementwise_kernels),
        Mlp::ClampedSwiglu => (
            stack.activation_passes + stack.clamp_passes,
            stack.elementwise_kernels + clamp_kernels(cfg),
        ),
    }
}

/// Kernels a clamped GLU's clamps launch apart from its activation in
/// forward (and again where recomputation reruns it): none unless the
/// model has one and the stack clamps apart ([`crate::stack::Stack::clamp_passes`]).
pub(crate) fn clamp_kernels(cfg: &Config) -> f64 {
    if cfg.model.mlp == Mlp::ClampedSwiglu && cfg.stack.clamp_passes > 0.0 {
        cal::CLAMPED_GLU_KERNELS
    } else {
        0.0
    }
}

/// Passes (in bf16 elements) by which `precision` quantises a GEMM operand
/// that no fused kernel writes in it: under fp8 and fp4, Transformer
/// Engine's `cast_transpose` reads the bf16 tensor and writes a row-wise
/// copy and a column-wise one (the weight gradient's operand), 2 + 1 + 1
/// bytes in fp8; NVFP4's quantisation costs [`cal::NVFP4_QUANTISE_OVER_FP8`]
/// times fp8's (its global amax, block scales, stochastic rounding and the
/// weight gradient's Hadamard transform, as measured). A fused
/// norm or activation writes its output quantised (`LayerNormLinear`,
/// `LayerNormMLP`, the activation's backward), which costs nothing more;
/// [`compute`] counts the rest. Counted and measured, not fitted.
pub(crate) fn quantise_passes(precision: Precision) -> f64 {
    match precision {
        Precision::Fp8 => 2.0,
        Precision::Fp4 => 2.0 * cal::NVFP4_QUANTISE_OVER_FP8,
        Precision::Bf16 | Precision::Fp16 => 0.0,
    }
}

/// Tensor-parallel collectives of one layer: the forward's block; the
/// backward's block except where the stack overlaps them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tensor {
    /// Forward: two AllReduces (or AllGather and ReduceScatter pairs).
    pub fwd: Seconds,
    /// Backward: two more, in full and what of them shows.
    pub bwd: Comm,
    /// Compute stretched by the backward collectives that run beside it.
    pub stretch_bwd: Seconds,
    /// The forward's again, under full recomputation.
    pub recompute: Seconds,
}

impl Tensor {
    /// The same collectives with the backward's blocking too: where the
    /// weight-gradient GEMMs leave the backward pass (a zero-bubble
    /// schedule defers them), nothing is left beside the input gradient's.
    pub fn blocking(self) -> Self {
        Self {
            bwd: Comm::new(self.bwd.total, self.bwd.total),
            stretch_bwd: Seconds(0.0),
            ..self
        }
    }
}

/// The tensor-parallel collectives of one layer on 2 × T × h bytes of
/// activations: AllReduce, or AllGather plus ReduceScatter with sequence
/// parallelism. In the backward, each column-parallel linear (QKV, the
/// MLP's up projection) reduces its input gradient over the group; a
/// stack with `tp_async_backward` issues that reduction (the AllReduce, or
/// under sequence parallelism the ReduceScatter) before the linear's
/// weight-gradient GEMM and waits for it after, so it shows only where it
/// outlasts the GEMM (`layer.column`), and the GEMM slows by `slowdown`
/// while both run. The row-parallel linears' backward gather (sequence
/// parallelism) blocks.
pub(crate) fn tensor(
    cfg: &Config,
    s: &Shape,
    links: &Links,
    layer: &LayerCompute,
    slowdown: f64,
) -> Tensor {
    let p = cfg.layout.parallel;
    let group = Group::new(p.tp, p.tp.min(cfg.cluster.domain()));
    let bytes = Bytes(2.0 * s.tokens * f64::from(cfg.model.hidden));
    let (gather, reduce) = if p.sp {
        (
            collective::time(Collective::AllGather, bytes, group, links).time,
            collective::time(Collective::ReduceScatter, bytes, group, links).time,
        )
    } else {
        (
            Seconds(0.0),
            collective::time(Collective::AllReduce, bytes, group, links).time,
        )
    };
    let one = gather + reduce;
    let (mut exposed, mut stretch) = (one * 2.0, Seconds(0.0));
    if cfg.stack.tp_async_backward && p.tp > 1 {
        let (e1, s1) = overlap(reduce, layer.column.0, slowdown);
        let (e2, s2) = overlap(reduce, layer.column.1, slowdown);
        exposed = gather * 2.0 + e1 + e2;
        stretch = s1 + s2;
    }
    Tensor {
        fwd: one * 2.0,
        bwd: Comm::new(one * 2.0, exposed),
        stretch_bwd: stretch,
        // Full recomputation reruns both blocks' collectives; the `mlp`
        // module reruns the MLP block's, on the dense layers.
        recompute: match cfg.layout.recompute {
            Recompute::Full => one * 2.0,
            Recompute::Selective if cfg.layout.recompute_modules.has(Module::Mlp) => {
                one * (1.0 - cfg.model.moe_share())
            }
            _ => Seconds(0.0),
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

pub(crate) use crate::dispatch::kernels;

pub(crate) use crate::data_parallel::{
    data_parallel, shard_group, Bucketed, DataParallelCost, PerMicroBatch,
};

/// What depends on the schedule and its chunks: the tensor-parallel
/// collectives it leaves, how much of the All-to-All it hides, and the
/// layer's busy time (forward, backward) with what the host's dispatch and
/// offloaded copies add to it.
pub(crate) struct Scheduled {
    pub(crate) tensor: Tensor,
    pub(crate) a2a: crate::experts::AllToAll,
    pub(crate) busy: (Seconds, Seconds),
    pub(crate) host: (Seconds, Seconds),
}

impl Scheduled {
    /// Scheduled from a step's unscheduled costs, its slowdown beside
    /// collectives and its micro-batches and chunks `(m, v)`.
    pub(crate) fn of(
        cfg: &Config,
        layer: &LayerCompute,
        unscheduled: (crate::experts::AllToAll, Seconds, Seconds, Tensor),
        slowdown: f64,
        mv: (f64, f64),
    ) -> Self {
        let recompute = cfg.layout.recompute;
        let (exchange, compute_fwd, compute_bwd, tensor) = unscheduled;
        let tensor = if cfg.layout.parallel.splits_backward() {
            tensor.blocking()
        } else {
            tensor
        };
        let compute_bwd = compute_bwd + tensor.bwd.exposed + tensor.stretch_bwd;
        let a2a = exchange.overlapped(cfg, layer, (compute_fwd, compute_bwd), slowdown, mv);
        let gpu_fwd = compute_fwd + a2a.fwd + a2a.stretch_fwd;
        let gpu_bwd = compute_bwd + a2a.bwd + a2a.recompute(recompute) + a2a.stretch_bwd;
        let (ops_fwd, ops_bwd) = kernels(cfg);
        let dispatch = Seconds::us(cfg.stack.host_dispatch_us);
        let busy_fwd = gpu_fwd.max(dispatch * ops_fwd);
        let busy_bwd = gpu_bwd.max(dispatch * ops_bwd);
        let (wait_fwd, wait_bwd) = crate::memory::offload_wait(cfg, (busy_fwd, busy_bwd));
        let busy = (busy_fwd + wait_fwd, busy_bwd + wait_bwd);
        Self {
            tensor,
            a2a,
            busy,
            host: (busy.0 - gpu_fwd, busy.1 - gpu_bwd),
        }
    }
}

#[cfg(test)]
#[path = "phases_tests.rs"]
mod tests;
