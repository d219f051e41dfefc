//! Sources of training clips: a [`ClipSource`] yields batches of clips `(B, T, H, W, 3)` u8 with
//! their crop offsets; [`ClipBatch::frames_tensor`] is the one conversion to f32 NCHW per frame.
//! Any `Box<dyn Env>` is a source (reset with a seed from our RNG, step `T − 1` times with action
//! 0, collect the frames; random crops when asked, the same window for every frame of a clip).

use candle_core::{DType, Device, Tensor};
use ndarray::{s, Array5};

use crate::env::{Env, ResetOptions};
use crate::error::{Error, Result};
use crate::rng::SeededRng;

/// What a batch should look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClipSpec {
    /// Clips per batch.
    pub batch: usize,
    /// Frames per clip.
    pub n_frames: usize,
    /// Random crop `[H, W]` (same window for all frames of a clip), or full frames.
    pub crop: Option<[usize; 2]>,
}

/// A batch of clips.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipBatch {
    /// `(B, T, H, W, 3)` RGB bytes.
    pub frames: Array5<u8>,
    /// Per clip: crop offset `(y, x)` in pixels of the frames relative to the full frame.
    pub offsets: Vec<[f32; 2]>,
}

impl ClipBatch {
    /// `(B, T, 3, H, W)` f32 in `[0, 1]`.
    pub fn frames_tensor(&self, dev: &Device) -> Result<Tensor> {
        let (b, t, h, w, c) = self.frames.dim();
        let data: Vec<u8> = self.frames.iter().copied().collect();
        let x = Tensor::from_vec(data, (b, t, h, w, c), dev)?
            .to_dtype(DType::F32)?
            .affine(1.0 / 255.0, 0.0)?
            .permute((0, 1, 4, 2, 3))?
            .contiguous()?;
        Ok(x)
    }

    /// `(B, 2)` crop offsets in pixels.
    pub fn offsets_tensor(&self, dev: &Device) -> Result<Tensor> {
        let v: Vec<f32> = self
            .offsets
            .iter()
            .flat_map(|o| o.iter().copied())
            .collect();
        Ok(Tensor::from_vec(v, (self.offsets.len(), 2), dev)?)
    }

    /// Number of clips.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// No clips.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }
}

/// Anything that yields batches of training clips.
pub trait ClipSource {
    /// Next batch; all randomness from `rng`.
    fn next_batch(&mut self, spec: &ClipSpec, rng: &mut SeededRng) -> Result<ClipBatch>;
}

/// Roll one clip of `t` frames from `env` (reset with a seed from `rng`, action 0). Episodes that
/// end early are discarded and redrawn (up to 100 times).
fn roll_clip<E: Env + ?Sized>(
    env: &mut E,
    t: usize,
    rng: &mut SeededRng,
) -> Result<Vec<crate::env::Frame>> {
    for _ in 0..100 {
        let (obs, _) = env.reset(Some(rng.next_u64()), &ResetOptions::default())?;
        let mut frames = vec![obs];
        let mut ended = false;
        while frames.len() < t {
            let st = env.step(0)?;
            frames.push(st.obs);
            if (st.terminated || st.truncated) && frames.len() < t {
                ended = true;
                break;
            }
        }
        if !ended {
            return Ok(frames);
        }
    }
    Err(Error::Invalid(format!(
        "env `{}`: 100 episodes in a row ended before {t} frames; use shorter clips (train.n_frames)",
        env.id()
    )))
}

impl<E: Env + ?Sized> ClipSource for Box<E> {
    fn next_batch(&mut self, spec: &ClipSpec, rng: &mut SeededRng) -> Result<ClipBatch> {
        let env: &mut E = self;
        let mut out: Option<Array5<u8>> = None;
        let mut offsets = Vec::with_capacity(spec.batch);
        for bi in 0..spec.batch {
            let clip = roll_clip(env, spec.n_frames, rng)?;
            let (fh, fw, fc) = clip[0].dim();
            if fc != 3 {
                return Err(Error::Invalid(format!(
                    "env `{}` gives {fc}-channel frames; SILOT needs RGB (3 channels)",
                    env.id()
                )));
            }
            let [ch, cw] = spec.crop.unwrap_or([fh, fw]);
            if ch > fh || cw > fw {
                return Err(Error::Invalid(format!(
                    "crop {ch}x{cw} is larger than the env's {fh}x{fw} frames"
                )));
            }
            let oy = (rng.next_u64() % (fh - ch + 1) as u64) as usize;
            let ox = (rng.next_u64() % (fw - cw + 1) as u64) as usize;
            let arr =
                out.get_or_insert_with(|| Array5::zeros((spec.batch, spec.n_frames, ch, cw, 3)));
            for (t, f) in clip.iter().enumerate() {
                arr.slice_mut(s![bi, t, .., .., ..]).assign(&f.slice(s![
                    oy..oy + ch,
                    ox..ox + cw,
                    ..
                ]));
            }
            offsets.push([oy as f32, ox as f32]);
        }
        let frames = out.ok_or_else(|| Error::Invalid("batch size must be >= 1".into()))?;
        Ok(ClipBatch { frames, offsets })
    }
}
