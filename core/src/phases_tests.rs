//! Unit tests of `phases`.
use super::*;
use crate::evaluate::links;
use crate::pipeline::pipeline_crosses_nodes;
use crate::scenario::{DataParallel, Scenario};
use crate::stack;

fn example() -> Config {
    Scenario::example().to_config().unwrap()
}

#[test]
fn overlap_hides_what_fits_and_charges_the_stretch() {
    let (exp, stretch) = overlap(Seconds(1.0), Seconds(10.0), 0.2);
    assert_eq!(exp.0, 0.0);
    assert!((stretch.0 - 0.2).abs() < 1e-12);
    let (exp, stretch) = overlap(Seconds(10.0), Seconds(4.0), 0.2);
    assert!((exp.0 - 5.0).abs() < 1e-12 && (stretch.0 - 1.0).abs() < 1e-12);
}

#[test]
fn compute_splits_gemms_over_tensor_parallel_ranks() {
    let mut cfg = example();
    cfg.layout.parallel.tp = 1;
    cfg.layout.micro_batch = 4;
    let one = compute(&cfg, &Shape::of(&cfg)).0;
    cfg.layout.parallel.tp = 4;
    let four = compute(&cfg, &Shape::of(&cfg)).0;
    let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US) * cal::GEMMS_PER_LAYER;
    // A quarter of the FLOPs, in GEMMs a quarter as wide, which reach a
    // little less of the peak.
    let ratio = (one.gemm - t0).0 / (four.gemm - t0).0;
    assert!(ratio > 3.6 && ratio < 4.0, "{ratio}");
    // Without sequence parallelism the norms stay whole on every rank.
    assert!(four.elementwise.0 > one.elementwise.0 / 4.0);
}

#[test]
fn materialised_scores_cost_more_than_flash_attention() {
    let mut cfg = example();
    let flash = compute(&cfg, &Shape::of(&cfg)).0.attention;
    cfg.stack = stack::MEGATRON_2021;
    let scores = compute(&cfg, &Shape::of(&cfg)).0.attention;
    assert!(scores.0 > flash.0);
}

#[test]
fn tensor_parallel_of_one_costs_nothing_and_recompute_repeats_the_forward() {
    let mut cfg = example();
    cfg.layout.parallel.tp = 1;
    let s = Shape::of(&cfg);
    let layer = compute(&cfg, &s).0;
    assert_eq!(tensor(&cfg, &s, &links(&cfg), &layer, 0.2).fwd.0, 0.0);
    cfg.layout.parallel.tp = 4;
    cfg.layout.recompute = Recompute::Full;
    let s = Shape::of(&cfg);
    let t = tensor(&cfg, &s, &links(&cfg), &compute(&cfg, &s).0, 0.2);
    assert!(t.fwd.0 > 0.0 && t.recompute == t.fwd && t.bwd.total == t.fwd);
}

