//! The published runs as data: every run ([`ROWS`], its source in
//! [`super::SOURCES`]), one line each where a helper builds it. Each helper states
//! what its rows share; each `Assumed:` comment, what the row's authors did
//! not publish and the model takes.
//!
//! Long file: one table of every published run, which a Rust array keeps in one place.

use super::{Graphs, Metric, Row, Tuned};
use crate::hardware::{Gpu, A100_40GB, A100_80GB, B200, GB200, GB300, H100, H200};
use crate::model::{
    llama, Mlp, Model, DEEPSEEK_V3, GPT_OSS_120B, LLAMA4_MAVERICK, MIXTRAL_8X7B, QWEN3_235B_A22B,
    QWEN3_30B_A3B,
};
use crate::scenario::Module::{Layernorm, MlaUpProj, MoeAct};
use crate::scenario::{DataParallel, Precision, Recompute, Schedule};
use crate::stack::{AttentionKernel, EpDispatch, ExpertKernels, StackId};
use Graphs::{AttnRouterPreprocess, Eager, RouterPreprocess};

const fn gpt(heads: u32, hidden: u32, layers: u32, vocab: u32) -> Model {
    Model {
        layers,
        hidden,
        heads,
        kv_heads: heads,
        ffn: 4 * hidden,
        vocab,
        mlp: Mlp::Gelu,
        head_dim: None,
        latent: None,
        moe: None,
        window: None,
    }
}

const GPT_VOCAB: u32 = 51_200;
const MPT_VOCAB: u32 = 50_368;
const LLAMA3_8B: Model = llama(32, 4096, 32, 8, 14_336, 128_256);
const LLAMA3_70B: Model = llama(80, 8192, 64, 8, 28_672, 128_256);
const LLAMA3_405B: Model = llama(126, 16_384, 128, 8, 53_248, 128_256);
const GPT3_175B: Model = gpt(96, 12_288, 96, GPT_VOCAB);
const QWEN3_30B: Model = QWEN3_30B_A3B;
const QWEN3_235B: Model = QWEN3_235B_A22B;
const LLAMA3_405B_GPT2_VOCAB: Model = llama(126, 16_384, 128, 8, 53_248, 51_200);

const NONE: &[Recompute] = &[Recompute::None];
const FULL: &[Recompute] = &[Recompute::Full];
const SELECTIVE: &[Recompute] = &[Recompute::Selective];
const ANY: &[Recompute] = &[Recompute::None, Recompute::Selective, Recompute::Full];
const V1: &[u32] = &[1];
/// Llama 3 405B's chunks per stage, not published: every count up to 7,
/// as a scenario that names the interleaved schedule without the count
/// gets. The paper's first chunk holding the embedding alone and its last
/// the output alone would put one layer in each of 8 chunks, where the
/// model runs 11% and 8% fast; not taken (Meta's own schedule, and what
/// each further chunk costs it, are not modelled).
const LLAMA3_CHUNKS: &[u32] = &[1, 2, 3, 4, 5, 6, 7];
const MB: &[u32] = &[];

const fn tuned(
    micro_batches: &'static [u32],
    virtual_stages: &'static [u32],
    recompute: &'static [Recompute],
) -> Tuned {
    Tuned {
        micro_batches,
        virtual_stages,
        recompute,
    }
}

/// What most rows share: bf16 on A100 80GB DGX nodes, context 2048,
/// no sequence or context parallelism, the published micro-batch.
const BASE: Row = Row {
    name: "",
    source: 0,
    stack: StackId::Megatron2021,
    gpu: A100_80GB,
    gpus: 8,
    network_gbps: None,
    attention: None,
    selective_reruns_matmuls: None,
    pipeline_split: None,
    cudnn_2024: false,
    dispatch: None,
    grad_bytes: None,
    bf16_state: false,
    logits_bytes: None,
    consecutive_routing: false,
    experts: None,
    offload: 0,
    modules: crate::scenario::Modules::NONE,
    graphs: None,
    model: gpt(1, 1, 1, 1),
    seq_len: 2048,
    batch: 1,
    micro_batch: 1,
    degrees: (1, 1, 1),
    dp: DataParallel::Ddp,
    sp: false,
    precision: Precision::Bf16,
    tuned: tuned(MB, V1, NONE),
    metric: Metric::Mfu,
    published: 0.0,
    ep: 1,
    etp: 1,
    ep_overlap: false,
    schedule: Schedule::OneFOneB,
    fits_as_published: false,
};

