//! Neural-network primitives for SILOT on candle: MLPs, the Sonnet GRU, Glorot-initialised
//! convolutions, the receptive-field-centred backbone, the differentiable glimpse sampler and
//! sprite renderer (custom ops with exact backward passes: CPU kernels, and CUDA kernels with the
//! `cuda` feature), distributions, the Gaussian
//! attention kernel and its fused inference form.

pub mod backbone;
pub mod conv;
mod cpu;
#[cfg(feature = "cuda")]
mod cuda;
pub mod dist;
pub mod fused_adam;
pub mod gru;
pub mod kernel;
pub mod mlp;
pub mod noise;
pub mod patches;
pub mod relation_attention;
pub mod render;
pub mod sampler;

static DEVICE_KERNELS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether the glimpse sampler and sprite renderer run their CUDA kernels on GPU tensors (the
/// default). `false` routes GPU tensors through the host CPU kernels (copies both ways), the
/// behaviour before the CUDA kernels existed; benchmarks use it for before/after comparisons.
pub fn set_device_kernels(enabled: bool) {
    DEVICE_KERNELS.store(enabled, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_device_kernels`].
pub fn device_kernels() -> bool {
    DEVICE_KERNELS.load(std::sync::atomic::Ordering::Relaxed)
}

static FUSED_ATTENTION: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether evaluation-mode discovery attention uses the fused op of [`relation_attention`] (the
/// default) instead of the composed pair grid; benchmarks switch it off for before/after runs.
pub fn set_fused_attention(enabled: bool) {
    FUSED_ATTENTION.store(enabled, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_fused_attention`].
pub fn fused_attention() -> bool {
    FUSED_ATTENTION.load(std::sync::atomic::Ordering::Relaxed)
}

/// Weight of one bilinear corner in the composed references: `(1 - f)` for the lower neighbour
/// (`d = 0`), `f` for the upper one (`d = 1`), per axis, times the validity mask;
/// returned with a broadcast axis at dim 2. `fy`, `fx`, `valid`: same shape.
pub(crate) fn corner_weight(
    fy: &candle_core::Tensor,
    fx: &candle_core::Tensor,
    dy: f64,
    dx: f64,
    valid: &candle_core::Tensor,
) -> candle_core::Result<candle_core::Tensor> {
    let wy = if dy == 0.0 {
        fy.affine(-1.0, 1.0)?
    } else {
        fy.clone()
    };
    let wx = if dx == 0.0 {
        fx.affine(-1.0, 1.0)?
    } else {
        fx.clone()
    };
    (wy * wx)?.mul(valid)?.unsqueeze(2)
}
