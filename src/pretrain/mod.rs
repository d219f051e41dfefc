//! `silot pretrain`: a [`Recipe`] run end to end through the train runner — seeds side by side,
//! the seed choice, the chosen seed's phases, finishing tails side by side, the candidates'
//! scores and the product — resumable at any point.
//!
//! The run directory:
//!
//! | path | what |
//! |---|---|
//! | `pretrain.json` | the state: recipe, env, budget, every stage's steps and device time, the choices (written atomically after every round) |
//! | `seeds/sSEED/` | each seed's run from scratch to the choice (`silot train` run directories) |
//! | `phases/NAME/` | each phase's run, branched from the previous one's last checkpoint |
//! | `tails/NAME/` | each tail's run, branched from the last phase's end; `kept/` holds its candidates |
//! | `product/` | the chosen candidate's checkpoint (`silot eval --checkpoint RUN/product`) |
//! | `report.json` | what was done and why (written last) |
//!
//! Every stage trains in rounds of at most [`ROUND_SECONDS`] through
//! [`crate::train::run_with_validator`], which resumes from its run directory's checkpoint; the
//! state is written after every round, so a kill loses at most one checkpoint interval of
//! training and one round of time accounting. The choices are pure functions of checkpoints
//! that no later step changes ([`choice`]), so a killed and resumed run makes the same choices
//! as an uninterrupted one.
//!
//! With data-parallel ranks ([`PretrainOptions::comm`], `docs/multi_gpu.md`) this process is
//! rank 0: it sends every job to the other ranks ([`follow`]) and trains it across all of them.

pub mod choice;
pub mod recipe;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use candle_core::Device;
use serde::{Deserialize, Serialize};

pub use choice::{Candidate, Derived, Score, SeedChoice, SeedEntry};
pub use recipe::{Recipe, Rule};

use crate::checkpoint::{self, EnvRecord};
use crate::config::ExperimentConfig;
use crate::env::synthetic::Split;
use crate::error::{Error, Result};
use crate::model::config::RunConfig;
use crate::train::distributed::{broadcast_bytes, Communicator, SingleProcess};
use crate::train::source::{
    rank_source_config, rollout_source, ClipSource, CLIP_GAP, VAL_CLIP_GAP,
};
use crate::train::{run_replica, validator_for, LossValidator, Progress, TrainOptions, Trainer};

/// Longest stretch of training between two writes of the state (seconds of device time): what a
/// kill can lose from the time accounting.
pub const ROUND_SECONDS: f64 = 120.0;

/// The state file's name in the run directory.
pub const STATE_FILE: &str = "pretrain.json";

/// The report's name in the run directory.
pub const REPORT_FILE: &str = "report.json";

const FORMAT: &str = "silot-pretrain-v1";

/// What [`pretrain`] needs.
pub struct PretrainOptions<'a> {
    /// Env id (`silot envs`) or experiment file.
    pub env: String,
    /// The run directory.
    pub out: PathBuf,
    /// The recipe.
    pub recipe: Recipe,
    /// Where the recipe came from (for the report).
    pub recipe_origin: String,
    /// Device-time budget in minutes (`None`: the recipe's `budget_minutes`).
    pub budget_minutes: Option<f64>,
    /// The device's name for the report (`cpu`, `cuda`).
    pub device_name: String,
    /// Opens a device handle (one per training thread).
    pub open_device: &'a (dyn Fn() -> Result<Device> + Sync),
    /// Log each stage's progress on stderr.
    pub verbose: bool,
    /// Stop after the round that ends this many seconds after the start (rounds are shortened
    /// to end by then), with the state saved: [`Outcome::Paused`]; the same command goes on.
    /// For machines lent in chunks. `None`: run to the end.
    pub time_limit: Option<f64>,
    /// Data-parallel ranks (`docs/multi_gpu.md`): this process is rank 0 of `comm`, whose other
    /// ranks run [`follow`]; every round's jobs then train one after another, each across all
    /// ranks, instead of side by side (rank 0 alone makes the choices, scores and writes).
    /// `None`: one process.
    pub comm: Option<&'a dyn Communicator>,
    /// Trains a round's jobs side by side in other processes (each through [`run_job_alone`]),
    /// the steps each reached and whether it finished, in job order. `None`: threads of this
    /// process (one device handle each). Same results either way; on one GPU separate processes
    /// overlap their host work, which threads of one process do not.
    pub side_by_side: Option<&'a SideBySide<'a>>,
}

/// Runs several [`Job`]s at once outside this process: see [`PretrainOptions::side_by_side`].
pub type SideBySide<'a> = dyn Fn(&[Job]) -> Result<Vec<(u64, bool)>> + Sync + 'a;

/// How [`pretrain`] ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The product is made (or was already).
    Finished(Box<Report>),
    /// [`PretrainOptions::time_limit`] came first; the state is saved.
    Paused {
        /// Where the run stands, in a sentence.
        at: String,
    },
}

/// Seconds an invocation keeps in hand under a time limit: no round starts with less left.
const MIN_ROUND_SECONDS: f64 = 5.0;

/// One stretch of training: the seeds before the choice, a phase, or a tail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// `seeds`, or the phase's or tail's name.
    pub name: String,
    /// `seeds`, `phase` or `tail`.
    pub kind: String,
    /// The seeds it trains (several side by side before the choice).
    pub seeds: Vec<u64>,
    /// Its run directories, relative to the run directory.
    pub run_dirs: Vec<String>,
    /// The global step it starts from.
    pub from_step: u64,
    /// The global step it reached (the lowest of its runs).
    pub to_step: u64,
    /// Device seconds spent training it (wall-clock time of its rounds; several runs side by
    /// side count once).
    pub device_seconds: f64,
    /// Finished.
    pub done: bool,
    /// Why it ended: `steps`, `deadline` or `finished` (every training stage early-stopped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<String>,
    /// For the `fill` phase: the seconds it left for what follows, estimated from the step
    /// rate measured so far (a derived knob).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve_seconds: Option<f64>,
}

