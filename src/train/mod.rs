//! Training SILOT (reference §4.6–§4.8): Adam + global-norm clipping (+ gradient noise in stage 1),
//! the frames curriculum, training wheels, count-prior annealing, and three stages of early
//! stopping with rollback to the best checkpoint and the learning rate divided by 3.
//!
//! [`run`] is the entry point: it writes `RUNDIR/config.toml`, appends `RUNDIR/metrics.jsonl`,
//! keeps the latest checkpoint in `RUNDIR/checkpoint/` and the best one in `RUNDIR/best/`, and
//! resumes from `RUNDIR` if it already holds a checkpoint.
//!
//! Validation runs every `eval_every` steps through a [`Validator`]: [`run`] uses
//! [`LossValidator`] (`n_val` fixed clips scored by the configured
//! [`StopCriterion`], reconstruction or total loss — the
//! code's Atari criterion). The code's MNIST/Shapes criterion (`MOTA + prior MOTA`) needs ground
//! truth and the evaluation metrics; it plugs in through [`run_with_validator`].

pub mod adam;
pub mod checkpoint;
pub mod metrics_log;
pub mod schedule;
pub mod source;

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::VarMap;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::config::{RunConfig, StopCriterion};
use crate::model::{LossBreakdown, Silot, StepCtx};
use crate::rng::SeededRng;
use adam::{clip_scale, global_grad_norm, Adam, AdamConfig, GradientNoise};
use metrics_log::{MetricsLog, MetricsRecord};
use schedule::EarlyStopping;
use source::{ClipBatch, ClipSource, ClipSpec};

/// Run-time options of [`run`].
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// Stop after this many total steps (overrides `train.steps` when set).
    pub steps: Option<u64>,
    /// Device to train on.
    pub device: Device,
    /// Show a progress bar (only when stderr is a terminal).
    pub progress: bool,
    /// Stop (with a checkpoint) after the first step that ends this long after the start: a
    /// time-boxed run loses no steps, unlike one killed from outside.
    pub time_limit: Option<std::time::Duration>,
    /// On resume, restore parameters and progress but start Adam afresh (zero moments and
    /// β-power counters, as the reference does between stages): for a checkpoint whose
    /// `optimizer.safetensors` was lost.
    pub reset_optimizer: bool,
    /// Move the run to this stage (1-based, as the paper numbers them) before training, as if
    /// the earlier stages had early-stopped: their best eligible weights reloaded (the current
    /// ones when none is eligible), Adam afresh, that stage's schedule. Nothing happens when the
    /// run is already in it, so a chunked run may pass it on every chunk.
    pub start_stage: Option<usize>,
}

/// What [`run`] did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainSummary {
    /// Total steps done (incl. before a resume).
    pub steps: u64,
    /// Stage reached (0-based).
    pub stage: usize,
    /// All stages finished by early stopping.
    pub finished: bool,
    /// Best validation value of the current stage.
    pub best_val: Option<f64>,
    /// Loss terms of the last training step.
    pub last: LossBreakdown,
    /// Training stopped at [`TrainOptions::time_limit`].
    #[serde(default)]
    pub timed_out: bool,
}

/// Statistics of one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepStats {
    /// Loss terms.
    pub loss: LossBreakdown,
    /// Global gradient norm before clipping.
    pub grad_norm: f64,
    /// Frames used.
    pub n_frames: usize,
    /// Learning rate.
    pub lr: f64,
    /// Count-prior log-odds.
    pub count_prior_log_odds: f64,
}

/// Progress of a run, saved in the checkpoint's `extra` JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Total steps over all stages.
    pub global_step: u64,
    /// Stage (0-based).
    pub stage: usize,
    /// Stage-local step.
    pub stage_step: u64,
    /// Early-stopping state of the stage.
    pub early: EarlyStopping,
    /// All stages done.
    pub finished: bool,
}

/// Mix a seed with a stream id into an independent seed (splitmix64 finaliser).
pub fn mix_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const NOISE_STREAM: u64 = 1 << 40;
const DATA_STREAM: u64 = 2 << 40;
const VAL_STREAM: u64 = 3 << 40;

