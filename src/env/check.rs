//! [`check_env`]: a port of Gymnasium's `utils/env_checker.py`, turning the env contract into
//! executable checks. Tests run it on every env.

use crate::env::{Env, Frame, Info, ResetOptions};
use crate::error::{Error, Result};

/// What [`check_env_with`] checks beyond the contract every env must meet.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    /// Seed of the determinism checks.
    pub seed: u64,
    /// Steps taken after each reset in the determinism checks.
    pub n_steps: usize,
    /// Different seeds must give different first observations (true for envs whose reset is
    /// random, like the synthetic videos; false for deterministic resets).
    pub seeds_change_reset: bool,
    /// `reset(None)` continues the RNG, so it must differ from the previous seeded episode.
    pub unseeded_reset_differs: bool,
    /// `render()` must return a frame shaped like the observation.
    pub render_matches_obs: bool,
    /// Allow the first step to end the episode (set for episodes of one step).
    pub first_step_may_end: bool,
    /// Step until the episode ends (at most this many steps) and check that stepping again
    /// without reset is an error; 0 skips the check.
    pub max_episode_steps: usize,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            seed: 123,
            n_steps: 5,
            seeds_change_reset: true,
            unseeded_reset_differs: true,
            render_matches_obs: true,
            first_step_may_end: false,
            max_episode_steps: 10_000,
        }
    }
}

/// Run all checks with the default [`CheckOptions`] on a freshly constructed env.
pub fn check_env(env: &mut dyn Env) -> Result<()> {
    check_env_with(env, &CheckOptions::default())
}

/// One recorded rollout: the reset and `n_steps` steps with action 0.
#[derive(Debug, PartialEq)]
struct Rollout {
    frames: Vec<Frame>,
    rewards: Vec<f32>,
    ends: Vec<(bool, bool)>,
    infos: Vec<Info>,
}

fn fail(env: &dyn Env, what: String) -> Error {
    Error::Invalid(format!("check_env({}): {what}", env.id()))
}

/// Run all checks on a freshly constructed env (it must not have been reset yet):
///
/// 1. `step` before `reset` is an error (`NeedsReset`);
/// 2. the same seed gives identical observations, rewards, flags and infos over `n_steps`;
/// 3. every observation lies in the observation space, and the first step is not truncated
///    nor terminated (unless `first_step_may_end`);
/// 4. different seeds give different first observations (optional);
/// 5. `reset(None)` continues the RNG: it differs from the seeded episode before it (optional);
/// 6. an action outside the action space is an `InvalidAction` error;
/// 7. `render()` has the observation's shape (optional);
/// 8. stepping after the episode ended, without reset, is an error (optional).
pub fn check_env_with(env: &mut dyn Env, opts: &CheckOptions) -> Result<()> {
    let n_actions = env
        .action_space()
        .n()
        .ok_or_else(|| fail(env, "the action space is not Discrete".into()))?;
    if env.observation_space().shape().is_none() {
        return Err(fail(
            env,
            "the observation space is not an image box".into(),
        ));
    }
    match env.step(0) {
        Err(Error::NeedsReset { .. }) => {}
        Err(e) => {
            return Err(fail(
                env,
                format!("step before reset gave the wrong error: {e}"),
            ))
        }
        Ok(_) => {
            return Err(fail(
                env,
                "step before reset succeeded; it must return NeedsReset".into(),
            ))
        }
    }
    let first = rollout(env, Some(opts.seed), opts.n_steps)?;
    let second = rollout(env, Some(opts.seed), opts.n_steps)?;
    if first != second {
        return Err(fail(
            env,
            format!("two rollouts with seed {} differ", opts.seed),
        ));
    }
    if let Some(&(terminated, truncated)) = first.ends.get(1) {
        if (terminated || truncated) && !opts.first_step_may_end {
            return Err(fail(env, "the first step ended the episode".into()));
        }
    }
    if opts.seeds_change_reset {
        let other = rollout(env, Some(opts.seed.wrapping_add(1)), 0)?;
        if other.frames[0] == first.frames[0] {
            return Err(fail(
                env,
                "seeds differing by one gave the same first observation".into(),
            ));
        }
    }
    if opts.unseeded_reset_differs {
        let seeded = rollout(env, Some(opts.seed), 0)?;
        let next = rollout(env, None, 0)?;
        if seeded.frames[0] == next.frames[0] && seeded.infos[0] == next.infos[0] {
            return Err(fail(
                env,
                "reset(None) repeated the seeded episode instead of continuing the RNG".into(),
            ));
        }
    }
    env.reset(Some(opts.seed), &ResetOptions::default())?;
    match env.step(n_actions) {
        Err(Error::InvalidAction { .. }) => {}
        Err(e) => {
            return Err(fail(
                env,
                format!("action {n_actions} gave the wrong error: {e}"),
            ))
        }
        Ok(_) => {
            return Err(fail(
                env,
                format!("action {n_actions} of Discrete({n_actions}) was accepted"),
            ))
        }
    }
    if opts.render_matches_obs {
        let shape = env.observation_space().shape().unwrap_or_default();
        match env.render() {
            Some(f) if f.shape() == shape => {}
            Some(f) => {
                return Err(fail(
                    env,
                    format!("render() shape {:?} != observation {shape:?}", f.shape()),
                ))
            }
            None => return Err(fail(env, "render() returned nothing after reset".into())),
        }
    }
    if opts.max_episode_steps > 0 {
        check_episode_end(env, opts.max_episode_steps)?;
    }
    Ok(())
}

