//! [`VectorEnv`]: N envs stepped in parallel on persistent worker threads, with observations
//! written straight into one contiguous `(N, H, W, C)` batch (Gymnasium's vector API, EnvPool's
//! `seed + i` seeding).
//!
//! Threading: the envs are split into `n_threads` contiguous chunks. The calling thread steps
//! chunk 0 itself; `n_threads - 1` persistent workers step the others. A call publishes its
//! command by bumping an atomic epoch and waits on an atomic counter; both sides spin briefly,
//! then yield, then park, so a step costs no thread spawn, no channel message and no allocation.
//! Each worker writes only the batch rows and result slots of its own envs.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};
use std::time::{Duration, Instant};

use ndarray::{ArrayView4, ArrayViewMut3};

use super::{Env, Frame, Info, ResetOptions, Space};
use crate::error::{Error, Result};

/// What a sub-env does on the step after its episode ended (Gymnasium's `AutoresetMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoresetMode {
    /// Gymnasium's default: the step after an episode ended resets that sub-env (its action is
    /// ignored) and returns the reset observation and info with reward 0 and
    /// `terminated = truncated = false`.
    #[default]
    NextStep,
    /// The step that ends an episode resets the sub-env at once: it returns the reset
    /// observation and reset info with the final step's reward and flags; the final observation
    /// and info are in [`VectorEnv::final_obs`] / [`VectorEnv::final_info`].
    SameStep,
}

/// Results of [`VectorEnv::step`], borrowed from the vector env's buffers.
#[derive(Debug)]
pub struct VectorStep<'a> {
    /// `(N, H, W, C)` observations.
    pub obs: ArrayView4<'a, u8>,
    /// Reward per sub-env.
    pub rewards: &'a [f32],
    /// Terminated flag per sub-env.
    pub terminated: &'a [bool],
    /// Truncated flag per sub-env.
    pub truncated: &'a [bool],
    /// Info per sub-env.
    pub infos: &'a [Info],
}

/// How long a waiting thread spins, then yields, before it parks.
const SPIN_FOR: Duration = Duration::from_micros(20);
const YIELD_FOR: Duration = Duration::from_micros(300);

#[derive(Debug, Clone, Copy)]
enum Cmd {
    Reset(Option<u64>),
    Step,
    Shutdown,
}

/// A heap buffer whose elements are written through raw pointers by the worker that owns them.
struct RawBuf<T> {
    ptr: *mut T,
    len: usize,
    cap: usize,
}

impl<T> RawBuf<T> {
    fn new(v: Vec<T>) -> Self {
        let mut v = std::mem::ManuallyDrop::new(v);
        RawBuf {
            ptr: v.as_mut_ptr(),
            len: v.len(),
            cap: v.capacity(),
        }
    }

    /// # Safety
    /// No other thread accesses element `i` while the returned reference lives.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get_mut(&self, i: usize) -> &mut T {
        debug_assert!(i < self.len);
        &mut *self.ptr.add(i)
    }

    /// # Safety
    /// No thread writes the buffer while the returned slice lives.
    unsafe fn as_slice(&self) -> &[T] {
        std::slice::from_raw_parts(self.ptr, self.len)
    }
}

impl<T> Drop for RawBuf<T> {
    fn drop(&mut self) {
        // SAFETY: reconstructs the Vec this buffer was made from, exactly once.
        unsafe { drop(Vec::from_raw_parts(self.ptr, self.len, self.cap)) }
    }
}

/// Per-env output slots, indexed by env.
struct Outputs {
    /// `(N, H, W, C)` observations, row `i` for env `i`.
    obs: RawBuf<u8>,
    obs_shape: [usize; 3],
    actions: RawBuf<usize>,
    rewards: RawBuf<f32>,
    terminated: RawBuf<bool>,
    truncated: RawBuf<bool>,
    infos: RawBuf<Info>,
    errors: RawBuf<Option<Error>>,
    final_obs: RawBuf<Option<Frame>>,
    final_info: RawBuf<Option<Info>>,
}

