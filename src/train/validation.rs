//! Validation during training: a [`Validator`] scores the model for early stopping and
//! best-checkpoint selection; [`LossValidator`] is the loss-based one [`super::run`] uses, and it
//! also reports [`ObjectStats`], label-free statistics of the objects the model finds.
//! [`super::MotaValidator`] is the label-using one of the synthetic envs
//! (`stop_criterion = "mota"`); [`validator_for`] builds the one a config asks for, with
//! [`super::WithStreamCheck`]'s label-free streams check when `train.val_streams` is on.

use candle_core::{DType, Tensor};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::eval::{births, overlapping_pairs, BBox};
use crate::model::config::{RunConfig, StopCriterion};
use crate::model::LossBreakdown;
use crate::rng::SeededRng;

use super::source::{ClipBatch, ClipSource, ClipSpec};
use super::{Trainer, VAL_STREAM};
use crate::seed::mix_seed;

/// Result of one validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Validation {
    /// Early-stopping score, **lower is better** (negate maximised criteria such as MOTA).
    pub score: f64,
    /// Loss terms to log on the `val` line of `metrics.jsonl`.
    pub loss: LossBreakdown,
    /// How many and how large the objects found are, if the validator measures it.
    pub objects: Option<ObjectStats>,
    /// The same on full frames as `silot eval` runs the model, if the validator measures it
    /// ([`crate::model::config::TrainConfig::val_full_frames`]).
    pub full_frame: Option<ObjectStats>,
    /// MOTA on labelled validation clips, if the validator measures it
    /// ([`super::MotaValidator`]).
    pub mota: Option<MotaScores>,
    /// The label-free streams check, if on (`train.val_streams`, [`super::WithStreamCheck`]).
    pub stream: Option<super::StreamCheck>,
}

/// What [`super::MotaValidator`] measured on its labelled clips.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotaScores {
    /// MOTA of the posterior over all frames.
    pub mota: f64,
    /// MOTA of the learned prior alone from frame `val_prior_from` on, over those frames.
    pub prior_mota: f64,
}

/// Scores the model during training for early stopping and best-checkpoint selection.
///
/// [`super::run`] uses [`LossValidator`]; the code's MNIST/Shapes criterion (validation `MOTA +
/// prior-MOTA`, reference §4.8) is [`super::MotaValidator`], which runs the evaluation metrics
/// and returns `-(mota + prior_mota)` as the score; [`validator_for`] picks by
/// `train.stop_criterion`, and [`super::run_with_validator`] takes either.
pub trait Validator {
    /// Validate the trainer's current model.
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation>;
}

/// Validation by loss on fixed clips ([`StopCriterion`]: reconstruction or total loss).
pub struct LossValidator {
    /// The validation clips.
    pub batches: Vec<ClipBatch>,
    /// Which loss is the score.
    pub criterion: StopCriterion,
    /// Full-frame clips for [`Validation::full_frame`] (none: not measured).
    pub full_frames: Vec<ClipBatch>,
}

impl LossValidator {
    /// Draw `cfg.train.n_val` clips from `source` with a fixed seed derived from
    /// `cfg.train.val_seed` (full `n_frames`, the training crop size; windows always uniform, so
    /// validation losses compare across `crop_top_every`), then `cfg.train.val_full_frames`
    /// uncropped clips.
    pub fn from_source(cfg: &RunConfig, source: &mut dyn ClipSource) -> Result<Self> {
        let t = &cfg.train;
        let mut rng = SeededRng::new(mix_seed(t.val_seed, VAL_STREAM));
        let mut spec = ClipSpec::new(t.batch_size, t.n_frames, t.crop);
        let batches = source.next_clips(t.n_val, &spec, &mut rng)?;
        spec.crop = None;
        let full_frames = match t.val_full_frames {
            0 => Vec::new(),
            n => source.next_clips(n, &spec, &mut rng)?,
        };
        Ok(Self {
            batches,
            criterion: t.stop_criterion,
            full_frames,
        })
    }
}

