//! Memory per GPU against the data-parallel (FSDP) group size.

use super::{Controls, Outcome, Scaling};
use scalescope_core::memory::{self, Memory};

/// Memory per GPU at one data-parallel group size.
#[derive(Clone, Copy, Debug)]
pub struct MemoryPoint {
    /// Data-parallel (FSDP) group size.
    pub group: u32,
    /// Memory by part.
    pub memory: Memory,
}

/// Memory per GPU of the current layout as its data-parallel group grows
/// from 1 to the current size (or 64, whichever is larger). Under weak
/// scaling each group keeps the current batch per replica, as the other
/// charts do when GPUs are added; under strong scaling the global batch
/// stays, so smaller groups accumulate more micro-batches.
pub(super) fn memory_points(c: &Controls, current: &Outcome) -> Vec<MemoryPoint> {
    let Ok(mut cfg) = c.scenario_at(c.nodes, c.gpu).resolve() else {
        return Vec::new();
    };
    if let Ok((layout, _)) = current {
        cfg.layout = *layout;
    }
    let p = cfg.layout.parallel;
    let mp = p.tp.saturating_mul(p.pp).saturating_mul(p.cp).max(1);
    let top = cfg.dp().max(64);
    let per_replica = cfg.global_batch / cfg.dp().max(1);
    (0..=20)
        .map(|k| 1_u32 << k)
        .take_while(|&g| g <= top)
        .map(|g| {
            let mut at = cfg;
            let gpus = g.saturating_mul(mp);
            if gpus >= cfg.cluster.gpus_per_node {
                at.cluster.nodes = gpus / cfg.cluster.gpus_per_node;
            } else {
                at.cluster.nodes = 1;
                at.cluster.gpus_per_node = gpus;
            }
            if c.scaling == Scaling::Weak {
                at.global_batch = per_replica.saturating_mul(g);
            }
            MemoryPoint {
                group: g,
                memory: memory::per_gpu(&at),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::state::{compute, Controls, Scaling};

    #[test]
    fn memory_falls_as_the_fsdp_group_grows() {
        let v = compute(&Controls::default());
        let totals: Vec<f64> = v.memory.iter().map(|m| m.memory.total().0).collect();
        assert!(totals.windows(2).all(|w| w[1] <= w[0]));
        assert!(totals[0] > totals[totals.len() - 1]);
    }

    /// Paper Figure 14: each doubling of the FSDP group saves less than the
    /// one before. Under weak scaling the batch per replica stays, so no
    /// group pays for gradient accumulation the current layout does not do.
    #[test]
    fn memory_savings_diminish_as_the_fsdp_group_grows() {
        let c = Controls::default();
        assert_eq!(c.scaling, Scaling::Weak);
        let v = compute(&c);
        let totals: Vec<f64> = v.memory.iter().map(|m| m.memory.total().0).collect();
        assert!(totals.len() >= 3);
        for w in totals.windows(3) {
            let (first, second) = (w[0] - w[1], w[1] - w[2]);
            assert!(second <= first + 1e-9, "savings grew: {totals:?}");
        }
    }
}
