//! Collecting clips from an env with a seeded random policy.

use ndarray::{Array4, ArrayViewMut3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Clip;
use crate::env::{Env, Info, ResetOptions};
use crate::error::{Error, Result};

/// How clips are collected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutOptions {
    /// Frames per clip `T`.
    pub frames_per_clip: usize,
    /// Before recording, take a uniform number of random steps in `0..=max_warmup_steps` so clips
    /// are spread over the episode (0 for synthetic videos, which start fresh every clip).
    pub max_warmup_steps: usize,
    /// Resets allowed per clip when an episode ends before the clip is complete.
    pub max_attempts: usize,
}

impl Default for RolloutOptions {
    fn default() -> Self {
        Self {
            frames_per_clip: 8,
            max_warmup_steps: 0,
            max_attempts: 20,
        }
    }
}

/// Collect one clip: reset with `seed`, warm up with random actions, then record `T` frames
/// (the reset frame counts as frame 0 when there is no warm-up). Actions are drawn uniformly from
/// the action space with an RNG seeded by `seed`, so the same seed gives the same clip.
pub fn collect_clip(env: &mut dyn Env, seed: u64, opts: &RolloutOptions) -> Result<Clip> {
    let t_len = opts.frames_per_clip;
    if t_len == 0 {
        return Err(Error::Invalid("frames per clip must be at least 1".into()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_c11b);
    let [h, w, c] = env.observation_space().shape().unwrap_or([0, 0, 0]);
    let mut frames = Array4::<u8>::zeros((t_len, h, w, c));
    for attempt in 0..opts.max_attempts.max(1) {
        let reset_seed = seed.wrapping_add((attempt as u64) << 40);
        let mut info = env.reset_into(
            Some(reset_seed),
            &ResetOptions::default(),
            frames.index_axis_mut(ndarray::Axis(0), 0),
        )?;
        let warmup = if opts.max_warmup_steps > 0 {
            rng.gen_range(0..=opts.max_warmup_steps)
        } else {
            0
        };
        match random_steps(
            env,
            warmup,
            &mut rng,
            frames.index_axis_mut(ndarray::Axis(0), 0),
        )? {
            Walk::Ended => continue,
            Walk::Running(Some(last)) => info = last,
            Walk::Running(None) => {}
        }
        let mut ok = true;
        let mut gt = info.objects.map(|o| vec![o]);
        for t in 1..t_len {
            let a = env.action_space().sample_action(&mut rng);
            let tr = env.step_into(a, frames.index_axis_mut(ndarray::Axis(0), t))?;
            if let (Some(g), Some(o)) = (gt.as_mut(), tr.info.objects) {
                g.push(o);
            }
            if (tr.terminated || tr.truncated) && t + 1 < t_len {
                ok = false;
                break;
            }
        }
        if ok {
            return Ok(Clip { frames, gt });
        }
    }
    Err(Error::Invalid(format!(
        "env `{}`: episodes kept ending before a {t_len}-frame clip was complete ({} attempts); \
         lower --frames or the warm-up",
        env.id(),
        opts.max_attempts
    )))
}

/// How a run of [`random_steps`] went.
enum Walk {
    /// The episode ended on the way.
    Ended,
    /// Still running; the last step's info (`None` after zero steps).
    Running(Option<Info>),
}

/// Take `n` uniformly random actions, writing only the last step's observation into `obs`: the
/// others are unobserved ([`Env::step_unobserved`]: the Atari env skips reading its screen), as
/// nobody looks at warm-up and gap frames.
fn random_steps(
    env: &mut dyn Env,
    n: usize,
    rng: &mut ChaCha8Rng,
    mut obs: ArrayViewMut3<'_, u8>,
) -> Result<Walk> {
    let mut info = None;
    for i in 0..n {
        let a = env.action_space().sample_action(rng);
        let tr = if i + 1 == n {
            env.step_into(a, obs.view_mut())?
        } else {
            env.step_unobserved(a)?
        };
        if tr.terminated || tr.truncated {
            return Ok(Walk::Ended);
        }
        info = Some(tr.info);
    }
    Ok(Walk::Running(info))
}

/// Clips cut one after another from continuing episodes of one env, as the paper's Atari clips
/// were cut from long recorded episodes (silot-reference §6): the stream's first episode starts
/// with a reset and a random warm-up of `0..=max_warmup_steps` steps (so that streams of several
/// envs are at different points of their games), every later clip starts `0..=max_gap` random
/// steps after the previous one ended, and an episode that ends is replaced by a fresh one whose
/// first clip starts `0..=max_gap` steps after its reset. Clips so cover whole episodes evenly,
/// as the paper's start indices cover recorded episodes, and a clip costs `T + max_gap/2` steps
/// on average instead of a reset and `T + max_warmup_steps/2` steps; no later episode pays a
/// long warm-up (with parallel envs, one such warm-up held up the whole batch). The clip sequence
/// depends on the seeds given and on the stream's state (the previous clips); the same seeds in
/// the same order give the same clips.
#[derive(Debug, Clone)]
pub struct EpisodeStream {
    opts: RolloutOptions,
    max_gap: usize,
    /// Contiguous mode ([`EpisodeStream::contiguous`]): every clip starts at the frame after the
    /// previous clip's last, and later episodes at their reset.
    contiguous: bool,
    /// Last observation of the running episode (`None` before the first reset or after an end).
    last: Option<ndarray::Array3<u8>>,
    /// Whether the first episode has started (later ones skip the warm-up).
    started: bool,
    /// Episodes started so far (the running one's number, from 1).
    episode: u64,
    /// Index of `last` in its episode (0 = the reset's observation).
    frame: u64,
    /// Where the last clip returned lies.
    position: Option<ClipPosition>,
}

/// Where a clip lies in its stream: which episode, and the index of its first frame in that
/// episode (0 = the reset's observation). Two clips of one stream are successive, without a gap
/// or an overlap, when the second starts at [`ClipPosition::next`] of the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClipPosition {
    /// The stream's episode number (from 1; equal numbers = the same episode of the same stream).
    pub episode: u64,
    /// The clip's first frame, counted from the episode's reset.
    pub start: u64,
    /// Frames in the clip.
    pub len: u64,
}

impl ClipPosition {
    /// The position a clip must have to continue this one without a gap.
    pub fn next(&self) -> (u64, u64) {
        (self.episode, self.start + self.len)
    }

    /// Whether `other` starts right after this clip ends, in the same episode.
    pub fn is_followed_by(&self, other: &ClipPosition) -> bool {
        self.next() == (other.episode, other.start)
    }
}

impl EpisodeStream {
    /// A stream that has not started an episode yet.
    pub fn new(opts: RolloutOptions, max_gap: usize) -> Self {
        Self {
            opts,
            max_gap,
            contiguous: false,
            last: None,
            started: false,
            episode: 0,
            frame: 0,
            position: None,
        }
    }

    /// A stream whose clips follow each other without a gap (clip `n + 1` starts at the frame
    /// after clip `n`'s last) and whose later episodes start at their reset (the first episode
    /// after a random warm-up of `0..=max_warmup_steps` steps): the frames a wrapper's encoder
    /// sees, cut into clips, for training on streams.
    pub fn contiguous(opts: RolloutOptions) -> Self {
        Self {
            contiguous: true,
            ..Self::new(opts, 0)
        }
    }

    /// Where the last clip [`EpisodeStream::next_clip`] returned lies.
    pub fn position(&self) -> Option<ClipPosition> {
        self.position
    }

    /// Use `opts` for the next clips (e.g. another clip length); the running episode goes on.
    pub fn set_options(&mut self, opts: RolloutOptions) {
        self.opts = opts;
    }

    /// Take `n` random steps; `false` if the episode ended (the stream then needs a reset).
    fn advance(&mut self, env: &mut dyn Env, n: usize, rng: &mut ChaCha8Rng) -> Result<bool> {
        let Some(last) = self.last.as_mut() else {
            return Ok(false);
        };
        if let Walk::Ended = random_steps(env, n, rng, last.view_mut())? {
            self.last = None;
            return Ok(false);
        }
        self.frame += n as u64;
        Ok(true)
    }

    /// The next `(T, H, W, C)` clip; all randomness comes from `seed` (given the stream's state).
    pub fn next_clip(&mut self, env: &mut dyn Env, seed: u64) -> Result<Array4<u8>> {
        let t_len = self.opts.frames_per_clip;
        if t_len == 0 {
            return Err(Error::Invalid("frames per clip must be at least 1".into()));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x57e4_c11b);
        let [h, w, c] = env.observation_space().shape().unwrap_or([0, 0, 0]);
        let mut frames = Array4::<u8>::zeros((t_len, h, w, c));
        for attempt in 0..self.opts.max_attempts.max(1) {
            let started = if self.last.is_none() {
                let mut obs = ndarray::Array3::<u8>::zeros((h, w, c));
                let reset_seed = seed.wrapping_add((attempt as u64) << 40);
                env.reset_into(Some(reset_seed), &ResetOptions::default(), obs.view_mut())?;
                self.last = Some(obs);
                self.episode += 1;
                self.frame = 0;
                let most = if !self.started {
                    self.opts.max_warmup_steps
                } else if self.contiguous {
                    0
                } else {
                    self.max_gap
                };
                self.started = true;
                let warmup = rng.gen_range(0..=most);
                self.advance(env, warmup, &mut rng)?
            } else {
                let gap = if self.contiguous {
                    1
                } else {
                    rng.gen_range(0..=self.max_gap)
                };
                self.advance(env, gap, &mut rng)?
            };
            let Some(last) = self.last.as_ref().filter(|_| started) else {
                continue;
            };
            frames.index_axis_mut(ndarray::Axis(0), 0).assign(last);
            let mut ok = true;
            for t in 1..t_len {
                let a = env.action_space().sample_action(&mut rng);
                let tr = env.step_into(a, frames.index_axis_mut(ndarray::Axis(0), t))?;
                if tr.terminated || tr.truncated {
                    ok = t + 1 == t_len; // a complete clip may end the episode
                    self.last = None;
                    break;
                }
            }
            if ok {
                self.position = Some(ClipPosition {
                    episode: self.episode,
                    start: self.frame,
                    len: t_len as u64,
                });
                if let Some(last) = self.last.as_mut() {
                    last.assign(&frames.index_axis(ndarray::Axis(0), t_len - 1));
                }
                self.frame += t_len as u64 - 1;
                return Ok(frames);
            }
        }
        Err(Error::Invalid(format!(
            "env `{}`: episodes kept ending before a {t_len}-frame clip was complete ({} attempts)",
            env.id(),
            self.opts.max_attempts
        )))
    }
}
