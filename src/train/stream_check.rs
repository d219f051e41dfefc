//! A label-free look at streams during training (`train.val_streams`, docs/streams.md): at every
//! validation, the trainer's current model runs `val_streams` envs of the validation split for
//! `val_stream_frames` frames through the object-centric wrapper (as `silot observe` runs a
//! shipped encoder: the model's `eval_presence_carry`, one step per frame, episodes that end
//! restarting), and the `val` line of `metrics.jsonl` gets what the objects did over the stream:
//! how many are counted in its first and its last tenth, how many identities are born per
//! frame, how many pairs overlap. An encoder that loses its objects along a stream, churns its
//! identities or holds objects twice shows it here, without labels and on every env.
//!
//! The streams are the same at every validation (envs reset and policy seeded from
//! `train.val_seed`), and the check draws nothing from the training's random streams: a run
//! trains the same weights with the check on or off.

use serde::{Deserialize, Serialize};

use crate::config::{EnvSection, ExperimentConfig};
use crate::env::synthetic::Split;
use crate::env::vector::VectorEnv;
use crate::env::{registry, Env};
use crate::error::{Error, Result};
use crate::eval::{births, overlapping_pairs, BBox};
use crate::model::config::RunConfig;
use crate::seed::mix_seed;
use crate::streams::{env_threads, tracked_objects, RandomPolicy};
use crate::track::TrackedObject;
use crate::wrapper::{ObjectBatch, ObjectCentricVecEnv, ObjectEncoder};

use super::validation::{BoxedValidator, Validation, Validator};
use super::Trainer;

/// Stream of [`mix_seed`] for the check's env and policy seed.
const STREAM_CHECK_SEED: u64 = 0x5354_5245_414d; // "STREAM"

/// IoU at or above which two counted objects of one frame are an overlapping pair (as
/// [`super::ObjectStats::overlapping_pairs_per_frame`] and `silot eval`).
const OVERLAP_IOU: f64 = 0.5;

/// What the objects did over the check's streams (all label-free; "counted": presence > 0.5,
/// what the count error counts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct StreamCheck {
    /// Frames per stream.
    pub frames: usize,
    /// Counted objects per frame in the first tenth of the frames (at least one frame).
    pub objects_first: f64,
    /// Counted objects per frame in the last tenth: far below `objects_first` when objects are
    /// lost along a stream.
    pub objects_last: f64,
    /// Identities counted for the first time, per frame after the first (a new discovery, or a
    /// tracked object lost and found again under a new identity).
    pub births_per_frame: f64,
    /// Pairs of counted objects overlapping with IoU ≥ 0.5, per frame (objects held twice).
    pub overlapping_pairs_per_frame: f64,
}

/// Running sums of [`StreamCheck`] over the steps of `B` streams.
#[derive(Debug, Clone)]
pub struct StreamSums {
    frames: usize,
    window: usize,
    t: usize,
    /// Per stream: the ids counted at the previous frame.
    last_ids: Vec<Vec<u64>>,
    first: f64,
    last: f64,
    births: f64,
    pairs: f64,
    /// One stream's counted boxes of the frame, and [`overlapping_pairs`]' scratch.
    boxes: Vec<BBox>,
    scratch: Vec<usize>,
}

