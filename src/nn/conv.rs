//! 2-D convolution with TensorFlow's default initialisation (reference §0): Glorot-uniform
//! kernel with `fan_in = k·k·in_c`, `fan_out = k·k·out_c`, zero bias.

use candle_core::Result;
use candle_nn::{Conv2d, Conv2dConfig, Init, VarBuilder};

use crate::rng::glorot_uniform;

/// A `k×k` convolution `in_c → out_c` with the given stride and symmetric zero padding;
/// variables `weight (out_c, in_c, k, k)` and `bias (out_c)` under `vb`.
pub fn conv2d(
    vb: VarBuilder,
    in_c: usize,
    out_c: usize,
    k: usize,
    stride: usize,
    padding: usize,
) -> Result<Conv2d> {
    let w = vb.get_with_hints(
        (out_c, in_c, k, k),
        "weight",
        glorot_uniform(k * k * in_c, k * k * out_c),
    )?;
    let b = vb.get_with_hints(out_c, "bias", Init::Const(0.0))?;
    let cfg = Conv2dConfig {
        padding,
        stride,
        ..Default::default()
    };
    Ok(Conv2d::new(w, Some(b), cfg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device, Module, Tensor};
    use candle_nn::VarMap;

    #[test]
    fn shapes_and_same_padding() {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &Device::Cpu);
        let c = conv2d(vb.pp("c"), 4, 6, 3, 1, 1).unwrap();
        let x = Tensor::ones((2, 4, 5, 7), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(c.forward(&x).unwrap().dims(), &[2, 6, 5, 7]);
        let w = vm.data().lock().unwrap()["c.weight"]
            .as_tensor()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let l = (6.0f32 / 90.0).sqrt();
        assert!(w.iter().all(|v| v.abs() <= l));
    }
}
