//! The propagation's SQAIR gated `what` update as one custom op, forward and backward.
//!
//! Composed from candle ops the update is ~35 tensors per propagation layer (narrows, copies,
//! three gates, two standard deviations, products and sums) and as many graph nodes, each of
//! which candle's backward pass visits and accumulates a gradient for (a zeros tensor and an
//! add per edge): host work, which bounds the training step on a GPU
//! (`benches/results/cuda_train_step_profile.md`). Fused, it is one node of three inputs, and its
//! backward is one kernel: 34 tensors fewer per layer, 7 % of a Space Invaders training step's.
//! [`gated_what_update_composed`] is the reference the tests compare
//! against; it also runs for dtypes other than F32/F64 and with
//! [`super::set_fused_epilogues`] off.
//!
//! With `A` the `what` size, per object (reference §2.4, SQAIR's update;
//! `gate(x) = 0.9999·σ(x + 1)`, `s(ℓ) = 2·σ(clamp(ℓ, −10, 10))`):
//! * `inp (B, K, 2A)` = `[μ_in | ℓ_in]`, `tmp (B, K, 5A)` = `[μ_tmp | ℓ_tmp | f̃ | ĩ | τ̃]`,
//!   `prev (B, K, A)` the previous `what`;
//! * `f, i, τ = gate(f̃), gate(ĩ), gate(τ̃)`;
//! * `μ = f·prev + (1 − i)·μ_in + (1 − τ)·μ_tmp`, `σ = (1 − i)·s(ℓ_in) + (1 − τ)·s(ℓ_tmp)`.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp3, DType, Layout, Result, Shape, Tensor, WithDType, D};
use rayon::prelude::*;

use super::cpu::{self, storage_slice};
use super::epilogue::sigmoid;

/// `gate(x) = GATE_SCALE·σ(x + 1)`: SQAIR keeps the gates below 1.
const GATE_SCALE: f64 = 0.9999;
/// `s(ℓ) = 2·σ(clamp(ℓ, −LOGIT_CLIP, LOGIT_CLIP))` ([`super::dist::std_from_logit`]).
const LOGIT_CLIP: f64 = 10.0;

/// `(s(ℓ), ds/dℓ)`; the derivative is 0 outside the clip, as the clamp's gradient.
fn std_and_slope(l: f64) -> (f64, f64) {
    let c = l.clamp(-LOGIT_CLIP, LOGIT_CLIP);
    let sg = sigmoid(c);
    let inside = (-LOGIT_CLIP..=LOGIT_CLIP).contains(&l);
    (2.0 * sg, if inside { 2.0 * sg * (1.0 - sg) } else { 0.0 })
}

/// `(gate(x), gate'(x))`.
fn gate_and_slope(x: f64) -> (f64, f64) {
    let sg = sigmoid(x + 1.0);
    (GATE_SCALE * sg, GATE_SCALE * sg * (1.0 - sg))
}

/// One object's `A` values: `inp` 2A, `tmp` 5A, `prev` A → `(μ, σ)` into `mu`, `sd` (A each).
fn forward_row<T: WithDType>(inp: &[T], tmp: &[T], prev: &[T], mu: &mut [T], sd: &mut [T]) {
    let a = prev.len();
    for j in 0..a {
        let at = |s: &[T], c: usize| s[c * a + j].to_f64();
        let (f, _) = gate_and_slope(at(tmp, 2));
        let (i, _) = gate_and_slope(at(tmp, 3));
        let (tau, _) = gate_and_slope(at(tmp, 4));
        let (s_in, _) = std_and_slope(at(inp, 1));
        let (s_tmp, _) = std_and_slope(at(tmp, 1));
        let m = f * prev[j].to_f64() + (1.0 - i) * at(inp, 0) + (1.0 - tau) * at(tmp, 0);
        mu[j] = T::from_f64(m);
        sd[j] = T::from_f64((1.0 - i) * s_in + (1.0 - tau) * s_tmp);
    }
}