/// Model, parameters, optimiser and schedule state.
pub struct Trainer {
    /// The run's config.
    pub cfg: RunConfig,
    /// The model.
    pub model: Silot,
    /// Its parameters.
    pub varmap: VarMap,
    /// Optimiser.
    pub adam: Adam,
    /// Schedule state.
    pub progress: Progress,
    vars: Vec<(String, Var)>,
    device: Device,
}

fn sorted_vars(varmap: &VarMap) -> Result<Vec<(String, Var)>> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| Error::Invalid("parameter map lock poisoned".into()))?;
    let mut v: Vec<(String, Var)> = data.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(v)
}

impl Trainer {
    /// Fresh model from `cfg.train.seed`.
    pub fn new(cfg: &RunConfig, device: &Device) -> Result<Self> {
        cfg.validate()?;
        let (varmap, model) = Silot::build(&cfg.model, cfg.train.seed, DType::F32, device)?;
        let vars = sorted_vars(&varmap)?;
        let adam = Adam::new(
            vars.clone(),
            adam_config(schedule::learning_rate(&cfg.train, 0)),
        )?;
        let t = &cfg.train;
        Ok(Self {
            cfg: cfg.clone(),
            model,
            varmap,
            adam,
            progress: Progress {
                global_step: 0,
                stage: 0,
                stage_step: 0,
                early: EarlyStopping::new(t.patience, schedule::patience_start(t, 0)),
                finished: false,
            },
            vars,
            device: device.clone(),
        })
    }

    /// The model's parameters sorted by name.
    pub fn vars(&self) -> &[(String, Var)] {
        &self.vars
    }

    /// One update on a batch `frames (B, T, 3, H, W)`, `offsets (B, 2)` pixels.
    pub fn train_step(&mut self, frames: &Tensor, offsets: &Tensor) -> Result<StepStats> {
        let t = &self.cfg.train;
        let (stage, step) = (self.progress.stage, self.progress.stage_step);
        let n_frames = schedule::n_frames(t, stage, step);
        let lr = schedule::learning_rate(t, stage);
        let count = schedule::count_prior_log_odds(t, stage, step);
        let mut ctx = StepCtx {
            rng: SeededRng::new(mix_seed(t.seed, NOISE_STREAM + self.progress.global_step)),
            training: true,
            training_wheels: schedule::training_wheels(t, stage, step),
            count_prior_log_odds: count,
            prior_start: None,
            compute_loss: true,
            reconstruct: true,
        };
        let b = frames.dim(0)?;
        let state =
            self.model
                .initial_state(b, self.cfg.model.n_objects, Some(offsets), &self.device)?;
        let out = {
            let _span = tracing::trace_span!("forward").entered();
            self.model
                .run_clip(frames, state, &mut ctx, Some(n_frames))?
        };
        let total = out.losses.total()?;
        let loss = out.losses.breakdown()?;
        if !loss.total.is_finite() {
            return Err(Error::Invalid(format!(
                "non-finite loss at step {} (stage {stage}): {loss:?}; lower train.lr or check the data",
                self.progress.global_step
            )));
        }
        let grads = {
            let _span = tracing::trace_span!("backward").entered();
            total.backward()?
        };
        let _span = tracing::trace_span!("optimizer").entered();
        let grad_norm = global_grad_norm(&grads, &self.vars)?;
        if !grad_norm.is_finite() {
            return Err(Error::Invalid(format!(
                "non-finite gradient norm at step {} (stage {stage}); the update was skipped and the last checkpoint is intact: lower train.lr or train.max_grad_norm",
                self.progress.global_step
            )));
        }
        // Clipping (global norm) and the stage-1 gradient noise happen inside the fused update.
        let noise =
            GradientNoise::draw(schedule::gradient_noise_sigma(t, stage, step), &mut ctx.rng);
        self.adam.set_lr(lr);
        self.adam
            .step_with(&grads, clip_scale(grad_norm, t.max_grad_norm), noise)?;
        self.progress.global_step += 1;
        self.progress.stage_step += 1;
        Ok(StepStats {
            loss,
            grad_norm,
            n_frames,
            lr,
            count_prior_log_odds: count,
        })
    }

