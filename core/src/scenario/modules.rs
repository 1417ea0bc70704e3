//! Megatron-Core's selective recomputation modules (`recompute_modules`):
//! which parts of a layer a `selective` recomputation drops after the
//! forward and reruns in the backward. NVIDIA's recipes name them
//! (Megatron-Bridge's `scripts/performance` configs: `mla_up_proj` for
//! DeepSeek-V3, `layernorm` and `moe_act` for GPT-OSS).

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One module (Megatron-Core 0.16's `transformer_config.py`; `moe` and
/// `shared_experts`, which rerun a layer's All-to-All or shared experts,
/// are not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Module {
    /// The core attention (scores, softmax, their product with the
    /// values): drops the score matrix where the stack materialises it.
    CoreAttn,
    /// The norms not fused into the linear after them (the pre-MLP norm of
    /// an MoE layer, which the router and experts share; both norms of a
    /// latent-attention layer): drops their outputs.
    Layernorm,
    /// Latent attention's up-projections and rotary embedding: drops the
    /// queries, keys, values and the latents' norm outputs, keeps the
    /// compressed latents.
    MlaUpProj,
    /// The dense MLP (of the dense layers only): keeps its input.
    Mlp,
    /// The routed experts' activation: drops its output, the second
    /// expert GEMM's input.
    MoeAct,
}

impl Module {
    /// Every module, in the order a file lists them.
    pub const ALL: [Self; 5] = [
        Self::CoreAttn,
        Self::Layernorm,
        Self::MlaUpProj,
        Self::Mlp,
        Self::MoeAct,
    ];

    /// The module as Megatron-Core and scenario files spell it.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::CoreAttn => "core_attn",
            Self::Layernorm => "layernorm",
            Self::MlaUpProj => "mla_up_proj",
            Self::Mlp => "mlp",
            Self::MoeAct => "moe_act",
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of [`Module`]s; empty (the default) is the model's own selective
/// recomputation. Written as a list of names (`["mla_up_proj"]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modules(u8);

impl Modules {
    /// No module.
    pub const NONE: Self = Self(0);

    /// The set of `modules`.
    #[must_use]
    pub const fn of(modules: &[Module]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < modules.len() {
            bits |= modules[i].bit();
            i += 1;
        }
        Self(bits)
    }

    /// Whether the set holds `module`.
    #[must_use]
    pub const fn has(self, module: Module) -> bool {
        self.0 & module.bit() != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The modules in the set, in [`Module::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Module> {
        Module::ALL.into_iter().filter(move |&m| self.has(m))
    }
}

impl Serialize for Modules {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Modules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(Names)
    }
}

/// Reads a list of module names into their set, without collecting them.
struct Names;

impl<'de> Visitor<'de> for Names {
    type Value = Modules;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a list of recomputation modules")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut names: A) -> Result<Modules, A::Error> {
        let mut set = Modules::NONE;
        while let Some(m) = names.next_element::<Module>()? {
            set.0 |= m.bit();
        }
        Ok(set)
    }
}
