//! Published training runs, each evaluated under the software stack that
//! produced it at its published layout, and how far the model lands from
//! each. The runs are data ([`ROWS`] and [`SOURCES`], in `runs.rs`); the
//! functions here turn a row into a configuration, evaluate it in the run's
//! own metric, summarise the errors per stack and source, and fit the few
//! constants that published runs set ([`fit`]), judged by leaving each
//! source out ([`leave_one_source_out`]).
//!
//! Where a run's authors tuned something without publishing it (micro-batch,
//! interleaving depth, how much to recompute), the model takes the best of
//! the choices the row lists, as the authors did.

use crate::evaluate::Report;
use crate::hardware::{Cluster, Gpu};
use crate::model::Model;
use crate::scenario::{Config, DataParallel, Layout, Parallel, Precision, Recompute, Schedule};
use crate::stack::{AttentionKernel, EpDispatch, ExpertKernels, Stack, StackId};
use crate::units::Bandwidth;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

mod missing;
mod runs;
mod scaling;
mod sources;

pub use missing::{by_graphs, megatron_moe_missing, per_expert, Missing};
pub use runs::ROWS;
pub use scaling::{series, Series, SCALING_TOLERANCE};
pub use sources::SOURCES;

/// How far a prediction may be from a published number before the check
/// reports a miss: 25% relative.
pub const TOLERANCE: f64 = 0.25;

/// What a run published.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// TFLOP/s per GPU by Megatron-LM's formula, which counts a full
    /// recomputation's second forward: `96 B s l h^2 (1 + s/6h + V/16lh)`
    /// per step, generalised to the run's layer shape.
    MegatronTflops,
    /// MFU in the PaLM convention (`6N + 12 L h s` per token, attention
    /// without the causal mask) against the dense bf16 peak.
    Mfu,
    /// Tokens per second per GPU (no FLOP convention at all).
    TokensPerGpu,
}

impl Metric {
    /// A value in this metric as people quote it: `137 TFLOP/s`, `43.0% MFU`.
    #[must_use]
    pub fn show(self, x: f64) -> String {
        match self {
            Metric::MegatronTflops => format!("{x:.0} TFLOP/s"),
            Metric::Mfu => format!("{:.1}% MFU", x * 100.0),
            Metric::TokensPerGpu => format!("{x:.0} tok/s/GPU"),
        }
    }

    /// The model's value for a run in this metric.
    #[must_use]
    pub fn of(self, cfg: &Config, r: &Report) -> f64 {
        let m = &cfg.model;
        let seq = cfg.seq_len;
        match self {
            Metric::MegatronTflops => {
                let (l, h, s) = (f64::from(m.layers), f64::from(m.hidden), f64::from(seq));
                let layers = l * (m.attention_params() + m.mlp_params());
                let per_token = 8.0 * layers + 16.0 * l * h * s + 6.0 * m.embedding_params();
                r.tokens_per_s_per_gpu * per_token / 1e12
            }
            Metric::Mfu => {
                r.tokens_per_s_per_gpu * m.flops_per_token_palm(seq) / cfg.cluster.gpu.peak_bf16.0
            }
            Metric::TokensPerGpu => r.tokens_per_s_per_gpu,
        }
    }
}

/// Where published numbers come from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Source {
    /// Short key (`narayanan-2021`).
    pub key: &'static str,
    /// The citation, with the table or file.
    pub citation: &'static str,
    /// Held out: never used to fit a constant, so its runs show how the
    /// model predicts runs it has not seen.
    pub held_out: bool,
    /// The mechanism the model is believed to miss for this source, where
    /// its runs miss by more than the model's error elsewhere: printed by
    /// `scalescope validate` and kept out of the summary guards (each such
    /// source has its own).
    pub gap: Option<Gap>,
}

/// What the model is believed to miss for a source, and the mean absolute
/// error its runs must stay within (where they stand, so the gap can only
/// close).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Gap {
    /// The mechanism, in words.
    pub why: &'static str,
    /// The largest mean absolute error its runs may reach.
    pub bound: f64,
}

/// Choices a run's authors tuned without publishing.
#[derive(Clone, Copy, Debug)]
pub struct Tuned {
    /// Micro-batch sizes tried (empty: the row's one).
    pub micro_batches: &'static [u32],
    /// Pipeline virtual stages tried (1 means plain 1F1B).
    pub virtual_stages: &'static [u32],
    /// Recomputation modes tried, least first ([`check`] keeps the first
    /// that fits of each layout).
    pub recompute: &'static [Recompute],
}

