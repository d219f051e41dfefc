//! Discovery backbone `d_bu` (reference §2.1): three 4×4 convolutions (strides 3, 2, 2) and
//! three 1×1 convolutions, all VALID, ReLU after every layer but the last, on an input padded
//! with zeros so that each output cell's 31-px receptive field is centred on its 12-px cell.
//! With 6-px cells (`discovery_cell = 6`, not in the reference) the last 4×4 convolution has
//! stride 1: the same weights and receptive field, four times the cells.

#[cfg(test)]
use candle_core::Module;
use candle_core::{Result, Tensor};
use candle_nn::{Conv2d, VarBuilder};

use super::conv::conv2d;
use super::patches::{conv2d_nhwc_with, Epilogue, PatchInput};

/// Receptive field of the backbone (pixels, per spatial dim).
pub const RECEPTIVE_FIELD: usize = 31;
/// Hidden width of the backbone convolutions.
pub const BACKBONE_HIDDEN: usize = 128;

/// Padding of one image axis of length `len` for `cell`-px cells: `(pre, post, n_cells)` with
/// `n = ceil(len/cell)`, `pre = floor(31/2 − cell/2)` (9 for 12-px cells, 12 for 6-px),
/// `post = 31 + (n − 1)·cell − len − pre`.
pub fn grid_padding(len: usize, cell: usize) -> (usize, usize, usize) {
    let n = len.div_ceil(cell);
    let required = RECEPTIVE_FIELD + (n.max(1) - 1) * cell;
    let pre = RECEPTIVE_FIELD / 2 - cell / 2; // floor(15.5 - cell/2)
    (pre, required - len - pre, n)
}

/// The cell sizes the backbone makes and the strides of its three 4×4 convolutions for each:
/// 12 px (the reference's 3·2·2) and 6 px (3·2·1; the same weights and 31-px receptive field).
pub const CELL_STRIDES: [(usize, [usize; 3]); 2] = [(12, [3, 2, 2]), (6, [3, 2, 1])];

/// Strides of the three 4×4 convolutions for `cell`-px cells ([`CELL_STRIDES`]); an error for a
/// cell the backbone does not make.
pub fn strides_4x4(cell: usize) -> Result<[usize; 3]> {
    match CELL_STRIDES.iter().find(|(c, _)| *c == cell) {
        Some(&(_, s)) => Ok(s),
        None => candle_core::bail!("backbone cells are 12 or 6 px, not {cell}"),
    }
}

/// The backbone network.
#[derive(Debug, Clone)]
pub struct Backbone {
    convs: Vec<Conv2d>,
    strides: Vec<usize>,
    out_features: usize,
    cell: usize,
}

impl Backbone {
    /// Layers `conv0..conv5` under `vb`; input has 3 channels, output `out_features` (64), one
    /// output per `cell`-px cell (12 or 6; the weights are the same for both).
    pub fn new(vb: VarBuilder, out_features: usize, cell: usize) -> Result<Backbone> {
        let h = BACKBONE_HIDDEN;
        let [s0, s1, s2] = strides_4x4(cell)?;
        let spec = [
            (3, h, 4, s0),
            (h, h, 4, s1),
            (h, h, 4, s2),
            (h, h, 1, 1),
            (h, h, 1, 1),
            (h, out_features, 1, 1),
        ];
        let convs = spec
            .iter()
            .enumerate()
            .map(|(i, &(ci, co, k, s))| conv2d(vb.pp(format!("conv{i}")), ci, co, k, s, 0))
            .collect::<Result<Vec<_>>>()?;
        Ok(Backbone {
            convs,
            strides: spec.iter().map(|&(_, _, _, s)| s).collect(),
            out_features,
            cell,
        })
    }

    /// Output channels.
    pub fn out_features(&self) -> usize {
        self.out_features
    }

    /// `images (N, 3, H, W)` → `(N, out_features, ceil(H/cell), ceil(W/cell))`, differentiable in the
    /// weights: channels-last patches + one matmul per layer ([`crate::nn::patches`]), whose
    /// backward is cuBLAS matmuls and a col2im gather (none for the first layer, whose input is
    /// data) instead of candle's direct `conv_transpose2d`.
    pub fn forward(&self, images: &Tensor) -> Result<Tensor> {
        self.forward_channels_last(images, false, false)
    }

