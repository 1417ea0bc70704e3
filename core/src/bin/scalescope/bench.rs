//! `scalescope bench`: evaluations per second, a full search, the
//! timeline, the extreme pipelines and calibration, each timed; `bench
//! search` times only the search, for a profiler.

use scalescope_core::evaluate::evaluate;
use scalescope_core::findings;
use scalescope_core::scenario::Scenario;
use scalescope_core::search::{search as search_layouts, Objective, SearchSpace};
use scalescope_core::timeline;
use std::time::Instant;

/// Every benchmark, in turn.
pub(super) fn all() {
    evaluation(200);
    search(20);
    timeline();
    super::extremes::bench();
    super::calibrate::bench();
}

/// One evaluation without a pipeline (the example scenario over 1 to 64
/// nodes), timed over `runs` rounds of 2,000 (`bench eval --runs N` runs
/// only this, for a profiler).
pub(super) fn evaluation(runs: usize) {
    let mut c = Scenario::example()
        .to_config()
        .expect("the example scenario is valid");
    let mut samples = Vec::with_capacity(runs);
    let mut sink = 0.0;
    for _ in 0..runs.max(1) {
        let n = 2000;
        let t = Instant::now();
        for i in 0..n {
            // Set in place, as a slider sets the explorer's configuration:
            // the loop times the evaluation, not a copy of its input.
            c.cluster.nodes = 1 + (i % 64);
            c.global_batch = 16 * c.cluster.nodes;
            if let Ok(r) = evaluate(&c) {
                sink += r.step_time_s;
            }
        }
        samples.push(t.elapsed().as_secs_f64() / f64::from(n));
    }
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    outln!(
        "evaluation: median {:.3} us ({:.0} evaluations/s), p95 {:.3} us",
        median * 1e6,
        1.0 / median,
        samples[samples.len() * 95 / 100] * 1e6
    );
    std::hint::black_box(sink);
}

/// The search of Llama-2 70B on 2048 H100s, `runs` times (`bench search
/// --runs N` runs only this, for a profiler), then DeepSeek-V3's (an MoE
/// model, so expert degrees are searched too) on 2048 H100s.
pub(super) fn search(runs: usize) {
    let dense = findings::base(scalescope_core::hardware::H100, 256, "llama2-70b", 1024, 1);
    search_one("Llama-2 70B on 2048 H100 (global batch 1024)", &dense, runs);
    let mut moe = findings::base(scalescope_core::hardware::H100, 256, "llama2-70b", 4096, 1);
    moe.model = scalescope_core::model::DEEPSEEK_V3;
    moe.stack = scalescope_core::stack::Stack::of(scalescope_core::stack::StackId::Megatron);
    search_one(
        "DeepSeek-V3 on 2048 H100 (global batch 4096, megatron)",
        &moe,
        runs,
    );
    explorer_sweep(runs);
    explorer_grid(runs);
}

