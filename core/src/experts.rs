//! Mixture-of-experts layers: the routed experts' grouped GEMMs, the
//! shared experts and the router, the token permutation around them, and
//! the All-to-All that dispatches tokens to their experts' GPUs and
//! combines them back.
//!
//! Layers are costed as their mean (a model's dense leading layers are
//! spread over the stages), so every cost here is one MoE layer's times
//! the model's MoE share ([`crate::model::Model::moe_share`]).
//!
//! Under expert parallelism (EP) each GPU holds `experts / EP` routed
//! experts, each split `ETP` ways. A GPU brings its `tokens / TP` tokens
//! (Megatron-Core runs MoE with sequence parallelism, so the TP ranks hold
//! a slice each) and receives, on average, as many routed tokens as it
//! sent: `tokens / TP × top_k`, times the load of the most-loaded expert
//! ([`crate::model::Moe::load`]).

use crate::calibration as cal;
use crate::collective::Links;
use crate::model::Moe;
use crate::phases::Shape;
use crate::scenario::Config;
use crate::stack::EpDispatch;
use crate::units::{Bytes, Seconds};
use serde::Serialize;

/// What each local expert's GEMMs and their fp8 (and fp4) quantisation
/// cost beside their share of the grouped work.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExpertKernels {
    /// Fixed time of each local expert's GEMM, microseconds.
    pub gemm_us: f64,
    /// Kernels the host launches to quantise one GEMM operand of one local
    /// expert.
    pub quantise_kernels: f64,
    /// Time each of those kernels takes, microseconds, beside the bytes
    /// they move: one queued behind others, or one launched alone.
    pub quantise_kernel_us: f64,
    /// How the experts' biases are added, in a model with biases.
    pub bias: ExpertBias,
}

/// How a stack adds the expert biases of a model with them (GPT-OSS's)
/// where its GEMMs do not: one local expert at a time, then the experts'
/// rows concatenated, in forward (backward twice as every element-wise
/// pass).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExpertBias {
    /// Passes over the routed rows' first-linear outputs, in `ffn`-wide
    /// units ([`crate::calibration::EXPERT_UP_BIAS_PASSES`]).
    pub up_passes: f64,
    /// Passes over their second-linear outputs, `hidden` wide
    /// ([`crate::calibration::EXPERT_BIAS_PASSES`]).
    pub down_passes: f64,
    /// Kernels launched for each local expert, and once a layer.
    pub kernels: (f64, f64),
}

impl ExpertBias {
    /// Biases added in the GEMMs' epilogues, or none to add.
    pub const NONE: Self = Self {
        up_passes: 0.0,
        down_passes: 0.0,
        kernels: (0.0, 0.0),
    };
    /// Megatron-Core's `TEGroupedMLP`: the first bias in `GroupedLinear`'s
    /// epilogue, the second (returned unapplied) times each row's
    /// probability by `_apply_bias`: two kernels an expert, one concatenation.
    pub const SECOND: Self = Self {
        up_passes: 0.0,
        down_passes: crate::calibration::EXPERT_BIAS_PASSES,
        kernels: (2.0, 1.0),
    };
    /// NeMo Automodel's `GroupedExpertsDeepEP`: both by `_apply_bias`,
    /// three kernels an expert and two concatenations.
    pub const BOTH: Self = Self {
        up_passes: crate::calibration::EXPERT_UP_BIAS_PASSES,
        down_passes: crate::calibration::EXPERT_BIAS_PASSES,
        kernels: (3.0, 2.0),
    };
}

