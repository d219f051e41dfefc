//! Elementwise Bernoulli terms as one op each: the reconstruction's negative log-likelihood
//! (reference §2.9) and the count prior's KL between Bernoullis (§4.4), both with the
//! reference's safe log `sl(x) = log(x + 1e-9)` (−100 where that is not finite).
//!
//! Composed from candle ops, each safe log is ~9 graph nodes and each term 2–4 safe logs plus
//! products: ~25 nodes for the NLL and ~45 for the KL, every frame, each costing a kernel
//! forward and, in candle's backward pass, a zero fill and an add (`benches/results/
//! cuda_train_step_profile.md`). Here each is one kernel forward and one backward; the second
//! argument (the data, or the count prior's `ρ`) carries no gradient. The composed forms
//! ([`super::dist::bernoulli_nll`], [`bernoulli_kl_composed`]) are the references the tests
//! compare against, and the path taken when [`super::set_fused_epilogues`] is off or the dtype
//! is not F32/F64. One difference: where `x + 1e-9` is exactly 0 the composed gradient is
//! `0/0 = NaN`, here 0 (as everywhere else the safe log is clipped).

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp2, DType, Layout, Result, Shape, Tensor, WithDType};

use super::cpu::{self, storage_slice};
use super::dist::{bernoulli_nll, safe_log};

/// Which term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `−[b·sl(a) + (1−b)·sl(1−a)]`: NLL of targets `b` under means `a`.
    Nll = 0,
    /// `a(sl(a) − sl(b)) + (1−a)(sl(1−a) − sl(1−b))`: `KL(Bern(a) ‖ Bern(b))`.
    Kl = 1,
}

/// The op: the term (`backward` off) or its derivative in `a` (`backward` on, applied
/// without a gradient of its own).
#[derive(Debug, Clone, Copy)]
struct BernoulliTerm {
    kind: Kind,
    backward: bool,
}

/// `(sl(x), sl'(x))`.
#[inline]
fn safe_log_d(x: f64) -> (f64, f64) {
    let v = x + 1e-9;
    let y = v.ln();
    match y.is_finite() {
        true => (y, 1.0 / v),
        false => (-100.0, 0.0),
    }
}

impl BernoulliTerm {
    fn eval(&self, x: f64, y: f64) -> f64 {
        let ((la, da), (lna, dna)) = (safe_log_d(x), safe_log_d(1.0 - x));
        match (self.kind, self.backward) {
            (Kind::Nll, false) => -(y * la + (1.0 - y) * lna),
            (Kind::Nll, true) => -(y * da - (1.0 - y) * dna),
            (Kind::Kl, b) => {
                let ((lb, _), (lnb, _)) = (safe_log_d(y), safe_log_d(1.0 - y));
                match b {
                    false => x * (la - lb) + (1.0 - x) * (lna - lnb),
                    true => la - lb + x * da - lna + lnb - (1.0 - x) * dna,
                }
            }
        }
    }

    fn cpu<T: WithDType>(&self, a: &[T], b: &[T]) -> Vec<T> {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| T::from_f64(self.eval(x.to_f64(), y.to_f64())))
            .collect()
    }
}

impl CustomOp2 for BernoulliTerm {
    fn name(&self) -> &'static str {
        match (self.kind, self.backward) {
            (Kind::Nll, false) => "silot-bernoulli-nll",
            (Kind::Nll, true) => "silot-bernoulli-nll-bwd",
            (Kind::Kl, false) => "silot-bernoulli-kl",
            (Kind::Kl, true) => "silot-bernoulli-kl-bwd",
        }
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let out = cpu::by_float!(s1, "the Bernoulli terms op", T => {
            self.cpu(storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?)
        });
        Ok((out, l1.shape().clone()))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s1: &candle_core::CudaStorage,
        l1: &Layout,
        s2: &candle_core::CudaStorage,
        l2: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let n = l1.shape().elem_count();
        let (kind, bw) = (self.kind as i32, self.backward);
        let st = cuda::by_float!(s1, T => cuda::bernoulli::<T>((s1, l1), (s2, l2), n, kind, bw)?);
        Ok((st, l1.shape().clone()))
    }

    fn bwd(
        &self,
        a: &Tensor,
        b: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        if self.backward {
            candle_core::bail!("Bernoulli terms: the derivative kernel has no gradient");
        }
        let kernel = BernoulliTerm {
            backward: true,
            ..*self
        };
        let d = a.apply_op2_no_bwd(b, &kernel)?;
        Ok((Some(d.mul(grad)?), None))
    }
}

/// Applies `kind` fused when possible: same shapes, F32/F64, fused epilogues on.
fn fused(a: &Tensor, b: &Tensor, kind: Kind) -> Result<Option<Tensor>> {
    let ok = super::fused_epilogues()
        && a.dims() == b.dims()
        && a.dtype() == b.dtype()
        && matches!(a.dtype(), DType::F32 | DType::F64);
    if !ok {
        return Ok(None);
    }
    let op = BernoulliTerm {
        kind,
        backward: false,
    };
    Ok(Some(
        a.contiguous()?.apply_op2(&b.detach().contiguous()?, op)?,
    ))
}

/// Elementwise NLL of targets `x ∈ [0, 1]` under means `x_hat` (same shape):
/// `−[x·sl(x̂) + (1−x)·sl(1−x̂)]`, differentiable in `x_hat` only (`x` is data). One fused
/// op (see the module docs), else [`bernoulli_nll`].
pub fn bernoulli_nll_fused(x_hat: &Tensor, x: &Tensor) -> Result<Tensor> {
    match fused(x_hat, x, Kind::Nll)? {
        Some(t) => Ok(t),
        None => bernoulli_nll(x_hat, &x.detach()),
    }
}

