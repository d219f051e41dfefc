//! The loss (the negative ELBO's terms) of several trained checkpoints on one set of clips: does
//! the objective itself prefer one model's solution over another's?
//!
//! ```text
//! cargo run --release --example validation_loss -- --env space_invaders \
//!     --checkpoint RUN_A --checkpoint RUN_B --clips 128
//! ```
//!
//! The clips are made once, as `silot train` makes its training clips from `--env`'s `[env]`
//! and `[train]` sections (running episodes of `train.rollout_envs` envs, the training crop,
//! `train.n_frames` frames) but `--gap` steps apart at most (default 200, so they spread over
//! whole episodes instead of the first ones' beginnings; `silot train` validates on such clips
//! 400 steps apart at most), from `--seed`. Every checkpoint is
//! then scored as the trainer validates (all frames, no dropout, the count prior of the
//! checkpoint's stage), each under its own saved config; the last columns are the trainer's
//! label-free object statistics (objects of presence above 0.5 per frame, presence-weighted mean
//! box size).

use std::path::PathBuf;

use anyhow::{Context, Result};
use candle_core::Device;
use clap::Parser;
use silot::env::registry;
use silot::model::config::RunConfig;
use silot::rng::SeededRng;
use silot::train::source::{ClipSource, ClipSpec, RolloutSource};
use silot::train::Trainer;
use silot::trained::checkpoint_dir;

#[derive(Parser)]
struct Args {
    /// Experiment whose env, crop and clip length make the clips (as `silot train --config`).
    #[arg(long)]
    env: String,
    /// Run or checkpoint directory of a trained model (repeat for several).
    #[arg(long, required = true)]
    checkpoint: Vec<PathBuf>,
    /// Clips to score every model on.
    #[arg(long, default_value_t = 128)]
    clips: usize,
    /// At most this many random steps between a running episode's clips.
    #[arg(long, default_value_t = 200)]
    gap: usize,
    /// Seed of the clips.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `--clips` clips in batches of the experiment's batch size.
fn make_clips(
    exp_cfg: &RunConfig,
    env: &silot::config::EnvSection,
    args: &Args,
) -> Result<Vec<silot::train::source::ClipBatch>> {
    let t = &exp_cfg.train;
    let envs = (0..t.rollout_env_count())
        .map(|_| registry::make_from_spec(env))
        .collect::<silot::Result<Vec<_>>>()?;
    let mut source = RolloutSource::continuing(envs, 300, args.gap)?;
    let spec = ClipSpec::new(t.batch_size, t.n_frames, t.crop);
    Ok(source.next_clips(args.clips, &spec, &mut SeededRng::new(args.seed))?)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let exp = silot::config::load_experiment(&args.env)?;
    let exp_cfg = exp.run_config(&args.env)?;
    let batches = make_clips(&exp_cfg, &exp.env, &args)?;
    println!(
        "{} clips ({} frames, crop {:?}), seed {}, up to {} steps apart",
        args.clips, exp_cfg.train.n_frames, exp_cfg.train.crop, args.seed, args.gap
    );
    let mut header = format!("{:<40} {:>6}", "checkpoint", "step");
    for (name, _) in silot::model::LossBreakdown::default().terms() {
        header += &format!(" {name:>15}");
    }
    header += &format!(
        " {:>13} {:>9} {:>9}",
        "objects/frame", "box_h_px", "box_w_px"
    );
    println!("{header}");
    for run in &args.checkpoint {
        let dir = checkpoint_dir(run)?;
        let text = std::fs::read_to_string(dir.join("config.toml"))
            .with_context(|| format!("reading {}", dir.join("config.toml").display()))?;
        let cfg = RunConfig::from_toml(&text, &dir.display().to_string())?;
        let mut trainer = Trainer::new(&cfg, &Device::Cpu)?;
        trainer.load_with(&dir, false)?;
        let mut row = format!("{:<40} {:>6}", run.display(), trainer.progress.global_step);
        let (loss, objects) = trainer.validate_with_objects(&batches)?;
        for (_, value) in loss.terms() {
            row += &format!(" {value:>15.1}");
        }
        row += &format!(
            " {:>13.1} {:>9.2} {:>9.2}",
            objects.objects_per_frame, objects.box_height_px, objects.box_width_px
        );
        println!("{row}");
    }
    Ok(())
}
