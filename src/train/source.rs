//! Sources of training clips: a [`ClipSource`] yields batches of clips `(B, T, H, W, 3)` u8 with
//! their crop offsets; [`ClipBatch::frames_tensor`] is the one conversion to f32 NCHW per frame.
//! Any `Box<dyn Env>` is a source (reset with a seed from our RNG, step `T − 1` times with action
//! 0, collect the frames; random crops when asked, the same window for every frame of a clip).

use candle_core::{DType, Device, Tensor};
use ndarray::{s, Array5};

use crate::data::ClipPosition;
use crate::env::{Env, ResetOptions};
use crate::error::{Error, Result};
use crate::rng::SeededRng;

/// One rolled-out clip `(T, H, W, 3)` and, from a continuing source, where it lies in its stream.
type Clip = (ndarray::Array4<u8>, Option<ClipPosition>);

/// What a batch should look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClipSpec {
    /// Clips per batch.
    pub batch: usize,
    /// Frames per clip.
    pub n_frames: usize,
    /// Random crop `[H, W]` (same window for all frames of a clip), or full frames.
    pub crop: Option<[usize; 2]>,
    /// With a crop, every this-many-th clip of a batch (clips 0, N, 2N, ...) is cropped at the
    /// frame's top row instead of a uniform one (its columns stay uniform, and the random draws
    /// are the same, so the other clips do not change); 0 = every row uniform.
    pub top_every: usize,
    /// Stream sources ([`RolloutSource::streams`]): end every stream before this batch and start
    /// new episodes, as a new source would. The runner sets it at checkpoint boundaries, so a run
    /// resumed from a checkpoint cuts the same clips as one that went on. Other sources ignore it.
    pub new_streams: bool,
}

impl ClipSpec {
    /// `batch` clips of `n_frames` frames, cropped to `crop` (uniform windows), streams going on.
    pub fn new(batch: usize, n_frames: usize, crop: Option<[usize; 2]>) -> Self {
        Self {
            batch,
            n_frames,
            crop,
            top_every: 0,
            new_streams: false,
        }
    }

    /// Whether clip `bi` of a batch is cropped at the top row ([`ClipSpec::top_every`]).
    fn at_top(&self, bi: usize) -> bool {
        self.top_every > 0 && bi % self.top_every == 0
    }
}

/// The crop window's first row for a `ch`-row crop of `fh`-row frames from the random `draw`,
/// or 0 `at_top` (the draw is made either way, so later draws do not depend on it).
fn crop_row(draw: u64, fh: usize, ch: usize, at_top: bool) -> usize {
    if at_top {
        0
    } else {
        (draw % (fh - ch + 1) as u64) as usize
    }
}

/// A batch of clips.
#[derive(Debug, Clone, PartialEq)]
pub struct ClipBatch {
    /// `(B, T, H, W, 3)` RGB bytes.
    pub frames: Array5<u8>,
    /// Per clip: crop offset `(y, x)` in pixels of the frames relative to the full frame.
    pub offsets: Vec<[f32; 2]>,
    /// Per clip: where it lies in its stream, for sources whose clip `b` of successive batches
    /// comes from one running env ([`RolloutSource::streams`]); `None` for independent clips.
    pub positions: Option<Vec<crate::data::ClipPosition>>,
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

/// Anything that yields batches of training clips. `Send`: training makes the next batch on a
/// background thread while the current step runs.
pub trait ClipSource: Send {
    /// Next batch; all randomness from `rng`.
    fn next_batch(&mut self, spec: &ClipSpec, rng: &mut SeededRng) -> Result<ClipBatch>;

    /// The next `n_clips` clips as batches of `spec.batch` (the last one smaller if need be),
    /// e.g. a fixed validation set.
    fn next_clips(
        &mut self,
        n_clips: usize,
        spec: &ClipSpec,
        rng: &mut SeededRng,
    ) -> Result<Vec<ClipBatch>> {
        let mut batches = Vec::new();
        let mut left = n_clips;
        while left > 0 {
            let n = left.min(spec.batch.max(1));
            batches.push(self.next_batch(&ClipSpec { batch: n, ..*spec }, rng)?);
            left -= n;
        }
        Ok(batches)
    }
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
            let oy = crop_row(rng.next_u64(), fh, ch, spec.at_top(bi));
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
        Ok(ClipBatch {
            frames,
            offsets,
            positions: None,
        })
    }
}

/// Crop one clip `(T, H, W, 3)` into `arr[bi]` at a random window; returns the offset.
fn crop_into(
    arr: &mut Array5<u8>,
    bi: usize,
    clip: &ndarray::Array4<u8>,
    crop: [usize; 2],
    at_top: bool,
    rng: &mut SeededRng,
) -> Result<[f32; 2]> {
    let (_, fh, fw, _) = clip.dim();
    let [ch, cw] = crop;
    if ch > fh || cw > fw {
        return Err(Error::Invalid(format!(
            "crop {ch}x{cw} is larger than the {fh}x{fw} frames"
        )));
    }
    let draws = [rng.next_u64(), rng.next_u64()];
    crop_at(arr, bi, clip, crop, at_top, draws)
}

