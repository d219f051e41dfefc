//! [`MaxAndSkip`]: repeat an action `skip` times, sum the rewards and return the pixel-wise max
//! of the last two frames (DQN's flicker removal; Gymnasium's `MaxAndSkipObservation`).

use ndarray::{ArrayViewMut3, Zip};

use super::check_obs_shape;
use crate::env::{Env, Frame, Info, ResetOptions, Transition};
use crate::error::{Error, Result};

/// Repeats each action `skip` times (stopping at the end of the episode), sums rewards and
/// returns the element-wise max of the last two frames of the step.
///
/// Deviation from Gymnasium, on purpose: when the episode ends after fewer than two frames of a
/// step, Gymnasium returns the max of stale buffers from earlier steps; here the observation is
/// then the step's single (final) frame. With `skip ≥ 2` and no early end the results are equal.
/// Two internal frame buffers, no per-step allocation.
pub struct MaxAndSkip<E: Env> {
    env: E,
    skip: usize,
    frames: [Frame; 2],
}

impl<E: Env> MaxAndSkip<E> {
    /// Wrap `env`, repeating each action `skip ≥ 1` times.
    pub fn new(env: E, skip: usize) -> Result<Self> {
        if skip == 0 {
            return Err(Error::Invalid(format!(
                "MaxAndSkip on `{}`: skip must be at least 1",
                env.id()
            )));
        }
        let frames = [env.new_obs_buffer(), env.new_obs_buffer()];
        Ok(MaxAndSkip { env, skip, frames })
    }

    inner_accessors!();
}

impl<E: Env> Env for MaxAndSkip<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        self.env.reset_into(seed, options, obs)
    }
    fn step_into(&mut self, action: usize, mut obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        check_obs_shape(self.env.id(), self.env.observation_space(), &obs)?;
        let mut reward = 0.0f32;
        let mut last = Transition::default();
        let mut n = 0;
        while n < self.skip {
            // Frame i goes to buffer i % 2, so the last two frames are in the two buffers.
            last = self.env.step_into(action, self.frames[n % 2].view_mut())?;
            reward += last.reward;
            n += 1;
            if last.terminated || last.truncated {
                break;
            }
        }
        let [a, b] = &self.frames;
        if n == 1 {
            obs.assign(a);
        } else if let (Some(o), Some(a), Some(b)) = (obs.as_slice_mut(), a.as_slice(), b.as_slice())
        {
            for ((o, &a), &b) in o.iter_mut().zip(a).zip(b) {
                *o = a.max(b);
            }
        } else {
            Zip::from(&mut obs)
                .and(a)
                .and(b)
                .for_each(|o, &a, &b| *o = a.max(b));
        }
        last.reward = reward;
        Ok(last)
    }
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        let mut reward = 0.0f32;
        let mut last = Transition::default();
        for _ in 0..self.skip {
            last = self.env.step_unobserved(action)?;
            reward += last.reward;
            if last.terminated || last.truncated {
                break;
            }
        }
        last.reward = reward;
        Ok(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    #[test]
    fn sums_rewards_and_maxes_last_two_frames() {
        let mut env = MaxAndSkip::new(Fake::new(3, 4, 3, 100), 4).unwrap();
        env.reset(Some(5), &ResetOptions::default()).unwrap();
        let s = env.step(3).unwrap();
        assert_eq!(s.reward, 4.0 * 2.0);
        assert_eq!(env.inner().actions, vec![3; 4]);
        let fake = env.inner();
        let expect = Zip::from(&fake.frame_at(3))
            .and(&fake.frame_at(4))
            .map_collect(|&a, &b| a.max(b));
        assert_eq!(s.obs, expect);
        assert_ne!(s.obs, fake.frame_at(4), "max differs from the last frame");
        assert!(s.obs.iter().all(|&v| v > 0));
        assert_eq!(s.info.episode_frame_number, Some(4));
    }

    /// An unobserved step takes every frame unobserved and gives the observed step's transition.
    #[test]
    fn unobserved_steps_skip_every_frame() {
        let mut a = MaxAndSkip::new(Fake::new(2, 2, 1, 6), 4).unwrap();
        let mut b = MaxAndSkip::new(Fake::new(2, 2, 1, 6), 4).unwrap();
        a.reset(Some(0), &ResetOptions::default()).unwrap();
        b.reset(Some(0), &ResetOptions::default()).unwrap();
        for _ in 0..2 {
            let s = a.step(2).unwrap();
            let t = b.step_unobserved(2).unwrap();
            assert_eq!(
                (t.reward, t.terminated, t.info),
                (s.reward, s.terminated, s.info)
            );
        }
        assert_eq!(
            b.inner().unobserved,
            6,
            "all six frames unobserved, the end included"
        );
        assert_eq!(b.inner().actions, a.inner().actions);
    }

    #[test]
    fn stops_at_episode_end() {
        let mut env = MaxAndSkip::new(Fake::new(2, 2, 1, 6), 4).unwrap();
        env.reset(Some(0), &ResetOptions::default()).unwrap();
        assert!(!env.step(2).unwrap().terminated);
        let s = env.step(2).unwrap();
        assert!(s.terminated);
        assert_eq!(s.reward, 2.0, "two frames before the end");
        let fake = env.inner();
        let expect = Zip::from(&fake.frame_at(5))
            .and(&fake.frame_at(6))
            .map_collect(|&a, &b| a.max(b));
        assert_eq!(s.obs, expect);
        // An episode ending on the first frame of a step returns that frame alone.
        let mut env = MaxAndSkip::new(Fake::new(2, 2, 1, 5), 4).unwrap();
        env.reset(Some(0), &ResetOptions::default()).unwrap();
        env.step(0).unwrap();
        let s = env.step(0).unwrap();
        assert_eq!(s.obs, env.inner().frame_at(5));
    }
}
