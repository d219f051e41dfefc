//! Channels-last patch extraction (im2col): the backbone's strided convolutions and the discovery
//! fuse convolutions, in training and inference.
//!
//! candle's CUDA `conv2d` extracts patches from channels-first images (strided, uncoalesced reads)
//! and transposes its result back to channels-first with an extra copy per layer; on Space
//! Invaders frames at batch 256 that made the backbone 40 % of an inference step. Channels-last
//! patches are contiguous runs of `kw·C` values per kernel row, and the convolution becomes one
//! matmul whose output is already channels-last. The patch kernel also zero-pads virtually (no
//! padded copy of the input) and can apply the previous layer's pending `relu(x + bias)` as it
//! reads, so a layer whose only consumer is the next patch extraction never needs its own
//! bias/ReLU pass ([`Epilogue::Deferred`], inference only).
//!
//! In training the patches are differentiable: their input gradient is a col2im gather (one
//! thread per input value, no atomics), and the matmul's gradients are cuBLAS matmuls. candle's
//! `conv2d` backward instead runs its direct `conv_transpose2d` kernel for every layer — 24–30 %
//! of a Space Invaders training step's GPU time (`benches/results/cuda_train_step_profile.md`)
//! — even for the backbone's first layer, whose input (the frames) needs no gradient at all.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, DType, Layout, Result, Shape, Storage, Tensor};
use rayon::prelude::*;

use super::cpu::{self, add_relu, storage_slice};

/// Patch geometry: kernel `kh × kw`, stride `stride`, virtual zero padding
/// `pad = [top, bottom, left, right]` of the `(B, H, W, C)` input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatchDims {
    pub b: usize,
    pub h: usize,
    pub w: usize,
    pub c: usize,
    pub kh: usize,
    pub kw: usize,
    pub stride: usize,
    pub pad: [usize; 4],
    /// The input is `(B, C, H, W)` instead of `(B, H, W, C)`.
    pub channels_first: bool,
}

impl PatchDims {
    pub fn out_h(&self) -> usize {
        (self.h + self.pad[0] + self.pad[1] - self.kh) / self.stride + 1
    }

    pub fn out_w(&self) -> usize {
        (self.w + self.pad[2] + self.pad[3] - self.kw) / self.stride + 1
    }

    /// Values per patch, ordered `(dy, dx, c)`.
    pub fn patch_len(&self) -> usize {
        self.kh * self.kw * self.c
    }
}

struct PatchOp {
    kh: usize,
    kw: usize,
    stride: usize,
    pad: [usize; 4],
    /// `relu(x + bias)` applied to every input value read (`bias (C)`); padding stays 0.
    input_bias_relu: Option<Tensor>,
    channels_first: bool,
    /// Store the patches as f16 (values computed in f32; the input may be F32 or F16, the bias
    /// is F32).
    half_out: bool,
}

impl PatchOp {
    fn dims(&self, l: &Layout) -> Result<PatchDims> {
        let (b, h, w, c) = if self.channels_first {
            let (b, c, h, w) = l.shape().dims4()?;
            (b, h, w, c)
        } else {
            l.shape().dims4()?
        };
        let [pt, pb, pl, pr] = self.pad;
        if h + pt + pb < self.kh || w + pl + pr < self.kw || self.stride == 0 {
            candle_core::bail!(
                "patches: input {:?} (padding {:?}) smaller than the {}x{} kernel (or stride 0)",
                l.dims(),
                self.pad,
                self.kh,
                self.kw
            );
        }
        if let Some(bias) = &self.input_bias_relu {
            if bias.dims() != [c] {
                candle_core::bail!(
                    "patches: input bias {:?} does not match {c} channels",
                    bias.dims()
                );
            }
        }
        Ok(PatchDims {
            b,
            h,
            w,
            c,
            kh: self.kh,
            kw: self.kw,
            stride: self.stride,
            pad: self.pad,
            channels_first: self.channels_first,
        })
    }

    fn out_shape(d: &PatchDims) -> Shape {
        Shape::from((d.b, d.out_h(), d.out_w(), d.patch_len()))
    }

