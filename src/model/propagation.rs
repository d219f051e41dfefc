//! Propagation (paper §3.4, appendix B.2; reference §2.3, `SQAIRPropagationLayer`).
//!
//! Per previous object: a first glimpse ("glimpse prime") at a box shifted by `p_glimpse`, masked
//! by a learned mask; where update (tanh position step, size random walk in logit space); a
//! second masked glimpse at the new box; SQAIR's gated what update; depth and pres updates
//! (pres can only decrease: `obj = obj_prev·d_obj`); a GRU updating the hidden state.
//!
//! Differences from the paper, following the code (reference §10): no separate `p_fuse` network
//! (the glimpse encoding is concatenated directly), both glimpses are masked by `σ(m+1)`, the what
//! update is gated, and positions move by `tanh` in anchor units.
//!
//! The same layer type is the learned prior (reference §2.4, [`super::prior`]) with
//! `posterior = false`: no image access, both glimpse encodings are zero vectors. The code still
//! builds the prior's glimpse networks (`p_glimpse`, `p_bu`, `p_obj`) but never uses them; we do
//! not build them, so they have no (always-zero-gradient) parameters.

use candle_core::{Module, Result, Tensor, D};
use candle_nn::VarBuilder;

use super::config::ModelConfig;
use super::discovery::{encoder_row, to_image_boxes, with_flag};
use super::latent::{box_size, sigmoid10, LatentSampler, NormalLatent, PresLatent};
use super::objects::Objects;
use crate::nn::epilogue::gate_channel_rows;
use crate::nn::gated_update::gated_what_update;
use crate::nn::gru::Gru;
use crate::nn::mlp::Mlp;
use crate::nn::sampler::extract_glimpses;

/// The image-reading networks of the posterior.
#[derive(Debug, Clone)]
struct GlimpseNets {
    /// `p_glimpse`: base → `4 + 2·h_o·w_o` (box shift, mask m', mask m).
    glimpse: Mlp,
    /// `p_bu`: first glimpse encoder.
    enc_prime: Mlp,
    /// `p_obj`: second glimpse encoder.
    enc: Mlp,
}

/// One propagation layer (posterior or learned prior).
#[derive(Debug, Clone)]
pub struct PropagationLayer {
    glimpse: Option<GlimpseNets>,
    where_net: Mlp,
    what_inp: Mlp,
    what_temp: Mlp,
    depth_net: Mlp,
    pres_net: Mlp,
    gru: Gru,
    posterior: bool,
    cfg: ModelConfig,
}

/// Output of one propagation layer.
#[derive(Debug, Clone)]
pub struct PropagationOut {
    /// `(B, K, ...)` propagated objects; the state this layer updates (`prop_state` for the
    /// posterior, `prior_prop_state` for the prior) is the new GRU state, the other is copied
    /// from the previous objects.
    pub objects: Objects,
    /// `(B, K, 2)` `d_yt_logit, d_xt_logit`.
    pub d_yx: NormalLatent,
    /// `(B, K, 2)` new absolute size logits, mean `ys_logit_prev + μ_dh`.
    pub hw: NormalLatent,
    /// `(B, K, A)` `d_attr = new_attr − attr_prev`, mean `μ_attr − attr_prev`.
    pub d_what: NormalLatent,
    /// `(B, K, 1)` `d_z_logit`.
    pub d_depth: NormalLatent,
    /// `(B, K, 1)` per-step survival `d_obj` (`value` = d_obj; objects.pres = obj_prev·d_obj).
    pub d_pres: PresLatent,
}

