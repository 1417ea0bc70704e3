//! The paper's question asked of the published runs: as a run grows onto
//! more GPUs, how much does each GPU lose? A scaling series is the runs of
//! one source that train the same model on the same GPU in the same
//! precision and stack at different GPU counts (the name before its GPU
//! count: "MLPerf Llama 3.1 405B NVFP4, 2560 GB200" and "..., 5120 GB200").
//! Its per-GPU change from the fewest GPUs to the most, as published,
//! is set beside the model's for the same two runs. Every metric here is
//! per GPU (tokens per second per GPU, TFLOP/s per GPU, MFU), so the change
//! reads the same in each.

use super::Check;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// How far the model's per-GPU change may be from the published one for a
/// series to hold: 5 points of per-GPU change.
pub const SCALING_TOLERANCE: f64 = 0.05;

/// One scaling series, its ends compared.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    /// The runs' name before the GPU count, and the GPU.
    pub name: String,
    /// GPUs at the two ends.
    pub gpus: (u32, u32),
    /// Runs in the series.
    pub runs: usize,
    /// Per-GPU change from the fewest GPUs to the most, as published
    /// (`-0.043` is 4.3% less per GPU).
    pub published: f64,
    /// The same, as the model predicts the two runs (`None` where either
    /// fits nowhere).
    pub model: Option<f64>,
}

impl Series {
    /// Model minus published change, in points of per-GPU change.
    #[must_use]
    pub fn difference(&self) -> Option<f64> {
        self.model.map(|m| m - self.published)
    }

    /// Whether the model's change is within [`SCALING_TOLERANCE`].
    #[must_use]
    pub fn holds(&self) -> bool {
        self.difference()
            .is_some_and(|d| d.abs() <= SCALING_TOLERANCE)
    }
}

/// The series of `checks`, in the order their first runs appear: every
/// group of two or more runs of one source, name, GPU, precision and stack
/// at different GPU counts.
#[must_use]
pub fn series(checks: &[Check]) -> Vec<Series> {
    let key = |c: &Check| {
        let cfg = &c.run.config;
        let stem = c.run.name.split(", ").next().unwrap_or(c.run.name);
        (
            c.run.source,
            stem,
            cfg.cluster.gpu.name,
            cfg.precision,
            c.run.stack,
        )
    };
    let mut out = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        if seen.contains(&i) {
            continue;
        }
        let members: Vec<usize> = (i..checks.len())
            .filter(|&j| key(&checks[j]) == key(c))
            .collect();
        seen.extend_from_slice(&members);
        let gpus = |j: usize| checks[j].run.config.cluster.gpus();
        let (Some(&few), Some(&most)) = (
            members.iter().min_by_key(|&&j| gpus(j)),
            members.iter().max_by_key(|&&j| gpus(j)),
        ) else {
            continue;
        };
        if gpus(few) == gpus(most) {
            continue;
        }
        let (a, b) = (&checks[few], &checks[most]);
        let (stem, gpu) = (key(c).1, key(c).2);
        out.push(Series {
            name: alloc::format!("{stem}, {gpu}"),
            gpus: (gpus(few), gpus(most)),
            runs: members.len(),
            published: b.run.published / a.run.published - 1.0,
            model: a.model.zip(b.model).map(|(x, y)| y / x - 1.0),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::{check, runs};

    #[test]
    fn mlperf_llama_405b_on_gb200_loses_per_gpu_as_its_logs_do() {
        // The paper's theme on Blackwell: MLPerf's
        // Llama 3.1 405B on GB200 NVL72, as its logs ran it. No one
        // precision spans 512 to 5,120 GPUs in the logs: FP8 ran 256 and
        // 512 (v5.0), NVFP4 2,560 and 5,120 (v5.1), so each is a series.
        let checks: Vec<Check> = runs()
            .iter()
            .filter(|r| r.name.starts_with("MLPerf Llama 3.1 405B"))
            .map(check)
            .collect();
        let all = series(&checks);
        let nvfp4 = all
            .iter()
            .find(|s| s.gpus == (2560, 5120))
            .expect("the NVFP4 series");
        let fp8 = all
            .iter()
            .find(|s| s.gpus == (256, 512))
            .expect("the FP8 series");
        for s in [nvfp4, fp8] {
            assert!(s.published < 0.0, "{s:?}");
            assert!(s.model.is_some_and(|m| m < 0.0), "{s:?}");
            assert!(s.holds(), "{s:?}");
        }
    }

    #[test]
    fn a_series_joins_one_setting_only_and_a_run_that_fits_nowhere_misses() {
        // MLPerf's five 405B runs: FP8 and NVFP4 on GB200 are a series each; the
        // one NVFP4 run on GB300 joins neither.
        let mut checks: Vec<Check> = runs()
            .iter()
            .filter(|r| r.name.starts_with("MLPerf Llama 3.1 405B"))
            .map(check)
            .collect();
        assert_eq!(checks.len(), 5);
        assert_eq!(series(&checks).len(), 2);
        let i = checks
            .iter()
            .position(|c| c.run.name.contains("5120"))
            .unwrap();
        checks[i].model = None;
        let s = series(&checks);
        let nvfp4 = s.iter().find(|s| s.gpus == (2560, 5120)).unwrap();
        assert!(nvfp4.model.is_none() && !nvfp4.holds());
        assert!((nvfp4.published - (927.0 / 969.0 - 1.0)).abs() < 1e-12);
    }
}
