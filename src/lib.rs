//! # silot
//!
//! Object-centric RL environments: Gymnasium-style Atari (ALE) and the SILOT paper's synthetic
//! videos (Scattered MNIST, Scattered Shapes) with exact ground truth; the SILOT unsupervised
//! object-tracking VAE on candle; ConnComp labelling and tracking metrics.
//!
//! Module map: [`env`] (environments, wrappers, vector env, registry), [`error`].

pub mod baseline;
pub mod cli;
pub mod config;
pub mod data;
pub mod env;
pub mod error;
pub mod eval;
pub mod model;
pub mod nn;
pub mod rng;
pub mod testing;
pub mod track;
pub mod train;
pub mod util;
pub mod viz;

pub use error::{Error, Result};