impl StreamSums {
    /// Sums for `streams` streams of `frames` frames.
    pub fn new(streams: usize, frames: usize) -> Self {
        Self {
            frames,
            window: (frames / 10).max(1),
            t: 0,
            last_ids: vec![Vec::new(); streams],
            first: 0.0,
            last: 0.0,
            births: 0.0,
            pairs: 0.0,
            boxes: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Add the wrapper's objects of the next frame of every stream.
    pub fn push(&mut self, objects: &ObjectBatch) {
        for (s, last) in self.last_ids.iter_mut().enumerate() {
            let counted: Vec<TrackedObject> = tracked_objects(objects, s)
                .into_iter()
                .filter(|o| o.score > 0.5)
                .collect();
            let n = counted.len() as f64;
            if self.t < self.window {
                self.first += n;
            }
            if self.t + self.window >= self.frames {
                self.last += n;
            }
            let ids: Vec<u64> = counted.iter().map(|o| o.id).collect();
            if self.t > 0 {
                self.births += births(&ids, last) as f64;
            }
            self.boxes.clear();
            self.boxes.extend(counted.iter().map(BBox::from));
            self.pairs += overlapping_pairs(&self.boxes, OVERLAP_IOU, &mut self.scratch) as f64;
            *last = ids;
        }
        self.t += 1;
    }

    /// The statistics of the frames pushed so far.
    pub fn finish(&self) -> StreamCheck {
        let streams = self.last_ids.len().max(1) as f64;
        let window = (self.window.min(self.t).max(1)) as f64 * streams;
        StreamCheck {
            frames: self.t,
            objects_first: self.first / window,
            objects_last: self.last / window,
            births_per_frame: self.births / ((self.t.max(2) - 1) as f64 * streams),
            overlapping_pairs_per_frame: self.pairs / (self.t.max(1) as f64 * streams),
        }
    }
}

/// Runs the check's streams with a trainer's current model.
#[derive(Debug, Clone)]
pub struct StreamChecker {
    env: EnvSection,
    streams: usize,
    frames: usize,
    seed: u64,
}

impl StreamChecker {
    /// The check of `cfg.train.val_streams` streams of `cfg.train.val_stream_frames` frames of
    /// `exp`'s env (its validation split), or `None` when `val_streams` is 0.
    pub fn new(exp: &ExperimentConfig, cfg: &RunConfig) -> Option<Self> {
        let t = &cfg.train;
        (t.val_streams > 0).then(|| Self {
            env: exp.env.clone(),
            streams: t.val_streams,
            frames: t.val_stream_frames,
            seed: mix_seed(t.val_seed, STREAM_CHECK_SEED),
        })
    }

    /// Run the streams with `trainer`'s current model (its weights shared, not copied).
    pub fn check(&self, trainer: &Trainer) -> Result<StreamCheck> {
        let encoder = ObjectEncoder::from_model(
            trainer.model.clone(),
            trainer.varmap.clone(),
            trainer.cfg.clone(),
            trainer.device(),
            self.seed,
        );
        let spec = self.env.clone();
        let venv = VectorEnv::new(
            move |_| registry::make_from_spec_split(&spec, Split::Val),
            self.streams,
            env_threads(self.streams),
        )?;
        let n_actions = venv.single_action_space().n().unwrap_or(1);
        let mut env = ObjectCentricVecEnv::<Box<dyn Env>>::new(venv, encoder)?;
        let mut policy = RandomPolicy::new(self.seed, n_actions);
        let mut sums = StreamSums::new(self.streams, self.frames);
        env.reset(Some(self.seed))?;
        sums.push(env.objects());
        let mut actions = vec![0usize; self.streams];
        for _ in 1..self.frames {
            policy.act(&mut actions);
            env.step(&actions)?;
            sums.push(env.objects());
        }
        Ok(sums.finish())
    }
}

/// A validator whose validations also carry a [`StreamCheck`].
pub struct WithStreamCheck {
    inner: BoxedValidator,
    checker: StreamChecker,
}

impl WithStreamCheck {
    /// `inner`, plus `checker`'s streams at every validation.
    pub fn new(inner: BoxedValidator, checker: StreamChecker) -> Self {
        Self { inner, checker }
    }
}

impl Validator for WithStreamCheck {
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation> {
        let mut v = self.inner.validate(trainer)?;
        v.stream =
            Some(self.checker.check(trainer).map_err(|e| {
                Error::Invalid(format!("the streams check (train.val_streams): {e}"))
            })?);
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, Array3};

    /// One frame of one stream: `(id, presence, top, left, height, width)` per slot.
    fn batch(objects: &[(u64, f32, [f32; 4])]) -> ObjectBatch {
        let k = objects.len();
        let mut b = ObjectBatch {
            pres: Array2::zeros((1, k)),
            boxes: Array3::zeros((1, k, 4)),
            depth: Array2::zeros((1, k)),
            what: Array3::zeros((1, k, 1)),
            ids: Array2::zeros((1, k)),
            is_new: Array2::from_elem((1, k), false),
            frame_hw: (48, 48),
        };
        for (j, (id, p, bx)) in objects.iter().enumerate() {
            b.pres[[0, j]] = *p;
            b.ids[[0, j]] = *id;
            for (c, v) in bx.iter().enumerate() {
                b.boxes[[0, j, c]] = *v;
            }
        }
        b
    }

    #[test]
    fn stream_sums_count_first_and_last_births_and_pairs() {
        let a = [0.0, 0.0, 10.0, 10.0];
        let far = [30.0, 30.0, 10.0, 10.0];
        // IoU of `near_a` with `a`: 90 / 110 = 0.82.
        let near_a = [1.0, 0.0, 10.0, 10.0];
        // 20 frames: window 2. Frames 0-1: ids 1 and 2 counted (2 per frame); frame 2: id 2 is
        // gone (presence 0.4) and id 3 is born on top of id 1; frames 3..: id 4 alone.
        let mut sums = StreamSums::new(1, 20);
        for _ in 0..2 {
            sums.push(&batch(&[(1, 0.9, a), (2, 0.8, far)]));
        }
        sums.push(&batch(&[(1, 0.9, a), (2, 0.4, far), (3, 0.7, near_a)]));
        for _ in 3..20 {
            sums.push(&batch(&[(4, 0.9, far)]));
        }
        let c = sums.finish();
        assert_eq!(c.frames, 20);
        assert_eq!(c.objects_first, 2.0);
        assert_eq!(c.objects_last, 1.0);
        // Births after frame 0: id 3 at frame 2, id 4 at frame 3: 2 over 19 frames.
        assert!((c.births_per_frame - 2.0 / 19.0).abs() < 1e-12);
        // One overlapping pair (ids 1 and 3) in one of 20 frames.
        assert!((c.overlapping_pairs_per_frame - 1.0 / 20.0).abs() < 1e-12);
    }
}
