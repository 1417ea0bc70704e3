//! Tables `scalescope validate` prints beside its runs: the published
//! scaling series, and the time the model misses on the MoE runs it is
//! fast on, per layer and micro-batch.

use scalescope_core::validation::{self, Graphs};

/// The MoE runs of the sources with a known gap, each with the time per
/// layer and micro-batch the model misses, and the line through the fp8
/// runs against the experts each GPU holds: a cost fixed per local expert
/// shows as its slope, whatever the micro-batch.
pub(super) fn moe_missing(all: &[validation::Check]) {
    let gapped: Vec<validation::Check> = all
        .iter()
        .filter(|c| c.run.gap && c.run.stack == scalescope_core::stack::StackId::Megatron)
        .copied()
        .collect();
    let rows = validation::moe_missing(&gapped);
    outln!("\nMoE runs under Megatron-Core: time the model misses per layer and micro-batch (published step less the model's, over layers x micro-batches):");
    for r in &rows {
        outln!(
            "  {:36} {:+6.1}%  {:>3} experts/GPU  mb{}  {:4}  graphs {:30}  model {:6.2} ms  missing {:+6.2} ms",
            r.name,
            r.difference * 100.0,
            r.local_experts,
            r.micro_batch,
            format!("{:?}", r.precision).to_lowercase(),
            r.graphs.map_or("not read", Graphs::scope),
            r.model * 1e3,
            r.missing * 1e3
        );
    }
    let quantised: Vec<validation::Missing> = rows
        .iter()
        .filter(|r| r.precision != scalescope_core::scenario::Precision::Bf16)
        .copied()
        .collect();
    if let Some((fixed, each)) = validation::per_expert(&quantised) {
        outln!(
            "  fp8 runs ({}): missing = {:.2} ms + {:.3} ms per local expert (least squares)",
            quantised.len(),
            fixed * 1e3,
            each * 1e3
        );
    }
    // The same runs split by whether their recipe captures anything in
    // CUDA graphs: the mean missing time of each side.
    for (label, eager) in [("nothing captured", true), ("graphs captured", false)] {
        let side: Vec<f64> = quantised
            .iter()
            .filter(|r| r.graphs.is_some_and(|g| (g == Graphs::Eager) == eager))
            .map(|r| r.missing)
            .collect();
        if !side.is_empty() {
            outln!(
                "  fp8 runs, {label} ({}): mean missing {:.2} ms",
                side.len(),
                side.iter().sum::<f64>() / side.len() as f64 * 1e3
            );
        }
    }
}

/// The published scaling series (the paper's per-GPU fall, asked of the
/// published runs): per-GPU change from the fewest GPUs to the most.
pub(super) fn scaling_series(all: &[validation::Check]) {
    let series = validation::series(all);
    outln!(
        "\nPer-GPU change as runs of one source and setting grow, fewest GPUs to most (holds within {:.0} points):",
        validation::SCALING_TOLERANCE * 100.0
    );
    for s in &series {
        outln!(
            "  {:58} {:>5} -> {:>5} GPUs  published {:+6.1}%  model {:>7}  [{}]",
            s.name,
            s.gpus.0,
            s.gpus.1,
            s.published * 100.0,
            s.model
                .map_or_else(|| String::from("no fit"), |m| format!("{:+.1}%", m * 100.0)),
            if s.holds() { "holds" } else { "misses" }
        );
    }
    let held = series.iter().filter(|s| s.holds()).count();
    outln!("  {held} of {} series within the tolerance", series.len());
}
