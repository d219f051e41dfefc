//! `silot render`: tracking pictures (ground truth beside predictions, boxes coloured by id).

use std::path::{Path, PathBuf};

use clap::Args;

use super::eval::{load_encoder, make_tracker, TrackerArgs, TrackerKind};
use crate::config::ExperimentConfig;
use crate::eval_protocol::{eval_clips, paper_protocol};
use crate::streams::{encode_streams, StreamOptions};
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
    /// Draw one stream of this many frames through the object-centric wrapper (a SILOT model,
    /// from a reset, episodes restarting inside) instead of 8-frame clips: every `--every`-th
    /// frame, ground truth beside the objects.
    #[arg(long)]
    pub frames: Option<usize>,
    /// With `--frames`: draw every this-many-th frame.
    #[arg(long, default_value_t = 10)]
    pub every: usize,
}

/// Draw the clips.
pub fn run(a: RenderArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.clips > 0, "--clips must be at least 1");
    crate::util::check_output_file(&a.out, "--out")?;
    let cfg = paper_protocol(crate::config::load_experiment(&a.env)?);
    let opts = RenderOptions {
        scale: a.scale,
        obj_threshold: cfg.eval.metrics.obj_threshold,
        ..RenderOptions::default()
    };
    if let Some(frames) = a.frames {
        return render_stream(&a, &cfg, frames, &opts);
    }
    let mut tracker = make_tracker(&a.tracker, &cfg, a.seed)?.tracker;
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

/// `--frames N`: one stream through the wrapper, every `--every`-th frame drawn.
fn render_stream(
    a: &RenderArgs,
    cfg: &ExperimentConfig,
    frames: usize,
    opts: &RenderOptions,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        a.clips == 1,
        "--frames draws one stream: leave --clips at 1"
    );
    anyhow::ensure!(a.every > 0, "--every must be at least 1");
    anyhow::ensure!(
        a.tracker.tracker == TrackerKind::Silot,
        "--frames draws a stream through the object-centric wrapper, which runs a SILOT model: \
         use --tracker silot --checkpoint RUNDIR"
    );
    let (encoder, _) = load_encoder(&a.tracker, &cfg.env, a.seed)?;
    let streams = StreamOptions {
        streams: 1,
        frames,
        seed: a.seed,
        keep_frames_every: a.every,
        restart_every: 0,
    };
    let rec = encode_streams(&cfg.env, encoder, &streams)?;
    let kept = &rec.frames[0];
    let images: Vec<_> = kept.iter().map(|(_, f)| f.clone()).collect();
    let gt: Vec<_> = kept.iter().map(|&(t, _)| rec.gt[0][t].clone()).collect();
    let pred: Vec<_> = kept.iter().map(|&(t, _)| rec.pred[0][t].clone()).collect();
    render_tracking(&a.out, &images, Some(&gt), &pred, opts)?;
    println!(
        "wrote {} ({} of {frames} frames, every {})",
        a.out.display(),
        images.len(),
        a.every
    );
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