impl ExpertKernels {
    /// Experts run as plain launches or one grouped kernel: a GEMM's
    /// launch and tail, one quantisation kernel queued behind the others.
    pub const PLAIN: Self = Self {
        gemm_us: crate::calibration::KERNEL_OVERHEAD_US,
        quantise_kernels: 1.0,
        quantise_kernel_us: crate::calibration::ELEMENTWISE_KERNEL_US,
        bias: ExpertBias::NONE,
    };
    /// Transformer Engine's `GroupedLinear`: one cuBLASLt GEMM per expert
    /// ([`crate::calibration::TE_GROUPED_GEMM_EXPERT_US`]), and each
    /// expert's operand quantised apart, three kernels each launched alone
    /// ([`crate::calibration::TE_EXPERT_QUANTISE_KERNELS`]).
    pub const GROUPED_LINEAR: Self = Self {
        gemm_us: crate::calibration::TE_GROUPED_GEMM_EXPERT_US,
        quantise_kernels: crate::calibration::TE_EXPERT_QUANTISE_KERNELS,
        quantise_kernel_us: crate::calibration::KERNEL_OVERHEAD_US,
        bias: ExpertBias::SECOND,
    };
    /// `GroupedLinear` under Transformer Engine's blockwise fp8 recipe
    /// (`Float8BlockScaling`): each expert's operand is still quantised
    /// apart (`split_quantize` fuses experts only under delayed scaling),
    /// but by one kernel that computes its 128-element blocks' scales as
    /// it casts (`Float8BlockQuantizer::quantize`, one `nvte_quantize_v2`),
    /// where current scaling launches amax, scale and cast.
    pub const GROUPED_LINEAR_BLOCKWISE: Self = Self {
        gemm_us: crate::calibration::TE_GROUPED_GEMM_EXPERT_US,
        quantise_kernels: 1.0,
        quantise_kernel_us: crate::calibration::KERNEL_OVERHEAD_US,
        bias: ExpertBias::SECOND,
    };
}

/// What one layer's MoE part adds to its compute, the mean over the
/// layers: GEMM time (routed experts, shared experts, router), elements
/// the element-wise kernels pass over, and kernels launched.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExpertCompute {
    /// Forward GEMM seconds.
    pub gemm: Seconds,
    /// Elements the MLP activation passes over in the forward, and of them
    /// the routed experts' (what `moe_act` reruns).
    pub activation: f64,
    pub routed_activation: f64,
    /// Elements the permutation and its inverse move in the forward.
    pub moved: f64,
    /// Elements of GEMM operands no fused kernel writes in a low precision
    /// ([`crate::phases::compute`] quantises them under fp8 and fp4), in
    /// forward and backward: the routed tokens entering the experts, the
    /// experts' activations and, with shared experts, their input (an MoE
    /// layer's norm stands alone); in backward the experts' and shared
    /// experts' output gradients.
    pub quantised: (f64, f64),
    /// Fixed time of quantising the local experts' operands one expert at
    /// a time under fp8 and fp4, forward and backward alike (two operands
    /// each way), beside the bytes `quantised` moves.
    pub quantise_fixed: Seconds,
    /// Element-wise kernels the forward launches.
    pub kernels: f64,
}

/// Tokens of one micro-batch a GPU brings to an MoE layer.
fn tokens_in(cfg: &Config, s: &Shape) -> f64 {
    s.tokens / f64::from(cfg.layout.parallel.tp.max(1))
}

