//! `silot rollout`: write T-frame clips of an env to a dataset directory.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::data::{collect_clip, DatasetMeta, DatasetWriter, RolloutOptions};
use crate::env::registry;
use crate::seed::clip_seed;

/// Arguments of `silot rollout`.
#[derive(Debug, Args)]
pub struct RolloutArgs {
    /// Env id (see `silot envs`) or path to an env TOML file.
    #[arg(long)]
    pub env: String,
    /// Number of clips to write.
    #[arg(long, default_value_t = 16)]
    pub clips: usize,
    /// Frames per clip (the paper's clips have 8).
    #[arg(long, default_value_t = 8)]
    pub frames: usize,
    /// Seed: clip i resets the env with a seed derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Maximum random warm-up steps before recording (default: 0 for synthetic, 300 for Atari).
    #[arg(long)]
    pub warmup: Option<usize>,
    /// Output dataset directory (must not exist or be empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing dataset at `--out` (only once the new one is complete); a folder that
    /// is not a `silot rollout` dataset is never replaced.
    #[arg(long)]
    pub overwrite: bool,
    /// Also write the first clip as a PNG strip to this file.
    #[arg(long)]
    pub png: Option<PathBuf>,
}

/// Run the rollout.
pub fn run(a: RolloutArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.frames > 0, "--frames must be at least 1");
    let spec = registry::load_spec(&a.env)?;
    let mut env = registry::make_from_spec(&spec)?;
    let warmup = a.warmup.unwrap_or(if spec.is_atari() { 300 } else { 0 });
    let opts = RolloutOptions {
        frames_per_clip: a.frames,
        max_warmup_steps: warmup,
        max_attempts: 20,
    };
    let [h, w, c] = env
        .observation_space()
        .shape()
        .context("env has no image observation space")?;
    let clip_bytes = [a.frames, h, w, c]
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&b| b <= MAX_CLIP_BYTES);
    anyhow::ensure!(
        clip_bytes.is_some(),
        "--frames {}: a clip of {} frames of {h}x{w}x{c} would exceed {} GiB; record fewer frames",
        a.frames,
        a.frames,
        MAX_CLIP_BYTES >> 30
    );
    if let Some(png) = &a.png {
        crate::util::check_output_file(png, "--png")?;
    }
    let meta = DatasetMeta {
        format: String::new(),
        env: spec.id().to_string(),
        clips: a.clips,
        frames_per_clip: a.frames,
        height: h,
        width: w,
        channels: c,
        seed: a.seed,
        has_gt: !spec.is_atari(),
        settings: serde_json::to_value(&spec)?,
    };
    let mut writer = DatasetWriter::create(&a.out, meta, a.overwrite)?;
    let pb = super::progress_bar(a.clips as u64, "rollout");
    for i in 0..a.clips {
        let clip = collect_clip(env.as_mut(), clip_seed(a.seed, i), &opts)?;
        if i == 0 {
            if let Some(png) = &a.png {
                crate::viz::write_clip_strip(png, &clip)?;
            }
        }
        writer.push(&clip)?;
        pb.inc(1);
    }
    pb.finish_and_clear();
    let meta = writer.finish()?;
    println!(
        "wrote {} clips of {}x{}x{}x{} from `{}` to {}",
        meta.clips,
        meta.frames_per_clip,
        h,
        w,
        c,
        meta.env,
        a.out.display()
    );
    Ok(())
}

/// The largest clip `silot rollout` records (one clip is held in memory at a time).
const MAX_CLIP_BYTES: usize = 4 << 30;
