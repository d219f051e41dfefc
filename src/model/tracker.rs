//! SILOT as a [`Tracker`]: a trained model from a run directory tracks whole clips; every
//! selected slot is reported with `score = pres` and its persistent slot identity.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use super::config::RunConfig;
use super::objects::coords_to_pixel_space;
use super::silot::{Silot, StepCtx};
use crate::env::Frame;
use crate::error::{Error, Result};
use crate::track::{TrackedObject, Tracker};

/// A trained SILOT model used for tracking (offline, one clip at a time).
pub struct SilotTracker {
    model: Silot,
    cfg: RunConfig,
    device: Device,
    seed: u64,
    checkpoint: PathBuf,
    step: u64,
    // Keeps the parameters alive (the model holds tensors that alias them).
    _varmap: candle_nn::VarMap,
}

/// The checkpoint directory inside a run directory: `best/` if training validated, else the
/// latest `checkpoint/`; a checkpoint directory itself is accepted too.
pub fn checkpoint_dir(run_dir: &Path) -> Result<PathBuf> {
    for dir in [
        run_dir.join("best"),
        run_dir.join("checkpoint"),
        run_dir.to_path_buf(),
    ] {
        if dir.join("state.json").exists() {
            return Ok(dir);
        }
    }
    Err(Error::Checkpoint {
        path: run_dir.to_path_buf(),
        msg: "no checkpoint here (expected best/ or checkpoint/ with state.json); train with \
              `silot train --out DIR` first"
            .into(),
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
}

/// Load the model of `run_dir` ([`checkpoint_dir`]: its `config.toml` and weights) onto
/// `device`, in f32. Errors name the missing or mismatched file.
pub fn load_trained(run_dir: &Path, device: &Device) -> Result<TrainedSilot> {
    let ckpt = checkpoint_dir(run_dir)?;
    let cfg_path = ckpt.join("config.toml");
    let text = std::fs::read_to_string(&cfg_path).map_err(|e| Error::io(&cfg_path, e))?;
    let cfg = RunConfig::from_toml(&text, &cfg_path.display().to_string())?;
    let (varmap, model) = Silot::build(&cfg.model, cfg.train.seed, DType::F32, device)?;
    let meta = crate::train::checkpoint::load_checkpoint(&ckpt, &varmap, None, Some(&text))?;
    Ok(TrainedSilot {
        cfg,
        model,
        varmap,
        checkpoint: ckpt,
        step: meta.step,
    })
}

impl SilotTracker {
    /// Load the model of `run_dir` (its `config.toml` and checkpoint) onto `device`. `seed`
    /// drives latent sampling where the config samples at evaluation (`eval_noisy`).
    pub fn load(run_dir: &Path, device: &Device, seed: u64) -> Result<Self> {
        let t = load_trained(run_dir, device)?;
        Ok(Self {
            model: t.model,
            cfg: t.cfg,
            device: device.clone(),
            seed,
            checkpoint: t.checkpoint,
            step: t.step,
            _varmap: t.varmap,
        })
    }

    /// The checkpoint directory the weights were read from, and its training step.
    pub fn checkpoint(&self) -> (&Path, u64) {
        (&self.checkpoint, self.step)
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
        if frames.is_empty() {
            return Ok(Vec::new());
        }
        let x = clip_tensor(frames, &self.device)?; // (1, T, 3, H, W)
        let k = self.cfg.model.eval_objects();
        let state = self.model.initial_state(1, k, None, &self.device)?;
        let mut ctx = StepCtx::encode(self.seed);
        let out = self.model.run_clip(&x, state, &mut ctx, None)?;
        let anchor = self.cfg.model.anchor;
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
