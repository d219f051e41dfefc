//! [`ObjectEncoder`]: a trained SILOT model run online over `B` frame streams at once, one
//! model step per frame, carrying each stream's objects from step to step.

use std::path::Path;

use candle_core::{DType, Device, Tensor, D};
use ndarray::{Array2, Array3, ArrayView4};

use super::objects::ObjectBatch;
use crate::checkpoint::EnvRecord;
use crate::error::{Error, Result};
use crate::model::objects::pixel_box;
use crate::model::reid::ReidMemory;
use crate::model::{CarriedState, PresenceCarry, RunConfig, Silot, StepCtx};
use crate::seed::mix_seed;
use crate::trained::load_trained;

/// Keys the latent noise of [`ObjectEncoder::restart`] apart from that of the regular steps.
const RESTART_SEED: u64 = 0x05ee_d4e5_7a47;

/// SILOT as an online encoder: frames in, fixed-`K` object sets out.
///
/// Streams are independent (one env each); a stream whose episode starts again is reset to the
/// empty object set, the others carry on. The model runs in evaluation mode (no loss, no
/// reconstruction, latents at their means unless the config sets `eval_noisy`), batched over
/// streams on the model's device. `K` is the config's evaluation slot count
/// (`n_objects_eval`, else `n_objects`).
pub struct ObjectEncoder {
    model: Silot,
    cfg: RunConfig,
    device: Device,
    state: Option<CarriedState>,
    seed: u64,
    steps: u64,
    /// The env its checkpoint records it was trained on (`None`: unknown).
    trained_env: Option<EnvRecord>,
    /// Run on envs other than `trained_env` (see [`Self::allow_env_mismatch`]).
    any_env: bool,
    // Keeps the parameters alive (the model's tensors alias them).
    _varmap: candle_nn::VarMap,
}

impl std::fmt::Debug for ObjectEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectEncoder")
            .field("device", &self.device)
            .field("slots", &self.n_slots())
            .field("steps", &self.steps)
            .finish()
    }
}

impl ObjectEncoder {
    /// The trained model of run directory `run_dir` (`best/` or `checkpoint/` inside it, or a
    /// checkpoint directory) on `device`. `seed` keys latent noise if the config samples at
    /// evaluation (`eval_noisy`); otherwise outputs do not depend on it.
    pub fn load(run_dir: &Path, device: &Device, seed: u64) -> Result<Self> {
        let t = load_trained(run_dir, device)?;
        let mut encoder = Self::from_model(t.model, t.varmap, t.cfg, device, seed);
        encoder.trained_env = t.env;
        Ok(encoder)
    }

    /// A shipped encoder by name (`"space_invaders"`: `models/space_invaders/`, see
    /// [`crate::models`]), or a run or checkpoint directory, its files checked against its
    /// manifest; otherwise as [`Self::load`].
    pub fn load_named(name: &str, device: &Device, seed: u64) -> Result<Self> {
        Self::load(&crate::models::resolve(Path::new(name))?, device, seed)
    }

    /// An encoder around a model already built on `device` (e.g. fresh from
    /// [`Silot::build`] in tests); `varmap` holds its parameters.
    pub fn from_model(
        model: Silot,
        varmap: candle_nn::VarMap,
        cfg: RunConfig,
        device: &Device,
        seed: u64,
    ) -> Self {
        Self {
            model,
            cfg,
            device: device.clone(),
            state: None,
            seed,
            steps: 0,
            trained_env: None,
            any_env: false,
            _varmap: varmap,
        }
    }

    /// The env the model was trained on, as its checkpoint records it (`None`: unknown, e.g. a
    /// checkpoint of an older version or a model built in memory).
    pub fn trained_env(&self) -> Option<&EnvRecord> {
        self.trained_env.as_ref()
    }

    /// Let the object-centric envs run this encoder on an env other than the one it was
    /// trained on (refused by default: a model is only meaningful on frames like its own).
    pub fn allow_env_mismatch(&mut self) {
        self.any_env = true;
    }

    /// Checks that frames of shape `shape` from env `id` suit the model: the frame shape its
    /// checkpoint records, unless [`Self::allow_env_mismatch`] was called or nothing is
    /// recorded. (An env's own id need not be the experiment id a checkpoint records, so only
    /// the frames are compared here; `silot eval` and `observe` compare the whole record.)
    pub fn check_env(&self, id: &str, shape: Option<[usize; 3]>) -> Result<()> {
        match &self.trained_env {
            Some(r) if !self.any_env && Some(r.frame) != shape => Err(Error::Invalid(format!(
                "the encoder was trained on {r} but env `{id}` gives {shape:?} frames; wrap \
                 the env it was trained on (an Atari game with its training preset), or call \
                 ObjectEncoder::allow_env_mismatch to use it anyway"
            ))),
            _ => Ok(()),
        }
    }

