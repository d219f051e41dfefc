//! Discovery (paper §3.3, appendix B.1; reference §2.5, `ConvGridObjectLayer`).
//!
//! Bottom-up backbone features `v_bu` and top-down attention features `v_td` are fused by two
//! 3×3 convolutions (`d_fuse`; the paper says a per-cell `FC[100,100]`, the code uses convs — we
//! follow the code). Then, per grid cell, an autoregressive chain of heads where → glimpse →
//! what → depth → pres, each a one-hidden-layer per-cell MLP (the code's 2-layer 1×1 convs, hidden
//! width = input width) passing a passthrough feature vector along the chain.

use candle_core::{Device, Module, Result, Tensor, D};
use candle_nn::{Conv2d, VarBuilder};

use super::config::ModelConfig;
use super::latent::{box_size, sigmoid10, LatentSampler, NormalLatent, PresLatent};
use super::objects::Objects;
use crate::nn::conv::conv2d;
use crate::nn::mlp::Mlp;
use crate::nn::patches::{conv2d_nhwc_with, Epilogue, PatchInput};
use crate::nn::sampler::extract_glimpse_rows;

/// The discovery module's networks.
#[derive(Debug, Clone)]
pub struct Discovery {
    fuse1: Conv2d,
    fuse2: Conv2d,
    where_head: Mlp,
    encoder: Mlp,
    what_head: Mlp,
    depth_head: Mlp,
    pres_head: Mlp,
    cfg: ModelConfig,
}

/// Discovered objects and the distributions their KLs need.
#[derive(Debug, Clone)]
pub struct DiscoveryOut {
    /// `(B, Q, ...)` discovered objects (Q = H·W, row-major cells); `pres` **not** yet masked by
    /// discovery dropout.
    pub objects: Objects,
    /// `(B, Q, 2)` `cell_y/x_logit`.
    pub cell_yx: NormalLatent,
    /// `(B, Q, 2)` `height/width_logit`.
    pub hw: NormalLatent,
    /// `(B, Q, A)` `what`.
    pub what: NormalLatent,
    /// `(B, Q, 1)` `z_logit`.
    pub depth: NormalLatent,
    /// `(B, Q, 1)` presence.
    pub pres: PresLatent,
}

/// Image-normalised glimpse boxes `(yc, xc, h, w)` from anchor-unit `(yt, xt, ys, xs)`.
pub(crate) fn to_image_boxes(
    where_: &Tensor,
    anchor: [f64; 2],
    image: (usize, usize),
) -> Result<Tensor> {
    let dev = where_.device();
    let s = Tensor::new(
        &[
            (anchor[0] / image.0 as f64) as f32,
            (anchor[1] / image.1 as f64) as f32,
            (anchor[0] / image.0 as f64) as f32,
            (anchor[1] / image.1 as f64) as f32,
        ],
        dev,
    )?
    .to_dtype(where_.dtype())?;
    where_.broadcast_mul(&s)
}

/// Grid-cell indices `(i, j)` row-major, `(Q, 2)`.
fn cell_index(gh: usize, gw: usize, like: &Tensor) -> Result<Tensor> {
    let v: Vec<f32> = (0..gh * gw)
        .flat_map(|q| [(q / gw) as f32, (q % gw) as f32])
        .collect();
    Tensor::from_vec(v, (gh * gw, 2), like.device())?.to_dtype(like.dtype())
}

/// Grid-cell centres in anchor units, `(B, Q, 2)`: `((i+0.5)·c/a_h, (j+0.5)·c/a_w)` for
/// `cell` = c px cells.
pub fn cell_centres(
    b: usize,
    (gh, gw): (usize, usize),
    cell: usize,
    anchor: [f64; 2],
    dev: &Device,
) -> Result<Tensor> {
    let c = cell as f64;
    let v: Vec<f32> = (0..gh * gw)
        .flat_map(|q| {
            [
                (((q / gw) as f64 + 0.5) * c / anchor[0]) as f32,
                (((q % gw) as f64 + 0.5) * c / anchor[1]) as f32,
            ]
        })
        .collect();
    Tensor::from_vec(v, (1, gh * gw, 2), dev)?
        .broadcast_as((b, gh * gw, 2))?
        .contiguous()
}

