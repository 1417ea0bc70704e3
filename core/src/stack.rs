//! Software stacks: the framework that runs the step. The same layout on
//! the same cluster runs at different speeds under Megatron-LM's fused
//! kernels, eager PyTorch or a compiled graph, and two stacks that both say
//! "FSDP" may gather, reduce and overlap differently. A [`Stack`] holds those
//! mechanisms and their constants, each with its source; a scenario names
//! one by [`StackId`].
//!
//! ```
//! use scalescope_core::stack::{Stack, StackId};
//! let paper = Stack::of(StackId::Paper);
//! assert!(!paper.sequence_parallel && !paper.interleaving);
//! assert!(Stack::of(StackId::Megatron).sequence_parallel);
//! ```

pub use crate::experts::ExpertKernels;
pub use crate::pipeline::PipelineSplit;
use serde::{Deserialize, Serialize};

/// A software stack by name, as scenario files, links and the command line
/// spell it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StackId {
    /// The paper's own: a Megatron-inspired framework on eager PyTorch 2.3.1
    /// with FlashAttention-2 and xFormers, FSDPv2.
    #[default]
    Paper,
    /// Megatron-LM (Megatron-Core): fused kernels, FlashAttention, sequence
    /// parallelism, interleaved pipelines, distributed optimizer.
    Megatron,
    /// Megatron-LM as of 2021-22 (and Megatron-DeepSpeed): fused kernels
    /// but attention through the materialised score matrix, before
    /// FlashAttention.
    #[serde(rename = "megatron-2021")]
    Megatron2021,
    /// MosaicML llm-foundry on Composer: PyTorch FSDP (v1), FlashAttention,
    /// eager.
    LlmFoundry,
    /// torchtitan: FSDP2, `torch.compile`d blocks, DTensor tensor and
    /// sequence parallelism, pipeline schedules.
    Torchtitan,
    /// DeepSpeed ZeRO (0.6 and later) under Megatron-DeepSpeed or
    /// Hugging Face: one collective per module, ZeRO-1/2 gradients
    /// all-reduced in buckets, overlap only under ZeRO-3.
    #[serde(rename = "deepspeed")]
    DeepSpeed,
    /// DeepSpeed ZeRO of 2021 (0.3 to 0.5): one collective per parameter
    /// over a list of one tensor per rank, each after a host
    /// synchronisation, so nothing overlaps.
    #[serde(rename = "deepspeed-2021")]
    DeepSpeed2021,
}

/// Every stack, in the order the explorer lists them.
pub const STACKS: [StackId; 7] = [
    StackId::Paper,
    StackId::Megatron,
    StackId::Megatron2021,
    StackId::LlmFoundry,
    StackId::Torchtitan,
    StackId::DeepSpeed,
    StackId::DeepSpeed2021,
];

impl StackId {
    /// The id as written in files and links (`llm-foundry`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::Paper => "paper",
            Self::Megatron => "megatron",
            Self::Megatron2021 => "megatron-2021",
            Self::LlmFoundry => "llm-foundry",
            Self::Torchtitan => "torchtitan",
            Self::DeepSpeed => "deepspeed",
            Self::DeepSpeed2021 => "deepspeed-2021",
        }
    }

    /// Looks a stack up by its key, case-insensitively.
    #[must_use]
    pub fn parse(key: &str) -> Option<Self> {
        STACKS
            .into_iter()
            .find(|s| s.key().eq_ignore_ascii_case(key))
    }
}

/// When FSDP without resharding after forward (`dp: fsdp`) moves parameters
/// and gradients, if a replica runs several micro-batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FsdpSync {
    /// Every micro-batch gathers its parameters and reduce-scatters its
    /// gradients, as ZeRO-2 does and as FSDP does by default (it reshards
    /// after backward and syncs gradients every backward).
    PerMicroBatch,
    /// Parameters are gathered once and gradients accumulate unsharded until
    /// the last micro-batch reduce-scatters them (PyTorch's pipeline
    /// schedules: `set_reshard_after_backward(False)`,
    /// `set_requires_gradient_sync(False)` until the last).
    OncePerStep,
}

