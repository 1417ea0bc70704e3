//! The ScaleScope explorer: controls, state and charts.
//!
//! [`state`] turns the controls into everything the page shows (pure Rust,
//! tested natively); [`charts`] draws it on any plotters backend; [`ui`]
//! is the Leptos page that wires the two to the DOM.

pub mod charts;
pub mod export;
pub mod format;
pub mod keys;
pub mod state;
pub mod tour;
pub mod ui;
pub mod url;

pub use ui::App;
