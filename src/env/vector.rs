//! [`VectorEnv`]: N envs stepped in parallel on persistent worker threads, with observations
//! written straight into one contiguous `(N, H, W, C)` batch (Gymnasium's vector API, EnvPool's
//! `seed + i` seeding).
//!
//! Threading: `n_threads - 1` persistent workers plus the calling thread, each with a "home"
//! chunk of contiguous envs. A call publishes its command by bumping an atomic epoch; every
//! thread then claims envs one at a time (an atomic `fetch_max` of the epoch into the env's claim
//! word), its home chunk first (so an env's emulator state stays in one core's cache), then any
//! env still unclaimed elsewhere (work stealing: uneven env costs balance out, and a worker
//! descheduled on a loaded machine does not stall the step). A thread writes only the batch rows
//! and result slots of envs it claimed. Waiting threads spin briefly, then yield, then park: a step
//! costs no thread spawn, no channel message and no allocation. Envs are built in parallel on
//! `n_threads` threads.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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

/// One sub-env and its autoreset flag.
struct EnvSlot<E> {
    env: E,
    needs_autoreset: bool,
}

/// State shared by the caller and the workers.
///
/// Protocol: the caller writes `cmd` and `out.actions`, resets `done`, then increments `epoch`
/// (Release). A thread that read epoch `e` claims env `i` when `claims[i].fetch_max(e)` returns
/// less than `e` (AcqRel); it alone touches env `i` and its slots until it increments `done`
/// (Release). A claim succeeds only while epoch `e` is unfinished, so `cmd` is stable whenever
/// it is read. The caller reads slots only after `done == n` (Acquire).
struct Shared<E> {
    epoch: AtomicU64,
    /// Per env: the last epoch in which it was claimed.
    claims: Box<[AtomicU64]>,
    /// Per thread (0 = the caller): the order in which it claims envs (see [`claim_order`]).
    orders: Vec<Box<[usize]>>,
    done: AtomicUsize,
    shutdown: AtomicBool,
    n_envs: usize,
    cmd: UnsafeCell<Cmd>,
    mode: AutoresetMode,
    envs: Box<[UnsafeCell<EnvSlot<E>>]>,
    /// The thread waiting for the command to finish (its caller).
    waiter: Mutex<Option<Thread>>,
    out: Outputs,
}

// SAFETY: see the protocol on `Shared`: each env and slot has one user at a time, hand-over is
// ordered by the epoch, claim and done atomics, and envs are `Send`.
unsafe impl<E: Send> Sync for Shared<E> {}
// SAFETY: the raw buffers own their data (Info, Error, Frame are Send), envs are `Send`.
unsafe impl<E: Send> Send for Shared<E> {}