/// Where a stack places the parallel dimensions on the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Tensor, context and pipeline ranks innermost, data-parallel
    /// replicas across: a model-parallel group of 8 or fewer stays inside
    /// a node.
    ModelParallelInNode,
    /// Tensor, context, data, then pipeline outermost (Megatron's
    /// `tp-cp-dp-pp` order, torchtitan's device mesh).
    PipelineOutermost,
}

/// How many data-parallel collectives a layer's parameters or gradients
/// take, each paying a collective's latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DpCalls {
    /// One flat buffer per layer (PyTorch FSDP's flat parameter, FSDP2's
    /// per-block group, Megatron's buckets).
    PerLayer,
    /// One per weight matrix: DeepSpeed hooks every `nn.Module` and gathers
    /// its own parameters (four Linear modules per GPT layer, seven per
    /// Llama layer in Hugging Face's split q, k, v, o, gate, up, down).
    PerModule,
    /// DeepSpeed's ZeRO-3 before PyTorch had `_all_gather_base` and
    /// `_reduce_scatter_base` (DeepSpeed 0.3 to 0.5, early 2021): one
    /// gather per partitioned parameter (a weight matrix; parameters under
    /// `stage3_param_persistence_threshold`, 1e5 elements, stay whole) and
    /// one reduce-scatter per parameter with a gradient (weights, biases,
    /// norms), each over a Python list of one tensor per rank: the host
    /// builds a view for each rank and PyTorch's list collectives copy
    /// each rank's tensor in or out of a flat buffer
    /// (`ProcessGroupNCCL::allgather`, `reduce_scatter`), one host dispatch
    /// per rank per call. Its other flavours take one per module.
    PerParameterList,
}

/// When a stack runs data-parallel traffic beside compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DpOverlap {
    /// Always, on its own stream.
    Always,
    /// Only fully sharded traffic (DeepSpeed's `overlap_comm` defaults to
    /// true for ZeRO-3 only; ZeRO-1/2 reduce on the compute stream).
    ShardedOnly,
    /// Never: every collective follows a host synchronisation.
    Never,
}

/// How a stack moves MoE tokens to their experts' GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EpDispatch {
    /// One NCCL All-to-All of every routed copy (`tokens x top_k`), as
    /// Megatron-Core's `alltoall` token dispatcher sends them.
    Nccl,
    /// DeepEP's and HybridEP's kernels (Megatron-Core's `flex` dispatcher):
    /// a token goes once to each GPU that holds one of its experts, and
    /// across the network once to each NVLink domain, whose receiving GPU
    /// forwards it over NVLink.
    Deduplicated,
}

/// The attention kernel a stack runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttentionKernel {
    /// The score matrix written, soft-maxed, dropped out and read back
    /// (Megatron's fused scale-mask-softmax); a selective recomputation
    /// recomputes it.
    Materialised,
    /// FlashAttention 1 (flash-attn 1.0.x): fused, at half of
    /// FlashAttention-2's rate ([`crate::calibration::FLASH_ATTENTION_2_SPEEDUP`]).
    Flash1,
    /// FlashAttention-2, or a kernel of its speed (xFormers' and SDPA's
    /// flash backends).
    Flash2,
    /// Transformer Engine, which picks cuDNN's fused attention on Hopper
    /// and later ([`crate::hardware::Gpu::te_attention_efficiency`] at
    /// [`crate::hardware::Gpu::te_attention_half_length`]).
    TransformerEngine,
}

impl AttentionKernel {
    /// Whether attention is one fused kernel that keeps no score matrix.
    #[must_use]
    pub const fn fused(self) -> bool {
        !matches!(self, Self::Materialised)
    }

