//! One training step, evaluated: compute, communication and its overlap,
//! the pipeline, memory and power, as a named breakdown.

use crate::calibration as cal;
use crate::collective::{self, Collective, Group, Links};
use crate::error::Error;
use crate::memory::{self, Memory};
use crate::model::Mlp;
use crate::power;
use crate::scenario::{Config, DataParallel, Precision, Recompute, Schedule};
use crate::stack::{FsdpSync, Placement, Stack};
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
    fn new(total: Seconds, exposed: Seconds) -> Self {
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

/// Compute time of one layer for one micro-batch on one GPU.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LayerCompute {
    /// Forward GEMMs.
    pub gemm: Seconds,
    /// Forward attention kernel.
    pub attention: Seconds,
    /// Forward element-wise (memory-bound) kernels.
    pub elementwise: Seconds,
}

impl LayerCompute {
    pub fn forward(&self) -> Seconds {
        self.gemm + self.attention + self.elementwise
    }
    pub fn backward(&self) -> Seconds {
        self.gemm * 2.0
            + self.attention * cal::ATTENTION_BACKWARD_FACTOR
            + self.elementwise * cal::BACKWARD_ELEMENTWISE_FACTOR
    }
    /// What a recomputation reruns in backward: everything for full; for
    /// selective, the core attention where its scores are materialised
    /// (Korthikanti et al.), the element-wise kernels under FlashAttention.
    pub fn recompute(&self, r: Recompute, flash: bool) -> Seconds {
        match r {
            Recompute::None => Seconds(0.0),
            Recompute::Selective if flash => self.elementwise,
            Recompute::Selective => self.attention,
            Recompute::Full => self.forward(),
        }
    }
}

/// Communication of `comm` seconds started beside `work` seconds of compute,
/// where compute runs at `1 - slowdown` of its speed while both run.
/// Returns the exposed communication and the compute's stretch; the span
/// of the pair is `work + exposed + stretch`.
fn overlap(comm: Seconds, work: Seconds, slowdown: f64) -> (Seconds, Seconds) {
    let zero = Seconds(0.0);
    let comm = comm.max(zero);
    let work = work.max(zero);
    let stretched = work / (1.0 - slowdown);
    if comm.0 >= stretched.0 {
        (comm - stretched, stretched - work)
    } else {
        (zero, comm * slowdown)
    }
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
    stack: Stack,
    links: Links,
    slowdown: f64,
    peak_mm: f64,
    hbm: crate::units::Bandwidth,
    tokens: f64,
    m: f64,
    v: f64,
    layer: LayerCompute,
    head_fwd: Seconds,
    tp_fwd: Seconds,
    tp_bwd: Seconds,
    tp_recompute: Seconds,
    cp_f: Comm,
    cp_b: Comm,
    cp_con: Seconds,
    busy_fwd: Seconds,
    busy_bwd: Seconds,
    host_fwd: Seconds,
    host_bwd: Seconds,
    dp_ranks: u32,
    dp_per_node: u32,
}

impl Step {
    #[allow(clippy::too_many_lines)]
    pub(crate) fn new(cfg: &Config) -> Self {
        let gpu = &cfg.cluster.gpu;
        let model = &cfg.model;
        let stack = cfg.stack;
        let p = cfg.layout.parallel;
        let recompute = cfg.layout.recompute;
        let gpn = cfg.cluster.gpus_per_node;
        let m = f64::from(cfg.micro_batches().max(1));
        let (tp, cp) = (f64::from(p.tp), f64::from(p.cp));
        let v = if p.schedule == Schedule::Interleaved && p.pp > 1 {
            f64::from(p.virtual_stages)
        } else {
            1.0
        };
        let links = links(cfg);
        let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US);
        let slowdown = (cal::NCCL_CHANNELS / f64::from(gpu.sm_count.max(1))).clamp(0.0, 0.5);
        let peak_mm = match cfg.precision {
            Precision::Fp8 => gpu.peak_fp8.0,
            Precision::Bf16 | Precision::Fp16 => gpu.peak_bf16.0,
        };
        let hbm = gpu.hbm_bandwidth * cal::HBM_EFFICIENCY;
        let h = f64::from(model.hidden);
        let seq = f64::from(cfg.seq_len);
        let tokens = f64::from(cfg.layout.micro_batch) * seq / cp;
        let sp_div = if p.sp { tp } else { 1.0 };