impl PropagationLayer {
    /// Build a posterior (`posterior = true`, reads the image) or learned-prior layer.
    pub fn new(vb: VarBuilder, cfg: &ModelConfig, posterior: bool) -> Result<Self> {
        let u = cfg.n_backbone_features;
        let a = cfg.n_what;
        let e = cfg.n_what; // glimpse encoding width
        let [oh, ow] = cfg.object_size;
        let h = &cfg.prop_mlp;
        let base = u + 2;
        let glimpse = if posterior {
            Some(GlimpseNets {
                glimpse: Mlp::new(vb.pp("glimpse"), base, h, 4 + 2 * oh * ow)?,
                enc_prime: Mlp::new(vb.pp("enc_prime"), 3 * oh * ow, &cfg.glimpse_encoder, e)?,
                enc: Mlp::new(vb.pp("enc"), 3 * oh * ow, &cfg.glimpse_encoder, e)?,
            })
        } else {
            None
        };
        Ok(Self {
            glimpse,
            where_net: Mlp::new(vb.pp("where"), base + e, h, 8)?,
            what_inp: Mlp::new(vb.pp("what_inp"), e, h, 2 * a)?,
            what_temp: Mlp::new(vb.pp("what_temp"), base + 6 + e, h, 5 * a)?,
            depth_net: Mlp::new(vb.pp("depth"), base + 6 + a + e, h, 2)?,
            pres_net: Mlp::new(vb.pp("pres"), base + 6 + a + 1 + e, h, 1)?,
            gru: Gru::new(vb.pp("gru"), 6 + a + 2, cfg.state_size())?,
            posterior,
            cfg: cfg.clone(),
        })
    }

    /// Extract a masked glimpse at `where_` and encode it: `(B, K, E)`.
    fn encode_glimpse(
        &self,
        enc: &Mlp,
        frame: &Tensor,
        where_: &Tensor,
        mask_logit: &Tensor,
    ) -> Result<Tensor> {
        let (b, k, _) = where_.dims3()?;
        let (_, _, hi, wi) = frame.dims4()?;
        let _span = tracing::trace_span!("propagation_glimpse").entered();
        let [oh, ow] = self.cfg.object_size;
        let boxes = to_image_boxes(where_, self.cfg.anchor, (hi, wi))?;
        let g = extract_glimpses(frame, &boxes, (oh, ow))?; // (B, K, 3, oh, ow)
        let c = g.dim(2)?;
        // (B·K, C, oh·ow): glimpse · σ(mask_logit + 1); mask_logit (B, K, oh·ow) is read in
        // place (a narrow of the glimpse net's output).
        let row = encoder_row(c * oh * ow, frame.device());
        let gated = gate_channel_rows(&g.reshape((b * k, c, oh * ow))?, mask_logit, 1.0, row)?;
        enc.forward_rows(&gated.reshape((b, k, row))?)
    }