    /// Whether a sliding window spares the kernel the keys outside it:
    /// FlashAttention-2's and cuDNN's loops start at the window's first
    /// key block (FA2 `flash_fwd_kernel.h` `n_block_min`, its backward's
    /// `m_block_max`; cuDNN's diagonal band, whose bf16 times on H200,
    /// GB200 and A100 grow with the sequence, not its square, in
    /// cudnn-frontend's GPT-OSS benchmarks), as a block mask spares
    /// FlexAttention. FlashAttention 1 has no window, and a score matrix
    /// is computed whole before its mask.
    #[must_use]
    pub const fn skips_window(self) -> bool {
        matches!(self, Self::Flash2 | Self::TransformerEngine)
    }
}

/// A software stack's mechanisms and constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stack {
    /// Which stack.
    pub id: StackId,
    /// Name for people.
    pub name: &'static str,
    /// Passes over a hidden-sized tensor per RMSNorm or LayerNorm in
    /// forward, in bf16-element units (an fp32 read counts two).
    pub norm_passes: f64,
    /// Passes over the query and key tensors per rotary embedding in
    /// forward (zero where the attention kernel applies it).
    pub rotary_passes: f64,
    /// Passes over an FFN-sized tensor by the MLP activation in forward
    /// (SiLU and the gate product, or GeLU).
    pub activation_passes: f64,
    /// Passes a clamped GLU's clamps add to it in forward, and so whether
    /// they run apart: eagerly beside a fused activation
    /// ([`crate::calibration::CLAMPED_GLU_PASSES`], three kernels), or
    /// none where a compiler fuses them into it.
    pub clamp_passes: f64,
    /// Element-wise kernels launched per layer in forward (norms, rotary,
    /// residual adds, activation, casts and copies); backward launches
    /// twice as many.
    pub elementwise_kernels: f64,
    /// Host time to dispatch one kernel, microseconds: eager Python and
    /// PyTorch's dispatcher, or the wrapper of a compiled graph. When the
    /// GPU's kernels are shorter, the GPU waits for the host.
    pub host_dispatch_us: f64,
    /// Whether a selective recomputation without modules reruns every
    /// second matmul of each layer beside its element-wise kernels
    /// (torchtitan's per-op policy, [`crate::model::Model::alternate_matmul_params`])
    /// rather than the element-wise kernels alone, or the core attention
    /// where its scores are materialised (Megatron's).
    pub selective_reruns_matmuls: bool,
    /// How a pipeline's layers are split over its stages
    /// ([`crate::scenario::Config::pipeline_split`]; an interleaved
    /// schedule's chunks that divide the layers are even under every stack).
    pub pipeline_split: PipelineSplit,
    /// The attention kernel: fused (FlashAttention 1 or 2, cuDNN through
    /// Transformer Engine) or through the materialised score matrix.
    pub attention: AttentionKernel,
    /// Whether tensor parallelism can run with sequence parallelism.
    pub sequence_parallel: bool,
    /// Whether the backward of a column-parallel linear issues its input
    /// gradient's reduction asynchronously and computes the weight
    /// gradient beside it (Megatron's `LinearWithGradAccumulationAndAsyncCommunication`),
    /// or blocks on it ([`crate::phases::tensor`]).
    pub tp_async_backward: bool,
    /// Whether the stack schedules pipelines beyond GPipe and 1F1B: the
    /// interleaved 1F1B and the zero-bubble ZB-H1 (Megatron-LM, with
    /// ZB-H1 from Sea AI Lab's zero-bubble fork of it; torchtitan, through
    /// PyTorch's pipelining schedules).
    pub interleaving: bool,
    /// When `dp: fsdp` gathers and reduce-scatters across micro-batches.
    pub fsdp_sync: FsdpSync,
    /// Bytes per gradient element in data-parallel reductions.
    pub reduce_bytes: f64,
    /// Bytes per element of the unsharded gradient buffer DDP and ZeRO-1
    /// accumulate into: fp32 in every stack's default (Megatron-LM and
    /// DeepSpeed's bf16 optimizer accumulate in fp32 whatever they reduce
    /// in); Megatron-Core keeps it in the dtype it reduces in, so a run
    /// that reduces in bf16 holds a bf16 buffer.
    pub grad_buffer_bytes: f64,
    /// Share of the NVLink bus rate per GPU that data-parallel collectives
    /// across nodes reach while compute runs beside them (the default of
    /// `hardware.dp_overlap_gb_per_s`).
    pub dp_overlap_share: f64,
    /// Where the parallel dimensions sit on the ranks.
    pub placement: Placement,
    /// Data-parallel collectives per layer.
    pub dp_calls: DpCalls,
    /// When data-parallel traffic runs beside compute.
    pub dp_overlap: DpOverlap,
    /// Whether ZeRO-1's gradients are all-reduced (every rank gets the
    /// whole sum, then keeps its shard) instead of reduce-scattered.
    pub zero1_allreduce: bool,
    /// How MoE tokens reach their experts.
    pub ep_dispatch: EpDispatch,
    /// What each local expert's GEMMs and their fp8 quantisation cost
    /// beside their share of the grouped work.
    pub experts: ExpertKernels,
    /// Whether fp8 and fp4 GEMM inputs are saved for backward as their
    /// quantised copy (Transformer Engine's linears) rather than in bf16
    /// (torchao's `Float8Linear` saves the high-precision tensors).
    pub saves_quantised: bool,
    /// Whether a fully sharded model keeps its parameters, gradients and
    /// Adam's moments in bf16 with no fp32 master copy (NeMo Automodel
    /// casts the model to bf16 and runs `torch.optim.Adam` on it).
    /// Otherwise fp32 shards.
    pub bf16_state: bool,
    /// Bytes per logit the last stage holds while the loss runs: the
    /// output GEMM's bf16 logits and what the loss keeps for its backward.
    /// Megatron-Core's cross-entropy keeps an fp32 copy that the softmax
    /// overwrites and the backward returns as the gradient (2 + 4;
    /// `tensor_parallel/cross_entropy.py`, `fusions/fused_cross_entropy.py`);
    /// elsewhere fp32 logits and their fp32 gradient (8).
    pub logits_bytes: f64,
    /// Whether a token's experts are a consecutive block (NeMo Automodel's
    /// benchmark gate) rather than drawn at random, which a deduplicating
    /// dispatcher sends to fewer GPUs and domains ([`crate::experts`]).
    pub consecutive_routing: bool,
}

