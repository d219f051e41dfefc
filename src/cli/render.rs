//! `silot render`: tracking pictures (ground truth beside predictions, boxes coloured by id).

use std::path::{Path, PathBuf};

use clap::Args;

use super::clips::{eval_clips, paper_protocol};
use super::eval::{make_tracker, TrackerArgs};
use crate::env::registry;
use crate::viz::{render_tracking, RenderOptions};

/// Arguments of `silot render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Env id or experiment TOML.
    #[arg(long)]
    pub env: String,
    /// The tracker whose output is drawn.
    #[command(flatten)]
    pub tracker: TrackerArgs,
    /// Number of clips (more than one writes `NAME-<i>.png`).
    #[arg(long, default_value_t = 1)]
    pub clips: usize,
    /// Seed of the clips.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output `.png` (strip: ground truth above predictions) or `.gif` (animation).
    #[arg(long)]
    pub out: PathBuf,
    /// Integer upscaling of the frames.
    #[arg(long, default_value_t = 3)]
    pub scale: u32,
}

/// Draw the clips.
pub fn run(a: RenderArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.clips > 0, "--clips must be at least 1");
    crate::util::check_output_file(&a.out, "--out")?;
    let cfg = paper_protocol(registry::load_experiment(&a.env)?);
    let mut tracker = make_tracker(&a.tracker, &cfg, a.seed)?.tracker;
    let opts = RenderOptions {
        scale: a.scale,
        obj_threshold: cfg.eval.metrics.obj_threshold,
        ..RenderOptions::default()
    };
    for (i, clip) in eval_clips(&cfg, a.clips, a.seed)?.iter().enumerate() {
        let pred = tracker.track_clip(&clip.frames)?;
        let path = if a.clips == 1 {
            a.out.clone()
        } else {
            numbered(&a.out, i)
        };
        render_tracking(&path, &clip.frames, Some(&clip.gt), &pred, &opts)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn numbered(path: &Path, i: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}-{i}.{ext}"))
}
