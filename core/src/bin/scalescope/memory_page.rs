//! The model page's section on memory per GPU (a part of
//! [`super::SECTIONS`], kept apart for its length).

use super::Section;

/// Memory per GPU: weights, gradients, optimizer state, activations and
/// buffers, part by part.
pub const MEMORY: Section = Section {
    id: "memory",
    title: "Memory per GPU",
    paragraphs: &[
        "Memory is a sum of parts for the fullest GPU: the first pipeline stage's activations \
         in flight, plus what the loss holds of the logits on the last stage (fp32 logits and \
         their gradient, 8 B a logit; Megatron-Core's cross-entropy 6 B, the bf16 logits and \
         one fp32 copy it overwrites in place; Transformer Engine's fused one, as NVIDIA's \
         Megatron-Bridge runs set it, 2 B), so it errs high when pp > 1. Replicated weights are bf16 (2 B per parameter) beside fp32 master weights \
         and two AdamW moments (12 B); fully sharded, the fp32 shard is both parameter and \
         master (4 B) beside the moments (8 B). Gradients are fp32 (4 B), except that DDP and \
         ZeRO-1 accumulate them in the buffer their reduction reads, bf16 (2 B, g below) \
         where the stack or the run reduces in bf16 (NeMo's grad_sync_dtype: bf16). Each is \
         divided by the shard count its data-parallel flavour allows. Buffers hold gathered layers or gradient buckets, and 2 GiB is reserved for the CUDA \
         context, NCCL and the allocator; a layout fits when the total is at most the GPU's \
         HBM capacity.",
        "Saved activations follow Korthikanti et al. 2022, adapted to a Llama block: with \
         FlashAttention no score matrix is kept, without it (megatron-2021) the scores take \
         5 × heads × s bytes per token. Hidden-sized tensors are replicated across TP ranks \
         unless sequence parallelism splits them, projections are split by TP. The queries \
         and the attention's output are heads × head_dim wide, which is wider than h in \
         Qwen3 and GPT-OSS. Under DeepSeek-V3's latent attention, each head's query and key \
         carry their rotary part, and the compressed latents and their norms' outputs are \
         split along the sequence as the hidden-sized tensors are (Megatron-Core's \
         multi_latent_attention.py). Selective recomputation drops the norms' outputs and \
         one MLP-sized tensor per token (and the scores); torchtitan's per-op policy drops \
         the keys and a dense layer's up projection's output too (under latent attention the \
         up-projections' outputs and the MLP's first). Full recomputation keeps only \
         each layer's input, plus one layer's working set while it is recomputed. Under fp8 \
         and fp4, Transformer Engine keeps a GEMM's input for its weight gradient as the \
         quantised copy (1 byte an element in fp8, 0.56 in NVFP4), not in bf16: q below (1 \
         under paper and torchtitan, whose fp8 linears, torchao's, save the bf16 tensors).",
        "Beyond the three modes, a scenario file can set two things NVIDIA's recipes set. \
         It may name Megatron-Core's recompute_modules (mla_up_proj for DeepSeek-V3, \
         layernorm and moe_act for GPT-OSS). Each module drops what its checkpoint drops \
         and reruns that part's forward: core_attn the scores; layernorm the outputs of the \
         norms no linear fuses (an MoE layer's pre-MLP norm, a latent-attention layer's \
         input norm); mla_up_proj the queries, keys, values and normed latents, rerunning \
         the up-projections' GEMMs; mlp a dense layer's MLP from its input; moe_act the \
         routed experts' activation output (and a clamped SwiGLU's concatenated halves). \
         Activation offloading (offload_layers, Megatron-Core's cpu_offloading_num_layers) \
         sends that many layers' saved activations to host memory after their forward and \
         brings them back for the backward; one layer's stays in flight. The copies run one \
         after another over the GPU's host link (PCIe Gen3 to Gen5 x16 on DGX nodes; \
         NVLink-C2C on GB200 and GB300, 900 GB/s both ways per Grace and its two GPUs, taken \
         as 225 GB/s a GPU each way). Transformer Engine waits for copy i only at the end of \
         layer w (i + 1) − 1, w = ⌊L ÷ n⌋, so the first copy runs beside w − 1 layers and each \
         later one beside w, and the reloads run as far ahead in the backward; the GPU waits \
         (host, in the breakdown) only where a copy outlasts those layers. As Megatron-Core, \
         it needs a pipeline of one stage and no recomputation.",
    ],
    equations: &[
        "P = P_stage;  D = dp × cp;  D_node = r_dp = clamp(⌊GPUs per node ÷ tp⌋, 1, D)",
        "DDP: weights 2P, gradients gP, optimizer 12P, buffers 2 × 25 M × 4 B  (g = 4 B, or 2 \
         B reduced in bf16)",
        "ZeRO-1: 2P, gP, 12P ÷ D, buffers 2 × 25 M × 4 B",
        "FSDP (no reshard after forward): 2P, 4P ÷ D (+ rP unsharded when m > 1 and the stack \
         syncs once per step, r the bytes it reduces in: FSDP2 accumulates them in its \
         reduce dtype), 12P ÷ D, buffers 8 × P_layer",
        "FSDP full shard: 4P ÷ D, 4P ÷ D, 8P ÷ D, buffers 12 × P_layer",
        "HSDP: 4P ÷ D_node, 4P ÷ D_node, 8P ÷ D_node, buffers 12 × P_layer",
        "a_none = a_selective + ((2h + r_q + r_kv) ÷ sp + f ÷ tp) × q   (elements per token \
         per layer; q = 1 in bf16, 0.5 in fp8, 0.28 in NVFP4)",
        "a_selective = 2h ÷ sp + ℓ + (w_q + w_o × q + w_kv + (k − 1 + c) × f) ÷ tp;  a_full = h ÷ sp;  \
         c = 2 for a clamped SwiGLU clamped apart (its halves' concatenated copy), else 0;  \
         under torchtitan's per-op policy − (w_kv ÷ 2 + f_d) ÷ tp (latent: − (w_q + w_kv + f_d) ÷ \
         tp; GeLU without latents: − w_kv ÷ (2 tp))",
        "with modules: a = a_none − Σ dropped;  layernorm: n_u × h ÷ sp × q (n_u the unfused \
         norms);  mla_up_proj: (w_q + w_kv) ÷ tp + ℓ × q;  mlp: d × h ÷ sp × q + ((k − 1 + c) + q) \
         × f_d ÷ tp (d the dense layers' share, f_d their MLP width times d);  moe_act: f_r ÷ tp \
         × (q + c) (f_r the routed experts' activation width)",
        "w_o = heads × d;  w_q = w_o, w_kv = 2 × kv_heads × d;  latent attention: w_q = heads × \
         (d + ρ), w_kv = w_q + w_o, ℓ = (r_q + r_kv) ÷ sp (d the head width, ρ the rotary \
         width, r_q and r_kv the latent ranks; ℓ = r_q = r_kv = 0 without latents)",
        "offloading n layers (pp = 1): activations = 2 B × a × T × (L − n) + max(logits, 2 B × a × \
         T);  wait per micro-batch = max(0, c − (w − 1) t) + (n − 1) × max(0, c − w t), c = 2 B \
         × a × T ÷ host link, t a layer's time, forward and backward",
        "in flight = 1 (pp = 1);  m (GPipe);  min(m, pp) (1F1B);  min(m, (2 (pp − 1) + (v − \
         1) × n + 1) ÷ v) (interleaved, first stage; n the group of micro-batches, pp in \
         whole rounds: pp + (pp − 1) ÷ v);  min(m, pp) on every stage (ZB-H1, ZB-V);  \
         min(m, pp + 1 ÷ 2) (DualPipeV)",
        "activations = 2 B × a × T × L_s × in flight (+ 2 B × a_none × T with full \
         recomputation) + 2 × 4 B × T × V ÷ tp",
        "total = weights + gradients + optimizer + activations + buffers + 2 GiB;  fits ⇔ \
         total ≤ HBM",
    ],
    constants: &["RUNTIME_RESERVE_GIB"],
};
