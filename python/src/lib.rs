//! `silot._silot`: the native half of the `silot` Python package. Two classes, `Env` (one env,
//! no autoreset) and `VecEnv` (the threaded vector env), each with or without the SILOT
//! encoder; the Gymnasium classes in `silot/` wrap them. Every call that steps envs or runs the
//! encoder releases the GIL; every Rust error becomes a `silot.SilotError` with its message.

use std::sync::Mutex;

use candle_core::{DType, Device};
use ndarray::{Array2, Array3, Axis};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use silot::device::{open, DeviceArg};
use silot::env::vector::{AutoresetMode, VectorEnv};
use silot::env::{registry, Env as _, Frame, Info, ResetOptions, Space};
use silot::model::{RunConfig, Silot};
use silot::wrapper::{ObjectBatch, ObjectCentricEnv, ObjectCentricVecEnv, ObjectEncoder};

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
fn load_encoder(spec: &str, dev: &Device, seed: u64, any_env: bool) -> PyResult<ObjectEncoder> {
    let mut enc = match spec.strip_prefix("untrained:") {
        Some(exp) => {
            let src = registry::source(exp).map_err(err)?;
            let cfg = RunConfig::from_toml(&src.text, &src.origin).map_err(err)?;
            let (vm, model) = Silot::build(&cfg.model, seed, DType::F32, dev)
                .map_err(|e| err(silot::Error::from(e)))?;
            ObjectEncoder::from_model(model, vm, cfg, dev, seed)
        }
        None => ObjectEncoder::load_named(spec, dev, seed).map_err(err)?,
    };
    if any_env {
        enc.allow_env_mismatch();
    }
    Ok(enc)
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
    let features: Array3<f32> = objects.features();
    let ids = objects.ids.mapv(|i| i as i64);
    let d = PyDict::new(py);
    match b {
        Some(b) => {
            d.set_item(
                "features",
                features.index_axis_move(Axis(0), b).into_pyarray(py),
            )?;
            d.set_item("pres", objects.pres.row(b).to_owned().into_pyarray(py))?;
            d.set_item("ids", ids.index_axis_move(Axis(0), b).into_pyarray(py))?;
        }
        None => {
            d.set_item("features", features.into_pyarray(py))?;
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
    /// `Env(env_id, encoder=None, device="cpu", seed=0, allow_env_mismatch=False)`.
    #[new]
    #[pyo3(signature = (env_id, encoder=None, device="cpu", seed=0, allow_env_mismatch=false))]
    fn new(
        py: Python<'_>,
        env_id: &str,
        encoder: Option<String>,
        device: &str,
        seed: u64,
        allow_env_mismatch: bool,
    ) -> PyResult<Self> {
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
                    let enc = load_encoder(&spec, &dev, seed, allow_env_mismatch)?;
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

enum Many {
    Frames(VectorEnv<Dyn>),
    Objects(Box<ObjectCentricVecEnv<Dyn>>),
}

impl Many {
    fn venv(&self) -> &VectorEnv<Dyn> {
        match self {
            Many::Frames(v) => v,
            Many::Objects(v) => v.inner(),
        }
    }
}

/// `num_envs` envs stepped on worker threads, autoresetting (`"next_step"` or `"same_step"`).
#[pyclass(module = "silot._silot", name = "VecEnv")]
struct PyVecEnv {
    inner: Many,
    spec: Py<PyDict>,
    actions: Vec<usize>,
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

#[pymethods]
impl PyVecEnv {
    /// `VecEnv(env_id, num_envs, encoder=None, device="cpu", seed=0, num_threads=None,
    /// autoreset_mode="next_step", allow_env_mismatch=False)`.
    #[new]
    #[pyo3(signature = (env_id, num_envs, encoder=None, device="cpu", seed=0, num_threads=None,
                        autoreset_mode="next_step", allow_env_mismatch=false))]
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
    ) -> PyResult<Self> {
        let mode = parse_mode(autoreset_mode)?;
        let dev = self::device(device)?;
        let threads = num_threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |c| c.get().min(num_envs.max(1)))
        });
        let spec = registry::load_spec(env_id).map_err(err)?;
        let inner = py.detach(|| -> PyResult<Many> {
            let venv = VectorEnv::with_autoreset(
                |_| registry::make_from_spec(&spec),
                num_envs,
                threads,
                mode,
            )
            .map_err(err)?;
            Ok(match encoder {
                None => Many::Frames(venv),
                Some(s) => {
                    let enc = load_encoder(&s, &dev, seed, allow_env_mismatch)?;
                    Many::Objects(Box::new(ObjectCentricVecEnv::new(venv, enc).map_err(err)?))
                }
            })
        })?;
        let v = inner.venv();
        let shape = obs_shape(v.single_observation_space())?;
        let n = v.single_action_space().n().unwrap_or(0);
        let enc = match &inner {
            Many::Objects(e) => Some(e.encoder()),
            Many::Frames(_) => None,
        };
        let spec = spec_dict(py, env_id, shape, n, enc)?;
        spec.set_item("num_envs", num_envs)?;
        spec.set_item("num_threads", v.num_threads())?;
        spec.set_item("autoreset_mode", autoreset_mode)?;
        Ok(Self {
            inner,
            spec: spec.unbind(),
            actions: vec![0; num_envs],
        })
    }

    /// `{"env_id", "frame_shape", "n_actions", "atari", "num_envs", "num_threads",
    /// "autoreset_mode"[, "n_slots", "n_what"]}`.
    #[getter]
    fn spec(&self, py: Python<'_>) -> Py<PyDict> {
        self.spec.clone_ref(py)
    }

    /// Reset every env (`seed`: env `i` gets `seed + i`); returns `(obs, infos)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let inner = &mut self.inner;
        py.detach(|| -> silot::Result<()> {
            match inner {
                Many::Frames(v) => v.reset(seed).map(|_| ()),
                Many::Objects(v) => v.reset(seed).map(|_| ()),
            }
        })
        .map_err(err)?;
        Ok((
            self.obs(py)?,
            vector_infos(py, self.inner.venv().infos(), None)?,
        ))
    }

    /// Step env `i` with `actions[i]` (int64): `(obs, rewards float64, terminated, truncated,
    /// infos)`; infos in Gymnasium's vector layout, with `final_obs` / `final_info` in
    /// `same_step` mode.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let acts = actions.as_array();
        let n = self.actions.len();
        if acts.len() != n {
            return Err(invalid(format!(
                "step got {} actions for {n} envs; pass one action per env",
                acts.len()
            )));
        }
        let n_actions = self.inner.venv().single_action_space().n().unwrap_or(0);
        for (slot, &a) in self.actions.iter_mut().zip(acts.iter()) {
            *slot = action(a, n_actions)?;
        }
        let (inner, actions) = (&mut self.inner, &self.actions);
        py.detach(|| -> silot::Result<()> {
            match inner {
                Many::Frames(v) => v.step(actions).map(|_| ()),
                Many::Objects(v) => v.step(actions).map(|_| ()),
            }
        })
        .map_err(err)?;
        let v = self.inner.venv();
        let rewards: Vec<f64> = v.rewards().iter().map(|&r| f64::from(r)).collect();
        let infos = vector_infos(py, v.infos(), None)?;
        if v.autoreset_mode() == AutoresetMode::SameStep {
            self.final_obs(py, &infos)?;
        }
        Ok((
            self.obs(py)?,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_slice(py, v.terminated()),
            PyArray1::from_slice(py, v.truncated()),
            infos,
        ))
    }

    /// The current RGB frames `(N, H, W, 3)` uint8 (what the encoder saw).
    fn frames<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        numpy::PyArray4::from_array(py, &self.inner.venv().obs()).into_any()
    }
}

