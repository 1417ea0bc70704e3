//! Unit tests of `experts`.
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
    let nccl = |ep, inside| copies(EpDispatch::Nccl, (256, 8), ep, inside, false);
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
    let nccl = copies(EpDispatch::Nccl, (256, 8), 64, 8, false);
    let dedup = copies(EpDispatch::Deduplicated, (256, 8), 64, 8, false);
    assert!((nccl.1 - 7.0).abs() < 1e-9 && (nccl.0 - 0.875).abs() < 1e-9);
    assert!((dedup.1 - 4.63).abs() < 0.01, "{dedup:?}");
    // 63 other GPUs, each holding 4 experts: 63 x (1 - C(252, 8) / C(256, 8)).
    assert!((dedup.0 - 7.56).abs() < 0.01, "{dedup:?}");
    // One expert per token: nothing to deduplicate.
    let one = copies(EpDispatch::Deduplicated, (64, 1), 64, 8, false);
    let plain = copies(EpDispatch::Nccl, (64, 1), 64, 8, false);
    assert!((one.1 - plain.1).abs() < 1e-9, "{one:?} {plain:?}");
    // Inside one domain nothing crosses the network.
    assert_eq!(
        copies(EpDispatch::Deduplicated, (128, 8), 8, 8, false).1,
        0.0
    );
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

/// NeMo Automodel's benchmark gate sends token `t` to experts `k t` to
/// `k t + k - 1`: DeepSeek-V3's 8 of 256 over EP 64 on 8 nodes meet 2
/// GPUs of one node, Qwen3 30B-A3B's 8 of 128 over EP 8 one GPU, and a
/// block that does not line up with the GPUs' spans more on the mean.
#[test]
fn a_consecutive_block_of_experts_meets_the_gpus_it_spans() {
    let dedup = |experts, ep, inside| copies(EpDispatch::Deduplicated, experts, ep, inside, true);
    let ds = dedup((256, 8), 64, 8);
    assert!((ds.0 - 2.0 * 63.0 / 64.0).abs() < 1e-12 && (ds.1 - 7.0 / 8.0).abs() < 1e-12);
    let qwen = dedup((128, 8), 8, 8);
    assert!(
        (qwen.0 - 7.0 / 8.0).abs() < 1e-12 && qwen.1 == 0.0,
        "{qwen:?}"
    );
    // Blocks of 3 over GPUs of 4 experts start at 0, 3, 6, 9: 1, 2, 2, 1.
    assert!((spanned(3, 4) - 1.5).abs() < 1e-12);
    assert!((spanned(6, 4) - 2.0).abs() < 1e-12 && (spanned(8, 16) - 1.0).abs() < 1e-12);
    // NCCL's All-to-All sends every copy whatever the routing.
    let nccl = |c| copies(EpDispatch::Nccl, (256, 8), 64, 8, c);
    assert_eq!(nccl(true), nccl(false));
}

/// Under Megatron-Core each local expert's GEMM goes through
/// Transformer Engine's GroupedLinear, one cuBLASLt GEMM per expert:
/// each of the forward's two per expert costs 25 us beside its share of
/// the work where another stack pays a GEMM's 8 us launch and tail,
/// the backward's four likewise, and the difference grows with the
/// experts each GPU holds.
#[test]
fn grouped_linear_pays_its_measured_cost_per_expert_gemm() {
    let mut cfg = qwen3_30b_on_32_h100s(8);
    let per_gemm = cal::TE_GROUPED_GEMM_EXPERT_US - cal::KERNEL_OVERHEAD_US;
    for ep in [8, 32] {
        cfg.layout.parallel.ep = ep;
        let s = crate::phases::Shape::of(&cfg);
        let megatron = crate::phases::compute(&cfg, &s).0;
        let mut plain = cfg;
        plain.stack.experts.gemm_us = cal::KERNEL_OVERHEAD_US;
        let other = crate::phases::compute(&plain, &s).0;
        let local = f64::from(128 / ep);
        let want = 2.0 * local * per_gemm * 1e-6 * cfg.model.moe_share();
        let fwd = (megatron.forward() - other.forward()).0;
        let bwd = (megatron.backward() - other.backward()).0;
        assert!((fwd - want).abs() < 1e-12, "EP {ep}: {fwd} against {want}");
        assert!((bwd - 2.0 * want).abs() < 1e-12, "EP {ep}: {bwd}");
    }
}

