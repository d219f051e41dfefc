//! The Adam update of one variable as two in-place custom ops (CPU and CUDA), used by
//! [`crate::train::adam::Adam`]:
//!
//! 1. [`update_moments`]: `g' = scale·g + σ·TruncatedNormal` (the global-norm clip factor and the
//!    stage-1 gradient noise, drawn by [`counter_truncated_normal`] inside the kernel), then
//!    `m ← β1 m + (1−β1) g'`, `v ← β2 v + (1−β2) g'²` on the moments stored as one `(2, n)` tensor;
//! 2. [`apply_update`]: `θ ← θ − lr_t · m / (sqrt(v) + ε)`.
//!
//! Composed from candle ops the same update took ~15 kernels and as many allocations per
//! variable, and the gradient noise (one draw per parameter, 5 M for Space Invaders) was drawn on
//! the host and copied each step. Arithmetic is in `f64` on both devices (the CUDA kernels are
//! built with `--fmad=false`), values are stored in the tensors' dtype.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, DType, InplaceOp2, Layout, Result, Tensor};
use rayon::prelude::*;

use crate::rng::counter_truncated_normal;
use crate::seed::mix64;

/// The gradient transform applied before the moments: clip factor and optional noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GradTransform {
    /// Factor on the raw gradient (global-norm clipping; 1 = none).
    pub scale: f64,
    /// Standard deviation of the added truncated-normal noise (0 = none).
    pub sigma: f64,
    /// Key of the noise stream (per step and variable, see [`noise_key`]).
    pub key: u64,
}

impl GradTransform {
    /// No clipping, no noise.
    pub const IDENTITY: GradTransform = GradTransform {
        scale: 1.0,
        sigma: 0.0,
        key: 0,
    };

    /// The transformed gradient element `i` of raw value `g`.
    #[inline]
    pub fn apply(&self, g: f64, i: u64) -> f64 {
        let g = self.scale * g;
        if self.sigma == 0.0 {
            g
        } else {
            g + self.sigma * counter_truncated_normal(self.key, i)
        }
    }
}

/// Noise key of variable `index` in a step whose noise key is `step_key`.
pub fn noise_key(step_key: u64, index: usize) -> u64 {
    mix64(step_key ^ mix64(index as u64 + 1))
}

struct MomentsOp {
    grad: GradTransform,
    beta1: f64,
    beta2: f64,
}

struct ApplyOp {
    lr_t: f64,
    eps: f64,
}

fn contiguous_range(l: &Layout, what: &str) -> Result<(usize, usize)> {
    l.contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg(format!("fused Adam: {what} must be contiguous")))
}

/// Elements per parallel chunk of the CPU kernels (each element depends only on its index, so
/// the result does not depend on the threads).
const CHUNK: usize = 16 * 1024;

/// The element loop of one of the two in-place ops on the host: `dst` updated from `src`.
trait CpuKernel {
    /// Elements of the destination per element of the source.
    const DST_PER_SRC: f64;
    fn run<T: candle_core::WithDType>(&self, dst: &mut [T], src: &[T]);
}

impl CpuKernel for MomentsOp {
    const DST_PER_SRC: f64 = 2.0;

    /// `dst` = moments `(2, n)`, `src` = gradient `(n)`.
    fn run<T: candle_core::WithDType>(&self, mv: &mut [T], g: &[T]) {
        let (m, v) = mv.split_at_mut(g.len());
        m.par_chunks_mut(CHUNK)
            .zip(v.par_chunks_mut(CHUNK))
            .zip(g.par_chunks(CHUNK))
            .enumerate()
            .for_each(|(c, ((m, v), g))| {
                for (j, ((m, v), &g)) in m.iter_mut().zip(v.iter_mut()).zip(g).enumerate() {
                    let g = self.grad.apply(g.to_f64(), (c * CHUNK + j) as u64);
                    *m = T::from_f64(self.beta1 * m.to_f64() + (1.0 - self.beta1) * g);
                    *v = T::from_f64(self.beta2 * v.to_f64() + (1.0 - self.beta2) * g * g);
                }
            });
    }
}

impl CpuKernel for ApplyOp {
    const DST_PER_SRC: f64 = 0.5;

