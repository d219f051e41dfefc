//! Checkpoints: a directory with `weights.safetensors` (all variables of the `VarMap`),
//! `optimizer.safetensors` (the optimiser's state, [`OptimizerState`]: Adam's, `crate::train`),
//! `config.toml` (the run's config text) and `state.json` (step, caller's `extra` JSON, the env
//! the model was trained on ([`EnvRecord`]; absent in checkpoints of older versions) and the
//! length + FNV-1a hash of the other three files). A truncated or corrupted file, a renamed or reshaped variable or a different config are
//! all reported as [`Error::Checkpoint`] naming the problem; loading never panics and changes
//! nothing unless everything matches.
//!
//! # Atomic sets
//!
//! A save replaces the checkpoint in `DIR` as a whole: every file is written and fsynced into the
//! staging directory `.DIR.new` beside it, then `DIR` is renamed to `.DIR.old`, `.DIR.new` to
//! `DIR`, and `.DIR.old` removed. A kill at any instant therefore leaves a complete checkpoint:
//! `DIR` itself, or (killed between the two renames) `.DIR.new` or `.DIR.old`. Readers fall back
//! to those ([`readable_dir`]); the next save or a resume ([`recover`]) puts the newest complete
//! one back at `DIR` and removes the rest, so no temporary directory outlives it.
//!
//! This module is the one place that reads and writes checkpoints: the trainer
//! (`crate::train`), the trained-model loaders (`crate::trained`) and averaging use it.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarMap;
use safetensors::tensor::{Dtype, SafeTensors, View};
use serde::{Deserialize, Serialize};

use crate::env::spec::EnvSpec;
use crate::error::{Error, Result};

/// An optimiser whose state a checkpoint saves and restores (Adam, in `crate::train`). The
/// checkpoint format knows only named tensors; the optimiser checks that they fit it.
pub trait OptimizerState {
    /// The state as named tensors (written to `optimizer.safetensors`).
    fn state(&self) -> Vec<(String, Tensor)>;
    /// Restore the state from the named tensors of [`Self::state`]; an error naming what does
    /// not fit (nothing changed then).
    fn load_state(&mut self, tensors: &HashMap<String, Tensor>) -> Result<()>;
}

/// File of the variables.
pub const WEIGHTS_FILE: &str = "weights.safetensors";
/// File of the optimiser state.
pub const OPTIMIZER_FILE: &str = "optimizer.safetensors";
/// File of the config text.
pub const CONFIG_FILE: &str = "config.toml";
/// File of the step, extra data and file hashes (written last).
pub const STATE_FILE: &str = "state.json";
const FORMAT: &str = "silot-checkpoint-v1";

/// What [`load_checkpoint`] returns besides the loaded tensors.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointMeta {
    /// The step given to [`save_checkpoint`].
    pub step: u64,
    /// The caller's extra JSON.
    pub extra: serde_json::Value,
    /// The saved config text.
    pub config_toml: String,
    /// The env the model was trained on (`None`: a checkpoint of an older version, unknown).
    pub env: Option<EnvRecord>,
}

/// The env a checkpoint's model was trained on: its id, Atari preset and observation shape.
/// A model is only meaningful on frames like those; [`check_env_matches`] compares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvRecord {
    /// Env id (`[env] id`).
    pub id: String,
    /// Atari preset (`v5`, `paper`); `None` for the synthetic envs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Observation shape `[height, width, channels]`.
    pub frame: [usize; 3],
}

impl EnvRecord {
    /// The record of the env `spec` describes (built once to read its observation shape).
    pub fn of_spec(spec: &EnvSpec) -> Result<Self> {
        let env = crate::env::registry::make_from_spec(spec)?;
        let frame = env.observation_space().shape().ok_or_else(|| {
            Error::Invalid(format!("env `{}` has no image observations", spec.id()))
        })?;
        Ok(Self {
            id: spec.id().to_string(),
            preset: preset_of(spec),
            frame,
        })
    }
}

#[cfg(feature = "atari")]
fn preset_of(spec: &EnvSpec) -> Option<String> {
    let a = spec.atari.as_ref()?;
    serde_json::to_value(a.preset)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
}

#[cfg(not(feature = "atari"))]
fn preset_of(_spec: &EnvSpec) -> Option<String> {
    None
}

impl std::fmt::Display for EnvRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [h, w, c] = self.frame;
        write!(f, "`{}` (", self.id)?;
        if let Some(p) = &self.preset {
            write!(f, "preset {p}, ")?;
        }
        write!(f, "{h}x{w}x{c} frames)")
    }
}

/// Checks that a model trained on `recorded` (from the checkpoint `checkpoint`) is used on
/// `actual`: an error naming both unless they are equal or `allow` (then a warning). A checkpoint
/// without a record (older versions) is accepted with a warning: its env is unknown.
pub fn check_env_matches(
    recorded: Option<&EnvRecord>,
    actual: &EnvRecord,
    allow: bool,
    checkpoint: &Path,
) -> Result<()> {
    match recorded {
        None => {
            tracing::warn!(
                "checkpoint {} does not record its env (made by an older version); assuming {actual}",
                checkpoint.display()
            );
            Ok(())
        }
        Some(r) if r == actual => Ok(()),
        Some(r) if allow => {
            tracing::warn!(
                "checkpoint {} was trained on {r}, used on {actual} as asked",
                checkpoint.display()
            );
            Ok(())
        }
        Some(r) => Err(ckpt_err(
            checkpoint,
            format!(
                "the model was trained on {r} but is used on {actual}; use the env it was trained \
                 on, or pass --allow-env-mismatch to use it anyway"
            ),
        )),
    }
}

/// The env recorded in the checkpoint `dir` ([`readable_dir`]), `None` if it records none.
pub fn recorded_env(dir: &Path) -> Result<Option<EnvRecord>> {
    Ok(read_state(&readable_dir(dir))?.env)
}

