//! What the control panel holds ([`Controls`]), with the paper's Figure 3
//! setting as the default, the limits typed fields and links share, and the
//! scenario the controls describe at a node count.

use scalescope_core::calibrate::Calibration;
use scalescope_core::hardware::{gpu_by_id, Gpu};
use scalescope_core::model::{Mlp, Model, PRESETS};
use scalescope_core::scenario::{
    DataParallel, HardwareSpec, ModelSpec, Parallel, Precision, Recompute, Scenario, Schedule,
};
use scalescope_core::search::SearchSpace;
use scalescope_core::stack::{Stack, StackId};

/// Largest node count the slider reaches (2048 GPUs); more can be typed.
pub const SLIDER_MAX_NODES: u32 = 256;
/// Largest node count accepted at all.
pub const MAX_NODES: u32 = 16_384;
/// Context length range of the slider (both powers of two).
pub const SEQ_RANGE: (u32, u32) = (512, 131_072);
/// The parallel degrees the degree controls offer.
pub const DEGREES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Expert-parallel degrees a slider offers (DeepSeek-V3's 256 experts at most).
pub const EXPERT_DEGREES: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/// Largest hardware what-if, in its field's unit, for typed fields and
/// links alike.
pub const MAX_WHAT_IF: f64 = 1e6;

/// Largest custom-model dimensions, for typed fields and links alike.
pub mod custom_max {
    /// Layers.
    pub const LAYERS: u32 = 1024;
    /// Hidden width.
    pub const HIDDEN: u32 = 1 << 17;
    /// Attention heads (and key/value heads).
    pub const HEADS: u32 = 1024;
    /// MLP width.
    pub const FFN: u32 = 1 << 19;
    /// Vocabulary.
    pub const VOCAB: u32 = 1 << 22;
}

/// How the batch follows the GPU count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scaling {
    /// Fixed sequences per GPU: the global batch grows with the GPUs.
    Weak,
    /// Fixed global batch: each GPU gets less as GPUs are added.
    Strong,
}

/// Hardware what-ifs; `None` keeps the GPU's datasheet value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overrides {
    /// Peak dense bf16 TFLOP/s.
    pub peak_tflops: Option<f64>,
    /// HBM bandwidth, GB/s.
    pub hbm_gb_per_s: Option<f64>,
    /// NVLink per GPU, GB/s (both directions, as quoted).
    pub nvlink_gb_per_s: Option<f64>,
    /// Network line rate per GPU, Gb/s.
    pub network_gbps_per_gpu: Option<f64>,
    /// GPUs per node.
    pub gpus_per_node: Option<u32>,
    /// GPUs per NVLink domain.
    pub nvlink_domain: Option<u32>,
    /// Bus bandwidth per GPU of data-parallel traffic under compute, GB/s.
    pub dp_overlap_gb_per_s: Option<f64>,
}

/// Routing what-ifs of an MoE model (ignored for a dense one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Routing {
    /// Load imbalance of dropless routing.
    pub imbalance: Option<f64>,
    /// Capacity factor: pads and drops to it instead of dropless routing.
    pub capacity: Option<f64>,
}

/// Everything the control panel holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    /// GPU id (see [`GPUS`](scalescope_core::hardware::GPUS)).
    pub gpu: &'static str,
    /// Nodes.
    pub nodes: u32,
    /// Preset id, or `custom` for [`Controls::custom`].
    pub model: &'static str,
    /// The custom model's shape.
    pub custom: Model,
    /// Context length in tokens.
    pub seq_len: u32,
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline-parallel degree.
    pub pp: u32,
    /// Context-parallel degree.
    pub cp: u32,
    /// Expert-parallel degree (an MoE model's; ignored for a dense one).
    pub ep: u32,
    /// Expert tensor-parallel degree (likewise).
    pub etp: u32,
    /// Whether the expert All-to-All hides behind another micro-batch's
    /// compute (likewise).
    pub ep_overlap: bool,
    /// Data-parallel flavour.
    pub dp: DataParallel,
    /// Sequence parallelism with TP.
    pub sp: bool,
    /// Pipeline schedule.
    pub schedule: Schedule,
    /// Weak or strong scaling.
    pub scaling: Scaling,
    /// Weak scaling: sequences per GPU.
    pub local_batch: u32,
    /// Strong scaling: sequences per step.
    pub global_batch: u32,
    /// Sequences per micro-batch.
    pub micro_batch: u32,
    /// Activation recomputation.
    pub recompute: Recompute,
    /// Matmul precision.
    pub precision: Precision,
    /// The software stack that runs the step.
    pub stack: StackId,
    /// Use the best layout at every point instead of the chosen one.
    pub best: bool,
    /// Hardware what-ifs.
    pub overrides: Overrides,
    /// Routing what-ifs of an MoE model: the most-loaded expert's tokens
    /// over the mean (dropless), and a capacity factor (`None`: the
    /// model's own, for every preset dropless and balanced).
    pub routing: Routing,
    /// What the planner costs a run against.
    pub plan: super::PlanInputs,
    /// Settings kept for comparison (at most [`MAX_PINS`], each with no
    /// pins of its own), drawn beside the live one.
    pub pins: Vec<Pin>,
    /// Constants fitted to the user's measured runs.
    pub calibration: Calibration,
    /// Whether every chart is drawn with [`Controls::calibration`].
    pub calibrated: bool,
}

