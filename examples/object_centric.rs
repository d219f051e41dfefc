//! The object-centric wrapper from the library: an env whose observations are SILOT object sets.
//!
//! ```text
//! cargo run --release --example object_centric -- --checkpoint runs/si --env space_invaders
//! cargo run --release --example object_centric        # untrained smoke model on the smoke env
//! ```
//!
//! Each step prints how many objects are present, how many kept their identity from the last
//! step, and the `(K, 6 + A)` feature array an agent's network would take.

use std::collections::HashSet;
use std::path::PathBuf;

use candle_core::{DType, Device};
use clap::Parser;
use silot::env::{registry, ResetOptions};
use silot::model::{RunConfig, Silot};
use silot::wrapper::{ObjectCentricEnv, ObjectEncoder};

#[derive(Parser)]
struct Args {
    /// Run directory of a trained model; without it, an untrained model of `envs/smoke.toml`.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Env id (the one the model was trained on).
    #[arg(long, default_value = "smoke")]
    env: String,
    /// Steps to run.
    #[arg(long, default_value_t = 10)]
    steps: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let device = Device::Cpu;
    let encoder = match &args.checkpoint {
        Some(dir) => ObjectEncoder::load(dir, &device, 0)?,
        None => {
            let cfg = RunConfig::from_toml(
                include_str!("../envs/smoke.toml"),
                "envs/smoke.toml (embedded)",
            )?;
            let (vm, model) = Silot::build(&cfg.model, 0, DType::F32, &device)?;
            println!("no --checkpoint: an untrained smoke model (boxes are not meaningful)");
            ObjectEncoder::from_model(model, vm, cfg, &device, 0)
        }
    };
    let mut cfg = silot::config::load_experiment(&args.env)?;
    if let Some(a) = cfg.env.atari.as_mut() {
        a.preset = silot::env::atari::AtariPreset::Paper; // the frames SILOT was trained on
    }
    let env = registry::make_from_spec(&cfg.env)?;
    let mut env = ObjectCentricEnv::new(env, encoder)?;
    let first = env.reset(Some(0), &ResetOptions::default())?;
    let mut last: HashSet<u64> = first.objects(0, 0.5).iter().map(|o| o.id).collect();
    for t in 0..args.steps {
        let step = env.step(0)?;
        let objects = step.objects.objects(0, 0.5);
        let ids: HashSet<u64> = objects.iter().map(|o| o.id).collect();
        println!(
            "step {t}: {} objects present, {} kept their id, features {:?}, reward {}",
            objects.len(),
            ids.intersection(&last).count(),
            step.objects.features().shape(),
            step.rewards[0]
        );
        if let Some(o) = objects.first() {
            println!(
                "  e.g. id {} at (top {:.1}, left {:.1}) size {:.1}x{:.1}, pres {:.2}",
                o.id, o.bbox[0], o.bbox[1], o.bbox[2], o.bbox[3], o.pres
            );
        }
        if step.terminated[0] || step.truncated[0] {
            env.reset(None, &ResetOptions::default())?;
        }
        last = ids;
    }
    Ok(())
}
