//! `silot average`: the mean of the weights of several checkpoints of one run.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::checkpoint;
use crate::train::average_checkpoints;

/// `--out` may be written: new, an empty folder, or (with `--overwrite`) a checkpoint; and
/// writable.
fn check_out(out: &Path, overwrite: bool) -> anyhow::Result<()> {
    if crate::util::is_non_empty_dir(out)? {
        anyhow::ensure!(
            out.is_dir() && checkpoint::exists(out),
            "--out `{}` is not a checkpoint directory (no state.json); --overwrite replaces only \
             checkpoints: choose another --out",
            out.display()
        );
        anyhow::ensure!(
            overwrite,
            "--out `{}` already holds a checkpoint; pass --overwrite to replace it, or choose \
             another --out",
            out.display()
        );
    }
    crate::util::check_output_dir(out, "--out")?;
    Ok(())
}

/// Arguments of `silot average`.
#[derive(Debug, Args)]
pub struct AverageArgs {
    /// Checkpoint directories of one run (e.g. the chunks' `checkpoint/` copies near its end);
    /// the last one gives the result's config, Adam state (none if it has none, e.g. brought
    /// back weights-only) and progress.
    #[arg(required = true, value_name = "CHECKPOINT_DIR")]
    pub checkpoints: Vec<PathBuf>,
    /// Directory of the averaged checkpoint (usable by `silot eval --checkpoint`, `silot observe`
    /// and `silot train` as a run's checkpoint); must be new or empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace the checkpoint at `--out` (a folder that is not a checkpoint is never replaced).
    #[arg(long)]
    pub overwrite: bool,
}

/// Write the average.
pub fn run(a: AverageArgs) -> anyhow::Result<()> {
    // (An output that is one of the inputs is refused by the averaging itself, naming that.)
    if !a
        .checkpoints
        .iter()
        .any(|c| crate::train::averaging::same_dir(c, &a.out))
    {
        check_out(&a.out, a.overwrite)?;
    }
    let avg = average_checkpoints(&a.checkpoints, &a.out)?;
    let steps: Vec<String> = avg.inputs.iter().map(|i| i.step.to_string()).collect();
    println!(
        "averaged {} checkpoint(s) (steps {}) into {}",
        avg.inputs.len(),
        steps.join(", "),
        a.out.display()
    );
    if !avg.with_optimizer {
        println!(
            "the last checkpoint holds no Adam state, nor does the average: train on from it \
             with --reset-optimizer"
        );
    }
    Ok(())
}