        // Attention kernels see a key and value length of `seq / cp` (one
        // ring step under context parallelism); a causal mask halves the
        // score matrix.
        let kv_len = seq / cp;
        let attention_efficiency =
            gpu.attention_efficiency * kv_len / (kv_len + cal::ATTENTION_HALF_LENGTH);
        let gemm_flops = 2.0 * tokens * (model.attention_params() + model.mlp_params()) / tp;
        let attn_flops = 2.0 * tokens * seq * h / tp;
        // Element-wise passes, each on the tensor it acts on: norms and
        // residual adds on the hidden state (split by sequence
        // parallelism), rotary on the local queries and keys, the MLP
        // activation on the local FFN width. Ring attention merges each
        // step's partial output into the running one (three passes).
        let activation_passes = match model.mlp {
            Mlp::Swiglu => stack.activation_passes,
            Mlp::Gelu => cal::GELU_PASSES,
        };
        let ew_elements = (2.0 * stack.norm_passes + cal::RESIDUAL_PASSES) * tokens * h / sp_div
            + stack.rotary_passes * tokens * (h + model.kv_dim()) / tp
            + 3.0 * (cp - 1.0) * tokens * h / tp
            + activation_passes * tokens * f64::from(model.ffn) / tp;
        // Without FlashAttention the score matrix is computed in full (the
        // mask applies afterwards) by two batched GEMMs, and element-wise
        // kernels pass over it.
        let attention = if stack.flash_attention {
            Seconds(attn_flops / (gpu.peak_bf16.0 * attention_efficiency)) + t0 * cp
        } else {
            let scores = tokens * kv_len * f64::from(model.heads) / tp;
            Seconds(2.0 * attn_flops / (gpu.peak_bf16.0 * gpu.gemm_efficiency))
                + Bytes(2.0 * cal::SCORE_PASSES * scores) / hbm
                + t0 * 2.0
        };
        let layer = LayerCompute {
            gemm: Seconds(gemm_flops / (peak_mm * gpu.gemm_efficiency)) + t0 * cal::GEMMS_PER_LAYER,
            attention,
            elementwise: Bytes(2.0 * ew_elements) / hbm
                + Seconds::us(cal::ELEMENTWISE_KERNEL_US)
                    * (stack.elementwise_kernels + 2.0 * (cp - 1.0)),
        };
        // Output head and loss, on the last stage.
        let vocab = f64::from(model.vocab);
        let head_fwd = Seconds(2.0 * tokens * h * vocab / tp / (peak_mm * gpu.gemm_efficiency))
            + Bytes(3.0 * 4.0 * tokens * vocab / tp) / hbm
            + t0;

        // Tensor parallelism: two collectives per layer each way, blocking.
        let tp_group = Group::new(p.tp, p.tp.min(gpn));
        let act_bytes = Bytes(2.0 * tokens * h);
        let tp_one = if p.sp {
            collective::time(Collective::AllGather, act_bytes, tp_group, &links).time
                + collective::time(Collective::ReduceScatter, act_bytes, tp_group, &links).time
        } else {
            collective::time(Collective::AllReduce, act_bytes, tp_group, &links).time
        };
        let tp_fwd = tp_one * 2.0;
        let tp_bwd = tp_one * 2.0;
        let tp_recompute = if recompute == Recompute::Full {
            tp_fwd
        } else {
            Seconds(0.0)
        };

        // Context parallelism: a ring of K/V exchanges behind the attention blocks.
        let zero = Seconds(0.0);
        let (mut cp_f, mut cp_b, mut cp_con) = (Comm::default(), Comm::default(), zero);
        let (mut cp_con_f, mut cp_con_b) = (zero, zero);
        if p.cp > 1 {
            let kv_local = (f64::from(model.kv_heads) / tp).max(1.0) * model.head_dim();
            let kv_bytes = Bytes(2.0 * 2.0 * tokens * kv_local);
            let same_node = p.tp.saturating_mul(p.cp) <= gpn;
            let send = collective::send_recv(kv_bytes, same_node, &links);
            let block_f = layer.attention / cp;
            let block_b = block_f * cal::ATTENTION_BACKWARD_FACTOR;
            let steps = cp - 1.0;
            let (exp_f, con_f) = overlap(send, block_f, slowdown);
            let (exp_b, con_b) = overlap(send * 2.0, block_b, slowdown);
            cp_f = Comm::new(send * steps, exp_f * steps);
            cp_b = Comm::new(send * (2.0 * steps), exp_b * steps);
            cp_con_f = con_f * steps;
            cp_con_b = con_b * steps;
            cp_con = cp_con_f + cp_con_b;
        }

