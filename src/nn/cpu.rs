//! Host-side helpers shared by the CPU custom ops (sampler, renderer): read a storage or tensor
//! as `f64` values and build results in the input's dtype. The kernels compute in `f64` so the
//! same code serves F32 training and F64 gradient checks.

use candle_core::backend::BackendStorage;
use candle_core::{CpuStorage, DType, Device, Layout, Result, Shape, Tensor};

/// The contiguous values of a CPU storage as f64 (F32 and F64 supported).
pub(crate) fn storage_f64(s: &CpuStorage, l: &Layout) -> Result<Vec<f64>> {
    let (a, b) = l
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("custom op input must be contiguous".into()))?;
    match s {
        CpuStorage::F32(v) => Ok(v[a..b].iter().map(|&x| x as f64).collect()),
        CpuStorage::F64(v) => Ok(v[a..b].to_vec()),
        other => candle_core::bail!(
            "custom op supports F32 and F64 tensors, got {:?}",
            other.dtype()
        ),
    }
}

/// A CPU storage of `dtype` (F32 or F64) from f64 values.
pub(crate) fn storage_from_f64(v: Vec<f64>, dtype: DType) -> Result<CpuStorage> {
    match dtype {
        DType::F32 => Ok(CpuStorage::F32(v.into_iter().map(|x| x as f32).collect())),
        DType::F64 => Ok(CpuStorage::F64(v)),
        other => candle_core::bail!("custom op supports F32 and F64 tensors, got {other:?}"),
    }
}

/// All values of a tensor (any device, F32/F64/…) as f64, row-major.
pub(crate) fn tensor_f64(t: &Tensor) -> Result<Vec<f64>> {
    t.to_device(&Device::Cpu)?
        .to_dtype(DType::F64)?
        .flatten_all()?
        .to_vec1::<f64>()
}

/// A tensor of `shape` from f64 values, in `like`'s dtype and on its device.
pub(crate) fn tensor_like(v: Vec<f64>, shape: impl Into<Shape>, like: &Tensor) -> Result<Tensor> {
    Tensor::from_vec(v, shape, &Device::Cpu)?
        .to_dtype(like.dtype())?
        .to_device(like.device())
}

/// Checks a tensor is F32 or F64.
pub(crate) fn check_float(t: &Tensor, what: &str) -> Result<()> {
    match t.dtype() {
        DType::F32 | DType::F64 => Ok(()),
        d => candle_core::bail!("{what} must be F32 or F64, got {d:?}"),
    }
}

/// One-dimensional bilinear stencil at `x`: `(i0, w0, w1)` with neighbours `i0`, `i0 + 1` and
/// weights `1 − f`, `f`, `f = x − floor(x)`.
#[inline]
pub(crate) fn stencil(x: f64) -> (i64, f64, f64) {
    let x0 = x.floor();
    let f = x - x0;
    (x0 as i64, 1.0 - f, f)
}
