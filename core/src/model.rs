//! Decoder-only transformers: presets and custom shapes, with parameter and
//! FLOP counts.
//!
//! FLOPs per token follow the PaLM convention (Chowdhery et al. 2023,
//! appendix B), which the paper cites for MFU: `6 N + 12 L h s`, where `N`
//! counts every matmul parameter (all layers and the output head, not the
//! input embedding table) and the attention term is not halved for the
//! causal mask.

use serde::{Deserialize, Serialize};

mod presets;
pub use presets::*;

/// The MLP block's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mlp {
    /// Gated SiLU (Llama): three matrices of `hidden x ffn`.
    Swiglu,
    /// Plain GeLU (GPT-3): two matrices of `hidden x ffn`.
    Gelu,
    /// GPT-OSS's gated unit: three matrices as SwiGLU, its gate clamped
    /// at 7 through `x·σ(1.702x)`, its linear half clamped to ±7 and
    /// offset by one, and a bias on every linear (the experts' too).
    ClampedSwiglu,
}

impl Mlp {
    /// Whether the MLP is gated: its first GEMM writes a gate and an up
    /// projection, each `ffn` wide.
    #[must_use]
    pub fn gated(self) -> bool {
        self != Self::Gelu
    }

    /// Whether an MoE model of it has biases on its experts' linears
    /// (GPT-OSS's), which a stack may add apart from its GEMMs.
    #[must_use]
    pub fn biased_experts(self) -> bool {
        self == Self::ClampedSwiglu
    }
}

/// A decoder-only transformer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Transformer blocks.
    pub layers: u32,
    /// Model (residual stream) width.
    pub hidden: u32,
    /// Attention heads.
    pub heads: u32,
    /// Key/value heads (equal to `heads` without grouped-query attention).
    pub kv_heads: u32,
    /// MLP inner width.
    pub ffn: u32,
    /// Vocabulary size.
    pub vocab: u32,
    /// MLP kind.
    pub mlp: Mlp,
    /// Width of one attention head where it is not `hidden / heads`
    /// (Qwen3, GPT-OSS: 128 and 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    /// Multi-head latent attention's low-rank projections (DeepSeek-V3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latent: Option<Latent>,
    /// Mixture-of-experts MLP layers; dense without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moe: Option<Moe>,
    /// Layers whose attention sees a window of the keys: a sliding one
    /// (GPT-OSS's alternate layers) or chunks (Llama 4's three layers of
    /// four); every layer attends to the whole causal context without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
}

/// Windowed attention on a model's layers: each query attends to the last
/// `tokens` keys (a sliding window), or to the keys before it in its own
/// chunk of `tokens` (`chunked`, Llama 4's `attention_chunk_size`), but
/// on every `full_every`-th layer, which attends to the whole context
/// (Megatron-Core's `window_attn_skip_freq`; 0: no such layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Window {
    /// Keys each query sees (sliding), or the chunk's length (chunked).
    pub tokens: u32,
    /// The period of the full-attention layers (0: every layer windowed).
    pub full_every: u32,
    /// Chunks of `tokens`, each causal within, rather than a sliding window.
    #[serde(default, skip_serializing_if = "is_false")]
    pub chunked: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_false(v: &bool) -> bool {
    !*v
}

impl Window {
    /// The causal context a windowed layer's work equals: a chunk is one,
    /// and a sliding window of `w` keys a query is the work of a causal
    /// context of `2w`.
    #[must_use]
    pub fn causal_context(self) -> f64 {
        let keys = f64::from(self.tokens);
        if self.chunked {
            keys
        } else {
            2.0 * keys
        }
    }

    /// The causal context a fused kernel that skips the keys outside the
    /// window works through: for a sliding window, its own and the rest of
    /// the `tile` keys of the tile it cuts; a chunk's tiles are whole.
    #[must_use]
    pub fn kernel_context(self, tile: f64) -> f64 {
        if self.chunked {
            self.causal_context()
        } else {
            2.0 * (f64::from(self.tokens) + tile)
        }
    }

