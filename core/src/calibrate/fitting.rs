//! The fit of a calibration to measured runs: each run resolved once,
//! its log error under the free constants, the bounded least-squares
//! solution (the optimisers of [`crate::fit`]), and the report with its
//! warnings.

use super::{Calibration, Constant, Measured, MAX_RUNS, POOR_FIT};
use crate::error::Error;
use crate::evaluate::evaluate;
use crate::scenario::Config;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::Serialize;

/// Why runs cannot be fitted.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FitError {
    /// No runs were given.
    NoRuns,
    /// No constant was left free.
    NoFreeConstants,
    /// More free constants than runs: the fit would not be determined.
    TooFew {
        /// Free constants.
        free: usize,
        /// Runs.
        runs: usize,
    },
    /// More runs than [`MAX_RUNS`].
    TooMany {
        /// Runs given.
        runs: usize,
    },
    /// A constant was named free twice.
    Repeated(Constant),
    /// The starting calibration is out of range.
    Start(Error),
    /// A run cannot be fitted: its value is not a measurement, or its
    /// setting cannot run.
    Run {
        /// The run's position, from 1.
        run: usize,
        /// Why.
        message: String,
    },
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoRuns => f.write_str("no runs to fit: give at least one measured run"),
            Self::NoFreeConstants => f.write_str(
                "no constant to fit: free at least one of gemm, network, overlap, attention",
            ),
            Self::TooFew { free, runs } => write!(
                f,
                "{free} free constants need at least {free} runs, and there are {runs}: measure more runs or free fewer constants"
            ),
            Self::TooMany { runs } => write!(
                f,
                "{runs} runs: a fit takes at most {MAX_RUNS}"
            ),
            Self::Repeated(c) => write!(f, "`{}` is named free twice: name it once", c.short()),
            Self::Start(e) => write!(f, "starting calibration: {e}"),
            Self::Run { run, message } => write!(f, "run {run}: {message}"),
        }
    }
}

impl core::error::Error for FitError {}

/// One fitted constant beside its default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FittedConstant {
    /// Which constant.
    pub constant: Constant,
    /// The model's value for the first run's setting.
    pub default: f64,
    /// The fitted value.
    pub value: f64,
    /// Whether the fit stopped at a bound of [`Constant::bounds`].
    pub at_bound: bool,
}

/// One run's errors before and after the fit, as relative errors (model
/// over measured, less one: +0.05 is the model 5% above the measurement).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RunFit {
    /// The model's value with the defaults (the scenario as given).
    pub model_before: f64,
    /// The model's value with the fitted calibration.
    pub model_after: f64,
    /// Relative error with the defaults.
    pub before: f64,
    /// Relative error with the fitted calibration.
    pub after: f64,
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitReport {
    /// The starting calibration with the free constants fitted.
    pub calibration: Calibration,
    /// Each free constant, in the order given.
    pub fitted: Vec<FittedConstant>,
    /// Each run, in the order given.
    pub runs: Vec<RunFit>,
    /// Root mean square of the relative errors with the defaults.
    pub rms_before: f64,
    /// Root mean square of the relative errors after the fit.
    pub rms_after: f64,
    /// What to be wary of: a poor fit, a constant at a bound or that no
    /// run depends on, runs the model does not fit in memory.
    pub warnings: Vec<String>,
}

/// The runs of a fit, checked and resolved.
struct Problem<'a> {
    runs: &'a [Measured],
    bases: Vec<Config>,
    free: &'a [Constant],
    start: Calibration,
}

impl Problem<'_> {
    /// The calibration with the free constants at `x`.
    fn calibration(&self, x: &[f64]) -> Calibration {
        let mut cal = self.start;
        for (&c, &v) in self.free.iter().zip(x) {
            cal.set(c, Some(v));
        }
        cal
    }

    /// The model's value of run `i` under `cal` (the scenario as given when
    /// `None`); zero where it cannot run, which no bounded value causes.
    fn model(&self, i: usize, cal: Option<&Calibration>) -> f64 {
        let mut cfg = self.bases[i];
        if let Some(cal) = cal {
            cal.apply(&mut cfg);
        }
        evaluate(&cfg).map_or(0.0, |r| self.runs[i].metric.of(&r))
    }

    /// Each run's log error with the free constants at `x`, into `out`.
    fn residuals(&self, x: &[f64], out: &mut Vec<f64>) {
        let cal = self.calibration(x);
        out.clear();
        out.extend(
            (0..self.runs.len()).map(|i| log_error(self.model(i, Some(&cal)), self.runs[i].value)),
        );
    }
}