/// What of each layer a Megatron-Core recipe captures in CUDA graphs
/// (`cuda_graph_impl = "transformer_engine"` with its `cuda_graph_scope`):
/// the host replays a captured part as one launch and dispatches the rest
/// kernel by kernel. A dropless MoE layer's routed experts are never
/// captured (their shapes follow the routing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Graphs {
    /// Nothing captured (`cuda_graph_impl = "none"`).
    Eager,
    /// The router and the dispatcher's preprocessing
    /// (`moe_router moe_preprocess`).
    RouterPreprocess,
    /// Attention, router and preprocessing (`attn moe_router moe_preprocess`).
    AttnRouterPreprocess,
}

impl Graphs {
    /// The scope as the recipe names it.
    #[must_use]
    pub const fn scope(self) -> &'static str {
        match self {
            Self::Eager => "none",
            Self::RouterPreprocess => "moe_router moe_preprocess",
            Self::AttnRouterPreprocess => "attn moe_router moe_preprocess",
        }
    }
}

/// One published run as data.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Short name.
    pub name: &'static str,
    /// Index into [`SOURCES`].
    pub source: usize,
    /// The stack that produced it.
    pub stack: StackId,
    /// GPU.
    pub gpu: Gpu,
    /// GPUs.
    pub gpus: u32,
    /// Network line rate per GPU in Gb/s where it differs from the DGX's.
    pub network_gbps: Option<f64>,
    /// The attention kernel where the run's differs from its stack's.
    pub attention: Option<AttentionKernel>,
    /// Whether the run's container is of 2024, whose cuDNN ran
    /// Transformer Engine's attention on H100 at
    /// [`crate::calibration::CUDNN_ATTENTION_EFFICIENCY_H100_2024`].
    pub cudnn_2024: bool,
    /// The MoE token dispatcher where the run's differs from its stack's
    /// (a recipe that sets Megatron-Core's `alltoall` dispatcher).
    pub dispatch: Option<EpDispatch>,
    /// Bytes per gradient element, reduced and accumulated, where the
    /// run's differ from its stack's: a Megatron-Core recipe that reduces
    /// in bf16 (`grad_reduce_in_fp32 = False`) also keeps its gradient
    /// buffer in bf16.
    pub grad_bytes: Option<f64>,
    /// Whether the run keeps its fully sharded state in bf16
    /// ([`crate::stack::Stack::bf16_state`]) where its stack does not.
    pub bf16_state: bool,
    /// Bytes per logit the run's loss holds where its stack's differ
    /// ([`crate::stack::Stack::logits_bytes`]).
    pub logits_bytes: Option<f64>,
    /// What the run's selective recomputation reruns where its stack's
    /// policy is not the run's ([`crate::stack::Stack::selective_reruns_matmuls`]).
    pub selective_reruns_matmuls: Option<bool>,
    /// How the run splits its pipeline where its stack's split is not the
    /// run's ([`crate::stack::Stack::pipeline_split`]).
    pub pipeline_split: Option<crate::stack::PipelineSplit>,
    /// Whether the run's gate routes each token to a consecutive block of
    /// experts ([`crate::stack::Stack::consecutive_routing`]).
    pub consecutive_routing: bool,
    /// The experts' kernels where the run's fp8 recipe quantises them
    /// otherwise than its stack's ([`crate::stack::ExpertKernels`]).
    pub experts: Option<ExpertKernels>,
    /// Layers whose activations the recipe offloads to host memory
    /// (`cpu_offloading_num_layers`; 0 for none).
    pub offload: u32,
    /// What the recipe's selective recomputation reruns
    /// (`recompute_modules`; empty where it names none).
    pub modules: crate::scenario::Modules,
    /// What of each layer the recipe captures in CUDA graphs, where its
    /// configuration is read (`None` where it is not).
    pub graphs: Option<Graphs>,
    /// The model's shape.
    pub model: Model,
    /// Context length.
    pub seq_len: u32,
    /// Global batch in sequences.
    pub batch: u32,
    /// Micro-batch in sequences (the first tried when tuned).
    pub micro_batch: u32,
    /// (TP, PP, CP).
    pub degrees: (u32, u32, u32),
    /// Expert-parallel degree (1 for a dense model).
    pub ep: u32,
    /// Expert tensor-parallel degree.
    pub etp: u32,
    /// Whether the All-to-All hides behind another micro-batch's compute
    /// (Megatron-Core's combined 1F1B schedule).
    pub ep_overlap: bool,
    /// The pipeline schedule where it is not 1F1B or interleaved 1F1B
    /// (which the tuned chunks per stage choose).
    pub schedule: Schedule,
    /// Whether the run is costed at its layout even where the model's
    /// memory says it does not fit: a stack with memory savings the model
    /// does not have (its row says which), whose run fit as published.
    pub fits_as_published: bool,
    /// Data-parallel flavour.
    pub dp: DataParallel,
    /// Sequence parallelism.
    pub sp: bool,
    /// Matmul precision.
    pub precision: Precision,
    /// What the model may tune.
    pub tuned: Tuned,
    /// What was published, and its value.
    pub metric: Metric,
    /// The published value (TFLOP/s, tokens/s per GPU, or a fraction for MFU).
    pub published: f64,
}

