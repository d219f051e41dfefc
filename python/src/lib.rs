//! `silot._silot`: the native half of the `silot` Python package. Two classes, `Env` (one env,
//! no autoreset) and `VecEnv` (the threaded vector env), each with or without the SILOT
//! encoder; the Gymnasium classes in `silot/` wrap them. Every call that steps envs or runs the
//! encoder releases the GIL; every Rust error becomes a `silot.SilotError` with its message.

use std::sync::Mutex;

use candle_core::{DType, Device};
use ndarray::{concatenate, Array2, Array4, ArrayView4, Axis};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use silot::device::{open, DeviceArg};
use silot::env::vector::{AutoresetMode, VectorEnv};
use silot::env::{registry, Env as _, Frame, Info, ResetOptions, Space};
use silot::model::{PresenceCarry, RunConfig, Silot};
use silot::wrapper::{
    default_group_count, GroupedObjectCentricVecEnv, ObjectBatch, ObjectCentricEnv,
    ObjectCentricVecEnv, ObjectEncoder,
};

create_exception!(
    _silot,
    SilotError,
    PyRuntimeError,
    "An error raised by silot's Rust core; the message says what was wrong and how to fix it."
);

type Dyn = Box<dyn silot::env::Env>;

fn err(e: silot::Error) -> PyErr {
    SilotError::new_err(e.to_string())
}

fn invalid(msg: String) -> PyErr {
    SilotError::new_err(msg)
}

/// Every env id (`silot envs`), sorted.
#[pyfunction]
fn env_ids() -> Vec<String> {
    registry::known_ids()
}

/// Whether the extension was built with CUDA support (`--features cuda`).
#[pyfunction]
fn cuda_compiled() -> bool {
    cfg!(feature = "cuda")
}

fn device(name: &str) -> PyResult<Device> {
    match name {
        "cpu" => Ok(Device::Cpu),
        "cuda" => open(DeviceArg::Cuda).map_err(err),
        other => Err(invalid(format!(
            "device must be \"cpu\" or \"cuda\", got {other:?}"
        ))),
    }
}

/// The encoder named by `spec`: a shipped model's name, a run or checkpoint directory, or
/// `untrained:EXPERIMENT` (a randomly initialised model of that experiment's `[model]`
/// section, seeded by `seed`: for tests and plumbing, its objects mean nothing).
fn load_encoder(
    spec: &str,
    dev: &Device,
    seed: u64,
    any_env: bool,
    carry: Option<PresenceCarry>,
) -> silot::Result<ObjectEncoder> {
    let mut enc = match spec.strip_prefix("untrained:") {
        Some(exp) => {
            let src = registry::source(exp)?;
            let cfg = RunConfig::from_toml(&src.text, &src.origin)?;
            let (vm, model) = Silot::build(&cfg.model, seed, DType::F32, dev)?;
            ObjectEncoder::from_model(model, vm, cfg, dev, seed)
        }
        None => ObjectEncoder::load_named(spec, dev, seed)?,
    };
    if any_env {
        enc.allow_env_mismatch();
    }
    if let Some(c) = carry {
        enc.set_presence_carry(c);
    }
    Ok(enc)
}

/// `presence_carry`: `None` (the encoder config's) or a [`PresenceCarry`] by its TOML name.
fn presence_carry(name: Option<&str>) -> PyResult<Option<PresenceCarry>> {
    name.map(|n| {
        n.parse::<PresenceCarry>().map_err(|e| {
            invalid(format!(
                "presence_carry must be None or a carry's name: {e}"
            ))
        })
    })
    .transpose()
}

fn make_env(id: &str) -> PyResult<Dyn> {
    registry::make(id).map_err(err)
}

fn obs_shape(space: &Space) -> PyResult<[usize; 3]> {
    space
        .shape()
        .ok_or_else(|| invalid(format!("observation space {space:?} is not an image")))
}

fn action(a: i64, n: usize) -> PyResult<usize> {
    usize::try_from(a).ok().filter(|&a| a < n).ok_or_else(|| {
        invalid(format!(
            "invalid action {a}: the action space is Discrete({n}), use 0..{n}"
        ))
    })
}