/// The product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductRecord {
    /// Its checkpoint directory, relative to the run directory (`product`).
    pub checkpoint: String,
    /// The candidate it was copied from (relative).
    pub from: String,
    /// Its global step.
    pub step: u64,
    /// The rule (resolved).
    pub rule: Rule,
    /// Whether the rule read ground truth (synthetic envs only).
    pub labels_used: bool,
    /// Why, in a sentence.
    pub why: String,
}

/// `pretrain.json`, and (with totals) `report.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PretrainState {
    /// `silot-pretrain-v1`.
    pub format: String,
    /// The env id or experiment file given.
    pub env: String,
    /// Where the recipe came from.
    pub recipe_origin: String,
    /// The recipe as run (TOML): a resume must bring the same.
    pub recipe: String,
    /// The budget in minutes (`None`: no deadline).
    pub budget_minutes: Option<f64>,
    /// The device of the latest invocation.
    pub device: String,
    /// Every stage started so far, in order.
    pub stages: Vec<StageRecord>,
    /// The seed choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<SeedChoice>,
    /// Knobs derived from the model's statistics.
    #[serde(default)]
    pub derived: Vec<Derived>,
    /// Candidates scored so far.
    #[serde(default)]
    pub candidates: Vec<Candidate>,
    /// Device seconds spent scoring (the choice and the candidates).
    #[serde(default)]
    pub scoring_seconds: f64,
    /// The product, once chosen and copied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<ProductRecord>,
    /// Wall-clock seconds of every invocation, up to the latest state write.
    #[serde(default)]
    pub wall_seconds: f64,
}

/// `report.json`: the final state and its totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Everything the run did and chose.
    #[serde(flatten)]
    pub state: PretrainState,
    /// Steps of the product's line (its global step).
    pub product_steps: u64,
    /// Steps trained over every run (seeds side by side and tails counted each).
    pub steps_trained: u64,
    /// Device seconds: training and scoring.
    pub device_seconds: f64,
    /// The product's checkpoint, absolute.
    pub product_path: PathBuf,
}

impl Report {
    /// The line `silot pretrain` prints.
    pub fn line(&self, out: &Path) -> String {
        let p = self.state.product.as_ref();
        format!(
            "pretrained {}: product {} (step {}, {}; {}), {} steps trained in {:.1} device-min \
             ({:.1} wall-min); report {}",
            self.state.env,
            self.product_path.display(),
            self.product_steps,
            p.map_or(String::new(), |p| format!("from {}", p.from)),
            p.map_or(String::new(), |p| p.why.clone()),
            self.steps_trained,
            self.device_seconds / 60.0,
            self.state.wall_seconds / 60.0,
            out.join(REPORT_FILE).display()
        )
    }
}

impl PretrainState {
    fn stage(&self, name: &str) -> Option<&StageRecord> {
        self.stages.iter().find(|s| s.name == name)
    }

    fn stage_mut(&mut self, name: &str) -> Option<&mut StageRecord> {
        self.stages.iter_mut().find(|s| s.name == name)
    }

    fn training_seconds(&self) -> f64 {
        self.stages.iter().map(|s| s.device_seconds).sum()
    }

    /// Device seconds so far: training and scoring.
    pub fn device_seconds(&self) -> f64 {
        self.training_seconds() + self.scoring_seconds
    }
}

/// The run directory and its state, saved atomically with the wall time so far.
struct Run {
    out: PathBuf,
    state: PretrainState,
    wall_before: f64,
    started: Instant,
    verbose: bool,
    time_limit: Option<f64>,
}

impl Run {
    fn save(&mut self) -> Result<()> {
        self.state.wall_seconds = self.wall_before + self.started.elapsed().as_secs_f64();
        let json = serde_json::to_vec_pretty(&self.state)
            .map_err(|e| Error::Invalid(format!("cannot serialise the pretrain state: {e}")))?;
        crate::util::write_atomic(&self.out.join(STATE_FILE), &json)
    }

    /// The length of the next round (at most `want` seconds), or `None` when the invocation's
    /// time limit leaves too little for one.
    fn round(&self, want: f64) -> Option<f64> {
        match self.time_limit {
            None => Some(want),
            Some(l) => {
                let left = l - self.started.elapsed().as_secs_f64();
                (left >= MIN_ROUND_SECONDS).then(|| want.min(left))
            }
        }
    }

    fn log(&self, msg: impl AsRef<str>) {
        if self.verbose {
            eprintln!("pretrain: {}", msg.as_ref());
        }
    }

    fn rel(&self, p: &Path) -> String {
        p.strip_prefix(&self.out).unwrap_or(p).display().to_string()
    }
}

/// The global step of the checkpoint in run directory `run` (0 when it has none).
pub fn step_of(run: &Path) -> u64 {
    checkpoint::read_meta(&run.join("checkpoint")).map_or(0, |m| m.step)
}

/// Training and validation clip sources for `exp` under `cfg`, as `silot train` makes them
/// ([`rollout_source`]).
pub fn clip_sources(
    exp: &ExperimentConfig,
    cfg: &RunConfig,
) -> Result<(Box<dyn ClipSource>, Box<dyn ClipSource>)> {
    Ok((
        rollout_source(exp, cfg, Split::Train, CLIP_GAP, false)?,
        rollout_source(exp, cfg, Split::Val, VAL_CLIP_GAP, false)?,
    ))
}

/// One run of a round: train `dir` under `exp`/`cfg` to global step `target` for at most
/// `seconds`, starting it (when it has no checkpoint) from `branch` (a checkpoint directory, and
/// whether Adam starts afresh) or from scratch. Sent to the other ranks as JSON.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    exp: ExperimentConfig,
    cfg: RunConfig,
    dir: PathBuf,
    target: u64,
    seconds: f64,
    branch: Option<(PathBuf, bool)>,
    keep_every: Option<u64>,
}