/// A published run, ready to evaluate.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Run {
    /// Short name.
    pub name: &'static str,
    /// Where the number is published.
    pub source: &'static str,
    /// The stack that produced it.
    pub stack: StackId,
    /// What was measured.
    pub metric: Metric,
    /// The published value.
    pub published: f64,
    /// Whether its source is held out of the fit.
    pub held_out: bool,
    /// Whether its source has a known gap ([`Source::gap`]).
    pub gap: bool,
    /// What of each layer its recipe captures in CUDA graphs, where read.
    pub graphs: Option<Graphs>,
    /// Whether it is costed whatever the model's memory ([`Row::fits_as_published`]).
    pub fits_as_published: bool,
    /// What the model varies because the authors tuned it.
    #[serde(skip)]
    pub tuned: Tuned,
    /// The published setting.
    #[serde(skip)]
    pub config: Config,
}

impl Run {
    /// What a table adds after the model's number where the run is costed
    /// whatever the model's memory says.
    #[must_use]
    pub const fn memory_note(&self) -> &'static str {
        if self.fits_as_published {
            " (costed over its memory)"
        } else {
            ""
        }
    }
}

impl Row {
    /// The row's configuration under `stack` (its own, or one with fitted constants).
    #[must_use]
    pub fn config(&self, stack: Stack) -> Config {
        let mut cluster = Cluster::new(self.gpu, self.gpus / self.gpu.gpus_per_node.max(1));
        if let Some(g) = self.network_gbps {
            cluster.network_per_gpu = Bandwidth::gbit_s(g);
        }
        if self.cudnn_2024 {
            cluster.gpu.te_attention_efficiency =
                crate::calibration::CUDNN_ATTENTION_EFFICIENCY_H100_2024;
        }
        let (tp, pp, cp) = self.degrees;
        let mut stack = stack;
        if let Some(kernel) = self.attention {
            stack.attention = kernel;
        }
        if let Some(dispatch) = self.dispatch {
            stack.ep_dispatch = dispatch;
        }
        if let Some(bytes) = self.grad_bytes {
            stack.reduce_bytes = bytes;
            stack.grad_buffer_bytes = bytes;
        }
        stack.bf16_state |= self.bf16_state;
        if let Some(bytes) = self.logits_bytes {
            stack.logits_bytes = bytes;
        }
        stack.consecutive_routing |= self.consecutive_routing;
        if let Some(matmuls) = self.selective_reruns_matmuls {
            stack.selective_reruns_matmuls = matmuls;
        }
        if let Some(split) = self.pipeline_split {
            stack.pipeline_split = split;
        }
        if let Some(kernels) = self.experts {
            stack.experts = kernels;
        }
        Config {
            cluster,
            model: self.model,
            seq_len: self.seq_len,
            global_batch: self.batch,
            layout: Layout {
                parallel: Parallel {
                    dp: self.dp,
                    tp,
                    pp,
                    cp,
                    sp: self.sp,
                    schedule: self.schedule,
                    virtual_stages: 1,
                    ep: self.ep,
                    etp: self.etp,
                    ep_overlap: self.ep_overlap,
                },
                micro_batch: self.micro_batch,
                recompute: self.tuned.recompute[0],
                offload_layers: self.offload,
                recompute_modules: self.modules,
            },
            precision: self.precision,
            stack,
        }
    }

    /// The row as a run under its own stack.
    #[must_use]
    pub fn run(&self) -> Run {
        Run {
            name: self.name,
            source: SOURCES[self.source].citation,
            stack: self.stack,
            metric: self.metric,
            published: self.published,
            held_out: SOURCES[self.source].held_out,
            gap: SOURCES[self.source].gap.is_some(),
            graphs: self.graphs,
            fits_as_published: self.fits_as_published,
            tuned: self.tuned,
            config: self.config(Stack::of(self.stack)),
        }
    }
}

