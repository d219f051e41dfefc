//! [`EpisodicLife`]: a lost life ends the episode for the agent; the game only resets on game
//! over (DQN's training trick, OpenAI baselines' `EpisodicLifeEnv`).

use ndarray::ArrayViewMut3;

use super::needs_reset_error;
use crate::env::{Env, Info, ResetOptions, Transition};
use crate::error::Result;

/// Reports `terminated` when `info.lives` drops (and stays above 0). `reset` then only steps a
/// NOOP to continue the same game; the inner env is really reset after a real end of episode
/// (game over or truncation), on the first reset, and on every seeded reset.
pub struct EpisodicLife<E: Env> {
    env: E,
    lives: i32,
    real_done: bool,
    needs_reset: bool,
}

impl<E: Env> EpisodicLife<E> {
    /// Wrap `env`; its infos must carry `lives` (envs without lives behave unchanged).
    pub fn new(env: E) -> Self {
        EpisodicLife {
            env,
            lives: 0,
            real_done: true,
            needs_reset: true,
        }
    }

    /// Whether the last episode end was a real one (game over or truncation).
    pub fn was_real_done(&self) -> bool {
        self.real_done
    }

    inner_accessors!();
}

impl<E: Env> Env for EpisodicLife<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        mut obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        let info = if self.real_done || seed.is_some() {
            self.env.reset_into(seed, options, obs)?
        } else {
            // Continue the game from the lost life with one no-op step.
            let t = self.env.step_into(0, obs.view_mut())?;
            if t.terminated || t.truncated {
                self.env.reset_into(None, options, obs)?
            } else {
                t.info
            }
        };
        self.lives = info.lives.unwrap_or(0);
        self.real_done = false;
        self.needs_reset = false;
        Ok(info)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        if self.needs_reset {
            return Err(needs_reset_error(self.env.id()));
        }
        let mut t = self.env.step_into(action, obs)?;
        self.real_done = t.terminated || t.truncated;
        if let Some(lives) = t.info.lives {
            if lives < self.lives && lives > 0 {
                t.terminated = true;
            }
            self.lives = lives;
        }
        self.needs_reset = t.terminated || t.truncated;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;
    use crate::error::Error;

    #[test]
    fn life_loss_terminates_without_resetting_the_game() {
        let mut fake = Fake::new(1, 1, 1, 100);
        fake.life_every = 3; // lives 3,3,3,2,2,2,1,1,1,0 at t = 0..=9
        let mut env = EpisodicLife::new(fake);
        env.reset(Some(1), &ResetOptions::default()).unwrap();
        let ends: Vec<bool> = (0..3).map(|_| env.step(1).unwrap().terminated).collect();
        assert_eq!(ends, vec![false, false, true]);
        assert!(!env.was_real_done());
        assert!(matches!(env.step(1), Err(Error::NeedsReset { .. })));
        let info = env.reset(None, &ResetOptions::default()).unwrap().1;
        // No real reset: one NOOP continued the game.
        assert_eq!(env.inner().resets.len(), 1);
        assert_eq!(info.episode_frame_number, Some(4));
        assert_eq!(*env.inner().actions.last().unwrap(), 0);
        // Lives 2 -> 1 at t = 6.
        assert!(!env.step(1).unwrap().terminated);
        assert!(env.step(1).unwrap().terminated);
        // Seeded resets are always real.
        env.reset(Some(2), &ResetOptions::default()).unwrap();
        assert_eq!(env.inner().resets.len(), 2);
    }

    #[test]
    fn game_over_is_a_real_done() {
        let mut env = EpisodicLife::new(Fake::new(1, 1, 1, 2));
        env.reset(Some(1), &ResetOptions::default()).unwrap();
        env.step(1).unwrap();
        assert!(env.step(1).unwrap().terminated);
        assert!(env.was_real_done());
        env.reset(None, &ResetOptions::default()).unwrap();
        assert_eq!(env.inner().resets.len(), 2);
    }
}