    /// The f16 patches on the CPU: input (F32 or F16) and bias read as f32, result rounded.
    fn cpu_fwd_half(
        &self,
        s: &CpuStorage,
        l: &Layout,
        d: &PatchDims,
    ) -> Result<(CpuStorage, Shape)> {
        let x: Vec<f32> = match s {
            CpuStorage::F32(_) => storage_slice::<f32>(s, l)?.to_vec(),
            CpuStorage::F16(_) => storage_slice::<half::f16>(s, l)?
                .iter()
                .map(|v| v.to_f32())
                .collect(),
            other => candle_core::bail!(
                "half patches take F32 or F16 input, got {:?}",
                other.dtype()
            ),
        };
        let bias: Option<Vec<f32>> = match &self.input_bias_relu {
            Some(b) => Some(b.to_dtype(DType::F32)?.to_vec1()?),
            None => None,
        };
        let out = patches_cpu(&x, bias.as_deref(), d);
        let out = out.into_iter().map(half::f16::from_f32).collect();
        Ok((CpuStorage::F16(out), Self::out_shape(d)))
    }
}

fn patches_cpu<T: candle_core::WithDType>(x: &[T], bias: Option<&[T]>, d: &PatchDims) -> Vec<T> {
    let (oh, ow, k) = (d.out_h(), d.out_w(), d.patch_len());
    let c = d.c;
    let mut out = vec![T::zero(); d.b * oh * ow * k];
    out.par_chunks_mut(k).enumerate().for_each(|(pos, patch)| {
        let (b, oy, ox) = (pos / (oh * ow), pos / ow % oh, pos % ow);
        for dy in 0..d.kh {
            for dx in 0..d.kw {
                let dst = &mut patch[(dy * d.kw + dx) * c..(dy * d.kw + dx + 1) * c];
                let (iy, ix) = (oy * d.stride + dy, ox * d.stride + dx);
                if iy < d.pad[0] || ix < d.pad[2] || iy - d.pad[0] >= d.h || ix - d.pad[2] >= d.w {
                    continue; // padding: stays zero
                }
                let (y, x_) = (iy - d.pad[0], ix - d.pad[2]);
                if d.channels_first {
                    for (ch, o) in dst.iter_mut().enumerate() {
                        let v = x[((b * c + ch) * d.h + y) * d.w + x_];
                        *o = match bias {
                            None => v,
                            Some(bias) => add_relu(v, bias[ch], true),
                        };
                    }
                    continue;
                }
                let src = ((b * d.h + y) * d.w + x_) * c;
                let src = &x[src..src + c];
                match bias {
                    None => dst.copy_from_slice(src),
                    Some(bias) => {
                        for ((o, &v), &bv) in dst.iter_mut().zip(src).zip(bias) {
                            *o = add_relu(v, bv, true);
                        }
                    }
                }
            }
        }
    });
    out
}

impl CustomOp1 for PatchOp {
    fn name(&self) -> &'static str {
        "silot-patches-nhwc"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        let d = self.dims(l)?;
        if self.half_out {
            return self.cpu_fwd_half(s, l, &d);
        }
        let bias = match &self.input_bias_relu {
            Some(b) => Some(
                b.to_dtype(s.dtype())?
                    .to_device(&candle_core::Device::Cpu)?,
            ),
            None => None,
        };
        let guard = bias.as_ref().map(|b| b.storage_and_layout());
        let out = cpu::by_float!(s, "patches", T => {
            let bias_slice = match &guard {
                Some((st, bl)) => match &**st {
                    Storage::Cpu(cs) => Some(storage_slice::<T>(cs, bl)?),
                    _ => candle_core::bail!("patches: bias must be on the CPU"),
                },
                None => None,
            };
            patches_cpu(storage_slice::<T>(s, l)?, bias_slice, &d)
        });
        Ok((out, Self::out_shape(&d)))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        let d = self.dims(l)?;
        let dev = s.device();
        if self.half_out {
            let bias = match &self.input_bias_relu {
                Some(b) => Some(b.to_dtype(DType::F32)?.contiguous()?),
                None => None,
            };
            let guard = bias.as_ref().map(|b| b.storage_and_layout());
            let bias_arg = match &guard {
                Some((st, bl)) => match &**st {
                    Storage::Cuda(cs) => Some((cs, *bl)),
                    _ => candle_core::bail!("patches: bias must be on the input's device"),
                },
                None => None,
            };
            let out = cuda::patches_fwd_half((s, l), bias_arg, &d)?;
            return Ok((cuda::storage_f16(out, dev), Self::out_shape(&d)));
        }
        let bias = match &self.input_bias_relu {
            Some(b) => Some(b.to_dtype(s.dtype())?.contiguous()?),
            None => None,
        };
        let guard = bias.as_ref().map(|b| b.storage_and_layout());
        let bias_arg = match &guard {
            Some((st, bl)) => match &**st {
                Storage::Cuda(cs) => Some((cs, *bl)),
                _ => candle_core::bail!("patches: bias must be on the input's device"),
            },
            None => None,
        };
        let st = cuda::by_float!(s, T => cuda::patches_fwd::<T>((s, l), bias_arg, &d)?);
        Ok((st, Self::out_shape(&d)))
    }

    fn bwd(&self, arg: &Tensor, _res: &Tensor, grad: &Tensor) -> Result<Option<Tensor>> {
        if self.input_bias_relu.is_some() || self.half_out {
            candle_core::bail!(
                "patches: the pending-bias and half-precision forms are inference-only (no gradient)"
            );
        }
        let dims = self.dims(arg.layout())?;
        Ok(Some(
            grad.contiguous()?.apply_op1_no_bwd(&PatchGrad { dims })?,
        ))
    }
}

