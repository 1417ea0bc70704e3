//! One training step, evaluated: compute, communication and its overlap,
//! the pipeline, memory and power, as a named breakdown.

use crate::calibration as cal;
use crate::collective::{self, Collective, Group, Links};
use crate::error::Error;
use crate::memory::{self, Memory};
use crate::power;
use crate::scenario::{Config, DataParallel, Precision, Recompute, Schedule};
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

    /// The step time: compute, contention, bubble and exposed communication.
    #[must_use]
    pub fn step(&self) -> Seconds {
        self.compute() + self.contention + self.bubble + self.comm_exposed()
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
    /// Model FLOPs utilisation against the precision's dense peak.
    pub mfu: f64,
    /// Hardware FLOPs utilisation (counts recomputed FLOPs too).
    pub hfu: f64,
    /// Share of the step spent in exposed communication.
    pub exposed_comm_fraction: f64,
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
    pub fn recompute(&self, r: Recompute) -> Seconds {
        match r {
            Recompute::None => Seconds(0.0),
            Recompute::Selective => self.elementwise,
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

/// The links of `cfg`'s cluster with the at-scale ring step factor applied.
#[must_use]
pub fn links(cfg: &Config) -> Links {
    let mut links = cfg.cluster.links();
    links.network_step = links.network_step * cal::RING_STEP_AT_SCALE_FACTOR;
    links.nvlink_step = links.nvlink_step * cal::RING_STEP_AT_SCALE_FACTOR;
    links
}

/// Evaluates a configuration that passed [`Config::check`]. Never panics and
/// never returns a non-finite number for such a configuration.
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn evaluate_checked(cfg: &Config) -> Report {
    let gpu = &cfg.cluster.gpu;
    let model = &cfg.model;
    let p = cfg.layout.parallel;
    let recompute = cfg.layout.recompute;
    let gpn = cfg.cluster.gpus_per_node;
    let gpus = cfg.cluster.gpus();
    let dp = cfg.dp();
    let m = f64::from(cfg.micro_batches().max(1));
    let (tp, pp, cp) = (f64::from(p.tp), f64::from(p.pp), f64::from(p.cp));
    let v = if p.schedule == Schedule::Interleaved && p.pp > 1 {
        f64::from(p.virtual_stages)
    } else {
        1.0
    };
    let links = links(cfg);
    let t0 = Seconds::us(cal::KERNEL_OVERHEAD_US);
    let slowdown = (cal::NCCL_CHANNELS / f64::from(gpu.sm_count.max(1))).clamp(0.0, 0.5);

    let peak_mm = match cfg.precision {
        Precision::Fp8 => gpu.peak_fp8,
        Precision::Bf16 | Precision::Fp16 => gpu.peak_bf16,
    };
    let hbm = gpu.hbm_bandwidth * cal::HBM_EFFICIENCY;
    let h = f64::from(model.hidden);
    let seq = f64::from(cfg.seq_len);
    let vocab = f64::from(model.vocab);
    let layers_stage = f64::from(model.layers) / pp;
    let tokens = f64::from(cfg.layout.micro_batch) * seq / cp;
    let sp_div = if p.sp { tp } else { 1.0 };

    // Compute of one layer, one micro-batch. Attention kernels see a key and
    // value length of `seq / cp` (one ring step under context parallelism).
    let kv_len = seq / cp;
    let attention_efficiency =
        gpu.attention_efficiency * kv_len / (kv_len + cal::ATTENTION_HALF_LENGTH);
    let gemm_flops = 2.0 * tokens * (model.attention_params() + model.mlp_params()) / tp;
    let attn_flops = 2.0 * tokens * seq * h / tp;
    // Ring attention merges each step's partial output into the running one
    // (read both, write one: three passes over the local attention output).
    let cp_merge_passes = 3.0 * (cp - 1.0);
    let ew_bytes = 2.0
        * (cal::HIDDEN_PASSES * tokens * h / sp_div
            + cp_merge_passes * tokens * h / tp
            + cal::FFN_PASSES * tokens * f64::from(model.ffn) / tp);
    let layer = LayerCompute {
        gemm: Seconds(gemm_flops / (peak_mm.0 * gpu.gemm_efficiency)) + t0 * 4.0,
        attention: Seconds(attn_flops / (gpu.peak_bf16.0 * attention_efficiency)) + t0 * cp,
        elementwise: Bytes(ew_bytes) / hbm,
    };
    // Output head and loss, on the last stage.
    let head_fwd = Seconds(2.0 * tokens * h * vocab / tp / (peak_mm.0 * gpu.gemm_efficiency))
        + Bytes(3.0 * 4.0 * tokens * vocab / tp) / hbm
        + t0;
    let head_bwd = head_fwd * 2.0;

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
    let mut cp_f = Comm::default();
    let mut cp_b = Comm::default();
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
    }
    // What CP adds to one layer's span, forward and backward.
    let cp_fwd_span = cp_f.exposed + cp_con_f;
    let cp_bwd_span = cp_b.exposed + cp_con_b;

    // Busy time of one layer that data-parallel traffic can hide behind.
    let busy_fwd = layer.forward() + tp_fwd + cp_fwd_span;
    let busy_bwd =
        layer.backward() + layer.recompute(recompute) + tp_bwd + tp_recompute + cp_bwd_span;

    // Data parallelism. The shard group spans DP x CP ranks (CP ranks hold
    // the same parameters), TP ranks innermost, PP outermost.
    let dp_ranks = dp.saturating_mul(p.cp);
    let dp_per_node = (gpn / p.tp).clamp(1, dp_ranks.max(1));
    let dp_group = Group::new(dp_ranks, dp_per_node);
    let layer_params = model.layer_params() / tp;
    let root_params = model.embedding_params() * if p.pp == 1 { 2.0 } else { 1.0 } / tp;
    let stage_params = layer_params * layers_stage + root_params;
    let bf16 = 2.0;
    let fp32 = 4.0;
    // Data-parallel traffic runs beside compute: NCCL then moves at most the
    // cluster's overlap rate (by default a share of the GPU's standalone
    // NVLink bus rate), whatever the topology.
    // A group inside one node never touches the network: NVSwitch carries
    // it at a larger share of its rate.
    let mut bg_links = links;
    bg_links.nvlink = cfg.cluster.dp_overlap_bandwidth.min(links.nvlink);
    let mut bg_links_node = links;
    bg_links_node.nvlink = (links.nvlink * cal::NVSWITCH_OVERLAP_SHARE)
        .max(cfg.cluster.dp_overlap_bandwidth)
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
    // How many times a step pays the sharded gathers and scatters. The
    // paper's FSDP keeps parameters gathered from forward to the end of the
    // step, so with several micro-batches (a pipeline, or accumulation) it
    // gathers once, accumulates unsharded gradients and reduce-scatters once
    // after the last backward, as PyTorch's pipeline stages run FSDP
    // (`set_reshard_after_backward(False)`, `set_requires_gradient_sync(False)`
    // until the last micro-batch). Full sharding re-gathers for every one.
    let dp_once = p.dp == DataParallel::Fsdp;
    let dp_passes = if dp_once { 1.0 } else { m };

    // One layer's gather and scatter over `group`, per micro-batch, with the
    // next layer prefetched behind the current one's compute. The first
    // gather and the last scatter have nothing to hide behind.
    let sharded = |group: Group, gather_in_backward: bool| {
        let ag = bg(Collective::AllGather, layer_params * bf16, group);
        let rs = bg(
            Collective::ReduceScatter,
            layer_params * cal::FSDP_REDUCE_BYTES,
            group,
        );
        let ag_root = bg(Collective::AllGather, root_params * bf16, group);
        let rs_root = bg(
            Collective::ReduceScatter,
            root_params * cal::FSDP_REDUCE_BYTES,
            group,
        );
        let comm_bwd = rs + if gather_in_backward { ag } else { zero };
        let ls = layers_stage - 1.0;
        let (f_exp, f_con) = overlap(ag, busy_fwd, slowdown);
        let (b_exp, b_con) = overlap(comm_bwd, busy_bwd, slowdown);
        let fwd_exposed = ag + ag_root + f_exp * ls;
        let bwd_exposed = rs + rs_root + b_exp * ls;
        let ag_total = (ag * (layers_stage * if gather_in_backward { 2.0 } else { 1.0 }) + ag_root)
            * dp_passes;
        let rs_total = (rs * layers_stage + rs_root) * dp_passes;
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
            (f_con + b_con) * ls,
        )
    };
    // Traffic started behind the last `layers_stage - 1` layers of a pass
    // (busy `per_layer` each); the last bucket is always exposed. Returns
    // exposed time and contention.
    let behind = |total: Seconds, per_layer: Seconds| {
        let last = total / layers_stage.max(1.0);
        let (exposed, stretch) = overlap(total - last, per_layer * (layers_stage - 1.0), slowdown);
        (exposed + last, stretch)
    };

    match p.dp {
        DataParallel::Fsdp | DataParallel::FsdpFull => {
            let (ag, rs, exposed, con) = sharded(dp_group, p.dp == DataParallel::FsdpFull);
            dp_allgather = ag;
            dp_reduce_scatter = rs;
            per_mb_exposed = exposed;
            per_mb_contention = con;
        }
        DataParallel::Hsdp => {
            let shard = Group::new(dp_per_node, dp_per_node);
            let (ag, rs, exposed, con) = sharded(shard, true);
            dp_allgather = ag;
            dp_reduce_scatter = rs;
            per_mb_exposed = exposed;
            per_mb_contention = con;
            let replicas = Group::new(dp_ranks / dp_per_node.max(1), 1);
            // The replicas reduce their gradient shards in FSDP's reduce type.
            let ar = bg(
                Collective::AllReduce,
                stage_params * cal::FSDP_REDUCE_BYTES / f64::from(dp_per_node),
                replicas,
            );
            let (exposed, stretch) = behind(ar, busy_bwd);
            dp_allreduce = Comm::new(ar, exposed);
            contention += stretch;
        }
        DataParallel::Ddp => {
            let ar = bg(Collective::AllReduce, stage_params * fp32, dp_group);
            let (exposed, stretch) = behind(ar, busy_bwd);
            dp_allreduce = Comm::new(ar, exposed);
            contention += stretch;
        }
        DataParallel::Zero1 => {
            let rs = bg(Collective::ReduceScatter, stage_params * fp32, dp_group);
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
        let bytes = Bytes(2.0 * tokens * h / sp_div);
        let stride = u64::from(p.tp) * u64::from(p.cp) * u64::from(dp);
        let send = collective::send_recv(bytes, stride < u64::from(gpn), &links);
        let total = send * (2.0 * m * v);
        Comm::new(total, send * (2.0 * (pp - 1.0) * v))
    } else {
        Comm::default()
    };

    // One micro-batch through this stage: every layer's busy time, the head,
    // and what data parallelism adds.
    let per_mb = (busy_fwd + busy_bwd) * layers_stage
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
        DataParallel::Hsdp => f64::from(dp_per_node),
        _ => f64::from(dp_ranks.max(1)),
    };
    let optimizer = Bytes(stage_params / opt_shard * cal::OPTIMIZER_BYTES_PER_PARAM) / hbm;

    let forward = (layer.forward() * layers_stage + head_fwd) * m;
    let backward = (layer.backward() * layers_stage + head_bwd) * m;
    let recompute_time = layer.recompute(recompute) * layers_stage * m;
    let tp_comm = Comm::new(
        (tp_fwd + tp_bwd + tp_recompute) * (layers_stage * m),
        (tp_fwd + tp_bwd + tp_recompute) * (layers_stage * m),
    );
    let cp_comm = Comm::new(
        (cp_f.total + cp_b.total) * (layers_stage * m),
        (cp_f.exposed + cp_b.exposed) * (layers_stage * m),
    );
    contention += (cp_con_f + cp_con_b) * (layers_stage * m) + per_mb_contention * dp_passes;

    let breakdown = Breakdown {
        forward,
        backward,
        recompute: recompute_time,
        optimizer,
        bubble,
        contention,
        dp_allgather,
        dp_reduce_scatter,
        dp_allreduce,
        tp: tp_comm,
        cp: cp_comm,
        pp: pp_comm,
    };
    let step = breakdown.step().max(Seconds(1e-12));

    let gpus_f = f64::from(gpus);
    let tokens_step = f64::from(cfg.global_batch) * seq;
    let tokens_per_s = tokens_step / step.0;
    let model_flops = tokens_step * model.flops_per_token(cfg.seq_len);
    let tflops_per_gpu = model_flops / step.0 / gpus_f / 1e12;
    let peak_tflops = peak_mm.as_tflops();
    let recompute_flops = match recompute {
        Recompute::Full => tokens_step * model.flops_per_token(cfg.seq_len) / 3.0,
        _ => 0.0,
    };
    let hfu = (model_flops + recompute_flops) / step.0 / gpus_f / 1e12 / peak_tflops;
    let compute_fraction = ((breakdown.compute() + contention).0 / step.0).clamp(0.0, 1.0);
    let power_w = power::per_gpu(gpu, compute_fraction).0;
    let memory = memory::per_gpu(cfg);
    let memory_total = memory.total();

    Report {
        step_time_s: step.0,
        breakdown,
        dp,
        micro_batches: cfg.micro_batches(),
        gpus,
        tokens_per_s,
        tokens_per_s_per_gpu: tokens_per_s / gpus_f,
        tflops_per_gpu,
        mfu: tflops_per_gpu / peak_tflops,
        hfu,
        exposed_comm_fraction: (breakdown.comm_exposed().0 / step.0).clamp(0.0, 1.0),
        compute_fraction,
        power_w_per_gpu: power_w,
        power_w_cluster: power_w * gpus_f,
        tokens_per_joule: tokens_per_s / (power_w * gpus_f),
        memory,
        memory_gib_per_gpu: memory_total.as_gib(),
        fits: memory_total.0 <= gpu.hbm.0,
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
    fn paper_fsdp_gathers_and_scatters_once_per_step() {
        // Four sequences per replica: one micro-batch of 4, or two of 2.
        let (ag1, rs1, m1) = gathers(DataParallel::Fsdp, 4);
        let (ag2, rs2, m2) = gathers(DataParallel::Fsdp, 2);
        assert_eq!((m1, m2), (1, 2));
        assert!((ag2.0 - ag1.0).abs() < 1e-12 && (rs2.0 - rs1.0).abs() < 1e-12);
    }

    #[test]
    fn full_sharding_gathers_and_scatters_per_micro_batch() {
        let (ag1, rs1, _) = gathers(DataParallel::FsdpFull, 4);
        let (ag2, rs2, _) = gathers(DataParallel::FsdpFull, 2);
        assert!((ag2.0 - 2.0 * ag1.0).abs() < 1e-9 && (rs2.0 - 2.0 * rs1.0).abs() < 1e-9);
    }

    #[test]
    fn paper_fsdp_holds_unsharded_gradients_across_micro_batches() {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.layout.micro_batch = 4;
        let one = memory::per_gpu(&cfg).gradients;
        cfg.layout.micro_batch = 2;
        let two = memory::per_gpu(&cfg).gradients;
        assert!(two.0 > one.0 * 10.0, "{} vs {}", two.0, one.0);
    }
}
