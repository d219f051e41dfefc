//! Neural-network primitives for SILOT on candle: MLPs, the Sonnet GRU, Glorot-initialised
//! convolutions, the receptive-field-centred backbone, the differentiable glimpse sampler and
//! sprite renderer (CPU custom ops with exact backward passes), distributions and the Gaussian
//! attention kernel.

pub mod backbone;
pub mod conv;
mod cpu;
pub mod dist;
pub mod gru;
pub mod kernel;
pub mod mlp;
pub mod render;
pub mod sampler;
