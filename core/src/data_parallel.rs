//! Data-parallel traffic of a stage: the shard group, FSDP's per-layer
//! gathers and scatters and what they expose beside each layer, and the
//! buckets DDP, HSDP and ZeRO-1 send once per step.

use crate::calibration as cal;
use crate::collective::{self, Collective, Group, Links};
use crate::evaluate::Comm;
use crate::phases::overlap;
use crate::scenario::{Config, DataParallel};
use crate::stack::{DpOverlap, FsdpSync, Placement};
use crate::units::{Bytes, Seconds};

/// The data-parallel shard group: DP x CP ranks (CP ranks hold the same
/// parameters), and how many of them share a node under the stack's
/// placement.
pub(crate) fn shard_group(cfg: &Config) -> (u32, u32) {
    let p = cfg.layout.parallel;
    let ranks = cfg.dp().saturating_mul(p.cp);
    let inner = match cfg.stack.placement {
        Placement::ModelParallelInNode => p.tp.saturating_mul(p.pp),
        Placement::PipelineOutermost => p.tp,
    };
    let per_node = (cfg.cluster.domain() / inner.max(1)).clamp(1, ranks.max(1));
    (ranks, per_node)
}

/// A stage's data-parallel traffic over one step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DataParallelCost {
    /// Parameter AllGathers.
    pub allgather: Comm,
    /// Gradient ReduceScatters.
    pub reduce_scatter: Comm,
    /// Gradient AllReduces.
    pub allreduce: Comm,
    /// What sharded traffic exposes per micro-batch (inside the pipeline's
    /// micro-batch time unless it syncs once per step).
    pub per_mb_exposed: Seconds,
    /// Compute stretched by sharded traffic per micro-batch.
    pub per_mb_stretch: Seconds,
    /// Compute stretched by bucketed traffic, over the step.
    pub stretch: Seconds,
    /// Whether the sharded traffic is paid once per step.
    pub once: bool,
    /// Sharded traffic of one layer and micro-batch, as it runs (for the
    /// step's timeline).
    pub layer: ShardedLayer,
    /// Traffic bucketed once per step beside the forward (ZeRO-1's
    /// parameter gather).
    pub buckets_fwd: Bucketed,
    /// Traffic bucketed once per step beside the backward (DDP's and
    /// HSDP's AllReduce, ZeRO-1's ReduceScatter).
    pub buckets_bwd: Bucketed,
}

/// What data parallelism adds to one micro-batch through a stage: the
/// first gather and last scatter, and per layer after the first what its
/// traffic exposes and stretches (nothing when it is paid once per step).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PerMicroBatch {
    /// The first gather and the last scatter.
    pub edges: Seconds,
    /// Each layer after the first.
    pub per_layer: Seconds,
}

impl PerMicroBatch {
    /// What `dp` adds to one micro-batch.
    pub(crate) fn of(dp: &DataParallelCost) -> Self {
        let l = &dp.layer;
        if dp.once {
            PerMicroBatch {
                edges: Seconds(0.0),
                per_layer: Seconds(0.0),
            }
        } else {
            PerMicroBatch {
                edges: l.first + l.last,
                per_layer: l.fwd_exposed + l.bwd_exposed + l.fwd_stretch + l.bwd_stretch,
            }
        }
    }
}

/// Sharded data-parallel traffic of one layer and micro-batch: the gather
/// prefetched beside the forward, the traffic beside the backward, what
/// each exposes and stretches, and the first gather and last scatter,
/// which have nothing to hide behind.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShardedLayer {
    /// One layer's gather in the forward.
    pub fwd: Seconds,
    /// One layer's traffic in the backward (its scatter, and the next
    /// layer's gather under full sharding).
    pub bwd: Seconds,
    /// What a gather exposes beside one layer's forward, and the stretch.
    pub fwd_exposed: Seconds,
    /// The compute stretched beside one layer's forward.
    pub fwd_stretch: Seconds,
    /// What the backward traffic exposes beside one layer's backward.
    pub bwd_exposed: Seconds,
    /// The compute stretched beside one layer's backward.
    pub bwd_stretch: Seconds,
    /// The first gather (with the embedding's), exposed whole.
    pub first: Seconds,
    /// The last scatter (with the embedding's), exposed whole.
    pub last: Seconds,
}

/// Traffic sent in buckets behind one pass of a stage's layers, once per
/// step: its time, what shows after the pass and the compute's stretch.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bucketed {
    /// What is exposed (the last bucket, and what did not fit beside).
    pub exposed: Seconds,
    /// Compute stretched beside it.
    pub stretch: Seconds,
}

/// The links data-parallel traffic sees beside compute: across nodes at
/// most the overlap rate, inside one node at least the NVSwitch share.
fn background_links(cfg: &Config, links: &Links) -> (Links, Links) {
    let overlap_bw = cfg.dp_overlap_bandwidth();
    let mut across = *links;
    across.nvlink = overlap_bw.min(links.nvlink);
    let mut node = *links;
    node.nvlink = (links.nvlink * cal::NVSWITCH_OVERLAP_SHARE)
        .max(overlap_bw)
        .min(links.nvlink);
    (across, node)
}

