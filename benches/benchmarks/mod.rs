//! Bench modules, one per area.

#[cfg(feature = "atari")]
pub mod atari;
pub mod conncomp;
pub mod model;
pub mod nn;
pub mod synthetic;
