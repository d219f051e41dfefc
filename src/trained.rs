//! Trained SILOT models: finding and loading a run directory's checkpoint
//! ([`load_trained_from`], through [`crate::checkpoint`]), checking it against an env, and SILOT
//! as a [`Tracker`]: a trained model tracks whole clips; every selected slot is reported with
//! `score = pres` and its persistent slot identity.
//!
//! This sits above the model and the checkpoint format (the model knows neither checkpoints nor
//! the trainer); `silot eval`, the object-centric wrapper and the examples use it.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use crate::checkpoint::{check_env_matches, EnvRecord};
use crate::env::{EnvSpec, Frame};
use crate::error::{Error, Result};
use crate::model::config::{PresenceCarry, RunConfig};
use crate::model::objects::coords_to_pixel_space;
use crate::model::silot::{Silot, StepCtx};
use crate::track::{TrackedObject, Tracker};

/// A trained SILOT model used for tracking (offline, one clip at a time).
pub struct SilotTracker {
    model: Silot,
    cfg: RunConfig,
    device: Device,
    seed: u64,
    checkpoint: PathBuf,
    step: u64,
    env: Option<EnvRecord>,
    prior_from: Option<usize>,
    // Keeps the parameters alive (the model holds tensors that alias them).
    _varmap: candle_nn::VarMap,
}

/// Which checkpoint of a run directory to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WhichCheckpoint {
    /// The latest complete one (`checkpoint/`), where training stopped.
    #[default]
    Latest,
    /// The best validation's (`best/`, of the stage recorded in it).
    Best,
}

/// The checkpoint directory inside a run directory: the latest `checkpoint/`; a checkpoint
/// directory itself (e.g. `kept/step-N/`, an average) is accepted too.
pub fn checkpoint_dir(run_dir: &Path) -> Result<PathBuf> {
    checkpoint_dir_of(run_dir, WhichCheckpoint::Latest)
}

/// The checkpoint directory `which` names inside `run_dir` (for [`WhichCheckpoint::Latest`] a
/// checkpoint directory itself is accepted too). A save interrupted half-way is no problem: the
/// complete set it left is read ([`crate::checkpoint::readable_dir`]).
pub fn checkpoint_dir_of(run_dir: &Path, which: WhichCheckpoint) -> Result<PathBuf> {
    use crate::checkpoint::exists;
    let candidates = match which {
        WhichCheckpoint::Latest => vec![run_dir.join("checkpoint"), run_dir.to_path_buf()],
        WhichCheckpoint::Best => vec![run_dir.join("best")],
    };
    if let Some(dir) = candidates.into_iter().find(|d| exists(d)) {
        return Ok(dir);
    }
    let msg = match which {
        WhichCheckpoint::Latest => {
            "no checkpoint here (expected checkpoint/ with state.json, or a checkpoint directory); \
             train with `silot train --out DIR` first"
        }
        WhichCheckpoint::Best => {
            "no best/ checkpoint here (the run has not validated with an improvement yet); leave \
             out --best to use the latest checkpoint"
        }
    };
    Err(Error::Checkpoint {
        path: run_dir.to_path_buf(),
        msg: msg.into(),
    })
}

/// A trained model: its run config, the model, the parameters it aliases (keep the `VarMap`
/// alive as long as the model), and where they came from.
pub struct TrainedSilot {
    /// The run config saved with the checkpoint.
    pub cfg: RunConfig,
    /// The model.
    pub model: Silot,
    /// Its parameters.
    pub varmap: candle_nn::VarMap,
    /// The checkpoint directory read ([`checkpoint_dir`]).
    pub checkpoint: PathBuf,
    /// The training step of that checkpoint.
    pub step: u64,
    /// The env the model was trained on (`None`: not recorded, a checkpoint of an older version).
    pub env: Option<EnvRecord>,
}

/// Load the model of `run_dir` ([`checkpoint_dir`]: its `config.toml` and weights) onto
/// `device`, in f32. Errors name the missing or mismatched file.
pub fn load_trained(run_dir: &Path, device: &Device) -> Result<TrainedSilot> {
    load_trained_from(run_dir, WhichCheckpoint::Latest, device)
}

/// [`load_trained`] from the checkpoint `which` names ([`checkpoint_dir_of`]).
pub fn load_trained_from(
    run_dir: &Path,
    which: WhichCheckpoint,
    device: &Device,
) -> Result<TrainedSilot> {
    let ckpt = checkpoint_dir_of(run_dir, which)?;
    let meta = crate::checkpoint::read_meta(&ckpt)?;
    let origin = ckpt.join("config.toml").display().to_string();
    let cfg = RunConfig::from_toml(&meta.config_toml, &origin)?;
    let (varmap, model) = Silot::build(&cfg.model, cfg.train.seed, DType::F32, device)?;
    let meta = crate::checkpoint::load_checkpoint(&ckpt, &varmap, None, Some(&meta.config_toml))?;
    Ok(TrainedSilot {
        cfg,
        model,
        varmap,
        checkpoint: ckpt,
        step: meta.step,
        env: meta.env,
    })
}

