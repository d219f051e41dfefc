//! # silot
//!
//! Object-centric RL environments: Gymnasium-style Atari (ALE) and the SILOT paper's synthetic
//! videos (Scattered MNIST, Scattered Shapes) with exact ground truth; the SILOT unsupervised
//! object-tracking VAE on candle; the wrapper that turns pixel observations into SILOT object
//! sets; ConnComp labelling and tracking metrics.
//!
//! Module map, bottom to top (a module imports only modules below it; `tests/layers.rs` holds the
//! table and checks it):
//! - [`error`], [`util`], [`seed`] (every seed-derivation rule), [`rng`] (seeded tensors).
//! - [`env`](mod@env): the Gymnasium-style [`env::Env`] trait, Atari ([`env::atari`]), the synthetic
//!   videos ([`env::synthetic`]), wrappers, the vector env, the env spec ([`env::spec`]) and the
//!   registry of ids, the env checker. Knows nothing of experiments or models.
//! - [`nn`]: building blocks (MLP, GRU, backbone, glimpse sampler, sprite renderer, distributions);
//!   [`device`]: opening the CPU or a GPU.
//! - [`track`], [`data`], [`eval`], [`baseline`]: the tracker contract, clips and clip datasets
//!   (`silot rollout`), tracking metrics, ConnComp (and its threshold search).
//! - [`model`]: SILOT — discovery, propagation, the learned prior, selection, rendering, loss.
//! - [`checkpoint`]: the checkpoint format (atomic sets, the env record), for the trainer and the
//!   trained-model loaders alike.
//! - [`config`]: experiment files; [`trained`]: trained models from run directories and SILOT as a
//!   tracker; [`eval_protocol`]: the evaluation clips.
//! - [`wrapper`]: the object-centric wrapper — envs whose observations come out of a trained
//!   SILOT encoder as fixed-K object sets; [`models`]: the shipped encoders, found by name.
//! - [`streams`]: envs run for whole episodes through the wrapper, with ground truth (stream
//!   evaluation); [`viz`]: tracking pictures.
//! - [`train`]: Adam, curriculum and early stopping, clip sources, the training loop (its
//!   streams check runs the model through the wrapper); [`pretrain`]: training recipes run end to
//!   end (seeds, choices, phases, the product; `silot pretrain`); [`cli`]: the `silot` binary.

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
pub mod pretrain;
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