impl LossValidator {
    /// The loss terms and object statistics on the clips, without a score (what
    /// [`Validator::validate`] reports besides it): for validators built on this one and for
    /// scoring checkpoints by other rules.
    pub fn measure(&self, trainer: &Trainer) -> Result<Validation> {
        let (loss, objects) = trainer.validate_with_objects(&self.batches)?;
        let full_frame = (!self.full_frames.is_empty())
            .then(|| trainer.full_frame_objects(&self.full_frames))
            .transpose()?;
        Ok(Validation {
            score: f64::NAN,
            loss,
            objects: Some(objects),
            full_frame,
            mota: None,
            stream: None,
        })
    }
}

impl Validator for LossValidator {
    /// Scores by the loss `criterion` names; an error for `mota`, which needs labelled clips
    /// ([`super::MotaValidator`]).
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation> {
        let score = |l: &LossBreakdown| match self.criterion {
            StopCriterion::ReconstructionLoss => Ok(l.reconstruction),
            StopCriterion::TotalLoss => Ok(l.total),
            StopCriterion::Mota => Err(crate::error::Error::Invalid(
                "stop_criterion = \"mota\" needs labelled clips: validate with \
                 train::MotaValidator (train::validator_for), not the loss validator"
                    .into(),
            )),
        };
        let v = self.measure(trainer)?;
        Ok(Validation {
            score: score(&v.loss)?,
            ..v
        })
    }
}

/// A validator of any kind, as [`validator_for`] returns it.
pub type BoxedValidator = Box<dyn Validator + Send>;

/// The validator `cfg.train.stop_criterion` asks for on `exp`'s env: a [`LossValidator`] on
/// `loss_source`'s clips ([`LossValidator::from_source`]), or for `mota` a
/// [`super::MotaValidator`] (labelled clips of `exp`'s validation split, and the same loss
/// validator for the losses it logs). What `silot train` and `silot pretrain` validate with.
pub fn validator_for(
    exp: &crate::config::ExperimentConfig,
    cfg: &RunConfig,
    loss_source: &mut dyn ClipSource,
) -> Result<BoxedValidator> {
    let loss = LossValidator::from_source(cfg, loss_source)?;
    let v: BoxedValidator = match cfg.train.stop_criterion {
        StopCriterion::Mota => Box::new(super::MotaValidator::new(exp, cfg, loss)?),
        StopCriterion::ReconstructionLoss | StopCriterion::TotalLoss => Box::new(loss),
    };
    Ok(match super::StreamChecker::new(exp, cfg) {
        Some(checker) => Box::new(super::WithStreamCheck::new(v, checker)),
        None => v,
    })
}

/// Label-free statistics of the objects a model finds on the validation clips: how many and how
/// large. A model that boxes two objects as one (Space Invaders' aliens in pairs) shows fewer,
/// wider boxes long before its losses stand out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ObjectStats {
    /// Objects of presence above 0.5 per frame (what the count error counts), mean.
    pub objects_per_frame: f64,
    /// Presence-weighted mean box height of all objects, pixels.
    pub box_height_px: f64,
    /// Presence-weighted mean box width, pixels.
    pub box_width_px: f64,
    /// Pairs of present objects whose boxes overlap with IoU ≥ 0.5, per frame: objects held
    /// twice (duplicate tracks) show here while the losses barely move; 0 in older logs.
    #[serde(default)]
    pub overlapping_pairs_per_frame: f64,
    /// Present identities that were not present at the clip's previous frame, per frame after a
    /// clip's first ([`births`]): near `objects_per_frame` when the model finds its objects
    /// again under new identities every frame instead of propagating them (no tracking); 0 in
    /// older logs.
    #[serde(default)]
    pub births_per_frame: f64,
}

/// Running sums behind [`ObjectStats`].
#[derive(Debug, Default)]
pub(super) struct ObjectSums {
    frames: f64,
    present: f64,
    pres: f64,
    pres_height: f64,
    pres_width: f64,
    overlapping_pairs: f64,
    births: f64,
    /// Frames after a clip's first (the frames births are counted on).
    later_frames: f64,
    boxes: Vec<BBox>,
    scratch: Vec<usize>,
}

