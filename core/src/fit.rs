//! Fitting the constants that published runs set: the GEMM efficiency of
//! each GPU generation and the overlap share of the stacks that overlap
//! their data-parallel traffic, by least squares on the logarithm of
//! model over published (a relative error, symmetric in over and under),
//! each bounded to a physical range. A fit is judged on data it did not
//! see: [`leave_one_source_out`] predicts each source with constants
//! fitted on the others.
//!
//! The two bounded optimisers here are shared with [`crate::calibrate`]:
//! [`coordinate_search`] (golden section on one constant at a time,
//! robust at kinks) and [`least_squares`] (Levenberg-Marquardt with
//! numeric derivatives, projected onto the bounds: a few evaluations per
//! step where constants trade off against each other).

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
        // A800 and H800 are A100's and H100's compute (their NVLink cut).
        if gpu.id.starts_with("a100") || gpu.id.starts_with("a800") {
            gpu.gemm_efficiency = self.gemm_a100;
        } else if gpu.id.starts_with("h100") || gpu.id.starts_with("h800") {
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

/// Bounded least squares: the `x` within `bounds` that minimises the sum
/// of squares of `residuals(x, out)` (which fills `out`, one entry per
/// observation), by Levenberg-Marquardt steps with forward-difference
/// derivatives, each step clamped to the bounds and a constant held where
/// it sits at a bound the step would cross. At most `steps` accepted
/// steps; stops early when a step gains less than a part in 10^12.
/// Returns the sum of squares at `x`.
pub(crate) fn least_squares(
    x: &mut [f64],
    bounds: &[(f64, f64)],
    steps: usize,
    mut residuals: impl FnMut(&[f64], &mut Vec<f64>),
) -> f64 {
    let k = x.len().min(bounds.len());
    let sum_sq = |r: &[f64]| r.iter().map(|e| e * e).sum::<f64>();
    let (mut r, mut trial) = (Vec::new(), Vec::new());
    residuals(x, &mut r);
    let mut loss = sum_sq(&r);
    let mut damping = 1e-3;
    let mut jacobian: Vec<Vec<f64>> = (0..k).map(|_| Vec::new()).collect();
    let mut xt = x.to_vec();
    for _step in 0..steps {
        for (j, column) in jacobian.iter_mut().enumerate() {
            let (lo, hi) = bounds[j];
            let h = 1e-6 * (hi - lo).max(1e-9);
            let h = if x[j] + h <= hi { h } else { -h };
            xt.copy_from_slice(x);
            xt[j] += h;
            residuals(&xt, column);
            for (c, e) in column.iter_mut().zip(&r) {
                *c = (*c - e) / h;
            }
        }
        // Normal equations: A = J'J, g = J'r.
        let mut a = [[0.0; 4]; 4];
        let mut g = [0.0; 4];
        for i in 0..k.min(4) {
            g[i] = jacobian[i].iter().zip(&r).map(|(j, e)| j * e).sum();
            for l in 0..k.min(4) {
                a[i][l] = jacobian[i]
                    .iter()
                    .zip(&jacobian[l])
                    .map(|(p, q)| p * q)
                    .sum();
            }
        }
        // A constant at a bound that descent would push past is held.
        let held: Vec<bool> = (0..k.min(4))
            .map(|i| {
                let (lo, hi) = bounds[i];
                (x[i] <= lo && g[i] > 0.0) || (x[i] >= hi && g[i] < 0.0)
            })
            .collect();
        let mut accepted = false;
        while damping < 1e12 {
            let d = damped_step(&a, &g, &held, damping);
            for i in 0..k {
                let (lo, hi) = bounds[i];
                xt[i] = (x[i] + d.get(i).copied().unwrap_or(0.0)).clamp(lo, hi);
            }
            residuals(&xt, &mut trial);
            let l = sum_sq(&trial);
            if l < loss {
                let gain = loss - l;
                x[..k].copy_from_slice(&xt[..k]);
                core::mem::swap(&mut r, &mut trial);
                loss = l;
                damping = (damping * 0.1).max(1e-12);
                accepted = gain > 1e-12 * loss && loss > 1e-24;
                break;
            }
            damping *= 10.0;
        }
        if !accepted {
            break;
        }
    }
    loss
}

/// The Levenberg-Marquardt step `-(A + damping diag(A))^-1 g` over the
/// constants not `held`, by Gaussian elimination with partial pivoting; a
/// constant with no pivot (no observation depends on it) does not move.
fn damped_step(a: &[[f64; 4]; 4], g: &[f64; 4], held: &[bool], damping: f64) -> [f64; 4] {
    let n = held.len().min(4);
    let mut m = [[0.0; 5]; 4];
    for i in 0..n {
        for l in 0..n {
            m[i][l] = if held[i] || held[l] { 0.0 } else { a[i][l] };
        }
        m[i][i] = if held[i] {
            1.0
        } else {
            a[i][i] * (1.0 + damping) + 1e-30
        };
        m[i][4] = if held[i] { 0.0 } else { -g[i] };
    }
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| m[p][col].abs().total_cmp(&m[q][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        let p = m[col][col];
        if p.abs() < 1e-300 || !p.is_finite() {
            continue;
        }
        let pivot_row = m[col];
        for (i, row) in m.iter_mut().enumerate().take(n) {
            if i != col {
                let f = row[col] / p;
                for (v, q) in row.iter_mut().zip(pivot_row).skip(col) {
                    *v -= f * q;
                }
            }
        }
    }
    let mut d = [0.0; 4];
    for i in 0..n {
        let p = m[i][i];
        let v = m[i][4] / p;
        d[i] = if p.abs() < 1e-300 || !v.is_finite() {
            0.0
        } else {
            v
        };
    }
    d
}

/// Whether `row`'s source is fitted on (not held out).
fn fitted_on(row: &Row) -> bool {
    !SOURCES[row.source].held_out
}

/// The constants fitted on every published run of the sources not held out.
#[must_use]
pub fn fit() -> Fitted {
    let rows: Vec<&Row> = ROWS.iter().filter(|r| fitted_on(r)).collect();
    fit_rows(&rows)
}

/// For each source, its runs predicted with constants fitted on every
/// other fitted source's runs: the source's key, the constants, and its
/// errors. A held-out source is predicted by the fit itself, which never
/// saw it: a held-out source leaves the fitted runs as they are, so every
/// held-out source shares that one fit. The fits are independent, and
/// with the standard library they run on every core the machine has.
#[must_use]
pub fn leave_one_source_out() -> Vec<(&'static str, Fitted, Errors)> {
    // The fits to make: every fitted source's left out, and the full one
    // (`None`) where a held-out source needs it.
    let own = |s: usize| ROWS.iter().any(|r| r.source == s && fitted_on(r));
    let mut jobs: Vec<Option<usize>> = (0..SOURCES.len()).filter(|&s| own(s)).map(Some).collect();
    if (0..SOURCES.len()).any(|s| !own(s)) {
        jobs.push(None);
    }
    let fits = run_all(&jobs, |job| {
        let rows: Vec<&Row> = ROWS
            .iter()
            .filter(|r| Some(r.source) != *job && fitted_on(r))
            .collect();
        fit_rows(&rows)
    });
    let fit_of = |job: Option<usize>| {
        jobs.iter()
            .position(|j| *j == job)
            .map_or_else(Fitted::shipped, |i| fits[i])
    };
    (0..SOURCES.len())
        .map(|s| {
            let f = fit_of(own(s).then_some(s));
            let checks: Vec<Check> = ROWS
                .iter()
                .filter(|r| r.source == s)
                .map(|r| f.check(r))
                .collect();
            (SOURCES[s].key, f, Errors::of(&checks, |_| true))
        })
        .collect()
}

/// `f` of every job, in order: on as many threads as the machine has cores
/// (the i-th thread takes every job whose index is i modulo the threads),
/// or in turn without the standard library.
fn run_all<J: Sync, T: Send>(jobs: &[J], f: impl Fn(&J) -> T + Sync) -> Vec<T> {
    #[cfg(feature = "std")]
    {
        let threads = std::thread::available_parallelism()
            .map_or(1, core::num::NonZeroUsize::get)
            .min(jobs.len());
        if threads > 1 {
            let f = &f;
            let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        scope.spawn(move || {
                            (t..jobs.len())
                                .step_by(threads)
                                .map(|i| (i, f(&jobs[i])))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap_or_default())
                    .collect()
            });
            done.sort_unstable_by_key(|(i, _)| *i);
            if done.len() == jobs.len() {
                return done.into_iter().map(|(_, t)| t).collect();
            }
        }
    }
    jobs.iter().map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Residuals whose unbounded least-squares solution, (2, 0.5), lies
    /// outside `x0 <= 1`: the bounded one is x0 = 1, x1 = 1 (the best x1
    /// with x0 held there).
    fn residuals(x: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend([x[0] - 2.0, x[1] - 0.5, x[0] + x[1] - 2.5]);
    }

    #[test]
    fn both_optimisers_find_the_bounded_least_squares_solution() {
        let bounds = [(0.0, 1.0), (0.0, 3.0)];
        let mut x = [0.2, 0.2];
        let loss = least_squares(&mut x, &bounds, 30, residuals);
        assert!(
            (x[0] - 1.0).abs() < 1e-9 && (x[1] - 1.0).abs() < 1e-6,
            "{x:?}"
        );
        assert!((loss - 1.5).abs() < 1e-9, "{loss}");
        let mut y = [0.2, 0.2];
        let mut r = Vec::new();
        coordinate_search(&mut y, &bounds, 12, 30, |y| {
            residuals(y, &mut r);
            r.iter().map(|e| e * e).sum()
        });
        assert!(
            (y[0] - 1.0).abs() < 1e-4 && (y[1] - 1.0).abs() < 1e-3,
            "{y:?}"
        );
    }
}
