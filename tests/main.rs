//! All integration tests compile into this one binary (saves link time on CI).

#[cfg(feature = "atari")]
mod atari_env;
mod cli;
mod device;
mod distributed;
mod eval_conncomp;
mod eval_golden;
mod fast_backprop;
mod layers;
mod model_config;
mod model_forward;
mod model_gradients;
mod model_train;
mod model_util;
mod mota_validation;
mod pretrain;
mod shipped_models;
mod streams;
mod synthetic_data;
mod synthetic_env;
mod synthetic_gt;
mod vector_env;
mod wrapper;
