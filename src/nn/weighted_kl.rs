//! The presence-weighted Normal KL against a fixed prior as one op (reference §4.2):
//! `out[b, n] = w[b, n] · Σ_d KL(N(μ[b, n, d], σ[b, n, d]) ‖ N(μ_p, σ_p))`.
//!
//! A training step is bound by per-tensor host work on the GPU (`benches/results/
//! cuda_train_step_profile.md`): every graph node costs a kernel forward and, in candle's
//! backward pass, a zero fill, an add and the node's own gradient kernels. The eight static-prior
//! KLs of a frame took ~12 nodes each composed (KL, weighting, reductions); here each is one
//! forward kernel and one backward kernel (plus a product for the weight's gradient). The
//! composed form ([`weighted_kl_fixed_composed`]) is the reference the tests compare against,
//! and the path taken when [`super::set_fused_epilogues`] is off or the dtype is not F32/F64.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp3, DType, Layout, Result, Shape, Tensor, WithDType, D};

use super::cpu::{self, storage_slice};
use super::dist::normal_kl_fixed;

/// `Σ_d KL(N(μ, σ) ‖ N(pm, ps))` of one row.
#[inline]
fn row_kl<T: WithDType>(m: &[T], s: &[T], pm: f64, ps: f64) -> f64 {
    let (scale, c) = (1.0 / (2.0 * ps * ps), ps.ln() - 0.5);
    m.iter()
        .zip(s)
        .map(|(&m, &s)| {
            let (m, s) = (m.to_f64(), s.to_f64());
            ((m - pm).powi(2) + s * s) * scale + c - s.ln()
        })
        .sum()
}

/// The kernel pair. Forward (`backward` off): `(B, N, D)` mean and std, `(B, N, 1)` weight →
/// `(B, N)`. Backward kernel (`backward` on, applied without a gradient of its own): mean, std
/// and `gw = grad·w (B, N)` → `(B, N, 2D + 1)` packed `[∂μ | ∂σ | Σ_d KL]` (the weight's
/// gradient is `grad · Σ_d KL`).
#[derive(Clone, Copy)]
struct WeightedKlFixed {
    prior_mean: f64,
    prior_std: f64,
    backward: bool,
}

impl WeightedKlFixed {
    fn out_shape(&self, l: &Layout) -> Result<Shape> {
        let (_, d) = rows_dims(l)?;
        let dims = l.dims();
        Ok(match self.backward {
            false => Shape::from((dims[0], dims[1])),
            true => Shape::from((dims[0], dims[1], 2 * d + 1)),
        })
    }
}

fn fwd_cpu<T: WithDType>(m: &[T], s: &[T], w: &[T], d: usize, pm: f64, ps: f64) -> Vec<T> {
    m.chunks(d)
        .zip(s.chunks(d))
        .zip(w)
        .map(|((m, s), &w)| T::from_f64(w.to_f64() * row_kl(m, s, pm, ps)))
        .collect()
}

fn bwd_cpu<T: WithDType>(m: &[T], s: &[T], gw: &[T], d: usize, pm: f64, ps: f64) -> Vec<T> {
    let inv_var = 1.0 / (ps * ps);
    let mut out = vec![T::zero(); gw.len() * (2 * d + 1)];
    for (((o, m), s), &gw) in out
        .chunks_mut(2 * d + 1)
        .zip(m.chunks(d))
        .zip(s.chunks(d))
        .zip(gw)
    {
        let gw = gw.to_f64();
        for j in 0..d {
            let (mj, sj) = (m[j].to_f64(), s[j].to_f64());
            o[j] = T::from_f64(gw * (mj - pm) * inv_var);
            o[d + j] = T::from_f64(gw * (sj * inv_var - 1.0 / sj));
        }
        o[2 * d] = T::from_f64(row_kl(m, s, pm, ps));
    }
    out
}

/// `(B·N, D)` of a `(B, N, D)` layout.
fn rows_dims(l: &Layout) -> Result<(usize, usize)> {
    let dims = l.dims();
    match dims {
        [b, n, d] => Ok((b * n, *d)),
        _ => candle_core::bail!("weighted KL: expected (B, N, D) inputs, got {dims:?}"),
    }
}