#[derive(Debug, Serialize, Deserialize)]
struct FileRecord {
    bytes: u64,
    fnv1a64: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct StateJson {
    format: String,
    step: u64,
    extra: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    env: Option<EnvRecord>,
    files: BTreeMap<String, FileRecord>,
}

fn fnv1a64(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}

pub(crate) fn ckpt_err(path: &Path, msg: impl Into<String>) -> Error {
    Error::Checkpoint {
        path: path.to_path_buf(),
        msg: msg.into(),
    }
}

/// A host copy of a tensor in safetensors form.
struct Raw {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl View for &Raw {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.data)
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
}

fn to_raw(name: &str, t: &Tensor) -> Result<Raw> {
    let flat = t.to_device(&Device::Cpu)?.flatten_all()?;
    /// Little-endian bytes of a flat tensor of element type `$t`.
    macro_rules! le_bytes {
        ($t:ty) => {
            flat.to_vec1::<$t>()?
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect()
        };
    }
    let (dtype, data): (Dtype, Vec<u8>) = match t.dtype() {
        DType::F32 => (Dtype::F32, le_bytes!(f32)),
        DType::F64 => (Dtype::F64, le_bytes!(f64)),
        DType::I64 => (Dtype::I64, le_bytes!(i64)),
        DType::U32 => (Dtype::U32, le_bytes!(u32)),
        DType::U8 => (Dtype::U8, flat.to_vec1::<u8>()?),
        other => {
            return Err(Error::Invalid(format!(
                "cannot checkpoint `{name}` of dtype {other:?}: use F32, F64, I64, U32 or U8"
            )))
        }
    };
    Ok(Raw {
        dtype,
        shape: t.dims().to_vec(),
        data,
    })
}

pub(crate) fn serialize(tensors: &[(String, Tensor)]) -> Result<Vec<u8>> {
    let raws = tensors
        .iter()
        .map(|(n, t)| Ok((n.clone(), to_raw(n, t)?)))
        .collect::<Result<Vec<_>>>()?;
    safetensors::tensor::serialize(raws.iter().map(|(n, r)| (n.as_str(), r)), &None)
        .map_err(|e| Error::Invalid(format!("cannot serialise tensors: {e}")))
}

fn deserialize(path: &Path, bytes: &[u8]) -> Result<HashMap<String, Tensor>> {
    let st = SafeTensors::deserialize(bytes)
        .map_err(|e| ckpt_err(path, format!("not a valid safetensors file: {e}")))?;
    let mut out = HashMap::new();
    for (name, view) in st.tensors() {
        let dtype = match view.dtype() {
            Dtype::F32 => DType::F32,
            Dtype::F64 => DType::F64,
            // Half-precision weights (shipped encoders, `models/`): cast to each variable's
            // dtype by `load_checkpoint`.
            Dtype::F16 => DType::F16,
            Dtype::BF16 => DType::BF16,
            Dtype::I64 => DType::I64,
            Dtype::U32 => DType::U32,
            Dtype::U8 => DType::U8,
            other => {
                return Err(ckpt_err(
                    path,
                    format!("tensor `{name}` has unsupported dtype {other:?}"),
                ))
            }
        };
        let t = Tensor::from_raw_buffer(view.data(), dtype, view.shape(), &Device::Cpu)
            .map_err(|e| ckpt_err(path, format!("tensor `{name}` is malformed: {e}")))?;
        out.insert(name, t);
    }
    Ok(out)
}

fn sorted_vars(varmap: &VarMap) -> Result<Vec<(String, candle_core::Var)>> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| Error::Invalid("parameter map lock poisoned".into()))?;
    let mut v: Vec<_> = data.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(v)
}

/// Saves all variables of `varmap`, the optimiser state, the config text, `step`, `extra` and
/// the env record into `dir` as one atomic set (see the module docs).
pub fn save_checkpoint(
    dir: &Path,
    varmap: &VarMap,
    optimizer: &dyn OptimizerState,
    config_toml: &str,
    step: u64,
    extra: serde_json::Value,
    env: Option<&EnvRecord>,
) -> Result<()> {
    let weights: Vec<(String, Tensor)> = sorted_vars(varmap)?
        .into_iter()
        .map(|(n, v)| (n, v.as_tensor().clone()))
        .collect();
    let files: [(&str, Vec<u8>); 3] = [
        (WEIGHTS_FILE, serialize(&weights)?),
        (OPTIMIZER_FILE, serialize(&optimizer.state())?),
        (CONFIG_FILE, config_toml.as_bytes().to_vec()),
    ];
    write_files(dir, &files, step, extra, env)
}

/// Writes a checkpoint's `files` (weights, optimiser state, config) and then `state.json` with
/// their sizes and hashes into `dir` as one atomic set (see the module docs).
pub(crate) fn write_files(
    dir: &Path,
    files: &[(&str, Vec<u8>)],
    step: u64,
    extra: serde_json::Value,
    env: Option<&EnvRecord>,
) -> Result<()> {
    write_set(dir, files, step, extra, env, &mut |_| Ok(()))
}

/// `.NAME.TAG` beside `dir` (`dir` must have a file name).
fn sibling(dir: &Path, tag: &str) -> Result<PathBuf> {
    let abs = std::path::absolute(dir).map_err(|e| ckpt_err(dir, e.to_string()))?;
    let name = abs.file_name().ok_or_else(|| {
        ckpt_err(
            dir,
            "a checkpoint directory needs a name (not `/`, `.` or `..`)",
        )
    })?;
    let parent = abs.parent().unwrap_or(Path::new("/"));
    Ok(parent.join(format!(".{}.{tag}", name.to_string_lossy())))
}

