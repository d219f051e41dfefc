//! Rendering (paper §3.6; reference §2.8): the sprite decoder `r_obj` maps each selected object's
//! `what` to an `h_o×w_o` RGBA sprite; sprites are placed at their boxes and composited by
//! [`crate::nn::render::render_sprites`].
//!
//! Colour `β = σ(clip10(σ^β·L_rgb + μ^β))`, transparency `ξ = σ(clip10(σ^ξ·L_α + μ^ξ))`,
//! `α = ξ·pres`, importance `max(α·z/λ, 0.01)` (the code's linear importance; the paper's softmax
//! `exp(γ/λ)` compositing is available as `render = { mode = "softmax" }`, in which case the
//! renderer receives `α·z` and applies its own temperature).

use candle_core::{Module, Result, Tensor, D};
use candle_nn::VarBuilder;

use super::config::{ModelConfig, RenderModeConfig};
use super::latent::sigmoid10;
use super::objects::Objects;
use crate::nn::mlp::Mlp;
use crate::nn::render::{render_sprites, RenderMode};

/// The sprite decoder and compositing settings.
#[derive(Debug, Clone)]
pub struct SpriteDecoder {
    mlp: Mlp,
    cfg: ModelConfig,
}

/// Sprites of a set of objects.
#[derive(Debug, Clone)]
pub struct Sprites {
    /// `(B, K, 3, h_o, w_o)` colour β.
    pub colour: Tensor,
    /// `(B, K, 1, h_o, w_o)` α = ξ·pres.
    pub alpha: Tensor,
    /// `(B, K, 1, h_o, w_o)` importance.
    pub importance: Tensor,
}

impl SpriteDecoder {
    /// `r_obj = MLP(sprite_decoder) : A → h_o·w_o·4`.
    pub fn new(vb: VarBuilder, cfg: &ModelConfig) -> Result<Self> {
        let [oh, ow] = cfg.object_size;
        Ok(Self {
            mlp: Mlp::new(vb, cfg.n_what, &cfg.sprite_decoder, oh * ow * 4)?,
            cfg: cfg.clone(),
        })
    }

    /// Decode sprites for `objects` `(B, K, ...)`.
    pub fn sprites(&self, objects: &Objects) -> Result<Sprites> {
        let (b, k) = objects.dims()?;
        let [oh, ow] = self.cfg.object_size;
        let c = &self.cfg;
        let raw = self
            .mlp
            .forward(&objects.what)?
            .reshape((b, k, oh, ow, 4))?
            .permute((0, 1, 4, 2, 3))?; // (B, K, 4, oh, ow) R, G, B, α
        let colour = sigmoid10(
            &raw.narrow(2, 0, 3)?
                .affine(c.colour_logit_scale, c.colour_logit_bias)?,
        )?;
        let xi = sigmoid10(
            &raw.narrow(2, 3, 1)?
                .affine(c.alpha_logit_scale, c.alpha_logit_bias)?,
        )?;
        let alpha = xi.broadcast_mul(&objects.pres.reshape((b, k, 1, 1, 1))?)?;
        let az = alpha.broadcast_mul(&objects.depth.reshape((b, k, 1, 1, 1))?)?;
        let importance = match c.render {
            RenderModeConfig::Code => az.affine(1.0 / c.importance_temp, 0.0)?.maximum(0.01)?,
            RenderModeConfig::Softmax { .. } => az,
        };
        Ok(Sprites {
            colour: colour.contiguous()?,
            alpha: alpha.contiguous()?,
            importance: importance.contiguous()?,
        })
    }

