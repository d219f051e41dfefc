//! Validation during training: a [`Validator`] scores the model for early stopping and
//! best-checkpoint selection; [`LossValidator`] is the loss-based one [`super::run`] uses.

use crate::error::Result;
use crate::model::config::{RunConfig, StopCriterion};
use crate::model::LossBreakdown;
use crate::rng::SeededRng;

use super::source::{ClipBatch, ClipSource, ClipSpec};
use super::{mix_seed, ObjectStats, Trainer, VAL_STREAM};

/// Result of one validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Validation {
    /// Early-stopping score, **lower is better** (negate maximised criteria such as MOTA).
    pub score: f64,
    /// Loss terms to log on the `val` line of `metrics.jsonl`.
    pub loss: LossBreakdown,
    /// How many and how large the objects found are, if the validator measures it.
    pub objects: Option<ObjectStats>,
}

/// Scores the model during training for early stopping and best-checkpoint selection.
///
/// [`super::run`] uses [`LossValidator`]; the code's MNIST/Shapes criterion (validation `MOTA +
/// prior-MOTA`, reference §4.8) plugs in through [`super::run_with_validator`] with a validator that
/// runs the evaluation metrics and returns `-(mota + prior_mota)` as the score.
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
}

impl LossValidator {
    /// Draw `cfg.train.n_val` clips from `source` with a fixed seed derived from
    /// `cfg.train.val_seed` (full `n_frames`, the training crop).
    pub fn from_source(cfg: &RunConfig, source: &mut dyn ClipSource) -> Result<Self> {
        let t = &cfg.train;
        let mut rng = SeededRng::new(mix_seed(t.val_seed, VAL_STREAM));
        let spec = ClipSpec {
            batch: t.batch_size,
            n_frames: t.n_frames,
            crop: t.crop,
        };
        Ok(Self {
            batches: source.next_clips(t.n_val, &spec, &mut rng)?,
            criterion: t.stop_criterion,
        })
    }
}

impl Validator for LossValidator {
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation> {
        let (loss, objects) = trainer.validate_with_objects(&self.batches)?;
        Ok(Validation {
            score: criterion(self.criterion, &loss),
            loss,
            objects: Some(objects),
        })
    }
}

fn criterion(c: StopCriterion, l: &LossBreakdown) -> f64 {
    match c {
        StopCriterion::ReconstructionLoss => l.reconstruction,
        StopCriterion::TotalLoss => l.total,
    }
}