    /// Mean loss terms over validation batches (all frames, no dropout, no wheels, the stage's
    /// count prior).
    pub fn validate(&self, batches: &[ClipBatch]) -> Result<LossBreakdown> {
        let t = &self.cfg.train;
        let mut acc = LossBreakdown::default();
        let mut n = 0usize;
        for (i, batch) in batches.iter().enumerate() {
            let frames = batch.frames_tensor(&self.device)?;
            let offsets = batch.offsets_tensor(&self.device)?;
            let mut ctx = StepCtx::eval(mix_seed(t.seed, VAL_STREAM + 1_000_000 + i as u64));
            ctx.count_prior_log_odds =
                schedule::count_prior_log_odds(t, self.progress.stage, self.progress.stage_step);
            let state = self.model.initial_state(
                batch.len(),
                self.cfg.model.n_objects,
                Some(&offsets),
                &self.device,
            )?;
            let out = self.model.run_clip(&frames, state, &mut ctx, None)?;
            let l = out.losses.breakdown()?;
            let w = batch.len() as f64;
            acc.reconstruction += w * l.reconstruction;
            acc.prop_kl += w * l.prop_kl;
            acc.disc_kl += w * l.disc_kl;
            acc.learned_kl += w * l.learned_kl;
            acc.learned_pres_kl += w * l.learned_pres_kl;
            acc.count_prior_kl += w * l.count_prior_kl;
            acc.total += w * l.total;
            n += batch.len();
        }
        let n = n.max(1) as f64;
        Ok(LossBreakdown {
            reconstruction: acc.reconstruction / n,
            prop_kl: acc.prop_kl / n,
            disc_kl: acc.disc_kl / n,
            learned_kl: acc.learned_kl / n,
            learned_pres_kl: acc.learned_pres_kl / n,
            count_prior_kl: acc.count_prior_kl / n,
            total: acc.total / n,
        })
    }

    /// Save the latest state to `dir` (atomic files).
    pub fn save(&self, dir: &Path) -> Result<()> {
        let extra = serde_json::to_value(&self.progress)
            .map_err(|e| Error::Invalid(format!("cannot serialise progress: {e}")))?;
        checkpoint::save_checkpoint(
            dir,
            &self.varmap,
            &self.adam,
            &self.cfg.to_toml()?,
            self.progress.global_step,
            extra,
        )
    }

    /// Restore parameters, optimiser and progress from `dir` (config must match).
    pub fn load(&mut self, dir: &Path) -> Result<()> {
        self.load_with(dir, true)
    }

    /// Restore parameters and progress from `dir` (config must match), and the optimiser state
    /// too when `with_optimizer` (otherwise Adam starts afresh and its file is not read).
    pub fn load_with(&mut self, dir: &Path, with_optimizer: bool) -> Result<()> {
        let adam = with_optimizer.then_some(&mut self.adam);
        let meta =
            checkpoint::load_checkpoint(dir, &self.varmap, adam, Some(&self.cfg.to_toml()?))?;
        self.progress =
            serde_json::from_value(meta.extra.clone()).map_err(|e| Error::Checkpoint {
                path: dir.to_path_buf(),
                msg: format!("state.json `extra` is not a training progress record: {e}"),
            })?;
        Ok(())
    }

    /// End the current stage: move to the next one ([`Self::next_stage`]) or, after the last,
    /// mark the run finished.
    pub fn end_stage(&mut self, best_dir: &Path) -> Result<()> {
        if self.progress.stage + 1 >= self.cfg.train.n_stages {
            self.progress.finished = true;
            Ok(())
        } else {
            self.next_stage(best_dir)
        }
    }

    /// Move to the next stage: reload the best weights of this stage (if any), fresh Adam with
    /// lr ÷ divisor, stage-local step 0, fresh early stopping (reference §4.8).
    pub fn next_stage(&mut self, best_dir: &Path) -> Result<()> {
        if best_dir.join("state.json").exists() {
            checkpoint::load_checkpoint(best_dir, &self.varmap, None, Some(&self.cfg.to_toml()?))?;
        }
        let t = &self.cfg.train;
        self.progress.stage += 1;
        self.progress.stage_step = 0;
        self.progress.early =
            EarlyStopping::new(t.patience, schedule::patience_start(t, self.progress.stage));
        self.adam = Adam::new(
            self.vars.clone(),
            adam_config(schedule::learning_rate(t, self.progress.stage)),
        )?;
        Ok(())
    }
}