/// Starts run directory `dir` from the checkpoint `src` under `cfg` (whose `[model]` may differ
/// from the checkpoint's in keys that leave the parameters' shapes, e.g. the derived
/// `max_width`): its parameters, progress and (unless `fresh_adam`) Adam state, saved at once
/// as `dir`'s own checkpoint. Nothing happens when `dir` already holds one.
fn start_from(
    dir: &Path,
    cfg: &RunConfig,
    src: &Path,
    fresh_adam: bool,
    env: &EnvRecord,
    device: &Device,
) -> Result<()> {
    let ck = dir.join("checkpoint");
    checkpoint::recover(&ck)?;
    if checkpoint::exists(&ck) {
        return Ok(());
    }
    let mut trainer = Trainer::new(cfg, device)?;
    trainer.env = Some(env.clone());
    let adam = (!fresh_adam).then_some(&mut trainer.adam as &mut dyn checkpoint::OptimizerState);
    let meta = checkpoint::load_checkpoint(src, &trainer.varmap, adam, None)?;
    let mut progress: Progress =
        serde_json::from_value(meta.extra).map_err(|e| Error::Checkpoint {
            path: src.to_path_buf(),
            msg: format!("state.json `extra` is not a training progress record: {e}"),
        })?;
    progress.early.patience = cfg.train.patience;
    progress.early.patience_start =
        crate::train::schedule::patience_start(&cfg.train, progress.stage);
    trainer.progress = progress;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    crate::util::write_atomic(&dir.join("config.toml"), cfg.to_toml()?.as_bytes())?;
    trainer.save(&ck)
}

/// Runs `jobs` side by side (one thread and device handle each) for one round; the steps each
/// reached and whether it cannot go on (every training stage finished). With several ranks
/// (`comm`), one job after another, each sent to the other ranks ([`follow`]) and trained
/// across all of them.
fn train_round(jobs: &[Job], opts: &PretrainOptions<'_>) -> Result<Vec<(u64, bool)>> {
    let (open_device, comm) = (opts.open_device, opts.comm);
    if let Some(comm) = comm.filter(|c| c.world_size() > 1) {
        return jobs
            .iter()
            .map(|job| {
                send_order(comm, &Order::Train(Box::new(job.clone())))?;
                run_job(job, open_device()?, comm)
            })
            .collect();
    }
    if let Some(side_by_side) = opts.side_by_side.filter(|_| jobs.len() > 1) {
        return side_by_side(jobs);
    }
    let results: Vec<Result<(u64, bool)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|job| scope.spawn(move || run_job(job, open_device()?, &SingleProcess)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Invalid("a training thread panicked".into())))
            })
            .collect()
    });
    results.into_iter().collect()
}

/// Train `job` alone on `device` (a process of [`PretrainOptions::side_by_side`]): the step
/// it reached and whether its run finished.
pub fn run_job_alone(job: &Job, device: Device) -> Result<(u64, bool)> {
    run_job(job, device, &SingleProcess)
}

/// Train `job` on `device` as rank `comm.rank()` (rank 0 starts its run directory from the
/// branch; the others read no file of it); the step reached and whether the run finished.
fn run_job(job: &Job, device: Device, comm: &dyn Communicator) -> Result<(u64, bool)> {
    let env = EnvRecord::of_spec(&job.exp.env)?;
    if let (Some((src, fresh)), 0) = (&job.branch, comm.rank()) {
        start_from(&job.dir, &job.cfg, src, *fresh, &env, &device)?;
    }
    let source_cfg = rank_source_config(&job.cfg, comm.world_size());
    let (mut source, mut val_source) = clip_sources(&job.exp, &source_cfg)?;
    // The stopping criterion's validator (`mota` on labelled clips of the synthetic envs); only
    // rank 0's validates, and its decisions reach the other ranks.
    let mut validator = validator_for(&job.exp, &job.cfg, val_source.as_mut())?;
    let opts = TrainOptions {
        steps: Some(job.target),
        device,
        progress: false,
        time_limit: Some(Duration::from_secs_f64(job.seconds.max(0.001))),
        reset_optimizer: false,
        start_stage: None,
        branch_from: None,
        keep_every: job.keep_every,
        env: Some(env),
        allow_env_mismatch: false,
    };
    let s = run_replica(
        &job.cfg,
        &job.dir,
        source.as_mut(),
        validator.as_mut(),
        opts,
        comm,
    )?;
    Ok((s.steps, s.finished))
}

/// What rank 0 of a data-parallel [`pretrain`] tells the other ranks.
#[derive(Debug, Clone, Serialize, Deserialize)]
enum Order {
    /// Train this job together.
    Train(Box<Job>),
    /// The run is over (finished or paused): stop following.
    Done,
}

fn send_order(comm: &dyn Communicator, order: &Order) -> Result<()> {
    let json = serde_json::to_vec(order)
        .map_err(|e| Error::Invalid(format!("a pretrain job to JSON: {e}")))?;
    broadcast_bytes(comm, &json, 0)?;
    Ok(())
}

/// A rank other than 0 of a data-parallel [`pretrain`] (rank 0 runs [`pretrain`] with
/// [`PretrainOptions::comm`]): trains every job rank 0 sends, as this rank, on devices from
/// `open_device`, until rank 0 [`release`]s it. Reads no file of the run directory.
pub fn follow(comm: &dyn Communicator, open_device: &dyn Fn() -> Result<Device>) -> Result<()> {
    loop {
        let bytes = broadcast_bytes(comm, &[], 0)?;
        let order: Order = serde_json::from_slice(&bytes).map_err(|e| {
            Error::Invalid(format!(
                "rank 0 sent a pretrain order that does not parse: {e}"
            ))
        })?;
        match order {
            Order::Done => return Ok(()),
            Order::Train(job) => {
                run_job(&job, open_device()?, comm)?;
            }
        }
    }
}

