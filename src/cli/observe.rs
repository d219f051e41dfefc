//! `silot observe`: run envs through the object-centric wrapper (a trained SILOT encoder) under a
//! seeded random policy; report throughput and write the object sets as JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use ndarray::Axis;

use clap::Args;
use serde::Serialize;

use super::device::InferenceDeviceFlags;
use super::eval::{LatentsArg, PresenceCarryArg};
use crate::config::EnvSection;
use crate::env::Frame;
use crate::eval_protocol::paper_protocol;
use crate::streams::{
    env_threads, stream_envs, tracked_objects, wrapped_grouped_envs, RandomPolicy,
};
use crate::track::TrackedObject;
use crate::viz::{render_tracking, RenderOptions};
use crate::wrapper::{GroupedObjectCentricVecEnv, Object, ObjectEncoder};

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
    /// How presence is carried from frame to frame (`product`, the paper's, `binary`, `dedup`
    /// or `reid`; default: the checkpoint config's `eval_presence_carry`).
    #[arg(long, value_enum)]
    pub presence_carry: Option<PresenceCarryArg>,
    /// How the model's latents are drawn: `sampled` from the posterior or `mean` (default: the
    /// checkpoint config's `eval_noisy`; sampled for Scattered MNIST, as the paper evaluated it).
    #[arg(long, value_enum)]
    pub latents: Option<LatentsArg>,
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
    /// Split the envs into this many groups (1 <= G <= --envs; sizes differ by at most one),
    /// each with its own copy of the encoder, stepped and encoded in a pipeline: one group's
    /// envs step on the CPU while another group's frames are encoded (EnvPool's async idea).
    /// Same envs, seeds, actions and ids per env as one group (presence and boxes up to float
    /// rounding of the model's kernels at batch envs/G). Default: 2 for an Atari env on a GPU (with
    /// at least 2 envs), else 1: a synthetic env steps ~30x faster than the encoder, leaving
    /// nothing to hide but halving the encoder's batch, and on the CPU the two share the cores.
    #[arg(long)]
    pub groups: Option<usize>,
    /// Before the run, measure on the same envs and device: the bare vector env (no encoder),
    /// the encoder alone (batches of --envs frames) and observe with 1 group (if --groups is
    /// not 1); print agent steps/s of each and observe's ratio to the slower of the first two.
    #[arg(long)]
    pub baseline: bool,
    /// Threads stepping the envs (default: one per core, at most one per env).
    #[arg(long)]
    pub env_threads: Option<usize>,
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

/// Agent steps/s of `envs` envs over `steps` steps in `secs`.
fn rate(envs: usize, steps: usize, secs: f64) -> f64 {
    (envs * steps) as f64 / secs
}

/// What one pipelined run saw; the JSON lines and GIF frames are written as it goes.
struct Run {
    /// Seconds from before the reset to the end, and of the steps alone.
    secs: f64,
    step_secs: f64,
    counted: usize,
    episodes: usize,
}

