//! Memory per GPU by part: weights, gradients, optimizer state,
//! activations (by recomputation mode and pipeline schedule), communication
//! buffers and the runtime's reserve. Activation sizes follow Korthikanti et
//! al. 2022 ("Reducing activation recomputation"), adapted to a Llama block
//! with FlashAttention (no score matrix is stored).

use crate::calibration as cal;
use crate::model::Mlp;
use crate::scenario::{Config, DataParallel, Module, Modules, Precision, Recompute, Schedule};
use crate::units::{Bytes, Seconds};
use serde::Serialize;

/// Peak memory of one GPU, by part: the fuller of the first pipeline stage
/// (the most micro-batches in flight) and the last (the logits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Memory {
    /// bf16 weights resident during compute.
    pub weights: Bytes,
    /// Gradients.
    pub gradients: Bytes,
    /// fp32 master weights and AdamW moments.
    pub optimizer: Bytes,
    /// Saved activations (or, when the last stage is fuller, its one
    /// micro-batch and the logits).
    pub activations: Bytes,
    /// Gathered-layer and gradient buckets used by communication.
    pub buffers: Bytes,
    /// CUDA context, NCCL and allocator reserve.
    pub reserve: Bytes,
}

impl Memory {
    /// Sum of the parts.
    #[must_use]
    pub fn total(&self) -> Bytes {
        self.weights
            + self.gradients
            + self.optimizer
            + self.activations
            + self.buffers
            + self.reserve
    }
}

/// Memory per GPU for `cfg`.
///
/// ```
/// use scalescope_core::{memory::per_gpu, scenario::Scenario};
/// let cfg = Scenario::example().to_config().unwrap();
/// assert!(per_gpu(&cfg).total().as_gib() < 80.0);
/// ```
#[must_use]
pub fn per_gpu(cfg: &Config) -> Memory {
    per_gpu_split(cfg, cfg.pipeline_split())
}

/// [`per_gpu`] with the pipeline's split of layers
/// ([`Config::pipeline_split`]) already computed.
#[must_use]
pub fn per_gpu_split(cfg: &Config, (most, last): (u32, u32)) -> Memory {
    let layers_stage = f64::from(most.max(last));
    Memory {
        activations: Bytes(activations(cfg, layers_stage, f64::from(last))),
        reserve: Bytes::gib(cal::RUNTIME_RESERVE_GIB),
        ..model_state(cfg, layers_stage)
    }
}

/// The part of [`per_gpu_split`] the data-parallel flavour sets: weights,
/// gradients, optimizer state and buffers, with the runtime's reserve.
/// With [`split_activations`] it sums to `per_gpu_split(cfg, split)`'s
/// total (up to rounding), which a layout search bounds part by part.
pub(crate) fn split_state(cfg: &Config, (most, last): (u32, u32)) -> f64 {
    Memory {
        reserve: Bytes::gib(cal::RUNTIME_RESERVE_GIB),
        ..model_state(cfg, f64::from(most.max(last)))
    }
    .total()
    .0
}

/// The activations of [`per_gpu_split`], which depend on the
/// recomputation and not on the data-parallel flavour.
pub(crate) fn split_activations(cfg: &Config, (most, last): (u32, u32)) -> f64 {
    activations(cfg, f64::from(most.max(last)), f64::from(last))
}

