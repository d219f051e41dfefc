//! Observation transforms: [`Crop`] (rows/columns) and [`ResizeGrayscale`] (RGB → grey, then
//! area or bilinear resize).

use ndarray::{s, ArrayViewMut3};

use super::check_obs_shape;
use crate::env::{Env, Frame, Info, ResetOptions, Space, Transition};
use crate::error::{Error, Result};

/// Keeps rows `top..bottom` and columns `left..right` of every observation.
pub struct Crop<E: Env> {
    env: E,
    window: [usize; 4],
    space: Space,
    full: Frame,
}

impl<E: Env> Crop<E> {
    /// Wrap `env` with crop `[top, bottom, left, right]` (half-open ranges inside the frame).
    pub fn new(env: E, window: [usize; 4]) -> Result<Self> {
        let [h, w, c] = image_shape(&env, "Crop")?;
        let [t, b, l, r] = window;
        if !(t < b && b <= h && l < r && r <= w) {
            return Err(Error::Invalid(format!(
                "Crop on `{}`: [top, bottom, left, right] = {window:?} must satisfy \
                 top < bottom <= {h} and left < right <= {w}",
                env.id()
            )));
        }
        Ok(Crop {
            space: Space::image(b - t, r - l, c),
            full: env.new_obs_buffer(),
            env,
            window,
        })
    }

    inner_accessors!();

    fn write(&self, mut obs: ArrayViewMut3<'_, u8>) {
        let [t, b, l, r] = self.window;
        obs.assign(&self.full.slice(s![t..b, l..r, ..]));
    }
}

fn image_shape<E: Env>(env: &E, wrapper: &str) -> Result<[usize; 3]> {
    env.observation_space().shape().ok_or_else(|| {
        Error::Invalid(format!(
            "{wrapper} on `{}`: needs image observations",
            env.id()
        ))
    })
}

/// `Env` for a wrapper that rewrites each inner observation: the inner env writes into the
/// wrapper's `full` buffer and `write(obs)` turns it into the wrapper's observation.
macro_rules! transformed_observation_env {
    ($wrapper:ident) => {
        impl<E: Env> Env for $wrapper<E> {
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
                let info = self.env.reset_into(seed, options, self.full.view_mut())?;
                self.write(obs);
                Ok(info)
            }
            fn step_into(
                &mut self,
                action: usize,
                obs: ArrayViewMut3<'_, u8>,
            ) -> Result<Transition> {
                check_obs_shape(self.env.id(), &self.space, &obs)?;
                let t = self.env.step_into(action, self.full.view_mut())?;
                self.write(obs);
                Ok(t)
            }
            fn step_unobserved(&mut self, action: usize) -> Result<Transition> {
                self.env.step_unobserved(action)
            }
        }
    };
}

transformed_observation_env!(Crop);

/// Interpolation of [`ResizeGrayscale`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResizeMethod {
    /// Each output pixel is the mean of the input area it covers, weighted by overlap (OpenCV's
    /// `INTER_AREA` when shrinking; what Gymnasium's `AtariPreprocessing` uses).
    Area,
    /// Bilinear with pixel centres at `i + 0.5` and edge clamping (OpenCV's `INTER_LINEAR`).
    Bilinear,
}

/// 1-D resampling taps: output index `i` reads `idx[start[i]..start[i+1]]` with `weight`s.
#[derive(Debug, Clone)]
struct Taps {
    start: Vec<usize>,
    idx: Vec<usize>,
    weight: Vec<f32>,
}

