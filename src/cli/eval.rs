//! `silot eval`: score a tracker on fresh clips and write a JSON report.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::device::InferenceDeviceFlags;
use crate::baseline::ConnCompTracker;
use crate::checkpoint::{check_env_matches, EnvRecord};
use crate::config::{EnvSection, ExperimentConfig};
use crate::eval::{
    evaluate, evaluate_windows, frames_from, run_tracker, stream_summary, CountScores,
    CountsReport, ReportCheckpoint, Scores,
};
use crate::eval_protocol::{
    eval_clips, paper_protocol, parse_counts, preset_name, with_object_count, EVAL_FRAMES,
};
use crate::model::PresenceCarry;
use crate::streams::{encode_streams, StreamOptions};
use crate::track::Tracker;
use crate::trained::{load_trained_from, SilotTracker, WhichCheckpoint};
use crate::wrapper::ObjectEncoder;

/// Trackers `silot eval` can score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TrackerKind {
    /// The ConnComp baseline (thresholds from the env's `[eval.conncomp]`).
    Conncomp,
    /// A trained SILOT model (`--checkpoint RUNDIR`).
    Silot,
}

/// Which tracker to build, and from what.
#[derive(Debug, Args)]
pub struct TrackerArgs {
    /// The tracker to score.
    #[arg(long, value_enum, default_value_t = TrackerKind::Conncomp)]
    pub tracker: TrackerKind,
    /// Run directory of a trained SILOT model (for `--tracker silot`), or the name of a shipped
    /// one (`space_invaders`: `models/space_invaders/`).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Device for model trackers (`--device`, `--tf32`, `--half-backbone`).
    #[command(flatten)]
    pub device: InferenceDeviceFlags,
    /// How a SILOT model carries presence from frame to frame: `product` (the paper's
    /// `obj_t = obj_{t-1}·d_obj`), `binary` (decided each frame: above 0.5 carries on as
    /// present, else the slot is emptied), `dedup` (binary, and of present objects that
    /// overlap at IoU >= 0.5 only the oldest carries on) or `reid` (dedup, and a discovery
    /// where an object was just lost keeps its identity). Default: the checkpoint config's
    /// `eval_presence_carry` (`reid` unless it names another).
    #[arg(long, value_enum)]
    pub presence_carry: Option<PresenceCarryArg>,
    /// How a SILOT model's latents are drawn at evaluation: `sampled` from the posterior (the
    /// paper's Scattered MNIST evaluation) or `mean`. Default: the checkpoint config's
    /// `eval_noisy` (sampled for Scattered MNIST, means for the others).
    #[arg(long, value_enum)]
    pub latents: Option<LatentsArg>,
    /// Score the run's best validation checkpoint (`best/`) instead of its latest complete one
    /// (`checkpoint/`, the default).
    #[arg(long)]
    pub best: bool,
    /// Run the model although its checkpoint records another env (id, Atari preset or frame
    /// size) than `--env`: refused by default.
    #[arg(long)]
    pub allow_env_mismatch: bool,
}

impl TrackerArgs {
    /// The checkpoint of the run directory `--best` picks.
    pub fn which_checkpoint(&self) -> WhichCheckpoint {
        if self.best {
            WhichCheckpoint::Best
        } else {
            WhichCheckpoint::Latest
        }
    }
}

/// `--presence-carry` values ([`PresenceCarry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PresenceCarryArg {
    /// The paper's running product of survival probabilities.
    Product,
    /// Decided every frame (present above 0.5, else gone).
    Binary,
    /// As binary, and of present objects overlapping at IoU >= 0.5 only the oldest is kept.
    Dedup,
    /// As dedup, and an object discovered where a tracked one was lost in the last 5 frames
    /// (or where its motion takes it) takes its identity.
    Reid,
}

impl From<PresenceCarryArg> for PresenceCarry {
    fn from(a: PresenceCarryArg) -> Self {
        match a {
            PresenceCarryArg::Product => PresenceCarry::Product,
            PresenceCarryArg::Binary => PresenceCarry::Binary,
            PresenceCarryArg::Dedup => PresenceCarry::Dedup,
            PresenceCarryArg::Reid => PresenceCarry::Reid,
        }
    }
}

/// `--latents` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LatentsArg {
    /// Drawn from the posterior (`eval_noisy = true`).
    Sampled,
    /// The posterior means (`eval_noisy = false`).
    Mean,
}

impl LatentsArg {
    /// The `eval_noisy` value it stands for.
    pub fn noisy(self) -> bool {
        self == LatentsArg::Sampled
    }
}