/// One object's gradients from `(∂L/∂μ, ∂L/∂σ)` (`gmu`, `gsd`, A each) into `g_inp` (2A),
/// `g_tmp` (5A), `g_prev` (A).
fn backward_row<T: WithDType>(
    (inp, tmp, prev): (&[T], &[T], &[T]),
    (gmu, gsd): (&[T], &[T]),
    g_inp: &mut [T],
    g_tmp: &mut [T],
    g_prev: &mut [T],
) {
    let a = prev.len();
    for j in 0..a {
        let at = |s: &[T], c: usize| s[c * a + j].to_f64();
        let (gm, gs) = (gmu[j].to_f64(), gsd[j].to_f64());
        let (f, df) = gate_and_slope(at(tmp, 2));
        let (i, di) = gate_and_slope(at(tmp, 3));
        let (tau, dtau) = gate_and_slope(at(tmp, 4));
        let (s_in, ds_in) = std_and_slope(at(inp, 1));
        let (s_tmp, ds_tmp) = std_and_slope(at(tmp, 1));
        let (mu_in, mu_tmp, pv) = (at(inp, 0), at(tmp, 0), prev[j].to_f64());
        g_inp[j] = T::from_f64((1.0 - i) * gm);
        g_inp[a + j] = T::from_f64((1.0 - i) * ds_in * gs);
        g_tmp[j] = T::from_f64((1.0 - tau) * gm);
        g_tmp[a + j] = T::from_f64((1.0 - tau) * ds_tmp * gs);
        g_tmp[2 * a + j] = T::from_f64(pv * gm * df);
        g_tmp[3 * a + j] = T::from_f64(-(mu_in * gm + s_in * gs) * di);
        g_tmp[4 * a + j] = T::from_f64(-(mu_tmp * gm + s_tmp * gs) * dtau);
        g_prev[j] = T::from_f64(f * gm);
    }
}

/// Forward on the host: `(2, R, A)` = `[μ; σ]` for `R` objects.
fn forward_cpu<T: WithDType>(inp: &[T], tmp: &[T], prev: &[T], a: usize) -> Vec<T> {
    let r = prev.len() / a.max(1);
    let mut out = vec![T::zero(); 2 * r * a];
    let (mu, sd) = out.split_at_mut(r * a);
    mu.par_chunks_mut(a)
        .zip(sd.par_chunks_mut(a))
        .zip(inp.par_chunks(2 * a))
        .zip(tmp.par_chunks(5 * a))
        .zip(prev.par_chunks(a))
        .for_each(|((((m, s), i), t), p)| forward_row(i, t, p, m, s));
    out
}

/// Backward on the host: `[g_inp (R·2A) | g_tmp (R·5A) | g_prev (R·A)]` from `grad (2, R, A)`.
fn backward_cpu<T: WithDType>(inp: &[T], tmp: &[T], prev: &[T], grad: &[T], a: usize) -> Vec<T> {
    let r = prev.len() / a.max(1);
    let mut out = vec![T::zero(); 8 * r * a];
    let (g_inp, rest) = out.split_at_mut(2 * r * a);
    let (g_tmp, g_prev) = rest.split_at_mut(5 * r * a);
    let (gmu, gsd) = grad.split_at(r * a);
    g_inp
        .par_chunks_mut(2 * a)
        .zip(g_tmp.par_chunks_mut(5 * a))
        .zip(g_prev.par_chunks_mut(a))
        .enumerate()
        .for_each(|(o, ((gi, gt), gp))| {
            let rows = (
                &inp[o * 2 * a..(o + 1) * 2 * a],
                &tmp[o * 5 * a..(o + 1) * 5 * a],
                &prev[o * a..(o + 1) * a],
            );
            let g = (&gmu[o * a..(o + 1) * a], &gsd[o * a..(o + 1) * a]);
            backward_row(rows, g, gi, gt, gp);
        });
    out
}

/// The fused op on `(inp, tmp, prev)`: without `grad` the forward, `(2, B, K, A)`; with the
/// output's gradient `grad` the backward, the three inputs' gradients flat and one after the
/// other (`8·B·K·A` values).
struct GatedWhat {
    grad: Option<Tensor>,
}

