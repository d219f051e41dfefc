//! Bench modules, one per area.

pub mod conncomp;
pub mod synthetic;