/// The input gradient of the patches (col2im): `(B, OH, OW, kh·kw·C)` → the input's shape.
struct PatchGrad {
    dims: PatchDims,
}

impl PatchGrad {
    fn check(&self, l: &Layout) -> Result<()> {
        let d = &self.dims;
        let want = [d.b, d.out_h(), d.out_w(), d.patch_len()];
        if l.dims() != want {
            candle_core::bail!(
                "patches gradient: got {:?}, the patches were {want:?}",
                l.dims()
            );
        }
        Ok(())
    }

    fn in_shape(&self) -> Shape {
        let d = &self.dims;
        match d.channels_first {
            true => Shape::from((d.b, d.c, d.h, d.w)),
            false => Shape::from((d.b, d.h, d.w, d.c)),
        }
    }
}

/// col2im on the host: every input value sums the patch entries that read it.
fn patches_bwd_cpu<T: candle_core::WithDType>(g: &[T], d: &PatchDims) -> Vec<T> {
    let (oh, ow, k) = (d.out_h(), d.out_w(), d.patch_len());
    let (h, w, c, s) = (d.h, d.w, d.c, d.stride);
    let mut dx = vec![T::zero(); d.b * h * w * c];
    // Kernel offsets `(d, o)` along one axis that read padded coordinate `i`: `i = o·s + d`.
    let taps = |i: usize, k_len: usize, o_len: usize| {
        (i % s..k_len)
            .step_by(s)
            .take_while(move |&dk| dk <= i)
            .map(move |dk| (dk, (i - dk) / s))
            .filter(move |&(_, o)| o < o_len)
    };
    dx.par_chunks_mut(h * w * c)
        .enumerate()
        .for_each(|(b, img)| {
            let gb = &g[b * oh * ow * k..(b + 1) * oh * ow * k];
            for y in 0..h {
                for x in 0..w {
                    for ch in 0..c {
                        let mut acc = T::zero();
                        for (dy, oy) in taps(y + d.pad[0], d.kh, oh) {
                            for (dxk, ox) in taps(x + d.pad[2], d.kw, ow) {
                                acc += gb[(oy * ow + ox) * k + (dy * d.kw + dxk) * c + ch];
                            }
                        }
                        let at = match d.channels_first {
                            true => (ch * h + y) * w + x,
                            false => (y * w + x) * c + ch,
                        };
                        img[at] = acc;
                    }
                }
            }
        });
    dx
}

impl CustomOp1 for PatchGrad {
    fn name(&self) -> &'static str {
        "silot-patches-nhwc-bwd"
    }

    fn cpu_fwd(&self, s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, Shape)> {
        self.check(l)?;
        let out = cpu::by_float!(s, "patches gradient", T => {
            patches_bwd_cpu(storage_slice::<T>(s, l)?, &self.dims)
        });
        Ok((out, self.in_shape()))
    }

    #[cfg(feature = "cuda")]
    fn cuda_fwd(
        &self,
        s: &candle_core::CudaStorage,
        l: &Layout,
    ) -> Result<(candle_core::CudaStorage, Shape)> {
        use super::cuda;
        self.check(l)?;
        let st = cuda::by_float!(s, T => cuda::patches_bwd::<T>((s, l), &self.dims)?);
        Ok((st, self.in_shape()))
    }
}

