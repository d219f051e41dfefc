//! The environment shell shared by the synthetic videos: episodes, seeding, stepping, drawing.
//!
//! A [`SceneSampler`] draws the objects of a new video (sprites, placement, velocities); the
//! [`VideoEnv`] around it plays the video one frame per step. `reset` returns frame 0 (the
//! objects at their initial positions); each `step` moves every object (bouncing) and returns
//! the next frame, so frame `t` is drawn before the `t`-th update as in the reference. The step
//! that returns frame `episode_length − 1` has `truncated = true`.

use ndarray::ArrayViewMut3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::env::{Env, Frame, GtObject, Info, ResetOptions, Space, Transition};
use crate::error::{Error, Result};

use super::motion::Body;
use super::render::{draw, gt_box, to_bytes, Extent, Sprite};

/// One object of a video: what is drawn, its ground-truth extent, and how it moves.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneObject {
    /// The sprite, already at the drawn size (`body.height × body.width`).
    pub sprite: Sprite,
    /// Non-zero extent of the un-resized base patch (for the ground-truth box).
    pub extent: Extent,
    /// Position, size and velocity.
    pub body: Body,
}

/// Draws the objects of a new video.
pub trait SceneSampler: Send {
    /// The env id, e.g. `scattered_mnist`.
    fn id(&self) -> &'static str;
    /// Frame size `(H, W)`.
    fn frame_size(&self) -> (usize, usize);
    /// Frames per episode (reset frame included).
    fn episode_length(&self) -> usize;
    /// The objects of a new video, in drawing order (index = id).
    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Result<Vec<SceneObject>>;
}

/// Where the current episode stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No reset yet.
    Fresh,
    /// Frame `t` of the episode is the current frame.
    Running(usize),
    /// The last frame was returned.
    Ended,
}

/// A synthetic video environment (see the module doc).
pub struct VideoEnv<S: SceneSampler> {
    sampler: S,
    observation_space: Space,
    action_space: Space,
    rng: Option<ChaCha8Rng>,
    objects: Vec<SceneObject>,
    phase: Phase,
    /// `(H, W, 3)` composition buffer in `[0, 255]`.
    canvas: Vec<f32>,
    /// The current frame.
    frame: Frame,
}

impl<S: SceneSampler> VideoEnv<S> {
    /// Wrap a sampler.
    pub fn from_sampler(sampler: S) -> Self {
        let (h, w) = sampler.frame_size();
        VideoEnv {
            sampler,
            observation_space: Space::rgb(h, w),
            action_space: Space::Discrete { n: 1 },
            rng: None,
            objects: Vec::new(),
            phase: Phase::Fresh,
            canvas: vec![0.0; h * w * 3],
            frame: Frame::zeros((h, w, 3)),
        }
    }

    /// The scene sampler.
    pub fn sampler(&self) -> &S {
        &self.sampler
    }

    /// The objects of the current video (empty before the first reset).
    pub fn objects(&self) -> &[SceneObject] {
        &self.objects
    }

    /// Index of the current frame in the episode (`None` before the first reset).
    pub fn frame_index(&self) -> Option<usize> {
        match self.phase {
            Phase::Fresh => None,
            Phase::Running(t) => Some(t),
            Phase::Ended => Some(self.sampler.episode_length() - 1),
        }
    }

    /// Ground truth of the current frame: one box per visible object, ids = object index.
    pub fn ground_truth(&self) -> Vec<GtObject> {
        let (h, w) = self.sampler.frame_size();
        self.objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| gt_box(i as u32, &o.extent, &o.body, h, w))
            .collect()
    }

    /// Draw the current positions into `self.frame` and copy them to `obs`.
    fn draw_into(&mut self, obs: ArrayViewMut3<'_, u8>) -> Result<Info> {
        let (h, w) = self.sampler.frame_size();
        if obs.shape() != [h, w, 3] {
            return Err(Error::Invalid(format!(
                "{}: observation buffer has shape {:?}, expected [{h}, {w}, 3]",
                self.sampler.id(),
                obs.shape()
            )));
        }
        self.canvas.fill(0.0);
        for o in &self.objects {
            draw(
                &mut self.canvas,
                h,
                w,
                &o.sprite,
                o.body.draw_top(),
                o.body.draw_left(),
            );
        }
        to_bytes(&self.canvas, self.frame.view_mut());
        let mut obs = obs;
        obs.assign(&self.frame);
        Ok(Info {
            objects: Some(self.ground_truth()),
            ..Info::default()
        })
    }

    fn needs_reset(&self, what: &str) -> Error {
        Error::NeedsReset {
            env: self.sampler.id().into(),
            what: what.into(),
        }
    }
}

impl<S: SceneSampler> Env for VideoEnv<S> {
    fn id(&self) -> &str {
        self.sampler.id()
    }

    fn observation_space(&self) -> &Space {
        &self.observation_space
    }

    fn action_space(&self) -> &Space {
        &self.action_space
    }

    fn reset_into(
        &mut self,
        seed: Option<u64>,
        _options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        let rng = match (seed, self.rng.take()) {
            (Some(s), _) => ChaCha8Rng::seed_from_u64(s),
            (None, Some(rng)) => rng,
            // Gymnasium: an unseeded first reset draws a seed from the OS.
            (None, None) => ChaCha8Rng::seed_from_u64(rand::random()),
        };
        let rng = self.rng.insert(rng);
        self.objects = self.sampler.sample(rng)?;
        self.phase = if self.sampler.episode_length() > 1 {
            Phase::Running(0)
        } else {
            Phase::Ended
        };
        self.draw_into(obs)
    }

    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        if action >= 1 {
            return Err(Error::InvalidAction {
                env: self.sampler.id().into(),
                action,
                n: 1,
            });
        }
        let t = match self.phase {
            Phase::Running(t) => t + 1,
            Phase::Fresh => {
                return Err(self.needs_reset("step called before reset; call reset first"))
            }
            Phase::Ended => {
                return Err(self.needs_reset(&format!(
                "the episode ended (truncated after {} frames); call reset before stepping again",
                self.sampler.episode_length()
            )))
            }
        };
        let (h, w) = self.sampler.frame_size();
        for o in &mut self.objects {
            o.body.advance(h, w);
        }
        let truncated = t + 1 >= self.sampler.episode_length();
        let info = self.draw_into(obs)?;
        self.phase = if truncated {
            Phase::Ended
        } else {
            Phase::Running(t)
        };
        Ok(Transition {
            reward: 0.0,
            terminated: false,
            truncated,
            info,
        })
    }

    fn render(&self) -> Option<Frame> {
        match self.phase {
            Phase::Fresh => None,
            _ => Some(self.frame.clone()),
        }
    }
}
