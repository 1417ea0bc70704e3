//! Tables `scalescope validate` prints beside its runs: the errors by
//! stack and by kind of run, the published scaling series, and the time
//! the model misses on the MoE runs it is fast on, per layer and
//! micro-batch.

use scalescope_core::validation::{self, Errors, Graphs};

/// The runs' absolute error by stack, fitted and held out, with and
/// without a known gap, and over the MoE and Blackwell runs.
pub(super) fn errors(all: &[validation::Check]) {
    let show = |label: &str, e: Errors| {
        outln!(
            "  {label:24} {:>3} runs  median {:>5.1}%  mean {:>5.1}%",
            e.runs,
            e.median * 100.0,
            e.mean * 100.0
        );
    };
    outln!("\nAbsolute error by stack:");
    for id in scalescope_core::stack::STACKS {
        let e = Errors::of(all, |c| c.run.stack == id);
        if e.runs > 0 {
            show(id.key(), e);
        }
    }
    show("all", Errors::of(all, |_| true));
    show("fitted on", Errors::of(all, |c| !c.run.held_out));
    show("held out", Errors::of(all, |c| c.run.held_out));
    show("without known gaps", Errors::of(all, |c| !c.run.gap));
    show(
        "held out, no known gap",
        Errors::of(all, |c| c.run.held_out && !c.run.gap),
    );
    show(
        "mixture-of-experts",
        Errors::of(all, |c| c.run.config.model.moe.is_some()),
    );
    // Blackwell: the GPUs with fp4 tensor cores.
    show(
        "Blackwell",
        Errors::of(all, |c| c.run.config.cluster.gpu.peak_fp4.0 > 0.0),
    );
}

/// The MoE runs of the sources with a known gap, each with the time per
/// layer and micro-batch the model misses, and the line through the fp8
/// runs against the experts each GPU holds: a cost fixed per local expert
/// shows as its slope, whatever the micro-batch.
pub(super) fn moe_missing(all: &[validation::Check]) {
    let (rows, fp8) = validation::megatron_moe_missing(all);
    outln!("\nMoE runs under Megatron-Core: time the model misses per MoE layer and micro-batch (published step less the model's, over MoE layers x micro-batches):");
    for r in &rows {
        outln!(
            "  {:36} {:+6.1}%  {:>3} experts/GPU  mb{}  {:4}  graphs {:30}  model {:6.2} ms (host-bound {:4.2})  missing {:+6.2} ms",
            r.name,
            r.difference * 100.0,
            r.local_experts,
            r.micro_batch,
            r.precision.key(),
            r.graphs.map_or("not read", Graphs::scope),
            r.model * 1e3,
            r.host * 1e3,
            r.missing * 1e3
        );
    }
    if let Some((fixed, each)) = validation::per_expert(&fp8) {
        outln!(
            "  fp8 runs ({}): missing = {:.2} ms + {:.3} ms per local expert (least squares)",
            fp8.len(),
            fixed * 1e3,
            each * 1e3
        );
    }
    // The same runs by what their recipe captures in CUDA graphs.
    for (scope, runs, mean) in validation::by_graphs(&fp8) {
        outln!(
            "  fp8 runs, graphs {} ({runs}): mean missing {:.2} ms",
            scope.scope(),
            mean * 1e3
        );
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
