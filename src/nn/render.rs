//! Sprite rendering (reference §2.8): every selected object's `h × w` sprite (colour,
//! alpha, importance) is placed in the image by the inverse transform with the half-pixel
//! convention and composited over the background.
//!
//! For sprite `k` with box `(top, left, height, width)` (image-normalised: `offset_y, offset_x,
//! scale_y, scale_x`), output pixel `(py, px)` maps to sprite coordinates
//! `sy = −0.5 + h·((py + 0.5)/H − top)/height` (same for x). The sprite *covers* the pixel iff
//! `−1 ≤ sy ≤ h` and `−1 ≤ sx ≤ w` (the box plus one sprite pixel of margin). For covering
//! sprites alpha `α'` and importance `w'` are bilinear samples with 0 outside the sprite grid,
//! colour `β'` a bilinear sample with the background colour outside it, and
//! `v = α'β' + (1 − α')·bg`. With `n` covering sprites:
//! * [`RenderMode::Code`] (the authors' code): `n = 0` → `bg`; `n = 1` → `v`;
//!   `n ≥ 2` → `Σ w' v / Σ w'` (and `bg` in the degenerate case `Σ w' = 0`).
//! * [`RenderMode::Softmax`] (the paper's formula, with alpha blending over the background so
//!   that it is defined for any background; identical to the paper for a black one):
//!   `n = 0` → `bg`; otherwise `Σ e^{w'/T} v / Σ e^{w'/T}` over covering sprites.
//!
//! Sprites with a non-positive or non-finite height/width cover nothing.
//!
//! [`render_sprites`] is a CPU custom op that visits, per sprite, only the pixels its box covers,
//! with an exact first-order backward pass (wrt colour, alpha, importance, boxes, background;
//! the coverage test and the case switch are piecewise constant and contribute no gradient).
//! [`render_sprites_reference`] is the dense composed-ops formulation (image-sized maps per
//! object; slow), used to check it. With the `cuda` feature, GPU tensors run CUDA kernels
//! (forward and backward, `kernels.cu`: one thread per pixel walking the sprites in order),
//! checked against the CPU kernel and the reference.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, CustomOp3, DType, Device, Layout, Result, Shape, Tensor, WithDType};
use rayon::prelude::*;

use super::cpu::{
    self, check_float, stencil, storage_f64, storage_slice, tensor_f64, tensor_from_f64,
    tensor_from_values, with_values,
};

/// How covering sprites are composited.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RenderMode {
    /// Reference §2.8 exactly: single-sprite shortcut, linear importance-weighted average.
    Code,
    /// The paper's softmax over importances with temperature `temperature` (λ).
    Softmax {
        /// Softmax temperature λ (> 0).
        temperature: f64,
    },
}

/// Geometry of one call.
#[derive(Debug, Clone, Copy)]
struct Dims {
    b: usize,
    k: usize,
    /// Colour channels.
    c: usize,
    sh: usize,
    sw: usize,
    h: usize,
    w: usize,
}

impl Dims {
    fn sprite_len(&self) -> usize {
        (self.c + 2) * self.sh * self.sw
    }
    fn hw(&self) -> usize {
        self.h * self.w
    }
}

/// Placement of one sprite: maps image pixels to sprite coordinates.
struct Placement {
    top: f64,
    left: f64,
    height: f64,
    width: f64,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
}

impl Placement {
    fn new(bx: &[f64], d: &Dims) -> Option<Placement> {
        let (top, left, height, width) = (bx[0], bx[1], bx[2], bx[3]);
        if !(height > 0.0
            && width > 0.0
            && top.is_finite()
            && left.is_finite()
            && height.is_finite()
            && width.is_finite())
        {
            return None;
        }
        // Pixel index at sprite coordinate s: p(s) = L·(off + (s + 0.5)·size/n) − 0.5; scan one
        // extra pixel each side and test the exact condition per pixel.
        let range = |off: f64, size: f64, n: usize, len: usize| {
            let p = |s: f64| len as f64 * (off + (s + 0.5) * size / n as f64) - 0.5;
            let lo = (p(-1.0).ceil() - 1.0).max(0.0);
            let hi = (p(n as f64).floor() + 2.0).min(len as f64);
            if hi <= lo {
                0..0
            } else {
                lo as usize..hi as usize
            }
        };
        Some(Placement {
            top,
            left,
            height,
            width,
            rows: range(top, height, d.sh, d.h),
            cols: range(left, width, d.sw, d.w),
        })
    }
    #[inline]
    fn sy(&self, py: usize, d: &Dims) -> f64 {
        -0.5 + d.sh as f64 * ((py as f64 + 0.5) / d.h as f64 - self.top) / self.height
    }
    #[inline]
    fn sx(&self, px: usize, d: &Dims) -> f64 {
        -0.5 + d.sw as f64 * ((px as f64 + 0.5) / d.w as f64 - self.left) / self.width
    }
}

#[inline]
fn covers(s: f64, n: usize) -> bool {
    (-1.0..=n as f64).contains(&s)
}

/// Bilinear sample of one sprite at `(sy, sx)`: the inside neighbours as
/// `(offset, weight, dweight/dsy, dweight/dsx)`.
#[inline]
fn sprite_neighbours(sy: f64, sx: f64, d: &Dims, out: &mut Vec<(usize, f64, f64, f64)>) {
    out.clear();
    let (y0, wy0, wy1) = stencil(sy);
    let (x0, wx0, wx1) = stencil(sx);
    for (dy, wy, dwy) in [(0i64, wy0, -1.0), (1, wy1, 1.0)] {
        let yi = y0 + dy;
        if yi < 0 || yi >= d.sh as i64 {
            continue;
        }
        for (dx, wx, dwx) in [(0i64, wx0, -1.0), (1, wx1, 1.0)] {
            let xi = x0 + dx;
            if xi < 0 || xi >= d.sw as i64 {
                continue;
            }
            out.push((
                yi as usize * d.sw + xi as usize,
                wy * wx,
                dwy * wx,
                wy * dwx,
            ));
        }
    }
}

