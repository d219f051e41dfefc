//! Sampling of the latent variables (reparameterised Normals, binary-concrete presence) and the
//! stop-gradient "training wheels" (reference §2.3, §2.5, §4.6).

use candle_core::{Result, Tensor, D};

use crate::model::config::ModelConfig;
use crate::nn::dist::std_from_logit;
use crate::nn::noise::{noise_like, Noise};
use crate::rng::SeededRng;

/// A Normal latent: the distribution and the sample taken from it.
#[derive(Debug, Clone)]
pub struct NormalLatent {
    /// Mean, any shape.
    pub mean: Tensor,
    /// Standard deviation, same shape.
    pub std: Tensor,
    /// Sample, same shape.
    pub sample: Tensor,
}

/// A binary-concrete presence latent.
#[derive(Debug, Clone)]
pub struct PresLatent {
    /// Clipped log-odds `λ = clip(ℓ/obj_temp, −10, 10)`.
    pub log_odds: Tensor,
    /// Pre-sigmoid sample `s` (`= λ` when not noisy).
    pub pre_sigmoid: Tensor,
    /// `σ(s)`.
    pub value: Tensor,
}

/// The rows of a global batch one data-parallel replica runs ([`crate::train::distributed`]):
/// rows `offset .. offset + rows` of `global`. Every noise draw of a forward pass is made for the
/// global batch and narrowed to these rows, so N replicas on `global / N` rows each draw exactly
/// the noise one replica on the whole batch would, and the step's RNG advances the same way on
/// every replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// First row of this replica in the global batch.
    pub offset: usize,
    /// Rows of this replica (its batch size).
    pub rows: usize,
    /// Rows of the global batch.
    pub global: usize,
}

impl Shard {
    /// The shard of replica `rank` of `world` on a global batch of `global` rows (split evenly,
    /// `global` a multiple of `world`).
    pub fn of_rank(rank: usize, world: usize, global: usize) -> Result<Shard> {
        if world == 0 || rank >= world || global % world != 0 {
            candle_core::bail!(
                "cannot split a batch of {global} into {world} equal shards for rank {rank}"
            );
        }
        let rows = global / world;
        Ok(Shard {
            offset: rank * rows,
            rows,
            global,
        })
    }

    /// Noise for the rows of this shard: `like`'s first axis (or its row-major order) must have
    /// the batch outermost, `rows` blocks of equal size.
    pub fn noise_like(&self, like: &Tensor, noise: Noise, key: u64) -> Result<Tensor> {
        if self.rows == self.global {
            return noise_like(like, noise, key);
        }
        let n = like.elem_count();
        if self.rows == 0 || n % self.rows != 0 {
            candle_core::bail!(
                "shard noise: a tensor of shape {:?} does not split into {} batch rows",
                like.dims(),
                self.rows
            );
        }
        let per = n / self.rows;
        let all = Tensor::zeros(self.global * per, like.dtype(), like.device())?;
        noise_like(&all, noise, key)?
            .narrow(0, self.offset * per, n)?
            .reshape(like.shape())
    }

    /// Bernoulli(p) draws `(rows,)` from `rng`: `(global,)` drawn, this shard's rows kept.
    pub fn bernoulli(
        &self,
        rng: &mut SeededRng,
        p: f32,
        dev: &candle_core::Device,
    ) -> Result<Tensor> {
        rng.bernoulli(&[self.global], p, dev)?
            .narrow(0, self.offset, self.rows)
    }
}

/// The noise source and switches of one forward pass.
pub struct LatentSampler<'a> {
    /// The keys of all noise tensors come from here (one draw per tensor).
    pub rng: &'a mut SeededRng,
    /// The rows of the global batch this pass runs (data-parallel replicas); `None`: all.
    pub shard: Option<Shard>,
    /// Sample latents (training, or evaluation with `eval_noisy`); otherwise use the means.
    pub noisy: bool,
    /// Stop-gradient training wheels active (reference §4.6).
    pub wheels: bool,
    /// Pres logit temperature.
    pub obj_temp: f64,
    /// Concrete temperature.
    pub concrete_temp: f64,
}

