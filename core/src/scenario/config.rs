//! [`Config`], the checked `Copy` form of a scenario that evaluation runs
//! on, and what follows from it: replicas, micro-batches, the pipeline's
//! split of layers and the data-parallel rate under compute.

use super::{Parallel, Precision, Recompute, Schedule};
use crate::hardware::Cluster;
use crate::model::Model;
use crate::stack::Stack;
use crate::units::Bandwidth;
use serde::{Deserialize, Serialize};

/// Everything about how one step is run on the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// Degrees, data-parallel flavour and schedule.
    pub parallel: Parallel,
    /// Micro-batch in sequences.
    pub micro_batch: u32,
    /// Activation recomputation.
    pub recompute: Recompute,
    /// Layers whose saved activations are offloaded to host memory between
    /// their forward and backward (Megatron-Core's
    /// `cpu_offloading_num_layers`; 0 keeps every layer's on the GPU).
    #[serde(default, skip_serializing_if = "crate::scenario::file::is_zero")]
    pub offload_layers: u32,
    /// What a `selective` recomputation reruns, as Megatron-Core's
    /// `recompute_modules` names it (empty: the model's own selective
    /// recomputation).
    #[serde(default, skip_serializing_if = "super::Modules::is_empty")]
    pub recompute_modules: super::Modules,
}

/// A checked scenario: evaluation of a `Config` that passed [`Config::check`]
/// cannot fail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The cluster, overrides applied.
    pub cluster: Cluster,
    /// The model.
    pub model: Model,
    /// Context length in tokens.
    pub seq_len: u32,
    /// Global batch in sequences.
    pub global_batch: u32,
    /// The layout.
    pub layout: Layout,
    /// Matmul precision.
    pub precision: Precision,
    /// The software stack's mechanisms and constants.
    pub stack: Stack,
}

impl Config {
    /// The rate of data-parallel traffic across nodes under compute: the
    /// user's override, or the stack's share of the NVLink bus rate.
    #[must_use]
    pub fn dp_overlap_bandwidth(&self) -> Bandwidth {
        self.cluster.dp_overlap_bandwidth.unwrap_or_else(|| {
            crate::hardware::Cluster::nvlink_bus(&self.cluster.gpu) * self.stack.dp_overlap_share
        })
    }

    /// Embedding-sized matrices (the input embedding, the output head) on
    /// the stage that holds the most: both without a pipeline and on ZB-V's
    /// first stage, where the V starts and turns into the loss; one on each
    /// end stage of any other pipeline.
    #[must_use]
    pub fn embedding_matrices(&self) -> f64 {
        let p = &self.layout.parallel;
        if p.pp <= 1 || p.schedule.v_shape() {
            2.0
        } else {
            1.0
        }
    }

