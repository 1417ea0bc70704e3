//! The model page's section on mixture-of-experts layers (a part of
//! [`super::SECTIONS`], kept apart for its length).

use super::Section;

/// Mixture of experts: shapes, FLOPs, expert parallelism, the All-to-All
/// and what the published runs show.
pub const EXPERTS: Section = Section {
    id: "experts",
    title: "Mixture of experts: expert parallelism and the All-to-All",
    paragraphs: &[
        "An MoE layer replaces the MLP with E routed experts (each an MLP of width f_e), of which a token goes to k, plus any shared experts every token passes through; DeepSeek-V3 keeps its first 3 layers dense, and Llama 4 Maverick puts its experts on every second layer (Scout on every layer). Layers are costed as their mean over the model, so the dense ones are spread over the stages. FLOPs count only the k routed experts and the shared ones, without the router or any padding, as NVIDIA's Megatron-Bridge tables count them, so an MoE model's MFU compares with theirs. DeepSeek-V3's latent attention runs its four low-rank projections as one GEMM of their size, and its scores over the query-key width with the rotary part (192) and the value width (128).",
        "Expert parallelism (EP) splits the experts over EP GPUs, folded over the same GPUs as tensor, context and data parallelism (Megatron-Core's parallel folding), so EP is not capped by DP; expert tensor parallelism (ETP) splits each expert, and what is left of a stage's GPUs is the expert data-parallel group, over which the experts' gradients and optimizer state are reduced and sharded. Each GPU sends its tokens' k routed copies to the experts' GPUs (dispatch) and gets them back (combine), forward and backward: an All-to-All inside the NVLink domain at NVLink's bus rate and across it at the network's (DeepEP measures 153-158 of H800's 200 GB/s per direction; NCCL's maintainers put All-to-All across nodes at one NIC's rate). The model counts it as blocking: exposed, its own kind in the breakdown and its own stream in the timeline.",
        "Each local expert's GEMM sees the tokens routed to it, tokens × k × EP ÷ E, and runs at the rate its shape reaches with a grouped GEMM's per-expert cost on top, fitted on DeepGEMM's grouped GEMMs. Each also pays a fixed time: a GEMM's 8 µs launch and tail, or under Megatron-Core 25 µs, as Transformer Engine's GroupedLinear issues one cuBLASLt GEMM per expert over several streams (the host time a profiled 128-expert run saved by issuing them from one C++ loop; TE's own benchmark puts it at 11 to 25 µs beside one grouped kernel), so many small experts per GPU cost more than their FLOPs. Under fp8 GroupedLinear also quantises each expert's operands one expert at a time, launched alone after the host's sync on tokens per expert at 8 µs each: three kernels each under current scaling (the amax, the scale and the cast) and MXFP8 (the zeroed scale buffers, the cast and the swizzle), 48 µs per expert each way (the same under fp4), and one under blockwise scaling, which computes each block's scale in the cast, 16 µs. NVIDIA's own fp8 MoE runs gain little over bf16 (Megatron-LM PR 5728: Qwen3 30B-A3B on 32 H100s at 242.9 TFLOP/s in blockwise fp8 against 240.5 in bf16; its maintainers call such runs 'mostly cast bound'); with blockwise scaling's one kernel an operand the model has that pair 3.6% faster in fp8 (10,263 against 9,905 tokens/s/GPU; charged current scaling's three it had it 8% slower). GPT-OSS's clamped SwiGLU runs as Megatron-Core runs it: its gate and linear halves clamped and concatenated by three eager kernels before the compiled activation (8 passes over each routed row's outputs), and its experts' second bias, which the grouped linear returns unapplied, added one expert at a time (6 passes over each routed row's hidden state, two kernels an expert); NeMo Automodel's DeepEP experts add both biases so; torchtitan's compiled blocks fuse them. Dropless routing runs at the pace of the most-loaded expert (the imbalance, 1 by default as the published benchmarks force balance); a capacity factor pads every expert to it. On published Megatron-Core MoE runs the model is still too fast by a time fixed per layer and micro-batch: in fp8, about 2.7 ms an MoE layer over NVIDIA's tables, a little less the more experts a GPU holds, larger where less is captured in CUDA graphs, and 6.3 to 8.4 ms on GB200 under DGX Cloud's Llama 4 Maverick recipe, which runs Megatron-Core's NCCL alltoall dispatcher at EP 64 (GPT-OSS's GB200 rows, in bf16, miss 4 to 10 ms). NVIDIA's notes on these stacks point to the host (a sync on tokens per expert before every dispatch, after which the experts' kernels are dispatched with the GPU waiting, and Transformer Engine's host time per op), which the model does not cost: scalescope validate prints each run's missing time and names the gap.",
    ],
    equations: &[
        "N_moe = E × k_mlp × h × f_e + shared × k_mlp × h × f_e + h × E   (one MoE layer's MLP; k_mlp = 3 for SwiGLU)",
        "N_active = k × k_mlp × h × f_e + shared × k_mlp × h × f_e   (what FLOPs count: 6 × N_active per token)",
        "EDP = tp × cp × dp ÷ (EP × ETP);  experts per GPU = E ÷ EP",
        "m_e = (T ÷ tp) × ETP × k × load × EP ÷ E   (tokens one local expert computes; load = imbalance, or the capacity factor)",
        "t_experts = (E ÷ EP) × Σ over (u × f_e ÷ ETP, h), (h, f_e ÷ ETP) of [2 × m_e × n × k ÷ (peak × η_gemm × σ(m_e, n, k)) × (1 + 56 ÷ m_e) + t_e]   (t_e = 25 µs under Transformer Engine's GroupedLinear, 8 µs elsewhere; backward twice)",
        "V = (T ÷ tp) × k × load × h × 2 B;  t_a2a = max(V × (d − 1) ÷ EP ÷ B_nvl, V × (EP − d) ÷ EP ÷ B_net) + α + β;  d = EP ranks inside the NVLink domain",
        "per MoE layer: forward 2 × t_a2a (dispatch, combine), backward 2 × t_a2a; permutation 4 passes over T ÷ tp × k × h; 9 kernels plus 2 per local expert (8 under fp8 with GroupedLinear, each quantisation kernel 8 µs, 4 under its blockwise scaling; 4 elsewhere, 2 µs)",
        "a clamped SwiGLU (GPT-OSS) where the stack clamps apart: + 8 passes over m_e × E ÷ EP × f_e ÷ ETP and 3 kernels; its experts' second bias added apart: + 6 passes over m_e × E ÷ EP × h and 2 × E ÷ EP + 1 kernels",
        "under fp8 and fp4, quantised: forward the routed tokens (m_e × E ÷ EP × h), the experts' activations and the shared experts' input; backward the experts' and shared experts' output gradients, each at n_q passes",
    ],
    constants: &[
        "GROUPED_GEMM_SETUP_TOKENS",
        "TE_GROUPED_GEMM_EXPERT_US",
        "TE_EXPERT_QUANTISE_KERNELS",
        "MOE_PERMUTE_PASSES",
        "MOE_KERNELS",
        "MOE_DISPATCH_BYTES",
        "CLAMPED_GLU_PASSES",
        "CLAMPED_GLU_KERNELS",
        "EXPERT_BIAS_PASSES",
    ],
};
