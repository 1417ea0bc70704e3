//! The paper's findings F1 to F14 (`shared/paper/FINDINGS.md`), each
//! recomputed by the model: the paper's number, the model's number and
//! whether the finding holds. The command-line tool prints these, the tests
//! assert them, and the explorer's validation page shows them.
//!
//! Stated numbers must land within [`TOLERANCE`] (relative); "shape only"
//! findings must show the stated direction.
//!
//! What the paper states is data, in `data.rs`: each finding's figure, claim
//! and numbers in words, and each number a check compares. The checks are in
//! `scaling.rs` (the cluster, the context or the FSDP group grows) and
//! `layouts.rs` (model-parallel layouts against FSDP alone).

use crate::evaluate::{evaluate, Report};
use crate::hardware::{Cluster, Gpu, V100};
use crate::model::preset;
use crate::scenario::{Config, DataParallel, Layout, Parallel, Precision, Recompute, Schedule};
use crate::search::{search, Objective, SearchSpace};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

mod data;
mod layouts;
mod scaling;

pub use scaling::{bus_bandwidths, memory_at_group, weak_scaling_point};

/// Relative tolerance for the paper's stated numbers: the paper's own
/// numbers come from 50 iterations on one cluster, and its setups leave
/// details open (micro-batching, kernels), so a model within 20% reproduces
/// the effect, not a testbed.
pub const TOLERANCE: f64 = 0.20;

/// One finding, reproduced.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `F1` to `F14`.
    pub id: &'static str,
    /// The paper's figure or section.
    pub figure: &'static str,
    /// What the paper found.
    pub claim: &'static str,
    /// The paper's number (or "shape only").
    pub paper: String,
    /// The model's number for the same setting.
    pub model: String,
    /// Whether the model reproduces the finding.
    pub holds: bool,
    /// The paper's stated numbers beside the model's (empty for shape-only
    /// findings), for tables that show the difference.
    pub numbers: Vec<Number>,
}

/// How the paper states a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// About this value (within [`TOLERANCE`]).
    About,
    /// Under this value.
    Under,
    /// Over this value.
    Over,
}

impl Bound {
    /// The words before a stated value: `under `, `over `, or nothing.
    #[must_use]
    pub const fn prefix(self) -> &'static str {
        match self {
            Self::About => "",
            Self::Under => "under ",
            Self::Over => "over ",
        }
    }
}

/// One stated number of a finding: the paper's and the model's.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Number {
    /// What is measured.
    pub quantity: &'static str,
    /// How the paper states it.
    pub bound: Bound,
    /// The paper's value, in `unit`.
    pub paper: f64,
    /// The model's value for the same setting, in `unit`.
    pub model: f64,
    /// `%` (percent or percentage points) or a unit such as `W`.
    pub unit: &'static str,
}

impl Number {
    /// Model minus paper, in `unit`.
    #[must_use]
    pub fn difference(&self) -> f64 {
        self.model - self.paper
    }

    /// The unit of [`Number::difference`]: percentage points for `%`.
    #[must_use]
    pub fn difference_unit(&self) -> &'static str {
        if self.unit == "%" {
            "points"
        } else {
            self.unit
        }
    }

    /// Whether the model's value meets the paper's statement.
    #[must_use]
    pub fn holds(&self) -> bool {
        match self.bound {
            Bound::About => within(self.model, self.paper),
            Bound::Under => self.model < self.paper,
            Bound::Over => self.model > self.paper,
        }
    }
}

impl Finding {
    /// The finding the paper states in `claim`, with the model's side.
    fn new(claim: &Claim, model: String, holds: bool, numbers: Vec<Number>) -> Self {
        Self {
            id: claim.id,
            figure: claim.figure,
            claim: claim.claim,
            paper: String::from(claim.paper),
            model,
            holds,
            numbers,
        }
    }
}

/// How the paper states one finding, as data.
struct Claim {
    /// `F1` to `F14`.
    id: &'static str,
    /// The paper's figure or section.
    figure: &'static str,
    /// What the paper found, as the check reads it.
    claim: &'static str,
    /// The paper's numbers in words (or "shape only", "qualitative").
    paper: &'static str,
}

/// A number the paper states, as data: as the paper prints it and as a
/// check compares it with the model's.
#[derive(Clone, Copy)]
struct Stated {
    /// What is measured.
    quantity: &'static str,
    /// How the paper states it.
    bound: Bound,
    /// The paper's value as printed, in `unit`.
    printed: f64,
    /// The same value as a check compares it: a fraction where `unit` is `%`
    /// or `points`, otherwise as printed.
    value: f64,
    /// `%`, `points` or a unit such as `W`.
    unit: &'static str,
}

impl Stated {
    /// The stated number beside the model's value `model` (in `unit`).
    fn beside(&self, model: f64) -> Number {
        Number {
            quantity: self.quantity,
            bound: self.bound,
            paper: self.printed,
            model,
            unit: self.unit,
        }
    }
}