/// Run the grouped envs for `a.steps` steps under the seeded random policy; group `g`'s next
/// actions are sent as soon as its results are read, so that its envs step while the other
/// groups' frames are encoded.
fn drive(
    a: &ObserveArgs,
    env: &mut GroupedObjectCentricVecEnv<Box<dyn crate::env::Env>>,
    n_actions: usize,
    mut out: Option<&mut dyn Write>,
    mut drawn: Option<&mut (Vec<Frame>, Vec<Vec<TrackedObject>>)>,
) -> anyhow::Result<Run> {
    // The policy of stream evaluation (`silot eval --frames`): same seed, same frames; the
    // actions of all envs for a step are drawn together, whatever the groups.
    let mut policy = RandomPolicy::new(a.seed, n_actions);
    let start = Instant::now();
    env.reset(Some(a.seed))?;
    let step_start = Instant::now();
    let (mut counted, mut episodes) = (0usize, 0usize);
    let groups = env.num_groups();
    let (mut actions, mut next) = (vec![0usize; a.envs], vec![0usize; a.envs]);
    policy.act(&mut actions);
    for g in 0..groups {
        env.send(g, &actions[env.group_range(g)])?;
    }
    for step in 0..a.steps {
        let more = step + 1 < a.steps;
        if more {
            policy.act(&mut next);
        }
        let draw = drawn.is_some() && step % a.gif_every == 0;
        for g in 0..groups {
            let range = env.group_range(g);
            let s = env.recv(g)?;
            let (objects, rewards) = (s.objects.clone(), s.rewards.to_vec());
            let (terminated, truncated) = (s.terminated.to_vec(), s.truncated.to_vec());
            let frame = match &mut drawn {
                Some(d) if draw && g == 0 => {
                    let objects = tracked_objects(&objects, 0);
                    d.1.push(
                        objects
                            .into_iter()
                            .filter(|o| o.score > a.threshold)
                            .collect(),
                    );
                    Some(
                        env.group(0)?
                            .inner()
                            .obs()
                            .index_axis(Axis(0), 0)
                            .to_owned(),
                    )
                }
                _ => None,
            };
            if more {
                env.send(g, &next[range.clone()])?;
            }
            for (j, i) in range.enumerate() {
                let mut found = objects.objects(j, a.threshold);
                counted += found.len();
                episodes += usize::from(terminated[j] || truncated[j]);
                if let Some(w) = out.as_mut() {
                    if !a.what {
                        found.iter_mut().for_each(|o| o.what.clear());
                    }
                    let line = Line {
                        step,
                        env: i,
                        reward: rewards[j],
                        terminated: terminated[j],
                        truncated: truncated[j],
                        objects: &found,
                    };
                    serde_json::to_writer(&mut *w, &line)?;
                    w.write_all(b"\n")?;
                }
            }
            if let (Some(d), Some(f)) = (&mut drawn, frame) {
                d.0.push(f);
            }
        }
        std::mem::swap(&mut actions, &mut next);
    }
    Ok(Run {
        secs: start.elapsed().as_secs_f64(),
        step_secs: step_start.elapsed().as_secs_f64(),
        counted,
        episodes,
    })
}

/// `silot observe --baseline`: agent steps/s of the bare vector env under the random policy and
/// of the encoder alone on batches of its frames.
fn baselines(
    a: &ObserveArgs,
    env: &EnvSection,
    threads: usize,
    encoder: &mut ObjectEncoder,
) -> anyhow::Result<(f64, f64)> {
    let mut venv = stream_envs(env, a.envs, threads)?;
    let mut policy = RandomPolicy::new(a.seed, venv.single_action_space().n().unwrap_or(1));
    let mut actions = vec![0usize; a.envs];
    venv.reset(Some(a.seed))?;
    let start = Instant::now();
    for _ in 0..a.steps {
        policy.act(&mut actions);
        venv.step(&actions)?;
    }
    let bare = rate(a.envs, a.steps, start.elapsed().as_secs_f64());
    // The encoder on the last frames, carrying objects as in a run (first step: all new).
    let frames = venv.obs().to_owned();
    drop(venv);
    encoder.encode(frames.view(), &vec![true; a.envs])?;
    let fresh = vec![false; a.envs];
    let start = Instant::now();
    for _ in 0..a.steps {
        encoder.encode(frames.view(), &fresh)?;
    }
    let alone = rate(a.envs, a.steps, start.elapsed().as_secs_f64());
    Ok((bare, alone))
}