/// `ln(model / measured)`, bounded so that a run that cannot run (or a
/// model value of zero) counts as far off rather than infinitely.
fn log_error(model: f64, measured: f64) -> f64 {
    let e = crate::math::ln(model.max(1e-300) / measured.max(1e-300));
    if e.is_finite() {
        e.clamp(-20.0, 20.0)
    } else {
        20.0
    }
}

/// Relative error of `model` against `measured` (model over measured,
/// less one), finite for any input.
fn relative_error(model: f64, measured: f64) -> f64 {
    let e = model / measured.max(1e-300) - 1.0;
    if e.is_finite() {
        e
    } else {
        f64::MAX
    }
}

fn rms(errors: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = errors.fold((0.0, 0usize), |(s, n), e| (s + e * e, n + 1));
    let r = crate::math::sqrt(sum / n.max(1) as f64);
    if r.is_finite() {
        r
    } else {
        f64::MAX
    }
}

/// Fits the `free` constants to `runs`, starting from `start` (a free
/// constant `start` leaves unset starts at the first run's default; a
/// constant `start` sets and `free` does not name is held at its value).
///
/// The loss is the mean squared logarithm of model over measured; each
/// constant is kept within its [`Constant::bounds`].
///
/// # Errors
/// No runs, more than [`MAX_RUNS`], no free constant, one named twice,
/// more free constants than runs, a starting value out of range, or a run
/// whose value is not a measurement or whose setting cannot run.
pub fn fit(
    runs: &[Measured],
    free: &[Constant],
    start: Calibration,
) -> Result<FitReport, FitError> {
    let problem = prepare(runs, free, start)?;
    let x0: Vec<f64> = free
        .iter()
        .map(|&c| {
            let (lo, hi) = c.bounds();
            start
                .get(c)
                .unwrap_or_else(|| c.default_for(&problem.bases[0]))
                .clamp(lo, hi)
        })
        .collect();
    let x = solve(&problem, x0);
    Ok(report(&problem, &x))
}

/// The runs checked and resolved, or why they cannot be fitted.
fn prepare<'a>(
    runs: &'a [Measured],
    free: &'a [Constant],
    start: Calibration,
) -> Result<Problem<'a>, FitError> {
    if runs.is_empty() {
        return Err(FitError::NoRuns);
    }
    if runs.len() > MAX_RUNS {
        return Err(FitError::TooMany { runs: runs.len() });
    }
    if free.is_empty() {
        return Err(FitError::NoFreeConstants);
    }
    if let Some(c) = (0..free.len()).find_map(|i| free[..i].contains(&free[i]).then_some(free[i])) {
        return Err(FitError::Repeated(c));
    }
    if free.len() > runs.len() {
        return Err(FitError::TooFew {
            free: free.len(),
            runs: runs.len(),
        });
    }
    start.check().map_err(FitError::Start)?;
    let bases = runs
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let refuse = |message| FitError::Run {
                run: i + 1,
                message,
            };
            if let Some(why) = m.metric.refuse(m.value) {
                return Err(refuse(why));
            }
            m.scenario.to_config().map_err(|e| refuse(e.to_string()))
        })
        .collect::<Result<Vec<Config>, FitError>>()?;
    Ok(Problem {
        runs,
        bases,
        free,
        start,
    })
}

