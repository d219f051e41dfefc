//! `silot average`: the mean of the weights of several checkpoints of one run.

use std::path::PathBuf;

use clap::Args;

use crate::train::average_checkpoints;

/// Arguments of `silot average`.
#[derive(Debug, Args)]
pub struct AverageArgs {
    /// Checkpoint directories of one run (e.g. the chunks' `checkpoint/` copies near its end);
    /// the last one gives the result's config, Adam state and progress.
    #[arg(required = true, value_name = "CHECKPOINT_DIR")]
    pub checkpoints: Vec<PathBuf>,
    /// Directory of the averaged checkpoint (usable by `silot eval --checkpoint`, `silot observe`
    /// and `silot train` as a run's checkpoint).
    #[arg(long)]
    pub out: PathBuf,
}

/// Write the average.
pub fn run(a: AverageArgs) -> anyhow::Result<()> {
    let inputs = average_checkpoints(&a.checkpoints, &a.out)?;
    let steps: Vec<String> = inputs.iter().map(|i| i.step.to_string()).collect();
    println!(
        "averaged {} checkpoint(s) (steps {}) into {}",
        inputs.len(),
        steps.join(", "),
        a.out.display()
    );
    Ok(())
}
