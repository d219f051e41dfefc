//! The object-centric envs: an [`Env`] or a [`VectorEnv`] whose observations pass through an
//! [`ObjectEncoder`] and come out as [`ObjectBatch`]es.

use ndarray::Axis;

use super::encoder::ObjectEncoder;
use super::objects::ObjectBatch;
use crate::env::vector::{AutoresetMode, VectorEnv};
use crate::env::{Env, Frame, Info, ResetOptions, Space};
use crate::error::{Error, Result};

/// One step of an object-centric env: Gymnasium's `(obs, reward, terminated, truncated, info)`
/// with the object sets as the observation.
#[derive(Debug, Clone)]
pub struct ObjectStep<'a> {
    /// The object sets after the step (`B = 1` for [`ObjectCentricEnv`]).
    pub objects: &'a ObjectBatch,
    /// Reward per env.
    pub rewards: &'a [f32],
    /// Terminated flag per env.
    pub terminated: &'a [bool],
    /// Truncated flag per env.
    pub truncated: &'a [bool],
    /// Info per env (ground truth of synthetic envs included).
    pub infos: &'a [Info],
    /// Per env: this step's frame is the first of a new episode (a vector env's autoreset), so
    /// its objects started afresh.
    pub new_episode: &'a [bool],
}

fn check_rgb(space: &Space) -> Result<()> {
    match space.shape() {
        Some([_, _, 3]) => Ok(()),
        other => Err(Error::Invalid(format!(
            "the object-centric wrapper needs RGB frame observations (H, W, 3), got {other:?}; \
             put it directly on the env (before grayscale / resize / frame-stack wrappers)"
        ))),
    }
}

/// A single env seen through SILOT: `reset` / `step` return the fixed-`K` object set of the new
/// frame (`B = 1`); identities persist while objects are tracked, and the encoder starts afresh
/// at every reset.
///
/// ```no_run
/// # use silot::{env::{registry, ResetOptions}, wrapper::{ObjectCentricEnv, ObjectEncoder}};
/// # use candle_core::Device;
/// let env = registry::make("space_invaders")?;
/// let encoder = ObjectEncoder::load("runs/si".as_ref(), &Device::Cpu, 0)?;
/// let mut env = ObjectCentricEnv::new(env, encoder)?;
/// let objects = env.reset(Some(0), &ResetOptions::default())?.clone();
/// let step = env.step(0)?;
/// println!("{} objects", step.objects.objects(0, 0.5).len());
/// # Ok::<(), silot::Error>(())
/// ```
pub struct ObjectCentricEnv<E: Env> {
    env: E,
    encoder: ObjectEncoder,
    frame: Frame,
    objects: ObjectBatch,
    reward: [f32; 1],
    terminated: [bool; 1],
    truncated: [bool; 1],
    info: [Info; 1],
    new_episode: [bool; 1],
}

impl<E: Env> ObjectCentricEnv<E> {
    /// Wrap `env` (RGB frame observations) with `encoder`; an env other than the one the encoder
    /// was trained on is refused ([`ObjectEncoder::check_env`]).
    pub fn new(env: E, encoder: ObjectEncoder) -> Result<Self> {
        check_rgb(env.observation_space())?;
        encoder.check_env(env.id(), env.observation_space().shape())?;
        let frame = env.new_obs_buffer();
        let (k, a) = (encoder.n_slots(), encoder.n_what());
        let objects = empty_batch(1, k, a, (frame.dim().0, frame.dim().1));
        Ok(Self {
            env,
            encoder,
            frame,
            objects,
            reward: [0.0],
            terminated: [false],
            truncated: [false],
            info: [Info::default()],
            new_episode: [false],
        })
    }

    /// The wrapped env.
    pub fn inner(&self) -> &E {
        &self.env
    }

    /// The encoder.
    pub fn encoder(&self) -> &ObjectEncoder {
        &self.encoder
    }

    /// The last raw frame (what the encoder saw).
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// The object set of the last reset or step.
    pub fn objects(&self) -> &ObjectBatch {
        &self.objects
    }

    /// The info of the last reset or step.
    pub fn last_info(&self) -> &Info {
        &self.info[0]
    }

    /// Space of actions (the wrapped env's).
    pub fn action_space(&self) -> &Space {
        self.env.action_space()
    }