    /// The share of `layers` layers that have the window.
    #[must_use]
    pub fn share(self, layers: u32) -> f64 {
        let full = layers.checked_div(self.full_every).unwrap_or(0);
        f64::from(layers - full) / f64::from(layers.max(1))
    }
}

/// Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values
/// pass through low-rank latents, and each head's query and key carry a
/// rotary part beside `head_dim`. Costed by its projections' total size:
/// the four down- and up-projections run as one GEMM of their parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Latent {
    /// Query latent rank (1536 in DeepSeek-V3).
    pub q_rank: u32,
    /// Key/value latent rank (512).
    pub kv_rank: u32,
    /// Rotary width per head of queries and keys (64).
    pub rope: u32,
}

/// A mixture-of-experts MLP: each token goes to `top_k` of `experts`
/// routed experts (and through the `shared` experts), each an MLP of
/// `expert_ffn`; the first `first_dense` layers keep the dense MLP of
/// `ffn`, and after them every `every`-th layer has the experts (the
/// others keep the dense MLP).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Routed experts per token.
    pub top_k: u32,
    /// Inner width of one expert's MLP.
    pub expert_ffn: u32,
    /// Shared experts every token passes through (width `expert_ffn`).
    #[serde(default)]
    pub shared: u32,
    /// Leading layers with the dense MLP (3 in DeepSeek-V3).
    #[serde(default)]
    pub first_dense: u32,
    /// The period of the MoE layers after the first `first_dense`: 1 (all)
    /// by default, 2 in Llama 4 Maverick (`interleave_moe_layer_step`,
    /// Megatron-Core's `moe_layer_freq`). Of `n` layers after the dense
    /// ones, `n / every` rounded down have experts, as Hugging Face's
    /// Llama 4 places them (layers `every`, `2 × every`, ...).
    #[serde(default = "one_u32", skip_serializing_if = "is_one")]
    pub every: u32,
    /// Capacity factor: each expert takes at most this multiple of its
    /// even share of tokens, padded to it, the rest dropped. `None` is
    /// dropless routing, where the most-loaded expert sets the pace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<f64>,
    /// Load imbalance of dropless routing: the most-loaded expert's tokens
    /// over the mean. 1.0 by default, as the published benchmarks force
    /// balanced routing; a trained router runs at 1.1 to 1.5.
    #[serde(default = "one_f64")]
    pub imbalance: f64,
}

fn one_f64() -> f64 {
    1.0
}

fn one_u32() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_one(v: &u32) -> bool {
    *v == 1
}

impl Moe {
    /// Tokens an expert computes over its even share: the capacity factor
    /// (padded), or the imbalance (dropless).
    #[must_use]
    pub fn load(&self) -> f64 {
        self.capacity.unwrap_or(self.imbalance).max(1.0)
    }
}

impl Model {
    /// Width of one attention head.
    #[must_use]
    pub fn head_dim(&self) -> f64 {
        match self.head_dim {
            Some(d) => f64::from(d),
            None => f64::from(self.hidden) / f64::from(self.heads.max(1)),
        }
    }

    /// Width of the queries (and the attention's output): `heads * head_dim`.
    #[must_use]
    pub fn q_dim(&self) -> f64 {
        f64::from(self.heads) * self.head_dim()
    }

    /// Width of the key (or value) projection: `kv_heads * head_dim`.
    #[must_use]
    pub fn kv_dim(&self) -> f64 {
        f64::from(self.kv_heads) * self.head_dim()
    }

    /// Width attention's score and value products work over per token:
    /// the queries', or under latent attention the mean of the query-key
    /// width (with its rotary part) and the value width.
    #[must_use]
    pub fn attention_dim(&self) -> f64 {
        match self.latent {
            Some(l) => f64::from(self.heads) * (self.head_dim() + f64::from(l.rope) / 2.0),
            None => self.q_dim(),
        }
    }

