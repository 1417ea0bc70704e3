//! The checks of a configuration: what no layout can change
//! ([`Config::check_setting`]) and the layout ([`Config::check_layout`]),
//! each error naming what to change.

use super::{limits, Config, Precision, Schedule};
use crate::error::Error;

/// Checks that a count is at least 1 and at most `max`; the error names
/// `field`.
pub(super) fn positive(v: u32, field: &'static str, max: u32) -> Result<(), Error> {
    if (1..=max).contains(&v) {
        return Ok(());
    }
    if v == 0 {
        return Err(Error::NotPositive { field });
    }
    if v > max {
        return Err(Error::TooLarge {
            field,
            max: f64::from(max),
        });
    }
    Ok(())
}

/// Checks that a hardware value is finite, positive and within
/// [`limits::HARDWARE_MIN`] and [`limits::HARDWARE_VALUE`], and returns it;
/// the error names `field`.
pub(super) fn positive_f(v: f64, field: &'static str) -> Result<f64, Error> {
    // The common case in two comparisons (NaN fails both); what fails them
    // is named below.
    if (limits::HARDWARE_MIN..=limits::HARDWARE_VALUE).contains(&v) {
        return Ok(v);
    }
    if v.is_nan() || v <= 0.0 || !v.is_finite() {
        return Err(Error::NotPositive { field });
    }
    if v > limits::HARDWARE_VALUE {
        return Err(Error::TooLarge {
            field,
            max: limits::HARDWARE_VALUE,
        });
    }
    if v < limits::HARDWARE_MIN {
        return Err(Error::TooSmall {
            field,
            min: limits::HARDWARE_MIN,
        });
    }
    Ok(v)
}

impl Config {
    /// Checks every constraint, so that evaluation cannot fail afterwards.
    pub fn check(&self) -> Result<(), Error> {
        self.check_setting()?;
        self.check_layout()
    }