/// [`crop_into`] with the window's two random draws given (`draws[0]` rows, `draws[1]` columns).
fn crop_at(
    arr: &mut Array5<u8>,
    bi: usize,
    clip: &ndarray::Array4<u8>,
    crop: [usize; 2],
    at_top: bool,
    draws: [u64; 2],
) -> Result<[f32; 2]> {
    let (_, fh, fw, _) = clip.dim();
    let [ch, cw] = crop;
    if ch > fh || cw > fw {
        return Err(Error::Invalid(format!(
            "crop {ch}x{cw} is larger than the {fh}x{fw} frames"
        )));
    }
    let oy = crop_row(draws[0], fh, ch, at_top);
    let ox = (draws[1] % (fw - cw + 1) as u64) as usize;
    crop_window(arr, bi, clip, [ch, cw], [oy, ox])
}

/// Copy the `crop` window at `origin` `(y, x)` of one clip `(T, H, W, 3)` into `arr[bi]`; returns
/// the origin as the clip's offset.
fn crop_window(
    arr: &mut Array5<u8>,
    bi: usize,
    clip: &ndarray::Array4<u8>,
    crop: [usize; 2],
    origin: [usize; 2],
) -> Result<[f32; 2]> {
    let (t, fh, fw, _) = clip.dim();
    let ([ch, cw], [oy, ox]) = (crop, origin);
    if oy + ch > fh || ox + cw > fw {
        return Err(Error::Invalid(format!(
            "crop {ch}x{cw} at ({oy}, {ox}) does not fit the {fh}x{fw} frames"
        )));
    }
    arr.slice_mut(s![bi, .., .., .., ..]).assign(&clip.slice(s![
        ..t,
        oy..oy + ch,
        ox..ox + cw,
        ..
    ]));
    Ok([oy as f32, ox as f32])
}

/// Training clips read from a `silot rollout` dataset directory: each batch draws clips
/// uniformly (with replacement) and, if asked, a random crop window per clip.
pub struct DatasetSource {
    dataset: crate::data::Dataset,
}

impl DatasetSource {
    /// Open the dataset at `dir`.
    pub fn open(dir: &std::path::Path) -> Result<Self> {
        let dataset = crate::data::Dataset::open(dir)?;
        if dataset.is_empty() {
            return Err(Error::Invalid(format!(
                "dataset {} holds no clips",
                dir.display()
            )));
        }
        if dataset.meta().channels != 3 {
            return Err(Error::Invalid(format!(
                "dataset {} has {}-channel frames; SILOT needs RGB",
                dir.display(),
                dataset.meta().channels
            )));
        }
        Ok(Self { dataset })
    }

    /// The dataset's metadata (env, clip shape).
    pub fn meta(&self) -> &crate::data::DatasetMeta {
        self.dataset.meta()
    }
}

impl ClipSource for DatasetSource {
    fn next_batch(&mut self, spec: &ClipSpec, rng: &mut SeededRng) -> Result<ClipBatch> {
        let m = self.dataset.meta();
        if spec.n_frames > m.frames_per_clip {
            return Err(Error::Invalid(format!(
                "training wants {}-frame clips but the dataset's clips have {} frames",
                spec.n_frames, m.frames_per_clip
            )));
        }
        let [ch, cw] = spec.crop.unwrap_or([m.height, m.width]);
        let mut frames = Array5::zeros((spec.batch, spec.n_frames, ch, cw, 3));
        let mut offsets = Vec::with_capacity(spec.batch);
        for bi in 0..spec.batch {
            let i = (rng.next_u64() % self.dataset.len() as u64) as usize;
            let clip = self.dataset.clip(i)?.frames;
            let clip = clip.slice(s![..spec.n_frames, .., .., ..]).to_owned();
            offsets.push(crop_into(
                &mut frames,
                bi,
                &clip,
                [ch, cw],
                spec.at_top(bi),
                rng,
            )?);
        }
        Ok(ClipBatch {
            frames,
            offsets,
            positions: None,
        })
    }
}