/// The staging directory of a save into `dir`.
fn staging_dir(dir: &Path) -> Result<PathBuf> {
    sibling(dir, "new")
}

/// Where the previous checkpoint of `dir` waits while the new one is renamed into place.
fn retired_dir(dir: &Path) -> Result<PathBuf> {
    sibling(dir, "old")
}

/// Whether `dir` holds a complete checkpoint set: a `state.json` of the known format whose every
/// recorded file exists with the recorded size.
fn is_complete(dir: &Path) -> bool {
    read_state(dir).is_ok_and(|state| {
        state.files.iter().all(|(name, rec)| {
            std::fs::metadata(dir.join(name)).is_ok_and(|m| m.len() == rec.bytes)
        })
    })
}

/// The directory to read the checkpoint `dir` from: `dir` itself when it holds a `state.json`,
/// else the complete set a save interrupted between its two renames left beside it (the new one
/// first), else `dir` (whose errors then say what is missing). Changes nothing on disk.
pub fn readable_dir(dir: &Path) -> PathBuf {
    if dir.join(STATE_FILE).exists() {
        return dir.to_path_buf();
    }
    [staging_dir(dir), retired_dir(dir)]
        .into_iter()
        .flatten()
        .find(|d| is_complete(d))
        .unwrap_or_else(|| dir.to_path_buf())
}

/// Whether `dir` holds a checkpoint, possibly as a set an interrupted save left beside it
/// ([`readable_dir`]).
pub fn exists(dir: &Path) -> bool {
    readable_dir(dir).join(STATE_FILE).exists()
}

fn remove_dir(path: &Path) -> Result<()> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, e)),
        _ => Ok(()),
    }
}

fn rename(from: &Path, to: &Path, dir: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|e| {
        ckpt_err(
            dir,
            format!(
                "cannot move `{}` to `{}`: {e}",
                from.display(),
                to.display()
            ),
        )
    })
}

/// Completes or undoes a save into `dir` that was interrupted (see the module docs): when `dir`
/// is missing, the complete new set (else the old one) beside it becomes `dir`; then the
/// leftover staging and retired directories are removed. A no-op when there are none.
pub fn recover(dir: &Path) -> Result<()> {
    let (new, old) = (staging_dir(dir)?, retired_dir(dir)?);
    if !dir.exists() {
        if is_complete(&new) {
            rename(&new, dir, dir)?;
        } else if is_complete(&old) {
            rename(&old, dir, dir)?;
        }
    }
    remove_dir(&new)?;
    remove_dir(&old)
}

/// Writes `bytes` to `path` and fsyncs it; errors name `name` in the checkpoint `dir`.
fn write_synced(path: &Path, bytes: &[u8], dir: &Path, name: &str) -> Result<()> {
    use std::io::Write;
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(path)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    write().map_err(|e| ckpt_err(dir, format!("cannot write {name}: {e}")))
}

/// Fsyncs a directory (its entries' names), where the platform allows it.
fn sync_dir(path: &Path) {
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.sync_all();
    }
}

/// [`write_files`] with `fault` called before every file-system step of the save (with the
/// step's name): an error from it stops the save there, as a kill would (nothing is cleaned up).
/// For tests that interrupt a save at every point.
#[doc(hidden)]
pub fn write_set(
    dir: &Path,
    files: &[(&str, Vec<u8>)],
    step: u64,
    extra: serde_json::Value,
    env: Option<&EnvRecord>,
    fault: &mut dyn FnMut(&str) -> Result<()>,
) -> Result<()> {
    recover(dir)?;
    let (new, old) = (staging_dir(dir)?, retired_dir(dir)?);
    fault("create staging directory")?;
    std::fs::create_dir_all(&new)
        .map_err(|e| ckpt_err(dir, format!("cannot create the checkpoint directory: {e}")))?;
    let mut records = BTreeMap::new();
    for (name, bytes) in files {
        fault(name)?;
        write_synced(&new.join(name), bytes, dir, name)?;
        records.insert(
            name.to_string(),
            FileRecord {
                bytes: bytes.len() as u64,
                fnv1a64: fnv1a64(bytes),
            },
        );
    }
    let state = StateJson {
        format: FORMAT.into(),
        step,
        extra,
        env: env.cloned(),
        files: records,
    };
    let json = serde_json::to_vec_pretty(&state)
        .map_err(|e| Error::Invalid(format!("cannot serialise state.json: {e}")))?;
    fault(STATE_FILE)?;
    write_synced(&new.join(STATE_FILE), &json, dir, STATE_FILE)?;
    sync_dir(&new);
    if dir.exists() {
        fault("retire the previous checkpoint")?;
        rename(dir, &old, dir)?;
    }
    fault("move the new checkpoint into place")?;
    rename(&new, dir, dir)?;
    if let Some(parent) = old.parent() {
        sync_dir(parent);
    }
    fault("remove the previous checkpoint")?;
    remove_dir(&old)
}

fn read_checked(dir: &Path, state: &StateJson, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    let rec = state
        .files
        .get(name)
        .ok_or_else(|| ckpt_err(&dir.join(STATE_FILE), format!("no record of `{name}`")))?;
    let bytes = std::fs::read(&path).map_err(|e| ckpt_err(&path, format!("cannot read: {e}")))?;
    if bytes.len() as u64 != rec.bytes || fnv1a64(&bytes) != rec.fnv1a64 {
        return Err(ckpt_err(
            &path,
            format!(
                "file is truncated, corrupt or from another save ({} bytes, hash {}; state.json records {} bytes, hash {}); \
                 use another checkpoint (e.g. the best one) or start afresh",
                bytes.len(),
                fnv1a64(&bytes),
                rec.bytes,
                rec.fnv1a64
            ),
        ));
    }
    Ok(bytes)
}

