//! The object-centric wrapper: each observation of a pixel env passes through a trained SILOT
//! encoder and comes out as a fixed-`K` object set — presence, box, depth, appearance code and a
//! persistent identity per slot — for agents.
//!
//! * [`ObjectEncoder`]: the trained model run online over `B` frame streams (batched on the
//!   model's device), carrying each stream's objects from frame to frame.
//! * [`ObjectCentricEnv`] / [`ObjectCentricVecEnv`]: an [`crate::env::Env`] /
//!   [`crate::env::vector::VectorEnv`] whose `reset` / `step` return [`ObjectBatch`]es; episode
//!   starts (resets and autoresets) restart the encoder for that env only.
//! * [`GroupedObjectCentricVecEnv`]: the vector env in groups, stepped and encoded in a
//!   pipeline (one group's envs step while another group's frames are encoded; EnvPool-style
//!   `send` / `recv` per group).
//! * [`ObjectBatch::features`]: the `(B, K, 6 + A)` array an agent's network takes.
//! * [`ObjectCentricEnv`] implements `gymnasium_rs::core::Env<Array2<f32>, usize>` (observation:
//!   the `(K, 6 + A)` features; info: the env's plus `object_ids`; `gymnasium` feature).

mod encoder;
mod env;
mod grouped;
#[cfg(feature = "gymnasium")]
mod gym;
mod objects;

pub use encoder::ObjectEncoder;
pub use env::{ObjectCentricEnv, ObjectCentricVecEnv, ObjectStep};
pub use grouped::{default_group_count, GroupedObjectCentricVecEnv};
pub use objects::{Object, ObjectBatch, FIXED_FEATURES};