/// How a layer's input is read and padded.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatchInput<'a> {
    /// Virtual zero padding `[top, bottom, left, right]`.
    pub pad: [usize; 4],
    /// The previous layer's deferred epilogue: every value read becomes `relu(x + bias)`.
    pub bias_relu: Option<&'a Tensor>,
    /// The input is channels-first `(B, C, H, W)` (read in place: no transposed copy); the
    /// output is channels-last as always.
    pub channels_first: bool,
    /// Half precision: patches stored as f16 (values computed in f32, the input F32 or F16) and
    /// multiplied in f16 with f32 accumulation (cuBLAS). Same 10-bit mantissa as TF32 for the
    /// matmul inputs; the layer's result is F16 with [`Epilogue::Deferred`], F32 otherwise.
    pub half: bool,
}

/// Patches `(B, OH, OW, kh·kw·C)` (ordered `dy, dx, c`) of a channels-last `(B, H, W, C)` input,
/// kernel `kh × kw`, stride `stride`, read as `input` says. Differentiable in `x` (col2im) unless
/// `input` has a pending bias or is half precision (inference-only forms: no gradient flows).
pub fn patches_nhwc(
    x: &Tensor,
    (kh, kw): (usize, usize),
    stride: usize,
    input: PatchInput,
) -> Result<Tensor> {
    let ok = if input.half {
        matches!(x.dtype(), DType::F32 | DType::F16)
    } else {
        matches!(x.dtype(), DType::F32 | DType::F64)
    };
    if !ok {
        candle_core::bail!(
            "patches support F32 and F64 (F32 and F16 in half precision), got {:?}",
            x.dtype()
        );
    }
    let op = PatchOp {
        kh,
        kw,
        stride,
        pad: input.pad,
        input_bias_relu: input.bias_relu.map(|b| b.detach()),
        channels_first: input.channels_first,
        half_out: input.half,
    };
    match input.bias_relu.is_none() && !input.half {
        true => x.contiguous()?.apply_op1(op),
        false => x.contiguous()?.apply_op1_no_bwd(&op),
    }
}

/// A convolution weight `(Cout, Cin, kh, kw)` as the `(kh·kw·Cin, Cout)` matrix that multiplies
/// [`patches_nhwc`] rows.
pub fn weight_matrix(w: &Tensor) -> Result<Tensor> {
    let (co, ci, kh, kw) = w.dims4()?;
    w.permute((2, 3, 1, 0))?
        .contiguous()?
        .reshape((kh * kw * ci, co))
}

/// What a channels-last convolution does after its matmul.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Epilogue {
    /// Add the bias.
    Bias,
    /// Add the bias, then ReLU (one fused pass).
    BiasRelu,
    /// Return the raw matmul output; the caller passes the bias as the next layer's
    /// [`PatchInput::bias_relu`] (bias + ReLU applied while that layer reads its patches).
    Deferred,
}

/// A channels-last convolution: `x (B, H, W, Cin)` → `(B, OH, OW, Cout)`, weight
/// `(Cout, Cin, kh, kw)` as candle stores it, optional bias `(Cout)`, stride `stride`, input read
/// as `input` says, output finished as `epilogue` says.
pub fn conv2d_nhwc_with(
    x: &Tensor,
    (w, bias): (&Tensor, Option<&Tensor>),
    stride: usize,
    input: PatchInput,
    epilogue: Epilogue,
) -> Result<Tensor> {
    let (b, _, _, _) = x.dims4()?;
    let (co, _, kh, kw) = w.dims4()?;
    let plain =
        input.pad == [0; 4] && input.bias_relu.is_none() && !input.channels_first && !input.half;
    let (rows, oh, ow) = if kh == 1 && kw == 1 && stride == 1 && plain {
        let (_, h, wd, c) = x.dims4()?;
        (x.reshape((b * h * wd, c))?, h, wd)
    } else {
        let p = patches_nhwc(x, (kh, kw), stride, input)?;
        let (_, oh, ow, k) = p.dims4()?;
        (p.reshape((b * oh * ow, k))?, oh, ow)
    };
    let wm = weight_matrix(w)?; // (kh·kw·Cin, Cout)
    let y = if input.half {
        let y = rows.matmul(&wm.to_dtype(DType::F16)?)?; // (B·OH·OW, Cout) f16
        if epilogue == Epilogue::Deferred {
            y
        } else {
            y.to_dtype(w.dtype())?
        }
    } else {
        rows.matmul(&wm)? // (B·OH·OW, Cout)
    };
    let y = match (bias, epilogue) {
        (None, Epilogue::Deferred) => candle_core::bail!(
            "conv2d_nhwc: a deferred epilogue needs a bias (the next layer applies relu(x + bias))"
        ),
        (Some(_), Epilogue::Deferred) => y,
        (Some(bias), e) => super::epilogue::bias_act(&y, bias, e == Epilogue::BiasRelu)?,
        (None, Epilogue::BiasRelu) => y.relu()?,
        (None, Epilogue::Bias) => y,
    };
    y.reshape((b, oh, ow, co))
}