/// Ground-truth objects as `(ids (n,) int64, boxes (n, 4) float32 top/left/bottom/right)`.
fn gt_objects<'py>(py: Python<'py>, info: &Info) -> Option<Bound<'py, PyDict>> {
    let objects = info.objects.as_ref()?;
    let ids: Vec<i64> = objects.iter().map(|o| i64::from(o.id)).collect();
    let boxes: Vec<f32> = objects
        .iter()
        .flat_map(|o| [o.top, o.left, o.bottom, o.right])
        .collect();
    let boxes = Array2::from_shape_vec((objects.len(), 4), boxes).ok()?;
    let d = PyDict::new(py);
    d.set_item("ids", PyArray1::from_vec(py, ids)).ok()?;
    d.set_item("boxes", boxes.into_pyarray(py)).ok()?;
    Some(d)
}

/// One env's info as a Python dict (absent fields left out).
fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if let Some(v) = info.lives {
        d.set_item("lives", v)?;
    }
    if let Some(v) = info.episode_frame_number {
        d.set_item("episode_frame_number", v)?;
    }
    if let Some(v) = info.frame_number {
        d.set_item("frame_number", v)?;
    }
    if let Some(o) = gt_objects(py, info) {
        d.set_item("objects", o)?;
    }
    Ok(d)
}

/// A numeric info field of every env in Gymnasium's vector layout: `key` → `(N,)` values,
/// `_key` → `(N,)` mask of the envs that have it (only envs in `only`, if given).
fn vector_field<'py, T: numpy::Element + Default + Copy>(
    d: &Bound<'py, PyDict>,
    key: &str,
    infos: &[Info],
    only: Option<&[bool]>,
    get: impl Fn(&Info) -> Option<T>,
) -> PyResult<()> {
    let py = d.py();
    let vals: Vec<Option<T>> = infos
        .iter()
        .enumerate()
        .map(|(i, x)| get(x).filter(|_| only.is_none_or(|m| m[i])))
        .collect();
    if vals.iter().all(Option::is_none) {
        return Ok(());
    }
    let mask: Vec<bool> = vals.iter().map(Option::is_some).collect();
    let vals: Vec<T> = vals.into_iter().map(Option::unwrap_or_default).collect();
    d.set_item(key, PyArray1::from_vec(py, vals))?;
    d.set_item(format!("_{key}"), PyArray1::from_vec(py, mask))?;
    Ok(())
}

/// The infos of `N` envs in Gymnasium's vector layout (`only`: keep those envs' values).
fn vector_infos<'py>(
    py: Python<'py>,
    infos: &[Info],
    only: Option<&[bool]>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    vector_field(&d, "lives", infos, only, |i| i.lives)?;
    vector_field(&d, "episode_frame_number", infos, only, |i| {
        i.episode_frame_number.map(|v| v as i64)
    })?;
    vector_field(&d, "frame_number", infos, only, |i| {
        i.frame_number.map(|v| v as i64)
    })?;
    let keep = |i: usize| only.is_none_or(|m| m[i]);
    if (0..infos.len()).any(|i| keep(i) && infos[i].objects.is_some()) {
        let (mut ids, mut boxes, mut mask) = (Vec::new(), Vec::new(), Vec::new());
        for (i, info) in infos.iter().enumerate() {
            let o = gt_objects(py, info).filter(|_| keep(i));
            mask.push(o.is_some());
            let (a, b) = match o {
                Some(o) => (
                    o.get_item("ids")?.map(|x| x.unbind()),
                    o.get_item("boxes")?.map(|x| x.unbind()),
                ),
                None => (None, None),
            };
            ids.push(a.unwrap_or_else(|| py.None()));
            boxes.push(b.unwrap_or_else(|| py.None()));
        }
        let o = PyDict::new(py);
        o.set_item("ids", PyArray1::from_vec(py, ids))?;
        o.set_item("boxes", PyArray1::from_vec(py, boxes))?;
        let m = PyArray1::from_vec(py, mask);
        o.set_item("_ids", m.clone())?;
        o.set_item("_boxes", m.clone())?;
        d.set_item("objects", o)?;
        d.set_item("_objects", m)?;
    }
    Ok(d)
}