impl CustomOp3 for WeightedKlFixed {
    fn name(&self) -> &'static str {
        match self.backward {
            false => "silot-weighted-kl-fixed",
            true => "silot-weighted-kl-fixed-bwd",
        }
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
        s3: &CpuStorage,
        l3: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let (_, d) = rows_dims(l1)?;
        let (pm, ps) = (self.prior_mean, self.prior_std);
        let out = cpu::by_float!(s1, "weighted KL", T => {
            let (m, s) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?);
            let w = storage_slice::<T>(s3, l3)?;
            match self.backward {
                false => fwd_cpu(m, s, w, d, pm, ps),
                true => bwd_cpu(m, s, w, d, pm, ps),
            }
        });
        Ok((out, self.out_shape(l1)?))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s1: &candle_core::CudaStorage,
        l1: &Layout,
        s2: &candle_core::CudaStorage,
        l2: &Layout,
        s3: &candle_core::CudaStorage,
        l3: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let (rows, d) = rows_dims(l1)?;
        let args = ((s1, l1), (s2, l2), (s3, l3));
        let prior = (self.prior_mean, self.prior_std);
        let bw = self.backward;
        let st = cuda::by_float!(s1, T => cuda::weighted_kl::<T>(args, rows, d, prior, bw)?);
        Ok((st, self.out_shape(l1)?))
    }

    fn bwd(
        &self,
        mean: &Tensor,
        std: &Tensor,
        w: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let d = mean.dim(D::Minus1)?;
        let gw = (grad * w.squeeze(D::Minus1)?)?;
        if self.backward {
            candle_core::bail!("weighted KL: the backward kernel has no gradient");
        }
        let kernel = WeightedKlFixed {
            backward: true,
            ..*self
        };
        let packed = mean.apply_op3_no_bwd(std, &gw, &kernel)?;
        let d_mean = packed.narrow(D::Minus1, 0, d)?;
        let d_std = packed.narrow(D::Minus1, d, d)?;
        let d_w = packed
            .narrow(D::Minus1, 2 * d, 1)?
            .broadcast_mul(&grad.unsqueeze(D::Minus1)?)?;
        Ok((Some(d_mean), Some(d_std), Some(d_w)))
    }
}

/// `w ⊙ Σ_d KL(N(mean, std) ‖ N(prior_mean, prior_std))` composed from candle ops: `mean`,
/// `std` `(B, N, D)`, `w` `(B, N, 1)` → `(B, N)` (the reference of the fused op).
pub fn weighted_kl_fixed_composed(
    mean: &Tensor,
    std: &Tensor,
    w: &Tensor,
    prior_mean: f64,
    prior_std: f64,
) -> Result<Tensor> {
    normal_kl_fixed(mean, std, prior_mean, prior_std)?
        .sum(D::Minus1)?
        .mul(&w.squeeze(D::Minus1)?)
}

