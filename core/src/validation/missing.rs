//! Where the model is too fast on a published MoE run, how much time it
//! misses, put per MoE layer and micro-batch: the published step less the
//! model's, over the MoE layers of the stage that sets the step (its
//! layers times the model's MoE share) times the micro-batches each GPU
//! runs. The step also holds the pipeline's fill
//! and drain, data-parallel traffic and the optimizer, which this spreads
//! over the layers too: a few percent at these runs' global batches. A cost the model leaves out that is fixed
//! per layer (a host's dispatch, a kernel that does not shrink with the
//! tokens) shows as the same time whatever the micro-batch; one fixed per
//! local expert grows with the experts each GPU holds ([`per_expert`]).

use super::{Check, Graphs};
use crate::evaluate::evaluate_checked;
use crate::scenario::Precision;
use alloc::vec::Vec;
use serde::Serialize;

/// One MoE run's missing time.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Missing {
    /// The run's name.
    pub name: &'static str,
    /// Model over published, minus one.
    pub difference: f64,
    /// Routed experts each GPU holds (`experts / EP`).
    pub local_experts: u32,
    /// Sequences per micro-batch of the layout the model ran.
    pub micro_batch: u32,
    /// Matmul precision.
    pub precision: Precision,
    /// What its recipe captures in CUDA graphs, where read.
    pub graphs: Option<Graphs>,
    /// The model's step over layers times micro-batches, seconds.
    pub model: f64,
    /// Of it, the time the GPU waits on its host's dispatch.
    pub host: f64,
    /// The published step less the model's over the same, seconds
    /// (positive where the model is fast).
    pub missing: f64,
}

/// The missing time of each MoE run of `checks` that the model fits
/// (every metric here is a fixed amount of work over the step, so the
/// published step is the model's times `model / published`).
#[must_use]
fn moe_missing(checks: &[Check]) -> Vec<Missing> {
    checks
        .iter()
        .filter_map(|c| {
            let cfg = &c.run.config;
            let moe = cfg.model.moe?;
            let difference = c.difference()?;
            let mut cfg = *cfg;
            cfg.layout = c.layout?;
            let r = evaluate_checked(&cfg);
            // Per MoE layer: a model with dense layers between (Llama 4
            // Maverick's every second) misses on its MoE layers.
            let moe_layers = f64::from(r.stage_layers.max(1)) * cfg.model.moe_share().max(1e-9);
            let per = f64::from(r.micro_batches.max(1)) * moe_layers;
            Some(Missing {
                name: c.run.name,
                difference,
                local_experts: moe.experts / cfg.layout.parallel.ep.max(1),
                micro_batch: cfg.layout.micro_batch,
                precision: cfg.precision,
                graphs: c.run.graphs,
                model: r.step_time_s / per,
                host: r.breakdown.host.0 / per,
                missing: r.step_time_s * difference / per,
            })
        })
        .collect()
}

/// The missing time of the MoE runs of `checks` that Megatron-Core ran
/// and whose sources have a known gap, and of those the fp8 runs.
#[must_use]
pub fn megatron_moe_missing(checks: &[Check]) -> (Vec<Missing>, Vec<Missing>) {
    let gapped: Vec<Check> = checks
        .iter()
        .filter(|c| c.run.gap && c.run.stack == crate::stack::StackId::Megatron)
        .copied()
        .collect();
    let rows = moe_missing(&gapped);
    let fp8 = rows
        .iter()
        .filter(|r| r.precision == Precision::Fp8)
        .copied()
        .collect();
    (rows, fp8)
}

/// The least-squares line `missing = fixed + each × local_experts` through
/// `rows`: `(fixed, each)` in seconds, or `None` for fewer than two
/// distinct expert counts or a time that is not finite.
#[must_use]
pub fn per_expert(rows: &[Missing]) -> Option<(f64, f64)> {
    if rows.is_empty() || rows.iter().any(|r| !r.missing.is_finite()) {
        return None;
    }
    let n = rows.len() as f64;
    let mean = |f: &dyn Fn(&Missing) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let mx = mean(&|r| f64::from(r.local_experts));
    let my = mean(&|r| r.missing);
    let sxx: f64 = rows
        .iter()
        .map(|r| {
            let d = f64::from(r.local_experts) - mx;
            d * d
        })
        .sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = rows
        .iter()
        .map(|r| (f64::from(r.local_experts) - mx) * (r.missing - my))
        .sum();
    let each = sxy / sxx;
    Some((my - each * mx, each))
}

/// The mean missing time of `rows` for each CUDA graph scope their
/// recipes set, in [`Graphs`]' order: `(scope, runs, mean seconds)`, the
/// scopes no row sets left out.
#[must_use]
pub fn by_graphs(rows: &[Missing]) -> Vec<(Graphs, usize, f64)> {
    [
        Graphs::Eager,
        Graphs::RouterPreprocess,
        Graphs::AttnRouterPreprocess,
    ]
    .into_iter()
    .filter_map(|scope| {
        let (n, sum) = rows
            .iter()
            .filter(|r| r.graphs == Some(scope))
            .fold((0usize, 0.0), |(n, sum), r| (n + 1, sum + r.missing));
        (n > 0).then(|| (scope, n, sum / n as f64))
    })
    .collect()
}