/// `(features (.., K, 6 + A) float32, pres (.., K) float32, ids (.., K) int64)` of stream `b`
/// (`Some`) or all streams.
fn objects_obs<'py>(
    py: Python<'py>,
    objects: &ObjectBatch,
    b: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let ids = objects.ids.mapv(|i| i as i64);
    let d = PyDict::new(py);
    match b {
        Some(b) => {
            d.set_item(
                "features",
                objects
                    .stream_features(b..b + 1)
                    .index_axis_move(Axis(0), 0)
                    .into_pyarray(py),
            )?;
            d.set_item("pres", objects.pres.row(b).to_owned().into_pyarray(py))?;
            d.set_item("ids", ids.index_axis_move(Axis(0), b).into_pyarray(py))?;
        }
        None => {
            d.set_item("features", objects.features().into_pyarray(py))?;
            d.set_item("pres", objects.pres.clone().into_pyarray(py))?;
            d.set_item("ids", ids.into_pyarray(py))?;
        }
    }
    Ok(d)
}

fn frame_obs<'py>(py: Python<'py>, frame: &Frame) -> Bound<'py, PyAny> {
    frame.clone().into_pyarray(py).into_any()
}

/// Sizes of an env as Python sees them.
fn spec_dict<'py>(
    py: Python<'py>,
    id: &str,
    obs: [usize; 3],
    n_actions: usize,
    enc: Option<&ObjectEncoder>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("env_id", id)?;
    d.set_item("frame_shape", obs.to_vec())?;
    d.set_item("n_actions", n_actions)?;
    d.set_item("atari", cfg!(feature = "atari") && id_is_atari(id))?;
    if let Some(e) = enc {
        d.set_item("n_slots", e.n_slots())?;
        d.set_item("n_what", e.n_what())?;
    }
    Ok(d)
}

fn id_is_atari(id: &str) -> bool {
    registry::load_spec(id).is_ok_and(|s| s.is_atari())
}

/// The value inside a mutex reached through `&mut` (no locking; a poisoned one is still used:
/// every method leaves its env in a consistent state or reports the error).
fn unlocked<T>(m: &mut Mutex<T>) -> &mut T {
    m.get_mut().unwrap_or_else(|e| e.into_inner())
}

enum One {
    Frames { env: Dyn, frame: Frame },
    Objects(Box<ObjectCentricEnv<Dyn>>),
}

/// One env (no autoreset: `step` after the end of an episode is an error until `reset`).
#[pyclass(module = "silot._silot", name = "Env")]
struct PyEnv {
    // A Mutex only to make the class `Sync` (envs are `Send`): `&mut self` methods reach it
    // without locking.
    inner: Mutex<One>,
    n_actions: usize,
    spec: Py<PyDict>,
    info: Info,
}

