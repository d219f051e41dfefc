//! The training loop: [`run`] / [`run_with_validator`] drive a [`Trainer`] over a clip source,
//! with batches made one step ahead, validation, stage changes, checkpoints and a time limit.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use candle_core::Device;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::config::RunConfig;
use crate::model::LossBreakdown;
use crate::rng::SeededRng;

use super::distributed::{Communicator, Shard, SingleProcess};
use super::metrics_log::{MetricsLog, MetricsRecord};
use super::source::{ClipBatch, ClipSource, ClipSpec};
use super::validation::{LossValidator, Validator};
use super::{schedule, StepStats, Trainer, DATA_STREAM, RANK_STREAM};
use crate::checkpoint;
use crate::seed::mix_seed;

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
    /// time-boxed run loses no steps, unlike one killed from outside. Training on streams, after
    /// the first such step at a checkpoint boundary (`train.checkpoint_every`).
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
    /// When the run directory holds no checkpoint yet: start from this other run's checkpoint
    /// directory ([`Trainer::branch_from`]: parameters, Adam state and progress; the `[model]`
    /// sections must match apart from training-only and frame-geometry keys, `[train]` may
    /// differ). Ignored once the
    /// run has its own checkpoint, so a chunked run may pass it on every chunk.
    pub branch_from: Option<PathBuf>,
    /// Also keep a full checkpoint every this many steps in `RUNDIR/kept/step-NNNNNNNN/`
    /// (weights, Adam state, progress; ~3x the parameters' size each): for scoring or averaging
    /// ([`crate::train::average_checkpoints`]) several points of a run's end.
    pub keep_every: Option<u64>,
    /// The env the clips come from, recorded in the run's checkpoints; a resume or branch from
    /// a checkpoint that records another env is an error unless `allow_env_mismatch`. `None`:
    /// unknown (nothing recorded or checked).
    pub env: Option<checkpoint::EnvRecord>,
    /// Accept a checkpoint trained on another env than [`TrainOptions::env`] (with a warning).
    pub allow_env_mismatch: bool,
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
    /// Steps this call trained (0 when the run was already at its step cap or finished; then
    /// `last` is all zeros).
    #[serde(default)]
    pub steps_this_run: u64,
}