#[test]
fn megatrons_backward_reductions_hide_behind_the_weight_gradients() {
    let mut cfg = example();
    cfg.layout.parallel.tp = 4;
    cfg.layout.micro_batch = 8;
    let s = Shape::of(&cfg);
    let layer = compute(&cfg, &s).0;
    let links = links(&cfg);
    let slowdown = 0.2;
    // The paper's Megatron-inspired layers: each column-parallel linear's
    // AllReduce beside its weight-gradient GEMM, which is longer here.
    let t = tensor(&cfg, &s, &links, &layer, slowdown);
    let one = t.fwd / 2.0;
    assert!(layer.column.0 > one && layer.column.1 > one);
    assert_eq!(t.bwd.total, t.fwd);
    assert_eq!(t.bwd.exposed.0, 0.0);
    assert!((t.stretch_bwd - one * (2.0 * slowdown)).0.abs() < 1e-15);
    // Blocking stacks wait on all four.
    cfg.stack = stack::TORCHTITAN;
    let blocking = tensor(&cfg, &s, &links, &layer, slowdown);
    assert_eq!(blocking.bwd.exposed, blocking.bwd.total);
    assert_eq!(blocking.stretch_bwd.0, 0.0);
    assert_eq!(t.blocking().bwd.exposed, t.bwd.total);
    // A short weight-gradient GEMM leaves the rest of its reduction showing.
    let short = LayerCompute {
        column: (one * 0.25, Seconds(0.0)),
        ..layer
    };
    cfg.stack = stack::PAPER;
    let t = tensor(&cfg, &s, &links, &short, slowdown);
    let (e, _) = overlap(one, one * 0.25, slowdown);
    assert!((t.bwd.exposed - (e + one)).0.abs() < 1e-15);
    // Under sequence parallelism the ReduceScatter hides, the AllGather of
    // the row-parallel linears' output gradient blocks.
    cfg.stack = stack::MEGATRON;
    cfg.layout.parallel.sp = true;
    let s = Shape::of(&cfg);
    let layer = compute(&cfg, &s).0;
    let sp = tensor(&cfg, &s, &links, &layer, slowdown);
    let group = Group::new(4, 4);
    let gather = collective::time(
        Collective::AllGather,
        Bytes(2.0 * s.tokens * 4096.0),
        group,
        &links,
    )
    .time;
    assert!((sp.bwd.exposed - gather * 2.0).0.abs() < 1e-15);
}

#[test]
fn context_sends_one_block_per_ring_step() {
    let mut cfg = example();
    let s = Shape::of(&cfg);
    assert_eq!(
        context(&cfg, &s, &links(&cfg), Seconds(1e-3), 0.2)
            .fwd
            .total
            .0,
        0.0
    );
    cfg.layout.parallel.cp = 4;
    cfg.layout.parallel.tp = 1;
    let s = Shape::of(&cfg);
    let c = context(&cfg, &s, &links(&cfg), Seconds(1e-3), 0.2);
    assert!((c.bwd.total.0 - 2.0 * c.fwd.total.0).abs() < 1e-15);
    assert!(c.fwd.exposed.0 <= c.fwd.total.0);
}

#[test]
fn kernels_count_recomputation() {
    let mut cfg = example();
    let (fwd, bwd) = kernels(&cfg);
    cfg.layout.recompute = Recompute::Full;
    assert_eq!(kernels(&cfg).1, bwd + fwd);
}

#[test]
fn the_papers_placement_keeps_pipelines_in_a_node() {
    let mut cfg = example();
    cfg.layout.parallel.tp = 2;
    cfg.layout.parallel.pp = 4;
    assert!(!pipeline_crosses_nodes(&cfg));
    assert_eq!(shard_group(&cfg).1, 1);
    cfg.stack = stack::MEGATRON;
    assert!(pipeline_crosses_nodes(&cfg));
    assert_eq!(shard_group(&cfg).1, 4);
}

/// A stage of `layers` layers and the parameters of each in the
/// data-parallel traffic, as [`crate::evaluate::Step`] passes them.
fn stage(cfg: &Config, layers: f64) -> (f64, f64) {
    let ranks = shard_group(cfg).0;
    (layers, cfg.dp_layer_params(cfg.layer_params_local(), ranks))
}

#[test]
fn a_stage_with_more_layers_moves_more_data_parallel_traffic() {
    let cfg = example();
    let l = links(&cfg);
    let busy = (Seconds(1e-3), Seconds(2e-3));
    let run = |layers| {
        data_parallel(
            &cfg,
            &l,
            shard_group(&cfg),
            stage(&cfg, layers),
            busy,
            0.2,
            1.0,
        )
    };
    let (small, large) = (run(8.0), run(16.0));
    assert!(large.allgather.total.0 > small.allgather.total.0);
    assert!(large.reduce_scatter.total.0 > small.reduce_scatter.total.0);
    assert_eq!(small.allreduce.total.0, 0.0);
}

