//! The SILOT model: one timestep for a batch of independent streams ([`Silot::step`]) and the
//! clip loop ([`Silot::run_clip`]) that training, offline evaluation and online observation all
//! go through (paper §3.1; reference §2 outline).
//!
//! Order inside a timestep: propagation (posterior) and learned-prior propagation of the previous
//! selected objects → (prior mode: prior replaces posterior) → discovery attention from the
//! propagated objects to the grid → fuse + discovery heads → discovery dropout → top-K selection
//! with stable slots → rendering → loss terms on the full (pre-selection) sets.

use candle_core::{DType, Device, Result, Tensor, D};
use candle_nn::{Init, VarBuilder, VarMap};

use super::attention::{DiscoveryAttention, PropagationAttention};
use super::config::{ModelConfig, PresenceCarry, DUPLICATE_IOU};
use super::count_prior::count_prior_kl;
use super::decoder::SpriteDecoder;
use super::discovery::{cell_centres, Discovery, DiscoveryOut};
use super::latent::{LatentSampler, Shard};
use super::loss::{
    kl_weight, mean_sum, overlapping_any, pres_weighted_static, propagated_kl_weight,
    reconstruction, LossTerms,
};
use super::objects::Objects;
use super::prior::LearnedPrior;
use super::propagation::{PropagationLayer, PropagationOut};
use super::reid::{inherit_identities, ReidMemory};
use super::selection::{mask_pres, select};
use crate::nn::backbone::Backbone;
use crate::rng::{seeded_var_builder, SeededRng};

/// Everything carried from one timestep to the next, per stream.
#[derive(Debug, Clone)]
pub struct CarriedState {
    /// `(B, K, ...)` the selected objects of the previous step (the null set at the start).
    pub objects: Objects,
    /// Per stream: the next fresh object id.
    pub next_id: Vec<u64>,
    /// Timestep index of the next frame (0 at the start of a stream).
    pub t: usize,
    /// `(B, 2)` crop offset of each stream's frames in anchor units (for `abs_posn`).
    pub offset: Tensor,
    /// Per stream: the objects the `reid` carry remembers; empty (no entry at all) under the
    /// other carries and before the first `reid` step.
    pub reid: Vec<ReidMemory>,
}

impl CarriedState {
    /// Detach all tensors (evaluation / online use; keeps memory bounded).
    pub fn detach(&self) -> CarriedState {
        CarriedState {
            objects: self.objects.detach(),
            next_id: self.next_id.clone(),
            t: self.t,
            offset: self.offset.detach(),
            reid: self.reid.clone(),
        }
    }
}

/// Noise and switches of a forward pass.
#[derive(Debug)]
pub struct StepCtx {
    /// Source of all noise (latent samples, discovery dropout).
    pub rng: SeededRng,
    /// Training mode: sample latents, discovery dropout for `t > 0`.
    pub training: bool,
    /// Stop-gradient training wheels on (reference §4.6).
    pub training_wheels: bool,
    /// Count-prior log-odds for this update (reference §4.4 schedule).
    pub count_prior_log_odds: f64,
    /// Prior mode (reference §2.4): from this timestep on, the learned prior replaces the
    /// posterior and discovery is disabled. `None` normally.
    pub prior_start: Option<usize>,
    /// Compute the loss terms (off for pure inference). When off and `prior_start` is `None`,
    /// the learned prior is not run at all (its only other use is prior mode), so its recurrent
    /// state is carried over unchanged.
    pub compute_loss: bool,
    /// Render the reconstruction x̂ (always done when `compute_loss` is on: the loss needs it).
    /// Off for pure encoding (tracking, the object wrapper): `reconstruction` is then `None`.
    pub reconstruct: bool,
    /// Data-parallel training: the rows of the global batch this pass runs; its noise is those
    /// rows of the global batch's ([`Shard`]). `None`: the batch is the whole batch.
    pub shard: Option<Shard>,
}

impl StepCtx {
    /// Evaluation context: no dropout, no wheels, losses computed with the final count prior.
    pub fn eval(seed: u64) -> Self {
        Self {
            rng: SeededRng::new(seed),
            training: false,
            training_wheels: false,
            count_prior_log_odds: (0.0125f64 + 1e-6).ln(),
            prior_start: None,
            compute_loss: true,
            reconstruct: true,
            shard: None,
        }
    }

