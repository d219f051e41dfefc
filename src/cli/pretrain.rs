//! `silot pretrain`: run a training recipe end to end ([`crate::pretrain`]), resumable.

use std::path::PathBuf;

use clap::Args;

use super::device::DeviceFlags;
use crate::pretrain::{pretrain, Outcome, PretrainOptions, Recipe};

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

/// Run or resume the recipe; prints one line.
pub fn run(a: PretrainArgs) -> anyhow::Result<()> {
    let recipe = Recipe::load(a.recipe.as_deref())?;
    let origin = a.recipe.as_ref().map_or_else(
        || crate::pretrain::recipe::DEFAULT_ORIGIN.to_string(),
        |p| p.display().to_string(),
    );
    let flags = a.device;
    // Fail early on a device that cannot open.
    flags.open()?;
    let open = move || flags.open();
    let report = pretrain(PretrainOptions {
        env: a.env.clone(),
        out: a.out.clone(),
        recipe,
        recipe_origin: origin,
        budget_minutes: a.budget,
        device_name: format!("{:?}", flags.device).to_lowercase(),
        open_device: &open,
        verbose: !a.quiet,
        time_limit: a.time_limit,
    })?;
    match report {
        Outcome::Finished(r) => println!("{}", r.line(&a.out)),
        Outcome::Paused { at } => println!("{at}"),
    }
    Ok(())
}