/// Narayanan et al. Table 1: GPT on A100 80GB, context 2048, full
/// recomputation, DDP; each row's micro-batch and chunks per stage as
/// Megatron-LM's script for the table sets them
/// (`examples/sc21/run_table_1.sh` @ 79a3bb6b: `MBS`, and the stage's
/// layers over `--num-layers-per-virtual-pipeline-stage`).
const fn megatron(
    name: &'static str,
    (heads, hidden, layers): (u32, u32, u32),
    (tp, pp, gpus, batch): (u32, u32, u32, u32),
    (micro_batch, virtual_stages): (u32, &'static [u32]),
    tflops: f64,
) -> Row {
    Row {
        name,
        gpus,
        model: gpt(heads, hidden, layers, GPT_VOCAB),
        batch,
        micro_batch,
        degrees: (tp, pp, 1),
        tuned: tuned(MB, virtual_stages, FULL),
        metric: Metric::MegatronTflops,
        published: tflops,
        ..BASE
    }
}

/// MosaicML llm-foundry MPT rows: GeLU MLP of four times the width, one
/// key/value head per head, vocabulary 50368, FSDP full sharding,
/// micro-batch and activation checkpointing as published.
#[allow(clippy::too_many_arguments)]
const fn mpt(
    name: &'static str,
    gpu: Gpu,
    gpus: u32,
    (layers, hidden, heads): (u32, u32, u32),
    (seq_len, batch, micro_batch): (u32, u32, u32),
    checkpointing: bool,
    mfu: f64,
) -> Row {
    Row {
        name,
        source: 4,
        stack: StackId::LlmFoundry,
        gpu,
        gpus,
        model: gpt(heads, hidden, layers, MPT_VOCAB),
        seq_len,
        batch,
        micro_batch,
        dp: DataParallel::FsdpFull,
        tuned: tuned(MB, V1, if checkpointing { FULL } else { NONE }),
        published: mfu,
        // Assumed: MPT ties its embeddings; the model counts them apart (parameters a few percent high, FLOPs unchanged)
        ..BASE
    }
}

/// Korthikanti et al.: GPT with tensor and sequence parallelism and
/// selective recomputation on A100 80GB, context 2048, no data parallelism
/// except the 2240-GPU row.
const fn selective(
    name: &'static str,
    (heads, hidden, layers): (u32, u32, u32),
    (tp, pp, gpus, batch, micro_batch): (u32, u32, u32, u32, u32),
    virtual_stages: &'static [u32],
    mfu: f64,
) -> Row {
    Row {
        name,
        source: 1,
        gpus,
        model: gpt(heads, hidden, layers, GPT_VOCAB),
        batch,
        micro_batch,
        degrees: (tp, pp, 1),
        sp: true,
        tuned: tuned(MB, virtual_stages, SELECTIVE),
        published: mfu,
        // Assumed: the 1T run's interleaving is not published: best of 1 and 2
        ..BASE
    }
}

/// NVIDIA's FP8 performance tables (NeMo, Megatron-Bridge): Megatron-Core
/// with the distributed optimizer, sequence parallelism under TP, tokens
/// per second per GPU; recomputation is not published and tuned.
/// Gradients are reduced and accumulated in bf16, as NVIDIA's performance
/// recipes set them where the stack's default is fp32 (Megatron-Bridge's
/// `scripts/performance/configs`, e.g. `llama/llama3_llm_pretrain.py` @
/// 2a0d46e2, `deepseek/deepseek_llm_pretrain.py` @ 01328424,
/// `qwen/qwen3_llm_pretrain.py` @ 05c0c90f: `grad_reduce_in_fp32 =
/// False`; NeMo's `scripts/llm/performance/llama3_8b.py` @ 0180488:
/// "bf16 grad dtype"; NeMo-Framework-Launcher's H100 examples:
/// `grad_sync_dtype=bf16`; MLPerf v5.0's Llama 3.1 405B `pretrain.py`:
/// `grad_reduce_in_fp32=False`).
/// What a Megatron-Bridge performance run's loss holds of the logits:
/// its scripts set Transformer Engine's fused cross-entropy for every
/// model (`scripts/performance/utils/overrides.py`:
/// `cross_entropy_fusion_impl = "te"`), which keeps the bf16 logits and
/// writes their gradient into them (`triton/cross_entropy.py`), 2 bytes a
/// logit; assumed for the 25.11 table too. The other NVIDIA sources run
/// Megatron-Core's own (the stack's).
const fn bridge_loss(source: usize) -> Option<f64> {
    match source {
        7 | 13 | 15 | 16 | 19 | 22 | 23 | 26 => Some(2.0),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
const fn nvidia(
    name: &'static str,
    source: usize,
    model: Model,
    gpus: u32,
    (seq_len, batch, micro_batch): (u32, u32, u32),
    (tp, pp, cp): (u32, u32, u32),
    virtual_stages: &'static [u32],
    dp: DataParallel,
    tokens: f64,
) -> Row {
    Row {
        name,
        source,
        stack: StackId::Megatron,
        gpu: H100,
        gpus,
        model,
        seq_len,
        batch,
        micro_batch,
        degrees: (tp, pp, cp),
        dp,
        sp: tp > 1,
        precision: Precision::Fp8,
        tuned: tuned(MB, virtual_stages, ANY),
        metric: Metric::TokensPerGpu,
        published: tokens,
        // Assumed: distributed optimizer (ZeRO-1) unless the table says FSDP; sequence parallelism under TP; recomputation not published: best of none, selective, full
        grad_bytes: Some(2.0),
        logits_bytes: bridge_loss(source),
        ..BASE
    }
}

/// NeMo Automodel's MoE rows on DGX-H100 in BF16: PyTorch FSDP2 over the
/// data-parallel ranks with expert and pipeline parallelism, tokens per
/// second per GPU.
#[allow(clippy::too_many_arguments)]
const fn automodel(
    name: &'static str,
    model: Model,
    gpus: u32,
    (batch, micro_batch): (u32, u32),
    (tp, pp): (u32, u32),
    virtual_stages: &'static [u32],
    tokens: f64,
) -> Row {
    Row {
        name,
        source: 17,
        stack: StackId::Torchtitan,
        gpu: H100,
        gpus,
        model,
        seq_len: 4096,
        batch,
        micro_batch,
        degrees: (tp, pp, 1),
        dp: DataParallel::FsdpFull,
        precision: Precision::Bf16,
        tuned: tuned(MB, virtual_stages, ANY),
        metric: Metric::TokensPerGpu,
        published: tokens,
        // Parameters, gradients and Adam's moments in bf16 and bf16 logits (`initialize_weights` casts the model to bf16; `MaskedCrossEntropy` with `fp32_upcast: false`): the benchmark configs and nemo-automodel 0.2.0, later than the table
        bf16_state: true,
        // Its loss over bf16 logits, log-softmax kept in bf16 for backward
        logits_bytes: Some(4.0),
        // Every benchmark config sets `fake_balanced_gate: true`: token `t` goes to experts `k t` to `k t + k - 1` (mod the experts)
        consecutive_routing: true,
        // Assumed: the torchtitan stack's mechanisms (FSDP2 with fp32 reduction, compiled blocks) for Automodel's FSDP2; recomputation as each row's benchmark config sets `activation_checkpointing`
        ..BASE
    }
}

/// Tokens per second per GPU of a Megatron-MoE model zoo row of Qwen3
/// 235B-A22B on 256 GPUs (2048 sequences of 4096 tokens a step) from its
/// step time.
const fn zoo_step(seconds: f64) -> f64 {
    step_tokens(4096, 2048, 256, seconds)
}

/// Tokens per second per GPU of a Qwen3 30B-A3B row (sequences of 4096)
/// that publishes Megatron's TFLOP/s per GPU: at the ratio of
/// Megatron-Bridge 26.04's B200 row, which lists 26,859 tokens/s/GPU at
/// 619 TFLOP/s (as Megatron-Bridge issue 4439 quotes it; 23.05 GFLOP a
/// token, its causal-attention count of the model).
const fn qwen3_30b_tflops(tflops: f64) -> f64 {
    tflops * 26_859.0 / 619.0
}

/// The same for a row that publishes TFLOP/s per GPU: at the ratio of its
/// H100 row that publishes both (245 TFLOP/s at a 19.7 s step).
const fn zoo_tflops(tflops: f64) -> f64 {
    tflops * zoo_step(19.7) / 245.0
}

/// Recomputation as published.
const fn as_selective(row: Row) -> Row {
    Row {
        tuned: tuned(MB, row.tuned.virtual_stages, SELECTIVE),
        ..row
    }
}

/// No recomputation, as published.
const fn no_recompute(row: Row) -> Row {
    Row {
        tuned: tuned(MB, row.tuned.virtual_stages, NONE),
        ..row
    }
}

/// Full recomputation, as published.
const fn full(row: Row) -> Row {
    Row {
        tuned: tuned(MB, row.tuned.virtual_stages, FULL),
        ..row
    }
}

/// A row of [`nvidia`]'s tables on another GPU.
const fn on(gpu: Gpu, row: Row) -> Row {
    Row { gpu, ..row }
}

/// A row whose recipe recomputes `modules` selectively, as Megatron-Core's
/// `recompute_modules` names them.
const fn recomputed(modules: &[crate::scenario::Module], row: Row) -> Row {
    Row {
        modules: crate::scenario::Modules::of(modules),
        tuned: Tuned {
            recompute: SELECTIVE,
            ..row.tuned
        },
        ..row
    }
}

/// A row whose recipe offloads the activations of `layers` layers to host
/// memory, which Megatron-Core allows only without recomputation.
const fn offloaded(layers: u32, row: Row) -> Row {
    Row {
        offload: layers,
        tuned: Tuned {
            recompute: NONE,
            ..row.tuned
        },
        ..row
    }
}

/// A row whose recipe captures `graphs` of each layer in CUDA graphs.
const fn graphed(graphs: Graphs, row: Row) -> Row {
    Row {
        graphs: Some(graphs),
        ..row
    }
}

/// A row of an MoE model with expert parallelism `ep`.
const fn ep(ep: u32, row: Row) -> Row {
    Row { ep, ..row }
}

/// A row of an MoE model with expert tensor parallelism `etp`.
const fn etp(etp: u32, row: Row) -> Row {
    Row { etp, ..row }
}

/// `m` with each expert padded to its even share of tokens and the rest
/// dropped (capacity factor 1), as NeMo's `MegatronTokenDropCallback`
/// sets it by default in performance mode.
const fn token_drop(mut m: Model) -> Model {
    if let Some(mut e) = m.moe {
        e.capacity = Some(1.0);
        m.moe = Some(e);
    }
    m
}

const MAVERICK_DROP: Model = token_drop(LLAMA4_MAVERICK);
const MIXTRAL_DROP: Model = token_drop(MIXTRAL_8X7B);

/// Tokens per second per GPU of a DGX Cloud Llama 4 recipe's published
/// step time: sequences of 8192.
const fn llama4_tokens(batch: u32, gpus: u32, seconds: f64) -> f64 {
    step_tokens(8192, batch, gpus, seconds)
}

/// Tokens per second per GPU of a published step time: `batch`
/// sequences of `seq` tokens over `gpus` GPUs in `seconds`.
const fn step_tokens(seq: u32, batch: u32, gpus: u32, seconds: f64) -> f64 {
    seq as f64 * batch as f64 / seconds / gpus as f64
}

/// A row whose All-to-All hides behind another micro-batch's compute.
const fn ep_overlap(row: Row) -> Row {
    Row {
        ep_overlap: true,
        ..row
    }
}

/// A row whose attention runs through Transformer Engine's
/// `DotProductAttention` (cuDNN's fused attention on Hopper and later) where its
/// stack's runs FlashAttention-2.
const fn te_attention(row: Row) -> Row {
    Row {
        attention: Some(AttentionKernel::TransformerEngine),
        ..row
    }
}

/// A row of a 2024 container, whose cuDNN ran Transformer Engine's
/// attention on H100 at that year's rate.
const fn cudnn_2024(row: Row) -> Row {
    Row {
        cudnn_2024: true,
        ..row
    }
}

/// A row whose recipe sets Megatron-Core's `alltoall` token dispatcher
/// (one NCCL All-to-All of every routed copy) where the stack's is
/// DeepEP's or HybridEP's.
const fn alltoall(row: Row) -> Row {
    Row {
        dispatch: Some(EpDispatch::Nccl),
        ..row
    }
}

/// A row whose gradients are all-reduced with the optimizer unsharded
/// (plain data parallelism).
const fn ddp(row: Row) -> Row {
    Row {
        dp: DataParallel::Ddp,
        ..row
    }
}

/// A row in Transformer Engine's blockwise fp8 recipe, whose experts'
/// operands are quantised by one kernel each, not three.
const fn blockwise(row: Row) -> Row {
    Row {
        experts: Some(ExpertKernels::GROUPED_LINEAR_BLOCKWISE),
        ..row
    }
}

/// A row whose experts add both their biases one expert at a time
/// (NeMo Automodel's `GroupedExpertsDeepEP`), beside one grouped GEMM.
const fn both_biases(row: Row) -> Row {
    Row {
        experts: Some(ExpertKernels {
            bias: crate::experts::ExpertBias::BOTH,
            ..ExpertKernels::PLAIN
        }),
        ..row
    }
}

/// A row of [`nvidia`]'s constructor whose gradients are reduced and
/// accumulated in fp32, its stack's default, not bf16.
const fn fp32_grads(row: Row) -> Row {
    Row {
        grad_bytes: None,
        ..row
    }
}

/// A row in bf16.
const fn bf16(row: Row) -> Row {
    Row {
        precision: Precision::Bf16,
        ..row
    }
}

/// A row in fp8.
const fn fp8(row: Row) -> Row {
    Row {
        precision: Precision::Fp8,
        ..row
    }
}

/// A row in NVFP4.
const fn fp4(row: Row) -> Row {
    Row {
        precision: Precision::Fp4,
        ..row
    }
}

/// torchtitan's FSDP2 rows on 64 A100 80GB (eager: the table predates
/// `torch.compile` by default), MFU as its `train.py` counts it.
const fn titan(
    name: &'static str,
    model: Model,
    (seq_len, local): (u32, u32),
    recompute: &'static [Recompute],
    mfu: f64,
) -> Row {
    Row {
        name,
        source: 5,
        stack: StackId::Torchtitan,
        gpus: 64,
        model,
        seq_len,
        batch: 64 * local,
        micro_batch: local,
        dp: DataParallel::FsdpFull,
        tuned: tuned(MB, V1, recompute),
        published: mfu,
        // Assumed: context 8192 for Llama 3 and 4096 for Llama 2 (the train configs' defaults); compiled blocks
        ..BASE
    }
}

/// Yeung et al.'s baseline (their artifact's full experiment): a 4B GPT in
/// 8 pipeline stages on one server of 8 A100, the layers split evenly and
/// the output layer on the last stage; MFU as Megatron-LM counts it (the
/// PaLM convention with the output layer, no recomputation).
const fn vocab_pp(name: &'static str, seq_len: u32, vocab: u32, mfu: f64) -> Row {
    Row {
        name,
        source: 35,
        stack: StackId::Megatron,
        model: gpt(24, 3072, 32, vocab),
        seq_len,
        batch: 128,
        degrees: (1, 8, 1),
        published: mfu,
        // Assumed: bf16, no recomputation (the artifact's peak memory, 16 to 36 GB, is under the 80 GB of the paper's A100 SXM 80G), 1F1B, the vocabulary as named (32k as 32,000); a single server's run, whose expected results the artifact gives as what a rerun should roughly match
        ..BASE
    }
}

/// The same run with its layers redistributed away from the output
/// layer's stage (the artifact's `redis` method): the model takes the
/// split that balances the head, the layers redistributed not being
/// published.
const fn redistributed(row: Row) -> Row {
    Row {
        pipeline_split: Some(crate::stack::PipelineSplit::Balanced),
        ..row
    }
}

/// Trainy's torchtitan runs of Llama 3.1 8B on H200 hosts.
const fn titan_h200(name: &'static str, gpus: u32, tokens: f64) -> Row {
    Row {
        name,
        source: 36,
        stack: StackId::Torchtitan,
        gpu: H200,
        gpus,
        model: LLAMA3_8B,
        seq_len: 8192,
        batch: 2 * gpus,
        micro_batch: 2,
        dp: DataParallel::FsdpFull,
        precision: Precision::Fp8,
        tuned: tuned(MB, V1, SELECTIVE),
        metric: Metric::TokensPerGpu,
        published: tokens,
        // Assumed: torchao's tensorwise Float8Linear on every linear but the output (the toml's filter_fqns), the FSDP gathers in bf16 (the fp8 all-gather not modelled), the weights' fp8 casts rerun in backward not costed
        ..BASE
    }
}

/// NVIDIA's BF16 DGX Cloud benchmarking recipes (NeMo 24.09 and 24.11 on
/// DGX H100): Megatron-Core with the distributed optimizer and sequence
/// parallelism under TP, the published TP, PP, CP, interleaving and
/// micro-batch; tokens per second per GPU is the cluster's published
/// throughput over its GPUs.
#[allow(clippy::too_many_arguments)]
const fn dgxc(
    name: &'static str,
    model: Model,
    gpus: u32,
    (seq_len, batch, micro_batch): (u32, u32, u32),
    (tp, pp, cp): (u32, u32, u32),
    virtual_stages: &'static [u32],
    tokens: f64,
) -> Row {
    Row {
        source: 8,
        precision: Precision::Bf16,
        ..nvidia(
            name,
            8,
            model,
            gpus,
            (seq_len, batch, micro_batch),
            (tp, pp, cp),
            virtual_stages,
            DataParallel::Zero1,
            tokens,
        ) // Assumed: distributed optimizer; squared-ReLU MLPs (Nemotron) as a two-matrix MLP of their width; recomputation and gradient dtype per row, as the recipes set them (the source's citation)
    }
}

/// Nemotron-4: squared-ReLU MLP (two matrices, as GeLU's), grouped-query
/// attention with 8 key/value heads, vocabulary 256,000.
const fn nemotron(layers: u32, hidden: u32, heads: u32, ffn: u32) -> Model {
    Model {
        layers,
        hidden,
        heads,
        kv_heads: 8,
        ffn,
        vocab: 256_000,
        mlp: Mlp::Gelu,
        head_dim: None,
        latent: None,
        moe: None,
        window: None,
    }
}

/// IBM's fms-fsdp Llama-2 rows on 128 A100 (PyTorch FSDP, eager, SDPA
/// FlashAttention-2), tokens per second per GPU.
const fn fms(
    name: &'static str,
    model: Model,
    (batch, micro_batch): (u32, u32),
    dp: DataParallel,
    recompute: &'static [Recompute],
    tokens: f64,
) -> Row {
    Row {
        name,
        source: 9,
        stack: StackId::LlmFoundry,
        gpus: 128,
        // The run scripts load AWS's EFA libraries: p4d nodes, 4 x 100 Gb/s per node of 8 A100.
        network_gbps: Some(50.0),
        // Source: fms-fsdp runs PyTorch's SDPA, whose flash backend is FlashAttention-2 (not the FlashAttention 1 of llm-foundry's MPT tables)
        attention: Some(AttentionKernel::Flash2),
        dispatch: None,
        grad_bytes: None,
        bf16_state: false,
        logits_bytes: None,
        consecutive_routing: false,
        experts: None,
        offload: 0,
        modules: crate::scenario::Modules::NONE,
        graphs: None,
        model,
        seq_len: 4096,
        batch,
        micro_batch,
        dp,
        tuned: tuned(MB, V1, recompute),
        metric: Metric::TokensPerGpu,
        published: tokens,
        // Assumed: A100 80GB; the eager FSDP stack taken as llm-foundry's profile; the README's batches (the scripts differ for 34B and 70B)
        ..BASE
    }
}

/// The export variants of A100 80GB and H100 SXM: the same compute and
/// HBM, NVLink cut to 400 GB/s per GPU.
const A800: Gpu = Gpu {
    id: "a800-sxm4-80gb",
    name: "A800 SXM4 80GB",
    nvlink: crate::units::Bandwidth::gb_s(400.0),
    ..A100_80GB
};
const H800: Gpu = Gpu {
    id: "h800-sxm5-80gb",
    name: "H800 SXM5 80GB",
    nvlink: crate::units::Bandwidth::gb_s(400.0),
    ..H100
};

/// FlagPerf's Llama-2 7B under DeepSpeed ZeRO-3 (0.11.1, stage 3 over
/// the 8 GPUs of one node, FlashAttention-2, mixed precision), tokens per
/// second per GPU.
const fn flagperf(
    name: &'static str,
    gpu: Gpu,
    (seq_len, batch, micro_batch): (u32, u32, u32),
    tokens: f64,
) -> Row {
    Row {
        name,
        source: 20,
        stack: StackId::DeepSpeed,
        gpu,
        gpus: 8,
        model: llama(32, 4096, 32, 32, 11_008, 32_000),
        seq_len,
        batch,
        micro_batch,
        dp: DataParallel::FsdpFull,
        precision: Precision::Fp16,
        // Source: no recomputation: run_pretraining.py (@ 1193d60d) never enables the Hugging Face model's gradient checkpointing, which ds_config.json's activation_checkpointing block does not switch on
        tuned: tuned(MB, V1, NONE),
        metric: Metric::TokensPerGpu,
        published: tokens,
        // Assumed: fp16, as ds_config.json (@ 43625f67) enables, for the README's "amp"
        ..BASE
    }
}

/// The flash-attention repository's GPT-3 rows on one node of 8 A100
/// 80GB: its fused kernels on eager PyTorch, data parallel with the
/// optimizer sharded (ZeRO-1, `DDPStrategyZero1`) where its config sets it,
/// no recomputation, tokens per second per GPU.
const fn flash(
    name: &'static str,
    (heads, hidden, layers): (u32, u32, u32),
    (batch, micro_batches): (u32, &'static [u32]),
    tokens_per_node: f64,
) -> Row {
    Row {
        name,
        source: 10,
        stack: StackId::Megatron,
        model: gpt(heads, hidden, layers, 50_264),
        batch,
        micro_batch: 1,
        dp: DataParallel::Zero1,
        tuned: tuned(micro_batches, V1, NONE),
        metric: Metric::TokensPerGpu,
        published: tokens_per_node / 8.0,
        // Assumed: its fused kernels taken as Megatron's profile. Micro-batches as its configs set them on an 80 GB GPU (training/configs/experiment/pile/gpt3{s,m,l,xl}-flash.yaml and gpt3-2.7B-flash.yaml, `datamodule.batch_size` by `train.gpu_mem`, nvidia-smi's MiB over 1000: 82 on A100 80GB)
        ..BASE
    }
}

/// Llama 3 405B's pre-training on 8192 H100s (The Llama 3 Herd of
/// Models, Table 4): BF16 MFU at TP 8, PP 16, sequences of 8192, a batch
/// of 2048.
const LLAMA3_405B_8192: Row = Row {
    name: "Llama 3 405B, 8192 H100",
    source: 3,
    stack: StackId::Torchtitan,
    gpu: H100,
    gpus: 8192,
    model: LLAMA3_405B,
    seq_len: 8192,
    batch: 2048,
    degrees: (8, 16, 1),
    dp: DataParallel::Zero1,
    sp: true,
    tuned: tuned(&[1, 2], LLAMA3_CHUNKS, ANY),
    published: 0.43,
    // Assumed: Meta's stack taken as torchtitan's profile; parameters gathered once per step (ZeRO-1-like, as the paper describes); micro-batch, interleaving and recomputation tuned, a selective recomputation rerunning the element-wise kernels alone (Meta's is not published; torchtitan's per-op policy, which reruns every second matmul, is torchtitan's)
    selective_reruns_matmuls: Some(false),
    ..BASE
};

/// DeepSeek-V3's own pre-training (DeepSeek-V3 Technical Report, sections
/// 3.1 to 3.3; Zhao et al., ISCA 2025, Table 4): 2048 H800s at PP 16 with
/// DualPipe, EP 64 over 8 nodes, ZeRO-1 over the rest, no TP, sequences
/// of 4096 at the full batch of 15,360, fine-grained (blockwise) fp8,
/// RMSNorm and MLA's up-projections recomputed; tokens per second per GPU
/// from the multi-plane fat-tree run's 272.80 billion tokens a day (180K
/// GPU hours a trillion tokens, as the report states, is the same rate).
const DEEPSEEK_V3_H800: Row = Row {
    name: "DeepSeek-V3, 2048 H800",
    source: 28,
    stack: StackId::Megatron,
    gpu: H800,
    gpus: 2048,
    model: DEEPSEEK_V3,
    seq_len: 4096,
    batch: 15_360,
    degrees: (1, 16, 1),
    ep: 64,
    dp: DataParallel::Zero1,
    precision: Precision::Fp8,
    schedule: Schedule::DualPipeV,
    // Its memory savings beyond Megatron-Core's (the SwiGLU inputs and the attention output cached in fp8, Adam's moments in bf16) are not modelled: the model's memory puts the layout at 99 GiB of 80 (with DualPipeV's one copy of the parameters, where DualPipe holds two)
    fits_as_published: true,
    experts: Some(ExpertKernels::GROUPED_LINEAR_BLOCKWISE),
    modules: crate::scenario::Modules::of(&[MlaUpProj, Layernorm, MoeAct]),
    // Assumed: micro-batch 1, the sequence of 4,096 tokens DeepEP's benchmarks of the pre-training setting take a batch to be (its memory is not asked, so no other is tried)
    micro_batch: 1,
    tuned: tuned(MB, V1, SELECTIVE),
    metric: Metric::TokensPerGpu,
    published: 272.80e9 / 86_400.0 / 2048.0,
    // Assumed: DeepSeek's HAI-LLM taken as Megatron-Core's profile (deduplicating dispatch, as DeepEP's kernels send); DualPipe on 16 ranks taken as DualPipeV on 16 (about the same bubble, half DualPipe's parameter copies); fp32 gradients (the report keeps them for accumulation); DeepEP's 20 of 132 SMs taken as NCCL's channels, held while the All-to-All runs; the routing's balance across the GPUs not published (its auxiliary-loss-free balancing): taken as even, the model's default. Not modelled: the node-limited routing (at most 4 of 8 nodes a token: the model sends as random routing reaches, about 5), the multi-token-prediction module (one more layer and output head a step)
    ..BASE
};

/// NVIDIA's MLPerf Training GPT-3 175B results on DGX H100 (NeMo with
/// Megatron-Core and Transformer Engine, FP8 with delayed scaling, TP 4,
/// sequence parallelism, the distributed optimizer with bf16 gradient
/// sync, sequences of 2048): tokens per second per GPU from each
/// `result_0.txt`'s steady step (the logged `train_step_timing` where the
/// log has it, else the second block's time over its steps).
const fn mlperf_gpt3(
    name: &'static str,
    gpus: u32,
    (batch, micro_batch): (u32, u32),
    (pp, virtual_stages): (u32, &'static [u32]),
    seconds: f64,
) -> Row {
    Row {
        // Assumed: the GPT-2 vocabulary padded to 51200 for the C4 SentencePiece one; Transformer Engine's tensor-parallel overlap (userbuffers, TP_COMM_OVERLAP) and v4.0's per-layer CUDA graphs not modelled; recomputation not read (config_common.sh is not published): best of none, selective, full
        ..nvidia(
            name,
            29,
            GPT3_175B,
            gpus,
            (2048, batch, micro_batch),
            (4, pp, 1),
            virtual_stages,
            DataParallel::Zero1,
            step_tokens(2048, batch, gpus, seconds),
        )
    }
}

/// NeMo's long-sequence table (`docs/source/performance/performance_summary.md`,
/// "Long Input Sequences", container NeMo 24.03.01): Llama 2 7B on DGX
/// H100 in FP8, micro-batch 1, the context grown from 4K to 1M tokens
/// with the GPUs, tensor and context parallelism; tokens per second per
/// GPU as published.
const fn long_context(
    name: &'static str,
    gpus: u32,
    (seq_len, batch): (u32, u32),
    (tp, pp, cp): (u32, u32, u32),
    tokens: f64,
) -> Row {
    cudnn_2024(nvidia(
        name,
        31,
        llama(32, 4096, 32, 32, 11_008, 32_000),
        gpus,
        (seq_len, batch, 1),
        (tp, pp, cp),
        V1,
        DataParallel::Zero1,
        tokens,
    ))
}

/// MegaScale's Megatron-LM baseline (Jiang et al., NSDI 2024, Table 2):
/// GPT 175B (96 layers, hidden 12288, 128 heads, vocabulary 64,000) at
/// TP 8, PP 8 and six chunks per stage, context 2048, strong-scaled at a
/// batch of 768 (256 to 1024 GPUs) and 6144 (3072 to 12,288); tokens per
/// second per GPU from the published iteration time.
const fn megascale(name: &'static str, gpus: u32, batch: u32, seconds: f64) -> Row {
    Row {
        name,
        source: 27,
        gpus,
        model: gpt(128, 12_288, 96, 64_000),
        batch,
        degrees: (8, 8, 1),
        sp: true,
        dp: DataParallel::Zero1,
        tuned: tuned(&[1, 2], &[6], ANY),
        metric: Metric::TokensPerGpu,
        published: step_tokens(2048, batch, gpus, seconds),
        // Assumed: "NVIDIA Ampere GPUs" taken as A100 80GB on eight 200 Gb/s NICs a node (the paper's rails; its MFU implies 312 TFLOP/s, which A800 shares: as A800 the source lands at 4.3%); Megatron-LM at commit 285068c8 taken as the megatron-2021 stack (no FlashAttention: FlashAttention-2 is among what MegaScale adds), with the distributed optimizer and sequence parallelism; micro-batch and recomputation not published: tuned
        ..BASE
    }
}

/// Megatron-Turing NLG 530B (Megatron tensor slicing, DeepSpeed pipeline
/// and data parallelism) on DGX A100 80GB, TFLOP/s per GPU as published.
const fn mtnlg(name: &'static str, gpus: u32, tflops: f64) -> Row {
    Row {
        name,
        source: 11,
        gpus,
        model: gpt(128, 20_480, 105, GPT_VOCAB),
        batch: 1920,
        degrees: (8, 35, 1),
        dp: DataParallel::Zero1,
        tuned: tuned(MB, V1, FULL),
        metric: Metric::MegatronTflops,
        published: tflops,
        // Assumed: Megatron-DeepSpeed taken as the megatron-2021 stack; micro-batch 1, full recomputation, ZeRO-1, no interleaving; the numbers read from a secondary copy of section 2.4
        ..BASE
    }
}

/// Megatron-LM SC'21 Table 2's ZeRO-3 runs: DeepSpeed ZeRO-3 without
/// model parallelism, GPT on DGX A100 80GB, context 2048, TFLOP/s per GPU
/// by Megatron's formula.
const fn zero3(
    name: &'static str,
    (heads, hidden, layers): (u32, u32, u32),
    (gpus, batch, micro_batch): (u32, u32, u32),
    tflops: f64,
) -> Row {
    Row {
        name,
        source: 12,
        stack: StackId::DeepSpeed2021,
        gpus,
        model: gpt(heads, hidden, layers, GPT_VOCAB),
        batch,
        micro_batch,
        dp: DataParallel::FsdpFull,
        tuned: tuned(MB, V1, FULL),
        metric: Metric::MegatronTflops,
        published: tflops,
        // Assumed: the DeepSpeed of early 2021 (per-parameter gathers after a host synchronisation); full activation checkpointing (Megatron's TFLOP/s formula counts it); fp16 traffic
        ..BASE
    }
}

/// Every published run, one line each where a helper builds it.
#[rustfmt::skip]
pub const ROWS: &[Row] = &[
    megatron("GPT 1.7B, 32 A100", (24, 2304, 24), (1, 1, 32, 512), (16, V1), 137.0),
    megatron("GPT 3.6B, 64 A100", (32, 3072, 30), (2, 1, 64, 512), (16, V1), 138.0),
    megatron("GPT 7.5B, 128 A100", (32, 4096, 36), (4, 1, 128, 512), (16, V1), 142.0),
    megatron("GPT 18B, 256 A100", (48, 6144, 40), (8, 1, 256, 1024), (8, V1), 135.0),
    megatron("GPT 39B, 512 A100", (64, 8192, 48), (8, 2, 512, 1536), (4, V1), 138.0),
    megatron("GPT 76B, 1024 A100", (80, 10240, 60), (8, 4, 1024, 1792), (2, &[3]), 140.0),
    megatron("GPT 146B, 1536 A100", (96, 12288, 80), (8, 8, 1536, 2304), (2, &[2]), 148.0),
    megatron("GPT 310B, 1920 A100", (128, 16384, 96), (8, 16, 1920, 2160), (1, &[2]), 155.0),
    megatron("GPT 530B, 2520 A100", (128, 20480, 105), (8, 35, 2520, 2520), (1, &[3]), 163.0),
    megatron("GPT 1T, 3072 A100", (160, 25600, 128), (8, 64, 3072, 3072), (1, V1), 163.0),
    selective("GPT 22B, 8 A100", (64, 6144, 48), (8, 1, 8, 4, 4), V1, 0.415),
    selective("GPT 175B, 64 A100", (96, 12288, 96), (8, 8, 64, 64, 1), &[3], 0.514),
    selective("GPT 530B, 280 A100", (128, 20480, 105), (8, 35, 280, 280, 1), &[3], 0.560),
    selective("GPT 530B, 2240 A100", (128, 20480, 105), (8, 35, 2240, 2240, 1), &[3], 0.542),
    selective("GPT 1T, 512 A100", (160, 25600, 128), (8, 64, 512, 512, 1), &[1, 2], 0.563),
    Row {
        name: "BLOOM 176B, 384 A100",
        source: 2,
        gpus: 384,
        // Four 100 Gb/s Omni-Path links per node of 8 GPUs.
        network_gbps: Some(50.0),
        model: gpt(112, 14_336, 70, 250_880),
        seq_len: 2048,
        batch: 2048,
        micro_batch: 2,
        degrees: (4, 12, 1),
        dp: DataParallel::Zero1,
        sp: false,
        tuned: tuned(MB, V1, FULL),
        metric: Metric::MegatronTflops,
        published: 149.77,
        // Assumed: Megatron-DeepSpeed taken as the megatron-2021 stack, without sequence parallelism; 70 layers on 12 stages as the model balances them
        ..BASE
    },
    LLAMA3_405B_8192,
    Row {
        name: "Llama 3 405B, 16384 H100",
        gpus: 16_384,
        published: 0.41,
        // Assumed: as the 8192-GPU row
        ..LLAMA3_405B_8192
    },
    mpt("MPT 1B, 8 H100", H100, 8, (24, 2048, 16), (2048, 112, 14), false, 0.4182),
    mpt("MPT 1B, 64 H100", H100, 64, (24, 2048, 16), (2048, 1280, 20), false, 0.4085),
    mpt("MPT 7B, 8 H100", H100, 8, (32, 4096, 32), (2048, 48, 6), false, 0.4644),
    mpt("MPT 13B, 64 H100", H100, 64, (40, 5120, 40), (2048, 128, 2), false, 0.3986),
    mpt("MPT 30B, 32 H100", H100, 32, (48, 7168, 56), (2048, 1344, 14), true, 0.4392),
    mpt("MPT 70B, 64 H100", H100, 64, (80, 8192, 64), (2048, 2048, 8), true, 0.4257),
    mpt("MPT 7B 64k context, 8 H100", H100, 8, (32, 4096, 32), (65_536, 16, 1), true, 0.2859),
    mpt("MPT 7B, 8 A100 80GB", A100_80GB, 8, (32, 4096, 32), (2048, 96, 6), false, 0.6423),
    mpt("MPT 30B 8k context, 8 A100 80GB", A100_80GB, 8, (48, 7168, 56), (8192, 168, 1), true, 0.3938),
    mpt("MPT 70B, 64 A100 80GB", A100_80GB, 64, (80, 8192, 64), (2048, 2048, 8), true, 0.5333),
    mpt("MPT 13B, 128 A100 40GB", A100_40GB, 128, (40, 5120, 40), (2048, 2048, 16), true, 0.5193),
    mpt("MPT 70B, 128 A100 40GB", A100_40GB, 128, (80, 8192, 64), (2048, 512, 4), true, 0.4891),
    titan("Llama 3 8B, 64 A100", LLAMA3_8B, (8192, 1), SELECTIVE, 0.582),
    titan("Llama 3 70B, 64 A100", LLAMA3_70B, (8192, 1), FULL, 0.517),
    titan("Llama 2 13B, 64 A100", llama(40, 5120, 40, 40, 13_824, 32_000), (4096, 2), NONE, 0.611),
    cudnn_2024(nvidia("GPT-3 175B, 128 H100", 6, GPT3_175B, 128, (2048, 256, 1), (4, 8, 1), &[6], DataParallel::Zero1, 726.0)),
    cudnn_2024(nvidia("GPT-3 175B, 512 H100", 6, GPT3_175B, 512, (2048, 2048, 2), (4, 8, 1), &[6], DataParallel::Zero1, 782.0)),
    cudnn_2024(nvidia("Llama 2 70B, 64 H100", 6, llama(80, 8192, 64, 8, 28_672, 32_000), 64, (4096, 128, 1), (4, 4, 1), &[20], DataParallel::Zero1, 1707.0)),
    cudnn_2024(nvidia("Llama 3 8B CP 2, 8 H100", 6, LLAMA3_8B, 8, (8192, 128, 1), (1, 1, 2), V1, DataParallel::Zero1, 12_036.0)),
    cudnn_2024(nvidia("Llama 3 70B CP 2, 64 H100", 6, LLAMA3_70B, 64, (8192, 128, 1), (4, 4, 2), &[5], DataParallel::Zero1, 1533.0)),
    nvidia("Llama 3 8B FSDP, 8 H100", 7, LLAMA3_8B, 8, (8192, 128, 1), (1, 1, 1), V1, DataParallel::FsdpFull, 14_451.0),
    nvidia("Llama 3 70B, 64 H100", 7, LLAMA3_70B, 64, (8192, 128, 1), (4, 8, 1), &[5], DataParallel::Zero1, 1602.0),
    nvidia("Llama 3.1 405B, 1024 H100", 7, LLAMA3_405B, 1024, (8192, 512, 1), (8, 8, 2), &[8], DataParallel::Zero1, 292.0),
    // Blackwell: the 25.11 tables' FP8 (current scaling) dense rows, and MLPerf's log step times.
    on(GB300, nvidia("Llama 3 8B, 8 GB300", 13, LLAMA3_8B, 8, (8192, 128, 2), (1, 1, 1), V1, DataParallel::Zero1, 37_556.0)),
    // The 70B FSDP rows offload activations as their recipes set (scripts/performance/configs/llama/llama3_workload_base_configs.py @ 00919dcf, FP8_CS: cpu_offloading_num_layers 20 on GB300 and 40 on GB200, micro-batch 2), assumed unchanged since 25.11.
    on(GB300, offloaded(20, nvidia("Llama 3 70B FSDP, 64 GB300", 13, LLAMA3_70B, 64, (8192, 256, 2), (1, 1, 1), V1, DataParallel::FsdpFull, 4520.0))),
    on(GB300, nvidia("Llama 3.1 405B, 256 GB300", 13, LLAMA3_405B, 256, (8192, 1536, 1), (2, 8, 2), &[4], DataParallel::Zero1, 999.0)),
    on(GB200, nvidia("Llama 3 8B, 8 GB200", 13, LLAMA3_8B, 8, (8192, 128, 2), (1, 1, 1), V1, DataParallel::Zero1, 31_508.0)),
    on(GB200, offloaded(40, nvidia("Llama 3 70B FSDP, 64 GB200", 13, LLAMA3_70B, 64, (8192, 256, 2), (1, 1, 1), V1, DataParallel::FsdpFull, 4312.0))),
    on(GB200, nvidia("Llama 3.1 405B, 256 GB200", 13, LLAMA3_405B, 256, (8192, 1536, 1), (4, 16, 1), &[4], DataParallel::Zero1, 813.0)),
    on(B200, nvidia("Llama 3 8B, 8 B200", 13, LLAMA3_8B, 8, (8192, 128, 2), (1, 1, 1), V1, DataParallel::Zero1, 30_624.0)),
    on(B200, nvidia("Llama 3.1 405B, 128 B200", 13, LLAMA3_405B, 128, (8192, 64, 1), (4, 8, 2), &[8], DataParallel::Zero1, 661.0)),
    on(GB300, fp4(nvidia("Llama 3 70B NVFP4, 64 GB300", 15, LLAMA3_70B, 64, (8192, 256, 1), (1, 4, 1), &[5], DataParallel::Zero1, 6798.0))),
    on(GB200, fp4(nvidia("Llama 3 70B NVFP4, 64 GB200", 15, LLAMA3_70B, 64, (8192, 256, 1), (2, 4, 1), &[5], DataParallel::Zero1, 4458.0))),
    on(GB300, fp4(nvidia("Llama 3.1 405B NVFP4, 256 GB300", 15, LLAMA3_405B, 256, (8192, 1536, 1), (4, 8, 1), &[4], DataParallel::Zero1, 1333.0))),
    // Assumed (MLPerf): tokens per GPU from the log's step time and global batch; Llama 3.1's vocabulary
    on(GB200, nvidia("MLPerf Llama 3.1 405B, 256 GB200", 14, LLAMA3_405B, 256, (8192, 448, 1), (4, 8, 2), &[8], DataParallel::Zero1, 747.0)),
    on(GB200, nvidia("MLPerf Llama 3.1 405B, 512 GB200", 14, LLAMA3_405B, 512, (8192, 896, 1), (4, 8, 2), &[8], DataParallel::Zero1, 728.0)),
    on(GB300, fp4(nvidia("MLPerf Llama 3.1 405B NVFP4, 512 GB300", 14, LLAMA3_405B, 512, (8192, 1152, 1), (2, 8, 2), V1, DataParallel::Zero1, 1403.0))),
    on(GB200, fp4(nvidia("MLPerf Llama 3.1 405B NVFP4, 2560 GB200", 14, LLAMA3_405B, 2560, (8192, 960, 1), (4, 8, 2), &[8], DataParallel::Zero1, 969.0))),
    on(GB200, fp4(nvidia("MLPerf Llama 3.1 405B NVFP4, 5120 GB200", 14, LLAMA3_405B, 5120, (8192, 1280, 1), (4, 8, 2), &[8], DataParallel::Zero1, 927.0))),
    // Assumed (MLPerf 8B, v5.1, NeMo 25.09): tokens per GPU from the first block's step time and the global batch (GB200's first block at 512 GPUs is 1.7% slower than its later ones); FP8 current (tensorwise) scaling; the 8-GPU rows' FP4 taken as NVFP4 (the code's default fp4 recipe: the fp4 configs the READMEs name are not in the release), their micro-batch 2 from the log's global batch 16 and one accumulation step
    on(GB300, fp4(nvidia("MLPerf Llama 3.1 8B NVFP4, 8 GB300", 24, LLAMA3_8B, 8, (8192, 16, 2), (1, 1, 1), V1, DataParallel::Zero1, 47_454.0))),
    on(GB200, fp4(nvidia("MLPerf Llama 3.1 8B NVFP4, 8 GB200", 24, LLAMA3_8B, 8, (8192, 16, 2), (1, 1, 1), V1, DataParallel::Zero1, 40_674.0))),
    on(GB300, nvidia("MLPerf Llama 3.1 8B, 72 GB300", 24, LLAMA3_8B, 72, (8192, 36, 1), (1, 1, 2), V1, DataParallel::Zero1, 28_018.0)),
    on(GB200, nvidia("MLPerf Llama 3.1 8B, 72 GB200", 24, LLAMA3_8B, 72, (8192, 36, 1), (1, 1, 2), V1, DataParallel::Zero1, 24_581.0)),
    on(GB300, nvidia("MLPerf Llama 3.1 8B, 512 GB300", 24, LLAMA3_8B, 512, (8192, 64, 1), (2, 1, 4), V1, DataParallel::Zero1, 11_826.0)),
    on(GB200, nvidia("MLPerf Llama 3.1 8B, 512 GB200", 24, LLAMA3_8B, 512, (8192, 64, 1), (2, 1, 4), V1, DataParallel::Zero1, 11_165.0)),
    no_recompute(dgxc("GPT-3 175B BF16, 128 H100", GPT3_175B, 128, (2048, 256, 1), (4, 8, 1), &[12], 63_099.0 / 128.0)),
    no_recompute(dgxc("GPT-3 175B BF16, 512 H100", GPT3_175B, 512, (2048, 1024, 1), (4, 8, 1), &[12], 249_068.0 / 512.0)),
    no_recompute(dgxc("GPT-3 175B BF16, 2048 H100", GPT3_175B, 2048, (2048, 4096, 1), (4, 8, 1), &[12], 988_057.0 / 2048.0)),
    no_recompute(dgxc("Llama 3.1 70B BF16, 64 H100", LLAMA3_70B, 64, (8192, 128, 1), (4, 4, 2), &[5], 71_235.0 / 64.0)),
    no_recompute(dgxc("Llama 3.1 70B BF16, 512 H100", LLAMA3_70B, 512, (8192, 1024, 1), (4, 4, 2), &[5], 563_372.0 / 512.0)),
    no_recompute(dgxc("Llama 3.1 70B BF16, 2048 H100", LLAMA3_70B, 2048, (8192, 4096, 1), (4, 4, 2), &[5], 2_248_957.0 / 2048.0)),
    // Assumed (405B): the recipe's GPT-2 tokenizer proxy, its vocabulary padded to 51200
    no_recompute(dgxc("Llama 3.1 405B BF16, 576 H100", LLAMA3_405B_GPT2_VOCAB, 576, (8192, 252, 1), (8, 9, 2), &[7], 120_022.0 / 576.0)),
    no_recompute(dgxc("Llama 3.1 405B BF16, 1152 H100", LLAMA3_405B_GPT2_VOCAB, 1152, (8192, 504, 1), (8, 9, 2), &[7], 235_660.0 / 1152.0)),
    no_recompute(dgxc("Llama 3.1 405B BF16, 2304 H100", LLAMA3_405B_GPT2_VOCAB, 2304, (8192, 1008, 1), (8, 9, 2), &[7], 468_646.0 / 2304.0)),
    fp32_grads(no_recompute(dgxc("Nemotron-4 15B BF16, 16 H100", nemotron(32, 6144, 48, 24_576), 16, (4096, 64, 4), (4, 1, 1), V1, 93_223.0 / 16.0))),
    fp32_grads(no_recompute(dgxc("Nemotron-4 15B BF16, 256 H100", nemotron(32, 6144, 48, 24_576), 256, (4096, 1024, 4), (4, 1, 1), V1, 1_470_654.0 / 256.0))),
    fp32_grads(no_recompute(dgxc("Nemotron-4 15B BF16, 2048 H100", nemotron(32, 6144, 48, 24_576), 2048, (4096, 8192, 4), (4, 1, 1), V1, 11_622_595.0 / 2048.0))),
    as_selective(dgxc("Nemotron-4 340B BF16, 128 H100", nemotron(96, 18_432, 96, 73_728), 128, (4096, 32, 1), (8, 8, 1), &[12], 28_432.0 / 128.0)),
    as_selective(dgxc("Nemotron-4 340B BF16, 2048 H100", nemotron(96, 18_432, 96, 73_728), 2048, (4096, 512, 1), (8, 8, 1), &[12], 433_296.0 / 2048.0)),
    // Llama 3.1 8B's table (llama3.1/README_8b.md, NeMo 24.09), its smallest and largest clusters
    no_recompute(dgxc("Llama 3.1 8B BF16, 8 H100", LLAMA3_8B, 8, (8192, 128, 1), (1, 1, 2), V1, 10_153.0)),
    no_recompute(dgxc("Llama 3.1 8B BF16, 128 H100", LLAMA3_8B, 128, (8192, 2048, 1), (1, 1, 2), V1, 10_005.0)),
    // The same tables' FP8 rows, at the BF16 rows' layouts and recipes (NeMo's FP8 recipe: delayed scaling)
    no_recompute(fp8(dgxc("GPT-3 175B FP8, 128 H100", GPT3_175B, 128, (2048, 256, 1), (4, 8, 1), &[12], 93_190.0 / 128.0))),
    no_recompute(fp8(dgxc("GPT-3 175B FP8, 512 H100", GPT3_175B, 512, (2048, 1024, 1), (4, 8, 1), &[12], 363_206.0 / 512.0))),
    no_recompute(fp8(dgxc("GPT-3 175B FP8, 2048 H100", GPT3_175B, 2048, (2048, 4096, 1), (4, 8, 1), &[12], 1_407_485.0 / 2048.0))),
    no_recompute(fp8(dgxc("Llama 3.1 70B FP8, 64 H100", LLAMA3_70B, 64, (8192, 128, 1), (4, 4, 2), &[5], 95_239.0 / 64.0))),
    no_recompute(fp8(dgxc("Llama 3.1 70B FP8, 512 H100", LLAMA3_70B, 512, (8192, 1024, 1), (4, 4, 2), &[5], 750_323.0 / 512.0))),
    no_recompute(fp8(dgxc("Llama 3.1 70B FP8, 2048 H100", LLAMA3_70B, 2048, (8192, 4096, 1), (4, 4, 2), &[5], 2_945_955.0 / 2048.0))),
    no_recompute(fp8(dgxc("Llama 3.1 405B FP8, 576 H100", LLAMA3_405B_GPT2_VOCAB, 576, (8192, 252, 1), (8, 9, 2), &[7], 183_664.0 / 576.0))),
    no_recompute(fp8(dgxc("Llama 3.1 405B FP8, 1152 H100", LLAMA3_405B_GPT2_VOCAB, 1152, (8192, 504, 1), (8, 9, 2), &[7], 365_055.0 / 1152.0))),
    no_recompute(fp8(dgxc("Llama 3.1 405B FP8, 2304 H100", LLAMA3_405B_GPT2_VOCAB, 2304, (8192, 1008, 1), (8, 9, 2), &[7], 668_626.0 / 2304.0))),
    no_recompute(fp8(dgxc("Llama 3.1 8B FP8, 8 H100", LLAMA3_8B, 8, (8192, 128, 1), (1, 1, 2), V1, 13_554.0))),
    no_recompute(fp8(dgxc("Llama 3.1 8B FP8, 128 H100", LLAMA3_8B, 128, (8192, 2048, 1), (1, 1, 2), V1, 13_347.0))),
    fp32_grads(no_recompute(fp8(dgxc("Nemotron-4 15B FP8, 16 H100", nemotron(32, 6144, 48, 24_576), 16, (4096, 64, 4), (4, 1, 1), V1, 128_565.0 / 16.0)))),
    fp32_grads(no_recompute(fp8(dgxc("Nemotron-4 15B FP8, 256 H100", nemotron(32, 6144, 48, 24_576), 256, (4096, 1024, 4), (4, 1, 1), V1, 2_021_351.0 / 256.0)))),
    fp32_grads(no_recompute(fp8(dgxc("Nemotron-4 15B FP8, 2048 H100", nemotron(32, 6144, 48, 24_576), 2048, (4096, 8192, 4), (4, 1, 1), V1, 15_827_562.0 / 2048.0)))),
    as_selective(fp8(dgxc("Nemotron-4 340B FP8, 128 H100", nemotron(96, 18_432, 96, 73_728), 128, (4096, 32, 1), (8, 8, 1), &[12], 41_478.0 / 128.0))),
    as_selective(fp8(dgxc("Nemotron-4 340B FP8, 2048 H100", nemotron(96, 18_432, 96, 73_728), 2048, (4096, 512, 1), (8, 8, 1), &[12], 600_903.0 / 2048.0))),
    fms("Llama 2 7B HSDP, 128 A100", llama(32, 4096, 32, 32, 11_008, 32_000), (256, 2), DataParallel::Hsdp, NONE, 3760.0),
    fms("Llama 2 13B HSDP, 128 A100", llama(40, 5120, 40, 40, 13_824, 32_000), (128, 1), DataParallel::Hsdp, NONE, 1700.0),
    fms("Llama 2 34B FSDP, 128 A100", llama(48, 8192, 64, 8, 22_016, 32_000), (1024, 8), DataParallel::FsdpFull, FULL, 772.0),
    fms("Llama 2 70B FSDP, 128 A100", llama(80, 8192, 64, 8, 28_672, 32_000), (768, 6), DataParallel::FsdpFull, FULL, 380.0),
    // gpt3s-flash.yaml and gpt3m-flash.yaml set no strategy: Lightning's DDP, the optimizer unsharded
    ddp(flash("GPT-3 125M, 8 A100", (12, 768, 12), (256, &[32]), 1_310_000.0)),
    ddp(flash("GPT-3 355M, 8 A100", (16, 1024, 24), (256, &[16]), 503_000.0)),
    flash("GPT-3 760M, 8 A100", (16, 1536, 24), (256, &[16]), 245_000.0),
    flash("GPT-3 1.3B, 8 A100", (16, 2048, 24), (512, &[8]), 169_000.0),
    flash("GPT-3 2.7B, 8 A100", (20, 2560, 32), (512, &[4]), 85_000.0),
    mtnlg("MT-NLG 530B, 2240 A100", 2240, 126.0),
    mtnlg("MT-NLG 530B, 2800 A100", 2800, 121.0),
    mtnlg("MT-NLG 530B, 3360 A100", 3360, 113.0),
    DEEPSEEK_V3_H800,
    // v3.1 (PyTorch 23.09, NeMo r1.20): PP 8, the conf's 12 chunks a stage (its config_common.sh, which could set another, is not published), micro-batch 1
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 512 H100", 512, (2048, 1), (8, &[12]), 11.04),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 768 H100", 768, (3072, 1), (8, &[12]), 11.07),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 4096 H100", 4096, (2048, 1), (8, &[12]), 1.605),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 6144 H100", 6144, (3072, 1), (8, &[12]), 1.61),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 8192 H100", 8192, (4096, 1), (8, &[12]), 1.615),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 10240 H100", 10240, (2560, 1), (8, &[12]), 0.93),
    mlperf_gpt3("MLPerf GPT-3 175B v3.1, 10752 H100", 10752, (2688, 1), (8, &[12]), 0.927),
    // v4.0 (PyTorch 24.04, NeMo 2.0.0rc0, Megatron-Core 0.7): 64 nodes at PP 8, 4 chunks, micro-batch 2 (the logged batch 2304 over 72 accumulation steps); 1344 and 1452 nodes at PP 6, 8 chunks, micro-batch 1
    mlperf_gpt3("MLPerf GPT-3 175B v4.0, 512 H100", 512, (2304, 2), (8, &[4]), 10.905),
    mlperf_gpt3("MLPerf GPT-3 175B v4.0, 10752 H100", 10752, (2688, 1), (6, &[8]), 0.9207),
    mlperf_gpt3("MLPerf GPT-3 175B v4.0, 11616 H100", 11616, (2904, 1), (6, &[8]), 0.9192),
    // Megatron-LM's README (2021), its GPT-3 175B example (examples/pretrain_gpt3_175B.sh: TP 8, PP 16, micro-batch 1, fp16, activation checkpointing): "each iteration takes around 32 seconds resulting in 138 teraFLOPs per GPU"
    Row {
        name: "GPT-3 175B example, 1024 A100",
        source: 30,
        gpus: 1024,
        model: gpt(96, 12_288, 96, GPT_VOCAB),
        batch: 1536,
        degrees: (8, 16, 1),
        precision: Precision::Fp16,
        tuned: tuned(MB, V1, FULL),
        metric: Metric::MegatronTflops,
        published: 138.0,
        // Assumed: A100 80GB (Selene); no interleaving (the script sets no virtual stages); DDP (the script sets no distributed optimizer)
        ..BASE
    },
    // The table's rows: context, GPUs, batch, TP, PP, CP (its DP the rest; no interleaving). Left out: its 4K row on 4 GPUs, half a node, which a row here cannot hold
    long_context("Llama 2 7B 8K context, 8 H100", 8, (8192, 512), (1, 2, 1), 13_907.0),
    long_context("Llama 2 7B 16K context, 16 H100", 16, (16_384, 256), (2, 1, 1), 10_082.0),
    long_context("Llama 2 7B 32K context, 32 H100", 32, (32_768, 128), (2, 1, 2), 6687.0),
    long_context("Llama 2 7B 64K context, 64 H100", 64, (65_536, 64), (4, 1, 2), 4021.0),
    long_context("Llama 2 7B 128K context, 128 H100", 128, (131_072, 32), (4, 1, 4), 2260.0),
    long_context("Llama 2 7B 256K context, 256 H100", 256, (262_144, 16), (4, 1, 8), 1214.0),
    long_context("Llama 2 7B 512K context, 512 H100", 512, (524_288, 8), (8, 1, 16), 635.0),
    long_context("Llama 2 7B 1M context, 1024 H100", 1024, (1_048_576, 4), (8, 1, 32), 318.0),
    // NeMo 25.02 on DGX-B200 and 25.04 on GB200 NVL72, FP8 (25.04: per-tensor current scaling), the tables' layouts; 25.04's Llama 3 70B row (FSDP, its offloading or recomputation not published) and both tables' Mixtral 8x22B rows (their batch and micro-batch printed swapped) left out
    on(B200, nvidia("GPT-3 175B NeMo 25.02, 512 B200", 32, GPT3_175B, 512, (2048, 2048, 2), (4, 4, 1), &[6], DataParallel::Zero1, 1600.0)),
    on(B200, nvidia("Llama 3 8B NeMo 25.02, 8 B200", 32, LLAMA3_8B, 8, (8192, 128, 2), (1, 1, 1), V1, DataParallel::Zero1, 26_006.0)),
    on(B200, nvidia("Llama 3 70B NeMo 25.02, 64 B200", 32, LLAMA3_70B, 64, (8192, 128, 1), (2, 4, 2), &[5], DataParallel::Zero1, 3062.0)),
    on(B200, nvidia("Llama 3 405B NeMo 25.02, 128 B200", 32, LLAMA3_405B, 128, (8192, 64, 1), (4, 8, 2), &[8], DataParallel::Zero1, 625.0)),
    on(B200, nvidia("Nemotron-4 15B NeMo 25.02, 64 B200", 32, nemotron(32, 6144, 48, 24_576), 64, (4096, 256, 2), (1, 1, 1), V1, DataParallel::Zero1, 14_760.0)),
    on(B200, nvidia("Nemotron-4 340B NeMo 25.02, 128 B200", 32, nemotron(96, 18_432, 96, 73_728), 128, (4096, 32, 1), (8, 4, 1), &[12], DataParallel::Zero1, 602.0)),
    on(GB200, nvidia("GPT-3 175B NeMo 25.04, 128 GB200", 32, GPT3_175B, 128, (2048, 256, 2), (4, 4, 1), &[12], DataParallel::Zero1, 1804.0)),
    on(GB200, nvidia("Llama 3 8B NeMo 25.04, 8 GB200", 32, LLAMA3_8B, 8, (8192, 128, 2), (1, 1, 1), V1, DataParallel::Zero1, 33_099.0)),
    on(GB200, nvidia("Llama 3 405B NeMo 25.04, 128 GB200", 32, LLAMA3_405B, 128, (8192, 64, 1), (4, 8, 2), &[8], DataParallel::Zero1, 665.0)),
    on(GB200, nvidia("Nemotron-4 15B NeMo 25.04, 64 GB200", 32, nemotron(32, 6144, 48, 24_576), 64, (4096, 256, 2), (1, 1, 1), V1, DataParallel::Zero1, 17_809.0)),
    on(GB200, nvidia("Nemotron-4 340B NeMo 25.04, 128 GB200", 32, nemotron(96, 18_432, 96, 73_728), 128, (4096, 32, 1), (8, 4, 1), &[12], DataParallel::Zero1, 737.0)),
    // The same tables' Mixtral 8x7B at EP 8, tokens dropped at capacity factor 1 and padded: NeMo's performance mode appends MegatronTokenDropCallback to its Mixtral recipe, which needs Megatron-Core's alltoall dispatcher (read at a later commit of NeMo's main branch, not at the releases' tags)
    alltoall(on(B200, ep(8, nvidia("Mixtral 8x7B NeMo 25.02, 64 B200", 33, MIXTRAL_DROP, 64, (4096, 256, 2), (1, 1, 1), V1, DataParallel::Zero1, 15_457.0)))),
    alltoall(on(GB200, ep(8, nvidia("Mixtral 8x7B NeMo 25.04, 64 GB200", 33, MIXTRAL_DROP, 64, (4096, 256, 2), (1, 1, 1), V1, DataParallel::Zero1, 19_275.0)))),
    // NeMo 24.09's and 24.12's H100 FP8 table (the 24.07 table's layouts, re-measured): its rows whose shapes the model has and which the fitted 24.07 source does not hold
    cudnn_2024(nvidia("Llama 2 7B NeMo 24.09, 8 H100", 34, llama(32, 4096, 32, 32, 11_008, 32_000), 8, (4096, 128, 1), (1, 1, 1), V1, DataParallel::Zero1, 16_934.0)),
    cudnn_2024(nvidia("Llama 2 13B NeMo 24.09, 16 H100", 34, llama(40, 5120, 40, 40, 13_824, 32_000), 16, (4096, 128, 1), (1, 4, 1), &[10], DataParallel::Zero1, 8715.0)),
    cudnn_2024(nvidia("Nemotron-4 340B NeMo 24.09, 128 H100", 34, nemotron(96, 18_432, 96, 73_728), 128, (4096, 32, 1), (8, 8, 1), &[12], DataParallel::Zero1, 326.0)),
    megascale("MegaScale 175B batch 768, 256 A100", 256, 768, 40.0),
    megascale("MegaScale 175B batch 768, 512 A100", 512, 768, 21.2),
    megascale("MegaScale 175B batch 768, 768 A100", 768, 768, 15.2),
    megascale("MegaScale 175B batch 768, 1024 A100", 1024, 768, 11.9),
    megascale("MegaScale 175B batch 6144, 3072 A100", 3072, 6144, 29.02),
    megascale("MegaScale 175B batch 6144, 6144 A100", 6144, 6144, 14.78),
    megascale("MegaScale 175B batch 6144, 8192 A100", 8192, 6144, 12.24),
    megascale("MegaScale 175B batch 6144, 12288 A100", 12288, 6144, 8.57),
    zero3("ZeRO-3 GPT 175B, 384 A100", (96, 12288, 96), (384, 1536, 4), 144.0),
    zero3("ZeRO-3 GPT 175B, 768 A100", (96, 12288, 96), (768, 1536, 2), 88.0),
    zero3("ZeRO-3 GPT 175B, 1536 A100", (96, 12288, 96), (1536, 1536, 1), 44.0),
    zero3("ZeRO-3 GPT 530B, 640 A100", (128, 20480, 105), (640, 2560, 4), 138.0),
    zero3("ZeRO-3 GPT 530B, 1120 A100", (128, 20480, 105), (1120, 2240, 2), 98.0),
    zero3("ZeRO-3 GPT 530B, 2240 A100", (128, 20480, 105), (2240, 2240, 1), 48.0),
    // Mixture-of-experts, Megatron-Bridge 26.02 (MXFP8 on Blackwell, FP8 current scaling on H100, GPT-OSS in BF16); balanced, dropless routing
    // (GPT-OSS on B200 at EP 64 as the table lists it; `alltoall` where the recipe runs Megatron-Core's NCCL dispatcher)
    // Recomputation as the recipes set it (deepseek_workload_base_configs.py, gpt_oss_workload_base_configs.py): mla_up_proj for DeepSeek-V3, layernorm and moe_act for GPT-OSS but on GB300, none for Qwen3
    // CUDA graphs as the same configs set them (cuda_graph_impl "transformer_engine" with its cuda_graph_scope; unset is the recipes' "none"): DeepSeek-V3 attn, moe_router and moe_preprocess on GB200 only (deepseek_workload_base_configs.py @f0e2c37e); GPT-OSS the same three on GB300 only (gpt_oss_workload_base_configs.py @1e7adfa9); Qwen3 30B moe_router and moe_preprocess on GB300, GB200 and B200, nothing on H100; Qwen3 235B the three on GB300 and GB200, nothing on B200 and H100 (qwen3_workload_base_configs.py @f29a269f). The layouts match the tables'; no version is pinned to a container. The H100 Qwen3 30B row's PP 2 VP 12 EP 8 is the config before Megatron-Bridge PR 2477 (merged to main on 2026-02-22; its port to the 26.02 branch, PR 2500, closed unmerged): Megatron-Core's `alltoall` dispatcher with the combined 1F1B All-to-All overlap and delayed weight gradients (qwen3_workload_base_configs.py as a fork of main before it holds it, dingqingy-nv/Megatron-Bridge @15ace117; its global batch 512 where the table lists 1024)
    graphed(Eager, recomputed(&[MlaUpProj], on(GB300, ep(32, nvidia("DeepSeek-V3, 256 GB300", 16, DEEPSEEK_V3, 256, (4096, 4096, 2), (1, 2, 1), &[8], DataParallel::Zero1, 4612.0))))),
    graphed(AttnRouterPreprocess, recomputed(&[MlaUpProj], on(GB200, ep(64, nvidia("DeepSeek-V3, 256 GB200", 16, DEEPSEEK_V3, 256, (4096, 4096, 1), (1, 4, 1), &[4], DataParallel::Zero1, 3955.0))))),
    graphed(Eager, recomputed(&[MlaUpProj], on(B200, ep(8, nvidia("DeepSeek-V3, 256 B200", 16, DEEPSEEK_V3, 256, (4096, 4096, 1), (1, 16, 1), V1, DataParallel::Zero1, 2689.0))))),
    graphed(AttnRouterPreprocess, alltoall(on(GB300, ep(64, bf16(nvidia("GPT-OSS 120B BF16, 64 GB300", 16, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 19_412.0)))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(on(GB200, ep(64, bf16(nvidia("GPT-OSS 120B BF16, 64 GB200", 16, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 15_784.0))))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(on(B200, ep(64, bf16(nvidia("GPT-OSS 120B BF16, 64 B200", 16, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 8047.0))))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(ep(8, bf16(nvidia("GPT-OSS 120B BF16, 64 H100", 16, GPT_OSS_120B, 64, (4096, 1280, 1), (1, 4, 1), V1, DataParallel::Zero1, 5993.0)))))),
    graphed(RouterPreprocess, on(GB300, ep(8, nvidia("Qwen3 30B-A3B, 8 GB300", 16, QWEN3_30B, 8, (4096, 512, 8), (1, 1, 1), V1, DataParallel::Zero1, 30_376.0)))),
    graphed(RouterPreprocess, on(GB200, ep(8, nvidia("Qwen3 30B-A3B, 8 GB200", 16, QWEN3_30B, 8, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, 26_084.0)))),
    graphed(RouterPreprocess, alltoall(on(B200, ep(8, nvidia("Qwen3 30B-A3B, 8 B200", 16, QWEN3_30B, 8, (4096, 512, 1), (1, 1, 1), V1, DataParallel::Zero1, 9691.0))))),
    graphed(Eager, alltoall(ep_overlap(ep(8, nvidia("Qwen3 30B-A3B, 16 H100", 16, QWEN3_30B, 16, (4096, 1024, 1), (1, 2, 1), &[12], DataParallel::Zero1, 5113.0))))),
    graphed(AttnRouterPreprocess, on(GB300, ep(32, nvidia("Qwen3 235B-A22B, 256 GB300", 16, QWEN3_235B, 256, (4096, 8192, 2), (1, 4, 1), V1, DataParallel::Zero1, 6583.0)))),
    graphed(AttnRouterPreprocess, on(GB200, ep(32, nvidia("Qwen3 235B-A22B, 256 GB200", 16, QWEN3_235B, 256, (4096, 8192, 1), (1, 8, 1), V1, DataParallel::Zero1, 5448.0)))),
    graphed(Eager, alltoall(on(B200, ep(8, nvidia("Qwen3 235B-A22B, 256 B200", 16, QWEN3_235B, 256, (4096, 8192, 1), (1, 8, 1), V1, DataParallel::Zero1, 3805.0))))),
    graphed(Eager, ep_overlap(alltoall(ep(32, nvidia("Qwen3 235B-A22B, 256 H100", 16, QWEN3_235B, 256, (4096, 8192, 1), (2, 8, 1), &[4], DataParallel::Zero1, 1633.0))))),
    // GPT-OSS 120B, Megatron-Bridge 25.11: sequences of 8192, GB300 at the table's micro-batch 2 (the recipe found sets 4), recomputation and CUDA graphs as the release's recipe sets them
    graphed(AttnRouterPreprocess, alltoall(on(GB300, ep(64, bf16(nvidia("GPT-OSS 120B BF16 25.11, 64 GB300", 23, GPT_OSS_120B, 64, (8192, 1280, 2), (1, 1, 1), V1, DataParallel::Zero1, 18_347.0)))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(on(GB200, ep(64, bf16(nvidia("GPT-OSS 120B BF16 25.11, 64 GB200", 23, GPT_OSS_120B, 64, (8192, 1280, 1), (1, 1, 1), V1, DataParallel::Zero1, 15_876.0))))))),
    // Mixture-of-experts, Megatron-Bridge 26.04 (the same table two releases on: the B200 rows at micro-batch 4 where 26.02 ran 1, the H100 Qwen3 30B row at EP 16 without a pipeline)
    // Recomputation as in 26.02 (GPT-OSS's 26.04 config sets the same modules; DeepSeek-V3's are assumed unchanged)
    // CUDA graphs as in 26.02 but for Qwen3 30B on B200, which captures attention too in the config whose layouts match the 26.04 table (micro-batch 4); DeepSeek-V3's assumed unchanged
    graphed(Eager, recomputed(&[MlaUpProj], on(GB300, ep(32, nvidia("DeepSeek-V3 26.04, 256 GB300", 19, DEEPSEEK_V3, 256, (4096, 4096, 2), (1, 2, 1), &[8], DataParallel::Zero1, 4965.0))))),
    graphed(AttnRouterPreprocess, recomputed(&[MlaUpProj], on(GB200, ep(64, nvidia("DeepSeek-V3 26.04, 256 GB200", 19, DEEPSEEK_V3, 256, (4096, 4096, 1), (1, 4, 1), &[4], DataParallel::Zero1, 4193.0))))),
    graphed(Eager, recomputed(&[MlaUpProj], on(B200, ep(8, nvidia("DeepSeek-V3 26.04, 256 B200", 19, DEEPSEEK_V3, 256, (4096, 4096, 1), (1, 16, 1), V1, DataParallel::Zero1, 2815.0))))),
    graphed(AttnRouterPreprocess, alltoall(on(GB300, ep(64, bf16(nvidia("GPT-OSS 120B BF16 26.04, 64 GB300", 19, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 19_275.0)))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(ep_overlap(on(GB200, ep(64, bf16(nvidia("GPT-OSS 120B BF16 26.04, 64 GB200", 19, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 15_938.0)))))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(on(B200, ep(8, bf16(nvidia("GPT-OSS 120B BF16 26.04, 64 B200", 19, GPT_OSS_120B, 64, (4096, 1280, 4), (1, 1, 1), V1, DataParallel::Zero1, 13_045.0))))))),
    graphed(Eager, recomputed(&[Layernorm, MoeAct], alltoall(ep(8, bf16(nvidia("GPT-OSS 120B BF16 26.04, 64 H100", 19, GPT_OSS_120B, 64, (4096, 1280, 1), (1, 4, 1), V1, DataParallel::Zero1, 5810.0)))))),
    graphed(RouterPreprocess, on(GB300, ep(8, nvidia("Qwen3 30B-A3B 26.04, 8 GB300", 19, QWEN3_30B, 8, (4096, 512, 8), (1, 1, 1), V1, DataParallel::Zero1, 31_470.0)))),
    graphed(RouterPreprocess, on(GB200, ep(8, nvidia("Qwen3 30B-A3B 26.04, 8 GB200", 19, QWEN3_30B, 8, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, 26_032.0)))),
    graphed(AttnRouterPreprocess, on(B200, ep(8, nvidia("Qwen3 30B-A3B 26.04, 8 B200", 19, QWEN3_30B, 8, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, 26_859.0)))),
    graphed(Eager, ep(16, nvidia("Qwen3 30B-A3B 26.04, 16 H100", 19, QWEN3_30B, 16, (4096, 1024, 1), (1, 1, 1), V1, DataParallel::Zero1, 8901.0))),
    graphed(AttnRouterPreprocess, on(GB300, ep(32, nvidia("Qwen3 235B-A22B 26.04, 256 GB300", 19, QWEN3_235B, 256, (4096, 8192, 2), (1, 4, 1), &[12], DataParallel::Zero1, 6994.0)))),
    graphed(AttnRouterPreprocess, on(GB200, ep(32, nvidia("Qwen3 235B-A22B 26.04, 256 GB200", 19, QWEN3_235B, 256, (4096, 8192, 1), (1, 8, 1), &[3], DataParallel::Zero1, 5672.0)))),
    graphed(Eager, alltoall(ep_overlap(ep(32, nvidia("Qwen3 235B-A22B 26.04, 256 H100", 19, QWEN3_235B, 256, (4096, 8192, 1), (2, 8, 1), &[4], DataParallel::Zero1, 1686.0))))),
    // NeMo Automodel (PyTorch FSDP2 with expert parallelism, TE and DeepEP kernels), DGX-H100 BF16, a balanced ("fake") gate
    // (attention as each benchmark config sets `backend.attn`: `te` for DeepSeek-V3 and Qwen3, `flex` for GPT-OSS, taken at FlashAttention-2's rate; examples/benchmark/configs/*_te_deepep.yaml). DeepSeek-V3's config keeps FSDP's parameters gathered from forward to backward (`reshard_after_forward: false`), but with the torchtitan profile's gradients accumulated unsharded across micro-batches that needs 83 GiB at 256 GPUs where the run fit in 80 GB, so the rows stay fully sharded
    // Recomputation: `activation_checkpointing: true` for DeepSeek-V3 and Qwen3, `false` for GPT-OSS (the configs as stored at later commits, 092af93e and 037e04a6)
    // Each gradient-accumulation step is a pipeline schedule of its own (`n_microbatches = local_batch_size // microbatch_size` in nemo_automodel/components/distributed/pipelining/functional.py, one schedule per step of the benchmark's accumulation loop): the table's 1024-GPU row (local batch 8, GA 4) runs four schedules of 8 micro-batches, each filling and draining the pipeline, so it is costed as one schedule of 2048 sequences, its rate the step's (the gradient reduce-scatter, once a step, is charged each micro-batch by the stack either way; the optimizer step, once a step, is charged each schedule, four times a step, under 0.1% of it)
    te_attention(ep(64, full(automodel("DeepSeek-V3, 1024 H100", DEEPSEEK_V3, 1024, (8192 / 4, 1), (1, 4), &[8], 865.0)))),
    te_attention(ep(64, full(automodel("DeepSeek-V3, 256 H100", DEEPSEEK_V3, 256, (512, 1), (1, 4), &[8], 1002.0)))),
    te_attention(ep(8, full(automodel("Qwen3 30B-A3B, 8 H100", QWEN3_30B, 8, (512, 4), (1, 1), V1, 12_040.0)))),
    // GPT-OSS's experts run `GroupedExpertsDeepEP` (the config's `enable_deepep`), which adds both expert biases one expert at a time (`_apply_bias`) around its compiled clamped activation; attention is FlexAttention (`attn: flex`, the table's "TE + DeepEP + FlexAttn"), costed as FlashAttention-2; no `compile:` section (examples/benchmark/configs/gptoss_120b_te_deepep.yaml)
    both_biases(ep(64, no_recompute(automodel("GPT-OSS 120B, 64 H100", GPT_OSS_120B, 64, (512, 2), (1, 1), V1, 7626.0)))),
    // Megatron-MoE model zoo, Qwen3 235B-A22B on 256 H100 in BF16, seq 4096, batch 2048, forced balance: tokens per GPU from the published step time; gradient dtype not published: Megatron-LM's default under bf16 (fp32)
    fp32_grads(ep(32, bf16(as_selective(nvidia("Qwen3 235B-A22B BF16 EP32, 256 H100", 18, QWEN3_235B, 256, (4096, 2048, 1), (2, 8, 1), &[4], DataParallel::Zero1, zoo_step(19.7)))))),
    fp32_grads(ep_overlap(ep(32, bf16(as_selective(nvidia("Qwen3 235B-A22B BF16 EP32 1F1B overlap, 256 H100", 18, QWEN3_235B, 256, (4096, 2048, 1), (2, 8, 1), &[4], DataParallel::Zero1, zoo_step(17.6))))))),
    fp32_grads(ep(8, bf16(no_recompute(nvidia("Qwen3 235B-A22B BF16 TP4 EP8, 256 H100", 18, QWEN3_235B, 256, (4096, 2048, 1), (4, 8, 1), &[4], DataParallel::Zero1, zoo_step(29.0)))))),
    fp32_grads(ep(8, bf16(full(nvidia("Qwen3 235B-A22B BF16 FSDP EP8, 256 H100", 18, QWEN3_235B, 256, (4096, 2048, 4), (2, 1, 1), V1, DataParallel::FsdpFull, zoo_step(17.6)))))),
    // The same readme's GB200 and GB300 NVL72 tables (HybridEP; attention, router and preprocessing captured in CUDA graphs; no recomputation; forced balance): TFLOP/s per GPU, as tokens at the H100 rows' ratio (245 TFLOP/s at 19.7 s, the same model and sequence length). Left out: the MXFP8 GB200 row at EP 64 (it offloads activations under a pipeline, which the model's offloading, Megatron-Core's cpu_offloading_num_layers, refuses as Megatron-Core does) and the H100 row at PP 32 with three virtual stages (96 chunks for 94 layers: a custom pipeline layout)
    graphed(AttnRouterPreprocess, fp32_grads(on(GB200, ep(8, bf16(no_recompute(nvidia("Qwen3 235B-A22B BF16 EP8, 256 GB200", 18, QWEN3_235B, 256, (4096, 8192, 1), (1, 8, 1), V1, DataParallel::Zero1, zoo_tflops(750.0)))))))),
    // Assumed: its script's bf16 Adam moments (--exp-avg-dtype bf16) taken as fp32 (the model's optimizer state is 12 bytes a parameter)
    graphed(AttnRouterPreprocess, fp32_grads(on(GB300, ep(32, no_recompute(nvidia("Qwen3 235B-A22B MXFP8 EP32, 256 GB300", 18, QWEN3_235B, 256, (4096, 8192, 2), (1, 4, 1), V1, DataParallel::Zero1, zoo_tflops(974.0))))))),
    // Megatron-LM PR 5728's measured MoE recipes (examples/moe_recipes/qwen3_*, the YAMLs Megatron-Bridge PR 4469 matches): forced balance, flex dispatcher with HybridEP, no capacity factor, TFLOP/s per GPU as tokens (Qwen3 30B-A3B at the Bridge B200 row's ratio, 235B at the model zoo's); gradient dtype not set: Megatron-LM's default (fp32). Left out: the rows with a paged stash, a full-iteration CUDA graph or CuteDSL's fused grouped MLP, which the model has not
    graphed(AttnRouterPreprocess, blockwise(fp32_grads(ep(8, no_recompute(nvidia("Qwen3 30B-A3B FP8 blockwise, 32 H100", 21, QWEN3_30B, 32, (4096, 256, 1), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(242.9))))))),
    graphed(Eager, fp32_grads(ep(8, bf16(no_recompute(nvidia("Qwen3 30B-A3B BF16, 32 H100", 21, QWEN3_30B, 32, (4096, 256, 1), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(240.5))))))),
    graphed(Eager, fp32_grads(on(GB200, ep(16, bf16(no_recompute(nvidia("Qwen3 30B-A3B BF16, 16 GB200", 21, QWEN3_30B, 16, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(504.2)))))))),
    graphed(AttnRouterPreprocess, fp32_grads(on(GB200, ep(16, no_recompute(nvidia("Qwen3 30B-A3B MXFP8, 16 GB200", 21, QWEN3_30B, 16, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(480.3))))))),
    graphed(RouterPreprocess, fp32_grads(ep_overlap(ep(32, bf16(recomputed(&[MoeAct, Layernorm], nvidia("Qwen3 235B-A22B BF16, 256 H100", 21, QWEN3_235B, 256, (4096, 2048, 1), (2, 8, 1), &[4], DataParallel::Zero1, zoo_tflops(302.0)))))))),
    graphed(AttnRouterPreprocess, fp32_grads(ep_overlap(on(GB200, ep(64, no_recompute(nvidia("Qwen3 235B-A22B MXFP8, 128 GB200", 21, QWEN3_235B, 128, (4096, 8192, 1), (1, 1, 1), V1, DataParallel::Zero1, zoo_tflops(876.2)))))))),
    // Megatron-Bridge issue 4439 (nemo 26.04.01 container): Qwen3 30B-A3B on one DGX B200 in BF16 and MXFP8 at one layout (the FP8-MX config is the BF16 one), HybridEP, attention, router and preprocessing captured, TFLOP/s per GPU over 100 iterations, as tokens at the same ratio
    graphed(AttnRouterPreprocess, on(B200, ep(8, bf16(no_recompute(nvidia("Qwen3 30B-A3B BF16, 8 B200", 22, QWEN3_30B, 8, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(552.0))))))),
    graphed(AttnRouterPreprocess, on(B200, ep(8, no_recompute(nvidia("Qwen3 30B-A3B MXFP8, 8 B200", 22, QWEN3_30B, 8, (4096, 512, 4), (1, 1, 1), V1, DataParallel::Zero1, qwen3_30b_tflops(562.0)))))),
    // FlagPerf (FlagOpen/FlagPerf training/nvidia/llama2_7b-deepspeed/README.md: the A800 table of an earlier version, the H800 row @ 63c68145): one node of 8, DeepSpeed ZeRO-3
    flagperf("Llama 2 7B ZeRO-3, 8 A800", A800, (4096, 8, 1), 3564.0),
    flagperf("Llama 2 7B ZeRO-3 seq 2048, 8 A800", A800, (2048, 24, 3), 3917.0),
    flagperf("Llama 2 7B ZeRO-3 seq 2048 GA 64, 8 A800", A800, (2048, 1536, 3), 4062.0),
    flagperf("Llama 2 7B ZeRO-3, 8 H800", H800, (4096, 8, 1), 7151.0),
    // NVIDIA's DGX Cloud Llama 4 Maverick recipe (NeMo 25.04.01): GB200 at TP 1, PP 2, VP 12, EP 64 weak-scaled from 128 to 512 GPUs, H100 at TP 4, EP 128, ETP 4; micro-batch 1, sequences of 8192, no recomputation, Megatron-Core's alltoall dispatcher (the recipe's default), tokens dropped at capacity factor 1 (performance mode's MegatronTokenDropCallback); Assumed: FP8 is MXFP8 on GB200 and Transformer Engine's per-tensor scaling on H100 (the later README's FP8-MX and FP8-DS), CUDA graphs none on GB200 (NeMo's recommended_model_configs) and not read on H100
    graphed(Eager, alltoall(on(GB200, ep(64, bf16(no_recompute(nvidia("Llama 4 Maverick BF16, 128 GB200", 25, MAVERICK_DROP, 128, (8192, 1024, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(1024, 128, 7.781)))))))),
    graphed(Eager, alltoall(on(GB200, ep(64, bf16(no_recompute(nvidia("Llama 4 Maverick BF16, 256 GB200", 25, MAVERICK_DROP, 256, (8192, 2048, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(2048, 256, 7.859)))))))),
    graphed(Eager, alltoall(on(GB200, ep(64, bf16(no_recompute(nvidia("Llama 4 Maverick BF16, 512 GB200", 25, MAVERICK_DROP, 512, (8192, 4096, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(4096, 512, 7.992)))))))),
    graphed(Eager, alltoall(on(GB200, ep(64, no_recompute(nvidia("Llama 4 Maverick FP8, 128 GB200", 25, MAVERICK_DROP, 128, (8192, 1024, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(1024, 128, 6.093))))))),
    graphed(Eager, alltoall(on(GB200, ep(64, no_recompute(nvidia("Llama 4 Maverick FP8, 256 GB200", 25, MAVERICK_DROP, 256, (8192, 2048, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(2048, 256, 6.223))))))),
    graphed(Eager, alltoall(on(GB200, ep(64, no_recompute(nvidia("Llama 4 Maverick FP8, 512 GB200", 25, MAVERICK_DROP, 512, (8192, 4096, 1), (1, 2, 1), &[12], DataParallel::Zero1, llama4_tokens(4096, 512, 6.327))))))),
    alltoall(etp(4, ep(128, bf16(no_recompute(nvidia("Llama 4 Maverick BF16, 512 H100", 25, MAVERICK_DROP, 512, (8192, 1024, 1), (4, 1, 1), V1, DataParallel::Zero1, llama4_tokens(1024, 512, 4.426))))))),
    alltoall(etp(4, ep(128, no_recompute(nvidia("Llama 4 Maverick FP8, 512 H100", 25, MAVERICK_DROP, 512, (8192, 1024, 1), (4, 1, 1), V1, DataParallel::Zero1, llama4_tokens(1024, 512, 3.855)))))),
    // Megatron-Bridge 26.04's dense rows: Llama 3 70B and 3.1 405B on GB300 and GB200 NVL72 in FP8 (current scaling), MXFP8 and NVFP4, and 70B on DGX-H100 in FP8, the table's layouts; 405B on GB200 in MXFP8 and NVFP4 at 16 stages of 8 chunks for 126 layers, the first and last chunk holding the embedding and the loss; the 70B FSDP rows' offloading assumed as in 25.11's recipe (20 layers on GB300, 40 on GB200)
    on(GB300, fp4(nvidia("Llama 3 70B NVFP4 26.04, 64 GB300", 26, LLAMA3_70B, 64, (8192, 256, 1), (1, 4, 1), &[5], DataParallel::Zero1, 7397.0))),
    on(GB200, fp4(nvidia("Llama 3 70B NVFP4 26.04, 64 GB200", 26, LLAMA3_70B, 64, (8192, 256, 1), (2, 4, 1), &[5], DataParallel::Zero1, 4898.0))),
    on(GB300, nvidia("Llama 3 70B MXFP8 26.04, 64 GB300", 26, LLAMA3_70B, 64, (8192, 256, 1), (1, 4, 1), &[5], DataParallel::Zero1, 4742.0)),
    on(GB200, nvidia("Llama 3 70B MXFP8 26.04, 64 GB200", 26, LLAMA3_70B, 64, (8192, 256, 1), (2, 4, 1), &[5], DataParallel::Zero1, 3828.0)),
    on(GB300, offloaded(20, nvidia("Llama 3 70B FSDP 26.04, 64 GB300", 26, LLAMA3_70B, 64, (8192, 256, 2), (1, 1, 1), V1, DataParallel::FsdpFull, 5243.0))),
    on(GB200, offloaded(40, nvidia("Llama 3 70B FSDP 26.04, 64 GB200", 26, LLAMA3_70B, 64, (8192, 256, 2), (1, 1, 1), V1, DataParallel::FsdpFull, 4143.0))),
    nvidia("Llama 3 70B 26.04, 64 H100", 26, LLAMA3_70B, 64, (8192, 256, 1), (4, 8, 1), &[5], DataParallel::Zero1, 1633.0),
    on(GB300, fp4(nvidia("Llama 3.1 405B NVFP4 26.04, 256 GB300", 26, LLAMA3_405B, 256, (8192, 1536, 1), (4, 8, 1), &[4], DataParallel::Zero1, 1424.0))),
    on(GB200, fp4(nvidia("Llama 3.1 405B NVFP4 26.04, 256 GB200", 26, LLAMA3_405B, 256, (8192, 1536, 1), (4, 16, 1), &[8], DataParallel::Zero1, 1136.0))),
    on(GB300, nvidia("Llama 3.1 405B MXFP8 26.04, 256 GB300", 26, LLAMA3_405B, 256, (8192, 1536, 1), (2, 8, 2), &[4], DataParallel::Zero1, 968.0)),
    on(GB200, nvidia("Llama 3.1 405B MXFP8 26.04, 256 GB200", 26, LLAMA3_405B, 256, (8192, 1536, 1), (4, 16, 1), &[8], DataParallel::Zero1, 793.0)),
    on(GB300, nvidia("Llama 3.1 405B 26.04, 256 GB300", 26, LLAMA3_405B, 256, (8192, 1536, 1), (4, 8, 1), &[4], DataParallel::Zero1, 1036.0)),
    on(GB200, nvidia("Llama 3.1 405B 26.04, 256 GB200", 26, LLAMA3_405B, 256, (8192, 1536, 1), (4, 16, 1), &[4], DataParallel::Zero1, 842.0)),
    vocab_pp("4B PP 8 vocab 32k seq 2048, 8 A100", 2048, 32_000, 0.4752),
    vocab_pp("4B PP 8 vocab 64k seq 2048, 8 A100", 2048, 64_000, 0.4082),
    vocab_pp("4B PP 8 vocab 128k seq 2048, 8 A100", 2048, 128_000, 0.3370),
    vocab_pp("4B PP 8 vocab 256k seq 2048, 8 A100", 2048, 256_000, 0.1729),
    vocab_pp("4B PP 8 vocab 32k seq 4096, 8 A100", 4096, 32_000, 0.5282),
    vocab_pp("4B PP 8 vocab 64k seq 4096, 8 A100", 4096, 64_000, 0.4578),
    vocab_pp("4B PP 8 vocab 128k seq 4096, 8 A100", 4096, 128_000, 0.3713),
    vocab_pp("4B PP 8 vocab 256k seq 4096, 8 A100", 4096, 256_000, 0.2763),
    redistributed(vocab_pp("4B PP 8 vocab 32k seq 2048 redistributed, 8 A100", 2048, 32_000, 0.4752)),
    redistributed(vocab_pp("4B PP 8 vocab 64k seq 2048 redistributed, 8 A100", 2048, 64_000, 0.4915)),
    redistributed(vocab_pp("4B PP 8 vocab 128k seq 2048 redistributed, 8 A100", 2048, 128_000, 0.4412)),
    redistributed(vocab_pp("4B PP 8 vocab 256k seq 2048 redistributed, 8 A100", 2048, 256_000, 0.3821)),
    redistributed(vocab_pp("4B PP 8 vocab 32k seq 4096 redistributed, 8 A100", 4096, 32_000, 0.5281)),
    redistributed(vocab_pp("4B PP 8 vocab 64k seq 4096 redistributed, 8 A100", 4096, 64_000, 0.5381)),
    redistributed(vocab_pp("4B PP 8 vocab 128k seq 4096 redistributed, 8 A100", 4096, 128_000, 0.4956)),
    redistributed(vocab_pp("4B PP 8 vocab 256k seq 4096 redistributed, 8 A100", 4096, 256_000, 0.4245)),
    titan_h200("Llama 3 8B fp8, 32 H200", 32, 10_938.0),
    titan_h200("Llama 3 8B fp8, 64 H200", 64, 10_753.0),
];
