//! The campaign's random numbers, and the shapes of mixture-of-experts
//! models and latent attention it draws.

use scalescope_core::model::{Latent, Moe};

/// xorshift64*: small, fast and the same on every machine.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[usize::try_from(self.below(items.len() as u64)).unwrap_or(0)]
    }
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// Mostly small powers of two, sometimes anything (zero and huge too).
    pub(crate) fn count(&mut self, max_pow: u32) -> u32 {
        match self.below(60) {
            0 => 0,
            1 => u32::try_from(self.below(1 << 20)).unwrap_or(0),
            2 => u32::try_from(self.next() >> 32).unwrap_or(0),
            _ => 1 << self.below(u64::from(max_pow) + 1),
        }
    }
    /// A number in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A what-if value: plausible, or zero, negative, tiny, huge or not a number.
    pub(crate) fn what_if(&mut self) -> f64 {
        match self.below(12) {
            0 => 0.0,
            1 => -1.0,
            2 => f64::NAN,
            3 => 1e-300,
            4 => 1e30,
            _ => 1e-3 + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 5000.0,
        }
    }
}

/// Sometimes latent attention, of any ranks.
pub(crate) fn latent(r: &mut Rng) -> Option<Latent> {
    r.chance(10).then(|| Latent {
        q_rank: r.count(11),
        kv_rank: r.count(10),
        rope: r.count(7),
    })
}

/// Sometimes a mixture of experts, mostly well formed.
pub(crate) fn moe(r: &mut Rng) -> Option<Moe> {
    r.chance(30).then(|| Moe {
        experts: r.count(9),
        top_k: r.count(4),
        expert_ffn: r.count(13),
        shared: u32::try_from(r.below(3)).unwrap_or(0),
        first_dense: u32::try_from(r.below(4)).unwrap_or(0),
        // Mostly 1 to 3; now and then 0, which is refused by name.
        every: if r.chance(5) {
            0
        } else {
            1 + u32::try_from(r.below(3)).unwrap_or(0)
        },
        capacity: if r.chance(30) {
            Some(r.unit() * 3.0)
        } else {
            None
        },
        imbalance: if r.chance(90) {
            1.0 + r.unit()
        } else {
            r.unit() * 100.0 - 10.0
        },
    })
}