/// `KL(Bern(q) ‖ Bern(r))` elementwise with safe logs, composed from candle ops (the reference
/// of [`bernoulli_kl`]); differentiable in `q`.
pub fn bernoulli_kl_composed(q: &Tensor, r: &Tensor) -> Result<Tensor> {
    let r = r.detach();
    let one_q = q.affine(-1.0, 1.0)?;
    let one_r = r.affine(-1.0, 1.0)?;
    let on = q.mul(&(safe_log(q)? - safe_log(&r)?)?)?;
    let off = one_q.mul(&(safe_log(&one_q)? - safe_log(&one_r)?)?)?;
    on + off
}

/// `KL(Bern(q) ‖ Bern(r))` elementwise (same shapes) with safe logs, differentiable in `q`
/// only. One fused op (see the module docs), else [`bernoulli_kl_composed`].
pub fn bernoulli_kl(q: &Tensor, r: &Tensor) -> Result<Tensor> {
    match fused(q, r, Kind::Kl)? {
        Some(t) => Ok(t),
        None => bernoulli_kl_composed(q, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use crate::testing::max_abs_diff;
    use candle_core::{Device, Var};

    /// Fused and composed forms agree in value and gradient (F64 and F32), including the
    /// clipped ends of the safe log (values 0 and 1, and below 0).
    fn agrees_with_composed(dev: &Device) {
        let mut rng = SeededRng::new(31);
        for dtype in [DType::F64, DType::F32] {
            let tol = if dtype == DType::F64 { 1e-9 } else { 2e-3 };
            let mut a = rng.uniform(&[4, 7], 0.02, 0.98, dev).unwrap();
            let b = rng.uniform(&[4, 7], 0.0, 1.0, dev).unwrap();
            // A few exact ends: a = 1 and b = 0 / 1 (sl(1 − a) and sl(b) hit the 1e-9 floor).
            let ends = Tensor::new(&[[1.0f32, 0.5, 0.3, 0.9, 0.6, 0.2, 0.7]], dev).unwrap();
            a = Tensor::cat(&[&a.narrow(0, 0, 3).unwrap(), &ends], 0).unwrap();
            let b = b
                .slice_assign(&[0..1, 0..2], &Tensor::new(&[[0.0f32, 1.0]], dev).unwrap())
                .unwrap();
            let a = Var::from_tensor(&a.to_dtype(dtype).unwrap()).unwrap();
            let b = b.to_dtype(dtype).unwrap();
            let g = rng
                .uniform(&[4, 7], 0.5, 1.5, dev)
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            type Pair = (
                fn(&Tensor, &Tensor) -> Result<Tensor>,
                fn(&Tensor, &Tensor) -> Result<Tensor>,
            );
            let pairs: [(&str, Pair); 2] = [
                ("nll", (bernoulli_nll_fused, bernoulli_nll)),
                ("kl", (bernoulli_kl, bernoulli_kl_composed)),
            ];
            for (name, (fused, composed)) in pairs {
                let run = |f: fn(&Tensor, &Tensor) -> Result<Tensor>| {
                    let y = f(&a, &b).unwrap();
                    let grads = (&y * &g).unwrap().sum_all().unwrap().backward().unwrap();
                    (y, grads.get(&a).unwrap().clone())
                };
                let ((y1, g1), (y0, g0)) = (run(fused), run(composed));
                let (ey, eg) = (max_abs_diff(&y1, &y0), max_abs_diff(&g1, &g0));
                // Relative: the gradient near the 1e-9 floor is ~1e9.
                let scale = crate::testing::max_abs(&g0).max(1.0);
                assert!(ey < tol * 10.0, "{name} {dtype:?}: value {ey}");
                assert!(
                    eg < tol * scale,
                    "{name} {dtype:?}: gradient {eg} (scale {scale})"
                );
            }
        }
    }

    crate::test_device!(agrees_with_composed, bernoulli_cpu, bernoulli_cuda);

    /// Known values and a finite-difference gradient of the fused KL.
    #[test]
    fn kl_known_values_and_finite_differences() {
        let dev = Device::Cpu;
        let q = Tensor::new(&[0.3f64, 0.5, 0.9], &dev).unwrap();
        let r = Tensor::new(&[0.3f64, 0.25, 0.5], &dev).unwrap();
        let kl: Vec<f64> = bernoulli_kl(&q, &r).unwrap().to_vec1().unwrap();
        let exact = |q: f64, r: f64| q * (q / r).ln() + (1.0 - q) * ((1.0 - q) / (1.0 - r)).ln();
        for (i, (&qi, &ri)) in [0.3, 0.5, 0.9].iter().zip(&[0.3, 0.25, 0.5]).enumerate() {
            assert!((kl[i] - exact(qi, ri)).abs() < 1e-7, "{i}: {}", kl[i]);
        }
        let qv = Var::from_tensor(&q).unwrap();
        let g: Vec<f64> = bernoulli_kl(&qv, &r)
            .unwrap()
            .sum_all()
            .unwrap()
            .backward()
            .unwrap()
            .get(&qv)
            .unwrap()
            .to_vec1()
            .unwrap();
        for i in 0..3 {
            let f = |d: f64| {
                let mut v = [0.3, 0.5, 0.9];
                v[i] += d;
                let t = Tensor::new(&v, &dev).unwrap();
                bernoulli_kl(&t, &r)
                    .unwrap()
                    .sum_all()
                    .unwrap()
                    .to_scalar::<f64>()
                    .unwrap()
            };
            let fd = (f(1e-6) - f(-1e-6)) / 2e-6;
            assert!((fd - g[i]).abs() < 1e-6, "{i}: fd {fd} vs {}", g[i]);
        }
    }
}