/// Rank 0 of a data-parallel [`pretrain`], once it returned: the other ranks' [`follow`] ends.
pub fn release(comm: &dyn Communicator) -> Result<()> {
    send_order(comm, &Order::Done)
}

/// Validation of checkpoints on fixed clips: the label-free losses and object statistics, and
/// MOTA on labelled validation clips where the rule is `mota`.
struct Scorer {
    cfg: RunConfig,
    validator: LossValidator,
    device: Device,
    mota: Option<(ExperimentConfig, Vec<crate::eval_protocol::EvalClip>, u64)>,
}

impl Scorer {
    fn new(
        exp: &ExperimentConfig,
        cfg: &RunConfig,
        rule: Rule,
        recipe: &Recipe,
        device: Device,
    ) -> Result<Self> {
        let (_, mut val) = clip_sources(exp, cfg)?;
        let validator = LossValidator::from_source(cfg, val.as_mut())?;
        let mota = if rule == Rule::Mota {
            let e = crate::eval_protocol::paper_protocol(exp.clone());
            let clips = crate::eval_protocol::split_clips(
                &e,
                Split::Val,
                recipe.mota.clips,
                recipe.mota.seed,
            )?;
            Some((e, clips, recipe.mota.seed))
        } else {
            None
        };
        Ok(Self {
            cfg: cfg.clone(),
            validator,
            device,
            mota,
        })
    }

    fn score(&mut self, ck: &Path) -> Result<Score> {
        let mut trainer = Trainer::new(&self.cfg, &self.device)?;
        let meta = checkpoint::load_checkpoint(ck, &trainer.varmap, None, None)?;
        if let Ok(p) = serde_json::from_value::<Progress>(meta.extra) {
            trainer.progress = p;
        }
        // Losses and object statistics only: the rule, not the stopping criterion, ranks.
        let v = self.validator.measure(&trainer)?;
        let objects = v.objects.unwrap_or_default();
        let mota = match &self.mota {
            None => None,
            Some((exp, clips, seed)) => {
                use crate::track::Tracker;
                let mut tracker = crate::trained::SilotTracker::load(ck, &self.device, *seed)?;
                let mut pred = Vec::with_capacity(clips.len());
                for c in clips {
                    pred.push(tracker.track_clip(&c.frames)?);
                }
                let gt: Vec<_> = clips.iter().map(|c| c.gt.clone()).collect();
                Some(crate::eval::evaluate(&pred, &gt, &exp.eval.metrics)?.mota)
            }
        };
        Ok(Score {
            reconstruction: v.loss.reconstruction,
            total: v.loss.total,
            box_width_px: objects.box_width_px,
            objects_per_frame: objects.objects_per_frame,
            full_frame_pairs_per_frame: v.full_frame.map(|f| f.overlapping_pairs_per_frame),
            mota,
        })
    }
}

/// Checks that `out` is a pretrain run directory, new or empty (another folder is never
/// written into), after removing the temp files of state writes a kill interrupted.
fn check_out_dir(out: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(out) else {
        return Ok(());
    };
    let mut other = None;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&format!(".{STATE_FILE}.tmp"))
            || name.starts_with(&format!(".{REPORT_FILE}.tmp"))
        {
            let _ = std::fs::remove_file(e.path());
        } else {
            other.get_or_insert(name);
        }
    }
    match other {
        Some(name) if !out.join(STATE_FILE).exists() => Err(Error::Invalid(format!(
            "`{}` is not a pretrain run directory (no {STATE_FILE}) and holds `{name}`; pretrain \
             into a new directory",
            out.display()
        ))),
        _ => Ok(()),
    }
}

