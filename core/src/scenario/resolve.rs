//! From a scenario file to a configuration: names looked up, overrides
//! and the calibration applied, each checked by the field's name.

use super::check::{positive, positive_f};
use super::{limits, Config, Layout, ModelSpec, Scenario, Schedule};
use crate::error::Error;
use crate::hardware::{gpu_by_id, Cluster, Gpu};
use crate::model::preset;
use crate::stack::Stack;
use crate::units::{Bandwidth, Bytes, FlopRate};

impl Scenario {
    /// Resolves names, overrides and the calibration, and checks the result.
    ///
    /// ```
    /// use scalescope_core::scenario::*;
    /// let s = Scenario::example();
    /// let cfg = s.to_config().unwrap();
    /// assert_eq!(cfg.cluster.gpus(), 256);
    /// ```
    pub fn to_config(&self) -> Result<Config, Error> {
        let cfg = self.resolve()?;
        cfg.check()?;
        Ok(cfg)
    }

    /// Resolves names, overrides and the calibration without checking the layout against
    /// the cluster: the base a layout search starts from, where the
    /// scenario's own degrees and micro-batch are replaced anyway.
    pub fn resolve(&self) -> Result<Config, Error> {
        let hw = &self.hardware;
        let mut gpu: Gpu = gpu_by_id(&hw.gpu).ok_or(Error::UnknownGpu)?;
        if let Some(v) = hw.peak_tflops {
            let v = positive_f(v, "hardware.peak_tflops")?;
            let fp8_ratio = gpu.peak_fp8.0 / gpu.peak_bf16.0;
            let fp4_ratio = gpu.peak_fp4.0 / gpu.peak_bf16.0;
            gpu.peak_bf16 = FlopRate::tflops(v);
            gpu.peak_fp8 = FlopRate::tflops(v * fp8_ratio);
            gpu.peak_fp4 = FlopRate::tflops(v * fp4_ratio);
        }
        if let Some(v) = hw.hbm_gib {
            gpu.hbm = Bytes::gib(positive_f(v, "hardware.hbm_gib")?);
        }
        if let Some(v) = hw.hbm_gb_per_s {
            gpu.hbm_bandwidth = Bandwidth::gb_s(positive_f(v, "hardware.hbm_gb_per_s")?);
        }
        if let Some(v) = hw.nvlink_gb_per_s {
            gpu.nvlink = Bandwidth::gb_s(positive_f(v, "hardware.nvlink_gb_per_s")?);
        }
        if let Some(v) = hw.host_link_gb_per_s {
            gpu.host_link = Bandwidth::gb_s(positive_f(v, "hardware.host_link_gb_per_s")?);
        }
        let mut cluster = Cluster::new(gpu, hw.nodes);
        if let Some(g) = hw.gpus_per_node {
            positive(g, "hardware.gpus_per_node", limits::GPUS_PER_NODE)?;
            cluster.network_per_gpu = gpu.network_per_node / f64::from(g);
            cluster.gpus_per_node = g;
            // A host of `g` is its own NVLink domain unless the GPU's
            // system joins hosts into a larger one.
            cluster.nvlink_domain = if gpu.nvlink_domain > gpu.gpus_per_node {
                gpu.nvlink_domain.max(g)
            } else {
                g
            };
        }
        if let Some(d) = hw.nvlink_domain {
            positive(d, "hardware.nvlink_domain", limits::GPUS)?;
            cluster.nvlink_domain = d;
        }
        positive(
            hw.nodes,
            "hardware.nodes",
            limits::GPUS / cluster.gpus_per_node.max(1),
        )?;
        if let Some(v) = hw.inter_node_gbps_per_gpu {
            cluster.network_per_gpu =
                Bandwidth::gbit_s(positive_f(v, "hardware.inter_node_gbps_per_gpu")?);
        }
        if let Some(v) = hw.dp_overlap_gb_per_s {
            cluster.dp_overlap_bandwidth = Some(Bandwidth::gb_s(positive_f(
                v,
                "hardware.dp_overlap_gb_per_s",
            )?));
        }
        let model = match &self.model {
            ModelSpec::Preset(id) => preset(id).ok_or(Error::UnknownModel)?,
            ModelSpec::Custom(m) => *m,
        };
        let mut cfg = Config {
            cluster,
            model,
            seq_len: self.seq_len,
            global_batch: self.global_batch,
            layout: Layout {
                parallel: self.parallel,
                micro_batch: self.micro_batch,
                recompute: self.recompute,
                offload_layers: self.offload_layers,
                recompute_modules: self.recompute_modules,
            },
            precision: self.precision,
            stack: Stack::of(self.stack),
        };
        self.calibration.check()?;
        self.calibration.apply(&mut cfg);
        choose_chunks(&mut cfg);
        Ok(cfg)
    }
}

/// Most chunks per GPU an unset `virtual_stages` is chosen from.
const MOST_CHUNKS: u32 = 32;

/// Fills in chunks per GPU a file left unset (0; [`crate::search::sweep`]
/// chooses again at each of its points): one, or under the
/// interleaved schedule the count, of 2 up to one layer per chunk, whose
/// step is shortest among those that fit (else the shortest), the fewer
/// chunks on a tie. Published runs name the schedule without the count
/// (Llama 3 405B's 16 interleaved stages) and tune it, as the validation
/// rows do; one chunk would be plain 1F1B, which the name does not mean.
/// Where no count passes the checks, 2, and the check says why.
pub(crate) fn choose_chunks(cfg: &mut Config) {
    let p = cfg.layout.parallel;
    if p.virtual_stages != 0 {
        return;
    }
    if p.schedule != Schedule::Interleaved || p.pp <= 1 {
        cfg.layout.parallel.virtual_stages = 1;
        return;
    }
    let most = (cfg.model.layers / p.pp).clamp(2, MOST_CHUNKS);
    let mut best: Option<(bool, f64, u32)> = None;
    for v in 2..=most {
        let mut c = *cfg;
        c.layout.parallel.virtual_stages = v;
        let Ok(r) = crate::evaluate::evaluate(&c) else {
            continue;
        };
        let better = best.is_none_or(|(fits, step, _)| {
            (r.fits && !fits) || (r.fits == fits && r.step_time_s < step)
        });
        if better {
            best = Some((r.fits, r.step_time_s, v));
        }
    }
    cfg.layout.parallel.virtual_stages = best.map_or(2, |(_, _, v)| v);
}