/// Most settings kept for comparison.
pub const MAX_PINS: usize = 4;
/// Longest name of a pin, in characters.
pub const MAX_PIN_NAME: usize = 40;

/// A setting kept for comparison, with the name the user gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    /// What the user calls it.
    pub name: String,
    /// The setting (its own `pins` empty).
    pub controls: Controls,
}

impl Controls {
    /// Keeps the current setting as a pin named `name` (the oldest pin
    /// goes when there are [`MAX_PINS`] already).
    pub fn pin(&mut self, name: String) {
        let name = name.chars().take(MAX_PIN_NAME).collect();
        let mut kept = self.clone();
        kept.pins.clear();
        if self.pins.len() >= MAX_PINS {
            self.pins.remove(0);
        }
        self.pins.push(Pin {
            name,
            controls: kept,
        });
    }

    /// These controls without their pins.
    #[must_use]
    pub fn unpinned(&self) -> Controls {
        Controls {
            pins: Vec::new(),
            ..self.clone()
        }
    }
}

impl Default for Controls {
    /// The paper's Figure 3 setting: Llama-2 7B, FSDP, two sequences of
    /// 4096 tokens per GPU, on 32 DGX H100 nodes.
    fn default() -> Self {
        Self {
            gpu: "h100-sxm5-80gb",
            nodes: 32,
            model: "llama2-7b",
            custom: Model {
                layers: 24,
                hidden: 2048,
                heads: 16,
                kv_heads: 16,
                ffn: 5504,
                vocab: 32_000,
                mlp: Mlp::Swiglu,
                head_dim: None,
                latent: None,
                moe: None,
                window: None,
            },
            seq_len: 4096,
            tp: 1,
            pp: 1,
            cp: 1,
            ep: 1,
            etp: 1,
            ep_overlap: false,
            dp: DataParallel::Fsdp,
            sp: true,
            schedule: Schedule::OneFOneB,
            scaling: Scaling::Weak,
            local_batch: 2,
            global_batch: 512,
            micro_batch: 2,
            recompute: Recompute::None,
            precision: Precision::Bf16,
            stack: StackId::Paper,
            best: false,
            overrides: Overrides::default(),
            routing: Routing::default(),
            plan: super::PlanInputs::default(),
            pins: Vec::new(),
            calibration: Calibration::default(),
            calibrated: false,
        }
    }
}

/// The GPU the controls name (H100 if the id is unknown).
#[must_use]
pub fn gpu_of(c: &Controls) -> Gpu {
    gpu_by_id(c.gpu).unwrap_or(scalescope_core::hardware::H100)
}

/// The NVLink domain the controls' cluster has: the what-if, or what a
/// scenario with the controls' GPUs per node resolves to.
#[must_use]
pub fn nvlink_domain_of(c: &Controls) -> u32 {
    c.scenario_at(1, c.gpu)
        .resolve()
        .map_or(gpu_of(c).nvlink_domain, |cfg| cfg.cluster.domain())
}

/// The chosen model as its preset or custom shape defines it, before
/// the routing what-ifs.
#[must_use]
pub fn own_model_of(c: &Controls) -> Model {
    PRESETS
        .iter()
        .find(|p| p.id == c.model)
        .map_or(c.custom, |p| p.model)
}

/// The model the controls name, with the routing what-ifs applied.
#[must_use]
pub fn model_of(c: &Controls) -> Model {
    let mut m = own_model_of(c);
    if let Some(e) = m.moe.as_mut() {
        let r = c.routing;
        e.imbalance = r.imbalance.unwrap_or(e.imbalance);
        e.capacity = r.capacity.or(e.capacity);
    }
    m
}

impl Controls {
    /// GPUs per node after overrides.
    #[must_use]
    pub fn gpus_per_node(&self) -> u32 {
        self.gpus_per_node_of(gpu_of(self))
    }

    /// GPUs per node of `gpu` under the what-if, if any.
    fn gpus_per_node_of(&self, gpu: Gpu) -> u32 {
        self.overrides
            .gpus_per_node
            .unwrap_or(gpu.gpus_per_node)
            .max(1)
    }

