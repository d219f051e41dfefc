//! Bench modules, one per area.

pub mod synthetic;
