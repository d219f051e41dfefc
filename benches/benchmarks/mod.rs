//! Bench groups.

#[cfg(feature = "atari")]
pub mod atari;