/// Checks that the model in `run_dir` (the checkpoint `which` names) was trained on the env
/// `spec` describes ([`check_env_matches`]: an error naming both unless `allow`; a checkpoint
/// that records no env is accepted). For the commands and wrappers that run a trained model on
/// an env.
pub fn check_run_env(
    run_dir: &Path,
    which: WhichCheckpoint,
    spec: &EnvSpec,
    allow: bool,
) -> Result<()> {
    let ckpt = checkpoint_dir_of(run_dir, which)?;
    let recorded = crate::checkpoint::recorded_env(&ckpt)?;
    if recorded.is_none() && allow {
        return Ok(());
    }
    check_env_matches(recorded.as_ref(), &EnvRecord::of_spec(spec)?, allow, &ckpt)
}

impl SilotTracker {
    /// Load the model of `run_dir` (its `config.toml` and checkpoint) onto `device`. `seed`
    /// drives latent sampling where the config samples at evaluation (`eval_noisy`).
    pub fn load(run_dir: &Path, device: &Device, seed: u64) -> Result<Self> {
        Self::load_from(run_dir, WhichCheckpoint::Latest, device, seed)
    }

    /// [`SilotTracker::load`] from the checkpoint `which` names ([`checkpoint_dir_of`]).
    pub fn load_from(
        run_dir: &Path,
        which: WhichCheckpoint,
        device: &Device,
        seed: u64,
    ) -> Result<Self> {
        let t = load_trained_from(run_dir, which, device)?;
        Ok(Self {
            env: t.env,
            model: t.model,
            cfg: t.cfg,
            device: device.clone(),
            seed,
            checkpoint: t.checkpoint,
            step: t.step,
            prior_from: None,
            _varmap: t.varmap,
        })
    }

    /// Track in the paper's prior mode (its appendix, silot-reference §2.4): the model as trained
    /// for frames `0..t`, then from frame `t` on the learned prior propagates the objects alone
    /// (no frame seen, discovery off); `None`: the posterior throughout (the default). An error
    /// for `t = 0` (nothing would be found) and for a model trained without a learned prior.
    pub fn set_prior_from(&mut self, t: Option<usize>) -> Result<()> {
        if let Some(t) = t {
            if t == 0 {
                return Err(Error::Invalid(
                    "--prior-from 0: the prior propagates objects the posterior found, so it \
                     needs at least one posterior frame (the paper used 3)"
                        .into(),
                ));
            }
            if !self.cfg.model.learn_prior {
                return Err(Error::Invalid(format!(
                    "--prior-from needs a model trained with a learned prior; {} has \
                     `learn_prior = false` in its config",
                    self.checkpoint.display()
                )));
            }
        }
        self.prior_from = t;
        Ok(())
    }

    /// The checkpoint directory the weights were read from, and its training step.
    pub fn checkpoint(&self) -> (&Path, u64) {
        (&self.checkpoint, self.step)
    }

    /// Change how presence is carried from frame to frame ([`PresenceCarry`]; the model
    /// config's `eval_presence_carry` otherwise).
    pub fn set_presence_carry(&mut self, carry: PresenceCarry) {
        self.model.set_eval_presence_carry(carry);
        self.cfg.model.eval_presence_carry = carry;
    }

    /// Sample the latents (`true`) or take their means at evaluation (the model config's
    /// `eval_noisy` otherwise).
    pub fn set_eval_noisy(&mut self, noisy: bool) {
        self.model.set_eval_noisy(noisy);
        self.cfg.model.eval_noisy = noisy;
    }

    /// The env the model was trained on, as its checkpoint records it (`None`: unknown).
    pub fn trained_env(&self) -> Option<&EnvRecord> {
        self.env.as_ref()
    }

    /// The model's config.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }
}

impl Tracker for SilotTracker {
    fn name(&self) -> &str {
        "silot"
    }

    fn track_clip(&mut self, frames: &[Frame]) -> Result<Vec<Vec<TrackedObject>>> {
        ModelTracker::new(&self.model, &self.device, self.seed)
            .prior_from(self.prior_from)
            .track_clip(frames)
    }
}

/// A model in memory (e.g. the trainer's, during validation) as a [`Tracker`], exactly as
/// [`SilotTracker`] runs a loaded one: one clip at a time, `n_objects_eval` slots, pure encoding
/// with the noise of `seed` (the same for every clip), optionally in prior mode
/// ([`SilotTracker::set_prior_from`]; the caller checks the model has a learned prior).
pub struct ModelTracker<'a> {
    model: &'a Silot,
    device: &'a Device,
    seed: u64,
    prior_from: Option<usize>,
}

impl<'a> ModelTracker<'a> {
    /// `model` (its parameters on `device`) tracking with the noise of `seed`, posterior only.
    pub fn new(model: &'a Silot, device: &'a Device, seed: u64) -> Self {
        Self {
            model,
            device,
            seed,
            prior_from: None,
        }
    }

