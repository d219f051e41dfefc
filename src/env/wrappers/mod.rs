//! Gymnasium-style wrappers: generic structs `W<E: Env>` that implement
//! [`Env`](crate::env::Env) by delegating to the env they wrap (reach it with `inner()` /
//! `inner_mut()` / `into_inner()`).
//!
//! Observation-changing wrappers keep their own buffers for the inner observation, so no wrapper
//! allocates per step.

/// Inside `impl<E: Env> W<E>` of a wrapper whose inner env is the field `env`: the accessors
/// `inner()`, `inner_mut()` and `into_inner()`.
macro_rules! inner_accessors {
    () => {
        /// The wrapped env.
        pub fn inner(&self) -> &E {
            &self.env
        }

        /// The wrapped env, mutably.
        pub fn inner_mut(&mut self) -> &mut E {
            &mut self.env
        }

        /// Unwrap.
        pub fn into_inner(self) -> E {
            self.env
        }
    };
}

/// Inside `impl Env for W<E>`: the listed methods (`id`, `observation_space`, `action_space`,
/// `render`) delegate unchanged to the wrapped env in field `env`.
macro_rules! delegate_env {
    ($($method:ident),* $(,)?) => {
        $(delegate_env!(@ $method);)*
    };
    (@ id) => {
        fn id(&self) -> &str {
            self.env.id()
        }
    };
    (@ observation_space) => {
        fn observation_space(&self) -> &crate::env::Space {
            self.env.observation_space()
        }
    };
    (@ action_space) => {
        fn action_space(&self) -> &crate::env::Space {
            self.env.action_space()
        }
    };
    (@ render) => {
        fn render(&self) -> Option<crate::env::Frame> {
            self.env.render()
        }
    };
}

mod episodic_life;
mod fire_reset;
mod frame_stack;
mod max_and_skip;
mod noop_reset;
mod observation;
mod reward_clip;
mod time_limit;

#[cfg(test)]
pub(crate) mod testing;

pub use episodic_life::EpisodicLife;
pub use fire_reset::FireReset;
pub use frame_stack::FrameStack;
pub use max_and_skip::MaxAndSkip;
pub use noop_reset::NoopReset;
pub use observation::{Crop, ResizeGrayscale, ResizeMethod};
pub use reward_clip::RewardClip;
pub use time_limit::TimeLimit;

use ndarray::ArrayViewMut3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Space;
use crate::error::{Error, Result};
use crate::seed::sub_seed;

/// Check that a caller's observation buffer has the shape of `space`.
pub fn check_obs_shape(env: &str, space: &Space, obs: &ArrayViewMut3<'_, u8>) -> Result<()> {
    match space.shape() {
        Some(shape) if obs.shape() == shape.as_slice() => Ok(()),
        Some(shape) => Err(Error::Invalid(format!(
            "env `{env}`: observation buffer has shape {:?}, the observation space needs \
             {shape:?}; allocate it with `new_obs_buffer()`",
            obs.shape()
        ))),
        None => Err(Error::Invalid(format!(
            "env `{env}`: observation space {space:?} is not an image box"
        ))),
    }
}

/// The error for a step before the first reset or after the episode ended.
pub fn needs_reset_error(env: &str) -> Error {
    Error::NeedsReset {
        env: env.to_string(),
        what: "step() called before reset() or after the episode ended (terminated or \
               truncated); call reset() first"
            .into(),
    }
}

/// A wrapper's RNG under Gymnasium's seeding rule: `Some(seed)` reseeds it (from
/// `sub_seed(seed, salt)`); `None` keeps the stream, or seeds from OS entropy if it was never
/// seeded.
pub(crate) fn reseed(
    rng: &mut Option<ChaCha8Rng>,
    seed: Option<u64>,
    salt: u64,
) -> &mut ChaCha8Rng {
    match seed {
        Some(s) => rng.insert(ChaCha8Rng::seed_from_u64(sub_seed(s, salt))),
        None => rng.get_or_insert_with(ChaCha8Rng::from_entropy),
    }
}
