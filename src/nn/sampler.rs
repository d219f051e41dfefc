//! Glimpse extraction (spatial transformer, reference §3): bilinear sampling of a `gh × gw`
//! glimpse per object from the image, with Sonnet's corner-aligned `(L − 1)` convention and
//! zero padding (`tf.contrib.resampler`).
//!
//! For box `(yc, xc, h, w)` (image-normalised centre and size) glimpse pixel `(r, c)` samples the
//! source at pixel-index coordinates (pixel centres at integers)
//! `y = (H − 1)·(yc + h·u_y(r)/2)`, `x = (W − 1)·(xc + w·u_x(c)/2)`,
//! `u(i) = −1 + 2i/(L − 1)` (`u = −1` when `L = 1`, as `linspace(−1, 1, 1)`), and the four
//! neighbours outside the image contribute 0.
//!
//! [`extract_glimpses`] is a CPU custom op with an exact first-order backward pass (gradients
//! wrt image and boxes); [`extract_glimpses_reference`] composes candle ops (slow, used to check
//! it). With the `cuda` feature the op runs CUDA kernels (forward and backward, `kernels.cu`) on
//! GPU tensors; the CPU kernel and the composed reference are the ground truth they are tested
//! against.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp2, DType, Device, Layout, Result, Shape, Tensor, WithDType};
use rayon::prelude::*;

use super::cpu::{
    self, check_float, stencil, storage_f64, storage_slice, tensor_f64, tensor_from_f64,
    with_values,
};

/// Normalised output-grid coordinate `u(i) ∈ [−1, 1]` of glimpse row/column `i` of `len`.
#[inline]
fn grid_u(i: usize, len: usize) -> f64 {
    if len <= 1 {
        -1.0
    } else {
        -1.0 + 2.0 * i as f64 / (len - 1) as f64
    }
}

/// Geometry of one call.
#[derive(Debug, Clone, Copy)]
struct Dims {
    b: usize,
    c: usize,
    h: usize,
    w: usize,
    k: usize,
    gh: usize,
    gw: usize,
}

impl Dims {
    fn glimpse_len(&self) -> usize {
        self.c * self.gh * self.gw
    }
    fn image_len(&self) -> usize {
        self.c * self.h * self.w
    }
}

/// Source coordinates of the glimpse rows `(y per r)` and columns `(x per c)` for one box.
fn source_coords(bx: &[f64], d: &Dims) -> (Vec<f64>, Vec<f64>) {
    let (yc, xc, bh, bw) = (bx[0], bx[1], bx[2], bx[3]);
    let ys = (0..d.gh)
        .map(|r| (d.h as f64 - 1.0) * (yc + bh * grid_u(r, d.gh) / 2.0))
        .collect();
    let xs = (0..d.gw)
        .map(|c| (d.w as f64 - 1.0) * (xc + bw * grid_u(c, d.gw) / 2.0))
        .collect();
    (ys, xs)
}

/// Bilinear neighbours of `(y, x)` inside an `h × w` image: up to four `(offset, weight,
/// dweight/dy, dweight/dx)`.
#[inline]
fn neighbours(y: f64, x: f64, h: usize, w: usize, out: &mut Vec<(usize, f64, f64, f64)>) {
    out.clear();
    let (y0, wy0, wy1) = stencil(y);
    let (x0, wx0, wx1) = stencil(x);
    for (dy, wy, dwy) in [(0i64, wy0, -1.0), (1, wy1, 1.0)] {
        let yi = y0 + dy;
        if yi < 0 || yi >= h as i64 {
            continue;
        }
        for (dx, wx, dwx) in [(0i64, wx0, -1.0), (1, wx1, 1.0)] {
            let xi = x0 + dx;
            if xi < 0 || xi >= w as i64 {
                continue;
            }
            out.push((yi as usize * w + xi as usize, wy * wx, dwy * wx, wy * dwx));
        }
    }
}