#[test]
fn pipeline_sends_show_only_in_fill_and_drain() {
    let mut cfg = example();
    assert_eq!(
        pipeline(&cfg, &Shape::of(&cfg), &links(&cfg), 8.0).total.0,
        0.0
    );
    cfg.layout.parallel.pp = 4;
    let c = pipeline(&cfg, &Shape::of(&cfg), &links(&cfg), 8.0);
    assert!((c.exposed.0 / c.total.0 - 3.0 / 8.0).abs() < 1e-12);
}

/// The shape factor times its ceiling, with the fixed cost the model adds
/// to every kernel, reproduces the cuBLAS measurements it was fitted to
/// (OpenXLA's sm_90 table, TFLOP/s of 989) within 4%, and a large GEMM
/// runs at the ceiling.
#[test]
fn gemm_shape_follows_the_measured_h100_table() {
    let s = crate::hardware::H100.gemm_shape;
    for (m, n, k, tflops) in [
        (4096.0, 4096.0, 4096.0, 783.3),
        (4096.0, 4096.0, 2048.0, 738.7),
        (16384.0, 2048.0, 2048.0, 759.3),
        (16384.0, 4096.0, 1024.0, 725.5),
        (8192.0, 2048.0, 4096.0, 783.2),
    ] {
        let flops = 2.0 * m * n * k;
        let time = flops / (989e12 * s.ceiling * s.factor(m, n, k, false))
            + cal::KERNEL_OVERHEAD_US * 1e-6;
        let model = flops / time / 1e12;
        assert!(
            (model / tflops - 1.0).abs() < 0.04,
            "{m}x{n}x{k}: {model} vs {tflops}"
        );
    }
    assert!(s.factor(65536.0, 65536.0, 65536.0, false) > 0.99);
    // fp8 reaches less of its own peak than bf16 does of its.
    assert!(s.factor(8192.0, 8192.0, 8192.0, true) < 0.9 * s.factor(8192.0, 8192.0, 8192.0, false));
}

/// Blackwell's shape factor is H100's at B200's measured ratios (OpenXLA's
/// table), GB200's scaled from B200's by the MMA rate per SM and the SM
/// count: a GEMM of short `k` (an MoE expert's) falls further from peak,
/// 4096 cubed somewhat, a large one barely.
#[test]
fn blackwell_gemms_of_short_k_fall_further_from_peak_than_h100s() {
    let (h, b) = (
        crate::hardware::H100.gemm_shape,
        crate::hardware::B200.gemm_shape,
    );
    assert!((b.k0 / h.k0 - cal::BLACKWELL_EPILOGUE_OVER_H100).abs() < 1e-9);
    assert!((b.a0 / h.a0 - cal::BLACKWELL_TAIL_OVER_H100).abs() < 1e-9);
    let g = crate::hardware::GB200.gemm_shape;
    let per_sm = (2500.0 / 152.0) / (2250.0 / 148.0);
    assert!((g.k0 / b.k0 - per_sm).abs() < 1e-9 && (g.a0 / b.a0 - 152.0 / 148.0).abs() < 1e-9);
    let short = |s: crate::hardware::GemmShape| s.factor(16384.0, 1536.0, 768.0, true);
    assert!(short(b) < 0.8 * short(h), "{} {}", short(b), short(h));
    // At 4096 cubed, between the table's own ratio (0.80) and none.
    let cube = |s: crate::hardware::GemmShape| s.factor(4096.0, 4096.0, 4096.0, false);
    assert!(
        (0.9..0.97).contains(&(cube(b) / cube(h))),
        "{}",
        cube(b) / cube(h)
    );
    let large = |s: crate::hardware::GemmShape| s.factor(16384.0, 16384.0, 16384.0, false);
    assert!(large(b) > 0.95 * large(h));
}

