//! `--device cpu|cuda`, `--tf32` and `--half-backbone` for commands that run the model: one
//! definition of each flag ([`DeviceFlags`], [`InferenceDeviceFlags`]), flattened into the
//! commands' arguments; the device is opened by [`crate::device`].

use candle_core::Device;
use clap::Args;

pub use crate::device::{open, open_inference, open_tf32, DeviceArg};

/// `--device` and `--tf32` (`silot train`; flattened into [`InferenceDeviceFlags`] too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct DeviceFlags {
    /// Device of the model.
    #[arg(long, value_enum, default_value_t = DeviceArg::Cpu)]
    pub device: DeviceArg,
    /// Let cuBLAS use TF32 tensor cores for f32 matmuls (`--device cuda` only).
    #[arg(long)]
    pub tf32: bool,
}

impl DeviceFlags {
    /// Open the device the flags name ([`open_tf32`]).
    pub fn open(&self) -> crate::Result<Device> {
        open_tf32(self.device, self.tf32)
    }

    /// [`DeviceFlags::open`] on GPU `ordinal` (a data-parallel rank's `LOCAL_RANK`; ignored on
    /// the CPU).
    pub fn open_ordinal(&self, ordinal: usize) -> crate::Result<Device> {
        crate::device::open_tf32_ordinal(self.device, self.tf32, ordinal)
    }
}

/// [`DeviceFlags`] plus `--half-backbone`, for the commands that run a trained model without
/// training it (`silot eval`, `silot observe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Args)]
pub struct InferenceDeviceFlags {
    /// `--device`, `--tf32`.
    #[command(flatten)]
    pub base: DeviceFlags,
    /// Reduced-precision inference (`--device cuda` only): the backbone's 4×4 convolutions in
    /// f16 (f32 accumulation) and, with `--tf32`, dense layers as cuBLASLt matmuls with the bias
    /// and ReLU fused (1.26× the `--tf32` throughput at batch 256 on an H100, same scores).
    #[arg(long)]
    pub half_backbone: bool,
}

impl InferenceDeviceFlags {
    /// Open the device the flags name ([`open_inference`]).
    pub fn open(&self) -> crate::Result<Device> {
        open_inference(self.base.device, self.base.tf32, self.half_backbone)
    }
}
