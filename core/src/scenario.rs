//! The scenario: what is trained, on what, and how. [`Scenario`] is the
//! serde document of the public file format; [`Config`] is its checked,
//! `Copy` form that evaluation runs on ("check, then compute").

use crate::error::Error;
use crate::hardware::{gpu_by_id, Cluster, Gpu};
use crate::model::{preset, Model};
use crate::stack::{Stack, StackId};
use crate::units::{Bandwidth, Bytes, FlopRate};
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// How data parallelism keeps parameters, gradients and optimizer state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataParallel {
    /// Replicated everything; gradients AllReduced once per step.
    Ddp,
    /// ZeRO-1: optimizer state sharded; gradients ReduceScattered, updated
    /// parameters AllGathered behind the next forward.
    Zero1,
    /// FSDP as the paper ran it: sharded, parameters kept after forward (no
    /// reshard), next layer prefetched; one AllGather per layer in forward,
    /// one ReduceScatter per layer in backward.
    Fsdp,
    /// FSDP full shard (ZeRO-3): parameters resharded after forward and
    /// gathered again in backward.
    FsdpFull,
    /// Hybrid sharded: full shard inside a node, replicas across nodes
    /// AllReduce their gradient shards.
    Hsdp,
}

/// Pipeline schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// All forwards, then all backwards: every micro-batch's activations live at once.
    Gpipe,
    /// One forward, one backward: at most `pp` micro-batches in flight.
    #[serde(rename = "1f1b")]
    OneFOneB,
    /// Interleaved 1F1B with `virtual_stages` model chunks per GPU.
    Interleaved,
}

/// Activation recomputation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// Keep every activation.
    None,
    /// Recompute the cheap element-wise parts (norms, MLP activation).
    Selective,
    /// Keep only each layer's input; rerun the forward in backward.
    Full,
}

/// Number format of the matmuls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// bfloat16 (fp16 peak on V100).
    Bf16,
    /// float16 with loss scaling.
    Fp16,
    /// fp8 matmuls (Transformer Engine); attention and the rest stay bf16.
    Fp8,
}

/// The parallel layout, as written in a scenario file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parallel {
    /// Data-parallel flavour.
    pub dp: DataParallel,
    /// Tensor-parallel degree.
    #[serde(default = "one")]
    pub tp: u32,
    /// Pipeline-parallel degree.
    #[serde(default = "one")]
    pub pp: u32,
    /// Context-parallel degree.
    #[serde(default = "one")]
    pub cp: u32,
    /// Sequence parallelism alongside tensor parallelism.
    #[serde(default)]
    pub sp: bool,
    /// Pipeline schedule.
    #[serde(default = "default_schedule")]
    pub schedule: Schedule,
    /// Model chunks per GPU for the interleaved schedule (1 otherwise).
    #[serde(default = "one")]
    pub virtual_stages: u32,
}

fn one() -> u32 {
    1
}
fn default_schedule() -> Schedule {
    Schedule::OneFOneB
}

/// The hardware section of a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardwareSpec {
    /// GPU id, e.g. `h100-sxm5-80gb`.
    pub gpu: String,
    /// Number of nodes.
    pub nodes: u32,
    /// GPUs per node; defaults to the GPU's DGX system (8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpus_per_node: Option<u32>,
    /// Network line rate per GPU in Gb/s; defaults to the DGX's (H100: 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inter_node_gbps_per_gpu: Option<f64>,
    /// Override: peak dense TFLOP/s (bf16/fp16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tflops: Option<f64>,
    /// Override: HBM capacity in GiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hbm_gib: Option<f64>,
    /// Override: HBM bandwidth in GB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hbm_gb_per_s: Option<f64>,
    /// Override: NVLink bandwidth per GPU in GB/s (both directions, as quoted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlink_gb_per_s: Option<f64>,
    /// Override: bus bandwidth per GPU, GB/s, that data-parallel collectives
    /// across nodes reach while compute runs beside them; defaults to the
    /// paper's calibration (13% of the NVLink bus rate: 47 GB/s on H100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp_overlap_gb_per_s: Option<f64>,
}

/// A model given by preset name or by shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ModelSpec {
    /// A preset id such as `llama2-7b`.
    Preset(String),
    /// A custom decoder.
    Custom(Model),
}