    /// Track in prior mode from frame `t` (`None`: the posterior throughout).
    pub fn prior_from(mut self, t: Option<usize>) -> Self {
        self.prior_from = t;
        self
    }
}

impl Tracker for ModelTracker<'_> {
    fn name(&self) -> &str {
        "silot"
    }

    fn track_clip(&mut self, frames: &[Frame]) -> Result<Vec<Vec<TrackedObject>>> {
        if frames.is_empty() {
            return Ok(Vec::new());
        }
        let x = clip_tensor(frames, self.device)?; // (1, T, 3, H, W)
        let cfg = self.model.config();
        let k = cfg.eval_objects();
        let state = self.model.initial_state(1, k, None, self.device)?;
        let mut ctx = StepCtx::encode(self.seed);
        ctx.prior_start = self.prior_from;
        let out = self.model.run_clip(&x, state, &mut ctx, None)?;
        let anchor = cfg.anchor;
        out.objects
            .iter()
            .map(|objs| {
                let boxes = coords_to_pixel_space(&objs.where_, anchor)?;
                let pres = objs
                    .pres
                    .to_dtype(DType::F32)?
                    .flatten_all()?
                    .to_vec1::<f32>()?;
                Ok(boxes[0]
                    .iter()
                    .zip(&pres)
                    .zip(&objs.ids)
                    .map(|((b, &score), &id)| TrackedObject {
                        id,
                        top: b.top,
                        left: b.left,
                        bottom: b.top + b.height,
                        right: b.left + b.width,
                        score,
                    })
                    .collect())
            })
            .collect()
    }
}

/// One clip of RGB frames `(H, W, 3)` u8 as the model's input `(1, T, 3, H, W)` f32 in [0, 1] on
/// `device`; an empty clip, or frames of different sizes or channel counts, are an error.
pub fn clip_tensor(frames: &[Frame], device: &Device) -> Result<Tensor> {
    let Some(first) = frames.first() else {
        return Err(Error::Invalid(
            "SILOT needs at least one frame per clip".into(),
        ));
    };
    let (h, w, c) = first.dim();
    if c != 3 || frames.iter().any(|f| f.dim() != (h, w, c)) {
        return Err(Error::Invalid(format!(
            "SILOT tracks RGB clips of equal-sized frames; got {:?}",
            frames.iter().map(|f| f.dim()).collect::<Vec<_>>()
        )));
    }
    let data: Vec<u8> = frames.iter().flat_map(|f| f.iter().copied()).collect();
    let x = Tensor::from_vec(data, (1, frames.len(), h, w, c), device)?
        .to_dtype(DType::F32)?
        .affine(1.0 / 255.0, 0.0)?
        .permute((0, 1, 4, 2, 3))?
        .contiguous()?;
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A freshly initialised smoke-sized model as a tracker (no checkpoint).
    fn smoke_tracker(learn_prior: bool) -> SilotTracker {
        let mut cfg =
            RunConfig::from_toml(include_str!("../envs/smoke.toml"), "envs/smoke.toml").unwrap();
        cfg.model.learn_prior = learn_prior;
        let device = Device::Cpu;
        let (varmap, model) = Silot::build(&cfg.model, 3, DType::F32, &device).unwrap();
        SilotTracker {
            model,
            cfg,
            device,
            seed: 1,
            checkpoint: PathBuf::from("untrained"),
            step: 0,
            env: None,
            prior_from: None,
            _varmap: varmap,
        }
    }

    #[test]
    fn prior_mode_keeps_the_posterior_frames_and_discovers_nothing_after() {
        let smoke = crate::config::load_experiment("smoke").unwrap();
        let clip = crate::eval_protocol::eval_clips(&smoke, 1, 4).unwrap();
        let frames = &clip[0].frames;
        let mut tr = smoke_tracker(true);
        let posterior = tr.track_clip(frames).unwrap();
        tr.set_prior_from(Some(2)).unwrap();
        let prior = tr.track_clip(frames).unwrap();
        // Frames before T are the posterior's, bit for bit; from T on the prior moves them.
        assert_eq!(prior[..2], posterior[..2]);
        assert_ne!(prior[2..], posterior[2..]);
        // Discovery is off from T: every object present later was found before T.
        let seen: Vec<u64> = prior[..2].iter().flatten().map(|o| o.id).collect();
        for o in prior[2..].iter().flatten().filter(|o| o.score > 0.0) {
            assert!(
                seen.contains(&o.id),
                "object {} appeared in prior mode",
                o.id
            );
        }
        tr.set_prior_from(None).unwrap();
        assert_eq!(tr.track_clip(frames).unwrap(), posterior);
        let e = tr.set_prior_from(Some(0)).unwrap_err().to_string();
        assert!(e.contains("--prior-from 0"), "{e}");
        let e = smoke_tracker(false)
            .set_prior_from(Some(3))
            .unwrap_err()
            .to_string();
        assert!(e.contains("learn_prior = false"), "{e}");
    }
}
