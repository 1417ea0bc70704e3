//! One training step, evaluated: compute, communication and its overlap,
//! the pipeline, memory and power, as a named breakdown.

use crate::calibration as cal;
use crate::collective::Links;
use crate::error::Error;
use crate::memory::{self, Memory};
use crate::phases::{self, LayerCompute, PerMicroBatch, Shape};
use crate::power;
use crate::scenario::{Config, DataParallel};
use crate::units::{Bytes, Seconds};
use serde::Serialize;

/// Communication of one kind: how much of it ran, and how much of that
/// was hidden behind compute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Comm {
    /// Seconds the communication kernels ran per step.
    pub total: Seconds,
    /// Seconds of it that no compute ran beside.
    pub exposed: Seconds,
}

impl Comm {
    pub(crate) fn new(total: Seconds, exposed: Seconds) -> Self {
        let exposed = exposed.max(Seconds(0.0)).min(total);
        Self { total, exposed }
    }

    /// Seconds of it that ran under compute.
    #[must_use]
    pub fn overlapped(&self) -> Seconds {
        self.total - self.exposed
    }
}

/// Where the time of one step goes. The step time is the sum of every
/// field except the communication totals' overlapped parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// Forward compute (all micro-batches).
    pub forward: Seconds,
    /// Backward compute.
    pub backward: Seconds,
    /// Forward work redone in backward by activation recomputation.
    pub recompute: Seconds,
    /// The optimizer step.
    pub optimizer: Seconds,
    /// Idle time in the pipeline's fill and drain.
    pub bubble: Seconds,
    /// Compute stretched by communication running beside it: NCCL kernels
    /// hold SMs, so overlapped communication is not free.
    pub contention: Seconds,
    /// GPU idle on its host: while it dispatches kernels (an eager stack's
    /// per-kernel host cost exceeds the kernels' own time when each GPU's
    /// share of a layer is small), and while offloaded activations cross
    /// a host link slower than the layer beside them.
    pub host: Seconds,
    /// FSDP/ZeRO parameter AllGathers.
    pub dp_allgather: Comm,
    /// FSDP/ZeRO gradient ReduceScatters.
    pub dp_reduce_scatter: Comm,
    /// DDP / HSDP gradient AllReduce.
    pub dp_allreduce: Comm,
    /// Tensor-parallel collectives (the forward's blocking, the backward's
    /// partly beside the weight gradients where the stack runs them so).
    pub tp: Comm,
    /// Context-parallel key/value exchange.
    pub cp: Comm,
    /// Pipeline point-to-point sends.
    pub pp: Comm,
    /// Expert-parallel All-to-All: MoE tokens dispatched to their
    /// experts' GPUs and combined back (blocking).
    pub ep: Comm,
}

impl Breakdown {
    /// All compute: forward, backward, recompute and optimizer.
    #[must_use]
    pub fn compute(&self) -> Seconds {
        self.forward + self.backward + self.recompute + self.optimizer
    }

