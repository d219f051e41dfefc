//! `silot observe`: run envs through the object-centric wrapper (a trained SILOT encoder) under a
//! seeded random policy; report throughput and write the object sets as JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ndarray::Axis;

use clap::Args;
use serde::Serialize;

use super::device::InferenceDeviceFlags;
use super::eval::PresenceCarryArg;
use crate::env::Frame;
use crate::eval_protocol::paper_protocol;
use crate::streams::{tracked_objects, wrapped_envs, RandomPolicy};
use crate::track::TrackedObject;
use crate::viz::{render_tracking, RenderOptions};
use crate::wrapper::{Object, ObjectEncoder};

/// Arguments of `silot observe`.
#[derive(Debug, Args)]
pub struct ObserveArgs {
    /// Env id (see `silot envs`) or experiment TOML: the env the model was trained on (Atari
    /// games use the paper's frame preset, as in training).
    #[arg(long)]
    pub env: String,
    /// Run directory of a trained SILOT model (`silot train --out`), or the name of a shipped
    /// one (`space_invaders`: `models/space_invaders/`).
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// Envs stepped together (one batched model step per vector step).
    #[arg(long, default_value_t = 1)]
    pub envs: usize,
    /// Vector steps.
    #[arg(long, default_value_t = 100)]
    pub steps: usize,
    /// Seed of the envs (env `i` gets `seed + i`) and of the random policy.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Objects with presence above this are written and counted.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f32,
    /// Write one JSON object per env and step here (`step`, `env`, `reward`, `terminated`,
    /// `truncated`, `objects`).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Include each object's appearance code (`what`) in the JSON lines.
    #[arg(long)]
    pub what: bool,
    /// Device of the model (`--device`, `--tf32`, `--half-backbone`).
    #[command(flatten)]
    pub device: InferenceDeviceFlags,
    /// How presence is carried from frame to frame (`product`, the paper's, or `binary`;
    /// default: the checkpoint config's `eval_presence_carry`).
    #[arg(long, value_enum)]
    pub presence_carry: Option<PresenceCarryArg>,
    /// Run the model although its checkpoint records another env (id, Atari preset or frame
    /// size) than `--env`: refused by default.
    #[arg(long)]
    pub allow_env_mismatch: bool,
    /// Also draw env 0's frames with its objects (presence above `--threshold`, boxes coloured
    /// by identity) here: an animated `.gif`, or a `.png` strip.
    #[arg(long)]
    pub gif: Option<PathBuf>,
    /// With `--gif`: draw every this-many-th step.
    #[arg(long, default_value_t = 2)]
    pub gif_every: usize,
}

#[derive(Serialize)]
struct Line<'a> {
    step: usize,
    env: usize,
    reward: f32,
    terminated: bool,
    truncated: bool,
    objects: &'a [Object],
}

/// Run the wrapper.
pub fn run(a: ObserveArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        a.envs > 0 && a.steps > 0,
        "--envs and --steps must be at least 1"
    );
    anyhow::ensure!(a.gif_every > 0, "--gif-every must be at least 1");
    if let Some(p) = &a.gif {
        crate::util::check_output_file(p, "--gif")?;
    }
    let cfg = paper_protocol(crate::config::load_experiment(&a.env)?);
    let device = a.device.open()?;
    crate::trained::check_run_env(
        &crate::models::resolve(&a.checkpoint)?,
        crate::trained::WhichCheckpoint::Latest,
        &cfg.env,
        a.allow_env_mismatch,
    )?;
    let mut encoder =
        ObjectEncoder::load(&crate::models::resolve(&a.checkpoint)?, &device, a.seed)?;
    if let Some(c) = a.presence_carry {
        encoder.set_presence_carry(c.into());
    }
    if a.allow_env_mismatch {
        encoder.allow_env_mismatch();
    }
    // The envs of stream evaluation (`silot eval --frames`): same seed, same frames.
    let (mut env, n_actions) = wrapped_envs(&cfg.env, a.envs, encoder)?;
    let mut out = match &a.json {
        Some(p) => Some(std::io::BufWriter::new({
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| crate::Error::io(dir, e))?;
            }
            std::fs::File::create(p).map_err(|e| crate::Error::io(p, e))?
        })),
        None => None,
    };
    // The policy of stream evaluation (`silot eval --frames`): same seed, same frames.
    let mut policy = RandomPolicy::new(a.seed, n_actions);
    let start = Instant::now();
    env.reset(Some(a.seed))?;
    let (mut counted, mut episodes) = (0usize, 0usize);
    let mut actions = vec![0usize; a.envs];
    let mut drawn: (Vec<Frame>, Vec<Vec<TrackedObject>>) = Default::default();
    for step in 0..a.steps {
        policy.act(&mut actions);
        let s = env.step(&actions)?;
        let draw = a.gif.is_some() && step % a.gif_every == 0;
        if draw {
            let objects = tracked_objects(s.objects, 0);
            drawn.1.push(
                objects
                    .into_iter()
                    .filter(|o| o.score > a.threshold)
                    .collect(),
            );
        }
        for i in 0..a.envs {
            let mut objects = s.objects.objects(i, a.threshold);
            counted += objects.len();
            episodes += usize::from(s.terminated[i] || s.truncated[i]);
            if let Some(w) = out.as_mut() {
                if !a.what {
                    objects.iter_mut().for_each(|o| o.what.clear());
                }
                let line = Line {
                    step,
                    env: i,
                    reward: s.rewards[i],
                    terminated: s.terminated[i],
                    truncated: s.truncated[i],
                    objects: &objects,
                };
                serde_json::to_writer(&mut *w, &line)?;
                w.write_all(b"\n")?;
            }
        }
        if draw {
            drawn
                .0
                .push(env.inner().obs().index_axis(Axis(0), 0).to_owned());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let frames = a.envs * (a.steps + 1);
    println!(
        "{} envs x {} steps on {:?}: {frames} frames in {secs:.2} s = {:.1} frames/s (env + \
         encoder); {:.1} objects per frame with pres > {}; {episodes} episodes ended",
        a.envs,
        a.steps,
        device,
        frames as f64 / secs,
        counted as f64 / (a.envs * a.steps) as f64,
        a.threshold
    );
    if let (Some(w), Some(p)) = (out.as_mut(), &a.json) {
        w.flush()?;
        println!("wrote {}", p.display());
    }
    if let Some(p) = &a.gif {
        let opts = RenderOptions {
            obj_threshold: a.threshold,
            ..RenderOptions::default()
        };
        render_tracking(p, &drawn.0, None, &drawn.1, &opts)?;
        println!("wrote {} (env 0, every {} steps)", p.display(), a.gif_every);
    }
    Ok(())
}