/// Train on `source` with the loss-based [`LossValidator`]; see [`run_with_validator`]. A
/// config with `stop_criterion = "mota"` is refused (it needs the env's labelled clips: build a
/// [`super::MotaValidator`] or use [`super::validator_for`], and [`run_with_validator`]).
pub fn run(
    cfg: &RunConfig,
    out_dir: &Path,
    source: &mut dyn ClipSource,
    opts: TrainOptions,
) -> Result<TrainSummary> {
    cfg.validate()?;
    if cfg.train.stop_criterion == crate::model::config::StopCriterion::Mota {
        return Err(Error::Invalid(
            "stop_criterion = \"mota\" validates on the env's labelled clips, which train::run \
             does not know: use train::validator_for (or MotaValidator) with \
             train::run_with_validator"
                .into(),
        ));
    }
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

/// `stage` (1-based) is one of `cfg`'s stages.
fn check_stage_exists(cfg: &RunConfig, stage: usize) -> Result<()> {
    let n_stages = cfg.train.n_stages;
    if stage == 0 || stage > n_stages {
        return Err(Error::Invalid(format!(
            "start stage {stage} does not exist: this config has stages 1 to {n_stages} (train.n_stages)"
        )));
    }
    Ok(())
}

/// Move `trainer` forward to the 1-based `stage` ([`TrainOptions::start_stage`], already
/// checked by [`check_stage_exists`]); whether it moved.
fn advance_to_stage(trainer: &mut Trainer, stage: usize, best_dir: &Path) -> Result<bool> {
    let current = trainer.progress.stage + 1;
    if current > stage || trainer.progress.finished {
        return Err(Error::Invalid(format!(
            "the run is already in stage {current}{}; a run only moves forward, so start stage {stage} needs a fresh run directory",
            if trainer.progress.finished { " and finished" } else { "" }
        )));
    }
    let moved = current < stage;
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

/// The files of a run directory that training reads and writes.
struct RunDir {
    /// The latest checkpoint.
    checkpoint: PathBuf,
    /// The best validation's checkpoint (of the current stage).
    best: PathBuf,
    /// `metrics.jsonl`.
    metrics: PathBuf,
    /// Checkpoints kept on request ([`TrainOptions::keep_every`]).
    kept: PathBuf,
}

impl RunDir {
    /// Create `out_dir` and write `cfg` into its `config.toml`, or check that the config
    /// already there is the same (a run resumes only with the config it started with).
    fn claim(cfg: &RunConfig, out_dir: &Path) -> Result<Self> {
        let text = cfg.to_toml()?;
        let cfg_path = out_dir.join("config.toml");
        if let Some(name) = foreign_entry(out_dir).filter(|_| !cfg_path.exists()) {
            return Err(Error::Invalid(format!(
                "`{}` is not a run directory (it has no config.toml) but holds `{name}`, which \
                 training would replace or which another command wrote; train into a new \
                 directory",
                out_dir.display()
            )));
        }
        std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
        remove_stale_temp_files(out_dir);
        if cfg_path.exists() {
            let old = std::fs::read_to_string(&cfg_path).map_err(|e| Error::io(&cfg_path, e))?;
            let diffs = checkpoint::config_differences(&old, &text)
                .unwrap_or_else(|e| vec![format!("the saved config is not valid TOML ({e})")]);
            if !diffs.is_empty() {
                return Err(Error::Config {
                    path: cfg_path.display().to_string(),
                    msg: format!(
                        "the run directory holds a different config ({}); use a new directory or the same config (and `silot train --seed`, if the run was started with one) to resume",
                        diffs.into_iter().take(10).collect::<Vec<_>>().join("; ")
                    ),
                });
            }
        } else {
            crate::util::write_atomic(&cfg_path, text.as_bytes())?;
        }
        Ok(Self {
            checkpoint: out_dir.join("checkpoint"),
            best: out_dir.join("best"),
            metrics: out_dir.join("metrics.jsonl"),
            kept: out_dir.join("kept"),
        })
    }

    /// The paths of the run directory `out_dir` that another rank claimed ([`RunDir::claim`]).
    fn of(out_dir: &Path) -> Self {
        Self {
            checkpoint: out_dir.join("checkpoint"),
            best: out_dir.join("best"),
            metrics: out_dir.join("metrics.jsonl"),
            kept: out_dir.join("kept"),
        }
    }

    /// The kept checkpoint of step `step`.
    fn kept(&self, step: u64) -> PathBuf {
        self.kept.join(format!("step-{step:08}"))
    }
}

/// What a folder without `config.toml` may not hold for a run to start there: what training
/// would replace (its checkpoints), or another command's output (a checkpoint or a dataset).
/// Anything else (e.g. a log a script wrote before training) is left alone.
const NOT_A_RUN: &[&str] = &[
    "checkpoint",
    "best",
    "kept",
    checkpoint::STATE_FILE,
    checkpoint::WEIGHTS_FILE,
    "meta.json",
    "frames.u8",
];

/// The first entry of `dir` (without `config.toml`) that [`NOT_A_RUN`] names.
fn foreign_entry(dir: &Path) -> Option<&'static str> {
    NOT_A_RUN
        .iter()
        .copied()
        .find(|n| dir.join(n).symlink_metadata().is_ok())
}

/// Removes the temp files of `config.toml` and `metrics.jsonl` a run killed while writing them
/// left in `dir` ([`crate::util::write_atomic`]; a new process would not reuse their names).
fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(".config.toml.tmp") || name.starts_with(".metrics.jsonl.tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Finishes or undoes the saves of kept checkpoints that were killed half-way
/// ([`checkpoint::recover`] for every `.NAME.new`/`.NAME.old` left in `kept`).
fn recover_kept(kept: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(kept) else {
        return Ok(());
    };
    let mut names = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".new").or_else(|| n.strip_suffix(".old")))
        {
            names.push(stem.to_string());
        }
    }
    names.dedup();
    for n in names {
        checkpoint::recover(&kept.join(n))?;
    }
    Ok(())
}