/// [`conv2d_nhwc_with`] without padding or a pending input epilogue; ReLU after the bias when
/// `relu`.
pub fn conv2d_nhwc(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    stride: usize,
    relu: bool,
) -> Result<Tensor> {
    let e = if relu {
        Epilogue::BiasRelu
    } else {
        Epilogue::Bias
    };
    conv2d_nhwc_with(x, (w, bias), stride, PatchInput::default(), e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use candle_core::{Device, Module, Var};

    #[test]
    fn conv2d_nhwc_equals_candle_conv2d() {
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(3);
        for (ci, co, k, s, h, w) in [
            (3, 5, 4, 3, 14, 11),
            (4, 6, 4, 2, 9, 10),
            (5, 3, 1, 1, 4, 3),
        ] {
            let x = rng
                .normal(&[2, ci, h, w], &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap();
            let wt = rng
                .normal(&[co, ci, k, k], &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap();
            let bias = rng
                .normal(&[co], &dev)
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap();
            let cfg = candle_nn::Conv2dConfig {
                stride: s,
                ..Default::default()
            };
            let want = candle_nn::Conv2d::new(wt.clone(), Some(bias.clone()), cfg)
                .forward(&x)
                .unwrap();
            let got = conv2d_nhwc(
                &x.permute((0, 2, 3, 1)).unwrap().contiguous().unwrap(),
                &wt,
                Some(&bias),
                s,
                false,
            )
            .unwrap()
            .permute((0, 3, 1, 2))
            .unwrap();
            assert_eq!(got.dims(), want.dims());
            let err: f64 = (got - &want)
                .unwrap()
                .abs()
                .unwrap()
                .max_all()
                .unwrap()
                .to_scalar()
                .unwrap();
            assert!(err < 1e-10, "{ci}->{co} k{k} s{s}: {err}");
        }
    }

    use crate::testing::max_abs_diff;

    /// The reference: candle's `conv2d` + ReLU on the explicitly zero-padded channels-last `x`
    /// (`pad` = top, bottom, left, right), returned channels-first.
    fn candle_conv_relu(
        x: &Tensor,
        w: &Tensor,
        bias: &Tensor,
        stride: usize,
        pad: [usize; 4],
    ) -> Tensor {
        let padded = x
            .pad_with_zeros(1, pad[0], pad[1])
            .unwrap()
            .pad_with_zeros(2, pad[2], pad[3])
            .unwrap()
            .permute((0, 3, 1, 2))
            .unwrap();
        let cfg = candle_nn::Conv2dConfig {
            stride,
            ..Default::default()
        };
        candle_nn::Conv2d::new(w.clone(), Some(bias.clone()), cfg)
            .forward(&padded)
            .unwrap()
            .relu()
            .unwrap()
    }

    /// Virtual padding and a pending `relu(x + b)` equal candle's conv2d on the explicitly
    /// activated, zero-padded input; `channels` 4 and 8 take the float4 path on the GPU.
    fn check_padded_deferred(dev: &Device, dtype: DType, tol: f64) {
        let mut rng = SeededRng::new(5);
        for (ci, co, k, s, pad) in [
            (3, 5, 4, 3, [2, 1, 3, 0]),
            (4, 6, 3, 1, [1, 1, 1, 1]),
            (8, 3, 4, 2, [0, 0, 0, 0]),
        ] {
            let (h, w) = (9, 11);
            let x = rng
                .normal(&[2, h, w, ci], dev)
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            let b_in = rng.normal(&[ci], dev).unwrap().to_dtype(dtype).unwrap();
            let wt = rng
                .normal(&[co, ci, k, k], dev)
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            let bias = rng.normal(&[co], dev).unwrap().to_dtype(dtype).unwrap();
            let act = x.broadcast_add(&b_in).unwrap().relu().unwrap();
            let want = candle_conv_relu(&act, &wt, &bias, s, pad);
            let input = PatchInput {
                pad,
                bias_relu: Some(&b_in),
                channels_first: false,
                half: false,
            };
            let got = conv2d_nhwc_with(&x, (&wt, Some(&bias)), s, input, Epilogue::BiasRelu)
                .unwrap()
                .permute((0, 3, 1, 2))
                .unwrap();
            assert_eq!(got.dims(), want.dims(), "{ci}->{co} k{k} s{s} {pad:?}");
            // The same input read channels-first in place.
            let x_cf = x.permute((0, 3, 1, 2)).unwrap().contiguous().unwrap();
            let input_cf = PatchInput {
                channels_first: true,
                ..input
            };
            let got_cf =
                conv2d_nhwc_with(&x_cf, (&wt, Some(&bias)), s, input_cf, Epilogue::BiasRelu)
                    .unwrap()
                    .permute((0, 3, 1, 2))
                    .unwrap();
            let cf_err = max_abs_diff(&got_cf, &got);
            assert!(cf_err < tol, "channels-first {ci}->{co}: {cf_err}");
            let err = max_abs_diff(&got, &want);
            assert!(err < tol, "{ci}->{co} k{k} s{s} {pad:?}: {err}");
        }
        // A deferred epilogue needs a bias to defer.
        let x = Tensor::zeros((1, 4, 4, 2), dtype, dev).unwrap();
        let wt = Tensor::zeros((3, 2, 2, 2), dtype, dev).unwrap();
        let e = conv2d_nhwc_with(
            &x,
            (&wt, None),
            1,
            PatchInput::default(),
            Epilogue::Deferred,
        );
        assert!(e.unwrap_err().to_string().contains("needs a bias"));
    }

    fn padded_deferred(dev: &Device) {
        check_padded_deferred(dev, DType::F64, 1e-10);
        if dev.is_cuda() {
            check_padded_deferred(dev, DType::F32, 1e-3);
        }
    }

    crate::test_device!(padded_deferred, padded_deferred_cpu, padded_deferred_cuda);

    /// Half patches equal the f32 patches of the same values rounded to f16, exactly: f32 or
    /// f16 input, with and without a pending bias, 3 channels (per-value kernel) and 8 (16-byte
    /// moves on the GPU).
    fn half_patches_are_rounded_f32_patches(dev: &Device) {
        let mut rng = SeededRng::new(9);
        for (c, channels_first) in [(3, true), (3, false), (8, false)] {
            let x = rng.normal(&[2, 7, 6, c], dev).unwrap();
            let x16 = x.to_dtype(DType::F16).unwrap();
            let bias = rng.normal(&[c], dev).unwrap();
            for bias_relu in [None, Some(&bias)] {
                for input_f16 in [false, true] {
                    if input_f16 && channels_first {
                        continue; // f16 inputs are channels-last only
                    }
                    let src = if input_f16 { &x16 } else { &x };
                    let src = if channels_first {
                        src.permute((0, 3, 1, 2)).unwrap().contiguous().unwrap()
                    } else {
                        src.clone()
                    };
                    let input = PatchInput {
                        pad: [1, 2, 0, 1],
                        bias_relu,
                        channels_first,
                        half: false,
                    };
                    let want = patches_nhwc(&src.to_dtype(DType::F32).unwrap(), (3, 2), 2, input)
                        .unwrap()
                        .to_dtype(DType::F16)
                        .unwrap();
                    let half = PatchInput {
                        half: true,
                        ..input
                    };
                    let got = patches_nhwc(&src, (3, 2), 2, half).unwrap();
                    assert_eq!(got.dtype(), DType::F16);
                    let (g, w) = (got.to_dtype(DType::F32).unwrap(), want.to_dtype(DType::F32));
                    let err = max_abs_diff(&g, &w.unwrap());
                    assert_eq!(err, 0.0, "C {c} cf {channels_first} f16 in {input_f16}");
                }
            }
        }
    }

    crate::test_device!(
        half_patches_are_rounded_f32_patches,
        half_patches_cpu,
        half_patches_cuda
    );

    /// The channels-last convolution's gradients (input via col2im, weight and bias via the
    /// matmul) equal candle's `conv2d` gradients on the explicitly padded input: strides 1–3,
    /// kernels 1–4, asymmetric padding, channels-first and -last inputs.
    fn conv_gradients_equal_candle(dev: &Device) {
        let mut rng = SeededRng::new(21);
        let f64_of = |t: Tensor| t.to_dtype(DType::F64).unwrap();
        for (ci, co, k, s, pad, cf) in [
            (3, 5, 4, 3, [2, 1, 3, 0], true),
            (4, 6, 3, 1, [1, 1, 1, 1], false),
            (8, 3, 4, 2, [0, 0, 0, 0], false),
            (5, 4, 1, 1, [0, 0, 0, 0], false),
            (2, 3, 2, 3, [1, 0, 0, 2], false),
        ] {
            // Equal padded sizes: candle's conv2d backward takes the output padding of its
            // transposed convolution from the height alone.
            let h = 9;
            let w = h + pad[0] + pad[1] - pad[2] - pad[3];
            let x = Var::from_tensor(&f64_of(rng.normal(&[2, h, w, ci], dev).unwrap())).unwrap();
            let wt = Var::from_tensor(&f64_of(rng.normal(&[co, ci, k, k], dev).unwrap())).unwrap();
            let bias = Var::from_tensor(&f64_of(rng.normal(&[co], dev).unwrap())).unwrap();
            let want = candle_conv_relu(&x, &wt, &bias, s, pad);
            let input = PatchInput {
                pad,
                channels_first: cf,
                ..PatchInput::default()
            };
            let x_in = match cf {
                true => x.permute((0, 3, 1, 2)).unwrap().contiguous().unwrap(),
                false => x.as_tensor().clone(),
            };
            let got = conv2d_nhwc_with(&x_in, (&wt, Some(&bias)), s, input, Epilogue::BiasRelu)
                .unwrap()
                .permute((0, 3, 1, 2))
                .unwrap();
            assert_eq!(got.dims(), want.dims());
            assert!(max_abs_diff(&got, &want) < 1e-10);
            let cot = f64_of(rng.normal(want.dims(), dev).unwrap());
            let grads = |y: &Tensor| (y * &cot).unwrap().sum_all().unwrap().backward().unwrap();
            let (gw, gg) = (grads(&want), grads(&got));
            for (name, v) in [("x", &x), ("weight", &wt), ("bias", &bias)] {
                let (a, b) = (gw.get(v).unwrap(), gg.get(v).unwrap());
                let err = max_abs_diff(a, b);
                assert!(
                    err < 1e-9,
                    "{ci}->{co} k{k} s{s} {pad:?} cf {cf}: d{name} {err}"
                );
            }
        }
        // The inference-only forms refuse a gradient rather than return a wrong one.
        let x = Var::from_tensor(&f64_of(rng.normal(&[1, 4, 4, 2], dev).unwrap())).unwrap();
        let b_in = f64_of(rng.normal(&[2], dev).unwrap());
        let input = PatchInput {
            bias_relu: Some(&b_in),
            ..PatchInput::default()
        };
        let p = patches_nhwc(&x, (2, 2), 1, input).unwrap();
        let g = p.sum_all().unwrap().backward().unwrap();
        assert!(g.get(&x).is_none(), "no gradient through a pending bias");
    }

    crate::test_device!(
        conv_gradients_equal_candle,
        conv_gradients_cpu,
        conv_gradients_cuda
    );

    #[test]
    fn patch_order_is_row_col_channel() {
        let dev = Device::Cpu;
        // (1, 3, 3, 2): value = 100·y + 10·x + c
        let v: Vec<f32> = (0..3)
            .flat_map(|y| {
                (0..3).flat_map(move |x| (0..2).map(move |c| (100 * y + 10 * x + c) as f32))
            })
            .collect();
        let x = Tensor::from_vec(v, (1, 3, 3, 2), &dev).unwrap();
        let p = patches_nhwc(&x, (2, 2), 1, PatchInput::default()).unwrap();
        assert_eq!(p.dims(), &[1, 2, 2, 8]);
        let p11: Vec<f32> = p
            .get(0)
            .unwrap()
            .get(1)
            .unwrap()
            .get(1)
            .unwrap()
            .to_vec1()
            .unwrap();
        assert_eq!(p11, vec![110., 111., 120., 121., 210., 211., 220., 221.]);
        assert!(patches_nhwc(&x, (4, 4), 1, PatchInput::default()).is_err());
    }
}
