//! The model page's text (`scalescope pages`): the equations and assumptions of the core
//! (`scalescope_core`), section by section, in plain words for ML engineers
//! and students. Every equation restates what `core/src/evaluate.rs`,
//! `collective.rs`, `memory.rs`, `power.rs`, `model.rs` and `hardware.rs`
//! compute; the constants each section names are rows of
//! `scalescope_core::calibration::TABLE`, whose values the page shows
//! beside the text. The numbers quoted here are checked against that table
//! by the tests below, so a changed constant cannot leave the page stale
//! unnoticed.

/// One section of the model page.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// Short id used as an HTML anchor, e.g. "compute".
    pub id: &'static str,
    /// Heading.
    pub title: &'static str,
    /// Plain-language paragraphs (1 to 3), each a single string.
    pub paragraphs: &'static [&'static str],
    /// Equations, each one line of plain text using Unicode math (×, ÷, ≈,
    /// Σ, ⌈ ⌉, subscripts written like `t_gemm`), e.g.
    /// `t_gemm = FLOPs ÷ (peak × η_gemm) + n_kernels × 8 µs`.
    pub equations: &'static [&'static str],
    /// Names of the calibration constants (exactly as in
    /// `core/src/calibration.rs`, e.g. `GEMM_EFFICIENCY_H100`) that this
    /// section uses.
    pub constants: &'static [&'static str],
}

#[path = "experts_page.rs"]
mod experts_page;
#[path = "memory_page.rs"]
mod memory_page;
use experts_page::EXPERTS;
use memory_page::MEMORY;

