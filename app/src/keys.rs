//! The one spelling of each choice control's values, shared by the select
//! elements and the URL: `fsdp_full`, `1f1b`, `selective`, ... (the same
//! names the core's scenario files use).

use crate::state::Scaling;
use scalescope_core::model::Mlp;
use scalescope_core::scenario::{DataParallel, Precision, Recompute, Schedule};
use scalescope_core::stack::StackId;

/// A choice with a fixed set of string keys.
pub trait Key: Sized + Copy + 'static {
    /// Every value with its key.
    const ALL: &'static [(Self, &'static str)];

    /// This value's key.
    fn key(self) -> &'static str;

    /// The value a key names, if any.
    #[must_use]
    fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, k)| *k == key).map(|(v, _)| *v)
    }
}

macro_rules! keys {
    ($t:ty { $($v:path => $k:literal),+ $(,)? }) => {
        impl Key for $t {
            const ALL: &'static [(Self, &'static str)] = &[$(($v, $k)),+];
            fn key(self) -> &'static str {
                match self {
                    $($v => $k),+
                }
            }
        }
    };
}

keys!(DataParallel {
    DataParallel::Ddp => "ddp",
    DataParallel::Zero1 => "zero1",
    DataParallel::Fsdp => "fsdp",
    DataParallel::FsdpFull => "fsdp_full",
    DataParallel::Hsdp => "hsdp",
});
keys!(Schedule {
    Schedule::Gpipe => "gpipe",
    Schedule::OneFOneB => "1f1b",
    Schedule::Interleaved => "interleaved",
    Schedule::ZeroBubbleH1 => "zb-h1",
    Schedule::ZeroBubbleV => "zb-v",
    Schedule::DualPipeV => "dualpipev",
});
keys!(Recompute {
    Recompute::None => "none",
    Recompute::Selective => "selective",
    Recompute::Full => "full",
});
keys!(StackId {
    StackId::Paper => "paper",
    StackId::Megatron => "megatron",
    StackId::Megatron2021 => "megatron-2021",
    StackId::LlmFoundry => "llm-foundry",
    StackId::Torchtitan => "torchtitan",
    StackId::DeepSpeed => "deepspeed",
    StackId::DeepSpeed2021 => "deepspeed-2021",
});
keys!(Precision {
    Precision::Bf16 => "bf16",
    Precision::Fp16 => "fp16",
    Precision::Fp8 => "fp8",
    Precision::Fp4 => "fp4",
});
keys!(Scaling {
    Scaling::Weak => "weak",
    Scaling::Strong => "strong",
});
keys!(Mlp {
    Mlp::Swiglu => "swiglu",
    Mlp::Gelu => "gelu",
    Mlp::ClampedSwiglu => "clamped_swiglu",
});

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Key + PartialEq + core::fmt::Debug>() {
        for (v, k) in T::ALL {
            assert_eq!(v.key(), *k);
            assert_eq!(T::from_key(k), Some(*v));
        }
        assert_eq!(T::from_key("nonsense"), None);
    }

    #[test]
    fn every_key_round_trips() {
        round_trips::<DataParallel>();
        round_trips::<Schedule>();
        round_trips::<Recompute>();
        round_trips::<Precision>();
        round_trips::<StackId>();
        for (id, key) in StackId::ALL {
            assert_eq!(id.key(), *key, "the core's spelling");
        }
        round_trips::<Scaling>();
        round_trips::<Mlp>();
    }
}
