//! Fused elementwise epilogues: one kernel where candle runs a broadcast op plus an activation.
//!
//! candle adds a bias with its generic broadcast kernel (a div/mod per dimension per element)
//! and applies ReLU as a second pass; on Space Invaders inference at batch 256 those two made a
//! quarter of the GPU time (`benches/results/cuda_bench.md`, ncu profile). [`bias_act`] does
//! `act(x + b)` in one pass, [`gate_channels`] the propagation glimpse's `x · σ(logit + shift)`
//! with the logit shared across channels. Both have exact backward passes (composed from candle
//! ops, which run only in training) and fall back to the composed form for dtypes other than
//! F32/F64 or when [`super::set_fused_epilogues`] is off (the before path of the benchmarks).
//! One difference to the composed form: ReLU's gradient at exactly 0 is 0 here, as in TF's
//! `ReluGrad` (the reference implementation), where candle's `relu` passes 1.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp2, DType, Layout, Result, Shape, Tensor, WithDType, D};
use rayon::prelude::*;

use super::cpu::{self, add_relu, storage_slice};

/// Rows per rayon task on the CPU paths.
const CPU_CHUNK: usize = 64;

/// `act(x + bias)` over rows: `x (R, C)`, `bias (C)`.
struct BiasAct {
    relu: bool,
}

fn bias_act_cpu<T: WithDType>(x: &[T], b: &[T], relu: bool) -> Vec<T> {
    let c = b.len();
    let mut out = vec![T::zero(); x.len()];
    out.par_chunks_mut(c * CPU_CHUNK)
        .zip(x.par_chunks(c * CPU_CHUNK))
        .for_each(|(o, xs)| {
            for (orow, xrow) in o.chunks_mut(c).zip(xs.chunks(c)) {
                for ((o, &x), &b) in orow.iter_mut().zip(xrow).zip(b) {
                    *o = add_relu(x, b, relu);
                }
            }
        });
    out
}

impl CustomOp2 for BiasAct {
    fn name(&self) -> &'static str {
        "silot-bias-act"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let out = cpu::by_float!(s1, "bias_act", T => {
            bias_act_cpu(storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?, self.relu)
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
        let st = cuda::by_float!(s1, T => cuda::bias_act::<T>((s1, l1), (s2, l2), self.relu)?);
        Ok((st, l1.shape().clone()))
    }

    fn bwd(
        &self,
        _x: &Tensor,
        _bias: &Tensor,
        res: &Tensor,
        grad_res: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        let g = if self.relu {
            masked_grad(grad_res, res, Mask::Positive)?
        } else {
            grad_res.clone()
        };
        let gb = g.sum(0)?;
        Ok((Some(g), Some(gb)))
    }
}

/// `act(x + bias)` with `bias` broadcast along the last axis of `x (..., C)`, `bias (C)`; ReLU
/// when `relu`, identity otherwise. Differentiable in both arguments.
pub fn bias_act(x: &Tensor, bias: &Tensor, relu: bool) -> Result<Tensor> {
    let c = x.dim(D::Minus1)?;
    if bias.dims() != [c] {
        candle_core::bail!(
            "bias_act: bias of shape {:?} does not match the last axis of x {:?}",
            bias.dims(),
            x.dims()
        );
    }
    let fused = super::fused_epilogues()
        && x.dtype() == bias.dtype()
        && matches!(x.dtype(), DType::F32 | DType::F64);
    if !fused {
        let y = x.broadcast_add(bias)?;
        return if relu { y.relu() } else { Ok(y) };
    }
    let bias = bias.contiguous()?;
    if x.rank() == 2 {
        // Dense layers pass (rows, C): no reshape nodes (each would cost a zero fill and an add
        // in candle's backward pass).
        return x.contiguous()?.apply_op2(&bias, BiasAct { relu });
    }
    let rows = x.elem_count() / c.max(1);
    x.contiguous()?
        .reshape((rows, c))?
        .apply_op2(&bias, BiasAct { relu })?
        .reshape(x.shape())
}

/// Where a gradient passes in [`masked_grad`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mask {
    /// `r > 0` (ReLU, `r` its output).
    Positive,
    /// `lo ≤ r ≤ hi` (clamp, `r` its input).
    Within(f64, f64),
}

impl Mask {
    fn passes(self, r: f64) -> bool {
        match self {
            Mask::Positive => r > 0.0,
            Mask::Within(lo, hi) => (lo..=hi).contains(&r),
        }
    }
}

/// `grad · [mask(r)]` in one pass (backward only: no gradient of its own).
struct MaskedGrad(Mask);

