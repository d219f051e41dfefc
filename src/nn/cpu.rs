//! Host-side helpers shared by the CPU custom ops: the dtype dispatch ([`by_float`]), reading a
//! storage or tensor as `f64` values and building results in the input's dtype. The kernels
//! compute in `f64` so the same code serves F32 training and F64 gradient checks.

use candle_core::{CpuStorage, DType, Device, Layout, Result, Storage, Tensor, WithDType};

/// The CPU storage of `$call` run with the element type `$t` = `f32` or `f64`, as the F32/F64
/// storage `$s` has; other dtypes are an error naming the op `$op`. The dtype dispatch of every
/// custom op's `cpu_fwd` (as `cuda::by_float!` is of its `cuda_fwd`): `$call` yields a
/// `Vec<$t>` and may use `?`. Like `cuda::by_float!`, it wants `BackendStorage` in scope.
macro_rules! by_float {
    ($s:expr, $op:expr, $t:ident => $call:expr) => {
        match $s {
            candle_core::CpuStorage::F32(_) => {
                type $t = f32;
                candle_core::CpuStorage::F32($call)
            }
            candle_core::CpuStorage::F64(_) => {
                type $t = f64;
                candle_core::CpuStorage::F64($call)
            }
            other => candle_core::bail!("{} supports F32 and F64, got {:?}", $op, other.dtype()),
        }
    };
}
pub(crate) use by_float;

/// The contiguous values of a CPU storage as a slice of `T` (no copy).
pub(crate) fn storage_slice<'a, T: WithDType>(s: &'a CpuStorage, l: &Layout) -> Result<&'a [T]> {
    let (a, b) = l
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::Msg("custom op input must be contiguous".into()))?;
    Ok(&T::cpu_storage_as_slice(s)?[a..b])
}

/// The values of a contiguous CPU storage as `f64` (box parameters: a few per object).
pub(crate) fn storage_f64<T: WithDType>(s: &CpuStorage, l: &Layout) -> Result<Vec<f64>> {
    Ok(storage_slice::<T>(s, l)?
        .iter()
        .map(|x| x.to_f64())
        .collect())
}

/// Runs `f` on the row-major host values of `t` (dtype `T`) without copying when `t` is a
/// contiguous CPU tensor (otherwise on a contiguous host copy).
pub(crate) fn with_values<T: WithDType, R>(
    t: &Tensor,
    f: impl FnOnce(&[T]) -> Result<R>,
) -> Result<R> {
    let t = t.to_device(&Device::Cpu)?.contiguous()?;
    let (st, l) = t.storage_and_layout();
    match &*st {
        Storage::Cpu(cpu) => {
            let (a, b) = l
                .contiguous_offsets()
                .ok_or_else(|| candle_core::Error::Msg("expected a contiguous tensor".into()))?;
            f(&T::cpu_storage_as_slice(cpu)?[a..b])
        }
        _ => candle_core::bail!("expected a tensor in host memory"),
    }
}

/// A tensor of `like`'s shape and device from values of dtype `T`.
pub(crate) fn tensor_from_values<T: WithDType>(v: Vec<T>, like: &Tensor) -> Result<Tensor> {
    Tensor::from_vec(v, like.shape(), &Device::Cpu)?.to_device(like.device())
}

/// A tensor of `like`'s shape, dtype `T` and device from f64 values.
pub(crate) fn tensor_from_f64<T: WithDType>(v: Vec<f64>, like: &Tensor) -> Result<Tensor> {
    let v: Vec<T> = v.into_iter().map(T::from_f64).collect();
    Tensor::from_vec(v, like.shape(), &Device::Cpu)?.to_device(like.device())
}

/// All values of a tensor (any device, F32/F64/…) as f64, row-major.
pub(crate) fn tensor_f64(t: &Tensor) -> Result<Vec<f64>> {
    t.to_device(&Device::Cpu)?
        .to_dtype(DType::F64)?
        .flatten_all()?
        .to_vec1::<f64>()
}

/// Checks a tensor is F32 or F64.
pub(crate) fn check_float(t: &Tensor, what: &str) -> Result<()> {
    match t.dtype() {
        DType::F32 | DType::F64 => Ok(()),
        d => candle_core::bail!("{what} must be F32 or F64, got {d:?}"),
    }
}

/// `x + b`, clipped at zero when `relu`: the bias-ReLU epilogue on host values.
#[inline]
pub(crate) fn add_relu<T: WithDType>(x: T, b: T, relu: bool) -> T {
    let v = x + b;
    if relu && v < T::zero() {
        T::zero()
    } else {
        v
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