/// The MoE part of one layer's forward, given the GEMM rate function
/// `gemm(m, n, k)` of the phase that calls it. Zero for a dense model.
pub(crate) fn compute(
    cfg: &Config,
    s: &Shape,
    gemm: &dyn Fn(f64, f64, f64) -> f64,
) -> ExpertCompute {
    let Some(e) = cfg.model.moe else {
        return ExpertCompute::default();
    };
    let p = cfg.layout.parallel;
    let share = cfg.model.moe_share();
    let (ep, etp, tp) = (f64::from(p.ep), f64::from(p.etp), f64::from(p.tp));
    let h = f64::from(cfg.model.hidden);
    let ffn = f64::from(e.expert_ffn);
    let up = if cfg.model.mlp.gated() { 2.0 } else { 1.0 };
    let tokens = tokens_in(cfg, s);
    // Each local expert's GEMM sees the tokens routed to it from the EP
    // group (gathered over ETP): `tokens × ETP × top_k × EP / experts`,
    // times the load; its rate follows that shape, so small experts with
    // few tokens each run far from peak (DeepGEMM's grouped tables).
    let local = f64::from(e.experts) / ep;
    let routed = tokens * etp * f64::from(e.top_k) * e.load();
    let m = routed / local.max(1.0);
    // A grouped GEMM also pays a per-expert cost (its tiles scheduled and
    // its last tile of rows part-filled) of a fixed number of tokens' work.
    let grouped = 1.0 + cal::GROUPED_GEMM_SETUP_TOKENS / m.max(1.0);
    let experts = local * (gemm(m, up * ffn / etp, h) + gemm(m, h, ffn / etp)) * grouped;
    // Shared experts run as one dense MLP of `shared × expert_ffn` split
    // over TP; the router is a `hidden × experts` GEMM.
    let shared_ffn = f64::from(e.shared) * ffn;
    let shared = if e.shared > 0 {
        gemm(s.tokens, up * shared_ffn / tp, h) + gemm(s.tokens, h, shared_ffn / tp)
    } else {
        0.0
    };
    let router = gemm(tokens, f64::from(e.experts), h);
    // Each local expert's GEMM pays a fixed time beside its share of the
    // work: a launch and tail, or Transformer Engine's GroupedLinear's
    // per-expert cuBLASLt GEMM over several streams (the stack's).
    let tails = cfg.stack.experts.gemm_us * 1e-6 * 2.0 * local;
    let routed_activation = routed * ffn / etp;
    let activation = routed_activation + tokens * shared_ffn;
    let shared_input = if e.shared > 0 { tokens * h } else { 0.0 };
    let permute = cal::MOE_PERMUTE_PASSES * tokens * f64::from(e.top_k) * e.load() * h;
    let bias = bias(cfg);
    ExpertCompute {
        routed_activation: routed_activation * share,
        gemm: Seconds((experts + shared + router + tails) * share),
        activation: activation * share,
        moved: (permute + routed * (bias.up_passes * ffn / etp + bias.down_passes * h)) * share,
        quantised: (
            (routed * h + activation + shared_input) * share,
            (routed * h + shared_input) * share,
        ),
        quantise_fixed: {
            let k = &cfg.stack.experts;
            Seconds(
                quantised_operands(cfg, local)
                    * (k.quantise_kernels * k.quantise_kernel_us)
                    * 1e-6
                    * share,
            )
        },
        kernels: (cal::MOE_KERNELS + bias.kernels.0 * local + bias.kernels.1) * share,
    }
}

/// How `cfg`'s stack adds its model's expert biases apart from the GEMMs
/// ([`ExpertKernels::bias`]); none without biases.
fn bias(cfg: &Config) -> ExpertBias {
    if cfg.model.mlp.biased_experts() {
        cfg.stack.experts.bias
    } else {
        ExpertBias::NONE
    }
}

/// Kernels one MoE layer's forward launches: the fixed ones and two GEMMs
/// per local expert (which backward launches twice over), and under fp8
/// and fp4 the quantisation of each GEMM's input (which backward launches
/// as often, for the two output gradients). The host launches every one,
/// so many small experts per GPU make a layer bound by its launches.
pub(crate) fn kernels(cfg: &Config) -> (f64, f64) {
    let Some(e) = cfg.model.moe else {
        return (0.0, 0.0);
    };
    let local = f64::from(e.experts) / f64::from(cfg.layout.parallel.ep.max(1));
    let share = cfg.model.moe_share();
    let bias = bias(cfg).kernels;
    (
        (cal::MOE_KERNELS + 2.0 * local + bias.0 * local + bias.1) * share,
        quantised_operands(cfg, local) * cfg.stack.experts.quantise_kernels * share,
    )
}

/// The local experts' GEMM inputs a layer quantises each way, where the
/// precision quantises them ([`crate::phases::quantise_passes`]): two per
/// expert (each quantised by [`ExpertKernels::quantise_kernels`]).
fn quantised_operands(cfg: &Config, local: f64) -> f64 {
    if crate::phases::quantise_passes(cfg.precision) > 0.0 {
        2.0 * local
    } else {
        0.0
    }
}

/// The All-to-All of one layer and micro-batch, the mean over the layers:
/// dispatch and combine in the forward, their gradients in the backward,
/// as long as they take on the links (`wire_*`) and as much of that as
/// the layer waits for (`fwd`, `bwd`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AllToAll {
    /// Forward: dispatch and combine, what the layer waits for.
    pub fwd: Seconds,
    /// Backward: the same two, reversed, what the layer waits for.
    pub bwd: Seconds,
    /// Forward: dispatch and combine on the links.
    pub wire_fwd: Seconds,
    /// Backward: their gradients on the links.
    pub wire_bwd: Seconds,
    /// Compute slowed beside a hidden forward All-to-All (its kernels hold
    /// SMs), charged to the forward.
    pub stretch_fwd: Seconds,
    /// The same beside the backward's.
    pub stretch_bwd: Seconds,
    /// Whether another micro-batch's compute hides it.
    pub overlapped: bool,
}

