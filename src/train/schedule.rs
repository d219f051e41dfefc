//! Training schedules (reference §4.4, §4.6–§4.8): count-prior annealing, training wheels,
//! gradient noise, the frames curriculum, per-stage learning rate and early stopping.
//!
//! `stage` is 0-based (stage 0 = the paper's stage 1); `step` is the stage-local update count (the
//! code resets the global step at each stage).

use serde::{Deserialize, Serialize};

use crate::model::config::TrainConfig;

/// Count-prior log-odds at `step`. Stage 0: `log(v(t) + 1e-6)` with
/// `v(t) = (initial − final)·rate^{t/decay_steps} + final`. Later stages: the constant
/// `later_stage_count_prior_log_odds` (0.0125 used **as log-odds**, p ≈ 0.503 — the code's
/// quirk, reference §4.4, reproduced deliberately).
pub fn count_prior_log_odds(cfg: &TrainConfig, stage: usize, step: u64) -> f64 {
    if stage > 0 {
        return cfg.later_stage_count_prior_log_odds;
    }
    let v = (cfg.count_prior_initial - cfg.count_prior_final)
        * cfg
            .count_prior_decay_rate
            .powf(step as f64 / cfg.count_prior_decay_steps)
        + cfg.count_prior_final;
    (v + 1e-6).ln()
}

/// Stop-gradient training wheels: on for the first `training_wheels_steps` of stage 0.
pub fn training_wheels(cfg: &TrainConfig, stage: usize, step: u64) -> bool {
    stage == 0 && step < cfg.training_wheels_steps
}

/// Gradient-noise std `σ_g(t) = scale·0.1^{t/1000}` in stage 0 (0 later or when disabled).
pub fn gradient_noise_sigma(cfg: &TrainConfig, stage: usize, step: u64) -> f64 {
    if stage > 0 || !cfg.gradient_noise {
        return 0.0;
    }
    cfg.gradient_noise_scale * 0.1f64.powf(step as f64 / 1000.0)
}

/// Frames used at `step`: stage 0 `min(initial + scale·floor(t/N_curric), T)`; later stages `T`.
pub fn n_frames(cfg: &TrainConfig, stage: usize, step: u64) -> usize {
    if stage > 0 {
        return cfg.n_frames;
    }
    let k = (step / cfg.n_curric.max(1)) as usize;
    (cfg.initial_n_frames + cfg.n_frames_scale * k).min(cfg.n_frames)
}

/// Learning rate at stage-local `step`: `lr / divisor^stage`; in stage 0 with
/// `wheels_off_lr_warmup = N > 0`, times `min(1, k / N)` on the k-th step (k = 1, 2, ...) after
/// the training wheels come off.
pub fn learning_rate(cfg: &TrainConfig, stage: usize, step: u64) -> f64 {
    let lr = cfg.lr / cfg.lr_stage_divisor.powi(stage as i32);
    let n = cfg.wheels_off_lr_warmup;
    if stage > 0 || n == 0 || step < cfg.training_wheels_steps {
        return lr;
    }
    let k = step - cfg.training_wheels_steps + 1;
    lr * (k.min(n) as f64 / n as f64)
}

/// Step from which validations are eligible and early stopping may trigger.
pub fn patience_start(cfg: &TrainConfig, stage: usize) -> u64 {
    if stage == 0 {
        cfg.patience_start
    } else {
        1
    }
}

/// Early stopping on a criterion to **minimise** (reference §4.8: validations before
/// `patience_start` are ineligible; stop once `patience` steps passed without improvement).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EarlyStopping {
    /// Best eligible value so far.
    pub best: Option<f64>,
    /// Stage-local step of the best value.
    pub best_step: u64,
    /// Patience in steps.
    pub patience: u64,
    /// First eligible step.
    pub patience_start: u64,
}

/// Outcome of one validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// This validation is the new best (save it).
    pub improved: bool,
    /// Stop this stage.
    pub stop: bool,
}

impl EarlyStopping {
    /// Fresh state.
    pub fn new(patience: u64, patience_start: u64) -> Self {
        Self {
            best: None,
            best_step: 0,
            patience,
            patience_start,
        }
    }