/// Weights, gradients, optimizer state and communication buffers of a stage
/// of `layers_stage` layers, as the data-parallel flavour keeps them (the
/// other parts zero).
fn model_state(cfg: &Config, layers_stage: f64) -> Memory {
    let model = &cfg.model;
    let p = cfg.layout.parallel;
    let tp = f64::from(p.tp);
    let dp_ranks = f64::from(cfg.dp().saturating_mul(p.cp).max(1));
    let gpn = cfg.cluster.domain();
    let (dense, expert) = cfg.layer_params_local();
    let layer_params = dense + expert;
    let root = model.embedding_params() * cfg.embedding_matrices() / tp;
    let params = layer_params * layers_stage + root;
    // What a sharded state holds: the dense part over the DP x CP ranks,
    // the routed experts over the expert data-parallel group.
    let edp = f64::from(cfg.expert_dp());
    let sharded = (dense * layers_stage + root) / dp_ranks + expert * layers_stage / edp;

    let node_shard = f64::from((gpn / p.tp).max(1)).min(dp_ranks);
    // Unsharded gradients accumulate in the stack's gradient buffer
    // (fp32, or bf16 where Megatron-Core reduces in bf16).
    let grad_bytes = cfg.stack.grad_buffer_bytes;
    let (weights, grads, optimizer, buffers) = match p.dp {
        DataParallel::Ddp => (
            2.0 * params,
            grad_bytes * params,
            12.0 * params,
            2.0 * 25e6 * 4.0,
        ),
        DataParallel::Zero1 => (
            2.0 * params,
            grad_bytes * params,
            12.0 * sharded,
            2.0 * 25e6 * 4.0,
        ),
        // Parameters stay gathered from forward until backward is done;
        // where the stack syncs once per step, the unsharded gradients of
        // several micro-batches accumulate until the last backward
        // reduce-scatters them, in the dtype it reduces in (FSDP2 upcasts
        // them to its `reduce_dtype`: `FSDPParam.to_accumulated_grad_if_needed`).
        DataParallel::Fsdp => (
            2.0 * params,
            4.0 * sharded
                + if cfg.micro_batches() > 1
                    && cfg.stack.fsdp_sync == crate::stack::FsdpSync::OncePerStep
                {
                    cfg.stack.reduce_bytes * params
                } else {
                    0.0
                },
            12.0 * sharded,
            4.0 * 2.0 * layer_params,
        ),
        // Fully sharded: the fp32 shard is both the parameter and the
        // optimizer's master copy (PyTorch FSDP's flat parameter, ZeRO-3's
        // partition); bf16 copies exist only while gathered, in the buffers.
        // A stack that gathers each module's parameters holds one module's
        // (and the next one's, prefetched), not the layer's. A state kept
        // in bf16 with no fp32 master copy (NeMo Automodel's) holds half of
        // each: two bytes a parameter, four for Adam's moments.
        DataParallel::FsdpFull => {
            let b = if cfg.stack.bf16_state { 2.0 } else { 4.0 };
            (
                b * sharded,
                b * sharded,
                2.0 * b * sharded,
                (2.0 * 2.0 + 2.0 * 4.0) * layer_params / cfg.stack.dp_calls_per_layer(&cfg.model),
            )
        }
        DataParallel::Hsdp => (
            4.0 * params / node_shard,
            4.0 * params / node_shard,
            8.0 * params / node_shard,
            (2.0 * 2.0 + 2.0 * 4.0) * layer_params,
        ),
    };
    Memory {
        weights: Bytes(weights),
        gradients: Bytes(grads),
        optimizer: Bytes(optimizer),
        buffers: Bytes(buffers),
        ..Memory::default()
    }
}

/// The widths a layer's saved activations are made of, on one TP rank.
struct Widths {
    /// Hidden size.
    h: f64,
    /// Width of the queries attention keeps for its backward: `heads ×
    /// head_dim`, each head's with its rotary part under latent attention.
    query: f64,
    /// Width of the attention's output (the output projection's input):
    /// `heads × head_dim`.
    out: f64,
    /// Widths of the keys and values together: `2 × kv_heads × head_dim`,
    /// or under latent attention every head's key with its rotary part and
    /// its value.
    kv: f64,
    /// Latent attention's compressed queries and keys/values (the inputs
    /// of their norms), split along the sequence as the hidden-sized
    /// tensors are (sequence parallelism keeps the down-projections'
    /// outputs at `s ÷ tp`). Their norms' outputs, the up-projections'
    /// inputs, are as wide; selective recomputation drops those as it
    /// drops the other norms' outputs.
    latent: f64,
    /// MLP width.
    ffn: f64,
    /// MLP tensors of `ffn` width (three for SwiGLU, two for GeLU; a
    /// clamped GLU clamped apart keeps `clamp_tensors` more).
    ffn_tensors: f64,
    /// Of those, the clamped halves' concatenated copy a clamped GLU
    /// keeps for its activation where the stack clamps apart (two), which
    /// recomputing the activation drops with its output.
    clamp_tensors: f64,
    /// The sequence-parallel split of hidden-sized tensors (TP, or 1).
    sp: f64,
    /// Tensor-parallel degree.
    tp: f64,
    /// Routed token copies of an MoE layer, per token before TP's split
    /// (the mean over the layers): the permuted input, kept before and
    /// after dispatch, `2 × top_k × load × hidden`.
    routed: f64,
    /// Two-byte elements a GEMM's input takes when saved for its weight
    /// gradient: 1 in bf16, less where fp8 or fp4 keeps the quantised
    /// copy ([`saved_gemm_input`]).
    q: f64,
    /// Of `ffn`, the dense MLP's (the mean over the layers) and the
    /// routed experts' activation outputs.
    dense_ffn: f64,
    routed_ffn: f64,
    /// The share of the layers that are dense.
    dense: f64,
    /// Norms per layer (the mean) whose outputs no linear fuses: an MoE
    /// layer's pre-MLP norm, which the router and experts share, and a
    /// latent-attention layer's input norm, which both down-projections
    /// read (Megatron-Core fuses the others into the linear after them).
    unfused_norms: f64,
}