/// A string is a preset's name, an object a custom shape read field by
/// field, so a mistake inside it is named (`unknown field `layer``,
/// `missing field `vocab``) instead of "did not match any variant".
impl<'de> Deserialize<'de> for ModelSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Spec;
        impl<'de> serde::de::Visitor<'de> for Spec {
            type Value = ModelSpec;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a preset name or an object with layers, hidden, heads, kv_heads, ffn, vocab and mlp")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ModelSpec, E> {
                Ok(ModelSpec::Preset(String::from(v)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<ModelSpec, A::Error> {
                Model::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(ModelSpec::Custom)
            }
        }
        d.deserialize_any(Spec)
    }
}

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The cluster.
    pub hardware: HardwareSpec,
    /// The model.
    pub model: ModelSpec,
    /// Context length in tokens.
    pub seq_len: u32,
    /// Global batch in sequences per optimizer step.
    pub global_batch: u32,
    /// Micro-batch in sequences per data-parallel replica.
    pub micro_batch: u32,
    /// The parallel layout.
    pub parallel: Parallel,
    /// Activation recomputation.
    #[serde(default = "default_recompute")]
    pub recompute: Recompute,
    /// Matmul precision.
    #[serde(default = "default_precision")]
    pub precision: Precision,
    /// The software stack that runs the step (default `paper`).
    #[serde(default)]
    pub stack: StackId,
}

fn default_recompute() -> Recompute {
    Recompute::None
}
fn default_precision() -> Precision {
    Precision::Bf16
}

/// Everything about how one step is run on the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// Degrees, data-parallel flavour and schedule.
    pub parallel: Parallel,
    /// Micro-batch in sequences.
    pub micro_batch: u32,
    /// Activation recomputation.
    pub recompute: Recompute,
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

/// Largest accepted values: far beyond any real run, small enough that no
/// product of them overflows or loses meaning.
pub mod limits {
    /// GPUs in the cluster (nodes times GPUs per node): the node limit is
    /// this over the GPUs per node.
    pub const GPUS: u32 = 1 << 20;
    /// GPUs per node.
    pub const GPUS_PER_NODE: u32 = 1024;
    /// Context length.
    pub const SEQ_LEN: u32 = 1 << 24;
    /// Global batch in sequences.
    pub const GLOBAL_BATCH: u32 = 1 << 24;
    /// Any parallel degree.
    pub const DEGREE: u32 = 1 << 16;
    /// Any model dimension.
    pub const DIM: u32 = 1 << 20;
    /// Bandwidths, FLOP rates and capacities in their scenario units.
    pub const HARDWARE_VALUE: f64 = 1e7;
    /// Smallest accepted bandwidth, FLOP rate or capacity, in scenario
    /// units: far below any real part, far above where arithmetic on it
    /// loses precision.
    pub const HARDWARE_MIN: f64 = 1e-3;
}

