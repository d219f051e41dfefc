//! Launchers of the CUDA kernels in `kernels.cu` (compiled to PTX by `build.rs`): the glimpse
//! sampler and the sprite renderer, forward and backward. Only built with the `cuda` feature.

use candle_core::backend::BackendStorage;
use candle_core::cuda_backend::cudarc::driver::{
    CudaSlice, CudaView, DeviceRepr, LaunchConfig, PushKernelArg, ValidAsZeroBits,
};
use candle_core::cuda_backend::{CudaDType, CudaStorageSlice, WrapErr};
use candle_core::{CudaDevice, CudaStorage, Layout, Result};

/// The PTX module (sampler and renderer kernels).
const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/silot_kernels.ptx"));
const MODULE: &str = "silot_kernels";

/// Largest colour-channel count the renderer kernels take (`MAXC` in `kernels.cu`).
pub(crate) const RENDER_MAX_CHANNELS: usize = 4;

/// Element types the kernels are instantiated for.
pub(crate) trait KernelFloat: DeviceRepr + ValidAsZeroBits + CudaDType + Copy {
    /// Kernel name suffix.
    const SUFFIX: &'static str;
    /// `v` rounded to this type (kernel scalar arguments).
    fn of(v: f64) -> Self;
}
impl KernelFloat for f32 {
    const SUFFIX: &'static str = "f32";
    fn of(v: f64) -> Self {
        v as f32
    }
}
impl KernelFloat for f64 {
    const SUFFIX: &'static str = "f64";
    fn of(v: f64) -> Self {
        v
    }
}

/// The contiguous elements of `s` described by `l`.
fn view<'a, T: KernelFloat>(s: &'a CudaStorage, l: &Layout) -> Result<CudaView<'a, T>> {
    let (a, b) = l
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("CUDA kernel input must be contiguous".into()))?;
    Ok(s.as_cuda_slice::<T>()?.slice(a..b))
}

fn int(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        candle_core::Error::Msg(format!("{what} = {n} is too large for the CUDA kernels"))
    })
}

fn blocks(n: usize, per: usize) -> Result<u32> {
    u32::try_from(n.div_ceil(per).max(1))
        .map_err(|_| candle_core::Error::Msg(format!("{n} elements: too many CUDA blocks")))
}

/// Wraps a result slice of dtype `T` as storage.
pub(crate) fn storage<T: KernelFloat>(s: CudaSlice<T>, dev: &CudaDevice) -> CudaStorage {
    CudaStorage::wrap_cuda_slice(s, dev.clone())
}

/// Dtype of a storage, for dispatch: `Some(true)` F32, `Some(false)` F64.
pub(crate) fn is_f32(s: &CudaStorage) -> Result<bool> {
    match s.slice {
        CudaStorageSlice::F32(_) => Ok(true),
        CudaStorageSlice::F64(_) => Ok(false),
        _ => candle_core::bail!("the CUDA sampler/renderer kernels take F32 or F64 tensors"),
    }
}

/// The storage of `$call` run with the element type `$t` = `f32` or `f64`, as the F32/F64
/// storage `$s` has (an error for other dtypes), on `$s`'s device: the dtype dispatch of every
/// custom op's `cuda_fwd`. `$call` yields a `CudaSlice<$t>` and may use `?`.
macro_rules! by_float {
    ($s:expr, $t:ident => $call:expr) => {{
        let s = $s;
        let dev = s.device();
        if $crate::nn::cuda::is_f32(s)? {
            type $t = f32;
            $crate::nn::cuda::storage($call, dev)
        } else {
            type $t = f64;
            $crate::nn::cuda::storage($call, dev)
        }
    }};
}
pub(crate) use by_float;

/// Sampler geometry `(B, C, H, W, K, gh, gw)`.
pub(crate) type GlimpseDims = (usize, usize, usize, usize, usize, usize, usize);