impl Outputs {
    fn new(n: usize, obs_shape: [usize; 3]) -> Self {
        let len = obs_shape.iter().product::<usize>();
        Outputs {
            obs: RawBuf::new(vec![0; n * len]),
            obs_shape,
            actions: RawBuf::new(vec![0; n]),
            rewards: RawBuf::new(vec![0.0; n]),
            terminated: RawBuf::new(vec![false; n]),
            truncated: RawBuf::new(vec![false; n]),
            infos: RawBuf::new(vec![Info::default(); n]),
            errors: RawBuf::new((0..n).map(|_| None).collect()),
            final_obs: RawBuf::new(vec![None; n]),
            final_info: RawBuf::new(vec![None; n]),
        }
    }

    /// # Safety
    /// Only the thread that owns env `i` for the current command may call this.
    unsafe fn obs_mut(&self, i: usize) -> ArrayViewMut3<'_, u8> {
        let [h, w, c] = self.obs_shape;
        ArrayViewMut3::from_shape_ptr((h, w, c), self.obs.ptr.add(i * h * w * c))
    }
}

/// State shared by the caller and the workers.
///
/// Protocol: the caller writes `cmd` and `out.actions`, resets `done`, then bumps `epoch`
/// (Release). A worker that sees the new epoch (Acquire) runs `cmd` on its chunk, touching only
/// its own envs' slots, then increments `done` (Release). The caller reads any slot only after
/// `done` reached the number of workers (Acquire), and never while a command runs.
struct Shared {
    epoch: AtomicU64,
    done: AtomicUsize,
    n_workers: usize,
    cmd: UnsafeCell<Cmd>,
    /// The thread waiting for the workers (the caller of the current command).
    waiter: Mutex<Option<Thread>>,
    out: Outputs,
}

// SAFETY: see the protocol on `Shared`: every slot has one writer at a time, and hand-over
// between caller and workers is ordered by the epoch/done atomics.
unsafe impl Sync for Shared {}
// SAFETY: the raw buffers own their data (Info, Error, Frame are Send).
unsafe impl Send for Shared {}

/// The envs one thread steps: global indices `start..start + envs.len()`.
struct Chunk<E> {
    start: usize,
    envs: Vec<E>,
    needs_autoreset: Vec<bool>,
    mode: AutoresetMode,
}

impl<E: Env> Chunk<E> {
    fn run(&mut self, cmd: Cmd, out: &Outputs) {
        for k in 0..self.envs.len() {
            let i = self.start + k;
            // SAFETY: this thread owns env i's slots for the duration of the command.
            let result = catch_unwind(AssertUnwindSafe(|| unsafe { self.run_one(k, cmd, out) }))
                .unwrap_or_else(|payload| {
                    Err(Error::Invalid(format!(
                        "env {i} panicked: {}",
                        panic_message(payload.as_ref())
                    )))
                });
            if let Err(e) = result {
                // SAFETY: as above.
                unsafe { *out.errors.get_mut(i) = Some(e) };
            }
        }
    }