    /// Propagate `prev` one step.
    ///
    /// # Shapes
    /// * `frame`: `(B, 3, H_img, W_img)` (ignored by the prior; pass `None`)
    /// * `u_td`: `(B, K, U)` propagation-attention features; `prev`: `(B, K, ...)`
    pub fn forward(
        &self,
        frame: Option<&Tensor>,
        u_td: &Tensor,
        prev: &Objects,
        s: &mut LatentSampler,
    ) -> Result<PropagationOut> {
        let _span = tracing::trace_span!("propagation_layer", posterior = self.posterior).entered();
        let (b, k, _) = u_td.dims3()?;
        let cfg = &self.cfg;
        let e_dim = cfg.n_what;
        let [oh, ow] = cfg.object_size;
        let base = with_flag(u_td, self.posterior)?; // (B, K, U+2)
                                                     // --- glimpse prime ---
        let (e_prime, mask) = match (&self.glimpse, frame) {
            (Some(nets), Some(frame)) => {
                let pg = nets.glimpse.forward(&base)?; // (B, K, 4 + 2·oh·ow)
                let shift = pg.narrow(D::Minus1, 0, 4)?;
                let m_prime = pg.narrow(D::Minus1, 4, oh * ow)?;
                let m = pg.narrow(D::Minus1, 4 + oh * ow, oh * ow)?;
                let box_prime = (&prev.where_ + shift.affine(0.1, 0.0)?)?;
                let e = self.encode_glimpse(&nets.enc_prime, frame, &box_prime, &m_prime)?;
                (e, Some((nets, frame, m)))
            }
            (Some(_), None) => candle_core::bail!("posterior propagation needs the frame"),
            _ => (
                Tensor::zeros((b, k, e_dim), u_td.dtype(), u_td.device())?,
                None,
            ),
        };
        // --- where ---
        let wo = self
            .where_net
            .forward(&Tensor::cat(&[&base, &e_prime], D::Minus1)?)?; // (B, K, 8)
        let mu = s.wheel(wo.narrow(D::Minus1, 0, 4)?);
        let ls = s.wheel(wo.narrow(D::Minus1, 4, 4)?);
        let d_yx = s.normal(mu.narrow(D::Minus1, 0, 2)?, &ls.narrow(D::Minus1, 0, 2)?)?;
        let hw_mean = (&prev.size_logit + mu.narrow(D::Minus1, 2, 2)?)?;
        let hw = s.normal(hw_mean, &ls.narrow(D::Minus1, 2, 2)?)?;
        let step = d_yx.sample.tanh()?.affine(cfg.where_t_scale, 0.0)?;
        let centre = (prev.centre()? + &step)?;
        let abs_posn = (&prev.abs_posn + &step)?;
        let size = box_size(&hw.sample, cfg)?; // (B, K, 2) h, w
        let where_ = Tensor::cat(&[&centre, &size], D::Minus1)?; // (B, K, 4)
        let box_params = Tensor::cat(&[&abs_posn, &d_yx.sample, &hw.sample], D::Minus1)?; // (B, K, 6)
                                                                                          // --- second glimpse ---
        let e = match mask {
            Some((nets, frame, m)) => self.encode_glimpse(&nets.enc, frame, &where_, &m)?,
            None => e_prime.clone(),
        };
        // --- what (SQAIR gated update) ---
        let inp = self.what_inp.forward(&e)?; // (B, K, 2A)
        let tmp = self
            .what_temp
            .forward(&Tensor::cat(&[&base, &box_params, &e], D::Minus1)?)?; // (B, K, 5A)
                                                                            // SQAIR's gated update (one fused op; the composed reference is in nn::gated_update).
        let (mu_attr, sd_attr) = gated_what_update(&inp, &tmp, &prev.what)?;
        let attr = s.normal_std(mu_attr, sd_attr)?;
        let new_attr = attr.sample.clone();
        let d_what = NormalLatent {
            mean: (&attr.mean - &prev.what)?,
            std: attr.std.clone(),
            sample: (&new_attr - &prev.what)?,
        };
        // --- depth ---
        let dz = self.depth_net.forward(&Tensor::cat(
            &[&base, &box_params, &new_attr, &e],
            D::Minus1,
        )?)?;
        let d_depth = s.normal(
            s.wheel(dz.narrow(D::Minus1, 0, 1)?),
            &s.wheel(dz.narrow(D::Minus1, 1, 1)?),
        )?;
        let z_logit = (&prev.depth_logit + &d_depth.sample)?;
        let z = sigmoid10(&z_logit)?;
        // --- pres ---
        let pl = self.pres_net.forward(&Tensor::cat(
            &[&base, &box_params, &new_attr, &z, &e],
            D::Minus1,
        )?)?;
        let d_pres = s.pres(&s.wheel(pl))?;
        let pres = prev.pres.mul(&d_pres.value)?;
        // --- GRU ---
        let x = Tensor::cat(&[&box_params, &new_attr, &z, &pres], D::Minus1)?; // (B, K, 6+A+2)
        let h_prev = if self.posterior {
            &prev.prop_state
        } else {
            &prev.prior_prop_state
        };
        let st = h_prev.dim(D::Minus1)?;
        let h = self
            .gru
            .step(
                &x.reshape((b * k, x.dim(D::Minus1)?))?,
                &h_prev.reshape((b * k, st))?,
            )?
            .reshape((b, k, st))?;
        let (prop_state, prior_prop_state) = if self.posterior {
            (h, prev.prior_prop_state.clone())
        } else {
            (prev.prop_state.clone(), h)
        };
        let objects = Objects {
            where_,
            abs_posn,
            what: new_attr,
            depth: z,
            pres,
            size_logit: hw.sample.clone(),
            depth_logit: z_logit,
            prop_state,
            prior_prop_state,
            ids: prev.ids.clone(),
            is_new: vec![false; b * k],
        };
        Ok(PropagationOut {
            objects,
            d_yx,
            hw,
            d_what,
            d_depth,
            d_pres,
        })
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
    fn posterior_and_prior_shapes_and_pres_decreases() {
        let cfg = tiny();
        let dev = Device::Cpu;
        let vm = VarMap::new();
        let vb = seeded_var_builder(&vm, 0, DType::F32, &dev);
        let post = PropagationLayer::new(vb.pp("post"), &cfg, true).unwrap();
        let prior = PropagationLayer::new(vb.pp("prior"), &cfg, false).unwrap();
        let mut rng = SeededRng::new(1);
        let frame = rng.uniform(&[2, 3, 24, 24], 0.0, 1.0, &dev).unwrap();
        let mut prev = Objects::null(2, 3, 6, 8, &dev).unwrap();
        prev.pres = rng.uniform(&[2, 3, 1], 0.2, 1.0, &dev).unwrap();
        prev.where_ = rng.uniform(&[2, 3, 4], 0.2, 0.8, &dev).unwrap();
        prev.prop_state = rng.normal(&[2, 3, 8], &dev).unwrap();
        let u = rng.normal(&[2, 3, 10], &dev).unwrap();
        let mut s = LatentSampler::sampling_for_tests(&mut rng);
        let p = post.forward(Some(&frame), &u, &prev, &mut s).unwrap();
        assert!(post.forward(None, &u, &prev, &mut s).is_err());
        let q = prior.forward(None, &u, &prev, &mut s).unwrap();
        for out in [&p, &q] {
            assert_eq!(out.objects.where_.dims(), &[2, 3, 4]);
            assert_eq!(out.objects.what.dims(), &[2, 3, 6]);
            assert_eq!(out.d_what.mean.dims(), &[2, 3, 6]);
            assert_eq!(out.d_yx.sample.dims(), &[2, 3, 2]);
            assert_eq!(out.d_pres.value.dims(), &[2, 3, 1]);
            let new: Vec<f32> = out.objects.pres.flatten_all().unwrap().to_vec1().unwrap();
            let old: Vec<f32> = prev.pres.flatten_all().unwrap().to_vec1().unwrap();
            assert!(new.iter().zip(&old).all(|(n, o)| n <= o));
            // Moves are at most where_t_scale = 1 anchor unit per axis.
            let d = (out.objects.centre().unwrap() - prev.centre().unwrap()).unwrap();
            let d: Vec<f32> = d.abs().unwrap().flatten_all().unwrap().to_vec1().unwrap();
            assert!(d.iter().all(|v| *v <= 1.0));
        }
        // Each layer updates only its own GRU state.
        let same = |a: &Tensor, b: &Tensor| {
            (a - b)
                .unwrap()
                .abs()
                .unwrap()
                .sum_all()
                .unwrap()
                .to_scalar::<f32>()
                .unwrap()
                == 0.0
        };
        assert!(same(&p.objects.prior_prop_state, &prev.prior_prop_state));
        assert!(!same(&p.objects.prop_state, &prev.prop_state));
        assert!(same(&q.objects.prop_state, &prev.prop_state));
        assert!(!same(&q.objects.prior_prop_state, &prev.prior_prop_state));
    }
}