    /// Render `objects` over `background` `(B, 3, H, W)` → `(B, 3, H, W)`.
    pub fn render(&self, objects: &Objects, background: &Tensor) -> Result<Tensor> {
        let _span = tracing::trace_span!("render").entered();
        let (_, _, h, w) = background.dims4()?;
        let sp = self.sprites(objects)?;
        let c = &self.cfg;
        // (top, left, height, width) image-normalised.
        let size = objects.size()?;
        let centre = objects.centre()?;
        let scale = Tensor::new(
            &[
                (c.anchor[0] / h as f64) as f32,
                (c.anchor[1] / w as f64) as f32,
            ],
            background.device(),
        )?
        .to_dtype(background.dtype())?;
        let size_n = size.broadcast_mul(&scale)?;
        let top_left = (centre.broadcast_mul(&scale)? - size_n.affine(0.5, 0.0)?)?;
        let boxes = Tensor::cat(&[&top_left, &size_n], D::Minus1)?.contiguous()?;
        let mode = match c.render {
            RenderModeConfig::Code => RenderMode::Code,
            RenderModeConfig::Softmax { temperature } => RenderMode::Softmax { temperature },
        };
        render_sprites(
            &sp.colour,
            &sp.alpha,
            &sp.importance,
            &boxes,
            (h, w),
            background,
            mode,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::discovery::tests::tiny;
    use crate::rng::{seeded_var_builder, SeededRng};
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn sprites_and_render() {
        let cfg = tiny();
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let dec = SpriteDecoder::new(seeded_var_builder(&vm, 0, DType::F32, &dev), &cfg).unwrap();
        let mut rng = SeededRng::new(2);
        let mut o = Objects::null(2, 3, 6, 8, &dev).unwrap();
        o.what = rng.normal(&[2, 3, 6], &dev).unwrap();
        o.where_ = Tensor::new(&[0.5f32, 0.5, 0.5, 0.5], &dev)
            .unwrap()
            .broadcast_as((2, 3, 4))
            .unwrap()
            .contiguous()
            .unwrap();
        o.depth = Tensor::full(0.5f32, (2, 3, 1), &dev).unwrap();
        let sp = dec.sprites(&o).unwrap();
        assert_eq!(sp.colour.dims(), &[2, 3, 3, 4, 5]);
        assert_eq!(sp.alpha.dims(), &[2, 3, 1, 4, 5]);
        // pres = 0: alpha 0, importance at its floor 0.01, render = black background.
        let a: Vec<f32> = sp.alpha.flatten_all().unwrap().to_vec1().unwrap();
        assert!(a.iter().all(|v| *v == 0.0));
        let imp: Vec<f32> = sp.importance.flatten_all().unwrap().to_vec1().unwrap();
        assert!(imp.iter().all(|v| (*v - 0.01).abs() < 1e-7));
        let bg = Tensor::zeros((2, 3, 24, 24), DType::F32, &dev).unwrap();
        let x = dec.render(&o, &bg).unwrap();
        assert_eq!(x.dims(), &[2, 3, 24, 24]);
        assert_eq!(
            x.abs()
                .unwrap()
                .sum_all()
                .unwrap()
                .to_scalar::<f32>()
                .unwrap(),
            0.0
        );
        // pres = 1: the sprite appears only inside its box (centre 6 px, size 6 px → rows 3..9).
        o.pres = Tensor::ones((2, 3, 1), DType::F32, &dev).unwrap();
        let x = dec.render(&o, &bg).unwrap();
        let img = x
            .narrow(0, 0, 1)
            .unwrap()
            .squeeze(0)
            .unwrap()
            .sum(0)
            .unwrap()
            .to_vec2::<f32>()
            .unwrap();
        assert!(img[6][6] > 0.0);
        assert_eq!(img[0][0], 0.0);
        assert_eq!(img[12][12], 0.0);
    }

    #[test]
    fn overlapping_sprites_code_vs_softmax() {
        // Two sprites on the same box with different depths: the code's linear importance and the
        // paper's softmax weigh them differently; both stay in [0, 1].
        let dev = Device::Cpu;
        let mut rng = SeededRng::new(3);
        let mut o = Objects::null(1, 2, 6, 8, &dev).unwrap();
        o.what = rng.normal(&[1, 2, 6], &dev).unwrap();
        o.where_ = Tensor::new(&[[[0.5f32, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]]], &dev).unwrap();
        o.depth = Tensor::new(&[[[0.9f32], [0.1]]], &dev).unwrap();
        o.pres = Tensor::ones((1, 2, 1), DType::F32, &dev).unwrap();
        let bg = Tensor::zeros((1, 3, 24, 24), DType::F32, &dev).unwrap();
        let mut cfg = tiny();
        let vm = VarMap::new();
        let code = SpriteDecoder::new(seeded_var_builder(&vm, 0, DType::F32, &dev), &cfg).unwrap();
        cfg.render = RenderModeConfig::Softmax { temperature: 0.25 };
        let soft = SpriteDecoder::new(seeded_var_builder(&vm, 0, DType::F32, &dev), &cfg).unwrap();
        let a: Vec<f32> = code
            .render(&o, &bg)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let b: Vec<f32> = soft
            .render(&o, &bg)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        assert!(b.iter().all(|v| (0.0..=1.0).contains(v)));
        assert!(a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 1e-4));
    }
}