    /// Layers on the pipeline's stages: the most any stage before the last
    /// holds, and the last stage's (beside the output head). Layers that
    /// divide evenly over the chunks of an interleaved schedule are held
    /// so under every stack; otherwise as the stack splits them
    /// ([`crate::stack::PipelineSplit`]): Megatron-LM's
    /// `num_layers // pipeline_model_parallel_size` where the layers divide
    /// over the stages (NeMo's recipes, Nemotron-4 340B's 96 layers in 8
    /// stages of 12 chunks, the naive placement Yeung et al. measure the
    /// head's imbalance against), the embedding and the loss counted as a
    /// layer each where the layers and the two fill the chunks (Llama 3.1
    /// 405B's 126 layers on 16 stages: 8 a stage, 7 on the first and the
    /// last); torchtitan's spread of the layers and the two over the
    /// stages' parts; otherwise the split that balances the head by its
    /// FLOPs ([`crate::evaluate::split_layers`]). Without a pipeline,
    /// `(0, layers)`.
    #[must_use]
    pub fn pipeline_split(&self) -> (u32, u32) {
        use crate::stack::PipelineSplit;
        let m = &self.model;
        let p = &self.layout.parallel;
        if p.pp <= 1 {
            // One stage holds every layer ([`crate::evaluate::split_layers`]).
            return (0, m.layers);
        }
        let interleaved = p.schedule == Schedule::Interleaved;
        let v = p.chunks().max(1);
        let chunks = u64::from(p.pp) * u64::from(v);
        // An interleaved schedule's chunks that divide the layers hold them
        // evenly under every stack (the bound and the simulation of its
        // passes take equal chunks).
        let even = if interleaved {
            u64::from(m.layers) % chunks == 0
        } else {
            self.stack.pipeline_split == PipelineSplit::Megatron && m.layers % p.pp == 0
        };
        if even {
            let each = m.layers / p.pp;
            return (each, each);
        }
        // (A V-shaped schedule runs the embedding and the head on one stage:
        // balanced below.)
        let slots = u64::from(m.layers) + 2;
        match self.stack.pipeline_split {
            PipelineSplit::Weighted if !p.schedule.v_shape() => {
                if let Some(split) = crate::evaluate::weighted_split(m.layers, p.pp, v) {
                    return split;
                }
            }
            PipelineSplit::Megatron
                if !p.schedule.v_shape() && slots % chunks == 0 && slots >= 2 * u64::from(p.pp) =>
            {
                // In range: `slots / pp` is at most the layers and at least 2.
                #[allow(clippy::cast_possible_truncation)]
                let each = (slots / u64::from(p.pp)) as u32;
                return (if p.pp > 2 { each } else { each - 1 }, each - 1);
            }
            _ => {}
        }
        let h = f64::from(m.hidden);
        let layer = m.attention_params()
            + m.active_mlp_params()
            + 7.0 / 6.0 * m.attention_flops_units(self.seq_len).0 / f64::from(m.layers.max(1));
        let head = h * f64::from(m.vocab) / layer.max(1.0);
        crate::evaluate::split_layers(m.layers, self.layout.parallel.pp, head)
    }

    /// Data-parallel replicas: GPUs / (TP x PP x CP).
    #[must_use]
    pub fn dp(&self) -> u32 {
        let p = &self.layout.parallel;
        let mp = u64::from(p.tp) * u64::from(p.pp) * u64::from(p.cp);
        u32::try_from(u64::from(self.cluster.gpus()) / mp.max(1)).unwrap_or(0)
    }

    /// Expert data-parallel replicas: the GPUs of a pipeline stage over the
    /// expert group, `TP x CP x DP / (EP x ETP)`.
    #[must_use]
    pub fn expert_dp(&self) -> u32 {
        let p = &self.layout.parallel;
        let group = u64::from(p.pp) * u64::from(p.ep) * u64::from(p.etp);
        u32::try_from(u64::from(self.cluster.gpus()) / group.max(1))
            .unwrap_or(0)
            .max(1)
    }

    /// One layer's parameters on one GPU (the mean over the layers): the
    /// dense part split over TP, and the routed experts split over EP x ETP.
    #[must_use]
    pub fn layer_params_local(&self) -> (f64, f64) {
        let m = &self.model;
        let p = &self.layout.parallel;
        let experts = m.expert_params();
        let dense = (m.layer_params() - experts) / f64::from(p.tp.max(1));
        if experts <= 0.0 {
            // A dense model: nothing to split over the expert groups.
            return (dense, 0.0);
        }
        (
            dense,
            experts / (f64::from(p.ep.max(1)) * f64::from(p.etp.max(1))),
        )
    }

    /// One layer's parameters whose gradients (and, sharded, weights) go
    /// over the data-parallel shard group of `ranks`: the dense part, and
    /// the routed experts' weighted by the share of that traffic their
    /// expert data-parallel group carries (none when each expert lives on
    /// one GPU). The layer's parameters on one GPU are the caller's
    /// [`Self::layer_params_local`], computed once per evaluation.
    #[must_use]
    pub(crate) fn dp_layer_params(&self, (dense, expert): (f64, f64), ranks: u32) -> f64 {
        // A dense model has no expert part to weigh.
        if expert <= 0.0 || ranks <= 1 {
            return dense;
        }
        let sent = |n: f64| (n - 1.0).max(0.0) / n.max(1.0);
        dense + expert * sent(f64::from(self.expert_dp())) / sent(f64::from(ranks))
    }

    /// Micro-batches per step on each replica.
    #[must_use]
    pub fn micro_batches(&self) -> u32 {
        let per_replica = self.global_batch / self.dp().max(1);
        per_replica / self.layout.micro_batch.max(1)
    }
}