fn masked_grad_cpu<T: WithDType>(g: &[T], r: &[T], mask: Mask) -> Vec<T> {
    let mut out = vec![T::zero(); g.len()];
    out.par_chunks_mut(4096)
        .zip(g.par_chunks(4096).zip(r.par_chunks(4096)))
        .for_each(|(o, (g, r))| {
            for ((o, &g), &r) in o.iter_mut().zip(g).zip(r) {
                *o = if mask.passes(r.to_f64()) {
                    g
                } else {
                    T::zero()
                };
            }
        });
    out
}

impl CustomOp2 for MaskedGrad {
    fn name(&self) -> &'static str {
        "silot-masked-grad"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let out = cpu::by_float!(s1, "masked_grad", T => {
            masked_grad_cpu(storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?, self.0)
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
        let (kind, lo, hi) = match self.0 {
            Mask::Positive => (0, 0.0, 0.0),
            Mask::Within(lo, hi) => (1, lo, hi),
        };
        let st =
            cuda::by_float!(s1, T => cuda::masked_grad::<T>((s1, l1), (s2, l2), kind, lo, hi)?);
        Ok((st, l1.shape().clone()))
    }
}

/// `grad · [mask(r)]`, both contiguous of one shape and dtype (F32/F64).
fn masked_grad(grad: &Tensor, r: &Tensor, mask: Mask) -> Result<Tensor> {
    grad.contiguous()?
        .apply_op2_no_bwd(&r.contiguous()?, &MaskedGrad(mask))
}

/// `min(max(x, lo), hi)` in one kernel.
struct Clamp {
    lo: f64,
    hi: f64,
}

impl candle_core::CustomOp1 for Clamp {
    fn name(&self) -> &'static str {
        "silot-clamp"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        fn run<T: WithDType>(x: &[T], lo: f64, hi: f64) -> Vec<T> {
            let (lo, hi) = (T::from_f64(lo), T::from_f64(hi));
            x.par_iter()
                .map(|&v| {
                    if v < lo {
                        lo
                    } else if v > hi {
                        hi
                    } else {
                        v
                    }
                })
                .collect()
        }
        let out = cpu::by_float!(s, "clamp", T => run(storage_slice::<T>(s, l)?, self.lo, self.hi));
        Ok((out, l.shape().clone()))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let st = cuda::by_float!(s, T => cuda::clamp::<T>((s, l), self.lo, self.hi)?);
        Ok((st, l.shape().clone()))
    }

    fn bwd(&self, x: &Tensor, _res: &Tensor, grad_res: &Tensor) -> Result<Option<Tensor>> {
        Ok(Some(masked_grad(
            grad_res,
            x,
            Mask::Within(self.lo, self.hi),
        )?))
    }
}

/// `min(max(x, lo), hi)`: one kernel (candle's `clamp` makes two scalar tensors and runs two
/// broadcast kernels); the gradient passes where `lo ≤ x ≤ hi`. Composed form for dtypes other
/// than F32/F64 or with [`super::set_fused_epilogues`] off.
pub fn clamp(x: &Tensor, lo: f64, hi: f64) -> Result<Tensor> {
    if !super::fused_epilogues() || !matches!(x.dtype(), DType::F32 | DType::F64) {
        return x.clamp(lo, hi);
    }
    x.contiguous()?.apply_op1(Clamp { lo, hi })
}

/// `x · σ(logit + shift)` for `x (N, C, P)`, `logit (N, P)` (one gate per position, shared by
/// the C channels).
struct GateChannels {
    shift: f64,
    /// Output `(N, row)`: each `C·P` gated glimpse followed by zeros (else `(N, C, P)`).
    row: Option<usize>,
}

impl GateChannels {
    fn out_shape(&self, x: &Layout) -> Result<(usize, Shape)> {
        let (n, c, p) = x.shape().dims3()?;
        Ok(match self.row {
            Some(r) => (r, Shape::from((n, r))),
            None => (c * p, x.shape().clone()),
        })
    }
}

/// The logistic function on the host.
pub(crate) fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn gate_cpu<T: WithDType>(
    x: &[T],
    logit: &[T],
    (c, p, row): (usize, usize, usize),
    shift: f64,
) -> Vec<T> {
    let mut out = vec![T::zero(); x.len() / (c * p).max(1) * row];
    out.par_chunks_mut(row)
        .zip(x.par_chunks(c * p))
        .zip(logit.par_chunks(p))
        .for_each(|((o, xs), ls)| {
            let gates: Vec<f64> = ls.iter().map(|&l| sigmoid(l.to_f64() + shift)).collect();
            for (orow, xrow) in o[..c * p].chunks_mut(p).zip(xs.chunks(p)) {
                for ((o, &x), &g) in orow.iter_mut().zip(xrow).zip(&gates) {
                    *o = T::from_f64(x.to_f64() * g);
                }
            }
        });
    out
}