/// DeepSpeed's mechanisms: a collective per module pays its latency per
/// module; DeepSpeed of 2021 hides no data-parallel traffic; ZeRO-1/2
/// all-reduce their buckets on the compute stream, ZeRO-3 overlaps.
#[test]
fn deepspeed_gathers_per_module_and_overlaps_only_under_zero3() {
    let mut cfg = example();
    cfg.layout.parallel.dp = DataParallel::FsdpFull;
    let l = links(&cfg);
    let busy = (Seconds(20e-3), Seconds(40e-3));
    let run =
        |cfg: &Config| data_parallel(cfg, &l, shard_group(cfg), stage(cfg, 16.0), busy, 0.2, 1.0);
    let fsdp = run(&cfg);
    cfg.stack = stack::DEEPSPEED;
    let zero3 = run(&cfg);
    // Seven collectives per Llama layer instead of one: more latency.
    assert!(zero3.allgather.total.0 > fsdp.allgather.total.0);
    // ZeRO-3 overlaps: most of its gathers hide behind busy layers.
    assert!(zero3.allgather.exposed.0 < 0.5 * zero3.allgather.total.0);
    cfg.stack = stack::DEEPSPEED_2021;
    let old = run(&cfg);
    // Everything shows but the last layer's gather for backward, which
    // full sharding keeps from the forward.
    let one_gather = old.layer.fwd.0;
    assert!((old.allgather.total.0 - old.allgather.exposed.0 - one_gather).abs() < 1e-9);
    assert!((old.reduce_scatter.exposed.0 - old.reduce_scatter.total.0).abs() < 1e-12);
    assert_eq!(old.stretch.0, 0.0);
    // ZeRO-1 under DeepSpeed: an AllReduce of the gradients, exposed whole.
    cfg.stack = stack::DEEPSPEED;
    cfg.layout.parallel.dp = DataParallel::Zero1;
    let zero1 = run(&cfg);
    assert_eq!(zero1.reduce_scatter.total.0, 0.0);
    assert!(zero1.allreduce.total.0 > 0.0);
    assert!((zero1.allreduce.exposed.0 - zero1.allreduce.total.0).abs() < 1e-12);
    cfg.stack = stack::MEGATRON;
    let megatron = run(&cfg);
    assert!(megatron.reduce_scatter.exposed.0 < megatron.reduce_scatter.total.0);
}

/// DeepSpeed of 2021 gathers and scatters through lists of one tensor per
/// rank: each collective costs a host dispatch per rank on top of its
/// traffic, so doubling the ranks doubles that cost, while DeepSpeed's
/// flat buffers of later releases pay nothing per rank. It reduces each
/// parameter with a gradient on its own (twelve per GPT layer, nine per
/// Llama layer) and gathers each weight matrix.
#[test]
fn deepspeed_2021_pays_a_dispatch_per_rank_for_every_list_collective() {
    use crate::collective::Collective::{AllGather, ReduceScatter};
    let old = stack::DEEPSPEED_2021;
    let us = Seconds::us(old.host_dispatch_us);
    let full = DataParallel::FsdpFull;
    assert!((old.dp_list_host(1536, full).0 - 1536.0 * us.0).abs() < 1e-12);
    assert_eq!(stack::DEEPSPEED.dp_list_host(1536, full).0, 0.0);
    // Only ZeRO-3 runs through lists; that DeepSpeed had no other flavour
    // of sharding.
    assert_eq!(old.dp_list_host(1536, DataParallel::Fsdp).0, 0.0);
    let mut cfg = example();
    let per_layer = |op, dp| old.dp_collectives_per_layer(&cfg.model, op, dp);
    assert_eq!(per_layer(ReduceScatter, full), 9.0);
    assert_eq!(per_layer(AllGather, full), 7.0);
    assert_eq!(per_layer(ReduceScatter, DataParallel::Hsdp), 7.0);
    cfg.layout.parallel.dp = full;
    cfg.stack = old;
    let l = links(&cfg);
    let lists = run_dp(&cfg, &l);
    cfg.stack.host_dispatch_us = 0.0;
    let free = run_dp(&cfg, &l);
    // A layer's seven gathers and nine scatters each pay one dispatch per
    // rank of the shard group; the last scatter carries the embedding's
    // too.
    let ranks = f64::from(shard_group(&cfg).0);
    let gather = lists.layer.fwd - free.layer.fwd;
    assert!((gather.0 - 7.0 * ranks * us.0).abs() < 1e-9, "{gather:?}");
    let last = lists.layer.last - free.layer.last;
    assert!((last.0 - 10.0 * ranks * us.0).abs() < 1e-9, "{last:?}");
}