/// Sampled values of one sprite at one pixel.
struct Sample {
    alpha: f64,
    imp: f64,
    /// Σ of inside bilinear weights (colour takes `bg` for the rest).
    inside: f64,
}

/// Samples alpha, importance and colour (into `beta`) for sprite `sp` (`(C+2, sh, sw)`).
#[inline]
fn sample<T: WithDType>(
    sp: &[T],
    nb: &[(usize, f64, f64, f64)],
    bg: impl Fn(usize) -> f64,
    d: &Dims,
    beta: &mut [f64],
) -> Sample {
    let plane = d.sh * d.sw;
    let (mut alpha, mut imp, mut inside) = (0.0, 0.0, 0.0);
    for &(o, wt, _, _) in nb {
        alpha += wt * sp[d.c * plane + o].to_f64();
        imp += wt * sp[(d.c + 1) * plane + o].to_f64();
        inside += wt;
    }
    for (ch, bt) in beta.iter_mut().enumerate() {
        let s: f64 = nb
            .iter()
            .map(|&(o, wt, _, _)| wt * sp[ch * plane + o].to_f64())
            .sum();
        *bt = s + bg(ch) * (1.0 - inside);
    }
    Sample { alpha, imp, inside }
}

/// Compositing weight of a covering sprite and its derivative wrt the sampled importance.
#[inline]
fn weight(imp: f64, mode: RenderMode) -> (f64, f64) {
    match mode {
        RenderMode::Code => (imp, 1.0),
        RenderMode::Softmax { temperature } => {
            let w = (imp / temperature).exp();
            (w, w / temperature)
        }
    }
}

/// Per-pixel accumulators of one image.
struct Accum {
    count: Vec<u32>,
    sumw: Vec<f64>,
    sumwv: Vec<f64>,
    single: Vec<f64>,
}

/// Visits every (sprite, covered pixel) pair of image `b`.
fn for_each_cover(
    boxes: &[f64],
    d: &Dims,
    mut f: impl FnMut(usize, &Placement, usize, usize, f64, f64),
) {
    for k in 0..d.k {
        let Some(pl) = Placement::new(&boxes[k * 4..k * 4 + 4], d) else {
            continue;
        };
        for py in pl.rows.clone() {
            let sy = pl.sy(py, d);
            if !covers(sy, d.sh) {
                continue;
            }
            for px in pl.cols.clone() {
                let sx = pl.sx(px, d);
                if covers(sx, d.sw) {
                    f(k, &pl, py, px, sy, sx);
                }
            }
        }
    }
}

fn accumulate<T: WithDType>(
    sprites: &[T],
    boxes: &[f64],
    bg: &[T],
    d: &Dims,
    mode: RenderMode,
) -> Accum {
    let hw = d.hw();
    let mut acc = Accum {
        count: vec![0; hw],
        sumw: vec![0.0; hw],
        sumwv: vec![0.0; d.c * hw],
        single: vec![0.0; d.c * hw],
    };
    let mut nb = Vec::with_capacity(4);
    let mut beta = vec![0.0; d.c];
    for_each_cover(boxes, d, |k, _, py, px, sy, sx| {
        let p = py * d.w + px;
        let sp = &sprites[k * d.sprite_len()..(k + 1) * d.sprite_len()];
        sprite_neighbours(sy, sx, d, &mut nb);
        let s = sample(sp, &nb, |ch| bg[ch * hw + p].to_f64(), d, &mut beta);
        let (w, _) = weight(s.imp, mode);
        acc.count[p] += 1;
        acc.sumw[p] += w;
        for ch in 0..d.c {
            let v = s.alpha * beta[ch] + (1.0 - s.alpha) * bg[ch * hw + p].to_f64();
            acc.sumwv[ch * hw + p] += w * v;
            acc.single[ch * hw + p] = v;
        }
    });
    acc
}

/// How a pixel is composited.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    Background,
    Single,
    Weighted,
}

#[inline]
fn case(count: u32, sumw: f64, mode: RenderMode) -> Case {
    match (count, mode) {
        (0, _) => Case::Background,
        (1, RenderMode::Code) => Case::Single,
        _ if sumw > 0.0 && sumw.is_finite() => Case::Weighted,
        _ => Case::Background,
    }
}

fn forward_image<T: WithDType>(
    sprites: &[T],
    boxes: &[f64],
    bg: &[T],
    d: &Dims,
    mode: RenderMode,
    out: &mut [T],
) {
    let hw = d.hw();
    let acc = accumulate(sprites, boxes, bg, d, mode);
    for p in 0..hw {
        let cs = case(acc.count[p], acc.sumw[p], mode);
        for ch in 0..d.c {
            let i = ch * hw + p;
            out[i] = T::from_f64(match cs {
                Case::Background => bg[i].to_f64(),
                Case::Single => acc.single[i],
                Case::Weighted => acc.sumwv[i] / acc.sumw[p],
            });
        }
    }
}

