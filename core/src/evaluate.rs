//! One training step, evaluated: compute, communication and its overlap,
//! the pipeline, memory and power, as a named breakdown.

use crate::calibration as cal;
use crate::collective::Links;
use crate::error::Error;
use crate::memory::{self, Memory};
use crate::phases::{self, LayerCompute, Shape};
use crate::power;
use crate::scenario::{Config, DataParallel, Schedule};
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
    /// GPU idle while the host dispatches kernels: an eager stack's
    /// per-kernel host cost exceeds the kernels' own time when each GPU's
    /// share of a layer is small.
    pub host: Seconds,
    /// FSDP/ZeRO parameter AllGathers.
    pub dp_allgather: Comm,
    /// FSDP/ZeRO gradient ReduceScatters.
    pub dp_reduce_scatter: Comm,
    /// DDP / HSDP gradient AllReduce.
    pub dp_allreduce: Comm,
    /// Tensor-parallel collectives (blocking).
    pub tp: Comm,
    /// Context-parallel key/value exchange.
    pub cp: Comm,
    /// Pipeline point-to-point sends.
    pub pp: Comm,
}

impl Breakdown {
    /// All compute: forward, backward, recompute and optimizer.
    #[must_use]
    pub fn compute(&self) -> Seconds {
        self.forward + self.backward + self.recompute + self.optimizer
    }