impl Taps {
    fn new(n_in: usize, n_out: usize, method: ResizeMethod) -> Taps {
        let scale = n_in as f64 / n_out as f64;
        let mut taps = Taps {
            start: vec![0],
            idx: Vec::new(),
            weight: Vec::new(),
        };
        for i in 0..n_out {
            match method {
                ResizeMethod::Area => {
                    let (lo, hi) = (i as f64 * scale, (i + 1) as f64 * scale);
                    let mut j = lo.floor() as usize;
                    while (j as f64) < hi && j < n_in {
                        let overlap = (hi.min(j as f64 + 1.0) - lo.max(j as f64)).max(0.0);
                        if overlap > 1e-9 {
                            taps.idx.push(j);
                            taps.weight.push((overlap / scale) as f32);
                        }
                        j += 1;
                    }
                }
                ResizeMethod::Bilinear => {
                    let x = ((i as f64 + 0.5) * scale - 0.5).clamp(0.0, (n_in - 1) as f64);
                    let j0 = x.floor() as usize;
                    let f = x - j0 as f64;
                    taps.idx.push(j0);
                    taps.weight.push((1.0 - f) as f32);
                    if f > 0.0 {
                        taps.idx.push((j0 + 1).min(n_in - 1));
                        taps.weight.push(f as f32);
                    }
                }
            }
            taps.start.push(taps.idx.len());
        }
        taps
    }

    fn of(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let r = self.start[i]..self.start[i + 1];
        self.idx[r.clone()]
            .iter()
            .copied()
            .zip(self.weight[r].iter().copied())
    }
}

/// Converts RGB to greyscale (ITU-R 601 luma, as OpenCV's `RGB2GRAY`, rounded to bytes; a
/// 1-channel input is used as is) and resizes to `(height, width, 1)`.
pub struct ResizeGrayscale<E: Env> {
    env: E,
    space: Space,
    full: Frame,
    /// `(H_in * W_in)` greyscale of the inner frame.
    grey: Vec<f32>,
    /// `(H_in * W_out)` after the horizontal pass.
    rows: Vec<f32>,
    taps_y: Taps,
    taps_x: Taps,
}

impl<E: Env> ResizeGrayscale<E> {
    /// Wrap `env` (RGB or 1-channel observations) to output `(height, width, 1)`.
    pub fn new(env: E, height: usize, width: usize, method: ResizeMethod) -> Result<Self> {
        let [h, w, c] = image_shape(&env, "ResizeGrayscale")?;
        if height == 0 || width == 0 || !(c == 1 || c == 3) {
            return Err(Error::Invalid(format!(
                "ResizeGrayscale on `{}`: output {height}x{width} must be positive and the \
                 input must have 1 or 3 channels (has {c})",
                env.id()
            )));
        }
        Ok(ResizeGrayscale {
            space: Space::image(height, width, 1),
            full: env.new_obs_buffer(),
            grey: vec![0.0; h * w],
            rows: vec![0.0; h * width],
            taps_y: Taps::new(h, height, method),
            taps_x: Taps::new(w, width, method),
            env,
        })
    }

    inner_accessors!();