/// Run (or resume) the recipe. An already finished run is reported again, never trained or
/// overwritten.
pub fn pretrain(opts: PretrainOptions) -> Result<Outcome> {
    let out = opts.out.clone();
    check_out_dir(&out)?;
    let base = crate::config::load_experiment(&opts.env)?;
    let atari = base.env.is_atari();
    let recipe = &opts.recipe;
    recipe.check_env(atari, &base.env.id)?;
    recipe.check_stages(&base, &opts.env)?;
    let recipe_text = toml::to_string(recipe)
        .map_err(|e| Error::Invalid(format!("cannot serialise the recipe: {e}")))?;
    let state_path = out.join(STATE_FILE);
    let state = if state_path.exists() {
        let text = std::fs::read_to_string(&state_path).map_err(|e| Error::io(&state_path, e))?;
        let mut s: PretrainState = serde_json::from_str(&text).map_err(|e| Error::Config {
            path: state_path.display().to_string(),
            msg: format!("not a pretrain state ({e})"),
        })?;
        let mismatch = |what: &str, was: String, now: String| {
            Error::Invalid(format!(
                "`{}` was started with {what} {was}, not {now}: resume with the same command, or \
                 pretrain into a new directory",
                out.display()
            ))
        };
        if s.env != opts.env {
            return Err(mismatch("--env", s.env, opts.env.clone()));
        }
        if s.recipe != recipe_text {
            return Err(mismatch(
                "another recipe",
                format!("({})", s.recipe_origin),
                format!("this one ({})", opts.recipe_origin),
            ));
        }
        if let Some(b) = opts.budget_minutes {
            if s.budget_minutes != Some(b) {
                return Err(mismatch(
                    "--budget",
                    format!("{:?}", s.budget_minutes),
                    b.to_string(),
                ));
            }
        }
        s.device = opts.device_name.clone();
        s
    } else {
        std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
        PretrainState {
            format: FORMAT.into(),
            env: opts.env.clone(),
            recipe_origin: opts.recipe_origin.clone(),
            recipe: recipe_text,
            budget_minutes: opts.budget_minutes.or(recipe.budget_minutes),
            device: opts.device_name.clone(),
            stages: Vec::new(),
            choice: None,
            derived: Vec::new(),
            candidates: Vec::new(),
            scoring_seconds: 0.0,
            product: None,
            wall_seconds: 0.0,
        }
    };
    let mut run = Run {
        out: out.clone(),
        wall_before: state.wall_seconds,
        state,
        started: Instant::now(),
        verbose: opts.verbose,
        time_limit: opts.time_limit,
    };
    let paused = |run: &Run, at: &str| {
        Ok(Outcome::Paused {
            at: format!(
                "paused by the time limit {at} after {:.1} device-min in all; run the same command \
                 again to go on ({})",
                run.state.device_seconds() / 60.0,
                run.out.join(STATE_FILE).display()
            ),
        })
    };
    if run.state.product.is_some() {
        run.log("this run is finished; reporting it again (nothing trained or overwritten)");
        return read_report(&out).map(|r| Outcome::Finished(Box::new(r)));
    }
    run.save()?;
    let rule_seed = recipe.seeds.rule.resolve(atari);
    let rule_product = recipe.product.rule.resolve(atari);
    let Some(choice) = seeds_and_choice(&mut run, &opts, &base, rule_seed)? else {
        return paused(&run, "before the seed choice");
    };
    let derived_model = derived_table(&run.state.derived);
    let layers_of = |p: &recipe::Phase| (p.model.clone(), p.train.clone());
    // The phases.
    let mut from_dir = out.join("seeds").join(format!("s{}", choice.chosen));
    let mut last_layers: (toml::Table, toml::Table) = Default::default();
    for (i, phase) in recipe.phases.iter().enumerate() {
        let layers = layers_of(phase);
        let exp = recipe.experiment(&base, &[(&layers.0, &layers.1)], &derived_model)?;
        let mut cfg = exp.run_config(&opts.env)?;
        cfg.train.seed = choice.chosen;
        let dir = out.join("phases").join(&phase.name);
        if !run_phase(&mut run, &opts, i, phase, exp, cfg, &dir, &from_dir)? {
            return paused(&run, &format!("in phase {}", phase.name));
        }
        from_dir = dir;
        last_layers = layers;
    }
    // The tails, side by side, and the candidates.
    let final_exp =
        recipe.experiment(&base, &[(&last_layers.0, &last_layers.1)], &derived_model)?;
    let mut final_cfg = final_exp.run_config(&opts.env)?;
    final_cfg.train.seed = choice.chosen;
    if !run_tails(
        &mut run,
        &opts,
        &base,
        &last_layers,
        &derived_model,
        choice.chosen,
        &from_dir,
    )? {
        return paused(&run, "in the tails");
    }
    let paths = candidate_paths(&run, &from_dir);
    score_candidates(
        &mut run,
        &opts,
        &final_exp,
        &final_cfg,
        rule_product,
        &paths,
    )?;
    finish(&mut run, rule_product).map(|r| Outcome::Finished(Box::new(r)))
}

/// The derived `[model]` keys as a table to lay over the experiment.
fn derived_table(derived: &[Derived]) -> toml::Table {
    let mut t = toml::Table::new();
    for d in derived {
        if let Some(v) = d.value {
            t.insert(d.key.clone(), toml::Value::Float(v));
        }
    }
    t
}

/// The seeds side by side to `[seeds] steps`, then the choice and the derived knobs (`None`:
/// paused by the time limit).
fn seeds_and_choice(
    run: &mut Run,
    opts: &PretrainOptions,
    base: &ExperimentConfig,
    rule: Rule,
) -> Result<Option<SeedChoice>> {
    if let Some(c) = &run.state.choice {
        return Ok(Some(c.clone()));
    }
    let recipe = &opts.recipe;
    let exp = recipe.experiment(base, &[], &toml::Table::new())?;
    let seeds = recipe.seeds.seeds.clone();
    let dirs: Vec<PathBuf> = seeds
        .iter()
        .map(|s| run.out.join("seeds").join(format!("s{s}")))
        .collect();
    let target = recipe.seeds.steps;
    if run.state.stage("seeds").is_none() {
        let run_dirs = dirs.iter().map(|d| run.rel(d)).collect();
        run.state.stages.push(StageRecord {
            name: "seeds".into(),
            kind: "seeds".into(),
            seeds: seeds.clone(),
            run_dirs,
            from_step: 0,
            to_step: 0,
            device_seconds: 0.0,
            done: false,
            ended_by: None,
            reserve_seconds: None,
        });
    }
    loop {
        let steps: Vec<u64> = dirs.iter().map(|d| step_of(d)).collect();
        let behind: Vec<usize> = (0..seeds.len()).filter(|&i| steps[i] < target).collect();
        let rec = run.state.stage_mut("seeds").expect("recorded above");
        rec.to_step = steps.iter().copied().min().unwrap_or(0);
        if behind.is_empty() {
            rec.done = true;
            rec.ended_by = Some("steps".into());
            run.save()?;
            break;
        }
        run.save()?;
        let Some(seconds) = run.round(ROUND_SECONDS) else {
            return Ok(None);
        };
        run.log(format!(
            "seeds {seeds:?} side by side: steps {steps:?} of {target}"
        ));
        let jobs: Vec<Job> = behind
            .iter()
            .map(|&i| -> Result<Job> {
                let mut cfg = exp.run_config(&opts.env)?;
                cfg.train.seed = seeds[i];
                Ok(Job {
                    exp: exp.clone(),
                    cfg,
                    dir: dirs[i].clone(),
                    target,
                    seconds,
                    branch: None,
                    keep_every: None,
                })
            })
            .collect::<Result<_>>()?;
        let t0 = Instant::now();
        let reached = train_round(&jobs, opts)?;
        let rec = run.state.stage_mut("seeds").expect("recorded above");
        rec.device_seconds += t0.elapsed().as_secs_f64();
        for (&i, (step, finished)) in behind.iter().zip(reached) {
            if finished && step < target {
                return Err(Error::Invalid(format!(
                    "seed {} finished all its training stages at step {step}, before step \
                     {target}; lower [seeds] steps",
                    seeds[i]
                )));
            }
        }
    }
    // The choice: every seed validated on the same clips.
    let t0 = Instant::now();
    let mut cfg = exp.run_config(&opts.env)?;
    cfg.train.seed = seeds[0];
    let mut scorer = Scorer::new(&exp, &cfg, rule, recipe, (opts.open_device)()?)?;
    let mut entries = Vec::new();
    for (s, d) in seeds.iter().zip(&dirs) {
        let ck = d.join("checkpoint");
        entries.push(SeedEntry {
            seed: *s,
            step: checkpoint::read_meta(&ck)?.step,
            score: scorer.score(&ck)?,
            set_aside: None,
        });
    }
    let choice = choice::choose_seed(entries, rule, recipe.seeds.width_outlier)?;
    let chosen = choice
        .seeds
        .iter()
        .find(|e| e.seed == choice.chosen)
        .expect("the chosen seed is listed");
    let model = cfg.model.clone();
    let derived = choice::derive_max_width(
        recipe.derive.max_width,
        chosen.score.box_width_px,
        model.anchor[1],
        model.hw_range[1],
    );
    run.log(format!("{}; max_width: {}", choice.why, derived.from));
    run.state.scoring_seconds += t0.elapsed().as_secs_f64();
    run.state.derived = vec![derived];
    run.state.choice = Some(choice.clone());
    run.save()?;
    Ok(Some(choice))
}