    /// The layers as candle's channels-first `conv2d` on an explicitly padded input: the
    /// reference the channels-last paths are tested against.
    #[cfg(test)]
    fn forward_reference(&self, images: &Tensor) -> Result<Tensor> {
        let mut x = self.padded(images)?;
        let n = self.convs.len();
        for (i, conv) in self.convs.iter().enumerate() {
            x = conv.forward(&x)?;
            if i + 1 < n {
                x = x.relu()?;
            }
        }
        Ok(x)
    }

    /// [`Self::forward`] for inference, without gradients: the same layers computed channels-last
    /// (patches + one matmul per layer, [`crate::nn::patches`]), which avoids candle's
    /// channels-first im2col and the per-layer transposes. The zero padding is virtual, and the
    /// 4×4 layers feeding another 4×4 layer defer their bias + ReLU to the next layer's patch
    /// reads ([`Epilogue::Deferred`]).
    ///
    /// With [`crate::nn::set_half_backbone`] on, GPU f32 inputs take the f16 path of
    /// [`Self::forward_inference_with`].
    pub fn forward_inference(&self, images: &Tensor) -> Result<Tensor> {
        let half = super::half_backbone()
            && images.device().is_cuda()
            && images.dtype() == candle_core::DType::F32;
        self.forward_inference_with(images, half)
    }

    /// [`Self::forward_inference`] with an explicit precision: `half` runs the three 4×4
    /// convolutions on f16 patches and weights (f32 accumulation; their outputs stay f16 until
    /// the last one's bias + ReLU), the 1×1 layers as before.
    pub fn forward_inference_with(&self, images: &Tensor, half: bool) -> Result<Tensor> {
        self.forward_channels_last(images, half, true)
    }

    /// The channels-last layers; `defer` moves a 4×4 layer's bias + ReLU into the next 4×4
    /// layer's patch reads ([`Epilogue::Deferred`]: inference only, it has no gradient).
    fn forward_channels_last(&self, images: &Tensor, half: bool, defer: bool) -> Result<Tensor> {
        let (_, _, h, w) = self.check(images)?;
        let (ph0, ph1, _) = grid_padding(h, self.cell);
        let (pw0, pw1, _) = grid_padding(w, self.cell);
        let mut x = images.contiguous()?; // (N, 3, H, W): conv0 reads it channels-first
        let mut pending: Option<&Tensor> = None;
        let n = self.convs.len();
        for (i, (conv, &s)) in self.convs.iter().zip(&self.strides).enumerate() {
            let _span = layer_span(i);
            let next_is_patch = self
                .convs
                .get(i + 1)
                .is_some_and(|c| c.weight().dim(3).unwrap_or(1) > 1);
            let epilogue = if i + 1 == n {
                Epilogue::Bias
            } else if defer && next_is_patch && conv.bias().is_some() {
                Epilogue::Deferred
            } else {
                Epilogue::BiasRelu
            };
            let input = PatchInput {
                pad: if i == 0 { [ph0, ph1, pw0, pw1] } else { [0; 4] },
                bias_relu: pending,
                channels_first: i == 0,
                half: half && conv.weight().dim(3)? > 1,
            };
            x = conv2d_nhwc_with(&x, (conv.weight(), conv.bias()), s, input, epilogue)?;
            pending = if epilogue == Epilogue::Deferred {
                conv.bias()
            } else {
                None
            };
        }
        x.permute((0, 3, 1, 2))?.contiguous() // (N, F, gh, gw)
    }

    /// The dims of a checked `(N, 3, H, W)` input.
    fn check(&self, images: &Tensor) -> Result<(usize, usize, usize, usize)> {
        let (n, c, h, w) = images.dims4()?;
        if c != 3 || h == 0 || w == 0 {
            candle_core::bail!(
                "Backbone expects (N, 3, H, W) images with H, W > 0, got {:?}",
                images.dims()
            );
        }
        Ok((n, c, h, w))
    }

