//! Neural-network primitives for SILOT on candle: MLPs, the Sonnet GRU, Glorot-initialised
//! convolutions, the receptive-field-centred backbone, the differentiable glimpse sampler and
//! sprite renderer (custom ops with exact backward passes: CPU kernels, and CUDA kernels with the
//! `cuda` feature), distributions, the Gaussian
//! attention kernel and its fused inference form.

pub mod backbone;
pub mod bernoulli;
pub mod conv;
pub(crate) mod cpu;
#[cfg(feature = "cuda")]
mod cublaslt;
#[cfg(feature = "cuda")]
pub(crate) mod cuda;
pub mod dist;
pub mod epilogue;
pub mod fused_adam;
pub mod fused_dense;
pub mod gated_update;
pub mod gather;
pub mod gru;
pub mod kernel;
pub mod mlp;
pub mod noise;
pub mod patches;
pub mod relation_attention;
pub mod render;
pub mod sampler;
pub mod weighted_kl;

/// A process-wide on/off switch: the optimised path (on, the default) or the one it replaced,
/// for before/after benchmarks in one binary.
struct Switch(std::sync::atomic::AtomicBool);

impl Switch {
    const fn on() -> Self {
        Switch(std::sync::atomic::AtomicBool::new(true))
    }
    fn set(&self, on: bool) {
        self.0.store(on, std::sync::atomic::Ordering::Relaxed);
    }
    fn get(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

static DEVICE_KERNELS: Switch = Switch::on();
static FUSED_ATTENTION: Switch = Switch::on();
static FUSED_OPTIMIZER: Switch = Switch::on();
static DEVICE_NOISE: Switch = Switch::on();
static FUSED_EPILOGUES: Switch = Switch::on();
static POOL_CACHING: Switch = Switch::on();
static HALF_BACKBONE: Switch = Switch(std::sync::atomic::AtomicBool::new(false));
static DENSE_FUSION: std::sync::atomic::AtomicU8 =
    std::sync::atomic::AtomicU8::new(DenseFusion::ReducedPrecision as u8);

/// Where dense layers on the GPU with TF32 on run as one cuBLASLt matmul with the bias and ReLU
/// in its epilogue ([`fused_dense`]) instead of matmul + [`epilogue::bias_act`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DenseFusion {
    /// Never (the path before `fused_dense`).
    Off = 0,
    /// Only in the reduced-precision inference mode ([`set_half_backbone`]), the one
    /// configuration where it measured faster (the default).
    ReducedPrecision = 1,
    /// Whenever TF32 is on, training included (for measurements).
    Tf32 = 2,
}

/// Set where dense layers use [`fused_dense`] (see [`DenseFusion`]).
pub fn set_dense_fusion(mode: DenseFusion) {
    DENSE_FUSION.store(mode as u8, std::sync::atomic::Ordering::Relaxed);
}

/// See [`set_dense_fusion`].
pub fn dense_fusion() -> DenseFusion {
    match DENSE_FUSION.load(std::sync::atomic::Ordering::Relaxed) {
        0 => DenseFusion::Off,
        2 => DenseFusion::Tf32,
        _ => DenseFusion::ReducedPrecision,
    }
}

/// The reduced-precision inference mode (off by default): on the GPU the backbone's 4×4
/// convolutions run in f16 (patches and weights rounded to f16, f32 accumulation; the matmul
/// inputs keep TF32's 10-bit mantissa, and the patches, the largest tensor of an inference step,
/// move half the bytes), and with TF32 on the dense layers fuse bias and ReLU into cuBLASLt
/// ([`fused_dense`]). Set it only around inference: dense layers of a training step taken while
/// it is on would use the fused layer too (same values within TF32 rounding, exact gradients).
pub fn set_half_backbone(enabled: bool) {
    HALF_BACKBONE.set(enabled);
}

/// See [`set_half_backbone`].
pub fn half_backbone() -> bool {
    HALF_BACKBONE.get()
}

/// Whether the glimpse sampler and sprite renderer run their CUDA kernels on GPU tensors (the
/// default). `false` routes GPU tensors through the host CPU kernels (copies both ways), the
/// behaviour before the CUDA kernels existed; benchmarks use it for before/after comparisons.
pub fn set_device_kernels(enabled: bool) {
    DEVICE_KERNELS.set(enabled);
}

/// See [`set_device_kernels`].
pub fn device_kernels() -> bool {
    DEVICE_KERNELS.get()
}

/// Whether evaluation-mode discovery attention uses the fused op of [`relation_attention`] (the
/// default) instead of the composed pair grid; benchmarks switch it off for before/after runs.
pub fn set_fused_attention(enabled: bool) {
    FUSED_ATTENTION.set(enabled);
}

/// See [`set_fused_attention`].
pub fn fused_attention() -> bool {
    FUSED_ATTENTION.get()
}

/// Whether [`crate::train::adam::Adam`] updates with the fused kernels of [`fused_adam`] (the
/// default) or the same update composed from candle ops with the gradient noise drawn on the
/// host and copied (the path before them; same values up to rounding).
pub fn set_fused_optimizer(enabled: bool) {
    FUSED_OPTIMIZER.set(enabled);
}

/// See [`set_fused_optimizer`].
pub fn fused_optimizer() -> bool {
    FUSED_OPTIMIZER.get()
}

/// Whether [`noise::noise_like`] fills noise tensors on their device (the default) or on the
/// host and copies them there (the path before; same values).
pub fn set_device_noise(enabled: bool) {
    DEVICE_NOISE.set(enabled);
}

/// See [`set_device_noise`].
pub fn device_noise() -> bool {
    DEVICE_NOISE.get()
}

/// Whether bias adds, ReLUs and the glimpse gate run as the fused kernels of [`epilogue`] (the
/// default) or as candle's broadcast ops (the path before them; same values).
pub fn set_fused_epilogues(enabled: bool) {
    FUSED_EPILOGUES.set(enabled);
}

/// See [`set_fused_epilogues`].
pub fn fused_epilogues() -> bool {
    FUSED_EPILOGUES.get()
}

/// Whether [`prepare_device`] makes the GPU's memory pool keep freed memory (the default) or
/// leaves the driver's default, which returns it to the system at every synchronisation (the
/// path before; set it before opening the device).
pub fn set_pool_caching(enabled: bool) {
    POOL_CACHING.set(enabled);
}

/// See [`set_pool_caching`].
pub fn pool_caching() -> bool {
    POOL_CACHING.get()
}

/// Prepare `dev` for SILOT's single-stream use. On CUDA this turns off cudarc's event tracking:
/// by default every buffer carries two CUDA events that each kernel launch records and each drop
/// waits on — host time per op that matters only when buffers cross streams, which candle's one
/// stream per device never does. With [`pool_caching`] on (the default) it also sets the
/// device's default memory pool (where candle's stream-ordered allocations come from) to keep
/// freed memory instead of releasing it at each synchronisation: the training step allocates
/// ~33k buffers, and after every host wait (one per frame) re-mapping released memory made
/// allocation and free ~3 µs each, ~100 ms of host time per Space Invaders step at B 64
/// (`benches/results/cuda_train_step_profile.md`). The pool then holds the step's peak memory
/// until the process exits. The CLI, the benchmarks and the test device call it; library users
/// who open their own `Device::new_cuda` should too. No-op on the CPU.
pub fn prepare_device(dev: &candle_core::Device) {
    #[cfg(feature = "cuda")]
    if let candle_core::Device::Cuda(c) = dev {
        // SAFETY: candle issues all work of a device on its single stream, so stream order
        // already sequences every buffer's reads, writes and frees.
        unsafe { c.disable_event_tracking() }
        if pool_caching() {
            if let Err(e) = keep_pool_memory(c) {
                tracing::warn!("could not make the CUDA memory pool keep freed memory: {e}");
            }
        }
    }
    #[cfg(not(feature = "cuda"))]
    let _ = dev;
}

/// Sets the release threshold of `dev`'s default memory pool to "never".
#[cfg(feature = "cuda")]
fn keep_pool_memory(dev: &candle_core::CudaDevice) -> Result<(), String> {
    use candle_core::cuda_backend::cudarc::driver::sys;
    let stream = dev.cuda_stream();
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    let mut threshold = u64::MAX;
    // SAFETY: driver calls on the device candle opened (a device handle, no context needed);
    // `pool` and `threshold` outlive the calls, and this attribute takes a cuuint64_t.
    unsafe {
        sys::cuDeviceGetDefaultMemPool(&mut pool, stream.context().cu_device())
            .result()
            .map_err(|e| e.to_string())?;
        sys::cuMemPoolSetAttribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            &mut threshold as *mut u64 as *mut std::ffi::c_void,
        )
        .result()
        .map_err(|e| e.to_string())
    }
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