/// Seconds per step measured so far (the chosen seed's phases; before them, the seeds' rounds,
/// side by side, which overestimates), and seconds per scored checkpoint.
fn measured_rates(state: &PretrainState) -> (f64, f64) {
    let (mut secs, mut steps) = (0.0, 0u64);
    for s in state.stages.iter().filter(|s| s.kind == "phase") {
        secs += s.device_seconds;
        steps += s.to_step.saturating_sub(s.from_step);
    }
    if steps == 0 {
        if let Some(s) = state.stage("seeds") {
            secs = s.device_seconds;
            steps = s.to_step;
        }
    }
    let per_step = if steps > 0 { secs / steps as f64 } else { 0.0 };
    let n_scored = state.choice.as_ref().map_or(0, |c| c.seeds.len());
    let per_score = if n_scored > 0 {
        state.scoring_seconds / n_scored as f64
    } else {
        0.0
    };
    (per_step, per_score)
}

/// The seconds the stages after phase `index` (the fill phase) are estimated to take: their
/// steps at the measured rate (tails side by side counted one after another), every candidate's
/// scoring, and a tenth more.
fn reserve_seconds(recipe: &Recipe, state: &PretrainState, index: usize) -> f64 {
    let (per_step, per_score) = measured_rates(state);
    let later_steps: u64 = recipe.phases[index + 1..]
        .iter()
        .map(|p| p.steps.unwrap_or(0))
        .chain(recipe.tails.iter().map(|t| t.steps))
        .sum();
    let candidates: u64 = if recipe.tails.is_empty() {
        1
    } else {
        recipe
            .tails
            .iter()
            .map(|t| t.keep_every.map_or(0, |k| t.steps / k) + 1)
            .sum()
    };
    1.1 * (per_step * later_steps as f64 + per_score * candidates as f64)
}

/// Phase `index` of the recipe in `dir`, from the run directory `from`; false when paused by the
/// time limit.
#[allow(clippy::too_many_arguments)]
fn run_phase(
    run: &mut Run,
    opts: &PretrainOptions,
    index: usize,
    phase: &recipe::Phase,
    exp: ExperimentConfig,
    cfg: RunConfig,
    dir: &Path,
    from: &Path,
) -> Result<bool> {
    if run.state.stage(&phase.name).is_some_and(|s| s.done) {
        return Ok(true);
    }
    let from_step = step_of(from);
    if run.state.stage(&phase.name).is_none() {
        let run_dirs = vec![run.rel(dir)];
        run.state.stages.push(StageRecord {
            name: phase.name.clone(),
            kind: "phase".into(),
            seeds: vec![cfg.train.seed],
            run_dirs,
            from_step,
            to_step: from_step,
            device_seconds: 0.0,
            done: false,
            ended_by: None,
            reserve_seconds: None,
        });
        run.save()?;
    }
    let from_step = run.state.stage(&phase.name).expect("recorded").from_step;
    let budget = run.state.budget_minutes.map(|m| m * 60.0);
    let target = match (phase.steps, phase.fill, budget) {
        (Some(n), _, _) => from_step + n,
        (None, true, Some(_)) => u64::MAX,
        (None, _, _) => {
            return Err(Error::Invalid(format!(
                "phase `{}` fills the budget and has no `steps` cap, but no budget is set: give \
                 --budget MINUTES (or `budget_minutes` in the recipe), or `steps` to the phase",
                phase.name
            )))
        }
    };
    // Started at once (before any deadline can end it), so the next phase has a checkpoint to
    // start from.
    if !checkpoint::exists(&dir.join("checkpoint")) {
        let env = EnvRecord::of_spec(&exp.env)?;
        let device = (opts.open_device)()?;
        start_from(
            dir,
            &cfg,
            &from.join("checkpoint"),
            phase.fresh_adam,
            &env,
            &device,
        )?;
    }
    loop {
        let step = step_of(dir);
        let mut seconds = ROUND_SECONDS;
        let mut end = (step >= target).then_some("steps");
        let mut reserve = None;
        if end.is_none() && phase.fill {
            if let Some(b) = budget {
                let r = reserve_seconds(&opts.recipe, &run.state, index);
                let left = b - run.state.device_seconds() - r;
                reserve = Some(r);
                if left <= 0.0 {
                    end = Some("deadline");
                    if step == from_step {
                        let spent = run.state.device_seconds();
                        run.log(format!(
                            "phase {} gets no time: {spent:.0} s of the {b:.0}-s budget are spent \
                             and the later stages are estimated to take {r:.0} s; a budget of at \
                             least {:.1} min gives it some",
                            phase.name,
                            (spent + r) / 60.0
                        ));
                    }
                } else {
                    seconds = seconds.min(left);
                }
            }
        }
        let rec = run.state.stage_mut(&phase.name).expect("recorded");
        rec.to_step = step;
        rec.reserve_seconds = reserve.or(rec.reserve_seconds);
        if let Some(why) = end {
            rec.done = true;
            rec.ended_by = Some(why.into());
            run.save()?;
            run.log(format!("phase {} ended at step {step} ({why})", phase.name));
            return Ok(true);
        }
        run.save()?;
        let Some(seconds) = run.round(seconds) else {
            return Ok(false);
        };
        run.log(format!(
            "phase {}: step {step} of {}",
            phase.name,
            if target == u64::MAX {
                "the deadline".to_string()
            } else {
                target.to_string()
            }
        ));
        let job = Job {
            exp: exp.clone(),
            cfg: cfg.clone(),
            dir: dir.to_path_buf(),
            target,
            seconds,
            branch: None,
            keep_every: None,
        };
        let t0 = Instant::now();
        let reached = train_round(std::slice::from_ref(&job), opts)?;
        let rec = run.state.stage_mut(&phase.name).expect("recorded");
        rec.device_seconds += t0.elapsed().as_secs_f64();
        if reached[0].1 && reached[0].0 < target {
            rec.to_step = reached[0].0;
            rec.done = true;
            rec.ended_by = Some("finished".into());
            run.save()?;
            return Ok(true);
        }
    }
}

