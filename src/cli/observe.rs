//! `silot observe`: run envs through the object-centric wrapper (a trained SILOT encoder) under a
//! seeded random policy; report throughput and write the object sets as JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::device::InferenceDeviceFlags;
use super::eval::PresenceCarryArg;
use crate::env::registry;
use crate::env::synthetic::Split;
use crate::env::vector::VectorEnv;
use crate::eval_protocol::paper_protocol;
use crate::streams::RandomPolicy;
use crate::wrapper::{Object, ObjectCentricVecEnv, ObjectEncoder};

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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(a.envs));
    let spec = cfg.env.clone();
    // The test split of the synthetic envs' data, as stream evaluation uses (same seed, same
    // frames).
    let venv = VectorEnv::new(
        move |_| registry::make_from_spec_split(&spec, Split::Test),
        a.envs,
        threads,
    )?;
    let n_actions = venv.single_action_space().n().unwrap_or(1);
    let mut env = ObjectCentricVecEnv::new(venv, encoder)?;
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
    for step in 0..a.steps {
        policy.act(&mut actions);
        let s = env.step(&actions)?;
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
    Ok(())
}