/// Qwen3 30B-A3B under Megatron-Core on 32 H100s at expert parallelism
/// `ep`.
fn qwen3_30b_on_32_h100s(ep: u32) -> crate::scenario::Config {
    let mut cfg = findings::base(H100, 32, "llama2-7b", 1024, 1);
    cfg.model = crate::model::QWEN3_30B_A3B;
    cfg.stack = crate::stack::Stack::of(crate::stack::StackId::Megatron);
    cfg.layout.parallel.ep = ep;
    cfg
}

/// Under fp8, Transformer Engine's GroupedLinear quantises each local
/// expert's operand apart, three kernels launched alone (amax, scale,
/// cast) at 8 us each where a stack with one queued kernel per operand
/// pays 2 us: Qwen3 30B-A3B at EP 32 holds 4 experts, so each way its two
/// operands cost 2 x 4 x (24 - 2) = 176 us more; the host launches 16
/// more kernels each way; in bf16 nothing is quantised.
#[test]
fn grouped_linear_quantises_each_experts_operands_apart() {
    let mut cfg = qwen3_30b_on_32_h100s(32);
    let mut plain = cfg;
    plain.stack.experts.quantise_kernel_us = cal::ELEMENTWISE_KERNEL_US;
    plain.stack.experts.quantise_kernels = 1.0;
    let s = crate::phases::Shape::of(&cfg);
    let quantise = |cfg: &crate::scenario::Config| crate::phases::compute(cfg, &s).0.quantise;
    assert_eq!(cfg.model.moe_share(), 1.0);
    let (m, o) = (quantise(&cfg), quantise(&plain));
    assert_eq!(m, o, "bf16 quantises nothing");
    cfg.precision = crate::scenario::Precision::Fp8;
    plain.precision = crate::scenario::Precision::Fp8;
    let (m, o) = (quantise(&cfg), quantise(&plain));
    for extra in [(m.0 - o.0).0, (m.1 - o.1).0] {
        assert!((extra - 176e-6).abs() < 1e-12, "{extra}");
    }
    let (with, without) = (crate::phases::kernels(&cfg), crate::phases::kernels(&plain));
    assert!((with.0 - without.0 - 16.0).abs() < 1e-9 && (with.1 - without.1 - 16.0).abs() < 1e-9);
}