    /// `dst` = parameter `(n)`, `src` = moments `(2, n)`.
    fn run<T: candle_core::WithDType>(&self, theta: &mut [T], mv: &[T]) {
        let (m, v) = mv.split_at(theta.len());
        theta
            .par_chunks_mut(CHUNK)
            .zip(m.par_chunks(CHUNK))
            .zip(v.par_chunks(CHUNK))
            .for_each(|((t, m), v)| {
                for ((t, m), v) in t.iter_mut().zip(m).zip(v) {
                    let upd = m.to_f64() / (v.to_f64().sqrt() + self.eps);
                    *t = T::from_f64(t.to_f64() - self.lr_t * upd);
                }
            });
    }
}

/// `InplaceOp2::cpu_fwd` of either op: checks, dtype dispatch, the kernel.
fn cpu_inplace<K: CpuKernel>(
    k: &K,
    name: &str,
    (s1, l1): (&mut CpuStorage, &Layout),
    (s2, l2): (&CpuStorage, &Layout),
) -> Result<()> {
    let [(a, b), (c, d)] = ranges(l1, l2, K::DST_PER_SRC, name)?;
    match (s1, s2) {
        (CpuStorage::F32(x), CpuStorage::F32(y)) => k.run(&mut x[a..b], &y[c..d]),
        (CpuStorage::F64(x), CpuStorage::F64(y)) => k.run(&mut x[a..b], &y[c..d]),
        (x, y) => candle_core::bail!(
            "fused Adam takes F32 or F64 of one dtype, got {:?} and {:?}",
            x.dtype(),
            y.dtype()
        ),
    }
    Ok(())
}

/// `(dst range, src range)` of an in-place op whose destination holds `dst_per_src` times the
/// source's elements.
fn ranges(l1: &Layout, l2: &Layout, dst_per_src: f64, name: &str) -> Result<[(usize, usize); 2]> {
    let a = contiguous_range(l1, "the destination")?;
    let b = contiguous_range(l2, "the source")?;
    if (a.1 - a.0) as f64 != dst_per_src * (b.1 - b.0) as f64 {
        candle_core::bail!(
            "{name}: destination {:?} and source {:?} sizes do not match",
            l1.dims(),
            l2.dims()
        );
    }
    Ok([a, b])
}

impl InplaceOp2 for MomentsOp {
    fn name(&self) -> &'static str {
        "silot-adam-moments"
    }

    fn cpu_fwd(
        &self,
        s1: &mut CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<()> {
        cpu_inplace(self, self.name(), (s1, l1), (s2, l2))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s1: &mut candle_core::CudaStorage,
        l1: &Layout,
        s2: &candle_core::CudaStorage,
        l2: &Layout,
    ) -> Result<()> {
        let [dst, src] = ranges(l1, l2, Self::DST_PER_SRC, self.name())?;
        let hyper = [self.grad.scale, self.grad.sigma, self.beta1, self.beta2];
        if super::cuda::is_f32(s2)? {
            super::cuda::adam_moments::<f32>(s1, dst, s2, src, hyper, self.grad.key)
        } else {
            super::cuda::adam_moments::<f64>(s1, dst, s2, src, hyper, self.grad.key)
        }
    }
}

impl InplaceOp2 for ApplyOp {
    fn name(&self) -> &'static str {
        "silot-adam-apply"
    }

    fn cpu_fwd(
        &self,
        s1: &mut CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<()> {
        cpu_inplace(self, self.name(), (s1, l1), (s2, l2))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s1: &mut candle_core::CudaStorage,
        l1: &Layout,
        s2: &candle_core::CudaStorage,
        l2: &Layout,
    ) -> Result<()> {
        let [dst, src] = ranges(l1, l2, Self::DST_PER_SRC, self.name())?;
        if super::cuda::is_f32(s2)? {
            super::cuda::adam_apply::<f32>(s1, dst, s2, src, [self.lr_t, self.eps])
        } else {
            super::cuda::adam_apply::<f64>(s1, dst, s2, src, [self.lr_t, self.eps])
        }
    }
}

fn check_pair(a: &Tensor, b: &Tensor, what: &str) -> Result<()> {
    if a.dtype() != b.dtype() || !matches!(a.dtype(), DType::F32 | DType::F64) {
        candle_core::bail!(
            "fused Adam: {what} must be F32 or F64 of one dtype, got {:?} and {:?}",
            a.dtype(),
            b.dtype()
        );
    }
    if !a.device().same_device(b.device()) {
        candle_core::bail!("fused Adam: {what} are on different devices");
    }
    Ok(())
}