/// The tails side by side from the run directory `from`; false when paused by the time limit.
#[allow(clippy::too_many_arguments)]
fn run_tails(
    run: &mut Run,
    opts: &PretrainOptions,
    base: &ExperimentConfig,
    last_layers: &(toml::Table, toml::Table),
    derived_model: &toml::Table,
    seed: u64,
    from: &Path,
) -> Result<bool> {
    let recipe = &opts.recipe;
    let from_step = step_of(from);
    let mut jobs = Vec::new();
    for t in &recipe.tails {
        let dir = run.out.join("tails").join(&t.name);
        if run.state.stage(&t.name).is_none() {
            let run_dirs = vec![run.rel(&dir)];
            run.state.stages.push(StageRecord {
                name: t.name.clone(),
                kind: "tail".into(),
                seeds: vec![seed],
                run_dirs,
                from_step,
                to_step: from_step,
                device_seconds: 0.0,
                done: false,
                ended_by: None,
                reserve_seconds: None,
            });
        }
        let exp = recipe.experiment(
            base,
            &[(&last_layers.0, &last_layers.1), (&t.model, &t.train)],
            derived_model,
        )?;
        let mut cfg = exp.run_config(&opts.env)?;
        cfg.train.seed = seed;
        let target = run.state.stage(&t.name).expect("recorded").from_step + t.steps;
        jobs.push(Job {
            exp,
            cfg,
            dir,
            target,
            seconds: ROUND_SECONDS,
            branch: Some((from.join("checkpoint"), t.fresh_adam)),
            keep_every: t.keep_every,
        });
    }
    run.save()?;
    loop {
        let mut behind = Vec::new();
        for (t, job) in recipe.tails.iter().zip(&jobs) {
            let rec = run.state.stage(&t.name).expect("recorded");
            let step = if checkpoint::exists(&job.dir.join("checkpoint")) {
                step_of(&job.dir)
            } else {
                rec.from_step
            };
            let rec = run.state.stage_mut(&t.name).expect("recorded");
            rec.to_step = step;
            if !rec.done && step >= job.target {
                rec.done = true;
                rec.ended_by = Some("steps".into());
            }
            if !rec.done {
                behind.push(job);
            }
        }
        run.save()?;
        if behind.is_empty() {
            return Ok(true);
        }
        let Some(seconds) = run.round(ROUND_SECONDS) else {
            return Ok(false);
        };
        run.log(format!("{} tail(s) side by side", behind.len()));
        let round: Vec<Job> = behind
            .iter()
            .map(|j| Job {
                exp: j.exp.clone(),
                cfg: j.cfg.clone(),
                dir: j.dir.clone(),
                target: j.target,
                seconds,
                branch: j.branch.clone(),
                keep_every: j.keep_every,
            })
            .collect();
        let t0 = Instant::now();
        let reached = train_round(&round, opts)?;
        let secs = t0.elapsed().as_secs_f64();
        // Side by side: the round's time is shared among its tails.
        for (job, (step, finished)) in round.iter().zip(reached) {
            let name = job
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let rec = run.state.stage_mut(&name).expect("recorded");
            rec.device_seconds += secs / round.len() as f64;
            if finished && step < job.target {
                rec.to_step = step;
                rec.done = true;
                rec.ended_by = Some("finished".into());
            }
        }
    }
}