/// Reset with `seed`, take `n_steps` steps with action 0 (stopping at the episode end), and
/// check every observation against the observation space.
fn rollout(env: &mut dyn Env, seed: Option<u64>, n_steps: usize) -> Result<Rollout> {
    let (obs, info) = env.reset(seed, &ResetOptions::default())?;
    let mut r = Rollout {
        frames: vec![obs],
        rewards: vec![0.0],
        ends: vec![(false, false)],
        infos: vec![info],
    };
    for _ in 0..n_steps {
        let s = env.step(0)?;
        let end = s.terminated || s.truncated;
        r.frames.push(s.obs);
        r.rewards.push(s.reward);
        r.ends.push((s.terminated, s.truncated));
        r.infos.push(s.info);
        if end {
            break;
        }
    }
    for (t, f) in r.frames.iter().enumerate() {
        if !env.observation_space().contains_obs(f.view()) {
            return Err(fail(
                env,
                format!(
                    "observation {t} (shape {:?}) is outside the observation space",
                    f.shape()
                ),
            ));
        }
    }
    if let Some(t) = r.rewards.iter().position(|x| !x.is_finite()) {
        return Err(fail(env, format!("reward {t} is not finite")));
    }
    Ok(r)
}

/// Play one episode to its end and check that another step needs a reset.
fn check_episode_end(env: &mut dyn Env, max_steps: usize) -> Result<()> {
    env.reset(None, &ResetOptions::default())?;
    for t in 0..max_steps {
        let s = match env.step(0) {
            // An episode of the reset frame only.
            Err(Error::NeedsReset { .. }) if t == 0 => return Ok(()),
            other => other?,
        };
        if s.terminated || s.truncated {
            return match env.step(0) {
                Err(Error::NeedsReset { .. }) => Ok(()),
                Err(e) => Err(fail(
                    env,
                    format!("step after the episode end gave the wrong error: {e}"),
                )),
                Ok(_) => Err(fail(
                    env,
                    "step after the episode end succeeded without reset".into(),
                )),
            };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::synthetic::{ScatteredShapes, ScatteredShapesConfig};
    use crate::env::{Space, Transition};
    use ndarray::ArrayViewMut3;

    /// An env that breaks one rule, to show that the checker catches it.
    struct Broken {
        space: Space,
        actions: Space,
        counter: u8,
        started: bool,
        flaw: Flaw,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Flaw {
        IgnoresSeed,
        StepsWithoutReset,
        AcceptsAnyAction,
        None,
    }

    impl Env for Broken {
        fn id(&self) -> &str {
            "broken"
        }
        fn observation_space(&self) -> &Space {
            &self.space
        }
        fn action_space(&self) -> &Space {
            &self.actions
        }
        fn reset_into(
            &mut self,
            seed: Option<u64>,
            _: &ResetOptions,
            mut obs: ArrayViewMut3<'_, u8>,
        ) -> Result<Info> {
            self.counter = match (seed, self.flaw) {
                (_, Flaw::IgnoresSeed) => self.counter.wrapping_add(1),
                (Some(s), _) => s as u8,
                (None, _) => self.counter.wrapping_add(7),
            };
            self.started = true;
            obs.fill(self.counter);
            Ok(Info::default())
        }
        fn step_into(
            &mut self,
            action: usize,
            mut obs: ArrayViewMut3<'_, u8>,
        ) -> Result<Transition> {
            if action >= 2 && self.flaw != Flaw::AcceptsAnyAction {
                return Err(Error::InvalidAction {
                    env: "broken".into(),
                    action,
                    n: 2,
                });
            }
            if !self.started && self.flaw != Flaw::StepsWithoutReset {
                return Err(Error::NeedsReset {
                    env: "broken".into(),
                    what: "reset first".into(),
                });
            }
            self.counter = self.counter.wrapping_add(1);
            obs.fill(self.counter);
            Ok(Transition::default())
        }
        fn render(&self) -> Option<Frame> {
            Some(Frame::from_elem((2, 2, 3), self.counter))
        }
    }

    fn broken(flaw: Flaw) -> Broken {
        Broken {
            space: Space::rgb(2, 2),
            actions: Space::Discrete { n: 2 },
            counter: 0,
            started: false,
            flaw,
        }
    }

    #[test]
    fn checker_passes_a_correct_env_and_catches_flaws() {
        let opts = CheckOptions {
            max_episode_steps: 0,
            ..CheckOptions::default()
        };
        check_env_with(&mut broken(Flaw::None), &opts).unwrap();
        for flaw in [
            Flaw::IgnoresSeed,
            Flaw::StepsWithoutReset,
            Flaw::AcceptsAnyAction,
        ] {
            assert!(check_env_with(&mut broken(flaw), &opts).is_err());
        }
    }

    #[test]
    fn scattered_shapes_passes() {
        let mut env = ScatteredShapes::new(ScatteredShapesConfig::default()).unwrap();
        check_env(&mut env).unwrap();
    }
}
