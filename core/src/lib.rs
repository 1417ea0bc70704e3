//! ScaleScope core: an analytical model of one training step of a
//! decoder-only transformer on a GPU cluster (V100, A100, H100 and
//! extrapolated H200/B200), reproducing the findings of "Hardware Scaling
//! Trends and Diminishing Returns in Large-Scale Distributed Training"
//! (Fernandez et al., arXiv 2411.13055).
//!
//! Three inputs, kept apart: the [`model`], the [`hardware`] and the
//! [`scenario`]'s layout. A scenario is checked once ([`scenario::Config::check`]);
//! evaluating a checked configuration cannot fail, panic or return a
//! non-finite number.
//!
//! ```
//! use scalescope_core::{evaluate::evaluate, scenario::Scenario};
//! let report = evaluate(&Scenario::example().to_config()?)?;
//! println!("{:.1}% MFU, {:.0} W per GPU", report.mfu * 100.0, report.power_w_per_gpu);
//! # Ok::<(), scalescope_core::error::Error>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod calibrate;
pub mod calibration;
pub mod collective;
mod data_parallel;
mod dispatch;
pub mod error;
pub mod evaluate;
mod experts;
pub mod findings;
pub mod fit;
pub mod hardware;
#[cfg(feature = "json")]
pub mod json;
mod math;
pub mod memory;
pub mod model;
mod phases;
mod pipeline;
pub mod plan;
pub mod power;
pub mod scenario;
pub mod search;
pub mod stack;
pub mod timeline;
pub mod units;
pub mod validation;
