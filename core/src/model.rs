//! Decoder-only transformers: presets and custom shapes, with parameter and
//! FLOP counts.
//!
//! FLOPs per token follow the PaLM convention (Chowdhery et al. 2023,
//! appendix B), which the paper cites for MFU: `6 N + 12 L h s`, where `N`
//! counts every matmul parameter (all layers and the output head, not the
//! input embedding table) and the attention term is not halved for the
//! causal mask.

use serde::{Deserialize, Serialize};

/// The MLP block's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mlp {
    /// Gated SiLU (Llama): three matrices of `hidden x ffn`.
    Swiglu,
    /// Plain GeLU (GPT-3): two matrices of `hidden x ffn`.
    Gelu,
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
}

/// A named preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Identifier used in scenario files, e.g. `llama2-7b`.
    pub id: &'static str,
    /// Human-readable name.
    pub name: &'static str,
    /// The shape.
    pub model: Model,
}

/// A Llama-style decoder (SwiGLU MLP) of this shape.
pub(crate) const fn llama(
    layers: u32,
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    ffn: u32,
    vocab: u32,
) -> Model {
    Model {
        layers,
        hidden,
        heads,
        kv_heads,
        ffn,
        vocab,
        mlp: Mlp::Swiglu,
    }
}

/// Built-in models. Llama-2 1B is the paper's small model; its shape here
/// is the Llama-2-architecture TinyLlama 1.1B.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "llama2-1b",
        name: "Llama-2 1B",
        model: llama(22, 2048, 32, 4, 5632, 32000),
    },
    Preset {
        id: "llama2-7b",
        name: "Llama-2 7B",
        model: llama(32, 4096, 32, 32, 11008, 32000),
    },
    Preset {
        id: "llama2-13b",
        name: "Llama-2 13B",
        model: llama(40, 5120, 40, 40, 13824, 32000),
    },
    Preset {
        id: "llama2-70b",
        name: "Llama-2 70B",
        model: llama(80, 8192, 64, 8, 28672, 32000),
    },
    Preset {
        id: "llama3-8b",
        name: "Llama-3 8B",
        model: llama(32, 4096, 32, 8, 14336, 128256),
    },
    Preset {
        id: "llama3-70b",
        name: "Llama-3 70B",
        model: llama(80, 8192, 64, 8, 28672, 128256),
    },
    Preset {
        id: "llama3-405b",
        name: "Llama-3 405B",
        model: llama(126, 16384, 128, 8, 53248, 128256),
    },
    Preset {
        id: "gpt3-175b",
        name: "GPT-3 175B",
        model: Model {
            layers: 96,
            hidden: 12288,
            heads: 96,
            kv_heads: 96,
            ffn: 49152,
            vocab: 50257,
            mlp: Mlp::Gelu,
        },
    },
];

/// The preset named `id` (case-insensitive), as scenario files name it.
#[must_use]
pub fn find_preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

/// Looks a preset's model up by id (case-insensitive).
#[must_use]
pub fn preset(id: &str) -> Option<Model> {
    find_preset(id).map(|p| p.model)
}

impl Model {
    /// Width of one attention head.
    #[must_use]
    pub fn head_dim(&self) -> f64 {
        f64::from(self.hidden) / f64::from(self.heads.max(1))
    }

    /// Width of the key (or value) projection: `kv_heads * head_dim`.
    #[must_use]
    pub fn kv_dim(&self) -> f64 {
        f64::from(self.kv_heads) * self.head_dim()
    }

    /// Matmul parameters of the attention block of one layer.
    #[must_use]
    pub fn attention_params(&self) -> f64 {
        let h = f64::from(self.hidden);
        2.0 * h * h + 2.0 * h * self.kv_dim()
    }

    /// Matmul parameters of the MLP block of one layer.
    #[must_use]
    pub fn mlp_params(&self) -> f64 {
        let mats = match self.mlp {
            Mlp::Swiglu => 3.0,
            Mlp::Gelu => 2.0,
        };
        mats * f64::from(self.hidden) * f64::from(self.ffn)
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

    /// Matmul parameters every token passes through: the layers' and the
    /// output head's.
    #[must_use]
    pub fn matmul_params(&self) -> f64 {
        f64::from(self.layers) * (self.attention_params() + self.mlp_params())
            + self.embedding_params()
    }

    /// Model FLOPs per token of training (forward and backward) at context
    /// `seq`: `6N` for the matmuls and `6 L h s` for causal attention, the
    /// half of PaLM's `12 L h s` that a causal mask leaves to compute. MFU
    /// uses this count, so it can never exceed one.
    #[must_use]
    pub fn flops_per_token(&self, seq: u32) -> f64 {
        6.0 * self.matmul_params() + 6.0 * self.attention_flops_unit(seq)
    }

    /// Model FLOPs per token in the PaLM convention (Chowdhery et al.):
    /// `6N + 12 L h s`, attention counted without the causal mask. The
    /// paper, Megatron-LM, MosaicML and torchtitan quote MFU this way.
    #[must_use]
    pub fn flops_per_token_palm(&self, seq: u32) -> f64 {
        6.0 * self.matmul_params() + 12.0 * self.attention_flops_unit(seq)
    }

    /// FLOPs per token the kernels execute: the model FLOPs, FlashAttention's
    /// backward recompute of the scores (`7 L h s` for attention in all),
    /// and a full recomputation's second forward.
    #[must_use]
    pub fn executed_flops_per_token(&self, seq: u32, recompute: crate::scenario::Recompute) -> f64 {
        let attention = self.attention_flops_unit(seq);
        let layers = f64::from(self.layers) * (self.attention_params() + self.mlp_params());
        let redo = match recompute {
            crate::scenario::Recompute::Full => 2.0 * layers + 2.0 * attention,
            _ => 0.0,
        };
        6.0 * self.matmul_params() + 7.0 * attention + redo
    }

    /// `L h s`: the unit of attention FLOPs per token.
    fn attention_flops_unit(&self, seq: u32) -> f64 {
        f64::from(self.layers) * f64::from(self.hidden) * f64::from(seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_parameter_counts_match_published_sizes() {
        let cases = [
            ("llama2-1b", 1.10),
            ("llama2-7b", 6.74),
            ("llama2-13b", 13.0),
            ("llama2-70b", 69.0),
            ("llama3-8b", 8.03),
            ("llama3-70b", 70.6),
            ("llama3-405b", 405.9),
            ("gpt3-175b", 175.0),
        ];
        for (id, billions) in cases {
            let p = preset(id).unwrap().params() / 1e9;
            assert!((p - billions).abs() / billions < 0.02, "{id}: {p}");
        }
    }

    #[test]
    fn flops_per_token_is_six_n_plus_attention() {
        let m = preset("llama2-7b").unwrap();
        let f = m.flops_per_token(4096);
        // 6 x 6.608e9 matmul parameters + 6 x 32 x 4096 x 4096 (causal).
        assert!((f / 1e9 - 42.87).abs() < 0.05, "{f}");
        let palm = m.flops_per_token_palm(4096);
        assert!((palm / 1e9 - 46.09).abs() < 0.05, "{palm}");
    }
}
