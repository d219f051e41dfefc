//! Streams: envs run from a reset for many steps through the object-centric wrapper, the way an
//! agent uses it, with the ground truth of every frame alongside (exact for the synthetic envs,
//! ConnComp labels tracked over the whole stream for Atari).
//!
//! `silot eval --frames N` and `silot observe` drive the wrapper with the same seeded random
//! policy ([`RandomPolicy`]), so on the same env, seed and encoder they see the same frames and
//! produce the same objects. An episode that ends inside a stream restarts: the vector env
//! autoresets it, the encoder starts that env's objects afresh and the labeller its identities.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::baseline::conncomp::{atari_detections, Labeller};
use crate::baseline::tracker::{CostRule, IdMatcher};
use crate::config::EnvSection;
use crate::env::synthetic::Split;
use crate::env::vector::VectorEnv;
use crate::env::{registry, Frame, GtObject, Info};
use crate::error::{Error, Result};
use crate::track::TrackedObject;
use crate::wrapper::{GroupedObjectCentricVecEnv, ObjectBatch, ObjectCentricVecEnv, ObjectEncoder};

/// The seeded uniform random policy of `silot observe` and of stream evaluation.
#[derive(Debug, Clone)]
pub struct RandomPolicy {
    rng: ChaCha8Rng,
    n_actions: usize,
}

impl RandomPolicy {
    /// A policy over `n_actions` discrete actions (at least 1), seeded by `seed`.
    pub fn new(seed: u64, n_actions: usize) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            n_actions: n_actions.max(1),
        }
    }

    /// Draw one action per env into `actions`.
    pub fn act(&mut self, actions: &mut [usize]) {
        for a in actions {
            *a = self.rng.gen_range(0..self.n_actions);
        }
    }
}

/// Which streams to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamOptions {
    /// Streams (envs stepped together; stream `i`'s env is reset with `seed + i`).
    pub streams: usize,
    /// Frames per stream: the reset frame, then `frames − 1` steps.
    pub frames: usize,
    /// Seed of the envs and of the policy.
    pub seed: u64,
    /// Keep every this-many-th frame of each stream in [`StreamRecord::frames`] (0: none).
    pub keep_frames_every: usize,
    /// Restart every stream's objects on frames `N, 2N, ..` (0: never, the wrapper's
    /// behaviour): the paper's clips of `N` frames cut from the same streams, for comparison.
    pub restart_every: usize,
}

/// What the wrapper reported on every frame of every stream, and the ground truth.
#[derive(Debug, Clone, Default)]
pub struct StreamRecord {
    /// `pred[s][t]`: every slot with presence > 0 (score = presence).
    pub pred: Vec<Vec<Vec<TrackedObject>>>,
    /// `gt[s][t]`: ground-truth objects; identities are unique within a stream (an episode's
    /// labels are offset by [`EPISODE_ID_STRIDE`] times the episode's index in the stream).
    pub gt: Vec<Vec<Vec<GtObject>>>,
    /// `frames[s]`: `(t, frame)` for every kept frame `t` of stream `s`
    /// ([`StreamOptions::keep_frames_every`]).
    pub frames: Vec<Vec<(usize, Frame)>>,
    /// Episodes that ended inside the streams.
    pub episodes_ended: usize,
    /// Wall-clock seconds of env steps, encoding and labelling.
    pub secs: f64,
}

/// Ground-truth identities of the `e`-th episode of a stream start at `e · EPISODE_ID_STRIDE`.
pub const EPISODE_ID_STRIDE: u32 = 1_000_000;

/// Ground truth along one stream.
struct StreamLabels {
    /// Atari: the ConnComp labeller and its identity tracker (silot-reference §6).
    atari: Option<(Labeller, IdMatcher)>,
    /// Episodes started so far (the current one's index + 1).
    episodes: u32,
}

impl StreamLabels {
    fn new(atari: bool) -> Self {
        Self {
            atari: atari.then(|| (Labeller::new(), IdMatcher::new(CostRule::AtariLabeller))),
            episodes: 0,
        }
    }

