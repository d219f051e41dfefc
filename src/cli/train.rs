//! `silot train`: train SILOT from an experiment file, resumable.

use std::path::{Path, PathBuf};

use clap::Args;

use super::device::DeviceFlags;
use crate::checkpoint::{check_env_matches, EnvRecord};
use crate::config::ExperimentConfig;
use crate::env::synthetic::Split;
use crate::train::distributed::launch::{self, launch_ranks, RankEnv};
use crate::train::distributed::{run_replicas, Communicator};
use crate::train::source::{
    rank_source_config, rollout_source, ClipSource, DatasetSource, CLIP_GAP, VAL_CLIP_GAP,
};
use crate::train::{
    run_replica, run_with_validator, validator_for, BoxedValidator, TrainOptions, TrainSummary,
};

/// Arguments of `silot train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Experiment: an id (`scattered_mnist`, `space_invaders`, `smoke`, ...) or a TOML path with
    /// `[env]`, `[model]` and `[train]` sections.
    #[arg(long)]
    pub config: String,
    /// Run directory: config copy, `metrics.jsonl`, checkpoints. Resumes if it holds one.
    #[arg(long)]
    pub out: PathBuf,
    /// Stop after this many total steps (default: the config's `train.steps`).
    #[arg(long)]
    pub steps: Option<u64>,
    /// Stop after the step that ends this many seconds after the start, writing a checkpoint
    /// (resume later with the same command): for time-boxed or preemptible machines. With
    /// `train.streams`, at the first checkpoint boundary after that (streams restart there).
    #[arg(long, value_parser = positive_seconds)]
    pub time_limit: Option<f64>,
    /// Train on clips from a `silot rollout` dataset instead of rolling out the env on the fly.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Device (`--device`, `--tf32`).
    #[command(flatten)]
    pub device: DeviceFlags,
    /// Atari on the fly: roll every clip out from a fresh reset and random warm-up (the first
    /// releases' behaviour; ~15x more emulator steps per clip) instead of cutting clips from
    /// running episodes.
    #[arg(long)]
    pub fresh_clips: bool,
    /// Resume the checkpoint's parameters and step but start Adam afresh (for a run directory
    /// whose `optimizer.safetensors` was lost; the reference also restarts Adam between stages).
    /// With `--branch-from`, the branch starts with a fresh Adam, so its source may hold weights
    /// only (as the GPU machine's weights-only downloads do).
    #[arg(long)]
    pub reset_optimizer: bool,
    /// Move the run to this stage (1-based) before training, as if the earlier stages had
    /// early-stopped (best eligible weights reloaded, else the current ones; Adam afresh; that
    /// stage's learning rate, clip length and count prior). A no-op when already there.
    #[arg(long, value_name = "STAGE")]
    pub start_stage: Option<usize>,
    /// Start this run from another run's checkpoint directory (its parameters, Adam state and
    /// progress) under this command's config, whose [model] must be the same (apart from the
    /// training-only `discovery_dropout`, `kl_pres_weight_gradient`, `priors` and
    /// `obj_concrete_temp`, and the frame's `image_size`, `n_objects`, `n_objects_eval` and
    /// `discovery_cell`, and `independent_prop` from true to false, with `--reset-optimizer`: object
    /// interaction added, its relation MLP's last layer at zero): to try a change of [train]
    /// (batch size, learning rate, stages, crops or full frames), of the discovery grid or of
    /// propagation from a point of an earlier run.
    /// Ignored once the run directory holds its own checkpoint, so the same command resumes.
    #[arg(long, value_name = "CHECKPOINT_DIR")]
    pub branch_from: Option<PathBuf>,
    /// Run the model and optimiser as candle's composed ops instead of this crate's fused ones
    /// (epilogues, KLs, gated update, attention, Adam): slower, the reference the fused ops are
    /// tested against; to check that a training result does not depend on them.
    #[arg(long)]
    pub composed_ops: bool,
    /// Training seed (parameter init, training clips, noise) in place of the config's
    /// `[train] seed`, for runs of one config under several seeds; a resumed run needs the same
    /// one. The validation clips stay those of `[train] val_seed`, so the runs' validation losses
    /// compare. Several (`--seed 1 --seed 2` or `--seed 1,2`) train one run per seed at once in
    /// this process, one thread each, in `OUT/s<SEED>` (on a GPU each on its own stream of one
    /// context; measured on an H200, two such runs train no faster together than one alone,
    /// where two processes reach 1.38x: on a GPU prefer one process per seed).
    #[arg(long, value_delimiter = ',')]
    pub seed: Vec<u64>,
    /// Also keep a full checkpoint every this many steps in RUN/kept/step-NNNNNNNN/ (for
    /// scoring several points of a run, or `silot average`).
    #[arg(long, value_name = "STEPS", value_parser = clap::value_parser!(u64).range(1..))]
    pub keep_every: Option<u64>,
    /// Go on although the `--data` dataset, or the checkpoint resumed or branched from, comes
    /// from another env than the config's (id, Atari preset or frame size): refused by default.
    #[arg(long)]
    pub allow_env_mismatch: bool,
    /// Data-parallel replicas (issue 47, docs/multi_gpu.md): each trains on
    /// `train.batch_size / N` clips of every batch from its own clip source, their gradients
    /// averaged before one update. Runs N processes of this command, rank `r` on GPU `r` with
    /// NCCL (a `--features nccl` build) or on the CPU over TCP; an external launcher's
    /// `RANK`/`WORLD_SIZE`/`MASTER_ADDR`/`MASTER_PORT` do the same across hosts (then `--gpus`
    /// may be left out).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub gpus: u64,
    /// How `--gpus N` runs its replicas: one process each (`processes`, the default), or as
    /// threads of this process (`threads`: `--device cpu` only, for testing).
    #[arg(long, value_enum, default_value_t = Launch::Processes)]
    pub launch: Launch,
}

