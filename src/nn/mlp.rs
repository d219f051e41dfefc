//! Multi-layer perceptron `MLP[a, b] → n`: Linear → ReLU → … → Linear (ReLU on hidden layers
//! only), Glorot-uniform weights and zero biases (TensorFlow defaults, reference §0).

use candle_core::{Module, Result, Tensor};
use candle_nn::{Init, Linear, VarBuilder};

use crate::rng::glorot_uniform;

/// A dense layer with Glorot-uniform weight `(out, in)` and zero bias `(out)`.
pub fn linear(vb: VarBuilder, in_dim: usize, out_dim: usize) -> Result<Linear> {
    let w = vb.get_with_hints((out_dim, in_dim), "weight", glorot_uniform(in_dim, out_dim))?;
    let b = vb.get_with_hints(out_dim, "bias", Init::Const(0.0))?;
    Ok(Linear::new(w, Some(b)))
}

/// `act(x W^T + b)` for `x (N, in)`: one matmul and one fused bias + ReLU pass
/// ([`super::epilogue::bias_act`]); `relu` off gives the plain affine map.
///
/// On the GPU with TF32 on, a layer with a bias is one cuBLASLt matmul with the bias and ReLU
/// in its epilogue ([`super::fused_dense`]).
pub fn dense(x: &Tensor, layer: &Linear, relu: bool) -> Result<Tensor> {
    if let Some(b) = layer.bias() {
        if super::fused_dense::applies(x) {
            return super::fused_dense::dense_fused(x, layer.weight(), b, relu);
        }
    }
    let y = x.matmul(&layer.weight().t()?)?;
    match layer.bias() {
        Some(b) => super::epilogue::bias_act(&y, b, relu),
        None if relu => y.relu(),
        None => Ok(y),
    }
}

/// MLP applied on the last axis: `(..., in_dim) -> (..., out_dim)`.
#[derive(Debug, Clone)]
pub struct Mlp {
    layers: Vec<Linear>,
    in_dim: usize,
    out_dim: usize,
}

impl Mlp {
    /// Layers are named `layer0`, `layer1`, … under `vb`; `hidden` lists the hidden widths.
    pub fn new(vb: VarBuilder, in_dim: usize, hidden: &[usize], out_dim: usize) -> Result<Mlp> {
        let mut dims = vec![in_dim];
        dims.extend_from_slice(hidden);
        dims.push(out_dim);
        let layers = dims
            .windows(2)
            .enumerate()
            .map(|(i, d)| linear(vb.pp(format!("layer{i}")), d[0], d[1]))
            .collect::<Result<Vec<_>>>()?;
        Ok(Mlp {
            layers,
            in_dim,
            out_dim,
        })
    }

    /// Input width.
    pub fn in_dim(&self) -> usize {
        self.in_dim
    }

    /// Output width.
    pub fn out_dim(&self) -> usize {
        self.out_dim
    }

    /// The dense layers, input side first (ReLU between them).
    pub fn layers(&self) -> &[Linear] {
        &self.layers
    }
}

impl Mlp {
    /// [`Module::forward`] of inputs zero-padded on the last axis to `row ≥ in_dim` values (from
    /// [`crate::nn::sampler::extract_glimpse_rows`] or
    /// [`crate::nn::epilogue::gate_channel_rows`]): the first layer's weight gets zero columns
    /// to match, so the result equals the unpadded forward. `(..., row)` → `(..., out_dim)`.
    pub fn forward_rows(&self, xs: &Tensor) -> Result<Tensor> {
        let dims = xs.dims().to_vec();
        let row = dims.last().copied().unwrap_or(0);
        if row == self.in_dim {
            return self.forward(xs);
        }
        if row < self.in_dim {
            candle_core::bail!(
                "Mlp::forward_rows: rows of {row} values are shorter than the input width {}",
                self.in_dim
            );
        }
        let rows = xs.elem_count() / row.max(1);
        let first = &self.layers[0];
        let w = first.weight().pad_with_zeros(1, 0, row - self.in_dim)?; // (h, row)
        let mut h = dense(
            &xs.reshape((rows, row))?,
            &Linear::new(w, first.bias().cloned()),
            self.layers.len() > 1,
        )?;
        let n = self.layers.len();
        for (i, l) in self.layers.iter().enumerate().skip(1) {
            h = dense(&h, l, i + 1 < n)?;
        }
        let mut out_dims = dims;
        if let Some(l) = out_dims.last_mut() {
            *l = self.out_dim;
        }
        h.reshape(out_dims)
    }
}