fn positive(v: u32, field: &'static str, max: u32) -> Result<(), Error> {
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

fn positive_f(v: f64, field: &'static str) -> Result<f64, Error> {
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

impl Scenario {
    /// Resolves names and overrides and checks the result.
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

    /// Resolves names and overrides without checking the layout against
    /// the cluster: the base a layout search starts from, where the
    /// scenario's own degrees and micro-batch are replaced anyway.
    pub fn resolve(&self) -> Result<Config, Error> {
        let hw = &self.hardware;
        let mut gpu: Gpu = gpu_by_id(&hw.gpu).ok_or(Error::UnknownGpu)?;
        if let Some(v) = hw.peak_tflops {
            let v = positive_f(v, "hardware.peak_tflops")?;
            let fp8_ratio = gpu.peak_fp8.0 / gpu.peak_bf16.0;
            gpu.peak_bf16 = FlopRate::tflops(v);
            gpu.peak_fp8 = FlopRate::tflops(v * fp8_ratio);
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
        let mut cluster = Cluster::new(gpu, hw.nodes);
        if let Some(g) = hw.gpus_per_node {
            positive(g, "hardware.gpus_per_node", limits::GPUS_PER_NODE)?;
            cluster.network_per_gpu = gpu.network_per_node / f64::from(g);
            cluster.gpus_per_node = g;
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
        let cfg = Config {
            cluster,
            model,
            seq_len: self.seq_len,
            global_batch: self.global_batch,
            layout: Layout {
                parallel: self.parallel,
                micro_batch: self.micro_batch,
                recompute: self.recompute,
            },
            precision: self.precision,
            stack: Stack::of(self.stack),
        };
        Ok(cfg)
    }

    /// The example of the file format: Llama-2 7B on 32 DGX H100 nodes.
    #[must_use]
    pub fn example() -> Self {
        Self {
            hardware: HardwareSpec {
                gpu: String::from("h100-sxm5-80gb"),
                nodes: 32,
                gpus_per_node: Some(8),
                inter_node_gbps_per_gpu: Some(400.0),
                peak_tflops: None,
                hbm_gib: None,
                hbm_gb_per_s: None,
                nvlink_gb_per_s: None,
                dp_overlap_gb_per_s: None,
            },
            model: ModelSpec::Preset(String::from("llama2-7b")),
            seq_len: 4096,
            global_batch: 512,
            micro_batch: 2,
            parallel: Parallel {
                dp: DataParallel::Fsdp,
                tp: 2,
                pp: 1,
                cp: 1,
                sp: false,
                schedule: Schedule::OneFOneB,
                virtual_stages: 1,
            },
            recompute: Recompute::None,
            precision: Precision::Bf16,
            stack: StackId::Paper,
        }
    }
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

    /// Layers on the pipeline's stages: the most any stage before the last
    /// holds, and the last stage's (beside the output head), as
    /// [`crate::evaluate::split_layers`] balances them; the head's cost in
    /// layers is its share of the FLOPs. Without a pipeline, `(0, layers)`.
    #[must_use]
    pub fn pipeline_split(&self) -> (u32, u32) {
        let m = &self.model;
        let h = f64::from(m.hidden);
        let layer = m.attention_params() + m.mlp_params() + 7.0 / 6.0 * f64::from(self.seq_len) * h;
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

    /// Micro-batches per step on each replica.
    #[must_use]
    pub fn micro_batches(&self) -> u32 {
        let per_replica = self.global_batch / self.dp().max(1);
        per_replica / self.layout.micro_batch.max(1)
    }

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
        for (v, field) in [
            (c.gpu.peak_bf16.0 / 1e12, "hardware.peak_tflops"),
            (c.gpu.hbm.as_gib(), "hardware.hbm_gib"),
            (c.gpu.hbm_bandwidth.as_gb_s(), "hardware.hbm_gb_per_s"),
            (c.gpu.nvlink.as_gb_s(), "hardware.nvlink_gb_per_s"),
            (
                c.network_per_gpu.as_gb_s() * 8.0,
                "hardware.inter_node_gbps_per_gpu",
            ),
        ] {
            positive_f(v, field)?;
        }
        // Only a rate the user set is checked by its name: the default is a
        // share of the NVLink rate, checked above.
        if let Some(b) = c.dp_overlap_bandwidth {
            positive_f(b.as_gb_s(), "hardware.dp_overlap_gb_per_s")?;
        }
        // What the arithmetic reads of the GPU beyond the datasheet rates:
        // efficiencies are fractions of a peak, power is positive and the
        // idle draw below the limit, fp8 is a rate or absent.
        let g = &c.gpu;
        for (v, field) in [
            (g.gemm_efficiency, "gpu.gemm_efficiency"),
            (g.attention_efficiency, "gpu.attention_efficiency"),
        ] {
            if !(v > 0.0 && v <= 1.0) {
                return Err(Error::OutOfRange {
                    field,
                    min: 0.0,
                    max: 1.0,
                });
            }
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
        positive(m.layers, "model.layers", limits::DIM)?;
        positive(m.hidden, "model.hidden", limits::DIM)?;
        positive(m.heads, "model.heads", limits::DIM)?;
        positive(m.kv_heads, "model.kv_heads", m.heads)?;
        positive(m.ffn, "model.ffn", limits::DIM)?;
        positive(m.vocab, "model.vocab", limits::DIM * 4)?;
        if m.hidden % m.heads != 0 {
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
        positive(self.seq_len, "seq_len", limits::SEQ_LEN)?;
        positive(self.global_batch, "global_batch", limits::GLOBAL_BATCH)?;
        if self.precision == Precision::Fp8 && c.gpu.peak_fp8.0 <= 0.0 {
            return Err(Error::PrecisionUnsupported { gpu: c.gpu.name });
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
        let v = if p.schedule == Schedule::Interleaved {
            p.virtual_stages
        } else {
            1
        };
        let stages = p.pp.saturating_mul(v);
        if m.layers < stages {
            return Err(Error::PipelineTooDeep {
                stages,
                layers: m.layers,
            });
        }
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
        if self.seq_len % (2 * p.cp) != 0 && p.cp > 1 {
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
        let unit = u64::from(dp) * u64::from(self.layout.micro_batch);
        if u64::from(self.global_batch) % unit != 0 {
            return Err(Error::BatchNotDivisible {
                global_batch: self.global_batch,
                dp,
                micro_batch: self.layout.micro_batch,
            });
        }
        let micro_batches = self.micro_batches();
        if p.schedule == Schedule::Interleaved && p.pp > 1 && micro_batches % p.pp != 0 {
            return Err(Error::InterleavingNeedsMicroBatches {
                micro_batches,
                pp: p.pp,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::evaluate;

    fn with_overlap(v: Option<f64>) -> Result<Config, Error> {
        let mut s = Scenario::example();
        s.hardware.dp_overlap_gb_per_s = v;
        s.to_config()
    }

    #[test]
    fn overlap_rate_defaults_to_the_paper_calibration_and_can_be_overridden() {
        let paper = with_overlap(None).unwrap();
        let default = paper.dp_overlap_bandwidth().as_gb_s();
        // 13% of H100's NVLink bus rate (450 GB/s one way at 80%).
        assert!(
            (default - crate::calibration::OVERLAP_BANDWIDTH_SHARE * 450.0 * 0.8).abs() < 1e-9,
            "{default}"
        );
        let fast = with_overlap(Some(150.0)).unwrap();
        let (a, b) = (evaluate(&paper).unwrap(), evaluate(&fast).unwrap());
        assert!(b.step_time_s < a.step_time_s);
        assert!(b.breakdown.comm_exposed().0 < a.breakdown.comm_exposed().0);
    }

    #[test]
    fn tiny_hardware_values_are_refused_by_name() {
        for v in [1e-310, 1e-9] {
            assert_eq!(
                with_overlap(Some(v)).unwrap_err(),
                Error::TooSmall {
                    field: "hardware.dp_overlap_gb_per_s",
                    min: limits::HARDWARE_MIN
                }
            );
        }
        let mut s = Scenario::example();
        s.hardware.nvlink_gb_per_s = Some(1e-300);
        assert!(matches!(s.to_config(), Err(Error::TooSmall { .. })));
    }

    #[test]
    fn overlap_rate_must_be_positive() {
        for v in [0.0, -1.0, f64::NAN] {
            assert_eq!(
                with_overlap(Some(v)).unwrap_err(),
                Error::NotPositive {
                    field: "hardware.dp_overlap_gb_per_s"
                }
            );
        }
    }

    #[test]
    fn heads_must_split_the_width_and_kv_heads_the_heads() {
        let custom = |hidden, heads, kv_heads| {
            let mut s = Scenario::example();
            let mut m = crate::model::preset("llama2-7b").unwrap();
            (m.hidden, m.heads, m.kv_heads) = (hidden, heads, kv_heads);
            s.model = ModelSpec::Custom(m);
            s.parallel.tp = 1;
            s.to_config()
        };
        assert_eq!(
            custom(2048, 16, 3).unwrap_err(),
            Error::KvHeadsNotDividingHeads {
                kv_heads: 3,
                heads: 16
            }
        );
        assert_eq!(
            custom(2000, 48, 8).unwrap_err(),
            Error::HeadsNotDividingHidden {
                heads: 48,
                hidden: 2000
            }
        );
        assert!(custom(2048, 16, 4).is_ok());
    }

    #[test]
    fn a_search_of_a_setting_no_layout_can_fix_visits_nothing() {
        let mut cfg = Scenario::example().to_config().unwrap();
        cfg.cluster.nodes = limits::GPUS;
        assert!(matches!(cfg.check_setting(), Err(Error::TooLarge { .. })));
        let visited =
            crate::search::for_each_layout(&cfg, &crate::search::SearchSpace::full(), |_, _| {
                panic!("visited a layout")
            });
        assert_eq!(visited, (0, 0));
    }

    #[test]
    fn one_node_limit_one_message() {
        let refuse = |nodes| {
            let mut s = Scenario::example();
            s.hardware.nodes = nodes;
            s.to_config().unwrap_err()
        };
        let limit = Error::TooLarge {
            field: "hardware.nodes",
            max: f64::from(limits::GPUS / 8),
        };
        assert_eq!(refuse(1_048_577), limit);
        assert_eq!(refuse(1_048_576), limit);
        assert_eq!(refuse(limits::GPUS / 8 + 1), limit);
        let mut s = Scenario::example();
        s.hardware.nodes = limits::GPUS / 8;
        s.global_batch = limits::GPUS;
        s.micro_batch = 1;
        s.parallel.tp = 1;
        assert!(s.to_config().is_ok(), "{:?}", s.to_config());
    }

    #[test]
    fn a_slow_nvlink_is_not_blamed_on_the_overlap_rate_the_user_never_set() {
        let mut s = Scenario::example();
        s.hardware.nvlink_gb_per_s = Some(0.005);
        match s.to_config() {
            Ok(cfg) => assert!(evaluate(&cfg).unwrap().step_time_s.is_finite()),
            Err(e) => assert!(!alloc::format!("{e}").contains("dp_overlap"), "{e}"),
        }
    }

    #[test]
    fn every_gpu_field_the_arithmetic_reads_is_checked() {
        let base = Scenario::example().to_config().unwrap();
        let bad = [0.0, -0.5, 1.5, f64::NAN, f64::INFINITY];
        for v in bad {
            for which in 0..2 {
                let mut cfg = base;
                if which == 0 {
                    cfg.cluster.gpu.gemm_efficiency = v;
                } else {
                    cfg.cluster.gpu.attention_efficiency = v;
                }
                assert!(
                    matches!(evaluate(&cfg), Err(Error::OutOfRange { .. })),
                    "{which} {v}"
                );
            }
        }
        for (tdp, idle) in [
            (0.0, 70.0),
            (f64::NAN, 70.0),
            (f64::INFINITY, 70.0),
            (700.0, f64::NAN),
            (700.0, -1.0),
        ] {
            let mut cfg = base;
            cfg.cluster.gpu.tdp = crate::units::Watts(tdp);
            cfg.cluster.gpu.idle = crate::units::Watts(idle);
            assert!(evaluate(&cfg).is_err(), "tdp {tdp} idle {idle}");
        }
        let mut cfg = base;
        cfg.cluster.gpu.peak_fp8 = FlopRate(f64::NAN);
        assert!(evaluate(&cfg).is_err());
    }

    #[test]
    fn a_sweep_point_says_its_own_reason() {
        use crate::search::{sweep, Objective, Scaling, SearchSpace};
        let mut cfg = Scenario::example().resolve().unwrap();
        cfg.cluster.gpu = crate::hardware::A100_80GB;
        cfg.precision = Precision::Fp8;
        let space = SearchSpace::full();
        for p in sweep(
            &cfg,
            &[1, 4],
            Scaling::Weak,
            Some((&space, Objective::Throughput)),
        ) {
            assert!(
                matches!(p.result, Err(Error::PrecisionUnsupported { .. })),
                "{:?}",
                p.result
            );
        }
        cfg.precision = Precision::Bf16;
        cfg.model = crate::model::preset("gpt3-175b").unwrap();
        for p in sweep(
            &cfg,
            &[1],
            Scaling::Weak,
            Some((&space, Objective::Throughput)),
        ) {
            assert_eq!(p.result.unwrap_err(), Error::NoLayoutFits);
        }
    }

    #[test]
    fn a_scenario_written_and_read_back_keeps_every_bit() {
        // What-if values of every magnitude a file can hold, from a fixed
        // pseudo-random sequence.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = 1e-3 + (x >> 11) as f64 / (1u64 << 53) as f64 * 1e4;
            let mut s = Scenario::example();
            s.hardware.peak_tflops = Some(v);
            s.hardware.dp_overlap_gb_per_s = Some(v / 3.0);
            let text = serde_json::to_string(&s).unwrap();
            let back: Scenario = serde_json::from_str(&text).unwrap();
            assert_eq!(back, s, "{text}");
        }
    }

    #[test]
    fn a_mistake_inside_a_custom_model_names_the_field() {
        let with = |model: &str| {
            let text = serde_json::to_string(&Scenario::example())
                .unwrap()
                .replace("\"llama2-7b\"", model);
            alloc::format!("{}", serde_json::from_str::<Scenario>(&text).unwrap_err())
        };
        let full = r#"{"layers":32,"hidden":4096,"heads":32,"kv_heads":32,"ffn":11008,"vocab":32000,"mlp":"swiglu"}"#;
        assert!(with(&full.replace("layers", "layer")).contains("unknown field `layer`"));
        assert!(with(&full.replace(",\"vocab\":32000", "")).contains("missing field `vocab`"));
        assert!(with(&full.replace("32000", "\"many\""))
            .contains("invalid type: string \"many\", expected u32"));
        assert!(with(&full.replace("\"swiglu\"", "\"relu\"")).contains("unknown variant `relu`"));
        assert!(with("42").contains("a preset name or an object"));
        let ok = serde_json::to_string(&Scenario::example())
            .unwrap()
            .replace("\"llama2-7b\"", full);
        assert!(serde_json::from_str::<Scenario>(&ok)
            .unwrap()
            .to_config()
            .is_ok());
    }
}