/// One step's data-parallel traffic of 16 layers, each busy 20 ms forward
/// and 40 ms backward, over `cfg`'s shard group.
fn run_dp(cfg: &Config, l: &crate::collective::Links) -> crate::phases::DataParallelCost {
    let busy = (Seconds(20e-3), Seconds(40e-3));
    data_parallel(cfg, l, shard_group(cfg), stage(cfg, 16.0), busy, 0.2, 1.0)
}

/// Transformer Engine's attention is cuDNN's on Hopper, at its measured
/// rate and half length: at the example's 4,096 tokens 0.68 x 4096/5596
/// of peak against FlashAttention-2's 0.35 x 4096/4496, 0.64 of its time
/// (cuDNN's curve is the slower below about 770 keys). On Ampere it is
/// FlashAttention-2; FlashAttention 1 takes twice FlashAttention-2's time
/// on either.
#[test]
fn attention_runs_at_its_kernels_rate() {
    let mut cfg = example();
    let attention = |cfg: &Config| compute(cfg, &Shape::of(cfg)).0.attention.0;
    let t0 = crate::units::Seconds::us(cal::KERNEL_OVERHEAD_US).0;
    cfg.stack.attention = AttentionKernel::Flash2;
    let flash = attention(&cfg);
    cfg.stack.attention = AttentionKernel::TransformerEngine;
    let te = attention(&cfg);
    let share = (te - t0) / (flash - t0);
    assert!((share - 0.6406).abs() < 1e-4, "{share}");
    cfg.stack.attention = AttentionKernel::Flash1;
    let flash1 = attention(&cfg);
    let ratio = (flash1 - t0) / (flash - t0);
    assert!(
        (ratio - cal::FLASH_ATTENTION_2_SPEEDUP).abs() < 1e-9,
        "{ratio}"
    );
    cfg.cluster.gpu = crate::hardware::A100_80GB;
    cfg.stack.attention = AttentionKernel::TransformerEngine;
    let te_a100 = attention(&cfg);
    cfg.stack.attention = AttentionKernel::Flash2;
    assert!((attention(&cfg) - te_a100).abs() < 1e-15);
}

