//! [`GroupedObjectCentricVecEnv`]: an [`ObjectCentricVecEnv`] split into groups of sub-envs
//! that are stepped and encoded in a pipeline (EnvPool's async idea): while the encoder runs on
//! one group's frames, the next group's envs step on the CPU.
//!
//! Each group is an [`ObjectCentricVecEnv`] of its own (its own [`VectorEnv`] and its own
//! [`ObjectEncoder`], so each group's per-env encoder state stays with it) driven by a worker
//! thread. A step of a group runs in two stages, each behind a lock shared by all groups: the env
//! stage ([`VectorEnv::step`] on all of the env threads) and the encoder stage (one model step).
//! At most one group is in each stage, so with two groups one group's envs step while the other
//! group's frames are encoded.
//!
//! Sub-env `i` (global index) is built with `make_env(i)`, reset with `seed + i` and stepped
//! with `actions[i]` exactly as in an [`ObjectCentricVecEnv`] of all envs; identities count per
//! env. Its objects are those of the synchronous env up to floating-point differences of the
//! model's batched kernels at another batch size (the encoder runs on `N / G` rows at a time),
//! and latent noise (`eval_noisy`) is drawn per group.

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use ndarray::{concatenate, Array, ArrayView, Axis, RemoveAxis};

use super::encoder::ObjectEncoder;
use super::env::{ObjectCentricVecEnv, ObjectStep};
use super::objects::ObjectBatch;
use crate::env::vector::{AutoresetMode, VectorEnv};
use crate::env::{Env, Info};
use crate::error::{Error, Result};

/// How many groups to pipeline `n_envs` envs in when the caller asks for none: 2 for an
/// emulator (`emulator`: Atari) encoded on a GPU (`cuda`) with at least 2 envs, else 1.
///
/// Pipelining hides the envs' stepping behind the encoder's, at the price of encoding `n_envs / 2`
/// frames at a time. An emulator's step costs about as much as the encoder's (Space Invaders, 256
/// envs, H200: bare envs 18.9k agent steps/s, encoder 8.6k; 2 groups 0.89 of the slower, 1 group
/// 0.66), a synthetic env's ~30x less (Scattered MNIST, 256 envs, H100: 1.4-1.6M against
/// 38k-60k), so there the halved batch is all that is left (2 groups 0.60-0.71x of 1 group, both
/// encoders, f32 and `--tf32 --half-backbone`). On the CPU the envs and the encoder share cores.
pub fn default_group_count(emulator: bool, n_envs: usize, cuda: bool) -> usize {
    if emulator && cuda && n_envs >= 2 {
        2
    } else {
        1
    }
}

type Job<E> = (Box<ObjectCentricVecEnv<E>>, Vec<usize>);
type Done<E> = (Box<ObjectCentricVecEnv<E>>, Result<()>);

/// One group: its env while the caller holds it, and its worker's channels.
struct Group<E: Env + 'static> {
    /// `None` while a step is in flight (the worker holds the env).
    env: Option<Box<ObjectCentricVecEnv<E>>>,
    range: Range<usize>,
    jobs: Option<Sender<Job<E>>>,
    done: Receiver<Done<E>>,
    worker: Option<JoinHandle<()>>,
}

/// The stages of a group step; at most one group in each.
#[derive(Default)]
struct Stages {
    envs: Mutex<()>,
    encoder: Mutex<()>,
}

fn worker_loop<E: Env + 'static>(
    jobs: Receiver<Job<E>>,
    done: Sender<Done<E>>,
    stages: Arc<Stages>,
) {
    while let Ok((mut env, actions)) = jobs.recv() {
        let result = catch_unwind(AssertUnwindSafe(|| {
            {
                let _envs = stages.envs.lock().unwrap_or_else(|e| e.into_inner());
                env.step_envs(&actions)?;
            }
            let _encoder = stages.encoder.lock().unwrap_or_else(|e| e.into_inner());
            env.encode_step()
        }))
        .unwrap_or_else(|_| Err(Error::Invalid("a group step panicked".into())));
        if done.send((env, result)).is_err() {
            return;
        }
    }
}

