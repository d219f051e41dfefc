//! The evaluation clip protocol shared by `silot eval`, `label`, `render`, `baseline-search`,
//! the tests and the examples: which clips (the paper's length, the test split, seeds
//! [`crate::seed::clip_seed`]), Atari under the `paper` preset, and ground truth (exact for the
//! synthetic envs, ConnComp labels for Atari).

use crate::config::ExperimentConfig;
use crate::data::{collect_clip, Clip, RolloutOptions};
use crate::env::synthetic::Split;
use crate::env::{registry, Frame, GtObject};
use crate::error::Result;

/// An evaluation clip: frames and ground truth (exact for synthetic envs, ConnComp labels for
/// Atari).
pub struct EvalClip {
    /// Frames `(H, W, 3)`.
    pub frames: Vec<Frame>,
    /// Ground-truth objects per frame.
    pub gt: Vec<Vec<GtObject>>,
}

/// Frames per evaluation clip (the paper's clip length).
pub const EVAL_FRAMES: usize = 8;

/// Force the paper's data protocol for Atari (ground truth is defined on `paper` clips).
#[cfg_attr(not(feature = "atari"), allow(unused_mut))]
pub fn paper_protocol(mut cfg: ExperimentConfig) -> ExperimentConfig {
    #[cfg(feature = "atari")]
    if let Some(a) = cfg.env.atari.as_mut() {
        a.preset = crate::env::atari::AtariPreset::Paper;
    }
    cfg
}

/// The preset name recorded in reports (`paper` for Atari, none for synthetic envs).
pub fn preset_name(cfg: &ExperimentConfig) -> Option<String> {
    cfg.env.is_atari().then(|| "paper".to_string())
}

/// Collect `n` clips of `cfg`'s env (test split for MNIST digits); clip `i` uses
/// [`crate::seed::clip_seed`]`(seed, i)`.
pub fn eval_clips(cfg: &ExperimentConfig, n: usize, seed: u64) -> Result<Vec<EvalClip>> {
    split_clips(cfg, Split::Test, n, seed)
}

/// [`eval_clips`] from `split` of the MNIST digits (other envs have no splits).
pub fn split_clips(
    cfg: &ExperimentConfig,
    split: Split,
    n: usize,
    seed: u64,
) -> Result<Vec<EvalClip>> {
    let mut env = registry::make_from_spec_split(&cfg.env, split)?;
    let opts = RolloutOptions {
        frames_per_clip: EVAL_FRAMES,
        max_warmup_steps: if cfg.env.is_atari() { 300 } else { 0 },
        max_attempts: 20,
    };
    let pb = crate::util::progress_bar(n as u64, "clips");
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let clip = collect_clip(env.as_mut(), crate::seed::clip_seed(seed, i), &opts)?;
        out.push(to_eval_clip(clip)?);
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(out)
}

fn to_eval_clip(clip: Clip) -> Result<EvalClip> {
    let frames = clip.frame_vec();
    let gt = match clip.gt {
        Some(gt) => gt,
        None => crate::baseline::atari_ground_truth(&frames)?,
    };
    Ok(EvalClip { frames, gt })
}