/// Row length of a flattened glimpse of `len` values as the glimpse encoders take it: on the GPU
/// rounded up to a multiple of 4 (zero-padded; cuBLAS then runs its aligned tensor-core kernels:
/// 1323-value rows of 21×21 RGB glimpses got the unaligned ones), on the CPU `len` itself.
pub(crate) fn encoder_row(len: usize, dev: &Device) -> usize {
    if dev.is_cuda() {
        len.next_multiple_of(4)
    } else {
        len
    }
}

/// `[x, 1, 0]` (or `[x, 0, 1]`): the constant one-hot the code appends to `base`.
pub(crate) fn with_flag(x: &Tensor, posterior: bool) -> Result<Tensor> {
    let mut dims = x.dims().to_vec();
    if let Some(last) = dims.last_mut() {
        *last = 1;
    }
    let one = Tensor::ones(dims.as_slice(), x.dtype(), x.device())?;
    let zero = Tensor::zeros(dims.as_slice(), x.dtype(), x.device())?;
    if posterior {
        Tensor::cat(&[x, &one, &zero], D::Minus1)
    } else {
        Tensor::cat(&[x, &zero, &one], D::Minus1)
    }
}

impl Discovery {
    /// Build the networks under `vb` (names `fuse1`, `fuse2`, `where`, `encoder`, `what`, `depth`,
    /// `pres`).
    pub fn new(vb: VarBuilder, cfg: &ModelConfig) -> Result<Self> {
        let f = cfg.n_backbone_features;
        let p = cfg.n_passthrough_features;
        let a = cfg.n_what;
        let [oh, ow] = cfg.object_size;
        let base = f + 2;
        let where_in = base;
        let what_in = base + p + a + 4;
        let depth_in = base + p + 4 + a;
        let pres_in = base + p + 4 + a + 1;
        Ok(Self {
            fuse1: conv2d(vb.pp("fuse1"), 2 * f, 2 * f, 3, 1, 1)?,
            fuse2: conv2d(vb.pp("fuse2"), 2 * f, f, 3, 1, 1)?,
            where_head: Mlp::new(vb.pp("where"), where_in, &[where_in], 8 + p)?,
            encoder: Mlp::new(vb.pp("encoder"), 3 * oh * ow, &cfg.glimpse_encoder, a)?,
            what_head: Mlp::new(vb.pp("what"), what_in, &[what_in], 2 * a + p)?,
            depth_head: Mlp::new(vb.pp("depth"), depth_in, &[depth_in], 2 + p)?,
            pres_head: Mlp::new(vb.pp("pres"), pres_in, &[pres_in], 1)?,
            cfg: cfg.clone(),
        })
    }

    /// Fuse bottom-up and top-down features (`d_fuse`): two 3×3 convolutions, ReLU between.
    /// `v_bu (B, F, gh, gw)`, `v_td (B, gh·gw, F)` → `(B, gh·gw, F)`. Both convolutions run
    /// channels-last as patches + matmul ([`crate::nn::patches::conv2d_nhwc_with`],
    /// differentiable). Without `training` the first one's bias + ReLU is deferred into the
    /// second one's patch reads ([`Epilogue::Deferred`], which has no gradient).
    pub fn fuse(&self, v_bu: &Tensor, v_td: &Tensor, training: bool) -> Result<Tensor> {
        let (b, f, gh, gw) = v_bu.dims4()?;
        if v_td.dims() != [b, gh * gw, f] {
            candle_core::bail!(
                "discovery: v_td {:?} does not match v_bu {:?} (want [{b}, {}, {f}])",
                v_td.dims(),
                v_bu.dims(),
                gh * gw
            );
        }
        let v = Tensor::cat(
            &[&v_td.reshape((b, gh, gw, f))?, &v_bu.permute((0, 2, 3, 1))?],
            3,
        )?; // (B, gh, gw, 2F)
        let (c1, c2) = (&self.fuse1, &self.fuse2);
        let same = |bias_relu| PatchInput {
            pad: [1; 4],
            bias_relu,
            channels_first: false,
            half: false,
        };
        let (first, pending) = match training {
            true => (Epilogue::BiasRelu, None),
            false => (Epilogue::Deferred, c1.bias()),
        };
        let v = conv2d_nhwc_with(&v, (c1.weight(), c1.bias()), 1, same(None), first)?;
        let v = conv2d_nhwc_with(
            &v,
            (c2.weight(), c2.bias()),
            1,
            same(pending),
            Epilogue::Bias,
        )?;
        v.reshape((b, gh * gw, f))
    }