/// `N` sub-envs in `G` groups seen through SILOT, stepped and encoded in a pipeline.
///
/// EnvPool-style: [`Self::send`] starts a step of one group (returns at once), [`Self::recv`]
/// waits for it and borrows its results (rows of that group, in the order of
/// [`Self::group_range`]). [`Self::step`] steps every group (send all, receive all) and returns
/// all sub-envs' results in one batch, as [`ObjectCentricVecEnv::step`]; pipelining across
/// steps (send group `g`'s next actions as soon as its results are read) overlaps more.
///
/// ```no_run
/// # use silot::{env::{registry, vector::AutoresetMode}, wrapper::{GroupedObjectCentricVecEnv, ObjectEncoder}};
/// # use candle_core::Device;
/// let mut env = GroupedObjectCentricVecEnv::new(
///     |_i| registry::make("space_invaders"), 8, 2, AutoresetMode::NextStep, 2,
///     |_g| ObjectEncoder::load_named("space_invaders", &Device::Cpu, 0),
/// )?;
/// env.reset(Some(0))?;
/// for g in 0..env.num_groups() {
///     let n = env.group_range(g).len();
///     env.send(g, &vec![0; n])?;
/// }
/// for g in 0..env.num_groups() {
///     let step = env.recv(g)?;
///     println!("group {g}: {} objects in env 0", step.objects.objects(0, 0.5).len());
/// }
/// # Ok::<(), silot::Error>(())
/// ```
pub struct GroupedObjectCentricVecEnv<E: Env + 'static> {
    groups: Vec<Group<E>>,
    n_envs: usize,
    objects: Option<ObjectBatch>,
    final_objects: Option<ObjectBatch>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    infos: Vec<Info>,
    new_episode: Vec<bool>,
}

/// Sub-envs `g * n / groups .. (g + 1) * n / groups`: group sizes differ by at most one.
fn group_bounds(n: usize, groups: usize) -> Result<Vec<Range<usize>>> {
    if groups == 0 || groups > n {
        return Err(Error::Invalid(format!(
            "env groups: need 1 <= groups <= envs, got {groups} groups for {n} envs"
        )));
    }
    Ok((0..groups)
        .map(|g| g * n / groups..(g + 1) * n / groups)
        .collect())
}