/// Updates the moments `mv (2, n)` (first row `m`, second `v`, contiguous) in place from the raw
/// gradient `grad` (`n` elements, any shape) transformed by `t`.
pub fn update_moments(
    mv: &Tensor,
    grad: &Tensor,
    t: GradTransform,
    beta1: f64,
    beta2: f64,
) -> Result<()> {
    check_pair(mv, grad, "moments and gradient")?;
    let grad = grad.contiguous()?;
    mv.inplace_op2(
        &grad,
        &MomentsOp {
            grad: t,
            beta1,
            beta2,
        },
    )
}

/// `θ ← θ − lr_t · m / (sqrt(v) + ε)` in place, from the moments `mv (2, n)`.
pub fn apply_update(theta: &Tensor, mv: &Tensor, lr_t: f64, eps: f64) -> Result<()> {
    check_pair(theta, mv, "parameter and moments")?;
    theta.inplace_op2(mv, &ApplyOp { lr_t, eps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use candle_core::Device;

    fn check(dev: &Device) {
        // The fused ops against the same update composed from candle ops, noise included.
        let mut rng = SeededRng::new(5);
        let shape = [3usize, 70];
        let theta0 = rng.normal(&shape, dev).unwrap();
        let g = rng.normal(&shape, dev).unwrap();
        let m0 = (rng.normal(&shape, dev).unwrap() * 0.1).unwrap();
        let v0 = rng.uniform(&shape, 0.0, 0.2, dev).unwrap();
        let t = GradTransform {
            scale: 0.7,
            sigma: 0.3,
            key: noise_key(99, 4),
        };
        let (b1, b2, lr_t, eps) = (0.9, 0.999, 0.01, 1e-8);
        // Composed reference (f64 on the host).
        let noise: Vec<f64> = (0..210)
            .map(|i| counter_truncated_normal(t.key, i))
            .collect();
        let noise = Tensor::from_vec(noise, &shape[..], &Device::Cpu).unwrap();
        let host = |x: &Tensor| {
            x.to_device(&Device::Cpu)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap()
        };
        let gp = ((host(&g) * t.scale).unwrap() + (noise * t.sigma).unwrap()).unwrap();
        let m = ((host(&m0) * b1).unwrap() + (&gp * (1.0 - b1)).unwrap()).unwrap();
        let v = ((host(&v0) * b2).unwrap() + (gp.sqr().unwrap() * (1.0 - b2)).unwrap()).unwrap();
        let upd = (&m / (v.sqrt().unwrap() + eps).unwrap()).unwrap();
        let want = (host(&theta0) - (upd * lr_t).unwrap()).unwrap();
        // Fused, on `dev`.
        let theta = theta0.copy().unwrap();
        let mv = Tensor::stack(&[&m0, &v0], 0).unwrap();
        // A strided gradient (as matmul backward produces) is made contiguous first.
        let g_strided = g.t().unwrap().contiguous().unwrap().t().unwrap();
        assert!(!g_strided.is_contiguous());
        update_moments(&mv, &g_strided, t, b1, b2).unwrap();
        apply_update(&theta, &mv, lr_t, eps).unwrap();
        let diff = |a: &Tensor, b: &Tensor| -> f64 {
            (host(a) - b)
                .unwrap()
                .abs()
                .unwrap()
                .max_all()
                .unwrap()
                .to_scalar()
                .unwrap()
        };
        assert!(diff(&mv.get(0).unwrap(), &m) < 1e-6);
        assert!(diff(&mv.get(1).unwrap(), &v) < 1e-6);
        assert!(diff(&theta, &want) < 1e-6, "{}", diff(&theta, &want));
        // The parameter moved (the test is not vacuous).
        assert!(diff(&theta, &host(&theta0)) > 1e-3);
    }

    crate::test_device!(
        check,
        fused_adam_equals_composed_cpu,
        fused_adam_equals_composed_cuda
    );

    #[test]
    fn size_and_dtype_mismatches_are_errors() {
        let dev = Device::Cpu;
        let mv = Tensor::zeros((2, 4), DType::F32, &dev).unwrap();
        let g = Tensor::zeros(3, DType::F32, &dev).unwrap();
        let e = update_moments(&mv, &g, GradTransform::IDENTITY, 0.9, 0.99).unwrap_err();
        assert!(e.to_string().contains("sizes do not match"), "{e}");
        let g = Tensor::zeros(4, DType::F64, &dev).unwrap();
        let e = update_moments(&mv, &g, GradTransform::IDENTITY, 0.9, 0.99).unwrap_err();
        assert!(e.to_string().contains("one dtype"), "{e}");
    }
}