impl<E: Env> Shared<E> {
    /// Claim and run envs of the current epoch, home chunk of thread `tid` first, until none
    /// is left; returns the epoch worked on.
    fn work(&self, tid: usize) -> u64 {
        let epoch = self.epoch.load(Ordering::Acquire);
        for &i in self.orders[tid].iter() {
            if self.claims[i].load(Ordering::Relaxed) >= epoch
                || self.claims[i].fetch_max(epoch, Ordering::AcqRel) >= epoch
            {
                continue;
            }
            // SAFETY: the successful claim makes this thread env i's only user until `done` is
            // incremented, and keeps the caller from rewriting `cmd` meanwhile.
            unsafe {
                let cmd = *self.cmd.get();
                let slot = &mut *self.envs[i].get();
                let result = catch_unwind(AssertUnwindSafe(|| {
                    run_one(slot, i, cmd, self.mode, &self.out)
                }))
                .unwrap_or_else(|payload| {
                    Err(Error::Invalid(format!(
                        "env {i} panicked: {}",
                        panic_message(payload.as_ref())
                    )))
                });
                if let Err(e) = result {
                    *self.out.errors.get_mut(i) = Some(e);
                }
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.n_envs {
                let waiter = self.waiter.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(t) = waiter.as_ref() {
                    t.unpark();
                }
            }
        }
        epoch
    }
}

/// The order in which thread `tid` claims envs: its home chunk `bounds[tid]..bounds[tid + 1]`
/// front to back, then every other thread's chunk (the next thread's first) back to front. An
/// owner and a thief thus meet in the middle of a chunk instead of racing for the same env, and
/// a thief takes the envs the owner would reach last, so an env changes core only when its
/// owner is really behind.
fn claim_order(bounds: &[usize], tid: usize) -> Box<[usize]> {
    let n_threads = bounds.len() - 1;
    let home = bounds[tid]..bounds[tid + 1];
    let others = (1..n_threads).flat_map(|k| {
        let t = (tid + k) % n_threads;
        (bounds[t]..bounds[t + 1]).rev()
    });
    home.chain(others).collect()
}

/// Run `cmd` on env `i`.
///
/// # Safety
/// The caller has claimed env `i` (owns its slots in `out`).
unsafe fn run_one<E: Env>(
    slot: &mut EnvSlot<E>,
    i: usize,
    cmd: Cmd,
    mode: AutoresetMode,
    out: &Outputs,
) -> Result<()> {
    let env = &mut slot.env;
    let opts = ResetOptions::default();
    *out.final_obs.get_mut(i) = None;
    *out.final_info.get_mut(i) = None;
    let seed = match cmd {
        Cmd::Reset(seed) => Some(seed.map(|s| s.wrapping_add(i as u64))),
        Cmd::Step if slot.needs_autoreset => Some(None),
        Cmd::Step => None,
    };
    if let Some(seed) = seed {
        // A reset: explicit, or NextStep's autoreset (the action is ignored).
        *out.infos.get_mut(i) = env.reset_into(seed, &opts, out.obs_mut(i))?;
        *out.rewards.get_mut(i) = 0.0;
        *out.terminated.get_mut(i) = false;
        *out.truncated.get_mut(i) = false;
        slot.needs_autoreset = false;
        return Ok(());
    }
    let action = *out.actions.get_mut(i);
    let t = env.step_into(action, out.obs_mut(i))?;
    let ended = t.terminated || t.truncated;
    *out.rewards.get_mut(i) = t.reward;
    *out.terminated.get_mut(i) = t.terminated;
    *out.truncated.get_mut(i) = t.truncated;
    match mode {
        AutoresetMode::NextStep => {
            *out.infos.get_mut(i) = t.info;
            slot.needs_autoreset = ended;
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

fn worker_loop<E: Env>(shared: Arc<Shared<E>>, tid: usize) {
    let mut seen = 0u64;
    loop {
        wait_until(|| {
            shared.epoch.load(Ordering::Acquire) != seen || shared.shutdown.load(Ordering::Acquire)
        });
        if shared.shutdown.load(Ordering::Acquire) {
            return;
        }
        seen = shared.work(tid);
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
    env_id: String,
    obs_space: Space,
    action_space: Space,
    shared: Arc<Shared<E>>,
    workers: Vec<(Thread, JoinHandle<()>)>,
}

/// Build envs `range` with `make_fn`, turning a panic into an error.
fn build_range<E, F>(make_fn: &F, range: std::ops::Range<usize>) -> Result<Vec<E>>
where
    F: Fn(usize) -> Result<E>,
{
    range
        .map(|i| {
            catch_unwind(AssertUnwindSafe(|| make_fn(i))).unwrap_or_else(|payload| {
                Err(Error::Invalid(format!(
                    "VectorEnv: building env {i} panicked: {}",
                    panic_message(payload.as_ref())
                )))
            })
        })
        .collect()
}

impl<E: Env + 'static> VectorEnv<E> {
    /// Build `n_envs` envs with `make_fn(i)` in parallel on `n_threads` threads, and step them
    /// on `n_threads` threads (the caller counts as one; at most one thread per env), with
    /// [`AutoresetMode::NextStep`]. All envs must have the same spaces.
    pub fn new<F>(make_fn: F, n_envs: usize, n_threads: usize) -> Result<Self>
    where
        F: Fn(usize) -> Result<E> + Sync,
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
        F: Fn(usize) -> Result<E> + Sync,
    {
        if n_envs == 0 || n_threads == 0 {
            return Err(Error::Invalid(format!(
                "VectorEnv needs n_envs >= 1 and n_threads >= 1, got {n_envs} and {n_threads}"
            )));
        }
        let n_threads = n_threads.min(n_envs);
        let bounds: Vec<usize> = (0..=n_threads).map(|t| t * n_envs / n_threads).collect();
        let chunks: Vec<Result<Vec<E>>> = thread::scope(|scope| {
            let handles: Vec<_> = (1..n_threads)
                .map(|t| {
                    let (make_fn, range) = (&make_fn, bounds[t]..bounds[t + 1]);
                    scope.spawn(move || build_range(make_fn, range))
                })
                .collect();
            let mut chunks = vec![build_range(&make_fn, 0..bounds[1])];
            chunks.extend(handles.into_iter().map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(Error::Invalid(
                        "VectorEnv: a builder thread panicked".into(),
                    ))
                })
            }));
            chunks
        });
        let mut envs = Vec::with_capacity(n_envs);
        for chunk in chunks {
            envs.extend(chunk?);
        }
        let obs_space = envs[0].observation_space().clone();
        let action_space = envs[0].action_space().clone();
        let env_id = envs[0].id().to_string();
        if let Some((i, e)) = envs
            .iter()
            .enumerate()
            .find(|(_, e)| *e.observation_space() != obs_space || *e.action_space() != action_space)
        {
            return Err(Error::Invalid(format!(
                "VectorEnv: env {i} has spaces {:?} / {:?}, env 0 has {obs_space:?} / \
                 {action_space:?}; all sub-envs must share their spaces",
                e.observation_space(),
                e.action_space()
            )));
        }
        let obs_shape = obs_space.shape().ok_or_else(|| {
            Error::Invalid(format!(
                "VectorEnv: observation space {obs_space:?} is not an image box"
            ))
        })?;
        let shared = Arc::new(Shared {
            // Commands start at epoch 1; claims of epoch 0 never succeed.
            epoch: AtomicU64::new(0),
            claims: (0..n_envs).map(|_| AtomicU64::new(0)).collect(),
            orders: (0..n_threads).map(|t| claim_order(&bounds, t)).collect(),
            done: AtomicUsize::new(0),
            shutdown: AtomicBool::new(false),
            n_envs,
            cmd: UnsafeCell::new(Cmd::Step),
            mode,
            envs: envs
                .into_iter()
                .map(|env| {
                    UnsafeCell::new(EnvSlot {
                        env,
                        needs_autoreset: false,
                    })
                })
                .collect(),
            waiter: Mutex::new(None),
            out: Outputs::new(n_envs, obs_shape),
        });
        let mut workers = Vec::new();
        for t in 1..n_threads {
            let worker_shared = Arc::clone(&shared);
            let spawned = thread::Builder::new()
                .name(format!("silot-venv-{t}"))
                .spawn(move || worker_loop(worker_shared, t));
            match spawned {
                Ok(handle) => workers.push((handle.thread().clone(), handle)),
                Err(e) => {
                    let venv = VectorEnv {
                        n_envs,
                        env_id,
                        obs_space,
                        action_space,
                        shared,
                        workers,
                    };
                    drop(venv);
                    return Err(Error::Invalid(format!(
                        "VectorEnv: cannot spawn a worker thread: {e}"
                    )));
                }
            }
        }
        Ok(VectorEnv {
            n_envs,
            env_id,
            obs_space,
            action_space,
            shared,
            workers,
        })
    }

