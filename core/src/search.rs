//! Search: the best layout for a model, cluster and batch; and sweeps of a
//! layout rule across node counts (what the charts draw).

use crate::evaluate::Report;
use crate::scenario::{Config, DataParallel, Layout};
use alloc::vec::Vec;
use core::cell::Cell;
use serde::{Deserialize, Serialize};
use walk::walk_layouts;

mod walk;

/// What "best" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Most tokens per second.
    Throughput,
    /// Most tokens per joule.
    Energy,
}

impl Objective {
    /// The objective's value for a report (larger is better).
    #[must_use]
    pub fn score(self, r: &Report) -> f64 {
        match self {
            Self::Throughput => r.tokens_per_s,
            Self::Energy => r.tokens_per_joule,
        }
    }
}

/// Which layouts a search may visit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpace {
    /// Data-parallel flavours to try.
    pub dp: [Option<DataParallel>; 5],
    /// Largest tensor-parallel degree.
    pub max_tp: u32,
    /// Largest pipeline-parallel degree.
    pub max_pp: u32,
    /// Largest context-parallel degree.
    pub max_cp: u32,
    /// Largest micro-batch in sequences.
    pub max_micro_batch: u32,
    /// Whether activation recomputation may be used to make a layout fit.
    pub recompute: bool,
    /// Whether tensor parallelism runs with sequence parallelism.
    pub sequence_parallel: bool,
    /// Whether a replica may split its batch into several micro-batches
    /// without a pipeline (gradient accumulation). Pipelines always split.
    #[serde(default = "yes")]
    pub accumulation: bool,
    /// Whether pipelines may use the interleaved schedule (where the
    /// stack has it).
    #[serde(default = "yes")]
    pub interleaving: bool,
    /// Whether the model-parallel group (TP x CP x PP) must fit in one
    /// node, as in the paper's search.
    #[serde(default)]
    pub model_parallel_in_node: bool,
}

const fn yes() -> bool {
    true
}

impl SearchSpace {
    /// Every flavour, degree, micro-batch and recomputation mode.
    #[must_use]
    pub const fn full() -> Self {
        Self {
            dp: [
                Some(DataParallel::Ddp),
                Some(DataParallel::Zero1),
                Some(DataParallel::Fsdp),
                Some(DataParallel::FsdpFull),
                Some(DataParallel::Hsdp),
            ],
            max_tp: 64,
            max_pp: 128,
            max_cp: 64,
            max_micro_batch: 64,
            recompute: true,
            sequence_parallel: true,
            accumulation: true,
            interleaving: true,
            model_parallel_in_node: false,
        }
    }

    /// The first data-parallel flavour allowed (the one a layout with a
    /// single replica is evaluated with).
    #[must_use]
    pub fn first_flavour(&self) -> Option<DataParallel> {
        self.dp.iter().flatten().next().copied()
    }

    /// The paper's best-layout search: FSDP (no reshard after forward)
    /// with tensor and pipeline groups inside a node (the paper's
    /// model-parallel layouts of 8 or fewer; larger ones span nodes and
    /// lose), no sequence parallelism, no interleaving, no context
    /// parallelism, no recomputation, and no gradient accumulation (§4.1:
    /// more devices replace accumulation steps), so each replica runs its
    /// whole batch as one micro-batch unless it pipelines.
    #[must_use]
    pub const fn paper() -> Self {
        Self {
            dp: [Some(DataParallel::Fsdp), None, None, None, None],
            max_tp: 8,
            max_pp: 8,
            max_cp: 1,
            max_micro_batch: 64,
            recompute: false,
            sequence_parallel: false,
            accumulation: false,
            interleaving: false,
            model_parallel_in_node: true,
        }
    }
}

impl SearchSpace {
    /// The explorer's space: the chosen data-parallel flavour, tensor and
    /// pipeline degrees to 16, context parallelism to 8, micro-batches to 16,
    /// any recomputation. About a tenth of [`SearchSpace::full`], so that a
    /// whole sweep of best layouts fits in one animation frame.
    #[must_use]
    pub const fn explorer(dp: DataParallel) -> Self {
        Self {
            dp: [Some(dp), None, None, None, None],
            max_tp: 16,
            max_pp: 16,
            max_cp: 8,
            max_micro_batch: 16,
            recompute: true,
            sequence_parallel: true,
            accumulation: true,
            interleaving: true,
            model_parallel_in_node: false,
        }
    }
}

/// One evaluated layout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The layout.
    pub layout: Layout,
    /// Its evaluation.
    pub report: Report,
}

/// Result of a search: the best layouts, best first, and how many were
/// evaluated.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SearchResult {
    /// Best layouts that fit, best first (at most the requested count).
    pub best: Vec<Candidate>,
    /// Layouts whose time was evaluated.
    pub evaluated: u32,
    /// Layouts rejected because they do not fit even with recomputation.
    pub out_of_memory: u32,
}

/// 1, 2, 4, ... up to `max`.
pub(crate) fn powers_of_two(max: u32) -> impl Iterator<Item = u32> {
    (0..31).map(|i| 1_u32 << i).take_while(move |&v| v <= max)
}

/// Visits every valid layout of `space` for `base`'s model, cluster, batch
/// and precision, calling `visit` with each one that fits in memory (using
/// the least recomputation that makes it fit). Returns (evaluated, out of memory).
pub fn for_each_layout(
    base: &Config,
    space: &SearchSpace,
    visit: impl FnMut(&Config, Report),
) -> (u32, u32) {
    for_each_layout_within(base, space, &Cell::new(f64::INFINITY), visit)
}

