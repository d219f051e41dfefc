//! `silot pretrain`: run a training recipe end to end ([`crate::pretrain`]), resumable.

use std::path::PathBuf;

use clap::Args;

use super::device::DeviceFlags;
use crate::pretrain::{
    follow, pretrain, release, run_job_alone, Job, Outcome, PretrainOptions, Recipe, SideBySide,
};
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
    /// How seeds and tails that train side by side run: as child processes of this command
    /// (`processes`: on one GPU their host work overlaps, which threads of one process do not)
    /// or as threads of it (`threads`). Same results either way. Default: processes with
    /// `--device cuda`, threads on the CPU.
    #[arg(long, value_enum)]
    pub side_by_side: Option<SideBySideMode>,
    /// Internal: train the job in this file alone and print its outcome (a child process of
    /// `--side-by-side processes`).
    #[arg(long, hide = true)]
    pub job: Option<PathBuf>,
}

/// `silot pretrain --side-by-side`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SideBySideMode {
    /// One child process of this command per job.
    Processes,
    /// One thread of this process per job.
    Threads,
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
    if let Some(job) = &a.job {
        return run_job_file(&a, job);
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
    let cuda = !matches!(flags.device, super::device::DeviceArg::Cpu);
    let mode = a.side_by_side.unwrap_or(if cuda {
        SideBySideMode::Processes
    } else {
        SideBySideMode::Threads
    });
    let processes = |jobs: &[Job]| jobs_as_processes(&a.out, jobs);
    let side_by_side = (mode == SideBySideMode::Processes).then_some(&processes as &SideBySide<'_>);
    if let Some(line) = lead(&a, &open, None, side_by_side)? {
        println!("{line}");
    }
    Ok(())
}

/// `--side-by-side processes`: each job written to `OUT/jobs/job_I.json` and trained by a child
/// process (this command with `--job FILE`, so the same device flags); their outcomes in job
/// order. The children end with this process ([`launch::exit_with_launcher`]); a failed one
/// fails the round with its last lines of stderr.
fn jobs_as_processes(out: &std::path::Path, jobs: &[Job]) -> crate::Result<Vec<(u64, bool)>> {
    use crate::Error;
    let dir = out.join("jobs");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let exe = std::env::current_exe()
        .map_err(|e| Error::Invalid(format!("cannot find this executable to start jobs: {e}")))?;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut children = Vec::with_capacity(jobs.len());
    for (i, job) in jobs.iter().enumerate() {
        let file = dir.join(format!("job_{i}.json"));
        let json = serde_json::to_vec(job).map_err(|e| Error::Invalid(e.to_string()))?;
        crate::util::write_atomic(&file, &json)?;
        let child = std::process::Command::new(&exe)
            .args(&args)
            .arg("--job")
            .arg(&file)
            .env(launch::LAUNCHER_PID, std::process::id().to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| Error::Invalid(format!("cannot start a job process: {e}")))?;
        children.push((file, child));
    }
    children
        .into_iter()
        .map(|(file, child)| {
            let o = child
                .wait_with_output()
                .map_err(|e| Error::Invalid(format!("job process of {}: {e}", file.display())))?;
            let stdout = String::from_utf8_lossy(&o.stdout);
            let outcome = stdout
                .lines()
                .last()
                .and_then(|l| serde_json::from_str(l).ok());
            match (o.status.success(), outcome) {
                (true, Some(outcome)) => Ok(outcome),
                _ => {
                    let stderr = String::from_utf8_lossy(&o.stderr);
                    let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
                    Err(Error::Invalid(format!(
                        "the job process of {} failed ({}): {}",
                        file.display(),
                        o.status,
                        tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
                    )))
                }
            }
        })
        .collect()
}

/// `--job FILE`: train that job alone on this command's device and print `[steps, finished]`.
fn run_job_file(a: &PretrainArgs, file: &std::path::Path) -> anyhow::Result<()> {
    launch::exit_with_launcher();
    let bytes = std::fs::read(file).map_err(|e| crate::Error::io(file, e))?;
    let job: Job = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow::anyhow!("{} is not a pretrain job: {e}", file.display()))?;
    let outcome = run_job_alone(&job, a.device.open()?)?;
    println!("{}", serde_json::to_string(&outcome)?);
    Ok(())
}

/// [`pretrain`] with these arguments (as rank 0 of `comm` if given); its line.
fn lead(
    a: &PretrainArgs,
    open: &(dyn Fn() -> crate::Result<candle_core::Device> + Sync),
    comm: Option<&dyn Communicator>,
    side_by_side: Option<&SideBySide<'_>>,
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
        side_by_side,
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
        lead(a, &open, Some(comm.as_ref()), None).and_then(|line| {
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
        Err(e) => Err(super::train::rank_failed(comm.as_ref(), env, e)),
    }
}