    /// The model's run config.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// Change how presence is carried from step to step ([`PresenceCarry`]; the model config's
    /// `eval_presence_carry` otherwise).
    pub fn set_presence_carry(&mut self, carry: PresenceCarry) {
        self.model.set_eval_presence_carry(carry);
        self.cfg.model.eval_presence_carry = carry;
    }

    /// Sample the latents (`true`) or take their means (the model config's `eval_noisy`
    /// otherwise).
    pub fn set_eval_noisy(&mut self, noisy: bool) {
        self.model.set_eval_noisy(noisy);
        self.cfg.model.eval_noisy = noisy;
    }

    /// Object slots per stream `K`.
    pub fn n_slots(&self) -> usize {
        self.cfg.model.eval_objects()
    }

    /// Width of the appearance code `A`.
    pub fn n_what(&self) -> usize {
        self.cfg.model.n_what
    }

    /// Forget every stream (the next [`Self::encode`] starts all of them afresh).
    pub fn reset(&mut self) {
        self.state = None;
    }

    /// The encoder as freshly built: every stream forgotten, object ids counted from 0 again
    /// and the latent noise sequence (`eval_noisy`) restarted. A seeded env reset does this, so
    /// that the same seed and actions give the same objects and ids.
    pub fn rewind(&mut self) {
        self.state = None;
        self.steps = 0;
    }

    /// One model step on `frames (B, H, W, 3)` (RGB bytes, one frame per stream). Streams with
    /// `new_episode[b]` start from the empty object set; all streams do on the first call, after
    /// [`Self::reset`], or when `B` changes.
    pub fn encode(
        &mut self,
        frames: ArrayView4<'_, u8>,
        new_episode: &[bool],
    ) -> Result<ObjectBatch> {
        let (b, h, w, c) = frames.dim();
        if c != 3 || b == 0 || h == 0 || w == 0 {
            return Err(Error::Invalid(format!(
                "ObjectEncoder::encode takes (B, H, W, 3) RGB frames with B, H, W > 0, got {:?}; \
                 wrap grayscale or resized envs before the object-centric wrapper",
                frames.shape()
            )));
        }
        if new_episode.len() != b {
            return Err(Error::Invalid(format!(
                "ObjectEncoder::encode: {} new-episode flags for {b} frames; pass one per stream",
                new_episode.len()
            )));
        }
        let x = self.frames_tensor(frames)?; // (B, 3, H, W) in [0, 1]
        let state = match self.state.take() {
            Some(mut s) if s.objects.dims()?.0 == b => {
                for (memory, _) in s.reid.iter_mut().zip(new_episode).filter(|(_, &new)| new) {
                    *memory = ReidMemory::default();
                }
                CarriedState {
                    objects: s.objects.reset_streams(new_episode)?,
                    ..s
                }
            }
            _ => self
                .model
                .initial_state(b, self.n_slots(), None, &self.device)?,
        };
        let mut ctx = StepCtx::encode(mix_seed(self.seed, self.steps));
        let out = self.model.step(&x, None, &state, &mut ctx)?;
        self.steps += 1;
        // Detach: the carried objects must not keep every past step's graph alive.
        let state = out.state.detach();
        let batch = self.read_out(&state, (h, w))?;
        self.state = Some(state);
        Ok(batch)
    }