/// The paper's stack (Appendix B): a Megatron-inspired framework with
/// xFormers' fused kernels on eager PyTorch 2.3.1 (no compiled graphs:
/// every kernel dispatched from Python), FSDPv2 without resharding after
/// forward (ZeRO-2 semantics), tensor parallelism by AllReduce (blocking in
/// forward; the backward's beside the weight gradients, as Megatron's
/// layers run them, which the paper does not state), no sequence
/// parallelism or interleaving stated.
pub const PAPER: Stack = Stack {
    id: StackId::Paper,
    name: "Paper (PyTorch 2.3 eager, FSDPv2, xFormers)",
    // Source: Fernandez et al. Appendix B ('Megatron-inspired framework', 'optimizations provided by FlashAttention-2 and xFormers', PyTorch 2.3.1, FSDPv2 with prefetch, 'equivalent to DeepSpeed ZeRO Stage 2') and section 2.1 (TP partial sums 'via an AllReduce', 'blocking communication' for the activations the next layer needs)
    norm_passes: crate::calibration::FUSED_NORM_PASSES,
    rotary_passes: crate::calibration::FUSED_ROTARY_PASSES,
    activation_passes: crate::calibration::FUSED_ACTIVATION_PASSES,
    // Assumed: an eager stack clamps a clamped GLU apart as Megatron-Core does (so do llm-foundry and DeepSpeed, which take Megatron's)
    clamp_passes: crate::calibration::CLAMPED_GLU_PASSES,
    elementwise_kernels: crate::calibration::FUSED_ELEMENTWISE_KERNELS,
    host_dispatch_us: crate::calibration::EAGER_DISPATCH_US,
    selective_reruns_matmuls: false,
    // Assumed: the 'Megatron-inspired' framework splits a pipeline as Megatron-LM does
    pipeline_split: PipelineSplit::Megatron,
    attention: AttentionKernel::Flash2,
    sequence_parallel: false,
    // Assumed: the 'Megatron-inspired' tensor parallelism of Appendix B runs as Megatron-LM's ColumnParallelLinear runs its backward (tensor_parallel/layers.py: the input gradient's all_reduce with async_op=True, then the weight gradient, then handle.wait())
    tp_async_backward: true,
    interleaving: false,
    fsdp_sync: FsdpSync::PerMicroBatch,
    reduce_bytes: crate::calibration::FSDP_REDUCE_BYTES,
    grad_buffer_bytes: 4.0,
    dp_overlap_share: crate::calibration::OVERLAP_BANDWIDTH_SHARE,
    placement: Placement::ModelParallelInNode,
    dp_calls: DpCalls::PerLayer,
    dp_overlap: DpOverlap::Always,
    zero1_allreduce: false,
    ep_dispatch: EpDispatch::Nccl,
    experts: ExpertKernels::PLAIN,
    saves_quantised: false,
    bf16_state: false,
    logits_bytes: 8.0,
    consecutive_routing: false,
};