fn adam_config(lr: f64) -> AdamConfig {
    AdamConfig {
        lr,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
    }
}

fn criterion(c: StopCriterion, l: &LossBreakdown) -> f64 {
    match c {
        StopCriterion::ReconstructionLoss => l.reconstruction,
        StopCriterion::TotalLoss => l.total,
    }
}

/// Result of one validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Validation {
    /// Early-stopping score, **lower is better** (negate maximised criteria such as MOTA).
    pub score: f64,
    /// Loss terms to log on the `val` line of `metrics.jsonl`.
    pub loss: LossBreakdown,
}

/// Scores the model during training for early stopping and best-checkpoint selection.
///
/// [`run`] uses [`LossValidator`]; the code's MNIST/Shapes criterion (validation `MOTA +
/// prior-MOTA`, reference §4.8) plugs in through [`run_with_validator`] with a validator that
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
    /// Draw `cfg.train.n_val` clips from `source` with a fixed seed derived from `cfg.train.seed`
    /// (full `n_frames`, the training crop).
    pub fn from_source(cfg: &RunConfig, source: &mut dyn ClipSource) -> Result<Self> {
        let t = &cfg.train;
        let mut rng = SeededRng::new(mix_seed(t.seed, VAL_STREAM));
        let mut batches = Vec::new();
        let mut left = t.n_val;
        while left > 0 {
            let n = left.min(t.batch_size);
            let spec = ClipSpec {
                batch: n,
                n_frames: t.n_frames,
                crop: t.crop,
            };
            batches.push(source.next_batch(&spec, &mut rng)?);
            left -= n;
        }
        Ok(Self {
            batches,
            criterion: t.stop_criterion,
        })
    }
}

impl Validator for LossValidator {
    fn validate(&mut self, trainer: &Trainer) -> Result<Validation> {
        let loss = trainer.validate(&self.batches)?;
        Ok(Validation {
            score: criterion(self.criterion, &loss),
            loss,
        })
    }
}

/// Train on `source` with the loss-based [`LossValidator`]; see [`run_with_validator`].
pub fn run(
    cfg: &RunConfig,
    out_dir: &Path,
    source: &mut dyn ClipSource,
    opts: TrainOptions,
) -> Result<TrainSummary> {
    cfg.validate()?;
    let mut validator = LossValidator::from_source(cfg, source)?;
    run_with_validator(cfg, out_dir, source, &mut validator, opts)
}

/// The batch of global step `step`: all its randomness comes from a stream seeded by the step
/// alone, so a batch made ahead of time equals one made on demand.
fn batch_for_step(
    source: &mut dyn ClipSource,
    spec: &ClipSpec,
    seed: u64,
    step: u64,
) -> Result<ClipBatch> {
    let mut rng = SeededRng::new(mix_seed(seed, DATA_STREAM + step));
    source.next_batch(spec, &mut rng)
}

type Pending<'src, 'scope> =
    std::thread::ScopedJoinHandle<'scope, (&'src mut dyn ClipSource, u64, Result<ClipBatch>)>;

/// Makes the next step's batch on a background thread while the current step trains (env
/// rollouts on the host overlap the model step on the device). Batches are identical to
/// sequential ones; a prefetched batch for another step or another clip spec than the one asked
/// for is dropped.
struct Prefetcher<'src, 'scope> {
    source: Option<&'src mut dyn ClipSource>,
    pending: Option<Pending<'src, 'scope>>,
    /// Spec of the pending batch.
    pending_spec: Option<ClipSpec>,
    seed: u64,
}

impl<'src, 'scope> Prefetcher<'src, 'scope> {
    fn new(source: &'src mut dyn ClipSource, seed: u64) -> Self {
        Self {
            source: Some(source),
            pending: None,
            pending_spec: None,
            seed,
        }
    }

    /// Wait for a background batch, getting the source back.
    fn join(&mut self) -> Result<Option<(u64, Result<ClipBatch>)>> {
        let Some(h) = self.pending.take() else {
            return Ok(None);
        };
        let (src, step, batch) = h
            .join()
            .map_err(|_| Error::Invalid("the clip prefetch thread panicked".into()))?;
        self.source = Some(src);
        Ok(Some((step, batch)))
    }