        // The host dispatches every kernel; an eager stack's GPU waits when
        // its kernels are shorter than their dispatch.
        let tp_kernels = if p.tp > 1 { 2.0 } else { 0.0 };
        let cp_kernels = cal::CP_KERNELS_PER_STEP * (cp - 1.0);
        let ops_fwd =
            stack.elementwise_kernels + cal::GEMMS_PER_LAYER + 1.0 + tp_kernels + cp_kernels;
        let ops_bwd = 2.0 * (stack.elementwise_kernels + cal::GEMMS_PER_LAYER)
            + 1.0
            + tp_kernels
            + 2.0 * cp_kernels
            + match recompute {
                Recompute::Full => ops_fwd,
                Recompute::Selective => stack.elementwise_kernels,
                Recompute::None => 0.0,
            };
        let dispatch = Seconds::us(stack.host_dispatch_us);
        let gpu_fwd = layer.forward() + tp_fwd + cp_f.exposed + cp_con_f;
        let gpu_bwd = layer.backward()
            + layer.recompute(recompute, stack.flash_attention)
            + tp_bwd
            + tp_recompute
            + cp_b.exposed
            + cp_con_b;
        let busy_fwd = gpu_fwd.max(dispatch * ops_fwd);
        let busy_bwd = gpu_bwd.max(dispatch * ops_bwd);

        // Data parallelism. The shard group spans DP x CP ranks (CP ranks
        // hold the same parameters); the stack's placement says how many
        // of them share a node.
        let dp_ranks = cfg.dp().saturating_mul(p.cp);
        let inner = match stack.placement {
            Placement::ModelParallelInNode => p.tp.saturating_mul(p.pp),
            Placement::PipelineOutermost => p.tp,
        };
        let dp_per_node = (gpn / inner.max(1)).clamp(1, dp_ranks.max(1));