    /// [`Self::fuse`] as candle's channels-first `conv2d` layers: the tests' reference.
    #[cfg(test)]
    fn fuse_reference(&self, v_bu: &Tensor, v_td: &Tensor) -> Result<Tensor> {
        use candle_core::Module;
        let (b, f, gh, gw) = v_bu.dims4()?;
        let v_td = v_td.transpose(1, 2)?.reshape((b, f, gh, gw))?;
        let v = Tensor::cat(&[&v_td, v_bu], 1)?;
        let v = self.fuse2.forward(&self.fuse1.forward(&v)?.relu()?)?; // (B, F, gh, gw)
        v.flatten_from(2)?.transpose(1, 2) // (B, Q, F)
    }

    /// Discover one object per grid cell from the fused features ([`Self::fuse`]).
    ///
    /// # Shapes
    /// * `frame`: `(B, 3, H_img, W_img)`; `v`: `(B, gh·gw, F)`; `grid`: `(gh, gw)`
    /// * `offset`: `(B, 2)` crop offset in anchor units (added to `abs_posn`)
    /// * `init_state`: `(S)` trainable initial GRU state of discovered objects
    pub fn forward(
        &self,
        frame: &Tensor,
        v: &Tensor,
        (gh, gw): (usize, usize),
        offset: &Tensor,
        init_state: &Tensor,
        s: &mut LatentSampler,
    ) -> Result<DiscoveryOut> {
        let _span = tracing::trace_span!("discovery_heads").entered();
        let (b, q, _) = v.dims3()?;
        if q != gh * gw {
            candle_core::bail!("discovery: {q} cells but a {gh}x{gw} grid");
        }
        let (_, _, hi, wi) = frame.dims4()?;
        let cfg = &self.cfg;
        let p = cfg.n_passthrough_features;
        let a = cfg.n_what;
        let base = with_flag(v, true)?; // (B, Q, F+2)
                                        // --- where ---
        let wo = self.where_head.forward(&base)?; // (B, Q, 8+P)
        let mu = s.wheel(wo.narrow(D::Minus1, 0, 4)?);
        let ls = s.wheel(wo.narrow(D::Minus1, 4, 4)?);
        let feat1 = wo.narrow(D::Minus1, 8, p)?;
        let cell_yx = s.normal(mu.narrow(D::Minus1, 0, 2)?, &ls.narrow(D::Minus1, 0, 2)?)?;
        let hw = s.normal(mu.narrow(D::Minus1, 2, 2)?, &ls.narrow(D::Minus1, 2, 2)?)?;
        let [ymin, ymax] = cfg.yx_range;
        let cell = sigmoid10(&cell_yx.sample)?.affine(ymax - ymin, ymin)?; // (B, Q, 2)
        let size = box_size(&hw.sample, cfg)?; // (B, Q, 2) h, w
        let c = cfg.discovery_cell as f64;
        let scale = Tensor::new(
            &[(c / cfg.anchor[0]) as f32, (c / cfg.anchor[1]) as f32],
            frame.device(),
        )?
        .to_dtype(frame.dtype())?;
        let centre = cell
            .broadcast_add(&cell_index(gh, gw, &cell)?.unsqueeze(0)?)?
            .broadcast_mul(&scale)?; // (B, Q, 2) yt, xt
        let where_ = Tensor::cat(&[&centre, &size], D::Minus1)?; // (B, Q, 4)
        let local_box = Tensor::cat(&[&cell, &size], D::Minus1)?; // (B, Q, 4)
                                                                  // --- glimpse ---
        let boxes = to_image_boxes(&where_, cfg.anchor, (hi, wi))?;
        let [oh, ow] = cfg.object_size;
        let row = encoder_row(frame.dim(1)? * oh * ow, frame.device());
        let g = extract_glimpse_rows(frame, &boxes, (oh, ow), row)?; // (B, Q, row)
        let e = self.encoder.forward_rows(&g)?; // (B, Q, A)
                                                // --- what ---
        let wh = self
            .what_head
            .forward(&Tensor::cat(&[&base, &feat1, &e, &local_box], D::Minus1)?)?;
        let what = s.normal(wh.narrow(D::Minus1, 0, a)?, &wh.narrow(D::Minus1, a, a)?)?;
        let feat2 = wh.narrow(D::Minus1, 2 * a, p)?;
        // --- depth ---
        let dh = self.depth_head.forward(&Tensor::cat(
            &[&base, &feat2, &local_box, &what.sample],
            D::Minus1,
        )?)?;
        let depth = s.normal(
            s.wheel(dh.narrow(D::Minus1, 0, 1)?),
            &s.wheel(dh.narrow(D::Minus1, 1, 1)?),
        )?;
        let feat3 = dh.narrow(D::Minus1, 2, p)?;
        let z = sigmoid10(&depth.sample)?;
        // --- pres ---
        let pl = self.pres_head.forward(&Tensor::cat(
            &[&base, &feat3, &local_box, &what.sample, &z],
            D::Minus1,
        )?)?;
        let pres = s.pres(&s.wheel(pl))?;
        // --- objects ---
        let st = init_state.dim(0)?;
        let state = init_state
            .reshape((1, 1, st))?
            .broadcast_as((b, q, st))?
            .contiguous()?;
        let abs_posn = centre.broadcast_add(&offset.unsqueeze(1)?)?;
        let objects = Objects {
            where_,
            abs_posn,
            what: what.sample.clone(),
            depth: z,
            pres: pres.value.clone(),
            size_logit: hw.sample.clone(),
            depth_logit: depth.sample.clone(),
            prop_state: state.clone(),
            prior_prop_state: state,
            ids: vec![u64::MAX; b * q],
            is_new: vec![true; b * q],
        };
        Ok(DiscoveryOut {
            objects,
            cell_yx,
            hw,
            what,
            depth,
            pres,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::{seeded_var_builder, SeededRng};
    use candle_core::DType;
    use candle_nn::VarMap;

    /// A small config for module tests (24x24 frames, 2x2 grid).
    pub(crate) fn tiny() -> ModelConfig {
        ModelConfig {
            image_size: [24, 24],
            anchor: [12.0, 12.0],
            object_size: [4, 5],
            n_objects: 3,
            n_what: 6,
            n_hidden: 4,
            n_backbone_features: 10,
            n_passthrough_features: 7,
            glimpse_encoder: vec![9],
            sprite_decoder: vec![9],
            prop_mlp: vec![9],
            attention_mlp: vec![9],
            ..ModelConfig::default()
        }
    }

    /// `b` random 24x24 frames and their bottom-up `(b, 10, 2, 2)` and top-down `(b, 4, 10)`
    /// features, for `tiny()`.
    fn random_inputs(rng: &mut SeededRng, b: usize) -> (Tensor, Tensor, Tensor) {
        let dev = Device::Cpu;
        (
            rng.uniform(&[b, 3, 24, 24], 0.0, 1.0, &dev).unwrap(),
            rng.normal(&[b, 10, 2, 2], &dev).unwrap(),
            rng.normal(&[b, 4, 10], &dev).unwrap(),
        )
    }

    #[test]
    fn output_shapes_and_ranges() {
        let cfg = tiny();
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let d = Discovery::new(seeded_var_builder(&vm, 0, DType::F32, &dev), &cfg).unwrap();
        let mut rng = SeededRng::new(0);
        let (frame, v_bu, v_td) = random_inputs(&mut rng, 2);
        let offset = Tensor::new(&[[0f32, 0.], [1., 2.]], &dev).unwrap();
        let init = Tensor::zeros(8, DType::F32, &dev).unwrap();
        let mut s = LatentSampler::sampling_for_tests(&mut rng);
        let v = d.fuse(&v_bu, &v_td, true).unwrap();
        for got in [&v, &d.fuse(&v_bu, &v_td, false).unwrap()] {
            let err = crate::testing::max_abs_diff(got, &d.fuse_reference(&v_bu, &v_td).unwrap());
            assert!(err < 1e-5, "channels-last fuse differs by {err}");
        }
        let out = d
            .forward(&frame, &v, (2, 2), &offset, &init, &mut s)
            .unwrap();
        let o = &out.objects;
        assert_eq!(o.where_.dims(), &[2, 4, 4]);
        assert_eq!(o.what.dims(), &[2, 4, 6]);
        assert_eq!(o.prop_state.dims(), &[2, 4, 8]);
        assert_eq!(out.cell_yx.mean.dims(), &[2, 4, 2]);
        assert_eq!(out.pres.log_odds.dims(), &[2, 4, 1]);
        // Centres lie within cell ± (−0.5, 1.5) cells: cell (i, j) centre in [12(i−.5), 12(i+1.5)] px.
        let w = o.where_.to_vec3::<f32>().unwrap();
        for wb in &w {
            for (q, wq) in wb.iter().enumerate() {
                let (i, j) = ((q / 2) as f32, (q % 2) as f32);
                let (y, x) = (wq[0] * 12.0, wq[1] * 12.0);
                assert!(y > 12.0 * (i - 0.5) && y < 12.0 * (i + 1.5), "{y}");
                assert!(x > 12.0 * (j - 0.5) && x < 12.0 * (j + 1.5), "{x}");
                assert!(wq[2] > 0.0 && wq[2] < 1.0);
            }
        }
        // abs_posn = centre + offset/anchor (offset here already in anchor units).
        let a = o.abs_posn.to_vec3::<f32>().unwrap();
        assert!((a[1][3][0] - w[1][3][0] - 1.0).abs() < 1e-6);
        assert!((a[1][3][1] - w[1][3][1] - 2.0).abs() < 1e-6);
        let c = cell_centres(1, (2, 2), 12, [12.0, 24.0], &dev)
            .unwrap()
            .to_vec3::<f32>()
            .unwrap();
        assert_eq!(c[0][3], vec![1.5, 0.75]);
        let c = cell_centres(1, (2, 2), 6, [12.0, 24.0], &dev)
            .unwrap()
            .to_vec3::<f32>()
            .unwrap();
        assert_eq!(c[0][3], vec![0.75, 0.375]);
    }

    /// Discovery under `cfg` (weights seed 0, inputs seed 1, zero offsets) on `b` random frames
    /// of a 2x2 grid, latents sampled.
    fn discover_2x2(cfg: &ModelConfig, b: usize) -> DiscoveryOut {
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let d = Discovery::new(seeded_var_builder(&vm, 0, DType::F32, &dev), cfg).unwrap();
        let mut rng = SeededRng::new(1);
        let (frame, v_bu, v_td) = random_inputs(&mut rng, b);
        let offset = Tensor::zeros((b, 2), DType::F32, &dev).unwrap();
        let init = Tensor::zeros(8, DType::F32, &dev).unwrap();
        let mut s = LatentSampler::sampling_for_tests(&mut rng);
        let v = d.fuse(&v_bu, &v_td, true).unwrap();
        d.forward(&frame, &v, (2, 2), &offset, &init, &mut s)
            .unwrap()
    }

    /// With 6-px cells a cell's proposals stay within its own 6-px neighbourhood: cell (i, j)
    /// centre in [6(i − .5), 6(i + 1.5)] px.
    #[test]
    fn six_px_cells_place_centres_in_their_cells() {
        let cfg = ModelConfig {
            discovery_cell: 6,
            ..tiny()
        };
        let out = discover_2x2(&cfg, 2);
        let w = out.objects.where_.to_vec3::<f32>().unwrap();
        let mut beyond_half = 0;
        for wb in &w {
            for (q, wq) in wb.iter().enumerate() {
                let (i, j) = ((q / 2) as f32, (q % 2) as f32);
                let (y, x) = (wq[0] * 12.0, wq[1] * 12.0); // anchor 12 px
                assert!(y > 6.0 * (i - 0.5) && y < 6.0 * (i + 1.5), "{y}");
                assert!(x > 6.0 * (j - 0.5) && x < 6.0 * (j + 1.5), "{x}");
                beyond_half += usize::from(y > 6.0 * (i + 1.0) || x > 6.0 * (j + 1.0));
            }
        }
        // Not all inside one 12-px reading by accident: some centres leave their own cell.
        assert!(beyond_half > 0);
    }

    #[test]
    fn max_width_caps_the_discovered_widths_only() {
        let cfg = ModelConfig {
            max_width: Some(0.3),
            ..tiny()
        };
        let out = discover_2x2(&cfg, 4);
        // (4, 4, 4) y, x, h, w in anchor units.
        let boxes = out.objects.where_.to_vec3::<f32>().unwrap();
        let boxes: Vec<&Vec<f32>> = boxes.iter().flatten().collect();
        assert!(boxes.iter().all(|b| b[3] > 0.0 && b[3] < 0.3), "{boxes:?}");
        assert!(
            boxes.iter().any(|b| b[2] > 0.3),
            "heights are not capped: {boxes:?}"
        );
    }
}