/// Two-byte elements per element of a GEMM input saved for backward.
/// Under fp8 and fp4 Transformer Engine's linears save the quantised
/// copy their weight gradient reads (the column-wise one the forward's
/// quantisation wrote), not the bf16 tensor: one byte an element in fp8,
/// half a byte and an fp8 scale per 16 in NVFP4.
fn saved_gemm_input(precision: Precision) -> f64 {
    match precision {
        Precision::Fp8 => 0.5,
        Precision::Fp4 => (0.5 + 1.0 / 16.0) / 2.0,
        Precision::Bf16 | Precision::Fp16 => 1.0,
    }
}

impl Widths {
    /// The widths of `cfg`'s model on one of its TP ranks.
    fn of(cfg: &Config) -> Self {
        let model = &cfg.model;
        let tp = f64::from(cfg.layout.parallel.tp);
        let sp = if cfg.layout.parallel.sp { tp } else { 1.0 };
        let share = model.moe_share();
        let clamp_tensors = if crate::phases::clamp_kernels(cfg) > 0.0 {
            2.0
        } else {
            0.0
        };
        let dense_ffn = f64::from(model.ffn) * (1.0 - share);
        let (routed_ffn, shared_ffn) = model.moe.map_or((0.0, 0.0), |e| {
            let f = share * f64::from(e.expert_ffn);
            (f * f64::from(e.top_k) * e.load(), f * f64::from(e.shared))
        });
        // Megatron-Core's latent attention keeps Q [T, n (d + r)], K
        // [T, n (d + r)] and V [T, n d] for the attention kernel (the
        // rotary key is expanded into every head's key), and the
        // compressed latents with their norms' outputs for the
        // up-projections (multi_latent_attention.py).
        let (query, kv, latent) = match model.latent {
            Some(l) => {
                let heads = f64::from(model.heads);
                let qk = heads * (model.head_dim() + f64::from(l.rope));
                let ranks = f64::from(l.q_rank) + f64::from(l.kv_rank);
                (qk, qk + model.q_dim(), ranks / sp)
            }
            None => (model.q_dim(), 2.0 * model.kv_dim(), 0.0),
        };
        Self {
            h: f64::from(model.hidden),
            query,
            out: model.q_dim(),
            kv,
            latent,
            // An MoE layer saves its experts' MLP tensors for every routed
            // copy of a token (and the shared experts' for each token).
            ffn: dense_ffn + routed_ffn + shared_ffn,
            dense_ffn,
            routed_ffn,
            dense: 1.0 - share,
            unfused_norms: model.unfused_norms(),
            routed: model.moe.map_or(0.0, |e| {
                share * 2.0 * f64::from(e.top_k) * e.load() * f64::from(model.hidden)
            }),
            ffn_tensors: match model.mlp {
                Mlp::Swiglu | Mlp::ClampedSwiglu => 3.0 + clamp_tensors,
                Mlp::Gelu => 2.0,
            },
            clamp_tensors,
            sp,
            tp,
            q: if cfg.stack.saves_quantised {
                saved_gemm_input(cfg.precision)
            } else {
                1.0
            },
        }
    }

    /// Elements per token of a layer that keeps every activation: the
    /// hidden-sized norm inputs and outputs (replicated across TP ranks
    /// unless sequence parallel) and the TP-sharded projections.
    fn every_activation(&self) -> f64 {
        self.selective() + (2.0 * self.h / self.sp + self.latent + self.ffn / self.tp) * self.q
    }

    /// Elements per token that selective recomputation keeps: all but the
    /// norms' outputs (the QKV and up projections' inputs) and the MLP
    /// activation's output (the down projection's input). Of what it
    /// keeps, the attention output and the routed tokens after dispatch
    /// are GEMM inputs.
    fn selective(&self) -> f64 {
        2.0 * self.h / self.sp
            + self.latent
            + (self.query
                + self.out * self.q
                + self.kv
                + (self.ffn_tensors - 1.0) * self.ffn
                + self.routed * (1.0 + self.q) / 2.0)
                / self.tp
    }

