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
use crate::model::{Mlp, Moe};
use crate::phases::Shape;
use crate::scenario::Config;
use crate::stack::EpDispatch;
use crate::units::{Bytes, Seconds};

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
    let up = match cfg.model.mlp {
        Mlp::Swiglu => 2.0,
        Mlp::Gelu => 1.0,
    };
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
    let tails = cfg.stack.expert_gemm_us * 1e-6 * 2.0 * local;
    let routed_activation = routed * ffn / etp;
    let activation = routed_activation + tokens * shared_ffn;
    let shared_input = if e.shared > 0 { tokens * h } else { 0.0 };
    let permute = cal::MOE_PERMUTE_PASSES * tokens * f64::from(e.top_k) * e.load() * h;
    ExpertCompute {
        routed_activation: routed_activation * share,
        gemm: Seconds((experts + shared + router + tails) * share),
        activation: activation * share,
        moved: permute * share,
        quantised: (
            (routed * h + activation + shared_input) * share,
            (routed * h + shared_input) * share,
        ),
        quantise_fixed: Seconds(if crate::phases::quantise_passes(cfg.precision) > 0.0 {
            2.0 * local * cfg.stack.expert_quantise_us * 1e-6 * share
        } else {
            0.0
        }),
        kernels: cal::MOE_KERNELS * share,
    }
}

/// Kernels one MoE layer's forward launches: the fixed ones, two GEMMs per
/// local expert, and under fp8 a quantisation of each GEMM's input. The
/// host launches every one, so many small experts per GPU make a layer
/// bound by its launches.
pub(crate) fn kernels(cfg: &Config) -> f64 {
    let Some(e) = cfg.model.moe else {
        return 0.0;
    };
    let local = f64::from(e.experts) / f64::from(cfg.layout.parallel.ep.max(1));
    (cal::MOE_KERNELS + 2.0 * local + quantise_kernels(cfg, local)) * cfg.model.moe_share()
}

