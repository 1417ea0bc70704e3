//! One module per chart; each draws on any plotters backend.

pub mod allgather;
