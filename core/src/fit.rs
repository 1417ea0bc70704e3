//! Fitting the constants that published runs set: the GEMM efficiency of
//! each GPU generation and the overlap share of the stacks that overlap
//! their data-parallel traffic, by least squares on the logarithm of
//! model over published (a relative error, symmetric in over and under),
//! each bounded to a physical range. A fit is judged on data it did not
//! see: [`leave_one_source_out`] predicts each source with constants
//! fitted on the others.

use crate::scenario::Config;
use crate::stack::{Stack, StackId};
use crate::validation::{check, Check, Errors, Row, Run, ROWS, SOURCES};
use alloc::vec::Vec;
use serde::Serialize;

/// Fitted constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Fitted {
    /// GEMM efficiency of A100 (40 and 80 GB).
    pub gemm_a100: f64,
    /// GEMM efficiency of H100.
    pub gemm_h100: f64,
    /// Overlap share of the Megatron, llm-foundry and torchtitan stacks.
    pub overlap_share: f64,
}

/// Physical ranges: a GEMM between half and 95% of peak; data-parallel
/// traffic under compute between a tenth of the NVLink bus rate and all of it.
const BOUNDS: [(f64, f64); 3] = [(0.5, 0.95), (0.5, 0.95), (0.1, 1.0)];

impl Fitted {
    /// The constants the model ships with.
    #[must_use]
    pub fn shipped() -> Self {
        Self {
            gemm_a100: crate::calibration::GEMM_EFFICIENCY_A100,
            gemm_h100: crate::calibration::GEMM_EFFICIENCY_H100,
            overlap_share: crate::calibration::TUNED_OVERLAP_SHARE,
        }
    }

    /// The constants in the order of [`BOUNDS`].
    fn from_slice(x: &[f64]) -> Self {
        let s = Self::shipped();
        Self {
            gemm_a100: x.first().copied().unwrap_or(s.gemm_a100),
            gemm_h100: x.get(1).copied().unwrap_or(s.gemm_h100),
            overlap_share: x.get(2).copied().unwrap_or(s.overlap_share),
        }
    }

    /// `row`'s configuration with these constants.
    #[must_use]
    pub fn config(&self, row: &Row) -> Config {
        let mut stack = Stack::of(row.stack);
        if row.stack != StackId::Paper {
            stack.dp_overlap_share = self.overlap_share;
        }
        let mut cfg = row.config(stack);
        let gpu = &mut cfg.cluster.gpu;
        if gpu.id.starts_with("a100") {
            gpu.gemm_efficiency = self.gemm_a100;
        } else if gpu.id.starts_with("h100") {
            gpu.gemm_efficiency = self.gemm_h100;
        }
        cfg
    }

    /// `row` checked with these constants.
    #[must_use]
    pub fn check(&self, row: &Row) -> Check {
        let mut run: Run = row.run();
        run.config = self.config(row);
        check(&run)
    }
}

/// Mean squared log error of `rows` under `f` (a run that fits nowhere
/// counts as a factor of e off).
fn loss(f: &Fitted, rows: &[&Row]) -> f64 {
    let total: f64 = rows
        .iter()
        .map(|r| {
            let c = f.check(r);
            c.model.map_or(1.0, |m| {
                let e = crate::math::ln(m.max(1e-12) / c.run.published);
                e * e
            })
        })
        .sum();
    total / rows.len().max(1) as f64
}

/// The constants that best fit `rows`, by [`coordinate_search`] from the
/// shipped constants: three rounds, 18 golden-section steps each.
#[must_use]
pub fn fit_rows(rows: &[&Row]) -> Fitted {
    let f = Fitted::shipped();
    let mut x = [f.gemm_a100, f.gemm_h100, f.overlap_share];
    coordinate_search(&mut x, &BOUNDS, 3, 18, |x| {
        loss(&Fitted::from_slice(x), rows)
    });
    Fitted::from_slice(&x)
}

/// Bounded minimisation of `loss` by coordinate descent: `rounds` times
/// over, each coordinate searched within its `bounds` by `steps` golden-section
/// steps with the others held, and its new value kept only where it lowers
/// the loss. Robust where the loss has kinks (an overlap that becomes
/// hidden, a tuned choice that changes); slow where coordinates trade off
/// against each other. Returns the loss at `x`.
pub(crate) fn coordinate_search(
    x: &mut [f64],
    bounds: &[(f64, f64)],
    rounds: usize,
    steps: usize,
    mut loss: impl FnMut(&[f64]) -> f64,
) -> f64 {
    let phi = (crate::math::sqrt(5.0) - 1.0) / 2.0;
    let mut best = loss(x);
    for _round in 0..rounds {
        for (i, &(lo, hi)) in bounds.iter().enumerate().take(x.len()) {
            let mut at = |x: &mut [f64], v: f64| {
                let old = x[i];
                x[i] = v;
                let l = loss(x);
                x[i] = old;
                l
            };
            let (mut a, mut b) = (lo, hi);
            let mut c = b - phi * (b - a);
            let mut d = a + phi * (b - a);
            let (mut fc, mut fd) = (at(x, c), at(x, d));
            for _ in 0..steps {
                if fc < fd {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - phi * (b - a);
                    fc = at(x, c);
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + phi * (b - a);
                    fd = at(x, d);
                }
            }
            let v = (a + b) / 2.0;
            let l = at(x, v);
            if l < best {
                x[i] = v;
                best = l;
            }
        }
    }
    best
}

/// The constants fitted on every published run.
#[must_use]
pub fn fit() -> Fitted {
    let rows: Vec<&Row> = ROWS.iter().collect();
    fit_rows(&rows)
}

/// For each source, its runs predicted with constants fitted on every
/// other source's runs: the source's key, the constants, and its errors.
#[must_use]
pub fn leave_one_source_out() -> Vec<(&'static str, Fitted, Errors)> {
    (0..SOURCES.len())
        .map(|s| {
            let others: Vec<&Row> = ROWS.iter().filter(|r| r.source != s).collect();
            let f = fit_rows(&others);
            let checks: Vec<Check> = ROWS
                .iter()
                .filter(|r| r.source == s)
                .map(|r| f.check(r))
                .collect();
            (SOURCES[s].key, f, Errors::of(&checks, |_| true))
        })
        .collect()
}