/// Megatron-LM: fused norms, rotary and bias-activation kernels, sequence
/// parallelism, interleaved 1F1B, distributed optimizer, fp32 gradient
/// reduction.
pub const MEGATRON: Stack = Stack {
    id: StackId::Megatron,
    name: "Megatron-LM",
    // Source: Megatron-LM fused kernels (fused layer norm, fused rotary, bias-GeLU/SwiGLU), Narayanan et al. SC'21, Korthikanti et al. MLSys'23; --accumulate-allreduce-grads-in-fp32
    norm_passes: crate::calibration::FUSED_NORM_PASSES,
    rotary_passes: crate::calibration::FUSED_ROTARY_PASSES,
    activation_passes: crate::calibration::FUSED_ACTIVATION_PASSES,
    clamp_passes: crate::calibration::CLAMPED_GLU_PASSES,
    elementwise_kernels: crate::calibration::FUSED_ELEMENTWISE_KERNELS,
    host_dispatch_us: crate::calibration::EAGER_DISPATCH_US,
    selective_reruns_matmuls: false,
    // Source: Megatron-LM's transformer block: num_layers // pipeline_model_parallel_size layers a stage unless --decoder-first/last-pipeline-num-layers or a pipeline layout say otherwise
    pipeline_split: PipelineSplit::Megatron,
    attention: AttentionKernel::TransformerEngine,
    sequence_parallel: true,
    // Source: Megatron-LM tensor_parallel/layers.py, LinearWithGradAccumulationAndAsyncCommunication: the input gradient's all_reduce (reduce_scatter under sequence parallelism) issued with async_op=True before the weight-gradient GEMM, waited for after it
    tp_async_backward: true,
    interleaving: true,
    fsdp_sync: FsdpSync::PerMicroBatch,
    reduce_bytes: 4.0,
    grad_buffer_bytes: 4.0,
    dp_overlap_share: crate::calibration::TUNED_OVERLAP_SHARE,
    placement: Placement::PipelineOutermost,
    dp_calls: DpCalls::PerLayer,
    dp_overlap: DpOverlap::Always,
    zero1_allreduce: false,
    // Source: Megatron-Bridge's MoE performance recipes set `moe_token_dispatcher_type = "flex"` with DeepEP (Hopper) or HybridEP (NVL72); the Megatron-MoE model zoo's best-practice rows name DeepEP
    ep_dispatch: EpDispatch::Deduplicated,
    // Source: Megatron-Bridge's MoE recipes set `moe_grouped_gemm = True`, which Megatron-Core runs as `TEGroupedMLP` (Transformer Engine's GroupedLinear)
    experts: ExpertKernels::GROUPED_LINEAR,
    saves_quantised: true,
    bf16_state: false,
    // Source: Megatron-Core's cross-entropy (native or fused): the bf16 logits and one fp32 copy, overwritten in place
    logits_bytes: 6.0,
    consecutive_routing: false,
};