    /// The ground truth of `frame`; `new_episode` restarts identities.
    fn label(
        &mut self,
        frame: ndarray::ArrayView3<'_, u8>,
        info: &Info,
        new_episode: bool,
    ) -> Result<Vec<GtObject>> {
        if new_episode {
            self.episodes += 1;
        }
        let offset = (self.episodes.max(1) - 1)
            .checked_mul(EPISODE_ID_STRIDE)
            .ok_or_else(|| Error::Invalid("too many episodes in one stream".into()))?;
        let shift = |id: u64| -> Result<u32> {
            u32::try_from(id)
                .ok()
                .filter(|&i| i < EPISODE_ID_STRIDE)
                .map(|i| i + offset)
                .ok_or_else(|| {
                    Error::Invalid(format!(
                        "ground-truth id {id} of one episode is over {EPISODE_ID_STRIDE}"
                    ))
                })
        };
        match (&mut self.atari, &info.objects) {
            (Some((labeller, ids)), _) => {
                if new_episode {
                    ids.reset();
                }
                let dets = atari_detections(labeller, &frame)?;
                let id = ids.step(&dets)?;
                dets.iter()
                    .zip(id)
                    .map(|(d, id)| {
                        Ok(GtObject {
                            id: shift(id)?,
                            top: d.top,
                            left: d.left,
                            bottom: d.bottom,
                            right: d.right,
                        })
                    })
                    .collect()
            }
            (None, Some(objects)) => objects
                .iter()
                .map(|o| {
                    Ok(GtObject {
                        id: shift(u64::from(o.id))?,
                        ..*o
                    })
                })
                .collect(),
            (None, None) => Err(Error::Invalid(
                "this env gives no ground truth (neither an Atari game nor a synthetic env)".into(),
            )),
        }
    }
}

/// Env `s`'s objects of one wrapper step as tracker output: every slot with presence > 0
/// (score = presence).
pub fn tracked_objects(objects: &ObjectBatch, s: usize) -> Vec<TrackedObject> {
    let k = objects.pres.dim().1;
    (0..k)
        .filter(|&j| objects.pres[[s, j]] > 0.0)
        .map(|j| {
            let b = objects.boxes.slice(ndarray::s![s, j, ..]);
            TrackedObject {
                id: objects.ids[[s, j]],
                top: b[0],
                left: b[1],
                bottom: b[0] + b[2],
                right: b[1] + b[3],
                score: objects.pres[[s, j]],
            }
        })
        .collect()
}

/// `n` envs of `spec` (the test split of the synthetic envs' data) stepped on `threads` threads
/// (at most one per env; [`env_threads`] by default), without an encoder: what [`wrapped_envs`]
/// wraps.
pub fn stream_envs(
    spec: &EnvSection,
    n: usize,
    threads: usize,
) -> Result<VectorEnv<Box<dyn crate::env::Env>>> {
    let spec = spec.clone();
    VectorEnv::new(
        move |_| registry::make_from_spec_split(&spec, Split::Test),
        n,
        threads,
    )
}

/// Threads to step `n` envs on: one per core, at most one per env.
pub fn env_threads(n: usize) -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get().min(n))
}

/// `n` envs of `spec` (the test split of the synthetic envs' data) stepped on up to one thread
/// each, through the object-centric wrapper with `encoder`; and the number of actions. What
/// [`encode_streams`] runs.
pub fn wrapped_envs(
    spec: &EnvSection,
    n: usize,
    encoder: ObjectEncoder,
) -> Result<(ObjectCentricVecEnv<Box<dyn crate::env::Env>>, usize)> {
    let venv = stream_envs(spec, n, env_threads(n))?;
    let n_actions = venv.single_action_space().n().unwrap_or(1);
    Ok((ObjectCentricVecEnv::new(venv, encoder)?, n_actions))
}

