//! The scenario file: the serde types of the public file format, with their
//! defaults, and the example file.

use crate::calibrate::Calibration;
use crate::model::Model;
use crate::stack::StackId;
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

impl DataParallel {
    /// The flavour as scenario files spell it (`fsdp_full`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::Ddp => "ddp",
            Self::Zero1 => "zero1",
            Self::Fsdp => "fsdp",
            Self::FsdpFull => "fsdp_full",
            Self::Hsdp => "hsdp",
        }
    }
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
    /// Zero-bubble ZB-H1 (Qi et al., ICLR 2024): 1F1B with each backward
    /// split into the input gradient (B), which the stage before waits
    /// for, and the weight gradient (W), which stage `s` defers by `s`
    /// micro-batches into the drain's idle time: a bubble of
    /// `(pp - 1)(F + B - W)` against 1F1B's `(pp - 1)(F + B + W)`, at
    /// 1F1B's peak of `pp` micro-batches in flight.
    #[serde(rename = "zb-h1")]
    ZeroBubbleH1,
    /// Zero-bubble ZB-V (Qi et al., section 6): two chunks per stage in a
    /// V, stage `s` holding the model's `s`-th and `(2 pp - 1 - s)`-th
    /// of `2 pp` chunks, so the first stage also runs the output head and
    /// the forward turns back on the last stage without a send; backward
    /// split into B and W as in ZB-H1, the order PyTorch's
    /// `ScheduleZBVZeroBubble` runs. With equal passes its step is the
    /// work plus `pp - 1` chunk passes, at 1F1B's peak memory.
    #[serde(rename = "zb-v")]
    ZeroBubbleV,
    /// DualPipeV (DeepSeek's DualPipe cut in half): ZB-V's V of two
    /// chunks per stage, its steady state pairing one micro-batch's
    /// forward with another's backward, so that each pair's All-to-All
    /// hides behind the other's compute; the order PyTorch's
    /// `ScheduleDualPipeV` runs, at least `2 pp` micro-batches.
    #[serde(rename = "dualpipev")]
    DualPipeV,
}

impl Schedule {
    /// Every schedule, in the order the explorer lists its own.
    pub const ALL: [Self; 6] = [
        Self::Gpipe,
        Self::OneFOneB,
        Self::Interleaved,
        Self::ZeroBubbleH1,
        Self::ZeroBubbleV,
        Self::DualPipeV,
    ];

    /// The schedule as scenario files spell it (`1f1b`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::Gpipe => "gpipe",
            Self::OneFOneB => "1f1b",
            Self::Interleaved => "interleaved",
            Self::ZeroBubbleH1 => "zb-h1",
            Self::ZeroBubbleV => "zb-v",
            Self::DualPipeV => "dualpipev",
        }
    }

    /// Whether the schedule runs each backward as two passes, the input
    /// gradient and the weight gradient.
    #[must_use]
    pub const fn splits_backward(self) -> bool {
        matches!(
            self,
            Self::ZeroBubbleH1 | Self::ZeroBubbleV | Self::DualPipeV
        )
    }

    /// Whether each stage's two chunks sit in a V (ZB-V): the last stage
    /// turns the forward back, the first runs the output head.
    #[must_use]
    pub const fn v_shape(self) -> bool {
        matches!(self, Self::ZeroBubbleV | Self::DualPipeV)
    }

    /// Model chunks per stage of a pipeline under this schedule, given the
    /// interleaved schedule's `virtual_stages`: the V's two, else one.
    #[must_use]
    pub const fn chunks(self, virtual_stages: u32) -> u32 {
        match self {
            Self::Interleaved => virtual_stages,
            _ if self.v_shape() => 2,
            _ => 1,
        }
    }

    /// Whether the steady state pairs one micro-batch's forward with
    /// another's backward (DualPipeV), which hides the All-to-All of each
    /// behind the other's compute.
    #[must_use]
    pub const fn pairs_micro_batches(self) -> bool {
        matches!(self, Self::DualPipeV)
    }
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

impl Recompute {
    /// The mode as scenario files spell it (`selective`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Selective => "selective",
            Self::Full => "full",
        }
    }
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
    /// fp4 matmuls (NVFP4, Blackwell): the linear layers' GEMMs in fp4;
    /// attention and the rest stay bf16, so a step is not twice fp8's.
    Fp4,
}

impl Precision {
    /// The format as scenario files spell it (`bf16`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::Bf16 => "bf16",
            Self::Fp16 => "fp16",
            Self::Fp8 => "fp8",
            Self::Fp4 => "fp4",
        }
    }
}