#[pymethods]
impl PyEnv {
    /// `Env(env_id, encoder=None, device="cpu", seed=0, allow_env_mismatch=False,
    /// presence_carry=None)`.
    #[new]
    #[pyo3(signature = (env_id, encoder=None, device="cpu", seed=0, allow_env_mismatch=false,
                        presence_carry=None))]
    fn new(
        py: Python<'_>,
        env_id: &str,
        encoder: Option<String>,
        device: &str,
        seed: u64,
        allow_env_mismatch: bool,
        presence_carry: Option<&str>,
    ) -> PyResult<Self> {
        let carry = self::presence_carry(presence_carry)?;
        let dev = self::device(device)?;
        let (inner, shape, n) = py.detach(|| -> PyResult<_> {
            let env = make_env(env_id)?;
            let shape = obs_shape(env.observation_space())?;
            let n = env.action_space().n().unwrap_or(0);
            let inner = match encoder {
                None => One::Frames {
                    frame: env.new_obs_buffer(),
                    env,
                },
                Some(spec) => {
                    let enc =
                        load_encoder(&spec, &dev, seed, allow_env_mismatch, carry).map_err(err)?;
                    One::Objects(Box::new(ObjectCentricEnv::new(env, enc).map_err(err)?))
                }
            };
            Ok((inner, shape, n))
        })?;
        let enc = match &inner {
            One::Objects(e) => Some(e.encoder()),
            One::Frames { .. } => None,
        };
        let spec = spec_dict(py, env_id, shape, n, enc)?.unbind();
        Ok(Self {
            inner: Mutex::new(inner),
            n_actions: n,
            spec,
            info: Info::default(),
        })
    }

    /// `{"env_id", "frame_shape", "n_actions", "atari"[, "n_slots", "n_what"]}`.
    #[getter]
    fn spec(&self, py: Python<'_>) -> Py<PyDict> {
        self.spec.clone_ref(py)
    }

    /// Reset (`seed`: reseed; `None`: continue the env's RNG); returns `(obs, info)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let opts = ResetOptions::default();
        let inner = unlocked(&mut self.inner);
        let info = py.detach(|| -> silot::Result<Info> {
            match inner {
                One::Frames { env, frame } => env.reset_into(seed, &opts, frame.view_mut()),
                One::Objects(env) => {
                    env.reset(seed, &opts)?;
                    Ok(env.last_info().clone())
                }
            }
        });
        self.info = info.map_err(err)?;
        Ok((self.obs(py)?, info_dict(py, &self.info)?))
    }

    /// One step: `(obs, reward, terminated, truncated, info)`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, bool, Bound<'py, PyDict>)> {
        let a = self::action(action, self.n_actions)?;
        let inner = unlocked(&mut self.inner);
        let t = py.detach(|| -> silot::Result<(f32, bool, bool, Info)> {
            match inner {
                One::Frames { env, frame } => {
                    let t = env.step_into(a, frame.view_mut())?;
                    Ok((t.reward, t.terminated, t.truncated, t.info))
                }
                One::Objects(env) => {
                    let s = env.step(a)?;
                    Ok((
                        s.rewards[0],
                        s.terminated[0],
                        s.truncated[0],
                        s.infos[0].clone(),
                    ))
                }
            }
        });
        let (r, term, trunc, info) = t.map_err(err)?;
        self.info = info;
        Ok((
            self.obs(py)?,
            f64::from(r),
            term,
            trunc,
            info_dict(py, &self.info)?,
        ))
    }

    /// The current RGB frame `(H, W, 3)` uint8 (what the encoder sees), or `None`.
    fn render<'py>(&mut self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        let f = match unlocked(&mut self.inner) {
            One::Frames { env, .. } => env.render(),
            One::Objects(env) => env.inner().render(),
        }?;
        Some(frame_obs(py, &f))
    }
}

impl PyEnv {
    fn obs<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match unlocked(&mut self.inner) {
            One::Frames { frame, .. } => Ok(frame_obs(py, frame)),
            One::Objects(env) => Ok(objects_obs(py, env.objects(), Some(0))?.into_any()),
        }
    }
}

/// What the last reset or step gave, as the Python side reads it: every env of a vector env,
/// or the envs of one group of the pipelined env.
trait StepView {
    fn rewards(&self) -> &[f32];
    fn terminated(&self) -> &[bool];
    fn truncated(&self) -> &[bool];
    fn infos(&self) -> &[Info];
    fn mode(&self) -> AutoresetMode;
    /// `same_step`: env `i`'s info at the end of the episode that ended at the last step.
    fn final_info(&self, i: usize) -> Option<&Info>;
    /// `same_step`: env `i`'s last observation of that episode (with an encoder, its objects).
    fn final_obs<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>>;
    /// Every env's observation.
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

impl StepView for VectorEnv<Dyn> {
    fn rewards(&self) -> &[f32] {
        VectorEnv::rewards(self)
    }
    fn terminated(&self) -> &[bool] {
        VectorEnv::terminated(self)
    }
    fn truncated(&self) -> &[bool] {
        VectorEnv::truncated(self)
    }
    fn infos(&self) -> &[Info] {
        VectorEnv::infos(self)
    }
    fn mode(&self) -> AutoresetMode {
        self.autoreset_mode()
    }
    fn final_info(&self, i: usize) -> Option<&Info> {
        VectorEnv::final_info(self, i)
    }
    fn final_obs<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(VectorEnv::final_obs(self, i).map(|f| frame_obs(py, f)))
    }
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(numpy::PyArray4::from_array(py, &VectorEnv::obs(self)).into_any())
    }
}

