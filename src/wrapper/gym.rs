//! [`ObjectCentricEnv`] as a `gymnasium_rs::core::Env<Array2<f32>, usize>`: the observation is
//! the `(K, 6 + A)` feature array of [`crate::wrapper::ObjectBatch::features`], the info map
//! carries the env's info plus `object_ids` (the `K` slot identities). As with
//! [`crate::env::gym_adapter::GymnasiumAdapter`], errors panic with our message (the trait has
//! no `Result`).

use gymnasium_rs::core::{Env as GymEnv, Info as GymInfo, Options, Reward, Space as GymSpace};
use ndarray::{Array1, Array2, Array3, Axis};
use serde_json::Value;

use super::env::ObjectCentricEnv;
use super::objects::{ObjectBatch, FIXED_FEATURES};
use crate::env::gym_adapter::{from_gym_reset, to_gym_info, to_gym_space};
use crate::env::{Env, Info};

/// Bounds of one feature row: presence and depth in `[0, 1]`, box and appearance unbounded.
fn row_bounds(n_what: usize) -> (Vec<f32>, Vec<f32>) {
    let inf = f32::INFINITY;
    let mut low = vec![0.0, -inf, -inf, -inf, -inf, 0.0];
    let mut high = vec![1.0, inf, inf, inf, inf, 1.0];
    low.extend(std::iter::repeat_n(-inf, n_what));
    high.extend(std::iter::repeat_n(inf, n_what));
    debug_assert_eq!(low.len(), FIXED_FEATURES + n_what);
    (low, high)
}

fn observation(objects: &ObjectBatch) -> Array2<f32> {
    objects.features().index_axis_move(Axis(0), 0)
}

fn info(objects: &ObjectBatch, info: &Info) -> GymInfo {
    let mut map = to_gym_info(info);
    let ids: Vec<Value> = objects
        .ids
        .row(0)
        .iter()
        .map(|&id| Value::from(id))
        .collect();
    map.insert("object_ids".into(), Value::Array(ids));
    map
}

impl<E: Env> GymEnv<Array2<f32>, usize> for ObjectCentricEnv<E> {
    /// `Box` over the flattened `(K, 6 + A)` features.
    fn observation_space(&self) -> GymSpace {
        let (low, high) = row_bounds(self.encoder().n_what());
        let k = self.encoder().n_slots();
        GymSpace::Box {
            low: Array1::from_iter(low.iter().copied().cycle().take(k * low.len())),
            high: Array1::from_iter(high.iter().copied().cycle().take(k * high.len())),
        }
    }

    fn action_space(&self) -> GymSpace {
        to_gym_space(self.action_space())
    }

    /// # Panics
    /// On a negative seed, unknown options, or an env or model error.
    fn reset(&mut self, seed: Option<i32>, options: Options) -> (Array2<f32>, GymInfo) {
        let (seed, options) = from_gym_reset(self.inner().id(), seed, options);
        let objects = ObjectCentricEnv::reset(self, seed, &options)
            .unwrap_or_else(|e| panic!("{e}"))
            .clone();
        let info = self.last_info().clone();
        (observation(&objects), self::info(&objects, &info))
    }

    /// # Panics
    /// On an invalid action, a step without reset, or another env or model error.
    fn step(&mut self, action: usize) -> (Array2<f32>, Reward, bool, bool, GymInfo) {
        let s = ObjectCentricEnv::step(self, action).unwrap_or_else(|e| panic!("{e}"));
        (
            observation(s.objects),
            s.rewards[0],
            s.terminated[0],
            s.truncated[0],
            info(s.objects, &s.infos[0]),
        )
    }

    fn render(&self) -> Option<Array3<u8>> {
        self.inner().render()
    }

    /// Nothing to do: resources are released when the env is dropped.
    fn close(&mut self) {}
}
