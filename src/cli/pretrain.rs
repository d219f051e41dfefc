//! `silot pretrain`: run a training recipe end to end ([`crate::pretrain`]), resumable.

use std::path::PathBuf;

use clap::Args;

use super::device::DeviceFlags;
use crate::pretrain::{follow, pretrain, release, Outcome, PretrainOptions, Recipe};
use crate::train::distributed::launch::{self, launch_ranks, RankEnv};
use crate::train::distributed::Communicator;

/// Arguments of `silot pretrain`.
#[derive(Debug, Args)]
pub struct PretrainArgs {
    /// Env: an id with a model section (`space_invaders`, `asteroids`, `scattered_mnist`,
    /// `smoke`, ...) or an experiment TOML file.
    #[arg(long)]
    pub env: String,
    /// Run directory: the state, every stage's run, `product/` and `report.json`. The same
    /// command on an existing one resumes it; a finished one is reported, never overwritten.
    #[arg(long)]
    pub out: PathBuf,
    /// Device-time budget in minutes for the whole run (the recipe's `budget_minutes` by
    /// default): the recipe's `fill` phase trains until what is left is what the later stages
    /// are estimated to need. A resume needs the same value (or none).
    #[arg(long, value_parser = positive_minutes)]
    pub budget: Option<f64>,
    /// Recipe file (default: the embedded recipes/default.toml, the same for every env).
    #[arg(long)]
    pub recipe: Option<PathBuf>,
    /// Device (`--device`, `--tf32`).
    #[command(flatten)]
    pub device: DeviceFlags,
    /// Stop after the stretch of training that ends this many seconds after the start, with the
    /// state saved (the same command goes on): for machines lent in chunks.
    #[arg(long, value_parser = positive_seconds)]
    pub time_limit: Option<f64>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Data-parallel replicas (issue 47, docs/multi_gpu.md): N processes of this command, rank
    /// `r` on GPU `r` (NCCL; a `--features nccl` build) or on the CPU (TCP). Every training run of
    /// the recipe trains across all of them (`train.batch_size / N` clips each), one after
    /// another where one process runs seeds and tails side by side; rank 0 alone chooses,
    /// scores and writes. An external launcher's `RANK`/`WORLD_SIZE`/`MASTER_ADDR`/`MASTER_PORT`
    /// do the same across hosts.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub gpus: u64,
}

/// `--budget`: a positive, finite number of minutes.
fn positive_minutes(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("expected a positive number of minutes, got `{s}`")),
    }
}

/// `--time-limit`: a positive, finite number of seconds.
fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("expected a positive number of seconds, got `{s}`")),
    }
}

/// Run or resume the recipe; prints one line. With `--gpus N` (N > 1) launches N rank
/// processes of this command; under `RANK`/`WORLD_SIZE` runs as one of them.
pub fn run(a: PretrainArgs) -> anyhow::Result<()> {
    let rank_env = RankEnv::from_env()?;
    if let Some(env) = &rank_env {
        if a.gpus > 1 && a.gpus as usize != env.world_size {
            anyhow::bail!(
                "--gpus {} but WORLD_SIZE = {}: give one of them, or the same number",
                a.gpus,
                env.world_size
            );
        }
        return run_rank(&a, env);
    }
    if a.gpus > 1 {
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        launch_ranks(a.gpus as usize, &args)?;
        return Ok(());
    }
    let flags = a.device;
    // Fail early on a device that cannot open.
    flags.open()?;
    let open = move || flags.open();
    if let Some(line) = lead(&a, &open, None)? {
        println!("{line}");
    }
    Ok(())
}

/// [`pretrain`] with these arguments (as rank 0 of `comm` if given); its line.
fn lead(
    a: &PretrainArgs,
    open: &(dyn Fn() -> crate::Result<candle_core::Device> + Sync),
    comm: Option<&dyn Communicator>,
) -> anyhow::Result<Option<String>> {
    let recipe = Recipe::load(a.recipe.as_deref())?;
    let origin = a.recipe.as_ref().map_or_else(
        || crate::pretrain::recipe::DEFAULT_ORIGIN.to_string(),
        |p| p.display().to_string(),
    );
    let report = pretrain(PretrainOptions {
        env: a.env.clone(),
        out: a.out.clone(),
        recipe,
        recipe_origin: origin,
        budget_minutes: a.budget,
        device_name: format!("{:?}", a.device.device).to_lowercase(),
        open_device: open,
        verbose: !a.quiet,
        time_limit: a.time_limit,
        comm,
    })?;
    Ok(Some(match report {
        Outcome::Finished(r) => r.line(&a.out),
        Outcome::Paused { at } => at,
    }))
}

/// This process as rank `env.rank` of a data-parallel pretrain: rank 0 runs the recipe and
/// releases the others at the end; the others follow it ([`follow`]). One device handle (GPU
/// `LOCAL_RANK`) for everything this rank runs. A failure aborts the group.
fn run_rank(a: &PretrainArgs, env: &RankEnv) -> anyhow::Result<()> {
    launch::exit_with_launcher();
    let (rank, world) = (env.rank, env.world_size);
    let at = |e: &dyn std::fmt::Display| anyhow::anyhow!("rank {rank} of {world}: {e:#}");
    let device = a.device.open_ordinal(env.local_rank).map_err(|e| at(&e))?;
    let comm = env.join(&device).map_err(|e| at(&e))?;
    let open = {
        let device = device.clone();
        move || Ok(device.clone())
    };
    // The device handle is Send + Sync; the closure only clones it.
    let result = if rank == 0 {
        lead(a, &open, Some(comm.as_ref())).and_then(|line| {
            release(comm.as_ref())?;
            Ok(line)
        })
    } else {
        follow(comm.as_ref(), &open)
            .map(|_| None)
            .map_err(anyhow::Error::from)
    };
    match result {
        Ok(line) => {
            if let Some(line) = line {
                println!("{line}");
            }
            Ok(())
        }
        Err(e) => {
            comm.abort(&format!("rank {rank} failed: {e:#}"));
            let e = at(&e);
            if launch::stopped_by_another_rank(&e) {
                // Not the cause: the launcher names the rank that was.
                eprintln!("error: {e:#}");
                std::process::exit(launch::STOPPED_EXIT);
            }
            Err(e)
        }
    }
}