/// One group of the pipelined env.
impl StepView for ObjectCentricVecEnv<Dyn> {
    fn rewards(&self) -> &[f32] {
        self.inner().rewards()
    }
    fn terminated(&self) -> &[bool] {
        self.inner().terminated()
    }
    fn truncated(&self) -> &[bool] {
        self.inner().truncated()
    }
    fn infos(&self) -> &[Info] {
        self.inner().infos()
    }
    fn mode(&self) -> AutoresetMode {
        self.inner().autoreset_mode()
    }
    fn final_info(&self, i: usize) -> Option<&Info> {
        self.inner().final_info(i)
    }
    fn final_obs<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.final_objects() {
            Some(b) => Ok(Some(objects_obs(py, b, Some(i))?.into_any())),
            None => Ok(None),
        }
    }
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(objects_obs(py, self.objects(), None)?.into_any())
    }
}

/// The pipelined object-centric vector env and what its last step returned (its rewards and
/// flags are kept by its groups).
struct Pipelined {
    env: GroupedObjectCentricVecEnv<Dyn>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
}

impl Pipelined {
    /// Group `g`'s env (an error while a step of it is in flight).
    fn group(&self, g: usize) -> PyResult<&ObjectCentricVecEnv<Dyn>> {
        self.env.group(g).map_err(err)
    }

    /// The group of sub-env `i` and `i`'s index in it.
    fn locate(&self, i: usize) -> Option<(&ObjectCentricVecEnv<Dyn>, usize)> {
        let g = (0..self.env.num_groups()).find(|&g| self.env.group_range(g).contains(&i))?;
        let start = self.env.group_range(g).start;
        Some((self.env.group(g).ok()?, i - start))
    }

    fn reset(&mut self, seed: Option<u64>) -> silot::Result<()> {
        self.env.reset(seed)?;
        // As a vector env's reset: rewards 0, no flags.
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        Ok(())
    }

    fn step(&mut self, actions: &[usize]) -> silot::Result<()> {
        let s = self.env.step(actions)?;
        self.rewards.copy_from_slice(s.rewards);
        self.terminated.copy_from_slice(s.terminated);
        self.truncated.copy_from_slice(s.truncated);
        Ok(())
    }
}

/// All envs of the pipelined env after a reset or a synchronous step.
impl StepView for Pipelined {
    fn rewards(&self) -> &[f32] {
        &self.rewards
    }
    fn terminated(&self) -> &[bool] {
        &self.terminated
    }
    fn truncated(&self) -> &[bool] {
        &self.truncated
    }
    fn infos(&self) -> &[Info] {
        self.env.infos()
    }
    fn mode(&self) -> AutoresetMode {
        self.locate(0)
            .map_or(AutoresetMode::NextStep, |(g, _)| g.inner().autoreset_mode())
    }
    fn final_info(&self, i: usize) -> Option<&Info> {
        self.locate(i).and_then(|(g, j)| g.inner().final_info(j))
    }
    fn final_obs<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.env.final_objects() {
            Some(b) => Ok(Some(objects_obs(py, b, Some(i))?.into_any())),
            None => Ok(None),
        }
    }
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let o = self
            .env
            .objects()
            .ok_or_else(|| invalid("no objects yet: reset the env first".into()))?;
        Ok(objects_obs(py, o, None)?.into_any())
    }
}

/// Without an encoder, one vector env; with one, the pipelined env (of one group or more).
enum Many {
    Frames(VectorEnv<Dyn>),
    Objects(Box<Pipelined>),
}

impl Many {
    fn view(&self) -> &dyn StepView {
        match self {
            Many::Frames(v) => v,
            Many::Objects(p) => &**p,
        }
    }