/// Under the blockwise recipe each expert's operand takes one kernel, not
/// three: at EP 32 (4 local experts) 2 x 4 x 8 us = 64 us each way where
/// current scaling takes 2 x 4 x 24 = 192 us, and 16 launches fewer each way. Megatron-LM
/// PR 5728 measured Qwen3 30B-A3B on 32 H100s 1.0% faster in blockwise fp8
/// than in bf16: the model has it faster, where with current scaling's
/// kernels it had it slower.
#[test]
fn blockwise_fp8_quantises_each_experts_operand_in_one_kernel() {
    let mut cfg = qwen3_30b_on_32_h100s(32);
    cfg.precision = crate::scenario::Precision::Fp8;
    let mut blockwise = cfg;
    blockwise.stack.experts = crate::stack::ExpertKernels::GROUPED_LINEAR_BLOCKWISE;
    let s = crate::phases::Shape::of(&cfg);
    let quantise = |cfg: &crate::scenario::Config| crate::phases::compute(cfg, &s).0.quantise;
    let (current, block) = (quantise(&cfg), quantise(&blockwise));
    for saved in [(current.0 - block.0).0, (current.1 - block.1).0] {
        assert!((saved - (192e-6 - 64e-6)).abs() < 1e-12, "{saved}");
    }
    let (c, b) = (
        crate::phases::kernels(&cfg),
        crate::phases::kernels(&blockwise),
    );
    assert!(
        (c.0 - b.0 - 16.0).abs() < 1e-9 && (c.1 - b.1 - 16.0).abs() < 1e-9,
        "{c:?} {b:?}"
    );
    let rate = |name: &str| {
        let check = crate::validation::all()
            .into_iter()
            .find(|c| c.run.name == name)
            .unwrap();
        check.model.unwrap()
    };
    let fp8 = rate("Qwen3 30B-A3B FP8 blockwise, 32 H100");
    let bf16 = rate("Qwen3 30B-A3B BF16, 32 H100");
    assert!(fp8 > bf16, "{fp8} {bf16}");
    let mut current = crate::validation::run_named("Qwen3 30B-A3B FP8 blockwise, 32 H100");
    current.config.stack.experts = crate::stack::ExpertKernels::GROUPED_LINEAR;
    let slow = crate::validation::check(&current).model.unwrap();
    assert!(slow < bf16, "{slow} {bf16}");
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
    // The recipe's recomputation: the latent attention's up-projections.
    cfg.layout.recompute = crate::scenario::Recompute::Selective;
    cfg.layout.recompute_modules =
        crate::scenario::Modules::of(&[crate::scenario::Module::MlaUpProj]);
    let r = crate::evaluate::evaluate(&cfg).unwrap();
    let ep = r.breakdown.ep;
    assert!(ep.exposed.0 > 0.0 && ep.total.0 >= ep.exposed.0);
    assert!(r.fits, "{:?}", r.memory);
    // Megatron-Bridge 26.02 measures 3955 tokens/s per GPU at this setting.
    assert!(
        (r.tokens_per_s_per_gpu / 3955.0 - 1.0).abs() < 0.15,
        "{}",
        r.tokens_per_s_per_gpu
    );
    // Without expert parallelism the experts do not fit.
    cfg.layout.parallel.ep = 1;
    assert!(!crate::evaluate::evaluate(&cfg).unwrap().fits);
}

/// GPT-OSS's clamped SwiGLU under Megatron-Core: two clamps and a
/// concatenation before the compiled activation (8 passes over the
/// routed rows' `ffn` outputs, 3 kernels) and the second linear's bias
/// added apart (6 passes over their `hidden` outputs, two kernels an
/// expert and one more). The H100 row: one sequence of 4,096 tokens a
/// micro-batch, top-4, so 16,384 routed rows on each GPU's 16 experts,
/// `ffn` and `hidden` both 2,880. A compiled stack fuses both away.
#[test]
fn gpt_oss_clamps_and_adds_its_expert_bias_apart_under_megatron_core() {
    let run = crate::validation::run_named("GPT-OSS 120B BF16, 64 H100");
    let clamped = run.config;
    assert_eq!(clamped.model.mlp, crate::model::Mlp::ClampedSwiglu);
    let mut plain = clamped;
    plain.model.mlp = crate::model::Mlp::Swiglu;
    let s = crate::phases::Shape::of(&clamped);
    let ew = |cfg: &crate::scenario::Config| crate::phases::compute(cfg, &s).0.elementwise;
    let elements = (8.0 + 6.0) * 16_384.0 * 2_880.0;
    let kernels = 3.0 + 2.0 * 16.0 + 1.0;
    let expected =
        Bytes(2.0 * elements) / s.hbm + Seconds::us(cal::ELEMENTWISE_KERNEL_US) * kernels;
    let extra = ew(&clamped) - ew(&plain);
    assert!((extra - expected).0.abs() < 1e-12, "{extra:?} {expected:?}");
    assert!((extra.0 - 0.565e-3).abs() < 0.005e-3, "{extra:?}");
    let (c, p) = (
        crate::phases::kernels(&clamped),
        crate::phases::kernels(&plain),
    );
    assert!((c.0 - p.0 - kernels).abs() < 1e-9, "{c:?} {p:?}");
    let compiled = |mut cfg: crate::scenario::Config| {
        cfg.stack = crate::stack::TORCHTITAN;
        ew(&cfg)
    };
    assert_eq!(compiled(clamped), compiled(plain));
}