/// Training clips rolled out on the fly with a seeded random policy and a random warm-up
/// ([`crate::data::collect_clip`]); suits Atari, where action 0 alone would show a static game.
///
/// With several envs ([`RolloutSource::parallel`]) the clips of a batch are rolled out on one
/// thread per env. Every clip depends only on its own seed (the env is reset with it), and the
/// seeds and crop windows are drawn from the caller's generator in the serial order, so a batch is
/// identical whatever the number of envs.
///
/// [`RolloutSource::continuing`] instead cuts each env's clips one after another from its running
/// episodes ([`crate::data::EpisodeStream`]): an order of magnitude fewer emulator steps per clip,
/// the clips of a batch still come from different envs, and batches depend on the seed and on
/// the number of envs (and, after a resume, on the fresh episodes the envs start).
pub struct RolloutSource {
    envs: Vec<Box<dyn Env>>,
    max_warmup_steps: usize,
    /// Continuing mode: the largest gap between clips (`None`: every clip from a fresh reset).
    max_gap: Option<usize>,
    /// Per env, its episode stream (continuing mode; built on the first batch).
    streams: Vec<crate::data::EpisodeStream>,
    /// Stream mode ([`RolloutSource::streams`]): gap-free clips, clip `b` of every batch from
    /// env `b`, the crop window kept along an episode.
    contiguous: bool,
    /// Stream mode: per batch slot, the last clip's position and crop origin `(y, x)`.
    slots: Vec<Option<(ClipPosition, [usize; 2])>>,
}

impl RolloutSource {
    /// Roll out `env`, warming up for up to `max_warmup_steps` random steps before each clip.
    pub fn new(env: Box<dyn Env>, max_warmup_steps: usize) -> Self {
        Self {
            envs: vec![env],
            max_warmup_steps,
            max_gap: None,
            streams: Vec::new(),
            contiguous: false,
            slots: Vec::new(),
        }
    }

    /// Roll out on several instances of the same env in parallel (one thread each).
    pub fn parallel(envs: Vec<Box<dyn Env>>, max_warmup_steps: usize) -> Result<Self> {
        if envs.is_empty() {
            return Err(Error::Invalid(
                "a rollout source needs at least one env".into(),
            ));
        }
        Ok(Self {
            envs,
            max_warmup_steps,
            max_gap: None,
            streams: Vec::new(),
            contiguous: false,
            slots: Vec::new(),
        })
    }

    /// Like [`RolloutSource::parallel`], but each env's clips are cut from its running episodes,
    /// `0..=max_gap` random steps apart (the warm-up applies to each env's first episode only;
    /// see [`crate::data::EpisodeStream`]).
    pub fn continuing(
        envs: Vec<Box<dyn Env>>,
        max_warmup_steps: usize,
        max_gap: usize,
    ) -> Result<Self> {
        let mut s = Self::parallel(envs, max_warmup_steps)?;
        s.max_gap = Some(max_gap);
        Ok(s)
    }

    /// Streams for training on streams: one env per clip of a batch (`envs.len()` must equal
    /// the batch size), clip `b` of successive batches cut from env `b`'s running episode
    /// without a gap ([`crate::data::EpisodeStream::contiguous`]), cropped at the same window
    /// until the episode ends; [`ClipBatch::positions`] says which clips continue their slot's
    /// previous one. The first episode of each env starts after `0..=max_warmup_steps` random
    /// steps, later ones at their reset.
    pub fn streams(envs: Vec<Box<dyn Env>>, max_warmup_steps: usize) -> Result<Self> {
        let mut s = Self::continuing(envs, max_warmup_steps, 0)?;
        s.contiguous = true;
        Ok(s)
    }

    /// Clips for `seeds`, in order, spread over the envs (env `w` takes clips `w, w + n, …`),
    /// with their positions in their streams (continuing modes).
    fn collect(&mut self, seeds: &[u64], opts: &crate::data::RolloutOptions) -> Result<Vec<Clip>> {
        let n = self.envs.len();
        if let Some(gap) = self.max_gap {
            if self.streams.len() != n {
                let stream = if self.contiguous {
                    crate::data::EpisodeStream::contiguous(*opts)
                } else {
                    crate::data::EpisodeStream::new(*opts, gap)
                };
                self.streams = vec![stream; n];
            }
            // This batch's clip length (it changes with the frames curriculum); the episodes
            // run on.
            self.streams.iter_mut().for_each(|st| st.set_options(*opts));
        }
        let continuing = self.max_gap.is_some();
        let one_clip = |env: &mut dyn Env,
                        stream: Option<&mut crate::data::EpisodeStream>,
                        seed: u64|
         -> Result<Clip> {
            match stream {
                Some(st) => Ok((st.next_clip(env, seed)?, st.position())),
                None => Ok((crate::data::collect_clip(env, seed, opts)?.frames, None)),
            }
        };
        let mut streams: Vec<Option<&mut crate::data::EpisodeStream>> = if continuing {
            self.streams.iter_mut().map(Some).collect()
        } else {
            (0..n).map(|_| None).collect()
        };
        if n == 1 {
            let env = self.envs[0].as_mut();
            let mut stream = streams.pop().flatten();
            return seeds
                .iter()
                .map(|&sd| one_clip(env, stream.as_deref_mut(), sd))
                .collect();
        }
        let mut out: Vec<Option<Clip>> = vec![None; seeds.len()];
        std::thread::scope(|sc| -> Result<()> {
            let handles: Vec<_> = self
                .envs
                .iter_mut()
                .zip(streams)
                .enumerate()
                .map(|(w, (env, mut stream))| {
                    sc.spawn(move || -> Result<Vec<(usize, Clip)>> {
                        (w..seeds.len())
                            .step_by(n)
                            .map(|bi| {
                                let clip =
                                    one_clip(env.as_mut(), stream.as_deref_mut(), seeds[bi])?;
                                Ok((bi, clip))
                            })
                            .collect()
                    })
                })
                .collect();
            for h in handles {
                let clips = h
                    .join()
                    .map_err(|_| Error::Invalid("a rollout worker thread panicked".into()))??;
                for (bi, c) in clips {
                    out[bi] = Some(c);
                }
            }
            Ok(())
        })?;
        out.into_iter()
            .map(|c| c.ok_or_else(|| Error::Invalid("a rollout worker lost a clip".into())))
            .collect()
    }
}