    /// Every communication kind, named.
    #[must_use]
    pub fn comms(&self) -> [(&'static str, Comm); 7] {
        [
            ("dp_allgather", self.dp_allgather),
            ("dp_reduce_scatter", self.dp_reduce_scatter),
            ("dp_allreduce", self.dp_allreduce),
            ("tp", self.tp),
            ("cp", self.cp),
            ("pp", self.pp),
            ("ep", self.ep),
        ]
    }

    /// Total communication time.
    #[must_use]
    pub fn comm_total(&self) -> Seconds {
        self.comms()
            .iter()
            .fold(Seconds(0.0), |a, (_, c)| a + c.total)
    }

    /// Exposed communication time.
    #[must_use]
    pub fn comm_exposed(&self) -> Seconds {
        self.comms()
            .iter()
            .fold(Seconds(0.0), |a, (_, c)| a + c.exposed)
    }

    /// The step time: compute, contention, host waits, bubble and exposed
    /// communication.
    #[must_use]
    pub fn step(&self) -> Seconds {
        self.compute() + self.contention + self.host + self.bubble + self.comm_exposed()
    }

    /// Exposed communication as a profiler trace shows it (the paper's
    /// measure): communication kernels with no compute beside them,
    /// including pipeline stages waiting in their receives during the fill
    /// and drain. Host waits are not counted: no kernel runs then.
    #[must_use]
    pub fn comm_exposed_trace(&self) -> Seconds {
        self.comm_exposed() + self.bubble
    }
}

/// The result of evaluating one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Seconds per optimizer step.
    pub step_time_s: f64,
    /// Where the step's time goes.
    pub breakdown: Breakdown,
    /// Data-parallel replicas.
    pub dp: u32,
    /// Micro-batches per step per replica.
    pub micro_batches: u32,
    /// GPUs.
    pub gpus: u32,
    /// Tokens per second, whole cluster.
    pub tokens_per_s: f64,
    /// Tokens per second per GPU.
    pub tokens_per_s_per_gpu: f64,
    /// Model TFLOP/s per GPU (PaLM FLOP count).
    pub tflops_per_gpu: f64,
    /// Model FLOPs utilisation against the precision's dense peak, with
    /// causal attention counted as the half of the score matrix it computes
    /// ([`crate::model::Model::flops_per_token`]).
    pub mfu: f64,
    /// MFU in the PaLM convention the paper and most published runs quote
    /// (attention counted without the causal mask, [`crate::model::Model::flops_per_token_palm`]):
    /// comparable with their numbers, but above the FLOPs a causal kernel
    /// computes, so it can exceed one at very long contexts.
    pub mfu_palm: f64,
    /// Hardware FLOPs utilisation: every FLOP the kernels execute, with
    /// recomputation and FlashAttention's backward recompute.
    pub hfu: f64,
    /// Share of the step spent in exposed communication on the critical
    /// path (what faster communication would save).
    pub exposed_comm_fraction: f64,
    /// Share of the step in which communication kernels run with no
    /// compute beside them, as a trace shows it: the critical-path
    /// exposure plus the waits of a pipeline's fill and drain
    /// ([`Breakdown::comm_exposed_trace`]).
    pub exposed_comm_trace_fraction: f64,
    /// Layers on the pipeline stage that sets the step time (all layers
    /// without a pipeline).
    pub stage_layers: u32,
    /// Model chunks per GPU the schedule ran (interleaved: its count;
    /// ZB-V: 2; otherwise 1): a
    /// scenario file that names the interleaved schedule without them
    /// gets the count [`crate::scenario::Scenario::resolve`] chose.
    pub virtual_stages: u32,
    /// Share of the step in which compute kernels run.
    pub compute_fraction: f64,
    /// Average power per GPU, watts.
    pub power_w_per_gpu: f64,
    /// Average power of all GPUs, watts.
    pub power_w_cluster: f64,
    /// Tokens per joule of GPU energy.
    pub tokens_per_joule: f64,
    /// Memory per GPU by part.
    pub memory: Memory,
    /// Peak memory per GPU, GiB.
    pub memory_gib_per_gpu: f64,
    /// Whether the peak fits in HBM.
    pub fits: bool,
}

/// Evaluates one step of `cfg`, after checking it.
///
/// ```
/// use scalescope_core::{evaluate::evaluate, scenario::Scenario};
/// let cfg = Scenario::example().to_config().unwrap();
/// let r = evaluate(&cfg).unwrap();
/// assert!(r.mfu > 0.2 && r.mfu < 0.7);
/// assert!(r.fits);
/// ```
pub fn evaluate(cfg: &Config) -> Result<Report, Error> {
    cfg.check()?;
    Ok(evaluate_checked(cfg))
}

/// The links of `cfg`'s cluster with the at-scale factor on ring steps.
#[must_use]
pub fn links(cfg: &Config) -> Links {
    let mut links = cfg.cluster.links();
    links.ring_step_factor = cal::RING_STEP_AT_SCALE_FACTOR;
    links
}

pub use crate::pipeline::{split_layers, weighted_split};

/// What one pipeline stage costs, before the step is put together.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StageCost {
    pub(crate) breakdown: Breakdown,
    pub(crate) layers: u32,
    /// One micro-batch through the stage (every chunk, forward and backward).
    pub(crate) per_mb: Seconds,
    /// What data parallelism adds to one micro-batch.
    pub(crate) mb_dp: PerMicroBatch,
    /// The stage's data-parallel traffic, as the timeline lays it out.
    pub(crate) dp: phases::DataParallelCost,
}

impl StageCost {
    /// One micro-batch through another stage of the same step, of `layers`
    /// layers (with the head when `head`).
    pub(crate) fn per_mb_with(&self, step: &Step, layers: u32, head: bool) -> Seconds {
        step.per_mb(layers, head, &self.mb_dp)
    }
}

/// Evaluates a configuration that passed [`Config::check`]. Never panics and
/// never returns a non-finite number for such a configuration.
#[must_use]
pub fn evaluate_checked(cfg: &Config) -> Report {
    let split = cfg.pipeline_split();
    evaluate_with_memory(cfg, memory::per_gpu_split(cfg, split), split)
}