/// Arguments of `silot eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Env id (see `silot envs`) or path to an experiment TOML file.
    #[arg(long)]
    pub env: String,
    /// The tracker.
    #[command(flatten)]
    pub tracker: TrackerArgs,
    /// Number of 8-frame clips (with `--frames`: of streams).
    #[arg(long, default_value_t = 32)]
    pub clips: usize,
    /// Score streams instead of 8-frame clips: each of `--clips` envs runs from a reset for
    /// this many frames through the object-centric wrapper (as `silot observe` does; an
    /// episode that ends inside restarts its objects), labelled over the whole stream. Stream
    /// `i`'s env is reset with `seed + i`.
    #[arg(long)]
    pub frames: Option<usize>,
    /// With `--frames`: the length of the windows scored beside the totals.
    #[arg(long, default_value_t = 100)]
    pub window: usize,
    /// With `--frames`: restart every stream's objects every N frames (discovery from the empty
    /// set on frames N, 2N, ..; ids start anew), i.e. score the paper's N-frame clips on the
    /// same frames as the stream. A diagnostic: what the stream loses against restarting.
    #[arg(long)]
    pub restart_every: Option<usize>,
    /// Seed of the evaluation clips (use seeds never used for tuning).
    #[arg(long, default_value_t = 2)]
    pub seed: u64,
    /// Write the JSON report here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Include every frame's boxes (`frames_detail`) in the JSON.
    #[arg(long)]
    pub dump_frames: bool,
    /// Apply the paper code's quirk: drop all predictions of frames with > 2x as many
    /// predictions as ground truth (changes results; recorded in the report).
    #[arg(long)]
    pub quirk_drop_overfull_frames: bool,
    /// Score each object count separately (synthetic envs), e.g. `1-12`, `1..=12` or `1,5,10`:
    /// `--clips` test clips per count, all from `--seed`; `--json` then writes a per-count
    /// report (MOTA, AP, count error per count; `silot plot` draws them).
    #[arg(long)]
    pub counts: Option<String>,
    /// With `--counts` and a SILOT model: also run each clip with the posterior for frames
    /// `0..T` and the learned prior propagating alone from frame `T` (no frames seen, discovery
    /// off; the paper's appendix used T = 3), and score frames `T..` both ways. Needs a model
    /// trained with `learn_prior = true`.
    #[arg(long, value_name = "T")]
    pub prior_from: Option<usize>,
}

/// A tracker built from the command line, and the checkpoint a model tracker was read from.
pub struct BuiltTracker {
    /// The tracker.
    pub tracker: Box<dyn Tracker>,
    /// Checkpoint directory and step (model trackers only).
    pub checkpoint: Option<ReportCheckpoint>,
}

/// Build the tracker named on the command line.
pub fn make_tracker(
    t: &TrackerArgs,
    cfg: &ExperimentConfig,
    seed: u64,
) -> anyhow::Result<BuiltTracker> {
    Ok(match t.tracker {
        TrackerKind::Conncomp => BuiltTracker {
            tracker: Box::new(ConnCompTracker::new(cfg.eval.conncomp.clone())?),
            checkpoint: None,
        },
        TrackerKind::Silot => {
            let (tracker, checkpoint) = load_silot(t, cfg, seed)?;
            BuiltTracker {
                tracker: Box::new(tracker),
                checkpoint: Some(checkpoint),
            }
        }
    })
}

/// The SILOT model of `--checkpoint` as a tracker, checked against the env, with
/// `--presence-carry` applied, and where its weights came from.
fn load_silot(
    t: &TrackerArgs,
    cfg: &ExperimentConfig,
    seed: u64,
) -> anyhow::Result<(SilotTracker, ReportCheckpoint)> {
    let (dir, device) = model_source(t)?;
    let mut tracker = SilotTracker::load_from(&dir, t.which_checkpoint(), &device, seed)?;
    check_env_matches(
        tracker.trained_env(),
        &EnvRecord::of_spec(&cfg.env)?,
        t.allow_env_mismatch,
        tracker.checkpoint().0,
    )?;
    if let Some(c) = t.presence_carry {
        tracker.set_presence_carry(c.into());
    }
    if let Some(l) = t.latents {
        tracker.set_eval_noisy(l.noisy());
    }
    let (path, step) = tracker.checkpoint();
    let checkpoint = ReportCheckpoint {
        path: path.display().to_string(),
        step,
        sampled_latents: Some(tracker.config().model.eval_noisy),
    };
    Ok((tracker, checkpoint))
}