/// What data-parallel traffic hides behind: a layer's busy time
/// (forward, backward) for sharded traffic and for bucketed traffic, or
/// nothing where the stack runs it on the compute stream.
fn hidden_behind(
    cfg: &Config,
    busy: (Seconds, Seconds),
) -> ((Seconds, Seconds), (Seconds, Seconds)) {
    let overlaps = |sharded: bool| match cfg.stack.dp_overlap {
        DpOverlap::Always => true,
        DpOverlap::ShardedOnly => sharded,
        DpOverlap::Never => false,
    };
    let none = (Seconds(0.0), Seconds(0.0));
    (
        if overlaps(true) { busy } else { none },
        if overlaps(false) { busy } else { none },
    )
}

/// The data-parallel traffic over the shard group ([`shard_group`]) of a
/// stage of `layers` layers, each with `layer_params` parameters in the
/// group's traffic ([`Config::dp_layer_params`]) and busy `busy`
/// (forward, backward), over `m` micro-batches. FSDP prefetches the
/// next layer's gather behind the current one; gradient buckets go out
/// behind the backward. Traffic beside compute moves at most the overlap
/// rate across nodes; inside a node NVSwitch carries it at a larger share.
pub(crate) fn data_parallel(
    cfg: &Config,
    links: &Links,
    (ranks, per_node): (u32, u32),
    (layers, layer_params): (f64, f64),
    busy: (Seconds, Seconds),
    slowdown: f64,
    m: f64,
) -> DataParallelCost {
    let p = cfg.layout.parallel;
    let model = &cfg.model;
    let zero = Seconds(0.0);
    let root_params = model.embedding_params() * cfg.embedding_matrices() / f64::from(p.tp);
    let stage_params = layer_params * layers + root_params;
    let reduce = cfg.stack.reduce_bytes;
    let bf16 = 2.0;
    let group = Group::new(ranks, per_node);
    let (across, node) = background_links(cfg, links);
    let link = |group: Group| if group.nodes() <= 1 { &node } else { &across };
    let bg =
        |op, bytes: f64, group: Group| collective::time(op, Bytes(bytes), group, link(group)).time;
    // A sharded layer's traffic in as many collectives as the stack makes
    // of it, each paying its latency and the host work of its per-rank
    // list where the stack builds one.
    let list = |group: Group| cfg.stack.dp_list_host(group.ranks, p.dp);
    let n = |op| cfg.stack.dp_collectives_per_layer(model, op, p.dp);
    let ((busy_fwd, busy_bwd), busy_buckets) = hidden_behind(cfg, busy);
    // Once, when the stack keeps FSDP's parameters gathered and gradients
    // unsharded across micro-batches; otherwise per micro-batch (ZeRO-2
    // semantics, and always for full sharding).
    let once = p.dp == DataParallel::Fsdp && cfg.stack.fsdp_sync == FsdpSync::OncePerStep;
    let passes = if once { 1.0 } else { m };
    let mut cost = DataParallelCost {
        once,
        ..DataParallelCost::default()
    };

    // One layer's gather and scatter per micro-batch; the first gather and
    // the last scatter have nothing to hide behind.
    let sharded = |group: Group, gather_in_backward: bool, cost: &mut DataParallelCost| {
        // Its gathers and scatters all run the same ring.
        let r = collective::Ring::of(Collective::AllGather, group, link(group));
        let list = list(group);
        let per_layer = |op, bytes: f64| (r.time(Bytes(bytes / n(op))) + list) * n(op);
        let ag = per_layer(Collective::AllGather, layer_params * bf16);
        let rs = per_layer(Collective::ReduceScatter, layer_params * reduce);
        let ag_root = r.time(Bytes(root_params * bf16)) + list;
        let rs_root = r.time(Bytes(root_params * reduce)) + list;
        let comm_bwd = rs + if gather_in_backward { ag } else { zero };
        let hidden = layers - 1.0;
        let (f_exp, f_con) = overlap(ag, busy_fwd, slowdown);
        let (b_exp, b_con) = overlap(comm_bwd, busy_bwd, slowdown);
        let fwd_exposed = ag + ag_root + f_exp * hidden;
        let bwd_exposed = rs + rs_root + b_exp * hidden;
        let gathers = if gather_in_backward { 2.0 } else { 1.0 };
        let ag_total = (ag * (layers * gathers) + ag_root) * passes;
        let rs_total = (rs * layers + rs_root) * passes;
        // What shows of the hidden layers' backward traffic is split between
        // gathers and scatters by volume; the last scatter is a scatter.
        let bwd_ag_share = if gather_in_backward {
            ag.0 / comm_bwd.0.max(1e-30)
        } else {
            0.0
        };
        let ag_exposed = fwd_exposed + b_exp * hidden * bwd_ag_share;
        let rs_exposed = bwd_exposed - b_exp * hidden * bwd_ag_share;
        cost.allgather = Comm::new(ag_total, ag_exposed * passes);
        cost.reduce_scatter = Comm::new(rs_total, rs_exposed * passes);
        cost.per_mb_exposed = fwd_exposed + bwd_exposed;
        cost.per_mb_stretch = (f_con + b_con) * hidden;
        cost.layer = ShardedLayer {
            fwd: ag,
            bwd: comm_bwd,
            fwd_exposed: f_exp,
            fwd_stretch: f_con,
            bwd_exposed: b_exp,
            bwd_stretch: b_con,
            first: ag + ag_root,
            last: rs + rs_root,
        };
    };
    let (bwd, fwd) = match p.dp {
        DataParallel::Fsdp | DataParallel::FsdpFull => {
            sharded(group, p.dp == DataParallel::FsdpFull, &mut cost);
            (None, None)
        }
        DataParallel::Hsdp => {
            sharded(Group::new(per_node, per_node), true, &mut cost);
            let replicas = Group::new(ranks / per_node.max(1), 1);
            // The replicas reduce their gradient shards in the stack's reduce type.
            let bytes = stage_params * reduce / f64::from(per_node);
            let ar = bg(Collective::AllReduce, bytes, replicas);
            if cfg.stack.dp_overlap == DpOverlap::Always {
                replica_allreduce(&mut cost, ar, layers, busy_bwd, slowdown);
                (None, None)
            } else {
                (Some((Collective::AllReduce, ar)), None)
            }
        }
        DataParallel::Ddp => {
            let ar = bg(Collective::AllReduce, stage_params * reduce, group);
            (Some((Collective::AllReduce, ar)), None)
        }
        DataParallel::Zero1 => {
            let op = if cfg.stack.zero1_allreduce {
                Collective::AllReduce
            } else {
                Collective::ReduceScatter
            };
            (
                Some((op, bg(op, stage_params * reduce, group))),
                Some(bg(Collective::AllGather, stage_params * bf16, group)),
            )
        }
    };
    buckets(&mut cost, bwd, fwd, layers, busy_buckets, slowdown);
    cost.stretch += cost.per_mb_stretch * passes;
    cost
}