impl<E: Env + 'static> GroupedObjectCentricVecEnv<E> {
    /// `n_envs` sub-envs `make_env(i)` in `n_groups` groups of contiguous envs (sizes differ
    /// by at most one; `1 <= n_groups <= n_envs`), each group a [`VectorEnv`] stepped on up to
    /// `n_threads` threads (one group's envs step at a time) with autoreset `mode`, and encoded
    /// by its own encoder `make_encoder(g)` (give every group the same model and seed).
    pub fn new<F, M>(
        make_env: F,
        n_envs: usize,
        n_threads: usize,
        mode: AutoresetMode,
        n_groups: usize,
        mut make_encoder: M,
    ) -> Result<Self>
    where
        F: Fn(usize) -> Result<E> + Sync,
        M: FnMut(usize) -> Result<ObjectEncoder>,
    {
        let bounds = group_bounds(n_envs, n_groups)?;
        let mut groups = Vec::with_capacity(n_groups);
        for (g, r) in bounds.into_iter().enumerate() {
            let offset = r.start;
            let venv = VectorEnv::with_autoreset(
                |i| make_env(offset + i),
                r.len(),
                n_threads.min(r.len()),
                mode,
            )?;
            groups.push(ObjectCentricVecEnv::new(venv, make_encoder(g)?)?);
        }
        Self::from_groups(groups)
    }

    /// Groups built by the caller: group `g` holds the sub-envs after those of groups `< g`
    /// (global index = group offset + index in the group). All groups must share the env id,
    /// spaces and autoreset mode; their sub-envs must be built as the global index says.
    pub fn from_groups(groups: Vec<ObjectCentricVecEnv<E>>) -> Result<Self> {
        let Some(first) = groups.first() else {
            return Err(Error::Invalid("env groups: need at least one group".into()));
        };
        let (id, space, mode) = (
            first.inner().env_id().to_string(),
            first.inner().single_observation_space().clone(),
            first.inner().autoreset_mode(),
        );
        if let Some(g) = groups.iter().position(|g| {
            g.inner().env_id() != id
                || *g.inner().single_observation_space() != space
                || g.inner().autoreset_mode() != mode
        }) {
            return Err(Error::Invalid(format!(
                "env groups: group {g} differs from group 0 in env id, observation space or \
                 autoreset mode"
            )));
        }
        let stages = Arc::new(Stages::default());
        let mut out = Vec::with_capacity(groups.len());
        let mut offset = 0;
        for (g, env) in groups.into_iter().enumerate() {
            let n = env.num_envs();
            let (jobs_tx, jobs_rx) = channel();
            let (done_tx, done_rx) = channel();
            let stages = Arc::clone(&stages);
            let worker = thread::Builder::new()
                .name(format!("silot-group-{g}"))
                .spawn(move || worker_loop(jobs_rx, done_tx, stages))
                .map_err(|e| Error::Invalid(format!("env groups: cannot spawn a worker: {e}")))?;
            out.push(Group {
                env: Some(Box::new(env)),
                range: offset..offset + n,
                jobs: Some(jobs_tx),
                done: done_rx,
                worker: Some(worker),
            });
            offset += n;
        }
        Ok(Self {
            groups: out,
            n_envs: offset,
            objects: None,
            final_objects: None,
            rewards: vec![0.0; offset],
            terminated: vec![false; offset],
            truncated: vec![false; offset],
            infos: vec![Info::default(); offset],
            new_episode: vec![true; offset],
        })
    }

    /// Number of sub-envs.
    pub fn num_envs(&self) -> usize {
        self.n_envs
    }

    /// Number of groups.
    pub fn num_groups(&self) -> usize {
        self.groups.len()
    }

    /// The sub-envs (global indices) of group `g`.
    pub fn group_range(&self, g: usize) -> Range<usize> {
        self.groups[g].range.clone()
    }

    /// Group `g` as an [`ObjectCentricVecEnv`] (its raw frames, objects, infos of the last
    /// reset or received step); an error while a step of it is in flight.
    pub fn group(&self, g: usize) -> Result<&ObjectCentricVecEnv<E>> {
        self.check_group(g)?;
        self.groups[g].env.as_deref().ok_or_else(|| in_flight(g))
    }

    fn check_group(&self, g: usize) -> Result<()> {
        if g >= self.groups.len() {
            return Err(Error::Invalid(format!(
                "env groups: group {g} does not exist ({} groups)",
                self.groups.len()
            )));
        }
        Ok(())
    }

    /// Reset every sub-env (`Some(seed)`: sub-env `i` gets `seed + i`, every group's encoder is
    /// rewound) and restart their objects; all sub-envs' first objects. Steps in flight are
    /// waited for (their results dropped).
    pub fn reset(&mut self, seed: Option<u64>) -> Result<&ObjectBatch> {
        for g in 0..self.groups.len() {
            if self.groups[g].env.is_none() {
                // Drop a pending step's results (or its error): the reset starts afresh.
                let _ = self.wait(g);
            }
        }
        for g in 0..self.groups.len() {
            let offset = self.groups[g].range.start as u64;
            let env = self.groups[g].env.as_mut().ok_or_else(|| in_flight(g))?;
            env.reset(seed.map(|s| s.wrapping_add(offset)))?;
        }
        self.gather()?;
        Ok(self.objects.as_ref().expect("gathered"))
    }

    /// Start a step of group `g` with `actions` (one per sub-env of the group, in the order of
    /// [`Self::group_range`]); returns at once. An error if a step of that group is already in
    /// flight.
    pub fn send(&mut self, g: usize, actions: &[usize]) -> Result<()> {
        self.check_group(g)?;
        let group = &mut self.groups[g];
        if actions.len() != group.range.len() {
            return Err(Error::Invalid(format!(
                "env groups: {} actions for group {g} of {} envs; pass one per env of the group",
                actions.len(),
                group.range.len()
            )));
        }
        let env = group.env.take().ok_or_else(|| in_flight(g))?;
        let jobs = group.jobs.as_ref().ok_or_else(|| worker_gone(g))?;
        jobs.send((env, actions.to_vec()))
            .map_err(|_| worker_gone(g))
    }

    /// Wait for the step of group `g` started by [`Self::send`] and borrow its results (rows of
    /// the group's sub-envs). An error if no step of the group is in flight, or the step's.
    pub fn recv(&mut self, g: usize) -> Result<ObjectStep<'_>> {
        self.check_group(g)?;
        if self.groups[g].env.is_some() {
            return Err(Error::Invalid(format!(
                "env groups: no step of group {g} in flight; send it actions first"
            )));
        }
        self.wait(g)?;
        Ok(self.groups[g].env.as_ref().expect("received").last_step())
    }

    /// Take group `g`'s env back from its worker; the step's result.
    fn wait(&mut self, g: usize) -> Result<()> {
        let group = &mut self.groups[g];
        let (env, result) = group.done.recv().map_err(|_| worker_gone(g))?;
        group.env = Some(env);
        result.map_err(|e| match e {
            Error::SubEnv { index, source } => Error::SubEnv {
                index: group.range.start + index,
                source,
            },
            e => e,
        })
    }

    /// Step sub-env `i` with `actions[i]` (one per sub-env), every group in the pipeline, and
    /// return all sub-envs' results as [`ObjectCentricVecEnv::step`] does.
    pub fn step(&mut self, actions: &[usize]) -> Result<ObjectStep<'_>> {
        if actions.len() != self.n_envs {
            return Err(Error::Invalid(format!(
                "env groups: step got {} actions for {} envs; pass one action per env",
                actions.len(),
                self.n_envs
            )));
        }
        for g in 0..self.groups.len() {
            let r = self.groups[g].range.clone();
            self.send(g, &actions[r])?;
        }
        let mut first_err = None;
        for g in 0..self.groups.len() {
            if let Err(e) = self.wait(g) {
                first_err.get_or_insert(e);
            }
        }
        if let Some(e) = first_err {
            return Err(e);
        }
        self.gather()?;
        Ok(ObjectStep {
            objects: self.objects.as_ref().expect("gathered"),
            rewards: &self.rewards,
            terminated: &self.terminated,
            truncated: &self.truncated,
            infos: &self.infos,
            new_episode: &self.new_episode,
        })
    }

    /// The object sets of every sub-env at the last [`Self::reset`] or [`Self::step`].
    pub fn objects(&self) -> Option<&ObjectBatch> {
        self.objects.as_ref()
    }

    /// `SameStep` autoreset, after [`Self::step`]: as [`ObjectCentricVecEnv::final_objects`]
    /// over all sub-envs.
    pub fn final_objects(&self) -> Option<&ObjectBatch> {
        self.final_objects.as_ref()
    }

    /// Infos of every sub-env at the last [`Self::reset`] or [`Self::step`].
    pub fn infos(&self) -> &[Info] {
        &self.infos
    }

    /// Merge the groups' last results into all-env buffers.
    fn gather(&mut self) -> Result<()> {
        let envs: Vec<&ObjectCentricVecEnv<E>> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, grp)| grp.env.as_deref().ok_or_else(|| in_flight(g)))
            .collect::<Result<_>>()?;
        self.objects = Some(concat(envs.iter().map(|e| e.objects()))?);
        self.final_objects = if envs.iter().any(|e| e.final_objects().is_some()) {
            Some(concat(
                envs.iter()
                    .map(|e| e.final_objects().unwrap_or(e.objects())),
            )?)
        } else {
            None
        };
        for (e, grp) in envs.iter().zip(&self.groups) {
            let r = grp.range.clone();
            let v = e.inner();
            // A reset leaves rewards 0 and flags false in the vector env.
            self.rewards[r.clone()].copy_from_slice(v.rewards());
            self.terminated[r.clone()].copy_from_slice(v.terminated());
            self.truncated[r.clone()].copy_from_slice(v.truncated());
            self.infos[r.clone()].clone_from_slice(v.infos());
            self.new_episode[r].copy_from_slice(e.new_episode());
        }
        Ok(())
    }
}