    /// The batch of `step` with `spec` (prefetched if it was started so, else made now).
    fn take(&mut self, step: u64, spec: &ClipSpec) -> Result<ClipBatch> {
        let pending_spec = self.pending_spec.take();
        if let Some((s, batch)) = self.join()? {
            if s == step && pending_spec.as_ref() == Some(spec) {
                return batch;
            }
        }
        let src = self
            .source
            .as_deref_mut()
            .ok_or_else(|| Error::Invalid("clip source missing after prefetch".into()))?;
        batch_for_step(src, spec, self.seed, step)
    }

    /// Start making the batch of `step` with `spec` in the background.
    fn start<'env>(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        step: u64,
        spec: ClipSpec,
    ) where
        'src: 'scope,
    {
        let Some(src) = self.source.take() else {
            return;
        };
        self.pending_spec = Some(spec);
        let seed = self.seed;
        self.pending = Some(scope.spawn(move || {
            let batch = batch_for_step(&mut *src, &spec, seed, step);
            (src, step, batch)
        }));
    }

    /// Wait for any background batch (its result is unused).
    fn finish(&mut self) -> Result<()> {
        self.join().map(|_| ())
    }
}

/// Move `trainer` forward to the 1-based `stage` ([`TrainOptions::start_stage`]); whether it
/// moved.
fn advance_to_stage(trainer: &mut Trainer, stage: usize, best_dir: &Path) -> Result<bool> {
    let n_stages = trainer.cfg.train.n_stages;
    if stage == 0 || stage > n_stages {
        return Err(Error::Invalid(format!(
            "start stage {stage} does not exist: this config has stages 1 to {n_stages} (train.n_stages)"
        )));
    }
    let current = trainer.progress.stage + 1;
    if current > stage || trainer.progress.finished {
        return Err(Error::Invalid(format!(
            "the run is already in stage {current}{}; a run only moves forward, so start stage {stage} needs a fresh run directory",
            if trainer.progress.finished { " and finished" } else { "" }
        )));
    }
    let moved = trainer.progress.stage + 1 < stage;
    while trainer.progress.stage + 1 < stage {
        trainer.next_stage(best_dir)?;
        tracing::info!(
            step = trainer.progress.global_step,
            stage = trainer.progress.stage + 1,
            "moved to the next stage on request"
        );
    }
    Ok(moved)
}