impl AllToAll {
    /// The forward's again, under full recomputation (the combined
    /// schedule never runs with it, so it is blocking).
    pub(crate) fn recompute(&self, r: crate::scenario::Recompute) -> Seconds {
        if r == crate::scenario::Recompute::Full {
            self.wire_fwd
        } else {
            Seconds(0.0)
        }
    }

    /// The least a layer waits for it in any layout of the same degrees:
    /// all of it when it blocks, none when it may hide.
    pub(crate) fn floor(&self) -> Seconds {
        if self.overlapped {
            Seconds(0.0)
        } else {
            self.fwd + self.bwd
        }
    }

    /// Under Megatron-Core's combined 1F1B schedule
    /// (`overlap_moe_expert_parallel_comm`) each layer's forward of one
    /// micro-batch runs beside its backward of the previous one, split in
    /// sub-modules: each of the four All-to-Alls (the forward's dispatch
    /// and combine, the backward's) runs beside one compute sub-module of
    /// the other direction, the experts' MLP or the rest of the layer,
    /// and shows where it outlasts it; its kernels hold SMs, slowing that
    /// compute. The micro-batches of the warm-up and cool-down have no
    /// partner: `v x pp` of the `m x v` passes of an average stage
    /// (Megatron's warm-up of the interleaved schedule plus the one the
    /// combined schedule adds; one without a pipeline).
    pub(crate) fn overlapped(
        self,
        cfg: &Config,
        layer: &crate::phases::LayerCompute,
        (compute_fwd, compute_bwd): (Seconds, Seconds),
        slowdown: f64,
        (m, v): (f64, f64),
    ) -> Self {
        let p = cfg.layout.parallel;
        let wire = self.wire_fwd + self.wire_bwd;
        if !(p.ep_overlap || p.schedule.pairs_micro_batches() && p.pp > 1)
            || cfg.layout.recompute == crate::scenario::Recompute::Full
            || wire.0 <= 0.0
        {
            return self;
        }
        let passes = (m * v).max(1.0);
        let alone = (v * f64::from(p.pp.max(1))).min(passes);
        let paired = (passes - alone) / passes;
        // The experts' MLP and the rest, forward and backward (two GEMMs
        // per forward one).
        let mlp_f = layer.experts.min(compute_fwd);
        let mlp_b = (layer.experts * 2.0).min(compute_bwd);
        let beside = |wire: Seconds, (a, b): (Seconds, Seconds)| {
            let (e1, s1) = crate::phases::overlap(wire * 0.5, a, slowdown);
            let (e2, s2) = crate::phases::overlap(wire * 0.5, b, slowdown);
            (e1 + e2, s1 + s2)
        };
        let (exp_f, con_f) = beside(self.wire_fwd, (mlp_b, compute_bwd - mlp_b));
        let (exp_b, con_b) = beside(self.wire_bwd, (mlp_f, compute_fwd - mlp_f));
        let mix = |pair: Seconds, whole: Seconds| pair * paired + whole * (1.0 - paired);
        Self {
            fwd: mix(exp_f, self.wire_fwd),
            bwd: mix(exp_b, self.wire_bwd),
            // The forward's All-to-All slows the backward's compute it
            // hides behind, and the other way round.
            stretch_fwd: con_b * paired,
            stretch_bwd: con_f * paired,
            overlapped: true,
            ..self
        }
    }
}

/// Chance that none of a token's `k` experts, drawn without repeats from
/// `experts` with balanced routing, is among a given `s` of them.
fn none_among(experts: f64, s: f64, k: u32) -> f64 {
    let mut p = 1.0;
    for i in 0..k {
        let i = f64::from(i);
        p *= ((experts - s - i) / (experts - i)).max(0.0);
    }
    p
}

