//! Calibration to a user's own measured runs: the few named constants a
//! cluster and its software set ([`Constant`]), fitted to runs the user
//! measured ([`Measured`], read from a CSV by [`read_csv`]) by least
//! squares on the logarithm of model over measured (a relative error,
//! symmetric in over and under), each bounded to a physical range.
//!
//! A fit is a [`Calibration`], which a scenario file carries
//! (`"calibration": { "gemm_efficiency": 0.52 }`) and applies when it
//! becomes a [`Config`]. The defaults are the model's own constants
//! ([`crate::calibration`]); an empty calibration changes nothing.
//!
//! ```
//! use scalescope_core::calibrate::{fit, read_csv, Calibration, Constant};
//! let runs = read_csv(
//!     "gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,metric,value\n\
//!      h100,4,llama2-7b,4096,64,2,1,1,tokens_per_gpu,2900\n\
//!      h100,16,llama2-7b,4096,256,2,1,1,tokens_per_gpu,2500\n",
//! )?;
//! let report = fit(&runs, &[Constant::GemmEfficiency], Calibration::default())?;
//! assert!(report.rms_after <= report.rms_before);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod csv;
mod fitting;

pub use csv::{read_csv, write_csv, RunError};
pub use fitting::{fit, FitError, FitReport, FittedConstant, RunFit};

use crate::error::Error;
use crate::evaluate::Report;
use crate::scenario::{Config, Scenario};
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// The most runs one fit takes.
pub const MAX_RUNS: usize = 64;

/// A relative error (model over measured, less one) above which a fit is
/// called poor.
pub const POOR_FIT: f64 = 0.10;

/// A constant a user may fit to measured runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Constant {
    /// Fraction of the GPU's dense peak that large GEMMs reach
    /// ([`crate::hardware::Gpu::gemm_efficiency`]).
    GemmEfficiency,
    /// Fraction of the network line rate that NCCL reaches across nodes
    /// ([`crate::hardware::Cluster::network_efficiency`]).
    NetworkEfficiency,
    /// Share of the NVLink bus rate that data-parallel traffic across nodes
    /// reaches under compute ([`crate::stack::Stack::dp_overlap_share`]);
    /// no effect where the scenario sets `hardware.dp_overlap_gb_per_s`.
    DpOverlapShare,
    /// Fraction of the GPU's dense peak that the fused attention kernel
    /// reaches: FlashAttention-2's ([`crate::hardware::Gpu::attention_efficiency`]),
    /// or cuDNN's where the stack runs attention through Transformer
    /// Engine ([`crate::hardware::Gpu::te_attention_efficiency`]).
    AttentionEfficiency,
}

/// Every fittable constant, in the order reports list them.
pub const CONSTANTS: [Constant; 4] = [
    Constant::GemmEfficiency,
    Constant::NetworkEfficiency,
    Constant::DpOverlapShare,
    Constant::AttentionEfficiency,
];

/// Whether `cfg`'s attention runs through Transformer Engine, whose kernel
/// reads the GPU's cuDNN efficiency ([`crate::hardware::Gpu::te_attention_efficiency`])
/// where the others read FlashAttention-2's: the one a calibration of
/// attention sets.
fn te_attention(cfg: &Config) -> bool {
    cfg.stack.attention == crate::stack::AttentionKernel::TransformerEngine
}