/// Glimpses `(B,K,C,gh,gw)` from `img (B,C,H,W)` and `boxes (B,K,4)`.
pub(crate) fn glimpse_fwd<T: KernelFloat>(
    img: (&CudaStorage, &Layout),
    boxes: (&CudaStorage, &Layout),
    d: GlimpseDims,
    row: usize,
) -> Result<CudaSlice<T>> {
    let (b, c, h, w, k, gh, gw) = d;
    let dev = img.0.device();
    let n = b * k * row;
    let positions = u32_len(b * k * gh * gw, "glimpse pixels")? as usize;
    let (iv, bv) = (view::<T>(img.0, img.1)?, view::<T>(boxes.0, boxes.1)?);
    let out = if row > c * gh * gw {
        dev.alloc_zeros::<T>(n.max(1))? // the kernel leaves each row's tail
    } else {
        // SAFETY: every element is written by the kernel.
        unsafe { dev.alloc::<T>(n.max(1))? }
    };
    let func = dev.get_or_load_custom_func(&format!("glimpse_fwd_{}", T::SUFFIX), MODULE, PTX)?;
    let args = [b, c, h, w, k, gh, gw, row]
        .iter()
        .map(|&x| int(x, "glimpse dimension"))
        .collect::<Result<Vec<i32>>>()?;
    let mut lb = func.builder();
    lb.arg(&iv).arg(&bv).arg(&out);
    for a in &args {
        lb.arg(a);
    }
    let cfg = LaunchConfig {
        grid_dim: (blocks(positions, 256)?, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: argument list matches `glimpse_fwd_*` in kernels.cu (one thread per glimpse
    // pixel, all channels); buffers hold the sizes used.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// Gradients of the sampler packed as `[g_img (B·C·H·W), g_box (B·K·4)]`.
pub(crate) fn glimpse_bwd<T: KernelFloat>(
    img: (&CudaStorage, &Layout),
    boxes: (&CudaStorage, &Layout),
    grad: (&CudaStorage, &Layout),
    d: GlimpseDims,
) -> Result<CudaSlice<T>> {
    let (b, c, h, w, k, gh, gw) = d;
    let dev = img.0.device();
    let n_img = b * c * h * w;
    let (iv, bv, gv) = (
        view::<T>(img.0, img.1)?,
        view::<T>(boxes.0, boxes.1)?,
        view::<T>(grad.0, grad.1)?,
    );
    let out = dev.alloc_zeros::<T>(n_img + b * k * 4)?;
    let func = dev.get_or_load_custom_func(&format!("glimpse_bwd_{}", T::SUFFIX), MODULE, PTX)?;
    let box_off = n_img as i64;
    let args = [c, h, w, k, gh, gw]
        .iter()
        .map(|&x| int(x, "glimpse dimension"))
        .collect::<Result<Vec<i32>>>()?;
    let mut lb = func.builder();
    lb.arg(&iv).arg(&bv).arg(&gv).arg(&out).arg(&box_off);
    for a in &args {
        lb.arg(a);
    }
    let cfg = LaunchConfig {
        grid_dim: (blocks(b * k, 1)?, 1, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: argument list matches `glimpse_bwd_*`; one block per (b, k).
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// Renderer geometry `(B, K, C, sh, sw, H, W)`.
pub(crate) type RenderDims = (usize, usize, usize, usize, usize, usize, usize);

/// Compositing mode as the kernels take it: `(0, 1.0)` code, `(1, T)` softmax with temperature.
pub(crate) type ModeArg = (i32, f64);

const RENDER_THREADS: usize = 128;

fn render_cfg(d: RenderDims) -> Result<LaunchConfig> {
    let (b, k, _, _, _, h, w) = d;
    let shared = u32::try_from(4 * k * std::mem::size_of::<f64>())
        .ok()
        .filter(|&s| s <= 48 * 1024)
        .ok_or_else(|| {
            candle_core::Error::Msg(format!(
                "render_sprites on CUDA: K = {k} sprites is too many"
            ))
        })?;
    Ok(LaunchConfig {
        grid_dim: (
            blocks(h * w, RENDER_THREADS)?,
            u32::try_from(b).map_err(|_| candle_core::Error::Msg("batch too large".into()))?,
            1,
        ),
        block_dim: (RENDER_THREADS as u32, 1, 1),
        shared_mem_bytes: shared,
    })
}

fn render_ints(d: RenderDims) -> Result<Vec<i32>> {
    let (_, k, c, sh, sw, h, w) = d;
    [k, c, sh, sw, h, w]
        .iter()
        .map(|&x| int(x, "render dimension"))
        .collect()
}

/// Rendered images `(B,C,H,W)`.
pub(crate) fn render_fwd<T: KernelFloat>(
    sprites: (&CudaStorage, &Layout),
    boxes: (&CudaStorage, &Layout),
    bg: (&CudaStorage, &Layout),
    d: RenderDims,
    mode: ModeArg,
) -> Result<CudaSlice<T>> {
    let (b, _, c, _, _, h, w) = d;
    let dev = sprites.0.device();
    let (sv, bv, gv) = (
        view::<T>(sprites.0, sprites.1)?,
        view::<T>(boxes.0, boxes.1)?,
        view::<T>(bg.0, bg.1)?,
    );
    // SAFETY: every pixel is written by the kernel.
    let out = unsafe { dev.alloc::<T>(b * c * h * w)? };
    let func = dev.get_or_load_custom_func(&format!("render_fwd_{}", T::SUFFIX), MODULE, PTX)?;
    let ints = render_ints(d)?;
    let mut lb = func.builder();
    lb.arg(&sv).arg(&bv).arg(&gv).arg(&out);
    for a in &ints {
        lb.arg(a);
    }
    lb.arg(&mode.0).arg(&mode.1);
    // SAFETY: argument list matches `render_fwd_*`; shared memory holds the K boxes.
    unsafe { lb.launch(render_cfg(d)?) }.w()?;
    Ok(out)
}

/// Gradients of the renderer packed as `[g_sprites, g_boxes, g_background]`.
pub(crate) fn render_bwd<T: KernelFloat>(
    sprites: (&CudaStorage, &Layout),
    boxes: (&CudaStorage, &Layout),
    bg: (&CudaStorage, &Layout),
    grad: (&CudaStorage, &Layout),
    d: RenderDims,
    mode: ModeArg,
) -> Result<CudaSlice<T>> {
    let (b, k, c, sh, sw, h, w) = d;
    let dev = sprites.0.device();
    let (sv, bv, bgv, grv) = (
        view::<T>(sprites.0, sprites.1)?,
        view::<T>(boxes.0, boxes.1)?,
        view::<T>(bg.0, bg.1)?,
        view::<T>(grad.0, grad.1)?,
    );
    let n_sp = b * k * (c + 2) * sh * sw;
    let n_box = b * k * 4;
    let out = dev.alloc_zeros::<T>(n_sp + n_box + b * c * h * w)?;
    let func = dev.get_or_load_custom_func(&format!("render_bwd_{}", T::SUFFIX), MODULE, PTX)?;
    let (box_off, bg_off) = (n_sp as i64, (n_sp + n_box) as i64);
    let ints = render_ints(d)?;
    let mut lb = func.builder();
    lb.arg(&sv)
        .arg(&bv)
        .arg(&bgv)
        .arg(&grv)
        .arg(&out)
        .arg(&box_off)
        .arg(&bg_off);
    for a in &ints {
        lb.arg(a);
    }
    lb.arg(&mode.0).arg(&mode.1);
    // SAFETY: argument list matches `render_bwd_*`; the packed buffer is zeroed.
    unsafe { lb.launch(render_cfg(d)?) }.w()?;
    Ok(out)
}

/// Geometry of the fused relation attention (`nn::relation_attention`).
pub(crate) struct RelAttnDims<'a> {
    pub b: usize,
    pub k: usize,
    pub q: usize,
    /// `[h0, h1, …, out]`, at most `RA_MAXL + 1` entries, each ≤ `RA_MAXW`.
    pub widths: &'a [usize],
    pub std: f64,
    pub cutoff_std: f64,
}

/// Threads per query block of `rel_attn_fwd_*`.
const REL_ATTN_THREADS: u32 = 64;

/// `(B, Q, out)` attention outputs from `proj (B,K,h0)`, `geo (B,K+Q,2)` and the packed
/// parameters.
pub(crate) fn rel_attn_fwd<T: KernelFloat>(
    inputs: [(&CudaStorage, &Layout); 3],
    d: &RelAttnDims,
) -> Result<CudaSlice<T>> {
    if let Some(out) = rel_attn_fwd_warp::<T>(inputs, d)? {
        return Ok(out);
    }
    let dev = inputs[0].0.device();
    let [proj, geo, params] = inputs;
    let (pv, gv, wv) = (
        view::<T>(proj.0, proj.1)?,
        view::<T>(geo.0, geo.1)?,
        view::<T>(params.0, params.1)?,
    );
    let nl = d.widths.len() - 1;
    let out_dim = d.widths[nl];
    // SAFETY: every output element is written by the kernel.
    let out = unsafe { dev.alloc::<T>((d.b * d.q * out_dim).max(1))? };
    let func = dev.get_or_load_custom_func(&format!("rel_attn_fwd_{}", T::SUFFIX), MODULE, PTX)?;
    let mut w = [0i32; 5];
    for (slot, &x) in w.iter_mut().zip(d.widths) {
        *slot = int(x, "relation attention width")?;
    }
    let (k, q, nl) = (
        int(d.k, "objects")?,
        int(d.q, "queries")?,
        int(nl, "layers")?,
    );
    let inv_std = 1.0 / d.std;
    let norm = 1.0 / (2.0 * std::f64::consts::PI * d.std * d.std);
    let cutoff_sq = d.cutoff_std * d.cutoff_std;
    let mut lb = func.builder();
    lb.arg(&pv)
        .arg(&gv)
        .arg(&wv)
        .arg(&out)
        .arg(&k)
        .arg(&q)
        .arg(&nl);
    for x in &w {
        lb.arg(x);
    }
    lb.arg(&inv_std).arg(&norm).arg(&cutoff_sq);
    let grid_y =
        u32::try_from(d.b).map_err(|_| candle_core::Error::Msg("batch too large".into()))?;
    let cfg = LaunchConfig {
        grid_dim: (blocks(d.q, 1)?, grid_y, 1),
        block_dim: (REL_ATTN_THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: argument list matches `rel_attn_fwd_*`; one block per (q, b); sizes checked by
    // `relation_attention::fits`.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// Warps per block of `rel_attn_fwd_warp_*` (`RA_WARPS` in `kernels.cu`).
const REL_ATTN_WARPS: usize = 4;
/// Static shared-memory limit per block without an opt-in.
const SHARED_LIMIT: usize = 48 * 1024;
/// Blocks of the persistent `rel_attn_fwd_warp_*` (each loops over queries).
const REL_ATTN_BLOCKS: usize = 1024;

/// The warp-per-pair form of [`rel_attn_fwd`] (parameters in shared memory); `None` when they
/// do not fit in [`SHARED_LIMIT`] (then the block-per-query kernel runs).
fn rel_attn_fwd_warp<T: KernelFloat>(
    inputs: [(&CudaStorage, &Layout); 3],
    d: &RelAttnDims,
) -> Result<Option<CudaSlice<T>>> {
    let nl = d.widths.len() - 1;
    let n_params = 2 * d.widths[0]
        + d.widths
            .windows(2)
            .map(|w| w[0] * w[1] + w[1])
            .sum::<usize>();
    let maxw = d.widths.iter().copied().max().unwrap_or(1);
    let t = std::mem::size_of::<T>();
    let shared = (n_params + REL_ATTN_WARPS * 3 * maxw + d.k) * t + d.k * 4;
    if shared > SHARED_LIMIT {
        return Ok(None);
    }
    let dev = inputs[0].0.device();
    let [proj, geo, params] = inputs;
    let (pv, gv, wv) = (
        view::<T>(proj.0, proj.1)?,
        view::<T>(geo.0, geo.1)?,
        view::<T>(params.0, params.1)?,
    );
    let out_dim = d.widths[nl];
    // SAFETY: every output element is written by the kernel.
    let out = unsafe { dev.alloc::<T>((d.b * d.q * out_dim).max(1))? };
    let func =
        dev.get_or_load_custom_func(&format!("rel_attn_fwd_warp_{}", T::SUFFIX), MODULE, PTX)?;
    let mut w = [0i32; 5];
    for (slot, &x) in w.iter_mut().zip(d.widths) {
        *slot = int(x, "relation attention width")?;
    }
    let ints = [
        int(d.b, "batch")?,
        int(d.k, "objects")?,
        int(d.q, "queries")?,
        int(nl, "layers")?,
    ];
    let sizes = [int(n_params, "parameters")?, int(maxw, "width")?];
    let (inv_std, norm, cutoff_sq) = (
        T::of(1.0 / d.std),
        T::of(1.0 / (2.0 * std::f64::consts::PI * d.std * d.std)),
        T::of(d.cutoff_std * d.cutoff_std),
    );
    let mut lb = func.builder();
    lb.arg(&pv).arg(&gv).arg(&wv).arg(&out);
    for x in ints.iter().chain(&w).chain(&sizes) {
        lb.arg(x);
    }
    lb.arg(&inv_std).arg(&norm).arg(&cutoff_sq);
    let cfg = LaunchConfig {
        grid_dim: (blocks(d.b * d.q, 1)?.min(REL_ATTN_BLOCKS as u32), 1, 1),
        block_dim: (32 * REL_ATTN_WARPS as u32, 1, 1),
        shared_mem_bytes: shared as u32,
    };
    // SAFETY: argument list matches `rel_attn_fwd_warp_*`; dynamic shared memory as laid out
    // there; sizes checked by `relation_attention::fits`.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(Some(out))
}

/// The scalar arguments of every `patches_fwd_*` kernel, in their order.
fn patch_args(d: &super::patches::PatchDims) -> Result<Vec<i32>> {
    [
        d.h,
        d.w,
        d.c,
        d.out_h(),
        d.out_w(),
        d.kh,
        d.kw,
        d.stride,
        d.pad[0],
        d.pad[2],
        d.channels_first as usize,
    ]
    .iter()
    .map(|&v| int(v, "patch dimension"))
    .collect()
}

/// Launch shape of the patch kernels: `blockIdx.y` = image, a grid-stride loop over the image's
/// `per_image` values, `per_thread` of them per thread.
fn patch_launch(
    d: &super::patches::PatchDims,
    per_image: usize,
    per_thread: usize,
) -> Result<LaunchConfig> {
    let images = u32::try_from(d.b.max(1))
        .ok()
        .filter(|&b| b <= 65_535)
        .ok_or_else(|| candle_core::Error::Msg(format!("patches: batch {} > 65535", d.b)))?;
    Ok(LaunchConfig {
        grid_dim: (blocks(per_image / per_thread, 256)?.min(4096), images, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    })
}

/// Channels-last patches `(B, OH, OW, kh·kw·C)` of `x (B, H, W, C)` (`nn::patches`), with the
/// optional pending input epilogue `relu(x + bias)`.
pub(crate) fn patches_fwd<T: KernelFloat>(
    x: (&CudaStorage, &Layout),
    bias: Option<(&CudaStorage, &Layout)>,
    d: &super::patches::PatchDims,
) -> Result<CudaSlice<T>> {
    let dev = x.0.device();
    let xv = view::<T>(x.0, x.1)?;
    let per_image = d.out_h() * d.out_w() * d.patch_len();
    let per_image = u32_len(per_image, "patch values per image")? as usize;
    // SAFETY: every output element is written by the kernel.
    let out = unsafe { dev.alloc::<T>((d.b * per_image).max(1))? };
    let bv = match bias {
        Some(b) => Some(view::<T>(b.0, b.1)?),
        None => None,
    };
    // float4 moves: 4 channels per thread when C % 4 == 0 and both inputs start 16-byte aligned.
    let aligned = |l: &Layout| l.start_offset() % 4 == 0;
    let vec4 = T::SUFFIX == "f32"
        && !d.channels_first
        && d.c % 4 == 0
        && aligned(x.1)
        && bias.is_none_or(|(_, l)| aligned(l));
    let name = if vec4 {
        "patches_fwd_v4_f32".to_string()
    } else {
        format!("patches_fwd_{}", T::SUFFIX)
    };
    let func = dev.get_or_load_custom_func(&name, MODULE, PTX)?;
    let args = patch_args(d)?;
    let null: u64 = 0;
    let mut lb = func.builder();
    lb.arg(&xv);
    match &bv {
        Some(b) => lb.arg(b),
        None => lb.arg(&null),
    };
    lb.arg(&out);
    for a in &args {
        lb.arg(a);
    }
    let cfg = patch_launch(d, per_image, if vec4 { 4 } else { 1 })?;
    // SAFETY: argument list matches `patches_fwd_*` / `patches_fwd_v4_f32` (a null bias pointer
    // means none); grid-stride over each image's values.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// [`patches_fwd`] stored as f16 (values computed in f32): `x` is F32 (channels-first or -last)
/// or F16 (channels-last), the pending input bias F32. The backbone's f16 inference path.
pub(crate) fn patches_fwd_half(
    x: (&CudaStorage, &Layout),
    bias: Option<(&CudaStorage, &Layout)>,
    d: &super::patches::PatchDims,
) -> Result<CudaSlice<half::f16>> {
    let dev = x.0.device();
    let per_image = d.out_h() * d.out_w() * d.patch_len();
    let per_image = u32_len(per_image, "patch values per image")? as usize;
    // SAFETY: every output element is written by the kernel.
    let out = unsafe { dev.alloc::<half::f16>((d.b * per_image).max(1))? };
    let bv = match bias {
        Some(b) => Some(view::<f32>(b.0, b.1)?),
        None => None,
    };
    let f16_in = matches!(x.0.slice, CudaStorageSlice::F16(_));
    // 16-byte moves: 8 channels per thread when C % 8 == 0 and the input starts aligned.
    let vec8 = f16_in && !d.channels_first && d.c % 8 == 0 && x.1.start_offset() % 8 == 0;
    let name = match (f16_in, vec8) {
        (true, true) => "patches_fwd_v8_f16",
        (true, false) => "patches_fwd_f16_to_f16",
        (false, _) => "patches_fwd_f32_to_f16",
    };
    if f16_in && d.channels_first {
        candle_core::bail!("half patches: an f16 input must be channels-last");
    }
    let func = dev.get_or_load_custom_func(name, MODULE, PTX)?;
    let args = patch_args(d)?;
    let (a, b) = x
        .1
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("CUDA kernel input must be contiguous".into()))?;
    let null: u64 = 0;
    let mut lb = func.builder();
    let xf32;
    let xf16;
    if f16_in {
        xf16 = x.0.as_cuda_slice::<half::f16>()?.slice(a..b);
        lb.arg(&xf16);
    } else {
        xf32 = x.0.as_cuda_slice::<f32>()?.slice(a..b);
        lb.arg(&xf32);
    }
    match &bv {
        Some(b) => lb.arg(b),
        None => lb.arg(&null),
    };
    lb.arg(&out);
    for a in &args {
        lb.arg(a);
    }
    let cfg = patch_launch(d, per_image, if vec8 { 8 } else { 1 })?;
    // SAFETY: argument list matches `patches_fwd_{f32_to_f16,f16_to_f16,v8_f16}` (a null bias
    // pointer means none); grid-stride over each image's values.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// The input gradient of [`patches_fwd`] (col2im): `(B, H, W, C)` (or `(B, C, H, W)` when
/// channels-first) from the patches' gradient `g (B, OH, OW, kh·kw·C)`, virtual padding included
/// (a pending input bias has no gradient: `nn::patches` refuses it one).
pub(crate) fn patches_bwd<T: KernelFloat>(
    g: (&CudaStorage, &Layout),
    d: &super::patches::PatchDims,
) -> Result<CudaSlice<T>> {
    let dev = g.0.device();
    let gv = view::<T>(g.0, g.1)?;
    let per_image = u32_len(d.h * d.w * d.c, "input values per image")? as usize;
    u32_len(
        d.out_h() * d.out_w() * d.patch_len(),
        "patch values per image",
    )?;
    // SAFETY: every output element is written by the kernel.
    let out = unsafe { dev.alloc::<T>((d.b * per_image).max(1))? };
    let func = dev.get_or_load_custom_func(&format!("patches_bwd_{}", T::SUFFIX), MODULE, PTX)?;
    let args = patch_args(d)?;
    let mut lb = func.builder();
    lb.arg(&gv);
    lb.arg(&out);
    for a in &args {
        lb.arg(a);
    }
    let cfg = patch_launch(d, per_image, 1)?;
    // SAFETY: argument list matches `patches_bwd_*`; grid-stride over each image's values.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// Wraps an f16 result slice as storage.
pub(crate) fn storage_f16(s: CudaSlice<half::f16>, dev: &CudaDevice) -> CudaStorage {
    CudaStorage::wrap_cuda_slice(s, dev.clone())
}

const ADAM_THREADS: u32 = 256;

fn adam_cfg(n: usize) -> Result<LaunchConfig> {
    Ok(LaunchConfig {
        grid_dim: (blocks(n, ADAM_THREADS as usize)?.min(65_535 * 8), 1, 1),
        block_dim: (ADAM_THREADS, 1, 1),
        shared_mem_bytes: 0,
    })
}

/// Fused Adam, step 1 (`nn::fused_adam`): moments `mv (2, n)` (elements `dst` of `mv`) updated
/// in place from the gradient (elements `src` of `g`); `hyper = [scale, sigma, beta1, beta2]`.
pub(crate) fn adam_moments<T: KernelFloat>(
    mv: &mut CudaStorage,
    dst: (usize, usize),
    g: &CudaStorage,
    src: (usize, usize),
    hyper: [f64; 4],
    key: u64,
) -> Result<()> {
    let dev = g.device().clone();
    let n = src.1 - src.0;
    let gv = g.as_cuda_slice::<T>()?.slice(src.0..src.1);
    let mut mvv = mv.as_cuda_slice_mut::<T>()?.slice_mut(dst.0..dst.1);
    let func = dev.get_or_load_custom_func(&format!("adam_moments_{}", T::SUFFIX), MODULE, PTX)?;
    let n64 = n as u64;
    let mut lb = func.builder();
    lb.arg(&mut mvv).arg(&gv).arg(&n64);
    for h in &hyper {
        lb.arg(h);
    }
    lb.arg(&key);
    // SAFETY: argument list matches `adam_moments_*`; `mv` holds 2n elements, `g` n.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(())
}

/// Fused Adam, step 2: `theta` (elements `dst`) updated in place from the moments (elements
/// `src` of `mv`, `2n` of them); `hyper = [lr_t, eps]`.
pub(crate) fn adam_apply<T: KernelFloat>(
    theta: &mut CudaStorage,
    dst: (usize, usize),
    mv: &CudaStorage,
    src: (usize, usize),
    hyper: [f64; 2],
) -> Result<()> {
    let dev = mv.device().clone();
    let n = dst.1 - dst.0;
    let mvv = mv.as_cuda_slice::<T>()?.slice(src.0..src.1);
    let mut tv = theta.as_cuda_slice_mut::<T>()?.slice_mut(dst.0..dst.1);
    let func = dev.get_or_load_custom_func(&format!("adam_apply_{}", T::SUFFIX), MODULE, PTX)?;
    let n64 = n as u64;
    let mut lb = func.builder();
    lb.arg(&mut tv)
        .arg(&mvv)
        .arg(&n64)
        .arg(&hyper[0])
        .arg(&hyper[1]);
    // SAFETY: argument list matches `adam_apply_*`; `theta` holds n elements, `mv` 2n.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(())
}

/// A contiguous tensor of `n` elements of counter-based noise (`nn::noise`).
pub(crate) fn counter_noise<T: KernelFloat>(
    dev: &CudaDevice,
    n: usize,
    key: u64,
    noise: super::noise::Noise,
) -> Result<CudaSlice<T>> {
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("counter_noise_{}", T::SUFFIX), MODULE, PTX)?;
    let (n64, kind) = (n as u64, noise.code());
    let mut lb = func.builder();
    lb.arg(&out).arg(&n64).arg(&key).arg(&kind);
    // SAFETY: argument list matches `counter_noise_*`; `out` holds n elements.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}

fn u32_len(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        candle_core::Error::Msg(format!(
            "{what} = {n} is too large for the epilogue kernels"
        ))
    })
}

/// `act(x + b)` over `x (R, C)` contiguous, `b (C)` (`nn::epilogue::bias_act`).
pub(crate) fn bias_act<T: KernelFloat>(
    x: (&CudaStorage, &Layout),
    b: (&CudaStorage, &Layout),
    relu: bool,
) -> Result<CudaSlice<T>> {
    let dev = x.0.device();
    let n = x.1.shape().elem_count();
    let c = b.1.shape().elem_count();
    let (xv, bv) = (view::<T>(x.0, x.1)?, view::<T>(b.0, b.1)?);
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("bias_act_{}", T::SUFFIX), MODULE, PTX)?;
    let (n32, c32, r) = (
        u32_len(n, "elements")?,
        u32_len(c.max(1), "columns")?,
        relu as i32,
    );
    let mut lb = func.builder();
    lb.arg(&xv).arg(&bv).arg(&out).arg(&n32).arg(&c32).arg(&r);
    // SAFETY: argument list matches `bias_act_*`; `out` and `x` hold n elements, `b` c.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}

/// The gated `what` update (`nn::gated_update`) of `r` objects of `a` units: with `grad = None`
/// the forward `(2, r, a)`, else the backward `[g_inp (r, 2a) | g_tmp (r, 5a) | g_prev (r, a)]`
/// from the output's gradient `(2, r, a)`. All inputs contiguous.
pub(crate) fn gated_what<T: KernelFloat>(
    (inp, tmp, prev): Inputs3<'_>,
    grad: Option<(&CudaStorage, &Layout)>,
    (r, a): (usize, usize),
) -> Result<CudaSlice<T>> {
    let dev = inp.0.device();
    let n = r * a;
    let (iv, tv, pv) = (
        view::<T>(inp.0, inp.1)?,
        view::<T>(tmp.0, tmp.1)?,
        view::<T>(prev.0, prev.1)?,
    );
    let (r32, a32) = (u32_len(r, "objects")?, u32_len(a.max(1), "what units")?);
    u32_len(8 * n, "gradient values")?;
    let out_len = if grad.is_some() { 8 * n } else { 2 * n };
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(out_len.max(1))? };
    let kind = if grad.is_some() { "bwd" } else { "fwd" };
    let func =
        dev.get_or_load_custom_func(&format!("gated_what_{kind}_{}", T::SUFFIX), MODULE, PTX)?;
    let gv = grad.map(|(s, l)| view::<T>(s, l)).transpose()?;
    let mut lb = func.builder();
    lb.arg(&iv).arg(&tv).arg(&pv);
    if let Some(g) = &gv {
        lb.arg(g);
    }
    lb.arg(&out).arg(&r32).arg(&a32);
    // SAFETY: argument list matches `gated_what_{fwd,bwd}_*`; inputs hold 2n, 5n, n (and the
    // gradient 2n) elements, the output out_len.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}

/// Three `(storage, layout)` inputs of a custom op.
pub(crate) type Inputs3<'a> = (
    (&'a CudaStorage, &'a Layout),
    (&'a CudaStorage, &'a Layout),
    (&'a CudaStorage, &'a Layout),
);

/// Presence-weighted Normal KL against the fixed prior `(mean, std)` (`nn::weighted_kl`): mean
/// and std `(rows, d)`, weight `(rows)`, all contiguous. Forward: `(rows)`; `backward`: the
/// packed `(rows, 2d + 1)` gradients, the third input then being `grad · weight`.
pub(crate) fn weighted_kl<T: KernelFloat>(
    (m, s, w): Inputs3,
    rows: usize,
    d: usize,
    (prior_mean, prior_std): (f64, f64),
    backward: bool,
) -> Result<CudaSlice<T>> {
    let dev = m.0.device();
    let (mv, sv, wv) = (
        view::<T>(m.0, m.1)?,
        view::<T>(s.0, s.1)?,
        view::<T>(w.0, w.1)?,
    );
    let n = if backward { rows * (2 * d + 1) } else { rows };
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("weighted_kl_{}", T::SUFFIX), MODULE, PTX)?;
    let (r32, d32) = (u32_len(rows, "rows")?, u32_len(d, "row width")?);
    let (pm, ps, bw) = (T::of(prior_mean), T::of(prior_std), backward as i32);
    let mut lb = func.builder();
    lb.arg(&mv).arg(&sv).arg(&wv).arg(&out).arg(&r32).arg(&d32);
    lb.arg(&pm).arg(&ps).arg(&bw);
    let cfg = LaunchConfig {
        grid_dim: (blocks(rows, 128)?, 1, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: argument list matches `weighted_kl_*` in kernels.cu (one thread per row); the
    // inputs hold rows·d, rows·d and rows values, `out` n.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// Elementwise Bernoulli NLL (`kind` 0) or KL (`kind` 1) of `a` against `b`, or with `backward`
/// its derivative in `a` (`nn::bernoulli`); both contiguous, `n` values.
pub(crate) fn bernoulli<T: KernelFloat>(
    a: (&CudaStorage, &Layout),
    b: (&CudaStorage, &Layout),
    n: usize,
    kind: i32,
    backward: bool,
) -> Result<CudaSlice<T>> {
    let dev = a.0.device();
    let (av, bv) = (view::<T>(a.0, a.1)?, view::<T>(b.0, b.1)?);
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("bernoulli_{}", T::SUFFIX), MODULE, PTX)?;
    let (n32, bw) = (u32_len(n, "elements")?, backward as i32);
    let mut lb = func.builder();
    lb.arg(&av).arg(&bv).arg(&out).arg(&n32).arg(&kind).arg(&bw);
    let cfg = LaunchConfig {
        grid_dim: (blocks(n, 256)?.min(65_535), 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: argument list matches `bernoulli_*` in kernels.cu (grid-stride over n values;
    // both inputs hold n values).
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// The count prior's `ρ (B, N)` from the presences `o (B, N)` (contiguous) in visiting order
/// (`model::count_prior`): one warp per stream, the count distribution in shared memory.
pub(crate) fn count_rho<T: KernelFloat>(
    o: (&CudaStorage, &Layout),
    (b, n): (usize, usize),
    log_odds: f64,
) -> Result<CudaSlice<T>> {
    let dev = o.0.device();
    let ov = view::<T>(o.0, o.1)?;
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>((b * n).max(1))? };
    let shared = (n + 1) * std::mem::size_of::<f64>();
    if shared > 48 * 1024 {
        candle_core::bail!("count prior: {n} objects per stream exceed the kernel's shared memory");
    }
    let func = dev.get_or_load_custom_func(&format!("count_rho_{}", T::SUFFIX), MODULE, PTX)?;
    let n32 = int(n, "objects per stream")?;
    let mut lb = func.builder();
    lb.arg(&ov).arg(&out).arg(&n32).arg(&log_odds);
    let cfg = LaunchConfig {
        grid_dim: (u32_len(b.max(1), "streams")?, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: shared as u32,
    };
    // SAFETY: argument list matches `count_rho_*` in kernels.cu (one warp per stream, N + 1
    // doubles of dynamic shared memory); `o` and `out` hold B·N values.
    unsafe { lb.launch(cfg) }.w()?;
    Ok(out)
}

/// `x · σ(logit + shift)` over `x (N, C, P)`, `logit (N, P)` (`nn::epilogue::gate_channels`).
pub(crate) fn gate_channels<T: KernelFloat>(
    x: (&CudaStorage, &Layout),
    logit: (&CudaStorage, &Layout),
    (c, p, row_stride, row): (usize, usize, usize, usize),
    shift: f64,
) -> Result<CudaSlice<T>> {
    let dev = x.0.device();
    let rows = x.1.shape().elem_count() / (c * p).max(1);
    let n = rows * row; // output values
    let start = logit.1.start_offset();
    let end = start + rows.saturating_sub(1) * row_stride + p;
    let xv = view::<T>(x.0, x.1)?;
    let lv = logit.0.as_cuda_slice::<T>()?.slice(start..end);
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("gate_channels_{}", T::SUFFIX), MODULE, PTX)?;
    u32_len(end, "logit extent")?;
    let (n32, c32, p32, rs32, row32) = (
        u32_len(n, "elements")?,
        u32_len(c.max(1), "channels")?,
        u32_len(p.max(1), "positions")?,
        u32_len(row_stride, "logit row stride")?,
        u32_len(row.max(1), "output row")?,
    );
    let sh = T::of(shift);
    let mut lb = func.builder();
    lb.arg(&xv)
        .arg(&lv)
        .arg(&out)
        .arg(&n32)
        .arg(&c32)
        .arg(&p32)
        .arg(&rs32)
        .arg(&row32)
        .arg(&sh);
    // SAFETY: argument list matches `gate_channels_*`; `out`, `x` hold n elements, `logit` rows
    // of p values `row_stride` apart (the slice covers them).
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}

/// `g · [mask(r)]` (`nn::epilogue`): kind 0 `r > 0`, kind 1 `lo ≤ r ≤ hi`.
pub(crate) fn masked_grad<T: KernelFloat>(
    g: (&CudaStorage, &Layout),
    r: (&CudaStorage, &Layout),
    kind: i32,
    lo: f64,
    hi: f64,
) -> Result<CudaSlice<T>> {
    let dev = g.0.device();
    let n = g.1.shape().elem_count();
    let (gv, rv) = (view::<T>(g.0, g.1)?, view::<T>(r.0, r.1)?);
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("masked_grad_{}", T::SUFFIX), MODULE, PTX)?;
    let (n32, lo, hi) = (u32_len(n, "elements")?, T::of(lo), T::of(hi));
    let mut lb = func.builder();
    lb.arg(&gv)
        .arg(&rv)
        .arg(&out)
        .arg(&n32)
        .arg(&kind)
        .arg(&lo)
        .arg(&hi);
    // SAFETY: argument list matches `masked_grad_*`; all three buffers hold n elements.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}

/// `min(max(x, lo), hi)` (`nn::epilogue::clamp`).
pub(crate) fn clamp<T: KernelFloat>(
    x: (&CudaStorage, &Layout),
    lo: f64,
    hi: f64,
) -> Result<CudaSlice<T>> {
    let dev = x.0.device();
    let n = x.1.shape().elem_count();
    let xv = view::<T>(x.0, x.1)?;
    // SAFETY: every element is written by the kernel.
    let out = unsafe { dev.alloc::<T>(n.max(1))? };
    let func = dev.get_or_load_custom_func(&format!("clamp_{}", T::SUFFIX), MODULE, PTX)?;
    let (n32, lo, hi) = (u32_len(n, "elements")?, T::of(lo), T::of(hi));
    let mut lb = func.builder();
    lb.arg(&xv).arg(&out).arg(&n32).arg(&lo).arg(&hi);
    // SAFETY: argument list matches `clamp_*`; both buffers hold n elements.
    unsafe { lb.launch(adam_cfg(n)?) }.w()?;
    Ok(out)
}