/// Gradients of one image: sprites `(K, C+2, sh, sw)`, boxes `(K, 4)`, background `(C, H, W)`.
#[allow(clippy::too_many_arguments)]
fn backward_image<T: WithDType>(
    sprites: &[T],
    boxes: &[f64],
    bg: &[T],
    out: &[T],
    grad: &[T],
    d: &Dims,
    mode: RenderMode,
    g_sp: &mut [T],
    g_box: &mut [f64],
    g_bg: &mut [f64],
) {
    let hw = d.hw();
    let plane = d.sh * d.sw;
    let acc = accumulate(sprites, boxes, bg, d, mode);
    for p in 0..hw {
        if case(acc.count[p], acc.sumw[p], mode) == Case::Background {
            for ch in 0..d.c {
                g_bg[ch * hw + p] += grad[ch * hw + p].to_f64();
            }
        }
    }
    let mut nb = Vec::with_capacity(4);
    let mut beta = vec![0.0; d.c];
    let mut gv = vec![0.0; d.c];
    for_each_cover(boxes, d, |k, pl, py, px, sy, sx| {
        let p = py * d.w + px;
        let cs = case(acc.count[p], acc.sumw[p], mode);
        if cs == Case::Background {
            return;
        }
        let sp = &sprites[k * d.sprite_len()..(k + 1) * d.sprite_len()];
        sprite_neighbours(sy, sx, d, &mut nb);
        let s = sample(sp, &nb, |ch| bg[ch * hw + p].to_f64(), d, &mut beta);
        let (w, dw_dimp) = weight(s.imp, mode);
        // Gradient wrt this sprite's v (per channel) and weight w.
        let mut gw = 0.0;
        for ch in 0..d.c {
            let g = grad[ch * hw + p].to_f64();
            if cs == Case::Single {
                gv[ch] = g;
            } else {
                let v = s.alpha * beta[ch] + (1.0 - s.alpha) * bg[ch * hw + p].to_f64();
                gv[ch] = g * w / acc.sumw[p];
                gw += g * (v - out[ch * hw + p].to_f64()) / acc.sumw[p];
            }
        }
        // v = αβ + (1−α)bg, β = Σ_in wt·C + bg(1 − Σ_in wt).
        let mut ga = 0.0;
        for ch in 0..d.c {
            let b = bg[ch * hw + p].to_f64();
            ga += gv[ch] * (beta[ch] - b);
            g_bg[ch * hw + p] += gv[ch] * ((1.0 - s.alpha) + s.alpha * (1.0 - s.inside));
        }
        let gimp = gw * dw_dimp;
        let (mut gsy, mut gsx) = (0.0, 0.0);
        let gs = &mut g_sp[k * d.sprite_len()..(k + 1) * d.sprite_len()];
        for &(o, wt, dwy, dwx) in &nb {
            let mut gpos =
                ga * sp[d.c * plane + o].to_f64() + gimp * sp[(d.c + 1) * plane + o].to_f64();
            gs[d.c * plane + o] += T::from_f64(ga * wt);
            gs[(d.c + 1) * plane + o] += T::from_f64(gimp * wt);
            for ch in 0..d.c {
                let gb = gv[ch] * s.alpha; // gradient wrt β_ch
                gs[ch * plane + o] += T::from_f64(gb * wt);
                gpos += gb * (sp[ch * plane + o].to_f64() - bg[ch * hw + p].to_f64());
            }
            gsy += gpos * dwy;
            gsx += gpos * dwx;
        }
        // sy = −0.5 + h·(p_y − top)/height.
        let gb = &mut g_box[k * 4..k * 4 + 4];
        gb[0] += gsy * (-(d.sh as f64) / pl.height);
        gb[1] += gsx * (-(d.sw as f64) / pl.width);
        gb[2] += gsy * (-(sy + 0.5) / pl.height);
        gb[3] += gsx * (-(sx + 0.5) / pl.width);
    });
}

/// The custom op: `(sprites (B,K,C+2,sh,sw), boxes (B,K,4), background (B,C,H,W)) → (B,C,H,W)`.
struct RenderOp {
    mode: RenderMode,
}

fn dims(sprites: &Shape, boxes: &Shape, bg: &Shape) -> Result<Dims> {
    let (b, k, c2, sh, sw) = sprites.dims5()?;
    let (bb, kb, four) = boxes.dims3()?;
    let (bg_b, c, h, w) = bg.dims4()?;
    if bb != b
        || kb != k
        || four != 4
        || bg_b != b
        || c2 != c + 2
        || sh == 0
        || sw == 0
        || h == 0
        || w == 0
    {
        candle_core::bail!(
            "render_sprites: inconsistent shapes: sprites {:?} (B,K,C+2,h,w), boxes {:?} (B,K,4), background {:?} (B,C,H,W)",
            sprites.dims(),
            boxes.dims(),
            bg.dims()
        );
    }
    Ok(Dims {
        b,
        k,
        c,
        sh,
        sw,
        h,
        w,
    })
}

impl CustomOp3 for RenderOp {
    fn name(&self) -> &'static str {
        "silot-render-sprites"
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
        let d = dims(l1.shape(), l2.shape(), l3.shape())?;
        let out = cpu::by_float!(s1, "render_sprites", T => {
            let (sp, bg) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s3, l3)?);
            forward_typed(sp, &storage_f64::<T>(s2, l2)?, bg, &d, self.mode)
        });
        Ok((out, Shape::from((d.b, d.c, d.h, d.w))))
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
        let d = dims(l1.shape(), l2.shape(), l3.shape())?;
        let rd = (d.b, d.k, d.c, d.sh, d.sw, d.h, d.w);
        let m = mode_arg(self.mode);
        let st =
            cuda::by_float!(s1, T => cuda::render_fwd::<T>((s1, l1), (s2, l2), (s3, l3), rd, m)?);
        Ok((st, Shape::from((d.b, d.c, d.h, d.w))))
    }

    fn bwd(
        &self,
        sprites: &Tensor,
        boxes: &Tensor,
        bg: &Tensor,
        res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let d = dims(sprites.shape(), boxes.shape(), bg.shape())?;
        if sprites.device().is_cuda() {
            let bg_grad = Tensor::cat(&[bg, grad], 0)?;
            let packed = sprites.contiguous()?.apply_op3(
                &boxes.contiguous()?,
                &bg_grad,
                RenderBwdOp { d, mode: self.mode },
            )?;
            let n_sp = d.b * d.k * d.sprite_len();
            let n_box = d.b * d.k * 4;
            let gs = packed.narrow(0, 0, n_sp)?.reshape(sprites.shape())?;
            let gb = packed.narrow(0, n_sp, n_box)?.reshape(boxes.shape())?;
            let gg = packed
                .narrow(0, n_sp + n_box, d.b * d.c * d.hw())?
                .reshape(bg.shape())?;
            return Ok((Some(gs), Some(gb), Some(gg)));
        }
        let (gs, gb, gg) = match sprites.dtype() {
            DType::F32 => backward_typed::<f32>(sprites, boxes, bg, res, grad, &d, self.mode)?,
            _ => backward_typed::<f64>(sprites, boxes, bg, res, grad, &d, self.mode)?,
        };
        Ok((Some(gs), Some(gb), Some(gg)))
    }
}