/// A run with the model's prediction.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Check {
    /// The run.
    pub run: Run,
    /// The model's value in the run's metric (`None` if no tuned choice fits).
    pub model: Option<f64>,
    /// The layout the model used.
    pub layout: Option<Layout>,
}

impl Check {
    /// Model over published, minus one (`0.1` is 10% above).
    #[must_use]
    pub fn difference(&self) -> Option<f64> {
        self.model.map(|m| m / self.run.published - 1.0)
    }

    /// Whether the prediction is within [`TOLERANCE`].
    #[must_use]
    pub fn holds(&self) -> bool {
        self.difference().is_some_and(|d| d.abs() <= TOLERANCE)
    }
}

/// Every published run, under its own stack.
#[must_use]
pub fn runs() -> Vec<Run> {
    ROWS.iter().map(Row::run).collect()
}

/// The published run named `name`, for the unit tests that take one.
#[cfg(test)]
pub(crate) fn run_named(name: &str) -> Run {
    ROWS.iter()
        .find(|r| r.name == name)
        .map(Row::run)
        .unwrap_or_else(|| panic!("no published run {name}"))
}

/// The model's prediction for `run`: the best of its tuned choices that
/// fits in memory.
#[must_use]
pub fn check(run: &Run) -> Check {
    let mut best: Option<(f64, Layout)> = None;
    let published = [run.config.layout.micro_batch];
    let micro_batches = if run.tuned.micro_batches.is_empty() {
        &published[..]
    } else {
        run.tuned.micro_batches
    };
    for &mb in micro_batches {
        for &v in run.tuned.virtual_stages {
            for &recompute in run.tuned.recompute {
                let mut cfg = run.config;
                cfg.layout.micro_batch = mb;
                cfg.layout.recompute = recompute;
                let p = &mut cfg.layout.parallel;
                if v > 1 {
                    // Tuned chunks interleave a 1F1B row; a row that names
                    // its schedule keeps it.
                    if p.pp == 1 || p.schedule != Schedule::OneFOneB {
                        continue;
                    }
                    p.schedule = Schedule::Interleaved;
                    p.virtual_stages = v;
                }
                // What does not fit is not the run: skipped before its
                // step is costed.
                if cfg.check().is_err() {
                    continue;
                }
                let split = cfg.pipeline_split();
                let memory = crate::memory::per_gpu_split(&cfg, split);
                if memory.total().0 > cfg.cluster.gpu.hbm.0 && !run.fits_as_published {
                    continue;
                }
                let r = crate::evaluate::evaluate_with_memory(&cfg, memory, split);
                let x = run.metric.of(&cfg, &r);
                if best.is_none_or(|(b, _)| x > b) {
                    best = Some((x, cfg.layout));
                }
                // More recomputation only adds work to the same step (every
                // metric here is a fixed amount of work over the step): the
                // least that fits is this layout's best.
                break;
            }
        }
    }
    Check {
        run: *run,
        model: best.map(|b| b.0),
        layout: best.map(|b| b.1),
    }
}

/// Every run, checked.
#[must_use]
pub fn all() -> Vec<Check> {
    runs().iter().map(check).collect()
}

/// Absolute errors of a set of checks: their median and mean, and how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Errors {
    /// Runs counted.
    pub runs: usize,
    /// Median absolute relative error.
    pub median: f64,
    /// Mean absolute relative error.
    pub mean: f64,
}

impl Errors {
    /// The errors of the checks that `keep` selects (runs that fit nowhere
    /// count as 100% off).
    #[must_use]
    pub fn of(checks: &[Check], keep: impl Fn(&Check) -> bool) -> Self {
        let mut e: Vec<f64> = checks
            .iter()
            .filter(|c| keep(c))
            .map(|c| c.difference().map_or(1.0, f64::abs))
            .collect();
        if e.is_empty() {
            return Self::default();
        }
        e.sort_by(f64::total_cmp);
        let n = e.len();
        let median = if n % 2 == 1 {
            e[n / 2]
        } else {
            (e[n / 2 - 1] + e[n / 2]) / 2.0
        };
        Self {
            runs: n,
            median,
            mean: e.iter().sum::<f64>() / n as f64,
        }
    }
}

pub use crate::fit::{fit, leave_one_source_out, Fitted};