    fn pipelined(&mut self) -> PyResult<&mut Pipelined> {
        match self {
            Many::Objects(p) => Ok(p),
            Many::Frames(_) => Err(invalid(
                "send/recv step groups of envs pipelined with an encoder; this vector env has \
                 none: use step"
                    .into(),
            )),
        }
    }

    /// Every env's current frame `(N, H, W, 3)`.
    fn frames(&self) -> PyResult<Array4<u8>> {
        match self {
            Many::Frames(v) => Ok(v.obs().to_owned()),
            Many::Objects(p) => {
                let groups = (0..p.env.num_groups())
                    .map(|g| p.group(g))
                    .collect::<PyResult<Vec<_>>>()?;
                let views: Vec<ArrayView4<u8>> = groups.iter().map(|g| g.inner().obs()).collect();
                concatenate(Axis(0), &views)
                    .map_err(|e| invalid(format!("frames of the groups: {e}")))
            }
        }
    }
}

type StepResult<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// `(obs, rewards, terminated, truncated, infos)` of `v`; in `same_step` mode, the ended envs'
/// final observations and infos as Gymnasium's vector envs give them (`final_obs` object array,
/// `final_info` vector infos, `_`-masks).
fn step_result<'py>(py: Python<'py>, v: &dyn StepView) -> PyResult<StepResult<'py>> {
    let rewards: Vec<f64> = v.rewards().iter().map(|&r| f64::from(r)).collect();
    let infos = vector_infos(py, v.infos(), None)?;
    let n = rewards.len();
    let ended: Vec<bool> = (0..n).map(|i| v.final_info(i).is_some()).collect();
    if v.mode() == AutoresetMode::SameStep && ended.iter().any(|&e| e) {
        let mut obs: Vec<Py<PyAny>> = Vec::with_capacity(n);
        for (i, &e) in ended.iter().enumerate() {
            let o = if e { v.final_obs(py, i)? } else { None };
            obs.push(o.map_or_else(|| py.None(), Bound::unbind));
        }
        let finals: Vec<Info> = (0..n)
            .map(|i| v.final_info(i).cloned().unwrap_or_default())
            .collect();
        let mask = PyArray1::from_vec(py, ended.clone());
        infos.set_item("final_obs", PyArray1::from_vec(py, obs))?;
        infos.set_item("_final_obs", mask.clone())?;
        infos.set_item("final_info", vector_infos(py, &finals, Some(&ended))?)?;
        infos.set_item("_final_info", mask)?;
    }
    Ok((
        v.obs(py)?,
        PyArray1::from_vec(py, rewards),
        PyArray1::from_slice(py, v.terminated()),
        PyArray1::from_slice(py, v.truncated()),
        infos,
    ))
}

/// `num_envs` envs stepped on worker threads, autoresetting (`"next_step"` or `"same_step"`);
/// with an encoder, in `groups` groups stepped and encoded in a pipeline.
#[pyclass(module = "silot._silot", name = "VecEnv")]
struct PyVecEnv {
    // A Mutex only to make the class `Sync` (the pipelined env's channels are `Send` only):
    // methods take `&mut self` and reach it without locking.
    inner: Mutex<Many>,
    spec: Py<PyDict>,
    actions: Vec<usize>,
    n_actions: usize,
}

fn parse_mode(mode: &str) -> PyResult<AutoresetMode> {
    match mode {
        "next_step" => Ok(AutoresetMode::NextStep),
        "same_step" => Ok(AutoresetMode::SameStep),
        other => Err(invalid(format!(
            "autoreset_mode must be \"next_step\" or \"same_step\", got {other:?}"
        ))),
    }
}

/// Groups of a vector env: `groups` if given (with an encoder, `1..=num_envs`; without, 1),
/// else with an encoder [`default_group_count`] (2 for an Atari env on a GPU with at least 2 envs,
/// `silot observe`'s default), else 1.
fn group_count(
    groups: Option<usize>,
    num_envs: usize,
    encoder: bool,
    atari: bool,
    cuda: bool,
) -> PyResult<usize> {
    match groups {
        Some(g) if !encoder && g != 1 => Err(invalid(format!(
            "groups={g} needs an encoder: groups pipeline the envs with the encoder; without \
             one use groups=1 or None"
        ))),
        Some(g) if g == 0 || g > num_envs => Err(invalid(format!(
            "groups must be between 1 and num_envs ({num_envs}), got {g}"
        ))),
        Some(g) => Ok(g),
        None if encoder => Ok(default_group_count(atari, num_envs, cuda)),
        None => Ok(1),
    }
}