/// The compositing mode as the CUDA kernels take it: `(0, 1)` code, `(1, λ)` softmax.
#[cfg(feature = "cuda")]
fn mode_arg(mode: RenderMode) -> (i32, f64) {
    match mode {
        RenderMode::Code => (0, 1.0),
        RenderMode::Softmax { temperature } => (1, temperature),
    }
}

/// Whether the CUDA kernels take this geometry (colour channels ≤ 4, boxes fit in shared memory).
#[cfg(feature = "cuda")]
fn cuda_kernels_fit(d: &Dims) -> bool {
    d.c <= super::cuda::RENDER_MAX_CHANNELS && d.k <= 1024
}

/// Backward of [`RenderOp`] as an op of its own, so that it runs on the inputs' device:
/// `(sprites, boxes, [background; grad] (2B,C,H,W)) → [g_sprites, g_boxes, g_background]` (flat).
/// The output image is recomputed rather than passed in.
struct RenderBwdOp {
    d: Dims,
    mode: RenderMode,
}

/// Gradients on host values, packed as [`RenderBwdOp`] returns them.
fn backward_packed<T: WithDType>(
    sp: &[T],
    bx: &[f64],
    bg_grad: &[T],
    d: &Dims,
    mode: RenderMode,
) -> Vec<T> {
    let (sl, il) = (d.k * d.sprite_len(), d.c * d.hw());
    let (bg, gr) = bg_grad.split_at(d.b * il);
    let mut g_sp = vec![T::from_f64(0.0); d.b * sl];
    let mut g_box = vec![0.0; d.b * d.k * 4];
    let mut g_bg = vec![0.0; d.b * il];
    g_sp.par_chunks_mut(sl)
        .zip(g_box.par_chunks_mut(d.k * 4))
        .zip(g_bg.par_chunks_mut(il))
        .enumerate()
        .for_each(|(b, ((gs, gb), gg))| {
            let (img, spr, bxs) = (
                b * il..(b + 1) * il,
                &sp[b * sl..(b + 1) * sl],
                &bx[b * d.k * 4..(b + 1) * d.k * 4],
            );
            let mut out = vec![T::from_f64(0.0); il];
            forward_image(spr, bxs, &bg[img.clone()], d, mode, &mut out);
            backward_image(
                spr,
                bxs,
                &bg[img.clone()],
                &out,
                &gr[img],
                d,
                mode,
                gs,
                gb,
                gg,
            );
        });
    g_sp.into_iter()
        .chain(g_box.into_iter().chain(g_bg).map(T::from_f64))
        .collect()
}

impl CustomOp3 for RenderBwdOp {
    fn name(&self) -> &'static str {
        "silot-render-sprites-backward"
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
        let d = &self.d;
        let out = cpu::by_float!(s1, "render_sprites", T => {
            let (sp, bg_grad) = (storage_slice::<T>(s1, l1)?, storage_slice::<T>(s3, l3)?);
            backward_packed(sp, &storage_f64::<T>(s2, l2)?, bg_grad, d, self.mode)
        });
        let n = d.b * d.k * (d.sprite_len() + 4) + d.b * d.c * d.hw();
        Ok((out, Shape::from(n)))
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
        let rd = (d.b, d.k, d.c, d.sh, d.sw, d.h, d.w);
        let m = mode_arg(self.mode);
        let img = (d.b, d.c, d.h, d.w);
        let bg_l = Layout::contiguous_with_offset(img, l3.start_offset());
        let gr_l = Layout::contiguous_with_offset(img, l3.start_offset() + d.b * d.c * d.hw());
        let st = cuda::by_float!(s1, T => cuda::render_bwd::<T>((s1, l1), (s2, l2), (s3, &bg_l), (s3, &gr_l), rd, m)?);
        let n = d.b * d.k * (d.sprite_len() + 4) + d.b * d.c * d.hw();
        Ok((st, Shape::from(n)))
    }
}

/// Forward pass over the batch on host values of dtype `T` (parallel over images).
fn forward_typed<T: WithDType>(
    sp: &[T],
    bx: &[f64],
    bg: &[T],
    d: &Dims,
    mode: RenderMode,
) -> Vec<T> {
    let (sl, il) = (d.k * d.sprite_len(), d.c * d.hw());
    let mut out = vec![T::from_f64(0.0); d.b * il];
    out.par_chunks_mut(il).enumerate().for_each(|(b, o)| {
        let bxb = &bx[b * d.k * 4..(b + 1) * d.k * 4];
        forward_image(
            &sp[b * sl..(b + 1) * sl],
            bxb,
            &bg[b * il..(b + 1) * il],
            d,
            mode,
            o,
        );
    });
    out
}

/// Backward pass over the batch on host values of dtype `T` (parallel over images).
fn backward_typed<T: WithDType>(
    sprites: &Tensor,
    boxes: &Tensor,
    bg: &Tensor,
    res: &Tensor,
    grad: &Tensor,
    d: &Dims,
    mode: RenderMode,
) -> Result<(Tensor, Tensor, Tensor)> {
    let bx = tensor_f64(boxes)?;
    let (sl, il) = (d.k * d.sprite_len(), d.c * d.hw());
    let mut g_sp = vec![T::from_f64(0.0); d.b * sl];
    let mut g_box = vec![0.0; d.b * d.k * 4];
    let mut g_bg = vec![0.0; d.b * il];
    with_values::<T, _>(sprites, |sp| {
        with_values::<T, _>(bg, |bgv| {
            with_values::<T, _>(res, |out| {
                with_values::<T, _>(grad, |gr| {
                    g_sp.par_chunks_mut(sl)
                        .zip(g_box.par_chunks_mut(d.k * 4))
                        .zip(g_bg.par_chunks_mut(il))
                        .enumerate()
                        .for_each(|(b, ((gs, gb), gg))| {
                            let img = b * il..(b + 1) * il;
                            backward_image(
                                &sp[b * sl..(b + 1) * sl],
                                &bx[b * d.k * 4..(b + 1) * d.k * 4],
                                &bgv[img.clone()],
                                &out[img.clone()],
                                &gr[img],
                                d,
                                mode,
                                gs,
                                gb,
                                gg,
                            );
                        });
                    Ok(())
                })
            })
        })
    })?;
    Ok((
        tensor_from_values(g_sp, sprites)?,
        tensor_from_f64::<T>(g_box, boxes)?,
        tensor_from_f64::<T>(g_bg, bg)?,
    ))
}