/// Lists the differences between two TOML values as dotted key paths.
fn toml_diff(prefix: &str, a: &toml::Value, b: &toml::Value, out: &mut Vec<String>) {
    match (a, b) {
        (toml::Value::Table(x), toml::Value::Table(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => toml_diff(&p, u, v, out),
                    (Some(u), None) => out.push(format!("`{p}` = {u} only in the checkpoint")),
                    (None, Some(v)) => out.push(format!("`{p}` = {v} only in the expected config")),
                    (None, None) => {}
                }
            }
        }
        _ if a != b => out.push(format!("`{prefix}`: checkpoint {a}, expected {b}")),
        _ => {}
    }
}

/// The differences between a saved config text and an expected one as dotted key paths (none:
/// the same values, whatever the formatting); `Err` with the parse error if `saved` is not TOML.
pub(crate) fn config_differences(
    saved: &str,
    expected: &str,
) -> std::result::Result<Vec<String>, String> {
    if saved == expected {
        return Ok(Vec::new());
    }
    let parse = |s: &str| s.parse::<toml::Value>();
    match (parse(saved), parse(expected)) {
        (Ok(a), Ok(b)) => {
            let mut d = Vec::new();
            toml_diff("", &a, &b, &mut d);
            Ok(d)
        }
        (Err(e), _) => Err(e.to_string()),
        (_, Err(_)) => Ok(vec!["texts differ (expected config is not TOML)".into()]),
    }
}

fn check_config(path: &Path, saved: &str, expected: &str) -> Result<()> {
    let diffs = config_differences(saved, expected)
        .map_err(|e| ckpt_err(path, format!("saved config is not valid TOML: {e}")))?;
    if diffs.is_empty() {
        return Ok(());
    }
    let n = diffs.len();
    Err(ckpt_err(
        path,
        format!(
            "checkpoint was made with a different config ({n} difference(s)): {}; use the checkpoint's config or a fresh run directory",
            diffs.into_iter().take(10).collect::<Vec<_>>().join("; ")
        ),
    ))
}

/// A checkpoint directory's step, extra data, config and weights (as host tensors),
/// integrity-checked; the optimiser state is read on its own ([`read_optimizer`]).
pub(crate) struct CheckpointFiles {
    /// The saved step.
    pub step: u64,
    /// The caller's extra JSON.
    pub extra: serde_json::Value,
    /// The recorded env.
    pub env: Option<EnvRecord>,
    /// The saved config text.
    pub config_toml: String,
    /// The path of the saved config.
    pub config_path: PathBuf,
    /// The variables by name.
    pub weights: HashMap<String, Tensor>,
}

/// Reads the checkpoint in `dir` ([`CheckpointFiles`]).
pub(crate) fn read_files(dir: &Path) -> Result<CheckpointFiles> {
    let dir = &readable_dir(dir);
    let state = read_state(dir)?;
    let (config_path, config_toml) = read_config(dir, &state)?;
    let weights = deserialize(
        &dir.join(WEIGHTS_FILE),
        &read_checked(dir, &state, WEIGHTS_FILE)?,
    )?;
    Ok(CheckpointFiles {
        step: state.step,
        extra: state.extra,
        env: state.env,
        config_toml,
        config_path,
        weights,
    })
}

/// The step, extra data, config text and env record of the checkpoint `dir` ([`readable_dir`]),
/// without its tensors (the config is integrity-checked).
pub fn read_meta(dir: &Path) -> Result<CheckpointMeta> {
    let dir = &readable_dir(dir);
    let state = read_state(dir)?;
    let (_, config_toml) = read_config(dir, &state)?;
    Ok(CheckpointMeta {
        step: state.step,
        extra: state.extra,
        config_toml,
        env: state.env,
    })
}

/// Whether the checkpoint set in `dir` (already resolved, with its `state`) holds Adam's state:
/// recorded in `state.json` and present (a run brought back weights-only keeps the record but
/// not the file; a packed model has neither).
fn holds_optimizer(dir: &Path, state: &StateJson) -> bool {
    state.files.contains_key(OPTIMIZER_FILE) && dir.join(OPTIMIZER_FILE).is_file()
}

/// `dir`'s `optimizer.safetensors` as saved (integrity-checked), or `None` when the checkpoint
/// holds no Adam state ([`holds_optimizer`]).
pub(crate) fn read_optimizer(dir: &Path) -> Result<Option<Vec<u8>>> {
    let dir = &readable_dir(dir);
    let state = read_state(dir)?;
    if !holds_optimizer(dir, &state) {
        return Ok(None);
    }
    read_checked(dir, &state, OPTIMIZER_FILE).map(Some)
}

/// `dir`'s `state.json`, of a known format.
fn read_state(dir: &Path) -> Result<StateJson> {
    let state_path = dir.join(STATE_FILE);
    let state_bytes = std::fs::read(&state_path).map_err(|e| {
        ckpt_err(
            &state_path,
            format!(
                "cannot read ({e}); is `{}` a checkpoint directory?",
                dir.display()
            ),
        )
    })?;
    let state: StateJson = serde_json::from_slice(&state_bytes)
        .map_err(|e| ckpt_err(&state_path, format!("corrupt state.json: {e}")))?;
    if state.format != FORMAT {
        return Err(ckpt_err(
            &state_path,
            format!(
                "unknown checkpoint format `{}` (expected `{FORMAT}`)",
                state.format
            ),
        ));
    }
    Ok(state)
}

/// The path and text of `dir`'s saved config (integrity checked).
fn read_config(dir: &Path, state: &StateJson) -> Result<(PathBuf, String)> {
    let bytes = read_checked(dir, state, CONFIG_FILE)?;
    let path = dir.join(CONFIG_FILE);
    let text = String::from_utf8(bytes).map_err(|_| ckpt_err(&path, "config is not UTF-8"))?;
    Ok((path, text))
}