impl PyVecEnv {
    fn obs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner {
            Many::Frames(v) => Ok(self.frames_of(py, v)),
            Many::Objects(v) => Ok(objects_obs(py, v.objects(), None)?.into_any()),
        }
    }

    fn frames_of<'py>(&self, py: Python<'py>, v: &VectorEnv<Dyn>) -> Bound<'py, PyAny> {
        numpy::PyArray4::from_array(py, &v.obs()).into_any()
    }

    /// `same_step`: the ended envs' final observations and infos, as Gymnasium's vector envs
    /// give them (`final_obs` object array, `final_info` vector infos, `_`-masks).
    fn final_obs(&self, py: Python<'_>, infos: &Bound<'_, PyDict>) -> PyResult<()> {
        let v = self.inner.venv();
        let n = v.num_envs();
        let ended: Vec<bool> = (0..n).map(|i| v.final_info(i).is_some()).collect();
        if !ended.iter().any(|&e| e) {
            return Ok(());
        }
        // With an encoder, the objects the wrapper encoded from the ended envs' last frames.
        let mut obs: Vec<Py<PyAny>> = Vec::with_capacity(n);
        for (i, &e) in ended.iter().enumerate() {
            let o = match (&self.inner, v.final_obs(i)) {
                (_, _) if !e => py.None(),
                (Many::Frames(_), Some(f)) => frame_obs(py, f).unbind(),
                (Many::Objects(w), _) => match w.final_objects() {
                    Some(batch) => objects_obs(py, batch, Some(i))?.into_any().unbind(),
                    None => py.None(),
                },
                (Many::Frames(_), None) => py.None(),
            };
            obs.push(o);
        }
        let finals: Vec<Info> = (0..n)
            .map(|i| v.final_info(i).cloned().unwrap_or_default())
            .collect();
        let mask = PyArray1::from_vec(py, ended.clone());
        infos.set_item("final_obs", PyArray1::from_vec(py, obs))?;
        infos.set_item("_final_obs", mask.clone())?;
        infos.set_item("final_info", vector_infos(py, &finals, Some(&ended))?)?;
        infos.set_item("_final_info", mask)?;
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