/// Train on `source`, writing into `out_dir` (see the module docs). Resumes if `out_dir` holds a
/// checkpoint made with the same config.
pub fn run_with_validator(
    cfg: &RunConfig,
    out_dir: &Path,
    source: &mut dyn ClipSource,
    validator: &mut dyn Validator,
    opts: TrainOptions,
) -> Result<TrainSummary> {
    cfg.validate()?;
    std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
    let text = cfg.to_toml()?;
    let cfg_path = out_dir.join("config.toml");
    if cfg_path.exists() {
        let old = std::fs::read_to_string(&cfg_path).map_err(|e| Error::io(&cfg_path, e))?;
        if old != text {
            return Err(Error::Config {
                path: cfg_path.display().to_string(),
                msg: "the run directory holds a different config; use a new directory or the same config to resume".into(),
            });
        }
    } else {
        crate::util::write_atomic(&cfg_path, text.as_bytes())?;
    }
    let ckpt_dir = out_dir.join("checkpoint");
    let best_dir = out_dir.join("best");
    let mut trainer = Trainer::new(cfg, &opts.device)?;
    if ckpt_dir.join("state.json").exists() {
        trainer.load_with(&ckpt_dir, !opts.reset_optimizer)?;
        tracing::info!(
            step = trainer.progress.global_step,
            fresh_optimizer = opts.reset_optimizer,
            "resumed from {}",
            ckpt_dir.display()
        );
    }
    if let Some(stage) = opts.start_stage {
        if advance_to_stage(&mut trainer, stage, &best_dir)? {
            // Saved at once, so the move holds even if no step follows.
            trainer.save(&ckpt_dir)?;
        }
    }
    let t = cfg.train.clone();
    let max_steps = opts.steps.unwrap_or(t.steps);
    let mut log = MetricsLog::open(&out_dir.join("metrics.jsonl"))?;
    let bar = (opts.progress && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(max_steps);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed}<{eta}] {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_position(trainer.progress.global_step);
        b
    });
    let start = Instant::now();
    let mut last = LossBreakdown::default();
    let mut timed_out = false;
    // Clips as long as the frames curriculum trains on at that step (rolling out 8 frames for
    // a 2-frame step made the clip source the bottleneck of the early phases on the GPU).
    let spec_at = |stage: usize, stage_step: u64| ClipSpec {
        batch: t.batch_size,
        n_frames: schedule::n_frames(&t, stage, stage_step),
        crop: t.crop,
    };
    std::thread::scope(|scope| -> Result<()> {
        let mut prefetch = Prefetcher::new(source, t.seed);
        let mut data_wait = 0.0;
        while trainer.progress.global_step < max_steps && !trainer.progress.finished {
            let (stage, step) = (trainer.progress.stage, trainer.progress.stage_step);
            let gs0 = trainer.progress.global_step;
            let wait = Instant::now();
            let batch = prefetch.take(gs0, &spec_at(stage, step))?;
            data_wait += wait.elapsed().as_secs_f64();
            if gs0 + 1 < max_steps {
                // The next step's spec if the stage goes on (a new stage re-makes its batch).
                prefetch.start(scope, gs0 + 1, spec_at(stage, step + 1));
            }
            let frames = batch.frames_tensor(&opts.device)?;
            let offsets = batch.offsets_tensor(&opts.device)?;
            let stats = trainer.train_step(&frames, &offsets)?;
            last = stats.loss;
            let gs = trainer.progress.global_step;
            if gs % t.log_every == 0 || gs == 1 {
                log.write(&MetricsRecord {
                    kind: "train".into(),
                    step: gs,
                    stage,
                    stage_step: step + 1,
                    lr: stats.lr,
                    n_frames: stats.n_frames,
                    grad_norm: stats.grad_norm,
                    count_prior_log_odds: stats.count_prior_log_odds,
                    time_s: start.elapsed().as_secs_f64(),
                    data_wait_s: Some(data_wait),
                    score: None,
                    loss: stats.loss,
                })?;
            }
            if let Some(b) = &bar {
                b.set_position(gs);
                b.set_message(format!("stage {} loss {:.1}", stage + 1, stats.loss.total));
            }
            let ss = trainer.progress.stage_step;
            if ss % t.eval_every == 0 {
                let v = validator.validate(&trainer)?;
                log.write(&MetricsRecord {
                    kind: "val".into(),
                    step: gs,
                    stage,
                    stage_step: ss,
                    lr: stats.lr,
                    n_frames: t.n_frames,
                    grad_norm: 0.0,
                    count_prior_log_odds: stats.count_prior_log_odds,
                    time_s: start.elapsed().as_secs_f64(),
                    data_wait_s: None,
                    score: Some(v.score),
                    loss: v.loss,
                })?;
                let verdict = trainer.progress.early.observe(ss, v.score);
                if verdict.improved {
                    trainer.save(&best_dir)?;
                }
                if verdict.stop {
                    trainer.end_stage(&best_dir)?;
                }
            }
            if trainer.progress.stage == stage
                && !trainer.progress.finished
                && t.max_stage_steps
                    .is_some_and(|m| trainer.progress.stage_step >= m)
            {
                tracing::info!(step = gs, stage = stage + 1, "stage step cap reached");
                trainer.end_stage(&best_dir)?;
            }
            timed_out = opts.time_limit.is_some_and(|l| start.elapsed() >= l);
            if gs % t.checkpoint_every == 0
                || gs == max_steps
                || trainer.progress.finished
                || timed_out
            {
                trainer.save(&ckpt_dir)?;
            }
            if timed_out {
                tracing::info!(step = gs, "time limit reached; checkpoint written");
                break;
            }
        }
        prefetch.finish()
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(TrainSummary {
        steps: trainer.progress.global_step,
        stage: trainer.progress.stage,
        finished: trainer.progress.finished,
        best_val: trainer.progress.early.best,
        last,
        timed_out,
    })
}