    /// Elements per token of [`Self::selective`] that a per-op policy
    /// rerunning every second matmul also drops: the keys (the values
    /// stay), or under latent attention the two up-projections' outputs,
    /// and a dense MLP's up projection (beside the gate) or, after latent
    /// attention's five, its first.
    fn alternate_outputs(&self, gated: bool, latent: bool) -> f64 {
        let attention = if latent {
            self.query + self.kv
        } else {
            self.kv / 2.0
        };
        let mlp = if gated || latent { self.dense_ffn } else { 0.0 };
        (attention + mlp) / self.tp
    }

    /// Elements per token a selective recomputation of `modules` does not
    /// keep of [`Self::every_activation`] (Megatron-Core 0.16: what each
    /// module's checkpoint drops; the scores are [`saved_per_token`]'s).
    fn dropped(&self, modules: Modules) -> f64 {
        let (h, sp, tp, q) = (self.h, self.sp, self.tp, self.q);
        let mut dropped = 0.0;
        if modules.has(Module::Layernorm) {
            dropped += self.unfused_norms * h / sp * q;
        }
        if modules.has(Module::MlaUpProj) {
            // Queries, keys and values, and the latents' norm outputs; the
            // compressed latents stay.
            dropped += (self.query + self.kv) / tp + self.latent * q;
        }
        if modules.has(Module::Mlp) {
            // A dense layer's MLP from its input: the norm's output, the
            // up (and gate) projections' outputs and the activation's.
            dropped += self.dense * h / sp * q
                + ((self.ffn_tensors - 1.0) * self.dense_ffn + self.dense_ffn * q) / tp;
        }
        if modules.has(Module::MoeAct) {
            // The activation's output, and a clamped GLU's concatenated
            // halves beside the up projection's output it reruns from.
            dropped += self.routed_ffn / tp * (q + self.clamp_tensors);
        }
        dropped
    }
}

/// Elements saved per token per layer under the recomputation mode, with
/// the score matrix where the stack materialises it.
fn saved_per_token(cfg: &Config, w: &Widths) -> f64 {
    let (h, sp, tp) = (w.h, w.sp, w.tp);
    let cp = f64::from(cfg.layout.parallel.cp);
    let modules = cfg.layout.recompute_modules;
    let saved = match cfg.layout.recompute {
        Recompute::None => w.every_activation(),
        Recompute::Selective if modules.is_empty() && cfg.stack.selective_reruns_matmuls => {
            w.selective() - w.alternate_outputs(cfg.model.mlp.gated(), cfg.model.latent.is_some())
        }
        Recompute::Selective if modules.is_empty() => w.selective(),
        Recompute::Selective => w.every_activation() - w.dropped(modules),
        Recompute::Full => h / sp,
    };
    let scores_kept = match cfg.layout.recompute {
        Recompute::None => true,
        Recompute::Selective => !modules.is_empty() && !modules.has(Module::CoreAttn),
        Recompute::Full => false,
    };
    let scores = if scores_kept && !cfg.stack.attention.fused() {
        // The score matrix kept for backward: Korthikanti et al.'s
        // `5as/h` bytes per hidden element, in two-byte elements.
        2.5 * f64::from(cfg.model.heads) * f64::from(cfg.seq_len) / cp / tp
    } else {
        0.0
    };
    saved + scores
}

/// Bytes one layer saves for backward per micro-batch (its tokens on this
/// GPU times [`saved_per_token`]), and the tokens.
fn saved_per_layer(cfg: &Config, w: &Widths) -> (f64, f64) {
    let tokens = f64::from(cfg.layout.micro_batch) * f64::from(cfg.seq_len)
        / f64::from(cfg.layout.parallel.cp);
    (2.0 * saved_per_token(cfg, w) * tokens, tokens)
}

