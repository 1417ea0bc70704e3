//! Built-in models, each with its published shape and source, and the
//! constructors they are written with.

use super::{Latent, Mlp, Model, Moe, Window};

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
        head_dim: None,
        latent: None,
        moe: None,
        window: None,
    }
}

/// A mixture-of-experts Llama-style decoder: `(experts, top_k,
/// expert_ffn, shared, first_dense)`, dropless and balanced.
const fn moe(mut m: Model, head_dim: u32, e: (u32, u32, u32, u32, u32)) -> Model {
    m.head_dim = Some(head_dim);
    m.moe = Some(Moe {
        experts: e.0,
        top_k: e.1,
        expert_ffn: e.2,
        shared: e.3,
        first_dense: e.4,
        every: 1,
        capacity: None,
        imbalance: 1.0,
    });
    m
}

/// Mixture-of-experts presets, each from its Hugging Face config.json.
/// mistralai/Mixtral-8x7B-v0.1: 32 layers, hidden 4096, 32 heads, 8 KV,
/// 8 experts of 14336, top-2, vocab 32000.
pub const MIXTRAL_8X7B: Model = moe(
    llama(32, 4096, 32, 8, 14336, 32000),
    128,
    (8, 2, 14336, 0, 0),
);

/// mistralai/Mixtral-8x22B-v0.1: 56 layers, hidden 6144, 48 heads, 8 KV,
/// 8 experts of 16384, top-2, vocab 32768.
pub const MIXTRAL_8X22B: Model = moe(
    llama(56, 6144, 48, 8, 16384, 32768),
    128,
    (8, 2, 16384, 0, 0),
);

/// Qwen/Qwen3-30B-A3B: 48 layers, hidden 2048, 32 heads of 128, 4 KV,
/// 128 experts of 768, top-8, vocab 151936.
pub const QWEN3_30B_A3B: Model = moe(
    llama(48, 2048, 32, 4, 6144, 151_936),
    128,
    (128, 8, 768, 0, 0),
);

/// Qwen/Qwen3-235B-A22B: 94 layers, hidden 4096, 64 heads of 128, 4 KV,
/// 128 experts of 1536, top-8, vocab 151936.
pub const QWEN3_235B_A22B: Model = moe(
    llama(94, 4096, 64, 4, 12288, 151_936),
    128,
    (128, 8, 1536, 0, 0),
);

/// openai/gpt-oss-120b: 36 layers, hidden 2880, 64 heads of 64, 8 KV,
/// 128 experts of 2880, top-4, vocab 201088, its clamped SwiGLU with
/// biases, a 128-token sliding window on alternate layers (`sliding_window`
/// 128, `layer_types` alternating sliding and full).
pub const GPT_OSS_120B: Model = Model {
    mlp: Mlp::ClampedSwiglu,
    window: Some(Window {
        tokens: 128,
        full_every: 2,
        chunked: false,
    }),
    ..moe(
        llama(36, 2880, 64, 8, 2880, 201_088),
        64,
        (128, 4, 2880, 0, 0),
    )
};

/// deepseek-ai/DeepSeek-V3: 61 layers, hidden 7168, 128 heads; MLA with
/// q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v 128;
/// the first 3 layers dense (18432), then 256 routed experts of 2048,
/// top-8, one shared; vocab 129280. Multi-token prediction is left out.
pub const DEEPSEEK_V3: Model = Model {
    latent: Some(Latent {
        q_rank: 1536,
        kv_rank: 512,
        rope: 64,
    }),
    ..moe(
        llama(61, 7168, 128, 128, 18432, 129_280),
        128,
        (256, 8, 2048, 1, 3),
    )
};

/// `m` with its experts on every `every`-th layer, the rest dense.
const fn interleaved(mut m: Model, every: u32) -> Model {
    if let Some(mut e) = m.moe {
        e.every = every;
        m.moe = Some(e);
    }
    m
}

/// `m` with Llama 4's chunked attention: chunks of 8192 keys on three
/// layers of four, the fourth (no rotary embedding) over the whole
/// context (`attention_chunk_size`, `no_rope_layers`).
const fn chunked(mut m: Model) -> Model {
    m.window = Some(Window {
        tokens: 8192,
        full_every: 4,
        chunked: true,
    });
    m
}

/// Llama 4's decoder: 48 layers, hidden 5120, 40 heads of 128, 8 KV, a
/// dense MLP of 16384, vocab 202048.
const LLAMA4: Model = llama(48, 5120, 40, 8, 16384, 202_048);

/// meta-llama/Llama-4-Scout-17B-16E: 16 experts of 8192, top-1, one
/// shared expert, on every layer; chunked attention.
pub const LLAMA4_SCOUT: Model = chunked(moe(LLAMA4, 128, (16, 1, 8192, 1, 0)));

/// meta-llama/Llama-4-Maverick-17B-128E: Scout's shape with 128 experts
/// on every second layer (`interleave_moe_layer_step` 2) and the dense
/// MLP on the others.
pub const LLAMA4_MAVERICK: Model = chunked(interleaved(moe(LLAMA4, 128, (128, 1, 8192, 1, 0)), 2));

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
            head_dim: None,
            latent: None,
            moe: None,
            window: None,
        },
    },
    Preset {
        id: "mixtral-8x7b",
        name: "Mixtral 8x7B",
        model: MIXTRAL_8X7B,
    },
    Preset {
        id: "mixtral-8x22b",
        name: "Mixtral 8x22B",
        model: MIXTRAL_8X22B,
    },
    Preset {
        id: "qwen3-30b-a3b",
        name: "Qwen3 30B-A3B",
        model: QWEN3_30B_A3B,
    },
    Preset {
        id: "qwen3-235b-a22b",
        name: "Qwen3 235B-A22B",
        model: QWEN3_235B_A22B,
    },
    Preset {
        id: "gpt-oss-120b",
        name: "GPT-OSS 120B",
        model: GPT_OSS_120B,
    },
    Preset {
        id: "llama4-scout",
        name: "Llama 4 Scout 109B",
        model: LLAMA4_SCOUT,
    },
    Preset {
        id: "llama4-maverick",
        name: "Llama 4 Maverick 400B",
        model: LLAMA4_MAVERICK,
    },
    Preset {
        id: "deepseek-v3",
        name: "DeepSeek-V3 671B",
        model: DEEPSEEK_V3,
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