/// Forward kernel: `img (B,C,H,W)`, `boxes (B,K,4)` → `(B,K,C,gh,gw)`, each glimpse at the start
/// of a row of `row ≥ C·gh·gw` values (zeros after it).
fn forward_kernel<T: WithDType>(img: &[T], boxes: &[f64], d: Dims, row: usize) -> Vec<T> {
    let mut out = vec![T::from_f64(0.0); d.b * d.k * row];
    let plane = d.gh * d.gw;
    out.par_chunks_mut(row).enumerate().for_each(|(bk, g)| {
        let b = bk / d.k;
        let im = &img[b * d.image_len()..(b + 1) * d.image_len()];
        let (ys, xs) = source_coords(&boxes[bk * 4..bk * 4 + 4], &d);
        let mut nb = Vec::with_capacity(4);
        for (r, &y) in ys.iter().enumerate() {
            for (c, &x) in xs.iter().enumerate() {
                neighbours(y, x, d.h, d.w, &mut nb);
                for ch in 0..d.c {
                    let src = &im[ch * d.h * d.w..(ch + 1) * d.h * d.w];
                    g[ch * plane + r * d.gw + c] =
                        T::from_f64(nb.iter().map(|&(o, wt, _, _)| wt * src[o].to_f64()).sum());
                }
            }
        }
    });
    out
}

/// Backward kernel: gradients wrt image `(B,C,H,W)` and boxes `(B,K,4)` from `grad (B,K,C,gh,gw)`.
fn backward_kernel<T: WithDType>(
    img: &[T],
    boxes: &[f64],
    grad: &[T],
    d: Dims,
) -> (Vec<f64>, Vec<f64>) {
    let mut g_img = vec![0.0; d.b * d.image_len()];
    let mut g_box = vec![0.0; d.b * d.k * 4];
    let plane = d.gh * d.gw;
    let (hm1, wm1) = (d.h as f64 - 1.0, d.w as f64 - 1.0);
    g_img
        .par_chunks_mut(d.image_len())
        .zip(g_box.par_chunks_mut(d.k * 4))
        .enumerate()
        .for_each(|(b, (gi, gb))| {
            let im = &img[b * d.image_len()..(b + 1) * d.image_len()];
            let mut nb = Vec::with_capacity(4);
            for k in 0..d.k {
                let bk = b * d.k + k;
                let (ys, xs) = source_coords(&boxes[bk * 4..bk * 4 + 4], &d);
                let go = &grad[bk * d.glimpse_len()..(bk + 1) * d.glimpse_len()];
                let mut acc = [0.0f64; 4];
                for (r, &y) in ys.iter().enumerate() {
                    let uy = grid_u(r, d.gh);
                    for (c, &x) in xs.iter().enumerate() {
                        let ux = grid_u(c, d.gw);
                        neighbours(y, x, d.h, d.w, &mut nb);
                        let (mut dvdy, mut dvdx) = (0.0, 0.0);
                        for ch in 0..d.c {
                            let g = go[ch * plane + r * d.gw + c].to_f64();
                            if g == 0.0 {
                                continue;
                            }
                            let base = ch * d.h * d.w;
                            for &(o, wt, dwy, dwx) in &nb {
                                gi[base + o] += g * wt;
                                dvdy += g * dwy * im[base + o].to_f64();
                                dvdx += g * dwx * im[base + o].to_f64();
                            }
                        }
                        // y = (H-1)(yc + h·u/2): dy/dyc = H-1, dy/dh = (H-1)u/2; same for x.
                        acc[0] += dvdy * hm1;
                        acc[1] += dvdx * wm1;
                        acc[2] += dvdy * hm1 * uy / 2.0;
                        acc[3] += dvdx * wm1 * ux / 2.0;
                    }
                }
                gb[k * 4..k * 4 + 4].copy_from_slice(&acc);
            }
        });
    (g_img, g_box)
}

/// Backward pass on host values of dtype `T`.
fn backward_typed<T: WithDType>(
    img: &Tensor,
    boxes: &Tensor,
    grad: &Tensor,
    d: Dims,
) -> Result<(Tensor, Tensor)> {
    let bv = tensor_f64(boxes)?;
    let (gi, gb) = with_values::<T, _>(img, |iv| {
        with_values::<T, _>(grad, |gv| Ok(backward_kernel(iv, &bv, gv, d)))
    })?;
    Ok((
        tensor_from_f64::<T>(gi, img)?,
        tensor_from_f64::<T>(gb, boxes)?,
    ))
}

/// The custom op: `(images, boxes) → glimpses` `(B, K, C, gh, gw)`, or with `row` set
/// `(B, K, row)`: each glimpse flattened and followed by zeros up to `row` values.
struct GlimpseOp {
    gh: usize,
    gw: usize,
    row: Option<usize>,
}