/// A trainer for `cfg`, resumed from the run's latest checkpoint if there is one (else started
/// from `branch`, another run's checkpoint, if given) and moved to `opts.start_stage`.
fn open_trainer(
    cfg: &RunConfig,
    dir: &RunDir,
    opts: &TrainOptions,
    branch: Option<&Path>,
) -> Result<Trainer> {
    let mut trainer = Trainer::new(cfg, &opts.device)?;
    trainer.env = opts.env.clone();
    // A save killed half-way left its sets beside the directories: finish or undo it.
    checkpoint::recover(&dir.checkpoint)?;
    checkpoint::recover(&dir.best)?;
    recover_kept(&dir.kept)?;
    let check_env = |src: &Path| -> Result<()> {
        match &opts.env {
            Some(env) => checkpoint::check_env_matches(
                checkpoint::recorded_env(src)?.as_ref(),
                env,
                opts.allow_env_mismatch,
                src,
            ),
            None => Ok(()),
        }
    };
    if checkpoint::exists(&dir.checkpoint) {
        check_env(&dir.checkpoint)?;
        trainer.load_with(&dir.checkpoint, !opts.reset_optimizer)?;
        tracing::info!(
            step = trainer.progress.global_step,
            fresh_optimizer = opts.reset_optimizer,
            "resumed from {}",
            dir.checkpoint.display()
        );
    } else if let Some(src) = branch {
        check_env(src)?;
        trainer.branch_from(src, !opts.reset_optimizer)?;
        // Saved at once: from here on the run resumes from its own checkpoint.
        trainer.save(&dir.checkpoint)?;
        tracing::info!(
            step = trainer.progress.global_step,
            fresh_optimizer = opts.reset_optimizer,
            "started from {} under this config",
            src.display()
        );
    }
    if let Some(stage) = opts.start_stage {
        if advance_to_stage(&mut trainer, stage, &dir.best)? {
            // Saved at once, so the move holds even if no step follows.
            trainer.save(&dir.checkpoint)?;
        }
    }
    Ok(trainer)
}

/// A progress bar on stderr when asked for and stderr is a terminal.
fn progress_bar(show: bool, len: u64, position: u64) -> Option<indicatif::ProgressBar> {
    (show && std::io::stderr().is_terminal()).then(|| {
        let b = indicatif::ProgressBar::new(len);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed}<{eta}] {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_position(position);
        b
    })
}

/// The `metrics.jsonl` line of an update made in `stage` (0-based).
fn train_record(
    stage: usize,
    stats: &StepStats,
    trainer: &Trainer,
    time_s: f64,
    data_wait_s: f64,
) -> MetricsRecord {
    let progress = &trainer.progress;
    let groups = trainer.last_grad_norms().groups;
    MetricsRecord {
        kind: "train".into(),
        step: progress.global_step,
        stage,
        stage_step: progress.stage_step,
        lr: stats.lr,
        n_frames: stats.n_frames,
        grad_norm: stats.grad_norm,
        count_prior_log_odds: stats.count_prior_log_odds,
        time_s,
        data_wait_s: Some(data_wait_s),
        grad_norms: (!groups.is_empty()).then(|| groups.into_iter().collect()),
        objects: None,
        full_frame: None,
        streams_continued: trainer.cfg.train.streams.then_some(stats.streams_continued),
        score: None,
        mota: None,
        prior_mota: None,
        stream: None,
        loss: stats.loss,
    }
}

/// Validate after the update of `stats`, log it, keep the best checkpoint, and end the stage
/// when early stopping says so.
fn validate_and_judge(
    trainer: &mut Trainer,
    validator: &mut dyn Validator,
    log: &mut MetricsLog,
    dir: &RunDir,
    stats: &StepStats,
    time_s: f64,
) -> Result<()> {
    let v = validator.validate(trainer)?;
    let p = &trainer.progress;
    log.write(&MetricsRecord {
        kind: "val".into(),
        step: p.global_step,
        stage: p.stage,
        stage_step: p.stage_step,
        lr: stats.lr,
        n_frames: trainer.cfg.train.n_frames,
        grad_norm: 0.0,
        count_prior_log_odds: stats.count_prior_log_odds,
        time_s,
        data_wait_s: None,
        grad_norms: None,
        objects: v.objects,
        full_frame: v.full_frame,
        streams_continued: None,
        score: Some(v.score),
        mota: v.mota.map(|m| m.mota),
        prior_mota: v.mota.map(|m| m.prior_mota),
        stream: v.stream,
        loss: v.loss,
    })?;
    let verdict = trainer.progress.early.observe(p.stage_step, v.score);
    if verdict.improved {
        trainer.save(&dir.best)?;
    }
    if verdict.stop {
        trainer.end_stage(&dir.best)?;
    }
    Ok(())
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
    run_replica(cfg, out_dir, source, validator, opts, &SingleProcess)
}

