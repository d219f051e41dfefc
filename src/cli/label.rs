//! `silot label`: ConnComp ground-truth labels of fresh clips, as JSON lines.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::data::{collect_clip, RolloutOptions};
use crate::env::registry;
use crate::eval_protocol::{paper_protocol, EVAL_FRAMES};

/// Arguments of `silot label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Env id or experiment TOML (Atari envs use the `paper` preset).
    #[arg(long)]
    pub env: String,
    /// Number of 8-frame clips.
    #[arg(long, default_value_t = 8)]
    pub clips: usize,
    /// Seed of the clips.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output JSON-lines file: one line per clip.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Serialize)]
struct ClipLabels {
    clip: usize,
    seed: u64,
    frames: Vec<Vec<crate::baseline::LabelledObject>>,
}

/// Label the clips and write them.
pub fn run(a: LabelArgs) -> anyhow::Result<()> {
    let cfg = paper_protocol(crate::config::load_experiment(&a.env)?);
    crate::util::check_output_file(&a.out, "--out")?;
    let mut env = registry::make_from_spec(&cfg.env)?;
    let opts = RolloutOptions {
        frames_per_clip: EVAL_FRAMES,
        max_warmup_steps: if cfg.env.is_atari() { 300 } else { 0 },
        max_attempts: 20,
    };
    let mut text = String::new();
    for i in 0..a.clips {
        let seed = crate::seed::clip_seed(a.seed, i);
        let clip = collect_clip(env.as_mut(), seed, &opts)?;
        let frames = crate::baseline::label_atari_clip(&clip.frame_vec())?;
        text.push_str(&serde_json::to_string(&ClipLabels {
            clip: i,
            seed,
            frames,
        })?);
        text.push('\n');
    }
    crate::util::write_atomic(&a.out, text.as_bytes())?;
    println!(
        "wrote ConnComp labels of {} clips to {}",
        a.clips,
        a.out.display()
    );
    Ok(())
}
