//! The explorer's state: what the controls hold ([`Controls`]) and what the
//! charts draw ([`Views`]), computed from the controls by the core. Nothing
//! here touches the browser, so it is tested natively.

use scalescope_core::collective::{self, Collective, Group};
use scalescope_core::evaluate::Report;
use scalescope_core::hardware::{gpu_by_id, Gpu, GPUS};
use scalescope_core::memory::{self, Memory};
use scalescope_core::model::{Mlp, Model, PRESETS};
use scalescope_core::scenario::{
    Config, DataParallel, HardwareSpec, Layout, ModelSpec, Parallel, Precision, Recompute,
    Scenario, Schedule,
};
use scalescope_core::search::{for_each_layout, search, Objective, SearchSpace};
use scalescope_core::stack::{Stack, StackId};
use scalescope_core::units::Bytes;

/// Largest node count the slider reaches (2048 GPUs); more can be typed.
pub const SLIDER_MAX_NODES: u32 = 256;
/// Largest node count accepted at all.
pub const MAX_NODES: u32 = 16_384;
/// Context length range of the slider (both powers of two).
pub const SEQ_RANGE: (u32, u32) = (512, 131_072);
/// The parallel degrees the degree controls offer.
pub const DEGREES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
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

/// Reads a count typed in a field or written in a link. A whole number in
/// `lo..=hi` is taken as it is; any other number is rounded and clamped,
/// with the reason (`is not a whole number: using 3`); text that is not a
/// number gives `None`.
#[must_use]
pub fn read_count(raw: &str, lo: u32, hi: u32) -> Option<(u32, Option<String>)> {
    let x = raw.trim().parse::<f64>().ok().filter(|x| x.is_finite())?;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let v = x.round().clamp(f64::from(lo), f64::from(hi)) as u32;
    let why = if x < f64::from(lo) || x > f64::from(hi) {
        Some(format!("is out of range ({lo} to {hi}): using {v}"))
    } else if x.fract() != 0.0 {
        Some(format!("is not a whole number: using {v}"))
    } else {
        None
    };
    Some((v, why))
}

/// Message size of the collective bandwidth chart (nccl-tests' 1 GB point).
pub const COLLECTIVE_MESSAGE: Bytes = Bytes::mb(1024.0);

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
    /// Bus bandwidth per GPU of data-parallel traffic under compute, GB/s.
    pub dp_overlap_gb_per_s: Option<f64>,
}

/// Everything the control panel holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    /// GPU id (see [`GPUS`]).
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
            },
            seq_len: 4096,
            tp: 1,
            pp: 1,
            cp: 1,
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
        }
    }
}

/// The node counts every sweep visits: powers of two up to the slider's
/// end, plus the current count wherever it falls.
#[must_use]
pub fn sweep_nodes(current: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..=8).map(|k| 1_u32 << k).collect();
    if !v.contains(&current) {
        v.push(current);
        v.sort_unstable();
    }
    v
}

/// The GPU the controls name (H100 if the id is unknown).
#[must_use]
pub fn gpu_of(c: &Controls) -> Gpu {
    gpu_by_id(c.gpu).unwrap_or(scalescope_core::hardware::H100)
}

/// The model the controls name.
#[must_use]
pub fn model_of(c: &Controls) -> Model {
    PRESETS
        .iter()
        .find(|p| p.id == c.model)
        .map_or(c.custom, |p| p.model)
}

impl Controls {
    /// GPUs per node after overrides.
    #[must_use]
    pub fn gpus_per_node(&self) -> u32 {
        self.overrides
            .gpus_per_node
            .unwrap_or_else(|| gpu_of(self).gpus_per_node)
            .max(1)
    }

    /// Global batch at `nodes` nodes.
    #[must_use]
    pub fn global_batch_at(&self, nodes: u32) -> u32 {
        match self.scaling {
            Scaling::Strong => self.global_batch,
            Scaling::Weak => {
                let gpus = u64::from(nodes) * u64::from(self.gpus_per_node());
                u32::try_from(u64::from(self.local_batch) * gpus).unwrap_or(u32::MAX)
            }
        }
    }