/// [`evaluate_checked`] with the pipeline's split of layers
/// ([`Config::pipeline_split`]) and the memory of `cfg` already computed
/// (a layout search computes them first, to skip what does not fit).
#[must_use]
pub fn evaluate_with_memory(cfg: &Config, memory: Memory, split: (u32, u32)) -> Report {
    Step::new(cfg).finish(memory, split)
}

impl Step {
    /// The same per-layer costs for `cfg`, which differs from the one they
    /// were computed for only in its data-parallel flavour, its schedule
    /// or its chunks per GPU (nothing in [`Step::new`] but the schedule's
    /// part depends on them): a search reuses them across flavours and
    /// schedules.
    pub(crate) fn for_layout(&mut self, cfg: &Config) {
        debug_assert_eq!(
            {
                let mut c = *cfg;
                let (p, q) = (&mut c.layout.parallel, self.cfg.layout.parallel);
                (p.dp, p.schedule, p.virtual_stages) = (q.dp, q.schedule, q.virtual_stages);
                c
            },
            self.cfg
        );
        let (p, q) = (cfg.layout.parallel, self.cfg.layout.parallel);
        let rescheduled = (p.schedule, p.virtual_stages) != (q.schedule, q.virtual_stages);
        self.cfg.layout.parallel = p; // all that differs (the assertion above)
        if rescheduled {
            self.v = f64::from(p.chunks().max(1));
            self.schedule();
        }
    }

    /// The tensor-parallel collectives before a schedule splits the
    /// backward: the least any schedule of these degrees pays.
    pub(crate) fn unscheduled_tensor(&self) -> phases::Tensor {
        self.unscheduled.3
    }

    /// The step's report, given the split of layers and the memory.
    pub(crate) fn finish(&self, memory: Memory, split: (u32, u32)) -> Report {
        self.report(&self.slowest(split).0, memory)
    }

    /// The time of one micro-batch through a stage of `layers` layers (with
    /// the head when `head`), given the data-parallel traffic of a stage:
    /// what one micro-batch adds to it is per layer, with the first gather
    /// and last scatter on top.
    pub(crate) fn per_mb(&self, layers: u32, head: bool, dp: &PerMicroBatch) -> Seconds {
        let ls = f64::from(layers.max(1));
        let head = if head {
            self.head_fwd * 3.0
        } else {
            Seconds(0.0)
        };
        (self.busy_fwd + self.busy_bwd) * ls + head + dp.edges + dp.per_layer * (ls - 1.0)
    }
}

/// The per-layer costs of one configuration, shared by its stages.
pub(crate) struct Step {
    pub(crate) cfg: Config,
    pub(crate) shape: Shape,
    pub(crate) links: Links,
    pub(crate) slowdown: f64,
    pub(crate) m: f64,
    pub(crate) v: f64,
    pub(crate) layer: LayerCompute,
    pub(crate) head_fwd: Seconds,
    pub(crate) tensor: phases::Tensor,
    pub(crate) context: phases::Context,
    /// The All-to-All of one layer's MoE part.
    pub(crate) a2a: crate::experts::AllToAll,
    pub(crate) busy_fwd: Seconds,
    pub(crate) busy_bwd: Seconds,
    pub(crate) host_fwd: Seconds,
    pub(crate) host_bwd: Seconds,
    /// The data-parallel shard group (ranks, and ranks per node), and one
    /// layer's parameters on one GPU ([`Config::layer_params_local`]).
    pub(crate) shards: (u32, u32),
    pub(crate) params: (f64, f64),
    /// The All-to-All before a schedule hides any of it, a layer's
    /// compute forward and backward (without the tensor-parallel
    /// backward) beside which it may hide, and the tensor-parallel
    /// collectives before a schedule splits the backward.
    unscheduled: (crate::experts::AllToAll, Seconds, Seconds, phases::Tensor),
}