    /// # Safety
    /// The caller owns env `start + k`'s slots in `out`.
    unsafe fn run_one(&mut self, k: usize, cmd: Cmd, out: &Outputs) -> Result<()> {
        let i = self.start + k;
        let env = &mut self.envs[k];
        let opts = ResetOptions::default();
        *out.final_obs.get_mut(i) = None;
        *out.final_info.get_mut(i) = None;
        let seed = match cmd {
            Cmd::Reset(seed) => Some(seed.map(|s| s.wrapping_add(i as u64))),
            Cmd::Step if self.needs_autoreset[k] => Some(None),
            Cmd::Step => None,
            Cmd::Shutdown => return Ok(()),
        };
        if let Some(seed) = seed {
            // A reset: explicit, or NextStep's autoreset (the action is ignored).
            *out.infos.get_mut(i) = env.reset_into(seed, &opts, out.obs_mut(i))?;
            *out.rewards.get_mut(i) = 0.0;
            *out.terminated.get_mut(i) = false;
            *out.truncated.get_mut(i) = false;
            self.needs_autoreset[k] = false;
            return Ok(());
        }
        let action = *out.actions.get_mut(i);
        let t = env.step_into(action, out.obs_mut(i))?;
        let ended = t.terminated || t.truncated;
        *out.rewards.get_mut(i) = t.reward;
        *out.terminated.get_mut(i) = t.terminated;
        *out.truncated.get_mut(i) = t.truncated;
        match self.mode {
            AutoresetMode::NextStep => {
                *out.infos.get_mut(i) = t.info;
                self.needs_autoreset[k] = ended;
            }
            AutoresetMode::SameStep if ended => {
                *out.final_obs.get_mut(i) = Some(out.obs_mut(i).to_owned());
                *out.final_info.get_mut(i) = Some(t.info);
                *out.infos.get_mut(i) = env.reset_into(None, &opts, out.obs_mut(i))?;
            }
            AutoresetMode::SameStep => *out.infos.get_mut(i) = t.info,
        }
        Ok(())
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".into())
}

/// Spin, then yield, then park until `ready()` holds. Wake-ups come from `Thread::unpark`.
fn wait_until(ready: impl Fn() -> bool) {
    if ready() {
        return;
    }
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if ready() {
                return;
            }
            std::hint::spin_loop();
        }
        let waited = start.elapsed();
        if waited < SPIN_FOR {
            continue;
        }
        if ready() {
            return;
        }
        if waited < YIELD_FOR {
            thread::yield_now();
        } else {
            thread::park();
        }
    }
}

fn worker_loop<E: Env>(shared: Arc<Shared>, mut chunk: Chunk<E>) {
    let mut seen = 0u64;
    loop {
        wait_until(|| shared.epoch.load(Ordering::Acquire) != seen);
        seen = shared.epoch.load(Ordering::Acquire);
        // SAFETY: the caller wrote `cmd` before bumping the epoch and does not touch it until
        // every worker is done.
        let cmd = unsafe { *shared.cmd.get() };
        if let Cmd::Shutdown = cmd {
            return;
        }
        chunk.run(cmd, &shared.out);
        if shared.done.fetch_add(1, Ordering::AcqRel) + 1 == shared.n_workers {
            let waiter = shared.waiter.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(t) = waiter.as_ref() {
                t.unpark();
            }
        }
    }
}

/// `n_envs` envs stepped in parallel, with batched outputs.
///
/// ```no_run
/// # use silot::env::{vector::VectorEnv, atari::{make_atari, AtariConfig}};
/// let mut venv = VectorEnv::new(|_i| make_atari(&AtariConfig::default()), 8, 2)?;
/// venv.reset(Some(42))?; // env i is seeded with 42 + i
/// let step = venv.step(&[0; 8])?;
/// assert_eq!(step.obs.shape(), &[8, 210, 160, 3]);
/// # Ok::<(), silot::Error>(())
/// ```
pub struct VectorEnv<E: Env + 'static = Box<dyn Env>> {
    n_envs: usize,
    obs_space: Space,
    action_space: Space,
    shared: Arc<Shared>,
    local: Chunk<E>,
    workers: Vec<(Thread, JoinHandle<()>)>,
}