    /// Pure encoding: [`StepCtx::eval`] without loss terms and without the reconstruction.
    pub fn encode(seed: u64) -> Self {
        Self {
            compute_loss: false,
            reconstruct: false,
            ..Self::eval(seed)
        }
    }
}

/// Result of one timestep.
#[derive(Debug, Clone)]
pub struct StepOutput {
    /// State for the next step; `state.objects` are this step's selected objects.
    pub state: CarriedState,
    /// `(B, 3, H, W)` rendered frame x̂_t (`None` when the step ran without
    /// [`StepCtx::reconstruct`]).
    pub reconstruction: Option<Tensor>,
    /// Loss terms of this step (zeros when `compute_loss` is off).
    pub losses: LossTerms,
}

/// Result of a clip.
#[derive(Debug, Clone)]
pub struct ClipOutput {
    /// Final state.
    pub state: CarriedState,
    /// Per frame `(B, 3, H, W)` reconstructions (empty without [`StepCtx::reconstruct`]).
    pub reconstructions: Vec<Tensor>,
    /// Per frame selected objects `(B, K, ...)` with ids and `is_new`.
    pub objects: Vec<Objects>,
    /// Loss terms summed over frames.
    pub losses: LossTerms,
}

/// The SILOT model.
#[derive(Debug, Clone)]
pub struct Silot {
    backbone: Backbone,
    disc_attention: DiscoveryAttention,
    prop_attention: PropagationAttention,
    discovery: Discovery,
    propagation: PropagationLayer,
    prior: Option<LearnedPrior>,
    decoder: SpriteDecoder,
    init_state: Tensor,
    cfg: ModelConfig,
}

impl Silot {
    /// Build every network under `vb` (paths: `backbone`, `disc_attention`, `prop_attention`,
    /// `discovery`, `propagation`, `prior`, `decoder`, `init_state`).
    pub fn new(vb: VarBuilder, cfg: &ModelConfig) -> Result<Self> {
        let feat = 6 + cfg.n_what + cfg.state_size();
        let u = cfg.n_backbone_features;
        Ok(Self {
            backbone: Backbone::new(vb.pp("backbone"), u, cfg.discovery_cell)?,
            disc_attention: DiscoveryAttention::new(
                vb.pp("disc_attention"),
                feat,
                &cfg.attention_mlp,
                u,
                cfg.attention_std,
            )?,
            prop_attention: PropagationAttention::new(
                vb.pp("prop_attention"),
                feat,
                &cfg.attention_mlp,
                u,
                cfg.attention_std,
                cfg.independent_prop,
            )?,
            discovery: Discovery::new(vb.pp("discovery"), cfg)?,
            propagation: PropagationLayer::new(vb.pp("propagation"), cfg, true)?,
            prior: if cfg.learn_prior {
                Some(LearnedPrior::new(vb.pp("prior"), cfg)?)
            } else {
                None
            },
            decoder: SpriteDecoder::new(vb.pp("decoder"), cfg)?,
            init_state: vb.get_with_hints(cfg.state_size(), "init_state", Init::Const(0.0))?,
            cfg: cfg.clone(),
        })
    }

    /// Build with freshly initialised parameters from `seed` (bit-identical for equal seeds).
    pub fn build(
        cfg: &ModelConfig,
        seed: u64,
        dtype: DType,
        dev: &Device,
    ) -> Result<(VarMap, Silot)> {
        let varmap = VarMap::new();
        let vb = seeded_var_builder(&varmap, seed, dtype, dev);
        let model = Silot::new(vb, cfg)?;
        Ok((varmap, model))
    }

    /// Zeroes the last layer of propagation's object interaction
    /// ([`PropagationAttention::silence_interaction`]): the model then propagates as the
    /// independent one. A no-op with `independent_prop`.
    pub fn silence_object_interaction(&self) -> Result<()> {
        self.prop_attention.silence_interaction()
    }

    /// The sprite decoder (rendering), e.g. to look at the selected objects' sprites.
    pub fn decoder(&self) -> &SpriteDecoder {
        &self.decoder
    }

    /// Change how presence is carried between evaluation steps (an inference setting: the
    /// weights do not depend on it).
    pub fn set_eval_presence_carry(&mut self, carry: PresenceCarry) {
        self.cfg.eval_presence_carry = carry;
    }

    /// Sample the latents at evaluation (`true`, as the reference evaluates Scattered MNIST) or
    /// take their means (an inference setting, the config's `eval_noisy` otherwise).
    pub fn set_eval_noisy(&mut self, noisy: bool) {
        self.cfg.eval_noisy = noisy;
    }