/// Under fp8 the attention output and the MLP activation are quantised
/// by kernels of their own in forward, the output gradients of QKV, the
/// output projection and the down projection in backward, each reading
/// bf16 and writing two fp8 copies (four bytes an element, on HBM); NVFP4
/// costs what Transformer Engine measured, 2.27 times fp8's; bf16
/// quantises nothing.
#[test]
fn low_precision_quantises_the_operands_no_fused_kernel_writes() {
    let mut cfg = example();
    cfg.stack = stack::MEGATRON;
    cfg.layout.parallel.tp = 2;
    let layer = |cfg: &Config| compute(cfg, &Shape::of(cfg)).0.quantise;
    assert_eq!(layer(&cfg), (Seconds(0.0), Seconds(0.0)));
    cfg.precision = Precision::Fp8;
    let s = Shape::of(&cfg);
    let m = &cfg.model;
    let (fwd, bwd) = layer(&cfg);
    let want_fwd = Bytes(4.0 * s.tokens * (m.q_dim() + f64::from(m.ffn)) / s.tp) / s.hbm;
    let qkv = m.q_dim() + 2.0 * m.kv_dim();
    let h = f64::from(m.hidden);
    let want_bwd = Bytes(4.0 * s.tokens * (qkv / s.tp + 2.0 * h / s.sp_div)) / s.hbm;
    assert!(
        (fwd.0 / want_fwd.0 - 1.0).abs() < 1e-9,
        "{fwd:?} vs {want_fwd:?}"
    );
    assert!(
        (bwd.0 / want_bwd.0 - 1.0).abs() < 1e-9,
        "{bwd:?} vs {want_bwd:?}"
    );
    cfg.cluster.gpu = crate::hardware::B200;
    let fp8 = layer(&cfg);
    cfg.precision = Precision::Fp4;
    let fp4 = layer(&cfg);
    assert!((fp4.0 .0 / fp8.0 .0 - 2.27).abs() < 1e-9);
    assert!((fp4.1 .0 / fp8.1 .0 - 2.27).abs() < 1e-9);
}

/// NVFP4's GEMMs and quantisation as Transformer Engine's GEMM profiling
/// measured them on B300, a Llama-like layer of 15,872 tokens, hidden 4096
/// and MLP 16,384: pre-quantized 7.324 ms a layer in MXFP8 against 3.754
/// in NVFP4, and quantising the same operands 1.183 against 2.685 ms.
#[test]
fn nvfp4_runs_as_transformer_engine_measured_it_on_b300() {
    let mut cfg = example();
    cfg.stack = stack::MEGATRON;
    cfg.cluster.gpu = crate::hardware::GB300;
    cfg.layout.parallel.tp = 1;
    cfg.layout.micro_batch = 4;
    cfg.precision = Precision::Fp8;
    let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US) * cal::GEMMS_PER_LAYER;
    let fp8 = compute(&cfg, &Shape::of(&cfg)).0;
    cfg.precision = Precision::Fp4;
    let fp4 = compute(&cfg, &Shape::of(&cfg)).0;
    let speedup = (fp8.gemm - t0).0 / (fp4.gemm - t0).0;
    assert!((speedup - 7.324 / 3.754).abs() < 0.005, "{speedup}");
    let quantise = (fp4.quantise.0 + fp4.quantise.1).0 / (fp8.quantise.0 + fp8.quantise.1).0;
    assert!((quantise - 2.685 / 1.183).abs() < 0.005, "{quantise}");
}

/// GPT-OSS's 128-key window on half its layers, at 4,096 tokens: a fused
/// kernel that skips the keys outside it works through the window and a
/// tile's keys a query, the work of a causal context of 512 (an eighth of
/// the full layers'), at that context's efficiency under cuDNN,
/// 512 / (512 + 1,500) against 4,096 / 5,596: a windowed layer takes
/// 0.3595 of a full one and the mean layer 0.6798. FlashAttention 1 and the
/// score matrix see no window.
#[test]
fn sliding_window_layers_cost_the_window_and_a_tile_where_the_kernel_skips() {
    let cfg = crate::validation::run_named("GPT-OSS 120B BF16, 64 H100").config;
    let mut full = cfg;
    full.model.window = None;
    let s = Shape::of(&cfg);
    let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US);
    let attention = |cfg: &Config| compute(cfg, &s).0.attention - t0;
    let eff = |l: f64| l / (l + cal::CUDNN_ATTENTION_HALF_LENGTH);
    let windowed = 512.0 / 4096.0 * eff(4096.0) / eff(512.0);
    assert!((windowed - 0.3595).abs() < 1e-4, "{windowed}");
    let ratio = attention(&cfg).0 / attention(&full).0;
    assert!((ratio - (0.5 + 0.5 * windowed)).abs() < 1e-9, "{ratio}");
    for kernel in [AttentionKernel::Flash1, AttentionKernel::Materialised] {
        let (mut a, mut b) = (cfg, full);
        (a.stack.attention, b.stack.attention) = (kernel, kernel);
        assert_eq!(attention(&a), attention(&b), "{kernel:?}");
    }
}