/// Checks that the checkpoint in `dir` was made under the same `[model]` section as
/// `expected_config_toml`; the other sections may differ. This is what a run that starts from
/// another run's checkpoint under a changed `[train]` section needs (the variables' names and
/// shapes are checked again on loading).
///
/// Besides [`TRAINING_ONLY_MODEL_KEYS`], the keys of [`FRAME_GEOMETRY_MODEL_KEYS`] may differ: a
/// run may go on from an encoder trained on crops to the full frames it is used on. So may
/// `independent_prop` from true to false, which adds propagation's object interaction: the
/// returned prefixes name the variables the branch adds ([`OBJECT_INTERACTION_PREFIX`]), which
/// [`load_checkpoint_adding`] leaves at their initialisation.
pub fn check_same_model(dir: &Path, expected_config_toml: &str) -> Result<Vec<&'static str>> {
    let dir = &readable_dir(dir);
    let (path, saved) = read_config(dir, &read_state(dir)?)?;
    let mut ignored: Vec<&str> = TRAINING_ONLY_MODEL_KEYS
        .iter()
        .chain(FRAME_GEOMETRY_MODEL_KEYS)
        .copied()
        .collect();
    let independent = |text: &str| {
        text.parse::<toml::Value>()
            .ok()?
            .get("model")?
            .get("independent_prop")?
            .as_bool()
    };
    let adds_interaction =
        independent(&saved) == Some(true) && independent(expected_config_toml) == Some(false);
    if adds_interaction {
        ignored.push("independent_prop");
    }
    same_model_section(&path, &saved, expected_config_toml, &ignored)?;
    Ok(if adds_interaction {
        vec![OBJECT_INTERACTION_PREFIX]
    } else {
        Vec::new()
    })
}

/// Name prefix of the variables of propagation's object interaction, the relation MLP that
/// `independent_prop = false` adds (the reference's Shapes model; MNIST and Atari propagate each
/// object alone). A run may branch from an independent checkpoint onto it ([`check_same_model`]).
pub const OBJECT_INTERACTION_PREFIX: &str = "prop_attention.rel.";

/// `[model]` keys that only change how training runs the model, not its parameters or its
/// evaluation: a run may branch from (or average with) a checkpoint that differs in these. The
/// static `priors` enter only the loss's KL terms; `obj_concrete_temp` only how presence is
/// sampled (inference with latent means, `eval_noisy = false`, does not sample it).
pub const TRAINING_ONLY_MODEL_KEYS: &[&str] = &[
    "discovery_dropout",
    "kl_pres_weight_gradient",
    "priors",
    "obj_concrete_temp",
];

/// `[model]` keys of the frame's geometry, which shape no parameter (the backbone is
/// convolutional, the discovery grid follows the frame, every slot shares the same networks):
/// the frame size, the number of slots and the discovery cell. A run may branch from a
/// checkpoint that differs in these (e.g. an encoder trained on 60x60 crops with 25 slots trained
/// further on full 96x96 frames with 36, or on 6-px cells); the variables' shapes are checked
/// again on loading. Averaging still needs them equal.
pub const FRAME_GEOMETRY_MODEL_KEYS: &[&str] = &[
    "image_size",
    "n_objects",
    "n_objects_eval",
    "discovery_cell",
];

/// Checks that the config text `saved` (read from `path`) has the `[model]` section of
/// `expected_config_toml` apart from the keys in `ignored`, naming the differences.
pub(crate) fn same_model_section(
    path: &Path,
    saved: &str,
    expected_config_toml: &str,
    ignored: &[&str],
) -> Result<()> {
    let model_of = |text: &str| -> std::result::Result<toml::Value, String> {
        let v: toml::Value = text.parse().map_err(|e| format!("{e}"))?;
        let mut model = v
            .get("model")
            .cloned()
            .unwrap_or_else(|| toml::Value::Table(Default::default()));
        if let Some(table) = model.as_table_mut() {
            for key in ignored {
                table.remove(*key);
            }
        }
        Ok(model)
    };
    let saved = model_of(saved)
        .map_err(|e| ckpt_err(path, format!("saved config is not valid TOML: {e}")))?;
    let expected = model_of(expected_config_toml)
        .map_err(|e| Error::Invalid(format!("expected config is not valid TOML: {e}")))?;
    let mut diffs = Vec::new();
    toml_diff("model", &saved, &expected, &mut diffs);
    if diffs.is_empty() {
        return Ok(());
    }
    Err(ckpt_err(
        path,
        format!(
            "checkpoint was made with another model ({} difference(s)): {}; only these [model] keys may differ here: {}",
            diffs.len(),
            diffs.into_iter().take(10).collect::<Vec<_>>().join("; "),
            ignored.join(", ")
        ),
    ))
}

/// Loads a checkpoint from `dir` into the variables of `varmap` (and `optimizer` if given), after
/// checking file integrity, that the saved config equals `expected_config_toml` (if given;
/// compared as TOML values) and that the saved variables match `varmap`'s names and shapes
/// exactly. On any error nothing is changed.
pub fn load_checkpoint(
    dir: &Path,
    varmap: &VarMap,
    optimizer: Option<&mut dyn OptimizerState>,
    expected_config_toml: Option<&str>,
) -> Result<CheckpointMeta> {
    load_checkpoint_adding(dir, varmap, optimizer, expected_config_toml, &[]).map(|(meta, _)| meta)
}