/// `--launch`: how `--gpus N` runs its replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Launch {
    /// One child process per replica (`RANK`... set for each; TCP or NCCL between them).
    Processes,
    /// Threads of this process with the in-process communicator (`--device cpu` only).
    Threads,
}

/// Run training: one run, or with several `--seed`s one run per seed at once.
pub fn run_cli(a: TrainArgs) -> anyhow::Result<()> {
    if a.composed_ops {
        crate::nn::set_fused_epilogues(false);
        crate::nn::set_fused_attention(false);
        crate::nn::set_fused_optimizer(false);
    }
    let exp = crate::config::load_experiment(&a.config)?;
    let rank_env = RankEnv::from_env()?;
    if (a.gpus > 1 || rank_env.is_some()) && a.seed.len() > 1 {
        anyhow::bail!(
            "--gpus (or RANK/WORLD_SIZE) with several --seed values is not supported: train one seed at a time"
        );
    }
    if let Some(env) = &rank_env {
        if a.gpus > 1 && a.gpus as usize != env.world_size {
            anyhow::bail!(
                "--gpus {} but WORLD_SIZE = {}: give one of them, or the same number",
                a.gpus,
                env.world_size
            );
        }
        if let Some(line) = train_rank(&a, &exp, env)? {
            println!("{line}");
        }
        return Ok(());
    }
    if a.gpus > 1 && a.launch == Launch::Processes {
        // Refused here rather than by every rank.
        let cfg = run_cfg(&a, &exp, a.seed.first().copied())?;
        shard_check(&cfg, a.gpus as usize)?;
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        launch_ranks(a.gpus as usize, &args)?;
        return Ok(());
    }
    match a.seed.as_slice() {
        [] => println!("{}", train_one(&a, &exp, None, &a.out, true)?),
        [seed] => println!("{}", train_one(&a, &exp, Some(*seed), &a.out, true)?),
        seeds => train_seeds(&a, &exp, seeds)?,
    }
    Ok(())
}

/// The run directory of `seed` when several train at once under `out`.
fn seed_run_dir(out: &Path, seed: u64) -> PathBuf {
    out.join(format!("s{seed}"))
}