/// Llama 4's chunks of 8,192 keys on three layers of four: at 8,192
/// tokens a chunk is the whole context, and the layers cost as full
/// ones; at 32,768 a chunked layer is the work of four causal contexts
/// of 8,192 (no tile beyond, the chunks being whole tiles), a quarter of
/// a full layer's at 8,192's efficiency, 8,192 / (8,192 + 1,500) against
/// 32,768 / 34,268: 0.2828 of a full one, the mean layer 0.4621.
#[test]
fn chunked_layers_cost_their_chunk() {
    let mut cfg = crate::validation::run_named("Llama 4 Maverick BF16, 128 GB200").config;
    let attention = |cfg: &Config| {
        let s = Shape::of(cfg);
        compute(cfg, &s).0.attention - Seconds::us(cal::KERNEL_OVERHEAD_US)
    };
    let mut full = cfg;
    full.model.window = None;
    assert!((attention(&cfg).0 / attention(&full).0 - 1.0).abs() < 1e-9);
    cfg.seq_len = 32_768;
    full.seq_len = 32_768;
    let eff = |l: f64| l / (l + cal::CUDNN_ATTENTION_HALF_LENGTH);
    let chunked = 0.25 * eff(32_768.0) / eff(8192.0);
    assert!((chunked - 0.2828).abs() < 1e-4, "{chunked}");
    let ratio = attention(&cfg).0 / attention(&full).0;
    assert!((ratio - (0.25 + 0.75 * chunked)).abs() < 1e-9, "{ratio}");
}

/// Under torchtitan a selective recomputation reruns the element-wise
/// kernels and every second matmul (its per-op policy), under Megatron
/// the element-wise kernels alone; it then saves less than Megatron's
/// (the keys and the up projection's output go) and counts the matmuls
/// it reruns among the executed FLOPs.
#[test]
fn torchtitans_selective_recomputation_reruns_every_second_matmul() {
    let mut cfg = example();
    cfg.model = crate::model::preset("llama3-8b").unwrap();
    cfg.layout.parallel.tp = 1;
    cfg.layout.recompute = Recompute::Selective;
    cfg.stack = stack::TORCHTITAN;
    let (layer, _) = compute(&cfg, &Shape::of(&cfg));
    let modules = cfg.layout.recompute_modules;
    let torchtitan = layer.recompute(Recompute::Selective, modules, &cfg.stack);
    let megatron = layer.recompute(Recompute::Selective, modules, &stack::MEGATRON);
    let m = &cfg.model;
    let share = m.alternate_matmul_params() / (m.attention_params() + m.dense_mlp_params());
    assert!((share - 0.365).abs() < 0.01, "{share}");
    assert!(layer.alternate_matmuls.0 > 0.3 * layer.gemm.0);
    assert!(layer.alternate_matmuls.0 < 0.4 * layer.gemm.0);
    assert!(((torchtitan - megatron).0 - layer.alternate_matmuls.0).abs() < 1e-15);
    let mut elementwise = cfg;
    elementwise.stack.selective_reruns_matmuls = false;
    let saved = |c: &Config| crate::memory::per_gpu(c).activations.0;
    assert!(saved(&cfg) < saved(&elementwise));
    let mut full = cfg;
    full.layout.recompute = Recompute::Full;
    assert!(saved(&full) < saved(&cfg));
    let hfu = |c: &Config| crate::evaluate::evaluate(c).unwrap().hfu;
    let mfu = |c: &Config| crate::evaluate::evaluate(c).unwrap().mfu;
    assert!(hfu(&cfg) / mfu(&cfg) > hfu(&elementwise) / mfu(&elementwise) + 0.1);
}