impl<E: Env + 'static> VectorEnv<E> {
    /// Build `n_envs` envs with `make_fn(i)` on `n_threads` threads (the caller counts as one;
    /// at most one thread per env), with [`AutoresetMode::NextStep`]. Each env is constructed on
    /// the thread that will step it. All envs must have the same spaces.
    pub fn new<F>(make_fn: F, n_envs: usize, n_threads: usize) -> Result<Self>
    where
        F: Fn(usize) -> Result<E> + Send + Sync + 'static,
    {
        Self::with_autoreset(make_fn, n_envs, n_threads, AutoresetMode::NextStep)
    }

    /// [`VectorEnv::new`] with an explicit autoreset mode.
    pub fn with_autoreset<F>(
        make_fn: F,
        n_envs: usize,
        n_threads: usize,
        mode: AutoresetMode,
    ) -> Result<Self>
    where
        F: Fn(usize) -> Result<E> + Send + Sync + 'static,
    {
        if n_envs == 0 || n_threads == 0 {
            return Err(Error::Invalid(format!(
                "VectorEnv needs n_envs >= 1 and n_threads >= 1, got {n_envs} and {n_threads}"
            )));
        }
        let n_threads = n_threads.min(n_envs);
        let bounds: Vec<usize> = (0..=n_threads).map(|t| t * n_envs / n_threads).collect();
        let make_fn = Arc::new(make_fn);
        let build = move |range: std::ops::Range<usize>| -> Result<Chunk<E>> {
            let start = range.start;
            let envs = range.map(|i| make_fn(i)).collect::<Result<Vec<E>>>()?;
            Ok(Chunk {
                start,
                needs_autoreset: vec![false; envs.len()],
                envs,
                mode,
            })
        };
        let build = Arc::new(build);
        // Workers build their chunks on their own threads, then wait for `Shared`.
        let mut pending = Vec::new();
        for t in 1..n_threads {
            let (chunk_tx, chunk_rx) = mpsc::channel::<Result<[Space; 2]>>();
            let (shared_tx, shared_rx) = mpsc::channel::<Option<Arc<Shared>>>();
            let build = Arc::clone(&build);
            let range = bounds[t]..bounds[t + 1];
            let handle = thread::Builder::new()
                .name(format!("silot-venv-{t}"))
                .spawn(move || {
                    let chunk = match build(range) {
                        Ok(chunk) => {
                            let env = &chunk.envs[0];
                            let spaces =
                                [env.observation_space().clone(), env.action_space().clone()];
                            let _ = chunk_tx.send(Ok(spaces));
                            chunk
                        }
                        Err(e) => {
                            let _ = chunk_tx.send(Err(e));
                            return;
                        }
                    };
                    if let Ok(Some(shared)) = shared_rx.recv() {
                        worker_loop(shared, chunk);
                    }
                })
                .map_err(|e| Error::Invalid(format!("VectorEnv: cannot spawn a thread: {e}")))?;
            pending.push((chunk_rx, shared_tx, handle, bounds[t]));
        }
        let local = build(0..bounds[1]);
        let mut first_err: Option<Error> = None;
        let mut spaces = Vec::new();
        for (rx, _, _, start) in &pending {
            match rx.recv() {
                Ok(Ok(s)) => spaces.push((s, *start)),
                Ok(Err(e)) => first_err = first_err.or(Some(e)),
                Err(_) => {
                    first_err = first_err.or(Some(Error::Invalid(format!(
                        "VectorEnv: the worker building env {start} panicked"
                    ))))
                }
            }
        }
        let local = match (local, first_err) {
            (Ok(local), None) => local,
            (local, err) => {
                for (_, tx, handle, _) in pending {
                    let _ = tx.send(None);
                    let _ = handle.join();
                }
                return Err(match (local, err) {
                    (Err(e), _) => e,
                    (_, Some(e)) => e,
                    (Ok(_), None) => unreachable!("handled above"),
                });
            }
        };
        let obs_space = local.envs[0].observation_space().clone();
        let action_space = local.envs[0].action_space().clone();
        let mismatch = local
            .envs
            .iter()
            .enumerate()
            .map(|(k, e)| ([e.observation_space().clone(), e.action_space().clone()], k))
            .chain(spaces)
            .find(|([o, a], _)| *o != obs_space || *a != action_space);
        let obs_shape = obs_space.shape();
        let problem = match (mismatch, obs_shape) {
            (Some(([o, a], i)), _) => Some(format!(
                "env {i} has spaces {o:?} / {a:?}, env 0 has {obs_space:?} / {action_space:?}; \
                 all sub-envs must share their spaces"
            )),
            (None, None) => Some(format!(
                "observation space {obs_space:?} is not an image box"
            )),
            (None, Some(_)) => None,
        };
        if let Some(msg) = problem {
            for (_, tx, handle, _) in pending {
                let _ = tx.send(None);
                let _ = handle.join();
            }
            return Err(Error::Invalid(format!("VectorEnv: {msg}")));
        }
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            n_workers: pending.len(),
            cmd: UnsafeCell::new(Cmd::Step),
            waiter: Mutex::new(None),
            out: Outputs::new(n_envs, obs_shape.expect("checked above")),
        });
        let workers = pending
            .into_iter()
            .map(|(_, tx, handle, _)| {
                let _ = tx.send(Some(Arc::clone(&shared)));
                (handle.thread().clone(), handle)
            })
            .collect();
        Ok(VectorEnv {
            n_envs,
            obs_space,
            action_space,
            shared,
            local,
            workers,
        })
    }

    /// Number of sub-envs.
    pub fn num_envs(&self) -> usize {
        self.n_envs
    }

    /// Number of threads stepping envs (including the caller).
    pub fn num_threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Observation space of one sub-env.
    pub fn single_observation_space(&self) -> &Space {
        &self.obs_space
    }

    /// Action space of one sub-env.
    pub fn single_action_space(&self) -> &Space {
        &self.action_space
    }

    /// Run `cmd` on every env and return the first sub-env error, if any.
    fn dispatch(&mut self, cmd: Cmd) -> Result<()> {
        let shared = &*self.shared;
        // SAFETY: no worker runs a command now (the previous one completed), so the caller has
        // exclusive access to `cmd`.
        unsafe { *shared.cmd.get() = cmd };
        shared.done.store(0, Ordering::Relaxed);
        {
            let mut waiter = shared.waiter.lock().unwrap_or_else(|e| e.into_inner());
            let me = thread::current();
            if waiter.as_ref().map(Thread::id) != Some(me.id()) {
                *waiter = Some(me);
            }
        }
        shared.epoch.fetch_add(1, Ordering::Release);
        for (t, _) in &self.workers {
            t.unpark();
        }
        self.local.run(cmd, &shared.out);
        wait_until(|| shared.done.load(Ordering::Acquire) == shared.n_workers);
        for i in 0..self.n_envs {
            // SAFETY: all workers are done; the caller has exclusive access.
            if let Some(source) = unsafe { shared.out.errors.get_mut(i) }.take() {
                for j in i + 1..self.n_envs {
                    unsafe { *shared.out.errors.get_mut(j) = None };
                }
                return Err(Error::SubEnv {
                    index: i,
                    source: Box::new(source),
                });
            }
        }
        Ok(())
    }

    /// Reset every sub-env; `Some(seed)` seeds sub-env `i` with `seed + i` (wrapping), `None`
    /// continues their RNGs. Returns the `(N, H, W, C)` observations and the infos.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(ArrayView4<'_, u8>, &[Info])> {
        self.dispatch(Cmd::Reset(seed))?;
        Ok((self.obs(), self.infos()))
    }

    /// Step sub-env `i` with `actions[i]` (`actions.len()` must be `num_envs`), autoresetting
    /// per the [`AutoresetMode`]. A sub-env error is returned as [`Error::SubEnv`] (the other
    /// sub-envs have still been stepped).
    pub fn step(&mut self, actions: &[usize]) -> Result<VectorStep<'_>> {
        if actions.len() != self.n_envs {
            return Err(Error::Invalid(format!(
                "VectorEnv::step got {} actions for {} envs; pass one action per env",
                actions.len(),
                self.n_envs
            )));
        }
        for (i, &a) in actions.iter().enumerate() {
            // SAFETY: no command runs; the caller has exclusive access.
            unsafe { *self.shared.out.actions.get_mut(i) = a };
        }
        self.dispatch(Cmd::Step)?;
        Ok(VectorStep {
            obs: self.obs(),
            rewards: self.rewards(),
            terminated: self.terminated(),
            truncated: self.truncated(),
            infos: self.infos(),
        })
    }

    /// The `(N, H, W, C)` observations of the last reset or step.
    pub fn obs(&self) -> ArrayView4<'_, u8> {
        let [h, w, c] = self.shared.out.obs_shape;
        // SAFETY: the buffer holds N*H*W*C bytes; no command runs while `&self` is borrowed.
        unsafe { ArrayView4::from_shape_ptr((self.n_envs, h, w, c), self.shared.out.obs.ptr) }
    }

    /// Rewards of the last step.
    pub fn rewards(&self) -> &[f32] {
        // SAFETY: no command runs while `&self` is borrowed.
        unsafe { self.shared.out.rewards.as_slice() }
    }

    /// Terminated flags of the last step.
    pub fn terminated(&self) -> &[bool] {
        // SAFETY: as in `rewards`.
        unsafe { self.shared.out.terminated.as_slice() }
    }

    /// Truncated flags of the last step.
    pub fn truncated(&self) -> &[bool] {
        // SAFETY: as in `rewards`.
        unsafe { self.shared.out.truncated.as_slice() }
    }

    /// Infos of the last reset or step.
    pub fn infos(&self) -> &[Info] {
        // SAFETY: as in `rewards`.
        unsafe { self.shared.out.infos.as_slice() }
    }

    /// [`AutoresetMode::SameStep`]: the final observation of sub-env `i` if its episode ended in
    /// the last step.
    pub fn final_obs(&self, i: usize) -> Option<&Frame> {
        // SAFETY: as in `rewards`.
        unsafe { self.shared.out.final_obs.as_slice() }
            .get(i)?
            .as_ref()
    }

    /// [`AutoresetMode::SameStep`]: the final info of sub-env `i` if its episode ended in the
    /// last step.
    pub fn final_info(&self, i: usize) -> Option<&Info> {
        // SAFETY: as in `rewards`.
        unsafe { self.shared.out.final_info.as_slice() }
            .get(i)?
            .as_ref()
    }
}