impl Constant {
    /// The field's name in a scenario file's `calibration` (`gemm_efficiency`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::GemmEfficiency => "gemm_efficiency",
            Self::NetworkEfficiency => "network_efficiency",
            Self::DpOverlapShare => "dp_overlap_share",
            Self::AttentionEfficiency => "attention_efficiency",
        }
    }

    /// The short name `scalescope calibrate --free` takes (`gemm`).
    #[must_use]
    pub const fn short(self) -> &'static str {
        match self {
            Self::GemmEfficiency => "gemm",
            Self::NetworkEfficiency => "network",
            Self::DpOverlapShare => "overlap",
            Self::AttentionEfficiency => "attention",
        }
    }

    /// Looks a constant up by its name or its short name, case-insensitively.
    #[must_use]
    pub fn parse(key: &str) -> Option<Self> {
        CONSTANTS
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(key) || c.short().eq_ignore_ascii_case(key))
    }

    /// The physical range a fit keeps the constant in: GEMMs between 0.3 and
    /// 0.95 of peak, the network between 0.3 and all of its line rate,
    /// data-parallel traffic under compute between 5% and all of the NVLink
    /// bus rate, attention between 0.1 and 0.9 of peak.
    #[must_use]
    pub const fn bounds(self) -> (f64, f64) {
        match self {
            Self::GemmEfficiency => (0.3, 0.95),
            Self::NetworkEfficiency => (0.3, 1.0),
            Self::DpOverlapShare => (0.05, 1.0),
            Self::AttentionEfficiency => (0.1, 0.9),
        }
    }

    /// The value `cfg` runs with: the model's default for its GPU, network
    /// and stack, unless a calibration has been applied to it.
    #[must_use]
    pub fn default_for(self, cfg: &Config) -> f64 {
        match self {
            Self::GemmEfficiency => cfg.cluster.gpu.gemm_efficiency,
            Self::NetworkEfficiency => cfg.cluster.network_efficiency,
            Self::DpOverlapShare => cfg.stack.dp_overlap_share,
            Self::AttentionEfficiency if te_attention(cfg) => {
                cfg.cluster.gpu.te_attention_efficiency
            }
            Self::AttentionEfficiency => cfg.cluster.gpu.attention_efficiency,
        }
    }

    fn set(self, cfg: &mut Config, v: f64) {
        match self {
            Self::GemmEfficiency => cfg.cluster.gpu.gemm_efficiency = v,
            Self::NetworkEfficiency => cfg.cluster.network_efficiency = v,
            Self::DpOverlapShare => cfg.stack.dp_overlap_share = v,
            Self::AttentionEfficiency if te_attention(cfg) => {
                cfg.cluster.gpu.te_attention_efficiency = v;
            }
            Self::AttentionEfficiency => cfg.cluster.gpu.attention_efficiency = v,
        }
    }

    /// Whether `v` sits at (within a thousandth of the range of) a bound.
    fn at_bound(self, v: f64) -> bool {
        let (lo, hi) = self.bounds();
        let tol = 1e-3 * (hi - lo);
        v <= lo + tol || v >= hi - tol
    }
}

/// Constants fitted to a cluster, as a scenario file's `calibration`
/// carries them: each one given replaces the model's default.
///
/// ```
/// use scalescope_core::calibrate::Calibration;
/// use scalescope_core::scenario::Scenario;
/// let mut s = Scenario::example();
/// s.calibration = Calibration { gemm_efficiency: Some(0.5), ..Calibration::default() };
/// assert_eq!(s.to_config()?.cluster.gpu.gemm_efficiency, 0.5);
/// # Ok::<(), scalescope_core::error::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// [`Constant::GemmEfficiency`], a fraction of the dense peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemm_efficiency: Option<f64>,
    /// [`Constant::NetworkEfficiency`], a fraction of the line rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_efficiency: Option<f64>,
    /// [`Constant::DpOverlapShare`], a fraction of the NVLink bus rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dp_overlap_share: Option<f64>,
    /// [`Constant::AttentionEfficiency`], a fraction of the dense peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention_efficiency: Option<f64>,
}