impl<E: Env + 'static> Drop for GroupedObjectCentricVecEnv<E> {
    fn drop(&mut self) {
        for g in &mut self.groups {
            g.jobs = None; // ends the worker's loop
        }
        for g in &mut self.groups {
            if let Some(w) = g.worker.take() {
                let _ = w.join();
            }
        }
    }
}

fn in_flight(g: usize) -> Error {
    Error::Invalid(format!(
        "env groups: a step of group {g} is in flight; recv it first"
    ))
}

fn worker_gone(g: usize) -> Error {
    Error::Invalid(format!("env groups: the worker of group {g} has ended"))
}

/// The batches of consecutive streams as one.
fn concat<'a>(parts: impl Iterator<Item = &'a ObjectBatch>) -> Result<ObjectBatch> {
    let parts: Vec<&ObjectBatch> = parts.collect();
    // One field of every part, stacked along the streams.
    fn cat<'a, A: Clone + 'a, D: RemoveAxis + 'a>(
        parts: &[&'a ObjectBatch],
        field: impl Fn(&'a ObjectBatch) -> ArrayView<'a, A, D>,
    ) -> Result<Array<A, D>> {
        let views: Vec<ArrayView<A, D>> = parts.iter().map(|p| field(p)).collect();
        concatenate(Axis(0), &views)
            .map_err(|e| Error::Invalid(format!("env groups: merging objects: {e}")))
    }
    Ok(ObjectBatch {
        pres: cat(&parts, |p| p.pres.view())?,
        boxes: cat(&parts, |p| p.boxes.view())?,
        depth: cat(&parts, |p| p.depth.view())?,
        what: cat(&parts, |p| p.what.view())?,
        ids: cat(&parts, |p| p.ids.view())?,
        is_new: cat(&parts, |p| p.is_new.view())?,
        frame_hw: parts[0].frame_hw,
    })
}

#[cfg(test)]
mod tests {
    use super::default_group_count;

    #[test]
    fn pipelines_only_emulators_on_a_gpu() {
        assert_eq!(default_group_count(true, 256, true), 2);
        assert_eq!(default_group_count(true, 2, true), 2);
        // One env cannot be split; the CPU shares its cores between envs and encoder; a
        // synthetic env steps too fast for the pipeline to hide anything.
        assert_eq!(default_group_count(true, 1, true), 1);
        assert_eq!(default_group_count(true, 256, false), 1);
        assert_eq!(default_group_count(false, 256, true), 1);
    }
}
