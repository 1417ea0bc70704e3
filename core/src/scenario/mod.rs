//! The scenario: what is trained, on what, and how. [`Scenario`] is the
//! serde document of the public file format; [`Config`] is its checked,
//! `Copy` form that evaluation runs on ("check, then compute").
//!
//! The file's types are in `file.rs`, their resolution into a [`Config`] in
//! `resolve.rs`, the configuration and what follows from it in `config.rs`,
//! and its checks in `check.rs`.

mod check;
mod config;
mod file;
mod modules;
mod resolve;
#[cfg(test)]
mod tests;

pub use config::{Config, Layout};
pub use file::{
    DataParallel, HardwareSpec, ModelSpec, Named, Parallel, Precision, Recompute, Scenario,
    Schedule,
};
pub use modules::{Module, Modules};
pub(crate) use resolve::choose_chunks;

/// Largest accepted values: far beyond any real run, small enough that no
/// product of them overflows or loses meaning.
pub mod limits {
    /// GPUs in the cluster (nodes times GPUs per node): the node limit is
    /// this over the GPUs per node.
    pub const GPUS: u32 = 1 << 20;
    /// GPUs per node.
    pub const GPUS_PER_NODE: u32 = 1024;
    /// Context length.
    pub const SEQ_LEN: u32 = 1 << 24;
    /// Global batch in sequences.
    pub const GLOBAL_BATCH: u32 = 1 << 24;
    /// Any parallel degree.
    pub const DEGREE: u32 = 1 << 16;
    /// Any model dimension.
    pub const DIM: u32 = 1 << 20;
    /// Routed (or shared) experts of an MoE layer.
    pub const EXPERTS: u32 = 1 << 14;
    /// Largest capacity factor or load imbalance of an MoE layer.
    pub const EXPERT_LOAD: f64 = 64.0;
    /// Bandwidths, FLOP rates and capacities in their scenario units.
    pub const HARDWARE_VALUE: f64 = 1e7;
    /// Smallest accepted bandwidth, FLOP rate or capacity, in scenario
    /// units: far below any real part, far above where arithmetic on it
    /// loses precision.
    pub const HARDWARE_MIN: f64 = 1e-3;
    /// Passes (a micro-batch's forward or backward through one chunk of one
    /// stage) a pipeline's schedule may simulate: what bounds one
    /// evaluation's time and memory (`scalescope bench` reports the worst
    /// evaluation over extreme scenarios). However many micro-batches, a
    /// 16-stage pipeline of 8 chunks (Llama 3 405B) simulates at most
    /// 73,728; 64 stages of 2 chunks (a 1T GPT of 128 layers interleaved) 98,304.
    pub const SIMULATED_PASSES: u64 = 1 << 17;
}