/// Megatron-LM of Narayanan et al. (2021) and Korthikanti et al. (2022), and
/// Megatron-DeepSpeed (BLOOM): Megatron's fused kernels with attention
/// through the score matrix (fused scale-mask-softmax, dropout), sequence
/// parallelism and interleaving (Korthikanti), fp32 gradient reduction.
pub const MEGATRON_2021: Stack = Stack {
    id: StackId::Megatron2021,
    name: "Megatron-LM 2021-22 (no FlashAttention)",
    // Source: Narayanan et al. SC'21 and Korthikanti et al. MLSys'23: fused softmax and bias-GeLU kernels, attention scores materialised (selective recomputation recomputes them)
    attention: AttentionKernel::Materialised,
    // Source: Megatron-LM's asynchronous input-gradient AllReduce came after the SC'21 runs (apex's ColumnParallelLinearWithAsyncAllreduce, late 2021), and Megatron-DeepSpeed (BLOOM, MT-NLG) disables async_tensor_model_parallel_allreduce by default (deepspeedai/Megatron-DeepSpeed issue 447): this stack's runs block
    tp_async_backward: false,
    ep_dispatch: EpDispatch::Nccl,
    experts: ExpertKernels::PLAIN,
    ..MEGATRON
};

/// MosaicML llm-foundry as its MPT tables ran it: Composer with PyTorch
/// FSDP (v1), FlashAttention 1, one LayerNorm kernel, eager; FSDP syncs
/// every micro-batch.
pub const LLM_FOUNDRY: Stack = Stack {
    id: StackId::LlmFoundry,
    name: "MosaicML llm-foundry (its 2023 tables: FlashAttention 1)",
    // Source: llm-foundry MPT: low-precision LayerNorm (one kernel), ALiBi inside the attention kernel (no rotary), eager GeLU; Composer FSDP mixed_precision DEFAULT (fp32 reduce), as most rows of its benchmark table
    rotary_passes: 0.0,
    // Source: the MPT tables were run at llm-foundry v0.0.4 (scripts/train/benchmarking/sweep.sh, GIT_COMMIT) with its `gpu` extra, which installed flash-attn 1.0.x until 2024 (setup.py: 'gpu': flash-attn==1.0.9, 'gpu-flash2' opt-in); its Triton kernel (attn_impl: triton) is of the same generation
    attention: AttentionKernel::Flash1,
    sequence_parallel: false,
    tp_async_backward: false,
    interleaving: false,
    ep_dispatch: EpDispatch::Nccl,
    experts: ExpertKernels::PLAIN,
    ..MEGATRON
};

