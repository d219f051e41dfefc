//! # silot
//!
//! Object-centric RL environments: Gymnasium-style Atari (ALE) and the SILOT paper's synthetic
//! videos (Scattered MNIST, Scattered Shapes) with exact ground truth; the SILOT unsupervised
//! object-tracking VAE on candle; the wrapper that turns pixel observations into SILOT object
//! sets; ConnComp labelling and tracking metrics.
//!
//! Module map:
//! - [`env`](mod@env): the Gymnasium-style [`env::Env`] trait, Atari ([`env::atari`]), the synthetic
//!   videos ([`env::synthetic`]), wrappers, the vector env, the registry of ids, the env checker.
//! - [`data`]: clips and clip datasets (`silot rollout`).
//! - [`model`]: SILOT — discovery, propagation, the learned prior, selection, rendering, loss.
//! - [`nn`]: building blocks (MLP, GRU, backbone, glimpse sampler, sprite renderer, distributions).
//! - [`train`]: Adam, checkpoints, curriculum and early stopping, clip sources.
//! - [`wrapper`]: the object-centric wrapper — envs whose observations come out of a trained
//!   SILOT encoder as fixed-K object sets; [`models`]: the shipped encoders, found by name.
//! - [`track`], [`eval`], [`baseline`]: the tracker contract, tracking metrics, ConnComp (and its
//!   threshold search).
//! - [`streams`]: envs run for whole episodes through the wrapper, with ground truth (stream
//!   evaluation).
//! - [`viz`]: tracking pictures; [`config`]: experiment files; [`cli`]: the `silot` binary.

pub mod baseline;
pub mod checkpoint;
pub mod cli;
pub mod config;
pub mod data;
pub mod device;
pub mod env;
pub mod error;
pub mod eval;
pub mod eval_protocol;
pub mod model;
pub mod models;
pub mod nn;
pub mod profile;
pub mod rng;
pub mod seed;
pub mod streams;
pub mod testing;
pub mod track;
pub mod train;
pub mod trained;
pub mod util;
pub mod viz;
pub mod wrapper;

pub use error::{Error, Result};