    /// Checked input, zero-padded so the grid of cells covers it exactly.
    #[cfg(test)]
    fn padded(&self, images: &Tensor) -> Result<Tensor> {
        let (_, _, h, w) = self.check(images)?;
        let (ph0, ph1, _) = grid_padding(h, self.cell);
        let (pw0, pw1, _) = grid_padding(w, self.cell);
        images
            .pad_with_zeros(2, ph0, ph1)?
            .pad_with_zeros(3, pw0, pw1)
    }
}

/// Profiling span of layer `i` (names are static: one per 4×4 conv, one for the 1×1 convs).
fn layer_span(i: usize) -> tracing::span::EnteredSpan {
    match i {
        0 => tracing::trace_span!("backbone_conv0"),
        1 => tracing::trace_span!("backbone_conv1"),
        2 => tracing::trace_span!("backbone_conv2"),
        _ => tracing::trace_span!("backbone_1x1"),
    }
    .entered()
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn padding_table_of_reference() {
        let table = [
            (48, (9, 10, 4)),
            (96, (9, 10, 8)),
            (60, (9, 10, 5)),
            (72, (9, 10, 6)),
            (195, (9, 19, 17)),
            (160, (9, 18, 14)),
            (210, (9, 16, 18)),
        ];
        for (l, want) in table {
            assert_eq!(grid_padding(l, 12), want, "L = {l}");
        }
        // 6-px cells: 12 px before, so the 31-px field is centred on each cell as with 12.
        assert_eq!(grid_padding(48, 6), (12, 13, 8));
        assert_eq!(grid_padding(195, 6), (12, 16, 33));
        // The padded length always yields exactly n VALID outputs, the first centred at
        // cell / 2 + 0.5 px (the reference's half-pixel offset).
        for cell in [12, 6] {
            let s = strides_4x4(cell).unwrap();
            for l in 1..300 {
                let (a, b, n) = grid_padding(l, cell);
                let p = l + a + b;
                let o1 = (p - 4) / s[0] + 1;
                let o2 = (o1 - 4) / s[1] + 1;
                let o3 = (o2 - 4) / s[2] + 1;
                assert_eq!(o3, n, "L = {l}, cell {cell}");
            }
            let (pre, _, _) = grid_padding(48, cell);
            assert_eq!(
                RECEPTIVE_FIELD as f64 / 2.0 - pre as f64,
                cell as f64 / 2.0 + 0.5
            );
        }
        assert!(strides_4x4(8).is_err());
    }

    /// The channels-last training and inference paths equal candle's channels-first `conv2d`
    /// layers (the reference), and so do the training path's gradients: every weight and bias,
    /// and the frames themselves (the first layer's channels-first, padded col2im).
    fn paths_equal_reference(dev: &Device) {
        for cell in [12, 6] {
            paths_equal_reference_at(dev, cell);
        }
    }

    fn paths_equal_reference_at(dev: &Device, cell: usize) {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 7, DType::F64, dev);
        let bb = Backbone::new(vb, 16, cell).unwrap();
        // Non-zero biases: with zero ones, cells that see only padding sit exactly at ReLU's
        // kink, where candle's `relu` passes the gradient and the fused epilogue (TF's
        // convention) does not.
        let mut rng = crate::rng::SeededRng::new(10);
        for v in vm.all_vars().iter().filter(|v| v.rank() == 1) {
            v.set(
                &rng.normal(v.dims(), dev)
                    .unwrap()
                    .to_dtype(DType::F64)
                    .unwrap(),
            )
            .unwrap();
        }
        let x = crate::rng::SeededRng::new(8)
            .uniform(&[2, 3, 30, 41], 0.0, 1.0, dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let x = candle_core::Var::from_tensor(&x).unwrap();
        let want = bb.forward_reference(&x).unwrap();
        let got = bb.forward(&x).unwrap();
        let inference = bb.forward_inference(&x).unwrap();
        assert_eq!(got.dims(), want.dims());
        assert!(crate::testing::max_abs_diff(&got, &want) < 1e-10);
        assert!(crate::testing::max_abs_diff(&inference, &want) < 1e-10);
        // A fixed random cotangent, so every output value's gradient counts.
        let cot = crate::rng::SeededRng::new(9)
            .normal(want.dims(), dev)
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap();
        let grads = |y: &Tensor| (y * &cot).unwrap().sum_all().unwrap().backward().unwrap();
        let (g_want, g_got) = (grads(&want), grads(&got));
        let mut checked = 0;
        for v in vm.all_vars().iter().chain([&x]) {
            let (a, b) = (g_want.get(v).unwrap(), g_got.get(v).unwrap());
            let scale = crate::testing::max_abs(a).max(1e-6);
            let err = crate::testing::max_abs_diff(a, b);
            assert!(
                err < 1e-9 * scale.max(1.0),
                "{:?}: {err} (scale {scale})",
                v.dims()
            );
            checked += 1;
        }
        assert_eq!(checked, 13);
    }

    crate::test_device!(
        paths_equal_reference,
        paths_equal_reference_cpu,
        paths_equal_reference_cuda
    );

    /// The f16 path (patches and weights in f16, f32 accumulation) stays within f16 rounding of
    /// the f32 path: relative to the output's scale, well under 1 %.
    fn half_path_close_to_f32(dev: &Device) {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 11, DType::F32, dev);
        let bb = Backbone::new(vb, 64, 12).unwrap();
        let x = crate::rng::SeededRng::new(12)
            .uniform(&[3, 3, 50, 41], 0.0, 1.0, dev)
            .unwrap();
        let full = bb.forward_inference_with(&x, false).unwrap();
        let half = bb.forward_inference_with(&x, true).unwrap();
        assert_eq!(half.dtype(), DType::F32);
        assert_eq!(half.dims(), full.dims());
        let scale: f64 = full
            .abs()
            .unwrap()
            .max_all()
            .unwrap()
            .to_dtype(DType::F64)
            .unwrap()
            .to_scalar()
            .unwrap();
        let err = crate::testing::max_abs_diff(&half, &full);
        assert!(scale > 1e-3, "degenerate output scale {scale}");
        assert!(
            err < 5e-3 * scale,
            "max |half − f32| {err} vs scale {scale}"
        );
        // And it is not the f32 path by accident: rounding shows.
        assert!(err > 0.0);
    }

    crate::test_device!(
        half_path_close_to_f32,
        half_path_close_to_f32_cpu,
        half_path_close_to_f32_cuda
    );

    #[test]
    fn output_shapes() {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, 0, DType::F32, &Device::Cpu);
        let bb = Backbone::new(vb, 64, 12).unwrap();
        let x = Tensor::zeros((2, 3, 48, 60), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(bb.forward(&x).unwrap().dims(), &[2, 64, 4, 5]);
        let x = Tensor::zeros((1, 3, 195, 160), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(bb.forward(&x).unwrap().dims(), &[1, 64, 17, 14]);
        assert_eq!(vm.all_vars().len(), 12);
        // 6-px cells: the same variables (a 12-px checkpoint loads), twice the cells per side.
        let vm6 = VarMap::new();
        let vb6 = crate::rng::seeded_var_builder(&vm6, 0, DType::F32, &Device::Cpu);
        let bb6 = Backbone::new(vb6, 64, 6).unwrap();
        assert_eq!(bb6.forward(&x).unwrap().dims(), &[1, 64, 33, 27]);
        let x = Tensor::zeros((2, 3, 48, 60), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(bb6.forward_inference(&x).unwrap().dims(), &[2, 64, 8, 10]);
        let shapes = |vm: &VarMap| {
            let data = vm.data().lock().unwrap();
            let mut v: Vec<_> = data
                .iter()
                .map(|(k, t)| (k.clone(), t.dims().to_vec()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(shapes(&vm6), shapes(&vm));
        assert!(Backbone::new(
            crate::rng::seeded_var_builder(&VarMap::new(), 0, DType::F32, &Device::Cpu),
            64,
            8
        )
        .is_err());
    }
}