    /// The config the model was built with.
    pub fn config(&self) -> &ModelConfig {
        &self.cfg
    }

    /// Initial state of `b` streams with `k` slots: the null object set (reference §2.0).
    /// `offset`: `(B, 2)` crop offsets in **pixels** `(y, x)` (`None` = no crop).
    pub fn initial_state(
        &self,
        b: usize,
        k: usize,
        offset: Option<&Tensor>,
        dev: &Device,
    ) -> Result<CarriedState> {
        let dtype = self.init_state.dtype();
        let objects = Objects::null(b, k, self.cfg.n_what, self.cfg.state_size(), dev)?;
        let objects = if dtype == DType::F32 {
            objects
        } else {
            to_dtype(&objects, dtype)?
        };
        let offset = match offset {
            Some(o) => {
                let s = Tensor::new(&[1.0 / self.cfg.anchor[0], 1.0 / self.cfg.anchor[1]], dev)?;
                o.to_dtype(DType::F64)?.broadcast_mul(&s)?.to_dtype(dtype)?
            }
            None => Tensor::zeros((b, 2), dtype, dev)?,
        };
        Ok(CarriedState {
            objects,
            next_id: vec![0; b],
            t: 0,
            offset,
            reid: Vec::new(),
        })
    }

    /// The state a training clip starts from on a stream (`train.streams`, docs/streams.md):
    /// stream `b` with `continues[b]` starts from the objects `carried` ended its previous clip
    /// with, detached (gradients stay within a clip) and with presence decided by `carry` as at
    /// inference (`train.streams_carry`, default [`PresenceCarry::Binary`]); the others start
    /// from `fresh`, the clip's
    /// [`Silot::initial_state`], whose crop offsets every stream keeps.
    pub fn continue_streams(
        &self,
        fresh: CarriedState,
        carried: &CarriedState,
        continues: &[bool],
        carry: PresenceCarry,
    ) -> Result<CarriedState> {
        let (b, k) = fresh.objects.dims()?;
        if carried.objects.dims()? != (b, k) || continues.len() != b {
            return Err(candle_core::Error::Msg(format!(
                "continuing {} streams of {k} objects from {:?} carried objects and {} flags",
                b,
                carried.objects.dims()?,
                continues.len()
            )));
        }
        if !continues.contains(&true) {
            return Ok(fresh);
        }
        let decided = decide_presence(&carried.objects.detach(), carry)?;
        let dtype = fresh.objects.pres.dtype();
        let dev = fresh.objects.pres.device();
        let flags: Vec<f32> = continues.iter().map(|&c| f32::from(u8::from(c))).collect();
        // (B, 1, 1): 1 where the stream continues.
        let keep = Tensor::from_vec(flags, (b, 1, 1), dev)?.to_dtype(dtype)?;
        let drop = keep.affine(-1.0, 1.0)?;
        let mix = |c: &Tensor, f: &Tensor| -> Result<Tensor> {
            c.broadcast_mul(&keep)?.add(&f.broadcast_mul(&drop)?)
        };
        let per_slot = |c: &[u64], f: &[u64]| -> Vec<u64> {
            (0..b * k)
                .map(|i| if continues[i / k] { c[i] } else { f[i] })
                .collect()
        };
        let (c, f) = (&decided, &fresh.objects);
        let is_new = (0..b * k)
            .map(|i| continues[i / k] && c.is_new[i])
            .collect();
        let objects = c.zip_tensors(f, mix, per_slot(&c.ids, &f.ids), is_new)?;
        let next_id = (0..b)
            .map(|i| {
                if continues[i] {
                    carried.next_id[i]
                } else {
                    fresh.next_id[i]
                }
            })
            .collect();
        let reid = if carried.reid.is_empty() {
            Vec::new()
        } else {
            (0..b)
                .map(|i| {
                    if continues[i] {
                        carried.reid[i].clone()
                    } else {
                        fresh.reid.get(i).cloned().unwrap_or_default()
                    }
                })
                .collect()
        };
        Ok(CarriedState {
            objects,
            next_id,
            reid,
            // Discovery dropout starts at t > 0: only when every stream goes on.
            t: if continues.iter().all(|&c| c) {
                carried.t
            } else {
                0
            },
            offset: fresh.offset,
        })
    }

