//! Run an env with a seeded random policy and write a PNG strip of the frames, with the
//! ground-truth boxes drawn where the env has them.
//!
//! ```bash
//! cargo run --release --example random_agent -- scattered_shapes 8 shapes.png
//! cargo run --release --example random_agent -- space_invaders 8 invaders.png
//! ```

use anyhow::Context;
use ndarray::{Array4, Axis};
use rand::SeedableRng;
use silot::data::Clip;
use silot::env::{registry, ResetOptions};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "scattered_shapes".into());
    let steps: usize = args
        .next()
        .map(|s| s.parse())
        .transpose()
        .context("steps must be a number")?
        .unwrap_or(8);
    let out = args.next().unwrap_or_else(|| format!("{id}.png"));
    anyhow::ensure!(steps >= 1, "steps must be at least 1");

    let mut env = registry::make(&id)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let [h, w, c] = env
        .observation_space()
        .shape()
        .context("image observations expected")?;
    let mut frames = Array4::<u8>::zeros((steps, h, w, c));
    let info = env.reset_into(
        Some(0),
        &ResetOptions::default(),
        frames.index_axis_mut(Axis(0), 0),
    )?;
    let mut gt = info.objects.map(|o| vec![o]);
    let mut total_reward = 0.0;
    for t in 1..steps {
        let action = env.action_space().sample_action(&mut rng);
        let step = env.step_into(action, frames.index_axis_mut(Axis(0), t))?;
        total_reward += step.reward;
        if let (Some(g), Some(o)) = (gt.as_mut(), step.info.objects) {
            g.push(o);
        }
        if step.terminated || step.truncated {
            frames = frames.slice_axis(Axis(0), (0..=t).into()).to_owned();
            break;
        }
    }
    let n = frames.shape()[0];
    silot::viz::write_clip_strip(std::path::Path::new(&out), &Clip { frames, gt })?;
    println!("{id}: {n} frames, total reward {total_reward}, strip written to {out}");
    Ok(())
}