#[cfg(test)]
impl<'a> LatentSampler<'a> {
    /// A sampler that samples, without training wheels, at unit temperatures (module tests).
    pub(crate) fn sampling_for_tests(rng: &'a mut SeededRng) -> Self {
        Self {
            rng,
            shard: None,
            noisy: true,
            wheels: false,
            obj_temp: 1.0,
            concrete_temp: 1.0,
        }
    }
}

/// `σ(clip(x, −10, 10))`.
pub fn sigmoid10(x: &Tensor) -> Result<Tensor> {
    candle_nn::ops::sigmoid(&crate::nn::epilogue::clamp(x, -10.0, 10.0)?)
}

/// Box sizes from their logits: `(…, 2)` h, w in anchor units, `σ(clip(x)) · (max − min) + min`
/// with `[min, max]` = `hw_range` for both, or for the width `[min_hw, max_width]` when set.
pub fn box_size(logits: &Tensor, cfg: &ModelConfig) -> Result<Tensor> {
    let [lo, hi] = cfg.hw_range;
    let unit = sigmoid10(logits)?;
    match cfg.max_width {
        None => unit.affine(hi - lo, lo),
        // Each axis its own affine: no per-call upload of a span tensor to the device.
        Some(w) => Tensor::cat(
            &[
                unit.narrow(D::Minus1, 0, 1)?.affine(hi - lo, lo)?,
                unit.narrow(D::Minus1, 1, 1)?.affine(w - lo, lo)?,
            ],
            D::Minus1,
        ),
    }
}