/// The envs of [`wrapped_envs`] in `groups` groups stepped and encoded in a pipeline
/// ([`GroupedObjectCentricVecEnv`]; group `g` encoded by `make_encoder(g)`), the same envs and
/// seeds per env, stepped on up to `threads` threads; and the number of actions. What
/// `silot observe` runs.
pub fn wrapped_grouped_envs(
    spec: &EnvSection,
    n: usize,
    threads: usize,
    groups: usize,
    make_encoder: impl FnMut(usize) -> Result<ObjectEncoder>,
) -> Result<(GroupedObjectCentricVecEnv<Box<dyn crate::env::Env>>, usize)> {
    let spec = spec.clone();
    let env = GroupedObjectCentricVecEnv::new(
        move |_| registry::make_from_spec_split(&spec, Split::Test),
        n,
        threads,
        crate::env::vector::AutoresetMode::NextStep,
        groups,
        make_encoder,
    )?;
    let n_actions = env.group(0)?.inner().single_action_space().n().unwrap_or(1);
    Ok((env, n_actions))
}

/// Run `opts.streams` envs of `spec` (the test split of the synthetic envs' data) for
/// `opts.frames` frames each through the object-centric wrapper with `encoder`, under
/// [`RandomPolicy`]`(opts.seed)`, and record the objects and the ground truth of every frame.
pub fn encode_streams(
    spec: &EnvSection,
    encoder: ObjectEncoder,
    opts: &StreamOptions,
) -> Result<StreamRecord> {
    if opts.streams == 0 || opts.frames == 0 {
        return Err(Error::Invalid(format!(
            "streams need at least 1 stream and 1 frame, got {} and {}",
            opts.streams, opts.frames
        )));
    }
    let (mut env, n_actions) = wrapped_envs(spec, opts.streams, encoder)?;
    let mut policy = RandomPolicy::new(opts.seed, n_actions);
    let mut labels: Vec<StreamLabels> = (0..opts.streams)
        .map(|_| StreamLabels::new(spec.is_atari()))
        .collect();
    let mut rec = StreamRecord {
        pred: vec![Vec::with_capacity(opts.frames); opts.streams],
        gt: vec![Vec::with_capacity(opts.frames); opts.streams],
        frames: vec![Vec::new(); opts.streams],
        ..StreamRecord::default()
    };
    let start = Instant::now();
    env.reset(Some(opts.seed))?;
    record(&mut rec, &mut labels, &env)?;
    keep_frames(&mut rec, &env, 0, opts.keep_frames_every);
    let mut actions = vec![0usize; opts.streams];
    for t in 1..opts.frames {
        policy.act(&mut actions);
        env.step(&actions)?;
        if opts.restart_every > 0 && t % opts.restart_every == 0 {
            env.restart_objects()?;
        }
        rec.episodes_ended += env.new_episode().iter().filter(|&&n| n).count();
        record(&mut rec, &mut labels, &env)?;
        keep_frames(&mut rec, &env, t, opts.keep_frames_every);
    }
    rec.secs = start.elapsed().as_secs_f64();
    Ok(rec)
}

/// Append one wrapper step's objects and ground truth (labelled on all streams in parallel).
fn record<E: crate::env::Env + 'static>(
    rec: &mut StreamRecord,
    labels: &mut [StreamLabels],
    env: &ObjectCentricVecEnv<E>,
) -> Result<()> {
    let (objects, new_episode) = (env.objects(), env.new_episode());
    let frames = env.inner().obs();
    let infos = env.inner().infos();
    let gt: Vec<Result<Vec<GtObject>>> = labels
        .par_iter_mut()
        .enumerate()
        .map(|(s, l)| {
            l.label(
                frames.index_axis(ndarray::Axis(0), s),
                &infos[s],
                new_episode[s],
            )
        })
        .collect();
    for (s, g) in gt.into_iter().enumerate() {
        rec.gt[s].push(g?);
        rec.pred[s].push(tracked_objects(objects, s));
    }
    Ok(())
}

/// Keep frame `t` of every stream if `t` is a multiple of `every` (> 0).
fn keep_frames<E: crate::env::Env + 'static>(
    rec: &mut StreamRecord,
    env: &ObjectCentricVecEnv<E>,
    t: usize,
    every: usize,
) {
    if every == 0 || t % every != 0 {
        return;
    }
    let frames = env.inner().obs();
    for (s, kept) in rec.frames.iter_mut().enumerate() {
        kept.push((t, frames.index_axis(ndarray::Axis(0), s).to_owned()));
    }
}