/// The time the GPU waits, per layer and micro-batch on the mean over the
/// layers (forward, backward), for activation offloading. Transformer
/// Engine's offload handler (`cpu_offload.py`, `layer_window_map`) copies
/// the first `n` of `L` layers' saved activations to host memory, one
/// after another, and waits for copy `i` at the end of layer
/// `w (i + 1) - 1`, `w = ⌊L / n⌋`; the reloads run as far ahead in the
/// backward. The first copy, issued after layer 0, has `w - 1` layers
/// beside it, each later one `w`, on the GPU's host link; what outlasts
/// them shows. Megatron-Core offloads only without a pipeline
/// ([`Config::check_layout`]), so the stage holds every layer.
pub(crate) fn offload_wait(cfg: &Config, busy: (Seconds, Seconds)) -> (Seconds, Seconds) {
    let n = cfg.layout.offload_layers.min(cfg.model.layers);
    if n == 0 {
        return (Seconds(0.0), Seconds(0.0));
    }
    let copy = Bytes(saved_per_layer(cfg, &Widths::of(cfg)).0) / cfg.cluster.gpu.host_link;
    let w = f64::from(cfg.model.layers / n);
    let layers = f64::from(cfg.model.layers);
    let wait = |layer: Seconds| {
        let zero = Seconds(0.0);
        ((copy - layer * (w - 1.0)).max(zero) + (copy - layer * w).max(zero) * f64::from(n - 1))
            / layers
    };
    (wait(busy.0), wait(busy.1))
}

/// Micro-batches whose activations a stage holds at its peak: the first
/// stage (the most) and the last (which also holds the logits).
fn in_flight(cfg: &Config) -> (f64, f64) {
    let p = cfg.layout.parallel;
    let pp = f64::from(p.pp);
    let m = f64::from(cfg.micro_batches().max(1));
    if p.pp == 1 {
        (1.0, 1.0)
    } else {
        match p.schedule {
            Schedule::Gpipe => (m, m),
            Schedule::OneFOneB => (m.min(pp), 1.0),
            // Stage s starts pp - s - 1 micro-batches ahead and defers s
            // weight gradients, whose inputs it keeps: every stage holds
            // pp, the last included (Qi et al.: ZB-H1 peaks at 1F1B's pp).
            // ZB-V holds 2 pp chunks, half a stage each, on every stage
            // (its order: pp micro-batches of each chunk at the peak).
            Schedule::ZeroBubbleH1 | Schedule::ZeroBubbleV => (m.min(pp), m.min(pp)),
            // DualPipeV holds one chunk more than ZB-V (DualPipe's PP + 1).
            Schedule::DualPipeV => (m.min(pp + 0.5), m.min(pp + 0.5)),
            Schedule::Interleaved => {
                // Counted in stages' worth of layers (chunks of 1/v): the
                // chunks each device runs forward before its first backward
                // (Megatron's warm-up over groups of `n` micro-batches) and
                // the one it then runs, at most every chunk of every
                // micro-batch. With groups of PP the first device holds
                // `pp + (pp - 1) / v`, Korthikanti et al.'s figure.
                let v = f64::from(p.virtual_stages);
                let n = f64::from(crate::timeline::micro_batch_group(
                    p.pp,
                    cfg.micro_batches(),
                ));
                (
                    ((2.0 * (pp - 1.0) + (v - 1.0) * n + 1.0) / v).min(m),
                    (((v - 1.0) * n + 1.0) / v).min(m),
                )
            }
        }
    }
}

/// Saved activations at the peak: the fuller of the first stage (its
/// micro-batches in flight) and the last (its own and the fp32 logits),
/// plus one layer's working set while it is recomputed.
fn activations(cfg: &Config, layers_stage: f64, layers_last: f64) -> f64 {
    let w = Widths::of(cfg);
    let (layer, tokens) = saved_per_layer(cfg, &w);
    // What the loss holds of the logits, one micro-batch's at a time.
    let logits = cfg.stack.logits_bytes * tokens * f64::from(cfg.model.vocab) / w.tp;
    let mut activations = if cfg.layout.parallel.pp == 1 {
        // Offloaded layers' activations leave the GPU after their
        // forward; the last copy is waited for before the output head
        // runs and the first reload starts after the head's backward, so
        // one offloaded layer's and the logits are not held together.
        let off = f64::from(cfg.layout.offload_layers).min(layers_stage);
        layer * (layers_stage - off) + logits.max(layer * off.min(1.0))
    } else {
        let (first_in_flight, last_in_flight) = in_flight(cfg);
        (layer * layers_stage * first_in_flight).max(layer * layers_last * last_in_flight + logits)
    };
    if cfg.layout.recompute == Recompute::Full {
        // One layer's full working set while it is recomputed.
        activations += 2.0 * tokens * w.every_activation();
    }
    activations
}
