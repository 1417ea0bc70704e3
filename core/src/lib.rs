//! ScaleScope core: an analytical model of one training step of a
//! decoder-only transformer on a GPU cluster.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod collective;
mod math;
pub mod units;