/// [`run_with_validator`] as rank `comm.rank()` of `comm.world_size()` data-parallel replicas
/// (`docs/multi_gpu.md`): each trains on its share of every global batch of
/// `train.batch_size` clips from its own `source` (its data stream seeded by rank; rank 0's is
/// the one-replica run's) with the gradients averaged through `comm`. Rank 0 alone claims the run
/// directory, reads its checkpoint, writes the metrics, validates (with `validator`; the other
/// ranks' is never called) and writes checkpoints; the other ranks read no file of the run
/// directory (it need not be shared): they take rank 0's progress, parameters and Adam state
/// through `comm` at the start and whenever rank 0 moves to the next stage. With `train.streams`
/// each rank runs its own streams (new ones at the same checkpoint boundaries on every rank). Rank 0's decisions (a stage ended by
/// validation, the time limit) reach the others through `comm`. With one replica this is
/// [`run_with_validator`] exactly.
pub fn run_replica(
    cfg: &RunConfig,
    out_dir: &Path,
    source: &mut dyn ClipSource,
    validator: &mut dyn Validator,
    opts: TrainOptions,
    comm: &dyn Communicator,
) -> Result<TrainSummary> {
    cfg.validate()?;
    let (rank, world) = (comm.rank(), comm.world_size());
    let root = rank == 0;
    let shard = Shard::of_rank(rank, world, cfg.train.batch_size).map_err(|_| {
        Error::Invalid(format!(
            "train.batch_size = {} does not split into {world} equal shards (one per replica)",
            cfg.train.batch_size
        ))
    })?;
    if let Some(stage) = opts.start_stage {
        // Before the run directory is made.
        check_stage_exists(cfg, stage)?;
    }
    let branch = match &opts.branch_from {
        Some(src) if !checkpoint::exists(&out_dir.join("checkpoint")) => {
            // Before the run directory is made.
            let added = checkpoint::check_same_model(src, &cfg.to_toml()?)?;
            if !added.is_empty() && !opts.reset_optimizer {
                return Err(Error::Invalid(format!(
                    "{}: this config adds propagation's object interaction (`independent_prop = \
                     false`, the checkpoint's is true), whose variables Adam's saved state does \
                     not hold: pass --reset-optimizer (Adam afresh)",
                    src.display()
                )));
            }
            Some(src.as_path())
        }
        _ => None,
    };
    // Rank 0 claims the directory, recovers and opens its checkpoint; the others read no file
    // (they may be on other hosts): they take rank 0's progress, parameters and Adam state.
    let (dir, mut trainer) = if root {
        let dir = RunDir::claim(cfg, out_dir)?;
        let trainer = open_trainer(cfg, &dir, &opts, branch)?;
        (dir, trainer)
    } else {
        let mut trainer = Trainer::new(cfg, &opts.device)?;
        trainer.env = opts.env.clone();
        (RunDir::of(out_dir), trainer)
    };
    if world > 1 {
        trainer.adopt_from_root(comm)?;
    }
    let t = cfg.train.clone();
    let max_steps = opts.steps.unwrap_or(t.steps);
    let first_step = trainer.progress.global_step;
    // Lines of steps after the checkpoint (written before a kill) would come again.
    let mut log = if root {
        Some(MetricsLog::open_at_step(&dir.metrics, first_step)?)
    } else {
        None
    };
    let bar = progress_bar(opts.progress && root, max_steps, first_step);
    let data_seed = if rank == 0 {
        t.seed
    } else {
        mix_seed(t.seed, RANK_STREAM + rank as u64)
    };
    let start = Instant::now();
    let mut last = LossBreakdown::default();
    let mut timed_out = false;
    // Clips as long as the frames curriculum trains on at that step (rolling out 8 frames for
    // a 2-frame step made the clip source the bottleneck of the early phases on the GPU).
    // Training on streams, every checkpoint interval starts new streams (with its first
    // batch), so that a run resumed from a checkpoint goes on as one that never stopped.
    let spec_at = |stage: usize, stage_step: u64, global_step: u64| ClipSpec {
        batch: shard.rows,
        n_frames: schedule::n_frames(&t, stage, stage_step),
        crop: t.crop,
        top_every: t.crop_top_every,
        new_streams: t.streams && global_step % t.checkpoint_every == 0,
    };
    std::thread::scope(|scope| -> Result<()> {
        let mut prefetch = Prefetcher::new(source, data_seed);
        let mut data_wait = 0.0;
        while trainer.progress.global_step < max_steps && !trainer.progress.finished {
            let (stage, step) = (trainer.progress.stage, trainer.progress.stage_step);
            let gs0 = trainer.progress.global_step;
            let wait = Instant::now();
            let spec = spec_at(stage, step, gs0);
            let batch = prefetch.take(gs0, &spec)?;
            data_wait += wait.elapsed().as_secs_f64();
            if gs0 + 1 < max_steps {
                // The next step's spec if the stage goes on (a new stage re-makes its batch).
                prefetch.start(scope, gs0 + 1, spec_at(stage, step + 1, gs0 + 1));
            }
            if spec.new_streams {
                trainer.end_streams();
            }
            let stats = if world > 1 {
                trainer.train_batch_replica(&batch, comm, shard)?
            } else {
                trainer.train_batch(&batch)?
            };
            last = stats.loss;
            let gs = trainer.progress.global_step;
            if let Some(log) = log.as_mut().filter(|_| gs % t.log_every == 0 || gs == 1) {
                let time_s = start.elapsed().as_secs_f64();
                let record = train_record(stage, &stats, &trainer, time_s, data_wait);
                log.write(&record)?;
            }
            if let Some(b) = &bar {
                b.set_position(gs);
                b.set_message(format!("stage {} loss {:.1}", stage + 1, stats.loss.total));
            }
            let validated = trainer.progress.stage_step % t.eval_every == 0;
            if let Some(log) = log.as_mut().filter(|_| validated) {
                let time_s = start.elapsed().as_secs_f64();
                validate_and_judge(&mut trainer, validator, log, &dir, &stats, time_s)?;
            }
            let mut time_up = opts.time_limit.is_some_and(|l| start.elapsed() >= l);
            if world > 1 {
                // Rank 0's decisions: the stage its validation ended, its clock.
                let ended = trainer.progress.stage != stage || trainer.progress.finished;
                let flags = candle_core::Tensor::new(
                    &[f32::from(u8::from(ended)), f32::from(u8::from(time_up))],
                    &Device::Cpu,
                )?;
                let flags = comm.broadcast(&[flags], 0)?[0].to_vec1::<f32>()?;
                time_up = flags[1] > 0.0;
                if validated && flags[0] > 0.0 {
                    // Rank 0 moved on (best weights, fresh Adam, next stage): take its state.
                    trainer.adopt_from_root(comm)?;
                }
            }
            let p = &trainer.progress;
            if p.stage == stage
                && !p.finished
                && t.max_stage_steps
                    .as_ref()
                    .and_then(|m| m.of_stage(stage))
                    .is_some_and(|m| p.stage_step >= m)
            {
                tracing::info!(step = gs, stage = stage + 1, "stage step cap reached");
                // Every rank gets here at the same step; rank 0 alone reads best/.
                if root {
                    trainer.end_stage(&dir.best)?;
                }
                if world > 1 {
                    trainer.adopt_from_root(comm)?;
                }
            }
            // On streams a run stops at a checkpoint boundary, where new streams start.
            timed_out = time_up && (!t.streams || gs % t.checkpoint_every == 0);
            // The kept checkpoint first: a run killed between the two resumes from an earlier
            // checkpoint and keeps this step again.
            if root && opts.keep_every.is_some_and(|k| k > 0 && gs % k == 0) {
                trainer.save(&dir.kept(gs))?;
            }
            if root
                && (gs % t.checkpoint_every == 0
                    || gs == max_steps
                    || trainer.progress.finished
                    || timed_out)
            {
                trainer.save(&dir.checkpoint)?;
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
        steps_this_run: trainer.progress.global_step - first_step,
    })
}