/// Quantisation kernels of the local experts' GEMM inputs where the
/// precision quantises them ([`crate::phases::quantise_passes`]): one per
/// input, or Transformer Engine's three per input and expert.
fn quantise_kernels(cfg: &Config, local: f64) -> f64 {
    if crate::phases::quantise_passes(cfg.precision) > 0.0 {
        2.0 * local * cfg.stack.expert_quantise_kernels
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
/// RDMA domain").
pub(crate) fn copies(
    dispatch: EpDispatch,
    (experts, top_k): (u32, u32),
    ep: u32,
    inside: u32,
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
mod tests {
    use super::*;
    use crate::collective::exchange;
    use crate::findings;
    use crate::hardware::H100;

    #[test]
    fn all_to_all_inside_a_node_runs_at_nvlink_and_across_at_the_nic() {
        let cfg = findings::base(H100, 8, "llama2-7b", 512, 1);
        let links = cfg.cluster.links();
        // 64 MB of routed copies: 8 MB per copy of a token batch, top 8.
        let unit = Bytes(8e6);
        let nccl = |ep, inside| copies(EpDispatch::Nccl, (256, 8), ep, inside);
        let inside = exchange(nccl(8, 8), unit, &links);
        let across = exchange(nccl(64, 8), unit, &links);
        // 7/8 of 64 MB at H100's 360 GB/s bus rate, 56/64 at 45 GB/s.
        assert!((inside.0 * 1e3 - 0.156).abs() < 0.02, "{inside:?}");
        assert!((across.0 * 1e3 - 1.244).abs() < 0.05, "{across:?}");
        assert_eq!(exchange(nccl(1, 1), unit, &links), Seconds(0.0));
    }

    /// DeepSeek-V3's 256 experts, top 8, over EP 64 on 8 nodes of 8: NCCL
    /// sends 7 of a token's 8 copies across the network; DeepEP sends it
    /// once to each other node holding one of its experts, 7 x (1 -
    /// C(224, 8) / C(256, 8)) = 4.6 on average, and once to each GPU.
    #[test]
    fn deduplicating_dispatch_sends_a_token_once_per_node_and_gpu() {
        let nccl = copies(EpDispatch::Nccl, (256, 8), 64, 8);
        let dedup = copies(EpDispatch::Deduplicated, (256, 8), 64, 8);
        assert!((nccl.1 - 7.0).abs() < 1e-9 && (nccl.0 - 0.875).abs() < 1e-9);
        assert!((dedup.1 - 4.63).abs() < 0.01, "{dedup:?}");
        // 63 other GPUs, each holding 4 experts: 63 x (1 - C(252, 8) / C(256, 8)).
        assert!((dedup.0 - 7.56).abs() < 0.01, "{dedup:?}");
        // One expert per token: nothing to deduplicate.
        let one = copies(EpDispatch::Deduplicated, (64, 1), 64, 8);
        let plain = copies(EpDispatch::Nccl, (64, 1), 64, 8);
        assert!((one.1 - plain.1).abs() < 1e-9, "{one:?} {plain:?}");
        // Inside one domain nothing crosses the network.
        assert_eq!(copies(EpDispatch::Deduplicated, (128, 8), 8, 8).1, 0.0);
    }

    /// The combined 1F1B schedule hides each micro-batch's All-to-All
    /// behind its partner's compute: what shows falls, the links carry the
    /// same, and the SMs its kernels hold show as contention. Under full
    /// recomputation Megatron-Core refuses the schedule, so nothing hides.
    #[test]
    fn combined_1f1b_hides_the_all_to_all_behind_the_partner_micro_batch() {
        let mut cfg = findings::base(H100, 32, "llama2-7b", 2048, 1);
        cfg.model = crate::model::QWEN3_235B_A22B;
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        let p = &mut cfg.layout.parallel;
        (p.tp, p.pp, p.ep, p.sp) = (2, 8, 32, true);
        p.schedule = crate::scenario::Schedule::Interleaved;
        p.virtual_stages = 4;
        p.dp = crate::scenario::DataParallel::Zero1;
        cfg.layout.recompute = crate::scenario::Recompute::Selective;
        let run = |cfg: &Config| crate::evaluate::evaluate(cfg).unwrap();
        let blocking = run(&cfg);
        cfg.layout.parallel.ep_overlap = true;
        let hidden = run(&cfg);
        let (b, h) = (blocking.breakdown, hidden.breakdown);
        assert!((b.ep.total.0 - h.ep.total.0).abs() < 1e-9);
        assert!(
            h.ep.exposed.0 < 0.5 * b.ep.exposed.0,
            "{:?} {:?}",
            b.ep,
            h.ep
        );
        assert!(h.contention.0 > b.contention.0);
        assert!(hidden.step_time_s < blocking.step_time_s);
        cfg.layout.recompute = crate::scenario::Recompute::Full;
        let full = run(&cfg).breakdown.ep;
        assert!((full.exposed.0 - full.total.0).abs() < 1e-9, "{full:?}");
    }

    /// DeepGEMM's grouped fp8 GEMMs on H800 (its first README): at N 4096
    /// and K 7168, 1297 TFLOP/s at 8192 tokens per expert, 1233 at 1024,
    /// 1040 at 512 and 932 at 256; at N 7168 and K 2048, 1099, 925, 916 and
    /// 815. The expert GEMMs' rate (the dense shape factor and the grouped
    /// per-expert cost, fitted on these six) falls with tokens per expert
    /// within 12% of every ratio.
    #[test]
    fn expert_gemms_slow_with_few_tokens_per_expert_as_deepgemm_measures() {
        let shape = &H100.gemm_shape;
        let rate = |m: f64, n: f64, k: f64| {
            shape.factor(m, n, k, true) / (1.0 + cal::GROUPED_GEMM_SETUP_TOKENS / m)
        };
        let table = [
            (
                (4096.0, 7168.0),
                1297.0,
                [(1024.0, 1233.0), (512.0, 1040.0), (256.0, 932.0)],
            ),
            (
                (7168.0, 2048.0),
                1099.0,
                [(1024.0, 925.0), (512.0, 916.0), (256.0, 815.0)],
            ),
        ];
        for ((n, k), full, rows) in table {
            for (m, tflops) in rows {
                let model = rate(m, n, k) / rate(8192.0, n, k);
                let measured = tflops / full;
                assert!(
                    (model - measured).abs() / measured < 0.12,
                    "{m} tokens, N {n}, K {k}: model {model:.3}, measured {measured:.3}"
                );
            }
        }
    }

    /// Under Megatron-Core each local expert's GEMM goes through
    /// Transformer Engine's GroupedLinear, one cuBLASLt GEMM per expert:
    /// each of the forward's two per expert costs 25 us beside its share of
    /// the work where another stack pays a GEMM's 8 us launch and tail,
    /// the backward's four likewise, and the difference grows with the
    /// experts each GPU holds.
    #[test]
    fn grouped_linear_pays_its_measured_cost_per_expert_gemm() {
        let mut cfg = findings::base(H100, 32, "llama2-7b", 1024, 1);
        cfg.model = crate::model::QWEN3_30B_A3B;
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        let per_gemm = cal::TE_GROUPED_GEMM_EXPERT_US - cal::KERNEL_OVERHEAD_US;
        for ep in [8, 32] {
            cfg.layout.parallel.ep = ep;
            let s = crate::phases::Shape::of(&cfg);
            let megatron = crate::phases::compute(&cfg, &s).0;
            let mut plain = cfg;
            plain.stack.expert_gemm_us = cal::KERNEL_OVERHEAD_US;
            let other = crate::phases::compute(&plain, &s).0;
            let local = f64::from(128 / ep);
            let want = 2.0 * local * per_gemm * 1e-6 * cfg.model.moe_share();
            let fwd = (megatron.forward() - other.forward()).0;
            let bwd = (megatron.backward() - other.backward()).0;
            assert!((fwd - want).abs() < 1e-12, "EP {ep}: {fwd} against {want}");
            assert!((bwd - 2.0 * want).abs() < 1e-12, "EP {ep}: {bwd}");
        }
    }

    /// Under fp8, Transformer Engine's GroupedLinear quantises each local
    /// expert's operand apart, three kernels launched alone (amax, scale,
    /// cast): two operands each way cost 2 x 3 x 8 us per expert where a
    /// stack with one queued kernel per operand pays 2 x 2 us; in bf16
    /// nothing is quantised.
    #[test]
    fn grouped_linear_quantises_each_experts_operands_apart() {
        let mut cfg = findings::base(H100, 32, "llama2-7b", 1024, 1);
        cfg.model = crate::model::QWEN3_30B_A3B;
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        let per_operand =
            cal::TE_EXPERT_QUANTISE_KERNELS * cal::KERNEL_OVERHEAD_US - cal::ELEMENTWISE_KERNEL_US;
        for (precision, quantised) in [
            (crate::scenario::Precision::Bf16, false),
            (crate::scenario::Precision::Fp8, true),
        ] {
            cfg.precision = precision;
            for ep in [8, 32] {
                cfg.layout.parallel.ep = ep;
                let s = crate::phases::Shape::of(&cfg);
                let megatron = crate::phases::compute(&cfg, &s).0.quantise;
                let mut plain = cfg;
                plain.stack.expert_quantise_us = cal::ELEMENTWISE_KERNEL_US;
                let other = crate::phases::compute(&plain, &s).0.quantise;
                let local = f64::from(128 / ep);
                let want = if quantised {
                    2.0 * local * per_operand * 1e-6 * cfg.model.moe_share()
                } else {
                    0.0
                };
                for (m, o) in [(megatron.0, other.0), (megatron.1, other.1)] {
                    assert!(((m - o).0 - want).abs() < 1e-12, "EP {ep}: {m:?} {o:?}");
                }
            }
        }
        // At EP 32, four local experts: two operands, two more kernels each.
        let mut one = cfg;
        one.stack.expert_quantise_kernels = 1.0;
        let extra = kernels(&cfg) - kernels(&one);
        assert!((extra - 2.0 * 4.0 * 2.0 * cfg.model.moe_share()).abs() < 1e-9);
    }

    /// Megatron-LM PR 5728 measured Qwen3 30B-A3B on H100 at 242.9 TFLOP/s
    /// in fp8 and 240.5 in bf16: with each expert's operands quantised
    /// apart, fp8 gains nothing on 16 H100s at EP 16 (within 5%).
    #[test]
    fn fp8_moe_under_grouped_linear_runs_no_faster_than_bf16() {
        let mut cfg = findings::base(H100, 2, "llama2-7b", 1024, 1);
        cfg.model = crate::model::QWEN3_30B_A3B;
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        let p = &mut cfg.layout.parallel;
        (p.tp, p.pp, p.ep, p.sp) = (1, 1, 16, true);
        p.dp = crate::scenario::DataParallel::Zero1;
        cfg.layout.micro_batch = 1;
        let bf16 = crate::evaluate::evaluate_checked(&cfg).tflops_per_gpu;
        cfg.precision = crate::scenario::Precision::Fp8;
        let fp8 = crate::evaluate::evaluate_checked(&cfg).tflops_per_gpu;
        let (model, measured) = (fp8 / bf16, 242.9 / 240.5);
        assert!((model / measured - 1.0).abs() < 0.05, "{fp8} over {bf16}");
    }

    /// The routed experts' weights split over EP, and their optimizer
    /// state over the expert data-parallel group that is left.
    #[test]
    fn expert_memory_is_sharded_over_ep_and_the_expert_data_parallel_group() {
        let mut cfg = findings::base(H100, 128, "llama2-7b", 1024, 1);
        cfg.model = crate::model::DEEPSEEK_V3;
        let p = &mut cfg.layout.parallel;
        (p.tp, p.pp, p.ep) = (1, 16, 8);
        p.dp = crate::scenario::DataParallel::Zero1;
        let at = |cfg: &crate::scenario::Config| crate::memory::per_gpu(cfg);
        let ep8 = at(&cfg);
        cfg.layout.parallel.ep = 64;
        let ep64 = at(&cfg);
        let (dense, expert) = cfg.layer_params_local();
        // 64 GPUs per stage: expert data parallelism 8 at EP 8, 1 at EP 64.
        assert_eq!(cfg.expert_dp(), 1);
        cfg.layout.parallel.ep = 8;
        assert_eq!(cfg.expert_dp(), 8);
        // Weights: bf16 of the dense part and of experts / EP experts.
        let (most, last) = cfg.pipeline_split();
        let layers = f64::from(most.max(last));
        let gone = 2.0 * (expert * 64.0 / 8.0 - expert) * layers;
        assert!((ep8.weights.0 - ep64.weights.0 - gone).abs() < 1e6);
        // ZeRO-1's optimizer state of the experts: 8 times the experts over
        // 8 expert replicas, or one share each unsharded, the same bytes.
        let rel = (ep8.optimizer.0 - ep64.optimizer.0).abs() / ep64.optimizer.0;
        assert!(rel < 1e-9, "{ep8:?} {ep64:?}");
        assert!(dense > 0.0);
    }

    #[test]
    fn deepseek_v3_on_256_gb200s_exposes_its_all_to_all() {
        let mut cfg = findings::base(crate::hardware::GB200, 64, "llama2-7b", 4096, 1);
        cfg.model = crate::model::DEEPSEEK_V3;
        cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
        cfg.precision = crate::scenario::Precision::Fp8;
        let p = &mut cfg.layout.parallel;
        (p.tp, p.pp, p.ep) = (1, 4, 64);
        p.schedule = crate::scenario::Schedule::Interleaved;
        p.virtual_stages = 4;
        p.dp = crate::scenario::DataParallel::Zero1;
        cfg.layout.recompute = crate::scenario::Recompute::Full;
        let r = crate::evaluate::evaluate(&cfg).unwrap();
        let ep = r.breakdown.ep;
        assert!(ep.exposed.0 > 0.0 && ep.total.0 >= ep.exposed.0);
        assert!(r.fits, "{:?}", r.memory);
        // Megatron-Bridge 26.02 measures 3955 tokens/s per GPU.
        assert!(
            (r.tokens_per_s_per_gpu / 3955.0 - 1.0).abs() < 0.15,
            "{}",
            r.tokens_per_s_per_gpu
        );
        // Without expert parallelism the experts do not fit.
        cfg.layout.parallel.ep = 1;
        assert!(!crate::evaluate::evaluate(&cfg).unwrap().fits);
    }
}
