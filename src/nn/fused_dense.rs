//! A dense layer `act(x Wᵀ + b)` as one cuBLASLt matmul whose epilogue adds the bias and applies
//! the ReLU: no second pass over the output for [`super::epilogue::bias_act`].
//!
//! GPU only, f32 with TF32 matmuls on (cuBLASLt's f32 path computes in TF32, so it takes over
//! only where candle's matmul would use TF32 too: `candle_core::cuda::set_gemm_reduced_precision_f32`)
//! and the reduced-precision inference mode on ([`super::set_half_backbone`]): measured on an
//! H100 at batch 256 (`benches/results/cuda_bench.md`, fifth session), it is 1.13× faster than
//! matmul + `bias_act` with the f16 backbone (24.0k vs 21.2k frames/s) but 0.93× without it
//! (17.8k vs 19.1k), so it is used only in that mode. [`super::mlp::dense`] takes it when
//! [`applies`] says so; everywhere else (CPU, f64, plain f32, TF32 alone, training,
//! [`super::set_dense_fusion`] `Off` or [`super::set_fused_epilogues`] off) the matmul +
//! `bias_act` pair runs ([`super::DenseFusion::Tf32`] extends it to every TF32 dense layer, for
//! measurements). Backward is composed from candle ops, with ReLU's gradient 0 at 0 as in `bias_act`.

use candle_core::{CpuStorage, CustomOp3, Layout, Result, Shape, Tensor};

/// Whether [`dense_fused`] serves `x (N, in)` on this build, device and precision.
pub fn applies(x: &Tensor) -> bool {
    #[cfg(feature = "cuda")]
    {
        let mode = match super::dense_fusion() {
            super::DenseFusion::Off => false,
            super::DenseFusion::ReducedPrecision => super::half_backbone(),
            super::DenseFusion::Tf32 => true,
        };
        mode && super::fused_epilogues()
            && x.device().is_cuda()
            && x.dtype() == candle_core::DType::F32
            && x.rank() == 2
            && candle_core::cuda::gemm_reduced_precision_f32()
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = x;
        false
    }
}

/// `act(x Wᵀ + b)`: `x (N, in)`, `weight (out, in)`, `bias (out)` → `(N, out)`, ReLU when `relu`.
/// Callers check [`applies`] first; CPU tensors are an error.
pub fn dense_fused(x: &Tensor, weight: &Tensor, bias: &Tensor, relu: bool) -> Result<Tensor> {
    let (_, k) = x.dims2()?;
    let (n, k2) = weight.dims2()?;
    if k != k2 || bias.dims() != [n] {
        candle_core::bail!(
            "dense_fused: x {:?}, weight {:?}, bias {:?} do not fit (N, in), (out, in), (out)",
            x.dims(),
            weight.dims(),
            bias.dims()
        );
    }
    x.contiguous()?.apply_op3(
        &weight.contiguous()?,
        &bias.contiguous()?,
        FusedDense { relu },
    )
}

struct FusedDense {
    relu: bool,
}

impl CustomOp3 for FusedDense {
    fn name(&self) -> &'static str {
        "silot-dense-cublaslt"
    }

    fn cpu_fwd(
        &self,
        _: &CpuStorage,
        _: &Layout,
        _: &CpuStorage,
        _: &Layout,
        _: &CpuStorage,
        _: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        candle_core::bail!("dense_fused runs on CUDA only (check fused_dense::applies first)")
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        xs: &candle_core::CudaStorage,
        xl: &Layout,
        ws: &candle_core::CudaStorage,
        wl: &Layout,
        bs: &candle_core::CudaStorage,
        bl: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        let (rows, k) = xl.shape().dims2()?;
        let (n, _) = wl.shape().dims2()?;
        let out = super::cublaslt::dense_lt((xs, xl), (ws, wl), (bs, bl), (rows, k, n), self.relu)?;
        Ok((out, Shape::from((rows, n))))
    }

    fn bwd(
        &self,
        x: &Tensor,
        w: &Tensor,
        _b: &Tensor,
        res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let g = if self.relu {
            (grad * res.gt(0.0)?.to_dtype(grad.dtype())?)?
        } else {
            grad.clone()
        }; // (N, out)
        let dx = g.matmul(w)?; // (N, in)
        let dw = g.t()?.matmul(x)?; // (out, in)
        let db = g.sum(0)?; // (out)
        Ok((Some(dx), Some(dw), Some(db)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};

    #[test]
    fn never_applies_on_the_cpu() {
        let x = Tensor::zeros((3, 4), DType::F32, &Device::Cpu).unwrap();
        assert!(!applies(&x));
        let w = Tensor::zeros((2, 4), DType::F32, &Device::Cpu).unwrap();
        let b = Tensor::zeros(2, DType::F32, &Device::Cpu).unwrap();
        assert!(dense_fused(&x, &w, &b, true).is_err());
        let e = dense_fused(&x, &w.t().unwrap(), &b, true).unwrap_err();
        assert!(e.to_string().contains("do not fit"), "{e}");
    }

    /// On the GPU: values match matmul + bias_act (here in full f32; the TF32 switch is
    /// process-wide, so this test leaves it alone) within TF32 rounding, and the three gradients
    /// equal the analytic ones under the fused output's own ReLU mask (f32 matmuls; the TF32
    /// forward may flip the mask of outputs within rounding of 0 relative to the f32 path).
    #[cfg(feature = "cuda")]
    #[test]
    fn equals_matmul_bias_act_cuda() {
        use crate::rng::SeededRng;
        use crate::testing::max_abs_diff;
        use candle_core::Var;
        let dev = crate::testing::cuda_device();
        let mut rng = SeededRng::new(4);
        for (rows, k, n, relu) in [(300, 64, 96, true), (37, 1324, 512, true), (5, 7, 3, false)] {
            let x = Var::from_tensor(&rng.normal(&[rows, k], &dev).unwrap()).unwrap();
            let w = Var::from_tensor(&rng.normal(&[n, k], &dev).unwrap()).unwrap();
            let b = Var::from_tensor(&rng.normal(&[n], &dev).unwrap()).unwrap();
            let up = rng.normal(&[rows, n], &dev).unwrap();
            let got = dense_fused(&x, &w, &b, relu).unwrap();
            let want = x.matmul(&w.t().unwrap()).unwrap();
            let want = crate::nn::epilogue::bias_act(&want, &b, relu).unwrap();
            let scale = (k as f64).sqrt(); // outputs ~ N(0, k)
            let err = max_abs_diff(&got, &want);
            assert!(err < 1e-2 * scale, "{rows}x{k}x{n}: values {err}");
            let grads = (&got * &up).unwrap().sum_all().unwrap().backward().unwrap();
            let gm = if relu {
                (&up * got.gt(0.0).unwrap().to_dtype(DType::F32).unwrap()).unwrap()
            } else {
                up.clone()
            };
            let dx = gm.matmul(w.as_tensor()).unwrap();
            let dw = gm.t().unwrap().matmul(x.as_tensor()).unwrap();
            let db = gm.sum(0).unwrap();
            for (v, want, name) in [(&x, dx, "x"), (&w, dw, "w"), (&b, db, "b")] {
                let err = max_abs_diff(grads.get(v).unwrap(), &want);
                assert!(err < 1e-3, "{rows}x{k}x{n}: grad {name} {err}");
            }
        }
    }
}
