//! Benchmark modules, one per area.

pub mod nn;
pub mod model;