/// HSDP's replica AllReduce of one step (`ar`), as PyTorch's hybrid
/// sharding issues it: each unit's share on its own stream right after the
/// unit's ReduceScatter, over the network while the node's gathers and
/// scatters use NVLink. A layer's backward traffic so takes the longer of
/// its sharded traffic and its AllReduce share, behind the same backward
/// compute; what the AllReduce adds is the growth of each hidden layer's
/// exposure and stretch, and the last unit's share.
// Source: PyTorch torch/distributed/fsdp/_runtime_utils.py, _reduce_grad (HYBRID_SHARD: reduce_scatter_tensor on the post-backward stream, then all_reduce over the inter-node group on _all_reduce_stream)
fn replica_allreduce(
    cost: &mut DataParallelCost,
    ar: Seconds,
    layers: f64,
    busy_bwd: Seconds,
    slowdown: f64,
) {
    let per_layer = ar / layers;
    let comm = cost.layer.bwd;
    let (e0, s0) = overlap(comm, busy_bwd, slowdown);
    let (e1, s1) = overlap(comm.max(per_layer), busy_bwd, slowdown);
    let hidden = layers - 1.0;
    let b = Bucketed {
        exposed: (e1 - e0) * hidden + per_layer,
        stretch: (s1 - s0) * hidden,
    };
    cost.allreduce = Comm::new(ar, b.exposed);
    cost.stretch += b.stretch;
    cost.buckets_bwd = b;
}

/// Traffic sent in buckets behind one pass of `layers` layers, each busy
/// `busy` (forward, backward): the backward's (`bwd`, its collective and
/// time) and the forward's gather (`fwd`). The last bucket is always
/// exposed; the rest hides behind the last `layers - 1` layers.
fn buckets(
    cost: &mut DataParallelCost,
    bwd: Option<(Collective, Seconds)>,
    fwd: Option<Seconds>,
    layers: f64,
    (busy_fwd, busy_bwd): (Seconds, Seconds),
    slowdown: f64,
) {
    let behind = |total: Seconds, per_layer: Seconds| {
        let last = total / layers;
        let (exposed, stretch) = overlap(total - last, per_layer * (layers - 1.0), slowdown);
        Bucketed {
            exposed: exposed + last,
            stretch,
        }
    };
    if let Some((op, total)) = bwd {
        let b = behind(total, busy_bwd);
        let comm = Comm::new(total, b.exposed);
        if op == Collective::AllReduce {
            cost.allreduce = comm;
        } else {
            cost.reduce_scatter = comm;
        }
        cost.stretch += b.stretch;
        cost.buckets_bwd = b;
    }
    if let Some(total) = fwd {
        let b = behind(total, busy_fwd);
        cost.allgather = Comm::new(total, b.exposed);
        cost.stretch += b.stretch;
        cost.buckets_fwd = b;
    }
}