impl Calibration {
    /// Whether no constant is given (the model's defaults throughout).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        CONSTANTS.iter().all(|&c| self.get(c).is_none())
    }

    /// The value given for `c`, if any.
    #[must_use]
    pub const fn get(&self, c: Constant) -> Option<f64> {
        match c {
            Constant::GemmEfficiency => self.gemm_efficiency,
            Constant::NetworkEfficiency => self.network_efficiency,
            Constant::DpOverlapShare => self.dp_overlap_share,
            Constant::AttentionEfficiency => self.attention_efficiency,
        }
    }

    /// Gives `c` the value `v` (`None`: the model's default).
    pub fn set(&mut self, c: Constant, v: Option<f64>) {
        let slot = match c {
            Constant::GemmEfficiency => &mut self.gemm_efficiency,
            Constant::NetworkEfficiency => &mut self.network_efficiency,
            Constant::DpOverlapShare => &mut self.dp_overlap_share,
            Constant::AttentionEfficiency => &mut self.attention_efficiency,
        };
        *slot = v;
    }

    /// Checks that every value given is a number within its constant's
    /// [`Constant::bounds`].
    ///
    /// # Errors
    /// [`Error::CalibrationOutOfRange`], naming the field
    /// (`calibration.gemm_efficiency`) and its range.
    pub fn check(&self) -> Result<(), Error> {
        for c in CONSTANTS {
            if let Some(v) = self.get(c) {
                let (min, max) = c.bounds();
                if !(v >= min && v <= max) {
                    return Err(Error::CalibrationOutOfRange {
                        field: c.name(),
                        value: v,
                        min,
                        max,
                    });
                }
            }
        }
        Ok(())
    }

    /// Sets each constant given in `cfg` (unchecked: see [`Self::check`]).
    pub fn apply(&self, cfg: &mut Config) {
        for c in CONSTANTS {
            if let Some(v) = self.get(c) {
                c.set(cfg, v);
            }
        }
    }
}

/// What a measured run reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Tokens per second per GPU ([`Report::tokens_per_s_per_gpu`]).
    TokensPerGpu,
    /// Seconds per optimizer step ([`Report::step_time_s`]).
    StepTime,
    /// Model FLOPs utilisation as a fraction ([`Report::mfu`]): `6N + 6 L h
    /// s` FLOPs per token (causal attention counted as the half of the
    /// score matrix it computes) against the precision's dense peak. MFU
    /// in the PaLM convention (`12 L h s`, which most frameworks print) is
    /// higher: give such runs as tokens per second per GPU instead.
    Mfu,
}

impl Metric {
    /// The metric as a CSV spells it (`tokens_per_gpu`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Self::TokensPerGpu => "tokens_per_gpu",
            Self::StepTime => "step_time",
            Self::Mfu => "mfu",
        }
    }

    /// Looks a metric up by its key, case-insensitively.
    #[must_use]
    pub fn parse(key: &str) -> Option<Self> {
        [Self::TokensPerGpu, Self::StepTime, Self::Mfu]
            .into_iter()
            .find(|m| m.key().eq_ignore_ascii_case(key))
    }

    /// The model's value of this metric in `r`.
    #[must_use]
    pub const fn of(self, r: &Report) -> f64 {
        match self {
            Self::TokensPerGpu => r.tokens_per_s_per_gpu,
            Self::StepTime => r.step_time_s,
            Self::Mfu => r.mfu,
        }
    }

    /// A value of this metric as people write it: `3120 tok/s/GPU`,
    /// `1.250 s`, `41.3% MFU`.
    #[must_use]
    pub fn show(self, x: f64) -> String {
        match self {
            Self::TokensPerGpu => format!("{x:.0} tok/s/GPU"),
            Self::StepTime => format!("{x:.3} s"),
            Self::Mfu => format!("{:.1}% MFU", x * 100.0),
        }
    }

    /// What the metric measures, for an error message.
    const fn what(self) -> &'static str {
        match self {
            Self::TokensPerGpu => "throughput",
            Self::StepTime => "step time",
            Self::Mfu => "MFU",
        }
    }

    /// Why `value` cannot be a measurement of this metric, if it cannot.
    fn refuse(self, value: f64) -> Option<String> {
        let what = self.what();
        if !value.is_finite() {
            Some(format!("{what} `{value}` is not a finite number"))
        } else if value < 0.0 {
            Some(format!("negative {what} {value}"))
        } else if value == 0.0 {
            Some(format!("zero {what}: a measured value must be positive"))
        } else if self == Self::Mfu && value > 1.0 {
            Some(format!(
                "MFU {value} is over 1: give MFU as a fraction (0.45 for 45%)"
            ))
        } else {
            None
        }
    }
}

/// A run the user measured: its setting, what was measured and the value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The setting, as a scenario file gives it.
    pub scenario: Scenario,
    /// What was measured.
    pub metric: Metric,
    /// The measured value, in the metric's unit.
    pub value: f64,
}

#[cfg(test)]
#[path = "calibrate_tests.rs"]
mod tests;