/// torchtitan: FSDP2 with fp32 reduction, `torch.compile` per block (fused
/// element-wise kernels, a compiled wrapper launching them), DTensor tensor
/// parallelism with sequence-parallel norms, interleaved pipeline schedules.
pub const TORCHTITAN: Stack = Stack {
    id: StackId::Torchtitan,
    name: "torchtitan (FSDP2, compiled)",
    // Source: torchtitan: torch.compile per TransformerBlock, FSDP2 mixed_precision_reduce float32, SequenceParallel norms under TP, Interleaved1F1B
    host_dispatch_us: crate::calibration::COMPILED_DISPATCH_US,
    // Source: torchtitan activation_checkpoint.py @ e7c0cae (June 2025), selective_ac_option "op" as its train configs set it (llama3_8b.toml): "Saves output of all compute ops, except every second mm"; later torchtitan saves by operator name
    selective_reruns_matmuls: true,
    // Source: torchtitan's pipeline split (generate_llm_fqn_per_model_part): the embedding and the output weigh a layer each over the model's parts (input_weight, output_weight = 1; earlier pipeline_parallel_first_stage_less_layers, _last_stage_less_layers = 1)
    pipeline_split: PipelineSplit::Weighted,
    // Inductor fuses a clamped GLU's clamps into the activation's kernel
    clamp_passes: 0.0,
    attention: AttentionKernel::Flash2,
    // Source: torchtitan's DTensor tensor parallelism waits on each collective where autograd meets it; async TP is an opt-in (enable_async_tensor_parallel) the published rows leave off
    tp_async_backward: false,
    fsdp_sync: FsdpSync::OncePerStep,
    // Source: NeMo Automodel's MoE table runs "TE+DeepEP"; torchtitan's DeepSeek-V3 on B200 runs DeepEP (PyTorch blog, "DeepEP alone yields 859 token/sec (+32%)")
    ep_dispatch: EpDispatch::Deduplicated,
    // Source: torchao float8 (Float8Linear's autograd saves input_hp and weight_hp_t)
    saves_quantised: false,
    bf16_state: false,
    logits_bytes: 8.0,
    consecutive_routing: false,
    experts: ExpertKernels::PLAIN,
    ..MEGATRON
};

/// DeepSpeed ZeRO (0.6 and later) under Megatron-DeepSpeed or Hugging
/// Face: Megatron's fused kernels and FlashAttention, no sequence
/// parallelism or interleaving (DeepSpeed's pipeline engine runs plain
/// 1F1B), ZeRO-3 gathering each module's parameters and prefetching the
/// next, ZeRO-1/2 all-reducing gradient buckets on the compute stream.
pub const DEEPSPEED: Stack = Stack {
    id: StackId::DeepSpeed,
    name: "DeepSpeed ZeRO",
    attention: AttentionKernel::Flash2,
    // Source: deepspeedai/DeepSpeed runtime/zero: partitioned_param_coordinator.py (fetch_sub_module gathers a module's own parameters, recurse=False), stage3.py (reduce_scatter_coalesced per bucket), stage_1_and_2.py (use_multi_rank_bucket_allreduce: all_reduce per bucket, since 0.12.4), config.py (overlap_comm defaults to stage == 3); bf16 communication (communication_data_type = model dtype)
    sequence_parallel: false,
    tp_async_backward: false,
    interleaving: false,
    fsdp_sync: FsdpSync::PerMicroBatch,
    reduce_bytes: 2.0,
    grad_buffer_bytes: 4.0,
    placement: Placement::PipelineOutermost,
    dp_calls: DpCalls::PerModule,
    dp_overlap: DpOverlap::ShardedOnly,
    zero1_allreduce: true,
    ep_dispatch: EpDispatch::Nccl,
    experts: ExpertKernels::PLAIN,
    ..MEGATRON
};

/// DeepSpeed ZeRO of 2021 (0.3 to 0.5), as Megatron-LM's SC'21 paper
/// compared it: attention through the score matrix, one collective per
/// parameter over a list of one tensor per rank
/// ([`DpCalls::PerParameterList`]) after a `torch.cuda.synchronize()`, so
/// no data-parallel traffic overlaps compute; ZeRO-1/2 reduce per owner
/// rank.
pub const DEEPSPEED_2021: Stack = Stack {
    id: StackId::DeepSpeed2021,
    name: "DeepSpeed ZeRO 2021 (per-parameter, no overlap)",
    // Source: DeepSpeed 0.3-0.5 stage3.py (fetch_sub_module: _all_gather(partitioned_params, async_op=True), then _synchronize_communication) and partition_parameters.py (_all_gather with async_op: one _allgather_param per parameter, torch.distributed.all_gather into a list of world_size narrowed views; _reduce_scatter_gradients: one _reduce_scatter_gradient per parameter, torch.distributed.reduce_scatter of a list of world_size views); PyTorch ProcessGroupNCCL allgather and reduce_scatter copy each list entry out of or into a flat buffer (the gather's copies removed by _all_gather_base, pytorch PR 56315 of April 2021, apex PR 1360; the scatter's later by _reduce_scatter_base); DeepSpeed issue 1069 (~0.5 ms per parameter gather); PR 1453 (coalesced gathers and prefetch, 0.6)
    attention: AttentionKernel::Materialised,
    dp_overlap: DpOverlap::Never,
    zero1_allreduce: false,
    dp_calls: DpCalls::PerParameterList,
    ..DEEPSPEED
};