impl CustomOp2 for GateChannels {
    fn name(&self) -> &'static str {
        "silot-gate-channels"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let (_, c, p) = l1.shape().dims3()?;
        let (row, shape) = self.out_shape(l1)?;
        let out = cpu::by_float!(s1, "gate_channels", T => {
            let (x, logit) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s2, l2)?);
            gate_cpu(x, logit, (c, p, row), self.shift)
        });
        Ok((out, shape))
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
        let (_, c, p) = l1.shape().dims3()?;
        let rs = row_stride(l2).ok_or_else(|| {
            candle_core::Error::Msg("gate_channels: logit rows are not evenly strided".into())
        })?;
        let (row, shape) = self.out_shape(l1)?;
        let geo = (c, p, rs, row);
        let st = cuda::by_float!(s1, T => cuda::gate_channels::<T>((s1, l1), (s2, l2), geo, self.shift)?);
        Ok((st, shape))
    }

    fn bwd(
        &self,
        x: &Tensor,
        logit: &Tensor,
        _res: &Tensor,
        grad_res: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        let (n, c, p) = x.dims3()?;
        let grad_res = match self.row {
            Some(_) => &grad_res.narrow(1, 0, c * p)?.reshape((n, c, p))?,
            None => grad_res,
        };
        let s = candle_nn::ops::sigmoid(&(logit + self.shift)?)?.reshape((n, p))?;
        let gx = grad_res.broadcast_mul(&s.unsqueeze(1)?)?;
        let ds = (grad_res * x)?.sum(1)?; // (N, P)
        let gl = ds.mul(&s)?.mul(&s.affine(-1.0, 1.0)?)?;
        Ok((Some(gx), Some(gl.reshape(logit.shape())?)))
    }
}

/// `x · σ(logit + shift)` with `x (N, C, P)` and `logit (..., P)` holding `N` rows of `P` (e.g.
/// `(B, K, P)` with `B·K = N`): one sigmoid gate per position, shared by the `C` channels (the
/// propagation glimpse mask). On the GPU a logit whose rows are evenly strided (a `narrow` of a
/// wider tensor) is read in place, without a contiguous copy. Differentiable in both arguments.
pub fn gate_channels(x: &Tensor, logit: &Tensor, shift: f64) -> Result<Tensor> {
    let (n, _, p) = x.dims3()?;
    if logit.dim(D::Minus1)? != p || logit.elem_count() != n * p {
        candle_core::bail!(
            "gate_channels: logit of shape {:?} does not match x {:?} (want {n} rows of {p})",
            logit.dims(),
            x.dims()
        );
    }
    let fused = super::fused_epilogues()
        && x.dtype() == logit.dtype()
        && matches!(x.dtype(), DType::F32 | DType::F64);
    if !fused {
        let gate = candle_nn::ops::sigmoid(&(logit + shift)?)?.reshape((n, 1, p))?;
        return x.broadcast_mul(&gate);
    }
    let logit = if logit.device().is_cuda() && row_stride(logit.layout()).is_some() {
        logit.clone()
    } else {
        logit.contiguous()?
    };
    x.contiguous()?
        .apply_op2(&logit, GateChannels { shift, row: None })
}

/// [`gate_channels`] flattened into rows of `row ≥ C·P` values `(N, row)`, zeros after each
/// gated glimpse (aligned encoder input, as [`crate::nn::sampler::extract_glimpse_rows`]).
/// Differentiable in both arguments.
pub fn gate_channel_rows(x: &Tensor, logit: &Tensor, shift: f64, row: usize) -> Result<Tensor> {
    let (n, c, p) = x.dims3()?;
    if row < c * p {
        candle_core::bail!("gate_channel_rows: row {row} shorter than C·P = {}", c * p);
    }
    let fused = super::fused_epilogues()
        && x.dtype() == logit.dtype()
        && matches!(x.dtype(), DType::F32 | DType::F64);
    if !fused || logit.elem_count() != n * p {
        return gate_channels(x, logit, shift)?
            .reshape((n, c * p))?
            .pad_with_zeros(1, 0, row - c * p);
    }
    let logit = if logit.device().is_cuda() && row_stride(logit.layout()).is_some() {
        logit.clone()
    } else {
        logit.contiguous()?
    };
    x.contiguous()?.apply_op2(
        &logit,
        GateChannels {
            shift,
            row: Some(row),
        },
    )
}

