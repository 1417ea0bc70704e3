//! The calibration table: every constant of [`super`] with its unit and
//! where it comes from, as `docs/calibration.md` and the model page print it.

#[allow(clippy::wildcard_imports)]
use super::*;
use serde::Serialize;

/// One row of the calibration table.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Constant {
    /// The constant's name in code.
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// Its unit, or `-` for a ratio.
    pub unit: &'static str,
    /// Where it comes from.
    pub source: &'static str,
}

macro_rules! row {
    ($name:ident, $unit:expr, $source:expr) => {
        Constant {
            name: stringify!($name),
            value: $name,
            unit: $unit,
            source: $source,
        }
    };
}

/// The calibration table.
pub const TABLE: &[Constant] = &[
    row!(
        GEMM_EFFICIENCY_H100,
        "-",
        "fitted on the published runs (scalescope validate: 41 runs, 8 sources, leave-one-source-out error printed); not on the paper"
    ),
    row!(
        GEMM_EFFICIENCY_A100,
        "-",
        "fitted on the published runs with the H100 value (scalescope validate); cuBLAS microbenchmarks reach 0.85-0.90"
    ),
    row!(
        GEMM_EFFICIENCY_V100,
        "-",
        "cuBLAS fp16 microbenchmarks on V100 (0.76-0.80) times A100's fitted-to-microbenchmark ratio (0.724 / 0.88)"
    ),
    row!(
        GEMM_CEILING_H100,
        "-",
        "best achievable H100 SXM bf16 matmuls, 790-798 TFLOP/s (stas00/ml-engineering MAMF tables)"
    ),
    row!(
        FP4_GEMM_SHARE,
        "-",
        "TransformerEngine docs gemm_profiling.rst (B300, 15872 tokens, hidden 4096, MLP 16384): pre-quantized MXFP8 7.324 ms vs NVFP4 3.754 ms per layer, 1.95x where the peak is 3x; not fitted on training runs"
    ),
    row!(
        NVFP4_QUANTISE_OVER_FP8,
        "x",
        "TransformerEngine docs gemm_profiling.rst (B300): autocast less pre-quantized, NVFP4 2.685 ms vs MXFP8 1.183 ms per layer over the same operands"
    ),
    row!(
        GEMM_EPILOGUE_H100,
        "k steps",
        "fitted with GEMM_TAIL_H100 to 93 cuBLAS bf16 GEMMs of OpenXLA's sm_90 matmul table (median error 1.9%); not on training runs"
    ),
    row!(
        GEMM_TAIL_H100,
        "elements",
        "fitted with GEMM_EPILOGUE_H100 to OpenXLA's sm_90 matmul table"
    ),
    row!(
        BLACKWELL_EPILOGUE_OVER_H100,
        "x",
        "OpenXLA matmul table (tensorflow @ a305421c): B200 (sm_100) over H100 (sm_90) epilogue, the same fit on each block's 81 bf16 GEMMs of dimensions 1024 to 4096 (k0 880 vs 284); not on training runs"
    ),
    row!(
        BLACKWELL_TAIL_OVER_H100,
        "x",
        "the same fits: B200's last-wave tail over H100's (a0 2.92e6 vs 1.15e6)"
    ),
    row!(
        FP8_GEMM_RATIO,
        "-",
        "best H100 fp8 matmul 70.9% of fp8 peak over best bf16 80.3% of bf16 peak (MAMF tables)"
    ),
    row!(
        GEMM_CEILING_A100,
        "-",
        "best achievable A100 SXM bf16 matmuls, 264.5-271.2 TFLOP/s (MAMF tables); also V100"
    ),
    row!(
        GEMM_EPILOGUE_A100,
        "k steps",
        "H100's halved (half the MMA rate per SM); no shape-resolved A100 table published"
    ),
    row!(
        GEMM_TAIL_A100,
        "elements",
        "H100's scaled by SM count (108 of 132)"
    ),
    row!(
        ATTENTION_EFFICIENCY_H100,
        "-",
        "FlashAttention-3 paper: FlashAttention-2 reaches ~35% of H100 peak"
    ),
    row!(
        FLASH_ATTENTION_2_GB200_OVER_H200,
        "-",
        "Azure's AI-benchmarking-guide: FlashAttention-2 (fwd+bwd, causal, head width 128, batch 2, 8k tokens) at 373.9 TFLOP/s on GB200 against 329.3 on H200, where the datasheet gains 2.53x (B200 at GB200's rate per SM)"
    ),
    row!(
        FLASH_ATTENTION_2_GB300_OVER_H200,
        "-",
        "the same tables: 399.7 TFLOP/s on GB300"
    ),
    row!(
        CUDNN_ATTENTION_EFFICIENCY_H100,
        "-",
        "cudnn-frontend's training benchmark on H200 (cuDNN 9.19.1, bf16, causal, 64 q and 8 kv heads of 128, fwd+bwd, 2k-16k tokens), fitted with CUDNN_ATTENTION_HALF_LENGTH; TE prefers cuDNN on Hopper and later"
    ),
    row!(
        CUDNN_ATTENTION_EFFICIENCY_H100_2024,
        "-",
        "FlashAttention-3 paper's cuDNN baseline on H100 (July 2024; bf16, causal, head width 128: 518-539 TFLOP/s forward, 499-518 backward at 4k-16k tokens); the validation rows of NeMo's 2024 containers"
    ),
    row!(
        CUDNN_ATTENTION_EFFICIENCY_B200,
        "-",
        "the same benchmark on GB200 (B200: the same chip)"
    ),
    row!(
        CUDNN_ATTENTION_EFFICIENCY_GB300,
        "-",
        "the same benchmark on GB300 (1.09-1.11x GB200: Blackwell Ultra's doubled exponential units)"
    ),
    row!(
        GB200_SUSTAINED_SHARE,
        "-",
        "Azure's cuBLASLt fp8 tables, GB200 over GB300 at four large shapes (0.870-0.883; same tensor cores, SMs and datasheet rates; 1200 W against 1400 and different CUDA releases): GB300's GEMMs carry H100's fitted efficiency, GB200's this share of it, and B200 (its die at 1000 W and a lower rated clock) GB200's rate per SM"
    ),
    row!(
        CUDNN_ATTENTION_HALF_LENGTH,
        "tokens",
        "fitted on the same benchmark's 12 points (H200, GB200, GB300); each GPU left out within 6%"
    ),
    row!(
        FLASH_ATTENTION_2_SPEEDUP,
        "x",
        "FlashAttention-2 paper: 'around 2x faster than FlashAttention' (1.7-3.0x on A100); FlashAttention 1 runs at half FlashAttention-2's efficiency (llm-foundry's MPT tables)"
    ),
    row!(
        ATTENTION_EFFICIENCY_A100,
        "-",
        "FlashAttention-2 paper: fwd+bwd 50-70% of A100 peak, causal, d=128"
    ),
    row!(
        ATTENTION_EFFICIENCY_V100,
        "-",
        "xFormers CUTLASS attention on V100, ~50 TFLOP/s"
    ),
    row!(
        ATTENTION_TILE_KEYS,
        "tokens",
        "FlashAttention-2 kBlockN and cuDNN's 128-key tiles: a sliding window's diagonal tiles are computed whole (cudnn-frontend GPT-OSS benchmark, H200: a 128-key window 35x full causal at 32k, not 128x)"
    ),
    row!(
        KERNEL_OVERHEAD_US,
        "us",
        "launch + tail effect; puts half-efficiency of an A100 GEMM near 2 GFLOP"
    ),
    row!(
        HBM_EFFICIENCY,
        "-",
        "element-wise kernels; Azure's STREAM tables (copy, triad) measure 0.79-0.89 of the datasheet on A100, H100 and H200, 0.80 the low end"
    ),
    row!(
        GEMMS_PER_LAYER,
        "kernels",
        "QKV, output projection and the MLP's projections as fused launches"
    ),
    row!(
        ELEMENTWISE_KERNEL_US,
        "us",
        "launch and tail of a back-to-back memory-bound kernel; not fitted"
    ),
    row!(
        RESIDUAL_PASSES,
        "passes",
        "two residual adds, each reading two tensors and writing one"
    ),
    row!(GELU_PASSES, "passes", "GeLU reads and writes the FFN activation once"),
    row!(
        CP_KERNELS_PER_STEP,
        "kernels",
        "TransformerEngine ring attention per step: send, receive, attention, two corrections"
    ),
    row!(
        SCORE_PASSES,
        "passes",
        "score GEMM write, fused softmax read and write, dropout read and write with mask, value GEMM read; megatron-2021 stack"
    ),
    row!(
        FUSED_NORM_PASSES,
        "passes",
        "fused RMSNorm/LayerNorm (Apex, Transformer Engine, Inductor): read once, write once"
    ),
    row!(
        FUSED_ROTARY_PASSES,
        "passes",
        "fused rotary (Megatron, Inductor): read and write queries and keys once"
    ),
    row!(
        FUSED_ACTIVATION_PASSES,
        "passes",
        "fused bias-SwiGLU: read gate and up, write product"
    ),
    row!(
        CLAMPED_GLU_PASSES,
        "passes",
        "Megatron-Core weighted_bias_quick_geglu_impl: GPT-OSS's two clamps and their concatenation run eagerly before the compiled activation"
    ),
    row!(
        CLAMPED_GLU_KERNELS,
        "kernels",
        "the same code: two clamps and one concatenation"
    ),
    row!(
        EXPERT_BIAS_PASSES,
        "passes",
        "Megatron-Core TEGroupedMLP._apply_bias: each expert's bias times its probabilities, added, then concatenated (GPT-OSS)"
    ),
    row!(
        EXPERT_UP_BIAS_PASSES,
        "passes",
        "NeMo Automodel GroupedExpertsDeepEP._apply_bias: each expert's first bias added to its gate and up outputs, then concatenated (GPT-OSS)"
    ),
    row!(
        FUSED_ELEMENTWISE_KERNELS,
        "kernels",
        "two norms, rotary, two residual adds, activation, each one kernel"
    ),
    row!(
        EAGER_DISPATCH_US,
        "us",
        "host cost of one eager PyTorch op, 5-25 us (Python, dispatcher, autograd, launch); low end; paper, Megatron and llm-foundry stacks"
    ),
    row!(
        COMPILED_DISPATCH_US,
        "us",
        "cudaLaunchKernel from a compiled graph's wrapper, 1-3 us; torchtitan"
    ),
    row!(
        BACKWARD_ELEMENTWISE_FACTOR,
        "x",
        "backward of an element-wise op reads the saved input and the incoming gradient"
    ),
    row!(
        ATTENTION_BACKWARD_FACTOR,
        "x",
        "FlashAttention-2 backward runs 5 matmuls to forward's 2"
    ),
    row!(
        OPTIMIZER_BYTES_PER_PARAM,
        "B",
        "AdamW with fp32 master weights: read 16 B, write 14 B per parameter"
    ),
    row!(
        NVLINK_EFFICIENCY,
        "-",
        "nccl-tests bus bandwidth on DGX A100/H100"
    ),
    row!(
        NETWORK_EFFICIENCY,
        "-",
        "nccl-tests inter-node bus bandwidth on DGX H100 with 8x400G"
    ),
    row!(
        MOE_PERMUTE_PASSES,
        "passes",
        "Megatron-Core moe_utils permute and unpermute: a gather and a weighted scatter of the routed tokens, each a read and a write"
    ),
    row!(
        TE_GROUPED_GEMM_EXPERT_US,
        "us",
        "TE GroupedLinear's per-expert cuBLASLt GEMMs over one grouped kernel: GeodesicResearch GH200 trace (4.1 s over 163,840 GEMMs, host time); TE PR 3134 (SM100 NVFP4, 8 experts: 25 us kernels alone, 11 us with setup); Megatron stack"
    ),
    row!(
        TE_EXPERT_QUANTISE_KERNELS,
        "kernels",
        "counted in TransformerEngine csrc (split_quantize quantises experts one at a time but under delayed scaling; current scaling: compute_amax, compute_scale_from_amax, quantize) and NVIDIA's DeepSeek-V3 GB200 notes (MXFP8: zeroed scale buffers, cast, swizzle); Megatron stack, each at KERNEL_OVERHEAD_US"
    ),
    row!(
        MOE_KERNELS,
        "kernels",
        "counted in Megatron-Core's MoELayer forward: router, top-k, permute, dispatch, two grouped GEMMs, activation, combine, unpermute"
    ),
    row!(
        GROUPED_GEMM_SETUP_TOKENS,
        "tokens",
        "fitted on DeepGEMM's grouped fp8 GEMMs on H800 (256 to 8192 tokens per expert, two shapes; each shape left out within 12%)"
    ),
    row!(
        MOE_DISPATCH_BYTES,
        "B",
        "Megatron-Core's All-to-All token dispatcher sends bf16 hidden states"
    ),
    row!(
        NVLS_EFFICIENCY,
        "-",
        "nccl-tests AllReduce with NVLS on 8 H100s, about 480 GB/s bus bandwidth (NCCL 2.17 and later; PyTorch 2.3 ships NCCL 2.20)"
    ),
    row!(
        NCCL_BASE_LATENCY_US,
        "us",
        "NCCL src/graph/tuning.cc baseLat, Simple protocol"
    ),
    row!(
        NCCL_NVLINK_STEP_US,
        "us",
        "NCCL src/graph/tuning.cc hwLat NVLink ring, Simple"
    ),
    row!(
        NCCL_NETWORK_STEP_US,
        "us",
        "NCCL src/graph/tuning.cc hwLat NET ring, Simple"
    ),
    row!(
        NCCL_NVLINK_TREE_HOP_US,
        "us",
        "NCCL src/graph/tuning.cc hwLat NVLink tree, Simple"
    ),
    row!(
        NCCL_NETWORK_TREE_HOP_US,
        "us",
        "NCCL src/graph/tuning.cc hwLat NET tree, Simple"
    ),
    row!(
        RING_STEP_AT_SCALE_FACTOR,
        "x",
        "fitted jointly with OVERLAP_BANDWIDTH_SHARE on F1 (-37.22% per-GPU WPS, 128 to 2048 H100s) and F10 (+52.6% with TP at 2048); fit described in docs/calibration.md"
    ),
    row!(
        ATTENTION_HALF_LENGTH,
        "tokens",
        "FlashAttention-2 paper, causal fwd+bwd throughput against sequence length"
    ),
    row!(
        NCCL_CHANNELS,
        "SMs",
        "NCCL opens 16-32 channels (one SM each) on 8-NIC DGX nodes; the midpoint, not fitted; on H100 (132 SMs) it slows compute beside a collective by 18%, where Lee et al. (arXiv 2507.03114) measured 18.9% on average (A100, H100, MI250, MI210; SMs and memory bandwidth both taken)"
    ),
    row!(
        FSDP_REDUCE_BYTES,
        "B",
        "the paper stack's gradient reduction in bf16 (llama-recipes mixed precision: reduce_dtype bf16)"
    ),
    row!(
        OVERLAP_BANDWIDTH_SHARE,
        "-",
        "fitted jointly with RING_STEP_AT_SCALE_FACTOR on F1 and F10, within the shares that keep F5 and F12 (docs/calibration.md)"
    ),
    row!(
        TUNED_OVERLAP_SHARE,
        "-",
        "fitted on the published runs with the GEMM efficiencies (scalescope validate); Megatron, llm-foundry and torchtitan stacks"
    ),
    row!(
        NVSWITCH_OVERLAP_SHARE,
        "-",
        "MosaicML llm-foundry, MPT 13B on one node of 8 H100s (FSDP, 39.8% MFU); the paper has no single-node FSDP run"
    ),
    row!(
        POWER_FLOOR,
        "-",
        "fitted on F1 (658 W at 128 H100s, 620 W at 2048) and F10 (+30 W for TP at 2048)"
    ),
    row!(
        POWER_COMPUTE_SPAN,
        "-",
        "fitted on F1 (658 W at 128 H100s, 620 W at 2048) and F10 (+30 W for TP at 2048)"
    ),
    row!(
        RUNTIME_RESERVE_GIB,
        "GiB",
        "CUDA context (~0.5 GiB), NCCL buffers and allocator fragmentation"
    ),
];