#[pymethods]
impl PyVecEnv {
    /// `VecEnv(env_id, num_envs, encoder=None, device="cpu", seed=0, num_threads=None,
    /// autoreset_mode="next_step", allow_env_mismatch=False, groups=None, presence_carry=None)`.
    #[new]
    #[pyo3(signature = (env_id, num_envs, encoder=None, device="cpu", seed=0, num_threads=None,
                        autoreset_mode="next_step", allow_env_mismatch=false, groups=None,
                        presence_carry=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        env_id: &str,
        num_envs: usize,
        encoder: Option<String>,
        device: &str,
        seed: u64,
        num_threads: Option<usize>,
        autoreset_mode: &str,
        allow_env_mismatch: bool,
        groups: Option<usize>,
        presence_carry: Option<&str>,
    ) -> PyResult<Self> {
        let carry = self::presence_carry(presence_carry)?;
        let mode = parse_mode(autoreset_mode)?;
        let dev = self::device(device)?;
        let spec = registry::load_spec(env_id).map_err(err)?;
        let groups = group_count(
            groups,
            num_envs,
            encoder.is_some(),
            spec.is_atari(),
            dev.is_cuda(),
        )?;
        let threads = num_threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |c| c.get().min(num_envs.max(1)))
        });
        let inner = py
            .detach(|| -> silot::Result<Many> {
                let make = |_| registry::make_from_spec(&spec);
                Ok(match encoder {
                    None => Many::Frames(VectorEnv::with_autoreset(make, num_envs, threads, mode)?),
                    // One encoder per group: the same model, seed and settings. One group is
                    // the plain object-centric vector env, stepped on a worker thread.
                    Some(s) => Many::Objects(Box::new(Pipelined {
                        env: GroupedObjectCentricVecEnv::new(
                            make,
                            num_envs,
                            threads,
                            mode,
                            groups,
                            |_g| load_encoder(&s, &dev, seed, allow_env_mismatch, carry),
                        )?,
                        rewards: vec![0.0; num_envs],
                        terminated: vec![false; num_envs],
                        truncated: vec![false; num_envs],
                    })),
                })
            })
            .map_err(err)?;
        let (first, enc, ranges) = match &inner {
            Many::Frames(v) => (v, None, vec![(0, num_envs)]),
            Many::Objects(p) => {
                let g = p.group(0)?;
                let ranges = (0..p.env.num_groups())
                    .map(|g| p.env.group_range(g))
                    .map(|r| (r.start, r.end))
                    .collect();
                (g.inner(), Some(g.encoder()), ranges)
            }
        };
        let shape = obs_shape(first.single_observation_space())?;
        let n = first.single_action_space().n().unwrap_or(0);
        let spec = spec_dict(py, env_id, shape, n, enc)?;
        spec.set_item("num_envs", num_envs)?;
        spec.set_item("num_threads", first.num_threads())?;
        spec.set_item("autoreset_mode", autoreset_mode)?;
        spec.set_item("groups", groups)?;
        spec.set_item("group_ranges", ranges)?;
        Ok(Self {
            inner: Mutex::new(inner),
            spec: spec.unbind(),
            actions: vec![0; num_envs],
            n_actions: n,
        })
    }

    /// `{"env_id", "frame_shape", "n_actions", "atari", "num_envs", "num_threads",
    /// "autoreset_mode", "groups", "group_ranges"[, "n_slots", "n_what"]}`.
    #[getter]
    fn spec(&self, py: Python<'_>) -> Py<PyDict> {
        self.spec.clone_ref(py)
    }

    /// Reset every env (`seed`: env `i` gets `seed + i`); returns `(obs, infos)`. Steps of
    /// groups in flight are waited for and dropped.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let inner = unlocked(&mut self.inner);
        py.detach(|| match inner {
            Many::Frames(v) => v.reset(seed).map(|_| ()),
            Many::Objects(p) => p.reset(seed),
        })
        .map_err(err)?;
        let v = inner.view();
        Ok((v.obs(py)?, vector_infos(py, v.infos(), None)?))
    }

    /// Step env `i` with `actions[i]` (int64): `(obs, rewards float64, terminated, truncated,
    /// infos)`; infos in Gymnasium's vector layout, with `final_obs` / `final_info` in
    /// `same_step` mode.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepResult<'py>> {
        let n = self.actions.len();
        self.set_actions(&actions, n)?;
        let inner = unlocked(&mut self.inner);
        let actions = &self.actions;
        py.detach(|| match inner {
            Many::Frames(v) => v.step(actions).map(|_| ()),
            Many::Objects(p) => p.step(actions),
        })
        .map_err(err)?;
        step_result(py, inner.view())
    }

    /// Start a step of group `group` with `actions` (one per env of the group, in the order of
    /// `spec["group_ranges"][group]`); returns at once. With an encoder only.
    fn send(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        group: usize,
    ) -> PyResult<()> {
        let p = unlocked(&mut self.inner).pipelined()?;
        if group >= p.env.num_groups() {
            return Err(invalid(format!(
                "group {group} does not exist: this vector env has {} groups",
                p.env.num_groups()
            )));
        }
        let r = p.env.group_range(group);
        let acts = actions.as_array();
        if acts.len() != r.len() {
            return Err(invalid(format!(
                "send got {} actions for group {group} of {} envs; pass one action per env of \
                 the group",
                acts.len(),
                r.len()
            )));
        }
        let mut chosen = Vec::with_capacity(r.len());
        for &a in acts.iter() {
            chosen.push(action(a, self.n_actions)?);
        }
        py.detach(|| p.env.send(group, &chosen)).map_err(err)
    }

    /// Wait for the step of group `group` started by `send`: `(obs, rewards, terminated,
    /// truncated, infos)` of the group's envs (as `step` gives them for all envs), with
    /// `infos["env_id"]` the envs' indices.
    fn recv<'py>(&mut self, py: Python<'py>, group: usize) -> PyResult<StepResult<'py>> {
        let p = unlocked(&mut self.inner).pipelined()?;
        py.detach(|| p.env.recv(group).map(|_| ())).map_err(err)?;
        let r = p.env.group_range(group);
        let out = step_result(py, p.group(group)?)?;
        let ids: Vec<i64> = (r.start as i64..r.end as i64).collect();
        out.4.set_item("env_id", PyArray1::from_vec(py, ids))?;
        Ok(out)
    }

    /// The current RGB frames `(N, H, W, 3)` uint8 (what the encoder saw).
    fn frames<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(unlocked(&mut self.inner)
            .frames()?
            .into_pyarray(py)
            .into_any())
    }
}

impl PyVecEnv {
    /// Check `actions` (`n` of them) against the action space into `self.actions`.
    fn set_actions(&mut self, actions: &PyReadonlyArray1<'_, i64>, n: usize) -> PyResult<()> {
        let acts = actions.as_array();
        if acts.len() != n {
            return Err(invalid(format!(
                "step got {} actions for {n} envs; pass one action per env",
                acts.len()
            )));
        }
        for (slot, &a) in self.actions.iter_mut().zip(acts.iter()) {
            *slot = action(a, self.n_actions)?;
        }
        Ok(())
    }
}

/// Features of `(K, 6 + A)` rows as the docs name their columns.
#[pyfunction]
fn feature_names(n_what: usize) -> Vec<String> {
    let mut v: Vec<String> = ["pres", "y", "x", "height", "width", "depth"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend((0..n_what).map(|i| format!("what_{i}")));
    v
}

/// The native module.
#[pymodule]
fn _silot(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SilotError", m.py().get_type::<SilotError>())?;
    m.add_class::<PyEnv>()?;
    m.add_class::<PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(env_ids, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_compiled, m)?)?;
    m.add_function(wrap_pyfunction!(feature_names, m)?)?;
    Ok(())
}