/// Copies of one token an expert-parallel rank sends per direction of one
/// All-to-All: over NVLink and across the network. NCCL's All-to-All sends
/// every routed copy to its expert's GPU; the deduplicating kernels
/// (DeepEP, HybridEP) send a token once to each GPU holding any of its
/// experts and across the network once to each other NVLink domain, whose
/// receiving GPU forwards it (DeepEP's README: "forwarding from NVLink to
/// RDMA domain"). Under `consecutive` routing a token's `k` experts are
/// the block of `k` that starts at a multiple of `k` (NeMo Automodel's
/// `FakeBalancedGate`: `arange(tokens × k).view(-1, k) % experts`), so it
/// meets as few GPUs and domains as that block spans.
pub(crate) fn copies(
    dispatch: EpDispatch,
    (experts, top_k): (u32, u32),
    ep: u32,
    inside: u32,
    consecutive: bool,
) -> (f64, f64) {
    let group = crate::collective::Group::new(ep, inside);
    let (e, ep_f) = (f64::from(experts), f64::from(group.ranks));
    let inside = f64::from(group.ranks_per_node);
    match dispatch {
        EpDispatch::Nccl => {
            // Every routed copy, spread as one All-to-All's buffer is.
            let (nvlink, network) = crate::collective::spread(group);
            let k = f64::from(top_k);
            (k * nvlink, k * network)
        }
        EpDispatch::Deduplicated if consecutive => {
            // Blocks cycle over the GPUs token by token, so each GPU (and
            // domain) is met as often as any other.
            let per_gpu = (experts / group.ranks).max(1);
            let domains = group.ranks / group.ranks_per_node;
            let gpus = spanned(top_k, per_gpu);
            let met = spanned(top_k, per_gpu * group.ranks_per_node);
            let domains = f64::from(domains.max(1));
            (gpus * (ep_f - 1.0) / ep_f, met * (domains - 1.0) / domains)
        }
        EpDispatch::Deduplicated => {
            let per_gpu = e / ep_f;
            let domains = ep_f / inside;
            let gpu_hit = 1.0 - none_among(e, per_gpu, top_k);
            let domain_hit = 1.0 - none_among(e, per_gpu * inside, top_k);
            (
                (ep_f - 1.0) * gpu_hit,
                (domains - 1.0).max(0.0) * domain_hit,
            )
        }
    }
}

/// Blocks of `size` (aligned at multiples of it) that a block of `k`
/// aligned at a multiple of `k` spans, on the mean over where it starts:
/// `(k + size - gcd(k, size)) / size`.
fn spanned(k: u32, size: u32) -> f64 {
    let (mut a, mut b) = (k.max(1), size.max(1));
    while b != 0 {
        (a, b) = (b, a % b);
    }
    f64::from(k.max(1) + size.max(1) - a) / f64::from(size.max(1))
}

/// Ranks of an EP group inside one NVLink domain: expert groups are laid
/// over the domain first, `ETP` GPUs to an EP rank.
pub(crate) fn ep_inside_domain(cfg: &Config) -> u32 {
    let p = cfg.layout.parallel;
    (cfg.cluster.domain() / p.etp.max(1)).clamp(1, p.ep.max(1))
}

/// The dispatch and combine of one layer and micro-batch: each GPU sends
/// its `tokens / TP` tokens (`hidden` values each, in bf16, times the
/// load) to its experts' GPUs as the stack's dispatcher does
/// ([`copies`]), and receives them back; blocking until
/// [`AllToAll::overlapped`] says otherwise.
pub(crate) fn exchange(cfg: &Config, s: &Shape, links: &Links) -> AllToAll {
    let Some(e): Option<Moe> = cfg.model.moe else {
        return AllToAll::default();
    };
    let p = cfg.layout.parallel;
    if p.ep <= 1 {
        return AllToAll::default();
    }
    let unit =
        Bytes(tokens_in(cfg, s) * e.load() * f64::from(cfg.model.hidden) * cal::MOE_DISPATCH_BYTES);
    let sent = copies(
        cfg.stack.ep_dispatch,
        (e.experts, e.top_k),
        p.ep,
        ep_inside_domain(cfg),
        cfg.stack.consecutive_routing,
    );
    let one = crate::collective::exchange(sent, unit, links) * cfg.model.moe_share();
    AllToAll {
        fwd: one * 2.0,
        bwd: one * 2.0,
        wire_fwd: one * 2.0,
        wire_bwd: one * 2.0,
        ..AllToAll::default()
    }
}

#[cfg(test)]
#[path = "experts_tests.rs"]
mod tests;
