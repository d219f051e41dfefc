//! A tiny deterministic env for the wrappers' unit tests.

use ndarray::ArrayViewMut3;

use super::{check_obs_shape, needs_reset_error};
use crate::env::{Env, Frame, Info, ResetOptions, Space, Transition};
use crate::error::{Error, Result};

/// Deterministic counter env: 4 actions, reward `action - 1`, terminates after `term_at` steps,
/// loses a life every `life_every` steps (3 lives). Pixel `(y, x, c)` at step `t` is
/// `base + 3t + y + x + c + 1` where `y + x + c + t` is even, else 0 (flickers, so a max over
/// two frames differs from both).
pub struct Fake {
    pub space: Space,
    pub term_at: u32,
    pub life_every: u32,
    pub t: u32,
    pub base: u8,
    pub started: bool,
    pub done: bool,
    /// Every action stepped, in order.
    pub actions: Vec<usize>,
    /// Number of resets and the seeds they got.
    pub resets: Vec<Option<u64>>,
    /// Steps taken through [`Env::step_unobserved`].
    pub unobserved: u32,
}

impl Fake {
    pub fn new(h: usize, w: usize, c: usize, term_at: u32) -> Self {
        Fake {
            space: Space::image(h, w, c),
            term_at,
            life_every: u32::MAX,
            t: 0,
            base: 0,
            started: false,
            done: false,
            actions: Vec::new(),
            resets: Vec::new(),
            unobserved: 0,
        }
    }

    /// The frame the env shows at step `t` with `base`.
    pub fn frame_at(&self, t: u32) -> Frame {
        let [h, w, c] = self.space.shape().unwrap();
        Frame::from_shape_fn((h, w, c), |(y, x, k)| {
            let s = (y + x + k) as u32;
            if (s + t) % 2 == 0 {
                (self.base as u32 + 3 * t + s + 1) as u8
            } else {
                0
            }
        })
    }

    fn info(&self) -> Info {
        Info {
            lives: Some(3 - (self.t / self.life_every).min(3) as i32),
            episode_frame_number: Some(self.t as u64),
            ..Default::default()
        }
    }
}

impl Env for Fake {
    fn id(&self) -> &str {
        "fake"
    }
    fn observation_space(&self) -> &Space {
        &self.space
    }
    fn action_space(&self) -> &Space {
        &Space::Discrete { n: 4 }
    }
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        _options: &ResetOptions,
        mut obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        check_obs_shape("fake", &self.space, &obs)?;
        if let Some(s) = seed {
            self.base = (s % 97) as u8;
        }
        self.resets.push(seed);
        self.t = 0;
        self.started = true;
        self.done = false;
        obs.assign(&self.frame_at(0));
        Ok(self.info())
    }
    fn step_into(&mut self, action: usize, mut obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        let t = self.act(action)?;
        obs.assign(&self.frame_at(self.t));
        Ok(t)
    }
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        self.unobserved += 1;
        self.act(action)
    }
    fn render(&self) -> Option<Frame> {
        Some(self.frame_at(self.t))
    }
}

impl Fake {
    /// One step without writing the observation.
    fn act(&mut self, action: usize) -> Result<Transition> {
        if !self.started || self.done {
            return Err(needs_reset_error("fake"));
        }
        if action >= 4 {
            return Err(Error::InvalidAction {
                env: "fake".into(),
                action,
                n: 4,
            });
        }
        self.actions.push(action);
        self.t += 1;
        self.done = self.t >= self.term_at;
        Ok(Transition {
            reward: action as f32 - 1.0,
            terminated: self.done,
            truncated: false,
            info: self.info(),
        })
    }
}