/// `(R, A)`: objects and `what` size, checking the three inputs' shapes agree.
fn rows_and_width(inp: &Layout, tmp: &Layout, prev: &Layout) -> Result<(usize, usize)> {
    let a = prev.shape().dims().last().copied().unwrap_or(0);
    let r = prev.shape().elem_count() / a.max(1);
    if inp.shape().elem_count() != 2 * r * a || tmp.shape().elem_count() != 5 * r * a {
        candle_core::bail!(
            "gated_what_update: inp {:?} / tmp {:?} do not hold 2A / 5A values per object of prev {:?}",
            inp.shape().dims(),
            tmp.shape().dims(),
            prev.shape().dims()
        );
    }
    Ok((r, a))
}

impl GatedWhat {
    fn out_shape(&self, prev: &Layout) -> Shape {
        match self.grad {
            Some(_) => Shape::from(8 * prev.shape().elem_count()),
            None => {
                let mut dims = vec![2];
                dims.extend_from_slice(prev.shape().dims());
                Shape::from(dims)
            }
        }
    }
}

impl CustomOp3 for GatedWhat {
    fn name(&self) -> &'static str {
        match self.grad {
            Some(_) => "silot-gated-what-grad",
            None => "silot-gated-what",
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
        let (_, a) = rows_and_width(l1, l2, l3)?;
        let grad = self.grad.as_ref().map(|g| g.storage_and_layout());
        let grad = match &grad {
            None => None,
            Some((st, gl)) => match &**st {
                candle_core::Storage::Cpu(g) => Some((g, *gl)),
                _ => candle_core::bail!("gated_what_update: gradient not in host memory"),
            },
        };
        let out = cpu::by_float!(s1, "gated_what_update", T => {
            let (i, t, p) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?, storage_slice::<T>(s3, l3)?);
            match grad {
                None => forward_cpu(i, t, p, a),
                Some((g, gl)) => backward_cpu(i, t, p, storage_slice::<T>(g, gl)?, a),
            }
        });
        Ok((out, self.out_shape(l3)))
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
        let (r, a) = rows_and_width(l1, l2, l3)?;
        let grad = self.grad.as_ref().map(|g| g.storage_and_layout());
        let grad = match &grad {
            None => None,
            Some((st, gl)) => match &**st {
                candle_core::Storage::Cuda(g) => Some((g, *gl)),
                _ => candle_core::bail!("gated_what_update: gradient not on the GPU"),
            },
        };
        let ins = ((s1, l1), (s2, l2), (s3, l3));
        let st = cuda::by_float!(s1, T => cuda::gated_what::<T>(ins, grad, (r, a))?);
        Ok((st, self.out_shape(l3)))
    }

    fn bwd(
        &self,
        inp: &Tensor,
        tmp: &Tensor,
        prev: &Tensor,
        _res: &Tensor,
        grad_res: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let op = GatedWhat {
            grad: Some(grad_res.contiguous()?),
        };
        let flat = inp.apply_op3_no_bwd(tmp, prev, &op)?; // (8·R·A)
        let n = prev.elem_count();
        let part = |start: usize, len: usize, like: &Tensor| {
            flat.narrow(0, start, len)?.reshape(like.shape())
        };
        Ok((
            Some(part(0, 2 * n, inp)?),
            Some(part(2 * n, 5 * n, tmp)?),
            Some(part(7 * n, n, prev)?),
        ))
    }
}

/// The gated `what` update's `(μ, σ)`, each `(B, K, A)` (see the module docs for the inputs):
/// one custom op (a contiguous `(2, B, K, A)` result, whose two halves are returned as views),
/// differentiable in all three inputs.
pub fn gated_what_update(inp: &Tensor, tmp: &Tensor, prev: &Tensor) -> Result<(Tensor, Tensor)> {
    let a = prev.dim(D::Minus1)?;
    for (t, width, name) in [(inp, 2 * a, "inp"), (tmp, 5 * a, "tmp")] {
        if t.dim(D::Minus1)? != width || t.elem_count() != prev.elem_count() / a.max(1) * width {
            candle_core::bail!(
                "gated_what_update: {name} {:?} should be prev {:?} with last axis {width}",
                t.dims(),
                prev.dims()
            );
        }
    }
    let fused = super::fused_epilogues()
        && [inp, tmp].iter().all(|t| t.dtype() == prev.dtype())
        && matches!(prev.dtype(), DType::F32 | DType::F64);
    if !fused {
        return gated_what_update_composed(inp, tmp, prev);
    }
    gated_what_update_fused(inp, tmp, prev)
}

