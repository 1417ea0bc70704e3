//! Kernels the host dispatches per layer: what bounds a layer's time by
//! its host where the GPU's kernels are shorter than their dispatch
//! ([`crate::phases::Scheduled`]).

use crate::calibration as cal;
use crate::phases::{activation, clamp_kernels};
use crate::scenario::{Config, Module, Recompute};

/// Kernels the host dispatches for one layer, forward and backward: the
/// stack's element-wise kernels, the GEMMs, attention, the TP collectives
/// and each CP ring step's kernels, and what recomputation reruns.
pub(crate) fn kernels(cfg: &Config) -> (f64, f64) {
    let p = cfg.layout.parallel;
    let tp_kernels = if p.tp > 1 { 2.0 } else { 0.0 };
    let cp_kernels = cal::CP_KERNELS_PER_STEP * (f64::from(p.cp) - 1.0);
    let (moe, quantise) = crate::experts::kernels(cfg);
    let elementwise = activation(cfg).1;
    let fwd = elementwise + cal::GEMMS_PER_LAYER + 1.0 + tp_kernels + cp_kernels + moe + quantise;
    let bwd = 2.0 * (elementwise + cal::GEMMS_PER_LAYER + moe)
        + quantise
        + 1.0
        + tp_kernels
        + 2.0 * cp_kernels
        + match cfg.layout.recompute {
            Recompute::Full => fwd,
            Recompute::Selective if !cfg.layout.recompute_modules.is_empty() => module_kernels(cfg),
            Recompute::Selective if cfg.stack.selective_reruns_matmuls => {
                elementwise + cfg.model.alternate_matmul_kernels()
            }
            Recompute::Selective => elementwise,
            Recompute::None => 0.0,
        };
    (fwd, bwd)
}

/// Kernels the recomputation modules of `cfg` launch again per layer (the
/// mean): the attention kernel; the unfused norms; the two up-projection
/// GEMMs, the rotary kernel and the latents' two norms; a dense layer's
/// norm, two GEMMs and activation; the experts' activation (each
/// activation with a clamped GLU's clamps where they run apart).
fn module_kernels(cfg: &Config) -> f64 {
    let modules = cfg.layout.recompute_modules;
    let share = cfg.model.moe_share();
    let clamps = clamp_kernels(cfg);
    let counts = [
        (Module::CoreAttn, 1.0),
        (Module::Layernorm, cfg.model.unfused_norms()),
        (Module::MlaUpProj, 5.0),
        (Module::Mlp, (4.0 + clamps) * (1.0 - share)),
        (Module::MoeAct, (1.0 + clamps) * share),
    ];
    counts
        .into_iter()
        .filter(|&(m, _)| modules.has(m))
        .map(|(_, n)| n)
        .sum()
}