impl ObjectSums {
    /// Add one clip's per-frame objects (`pres (B, K, 1)`, `where_ (B, K, 4)` in anchor units;
    /// `ids (B·K)` for the births, left out when absent).
    pub(super) fn add(
        &mut self,
        objects: &[crate::model::Objects],
        anchor: [f64; 2],
    ) -> Result<()> {
        if objects.is_empty() {
            return Ok(());
        }
        let k = objects[0].pres.dim(1)?;
        // (B, T·K, 5) pres, yt, xt, ys, xs (anchor units): one host transfer.
        let all = objects
            .iter()
            .map(|o| Tensor::cat(&[&o.pres, &o.where_], 2))
            .collect::<candle_core::Result<Vec<_>>>()?;
        let all = Tensor::cat(&all, 1)?
            .to_dtype(DType::F64)?
            .to_vec3::<f64>()?;
        for (c, clip) in all.iter().enumerate() {
            let mut previous = Vec::new();
            for (t, frame) in clip.chunks(k).enumerate() {
                let ids = objects[t].ids.get(c * k..(c + 1) * k);
                let present = self.add_frame(frame, ids, anchor);
                if t > 0 && ids.is_some() {
                    self.births += births(&present, &previous) as f64;
                    self.later_frames += 1.0;
                }
                previous = present;
            }
        }
        Ok(())
    }

    /// One frame's objects, rows `[pres, yt, xt, ys, xs]`, and their ids if known; returns the
    /// ids of the present ones. The overlapping pairs are counted in anchor units
    /// ([`overlapping_pairs`]; IoU does not change with the axes' scales).
    fn add_frame(&mut self, frame: &[Vec<f64>], ids: Option<&[u64]>, anchor: [f64; 2]) -> Vec<u64> {
        self.frames += 1.0;
        self.boxes.clear();
        let mut present = Vec::new();
        for (i, o) in frame.iter().enumerate() {
            let (pres, y, x, h, w) = (o[0], o[1], o[2], o[3], o[4]);
            self.pres += pres;
            self.pres_height += pres * h * anchor[0];
            self.pres_width += pres * w * anchor[1];
            if pres >= 0.5 {
                self.present += 1.0;
                let b = BBox::new(y - h / 2.0, x - w / 2.0, y + h / 2.0, x + w / 2.0);
                self.boxes.push(b);
                present.extend(ids.map(|ids| ids[i]));
            }
        }
        self.overlapping_pairs += overlapping_pairs(&self.boxes, 0.5, &mut self.scratch) as f64;
        present
    }

