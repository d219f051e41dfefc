//! [`NoopReset`]: a random number of no-op steps after each reset (Machado et al.'s "no-op
//! starts", OpenAI baselines' `NoopResetEnv`).

use ndarray::ArrayViewMut3;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::reseed;
use crate::env::{Env, Info, ResetOptions, Transition};
use crate::error::{Error, Result};

const NOOP_SALT: u64 = 0x4E00_0001;

/// After each reset, steps action 0 (NOOP) a uniform number of times in `1..=noop_max`; if the
/// episode ends during the no-ops, resets again (unseeded). The RNG is reseeded by
/// `reset(Some(seed))`.
pub struct NoopReset<E: Env> {
    env: E,
    noop_max: u32,
    noop_action: usize,
    rng: Option<ChaCha8Rng>,
}

impl<E: Env> NoopReset<E> {
    /// Wrap `env` with up to `noop_max ≥ 1` no-ops of action 0.
    pub fn new(env: E, noop_max: u32) -> Result<Self> {
        if noop_max == 0 {
            return Err(Error::Invalid(format!(
                "NoopReset on `{}`: noop_max must be at least 1 (leave the wrapper out for none)",
                env.id()
            )));
        }
        Ok(NoopReset {
            env,
            noop_max,
            noop_action: 0,
            rng: None,
        })
    }

    inner_accessors!();
}

impl<E: Env> Env for NoopReset<E> {
    delegate_env!(id, observation_space, action_space, render);
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        mut obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        let noops = reseed(&mut self.rng, seed, NOOP_SALT).gen_range(1..=self.noop_max);
        let mut info = self.env.reset_into(seed, options, obs.view_mut())?;
        for _ in 0..noops {
            let t = self.env.step_into(self.noop_action, obs.view_mut())?;
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
    fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
        self.env.step_unobserved(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    fn noops_after_reset(seed: Option<u64>, env: &mut NoopReset<Fake>) -> usize {
        let before = env.inner().actions.len();
        env.reset(seed, &ResetOptions::default()).unwrap();
        env.inner().actions.len() - before
    }

    #[test]
    fn noop_count_in_range_seeded_and_obs_matches() {
        let mut env = NoopReset::new(Fake::new(2, 2, 1, 1000), 5).unwrap();
        let mut counts = Vec::new();
        for seed in 0..40 {
            let n = noops_after_reset(Some(seed), &mut env);
            assert!((1..=5).contains(&n));
            assert!(env.inner().actions.iter().all(|&a| a == 0));
            let (obs, info) = env.reset(Some(seed), &ResetOptions::default()).unwrap();
            assert_eq!(obs, env.inner().frame_at(n as u32), "obs after {n} no-ops");
            assert_eq!(info.episode_frame_number, Some(n as u64));
            counts.push(n);
        }
        // Every count appears and the same seed gives the same count.
        for k in 1..=5 {
            assert!(counts.contains(&k));
        }
        let mut again = NoopReset::new(Fake::new(2, 2, 1, 1000), 5).unwrap();
        let seq: Vec<usize> = (0..5)
            .map(|i| noops_after_reset((i == 0).then_some(3), &mut again))
            .collect();
        let mut again2 = NoopReset::new(Fake::new(2, 2, 1, 1000), 5).unwrap();
        let seq2: Vec<usize> = (0..5)
            .map(|i| noops_after_reset((i == 0).then_some(3), &mut again2))
            .collect();
        assert_eq!(seq, seq2);
    }

    #[test]
    fn episode_ending_during_noops_resets_again() {
        let mut env = NoopReset::new(Fake::new(1, 1, 1, 1), 3).unwrap();
        for seed in 0..10 {
            env.reset(Some(seed), &ResetOptions::default()).unwrap();
            // Every no-op ends the 1-step episode, so the env is freshly reset afterwards.
            assert!(!env.inner().done);
            assert_eq!(env.inner().t, 0);
        }
    }
}