impl Step {
    /// Every cost of one layer and micro-batch: compute, the tensor- and
    /// context-parallel collectives (what of them shows), and what the
    /// host's dispatch adds where the GPU outruns it.
    pub(crate) fn new(cfg: &Config) -> Self {
        let p = cfg.layout.parallel;
        let shape = Shape::of(cfg);
        let links = links(cfg);
        let slowdown =
            (cal::NCCL_CHANNELS / f64::from(cfg.cluster.gpu.sm_count.max(1))).clamp(0.0, 0.5);
        let (layer, head_fwd) = phases::compute(cfg, &shape);
        let tensor = phases::tensor(cfg, &shape, &links, &layer, slowdown);
        let context = phases::context(cfg, &shape, &links, layer.attention, slowdown);
        let recompute = cfg.layout.recompute;
        let m = f64::from(cfg.micro_batches().max(1));
        let v = f64::from(p.chunks().max(1));
        let compute_fwd = layer.forward() + tensor.fwd + context.fwd.exposed + context.stretch_fwd;
        // The backward without its tensor-parallel collectives, which the
        // schedule decides (`schedule`).
        let compute_bwd = layer.backward()
            + layer.recompute(recompute, cfg.layout.recompute_modules, &cfg.stack)
            + tensor.recompute
            + context.bwd.exposed
            + context.stretch_bwd;
        let unscheduled = (
            crate::experts::exchange(cfg, &shape, &links),
            compute_fwd,
            compute_bwd,
            tensor,
        );
        // Scheduled before the step is built, so that the step (its
        // configuration and every per-layer cost) is written once, in place,
        // not built and then copied out.
        let s = phases::Scheduled::of(cfg, &layer, unscheduled, slowdown, (m, v));
        Self {
            cfg: *cfg,
            shape,
            links,
            slowdown,
            m,
            v,
            layer,
            head_fwd,
            tensor: s.tensor,
            context,
            a2a: s.a2a,
            busy_fwd: s.busy.0,
            busy_bwd: s.busy.1,
            host_fwd: s.host.0,
            host_bwd: s.host.1,
            shards: phases::shard_group(cfg),
            params: cfg.layer_params_local(),
            unscheduled,
        }
    }

    /// Sets what depends on the schedule and its chunks
    /// ([`phases::Scheduled`]).
    fn schedule(&mut self) {
        let s = phases::Scheduled::of(
            &self.cfg,
            &self.layer,
            self.unscheduled,
            self.slowdown,
            (self.m, self.v),
        );
        self.tensor = s.tensor;
        self.a2a = s.a2a;
        (self.busy_fwd, self.busy_bwd) = s.busy;
        (self.host_fwd, self.host_bwd) = s.host;
    }

    /// One stage of `layers` layers (with the output head when `head`):
    /// its layers' compute and communication, its data-parallel traffic,
    /// its pipeline sends and bubble, and its optimizer step, summed.
    pub(crate) fn stage(&self, layers: u32, head: bool) -> StageCost {
        let cfg = &self.cfg;
        let p = cfg.layout.parallel;
        let m = self.m;
        let zero = Seconds(0.0);
        let ls = f64::from(layers.max(1));
        let (busy_fwd, busy_bwd) = (self.busy_fwd, self.busy_bwd);
        let dp = phases::data_parallel(
            cfg,
            &self.links,
            self.shards,
            (ls, cfg.dp_layer_params(self.params, self.shards.0)),
            (busy_fwd, busy_bwd),
            self.slowdown,
            m,
        );
        let (head_fwd, head_bwd) = if head {
            (self.head_fwd, self.head_fwd * 2.0)
        } else {
            (zero, zero)
        };
        // One micro-batch through this stage sets the bubble: every layer's
        // busy time, the head, and what data parallelism adds.
        let mb_dp = PerMicroBatch::of(&dp);
        let per_mb = self.per_mb(layers, head, &mb_dp);
        let (ranks, per_node) = self.shards;
        let opt_shard = match p.dp {
            DataParallel::Ddp => 1.0,
            DataParallel::Hsdp => f64::from(per_node),
            _ => f64::from(ranks.max(1)),
        };
        // Expert parameters are sharded over the expert data-parallel group.
        let (dense, expert) = self.params;
        let expert_shard = if p.dp == DataParallel::Ddp {
            1.0
        } else {
            f64::from(cfg.expert_dp()).min(opt_shard)
        };
        let params =
            dense * ls + cfg.model.embedding_params() * cfg.embedding_matrices() / f64::from(p.tp);
        let optimizer = Bytes(
            (params / opt_shard + expert * ls / expert_shard) * cal::OPTIMIZER_BYTES_PER_PARAM,
        ) / self.shape.hbm;
        let layer = &self.layer;
        let each = ls * m;
        let t = &self.tensor;
        let tp = Comm::new(
            (t.fwd + t.bwd.total + t.recompute) * each,
            (t.fwd + t.bwd.exposed + t.recompute) * each,
        );
        let cp = &self.context;
        StageCost {
            breakdown: Breakdown {
                forward: (layer.forward() * ls + head_fwd) * m,
                backward: (layer.backward() * ls + head_bwd) * m,
                recompute: layer.recompute(
                    cfg.layout.recompute,
                    cfg.layout.recompute_modules,
                    &cfg.stack,
                ) * each,
                optimizer,
                bubble: zero,
                contention: (cp.stretch_fwd
                    + cp.stretch_bwd
                    + self.tensor.stretch_bwd
                    + self.a2a.stretch_fwd
                    + self.a2a.stretch_bwd)
                    * each
                    + dp.stretch,
                host: (self.host_fwd + self.host_bwd) * each,
                dp_allgather: dp.allgather,
                dp_reduce_scatter: dp.reduce_scatter,
                dp_allreduce: dp.allreduce,
                tp,
                cp: Comm::new(
                    (cp.fwd.total + cp.bwd.total) * each,
                    (cp.fwd.exposed + cp.bwd.exposed) * each,
                ),
                pp: phases::pipeline(cfg, &self.shape, &self.links, m),
                ep: {
                    let a = &self.a2a;
                    let again = a.recompute(cfg.layout.recompute);
                    Comm::new(
                        (a.wire_fwd + a.wire_bwd + again) * each,
                        (a.fwd + a.bwd + again) * each,
                    )
                },
            },
            layers,
            per_mb,
            mb_dp,
            dp,
        }
    }