    /// Reset the env and restart its objects; the first frame's objects. `Some(seed)` reseeds
    /// the env and rewinds the encoder ([`ObjectEncoder::rewind`]: ids from 0 again, so a seed
    /// and actions determine the objects and ids); `None` continues the id count.
    pub fn reset(&mut self, seed: Option<u64>, options: &ResetOptions) -> Result<&ObjectBatch> {
        self.info[0] = self.env.reset_into(seed, options, self.frame.view_mut())?;
        if seed.is_some() {
            self.encoder.rewind();
        }
        self.encode(true)?;
        Ok(&self.objects)
    }

    /// Step the env with `action` and encode the new frame.
    pub fn step(&mut self, action: usize) -> Result<ObjectStep<'_>> {
        let t = self.env.step_into(action, self.frame.view_mut())?;
        self.reward[0] = t.reward;
        self.terminated[0] = t.terminated;
        self.truncated[0] = t.truncated;
        self.info[0] = t.info;
        self.encode(false)?;
        Ok(ObjectStep {
            objects: &self.objects,
            rewards: &self.reward,
            terminated: &self.terminated,
            truncated: &self.truncated,
            infos: &self.info,
            new_episode: &self.new_episode,
        })
    }

    fn encode(&mut self, new_episode: bool) -> Result<()> {
        let frames = self.frame.view().insert_axis(Axis(0));
        self.objects = self.encoder.encode(frames, &[new_episode])?;
        Ok(())
    }
}

/// A [`VectorEnv`] seen through SILOT: one batched model step per vector step (all sub-envs'
/// frames together on the model's device). A sub-env whose observation is a fresh reset (after
/// autoreset, in either [`AutoresetMode`]) starts from the empty object set. In `SameStep` mode
/// a step where episodes ended encodes their final frames with the others (continuing their
/// objects: [`Self::final_objects`]), then restarts those sub-envs on their reset frames
/// ([`ObjectEncoder::restart`]).
pub struct ObjectCentricVecEnv<E: Env + 'static> {
    venv: VectorEnv<E>,
    encoder: ObjectEncoder,
    objects: ObjectBatch,
    /// Per sub-env: its next observation is a reset one (NextStep autoreset).
    resets_next: Vec<bool>,
    /// Per sub-env: the last observation was the first of an episode.
    new_episode: Vec<bool>,
    /// `SameStep`: the objects of the ended episodes' final frames at the last step.
    final_objects: Option<ObjectBatch>,
}