/// Run the evaluation.
pub fn run(a: EvalArgs) -> anyhow::Result<()> {
    anyhow::ensure!(a.clips > 0, "--clips must be at least 1");
    if let Some(p) = &a.json {
        crate::util::check_output_file(p, "--json")?;
    }
    let cfg = paper_protocol(crate::config::load_experiment(&a.env)?);
    anyhow::ensure!(
        !(cfg.env.is_atari() && a.tracker.tracker == TrackerKind::Conncomp),
        "the ConnComp baseline tracker (silot-reference §9) is defined for the synthetic envs; on \
         Atari the ground truth itself is ConnComp labelling (§6), so only a model is scored \
         there: use --tracker silot --checkpoint RUNDIR"
    );
    if let Some(counts) = &a.counts {
        return run_counts(&a, &cfg, counts);
    }
    anyhow::ensure!(
        a.prior_from.is_none(),
        "--prior-from scores per object count: add --counts (e.g. --counts 1-12)"
    );
    anyhow::ensure!(
        a.restart_every.is_none() || a.frames.is_some(),
        "--restart-every restarts the objects of streams: add --frames (e.g. --frames 1000)"
    );
    if let Some(frames) = a.frames {
        return run_streams(&a, &cfg, frames);
    }
    let BuiltTracker {
        mut tracker,
        checkpoint,
    } = make_tracker(&a.tracker, &cfg, a.seed)?;
    let clips = eval_clips(&cfg, a.clips, a.seed)?;
    let mut pred = Vec::with_capacity(clips.len());
    for c in &clips {
        pred.push(tracker.track_clip(&c.frames)?);
    }
    let gt: Vec<_> = clips.into_iter().map(|c| c.gt).collect();
    let mut settings = cfg.eval.metrics.clone();
    settings.frames_detail |= a.dump_frames;
    settings.drop_overfull_frames |= a.quirk_drop_overfull_frames;
    let mut report = evaluate(&pred, &gt, &settings)?;
    report.env = cfg.env.id.clone();
    report.preset = preset_name(&cfg);
    report.tracker = tracker.name().to_string();
    report.seed = Some(a.seed);
    report.checkpoint = checkpoint;
    report.print_table();
    if let Some(path) = &a.json {
        let json = serde_json::to_vec_pretty(&report)?;
        crate::util::write_atomic(path, &json)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// `silot eval --counts`: each object count scored on its own test clips.
fn run_counts(a: &EvalArgs, cfg: &ExperimentConfig, counts: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        a.frames.is_none() && !a.dump_frames,
        "--counts scores 8-frame clips per count: leave out --frames and --dump-frames"
    );
    let counts = parse_counts(counts, "--counts")?;
    let configs = counts
        .iter()
        .map(|&n| with_object_count(cfg, n).map_err(|e| anyhow::anyhow!("--counts: {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // The prior-mode tracker: the same model, switched to the prior from frame T.
    let prior = match a.prior_from {
        None => None,
        Some(t) => {
            anyhow::ensure!(
                a.tracker.tracker == TrackerKind::Silot,
                "--prior-from runs a SILOT model's learned prior: use --tracker silot \
                 --checkpoint RUNDIR"
            );
            anyhow::ensure!(
                t < EVAL_FRAMES,
                "--prior-from {t}: clips have {EVAL_FRAMES} frames; give T in 1..={}",
                EVAL_FRAMES - 1
            );
            let (mut tracker, _) = load_silot(&a.tracker, cfg, a.seed)?;
            tracker.set_prior_from(Some(t))?;
            Some((t, tracker))
        }
    };
    let BuiltTracker {
        mut tracker,
        checkpoint,
    } = make_tracker(&a.tracker, cfg, a.seed)?;
    let mut settings = cfg.eval.metrics.clone();
    settings.drop_overfull_frames |= a.quirk_drop_overfull_frames;
    let name = if a.tracker.tracker == TrackerKind::Silot {
        "posterior"
    } else {
        "env_thresholds"
    };
    let mut report = CountsReport::new(&cfg.env.id, tracker.name(), a.seed);
    report.checkpoint = checkpoint;
    report.prior_from = a.prior_from;
    let mut prior = prior;
    let start = std::time::Instant::now();
    for (&n, c) in counts.iter().zip(&configs) {
        let (frames, gt): (Vec<_>, Vec<_>) = eval_clips(c, a.clips, a.seed)?
            .into_iter()
            .map(|c| (c.frames, c.gt))
            .unzip();
        let pred = run_tracker(tracker.as_mut(), &frames)?;
        let all = evaluate(&pred, &gt, &settings)?;
        let mut runs = vec![Scores::of(name, &all)];
        if let Some((t, prior)) = prior.as_mut() {
            let late_gt = frames_from(&gt, *t);
            let late = evaluate(&frames_from(&pred, *t), &late_gt, &settings)?;
            let alone = run_tracker(prior, &frames)?;
            let alone = evaluate(&frames_from(&alone, *t), &late_gt, &settings)?;
            runs.push(Scores::of("posterior_from_t", &late));
            runs.push(Scores::of("prior_from_t", &alone));
        }
        println!(
            "{n} objects: MOTA {:.3}, AP {:.3}, count error {:.3}{} ({:.1} s)",
            all.mota,
            all.ap,
            all.count_abs_error,
            match runs.get(1..) {
                Some([p, q]) => format!(
                    "; frames {}..: MOTA {:.3} posterior, {:.3} prior",
                    a.prior_from.unwrap_or(0),
                    p.mota,
                    q.mota
                ),
                _ => String::new(),
            },
            start.elapsed().as_secs_f64()
        );
        report.counts.push(CountScores {
            objects: n,
            clips: a.clips,
            mota: all.mota,
            ap: all.ap,
            count_abs_error: all.count_abs_error,
            runs,
        });
    }
    print!("{}", report.table());
    if let Some(path) = &a.json {
        report.write_json(path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Where a SILOT model comes from: the run directory (or shipped model) `--checkpoint` names,
/// and the inference device of the device flags.
fn model_source(t: &TrackerArgs) -> anyhow::Result<(std::path::PathBuf, candle_core::Device)> {
    let dir = t.checkpoint.as_ref().ok_or_else(|| {
        anyhow::anyhow!(
            "--tracker silot needs --checkpoint RUNDIR (a `silot train --out` directory, or a \
             shipped model's name)"
        )
    })?;
    let device = t.device.open()?;
    Ok((crate::models::resolve(dir)?, device))
}

/// The SILOT model of `--checkpoint` as an online encoder (the wrapper's), with
/// `--presence-carry` applied, and where its weights came from.
pub fn load_encoder(
    t: &TrackerArgs,
    env: &EnvSection,
    seed: u64,
) -> anyhow::Result<(ObjectEncoder, ReportCheckpoint)> {
    let (dir, device) = model_source(t)?;
    let trained = load_trained_from(&dir, t.which_checkpoint(), &device)?;
    check_env_matches(
        trained.env.as_ref(),
        &EnvRecord::of_spec(env)?,
        t.allow_env_mismatch,
        &trained.checkpoint,
    )?;
    let (path, step) = (trained.checkpoint.display().to_string(), trained.step);
    let mut encoder =
        ObjectEncoder::from_model(trained.model, trained.varmap, trained.cfg, &device, seed);
    if let Some(c) = t.presence_carry {
        encoder.set_presence_carry(c.into());
    }
    if let Some(l) = t.latents {
        encoder.set_eval_noisy(l.noisy());
    }
    let checkpoint = ReportCheckpoint {
        path,
        step,
        sampled_latents: Some(encoder.config().model.eval_noisy),
    };
    Ok((encoder, checkpoint))
}

/// `silot eval --frames N`: streams through the object-centric wrapper.
fn run_streams(a: &EvalArgs, cfg: &ExperimentConfig, frames: usize) -> anyhow::Result<()> {
    anyhow::ensure!(frames > 0, "--frames must be at least 1");
    anyhow::ensure!(a.window > 0, "--window must be at least 1");
    anyhow::ensure!(
        a.restart_every != Some(0),
        "--restart-every must be at least 1 (leave it out to carry the objects throughout)"
    );
    anyhow::ensure!(
        a.tracker.tracker == TrackerKind::Silot,
        "--frames scores streams through the object-centric wrapper, which runs a SILOT model: \
         use --tracker silot --checkpoint RUNDIR"
    );
    let (encoder, checkpoint) = load_encoder(&a.tracker, &cfg.env, a.seed)?;
    let opts = StreamOptions {
        streams: a.clips,
        frames,
        seed: a.seed,
        keep_frames_every: 0,
        restart_every: a.restart_every.unwrap_or(0),
    };
    let rec = encode_streams(&cfg.env, encoder, &opts)?;
    let mut settings = cfg.eval.metrics.clone();
    settings.frames_detail |= a.dump_frames;
    settings.drop_overfull_frames |= a.quirk_drop_overfull_frames;
    let mut report = evaluate(&rec.pred, &rec.gt, &settings)?;
    let windows = evaluate_windows(&rec.pred, &rec.gt, &settings, a.window)?;
    report.stream = Some(stream_summary(
        &report,
        windows,
        frames,
        a.window,
        rec.episodes_ended,
    ));
    if let Some(stream) = report.stream.as_mut() {
        stream.restart_every = a.restart_every;
    }
    report.env = cfg.env.id.clone();
    report.preset = preset_name(cfg);
    report.tracker = "silot".to_string();
    report.seed = Some(a.seed);
    report.checkpoint = Some(checkpoint);
    report.print_table();
    println!(
        "{} streams x {frames} frames in {:.1} s ({:.0} frames/s: env, encoder and labels)",
        a.clips,
        rec.secs,
        (a.clips * frames) as f64 / rec.secs.max(1e-9)
    );
    if let Some(path) = &a.json {
        report.write_json(path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
