//! Opening the device a model runs on (`--device cpu|cuda`, `--tf32`, `--half-backbone`): clear
//! errors when CUDA is not compiled in or no GPU answers, and the CUDA-only modes switched on.
//! The command-line flags themselves are `crate::cli::device`'s.

use candle_core::Device;
use clap::ValueEnum;

use crate::error::{Error, Result};

/// Where the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DeviceArg {
    /// The CPU.
    Cpu,
    /// The first CUDA GPU (needs a build with `--features cuda`).
    Cuda,
}

/// Open the device, with a clear error when CUDA is not compiled in or no GPU answers.
pub fn open(d: DeviceArg) -> Result<Device> {
    open_ordinal(d, 0)
}

/// [`open`] with GPU `ordinal` for `--device cuda` (a data-parallel rank's `LOCAL_RANK`).
pub fn open_ordinal(d: DeviceArg, ordinal: usize) -> Result<Device> {
    match d {
        DeviceArg::Cpu => Ok(Device::Cpu),
        DeviceArg::Cuda => {
            if !candle_core::utils::cuda_is_available() {
                return Err(Error::Invalid(
                    "--device cuda: this binary was built without CUDA support; rebuild with \
                     `cargo build --release --features cuda` (docs/cuda.md; the Python package: \
                     `pip install ./python --config-settings=build-args=\"--features cuda\"`, \
                     docs/python.md)"
                        .into(),
                ));
            }
            let dev = Device::new_cuda(ordinal).map_err(|e| {
                Error::Invalid(format!("--device cuda: no usable GPU {ordinal} ({e}); check the driver and LD_LIBRARY_PATH (and LOCAL_RANK, which picks the GPU of a data-parallel rank), or use --device cpu"))
            })?;
            crate::nn::prepare_device(&dev);
            Ok(dev)
        }
    }
}

/// [`open`], then let cuBLAS use TF32 tensor cores for f32 matmuls when `tf32` is set (CUDA
/// only: 1.6× faster Space Invaders inference at batch 256 on an H100 (`cuda_bench.md`), results
/// within TF32's 10-bit mantissa).
pub fn open_tf32(d: DeviceArg, tf32: bool) -> Result<Device> {
    open_tf32_ordinal(d, tf32, 0)
}

/// [`open_tf32`] on GPU `ordinal` ([`open_ordinal`]).
pub fn open_tf32_ordinal(d: DeviceArg, tf32: bool, ordinal: usize) -> Result<Device> {
    if tf32 && d != DeviceArg::Cuda {
        return Err(Error::Invalid(
            "--tf32 applies to --device cuda only".into(),
        ));
    }
    let dev = open_ordinal(d, ordinal)?;
    candle_core::cuda::set_gemm_reduced_precision_f32(tf32);
    Ok(dev)
}

/// [`open_tf32`], then switch on the reduced-precision inference mode when `half_backbone` is
/// set (f16 backbone convolutions, cuBLASLt dense epilogues with TF32; CUDA only;
/// [`crate::nn::set_half_backbone`]).
pub fn open_inference(d: DeviceArg, tf32: bool, half_backbone: bool) -> Result<Device> {
    if half_backbone && d != DeviceArg::Cuda {
        return Err(Error::Invalid(
            "--half-backbone applies to --device cuda only".into(),
        ));
    }
    let dev = open_tf32(d, tf32)?;
    crate::nn::set_half_backbone(half_backbone);
    Ok(dev)
}