impl Module for Mlp {
    fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        let dims = xs.dims().to_vec();
        let last = dims.last().copied().unwrap_or(0);
        if last != self.in_dim {
            candle_core::bail!(
                "Mlp expects last dim {} but got input of shape {dims:?}",
                self.in_dim
            );
        }
        let rows = xs.elem_count() / last.max(1);
        let mut h = xs.reshape((rows, last))?;
        let n = self.layers.len();
        for (i, l) in self.layers.iter().enumerate() {
            h = dense(&h, l, i + 1 < n)?;
        }
        let mut out_dims = dims;
        if let Some(l) = out_dims.last_mut() {
            *l = self.out_dim;
        }
        h.reshape(out_dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn shapes_init_and_relu_only_on_hidden() {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &Device::Cpu);
        let mlp = Mlp::new(vb, 3, &[5, 4], 2).unwrap();
        let x = Tensor::ones((2, 7, 3), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(mlp.forward(&x).unwrap().dims(), &[2, 7, 2]);
        assert_eq!(vm.all_vars().len(), 6);
        let data = vm.data().lock().unwrap();
        let b = data["layer1.bias"].as_tensor().to_vec1::<f32>().unwrap();
        assert!(b.iter().all(|&v| v == 0.0));
        let w = data["layer0.weight"]
            .as_tensor()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let l = (6.0f32 / 8.0).sqrt();
        assert!(w.iter().all(|v| v.abs() <= l) && w.iter().any(|&v| v != 0.0));
        drop(data);
        // One linear layer (no hidden) can output negatives: no ReLU on the output.
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &Device::Cpu);
        let lin = Mlp::new(vb, 2, &[], 1).unwrap();
        vm.data().lock().unwrap()["layer0.weight"]
            .set(&Tensor::new(&[[1f32, -2.0]], &Device::Cpu).unwrap())
            .unwrap();
        let y = lin
            .forward(&Tensor::new(&[[1f32, 1.0]], &Device::Cpu).unwrap())
            .unwrap();
        assert_eq!(y.to_vec2::<f32>().unwrap(), vec![vec![-1.0]]);
    }

    #[test]
    fn padded_rows_equal_the_plain_forward() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 3, DType::F64, &dev);
        let mlp = Mlp::new(vb, 5, &[7], 2).unwrap();
        let x = crate::rng::SeededRng::new(4)
            .normal(&[3, 5], &dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let want = mlp.forward(&x).unwrap();
        let got = mlp
            .forward_rows(&x.pad_with_zeros(1, 0, 3).unwrap())
            .unwrap();
        let err: f64 = (got - want)
            .unwrap()
            .abs()
            .unwrap()
            .max_all()
            .unwrap()
            .to_scalar()
            .unwrap();
        assert!(err < 1e-12, "{err}");
        assert!(mlp.forward_rows(&x.narrow(1, 0, 4).unwrap()).is_err());
    }

    #[test]
    fn hidden_relu_is_applied() {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &dev);
        let mlp = Mlp::new(vb, 1, &[1], 1).unwrap();
        {
            let d = vm.data().lock().unwrap();
            d["layer0.weight"]
                .set(&Tensor::new(&[[1f32]], &dev).unwrap())
                .unwrap();
            d["layer1.weight"]
                .set(&Tensor::new(&[[2f32]], &dev).unwrap())
                .unwrap();
            d["layer1.bias"]
                .set(&Tensor::new(&[0.5f32], &dev).unwrap())
                .unwrap();
        }
        let y = mlp
            .forward(&Tensor::new(&[[-3f32], [3.0]], &dev).unwrap())
            .unwrap();
        assert_eq!(y.to_vec2::<f32>().unwrap(), vec![vec![0.5], vec![6.5]]);
    }
}