impl GlimpseOp {
    fn dims(&self, img: &Shape, boxes: &Shape) -> Result<Dims> {
        let (b, c, h, w) = img.dims4()?;
        let (bb, k, four) = boxes.dims3()?;
        if bb != b || four != 4 {
            candle_core::bail!(
                "extract_glimpses: boxes must be (B={b}, K, 4), got {:?}",
                boxes.dims()
            );
        }
        Ok(Dims {
            b,
            c,
            h,
            w,
            k,
            gh: self.gh,
            gw: self.gw,
        })
    }

    /// Values per glimpse row and the output shape.
    fn layout(&self, d: &Dims) -> (usize, Shape) {
        match self.row {
            Some(row) => (row, Shape::from((d.b, d.k, row))),
            None => (d.glimpse_len(), Shape::from((d.b, d.k, d.c, d.gh, d.gw))),
        }
    }
}

impl CustomOp2 for GlimpseOp {
    fn name(&self) -> &'static str {
        "silot-extract-glimpses"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let d = self.dims(l1.shape(), l2.shape())?;
        let (row, shape) = self.layout(&d);
        // Boxes share the images' dtype (checked by `check_inputs`).
        let out = cpu::by_float!(s1, "extract_glimpses", T => {
            let boxes = storage_f64::<T>(s2, l2)?;
            forward_kernel(storage_slice::<T>(s1, l1)?, &boxes, d, row)
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
        let d = self.dims(l1.shape(), l2.shape())?;
        let (row, shape) = self.layout(&d);
        let gd = (d.b, d.c, d.h, d.w, d.k, d.gh, d.gw);
        let st = cuda::by_float!(s1, T => cuda::glimpse_fwd::<T>((s1, l1), (s2, l2), gd, row)?);
        Ok((st, shape))
    }

    fn bwd(
        &self,
        img: &Tensor,
        boxes: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        let d = self.dims(img.shape(), boxes.shape())?;
        // Rows: the glimpse values are the first C·gh·gw of each row.
        let grad = match self.row {
            Some(_) => &grad
                .narrow(2, 0, d.glimpse_len())?
                .reshape((d.b, d.k, d.c, d.gh, d.gw))?,
            None => grad,
        };
        if img.device().is_cuda() {
            let packed = img.contiguous()?.apply_op3(
                &boxes.contiguous()?,
                &grad.contiguous()?,
                GlimpseBwdOp { d },
            )?;
            let n_img = d.b * d.image_len();
            let gi = packed.narrow(0, 0, n_img)?.reshape(img.shape())?;
            let gb = packed
                .narrow(0, n_img, d.b * d.k * 4)?
                .reshape(boxes.shape())?;
            return Ok((Some(gi), Some(gb)));
        }
        let (gi, gb) = match img.dtype() {
            DType::F32 => backward_typed::<f32>(img, boxes, grad, d)?,
            _ => backward_typed::<f64>(img, boxes, grad, d)?,
        };
        Ok((Some(gi), Some(gb)))
    }
}

/// Backward of [`GlimpseOp`] as an op of its own so that it runs on the inputs' device:
/// `(images, boxes, grad) → [g_images (B·C·H·W), g_boxes (B·K·4)]` (flat).
struct GlimpseBwdOp {
    d: Dims,
}

impl candle_core::CustomOp3 for GlimpseBwdOp {
    fn name(&self) -> &'static str {
        "silot-extract-glimpses-backward"
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
        let d = self.d;
        let out = cpu::by_float!(s1, "extract_glimpses", T => {
            let (img, grad) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s3, l3)?);
            let (gi, gb) = backward_kernel(img, &storage_f64::<T>(s2, l2)?, grad, d);
            gi.into_iter().chain(gb).map(T::from_f64).collect()
        });
        Ok((out, Shape::from(d.b * d.image_len() + d.b * d.k * 4)))
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
        let d = self.d;
        let gd = (d.b, d.c, d.h, d.w, d.k, d.gh, d.gw);
        let st =
            cuda::by_float!(s1, T => cuda::glimpse_bwd::<T>((s1, l1), (s2, l2), (s3, l3), gd)?);
        Ok((st, Shape::from(d.b * d.image_len() + d.b * d.k * 4)))
    }
}