    /// Matmul parameters of the attention block of one layer.
    #[must_use]
    pub fn attention_params(&self) -> f64 {
        let h = f64::from(self.hidden);
        let q = self.q_dim();
        match self.latent {
            Some(l) => {
                let (qr, kvr, rope) =
                    (f64::from(l.q_rank), f64::from(l.kv_rank), f64::from(l.rope));
                let heads = f64::from(self.heads);
                h * qr
                    + qr * heads * (self.head_dim() + rope)
                    + h * (kvr + rope)
                    + kvr * 2.0 * q
                    + q * h
            }
            None => 2.0 * h * q + 2.0 * h * self.kv_dim(),
        }
    }

    /// Latent attention's up-projection parameters (queries with their
    /// rotary part, keys and values from their latents); zero without
    /// latents.
    #[must_use]
    pub fn up_projection_params(&self) -> f64 {
        self.latent.map_or(0.0, |l| {
            let heads = f64::from(self.heads);
            f64::from(l.q_rank) * heads * (self.head_dim() + f64::from(l.rope))
                + f64::from(l.kv_rank) * 2.0 * self.q_dim()
        })
    }

    /// Matmul parameters of one layer (the mean over the layers) that a
    /// per-op selective recomputation reruns where it recomputes every
    /// second `aten.mm` of a layer in forward order, as torchtitan's `op`
    /// policy does (`activation_checkpoint.py`: "Saves output of all
    /// compute ops, except every second mm"): of the attention's
    /// projections (queries, keys, values and output; under latent
    /// attention the two down- and two up-projections and the output) and
    /// then a dense layer's MLP (gate, up and down; up and down without a
    /// gate), the second, fourth and so on. An MoE layer's routed experts
    /// run as grouped GEMMs the count skips; its router and shared experts
    /// are left out, and so is what the policy reruns beyond its count: a
    /// linear with a bias (`addmm`, neither counted nor saved) and, under
    /// sequence parallelism, the gathers of the projections' inputs.
    #[must_use]
    pub fn alternate_matmul_params(&self) -> f64 {
        let h = f64::from(self.hidden);
        let mlp = h * f64::from(self.ffn) * (1.0 - self.moe_share()) * self.alternate_mlp_matmuls();
        match self.latent {
            // The up-projections (2nd and 4th of five).
            Some(_) => self.up_projection_params() + mlp,
            // Keys (2nd) and output (4th).
            None => h * self.kv_dim() + self.q_dim() * h + mlp,
        }
    }

    /// A dense MLP's matmuls among every second of a layer, each `h x f`:
    /// after latent attention's five the gate (6th) and down (8th)
    /// projections of a gated MLP, or a GeLU MLP's up (6th); after four
    /// projections the up projection beside the gate (6th), or a GeLU
    /// MLP's down projection (6th).
    fn alternate_mlp_matmuls(&self) -> f64 {
        if self.latent.is_some() && self.mlp.gated() {
            2.0
        } else {
            1.0
        }
    }

    /// The matmuls of [`Self::alternate_matmul_params`] as kernels per layer
    /// (the mean): two of the attention's and a dense layer's MLP's.
    #[must_use]
    pub fn alternate_matmul_kernels(&self) -> f64 {
        2.0 + self.alternate_mlp_matmuls() * (1.0 - self.moe_share())
    }

    /// FLOPs per token at context `seq` a selective recomputation of
    /// `modules` runs again in its matmuls: the core attention's forward
    /// (`core_attn`, `2 L d s`), latent attention's up-projections
    /// (`mla_up_proj`) and the dense layers' MLP (`mlp`), each a forward of
    /// `2` per parameter.
    #[must_use]
    pub fn module_flops_per_token(&self, modules: crate::scenario::Modules, seq: u32) -> f64 {
        use crate::scenario::Module;
        let layers = f64::from(self.layers);
        let attention = if modules.has(Module::CoreAttn) {
            2.0 * self.attention_flops_units(seq).0
        } else {
            0.0
        };
        let mut params = 0.0;
        if modules.has(Module::MlaUpProj) {
            params += layers * self.up_projection_params();
        }
        if modules.has(Module::Mlp) {
            params += f64::from(self.layers - self.moe_layers()) * self.dense_mlp_params();
        }
        attention + 2.0 * params
    }