impl<E: Env + 'static> Drop for VectorEnv<E> {
    fn drop(&mut self) {
        // SAFETY: no command runs; workers only read `cmd` after the epoch bump below.
        unsafe { *self.shared.cmd.get() = Cmd::Shutdown };
        self.shared.epoch.fetch_add(1, Ordering::Release);
        for (t, handle) in self.workers.drain(..) {
            t.unpark();
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::wrappers::testing::Fake;

    fn fakes(n: usize, threads: usize, term_at: u32, mode: AutoresetMode) -> VectorEnv<Fake> {
        VectorEnv::with_autoreset(
            move |i| Ok(Fake::new(2, 3, 1, term_at + i as u32)),
            n,
            threads,
            mode,
        )
        .unwrap()
    }

    #[test]
    fn batch_matches_single_envs_for_any_thread_count() {
        for threads in [1, 2, 3, 5] {
            let mut v = fakes(5, threads, 100, AutoresetMode::NextStep);
            v.reset(Some(10)).unwrap();
            let mut singles: Vec<Fake> = (0..5).map(|i| Fake::new(2, 3, 1, 100 + i)).collect();
            for (i, e) in singles.iter_mut().enumerate() {
                e.reset(Some(10 + i as u64), &ResetOptions::default())
                    .unwrap();
            }
            for step in 0..7 {
                let actions: Vec<usize> = (0..5).map(|i| (i + step) % 4).collect();
                let out = v.step(&actions).unwrap();
                for (i, e) in singles.iter_mut().enumerate() {
                    let s = e.step(actions[i]).unwrap();
                    assert_eq!(out.obs.index_axis(ndarray::Axis(0), i), s.obs);
                    assert_eq!(out.rewards[i], s.reward);
                    assert_eq!(out.infos[i], s.info);
                }
            }
        }
    }

    #[test]
    fn errors_propagate_with_index() {
        let mut v = fakes(4, 2, 100, AutoresetMode::NextStep);
        match v.step(&[0; 4]) {
            Err(Error::SubEnv { index: 0, source }) => {
                assert!(matches!(*source, Error::NeedsReset { .. }))
            }
            other => panic!("expected NeedsReset from env 0, got {other:?}"),
        }
        v.reset(Some(0)).unwrap();
        match v.step(&[0, 1, 2, 9]) {
            Err(Error::SubEnv { index: 3, source }) => {
                assert!(matches!(*source, Error::InvalidAction { action: 9, .. }))
            }
            other => panic!("expected InvalidAction from env 3, got {other:?}"),
        }
        assert!(v.step(&[0; 3]).is_err());
        assert!(v.step(&[0; 4]).is_ok());
    }
}
