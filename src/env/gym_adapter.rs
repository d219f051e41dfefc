//! [`GymnasiumAdapter`]: any of our envs as a `gymnasium_rs::core::Env<Array3<u8>, usize>`, so
//! code written against the `gymnasium-rs` crate's trait runs on them.
//!
//! The `gymnasium-rs` trait has no `Result`: errors (invalid action, step without reset, a
//! negative seed, unknown reset options) **panic** with our error message. Spaces map as
//! `Discrete(n)` → `Space::Discrete(n as i32)` and an image box → `Space::Box` with flattened
//! per-element `low`/`high` (length `H * W * C`); infos become `HashMap<String, Value>` with our
//! [`Info`] field names (`lives`, `episode_frame_number`, `frame_number`,
//! `objects`; absent fields are left out).

use std::collections::HashMap;

use gymnasium_rs::core::{Env as GymEnv, Info as GymInfo, Options, Reward, Space as GymSpace};
use ndarray::{Array1, Array3};
use serde_json::Value;

use super::{Env, Info, ResetOptions, Space};

/// Wraps one of our envs to implement `gymnasium_rs::core::Env<Array3<u8>, usize>`.
pub struct GymnasiumAdapter<E: Env> {
    env: E,
}

impl<E: Env> GymnasiumAdapter<E> {
    /// Adapt `env`.
    pub fn new(env: E) -> Self {
        GymnasiumAdapter { env }
    }

    /// The adapted env.
    pub fn inner(&self) -> &E {
        &self.env
    }

    /// The adapted env, mutably.
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.env
    }

    /// Unwrap.
    pub fn into_inner(self) -> E {
        self.env
    }
}

/// Our space as a `gymnasium-rs` space.
pub fn to_gym_space(space: &Space) -> GymSpace {
    match space {
        Space::Discrete { n } => GymSpace::Discrete(i32::try_from(*n).unwrap_or(i32::MAX)),
        Space::ImageBox { shape, low, high } => {
            let len = shape.iter().product::<usize>();
            GymSpace::Box {
                low: Array1::from_elem(len, *low as f32),
                high: Array1::from_elem(len, *high as f32),
            }
        }
    }
}

/// Our typed info as a `gymnasium-rs` info map.
pub fn to_gym_info(info: &Info) -> GymInfo {
    match serde_json::to_value(info) {
        Ok(Value::Object(map)) => map.into_iter().collect(),
        _ => HashMap::new(),
    }
}

/// `gymnasium-rs` reset arguments as ours.
///
/// # Panics
/// On a negative seed or options that are not our [`ResetOptions`] (the trait has no `Result`).
pub fn from_gym_reset(
    env_id: &str,
    seed: Option<i32>,
    options: Options,
) -> (Option<u64>, ResetOptions) {
    let seed = seed.map(|s| {
        u64::try_from(s)
            .unwrap_or_else(|_| panic!("env `{env_id}`: reset seed must be non-negative, got {s}"))
    });
    let options: ResetOptions =
        serde_json::from_value(Value::Object(options.into_iter().collect()))
            .unwrap_or_else(|e| panic!("env `{env_id}`: bad reset options: {e}"));
    (seed, options)
}

impl<E: Env> GymEnv<Array3<u8>, usize> for GymnasiumAdapter<E> {
    fn observation_space(&self) -> GymSpace {
        to_gym_space(self.env.observation_space())
    }

    fn action_space(&self) -> GymSpace {
        to_gym_space(self.env.action_space())
    }

    /// # Panics
    /// On a negative seed, unknown options, or an env error.
    fn reset(&mut self, seed: Option<i32>, options: Options) -> (Array3<u8>, GymInfo) {
        let (seed, options) = from_gym_reset(self.env.id(), seed, options);
        match self.env.reset(seed, &options) {
            Ok((obs, info)) => (obs, to_gym_info(&info)),
            Err(e) => panic!("{e}"),
        }
    }

    /// # Panics
    /// On an invalid action, a step without reset, or another env error.
    fn step(&mut self, action: usize) -> (Array3<u8>, Reward, bool, bool, GymInfo) {
        match self.env.step(action) {
            Ok(s) => (
                s.obs,
                s.reward,
                s.terminated,
                s.truncated,
                to_gym_info(&s.info),
            ),
            Err(e) => panic!("{e}"),
        }
    }

    fn render(&self) -> Option<Array3<u8>> {
        self.env.render()
    }

    /// Nothing to do: resources are released when the adapter is dropped.
    fn close(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    /// Code written only against the gymnasium-rs trait.
    fn rollout<G: GymEnv<Array3<u8>, usize>>(env: &mut G, steps: usize) -> (f32, usize) {
        let n = match env.action_space() {
            GymSpace::Discrete(n) => n as usize,
            other => panic!("expected Discrete, got {other:?}"),
        };
        let (obs, _) = env.reset_seed(3);
        let mut total = 0.0;
        let mut len = obs.len();
        for t in 0..steps {
            let (obs, r, term, trunc, info) = env.step(t % n);
            assert!(info.contains_key("lives"));
            total += r;
            len = obs.len();
            if term || trunc {
                env.reset_default();
            }
        }
        (total, len)
    }

    #[test]
    fn generic_gymnasium_code_runs_on_our_env() {
        let mut env = GymnasiumAdapter::new(Fake::new(2, 3, 3, 5));
        match env.observation_space() {
            GymSpace::Box { low, high } => {
                assert_eq!(low.len(), 18);
                assert_eq!((low[0], high[17]), (0.0, 255.0));
            }
            other => panic!("expected Box, got {other:?}"),
        }
        assert_eq!(env.action_space(), GymSpace::Discrete(4));
        // Actions 0,1,2,3,0,... give rewards -1,0,1,2,-1,...: 10 steps sum to 3.
        assert_eq!(rollout(&mut env, 10), (3.0, 18));
        let info = to_gym_info(&Info {
            lives: Some(2),
            ..Default::default()
        });
        assert_eq!(info.get("lives"), Some(&Value::from(2)));
        assert!(!info.contains_key("frame_number"));
    }

    #[test]
    #[should_panic(expected = "invalid action 7")]
    fn errors_panic_with_our_message() {
        let mut env = GymnasiumAdapter::new(Fake::new(1, 1, 1, 5));
        env.reset_default();
        env.step(7);
    }
}