    /// Record the validation `value` at stage-local `step`.
    pub fn observe(&mut self, step: u64, value: f64) -> Verdict {
        let eligible = step >= self.patience_start && value.is_finite();
        let improved = eligible && self.best.is_none_or(|b| value < b);
        if improved {
            self.best = Some(value);
            self.best_step = step;
        }
        let stop = self.best.is_some()
            && step >= self.patience_start
            && step.saturating_sub(self.best_step) >= self.patience;
        Verdict { improved, stop }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(lo: f64) -> f64 {
        1.0 / (1.0 + (-lo).exp())
    }

    #[test]
    fn count_prior_values_of_the_reference() {
        let c = TrainConfig::default();
        // t=0 → p≈0.999999; 5000 → 0.909; 6000 → 0.503; 7000 → 0.101; 8000 → 0.022; 10000 → 0.0124.
        assert!((p(count_prior_log_odds(&c, 0, 0)) - 0.999999).abs() < 1e-6);
        for (t, want, tol) in [
            (5000, 0.909, 1e-3),
            (6000, 0.503, 1e-3),
            (7000, 0.101, 1e-3),
            (8000, 0.022, 1e-3),
            (10_000, 0.0124, 1e-4),
        ] {
            let got = p(count_prior_log_odds(&c, 0, t));
            assert!((got - want).abs() < tol, "t={t}: {got} vs {want}");
        }
        assert!((p(count_prior_log_odds(&c, 1, 0)) - 0.503).abs() < 1e-3);
    }

    #[test]
    fn curriculum_wheels_noise_lr() {
        let c = TrainConfig::default();
        assert_eq!(n_frames(&c, 0, 0), 2);
        assert_eq!(n_frames(&c, 0, 39_999), 2);
        assert_eq!(n_frames(&c, 0, 40_000), 4);
        assert_eq!(n_frames(&c, 0, 120_000), 8);
        assert_eq!(n_frames(&c, 0, 1_000_000), 8);
        assert_eq!(n_frames(&c, 1, 0), 8);
        assert!(
            training_wheels(&c, 0, 999)
                && !training_wheels(&c, 0, 1000)
                && !training_wheels(&c, 1, 0)
        );
        assert!((gradient_noise_sigma(&c, 0, 1000) - 1e-4).abs() < 1e-12);
        assert_eq!(gradient_noise_sigma(&c, 1, 0), 0.0);
        assert!((learning_rate(&c, 2, 0) - 1e-4 / 9.0).abs() < 1e-15);
        assert_eq!(learning_rate(&c, 0, 1000), 1e-4);
    }

    #[test]
    fn lr_warms_up_after_the_training_wheels_when_asked() {
        let c = TrainConfig {
            wheels_off_lr_warmup: 4,
            ..TrainConfig::default()
        };
        let lr = |stage, step| learning_rate(&c, stage, step);
        // Wheels on (steps < 1000): the full rate; then 1/4, 2/4, 3/4, 4/4, and full from there.
        assert_eq!(lr(0, 999), 1e-4);
        let ramp: Vec<f64> = (1000..1006).map(|s| lr(0, s) / 1e-4).collect();
        assert_eq!(ramp, [0.25, 0.5, 0.75, 1.0, 1.0, 1.0]);
        // Later stages have no wheels and no warm-up.
        assert!((lr(1, 1000) - 1e-4 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn early_stopping() {
        let mut e = EarlyStopping::new(10, 20);
        assert_eq!(
            e.observe(5, 1.0),
            Verdict {
                improved: false,
                stop: false
            }
        ); // ineligible
        assert_eq!(
            e.observe(20, 3.0),
            Verdict {
                improved: true,
                stop: false
            }
        );
        assert_eq!(
            e.observe(25, 2.0),
            Verdict {
                improved: true,
                stop: false
            }
        );
        assert_eq!(
            e.observe(30, 2.5),
            Verdict {
                improved: false,
                stop: false
            }
        );
        assert_eq!(
            e.observe(35, 2.1),
            Verdict {
                improved: false,
                stop: true
            }
        );
        assert_eq!(e.best_step, 25);
    }
}