    /// Checks what no parallel layout can change: the cluster, the
    /// hardware, the model's shape, the context, the batch and the
    /// precision. A layout search runs only on a setting that passes.
    // Not inlined: the core is built at opt-level 3, and a copy in each
    // caller cost the site 1 KiB.
    #[inline(never)]
    pub fn check_setting(&self) -> Result<(), Error> {
        let m = &self.model;
        let c = &self.cluster;
        positive(
            c.gpus_per_node,
            "hardware.gpus_per_node",
            limits::GPUS_PER_NODE,
        )?;
        positive(c.nodes, "hardware.nodes", limits::GPUS / c.gpus_per_node)?;
        positive(c.nvlink_domain, "hardware.nvlink_domain", limits::GPUS)?;
        // One after another (a loop over an array of them built the array
        // on every evaluation), in this order.
        positive_f(c.gpu.peak_bf16.0 / 1e12, "hardware.peak_tflops")?;
        positive_f(c.gpu.hbm.as_gib(), "hardware.hbm_gib")?;
        positive_f(c.gpu.hbm_bandwidth.as_gb_s(), "hardware.hbm_gb_per_s")?;
        positive_f(c.gpu.nvlink.as_gb_s(), "hardware.nvlink_gb_per_s")?;
        positive_f(c.gpu.host_link.as_gb_s(), "hardware.host_link_gb_per_s")?;
        positive_f(
            c.network_per_gpu.as_gb_s() * 8.0,
            "hardware.inter_node_gbps_per_gpu",
        )?;
        // Only a rate the user set is checked by its name: the default is a
        // share of the NVLink rate, checked above.
        if let Some(b) = c.dp_overlap_bandwidth {
            positive_f(b.as_gb_s(), "hardware.dp_overlap_gb_per_s")?;
        }
        // What the arithmetic reads of the GPU and the network beyond the
        // datasheet rates: efficiencies are fractions of a peak or a line
        // rate, power is positive and the idle draw below the limit, fp8 is
        // a rate or absent.
        let g = &c.gpu;
        for (v, field) in [
            (g.gemm_efficiency, "gpu.gemm_efficiency"),
            (g.attention_efficiency, "gpu.attention_efficiency"),
            (g.te_attention_efficiency, "gpu.te_attention_efficiency"),
            (c.network_efficiency, "cluster.network_efficiency"),
        ] {
            if !(v > 0.0 && v <= 1.0) {
                return Err(Error::OutOfRange {
                    field,
                    min: 0.0,
                    max: 1.0,
                });
            }
        }
        // The keys at which cuDNN's attention reaches half its rate: a
        // length, at most the longest context.
        if !(g.te_attention_half_length >= 0.0
            && g.te_attention_half_length <= f64::from(limits::SEQ_LEN))
        {
            return Err(Error::OutOfRange {
                field: "gpu.te_attention_half_length",
                min: 0.0,
                max: f64::from(limits::SEQ_LEN),
            });
        }
        if !(g.idle.0 >= 0.0 && g.tdp.0 > g.idle.0 && g.tdp.0.is_finite()) {
            return Err(Error::OutOfRange {
                field: "gpu.tdp",
                min: g.idle.0,
                max: limits::HARDWARE_VALUE,
            });
        }
        if !(g.peak_fp8.0 >= 0.0 && g.peak_fp8.0.is_finite()) || g.sm_count == 0 {
            return Err(Error::NotPositive {
                field: "gpu.peak_fp8",
            });
        }
        if !(g.peak_fp4.0 >= 0.0 && g.peak_fp4.0.is_finite()) {
            return Err(Error::NotPositive {
                field: "gpu.peak_fp4",
            });
        }
        positive(m.layers, "model.layers", limits::DIM)?;
        positive(m.hidden, "model.hidden", limits::DIM)?;
        positive(m.heads, "model.heads", limits::DIM)?;
        positive(m.kv_heads, "model.kv_heads", m.heads)?;
        positive(m.ffn, "model.ffn", limits::DIM)?;
        positive(m.vocab, "model.vocab", limits::DIM * 4)?;
        if let Some(d) = m.head_dim {
            positive(d, "model.head_dim", limits::DIM)?;
        } else if m.hidden % m.heads != 0 {
            return Err(Error::HeadsNotDividingHidden {
                heads: m.heads,
                hidden: m.hidden,
            });
        }
        if m.heads % m.kv_heads != 0 {
            return Err(Error::KvHeadsNotDividingHeads {
                kv_heads: m.kv_heads,
                heads: m.heads,
            });
        }
        check_mixture(m)?;
        if let Some(w) = m.window {
            positive(w.tokens, "model.window.tokens", limits::SEQ_LEN)?;
        }
        positive(self.seq_len, "seq_len", limits::SEQ_LEN)?;
        positive(self.global_batch, "global_batch", limits::GLOBAL_BATCH)?;
        let peak = match self.precision {
            Precision::Fp8 => c.gpu.peak_fp8.0,
            Precision::Fp4 => c.gpu.peak_fp4.0,
            Precision::Bf16 | Precision::Fp16 => 1.0,
        };
        if peak <= 0.0 {
            return Err(Error::PrecisionUnsupported {
                gpu: c.gpu.name,
                precision: self.precision.key(),
            });
        }
        Ok(())
    }

    /// Megatron-Core's rules for `cpu_offloading_num_layers`: fewer than
    /// the model's layers, no pipeline, no recomputation.
    fn check_offload(&self) -> Result<(), Error> {
        let m = &self.model;
        let p = &self.layout.parallel;
        let off = self.layout.offload_layers;
        if off == 0 {
            return Ok(());
        }
        if off >= m.layers {
            return Err(Error::TooLarge {
                field: "offload_layers",
                max: f64::from(m.layers - 1),
            });
        }
        if p.pp > 1 {
            return Err(Error::OffloadNeeds { what: "pp = 1" });
        }
        if self.layout.recompute != super::Recompute::None {
            return Err(Error::OffloadNeeds {
                what: "no recomputation",
            });
        }
        Ok(())
    }

    /// Megatron-Core's rules for `recompute_modules`: a `selective`
    /// recomputation, and the part of the model each module reruns.
    fn check_modules(&self) -> Result<(), Error> {
        let modules = self.layout.recompute_modules;
        if modules.is_empty() {
            return Ok(());
        }
        let needs = |module: super::Module, what| Error::ModuleNeeds {
            module: module.key(),
            what,
        };
        if self.layout.recompute != super::Recompute::Selective {
            let first = modules.iter().next().unwrap_or(super::Module::CoreAttn);
            return Err(needs(first, "recompute: selective"));
        }
        if modules.has(super::Module::MlaUpProj) && self.model.latent.is_none() {
            return Err(needs(super::Module::MlaUpProj, "latent attention"));
        }
        if modules.has(super::Module::MoeAct) && self.model.moe.is_none() {
            return Err(needs(super::Module::MoeAct, "mixture-of-experts layers"));
        }
        Ok(())
    }