fn check_inputs(images: &Tensor, boxes: &Tensor, out_hw: (usize, usize)) -> Result<()> {
    check_float(images, "extract_glimpses images")?;
    check_float(boxes, "extract_glimpses boxes")?;
    if images.dtype() != boxes.dtype() {
        candle_core::bail!(
            "extract_glimpses: images {:?} and boxes {:?} must have the same dtype",
            images.dtype(),
            boxes.dtype()
        );
    }
    if out_hw.0 == 0 || out_hw.1 == 0 {
        candle_core::bail!("extract_glimpses: glimpse size must be positive, got {out_hw:?}");
    }
    GlimpseOp {
        gh: out_hw.0,
        gw: out_hw.1,
        row: None,
    }
    .dims(images.shape(), boxes.shape())
    .map(|_| ())
}

/// Glimpses `(B, K, C, gh, gw)` from `images (B, C, H, W)` at `boxes (B, K, 4)` =
/// `(yc, xc, h, w)` image-normalised (`yc = yt·a_h/H_img`, `h = ys·a_h/H_img`).
/// Differentiable wrt images and boxes (custom op: CPU kernel, CUDA kernels with the `cuda`
/// feature; other devices go through the host).
pub fn extract_glimpses(images: &Tensor, boxes: &Tensor, out_hw: (usize, usize)) -> Result<Tensor> {
    glimpse_op(images, boxes, out_hw, None)
}

/// [`extract_glimpses`] flattened into rows of `row ≥ C·gh·gw` values `(B, K, row)`, zeros after
/// each glimpse: an encoder matmul whose input width is a multiple of 4 runs tensor-core kernels
/// for aligned rows on the GPU (`C·gh·gw` = 1323 for 21×21 RGB glimpses is not). Differentiable.
pub fn extract_glimpse_rows(
    images: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
    row: usize,
) -> Result<Tensor> {
    let len = images.dim(1)? * out_hw.0 * out_hw.1;
    if row < len {
        candle_core::bail!("extract_glimpse_rows: row {row} shorter than a glimpse ({len})");
    }
    glimpse_op(images, boxes, out_hw, Some(row))
}

fn glimpse_op(
    images: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
    row: Option<usize>,
) -> Result<Tensor> {
    check_inputs(images, boxes, out_hw)?;
    let op = GlimpseOp {
        gh: out_hw.0,
        gw: out_hw.1,
        row,
    };
    let dev = images.device();
    if dev.is_cpu() || (dev.is_cuda() && super::device_kernels()) {
        images.contiguous()?.apply_op2(&boxes.contiguous()?, op)
    } else {
        // No kernel for this device: run on the host (to_device is differentiable).
        let cpu = Device::Cpu;
        let out = images
            .to_device(&cpu)?
            .contiguous()?
            .apply_op2(&boxes.to_device(&cpu)?.contiguous()?, op)?;
        out.to_device(dev)
    }
}