/// The explorer's sweep with the best-layout switch on, for Mixtral 8x7B
/// on GB200 NVL72 (its repaint budget's setting): one search of the
/// explorer's space at each of the sweep's nine node counts, two
/// sequences per GPU, `runs` times.
fn explorer_sweep(runs: usize) {
    use scalescope_core::scenario::DataParallel;
    let space = SearchSpace::explorer(DataParallel::Fsdp);
    let mut times = Vec::new();
    let mut evaluated = 0;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        evaluated = 0;
        for k in 0..=8 {
            let cfg = mixtral_on_gb200(1 << k);
            evaluated += search_layouts(&cfg, &space, Objective::Throughput, 1).evaluated;
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    outln!(
        "explorer sweep, Mixtral 8x7B on GB200 NVL72 (9 node counts, best layout): median {:.3} ms, {evaluated} layouts evaluated",
        times[times.len() / 2] * 1e3
    );
}

/// One search, `runs` times, its median time and best layout printed.
fn search_one(what: &str, base: &scalescope_core::scenario::Config, runs: usize) {
    let mut times = Vec::new();
    let mut result = search_layouts(base, &SearchSpace::full(), Objective::Throughput, 1);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        result = search_layouts(base, &SearchSpace::full(), Objective::Throughput, 1);
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let best = result.best.first().map(|c| {
        let p = c.layout.parallel;
        let experts = if p.ep > 1 || p.etp > 1 {
            format!(" EP{} ETP{}", p.ep, p.etp)
        } else {
            String::new()
        };
        format!(
            "TP{} PP{} CP{}{experts} {:?} mb{} {:?}, MFU {:.1}%",
            p.tp,
            p.pp,
            p.cp,
            p.dp,
            c.layout.micro_batch,
            c.layout.recompute,
            c.report.mfu * 100.0
        )
    });
    outln!(
        "search {what}: median {:.3} ms, {} layouts evaluated, {} out of memory; best {}",
        times[times.len() / 2] * 1e3,
        result.evaluated,
        result.out_of_memory,
        best.unwrap_or_default()
    );
}

/// The timeline of Llama-2 70B on 2048 H100s with PP 8 and 16 micro-batches.
fn timeline() {
    let mut cfg = findings::base(scalescope_core::hardware::H100, 256, "llama2-70b", 4096, 1);
    cfg.layout.parallel.tp = 8;
    cfg.layout.parallel.pp = 8;
    cfg.layout.micro_batch = 1;
    cfg.global_batch = 16 * cfg.dp();
    let mut times = Vec::new();
    let mut intervals = 0;
    for _ in 0..200 {
        let t = Instant::now();
        if let Ok(tl) = timeline::timeline(&cfg) {
            intervals = tl.intervals().count();
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    outln!(
        "timeline Llama-2 70B on 2048 H100 (TP 8, PP 8, 16 micro-batches): median {:.3} ms, p95 {:.3} ms, {intervals} intervals",
        times[times.len() / 2] * 1e3,
        times[times.len() * 95 / 100] * 1e3
    );
}

/// The explorer's TP x PP grid with the best-layout switch on, for the same
/// setting at 8 and 32 nodes: one walk of the explorer's space with a
/// cutoff per cell (each cell's best step so far), as `app/src/state/grid.rs`
/// runs it, `runs` times.
fn explorer_grid(runs: usize) {
    use scalescope_core::scenario::{Config, DataParallel};
    use std::cell::Cell;
    const DEGREES: [u32; 5] = [1, 2, 4, 8, 16];
    let space = SearchSpace::explorer(DataParallel::Fsdp);
    let cell_of = |c: &Config| {
        let p = c.layout.parallel;
        let i = DEGREES.iter().position(|&t| t == p.tp)?;
        let j = DEGREES.iter().position(|&q| q == p.pp)?;
        Some(j * DEGREES.len() + i)
    };
    let mut times = Vec::new();
    let mut visits = 0;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        visits = 0;
        for nodes in [8, 32] {
            let cfg = mixtral_on_gb200(nodes);
            let fastest: Vec<Cell<f64>> = (0..DEGREES.len() * DEGREES.len())
                .map(|_| Cell::new(f64::INFINITY))
                .collect();
            scalescope_core::search::for_each_layout_pruned(
                &cfg,
                &space,
                |c| cell_of(c).map_or(-1.0, |k| fastest[k].get()),
                |c, r| {
                    visits += 1;
                    if let Some(k) = cell_of(c) {
                        fastest[k].set(fastest[k].get().min(r.step_time_s));
                    }
                },
            );
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    outln!(
        "explorer grid, Mixtral 8x7B on GB200 NVL72 (8 and 32 nodes, best layout per cell): median {:.3} ms, {visits} layouts simulated",
        times[times.len() / 2] * 1e3
    );
}

/// Mixtral 8x7B under Megatron on `nodes` hosts of GB200 NVL72, two
/// sequences per GPU: the explorer benchmarks' setting.
fn mixtral_on_gb200(nodes: u32) -> scalescope_core::scenario::Config {
    let gpu = scalescope_core::hardware::GB200;
    let gpus = scalescope_core::hardware::Cluster::new(gpu, nodes).gpus();
    let mut cfg = findings::base(gpu, nodes, "mixtral-8x7b", 2 * gpus, 1);
    cfg.stack = scalescope_core::stack::Stack::of(scalescope_core::stack::StackId::Megatron);
    cfg
}