/// Checks shapes/dtypes and packs `[colour, alpha, importance]` into `(B, K, C+2, h, w)`.
fn pack(
    colour: &Tensor,
    alpha: &Tensor,
    importance: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
    background: &Tensor,
    mode: RenderMode,
) -> Result<Tensor> {
    for (t, n) in [
        (colour, "colour"),
        (alpha, "alpha"),
        (importance, "importance"),
        (boxes, "boxes"),
        (background, "background"),
    ] {
        check_float(t, n)?;
        if t.dtype() != colour.dtype() {
            candle_core::bail!(
                "render_sprites: {n} has dtype {:?} but colour has {:?}; use one dtype",
                t.dtype(),
                colour.dtype()
            );
        }
    }
    if let RenderMode::Softmax { temperature } = mode {
        if !(temperature > 0.0 && temperature.is_finite()) {
            candle_core::bail!(
                "render_sprites: softmax temperature must be positive, got {temperature}"
            );
        }
    }
    let (_, _, _, h, w) = colour.dims5()?;
    if alpha.dims5()? != (colour.dim(0)?, colour.dim(1)?, 1, h, w)
        || importance.dims() != alpha.dims()
    {
        candle_core::bail!(
            "render_sprites: alpha {:?} and importance {:?} must be (B, K, 1, h, w) matching colour {:?}",
            alpha.dims(),
            importance.dims(),
            colour.dims()
        );
    }
    let (_, _, bh, bw) = background.dims4()?;
    if (bh, bw) != out_hw {
        candle_core::bail!(
            "render_sprites: background {:?} does not match out_hw {out_hw:?}",
            background.dims()
        );
    }
    let sprites = Tensor::cat(&[colour, alpha, importance], 2)?;
    dims(sprites.shape(), boxes.shape(), background.shape())?;
    Ok(sprites)
}

/// Renders `colour (B,K,C,h,w)`, `alpha (B,K,1,h,w)`, `importance (B,K,1,h,w)` at `boxes
/// (B,K,4)` = `(top, left, height, width)` image-normalised over `background (B,C,H,W)`
/// (`out_hw = (H, W)`) → `(B, C, H, W)`. Differentiable wrt all tensor inputs.
#[allow(clippy::too_many_arguments)]
pub fn render_sprites(
    colour: &Tensor,
    alpha: &Tensor,
    importance: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
    background: &Tensor,
    mode: RenderMode,
) -> Result<Tensor> {
    let sprites = pack(colour, alpha, importance, boxes, out_hw, background, mode)?;
    let op = RenderOp { mode };
    let dev = colour.device();
    #[cfg(feature = "cuda")]
    let native = dev.is_cpu()
        || (dev.is_cuda()
            && super::device_kernels()
            && cuda_kernels_fit(&dims(sprites.shape(), boxes.shape(), background.shape())?));
    #[cfg(not(feature = "cuda"))]
    let native = dev.is_cpu();
    if native {
        sprites
            .contiguous()?
            .apply_op3(&boxes.contiguous()?, &background.contiguous()?, op)
    } else {
        // No kernel for this device or geometry: run on the host (to_device is differentiable).
        let cpu = Device::Cpu;
        let out = sprites.to_device(&cpu)?.contiguous()?.apply_op3(
            &boxes.to_device(&cpu)?.contiguous()?,
            &background.to_device(&cpu)?.contiguous()?,
            op,
        )?;
        out.to_device(dev)
    }
}

