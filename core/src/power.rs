//! Average GPU power over a step.
//!
//! A training GPU draws most of its power whether or not a compute kernel
//! is running: clocks stay up, NCCL kernels spin on SMs, HBM stays busy.
//! The paper measures this directly: per-GPU power falls only 5.87% (658 W
//! to 620 W) while per-GPU throughput falls 37.22%. The model is linear in
//! the share of the step in which compute kernels run.

use crate::calibration as cal;
use crate::hardware::Gpu;
use crate::units::Watts;

/// Average power of one GPU whose compute kernels run for
/// `compute_fraction` (0 to 1) of the step.
///
/// ```
/// use scalescope_core::{hardware::H100, power::per_gpu};
/// assert!(per_gpu(&H100, 1.0).0 > per_gpu(&H100, 0.5).0);
/// assert!(per_gpu(&H100, 1.0).0 <= 700.0);
/// ```
#[must_use]
pub fn per_gpu(gpu: &Gpu, compute_fraction: f64) -> Watts {
    let u = if compute_fraction.is_finite() {
        compute_fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let span = (gpu.tdp - gpu.idle).max(Watts(0.0));
    gpu.idle + span * (cal::POWER_FLOOR + cal::POWER_COMPUTE_SPAN * u)
}
