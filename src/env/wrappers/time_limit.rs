//! [`TimeLimit`]: truncate episodes after a number of steps (Gymnasium's `TimeLimit`).

use ndarray::ArrayViewMut3;

use super::needs_reset_error;
use crate::env::{Env, Info, ResetOptions, Transition};
use crate::error::{Error, Result};

/// Sets `truncated` once an episode has lasted `max_steps` steps (unless it terminated).
pub struct TimeLimit<E: Env> {
    env: E,
    max_steps: u64,
    elapsed: u64,
    needs_reset: bool,
}

impl<E: Env> TimeLimit<E> {
    /// Wrap `env`, truncating after `max_steps ≥ 1` steps.
    pub fn new(env: E, max_steps: u64) -> Result<Self> {
        if max_steps == 0 {
            return Err(Error::Invalid(format!(
                "TimeLimit on `{}`: max_steps must be at least 1",
                env.id()
            )));
        }
        Ok(TimeLimit {
            env,
            max_steps,
            elapsed: 0,
            needs_reset: true,
        })
    }

    /// Steps taken in the current episode.
    pub fn elapsed_steps(&self) -> u64 {
        self.elapsed
    }

    inner_accessors!();
}

impl<E: Env> Env for TimeLimit<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        let info = self.env.reset_into(seed, options, obs)?;
        self.elapsed = 0;
        self.needs_reset = false;
        Ok(info)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        if self.needs_reset {
            return Err(needs_reset_error(self.env.id()));
        }
        let mut t = self.env.step_into(action, obs)?;
        self.elapsed += 1;
        if self.elapsed >= self.max_steps {
            t.truncated = true;
        }
        self.needs_reset = t.terminated || t.truncated;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    #[test]
    fn truncates_at_limit_and_requires_reset() {
        let mut env = TimeLimit::new(Fake::new(2, 2, 1, 100), 3).unwrap();
        env.reset(Some(0), &ResetOptions::default()).unwrap();
        assert!(!env.step(1).unwrap().truncated);
        assert!(!env.step(1).unwrap().truncated);
        let last = env.step(1).unwrap();
        assert!(last.truncated && !last.terminated);
        assert!(matches!(env.step(1), Err(Error::NeedsReset { .. })));
        env.reset(None, &ResetOptions::default()).unwrap();
        assert_eq!(env.elapsed_steps(), 0);
        assert!(!env.step(1).unwrap().truncated);
    }

    #[test]
    fn termination_wins_over_nothing_and_keeps_flags() {
        let mut env = TimeLimit::new(Fake::new(2, 2, 1, 2), 2).unwrap();
        env.reset(Some(0), &ResetOptions::default()).unwrap();
        env.step(0).unwrap();
        let s = env.step(0).unwrap();
        // Gymnasium sets truncated whenever the limit is reached, even on a terminal step.
        assert!(s.terminated && s.truncated);
    }
}
