//! # silot
//!
//! Object-centric RL environments: Gymnasium-style Atari (ALE) and the SILOT paper's synthetic
//! videos (Scattered MNIST, Scattered Shapes) with exact ground truth; the SILOT unsupervised
//! object-tracking VAE on candle; ConnComp labelling and tracking metrics.
//!
//! Module map: [`env`] (environments, wrappers, vector env, registry), [`error`].

pub mod env;
pub mod error;
pub mod nn;
pub mod model;
pub mod rng;
pub mod train;
pub mod util;

pub use error::{Error, Result};

