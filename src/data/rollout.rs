//! Collecting clips from an env with a seeded random policy.

use ndarray::Array4;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Clip;
use crate::env::{Env, ResetOptions};
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
        Self { frames_per_clip: 8, max_warmup_steps: 0, max_attempts: 20 }
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
        let mut info = env.reset_into(Some(reset_seed), &ResetOptions::default(), frames.index_axis_mut(ndarray::Axis(0), 0))?;
        let warmup = if opts.max_warmup_steps > 0 { rng.gen_range(0..=opts.max_warmup_steps) } else { 0 };
        let mut ok = true;
        for _ in 0..warmup {
            let a = env.action_space().sample_action(&mut rng);
            let tr = env.step_into(a, frames.index_axis_mut(ndarray::Axis(0), 0))?;
            info = tr.info;
            if tr.terminated || tr.truncated {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
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