    /// Number of sub-envs.
    pub fn num_envs(&self) -> usize {
        self.n_envs
    }

    /// The id of the sub-envs (sub-env 0's [`Env::id`]).
    pub fn env_id(&self) -> &str {
        &self.env_id
    }

    /// What a sub-env does after its episode ends.
    pub fn autoreset_mode(&self) -> AutoresetMode {
        self.shared.mode
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
        // SAFETY: the previous command finished (done == n), so no claim can succeed and no
        // thread reads `cmd` now.
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
        shared.work(0);
        wait_until(|| shared.done.load(Ordering::Acquire) == shared.n_envs);
        for i in 0..self.n_envs {
            // SAFETY: all envs are done; the caller has exclusive access.
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
        self.shared.shutdown.store(true, Ordering::Release);
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
        for (n, threads) in [(5, 1), (5, 2), (5, 3), (5, 5), (13, 6)] {
            let mut v = fakes(n, threads, 1000, AutoresetMode::NextStep);
            v.reset(Some(10)).unwrap();
            let mut singles: Vec<Fake> = (0..n)
                .map(|i| Fake::new(2, 3, 1, 1000 + i as u32))
                .collect();
            for (i, e) in singles.iter_mut().enumerate() {
                e.reset(Some(10 + i as u64), &ResetOptions::default())
                    .unwrap();
            }
            for step in 0..500 {
                let actions: Vec<usize> = (0..n).map(|i| (i + step) % 4).collect();
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
