//! Every constant of the model that is not a datasheet number, with where
//! it comes from. [`TABLE`] is the same list as data, printed by the command
//! line tool and shown on the explorer's model page.

/// Fraction of peak that large bf16 (and fp8) GEMMs sustain inside a
/// training step on H100 SXM; each GEMM of a layer is slowed further by
/// its shape ([`GEMM_SHAPE_H100`]). Fitted on the published runs
/// ([`crate::validation`]: 41 runs, 8 sources, by least squares on the
/// relative error; `scalescope validate` prints the fit and each source's
/// error with constants fitted without it). The best measured matmuls
/// reach 0.80 to 0.84 of the bf16 peak; the fit sits below them because a
/// training step's GEMMs share the GPU with NCCL and run at lower clocks
/// under power limits.
pub const GEMM_EFFICIENCY_H100: f64 = 0.647;
/// GB200's sustained GEMM rate as a share of GB300's. The two parts have
/// the same tensor cores, the same 152 SMs and the same datasheet bf16
/// and fp8 rates. Azure's cuBLASLt fp8 tables (AI-benchmarking-guide,
/// `Azure_Results/ND_GB200_v6_results.md` and its GB300 twin; random
/// data after 10,000 warm-up iterations) give GB200 2,834.6, 2,876.6,
/// 2,906.9 and 2,895.6 TFLOP/s at 4096, 8192 and 16384 cubed and 6144 x
/// 12288 x 12288, and GB300 3,257.0, 3,286.3, 3,308.5 and 3,279.5: 0.870
/// to 0.883, the mean taken. The two ran at 1200 W and 1400 W, and also
/// under different software (CUDA 12.8 and driver 570 against 13.0 and
/// 580; earlier copies of the GB200 table had 2,695.0 and 2,819.5 at 16384
/// cubed): which of the two sets the ratio is not separated. GB300 carries
/// H100's fitted share of its datasheet rate and GB200 this share of that,
/// for its GEMMs. The same tables put GB300 at 0.951 of H100's share, a
/// level the published GB300 runs do not bear out (they run 2% to 4%
/// faster than H100's share gives), so only the ratio between the two
/// Blackwell parts is carried, a choice made with those runs in view.
/// Measured, not fitted. B200 (1000 W, not in the tables) sustains
/// GB200's rate per SM ([`crate::hardware::gb200_gemm_rate_per_sm`]).
pub const GB200_SUSTAINED_SHARE: f64 = 0.877;
/// Fraction of peak that large bf16 GEMMs sustain inside a training step on
/// A100, before its shape ([`GEMM_SHAPE_A100`]). Fitted on the published
/// runs with the H100 value; the best measured matmuls reach 0.85 to 0.87
/// (264.5 to 271.2 of 312 TFLOP/s).
pub const GEMM_EFFICIENCY_A100: f64 = 0.724;
/// Fraction of peak that large fp16 GEMMs sustain inside a training step on
/// V100 (no published run here): its microbenchmark rate (0.76 to 0.80)
/// times the ratio of A100's fitted value to its microbenchmark rate (0.724
/// over 0.88).
pub const GEMM_EFFICIENCY_V100: f64 = 0.64;
/// Large-GEMM ceiling of H100 SXM's bf16 cuBLAS matmuls (fraction of
/// peak): the best achievable matmuls measure 790 to 798 TFLOP/s
/// (stas00/ml-engineering MAMF tables, and 8192-cubed runs).
pub const GEMM_CEILING_H100: f64 = 0.84;
/// H100's GEMM prologue and epilogue per output tile, in steps of the
/// reduction `k` ([`crate::hardware::GemmShape`]): fitted (least squares
/// in log space, with [`GEMM_TAIL_H100`]) to the 93 bf16 cuBLAS
/// measurements of OpenXLA's sm_90 matmul table with every dimension 512
/// to 4096; median error 1.9%. Not fitted on any training run.
pub const GEMM_EPILOGUE_H100: f64 = 113.0;
/// H100's last-wave tail, in output elements (`m x n`): the same fit.
pub const GEMM_TAIL_H100: f64 = 2.88e5;
/// fp8 GEMMs' ceiling over bf16's on H100, each as a fraction of its own
/// peak: 70.9% (1402.6 of 1979 TFLOP/s) against 80.3% (794.5 of 989) for
/// the best measured matmuls (MAMF tables).
pub const FP8_GEMM_RATIO: f64 = 0.883;
/// fp4 (NVFP4) GEMMs' efficiency on Blackwell as a share of fp8's, each
/// of its own peak: Transformer Engine's GEMM profiling on B300 (a Llama
/// layer's twelve GEMMs, 15,872 tokens, hidden 4096, MLP 16,384) runs them
/// pre-quantized in 7.324 ms in MXFP8 and 3.754 in NVFP4, 1.95 times as
/// fast where the peak is three times. Measured; GB200 taken alike.
pub const FP4_GEMM_SHARE: f64 = 0.65;
/// NVFP4's quantisation of a GEMM operand over fp8's, per element: the
/// same profiling's autocast less its pre-quantized times, 2.685 ms a
/// layer in NVFP4 (amax, block scales, stochastic rounding, the Hadamard
/// transform) against 1.183 in MXFP8. Measured, not fitted.
pub const NVFP4_QUANTISE_OVER_FP8: f64 = 2.27;
/// Large-GEMM ceiling of A100 SXM's bf16 matmuls: 264.5 to 271.2 of 312
/// TFLOP/s measured (MAMF tables); also V100's.
pub const GEMM_CEILING_A100: f64 = 0.88;
/// A100's epilogue in steps of `k`: no shape-resolved A100 table is
/// published, so H100's halved (half the MMA rate per SM makes the same
/// epilogue cycles half as many steps of `k`); also V100's.
pub const GEMM_EPILOGUE_A100: f64 = 56.6;
/// A100's last-wave tail: H100's scaled by the SM count (108 of 132).
pub const GEMM_TAIL_A100: f64 = 2.35e5;
/// How GEMM throughput falls with shape on H100 SXM.
pub const GEMM_SHAPE_H100: crate::hardware::GemmShape = crate::hardware::GemmShape {
    ceiling: GEMM_CEILING_H100,
    k0: GEMM_EPILOGUE_H100,
    a0: GEMM_TAIL_H100,
    fp8_ratio: FP8_GEMM_RATIO,
    fp4_share: FP4_GEMM_SHARE,
};
/// B200's GEMM prologue and epilogue in steps of `k` over H100's: the
/// ratio of two fits made the same way (least squares in log space of
/// `peak / (1/0.84 + k0/k + a0/(b m n))`, the ceiling held at H100's) to
/// the bf16 GEMMs of OpenXLA's matmul table with every dimension 1,024 to
/// 4,096 (81 a block, batches of 1, 2 and 4), its `sm_100` block (NVIDIA
/// B200, as openxla PR 36518 names it) against its `sm_90` block
/// (tensorflow @ a305421c, `xla/backends/gpu/cost_model/matmul_interpolator_data.h`):
/// k0 880 against 284 (median errors 3.4% and 5.0%). Another copy of the
/// table gives 3.17. Carried as a ratio onto H100's shape, which was fitted
/// on another selection of the table. Measured, not fitted on training runs.
pub const BLACKWELL_EPILOGUE_OVER_H100: f64 = 3.10;
/// B200's last-wave tail over H100's, the same fits: a0 2.92e6 against
/// 1.15e6 (another copy: 2.61). B200 needs larger GEMMs than H100 to
/// approach its ceiling: at 4096 cubed the table has it at 0.80 of H100's
/// share of peak, at four batched 4096 cubed 0.93.
pub const BLACKWELL_TAIL_OVER_H100: f64 = 2.54;
/// How GEMM throughput falls with shape on a Blackwell GPU of `peak_bf16`
/// TFLOP/s over `sms` SMs: H100's with B200's measured ratios
/// ([`BLACKWELL_EPILOGUE_OVER_H100`], [`BLACKWELL_TAIL_OVER_H100`]), the
/// epilogue scaled by the MMA rate per SM over B200's (the same epilogue
/// cycles are more steps of `k` when each step is faster) and the last
/// wave's tail by the SM count over B200's 148 (GB200, B200's die, and
/// GB300, `sm_103`, have no table of their own).
#[must_use]
pub const fn blackwell_gemm_shape(peak_bf16: f64, sms: f64) -> crate::hardware::GemmShape {
    let per_sm = (peak_bf16 / sms) / (2250.0 / 148.0);
    crate::hardware::GemmShape {
        k0: GEMM_EPILOGUE_H100 * BLACKWELL_EPILOGUE_OVER_H100 * per_sm,
        a0: GEMM_TAIL_H100 * BLACKWELL_TAIL_OVER_H100 * sms / 148.0,
        ..GEMM_SHAPE_H100
    }
}
/// The same on A100 SXM, carried over to V100.
pub const GEMM_SHAPE_A100: crate::hardware::GemmShape = crate::hardware::GemmShape {
    ceiling: GEMM_CEILING_A100,
    k0: GEMM_EPILOGUE_A100,
    a0: GEMM_TAIL_A100,
    fp8_ratio: 1.0,
    fp4_share: 1.0,
};
/// FlashAttention-2 forward and backward on H100: about 35% of peak (the
/// FlashAttention-3 paper's measurement of FlashAttention-2 on H100).
pub const ATTENTION_EFFICIENCY_H100: f64 = 0.35;
/// FlashAttention-2's rate on GB200 over its rate on H200, whose tensor
/// cores are H100's: Azure's AI-benchmarking-guide tables (forward and
/// backward, causal, head width 128, batch 2, 8,192 tokens) run it at
/// 373.9 TFLOP/s against 329.3, 1.135 times where the datasheet gains
/// 2.53, likely because its kernels are built on the warp-level MMA
/// instructions Ampere introduced (CUTLASS's `SM80` atoms), not on Hopper's
/// or Blackwell's own tensor-core paths. B200, GB200's die, runs GB200's
/// rate per SM ([`crate::hardware::flash_attention_2_on`]). Measured, not
/// fitted.
pub const FLASH_ATTENTION_2_GB200_OVER_H200: f64 = 1.135;
/// The same tables' GB300 over H200: 399.7 TFLOP/s, 1.214 times.
pub const FLASH_ATTENTION_2_GB300_OVER_H200: f64 = 1.214;
/// cuDNN's fused attention on Hopper and later, which Transformer Engine
/// prefers there over FlashAttention (TE `attention.py`: "Disabling
/// FlashAttention to give FusedAttention preference on Hopper+", since TE
/// 1.2), at long sequences, forward and backward, as a fraction of the
/// datasheet's dense bf16 peak: cudnn-frontend's training benchmark
/// (cuDNN 9.19.1, bf16, causal, 64 query and 8 key/value heads of 128, 2k
/// to 16k tokens; `benchmark/sdpa_benchmark_training/results/
/// h200_919_only_cudnn` @ df73764a) on H200, whose tensor cores are H100's.
/// Fitted with [`CUDNN_ATTENTION_HALF_LENGTH`] on its four lengths (each
/// within 2.2%); not fitted on any training run.
pub const CUDNN_ATTENTION_EFFICIENCY_H100: f64 = 0.68;
/// cuDNN's fused attention on H100 as it ran in 2024, for runs of that
/// year's containers (NeMo 24.03 to 24.09, Transformer Engine 1.3 to 1.9,
/// which prefer cuDNN on Hopper since TE PR 497): the FlashAttention-3
/// paper's cuDNN baseline (July 2024; H100 SXM5, bf16, head width 128,
/// causal) runs at 518 to 539 TFLOP/s forward and 499 to 518 backward at
/// 4k to 16k tokens (read from a transcription of its figures), about
/// 0.52 of the peak, forward and backward weighted as the model weighs
/// them. Measured, not fitted; a validation row names the year
/// ([`crate::validation::Row`]'s `cudnn_2024`).
pub const CUDNN_ATTENTION_EFFICIENCY_H100_2024: f64 = 0.52;
/// The same benchmark on GB200 (`gb200_919_only_cudnn` @ df73764a), each
/// length within 4.2%; B200 is the same die (148 SMs enabled to GB200's
/// 152, at 1000 W to its 1200).
pub const CUDNN_ATTENTION_EFFICIENCY_B200: f64 = 0.64;
/// The same benchmark on GB300 (`gb300_919_only_cudnn` @ afa9f7c0), each
/// length within 2.4%: 1.09 to 1.11 times GB200's rate at the same
/// datasheet peak, where Blackwell Ultra doubles the special-function
/// units' exponentials ("up to 2x faster attention-layer compute",
/// NVIDIA's Blackwell Ultra blog); its GEMMs also sustain 1.14 times
/// GB200's rate ([`GB200_SUSTAINED_SHARE`]).
pub const CUDNN_ATTENTION_EFFICIENCY_GB300: f64 = 0.70;
/// Key/value length at which cuDNN's fused attention reaches half its
/// long-sequence rate ([`ATTENTION_HALF_LENGTH`] is FlashAttention-2's):
/// one value for the three GPUs above, fitted on their twelve points. Left
/// out, each GPU's four are predicted within 6% by a fit on the other two.
pub const CUDNN_ATTENTION_HALF_LENGTH: f64 = 1500.0;
/// FlashAttention-2 on A100: about 60% of peak for head dimension 128 and
/// causal masks (FlashAttention-2 paper, forward plus backward).
pub const ATTENTION_EFFICIENCY_A100: f64 = 0.60;
/// FlashAttention-2 over FlashAttention 1 on the same GPU: "around 2x
/// faster than FlashAttention" (FlashAttention-2 paper, abstract; its
/// A100 forward-plus-backward figures run 1.7 to 3.0 times), which "only
/// reach 25-40% of the theoretical maximum FLOPs/s" on A100. Not fitted:
/// llm-foundry's MPT tables, whose sequence sweeps (1B, 2k to 32k tokens,
/// one node) put their attention at 2.2 (A100) and 2.3 (H100) times
/// FlashAttention-2's time, check it.
pub const FLASH_ATTENTION_2_SPEEDUP: f64 = 2.0;
/// CUTLASS memory-efficient attention (xFormers) on V100: about 40% of peak.
pub const ATTENTION_EFFICIENCY_V100: f64 = 0.40;
/// Key/value length at which a causal FlashAttention kernel reaches half
/// of its long-sequence throughput; efficiency is `L / (L + this)`. Fitted
/// to the FlashAttention-2 paper's causal forward+backward benchmarks
/// (about 55% at 512, 70% at 1k, 84% at 2k, 91% at 4k of the 16k rate).
pub const ATTENTION_HALF_LENGTH: f64 = 400.0;
/// Keys a fused attention kernel's tile spans (FlashAttention-2's
/// `kBlockN` at head widths up to 128, cuDNN's 128 x 128 tiles): a
/// sliding window's diagonal tiles are computed whole, so a layer with a
/// window of `w` keys costs about `w` plus a tile's keys per query.
/// cudnn-frontend's GPT-OSS training benchmark on GB300 (cuDNN 9.26,
/// bf16, a 128-key window, 128 heads of 64, `results/gpt_oss/gb300` @
/// e99b0d0b) runs the window's own FLOPs at 187 TFLOP/s forward and
/// backward at 4k tokens, where the model gives head width 128, at cuDNN's
/// rate for a causal context of 512 ([`CUDNN_ATTENTION_HALF_LENGTH`]),
/// 219. Its prefill benchmark on H200 (cuDNN 9.27, forward only, with
/// sinks) ran a 128-key window 35 times as fast as full causal attention
/// at 32k tokens; the model's forward and backward make it 17. Not fitted.
pub const ATTENTION_TILE_KEYS: f64 = 128.0;
/// Fixed cost of one compute kernel (launch, tail and wave quantisation),
/// which is what makes small GEMMs run far below peak.
pub const KERNEL_OVERHEAD_US: f64 = 8.0;
/// Fraction of HBM bandwidth reached by element-wise kernels. Azure's
/// AI-benchmarking-guide STREAM tables (copy and triad) measure 0.79 and
/// 0.83 of A100 80GB's datasheet, 0.87 and 0.89 of H100's and 0.84 and
/// 0.86 of H200's; training's element-wise kernels are shorter than
/// STREAM's, and 0.80 sits at the low end of the range. Not fitted.
pub const HBM_EFFICIENCY: f64 = 0.80;
/// GEMMs per layer in forward (QKV, output projection, the MLP's two or
/// three, counted as four launches of Megatron's fused shapes).
pub const GEMMS_PER_LAYER: f64 = 4.0;
/// Shortest time of an element-wise kernel on the GPU: launch and tail
/// when back-to-back kernels queue (about 2 us on A100 and H100). Not fitted.
pub const ELEMENTWISE_KERNEL_US: f64 = 2.0;
/// Passes over the hidden state by the two residual adds of a layer in
/// forward (each reads two tensors and writes one), in every stack.
pub const RESIDUAL_PASSES: f64 = 6.0;
/// Passes of a GeLU over the FFN width (read, write): one kernel in every stack.
pub const GELU_PASSES: f64 = 2.0;
/// Kernels per ring step of context parallelism (TransformerEngine's
/// `AttnFuncWithCPAndKVP2P`): the send and receive of the next key/value
/// block, the attention kernel on the current one, and the corrections of
/// the running output and its log-sum-exp.
pub const CP_KERNELS_PER_STEP: f64 = 5.0;
/// Passes over the attention score matrix (heads x s x s per sequence) in
/// forward without FlashAttention: the score GEMM writes it, the fused
/// scale-mask-softmax reads and writes it, dropout reads it and writes it
/// with a one-byte mask, and the value GEMM reads it (Korthikanti et al.'s
/// `5as/h` activation bytes are the part kept for backward).
pub const SCORE_PASSES: f64 = 6.5;
/// A fused norm reads the hidden state once and writes it once (Apex and
/// Transformer Engine in Megatron, xFormers' RMSNorm, Inductor). An eager
/// fp32 RMSNorm as the Llama reference writes it takes 18 passes in nine
/// kernels; none of the stacks here runs that.
pub const FUSED_NORM_PASSES: f64 = 2.0;
/// A fused rotary kernel reads and writes queries and keys once.
pub const FUSED_ROTARY_PASSES: f64 = 2.0;
/// A fused SwiGLU reads gate and up projections and writes the product.
pub const FUSED_ACTIVATION_PASSES: f64 = 3.0;
/// Passes a clamped GLU (GPT-OSS's) adds to the activation in forward
/// where the stack clamps eagerly: Megatron-Core's
/// `weighted_bias_quick_geglu_impl` (`fusions/fused_bias_geglu.py`, the
/// path `bias_activation_fusion` takes for `quick_gelu`) clamps the gate
/// half (a read and a write), the linear half (the same) and concatenates
/// them (a read and a write of both) before its compiled weighted
/// quick-GeGLU, which [`FUSED_ACTIVATION_PASSES`] counts. Counted from the
/// code, not fitted.
pub const CLAMPED_GLU_PASSES: f64 = 8.0;
/// Kernels those clamps launch in forward: two clamps and the concatenation.
pub const CLAMPED_GLU_KERNELS: f64 = 3.0;
/// Passes over the routed tokens' expert outputs (`routed x hidden`) in
/// forward where the stack adds the second expert linear's bias apart:
/// Megatron-Core's `TEGroupedMLP._apply_bias` (its `linear_fc2` returns
/// the bias unapplied) writes each local expert's `bias x prob` (a
/// write), adds it to the expert's output (two reads and a write) and
/// concatenates the experts' rows (a read and a write), two kernels an
/// expert and one more, taking the routing probabilities in bf16 (in
/// fp32 the product and the sum would move twice the bytes and
/// `.to(dtype)` cast them back). Counted from the code, not fitted.
pub const EXPERT_BIAS_PASSES: f64 = 6.0;
/// Passes over the routed tokens' first expert linear's outputs (gate and
/// up, each `ffn` wide) in forward where the stack adds that bias apart
/// too: NeMo Automodel's `GroupedExpertsDeepEP._apply_bias` adds each
/// local expert's bias (a read and a write of both halves) and
/// concatenates the experts' rows (the same again), one kernel an expert
/// and one more; Megatron-Core's `GroupedLinear` adds it in the GEMM's
/// epilogue. Counted from the code, not fitted.
pub const EXPERT_UP_BIAS_PASSES: f64 = 8.0;
/// Element-wise kernels per layer in forward with fused kernels: two
/// norms, rotary, two residual adds, the activation.
pub const FUSED_ELEMENTWISE_KERNELS: f64 = 6.0;
/// Host time to dispatch one eager PyTorch op: Python, pybind11, autograd
/// and ATen dispatch and `cudaLaunchKernel` take 5 to 25 us; the low end,
/// since backward ops are dispatched from C++.
pub const EAGER_DISPATCH_US: f64 = 10.0;
/// Host time per kernel launched by a `torch.compile`d graph's wrapper:
/// `cudaLaunchKernel` alone (1 to 3 us), no per-op Python.
pub const COMPILED_DISPATCH_US: f64 = 3.0;
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
/// Passes over the routed token copies (`tokens x top_k x hidden`) that an
/// MoE layer's forward makes outside its GEMMs: the permutation gathers
/// (a read and a write) and the inverse scatters and weights them (a read
/// and a write), counted in Megatron-Core's `moe_utils.permute` and
/// `unpermute`.
pub const MOE_PERMUTE_PASSES: f64 = 4.0;
/// Fixed time of each local expert's GEMM under Transformer Engine's
/// `GroupedLinear` (Megatron-Core's `TEGroupedMLP`), which issues one
/// cuBLASLt GEMM per expert over several streams, beyond the share of one
/// grouped kernel. GeodesicResearch's host-overhead investigation
/// (geodesic-megatron docs/investigations/
/// 120b-gbs64-host-overhead-investigation.md, section 9.12: 128 local
/// experts on GH200, TE 2.12) saved 4.1 s an iteration over its 163,840
/// per-expert GEMMs, 25 us each, by issuing the same GEMMs from one C++
/// loop: host time the GPU waited out. TE PR 3134 (SM100, per-tensor NVFP4,
/// 8 experts of 128 tokens, N = K = 2048) bounds it from the kernels'
/// side: 0.267 ms through the multi-stream path against 0.069 ms as one
/// CUTLASS grouped kernel, kernels alone (25 us an expert), 0.272 against
/// 0.184 ms with each path's setup (11 us). The model charges it on the
/// step's critical path, as the published runs show it: without it the
/// model missed about the same time per layer and micro-batch on Qwen3
/// 30B's 16 experts per GPU at eight sequences a micro-batch as at four
/// (3.2 to 4.0 ms), where a host cost the GPU could hide would have
/// shrunk. Not fitted.
pub const TE_GROUPED_GEMM_EXPERT_US: f64 = 25.0;
/// Kernels Transformer Engine's `GroupedLinear` launches to quantise one
/// local expert's fp8 operand, one expert at a time (`split_quantize` fuses
/// experts only under delayed scaling): current scaling's amax, scale and
/// cast; MXFP8's zeroed scale buffers, cast and swizzle. They follow the
/// host's sync on tokens per expert, so each is launched alone, at
/// [`KERNEL_OVERHEAD_US`]. Counted, not fitted.
pub const TE_EXPERT_QUANTISE_KERNELS: f64 = 3.0;
/// Kernels an MoE layer's forward launches beyond the dense layer's:
/// router GEMM, top-k and softmax, permute, dispatch, two grouped GEMMs,
/// activation, combine, unpermute (Megatron-Core's `MoELayer.forward`).
pub const MOE_KERNELS: f64 = 9.0;
/// A grouped GEMM's cost per expert, in tokens of its work: the rate of an
/// expert's GEMM of `m` tokens is the dense shape's over `1 + this / m`.
/// Fitted (least squares on the ratios) on DeepGEMM's six grouped fp8
/// GEMMs on H800 (first README: 256 to 8192 tokens per expert, N x K of
/// 4096 x 7168 and 7168 x 2048); each shape left out is predicted within
/// 12% by the fit on the other (44 and 67 tokens).
pub const GROUPED_GEMM_SETUP_TOKENS: f64 = 56.0;
/// Bytes per value of dispatched and combined tokens: bf16 (Megatron-Core's
/// All-to-All dispatcher sends the hidden states in their compute type).
pub const MOE_DISPATCH_BYTES: f64 = 2.0;
/// Fraction of the InfiniBand line rate NCCL achieves across nodes
/// (nccl-tests: about 370 of 400 GB/s per DGX H100 node).
pub const NETWORK_EFFICIENCY: f64 = 0.90;
/// Share of the NVLink bus rate at which an NVLS AllReduce (the switch
/// reduces; each GPU sends and receives its buffer once) moves the buffer:
/// nccl-tests on 8 H100s reach about 480 GB/s of AllReduce bus bandwidth
/// with NVLS, where the ring's 1.75 x 360 GB/s would be 630.
pub const NVLS_EFFICIENCY: f64 = 0.76;
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
pub const RING_STEP_AT_SCALE_FACTOR: f64 = 1.4;
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
/// or PP) shortens the collective. Fitted with [`RING_STEP_AT_SCALE_FACTOR`]
/// on F1 (the per-GPU fall from 128 to 2048 H100s, and exposure under 5%
/// up to 128) and F10 (the gain of tensor parallelism at 2048), bounded
/// by F5 and F12 (tensor and pipeline parallelism beating FSDP alone at
/// 256 GPUs): F5 fails at 0.21 and F12 at 0.23 (`docs/calibration.md`).
pub const OVERLAP_BANDWIDTH_SHARE: f64 = 0.15;
/// The same share for stacks that bucket and overlap their data-parallel
/// traffic (Megatron-LM, llm-foundry, torchtitan). Fitted on the published
/// runs with the GEMM efficiencies (`scalescope validate` prints the fit
/// and its leave-one-source-out error); the paper's stack keeps its own.
pub const TUNED_OVERLAP_SHARE: f64 = 0.380;
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

mod table;
pub use table::{Constant, TABLE};