    /// Checks the parallel layout against the setting (which
    /// [`Self::check_setting`] has passed).
    // Not inlined: the core is built at opt-level 3, and a copy in each
    // caller cost the site 1 KiB.
    #[inline(never)]
    pub fn check_layout(&self) -> Result<(), Error> {
        let m = &self.model;
        let p = &self.layout.parallel;
        let c = &self.cluster;
        positive(self.layout.micro_batch, "micro_batch", limits::GLOBAL_BATCH)?;
        positive(p.tp, "parallel.tp", limits::DEGREE)?;
        positive(p.pp, "parallel.pp", limits::DEGREE)?;
        positive(p.cp, "parallel.cp", limits::DEGREE)?;
        positive(p.virtual_stages, "parallel.virtual_stages", limits::DEGREE)?;
        if m.heads % p.tp != 0 {
            return Err(Error::TpNotDividingHeads {
                tp: p.tp,
                heads: m.heads,
            });
        }
        let v = p.schedule.chunks(p.virtual_stages);
        pipeline_depth(m.layers, p.pp, v, p.schedule == Schedule::Interleaved)?;
        self.check_offload()?;
        self.check_modules()?;
        let stack = &self.stack;
        if p.sp && p.tp > 1 && !stack.sequence_parallel {
            return Err(Error::StackLacks {
                stack: stack.id.key(),
                feature: "sequence parallelism",
            });
        }
        if p.schedule == Schedule::Interleaved && p.pp > 1 && !stack.interleaving {
            return Err(Error::StackLacks {
                stack: stack.id.key(),
                feature: "interleaved pipeline schedule",
            });
        }
        if p.splits_backward() && !stack.interleaving {
            return Err(Error::StackLacks {
                stack: stack.id.key(),
                feature: "zero-bubble pipeline schedule",
            });
        }
        if p.cp > 1 && self.seq_len % (2 * p.cp) != 0 {
            return Err(Error::CpNotDividingSequence {
                cp: p.cp,
                seq_len: self.seq_len,
            });
        }
        let mp = u64::from(p.tp) * u64::from(p.pp) * u64::from(p.cp);
        let gpus = c.gpus();
        if mp > u64::from(gpus) || u64::from(gpus) % mp != 0 {
            return Err(Error::LayoutNotDividingGpus {
                model_parallel: u32::try_from(mp).unwrap_or(u32::MAX),
                gpus,
            });
        }
        let dp = self.dp();
        positive(p.ep, "parallel.ep", limits::DEGREE)?;
        positive(p.etp, "parallel.etp", limits::DEGREE)?;
        if p.ep > 1 || p.etp > 1 {
            let Some(e) = m.moe else {
                return Err(Error::ExpertsNeedMoe {
                    ep: p.ep,
                    etp: p.etp,
                });
            };
            if e.experts % p.ep != 0 {
                return Err(Error::EpNotDividingExperts {
                    ep: p.ep,
                    experts: e.experts,
                });
            }
            let group = u64::from(p.ep) * u64::from(p.etp);
            let stage = u64::from(gpus) / u64::from(p.pp.max(1));
            if group > stage || stage % group != 0 {
                return Err(Error::ExpertGroupNotDividingStage {
                    expert_group: u32::try_from(group).unwrap_or(u32::MAX),
                    stage: u32::try_from(stage).unwrap_or(u32::MAX),
                });
            }
        }
        let unit = u64::from(dp) * u64::from(self.layout.micro_batch);
        if u64::from(self.global_batch) % unit != 0 {
            return Err(Error::BatchNotDivisible {
                global_batch: self.global_batch,
                dp,
                micro_batch: self.layout.micro_batch,
            });
        }
        let micro_batches = self.micro_batches();
        enough_micro_batches(p, micro_batches)?;
        // One stage simulates at most 3 × (32 + 34) passes (a round is one
        // micro-batch): only a pipeline can pass the bound.
        let passes = if p.pp > 1 {
            crate::timeline::simulated_passes(p.schedule, p.pp, v, micro_batches)
        } else {
            0
        };
        if passes > limits::SIMULATED_PASSES {
            return Err(Error::PipelineTooLong {
                stages: p.pp,
                chunks: if p.pp > 1 { v } else { 1 },
                passes,
                max: limits::SIMULATED_PASSES,
            });
        }
        if v > 1 && p.pp > 1 {
            // Every chunk holds at least one layer, but the last stage's
            // last may hold the loss alone (and the first stage's first the
            // embedding, where the split leaves a stage a layer short), as
            // Megatron-Core splits them when asked.
            // (With two stages the first is the one that holds the embedding.)
            let (first, last) = self.pipeline_split();
            let first_spare = u32::from(p.pp == 2);
            if let Some(layers) = [(first, first_spare), (last, 1)]
                .into_iter()
                .find_map(|(l, spare)| (l + spare < v).then_some(l))
            {
                return Err(Error::InterleavingNeedsLayers { layers, chunks: v });
            }
        }
        Ok(())
    }
}