impl ClipSource for RolloutSource {
    fn next_batch(&mut self, spec: &ClipSpec, rng: &mut SeededRng) -> Result<ClipBatch> {
        let opts = crate::data::RolloutOptions {
            frames_per_clip: spec.n_frames,
            max_warmup_steps: self.max_warmup_steps,
            max_attempts: 20,
        };
        // Serial draw order: per clip its seed, then its crop window (two draws).
        let draws: Vec<[u64; 3]> = (0..spec.batch)
            .map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64()])
            .collect();
        let seeds: Vec<u64> = draws.iter().map(|d| d[0]).collect();
        if self.contiguous && spec.batch != self.envs.len() {
            return Err(Error::Invalid(format!(
                "training on streams needs one env per clip of a batch, but the batch has {} \
                 clips and the source {} envs: set train.rollout_envs = train.batch_size",
                spec.batch,
                self.envs.len()
            )));
        }
        if self.contiguous && spec.new_streams {
            self.streams.clear();
            self.slots.clear();
        }
        let clips = self.collect(&seeds, &opts)?;
        if self.contiguous && self.slots.len() != spec.batch {
            self.slots = vec![None; spec.batch];
        }
        let mut frames: Option<Array5<u8>> = None;
        let mut offsets = Vec::with_capacity(spec.batch);
        for (bi, (clip, pos)) in clips.iter().enumerate() {
            let (_, fh, fw, _) = clip.dim();
            let [ch, cw] = spec.crop.unwrap_or([fh, fw]);
            let arr =
                frames.get_or_insert_with(|| Array5::zeros((spec.batch, spec.n_frames, ch, cw, 3)));
            // Stream mode: a clip that continues its slot's previous one keeps its window.
            let kept = match (self.slots.get(bi), pos) {
                (Some(Some((prev, origin))), Some(p)) if prev.is_followed_by(p) => Some(*origin),
                _ => None,
            };
            let offset = match kept {
                Some(origin) => crop_window(arr, bi, clip, [ch, cw], origin)?,
                None => crop_at(
                    arr,
                    bi,
                    clip,
                    [ch, cw],
                    spec.at_top(bi),
                    [draws[bi][1], draws[bi][2]],
                )?,
            };
            if self.contiguous {
                if let Some(p) = pos {
                    self.slots[bi] = Some((*p, [offset[0] as usize, offset[1] as usize]));
                }
            }
            offsets.push(offset);
        }
        let frames = frames.ok_or_else(|| Error::Invalid("batch size must be >= 1".into()))?;
        let positions = if self.contiguous {
            Some(
                clips
                    .iter()
                    .map(|(_, p)| {
                        p.ok_or_else(|| Error::Invalid("a stream clip lost its position".into()))
                    })
                    .collect::<Result<Vec<_>>>()?,
            )
        } else {
            None
        };
        Ok(ClipBatch {
            frames,
            offsets,
            positions,
        })
    }
}

/// Atari clips cut from running episodes start up to this many random steps apart.
pub const CLIP_GAP: usize = 16;

/// The same for the validation clips, so that they spread over whole episodes (the reference
/// validates on clips from whole held-out episodes) instead of their first few hundred steps.
pub const VAL_CLIP_GAP: usize = 400;

/// Random steps before an Atari source's first clip of each env (a synthetic env's first frame
/// is already random; with `train.streams` a synthetic env warms up by up to one episode).
const ATARI_WARMUP: usize = 300;

