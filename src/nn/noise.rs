//! Counter-based noise tensors, made where they are used (CPU or GPU): element `i` of a tensor
//! with key `k` is a pure function of `(k, i)` ([`crate::rng::counter_normal`],
//! [`crate::rng::counter_uniform`]), so a CUDA kernel fills the tensor in parallel, no host RNG
//! runs and nothing is copied, and the same key gives the same values on both devices (to the
//! last bit of `log`/`cos`). The model's latent noise comes from here, one key per tensor drawn
//! from the step's seeded [`crate::rng::SeededRng`].

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, Layout, Result, Shape, Tensor, WithDType};
use rayon::prelude::*;

use crate::rng::{counter_normal, counter_uniform};

/// The distribution of a noise tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Noise {
    /// N(0, 1).
    Normal,
    /// U[0, 1) with 24 random bits.
    Uniform,
}

impl Noise {
    /// Element `i` of stream `key`.
    #[inline]
    pub fn value(self, key: u64, i: u64) -> f64 {
        match self {
            Noise::Normal => counter_normal(key, i),
            Noise::Uniform => counter_uniform(key, i),
        }
    }

    /// Kernel code of the distribution (`counter_noise` in `kernels.cu`).
    #[cfg(feature = "cuda")]
    pub(crate) fn code(self) -> i32 {
        match self {
            Noise::Normal => 0,
            Noise::Uniform => 1,
        }
    }
}

struct NoiseOp {
    noise: Noise,
    key: u64,
}

fn fill<T: WithDType>(n: usize, op: &NoiseOp) -> Vec<T> {
    let mut out = vec![T::zero(); n];
    out.par_chunks_mut(4096).enumerate().for_each(|(c, chunk)| {
        for (j, x) in chunk.iter_mut().enumerate() {
            *x = T::from_f64(op.noise.value(op.key, (c * 4096 + j) as u64));
        }
    });
    out
}

impl CustomOp1 for NoiseOp {
    fn name(&self) -> &'static str {
        "silot-counter-noise"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        let n = l.shape().elem_count();
        let out = super::cpu::by_float!(s, "counter noise", T => fill::<T>(n, self));
        Ok((out, l.shape().clone()))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let n = l.shape().elem_count();
        let dev = s.device();
        let st = cuda::by_float!(s, T => cuda::counter_noise::<T>(dev, n, self.key, self.noise)?);
        Ok((st, l.shape().clone()))
    }
}

/// A tensor of `like`'s shape, dtype (F32 or F64) and device filled with `noise` from stream
/// `key` (row-major element order). Not part of any autograd graph.
pub fn noise_like(like: &Tensor, noise: Noise, key: u64) -> Result<Tensor> {
    let op = NoiseOp { noise, key };
    if super::device_noise() || like.device().is_cpu() {
        like.detach().apply_op1_no_bwd(&op)
    } else {
        // The path before device noise: fill on the host, copy to the device.
        let host = Tensor::zeros(like.shape(), like.dtype(), &candle_core::Device::Cpu)?;
        host.apply_op1_no_bwd(&op)?.to_device(like.device())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};

    fn check(dev: &Device) {
        let like = Tensor::zeros((64, 50, 7), DType::F32, dev).unwrap();
        // A strided `like` gives the same values: only its shape counts.
        let strided = Tensor::zeros((64, 7, 50), DType::F32, dev)
            .unwrap()
            .transpose(1, 2)
            .unwrap();
        for noise in [Noise::Normal, Noise::Uniform] {
            let a = noise_like(&like, noise, 11).unwrap();
            assert_eq!(a.dims(), like.dims());
            let v: Vec<f32> = a.flatten_all().unwrap().to_vec1().unwrap();
            let w: Vec<f32> = noise_like(&strided, noise, 11)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            assert_eq!(v, w);
            // The host reference, element by element (f32 rounding of the same f64 values, up
            // to the last bit of log/cos on the GPU).
            for (i, x) in v.iter().enumerate().step_by(97) {
                let want = noise.value(11, i as u64) as f32;
                assert!(
                    (x - want).abs() <= 1e-6 * want.abs().max(1.0),
                    "{i}: {x} vs {want}"
                );
            }
            let n = v.len() as f64;
            let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n;
            let var = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
            let (m, s2) = match noise {
                Noise::Normal => (0.0, 1.0),
                Noise::Uniform => {
                    assert!(v.iter().all(|&x| (0.0..1.0).contains(&x)));
                    (0.5, 1.0 / 12.0)
                }
            };
            assert!((mean - m).abs() < 0.02, "{noise:?} mean {mean}");
            assert!((var - s2).abs() < 0.05 * s2, "{noise:?} var {var}");
            let other: Vec<f32> = noise_like(&like, noise, 12)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            assert_ne!(v, other);
        }
    }

    crate::test_device!(
        check,
        noise_like_is_keyed_and_distributed_cpu,
        noise_like_is_keyed_and_distributed_cuda
    );
}