    /// Every communication kind, named.
    #[must_use]
    pub fn comms(&self) -> [(&'static str, Comm); 6] {
        [
            ("dp_allgather", self.dp_allgather),
            ("dp_reduce_scatter", self.dp_reduce_scatter),
            ("dp_allreduce", self.dp_allreduce),
            ("tp", self.tp),
            ("cp", self.cp),
            ("pp", self.pp),
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

/// How a pipeline of `pp` stages holds `layers` layers when the last stage
/// also runs the output head, which costs `head` layers' time: the most
/// layers any earlier stage holds, and the last stage's layers. The split
/// minimises the slowest stage (Megatron's uneven first and last stages,
/// as Llama 3 405B ran 126 layers on 16 stages). Every stage holds at least
/// one layer; without a pipeline the one stage holds them all.
///
/// ```
/// use scalescope_core::evaluate::split_layers;
/// assert_eq!(split_layers(32, 1, 0.2), (0, 32));
/// assert_eq!(split_layers(126, 16, 0.7), (8, 7));
/// ```
#[must_use]
pub fn split_layers(layers: u32, pp: u32, head: f64) -> (u32, u32) {
    if pp <= 1 || layers < pp {
        return (0, layers);
    }
    let others = pp - 1;
    let most_last = layers - others;
    let cost = |n: u32| f64::from((layers - n).div_ceil(others)).max(f64::from(n) + head);
    let guess =
        crate::math::floor((f64::from(layers) - f64::from(others) * head.max(0.0)) / f64::from(pp))
            .clamp(1.0, f64::from(most_last));
    // In range by the clamp; a float-to-int cast saturates.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let guess = guess as u32;
    // The cost falls then rises in n; the floor of the balance point or
    // the next count is the least.
    let next = (guess + 1).min(most_last);
    let best = if cost(next) < cost(guess) {
        next
    } else {
        guess
    };
    ((layers - best).div_ceil(others), best)
}

/// What one pipeline stage costs, before the step is put together.
struct StageCost {
    breakdown: Breakdown,
    layers: u32,
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
    /// were computed for only in its data-parallel flavour (nothing in
    /// [`Step::new`] depends on it): a search reuses them across flavours.
    pub(crate) fn for_flavour(&mut self, cfg: &Config) {
        debug_assert_eq!(
            {
                let mut c = *cfg;
                c.layout.parallel.dp = self.cfg.layout.parallel.dp;
                c
            },
            self.cfg
        );
        self.cfg = *cfg;
    }

    /// The step's report, given the split of layers and the memory.
    pub(crate) fn finish(&self, memory: Memory, split: (u32, u32)) -> Report {
        let step = self;
        let (first_layers, last_layers) = split;
        let last = step.stage(last_layers, true);
        // An earlier stage can only be the slower one when it holds more
        // layers than the last (which also runs the head).
        let stage = if first_layers > last_layers {
            let first = step.stage(first_layers, false);
            if first.breakdown.step().0 > last.breakdown.step().0 {
                first
            } else {
                last
            }
        } else {
            last
        };
        step.report(&stage, memory)
    }
}

/// The per-layer costs of one configuration, shared by its stages.
pub(crate) struct Step {
    cfg: Config,
    shape: Shape,
    links: Links,
    slowdown: f64,
    m: f64,
    v: f64,
    layer: LayerCompute,
    head_fwd: Seconds,
    tensor: phases::Tensor,
    context: phases::Context,
    busy_fwd: Seconds,
    busy_bwd: Seconds,
    host_fwd: Seconds,
    host_bwd: Seconds,
    /// The data-parallel shard group: ranks, and ranks per node.
    shards: (u32, u32),
}

impl Step {
    /// Every cost of one layer and micro-batch: compute, the blocking
    /// tensor-parallel collectives, the context-parallel exchanges, and
    /// what the host's dispatch adds where the GPU outruns it.
    pub(crate) fn new(cfg: &Config) -> Self {
        let p = cfg.layout.parallel;
        let shape = Shape::of(cfg);
        let links = links(cfg);
        let slowdown =
            (cal::NCCL_CHANNELS / f64::from(cfg.cluster.gpu.sm_count.max(1))).clamp(0.0, 0.5);
        let (layer, head_fwd) = phases::compute(cfg, &shape);
        let tensor = phases::tensor(cfg, &shape, &links);
        let context = phases::context(cfg, &shape, &links, layer.attention, slowdown);
        let recompute = cfg.layout.recompute;
        let gpu_fwd = layer.forward() + tensor.fwd + context.fwd.exposed + context.stretch_fwd;
        let gpu_bwd = layer.backward()
            + layer.recompute(recompute, cfg.stack.flash_attention)
            + tensor.bwd
            + tensor.recompute
            + context.bwd.exposed
            + context.stretch_bwd;
        let (ops_fwd, ops_bwd) = phases::kernels(cfg);
        let dispatch = Seconds::us(cfg.stack.host_dispatch_us);
        let busy_fwd = gpu_fwd.max(dispatch * ops_fwd);
        let busy_bwd = gpu_bwd.max(dispatch * ops_bwd);
        Self {
            cfg: *cfg,
            shape,
            links,
            slowdown,
            m: f64::from(cfg.micro_batches().max(1)),
            v: if p.schedule == Schedule::Interleaved && p.pp > 1 {
                f64::from(p.virtual_stages)
            } else {
                1.0
            },
            layer,
            head_fwd,
            tensor,
            context,
            busy_fwd,
            busy_bwd,
            host_fwd: busy_fwd - gpu_fwd,
            host_bwd: busy_bwd - gpu_bwd,
            shards: phases::shard_group(cfg),
        }
    }

    /// One stage of `layers` layers (with the output head when `head`):
    /// its layers' compute and communication, its data-parallel traffic,
    /// its pipeline sends and bubble, and its optimizer step, summed.
    fn stage(&self, layers: u32, head: bool) -> StageCost {
        let cfg = &self.cfg;
        let p = cfg.layout.parallel;
        let (m, v) = (self.m, self.v);
        let zero = Seconds(0.0);
        let ls = f64::from(layers.max(1));
        let (busy_fwd, busy_bwd) = (self.busy_fwd, self.busy_bwd);
        let dp = phases::data_parallel(
            cfg,
            &self.links,
            self.shards,
            ls,
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
        let per_mb = (busy_fwd + busy_bwd) * ls
            + head_fwd
            + head_bwd
            + if dp.once {
                zero
            } else {
                dp.per_mb_exposed + dp.per_mb_stretch
            };
        let bubble = per_mb * ((f64::from(p.pp) - 1.0) / v);
        let (ranks, per_node) = self.shards;
        let opt_shard = match p.dp {
            DataParallel::Ddp => 1.0,
            DataParallel::Hsdp => f64::from(per_node),
            _ => f64::from(ranks.max(1)),
        };
        let params = cfg.model.layer_params() / f64::from(p.tp) * ls
            + cfg.model.embedding_params() * if p.pp == 1 { 2.0 } else { 1.0 } / f64::from(p.tp);
        let optimizer = Bytes(params / opt_shard * cal::OPTIMIZER_BYTES_PER_PARAM) / self.shape.hbm;
        let layer = &self.layer;
        let each = ls * m;
        let tp = self.tensor.fwd + self.tensor.bwd + self.tensor.recompute;
        let cp = &self.context;
        StageCost {
            breakdown: Breakdown {
                forward: (layer.forward() * ls + head_fwd) * m,
                backward: (layer.backward() * ls + head_bwd) * m,
                recompute: layer.recompute(cfg.layout.recompute, cfg.stack.flash_attention) * each,
                optimizer,
                bubble,
                contention: (cp.stretch_fwd + cp.stretch_bwd) * each + dp.stretch,
                host: (self.host_fwd + self.host_bwd) * each,
                dp_allgather: dp.allgather,
                dp_reduce_scatter: dp.reduce_scatter,
                dp_allreduce: dp.allreduce,
                tp: Comm::new(tp * each, tp * each),
                cp: Comm::new(
                    (cp.fwd.total + cp.bwd.total) * each,
                    (cp.fwd.exposed + cp.bwd.exposed) * each,
                ),
                pp: phases::pipeline(cfg, &self.shape, &self.links, m, v),
            },
            layers,
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
        let tokens_per_s = tokens_step / step.0;
        let model_flops = tokens_step * model.flops_per_token(cfg.seq_len);
        let executed =
            tokens_step * model.executed_flops_per_token(cfg.seq_len, cfg.layout.recompute);
        let tflops_per_gpu = model_flops / step.0 / gpus_f / 1e12;
        let peak_tflops = self.shape.peak_mm / 1e12;
        let hfu = executed / step.0 / gpus_f / 1e12 / peak_tflops;
        let compute_fraction =
            ((breakdown.compute() + breakdown.contention).0 / step.0).clamp(0.0, 1.0);
        let power_w = power::per_gpu(gpu, compute_fraction).0;
        let memory_total = memory.total();
        Report {
            step_time_s: step.0,
            breakdown,
            dp: cfg.dp(),
            micro_batches: cfg.micro_batches(),
            gpus: cfg.cluster.gpus(),
            tokens_per_s,
            tokens_per_s_per_gpu: tokens_per_s / gpus_f,
            tflops_per_gpu,
            mfu: tflops_per_gpu / peak_tflops,
            mfu_palm: tflops_per_gpu / peak_tflops * model.flops_per_token_palm(cfg.seq_len)
                / model.flops_per_token(cfg.seq_len).max(1.0),
            hfu,
            exposed_comm_fraction: (breakdown.comm_exposed().0 / step.0).clamp(0.0, 1.0),
            exposed_comm_trace_fraction: (breakdown.comm_exposed_trace().0 / step.0)
                .clamp(0.0, 1.0),
            stage_layers: stage.layers,
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
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn gathers(dp: DataParallel, micro_batch: u32) -> (Seconds, Seconds, u32) {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.layout.parallel.dp = dp;
        cfg.layout.micro_batch = micro_batch;
        let r = evaluate(&cfg).unwrap();
        (
            r.breakdown.dp_allgather.total,
            r.breakdown.dp_reduce_scatter.total,
            r.micro_batches,
        )
    }

    #[test]
    fn the_paper_stack_gathers_and_scatters_every_micro_batch() {
        // Four sequences per replica: one micro-batch of 4, or two of 2.
        // The paper's FSDP (ZeRO-2 semantics) reshards after backward and
        // syncs gradients every backward.
        let (ag1, rs1, m1) = gathers(DataParallel::Fsdp, 4);
        let (ag2, rs2, m2) = gathers(DataParallel::Fsdp, 2);
        assert_eq!((m1, m2), (1, 2));
        assert!((ag2.0 - 2.0 * ag1.0).abs() < 1e-9 && (rs2.0 - 2.0 * rs1.0).abs() < 1e-9);
    }

    #[test]
    fn a_stack_that_syncs_once_gathers_once_and_holds_unsharded_gradients() {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.stack = crate::stack::TORCHTITAN;
        cfg.layout.parallel.sp = false;
        let run = |cfg: &Config| {
            let r = evaluate(cfg).unwrap();
            (
                r.breakdown.dp_allgather.total,
                memory::per_gpu(cfg).gradients,
            )
        };
        cfg.layout.micro_batch = 4;
        let (ag1, grads1) = run(&cfg);
        cfg.layout.micro_batch = 2;
        let (ag2, grads2) = run(&cfg);
        assert!((ag2.0 - ag1.0).abs() < 1e-12);
        assert!(grads2.0 > grads1.0 * 10.0, "{} vs {}", grads2.0, grads1.0);
    }

    #[test]
    fn full_sharding_gathers_and_scatters_per_micro_batch() {
        let (ag1, rs1, _) = gathers(DataParallel::FsdpFull, 4);
        let (ag2, rs2, _) = gathers(DataParallel::FsdpFull, 2);
        assert!((ag2.0 - 2.0 * ag1.0).abs() < 1e-9 && (rs2.0 - 2.0 * rs1.0).abs() < 1e-9);
    }

    #[test]
    fn the_pipeline_split_is_the_least_slowest_stage() {
        for layers in 1..=160_u32 {
            for pp in 2..=layers.min(40) {
                for head in [0.0, 0.3, 0.7, 1.5, 4.0] {
                    let (most, last) = split_layers(layers, pp, head);
                    let cost =
                        |n: u32| f64::from((layers - n).div_ceil(pp - 1)).max(f64::from(n) + head);
                    let best = (1..=layers - (pp - 1)).map(cost).fold(f64::MAX, f64::min);
                    assert!(
                        (f64::from(most).max(f64::from(last) + head) - best).abs() < 1e-9,
                        "{layers} layers, {pp} stages, head {head}: ({most}, {last})"
                    );
                    assert!(most * (pp - 1) >= layers - last && last >= 1);
                }
            }
        }
    }

    #[test]
    fn llama3_405b_runs_its_126_layers_on_16_stages_with_a_lighter_last() {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.model = crate::model::preset("llama3-405b").unwrap();
        cfg.layout.parallel.pp = 16;
        assert_eq!(cfg.pipeline_split(), (8, 7));
    }

    #[test]
    fn an_eager_stack_waits_on_the_host_when_kernels_are_tiny() {
        // Llama-2 1B, one 128-token sequence per GPU: kernels shorter than
        // their dispatch.
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.model = crate::model::preset("llama2-1b").unwrap();
        cfg.seq_len = 128;
        cfg.layout.parallel.tp = 1;
        cfg.layout.micro_batch = 1;
        cfg.global_batch = 256;
        let eager = evaluate(&cfg).unwrap();
        cfg.stack = crate::stack::TORCHTITAN;
        let compiled = evaluate(&cfg).unwrap();
        assert!(eager.breakdown.host.0 > 0.0);
        assert!(compiled.breakdown.host.0 < eager.breakdown.host.0);
    }

    #[test]
    fn the_trace_counts_the_bubble_as_exposed_communication() {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.layout.parallel.tp = 1;
        cfg.layout.parallel.pp = 4;
        cfg.layout.micro_batch = 1;
        let r = evaluate(&cfg).unwrap();
        let b = r.breakdown;
        assert!(b.bubble.0 > 0.0);
        assert!((b.comm_exposed_trace().0 - b.comm_exposed().0 - b.bubble.0).abs() < 1e-12);
        assert!(r.exposed_comm_trace_fraction > r.exposed_comm_fraction);
    }
}