/// Clips rolled out on the fly from `exp`'s env in `cfg.train.rollout_envs` envs (one thread
/// each; their number is part of the data, not the host's), as `silot train` and `silot
/// pretrain` train on them: with `train.streams`, the training split's clips are streams
/// ([`RolloutSource::streams`]; on a synthetic env each stream's first clip starts up to one
/// episode length after its reset, so that the streams do not all reset together); otherwise
/// Atari clips are cut from running episodes up to `gap` steps apart (from fresh resets with
/// `fresh`), synthetic clips come from `split`'s digits.
pub fn rollout_source(
    exp: &crate::config::ExperimentConfig,
    cfg: &crate::model::config::RunConfig,
    split: crate::env::synthetic::Split,
    gap: usize,
    fresh: bool,
) -> Result<Box<dyn ClipSource>> {
    let envs = (0..cfg.train.rollout_env_count())
        .map(|_| crate::env::registry::make_from_spec_split(&exp.env, split))
        .collect::<Result<Vec<_>>>()?;
    let atari = exp.env.is_atari();
    let streams = cfg.train.streams && split == crate::env::synthetic::Split::Train;
    let warmup = match exp.env.episode_length() {
        // Episodes of one fixed length: streams would all reset on the same batch; a warm-up
        // of up to one episode spreads them over its frames.
        Some(len) if streams => len.saturating_sub(1),
        _ if atari => ATARI_WARMUP,
        _ => 0,
    };
    Ok(if streams {
        if fresh {
            return Err(Error::Invalid(
                "train.streams cuts gap-free clips from running episodes; drop --fresh-clips"
                    .into(),
            ));
        }
        Box::new(RolloutSource::streams(envs, warmup)?)
    } else if atari && !fresh {
        Box::new(RolloutSource::continuing(envs, ATARI_WARMUP, gap)?)
    } else {
        Box::new(RolloutSource::parallel(envs, warmup)?)
    })
}