/// Every section, in reading order.
pub const SECTIONS: &[Section] = &[
    Section {
        id: "units",
        title: "Conventions: parameters, FLOPs, MFU and HFU",
        paragraphs: &[
            "Every time is for one GPU of the pipeline stage that sets the step: one layer and one \
             micro-batch at a time, multiplied by the L_s layers of that stage and the m \
             micro-batches of the step. Notation: L layers, h hidden width, f MLP width, V \
             vocabulary, s sequence length, b micro-batch in sequences, tp, pp, cp and dp the \
             parallel degrees, and T = b × s ÷ cp the tokens one GPU holds per micro-batch.",
            "Model FLOPs count 6 per matmul parameter per token (every layer's matmuls and the \
             output head) plus causal attention, 6 × L × h × s: the half of the score matrix a \
             causal mask leaves to compute. MFU divides them by the step time, the GPU count and \
             the dense peak of the matmul precision, so it can never exceed one. The paper and \
             most published runs quote MFU in the PaLM convention, whose attention term 12 × L × \
             h × s ignores the mask; the model reports that one too (MFU as the paper counts it) \
             and compares the paper's numbers with it. A layer with a sliding window of w keys \
             (GPT-OSS's) counts w keys a query in both, as Megatron-Bridge counts it; a layer \
             with chunks of c keys (Llama 4's), a causal context of c, and c keys in the PaLM \
             convention.",
            "HFU counts every FLOP the kernels execute: FlashAttention's backward recomputes the \
             scores (7 × L × h × s for attention in all), and full recomputation runs each \
             layer's forward again. Selective recomputation reruns element-wise work (or, \
             without FlashAttention, the core attention); with modules named, HFU adds the \
             GEMMs they rerun (latent attention's up-projections, the dense MLP). torchtitan's \
             selective recomputation is its per-op policy, which saves every compute kernel's \
             output but every second matmul's of a layer: it reruns the keys' and output \
             projections and the up projection (or a GeLU MLP's down projection), about 0.37 of \
             Llama 3 8B's layer matmuls, and HFU counts them.",
        ],
        equations: &[
            "kv = kv_heads × h ÷ heads;  k = 3 (SwiGLU, and a clamped SwiGLU) or 2 (GeLU)",
            "N_layer = 2h² + 2h × kv + k × h × f + 2h   (attention, MLP, two norms)",
            "N = L × N_layer + 2 × V × h + h   (layers, input embedding, output head, final norm)",
            "F = 6 × (L × (2h² + 2h × kv + k × h × f) + V × h) + 6 × L × h × s   (training FLOPs \
             per token, causal attention)",
            "F_PaLM = 6 × (L × (2h² + 2h × kv + k × h × f) + V × h) + 12 × L × h × s   (attention \
             without the mask, as the paper counts);  a windowed layer's s is min(2w, s) in F, \
             HFU and F_re and min(w, s) in F_PaLM",
            "tokens per step = global_batch × s;  tokens/s = tokens per step ÷ t_step",
            "MFU = tokens per step × F ÷ (t_step × GPUs × peak) ≤ HFU ≤ 1",
            "HFU = tokens per step × (F + L × h × s + F_re) ÷ (t_step × GPUs × peak);  F_re = 2 \
             × L × (2h² + 2h × kv + k × h × f) + 2 × L × h × s with full recomputation",
        ],
        constants: &[],
    },
    Section {
        id: "stacks",
        title: "Software stacks: the same layout, different frameworks",
        paragraphs: &[
            "The software that runs the step is an input (the Software stack control, the \
             `stack` link key and scenario field). paper is the paper's own: a Megatron-inspired \
             framework with xFormers' fused kernels on eager PyTorch 2.3.1, FSDPv2 that keeps \
             parameters through backward but gathers and reduce-scatters every micro-batch (ZeRO-2 \
             semantics), tensor parallelism by AllReduce as Megatron's layers run it (blocking \
             in forward, the backward's beside the weight gradients) with no sequence \
             parallelism or interleaving, and model-parallel ranks placed inside a node first. megatron is \
             Megatron-LM today (sequence parallelism, interleaving, distributed optimizer); \
             megatron-2021 is the Megatron-LM of 2021 and 2022, before FlashAttention; \
             llm-foundry is MosaicML's FSDP stack; torchtitan is FSDP2 with compiled blocks; \
             deepspeed is DeepSpeed's ZeRO (0.6 on: a collective per module); deepspeed-2021 is \
             the DeepSpeed of early 2021, whose ZeRO-3 gathers each weight and reduce-scatters \
             each gradient on its own through a list of one tensor per rank, which costs the host \
             a dispatch per rank per collective (15 ms over 1,536 ranks), and hides none of it.",
            "A stack sets the element-wise passes and kernels per layer, the host's cost to \
             dispatch each kernel (10 µs from eager Python, 3 µs from a compiled graph's \
             wrapper: when a GPU's kernels are shorter, it waits on the host), the fixed \
             time of each local expert's GEMM (25 µs under Megatron-Core's GroupedLinear, a \
             GEMM's 8 µs launch and tail elsewhere) and of quantising its operands under fp8 \
             (three kernels launched alone under GroupedLinear, one under its blockwise scaling, one queued elsewhere), whether attention is one fused kernel, whether sequence parallelism and interleaving \
             exist, whether FSDP syncs every micro-batch or once per step, the bytes of a \
             gradient reduction, the share of NVLink its data-parallel traffic reaches under \
             compute, and where the ranks sit. Asking a stack for what it lacks is refused \
             with a message.",
            "Without FlashAttention the score matrix of heads × s × s per sequence is computed \
             in full by two GEMMs and passed over 6.5 times (write, softmax, dropout, read), \
             kept for backward unless recomputed: that is what selective recomputation was \
             invented to drop.",
        ],
        equations: &[
            "element-wise elements = (2 × n_norm + 6) × T × h ÷ sp + n_rot × T × (h + kv) ÷ tp + \
             n_act × T × f ÷ tp + 3 × (cp − 1) × T × h ÷ tp",
            "n_norm = 2, n_rot = 2, n_act = 3 (fused SwiGLU) or 2 (GeLU), 3 + 8 for a clamped \
             SwiGLU (GPT-OSS's) where the stack clamps apart (3 kernels more); llm-foundry n_rot = 0 \
             (ALiBi inside attention)",
            "t_q,fwd = n_q × 2 B × T × (h + f) ÷ tp ÷ (HBM bandwidth × 0.8);  t_q,bwd = n_q × 2 B × \
             T × ((h + 2kv) ÷ tp + 2h ÷ sp) ÷ (HBM bandwidth × 0.8);  n_q = 2 in fp8, 4.54 in fp4, \
             0 in bf16 (operands read in bf16 and written twice: the attention output and the \
             MLP activation in forward; the output gradients of QKV, the output projection and \
             the down projection in backward)",
            "t_ew = 2 B × elements ÷ (HBM bandwidth × 0.8) + (kernels + 2 × (cp − 1)) × 2 µs;  \
             kernels = 6 per layer forward",
            "busy_fwd = max(GPU time, ops_fwd × t_dispatch);  ops_fwd = kernels + 4 + 1 + 2 (TP) \
             + 5 × (cp − 1)",
            "DeepSpeed of 2021, ZeRO-3, per collective over n ranks: + n × t_dispatch;  per layer \
             4 gathers and 12 reduce-scatters (GPT), 7 and 9 (Llama)",
            "t_attn without FlashAttention = 2 × 2 × T × s × h ÷ tp ÷ (peak × η_gemm) + 6.5 × \
             2 B × T × s × heads ÷ tp ÷ (HBM bandwidth × 0.8)",
        ],
        constants: &[
            "EAGER_DISPATCH_US",
            "COMPILED_DISPATCH_US",
            "FUSED_NORM_PASSES",
            "FUSED_ROTARY_PASSES",
            "FUSED_ACTIVATION_PASSES",
            "FUSED_ELEMENTWISE_KERNELS",
            "RESIDUAL_PASSES",
            "GELU_PASSES",
            "ELEMENTWISE_KERNEL_US",
            "CP_KERNELS_PER_STEP",
            "SCORE_PASSES",
        ],
    },
    Section {
        id: "compute",
        title: "Compute: GEMMs, attention, element-wise work and the optimizer",
        paragraphs: &[
            "A layer has four GEMMs (QKV, output projection, the MLP's up and down projections), \
             each T × n × k on one TP rank, and each runs at the rate its shape reaches: cuBLAS \
             measurements on H100 show a GEMM losing throughput when its reduction k is short \
             (each output tile's prologue and epilogue spread over fewer steps) and when it has \
             few outputs m × n (the last wave leaves SMs idle). That shape factor, fitted to \
             OpenXLA's table of 93 H100 GEMMs and not to any training run (Blackwell's at the \
             ratios the same table's B200 block measures: B200 needs larger GEMMs, 0.80 of \
             H100's share of peak at 4096 cubed), multiplies one \
             in-step efficiency per GPU for large GEMMs, fitted on 41 published runs (not on the \
             paper): 0.647 on H100 (also used for H200 and Blackwell), 0.724 on A100, and 0.64 on \
             V100. fp8 GEMMs reach 0.883 of the share of their peak that bf16 GEMMs reach of \
             theirs (the best measured matmuls of each); fp4 (NVFP4, Blackwell) GEMMs reach \
             0.65 of fp8's, and quantising an operand to NVFP4 costs 2.27 times fp8's (a \
             global amax, block scales, stochastic rounding, the weight gradient's Hadamard \
             transform): both measured by Transformer Engine's GEMM profiling of a Llama-like \
             layer on B300, neither fitted on a training run. A GEMM operand no fused kernel writes in fp8 or fp4 (the attention \
             output, the MLP activation, the experts' routed tokens, and in backward the \
             output gradients no fused kernel writes) is quantised by a kernel of its own, which reads it in bf16 and \
             writes a row-wise and a column-wise copy (Transformer Engine's cast_transpose): \
             1% to 3% of a dense fp8 step (GPT-3 175B, Llama 3 8B), 7% of Qwen3 30B-A3B's in bytes. Attention \
             and the other element-wise passes stay in bf16, so an fp4 step \
             is far from half an fp8 step: Llama 3 70B on 64 GB300s comes out 1.5 times \
             its fp8 rate, as the published runs do. A fixed 8 µs per GEMM (launch and tail) \
             completes the time.",
            "FlashAttention-2 runs at its own efficiency (0.35 on H100, 0.6 on A100, 0.4 for \
             CUTLASS attention on V100); stacks that run attention through Transformer Engine \
             (Megatron-LM today) get cuDNN's fused attention on Hopper and later, as NVIDIA's \
             cuDNN benchmarks measure it: 0.68 on H100, 0.64 on B200 and GB200, 0.70 on GB300 \
             (twice the exponential units, 1400 W to GB200's 1200). FlashAttention 1, which llm-foundry's \
             MPT tables ran, takes twice FlashAttention-2's time (the FlashAttention-2 paper: \
             \"around 2x faster\"): attention then runs below the GEMMs' rate, so their MFU \
             falls as the context grows (MPT 1B on 8 H100s: 41.8% at 2k tokens, 33.5% at \
             32k) where FlashAttention-2's would rise. Each is scaled by L_kv ÷ (L_kv + 400), cuDNN's by \
             L_kv ÷ (L_kv + 1500), where L_kv = s ÷ cp is the key/value length one kernel sees, \
             and always against the bf16 peak: fp8 speeds the \
             GEMMs only. A layer with a sliding window (GPT-OSS's alternate layers, 128 keys) \
             costs, where the kernel skips the keys outside it (FlashAttention-2 and cuDNN do; \
             FlashAttention 1 and the score matrix do not), the window and one 128-key tile a \
             query: the work and efficiency of a causal context twice that long (under context \
             parallelism the ring still sends it every key and value block). A chunked layer \
             (Llama 4's three of four, 8,192 keys) costs a causal context of the chunk at its \
             efficiency, the full layer's cost up to 8,192 tokens. Element-wise work \
             streams bf16 bytes at 80% of HBM bandwidth.",
            "Backward costs twice the GEMMs, 2.5 times the attention (FlashAttention recomputes \
             the scores) and twice the element-wise work. The output head and loss run once per \
             micro-batch on the last stage, and the AdamW step streams 30 bytes per parameter \
             of the GPU's optimizer shard through HBM.",
        ],
        equations: &[
            "T = b × s ÷ cp;  L_kv = s ÷ cp;  t_0 = 8 µs;  peak = dense peak of the matmul \
             precision",
            "t_gemm = Σ over (n, k) in {((h + 2kv) ÷ tp, h), (h, h ÷ tp), (u × f ÷ tp, h), (h, f ÷ \
             tp)} of 2 × T × n × k ÷ (peak × η_gemm × σ(T, n, k)) + 4 × t_0;  u = 2 (SwiGLU), 1 \
             (GeLU)",
            "σ(m, n, k) = r ÷ (1 + e × (k_0 ÷ k + a_0 ÷ (m × n)));  H100: e = 0.84, k_0 = 113, \
             a_0 = 288000;  A100 and V100: e = 0.88, k_0 = 56.6, a_0 = 235000;  Blackwell: H100's \
             with k_0 × 3.1 × (bf16 TFLOP/s per SM ÷ B200's 15.2) and a_0 × 2.54 × (SMs ÷ 148), \
             B200's measured ratios, so k_0 = 350 (B200), 379 (GB200, GB300) and a_0 = 731520 \
             (B200), 751000 (GB200, GB300);  fp8: k_0 doubled, r = 0.883 (else 1)",
            "η_gemm = 0.647 (H100, H200, GB300), 0.567 (GB200: 0.877 of GB300's), 0.614 (B200: GB200's rate per SM), 0.724 (A100), 0.64 (V100)",
            "η_attn = η_attn,GPU × L_kv ÷ (L_kv + 400);  η_attn,GPU = 0.35 (H100, H200), 0.170 (B200), 0.157 (GB200), 0.168 (GB300), \
             0.6 (A100), 0.4 (V100); halved under FlashAttention 1;  cuDNN (Transformer Engine, \
             Hopper and later): 0.68 (H100, H200), 0.64 (B200, GB200), 0.70 (GB300) × L_kv ÷ (L_kv + 1500)",
            "t_attn = 2 × T × s × h ÷ tp ÷ (peak_bf16 × η_attn) + cp × t_0   (causal: half the \
             scores);  a windowed layer: s → c = min(2 × (w + 128), s) and L_kv → min(c, L_kv)",
            "t_fwd = t_gemm + t_attn + t_ew + t_q,fwd;  t_bwd = 2 × t_gemm + 2.5 × t_attn + 2 × t_ew + \
             t_q,bwd",
            "t_re = 0 (no recomputation), t_ew (selective; under torchtitan + the forward of \
             every second matmul, at the layer's GEMM rate), t_fwd (full); with modules, the sum \
             of their parts' forward: t_attn, the unfused norms' passes, the up-projections' \
             share of the attention's projection GEMM, the dense MLP (with its block's \
             tensor-parallel collective), the routed experts' activation",
            "t_head,fwd = 2 × T × h × V ÷ tp ÷ (peak × η_gemm × σ(T, V ÷ tp, h)) + 12 × T × V ÷ tp ÷ (HBM bandwidth \
             × 0.8) + t_0   (three fp32 passes over the logits);  t_head,bwd = 2 × t_head,fwd",
            "t_opt = 30 B × P_stage ÷ shard ÷ (HBM bandwidth × 0.8);  shard = 1 (DDP), r_dp \
             (HSDP), dp × cp (ZeRO-1 and both FSDPs)",
        ],
        constants: &[
            "GEMM_EFFICIENCY_H100",
            "GEMM_EFFICIENCY_A100",
            "GEMM_EFFICIENCY_V100",
            "GEMM_CEILING_H100",
            "GEMM_EPILOGUE_H100",
            "GEMM_TAIL_H100",
            "FP8_GEMM_RATIO",
            "GEMM_CEILING_A100",
            "GEMM_EPILOGUE_A100",
            "GEMM_TAIL_A100",
            "BLACKWELL_EPILOGUE_OVER_H100",
            "BLACKWELL_TAIL_OVER_H100",
            "ATTENTION_EFFICIENCY_H100",
            "CUDNN_ATTENTION_EFFICIENCY_H100",
            "CUDNN_ATTENTION_EFFICIENCY_B200",
            "CUDNN_ATTENTION_EFFICIENCY_GB300",
            "CUDNN_ATTENTION_HALF_LENGTH",
            "FLASH_ATTENTION_2_SPEEDUP",
            "ATTENTION_EFFICIENCY_A100",
            "ATTENTION_EFFICIENCY_V100",
            "ATTENTION_HALF_LENGTH",
            "ATTENTION_TILE_KEYS",
            "KERNEL_OVERHEAD_US",
            "HBM_EFFICIENCY",
            "GEMMS_PER_LAYER",
            "BACKWARD_ELEMENTWISE_FACTOR",
            "ATTENTION_BACKWARD_FACTOR",
            "OPTIMIZER_BYTES_PER_PARAM",
        ],
    },
    Section {
        id: "collectives",
        title: "Collectives: NCCL's ring and tree",
        paragraphs: &[
            "Each collective costs what NCCL's own tuning model says: a start-up latency, a \
             latency per algorithm step, and the bytes each GPU moves over the bus bandwidth, \
             where S is the whole buffer (the gathered output of an AllGather, the input of a \
             ReduceScatter). A group of n ranks, r to a node, spans M = ⌈n ÷ r⌉ nodes: inside one \
             node the bus is NVLink (one direction, at 80%); across nodes it is the slower of \
             NVLink and the group's r InfiniBand rails at 90% of line rate.",
            "AllGather and ReduceScatter run as a ring; AllReduce takes the fastest of a ring \
             (twice the steps), NCCL's double binary tree, whose latency grows with log2 of the \
             node count instead of the rank count, and, inside an H100 node, NVLS (the switch \
             reduces, so each GPU sends and receives its buffer once, at 0.76 of the bus rate: \
             about 480 GB/s over 8 GPUs); a point-to-point send pays one step. \
             In the step model every ring step and send is 1.4 times slower than NCCL's tuning \
             model (stragglers and jitter at scale) when the ring has more than two ranks; tree \
             hops, point-to-point sends and two-rank groups are not scaled. The explorer's \
             bus-bandwidth chart draws the same scaled collectives the step model uses.",
            "A ring AllGather takes n − 1 steps of S ÷ n bytes each, so its latency grows with \
             the GPU count while its bytes term does not: on H100 nodes the latency alone is \
             about 1 ms over 16 nodes of 8 and 15.5 ms over 256, against 0.3 ms for the tree \
             AllReduce. That is why AllGather bus bandwidth collapses at scale while AllReduce \
             holds.",
        ],
        equations: &[
            "B_nvl = quoted NVLink (both directions) × 0.5 × 0.8;  B_net = InfiniBand per node ÷ \
             GPUs per node × 0.9   (H100: 360 and 45 GB/s)",
            "M = ⌈n ÷ r⌉;  B_bus = B_nvl if M = 1, else min(B_nvl, r × B_net)",
            "α = 8.4 µs;  β_nvl = 3.4 µs × 1.4;  β_net = 14 µs × 1.4 (rings of n > 2; sends and \
             two-rank rings unscaled);  γ_nvl = 4 µs;  γ_net = 14 µs",
            "t_AG = t_RS = α + (n − M) × β_nvl + (M − 1) × β_net + S × (n − 1) ÷ n ÷ B_bus",
            "t_AR,ring = α + 2 × (n − M) × β_nvl + 2 × (M − 1) × β_net + 2 × S × (n − 1) ÷ n ÷ \
             B_bus",
            "t_AR,tree = α + 2 × ((r − 1) × γ_nvl + log2(M) × γ_net) + 2 × S ÷ (0.9 × B_bus)",
            "t_AR,NVLS = α + S ÷ (B_nvl × 0.76)   (inside one node on H100 and later: the switch reduces)",
            "t_AR = min(t_AR,ring, t_AR,tree, t_AR,NVLS)",
            "t_send = α + β + S ÷ B   (β_nvl and B_nvl if the peer shares the node, else β_net \
             and one rail's B_net)",
            "n = 1 or S = 0 ⇒ t = 0",
            "busbw = S × (n − 1) ÷ n ÷ t (AllGather, ReduceScatter);  S × 2 × (n − 1) ÷ n ÷ t \
             (AllReduce)",
        ],
        constants: &[
            "NVLINK_EFFICIENCY",
            "NETWORK_EFFICIENCY",
            "NCCL_BASE_LATENCY_US",
            "NCCL_NVLINK_STEP_US",
            "NCCL_NETWORK_STEP_US",
            "NCCL_NVLINK_TREE_HOP_US",
            "NCCL_NETWORK_TREE_HOP_US",
            "RING_STEP_AT_SCALE_FACTOR",
            "NVLS_EFFICIENCY",
        ],
    },
    Section {
        id: "parallelism",
        title: "Parallelism: who talks to whom",
        paragraphs: &[
            "dp = GPUs ÷ (tp × pp × cp) replicas each run m micro-batches per step. Ranks are \
             laid out TP innermost, then CP; the paper's stack puts PP inside the node next and \
             data parallelism across, the others put DP next and PP outermost. The data-parallel \
             shard group spans dp × cp ranks (CP ranks hold the same parameters), GPUs per node ÷ \
             tp (÷ pp as well, in the paper's placement) of them on each node. Layers that \
             divide evenly over the stages (over the chunks, interleaved) are held evenly, as \
             Megatron-LM splits them by default, so the last stage runs the head on top \
             of its share: a large vocabulary makes it the slowest (Yeung et al.'s baseline, 8 \
             stages of 4 layers of width 3072, loses from 48% MFU at a 32k vocabulary to 17% at \
             256k in sequences of 2,048 tokens, the model from 52% to 27%). Another count is split as a recipe must split it: \
             where the layers with the embedding and the loss, each counted as a layer, fill the \
             chunks, so (Megatron-Core's account_for_embedding_in_pipeline_split and \
             account_for_loss_in_pipeline_split, which NVIDIA's recipes set for Llama 3.1 405B's \
             126 layers and the Megatron-MoE model zoo for Qwen3 235B's 94: 16 stages of 8 layers with 7 on the first and the \
             last, 8 stages of 12 with 11); torchtitan spreads the layers and the two over its \
             stages' parts where the layers do not divide the chunks, the first parts one more; \
             otherwise the stages before the last share the layers evenly and the last holds as \
             many as balances the slowest stage. Where the head's stage holds fewer layers than \
             its chunks share evenly, it puts its larger chunks first and the smallest last, \
             beside the head (126 layers on 16 stages of 4 chunks: 2, 2, 2 and 1 with the \
             head).",
            "DDP AllReduces gradients once per step, and ZeRO-1 ReduceScatters them and \
             AllGathers the updated bf16 parameters once per step, in the stack's reduce type (2 \
             bytes for the paper, 4 for the others). FSDP without resharding after forward \
             gathers each layer's bf16 parameters in forward and ReduceScatters its gradients \
             in backward: every micro-batch in the paper's stack (ZeRO-2 semantics), once per \
             step in torchtitan's (its pipeline schedules keep parameters and accumulate \
             unsharded gradients). Full shard gathers each layer again in backward, every \
             micro-batch, and HSDP full-shards inside a node and AllReduces gradient shards \
             across nodes, one rank per node.",
            "TP runs two collectives per layer each way on 2 × T × h bytes of activations \
             (AllReduce, or AllGather plus ReduceScatter with sequence parallelism, which also \
             splits the hidden-sized element-wise work, stage sends and saved activations by \
             tp), repeated in backward by full recomputation. The forward's block. In the \
             backward, each column-parallel linear (QKV, the MLP's up projection) reduces its \
             input gradient; Megatron's layers (megatron's and the paper's \
             Megatron-inspired one) issue that reduction (the AllReduce, or the ReduceScatter) \
             before the linear's weight-gradient GEMM and wait for it after, so it shows only \
             where it outlasts that GEMM, which slows while both run; megatron-2021's runs (before \
             that overlap, or Megatron-DeepSpeed, which turns it off), torchtitan's DTensor and \
             DeepSpeed block on it, and so does a zero-bubble schedule, whose weight gradients \
             leave the backward pass. CP passes K/V blocks \
             round a ring of cp ranks beside each attention block, and PP sends activations \
             between stages; in GPipe and 1F1B a stage waits, in the fill and drain, for one \
             micro-batch through every other stage, v interleaved chunks divide that by v, and \
             plain 1F1B also waits in its steady state for the sends of each micro-batch's \
             round trip. The interleaved schedule takes its micro-batches through every chunk \
             in groups, as Megatron-Core does: groups of pp where the micro-batches come in \
             whole rounds of pp, otherwise the least group (up to 4 × pp) whose last one is \
             empty or holds at least pp, so that a step of 24 micro-batches on 16 stages runs \
             (Llama 3 405B ran such counts); a larger group warms up longer and holds more \
             activations. Zero-bubble ZB-H1 (Qi et al., ICLR 2024) splits each backward in \
             two: the input gradient (B), which the stage before waits for, and the weight \
             gradient (W, the GEMMs' second half), which nothing waits for; stage s runs 1F1B's \
             warm-up and defers each W by s micro-batches into the drain, where 1F1B left it \
             idle, so the bubble shrinks from (pp − 1)(F + B + W) to (pp − 1)(F + B − W) and \
             every stage holds pp micro-batches, the first stage's 1F1B peak. ZB-V (section 6 \
             of the same paper, in the order PyTorch's ScheduleZBVZeroBubble runs) gives each \
             stage two chunks in a V: stage s holds the model's s-th and (2pp − 1 − s)-th of \
             2pp chunks, so the forward runs down the stages and back up, turning on the last \
             stage without a send, and the first stage runs the output head; with equal passes \
             only the stages' staggered start (pp − 1 chunk passes) is left of the bubble. \
             DualPipeV (DualPipe cut in half, 2pp micro-batches or more) pairs one micro-batch's \
             forward with another's backward on that V, hiding MoE All-to-Alls behind the \
             partner's compute. The step timeline lays the schedule out pass by pass.",
        ],
        equations: &[
            "dp = GPUs ÷ (tp × pp × cp);  m = global_batch ÷ (dp × b)",
            "TP group: n = tp, r = min(tp, GPUs per node)",
            "DP shard group: n = dp × cp, r_dp = clamp(⌊GPUs per node ÷ (tp × pp_in)⌋, 1, dp × cp); \
             pp_in = pp (paper's placement) or 1",
            "stages: L_s = n_last = L ÷ pp where pp (pp × v interleaved) divides L; else L_s = \
             ⌈(L − n_last) ÷ (pp − 1)⌉ before the last, n_last on it, n_last minimising max(L_s, \
             n_last + head ÷ layer)",
            "P_layer = N_layer ÷ tp;  P_root = V × h × (2 if pp = 1, else 1) ÷ tp;  P_stage = L_s \
             × P_layer + P_root",
            "t_TP,one = t_AR(2 × T × h), or t_AG(2 × T × h) + t_RS(2 × T × h) with sequence \
             parallelism   (one of the two per layer each way)",
            "t_TP = m × L_s × n_TP × t_TP,one;  n_TP = 4 (2 fwd, 2 bwd), 6 with full \
             recomputation",
            "TP exposed per layer = 2 × t_TP,one (fwd) + 2 × t_AG (bwd, sequence parallelism) + \
             Σ exposed(t_red, t_col) over QKV and the up projection, where t_red is the \
             AllReduce (or the ReduceScatter) and t_col the linear's GEMM (Megatron's layers; \
             all four block under torchtitan, DeepSpeed and a zero-bubble schedule)",
            "CP: S_kv = 4 × T × max(kv_heads ÷ tp, 1) × h ÷ heads;  t_send over NVLink if tp × cp \
             ≤ GPUs per node",
            "CP per layer: (cp − 1) sends beside t_attn ÷ cp each (fwd);  (cp − 1) double sends \
             beside 2.5 × t_attn ÷ cp each (bwd)",
            "FSDP per layer: t_AG(2 × P_layer) in fwd;  t_RS(r × P_layer) in bwd (r the stack's \
             reduce bytes), per micro-batch or once per step as the stack syncs; full shard and \
             HSDP also t_AG(2 × P_layer) again in bwd, per micro-batch",
            "FSDP per pass, once: t_AG(2 × P_root) and t_RS(2 × P_root)",
            "DDP: t_AR(r × P_stage) over the DP group;  ZeRO-1: t_RS(r × P_stage) + t_AG(2 × \
             P_stage)",
            "HSDP: FSDP full shard over r_dp ranks in one node, then t_AR(r × P_stage ÷ r_dp) \
             over dp × cp ÷ r_dp ranks, one per node;  per layer in bwd: max(t_AG + t_RS, \
             t_AR ÷ L_s) beside busy_bwd",
            "PP: S_pp = 2 × T × h ÷ sp;  2 × m × v sends per step, 2 × (pp − 1) of them exposed \
             in the fill and drain;  NVLink if tp × cp × pp ≤ GPUs per node (paper's placement) \
             or tp × cp × dp < GPUs per node",
            "bubble = (Σ_stages t_mb − t_mb,this) ÷ v;  v = virtual stages (interleaved), else 1",
            "ZB-H1: t_W = L_s × t_gemm as its own pass;  bubble = (pp − 1)(t_F + t_B − t_W)",
            "ZB-V, DualPipeV: 2 chunks of L_s ÷ 2 layers;  bubble = (pp − 1) × t_chunk pass",
            "1F1B steady state: + max(0, Σ_stages t_mb + 2 (pp − 1) t_send − pp × max t_mb) × \
             (m − 1) ÷ pp of exposed sends",
            "t_mb = L_s × (busy_fwd + busy_bwd) + t_head,fwd (last stage) + t_head,bwd + the \
             data-parallel exposure and stretch of one micro-batch (when the stack syncs once \
             per step, outside t_mb)",
        ],
        constants: &["FSDP_REDUCE_BYTES"],
    },
    EXPERTS,
    Section {
        id: "overlap",
        title: "Overlap: what hides behind what",
        paragraphs: &[
            "TP collectives block, except the input-gradient reductions Megatron's layers run \
             beside the weight gradients; CP sends, steady-state pipeline sends and all data-parallel \
             traffic run beside compute, and only what outlasts it is exposed. FSDP prefetches \
             one layer: each layer's gather (and in backward its scatter) runs beside one layer's \
             busy time, which counts its compute, the TP collectives that show and its CP \
             exposure; the first gather, the last scatter and the embedding tables' gather and \
             scatter have nothing to hide behind.",
            "DDP and ZeRO-1 gradients go out in L_s buckets behind one micro-batch's backward \
             (ZeRO-1's parameter gather behind a forward): the last bucket is always exposed, \
             and the rest hides behind L_s − 1 layers. HSDP's cross-node AllReduce runs as \
             PyTorch's hybrid sharding issues it: each layer's share on its own stream right \
             after that layer's in-node ReduceScatter, over the network while the gathers and \
             scatters use NVLink, so a layer's backward traffic takes the longer of the two and \
             both hide behind the same compute once. More compute can then never shorten a \
             step.",
            "Overlap is not free: an NCCL kernel holds 24 SMs, so compute beside it runs at 1 − σ \
             of its speed (σ = 24 ÷ 132 ≈ 0.18 on H100) and the lost time is charged as \
             contention. A data-parallel collective beside compute also gets only a share of \
             the GPU's NVLink bus rate: 0.15 under the paper's stack (fitted on F1 and F10), 0.380 \
             under the others (fitted on the published runs); the network rate is not scaled, so \
             a smaller per-GPU shard (more TP or PP) shortens it. A group inside one node gets \
             0.3 of the rate instead. The what-if \"Cross-node data-parallel traffic under \
             compute\" sets the rate for a cluster of your own. Exposure is reported twice: on \
             the critical path (what faster communication would save) and as a trace shows it, \
             the paper's measure, which also counts pipeline stages waiting in their receives.",
        ],
        equations: &[
            "σ = min(24 ÷ SMs, 0.5)",
            "overlap(c, w): w′ = w ÷ (1 − σ);  c ≥ w′ ⇒ exposed = c − w′, stretch = w′ − w;  else \
             exposed = 0, stretch = σ × c",
            "exposed in a trace (the paper's measure) = Σ exposed communication + bubble: \
             kernels waiting in a receive during the pipeline's fill and drain count too",
            "busy_fwd = t_fwd + 2 × t_TP,one + CP exposure and stretch (fwd)",
            "busy_bwd = t_bwd + t_re + TP exposed and stretch (bwd) (+ 2 × t_TP,one with full \
             recomputation) + CP exposure and stretch (bwd)",
            "FSDP exposed per pass = t_AG + t_AG,root + (L_s − 1) × exposed(t_AG, \
             busy_fwd) + t_RS + t_RS,root + (L_s − 1) × exposed(t_RS [+ t_AG], busy_bwd)",
            "bucketed c: exposed = c ÷ L_s + exposed(c × (L_s − 1) ÷ L_s, (L_s − 1) × busy)",
            "data-parallel links across nodes: B_nvl × share (H100 paper stack: 54.0 GB/s) or the \
             what-if's rate, B_net unchanged; inside one node: min(B_nvl, max(B_nvl × 0.3, that \
             rate))",
            "t_step = compute + contention + host waits + bubble + Σ exposed communication",
        ],
        constants: &[
            "NCCL_CHANNELS",
            "OVERLAP_BANDWIDTH_SHARE",
            "TUNED_OVERLAP_SHARE",
            "NVSWITCH_OVERLAP_SHARE",
        ],
    },
    MEMORY,
    Section {
        id: "power",
        title: "Power and energy",
        paragraphs: &[
            "A training GPU draws most of its power whether or not a compute kernel runs: clocks \
             stay up, NCCL kernels spin and HBM stays busy. The paper measures per-GPU power \
             falling only 5.87% (658 W to 620 W) while per-GPU throughput falls 37.22%.",
            "Power is therefore linear in u, the share of the step in which compute kernels run \
             (compute plus its contention stretch), from a floor of 0.78 to 0.78 + 0.17 of the \
             span from idle to TDP. Both constants were fitted together on the paper's 658 W at \
             128 H100s, 620 W at 2048 and the +30 W of tensor parallelism at 2048.",
            "Energy efficiency is tokens per joule of GPU energy: CPUs, NICs, switches and \
             cooling are not counted.",
        ],
        equations: &[
            "u = (compute + contention) ÷ t_step",
            "P_GPU = P_idle + (TDP − P_idle) × (0.78 + 0.17 × u)",
            "H100: P_GPU = 70 W + 630 W × (0.78 + 0.17 × u) ≈ 561 W + 107 W × u",
            "tokens/J = tokens/s ÷ (P_GPU × GPUs)",
        ],
        constants: &["POWER_FLOOR", "POWER_COMPUTE_SPAN"],
    },
    Section {
        id: "assumptions",
        title: "What the model leaves out",
        paragraphs: &[
            "The GEMM shape factor is measured on H100 and B200 (A100's is scaled from H100's \
             by the MMA rate per SM and the SM count; GB200's and GB300's from B200's), fp8's on \
             one matmul, and H200 and Blackwell (B200, GB200 and GB300 NVL72) are not fitted on \
             any run: they carry H100's GEMM efficiency (0.647; GB200 at 0.877 of GB300's, as \
             Azure's cuBLASLt tables measure the two, and B200, GB200's die at less power, at \
             GB200's rate per SM; FlashAttention-2's and cuDNN's attention \
             run at rates measured on H200, GB200 and GB300, B200 at GB200's) with \
             their own datasheet peaks, memory, links and power. An NVL72 rack is hosts of 4 \
             GPUs, each GPU with its own NIC, joined into one NVLink domain of 72: a tensor, \
             context, pipeline or data-parallel group inside the domain runs at NVLink's rate, \
             one across domains at the network's. Transformer Engine's fp8 recipes are one \
             recipe here: fp8 GEMMs at their measured share of bf16's, the quantisation kernels \
             of delayed scaling, the norm's output quantised by the norm itself. Current scaling \
             and MXFP8 quantise the norm's output apart, current scaling reads each tensor twice \
             and all-reduces each amax over the tensor-parallel group, and Hopper transposes a \
             gathered fp8 tensor with a kernel of its own; none of these is charged, and NVIDIA's \
             DGX Cloud tables run fp8 a few percent slower against bf16 at the same layout than \
             the model does (14 of 16 pairs), so an fp8 step is likely a few percent optimistic.",
            "There is no congestion, topology or straggler model beyond the fitted 1.4 times \
             slower ring step and the 0.15 share of NVLink for overlapped traffic, and these two \
             constants carry the model's main uncertainty (the published runs on the model page \
             show where it bites). Collectives of different kinds never \
             compete for links, and the slowest pipeline stage sets the step (the lighter ones \
             wait, which a trace counts as exposed only in the bubble).",
            "Data-parallel gradient traffic hides behind one micro-batch only, full sharding \
             gathers and scatters again for every micro-batch, and the input embedding lookup, data loading, \
             checkpoints and failures cost nothing. Memory is a sum of parts, not an allocator \
             trace: fragmentation beyond the 2 GiB reserve is not modelled. Under sequence \
             parallelism Megatron's layers also gather each column-parallel linear's input \
             again in backward, beside the input-gradient GEMM; that gather is not charged, \
             and an MoE layer's up-projection reduction hides behind nothing (the experts' \
             weight gradients are not counted as cover). Of Megatron-Core's recomputation \
             modules, moe and shared_experts (which rerun the All-to-All or the shared experts) \
             are not modelled; the explorer and the layout search use the three modes only. \
             Transformer Engine's tensor-parallel overlap (userbuffers, on in NVIDIA's dense \
             recipes) is not modelled either: the forward's tensor-parallel collectives block \
             (the validation page says why it is kept out).",
        ],
        equations: &[],
        constants: &[
            "GEMM_EFFICIENCY_H100",
            "GB200_SUSTAINED_SHARE",
            "KERNEL_OVERHEAD_US",
            "RING_STEP_AT_SCALE_FACTOR",
            "OVERLAP_BANDWIDTH_SHARE",
            "RUNTIME_RESERVE_GIB",
        ],
    },
];

#[cfg(test)]
#[path = "equations_tests.rs"]
mod tests;