    /// The report of the step whose slowest stage is `stage`.
    fn report(&self, stage: &StageCost, memory: Memory) -> Report {
        let cfg = &self.cfg;
        let gpu = &cfg.cluster.gpu;
        let model = &cfg.model;
        let breakdown = stage.breakdown;
        let step = breakdown.step().max(Seconds(1e-12));
        let gpus_f = f64::from(cfg.cluster.gpus());
        let tokens_step = f64::from(cfg.global_batch) * f64::from(cfg.seq_len);
        // Rates per second and per GPU-second, each one product away (no
        // chain of divisions on every evaluation).
        let per_s = 1.0 / step.0;
        let per_gpu_s = per_s / gpus_f;
        let tokens_per_s = tokens_step * per_s;
        let [per_token, palm, executed] = model.flop_counts(cfg.seq_len, cfg.layout.recompute);
        let model_flops = tokens_step * per_token;
        let modules = cfg.layout.recompute_modules;
        let rerun = match cfg.layout.recompute {
            crate::scenario::Recompute::Selective if !modules.is_empty() => {
                model.module_flops_per_token(modules, cfg.seq_len)
            }
            crate::scenario::Recompute::Selective if cfg.stack.selective_reruns_matmuls => {
                2.0 * f64::from(model.layers) * model.alternate_matmul_params()
            }
            _ => 0.0,
        };
        let executed = tokens_step * (executed + rerun);
        let tflops_per_gpu = model_flops * per_gpu_s * 1e-12;
        let per_peak = 1.0 / self.shape.peak_mm;
        let mfu = model_flops * per_gpu_s * per_peak;
        let hfu = executed * per_gpu_s * per_peak;
        let compute_fraction =
            ((breakdown.compute() + breakdown.contention).0 * per_s).clamp(0.0, 1.0);
        let power_w = power::per_gpu(gpu, compute_fraction).0;
        let memory_total = memory.total();
        Report {
            step_time_s: step.0,
            breakdown,
            dp: cfg.dp(),
            micro_batches: cfg.micro_batches(),
            gpus: cfg.cluster.gpus(),
            tokens_per_s,
            tokens_per_s_per_gpu: tokens_step * per_gpu_s,
            tflops_per_gpu,
            mfu,
            mfu_palm: mfu * palm / per_token.max(1.0),
            hfu,
            exposed_comm_fraction: (breakdown.comm_exposed().0 * per_s).clamp(0.0, 1.0),
            exposed_comm_trace_fraction: (breakdown.comm_exposed_trace().0 * per_s).clamp(0.0, 1.0),
            stage_layers: stage.layers,
            virtual_stages: cfg.layout.parallel.chunks(),
            compute_fraction,
            power_w_per_gpu: power_w,
            power_w_cluster: power_w * gpus_f,
            tokens_per_joule: tokens_per_s / (power_w * gpus_f),
            memory,
            memory_gib_per_gpu: memory_total.as_gib(),
            fits: memory_total.0 <= gpu.hbm.0,
        }
    }
}

#[cfg(test)]
#[path = "evaluate_tests.rs"]
mod tests;