/// The fused op itself (F32/F64 inputs of checked widths).
fn gated_what_update_fused(inp: &Tensor, tmp: &Tensor, prev: &Tensor) -> Result<(Tensor, Tensor)> {
    let out = inp.contiguous()?.apply_op3(
        &tmp.contiguous()?,
        &prev.contiguous()?,
        GatedWhat { grad: None },
    )?;
    Ok((out.get(0)?, out.get(1)?))
}

/// [`gated_what_update`] composed from candle ops (the reference; the fallback path).
pub fn gated_what_update_composed(
    inp: &Tensor,
    tmp: &Tensor,
    prev: &Tensor,
) -> Result<(Tensor, Tensor)> {
    let a = prev.dim(D::Minus1)?;
    // Contiguous chunks: candle's elementwise kernels are several times slower on views.
    let chunk = |t: &Tensor, i: usize| t.narrow(D::Minus1, i * a, a)?.contiguous();
    let gate = |t: Tensor| -> Result<Tensor> {
        candle_nn::ops::sigmoid(&(t + 1.0)?)?.affine(GATE_SCALE, 0.0)
    };
    let sd = super::dist::std_from_logit;
    let (mu_in, sd_in) = (chunk(inp, 0)?, sd(&chunk(inp, 1)?)?);
    let (mu_tmp, sd_tmp) = (chunk(tmp, 0)?, sd(&chunk(tmp, 1)?)?);
    let f = gate(chunk(tmp, 2)?)?;
    let i = gate(chunk(tmp, 3)?)?;
    let tau = gate(chunk(tmp, 4)?)?;
    let one_i = i.affine(-1.0, 1.0)?;
    let one_tau = tau.affine(-1.0, 1.0)?;
    let mu = ((f.mul(prev)? + one_i.mul(&mu_in)?)? + one_tau.mul(&mu_tmp)?)?;
    let sd = (one_i.mul(&sd_in)? + one_tau.mul(&sd_tmp)?)?;
    Ok((mu, sd))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use crate::testing::max_abs_diff;
    use candle_core::{Device, Var};

    /// Inputs with some logits beyond the clip (±10) so the clamp's zero slope is exercised.
    fn inputs(dev: &Device, dtype: DType, (b, k, a): (usize, usize, usize)) -> [Var; 3] {
        let mut rng = SeededRng::new(31);
        let mut make = |w: usize, scale: f64| {
            let t = (rng.normal(&[b, k, w], dev).unwrap() * scale).unwrap();
            Var::from_tensor(&t.to_dtype(dtype).unwrap()).unwrap()
        };
        [make(2 * a, 6.0), make(5 * a, 6.0), make(a, 1.0)]
    }

    fn check(dev: &Device, dtype: DType, tol: f64) {
        let dims = (3, 5, 7);
        let [inp, tmp, prev] = inputs(dev, dtype, dims);
        let (mu, sd) =
            gated_what_update_fused(inp.as_tensor(), tmp.as_tensor(), prev.as_tensor()).unwrap();
        let (mu_c, sd_c) =
            gated_what_update_composed(inp.as_tensor(), tmp.as_tensor(), prev.as_tensor()).unwrap();
        assert_eq!(mu.dims(), &[3, 5, 7]);
        assert_eq!(sd.dims(), &[3, 5, 7]);
        assert!(max_abs_diff(&mu, &mu_c) <= tol, "μ");
        assert!(max_abs_diff(&sd, &sd_c) <= tol, "σ");
        let mut rng = SeededRng::new(32);
        let w1 = rng
            .normal(&[3, 5, 7], dev)
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let w2 = rng
            .normal(&[3, 5, 7], dev)
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let loss = |m: &Tensor, s: &Tensor| {
            ((m * &w1).unwrap().sum_all().unwrap() + (s * &w2).unwrap().sum_all().unwrap()).unwrap()
        };
        let g = loss(&mu, &sd).backward().unwrap();
        let gc = loss(&mu_c, &sd_c).backward().unwrap();
        for v in [&inp, &tmp, &prev] {
            let (got, want) = (g.get(v).unwrap(), gc.get(v).unwrap());
            assert_eq!(got.dims(), v.dims());
            assert!(
                max_abs_diff(got, want) <= tol * 10.0,
                "gradient {:?}",
                v.dims()
            );
        }
    }

    fn fused_matches_composed(dev: &Device) {
        check(dev, DType::F64, 1e-12);
        check(dev, DType::F32, 1e-5);
    }

    crate::test_device!(
        fused_matches_composed,
        gated_what_matches_composed_cpu,
        gated_what_matches_composed_cuda
    );

    /// Central differences of `Σ w₁μ + w₂σ` against the fused backward (F64, CPU), away from
    /// the clip's kinks.
    #[test]
    fn gradient_matches_finite_differences() {
        let dev = Device::Cpu;
        let (b, k, a) = (2, 3, 4);
        let mut rng = SeededRng::new(33);
        let mut f64_normal = |w: usize| {
            rng.normal(&[b, k, w], &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap()
        };
        let (inp, tmp, prev) = (f64_normal(2 * a), f64_normal(5 * a), f64_normal(a));
        let (w1, w2) = (f64_normal(a), f64_normal(a));
        let value = |i: &Tensor, t: &Tensor, p: &Tensor| -> f64 {
            let (m, s) = gated_what_update_fused(i, t, p).unwrap();
            ((m * &w1).unwrap().sum_all().unwrap() + (s * &w2).unwrap().sum_all().unwrap())
                .unwrap()
                .to_scalar::<f64>()
                .unwrap()
        };
        let vars = [&inp, &tmp, &prev].map(|t| Var::from_tensor(t).unwrap());
        let (m, s) = gated_what_update_fused(
            vars[0].as_tensor(),
            vars[1].as_tensor(),
            vars[2].as_tensor(),
        )
        .unwrap();
        let grads = ((m * &w1).unwrap().sum_all().unwrap() + (s * &w2).unwrap().sum_all().unwrap())
            .unwrap()
            .backward()
            .unwrap();
        let eps = 1e-6;
        for (which, var) in vars.iter().enumerate() {
            let g: Vec<f64> = grads
                .get(var)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            let base: Vec<f64> = var.as_tensor().flatten_all().unwrap().to_vec1().unwrap();
            for (idx, &gi) in g.iter().enumerate() {
                let at = |d: f64| {
                    let mut v = base.clone();
                    v[idx] += d;
                    let t = Tensor::from_vec(v, var.shape(), &dev).unwrap();
                    let mut args = [inp.clone(), tmp.clone(), prev.clone()];
                    args[which] = t;
                    value(&args[0], &args[1], &args[2])
                };
                let fd = (at(eps) - at(-eps)) / (2.0 * eps);
                assert!(
                    (fd - gi).abs() < 1e-6,
                    "input {which} [{idx}]: {fd} vs {gi}"
                );
            }
        }
    }

    #[test]
    fn wrong_widths_are_named() {
        let dev = Device::Cpu;
        let z = |w: usize| Tensor::zeros((2, 3, w), DType::F32, &dev).unwrap();
        let err = gated_what_update(&z(8), &z(19), &z(4))
            .unwrap_err()
            .to_string();
        assert!(err.contains("tmp") && err.contains("20"), "{err}");
        let err = gated_what_update(&z(7), &z(20), &z(4))
            .unwrap_err()
            .to_string();
        assert!(err.contains("inp") && err.contains('8'), "{err}");
    }
}