    /// Global batch at `nodes` nodes.
    #[must_use]
    pub fn global_batch_at(&self, nodes: u32) -> u32 {
        self.global_batch_on(nodes, gpu_of(self))
    }

    /// Global batch at `nodes` nodes of `gpu`: under weak scaling each of
    /// its GPUs keeps the local batch (an NVL72 tray holds 4, a DGX 8).
    fn global_batch_on(&self, nodes: u32, gpu: Gpu) -> u32 {
        match self.scaling {
            Scaling::Strong => self.global_batch,
            Scaling::Weak => {
                let gpus = u64::from(nodes) * u64::from(self.gpus_per_node_of(gpu));
                u32::try_from(u64::from(self.local_batch) * gpus).unwrap_or(u32::MAX)
            }
        }
    }

    /// The scenario file these controls describe, at `nodes` nodes.
    #[must_use]
    pub fn scenario_at(&self, nodes: u32, gpu: &'static str) -> Scenario {
        let model = model_of(self);
        let experts = model.moe.is_some();
        let o = self.overrides;
        Scenario {
            hardware: HardwareSpec {
                gpu: gpu.into(),
                nodes,
                gpus_per_node: o.gpus_per_node,
                nvlink_domain: o.nvlink_domain,
                inter_node_gbps_per_gpu: o.network_gbps_per_gpu,
                peak_tflops: o.peak_tflops,
                hbm_gib: None,
                hbm_gb_per_s: o.hbm_gb_per_s,
                nvlink_gb_per_s: o.nvlink_gb_per_s,
                dp_overlap_gb_per_s: o.dp_overlap_gb_per_s,
                host_link_gb_per_s: None,
            },
            // A preset with its routing changed is written out whole.
            model: if PRESETS.iter().any(|p| p.id == self.model)
                && !(experts && self.routing != Routing::default())
            {
                ModelSpec::Preset(self.model.into())
            } else {
                ModelSpec::Custom(model)
            },
            seq_len: self.seq_len,
            global_batch: self
                .global_batch_on(nodes, gpu_by_id(gpu).unwrap_or_else(|| gpu_of(self))),
            micro_batch: self.micro_batch,
            parallel: Parallel {
                dp: self.dp,
                tp: self.tp,
                pp: self.pp,
                cp: self.cp,
                sp: self.sequence_parallel(),
                schedule: self.schedule,
                virtual_stages: if self.schedule == Schedule::Interleaved {
                    2
                } else {
                    1
                },
                // Expert degrees only where the model has experts.
                ep: if experts { self.ep } else { 1 },
                etp: if experts { self.etp } else { 1 },
                ep_overlap: experts && self.ep_overlap,
            },
            recompute: self.recompute,
            offload_layers: 0,
            recompute_modules: scalescope_core::scenario::Modules::NONE,
            precision: if self.precision == Precision::Bf16 && self.gpu == "v100-sxm2-32gb" {
                Precision::Fp16
            } else {
                self.precision
            },
            stack: self.stack,
            calibration: if self.calibrated {
                self.calibration
            } else {
                Calibration::default()
            },
        }
    }

    /// Whether sequence parallelism runs: the switch is on, TP splits the
    /// layer, and the stack has it (the paper's does not, so the switch
    /// waits until a stack that has it is chosen).
    #[must_use]
    pub fn sequence_parallel(&self) -> bool {
        self.sp && self.tp > 1 && Stack::of(self.stack).sequence_parallel
    }

    /// The search space of the best-layout switch.
    #[must_use]
    pub fn space(&self) -> SearchSpace {
        SearchSpace::explorer(self.dp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_scaling_grows_the_batch_and_strong_keeps_it() {
        let mut c = Controls::default();
        assert_eq!(c.global_batch_at(1), 16);
        assert_eq!(c.global_batch_at(256), 4096);
        c.scaling = Scaling::Strong;
        c.global_batch = 32;
        assert_eq!(c.global_batch_at(1), 32);
        assert_eq!(c.global_batch_at(256), 32);
    }

    /// Another GPU at the same node count keeps the local batch on each
    /// of its GPUs: a DGX holds 8 where an NVL72 tray holds 4.
    #[test]
    fn weak_scaling_on_another_gpu_keeps_its_local_batch() {
        let c = Controls {
            gpu: "gb200-nvl72",
            scaling: Scaling::Weak,
            ..Controls::default()
        };
        let local = c.local_batch;
        assert_eq!(
            c.scenario_at(32, "gb200-nvl72").global_batch,
            local * 32 * 4
        );
        assert_eq!(
            c.scenario_at(32, "h100-sxm5-80gb").global_batch,
            local * 32 * 8
        );
    }
}