impl LatentSampler<'_> {
    /// `x ← stopgrad(x)` while the training wheels are on.
    pub fn wheel(&self, x: Tensor) -> Tensor {
        if self.wheels {
            x.detach()
        } else {
            x
        }
    }

    /// Standard-normal noise shaped like `like` (only drawn when noisy), made on `like`'s device
    /// from a counter-based stream keyed by one draw of the step's RNG ([`crate::nn::noise`]).
    fn eps(&mut self, like: &Tensor) -> Result<Tensor> {
        self.noise(like, Noise::Normal)
    }

    /// Noise shaped like `like`, keyed by one draw of the step's RNG; a shard's rows of the
    /// global batch's noise when the pass runs a shard.
    fn noise(&mut self, like: &Tensor, noise: Noise) -> Result<Tensor> {
        let key = self.rng.next_u64();
        match &self.shard {
            Some(s) => s.noise_like(like, noise, key),
            None => noise_like(like, noise, key),
        }
    }

    /// `N(mean, std(ℓ))` with `std(ℓ) = 2σ(clip10(ℓ))`. When not noisy the sample is the mean
    /// (the code multiplies the std by 0 there; we keep the std for the KL so it stays finite).
    pub fn normal(&mut self, mean: Tensor, std_logit: &Tensor) -> Result<NormalLatent> {
        let std = std_from_logit(std_logit)?;
        self.normal_std(mean, std)
    }

    /// `N(mean, std)` with an explicit std.
    pub fn normal_std(&mut self, mean: Tensor, std: Tensor) -> Result<NormalLatent> {
        let sample = if self.noisy {
            (&mean + std.mul(&self.eps(&mean)?)?)?
        } else {
            mean.clone()
        };
        Ok(NormalLatent { mean, std, sample })
    }

    /// Presence from a logit: `λ = clip(ℓ/obj_temp, ±10)`; noisy:
    /// `s = (λ + log(u+1e-9) − log(1−u+1e-9))/concrete_temp`, else `s = λ`; value `σ(s)`.
    pub fn pres(&mut self, logit: &Tensor) -> Result<PresLatent> {
        let log_odds =
            crate::nn::epilogue::clamp(&logit.affine(1.0 / self.obj_temp, 0.0)?, -10.0, 10.0)?;
        let pre_sigmoid = if self.noisy {
            let u = self.noise(logit, Noise::Uniform)?;
            let noise = (u.affine(1.0, 1e-9)?.log()? - u.affine(-1.0, 1.0 + 1e-9)?.log()?)?;
            (&log_odds + noise)?.affine(1.0 / self.concrete_temp, 0.0)?
        } else {
            log_odds.clone()
        };
        let value = candle_nn::ops::sigmoid(&pre_sigmoid)?;
        Ok(PresLatent {
            log_odds,
            pre_sigmoid,
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    #[test]
    fn box_size_maps_logits_into_hw_range_with_an_optional_width_cap() {
        let dev = Device::Cpu;
        // (1, 3, 2) logits: 0 (the middle), a clipped +20 (the top), a clipped -20 (the bottom).
        let logits = Tensor::new(&[[[0.0f32, 0.0], [20.0, 20.0], [-20.0, -20.0]]], &dev).unwrap();
        let mut cfg = ModelConfig {
            hw_range: [0.2, 1.0],
            ..ModelConfig::default()
        };
        let size = |cfg: &ModelConfig| -> Vec<Vec<f32>> {
            box_size(&logits, cfg)
                .unwrap()
                .squeeze(0)
                .unwrap()
                .to_vec2()
                .unwrap()
        };
        let close = |got: Vec<Vec<f32>>, want: [[f32; 2]; 3]| {
            for (g, w) in got.iter().flatten().zip(want.iter().flatten()) {
                assert!((g - w).abs() < 1e-4, "{got:?} vs {want:?}");
            }
        };
        let top = 0.2 + 0.8 * (1.0 / (1.0 + (-10f32).exp()));
        let bottom = 0.2 + 0.8 * (1.0 / (1.0 + 10f32.exp()));
        close(size(&cfg), [[0.6, 0.6], [top, top], [bottom, bottom]]);
        // A cap of 0.5 on widths: heights unchanged, widths over [0.2, 0.5].
        cfg.max_width = Some(0.5);
        let w_top = 0.2 + 0.3 * (1.0 / (1.0 + (-10f32).exp()));
        let w_bottom = 0.2 + 0.3 * (1.0 / (1.0 + 10f32.exp()));
        close(size(&cfg), [[0.6, 0.35], [top, w_top], [bottom, w_bottom]]);
    }

    #[test]
    fn deterministic_when_not_noisy_and_wheels_cut_gradient() {
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(0);
        let mean = Var::new(&[0.3f32, -0.2], &dev).unwrap();
        let mut s = LatentSampler {
            rng: &mut rng,
            shard: None,
            noisy: false,
            wheels: true,
            obj_temp: 1.0,
            concrete_temp: 1.0,
        };
        let l = s
            .normal(
                s.wheel(mean.as_tensor().clone()),
                &Tensor::zeros(2, candle_core::DType::F32, &dev).unwrap(),
            )
            .unwrap();
        assert_eq!(l.sample.to_vec1::<f32>().unwrap(), vec![0.3, -0.2]);
        assert_eq!(l.std.to_vec1::<f32>().unwrap(), vec![1.0, 1.0]);
        let g = l.sample.sum_all().unwrap().backward().unwrap();
        assert!(g.get(mean.as_tensor()).is_none());
        let p = s
            .pres(&Tensor::new(&[20.0f32, 0.0], &dev).unwrap())
            .unwrap();
        assert_eq!(p.log_odds.to_vec1::<f32>().unwrap(), vec![10.0, 0.0]);
        assert!((p.value.to_vec1::<f32>().unwrap()[1] - 0.5).abs() < 1e-6);
    }

    #[test]
    fn noisy_pres_is_logistic() {
        // Mean of σ(λ + L) over logistic noise L with λ = 0 is 0.5; fraction of s > 0 ≈ 0.5.
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(1);
        let mut s = LatentSampler::sampling_for_tests(&mut rng);
        let p = s
            .pres(&Tensor::zeros(20000, candle_core::DType::F32, &dev).unwrap())
            .unwrap();
        let v = p.pre_sigmoid.to_vec1::<f32>().unwrap();
        let pos = v.iter().filter(|&&x| x > 0.0).count() as f64 / v.len() as f64;
        assert!((pos - 0.5).abs() < 0.02, "{pos}");
        // Logistic variance π²/3 ≈ 3.29.
        let var = v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>() / v.len() as f64;
        assert!((var - 3.29).abs() < 0.2, "{var}");
    }
}