/// `cfg` for the clip source of one of `world` data-parallel ranks (`docs/multi_gpu.md`), each
/// drawing `train.batch_size / world` clips per batch: with `train.streams`, one env per clip of
/// that share (`rollout_envs` scaled down by `world`, so the ranks together run the envs one
/// replica would), as streams need; otherwise `cfg` unchanged.
pub fn rank_source_config(
    cfg: &crate::model::config::RunConfig,
    world: usize,
) -> crate::model::config::RunConfig {
    let mut cfg = cfg.clone();
    if cfg.train.streams && world > 1 {
        cfg.train.rollout_envs = (cfg.train.rollout_envs / world).max(1);
    }
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Info, Space, Transition};
    use ndarray::ArrayViewMut3;

    /// Episodes of the counter env end after this many steps.
    const EPISODE_LEN: u8 = 20;

    /// A 10x12 env whose frame encodes (episode seed, time, pixel position) in its bytes.
    struct Counter {
        obs: Space,
        act: Space,
        seed: u8,
        t: u8,
    }

    impl Counter {
        fn fill(&self, mut obs: ArrayViewMut3<'_, u8>) {
            for ((y, x, c), v) in obs.indexed_iter_mut() {
                *v = match c {
                    0 => self.seed,
                    1 => self.t,
                    _ => (y * 12 + x) as u8,
                };
            }
        }
    }

    impl Env for Counter {
        fn id(&self) -> &str {
            "counter"
        }
        fn observation_space(&self) -> &Space {
            &self.obs
        }
        fn action_space(&self) -> &Space {
            &self.act
        }
        fn reset_into(
            &mut self,
            seed: Option<u64>,
            _o: &ResetOptions,
            obs: ArrayViewMut3<'_, u8>,
        ) -> Result<Info> {
            self.seed = seed.unwrap_or(0) as u8;
            self.t = 0;
            self.fill(obs);
            Ok(Info::default())
        }
        fn step_into(&mut self, _a: usize, obs: ArrayViewMut3<'_, u8>) -> Result<Transition> {
            self.t += 1;
            self.fill(obs);
            Ok(Transition {
                terminated: self.t >= EPISODE_LEN,
                ..Transition::default()
            })
        }
        fn render(&self) -> Option<crate::env::Frame> {
            None
        }
    }

    #[test]
    fn env_source_crops_and_converts() {
        let mut env: Box<dyn Env> = Box::new(Counter {
            obs: Space::rgb(10, 12),
            act: Space::Discrete { n: 1 },
            seed: 0,
            t: 0,
        });
        let spec = ClipSpec::new(3, 4, Some([6, 5]));
        let a = env.next_batch(&spec, &mut SeededRng::new(1)).unwrap();
        let b = env.next_batch(&spec, &mut SeededRng::new(1)).unwrap();
        assert_eq!(a, b, "same rng, same batch");
        assert_eq!(a.frames.dim(), (3, 4, 6, 5, 3));
        for (i, off) in a.offsets.iter().enumerate() {
            let (oy, ox) = (off[0] as usize, off[1] as usize);
            assert!(oy <= 4 && ox <= 7);
            for t in 0..4 {
                assert_eq!(a.frames[[i, t, 0, 0, 1]], t as u8);
                assert_eq!(a.frames[[i, t, 2, 3, 2]], ((oy + 2) * 12 + ox + 3) as u8);
                // Same episode (and crop window) for every frame of a clip.
                assert_eq!(a.frames[[i, t, 0, 0, 0]], a.frames[[i, 0, 0, 0, 0]]);
            }
        }
        let x = a.frames_tensor(&Device::Cpu).unwrap();
        assert_eq!(x.dims(), &[3, 4, 3, 6, 5]);
        let v = x
            .narrow(2, 2, 1)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let want = a.frames[[0, 0, 0, 0, 2]] as f32 / 255.0;
        assert!((v[0] - want).abs() < 1e-7);
        let too_big = ClipSpec {
            crop: Some([11, 5]),
            ..spec
        };
        assert!(env.next_batch(&too_big, &mut SeededRng::new(1)).is_err());
    }

    #[test]
    fn every_nth_clip_is_cropped_at_the_top_row_and_the_others_do_not_change() {
        let spec = ClipSpec::new(9, 2, Some([6, 5]));
        let top = ClipSpec {
            top_every: 3,
            ..spec
        };
        let check = |uniform: &ClipBatch, topped: &ClipBatch| {
            for i in 0..9 {
                let (a, b) = (uniform.offsets[i], topped.offsets[i]);
                let clip = |x: &ClipBatch| x.frames.slice(s![i, .., .., .., ..]).to_owned();
                if i % 3 == 0 {
                    assert_eq!(b, [0.0, a[1]], "clip {i}: top row, same columns");
                    // The window starts at the frame's row 0: crop pixel (2, 3) is frame (2, ox + 3).
                    assert_eq!(
                        topped.frames[[i, 1, 2, 3, 2]],
                        (2 * 12 + a[1] as usize + 3) as u8
                    );
                } else {
                    assert_eq!(b, a, "clip {i}");
                    assert_eq!(clip(topped), clip(uniform), "clip {i}");
                }
            }
            // Not trivially true: some of those clips' uniform windows start lower.
            assert!(uniform.offsets.iter().step_by(3).any(|o| o[0] > 0.0));
        };
        let mut env = counter();
        let a = env.next_batch(&spec, &mut SeededRng::new(7)).unwrap();
        let b = env.next_batch(&top, &mut SeededRng::new(7)).unwrap();
        check(&a, &b);
        let mut rollout = RolloutSource::new(counter(), 0);
        let a = rollout.next_batch(&spec, &mut SeededRng::new(7)).unwrap();
        let b = rollout.next_batch(&top, &mut SeededRng::new(7)).unwrap();
        check(&a, &b);
    }

    fn counter() -> Box<dyn Env> {
        Box::new(Counter {
            obs: Space::rgb(10, 12),
            act: Space::Discrete { n: 2 },
            seed: 0,
            t: 0,
        })
    }

    #[test]
    fn parallel_rollouts_equal_serial_ones() {
        let spec = ClipSpec::new(7, 3, Some([6, 5]));
        let serial = RolloutSource::new(counter(), 4)
            .next_batch(&spec, &mut SeededRng::new(9))
            .unwrap();
        let mut par = RolloutSource::parallel((0..3).map(|_| counter()).collect(), 4).unwrap();
        let a = par.next_batch(&spec, &mut SeededRng::new(9)).unwrap();
        assert_eq!(a, serial);
        // Distinct clips (seeds) within the batch.
        assert!((1..7).any(|i| a.frames[[i, 0, 0, 0, 0]] != a.frames[[0, 0, 0, 0, 0]]));
        assert!(RolloutSource::parallel(Vec::new(), 0).is_err());
    }

    #[test]
    fn next_clips_splits_into_batches_of_the_spec() {
        let spec = ClipSpec::new(4, 2, None);
        let mut src = RolloutSource::new(counter(), 0);
        let batches = src.next_clips(10, &spec, &mut SeededRng::new(3)).unwrap();
        let sizes: Vec<usize> = batches.iter().map(ClipBatch::len).collect();
        assert_eq!(sizes, vec![4, 4, 2]);
        // The same clips as drawing the batches one by one.
        let mut again = RolloutSource::new(counter(), 0);
        let mut rng = SeededRng::new(3);
        for (b, n) in batches.iter().zip([4, 4, 2]) {
            let one = again
                .next_batch(&ClipSpec { batch: n, ..spec }, &mut rng)
                .unwrap();
            assert_eq!(&one, b);
        }
        assert!(src
            .next_clips(0, &spec, &mut SeededRng::new(3))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn continuing_clips_follow_each_other_within_episodes() {
        let spec = ClipSpec::new(2, 3, None);
        let max_gap = 3;
        let make = || RolloutSource::continuing((0..2).map(|_| counter()).collect(), 0, max_gap);
        let (mut a, mut b) = (make().unwrap(), make().unwrap());
        let (mut rng_a, mut rng_b) = (SeededRng::new(4), SeededRng::new(4));
        // Per batch slot (= env): (episode seed, time of the last frame of its previous clip).
        let mut prev: Vec<Option<(u8, u8)>> = vec![None; 2];
        let (mut follows, mut new_episodes) = (0, 0);
        for _ in 0..40 {
            let x = a.next_batch(&spec, &mut rng_a).unwrap();
            assert_eq!(
                x,
                b.next_batch(&spec, &mut rng_b).unwrap(),
                "same seeds, same clips"
            );
            for (i, p) in prev.iter_mut().enumerate() {
                let (ep, t0) = (x.frames[[i, 0, 0, 0, 0]], x.frames[[i, 0, 0, 0, 1]]);
                for t in 0..3 {
                    assert_eq!(x.frames[[i, t, 0, 0, 0]], ep, "one episode per clip");
                    assert_eq!(
                        x.frames[[i, t, 0, 0, 1]],
                        t0 + t as u8,
                        "consecutive frames"
                    );
                }
                match *p {
                    Some((pep, pt)) if pep == ep && t0 >= pt => {
                        assert!(t0 - pt <= max_gap as u8, "gap {} > {max_gap}", t0 - pt);
                        follows += 1;
                    }
                    Some(_) => {
                        assert!(
                            t0 <= max_gap as u8,
                            "a new episode's first clip starts within one gap of its reset, at {t0}"
                        );
                        new_episodes += 1;
                    }
                    None => {}
                }
                *p = Some((ep, t0 + 2));
            }
        }
        assert!(follows > 40, "most clips continue the episode ({follows})");
        assert!(
            new_episodes >= 4,
            "20-step episodes end and are replaced ({new_episodes})"
        );
    }

    /// Streams of a synthetic env (episodes of one fixed length) start at different frames of
    /// their first episode, so they do not all reset on the same batch.
    #[test]
    fn synthetic_streams_start_spread_over_an_episode() {
        let mut exp = crate::config::load_experiment("smoke").unwrap();
        exp.env.scattered_shapes.as_mut().unwrap().episode_length = 64;
        let mut cfg = exp.run_config("smoke").unwrap();
        (
            cfg.train.batch_size,
            cfg.train.rollout_envs,
            cfg.train.streams,
        ) = (8, 8, true);
        let mut source =
            rollout_source(&exp, &cfg, crate::env::synthetic::Split::Train, 0, false).unwrap();
        let spec = ClipSpec::new(8, 4, None);
        let batch = source.next_batch(&spec, &mut SeededRng::new(3)).unwrap();
        let spread: Vec<u64> = batch.positions.unwrap().iter().map(|p| p.start).collect();
        assert!(spread.iter().all(|&s| s < 64), "{spread:?}");
        let distinct: std::collections::BTreeSet<_> = spread.iter().collect();
        assert!(distinct.len() >= 4, "streams start in lockstep: {spread:?}");
    }

    /// Only an env's first episode is warmed up: its first clip starts up to `max_warmup_steps`
    /// after the reset, the first clip of every later episode within `max_gap` of its reset.
    #[test]
    fn only_the_first_episode_is_warmed_up() {
        let (warmup, max_gap) = (15, 1);
        let spec = ClipSpec::new(2, 2, None);
        let mut src =
            RolloutSource::continuing((0..2).map(|_| counter()).collect(), warmup, max_gap)
                .unwrap();
        let mut rng = SeededRng::new(6);
        let mut episode: Vec<Option<u8>> = vec![None; 2];
        let (mut first_starts, mut later_starts) = (Vec::new(), 0);
        for _ in 0..60 {
            let x = src.next_batch(&spec, &mut rng).unwrap();
            for (i, ep) in episode.iter_mut().enumerate() {
                let (seed, t0) = (x.frames[[i, 0, 0, 0, 0]], x.frames[[i, 0, 0, 0, 1]]);
                match *ep {
                    None => first_starts.push(t0),
                    Some(prev) if prev != seed => {
                        assert!(t0 <= max_gap as u8, "later episode starts at {t0}");
                        later_starts += 1;
                    }
                    Some(_) => {}
                }
                *ep = Some(seed);
            }
        }
        assert!(first_starts.iter().all(|&t| t <= warmup as u8));
        assert!(
            later_starts >= 6,
            "20-step episodes end and are replaced ({later_starts})"
        );
    }

    /// The clip length may change between batches (the frames curriculum asks for 2, then 4,
    /// 6 and 8 frames): each batch has the length asked for, and the episodes run on across
    /// the change.
    #[test]
    fn continuing_clips_follow_a_change_of_length() {
        let mut src = RolloutSource::continuing((0..2).map(|_| counter()).collect(), 0, 0).unwrap();
        let mut rng = SeededRng::new(5);
        let mut last_end = None;
        for n_frames in [2, 4, 3] {
            let spec = ClipSpec::new(2, n_frames, None);
            let x = src.next_batch(&spec, &mut rng).unwrap();
            assert_eq!(x.frames.dim().1, n_frames);
            // Slot 0 (env 0), gap 0: the clip starts where the previous one ended (same
            // episode) or at a fresh reset.
            let (t0, tn) = (
                x.frames[[0, 0, 0, 0, 1]],
                x.frames[[0, n_frames - 1, 0, 0, 1]],
            );
            assert_eq!(tn, t0 + n_frames as u8 - 1, "consecutive frames");
            if let Some(end) = last_end {
                assert!(
                    t0 == end || t0 == 0,
                    "clip starts at {t0}, previous ended at {end}"
                );
            }
            last_end = Some(tn);
        }
    }

    /// Stream mode: clip `b` of successive batches comes from env `b` without a gap or an
    /// overlap, at the same crop window, until its episode ends; the positions say so.
    #[test]
    fn stream_clips_follow_each_other_at_one_window() {
        let spec = ClipSpec::new(2, 4, Some([6, 5]));
        let mut src = RolloutSource::streams(vec![counter(), counter()], 0).unwrap();
        let mut rng = SeededRng::new(3);
        let mut prev: Option<ClipBatch> = None;
        let mut episodes_ended = 0;
        for _ in 0..12 {
            let batch = src.next_batch(&spec, &mut rng).unwrap();
            let pos = batch.positions.clone().unwrap();
            for (b, here) in pos.iter().enumerate() {
                let t0 = batch.frames[[b, 0, 0, 0, 1]] as u64;
                // The frames are the episode's frames start, start + 1, ...
                assert_eq!(t0, here.start);
                for t in 0..4 {
                    assert_eq!(batch.frames[[b, t, 0, 0, 1]] as u64, t0 + t as u64);
                }
                let Some(p) = &prev else { continue };
                let pp = p.positions.as_ref().unwrap()[b];
                if pp.is_followed_by(here) {
                    assert_eq!(
                        t0,
                        p.frames[[b, 3, 0, 0, 1]] as u64 + 1,
                        "no gap, no overlap"
                    );
                    assert_eq!(batch.offsets[b], p.offsets[b], "same window");
                    assert_eq!(batch.frames[[b, 0, 0, 0, 0]], p.frames[[b, 0, 0, 0, 0]]);
                } else {
                    // Only an episode's end breaks a stream; the next one starts at its reset.
                    assert_eq!((here.episode, here.start), (pp.episode + 1, 0));
                    assert_eq!(pp.start + pp.len, EPISODE_LEN as u64);
                    episodes_ended += 1;
                }
            }
            prev = Some(batch);
        }
        // 20-frame episodes, 4-frame clips: every env ends an episode every 5 clips.
        assert_eq!(episodes_ended, 4);
        // One env per clip: another batch size is refused with the fix.
        let err = src
            .next_batch(&ClipSpec { batch: 3, ..spec }, &mut rng)
            .unwrap_err()
            .to_string();
        assert!(err.contains("rollout_envs"), "{err}");
        // Independent sources say nothing about positions.
        let mut plain = RolloutSource::continuing(vec![counter(), counter()], 0, 2).unwrap();
        assert!(plain
            .next_batch(&spec, &mut rng)
            .unwrap()
            .positions
            .is_none());
    }

    /// `new_streams` ends every stream: the batch is the one a new source would make, on Atari
    /// (the emulator reset from its seed) and a synthetic env alike, and no clip continues.
    #[test]
    fn new_streams_cut_what_a_new_source_cuts() {
        for id in ["space_invaders", "smoke"] {
            if crate::env::registry::make(id).is_err() {
                continue; // a build without Atari
            }
            let envs = || -> Vec<Box<dyn Env>> {
                (0..2)
                    .map(|_| crate::env::registry::make(id).unwrap())
                    .collect()
            };
            let spec = ClipSpec::new(2, 3, None);
            let mut going = RolloutSource::streams(envs(), 20).unwrap();
            for k in 0..3 {
                going.next_batch(&spec, &mut SeededRng::new(k)).unwrap();
            }
            let restart = ClipSpec {
                new_streams: true,
                ..spec
            };
            let a = going.next_batch(&restart, &mut SeededRng::new(9)).unwrap();
            let mut fresh = RolloutSource::streams(envs(), 20).unwrap();
            let b = fresh.next_batch(&restart, &mut SeededRng::new(9)).unwrap();
            assert_eq!(a.frames, b.frames, "{id}");
            assert_eq!(a.offsets, b.offsets, "{id}");
            assert_eq!(a.positions, b.positions, "{id}");
            // And they go on alike.
            let a = going.next_batch(&spec, &mut SeededRng::new(10)).unwrap();
            let b = fresh.next_batch(&spec, &mut SeededRng::new(10)).unwrap();
            assert_eq!(a.frames, b.frames, "{id}");
        }
    }
}