    /// Restart streams `rows` at the first frames of their new episodes, `frames (M, H, W, 3)`
    /// (row `j` for stream `rows[j]`): one model step from the empty object set on those
    /// streams only (ids continue each stream's count); the other streams keep their objects.
    /// Returns every stream's objects. Used where a stream's last frame was encoded in the
    /// same env step as its next episode's first (`SameStep` autoreset).
    pub fn restart(&mut self, frames: ArrayView4<'_, u8>, rows: &[usize]) -> Result<ObjectBatch> {
        let (m, h, w, c) = frames.dim();
        let Some(state) = self.state.as_ref() else {
            return Err(Error::Invalid(
                "ObjectEncoder::restart before the first encode".into(),
            ));
        };
        let (b, _) = state.objects.dims()?;
        let mut pos = vec![None; b];
        for (j, &r) in rows.iter().enumerate() {
            if r >= b || pos[r].is_some() || m != rows.len() || c != 3 {
                return Err(Error::Invalid(format!(
                    "ObjectEncoder::restart: rows {rows:?} must be distinct streams below {b}, \
                     one per RGB frame (got frames of shape {:?})",
                    frames.shape()
                )));
            }
            pos[r] = Some(j);
        }
        if rows.is_empty() {
            return Err(Error::Invalid(
                "ObjectEncoder::restart: no streams to restart".into(),
            ));
        }
        let x = self.frames_tensor(frames)?;
        let mut fresh = self
            .model
            .initial_state(m, self.n_slots(), None, &self.device)?;
        fresh.next_id = rows.iter().map(|&r| state.next_id[r]).collect();
        let mut ctx = StepCtx::encode(mix_seed(self.seed ^ RESTART_SEED, self.steps));
        let sub = self.model.step(&x, None, &fresh, &mut ctx)?.state.detach();
        // Row r of the merged state: row pos[r] of `sub` if restarted, else row r of `state`.
        let pick: Vec<u32> = (0..b).map(|r| pos[r].map_or(r, |j| b + j) as u32).collect();
        let pick = Tensor::from_vec(pick, b, &self.device)?;
        let merge = |a: &Tensor, z: &Tensor| -> candle_core::Result<Tensor> {
            Tensor::cat(&[a, z], 0)?.index_select(&pick, 0)
        };
        let (o, z) = (&state.objects, &sub.objects);
        let k = self.n_slots();
        // Host fields: slot rows `k` wide, picked as the tensors' rows.
        fn pick_rows<T: Copy>(a: &[T], z: &[T], pos: &[Option<usize>], k: usize) -> Vec<T> {
            pos.iter()
                .enumerate()
                .flat_map(|(r, p)| match p {
                    Some(j) => &z[j * k..(j + 1) * k],
                    None => &a[r * k..(r + 1) * k],
                })
                .copied()
                .collect()
        }
        let objects = o.zip_tensors(
            z,
            merge,
            pick_rows(&o.ids, &z.ids, &pos, k),
            pick_rows(&o.is_new, &z.is_new, &pos, k),
        )?;
        let next_id = (0..b)
            .map(|r| pos[r].map_or(state.next_id[r], |j| sub.next_id[j]))
            .collect();
        // `reid` memories (empty under the other carries): the restarted streams' from `sub`.
        let reid = if state.reid.is_empty() {
            Vec::new()
        } else {
            (0..b)
                .map(|r| pos[r].map_or_else(|| state.reid[r].clone(), |j| sub.reid[j].clone()))
                .collect()
        };
        let merged = CarriedState {
            objects,
            next_id,
            reid,
            t: state.t,
            offset: merge(&state.offset, &sub.offset)?,
        };
        let batch = self.read_out(&merged, (h, w))?;
        self.state = Some(merged);
        Ok(batch)
    }

    fn frames_tensor(&self, frames: ArrayView4<'_, u8>) -> Result<Tensor> {
        let (b, h, w, c) = frames.dim();
        // Contiguous frames (the vector env's buffer) go to the device without a host copy.
        let x = match frames.as_slice() {
            Some(s) => Tensor::from_slice(s, (b, h, w, c), &self.device)?,
            None => Tensor::from_vec(frames.iter().copied().collect(), (b, h, w, c), &self.device)?,
        };
        Ok(x.to_dtype(DType::F32)?
            .affine(1.0 / 255.0, 0.0)?
            .permute((0, 3, 1, 2))?
            .contiguous()?)
    }

    /// The selected objects as host arrays (one device-to-host copy).
    fn read_out(&self, state: &CarriedState, frame_hw: (usize, usize)) -> Result<ObjectBatch> {
        let o = &state.objects;
        let (b, k) = o.dims()?;
        let a = self.n_what();
        // (B, K, 4 + 1 + 1 + A): where (anchor units), pres, depth, what.
        let packed = Tensor::cat(&[&o.where_, &o.pres, &o.depth, &o.what], D::Minus1)?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let width = 6 + a;
        let mut pres = Array2::zeros((b, k));
        let mut boxes = Array3::zeros((b, k, 4));
        let mut depth = Array2::zeros((b, k));
        let mut what = Array3::zeros((b, k, a));
        for (i, row) in packed.chunks_exact(width).enumerate() {
            let (bi, ki) = (i / k, i % k);
            let pb = pixel_box([row[0], row[1], row[2], row[3]], self.cfg.model.anchor);
            for (j, v) in [pb.top, pb.left, pb.height, pb.width]
                .into_iter()
                .enumerate()
            {
                boxes[[bi, ki, j]] = v;
            }
            pres[[bi, ki]] = row[4];
            depth[[bi, ki]] = row[5];
            for (j, &v) in row[6..].iter().enumerate() {
                what[[bi, ki, j]] = v;
            }
        }
        let shape = (b, k);
        let ids = Array2::from_shape_vec(shape, o.ids.clone())
            .map_err(|e| Error::Invalid(format!("object ids: {e}")))?;
        let is_new = Array2::from_shape_vec(shape, o.is_new.clone())
            .map_err(|e| Error::Invalid(format!("object flags: {e}")))?;
        Ok(ObjectBatch {
            pres,
            boxes,
            depth,
            what,
            ids,
            is_new,
            frame_hw,
        })
    }
}