/// Dense composed-ops version of [`render_sprites`] (image-sized maps per object, gathers and
/// `where_cond`; slow, memory `B·K·H·W·(C+2)`); reference for tests and benchmarks.
#[allow(clippy::too_many_arguments)]
pub fn render_sprites_reference(
    colour: &Tensor,
    alpha: &Tensor,
    importance: &Tensor,
    boxes: &Tensor,
    out_hw: (usize, usize),
    background: &Tensor,
    mode: RenderMode,
) -> Result<Tensor> {
    let sprites = pack(colour, alpha, importance, boxes, out_hw, background, mode)?;
    let d = dims(sprites.shape(), boxes.shape(), background.shape())?;
    let (dev, dt) = (colour.device(), colour.dtype());
    let full = (d.b, d.k, d.h, d.w);
    // Sprite coordinates of every pixel: (B,K,H,W).
    let coord = |off: usize, size: usize, n: usize, len: usize| -> Result<Tensor> {
        let p: Vec<f64> = (0..len).map(|i| (i as f64 + 0.5) / len as f64).collect();
        let p = Tensor::from_vec(p, (1, 1, len), dev)?.to_dtype(dt)?;
        let o = boxes.narrow(2, off, 1)?;
        let s = boxes.narrow(2, size, 1)?;
        p.broadcast_sub(&o)?
            .broadcast_div(&s)?
            .affine(n as f64, -0.5)
    };
    let sy = coord(0, 2, d.sh, d.h)?.unsqueeze(3)?.broadcast_as(full)?;
    let sx = coord(1, 3, d.sw, d.w)?.unsqueeze(2)?.broadcast_as(full)?;
    let in_range = |s: &Tensor, n: usize| -> Result<Tensor> { s.ge(-1.0)? * s.le(n as f64)? };
    // Boxes with non-positive size cover nothing.
    let pos = (boxes.narrow(2, 2, 1)?.gt(0.0)? * boxes.narrow(2, 3, 1)?.gt(0.0)?)?
        .unsqueeze(3)?
        .broadcast_as(full)?;
    let cover = ((in_range(&sy, d.sh)? * in_range(&sx, d.sw)?)? * pos)?
        .to_dtype(dt)?
        .unsqueeze(2)?; // (B,K,1,H,W)
    let y0 = sy.detach().floor()?;
    let x0 = sx.detach().floor()?;
    let fy = (&sy - &y0)?;
    let fx = (&sx - &x0)?;
    let flat = sprites.reshape((d.b, d.k, d.c + 2, d.sh * d.sw))?;
    let n = d.h * d.w;
    let (mut interp, mut inside): (Option<Tensor>, Option<Tensor>) = (None, None);
    for (dy, dx) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)] {
        let yi = y0.affine(1.0, dy)?;
        let xi = x0.affine(1.0, dx)?;
        let valid = ((yi.ge(0.0)? * yi.le(d.sh as f64 - 1.0)?)?
            * (xi.ge(0.0)? * xi.le(d.sw as f64 - 1.0)?)?)?
        .to_dtype(dt)?;
        let idx = (yi.clamp(0.0, d.sh as f64 - 1.0)?.affine(d.sw as f64, 0.0)?
            + xi.clamp(0.0, d.sw as f64 - 1.0)?)?
        .to_dtype(DType::U32)?
        .reshape((d.b, d.k, 1, n))?
        .broadcast_as((d.b, d.k, d.c + 2, n))?
        .contiguous()?;
        let vals = flat
            .gather(&idx, 3)?
            .reshape((d.b, d.k, d.c + 2, d.h, d.w))?;
        let wt = crate::nn::corner_weight(&fy, &fx, dy, dx, &valid)?; // (B,K,1,H,W)
        let term = vals.broadcast_mul(&wt)?;
        interp = Some(match interp {
            None => term,
            Some(a) => (a + term)?,
        });
        inside = Some(match inside {
            None => wt,
            Some(a) => (a + wt)?,
        });
    }
    let (interp, inside) = match (interp, inside) {
        (Some(a), Some(b)) => (a, b),
        _ => candle_core::bail!("unreachable: four bilinear neighbours"),
    };
    let bg = background.unsqueeze(1)?; // (B,1,C,H,W)
    let beta = interp
        .narrow(2, 0, d.c)?
        .broadcast_add(&bg.broadcast_mul(&inside.affine(-1.0, 1.0)?)?)?;
    let a = interp.narrow(2, d.c, 1)?;
    let imp = interp.narrow(2, d.c + 1, 1)?;
    let v = a
        .broadcast_mul(&beta)?
        .broadcast_add(&a.affine(-1.0, 1.0)?.broadcast_mul(&bg)?)?; // (B,K,C,H,W)
    let wgt = match mode {
        RenderMode::Code => imp,
        RenderMode::Softmax { temperature } => imp.affine(1.0 / temperature, 0.0)?.exp()?,
    };
    let cw = (&cover * &wgt)?;
    let count = cover.sum(1)?; // (B,1,H,W)
    let den = cw.sum(1)?;
    let num = v.broadcast_mul(&cw)?.sum(1)?; // (B,C,H,W)
    let single = v.broadcast_mul(&cover)?.sum(1)?;
    let shape = background.shape();
    let den_ok = den.gt(0.0)?;
    let den_safe = (&den + den_ok.to_dtype(dt)?.affine(-1.0, 1.0)?)?;
    let weighted = num.broadcast_div(&den_safe)?;
    let weighted = den_ok
        .broadcast_as(shape)?
        .where_cond(&weighted, background)?;
    let covered = count.gt(0.5)?.broadcast_as(shape)?;
    let composed = match mode {
        RenderMode::Code => count
            .gt(1.5)?
            .broadcast_as(shape)?
            .where_cond(&weighted, &single)?,
        RenderMode::Softmax { .. } => weighted,
    };
    covered.where_cond(&composed, background)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Var;

    type RenderFn = fn(
        &Tensor,
        &Tensor,
        &Tensor,
        &Tensor,
        (usize, usize),
        &Tensor,
        RenderMode,
    ) -> Result<Tensor>;

    fn t(v: Vec<f64>, shape: &[usize]) -> Tensor {
        Tensor::from_vec(v, shape, &Device::Cpu).unwrap()
    }

    fn pattern(n: usize, seed: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n)
            .map(|i| lo + (hi - lo) * (((i * 37 + seed * 101) % 97) as f64 / 96.0))
            .collect()
    }

    fn one_opaque_sprite_lands_exactly_on_its_box(dev: &Device) {
        // 2×2 sprite in an 8×8 image at rows 2..=3, columns 4..=5.
        let t = |v: Vec<f64>, shape: &[usize]| t(v, shape).to_device(dev).unwrap();
        let colour = t(
            vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.15, 0.25],
            &[1, 1, 3, 2, 2],
        );
        let alpha = t(vec![1.0; 4], &[1, 1, 1, 2, 2]);
        let imp = t(vec![0.7; 4], &[1, 1, 1, 2, 2]);
        let boxes = t(vec![2.0 / 8.0, 4.0 / 8.0, 0.25, 0.25], &[1, 1, 4]);
        let bg = t(vec![0.05; 3 * 64], &[1, 3, 8, 8]);
        for render in [render_sprites as RenderFn, render_sprites_reference] {
            let out = render(&colour, &alpha, &imp, &boxes, (8, 8), &bg, RenderMode::Code).unwrap();
            let o = out.flatten_all().unwrap().to_vec1::<f64>().unwrap();
            let cv = colour.flatten_all().unwrap().to_vec1::<f64>().unwrap();
            for ch in 0..3 {
                for y in 0..8 {
                    for x in 0..8 {
                        let got = o[ch * 64 + y * 8 + x];
                        let want = if (2..4).contains(&y) && (4..6).contains(&x) {
                            cv[ch * 4 + (y - 2) * 2 + (x - 4)]
                        } else {
                            0.05
                        };
                        assert!(
                            (got - want).abs() < 1e-12,
                            "ch {ch} ({y},{x}): {got} vs {want}"
                        );
                    }
                }
            }
        }
    }

    crate::test_device!(
        one_opaque_sprite_lands_exactly_on_its_box,
        opaque_sprite_cpu,
        opaque_sprite_cuda
    );

    /// 1×1 sprites on a 4×4 image, sprite `k` exactly on pixel `at[k]`.
    fn one_pixel_sprites(
        at: &[(usize, usize)],
        colour: &[f64],
        alpha: &[f64],
        imp: &[f64],
    ) -> (Tensor, Tensor, Tensor, Tensor) {
        let k = at.len();
        let boxes: Vec<f64> = at
            .iter()
            .flat_map(|&(y, x)| [y as f64 / 4.0, x as f64 / 4.0, 0.25, 0.25])
            .collect();
        let col: Vec<f64> = colour.iter().flat_map(|&c| [c, c, c]).collect();
        (
            t(col, &[1, k, 3, 1, 1]),
            t(alpha.to_vec(), &[1, k, 1, 1, 1]),
            t(imp.to_vec(), &[1, k, 1, 1, 1]),
            t(boxes, &[1, k, 4]),
        )
    }

    #[test]
    fn single_and_multiple_sprite_compositing_by_hand() {
        let bg = t(vec![0.2; 48], &[1, 3, 4, 4]);
        let px = |out: &Tensor, y: usize, x: usize| {
            out.flatten_all().unwrap().to_vec1::<f64>().unwrap()[y * 4 + x]
        };
        for render in [render_sprites as RenderFn, render_sprites_reference] {
            // n = 1: alpha blend, importance ignored.
            let (c, a, i, b) = one_pixel_sprites(&[(1, 1)], &[0.8], &[0.5], &[0.3]);
            let out = render(&c, &a, &i, &b, (4, 4), &bg, RenderMode::Code).unwrap();
            let va = 0.5 * 0.8 + 0.5 * 0.2;
            assert!((px(&out, 1, 1) - va).abs() < 1e-12);
            // Margins of a lone sprite show the background.
            assert!((px(&out, 0, 1) - 0.2).abs() < 1e-12 && (px(&out, 2, 2) - 0.2).abs() < 1e-12);
            // n = 2: a transparent sprite on the same pixel pulls toward the background.
            let (c, a, i, b) =
                one_pixel_sprites(&[(1, 1), (1, 1)], &[0.8, 0.9], &[0.5, 0.0], &[0.3, 0.01]);
            let out = render(&c, &a, &i, &b, (4, 4), &bg, RenderMode::Code).unwrap();
            let want = (0.3 * va + 0.01 * 0.2) / 0.31;
            assert!(
                (px(&out, 1, 1) - want).abs() < 1e-12,
                "{} vs {want}",
                px(&out, 1, 1)
            );
            // A neighbour's margin (zero importance there) does not change the weighted result.
            let (c, a, i, b) = one_pixel_sprites(
                &[(1, 1), (1, 1), (2, 2)],
                &[0.8, 0.9, 0.4],
                &[0.5, 0.0, 1.0],
                &[0.3, 0.01, 0.5],
            );
            let out = render(&c, &a, &i, &b, (4, 4), &bg, RenderMode::Code).unwrap();
            assert!((px(&out, 1, 1) - want).abs() < 1e-12);
            assert!((px(&out, 2, 2) - 0.4).abs() < 1e-12);
            // Softmax mode: e^{w/T} weights, also for n = 1.
            let sm = RenderMode::Softmax { temperature: 0.25 };
            let out = render(&c, &a, &i, &b, (4, 4), &bg, sm).unwrap();
            let (e1, e2, e3) = ((0.3f64 / 0.25).exp(), (0.01f64 / 0.25).exp(), 1.0);
            let want = (e1 * va + e2 * 0.2 + e3 * 0.2) / (e1 + e2 + e3);
            assert!(
                (px(&out, 1, 1) - want).abs() < 1e-12,
                "{} vs {want}",
                px(&out, 1, 1)
            );
        }
    }

    struct Fixture {
        colour: Tensor,
        alpha: Tensor,
        imp: Tensor,
        boxes: Tensor,
        bg: Tensor,
    }

    fn fixture(dt: DType) -> Fixture {
        let (b, k, sh, sw) = (2, 3, 4, 3);
        let n = b * k * sh * sw;
        let boxes = vec![
            0.21, 0.13, 0.43, 0.52, 0.37, 0.29, 0.31, 0.33, -0.12, 0.61, 0.38, 0.44, //
            0.05, 0.07, 0.83, 0.71, 0.41, 0.36, 0.27, 0.29, 0.52, 0.48, 0.35, 0.41,
        ];
        let cv = |v: Vec<f64>, s: &[usize]| t(v, s).to_dtype(dt).unwrap();
        Fixture {
            colour: cv(pattern(3 * n, 1, 0.05, 0.95), &[b, k, 3, sh, sw]),
            alpha: cv(pattern(n, 2, 0.1, 0.9), &[b, k, 1, sh, sw]),
            imp: cv(pattern(n, 3, 0.01, 2.0), &[b, k, 1, sh, sw]),
            boxes: cv(boxes, &[b, k, 4]),
            bg: cv(pattern(b * 3 * 11 * 13, 4, 0.0, 0.3), &[b, 3, 11, 13]),
        }
    }

    fn run(f: &Fixture, render: RenderFn, mode: RenderMode) -> Vec<Vec<f64>> {
        run_hw(f, render, mode, (11, 13))
    }

    fn run_hw(
        f: &Fixture,
        render: RenderFn,
        mode: RenderMode,
        hw: (usize, usize),
    ) -> Vec<Vec<f64>> {
        let vars: Vec<Var> = [&f.colour, &f.alpha, &f.imp, &f.boxes, &f.bg]
            .iter()
            .map(|x| Var::from_tensor(x).unwrap())
            .collect();
        let out = render(
            vars[0].as_tensor(),
            vars[1].as_tensor(),
            vars[2].as_tensor(),
            vars[3].as_tensor(),
            hw,
            vars[4].as_tensor(),
            mode,
        )
        .unwrap();
        let w = t(pattern(out.elem_count(), 5, -1.0, 1.0), out.dims())
            .to_dtype(out.dtype())
            .unwrap();
        let grads = (&out * &w).unwrap().sum_all().unwrap().backward().unwrap();
        let mut res = vec![tensor_f64(&out).unwrap()];
        for v in &vars {
            res.push(tensor_f64(grads.get(v.as_tensor()).unwrap()).unwrap());
        }
        res
    }

    #[test]
    fn custom_op_matches_dense_reference() {
        for dt in [DType::F32, DType::F64] {
            let f = fixture(dt);
            for mode in [RenderMode::Code, RenderMode::Softmax { temperature: 0.5 }] {
                let a = run(&f, render_sprites, mode);
                let b = run(&f, render_sprites_reference, mode);
                let tol = if dt == DType::F32 { 1e-5 } else { 1e-11 };
                for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                    for (p, q) in x.iter().zip(y) {
                        assert!(
                            (p - q).abs() <= tol * (1.0 + q.abs()),
                            "{dt:?} {mode:?} part {i}: {p} vs {q}"
                        );
                    }
                }
                // The fixture has real overlaps and uncovered pixels.
                assert!(a[4].iter().any(|&g| g != 0.0) && a[1].iter().any(|&g| g != 0.0));
            }
        }
    }

    #[test]
    fn finite_difference_gradients_all_inputs() {
        let f = fixture(DType::F64);
        for mode in [RenderMode::Code, RenderMode::Softmax { temperature: 0.5 }] {
            let g = run(&f, render_sprites, mode);
            let inputs = [&f.colour, &f.alpha, &f.imp, &f.boxes, &f.bg];
            let eval = |which: usize, vals: Vec<f64>| {
                let mut ts: Vec<Tensor> = inputs.iter().map(|x| (*x).clone()).collect();
                ts[which] = t(vals, inputs[which].dims());
                let out =
                    render_sprites(&ts[0], &ts[1], &ts[2], &ts[3], (11, 13), &ts[4], mode).unwrap();
                let w = t(pattern(out.elem_count(), 5, -1.0, 1.0), out.dims());
                (out * w)
                    .unwrap()
                    .sum_all()
                    .unwrap()
                    .to_scalar::<f64>()
                    .unwrap()
            };
            for (which, input) in inputs.iter().enumerate() {
                let x0 = tensor_f64(input).unwrap();
                let step = (x0.len() / 9).max(1);
                for idx in
                    (0..x0.len())
                        .step_by(step)
                        .chain(if which == 3 { 0..x0.len() } else { 0..0 })
                {
                    let eps = 1e-6;
                    let (mut p, mut m) = (x0.clone(), x0.clone());
                    p[idx] += eps;
                    m[idx] -= eps;
                    let num = (eval(which, p) - eval(which, m)) / (2.0 * eps);
                    let ana = g[which + 1][idx];
                    assert!(
                        (num - ana).abs() < 1e-5 * (1.0 + num.abs()),
                        "{mode:?} input {which} [{idx}]: fd {num} vs {ana}"
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_inconsistent_inputs() {
        let f = fixture(DType::F32);
        let r = |c: &Tensor, a: &Tensor, b: &Tensor, hw, bg: &Tensor, m| {
            render_sprites(c, a, &f.imp, b, hw, bg, m)
        };
        assert!(r(
            &f.colour,
            &f.alpha,
            &f.boxes,
            (11, 12),
            &f.bg,
            RenderMode::Code
        )
        .is_err());
        assert!(r(
            &f.colour,
            &f.alpha.narrow(3, 0, 2).unwrap(),
            &f.boxes,
            (11, 13),
            &f.bg,
            RenderMode::Code
        )
        .is_err());
        assert!(r(
            &f.colour,
            &f.alpha,
            &f.boxes.narrow(2, 0, 3).unwrap(),
            (11, 13),
            &f.bg,
            RenderMode::Code
        )
        .is_err());
        assert!(r(
            &f.colour,
            &f.alpha,
            &f.boxes,
            (11, 13),
            &f.bg,
            RenderMode::Softmax { temperature: 0.0 }
        )
        .is_err());
        assert!(r(
            &f.colour,
            &f.alpha.to_dtype(DType::F64).unwrap(),
            &f.boxes,
            (11, 13),
            &f.bg,
            RenderMode::Code
        )
        .is_err());
        // Degenerate boxes render nothing instead of failing.
        let zero = f.boxes.zeros_like().unwrap();
        let out = r(
            &f.colour,
            &f.alpha,
            &zero,
            (11, 13),
            &f.bg,
            RenderMode::Code,
        )
        .unwrap();
        assert_eq!(tensor_f64(&out).unwrap(), tensor_f64(&f.bg).unwrap());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Custom op and dense reference agree (values and all gradients) on random scenes.
        #[test]
        fn custom_op_equals_reference_on_random_scenes(
            seed in 0u64..1000,
            b in 1usize..3, k in 1usize..5, sh in 1usize..5, sw in 1usize..5,
            h in 1usize..12, w in 1usize..12, softmax in proptest::bool::ANY,
        ) {
            let mut rng = crate::rng::SeededRng::new(seed);
            let dev = Device::Cpu;
            let mut u = |shape: &[usize], lo: f32, hi: f32| rng.uniform(shape, lo, hi, &dev).unwrap().to_dtype(DType::F64).unwrap();
            let tl = u(&[b, k, 2], -0.4, 1.0);
            let size = u(&[b, k, 2], 0.05, 0.9);
            let f = Fixture {
                colour: u(&[b, k, 3, sh, sw], 0.0, 1.0),
                alpha: u(&[b, k, 1, sh, sw], 0.0, 1.0),
                imp: u(&[b, k, 1, sh, sw], 0.01, 3.0),
                boxes: Tensor::cat(&[tl, size], 2).unwrap(),
                bg: u(&[b, 3, h, w], 0.0, 0.5),
            };
            let mode = if softmax { RenderMode::Softmax { temperature: 0.7 } } else { RenderMode::Code };
            let x = run_hw(&f, render_sprites, mode, (h, w));
            let y = run_hw(&f, render_sprites_reference, mode, (h, w));
            for (p, q) in x.iter().flatten().zip(y.iter().flatten()) {
                proptest::prop_assert!((p - q).abs() <= 1e-9 * (1.0 + q.abs()), "{} vs {}", p, q);
            }
        }
    }
}
