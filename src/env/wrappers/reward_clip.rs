//! [`RewardClip`]: replace rewards by their sign (DQN's reward clipping).

use ndarray::ArrayViewMut3;

use crate::env::{Env, Info, ResetOptions, Transition};
use crate::error::Result;

/// Rewards become `-1`, `0` or `1` (the sign of the inner reward).
pub struct RewardClip<E: Env> {
    env: E,
}

impl<E: Env> RewardClip<E> {
    /// Wrap `env`.
    pub fn new(env: E) -> Self {
        RewardClip { env }
    }

    inner_accessors!();
}

/// Sign of `r` with `sign(0) = 0` (NaN maps to 0).
fn sign(r: f32) -> f32 {
    if r > 0.0 {
        1.0
    } else if r < 0.0 {
        -1.0
    } else {
        0.0
    }
}

impl<E: Env> Env for RewardClip<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        self.env.reset_into(seed, options, obs)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        let mut t = self.env.step_into(action, obs)?;
        t.reward = sign(t.reward);
        Ok(t)
    }
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        let mut t = self.env.step_unobserved(action)?;
        t.reward = sign(t.reward);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    #[test]
    fn rewards_become_signs() {
        let mut env = RewardClip::new(Fake::new(1, 1, 1, 10));
        env.reset(Some(1), &ResetOptions::default()).unwrap();
        let got: Vec<f32> = [0, 1, 2, 3]
            .iter()
            .map(|&a| env.step(a).unwrap().reward)
            .collect();
        assert_eq!(got, vec![-1.0, 0.0, 1.0, 1.0]);
        assert_eq!(sign(f32::NAN), 0.0);
        assert_eq!(env.step_unobserved(3).unwrap().reward, 1.0);
        assert_eq!(env.step_unobserved(0).unwrap().reward, -1.0);
        assert_eq!(env.inner().unobserved, 2);
    }
}
