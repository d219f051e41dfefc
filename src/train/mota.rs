//! The synthetic envs' stopping criterion (`train.stop_criterion = "mota"`, reference §4.8):
//! [`MotaValidator`] scores the trainer's current model on fixed labelled clips of the env's
//! validation split with the evaluation code of `silot eval` ([`crate::eval::evaluate`] on the
//! clips of [`crate::eval_protocol::split_clips`], the model run as
//! [`crate::trained::SilotTracker`] runs a loaded one): MOTA with the posterior, and MOTA of the
//! learned prior alone from frame `train.val_prior_from` (`silot eval --prior-from T`); the score
//! is `-(mota + prior_mota)`, lower is better.
//!
//! **The clips.** `train.n_val` 8-frame clips of the validation split (Scattered MNIST's
//! validation digits; Scattered Shapes has no splits) drawn as `silot eval --seed S` draws its
//! clips, with `S = `[`mota_val_seed`]`(train.val_seed) = 2^40 + val_seed`; the model's latent
//! noise (where `eval_noisy` samples) is seeded with `S` too, as `silot eval --seed S` seeds it.
//! Clip `i` of seed `S` is reset with `S·1_000_003 + i` ([`crate::seed::clip_seed`]), and these
//! never meet the clips of any `silot eval --seed` below 2^40 (its default 2, and every seed the
//! docs and recipes use): two seeds below 2^44 give disjoint clip seeds for clip indices below
//! 1,000,003. The training clips and the loss-validation clips are reset with 64-bit random
//! seeds, and Scattered MNIST's test clips use other digits besides.

use candle_core::Device;

use crate::config::ExperimentConfig;
use crate::env::synthetic::Split;
use crate::env::{Frame, GtObject};
use crate::error::Result;
use crate::eval::{evaluate, frames_from, run_tracker, EvalSettings};
use crate::eval_protocol::split_clips;
use crate::model::config::RunConfig;
use crate::model::Silot;
use crate::trained::ModelTracker;

use super::validation::{LossValidator, MotaScores, Validation, Validator};
use super::Trainer;

/// Added to `train.val_seed` for the `mota` criterion's clip seed ([`mota_val_seed`]): above
/// every seed anyone passes to `silot eval --seed`, below 2^44, where clip seeds never wrap.
pub const MOTA_VAL_SEED_BASE: u64 = 1 << 40;

/// The seed of the `mota` criterion's labelled clips and latent noise for `train.val_seed`:
/// `2^40 + val_seed` (see the module docs for why it never meets `silot eval`'s clips).
pub const fn mota_val_seed(val_seed: u64) -> u64 {
    MOTA_VAL_SEED_BASE.wrapping_add(val_seed)
}

/// Validation by `MOTA + prior MOTA` on labelled clips (see the module docs); the loss terms and
/// object statistics of the `val` line come from a [`LossValidator`] on the same clips a
/// loss-criterion run of the config validates on, so the logged losses compare across criteria.
pub struct MotaValidator {
    loss: LossValidator,
    frames: Vec<Vec<Frame>>,
    gt: Vec<Vec<Vec<GtObject>>>,
    /// `gt` from frame `prior_from` on.
    late_gt: Vec<Vec<Vec<GtObject>>>,
    prior_from: usize,
    seed: u64,
    settings: EvalSettings,
}

impl MotaValidator {
    /// Draw `cfg.train.n_val` labelled clips of `exp`'s validation split (seed
    /// [`mota_val_seed`]) and score with `exp`'s `[eval.metrics]`; `loss` gives the logged
    /// losses. An error naming the env and the fix when `exp`'s env has no exact ground truth
    /// (Atari), and for an invalid `cfg` (e.g. `val_prior_from` outside the clips).
    pub fn new(exp: &ExperimentConfig, cfg: &RunConfig, loss: LossValidator) -> Result<Self> {
        exp.require_ground_truth(&exp.env.id)?;
        // `val_prior_from` within the clips and a learned prior: the config's own checks.
        cfg.validate()?;
        let t = &cfg.train;
        let seed = mota_val_seed(t.val_seed);
        let (frames, gt): (Vec<_>, Vec<_>) = split_clips(exp, Split::Val, t.n_val, seed)?
            .into_iter()
            .map(|c| (c.frames, c.gt))
            .unzip();
        let late_gt = frames_from(&gt, t.val_prior_from);
        Ok(Self {
            loss,
            frames,
            gt,
            late_gt,
            prior_from: t.val_prior_from,
            seed,
            settings: exp.eval.metrics.clone(),
        })
    }

    /// The seed of the clips and of the latent noise ([`mota_val_seed`]).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The frame the prior runs alone from (`train.val_prior_from`).
    pub fn prior_from(&self) -> usize {
        self.prior_from
    }

    /// How many labelled clips are scored.
    pub fn n_clips(&self) -> usize {
        self.frames.len()
    }

    /// MOTA and prior MOTA of `model` (its parameters on `device`) on the labelled clips.
    pub fn score_model(&self, model: &Silot, device: &Device) -> Result<MotaScores> {
        let mut tracker = ModelTracker::new(model, device, self.seed);
        let pred = run_tracker(&mut tracker, &self.frames)?;
        let mota = evaluate(&pred, &self.gt, &self.settings)?.mota;
        let mut prior =
            ModelTracker::new(model, device, self.seed).prior_from(Some(self.prior_from));
        let alone = run_tracker(&mut prior, &self.frames)?;
        let alone = frames_from(&alone, self.prior_from);
        let prior_mota = evaluate(&alone, &self.late_gt, &self.settings)?.mota;
        Ok(MotaScores { mota, prior_mota })
    }
}

impl Validator for MotaValidator {
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation> {
        let v = self.loss.measure(trainer)?;
        let m = self.score_model(&trainer.model, trainer.device())?;
        Ok(Validation {
            score: -(m.mota + m.prior_mota),
            mota: Some(m),
            ..v
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clip_seed_is_apart_from_every_small_eval_seed() {
        assert_eq!(mota_val_seed(0), 1 << 40);
        assert_eq!(mota_val_seed(9), (1 << 40) + 9);
        // Clip seeds `s·1_000_003 + i` of seeds below 2^44 do not wrap, so two such seeds give
        // disjoint clip seeds for clip indices below 1,000,003: the validation clips are never
        // those of `silot eval --seed s` for any s < 2^40 (its default is 2).
        let exact = |s: u64, i: usize| s as u128 * 1_000_003 + i as u128;
        for val_seed in [0, 1, 1 << 42] {
            let s = mota_val_seed(val_seed);
            assert!(exact(s, 1_000_002) < 1 << 64);
            assert_eq!(crate::seed::clip_seed(s, 7) as u128, exact(s, 7));
            assert!(s >= 1 << 40);
        }
        // The config's bound on `val_prior_from` is the clips' length.
        assert_eq!(
            crate::model::config::MOTA_CLIP_FRAMES,
            crate::eval_protocol::EVAL_FRAMES
        );
    }
}