    /// Backbone features `(N, F, gh, gw)` of frames `(N, 3, H, W)`. With `training` off the
    /// channels-last inference path runs (same values, no gradients).
    pub fn backbone(&self, frames: &Tensor, training: bool) -> Result<Tensor> {
        let _span = tracing::trace_span!("backbone").entered();
        if training {
            self.backbone.forward(frames)
        } else {
            self.backbone.forward_inference(frames)
        }
    }

    fn sampler<'a>(&self, ctx: &'a mut StepCtx) -> LatentSampler<'a> {
        LatentSampler {
            noisy: ctx.training || self.cfg.eval_noisy,
            wheels: ctx.training_wheels,
            obj_temp: self.cfg.obj_temp,
            concrete_temp: self.cfg.obj_concrete_temp,
            rng: &mut ctx.rng,
            shard: ctx.shard,
        }
    }

    /// Run one timestep for a batch of streams.
    ///
    /// # Shapes
    /// * `frame`: `(B, 3, H, W)` in `[0, 1]`
    /// * `backbone_features`: `(B, F, gh, gw)` if precomputed (else computed here)
    pub fn step(
        &self,
        frame: &Tensor,
        backbone_features: Option<&Tensor>,
        state: &CarriedState,
        ctx: &mut StepCtx,
    ) -> Result<StepOutput> {
        let (b, _, h, w) = frame.dims4()?;
        let v_bu = match backbone_features {
            Some(v) => v.clone(),
            None => self.backbone(frame, ctx.training)?,
        };
        let (_, _, gh, gw) = v_bu.dims4()?;
        let t = state.t;
        let decided;
        let carry = self.cfg.eval_presence_carry;
        // Inference only: training and its validation losses carry the paper's product.
        let prev = if !ctx.training && !ctx.compute_loss && carry != PresenceCarry::Product {
            decided = decide_presence(&state.objects, carry)?;
            &decided
        } else {
            &state.objects
        };
        let prior_mode = ctx.prior_start.is_some_and(|s| t >= s);
        let need_prior = ctx.compute_loss || ctx.prior_start.is_some();
        let (prop_out, prior_out) = {
            let _span = tracing::trace_span!("propagation").entered();
            let mut s = self.sampler(ctx);
            let u_post = self
                .prop_attention
                .forward(&prev.features(false)?, &prev.centre()?)?;
            let post = self
                .propagation
                .forward(Some(frame), &u_post, prev, &mut s)?;
            let prior = match &self.prior {
                Some(p) if need_prior => {
                    let u_prior = self
                        .prop_attention
                        .forward(&prev.features(true)?, &prev.centre()?)?;
                    Some(p.forward(&u_prior, prev, &mut s)?)
                }
                _ => None,
            };
            (post, prior)
        };
        // The objects carried on: posterior (or prior in prior mode) attributes, posterior
        // `prop_state`, prior `prior_prop_state`.
        let mut prop = if prior_mode {
            let p = prior_out.as_ref().ok_or_else(|| {
                candle_core::Error::Msg("prior mode needs learn_prior = true".into())
            })?;
            p.objects.clone()
        } else {
            prop_out.objects.clone()
        };
        prop.prop_state = prop_out.objects.prop_state.clone();
        prop.prior_prop_state = match &prior_out {
            Some(p) => p.objects.prior_prop_state.clone(),
            None => prev.prior_prop_state.clone(),
        };
        let disc = {
            let _span = tracing::trace_span!("discovery").entered();
            let cells = cell_centres(
                b,
                (gh, gw),
                self.cfg.discovery_cell,
                self.cfg.anchor,
                frame.device(),
            )?
            .to_dtype(frame.dtype())?;
            let (feats, centres) = (prop.features(false)?, prop.centre()?);
            let v_td = if ctx.training {
                self.disc_attention.forward(&feats, &centres, &cells)?
            } else {
                // No backward pass in evaluation: the fused op (pairs beyond 6 kernel stds
                // skipped) instead of the (B, Q, K, ·) pair grid.
                self.disc_attention
                    .forward_inference(&feats, &centres, &cells)?
            };
            let v = self.discovery.fuse(&v_bu, &v_td, ctx.training)?;
            let mut s = self.sampler(ctx);
            self.discovery
                .forward(frame, &v, (gh, gw), &state.offset, &self.init_state, &mut s)?
        };
        // --- discovery dropout (training, t > 0) / prior mode ---
        let mut disc_objects = disc.objects.clone();
        if prior_mode {
            disc_objects.pres = disc_objects.pres.zeros_like()?;
        } else if ctx.training && t > 0 && self.cfg.discovery_dropout > 0.0 {
            let p = (1.0 - self.cfg.discovery_dropout) as f32;
            let keep = match &ctx.shard {
                Some(s) => s.bernoulli(&mut ctx.rng, p, frame.device())?,
                None => ctx.rng.bernoulli(&[b], p, frame.device())?,
            }
            .to_dtype(frame.dtype())?;
            disc_objects.pres = mask_pres(&disc_objects.pres, &keep)?;
        }
        // --- selection ---
        let mut next_id = state.next_id.clone();
        let mut selected = {
            let _span = tracing::trace_span!("selection").entered();
            select(&prop, &disc_objects, &mut next_id)?
        };
        let mut reid = Vec::new();
        if carry == PresenceCarry::Reid && !ctx.training && !ctx.compute_loss {
            reid = state.reid.clone();
            reid.resize(b, ReidMemory::default());
            inherit_identities(&mut selected, prev, &prop, &mut reid)?;
        }
        // --- rendering ---
        let x_hat = if ctx.reconstruct || ctx.compute_loss {
            let background = Tensor::zeros((b, 3, h, w), frame.dtype(), frame.device())?;
            Some(self.decoder.render(&selected, &background)?)
        } else {
            None
        };
        // --- losses ---
        let losses = match (&x_hat, ctx.compute_loss) {
            (Some(x_hat), true) => {
                let _span = tracing::trace_span!("loss").entered();
                self.losses(
                    frame,
                    x_hat,
                    &prop_out,
                    prior_out.as_ref(),
                    &disc,
                    &disc_objects.pres,
                    ctx.count_prior_log_odds,
                )?
            }
            _ => zero_terms(frame)?,
        };
        Ok(StepOutput {
            state: CarriedState {
                objects: selected,
                next_id,
                t: t + 1,
                offset: state.offset.clone(),
                reid,
            },
            reconstruction: x_hat,
            losses,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn losses(
        &self,
        frame: &Tensor,
        x_hat: &Tensor,
        prop: &PropagationOut,
        prior: Option<&PropagationOut>,
        disc: &DiscoveryOut,
        disc_pres: &Tensor,
        count_log_odds: f64,
    ) -> Result<LossTerms> {
        let pr = &self.cfg.priors;
        let rec = reconstruction(x_hat, frame)?;
        let grad = self.cfg.kl_pres_weight_gradient;
        let prop_weight = propagated_kl_weight(&prop.objects.pres, &prop.objects.where_, grad)?;
        // Eight static-prior KLs, each one fused op (`nn::weighted_kl`).
        let prop_kl = pres_weighted_static(
            &[
                (&prop.d_yx, pr.prop_d_yx),
                (&prop.hw, pr.prop_hw),
                (&prop.d_what, pr.prop_d_what),
                (&prop.d_depth, pr.prop_d_depth),
            ],
            &prop_weight,
        )?;
        let disc_kl = pres_weighted_static(
            &[
                (&disc.cell_yx, pr.cell_yx),
                (&disc.hw, pr.hw),
                (&disc.what, pr.what),
                (&disc.depth, pr.depth),
            ],
            &kl_weight(disc_pres, grad.discovery)?,
        )?;
        let (learned_kl, learned_pres_kl) = match (&self.prior, prior) {
            (Some(m), Some(p)) => m.kl(prop, p, &prop_weight)?,
            _ => (rec.zeros_like()?, rec.zeros_like()?),
        };
        // Count prior over [props; discovered]: q = per-step probabilities, o = presences.
        let q = Tensor::cat(
            &[
                &candle_nn::ops::sigmoid(&prop.d_pres.log_odds)?,
                &candle_nn::ops::sigmoid(&disc.pres.log_odds)?,
            ],
            1,
        )?
        .squeeze(D::Minus1)?;
        let o = Tensor::cat(&[&prop.objects.pres, disc_pres], 1)?.squeeze(D::Minus1)?;
        let count = mean_sum(&count_prior_kl(&q, &o, count_log_odds)?)?;
        Ok(LossTerms {
            reconstruction: rec,
            prop_kl,
            disc_kl,
            learned_kl,
            learned_pres_kl,
            count_prior_kl: count,
        })
    }

    /// Run `n_frames` (default all) frames of a clip `(B, T, 3, H, W)` from `state`. The backbone
    /// runs once on all frames; each frame then goes through [`Silot::step`].
    pub fn run_clip(
        &self,
        frames: &Tensor,
        state: CarriedState,
        ctx: &mut StepCtx,
        n_frames: Option<usize>,
    ) -> Result<ClipOutput> {
        let (b, t_all, c, h, w) = frames.dims5()?;
        let t_run = n_frames.unwrap_or(t_all).min(t_all);
        let frames = frames.narrow(1, 0, t_run)?;
        let v_bu = self.backbone(&frames.reshape((b * t_run, c, h, w))?, ctx.training)?;
        let (_, f, gh, gw) = v_bu.dims4()?;
        let v_bu = v_bu.reshape((b, t_run, f, gh, gw))?;
        let mut state = state;
        let mut reconstructions = Vec::with_capacity(t_run);
        let mut objects = Vec::with_capacity(t_run);
        let mut losses: Option<LossTerms> = None;
        for t in 0..t_run {
            let frame = frames.narrow(1, t, 1)?.squeeze(1)?;
            let feat = v_bu.narrow(1, t, 1)?.squeeze(1)?;
            let out = self.step(&frame, Some(&feat), &state, ctx)?;
            losses = Some(match losses {
                Some(l) => l.add(&out.losses)?,
                None => out.losses,
            });
            reconstructions.extend(out.reconstruction);
            objects.push(out.state.objects.clone());
            state = out.state;
        }
        let losses = match losses {
            Some(l) => l,
            None => zero_terms(&frames)?,
        };
        Ok(ClipOutput {
            state,
            reconstructions,
            objects,
            losses,
        })
    }
}

fn zero_terms(like: &Tensor) -> Result<LossTerms> {
    let z = Tensor::zeros((), like.dtype(), like.device())?;
    Ok(LossTerms {
        reconstruction: z.clone(),
        prop_kl: z.clone(),
        disc_kl: z.clone(),
        learned_kl: z.clone(),
        learned_pres_kl: z.clone(),
        count_prior_kl: z,
    })
}

fn to_dtype(o: &Objects, dt: DType) -> Result<Objects> {
    Ok(Objects {
        where_: o.where_.to_dtype(dt)?,
        abs_posn: o.abs_posn.to_dtype(dt)?,
        what: o.what.to_dtype(dt)?,
        depth: o.depth.to_dtype(dt)?,
        pres: o.pres.to_dtype(dt)?,
        size_logit: o.size_logit.to_dtype(dt)?,
        depth_logit: o.depth_logit.to_dtype(dt)?,
        prop_state: o.prop_state.to_dtype(dt)?,
        prior_prop_state: o.prior_prop_state.to_dtype(dt)?,
        ids: o.ids.clone(),
        is_new: o.is_new.clone(),
    })
}

/// The carried objects with presence decided ([`PresenceCarry::Binary`]): an object above 0.5
/// is carried as present (presence 1, every other attribute unchanged). One at or below is
/// gone: a tracked object (one that was not discovered at this step) becomes the null object,
/// so its slot is free and discovery sees nothing there; a low-presence discovery that only
/// filled a spare slot keeps its attributes with presence 0, as the spare slots of every
/// training step hold such leftovers. With `Dedup`, a present object that overlaps an older
/// present one (IoU ≥ [`DUPLICATE_IOU`]) is gone as well. `Product` changes nothing.
fn decide_presence(objects: &Objects, carry: PresenceCarry) -> Result<Objects> {
    if carry == PresenceCarry::Product {
        return Ok(objects.clone());
    }
    let pres = &objects.pres;
    let mut present = pres.gt(0.5)?.to_dtype(pres.dtype())?;
    let (b, n) = objects.dims()?;
    if matches!(carry, PresenceCarry::Dedup | PresenceCarry::Reid) {
        let duplicate = newer_duplicates(objects, &present)?;
        present = present.broadcast_mul(&duplicate.affine(-1.0, 1.0)?)?;
    }
    let new: Vec<f32> = objects
        .is_new
        .iter()
        .map(|&x| f32::from(u8::from(x)))
        .collect();
    let new = Tensor::from_vec(new, (b, n, 1), pres.device())?.to_dtype(pres.dtype())?;
    // (B, N, 1): 1 for present objects and this step's discoveries, 0 for tracked ones gone.
    let kept = present.maximum(&new)?;
    let m = |t: &Tensor| t.broadcast_mul(&kept);
    Ok(Objects {
        where_: m(&objects.where_)?,
        abs_posn: m(&objects.abs_posn)?,
        what: m(&objects.what)?,
        depth: m(&objects.depth)?,
        pres: present,
        size_logit: m(&objects.size_logit)?,
        depth_logit: m(&objects.depth_logit)?,
        prop_state: m(&objects.prop_state)?,
        prior_prop_state: m(&objects.prior_prop_state)?,
        ids: objects.ids.clone(),
        is_new: objects.is_new.clone(),
    })
}

/// `(B, N, 1)`: 1 for an object that overlaps an older present object of its set (a lower id,
/// IoU ≥ [`DUPLICATE_IOU`]; `present` `(B, N, 1)` of 0 / 1), else 0.
fn newer_duplicates(objects: &Objects, present: &Tensor) -> Result<Tensor> {
    let (b, n) = objects.dims()?;
    let ids: Vec<i64> = objects.ids.iter().map(|&id| id as i64).collect();
    let ids = Tensor::from_vec(ids, (b, n, 1), present.device())?;
    // (B, N, N): 1 where object j (dim 2) has a lower id than object i (dim 1).
    let older = ids.transpose(1, 2)?.broadcast_lt(&ids)?;
    let older = older.to_dtype(present.dtype())?;
    // Only a present j outranks (an absent i is dropped by its own presence anyway).
    let outranked = older.broadcast_mul(&present.transpose(1, 2)?)?;
    overlapping_any(&objects.where_, &outranked, DUPLICATE_IOU)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_presence_keeps_the_present_and_empties_the_gone() {
        let dev = Device::Cpu;
        let mut o = Objects::null(1, 4, 2, 3, &dev).unwrap();
        o.pres = Tensor::new(&[[[0.2f32], [0.5], [0.51], [1.0]]], &dev).unwrap();
        o.where_ = (Tensor::ones((1, 4, 4), DType::F32, &dev).unwrap() * 0.25).unwrap();
        o.ids = vec![3, 4, 5, 6];
        // Slot 1 was filled by this step's discovery (a low-presence spare), slot 0 tracked.
        o.is_new = vec![false, true, false, false];
        let p = |c| -> Vec<f32> {
            let d = decide_presence(&o, c).unwrap();
            d.pres.flatten_all().unwrap().to_vec1().unwrap()
        };
        assert_eq!(p(PresenceCarry::Binary), vec![0.0, 0.0, 1.0, 1.0]);
        assert_eq!(p(PresenceCarry::Product), vec![0.2, 0.5, 0.51, 1.0]);
        let d = decide_presence(&o, PresenceCarry::Binary).unwrap();
        assert_eq!(
            (d.ids.clone(), d.is_new.clone()),
            (o.ids.clone(), o.is_new.clone())
        );
        // The gone tracked object becomes the null object; the spare discovery and the present
        // objects keep their boxes.
        let w: Vec<f32> = d.where_.flatten_all().unwrap().to_vec1().unwrap();
        let expect: Vec<f32> = [0.0, 0.25, 0.25, 0.25]
            .iter()
            .flat_map(|&v| [v; 4])
            .collect();
        assert_eq!(w, expect);
    }

    #[test]
    fn dedup_keeps_the_oldest_of_overlapping_present_objects() {
        let dev = Device::Cpu;
        let mut o = Objects::null(2, 4, 2, 3, &dev).unwrap();
        // yt, xt, ys, xs. Row 0: slots 0 and 2 on one object (IoU 0.6), slot 2 the older id;
        // slot 1 overlaps slot 0 at IoU 1/7 (kept); slot 3 coincides with slot 0 but is absent.
        // Row 1: slots 0 and 1 coincide, both present, 1 older; 2 and 3 apart.
        let boxes = [
            [
                [1.5f32, 1.0, 2.0, 2.0],
                [3.0, 1.0, 2.0, 2.0],
                [1.0, 1.0, 2.0, 2.0],
                [1.5, 1.0, 2.0, 2.0],
            ],
            [
                [5.0, 5.0, 1.0, 1.0],
                [5.0, 5.0, 1.0, 1.0],
                [1.0, 1.0, 1.0, 1.0],
                [8.0, 8.0, 1.0, 1.0],
            ],
        ];
        o.where_ = Tensor::new(&boxes, &dev).unwrap();
        o.pres = Tensor::new(
            &[
                [[0.99f32], [0.9], [0.6], [0.4]],
                [[0.7], [0.8], [0.9], [1.0]],
            ],
            &dev,
        )
        .unwrap();
        o.ids = vec![7, 3, 5, 1, 12, 11, 2, 4];
        o.is_new = vec![false; 8];
        let pres = |c| -> Vec<f32> {
            let d = decide_presence(&o, c).unwrap();
            d.pres.flatten_all().unwrap().to_vec1().unwrap()
        };
        assert_eq!(
            pres(PresenceCarry::Binary),
            vec![1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0]
        );
        // The newer of each overlapping present pair is gone, whatever its presence.
        assert_eq!(
            pres(PresenceCarry::Dedup),
            vec![0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
        );
        // A gone duplicate is emptied like any gone tracked object; identities stay.
        let d = decide_presence(&o, PresenceCarry::Dedup).unwrap();
        let w: Vec<f32> = d.where_.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(&w[0..4], &[0.0; 4]);
        assert_eq!(&w[8..12], &[1.0, 1.0, 2.0, 2.0]);
        assert_eq!(d.ids, o.ids);
    }

    #[test]
    fn continued_streams_take_their_decided_objects_and_the_others_start_afresh() {
        let dev = Device::Cpu;
        let cfg = crate::model::RunConfig::from_toml(
            include_str!("../../envs/smoke.toml"),
            "envs/smoke.toml",
        )
        .unwrap()
        .model;
        let (_, model) = Silot::build(&cfg, 0, DType::F32, &dev).unwrap();
        let off = Tensor::new(&[[0.0f32, 0.0], [3.0, 6.0]], &dev).unwrap();
        let fresh = model.initial_state(2, 3, Some(&off), &dev).unwrap();
        let mut carried = model.initial_state(2, 3, None, &dev).unwrap();
        carried.objects.pres =
            Tensor::new(&[[[0.9f32], [0.2], [0.7]], [[1.0], [1.0], [1.0]]], &dev).unwrap();
        carried.objects.where_ = Tensor::ones((2, 3, 4), DType::F32, &dev).unwrap();
        carried.objects.ids = vec![1, 2, 3, 4, 5, 6];
        carried.next_id = vec![4, 7];
        carried.t = 8;
        carried.reid = vec![ReidMemory::with_lost(7), ReidMemory::with_lost(8)];
        let c = model
            .continue_streams(
                fresh.clone(),
                &carried,
                &[true, false],
                PresenceCarry::Binary,
            )
            .unwrap();
        let pres: Vec<f32> = c.objects.pres.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(pres, vec![1.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        // `dedup`: objects 0 and 2 of stream 0 share one box, and only the older (id 1) carries.
        let d = model
            .continue_streams(
                fresh.clone(),
                &carried,
                &[true, false],
                PresenceCarry::Dedup,
            )
            .unwrap();
        let pres: Vec<f32> = d.objects.pres.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(pres, vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let w: Vec<f32> = c.objects.where_.flatten_all().unwrap().to_vec1().unwrap();
        // Stream 0: its present objects keep their boxes, the gone tracked one is emptied;
        // stream 1: the null set.
        let row = |v: f32| [v; 4];
        let want: Vec<f32> = [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
            .iter()
            .flat_map(|&v| row(v))
            .collect();
        assert_eq!(w, want);
        assert_eq!(c.objects.ids, vec![1, 2, 3, 0, 0, 0]);
        assert_eq!(c.next_id, vec![4, 0]);
        // The `reid` memory goes on with its stream; a fresh stream remembers nothing.
        let lost: Vec<Vec<u64>> = c.reid.iter().map(|m| m.lost_ids()).collect();
        assert_eq!(lost, vec![vec![7], vec![]]);
        assert_eq!(
            c.t, 0,
            "a fresh stream: no discovery dropout at the first frame"
        );
        let o: Vec<f32> = c.offset.flatten_all().unwrap().to_vec1().unwrap();
        let f: Vec<f32> = fresh.offset.flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(o, f);
        let all = model
            .continue_streams(
                fresh.clone(),
                &carried,
                &[true, true],
                PresenceCarry::Binary,
            )
            .unwrap();
        assert_eq!((all.t, all.next_id.clone()), (8, vec![4, 7]));
        let none = model
            .continue_streams(fresh, &carried, &[false, false], PresenceCarry::Binary)
            .unwrap();
        assert_eq!(none.objects.ids, vec![0; 6]);
        assert!(model
            .continue_streams(none.clone(), &carried, &[true], PresenceCarry::Binary)
            .is_err());
    }
}