/// One run per seed, each on its own thread with its own device handle, in
/// [`seed_run_dir`]s of `a.out`; every run goes on when another fails, and the failures are
/// reported together at the end.
fn train_seeds(a: &TrainArgs, exp: &ExperimentConfig, seeds: &[u64]) -> anyhow::Result<()> {
    if let Some(s) = seeds
        .iter()
        .enumerate()
        .find_map(|(i, s)| seeds[..i].contains(s).then_some(s))
    {
        anyhow::bail!("--seed {s} is given twice; give each seed once");
    }
    let results: Vec<anyhow::Result<String>> = std::thread::scope(|scope| {
        let runs: Vec<_> = seeds
            .iter()
            .map(|&seed| {
                scope.spawn(move || {
                    // Every log line of this run names its seed (a warn-level span, so that it
                    // shows under the default `warn` filter too).
                    let _span = tracing::warn_span!("run", seed).entered();
                    train_one(a, exp, Some(seed), &seed_run_dir(&a.out, seed), false)
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| {
                r.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the training thread panicked")))
            })
            .collect()
    });
    let mut failed = Vec::new();
    for (seed, r) in seeds.iter().zip(results) {
        match r {
            Ok(line) => println!("seed {seed}: {line}"),
            Err(e) => {
                eprintln!("seed {seed}: error: {e:#}");
                failed.push(seed.to_string());
            }
        }
    }
    if !failed.is_empty() {
        anyhow::bail!(
            "the runs of seed(s) {} failed (errors above)",
            failed.join(", ")
        );
    }
    Ok(())
}

/// Train one run in `out` (under `seed` if given) on a device of its own; the summary line.
fn train_one(
    a: &TrainArgs,
    exp: &ExperimentConfig,
    seed: Option<u64>,
    out: &Path,
    progress: bool,
) -> anyhow::Result<String> {
    let cfg = run_cfg(a, exp, seed)?;
    let device = a.device.open()?;
    let summary = if a.gpus <= 1 {
        let (mut source, mut validator, env) = sources(a, exp, &cfg)?;
        let opts = options(a, device, progress, env);
        run_with_validator(&cfg, out, source.as_mut(), validator.as_mut(), opts)?
    } else {
        if !device.is_cpu() {
            anyhow::bail!(
                "--launch threads runs on the CPU only (replicas as threads, for testing); on GPUs use the default --launch processes (one process per GPU, NCCL)"
            );
        }
        train_replicas(a, exp, &cfg, out, progress)?
    };
    Ok(summary_line(&cfg, &summary, out))
}

/// The run's config: the experiment's, under `seed` if given, validated.
fn run_cfg(
    a: &TrainArgs,
    exp: &ExperimentConfig,
    seed: Option<u64>,
) -> anyhow::Result<crate::model::config::RunConfig> {
    let mut cfg = exp.run_config(&a.config)?;
    if let Some(seed) = seed {
        cfg.train.seed = seed;
    }
    cfg.validate()?;
    Ok(cfg)
}

/// `train.batch_size` must split into `world` equal shards.
fn shard_check(cfg: &crate::model::config::RunConfig, world: usize) -> anyhow::Result<()> {
    if crate::train::distributed::Shard::of_rank(0, world, cfg.train.batch_size).is_err() {
        anyhow::bail!(
            "train.batch_size = {} does not split into {world} equal shards (one per replica): pick --gpus N dividing it",
            cfg.train.batch_size
        );
    }
    Ok(())
}

/// This process as rank `env.rank` of `env.world_size` (variables of [`launch_ranks`] or of an
/// external launcher): the GPU `LOCAL_RANK` (or the CPU), the group joined at
/// `MASTER_ADDR:MASTER_PORT`, the run trained as that rank. A failure aborts the group (every
/// other rank ends with an error naming this one). Rank 0's summary line; `None` elsewhere.
fn train_rank(
    a: &TrainArgs,
    exp: &ExperimentConfig,
    env: &RankEnv,
) -> anyhow::Result<Option<String>> {
    launch::exit_with_launcher();
    let (rank, world) = (env.rank, env.world_size);
    let at = |e: &dyn std::fmt::Display| anyhow::anyhow!("rank {rank} of {world}: {e:#}");
    let cfg = run_cfg(a, exp, a.seed.first().copied()).map_err(|e| at(&e))?;
    let device = a.device.open_ordinal(env.local_rank).map_err(|e| at(&e))?;
    let comm = env.join(&device).map_err(|e| at(&e))?;
    let run = || -> anyhow::Result<TrainSummary> {
        let (mut source, mut validator, record) =
            sources(a, exp, &rank_source_config(&cfg, world))?;
        let opts = options(a, device.clone(), rank == 0, record);
        Ok(run_replica(
            &cfg,
            &a.out,
            source.as_mut(),
            validator.as_mut(),
            opts,
            comm.as_ref(),
        )?)
    };
    match run() {
        Ok(summary) => Ok((rank == 0).then(|| summary_line(&cfg, &summary, &a.out))),
        Err(e) => Err(rank_failed(comm.as_ref(), env, e)),
    }
}

/// Error `e` of rank `env.rank`: the group is aborted with it and it is named by rank; a rank
/// that only stopped because another one failed exits here with [`launch::STOPPED_EXIT`] (not
/// the cause: the launcher names the rank that was).
pub(super) fn rank_failed(
    comm: &dyn Communicator,
    env: &RankEnv,
    e: anyhow::Error,
) -> anyhow::Error {
    comm.abort(&format!("rank {} failed: {e:#}", env.rank));
    let e = anyhow::anyhow!("rank {} of {}: {e:#}", env.rank, env.world_size);
    if launch::stopped_by_another_rank(&e) {
        eprintln!("error: {e:#}");
        std::process::exit(launch::STOPPED_EXIT);
    }
    e
}

/// The line `silot train` prints at the end of a run.
fn summary_line(
    cfg: &crate::model::config::RunConfig,
    summary: &TrainSummary,
    out: &Path,
) -> String {
    let last = if summary.steps_this_run > 0 {
        format!("last loss {:.3}", summary.last.total)
    } else {
        "nothing to train: the run was already there".to_string()
    };
    format!(
        "trained to step {} (stage {} of {}{}); {last}; run directory {}",
        summary.steps,
        summary.stage + 1,
        cfg.train.n_stages,
        if summary.finished {
            ", finished"
        } else if summary.timed_out {
            ", time limit reached, checkpoint written"
        } else {
            ""
        },
        out.display()
    )
}

/// The training clips, the validator of `train.stop_criterion` ([`validator_for`]) and the env
/// the clips come from: the loss-validation clips from the validation split (their own envs), or
/// from the dataset's first clips; `mota`'s labelled clips from the env's validation split.
fn sources(
    a: &TrainArgs,
    exp: &ExperimentConfig,
    cfg: &crate::model::config::RunConfig,
) -> anyhow::Result<(Box<dyn ClipSource>, BoxedValidator, EnvRecord)> {
    let fresh = a.fresh_clips;
    let mut env = EnvRecord::of_spec(&exp.env)?;
    let (mut source, val_source): (Box<dyn ClipSource>, Option<Box<dyn ClipSource>>) = match &a.data
    {
        Some(dir) => {
            if cfg.train.streams {
                anyhow::bail!(
                    "train.streams trains on running episodes and needs clips rolled out from the env; drop --data `{}` or set train.streams = false",
                    dir.display()
                );
            }
            let data = DatasetSource::open(dir)?;
            let recorded = dataset_env(data.meta());
            check_env_matches(Some(&recorded), &env, a.allow_env_mismatch, dir).map_err(|_| {
                anyhow::anyhow!(
                    "--data `{}` holds clips of {recorded} but the config `{}` trains on {env}; \
                     use a dataset of that env, or pass --allow-env-mismatch to train on it anyway",
                    dir.display(),
                    a.config
                )
            })?;
            // The model learns the clips' env: that is what its checkpoints record.
            env = recorded;
            (Box::new(data), None)
        }
        None => (
            rollout_source(exp, cfg, Split::Train, CLIP_GAP, fresh)?,
            Some(rollout_source(exp, cfg, Split::Val, VAL_CLIP_GAP, fresh)?),
        ),
    };
    let validator = match val_source {
        Some(mut v) => validator_for(exp, cfg, v.as_mut())?,
        None => validator_for(exp, cfg, source.as_mut())?,
    };
    Ok((source, validator, env))
}

/// The training options of `a` on `device`.
fn options(
    a: &TrainArgs,
    device: candle_core::Device,
    progress: bool,
    env: EnvRecord,
) -> TrainOptions {
    TrainOptions {
        steps: a.steps,
        device,
        progress,
        time_limit: a.time_limit.map(std::time::Duration::from_secs_f64),
        reset_optimizer: a.reset_optimizer,
        start_stage: a.start_stage,
        branch_from: a.branch_from.clone(),
        keep_every: a.keep_every,
        env: Some(env),
        allow_env_mismatch: a.allow_env_mismatch,
    }
}

/// `--gpus N` on the CPU: N data-parallel replicas on threads of this process
/// ([`run_replicas`]), each with its own clip source; rank 0's summary. When a rank fails, every
/// rank ends; the error is the failed rank's.
fn train_replicas(
    a: &TrainArgs,
    exp: &ExperimentConfig,
    cfg: &crate::model::config::RunConfig,
    out: &Path,
    progress: bool,
) -> anyhow::Result<TrainSummary> {
    let world = a.gpus as usize;
    let results = run_replicas(world, |rank, comm| {
        let (mut source, mut validator, env) = sources(a, exp, &rank_source_config(cfg, world))
            .map_err(|e| crate::Error::Invalid(format!("{e:#}")))?;
        let opts = options(a, candle_core::Device::Cpu, progress && rank == 0, env);
        // Rank 0 alone validates (the others' validator is never called) and its decisions
        // reach the other ranks: one score for all.
        run_replica(cfg, out, source.as_mut(), validator.as_mut(), opts, comm)
    });
    // On failure, the failed rank's own error, not the others' "stopped: rank R failed".
    let mut summary = None;
    let mut error: Option<crate::Error> = None;
    for r in results {
        match r {
            Ok(s) => {
                summary.get_or_insert(s);
            }
            Err(e) => {
                let stopped = e.to_string().contains("data-parallel training stopped");
                let have_cause = error
                    .as_ref()
                    .is_some_and(|f| !f.to_string().contains("data-parallel training stopped"));
                if error.is_none() || (!stopped && !have_cause) {
                    error = Some(e);
                }
            }
        }
    }
    match (error, summary) {
        (Some(e), _) => Err(e.into()),
        (None, Some(s)) => Ok(s),
        (None, None) => anyhow::bail!("no replica ran"),
    }
}

/// The env a dataset's clips come from, as a checkpoint records it.
fn dataset_env(meta: &crate::data::DatasetMeta) -> EnvRecord {
    let preset = meta
        .settings
        .get("atari")
        .and_then(|a| a.get("preset"))
        .and_then(|p| p.as_str())
        .map(str::to_string);
    EnvRecord {
        id: meta.env.clone(),
        preset,
        frame: [meta.height, meta.width, meta.channels],
    }
}

/// `--time-limit`: a positive, finite number of seconds.
fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("expected a positive number of seconds, got `{s}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    use crate::train::source::ClipSpec;

    /// The first batch of `split`'s clip source for the experiment `id`.
    fn first_batch(id: &str, split: Split) -> crate::train::source::ClipBatch {
        let exp = crate::config::load_experiment(id).unwrap();
        let mut cfg = exp.run_config(id).unwrap();
        cfg.train.rollout_envs = 2;
        let spec = ClipSpec::new(4, 2, None);
        rollout_source(&exp, &cfg, split, VAL_CLIP_GAP, false)
            .unwrap()
            .next_batch(&spec, &mut SeededRng::new(5))
            .unwrap()
    }

    #[test]
    fn validation_clips_come_from_the_validation_split() {
        let val = first_batch("scattered_mnist", Split::Val);
        // Fixed: the same clips at every start (a resumed run validates on the same set).
        assert_eq!(val, first_batch("scattered_mnist", Split::Val));
        // Other digits than the training split's under the same seeds.
        assert_ne!(
            val.frames,
            first_batch("scattered_mnist", Split::Train).frames
        );
    }

    /// The validator's clips for `id` under training seed `seed` and validation seed `val_seed`.
    fn validation_clips(
        id: &str,
        seed: u64,
        val_seed: u64,
    ) -> Vec<crate::train::source::ClipBatch> {
        let exp = crate::config::load_experiment(id).unwrap();
        let mut cfg = exp.run_config(id).unwrap();
        (cfg.train.seed, cfg.train.val_seed) = (seed, val_seed);
        (
            cfg.train.rollout_envs,
            cfg.train.batch_size,
            cfg.train.n_val,
        ) = (2, 2, 4);
        let mut source = rollout_source(&exp, &cfg, Split::Val, VAL_CLIP_GAP, false).unwrap();
        crate::train::LossValidator::from_source(&cfg, source.as_mut())
            .unwrap()
            .batches
    }

    #[test]
    fn validation_clips_do_not_depend_on_the_training_seed() {
        // Runs under other training seeds validate on the same clips, so their losses compare.
        let base = validation_clips("scattered_mnist", 0, 0);
        assert_eq!(base.len(), 2);
        assert_eq!(base, validation_clips("scattered_mnist", 7, 0));
        assert_ne!(base, validation_clips("scattered_mnist", 0, 3));
    }
}