    /// The scenario file these controls describe, at `nodes` nodes.
    #[must_use]
    pub fn scenario_at(&self, nodes: u32, gpu: &'static str) -> Scenario {
        let o = self.overrides;
        Scenario {
            hardware: HardwareSpec {
                gpu: gpu.into(),
                nodes,
                gpus_per_node: o.gpus_per_node,
                inter_node_gbps_per_gpu: o.network_gbps_per_gpu,
                peak_tflops: o.peak_tflops,
                hbm_gib: None,
                hbm_gb_per_s: o.hbm_gb_per_s,
                nvlink_gb_per_s: o.nvlink_gb_per_s,
                dp_overlap_gb_per_s: o.dp_overlap_gb_per_s,
            },
            model: if PRESETS.iter().any(|p| p.id == self.model) {
                ModelSpec::Preset(self.model.into())
            } else {
                ModelSpec::Custom(self.custom)
            },
            seq_len: self.seq_len,
            global_batch: self.global_batch_at(nodes),
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
            },
            recompute: self.recompute,
            precision: if self.precision == Precision::Bf16 && self.gpu == "v100-sxm2-32gb" {
                Precision::Fp16
            } else {
                self.precision
            },
            stack: self.stack,
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

/// One evaluated point: the layout used and its report, or why there is none.
pub type Outcome = Result<(Layout, Report), String>;

/// Evaluates the controls at `nodes` on `gpu`: the chosen layout, or the
/// best one when the switch is on. Layouts that do not fit are reported as
/// such, never evaluated silently.
pub fn evaluate_at(c: &Controls, nodes: u32, gpu: &'static str) -> Outcome {
    let scenario = c.scenario_at(nodes, gpu);
    if c.best {
        let base = scenario.resolve().map_err(|e| e.to_string())?;
        // What no layout can fix is said as such, not as a layout failure.
        base.check_setting().map_err(|e| e.to_string())?;
        let found = search(&base, &c.space(), Objective::Throughput, 1);
        return found
            .best
            .first()
            .map(|b| (b.layout, b.report))
            .ok_or_else(|| no_fit_reason(&base, found.out_of_memory));
    }
    let cfg = scenario.to_config().map_err(|e| e.to_string())?;
    let r = scalescope_core::evaluate::evaluate_checked(&cfg);
    if r.fits {
        Ok((cfg.layout, r))
    } else {
        Err(out_of_memory(&cfg, &r.memory))
    }
}

fn no_fit_reason(base: &Config, oom: u32) -> String {
    if oom > 0 {
        String::from(
            "no layout fits in GPU memory: add nodes, shorten the context or pick a smaller model",
        )
    } else {
        format!(
            "no layout splits a global batch of {} over {} GPUs: raise the batch or use fewer nodes",
            base.global_batch,
            base.cluster.gpus()
        )
    }
}

fn out_of_memory(cfg: &Config, m: &Memory) -> String {
    format!(
        "out of memory: needs {:.1} GiB per GPU of {:.0} GiB; raise TP or PP, recompute activations, shard with FSDP or lower the micro-batch",
        m.total().as_gib(),
        cfg.cluster.gpu.hbm.as_gib()
    )
}

/// One point of the scaling sweep.
#[derive(Clone, Debug)]
pub struct Point {
    /// Nodes.
    pub nodes: u32,
    /// GPUs.
    pub gpus: u32,
    /// Global batch in sequences.
    pub global_batch: u32,
    /// What was evaluated.
    pub outcome: Outcome,
}

/// A cell of the TP x PP grid.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // 25 cells, built once per repaint
pub enum Cell {
    /// Fits: the best evaluation of this (TP, PP) pair.
    Ok(Layout, Report),
    /// Every layout of the pair is out of memory.
    OutOfMemory,
    /// The pair is not a valid layout here, and why.
    Invalid(String),
}

/// The TP x PP grid at the current GPU count.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Column degrees (TP).
    pub tps: Vec<u32>,
    /// Row degrees (PP).
    pub pps: Vec<u32>,
    /// Row-major cells, `pps.len()` rows of `tps.len()`.
    pub cells: Vec<Cell>,
}

/// One bar of the generations chart.
#[derive(Clone, Debug)]
pub struct Generation {
    /// The GPU.
    pub gpu: Gpu,
    /// Its evaluation on the same workload and node count.
    pub outcome: Outcome,
}

/// Bus bandwidth of the two collectives at one node count.
#[derive(Clone, Copy, Debug)]
pub struct BusBandwidth {
    /// Nodes.
    pub nodes: u32,
    /// Ring AllGather bus bandwidth, GB/s.
    pub allgather: f64,
    /// AllReduce (NCCL's faster of ring and tree) bus bandwidth, GB/s.
    pub allreduce: f64,
}

/// Memory per GPU at one data-parallel group size.
#[derive(Clone, Copy, Debug)]
pub struct MemoryPoint {
    /// Data-parallel (FSDP) group size.
    pub group: u32,
    /// Memory by part.
    pub memory: Memory,
}

/// Everything the charts and readouts show, computed from [`Controls`].
#[derive(Clone, Debug)]
pub struct Views {
    /// The controls these views were computed from.
    pub controls: Controls,
    /// Scaling sweep across node counts.
    pub points: Vec<Point>,
    /// The current node count's point.
    pub current: Outcome,
    /// TP x PP grid at the current node count.
    pub grid: Grid,
    /// Each GPU generation on the same workload.
    pub generations: Vec<Generation>,
    /// Collective bus bandwidth against nodes.
    pub collectives: Vec<BusBandwidth>,
    /// Memory per GPU against FSDP group size, with the HBM capacity.
    pub memory: Vec<MemoryPoint>,
    /// HBM capacity per GPU, GiB.
    pub hbm_gib: f64,
}

/// Computes every view from the controls.
#[must_use]
pub fn compute(c: &Controls) -> Views {
    let points: Vec<Point> = sweep_nodes(c.nodes)
        .into_iter()
        .map(|n| Point {
            nodes: n,
            gpus: n.saturating_mul(c.gpus_per_node()),
            global_batch: c.global_batch_at(n),
            outcome: evaluate_at(c, n, c.gpu),
        })
        .collect();
    let current = points
        .iter()
        .find(|p| p.nodes == c.nodes)
        .map_or_else(|| evaluate_at(c, c.nodes, c.gpu), |p| p.outcome.clone());
    let generations = GPUS
        .iter()
        .map(|g| Generation {
            gpu: *g,
            outcome: if g.id == c.gpu {
                current.clone()
            } else {
                evaluate_at(c, c.nodes, g.id)
            },
        })
        .collect();
    let grid = grid(c);
    let collectives = collectives(c);
    let memory = memory_points(c, &current);
    Views {
        controls: c.clone(),
        points,
        current,
        grid,
        generations,
        collectives,
        memory,
        hbm_gib: gpu_of(c).hbm.as_gib(),
    }
}

/// The TP x PP grid. With the best-layout switch on, each cell holds the
/// best micro-batch, context degree and recomputation for its pair (one
/// pass over the search space); otherwise the chosen layout with the cell's
/// degrees.
fn grid(c: &Controls) -> Grid {
    let tps = vec![1, 2, 4, 8, 16];
    let pps = vec![1, 2, 4, 8, 16];
    let mut cells = Vec::with_capacity(tps.len() * pps.len());
    if c.best {
        let base = c.scenario_at(c.nodes, c.gpu).resolve();
        let mut best: Vec<Option<(Layout, Report)>> = vec![None; tps.len() * pps.len()];
        if let Ok(base) = &base {
            for_each_layout(base, &c.space(), |cfg, r| {
                let p = cfg.layout.parallel;
                let (Some(i), Some(j)) = (
                    tps.iter().position(|&t| t == p.tp),
                    pps.iter().position(|&q| q == p.pp),
                ) else {
                    return;
                };
                let slot = &mut best[j * tps.len() + i];
                if slot.is_none_or(|(_, b)| r.tokens_per_s > b.tokens_per_s) {
                    *slot = Some((cfg.layout, r));
                }
            });
        }
        for &pp in &pps {
            for &tp in &tps {
                let k = cells.len();
                cells.push(match (&base, best[k]) {
                    (_, Some((l, r))) => Cell::Ok(l, r),
                    (Err(e), None) => Cell::Invalid(e.to_string()),
                    (Ok(_), None) => {
                        let mut probe = c.clone();
                        probe.best = false;
                        probe.tp = tp;
                        probe.pp = pp;
                        probe.recompute = Recompute::Full;
                        probe.micro_batch = 1;
                        probe.cp = 1;
                        match probe.scenario_at(c.nodes, c.gpu).to_config() {
                            Ok(_) => Cell::OutOfMemory,
                            Err(e) => Cell::Invalid(e.to_string()),
                        }
                    }
                });
            }
        }
    } else {
        for &pp in &pps {
            for &tp in &tps {
                let mut probe = c.clone();
                probe.tp = tp;
                probe.pp = pp;
                cells.push(match probe.scenario_at(c.nodes, c.gpu).to_config() {
                    Err(e) => Cell::Invalid(e.to_string()),
                    Ok(cfg) => {
                        let r = scalescope_core::evaluate::evaluate_checked(&cfg);
                        if r.fits {
                            Cell::Ok(cfg.layout, r)
                        } else {
                            Cell::OutOfMemory
                        }
                    }
                });
            }
        }
    }
    Grid { tps, pps, cells }
}

fn collectives(c: &Controls) -> Vec<BusBandwidth> {
    let gpn = c.gpus_per_node();
    let Ok(cfg) = c.scenario_at(1, c.gpu).resolve() else {
        return Vec::new();
    };
    // The links the step model uses, with its at-scale ring step factor.
    let links = scalescope_core::evaluate::links(&cfg);
    sweep_nodes(c.nodes)
        .into_iter()
        .map(|n| {
            let g = Group::new(n.saturating_mul(gpn), gpn);
            let bw = |op| {
                collective::time(op, COLLECTIVE_MESSAGE, g, &links)
                    .bus_bandwidth
                    .as_gb_s()
            };
            BusBandwidth {
                nodes: n,
                allgather: bw(Collective::AllGather),
                allreduce: bw(Collective::AllReduce),
            }
        })
        .collect()
}

/// Memory per GPU of the current layout as its data-parallel group grows
/// from 1 to the current size (or 64, whichever is larger). Under weak
/// scaling each group keeps the current batch per replica, as the other
/// charts do when GPUs are added; under strong scaling the global batch
/// stays, so smaller groups accumulate more micro-batches.
fn memory_points(c: &Controls, current: &Outcome) -> Vec<MemoryPoint> {
    let Ok(mut cfg) = c.scenario_at(c.nodes, c.gpu).resolve() else {
        return Vec::new();
    };
    if let Ok((layout, _)) = current {
        cfg.layout = *layout;
    }
    let p = cfg.layout.parallel;
    let mp = p.tp.saturating_mul(p.pp).saturating_mul(p.cp).max(1);
    let top = cfg.dp().max(64);
    let per_replica = cfg.global_batch / cfg.dp().max(1);
    (0..=20)
        .map(|k| 1_u32 << k)
        .take_while(|&g| g <= top)
        .map(|g| {
            let mut at = cfg;
            let gpus = g.saturating_mul(mp);
            if gpus >= cfg.cluster.gpus_per_node {
                at.cluster.nodes = gpus / cfg.cluster.gpus_per_node;
            } else {
                at.cluster.nodes = 1;
                at.cluster.gpus_per_node = gpus;
            }
            if c.scaling == Scaling::Weak {
                at.global_batch = per_replica.saturating_mul(g);
            }
            MemoryPoint {
                group: g,
                memory: memory::per_gpu(&at),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_point_is_valid_and_every_view_is_filled() {
        let v = compute(&Controls::default());
        let (_, r) = v.current.as_ref().expect("the default setting evaluates");
        assert!(r.mfu > 0.2 && r.mfu < 0.7);
        assert_eq!(v.points.len(), 9);
        assert!(v.points.iter().all(|p| p.outcome.is_ok()));
        assert_eq!(v.generations.len(), GPUS.len());
        assert_eq!(v.grid.cells.len(), 25);
        assert!(matches!(v.grid.cells[0], Cell::Ok(..)));
        assert_eq!(v.collectives.len(), 9);
        assert!(v.memory.len() >= 7);
    }

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

    #[test]
    fn an_impossible_layout_names_what_to_change() {
        let c = Controls {
            tp: 64,
            ..Controls::default()
        };
        let v = compute(&c);
        let msg = v.current.expect_err("TP 64 does not divide 32 heads");
        assert!(msg.contains("tensor parallel 64"), "{msg}");
        // The rest of the page still has something to draw.
        assert!(v.collectives.len() == 9 && !v.memory.is_empty());
        assert!(v.grid.cells.iter().any(|c| matches!(c, Cell::Ok(..))));
    }

    #[test]
    fn out_of_memory_is_reported_not_evaluated() {
        let c = Controls {
            model: "llama2-70b",
            nodes: 1,
            ..Controls::default()
        };
        let msg = evaluate_at(&c, 1, c.gpu).expect_err("70B does not fit on 8 GPUs like this");
        assert!(msg.starts_with("out of memory"), "{msg}");
    }

    #[test]
    fn strong_scaling_beyond_the_batch_is_invalid_with_a_reason() {
        let c = Controls {
            scaling: Scaling::Strong,
            global_batch: 32,
            micro_batch: 1,
            ..Controls::default()
        };
        let v = compute(&c);
        let at_256 = v.points.iter().find(|p| p.nodes == 256).expect("swept");
        let msg = at_256
            .outcome
            .as_ref()
            .expect_err("32 sequences on 2048 GPUs");
        assert!(msg.contains("global batch 32"), "{msg}");
        let at_4 = v.points.iter().find(|p| p.nodes == 4).expect("swept");
        assert!(at_4.outcome.is_ok());
    }

    #[test]
    fn best_layout_is_at_least_as_fast_as_the_chosen_one() {
        let chosen = Controls::default();
        let best = Controls {
            best: true,
            ..Controls::default()
        };
        let (_, a) = compute(&chosen).current.expect("valid");
        let v = compute(&best);
        let (layout, b) = v.current.expect("a layout fits");
        assert!(b.tokens_per_s >= a.tokens_per_s * 0.999);
        assert!(layout.parallel.tp * layout.parallel.pp * layout.parallel.cp >= 1);
        // The grid's best cell is the point's layout.
        let top = v
            .grid
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Ok(_, r) => Some(r.tokens_per_s),
                _ => None,
            })
            .fold(0.0, f64::max);
        assert!((top - b.tokens_per_s).abs() <= b.tokens_per_s * 1e-9);
    }

    #[test]
    fn typed_node_counts_join_the_sweep() {
        assert_eq!(sweep_nodes(24), vec![1, 2, 4, 8, 16, 24, 32, 64, 128, 256]);
        assert_eq!(sweep_nodes(1024).last(), Some(&1024));
        assert_eq!(sweep_nodes(32).len(), 9);
    }

    #[test]
    fn overrides_reach_the_model() {
        let at = |o: Overrides| {
            let c = Controls {
                nodes: 16,
                overrides: o,
                ..Controls::default()
            };
            evaluate_at(&c, 16, c.gpu).expect("valid").1
        };
        let base = at(Overrides::default());
        let slow_net = at(Overrides {
            network_gbps_per_gpu: Some(50.0),
            ..Overrides::default()
        });
        let fast_gpu = at(Overrides {
            peak_tflops: Some(1980.0),
            ..Overrides::default()
        });
        let better_overlap = at(Overrides {
            dp_overlap_gb_per_s: Some(150.0),
            ..Overrides::default()
        });
        assert!(slow_net.tokens_per_s < base.tokens_per_s);
        assert!(fast_gpu.tokens_per_s > base.tokens_per_s);
        assert!(better_overlap.tokens_per_s > base.tokens_per_s);
        assert!(
            fast_gpu.mfu < base.mfu,
            "MFU is against the overridden peak"
        );
    }

    #[test]
    fn memory_falls_as_the_fsdp_group_grows() {
        let v = compute(&Controls::default());
        let totals: Vec<f64> = v.memory.iter().map(|m| m.memory.total().0).collect();
        assert!(totals.windows(2).all(|w| w[1] <= w[0]));
        assert!(totals[0] > totals[totals.len() - 1]);
    }

    /// Paper Figure 14: each doubling of the FSDP group saves less than the
    /// one before. Under weak scaling the batch per replica stays, so no
    /// group pays for gradient accumulation the current layout does not do.
    #[test]
    fn memory_savings_diminish_as_the_fsdp_group_grows() {
        let c = Controls::default();
        assert_eq!(c.scaling, Scaling::Weak);
        let v = compute(&c);
        let totals: Vec<f64> = v.memory.iter().map(|m| m.memory.total().0).collect();
        assert!(totals.len() >= 3);
        for w in totals.windows(3) {
            let (first, second) = (w[0] - w[1], w[1] - w[2]);
            assert!(second <= first + 1e-9, "savings grew: {totals:?}");
        }
    }

    /// A cluster beyond the core's GPU limit is named as such with the
    /// best-layout search on, as it is without.
    #[test]
    fn a_setting_no_layout_can_fix_says_why_with_the_search_on() {
        let mut c = Controls {
            nodes: MAX_NODES,
            ..Controls::default()
        };
        c.overrides.gpus_per_node = Some(1024);
        let plain = evaluate_at(&c, c.nodes, c.gpu).unwrap_err();
        c.best = true;
        let best = evaluate_at(&c, c.nodes, c.gpu).unwrap_err();
        assert!(plain.contains("hardware.nodes"), "{plain}");
        assert_eq!(best, plain);
    }
}
