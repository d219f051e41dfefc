//! [`FrameStack`]: the last `k` observations stacked along channels.

use ndarray::ArrayViewMut3;

use super::check_obs_shape;
use crate::env::{Env, Frame, Info, ResetOptions, Space, Transition};
use crate::error::{Error, Result};

/// Observation `(H, W, k*C)`: channels `j*C..(j+1)*C` hold the frame from `k-1-j` steps ago
/// (oldest first, newest last). After a reset all `k` slots hold the reset frame (Gymnasium's
/// `FrameStackObservation` with `padding_type = "reset"`).
pub struct FrameStack<E: Env> {
    env: E,
    k: usize,
    space: Space,
    /// Ring of the last `k` inner frames; `oldest` indexes the oldest.
    frames: Vec<Frame>,
    oldest: usize,
}

impl<E: Env> FrameStack<E> {
    /// Wrap `env`, stacking `k ≥ 1` frames.
    pub fn new(env: E, k: usize) -> Result<Self> {
        let [h, w, c] = env.observation_space().shape().ok_or_else(|| {
            Error::Invalid(format!(
                "FrameStack on `{}`: needs image observations",
                env.id()
            ))
        })?;
        if k == 0 {
            return Err(Error::Invalid(format!(
                "FrameStack on `{}`: k must be at least 1",
                env.id()
            )));
        }
        let frames = (0..k).map(|_| env.new_obs_buffer()).collect();
        Ok(FrameStack {
            space: Space::image(h, w, c * k),
            env,
            k,
            frames,
            oldest: 0,
        })
    }

    inner_accessors!();

    /// Write the stack, oldest first, into `obs`.
    fn write_stack(&self, mut obs: ArrayViewMut3<'_, u8>) {
        let c = self.frames[0].shape()[2];
        let ordered = (0..self.k).map(|j| &self.frames[(self.oldest + j) % self.k]);
        if let Some(out) = obs.as_slice_mut() {
            let ck = c * self.k;
            for (j, f) in ordered.enumerate() {
                let src = f.as_slice().expect("own buffers are contiguous");
                for (dst, px) in out.chunks_exact_mut(ck).zip(src.chunks_exact(c)) {
                    dst[j * c..(j + 1) * c].copy_from_slice(px);
                }
            }
        } else {
            for (j, f) in ordered.enumerate() {
                obs.slice_mut(ndarray::s![.., .., j * c..(j + 1) * c])
                    .assign(f);
            }
        }
    }
}

impl<E: Env> Env for FrameStack<E> {
    delegate_env!(id, action_space, render);
    fn observation_space(&self) -> &Space {
        &self.space
    }
    fn reset_into(
        &mut self,
        seed: Option<u64>,
        options: &ResetOptions,
        obs: ArrayViewMut3<'_, u8>,
    ) -> Result<Info> {
        check_obs_shape(self.env.id(), &self.space, &obs)?;
        let (first, rest) = self.frames.split_at_mut(1);
        let info = self.env.reset_into(seed, options, first[0].view_mut())?;
        for f in rest {
            f.assign(&first[0]);
        }
        self.oldest = 0;
        self.write_stack(obs);
        Ok(info)
    }
    fn step_into(&mut self, action: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
        check_obs_shape(self.env.id(), &self.space, &obs)?;
        // The oldest slot receives the newest frame, then becomes the newest.
        let t = self
            .env
            .step_into(action, self.frames[self.oldest].view_mut())?;
        self.oldest = (self.oldest + 1) % self.k;
        self.write_stack(obs);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;
    use ndarray::s;

    #[test]
    fn stacks_oldest_first_and_pads_with_reset_frame() {
        let mut env = FrameStack::new(Fake::new(3, 2, 3, 100), 3).unwrap();
        assert_eq!(env.observation_space().shape(), Some([3, 2, 9]));
        let (obs, _) = env.reset(Some(2), &ResetOptions::default()).unwrap();
        for j in 0..3 {
            assert_eq!(
                obs.slice(s![.., .., 3 * j..3 * j + 3]),
                env.inner().frame_at(0)
            );
        }
        env.step(0).unwrap();
        let obs = env.step(0).unwrap().obs;
        let fake = env.inner();
        assert_eq!(obs.slice(s![.., .., 0..3]), fake.frame_at(0));
        assert_eq!(obs.slice(s![.., .., 3..6]), fake.frame_at(1));
        assert_eq!(obs.slice(s![.., .., 6..9]), fake.frame_at(2));
        let obs = env.step(0).unwrap().obs;
        assert_eq!(obs.slice(s![.., .., 0..3]), env.inner().frame_at(1));
        assert_eq!(obs.slice(s![.., .., 6..9]), env.inner().frame_at(3));
    }

    #[test]
    fn non_contiguous_output_matches() {
        let mut env = FrameStack::new(Fake::new(3, 2, 1, 100), 2).unwrap();
        env.reset(Some(2), &ResetOptions::default()).unwrap();
        env.step(1).unwrap();
        let mut big = ndarray::Array3::<u8>::zeros((2, 3, 2)); // transposed storage
        let view = big.view_mut().reversed_axes();
        let mut view = view.permuted_axes([1, 0, 2]);
        assert!(view.as_slice_mut().is_none());
        env.step_into(1, view).unwrap();
        let expected = {
            let mut e = Frame::zeros((3, 2, 2));
            e.slice_mut(s![.., .., 0..1])
                .assign(&env.inner().frame_at(1));
            e.slice_mut(s![.., .., 1..2])
                .assign(&env.inner().frame_at(2));
            e
        };
        let got = big
            .view()
            .reversed_axes()
            .permuted_axes([1, 0, 2])
            .to_owned();
        assert_eq!(got, expected);
    }
}