/// The same glimpses composed from candle ops (gather + arithmetic); slow, differentiable
/// through candle's autograd. Reference for tests and benchmarks.
pub fn extract_glimpses_reference(
    images: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
) -> Result<Tensor> {
    check_inputs(images, boxes, out_hw)?;
    let (b, c, h, w) = images.dims4()?;
    let k = boxes.dim(1)?;
    let (gh, gw) = out_hw;
    let dt = images.dtype();
    let dev = images.device();
    let uy = Tensor::from_vec(
        (0..gh).map(|i| grid_u(i, gh)).collect::<Vec<_>>(),
        (1, 1, gh),
        dev,
    )?
    .to_dtype(dt)?;
    let ux = Tensor::from_vec(
        (0..gw).map(|i| grid_u(i, gw)).collect::<Vec<_>>(),
        (1, 1, gw),
        dev,
    )?
    .to_dtype(dt)?;
    let coord = |centre: usize, size: usize, u: &Tensor, len: usize| -> Result<Tensor> {
        let cen = boxes.narrow(2, centre, 1)?; // (B,K,1)
        let sz = boxes.narrow(2, size, 1)?;
        cen.broadcast_add(&sz.broadcast_mul(u)?.affine(0.5, 0.0)?)?
            .affine(len as f64 - 1.0, 0.0)
    };
    let y = coord(0, 2, &uy, h)?
        .unsqueeze(3)?
        .broadcast_as((b, k, gh, gw))?; // (B,K,gh,gw)
    let x = coord(1, 3, &ux, w)?
        .unsqueeze(2)?
        .broadcast_as((b, k, gh, gw))?;
    let y0 = y.detach().floor()?;
    let x0 = x.detach().floor()?;
    let fy = (&y - &y0)?;
    let fx = (&x - &x0)?;
    let flat = images.reshape((b, c, h * w))?;
    let n = k * gh * gw;
    let mut acc: Option<Tensor> = None;
    for (dy, dx) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)] {
        let yi = y0.affine(1.0, dy)?;
        let xi = x0.affine(1.0, dx)?;
        let valid = (yi.ge(0.0)? * yi.le(h as f64 - 1.0)?)?;
        let valid = ((valid * xi.ge(0.0)?)? * xi.le(w as f64 - 1.0)?)?.to_dtype(dt)?;
        let idx = (yi.clamp(0.0, h as f64 - 1.0)?.affine(w as f64, 0.0)?
            + xi.clamp(0.0, w as f64 - 1.0)?)?
        .to_dtype(DType::U32)?
        .reshape((b, 1, n))?
        .broadcast_as((b, c, n))?
        .contiguous()?;
        let vals = flat
            .gather(&idx, 2)?
            .reshape((b, c, k, gh, gw))?
            .permute((0, 2, 1, 3, 4))?;
        let wt = crate::nn::corner_weight(&fy, &fx, dy, dx, &valid)?; // (B,K,1,gh,gw)
        let term = vals.broadcast_mul(&wt)?;
        acc = Some(match acc {
            None => term,
            Some(a) => (a + term)?,
        });
    }
    match acc {
        Some(a) => a.contiguous(),
        None => candle_core::bail!("unreachable: four bilinear neighbours"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Var;

    fn image(b: usize, c: usize, h: usize, w: usize, dt: DType) -> Tensor {
        let v: Vec<f64> = (0..b * c * h * w)
            .map(|i| ((i * 37 % 101) as f64) / 101.0)
            .collect();
        Tensor::from_vec(v, (b, c, h, w), &Device::Cpu)
            .unwrap()
            .to_dtype(dt)
            .unwrap()
    }

    fn identity_box_reproduces_image(dev: &Device) {
        let img = image(2, 3, 7, 9, DType::F32).to_device(dev).unwrap();
        let boxes = Tensor::new(&[[[0.5f32, 0.5, 1.0, 1.0]], [[0.5, 0.5, 1.0, 1.0]]], dev).unwrap();
        let g = extract_glimpses(&img, &boxes, (7, 9)).unwrap();
        assert_eq!(g.dims(), &[2, 1, 3, 7, 9]);
        let diff = (g.squeeze(1).unwrap() - &img)
            .unwrap()
            .abs()
            .unwrap()
            .max_all()
            .unwrap();
        assert!(diff.to_scalar::<f32>().unwrap() < 1e-6);
    }

    crate::test_device!(identity_box_reproduces_image, identity_cpu, identity_cuda);

    fn half_pixel_shift_and_zero_padding(dev: &Device) {
        // A 1×1×2×2 image; box centred on the left column's right edge samples the middle.
        let img = Tensor::new(&[[[[1.0f64, 3.0], [5.0, 7.0]]]], dev).unwrap();
        // x = (W-1)(xc) = 0.5 → average of the columns; y = 0 → first row.
        let boxes = Tensor::new(
            &[[
                [0.0f64, 0.5, 0.0, 0.0],
                [0.0, -1.0, 0.0, 0.0],
                [1.0, 1.25, 0.0, 0.0],
            ]],
            dev,
        )
        .unwrap();
        let g = extract_glimpses(&img, &boxes, (1, 1))
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f64>()
            .unwrap();
        assert!((g[0] - 2.0).abs() < 1e-12);
        assert_eq!(g[1], 0.0); // x = -1: outside → 0
        assert!((g[2] - 0.75 * 7.0).abs() < 1e-12); // x = 1.25: right neighbour outside counts 0
    }
    crate::test_device!(
        half_pixel_shift_and_zero_padding,
        half_pixel_cpu,
        half_pixel_cuda
    );

    /// Rows hold the glimpse then zeros; gradients equal those of the plain glimpses.
    fn rows_equal_padded_glimpses(dev: &Device) {
        let (img, boxes) = fixture(DType::F64);
        let img = Var::from_tensor(&img.to_device(dev).unwrap()).unwrap();
        let boxes = Var::from_tensor(&boxes.to_device(dev).unwrap()).unwrap();
        let (gh, gw, row) = (3, 5, 36); // C·gh·gw = 30
        let w = crate::rng::SeededRng::new(9)
            .normal(&[2, 2, row], dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let got = extract_glimpse_rows(img.as_tensor(), boxes.as_tensor(), (gh, gw), row).unwrap();
        let want = extract_glimpses(img.as_tensor(), boxes.as_tensor(), (gh, gw))
            .unwrap()
            .flatten_from(2)
            .unwrap()
            .pad_with_zeros(2, 0, row - 30)
            .unwrap();
        assert_eq!(got.dims(), &[2, 2, row]);
        let diff = crate::testing::max_abs_diff;
        assert!(diff(&got, &want) < 1e-12);
        let gg = (got * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let gw_ = (want * &w).unwrap().sum_all().unwrap().backward().unwrap();
        for v in [&img, &boxes] {
            assert!(diff(gg.get(v).unwrap(), gw_.get(v).unwrap()) < 1e-10);
        }
        assert!(extract_glimpse_rows(img.as_tensor(), boxes.as_tensor(), (gh, gw), 29).is_err());
    }

    crate::test_device!(rows_equal_padded_glimpses, rows_cpu, rows_cuda);

    fn fixture(dt: DType) -> (Tensor, Tensor) {
        let img = image(2, 2, 6, 8, dt);
        let boxes = Tensor::new(
            &[
                [[0.43f64, 0.37, 0.61, 0.52], [0.1, 0.9, 0.5, 0.73]],
                [[0.55, 0.48, 1.31, 0.88], [0.771, 0.213, 0.34, 0.27]],
            ],
            &Device::Cpu,
        )
        .unwrap()
        .to_dtype(dt)
        .unwrap();
        (img, boxes)
    }

    #[test]
    fn custom_op_matches_reference_forward_and_backward() {
        for dt in [DType::F32, DType::F64] {
            let (img, boxes) = fixture(dt);
            let vi = Var::from_tensor(&img).unwrap();
            let vb = Var::from_tensor(&boxes).unwrap();
            let weights = image(2, 2 * 2 * 5, 4, 1, dt)
                .reshape((2, 2, 2, 5, 4))
                .unwrap();
            let run = |f: fn(&Tensor, &Tensor, (usize, usize)) -> Result<Tensor>| {
                let g = f(vi.as_tensor(), vb.as_tensor(), (5, 4)).unwrap();
                let loss = (&g * &weights).unwrap().sum_all().unwrap();
                let grads = loss.backward().unwrap();
                (
                    tensor_f64(&g).unwrap(),
                    tensor_f64(grads.get(vi.as_tensor()).unwrap()).unwrap(),
                    tensor_f64(grads.get(vb.as_tensor()).unwrap()).unwrap(),
                )
            };
            let a = run(extract_glimpses);
            let b = run(extract_glimpses_reference);
            let tol = if dt == DType::F32 { 1e-5 } else { 1e-12 };
            for (x, y) in [(&a.0, &b.0), (&a.1, &b.1)] {
                for (p, q) in x.iter().zip(y) {
                    assert!((p - q).abs() <= tol, "{p} vs {q}");
                }
            }
            for (p, q) in a.2.iter().zip(&b.2) {
                assert!(
                    (p - q).abs() <= tol * (1.0 + q.abs()) * 10.0,
                    "box grad {p} vs {q}"
                );
            }
        }
    }

    #[test]
    fn finite_difference_gradients_image_and_boxes() {
        let (img, boxes) = fixture(DType::F64);
        let weights = image(2, 2 * 2 * 5, 4, 1, DType::F64)
            .reshape((2, 2, 2, 5, 4))
            .unwrap();
        let loss = |i: &Tensor, b: &Tensor| {
            extract_glimpses(i, b, (5, 4))
                .unwrap()
                .mul(&weights)
                .unwrap()
                .sum_all()
                .unwrap()
        };
        let vi = Var::from_tensor(&img).unwrap();
        let vb = Var::from_tensor(&boxes).unwrap();
        let grads = loss(vi.as_tensor(), vb.as_tensor()).backward().unwrap();
        let gi = tensor_f64(grads.get(vi.as_tensor()).unwrap()).unwrap();
        let gb = tensor_f64(grads.get(vb.as_tensor()).unwrap()).unwrap();
        let eps = 1e-6;
        let i0 = tensor_f64(&img).unwrap();
        for idx in [0, 5, 17, 40, 77, 150] {
            let mut p = i0.clone();
            p[idx] += eps;
            let mut m = i0.clone();
            m[idx] -= eps;
            let f = |v: Vec<f64>| {
                loss(
                    &Tensor::from_vec(v, img.shape(), &Device::Cpu).unwrap(),
                    &boxes,
                )
                .to_scalar::<f64>()
                .unwrap()
            };
            let num = (f(p) - f(m)) / (2.0 * eps);
            assert!(
                (num - gi[idx]).abs() < 1e-7,
                "image {idx}: {num} vs {}",
                gi[idx]
            );
        }
        let b0 = tensor_f64(&boxes).unwrap();
        for idx in 0..b0.len() {
            let mut p = b0.clone();
            p[idx] += eps;
            let mut m = b0.clone();
            m[idx] -= eps;
            let f = |v: Vec<f64>| {
                loss(
                    &img,
                    &Tensor::from_vec(v, boxes.shape(), &Device::Cpu).unwrap(),
                )
                .to_scalar::<f64>()
                .unwrap()
            };
            let num = (f(p) - f(m)) / (2.0 * eps);
            assert!(
                (num - gb[idx]).abs() < 1e-5 * (1.0 + num.abs()),
                "box {idx}: {num} vs {}",
                gb[idx]
            );
        }
    }

    #[test]
    fn rejects_bad_shapes_and_dtypes() {
        let (img, boxes) = fixture(DType::F32);
        assert!(extract_glimpses(&img, &boxes.narrow(2, 0, 3).unwrap(), (3, 3)).is_err());
        assert!(extract_glimpses(&img, &boxes.narrow(0, 0, 1).unwrap(), (3, 3)).is_err());
        assert!(extract_glimpses(&img, &boxes, (0, 3)).is_err());
        assert!(extract_glimpses(&img, &boxes.to_dtype(DType::F64).unwrap(), (3, 3)).is_err());
        assert!(extract_glimpses(&img.to_dtype(DType::U8).unwrap(), &boxes, (3, 3)).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Custom op and composed reference agree (values and gradients) on random inputs.
        #[test]
        fn custom_op_equals_reference_on_random_inputs(
            seed in 0u64..1000,
            b in 1usize..3, k in 1usize..4, c in 1usize..4,
            h in 1usize..9, w in 1usize..9, gh in 1usize..6, gw in 1usize..6,
        ) {
            let mut rng = crate::rng::SeededRng::new(seed);
            let dev = Device::Cpu;
            let img = rng.uniform(&[b, c, h, w], 0.0, 1.0, &dev).unwrap().to_dtype(DType::F64).unwrap();
            let boxes = rng.uniform(&[b, k, 4], -0.3, 1.3, &dev).unwrap().to_dtype(DType::F64).unwrap();
            let wts = rng.normal(&[b, k, c, gh, gw], &dev).unwrap().to_dtype(DType::F64).unwrap();
            let vi = Var::from_tensor(&img).unwrap();
            let vb = Var::from_tensor(&boxes).unwrap();
            let run = |f: fn(&Tensor, &Tensor, (usize, usize)) -> Result<Tensor>| {
                let g = f(vi.as_tensor(), vb.as_tensor(), (gh, gw)).unwrap();
                let grads = (&g * &wts).unwrap().sum_all().unwrap().backward().unwrap();
                // candle prunes `affine(0, ·)` from the graph (H = 1 or W = 1): a missing gradient is 0.
                let grad_of = |v: &Var| grads.get(v.as_tensor()).map(|t| tensor_f64(t).unwrap()).unwrap_or_else(|| vec![0.0; v.elem_count()]);
                [tensor_f64(&g).unwrap(), grad_of(&vi), grad_of(&vb)]
            };
            let (x, y) = (run(extract_glimpses), run(extract_glimpses_reference));
            for (p, q) in x.iter().flatten().zip(y.iter().flatten()) {
                proptest::prop_assert!((p - q).abs() <= 1e-9 * (1.0 + q.abs()), "{} vs {}", p, q);
            }
        }
    }
}