    /// Norms per layer (the mean over the layers) whose output no linear
    /// fuses in Megatron-Core: an MoE layer's pre-MLP norm, which the
    /// router and the experts share, and a latent-attention layer's input
    /// norm, which both down-projections read.
    #[must_use]
    pub fn unfused_norms(&self) -> f64 {
        self.moe_share() + if self.latent.is_some() { 1.0 } else { 0.0 }
    }

    /// Weight matrices of an MLP of this kind.
    fn mlp_mats(&self) -> f64 {
        if self.mlp.gated() {
            3.0
        } else {
            2.0
        }
    }

    /// Layers with a mixture-of-experts MLP (none in a dense model).
    #[must_use]
    pub fn moe_layers(&self) -> u32 {
        self.moe.map_or(0, |e| {
            self.layers.saturating_sub(e.first_dense) / e.every.max(1)
        })
    }

    /// Share of the layers with a mixture-of-experts MLP. Layers are costed
    /// as their mean, so the dense ones are spread over the stages.
    #[must_use]
    pub fn moe_share(&self) -> f64 {
        match self.moe {
            // Asked of every layer's cost: a dense model answers at once.
            None => 0.0,
            Some(_) => f64::from(self.moe_layers()) / f64::from(self.layers.max(1)),
        }
    }

    /// Matmul parameters of one MoE layer's MLP: `(routed, shared and
    /// router)`. Zero for a dense model.
    #[must_use]
    pub fn moe_mlp_params(&self) -> (f64, f64) {
        self.moe.map_or((0.0, 0.0), |e| {
            let h = f64::from(self.hidden);
            let one = self.mlp_mats() * h * f64::from(e.expert_ffn);
            (
                f64::from(e.experts) * one,
                f64::from(e.shared) * one + h * f64::from(e.experts),
            )
        })
    }

    /// Matmul parameters of the dense MLP.
    pub(crate) fn dense_mlp_params(&self) -> f64 {
        self.mlp_mats() * f64::from(self.hidden) * f64::from(self.ffn)
    }

    /// Matmul parameters of the MLP block of one layer, the mean over the
    /// layers: dense and MoE layers by their shares, every expert counted.
    #[must_use]
    pub fn mlp_params(&self) -> f64 {
        let f = self.moe_share();
        let (routed, rest) = self.moe_mlp_params();
        (1.0 - f) * self.dense_mlp_params() + f * (routed + rest)
    }

    /// Routed experts' parameters of one layer, the mean over the layers:
    /// what expert parallelism divides.
    #[must_use]
    pub fn expert_params(&self) -> f64 {
        self.moe_share() * self.moe_mlp_params().0
    }

    /// MLP parameters one token passes through in one layer, the mean over
    /// the layers: in an MoE layer its `top_k` routed experts and the
    /// shared ones, without the router (the convention of NVIDIA's
    /// Megatron-Bridge tables, so MoE MFU compares with theirs).
    #[must_use]
    pub fn active_mlp_params(&self) -> f64 {
        let f = self.moe_share();
        let active = self.moe.map_or(0.0, |e| {
            self.mlp_mats()
                * f64::from(self.hidden)
                * f64::from(e.expert_ffn)
                * f64::from(e.top_k + e.shared)
        });
        (1.0 - f) * self.dense_mlp_params() + f * active
    }

    /// All parameters of one layer (matmuls and the two norms).
    #[must_use]
    pub fn layer_params(&self) -> f64 {
        self.attention_params() + self.mlp_params() + 2.0 * f64::from(self.hidden)
    }

    /// Parameters of one embedding table (input or output).
    #[must_use]
    pub fn embedding_params(&self) -> f64 {
        f64::from(self.vocab) * f64::from(self.hidden)
    }