impl Parallel {
    /// Model chunks each pipeline stage runs: the interleaved schedule's
    /// `virtual_stages`, ZB-V's two, else one (and one without a
    /// pipeline).
    #[must_use]
    pub const fn chunks(&self) -> u32 {
        if self.pp <= 1 {
            return 1;
        }
        self.schedule.chunks(self.virtual_stages)
    }

    /// Whether each backward runs as two passes, the weight gradients
    /// apart from the input gradients: a zero-bubble schedule with a
    /// pipeline to fill. The timeline lays the weight pass out and the
    /// step model blocks on the tensor-parallel reductions it leaves bare,
    /// both on this.
    #[must_use]
    pub const fn splits_backward(&self) -> bool {
        self.pp > 1 && self.schedule.splits_backward()
    }
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
    /// Absent or 0 in a file: one chunk, or under `interleaved` the count
    /// that gives the shortest step that fits (see
    /// [`Scenario::resolve`](crate::scenario::Scenario::resolve)); a
    /// resolved configuration always holds the count.
    #[serde(default = "chunks_unset")]
    pub virtual_stages: u32,
    /// Expert-parallel degree: the routed experts of an MoE layer split
    /// over this many GPUs, folded over the same GPUs as TP x CP x DP
    /// (Megatron-Core's parallel folding), so it is not capped by DP.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub ep: u32,
    /// Expert tensor-parallel degree: each expert's MLP split this many
    /// ways; the expert data-parallel group is what is left of the stage's
    /// GPUs, `TP x CP x DP / (EP x ETP)`.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub etp: u32,
    /// Whether each micro-batch's expert All-to-All runs beside another
    /// micro-batch's compute (Megatron-Core's
    /// `overlap_moe_expert_parallel_comm`: the combined 1F1B schedule runs
    /// one micro-batch's forward beside the previous one's backward). Not
    /// under full recomputation, which Megatron-Core refuses it with.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ep_overlap: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(v: &bool) -> bool {
    !*v
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_one(v: &u32) -> bool {
    *v == 1
}

fn one() -> u32 {
    1
}

/// `virtual_stages` left for [`crate::scenario::Scenario::resolve`] to choose.
fn chunks_unset() -> u32 {
    0
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
    /// GPUs in one NVLink domain; defaults to the GPU's system (72 for an
    /// NVL72 rack) or, where that is a host, to `gpus_per_node`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlink_domain: Option<u32>,
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
    /// paper's calibration (17% of the NVLink bus rate: 61 GB/s on H100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp_overlap_gb_per_s: Option<f64>,
    /// Override: GB/s per GPU each way to host memory, which offloaded
    /// activations cross (PCIe, or NVLink-C2C on GB200 and GB300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_link_gb_per_s: Option<f64>,
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

/// A named setting in a file of several: the explorer writes an array of
/// them, the live setting first, when settings are pinned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    /// What the user calls it.
    pub name: String,
    /// The setting.
    pub scenario: Scenario,
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
    /// Layers whose saved activations go to host memory between forward
    /// and backward (0 by default: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offload_layers: u32,
    /// What a `selective` recomputation reruns, as Megatron-Core's
    /// `recompute_modules` names them (`["mla_up_proj"]`; empty by default:
    /// the norms' outputs and the MLP activation).
    #[serde(default, skip_serializing_if = "super::Modules::is_empty")]
    pub recompute_modules: super::Modules,
    /// Matmul precision.
    #[serde(default = "default_precision")]
    pub precision: Precision,
    /// The software stack that runs the step (default `paper`).
    #[serde(default)]
    pub stack: StackId,
    /// Constants fitted to the user's own measured runs
    /// ([`crate::calibrate`]); empty by default, the model's own constants.
    #[serde(default, skip_serializing_if = "Calibration::is_empty")]
    pub calibration: Calibration,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn default_recompute() -> Recompute {
    Recompute::None
}
fn default_precision() -> Precision {
    Precision::Bf16
}

impl Scenario {
    /// The example of the file format: Llama-2 7B on 32 DGX H100 nodes.
    #[must_use]
    pub fn example() -> Self {
        Self {
            hardware: HardwareSpec {
                gpu: String::from("h100-sxm5-80gb"),
                nodes: 32,
                gpus_per_node: Some(8),
                nvlink_domain: None,
                inter_node_gbps_per_gpu: Some(400.0),
                peak_tflops: None,
                hbm_gib: None,
                hbm_gb_per_s: None,
                nvlink_gb_per_s: None,
                dp_overlap_gb_per_s: None,
                host_link_gb_per_s: None,
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
                ep: 1,
                etp: 1,
                ep_overlap: false,
            },
            recompute: Recompute::None,
            offload_layers: 0,
            recompute_modules: crate::scenario::Modules::NONE,
            precision: Precision::Bf16,
            stack: StackId::Paper,
            calibration: Calibration::default(),
        }
    }
}