/// Run the wrapper.
pub fn run(a: ObserveArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        a.envs > 0 && a.steps > 0,
        "--envs and --steps must be at least 1"
    );
    anyhow::ensure!(a.gif_every > 0, "--gif-every must be at least 1");
    if let Some(g) = a.groups {
        anyhow::ensure!(
            (1..=a.envs).contains(&g),
            "--groups must be between 1 and --envs ({}), got {g}",
            a.envs
        );
    }
    if let Some(p) = &a.gif {
        crate::util::check_output_file(p, "--gif")?;
    }
    let cfg = paper_protocol(crate::config::load_experiment(&a.env)?);
    let device = a.device.open()?;
    let groups = a.groups.unwrap_or_else(|| {
        crate::wrapper::default_group_count(cfg.env.is_atari(), a.envs, device.is_cuda())
    });
    anyhow::ensure!(a.env_threads != Some(0), "--env-threads must be at least 1");
    let threads = a.env_threads.unwrap_or_else(|| env_threads(a.envs));
    let run_dir = crate::models::resolve(&a.checkpoint)?;
    crate::trained::check_run_env(
        &run_dir,
        crate::trained::WhichCheckpoint::Latest,
        &cfg.env,
        a.allow_env_mismatch,
    )?;
    // One encoder per group, all the same model, seed and settings.
    let load = |_g: usize| -> crate::Result<ObjectEncoder> {
        let mut encoder = ObjectEncoder::load(&run_dir, &device, a.seed)?;
        if let Some(c) = a.presence_carry {
            encoder.set_presence_carry(c.into());
        }
        if let Some(l) = a.latents {
            encoder.set_eval_noisy(l.noisy());
        }
        if a.allow_env_mismatch {
            encoder.allow_env_mismatch();
        }
        Ok(encoder)
    };
    let baseline = if a.baseline {
        let (bare, alone) = baselines(&a, &cfg.env, threads, &mut load(0)?)?;
        let one = if groups != 1 {
            // The envs of stream evaluation (`silot eval --frames`) in one group.
            let (mut env, n_actions) = wrapped_grouped_envs(&cfg.env, a.envs, threads, 1, load)?;
            let r = drive(&a, &mut env, n_actions, None, None)?;
            Some(rate(a.envs, a.steps, r.step_secs))
        } else {
            None
        };
        Some((bare, alone, one))
    } else {
        None
    };
    // The envs of stream evaluation (`silot eval --frames`): same seed, same frames.
    let (mut env, n_actions) = wrapped_grouped_envs(&cfg.env, a.envs, threads, groups, load)?;
    let mut out = match &a.json {
        Some(p) => Some(std::io::BufWriter::new({
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| crate::Error::io(dir, e))?;
            }
            std::fs::File::create(p).map_err(|e| crate::Error::io(p, e))?
        })),
        None => None,
    };
    let mut drawn: (Vec<Frame>, Vec<Vec<TrackedObject>>) = Default::default();
    let r = drive(
        &a,
        &mut env,
        n_actions,
        out.as_mut().map(|w| w as &mut dyn Write),
        a.gif.is_some().then_some(&mut drawn),
    )?;
    drop(env);
    let frames = a.envs * (a.steps + 1);
    println!(
        "{} envs x {} steps on {:?}: {frames} frames in {:.2} s = {:.1} frames/s (env + \
         encoder); {:.1} objects per frame with pres > {}; {} episodes ended; {groups} env \
         group{}",
        a.envs,
        a.steps,
        device,
        r.secs,
        frames as f64 / r.secs,
        r.counted as f64 / (a.envs * a.steps) as f64,
        a.threshold,
        r.episodes,
        if groups == 1 { "" } else { "s (pipelined)" },
    );
    if let Some((bare, alone, one)) = baseline {
        let observed = rate(a.envs, a.steps, r.step_secs);
        let floor = bare.min(alone);
        println!("agent steps/s (steps only, {} envs):", a.envs);
        println!("  {:<20} {bare:>10.1}", "bare vector env");
        println!("  {:<20} {alone:>10.1}", "encoder alone");
        if let Some(one) = one {
            let r = one / floor;
            println!(
                "  {:<20} {one:>10.1}  ({r:.2} of the slower)",
                "observe, 1 group"
            );
        }
        let label = format!(
            "observe, {groups} group{}",
            if groups == 1 { "" } else { "s" }
        );
        let r = observed / floor;
        println!("  {label:<20} {observed:>10.1}  ({r:.2} of the slower)");
    }
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
