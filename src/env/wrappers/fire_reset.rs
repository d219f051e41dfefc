//! [`FireReset`]: press FIRE after reset, for games that wait for it (OpenAI baselines'
//! `FireResetEnv`).

use ndarray::ArrayViewMut3;

use crate::env::{Env, Info, ResetOptions, Transition};
use crate::error::{Error, Result};

/// After the inner reset, steps action 1 (FIRE) then action 2, resetting again (unseeded) if
/// either ends the episode. The env must have at least 3 actions with FIRE at index 1
/// ([`make_atari`](crate::env::atari::make_atari) checks the action meanings).
pub struct FireReset<E: Env> {
    env: E,
}

impl<E: Env> FireReset<E> {
    /// Wrap `env`.
    pub fn new(env: E) -> Self {
        FireReset { env }
    }

    inner_accessors!();
}

impl<E: Env> Env for FireReset<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        mut obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        let n = self.env.action_space().n().unwrap_or(0);
        if n < 3 {
            return Err(Error::Invalid(format!(
                "FireReset on `{}`: needs at least 3 actions (FIRE = 1), the env has {n}",
                self.env.id()
            )));
        }
        let mut info = self.env.reset_into(seed, options, obs.view_mut())?;
        for action in [1, 2] {
            let t = self.env.step_into(action, obs.view_mut())?;
            info = t.info;
            if t.terminated || t.truncated {
                info = self.env.reset_into(None, options, obs.view_mut())?;
            }
        }
        Ok(info)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        self.env.step_into(action, obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    #[test]
    fn presses_fire_then_two_after_reset() {
        let mut env = FireReset::new(Fake::new(2, 2, 1, 100));
        let (obs, info) = env.reset(Some(4), &ResetOptions::default()).unwrap();
        assert_eq!(env.inner().actions, vec![1, 2]);
        assert_eq!(obs, env.inner().frame_at(2));
        assert_eq!(info.episode_frame_number, Some(2));
        // A game that ends on FIRE is reset again.
        let mut env = FireReset::new(Fake::new(2, 2, 1, 1));
        env.reset(Some(4), &ResetOptions::default()).unwrap();
        assert_eq!(env.inner().resets, vec![Some(4), None, None]);
        assert!(!env.inner().done);
    }
}