impl Stack {
    /// Data-parallel collectives a layer of `model` takes per gather or
    /// scatter ([`DpCalls`]).
    #[must_use]
    pub fn dp_calls_per_layer(&self, model: &crate::model::Model) -> f64 {
        match self.dp_calls {
            DpCalls::PerLayer => 1.0,
            DpCalls::PerModule | DpCalls::PerParameterList => {
                if model.mlp.gated() {
                    7.0
                } else {
                    4.0
                }
            }
        }
    }

    /// Whether `dp` runs through per-rank lists: ZeRO-3 (`fsdp_full`)
    /// under [`DpCalls::PerParameterList`].
    fn lists(&self, dp: crate::scenario::DataParallel) -> bool {
        self.dp_calls == DpCalls::PerParameterList && dp == crate::scenario::DataParallel::FsdpFull
    }

    /// Sharded data-parallel collectives of kind `op` a layer of `model`
    /// takes under `dp`: one per gather, except that through per-rank
    /// lists every parameter with a gradient reduce-scatters on its own
    /// (GPT's four weights, four biases and two norms' scale and shift;
    /// Llama's seven weights and two norm scales, a clamped GLU's counted
    /// as Llama's, its biases left out).
    #[must_use]
    pub fn dp_collectives_per_layer(
        &self,
        model: &crate::model::Model,
        op: crate::collective::Collective,
        dp: crate::scenario::DataParallel,
    ) -> f64 {
        if op != crate::collective::Collective::ReduceScatter || !self.lists(dp) {
            return self.dp_calls_per_layer(model);
        }
        if model.mlp.gated() {
            9.0
        } else {
            12.0
        }
    }

    /// Host time one sharded data-parallel collective over `ranks` ranks
    /// spends on its per-rank list under `dp`: one eager dispatch per rank
    /// (an assumption: DeepSpeed's Python view of each rank's shard and
    /// PyTorch's copy of each into or out of its flat buffer, taken at
    /// [`Stack::host_dispatch_us`]; the gather's copies are issued while
    /// its traffic runs and are counted after it, an upper bound);
    /// nothing for a flat buffer.
    #[must_use]
    pub fn dp_list_host(
        &self,
        ranks: u32,
        dp: crate::scenario::DataParallel,
    ) -> crate::units::Seconds {
        if self.lists(dp) {
            crate::units::Seconds::us(self.host_dispatch_us) * f64::from(ranks)
        } else {
            crate::units::Seconds(0.0)
        }
    }

    /// The profile of `id`.
    #[must_use]
    pub const fn of(id: StackId) -> Self {
        match id {
            StackId::Paper => PAPER,
            StackId::Megatron => MEGATRON,
            StackId::Megatron2021 => MEGATRON_2021,
            StackId::LlmFoundry => LLM_FOUNDRY,
            StackId::Torchtitan => TORCHTITAN,
            StackId::DeepSpeed => DEEPSPEED,
            StackId::DeepSpeed2021 => DEEPSPEED_2021,
        }
    }
}

#[cfg(test)]
#[path = "stack_tests.rs"]
mod tests;