    fn write(&mut self, mut obs: ArrayViewMut3<'_, u8>) {
        let [h, w, c] = [
            self.full.shape()[0],
            self.full.shape()[1],
            self.full.shape()[2],
        ];
        let [oh, ow, _] = self.space.shape().expect("image space");
        let src = self.full.as_slice().expect("own buffer is contiguous");
        if c == 3 {
            for (g, px) in self.grey.iter_mut().zip(src.chunks_exact(3)) {
                *g = luma(px[0], px[1], px[2]) as f32;
            }
        } else {
            for (g, &v) in self.grey.iter_mut().zip(src) {
                *g = v as f32;
            }
        }
        for y in 0..h {
            let src = &self.grey[y * w..(y + 1) * w];
            for x in 0..ow {
                self.rows[y * ow + x] = self.taps_x.of(x).map(|(j, wt)| src[j] * wt).sum();
            }
        }
        for y in 0..oh {
            for x in 0..ow {
                let v: f32 = self
                    .taps_y
                    .of(y)
                    .map(|(i, wt)| self.rows[i * ow + x] * wt)
                    .sum();
                obs[(y, x, 0)] = v.round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// OpenCV's fixed-point RGB→grey: `(4899 R + 9617 G + 1868 B + 2^13) >> 14`.
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((4899 * r as u32 + 9617 * g as u32 + 1868 * b as u32 + (1 << 13)) >> 14) as u8
}

transformed_observation_env!(ResizeGrayscale);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    #[test]
    fn crop_keeps_the_window() {
        let mut env = Crop::new(Fake::new(6, 5, 3, 100), [1, 4, 2, 5]).unwrap();
        assert_eq!(env.observation_space().shape(), Some([3, 3, 3]));
        env.reset(Some(3), &ResetOptions::default()).unwrap();
        let obs = env.step(0).unwrap().obs;
        assert_eq!(obs, env.inner().frame_at(1).slice(s![1..4, 2..5, ..]));
        assert!(Crop::new(Fake::new(6, 5, 3, 1), [0, 7, 0, 5]).is_err());
        // An unobserved step reaches the inner env unobserved; the next frame is cropped as ever.
        env.step_unobserved(1).unwrap();
        assert_eq!(env.inner().unobserved, 1);
        let obs = env.step(0).unwrap().obs;
        assert_eq!(obs, env.inner().frame_at(3).slice(s![1..4, 2..5, ..]));
        assert!(Crop::new(Fake::new(6, 5, 3, 1), [2, 2, 0, 5]).is_err());
    }

    #[test]
    fn luma_matches_opencv_values() {
        assert_eq!(luma(255, 255, 255), 255);
        assert_eq!(luma(0, 0, 0), 0);
        assert_eq!(luma(255, 0, 0), 76); // cv2.cvtColor([[[255,0,0]]], RGB2GRAY) = 76
        assert_eq!(luma(0, 255, 0), 150);
        assert_eq!(luma(0, 0, 255), 29);
    }

    #[test]
    fn area_taps_average_blocks_and_sum_to_one() {
        let t = Taps::new(4, 2, ResizeMethod::Area);
        assert_eq!(t.of(0).collect::<Vec<_>>(), vec![(0, 0.5), (1, 0.5)]);
        for (n_in, n_out) in [(210, 84), (160, 84), (3, 5), (7, 7)] {
            for m in [ResizeMethod::Area, ResizeMethod::Bilinear] {
                let t = Taps::new(n_in, n_out, m);
                for i in 0..n_out {
                    let s: f32 = t.of(i).map(|(_, w)| w).sum();
                    assert!(
                        (s - 1.0).abs() < 1e-5,
                        "{m:?} {n_in}->{n_out} [{i}] sums to {s}"
                    );
                    assert!(t.of(i).all(|(j, _)| j < n_in));
                }
            }
        }
        // Bilinear 2 -> 4: centres at -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
        let b = Taps::new(2, 4, ResizeMethod::Bilinear);
        assert_eq!(b.of(1).collect::<Vec<_>>(), vec![(0, 0.75), (1, 0.25)]);
    }

    #[test]
    fn resize_grayscale_averages_2x2_blocks() {
        let mut env =
            ResizeGrayscale::new(Fake::new(4, 6, 1, 100), 2, 3, ResizeMethod::Area).unwrap();
        let (obs, _) = env.reset(Some(0), &ResetOptions::default()).unwrap();
        assert_eq!(obs.shape(), &[2, 3, 1]);
        let f = env.inner().frame_at(0);
        for y in 0..2 {
            for x in 0..3 {
                let sum: u32 = (0..2)
                    .flat_map(|dy| (0..2).map(move |dx| (dy, dx)))
                    .map(|(dy, dx)| f[(2 * y + dy, 2 * x + dx, 0)] as u32)
                    .sum();
                assert_eq!(obs[(y, x, 0)] as f32, (sum as f32 / 4.0).round());
            }
        }
        // RGB input goes through luma first (rounded to bytes), then the resize.
        let mut env =
            ResizeGrayscale::new(Fake::new(4, 4, 3, 100), 2, 2, ResizeMethod::Bilinear).unwrap();
        let (obs, _) = env.reset(Some(0), &ResetOptions::default()).unwrap();
        let f = env.inner().frame_at(0);
        let l = |y: usize, x: usize| luma(f[(y, x, 0)], f[(y, x, 1)], f[(y, x, 2)]) as f32;
        let expect = ((l(2, 0) + l(2, 1) + l(3, 0) + l(3, 1)) / 4.0).round();
        assert_eq!(obs[(1, 0, 0)] as f32, expect);
    }
}