/// `w ⊙ Σ_d KL(N(mean, std) ‖ N(prior_mean, prior_std))`: `mean`, `std` `(B, N, D)`, `w`
/// `(B, N, 1)` → `(B, N)`; differentiable in all three. One kernel forward and one backward on
/// F32/F64 (see the module docs), else the composed form.
pub fn weighted_kl_fixed(
    mean: &Tensor,
    std: &Tensor,
    w: &Tensor,
    prior_mean: f64,
    prior_std: f64,
) -> Result<Tensor> {
    let (b, n, d) = mean.dims3()?;
    if std.dims() != [b, n, d] || w.dims() != [b, n, 1] {
        candle_core::bail!(
            "weighted KL: mean {:?}, std {:?} and weight {:?} must be (B, N, D), (B, N, D), (B, N, 1)",
            mean.dims(),
            std.dims(),
            w.dims()
        );
    }
    let fused = super::fused_epilogues()
        && matches!(mean.dtype(), DType::F32 | DType::F64)
        && std.dtype() == mean.dtype()
        && w.dtype() == mean.dtype();
    if !fused {
        return weighted_kl_fixed_composed(mean, std, w, prior_mean, prior_std);
    }
    mean.contiguous()?.apply_op3(
        &std.contiguous()?,
        &w.contiguous()?,
        WeightedKlFixed {
            prior_mean,
            prior_std,
            backward: false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use crate::testing::max_abs_diff;
    use candle_core::{Device, Var};

    /// Fused and composed forms agree in value and in all three gradients, also on strided
    /// inputs (narrows of a wider tensor, as the model passes them).
    fn agrees_with_composed(dev: &Device) {
        let mut rng = SeededRng::new(11);
        let (b, n, d) = (3, 5, 4);
        let wide = Var::from_tensor(&rng.normal(&[b, n, 2 * d], dev).unwrap()).unwrap();
        let std_logit = Var::from_tensor(&rng.normal(&[b, n, d], dev).unwrap()).unwrap();
        let w = Var::from_tensor(&rng.uniform(&[b, n, 1], 0.0, 1.0, dev).unwrap()).unwrap();
        let g = rng.uniform(&[b, n], 0.5, 1.5, dev).unwrap();
        let run = |fused: bool| {
            let mean = wide.narrow(2, d, d).unwrap(); // strided rows
            let std = crate::nn::dist::std_from_logit(&std_logit).unwrap();
            let y = if fused {
                weighted_kl_fixed(&mean, &std, &w, 0.3, 1.7).unwrap()
            } else {
                weighted_kl_fixed_composed(&mean, &std, &w, 0.3, 1.7).unwrap()
            };
            let grads = (&y * &g).unwrap().sum_all().unwrap().backward().unwrap();
            let get = |v: &Var| grads.get(v).unwrap().clone();
            (y, get(&wide), get(&std_logit), get(&w))
        };
        let (a, b_) = (run(true), run(false));
        assert_eq!(a.0.dims(), &[b, n]);
        assert!(max_abs_diff(&a.0, &b_.0) < 1e-5, "values");
        assert!(max_abs_diff(&a.1, &b_.1) < 1e-5, "mean gradient");
        assert!(max_abs_diff(&a.2, &b_.2) < 1e-5, "std gradient");
        assert!(max_abs_diff(&a.3, &b_.3) < 1e-5, "weight gradient");
    }

    crate::test_device!(
        agrees_with_composed,
        fused_agrees_with_composed_cpu,
        fused_agrees_with_composed_cuda
    );

    #[test]
    fn known_value_and_shape_errors() {
        let dev = Device::Cpu;
        // KL(N(.5, 2) ‖ N(0, 1)) = log(1/2) + (4 + .25)/2 − .5, weighted by 0.5, over D = 2
        // identical columns.
        let m = Tensor::new(&[[[0.5f32, 0.5]]], &dev).unwrap();
        let s = Tensor::new(&[[[2.0f32, 2.0]]], &dev).unwrap();
        let w = Tensor::new(&[[[0.5f32]]], &dev).unwrap();
        let v = weighted_kl_fixed(&m, &s, &w, 0.0, 1.0)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()[0];
        let want = 0.5 * 2.0 * (0.5f64.ln() + 4.25 / 2.0 - 0.5);
        assert!((v as f64 - want).abs() < 1e-5, "{v} vs {want}");
        let err = weighted_kl_fixed(&m, &s, &m, 0.0, 1.0).unwrap_err();
        assert!(err.to_string().contains("(B, N, 1)"), "{err}");
    }

    /// Finite differences in f64 through the fused op.
    #[test]
    fn gradient_matches_finite_differences() {
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(5);
        let m0 = rng
            .normal(&[2, 3, 2], &dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let s0 = rng
            .uniform(&[2, 3, 2], 0.3, 2.0, &dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let w0 = rng
            .uniform(&[2, 3, 1], 0.1, 1.0, &dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let f = |m: &Tensor, s: &Tensor, w: &Tensor| -> f64 {
            weighted_kl_fixed(m, s, w, -0.2, 0.8)
                .unwrap()
                .sum_all()
                .unwrap()
                .to_scalar::<f64>()
                .unwrap()
        };
        let (vm, vs, vw) = (
            Var::from_tensor(&m0).unwrap(),
            Var::from_tensor(&s0).unwrap(),
            Var::from_tensor(&w0).unwrap(),
        );
        let grads = weighted_kl_fixed(&vm, &vs, &vw, -0.2, 0.8)
            .unwrap()
            .sum_all()
            .unwrap()
            .backward()
            .unwrap();
        let eps = 1e-6;
        for (which, x0) in [(0, &m0), (1, &s0), (2, &w0)] {
            let g: Vec<f64> = grads
                .get([&vm, &vs, &vw][which])
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            let base: Vec<f64> = x0.flatten_all().unwrap().to_vec1().unwrap();
            for i in 0..base.len() {
                let shifted = |delta: f64| {
                    let mut v = base.clone();
                    v[i] += delta;
                    Tensor::from_vec(v, x0.shape(), &dev).unwrap()
                };
                let (up, down) = (shifted(eps), shifted(-eps));
                let (fu, fd) = match which {
                    0 => (f(&up, &s0, &w0), f(&down, &s0, &w0)),
                    1 => (f(&m0, &up, &w0), f(&m0, &down, &w0)),
                    _ => (f(&m0, &s0, &up), f(&m0, &s0, &down)),
                };
                let fd_grad = (fu - fd) / (2.0 * eps);
                assert!(
                    (fd_grad - g[i]).abs() < 1e-6,
                    "input {which}[{i}]: {fd_grad} vs {}",
                    g[i]
                );
            }
        }
    }
}