    pub(super) fn stats(&self) -> ObjectStats {
        let w = self.pres.max(1e-12);
        ObjectStats {
            objects_per_frame: self.present / self.frames.max(1.0),
            box_height_px: self.pres_height / w,
            box_width_px: self.pres_width / w,
            overlapping_pairs_per_frame: self.overlapping_pairs / self.frames.max(1.0),
            births_per_frame: self.births / self.later_frames.max(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Objects;
    use candle_core::Device;

    #[test]
    fn object_stats_count_present_objects_and_weigh_sizes_by_presence() {
        let dev = Device::Cpu;
        // Two frames of one clip of K = 2: presence (1, 0.2) then (0.6, 0.4); sizes in anchor
        // units (h, w) = (0.5, 1.0) and (0.25, 0.25) in both frames.
        let frame = |p: [f32; 2]| {
            let mut o = Objects::null(1, 2, 3, 4, &dev).unwrap();
            o.pres = Tensor::new(&[[[p[0]], [p[1]]]], &dev).unwrap();
            o.where_ = Tensor::new(&[[[0f32, 0., 0.5, 1.0], [0., 0., 0.25, 0.25]]], &dev).unwrap();
            o
        };
        let mut sums = ObjectSums::default();
        sums.add(&[frame([1.0, 0.2]), frame([0.6, 0.4])], [20.0, 10.0])
            .unwrap();
        let s = sums.stats();
        assert_eq!(s.objects_per_frame, 1.0); // 1.0 and 0.6 are present, 0.2 and 0.4 not
                                              // Weights 1.6 on (10, 10) px and 0.6 on (5, 2.5) px.
        assert!((s.box_height_px - (1.6 * 10.0 + 0.6 * 5.0) / 2.2).abs() < 1e-6);
        assert!((s.box_width_px - (1.6 * 10.0 + 0.6 * 2.5) / 2.2).abs() < 1e-6);
        assert_eq!(s.overlapping_pairs_per_frame, 0.0); // one present object per frame
        assert_eq!(ObjectSums::default().stats().objects_per_frame, 0.0);
    }

    /// 48x48 frames, cropped as the spec asks.
    struct Frames48;

    impl ClipSource for Frames48 {
        fn next_batch(&mut self, spec: &ClipSpec, _rng: &mut SeededRng) -> Result<ClipBatch> {
            let [h, w] = spec.crop.unwrap_or([48, 48]);
            Ok(ClipBatch {
                frames: ndarray::Array5::zeros((spec.batch, spec.n_frames, h, w, 3)),
                offsets: vec![[0.0, 0.0]; spec.batch],
                positions: None,
            })
        }
    }

    #[test]
    fn full_frame_clips_are_uncropped_and_only_drawn_when_asked_for() {
        let mut cfg = RunConfig::default();
        (cfg.train.crop, cfg.train.n_val, cfg.train.batch_size) = (Some([24, 24]), 3, 2);
        let v = LossValidator::from_source(&cfg, &mut Frames48).unwrap();
        assert!(v.full_frames.is_empty());
        assert_eq!(v.batches.iter().map(|b| b.len()).sum::<usize>(), 3);
        cfg.train.val_full_frames = 5;
        let v = LossValidator::from_source(&cfg, &mut Frames48).unwrap();
        assert!(v.batches.iter().all(|b| b.frames.dim().2 == 24));
        assert_eq!(v.full_frames.iter().map(|b| b.len()).sum::<usize>(), 5);
        assert!(v.full_frames.iter().all(|b| b.frames.dim().2 == 48));
    }

    #[test]
    fn object_stats_count_overlapping_pairs_of_present_objects() {
        let dev = Device::Cpu;
        // K = 3: two present boxes on one place (a duplicate) and a third present one apart in
        // the first frame; in the second the duplicate is faint (0.3), so no pair.
        let frame = |dup: f32| {
            let mut o = Objects::null(1, 3, 3, 4, &dev).unwrap();
            o.pres = Tensor::new(&[[[0.9f32], [dup], [0.8]]], &dev).unwrap();
            o.where_ = Tensor::new(
                &[[
                    [1f32, 1., 0.5, 0.5],
                    [1.05, 1., 0.5, 0.5],
                    [3., 3., 0.5, 0.5],
                ]],
                &dev,
            )
            .unwrap();
            o
        };
        let mut sums = ObjectSums::default();
        sums.add(&[frame(0.7), frame(0.3)], [12.0, 12.0]).unwrap();
        assert_eq!(sums.stats().overlapping_pairs_per_frame, 0.5);
    }

    #[test]
    fn object_stats_count_births_of_present_identities_per_clip() {
        let dev = Device::Cpu;
        // Two clips (B = 2) of K = 2 over three frames. Clip 0: slot 0 keeps id 1; slot 1 gets a
        // new id each frame (a re-found object). Clip 1: ids kept, but slot 1 is faint (0.2) at
        // frame 1 and present again at frame 2 under the same id: born again (it was not
        // present at the frame before).
        let frame = |t: u64| {
            let mut o = Objects::null(2, 2, 3, 4, &dev).unwrap();
            let faint = if t == 1 { 0.2f32 } else { 0.9 };
            o.pres = Tensor::new(&[[[0.9f32], [0.9]], [[0.9], [faint]]], &dev).unwrap();
            o.where_ = Tensor::new(&[[[1f32, 1., 0.5, 0.5], [3., 3., 0.5, 0.5]]; 2], &dev).unwrap();
            o.ids = vec![1, 10 + t, 5, 6];
            o
        };
        let mut sums = ObjectSums::default();
        sums.add(&[frame(0), frame(1), frame(2)], [12.0, 12.0])
            .unwrap();
        // Births: clip 0 frames 1, 2 (one each); clip 1 frame 2 (one); over 2 × 2 later frames.
        assert_eq!(sums.stats().births_per_frame, 0.75);
        // Objects without ids (a model that sets none) count no births.
        let mut no_ids = frame(1);
        no_ids.ids.clear();
        let mut sums = ObjectSums::default();
        sums.add(&[frame(0), no_ids], [12.0, 12.0]).unwrap();
        assert_eq!(sums.stats().births_per_frame, 0.0);
    }
}