impl<E: Env + 'static> ObjectCentricVecEnv<E> {
    /// Wrap `venv` (RGB frame observations) with `encoder`; an env other than the one the
    /// encoder was trained on is refused ([`ObjectEncoder::check_env`]).
    pub fn new(venv: VectorEnv<E>, encoder: ObjectEncoder) -> Result<Self> {
        check_rgb(venv.single_observation_space())?;
        encoder.check_env(venv.env_id(), venv.single_observation_space().shape())?;
        let n = venv.num_envs();
        let [h, w, _] = venv.single_observation_space().shape().unwrap_or([0, 0, 3]);
        let objects = empty_batch(n, encoder.n_slots(), encoder.n_what(), (h, w));
        Ok(Self {
            venv,
            encoder,
            objects,
            resets_next: vec![false; n],
            new_episode: vec![true; n],
            final_objects: None,
        })
    }

    /// Number of sub-envs.
    pub fn num_envs(&self) -> usize {
        self.venv.num_envs()
    }

    /// The wrapped vector env (raw frames: [`VectorEnv::obs`]).
    pub fn inner(&self) -> &VectorEnv<E> {
        &self.venv
    }

    /// The object sets of the last reset or step.
    pub fn objects(&self) -> &ObjectBatch {
        &self.objects
    }

    /// Per sub-env: the last reset or step's frame was the first of an episode.
    pub fn new_episode(&self) -> &[bool] {
        &self.new_episode
    }

    /// The encoder.
    pub fn encoder(&self) -> &ObjectEncoder {
        &self.encoder
    }

    /// `SameStep` autoreset: if episodes ended at the last step, the objects of their final
    /// frames (rows of the sub-envs with a [`VectorEnv::final_obs`]; other rows are those
    /// sub-envs' current objects). `None` otherwise.
    pub fn final_objects(&self) -> Option<&ObjectBatch> {
        self.final_objects.as_ref()
    }

    /// Reset every sub-env and restart their objects (`Some(seed)`: sub-env `i` gets
    /// `seed + i`, and the encoder is rewound as in [`ObjectCentricEnv::reset`]).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(&ObjectBatch, &[Info])> {
        self.venv.reset(seed)?;
        if seed.is_some() {
            self.encoder.rewind();
        }
        let all = vec![true; self.num_envs()];
        self.objects = encode(&mut self.encoder, &self.venv, &all)?;
        self.resets_next.iter_mut().for_each(|r| *r = false);
        self.new_episode = all;
        self.final_objects = None;
        Ok((&self.objects, self.venv.infos()))
    }

    /// Start every sub-env's objects afresh on its current frame: discovery from the empty set,
    /// as at an episode's first frame (new ids; the episodes themselves go on). Replaces
    /// [`Self::objects`]. What scoring streams "restarted every N frames" uses: the clip
    /// behaviour of the paper on the same frames as a stream.
    pub fn restart_objects(&mut self) -> Result<&ObjectBatch> {
        let rows: Vec<usize> = (0..self.num_envs()).collect();
        self.objects = self.encoder.restart(self.venv.obs(), &rows)?;
        self.final_objects = None;
        Ok(&self.objects)
    }

    /// Step sub-env `i` with `actions[i]` and encode all new frames in one batch.
    pub fn step(&mut self, actions: &[usize]) -> Result<ObjectStep<'_>> {
        self.step_envs(actions)?;
        self.encode_step()?;
        Ok(self.last_step())
    }

    /// The results of the last step (or reset: rewards and flags are the vector env's).
    pub fn last_step(&self) -> ObjectStep<'_> {
        ObjectStep {
            objects: &self.objects,
            rewards: self.venv.rewards(),
            terminated: self.venv.terminated(),
            truncated: self.venv.truncated(),
            infos: self.venv.infos(),
            new_episode: &self.new_episode,
        }
    }

    /// The first half of [`Self::step`]: step the sub-envs only (CPU). Must be followed by
    /// [`Self::encode_step`] before the next step; split so that a pipelined env
    /// ([`super::GroupedObjectCentricVecEnv`]) can step one group's envs while another group's
    /// frames are encoded.
    pub(crate) fn step_envs(&mut self, actions: &[usize]) -> Result<()> {
        self.venv.step(actions)?;
        Ok(())
    }

    /// The second half of [`Self::step`]: encode the frames of the last [`Self::step_envs`].
    pub(crate) fn encode_step(&mut self) -> Result<()> {
        let ended: Vec<bool> = self
            .venv
            .terminated()
            .iter()
            .zip(self.venv.truncated())
            .map(|(&a, &b)| a || b)
            .collect();
        self.final_objects = None;
        let rows: Vec<usize> = (0..ended.len()).filter(|&i| ended[i]).collect();
        let new_episode: Vec<bool> = match self.venv.autoreset_mode() {
            // The step after an episode ended returned the reset observation.
            AutoresetMode::NextStep => {
                let fresh = std::mem::replace(&mut self.resets_next, ended);
                self.objects = encode(&mut self.encoder, &self.venv, &fresh)?;
                fresh
            }
            // The ending step itself returned the reset observation: encode the final frames
            // (continuing), then restart the ended sub-envs on their reset frames.
            AutoresetMode::SameStep if !rows.is_empty() => {
                let mut frames = self.venv.obs().to_owned();
                for &i in &rows {
                    let last = self.venv.final_obs(i).ok_or_else(|| {
                        Error::Invalid(format!("sub-env {i} ended without a final observation"))
                    })?;
                    frames.index_axis_mut(Axis(0), i).assign(last);
                }
                let n = ended.len();
                self.final_objects = Some(self.encoder.encode(frames.view(), &vec![false; n])?);
                let firsts = self.venv.obs().select(Axis(0), &rows);
                self.objects = self.encoder.restart(firsts.view(), &rows)?;
                ended
            }
            AutoresetMode::SameStep => {
                self.objects = encode(&mut self.encoder, &self.venv, &ended)?;
                ended
            }
        };
        self.new_episode = new_episode;
        Ok(())
    }
}

fn encode<E: Env + 'static>(
    encoder: &mut ObjectEncoder,
    venv: &VectorEnv<E>,
    new_episode: &[bool],
) -> Result<ObjectBatch> {
    encoder.encode(venv.obs(), new_episode)
}

fn empty_batch(b: usize, k: usize, a: usize, frame_hw: (usize, usize)) -> ObjectBatch {
    ObjectBatch {
        pres: ndarray::Array2::zeros((b, k)),
        boxes: ndarray::Array3::zeros((b, k, 4)),
        depth: ndarray::Array2::zeros((b, k)),
        what: ndarray::Array3::zeros((b, k, a)),
        ids: ndarray::Array2::zeros((b, k)),
        is_new: ndarray::Array2::from_elem((b, k), false),
        frame_hw,
    }
}