/// [`load_checkpoint`], except that model variables the checkpoint lacks whose names start with
/// one of `added` keep their values in `varmap` (their initialisation: networks a branch adds,
/// [`check_same_model`]); returns their names, sorted. Every other variable must match as there.
/// Adam's state holds no moments for added variables: with any, `optimizer` must be `None`.
pub fn load_checkpoint_adding(
    dir: &Path,
    varmap: &VarMap,
    optimizer: Option<&mut dyn OptimizerState>,
    expected_config_toml: Option<&str>,
    added: &[&str],
) -> Result<(CheckpointMeta, Vec<String>)> {
    let dir = &readable_dir(dir);
    let state = read_state(dir)?;
    let (config_path, config_toml) = read_config(dir, &state)?;
    if let Some(expected) = expected_config_toml {
        check_config(&config_path, &config_toml, expected)?;
    }
    let weights_path = dir.join(WEIGHTS_FILE);
    let saved = deserialize(&weights_path, &read_checked(dir, &state, WEIGHTS_FILE)?)?;
    let vars = sorted_vars(varmap)?;
    let mut problems = Vec::new();
    let mut kept = Vec::new();
    for (name, var) in &vars {
        match saved.get(name) {
            None if added.iter().any(|p| name.starts_with(p)) => kept.push(name.clone()),
            None => problems.push(format!(
                "model variable `{name}` {:?} is missing",
                var.dims()
            )),
            Some(t) if t.dims() != var.dims() => problems.push(format!(
                "`{name}` has shape {:?} in the checkpoint, {:?} in the model",
                t.dims(),
                var.dims()
            )),
            Some(_) => {}
        }
    }
    let mut extra: Vec<&String> = saved
        .keys()
        .filter(|k| !vars.iter().any(|(n, _)| n == *k))
        .collect();
    extra.sort();
    for k in extra {
        problems.push(format!("checkpoint variable `{k}` is not in the model"));
    }
    if !problems.is_empty() {
        let n = problems.len();
        problems.truncate(12);
        return Err(ckpt_err(
            &weights_path,
            format!(
                "variables do not match the model ({n} problem(s)): {}; the checkpoint is from another model version or config",
                problems.join("; ")
            ),
        ));
    }
    // Refused before any tensor is converted or set.
    if optimizer.is_some() && !kept.is_empty() {
        return Err(ckpt_err(
            &weights_path,
            format!(
                "the model adds {} variable(s) the checkpoint lacks (`{}`, ...), for which its \
                 Adam state holds no moments: start with `--reset-optimizer` (Adam afresh)",
                kept.len(),
                kept[0]
            ),
        ));
    }
    let mut converted = Vec::with_capacity(vars.len());
    for (name, var) in &vars {
        if let Some(t) = saved.get(name) {
            converted.push((var, t.to_dtype(var.dtype())?.to_device(var.device())?));
        }
    }
    if let Some(optimizer) = optimizer {
        let opt_path = dir.join(OPTIMIZER_FILE);
        if !holds_optimizer(dir, &state) {
            return Err(ckpt_err(
                &opt_path,
                "missing or unrecorded: this checkpoint holds weights without Adam's state \
                 (brought back weights-only, averaged from such a checkpoint, or a packed \
                 model); resume it with `--reset-optimizer` (Adam afresh)",
            ));
        }
        let opt = deserialize(&opt_path, &read_checked(dir, &state, OPTIMIZER_FILE)?)?;
        optimizer
            .load_state(&opt)
            .map_err(|e| ckpt_err(&opt_path, e.to_string()))?;
    }
    for (var, t) in converted {
        var.set(&t)?;
    }
    let meta = CheckpointMeta {
        step: state.step,
        extra: state.extra,
        config_toml,
        env: state.env,
    };
    Ok((meta, kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::adam::{Adam, AdamConfig};
    use candle_core::Var;
    use serde_json::json;

    const CFG: &str = "[model]\nk = 16\nname = \"mnist\"\n";

    fn model(seed: u64, rename: bool, wide: bool) -> (VarMap, Vec<(String, Var)>) {
        let vm = VarMap::new();
        let vb = crate::rng::seeded_var_builder(&vm, seed, DType::F32, &Device::Cpu);
        let n = if wide { 4 } else { 3 };
        crate::nn::mlp::Mlp::new(vb.pp(if rename { "enc2" } else { "enc" }), 2, &[n], 1).unwrap();
        crate::nn::mlp::Mlp::new(vb.pp("dec"), 1, &[], 2).unwrap();
        let vars = sorted_vars(&vm).unwrap();
        (vm, vars)
    }

    fn values(vm: &VarMap) -> Vec<(String, Vec<u32>)> {
        sorted_vars(vm)
            .unwrap()
            .into_iter()
            .map(|(n, v)| {
                (
                    n,
                    v.as_tensor()
                        .flatten_all()
                        .unwrap()
                        .to_vec1::<f32>()
                        .unwrap()
                        .iter()
                        .map(|x| x.to_bits())
                        .collect(),
                )
            })
            .collect()
    }

    fn saved(dir: &Path) -> (VarMap, Adam) {
        let (vm, vars) = model(1, false, false);
        let mut adam = Adam::new(vars.clone(), AdamConfig::default()).unwrap();
        // One real step so the optimiser state is non-trivial.
        let loss = vars
            .iter()
            .map(|(_, v)| v.as_tensor().sqr().unwrap().sum_all().unwrap())
            .reduce(|a, b| (a + b).unwrap())
            .unwrap();
        adam.step(&loss.backward().unwrap()).unwrap();
        save_checkpoint(
            dir,
            &vm,
            &adam,
            CFG,
            7,
            serde_json::json!({"stage": 1}),
            None,
        )
        .unwrap();
        (vm, adam)
    }

    #[test]
    fn save_load_roundtrip_is_bit_identical() {
        let dir = tempfile::tempdir().unwrap();
        let (vm, adam) = saved(dir.path());
        let (vm2, vars2) = model(2, false, false);
        assert_ne!(values(&vm), values(&vm2));
        let mut adam2 = Adam::new(vars2, AdamConfig::default()).unwrap();
        // Formatting differences in the config are fine.
        let meta = load_checkpoint(
            dir.path(),
            &vm2,
            Some(&mut adam2),
            Some("[model]\nname = \"mnist\"\nk   = 16\n"),
        )
        .unwrap();
        assert_eq!(meta.step, 7);
        assert_eq!(meta.extra, serde_json::json!({"stage": 1}));
        assert_eq!(meta.config_toml, CFG);
        assert_eq!(values(&vm), values(&vm2));
        assert_eq!(adam2.step_count(), 1);
        let s1: HashMap<_, _> = adam.state().into_iter().collect();
        for (k, t) in adam2.state() {
            let a = s1[&k]
                .flatten_all()
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap()
                .to_vec1::<f64>()
                .unwrap();
            let b = t
                .flatten_all()
                .unwrap()
                .to_dtype(DType::F64)
                .unwrap()
                .to_vec1::<f64>()
                .unwrap();
            assert_eq!(a, b, "{k}");
        }
    }

    fn expect_err(r: Result<CheckpointMeta>, needle: &str) {
        match r {
            Err(Error::Checkpoint { msg, .. }) => {
                assert!(msg.contains(needle), "`{msg}` lacks `{needle}`")
            }
            other => panic!("expected a checkpoint error with `{needle}`, got {other:?}"),
        }
    }

    #[test]
    fn added_variables_keep_their_initialisation_and_nothing_else_is_excused() {
        let dir = tempfile::tempdir().unwrap();
        let (saved_vm, _) = saved(dir.path());
        // The model of the checkpoint plus one network, `extra`, the checkpoint lacks.
        let with_extra = |seed| {
            let (vm, _) = model(seed, false, false);
            let vb = crate::rng::seeded_var_builder(&vm, seed + 100, DType::F32, &Device::Cpu);
            crate::nn::mlp::Mlp::new(vb.pp("extra"), 2, &[3], 1).unwrap();
            vm
        };
        let vm = with_extra(4);
        let init: Vec<_> = values(&vm)
            .into_iter()
            .filter(|(n, _)| n.starts_with("extra."))
            .collect();
        assert_eq!(init.len(), 4);
        // Not named as added: refused, naming the variable, and nothing changes.
        let before = values(&vm);
        expect_err(
            load_checkpoint(dir.path(), &vm, None, None),
            "`extra.layer0.weight`",
        );
        assert_eq!(values(&vm), before);
        // With Adam's state: refused (it holds no moments for `extra`), nothing changes.
        let vars = sorted_vars(&vm).unwrap();
        let mut adam = Adam::new(vars, AdamConfig::default()).unwrap();
        match load_checkpoint_adding(dir.path(), &vm, Some(&mut adam), None, &["extra."]) {
            Err(Error::Checkpoint { msg, .. }) => {
                assert!(msg.contains("--reset-optimizer"), "{msg}")
            }
            other => panic!("expected a checkpoint error, got {other:?}"),
        }
        assert_eq!(values(&vm), before);
        // Named as added: the checkpoint's variables load, `extra` keeps its initialisation.
        let (meta, kept) =
            load_checkpoint_adding(dir.path(), &vm, None, None, &["extra."]).unwrap();
        assert_eq!(meta.step, 7);
        assert_eq!(
            kept,
            [
                "extra.layer0.bias",
                "extra.layer0.weight",
                "extra.layer1.bias",
                "extra.layer1.weight"
            ]
        );
        let loaded = values(&vm);
        for (name, v) in values(&saved_vm) {
            assert_eq!(
                loaded.iter().find(|(n, _)| *n == name).unwrap().1,
                v,
                "{name}"
            );
        }
        for (name, v) in &init {
            assert_eq!(
                &loaded.iter().find(|(n, _)| n == name).unwrap().1,
                v,
                "{name}"
            );
        }
    }

    #[test]
    fn mismatches_are_named_and_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        saved(dir.path());
        let (vm, vars) = model(3, true, false);
        let before = values(&vm);
        expect_err(
            load_checkpoint(dir.path(), &vm, None, None),
            "`enc2.layer0.weight`",
        );
        expect_err(
            load_checkpoint(dir.path(), &vm, None, None),
            "checkpoint variable `enc.layer0.weight` is not in the model",
        );
        let (vm_w, _) = model(3, false, true);
        expect_err(
            load_checkpoint(dir.path(), &vm_w, None, None),
            "shape [3, 2] in the checkpoint, [4, 2] in the model",
        );
        expect_err(
            load_checkpoint(
                dir.path(),
                &vm,
                None,
                Some("[model]\nk = 36\nname = \"mnist\"\n"),
            ),
            "`model.k`: checkpoint 16, expected 36",
        );
        // Optimiser over other variables: error, and the weights stay untouched.
        let (vm_ok, _) = model(4, false, false);
        let before_ok = values(&vm_ok);
        let mut adam = Adam::new(vars, AdamConfig::default()).unwrap();
        expect_err(
            load_checkpoint(dir.path(), &vm_ok, Some(&mut adam), None),
            "optimiser state does not match",
        );
        assert_eq!(values(&vm_ok), before_ok);
        assert_eq!(values(&vm), before);
        expect_err(
            load_checkpoint(&dir.path().join("nope"), &vm_ok, None, None),
            "checkpoint directory",
        );
    }

    #[test]
    fn corrupt_or_truncated_files_give_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        saved(dir.path());
        let (vm, _) = model(5, false, false);
        let w = dir.path().join(WEIGHTS_FILE);
        let good = std::fs::read(&w).unwrap();
        std::fs::write(&w, &good[..good.len() / 2]).unwrap();
        expect_err(load_checkpoint(dir.path(), &vm, None, None), "truncated");
        let mut flipped = good.clone();
        flipped[good.len() - 3] ^= 0x55;
        std::fs::write(&w, &flipped).unwrap();
        expect_err(load_checkpoint(dir.path(), &vm, None, None), "corrupt");
        // Garbage whose record matches (e.g. written by a buggy tool): parse error, no panic.
        for garbage in [
            vec![],
            vec![1u8; 5],
            vec![0xff; 64],
            [
                16u64.to_le_bytes().to_vec(),
                b"{\"a\":{\"dtype\":1}}".to_vec(),
            ]
            .concat(),
        ] {
            std::fs::write(&w, &garbage).unwrap();
            let sp = dir.path().join(STATE_FILE);
            let mut st: StateJson = serde_json::from_slice(&std::fs::read(&sp).unwrap()).unwrap();
            st.files.insert(
                WEIGHTS_FILE.into(),
                FileRecord {
                    bytes: garbage.len() as u64,
                    fnv1a64: fnv1a64(&garbage),
                },
            );
            std::fs::write(&sp, serde_json::to_vec(&st).unwrap()).unwrap();
            expect_err(load_checkpoint(dir.path(), &vm, None, None), "safetensors");
        }
        std::fs::write(dir.path().join(STATE_FILE), b"{\"format\": ").unwrap();
        expect_err(
            load_checkpoint(dir.path(), &vm, None, None),
            "corrupt state.json",
        );
    }

    /// The files `save_checkpoint` writes for `vm` and `adam`.
    fn files_of(vm: &VarMap, adam: &Adam) -> Vec<(&'static str, Vec<u8>)> {
        let weights: Vec<(String, Tensor)> = sorted_vars(vm)
            .unwrap()
            .into_iter()
            .map(|(n, v)| (n, v.as_tensor().clone()))
            .collect();
        vec![
            (WEIGHTS_FILE, serialize(&weights).unwrap()),
            (OPTIMIZER_FILE, serialize(&adam.state()).unwrap()),
            (CONFIG_FILE, CFG.as_bytes().to_vec()),
        ]
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_save_killed_between_any_two_writes_leaves_a_complete_checkpoint() {
        let env = EnvRecord {
            id: "smoke".into(),
            preset: None,
            frame: [24, 24, 3],
        };
        // The steps of a save over an existing checkpoint.
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("ck");
        let (vm, adam) = saved(&dir);
        let mut steps = Vec::new();
        let mut count = |s: &str| {
            steps.push(s.to_string());
            Ok(())
        };
        write_set(&dir, &files_of(&vm, &adam), 8, json!(8), None, &mut count).unwrap();
        assert_eq!(steps.len(), 8, "{steps:?}");
        for (k, at) in steps.iter().enumerate() {
            let root = tempfile::tempdir().unwrap();
            let dir = root.path().join("ck");
            let (vm, adam) = saved(&dir);
            let mut n = 0;
            let mut kill = |_: &str| {
                n += 1;
                if n > k {
                    Err(Error::Invalid("killed".into()))
                } else {
                    Ok(())
                }
            };
            let files = files_of(&vm, &adam);
            let err = write_set(&dir, &files, 8, json!(8), Some(&env), &mut kill);
            assert!(err.is_err(), "{at}");
            // Readers find a complete checkpoint as the kill left it: the old one until the new
            // one has been moved into place.
            let want = if k + 2 >= steps.len() { 8 } else { 7 };
            let (vm2, vars2) = model(9, false, false);
            let mut adam2 = Adam::new(vars2, AdamConfig::default()).unwrap();
            let meta = load_checkpoint(&dir, &vm2, Some(&mut adam2), Some(CFG)).unwrap();
            assert_eq!(meta.step, want, "killed before `{at}`");
            assert_eq!(values(&vm2), values(&vm), "{at}");
            assert!(exists(&dir), "{at}");
            assert_eq!(meta.env.is_some(), want == 8, "{at}");
            // A resume puts it in place and leaves nothing else; the next save works.
            recover(&dir).unwrap();
            assert_eq!(names_in(root.path()), ["ck"], "{at}");
            assert_eq!(read_meta(&dir).unwrap().step, want, "{at}");
            save_checkpoint(&dir, &vm, &adam, CFG, 9, json!(9), Some(&env)).unwrap();
            assert_eq!(names_in(root.path()), ["ck"], "{at}");
            let meta = load_checkpoint(&dir, &vm2, Some(&mut adam2), Some(CFG)).unwrap();
            assert_eq!((meta.step, meta.env.as_ref()), (9, Some(&env)), "{at}");
        }
    }

    #[test]
    fn env_records_are_compared_and_old_checkpoints_accepted() {
        let a = EnvRecord {
            id: "space_invaders".into(),
            preset: Some("paper".into()),
            frame: [195, 160, 3],
        };
        let b = EnvRecord {
            preset: Some("v5".into()),
            frame: [210, 160, 3],
            ..a.clone()
        };
        let p = Path::new("run/checkpoint");
        check_env_matches(Some(&a), &a, false, p).unwrap();
        check_env_matches(None, &a, false, p).unwrap();
        check_env_matches(Some(&a), &b, true, p).unwrap();
        let err = check_env_matches(Some(&a), &b, false, p)
            .unwrap_err()
            .to_string();
        for needle in [
            "run/checkpoint",
            "`space_invaders` (preset paper, 195x160x3 frames)",
            "`space_invaders` (preset v5, 210x160x3 frames)",
            "--allow-env-mismatch",
        ] {
            assert!(err.contains(needle), "{err}");
        }
        // state.json of a checkpoint without the record (older versions) reads as unknown.
        let dir = tempfile::tempdir().unwrap();
        saved(dir.path());
        let state = std::fs::read_to_string(dir.path().join(STATE_FILE)).unwrap();
        assert!(!state.contains("\"env\""), "{state}");
        assert_eq!(recorded_env(dir.path()).unwrap(), None);
    }
}
