//! Channels-last patch extraction (im2col), forward only: the inference path of the backbone's
//! strided convolutions (`Backbone::forward_inference`).
//!
//! candle's CUDA `conv2d` extracts patches from channels-first images (strided, uncoalesced reads)
//! and transposes its result back to channels-first with an extra copy per layer; on Space
//! Invaders frames at batch 256 that made the backbone 40 % of an inference step. Channels-last
//! patches are contiguous runs of `kw·C` values per kernel row, so one block per output position
//! copies them with coalesced reads and writes, and the convolution becomes one matmul whose
//! output is already channels-last. Training keeps candle's `conv2d` (it needs gradients).

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp1, DType, Layout, Result, Shape, Tensor};
use rayon::prelude::*;

use super::cpu::storage_slice;

/// Patch geometry: kernel `kh × kw`, stride `s` (no padding: pad the input first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PatchDims {
    pub b: usize,
    pub h: usize,
    pub w: usize,
    pub c: usize,
    pub kh: usize,
    pub kw: usize,
    pub stride: usize,
}

impl PatchDims {
    pub fn out_h(&self) -> usize {
        (self.h - self.kh) / self.stride + 1
    }

    pub fn out_w(&self) -> usize {
        (self.w - self.kw) / self.stride + 1
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
}

impl PatchOp {
    fn dims(&self, l: &Layout) -> Result<PatchDims> {
        let (b, h, w, c) = l.shape().dims4()?;
        if h < self.kh || w < self.kw || self.stride == 0 {
            candle_core::bail!(
                "patches: input {:?} smaller than the {}x{} kernel (or stride 0)",
                l.dims(),
                self.kh,
                self.kw
            );
        }
        Ok(PatchDims {
            b,
            h,
            w,
            c,
            kh: self.kh,
            kw: self.kw,
            stride: self.stride,
        })
    }

    fn out_shape(d: &PatchDims) -> Shape {
        Shape::from((d.b, d.out_h(), d.out_w(), d.patch_len()))
    }
}

fn patches_cpu<T: candle_core::WithDType>(x: &[T], d: &PatchDims) -> Vec<T> {
    let (oh, ow, k) = (d.out_h(), d.out_w(), d.patch_len());
    let row = d.kw * d.c; // one kernel row: contiguous in the input
    let mut out = vec![T::zero(); d.b * oh * ow * k];
    out.par_chunks_mut(k).enumerate().for_each(|(pos, patch)| {
        let (b, oy, ox) = (pos / (oh * ow), pos / ow % oh, pos % ow);
        for dy in 0..d.kh {
            let src = ((b * d.h + oy * d.stride + dy) * d.w + ox * d.stride) * d.c;
            patch[dy * row..(dy + 1) * row].copy_from_slice(&x[src..src + row]);
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
        let out = match s {
            CpuStorage::F32(_) => CpuStorage::F32(patches_cpu(storage_slice::<f32>(s, l)?, &d)),
            CpuStorage::F64(_) => CpuStorage::F64(patches_cpu(storage_slice::<f64>(s, l)?, &d)),
            other => candle_core::bail!("patches supports F32 and F64, got {:?}", other.dtype()),
        };
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
        let st = if cuda::is_f32(s)? {
            cuda::storage(cuda::patches_fwd::<f32>((s, l), &d)?, dev)
        } else {
            cuda::storage(cuda::patches_fwd::<f64>((s, l), &d)?, dev)
        };
        Ok((st, Self::out_shape(&d)))
    }
}

/// Patches `(B, OH, OW, kh·kw·C)` (ordered `dy, dx, c`) of a channels-last `(B, H, W, C)` input,
/// kernel `kh × kw`, stride `stride`, no padding. No gradient flows through it.
pub fn patches_nhwc(x: &Tensor, kh: usize, kw: usize, stride: usize) -> Result<Tensor> {
    if !matches!(x.dtype(), DType::F32 | DType::F64) {
        candle_core::bail!("patches supports F32 and F64, got {:?}", x.dtype());
    }
    x.contiguous()?
        .apply_op1_no_bwd(&PatchOp { kh, kw, stride })
}

/// A convolution weight `(Cout, Cin, kh, kw)` as the `(kh·kw·Cin, Cout)` matrix that multiplies
/// [`patches_nhwc`] rows.
pub fn weight_matrix(w: &Tensor) -> Result<Tensor> {
    let (co, ci, kh, kw) = w.dims4()?;
    w.permute((2, 3, 1, 0))?
        .contiguous()?
        .reshape((kh * kw * ci, co))
}

/// A channels-last convolution: `x (B, H, W, Cin)` → `(B, OH, OW, Cout)`, weight
/// `(Cout, Cin, kh, kw)` as candle stores it, optional bias `(Cout)`, stride `stride`, no padding,
/// followed by a ReLU when `relu` (fused with the bias add, [`super::epilogue::bias_act`]).
pub fn conv2d_nhwc(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    stride: usize,
    relu: bool,
) -> Result<Tensor> {
    let (b, _, _, _) = x.dims4()?;
    let (co, _, kh, kw) = w.dims4()?;
    let (rows, k, oh, ow) = if kh == 1 && kw == 1 && stride == 1 {
        let (_, h, wd, c) = x.dims4()?;
        (x.reshape((b * h * wd, c))?, c, h, wd)
    } else {
        let p = patches_nhwc(x, kh, kw, stride)?;
        let (_, oh, ow, k) = p.dims4()?;
        (p.reshape((b * oh * ow, k))?, k, oh, ow)
    };
    debug_assert_eq!(k, w.elem_count() / co);
    let y = rows.matmul(&weight_matrix(w)?)?; // (B·OH·OW, Cout)
    let y = match bias {
        Some(bias) => super::epilogue::bias_act(&y, bias, relu)?,
        None if relu => y.relu()?,
        None => y,
    };
    y.reshape((b, oh, ow, co))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use candle_core::{Device, Module};

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
        let p = patches_nhwc(&x, 2, 2, 1).unwrap();
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
        assert!(patches_nhwc(&x, 4, 4, 1).is_err());
    }
}