        Self {
            cfg: *cfg,
            stack,
            links,
            slowdown,
            peak_mm,
            hbm,
            tokens,
            m,
            v,
            layer,
            head_fwd,
            tp_fwd,
            tp_bwd,
            tp_recompute,
            cp_f,
            cp_b,
            cp_con,
            busy_fwd,
            busy_bwd,
            host_fwd: busy_fwd - gpu_fwd,
            host_bwd: busy_bwd - gpu_bwd,
            dp_ranks,
            dp_per_node,
        }
    }

    /// Whether a pipeline's neighbouring stages sit on different nodes.
    fn pipeline_crosses_nodes(&self) -> bool {
        let p = self.cfg.layout.parallel;
        let gpn = u64::from(self.cfg.cluster.gpus_per_node);
        let (tp, cp, pp) = (u64::from(p.tp), u64::from(p.cp), u64::from(p.pp));
        match self.stack.placement {
            Placement::ModelParallelInNode => tp * cp * pp > gpn,
            Placement::PipelineOutermost => tp * cp * u64::from(self.cfg.dp()) >= gpn,
        }
    }

    /// One stage of `layers` layers (with the output head when `head`).
    #[allow(clippy::too_many_lines)]
    fn stage(&self, layers: u32, head: bool) -> StageCost {
        let cfg = &self.cfg;
        let model = &cfg.model;
        let p = cfg.layout.parallel;
        let (tp, pp) = (f64::from(p.tp), f64::from(p.pp));
        let (m, v, slowdown) = (self.m, self.v, self.slowdown);
        let zero = Seconds(0.0);
        let ls = f64::from(layers.max(1));
        let (busy_fwd, busy_bwd) = (self.busy_fwd, self.busy_bwd);
        let layer_params = model.layer_params() / tp;
        let root_params = model.embedding_params() * if p.pp == 1 { 2.0 } else { 1.0 } / tp;
        let stage_params = layer_params * ls + root_params;
        let reduce = self.stack.reduce_bytes;
        let bf16 = 2.0;
        let dp_group = Group::new(self.dp_ranks, self.dp_per_node);

        // Data-parallel traffic runs beside compute: NCCL then moves at
        // most the overlap rate across nodes; a group inside one node never
        // touches the network, and NVSwitch carries it at a larger share.
        let links = self.links;
        let overlap_bw = cfg.dp_overlap_bandwidth();
        let mut bg_links = links;
        bg_links.nvlink = overlap_bw.min(links.nvlink);
        let mut bg_links_node = links;
        bg_links_node.nvlink = (links.nvlink * cal::NVSWITCH_OVERLAP_SHARE)
            .max(overlap_bw)
            .min(links.nvlink);
        let bg = |op, bytes: f64, group: Group| {
            let l = if group.nodes() <= 1 {
                &bg_links_node
            } else {
                &bg_links
            };
            collective::time(op, Bytes(bytes), group, l).time
        };

        let mut dp_allgather = Comm::default();
        let mut dp_reduce_scatter = Comm::default();
        let mut dp_allreduce = Comm::default();
        let mut per_mb_exposed = zero;
        let mut per_mb_contention = zero;
        let mut contention = zero;
        // How many times a step pays the sharded gathers and scatters:
        // once, when the stack keeps FSDP's parameters gathered and its
        // gradients unsharded across micro-batches; otherwise per
        // micro-batch (ZeRO-2 semantics, and always for full sharding).
        let dp_once = p.dp == DataParallel::Fsdp && self.stack.fsdp_sync == FsdpSync::OncePerStep;
        let dp_passes = if dp_once { 1.0 } else { m };

        // One layer's gather and scatter over `group`, per micro-batch, with
        // the next layer prefetched behind the current one's compute. The
        // first gather and the last scatter have nothing to hide behind.
        let sharded = |group: Group, gather_in_backward: bool| {
            let ag = bg(Collective::AllGather, layer_params * bf16, group);
            let rs = bg(Collective::ReduceScatter, layer_params * reduce, group);
            let ag_root = bg(Collective::AllGather, root_params * bf16, group);
            let rs_root = bg(Collective::ReduceScatter, root_params * reduce, group);
            let comm_bwd = rs + if gather_in_backward { ag } else { zero };
            let hidden = ls - 1.0;
            let (f_exp, f_con) = overlap(ag, busy_fwd, slowdown);
            let (b_exp, b_con) = overlap(comm_bwd, busy_bwd, slowdown);
            let fwd_exposed = ag + ag_root + f_exp * hidden;
            let bwd_exposed = rs + rs_root + b_exp * hidden;
            let gathers = if gather_in_backward { 2.0 } else { 1.0 };
            let ag_total = (ag * (ls * gathers) + ag_root) * dp_passes;
            let rs_total = (rs * ls + rs_root) * dp_passes;
            // Split the backward exposure between gathers and scatters by volume.
            let bwd_ag_share = if gather_in_backward {
                ag.0 / comm_bwd.0.max(1e-30)
            } else {
                0.0
            };
            let ag_exposed = fwd_exposed + bwd_exposed * bwd_ag_share;
            let rs_exposed = bwd_exposed * (1.0 - bwd_ag_share);
            (
                Comm::new(ag_total, ag_exposed * dp_passes),
                Comm::new(rs_total, rs_exposed * dp_passes),
                fwd_exposed + bwd_exposed,
                (f_con + b_con) * hidden,
            )
        };
        // Traffic started behind the last `ls - 1` layers of a pass (busy
        // `per_layer` each); the last bucket is always exposed. Returns
        // exposed time and contention.
        let behind = |total: Seconds, per_layer: Seconds| {
            let last = total / ls;
            let (exposed, stretch) = overlap(total - last, per_layer * (ls - 1.0), slowdown);
            (exposed + last, stretch)
        };

        match p.dp {
            DataParallel::Fsdp | DataParallel::FsdpFull => {
                let (ag, rs, exposed, con) = sharded(dp_group, p.dp == DataParallel::FsdpFull);
                (dp_allgather, dp_reduce_scatter) = (ag, rs);
                (per_mb_exposed, per_mb_contention) = (exposed, con);
            }
            DataParallel::Hsdp => {
                let shard = Group::new(self.dp_per_node, self.dp_per_node);
                let (ag, rs, exposed, con) = sharded(shard, true);
                (dp_allgather, dp_reduce_scatter) = (ag, rs);
                (per_mb_exposed, per_mb_contention) = (exposed, con);
                let replicas = Group::new(self.dp_ranks / self.dp_per_node.max(1), 1);
                // The replicas reduce their gradient shards in the stack's reduce type.
                let ar = bg(
                    Collective::AllReduce,
                    stage_params * reduce / f64::from(self.dp_per_node),
                    replicas,
                );
                let (exposed, stretch) = behind(ar, busy_bwd);
                dp_allreduce = Comm::new(ar, exposed);
                contention += stretch;
            }
            DataParallel::Ddp => {
                let ar = bg(Collective::AllReduce, stage_params * reduce, dp_group);
                let (exposed, stretch) = behind(ar, busy_bwd);
                dp_allreduce = Comm::new(ar, exposed);
                contention += stretch;
            }
            DataParallel::Zero1 => {
                let rs = bg(Collective::ReduceScatter, stage_params * reduce, dp_group);
                let (rs_exposed, rs_stretch) = behind(rs, busy_bwd);
                dp_reduce_scatter = Comm::new(rs, rs_exposed);
                let ag = bg(Collective::AllGather, stage_params * bf16, dp_group);
                let (ag_exposed, ag_stretch) = behind(ag, busy_fwd);
                dp_allgather = Comm::new(ag, ag_exposed);
                contention += rs_stretch + ag_stretch;
            }
        }

        // Pipeline: sends between stages, hidden in the steady state.
        let pp_comm = if p.pp > 1 {
            let sp_div = if p.sp { tp } else { 1.0 };
            let bytes = Bytes(2.0 * self.tokens * f64::from(model.hidden) / sp_div);
            let send = collective::send_recv(bytes, !self.pipeline_crosses_nodes(), &links);
            Comm::new(send * (2.0 * m * v), send * (2.0 * (pp - 1.0) * v))
        } else {
            Comm::default()
        };

        let (head_fwd, head_bwd) = if head {
            (self.head_fwd, self.head_fwd * 2.0)
        } else {
            (zero, zero)
        };
        // One micro-batch through this stage: every layer's busy time, the
        // head, and what data parallelism adds.
        let per_mb = (busy_fwd + busy_bwd) * ls
            + head_fwd
            + head_bwd
            + if dp_once {
                zero
            } else {
                per_mb_exposed + per_mb_contention
            };
        let bubble = per_mb * ((pp - 1.0) / v);

        let opt_shard = match p.dp {
            DataParallel::Ddp => 1.0,
            DataParallel::Hsdp => f64::from(self.dp_per_node),
            _ => f64::from(self.dp_ranks.max(1)),
        };
        let optimizer = Bytes(stage_params / opt_shard * cal::OPTIMIZER_BYTES_PER_PARAM) / self.hbm;

        let layer = &self.layer;
        let recompute = cfg.layout.recompute;
        let tp_each = self.tp_fwd + self.tp_bwd + self.tp_recompute;
        contention += self.cp_con * (ls * m) + per_mb_contention * dp_passes;
        StageCost {
            breakdown: Breakdown {
                forward: (layer.forward() * ls + head_fwd) * m,
                backward: (layer.backward() * ls + head_bwd) * m,
                recompute: layer.recompute(recompute, self.stack.flash_attention) * ls * m,
                optimizer,
                bubble,
                contention,
                host: (self.host_fwd + self.host_bwd) * (ls * m),
                dp_allgather,
                dp_reduce_scatter,
                dp_allreduce,
                tp: Comm::new(tp_each * (ls * m), tp_each * (ls * m)),
                cp: Comm::new(
                    (self.cp_f.total + self.cp_b.total) * (ls * m),
                    (self.cp_f.exposed + self.cp_b.exposed) * (ls * m),
                ),
                pp: pp_comm,
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
        let peak_tflops = self.peak_mm / 1e12;
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
