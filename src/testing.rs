//! Test support: [`test_device!`](crate::test_device) runs one test body on every device the
//! build supports (the CPU, and with the `cuda` feature the first CUDA GPU).

use candle_core::Device;

/// The first CUDA GPU, opened once per process and shared by all tests (opening a context costs
/// ~0.3 s and tensors of two contexts cannot be mixed). Panics with a clear message when the
/// build has no CUDA support or no GPU answers: device tests are meant to fail loudly there.
pub fn cuda_device() -> Device {
    static DEV: std::sync::OnceLock<Device> = std::sync::OnceLock::new();
    DEV.get_or_init(|| {
        let dev = Device::new_cuda(0).unwrap_or_else(|e| {
            panic!("CUDA device tests need a GPU and a `--features cuda` build: {e}")
        });
        crate::nn::prepare_device(&dev);
        dev
    })
    .clone()
}

/// Largest absolute elementwise difference of two tensors of one shape, as `f64` (panics on
/// a shape or device mismatch: a test helper).
pub fn max_abs_diff(a: &candle_core::Tensor, b: &candle_core::Tensor) -> f64 {
    (a - b)
        .and_then(|d| {
            d.abs()?
                .flatten_all()?
                .max(0)?
                .to_dtype(candle_core::DType::F64)
        })
        .and_then(|m| m.to_scalar::<f64>())
        .expect("max_abs_diff: tensors of one shape, dtype and device")
}

/// Largest absolute value of a tensor, as `f64` (a test helper: panics on an empty tensor).
pub fn max_abs(t: &candle_core::Tensor) -> f64 {
    t.abs()
        .and_then(|a| a.flatten_all()?.max(0)?.to_dtype(candle_core::DType::F64))
        .and_then(|m| m.to_scalar::<f64>())
        .expect("max_abs: a non-empty tensor")
}

/// Defines `#[test] fn $cpu()` running `$body(&Device::Cpu)` and, when the *calling* crate is
/// built with its `cuda` feature, `#[test] fn $cuda()` running `$body` on
/// [`cuda_device`](crate::testing::cuda_device). `$body: fn(&Device)` asserts (panics) itself.
///
/// ```ignore
/// fn sampler_matches_reference(dev: &Device) { /* … */ }
/// silot::test_device!(sampler_matches_reference, sampler_cpu, sampler_cuda);
/// ```
#[macro_export]
macro_rules! test_device {
    ($body:ident, $cpu:ident, $cuda:ident) => {
        #[test]
        fn $cpu() {
            $body(&::candle_core::Device::Cpu)
        }
        #[cfg(feature = "cuda")]
        #[test]
        fn $cuda() {
            $body(&$crate::testing::cuda_device())
        }
    };
}