/// `pp` stages of `v` chunks each over `layers` layers: every stage holds
/// a layer; of an `interleaved` pipeline's chunks, the first and the last
/// may hold the embedding and the loss in place of one, as Megatron-Core
/// splits them when asked (`account_for_embedding_in_pipeline_split`,
/// `..._loss_...`): NVIDIA's GB200 recipes run Llama 3.1 405B's 126
/// layers on 16 stages of 8 chunks. A necessary count: the check of the
/// split in [`Config::check_layout`] asks it of each stage.
fn pipeline_depth(layers: u32, pp: u32, v: u32, interleaved: bool) -> Result<(), Error> {
    let stages = pp.saturating_mul(v);
    let least = if interleaved && pp > 1 && v > 1 {
        stages.saturating_sub(2).max(pp)
    } else {
        stages
    };
    if layers < least {
        return Err(Error::PipelineTooDeep {
            stages,
            least,
            layers,
        });
    }
    Ok(())
}

/// The interleaved schedule needs a micro-batch per stage, DualPipeV one
/// per chunk (two per stage).
fn enough_micro_batches(p: &super::Parallel, micro_batches: u32) -> Result<(), Error> {
    let least = match p.schedule {
        Schedule::Interleaved => p.pp,
        Schedule::DualPipeV => p.pp.saturating_mul(2),
        _ => 0,
    };
    if p.pp > 1 && micro_batches < least {
        return Err(Error::InterleavingNeedsMicroBatches {
            schedule: p.schedule.key(),
            micro_batches,
            least,
            pp: p.pp,
        });
    }
    Ok(())
}

/// Checks a model's latent attention and mixture-of-experts shape.
fn check_mixture(m: &crate::model::Model) -> Result<(), Error> {
    if let Some(l) = m.latent {
        positive(l.q_rank, "model.latent.q_rank", limits::DIM)?;
        positive(l.kv_rank, "model.latent.kv_rank", limits::DIM)?;
        positive(l.rope, "model.latent.rope", limits::DIM)?;
    }
    if let Some(e) = m.moe {
        positive(e.experts, "model.moe.experts", limits::EXPERTS)?;
        positive(e.top_k, "model.moe.top_k", e.experts)?;
        positive(e.expert_ffn, "model.moe.expert_ffn", limits::DIM)?;
        if e.shared > limits::EXPERTS {
            return Err(Error::TooLarge {
                field: "model.moe.shared",
                max: f64::from(limits::EXPERTS),
            });
        }
        positive(e.every, "model.moe.every", limits::DIM)?;
        if e.first_dense > limits::DIM {
            return Err(Error::TooLarge {
                field: "model.moe.first_dense",
                max: f64::from(limits::DIM),
            });
        }
        let load = |v: f64, field| {
            if v.is_finite() && (1.0..=limits::EXPERT_LOAD).contains(&v) {
                Ok(())
            } else {
                Err(Error::OutOfRange {
                    field,
                    min: 1.0,
                    max: limits::EXPERT_LOAD,
                })
            }
        };
        load(e.imbalance, "model.moe.imbalance")?;
        if let Some(c) = e.capacity {
            load(c, "model.moe.capacity")?;
        }
    }
    Ok(())
}
