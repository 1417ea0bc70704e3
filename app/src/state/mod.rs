//! The explorer's state: what the controls hold ([`Controls`]) and what the
//! charts draw ([`Views`]), computed from the controls by the core. Nothing
//! here touches the browser, so it is tested natively.
//!
//! The files, each re-exported here so that every path is `state::X`:
//! `controls` (the panel's fields, their defaults and limits), `count`
//! (reading a typed count), `evaluate` (one point, or why there is none),
//! `views` (every view, the sweep and the GPU generations), `grid` (the
//! TP x PP grid), `collectives` (bus bandwidth against nodes) and `memory`
//! (memory per GPU against the FSDP group) and `plan` (what training on a
//! token budget costs at each size of the sweep).

mod calibrate;
mod collectives;
mod controls;
mod count;
mod evaluate;
mod grid;
mod memory;
mod plan;
mod views;

pub use calibrate::{fit_csv, FREE_BY_DEFAULT};
pub use collectives::{BusBandwidth, COLLECTIVE_MESSAGE};
pub use controls::{
    custom_max, gpu_of, model_of, nvlink_domain_of, own_model_of, Controls, Overrides, Pin,
    Routing, Scaling, DEGREES, EXPERT_DEGREES, MAX_NODES, MAX_PINS, MAX_PIN_NAME, MAX_WHAT_IF,
    SEQ_RANGE, SLIDER_MAX_NODES,
};
pub use count::read_count;
pub use evaluate::{evaluate_at, Outcome};
pub use grid::{Cell, Grid};
pub use memory::MemoryPoint;
pub use plan::{plan_of, PlanInputs, PlanSize, PlanView};
pub use views::{compute, pinned_views, sweep_nodes, Generation, Pinned, Point, Views};