/// Whether `model` lands within [`TOLERANCE`] of `paper` (relative).
fn within(model: f64, paper: f64) -> bool {
    (model - paper).abs() <= TOLERANCE * paper.abs()
}

/// The paper's base setting: Llama-2 7B, context 4096, FSDP (no reshard
/// after forward), bf16, no recomputation.
#[must_use]
pub fn base(gpu: Gpu, nodes: u32, model: &str, global_batch: u32, micro_batch: u32) -> Config {
    Config {
        cluster: Cluster::new(gpu, nodes),
        model: preset(model).unwrap_or(crate::model::PRESETS[1].model),
        seq_len: 4096,
        global_batch,
        layout: Layout {
            parallel: Parallel {
                dp: DataParallel::Fsdp,
                tp: 1,
                pp: 1,
                cp: 1,
                sp: false,
                schedule: Schedule::OneFOneB,
                virtual_stages: 1,
                ep: 1,
                etp: 1,
                ep_overlap: false,
            },
            micro_batch,
            recompute: Recompute::None,
            offload_layers: 0,
            recompute_modules: crate::scenario::Modules::NONE,
        },
        precision: if gpu.id == V100.id {
            Precision::Fp16
        } else {
            Precision::Bf16
        },
        stack: crate::stack::PAPER,
    }
}

/// `cfg` with tensor, pipeline and context degrees as the paper ran them
/// (no sequence parallelism), each replica keeping the per-GPU batch.
fn with_mp(mut cfg: Config, tp: u32, pp: u32, cp: u32) -> Config {
    let p = &mut cfg.layout.parallel;
    p.tp = tp;
    p.pp = pp;
    p.cp = cp;
    // The paper's stack has no sequence parallelism.
    p.sp = false;
    // Each replica keeps the per-GPU batch: TP x PP x CP times the sequences.
    cfg.layout.micro_batch = (cfg.layout.micro_batch * tp * pp * cp).min(cfg.global_batch);
    cfg
}

/// The report of `cfg` if it evaluates and fits in memory.
fn eval(cfg: &Config) -> Option<Report> {
    evaluate(cfg).ok().filter(|r| r.fits)
}

/// The best layout of the paper's search for `cfg`, and its report.
fn best(cfg: &Config) -> Option<(Layout, Report)> {
    search(cfg, &SearchSpace::paper(), Objective::Throughput, 1)
        .best
        .first()
        .map(|c| (c.layout, c.report))
}

/// A fraction as a percentage with two decimals.
fn pct(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// A layout's degrees and micro-batch: `TP2 PP1 CP1 mb2`.
fn layout_name(l: &Layout) -> String {
    format!(
        "TP{} PP{} CP{} mb{}",
        l.parallel.tp, l.parallel.pp, l.parallel.cp, l.micro_batch
    )
}

/// Every finding, F1 to F14, in order.
#[must_use]
pub fn all() -> Vec<Finding> {
    let (f6, f7) = layouts::f6_f7();
    alloc::vec![
        scaling::f1(),
        scaling::f2(),
        scaling::f3(),
        scaling::f4(),
        layouts::f5(),
        f6,
        f7,
        layouts::f8(),
        scaling::f9(),
        scaling::f10(),
        scaling::f11(),
        layouts::f12(),
        layouts::f13(),
        scaling::f14()
    ]
}

/// One finding by id (`F1` to `F14`).
#[must_use]
pub fn by_id(id: &str) -> Option<Finding> {
    Some(match id {
        "F1" => scaling::f1(),
        "F2" => scaling::f2(),
        "F3" => scaling::f3(),
        "F4" => scaling::f4(),
        "F5" => layouts::f5(),
        "F6" => layouts::f6_f7().0,
        "F7" => layouts::f6_f7().1,
        "F8" => layouts::f8(),
        "F9" => scaling::f9(),
        "F10" => scaling::f10(),
        "F11" => scaling::f11(),
        "F12" => layouts::f12(),
        "F13" => layouts::f13(),
        "F14" => scaling::f14(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::data;

    #[test]
    fn each_stated_number_is_checked_at_the_value_the_paper_prints() {
        let mut stated = alloc::vec![
            data::F1_FALL,
            data::F1_POWER_128,
            data::F1_POWER_2048,
            data::F1_EFFICIENCY_FALL,
            data::F4_MFU_2_NODES,
            data::F4_MFU_32_NODES,
            data::F6_MFU_A100,
            data::F6_MFU_H100,
            data::F6_EXPOSURE_GAP,
            data::F10_GAIN,
            data::F10_POWER_RISE,
        ];
        stated.extend(data::F11_MFU_FALL.iter().map(|(_, s)| *s));
        for s in stated {
            let scale = if matches!(s.unit, "%" | "points") {
                100.0
            } else {
                1.0
            };
            assert!(
                (s.value * scale - s.printed).abs() < 1e-9,
                "{}: {} vs {}",
                s.quantity,
                s.value,
                s.printed
            );
        }
    }
}