/// The distance between consecutive `P`-rows of a layout whose last axis is contiguous and whose
/// leading axes collapse into one evenly strided row axis; `None` otherwise.
pub(crate) fn row_stride(l: &Layout) -> Option<usize> {
    let (dims, strides) = (l.dims(), l.stride());
    let r = dims.len();
    if r < 2 || strides[r - 1] != 1 {
        return None;
    }
    for i in 0..r - 2 {
        if dims[i + 1] > 1 && strides[i] != strides[i + 1] * dims[i + 1] {
            return None;
        }
    }
    Some(strides[r - 2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use candle_core::{Device, Var};

    use crate::testing::max_abs_diff as max_err;

    fn composed_bias_act(x: &Tensor, b: &Tensor, relu: bool) -> Tensor {
        let y = x.broadcast_add(b).unwrap();
        if relu {
            y.relu().unwrap()
        } else {
            y
        }
    }

    /// Values and both gradients of the fused op against the composed candle ops, on `dev`.
    fn check_bias_act(dev: &Device, dtype: DType, tol: f64) {
        let mut rng = SeededRng::new(11);
        for (shape, relu) in [
            (vec![5, 7], true),
            (vec![2, 3, 9], false),
            (vec![130, 4], true),
        ] {
            let c = *shape.last().unwrap();
            let x = Var::from_tensor(&rng.normal(&shape, dev).unwrap().to_dtype(dtype).unwrap())
                .unwrap();
            let b =
                Var::from_tensor(&rng.normal(&[c], dev).unwrap().to_dtype(dtype).unwrap()).unwrap();
            let w = rng.normal(&shape, dev).unwrap().to_dtype(dtype).unwrap();
            let got = bias_act(x.as_tensor(), b.as_tensor(), relu).unwrap();
            let want = composed_bias_act(x.as_tensor(), b.as_tensor(), relu);
            assert_eq!(got.dims(), want.dims());
            assert!(max_err(&got, &want) <= tol, "values {shape:?}");
            let gg = (got * &w).unwrap().sum_all().unwrap().backward().unwrap();
            let gw = (want * &w).unwrap().sum_all().unwrap().backward().unwrap();
            for v in [&x, &b] {
                let (a, e) = (gg.get(v).unwrap(), gw.get(v).unwrap());
                assert!(max_err(a, e) <= tol * c as f64 * 8.0, "grads {shape:?}");
            }
        }
    }

    fn bias_act_matches_composed(dev: &Device) {
        check_bias_act(dev, DType::F64, 1e-12);
        check_bias_act(dev, DType::F32, 1e-6);
    }

    crate::test_device!(
        bias_act_matches_composed,
        bias_act_matches_composed_cpu,
        bias_act_matches_composed_cuda
    );

    fn check_gate(dev: &Device, dtype: DType, tol: f64) {
        let mut rng = SeededRng::new(12);
        let (n, c, p) = (6, 3, 10);
        let x = Var::from_tensor(
            &rng.normal(&[n, c, p], dev)
                .unwrap()
                .to_dtype(dtype)
                .unwrap(),
        )
        .unwrap();
        let l =
            Var::from_tensor(&rng.normal(&[n, p], dev).unwrap().to_dtype(dtype).unwrap()).unwrap();
        let w = rng
            .normal(&[n, c, p], dev)
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let got = gate_channels(x.as_tensor(), l.as_tensor(), 1.0).unwrap();
        let gate = candle_nn::ops::sigmoid(&(l.as_tensor() + 1.0).unwrap())
            .unwrap()
            .unsqueeze(1)
            .unwrap();
        let want = x.as_tensor().broadcast_mul(&gate).unwrap();
        assert!(max_err(&got, &want) <= tol);
        let gg = (got * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let gw = (want * &w).unwrap().sum_all().unwrap().backward().unwrap();
        for v in [&x, &l] {
            assert!(max_err(gg.get(v).unwrap(), gw.get(v).unwrap()) <= tol * 10.0);
        }
    }

    fn check_gate_rows(dev: &Device) {
        let mut rng = SeededRng::new(14);
        let (n, c, p, row) = (4, 3, 5, 16);
        let x = Var::from_tensor(&rng.normal(&[n, c, p], dev).unwrap()).unwrap();
        let l = Var::from_tensor(&rng.normal(&[n, p], dev).unwrap()).unwrap();
        let w = rng.normal(&[n, row], dev).unwrap();
        let got = gate_channel_rows(x.as_tensor(), l.as_tensor(), 1.0, row).unwrap();
        let want = gate_channels(x.as_tensor(), l.as_tensor(), 1.0)
            .unwrap()
            .reshape((n, c * p))
            .unwrap()
            .pad_with_zeros(1, 0, row - c * p)
            .unwrap();
        assert_eq!(got.dims(), &[n, row]);
        assert!(max_err(&got, &want) < 1e-6);
        let gg = (got * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let gw = (want * &w).unwrap().sum_all().unwrap().backward().unwrap();
        for v in [&x, &l] {
            assert!(max_err(gg.get(v).unwrap(), gw.get(v).unwrap()) < 1e-5);
        }
    }

    crate::test_device!(check_gate_rows, gate_rows_cpu, gate_rows_cuda);

    fn gate_channels_matches_composed(dev: &Device) {
        check_gate(dev, DType::F64, 1e-12);
        check_gate(dev, DType::F32, 1e-6);
        check_strided_gate(dev);
    }

    crate::test_device!(
        gate_channels_matches_composed,
        gate_channels_matches_composed_cpu,
        gate_channels_matches_composed_cuda
    );

    /// A `(B, K, P)` logit narrowed out of a wider tensor (read in place on the GPU).
    fn check_strided_gate(dev: &Device) {
        let mut rng = SeededRng::new(13);
        let (b, k, c, p) = (2, 3, 3, 5);
        let wide = rng.normal(&[b, k, p + 4], dev).unwrap();
        let logit = wide.narrow(2, 2, p).unwrap();
        assert_eq!(row_stride(logit.layout()), Some(p + 4));
        let x = rng.normal(&[b * k, c, p], dev).unwrap();
        let got = gate_channels(&x, &logit, 1.0).unwrap();
        let gate = candle_nn::ops::sigmoid(&(logit.contiguous().unwrap() + 1.0).unwrap())
            .unwrap()
            .reshape((b * k, 1, p))
            .unwrap();
        assert!(max_err(&got, &x.broadcast_mul(&gate).unwrap()) < 1e-6);
    }

    #[test]
    fn strided_logit_on_the_cpu_and_row_stride() {
        check_strided_gate(&Device::Cpu);
        let t = Tensor::zeros((2, 3, 4), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(row_stride(t.transpose(0, 1).unwrap().layout()), None);
        assert_eq!(row_stride(t.layout()), Some(4));
    }

    fn check_clamp(dev: &Device) {
        let x = Var::from_tensor(
            &Tensor::new(&[-12.0f64, -10.5, -3.0, 0.0, 9.9, 10.0, 11.0], dev).unwrap(),
        )
        .unwrap();
        let w = Tensor::new(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], dev).unwrap();
        let y = clamp(x.as_tensor(), -10.0, 10.0).unwrap();
        assert_eq!(
            y.to_vec1::<f64>().unwrap(),
            vec![-10.0, -10.0, -3.0, 0.0, 9.9, 10.0, 10.0]
        );
        let g = (y * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let gx = g.get(&x).unwrap().to_vec1::<f64>().unwrap();
        assert_eq!(gx, vec![0.0, 0.0, 3.0, 4.0, 5.0, 6.0, 0.0]);
    }

    crate::test_device!(check_clamp, clamp_cpu, clamp_cuda);

    #[test]
    fn shape_errors_name_the_problem() {
        let dev = Device::Cpu;
        let x = Tensor::zeros((2, 3), DType::F32, &dev).unwrap();
        let b = Tensor::zeros(4, DType::F32, &dev).unwrap();
        let e = bias_act(&x, &b, true).unwrap_err().to_string();
        assert!(e.contains("does not match"), "{e}");
        let x = Tensor::zeros((2, 3, 5), DType::F32, &dev).unwrap();
        let l = Tensor::zeros((2, 4), DType::F32, &dev).unwrap();
        let e = gate_channels(&x, &l, 1.0).unwrap_err().to_string();
        assert!(e.contains("want 2 rows of 5"), "{e}");
    }

    #[test]
    fn fallback_dtype_still_computes() {
        let dev = Device::Cpu;
        let x = Tensor::new(&[[-1.0f32, 2.0]], &dev)
            .unwrap()
            .to_dtype(DType::BF16)
            .unwrap();
        let b = Tensor::new(&[0.5f32, 0.5], &dev)
            .unwrap()
            .to_dtype(DType::BF16)
            .unwrap();
        let y: Vec<f32> = bias_act(&x, &b, true)
            .unwrap()
            .to_dtype(DType::F32)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        assert_eq!(y, vec![0.0, 2.5]);
    }
}