/// The free constants that minimise the squared log errors, from `x`:
/// Levenberg-Marquardt steps, then a round of golden-section search on
/// each constant (which a kink, where an overlap becomes hidden, can
/// leave to improve), until neither gains.
fn solve(problem: &Problem<'_>, mut x: Vec<f64>) -> Vec<f64> {
    let bounds: Vec<(f64, f64)> = problem.free.iter().map(|c| c.bounds()).collect();
    let residuals = |x: &[f64], out: &mut Vec<f64>| problem.residuals(x, out);
    let mut r = Vec::new();
    let loss = |x: &[f64], r: &mut Vec<f64>| {
        problem.residuals(x, r);
        r.iter().map(|e| e * e).sum::<f64>()
    };
    for _ in 0..4 {
        let before = crate::fit::least_squares(&mut x, &bounds, 30, residuals);
        let after = crate::fit::coordinate_search(&mut x, &bounds, 1, 20, |x| loss(x, &mut r));
        if before - after <= 1e-12 * before {
            break;
        }
    }
    x
}

/// The fit's report at the fitted constants `x`.
fn report(problem: &Problem<'_>, x: &[f64]) -> FitReport {
    let cal = problem.calibration(x);
    let runs: Vec<RunFit> = problem
        .runs
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let before = problem.model(i, None);
            let after = problem.model(i, Some(&cal));
            RunFit {
                model_before: before,
                model_after: after,
                before: relative_error(before, m.value),
                after: relative_error(after, m.value),
            }
        })
        .collect();
    let fitted: Vec<FittedConstant> = problem
        .free
        .iter()
        .zip(x)
        .map(|(&c, &v)| FittedConstant {
            constant: c,
            default: c.default_for(&problem.bases[0]),
            value: v,
            at_bound: c.at_bound(v),
        })
        .collect();
    let rms_before = rms(runs.iter().map(|r| r.before));
    let rms_after = rms(runs.iter().map(|r| r.after));
    let warnings = warnings(problem, x, &fitted, rms_after);
    FitReport {
        calibration: cal,
        fitted,
        runs,
        rms_before,
        rms_after,
        warnings,
    }
}

/// What to be wary of in a fit.
fn warnings(
    problem: &Problem<'_>,
    x: &[f64],
    fitted: &[FittedConstant],
    rms_after: f64,
) -> Vec<String> {
    let mut out = Vec::new();
    if rms_after > POOR_FIT {
        out.push(format!(
            "poor fit: the runs are {:.1}% off rms after fitting (over {:.0}%); check each run's setting (stack, layout, precision), whether some were measured differently, or free more constants",
            rms_after * 100.0,
            POOR_FIT * 100.0
        ));
    }
    for (k, f) in fitted.iter().enumerate() {
        let name = f.constant.name();
        let (lo, hi) = f.constant.bounds();
        // How far the runs move between the constant's bounds, the others held.
        let mut ends = [x.to_vec(), x.to_vec()];
        ends[0][k] = lo;
        ends[1][k] = hi;
        let [at_lo, at_hi] = ends.map(|e| problem.calibration(&e));
        let moves = (0..problem.runs.len()).any(|i| {
            let d = log_error(problem.model(i, Some(&at_lo)), 1.0)
                - log_error(problem.model(i, Some(&at_hi)), 1.0);
            d.abs() > 1e-3
        });
        if !moves {
            out.push(format!(
                "no run depends on `{name}` (it changes none by 0.1% across its range): it is left at {:.3}; measure runs that exercise it or fix it",
                f.value
            ));
        } else if f.at_bound {
            out.push(format!(
                "`{name}` stopped at its bound ({:.3}, range {lo} to {hi}): the runs ask for more than the range allows, so something else is likely off",
                f.value
            ));
        }
    }
    for f in fitted {
        let defaults = problem.bases.iter().map(|cfg| f.constant.default_for(cfg));
        let (lo, hi) = defaults.fold((f64::MAX, f64::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)));
        if hi > lo {
            out.push(format!(
                "the runs' defaults of `{}` differ ({lo:.3} to {hi:.3}: other GPUs or stacks) and they share one fitted value: fit each kind apart",
                f.constant.name()
            ));
        }
    }
    let cal = problem.calibration(x);
    for (i, base) in problem.bases.iter().enumerate() {
        let mut cfg = *base;
        cal.apply(&mut cfg);
        if evaluate(&cfg).is_ok_and(|r| !r.fits) {
            out.push(format!(
                "run {}: the model does not fit it in memory; its numbers are kept",
                i + 1
            ));
        }
    }
    out
}