/// The candidates' checkpoint directories, in order: each tail's kept checkpoints and its end
/// (each step once); without tails, the last phase's end.
fn candidate_paths(run: &Run, last: &Path) -> Vec<(String, PathBuf)> {
    let recipe_tails: Vec<String> = run
        .state
        .stages
        .iter()
        .filter(|s| s.kind == "tail")
        .map(|s| s.name.clone())
        .collect();
    if recipe_tails.is_empty() {
        let name = last
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return vec![(name, last.join("checkpoint"))];
    }
    let mut out = Vec::new();
    for name in recipe_tails {
        let dir = run.out.join("tails").join(&name);
        let mut kept: Vec<PathBuf> = std::fs::read_dir(dir.join("kept"))
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with("step-"))
                            && checkpoint::exists(p)
                    })
                    .collect()
            })
            .unwrap_or_default();
        kept.sort();
        let end = dir.join("checkpoint");
        let end_step = checkpoint::read_meta(&end).map(|m| m.step).ok();
        for k in kept {
            let step = checkpoint::read_meta(&k).map(|m| m.step).ok();
            if step.is_some() && step != end_step {
                out.push((name.clone(), k));
            }
        }
        out.push((name, end));
    }
    out
}

/// Scores every candidate not scored yet (the state is written after each).
fn score_candidates(
    run: &mut Run,
    opts: &PretrainOptions,
    exp: &ExperimentConfig,
    cfg: &RunConfig,
    rule: Rule,
    paths: &[(String, PathBuf)],
) -> Result<()> {
    let todo: Vec<&(String, PathBuf)> = paths
        .iter()
        .filter(|(_, p)| {
            let rel = run.rel(p);
            !run.state.candidates.iter().any(|c| c.checkpoint == rel)
        })
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    run.log(format!(
        "scoring {} candidate(s) by {}",
        todo.len(),
        rule.name()
    ));
    let t0 = Instant::now();
    let mut scorer = Scorer::new(exp, cfg, rule, &opts.recipe, (opts.open_device)()?)?;
    run.state.scoring_seconds += t0.elapsed().as_secs_f64();
    for (branch, p) in todo {
        let t0 = Instant::now();
        let score = scorer.score(p)?;
        let step = checkpoint::read_meta(p)?.step;
        let checkpoint = run.rel(p);
        run.state.candidates.push(Candidate {
            branch: branch.clone(),
            step,
            checkpoint,
            score,
        });
        run.state.scoring_seconds += t0.elapsed().as_secs_f64();
        run.save()?;
    }
    // Candidates in the order of `paths`, whatever order a resume scored them in.
    let order: Vec<String> = paths.iter().map(|(_, p)| run.rel(p)).collect();
    run.state
        .candidates
        .sort_by_key(|c| order.iter().position(|o| *o == c.checkpoint));
    run.save()
}

/// Copies a checkpoint directory's files into a new directory `dst` (via a temp directory
/// renamed into place).
fn copy_checkpoint(src: &Path, dst: &Path) -> Result<()> {
    let src = checkpoint::readable_dir(src);
    let parent = dst.parent().unwrap_or(Path::new("."));
    let tmp = parent.join(format!(
        ".{}.tmp",
        dst.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    for e in std::fs::read_dir(&src).map_err(|e| Error::io(&src, e))? {
        let e = e.map_err(|e| Error::io(&src, e))?;
        if e.path().is_file() {
            let to = tmp.join(e.file_name());
            std::fs::copy(e.path(), &to).map_err(|err| Error::io(&to, err))?;
        }
    }
    std::fs::rename(&tmp, dst).map_err(|e| Error::io(dst, e))
}

/// The product chosen, copied to `RUN/product`, and the report written.
fn finish(run: &mut Run, rule: Rule) -> Result<Report> {
    let (i, why) = choice::choose_product(&run.state.candidates, rule)?;
    let c = run.state.candidates[i].clone();
    let src = run.out.join(&c.checkpoint);
    let dst = run.out.join("product");
    if dst.exists() {
        // Left by this run when it was killed after the copy: the same checkpoint, or refused.
        let same = std::fs::read(dst.join(checkpoint::WEIGHTS_FILE)).ok()
            == std::fs::read(checkpoint::readable_dir(&src).join(checkpoint::WEIGHTS_FILE)).ok();
        if !same {
            return Err(Error::Invalid(format!(
                "`{}` exists and is not the chosen candidate {}; move it away to let the run \
                 finish (it is not overwritten)",
                dst.display(),
                c.checkpoint
            )));
        }
    } else {
        copy_checkpoint(&src, &dst)?;
    }
    run.state.product = Some(ProductRecord {
        checkpoint: "product".into(),
        from: c.checkpoint.clone(),
        step: c.step,
        rule,
        labels_used: rule.uses_labels(),
        why,
    });
    run.save()?;
    let report = report_of(&run.state, &run.out);
    let json = serde_json::to_vec_pretty(&report)
        .map_err(|e| Error::Invalid(format!("cannot serialise the report: {e}")))?;
    crate::util::write_atomic(&run.out.join(REPORT_FILE), &json)?;
    Ok(report)
}

fn report_of(state: &PretrainState, out: &Path) -> Report {
    let steps_trained = state
        .stages
        .iter()
        .map(|s| s.to_step.saturating_sub(s.from_step) * s.run_dirs.len() as u64)
        .sum();
    Report {
        product_steps: state.product.as_ref().map_or(0, |p| p.step),
        steps_trained,
        device_seconds: state.device_seconds(),
        product_path: out.join("product"),
        state: state.clone(),
    }
}

/// The report of a finished run (written again from its state if `report.json` is missing).
fn read_report(out: &Path) -> Result<Report> {
    let path = out.join(STATE_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let state: PretrainState = serde_json::from_str(&text).map_err(|e| Error::Config {
        path: path.display().to_string(),
        msg: format!("not a pretrain state ({e})"),
    })?;
    let report = report_of(&state, out);
    if !out.join(REPORT_FILE).exists() {
        let json = serde_json::to_vec_pretty(&report)
            .map_err(|e| Error::Invalid(format!("cannot serialise the report: {e}")))?;
        crate::util::write_atomic(&out.join(REPORT_FILE), &json)?;
    }
    Ok(report)
}
