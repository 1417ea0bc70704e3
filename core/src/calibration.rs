//! Every constant of the model that is not a datasheet number, with where
//! it comes from. [`TABLE`] is the same list as data, printed by the command
//! line tool and shown on the explorer's model page.

use serde::Serialize;

/// Fraction of peak that large bf16 GEMMs sustain inside a training step
/// on H100 SXM. Set on the paper's H100 best-layout MFU (F6: 40.77%; the
/// model gives 40.59%); F4's 40% at 2 nodes follows (41.53%). cuBLAS
/// microbenchmarks reach 0.71 to 0.76 (700 to 750 of 990 TFLOP/s), and
/// MosaicML's H100 runs sit 9 to 17% above the model, nearer 0.72.
pub const GEMM_EFFICIENCY_H100: f64 = 0.62;
/// Fraction of peak that large bf16 GEMMs sustain inside a training step on
/// A100. Set on the paper's A100 best-layout MFU (F6: 59.67%; the model
/// gives 60.06%); the published A100 runs spread from -15% to +26% around
/// it. cuBLAS microbenchmarks reach 0.85 to 0.90 (265 to 280 of 312
/// TFLOP/s), which would put the published runs too high.
pub const GEMM_EFFICIENCY_A100: f64 = 0.78;
/// Fraction of peak that large fp16 GEMMs sustain inside a training step on
/// V100: microbenchmarks reach 0.76 to 0.80 (95 to 100 of 125 TFLOP/s),
/// taken at 0.9 of that, the ratio A100's calibration finds.
pub const GEMM_EFFICIENCY_V100: f64 = 0.72;
/// FlashAttention-2 forward and backward on H100: about 35% of peak (the
/// FlashAttention-3 paper's measurement of FlashAttention-2 on H100).
pub const ATTENTION_EFFICIENCY_H100: f64 = 0.35;
/// FlashAttention-2 on A100: about 60% of peak for head dimension 128 and
/// causal masks (FlashAttention-2 paper, forward plus backward).
pub const ATTENTION_EFFICIENCY_A100: f64 = 0.60;
/// CUTLASS memory-efficient attention (xFormers) on V100: about 40% of peak.
pub const ATTENTION_EFFICIENCY_V100: f64 = 0.40;
/// Key/value length at which a causal FlashAttention kernel reaches half
/// of its long-sequence throughput; efficiency is `L / (L + this)`. Fitted
/// to the FlashAttention-2 paper's causal forward+backward benchmarks
/// (about 55% at 512, 70% at 1k, 84% at 2k, 91% at 4k of the 16k rate).
pub const ATTENTION_HALF_LENGTH: f64 = 400.0;
/// Fixed cost of one compute kernel (launch, tail and wave quantisation),
/// which is what makes small GEMMs run far below peak.
pub const KERNEL_OVERHEAD_US: f64 = 8.0;
/// Fraction of HBM bandwidth reached by element-wise kernels.
pub const HBM_EFFICIENCY: f64 = 0.80;
/// Element-wise passes over hidden-sized tensors per token per layer in the
/// forward pass (two RMSNorms, rotary, two residual adds, casts), unfused
/// as in eager PyTorch.
pub const HIDDEN_PASSES: f64 = 48.0;
/// Element-wise passes over FFN-sized tensors per token per layer in the
/// forward pass (SiLU and the gate product, or GeLU).
pub const FFN_PASSES: f64 = 8.0;
/// Backward element-wise work relative to forward.
pub const BACKWARD_ELEMENTWISE_FACTOR: f64 = 2.0;
/// FlashAttention backward time relative to forward (it recomputes the
/// score matrix: five matmuls against two).
pub const ATTENTION_BACKWARD_FACTOR: f64 = 2.5;
/// Bytes moved per parameter by the AdamW step (read fp32 weight, gradient,
/// two moments; write weight, moments and the bf16 copy).
pub const OPTIMIZER_BYTES_PER_PARAM: f64 = 30.0;
/// Fraction of the one-direction NVLink figure that NCCL achieves as bus
/// bandwidth (nccl-tests: about 360 of 450 GB/s on DGX H100, 235 of 300 on
/// DGX A100, where NCCL caps its own model at 235).
pub const NVLINK_EFFICIENCY: f64 = 0.80;
/// Fraction of the InfiniBand line rate NCCL achieves across nodes
/// (nccl-tests: about 370 of 400 GB/s per DGX H100 node).
pub const NETWORK_EFFICIENCY: f64 = 0.90;
/// NCCL tuning model: base latency of a ring or tree collective (µs).
pub const NCCL_BASE_LATENCY_US: f64 = 8.4;
/// NCCL tuning model: one ring step over NVLink, Simple protocol (µs).
pub const NCCL_NVLINK_STEP_US: f64 = 3.4;
/// NCCL tuning model: one ring step over the network, Simple protocol (µs).
pub const NCCL_NETWORK_STEP_US: f64 = 14.0;
/// NCCL tuning model: one tree hop over NVLink, Simple protocol (µs).
pub const NCCL_NVLINK_TREE_HOP_US: f64 = 4.0;
/// NCCL tuning model: one tree hop over the network, Simple protocol (µs).
pub const NCCL_NETWORK_TREE_HOP_US: f64 = 14.0;
/// Measured ring collectives at scale run slower per step than NCCL's
/// tuning model, which is fitted on few nodes: stragglers, congestion and
/// proxy-thread jitter add up over thousands of synchronised steps. This
/// factor multiplies every ring step (NVLink and network).
pub const RING_STEP_AT_SCALE_FACTOR: f64 = 1.6;
/// Streaming multiprocessors an NCCL collective holds while it runs (one
/// thread block per channel; NCCL opens 16 to 32 channels on DGX nodes with
/// eight NICs). Compute running beside a collective gets the rest, so it
/// slows by this over the GPU's SM count.
pub const NCCL_CHANNELS: f64 = 24.0;
/// Bytes per gradient element in FSDP's ReduceScatter: the paper's setup
/// follows llama-recipes, whose bf16 mixed-precision policy reduces in bf16.
pub const FSDP_REDUCE_BYTES: f64 = 2.0;
/// Share of the GPU's standalone NVLink bus rate that a data-parallel
/// collective reaches per GPU while compute kernels run beside it: NCCL
/// gets few SMs and shares HBM, and the framework adds copy-in and
/// copy-out. It caps the per-GPU rate, so a smaller per-GPU shard (more TP
/// or PP) shortens the collective. Calibrated jointly on F1, F4, F5 and F10.
pub const OVERLAP_BANDWIDTH_SHARE: f64 = 0.13;
/// Share of the NVLink bus rate that a data-parallel collective confined to
/// one node (FSDP on one node, HSDP's shards) reaches while compute runs
/// beside it. The paper has no single-node FSDP run. Calibrated on MosaicML
/// llm-foundry's MPT 13B on one node of 8 H100s (FSDP full shard, two
/// sequences of 2048 per GPU, 39.8% MFU), the one single-node run of theirs
/// whose gathers do not hide easily: the model matches it at 0.3 (about
/// 108 GB/s per GPU on H100).
pub const NVSWITCH_OVERLAP_SHARE: f64 = 0.3;
/// GPU power with no compute kernel running, as a fraction of the span
/// from idle to TDP (clocks up, NCCL kernels spinning, HBM active).
pub const POWER_FLOOR: f64 = 0.78;
/// GPU power added when compute kernels run the whole step, as a fraction
/// of the span from idle to TDP.
pub const POWER_COMPUTE_SPAN: f64 = 0.17;
/// Memory reserved by the CUDA context, NCCL buffers and the allocator.
pub const RUNTIME_RESERVE_GIB: f64 = 2.0;

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
        "set on the paper's H100 best-layout MFU (F6, 40.77%); cuBLAS microbenchmarks reach 0.71-0.76, MosaicML's H100 runs suggest 0.72"
    ),
    row!(
        GEMM_EFFICIENCY_A100,
        "-",
        "set on the paper's A100 best-layout MFU (F6, 59.67%); published A100 runs spread -15% to +26% around it; cuBLAS microbenchmarks reach 0.85-0.90"
    ),
    row!(
        GEMM_EFFICIENCY_V100,
        "-",
        "cuBLAS fp16 microbenchmarks on V100 (0.76-0.80) at 0.9, the sustained-to-benchmark ratio of A100's calibration"
    ),
    row!(
        ATTENTION_EFFICIENCY_H100,
        "-",
        "FlashAttention-3 paper: FlashAttention-2 reaches ~35% of H100 peak"
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
        KERNEL_OVERHEAD_US,
        "us",
        "launch + tail effect; puts half-efficiency of an A100 GEMM near 2 GFLOP"
    ),
    row!(
        HBM_EFFICIENCY,
        "-",
        "element-wise kernels reach ~80% of HBM bandwidth"
    ),
    row!(
        HIDDEN_PASSES,
        "passes",
        "count of unfused element-wise passes in a Llama block (norms, rotary, residuals, casts)"
    ),
    row!(
        FFN_PASSES,
        "passes",
        "SiLU + gate product: read gate, write act, read act and up, write product"
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
        "NCCL opens 16-32 channels (one SM each) on 8-NIC DGX nodes; the midpoint, not fitted"
    ),
    row!(
        FSDP_REDUCE_BYTES,
        "B",
        "llama-recipes bf16 mixed precision: reduce_dtype bf16"
    ),
    row!(
        OVERLAP_BANDWIDTH_SHARE,
        "-",
        "fitted jointly with RING_STEP_AT_SCALE_FACTOR on F1 and F10; F4 (about 40% MFU at 16 GPUs) and F5 follow"
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