/// [`for_each_layout`], skipping the pipelines whose step cannot be under
/// `cutoff` seconds (a bound of the pipeline's makespan says so before it
/// is simulated); `visit` may lower the cutoff as it goes. Layouts a bound
/// rules out one by one count as evaluated; those of a group, flavour or
/// micro-batch whose floor rules them all out do not.
pub fn for_each_layout_within(
    base: &Config,
    space: &SearchSpace,
    cutoff: &Cell<f64>,
    mut visit: impl FnMut(&Config, Report),
) -> (u32, u32) {
    walk_layouts(base, space, &|_| cutoff.get(), &mut visit)
}

/// [`for_each_layout_within`] with a cutoff per layout: a caller keeping
/// the best of each group (the explorer's grid, per cell) passes its
/// group's best step time so far, and a negative one for unwanted layouts.
pub fn for_each_layout_pruned(
    base: &Config,
    space: &SearchSpace,
    cutoff: impl Fn(&Config) -> f64,
    mut visit: impl FnMut(&Config, Report),
) -> (u32, u32) {
    walk_layouts(base, space, &cutoff, &mut visit)
}

/// The `count` best layouts for `base` by `objective`.
///
/// ```
/// use scalescope_core::scenario::Scenario;
/// use scalescope_core::search::{search, Objective, SearchSpace};
/// let cfg = Scenario::example().to_config().unwrap();
/// let result = search(&cfg, &SearchSpace::full(), Objective::Throughput, 3);
/// assert!(!result.best.is_empty());
/// assert!(result.best[0].report.fits);
/// ```
#[must_use]
pub fn search(
    base: &Config,
    space: &SearchSpace,
    objective: Objective,
    count: usize,
) -> SearchResult {
    let count = count.max(1);
    let mut best: Vec<Candidate> = Vec::with_capacity(count + 1);
    // Ranked by throughput, a layout slower than the last kept one is not
    // wanted; the batch is the same in every layout, so step time ranks.
    let cutoff = Cell::new(f64::INFINITY);
    let (evaluated, out_of_memory) = for_each_layout_within(base, space, &cutoff, |cfg, report| {
        let score = objective.score(&report);
        if best.len() == count
            && best
                .last()
                .is_some_and(|w| objective.score(&w.report) >= score)
        {
            return;
        }
        let at = best
            .iter()
            .position(|c| objective.score(&c.report) < score)
            .unwrap_or(best.len());
        best.insert(
            at,
            Candidate {
                layout: cfg.layout,
                report,
            },
        );
        best.truncate(count);
        if objective == Objective::Throughput && best.len() == count {
            if let Some(w) = best.last() {
                cutoff.set(w.report.step_time_s);
            }
        }
    });
    SearchResult {
        best,
        evaluated,
        out_of_memory,
    }
}

/// How the batch changes as a sweep adds nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scaling {
    /// Fixed batch per GPU: the global batch grows with the GPU count.
    Weak,
    /// Fixed global batch.
    Strong,
}

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// Nodes.
    pub nodes: u32,
    /// The configuration evaluated (after scaling the batch and, with
    /// `best`, choosing the layout).
    pub layout: Option<Layout>,
    /// Global batch at this point.
    pub global_batch: u32,
    /// The report, or why there is none.
    pub result: Result<Report, crate::error::Error>,
}

/// Evaluates `base` at each node count. With `Scaling::Weak` the global
/// batch scales with the GPU count from `base`'s; with `best`, each point
/// uses the best layout `space` holds instead of `base`'s. An interleaved
/// `base` with its chunks per GPU unset (0, as a scenario file that leaves
/// `virtual_stages` out means it) has them chosen at each point as
/// [`crate::scenario::Scenario::resolve`] chooses them: a count that is best at one
/// size may not divide the micro-batches, or fit, at another.
#[must_use]
pub fn sweep(
    base: &Config,
    nodes: &[u32],
    scaling: Scaling,
    best: Option<(&SearchSpace, Objective)>,
) -> Vec<SweepPoint> {
    let base_gpus = u64::from(base.cluster.gpus().max(1));
    nodes
        .iter()
        .map(|&n| {
            let mut cfg = *base;
            cfg.cluster.nodes = n;
            if scaling == Scaling::Weak {
                let scaled =
                    u64::from(base.global_batch) * u64::from(cfg.cluster.gpus()) / base_gpus;
                cfg.global_batch = u32::try_from(scaled.max(1)).unwrap_or(u32::MAX);
            }
            let result = match best {
                None => {
                    crate::scenario::choose_chunks(&mut cfg);
                    crate::evaluate::evaluate(&cfg)
                }
                Some((space, objective)) => {
                    let found = search(&cfg, space, objective, 1);
                    match found.best.first() {
                        Some(c) => {
                            cfg.layout = c.layout;
                            Ok(c.report)
                        }
                        // Each point says its own reason: a setting no layout
                        // can fix, or no layout that fits in memory.
                        None => Err(cfg
                            .check_setting()
                            .err()
                            .unwrap_or(crate::error::Error::NoLayoutFits)),
                    }
                }
            };
            SweepPoint {
                nodes: n,
                layout: Some(cfg.layout),
                global_batch: cfg.global_batch,
                result,
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