/// NeMo Automodel's DeepEP experts add both of GPT-OSS's expert biases
/// one expert at a time (8 passes over the gate and up outputs, 6 over
/// the down outputs, three kernels an expert and two more) around a
/// compiled activation, which clamps nothing apart. Its row: two
/// sequences of 4,096 a micro-batch, top-4, so 32,768 routed rows on each
/// GPU's two experts (EP 64), `ffn` and `hidden` both 2,880.
#[test]
fn automodels_deepep_experts_add_both_biases_apart() {
    let run = crate::validation::run_named("GPT-OSS 120B, 64 H100");
    let both = run.config;
    assert_eq!(both.stack.experts.bias, crate::experts::ExpertBias::BOTH);
    let mut none = both;
    none.stack.experts.bias = crate::experts::ExpertBias::NONE;
    let s = crate::phases::Shape::of(&both);
    let ew = |cfg: &crate::scenario::Config| crate::phases::compute(cfg, &s).0.elementwise;
    let kernels = 3.0 * 2.0 + 2.0;
    let expected = Bytes(2.0 * (8.0 + 6.0) * 32_768.0 * 2_880.0) / s.hbm
        + Seconds::us(cal::ELEMENTWISE_KERNEL_US) * kernels;
    let extra = ew(&both) - ew(&none);
    assert!((extra - expected).0.abs() < 1e-12, "{extra:?} {expected:?}");
    let (b, n) = (crate::phases::kernels(&both), crate::phases::kernels(&none));
    assert!((b.0 - n.0 - kernels).abs() < 1e-9, "{b:?} {n:?}");
}

/// A clamped SwiGLU clamped apart keeps its halves' concatenated copy (two
/// `ffn`-wide tensors a routed row) for its activation, which recomputing
/// `moe_act` drops with the output; a compiled stack keeps none, and
/// `moe_act` never adds memory, whatever the MLP and precision.
#[test]
fn clamped_swiglu_keeps_its_concatenated_halves_unless_moe_act_reruns() {
    use crate::scenario::{Module, Modules, Precision, Recompute};
    let mut clamped = crate::validation::run_named("GPT-OSS 120B BF16, 64 H100").config;
    clamped.layout.recompute = Recompute::None;
    clamped.layout.recompute_modules = Modules::NONE;
    let mut plain = clamped;
    plain.model.mlp = crate::model::Mlp::Swiglu;
    let acts = |cfg: &crate::scenario::Config| crate::memory::per_gpu(cfg).activations.0;
    assert!(acts(&clamped) > acts(&plain));
    let moe_act = |mut cfg: crate::scenario::Config| {
        cfg.layout.recompute = Recompute::Selective;
        cfg.layout.recompute_modules = Modules::of(&[Module::MoeAct]);
        cfg
    };
    assert!((acts(&moe_act(clamped)) - acts(&moe_act(plain))).abs() < 1.0);
    let compiled = |mut cfg: crate::scenario::Config| {
        cfg.stack = crate::stack::TORCHTITAN;
        acts(&cfg)
    };
    assert!((compiled(clamped) - compiled(plain)).abs() < 1.0);
    for mlp in [
        crate::model::Mlp::Gelu,
        crate::model::Mlp::Swiglu,
        crate::model::Mlp::ClampedSwiglu,
    ] {
        for precision in [Precision::Bf16, Precision::Fp8] {
            let mut cfg = clamped;
            (cfg.model.mlp, cfg.precision) = (mlp, precision);
            cfg.layout.recompute = Recompute::Selective;
            let some = |m: &[Module]| {
                let mut c = cfg;
                c.layout.recompute_modules = Modules::of(m);
                acts(&c)
            };
            assert!(
                some(&[Module::Layernorm, Module::MoeAct]) < some(&[Module::Layernorm]),
                "{mlp:?} {precision:?}"
            );
        }
    }
}
