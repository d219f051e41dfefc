//! Gymnasium-style environments: the [`Env`] trait, spaces, typed info, wrappers, the vector env
//! and the registry of env ids. Nothing in here depends on candle.
//!
//! Semantics follow Gymnasium exactly: `reset(Some(seed))` reseeds the env's RNG, `reset(None)`
//! continues it; `step` returns `(obs, reward, terminated, truncated, info)` as a [`Step`];
//! `terminated` is a true end of the MDP (game over), `truncated` a time limit.

#[cfg(feature = "atari")]
pub mod atari;
pub mod check;
#[cfg(feature = "gymnasium")]
pub mod gym_adapter;
pub mod registry;
pub mod space;
pub mod spec;
pub mod synthetic;
pub mod vector;
pub mod wrappers;

pub use space::Space;
pub use spec::EnvSpec;

use ndarray::{Array3, ArrayViewMut3};
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// The largest frame height or width an env config may ask for: larger frames are refused with
/// a config error instead of aborting on an allocation (Atari frames are 210×160).
pub const MAX_FRAME_SIDE: usize = 4096;

/// One observation: `(H, W, C)` bytes, HWC like Gymnasium and ALE (C = 3 for RGB).
pub type Frame = Array3<u8>;

/// A ground-truth object of a synthetic frame.
///
/// Boxes use the evaluation convention of the paper's code: pixel `k` has its centre at index
/// `k`, so an object covering rows `y0..=y1` has `top = y0 - 0.5`, `bottom = y1 + 0.5`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GtObject {
    /// Identity, stable for the object's lifetime within an episode.
    pub id: u32,
    /// Top edge in pixels.
    pub top: f32,
    /// Left edge in pixels.
    pub left: f32,
    /// Bottom edge in pixels.
    pub bottom: f32,
    /// Right edge in pixels.
    pub right: f32,
}

/// Typed step/reset information (Gymnasium's `info` dict, with ALE's keys).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Info {
    /// ALE: remaining lives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lives: Option<i32>,
    /// ALE: emulator frames since the start of this episode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub episode_frame_number: Option<u64>,
    /// ALE: emulator frames since the emulator was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_number: Option<u64>,
    /// Synthetic envs: the ground-truth objects of the returned frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objects: Option<Vec<GtObject>>,
}

/// Options for [`Env::reset`] (Gymnasium's `options`); empty for now, kept for API parity.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetOptions {}

/// Everything a step returns except the observation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transition {
    /// Reward of this step.
    pub reward: f32,
    /// The episode ended inside the MDP (game over).
    pub terminated: bool,
    /// The episode was cut by a time limit.
    pub truncated: bool,
    /// Typed info.
    pub info: Info,
}

/// Result of [`Env::step`]: `(obs, reward, terminated, truncated, info)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Observation after the step.
    pub obs: Frame,
    /// Reward of this step.
    pub reward: f32,
    /// The episode ended inside the MDP (game over).
    pub terminated: bool,
    /// The episode was cut by a time limit.
    pub truncated: bool,
    /// Typed info.
    pub info: Info,
}

/// A Gymnasium-style environment with image observations and discrete actions.
///
/// `reset_into`/`step_into` write the observation into a caller's buffer (no allocation; the
/// vector env uses them to fill its batch in place); `reset`/`step` allocate and return it.
pub trait Env: Send {
    /// The env id, e.g. `space_invaders`.
    fn id(&self) -> &str;
    /// Space of observations (an image box).
    fn observation_space(&self) -> &Space;
    /// Space of actions (`Discrete`).
    fn action_space(&self) -> &Space;
    /// Reset; `Some(seed)` reseeds, `None` continues the RNG. Writes the first observation.
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info>;
    /// Advance one step with `action`, writing the new observation into `obs`.
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition>;
    /// Advance one step with `action` when nobody looks at the observation (warm-ups, gaps
    /// between training clips): the same transition and later observations as
    /// [`Env::step_into`], without rendering this one where the env can skip it (the Atari env
    /// and its frame-skip, crop and reward wrappers do). The default steps into a scratch buffer.
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        let mut scratch = self.new_obs_buffer();
        self.step_into(action, scratch.view_mut())
    }
    /// The current frame as an RGB image (Gymnasium's `rgb_array` render mode).
    fn render(&self) -> Option<Frame>;

    /// Reset and return `(obs, info)`.
    fn reset(&mut self, seed: Option<u64>, options: &ResetOptions) -> Result<(Frame, Info)> {
        let mut obs = self.new_obs_buffer();
        let info = self.reset_into(seed, options, obs.view_mut())?;
        Ok((obs, info))
    }

    /// Step and return `(obs, reward, terminated, truncated, info)`.
    fn step(&mut self, action: usize) -> Result<Step> {
        let mut obs = self.new_obs_buffer();
        let t = self.step_into(action, obs.view_mut())?;
        Ok(Step {
            obs,
            reward: t.reward,
            terminated: t.terminated,
            truncated: t.truncated,
            info: t.info,
        })
    }

    /// A zeroed buffer shaped like one observation.
    fn new_obs_buffer(&self) -> Frame {
        let [h, w, c] = self.observation_space().shape().unwrap_or([0, 0, 0]);
        Frame::zeros((h, w, c))
    }
}

impl<E: Env + ?Sized> Env for Box<E> {
    fn id(&self) -> &str {
        (**self).id()
    }
    fn observation_space(&self) -> &Space {
        (**self).observation_space()
    }
    fn action_space(&self) -> &Space {
        (**self).action_space()
    }
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        (**self).reset_into(seed, options, obs)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        (**self).step_into(action, obs)
    }
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        (**self).step_unobserved(action)
    }
    fn render(&self) -> Option<Frame> {
        (**self).render()
    }
}