    /// Total parameters: layers, input embedding, output head, final norm.
    ///
    /// ```
    /// let m = scalescope_core::model::preset("llama2-7b").unwrap();
    /// assert!((m.params() / 1e9 - 6.74).abs() < 0.01);
    /// ```
    #[must_use]
    pub fn params(&self) -> f64 {
        f64::from(self.layers) * self.layer_params()
            + 2.0 * self.embedding_params()
            + f64::from(self.hidden)
    }

    /// Parameters one token passes through: every parameter but the routed
    /// experts it is not sent to.
    #[must_use]
    pub fn active_params(&self) -> f64 {
        self.params() - f64::from(self.layers) * (self.mlp_params() - self.active_mlp_params())
    }

    /// Model FLOPs per token of training (forward and backward) at context
    /// `seq`: `6N` for the matmuls and `6 L h s` for causal attention, the
    /// half of PaLM's `12 L h s` that a causal mask leaves to compute (a
    /// sliding-window layer's `s` the window's twice, a chunked layer's its
    /// chunk). MFU uses this count, so it
    /// can never exceed one.
    #[must_use]
    pub fn flops_per_token(&self, seq: u32) -> f64 {
        self.flop_counts(seq, crate::scenario::Recompute::None)[0]
    }

    /// Model FLOPs per token in the PaLM convention (Chowdhery et al.):
    /// `6N + 12 L h s`, attention counted without the causal mask. The
    /// paper, Megatron-LM, MosaicML and torchtitan quote MFU this way.
    #[must_use]
    pub fn flops_per_token_palm(&self, seq: u32) -> f64 {
        self.flop_counts(seq, crate::scenario::Recompute::None)[1]
    }

    /// FLOPs per token the kernels execute: the model FLOPs, FlashAttention's
    /// backward recompute of the scores (`7 L h s` for attention in all),
    /// and a full recomputation's second forward.
    #[must_use]
    pub fn executed_flops_per_token(&self, seq: u32, recompute: crate::scenario::Recompute) -> f64 {
        self.flop_counts(seq, recompute)[2]
    }

    /// The three counts per token at context `seq`, each term computed
    /// once: [`Self::flops_per_token`], [`Self::flops_per_token_palm`] and
    /// [`Self::executed_flops_per_token`] under `recompute`. `N` is the
    /// matmul parameters every token passes through: the layers' (in an
    /// MoE layer, the experts it is routed to) and the output head's.
    #[must_use]
    pub fn flop_counts(&self, seq: u32, recompute: crate::scenario::Recompute) -> [f64; 3] {
        let (attention, palm) = self.attention_flops_units(seq);
        let layers = f64::from(self.layers) * (self.attention_params() + self.active_mlp_params());
        let matmul = 6.0 * (layers + self.embedding_params());
        let redo = match recompute {
            crate::scenario::Recompute::Full => 2.0 * layers + 2.0 * attention,
            _ => 0.0,
        };
        [
            matmul + 6.0 * attention,
            matmul + 12.0 * palm,
            matmul + 7.0 * attention + redo,
        ]
    }

    /// `L d s`: the unit of attention FLOPs per token, `d` the width
    /// attention works over ([`Self::attention_dim`], `h` in most models),
    /// where each query's keys count `s ÷ 2` under a causal mask; then the
    /// same unit in the PaLM convention, which counts a full layer's `s`
    /// keys a query. A windowed layer's queries see at most the window's
    /// keys in both: a causal context of twice the window (Megatron-Bridge
    /// counts sliding-window layers so since its PR 3029), or the window;
    /// a chunked layer's, a causal context of the chunk, or the chunk.
    #[inline]
    pub(crate) fn attention_flops_units(&self, seq: u32) -> (f64, f64) {
        let s = f64::from(seq);
        let unit = f64::from(self.layers) * self.attention_dim();
        match self.window {
            None => (unit * s, unit * s),
            Some(w) => {
                let (share, keys) = (w.share(self.layers), f64::from(w.tokens));
                let full = s * (1.0 - share);
                (
                    unit * (full + w.causal_context().min(s) * share),
                    unit * (full + keys.min(s) * share),
                )
            }
        }
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
